/*
 * MCTS with a batch evaluator (PUCT, gts_engine_set_evaluator, issue 34):
 * exact-value leaves give minimax-best moves, the visit distribution sums
 * to the visits, a seed and a batch size give one search, the priors steer
 * it, noise and temperature, and failures of the evaluator unwind like
 * every callback's.
 *
 * The reference is tgame's plain negamax (tgame.h), not the library.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gts/gts.h>
#include "fixture.h"

/* ---- evaluators over tgame ------------------------------------------------------ */

typedef struct ev_ctx {
    const gts_game *v;
    int calls, positions;  /* evaluate() calls, positions seen */
    int fail_at;           /* call number that returns -5 (0: never) */
    int bad_at;            /* call number that returns a value of 2 */
    int favour;            /* > 0: prior weight 100 on move favour - 1 */
    uint32_t max_n;        /* largest batch seen */
    bool exact;            /* values: tgame's negamax / 100 */
    bool heuristic;        /* values: tgame's evaluate() / 100; neither: 0 */
} ev_ctx;

static int ev_tgame(const gts_eval_batch *b, void *ctx)
{
    ev_ctx *x = ctx;
    /* workers call it concurrently: atomic counters */
    int call = __atomic_add_fetch(&x->calls, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&x->positions, (int)b->n, __ATOMIC_RELAXED);
    uint32_t seen = __atomic_load_n(&x->max_n, __ATOMIC_RELAXED);
    while (b->n > seen
           && !__atomic_compare_exchange_n(&x->max_n, &seen, b->n, false, __ATOMIC_RELAXED,
                                           __ATOMIC_RELAXED))
        ;
    if (x->fail_at && call == x->fail_at)
        return -5;
    cr_assert_eq(b->struct_size, sizeof *b);
    cr_assert_eq(b->offsets[0], 0u);
    for (uint32_t i = 0; i < b->n; i++) {
        tgame *g = b->states[i];
        uint32_t lo = b->offsets[i], hi = b->offsets[i + 1];
        cr_assert(hi > lo, "a position with moves");
        cr_assert_eq((int)(hi - lo), g->branching, "every move given");
        for (uint32_t j = lo; j < hi; j++) {
            cr_assert_eq(b->moves[j], (gts_move)(j - lo), "generate() order");
            cr_assert_float_eq(b->priors[j], 1.0f / (float)(hi - lo), 1e-6, "prefilled uniform");
        }
        cr_assert_eq(b->values[i], 0.0f, "prefilled 0");
        if (x->exact)
            b->values[i] = (float)tgame_negamax(g, x->v, GTS_MAX_DEPTH, 0) / 100.0f;
        if (x->heuristic)
            b->values[i] = (float)x->v->evaluate(g, NULL) / 100.0f;
        if (x->favour > 0)
            b->priors[lo + (uint32_t)(x->favour - 1) % (hi - lo)] = 100.0f;
    }
    if (x->bad_at && call == x->bad_at)
        b->values[0] = 2.0f;
    return 0;
}

static gts_engine *engine_with(ev_ctx *x, int threads, int64_t playouts, int64_t batch)
{
    gts_engine *e;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, threads), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, playouts), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_BATCH, batch), GTS_OK);
    gts_evaluator ev = {.struct_size = sizeof ev, .evaluate = ev_tgame, .ctx = x};
    cr_assert_eq(gts_engine_set_evaluator(e, &ev), GTS_OK);
    return e;
}

static int stats(gts_engine *e, gts_mcts_move_stats *st, int cap)
{
    st[0].struct_size = sizeof st[0];
    int n = gts_mcts_root_stats(e, st, cap);
    cr_assert(n > 0 && n <= cap, "root stats: %d", n);
    return n;
}

/* The value of root move @m of @g to the end (tgame's negamax). */
static gts_score move_value(tgame *g, const gts_game *v, gts_move m)
{
    cr_assert_eq(v->apply(g, m, NULL), 0);
    gts_score x = -tgame_negamax(g, v, GTS_MAX_DEPTH, 1);
    cr_assert_eq(v->undo(g, m, NULL), 0);
    return x;
}

/* ---- quality ------------------------------------------------------------------------ */

