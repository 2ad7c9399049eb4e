/*
 * What solving needs besides bounds (issue 10): generate_keyed() orders
 * exactly as move_score() would, its failures are reported; the table
 * lookahead (GTS_OPT_TT_PREFETCH) never changes a search; the table exists
 * as soon as the engine does; exact algorithms return a full principal
 * variation that replays to the reported score.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "fixture.h"

static void *c4(const char *pos)
{
    void *s;
    cr_assert_eq(gts_connect4_new(pos, &s), GTS_OK, "position %s", pos);
    return s;
}

static gts_result search(gts_engine *e, gts_algorithm alg, const gts_game *g, void *s, int depth)
{
    return fx_search(e, alg, g, s, depth, 0);
}

static const char *const POSITIONS[] = {"", "4453", "32164625", "26575651", "2252576253462244",
                                        "4455671", "1234567"};
#define NPOS (sizeof POSITIONS / sizeof POSITIONS[0])

/* ---- generate_keyed ------------------------------------------------------------ */

Test(solve, keyed_generate_orders_like_move_score)
{
    /* Connect-4's keys are its move_score() values: with or without
     * generate_keyed the search is the same tree, node for node. */
    const gts_game *games[] = {gts_game_connect4(), gts_game_connect4_solver()};
    for (size_t gi = 0; gi < 2; gi++) {
        cr_assert_not_null(games[gi]->generate_keyed, "the built-in Connect-4 has keys");
        gts_game plain = *games[gi];
        plain.generate_keyed = NULL;
        for (size_t i = 0; i < NPOS; i++) {
            void *s = c4(POSITIONS[i]);
            gts_engine *e1 = fx_engine_with(1, 4), *e2 = fx_engine_with(1, 4);
            gts_result a = search(e1, GTS_ALG_PVS, games[gi], s, 9);
            gts_result b = search(e2, GTS_ALG_PVS, &plain, s, 9);
            cr_expect_eq(a.score, b.score, "%s: score", POSITIONS[i]);
            cr_expect_eq(a.best_move, b.best_move, "%s: move", POSITIONS[i]);
            cr_expect_eq(a.nodes, b.nodes, "%s: keys order like move_score (%llu vs %llu nodes)",
                         POSITIONS[i], (unsigned long long)a.nodes, (unsigned long long)b.nodes);
            gts_engine_free(e1);
            gts_engine_free(e2);
            gts_games_free(games[gi], s);
        }
    }
}

typedef struct keyed_fault {
    int calls, fail_at, rc;
} keyed_fault;

static int faulty_keyed(void *state, gts_move *moves, int32_t *keys, uint32_t cap, void *user)
{
    keyed_fault *f = user;
    if (++f->calls == f->fail_at)
        return f->rc;
    return gts_game_connect4()->generate_keyed(state, moves, keys, cap, NULL);
}

Test(solve, keyed_generate_failures_are_reported)
{
    gts_game g = *gts_game_connect4();
    keyed_fault f = {0};
    g.generate_keyed = faulty_keyed;
    g.user = &f;
    void *s = c4("4453");
    void *copy = c4("4453");
    static const int RC[] = {-7, 99}; /* a failure; more moves than max_moves */
    static const gts_status WANT[] = {GTS_ECALLBACK, GTS_EMOVES};
    for (int k = 0; k < 2; k++) {
        for (int at = 1; at <= 40; at += 13) {
            f = (keyed_fault){0, at, RC[k]};
            gts_engine *e = fx_engine_with(1, 1);
            gts_limits l = {.struct_size = sizeof l, .depth = 6};
            gts_result r = {.struct_size = sizeof r};
            cr_expect_eq(gts_pvs(e, &g, s, &l, &r), WANT[k], "call %d returning %d", at, RC[k]);
            if (k == 0)
                cr_expect_eq(r.callback_status, -7, "the callback's code is passed on");
            cr_expect(memcmp(s, copy, 24) == 0, "the state is restored");
            gts_engine_free(e);
        }
    }
    gts_games_free(gts_game_connect4(), s);
    gts_games_free(gts_game_connect4(), copy);
}

/* ---- every exact algorithm on every position -------------------------------------- */

