/*
 * order.h - move ordering: TT move, the game's hint, killers, history
 * (internal, search kernel; order.c).
 */
#ifndef GTS_SEARCH_ORDER_H
#define GTS_SEARCH_ORDER_H

#include "search/ctx.h"

/* Fill c->order for the @n moves at @ply: TT move first, then the game's
 * hint (generate_keyed's keys, else move_score), killers, history. Returns false when every move has the
 * same key: then generate() order is the search order and a caller may
 * skip gts__pick (which would be the identity). */
bool gts__order_moves(gts__ctx *c, int ply, int n, uint32_t tt_move);
/* False when gts__order_moves would leave generate() order: a caller that
 * walks moves by index can then skip it altogether. */
static inline bool gts__order_wanted(const gts__ctx *c, uint32_t tt_move)
{
    return c->order_hint || tt_move != GTS__TT_NO_MOVE;
}
/* Index (into generate order) of the k-th best move: lazy selection sort. */
static inline uint32_t gts__pick(gts__ctx *c, int ply, int k, int n)
{
    gts__mv *o = c->order[ply];
    int best = k;
    for (int i = k + 1; i < n; i++)
        if (o[i].key > o[best].key)
            best = i;
    gts__mv t = o[k];
    o[k] = o[best];
    o[best] = t;
    return o[k].index;
}
/* The history score of @m at @ply (0 without GTS_OPT_HISTORY): the sum of
 * depth^2 over the cutoffs it caused on this side, halved when the side's
 * table saturates. */
int32_t gts__order_history(const gts__ctx *c, int ply, gts_move m);
/* @m is one of the killers of @ply (and killers are on). */
static inline bool gts__order_is_killer(const gts__ctx *c, int ply, gts_move m)
{
    return c->use_killers && (m == c->killers[ply][0] || m == c->killers[ply][1]);
}
/* A move caused a beta cutoff at @ply with remaining @depth. */
void gts__order_cutoff(gts__ctx *c, int ply, int depth, gts_move m);

#endif