/* Exact-value leaves and the evaluator's uniform prior: under a budget of
 * 8 visits per node of the tree the most visited move is minimax-best; at
 * every batch size and thread count. Without a budget the solver proves
 * the root's exact value. */
Test(puct, exact_values_uniform_prior_give_minimax_moves, .timeout = 600)
{
    static const int config[][2] = {{1, 1}, {1, 8}, {2, 1}, {2, 8}}; /* threads, batch */
    for (int k = 0; k < 4; k++) {
        int threads = config[k][0], batch = config[k][1];
        int best = 0, proven = 0, trees = (int)tgame_count(60);
        for (int seed = 1; seed <= trees; seed++) {
            tgame g, before;
            int b = 2 + seed % 3, d = 3 + seed % 3;
            tgame_init(&g, (uint64_t)seed * 31, b, d);
            before = g;
            gts_game v = tgame_vtable(&g, false);
            ev_ctx x = {.v = &v, .exact = true};
            int64_t size = 0;
            for (int i = 0, w = 1; i <= d; i++, w *= b)
                size += w;
            gts_engine *e = engine_with(&x, threads, 8 * size, batch);
            gts_result r = {.struct_size = sizeof r};
            cr_assert_eq(gts_mcts(e, &v, &g, NULL, &r), GTS_OK);
            cr_assert(memcmp(&g, &before, sizeof g) == 0, "state restored");
            gts_score want = tgame_negamax(&g, &v, GTS_MAX_DEPTH, 0);
            cr_assert_eq(move_value(&g, &v, r.best_move), want,
                         "tree %d (%d threads, batch %d): move %llu is not minimax-best", seed,
                         threads, batch, (unsigned long long)r.best_move);
            best++;
            /* no budget: proven */
            cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 0), GTS_OK);
            cr_assert_eq(gts_mcts(e, &v, &g, NULL, &r), GTS_OK);
            cr_assert_eq(r.score, want, "tree %d: proven %d, minimax %d", seed, r.score, want);
            cr_assert_eq(move_value(&g, &v, r.best_move), want);
            proven++;
            cr_assert(x.max_n <= (uint32_t)batch, "batches within the option");
            if (batch > 1 && size > 40)
                cr_assert(x.max_n > 1, "tree %d: batches of several leaves", seed);
            gts_engine_free(e);
        }
        cr_assert_eq(best, trees);
        cr_assert_eq(proven, trees);
    }
}

/* A prior concentrated on one move sends the visits there. */
Test(puct, priors_steer_the_visits)
{
    tgame g;
    gts_game v = tgame_new(&g, 77, 5, 6, false);
    for (int favour = 1; favour <= 5; favour++) {
        ev_ctx x = {.v = &v, .favour = favour};
        gts_engine *e = engine_with(&x, 1, 400, 1);
        gts_result r = {.struct_size = sizeof r};
        cr_assert_eq(gts_mcts(e, &v, &g, NULL, &r), GTS_OK);
        gts_mcts_move_stats st[5];
        int n = stats(e, st, 5);
        cr_assert_eq(n, 5);
        for (int i = 0; i < n; i++) {
            /* weights 100 and the prefilled 1/5 */
            double want = i == favour - 1 ? 100.0 / 100.8 : 0.2 / 100.8;
            cr_assert_float_eq(st[i].prior, want, 1e-6, "normalised prior of move %d", i);
            if (i != favour - 1)
                cr_assert(st[i].visits * 4 < st[favour - 1].visits, "move %d: %llu visits", i,
                          (unsigned long long)st[i].visits);
        }
        cr_assert_eq(r.best_move, (gts_move)(favour - 1));
        gts_engine_free(e);
    }
}

/* ---- the visit distribution, reproducibility --------------------------------------- */

static uint64_t root_visits(gts_engine *e, gts_mcts_move_stats *st, int cap, int *n)
{
    *n = stats(e, st, cap);
    uint64_t sum = 0;
    for (int i = 0; i < *n; i++)
        sum += st[i].visits;
    return sum;
}