typedef void (*exact_case)(const char *pos, void *s, gts_algorithm alg, int threads);

/* Run @f for every position (with GTS_TEST_DIVISOR, positions spread over
 * the list) and every exact algorithm, at 1 thread and, for parallel
 * ones, at 2. */
static void each_exact(exact_case f)
{
    gts_algorithm algs[32];
    int nalg = gts_algorithm_list(algs, 32);
    size_t count = (size_t)tgame_count(NPOS);
    for (size_t k = 0; k < count; k++) {
        size_t i = k * NPOS / count;
        void *s = c4(POSITIONS[i]);
        for (int a = 0; a < nalg; a++) {
            if (!gts_algorithm_is_exact(algs[a]))
                continue;
            for (int t = 1; t <= (gts_algorithm_is_parallel(algs[a]) ? 2 : 1); t++)
                f(POSITIONS[i], s, algs[a], t);
        }
        gts_games_free(gts_game_connect4(), s);
    }
}

/* ---- table lookahead ------------------------------------------------------------ */

/* Serial: the same tree node for node; parallel: the same score as without. */
static void prefetch_case(const char *pos, void *s, gts_algorithm alg, int t)
{
    gts_engine *on = fx_engine_with(t, 2), *off = fx_engine_with(t, 2);
    cr_assert_eq(gts_engine_set(on, GTS_OPT_TT_PREFETCH, 1), GTS_OK);
    gts_result x = search(on, alg, gts_game_connect4(), s, 8);
    gts_result y = search(off, alg, gts_game_connect4(), s, 8);
    cr_expect_eq(x.score, y.score, "%s %s t%d", pos, gts_algorithm_name(alg), t);
    if (t == 1)
        cr_expect_eq(x.nodes, y.nodes, "%s %s: same tree", pos, gts_algorithm_name(alg));
    gts_engine_free(on);
    gts_engine_free(off);
}

Test(solve, prefetch_never_changes_a_search) { each_exact(prefetch_case); }

/* ---- the table's near part ------------------------------------------------------ */

/* The near part tiny (16 buckets: constant churn) and as the solver sets
 * it: the same score as one table for all nodes, with the plain game and
 * the solver's (bounds, keyed moves, distance scores). */
static void near_case(const char *pos, void *s, gts_algorithm alg, int t)
{
    gts_engine *tiny = fx_engine_with(t, 2), *wide = fx_engine_with(t, 2), *off = fx_engine_with(t, 2);
    cr_assert_eq(gts_engine_set(tiny, GTS_OPT_TT_NEAR_DEPTH, 3), GTS_OK);
    cr_assert_eq(gts_engine_set(tiny, GTS_OPT_TT_NEAR_KB, 1), GTS_OK);
    cr_assert_eq(gts_engine_set(wide, GTS_OPT_TT_NEAR_DEPTH, 12), GTS_OK);
    const gts_game *games[] = {gts_game_connect4(), gts_game_connect4_solver()};
    for (int gi = 0; gi < 2; gi++) {
        gts_result x = search(tiny, alg, games[gi], s, 8);
        gts_result y = search(off, alg, games[gi], s, 8);
        gts_result z = search(wide, alg, games[gi], s, 8);
        cr_expect(x.score == y.score && z.score == y.score, "%s %s t%d game %d: %d %d, off %d",
                  pos, gts_algorithm_name(alg), t, gi, x.score, z.score, y.score);
    }
    gts_engine_free(tiny);
    gts_engine_free(wide);
    gts_engine_free(off);
}

Test(solve, near_part_never_changes_a_score) { each_exact(near_case); }

/* ---- the table is there from the start ------------------------------------------ */

typedef struct live {
    size_t bytes;
} live;

static void *l_allocate(size_t size, void *user)
{
    ((live *)user)->bytes += size;
    return malloc(size);
}

static void l_release(void *p, size_t size, void *user)
{
    ((live *)user)->bytes -= size;
    free(p);
}

