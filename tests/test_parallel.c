/*
 * The parallel algorithms: exact at every thread count, and well-behaved
 * when stopped, limited or failed.
 *
 *  - every parallel algorithm at 1, 2, 3, 4, 8 and 16 threads on 1,000
 *    random trees (with and without a table, with and without aspiration),
 *    on Connect-4 end-game positions solved to the end and on tic-tac-toe
 *    positions: the score of gts_minimax and a best move of that score;
 *  - bigger trees on which the helpers demonstrably work (thread_nodes);
 *  - Lazy SMP: deeper-looking helpers could change a depth-limited value;
 *    depth-limited searches on a warm table must still be exact;
 *  - stop from another thread: flagged, state restored byte for byte, no
 *    thread left behind after gts_engine_free; promptness measured in
 *    nodes (applies after a stop raised inside a callback), never in
 *    milliseconds, so no test depends on the machine's speed;
 *  - a callback failing on a worker thread's state copy;
 *  - node and time limits with threads.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "fixture.h"

static const gts_algorithm PAR[] = {
    GTS_ALG_ER_PARALLEL, GTS_ALG_JAMBOREE, GTS_ALG_DTS, GTS_ALG_YBWC,
    GTS_ALG_PVSPLIT, GTS_ALG_ABDADA, GTS_ALG_LAZYSMP, GTS_ALG_ROOTSPLIT,
};
#define NPAR (sizeof PAR / sizeof PAR[0])
static const int THREADS[] = {1, 2, 3, 4, 8, 16};
#define NTHREADS (sizeof THREADS / sizeof THREADS[0])

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- the reference: minimax value of the root and of every root move ---- */

#define REF_MAX_MOVES FX_REF_MAX_MOVES
typedef fx_reference reference;

static void make_reference(gts_engine *mm, const gts_game *g, void *s, int depth, reference *ref)
{
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(gts_minimax(mm, g, s, &l, &r), GTS_OK);
    ref->value = r.score;
    ref->n = g->generate(s, ref->moves, REF_MAX_MOVES, g->user);
    cr_assert(ref->n >= 0 && ref->n <= REF_MAX_MOVES);
    for (int i = 0; i < ref->n; i++) {
        gts_move cm[REF_MAX_MOVES];
        int ext = g->extend ? g->extend(s, ref->moves[i], g->user) : 0;
        cr_assert_eq(g->apply(s, ref->moves[i], g->user), 0);
        if (depth - 1 + ext == 0 || g->generate(s, cm, REF_MAX_MOVES, g->user) == 0) {
            ref->move_value[i] = fx_from_child(g->evaluate(s, g->user));
        } else {
            gts_limits lc = {.struct_size = sizeof lc, .depth = depth - 1 + ext};
            cr_assert_eq(gts_minimax(mm, g, s, &lc, &r), GTS_OK);
            ref->move_value[i] = fx_from_child(r.score);
        }
        cr_assert_eq(g->undo(s, ref->moves[i], g->user), 0);
    }
}

/* Search and compare; returns how many threads did work. */
static int check_search(gts_engine *e, gts_algorithm alg, const gts_game *g, void *s, int depth,
                        const reference *ref, const char *what)
{
    uint64_t per[16] = {0};
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    gts_result r = {.struct_size = sizeof r, .thread_nodes = per, .thread_nodes_capacity = 16};
    int rc = gts_search(e, alg, g, s, &l, &r);
    cr_assert_eq(rc, GTS_OK, "%s %s: %s", what, gts_algorithm_name(alg), gts_status_name(rc));
    cr_expect_eq(r.score, ref->value, "%s %s threads=%u: score %d != minimax %d", what,
                 gts_algorithm_name(alg), r.threads, r.score, ref->value);
    fx_expect_best_move(ref, &r, alg, what);
    cr_expect(r.nodes_wasted <= r.nodes_speculative, "%s: wasted <= speculative", what);
    cr_expect(r.nodes_mandatory + r.nodes_speculative <= r.nodes, "%s: classified <= nodes", what);
    int busy = 0;
    uint64_t sum = 1;
    for (uint32_t t = 0; t < r.threads && t < 16; t++) {
        busy += per[t] > 0;
        sum += per[t];
    }
    if (r.threads <= 16)
        cr_expect_eq(sum, r.nodes, "%s: per-thread nodes add up", what);
    return busy;
}

/* ---- random trees ---------------------------------------------------------- */

typedef fx_tree_case tree_case;

/* The case generator of the equivalence suite, on other seeds and depths;
 * every tenth tree is big enough for many split points. */
static tree_case make_case(uint64_t i)
{
    static const uint32_t depth_for[] = {10, 7, 6, 5, 4, 4};
    tree_case c = fx_make_case(0x9a7a0000, depth_for, i);
    if (i % 10 == 9) {
        c.p.branching = 5;
        c.p.depth = 8;
        c.p.branching_jitter = 0;
        c.depth = (int)c.p.depth - (int)(i % 3 == 2);
    }
    return c;
}

/* Trees [first, first + count) for @alg at every thread count, with
 * GTS_OPT_JAMBOREE_SERIAL = @serial and GTS_OPT_SPLIT_PLY = @split_ply. */
