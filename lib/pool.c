/*
 * pool.c - the engine's pthread work-stealing pool.
 *
 * What: fork-join over one Chase-Lev deque (deque.c) per worker. Worker 0
 * is the thread inside gts__pool_run(); workers 1..n-1 are pthreads created
 * by gts__pool_new() and joined by gts__pool_free(). A spawn pushes on the
 * spawning worker's deque; a worker looking for work pops its own deque
 * (LIFO) and otherwise steals (FIFO) from the others, sweeping them from a
 * random start (per-worker xorshift). A wait on a group is "help-first": it
 * runs tasks until the group's counter reaches 0 and never blocks while work
 * can be found.
 *
 * Concurrency contract: see pool_internal.h. In short: new/free/run from one
 * controlling thread, never concurrently; spawn/wait/help/worker_* only from
 * inside a run, on the worker passed to the running code.
 *
 * Sleeping. Idle threads never spin without bound:
 *   - a worker with nothing to do spins a few rounds with exponential pause
 *     backoff (a single short round when there are more workers than CPUs),
 *     then yields a few rounds, then sleeps on the "idle" event count.
 *     Outside a run it sleeps at once. It is woken (signal one) by a spawn
 *     or by the last searcher finding work (below), or by shutdown.
 *   - a waiter (gts__pool_wait, or the end of a run) whose tasks were stolen
 *     and who finds nothing to steal does the same, then sleeps on the
 *     "join" event count, broadcast whenever a group reaches 0 while a
 *     joiner sleeps, and signalled instead of an idle worker when none
 *     sleeps.
 * Wake-ups are rationed as in Go's scheduler: while some idle worker is
 * "searching" (spinning or yielding), a spawn wakes nobody, since the
 * searcher will find the task; the last searcher that finds work wakes one
 * sleeper to take over the search. So a spawn normally costs no syscall, and
 * sleepers still ramp up one per steal during a burst.
 * An event count is {sleepers, seq, mutex, condvar}. Sleeper: sleepers++,
 * full fence, key = seq, re-check the condition, then wait under the mutex
 * while seq == key. Notifier: make the condition true, full fence, and only
 * if sleepers > 0 take the mutex, seq++, signal. The two fences form a
 * Dekker pair: either the sleeper's re-check sees the condition or the
 * notifier sees the sleeper, so no wake-up is lost, and a spawn costs no
 * lock while every worker is busy.
 *
 * Termination of a run. Every worker counts the tasks it spawned and the
 * tasks it finished (single-writer counters, release stores). A run is over
 * when sum(finished) == sum(spawned), reading all "finished" counters
 * (acquire) before all "spawned" ones: a finish is counted only after its
 * spawn, and a task's children are spawned before it finishes, so equality
 * proves nothing is queued or running (see run_quiescent()).
 *
 * Invariants:
 *   - group->pending = tasks of the group spawned and not yet finished. It
 *     is incremented before the push and decremented (release) after the
 *     task's function returned and the worker's finished counter was bumped;
 *     after that decrement the pool never touches the task or the group,
 *     and the worker's retired counter says so (gts__pool_run() returns
 *     only when every spawned task retired, detached ones included).
 *   - a task is run exactly once, by the worker that popped or stole it (or
 *     inline by the spawner if the push failed).
 *   - when gts__pool_run() returns, every task of the run has finished and
 *     happens-before the return; workers may still be finishing a backoff
 *     loop over the (empty) deques but touch no caller memory, and go to
 *     sleep without waiting for anything.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_setname_np, sched_getaffinity, CPU_COUNT */
#endif
#include "pool_internal.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include <gts/common.h>

#include "atomic_internal.h"
#include "deque_internal.h"

/* Tuning. */
/* Rounds of pause-backoff (16 << round pauses each) before yielding. */
static const unsigned POOL_SPIN_ROUNDS = 8;
/* ... and with more workers than CPUs, where spinning steals the CPU from
 * the thread that holds the work. */
