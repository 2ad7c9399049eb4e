/*
 * node.c - error recording, limit polling and quiescence: the node code
 * every algorithm shares (node.h); the contexts are ctx.c's.
 *
 * Concurrency contract: a context belongs to one thread. gts__fail() and
 * gts__poll_limits() write the search-wide gts__shared block with ck_pr
 * atomics; the first error wins.
 */
#include "search/node.h"

#include <stdlib.h>
#include <string.h>

static const uint32_t POLL_INTERVAL = 1024;

void gts__fail(gts__ctx *c, int status, int callback_status)
{
    gts__shared *sh = c->shared;
    if (gts__atomic_cas_32((uint32_t *)&sh->error, 0, (uint32_t)status))
        gts__atomic_store_relaxed_32((uint32_t *)&sh->callback_status,
                                     (uint32_t)callback_status);
    gts__stop_run(sh, 0);
}

bool gts__prefetch_children(gts__ctx *c, const gts_move *moves, int n, int depth)
{
    const gts_game *g = c->game;
    /* A copy: the callbacks below cannot change it, so it stays in registers. */
    const gts__tt_part part = *gts__ctx_part(c, depth);
    if (g->hash_after) { /* the children's keys without playing them */
        for (int i = 0; i < n; i++)
            gts__tt_prefetch_bucket(gts__tt_in(&part, g->hash_after(c->state, moves[i], c->user)));
        return true;
    }
    for (int i = 0; i < n; i++) {
        if (g->apply(c->state, moves[i], c->user) < 0)
            continue;
        gts__tt_prefetch_bucket(gts__tt_in(&part, g->hash(c->state, c->user)));
        int rc = g->undo(c->state, moves[i], c->user);
        if (rc < 0) {
            gts__fail(c, GTS_ECALLBACK, rc);
            return false;
        }
    }
    return true;
}

bool gts__mark_noisy(gts__ctx *c, int ply, int n)
{
    uint8_t *f = c->noisy[ply];
    memset(f, 0, (size_t)n);
    if (!c->moves[ply + 1] && !gts__ctx_grow(c, ply + 1)) {
        gts__fail(c, GTS_ENOMEM, 0);
        return false;
    }
    gts_move *noisy = c->moves[ply + 1];
    uint32_t cap = c->game->max_moves;
    int m = gts__moves_got(c, c->game->generate_noisy(c->state, noisy, cap, c->user), cap);
    if (m < 0)
        return false;
    const gts_move *moves = c->moves[ply];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            if (moves[i] == noisy[j]) {
                f[i] = 1;
                break;
            }
    return true;
}

void gts__bounds_fail(gts__ctx *c, int rc, gts_score lo, gts_score hi)
{
    if (rc < 0)
        gts__fail(c, GTS_ECALLBACK, rc);
    else
        gts__fail(c, GTS_ESCORE, lo < GTS_SCORE_LOSS || lo > hi ? lo : hi);
}

bool gts__poll_limits(gts__ctx *c)
{
    gts__shared *sh = c->shared;
    c->next_poll = c->nodes + sh->poll_interval;
    uint64_t fresh = c->nodes - c->flushed;
    uint64_t total = gts__atomic_faa_relaxed_64(&sh->nodes, fresh) + fresh;
    c->flushed = c->nodes;
    if (sh->node_limit && total >= sh->node_limit) {
        gts__stop_run(sh, GTS_RESULT_NODE_LIMIT);
        return true;
    }
    if (sh->deadline_ns && gts__now_ns() >= sh->deadline_ns) {
        gts__stop_run(sh, GTS_RESULT_TIME_LIMIT);
        return true;
    }
    return false;
}

/* Interval between limit checks: every node under a small node budget. */
uint32_t gts__poll_interval(uint64_t node_limit)
{
    if (node_limit && node_limit / 16 < POLL_INTERVAL)
        return (uint32_t)(node_limit / 16 > 0 ? node_limit / 16 : 1);
    return POLL_INTERVAL;
}

/* Fail-soft quiescence over generate_noisy() (node.h gts__leaf). */
gts_score gts__qsearch(gts__ctx *c, int ply, gts_score alpha, gts_score beta)
{
    if (gts__enter(c, ply))
        return 0;

    /* Step 1. Stand pat */
    gts_score best = gts__evaluate(c, ply);
    if (gts__aborted(c) || ply >= GTS_MAX_PLY || best >= beta)
        return best;
    if (best > alpha)
        alpha = best;

    /* Step 2. Noisy moves, best hint first */
    int n = gts__generate(c, ply, true);
    if (n <= 0)
        return best;
    bool sort = gts__order_wanted(c, GTS__TT_NO_MOVE)
                && gts__order_moves(c, ply, n, GTS__TT_NO_MOVE);
    const gts_move *moves = gts__moves(c, ply);
    for (int k = 0; k < n; k++) {
        gts_move m = moves[sort ? gts__pick(c, ply, k, n) : (uint32_t)k];
        if (!gts__apply(c, m))
            return 0;
        if (c->use_counter)
            gts__order_line(c, ply, m);
        gts_score s = -gts__qsearch(c, ply + 1, -beta, -alpha);
        gts__undo(c, m);
        if (gts__aborted(c))
            return 0;
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                gts__pv_update(c, ply, m);
                if (s >= beta)
                    break;
            }
        }
    }
    return best;
}