static void run_trees_opts(gts_algorithm alg, uint64_t first, uint64_t count, bool tt,
                           int aspiration, int serial, int split_ply)
{
    count = tgame_count(count);
    gts_engine *mm = fx_engine_with(1, 0);
    cr_assert_eq(gts_engine_set(mm, GTS_OPT_ITERATIVE, 0), GTS_OK);
    gts_engine *e[NTHREADS];
    for (size_t t = 0; t < NTHREADS; t++) {
        e[t] = fx_engine_with(THREADS[t], tt ? 2 : 0);
        cr_assert_eq(gts_engine_set(e[t], GTS_OPT_ASPIRATION, aspiration), GTS_OK);
        cr_assert_eq(gts_engine_set(e[t], GTS_OPT_JAMBOREE_SERIAL, serial), GTS_OK);
        cr_assert_eq(gts_engine_set(e[t], GTS_OPT_SPLIT_PLY, split_ply), GTS_OK);
    }
    const gts_game *g = gts_game_randtree();
    int multi = 0, searches = 0;
    for (uint64_t i = first; i < first + count; i++) {
        tree_case c = make_case(i);
        void *s = fx_randtree_new(&c.p);
        reference ref;
        make_reference(mm, g, s, c.depth, &ref);
        char what[96];
        snprintf(what, sizeof what, "tree %llu (b=%u d=%d tt=%d asp=%d split_ply=%d)",
                 (unsigned long long)i, c.p.branching, c.depth, tt, aspiration, split_ply);
        for (size_t t = 0; t < NTHREADS; t++) {
            if (i % 2 == 0)
                gts_engine_clear(e[t]); /* fresh table, or warm from the last tree */
            multi += check_search(e[t], alg, g, s, c.depth, &ref, what) > 1;
            searches++;
        }
        gts_games_free(g, s);
    }
    printf("# %s trees %llu-%llu: %d searches, %d with 2+ busy threads\n", gts_algorithm_name(alg),
           (unsigned long long)first, (unsigned long long)(first + count - 1), searches, multi);
    for (size_t t = 0; t < NTHREADS; t++)
        gts_engine_free(e[t]);
    gts_engine_free(mm);
}

static void run_trees(gts_algorithm alg, uint64_t first, uint64_t count, bool tt, int aspiration)
{
    run_trees_opts(alg, first, count, tt, aspiration, 0, 0);
}

/* GTS_OPT_SPLIT_PLY: work shared only at the root, in the top two plies,
 * or in the top three; every algorithm that shares work by ply stays exact
 * at every thread count (Lazy SMP ignores the option). */
Test(parallel, split_ply_limits_trees)
{
    static const gts_algorithm algs[] = {GTS_ALG_ER_PARALLEL, GTS_ALG_JAMBOREE, GTS_ALG_DTS,
                                         GTS_ALG_YBWC,        GTS_ALG_PVSPLIT,  GTS_ALG_ABDADA,
                                         GTS_ALG_ROOTSPLIT};
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++)
        for (int limit = 1; limit <= 3; limit++)
            run_trees_opts(algs[a], 3000 + 40 * (uint64_t)limit, 40, limit != 2,
                           limit == 2 ? 25 : 0, 0, limit);
}

/* Jamboree with the lecture version's sequential prefix (50%), an odd
 * share and everything serial: exact at every thread count too. */
Test(parallel, jamboree_serial_prefix_trees)
{
    run_trees_opts(GTS_ALG_JAMBOREE, 2000, 100, true, 0, 50, 0);
    run_trees_opts(GTS_ALG_JAMBOREE, 2100, 100, false, 25, 30, 0);
    run_trees_opts(GTS_ALG_JAMBOREE, 2200, 50, true, 0, 100, 0);
}

/* ---- Jamboree as the lecture slides write it, serially ---------------------
 * An independent transcription of the slides' pseudo-code, over a tgame,
 * counting every apply: the eldest child with (alpha, beta); the sequential
 * prefix (moves 1 .. ceil(P% of n) - 1) one by one with the full window,
 * alpha raised as they return; then the parallel loop, which at one
 * processor is: a null-window test at the current alpha, and a full-window
 * re-search (current alpha, beta) when it fails high inside the window.
 * Nodes with fewer than 3 plies to go (the library's smallest split depth)
 * run NegaScout, as the library's serial node does below its split depth;
 * a child at the horizon is evaluated. */
typedef struct jref {
    tgame *g;
    const gts_game *v;
    int pct;
    uint64_t nodes;
} jref;

enum { JREF_MIN_SPLIT = 3 };

static gts_score jref_eval(jref *j)
{
    return j->v->evaluate(j->g, NULL);
}

static gts_score jref_pvs(jref *j, int d, gts_score alpha, gts_score beta)
{
    gts_move mv[64];
    if (d <= 0)
        return jref_eval(j);
    int n = j->v->generate(j->g, mv, 64, NULL);
    if (n == 0)
        return jref_eval(j);
    gts_score best = -GTS_SCORE_INF, a = alpha;
    for (int k = 0; k < n; k++) {
        j->v->apply(j->g, mv[k], NULL);
        j->nodes++;
        gts_score s;
        if (d - 1 <= 0) {
            s = -jref_eval(j);
        } else if (k == 0) {
            s = -jref_pvs(j, d - 1, -beta, -a);
        } else {
            s = -jref_pvs(j, d - 1, -a - 1, -a);
            if (s > a && s < beta)
                s = -jref_pvs(j, d - 1, -beta, -a);
        }
        j->v->undo(j->g, mv[k], NULL);
        if (s > best) {
            best = s;
            if (s > a)
                a = s;
            if (s >= beta)
                break;
        }
    }
    return best;
}

static gts_score jref_jamboree(jref *j, int d, gts_score alpha, gts_score beta);