Test(puct, visit_distribution_sums_to_the_visits)
{
    for (int batch = 1; batch <= 64; batch *= 4)
        for (int threads = 1; threads <= 2; threads++) {
            tgame g;
            gts_game v = tgame_new(&g, 9, 4, 8, false);
            ev_ctx x = {.v = &v};
            gts_engine *e = engine_with(&x, threads, 3000, batch);
            gts_result r = {.struct_size = sizeof r};
            cr_assert_eq(gts_mcts(e, &v, &g, NULL, &r), GTS_OK);
            gts_mcts_move_stats st[4];
            int n;
            cr_assert_eq(root_visits(e, st, 4, &n), 3000u, "batch %d, %d threads", batch,
                         threads);
            /* one evaluation per leaf that was not a finished game, plus the root's */
            cr_assert(x.positions >= 1 && x.positions <= 3001, "%d positions", x.positions);
            gts_engine_free(e);
        }
}

/* The same seed and batch size give the same search, with noise and a
 * temperature too; another seed gives other noise. */
Test(puct, same_seed_and_batch_same_search)
{
    tgame g;
    gts_game v = tgame_new(&g, 21, 6, 7, false);
    for (int batch = 1; batch <= 16; batch *= 4) {
        gts_mcts_move_stats st[2][3][6];
        gts_move best[2][3];
        for (int rep = 0; rep < 2; rep++)
            for (int seed = 0; seed < 3; seed++) {
                ev_ctx x = {.v = &v, .exact = true};
                gts_engine *e = engine_with(&x, 1, 2000, batch);
                cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_SEED, seed < 2 ? 5 : 6), GTS_OK);
                cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_NOISE_FRACTION, seed ? 25 : 0),
                             GTS_OK);
                cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_TEMPERATURE, 100), GTS_OK);
                gts_result r = {.struct_size = sizeof r};
                cr_assert_eq(gts_mcts(e, &v, &g, NULL, &r), GTS_OK);
                int n;
                root_visits(e, st[rep][seed], 6, &n);
                best[rep][seed] = r.best_move;
                gts_engine_free(e);
            }
        for (int seed = 0; seed < 3; seed++) {
            cr_assert_eq(best[0][seed], best[1][seed]);
            for (int i = 0; i < 6; i++) {
                cr_assert_eq(st[0][seed][i].visits, st[1][seed][i].visits, "batch %d", batch);
                cr_assert_eq(st[0][seed][i].prior, st[1][seed][i].prior);
            }
        }
        /* noise: priors sum to 1, differ from uniform and between seeds */
        double sum = 0.0;
        bool uniform = true, same = true;
        for (int i = 0; i < 6; i++) {
            sum += st[0][1][i].prior;
            uniform = uniform && fabs(st[0][1][i].prior - 1.0 / 6) < 1e-6;
            same = same && st[0][1][i].prior == st[0][2][i].prior;
            cr_assert_float_eq(st[0][0][i].prior, 1.0 / 6, 1e-6, "no noise: uniform");
        }
        cr_assert_float_eq(sum, 1.0, 1e-5);
        cr_assert(!uniform && !same, "noise drawn from the seed");
    }
}

/* The temperature draws moves by visits: at T = 1 over many seeds each
 * move is chosen about as often as its share of the visits. */
Test(puct, temperature_draws_by_visits)
{
    tgame g;
    gts_game v = tgame_new(&g, 3, 3, 10, false); /* too large to be proven */
    ev_ctx x = {.v = &v, .heuristic = true};
    gts_engine *e = engine_with(&x, 1, 300, 1);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_REUSE, 0), GTS_OK);
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(gts_mcts(e, &v, &g, NULL, &r), GTS_OK);
    gts_mcts_move_stats st[3];
    int n;
    uint64_t total = root_visits(e, st, 3, &n);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_TEMPERATURE, 100), GTS_OK);
    int chosen[3] = {0};
    enum { DRAWS = 600 };
    for (int seed = 0; seed < DRAWS; seed++) {
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_SEED, seed), GTS_OK);
        cr_assert_eq(gts_mcts(e, &v, &g, NULL, &r), GTS_OK);
        chosen[r.best_move]++;
    }
    printf("# chosen %d %d %d of visits %llu %llu %llu\n", chosen[0], chosen[1], chosen[2],
           (unsigned long long)st[0].visits, (unsigned long long)st[1].visits,
           (unsigned long long)st[2].visits);
    /* the same visits every time (the evaluator's values do not depend on
     * the seed, and there is no noise) */
    cr_assert_eq(root_visits(e, st, 3, &n), total);
    for (int i = 0; i < 3; i++) {
        double share = (double)st[i].visits / (double)total;
        cr_assert(fabs(chosen[i] / (double)DRAWS - share) < 0.07, "move %d: %d of %d, share %.2f",
                  i, chosen[i], DRAWS, share);
    }
    gts_engine_free(e);
}

