/*
 * engine.c - engine lifecycle, options, status strings and version.
 *
 * What: the gts_engine object owns the transposition table, the per-thread
 * search contexts (killers, history, move buffers) and, once a parallel
 * search has run, the work-stealing pool. Everything is allocated here,
 * through the engine's gts_allocator (malloc/free unless the engine was made
 * by gts_engine_new_with), and freed in gts_engine_free(); no global mutable
 * state exists.
 *
 * Concurrency contract: every function except gts_engine_stop() belongs to
 * the engine's owner thread. gts_engine_stop() only performs an atomic store
 * into the running search's shared block, which lives as long as the engine.
 */
#include "engine_internal.h"
#include "struct_internal.h"
#include "hook_internal.h"
#include "search/node.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- status ------------------------------------------------------------ */

const char *gts_strerror(int status)
{
    switch (status) {
#define GTS__STATUS_MSG(name, value, msg) case value: return msg;
        GTS_STATUS_MAP(GTS__STATUS_MSG)
#undef GTS__STATUS_MSG
    default: return "unknown status";
    }
}

const char *gts_status_name(int status)
{
    switch (status) {
#define GTS__STATUS_NAME(name, value, msg) case value: return #name;
        GTS_STATUS_MAP(GTS__STATUS_NAME)
#undef GTS__STATUS_NAME
    default: return NULL;
    }
}

/* ---- versioned structs -------------------------------------------------- */

/* The 0.1 layouts are frozen: a change here is an ABI break (LP64). */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(GTS_GAME_SIZE_V0_1 == 136 - 16, "gts_game 0.1 layout moved");
_Static_assert(GTS_GAME_SIZE_V0_2 == 160, "gts_game 0.2 layout moved");
_Static_assert(GTS_LIMITS_SIZE_V0_1 == 64, "gts_limits 0.1 layout moved");
_Static_assert(GTS_ALLOCATOR_SIZE_V0_1 == 32, "gts_allocator 0.1 layout moved");
#endif

size_t gts_struct_size(gts_struct_id id)
{
    switch (id) {
    case GTS_STRUCT_GAME: return sizeof(gts_game);
    case GTS_STRUCT_LIMITS: return sizeof(gts_limits);
    case GTS_STRUCT_RESULT: return sizeof(gts_result);
    case GTS_STRUCT_PROBCUT_PARAMS: return sizeof(gts_probcut_params);
    case GTS_STRUCT_PROBCUT_FIT: return sizeof(gts_probcut_fit);
    case GTS_STRUCT_ALLOCATOR: return sizeof(gts_allocator);
    case GTS_STRUCT_MCTS_MOVE_STATS: return sizeof(gts_mcts_move_stats);
    }
    return 0;
}

/* ---- version ----------------------------------------------------------- */

unsigned gts_version(void) { return GTS_VERSION_HEX; }
const char *gts_version_string(void) { return GTS_VERSION_STRING; }

/* ---- options ----------------------------------------------------------- */

typedef struct option_info {
    gts_option option;
    const char *name; /* the enum name without GTS_OPT_, lowercase */
    int64_t min, max, def;
    size_t offset; /* of the int64_t field in struct gts_engine */
} option_info;

