/*
 * test_select.c - selective search of the alpha-beta node (issue 32):
 * null move, late-move reductions, futility pruning, razoring, late-move
 * pruning and repetition draws.
 *
 * Each technique is observed from the game's side, through its callbacks:
 * a test game records where passes are asked for and where a move is
 * skipped (a move applied after a later one in generate() order was left
 * out, with ordering off), so the conditions of each technique are checked
 * independently of the node's code. Repetition draws are checked against a
 * path-aware negamax written here, with the same rule.
 */
#include "fixture.h"

/* ---- sgame: a tgame with a pass and instruments ---------------------------- */

enum { SG_NOISY_NONE, SG_NOISY_LAST, SG_NOISY_ALL_BUT_FIRST };
static const gts_move SG_PASS_TAG = 1000;

typedef struct sgame {
    tgame t;              /* first: tgame's callbacks take an sgame */
    int null_ret;         /* null_apply's answer: 1 pass, 0 refuse */
    int noisy_mode;       /* SG_NOISY_* */
    int search_depth;     /* D of the fixed-depth search (instruments) */
    int static_eval;      /* != 0: evaluate() below ply D returns it */
    bool passed[GTS_MAX_PLY + 2]; /* the move into ply p was a pass */
    gts_move line[GTS_MAX_PLY + 2];
    int last[GTS_MAX_PLY + 2];    /* last child applied at the node at ply p */
    uint64_t null_calls, null_made, null_after_pass, null_on_leftmost, null_at_root;
    uint64_t null_deep;   /* passes asked for with 3+ plies to go (split nodes) */
    uint64_t short_leaves; /* evaluate() below the root above ply D, without a
                              static_eval */
    uint64_t skips, skips_on_leftmost, lmp_violations;
    int skip_max_depth, skip_min_depth;
    int lmp_base;         /* for lmp_violations: moves before a skip >= base + d^2 */
} sgame;

static bool sg_leftmost(const sgame *g)
{
    for (int p = 1; p <= g->t.ply; p++)
        if (g->line[p] != 0 || g->passed[p])
            return false;
    return true;
}

static int sg_apply(void *s, gts_move m, void *user)
{
    sgame *g = s;
    int p = g->t.ply; /* the node the move is played at */
    if (tgame_apply(s, m, user) < 0)
        return -1;
    if (g->last[p] >= 0 && (int)m > g->last[p] + 1) {
        /* a move of this node was left out, and a later one is searched */
        int d = g->search_depth - p;
        g->skips++;
        if (d > g->skip_max_depth)
            g->skip_max_depth = d;
        if (d < g->skip_min_depth)
            g->skip_min_depth = d;
        bool left = true;
        for (int q = 1; q <= p; q++)
            left = left && g->line[q] == 0 && !g->passed[q];
        if (left)
            g->skips_on_leftmost++;
        if (g->lmp_base && g->last[p] + 1 < g->lmp_base + d * d)
            g->lmp_violations++;
    }
    if ((int)m > g->last[p])
        g->last[p] = (int)m;
    g->line[p + 1] = m;
    g->passed[p + 1] = false;
    g->last[p + 1] = -1;
    return 0;
}

static int sg_null_apply(void *s, void *user)
{
    sgame *g = s;
    int p = g->t.ply;
    g->null_calls++;
    if (p == 0)
        g->null_at_root++;
    if (g->search_depth - p >= 3)
        g->null_deep++;
    if (g->passed[p])
        g->null_after_pass++;
    if (sg_leftmost(g))
        g->null_on_leftmost++;
    if (!g->null_ret)
        return 0;
    g->null_made++;
    tgame_apply(s, SG_PASS_TAG, user);
    g->line[p + 1] = SG_PASS_TAG;
    g->passed[p + 1] = true;
    g->last[p + 1] = -1;
    return 1;
}

static int sg_null_undo(void *s, void *user)
{
    return tgame_undo(s, SG_PASS_TAG, user);
}

static int sg_noisy(void *s, gts_move *moves, uint32_t cap, void *user)
{
    sgame *g = s;
    if (g->t.ply >= g->t.depth)
        return 0;
    int b = g->t.branching;
    if (g->noisy_mode == SG_NOISY_LAST) {
        moves[0] = (gts_move)(b - 1);
        return 1;
    }
    if (g->noisy_mode == SG_NOISY_ALL_BUT_FIRST) {
        for (int i = 1; i < b; i++)
            moves[i - 1] = (gts_move)i;
        return b - 1;
    }
    return 0;
}

static gts_score sg_evaluate(void *s, void *user)
{
    sgame *g = s;
    if (g->static_eval && g->t.ply < g->search_depth)
        return g->static_eval;
    if (g->t.ply > 0 && g->t.ply < g->search_depth)
        g->short_leaves++;
    return tgame_evaluate(s, user);
}

static void *sg_clone(void *s, void *user) { return tgame_copy(s, sizeof(sgame)); }

/* An sgame of @branching x @depth plies from @seed, for searches to @d. */
static gts_game sg_new(sgame *g, uint64_t seed, int branching, int depth, int d)
{
    memset(g, 0, sizeof *g);
    gts_game v = tgame_new(&g->t, seed, branching, depth, true);
    v.apply = sg_apply;
    v.evaluate = sg_evaluate;
    v.clone = sg_clone;
    v.null_apply = sg_null_apply;
    v.null_undo = sg_null_undo;
    v.generate_noisy = sg_noisy;
    g->null_ret = 1;
    g->search_depth = d;
    g->skip_min_depth = GTS_MAX_PLY;
    for (int p = 0; p < GTS_MAX_PLY + 2; p++)
        g->last[p] = -1;
    return v;
}

/* An engine that searches moves in generate() order, to a fixed depth, with
 * no table (so that every node is searched where the instruments see it),
 * and the options @opts (pairs, ended by 0). */
static gts_engine *sg_engine(const int64_t *opts)
{
    gts_engine *e = fx_engine();
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_KILLERS, 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_HISTORY, 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_ITERATIVE, 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_QUIESCENCE, 0), GTS_OK);
    for (; opts && opts[0]; opts += 2)
        cr_assert_eq(gts_engine_set(e, (gts_option)opts[0], opts[1]), GTS_OK, "option %lld",
                     (long long)opts[0]);
    return e;
}

