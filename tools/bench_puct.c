/*
 * bench_puct.c - the library's overhead per leaf of MCTS with a batch
 * evaluator (PUCT, issue 34; the `puct-overhead` benchmark,
 * doc/results/bestfirst.md). Not installed.
 *
 * One gts_mcts() search of Connect-4 from the empty board with a budget of
 * P playouts, a batch of B leaves and an evaluator that does almost
 * nothing (a value from the state's hash, the priors left uniform). The
 * time inside the evaluator is measured around its body and subtracted
 * from the search's time: what is left, per position evaluated, is the
 * library's overhead per leaf (selection, virtual loss, queueing, the
 * batch's arrays, expansion with the priors, back-up, the undo of the
 * path, and the game's own generate/apply/undo). R rounds, best and
 * median printed: a wall-clock figure, so also per CPU second of the
 * process; `valgrind --tool=callgrind` of this program counts
 * instructions instead (doc/results/bestfirst.md gives the command).
 *
 * Usage: bench_puct [--rounds R] [--playouts P] [--batch B] [--threads T]
 * (defaults 5, 100000, 64, 1).
 */
#include <gts/gts.h>
#include "gts_games.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_ROUNDS = 101 };

typedef struct bench_ev {
    const gts_game *g;
    uint64_t ns, positions, calls; /* inside the evaluator */
} bench_ev;

static uint64_t now_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The evaluator: a value from the hash; its own time is counted apart. */
static int bench_evaluate(const gts_eval_batch *b, void *ctx)
{
    bench_ev *x = ctx;
    uint64_t t0 = now_ns(CLOCK_MONOTONIC);
    for (uint32_t i = 0; i < b->n; i++) {
        uint64_t h = x->g->hash(b->states[i], NULL);
        b->values[i] = (float)((double)(h & 1023) / 1023.0 * 0.2 - 0.1);
    }
    uint64_t t1 = now_ns(CLOCK_MONOTONIC);
    __atomic_add_fetch(&x->ns, t1 - t0, __ATOMIC_RELAXED);
    __atomic_add_fetch(&x->positions, b->n, __ATOMIC_RELAXED);
    __atomic_add_fetch(&x->calls, 1, __ATOMIC_RELAXED);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    long rounds = 5, playouts = 100000, batch = 64, threads = 1;
    for (int i = 1; i < argc; i++) {
        long *opt = !strcmp(argv[i], "--rounds")     ? &rounds
                    : !strcmp(argv[i], "--playouts") ? &playouts
                    : !strcmp(argv[i], "--batch")    ? &batch
                    : !strcmp(argv[i], "--threads")  ? &threads
                                                     : NULL;
        if (!opt || i + 1 >= argc) {
            fprintf(stderr, "usage: bench_puct [--rounds R] [--playouts P] [--batch B] "
                            "[--threads T]\n");
            return 2;
        }
        *opt = atol(argv[++i]);
    }
    if (rounds < 1 || rounds > MAX_ROUNDS || playouts < 1 || batch < 1 || batch > 1024
        || threads < 1 || threads > 64) {
        fprintf(stderr, "bench_puct: an argument is out of range\n");
        return 2;
    }
    const gts_game *g = gts_game_connect4();
    double per_leaf[MAX_ROUNDS], per_leaf_cpu[MAX_ROUNDS];
    uint64_t leaves = 0, calls = 0;
    for (long r = 0; r < rounds; r++) {
        gts_engine *e;
        void *s;
        bench_ev x = {.g = g};
        gts_evaluator ev = {.struct_size = sizeof ev, .evaluate = bench_evaluate, .ctx = &x};
        if (gts_engine_new(&e) != GTS_OK || gts_connect4_new("", &s) != GTS_OK
            || gts_engine_set(e, GTS_OPT_TT_MB, 0) != GTS_OK
            || gts_engine_set(e, GTS_OPT_TREE_MB, 1024) != GTS_OK
            || gts_engine_set(e, GTS_OPT_MCTS_REUSE, 0) != GTS_OK
            || gts_engine_set(e, GTS_OPT_THREADS, threads) != GTS_OK
            || gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, playouts) != GTS_OK
            || gts_engine_set(e, GTS_OPT_MCTS_BATCH, batch) != GTS_OK
            || gts_engine_set_evaluator(e, &ev) != GTS_OK) {
            fprintf(stderr, "bench_puct: set-up failed\n");
            return 1;
        }
        gts_result res = {.struct_size = sizeof res};
        uint64_t cpu0 = now_ns(CLOCK_PROCESS_CPUTIME_ID), t0 = now_ns(CLOCK_MONOTONIC);
        gts_status rc = gts_mcts(e, g, s, NULL, &res);
        uint64_t t1 = now_ns(CLOCK_MONOTONIC), cpu1 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
        if (rc != GTS_OK) {
            fprintf(stderr, "bench_puct: %s\n", gts_strerror(rc));
            return 1;
        }
        if (res.flags & GTS_RESULT_MEMORY_LIMIT)
            fprintf(stderr, "bench_puct: the tree budget was reached\n");
        /* the evaluator's CPU time is its wall time: it never waits */
        per_leaf[r] = (double)(t1 - t0 - x.ns) / (double)x.positions;
        per_leaf_cpu[r] = (double)(cpu1 - cpu0 - x.ns) / (double)x.positions;
        leaves = x.positions;
        calls = x.calls;
        gts_games_free(g, s);
        gts_engine_free(e);
    }
    qsort(per_leaf, (size_t)rounds, sizeof per_leaf[0], cmp_double);
    qsort(per_leaf_cpu, (size_t)rounds, sizeof per_leaf_cpu[0], cmp_double);
    printf("connect4, %ld playouts, batch %ld, %ld thread(s), %ld rounds: %" PRIu64
           " leaves evaluated in %" PRIu64 " calls (%.1f per call)\n",
           playouts, batch, threads, rounds, leaves, calls, (double)leaves / (double)calls);
    printf("library overhead per leaf: best %.0f ns, median %.0f ns (wall); "
           "best %.0f ns, median %.0f ns (process CPU)\n",
           per_leaf[0], per_leaf[rounds / 2], per_leaf_cpu[0], per_leaf_cpu[rounds / 2]);
    return 0;
}
