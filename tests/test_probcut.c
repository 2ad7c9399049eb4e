/*
 * ProbCut / Multi-ProbCut (probcut.c): exact when disabled, calibration of
 * the linear model, node savings and agreement once calibrated, parameter
 * validation, and state restoration.
 *
 * Workload: ordered random trees (the incremental model of randtree.c),
 * where interior evaluations are partial sums of the leaf values, so
 * shallow and deep search values correlate as they do in real games.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "fixture.h"

static gts_randtree_params ordered_tree(uint64_t seed, uint32_t branching, uint32_t depth)
{
    gts_randtree_params p = {.struct_size = sizeof p, .seed = seed, .branching = branching,
                             .depth = depth, .min_value = -10000, .max_value = 10000,
                             .ordered_percent = 80};
    return p;
}

static gts_result run(gts_engine *e, gts_algorithm alg, const gts_game *g, void *s, int depth)
{
    return fx_search(e, alg, g, s, depth, 0);
}

/* Parameters with every check switched off (several pairs, to be sure). */
static gts_probcut_params params_off(double off)
{
    gts_probcut_params p = {.struct_size = sizeof p};
    cr_assert_eq(gts_probcut_defaults(&p), GTS_OK);
    p.npairs = 3;
    p.pair[0] = (gts_probcut_pair){1, 3, 1.0, 0.0, 50.0, off};
    p.pair[1] = (gts_probcut_pair){2, 4, 1.0, 0.0, 50.0, off};
    p.pair[2] = (gts_probcut_pair){0, 2, 1.0, 0.0, 50.0, off};
    return p;
}

Test(probcut, infinite_threshold_is_exactly_pvs)
{
    const double offs[] = {HUGE_VAL, INFINITY, GTS_PROBCUT_THRESHOLD_OFF};
    for (uint64_t i = 0; i < tgame_count(240); i++) {
        gts_randtree_params tp = ordered_tree(900 + i, 3 + (uint32_t)(i % 5), 0);
        tp.depth = 9 - (uint32_t)(i % 5);
        tp.transpositions = i % 3 == 0;
        tp.terminal_percent = i % 4 == 0 ? 10 : 0;
        void *s = fx_randtree_new(&tp);
        int depth = (int)tp.depth;
        bool tt = i % 2 == 0, iterative = i % 5 != 4;
        gts_engine *pc = fx_engine(), *pvs = fx_engine(), *ab = fx_engine();
        gts_engine *all[] = {pc, pvs, ab};
        for (int k = 0; k < 3; k++) {
            cr_assert_eq(gts_engine_set(all[k], GTS_OPT_TT_MB, tt ? 2 : 0), GTS_OK);
            cr_assert_eq(gts_engine_set(all[k], GTS_OPT_ITERATIVE, iterative), GTS_OK);
        }
        gts_probcut_params p = params_off(offs[i % 3]);
        p.iid = i % 2 == 1;
        cr_assert_eq(gts_engine_set_probcut(pc, &p), GTS_OK);
        gts_result rpc = run(pc, GTS_ALG_PROBCUT, gts_game_randtree(), s, depth);
        gts_result rpvs = run(pvs, GTS_ALG_PVS, gts_game_randtree(), s, depth);
        gts_result rab = run(ab, GTS_ALG_ALPHABETA, gts_game_randtree(), s, depth);
        cr_expect_eq(rpc.score, rab.score, "tree %llu: probcut %d != alphabeta %d",
                     (unsigned long long)i, rpc.score, rab.score);
        cr_expect_eq(rpc.nodes, rpvs.nodes, "tree %llu: probcut %llu nodes != pvs %llu",
                     (unsigned long long)i, (unsigned long long)rpc.nodes,
                     (unsigned long long)rpvs.nodes);
        cr_expect_eq(rpc.best_move, rpvs.best_move, "tree %llu: same best move",
                     (unsigned long long)i);
        for (int k = 0; k < 3; k++)
            gts_engine_free(all[k]);
        gts_games_free(gts_game_randtree(), s);
    }
}

