/*
 * The engine's allocator (gts_engine_new_with): every allocation goes
 * through it, with the size it was asked for, and every failure is a
 * GTS_ENOMEM (or a search that still completes exactly), never a crash or
 * a leak.
 *
 * The fault-injection tests fail the k-th allocation, for every k from 1
 * until a run needs fewer than k allocations, across engine creation, the
 * first table allocation, serial and parallel searches (thread pool, per
 * thread contexts, parallel scratch memory), a table resize, and
 * gts_probcut_calibrate. After each run the engine must still search
 * exactly once allocations succeed again, and after gts_engine_free()
 * nothing may be outstanding.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <gts/gts.h>
#include "gts_games.h"

/* ---- a counting allocator that can fail the k-th call -------------------- */

typedef struct counting {
    pthread_mutex_t lock;
    long calls;       /* allocate() calls so far */
    long fail_at;     /* fail this call (1-based); 0 = never */
    long failed;      /* failures handed out */
    long live_blocks; /* allocated, not released */
    size_t live_bytes;
    size_t peak_bytes;
    size_t budget;    /* refuse what would exceed it; 0 = no budget */
    long size_mismatches; /* release() with another size than allocate() */
} counting;

#define HEADER 16 /* keeps the user block 16-byte aligned */

static void *c_allocate(size_t size, void *user)
{
    counting *c = user;
    pthread_mutex_lock(&c->lock);
    long n = ++c->calls;
    bool fail = (c->fail_at != 0 && n == c->fail_at)
                || (c->budget != 0 && c->live_bytes + size > c->budget);
    c->failed += fail;
    pthread_mutex_unlock(&c->lock);
    cr_assert(size > 0, "allocate(0) must never be called");
    if (fail)
        return NULL;
    unsigned char *p = malloc(size + HEADER);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    pthread_mutex_lock(&c->lock);
    c->live_blocks++;
    c->live_bytes += size;
    if (c->live_bytes > c->peak_bytes)
        c->peak_bytes = c->live_bytes;
    pthread_mutex_unlock(&c->lock);
    return p + HEADER;
}

static void c_release(void *ptr, size_t size, void *user)
{
    counting *c = user;
    cr_assert(ptr != NULL, "release(NULL) must never be called");
    unsigned char *p = (unsigned char *)ptr - HEADER;
    size_t asked;
    memcpy(&asked, p, sizeof asked);
    pthread_mutex_lock(&c->lock);
    c->size_mismatches += asked != size;
    c->live_blocks--;
    c->live_bytes -= asked;
    pthread_mutex_unlock(&c->lock);
    free(p);
}

static counting C = {.lock = PTHREAD_MUTEX_INITIALIZER};
static const gts_allocator ALLOC = {sizeof(gts_allocator), c_allocate, c_release, &C};

static void arm(long fail_at)
{
    pthread_mutex_lock(&C.lock);
    C.calls = 0;
    C.failed = 0;
    C.fail_at = fail_at;
    pthread_mutex_unlock(&C.lock);
}

static void disarm(void)
{
    pthread_mutex_lock(&C.lock);
    C.fail_at = 0;
    pthread_mutex_unlock(&C.lock);
}

static void assert_nothing_live(const char *what, long k)
{
    cr_assert_eq(C.live_blocks, 0, "%s, k=%ld: %ld blocks (%zu bytes) leaked", what, k,
                 C.live_blocks, C.live_bytes);
    cr_assert_eq(C.size_mismatches, 0, "%s, k=%ld: release() got a wrong size", what, k);
}

/* ---- the workload ---------------------------------------------------------- */

static const gts_game *tree_game(void **state)
{
    gts_randtree_params p = {
        .struct_size = sizeof p, .seed = 77, .branching = 5, .depth = 7,
        .min_value = -100, .max_value = 100, .branching_jitter = 2,
    };
    cr_assert_eq(gts_randtree_new(&p, state), GTS_OK);
    return gts_game_randtree();
}

static gts_score minimax_value(const gts_game *g, void *s, int depth)
{
    gts_engine *e;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(gts_minimax(e, g, s, &l, &r), GTS_OK);
    gts_engine_free(e);
    return r.score;
}

