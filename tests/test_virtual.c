/*
 * Virtual processors (GTS_OPT_VIRTUAL, issue 13): the pool's workers take
 * turns with a baton, one node per turn, and the search reports rounds of
 * turns (gts_engine_virtual_stats).
 *
 *  - every parallel algorithm at 2, 3, 8 and 16 virtual processors equals
 *    plain minimax on random trees (with and without transpositions);
 *  - the clock is consistent: every node is one turn, so nodes <= rounds x
 *    threads, and idle turns <= rounds x threads; no clock without the
 *    option, with one thread, or for a serial algorithm;
 *  - a virtual run is a pure function of its input: every parallel
 *    algorithm (Jamboree with and without its serial prefix) at 2, 3, 8
 *    and 16 virtual processors, on a random tree and on a Connect-4
 *    position, gives the very same rounds, idle turns, nodes, score and
 *    best move three times;
 *  - MCTS (tree and root parallelisation) runs on virtual processors too,
 *    deterministically, and on real threads once the option is off again;
 *  - bad arguments.
 */
#include <criterion/criterion.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "tgame.h"

#include <string.h>

static const gts_algorithm PAR[] = {
    GTS_ALG_ER_PARALLEL, GTS_ALG_JAMBOREE, GTS_ALG_DTS, GTS_ALG_YBWC,
    GTS_ALG_PVSPLIT, GTS_ALG_ABDADA, GTS_ALG_LAZYSMP, GTS_ALG_ROOTSPLIT,
};
#define NPAR (sizeof PAR / sizeof PAR[0])

static void *tree_new(uint64_t seed, bool transpositions, uint32_t depth)
{
    gts_randtree_params p = { .struct_size = sizeof p, .seed = seed, .branching = 4,
                              .depth = depth, .min_value = -50, .max_value = 50,
                              .branching_jitter = 2, .transpositions = transpositions,
                              .ordered_percent = 50 };
    void *t = NULL;
    cr_assert_eq(gts_randtree_new(&p, &t), GTS_OK);
    return t;
}

typedef struct vrun {
    gts_status status;
    gts_score score;
    gts_move best;
    uint64_t nodes, rounds, idle, sync;
} vrun;

/* A search on a fresh engine; @jamboree_serial is GTS_OPT_JAMBOREE_SERIAL. */
static vrun run_game(gts_algorithm alg, int threads, bool virt, const gts_game *game,
                     void *state, int depth, int jamboree_serial)
{
    gts_engine *e = NULL;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, threads), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_VIRTUAL, virt ? 1 : 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_JAMBOREE_SERIAL, jamboree_serial), GTS_OK);
    gts_limits l = { .struct_size = sizeof l, .depth = depth };
    gts_result r = { .struct_size = sizeof r };
    vrun v = { .status = gts_search(e, alg, game, state, &l, &r) };
    v.score = r.score;
    v.best = r.best_move;
    v.nodes = r.nodes;
    cr_assert_eq(gts_engine_virtual_stats(e, &v.rounds, &v.idle), GTS_OK);
    cr_assert_eq(gts_engine_virtual_sync(e, &v.sync), GTS_OK);
    gts_engine_free(e);
    return v;
}

static vrun run(gts_algorithm alg, int threads, bool virt, void *tree, int depth)
{
    return run_game(alg, threads, virt, gts_game_randtree(), tree, depth, 0);
}

/* Six trees (transpositions in every other one); with GTS_TEST_DIVISOR
 * fewer (identical_runs_give_identical_clocks below has transpositions). */