/* ---- failures ----------------------------------------------------------------------- */

/* The k-th evaluator call fails, or answers out of range: GTS_ECALLBACK,
 * its status, the state restored (the batch's clones too: freed), and the
 * engine searches exactly afterwards, also from the tree it kept. */
Test(puct, evaluator_failures_unwind)
{
    for (int batch = 1; batch <= 8; batch *= 8)
        for (int threads = 1; threads <= 2; threads++)
            for (int kind = 0; kind < 2; kind++)
                for (int at = 1; at <= 40; at += 3) {
                    tgame g, before;
                    gts_game v = tgame_new(&g, 12, 3, 6, false);
                    before = g;
                    ev_ctx x = {.v = &v, .exact = true};
                    *(kind ? &x.bad_at : &x.fail_at) = at;
                    gts_engine *e = engine_with(&x, threads, 0, batch);
                    gts_result r = {.struct_size = sizeof r};
                    int rc = gts_mcts(e, &v, &g, NULL, &r);
                    if (x.calls < at) {
                        cr_assert_eq(rc, GTS_OK);
                    } else {
                        cr_assert_eq(rc, GTS_ECALLBACK, "at %d: %s", at, gts_status_name(rc));
                        cr_assert_eq(r.callback_status, kind ? -1 : -5);
                    }
                    cr_assert(memcmp(&g, &before, sizeof g) == 0, "state restored");
                    x.fail_at = x.bad_at = 0;
                    cr_assert_eq(gts_mcts_advance(e, NULL, 0, NULL) >= 0, true);
                    cr_assert_eq(gts_mcts(e, &v, &g, NULL, &r), GTS_OK);
                    cr_assert_eq(r.score, tgame_negamax(&g, &v, GTS_MAX_DEPTH, 0));
                    gts_engine_free(e);
                }
}

/* ---- the API --------------------------------------------------------------------------- */

static int ev_nothing(const gts_eval_batch *b, void *ctx)
{
    (void)b, (void)ctx;
    return 0;
}

Test(puct, set_evaluator_checks_and_removal)
{
    gts_engine *e;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    gts_evaluator ev = {.struct_size = sizeof ev, .evaluate = ev_nothing};
    cr_assert_eq(gts_engine_set_evaluator(NULL, &ev), GTS_EINVAL);
    gts_evaluator none = {.struct_size = sizeof none};
    cr_assert_eq(gts_engine_set_evaluator(e, &none), GTS_EINVAL);
    gts_evaluator small = {.struct_size = GTS_EVALUATOR_SIZE_V0_3 - 1, .evaluate = ev_nothing};
    cr_assert_eq(gts_engine_set_evaluator(e, &small), GTS_ESTRUCT);
    cr_assert_eq(gts_struct_size(GTS_STRUCT_EVALUATOR), sizeof(gts_evaluator));
    cr_assert_eq(gts_engine_set_evaluator(e, NULL), GTS_OK, "removing none is fine");

    /* bounds of the options */
    static const struct {
        gts_option id;
        int64_t lo, hi, def;
        const char *name;
    } opts[] = {
        {GTS_OPT_MCTS_CPUCT, 0, 10000, 125, "mcts_cpuct"},
        {GTS_OPT_MCTS_FPU, 0, 100, 0, "mcts_fpu"},
        {GTS_OPT_MCTS_BATCH, 1, 1024, 1, "mcts_batch"},
        {GTS_OPT_MCTS_NOISE_ALPHA, 1, 100000, 300, "mcts_noise_alpha"},
        {GTS_OPT_MCTS_NOISE_FRACTION, 0, 100, 0, "mcts_noise_fraction"},
        {GTS_OPT_MCTS_TEMPERATURE, 0, 10000, 0, "mcts_temperature"},
    };
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
        int64_t lo, hi, def;
        cr_assert_eq(gts_option_bounds(opts[i].id, &lo, &hi, &def), GTS_OK);
        cr_assert(lo == opts[i].lo && hi == opts[i].hi && def == opts[i].def, "%s",
                  opts[i].name);
        cr_assert_str_eq(gts_option_name(opts[i].id), opts[i].name);
        cr_assert_eq(gts_engine_set(e, opts[i].id, opts[i].hi + 1), GTS_ERANGE);
    }

    /* A batch above 1 needs clone(); a game without it is refused. */
    tgame g;
    gts_game v = tgame_new(&g, 4, 3, 4, false);
    v.clone = NULL;
    v.free = NULL;
    cr_assert_eq(gts_engine_set_evaluator(e, &ev), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_BATCH, 4), GTS_OK);
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(gts_mcts(e, &v, &g, NULL, &r), GTS_EINVAL);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_BATCH, 1), GTS_OK);
    cr_assert_eq(gts_mcts(e, &v, &g, NULL, &r), GTS_OK);
    gts_engine_free(e);
}

