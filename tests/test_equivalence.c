/*
 * The equivalence suite: on thousands of random trees every exact algorithm
 * returns exactly the minimax value, and a best move of that value.
 *
 * The reference is gts_minimax (plain negamax, no TT, no pruning), itself
 * checked here against a negamax written in this file over the same game.
 */
#include <criterion/criterion.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "fixture.h"

static const gts_algorithm EXACT[] = {GTS_ALG_ALPHABETA, GTS_ALG_PVS};
#define NEXACT (sizeof EXACT / sizeof EXACT[0])

typedef fx_tree_case tree_case;

/* Deterministic case generator: several branching factors and depths, with
 * and without transpositions, ordered and random trees. */
static tree_case make_case(uint64_t i)
{
    static const uint32_t depth_for[] = {11, 8, 7, 6, 5, 4};
    return fx_make_case(0x5eed0000, depth_for, i);
}

static gts_score search(gts_engine *e, gts_algorithm alg, void *s, int depth, gts_result *r)
{
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    memset(r, 0, sizeof *r);
    r->struct_size = sizeof *r;
    cr_assert_eq(gts_search(e, alg, gts_game_randtree(), s, &l, r), GTS_OK);
    return r->score;
}

/* Value of @move for the side to move at the root, by the reference. */
static gts_score move_value(gts_engine *ref, void *s, gts_move move, int depth)
{
    const gts_game *g = gts_game_randtree();
    cr_assert_eq(g->apply(s, move, g->user), 0);
    gts_result r;
    gts_score v;
    if (depth - 1 == 0) {
        v = -g->evaluate(s, g->user);
    } else {
        int n;
        gts_move moves[64];
        n = g->generate(s, moves, 64, g->user);
        v = n == 0 ? -g->evaluate(s, g->user) : -search(ref, GTS_ALG_MINIMAX, s, depth - 1, &r);
    }
    cr_assert_eq(g->undo(s, move, g->user), 0);
    return v;
}

static void run_cases(uint64_t first, uint64_t count, bool tt, int near)
{
    gts_engine *ref, *e[NEXACT];
    cr_assert_eq(gts_engine_new(&ref), GTS_OK);
    cr_assert_eq(gts_engine_set(ref, GTS_OPT_ITERATIVE, 0), GTS_OK);
    cr_assert_eq(gts_engine_set(ref, GTS_OPT_TT_MB, 0), GTS_OK);
    for (size_t a = 0; a < NEXACT; a++) {
        cr_assert_eq(gts_engine_new(&e[a]), GTS_OK);
        cr_assert_eq(gts_engine_set(e[a], GTS_OPT_TT_MB, tt ? 2 : 0), GTS_OK);
        /* A near part of 16 buckets for the nodes @near plies from the leaves. */
        cr_assert_eq(gts_engine_set(e[a], GTS_OPT_TT_NEAR_DEPTH, near), GTS_OK);
        cr_assert_eq(gts_engine_set(e[a], GTS_OPT_TT_NEAR_KB, 1), GTS_OK);
    }
    for (uint64_t i = first; i < first + count; i++) {
        tree_case c = make_case(i);
        void *s = fx_randtree_new(&c.p);
        gts_result r;
        gts_score want = search(ref, GTS_ALG_MINIMAX, s, c.depth, &r);
        for (size_t a = 0; a < NEXACT; a++) {
            /* Each case on a fresh table, and a second time on a warm one. */
            if (i % 2 == 0)
                gts_engine_clear(e[a]);
            gts_score got = search(e[a], EXACT[a], s, c.depth, &r);
            cr_expect_eq(got, want, "case %llu (b=%u d=%d tt=%d transp=%d ordered=%u): %s %d != minimax %d",
                         (unsigned long long)i, c.p.branching, c.depth, tt, c.p.transpositions,
                         c.p.ordered_percent, gts_algorithm_name(EXACT[a]), got, want);
            if (r.flags & GTS_RESULT_HAS_MOVE) {
                gts_score mv = move_value(ref, s, r.best_move, c.depth);
                cr_expect_eq(mv, want, "case %llu %s: best move %llu is worth %d, not %d",
                             (unsigned long long)i, gts_algorithm_name(EXACT[a]),
                             (unsigned long long)r.best_move, mv, want);
            }
        }
        gts_games_free(gts_game_randtree(), s);
    }
    for (size_t a = 0; a < NEXACT; a++)
        gts_engine_free(e[a]);
    gts_engine_free(ref);
}