Test(virtual, exact_at_every_virtual_thread_count)
{
    static const int P[] = { 2, 3, 8, 16 };
    uint64_t sync[NPAR] = { 0 }, starved[NPAR] = { 0 };
    for (uint64_t seed = 1; seed <= tgame_count(6); seed++) {
        void *tree = tree_new(seed, seed % 2 == 0, 5);
        vrun ref = run(GTS_ALG_MINIMAX, 1, false, tree, 5);
        cr_assert_eq(ref.status, GTS_OK);
        for (size_t a = 0; a < NPAR; a++)
            for (size_t k = 0; k < sizeof P / sizeof P[0]; k++) {
                vrun v = run(PAR[a], P[k], true, tree, 5);
                const char *name = gts_algorithm_name(PAR[a]);
                cr_assert_eq(v.status, GTS_OK, "%s P=%d seed %llu", name, P[k],
                             (unsigned long long)seed);
                cr_expect_eq(v.score, ref.score, "%s P=%d seed %llu: %d, minimax %d", name,
                             P[k], (unsigned long long)seed, v.score, ref.score);
                cr_expect_gt(v.rounds, 0, "%s P=%d: a clock", name, P[k]);
                cr_expect_leq(v.nodes, v.rounds * (uint64_t)P[k],
                              "%s P=%d: %llu nodes in %llu rounds", name, P[k],
                              (unsigned long long)v.nodes, (unsigned long long)v.rounds);
                cr_expect_leq(v.idle, v.rounds * (uint64_t)P[k], "%s P=%d: idle turns", name,
                              P[k]);
                cr_expect_leq(v.sync, v.idle, "%s P=%d: synchronisation turns are idle turns",
                              name, P[k]);
                sync[a] += v.sync;
                starved[a] += v.idle - (v.sync <= v.idle ? v.sync : v.idle);
            }
        gts_games_free(gts_game_randtree(), tree);
    }
    /* Both kinds occur where they must: YBWC, Jamboree and DTS wait for
     * their helpers at the end of a split point; with 16 processors on
     * trees this small every algorithm has processors with nothing to do,
     * DTS's looking for a split point among them. */
    for (size_t a = 0; a < NPAR; a++) {
        gts_algorithm alg = PAR[a];
        if (alg == GTS_ALG_YBWC || alg == GTS_ALG_JAMBOREE || alg == GTS_ALG_DTS)
            cr_expect_gt(sync[a], 0, "%s: no synchronisation turn", gts_algorithm_name(alg));
        cr_expect_gt(starved[a], 0, "%s: no starved turn", gts_algorithm_name(alg));
    }
}

Test(virtual, no_clock_without_virtual_processors)
{
    void *tree = tree_new(3, false, 5);
    vrun v = run(GTS_ALG_YBWC, 2, false, tree, 5);
    cr_expect_eq(v.status, GTS_OK);
    cr_expect_eq(v.rounds, 0);
    cr_expect_eq(v.idle, 0);
    cr_expect_eq(v.sync, 0);
    v = run(GTS_ALG_YBWC, 1, true, tree, 5);
    cr_expect_eq(v.rounds, 0, "one thread has no pool");
    v = run(GTS_ALG_PVS, 4, true, tree, 5);
    cr_expect_eq(v.rounds, 0, "a serial algorithm has no pool");
    gts_games_free(gts_game_randtree(), tree);
}

/* One MCTS search of @playouts on @e; its clock and root statistics. */
typedef struct mrun {
    uint64_t rounds, idle, nodes, visits;
    gts_move best;
    gts_mcts_move_stats st[8];
    int n;
} mrun;

static mrun mcts_run(gts_engine *e, void *tree, int64_t playouts)
{
    mrun m;
    memset(&m, 0, sizeof m);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, playouts), GTS_OK);
    gts_result r = { .struct_size = sizeof r };
    cr_assert_eq(gts_mcts(e, gts_game_randtree(), tree, NULL, &r), GTS_OK);
    cr_assert_eq(gts_engine_virtual_stats(e, &m.rounds, &m.idle), GTS_OK);
    m.nodes = r.nodes;
    m.best = r.best_move;
    for (int i = 0; i < 8; i++)
        m.st[i].struct_size = sizeof m.st[i];
    m.n = gts_mcts_root_stats(e, m.st, 8);
    for (int i = 0; i < m.n && i < 8; i++)
        m.visits += m.st[i].visits;
    return m;
}

/* MCTS on virtual processors (tree and root parallelisation): every
 * applied move is a turn, so nodes <= rounds x threads; the playouts add up
 * to the budget; three runs on fresh engines give the same clock, nodes,
 * move and root statistics. With the option off, on an engine whose last
 * search was virtual (the pool stays virtual), it runs on real threads (no
 * clock) and its playouts still add up. */
