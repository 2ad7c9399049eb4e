/* Rivest's min/max approximation (GTS_ALG_MMA): with no budget it explores
 * the whole tree and returns the minimax move and value; the penalties and
 * the order of expansion against the paper's formulas (worked by hand, and
 * a literal pow() reference run beside the library); selectivity against
 * breadth-first; budgets, the tree memory, the options and failures. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "search/mma_internal.h"
#include "fixture.h"

Test(mma, unlimited_budget_is_minimax_on_500_random_trees)
{
    gts_engine *e = fx_engine(), *m = fx_engine();
    for (int t = 0; t < 500; t++) {
        gts_randtree_params p = fx_sweep_tree(0x3a3a, t, 1, 6, 1000, 3, 4, 5);
        const gts_game *g;
        uint64_t key;
        void *s = fx_randtree(&p, &g, &key);
        if (t % 2)
            cr_assert_eq(gts_engine_set(e, GTS_OPT_MMA_P, t % 5 == 1 ? 1000 : 1 + t % 400),
                         GTS_OK);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MMA_BACKUP, t % 3 == 0), GTS_OK);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MMA_SCALE, t % 4 == 0 ? 1 : 200), GTS_OK);
        gts_result a = fx_search(e, GTS_ALG_MMA, g, s, (int)p.depth, 0);
        gts_result want = fx_search(m, GTS_ALG_MINIMAX, g, s, (int)p.depth, 0);
        cr_assert_eq(a.score, want.score, "tree %d: MMA %d, minimax %d", t, a.score, want.score);
        cr_assert_eq(a.flags & (GTS_RESULT_NODE_LIMIT | GTS_RESULT_MEMORY_LIMIT), 0u);
        cr_assert_eq(a.depth, (int)p.depth, "tree %d: the whole tree, its depth", t);
        cr_assert_geq(a.seldepth, (int)a.pv_length, "tree %d", t);
        /* The move is a minimax-best one: its subtree has the root's value. */
        cr_assert_eq(g->apply(s, a.best_move, g->user), 0);
        gts_score v = p.depth > 1 ? -fx_search(m, GTS_ALG_MINIMAX, g, s, (int)p.depth - 1, 0).score
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

/* Under a budget MMA grows the tree selectively. 3,000 nodes of a 6-way
 * tree complete plies 1-4 breadth-first (6 + 36 + 216 + 1296 = 1554) and
 * reach into ply 5 (7776 more): a breadth-first line is at most 5 moves
 * long. tgame's values are +-100, so the logistic's scale is set to match. */
Test(mma, budgets_and_selectivity)
{
    tgame g;
    gts_game v = tgame_new(&g, 77, 6, 12, false);
    gts_engine *e = fx_engine();
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MMA_SCALE, 20), GTS_OK);
    gts_result r = fx_search(e, GTS_ALG_MMA, &v, &g, 12, 3000);
    cr_expect(r.flags & GTS_RESULT_NODE_LIMIT);
    cr_expect(r.flags & GTS_RESULT_HAS_MOVE);
    cr_expect_lt(r.best_move, 6u);
    cr_expect_geq(r.pv_length, 8u, "breadth-first reaches ply 5 with 3,000 nodes of a "
                  "6-way tree; MMA's line is %u moves", r.pv_length);
    cr_expect_eq(r.depth, (int32_t)r.pv_length);
    cr_expect_geq(r.seldepth, r.depth);
    cr_expect_eq(g.ply, 0);

    cr_assert_eq(gts_engine_set(e, GTS_OPT_TREE_MB, 1), GTS_OK);
    r = fx_search(e, GTS_ALG_MMA, &v, &g, 12, 0);
    cr_expect(r.flags & GTS_RESULT_MEMORY_LIMIT, "flags %#x", r.flags);
    cr_expect(r.flags & GTS_RESULT_HAS_MOVE);
    cr_expect_eq(g.ply, 0);
    cr_expect_eq(gts_engine_set(e, GTS_OPT_MMA_P, 0), GTS_ERANGE, "p = 0 is refused");
    cr_expect_eq(gts_engine_set(e, GTS_OPT_MMA_P, 1001), GTS_ERANGE);
    cr_expect_eq(gts_engine_set(e, GTS_OPT_MMA_SCALE, 0), GTS_ERANGE);
    cr_expect_eq(gts_engine_set(e, GTS_OPT_MMA_SCALE, GTS_SCORE_WIN + 1), GTS_ERANGE);
    cr_expect_eq(gts_engine_set(e, GTS_OPT_MMA_BACKUP, 2), GTS_ERANGE);
    int64_t def = -1;
    cr_expect_eq(gts_option_bounds(GTS_OPT_MMA_BACKUP, NULL, NULL, &def), GTS_OK);
    cr_expect_eq(def, GTS_MMA_REVERSE, "the reverse approximation is the default");
    gts_engine_free(e);
}