/* Without an evaluator (never set, or removed) MCTS is the search it was:
 * the same root statistics as an engine that never had one. */
Test(puct, removed_evaluator_plays_out_again)
{
    tgame g;
    gts_game v = tgame_new(&g, 8, 4, 7, false);
    gts_mcts_move_stats st[2][4];
    for (int k = 0; k < 2; k++) {
        ev_ctx x = {.v = &v};
        gts_engine *e = engine_with(&x, 1, 500, 1);
        if (k == 0)
            cr_assert_eq(gts_engine_set_evaluator(e, NULL), GTS_OK);
        else
            cr_assert_eq(gts_engine_set_evaluator(e, &(gts_evaluator){
                                                         .struct_size = sizeof(gts_evaluator),
                                                         .evaluate = ev_nothing}),
                         GTS_OK);
        if (k == 1)
            cr_assert_eq(gts_engine_set_evaluator(e, NULL), GTS_OK);
        gts_result r = {.struct_size = sizeof r};
        cr_assert_eq(gts_mcts(e, &v, &g, NULL, &r), GTS_OK);
        stats(e, st[k], 4);
        cr_assert_eq(x.calls, 0, "never called");
        gts_engine_free(e);
    }
    for (int i = 0; i < 4; i++)
        cr_assert_eq(st[0][i].visits, st[1][i].visits);
}

/* The engine's allocator failing the k-th call, for every k, with an
 * evaluator and batches of 4 (the batch's arrays and slot clones are
 * allocated at the start of the search): GTS_ENOMEM or a result, the
 * state restored, nothing leaked, the engine usable once memory is back. */
Test(puct, every_allocation_failing_once)
{
    const gts_allocator alloc = fx_counting_allocator;
    for (int threads = 1; threads <= 2; threads++) {
        long k = 1;
        int enomem = 0;
        for (;; k++) {
            fx_alloc_arm(k);
            tgame g, before;
            gts_game v = tgame_new(&g, 9, 6, 8, false);
            before = g;
            ev_ctx x = {.v = &v};
            gts_evaluator ev = {.struct_size = sizeof ev, .evaluate = ev_tgame, .ctx = &x};
            gts_engine *e;
            int rc = gts_engine_new_with(&e, &alloc);
            if (rc == GTS_ENOMEM) {
                cr_assert_eq(FX_ALLOC.live, 0);
                continue;
            }
            rc = gts_engine_set_evaluator(e, &ev);
            if (rc == GTS_ENOMEM) {
                gts_engine_free(e);
                cr_assert_eq(FX_ALLOC.live, 0);
                continue;
            }
            cr_assert_eq(rc, GTS_OK);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 0), GTS_OK);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, threads), GTS_OK);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 3000), GTS_OK);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_BATCH, 4), GTS_OK);
            gts_result r = {.struct_size = sizeof r};
            rc = gts_mcts(e, &v, &g, NULL, &r);
            cr_assert(rc == GTS_OK || rc == GTS_ENOMEM, "k=%ld: %s", k, gts_status_name(rc));
            enomem += rc == GTS_ENOMEM;
            cr_assert(memcmp(&g, &before, sizeof g) == 0, "k=%ld: state restored", k);
            FX_ALLOC.fail_at = 0;
            cr_assert_eq(gts_mcts(e, &v, &g, NULL, &r), GTS_OK, "k=%ld: usable afterwards", k);
            gts_engine_free(e);
            cr_assert_eq(FX_ALLOC.live, 0, "k=%ld: %ld blocks leaked", k, FX_ALLOC.live);
            if (FX_ALLOC.calls < k)
                break;
        }
        cr_assert(k > 10 && enomem > 5, "%d threads: %ld allocations, %d failed searches",
                  threads, k, enomem);
    }
}