Test(virtual, mcts_on_virtual_processors)
{
    void *tree = tree_new(5, false, 12); /* too big to prove in 2000 playouts */
    static const int P[] = { 2, 3, 8 };
    for (int mode = GTS_MCTS_TREE; mode <= GTS_MCTS_ROOT; mode++)
        for (size_t k = 0; k < sizeof P / sizeof P[0]; k++) {
            mrun first;
            for (int rep = 0; rep < 3; rep++) {
                gts_engine *e = NULL;
                cr_assert_eq(gts_engine_new(&e), GTS_OK);
                cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, P[k]), GTS_OK);
                cr_assert_eq(gts_engine_set(e, GTS_OPT_VIRTUAL, 1), GTS_OK);
                cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PARALLEL, mode), GTS_OK);
                cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_SEED, 7), GTS_OK);
                mrun m = mcts_run(e, tree, 2000);
                gts_engine_free(e);
                cr_expect_eq(m.visits, 2000, "mode %d P=%d: %llu visits", mode, P[k],
                             (unsigned long long)m.visits);
                cr_expect_gt(m.rounds, 0, "mode %d P=%d: a clock", mode, P[k]);
                cr_expect_leq(m.nodes, m.rounds * (uint64_t)P[k],
                              "mode %d P=%d: %llu nodes in %llu rounds", mode, P[k],
                              (unsigned long long)m.nodes, (unsigned long long)m.rounds);
                cr_expect_lt(m.rounds, m.nodes, "mode %d P=%d: the workers shared the work",
                             mode, P[k]);
                if (rep == 0) {
                    first = m;
                    continue;
                }
                cr_expect_eq(m.rounds, first.rounds, "mode %d P=%d run %d: rounds", mode,
                             P[k], rep);
                cr_expect_eq(m.idle, first.idle, "mode %d P=%d run %d: idle", mode, P[k], rep);
                cr_expect_eq(m.nodes, first.nodes, "mode %d P=%d run %d: nodes", mode, P[k],
                             rep);
                cr_expect_eq(m.best, first.best, "mode %d P=%d run %d: move", mode, P[k], rep);
                cr_expect_eq(m.n, first.n);
                for (int i = 0; i < m.n && i < 8; i++) {
                    cr_expect_eq(m.st[i].move, first.st[i].move);
                    cr_expect_eq(m.st[i].visits, first.st[i].visits,
                                 "mode %d P=%d run %d: child %d visits", mode, P[k], rep, i);
                    cr_expect_eq(m.st[i].mean, first.st[i].mean);
                }
            }
        }

    gts_engine *e = NULL;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, 4), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_VIRTUAL, 1), GTS_OK);
    gts_limits lim = { .struct_size = sizeof lim, .depth = 4 };
    gts_result r = { .struct_size = sizeof r };
    cr_assert_eq(gts_search(e, GTS_ALG_DTS, gts_game_randtree(), tree, &lim, &r), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_VIRTUAL, 0), GTS_OK);
    mrun m = mcts_run(e, tree, 2000);
    cr_expect_eq(m.rounds, 0, "option off: MCTS ran on virtual processors (%llu rounds)",
                 (unsigned long long)m.rounds);
    cr_expect_eq(m.visits, 2000, "option off: %llu visits", (unsigned long long)m.visits);
    gts_engine_free(e);
    gts_games_free(gts_game_randtree(), tree);
}

/* Runs of every parallel algorithm (and Jamboree's serial prefix) at
 * 2, 3, 8 and 16 virtual processors, each three times on fresh engines:
 * all equal. Not timing-based: a count compared with a count. */