#define OPT(o, lo, hi, d, field) { o, #field, lo, hi, d, offsetof(struct gts_engine, field) }
static const option_info OPTIONS[] = {
    OPT(GTS_OPT_TT_MB, 0, 1 << 20, 16, tt_mb),
    OPT(GTS_OPT_TT_PREFETCH, 0, 1, 0, tt_prefetch),
    OPT(GTS_OPT_TT_NEAR_DEPTH, 0, GTS_MAX_DEPTH, 0, tt_near_depth),
    OPT(GTS_OPT_TT_NEAR_KB, 1, 1 << 30, 1024, tt_near_kb),
    OPT(GTS_OPT_ASPIRATION, 0, GTS_SCORE_WIN, 0, aspiration),
    OPT(GTS_OPT_KILLERS, 0, 1, 1, killers),
    OPT(GTS_OPT_HISTORY, 0, 1, 1, history),
    OPT(GTS_OPT_QUIESCENCE, 0, 1, 1, quiescence),
    OPT(GTS_OPT_ITERATIVE, 0, 1, 1, iterative),
    OPT(GTS_OPT_DEEPEN_NODES, 0, (int64_t)1 << 62, 0, deepen_nodes),
    OPT(GTS_OPT_ROOT_DRIVER, GTS_ROOT_WINDOW, GTS_ROOT_MTDF, GTS_ROOT_WINDOW, root_driver),
    OPT(GTS_OPT_NBEST, 0, 65535, 0, nbest),
    OPT(GTS_OPT_NBEST_DEPTH, 0, GTS_MAX_DEPTH, 0, nbest_depth),
    OPT(GTS_OPT_THREADS, 1, 256, 1, threads),
    OPT(GTS_OPT_VIRTUAL, 0, 1, 0, virtual_procs),
    OPT(GTS_OPT_SPLIT_PLY, 0, GTS_MAX_PLY, 0, split_ply),
    OPT(GTS_OPT_JAMBOREE_SERIAL, 0, 100, 0, jamboree_serial),
    OPT(GTS_OPT_MCTS_EXPLORATION, 0, 10000, 141, mcts_exploration),
    OPT(GTS_OPT_MCTS_PLAYOUTS, 0, (int64_t)1 << 62, 0, mcts_playouts),
    OPT(GTS_OPT_MCTS_PLAYOUT_DEPTH, 0, GTS_MAX_PLY, GTS_MAX_PLY, mcts_playout_depth),
    OPT(GTS_OPT_MCTS_EVAL_SCALE, 1, GTS_SCORE_WIN, 200, mcts_eval_scale),
    OPT(GTS_OPT_TREE_MB, 1, 1 << 20, 64, tree_mb),
    OPT(GTS_OPT_MCTS_SEED, 0, (int64_t)1 << 62, 0, mcts_seed),
    OPT(GTS_OPT_MCTS_PARALLEL, GTS_MCTS_TREE, GTS_MCTS_ROOT, GTS_MCTS_TREE, mcts_parallel),
    OPT(GTS_OPT_MCTS_VIRTUAL_LOSS, 0, 1000, 1, mcts_virtual_loss),
    OPT(GTS_OPT_MCTS_PRIOR, 0, 100000, 0, mcts_prior),
    OPT(GTS_OPT_MCTS_RAVE, 0, (int64_t)1 << 40, 0, mcts_rave),
    OPT(GTS_OPT_MCTS_REUSE, 0, 1, 1, mcts_reuse),
    OPT(GTS_OPT_BSTAR_MARGIN, 0, GTS_SCORE_WIN, 0, bstar_margin),
    OPT(GTS_OPT_MMA_P, 1, 1000, 100, mma_p),
    OPT(GTS_OPT_MMA_SCALE, 1, GTS_SCORE_WIN, 200, mma_scale),
    OPT(GTS_OPT_MMA_BACKUP, GTS_MMA_REVERSE, GTS_MMA_MEAN, GTS_MMA_REVERSE, mma_backup),
};
#undef OPT

static const option_info *find_option(gts_option option)
{
    for (size_t i = 0; i < sizeof OPTIONS / sizeof OPTIONS[0]; i++)
        if (OPTIONS[i].option == option)
            return &OPTIONS[i];
    return NULL;
}

const char *gts_option_name(gts_option option)
{
    const option_info *o = find_option(option);
    return o ? o->name : NULL;
}

gts_status gts_option_from_name(const char *name, gts_option *option)
{
    if (!name || !option)
        return GTS_EINVAL;
    for (size_t i = 0; i < sizeof OPTIONS / sizeof OPTIONS[0]; i++)
        if (strcmp(OPTIONS[i].name, name) == 0) {
            *option = OPTIONS[i].option;
            return GTS_OK;
        }
    return GTS_EOPTION;
}

int gts_option_list(gts_option *out, int capacity)
{
    int n = (int)(sizeof OPTIONS / sizeof OPTIONS[0]);
    for (int i = 0; out && i < n && i < capacity; i++)
        out[i] = OPTIONS[i].option;
    return n;
}

gts_status gts_option_bounds(gts_option option, int64_t *min, int64_t *max, int64_t *def)
{
    const option_info *o = find_option(option);
    if (!o)
        return GTS_EOPTION;
    if (min) *min = o->min;
    if (max) *max = o->max;
    if (def) *def = o->def;
    return GTS_OK;
}

