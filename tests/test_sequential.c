/*
 * The serial exact algorithms of mtdf.c and er.c: MTD(f), NegaC*, MT-SSS*,
 * MT-DUAL* and Evaluate-and-Refute return exactly the minimax value on
 * thousands of random trees, and a best move of that value.
 *
 * The reference is gts_minimax (plain negamax: no TT, no pruning); a best
 * move is checked by applying it and searching the child with the
 * reference. Cases vary branching (2..10), depth, transpositions, ordered
 * trees, narrow value ranges with many ties, terminal nodes, iterative
 * deepening on and off, and the transposition table on and off (MTD(f) and
 * SSS* re-search the tree at every step without a table: those cases are
 * smaller).
 */
#include <criterion/criterion.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "fixture.h"

static const gts_algorithm SEQ[] = {GTS_ALG_MTDF, GTS_ALG_NEGACSTAR, GTS_ALG_SSSSTAR,
                                    GTS_ALG_DUALSTAR, GTS_ALG_ER};
#define NSEQ (sizeof SEQ / sizeof SEQ[0])

typedef struct tree_case {
    gts_randtree_params p;
    int depth;
} tree_case;

/* Deterministic case generator; @small keeps the trees small enough for
 * table-less MTD(f)/SSS*. */
static tree_case make_case(uint64_t i, bool small)
{
    static const uint32_t branching[] = {2, 3, 4, 5, 6, 7, 8, 10};
    static const uint32_t depth_big[] = {12, 9, 8, 7, 6, 6, 5, 5};
    static const uint32_t depth_small[] = {9, 7, 6, 5, 5, 4, 4, 4};
    tree_case c;
    memset(&c, 0, sizeof c);
    int b = (int)(i % 8);
    c.p.struct_size = sizeof c.p;
    c.p.seed = 0x5e90000 + i * 7919;
    c.p.branching = branching[b];
    c.p.depth = (small ? depth_small : depth_big)[b] + (uint32_t)(i / 8 % 2);
    bool narrow = i % 5 == 0; /* many ties */
    c.p.min_value = narrow ? -2 : -1000;
    c.p.max_value = narrow ? 2 : 1000;
    c.p.branching_jitter = (i % 3 == 0) ? branching[b] / 2 : 0;
    c.p.terminal_percent = (i % 4 == 1) ? 12 : 0;
    c.p.transpositions = (i / 2) % 2 == 1;
    c.p.ordered_percent = (i % 7 < 3) ? 85 : (i % 7 == 3 ? 40 : 0);
    c.depth = (int)c.p.depth - (int)(i % 3 == 2);
    return c;
}

static gts_score search(gts_engine *e, gts_algorithm alg, void *s, int depth, gts_result *r)
{
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    /* Zeroed: thread_nodes/thread_nodes_capacity are inputs. */
    *r = (gts_result){.struct_size = sizeof *r};
    cr_assert_eq(gts_search(e, alg, gts_game_randtree(), s, &l, r), GTS_OK);
    return r->score;
}

/* Value of @move at the root by the reference: apply it, search the child. */
static gts_score move_value(gts_engine *ref, void *s, gts_move move, int depth)
{
    const gts_game *g = gts_game_randtree();
    gts_move moves[64];
    cr_assert_eq(g->apply(s, move, g->user), 0);
    gts_result r;
    gts_score v;
    if (depth - 1 == 0 || g->generate(s, moves, 64, g->user) == 0)
        v = -g->evaluate(s, g->user);
    else
        v = -search(ref, GTS_ALG_MINIMAX, s, depth - 1, &r);
    cr_assert_eq(g->undo(s, move, g->user), 0);
    return v;
}

static gts_engine *new_engine(bool tt, bool iterative)
{
    gts_engine *e;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, tt ? 2 : 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_ITERATIVE, iterative), GTS_OK);
    return e;
}

