/*
 * test_mcts_inject.c - gts_mcts_inject(): root statistics of other
 * searches added to the kept tree (the primitive of libgts-mpi's
 * distributed MCTS). The reference is another engine's own search: the
 * sums after an injection are the two searches' sums, the next search
 * continues from them (its selection follows them, a proof in them ends
 * it), and a bad entry changes nothing.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gts/gts.h>
#include "gts_games.h"

enum { CAP = 16 };

static gts_engine *engine(int64_t playouts, int64_t seed)
{
    gts_engine *e;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, playouts), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_SEED, seed), GTS_OK);
    return e;
}

static void search(gts_engine *e, const gts_game *g, void *s, gts_result *r)
{
    *r = (gts_result){.struct_size = sizeof *r};
    cr_assert_eq(gts_mcts(e, g, s, NULL, r), GTS_OK);
}

static int stats(gts_engine *e, gts_mcts_move_stats *st)
{
    memset(st, 0, CAP * sizeof *st);
    st[0].struct_size = sizeof st[0];
    int n = gts_mcts_root_stats(e, st, CAP);
    cr_assert(n > 0 && n <= CAP, "root stats: %d", n);
    return n;
}

static uint64_t total(const gts_mcts_move_stats *st, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v += st[i].visits;
    return v;
}

static const gts_game *c4(void **s)
{
    cr_assert_eq(gts_connect4_new("44", s), GTS_OK);
    return gts_game_connect4();
}

Test(mcts_inject, sums_are_both_searches_and_the_next_search_continues_them)
{
    void *s;
    const gts_game *g = c4(&s);
    gts_engine *a = engine(700, 1), *b = engine(500, 2);
    gts_result r;
    search(a, g, s, &r);
    search(b, g, s, &r);
    gts_mcts_move_stats sa[CAP], sb[CAP], sum[CAP];
    int n = stats(a, sa);
    cr_assert_eq(stats(b, sb), n);
    cr_assert_eq(gts_mcts_inject(b, sa, n), 1);
    cr_assert_eq(stats(b, sum), n);
    for (int i = 0; i < n; i++) {
        cr_assert_eq(sum[i].move, sb[i].move);
        cr_assert_eq(sum[i].visits, sa[i].visits + sb[i].visits, "move %d visits", i);
        double want = sa[i].mean * (double)sa[i].visits + sb[i].mean * (double)sb[i].visits;
        cr_assert(fabs(sum[i].mean * (double)sum[i].visits - want) < 1e-6, "move %d rewards", i);
    }
    cr_assert_eq(total(sum, n), 1200);
    /* The tree holds them: the next search adds its 500 playouts to 1200. */
    cr_assert_eq(gts_mcts_advance(b, NULL, 0, NULL), 1);
    search(b, g, s, &r);
    cr_assert_eq(stats(b, sum), n);
    cr_assert_eq(total(sum, n), 1700);
    for (int i = 0; i < n; i++)
        cr_assert_geq(sum[i].visits, sa[i].visits + sb[i].visits);
    gts_engine_free(a);
    gts_engine_free(b);
    gts_games_free(g, s);
}

Test(mcts_inject, selection_follows_the_injected_statistics)
{
    void *s;
    const gts_game *g = c4(&s);
    gts_engine *e = engine(50, 3);
    gts_result r;
    search(e, g, s, &r);
    gts_mcts_move_stats st[CAP], add[CAP];
    int n = stats(e, st);
    /* Another search "found" that the last move wins almost always, and
     * that every other one loses. */
    memset(add, 0, sizeof add);
    for (int i = 0; i < n; i++) {
        add[i].struct_size = sizeof add[i];
        add[i].move = st[i].move;
        add[i].visits = 2000;
        add[i].mean = i == n - 1 ? 0.99 : 0.01;
        add[i].lower = GTS_SCORE_LOSS;
        add[i].upper = GTS_SCORE_WIN;
    }
    cr_assert_eq(gts_mcts_inject(e, add, n), 1);
    cr_assert_eq(gts_mcts_advance(e, NULL, 0, NULL), 1);
    search(e, g, s, &r);
    cr_assert_eq(r.best_move, st[n - 1].move);
    stats(e, st);
    /* UCB keeps its 50 new playouts on the move with the high mean. */
    cr_assert_geq(st[n - 1].visits, 2000 + 40);
    gts_engine_free(e);
    gts_games_free(g, s);
}

