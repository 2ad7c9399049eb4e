/*
 * stress_pool.c - heavy checks of the deque and the work-stealing pool, as
 * a plain program so that it runs under ThreadSanitizer (Criterion cannot).
 *
 *   stress_pool [threads]      threads defaults to 8 (1..256)
 *
 * Exits 0 when every check passed, 1 with a message on stderr otherwise.
 * The payloads are deliberately plain (non-atomic) memory handed between
 * threads only through the deque and the pool, so that under TSan every
 * happens-before edge the pool claims is actually checked.
 *
 *   1. deque: one owner pushes/pops, threads-1 thieves steal; every item is
 *      taken exactly once and its plain payload is intact.
 *   2. random fork-join trees: many runs, checksum against a sequential
 *      evaluation; children results travel in the parent's stack frame;
 *      some nodes join with gts__pool_help() loops instead of wait.
 *   3. per-worker data and identity: plain per-worker counters summed after
 *      each run, reset between runs; an id is always the same thread.
 *   4. lifecycle: pools created and freed repeatedly; no thread leaks.
 *   5. idle: between runs the workers sleep (CPU time over 1 s ~ 0).
 *   6. busy: during a run, idle workers and a waiter whose task was stolen
 *      sleep too (one busy task costs one task's CPU time).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* POSIX and GNU declarations under -std=c11 */
#endif
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <gts/common.h>

#include "atomic_internal.h"
#include "deque_internal.h"
#include "pool_internal.h"

#define STRESS_NAME "stress_pool"
#include "stress.h"

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t rotl(uint64_t x, unsigned k)
{
    return (x << (k & 63)) | (x >> ((64 - k) & 63));
}

/* Step 1. Deque: owner + thieves, plain payloads. */

struct item {
    uint64_t payload; /* written by the owner before the push */
    int taken_by;     /* written once by whoever takes it */
    uint32_t taken;   /* atomic count, must end at 1 */
};

struct dq {
    gts__deque d;
    struct item *items;
    int n;
    uint32_t owner_done;
    uint64_t bad_payload;
};

struct thief_arg {
    struct dq *q;
    int id;
};

static void dq_take(struct dq *q, struct item *it, int by)
{
    if (it->payload != mix((uint64_t)(it - q->items)))
        gts__atomic_faa_relaxed_64(&q->bad_payload, 1);
    it->taken_by = by;
    gts__atomic_faa_relaxed_32(&it->taken, 1);
}

static void *dq_thief(void *arg)
{
    struct thief_arg *a = arg;
    struct dq *q = a->q;

    for (;;) {
        struct item *it = gts__deque_steal(&q->d);

        if (it != NULL) {
            dq_take(q, it, a->id);
            continue;
        }
        if (gts__atomic_load_acquire_32(&q->owner_done) && gts__deque_size(&q->d) == 0)
            return NULL;
        sched_yield(); /* many thieves on few cores: let the owner push */
    }
}

static void stress_deque(int threads)
{
    int thieves = threads > 1 ? threads - 1 : 1;
    struct dq q;
    pthread_t *th = calloc((size_t)thieves, sizeof(*th));
    struct thief_arg *args = calloc((size_t)thieves, sizeof(*args));
    uint64_t rng = 42;

    memset(&q, 0, sizeof(q));
    q.n = 300000;
    q.items = calloc((size_t)q.n, sizeof(*q.items));
    if (th == NULL || args == NULL || q.items == NULL || gts__deque_init(&q.d, 1, NULL) != 0) {
        fail("deque: out of memory");
        return;
    }
    for (int t = 0; t < thieves; t++) {
        args[t] = (struct thief_arg){ &q, t + 1 };
        if (pthread_create(&th[t], NULL, dq_thief, &args[t]) != 0) {
            fail("deque: pthread_create");
            thieves = t;
            break;
        }
    }
    for (int i = 0; i < q.n; i++) {
        q.items[i].payload = mix((uint64_t)i);
        if (gts__deque_push(&q.d, &q.items[i]) != 0) {
            fail("deque: push %d failed", i);
            break;
        }
        rng = mix(rng);
        if (rng % 3 == 0) {
            for (int k = (int)(rng >> 40) % 5; k > 0; k--) {
                struct item *it = gts__deque_pop(&q.d);
                if (it == NULL)
                    break;
                dq_take(&q, it, 0);
            }
        }
    }
    for (struct item *it; (it = gts__deque_pop(&q.d)) != NULL;)
        dq_take(&q, it, 0);
    gts__atomic_store_release_32(&q.owner_done, 1);
    for (int t = 0; t < thieves; t++)
        pthread_join(th[t], NULL);

    int by_thieves = 0;
    for (int i = 0; i < q.n; i++) {
        CHECK(q.items[i].taken == 1, "deque: item %d taken %u times, expected once", i,
              q.items[i].taken);
        by_thieves += q.items[i].taken_by != 0;
    }
    CHECK(q.bad_payload == 0, "deque: %llu items had a corrupt payload",
          (unsigned long long)q.bad_payload);
    printf("deque: %d items, %d stolen by %d thieves\n", q.n, by_thieves, thieves);
    gts__deque_destroy(&q.d);
    free(q.items);
    free(args);
    free(th);
}