/* Fit (2, 4) on an ordered tree's positions reached by random play. */
static gts_probcut_fit calibrate(gts_engine *e, uint64_t seed)
{
    gts_randtree_params tp = ordered_tree(seed, 6, 16);
    void *root = fx_randtree_new(&tp);
    gts_probcut_fit fit = {.struct_size = sizeof fit};
    cr_assert_eq(gts_probcut_calibrate(e, gts_game_randtree(), NULL, 0, root, 300, seed, 6, 2,
                                       4, &fit),
                 GTS_OK);
    gts_games_free(gts_game_randtree(), root);
    return fit;
}

Test(probcut, calibration_fits_ordered_trees)
{
    gts_engine *e = fx_engine();
    gts_probcut_fit fit = calibrate(e, 77);
    cr_log_info("probcut fit (2,4): a=%.3f b=%.1f sigma=%.1f r2=%.3f samples=%u skipped=%u",
                fit.a, fit.b, fit.sigma, fit.r2, fit.samples, fit.skipped);
    cr_expect_eq(fit.samples, 300u, "every walk gives a position on a deep tree");
    cr_expect(fit.r2 > 0.5, "shallow and deep values correlate: r2 = %f", fit.r2);
    cr_expect(fit.a > 0.7 && fit.a < 1.3, "slope near 1: a = %f", fit.a);
    cr_expect(fit.sigma > 0 && isfinite(fit.b));

    /* The same fit from explicit positions equals the regression done here. */
    enum { NPOS = 40 };
    void *pos[NPOS];
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < NPOS; i++) {
        gts_randtree_params tp = ordered_tree(300 + (uint64_t)i, 5, 8);
        cr_assert_eq(gts_randtree_new(&tp, &pos[i]), GTS_OK);
        double x = run(e, GTS_ALG_ALPHABETA, gts_game_randtree(), pos[i], 1).score;
        double y = run(e, GTS_ALG_ALPHABETA, gts_game_randtree(), pos[i], 3).score;
        sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    gts_probcut_fit f2 = {.struct_size = sizeof f2};
    cr_assert_eq(gts_probcut_calibrate(e, gts_game_randtree(), pos, NPOS, NULL, 0, 0, 0, 1, 3, &f2),
                 GTS_OK);
    double a = (NPOS * sxy - sx * sy) / (NPOS * sxx - sx * sx);
    double b = (sy - a * sx) / NPOS;
    cr_expect_eq(f2.samples, (uint32_t)NPOS);
    cr_expect(fabs(f2.a - a) < 1e-6 && fabs(f2.b - b) < 1e-3, "a %f vs %f, b %f vs %f", f2.a, a,
              f2.b, b);
    for (int i = 0; i < NPOS; i++)
        gts_games_free(gts_game_randtree(), pos[i]);
    gts_engine_free(e);
}

