/*
 * stress_mcts.c - parallel Monte-Carlo tree search under load, as a plain
 * program so that it runs under ThreadSanitizer (Criterion cannot).
 *
 *   stress_mcts [threads] [rounds]   threads defaults to 4 (1..256),
 *                                    rounds (scales the work) to 1
 *
 * Exits 0 when every check passed, 1 with a message on stderr otherwise.
 *
 *   1. tree and root parallelisation prove random trees (no budget):
 *      the minimax value and a move of that value;
 *   2. playout budgets: the root's statistics sum to the playouts done
 *      (no lost update), with a tree small enough to fill up (the tree's
 *      memory budget reached while every worker expands);
 *   3. a stop from another thread in the middle of a search without a
 *      budget: it returns, flags the stop, and the state is unchanged;
 *   4. a callback failing on a worker thread's state copy;
 *   5. RAVE (lock-free AMAF updates), a playout policy called on every
 *      worker's state, and tree reuse (gts_mcts_advance) between parallel
 *      searches: counts add up, AMAF counts stay within their bounds;
 *   6. trusted playouts (GTS_TRAIT_TRUSTED_PLAYOUT, Go 5x5): every worker
 *      plays the policy's moves on its own state copy without generate()
 *      between them; the visits add up and the caller's state is unchanged;
 *   7. a batch evaluator (PUCT, issue 34): every worker collects batches of
 *      leaves on its slot clones and calls the evaluator concurrently; the
 *      visits add up to the budget, unlimited searches prove random trees,
 *      a failing call unwinds with the state restored.
 * Workers share the tree only through lib/atomic_internal.h, so under TSan
 * every happens-before edge of the node publication protocol is checked.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gts/gts.h>
#include "gts_games.h"

#define STRESS_NAME "stress_mcts"
#include "stress.h"

static gts_engine *new_engine(int threads, int mode)
{
    gts_engine *e = NULL;
    if (gts_engine_new(&e) != GTS_OK || gts_engine_set(e, GTS_OPT_THREADS, threads) != GTS_OK
        || gts_engine_set(e, GTS_OPT_TT_MB, 0) != GTS_OK
        || gts_engine_set(e, GTS_OPT_MCTS_PARALLEL, mode) != GTS_OK) {
        fprintf(stderr, "stress_mcts: cannot create an engine\n");
        exit(1);
    }
    return e;
}

static uint64_t root_visits(gts_engine *e)
{
    gts_mcts_move_stats st[64];
    st[0].struct_size = sizeof st[0];
    int n = gts_mcts_root_stats(e, st, 64);
    uint64_t sum = 0;
    for (int i = 0; i < n && i < 64; i++)
        sum += st[i].visits;
    return sum;
}

/* Step 1. Proving random trees. */
static void stress_prove(int threads, int rounds)
{
    const gts_game *g = gts_game_randtree();
    gts_engine *mm = new_engine(1, 0);
    for (int mode = GTS_MCTS_TREE; mode <= GTS_MCTS_ROOT; mode++) {
        gts_engine *e = new_engine(threads, mode);
        for (int i = 0; i < 8 * rounds; i++) {
            gts_randtree_params p = {.struct_size = sizeof p, .seed = 0x3c75 + (uint64_t)i,
                                     .branching = 3 + (uint32_t)i % 3,
                                     .depth = 4 + (uint32_t)i % 2,
                                     .min_value = i % 2 ? -2 : -500, .max_value = i % 2 ? 2 : 500,
                                     .transpositions = i % 3 == 0};
            void *s;
            if (gts_randtree_new(&p, &s) != GTS_OK) {
                fail("tree %d", i);
                continue;
            }
            gts_limits l = {.struct_size = sizeof l, .depth = (int32_t)p.depth};
            gts_result ref = {.struct_size = sizeof ref}, r = {.struct_size = sizeof r};
            int rc = gts_minimax(mm, g, s, &l, &ref);
            CHECK(rc == GTS_OK, "reference");
            rc = gts_mcts(e, g, s, &l, &r);
            CHECK(rc == GTS_OK, "mode %d tree %d: %s", mode, i, gts_status_name(rc));
            CHECK(r.score == ref.score, "mode %d tree %d: score %d, minimax %d", mode, i, r.score,
                  ref.score);
            CHECK(r.depth == l.depth, "mode %d tree %d: proven (depth %d)", mode, i, r.depth);
            /* the move is worth the value */
            g->apply(s, r.best_move, NULL);
            gts_limits lc = {.struct_size = sizeof lc, .depth = l.depth - 1};
            gts_result rc2 = {.struct_size = sizeof rc2};
            gts_minimax(mm, g, s, &lc, &rc2);
            g->undo(s, r.best_move, NULL);
            CHECK(-rc2.score == ref.score, "mode %d tree %d: move %llu worth %d, not %d", mode, i,
                  (unsigned long long)r.best_move, -rc2.score, ref.score);
            gts_games_free(g, s);
        }
        gts_engine_free(e);
    }
    gts_engine_free(mm);
}