Test(mcts_inject, a_proof_injected_ends_the_next_search)
{
    void *s;
    cr_assert_eq(gts_tictactoe_new("", &s), GTS_OK);
    const gts_game *g = gts_game_tictactoe();
    gts_engine *a = engine(0, 1), *b = engine(30, 2);
    gts_result r;
    search(a, g, s, &r); /* to the proof: a draw */
    cr_assert_eq(r.score, 0);
    gts_mcts_move_stats sa[CAP], sb[CAP];
    int n = stats(a, sa);
    search(b, g, s, &r);
    stats(b, sb);
    for (int i = 0; i < n; i++) /* 30 playouts prove nothing */
        cr_assert_neq(sb[i].lower, sb[i].upper, "move %d proven", i);
    cr_assert_eq(gts_mcts_inject(b, sa, n), 1);
    stats(b, sb);
    for (int i = 0; i < n; i++) {
        cr_assert_eq(sb[i].lower, sa[i].lower);
        cr_assert_eq(sb[i].upper, sa[i].upper);
    }
    cr_assert_eq(gts_mcts_advance(b, NULL, 0, NULL), 1);
    cr_assert_eq(gts_engine_set(b, GTS_OPT_MCTS_PLAYOUTS, 0), GTS_OK);
    search(b, g, s, &r); /* no budget: ends only because the root is proven */
    cr_assert_eq(r.score, 0);
    cr_assert_eq(r.depth, GTS_MAX_DEPTH);
    gts_engine_free(a);
    gts_engine_free(b);
    gts_games_free(g, s);
}

Test(mcts_inject, bad_entries_change_nothing)
{
    void *s;
    const gts_game *g = c4(&s);
    gts_engine *e = engine(100, 4);
    cr_assert_eq(gts_mcts_inject(NULL, NULL, 0), GTS_EINVAL);
    cr_assert_eq(gts_mcts_inject(e, NULL, 0), 0); /* no tree yet */
    gts_result r;
    search(e, g, s, &r);
    gts_mcts_move_stats st[CAP], bad[CAP], after[CAP];
    int n = stats(e, st);
    cr_assert_eq(gts_mcts_inject(e, NULL, 3), GTS_EINVAL);
    cr_assert_eq(gts_mcts_inject(e, NULL, -1), GTS_EINVAL);
    for (int k = 0; k < 8; k++) {
        memcpy(bad, st, sizeof bad);
        gts_status want = GTS_EINVAL;
        int nn = n;
        switch (k) {
        case 0: nn = n - 1; break;
        case 1: bad[2].move = bad[3].move; break;
        case 2: bad[n - 1].mean = 1.5; break;
        case 3: bad[1].lower = bad[1].upper + 1; break;
        case 4: bad[1].upper = GTS_SCORE_WIN + 1; break;
        case 5: bad[0].visits = UINT64_C(1) << 40; break;
        case 6: bad[0].struct_size = 3; want = GTS_ESTRUCT; break;
        case 7: bad[4].struct_size = sizeof bad[4] - sizeof(double); want = GTS_ESTRUCT; break;
        }
        cr_assert_eq(gts_mcts_inject(e, bad, nn), want, "case %d", k);
        cr_assert_eq(stats(e, after), n);
        cr_assert_eq(memcmp(after, st, sizeof after), 0, "case %d changed the statistics", k);
    }
    /* With reuse off no tree is kept: nothing to add to. */
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_REUSE, 0), GTS_OK);
    search(e, g, s, &r);
    n = stats(e, st);
    cr_assert_eq(gts_mcts_inject(e, st, n), 0);
    gts_engine_free(e);
    gts_games_free(g, s);
}

/* ---- below the root: gts_mcts_node_stats(), gts_mcts_inject_at() (since 0.3) ---- */

static int node_stats(gts_engine *e, const gts_move *path, int depth, gts_mcts_move_stats *st)
{
    memset(st, 0, CAP * sizeof *st);
    st[0].struct_size = sizeof st[0];
    return gts_mcts_node_stats(e, path, depth, st, CAP);
}

/* The most visited child of the node at @path (that node held expanded). */
static gts_move most_visited(gts_engine *e, const gts_move *path, int depth)
{
    gts_mcts_move_stats st[CAP];
    int n = node_stats(e, path, depth, st);
    cr_assert(n > 0, "node at depth %d: %d", depth, n);
    int best = 0;
    for (int i = 1; i < n; i++)
        if (st[i].visits > st[best].visits)
            best = i;
    return st[best].move;
}