static int64_t *option_field(gts_engine *e, const option_info *o)
{
    return (int64_t *)(void *)((char *)e + o->offset);
}

gts_status gts_engine_set(gts_engine *engine, gts_option option, int64_t value)
{
    if (!engine)
        return GTS_EINVAL;
    const option_info *o = find_option(option);
    if (!o)
        return GTS_EOPTION;
    if (value < o->min || value > o->max)
        return GTS_ERANGE;
    if (!gts__engine_claim(engine))
        return GTS_EBUSY;
    int64_t *field = option_field(engine, o);
    int rc = GTS_OK;
    if (option == GTS_OPT_TT_MB && value != *field) {
        /* Allocate now so that an impossible size is reported here. */
        rc = gts__tt_resize(&engine->tt, (size_t)value);
    }
    if (rc == GTS_OK)
        *field = value;
    if (option == GTS_OPT_TT_NEAR_DEPTH || option == GTS_OPT_TT_NEAR_KB)
        gts__tt_set_near(&engine->tt, (int)engine->tt_near_depth, (uint64_t)engine->tt_near_kb);
    if (option == GTS_OPT_MCTS_REUSE && value == 0)
        gts__mcts_drop(engine); /* no tree is kept from now on */
    if (option == GTS_OPT_TREE_MB)
        gts__mcts_trim(engine); /* the spare tree memory fits the new budget */
    gts__engine_release(engine);
    return rc;
}

gts_status gts_engine_get(const gts_engine *engine, gts_option option, int64_t *value)
{
    if (!engine || !value)
        return GTS_EINVAL;
    const option_info *o = find_option(option);
    if (!o)
        return GTS_EOPTION;
    *value = *option_field((gts_engine *)engine, o);
    return GTS_OK;
}

/* ---- lifecycle --------------------------------------------------------- */

static void free_contexts(gts_engine *e)
{
    for (int i = 0; i < e->nctx; i++)
        gts__ctx_free(&e->alloc, e->ctx[i]);
    gts__free(&e->alloc, e->ctx, (size_t)e->ctx_cap * sizeof *e->ctx);
    e->ctx = NULL;
    e->nctx = 0;
    e->ctx_cap = 0;
}

gts_status gts_engine_new(gts_engine **out)
{
    return gts_engine_new_with(out, NULL);
}

gts_status gts_engine_new_with(gts_engine **out, const gts_allocator *allocator)
{
    if (!out)
        return GTS_EINVAL;
    *out = NULL;
    gts_allocator a;
    memset(&a, 0, sizeof a);
    if (!allocator)
        allocator = &gts__default_allocator;
    if (gts__struct_in(gts__desc_allocator(), &a, allocator, NULL) != GTS_OK ||
        !a.allocate || !a.release)
        return GTS_EINVAL;
    allocator = &a;
    gts_engine *e = gts__calloc(allocator, 1, sizeof *e);
    if (!e)
        return GTS_ENOMEM;
    e->alloc = *allocator;
    e->tt.alloc = &e->alloc;
    for (size_t i = 0; i < sizeof OPTIONS / sizeof OPTIONS[0]; i++)
        *option_field(e, &OPTIONS[i]) = OPTIONS[i].def;
    gts__tt_set_near(&e->tt, (int)e->tt_near_depth, (uint64_t)e->tt_near_kb);
    /* The table is allocated (and its pages touched) now, not inside the
     * first search: a search's time is search time only. */
    if (e->tt_mb > 0 && gts__tt_resize(&e->tt, (size_t)e->tt_mb) != GTS_OK) {
        gts__free(allocator, e, sizeof *e);
        return GTS_ENOMEM;
    }
    *out = e;
    return GTS_OK;
}

void gts_engine_free(gts_engine *engine)
{
    if (!engine)
        return;
    gts__pool_free(engine->pool);
    free_contexts(engine);
    gts__mcts_release(engine);
    gts__free(&engine->alloc, engine->mcts_stats,
              (size_t)engine->mcts_stats_cap * sizeof *engine->mcts_stats);
    gts__tt_destroy(&engine->tt);
    gts_allocator alloc = engine->alloc;
    gts__free(&alloc, engine, sizeof *engine);
}

