/*
 * minimax.c - plain negamax, the reference every exact algorithm must match.
 *
 * No transposition table, no ordering, no pruning: moves in generate()
 * order, the first best move wins ties. Depth-0 nodes go through quiescence
 * (itself a plain max over stand-pat and every noisy move) when enabled, so
 * the reference defines the same value as the pruning searches.
 */
#include "search/algos.h"

static gts_score minimax_quiescence(gts__ctx *c, int ply)
{
    if (gts__enter(c, ply))
        return 0;
    gts_score best = gts__evaluate(c, ply);
    if (gts__aborted(c) || ply >= GTS_MAX_PLY)
        return best;
    int n = gts__generate(c, ply, true);
    if (n <= 0)
        return best;
    const gts_move *moves = gts__moves(c, ply);
    for (int i = 0; i < n; i++) {
        if (!gts__apply(c, moves[i]))
            return 0;
        gts_score s = -minimax_quiescence(c, ply + 1);
        gts__undo(c, moves[i]);
        if (gts__aborted(c))
            return 0;
        if (s > best) {
            best = s;
            gts__pv_update(c, ply, moves[i]);
        }
    }
    return best;
}

gts_score gts__minimax(gts__ctx *c, int depth, int ply)
{
    if (gts__enter(c, ply))
        return 0;
    if (ply >= GTS_MAX_PLY)
        return gts__evaluate(c, ply);
    if (depth <= 0)
        return c->use_qs ? minimax_quiescence(c, ply) : gts__evaluate(c, ply);

    int n = gts__generate(c, ply, false);
    if (n < 0)
        return 0;
    if (n == 0)
        return gts__evaluate(c, ply);

    const gts_move *moves = gts__moves(c, ply);
    gts_score best = -GTS_SCORE_INF;
    for (int i = 0; i < n; i++) {
        gts_move m = moves[i];
        int ext = gts__extension(c, m);
        if (ext < 0 || !gts__apply(c, m))
            return 0;
        gts_score s = -gts__minimax(c, depth - 1 + ext, ply + 1);
        gts__undo(c, m);
        if (gts__aborted(c))
            return 0;
        if (s > best) {
            best = s;
            gts__pv_update(c, ply, m);
            if (ply == 0) {
                c->root_move = m;
                c->root_has_move = true;
            }
        }
    }
    return best;
}

gts_score gts__iterate_minimax(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    (void)alpha;
    (void)beta;
    return gts__minimax(run->ctx[0], depth, 0);
}