/* A search under fault injection: exact or GTS_ENOMEM, state untouched. */
static void search_ok_or_enomem(gts_engine *e, gts_algorithm alg, const gts_game *g, void *s,
                                int depth, gts_score expect, long k)
{
    uint64_t key = g->hash(s, g->user);
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    gts_result r = {.struct_size = sizeof r};
    int rc = gts_search(e, alg, g, s, &l, &r);
    cr_assert(rc == GTS_OK || rc == GTS_ENOMEM, "%s, k=%ld: status %s", gts_algorithm_name(alg),
              k, gts_status_name(rc));
    if (rc == GTS_OK)
        cr_assert_eq(r.score, expect, "%s, k=%ld: score %d, minimax %d",
                     gts_algorithm_name(alg), k, r.score, expect);
    cr_assert_eq(g->hash(s, g->user), key, "%s, k=%ld: the caller's state changed",
                 gts_algorithm_name(alg), k);
}

/*
 * One run with the k-th allocation failing: create, size the table, search,
 * resize the table, search again; then, with allocations succeeding again,
 * the engine must still give the exact value. Returns whether the k-th
 * allocation happened at all.
 */
static bool run_once(gts_algorithm alg, int threads, long k)
{
    void *s;
    const gts_game *g = tree_game(&s);
    const int depth = 6;
    gts_score expect = minimax_value(g, s, depth);

    arm(k);
    gts_engine *e = NULL;
    int rc = gts_engine_new_with(&e, &ALLOC);
    cr_assert(rc == GTS_OK || rc == GTS_ENOMEM, "k=%ld: gts_engine_new_with: %s", k,
              gts_status_name(rc));
    if (rc == GTS_ENOMEM) {
        cr_assert_null(e, "k=%ld: *out must be NULL after a failure", k);
    } else {
        rc = gts_engine_set(e, GTS_OPT_TT_MB, 1);
        cr_assert(rc == GTS_OK || rc == GTS_ENOMEM, "k=%ld: set tt_mb: %s", k, gts_status_name(rc));
        cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, threads), GTS_OK);
        search_ok_or_enomem(e, alg, g, s, depth, expect, k);
        rc = gts_engine_set(e, GTS_OPT_TT_MB, 2);
        cr_assert(rc == GTS_OK || rc == GTS_ENOMEM, "k=%ld: resize: %s", k, gts_status_name(rc));
        search_ok_or_enomem(e, alg, g, s, depth, expect, k);

        /* Allocations succeed again: the engine recovered completely. */
        disarm();
        gts_engine_clear(e);
        gts_limits l = {.struct_size = sizeof l, .depth = depth};
        gts_result r = {.struct_size = sizeof r};
        rc = gts_search(e, alg, g, s, &l, &r);
        cr_assert_eq(rc, GTS_OK, "%s, k=%ld: search after the failure: %s",
                     gts_algorithm_name(alg), k, gts_status_name(rc));
        cr_assert_eq(r.score, expect, "%s, k=%ld: score after the failure", gts_algorithm_name(alg),
                     k);
        gts_engine_free(e);
    }
    gts_games_free(g, s);
    assert_nothing_live(gts_algorithm_name(alg), k);
    return C.calls >= k;
}

static long fail_every_allocation(gts_algorithm alg, int threads)
{
    long k = 1;
    while (run_once(alg, threads, k)) {
        cr_assert(k < 100000, "%s: allocations never end", gts_algorithm_name(alg));
        k++;
    }
    return k - 1;
}

/* ---- tests --------------------------------------------------------------- */

Test(alloc, rejects_bad_allocators)
{
    gts_engine *e = (gts_engine *)&e;
    gts_allocator a = ALLOC;
    a.struct_size = 3;
    cr_expect_eq(gts_engine_new_with(&e, &a), GTS_EINVAL);
    cr_expect_null(e, "*out is NULL after a failure");
    a = ALLOC;
    a.allocate = NULL;
    cr_expect_eq(gts_engine_new_with(&e, &a), GTS_EINVAL);
    a = ALLOC;
    a.release = NULL;
    cr_expect_eq(gts_engine_new_with(&e, &a), GTS_EINVAL);
    cr_expect_eq(gts_engine_new_with(NULL, &ALLOC), GTS_EINVAL);
    cr_expect_eq(gts_engine_new_with(&e, NULL), GTS_OK, "NULL means malloc/free");
    gts_engine_free(e);
}

