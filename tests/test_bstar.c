/* Berliner's B* (GTS_ALG_BSTAR): with sound bounds and no limit it proves a
 * minimax-best move; margins, limits, the tree budget and failures. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "fixture.h"

static gts_result run(gts_engine *e, gts_algorithm alg, const gts_game *g, void *s, int depth)
{
    return fx_search(e, alg, g, s, depth, 0);
}

static const uint32_t LIMIT_FLAGS = GTS_RESULT_NODE_LIMIT | GTS_RESULT_TIME_LIMIT |
                                    GTS_RESULT_STOPPED | GTS_RESULT_MEMORY_LIMIT;

/* The minimax value of the root after @m (from the root's side). */
static gts_score value_after(gts_engine *m, const gts_game *g, void *s, gts_move mv, int depth)
{
    cr_assert_eq(g->apply(s, mv, g->user), 0);
    gts_score v = depth > 1 ? -run(m, GTS_ALG_MINIMAX, g, s, depth - 1).score
                            : -g->evaluate(s, g->user);
    if (g->generate(s, (gts_move[64]){0}, 64, g->user) == 0)
        v = -g->evaluate(s, g->user);
    cr_assert_eq(g->undo(s, mv, g->user), 0);
    /* A decided score is one ply further from the end seen from the root. */
    if (v >= GTS_SCORE_DECIDED)
        v--;
    else if (v <= -GTS_SCORE_DECIDED)
        v++;
    return v;
}

Test(bstar, proves_a_minimax_best_move_on_500_random_trees)
{
    gts_engine *e = fx_engine(), *m = fx_engine();
    int proved = 0;
    for (int t = 0; t < 500; t++) {
        gts_randtree_params p = fx_sweep_tree(0xb5, t, 2, 5, 100, 2, 3, 10);
        const gts_game *g;
        uint64_t key;
        void *s = fx_randtree(&p, &g, &key);
        int depth = (int)p.depth;
        gts_result b = run(e, GTS_ALG_BSTAR, g, s, depth);
        gts_result want = run(m, GTS_ALG_MINIMAX, g, s, depth);
        cr_assert_eq(g->hash(s, g->user), key, "tree %d: state restored", t);
        cr_assert(b.flags & GTS_RESULT_HAS_MOVE, "tree %d", t);
        cr_assert_eq(b.flags & LIMIT_FLAGS, 0u, "tree %d: ended by separation", t);
        proved++;
        gts_score got = value_after(m, g, s, b.best_move, depth);
        cr_assert_eq(got, want.score, "tree %d (b %u, d %d): B*'s move is worth %d, minimax %d",
                     t, p.branching, depth, got, want.score);
        cr_assert(b.score <= want.score, "tree %d: the pessimistic value is a lower bound", t);
        if (!(b.flags & GTS_RESULT_LOWER_BOUND))
            cr_assert_eq(b.score, want.score, "tree %d: an exact score is the value", t);
        gts_games_free(g, s);
    }
    cr_expect_eq(proved, 500);
    gts_engine_free(e);
    gts_engine_free(m);
}

Test(bstar, never_picks_a_losing_tictactoe_move)
{
    const gts_game *g = gts_game_tictactoe();
    gts_engine *e = fx_engine(), *m = fx_engine();
    /* Positions after 0..4 plies of every opening line, 3 apart. */
    static const char *const OPENINGS[] = {"", "5", "1", "2", "51", "52", "15", "19", "1594",
                                           "5137", "123", "5946", "7351"};
    for (size_t i = 0; i < sizeof OPENINGS / sizeof OPENINGS[0]; i++) {
        void *s;
        cr_assert_eq(gts_tictactoe_new(OPENINGS[i], &s), GTS_OK, "%s", OPENINGS[i]);
        gts_result b = run(e, GTS_ALG_BSTAR, g, s, 0);
        gts_result want = run(m, GTS_ALG_MINIMAX, g, s, 0);
        gts_score got = value_after(m, g, s, b.best_move, 9);
        cr_expect_eq(got, want.score, "%s: B*'s move is worth %d, the position %d", OPENINGS[i],
                     got, want.score);
        gts_games_free(g, s);
    }
    gts_engine_free(e);
    gts_engine_free(m);
}

/* Without bounds(): margin 0 (the default) keeps the ranges sound (mate
 * distance), so B* returns the minimax move and value; a margin makes the
 * ranges guesses, and B* ends by separation on a legal move. */