static gts_score jref_child(jref *j, gts_move m, int d, gts_score alpha, gts_score beta)
{
    j->v->apply(j->g, m, NULL);
    j->nodes++;
    gts_score s = d - 1 >= JREF_MIN_SPLIT ? -jref_jamboree(j, d - 1, -beta, -alpha)
                                          : -jref_pvs(j, d - 1, -beta, -alpha);
    j->v->undo(j->g, m, NULL);
    return s;
}

static gts_score jref_jamboree(jref *j, int d, gts_score alpha, gts_score beta)
{
    gts_move mv[64];
    int n = j->v->generate(j->g, mv, 64, NULL);
    if (n == 0)
        return jref_eval(j);
    gts_score b = jref_child(j, mv[0], d, alpha, beta);
    if (b >= beta)
        return b;
    if (b > alpha)
        alpha = b;
    int end = (n * j->pct + 99) / 100;
    end = end < 1 ? 1 : end > n ? n : end;
    for (int k = 1; k < n; k++) {
        gts_score s;
        if (k < end) { /* the sequential prefix: the full window */
            s = jref_child(j, mv[k], d, alpha, beta);
        } else { /* the parallel loop at one processor */
            s = jref_child(j, mv[k], d, alpha, alpha + 1);
            if (s > alpha && s < beta)
                s = jref_child(j, mv[k], d, alpha, beta);
        }
        if (s > b)
            b = s;
        if (s >= beta)
            return s;
        if (s > alpha)
            alpha = s;
    }
    return b;
}

/* GTS_OPT_JAMBOREE_SERIAL follows the slides: at one thread (no table, no
 * killers, no history: moves in generate() order) the library visits
 * exactly the nodes of the transcription above, for prefixes of 0, 30, 50
 * and 100 %, and returns its value, which is minimax's; at 2..4 threads
 * the value stays minimax's. (The old prefix searched its moves with a
 * null-window test, which at one thread is the parallel loop itself: its
 * node counts differed from the slides' as soon as a prefix move was not
 * the best so far.) */
Test(parallel, jamboree_prefix_visits_the_nodes_of_the_slides)
{
    static const int PCT[] = {0, 30, 50, 100};
    gts_engine *e[4];
    for (int t = 0; t < 4; t++) {
        e[t] = fx_engine_with(1 + t, 0);
        cr_assert_eq(gts_engine_set(e[t], GTS_OPT_KILLERS, 0), GTS_OK);
        cr_assert_eq(gts_engine_set(e[t], GTS_OPT_HISTORY, 0), GTS_OK);
        cr_assert_eq(gts_engine_set(e[t], GTS_OPT_ITERATIVE, 0), GTS_OK);
    }
    int differs = 0;
    for (int i = 0; i < (int)tgame_count(240); i++) {
        tgame g;
        gts_game v = tgame_new(&g, 4400 + (uint64_t)i, 2 + i % 5, 3 + (i / 5) % 5, false);
        int pct = PCT[i % 4];
        jref j = {&g, &v, pct, 0};
        gts_score want = tgame_negamax(&g, &v, g.depth, 0);
        gts_score ref = g.depth >= JREF_MIN_SPLIT ? jref_jamboree(&j, g.depth, -GTS_SCORE_INF,
                                                                  GTS_SCORE_INF)
                                                  : jref_pvs(&j, g.depth, -GTS_SCORE_INF,
                                                             GTS_SCORE_INF);
        cr_assert_eq(ref, want, "tree %d: the transcription %d, minimax %d", i, ref, want);
        for (int t = 0; t < 4; t++) {
            cr_assert_eq(gts_engine_set(e[t], GTS_OPT_JAMBOREE_SERIAL, pct), GTS_OK);
            gts_limits l = {.struct_size = sizeof l, .depth = g.depth};
            gts_result r = {.struct_size = sizeof r};
            cr_assert_eq(gts_jamboree(e[t], &v, &g, &l, &r), GTS_OK);
            cr_assert_eq(r.score, want, "tree %d (b %d d %d P %d), %d threads: %d, minimax %d",
                         i, g.branching, g.depth, pct, 1 + t, r.score, want);
            if (t == 0)
                cr_assert_eq(r.nodes, 1 + j.nodes,
                             "tree %d (b %d d %d P %d): %llu nodes, the slides' %llu", i,
                             g.branching, g.depth, pct, (unsigned long long)r.nodes,
                             (unsigned long long)(1 + j.nodes));
        }
        /* Kuszmaul's loop from the first young brother on, for comparison */
        jref k0 = {&g, &v, 0, 0};
        if (g.depth >= JREF_MIN_SPLIT)
            jref_jamboree(&k0, g.depth, -GTS_SCORE_INF, GTS_SCORE_INF);
        differs += pct > 0 && k0.nodes != j.nodes;
    }
    cr_expect_gt(differs, 10, "the prefix changed the nodes of %d trees only", differs);
    for (int t = 0; t < 4; t++)
        gts_engine_free(e[t]);
}

/* The option does what it says: under virtual processors (deterministic)
 * at 8 threads on a tree big enough for deep split points, limiting the
 * sharing to the root changes each algorithm's schedule (its rounds of
 * the virtual clock), and the value stays minimax's. */
