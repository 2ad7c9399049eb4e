/*
 * stress_search.c - the parallel search algorithms under load, as a plain
 * program so that it runs under ThreadSanitizer (Criterion cannot).
 *
 *   stress_search [threads] [rounds] [algorithm]
 *                          threads defaults to 4 (1..256), rounds (scales
 *                          the work) to 1; an algorithm name (as
 *                          gts_algorithm_name()) runs that one only
 *
 * Exits 0 when every check passed, 1 with a message on stderr otherwise.
 *
 *   1. every parallel algorithm on random trees (small ones, and trees big
 *      enough for many split points), at the given thread count, against
 *      gts_minimax: same score, and a best move of that score;
 *   2. Connect-4 end games solved to the end, against gts_minimax;
 *   3. stop from another thread in the middle of a parallel search: the
 *      search returns, flags the stop, and the state is unchanged;
 *   4. node limits with threads;
 *   5. a callback failing on a worker thread's state copy;
 *   6. virtual processors (GTS_OPT_VIRTUAL) switched on and off between
 *      searches of one engine: exact, and the same clock after each switch;
 *   7. selective search (null move, reductions, pruning, repetition draws
 *      with the game's history) at the split nodes: chess with the
 *      engine's repetition rule, and random trees with passes; a legal
 *      move, and the state unchanged.
 * Everything the helper threads share with each other goes through the
 * library's synchronisation, so under TSan every happens-before edge the
 * algorithms rely on is checked.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gts/gts.h>
#include "gts_games.h"

#define STRESS_NAME "stress_search"
#include "stress.h"

static gts_algorithm PAR[] = {
    GTS_ALG_ER_PARALLEL, GTS_ALG_JAMBOREE, GTS_ALG_DTS, GTS_ALG_YBWC,
    GTS_ALG_PVSPLIT, GTS_ALG_ABDADA, GTS_ALG_LAZYSMP, GTS_ALG_ROOTSPLIT,
};
static int npar = (int)(sizeof PAR / sizeof PAR[0]); /* 1 with an algorithm argument */
#define NPAR npar

static unsigned searches, parallel_searches; /* searches, and those >1 thread worked in */
static unsigned selective_searches;          /* step 7's */

static gts_engine *new_engine(int threads, int tt_mb)
{
    gts_engine *e = NULL;
    if (gts_engine_new(&e) != GTS_OK || gts_engine_set(e, GTS_OPT_THREADS, threads) != GTS_OK
        || gts_engine_set(e, GTS_OPT_TT_MB, tt_mb) != GTS_OK) {
        fprintf(stderr, "stress_search: cannot create an engine\n");
        exit(1);
    }
    return e;
}

/* Minimax value of @s, and of every root move (from the root's side). */
typedef struct reference {
    gts_score value;
    int n;
    gts_move moves[64];
    gts_score move_value[64];
} reference;

static gts_score minimax(gts_engine *mm, const gts_game *g, void *s, int depth)
{
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    gts_result r = {.struct_size = sizeof r};
    if (gts_minimax(mm, g, s, &l, &r) != GTS_OK)
        fail("reference search failed");
    return r.score;
}

static void make_reference(gts_engine *mm, const gts_game *g, void *s, int depth, reference *ref)
{
    ref->value = minimax(mm, g, s, depth);
    ref->n = g->generate(s, ref->moves, 64, g->user);
    for (int i = 0; i < ref->n; i++) {
        gts_move cm[64];
        g->apply(s, ref->moves[i], g->user);
        if (depth == 1 || g->generate(s, cm, 64, g->user) == 0)
            ref->move_value[i] = -g->evaluate(s, g->user);
        else
            ref->move_value[i] = -minimax(mm, g, s, depth - 1);
        g->undo(s, ref->moves[i], g->user);
    }
}

