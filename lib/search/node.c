/*
 * node.c - per-thread search contexts, error recording and limit polling.
 *
 * Concurrency contract: a context belongs to one thread. gts__fail() and
 * gts__poll_limits() write the search-wide gts__shared block with ck_pr
 * atomics; the first error wins.
 */
#include "search/node.h"

#include <stdlib.h>
#include <string.h>

static const uint32_t POLL_INTERVAL = 1024;

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

/* One block per ply: moves, then order, then keys (sizes are multiples of
 * 8 bytes apart from keys, which come last). Not zeroed: every entry is
 * written (by generate, ordering) before it is read. */
static size_t ply_block_size(uint32_t max_moves)
{
    return (size_t)max_moves * (sizeof(gts_move) + sizeof(gts__mv) + sizeof(int32_t));
}

bool gts__ctx_grow(gts__ctx *c, int ply)
{
    char *b = gts__malloc(c->alloc, ply_block_size(c->max_moves));
    if (!b)
        return false;
    c->moves[ply] = (gts_move *)b;
    c->order[ply] = (gts__mv *)(b + (size_t)c->max_moves * sizeof(gts_move));
    c->keys[ply] = (int32_t *)(b + (size_t)c->max_moves * (sizeof(gts_move) + sizeof(gts__mv)));
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
    c->order_hint = game->move_score || game->generate_keyed || c->use_killers || c->use_history;
    c->use_prefetch = e->tt_prefetch != 0;
    c->vp = e->virtual_procs != 0 && e->threads > 1;
    c->split_ply = e->split_ply > 0 ? (int)e->split_ply : GTS_MAX_PLY;
    c->tt_exact_depth = e->tt_exact_depth;
    c->use_qs = e->quiescence != 0 && game->generate_noisy != NULL;
    c->use_pvs = false;
    c->nbest = (int)e->nbest;
    c->nbest_depth = (int)e->nbest_depth;
    c->nodes = c->tt_probes = c->tt_hits = c->tt_cutoffs = 0;
    c->flushed = 0;
    c->seldepth = 0;
    c->root_has_move = false;
    c->next_poll = e->shared.poll_interval;
}

void gts__fail(gts__ctx *c, int status, int callback_status)
{
    gts__shared *sh = c->shared;
    if (gts__atomic_cas_32((uint32_t *)&sh->error, 0, (uint32_t)status))
        gts__atomic_store_relaxed_32((uint32_t *)&sh->callback_status,
                                     (uint32_t)callback_status);
    gts__stop_run(sh, 0);
}

void gts__ctx_parts(gts__ctx *c, int i, int threads)
{
    if (!c->tt)
        return;
    c->tt_part[0] = c->tt->part[0];
    c->tt_part[1] = gts__tt_near_slice(c->tt, i, c->vp ? 1 : threads);
}

bool gts__prefetch_children(gts__ctx *c, const gts_move *moves, int n, int depth)
{
    const gts_game *g = c->game;
    /* A copy: the callbacks below cannot change it, so it stays in registers. */
    const gts__tt_part part = *gts__ctx_part(c, depth);
    if (g->hash_after) { /* the children's keys without playing them */
        for (int i = 0; i < n; i++)
            gts__tt_prefetch_bucket(gts__tt_in(&part, g->hash_after(c->state, moves[i], c->user)));
        return true;
    }
    for (int i = 0; i < n; i++) {
        if (g->apply(c->state, moves[i], c->user) < 0)
            continue;
        gts__tt_prefetch_bucket(gts__tt_in(&part, g->hash(c->state, c->user)));
        int rc = g->undo(c->state, moves[i], c->user);
        if (rc < 0) {
            gts__fail(c, GTS_ECALLBACK, rc);
            return false;
        }
    }
    return true;
}

void gts__bounds_fail(gts__ctx *c, int rc, gts_score lo, gts_score hi)
{
    if (rc < 0)
        gts__fail(c, GTS_ECALLBACK, rc);
    else
        gts__fail(c, GTS_ESCORE, lo < GTS_SCORE_LOSS || lo > hi ? lo : hi);
}

bool gts__poll_limits(gts__ctx *c)
{
    gts__shared *sh = c->shared;
    c->next_poll = c->nodes + sh->poll_interval;
    uint64_t fresh = c->nodes - c->flushed;
    uint64_t total = gts__atomic_faa_relaxed_64(&sh->nodes, fresh) + fresh;
    c->flushed = c->nodes;
    if (sh->node_limit && total >= sh->node_limit) {
        gts__stop_run(sh, GTS_RESULT_NODE_LIMIT);
        return true;
    }
    if (sh->deadline_ns && gts__now_ns() >= sh->deadline_ns) {
        gts__stop_run(sh, GTS_RESULT_TIME_LIMIT);
        return true;
    }
    return false;
}

/* Interval between limit checks: every node under a small node budget. */
uint32_t gts__poll_interval(uint64_t node_limit)
{
    if (node_limit && node_limit / 16 < POLL_INTERVAL)
        return (uint32_t)(node_limit / 16 > 0 ? node_limit / 16 : 1);
    return POLL_INTERVAL;
}