Test(parallel, split_ply_changes_the_schedule)
{
    gts_randtree_params p = {.struct_size = sizeof p, .seed = 77, .branching = 6, .depth = 7,
                             .min_value = -1000, .max_value = 1000, .ordered_percent = 50};
    void *s = fx_randtree_new(&p);
    const gts_game *g = gts_game_randtree();
    gts_engine *mm = fx_engine_with(1, 0);
    cr_assert_eq(gts_engine_set(mm, GTS_OPT_ITERATIVE, 0), GTS_OK);
    reference ref;
    make_reference(mm, g, s, 7, &ref);
    static const gts_algorithm algs[] = {GTS_ALG_ER_PARALLEL, GTS_ALG_JAMBOREE, GTS_ALG_DTS,
                                         GTS_ALG_YBWC, GTS_ALG_ABDADA};
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++) {
        uint64_t rounds[2];
        for (int k = 0; k < 2; k++) {
            gts_engine *e = fx_engine_with(8, 2);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_VIRTUAL, 1), GTS_OK);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_SPLIT_PLY, k), GTS_OK);
            check_search(e, algs[a], g, s, 7, &ref, k ? "split_ply 1" : "split_ply 0");
            uint64_t idle;
            cr_assert_eq(gts_engine_virtual_stats(e, &rounds[k], &idle), GTS_OK);
            gts_engine_free(e);
        }
        cr_expect_neq(rounds[0], rounds[1], "%s: split_ply 1 changes the schedule (%llu rounds)",
                      gts_algorithm_name(algs[a]), (unsigned long long)rounds[0]);
    }
    gts_engine_free(mm);
    gts_games_free(g, s);
}

/* 1,000 trees per algorithm and thread count: half with a table, half
 * without a table and with aspiration windows. */
