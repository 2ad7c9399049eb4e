/*
 * alphabeta.c - fail-soft alpha-beta and PVS (NegaScout), with quiescence.
 *
 * One node function serves both: with c->use_pvs the first move is searched
 * with the full window and the others with a null window around alpha,
 * re-searched with the full window when they fail high inside (alpha, beta)
 * (Reinefeld's NegaScout, in the fail-soft form). Otherwise every move gets
 * the full window (Knuth & Moore's alpha-beta, fail-soft after Fishburn).
 *
 * This is the serial search the parallel algorithms run below their split
 * points, so it reads every per-thread input from the context only.
 */
#include "search/algos.h"

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

gts_score gts__alphabeta(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta)
{
    /* Step 1. Stop, limits, horizon */
    if (gts__enter(c, ply))
        return 0;
    if (ply >= GTS_MAX_PLY)
        return gts__evaluate(c, ply);
    if (depth <= 0)
        return gts__leaf(c, ply, alpha, beta);

    /* Steps 2-3. Window and transposition table (no cut at the root: it needs a move) */
    uint64_t key;
    uint32_t tt_move;
    gts_score cut;
    if (gts__node_probe(c, depth, ply, &alpha, &beta, &key, &tt_move, &cut))
        return cut;

    /* Step 4. Moves; a node without any is a finished game */
    int n = gts__generate(c, ply, false);
    if (n < 0)
        return 0;
    if (n == 0) {
        return gts__terminal(c, key, ply);
    }

    /* Step 5. Ordering */
    if (tt_move >= (uint32_t)n)
        tt_move = GTS__TT_NO_MOVE;
    bool sort = n > 1 && gts__order_wanted(c, tt_move) && gts__order_moves(c, ply, n, tt_move);
    const gts_move *moves = gts__moves(c, ply);
    int limit = n;
    if (c->nbest > 0 && depth <= c->nbest_depth && c->nbest < n)
        limit = c->nbest;
    if (!gts__lookahead(c, depth, moves, n))
        return 0;

    /* Step 6. Children */
    gts_score best = -GTS_SCORE_INF;
    uint32_t best_index = GTS__TT_NO_MOVE;
    gts_score a = alpha;
    for (int k = 0; k < limit; k++) {
        uint32_t i = sort ? gts__pick(c, ply, k, n) : (uint32_t)k;
        gts_move m = moves[i];
        int ext = gts__extension(c, m);
        if (ext < 0 || !gts__apply(c, m))
            return 0;
        int d = depth - 1 + ext;
        gts_score s;
        if (k == 0 || !c->use_pvs) {
            s = -gts__alphabeta(c, d, ply + 1, -beta, -a);
        } else {
            s = -gts__alphabeta(c, d, ply + 1, -a - 1, -a);
            if (s > a && s < beta && !gts__aborted(c))
                s = -gts__alphabeta(c, d, ply + 1, -beta, -a);
        }
        gts__undo(c, m);
        if (gts__aborted(c))
            return 0;

        if (s > best) {
            best = s;
            best_index = i;
            if (ply == 0) {
                c->root_move = m;
                c->root_has_move = true;
            }
            if (s > a) {
                a = s;
                gts__pv_update(c, ply, m);
                if (s >= beta) {
                    gts__order_cutoff(c, ply, depth, m);
                    break;
                }
            }
        }
    }

    /* Step 7. Store */
    gts__tt_save(c, key, depth, ply, alpha, beta, best, best_index);
    return best;
}

gts_score gts__iterate_alphabeta(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    run->ctx[0]->use_pvs = false;
    return gts__alphabeta(run->ctx[0], depth, 0, alpha, beta);
}

gts_score gts__iterate_pvs(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    run->ctx[0]->use_pvs = true;
    return gts__alphabeta(run->ctx[0], depth, 0, alpha, beta);
}