Test(bstar, without_bounds_exact_or_heuristic)
{
    for (int t = 0; t < (int)tgame_count(100); t++) {
        tgame g;
        tgame_init(&g, 300 + (uint64_t)t, 2 + t % 3, 1 + t % 4);
        g.win_leaves = t % 2 == 0;
        gts_game v = tgame_vtable(&g, false);
        gts_engine *e = fx_engine(), *m = fx_engine();
        gts_result r = run(e, GTS_ALG_BSTAR, &v, &g, g.depth);
        gts_result want = run(m, GTS_ALG_MINIMAX, &v, &g, g.depth);
        cr_expect_eq(r.score, want.score, "tree %d: B* %d, minimax %d", t, r.score, want.score);
        cr_expect_eq(r.flags & GTS_RESULT_LOWER_BOUND, 0u);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_BSTAR_MARGIN, 1 + t), GTS_OK);
        r = run(e, GTS_ALG_BSTAR, &v, &g, g.depth);
        cr_expect_eq(r.flags & LIMIT_FLAGS, 0u, "tree %d: ended by itself", t);
        cr_expect_lt(r.best_move, (gts_move)g.branching);
        cr_expect_eq(g.ply, 0);
        gts_engine_free(e);
        gts_engine_free(m);
    }
}

Test(bstar, limits_and_the_tree_budget)
{
    tgame g;
    gts_game v = tgame_new(&g, 5, 8, 10, false);
    gts_engine *e = fx_engine();
    gts_result r = fx_expect_node_limit(gts_bstar, e, &v, &g, 10, 2000);
    cr_expect_lt(r.best_move, 8u);

    /* 1 MiB of tree, a tree of 8^10 nodes: the budget ends it. */
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TREE_MB, 1), GTS_OK);
    gts_limits l = {.struct_size = sizeof l, .depth = 10};
    cr_assert_eq(gts_bstar(e, &v, &g, &l, &r), GTS_OK);
    cr_expect(r.flags & GTS_RESULT_MEMORY_LIMIT, "flags %#x", r.flags);
    cr_expect(r.flags & GTS_RESULT_HAS_MOVE);
    cr_expect_lt(r.best_move, 8u);
    cr_expect_eq(g.ply, 0);
    gts_engine_free(e);
}

Test(bstar, failing_callbacks)
{
    static const fx_fault kinds[] = {FX_FAIL_APPLY, FX_FAIL_EVALUATE};
    fx_expect_callback_failures(gts_bstar, kinds, 2, 200);
}

/* Sound but loose bounds on a tgame: the range of the node's negamax values
 * over every horizon (1 .. the plies left: the tgame has no extension and
 * no quiescence, so these are all of them), widened on each side by a slack
 * drawn from the node's key, up to @slack. Each node's slack differs from
 * its children's, so a parent often knows a tighter range than its
 * children give: the case where backing up must intersect, not overwrite. */
typedef struct loose {
    gts_game v; /* the tgame's own vtable, for the reference negamax */
    int slack;
} loose;

static int loose_bounds(void *st, gts_score *lo, gts_score *hi, void *user)
{
    tgame *g = st;
    const loose *L = user;
    int left = g->depth - g->ply;
    gts_score l = GTS_SCORE_INF, h = -GTS_SCORE_INF;
    for (int k = 1; k <= left; k++) {
        gts_score v = tgame_negamax(g, &L->v, k, 0);
        l = v < l ? v : l;
        h = v > h ? v : h;
    }
    if (left <= 0) /* a finished game: its own value */
        l = h = tgame_negamax(g, &L->v, 0, 0);
    uint64_t key = tgame_mix(g->path[g->ply] ^ 0x5eed);
    if (L->slack > 0) {
        l -= (gts_score)(key % (uint64_t)(L->slack + 1));
        h += (gts_score)((key >> 20) % (uint64_t)(L->slack + 1));
    }
    *lo = l < GTS_SCORE_LOSS ? GTS_SCORE_LOSS : l;
    *hi = h > GTS_SCORE_WIN ? GTS_SCORE_WIN : h;
    return 0;
}

static gts_game loose_vtable(const tgame *g, loose *L, int slack)
{
    L->v = tgame_vtable(g, false);
    L->slack = slack;
    gts_game v = L->v;
    v.bounds = loose_bounds;
    v.user = L;
    return v;
}

static gts_result run_nodes(gts_engine *e, const gts_game *g, void *s, int depth, uint64_t nodes)
{
    gts_result r = fx_search(e, GTS_ALG_BSTAR, g, s, depth, nodes);
    return r;
}