static void expect_sane(const gts_result *r, int branching, const char *what)
{
    cr_expect(r->flags & GTS_RESULT_HAS_MOVE, "%s: a move", what);
    cr_expect(r->best_move < (gts_move)branching, "%s: a legal move", what);
    cr_expect(r->score >= -100 && r->score <= 100, "%s: score %d within the leaves' range",
              what, r->score);
}

/* The exact algorithms that honour the selective options and repetition
 * draws (ProbCut honours them too, but is not exact). */
static const gts_algorithm SEL_ALGS[] = {
    GTS_ALG_ALPHABETA, GTS_ALG_PVS,     GTS_ALG_ABDADA,  GTS_ALG_LAZYSMP, GTS_ALG_YBWC,
    GTS_ALG_JAMBOREE,  GTS_ALG_PVSPLIT, GTS_ALG_DTS,     GTS_ALG_ROOTSPLIT,
};

/* ---- null move ----------------------------------------------------------------- */

Test(select, no_pass_when_off_unavailable_or_ignored)
{
    sgame g;
    gts_game v = sg_new(&g, 11, 5, 20, 6);
    gts_engine *e = sg_engine(NULL);
    fx_search(e, GTS_ALG_PVS, &v, &g, 6, 0);
    cr_expect_eq(g.null_calls, 0, "option off: no pass asked for");

    int64_t on[] = {GTS_OPT_NULL_MOVE, 3, 0};
    gts_engine *e2 = sg_engine(on);
    gts_game half = v;
    half.null_undo = NULL;
    fx_search(e2, GTS_ALG_PVS, &half, &g, 6, 0);
    cr_expect_eq(g.null_calls, 0, "null_apply without null_undo: no pass asked for");
    gts_algorithm ignoring[] = {GTS_ALG_MTDF, GTS_ALG_ER, GTS_ALG_MINIMAX, GTS_ALG_SSSSTAR};
    for (size_t i = 0; i < sizeof ignoring / sizeof *ignoring; i++) {
        fx_search(e2, ignoring[i], &v, &g, 5, 0);
        cr_expect_eq(g.null_calls, 0, "%s ignores the option", gts_algorithm_name(ignoring[i]));
    }
    fx_search(e2, GTS_ALG_PVS, &v, &g, 6, 0);
    cr_expect_gt(g.null_calls, 0, "pvs with the option asks for passes");
    gts_engine_free(e);
    gts_engine_free(e2);
}

Test(select, refused_pass_changes_nothing)
{
    for (uint64_t seed = 1; seed <= 6; seed++) {
        sgame g;
        gts_game v = sg_new(&g, seed, 4, 20, 7);
        g.null_ret = 0;
        gts_engine *off = fx_engine_with(1, 4), *on = fx_engine_with(1, 4);
        cr_assert_eq(gts_engine_set(on, GTS_OPT_NULL_MOVE, 3), GTS_OK);
        gts_result a = fx_search(off, GTS_ALG_PVS, &v, &g, 7, 0);
        gts_result b = fx_search(on, GTS_ALG_PVS, &v, &g, 7, 0);
        cr_expect_gt(g.null_calls, 0, "asked");
        cr_expect_eq(g.null_made, 0);
        cr_expect_eq(a.score, b.score, "seed %llu: same value", (unsigned long long)seed);
        cr_expect_eq(a.best_move, b.best_move, "seed %llu: same move", (unsigned long long)seed);
        cr_expect_eq(a.nodes, b.nodes, "seed %llu: same nodes", (unsigned long long)seed);
        gts_engine_free(off);
        gts_engine_free(on);
    }
}

Test(select, pass_only_where_its_conditions_hold)
{
    int64_t on[] = {GTS_OPT_NULL_MOVE, 2, 0};
    gts_algorithm algs[] = {GTS_ALG_PVS, GTS_ALG_ALPHABETA};
    for (size_t a = 0; a < 2; a++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            sgame g;
            gts_game v = sg_new(&g, seed, 5, 20, 8);
            gts_engine *e = sg_engine(on);
            gts_result r = fx_search(e, algs[a], &v, &g, 8, 0);
            const char *n = gts_algorithm_name(algs[a]);
            if (algs[a] == GTS_ALG_PVS)
                cr_expect_gt(g.null_made, 0, "%s: passes were made", n);
            cr_expect_eq(g.null_at_root, 0, "%s: never at the root", n);
            cr_expect_eq(g.null_after_pass, 0, "%s: never twice in a row", n);
            cr_expect_eq(g.null_on_leftmost, 0, "%s: never on the first line (PV nodes)", n);
            expect_sane(&r, 5, n);
            gts_engine_free(e);
        }
}

Test(select, null_move_prunes)
{
    uint64_t with = 0, without = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        sgame g;
        gts_game v = sg_new(&g, seed, 6, 20, 7);
        gts_engine *off = fx_engine_with(1, 4), *on = fx_engine_with(1, 4);
        cr_assert_eq(gts_engine_set(on, GTS_OPT_NULL_MOVE, 3), GTS_OK);
        without += fx_search(off, GTS_ALG_PVS, &v, &g, 7, 0).nodes;
        gts_result r = fx_search(on, GTS_ALG_PVS, &v, &g, 7, 0);
        with += r.nodes;
        expect_sane(&r, 6, "pvs with null move");
        gts_engine_free(off);
        gts_engine_free(on);
    }
    cr_expect_lt(with, without, "null move searches fewer nodes (%llu vs %llu)",
                 (unsigned long long)with, (unsigned long long)without);
}

/* ---- late-move reductions ---------------------------------------------------------- */

