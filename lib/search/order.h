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
/* The slot of @m in the history and counter-move tables. */
static inline uint32_t gts__order_slot(gts_move m)
{
    return (uint32_t)((m * UINT64_C(0x9e3779b97f4a7c15)) >> 52) & (GTS__HISTORY_SIZE - 1);
}
/* With counter moves (c->use_counter), record that the move into @ply + 1
 * is @m (after it is applied). */
static inline void gts__order_line(gts__ctx *c, int ply, gts_move m)
{
    c->line_slot[ply + 1] = (uint16_t)gts__order_slot(m);
}
/* ... or a pass (or nothing known). */
static inline void gts__order_line_pass(gts__ctx *c, int ply)
{
    c->line_slot[ply + 1] = GTS__HISTORY_SIZE;
}
/* The counter move at @ply: the last move that refuted, at this parity, the
 * move into @ply (c->use_counter). */
static inline gts_move gts__order_counter(const gts__ctx *c, int ply)
{
    return c->counter[ply & 1][c->line_slot[ply]];
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
/* A move caused a beta cutoff at @ply with remaining @depth: killers,
 * history (a bonus), the counter move of the move into @ply. */
void gts__order_cutoff(gts__ctx *c, int ply, int depth, gts_move m);
/* With history gravity (GTS_OPT_HISTORY 2): the @n moves @tried searched
 * before a cutoff at @ply, @depth lose what the cutoff move gained. */
void gts__order_malus(gts__ctx *c, int ply, int depth, const gts_move *tried, int n);

#endif
