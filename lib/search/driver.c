/*
 * driver.c - gts_search(): argument checks, iterative deepening with
 * aspiration windows, limits, statistics and results. The algorithms are
 * found in the registry (registry.c).
 *
 * Flow: caller -> gts_search (this file) -> algorithm iterate function ->
 * node code (node.h) -> game callbacks. The driver owns the search-wide
 * shared block: it resets it at the start, the node code sets stop/error,
 * and the driver turns it into result flags and a status at the end.
 *
 * Concurrency contract: one gts_search per engine at a time (the
 * `searching` flag turns a second one into GTS_EBUSY); gts_engine_stop may
 * come from any thread at any time.
 */
#include "search/algos.h"
#include "struct_internal.h"

#include <string.h>

static const uint32_t MAX_MOVES_LIMIT = 65535;

/* ---- checks ------------------------------------------------------------- */

/* Copy the caller's game into @g (a full-size vtable, later fields NULL). */
static gts_status read_game(const gts_game *in, gts_game *g, const char **why)
{
    memset(g, 0, sizeof *g);
    gts_status rc = gts__struct_in(gts__desc_game(), g, in, why);
    if (rc != GTS_OK)
        return rc;
    if (!g->generate || !g->apply || !g->undo || !g->evaluate) {
        *why = "gts_game: generate, apply, undo and evaluate are required";
        return GTS_EINVAL;
    }
    if (g->max_moves == 0 || g->max_moves > MAX_MOVES_LIMIT) {
        *why = "gts_game: max_moves must be 1..65535";
        return GTS_ERANGE;
    }
    return GTS_OK;
}

static gts_status read_limits(const gts_limits *in, gts_limits *out, const char **why)
{
    memset(out, 0, sizeof *out);
    out->struct_size = sizeof *out;
    if (in) {
        gts_status rc = gts__struct_in(gts__desc_limits(), out, in, why);
        if (rc != GTS_OK)
            return rc;
    }
    if (out->depth == 0)
        out->depth = GTS_MAX_DEPTH;
    if (out->depth < 0 || out->depth > GTS_MAX_DEPTH) {
        *why = "gts_limits: depth must be 0..127";
        return GTS_ERANGE;
    }
    if (out->alpha == 0 && out->beta == 0) {
        out->alpha = -GTS_SCORE_INF;
        out->beta = GTS_SCORE_INF;
    } else if (out->alpha < -GTS_SCORE_INF || out->beta > GTS_SCORE_INF) {
        *why = "gts_limits: alpha and beta must lie in [-GTS_SCORE_INF, GTS_SCORE_INF]";
        return GTS_ERANGE;
    } else if (out->alpha >= out->beta) {
        *why = "gts_limits: alpha must be below beta";
        return GTS_EINVAL;
    }
    if (out->has_guess && (out->guess < -GTS_SCORE_INF || out->guess > GTS_SCORE_INF)) {
        *why = "gts_limits: guess must lie in [-GTS_SCORE_INF, GTS_SCORE_INF]";
        return GTS_ERANGE;
    }
    if (!out->history && out->history_len > 0) {
        *why = "gts_limits: history is NULL but history_len is not 0";
        return GTS_EINVAL;
    }
    return GTS_OK;
}

/* ---- one iteration -------------------------------------------------------- */

static bool aborted(gts__run *run) { return gts__run_stopped(&run->engine->shared); }

static gts_score iterate(gts__run *run, const gts__algo *algo, int depth, gts_score alpha,
                         gts_score beta)
{
    run->ctx[0]->root_has_move = false;
    return algo->iterate(run, depth, alpha, beta);
}

/* Search @depth: with a root driver, by its null-window searches; with
 * aspiration > 0, around the previous score, widening on failure until the
 * score is exact; else in the caller's window. */