Test(probcut, calibrated_probcut_saves_nodes_and_mostly_agrees)
{
    gts_engine *cal = fx_engine();
    gts_probcut_fit fit = calibrate(cal, 77);
    gts_engine_free(cal);

    gts_probcut_params p = {.struct_size = sizeof p};
    cr_assert_eq(gts_probcut_defaults(&p), GTS_OK);
    p.npairs = 1;
    p.pair[0] = (gts_probcut_pair){2, 4, fit.a, fit.b, fit.sigma, 1.5};
    gts_engine *pc = fx_engine(), *ab = fx_engine(), *pvs = fx_engine();
    cr_assert_eq(gts_engine_set_probcut(pc, &p), GTS_OK);

    enum { N = 200, DEPTH = 9 };
    uint64_t nodes_pc = 0, nodes_ab = 0, nodes_pvs = 0;
    int agree = 0;
    for (uint64_t i = 0; i < N; i++) {
        gts_randtree_params tp = ordered_tree(5000 + i, 6, DEPTH);
        void *s = fx_randtree_new(&tp);
        gts_engine_clear(pc);
        gts_engine_clear(ab);
        gts_engine_clear(pvs);
        gts_result rpc = run(pc, GTS_ALG_PROBCUT, gts_game_randtree(), s, DEPTH);
        gts_result rab = run(ab, GTS_ALG_ALPHABETA, gts_game_randtree(), s, DEPTH);
        gts_result rpvs = run(pvs, GTS_ALG_PVS, gts_game_randtree(), s, DEPTH);
        cr_expect(rpc.flags & GTS_RESULT_HAS_MOVE);
        nodes_pc += rpc.nodes;
        nodes_ab += rab.nodes;
        nodes_pvs += rpvs.nodes;
        agree += rpc.score == rab.score;
        gts_games_free(gts_game_randtree(), s);
    }
    double rate = 100.0 * agree / N;
    cr_log_info("probcut t=1.5 over %d ordered trees (depth %d): agreement %.1f%%, nodes %llu vs "
                "alphabeta %llu (%.1f%%) and pvs %llu (%.1f%%)",
                N, DEPTH, rate, (unsigned long long)nodes_pc, (unsigned long long)nodes_ab,
                100.0 * (double)nodes_pc / (double)nodes_ab, (unsigned long long)nodes_pvs,
                100.0 * (double)nodes_pc / (double)nodes_pvs);
    fprintf(stderr, "probcut: agreement %.1f%%, nodes %.1f%% of alphabeta, %.1f%% of pvs\n", rate,
            100.0 * (double)nodes_pc / (double)nodes_ab,
            100.0 * (double)nodes_pc / (double)nodes_pvs);
    cr_expect(rate >= 60.0, "ProbCut agrees with the exact value on most trees: %.1f%%", rate);
    cr_expect(nodes_pc < nodes_ab, "fewer nodes than alpha-beta: %llu vs %llu",
              (unsigned long long)nodes_pc, (unsigned long long)nodes_ab);
    cr_expect(nodes_pc < nodes_pvs, "fewer nodes than PVS: %llu vs %llu",
              (unsigned long long)nodes_pc, (unsigned long long)nodes_pvs);
    gts_engine_free(pc);
    gts_engine_free(ab);
    gts_engine_free(pvs);
}

/* Multi-ProbCut: two pairs per deep depth and checks nested in checks. */
Test(probcut, multi_probcut_prunes_and_stays_close)
{
    gts_engine *cal = fx_engine();
    gts_randtree_params tp = ordered_tree(91, 6, 16);
    void *root = fx_randtree_new(&tp);
    gts_probcut_params p = {.struct_size = sizeof p};
    cr_assert_eq(gts_probcut_defaults(&p), GTS_OK);
    const int32_t pairs[][2] = {{1, 3}, {2, 4}, {1, 4}, {3, 5}};
    p.npairs = 4;
    for (uint32_t k = 0; k < p.npairs; k++) {
        gts_probcut_fit fit = {.struct_size = sizeof fit};
        cr_assert_eq(gts_probcut_calibrate(cal, gts_game_randtree(), NULL, 0, root, 200, k, 6,
                                           pairs[k][0], pairs[k][1], &fit),
                     GTS_OK);
        p.pair[k] = (gts_probcut_pair){pairs[k][0], pairs[k][1], fit.a, fit.b, fit.sigma, 2.0};
    }
    gts_games_free(gts_game_randtree(), root);
    gts_engine_free(cal);

    gts_engine *pc = fx_engine(), *ab = fx_engine();
    cr_assert_eq(gts_engine_set_probcut(pc, &p), GTS_OK);
    uint64_t npc = 0, nab = 0;
    int agree = 0;
    for (uint64_t i = 0; i < 60; i++) {
        gts_randtree_params t = ordered_tree(7000 + i, 6, 9);
        void *s = fx_randtree_new(&t);
        gts_result a = run(pc, GTS_ALG_PROBCUT, gts_game_randtree(), s, 9);
        gts_result b = run(ab, GTS_ALG_ALPHABETA, gts_game_randtree(), s, 9);
        npc += a.nodes;
        nab += b.nodes;
        agree += a.score == b.score;
        gts_games_free(gts_game_randtree(), s);
    }
    cr_log_info("multi-probcut: agreement %d/60, nodes %llu vs %llu", agree,
                (unsigned long long)npc, (unsigned long long)nab);
    cr_expect(npc < nab, "Multi-ProbCut prunes");
    cr_expect(agree >= 30, "and stays close: %d/60", agree);
    gts_engine_free(pc);
    gts_engine_free(ab);
}