/* Step 2. Budgets: statistics sum to the playouts, also with a full tree. */
static void stress_budget(int threads, int rounds)
{
    const gts_game *g = gts_game_connect4();
    for (int mode = GTS_MCTS_TREE; mode <= GTS_MCTS_ROOT; mode++)
        for (int i = 0; i < 2 * rounds; i++) {
            gts_engine *e = new_engine(threads, mode);
            int64_t budget = 20000 + 7 * i;
            gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, budget);
            gts_engine_set(e, GTS_OPT_TREE_MB, 1);
            gts_engine_set(e, GTS_OPT_MCTS_VIRTUAL_LOSS, 1 + i % 3);
            gts_engine_set(e, GTS_OPT_MCTS_PRIOR, i % 2 ? 100 : 0);
            void *s;
            if (gts_connect4_new(i % 2 ? "4453" : "", &s) != GTS_OK) {
                fail("connect4");
                gts_engine_free(e);
                continue;
            }
            gts_result r = {.struct_size = sizeof r};
            int rc = gts_mcts(e, g, s, NULL, &r);
            CHECK(rc == GTS_OK, "budget mode %d: %s", mode, gts_status_name(rc));
            CHECK(r.best_move < 7, "budget mode %d: move %llu", mode,
                  (unsigned long long)r.best_move);
            CHECK(r.flags & GTS_RESULT_MEMORY_LIMIT, "budget mode %d: the tree filled (%#x)", mode,
                  r.flags);
            uint64_t v = root_visits(e);
            CHECK(v == (uint64_t)budget, "budget mode %d: %llu visits for %lld playouts", mode,
                  (unsigned long long)v, (long long)budget);
            gts_games_free(g, s);
            gts_engine_free(e);
        }
}

/* Step 3. Stop from another thread. */
typedef struct stopper {
    gts_engine *e;
    int go;
} stopper;

static void *stop_later(void *arg)
{
    stopper *st = arg;
    while (!__atomic_load_n(&st->go, __ATOMIC_ACQUIRE)) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    struct timespec ts = {0, 30 * 1000 * 1000};
    nanosleep(&ts, NULL);
    gts_engine_stop(st->e);
    return NULL;
}

static int started(const gts_result *r, void *user)
{
    (void)r;
    __atomic_store_n(&((stopper *)user)->go, 1, __ATOMIC_RELEASE);
    return 0;
}

static void stress_stop(int threads)
{
    const gts_game *g = gts_game_connect4();
    for (int mode = GTS_MCTS_TREE; mode <= GTS_MCTS_ROOT; mode++) {
        gts_engine *e = new_engine(threads, mode);
        void *s;
        if (gts_connect4_new("", &s) != GTS_OK) {
            fail("connect4");
            continue;
        }
        stopper st = {e, 0};
        pthread_t th;
        if (pthread_create(&th, NULL, stop_later, &st) != 0) {
            fail("pthread_create");
            continue;
        }
        gts_limits l = {.struct_size = sizeof l, .on_iteration = started, .on_iteration_user = &st};
        gts_result r = {.struct_size = sizeof r};
        int rc = gts_mcts(e, g, s, &l, &r);
        __atomic_store_n(&st.go, 1, __ATOMIC_RELEASE);
        pthread_join(th, NULL);
        CHECK(rc == GTS_OK, "stop mode %d: %s", mode, gts_status_name(rc));
        CHECK(r.flags & GTS_RESULT_STOPPED, "stop mode %d: flags %#x", mode, r.flags);
        CHECK(r.best_move < 7, "stop mode %d: a move", mode);
        gts_move moves[7];
        CHECK(g->generate(s, moves, 7, NULL) == 7, "stop mode %d: the empty board is back", mode);
        gts_games_free(g, s);
        gts_engine_free(e);
    }
}

