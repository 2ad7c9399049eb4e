/* Stockman's SSS* (GTS_ALG_SSSSTAR_STOCKMAN): the minimax value on
 * thousands of random trees; the leaves it evaluates are those of MT-SSS*
 * (Plaat et al. 1996) and never one that alpha-beta with the same order
 * skips (Stockman 1979); limits, stop and failures like every algorithm. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "fixture.h"

static gts_score search(gts_engine *e, gts_algorithm alg, const gts_game *g, void *s, int depth,
                        gts_result *out)
{
    gts_result r = fx_search(e, alg, g, s, depth, 0);
    if (out)
        *out = r;
    return r.score;
}

Test(sss_stockman, equals_minimax_on_2000_random_trees)
{
    gts_engine *e = fx_engine(), *m = fx_engine();
    for (int t = 0; t < (int)tgame_count(2000); t++) {
        gts_randtree_params p = fx_sweep_tree(0x5555, t, 1, 6, 100, 3, 5, 5);
        const gts_game *g;
        uint64_t key;
        void *s = fx_randtree(&p, &g, &key);
        gts_result r;
        gts_score got = search(e, GTS_ALG_SSSSTAR_STOCKMAN, g, s, (int)p.depth, &r);
        gts_result want_r;
        gts_score want = search(m, GTS_ALG_MINIMAX, g, s, (int)p.depth, &want_r);
        cr_assert_eq(got, want, "tree %d (b %u, d %u): SSS* %d, minimax %d", t, p.branching,
                     p.depth, got, want);
        cr_assert_eq(g->hash(s, g->user), key, "tree %d: state restored", t);
        if (want_r.flags & GTS_RESULT_HAS_MOVE) {
            cr_assert(r.flags & GTS_RESULT_HAS_MOVE, "tree %d: a move", t);
            cr_assert_eq(r.pv[0], r.best_move);
        }
        gts_games_free(g, s);
    }
    gts_engine_free(e);
    gts_engine_free(m);
}

/* Decided leaves, extensions and quiescence (tgame's options). */
Test(sss_stockman, equals_minimax_with_wins_extensions_and_quiescence)
{
    gts_engine *e = fx_engine(), *m = fx_engine();
    for (int t = 0; t < (int)tgame_count(300); t++) {
        tgame g;
        tgame_init(&g, 900 + (uint64_t)t, 2 + t % 3, 2 + t % 4);
        g.win_leaves = t % 2 == 0;
        g.extend_first = t % 3 == 0;
        g.noisy = t % 5 == 0;
        gts_game v = tgame_vtable(&g, false);
        gts_score got = search(e, GTS_ALG_SSSSTAR_STOCKMAN, &v, &g, g.depth, NULL);
        gts_score want = search(m, GTS_ALG_MINIMAX, &v, &g, g.depth, NULL);
        cr_assert_eq(got, want, "tgame %d: SSS* %d, minimax %d", t, got, want);
        cr_assert_eq(g.ply, 0);
    }
    gts_engine_free(e);
    gts_engine_free(m);
}

/* ---- the leaves evaluated ------------------------------------------------- */

typedef struct leafset {
    uint64_t *id;
    size_t n, cap;
} leafset;

static leafset *RECORD;

static gts_score recording_evaluate(void *s, void *user)
{
    tgame *g = s;
    if (RECORD) {
        if (RECORD->n == RECORD->cap) {
            RECORD->cap = RECORD->cap ? 2 * RECORD->cap : 256;
            RECORD->id = realloc(RECORD->id, RECORD->cap * sizeof *RECORD->id);
            cr_assert_not_null(RECORD->id);
        }
        RECORD->id[RECORD->n++] = g->path[g->ply];
    }
    return tgame_evaluate(s, user);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void to_set(leafset *l)
{
    qsort(l->id, l->n, sizeof *l->id, cmp_u64);
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++)
        if (k == 0 || l->id[k - 1] != l->id[i])
            l->id[k++] = l->id[i];
    l->n = k;
}

static bool subset(const leafset *a, const leafset *b)
{
    size_t j = 0;
    for (size_t i = 0; i < a->n; i++) {
        while (j < b->n && b->id[j] < a->id[i])
            j++;
        if (j == b->n || b->id[j] != a->id[i])
            return false;
    }
    return true;
}

/* One fixed-depth search (no iterative deepening, no killers or history:
 * generate() order, except for what the table itself remembers). */
static leafset leaves(gts_algorithm alg, gts_game *v, tgame *g, bool tt)
{
    gts_engine *e = fx_engine();
    cr_assert_eq(gts_engine_set(e, GTS_OPT_ITERATIVE, 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_KILLERS, 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_HISTORY, 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, tt ? 4 : 0), GTS_OK);
    leafset l = {0};
    RECORD = &l;
    search(e, alg, v, g, g->depth, NULL);
    RECORD = NULL;
    gts_engine_free(e);
    to_set(&l);
    return l;
}

Test(sss_stockman, evaluates_the_leaves_of_mt_sss_and_none_alpha_beta_skips)
{
    int equal = 0, trees = (int)tgame_count(500);
    for (int t = 0; t < trees; t++) {
        tgame g;
        gts_game v = tgame_new(&g, 4242 + (uint64_t)t, 2 + t % 3, 2 + t % 4, true);
        v.evaluate = recording_evaluate;
        leafset st = leaves(GTS_ALG_SSSSTAR_STOCKMAN, &v, &g, false);
        leafset mt = leaves(GTS_ALG_SSSSTAR, &v, &g, true);
        leafset ab = leaves(GTS_ALG_ALPHABETA, &v, &g, false);
        cr_expect(subset(&st, &ab), "tree %d: SSS* evaluated a leaf alpha-beta skips", t);
        cr_expect(st.n <= ab.n);
        equal += st.n == mt.n && subset(&st, &mt);
        free(st.id);
        free(mt.id);
        free(ab.id);
    }
    cr_expect_eq(equal, trees, "SSS* and MT-SSS* evaluated the same leaves on %d of %d trees",
                 equal, trees);
}

/* ---- limits, stop, failures ----------------------------------------------- */

Test(sss_stockman, node_limit_and_restore)
{
    tgame g;
    gts_game v = tgame_new(&g, 7, 5, 8, false);
    gts_engine *e = fx_engine();
    fx_expect_node_limit(gts_sssstar_stockman, e, &v, &g, 8, 500);
    gts_engine_free(e);
}

Test(sss_stockman, failing_callbacks)
{
    static const fx_fault kinds[] = {FX_FAIL_APPLY, FX_FAIL_UNDO, FX_FAIL_EVALUATE};
    fx_expect_callback_failures(gts_sssstar_stockman, kinds, 3, 300);
}