Test(probcut, parameters_are_validated)
{
    gts_engine *e = fx_engine();
    gts_probcut_params def = {.struct_size = sizeof def}, p, got;
    cr_assert_eq(gts_probcut_defaults(&def), GTS_OK);
    cr_expect_eq(gts_probcut_defaults(NULL), GTS_EINVAL);

    /* A fresh engine has the defaults; NULL restores them. */
    got.struct_size = sizeof got;
    cr_assert_eq(gts_engine_get_probcut(e, &got), GTS_OK);
    cr_expect_eq(memcmp(&got, &def, sizeof got), 0, "defaults");
    cr_expect_eq(def.npairs, 1u);
    cr_expect(def.pair[0].shallow_depth < def.pair[0].deep_depth && def.pair[0].sigma > 0);

    p = def;
    p.npairs = 2;
    p.pair[1] = (gts_probcut_pair){3, 6, 0.9, -4.0, 42.0, 2.5};
    p.iid = false;
    cr_expect_eq(gts_engine_set_probcut(e, &p), GTS_OK);
    cr_assert_eq(gts_engine_get_probcut(e, &got), GTS_OK);
    cr_expect_eq(memcmp(&got, &p, sizeof got), 0, "round trip");

    struct bad {
        const char *what;
        int status;
        gts_probcut_params p;
    } bad[16];
    int nbad = 0;
#define BAD(desc, st, stmt)                                                                \
    do {                                                                                   \
        bad[nbad].what = desc;                                                             \
        bad[nbad].status = st;                                                             \
        bad[nbad].p = def;                                                                 \
        gts_probcut_params *q = &bad[nbad].p;                                              \
        stmt;                                                                              \
        nbad++;                                                                            \
    } while (0)
    BAD("struct_size", GTS_ESTRUCT, q->struct_size = sizeof *q - 8);
    BAD("npairs", GTS_ERANGE, q->npairs = GTS_PROBCUT_MAX_PAIRS + 1);
    BAD("shallow == deep", GTS_ERANGE, q->pair[0].shallow_depth = q->pair[0].deep_depth);
    BAD("negative shallow", GTS_ERANGE, q->pair[0].shallow_depth = -1);
    BAD("deep too deep", GTS_ERANGE, q->pair[0].deep_depth = GTS_MAX_DEPTH + 1);
    BAD("sigma 0", GTS_ERANGE, q->pair[0].sigma = 0);
    BAD("sigma NaN", GTS_ERANGE, q->pair[0].sigma = NAN);
    BAD("a 0", GTS_ERANGE, q->pair[0].a = 0);
    BAD("a negative", GTS_ERANGE, q->pair[0].a = -1);
    BAD("b infinite", GTS_ERANGE, q->pair[0].b = INFINITY);
    BAD("threshold negative", GTS_ERANGE, q->pair[0].threshold = -0.5);
    BAD("threshold NaN", GTS_ERANGE, q->pair[0].threshold = NAN);
    BAD("second pair bad", GTS_ERANGE, (q->npairs = 2, q->pair[1].deep_depth = 0));
#undef BAD
    for (int i = 0; i < nbad; i++) {
        cr_expect_eq(gts_engine_set_probcut(e, &bad[i].p), bad[i].status, "%s: %s", bad[i].what,
                     gts_status_name(gts_engine_set_probcut(e, &bad[i].p)));
        cr_assert_eq(gts_engine_get_probcut(e, &got), GTS_OK);
        cr_expect_eq(memcmp(&got, &p, sizeof got), 0, "%s: parameters unchanged", bad[i].what);
    }
    /* Unused pairs are not checked; a zero threshold is legal. */
    p = def;
    p.pair[5].sigma = -1;
    p.pair[0].threshold = 0;
    cr_expect_eq(gts_engine_set_probcut(e, &p), GTS_OK);

    cr_expect_eq(gts_engine_set_probcut(NULL, &p), GTS_EINVAL);
    cr_expect_eq(gts_engine_set_probcut(e, NULL), GTS_OK);
    cr_assert_eq(gts_engine_get_probcut(e, &got), GTS_OK);
    cr_expect_eq(memcmp(&got, &def, sizeof got), 0, "NULL restores the defaults");
    cr_expect_eq(gts_engine_get_probcut(NULL, &got), GTS_EINVAL);
    cr_expect_eq(gts_engine_get_probcut(e, NULL), GTS_EINVAL);
    got.struct_size = 3;
    cr_expect_eq(gts_engine_get_probcut(e, &got), GTS_ESTRUCT);
    gts_engine_free(e);
}