static void expect_identical_runs(const char *what, const gts_game *game, void *state,
                                  int depth)
{
    static const int P[] = { 2, 3, 8, 16 };
    static const struct {
        gts_algorithm alg;
        int jamboree_serial;
    } CONF[] = {
        { GTS_ALG_YBWC, 0 },    { GTS_ALG_JAMBOREE, 0 }, { GTS_ALG_JAMBOREE, 50 },
        { GTS_ALG_ER_PARALLEL, 0 }, { GTS_ALG_DTS, 0 },  { GTS_ALG_PVSPLIT, 0 },
        { GTS_ALG_ABDADA, 0 },  { GTS_ALG_LAZYSMP, 0 },  { GTS_ALG_ROOTSPLIT, 0 },
    };
    for (size_t a = 0; a < sizeof CONF / sizeof CONF[0]; a++)
        for (size_t k = 0; k < sizeof P / sizeof P[0]; k++) {
            const char *name = gts_algorithm_name(CONF[a].alg);
            int js = CONF[a].jamboree_serial;
            vrun x = run_game(CONF[a].alg, P[k], true, game, state, depth, js);
            cr_assert_eq(x.status, GTS_OK, "%s %s (serial %d) P=%d", what, name, js, P[k]);
            for (int rep = 2; rep <= 3; rep++) {
                vrun y = run_game(CONF[a].alg, P[k], true, game, state, depth, js);
                cr_expect_eq(y.status, GTS_OK);
                cr_expect_eq(x.rounds, y.rounds,
                             "%s %s (serial %d) P=%d: %llu rounds, then %llu in run %d", what,
                             name, js, P[k], (unsigned long long)x.rounds,
                             (unsigned long long)y.rounds, rep);
                cr_expect_eq(x.idle, y.idle, "%s %s (serial %d) P=%d: idle turns %llu, %llu",
                             what, name, js, P[k], (unsigned long long)x.idle,
                             (unsigned long long)y.idle);
                cr_expect_eq(x.sync, y.sync, "%s %s (serial %d) P=%d: sync turns %llu, %llu",
                             what, name, js, P[k], (unsigned long long)x.sync,
                             (unsigned long long)y.sync);
                cr_expect_eq(x.nodes, y.nodes, "%s %s (serial %d) P=%d: nodes %llu, %llu",
                             what, name, js, P[k], (unsigned long long)x.nodes,
                             (unsigned long long)y.nodes);
                cr_expect_eq(x.score, y.score, "%s %s (serial %d) P=%d: score", what, name,
                             js, P[k]);
                cr_expect_eq(x.best, y.best, "%s %s (serial %d) P=%d: best move", what, name,
                             js, P[k]);
            }
        }
}

Test(virtual, identical_runs_give_identical_clocks, .timeout = 300)
{
    void *tree = tree_new(11, false, 6);
    expect_identical_runs("random tree", gts_game_randtree(), tree, 6);
    gts_games_free(gts_game_randtree(), tree);
    tree = tree_new(12, true, 6);
    expect_identical_runs("random tree with transpositions", gts_game_randtree(), tree, 6);
    gts_games_free(gts_game_randtree(), tree);
    void *c4 = NULL;
    cr_assert_eq(gts_connect4_new("4453", &c4), GTS_OK);
    expect_identical_runs("connect-4 4453", gts_game_connect4h(), c4, 5);
    gts_games_free(gts_game_connect4h(), c4);
}

Test(virtual, more_virtual_processors_take_fewer_rounds)
{
    /* Not a speed claim about the machine: rounds are a count. DTS on a
     * tree with real work must gain from 2 to 8 virtual processors. */
    void *tree = tree_new(5, false, 7);
    vrun two = run(GTS_ALG_DTS, 2, true, tree, 7);
    vrun eight = run(GTS_ALG_DTS, 8, true, tree, 7);
    cr_expect_lt(eight.rounds, two.rounds, "8 VPs %llu rounds, 2 VPs %llu",
                 (unsigned long long)eight.rounds, (unsigned long long)two.rounds);
    gts_games_free(gts_game_randtree(), tree);
}

Test(virtual, bad_arguments)
{
    gts_engine *e = NULL;
    uint64_t r, i;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_expect_eq(gts_engine_virtual_stats(NULL, &r, &i), GTS_EINVAL);
    cr_expect_eq(gts_engine_virtual_stats(e, NULL, &i), GTS_EINVAL);
    cr_expect_eq(gts_engine_virtual_stats(e, &r, NULL), GTS_EINVAL);
    cr_expect_eq(gts_engine_virtual_sync(NULL, &r), GTS_EINVAL);
    cr_expect_eq(gts_engine_virtual_sync(e, NULL), GTS_EINVAL);
    cr_expect_eq(gts_engine_set(e, GTS_OPT_VIRTUAL, 2), GTS_ERANGE);
    cr_expect_eq(gts_engine_virtual_stats(e, &r, &i), GTS_OK);
    cr_expect_eq(r, 0);
    i = 1;
    cr_expect_eq(gts_engine_virtual_sync(e, &i), GTS_OK);
    cr_expect_eq(i, 0);
    gts_engine_free(e);
}