static void check(gts_engine *e, gts_algorithm alg, const gts_game *g, void *s, int depth,
                  const reference *ref, const char *what)
{
    uint64_t per[256] = {0};
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    gts_result r = {.struct_size = sizeof r, .thread_nodes = per, .thread_nodes_capacity = 256};
    int rc = gts_search(e, alg, g, s, &l, &r);
    CHECK(rc == GTS_OK, "%s %s: %s", what, gts_algorithm_name(alg), gts_status_name(rc));
    int busy = 0;
    for (uint32_t t = 0; t < r.threads && t < 256; t++)
        busy += per[t] > 0;
    searches++;
    parallel_searches += busy > 1;
    CHECK(r.score == ref->value, "%s %s: score %d, minimax %d", what, gts_algorithm_name(alg),
          r.score, ref->value);
    if (ref->n > 0) {
        int i = 0;
        while (i < ref->n && ref->moves[i] != r.best_move)
            i++;
        CHECK(i < ref->n && ref->move_value[i] == ref->value,
              "%s %s: best move %llu is not worth %d", what, gts_algorithm_name(alg),
              (unsigned long long)r.best_move, ref->value);
    }
}

/* Step 1. Random trees. */
static void stress_trees(int threads, int rounds)
{
    static const uint32_t branching[] = {2, 3, 4, 5, 7, 9};
    static const uint32_t depth_for[] = {10, 7, 6, 5, 4, 4};
    gts_engine *mm = new_engine(1, 0);
    gts_engine_set(mm, GTS_OPT_ITERATIVE, 0);
    gts_engine *e = new_engine(threads, 2);
    const gts_game *g = gts_game_randtree();
    int count = 40 * rounds;
    for (int i = 0; i < count; i++) {
        int b = i % 6;
        bool big = i % 3 == 2; /* many split points */
        gts_randtree_params p = {.struct_size = sizeof p, .seed = 0x57e55 + (uint64_t)i,
                                 .branching = big ? 5 : branching[b],
                                 .depth = big ? 8 : depth_for[b] + (uint32_t)(i / 6 % 2),
                                 .min_value = i % 5 == 0 ? -3 : -1000,
                                 .max_value = i % 5 == 0 ? 3 : 1000,
                                 .terminal_percent = i % 4 == 0 ? 10 : 0,
                                 .transpositions = i % 2 == 1,
                                 .ordered_percent = i % 3 == 0 ? 0 : 80};
        void *s;
        if (gts_randtree_new(&p, &s) != GTS_OK) {
            fail("tree %d", i);
            continue;
        }
        int depth = (int)p.depth;
        reference ref;
        make_reference(mm, g, s, depth, &ref);
        char what[64];
        snprintf(what, sizeof what, "tree %d (b=%u d=%d)", i, p.branching, depth);
        for (int a = 0; a < NPAR; a++) {
            if (i % 2 == 0)
                gts_engine_clear(e);
            check(e, PAR[a], g, s, depth, &ref, what);
        }
        gts_games_free(g, s);
    }
    gts_engine_free(e);
    gts_engine_free(mm);
}

/* Step 2. Connect-4 end games (a fixed set of positions with 10-13 empty
 * cells, reached by play, not finished). */
static void stress_connect4(int threads)
{
    static const char *pos[] = {
        "333513221633542114165524624254", "736555425576343733132222527177",
        "33351322163354211416552462425", "27753244367472364321663624234",
    };
    const gts_game *g = gts_game_connect4();
    gts_engine *mm = new_engine(1, 0);
    gts_engine_set(mm, GTS_OPT_ITERATIVE, 0);
    gts_engine *e = new_engine(threads, 4);
    for (size_t p = 0; p < sizeof pos / sizeof pos[0]; p++) {
        void *s;
        if (gts_connect4_new(pos[p], &s) != GTS_OK) {
            fail("connect4 position %s", pos[p]);
            continue;
        }
        int depth = 42 - (int)strlen(pos[p]);
        reference ref;
        make_reference(mm, g, s, depth, &ref);
        for (int a = 0; a < NPAR; a++) {
            gts_engine_clear(e);
            check(e, PAR[a], g, s, depth, &ref, pos[p]);
        }
        gts_games_free(g, s);
    }
    gts_engine_free(e);
    gts_engine_free(mm);
}

/* Step 3. Stop from another thread. */
struct stopper {
    gts_engine *e;
    double delay;
};

static void *stop_later(void *arg)
{
    struct stopper *st = arg;
    usleep((useconds_t)(st->delay * 1e6));
    gts_engine_stop(st->e);
    return NULL;
}