#define TREE_TESTS(name, alg)                                                        \
    Test(parallel, name##_trees_0000_0499_table) { run_trees(alg, 0, 500, true, 0); } \
    Test(parallel, name##_trees_0500_0999_aspiration) { run_trees(alg, 500, 500, false, 25); }
TREE_TESTS(er_parallel, GTS_ALG_ER_PARALLEL)
TREE_TESTS(jamboree, GTS_ALG_JAMBOREE)
TREE_TESTS(dts, GTS_ALG_DTS)
TREE_TESTS(ybwc, GTS_ALG_YBWC)
TREE_TESTS(pvsplit, GTS_ALG_PVSPLIT)
TREE_TESTS(abdada, GTS_ALG_ABDADA)
TREE_TESTS(lazysmp, GTS_ALG_LAZYSMP)
TREE_TESTS(rootsplit, GTS_ALG_ROOTSPLIT)

/* Trees on which the split points really get helpers: the reference is
 * minimax on the plain random tree; the parallel searches run on the same
 * tree whose evaluate() costs a few microseconds, like a real engine's, so
 * that a search lasts long enough for every worker to wake up and join. */
static const double SLOW_EVALUATE_US = 3.0;

static gts_score slow_evaluate(void *s, void *user)
{
    double until = now_ms() + SLOW_EVALUATE_US / 1000.0;
    while (now_ms() < until)
        ;
    return gts_game_randtree()->evaluate(s, user);
}

Test(parallel, big_trees_exact_and_helpers_work)
{
    static const int threads[] = {2, 4, 8};
    static const int ATTEMPTS = 5;
    gts_engine *mm = fx_engine_with(1, 0);
    cr_assert_eq(gts_engine_set(mm, GTS_OPT_ITERATIVE, 0), GTS_OK);
    const gts_game *g = gts_game_randtree();
    gts_game slow = *g;
    slow.evaluate = slow_evaluate;
    int busy[NPAR][3] = {{0}};
    for (uint64_t i = 0; i < 2; i++) {
        gts_randtree_params p = {.struct_size = sizeof p, .seed = 0xb16 + i, .branching = 5,
                                 .depth = 10, .min_value = -1000, .max_value = 1000,
                                 .transpositions = i == 1, .ordered_percent = i == 0 ? 80 : 0};
        void *s = fx_randtree_new(&p);
        reference ref;
        make_reference(mm, g, s, 10, &ref);
        for (size_t a = 0; a < NPAR; a++)
            for (int t = 0; t < 3; t++) {
                gts_engine *e = fx_engine_with(threads[t], 4);
                char what[64];
                snprintf(what, sizeof what, "big tree %llu", (unsigned long long)i);
                /* A loaded machine may not schedule a helper in time: retry. */
                for (int k = 0; k == 0 || (k < ATTEMPTS && busy[a][t] == 0); k++) {
                    gts_engine_clear(e);
                    if (check_search(e, PAR[a], &slow, s, 10, &ref, what) > 1)
                        busy[a][t]++;
                }
                gts_engine_free(e);
            }
        gts_games_free(g, s);
    }
    for (size_t a = 0; a < NPAR; a++)
        for (int t = 0; t < 3; t++)
            cr_expect(busy[a][t] > 0, "%s at %d threads: some search used more than one thread",
                      gts_algorithm_name(PAR[a]), threads[t]);
    gts_engine_free(mm);
}

/* ---- real games --------------------------------------------------------------- */

/* A Connect-4 position with @empties empty cells reached by a seeded random
 * game that avoids finishing the game; false if none was found. */
static bool connect4_position(int empties, uint64_t seed, void **out)
{
    const gts_game *g = gts_game_connect4();
    void *s;
    cr_assert_eq(gts_connect4_new("", &s), GTS_OK);
    for (int played = 0; 42 - played > empties; played++) {
        gts_move mv[7], cm[7];
        int n = g->generate(s, mv, 7, NULL);
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        int start = n > 0 ? (int)((seed >> 33) % (uint64_t)n) : 0;
        bool ok = false;
        for (int j = 0; j < n && !ok; j++) {
            gts_move m = mv[(start + j) % n];
            cr_assert_eq(g->apply(s, m, NULL), 0);
            if (g->generate(s, cm, 7, NULL) > 0)
                ok = true;
            else
                cr_assert_eq(g->undo(s, m, NULL), 0);
        }
        if (!ok) {
            gts_games_free(g, s);
            return false;
        }
    }
    *out = s;
    return true;
}

Test(parallel, connect4_endgames_solved)
{
    const gts_game *g = gts_game_connect4();
    gts_engine *mm = fx_engine_with(1, 0);
    cr_assert_eq(gts_engine_set(mm, GTS_OPT_ITERATIVE, 0), GTS_OK);
    gts_engine *e[NTHREADS];
    for (size_t t = 0; t < NTHREADS; t++)
        e[t] = fx_engine_with(THREADS[t], 8);
    int positions = 0;
    for (int empties = 8; empties <= 14; empties++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            void *s;
            if (!connect4_position(empties, seed * 977 + (uint64_t)empties, &s))
                continue;
            positions++;
            reference ref;
            make_reference(mm, g, s, empties, &ref);
            char what[64];
            snprintf(what, sizeof what, "connect4 %d empties seed %llu", empties,
                     (unsigned long long)seed);
            for (size_t a = 0; a < NPAR; a++)
                for (size_t t = 0; t < NTHREADS; t++) {
                    gts_engine_clear(e[t]);
                    check_search(e[t], PAR[a], g, s, empties, &ref, what);
                }
            gts_games_free(g, s);
        }
    cr_expect(positions >= 15, "enough Connect-4 positions (%d)", positions);
    for (size_t t = 0; t < NTHREADS; t++)
        gts_engine_free(e[t]);
    gts_engine_free(mm);
}

Test(parallel, tictactoe_positions_solved)
{
    /* The empty board and positions of 1..6 stones, none finished. */
    static const char *pos[] = {"", "5", "1", "15", "59", "123", "519", "5137", "1526",
                                "74159", "2468", "35796", "951"};
    const size_t npos = sizeof pos / sizeof pos[0];
    const gts_game *g = gts_game_tictactoe();
    gts_engine *mm = fx_engine_with(1, 0);
    cr_assert_eq(gts_engine_set(mm, GTS_OPT_ITERATIVE, 0), GTS_OK);
    /* Every position; with GTS_TEST_DIVISOR, positions spread over the
     * list (the empty board first), still every other one without a table. */
    size_t count = (size_t)tgame_count(npos);
    for (size_t k = 0; k < count; k++) {
        size_t p = k * npos / count;
        void *s;
        cr_assert_eq(gts_tictactoe_new(pos[p], &s), GTS_OK, "position %s", pos[p]);
        int depth = 9 - (int)strlen(pos[p]);
        reference ref;
        make_reference(mm, g, s, depth, &ref);
        char what[48];
        snprintf(what, sizeof what, "tic-tac-toe \"%s\"", pos[p]);
        for (size_t a = 0; a < NPAR; a++)
            for (size_t t = 0; t < NTHREADS; t++) {
                gts_engine *e = fx_engine_with(THREADS[t], k % 2 ? 0 : 1);
                check_search(e, PAR[a], g, s, depth, &ref, what);
                gts_engine_free(e);
            }
        gts_games_free(g, s);
    }
    gts_engine_free(mm);
}

/* Quiescence, extensions and decided (mate-like) scores on the test game:
 * three variants, six seeds each (a table on even seeds). With
 * GTS_TEST_DIVISOR the first cases run: every variant, then the next seed. */
Test(parallel, quiescence_extensions_and_decided_scores)
{
    for (uint64_t k = 0; k < tgame_count(18); k++) {
        int variant = (int)(k % 3);
        uint64_t seed = 1 + k / 3;
        tgame g;
        tgame_init(&g, 300 + seed, 4, 7);
        g.noisy = variant == 0;
        g.extend_first = variant == 1;
        g.win_leaves = variant == 2;
        gts_game v = tgame_vtable(&g, seed % 2 == 0);
        gts_engine *mm = fx_engine_with(1, 0);
        cr_assert_eq(gts_engine_set(mm, GTS_OPT_ITERATIVE, 0), GTS_OK);
        reference ref;
        make_reference(mm, &v, &g, 7, &ref);
        gts_engine_free(mm);
        for (size_t a = 0; a < NPAR; a++)
            for (size_t t = 0; t < NTHREADS; t++) {
                tgame copy = g;
                gts_engine *e = fx_engine_with(THREADS[t], 2);
                char what[48];
                snprintf(what, sizeof what, "tgame variant %d seed %llu", variant,
                         (unsigned long long)seed);
                check_search(e, PAR[a], &v, &g, 7, &ref, what);
                cr_expect(memcmp(&copy, &g, sizeof g) == 0, "%s: state restored", what);
                gts_engine_free(e);
            }
    }
}

/* Lazy SMP (and ABDADA) at a fixed depth on a warm table: iterative
 * deepening over trees deeper than the search, where interior evaluations
 * make every depth's value different. A helper that searched deeper would
 * leave deeper bounds the main thread would use. */
Test(parallel, shared_table_algorithms_exact_at_each_depth)
{
    static const gts_algorithm algs[] = {GTS_ALG_LAZYSMP, GTS_ALG_ABDADA};
    const gts_game *g = gts_game_randtree();
    gts_engine *mm = fx_engine_with(1, 0);
    cr_assert_eq(gts_engine_set(mm, GTS_OPT_ITERATIVE, 0), GTS_OK);
    for (uint64_t i = 0; i < 12; i++) {
        gts_randtree_params p = {.struct_size = sizeof p, .seed = 0x1a20 + i, .branching = 5,
                                 .depth = 14, .min_value = -1000, .max_value = 1000,
                                 .transpositions = true, .ordered_percent = i % 2 ? 80 : 0};
        void *s = fx_randtree_new(&p);
        reference ref[8];
        for (int depth = 2; depth <= 7; depth++)
            make_reference(mm, g, s, depth, &ref[depth]);
        for (size_t a = 0; a < 2; a++)
            for (int t = 2; t <= 8; t *= 2) {
                /* One engine, one warm table, depths in increasing order. */
                gts_engine *e = fx_engine_with(t, 4);
                for (int depth = 2; depth <= 7; depth++) {
                    char what[64];
                    snprintf(what, sizeof what, "deep tree %llu at depth %d", (unsigned long long)i,
                             depth);
                    check_search(e, algs[a], g, s, depth, &ref[depth], what);
                }
                gts_engine_free(e);
            }
        gts_games_free(g, s);
    }
    gts_engine_free(mm);
}

/* ---- stop, failures, limits ----------------------------------------------------- */

static int count_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    cr_assert(d != NULL);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (de->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

struct stopper {
    gts_engine *e;
    int delay_ms;
    double stopped_at;
};

static void *stop_later(void *arg)
{
    struct stopper *st = arg;
    usleep((useconds_t)st->delay_ms * 1000);
    st->stopped_at = now_ms();
    gts_engine_stop(st->e);
    return NULL;
}

Test(parallel, stop_is_prompt_restores_state_and_leaves_no_thread)
{
    static const int threads[] = {2, 4, 16};
    double worst = 0;
    for (size_t a = 0; a < NPAR; a++)
        for (int t = 0; t < 3; t++) {
            int before = count_threads();
            tgame g, copy;
            gts_game v = tgame_new(&g, 40 + a, 8, 40, true);
            copy = g;
            gts_engine *e = fx_engine_with(threads[t], 4);
            gts_limits l = {.struct_size = sizeof l, .depth = 40};
            gts_result r = {.struct_size = sizeof r};
            struct stopper st = {e, 60, 0};
            pthread_t th;
            cr_assert_eq(pthread_create(&th, NULL, stop_later, &st), 0);
            cr_assert_eq(gts_search(e, PAR[a], &v, &g, &l, &r), GTS_OK);
            double returned = now_ms();
            pthread_join(th, NULL);
            double latency = returned - st.stopped_at;
            if (latency > worst)
                worst = latency;
            cr_log_info("stop latency %s threads=%d: %.2f ms", gts_algorithm_name(PAR[a]),
                        threads[t], latency);
            printf("# stop latency %-11s threads=%2d: %6.2f ms\n", gts_algorithm_name(PAR[a]),
                   threads[t], latency);
            /* No wall-clock bound here (it would depend on the machine):
             * promptness is pinned in nodes by stop_from_a_callback_is_prompt. */
            cr_expect(r.flags & GTS_RESULT_STOPPED, "%s: stop flagged", gts_algorithm_name(PAR[a]));
            cr_expect(r.flags & GTS_RESULT_HAS_MOVE);
            cr_expect(memcmp(&copy, &g, sizeof g) == 0, "%s threads=%d: state restored",
                      gts_algorithm_name(PAR[a]), threads[t]);
            /* The next search starts unstopped and is exact (on a clear table:
             * deeper entries of the stopped search would decide depth 4). */
            gts_engine_clear(e);
            l.depth = 4;
            cr_assert_eq(gts_search(e, PAR[a], &v, &g, &l, &r), GTS_OK);
            cr_expect(!(r.flags & GTS_RESULT_STOPPED));
            tgame ref = g;
            gts_game rv = tgame_vtable(&ref, false);
            cr_expect_eq(r.score, tgame_negamax(&ref, &rv, 4, 0), "%s after a stop",
                         gts_algorithm_name(PAR[a]));
            gts_engine_free(e);
            cr_expect_eq(count_threads(), before, "%s threads=%d: no thread left running",
                         gts_algorithm_name(PAR[a]), threads[t]);
        }
    printf("# worst stop latency: %.2f ms\n", worst);
}

/*
 * Promptness in nodes, not milliseconds: apply() calls gts_engine_stop()
 * at its STOP_AT-th call (on any thread); every generate() and apply()
 * after that is counted.
 * - generate() is new search work: each thread notices the stop at its
 *   next node, so it can still finish the node it was in (one generate,
 *   and one more in ER's first-child jobs, which generate a child's moves
 *   inside the job), and the driver may finish lengthening the last
 *   iteration's PV (one per ply of depth): 2 per thread + depth.
 * - apply() after the stop mostly puts states back: a helper finishes the
 *   path replay it was in and then, frame by frame, returns to where each
 *   nested help found it (gts__pw_leave re-applies that frame's path, at
 *   most one move per ply). How deep helps nest depends on the schedule:
 *   under a loaded machine ER at 16 threads was seen at 588 applies (37 a
 *   thread), idle at 0 to 19. Bounded here by 2 * GTS_MAX_PLY a thread: a
 *   loop that kept replaying after the stop would pass it, and one that
 *   kept searching would fail the generate bound first.
 */
#define STOP_AT 20000
static gts_engine *g_stop_engine;
static uint64_t g_applies, g_generates;

static int stopping_apply(void *s, gts_move m, void *user)
{
    if (__atomic_add_fetch(&g_applies, 1, __ATOMIC_RELAXED) == STOP_AT)
        gts_engine_stop(g_stop_engine);
    return tgame_apply(s, m, user);
}

static int counting_generate(void *s, gts_move *moves, uint32_t cap, void *user)
{
    if (__atomic_load_n(&g_applies, __ATOMIC_RELAXED) >= STOP_AT)
        __atomic_add_fetch(&g_generates, 1, __ATOMIC_RELAXED);
    return tgame_generate(s, moves, cap, user);
}

Test(parallel, stop_from_a_callback_is_prompt)
{
    static const int threads[] = {1, 2, 4, 16};
    const int depth = 40;
    for (size_t a = 0; a < NPAR; a++)
        for (int t = 0; t < 4; t++) {
            const char *name = gts_algorithm_name(PAR[a]);
            tgame g, copy;
            gts_game v = tgame_new(&g, 70 + a, 8, 40, true);
            copy = g;
            v.apply = stopping_apply;
            v.generate = counting_generate;
            gts_engine *e = fx_engine_with(threads[t], 4);
            g_stop_engine = e;
            __atomic_store_n(&g_applies, 0, __ATOMIC_RELAXED);
            __atomic_store_n(&g_generates, 0, __ATOMIC_RELAXED);
            gts_limits l = {.struct_size = sizeof l, .depth = depth};
            gts_result r = {.struct_size = sizeof r};
            cr_assert_eq(gts_search(e, PAR[a], &v, &g, &l, &r), GTS_OK, "%s threads=%d", name,
                         threads[t]);
            uint64_t applies = __atomic_load_n(&g_applies, __ATOMIC_RELAXED);
            uint64_t generates = __atomic_load_n(&g_generates, __ATOMIC_RELAXED);
            cr_expect_geq(applies, STOP_AT, "%s threads=%d: ended before the stop (%llu applies)",
                          name, threads[t], (unsigned long long)applies);
            uint64_t after = applies >= STOP_AT ? applies - STOP_AT : 0;
            cr_expect(r.flags & GTS_RESULT_STOPPED, "%s threads=%d: stop flagged", name,
                      threads[t]);
            cr_expect_leq(generates, (uint64_t)threads[t] * 2 + depth,
                          "%s threads=%d: %llu generates after the stop", name, threads[t],
                          (unsigned long long)generates);
            cr_expect_leq(after, (uint64_t)threads[t] * 2 * GTS_MAX_PLY,
                          "%s threads=%d: %llu applies after the stop", name, threads[t],
                          (unsigned long long)after);
            cr_expect(memcmp(&copy, &g, sizeof g) == 0, "%s threads=%d: state restored", name,
                      threads[t]);
            gts_engine_free(e);
        }
}

/* A game whose callbacks fail on a clone (a worker thread's copy), never on
 * the caller's state. */
typedef struct clone_fault {
    tgame *root;
    uint32_t calls;       /* atomic */
    uint32_t fail_after;  /* calls on clones before the failure */
    bool evaluate;        /* fail evaluate instead of apply */
} clone_fault;

static clone_fault *g_fault;

static bool fault_now(void *s)
{
    if (s == g_fault->root)
        return false;
    return __atomic_add_fetch(&g_fault->calls, 1, __ATOMIC_RELAXED) == g_fault->fail_after;
}

static int fault_apply(void *s, gts_move m, void *user)
{
    if (!g_fault->evaluate && fault_now(s))
        return -77;
    return tgame_apply(s, m, user);
}

static gts_score fault_evaluate(void *s, void *user)
{
    if (g_fault->evaluate && fault_now(s))
        return GTS_SCORE_INVALID;
    return tgame_evaluate(s, user);
}

Test(parallel, callback_failure_on_a_worker_restores_state)
{
    static const int threads[] = {2, 4};
    for (int kind = 0; kind < 2; kind++)
        for (size_t a = 0; a < NPAR; a++)
            for (int t = 0; t < 2; t++) {
                tgame g, copy;
                tgame_init(&g, 70 + a, 6, 30);
                copy = g;
                clone_fault f = {&g, 0, 500, kind == 1};
                g_fault = &f;
                gts_game v = tgame_vtable(&g, true);
                v.apply = fault_apply;
                v.evaluate = fault_evaluate;
                gts_engine *e = fx_engine_with(threads[t], 4);
                gts_limits l = {.struct_size = sizeof l, .depth = 30, .time_ms = 20000};
                gts_result r = {.struct_size = sizeof r};
                int rc = gts_search(e, PAR[a], &v, &g, &l, &r);
                cr_expect_eq(rc, GTS_ECALLBACK, "%s threads=%d (%s): got %s",
                             gts_algorithm_name(PAR[a]), threads[t], kind ? "evaluate" : "apply",
                             gts_status_name(rc));
                cr_expect_eq(r.callback_status, kind ? -1 : -77, "the callback's own code");
                cr_expect(memcmp(&copy, &g, sizeof g) == 0, "%s threads=%d: state restored",
                          gts_algorithm_name(PAR[a]), threads[t]);
                /* The engine is usable afterwards. */
                g_fault = &(clone_fault){&g, 0, 0, false};
                l.depth = 3;
                l.time_ms = 0;
                cr_expect_eq(gts_search(e, PAR[a], &v, &g, &l, &r), GTS_OK);
                gts_engine_free(e);
            }
}

Test(parallel, node_limit_with_threads)
{
    for (size_t a = 0; a < NPAR; a++)
        for (int t = 2; t <= 8; t *= 2) {
            tgame g, copy;
            gts_game v = tgame_new(&g, 12, 6, 14, true);
            copy = g;
            gts_engine *e = fx_engine_with(t, 4);
            gts_result r = fx_search(e, PAR[a], &v, &g, 14, 40000);
            cr_expect(r.flags & GTS_RESULT_NODE_LIMIT, "%s threads=%d: node limit flagged",
                      gts_algorithm_name(PAR[a]), t);
            /* Each thread may overshoot by one poll interval (budget / 16). */
            cr_expect(r.nodes < 40000 + (uint64_t)t * 2 * 2500 + 2000,
                      "%s threads=%d: stopped near the budget, %llu nodes",
                      gts_algorithm_name(PAR[a]), t, (unsigned long long)r.nodes);
            cr_expect(r.depth < 14 && (r.flags & GTS_RESULT_HAS_MOVE));
            cr_expect(memcmp(&copy, &g, sizeof g) == 0, "node-limited state restored");
            if (r.depth > 0) {
                cr_expect_eq(r.score, fx_tgame_value(12, 6, 14, r.depth),
                             "%s: score of the last completed depth %d", gts_algorithm_name(PAR[a]),
                             r.depth);
            }
            gts_engine_free(e);
        }
}

Test(parallel, time_limit_with_threads)
{
    for (size_t a = 0; a < NPAR; a++) {
        tgame g, copy;
        gts_game v = tgame_new(&g, 13, 8, 30, true);
        copy = g;
        gts_engine *e = fx_engine_with(4, 4);
        gts_limits l = {.struct_size = sizeof l, .depth = 30, .time_ms = 50};
        gts_result r = {.struct_size = sizeof r};
        double t0 = now_ms();
        cr_assert_eq(gts_search(e, PAR[a], &v, &g, &l, &r), GTS_OK);
        double took = now_ms() - t0;
        cr_expect(r.flags & GTS_RESULT_TIME_LIMIT, "%s: time limit flagged",
                  gts_algorithm_name(PAR[a]));
        printf("# time limit 50 ms %-11s: returned after %.1f ms\n", gts_algorithm_name(PAR[a]),
               took);
        cr_expect(r.depth < 30);
        cr_expect(memcmp(&copy, &g, sizeof g) == 0, "time-limited state restored");
        gts_engine_free(e);
    }
}

/* Statistics of a parallel search are consistent. */
Test(parallel, statistics_add_up)
{
    gts_randtree_params p = {.struct_size = sizeof p, .seed = 99, .branching = 6, .depth = 8,
                             .min_value = -1000, .max_value = 1000, .ordered_percent = 80};
    const gts_game *g = gts_game_randtree();
    void *s = fx_randtree_new(&p);
    for (size_t a = 0; a < NPAR; a++) {
        gts_engine *e = fx_engine_with(3, 4);
        uint64_t per[3] = {0};
        gts_limits l = {.struct_size = sizeof l, .depth = 8};
        gts_result r = {.struct_size = sizeof r, .thread_nodes = per, .thread_nodes_capacity = 3};
        cr_assert_eq(gts_search(e, PAR[a], g, s, &l, &r), GTS_OK);
        cr_expect_eq(r.threads, 3u);
        cr_expect_eq(per[0] + per[1] + per[2] + 1, r.nodes, "%s: per-thread nodes",
                     gts_algorithm_name(PAR[a]));
        cr_expect_eq(r.nodes_mandatory + r.nodes_speculative + 1, r.nodes,
                     "%s: every node is mandatory or speculative", gts_algorithm_name(PAR[a]));
        cr_expect(r.nodes_wasted <= r.nodes_speculative);
        cr_expect(r.nodes_mandatory > 0, "%s: some mandatory work", gts_algorithm_name(PAR[a]));
        gts_engine_free(e);
        /* One thread: no speculation at all. */
        e = fx_engine_with(1, 4);
        cr_assert_eq(gts_search(e, PAR[a], g, s, &l, &r), GTS_OK);
        cr_expect_eq(r.nodes_speculative, 0u, "%s alone speculates nothing",
                     gts_algorithm_name(PAR[a]));
        cr_expect_eq(r.nodes_mandatory + 1, r.nodes);
        gts_engine_free(e);
    }
    gts_games_free(g, s);
}

/* A game without clone/free cannot run on several threads. */
Test(parallel, needs_clone_for_threads)
{
    tgame g;
    gts_game v = tgame_new(&g, 5, 3, 4, true);
    v.clone = NULL;
    gts_engine *e = fx_engine_with(2, 1);
    gts_result r = {.struct_size = sizeof r};
    for (size_t a = 0; a < NPAR; a++)
        cr_expect_eq(gts_search(e, PAR[a], &v, &g, NULL, &r), GTS_ENOTSUP);
    gts_engine_free(e);
    e = fx_engine_with(1, 1);
    gts_limits l = {.struct_size = sizeof l, .depth = 4};
    for (size_t a = 0; a < NPAR; a++)
        cr_expect_eq(gts_search(e, PAR[a], &v, &g, &l, &r), GTS_OK, "one thread needs no clone");
    gts_engine_free(e);
}
