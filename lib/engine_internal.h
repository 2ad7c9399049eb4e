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

/* Search-wide state shared by every thread of one search. Fields written
 * during a search are accessed with ck_pr atomics only. */
typedef struct gts__shared {
    uint32_t stop;          /* nonzero: unwind now */
    uint32_t stop_flags;    /* GTS_RESULT_STOPPED / NODE_LIMIT / TIME_LIMIT */
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
    int64_t aspiration;
    int64_t killers;
    int64_t history;
    int64_t quiescence;
    int64_t iterative;
    int64_t root_driver;     /* gts_root_driver */
    int64_t nbest;
    int64_t nbest_depth;
    int64_t threads;

    gts_allocator alloc;    /* every allocation of the engine goes here */
    gts__tt tt;
    gts__pool *pool;        /* created on the first parallel search */
    gts__ctx **ctx;         /* per-thread contexts, reused across searches */
    int nctx;
    int ctx_cap;            /* allocated length of ctx */
    uint32_t max_moves;     /* move-buffer size of the contexts */

    uint32_t searching;     /* atomic busy flag: gts__engine_claim/release */
    gts__shared shared;     /* of the running search */
    gts_probcut_params probcut; /* probcut.c; struct_size 0 = the defaults */
};

/* Allocate or grow per-thread contexts for @game; 0 or GTS_ENOMEM. */
int gts__engine_prepare(gts_engine *e, const gts_game *game, int threads);
uint64_t gts__now_ns(void);

/* The engine's busy flag: one holder at a time, a search or a change of the
 * engine (gts_engine_set, _clear, _set_probcut). False when another holds
 * it: the caller returns GTS_EBUSY. Acquire/release, so what one holder
 * wrote is visible to the next. */
static inline bool gts__engine_claim(gts_engine *e)
{
    return gts__atomic_cas_32(&e->searching, 0, 1);
}
static inline void gts__engine_release(gts_engine *e)
{
    gts__atomic_store_release_32(&e->searching, 0);
}

#endif