Test(select, lmr_reduces_quiet_moves_only)
{
    int64_t on[] = {GTS_OPT_LMR, 100, 0};
    for (uint64_t seed = 1; seed <= 4; seed++) {
        sgame g;
        gts_game v = sg_new(&g, seed, 5, 20, 7);
        gts_engine *off = sg_engine(NULL), *e = sg_engine(on);
        g.noisy_mode = SG_NOISY_ALL_BUT_FIRST; /* the first move is never reduced */
        gts_result a = fx_search(off, GTS_ALG_PVS, &v, &g, 7, 0);
        gts_result b = fx_search(e, GTS_ALG_PVS, &v, &g, 7, 0);
        cr_expect_eq(a.nodes, b.nodes, "seed %llu: every late move noisy: nothing reduced",
                     (unsigned long long)seed);
        cr_expect_eq(a.score, b.score);
        g.noisy_mode = SG_NOISY_NONE;
        gts_result c = fx_search(e, GTS_ALG_PVS, &v, &g, 7, 0);
        cr_expect_lt(c.nodes, a.nodes, "seed %llu: quiet late moves are reduced",
                     (unsigned long long)seed);
        expect_sane(&c, 5, "pvs with lmr");
        gts_engine_free(off);
        gts_engine_free(e);
    }
}

/* ---- futility pruning, late-move pruning, razoring ------------------------------------ */

Test(select, futility_only_near_the_leaves)
{
    int64_t on[] = {GTS_OPT_FUTILITY, 100, 0};
    uint64_t skips = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        sgame g;
        gts_game v = sg_new(&g, seed, 5, 20, 7);
        g.noisy_mode = SG_NOISY_LAST; /* never pruned: shows the moves before it were */
        g.static_eval = -500;         /* every interior node looks hopeless */
        gts_engine *e = sg_engine(on);
        gts_result r = fx_search(e, GTS_ALG_PVS, &v, &g, 7, 0);
        skips += g.skips;
        cr_expect_leq(g.skip_max_depth, 3, "seed %llu: pruned only with 1..3 plies to go",
                      (unsigned long long)seed);
        cr_expect_eq(g.skips_on_leftmost, 0, "never on the first line (PV nodes)");
        expect_sane(&r, 5, "pvs with futility");
        /* Off, or where the static value leaves the node hope: nothing skipped. */
        sgame h;
        gts_game w = sg_new(&h, seed, 5, 20, 7);
        h.noisy_mode = SG_NOISY_LAST;
        h.static_eval = 500;
        fx_search(e, GTS_ALG_PVS, &w, &h, 7, 0);
        cr_expect_eq(h.skips, 0, "seed %llu: a hopeful node is not pruned",
                     (unsigned long long)seed);
        gts_engine_free(e);
    }
    cr_expect_gt(skips, 0, "futility pruned moves");
}

Test(select, lmp_by_move_count)
{
    /* 16 moves, base 2: 2 + d^2 is below 16 only at d = 3 (d = 1, 2 are
     * never pruned). */
    int64_t on[] = {GTS_OPT_LMP, 2, 0};
    uint64_t skips = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        sgame g;
        gts_game v = sg_new(&g, seed, 16, 20, 5);
        g.noisy_mode = SG_NOISY_LAST;
        g.lmp_base = 2;
        gts_engine *e = sg_engine(on);
        gts_result r = fx_search(e, GTS_ALG_PVS, &v, &g, 5, 0);
        skips += g.skips;
        cr_expect_eq(g.lmp_violations, 0, "seed %llu: pruned only after 2 + d^2 moves",
                     (unsigned long long)seed);
        cr_expect_leq(g.skip_max_depth, 3, "with 16 moves only d <= 3 can prune");
        cr_expect_geq(g.skip_min_depth, 3, "seed %llu: never with 1 or 2 plies to go, got %d",
                      (unsigned long long)seed, g.skip_min_depth);
        cr_expect_eq(g.skips_on_leftmost, 0, "never on the first line (PV nodes)");
        expect_sane(&r, 16, "pvs with lmp");
        gts_engine_free(e);
    }
    cr_expect_gt(skips, 0, "late-move pruning pruned moves");
}

Test(select, razoring_cuts_hopeless_nodes_near_the_leaves)
{
    int64_t on[] = {GTS_OPT_RAZOR, 50, 0};
    for (uint64_t seed = 1; seed <= 4; seed++) {
        sgame g, h;
        gts_game v = sg_new(&g, seed, 5, 20, 6);
        gts_game w = sg_new(&h, seed, 5, 20, 6);
        g.static_eval = h.static_eval = -500;
        gts_engine *off = sg_engine(NULL), *e = sg_engine(on);
        gts_result a = fx_search(off, GTS_ALG_PVS, &w, &h, 6, 0);
        gts_result b = fx_search(e, GTS_ALG_PVS, &v, &g, 6, 0);
        cr_expect_lt(b.nodes, a.nodes, "seed %llu: razoring cut nodes", (unsigned long long)seed);
        expect_sane(&b, 5, "pvs with razoring");
        gts_engine_free(off);
        gts_engine_free(e);
    }
}

/* ---- split nodes ------------------------------------------------------------------------ */

static void set_opts(gts_engine *e, const int64_t *o)
{
    for (; o[0]; o += 2)
        cr_assert_eq(gts_engine_set(e, (gts_option)o[0], o[1]), GTS_OK);
}