static gts_score search_depth(gts__run *run, const gts__algo *algo, int depth,
                              const gts_limits *lim, bool caller_window)
{
    if (algo->windowed && run->engine->root_driver != GTS_ROOT_WINDOW)
        return gts__root_driver(run, algo->iterate, (int)run->engine->root_driver, depth,
                                lim->alpha, lim->beta);
    int64_t w = run->engine->aspiration;
    if (!algo->windowed || caller_window || w <= 0 || !run->has_guess
        || gts_score_is_win(run->guess) || gts_score_is_loss(run->guess))
        return iterate(run, algo, depth, lim->alpha, lim->beta);

    gts_score lo = run->guess - (gts_score)w, hi = run->guess + (gts_score)w;
    for (;;) {
        if (lo < -GTS_SCORE_INF) lo = -GTS_SCORE_INF;
        if (hi > GTS_SCORE_INF) hi = GTS_SCORE_INF;
        gts_score s = iterate(run, algo, depth, lo, hi);
        if (aborted(run))
            return s;
        w *= 2;
        if (s <= lo && lo > -GTS_SCORE_INF)
            lo = s - (gts_score)w;
        else if (s >= hi && hi < GTS_SCORE_INF)
            hi = s + (gts_score)w;
        else
            return s;
    }
}

/*
 * Lengthen an exact result's principal variation from the table: the
 * null-window searches of the MT family and the root drivers, and any
 * search whose PV was cut by a table hit, leave a short line. From the end
 * of r->pv, follow table moves whose entries prove the line's value: an
 * entry of at least the remaining depth whose lower bound reaches the value
 * the side to move must get (its move then achieves it, and nothing does
 * better). Every move is checked against generate(); the state is restored
 * with undo(). The game's callbacks are called directly (no node is
 * counted); a failure is the search's failure, as anywhere else, and every
 * applied move is still undone.
 */
static void extend_pv(gts__run *run, gts_result *r, int depth)
{
    gts__ctx *c = run->ctx[0];
    const gts_game *g = run->game;
    gts_move line[GTS_MAX_PLY];
    int applied = 0, len = (int)r->pv_length;
    gts_score v = r->score;
    memcpy(line, r->pv, (size_t)len * sizeof line[0]);
    /* Replay the known line; the value alternates sign with the side. */
    for (; applied < len; applied++) {
        int rc = g->apply(c->state, line[applied], c->user);
        if (rc < 0) {
            gts__fail(c, GTS_ECALLBACK, rc);
            goto undo;
        }
        v = -v;
    }
    while (len < depth && len < GTS_MAX_PLY - 1) {
        gts__tt_hit hit;
        uint64_t key = g->hash(c->state, c->user);
        if (!gts__tt_probe_bucket(gts__ctx_bucket(c, key, depth - len), key, &hit)
            || hit.depth < depth - len
            || hit.move_index == GTS__TT_NO_MOVE
            || gts__tt_bound_from(hit.lower, len) < v)
            break;
        int n = gts__generate(c, len, false);
        if (n <= 0 || hit.move_index >= (uint32_t)n)
            break;
        gts_move m = gts__moves(c, len)[hit.move_index];
        int rc = g->apply(c->state, m, c->user);
        if (rc < 0) {
            gts__fail(c, GTS_ECALLBACK, rc);
            break;
        }
        line[len++] = m;
        applied++;
        v = -v;
    }
undo:
    while (applied > 0) {
        int rc = g->undo(c->state, line[--applied], c->user);
        if (rc < 0)
            gts__fail(c, GTS_ECALLBACK, rc);
    }
    memcpy(r->pv, line, (size_t)len * sizeof line[0]);
    r->pv_length = (uint32_t)len;
}

static void record_iteration(gts__run *run, gts_result *r, int depth, gts_score score,
                             const gts_limits *lim, bool exact)
{
    gts__ctx *c = run->ctx[0];
    r->score = score;
    r->depth = depth;
    r->flags &= ~(uint32_t)(GTS_RESULT_LOWER_BOUND | GTS_RESULT_UPPER_BOUND);
    if (score <= lim->alpha)
        r->flags |= GTS_RESULT_UPPER_BOUND;
    else if (score >= lim->beta)
        r->flags |= GTS_RESULT_LOWER_BOUND;
    if (c->root_has_move) {
        r->best_move = c->root_move;
        r->flags |= GTS_RESULT_HAS_MOVE;
    }
    /* The PV table holds the line that raised alpha at the root; it is only
     * meaningful when it starts with the best move. */
    if (c->pv_len[0] > 0 && c->pv[0][0] == r->best_move) {
        r->pv_length = (uint32_t)c->pv_len[0];
        memcpy(r->pv, c->pv[0], (size_t)c->pv_len[0] * sizeof(gts_move));
    } else {
        r->pv_length = 1;
        r->pv[0] = r->best_move;
    }
    if (exact && c->tt && (r->flags & GTS_RESULT_HAS_MOVE) && (int)r->pv_length < depth
        && !(r->flags & (GTS_RESULT_LOWER_BOUND | GTS_RESULT_UPPER_BOUND)))
        extend_pv(run, r, depth);
}