/* On random trees with heuristic-scale values (+-1000, branching 6), MMA
 * with 20,000 nodes follows the critical line much deeper than
 * breadth-first, whose 20,000 nodes end inside ply 6 (6 + ... + 7776 =
 * 9330 complete ply 5): the old linear map over the whole score range gave
 * a 6-move line on every one of these trees. Depth, seldepth and the PV
 * agree (issue 31): under a budget depth is the PV's length, seldepth at
 * least that. */
Test(mma, deeper_than_breadth_first_on_heuristic_values)
{
    for (int backup = 0; backup < 2; backup++) {
        gts_engine *e = fx_engine();
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MMA_BACKUP, backup), GTS_OK);
        uint32_t total = 0;
        for (int t = 0; t < 10; t++) {
            gts_randtree_params p = {
                .struct_size = sizeof p, .seed = 0x5150 + (uint64_t)t, .branching = 6,
                .depth = 30, .min_value = -1000, .max_value = 1000,
            };
            void *s = fx_randtree_new(&p);
            const gts_game *g = gts_game_randtree();
            gts_result r = fx_search(e, GTS_ALG_MMA, g, s, 30, 20000);
            cr_expect_geq(r.pv_length, 7u, "backup %d tree %d: a %u-move line", backup, t,
                          r.pv_length);
            cr_expect_eq(r.depth, (int32_t)r.pv_length, "backup %d tree %d", backup, t);
            cr_expect_geq(r.seldepth, r.depth, "backup %d tree %d", backup, t);
            cr_expect_eq(r.pv[0], r.best_move);
            total += r.pv_length;
            gts_games_free(g, s);
        }
        cr_expect_geq(total, 100u, "backup %d: lines of %u moves on average x10, where "
                      "breadth-first's are 6", backup, total);
        gts_engine_free(e);
    }
}

/* ---- the paper's formulas, by hand and by a literal reference ---------- */

/* A hand-built tree (fixture.h's fx_xtree, max_side): node i has n children and a value
 * from the root player's (MAX's) side; evaluate() gives it from the side
 * to move. generate() logs the node it is called at. */
typedef fx_xnode hnode;

static gts_game ht_vtable(void)
{
    return fx_xtree_game(4, 0);
}

/* R; A B C; A1 A2 | B1 B2 | C1 C2; A1a A1b | A2a A2b (MAX's side). */
enum { R, A, B, C, A1, A2, B1, B2, C1, C2, A1a, A1b, A2a, A2b, HAND_N };
static hnode HAND[HAND_N] = {
    [R] = {.n = 3, .child = {A, B, C}},
    [A] = {.n = 2, .child = {A1, A2}, .value = 100},
    [B] = {.n = 2, .child = {B1, B2}, .value = -20},
    [C] = {.n = 2, .child = {C1, C2}, .value = -150},
    [A1] = {.n = 2, .child = {A1a, A1b}, .value = 180},
    [A2] = {.n = 2, .child = {A2a, A2b}, .value = 120},
    [B1] = {.value = -20},  [B2] = {.value = 0},    [C1] = {.value = -150}, [C2] = {.value = -100},
    [A1a] = {.value = 200}, [A1b] = {.value = 150}, [A2a] = {.value = 130}, [A2b] = {.value = 90},
};

