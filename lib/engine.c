/*
 * engine.c - engine lifecycle, options, status strings and version.
 *
 * What: the gts_engine object owns the transposition table, the per-thread
 * search contexts (killers, history, move buffers: made, cleared and freed
 * by the search side through gts_engine::search, ctx.c) and, once a
 * parallel search has run, the work-stealing pool. Everything is allocated here,
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
_Static_assert(GTS_GAME_SIZE_V0_3 == 176, "gts_game 0.3 layout moved");
_Static_assert(GTS_LIMITS_SIZE_V0_1 == 64, "gts_limits 0.1 layout moved");
_Static_assert(GTS_LIMITS_SIZE_V0_3 == 76, "gts_limits 0.3 layout moved");
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
    case GTS_STRUCT_CHECK_OPTIONS: return sizeof(gts_check_options);
    case GTS_STRUCT_CHECK_REPORT: return sizeof(gts_check_report);
    case GTS_STRUCT_EVALUATOR: return sizeof(gts_evaluator);
    }
    return 0;
}

/* ---- version ----------------------------------------------------------- */

unsigned gts_version(void) { return GTS_VERSION_HEX; }
const char *gts_version_string(void) { return GTS_VERSION_STRING; }

/* ---- options ----------------------------------------------------------- */

/*
 * The core's options: what the engine, the table, the pool and the search
 * kernel (driver, node code, ordering, contexts) read. The public option
 * functions (gts_engine_set, gts_option_bounds... in lib/search/registry.c)
 * look an option up here first, then in the algorithms' descriptors; an
 * algorithm's option is never a field here (engine_internal.h).
 */
typedef struct core_option {
    gts__opt_row row;
    size_t offset; /* of the int64_t field in struct gts_engine */
} core_option;

#define OPTN(o, name, lo, hi, d, field) { { o, name, lo, hi, d }, offsetof(struct gts_engine, field) }
#define OPT(o, lo, hi, d, field) OPTN(o, #field, lo, hi, d, field)
static const core_option OPTIONS[] = {
    OPT(GTS_OPT_TT_MB, 0, 1 << 20, 16, tt_mb),
    OPT(GTS_OPT_TT_PREFETCH, 0, 1, 0, tt_prefetch),
    OPT(GTS_OPT_TT_NEAR_DEPTH, 0, GTS_MAX_DEPTH, 0, tt_near_depth),
    OPT(GTS_OPT_TT_NEAR_KB, 1, 1 << 30, 1024, tt_near_kb),
    OPT(GTS_OPT_ASPIRATION, 0, GTS_SCORE_WIN, 0, aspiration),
    OPT(GTS_OPT_KILLERS, 0, 1, 1, killers),
    OPT(GTS_OPT_HISTORY, 0, 2, 1, history),
    OPT(GTS_OPT_COUNTER_MOVES, 0, 1, 0, counter_moves),
    OPT(GTS_OPT_QUIESCENCE, 0, 1, 1, quiescence),
    OPT(GTS_OPT_ITERATIVE, 0, 1, 1, iterative),
    OPT(GTS_OPT_DEEPEN_NODES, 0, (int64_t)1 << 62, 0, deepen_nodes),
    OPT(GTS_OPT_ROOT_DRIVER, GTS_ROOT_WINDOW, GTS_ROOT_MTDF, GTS_ROOT_WINDOW, root_driver),
    OPT(GTS_OPT_NBEST, 0, 65535, 0, nbest),
    OPT(GTS_OPT_NBEST_DEPTH, 0, GTS_MAX_DEPTH, 0, nbest_depth),
    OPT(GTS_OPT_NULL_MOVE, 0, 8, 0, null_move),
    OPT(GTS_OPT_LMR, 0, 400, 0, lmr),
    OPT(GTS_OPT_FUTILITY, 0, GTS_SCORE_WIN, 0, futility),
    OPT(GTS_OPT_RAZOR, 0, GTS_SCORE_WIN, 0, razor),
    OPT(GTS_OPT_LMP, 0, 1000, 0, lmp),
    OPT(GTS_OPT_CONTEMPT, -GTS_SCORE_DECIDED + 1, GTS_SCORE_DECIDED - 1, 0, contempt),
    OPT(GTS_OPT_THREADS, 1, 256, 1, threads),
    OPTN(GTS_OPT_VIRTUAL, "virtual", 0, 1, 0, virtual_procs),
    OPT(GTS_OPT_SPLIT_PLY, 0, GTS_MAX_PLY, 0, split_ply),
};
#undef OPT
#undef OPTN
static const int NOPTIONS = (int)(sizeof OPTIONS / sizeof OPTIONS[0]);