/* Step 2. Random fork-join trees. */

enum { TREE_MAX_KIDS = 6 };

struct per_worker {
    uint64_t nodes;   /* plain: only this worker's thread writes it */
    uint64_t thread;  /* pthread_self() + 1 of the first task seen */
    int id;
};

struct node {
    gts__task task;
    uint64_t seed;
    int depth;
    uint64_t value; /* plain result, read by the parent after the join */
};

static int node_kids(uint64_t seed, int depth)
{
    uint64_t h = mix(seed ^ 0xABCDEFull);

    if (depth <= 0)
        return 0;
    /* Mostly 2-4 children, sometimes 0 or 6: irregular trees. */
    return (int)(h % 7) == 0 ? 0 : 2 + (int)((h >> 8) % (TREE_MAX_KIDS - 1));
}

static uint64_t node_seq(uint64_t seed, int depth)
{
    int k = node_kids(seed, depth);
    uint64_t v = mix(seed);

    for (int i = 0; i < k; i++)
        v += rotl(node_seq(mix(seed + (uint64_t)i + 1), depth - 1), (unsigned)i + 1);
    return v;
}

static uint32_t bad_identity;

static void note_worker(gts__worker *w)
{
    struct per_worker *pw = gts__worker_data(w);
    uint64_t self = (uint64_t)pthread_self() + 1;

    if (pw == NULL || pw->id != gts__worker_id(w)) {
        gts__atomic_faa_relaxed_32(&bad_identity, 1);
        return;
    }
    pw->nodes++;
    if (pw->thread == 0)
        pw->thread = self;
    else if (pw->thread != self)
        gts__atomic_faa_relaxed_32(&bad_identity, 1);
}

static void node_task(gts__task *t, gts__worker *w)
{
    struct node *n = t->arg;
    struct node kids[TREE_MAX_KIDS];
    int k = node_kids(n->seed, n->depth);
    uint64_t h = mix(n->seed ^ 0x1234ull);
    gts__group g = GTS__GROUP_INIT;
    uint64_t v = mix(n->seed);

    note_worker(w);
    for (int i = 0; i < k; i++)
        kids[i] = (struct node){ .task = { .fn = node_task, .arg = &kids[i] },
                                 .seed = mix(n->seed + (uint64_t)i + 1),
                                 .depth = n->depth - 1 };
    if (h % 2 == 0) {
        /* work-first: spawn 1..k-1, run child 0 here */
        for (int i = 1; i < k; i++)
            gts__pool_spawn(w, &g, &kids[i].task);
        if (k > 0)
            node_task(&kids[0].task, w);
    } else {
        for (int i = 0; i < k; i++)
            gts__pool_spawn(w, &g, &kids[i].task);
    }
    if (h % 5 == 0) {
        /* join the way a non-group waiter would */
        while (!gts__group_done(&g))
            if (!gts__pool_help(w))
                gts__atomic_pause();
    } else {
        gts__pool_wait(w, &g);
    }
    for (int i = 0; i < k; i++)
        v += rotl(kids[i].value, (unsigned)i + 1);
    n->value = v;
}

