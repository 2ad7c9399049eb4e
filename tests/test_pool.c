/*
 * test_pool.c - work-stealing pool (lib/pool.c): fork-join results at
 * several thread counts, run reuse, thread lifecycle, nested waits, worker
 * identity and data slots, idle workers sleeping.
 *
 * No per-test .timeout: Criterion 2.4.1's runner leaks 48 bytes when two
 * tests with a timeout run concurrently (--jobs=2), which fails ASan/LSan
 * builds; meson's per-suite timeout catches hangs instead.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* POSIX and GNU declarations under -std=c11 */
#endif
#include <criterion/criterion.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <time.h>

#include <gts/common.h>

#include "atomic_internal.h"
#include "pool_internal.h"

#if defined(__SANITIZE_ADDRESS__)
#  define TEST_ASAN 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define TEST_ASAN 1
#  endif
#endif

static const int thread_counts[] = { 1, 2, 3, 4, 8, 16 };
#define N_COUNTS ((int)(sizeof(thread_counts) / sizeof(thread_counts[0])))

static gts__pool *new_pool(int threads)
{
    gts__pool *p = NULL;
    int rc = gts__pool_new(&p, threads, NULL);

    cr_assert_eq(rc, 0, "gts__pool_new(%d) returned %d, expected 0", threads, rc);
    cr_assert_not_null(p);
    cr_assert_eq(gts__pool_threads(p), threads, "pool should report %d threads", threads);
    return p;
}

static int count_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    int n = 0;

    cr_assert_not_null(d, "/proc/self/task should be readable");
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

/* The kernel reaps a joined thread's task entry a moment after
 * pthread_join() returns (the join futex is cleared on exit, before the
 * task is released), so poll briefly for the expected count. */
static int settled_thread_count(int expected)
{
    struct timespec ms = { 0, 1000 * 1000 };
    int n = count_threads();

    for (int i = 0; i < 2000 && n != expected; i++) {
        nanosleep(&ms, NULL);
        n = count_threads();
    }
    return n;
}

/* Step 1. Recursive fib, both children spawned. */

struct fib {
    gts__task task;
    int n;
    uint64_t result;
};

static uint64_t fib_seq(int n)
{
    return n < 2 ? (uint64_t)n : fib_seq(n - 1) + fib_seq(n - 2);
}

static void fib_task(gts__task *t, gts__worker *w)
{
    struct fib *f = t->arg;
    struct fib a, b;
    gts__group g = GTS__GROUP_INIT;

    if (f->n < 2) {
        f->result = (uint64_t)f->n;
        return;
    }
    a = (struct fib){ .task = { .fn = fib_task, .arg = &a }, .n = f->n - 1 };
    b = (struct fib){ .task = { .fn = fib_task, .arg = &b }, .n = f->n - 2 };
    gts__pool_spawn(w, &g, &a.task);
    gts__pool_spawn(w, &g, &b.task);
    gts__pool_wait(w, &g);
    cr_assert_eq(g.pending, 0, "wait returned with tasks pending");
    f->result = a.result + b.result;
}

static void fib_root(void *arg, gts__worker *w)
{
    struct fib *f = arg;

    cr_assert_eq(gts__worker_id(w), 0, "the run function executes as worker 0");
    fib_task(&f->task, w);
}

Test(pool, fib25_matches_sequential_at_1_2_3_4_8_16_threads)
{
    uint64_t expected = fib_seq(25);

    cr_assert_eq(expected, 75025);
    for (int k = 0; k < N_COUNTS; k++) {
        gts__pool *p = new_pool(thread_counts[k]);
        struct fib f = { .task = { .fn = fib_task, .arg = &f }, .n = 25 };

        gts__pool_run(p, fib_root, &f);
        cr_expect_eq(f.result, expected, "fib(25) at %d threads = %llu, expected %llu",
                     thread_counts[k], (unsigned long long)f.result,
                     (unsigned long long)expected);
        gts__pool_free(p);
    }
}

/* Step 2. Parallel sum over an array, split in halves (a binary task tree
 * whose leaves do real work). */