/* Step 4. A callback failing on a worker's copy: a game over randtree
 * whose apply fails at one call (an atomic counter shared by the copies). */
typedef struct failing {
    uint64_t calls, fail_at;
    int clones, frees;
} failing;

static const gts_game *inner(void) { return gts_game_randtree(); }

static int f_generate(void *s, gts_move *m, uint32_t cap, void *u)
{
    (void)u;
    return inner()->generate(s, m, cap, NULL);
}
static int f_apply(void *s, gts_move m, void *u)
{
    failing *f = u;
    if (__atomic_add_fetch(&f->calls, 1, __ATOMIC_RELAXED) == f->fail_at)
        return -77;
    return inner()->apply(s, m, NULL);
}
static int f_undo(void *s, gts_move m, void *u)
{
    (void)u;
    return inner()->undo(s, m, NULL);
}
static gts_score f_evaluate(void *s, void *u)
{
    (void)u;
    return inner()->evaluate(s, NULL);
}
static void *f_clone(void *s, void *u)
{
    __atomic_add_fetch(&((failing *)u)->clones, 1, __ATOMIC_RELAXED);
    return inner()->clone(s, NULL);
}
static void f_free(void *s, void *u)
{
    __atomic_add_fetch(&((failing *)u)->frees, 1, __ATOMIC_RELAXED);
    inner()->free(s, NULL);
}

static void stress_failure(int threads, int rounds)
{
    for (int mode = GTS_MCTS_TREE; mode <= GTS_MCTS_ROOT; mode++) {
        gts_engine *e = new_engine(threads, mode);
        for (int i = 0; i < 6 * rounds; i++) {
            failing f = {0, 500 + 997 * (uint64_t)i, 0, 0};
            gts_game v = {.struct_size = sizeof v, .max_moves = 64, .generate = f_generate,
                          .apply = f_apply, .undo = f_undo, .evaluate = f_evaluate,
                          .clone = f_clone, .free = f_free, .user = &f};
            gts_randtree_params p = {.struct_size = sizeof p, .seed = 99 + (uint64_t)i,
                                     .branching = 6, .depth = 12, .min_value = -100,
                                     .max_value = 100};
            void *s;
            if (gts_randtree_new(&p, &s) != GTS_OK) {
                fail("tree");
                continue;
            }
            gts_move before[64], after[64];
            int nb = inner()->generate(s, before, 64, NULL);
            gts_result r = {.struct_size = sizeof r};
            int rc = gts_mcts(e, &v, s, NULL, &r);
            CHECK(rc == GTS_ECALLBACK, "failure mode %d round %d: %s", mode, i,
                  gts_status_name(rc));
            CHECK(r.callback_status == -77, "failure: callback_status %d", r.callback_status);
            CHECK(f.clones == f.frees, "failure: %d clones, %d frees", f.clones, f.frees);
            int na = inner()->generate(s, after, 64, NULL);
            CHECK(na == nb && memcmp(before, after, (size_t)na * sizeof after[0]) == 0,
                  "failure: the root is back");
            gts_games_free(inner(), s);
        }
        gts_engine_free(e);
    }
}

/* Step 5. RAVE, a playout policy and tree reuse, in parallel. */
static int c4_policy(void *s, uint64_t random, gts_move *m, void *u)
{
    (void)u;
    gts_move moves[7];
    int n = gts_game_connect4()->generate(s, moves, 7, NULL);
    if (n <= 0)
        return n < 0 ? n : 0;
    *m = moves[random % (uint64_t)n];
    return 1;
}