static void run_cases(uint64_t first, uint64_t count, bool tt)
{
    count = tgame_count(count);
    gts_engine *ref = new_engine(false, false);
    gts_engine *e[NSEQ][2];
    for (size_t a = 0; a < NSEQ; a++)
        for (int it = 0; it < 2; it++)
            e[a][it] = new_engine(tt, it);
    for (uint64_t i = first; i < first + count; i++) {
        tree_case c = make_case(i, !tt);
        void *s = fx_randtree_new(&c.p);
        gts_result r;
        gts_score want = search(ref, GTS_ALG_MINIMAX, s, c.depth, &r);
        int it = (int)(i % 4 != 3); /* a quarter without iterative deepening */
        for (size_t a = 0; a < NSEQ; a++) {
            /* Fresh table on even cases, warm (other trees' entries) on odd. */
            if (i % 2 == 0)
                gts_engine_clear(e[a][it]);
            gts_score got = search(e[a][it], SEQ[a], s, c.depth, &r);
            cr_expect_eq(got, want,
                         "case %llu (b=%u d=%d tt=%d it=%d transp=%d ordered=%u range=%d): "
                         "%s %d != minimax %d",
                         (unsigned long long)i, c.p.branching, c.depth, tt, it,
                         c.p.transpositions, c.p.ordered_percent, c.p.max_value,
                         gts_algorithm_name(SEQ[a]), got, want);
            cr_expect(r.flags & GTS_RESULT_HAS_MOVE, "case %llu %s: a move",
                      (unsigned long long)i, gts_algorithm_name(SEQ[a]));
            cr_expect_eq(r.flags & (GTS_RESULT_LOWER_BOUND | GTS_RESULT_UPPER_BOUND), 0u);
            if (r.flags & GTS_RESULT_HAS_MOVE) {
                gts_score mv = move_value(ref, s, r.best_move, c.depth);
                cr_expect_eq(mv, want, "case %llu %s: best move %llu is worth %d, not %d",
                             (unsigned long long)i, gts_algorithm_name(SEQ[a]),
                             (unsigned long long)r.best_move, mv, want);
                cr_expect(r.pv_length >= 1 && r.pv[0] == r.best_move,
                          "case %llu %s: the PV starts with the best move",
                          (unsigned long long)i, gts_algorithm_name(SEQ[a]));
            }
        }
        gts_games_free(gts_game_randtree(), s);
    }
    for (size_t a = 0; a < NSEQ; a++)
        for (int it = 0; it < 2; it++)
            gts_engine_free(e[a][it]);
    gts_engine_free(ref);
}

/* 2,400 trees, in chunks so that Criterion runs them on both cores. */
Test(sequential, trees_0000_0599_with_tt) { run_cases(0, 600, true); }
Test(sequential, trees_0600_1199_with_tt) { run_cases(600, 600, true); }
Test(sequential, trees_1200_1799_without_tt) { run_cases(1200, 600, false); }
Test(sequential, trees_1800_2399_without_tt) { run_cases(1800, 600, false); }

/* A caller's first guess, however far from the value, only costs steps. */
Test(sequential, mtdf_converges_from_any_guess)
{
    static const gts_score guesses[] = {-GTS_SCORE_INF, -20000, -999, -1, 0, 1, 777, 20000,
                                        GTS_SCORE_WIN, GTS_SCORE_INF};
    gts_engine *ref = new_engine(false, false);
    for (int tt = 0; tt < 2; tt++)
        for (int it = 0; it < 2; it++) {
            gts_engine *e = new_engine(tt, it);
            for (uint64_t i = 4000; i < 4060; i++) {
                tree_case c = make_case(i, true);
                void *s = fx_randtree_new(&c.p);
                gts_result r;
                gts_score want = search(ref, GTS_ALG_MINIMAX, s, c.depth, &r);
                for (size_t k = 0; k < sizeof guesses / sizeof guesses[0]; k++) {
                    gts_limits l = {.struct_size = sizeof l, .depth = c.depth,
                                    .guess = guesses[k], .has_guess = true};
                    r = (gts_result){.struct_size = sizeof r};
                    cr_assert_eq(gts_mtdf(e, gts_game_randtree(), s, &l, &r), GTS_OK);
                    cr_expect_eq(r.score, want, "case %llu guess %d tt=%d it=%d: %d != %d",
                                 (unsigned long long)i, guesses[k], tt, it, r.score, want);
                    cr_expect_eq(move_value(ref, s, r.best_move, c.depth), want,
                                 "case %llu guess %d: best move value", (unsigned long long)i,
                                 guesses[k]);
                }
                gts_games_free(gts_game_randtree(), s);
            }
            gts_engine_free(e);
        }
    gts_engine_free(ref);
}