struct sum {
    gts__task task;
    const uint64_t *v;
    size_t n;
    uint64_t result;
};

static const size_t SUM_LEAF = 64;

static void sum_task(gts__task *t, gts__worker *w)
{
    struct sum *s = t->arg;

    if (s->n <= SUM_LEAF) {
        uint64_t acc = 0;
        for (size_t i = 0; i < s->n; i++)
            acc += s->v[i];
        s->result = acc;
        return;
    }
    struct sum lo = { .task = { .fn = sum_task, .arg = &lo }, .v = s->v, .n = s->n / 2 };
    struct sum hi = { .task = { .fn = sum_task, .arg = &hi },
                      .v = s->v + s->n / 2, .n = s->n - s->n / 2 };
    gts__group g = GTS__GROUP_INIT;

    gts__pool_spawn(w, &g, &hi.task);
    sum_task(&lo.task, w); /* work-first on one half */
    gts__pool_wait(w, &g);
    s->result = lo.result + hi.result;
}

static void sum_root(void *arg, gts__worker *w)
{
    struct sum *s = arg;

    sum_task(&s->task, w);
}

Test(pool, tree_sum_matches_sequential_at_1_2_3_4_8_16_threads)
{
    const size_t n = 1u << 20;
    uint64_t *v = malloc(n * sizeof(*v));
    uint64_t expected = 0, x = 88172645463325252ull;

    cr_assert_not_null(v);
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        v[i] = x >> 20;
        expected += v[i];
    }
    for (int k = 0; k < N_COUNTS; k++) {
        gts__pool *p = new_pool(thread_counts[k]);
        for (int rep = 0; rep < 3; rep++) {
            struct sum s = { .task = { .fn = sum_task, .arg = &s }, .v = v, .n = n };
            gts__pool_run(p, sum_root, &s);
            cr_expect_eq(s.result, expected, "sum at %d threads (rep %d) = %llu, expected %llu",
                         thread_counts[k], rep, (unsigned long long)s.result,
                         (unsigned long long)expected);
        }
        gts__pool_free(p);
    }
    free(v);
}

/* Step 3. One pool, many small runs. */

Test(pool, run_reused_1000_times)
{
    gts__pool *p = new_pool(4);

    for (int i = 0; i < 1000; i++) {
        int n = 8 + i % 8;
        struct fib f = { .task = { .fn = fib_task, .arg = &f }, .n = n };

        gts__pool_run(p, fib_root, &f);
        cr_assert_eq(f.result, fib_seq(n), "run %d: fib(%d) = %llu, expected %llu", i, n,
                     (unsigned long long)f.result, (unsigned long long)fib_seq(n));
    }
    gts__pool_free(p);
}

/* Step 4. Thread lifecycle. */

Test(pool, new_rejects_bad_arguments)
{
    gts__pool *p = (gts__pool *)&p;

    cr_expect_eq(gts__pool_new(&p, 0, NULL), GTS_EINVAL, "0 threads should be rejected");
    cr_expect_null(p, "*out should be NULL after a failure");
    cr_expect_eq(gts__pool_new(&p, -3, NULL), GTS_EINVAL, "negative threads should be rejected");
    cr_expect_eq(gts__pool_new(&p, GTS__POOL_MAX_THREADS + 1, NULL), GTS_EINVAL,
                 "more than %d threads should be rejected", GTS__POOL_MAX_THREADS);
    cr_expect_eq(gts__pool_new(NULL, 4, NULL), GTS_EINVAL, "NULL out should be rejected");
    gts__pool_free(NULL); /* accepted */
}

Test(pool, single_thread_pool_creates_no_thread)
{
    int before = count_threads();
    gts__pool *p = new_pool(1);

    cr_expect_eq(count_threads(), before, "a 1-thread pool should create no pthread");
    struct fib f = { .task = { .fn = fib_task, .arg = &f }, .n = 15 };
    gts__pool_run(p, fib_root, &f);
    cr_expect_eq(f.result, fib_seq(15), "fib(15) on one thread");
    gts__pool_free(p);
}