static void stress_rave_reuse(int threads, int rounds)
{
    gts_game v = *gts_game_connect4();
    v.playout_move = c4_policy;
    for (int mode = GTS_MCTS_TREE; mode <= GTS_MCTS_ROOT; mode++)
        for (int i = 0; i < rounds; i++) {
            gts_engine *e = new_engine(threads, mode);
            gts_engine_set(e, GTS_OPT_MCTS_RAVE, 200 + 100 * i);
            gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 8000);
            void *s;
            if (gts_connect4_new("44", &s) != GTS_OK) {
                fail("connect4");
                gts_engine_free(e);
                continue;
            }
            gts_result r = {.struct_size = sizeof r};
            int rc = gts_mcts(e, &v, s, NULL, &r);
            CHECK(rc == GTS_OK, "rave mode %d: %s", mode, gts_status_name(rc));
            gts_mcts_move_stats st[7];
            st[0].struct_size = sizeof st[0];
            int n = gts_mcts_root_stats(e, st, 7);
            uint64_t sum = 0, child = 0;
            for (int k = 0; k < n; k++) {
                sum += st[k].visits;
                CHECK(st[k].amaf_visits >= st[k].visits && st[k].amaf_visits <= 8000,
                      "rave mode %d: move %d, %llu AMAF, %llu visits", mode, k,
                      (unsigned long long)st[k].amaf_visits, (unsigned long long)st[k].visits);
                if (st[k].move == r.best_move)
                    child = st[k].visits;
            }
            CHECK(sum == 8000, "rave mode %d: %llu visits", mode, (unsigned long long)sum);
            uint64_t kept = 0;
            CHECK(gts_mcts_advance(e, &r.best_move, 1, &kept) == 1 && kept == child,
                  "reuse mode %d: kept %llu, the child had %llu", mode,
                  (unsigned long long)kept, (unsigned long long)child);
            v.apply(s, r.best_move, NULL);
            gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 3000);
            rc = gts_mcts(e, &v, s, NULL, &r);
            CHECK(rc == GTS_OK, "reuse mode %d: %s", mode, gts_status_name(rc));
            uint64_t again = root_visits(e);
            CHECK(again >= 3000 && again <= 3000 + kept, "reuse mode %d: %llu visits", mode,
                  (unsigned long long)again);
            gts_games_free(gts_game_connect4(), s);
            gts_engine_free(e);
        }
}

/* Step 6. Trusted playouts: Go declares GTS_TRAIT_TRUSTED_PLAYOUT. */
static void stress_trusted(int threads, int rounds)
{
    const gts_game *g = gts_game_go();
    for (int mode = GTS_MCTS_TREE; mode <= GTS_MCTS_ROOT; mode++)
        for (int i = 0; i < rounds; i++) {
            void *s;
            if (gts_go_new("5 komi=0.5 maxmoves=60 moves=C3", &s) != GTS_OK) {
                fail("go");
                return;
            }
            gts_engine *e = new_engine(threads, mode);
            gts_engine_set(e, GTS_OPT_MCTS_RAVE, 300);
            gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 4000);
            gts_engine_set(e, GTS_OPT_MCTS_SEED, 1 + i);
            uint64_t before = g->hash(s, NULL);
            gts_result r = {.struct_size = sizeof r};
            int rc = gts_mcts(e, g, s, NULL, &r);
            CHECK(rc == GTS_OK, "trusted mode %d: %s", mode, gts_status_name(rc));
            CHECK(root_visits(e) == 4000, "trusted mode %d: %llu visits", mode,
                  (unsigned long long)root_visits(e));
            CHECK(g->hash(s, NULL) == before, "trusted mode %d: the state changed", mode);
            gts_engine_free(e);
            gts_games_free(g, s);
        }
}

/* Step 7. A batch evaluator: a value from connect4h's evaluate() (or 0 on
 * random trees), uniform priors but for the first move; it fails at call
 * fail_at when set. */
typedef struct evalctx {
    const gts_game *g;
    long calls, fail_at;
} evalctx;

static int ev_batch(const gts_eval_batch *b, void *ctx)
{
    evalctx *x = ctx;
    long call = __atomic_add_fetch(&x->calls, 1, __ATOMIC_RELAXED);
    if (x->fail_at && call == x->fail_at)
        return -3;
    for (uint32_t i = 0; i < b->n; i++) {
        if (x->g) {
            gts_score v = x->g->evaluate(b->states[i], NULL);
            b->values[i] = v > 600 ? 1.0f : v < -600 ? -1.0f : (float)v / 600.0f;
        }
        b->priors[b->offsets[i]] *= 2.0f;
    }
    return 0;
}