Test(sequential, tictactoe_is_a_draw)
{
    const gts_game *g = gts_game_tictactoe();
    for (int tt = 0; tt < 2; tt++)
        for (size_t a = 0; a < NSEQ; a++) {
            gts_engine *e = new_engine(tt, true);
            void *s;
            cr_assert_eq(gts_tictactoe_new(NULL, &s), GTS_OK);
            gts_result r = fx_search(e, SEQ[a], g, s, 9, 0);
            cr_expect_eq(r.score, 0, "%s tt=%d: tic-tac-toe is a draw, got %d",
                         gts_algorithm_name(SEQ[a]), tt, r.score);
            cr_expect(r.flags & GTS_RESULT_HAS_MOVE);
            cr_expect(r.best_move < 9);
            /* The move keeps the draw: the opponent's best reply is worth 0. */
            cr_assert_eq(g->apply(s, r.best_move, g->user), 0);
            gts_result rr = {.struct_size = sizeof rr};
            gts_limits l8 = {.struct_size = sizeof l8, .depth = 8};
            cr_assert_eq(gts_minimax(e, g, s, &l8, &rr), GTS_OK);
            cr_expect_eq(rr.score, 0, "%s: best move %llu keeps the draw",
                         gts_algorithm_name(SEQ[a]), (unsigned long long)r.best_move);
            cr_assert_eq(g->undo(s, r.best_move, g->user), 0);
            gts_games_free(g, s);
            gts_engine_free(e);
        }
}

Test(sequential, tictactoe_finds_the_fastest_win)
{
    for (size_t a = 0; a < NSEQ; a++) {
        gts_engine *e = new_engine(true, true);
        fx_expect_fastest_win(e, SEQ[a]);
        gts_engine_free(e);
    }
}

/* Quiescence, extensions and decided (mate-like) scores. */
Test(sequential, quiescence_extensions_and_decided_scores_agree_with_minimax)
{
    for (uint64_t seed = 1; seed < 1 + tgame_count(79); seed++)
        for (int tt = 0; tt < 2; tt++) {
            tgame g;
            tgame_init(&g, seed, 3, 5);
            g.noisy = seed % 2 == 0;
            g.extend_first = seed % 3 == 0;
            g.win_leaves = seed % 5 < 2;
            gts_game v = tgame_vtable(&g, tt);
            gts_engine *ref = new_engine(false, false);
            gts_limits l = {.struct_size = sizeof l, .depth = 5};
            gts_result r = {.struct_size = sizeof r};
            cr_assert_eq(gts_minimax(ref, &v, &g, &l, &r), GTS_OK);
            gts_score want = r.score;
            for (size_t a = 0; a < NSEQ; a++) {
                gts_engine *e = new_engine(tt, true);
                r = (gts_result){.struct_size = sizeof r};
                cr_assert_eq(gts_search(e, SEQ[a], &v, &g, &l, &r), GTS_OK);
                cr_expect_eq(r.score, want, "seed %llu tt=%d %s: %d != minimax %d",
                             (unsigned long long)seed, tt, gts_algorithm_name(SEQ[a]),
                             r.score, want);
                gts_engine_free(e);
            }
            gts_engine_free(ref);
        }
}

/* With a caller window, a fail-soft bound on the right side of it. */
Test(sequential, caller_window_reports_fail_soft_bounds)
{
    gts_engine *ref = new_engine(false, false);
    for (uint64_t i = 6000; i < 6000 + tgame_count(100); i++) {
        tree_case c = make_case(i, true);
        void *s = fx_randtree_new(&c.p);
        gts_result r;
        gts_score v = search(ref, GTS_ALG_MINIMAX, s, c.depth, &r);
        const gts_score lo[] = {v + 1, v - 30, v - 1, v - 5};
        const gts_score hi[] = {v + 40, v - 1, v + 1, v + 5};
        for (size_t a = 0; a < NSEQ; a++)
            for (int w = 0; w < 4; w++) {
                gts_engine *e = new_engine(i % 2 == 0, true);
                gts_limits l = {.struct_size = sizeof l, .depth = c.depth,
                                .alpha = lo[w], .beta = hi[w]};
                r = (gts_result){.struct_size = sizeof r};
                cr_assert_eq(gts_search(e, SEQ[a], gts_game_randtree(), s, &l, &r), GTS_OK);
                const char *name = gts_algorithm_name(SEQ[a]);
                if (v <= l.alpha) {
                    cr_expect(r.score <= l.alpha && r.score >= v,
                              "case %llu %s: upper bound %d for %d in (%d,%d)",
                              (unsigned long long)i, name, r.score, v, l.alpha, l.beta);
                    cr_expect(r.flags & GTS_RESULT_UPPER_BOUND);
                } else if (v >= l.beta) {
                    cr_expect(r.score >= l.beta && r.score <= v,
                              "case %llu %s: lower bound %d for %d in (%d,%d)",
                              (unsigned long long)i, name, r.score, v, l.alpha, l.beta);
                    cr_expect(r.flags & GTS_RESULT_LOWER_BOUND);
                } else {
                    cr_expect_eq(r.score, v, "case %llu %s: exact inside (%d,%d)",
                                 (unsigned long long)i, name, l.alpha, l.beta);
                }
                gts_engine_free(e);
            }
        gts_games_free(gts_game_randtree(), s);
    }
    gts_engine_free(ref);
}