static void node_root(void *arg, gts__worker *w)
{
    struct node *root = arg;

    node_task(&root->task, w);
}

static void stress_trees(int threads)
{
    gts__pool *p = NULL;
    struct per_worker *pw = calloc((size_t)threads, sizeof(*pw));
    const int runs = 150;
    uint64_t total_nodes = 0;
    int workers_used_max = 0;

    if (pw == NULL || gts__pool_new(&p, threads, NULL) != 0) {
        fail("trees: pool_new(%d) failed", threads);
        free(pw);
        return;
    }
    for (int i = 0; i < threads; i++) {
        pw[i].id = i;
        gts__worker_set_data(gts__pool_worker(p, i), &pw[i]);
    }
    for (int r = 0; r < runs; r++) {
        uint64_t seed = mix(0xC0FFEEull + (uint64_t)r);
        int depth = 5 + r % 5;
        struct node root = { .task = { .fn = node_task, .arg = &root }, .seed = seed,
                             .depth = depth };
        uint64_t expected = node_seq(seed, depth);
        uint64_t nodes = 0;
        int used = 0;

        for (int i = 0; i < threads; i++)
            pw[i].nodes = 0; /* plain write between runs */
        gts__pool_run(p, node_root, &root);
        CHECK(root.value == expected, "trees: run %d (depth %d): checksum %016llx, expected %016llx",
              r, depth, (unsigned long long)root.value, (unsigned long long)expected);
        for (int i = 0; i < threads; i++) {
            nodes += pw[i].nodes; /* plain read after the run */
            used += pw[i].nodes > 0;
        }
        total_nodes += nodes;
        if (used > workers_used_max)
            workers_used_max = used;
    }
    /* Distinct threads per id (worker 0 is always this thread). */
    for (int i = 0; i < threads; i++)
        for (int j = i + 1; j < threads; j++)
            CHECK(pw[i].thread == 0 || pw[i].thread != pw[j].thread,
                  "trees: workers %d and %d ran on the same thread", i, j);
    CHECK(pw[0].thread == 0 || pw[0].thread == (uint64_t)pthread_self() + 1,
          "trees: worker 0 is not the thread that called gts__pool_run");
    CHECK(bad_identity == 0, "trees: %u tasks saw a wrong worker id, data slot or thread",
          bad_identity);
    printf("trees: %d runs, %llu nodes, up to %d of %d workers busy in one run\n", runs,
           (unsigned long long)total_nodes, workers_used_max, threads);
    gts__pool_free(p);
    free(pw);
}

/* Step 3. A run returns only when detached tasks are done. */

struct detached {
    gts__group group;
    gts__task tasks[200];
    uint64_t plain[200]; /* each written by one task, read after the run */
};

static void detached_task(gts__task *t, gts__worker *w)
{
    struct detached *d = t->arg;
    size_t i = (size_t)(t - d->tasks);
    volatile uint64_t x = 0;

    (void)w;
    for (int k = 0; k < 3000; k++)
        x += (uint64_t)k;
    (void)x;
    d->plain[i] = mix(i);
}

static void detached_root(void *arg, gts__worker *w)
{
    struct detached *d = arg;

    for (int i = 0; i < 200; i++) {
        d->tasks[i] = (gts__task){ .fn = detached_task, .arg = d };
        gts__pool_spawn(w, &d->group, &d->tasks[i]);
    }
}

static void stress_detached(int threads)
{
    gts__pool *p = NULL;
    struct detached *d = calloc(1, sizeof(*d));

    if (d == NULL || gts__pool_new(&p, threads, NULL) != 0) {
        fail("detached: setup failed");
        free(d);
        return;
    }
    for (int r = 0; r < 20; r++) {
        memset(d, 0, sizeof(*d));
        gts__pool_run(p, detached_root, d);
        /* Plain reads first: only the run's own termination detection
         * orders them after the tasks' writes (no group acquire here). */
        for (int i = 0; i < 200; i++)
            CHECK(d->plain[i] == mix((uint64_t)i), "detached: run %d task %d not done", r, i);
        CHECK(gts__group_done(&d->group), "detached: group pending after run %d", r);
    }
    gts__pool_free(p);
    free(d);
}