static const unsigned POOL_SPIN_ROUNDS_OVERSUBSCRIBED = 1;
/* Rounds of sched_yield() after the spinning, before sleeping. */
static const unsigned POOL_YIELD_ROUNDS = 16;
/* Failed steals (lost races) tolerated on one victim per sweep. */
static const unsigned POOL_STEAL_RETRIES = 4;
/* Worker thread stack: search recursion runs inside tasks, and waits nest
 * stolen tasks on top of each other. Virtual; only touched pages cost. */
static const size_t POOL_STACK_SIZE = (size_t)16 << 20;

/* Sleep/wake-up point, see the design comment. */
struct evc {
    uint32_t sleepers; /* atomics only */
    uint32_t seq;      /* atomics only; written under mu */
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

struct gts__worker {
    gts__deque deque; /* own cache lines: top | bottom + array */

    _Alignas(GTS__CACHELINE) gts__pool *pool;
    void *data;        /* caller's per-worker slot */
    uint64_t rng;      /* xorshift64 state, owner only (see gts__pool_run) */
    uint64_t spawned;  /* tasks spawned by this worker (single writer) */
    uint64_t finished; /* tasks finished by this worker (single writer) */
    uint64_t retired;  /* of those, the ones whose group it no longer touches */
    int id;
    bool started;      /* pthread created (ids >= 1) */
    pthread_t thread;
    /* Virtual processors: == the run's generation while this worker holds
     * the baton (futex word; atomics only). */
    uint32_t vp_go;
    /* The last switch to virtual runs (pool->vp_wanted) this worker has
     * seen at the top of its loop; written by the worker only (atomics). */
    uint32_t vp_ack;
};

_Static_assert(sizeof(struct gts__worker) % GTS__CACHELINE == 0,
               "workers must not share cache lines");

struct gts__pool {
    gts__worker *workers; /* threads entries, cache-line aligned */
    const gts_allocator *alloc; /* NULL: malloc/free */
    int threads;
    unsigned spin_rounds; /* POOL_SPIN_ROUNDS or ..._OVERSUBSCRIBED */

    /* Read by every worker loop, written twice per run / once per pool. */
    _Alignas(GTS__CACHELINE) uint32_t active; /* a run is in progress */
    uint32_t shutdown;                        /* gts__pool_free() started */

    /* Idle workers currently searching (spinning/yielding) for work; read
     * by every spawn, which wakes a sleeper only when nobody searches. */
    _Alignas(GTS__CACHELINE) uint32_t searching;

    /* Sleepers counts are read on every spawn: keep them off the lines
     * written per run. */
    _Alignas(GTS__CACHELINE) struct evc idle;
    _Alignas(GTS__CACHELINE) struct evc join;