/* Aspiration windows (ER is windowed; the MT family ignores them). */
Test(sequential, aspiration_does_not_change_the_value)
{
    gts_engine *ref = new_engine(false, false);
    gts_engine *asp[NSEQ];
    for (size_t a = 0; a < NSEQ; a++) {
        asp[a] = new_engine(true, true);
        cr_assert_eq(gts_engine_set(asp[a], GTS_OPT_ASPIRATION, 20), GTS_OK);
    }
    for (uint64_t i = 7000; i < 7200; i++) {
        tree_case c = make_case(i, false);
        void *s = fx_randtree_new(&c.p);
        gts_result r;
        gts_score want = search(ref, GTS_ALG_MINIMAX, s, c.depth, &r);
        for (size_t a = 0; a < NSEQ; a++) {
            cr_expect_eq(search(asp[a], SEQ[a], s, c.depth, &r), want, "case %llu %s",
                         (unsigned long long)i, gts_algorithm_name(SEQ[a]));
            cr_expect_eq(move_value(ref, s, r.best_move, c.depth), want, "case %llu %s move",
                         (unsigned long long)i, gts_algorithm_name(SEQ[a]));
        }
        gts_games_free(gts_game_randtree(), s);
    }
    for (size_t a = 0; a < NSEQ; a++)
        gts_engine_free(asp[a]);
    gts_engine_free(ref);
}

static void expect_restored(const tgame *before, const tgame *after, const char *what)
{
    cr_expect_eq(memcmp(before, after, sizeof *before), 0, "%s: state restored", what);
}

Test(sequential, limits_and_failures_restore_the_state)
{
    for (size_t a = 0; a < NSEQ; a++) {
        const char *name = gts_algorithm_name(SEQ[a]);
        /* A node budget stops the search cleanly with the last iteration. */
        tgame g, copy;
        gts_game v = tgame_new(&g, 12, 6, 12, true);
        copy = g;
        gts_engine *e = new_engine(true, true);
        gts_result r = fx_search(e, SEQ[a], &v, &g, 12, 5000);
        cr_expect(r.flags & GTS_RESULT_NODE_LIMIT, "%s: node limit flagged", name);
        cr_expect(r.depth < 12 && (r.flags & GTS_RESULT_HAS_MOVE), "%s", name);
        expect_restored(&copy, &g, name);
        if (r.depth > 0) {
            cr_expect_eq(r.score, fx_tgame_value(12, 6, 12, r.depth), "%s: depth %d score",
                         name, r.depth);
        }
        gts_engine_free(e);

        /* A failing callback: a clear status and the state restored. */
        static const fx_fault kind[] = {FX_FAIL_APPLY, FX_FAIL_GENERATE, FX_BAD_SCORE};
        for (int f = 0; f < 3; f++) {
            tgame_faults faults;
            fx_set_fault(&faults, kind[f], 300 + 41 * (uint64_t)f);
            tgame_init(&g, 16, 3, 6);
            g.f = &faults;
            copy = g;
            v = tgame_vtable(&g, true);
            e = new_engine(true, true);
            gts_limits l6 = {.struct_size = sizeof l6, .depth = 6};
            r = (gts_result){.struct_size = sizeof r};
            int rc = gts_search(e, SEQ[a], &v, &g, &l6, &r);
            cr_expect_eq(rc, f == 2 ? GTS_ESCORE : GTS_ECALLBACK, "%s fault %d: %s", name, f,
                         gts_status_name(rc));
            expect_restored(&copy, &g, name);
            gts_engine_free(e);
        }
    }
}