/* What every B* result must satisfy (issue 31): a proved value (the best
 * move's range closed, no bound flag) is the value at the depth asked for,
 * as an exact algorithm reports it; otherwise the depth is no more than the
 * deepest ply reached and the principal line's length. */
static void assert_depths(const gts_result *r, int t, int asked)
{
    cr_assert_eq(r->pv[0], r->best_move, "tree %d", t);
    if (!(r->flags & GTS_RESULT_LOWER_BOUND)) {
        cr_assert_eq(r->depth, asked, "tree %d: proved at depth %d of %d", t, r->depth, asked);
        return;
    }
    cr_assert_leq(r->depth, r->seldepth, "tree %d: depth %d, seldepth %d", t, r->depth,
                  r->seldepth);
    cr_assert_leq(r->depth, (int32_t)r->pv_length, "tree %d: depth %d, pv %u", t, r->depth,
                  r->pv_length);
    cr_assert_geq(r->depth, 1, "tree %d", t);
}

/* With sound but loose (and, for a third of the trees, tight) bounds and no
 * limit, B* ends by itself (separation, then the best move's range closed)
 * with the minimax value and a minimax-best move, at every depth up to the
 * tree's, with decided leaves in half the trees, at 1..3 threads. */
Test(bstar, loose_sound_bounds_exact_against_minimax)
{
    for (int t = 0; t < (int)tgame_count(600); t++) {
        tgame g;
        tgame_init(&g, 7000 + (uint64_t)t, 2 + t % 4, 2 + (t / 4) % 5);
        g.win_leaves = (t / 2) % 2 == 0;
        loose L;
        int slack = t % 3 == 0 ? 0 : t % 3 == 1 ? 20 : 400;
        gts_game v = loose_vtable(&g, &L, slack);
        int depth = 1 + t % g.depth;
        gts_engine *e = fx_engine(), *m = fx_engine();
        /* B* is serial: a thread count changes nothing. */
        cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, 1 + t % 3), GTS_OK);
        gts_result r = run(e, GTS_ALG_BSTAR, &v, &g, depth);
        gts_result want = run(m, GTS_ALG_MINIMAX, &L.v, &g, depth);
        cr_assert_eq(g.ply, 0);
        cr_assert_eq(r.flags & LIMIT_FLAGS, 0u, "tree %d: ended by itself", t);
        cr_assert_eq(r.flags & GTS_RESULT_LOWER_BOUND, 0u, "tree %d: proved", t);
        cr_assert_eq(r.score, want.score, "tree %d (b %d, d %d, slack %d): B* %d, minimax %d",
                     t, g.branching, depth, slack, r.score, want.score);
        gts_score got = value_after(m, &L.v, &g, r.best_move, depth);
        cr_assert_eq(got, want.score, "tree %d: B*'s move is worth %d, minimax %d", t, got,
                     want.score);
        cr_assert_eq(r.depth, depth, "tree %d: a proved value is the value at depth %d", t,
                     depth);
        assert_depths(&r, t, depth);
        gts_engine_free(e);
        gts_engine_free(m);
    }
}

/* Ranges only narrow. The score B* returns at a node limit is the best
 * pessimistic value among the root's moves, and a search stopped later (more
 * nodes) is the same search run further (the limit is polled, so the search
 * stops near it, not exactly at it: compare by the nodes searched). If no
 * range ever widens, that score never falls as the nodes grow, and it never
 * exceeds the minimax value. Overwriting a range with the children's (the
 * old back-up) lowered it when a node with a tight range of its own was
 * expanded into children with loose ones. */
