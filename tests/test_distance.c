/*
 * GTS_TRAIT_DISTANCE_SCORES and GTS_OPT_DEEPEN_NODES: iterative deepening
 * stops at the first depth whose exact value is not 0, and the prelude of
 * iterations before a direct search stops there too.
 *
 *  - a test game scored by distance: random trees whose finished nodes are
 *    wins (60 - ply), losses (ply - 60) or, rarely, draws (0) for the side to move,
 *    at random plies, and whose unfinished nodes evaluate to 0;
 *  - every exact algorithm (parallel ones at 1, 2 and 4 threads), with
 *    iterative deepening, with a prelude (small and large budgets) and
 *    directly, returns plain minimax's value of the whole tree and a best
 *    move of that value; searches that stopped early did so at a non-zero
 *    value, and some did (the rule is exercised);
 *  - Connect-4 with the trait: `gts solve`'s set-up (prelude, caller window)
 *    gives the known scores, and an easy position takes few nodes;
 *  - a game that declares the trait without keeping it (non-zero values at
 *    unfinished nodes) gets GTS_OK and a legal move: no crash, no hang.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "tgame.h"

#define MAX_MOVES 8
#define WIN 60

/* ---- the test game ---------------------------------------------------------- */

typedef struct dgame {
    int branching, depth, ply;
    int terminal_percent;
    bool liar; /* unfinished nodes evaluate to non-zero values */
    uint64_t path[64];
} dgame;

static bool dg_finished(const dgame *g)
{
    if (g->ply >= g->depth)
        return true;
    if (g->ply < 2)
        return false;
    return tgame_mix(g->path[g->ply] ^ 0x7e) % 100 < (uint64_t)g->terminal_percent;
}

static int dg_generate(void *s, gts_move *moves, uint32_t cap, void *user)
{
    (void)user;
    dgame *g = s;
    if (dg_finished(g))
        return 0;
    int n = g->branching < (int)cap ? g->branching : (int)cap;
    for (int i = 0; i < n; i++)
        moves[i] = (gts_move)i;
    return n;
}

static int dg_apply(void *s, gts_move m, void *user)
{
    (void)user;
    dgame *g = s;
    if (m >= (gts_move)g->branching || dg_finished(g))
        return -1;
    g->path[g->ply + 1] = tgame_mix(g->path[g->ply] * 31 + m + 1);
    g->ply++;
    return 0;
}

static int dg_undo(void *s, gts_move m, void *user)
{
    (void)m;
    (void)user;
    dgame *g = s;
    if (g->ply == 0)
        return -1;
    g->ply--;
    return 0;
}

static gts_score dg_evaluate(void *s, void *user)
{
    (void)user;
    const dgame *g = s;
    uint64_t h = tgame_mix(g->path[g->ply] ^ 0x5c);
    if (!dg_finished(g))
        return g->liar ? (gts_score)(h % 41) - 20 : 0;
    /* Draws are rare: with many, most trees would be worth 0. */
    h %= 20;
    return h < 9 ? WIN - g->ply : h < 18 ? g->ply - WIN : 0;
}

static uint64_t dg_hash(void *s, void *user)
{
    (void)user;
    const dgame *g = s;
    return g->path[g->ply];
}

static void *dg_clone(void *s, void *user)
{
    (void)user;
    return tgame_copy(s, sizeof(dgame));
}

static gts_game dg_vtable(void)
{
    gts_game v = {
        .struct_size = sizeof v,
        .max_moves = MAX_MOVES,
        .generate = dg_generate,
        .apply = dg_apply,
        .undo = dg_undo,
        .evaluate = dg_evaluate,
        .hash = dg_hash,
        .clone = dg_clone,
        .free = tgame_free,
        .traits = GTS_TRAIT_DISTANCE_SCORES,
    };
    return v;
}

static void dg_init(dgame *g, uint64_t seed, int branching, int depth, int terminal_percent)
{
    memset(g, 0, sizeof *g);
    g->branching = branching;
    g->depth = depth;
    g->terminal_percent = terminal_percent;
    g->path[0] = tgame_mix(seed);
}

/* ---- helpers ---------------------------------------------------------------- */

static gts_engine *new_engine(int threads)
{
    gts_engine *e;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, threads), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 1), GTS_OK);
    return e;
}

/* Plain minimax of the whole tree (one iteration, no table). */
static gts_score reference(const gts_game *v, dgame *g)
{
    gts_engine *e = new_engine(1);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_ITERATIVE, 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 0), GTS_OK);
    gts_limits l = {.struct_size = sizeof l, .depth = g->depth};
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(gts_minimax(e, v, g, &l, &r), GTS_OK);
    gts_engine_free(e);
    return r.score;
}

