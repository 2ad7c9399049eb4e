/*
 * er.h - Evaluate-and-Refute's node pieces, shared by the serial search
 * (er.c) and the parallel one (er_parallel.c) (internal).
 *
 * The parallel ER runs serial ER's structure (er.c's header has the
 * procedures): its node functions at the top of the tree are the split
 * versions of er.c's, and below its split depth it calls er.c's own node
 * functions. What both need is written once here:
 *   gts__er_first  evalFirst of one child, with hooks for the moves (the
 *                  parallel search records them in its worker's path) and
 *                  for the recursion on the first grandchild (an e-node:
 *                  serial, or a split node in the parallel search);
 *   gts__er_sort   the stable sort of the children left open, by bound;
 *   gts__er_e/_r/_rest  er.c's node functions (er, evalFirst + refuteRest,
 *                  refuteRest), serial: they never wait.
 * The hooks follow node_search.h: a static const table at each use and an
 * always-inlined body, so the calls are direct.
 */
#ifndef GTS_SEARCH_ER_H
#define GTS_SEARCH_ER_H

#include "search/algos.h"

/* Packing of an open child in a gts__mv entry (key: its evalFirst bound):
 * the child's index and the generate() index of the first grandchild that
 * evalFirst searched (both < 65536: the driver caps max_moves at 65535). */
static const uint32_t GTS__ER_FIRST_SHIFT = 16;
static const uint32_t GTS__ER_INDEX_MASK = 0xffffu;

/* Serial node functions of er.c (same contract as there). */
gts_score gts__er_e(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta);
gts_score gts__er_r(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta);
gts_score gts__er_rest(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta,
                       gts_score v1, uint32_t first);

/* Stable insertion sort of @n entries, highest key first (ties keep the
 * move ordering's order). */
static inline void gts__er_sort(gts__mv *o, int n)
{
    for (int i = 1; i < n; i++) {
        gts__mv x = o[i];
        int j = i - 1;
        while (j >= 0 && o[j].key < x.key) {
            o[j + 1] = o[j];
            j--;
        }
        o[j + 1] = x;
    }
}

typedef struct gts__er_hooks {
    /* apply/undo @m at the node at @ply (counted as nodes) */
    bool (*apply)(void *env, int ply, gts_move m);
    void (*undo)(void *env, int ply, gts_move m);
    /* the first grandchild, as an e-node */
    gts_score (*e)(void *env, int depth, int ply, gts_score alpha, gts_score beta);
} gts__er_hooks;

/*
 * evalFirst: child @m of the node at @ply (remaining depth @d after the
 * move), for the node's window (@alpha, @beta). Searches the child's first
 * child as an e-node with (@alpha, @beta) (un-narrowed: refuteRest reuses
 * the result under the child's window at that time). Sets *s, from the
 * node's side: with *done, the child's fail-soft value (a bound <= alpha
 * when the first grandchild refutes it) and its line in c->pv[ply + 1];
 * otherwise the first grandchild's value, an upper bound on the child's
 * contribution unless it is >= beta, and *first the grandchild's generate()
 * index. False when the search must unwind. The context's per-ply buffers
 * of the child are used only before the recursion (which may wait, in the
 * parallel search, and let other work reuse them).
 */
static inline __attribute__((always_inline)) bool
gts__er_first(gts__ctx *c, void *env, const gts__er_hooks *h, gts_move m, int d, int ply,
              gts_score alpha, gts_score beta, gts_score *s, bool *done, uint32_t *first)
{
    int cp = ply + 1; /* the child's ply */
    *done = true;
    *first = 0;
    if (!h->apply(env, ply, m))
        return false;
    if (d <= 0 || cp >= GTS_MAX_PLY) {
        /* A leaf: the e-node values it (quiescence, ply limit) at once. */
        *s = -h->e(env, d, cp, -beta, -alpha);
        goto out;
    }
    /* The child's prologue (node.h), its window and table used to settle
     * the child only (see above): the search below keeps the node's
     * window. */
    gts_score wa = -beta, wb = -alpha, v;
    gts__node_in in;
    if (gts__node_head(c, d, cp, &wa, &wb, false, &in, &v) || gts__node_moves(c, d, cp, &in, &v)) {
        *s = -v;
        goto out;
    }
    int n = in.n;
    uint64_t key = in.key;
    bool sort = gts__order_moves(c, cp, n, in.tt_move);
    uint32_t gi = sort ? gts__pick(c, cp, 0, n) : 0;
    gts_move g = gts__moves(c, cp)[gi];
    int gext = gts__extension(c, g);
    if (gext < 0 || !h->apply(env, cp, g)) {
        *s = 0;
        goto out;
    }
    gts_score u = h->e(env, d - 1 + gext, cp + 1, alpha, beta);
    h->undo(env, cp, g);
    if (gts__aborted(c)) {
        *s = 0;
        goto out;
    }
    *s = u;
    gts_score v1 = -u; /* the child's best so far, from its side */
    if (v1 >= -alpha || n == 1) {
        /* Refuted by its first child (a cutoff at the child), or that was
         * its only child: the child's fail-soft value. */
        if (v1 > -beta)
            gts__pv_update(c, cp, g);
        else
            c->pv_len[cp] = 0;
        if (v1 >= -alpha)
            gts__order_cutoff(c, cp, d, g);
        gts__tt_save(c, key, d, cp, -beta, -alpha, v1, gi);
    } else {
        *done = false;
        *first = gi;
    }
out:
    h->undo(env, ply, m);
    return !gts__aborted(c);
}

#endif