Test(bstar, ranges_only_narrow_as_the_node_limit_grows)
{
    enum { MAXN = 4096 };
    uint64_t *at = malloc(MAXN * sizeof *at);
    gts_score *sc = malloc(MAXN * sizeof *sc);
    cr_assert(at && sc);
    for (int t = 0; t < (int)tgame_count(120); t++) {
        tgame g;
        tgame_init(&g, 9100 + (uint64_t)t, 2 + t % 3, 3 + t % 3);
        g.win_leaves = t % 2 == 0;
        loose L;
        gts_game v = loose_vtable(&g, &L, t % 2 ? 30 : 300);
        gts_engine *e = fx_engine(), *m = fx_engine();
        gts_score want = run(m, GTS_ALG_MINIMAX, &L.v, &g, g.depth).score;
        bool ended = false;
        int runs = 0;
        for (uint64_t n = 1; n < MAXN && !ended; n++) {
            gts_result r = run_nodes(e, &v, &g, g.depth, n);
            cr_assert_eq(g.ply, 0);
            cr_assert(r.flags & GTS_RESULT_HAS_MOVE, "tree %d", t);
            cr_assert_leq(r.score, want, "tree %d, %llu nodes: %d above the value %d", t,
                          (unsigned long long)r.nodes, r.score, want);
            for (int i = 0; i < runs; i++)
                cr_assert(at[i] <= r.nodes ? sc[i] <= r.score : sc[i] >= r.score,
                          "tree %d: %d after %llu nodes, %d after %llu: the pessimistic value "
                          "fell", t, sc[i], (unsigned long long)at[i], r.score,
                          (unsigned long long)r.nodes);
            assert_depths(&r, t, g.depth);
            at[runs] = r.nodes;
            sc[runs++] = r.score;
            ended = (r.flags & LIMIT_FLAGS) == 0;
            if (ended)
                cr_assert_eq(r.score, want, "tree %d", t);
        }
        cr_assert(ended, "tree %d ended", t);
        gts_engine_free(e);
        gts_engine_free(m);
    }
    free(at);
    free(sc);
}

/* ---- Berliner's termination, on hand-built trees --------------------------
 * A two-ply tree with given bounds: root moves A and B, each with two
 * leaves. Values from the side to move at each node; A is worth 15 to the
 * root and B -40. When the root's expansion already separates A (its
 * pessimistic value at least B's optimistic one), B* never expands B: it
 * only proves A's value (Berliner stops at separation; the library then
 * proves the best move's value). When it does not, the wider range is
 * searched first (DisproveRest on B here), and the search stops as soon
 * as A is separated and proved, A's two leaves and no more. */
typedef fx_xnode hnode; /* fixture.h's table tree, with bounds */

static gts_result h_search(hnode *nodes)
{
    gts_game g = fx_xtree_game(2, FX_X_BOUNDS);
    fx_xtree t = {.nodes = nodes};
    gts_engine *e = fx_engine();
    gts_result r = run(e, GTS_ALG_BSTAR, &g, &t, 2);
    gts_engine_free(e);
    cr_assert_eq(t.ply, 0);
    return r;
}

Test(bstar, stops_at_separation_then_proves_the_best_move)
{
    /* 0 root; 1 A, 2 B; 3, 4 A's leaves; 5, 6 B's leaves. */
    hnode sep[7] = {
        {.n = 2, .child = {1, 2}, .lo = -100, .hi = 100},
        {.n = 2, .child = {3, 4}, .lo = -20, .hi = -10}, /* A: 15 to the root, seen as [10, 20] */
        {.n = 2, .child = {5, 6}, .lo = -5, .hi = 50},   /* B: -40 to the root, seen as [-50, 5] */
        {.value = 15}, {.value = 18}, {.value = 0}, {.value = -40},
    };
    gts_result r = h_search(sep);
    cr_expect_eq(r.best_move, 0u);
    cr_expect_eq(r.score, 15);
    cr_expect_eq(r.flags & (LIMIT_FLAGS | GTS_RESULT_LOWER_BOUND), 0u, "flags %#x", r.flags);
    cr_expect_eq(sep[2].generated, 0, "B was expanded after the separation");
    cr_expect_eq(sep[1].generated, 1, "A's value proved by one expansion");
    cr_expect_eq(r.nodes, 5u, "the root, A, B and A's two leaves: %llu",
                 (unsigned long long)r.nodes);

    /* A seen as [0, 20]: not separated from B's [-50, 5]. B's range is the
     * wider: DisproveRest expands B (-40), which separates A; A is then
     * proved, and nothing else is searched. */
    hnode open[7] = {
        {.n = 2, .child = {1, 2}, .lo = -100, .hi = 100},
        {.n = 2, .child = {3, 4}, .lo = -20, .hi = 0},
        {.n = 2, .child = {5, 6}, .lo = -5, .hi = 50},
        {.value = 15}, {.value = 18}, {.value = 0}, {.value = -40},
    };
    r = h_search(open);
    cr_expect_eq(r.best_move, 0u);
    cr_expect_eq(r.score, 15);
    cr_expect_eq(r.flags & (LIMIT_FLAGS | GTS_RESULT_LOWER_BOUND), 0u, "flags %#x", r.flags);
    cr_expect_eq(open[2].generated, 1);
    cr_expect_eq(open[1].generated, 1);
    cr_expect_eq(r.nodes, 7u, "%llu", (unsigned long long)r.nodes);
    cr_expect_eq(r.depth, 2);
    cr_expect_eq(r.pv_length, 2u);
}
