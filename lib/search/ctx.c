/*
 * ctx.c - per-thread search contexts and the prepare step of a search
 * (search kernel).
 *
 * The engine (core) owns the array of contexts (gts_engine::ctx) but knows
 * nothing of them: they are made here, before a search (gts__engine_prepare),
 * and cleared and freed through the hooks this file installs on the engine
 * (gts__search_hooks: gts_engine_clear, gts_engine_free).
 *
 * Concurrency contract: a context belongs to one thread during a search;
 * everything else here runs on the engine's owner thread while it holds
 * the engine (or frees it).
 */
#include "search/ctx.h"

#include <math.h>
#include <string.h>

gts__ctx *gts__ctx_new(const gts_allocator *alloc, uint32_t max_moves)
{
    gts__ctx *c = gts__calloc(alloc, 1, sizeof *c);
    if (!c)
        return NULL;
    c->max_moves = max_moves;
    c->alloc = alloc;
    gts__ctx_clear_tables(c);
    return c;
}

/* One block per ply: moves, then order, then keys, then the noisy flags
 * (sizes are multiples of 8 bytes apart from keys and flags, which come
 * last). Not zeroed: every entry is written (by generate, ordering,
 * gts__mark_noisy) before it is read. */
static size_t ply_block_size(uint32_t max_moves)
{
    return (size_t)max_moves
           * (sizeof(gts_move) + sizeof(gts__mv) + sizeof(int32_t) + sizeof(uint8_t));
}

bool gts__ctx_grow(gts__ctx *c, int ply)
{
    char *b = gts__malloc(c->alloc, ply_block_size(c->max_moves));
    if (!b)
        return false;
    c->moves[ply] = (gts_move *)b;
    c->order[ply] = (gts__mv *)(b + (size_t)c->max_moves * sizeof(gts_move));
    c->keys[ply] = (int32_t *)(b + (size_t)c->max_moves * (sizeof(gts_move) + sizeof(gts__mv)));
    c->noisy[ply] = (uint8_t *)(b + (size_t)c->max_moves
                                        * (sizeof(gts_move) + sizeof(gts__mv) + sizeof(int32_t)));
    return true;
}

void gts__ctx_free(const gts_allocator *alloc, gts__ctx *c)
{
    if (!c)
        return;
    for (int ply = 0; ply <= GTS_MAX_PLY; ply++)
        gts__free(alloc, c->moves[ply], ply_block_size(c->max_moves));
    gts__free(alloc, c, sizeof *c);
}

void gts__ctx_clear_tables(gts__ctx *c)
{
    memset(c->killers, 0xff, sizeof c->killers);
    memset(c->history, 0, sizeof c->history);
    memset(c->counter, 0xff, sizeof c->counter);
}

void gts__ctx_begin(gts__ctx *c, gts_engine *e, const gts_game *game, void *state)
{
    c->engine = e;
    c->game = game;
    c->state = state;
    c->user = game->user;
    c->shared = &e->shared;
    c->tt = (game->hash && gts__tt_enabled(&e->tt)) ? &e->tt : NULL;
    c->abort = NULL;
    c->use_killers = e->killers != 0;
    c->use_history = e->history != 0;
    c->use_counter = e->counter_moves != 0;
    c->history_gravity = c->use_history && e->history == 2;
    /* Scores of one kind of history mean nothing to the other. */
    if (c->use_history && c->history_mode != (int)e->history)
        memset(c->history, 0, sizeof c->history);
    if (c->use_history)
        c->history_mode = (int)e->history;
    c->order_hint = game->move_score || game->generate_keyed || c->use_killers || c->use_history
                    || c->use_counter;
    c->line_slot[0] = GTS__HISTORY_SIZE;
    c->use_prefetch = e->tt_prefetch != 0;
    c->vp = e->virtual_procs != 0 && e->threads > 1;
    c->split_ply = e->split_ply > 0 ? (int)e->split_ply : GTS_MAX_PLY;
    c->tt_exact_depth = e->tt_exact_depth;
    c->use_qs = e->quiescence != 0 && game->generate_noisy != NULL;
    c->use_pvs = false;
    c->nbest = (int)e->nbest;
    c->nbest_depth = (int)e->nbest_depth;
    c->selective = c->rep = c->null_ok = false;
    c->null_r = c->lmr = c->lmp = 0;
    c->futility = c->razor = c->contempt = 0;
    c->nodes = c->tt_probes = c->tt_hits = c->tt_cutoffs = 0;
    c->flushed = 0;
    c->seldepth = 0;
    c->root_has_move = false;
    c->next_poll = e->shared.poll_interval;
}

