/*
 * test_order.c - move ordering (lib/search/order.c): counter moves
 * (GTS_OPT_COUNTER_MOVES) and history with malus and gravity
 * (GTS_OPT_HISTORY 2), issue 32.
 *
 * The ordering keys are checked through the kernel's own functions on a
 * context made here (a test of the internals, against what the options
 * promise); the values are checked against minimax: ordering never changes
 * what an exact algorithm returns.
 */
#include "fixture.h"
#include "search/node_search.h"

/* ---- exact algorithms keep the minimax value ------------------------------------ */

static bool exact_depth_first(gts_algorithm alg)
{
    return gts_algorithm_is_exact(alg) && alg != GTS_ALG_MINIMAX;
}

Test(order, counter_moves_and_gravity_keep_minimax)
{
    static const uint32_t depth_for[] = {9, 7, 6, 5, 4, 4};
    static const int threads[] = {1, 2};
    fx_run runs[128];
    int nruns = fx_runs(runs, 128, exact_depth_first, threads, 2);
    gts_engine *ref = fx_engine_with(1, 0);
    cr_assert_eq(gts_engine_set(ref, GTS_OPT_ITERATIVE, 0), GTS_OK);
    for (int k = 0; k < nruns; k++) {
        gts_engine *e = fx_engine_with(runs[k].threads, 2);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_COUNTER_MOVES, 1), GTS_OK);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_HISTORY, 2), GTS_OK);
        for (uint64_t i = 0; i < tgame_count(60); i++) {
            fx_tree_case c = fx_make_case(0x0bde4000, depth_for, i);
            void *s = fx_randtree_new(&c.p);
            const gts_game *g = gts_game_randtree();
            gts_score want = fx_search(ref, GTS_ALG_MINIMAX, g, s, c.depth, 0).score;
            gts_result r = fx_search(e, runs[k].alg, g, s, c.depth, 0);
            cr_expect_eq(r.score, want, "case %llu %s threads=%d: %d != minimax %d",
                         (unsigned long long)i, gts_algorithm_name(runs[k].alg),
                         runs[k].threads, r.score, want);
            gts_games_free(g, s);
        }
        gts_engine_free(e);
    }
    gts_engine_free(ref);
}

/* ---- the keys, on a context of the kernel ----------------------------------------- */

enum { NMOVES = 6 };

static int six_generate(void *s, gts_move *moves, uint32_t cap, void *user)
{
    (void)s, (void)user;
    for (uint32_t i = 0; i < NMOVES && i < cap; i++)
        moves[i] = 100 + i;
    return NMOVES;
}

typedef struct kctx {
    gts_engine *e;
    gts_game g;
    gts__ctx *c;
} kctx;

/* A context searching a game of six moves 100..105 at every ply, with the
 * ordering options @counter and @history; ply 1 and 2 hold their moves. */
static void kctx_new(kctx *k, int counter, int history)
{
    k->e = fx_engine();
    cr_assert_eq(gts_engine_set(k->e, GTS_OPT_COUNTER_MOVES, counter), GTS_OK);
    cr_assert_eq(gts_engine_set(k->e, GTS_OPT_HISTORY, history), GTS_OK);
    k->g = (gts_game){.struct_size = sizeof k->g, .max_moves = NMOVES,
                      .generate = six_generate};
    k->c = gts__ctx_new(&k->e->alloc, NMOVES);
    cr_assert_not_null(k->c);
    gts__ctx_begin(k->c, k->e, &k->g, NULL);
    for (int ply = 0; ply <= 2; ply++) {
        cr_assert(gts__ctx_grow(k->c, ply));
        six_generate(NULL, k->c->moves[ply], NMOVES, NULL);
        k->c->keyed[ply] = false;
    }
}

static void kctx_free(kctx *k)
{
    gts__ctx_free(&k->e->alloc, k->c);
    gts_engine_free(k->e);
}

/* The moves of @ply in the order the node would search them. */
static void order_of(gts__ctx *c, int ply, gts_move out[NMOVES])
{
    gts__order_moves(c, ply, NMOVES, GTS__TT_NO_MOVE);
    for (int k = 0; k < NMOVES; k++)
        out[k] = c->moves[ply][gts__pick(c, ply, k, NMOVES)];
}

Test(order, counter_move_after_the_killers_before_the_rest)
{
    kctx k;
    kctx_new(&k, 1, 1);
    gts__ctx *c = k.c;
    /* At ply 2: 100 cut at depth 5 (history 25); after move 101 (into
     * ply 2), 104 refuted at depth 1 (history 1); then 103 and 105 cut after
     * 102 (killers 105, 103; 105 the counter move of 102). */
    gts__order_cutoff(c, 2, 5, 100);
    gts__order_line(c, 1, 101);
    gts__order_cutoff(c, 2, 1, 104);
    gts__order_line(c, 1, 102);
    gts__order_cutoff(c, 2, 1, 103);
    gts__order_cutoff(c, 2, 1, 105);
    /* Back after 101: killers 105, 103, then the counter move 104, though
     * 100's history is better. */
    gts__order_line(c, 1, 101);
    cr_expect_eq(gts__order_counter(c, 2), 104u);
    gts_move o[NMOVES];
    order_of(c, 2, o);
    cr_expect_eq(o[0], 105u, "first killer first");
    cr_expect_eq(o[1], 103u, "second killer next");
    cr_expect_eq(o[2], 104u, "the counter move of 101 after the killers, got %llu",
                 (unsigned long long)o[2]);
    cr_expect_eq(o[3], 100u, "then history");
    /* After 102 the counter move is 105 (a killer already): history orders
     * the rest. */
    gts__order_line(c, 1, 102);
    order_of(c, 2, o);
    cr_expect_eq(o[2], 100u, "after 102, history first (100 cut at depth 5)");
    cr_expect_eq(o[3], 104u);
    /* After a pass nothing refuted yet: no counter move. */
    gts__order_line_pass(c, 1);
    cr_expect_neq(gts__order_counter(c, 2), 104u);
    kctx_free(&k);

    /* Option off: no counter move is recorded or used. */
    kctx_new(&k, 0, 0);
    c = k.c;
    cr_assert_eq(gts_engine_set(k.e, GTS_OPT_KILLERS, 0), GTS_OK);
    gts__ctx_begin(c, k.e, &k.g, NULL);
    gts__order_line(c, 1, 101);
    gts__order_cutoff(c, 2, 1, 104);
    order_of(c, 2, o);
    cr_expect_eq(o[0], 100u, "off: generate() order");
    kctx_free(&k);
}