/* The paper's formulas worked by hand for HAND at p = 10, u(v) = 1 / (1 +
 * exp(-v / 100)), reverse approximation:
 *   after R: a = u(100), u(-20), u(-150); M_10 = ((a_A^10 + a_B^10 +
 *     a_C^10) / 3)^(1/10), log M = -0.422342; w = -log((1/3)(a/M)^9):
 *     w(A) = 0.116889, w(B) = 4.480783, w(C) = 12.610253;
 *   after A (MIN, q = -10): a = u(180), u(120); log M_-10 = -0.222625;
 *     w = -log((1/2)(a/M)^-11): w(A1) = 1.459271, w(A2) = 0.245918;
 *     A's value min(180, 120) = 120, so at R: log M = -0.372669,
 *     w(A) = 0.114131, w(B) = 4.927839; b(A) = 0.245918 < w(B): A2 next.
 * Expanding on, A2a, A1, A2b, A1a, A1b (A's subtree, depth 3) all come
 * before B: order R A A2 A2a A1 A2b A1a A1b B B1 B2 C C1 C2, where
 * breadth-first takes R A B C. */
Test(mma, penalties_and_order_by_hand)
{
    const double s = 100, eps = 1e-6;
    double la[3] = {gts__mma_log_unit(100, s), gts__mma_log_unit(-20, s),
                    gts__mma_log_unit(-150, s)};
    cr_expect_float_eq(la[0], -log1p(exp(-1.0)), 1e-12);
    double lm = gts__mma_log_mean(la, sizeof la[0], 3, 10);
    cr_expect_float_eq(lm, -0.422342, eps, "log M at R: %f", lm);
    cr_expect_float_eq(gts__mma_penalty(la[0], lm, 3, 10), 0.116889, eps);
    cr_expect_float_eq(gts__mma_penalty(la[1], lm, 3, 10), 4.480783, eps);
    cr_expect_float_eq(gts__mma_penalty(la[2], lm, 3, 10), 12.610253, eps);
    double lb[2] = {gts__mma_log_unit(180, s), gts__mma_log_unit(120, s)};
    lm = gts__mma_log_mean(lb, sizeof lb[0], 2, -10);
    cr_expect_float_eq(lm, -0.222625, eps, "log M at A: %f", lm);
    cr_expect_float_eq(gts__mma_penalty(lb[0], lm, 2, -10), 1.459271, eps);
    cr_expect_float_eq(gts__mma_penalty(lb[1], lm, 2, -10), 0.245918, eps);
    la[0] = gts__mma_log_unit(120, s);
    lm = gts__mma_log_mean(la, sizeof la[0], 3, 10);
    cr_expect_float_eq(lm, -0.372669, eps);
    cr_expect_float_eq(gts__mma_penalty(la[0], lm, 3, 10), 0.114131, eps);
    cr_expect_float_eq(gts__mma_penalty(la[1], lm, 3, 10), 4.927839, eps);

    static const int want[] = {R, A, A2, A2a, A1, A2b, A1a, A1b, B, B1, B2, C, C1, C2};
    fx_xtree h = {.nodes = HAND, .max_side = true};
    gts_game v = ht_vtable();
    gts_engine *e = fx_engine();
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MMA_SCALE, 100), GTS_OK);
    gts_result r = fx_search(e, GTS_ALG_MMA, &v, &h, 10, 0);
    cr_expect_eq(r.score, 130, "minimax value %d", r.score);
    cr_expect_eq(r.best_move, 0u);
    cr_assert_eq(h.nlog, (int)(sizeof want / sizeof want[0]), "%d expansions", h.nlog);
    for (int i = 0; i < h.nlog; i++)
        cr_expect_eq(h.log[i], want[i], "expansion %d: node %d, by hand %d", i, h.log[i],
                     want[i]);
    /* The line R-A-A2-A2a: minimax-best moves. The whole tree explored:
     * the depth asked for, as exact algorithms report it. */
    cr_expect_eq(r.pv_length, 3u);
    cr_expect_eq(r.depth, 10);
    cr_expect_eq(r.seldepth, 3);
    gts_engine_free(e);
}

/* The literal reference: the paper's formulas with powl() on an explicit
 * table tree (children after their parent), recomputed for every node from
 * scratch at every step (no log space, no incremental back-up), tips
 * closed at ply @depth. ref_order gives the expansion order, cut where two
 * candidates are too close to order reliably. */
typedef struct ref {
    const hnode *t;
    int nn;
    long double p, s;
    bool mean;
    int depth;
    bool expanded[1024];
    int ply[1024];
    int val[1024];                /* minimax over the expanded tree */
    long double a[1024], m[1024]; /* the value in (0, 1); M_q of the children */
    long double b[1024];          /* least penalty to an open tip */
} ref;