static void collect_stats(gts__run *run, gts_result *r)
{
    r->nodes = 1; /* the root */
    r->tt_probes = r->tt_hits = r->tt_cutoffs = 0;
    r->seldepth = 0;
    for (int i = 0; i < run->threads; i++) {
        gts__ctx *c = run->ctx[i];
        r->nodes += c->nodes;
        r->tt_probes += c->tt_probes;
        r->tt_hits += c->tt_hits;
        r->tt_cutoffs += c->tt_cutoffs;
        if (c->seldepth > r->seldepth)
            r->seldepth = c->seldepth;
        if (r->thread_nodes && (uint32_t)i < r->thread_nodes_capacity)
            r->thread_nodes[i] = c->nodes;
    }
    r->nodes_mandatory = run->nodes_mandatory;
    r->nodes_speculative = run->nodes_speculative;
    r->nodes_wasted = run->nodes_wasted;
    r->threads = (uint32_t)run->threads;
}

/* gts__run::progress. */
static bool progress(gts__run *run)
{
    const gts_limits *lim = run->lim;
    gts_result *r = run->result;
    if (!lim->on_iteration)
        return false;
    collect_stats(run, r);
    r->time_us = (gts__now_ns() - run->start_ns) / 1000u;
    gts__struct_out(run->out, r, run->out_size);
    if (lim->on_iteration(run->out, lim->on_iteration_user) != 0) {
        gts__stop_run(&run->engine->shared, GTS_RESULT_STOPPED);
        return true;
    }
    return false;
}

/* ---- gts_search ------------------------------------------------------------- */

/* Whether the exact value @s of a full-width search to depth @d is already
 * the game's value: a forced result within the horizon cannot change deeper
 * (a decided score, in the full window); nor can a value other than 0 of a
 * game scored by distance (GTS_TRAIT_DISTANCE_SCORES), strictly inside the
 * caller's window. */
static bool decided(const gts__run *run, const gts_limits *lim, gts_score s, int d,
                    bool caller_window)
{
    int end = gts_score_plies_to_end(s);
    if (end >= 0 && end <= d && !caller_window)
        return true;
    return (run->game->traits & GTS_TRAIT_DISTANCE_SCORES) && s != 0 && s > lim->alpha
           && s < lim->beta;
}

/* Nodes counted so far by every thread (between iterations: no worker runs). */
static uint64_t run_nodes(const gts__run *run)
{
    uint64_t n = 1;
    for (int i = 0; i < run->threads; i++)
        n += run->ctx[i]->nodes;
    return n;
}