Test(select, split_nodes_search_as_the_serial_node)
{
    /* With one thread PV splitting, DTS and root splitting search the tree
     * PVS searches, in the same order: with the selective search on, their
     * split nodes must prune, reduce and pass where the serial node would,
     * node for node. Each technique alone, on a tree where it acts at
     * nodes with 3+ plies to go (DTS's split nodes), then all of them. */
    static const struct {
        int64_t opts[12];
        int branching, depth, static_eval;
    } cases[] = {
        {{GTS_OPT_NULL_MOVE, 3, 0}, 6, 7, 0},
        {{GTS_OPT_LMR, 100, 0}, 6, 7, 0},
        {{GTS_OPT_FUTILITY, 60, 0}, 6, 6, -500},
        {{GTS_OPT_RAZOR, 150, 0}, 6, 6, -500},
        {{GTS_OPT_LMP, 1, 0}, 12, 5, 0},
        {{GTS_OPT_NULL_MOVE, 3, GTS_OPT_LMR, 100, GTS_OPT_FUTILITY, 60, GTS_OPT_RAZOR, 150,
          GTS_OPT_LMP, 2, 0}, 6, 7, 0},
    };
    gts_algorithm algs[] = {GTS_ALG_PVSPLIT, GTS_ALG_DTS, GTS_ALG_ROOTSPLIT};
    for (size_t o = 0; o < sizeof cases / sizeof *cases; o++)
        for (uint64_t seed = 1; seed <= 3; seed++)
            for (size_t a = 0; a < sizeof algs / sizeof *algs; a++) {
                int b = cases[o].branching, d = cases[o].depth;
                sgame g, h;
                gts_game v = sg_new(&g, seed * 5, b, 20, d);
                gts_game w = sg_new(&h, seed * 5, b, 20, d);
                g.noisy_mode = h.noisy_mode = (int)(seed % 3);
                g.static_eval = h.static_eval = cases[o].static_eval;
                gts_engine *serial = fx_engine_with(1, 4), *split = fx_engine_with(1, 4);
                /* quiescence would follow sgame's noisy moves to its end */
                cr_assert_eq(gts_engine_set(serial, GTS_OPT_QUIESCENCE, 0), GTS_OK);
                cr_assert_eq(gts_engine_set(split, GTS_OPT_QUIESCENCE, 0), GTS_OK);
                set_opts(serial, cases[o].opts);
                set_opts(split, cases[o].opts);
                gts_result want = fx_search(serial, GTS_ALG_PVS, &v, &g, d, 0);
                gts_result got = fx_search(split, algs[a], &w, &h, d, 0);
                const char *n = gts_algorithm_name(algs[a]);
                cr_expect_eq(got.score, want.score, "%s case %zu seed %llu: score %d, pvs %d",
                             n, o, (unsigned long long)seed, got.score, want.score);
                cr_expect_eq(got.best_move, want.best_move, "%s case %zu seed %llu: move", n,
                             o, (unsigned long long)seed);
                cr_expect_eq(got.nodes, want.nodes, "%s case %zu seed %llu: %llu nodes, "
                             "pvs %llu", n, o, (unsigned long long)seed,
                             (unsigned long long)got.nodes, (unsigned long long)want.nodes);
                cr_expect_eq(h.null_made, g.null_made, "%s case %zu: the same passes", n, o);
                gts_engine_free(serial);
                gts_engine_free(split);
            }
}

Test(select, split_nodes_prune_and_reduce)
{
    /* Every node with 3+ plies to go is a split node of these (their split
     * depth): what happens there is the split nodes' doing. Passes and
     * reductions at 2 threads; the pruning at 1, where the instrument
     * that sees a skipped move works (at 2 a worker's copy of the game
     * sees only the moves it searched itself). */
    gts_algorithm algs[] = {GTS_ALG_YBWC, GTS_ALG_JAMBOREE, GTS_ALG_DTS};
    for (size_t a = 0; a < sizeof algs / sizeof *algs; a++) {
        const char *n = gts_algorithm_name(algs[a]);
        uint64_t deep = 0, lmp = 0, fut = 0, reduced = 0;
        for (uint64_t seed = 1; seed <= 3; seed++) {
            /* Null move: asked for at split nodes, never at the root, twice
             * in a row or on the first line. */
            int64_t nm[] = {GTS_OPT_NULL_MOVE, 2, 0};
            sgame g;
            gts_game v = sg_new(&g, seed, 5, 20, 7);
            gts_engine *e = sg_engine(nm);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, 2), GTS_OK);
            gts_result r = fx_search(e, algs[a], &v, &g, 7, 0);
            deep += g.null_deep;
            cr_expect_eq(g.null_at_root, 0, "%s: never at the root", n);
            cr_expect_eq(g.null_after_pass, 0, "%s: never twice in a row", n);
            cr_expect_eq(g.null_on_leftmost, 0, "%s: never on the first line", n);
            expect_sane(&r, 5, n);
            gts_engine_free(e);

            /* Late-move pruning: 1 + d^2 moves first, so at 3 plies to go
             * with 12 moves, the last two. */
            int64_t lp[] = {GTS_OPT_LMP, 1, 0};
            sgame h;
            gts_game w = sg_new(&h, seed, 12, 20, 5);
            h.noisy_mode = SG_NOISY_LAST;
            h.lmp_base = 1;
            e = sg_engine(lp);
            r = fx_search(e, algs[a], &w, &h, 5, 0);
            lmp += h.skip_max_depth >= 3;
            cr_expect_eq(h.lmp_violations, 0, "%s seed %llu: pruned only after 1 + d^2 moves", n,
                         (unsigned long long)seed);
            cr_expect_eq(h.skips_on_leftmost, 0, "%s: never on the first line", n);
            expect_sane(&r, 12, n);
            gts_engine_free(e);

            /* Futility: hopeless nodes with 3 plies to go. */
            int64_t ft[] = {GTS_OPT_FUTILITY, 100, 0};
            sgame f;
            gts_game u = sg_new(&f, seed, 5, 20, 6);
            f.noisy_mode = SG_NOISY_LAST;
            f.static_eval = -500;
            e = sg_engine(ft);
            r = fx_search(e, algs[a], &u, &f, 6, 0);
            fut += f.skip_max_depth == 3;
            cr_expect_leq(f.skip_max_depth, 3, "%s: futility only with 1..3 plies to go", n);
            expect_sane(&r, 5, n);
            gts_engine_free(e);

            /* Late-move reductions: the nodes below the split nodes have
             * 2 plies to go or fewer, where nothing is reduced: a leaf
             * above the horizon is a reduction at a split node; none when
             * every late move is noisy. */
            int64_t lr[] = {GTS_OPT_LMR, 100, 0};
            for (int noisy = 0; noisy < 2; noisy++) {
                sgame q;
                gts_game x = sg_new(&q, seed, 5, 20, 7);
                q.noisy_mode = noisy ? SG_NOISY_ALL_BUT_FIRST : SG_NOISY_NONE;
                e = sg_engine(lr);
                cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, 2), GTS_OK);
                r = fx_search(e, algs[a], &x, &q, 7, 0);
                if (noisy)
                    cr_expect_eq(q.short_leaves, 0, "%s seed %llu: a noisy move was reduced", n,
                                 (unsigned long long)seed);
                else
                    reduced += q.short_leaves;
                expect_sane(&r, 5, n);
                gts_engine_free(e);
            }
        }
        cr_expect_gt(deep, 0, "%s: passes at split nodes", n);
        cr_expect_gt(reduced, 0, "%s: reductions at split nodes", n);
        /* YBWC gives its young brothers the full window: its split nodes
         * are PV nodes (but by chance), where neither prunes. */
        if (algs[a] != GTS_ALG_YBWC) {
            cr_expect_gt(lmp, 0, "%s: late-move pruning at split nodes", n);
            cr_expect_gt(fut, 0, "%s: futility pruning at split nodes", n);
        }
    }
}

