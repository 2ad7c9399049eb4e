/*
 * pool_internal.h - the engine's pthread work-stealing pool (internal).
 *
 * Fork-join over Chase-Lev deques (deque_internal.h), one per worker.
 * The thread that calls gts__pool_run() becomes worker 0 for the duration
 * of the call; workers 1..n-1 are pthreads created once by gts__pool_new()
 * and sleeping (condition variable) whenever no run is active. Owners pop
 * their own deque LIFO, thieves steal FIFO from a random victim. A worker
 * waiting on a group (gts__pool_wait) runs other tasks instead of blocking,
 * so waiting never deadlocks and never idles a core while work exists.
 *
 * Concurrency contract: gts__pool_new/free/run are called by one thread (the
 * engine's searching thread). gts__pool_spawn/wait/worker_* are called only by
 * code running inside a run (on a worker). Tasks and groups are memory owned
 * by the spawner and must stay alive until gts__pool_wait() on their group
 * returns.
 *
 * Using it from an algorithm:
 *   - Inside a task, spawn and wait with the worker passed to the task
 *     function (a stolen task runs on another worker than its parent).
 *   - Typical node: put the child tasks and a gts__group in the node's
 *     frame, spawn all but one child, run that one directly (work-first),
 *     then gts__pool_wait(). The frame must not return before the wait,
 *     including on stop/error paths; to cancel, set a flag the tasks check
 *     first and still wait (queued tasks still run, and should return at
 *     once).
 *   - A wait runs other tasks nested on the waiter's stack (its own queued
 *     children, or tasks stolen from anyone). So across gts__pool_wait() /
 *     gts__pool_help(): hold no lock a task may take, and treat per-worker
 *     data (gts__worker_data) as shared with those nested tasks: each task
 *     must leave it as it found it (apply/undo balanced), or use its own
 *     copy. Worker 0 is the caller's thread and uses its stack; workers
 *     1..n-1 have 16 MiB stacks.
 *   - After gts__pool_wait() (or gts__group_done() returning true) all
 *     writes of the group's tasks are visible to the waiter; a run's
 *     caller sees everything its tasks wrote once gts__pool_run() returns.
 *   - gts__pool_run() waits for every task spawned during the run, even
 *     tasks nobody waited for; a task must not call gts__pool_run().
 *   - Workers sleep between runs and are woken by spawns, so an idle pool
 *     costs no CPU and a run that spawns nothing wakes no thread.
 */
#ifndef GTS_POOL_INTERNAL_H
#define GTS_POOL_INTERNAL_H

#include <stdint.h>
#include <stdbool.h>

#include "alloc_internal.h"

typedef struct gts__pool gts__pool;
typedef struct gts__worker gts__worker;
typedef struct gts__task gts__task;
typedef struct gts__group gts__group;

typedef void (*gts__task_fn)(gts__task *task, gts__worker *worker);

/* Largest thread count gts__pool_new() accepts. */
#define GTS__POOL_MAX_THREADS 256

/* A join counter: number of spawned, not yet finished tasks.
 * Initialise with GTS__GROUP_INIT or gts__group_init() (pending = 0); a
 * group whose wait has returned can be reused for the next batch. */
struct gts__group {
    uint32_t pending; /* accessed with ck_pr atomics only */
};

#define GTS__GROUP_INIT { 0 }

static inline void gts__group_init(gts__group *group)
{
    group->pending = 0;
}

/* A unit of work. The spawner fills fn and arg; the pool fills group. */
struct gts__task {
    gts__task_fn fn;
    void *arg;
    gts__group *group;
};

/* Create a pool of @threads workers (1..256; 1 creates no pthread).
 * Returns 0, GTS_ENOMEM or GTS_ETHREAD (then *out is NULL); GTS_EINVAL for
 * a NULL @out or a thread count outside 1..GTS__POOL_MAX_THREADS.
 * The pthreads block all signals (they are delivered to the caller's
 * threads) and are named "gts-w<id>". Memory comes from @alloc (NULL:
 * malloc/free), which must outlive the pool. */
int gts__pool_new(gts__pool **out, int threads, const gts_allocator *alloc);
/* Join and free every worker thread. NULL accepted. Not during a run. */
void gts__pool_free(gts__pool *pool);
int gts__pool_threads(const gts__pool *pool);

/* Run fn(arg, worker0) on the calling thread as worker 0 while the other
 * workers steal whatever it spawns; returns when fn returned and every task
 * spawned during the run has finished. Workers go back to sleep afterwards. */
void gts__pool_run(gts__pool *pool, void (*fn)(void *arg, gts__worker *w), void *arg);

/* Push @task (member of @group) on the calling worker's deque. @w must be
 * the worker the caller runs on (the one passed to its task / run fn).
 * When the deque cannot grow (out of memory) the task runs inline before
 * spawn returns, so work is never lost. Cost: one atomic add on the group,
 * one deque push, one full fence and a read of the searcher count (about
 * 100-150 ns per spawn+join on one thread, so give tasks at least ~10 us of
 * work); plus a mutex + condvar signal when workers sleep and none is
 * searching for work. */
void gts__pool_spawn(gts__worker *w, gts__group *group, gts__task *task);
/* Return when every task of @group has finished; runs other tasks meanwhile
 * (own deque first, then steals). After it returns, everything the tasks
 * wrote happens-before the caller's next access (acquire). */
void gts__pool_wait(gts__worker *w, gts__group *group);
/* True once every task of @group has finished (acquire), without helping. */
bool gts__group_done(const gts__group *group);
/* Run one task from the own deque or a steal, if any; true if one ran.
 * For algorithms that wait for something other than a group. Never sleeps:
 * after false, back off (gts__atomic_pause, sched_yield) before retrying. */
bool gts__pool_help(gts__worker *w);

/* Virtual processors: the next runs of @pool are virtual (see pool.c).
 * Outside a run only (controlling thread). Switching on waits, yielding,
 * until every worker has seen the switch. */
void gts__pool_set_virtual(gts__pool *pool, bool on);
/* Rounds of the baton and idle turns of the virtual runs since the last
 * reset (a search may run the pool several times). */
void gts__pool_virtual_stats(const gts__pool *pool, uint64_t *rounds, uint64_t *idle_turns,
                             uint64_t *sync_turns);
void gts__pool_virtual_reset(gts__pool *pool);
/* A tick point: inside a virtual run, hand the baton on and wait for it
 * (true); otherwise nothing (false). Any thread may call it. */
bool gts__pool_vp_tick(void);
/* The same for a turn spent waiting for another worker (counted as idle
 * and as synchronisation, gts_engine_virtual_sync()). */
bool gts__pool_vp_wait(void);
/* The same for a turn spent looking for work and finding none (idle). */
bool gts__pool_vp_starve(void);

int gts__worker_id(const gts__worker *w);          /* 0..threads-1 */
gts__pool *gts__worker_pool(const gts__worker *w);
/* Per-worker slot for the caller's data (the algorithms' thread context). */
void gts__worker_set_data(gts__worker *w, void *data);
void *gts__worker_data(const gts__worker *w);
/* Worker @id of the pool (for setting per-worker data before a run);
 * NULL for an id outside 0..threads-1. */
gts__worker *gts__pool_worker(gts__pool *pool, int id);

#endif