/* The value of move @m at the root, by minimax of the child. */
static gts_score move_value(const gts_game *v, dgame *g, gts_move m)
{
    cr_assert_eq(dg_apply(g, m, NULL), 0);
    gts_score s;
    if (dg_finished(g)) {
        s = -dg_evaluate(g, NULL);
    } else {
        dgame c = *g; /* the child as a root: its tree ends where g's does */
        s = -reference(v, &c);
    }
    cr_assert_eq(dg_undo(g, m, NULL), 0);
    return s;
}

static const int THREADS[] = {1, 2, 4};
#define NTHREADS (sizeof THREADS / sizeof THREADS[0])

/* How the engines deepen: 0 iterative, 1 directly, 2.. a prelude budget. */
static const int64_t MODES[] = {-1, 0, 40, 1000000};
#define NMODES (sizeof MODES / sizeof MODES[0])

static void set_mode(gts_engine *e, int64_t mode)
{
    cr_assert_eq(gts_engine_set(e, GTS_OPT_ITERATIVE, mode < 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_DEEPEN_NODES, mode < 0 ? 0 : mode), GTS_OK);
}

/* ---- exactness ---------------------------------------------------------------- */

Test(distance, every_exact_algorithm_equals_minimax)
{
    gts_game v = dg_vtable();
    gts_algorithm all[64];
    int nalg = gts_algorithm_list(all, 64);
    cr_assert(nalg > 0);
    gts_engine *es[NTHREADS];
    for (size_t t = 0; t < NTHREADS; t++)
        es[t] = new_engine(THREADS[t]);
    uint64_t searches = 0, early = 0;
    uint64_t trees = tgame_count(60);
    for (uint64_t i = 0; i < trees; i++) {
        dgame g;
        dg_init(&g, 0xd15 + i, 2 + (int)(i % 3), 6 + (int)(i % 4), 10 + (int)(i % 4) * 8);
        gts_score want = reference(&v, &g);
        gts_score mv[MAX_MOVES]; /* each root move's value, once per tree */
        for (int k = 0; k < g.branching; k++)
            mv[k] = move_value(&v, &g, (gts_move)k);
        for (int a = 0; a < nalg; a++) {
            if (!gts_algorithm_is_exact(all[a]) || all[a] == GTS_ALG_MINIMAX)
                continue;
            size_t nt = gts_algorithm_is_parallel(all[a]) ? NTHREADS : 1;
            for (size_t t = 0; t < nt; t++) {
                for (size_t m = 0; m < NMODES; m++) {
                    gts_engine *e = es[t];
                    set_mode(e, MODES[m]);
                    gts_engine_clear(e);
                    gts_limits l = {.struct_size = sizeof l, .depth = g.depth};
                    gts_result r = {.struct_size = sizeof r};
                    cr_assert_eq(gts_search(e, all[a], &v, &g, &l, &r), GTS_OK);
                    searches++;
                    cr_expect_eq(r.score, want,
                                 "tree %llu %s threads=%d mode=%lld: %d != minimax %d",
                                 (unsigned long long)i, gts_algorithm_name(all[a]),
                                 THREADS[t], (long long)MODES[m], r.score, want);
                    cr_expect_eq(g.ply, 0, "state restored");
                    if (r.depth < g.depth) {
                        early++;
                        cr_expect_neq(r.score, 0, "tree %llu %s: stopped at depth %d with 0",
                                      (unsigned long long)i, gts_algorithm_name(all[a]),
                                      r.depth);
                    }
                    if (r.flags & GTS_RESULT_HAS_MOVE)
                        cr_expect(r.best_move < (gts_move)g.branching, "a legal move");
                    if (r.flags & GTS_RESULT_HAS_MOVE && r.best_move < (gts_move)g.branching)
                        cr_expect_eq(mv[r.best_move], want,
                                     "tree %llu %s threads=%d mode=%lld: best move %llu",
                                     (unsigned long long)i, gts_algorithm_name(all[a]),
                                     THREADS[t], (long long)MODES[m],
                                     (unsigned long long)r.best_move);
                }
            }
        }
    }
    printf("# %llu searches, %llu stopped before the full depth\n",
           (unsigned long long)searches, (unsigned long long)early);
    cr_expect(early > searches / 10, "the early stop was exercised (%llu of %llu)",
              (unsigned long long)early, (unsigned long long)searches);
    for (size_t t = 0; t < NTHREADS; t++)
        gts_engine_free(es[t]);
}

/* Without the trait the same trees are searched to the full depth. */
Test(distance, no_trait_no_early_stop)
{
    gts_game v = dg_vtable();
    v.traits = 0;
    gts_engine *e = new_engine(1);
    for (uint64_t i = 0; i < 20; i++) {
        dgame g;
        dg_init(&g, 0xd15 + i, 3, 7, 20);
        gts_limits l = {.struct_size = sizeof l, .depth = g.depth};
        gts_result r = {.struct_size = sizeof r};
        cr_assert_eq(gts_search(e, GTS_ALG_PVS, &v, &g, &l, &r), GTS_OK);
        cr_expect_eq(r.depth, g.depth);
        cr_expect_eq(r.score, reference(&v, &g));
    }
    gts_engine_free(e);
}