/* The row is the first member: a row of the table is its option. */
static const core_option *core_of(const gts__opt_row *row)
{
    return (const core_option *)(const void *)row;
}

const gts__opt_row *gts__core_option(gts_option id)
{
    for (int i = 0; i < NOPTIONS; i++)
        if (OPTIONS[i].row.id == id)
            return &OPTIONS[i].row;
    return NULL;
}

const gts__opt_row *gts__core_option_at(int i)
{
    return i >= 0 && i < NOPTIONS ? &OPTIONS[i].row : NULL;
}

static int64_t *option_field(gts_engine *e, const core_option *o)
{
    return (int64_t *)(void *)((char *)e + o->offset);
}

int64_t gts__engine_core_get(const gts_engine *e, const gts__opt_row *row)
{
    return *option_field((gts_engine *)e, core_of(row));
}

gts_status gts__engine_core_set(gts_engine *e, const gts__opt_row *row, int64_t value)
{
    int64_t *field = option_field(e, core_of(row));
    int rc = GTS_OK;
    if (row->id == GTS_OPT_TT_MB && value != *field) {
        /* Allocate now so that an impossible size is reported here. */
        rc = gts__tt_resize(&e->tt, (size_t)value);
    }
    if (rc == GTS_OK)
        *field = value;
    if (row->id == GTS_OPT_TT_NEAR_DEPTH || row->id == GTS_OPT_TT_NEAR_KB)
        gts__tt_set_near(&e->tt, (int)e->tt_near_depth, (uint64_t)e->tt_near_kb);
    return rc;
}

gts_status gts__engine_opt_store(gts_engine *e, gts_option id, int64_t value)
{
    for (int i = 0; i < e->nopt; i++)
        if (e->opt[i].id == id) {
            e->opt[i].value = value;
            return GTS_OK;
        }
    if (e->nopt == GTS__OPT_SLOTS)
        return GTS_ENOMEM;
    e->opt[e->nopt].id = id;
    e->opt[e->nopt].value = value;
    e->nopt++;
    return GTS_OK;
}

void gts__engine_option_changed(gts_engine *e, gts_option id, int64_t value)
{
    for (int i = 0; i < GTS__STATE_SLOTS; i++)
        if (e->state[i].ops && e->state[i].ops->option_set)
            e->state[i].ops->option_set(e, e->state[i].state, id, value);
}

/* ---- algorithm state ------------------------------------------------------ */

void *gts__engine_state_get(gts_engine *e, const gts__state_ops *ops)
{
    void *st = gts__engine_state(e, ops);
    if (st)
        return st;
    for (int i = 0; i < GTS__STATE_SLOTS; i++)
        if (!e->state[i].ops) {
            st = ops->create(e);
            if (st) {
                e->state[i].ops = ops;
                e->state[i].state = st;
            }
            return st;
        }
    return NULL;
}

gts_status gts__engine_state_set(gts_engine *e, const gts__state_ops *ops, const void *value,
                                 size_t size, bool create)
{
    if (!gts__engine_claim(e))
        return GTS_EBUSY;
    void *kept = create ? gts__engine_state_get(e, ops) : gts__engine_state(e, ops);
    if (kept)
        memcpy(kept, value, size);
    gts__engine_release(e);
    return kept || !create ? GTS_OK : GTS_ENOMEM;
}

/* ---- lifecycle --------------------------------------------------------- */

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
    for (int i = 0; i < NOPTIONS; i++)
        *option_field(e, &OPTIONS[i]) = OPTIONS[i].row.def;
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
    if (engine->search)
        engine->search->release(engine);
    for (int i = 0; i < GTS__STATE_SLOTS; i++)
        if (engine->state[i].ops)
            engine->state[i].ops->release(engine, engine->state[i].state);
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
    if (engine->search)
        engine->search->clear(engine);
    for (int i = 0; i < GTS__STATE_SLOTS; i++)
        if (engine->state[i].ops && engine->state[i].ops->clear)
            engine->state[i].ops->clear(engine, engine->state[i].state);
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

uint64_t gts__now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