Test(order, gravity_malus_and_bounds)
{
    kctx k;
    kctx_new(&k, 0, 2);
    gts__ctx *c = k.c;
    cr_assert(c->history_gravity);
    /* 104 cuts at ply 2 after 100 and 101 were searched: they lose. */
    gts_move tried[] = {100, 101};
    gts__order_cutoff(c, 2, 4, 104);
    gts__order_malus(c, 2, 4, tried, 2);
    cr_expect_gt(gts__order_history(c, 2, 104), 0);
    cr_expect_lt(gts__order_history(c, 2, 100), 0, "a move tried before the cutoff loses");
    cr_expect_lt(gts__order_history(c, 2, 101), 0);
    cr_expect_eq(gts__order_history(c, 2, 102), 0, "a move not tried keeps its score");
    gts_move o[NMOVES];
    order_of(c, 2, o);
    cr_expect_eq(o[0], 104u);
    cr_expect(o[4] == 100 || o[4] == 101, "the penalised moves last");
    cr_expect(o[5] == 100 || o[5] == 101);
    /* Scores stay within +-16384 whatever the number of updates. */
    for (int i = 0; i < 5000; i++) {
        gts__order_cutoff(c, 2, 40, 104);
        gts__order_malus(c, 2, 40, tried, 1);
    }
    cr_expect_leq(gts__order_history(c, 2, 104), 16384);
    cr_expect_geq(gts__order_history(c, 2, 100), -16384);
    cr_expect_gt(gts__order_history(c, 2, 104), 8000, "repeated cutoffs approach the bound");
    kctx_free(&k);

    /* History 1: no malus; a cutoff adds depth^2. */
    kctx_new(&k, 0, 1);
    c = k.c;
    gts__order_cutoff(c, 2, 4, 104);
    gts__order_malus(c, 2, 4, tried, 2);
    cr_expect_eq(gts__order_history(c, 2, 104), 16);
    cr_expect_eq(gts__order_history(c, 2, 100), 0, "history 1: no malus");
    kctx_free(&k);
}

Test(order, history_kinds_do_not_mix)
{
    kctx k;
    kctx_new(&k, 0, 1);
    gts__ctx *c = k.c;
    for (int i = 0; i < 100; i++)
        gts__order_cutoff(c, 2, 30, 104); /* history 1: far beyond gravity's bound */
    cr_expect_gt(gts__order_history(c, 2, 104), 16384);
    cr_assert_eq(gts_engine_set(k.e, GTS_OPT_HISTORY, 2), GTS_OK);
    gts__ctx_begin(c, k.e, &k.g, NULL);
    cr_expect_eq(gts__order_history(c, 2, 104), 0, "switching kinds clears the table");
    kctx_free(&k);
}

/* ---- late-move reductions read the ordering ------------------------------------------- */

Test(order, lmr_reduces_counter_moves_and_good_history_less)
{
    kctx k;
    kctx_new(&k, 1, 2);
    gts__ctx *c = k.c;
    cr_assert_eq(gts_engine_set(k.e, GTS_OPT_LMR, 100), GTS_OK);
    gts_limits lim = {.struct_size = sizeof lim};
    gts__ctx_select(c, k.e, &lim);
    int depth = 10, searched = 12, d = depth - 1;
    gts__order_line(c, 1, 101);
    int plain = gts__sel_reduction(c, depth, 2, 103, searched, false, d);
    cr_assert_gt(plain, 1, "a late quiet move at depth 10 is reduced");
    gts__order_cutoff(c, 2, 1, 104); /* 104: the counter move of 101 */
    int counter = gts__sel_reduction(c, depth, 2, 104, searched, false, d);
    cr_expect_eq(counter, plain - 1, "the counter move one ply less (%d, %d)", counter, plain);
    /* A bad history reduces more, a good one less. */
    gts_move bad = 102;
    for (int i = 0; i < 50; i++)
        gts__order_malus(c, 2, 20, &bad, 1);
    cr_expect_gt(gts__sel_reduction(c, depth, 2, 102, searched, false, d), plain);
    for (int i = 0; i < 50; i++)
        gts__order_cutoff(c, 2, 20, 105);
    gts__order_line(c, 1, 100); /* 105 is not the counter move there */
    cr_expect_lt(gts__sel_reduction(c, depth, 2, 105, searched, false, d), plain);
    kctx_free(&k);
}