/* Late-move reductions: r(d, k) = 0.75 + ln(d) ln(k) / 2.25 plies for the
 * k-th move at depth d (Ethereal's table), scaled by GTS_OPT_LMR percent. */
static const double LMR_BASE = 0.75, LMR_DIVISOR = 2.25;

void gts__ctx_select(gts__ctx *c, const gts_engine *e, const gts_limits *lim)
{
    const gts_game *g = c->game;
    c->rep = (g->traits & GTS_TRAIT_REPETITION_DRAW) && g->hash && c->state;
    c->null_r = (int)e->null_move;
    c->null_ok = c->null_r > 0 && g->null_apply && g->null_undo;
    c->lmr = (int)e->lmr;
    c->lmp = (int)e->lmp;
    c->futility = (gts_score)e->futility;
    c->razor = (gts_score)e->razor;
    c->contempt = (gts_score)e->contempt;
    c->selective = c->rep || c->null_ok || c->lmr || c->lmp || c->futility || c->razor;
    c->null_block = 0;
    c->rep_floor = 0;
    c->null_parity = 0;
    c->hist = lim->history;
    c->hist_len = lim->history ? lim->history_len : 0;
    c->rep_low = GTS__REP_NONE;
    c->ext_in[0] = c->null_in[0] = false;
    if (c->rep)
        c->path_key[0] = g->hash(c->state, c->user);
    if (c->lmr)
        for (int d = 0; d < 64; d++)
            for (int k = 0; k < 64; k++) {
                double r = d && k ? (LMR_BASE + log(d) * log(k) / LMR_DIVISOR) * c->lmr / 100 : 0;
                c->lmr_table[d][k] = (uint8_t)(r < 0 ? 0 : r > 63 ? 63 : r);
            }
}

void gts__ctx_parts(gts__ctx *c, int i, int threads)
{
    if (!c->tt)
        return;
    c->tt_part[0] = c->tt->part[0];
    c->tt_part[1] = gts__tt_near_slice(c->tt, i, c->vp ? 1 : threads);
}

static void free_contexts(gts_engine *e)
{
    for (int i = 0; i < e->nctx; i++)
        gts__ctx_free(&e->alloc, e->ctx[i]);
    gts__free(&e->alloc, e->ctx, (size_t)e->ctx_cap * sizeof *e->ctx);
    e->ctx = NULL;
    e->nctx = 0;
    e->ctx_cap = 0;
}

static void clear_contexts(gts_engine *e)
{
    for (int i = 0; i < e->nctx; i++)
        gts__ctx_clear_tables(e->ctx[i]);
}

static const gts__search_hooks CTX_HOOKS = {
    .clear = clear_contexts,
    .release = free_contexts,
};

int gts__engine_prepare(gts_engine *e, const gts_game *game, int threads)
{
    e->search = &CTX_HOOKS;
    /* The table exists since gts_engine_new or gts_engine_set; this only
     * retries after an allocation that failed there. */
    if (e->tt_mb > 0 && !gts__tt_enabled(&e->tt)) {
        int rc = gts__tt_resize(&e->tt, (size_t)e->tt_mb);
        if (rc != GTS_OK)
            return rc;
    }

    if (game->max_moves > e->max_moves) {
        /* Move buffers are sized by max_moves: rebuild the contexts. */
        free_contexts(e);
        e->max_moves = game->max_moves;
    }
    if (threads > e->ctx_cap) {
        gts__ctx **ctx = gts__calloc(&e->alloc, (size_t)threads, sizeof *ctx);
        if (!ctx)
            return GTS_ENOMEM;
        if (e->nctx)
            memcpy(ctx, e->ctx, (size_t)e->nctx * sizeof *ctx);
        gts__free(&e->alloc, e->ctx, (size_t)e->ctx_cap * sizeof *e->ctx);
        e->ctx = ctx;
        e->ctx_cap = threads;
    }
    while (e->nctx < threads) {
        gts__ctx *c = gts__ctx_new(&e->alloc, e->max_moves);
        if (!c)
            return GTS_ENOMEM;
        c->id = e->nctx;
        e->ctx[e->nctx++] = c;
    }
    if (threads > 1 && (!e->pool || gts__pool_threads(e->pool) != threads)) {
        gts__pool_free(e->pool);
        e->pool = NULL;
        int rc = gts__pool_new(&e->pool, threads, &e->alloc);
        if (rc != GTS_OK)
            return rc;
    }
    return GTS_OK;
}