    /* Virtual processors (see "Virtual processors" below). */
    /* The next runs are virtual: 0 when not, otherwise the number of the
     * switch to virtual runs, which workers acknowledge (atomics; written
     * by the controlling thread only). */
    _Alignas(GTS__CACHELINE) uint32_t vp_wanted;
    uint32_t vp_switches;     /* switches so far (controlling thread only) */
    uint32_t vp_gen;          /* generation of the virtual run in progress, 0: none */
    uint32_t vp_runs;         /* runs so far, for the next generation */
    uint64_t vp_rounds;       /* rounds of the last virtual run (baton holder only) */
    uint64_t vp_idle;         /* idle turns of the last virtual run (baton holder only) */
    uint64_t vp_sync;         /* the idle turns spent waiting for another worker */
};

/* The worker this thread is while a virtual run is in progress. */
static __thread gts__worker *vp_self;

/* Step 1. Event counts. */

static int evc_init(struct evc *e)
{
    e->sleepers = 0;
    e->seq = 0;
    if (pthread_mutex_init(&e->mu, NULL) != 0)
        return GTS_ENOMEM;
    if (pthread_cond_init(&e->cv, NULL) != 0) {
        pthread_mutex_destroy(&e->mu);
        return GTS_ENOMEM;
    }
    return 0;
}

static void evc_destroy(struct evc *e)
{
    pthread_cond_destroy(&e->cv);
    pthread_mutex_destroy(&e->mu);
}

/* Announce a sleeper; returns the key to wait on. The caller must re-check
 * its condition after this and call evc_cancel() or evc_wait(). */
static uint32_t evc_prepare(struct evc *e)
{
    gts__atomic_faa_relaxed_32(&e->sleepers, 1);
    gts__atomic_fence_seq_cst();
    return gts__atomic_load_acquire_32(&e->seq);
}

static void evc_cancel(struct evc *e)
{
    gts__atomic_faa_relaxed_32(&e->sleepers, (uint32_t)-1);
}

/* Sleep until a notify after evc_prepare() returned @key, or shutdown. */
static void evc_wait(struct evc *e, uint32_t key, const uint32_t *shutdown)
{
    pthread_mutex_lock(&e->mu);
    while (gts__atomic_load_relaxed_32(&e->seq) == key &&
           gts__atomic_load_relaxed_32(shutdown) == 0)
        pthread_cond_wait(&e->cv, &e->mu);
    pthread_mutex_unlock(&e->mu);
    evc_cancel(e);
}

/* Wake one (or all) sleepers. The caller made its condition true and
 * executed a full fence since. Returns true if there were sleepers. */
static bool evc_notify(struct evc *e, bool all)
{
    if (gts__atomic_load_relaxed_32(&e->sleepers) == 0)
        return false;
    pthread_mutex_lock(&e->mu);
    gts__atomic_store_release_32(&e->seq, gts__atomic_load_relaxed_32(&e->seq) + 1);
    if (all)
        pthread_cond_broadcast(&e->cv);
    else
        pthread_cond_signal(&e->cv);
    pthread_mutex_unlock(&e->mu);
    return true;
}

/*
 * Virtual processors (issue 13). In a virtual run only one worker runs at a
 * time: the one holding the baton. At every tick point it hands the baton
 * to the next worker (id + 1 mod threads) and waits for it to come back; a
 * round is one full turn of the baton, the virtual clock. Tick points are
 * every node the search counts (gts__apply: a busy worker's unit of
 * work), every step of an idle worker (one look for work), and every step
 * of a wait (gts__backoff, a spin lock held by another worker, a join with
 * nothing to steal). Every waiting loop is a tick point, so the worker that
 * holds a lock or owes a result always gets its turn: no deadlock, at any
 * thread count, on any number of real cores. Serialised, the run is
 * deterministic (the same interleaving every time) and race-free; it is
 * the real pool, deques, table and split points, only slower.
 *
 * The baton is a per-worker futex word: worker i holds it while its vp_go
 * equals the run's generation. Passing: store the generation into the next
 * worker's word and wake it. A generation number (not a flag) makes a word
 * left over from an earlier run meaningless, so nothing has to be reset.
 */
static void vp_futex_wait(uint32_t *word, uint32_t seen)
{
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
}

static void vp_futex_wake(uint32_t *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Wait for the baton of run @gen; false when that run is over. */
static bool vp_acquire(gts__worker *w, uint32_t gen)
{
    gts__pool *p = w->pool;
    for (;;) {
        uint32_t go = gts__atomic_load_acquire_32(&w->vp_go);
        if (go == gen)
            return true;
        if (gts__atomic_load_acquire_32(&p->vp_gen) != gen)
            return false;
        vp_futex_wait(&w->vp_go, go);
    }
}

/* Hand the baton to the next worker. */
static void vp_release(gts__worker *w, uint32_t gen)
{
    gts__pool *p = w->pool;
    gts__worker *next = &p->workers[(w->id + 1) % p->threads];
    if (next->id == 0)
        p->vp_rounds++;
    gts__atomic_store_relaxed_32(&w->vp_go, 0); /* ours no more */
    gts__atomic_store_release_32(&next->vp_go, gen);
    vp_futex_wake(&next->vp_go);
}

/* One tick of the calling thread's worker; false outside a virtual run. */
bool gts__pool_vp_tick(void)
{
    gts__worker *w = vp_self;
    if (w == NULL)
        return false;
    uint32_t gen = gts__atomic_load_acquire_32(&w->pool->vp_gen);
    if (gen == 0)
        return false;
    vp_release(w, gen);
    (void)vp_acquire(w, gen);
    return true;
}

/* An idle turn of @w: it found nothing to do, or (@sync) it waits for
 * another worker (a join, a lock, a backoff), which is idle too. */
static void vp_idle_tick(gts__worker *w, bool sync)
{
    w->pool->vp_idle++; /* only the baton holder runs */
    if (sync)
        w->pool->vp_sync++;
    gts__pool_vp_tick();
}

/* vp_idle_tick() of the calling thread's worker; false outside a virtual run. */
static bool vp_idle_turn(bool sync)
{
    gts__worker *w = vp_self;
    if (w == NULL || gts__atomic_load_acquire_32(&w->pool->vp_gen) == 0)
        return false;
    vp_idle_tick(w, sync);
    return true;
}

bool gts__pool_vp_starve(void)
{
    return vp_idle_turn(false);
}

bool gts__pool_vp_wait(void)
{
    return vp_idle_turn(true);
}

/*
 * Switching to virtual runs is a handshake. Outside a run, a worker of an
 * ordinary pool still looks for work (find_task, which also steps its steal
 * generator) a number of times that depends on real timing, and a worker
 * that read vp_wanted == 0 just before the switch may steal a task of the
 * first virtual run without holding the baton. So the switch waits until
 * every worker has seen it at the top of its loop (vp_ack): from then on
 * no worker takes work outside the baton, and gts__pool_run() reseeds the
 * steal generators of a virtual run. Only a switch waits; the next runs of
 * a pool already virtual cost nothing.
 */
void gts__pool_set_virtual(gts__pool *pool, bool on)
{
    uint32_t cur = gts__atomic_load_relaxed_32(&pool->vp_wanted);
    if (!on) {
        if (cur != 0) {
            gts__atomic_store_release_32(&pool->vp_wanted, 0);
            gts__atomic_fence_seq_cst();
            /* sleepers of a virtual pool go back to ordinary idling */
            evc_notify(&pool->idle, true);
        }
        return;
    }
    if (cur != 0)
        return;
    uint32_t sw = ++pool->vp_switches;
    if (sw == 0)
        sw = ++pool->vp_switches;
    gts__atomic_store_release_32(&pool->vp_wanted, sw);
    /* Dekker with the sleep re-check in worker_main(). */
    gts__atomic_fence_seq_cst();
    evc_notify(&pool->idle, true);
    for (int i = 1; i < pool->threads; i++)
        while (gts__atomic_load_acquire_32(&pool->workers[i].vp_ack) != sw)
            sched_yield();
}

void gts__pool_virtual_stats(const gts__pool *pool, uint64_t *rounds, uint64_t *idle_turns,
                             uint64_t *sync_turns)
{
    *rounds = pool->vp_rounds;
    *idle_turns = pool->vp_idle;
    *sync_turns = pool->vp_sync;
}

void gts__pool_virtual_reset(gts__pool *pool)
{
    pool->vp_rounds = 0;
    pool->vp_idle = 0;
    pool->vp_sync = 0;
}

/* Step 2. Finding and running tasks. */

/* The steal generator's seed of worker @id (xorshift64: never 0). */
static uint64_t rng_seed(int id)
{
    uint64_t seed = 0x9E3779B97F4A7C15ull * (uint64_t)(id + 1);

    seed ^= seed >> 31;
    return seed != 0 ? seed : 1;
}

static uint32_t pool_rng_next(gts__worker *w)
{
    uint64_t x = w->rng;

    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    w->rng = x;
    return (uint32_t)(x >> 32);
}

static bool any_work(gts__pool *p)
{
    for (int i = 0; i < p->threads; i++)
        if (gts__deque_size(&p->workers[i].deque) > 0)
            return true;
    return false;
}

/* One sweep over the other workers from a random start. */
static gts__task *steal_any(gts__worker *w)
{
    gts__pool *p = w->pool;
    unsigned others = (unsigned)p->threads - 1;
    unsigned start;

    if (others == 0)
        return NULL;
    start = pool_rng_next(w) % others;
    for (unsigned k = 0; k < others; k++) {
        unsigned v = (start + k) % others;
        gts__deque *d;

        if (v >= (unsigned)w->id)
            v++;
        d = &p->workers[v].deque;
        /* Cheap test first: steal() executes a full fence. */
        for (unsigned r = 0; r < POOL_STEAL_RETRIES && gts__deque_size(d) > 0; r++) {
            gts__task *t = gts__deque_steal(d);
            if (t != NULL)
                return t;
        }
    }
    return NULL;
}

static gts__task *find_task(gts__worker *w)
{
    gts__task *t = gts__deque_pop(&w->deque);

    return t != NULL ? t : steal_any(w);
}

static void run_task(gts__worker *w, gts__task *t)
{
    gts__group *g = t->group;

    t->fn(t, w);
    /* Count the finish before the group can reach 0 (run_quiescent). */
    gts__atomic_store_release_64(&w->finished,
                                 gts__atomic_load_relaxed_64(&w->finished) + 1);
    /* Release: the task's writes happen before the waiter's acquire of 0.
     * From here on t and g may already be freed by their owner. */
    if (gts__atomic_faa_release_32(&g->pending, (uint32_t)-1) == 1) {
        gts__atomic_fence_seq_cst();
        evc_notify(&w->pool->join, true);
    }
    /* The last touch of the task's memory is done (gts__pool_run waits
     * for this count before it returns). */
    gts__atomic_store_release_64(&w->retired, gts__atomic_load_relaxed_64(&w->retired) + 1);
}

/* Idle step @round of a thread that found nothing: pause, then yield. */
static void backoff(const gts__pool *p, unsigned round)
{
    if (round < p->spin_rounds) {
        for (unsigned i = 0; i < (16u << round); i++)
            gts__atomic_pause();
    } else {
        sched_yield();
    }
}

/* Run tasks until done(ctx); sleep on the join event count when there is
 * nothing to run for a while. */
static void help_until(gts__worker *w, bool (*done)(const void *), const void *ctx)
{
    gts__pool *p = w->pool;
    unsigned idle = 0;

    while (!done(ctx)) {
        gts__task *t = find_task(w);
        uint32_t key;

        if (t != NULL) {
            run_task(w, t);
            idle = 0;
            continue;
        }
        if (vp_self != NULL && gts__atomic_load_relaxed_32(&p->vp_gen) != 0) {
            vp_idle_tick(w, true); /* what we wait for runs on another worker's turns */
            continue;
        }
        if (idle < p->spin_rounds + POOL_YIELD_ROUNDS) {
            backoff(p, idle++);
            continue;
        }
        /* Whatever we wait for is running on another worker. */
        key = evc_prepare(&p->join);
        if (done(ctx) || any_work(p)) {
            evc_cancel(&p->join);
            sched_yield();
            continue;
        }
        evc_wait(&p->join, key, &p->shutdown);
        /* Woken by a group completion (broadcast to every joiner) or a
         * spawn: look once, and sleep again at once if it was not for us. */
        idle = p->spin_rounds + POOL_YIELD_ROUNDS;
    }
}

/* Step 3. Worker threads. */

/* An idle worker stops searching: it found work (@found) or will sleep.
 * The last searcher to find work wakes a sleeper to take over the search,
 * so that a burst of spawns (which wake nobody while someone searches)
 * still spreads over the sleeping workers, one steal at a time. */
static void stop_searching(gts__pool *p, bool found)
{
    if (gts__atomic_faa_relaxed_32(&p->searching, (uint32_t)-1) == 1 && found) {
        gts__atomic_fence_seq_cst();
        if (!evc_notify(&p->idle, false))
            evc_notify(&p->join, false);
    }
}

static void *worker_main(void *arg)
{
    gts__worker *w = arg;
    gts__pool *p = w->pool;
    unsigned idle = 0;
    bool searching = false;

    while (gts__atomic_load_acquire_32(&p->shutdown) == 0) {
        uint32_t gen = gts__atomic_load_acquire_32(&p->vp_gen);
        if (gen != 0) {
            /* A virtual run: take turns with the baton. */
            if (searching) {
                searching = false;
                stop_searching(p, false);
            }
            if (vp_acquire(w, gen)) {
                vp_self = w;
                gts__task *t = find_task(w);
                if (t != NULL)
                    run_task(w, t);
                else
                    p->vp_idle++;
                vp_self = NULL;
                vp_release(w, gen);
            }
            continue;
        }
        uint32_t key;
        uint32_t wanted = gts__atomic_load_relaxed_32(&p->vp_wanted);
        if (wanted != 0) {
            /* A pool of virtual runs takes work only with the baton:
             * stealing between runs would make a run's start depend on
             * real timing. Acknowledge the switch (gts__pool_set_virtual
             * waits for it), then sleep until the next run (or shutdown). */
            if (gts__atomic_load_relaxed_32(&w->vp_ack) != wanted)
                gts__atomic_store_release_32(&w->vp_ack, wanted);
            if (searching) {
                searching = false;
                stop_searching(p, false);
            }
            key = evc_prepare(&p->idle);
            if (gts__atomic_load_relaxed_32(&p->shutdown) != 0 ||
                gts__atomic_load_relaxed_32(&p->vp_gen) != 0 ||
                !gts__atomic_load_relaxed_32(&p->vp_wanted)) {
                evc_cancel(&p->idle);
                continue;
            }
            evc_wait(&p->idle, key, &p->shutdown);
            continue;
        }
        gts__task *t = find_task(w);

        if (t != NULL) {
            /* Never a task of a virtual run: those start only after this
             * worker acknowledged the switch, at a later loop top. */
            if (searching) {
                searching = false;
                stop_searching(p, true);
            }
            run_task(w, t);
            idle = 0;
            continue;
        }
        if (gts__atomic_load_relaxed_32(&p->active) != 0 &&
            idle < p->spin_rounds + POOL_YIELD_ROUNDS) {
            if (!searching) {
                searching = true;
                gts__atomic_faa_relaxed_32(&p->searching, 1);
            }
            backoff(p, idle++);
            continue;
        }
        /* Sleep. Leave the searchers first: a spawn that sees no searcher
         * and no sleeper relies on this thread's re-check below. */
        if (searching) {
            searching = false;
            stop_searching(p, false);
        }
        key = evc_prepare(&p->idle);
        if (gts__atomic_load_relaxed_32(&p->shutdown) != 0 || any_work(p) ||
            gts__atomic_load_relaxed_32(&p->vp_gen) != 0 ||
            gts__atomic_load_relaxed_32(&p->vp_wanted) != 0) {
            evc_cancel(&p->idle);
            sched_yield();
            continue;
        }
        evc_wait(&p->idle, key, &p->shutdown);
        idle = 0;
    }
    if (searching)
        stop_searching(p, false);
    return NULL;
}

static unsigned online_cpus(void)
{
    cpu_set_t set;
    long n;

    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

/* Step 4. Lifecycle. */

static void pool_stop_threads(gts__pool *p)
{
    pthread_mutex_lock(&p->idle.mu);
    gts__atomic_store_release_32(&p->shutdown, 1);
    gts__atomic_store_release_32(&p->idle.seq, gts__atomic_load_relaxed_32(&p->idle.seq) + 1);
    pthread_cond_broadcast(&p->idle.cv);
    pthread_mutex_unlock(&p->idle.mu);

    for (int i = 1; i < p->threads; i++)
        if (p->workers[i].started)
            pthread_join(p->workers[i].thread, NULL);
}

static void pool_destroy(gts__pool *p, int initialised_workers, int evcs)
{
    for (int i = 0; i < initialised_workers; i++)
        gts__deque_destroy(&p->workers[i].deque);
    if (evcs >= 2)
        evc_destroy(&p->join);
    if (evcs >= 1)
        evc_destroy(&p->idle);
    const gts_allocator *alloc = p->alloc;
    gts__free_aligned(alloc, p->workers, (size_t)p->threads * sizeof(gts__worker),
                      GTS__CACHELINE);
    gts__free_aligned(alloc, p, sizeof(*p), GTS__CACHELINE);
}

int gts__pool_new(gts__pool **out, int threads, const gts_allocator *alloc)
{
    gts__pool *p;
    pthread_attr_t attr;
    sigset_t all, old;
    int rc = 0;

    if (out == NULL)
        return GTS_EINVAL;
    *out = NULL;
    if (threads < 1 || threads > GTS__POOL_MAX_THREADS)
        return GTS_EINVAL;

    p = gts__calloc_aligned(alloc, sizeof(*p), GTS__CACHELINE);
    if (p == NULL)
        return GTS_ENOMEM;
    p->alloc = alloc;
    p->threads = threads;
    p->spin_rounds = (unsigned)threads > online_cpus() ? POOL_SPIN_ROUNDS_OVERSUBSCRIBED
                                                       : POOL_SPIN_ROUNDS;
    p->workers = gts__calloc_aligned(alloc, (size_t)threads * sizeof(gts__worker),
                                     GTS__CACHELINE);
    if (p->workers == NULL) {
        gts__free_aligned(alloc, p, sizeof(*p), GTS__CACHELINE);
        return GTS_ENOMEM;
    }

    if (evc_init(&p->idle) != 0) {
        pool_destroy(p, 0, 0);
        return GTS_ENOMEM;
    }
    if (evc_init(&p->join) != 0) {
        pool_destroy(p, 0, 1);
        return GTS_ENOMEM;
    }
    for (int i = 0; i < threads; i++) {
        gts__worker *w = &p->workers[i];

        if (gts__deque_init(&w->deque, GTS__DEQUE_LOG2_DEFAULT, alloc) != 0) {
            pool_destroy(p, i + 1, 2); /* destroy accepts a failed init */
            return GTS_ENOMEM;
        }
        w->pool = p;
        w->id = i;
        w->rng = rng_seed(i);
    }
    if (threads == 1) {
        *out = p;
        return 0;
    }

    /* Worker threads take no signals: they belong to the application. */
    if (pthread_attr_init(&attr) != 0) {
        pool_destroy(p, threads, 2);
        return GTS_ENOMEM;
    }
    pthread_attr_setstacksize(&attr, POOL_STACK_SIZE);
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    for (int i = 1; i < threads; i++) {
        gts__worker *w = &p->workers[i];
        char name[16];

        if (pthread_create(&w->thread, &attr, worker_main, w) != 0) {
            rc = GTS_ETHREAD;
            break;
        }
        w->started = true;
        snprintf(name, sizeof(name), "gts-w%u", (unsigned)i % 1000u);
        pthread_setname_np(w->thread, name);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);

    if (rc != 0) {
        pool_stop_threads(p);
        pool_destroy(p, threads, 2);
        return rc;
    }
    *out = p;
    return 0;
}

void gts__pool_free(gts__pool *pool)
{
    if (pool == NULL)
        return;
    pool_stop_threads(pool);
    pool_destroy(pool, pool->threads, 2);
}

int gts__pool_threads(const gts__pool *pool)
{
    return pool->threads;
}

/* Step 5. Runs, spawns and waits. */

/*
 * True when no task of the run is queued or running. Reading every
 * "finished" counter before every "spawned" counter makes equality a proof:
 * each counted finish has its spawn counted (spawn happens-before finish,
 * and the acquire loads carry that edge), so finished <= spawned, and with
 * equality every counted spawn has finished. A spawn not counted would come
 * from a running task, whose own finish would then follow a spawn we missed
 * on the same worker, after we read its counter: contradiction.
 */
static bool run_counted(const gts__pool *p, bool retired)
{
    uint64_t done = 0, spawned = 0;

    for (int i = 0; i < p->threads; i++)
        done += gts__atomic_load_acquire_64(retired ? &p->workers[i].retired
                                                    : &p->workers[i].finished);
    for (int i = 0; i < p->threads; i++)
        spawned += gts__atomic_load_acquire_64(&p->workers[i].spawned);
    return done == spawned;
}

static bool run_quiescent(const void *ctx)
{
    return run_counted(ctx, false);
}

void gts__pool_run(gts__pool *pool, void (*fn)(void *arg, gts__worker *w), void *arg)
{
    gts__worker *w0 = &pool->workers[0];
    bool virtual_run = gts__atomic_load_relaxed_32(&pool->vp_wanted) && pool->threads > 1;

    gts__atomic_store_release_32(&pool->active, 1);
    if (virtual_run) {
        /* Every virtual run steals from the same sequence, whatever the
         * pool did before: the workers take no work outside the baton
         * (gts__pool_set_virtual), and the baton orders these writes
         * before their next use. */
        for (int i = 0; i < pool->threads; i++)
            pool->workers[i].rng = rng_seed(i);
        /* Worker 0 starts with the baton; the others join as they wake. */
        /* Generations are odd; an even word closes a run (below). */
        uint32_t gen = 2 * (++pool->vp_runs & 0x3fffffffu) + 1;
        gts__atomic_store_release_32(&w0->vp_go, gen);
        gts__atomic_store_release_32(&pool->vp_gen, gen);
        gts__atomic_fence_seq_cst();
        evc_notify(&pool->idle, true);
        vp_self = w0;
    }
    fn(arg, w0);
    /* Tasks the run's code did not wait for (it should have) are finished
     * here, with worker 0 helping. */
    help_until(w0, run_quiescent, pool);
    /* A task counts as finished before its group's decrement (the join's
     * wake-up must see it), so a worker may still be decrementing the
     * group of a task nobody waited for: wait for that too, a few
     * instructions per worker, so that no worker touches the run's memory
     * once this returns. (A virtual run's workers finish their tails
     * within their turns: nothing to wait for there.) */
    while (!run_counted(pool, true)) /* the same proof with "retired" */
        sched_yield();
    if (virtual_run) {
        /* End of the run: every other worker is in its idle loop waiting
         * for the baton; closing the generation releases them all. */
        uint32_t gen = gts__atomic_load_relaxed_32(&pool->vp_gen);
        vp_self = NULL;
        pool->vp_rounds++; /* the round in progress */
        gts__atomic_store_release_32(&pool->vp_gen, 0);
        for (int i = 1; i < pool->threads; i++) {
            /* A value no waiter can have seen: its futex wait returns. */
            gts__atomic_store_release_32(&pool->workers[i].vp_go, gen + 1);
            vp_futex_wake(&pool->workers[i].vp_go);
        }
    }
    gts__atomic_store_release_32(&pool->active, 0);
}

void gts__pool_spawn(gts__worker *w, gts__group *group, gts__task *task)
{
    gts__pool *p = w->pool;

    task->group = group;
    gts__atomic_faa_relaxed_32(&group->pending, 1);
    gts__atomic_store_release_64(&w->spawned, gts__atomic_load_relaxed_64(&w->spawned) + 1);
    if (gts__deque_push(&w->deque, task) != 0) {
        run_task(w, task); /* out of memory: never lose work */
        return;
    }
    if (p->threads > 1) {
        /* Dekker with evc_prepare(): the push is visible to a sleeper's
         * re-check, or its sleepers++ is visible here. A searching worker
         * will find the task (the last one to stop searching re-checks
         * before it sleeps), so wake nobody then. */
        gts__atomic_fence_seq_cst();
        if (gts__atomic_load_relaxed_32(&p->searching) == 0 && !evc_notify(&p->idle, false))
            evc_notify(&p->join, false);
    }
}

static bool group_done(const void *ctx)
{
    return gts__group_done(ctx);
}

bool gts__group_done(const gts__group *group)
{
    return gts__atomic_load_acquire_32(&group->pending) == 0;
}

void gts__pool_wait(gts__worker *w, gts__group *group)
{
    if (gts__group_done(group))
        return;
    help_until(w, group_done, group);
}

bool gts__pool_help(gts__worker *w)
{
    gts__task *t = find_task(w);

    if (t == NULL)
        return false;
    run_task(w, t);
    return true;
}

/* Step 6. Accessors. */

int gts__worker_id(const gts__worker *w)
{
    return w->id;
}

gts__pool *gts__worker_pool(const gts__worker *w)
{
    return w->pool;
}

void gts__worker_set_data(gts__worker *w, void *data)
{
    w->data = data;
}

void *gts__worker_data(const gts__worker *w)
{
    return w->data;
}

gts__worker *gts__pool_worker(gts__pool *pool, int id)
{
    if (pool == NULL || id < 0 || id >= pool->threads)
        return NULL;
    return &pool->workers[id];
}