Test(pool, create_free_many_pools_leaks_no_threads)
{
    int before = count_threads();

    for (int i = 0; i < 60; i++) {
        int threads = 1 + i % 17;
        gts__pool *p = new_pool(threads);

        cr_expect_eq(settled_thread_count(before + threads - 1), before + threads - 1,
                     "pool %d: %d threads should add %d pthreads", i, threads, threads - 1);
        if (i % 2 == 0) {
            struct fib f = { .task = { .fn = fib_task, .arg = &f }, .n = 12 };
            gts__pool_run(p, fib_root, &f);
            cr_expect_eq(f.result, fib_seq(12));
        }
        gts__pool_free(p);
        cr_assert_eq(settled_thread_count(before), before, "pool %d: thread count should return to %d",
                     i, before);
    }
    /* A maximal pool, never run. */
    gts__pool *p = new_pool(GTS__POOL_MAX_THREADS);
    cr_expect_eq(settled_thread_count(before + GTS__POOL_MAX_THREADS - 1),
                 before + GTS__POOL_MAX_THREADS - 1, "a %d-thread pool adds %d pthreads",
                 GTS__POOL_MAX_THREADS, GTS__POOL_MAX_THREADS - 1);
    gts__pool_free(p);
    cr_expect_eq(settled_thread_count(before), before, "thread count should return to %d", before);
}

/* pthread_create() failing part-way: the pool must join the threads it
 * started, free everything and report GTS_ETHREAD. The test binary
 * interposes pthread_create (the pool is linked statically into it); not in
 * ASan builds, whose runtime intercepts pthread_create itself. */
#ifndef TEST_ASAN

static int create_fail_after = -1; /* calls left before failing; -1 never */