/* The randtree state is opaque: compare its position by its hash and moves. */
static bool same_position(const gts_game *g, void *a, void *b)
{
    gts_move ma[64], mb[64];
    int na = g->generate(a, ma, 64, g->user), nb = g->generate(b, mb, 64, g->user);
    return g->hash(a, g->user) == g->hash(b, g->user) && na == nb
           && memcmp(ma, mb, (size_t)na * sizeof ma[0]) == 0;
}

/* Two copies of the randtree (@seed, @branching, @depth, values +-1000):
 * one to search, one to compare with; false after a fail() without them. */
static bool two_trees(uint64_t seed, uint32_t branching, uint32_t depth, void **s, void **copy,
                      const char *what)
{
    gts_randtree_params p = {.struct_size = sizeof p, .seed = seed, .branching = branching,
                             .depth = depth, .min_value = -1000, .max_value = 1000};
    if (gts_randtree_new(&p, s) != GTS_OK || gts_randtree_new(&p, copy) != GTS_OK) {
        fail("%s", what);
        return false;
    }
    return true;
}

static double g_stop_worst; /* slowest search with a stop, seconds */

static void stress_stop(int threads)
{
    const gts_game *g = gts_game_randtree();
    for (int a = 0; a < NPAR; a++) {
        void *s, *copy;
        if (!two_trees(0x5709 + (uint64_t)a, 8, 40, &s, &copy, "stop tree"))
            return;
        gts_engine *e = new_engine(threads, 4);
        gts_limits l = {.struct_size = sizeof l, .depth = 40};
        gts_result r = {.struct_size = sizeof r};
        struct stopper st = {e, 0.2};
        pthread_t th;
        pthread_create(&th, NULL, stop_later, &st);
        double t0 = now();
        int rc = gts_search(e, PAR[a], g, s, &l, &r);
        pthread_join(th, NULL);
        CHECK(rc == GTS_OK, "stop %s: %s", gts_algorithm_name(PAR[a]), gts_status_name(rc));
        CHECK(r.flags & GTS_RESULT_STOPPED, "stop %s: not flagged", gts_algorithm_name(PAR[a]));
        /* No time bound (a test must not depend on the machine's speed):
         * a stop that is not honoured never ends this depth-40 search, and
         * the harness's timeout reports that. The latency is shown. */
        double took = now() - t0;
        if (took > g_stop_worst)
            g_stop_worst = took;
        CHECK(same_position(g, s, copy), "stop %s: state changed", gts_algorithm_name(PAR[a]));
        gts_engine_free(e);
        gts_games_free(g, s);
        gts_games_free(g, copy);
    }
}

/* Step 4. Node limits. */
static void stress_limits(int threads)
{
    const gts_game *g = gts_game_randtree();
    gts_randtree_params p = {.struct_size = sizeof p, .seed = 0x11317, .branching = 6,
                             .depth = 30, .min_value = -1000, .max_value = 1000};
    void *s;
    if (gts_randtree_new(&p, &s) != GTS_OK) {
        fail("limit tree");
        return;
    }
    for (int a = 0; a < NPAR; a++) {
        gts_engine *e = new_engine(threads, 4);
        gts_limits l = {.struct_size = sizeof l, .depth = 30, .nodes = 30000};
        gts_result r = {.struct_size = sizeof r};
        int rc = gts_search(e, PAR[a], g, s, &l, &r);
        CHECK(rc == GTS_OK && (r.flags & GTS_RESULT_NODE_LIMIT), "node limit %s",
              gts_algorithm_name(PAR[a]));
        CHECK(r.nodes < 30000 + (uint64_t)threads * 2048 + 2048, "node limit %s: %llu nodes",
              gts_algorithm_name(PAR[a]), (unsigned long long)r.nodes);
        gts_engine_free(e);
    }
    gts_games_free(g, s);
}

/* Step 5. A callback failing on a clone (a worker's copy). */
static void *g_root;
static uint32_t g_calls;
static int g_failures_fired; /* searches in which the helper's failure fired */

static int failing_apply(void *s, gts_move m, void *user)
{
    if (s != g_root && __atomic_add_fetch(&g_calls, 1, __ATOMIC_RELAXED) == 3000)
        return -99;
    return gts_game_randtree()->apply(s, m, user);
}