static long double ref_w(const ref *f, int x, int k)
{
    const hnode *nd = &f->t[x];
    long double q = f->ply[x] % 2 == 0 ? f->p : -f->p;
    long double d = (1.0L / nd->n) * powl(f->a[nd->child[k]] / f->m[x], q - 1.0L);
    long double w = -logl(d);
    return w > 0 ? w : 0;
}

static void ref_update(ref *f)
{
    for (int x = f->nn - 1; x >= 0; x--) {
        const hnode *nd = &f->t[x];
        if (!f->expanded[x] || nd->n == 0) {
            f->val[x] = nd->value;
            f->a[x] = 1.0L / (1.0L + expl(-(long double)nd->value / f->s));
            f->b[x] = f->expanded[x] || f->ply[x] >= f->depth ? INFINITY : 0;
            continue;
        }
        bool max = f->ply[x] % 2 == 0;
        long double q = max ? f->p : -f->p, sum = 0;
        int v = f->val[nd->child[0]];
        for (int i = 0; i < nd->n; i++) {
            int c = nd->child[i];
            if (max ? f->val[c] > v : f->val[c] < v)
                v = f->val[c];
            sum += powl(f->a[c], q);
        }
        f->val[x] = v;
        f->m[x] = powl(sum / nd->n, 1.0L / q);
        f->a[x] = f->mean ? f->m[x] : 1.0L / (1.0L + expl(-(long double)v / f->s));
        f->b[x] = INFINITY;
        for (int i = 0; i < nd->n; i++) {
            long double t = ref_w(f, x, i) + f->b[nd->child[i]];
            if (t < f->b[x])
                f->b[x] = t;
        }
    }
}

static int ref_order(ref *f, int *out, int cap)
{
    int n = 0;
    f->expanded[0] = true;
    out[n++] = 0;
    for (ref_update(f); n < cap && isfinite(f->b[0]); ref_update(f)) {
        int x = 0;
        while (f->expanded[x]) {
            int best = -1;
            long double bt = INFINITY, second = INFINITY;
            for (int i = 0; i < f->t[x].n; i++) {
                long double t = ref_w(f, x, i) + f->b[f->t[x].child[i]];
                if (t < bt) {
                    second = bt;
                    bt = t;
                    best = f->t[x].child[i];
                } else if (t < second) {
                    second = t;
                }
            }
            if (isfinite(second) && second - bt < 1e-9L * (1 + bt))
                return n; /* a near tie: the order beyond is a rounding matter */
            x = best;
        }
        f->expanded[x] = true;
        out[n++] = x;
    }
    return n;
}

/* Random table trees: branching 1-4, values +-1000, both variants, p from
 * 0.5 to 30: the library's order of expansion is the reference's. */
Test(mma, order_equals_the_literal_reference)
{
    static hnode t[1024];
    int compared = 0;
    for (int k = 0; k < 120; k++) {
        uint64_t rs = tgame_mix(0xa11ce + (uint64_t)k);
        int depth = 3 + k % 4, nn = 1;
        int ply[1024] = {0};
        for (int x = 0; x < nn; x++) {
            rs = tgame_mix(rs);
            t[x].value = (int)(rs % 2001) - 1000;
            t[x].n = ply[x] < depth + 1 && nn + 4 <= 1024 ? 1 + (int)((rs >> 20) % 4) : 0;
            if (ply[x] > 0 && (rs >> 40) % 7 == 0)
                t[x].n = 0; /* an early end of the game */
            for (int i = 0; i < t[x].n; i++) {
                t[x].child[i] = nn;
                ply[nn++] = ply[x] + 1;
            }
        }
        static const int ps[] = {5, 20, 100, 300};
        ref f;
        memset(&f, 0, sizeof f);
        f.t = t;
        f.nn = nn;
        f.p = ps[k % 4] / 10.0L;
        f.s = k % 3 == 0 ? 50 : 300;
        f.mean = k % 2;
        f.depth = depth;
        memcpy(f.ply, ply, sizeof ply);
        int want[1024];
        int nwant = ref_order(&f, want, 1024);

        fx_xtree h = {.nodes = t, .max_side = true};
        gts_game v = ht_vtable();
        gts_engine *e = fx_engine();
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MMA_P, ps[k % 4]), GTS_OK);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MMA_SCALE, (int64_t)f.s), GTS_OK);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MMA_BACKUP, f.mean), GTS_OK);
        gts_limits l = {.struct_size = sizeof l, .depth = depth};
        gts_result r = {.struct_size = sizeof r};
        gts_status rc = gts_search(e, GTS_ALG_MMA, &v, &h, &l, &r);
        cr_assert_eq(rc, GTS_OK, "tree %d: %s (%d)", k, gts_status_name(rc), r.callback_status);
        int n = nwant < h.nlog ? nwant : h.nlog;
        if (n > 255)
            n = 255;
        for (int i = 0; i < n; i++)
            cr_assert_eq(h.log[i], want[i], "tree %d (p %d, s %g, %s): expansion %d is "
                         "node %d, the reference's %d", k, ps[k % 4], (double)f.s,
                         f.mean ? "mean" : "reverse", i, h.log[i], want[i]);
        compared += n;
        gts_engine_free(e);
    }
    cr_expect_gt(compared, 2000, "only %d expansions compared", compared);
}