/* ---- faithfulness: PUCT as written, step by step --------------------------------- */

/*
 * PUCT as AlphaGo Zero describes it (Silver et al. 2017, "Mastering the game
 * of Go without human knowledge", Methods: select argmax Q + U with
 * U = c_puct P sqrt(N) / (1 + n); expand and evaluate a leaf once; back the
 * value up the path), with the first-play urgency and the reward units that
 * mcts.h documents: rewards (v + 1) / 2 in [0, 1] kept in units of 2^-20
 * (doc/architecture.md), N a node's visits (its own evaluation included),
 * an unvisited child's Q the parent's mean less fpu (at the root, whose
 * evaluation is not counted, its children's mean). Written here over an
 * explicit tree, independently of lib/: one thread, batch 1, no noise; the
 * root moves' visits and sums after each budget must be the library's.
 */
enum { REF_NODES = 1 << 16 };

typedef struct ref_node {
    uint32_t first, n;    /* children */
    uint64_t sum, visits; /* sum in 2^-20 units, for the side that moved here */
    float prior;
    bool expanded;
} ref_node;

typedef struct ref_tree {
    ref_node node[REF_NODES];
    uint32_t used;
    double cpuct, fpu;
} ref_tree;

static const double REF_ONE = 1048576.0;

/* The test evaluator's priors: weights from the state's key. */
static float ref_weight(const tgame *g, uint32_t j)
{
    return (float)(1 + ((g->path[g->ply] >> (4 * j)) & 15));
}

static int ev_keyed(const gts_eval_batch *b, void *ctx)
{
    (void)ctx;
    for (uint32_t i = 0; i < b->n; i++) {
        tgame *g = b->states[i];
        b->values[i] = (float)tgame_evaluate(g, NULL) / 100.0f;
        for (uint32_t j = b->offsets[i]; j < b->offsets[i + 1]; j++)
            b->priors[j] = ref_weight(g, j - b->offsets[i]);
    }
    return 0;
}

/* Expand node @x at the state @g: children with the normalised priors;
 * the value of @g from its side to move. */
static double ref_expand(ref_tree *t, uint32_t x, tgame *g)
{
    ref_node *nd = &t->node[x];
    nd->first = t->used;
    nd->n = (uint32_t)g->branching;
    t->used += nd->n;
    cr_assert(t->used <= REF_NODES);
    double sum = 0.0;
    for (uint32_t j = 0; j < nd->n; j++)
        sum += ref_weight(g, j);
    for (uint32_t j = 0; j < nd->n; j++) {
        ref_node *c = &t->node[nd->first + j];
        memset(c, 0, sizeof *c);
        c->prior = (float)(ref_weight(g, j) / sum);
    }
    nd->expanded = true;
    return (double)((float)tgame_evaluate(g, NULL) / 100.0f);
}

static uint32_t ref_select(const ref_tree *t, uint32_t x, bool root)
{
    const ref_node *p = &t->node[x];
    double pq = 0.5;
    if (root) {
        double s = 0.0, v = 0.0;
        for (uint32_t j = 0; j < p->n; j++) {
            s += (double)t->node[p->first + j].sum;
            v += (double)t->node[p->first + j].visits;
        }
        if (v > 0.0)
            pq = s / (REF_ONE * v);
    } else if (p->visits > 0) {
        pq = 1.0 - (double)p->sum / (REF_ONE * (double)p->visits);
    }
    double fq = pq - t->fpu > 0.0 ? pq - t->fpu : 0.0;
    double np = (double)p->visits, sq = sqrt(np > 1.0 ? np : 1.0), best_u = -1.0;
    uint32_t best = 0;
    for (uint32_t j = 0; j < p->n; j++) {
        const ref_node *c = &t->node[p->first + j];
        double nv = (double)c->visits;
        double q = nv > 0.0 ? (double)c->sum / (REF_ONE * nv) : fq;
        double u = q + t->cpuct * c->prior * sq / (1.0 + nv);
        if (u > best_u) {
            best_u = u;
            best = j;
        }
    }
    return best;
}