static void stress_failure(int threads)
{
    if (threads < 2)
        return;
    gts_game g = *gts_game_randtree();
    g.apply = failing_apply;
    for (int a = 0; a < NPAR; a++) {
        void *s, *copy;
        if (!two_trees(0xfa11 + (uint64_t)a, 6, 30, &s, &copy, "failure tree"))
            return;
        g_root = s;
        __atomic_store_n(&g_calls, 0, __ATOMIC_RELAXED);
        gts_engine *e = new_engine(threads, 4);
        /* A node budget, not a time limit: the run is the same on a slow
         * machine. Whether a helper thread gets to the 3000th apply on its
         * copy depends on scheduling (under valgrind helpers may never run);
         * when it does, the search must fail with the callback's code. */
        gts_limits l = {.struct_size = sizeof l, .depth = 30, .nodes = 4000000};
        gts_result r = {.struct_size = sizeof r};
        int rc = gts_search(e, PAR[a], &g, s, &l, &r);
        if (__atomic_load_n(&g_calls, __ATOMIC_RELAXED) >= 3000) {
            g_failures_fired++;
            CHECK(rc == GTS_ECALLBACK && r.callback_status == -99, "failure %s: %s (%d)",
                  gts_algorithm_name(PAR[a]), gts_status_name(rc), r.callback_status);
        } else {
            CHECK(rc == GTS_OK && (r.flags & GTS_RESULT_NODE_LIMIT),
                  "failure %s: no failure fired, yet %s (flags %#x)", gts_algorithm_name(PAR[a]),
                  gts_status_name(rc), r.flags);
        }
        CHECK(same_position(&g, s, copy), "failure %s: state changed", gts_algorithm_name(PAR[a]));
        gts_engine_free(e);
        gts_games_free(&g, s);
        gts_games_free(&g, copy);
    }
}

/* Step 6. Virtual processors switched on and off on one engine: the
 * ordinary idling of the pool between virtual searches must not leak into
 * them (the switch is a handshake with every worker). */
static void stress_virtual(int threads)
{
    if (threads < 2)
        return;
    gts_engine *mm = new_engine(1, 0);
    gts_engine_set(mm, GTS_OPT_ITERATIVE, 0);
    gts_engine *e = new_engine(threads, 2);
    const gts_game *g = gts_game_randtree();
    for (int i = 0; i < 3; i++) {
        gts_randtree_params p = {.struct_size = sizeof p, .seed = 0x7195 + (uint64_t)i,
                                 .branching = 4, .depth = 5, .min_value = -1000,
                                 .max_value = 1000, .transpositions = i % 2 == 1,
                                 .ordered_percent = 80};
        void *s;
        if (gts_randtree_new(&p, &s) != GTS_OK) {
            fail("virtual tree %d", i);
            continue;
        }
        reference ref;
        make_reference(mm, g, s, 5, &ref);
        for (int a = 0; a < NPAR; a++) {
            uint64_t rounds[2] = {0, 0}, idle;
            for (int k = 0; k < 3; k++) {
                bool virt = k != 1;
                gts_engine_clear(e);
                gts_engine_set(e, GTS_OPT_VIRTUAL, virt);
                check(e, PAR[a], g, s, 5, &ref, virt ? "virtual" : "after virtual");
                if (virt)
                    gts_engine_virtual_stats(e, &rounds[k / 2], &idle);
            }
            CHECK(rounds[0] == rounds[1], "virtual %s: %llu rounds, then %llu",
                  gts_algorithm_name(PAR[a]), (unsigned long long)rounds[0],
                  (unsigned long long)rounds[1]);
        }
        gts_games_free(g, s);
    }
    gts_engine_free(e);
    gts_engine_free(mm);
}

/* Step 7. Selective search at the split nodes. */
static const int64_t SELECT_ON[] = {GTS_OPT_NULL_MOVE, 2, GTS_OPT_LMR, 100, GTS_OPT_FUTILITY, 60,
                                    GTS_OPT_RAZOR, 150, GTS_OPT_LMP, 2, GTS_OPT_CONTEMPT, 10, 0};

static bool legal_move(const gts_game *g, void *s, gts_move m)
{
    gts_move moves[256];
    int n = g->generate(s, moves, 256, g->user);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}