Test(mcts_inject, at_the_root_it_is_the_root_injection)
{
    void *s;
    const gts_game *g = c4(&s);
    gts_engine *a = engine(700, 1), *b = engine(500, 2), *c = engine(500, 2);
    gts_result r;
    search(a, g, s, &r);
    search(b, g, s, &r);
    search(c, g, s, &r);
    gts_mcts_move_stats sa[CAP], root[CAP], node[CAP], sb[CAP], sc[CAP];
    int n = stats(a, sa);
    /* One tree: the node statistics at depth 0 are the root statistics. */
    cr_assert_eq(stats(b, root), n);
    cr_assert_eq(node_stats(b, NULL, 0, node), n);
    for (int i = 0; i < n; i++) {
        cr_assert_eq(node[i].move, root[i].move);
        cr_assert_eq(node[i].visits, root[i].visits);
        cr_assert_eq(node[i].amaf_visits, root[i].amaf_visits);
        cr_assert(fabs(node[i].mean - root[i].mean) < 1e-12);
        cr_assert_eq(node[i].lower, root[i].lower);
        cr_assert_eq(node[i].upper, root[i].upper);
    }
    /* b and c are the same search: inject and inject_at(depth 0) agree. */
    cr_assert_eq(gts_mcts_inject(b, sa, n), 1);
    cr_assert_eq(gts_mcts_inject_at(c, NULL, 0, sa, n), 1);
    cr_assert_eq(stats(b, sb), n);
    cr_assert_eq(stats(c, sc), n);
    cr_assert_eq(memcmp(sb, sc, sizeof sb), 0);
    gts_engine_free(a);
    gts_engine_free(b);
    gts_engine_free(c);
    gts_games_free(g, s);
}

Test(mcts_inject, below_the_root_only_the_nodes_children_grow)
{
    void *s;
    const gts_game *g = c4(&s);
    gts_engine *a = engine(3000, 1), *b = engine(2000, 2);
    gts_result r;
    search(a, g, s, &r);
    search(b, g, s, &r);
    gts_mcts_move_stats rb[CAP], rb2[CAP];
    int n = stats(b, rb);
    for (int depth = 1; depth <= 2; depth++) {
        /* a path both trees hold expanded: the most visited line of a */
        gts_move path[2];
        path[0] = most_visited(a, NULL, 0);
        if (depth == 2)
            path[1] = most_visited(a, path, 1);
        gts_mcts_move_stats sa[CAP], sb[CAP], sum[CAP], up[CAP], up2[CAP];
        int m = node_stats(a, path, depth, sa);
        cr_assert(m > 0);
        cr_assert_eq(node_stats(b, path, depth, sb), m, "b holds the node at depth %d", depth);
        cr_assert_gt(node_stats(b, path, depth - 1, up), 0); /* the node's parent */
        cr_assert_eq(gts_mcts_inject_at(b, path, depth, sa, m), 1);
        cr_assert_eq(node_stats(b, path, depth, sum), m);
        for (int i = 0; i < m; i++) {
            cr_assert_eq(sum[i].move, sb[i].move);
            cr_assert_eq(sum[i].visits, sa[i].visits + sb[i].visits, "depth %d move %d", depth, i);
            cr_assert_eq(sum[i].amaf_visits, sa[i].amaf_visits + sb[i].amaf_visits);
            double want = sa[i].mean * (double)sa[i].visits + sb[i].mean * (double)sb[i].visits;
            cr_assert(fabs(sum[i].mean * (double)sum[i].visits - want) < 1e-6);
            cr_assert_eq(sum[i].lower, sb[i].lower); /* ranges are not taken */
            cr_assert_eq(sum[i].upper, sb[i].upper);
        }
        /* the node itself (its parent's statistics) and the root do not change */
        cr_assert_eq(node_stats(b, path, depth - 1, up2), node_stats(b, path, depth - 1, up));
        cr_assert_eq(memcmp(up, up2, sizeof up), 0);
        cr_assert_eq(stats(b, rb2), n);
        cr_assert_eq(memcmp(rb, rb2, sizeof rb), 0);
    }
    gts_engine_free(a);
    gts_engine_free(b);
    gts_games_free(g, s);
}