/* Step 4. Lifecycle. */

static int count_threads(void)
{
    DIR *dir = opendir("/proc/self/task");
    int n = 0;

    if (dir == NULL)
        return -1;
    for (struct dirent *e; (e = readdir(dir)) != NULL;)
        if (e->d_name[0] != '.')
            n++;
    closedir(dir);
    return n;
}

static int settled_thread_count(int expected)
{
    struct timespec ms = { 0, 1000 * 1000 };
    int n = count_threads();

    for (int i = 0; i < 3000 && n != expected; i++) {
        nanosleep(&ms, NULL);
        n = count_threads();
    }
    return n;
}

static void small_root(void *arg, gts__worker *w)
{
    struct node *root = arg;

    node_task(&root->task, w);
}

/* The thread count before the lifecycle step: a worker of an earlier pool
 * that pthread_join() has already returned for can still be listed in
 * /proc/self/task for a moment, so wait until the count has been the same
 * for 100 samples in a row (1 ms apart, at most 3 s). */
static int stable_thread_count(void)
{
    struct timespec ms = { 0, 1000 * 1000 };
    int n = count_threads(), same = 0;

    for (int i = 0; i < 3000 && same < 100; i++) {
        nanosleep(&ms, NULL);
        int m = count_threads();
        same = m == n ? same + 1 : 0;
        n = m;
    }
    return n;
}

static void stress_lifecycle(int threads)
{
    int before = stable_thread_count();

    for (int i = 0; i < 40; i++) {
        int n = 1 + (i * 7) % threads;
        gts__pool *p = NULL;
        struct per_worker *pw = calloc((size_t)n, sizeof(*pw));

        if (pw == NULL || gts__pool_new(&p, n, NULL) != 0) {
            fail("lifecycle: pool_new(%d) failed", n);
            free(pw);
            return;
        }
        for (int k = 0; k < n; k++) {
            pw[k].id = k;
            gts__worker_set_data(gts__pool_worker(p, k), &pw[k]);
        }
        if (i % 3 != 0) {
            struct node root = { .task = { .fn = node_task, .arg = &root },
                                 .seed = (uint64_t)i, .depth = 4 };
            gts__pool_run(p, small_root, &root);
            CHECK(root.value == node_seq((uint64_t)i, 4), "lifecycle: pool %d wrong result", i);
        }
        gts__pool_free(p);
        free(pw);
        int after = settled_thread_count(before);
        CHECK(after == before, "lifecycle: pool %d (%d threads) left %d threads, expected %d",
              i, n, after, before);
    }
}

/* Step 5. Idle pool burns no CPU. */