static gts_status run_search(gts__run *run, const gts__algo *algo, const gts_limits *lim,
                             gts_result *r)
{
    gts_engine *e = run->engine;
    gts__ctx *c0 = run->ctx[0];
    bool caller_window = lim->alpha > -GTS_SCORE_INF || lim->beta < GTS_SCORE_INF;

    /* Step 1. The root: a finished game has no move and its static value. */
    int n = gts__generate(c0, 0, false);
    if (n < 0)
        return GTS_OK; /* error recorded in the shared block */
    if (n == 0) {
        r->score = gts__evaluate(c0, 0);
        return GTS_OK;
    }
    /* Fallback if not even depth 1 completes: the first legal move. */
    r->best_move = gts__moves(c0, 0)[0];
    r->flags |= GTS_RESULT_HAS_MOVE;
    r->pv[0] = r->best_move;
    r->pv_length = 1;
    r->score = gts__evaluate(c0, 0);
    if (aborted(run))
        return GTS_OK;

    /* Best-first algorithms run their own loop. */
    if (algo->run) {
        algo->run(run);
        return GTS_OK;
    }

    /* Step 2. Iterative deepening; without it, the target depth directly,
     * after a prelude of iterations while they are cheap (deepen_nodes). */
    bool prelude = !e->iterative && e->deepen_nodes > 0 && algo->exact;
    int first = e->iterative || prelude ? 1 : lim->depth;
    for (int d = first; d <= lim->depth; d++) {
        gts_score s = search_depth(run, algo, d, lim, caller_window);
        if (aborted(run))
            break;
        record_iteration(run, r, d, s, lim, algo->exact);
        if (aborted(run))
            break; /* a callback failed while the PV was lengthened */
        run->guess = s;
        run->has_guess = true;
        if (run->progress(run))
            break;
        if (algo->exact && decided(run, lim, s, d, caller_window))
            break;
        if (prelude && d < lim->depth - 1 && run_nodes(run) >= (uint64_t)e->deepen_nodes)
            d = lim->depth - 1; /* the prelude is over: the target depth next */
    }
    return GTS_OK;
}

gts_status gts_search(gts_engine *engine, gts_algorithm alg, const gts_game *caller_game,
                      void *state, const gts_limits *limits, gts_result *caller_result)
{
    if (!engine)
        return GTS_EINVAL;
    gts__engine_note(engine, NULL);
    if (!caller_game || !state || !caller_result)
        return GTS_EINVAL;
    /* The search works on full-size copies of the caller's versioned structs
     * and writes back only the caller's size of the result. */
    size_t out_size;
    const char *why = NULL; /* gts_engine_last_error() */
    gts_game vtable;
    const gts_game *game = &vtable;
    gts_limits lim;
    gts_status rc = gts__struct_check(gts__desc_result(), caller_result, &out_size, &why);
    if (rc == GTS_OK)
        rc = read_game(caller_game, &vtable, &why);
    if (rc == GTS_OK)
        rc = read_limits(limits, &lim, &why);
    gts__engine_note(engine, why);
    if (rc != GTS_OK)
        return rc;
    const gts__algo *algo = gts__algo_find(alg);
    if (!algo)
        return GTS_EALGORITHM;
    int threads = algo->parallel ? (int)engine->threads : 1;
    if (threads > 1 && (!game->clone || !game->free))
        return GTS_ENOTSUP;
    if (!gts__engine_claim(engine))
        return GTS_EBUSY;

    uint64_t start = gts__now_ns();
    gts_result full, *result = &full;
    memset(&full, 0, sizeof full);
    full.struct_size = sizeof full;
    /* The only inputs; the 0.1 layout (the smallest accepted) has both. */
    full.thread_nodes = caller_result->thread_nodes;
    full.thread_nodes_capacity = caller_result->thread_nodes_capacity;
    full.best_move = GTS_MOVE_NONE;

    gts__shared *sh = &engine->shared;
    sh->node_limit = lim.nodes;
    /* A deadline beyond the clock's range is no deadline (saturate, never wrap). */
    sh->deadline_ns = 0;
    if (lim.time_ms && lim.time_ms <= (UINT64_MAX - start) / 1000000u)
        sh->deadline_ns = start + lim.time_ms * 1000000u;
    sh->poll_interval = gts__poll_interval(lim.nodes);
    /* The run word needs no reset: claiming set it to HELD, and a stop
     * since then must stay. */
    gts__atomic_store_relaxed_64(&sh->nodes, 0);
    gts__atomic_store_relaxed_32((uint32_t *)&sh->error, 0);
    gts__atomic_store_relaxed_32((uint32_t *)&sh->callback_status, 0);
    engine->searches++; /* state "of the last search" compares with it */

    rc = gts__engine_prepare(engine, game, threads);
    if (rc != GTS_OK) {
        gts__struct_out(caller_result, result, out_size);
        gts__engine_release(engine);
        return rc;
    }
    gts__tt_new_generation(&engine->tt);
    if (threads > 1 && engine->pool)
        gts__pool_virtual_reset(engine->pool);

    gts__run run = {
        .engine = engine,
        .game = game,
        .root = state,
        .ctx = engine->ctx,
        .threads = threads,
        .pool = threads > 1 ? engine->pool : NULL,
        .guess = lim.guess,
        .has_guess = lim.has_guess,
        .start_ns = start,
        .out = caller_result,
        .out_size = out_size,
        .lim = &lim,
        .result = result,
        .progress = progress,
    };
    /* Thread 0 searches the caller's state in place; every other thread
     * searches its own clone (game->clone), made once per search. */
    int32_t clone_failed = 0;
    for (int i = 0; i < threads; i++) {
        void *s = state;
        if (i > 0) {
            s = rc == GTS_OK ? game->clone(state, game->user) : NULL;
            if (!s && rc == GTS_OK) {
                rc = GTS_ECALLBACK;
                clone_failed = -1; /* NULL carries no code of its own */
            }
        }
        gts__ctx_begin(engine->ctx[i], engine, game, s);
        if (algo->selective)
            gts__ctx_select(engine->ctx[i], engine, &lim);
        gts__ctx_parts(engine->ctx[i], i, threads);
    }

    if (rc == GTS_OK)
        run_search(&run, algo, &lim, result);

    for (int i = 1; i < threads; i++)
        if (engine->ctx[i]->state)
            game->free(engine->ctx[i]->state, game->user);

    collect_stats(&run, result);
    result->flags |= gts__run_why(sh);
    result->time_us = (gts__now_ns() - start) / 1000u;
    if (rc == GTS_OK)
        rc = (gts_status)(int32_t)gts__atomic_load_relaxed_32((uint32_t *)&sh->error);
    result->callback_status = clone_failed ? clone_failed
                                           : (int32_t)gts__atomic_load_relaxed_32(
                                                 (uint32_t *)&sh->callback_status);
    gts__struct_out(caller_result, result, out_size);
    gts__engine_release(engine);
    return rc;
}

