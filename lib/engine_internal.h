/*
 * engine_internal.h - the engine object (internal, the core).
 *
 * The core (engine, table, pool, allocator) knows no algorithm and includes
 * nothing from lib/search/: the per-thread contexts it holds are opaque
 * (made by lib/search/ctx.c), algorithm options live in generic slots and
 * the state an algorithm keeps between searches in opaque slots with their
 * ops (doc/architecture.md, "The core knows no algorithm").
 */
#ifndef GTS_ENGINE_INTERNAL_H
#define GTS_ENGINE_INTERNAL_H

#include <gts/gts.h>
#include "tt_internal.h"
#include "pool_internal.h"
#include "alloc_internal.h"
#include "atomic_internal.h"

#define GTS__HISTORY_SIZE 4096
/* Moves a node remembers as searched before a cutoff (history malus). */
#define GTS__TRIED_MAX 32

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

/*
 * What the search side keeps on an engine (its per-thread contexts), the
 * core reaches only through these hooks, which the search side installs
 * (gts_engine::search) the first time it keeps something: the core never
 * includes or calls lib/search/.
 *   clear    gts_engine_clear(): forget what was learnt (killers, history);
 *   release  gts_engine_free(): free it all.
 * The engine is held (or being freed) when either is called.
 */
typedef struct gts__search_hooks {
    void (*clear)(gts_engine *e);
    void (*release)(gts_engine *e);
} gts__search_hooks;

/*
 * Options. The engine's own ("core") options are fields of struct
 * gts_engine, read by the core and by the search kernel (engine.c's table).
 * An algorithm's options are rows of its descriptor (lib/search/algos.h,
 * registry.c): the engine stores their values in generic slots, (id, value)
 * in the order they were first set, and an option without a slot has its
 * row's default. The core never names an algorithm's option.
 */
typedef struct gts__opt_row {
    gts_option id;
    const char *name;       /* the enum name without GTS_OPT_, lowercase */
    int64_t min, max, def;
} gts__opt_row;

typedef struct gts__opt_slot {
    gts_option id;
    int64_t value;
} gts__opt_slot;

/* Slots for algorithm option values (more than every algorithm has
 * together: the registry test checks it). */
#define GTS__OPT_SLOTS 64

/*
 * State an algorithm keeps on an engine between searches (MCTS's kept tree,
 * spare chunks and root statistics; ProbCut's parameters): opaque to the
 * core, which reaches it only through the algorithm's ops, keyed by the ops
 * themselves (gts__engine_state). The engine is held (or being freed) when
 * any of them is called.
 *   create      a fresh state, NULL when out of memory;
 *   clear       gts_engine_clear(): forget what was learnt (may be NULL);
 *   option_set  after gts_engine_set() changed @id to @value (may be NULL);
 *   release     gts_engine_free(): free the state and all it holds.
 */
typedef struct gts__state_ops {
    void *(*create)(gts_engine *e);
    void (*clear)(gts_engine *e, void *state);
    void (*option_set)(gts_engine *e, void *state, gts_option id, int64_t value);
    void (*release)(gts_engine *e, void *state);
} gts__state_ops;

typedef struct gts__state_slot {
    const gts__state_ops *ops; /* NULL: a free slot */
    void *state;
} gts__state_slot;

#define GTS__STATE_SLOTS 8

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
    int64_t history;         /* 2: with malus and gravity */
    int64_t counter_moves;   /* GTS_OPT_COUNTER_MOVES */
    int64_t quiescence;
    int64_t iterative;
    int64_t deepen_nodes;
    int64_t root_driver;     /* gts_root_driver */
    int64_t nbest;
    int64_t nbest_depth;
    int64_t null_move;       /* 220s: selective search (GTS_OPT_NULL_MOVE...) */
    int64_t lmr;
    int64_t futility;
    int64_t razor;
    int64_t lmp;
    int64_t contempt;
    int64_t threads;
    int64_t virtual_procs;   /* GTS_OPT_VIRTUAL */
    int64_t split_ply;       /* GTS_OPT_SPLIT_PLY */

    gts_allocator alloc;    /* every allocation of the engine goes here */
    gts__tt tt;
    gts__pool *pool;        /* created on the first parallel search */
    gts__ctx **ctx;         /* per-thread contexts, reused across searches
                               (made and freed by the search side: ctx.c) */
    int nctx;
    int ctx_cap;            /* allocated length of ctx */
    uint32_t max_moves;     /* move-buffer size of the contexts */
    const gts__search_hooks *search; /* NULL until the search side kept something */

    gts__shared shared;     /* of the running search */
    uint32_t watch;         /* GTS__WATCH_* (hook_internal.h), atomic */
    bool tt_exact_depth;    /* table cutoffs only from entries of the node's
                               own depth (gts__engine_exact_depth) */
    /* Algorithm options set on this engine and the state algorithms keep
     * between searches: generic slots, see above. */
    gts__opt_slot opt[GTS__OPT_SLOTS];
    int nopt;
    gts__state_slot state[GTS__STATE_SLOTS];
    uint64_t searches;      /* gts_search calls that claimed the engine: a
                               state kept "of the last search" records it */
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

uint64_t gts__now_ns(void);

/* The value of the algorithm option of @row on @e: its slot's, else the
 * row's default. */
static inline int64_t gts__engine_opt(const gts_engine *e, const gts__opt_row *row)
{
    for (int i = 0; i < e->nopt; i++)
        if (e->opt[i].id == row->id)
            return e->opt[i].value;
    return row->def;
}
/* Store @value for the algorithm option @id (checked by the caller);
 * GTS_ENOMEM when every slot is taken. The engine is held. */
gts_status gts__engine_opt_store(gts_engine *e, gts_option id, int64_t value);

/* The state kept for @ops on @e, NULL when none. */
static inline void *gts__engine_state(const gts_engine *e, const gts__state_ops *ops)
{
    for (int i = 0; i < GTS__STATE_SLOTS; i++)
        if (e->state[i].ops == ops)
            return e->state[i].state;
    return NULL;
}
/* The state kept for @ops on @e, created (ops->create) when there is none
 * yet; NULL when out of memory or out of slots. The engine is held. */
void *gts__engine_state_get(gts_engine *e, const gts__state_ops *ops);
/* A setter's end: hold @e, copy @size bytes of @value into the state kept
 * for @ops, created first if @create (else only when there is one: going
 * back to a default needs no memory), release. GTS_EBUSY while a search
 * runs; GTS_ENOMEM when @create and it cannot be made. */
gts_status gts__engine_state_set(gts_engine *e, const gts__state_ops *ops, const void *value,
                                 size_t size, bool create);

/* The core's options (engine.c's table): the row of @id, NULL when @id is
 * not a core option; the @i-th row, NULL past the last; a core option's
 * value; setting one (range-checked by the caller, the engine held). */
const gts__opt_row *gts__core_option(gts_option id);
const gts__opt_row *gts__core_option_at(int i);
int64_t gts__engine_core_get(const gts_engine *e, const gts__opt_row *row);
gts_status gts__engine_core_set(gts_engine *e, const gts__opt_row *row, int64_t value);
/* Tell every state kept on @e that option @id is now @value. Held. */
void gts__engine_option_changed(gts_engine *e, gts_option id, int64_t value);

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