Test(probcut, calibrate_rejects_bad_arguments)
{
    gts_engine *e = fx_engine();
    tgame g;
    gts_game v = tgame_new(&g, 5, 3, 8, true);
    gts_probcut_fit fit = {.struct_size = sizeof fit};
    void *pos[1] = {&g};
    cr_expect_eq(gts_probcut_calibrate(NULL, &v, NULL, 0, &g, 10, 1, 4, 1, 3, &fit), GTS_EINVAL);
    cr_expect_eq(gts_probcut_calibrate(e, NULL, NULL, 0, &g, 10, 1, 4, 1, 3, &fit), GTS_EINVAL);
    cr_expect_eq(gts_probcut_calibrate(e, &v, NULL, 0, &g, 10, 1, 4, 1, 3, NULL), GTS_EINVAL);
    cr_expect_eq(gts_probcut_calibrate(e, &v, NULL, 0, NULL, 10, 1, 4, 1, 3, &fit), GTS_EINVAL);
    cr_expect_eq(gts_probcut_calibrate(e, &v, NULL, 0, &g, 0, 1, 4, 1, 3, &fit), GTS_EINVAL);
    cr_expect_eq(gts_probcut_calibrate(e, &v, pos, 0, NULL, 0, 1, 4, 1, 3, &fit), GTS_EINVAL);
    cr_expect_eq(gts_probcut_calibrate(e, &v, NULL, 0, &g, 10, 1, 4, 0, 3, &fit), GTS_ERANGE);
    cr_expect_eq(gts_probcut_calibrate(e, &v, NULL, 0, &g, 10, 1, 4, 3, 3, &fit), GTS_ERANGE);
    cr_expect_eq(gts_probcut_calibrate(e, &v, NULL, 0, &g, 10, 1, 4, 1, GTS_MAX_DEPTH + 1, &fit),
                 GTS_ERANGE);
    cr_expect_eq(gts_probcut_calibrate(e, &v, NULL, 0, &g, 10, 1, GTS_MAX_PLY + 1, 1, 3, &fit),
                 GTS_ERANGE);
    fit.struct_size = 8;
    cr_expect_eq(gts_probcut_calibrate(e, &v, NULL, 0, &g, 10, 1, 4, 1, 3, &fit), GTS_ESTRUCT);
    fit.struct_size = sizeof fit;
    gts_game v2 = v;
    v2.struct_size = 8;
    cr_expect_eq(gts_probcut_calibrate(e, &v2, NULL, 0, &g, 10, 1, 4, 1, 3, &fit), GTS_ESTRUCT);
    /* Finished games only: nothing to fit, and they are counted. */
    tgame done;
    tgame_init(&done, 5, 3, 0);
    void *dpos[3] = {&done, &done, &done};
    cr_expect_eq(gts_probcut_calibrate(e, &v, dpos, 3, NULL, 0, 0, 0, 1, 3, &fit), GTS_ERANGE);
    cr_expect_eq(fit.samples, 0u);
    cr_expect_eq(fit.skipped, 3u);
    gts_engine_free(e);
}