Test(alloc, everything_goes_through_the_allocator)
{
    void *s;
    const gts_game *g = tree_game(&s);
    arm(0);
    gts_engine *e;
    cr_assert_eq(gts_engine_new_with(&e, &ALLOC), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 1), GTS_OK);
    cr_assert_geq(C.live_bytes, (size_t)1 << 20, "the 1 MiB table comes from the allocator");
    cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, 3), GTS_OK);
    gts_limits l = {.struct_size = sizeof l, .depth = 6};
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(gts_ybwc(e, g, s, &l, &r), GTS_OK);
    cr_assert_gt(C.live_blocks, 3, "contexts and the pool come from the allocator");
    gts_engine_free(e);
    gts_games_free(g, s);
    assert_nothing_live("normal use", 0);
}

/* Issue 11, 2.5: the largest max_moves with the most threads. Move
 * buffers used to be allocated (and zeroed) for every ply up front, 236 MB
 * per thread at max_moves 65535, and the process was OOM-killed; they now
 * grow with the plies each thread reaches. Under an 8 GiB budget the search
 * must succeed (it needed 60 GB before), and with a budget too small for
 * the buffers it fails with GTS_ENOMEM and restores the state. */
static gts_game big_moves_game(void **state)
{
    gts_game g = *tree_game(state);
    g.max_moves = 65535;
    return g;
}

Test(alloc, huge_max_moves_with_many_threads, .timeout = 300)
{
    void *s;
    gts_game g = big_moves_game(&s);
    gts_score want = minimax_value(&g, s, 4);
    arm(0);
    C.peak_bytes = C.live_bytes;
    C.budget = (size_t)8 << 30;
    gts_engine *e;
    cr_assert_eq(gts_engine_new_with(&e, &ALLOC), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, 256), GTS_OK);
    gts_limits l = {.struct_size = sizeof l, .depth = 4};
    gts_result r = {.struct_size = sizeof r};
    gts_status rc = gts_ybwc(e, &g, s, &l, &r);
    size_t peak = C.peak_bytes;
    C.budget = 0;
    cr_expect_eq(rc, GTS_OK, "%s (peak %zu MiB)", gts_status_name(rc), peak >> 20);
    cr_expect_eq(r.score, want);
    cr_expect_lt(peak, (size_t)8 << 30);
    gts_engine_free(e);
    gts_games_free(&g, s);
    assert_nothing_live("huge max_moves", 0);
}

Test(alloc, move_buffers_beyond_the_budget_are_enomem)
{
    void *s;
    gts_game g = big_moves_game(&s);
    gts_engine *e;
    arm(0);
    cr_assert_eq(gts_engine_new_with(&e, &ALLOC), GTS_OK);
    /* Room for the engine, its table and the context, not for a ply block
     * of 65535 moves (1.8 MB). */
    C.budget = C.live_bytes + (1 << 20);
    gts_limits l = {.struct_size = sizeof l, .depth = 4};
    gts_result r = {.struct_size = sizeof r};
    uint64_t before = g.hash(s, g.user);
    gts_status rc = gts_pvs(e, &g, s, &l, &r);
    C.budget = 0;
    cr_expect_eq(rc, GTS_ENOMEM, "%s", gts_status_name(rc));
    cr_expect_eq(g.hash(s, g.user), before, "the state is restored");
    cr_expect_eq(gts_pvs(e, &g, s, &l, &r), GTS_OK, "the engine works once memory is back");
    gts_engine_free(e);
    gts_games_free(&g, s);
    assert_nothing_live("ply blocks over budget", 0);
}

/* The state an algorithm keeps on the engine (issue 30: ProbCut's
 * parameters, MCTS's tree and statistics) is allocated on first use: when
 * that fails the call says GTS_ENOMEM, changes nothing, and works once
 * memory is back; gts_engine_free() releases it all. */