int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                   void *(*start)(void *), void *arg)
{
    static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

    if (real == NULL)
        *(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
    if (create_fail_after == 0)
        return EAGAIN;
    if (create_fail_after > 0)
        create_fail_after--;
    return real(thread, attr, start, arg);
}

Test(pool, failed_thread_creation_cleans_up)
{
    int before = count_threads();
    const int after_n[] = { 0, 1, 7, 14 };

    for (int k = 0; k < 4; k++) {
        gts__pool *p = (gts__pool *)&p;

        create_fail_after = after_n[k];
        int rc = gts__pool_new(&p, 16, NULL);
        create_fail_after = -1;
        cr_expect_eq(rc, GTS_ETHREAD, "pthread_create failing after %d threads: rc %d, "
                     "expected GTS_ETHREAD", after_n[k], rc);
        cr_expect_null(p, "*out should be NULL after GTS_ETHREAD");
        cr_assert_eq(settled_thread_count(before), before, "the %d started threads should "
                     "have been joined", after_n[k]);
    }
    gts__pool *p = new_pool(16);
    struct fib f = { .task = { .fn = fib_task, .arg = &f }, .n = 15 };
    gts__pool_run(p, fib_root, &f);
    cr_expect_eq(f.result, fib_seq(15), "a pool created afterwards works");
    gts__pool_free(p);
}

#endif

/* Step 5. Nested waits: every task spawns its children into its own group
 * and waits for them; the leaves count themselves. */

struct nest {
    gts__task task;
    int depth;
    uint64_t leaves;   /* written by the task, read by its parent after wait */
    uint64_t *counter; /* shared atomic leaf counter */
};

static const int NEST_FANOUT = 5;

static void nest_task(gts__task *t, gts__worker *w)
{
    struct nest *n = t->arg;
    struct nest kids[5];
    gts__group g = GTS__GROUP_INIT;

    if (n->depth == 0) {
        gts__atomic_faa_relaxed_64(n->counter, 1);
        n->leaves = 1;
        return;
    }
    for (int i = 0; i < NEST_FANOUT; i++) {
        kids[i] = (struct nest){ .task = { .fn = nest_task, .arg = &kids[i] },
                                 .depth = n->depth - 1, .counter = n->counter };
        gts__pool_spawn(w, &g, &kids[i].task);
    }
    gts__pool_wait(w, &g);
    /* The group is reusable once waited: spawn a second batch into it. */
    struct nest extra = { .task = { .fn = nest_task, .arg = &extra }, .depth = 0,
                          .counter = n->counter };
    gts__pool_spawn(w, &g, &extra.task);
    gts__pool_wait(w, &g);
    n->leaves = extra.leaves;
    for (int i = 0; i < NEST_FANOUT; i++)
        n->leaves += kids[i].leaves;
}

static void nest_root(void *arg, gts__worker *w)
{
    nest_task(&((struct nest *)arg)->task, w);
}

Test(pool, nested_waits_at_16_threads)
{
    gts__pool *p = new_pool(16);
    /* Leaves of a depth-d tree: 5^d plus one extra per inner node. */
    const int depth = 6;
    uint64_t expected = 1, inner = 0, level = 1;

    for (int d = 0; d < depth; d++) {
        inner += level;
        level *= NEST_FANOUT;
    }
    expected = level + inner;
    for (int rep = 0; rep < 5; rep++) {
        uint64_t counter = 0;
        struct nest root = { .task = { .fn = nest_task, .arg = &root }, .depth = depth,
                             .counter = &counter };

        gts__pool_run(p, nest_root, &root);
        cr_expect_eq(root.leaves, expected, "rep %d: leaves summed %llu, expected %llu", rep,
                     (unsigned long long)root.leaves, (unsigned long long)expected);
        cr_expect_eq(counter, expected, "rep %d: leaves counted %llu, expected %llu", rep,
                     (unsigned long long)counter, (unsigned long long)expected);
    }
    gts__pool_free(p);
}

/* Step 6. Worker identity and per-worker data. */

enum { ID_THREADS = 16, ID_TASKS = 4000 };

struct ident {
    uint64_t thread_of[ID_THREADS]; /* pthread_self() + 1 seen as id i */
    uint32_t bad_range;
    uint32_t bad_thread;
    uint32_t bad_data;
    uint32_t ran[ID_THREADS];
    int slot[ID_THREADS];
    gts__pool *pool;
};

static void ident_task(gts__task *t, gts__worker *w)
{
    struct ident *s = t->arg;
    int id = gts__worker_id(w);
    uint64_t self = (uint64_t)pthread_self() + 1;

    if (id < 0 || id >= ID_THREADS || gts__worker_pool(w) != s->pool ||
        gts__pool_worker(s->pool, id) != w) {
        gts__atomic_faa_relaxed_32(&s->bad_range, 1);
        return;
    }
    if (gts__worker_data(w) != &s->slot[id])
        gts__atomic_faa_relaxed_32(&s->bad_data, 1);
    /* The first task on worker id records its thread; all later ones must
     * run on the same thread. */
    if (!gts__atomic_cas_64(&s->thread_of[id], 0, self) &&
        gts__atomic_load_acquire_64(&s->thread_of[id]) != self)
        gts__atomic_faa_relaxed_32(&s->bad_thread, 1);
    gts__atomic_faa_relaxed_32(&s->ran[id], 1);
    /* Some work so that thieves get a chance. */
    volatile uint64_t x = 0;
    for (int i = 0; i < 2000; i++)
        x += (uint64_t)i;
    (void)x;
}

struct ident_run {
    struct ident *s;
    gts__task tasks[ID_TASKS];
};

static void ident_root(void *arg, gts__worker *w)
{
    struct ident_run *r = arg;
    gts__group g = GTS__GROUP_INIT;

    for (int i = 0; i < ID_TASKS; i++) {
        r->tasks[i] = (gts__task){ .fn = ident_task, .arg = r->s };
        gts__pool_spawn(w, &g, &r->tasks[i]);
    }
    gts__pool_wait(w, &g);
}

Test(pool, worker_ids_distinct_and_in_range)
{
    gts__pool *p = new_pool(ID_THREADS);
    struct ident *s = calloc(1, sizeof(*s));
    struct ident_run *r = calloc(1, sizeof(*r));

    cr_assert(s != NULL && r != NULL);
    s->pool = p;
    r->s = s;
    for (int i = 0; i < ID_THREADS; i++) {
        gts__worker *w = gts__pool_worker(p, i);
        cr_assert_not_null(w, "worker %d should exist", i);
        cr_expect_eq(gts__worker_id(w), i, "gts__pool_worker(%d) should have id %d", i, i);
        cr_expect_eq(gts__worker_pool(w), p, "worker %d should belong to its pool", i);
        cr_expect_null(gts__worker_data(w), "worker %d data should start NULL", i);
        gts__worker_set_data(w, &s->slot[i]);
    }
    cr_expect_null(gts__pool_worker(p, -1), "worker -1 does not exist");
    cr_expect_null(gts__pool_worker(p, ID_THREADS), "worker %d does not exist", ID_THREADS);

    for (int rep = 0; rep < 5; rep++)
        gts__pool_run(p, ident_root, r);

    uint64_t total = 0;
    for (int i = 0; i < ID_THREADS; i++)
        total += s->ran[i];
    cr_expect_eq(total, 5u * ID_TASKS, "every task should have run once");
    cr_expect_eq(s->bad_range, 0, "worker ids must be in 0..%d", ID_THREADS - 1);
    cr_expect_eq(s->bad_thread, 0, "a worker id must always be the same thread");
    cr_expect_eq(s->bad_data, 0, "gts__worker_data must return the slot set for that id");
    /* Distinct: two ids never map to one thread. Worker 0 is this thread. */
    cr_expect(s->thread_of[0] == 0 || s->thread_of[0] == (uint64_t)pthread_self() + 1,
              "worker 0 must be the thread calling gts__pool_run");
    for (int i = 0; i < ID_THREADS; i++)
        for (int j = i + 1; j < ID_THREADS; j++)
            cr_expect(s->thread_of[i] == 0 || s->thread_of[i] != s->thread_of[j],
                      "workers %d and %d ran on the same thread", i, j);
    gts__pool_free(p);
    free(r);
    free(s);
}

/* Step 7. A run waits for tasks its function did not wait for. */

struct detached {
    gts__group group;
    gts__task tasks[64];
    uint64_t done;
};

static void slow_task(gts__task *t, gts__worker *w)
{
    (void)w;
    struct detached *d = t->arg;
    struct timespec ts = { 0, 200000 }; /* 0.2 ms */

    nanosleep(&ts, NULL);
    gts__atomic_faa_relaxed_64(&d->done, 1);
}

static void detached_root(void *arg, gts__worker *w)
{
    struct detached *d = arg;

    for (int i = 0; i < 64; i++) {
        d->tasks[i] = (gts__task){ .fn = slow_task, .arg = d };
        gts__pool_spawn(w, &d->group, &d->tasks[i]);
    }
    /* returns without waiting */
}

Test(pool, run_waits_for_tasks_nobody_waited_for)
{
    for (int k = 0; k < N_COUNTS; k++) {
        gts__pool *p = new_pool(thread_counts[k]);
        struct detached *d = calloc(1, sizeof(*d));

        cr_assert_not_null(d);
        gts__pool_run(p, detached_root, d);
        cr_expect_eq(d->done, 64, "at %d threads all 64 tasks should be done when run returns",
                     thread_counts[k]);
        cr_expect(gts__group_done(&d->group), "the group should be complete");
        gts__pool_free(p);
        free(d);
    }
}

/* Step 8. A spawn whose deque cannot grow runs the task inline. The
 * address-space limit makes the deque's growth fail (Criterion runs each
 * test in its own process, so the limit dies with it). */

#ifndef TEST_ASAN

enum { INL_TASKS = 1 << 18 };

static gts__task inl_tasks[INL_TASKS];
static uint32_t inl_ran[INL_TASKS];
static uint32_t inl_before_wait;
static bool inl_waiting;
static int inl_setrlimit_rc;

static void inl_task(gts__task *t, gts__worker *w)
{
    (void)w;
    inl_ran[t - inl_tasks]++;
    if (!inl_waiting)
        inl_before_wait++;
}

static void inl_root(void *arg, gts__worker *w)
{
    gts__group *g = arg;
    struct rlimit old, lim;
    long pages = 0, page = sysconf(_SC_PAGESIZE);
    FILE *f = fopen("/proc/self/statm", "r");

    if (f != NULL) {
        if (fscanf(f, "%ld", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    getrlimit(RLIMIT_AS, &old);
    lim = old;
    lim.rlim_cur = (rlim_t)pages * (rlim_t)page + ((rlim_t)1 << 20);
    inl_setrlimit_rc = pages > 0 ? setrlimit(RLIMIT_AS, &lim) : -1;
    for (int i = 0; i < INL_TASKS; i++) {
        inl_tasks[i] = (gts__task){ .fn = inl_task };
        gts__pool_spawn(w, g, &inl_tasks[i]);
    }
    inl_waiting = true;
    gts__pool_wait(w, g);
    setrlimit(RLIMIT_AS, &old);
}

Test(pool, spawn_runs_inline_when_the_deque_cannot_grow)
{
    gts__pool *p = new_pool(1); /* no thief: the deque must hold everything */
    gts__group g = GTS__GROUP_INIT;

    gts__pool_run(p, inl_root, &g);
    cr_assert_eq(inl_setrlimit_rc, 0, "setrlimit(RLIMIT_AS) should succeed");
    cr_expect_gt(inl_before_wait, 0, "with growth failing, some spawns should have run the "
                                     "task inline (before the wait)");
    cr_expect_lt(inl_before_wait, (uint32_t)INL_TASKS, "the first spawns should have been "
                                                       "queued, not run inline");
    for (int i = 0; i < INL_TASKS; i++)
        cr_assert_eq(inl_ran[i], 1, "task %d ran %u times, expected exactly once", i,
                     inl_ran[i]);
    cr_expect(gts__group_done(&g), "every task of the group should have finished");
    cr_log_info("%u of %d tasks ran inline", inl_before_wait, INL_TASKS);
    gts__pool_free(p);
}

#else /* TEST_ASAN */

Test(pool, spawn_runs_inline_when_the_deque_cannot_grow)
{
    cr_skip_test("ASan reserves terabytes of address space: RLIMIT_AS cannot be used");
}

#endif

/* Step 9. Help and misc. */

static void help_root(void *arg, gts__worker *w)
{
    bool *ok = arg;
    gts__group g = GTS__GROUP_INIT;
    struct fib f = { .task = { .fn = fib_task, .arg = &f }, .n = 10 };

    *ok = !gts__pool_help(w); /* nothing spawned yet: nothing to run */
    gts__pool_spawn(w, &g, &f.task);
    while (!gts__group_done(&g))
        gts__pool_help(w);
    *ok = *ok && f.result == fib_seq(10);
    gts__pool_wait(w, &g); /* already done: returns at once */
}

Test(pool, help_runs_a_task_or_reports_none)
{
    for (int k = 0; k < N_COUNTS; k++) {
        gts__pool *p = new_pool(thread_counts[k]);
        bool ok = false;

        gts__pool_run(p, help_root, &ok);
        cr_expect(ok, "at %d threads: help on an empty pool returns false, and helping "
                      "until the group is done computes fib(10)", thread_counts[k]);
        gts__pool_free(p);
    }
}

static double cpu_seconds(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

Test(pool, idle_workers_sleep_between_runs)
{
    gts__pool *p = new_pool(16);
    struct fib f = { .task = { .fn = fib_task, .arg = &f }, .n = 20 };
    struct timespec settle = { 0, 100 * 1000 * 1000 }, second = { 1, 0 };

    gts__pool_run(p, fib_root, &f);
    cr_expect_eq(f.result, fib_seq(20));
    nanosleep(&settle, NULL); /* let the last spinners reach their sleep */
    double before = cpu_seconds();
    nanosleep(&second, NULL);
    double used = cpu_seconds() - before;
    /* 15 spinning workers would burn ~2 s of CPU (2 cores) in that second. */
    cr_expect_lt(used, 0.05, "idle pool used %.3f s of CPU in 1 s, expected ~0", used);
    gts__pool_free(p);
}