/* A value on the edge of the caller's window is a bound, not a value: the
 * search does not stop on it. */
Test(distance, a_bound_does_not_stop_the_search)
{
    gts_game v = dg_vtable();
    gts_engine *e = new_engine(1);
    int checked = 0;
    for (uint64_t i = 0; i < 40; i++) {
        dgame g;
        dg_init(&g, 0xb0 + i, 3, 8, 20);
        gts_score want = reference(&v, &g);
        if (want == 0)
            continue;
        /* The value on an edge of the window: a bound. */
        gts_limits l = {.struct_size = sizeof l, .depth = g.depth,
                        .alpha = want > 0 ? -1 : want, .beta = want > 0 ? want : 1};
        gts_result r = {.struct_size = sizeof r};
        cr_assert_eq(gts_search(e, GTS_ALG_PVS, &v, &g, &l, &r), GTS_OK);
        if (want > 0) {
            cr_expect(r.flags & GTS_RESULT_LOWER_BOUND, "tree %llu: a lower bound",
                      (unsigned long long)i);
            cr_expect_geq(r.score, want);
        } else {
            cr_expect(r.flags & GTS_RESULT_UPPER_BOUND, "tree %llu: an upper bound",
                      (unsigned long long)i);
            cr_expect_leq(r.score, want);
        }
        cr_expect_eq(r.depth, g.depth, "tree %llu: searched to the end",
                     (unsigned long long)i);
        checked++;
    }
    cr_expect(checked > 5);
    gts_engine_free(e);
}

/* ---- Connect-4 ---------------------------------------------------------------- */

Test(distance, connect4_prelude_solves_easy_positions_in_few_nodes)
{
    static const struct {
        const char *pos;
        gts_score score;
    } CASES[] = {
        {"6146", 18}, {"22144426444", 15}, {"265756512", -12}, {"32164625", 11},
        {"51663754536", -13}, {"1747465756", -14},
    };
    const gts_game *g = gts_game_connect4_solver();
    cr_assert(g->traits & GTS_TRAIT_DISTANCE_SCORES);
    gts_engine *e = new_engine(1);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 16), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_ITERATIVE, 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_DEEPEN_NODES, 32768), GTS_OK);
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        void *s;
        cr_assert_eq(gts_connect4_new(CASES[i].pos, &s), GTS_OK);
        int n = (int)strlen(CASES[i].pos);
        gts_limits l = {.struct_size = sizeof l, .depth = 42 - n,
                        .alpha = -((42 - n) / 2) - 1, .beta = (43 - n) / 2 + 1};
        gts_result r = {.struct_size = sizeof r};
        gts_engine_clear(e);
        cr_assert_eq(gts_search(e, GTS_ALG_PVS, g, s, &l, &r), GTS_OK);
        cr_expect_eq(r.score, CASES[i].score, "%s: %d", CASES[i].pos, r.score);
        /* Found in the prelude: a handful of iterations, not the whole
         * game (32164625 takes 912 K nodes without the prelude). */
        cr_expect_lt(r.nodes, 40000, "%s: %llu nodes", CASES[i].pos,
                     (unsigned long long)r.nodes);
        cr_expect_lt(r.depth, l.depth, "%s: stopped at depth %d", CASES[i].pos, r.depth);
        gts_games_free(g, s);
    }
    gts_engine_free(e);
}

/* ---- a game that breaks the promise ------------------------------------------ */

Test(distance, a_lying_game_cannot_crash_or_hang)
{
    gts_game v = dg_vtable();
    gts_algorithm all[64];
    int nalg = gts_algorithm_list(all, 64);
    gts_engine *e = new_engine(2);
    for (uint64_t i = 0; i < tgame_count(8); i++) {
        dgame g;
        dg_init(&g, 0x11a + i, 3, 7, 15);
        g.liar = true;
        for (int a = 0; a < nalg; a++) {
            if (!gts_algorithm_is_exact(all[a]))
                continue;
            for (size_t m = 0; m < NMODES; m++) {
                set_mode(e, MODES[m]);
                gts_limits l = {.struct_size = sizeof l, .depth = g.depth};
                gts_result r = {.struct_size = sizeof r};
                cr_assert_eq(gts_search(e, all[a], &v, &g, &l, &r), GTS_OK);
                cr_expect_eq(g.ply, 0);
                cr_expect(r.flags & GTS_RESULT_HAS_MOVE);
                cr_expect(r.best_move < 3);
                cr_expect(r.score >= -GTS_SCORE_INF && r.score <= GTS_SCORE_INF);
            }
        }
    }
    gts_engine_free(e);
}