/*
 * ttt: tic-tac-toe with a pass. A mark more never hurts its owner, so
 * passing is never better than the best move (no zugzwang): null-move
 * pruning is sound wherever its reduced search still sees the end of the
 * game, as it does from a search deeper than the game by R + 1 and more.
 */
typedef struct ttt {
    uint8_t cell[9]; /* 0 empty, 1 the first player's, 2 the second's */
    int side;        /* 0: the first player to move */
    uint64_t passes;
} ttt;

static const uint8_t TTT_LINES[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                        {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

static bool ttt_line(const ttt *t, int who)
{
    for (int i = 0; i < 8; i++)
        if (t->cell[TTT_LINES[i][0]] == who && t->cell[TTT_LINES[i][1]] == who
            && t->cell[TTT_LINES[i][2]] == who)
            return true;
    return false;
}

static int ttt_generate(void *s, gts_move *moves, uint32_t cap, void *user)
{
    ttt *t = s;
    if (ttt_line(t, 1) || ttt_line(t, 2))
        return 0;
    int n = 0;
    for (int i = 0; i < 9; i++)
        if (!t->cell[i] && (uint32_t)n < cap)
            moves[n++] = (gts_move)i;
    return n;
}

static int ttt_apply(void *s, gts_move m, void *user)
{
    ttt *t = s;
    t->cell[m] = (uint8_t)(t->side + 1);
    t->side ^= 1;
    return 0;
}

static int ttt_undo(void *s, gts_move m, void *user)
{
    ttt *t = s;
    t->side ^= 1;
    t->cell[m] = 0;
    return 0;
}

static gts_score ttt_evaluate(void *s, void *user)
{
    ttt *t = s;
    if (ttt_line(t, 2 - t->side)) /* the other side's line */
        return GTS_SCORE_LOSS;
    if (ttt_line(t, t->side + 1))
        return GTS_SCORE_WIN;
    return 0;
}

static uint64_t ttt_hash(void *s, void *user)
{
    ttt *t = s;
    uint64_t k = (uint64_t)t->side;
    for (int i = 0; i < 9; i++)
        k = k * 3 + t->cell[i];
    return tgame_mix(k);
}

static int ttt_pass(void *s, void *user)
{
    ttt *t = s;
    t->side ^= 1;
    t->passes++;
    return 1;
}

static int ttt_unpass(void *s, void *user)
{
    ttt *t = s;
    t->side ^= 1;
    return 0;
}

static void *ttt_clone(void *s, void *user) { return tgame_copy(s, sizeof(ttt)); }

Test(select, null_move_keeps_the_value_of_a_game_without_zugzwang)
{
    static const char *const starts[] = {"", "5", "15", "19", "519", "2"};
    gts_game v = tgame_game_of(9, ttt_generate, ttt_apply, ttt_undo, ttt_evaluate);
    v.hash = ttt_hash;
    v.clone = ttt_clone;
    v.free = tgame_free;
    v.null_apply = ttt_pass;
    v.null_undo = ttt_unpass;
    uint64_t passes = 0;
    for (size_t p = 0; p < sizeof starts / sizeof *starts; p++) {
        ttt t = {{0}, 0, 0};
        for (const char *c = starts[p]; *c; c++)
            ttt_apply(&t, (gts_move)(*c - '1'), NULL);
        ttt ref = t;
        gts_score want = fx_negamax(&v, &ref, 12, 0);
        for (size_t a = 0; a < sizeof SEL_ALGS / sizeof *SEL_ALGS; a++)
            for (int threads = 1; threads <= 2; threads++)
                for (int r = 2; r <= 3; r++) {
                    gts_engine *e = fx_engine_with(threads, 4);
                    cr_assert_eq(gts_engine_set(e, GTS_OPT_NULL_MOVE, r), GTS_OK);
                    t.passes = 0;
                    gts_result res = fx_search(e, SEL_ALGS[a], &v, &t, 20, 0);
                    passes += t.passes;
                    cr_expect_eq(res.score, want, "%s %d threads R %d from \"%s\": %d, not %d",
                                 gts_algorithm_name(SEL_ALGS[a]), threads, r, starts[p],
                                 res.score, want);
                    gts_engine_free(e);
                }
    }
    cr_expect_gt(passes, 0, "passes were made");
}

Test(select, othello_passes_for_null_move)
{
    const gts_game *g = gts_game_othello();
    cr_assert_not_null(g->null_apply);
    cr_assert_not_null(g->null_undo);
    void *s = NULL;
    cr_assert_eq(gts_othello_new("f5d6c3", &s), GTS_OK);
    /* Midgame: a pass changes the side to move (the key), and comes back. */
    uint64_t key = g->hash(s, g->user);
    cr_assert_eq(g->null_apply(s, g->user), 1, "a pass in the midgame");
    cr_expect_neq(g->hash(s, g->user), key, "the other side to move");
    cr_expect_eq(g->undo(s, (gts_move)GTS_OTHELLO_PASS, g->user), GTS_EINVAL,
                 "undo() does not take the null move for a pass");
    cr_assert_eq(g->null_undo(s, g->user), 0);
    cr_expect_eq(g->hash(s, g->user), key, "restored");
    cr_expect_eq(g->null_undo(s, g->user), GTS_EINVAL, "no null move to take back");
    /* A search with null move on passes, prunes and plays a legal move. */
    gts_engine *off = fx_engine(), *on = fx_engine();
    cr_assert_eq(gts_engine_set(on, GTS_OPT_NULL_MOVE, 3), GTS_OK);
    gts_result a = fx_search(off, GTS_ALG_PVS, g, s, 8, 0);
    gts_result b = fx_search(on, GTS_ALG_PVS, g, s, 8, 0);
    cr_expect_lt(b.nodes, a.nodes, "null move prunes (%llu vs %llu nodes)",
                 (unsigned long long)b.nodes, (unsigned long long)a.nodes);
    gts_move moves[64];
    int n = g->generate(s, moves, 64, g->user), k = 0;
    while (k < n && moves[k] != b.best_move)
        k++;
    cr_expect_lt(k, n, "a legal move");
    cr_expect_eq(g->hash(s, g->user), key, "the state is restored");
    /* Played out (the first move each time): passes until 20 empties are
     * left, none from there on (the tempo decides those). */
    int empties = 64 - 4 - 3;
    while (n > 0) {
        cr_assert_eq(g->apply(s, moves[0], g->user), 0);
        if (moves[0] != GTS_OTHELLO_PASS)
            empties--;
        n = g->generate(s, moves, 64, g->user);
        if (n == 0)
            break;
        int rc = g->null_apply(s, g->user);
        cr_expect_eq(rc, empties > 20, "%d empties: null_apply() %d", empties, rc);
        if (rc == 1)
            cr_assert_eq(g->null_undo(s, g->user), 0);
    }
    uint64_t end = g->hash(s, g->user);
    cr_expect_eq(g->null_apply(s, g->user), 0, "refused once the game is over");
    cr_expect_eq(g->hash(s, g->user), end, "a refusal changes nothing");
    gts_engine_free(off);
    gts_engine_free(on);
    gts_games_free(g, s);
}

/* ---- everything on: a legal move and a bounded score, every honouring algorithm ---- */

Test(select, all_on_random_trees_every_algorithm)
{
    int64_t on[] = {GTS_OPT_NULL_MOVE, 3, GTS_OPT_LMR, 100, GTS_OPT_FUTILITY, 60,
                    GTS_OPT_RAZOR, 150, GTS_OPT_LMP, 3, 0};
    gts_algorithm algs[] = {GTS_ALG_ALPHABETA, GTS_ALG_PVS,     GTS_ALG_PROBCUT,
                            GTS_ALG_ABDADA,    GTS_ALG_LAZYSMP, GTS_ALG_YBWC,
                            GTS_ALG_JAMBOREE,  GTS_ALG_PVSPLIT, GTS_ALG_DTS,
                            GTS_ALG_ROOTSPLIT};
    for (uint64_t seed = 1; seed <= tgame_count(6); seed++)
        for (size_t a = 0; a < sizeof algs / sizeof *algs; a++) {
            sgame g;
            gts_game v = sg_new(&g, seed * 7, 3 + (int)(seed % 4), 20, 7);
            g.noisy_mode = (int)(seed % 3);
            gts_engine *e = fx_engine_with(2, 4);
            for (const int64_t *o = on; o[0]; o += 2)
                cr_assert_eq(gts_engine_set(e, (gts_option)o[0], o[1]), GTS_OK);
            gts_result r = fx_search(e, algs[a], &v, &g, 7, 0);
            expect_sane(&r, 3 + (int)(seed % 4), gts_algorithm_name(algs[a]));
            sgame before;
            sg_new(&before, seed * 7, 3 + (int)(seed % 4), 20, 7);
            cr_expect_eq(memcmp(&g.t, &before.t, sizeof g.t), 0, "%s: the state is restored",
                         gts_algorithm_name(algs[a]));
            gts_engine_free(e);
        }
}

/* ---- repetition draws ------------------------------------------------------------------ */

/*
 * ring: two tokens on a ring of RING squares; the side to move steps its
 * token forward (move 0) or back (move 1), or stops the game (move 2). A
 * position is (both squares, side to move): it repeats as soon as a token
 * steps back. evaluate() from the side to move: the worth of its square
 * minus the worth of the other's.
 */
enum { RING = 5 };
static const int RING_WORTH[RING] = {0, 30, -20, 10, 45};

typedef struct ring {
    int pos[2];
    int side;
    bool stopped;
} ring;

static int ring_generate(void *s, gts_move *moves, uint32_t cap, void *user)
{
    ring *r = s;
    return r->stopped ? 0 : tgame_moves(moves, cap, 3);
}

static int ring_apply(void *s, gts_move m, void *user)
{
    ring *r = s;
    if (m == 2)
        r->stopped = true;
    else
        r->pos[r->side] = (r->pos[r->side] + (m == 0 ? 1 : RING - 1)) % RING;
    r->side ^= 1;
    return 0;
}

static int ring_undo(void *s, gts_move m, void *user)
{
    ring *r = s;
    r->side ^= 1;
    if (m == 2)
        r->stopped = false;
    else
        r->pos[r->side] = (r->pos[r->side] + (m == 0 ? RING - 1 : 1)) % RING;
    return 0;
}

static gts_score ring_evaluate(void *s, void *user)
{
    ring *r = s;
    return RING_WORTH[r->pos[r->side]] - RING_WORTH[r->pos[r->side ^ 1]];
}

static uint64_t ring_hash(void *s, void *user)
{
    ring *r = s;
    return tgame_mix((uint64_t)(r->pos[0] * RING + r->pos[1]) * 4 + (uint64_t)r->side * 2
                     + (uint64_t)r->stopped);
}

static void *ring_clone(void *s, void *user) { return tgame_copy(s, sizeof(ring)); }

static gts_game ring_game(void)
{
    gts_game v = tgame_game_of(3, ring_generate, ring_apply, ring_undo, ring_evaluate);
    v.hash = ring_hash;
    v.clone = ring_clone;
    v.free = tgame_free;
    v.traits = GTS_TRAIT_REPETITION_DRAW;
    return v;
}

/* The reference: negamax over lines of any game with hash(), a position
 * that repeats one of @keys (the line so far, plies 0..ply-1, after @nhist
 * entries of history) a draw worth -@contempt to the root's side. */
static gts_score rep_ref(const gts_game *v, void *s, uint64_t *keys, int nhist, int depth,
                         int ply, int contempt)
{
    uint64_t k = v->hash(s, v->user);
    if (ply > 0)
        for (int i = nhist + ply - 1; i >= 0; i--)
            if (keys[i] == k)
                return (ply & 1) ? contempt : -contempt;
    keys[nhist + ply] = k;
    gts_move moves[64];
    cr_assert(v->max_moves <= 64);
    int n = depth > 0 ? v->generate(s, moves, v->max_moves, v->user) : 0;
    if (n == 0)
        return fx_adjust(v->evaluate(s, v->user), ply);
    gts_score best = -GTS_SCORE_INF;
    for (int i = 0; i < n; i++) {
        cr_assert_eq(v->apply(s, moves[i], v->user), 0);
        gts_score x = -rep_ref(v, s, keys, nhist, depth - 1, ply + 1, contempt);
        cr_assert_eq(v->undo(s, moves[i], v->user), 0);
        if (x > best)
            best = x;
    }
    return best;
}

static gts_score ring_ref(ring *r, uint64_t *keys, int nhist, int depth, int ply, int contempt)
{
    gts_game v = ring_game();
    return rep_ref(&v, r, keys, nhist, depth, ply, contempt);
}

static gts_result ring_search(gts_engine *e, gts_algorithm alg, ring *r, const uint64_t *hist,
                              uint32_t nhist, int depth)
{
    gts_game v = ring_game();
    gts_limits l = {.struct_size = sizeof l, .depth = depth, .history = hist,
                    .history_len = nhist};
    gts_result res = {.struct_size = sizeof res};
    cr_assert_eq(gts_search(e, alg, &v, r, &l, &res), GTS_OK);
    return res;
}

Test(select, repetition_is_a_draw_on_every_line)
{
    const gts_algorithm *algs = SEL_ALGS;
    int contempts[] = {0, 25, -25};
    for (size_t a = 0; a < sizeof SEL_ALGS / sizeof *SEL_ALGS; a++)
        for (int c = 0; c < 3; c++)
            for (int start = 0; start < RING * RING; start += 3) {
                ring r = {{start / RING, start % RING}, start & 1, false};
                /* history: a walk to the root, oldest first */
                uint64_t hist[4];
                ring w = r;
                for (int i = 3; i >= 0; i--) {
                    ring_undo(&w, (gts_move)((start + i) % 2), NULL);
                    hist[i] = ring_hash(&w, NULL);
                }
                for (int depth = 1; depth <= 6; depth++) {
                    gts_engine *e = fx_engine_with(2, 0); /* no table: no graph history */
                    cr_assert_eq(gts_engine_set(e, GTS_OPT_CONTEMPT, contempts[c]), GTS_OK);
                    uint64_t keys[GTS_MAX_PLY + 8];
                    memcpy(keys, hist, sizeof hist);
                    ring ref = r;
                    gts_score want = ring_ref(&ref, keys, 4, depth, 0, contempts[c]);
                    gts_result res = ring_search(e, algs[a], &r, hist, 4, depth);
                    cr_expect_eq(res.score, want, "%s contempt %d start %d depth %d: %d, not %d",
                                 gts_algorithm_name(algs[a]), contempts[c], start, depth,
                                 res.score, want);
                    gts_engine_free(e);
                }
            }
}

Test(select, repetition_history_and_contempt_sign)
{
    /* Every root move repeats a position of the history: the root is a
     * draw, worth -contempt to the side to move at the root. */
    ring r = {{1, 3}, 0, false};
    uint64_t hist[3];
    for (gts_move m = 0; m < 3; m++) {
        ring_apply(&r, m, NULL);
        hist[m] = ring_hash(&r, NULL);
        ring_undo(&r, m, NULL);
    }
    int contempts[] = {0, 40, -40};
    for (int c = 0; c < 3; c++)
        for (int depth = 1; depth <= 4; depth += 3) {
            gts_engine *e = fx_engine();
            cr_assert_eq(gts_engine_set(e, GTS_OPT_CONTEMPT, contempts[c]), GTS_OK);
            gts_result res = ring_search(e, GTS_ALG_PVS, &r, hist, 3, depth);
            cr_expect_eq(res.score, -contempts[c], "contempt %d depth %d: %d", contempts[c],
                         depth, res.score);
            gts_engine_free(e);
        }
    /* Without the trait the history is not read, and the game is no draw. */
    gts_engine *e = fx_engine();
    gts_game v = ring_game();
    v.traits = 0;
    gts_limits l = {.struct_size = sizeof l, .depth = 1, .history = hist, .history_len = 3};
    gts_result res = {.struct_size = sizeof res};
    cr_assert_eq(gts_search(e, GTS_ALG_PVS, &v, &r, &l, &res), GTS_OK);
    cr_expect_neq(res.score, 0, "no trait: the moves are searched");
    /* A NULL history with a length is refused. */
    l.history = NULL;
    cr_expect_eq(gts_search(e, GTS_ALG_PVS, &v, &r, &l, &res), GTS_EINVAL);
    gts_engine_free(e);
}

Test(select, a_winning_side_does_not_walk_into_a_repetition)
{
    /* The side to move stands on 45 against 0: stepping back and forth
     * repeats; the search with the table on still returns the same value as
     * the reference at every depth, or the stop move's 45 when it is best. */
    for (int depth = 2; depth <= 7; depth++) {
        ring r = {{4, 0}, 0, false};
        uint64_t keys[GTS_MAX_PLY + 8];
        ring ref = r;
        gts_score want = ring_ref(&ref, keys, 0, depth, 0, 0);
        gts_engine *e = fx_engine();
        gts_result res = ring_search(e, GTS_ALG_PVS, &r, NULL, 0, depth);
        cr_expect_geq(res.score, want - 0, "depth %d: %d, reference %d", depth, res.score, want);
        cr_expect_gt(res.score, 0, "depth %d: the side ahead keeps its advantage", depth);
        gts_engine_free(e);
    }
}

Test(select, a_value_a_repetition_decided_is_not_stored)
{
    /* The history makes every grandchild of the root a draw. A child's value
     * then depends on that history: it must not reach the table, or the
     * next search of the same root without the history reads it back. */
    for (int start = 0; start < RING * RING; start += 4) {
        ring r = {{start / RING, start % RING}, 0, false};
        uint64_t hist[9];
        int n = 0;
        for (gts_move a = 0; a < 2; a++)
            for (gts_move b = 0; b < 3; b++) {
                ring_apply(&r, a, NULL);
                ring_apply(&r, b, NULL);
                hist[n++] = ring_hash(&r, NULL);
                ring_undo(&r, b, NULL);
                ring_undo(&r, a, NULL);
            }
        gts_engine *e = fx_engine(), *fresh = fx_engine();
        for (int depth = 3; depth <= 5; depth++) {
            ring_search(e, GTS_ALG_PVS, &r, hist, (uint32_t)n, depth);
            gts_result again = ring_search(e, GTS_ALG_PVS, &r, NULL, 0, depth);
            gts_result want = ring_search(fresh, GTS_ALG_PVS, &r, NULL, 0, depth);
            cr_expect_eq(again.score, want.score, "start %d depth %d: %d after the history, %d",
                         start, depth, again.score, want.score);
            gts_engine_clear(e);
            gts_engine_clear(fresh);
        }
        gts_engine_free(e);
        gts_engine_free(fresh);
    }
}

Test(select, a_value_the_history_decided_is_not_stored_at_split_nodes)
{
    /* A tgame is a tree: no line repeats itself, so only the history makes
     * draws, and with the table on a search still equals the line-aware
     * negamax. The history holds every grandchild of the root: every child
     * of the root, a split node of ybwc and the others from depth 4 on, is
     * then a draw. Its value depends on the history: stored, the next
     * search of the same root without the history would read it back. */
    for (size_t a = 0; a < sizeof SEL_ALGS / sizeof *SEL_ALGS; a++)
        for (int threads = 1; threads <= 2; threads++)
            for (uint64_t seed = 1; seed <= 3; seed++) {
                tgame t;
                gts_game v = tgame_new(&t, seed, 4, 12, true);
                v.traits = GTS_TRAIT_REPETITION_DRAW;
                uint64_t hist[16];
                int n = 0;
                for (gts_move x = 0; x < 4; x++)
                    for (gts_move y = 0; y < 4; y++) {
                        tgame_apply(&t, x, NULL);
                        tgame_apply(&t, y, NULL);
                        hist[n++] = tgame_hash(&t, NULL);
                        tgame_undo(&t, y, NULL);
                        tgame_undo(&t, x, NULL);
                    }
                const char *name = gts_algorithm_name(SEL_ALGS[a]);
                gts_engine *e = fx_engine_with(threads, 4);
                for (int depth = 3; depth <= 6; depth++) {
                    uint64_t keys[GTS_MAX_PLY + 24];
                    memcpy(keys, hist, sizeof hist);
                    gts_score want = rep_ref(&v, &t, keys, n, depth, 0, 0);
                    gts_limits l = {.struct_size = sizeof l, .depth = depth, .history = hist,
                                    .history_len = (uint32_t)n};
                    gts_result r = {.struct_size = sizeof r};
                    cr_assert_eq(gts_search(e, SEL_ALGS[a], &v, &t, &l, &r), GTS_OK);
                    cr_expect_eq(r.score, want, "%s %d threads seed %llu depth %d: %d with the "
                                 "history, reference %d", name, threads,
                                 (unsigned long long)seed, depth, r.score, want);
                    want = rep_ref(&v, &t, keys, 0, depth, 0, 0);
                    r = fx_search(e, SEL_ALGS[a], &v, &t, depth, 0);
                    cr_expect_eq(r.score, want, "%s %d threads seed %llu depth %d: %d after the "
                                 "history, reference %d", name, threads,
                                 (unsigned long long)seed, depth, r.score, want);
                    gts_engine_clear(e);
                }
                gts_engine_free(e);
            }
}

Test(select, all_on_real_games_a_legal_move_and_a_bounded_score)
{
    static const char *const games[][2] = {
        {"othello", "f5d6c3"}, {"connect4", "4453"}, {"chess", "startpos moves e2e4 e7e5"},
        {"tictactoe", "5"}, {"randtree", ""},
    };
    gts_algorithm algs[] = {GTS_ALG_PVS, GTS_ALG_ALPHABETA, GTS_ALG_ABDADA, GTS_ALG_YBWC};
    for (size_t i = 0; i < sizeof games / sizeof *games; i++)
        for (size_t a = 0; a < sizeof algs / sizeof *algs; a++) {
            const gts_game *g = gts_games_find(games[i][0]);
            cr_assert_not_null(g, "%s", games[i][0]);
            void *state = NULL;
            cr_assert_eq(gts_games_position_new(games[i][0], NULL, games[i][1], &state, NULL, 0),
                         GTS_OK, "%s", games[i][0]);
            gts_engine *e = fx_engine_with(2, 4);
            int64_t on[] = {GTS_OPT_NULL_MOVE, 2, GTS_OPT_LMR, 150, GTS_OPT_FUTILITY, 50,
                            GTS_OPT_RAZOR, 100, GTS_OPT_LMP, 2, GTS_OPT_CONTEMPT, 20, 0};
            for (const int64_t *o = on; o[0]; o += 2)
                cr_assert_eq(gts_engine_set(e, (gts_option)o[0], o[1]), GTS_OK);
            uint64_t before = g->hash(state, g->user);
            gts_result r = fx_search(e, algs[a], g, state, 5, 0);
            cr_expect_eq(g->hash(state, g->user), before, "%s: the state is restored",
                         games[i][0]);
            gts_move moves[512];
            cr_assert_leq(g->max_moves, 512);
            int n = g->generate(state, moves, g->max_moves, g->user);
            int k = 0;
            while (k < n && moves[k] != r.best_move)
                k++;
            cr_expect(r.flags & GTS_RESULT_HAS_MOVE, "%s %s: a move", games[i][0],
                      gts_algorithm_name(algs[a]));
            cr_expect_lt(k, n, "%s %s: a legal move", games[i][0], gts_algorithm_name(algs[a]));
            cr_expect(r.score >= GTS_SCORE_LOSS && r.score <= GTS_SCORE_WIN, "%s: score %d",
                      games[i][0], r.score);
            gts_engine_free(e);
            gts_games_free(g, state);
        }
}