Test(mcts_inject, selection_below_the_root_follows_the_injected_statistics)
{
    void *s;
    const gts_game *g = c4(&s);
    gts_engine *e = engine(200, 3);
    gts_result r;
    search(e, g, s, &r);
    gts_mcts_move_stats root[CAP], add[CAP], st[CAP];
    int n = stats(e, root);
    gts_move m = most_visited(e, NULL, 0);
    int k = node_stats(e, &m, 1, st);
    cr_assert(k > 1);
    /* The children of m: the first wins almost always for the side to
     * move there, every other one loses. */
    memset(add, 0, sizeof add);
    for (int i = 0; i < k; i++) {
        add[i].struct_size = sizeof add[i];
        add[i].move = st[i].move;
        add[i].visits = 1000;
        add[i].mean = i == 0 ? 0.99 : 0.01;
    }
    cr_assert_eq(gts_mcts_inject_at(e, &m, 1, add, k), 1);
    uint64_t before = st[0].visits, others = 0;
    for (int i = 1; i < k; i++)
        others += st[i].visits;
    cr_assert_eq(gts_mcts_advance(e, NULL, 0, NULL), 1);
    search(e, g, s, &r);
    cr_assert_eq(stats(e, root), n);
    cr_assert_eq(node_stats(e, &m, 1, st), k);
    uint64_t others_after = 0;
    for (int i = 1; i < k; i++)
        others_after += st[i].visits;
    /* the new playouts through m go to its first child (UCB: most of them) */
    uint64_t grew = st[0].visits - 1000 - before;
    cr_assert_gt(grew, 0);
    cr_assert_geq(grew, 4 * (others_after - 1000 * (uint64_t)(k - 1) - others),
                  "first child +%llu, the others +%llu", (unsigned long long)grew,
                  (unsigned long long)(others_after - 1000 * (uint64_t)(k - 1) - others));
    gts_engine_free(e);
    gts_games_free(g, s);
}

Test(mcts_inject, bad_input_below_the_root_changes_nothing)
{
    void *s;
    const gts_game *g = c4(&s);
    gts_engine *e = engine(500, 4);
    gts_mcts_move_stats st[CAP], bad[CAP], after[CAP];
    gts_move m = 3;
    cr_assert_eq(gts_mcts_inject_at(NULL, &m, 1, NULL, 0), GTS_EINVAL);
    cr_assert_eq(gts_mcts_node_stats(NULL, NULL, 0, NULL, 0), GTS_EINVAL);
    cr_assert_eq(gts_mcts_inject_at(e, &m, 1, NULL, 0), 0); /* no tree yet */
    cr_assert_eq(node_stats(e, &m, 1, st), 0);
    gts_result r;
    search(e, g, s, &r);
    m = most_visited(e, NULL, 0);
    int n = node_stats(e, &m, 1, st);
    cr_assert(n > 4);
    /* arguments */
    cr_assert_eq(gts_mcts_inject_at(e, NULL, 1, st, n), GTS_EINVAL);
    cr_assert_eq(gts_mcts_inject_at(e, &m, -1, st, n), GTS_EINVAL);
    cr_assert_eq(gts_mcts_inject_at(e, &m, GTS_MAX_DEPTH + 1, st, n), GTS_EINVAL);
    cr_assert_eq(gts_mcts_inject_at(e, &m, 1, NULL, n), GTS_EINVAL);
    cr_assert_eq(gts_mcts_inject_at(e, &m, 1, st, -1), GTS_EINVAL);
    cr_assert_eq(gts_mcts_node_stats(e, NULL, 1, st, CAP), GTS_EINVAL);
    cr_assert_eq(gts_mcts_node_stats(e, &m, -1, st, CAP), GTS_EINVAL);
    cr_assert_eq(gts_mcts_node_stats(e, &m, 1, NULL, 3), GTS_EINVAL);
    cr_assert_eq(gts_mcts_node_stats(e, &m, 1, st, -1), GTS_EINVAL);
    cr_assert_eq(gts_mcts_node_stats(e, &m, 1, NULL, 0), n); /* the count only */
    bad[0].struct_size = 3;
    cr_assert_eq(gts_mcts_node_stats(e, &m, 1, bad, CAP), GTS_ESTRUCT);
    /* a path the tree does not hold: nothing to read or add to */
    gts_move no[2] = { m, 77 };
    cr_assert_eq(gts_mcts_node_stats(e, no, 2, NULL, 0), 0);
    cr_assert_eq(gts_mcts_inject_at(e, no, 2, st, n), 0);
    /* entries */
    for (int k = 0; k < 7; k++) {
        memcpy(bad, st, sizeof bad);
        gts_status want = GTS_EINVAL;
        int nn = n;
        switch (k) {
        case 0: nn = n - 1; break;
        case 1: bad[2].move = bad[3].move; break;
        case 2: bad[n - 1].mean = 1.5; break;
        case 3: bad[1].amaf_mean = -0.5; break;
        case 4: bad[0].visits = UINT64_C(1) << 40; break;
        case 5: bad[0].struct_size = 3; want = GTS_ESTRUCT; break;
        case 6: bad[4].struct_size = sizeof bad[4] - sizeof(double); want = GTS_ESTRUCT; break;
        }
        cr_assert_eq(gts_mcts_inject_at(e, &m, 1, bad, nn), want, "case %d", k);
        cr_assert_eq(node_stats(e, &m, 1, after), n);
        cr_assert_eq(memcmp(after, st, sizeof after), 0, "case %d changed the statistics", k);
    }
    gts_engine_free(e);
    gts_games_free(g, s);
}
