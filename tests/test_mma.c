/* Rivest's min/max approximation (GTS_ALG_MMA): with no budget it explores
 * the whole tree and returns the minimax move and value; budgets, the tree
 * memory, the p option and failures. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "tgame.h"

static gts_engine *engine(void)
{
    gts_engine *e;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    return e;
}

static gts_result run(gts_engine *e, gts_algorithm alg, const gts_game *g, void *s, int depth,
                      uint64_t nodes)
{
    gts_limits l = {.struct_size = sizeof l, .depth = depth, .nodes = nodes};
    gts_result r = {.struct_size = sizeof r};
    gts_status rc = gts_search(e, alg, g, s, &l, &r);
    cr_assert_eq(rc, GTS_OK, "%s: %s", gts_algorithm_name(alg), gts_status_name(rc));
    return r;
}

Test(mma, unlimited_budget_is_minimax_on_500_random_trees)
{
    gts_engine *e = engine(), *m = engine();
    for (int t = 0; t < 500; t++) {
        gts_randtree_params p = {
            .struct_size = sizeof p, .seed = 0x3a3a + (uint64_t)t,
            .branching = 2 + (uint32_t)t % 4, .depth = 1 + (uint32_t)(t / 4) % 6,
            .min_value = -1000, .max_value = 1000, .branching_jitter = (uint32_t)t % 3,
            .terminal_percent = (uint32_t)(t % 4) * 5,
        };
        void *s;
        cr_assert_eq(gts_randtree_new(&p, &s), GTS_OK);
        const gts_game *g = gts_game_randtree();
        uint64_t key = g->hash(s, g->user);
        if (t % 2)
            cr_assert_eq(gts_engine_set(e, GTS_OPT_MMA_P, 1 + t % 400), GTS_OK);
        gts_result a = run(e, GTS_ALG_MMA, g, s, (int)p.depth, 0);
        gts_result want = run(m, GTS_ALG_MINIMAX, g, s, (int)p.depth, 0);
        cr_assert_eq(a.score, want.score, "tree %d: MMA %d, minimax %d", t, a.score, want.score);
        cr_assert_eq(a.flags & (GTS_RESULT_NODE_LIMIT | GTS_RESULT_MEMORY_LIMIT), 0u);
        /* The move is a minimax-best one: its subtree has the root's value. */
        cr_assert_eq(g->apply(s, a.best_move, g->user), 0);
        gts_score v = p.depth > 1 ? -run(m, GTS_ALG_MINIMAX, g, s, (int)p.depth - 1, 0).score
                                  : -g->evaluate(s, g->user);
        gts_move buf[64];
        if (g->generate(s, buf, 64, g->user) == 0)
            v = -g->evaluate(s, g->user);
        cr_assert_eq(g->undo(s, a.best_move, g->user), 0);
        cr_assert_eq(v, want.score, "tree %d: MMA's move is worth %d, not %d", t, v, want.score);
        cr_assert_eq(g->hash(s, g->user), key, "tree %d: state restored", t);
        gts_games_free(g, s);
    }
    gts_engine_free(e);
    gts_engine_free(m);
}

/* Under a budget MMA grows the tree selectively: deeper than a full-width
 * tree of as many nodes would be. */
Test(mma, budgets_and_selectivity)
{
    tgame g;
    tgame_init(&g, 77, 6, 12);
    gts_game v = tgame_vtable(&g, false);
    gts_engine *e = engine();
    gts_result r = run(e, GTS_ALG_MMA, &v, &g, 12, 3000);
    cr_expect(r.flags & GTS_RESULT_NODE_LIMIT);
    cr_expect(r.flags & GTS_RESULT_HAS_MOVE);
    cr_expect_lt(r.best_move, 6u);
    cr_expect_gt(r.depth, 4, "3,000 nodes of a 6-way tree reach ply 4 breadth-first; MMA "
                 "went to %d", r.depth);
    cr_expect_eq(g.ply, 0);

    cr_assert_eq(gts_engine_set(e, GTS_OPT_TREE_MB, 1), GTS_OK);
    r = run(e, GTS_ALG_MMA, &v, &g, 12, 0);
    cr_expect(r.flags & GTS_RESULT_MEMORY_LIMIT, "flags %#x", r.flags);
    cr_expect(r.flags & GTS_RESULT_HAS_MOVE);
    cr_expect_eq(g.ply, 0);
    cr_expect_eq(gts_engine_set(e, GTS_OPT_MMA_P, 0), GTS_ERANGE, "p = 0 is refused");
    cr_expect_eq(gts_engine_set(e, GTS_OPT_MMA_P, 1001), GTS_ERANGE);
    gts_engine_free(e);
}

Test(mma, failing_callbacks)
{
    for (int k = 0; k < 3; k++) {
        tgame g;
        tgame_faults f = {0};
        if (k == 0)
            f.fail_apply_at = 150;
        else if (k == 1)
            f.fail_evaluate_at = 150;
        else
            f.fail_generate_at = 150;
        tgame_init(&g, 8, 3, 6);
        g.f = &f;
        gts_game v = tgame_vtable(&g, false);
        gts_engine *e = engine();
        gts_limits l = {.struct_size = sizeof l, .depth = 6};
        gts_result r = {.struct_size = sizeof r};
        cr_expect_eq(gts_mma(e, &v, &g, &l, &r), GTS_ECALLBACK, "fault %d", k);
        cr_expect_lt(r.callback_status, 0);
        cr_expect_eq(g.ply, 0, "fault %d: state restored", k);
        gts_engine_free(e);
    }
}