static double cpu_seconds(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void stress_idle(int threads)
{
    gts__pool *p = NULL;
    struct per_worker *pw = calloc((size_t)threads, sizeof(*pw));
    struct timespec settle = { 0, 200 * 1000 * 1000 }, second = { 1, 0 };

    if (pw == NULL || gts__pool_new(&p, threads, NULL) != 0) {
        fail("idle: pool_new(%d) failed", threads);
        free(pw);
        return;
    }
    for (int k = 0; k < threads; k++) {
        pw[k].id = k;
        gts__worker_set_data(gts__pool_worker(p, k), &pw[k]);
    }
    for (int r = 0; r < 2; r++) {
        struct node root = { .task = { .fn = node_task, .arg = &root }, .seed = 99, .depth = 7 };

        gts__pool_run(p, node_root, &root);
        nanosleep(&settle, NULL);
        double before = cpu_seconds();
        nanosleep(&second, NULL);
        double used = cpu_seconds() - before;
        printf("idle: %.4f s CPU during 1 s between runs (%d threads)\n", used, threads);
        CHECK(used < 0.1, "idle: workers used %.3f s of CPU in 1 s between runs, expected ~0",
              used);
    }
    gts__pool_free(p);
    free(pw);
}

/* Step 6. During a run, workers with nothing to steal and a waiter whose
 * only task was stolen sleep instead of spinning: while one task busy-loops
 * for 0.5 s, the rest of the process uses ~0 CPU (measured as process CPU
 * minus the busy thread's own CPU, so that a loaded machine does not
 * matter). */

static const double BUSY_SECONDS = 0.5;

struct busy {
    uint64_t ran_on;     /* worker id + 1, atomic */
    double task_cpu;     /* CPU time of the busy thread, read after the run */
};

static double thread_cpu_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void busy_task(gts__task *t, gts__worker *w)
{
    struct busy *b = t->arg;
    double end = now() + BUSY_SECONDS, cpu0 = thread_cpu_seconds();

    gts__atomic_store_release_64(&b->ran_on, (uint64_t)gts__worker_id(w) + 1);
    while (now() < end)
        gts__atomic_pause();
    b->task_cpu = thread_cpu_seconds() - cpu0;
}

static void busy_root(void *arg, gts__worker *w)
{
    struct busy *b = arg;
    gts__group g = GTS__GROUP_INIT;
    gts__task t = { .fn = busy_task, .arg = b };
    struct timespec ms = { 0, 1000 * 1000 };

    gts__pool_spawn(w, &g, &t);
    /* Give a thief the time to take it, so that the wait below has nothing
     * to do but sleep (with one thread, or no steal, it runs here). */
    for (int i = 0; i < 100 && gts__atomic_load_acquire_64(&b->ran_on) == 0; i++)
        nanosleep(&ms, NULL);
    gts__pool_wait(w, &g);
}

static void stress_busy_run(int threads)
{
    gts__pool *p = NULL;

    if (gts__pool_new(&p, threads, NULL) != 0) {
        fail("busy: pool_new(%d) failed", threads);
        return;
    }
    for (int r = 0; r < 2; r++) {
        struct busy b = { 0, 0.0 };
        double before = cpu_seconds(), t0 = now();

        gts__pool_run(p, busy_root, &b);
        double used = cpu_seconds() - before, wall = now() - t0;
        double others = used - b.task_cpu;
        printf("busy: one %.1f s task on worker %d: it used %.3f s CPU, the other %d "
               "threads %.3f s, in %.3f s (%d threads)\n", BUSY_SECONDS, (int)b.ran_on - 1,
               b.task_cpu, threads - 1, others, wall, threads);
        /* Relative to the busy thread's CPU: on a loaded machine a spinner
         * gets as little CPU as the busy task, but not ~0 as a sleeper. */
        CHECK(others < 0.03 + 0.25 * b.task_cpu,
              "busy: the other threads used %.3f s of CPU while one task used %.3f s, "
              "expected ~0 (idle workers or the waiter are spinning)", others, b.task_cpu);
    }
    gts__pool_free(p);
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 8;
    double t0 = now(), t;

    if (threads < 1 || threads > GTS__POOL_MAX_THREADS) {
        fprintf(stderr, "usage: %s [threads 1..%d]\n", argv[0], GTS__POOL_MAX_THREADS);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("stress_pool: %d threads\n", threads);

    t = now();
    stress_deque(threads);
    printf("  deque      %.2f s\n", now() - t);
    t = now();
    stress_trees(threads);
    printf("  trees      %.2f s\n", now() - t);
    t = now();
    stress_detached(threads);
    printf("  detached   %.2f s\n", now() - t);
    t = now();
    stress_lifecycle(threads);
    printf("  lifecycle  %.2f s\n", now() - t);
    t = now();
    stress_idle(threads);
    printf("  idle       %.2f s\n", now() - t);
    t = now();
    stress_busy_run(threads);
    printf("  busy       %.2f s\n", now() - t);

    if (failures != 0) {
        fprintf(stderr, "stress_pool: %u check(s) failed (%d threads, %.1f s)\n", failures,
                threads, now() - t0);
        return 1;
    }
    printf("stress_pool: OK (%d threads, %.1f s)\n", threads, now() - t0);
    return 0;
}