static void select_search(gts_engine *e, gts_algorithm alg, const gts_game *g, void *s, int depth,
                          const uint64_t *hist, uint32_t nhist, const char *what)
{
    uint64_t key = g->hash(s, g->user);
    gts_limits l = {.struct_size = sizeof l, .depth = depth, .history = hist,
                    .history_len = nhist};
    gts_result r = {.struct_size = sizeof r};
    int rc = gts_search(e, alg, g, s, &l, &r);
    selective_searches++;
    CHECK(rc == GTS_OK, "%s %s: %s", what, gts_algorithm_name(alg), gts_status_name(rc));
    CHECK((r.flags & GTS_RESULT_HAS_MOVE) && legal_move(g, s, r.best_move), "%s %s: no legal move",
          what, gts_algorithm_name(alg));
    CHECK(g->hash(s, g->user) == key, "%s %s: state changed", what, gts_algorithm_name(alg));
}

static void stress_select(int threads)
{
    /* Chess: the knights went out and back (the root repeats the start,
     * which the history holds), then an open middlegame. */
    static const char *const line[] = {"startpos", "startpos moves g1f3", "startpos moves g1f3 g8f6",
                                       "startpos moves g1f3 g8f6 f3g1"};
    static const char *const roots[] = {
        "startpos moves g1f3 g8f6 f3g1 f6g8",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    };
    const gts_game *g = gts_game_chess_engine();
    uint64_t hist[4];
    for (int i = 0; i < 4; i++) {
        void *s;
        if (gts_chess_new(line[i], &s) != GTS_OK) {
            fail("chess history %d", i);
            return;
        }
        hist[i] = g->hash(s, g->user);
        gts_games_free(g, s);
    }
    gts_engine *e = new_engine(threads, 4);
    for (const int64_t *o = SELECT_ON; o[0]; o += 2)
        gts_engine_set(e, (gts_option)o[0], o[1]);
    for (size_t p = 0; p < sizeof roots / sizeof roots[0]; p++) {
        void *s;
        if (gts_chess_new(roots[p], &s) != GTS_OK) {
            fail("chess position %zu", p);
            continue;
        }
        for (int a = 0; a < NPAR; a++) {
            gts_engine_clear(e);
            select_search(e, PAR[a], g, s, 5, p == 0 ? hist : NULL, p == 0 ? 4 : 0, roots[p]);
        }
        gts_games_free(g, s);
    }
    /* Random trees with passes: many split points. */
    const gts_game *rt = gts_game_randtree();
    for (int i = 0; i < 4; i++) {
        gts_randtree_params p = {.struct_size = sizeof p, .seed = 0x5e1ec7 + (uint64_t)i,
                                 .branching = 6, .depth = 30, .min_value = -1000,
                                 .max_value = 1000, .transpositions = i % 2 == 1,
                                 .ordered_percent = 60};
        void *s;
        if (gts_randtree_new(&p, &s) != GTS_OK) {
            fail("select tree %d", i);
            continue;
        }
        for (int a = 0; a < NPAR; a++)
            select_search(e, PAR[a], rt, s, 8, NULL, 0, "select tree");
        gts_games_free(rt, s);
    }
    gts_engine_free(e);
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 4;
    int rounds = argc > 2 ? atoi(argv[2]) : 1;
    gts_algorithm only;
    if (threads < 1 || threads > 256 || rounds < 1
        || (argc > 3 && gts_algorithm_from_name(argv[3], &only) != GTS_OK)) {
        fprintf(stderr, "usage: stress_search [threads 1..256] [rounds] [algorithm]\n");
        return 2;
    }
    if (argc > 3) {
        PAR[0] = only;
        npar = 1;
    }
    double t0 = now();
    stress_trees(threads, rounds);
    stress_connect4(threads);
    stress_stop(threads);
    stress_limits(threads);
    stress_failure(threads);
    stress_virtual(threads);
    stress_select(threads);
    printf("stress_search: %d threads, %u exact searches (%u with 2+ busy threads), "
           "%u selective, slowest stop %.2f s, helper failure fired in %d of %d searches, "
           "%s in %.1f s\n",
           threads, searches, parallel_searches, selective_searches, g_stop_worst,
           g_failures_fired,
           threads > 1 ? NPAR : 0, failures ? "FAILED" : "all checks passed", now() - t0);
    return failures ? 1 : 0;
}