/* 2,400 trees in all, in chunks so Criterion runs them on both cores. */
Test(equivalence, trees_0000_0599_with_tt) { run_cases(0, 600, true, 0); }
Test(equivalence, trees_0600_1199_with_tt_near_part) { run_cases(600, 600, true, 3); }
Test(equivalence, trees_1200_1799_without_tt) { run_cases(1200, 600, false, 0); }
Test(equivalence, trees_1800_2399_without_tt) { run_cases(1800, 600, false, 0); }

/* Aspiration windows and no iterative deepening must not change the value. */
Test(equivalence, aspiration_and_direct_search)
{
    gts_engine *ref, *asp, *direct;
    cr_assert_eq(gts_engine_new(&ref), GTS_OK);
    cr_assert_eq(gts_engine_new(&asp), GTS_OK);
    cr_assert_eq(gts_engine_new(&direct), GTS_OK);
    cr_assert_eq(gts_engine_set(ref, GTS_OPT_ITERATIVE, 0), GTS_OK);
    cr_assert_eq(gts_engine_set(asp, GTS_OPT_ASPIRATION, 25), GTS_OK);
    cr_assert_eq(gts_engine_set(direct, GTS_OPT_ITERATIVE, 0), GTS_OK);
    for (uint64_t i = 3000; i < 3300; i++) {
        tree_case c = make_case(i);
        void *s = fx_randtree_new(&c.p);
        gts_result r;
        gts_score want = search(ref, GTS_ALG_MINIMAX, s, c.depth, &r);
        for (size_t a = 0; a < NEXACT; a++) {
            cr_expect_eq(search(asp, EXACT[a], s, c.depth, &r), want, "case %llu aspiration %s",
                         (unsigned long long)i, gts_algorithm_name(EXACT[a]));
            cr_expect_eq(search(direct, EXACT[a], s, c.depth, &r), want, "case %llu direct %s",
                         (unsigned long long)i, gts_algorithm_name(EXACT[a]));
        }
        gts_games_free(gts_game_randtree(), s);
    }
    gts_engine_free(ref);
    gts_engine_free(asp);
    gts_engine_free(direct);
}

/* The library's minimax against a negamax written here. */
static gts_score negamax(const gts_game *g, void *s, int depth)
{
    gts_move moves[64];
    int n = depth > 0 ? g->generate(s, moves, 64, g->user) : 0;
    if (n == 0)
        return g->evaluate(s, g->user);
    gts_score best = -GTS_SCORE_INF;
    for (int i = 0; i < n; i++) {
        g->apply(s, moves[i], g->user);
        gts_score v = -negamax(g, s, depth - 1);
        g->undo(s, moves[i], g->user);
        if (v > best)
            best = v;
    }
    return best;
}

Test(equivalence, reference_minimax_is_plain_negamax)
{
    gts_engine *ref;
    cr_assert_eq(gts_engine_new(&ref), GTS_OK);
    for (uint64_t i = 5000; i < 5200; i++) {
        tree_case c = make_case(i);
        void *s = fx_randtree_new(&c.p);
        gts_result r;
        gts_score lib = search(ref, GTS_ALG_MINIMAX, s, c.depth, &r);
        cr_expect_eq(lib, negamax(gts_game_randtree(), s, c.depth), "case %llu", (unsigned long long)i);
        gts_games_free(gts_game_randtree(), s);
    }
    gts_engine_free(ref);
}
