/*
 * engine_internal.h - the engine object and the per-thread search context
 * shared by every algorithm (internal).
 */
#ifndef GTS_ENGINE_INTERNAL_H
#define GTS_ENGINE_INTERNAL_H

#include <gts/gts.h>
#include "tt_internal.h"
#include "pool_internal.h"
#include "alloc_internal.h"
#include "atomic_internal.h"

#define GTS__HISTORY_SIZE 4096

typedef struct gts__ctx gts__ctx;

/*
 * The engine's run word (gts__shared::run): who holds the engine and whether
 * the search must unwind, in one word so that no stop can fall between
 * claiming the engine and starting the search.
 *   GTS__RUN_HELD  the engine is held: by a search or by a change
 *                  (gts_engine_set, _clear, _set_probcut);
 *   GTS__RUN_STOP  unwind now (a stop, a limit, a failure);
 *   low bits       why: GTS_RESULT_STOPPED / NODE_LIMIT / TIME_LIMIT.
 * An idle engine's word is 0: claiming is CAS 0 -> HELD, releasing stores 0,
 * and gts_engine_stop() sets STOP only while HELD, so a stop that arrives
 * between two searches is dropped and one that arrives once a search has
 * claimed the engine is never reset.
 */
#define GTS__RUN_HELD (1u << 31)
#define GTS__RUN_STOP (1u << 30)
#define GTS__RUN_WHY (GTS_RESULT_STOPPED | GTS_RESULT_NODE_LIMIT | GTS_RESULT_TIME_LIMIT)

/* The engine's watch word (gts_engine::watch, hook_internal.h): OPEN while
 * libgts-mpi holds the watch, STOPPED once gts_engine_stop() came meanwhile.
 * gts_engine_stop() sets STOPPED only while OPEN (CAS), so a stop before the
 * watch opened is dropped, as it is for a search. */
#define GTS__WATCH_OPEN (1u << 0)
#define GTS__WATCH_STOPPED (1u << 1)

/* Search-wide state shared by every thread of one search. Fields written
 * during a search are accessed through atomic_internal.h only. */
typedef struct gts__shared {
    uint32_t run;           /* the run word above */
    int32_t error;          /* first error status (0 = none) */
    int32_t callback_status;
    uint64_t nodes;         /* flushed node counts of all threads */
    uint64_t node_limit;    /* 0 = none */
    uint64_t deadline_ns;   /* 0 = none; CLOCK_MONOTONIC */
    uint32_t poll_interval;
} gts__shared;

struct gts_engine {
    /* options */
    int64_t tt_mb;
    int64_t tt_prefetch;
    int64_t tt_near_depth;   /* GTS_OPT_TT_NEAR_DEPTH */
    int64_t tt_near_kb;      /* GTS_OPT_TT_NEAR_KB */
    int64_t aspiration;
    int64_t killers;
    int64_t history;
    int64_t quiescence;
    int64_t iterative;
    int64_t deepen_nodes;
    int64_t root_driver;     /* gts_root_driver */
    int64_t nbest;
    int64_t nbest_depth;
    int64_t threads;
    int64_t virtual_procs;   /* GTS_OPT_VIRTUAL */
    int64_t split_ply;       /* GTS_OPT_SPLIT_PLY */
    int64_t jamboree_serial;  /* GTS_OPT_JAMBOREE_SERIAL */

    gts_allocator alloc;    /* every allocation of the engine goes here */
    gts__tt tt;
    gts__pool *pool;        /* created on the first parallel search */
    gts__ctx **ctx;         /* per-thread contexts, reused across searches */
    int nctx;
    int ctx_cap;            /* allocated length of ctx */
    uint32_t max_moves;     /* move-buffer size of the contexts */

    gts__shared shared;     /* of the running search */
    uint32_t watch;         /* GTS__WATCH_* (hook_internal.h), atomic */
    bool tt_exact_depth;    /* table cutoffs only from entries of the node's
                               own depth (gts__engine_exact_depth) */
    gts_probcut_params probcut; /* probcut.c; struct_size 0 = the defaults */