#define GTS__WRAPPER(fn, alg)                                                              \
    gts_status fn(gts_engine *engine, const gts_game *game, void *state,                   \
                  const gts_limits *limits, gts_result *result)                            \
    {                                                                                      \
        return gts_search(engine, alg, game, state, limits, result);                       \
    }
GTS__WRAPPER(gts_minimax, GTS_ALG_MINIMAX)
GTS__WRAPPER(gts_alphabeta, GTS_ALG_ALPHABETA)
GTS__WRAPPER(gts_pvs, GTS_ALG_PVS)
GTS__WRAPPER(gts_mtdf, GTS_ALG_MTDF)
GTS__WRAPPER(gts_negacstar, GTS_ALG_NEGACSTAR)
GTS__WRAPPER(gts_sssstar, GTS_ALG_SSSSTAR)
GTS__WRAPPER(gts_dualstar, GTS_ALG_DUALSTAR)
GTS__WRAPPER(gts_er, GTS_ALG_ER)
GTS__WRAPPER(gts_probcut, GTS_ALG_PROBCUT)
GTS__WRAPPER(gts_sssstar_stockman, GTS_ALG_SSSSTAR_STOCKMAN)
GTS__WRAPPER(gts_bstar, GTS_ALG_BSTAR)
GTS__WRAPPER(gts_mma, GTS_ALG_MMA)
GTS__WRAPPER(gts_er_parallel, GTS_ALG_ER_PARALLEL)
GTS__WRAPPER(gts_jamboree, GTS_ALG_JAMBOREE)
GTS__WRAPPER(gts_dts, GTS_ALG_DTS)
GTS__WRAPPER(gts_ybwc, GTS_ALG_YBWC)
GTS__WRAPPER(gts_pvsplit, GTS_ALG_PVSPLIT)
GTS__WRAPPER(gts_abdada, GTS_ALG_ABDADA)
GTS__WRAPPER(gts_lazysmp, GTS_ALG_LAZYSMP)
GTS__WRAPPER(gts_rootsplit, GTS_ALG_ROOTSPLIT)
GTS__WRAPPER(gts_mcts, GTS_ALG_MCTS)