Test(solve, table_is_allocated_with_the_engine)
{
    live L = {0};
    gts_allocator a = {sizeof a, l_allocate, l_release, &L};
    gts_engine *e;
    cr_assert_eq(gts_engine_new_with(&e, &a), GTS_OK);
    cr_expect_geq(L.bytes, (size_t)16 << 20, "the default 16 MiB table exists before any search");
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 0), GTS_OK);
    cr_expect_lt(L.bytes, (size_t)1 << 20, "TT_MB 0 frees it");
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 2), GTS_OK);
    cr_expect_geq(L.bytes, (size_t)2 << 20, "setting a size allocates at once");
    size_t before = L.bytes;
    void *s = c4("4453");
    search(e, GTS_ALG_PVS, gts_game_connect4(), s, 6);
    cr_expect_lt(L.bytes - before, (size_t)1 << 20, "a search allocates no table");
    gts_games_free(gts_game_connect4(), s);
    gts_engine_free(e);
    cr_expect_eq(L.bytes, 0, "nothing outstanding");
}

/* ---- full principal variations ---------------------------------------------------- */

/* Replay r's PV on @s: every move legal, and the line ends at the horizon
 * or a finished game whose value, seen from the root, is the score. */
static void check_pv(const gts_game *g, void *s, const gts_result *r, int depth, const char *what)
{
    gts_move moves[64];
    int len = (int)r->pv_length;
    cr_assert_gt(len, 0, "%s: a PV", what);
    cr_expect_eq(r->pv[0], r->best_move, "%s: the PV starts with the best move", what);
    for (int i = 0; i < len; i++) {
        int n = g->generate(s, moves, 64, g->user);
        bool legal = false;
        for (int k = 0; k < n; k++)
            legal |= moves[k] == r->pv[i];
        cr_assert(legal, "%s: PV move %d is legal", what, i);
        cr_assert_eq(g->apply(s, r->pv[i], g->user), 0);
    }
    bool end = len == depth || g->generate(s, moves, 64, g->user) == 0;
    cr_expect(end, "%s: the PV reaches the horizon (%d of %d moves)", what, len, depth);
    if (end) {
        gts_score leaf = g->evaluate(s, g->user);
        cr_expect_eq(len % 2 ? -leaf : leaf, r->score, "%s: the PV's leaf has the score", what);
    }
    for (int i = len - 1; i >= 0; i--)
        cr_assert_eq(g->undo(s, r->pv[i], g->user), 0);
}

Test(solve, exact_algorithms_return_full_principal_variations)
{
    gts_algorithm algs[32];
    int nalg = gts_algorithm_list(algs, 32);
    for (int tree = 0; tree < (int)tgame_count(12); tree++) {
        gts_randtree_params p = {.struct_size = sizeof p, .seed = 77 + (uint64_t)tree,
                                 .branching = 5, .depth = 7, .min_value = -1000,
                                 .max_value = 1000, .branching_jitter = 2,
                                 .ordered_percent = 60};
        void *s = fx_randtree_new(&p);
        const gts_game *g = gts_game_randtree();
        for (int a = 0; a < nalg; a++) {
            if (!gts_algorithm_is_exact(algs[a]) || algs[a] == GTS_ALG_MINIMAX)
                continue;
            for (int t = 1; t <= (gts_algorithm_is_parallel(algs[a]) ? 2 : 1); t++) {
                gts_engine *e = fx_engine_with(t, 2);
                gts_result r = search(e, algs[a], g, s, 7);
                char what[64];
                snprintf(what, sizeof what, "tree %d %s t%d", tree, gts_algorithm_name(algs[a]), t);
                check_pv(g, s, &r, 7, what);
                gts_engine_free(e);
            }
        }
        gts_games_free(g, s);
    }
    for (size_t i = 1; i < NPOS; i++) {
        void *s = c4(POSITIONS[i]);
        for (int a = 0; a < nalg; a++) {
            if (!gts_algorithm_is_exact(algs[a]) || algs[a] == GTS_ALG_MINIMAX)
                continue;
            gts_engine *e = fx_engine_with(1, 4);
            gts_result r = search(e, algs[a], gts_game_connect4(), s, 10);
            char what[64];
            snprintf(what, sizeof what, "%s %s", POSITIONS[i], gts_algorithm_name(algs[a]));
            check_pv(gts_game_connect4(), s, &r, 10, what);
            gts_engine_free(e);
        }
        gts_games_free(gts_game_connect4(), s);
    }
}