/* Any p of the option's range gives finite penalties, decided scores
 * included (the old pow() of 3e-5^100 was 0 or inf). */
Test(mma, penalties_finite_over_the_whole_range)
{
    static const gts_score vs[] = {GTS_SCORE_LOSS, GTS_SCORE_LOSS + 7, -1000, 0, 5, 1000,
                                   GTS_SCORE_WIN - 9, GTS_SCORE_WIN};
    const int nv = (int)(sizeof vs / sizeof vs[0]);
    for (int64_t pt = 1; pt <= 1000; pt += 111) {
        for (int side = 0; side < 2; side++) {
            double q = (side ? -1.0 : 1.0) * (double)pt / 10.0;
            for (int scale = 1; scale <= GTS_SCORE_WIN; scale *= 31) {
                double la[8];
                for (int i = 0; i < nv; i++) {
                    la[i] = gts__mma_log_unit(vs[i], scale);
                    cr_assert(isfinite(la[i]) && la[i] <= 0, "log u(%d) = %g", vs[i], la[i]);
                    if (i > 0)
                        cr_assert_geq(la[i], la[i - 1], "log u increases");
                }
                double lm = gts__mma_log_mean(la, sizeof la[0], (uint32_t)nv, q);
                cr_assert(isfinite(lm), "q %g scale %d: log M %g", q, scale, lm);
                cr_assert_geq(lm, la[0] - 1e-9);
                cr_assert_leq(lm, la[nv - 1] + 1e-9);
                for (int i = 0; i < nv; i++) {
                    double w = gts__mma_penalty(la[i], lm, (uint32_t)nv, q);
                    cr_assert(isfinite(w) && w >= 0, "q %g scale %d value %d: w %g", q,
                              scale, vs[i], w);
                }
            }
        }
    }
    /* Against the direct formula where powl() is in range. */
    double la[3] = {gts__mma_log_unit(-400, 200), gts__mma_log_unit(50, 200),
                    gts__mma_log_unit(900, 200)};
    for (int pt = 1; pt <= 1000; pt *= 10)
        for (int side = 0; side < 2; side++) {
            long double q = (side ? -1.0L : 1.0L) * pt / 10.0L, sum = 0;
            for (int i = 0; i < 3; i++)
                sum += powl(expl((long double)la[i]), q);
            long double m = powl(sum / 3, 1 / q);
            double lm = gts__mma_log_mean(la, sizeof la[0], 3, (double)q);
            cr_expect_float_eq(lm, (double)logl(m), 1e-9, "p %g", (double)q);
            for (int i = 0; i < 3; i++) {
                long double w = -logl(powl(expl((long double)la[i]) / m, q - 1) / 3);
                cr_expect_float_eq(gts__mma_penalty(la[i], lm, 3, (double)q),
                                   (double)(w > 0 ? w : 0), 1e-6 * (1 + fabsl(w)));
            }
        }
}

Test(mma, failing_callbacks)
{
    static const fx_fault kinds[] = {FX_FAIL_APPLY, FX_FAIL_EVALUATE, FX_FAIL_GENERATE};
    fx_expect_callback_failures(gts_mma, kinds, 3, 150);
}