static void ref_simulate(ref_tree *t, tgame *g, const gts_game *v)
{
    uint32_t path[GTS_MAX_PLY + 1];
    gts_move moves[GTS_MAX_PLY + 1];
    int ply = 0;
    path[0] = 0;
    while (t->node[path[ply]].expanded) {
        uint32_t j = ref_select(t, path[ply], ply == 0);
        moves[ply + 1] = j;
        cr_assert_eq(v->apply(g, j, NULL), 0);
        path[ply + 1] = t->node[path[ply]].first + j;
        ply++;
    }
    cr_assert(g->ply < g->depth, "the reference never reaches a finished game");
    double x = (ref_expand(t, path[ply], g) + 1.0) * 0.5;
    for (int k = ply; k >= 1; k--) {
        ref_node *nd = &t->node[path[k]];
        double r = 1.0 - x;
        nd->sum += (uint64_t)(r * REF_ONE + 0.5);
        nd->visits++;
        x = r;
        cr_assert_eq(v->undo(g, moves[k], NULL), 0);
    }
    t->node[0].visits++;
}

Test(puct, faithful_to_the_puct_rule_step_by_step, .timeout = 300)
{
    static const int64_t cpuct[] = {125, 300, 40};
    static const int64_t fpu[] = {0, 20, 50};
    ref_tree *t = malloc(sizeof *t);
    cr_assert_not_null(t);
    for (int seed = 1; seed <= 6; seed++)
        for (int k = 0; k < 3; k++) {
            tgame g;
            gts_game v = tgame_new(&g, (uint64_t)seed, 2 + seed % 3, 60, false);
            gts_engine *e;
            cr_assert_eq(gts_engine_new(&e), GTS_OK);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_CPUCT, cpuct[k]), GTS_OK);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_FPU, fpu[k]), GTS_OK);
            gts_evaluator ev = {.struct_size = sizeof ev, .evaluate = ev_keyed};
            cr_assert_eq(gts_engine_set_evaluator(e, &ev), GTS_OK);
            memset(t, 0, sizeof(ref_node));
            t->used = 1;
            t->cpuct = (double)cpuct[k] / 100.0;
            t->fpu = (double)fpu[k] / 100.0;
            ref_expand(t, 0, &g); /* the root: priors only */
            int done = 0;
            for (int budget = 1; budget <= 400; budget += budget < 20 ? 1 : 37) {
                while (done < budget) {
                    ref_simulate(t, &g, &v);
                    done++;
                }
                cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, budget), GTS_OK);
                gts_result r = {.struct_size = sizeof r};
                cr_assert_eq(gts_mcts(e, &v, &g, NULL, &r), GTS_OK);
                gts_mcts_move_stats st[4];
                int n = stats(e, st, 4);
                cr_assert_eq(n, g.branching);
                for (int j = 0; j < n; j++) {
                    const ref_node *c = &t->node[t->node[0].first + (uint32_t)j];
                    cr_assert_eq(st[j].visits, c->visits,
                                 "seed %d, c %lld, fpu %lld, %d playouts: move %d visits %llu, "
                                 "reference %llu", seed, (long long)cpuct[k], (long long)fpu[k],
                                 budget, j, (unsigned long long)st[j].visits,
                                 (unsigned long long)c->visits);
                    double mean = c->visits ? (double)c->sum / (REF_ONE * (double)c->visits) : 0;
                    cr_assert_float_eq(st[j].mean, mean, 1e-12);
                    cr_assert_float_eq(st[j].prior, c->prior, 1e-7);
                }
            }
            gts_engine_free(e);
        }
    free(t);
}