Test(alloc, algorithm_state_allocation_fails_cleanly)
{
    void *s;
    const gts_game *g = tree_game(&s);
    gts_engine *e;
    arm(0);
    cr_assert_eq(gts_engine_new_with(&e, &ALLOC), GTS_OK);
    gts_probcut_params p = {.struct_size = sizeof p}, got = {.struct_size = sizeof got};
    cr_assert_eq(gts_probcut_defaults(&p), GTS_OK);
    p.npairs = 0;
    arm(1);
    cr_expect_eq(gts_engine_set_probcut(e, &p), GTS_ENOMEM);
    disarm();
    cr_assert_eq(gts_engine_get_probcut(e, &got), GTS_OK);
    cr_expect_eq(got.npairs, 1, "the defaults stand after the failure");
    cr_expect_eq(gts_engine_set_probcut(e, &p), GTS_OK);
    cr_assert_eq(gts_engine_get_probcut(e, &got), GTS_OK);
    cr_expect_eq(got.npairs, 0);

    uint64_t key = g->hash(s, g->user);
    gts_limits l = {.struct_size = sizeof l};
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 200), GTS_OK);
    l.depth = 3;
    cr_assert_eq(gts_alphabeta(e, g, s, &l, &r), GTS_OK); /* contexts and buffers exist */
    l.depth = 0;
    arm(1); /* the first MCTS search: its state is the first allocation */
    cr_expect_eq(gts_mcts(e, g, s, &l, &r), GTS_ENOMEM);
    cr_expect_eq(C.failed, 1);
    disarm();
    cr_expect_eq(g->hash(s, g->user), key, "the caller's state is restored");
    cr_expect_eq(gts_mcts_root_stats(e, NULL, 0), 0);
    cr_expect_eq(gts_mcts(e, g, s, &l, &r), GTS_OK);
    cr_expect_gt(gts_mcts_root_stats(e, NULL, 0), 0);
    gts_engine_free(e);
    gts_games_free(g, s);
    assert_nothing_live("algorithm state", 0);
}

Test(alloc, fail_each_allocation_serial)
{
    static const gts_algorithm serial[] = {GTS_ALG_ALPHABETA, GTS_ALG_PVS, GTS_ALG_MTDF,
                                           GTS_ALG_ER, GTS_ALG_PROBCUT,
                                           GTS_ALG_SSSSTAR_STOCKMAN};
    for (size_t i = 0; i < sizeof serial / sizeof serial[0]; i++) {
        long n = fail_every_allocation(serial[i], 1);
        cr_expect_gt(n, 3, "%s: the run allocates (engine, table, contexts)",
                     gts_algorithm_name(serial[i]));
    }
}

Test(alloc, fail_each_allocation_parallel, .timeout = 300)
{
    static const gts_algorithm par[] = {
        GTS_ALG_ER_PARALLEL, GTS_ALG_JAMBOREE, GTS_ALG_DTS, GTS_ALG_YBWC,
        GTS_ALG_PVSPLIT, GTS_ALG_ABDADA, GTS_ALG_LAZYSMP, GTS_ALG_ROOTSPLIT,
    };
    for (size_t i = 0; i < sizeof par / sizeof par[0]; i++) {
        long n = fail_every_allocation(par[i], 4);
        cr_expect_gt(n, 8, "%s: pool, contexts and scratch memory are allocated",
                     gts_algorithm_name(par[i]));
    }
}

Test(alloc, fail_each_allocation_calibrate)
{
    void *s;
    const gts_game *g = tree_game(&s);
    long k = 1;
    for (;; k++) {
        arm(0);
        gts_engine *e;
        cr_assert_eq(gts_engine_new_with(&e, &ALLOC), GTS_OK);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 0), GTS_OK);
        arm(k);
        gts_probcut_fit fit;
        memset(&fit, 0, sizeof fit);
        fit.struct_size = sizeof fit;
        int rc = gts_probcut_calibrate(e, g, NULL, 0, s, 40, 1, 6, 1, 3, &fit);
        bool reached = C.calls >= k;
        cr_assert(rc == GTS_OK || rc == GTS_ENOMEM || rc == GTS_ERANGE, "k=%ld: %s", k,
                  gts_status_name(rc));
        if (reached)
            cr_assert_neq(rc, GTS_OK, "k=%ld: a failed allocation must be reported", k);
        gts_engine_free(e);
        assert_nothing_live("calibrate", k);
        if (!reached)
            break;
    }
    cr_expect_gt(k, 1, "calibration allocates");
    gts_games_free(g, s);
}