static void stress_evaluator(int threads, int rounds)
{
    const gts_game *c4 = gts_game_connect4h(), *rt = gts_game_randtree();
    gts_engine *mm = new_engine(1, 0);
    for (int mode = GTS_MCTS_TREE; mode <= GTS_MCTS_ROOT; mode++)
        for (int i = 0; i < 2 * rounds; i++) {
            gts_engine *e = new_engine(threads, mode);
            evalctx x = {.g = c4};
            gts_evaluator ev = {.struct_size = sizeof ev, .evaluate = ev_batch, .ctx = &x};
            gts_engine_set_evaluator(e, &ev);
            gts_engine_set(e, GTS_OPT_MCTS_BATCH, 1 + 7 * (i % 3));
            int64_t budget = 5000 + 3 * i;
            gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, budget);
            void *s;
            if (gts_connect4_new(i % 2 ? "4453" : "", &s) != GTS_OK) {
                fail("connect4");
                gts_engine_free(e);
                continue;
            }
            gts_result r = {.struct_size = sizeof r};
            int rc = gts_mcts(e, c4, s, NULL, &r);
            CHECK(rc == GTS_OK, "evaluator mode %d: %s", mode, gts_status_name(rc));
            uint64_t v = root_visits(e);
            CHECK(v == (uint64_t)budget, "evaluator mode %d: %llu visits for %lld playouts", mode,
                  (unsigned long long)v, (long long)budget);
            /* a failing call on some worker */
            x.calls = 0;
            x.fail_at = 5 + i;
            gts_move moves[7];
            int before = c4->generate(s, moves, 7, NULL);
            rc = gts_mcts(e, c4, s, NULL, &r);
            CHECK(rc == GTS_ECALLBACK && r.callback_status == -3, "evaluator failure mode %d: %s",
                  mode, gts_status_name(rc));
            CHECK(c4->generate(s, moves, 7, NULL) == before, "evaluator failure: state restored");
            gts_games_free(c4, s);
            /* no budget: random trees proven exactly */
            gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 0);
            evalctx y = {0};
            ev.ctx = &y;
            gts_engine_set_evaluator(e, &ev);
            for (int t = 0; t < 4; t++) {
                gts_randtree_params p = {.struct_size = sizeof p, .seed = 0x7e5 + (uint64_t)t + 10u * i,
                                         .branching = 3 + (uint32_t)t % 2, .depth = 5,
                                         .min_value = -2, .max_value = 2};
                if (gts_randtree_new(&p, &s) != GTS_OK) {
                    fail("tree");
                    continue;
                }
                gts_limits l = {.struct_size = sizeof l, .depth = 5};
                gts_result ref = {.struct_size = sizeof ref};
                gts_minimax(mm, rt, s, &l, &ref);
                rc = gts_mcts(e, rt, s, &l, &r);
                CHECK(rc == GTS_OK && r.score == ref.score,
                      "evaluator mode %d tree %d: %s, score %d, minimax %d", mode, t,
                      gts_status_name(rc), r.score, ref.score);
                gts_games_free(rt, s);
            }
            gts_engine_free(e);
        }
    gts_engine_free(mm);
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 4;
    int rounds = argc > 2 ? atoi(argv[2]) : 1;
    if (threads < 1 || threads > 256 || rounds < 1) {
        fprintf(stderr, "usage: stress_mcts [threads 1..256] [rounds >= 1]\n");
        return 2;
    }
    stress_prove(threads, rounds);
    stress_budget(threads, rounds);
    stress_stop(threads);
    stress_failure(threads, rounds);
    stress_rave_reuse(threads, rounds);
    stress_trusted(threads, rounds);
    stress_evaluator(threads, rounds);
    if (failures) {
        fprintf(stderr, "stress_mcts: %u failures\n", failures);
        return 1;
    }
    printf("stress_mcts: %d threads, %d rounds: ok\n", threads, rounds);
    return 0;
}