gts_status gts_engine_clear(gts_engine *engine)
{
    if (!engine)
        return GTS_EINVAL;
    if (!gts__engine_claim(engine))
        return GTS_EBUSY;
    gts__tt_clear(&engine->tt);
    for (int i = 0; i < engine->nctx; i++)
        gts__ctx_clear_tables(engine->ctx[i]);
    gts__mcts_drop(engine);
    gts__engine_release(engine);
    return GTS_OK;
}

/* Stop the holder's search, if one runs (gts_engine_stop, gts__engine_cancel). */
static void stop_run(gts_engine *engine)
{
    uint32_t *run = &engine->shared.run;
    /* Only while a holder runs; an idle engine's word stays 0. Lock-free,
     * so it is async-signal-safe. */
    for (uint32_t w = gts__atomic_load_relaxed_32(run);
         (w & GTS__RUN_HELD) && (w & GTS_RESULT_STOPPED) == 0;
         w = gts__atomic_load_relaxed_32(run))
        if (gts__atomic_cas_32(run, w, w | GTS__RUN_STOP | GTS_RESULT_STOPPED))
            break;
}

void gts_engine_stop(gts_engine *engine)
{
    if (!engine)
        return;
    /* Recorded for the watch's holder first (hook_internal.h): it may be
     * between two searches, where stop_run() has nothing to stop. */
    uint32_t *watch = &engine->watch;
    for (uint32_t w = gts__atomic_load_relaxed_32(watch);
         (w & GTS__WATCH_OPEN) && (w & GTS__WATCH_STOPPED) == 0;
         w = gts__atomic_load_relaxed_32(watch))
        if (gts__atomic_cas_32(watch, w, w | GTS__WATCH_STOPPED))
            break;
    stop_run(engine);
}

/* ---- hooks of libgts-mpi (hook_internal.h) ------------------------------- */

gts_status gts__engine_watch_begin(gts_engine *engine)
{
    if (!engine)
        return GTS_EINVAL;
    if (gts__atomic_load_relaxed_32(&engine->watch) & GTS__WATCH_OPEN)
        return GTS_EBUSY;
    gts__atomic_store_release_32(&engine->watch, GTS__WATCH_OPEN);
    return GTS_OK;
}

bool gts__engine_watch_stopped(const gts_engine *engine)
{
    return engine && (gts__atomic_load_relaxed_32(&engine->watch) & GTS__WATCH_STOPPED) != 0;
}

void gts__engine_watch_end(gts_engine *engine)
{
    if (engine)
        gts__atomic_store_release_32(&engine->watch, 0);
}

void gts__engine_cancel(gts_engine *engine)
{
    if (engine)
        stop_run(engine);
}

bool gts__engine_exact_depth(gts_engine *engine, bool on)
{
    if (!engine)
        return false;
    bool was = engine->tt_exact_depth;
    engine->tt_exact_depth = on;
    return was;
}

void gts__engine_note_error(gts_engine *engine, const char *detail)
{
    if (engine)
        gts__engine_note(engine, detail);
}

const char *gts_engine_last_error(const gts_engine *engine)
{
    if (!engine)
        return "";
    const char *s = gts__atomic_load_relaxed_ptr(&engine->last_error);
    return s ? s : "";
}

int gts_engine_hashfull(const gts_engine *engine)
{
    return engine ? gts__tt_hashfull(&engine->tt) : 0;
}

gts_status gts_engine_virtual_stats(const gts_engine *engine, uint64_t *rounds,
                                    uint64_t *idle_turns)
{
    if (!engine || !rounds || !idle_turns)
        return GTS_EINVAL;
    *rounds = 0;
    *idle_turns = 0;
    uint64_t sync = 0;
    if (engine->pool && engine->virtual_procs)
        gts__pool_virtual_stats(engine->pool, rounds, idle_turns, &sync);
    return GTS_OK;
}

gts_status gts_engine_virtual_sync(const gts_engine *engine, uint64_t *sync_turns)
{
    if (!engine || !sync_turns)
        return GTS_EINVAL;
    *sync_turns = 0;
    uint64_t rounds = 0, idle = 0;
    if (engine->pool && engine->virtual_procs)
        gts__pool_virtual_stats(engine->pool, &rounds, &idle, sync_turns);
    return GTS_OK;
}

int gts__engine_prepare(gts_engine *e, const gts_game *game, int threads)
{
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

uint64_t gts__now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