    /* MCTS options (mcts.c) */
    int64_t mcts_exploration;
    int64_t mcts_playouts;
    int64_t mcts_playout_depth;
    int64_t mcts_eval_scale;
    int64_t tree_mb;
    int64_t mcts_seed;
    int64_t mcts_parallel;
    int64_t mcts_virtual_loss;
    int64_t mcts_prior;
    int64_t mcts_rave;       /* RAVE equivalence parameter k (0: off) */
    int64_t mcts_reuse;      /* keep the tree for gts_mcts_advance() */
    int64_t bstar_margin;    /* B* without bounds() */
    int64_t mma_p;           /* MMA's p, tenths */
    int64_t mma_scale;       /* MMA's logistic scale */
    int64_t mma_backup;      /* MMA's variant, a gts_mma_backup */
    /* Root statistics of the last MCTS search (gts_mcts_root_stats), in
     * the library's layout; mcts_nstats is 0 after any other search. */
    gts_mcts_move_stats *mcts_stats;
    uint32_t mcts_nstats, mcts_stats_cap;
    /* The tree of the last MCTS search, kept for gts_mcts_advance()
     * (mcts.c; NULL: none). */
    struct gts__mcts_kept *mcts_kept;
    /* Tree memory between MCTS searches, for the next one (mcts.c "spare
     * chunks"; NULL: none) and its bytes. */
    struct gts__mc_chunk *mcts_spare;
    uint64_t mcts_spare_bytes;
    /* gts_engine_last_error(): a static string ("" = no detail), stored and
     * loaded atomically so that a call refused in another thread (#GTS_EBUSY
     * paths write it before claiming the engine) never tears it. */
    const char *last_error;
};

/* Record the detail of the engine's latest call (a static string, NULL
 * for none). Callable on a const engine: the detail is a cache the query
 * reads, not part of the engine's configuration. */
static inline void gts__engine_note(const gts_engine *e, const char *detail)
{
    gts__atomic_store_relaxed_ptr((void *)&((gts_engine *)e)->last_error, detail ? detail : "");
}

/* Free the kept MCTS tree, if any (mcts.c). Not thread-safe. */
void gts__mcts_drop(gts_engine *e);
/* Free the spare tree memory beyond what GTS_OPT_TREE_MB allows (mcts.c).
 * Not thread-safe. */
void gts__mcts_trim(gts_engine *e);
/* Free the kept tree and every spare chunk (mcts.c). Not thread-safe. */
void gts__mcts_release(gts_engine *e);

/* Allocate or grow per-thread contexts for @game; 0 or GTS_ENOMEM. */
int gts__engine_prepare(gts_engine *e, const gts_game *game, int threads);
uint64_t gts__now_ns(void);

/* Hold the engine: one holder at a time, a search or a change of the engine.
 * False when another holds it: the caller returns GTS_EBUSY. Acquire and
 * release, so what one holder wrote is visible to the next. */
static inline bool gts__engine_claim(gts_engine *e)
{
    return gts__atomic_cas_32(&e->shared.run, 0, GTS__RUN_HELD);
}
static inline void gts__engine_release(gts_engine *e)
{
    gts__atomic_store_release_32(&e->shared.run, 0);
}
static inline bool gts__engine_held(const gts_engine *e)
{
    return (gts__atomic_load_relaxed_32(&e->shared.run) & GTS__RUN_HELD) != 0;
}

/* The holder's search must unwind; @why is a GTS_RESULT_* stop reason or 0
 * (a failure, whose status is in gts__shared::error). */
static inline void gts__stop_run(gts__shared *sh, uint32_t why)
{
    gts__atomic_or_relaxed_32(&sh->run, GTS__RUN_STOP | why);
}
static inline bool gts__run_stopped(const gts__shared *sh)
{
    return (gts__atomic_load_relaxed_32(&sh->run) & GTS__RUN_STOP) != 0;
}
/* The GTS_RESULT_* stop reasons of the search (0 when it was not stopped). */
static inline uint32_t gts__run_why(const gts__shared *sh)
{
    return gts__atomic_load_relaxed_32(&sh->run) & GTS__RUN_WHY;
}

#endif