Test(probcut, calibrate_and_search_restore_states)
{
    for (int f = 0; f < 3; f++) {
        tgame g, copy;
        tgame_faults faults = {0};
        tgame_init(&g, 8 + (uint64_t)f, 4, 9);
        if (f > 0) {
            g.f = &faults;
            if (f == 1) faults.fail_apply_at = 5000;
            if (f == 2) faults.fail_evaluate_at = 3000;
        }
        copy = g;
        gts_game v = tgame_vtable(&g, true);
        gts_engine *e = fx_engine();
        gts_probcut_fit fit = {.struct_size = sizeof fit};
        int rc = gts_probcut_calibrate(e, &v, NULL, 0, &g, 50, 99, 5, 1, 3, &fit);
        if (f == 0) {
            cr_expect_eq(rc, GTS_OK, "%s", gts_status_name(rc));
            cr_expect_eq(fit.samples, 50u);
        } else {
            cr_expect_eq(rc, GTS_ECALLBACK, "fault %d: %s", f, gts_status_name(rc));
        }
        cr_expect_eq(memcmp(&copy, &g, sizeof g), 0, "fault %d: calibrate restores the root", f);

        /* The search itself, with checks running, restores the state too. */
        faults = (tgame_faults){0};
        if (f == 1) faults.fail_apply_at = 4000;
        if (f == 2) faults.fail_evaluate_at = 2500;
        gts_probcut_params p = {.struct_size = sizeof p};
        gts_probcut_defaults(&p);
        p.pair[0] = (gts_probcut_pair){1, 3, 1.0, 0.0, 20.0, 0.5};
        cr_assert_eq(gts_engine_set_probcut(e, &p), GTS_OK);
        gts_limits l = {.struct_size = sizeof l, .depth = 8};
        gts_result r = {.struct_size = sizeof r};
        rc = gts_probcut(e, &v, &g, &l, &r);
        cr_expect_eq(rc, f == 0 ? GTS_OK : GTS_ECALLBACK, "search fault %d: %s", f,
                     gts_status_name(rc));
        cr_expect_eq(memcmp(&copy, &g, sizeof g), 0, "fault %d: search restores the state", f);
        gts_engine_free(e);
    }
}

Test(probcut, tictactoe_stays_a_draw)
{
    /* Tic-tac-toe's interior evaluation is 0 and its other scores are
     * decided: a shallow value beyond a bound is a proof, and decided
     * bounds are never cut against, so ProbCut still finds the draw. */
    const gts_game *g = gts_game_tictactoe();
    void *s;
    cr_assert_eq(gts_tictactoe_new(NULL, &s), GTS_OK);
    gts_engine *e = fx_engine();
    cr_assert_eq(gts_engine_set_probcut(e, NULL), GTS_OK);
    gts_result r = run(e, GTS_ALG_PROBCUT, g, s, 9);
    cr_expect(r.flags & GTS_RESULT_HAS_MOVE);
    cr_expect_eq(r.score, 0, "tic-tac-toe is a draw: %d", r.score);
    gts_games_free(g, s);
    gts_engine_free(e);
}
