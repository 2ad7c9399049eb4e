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
