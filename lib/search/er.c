/*
 * er.c - serial Evaluate-and-Refute (ER) search.
 *
 * After Steinberg & Solomon, "Searching game trees in parallel" (ICPP 1990).
 * ER classifies the nodes of the tree by what must be learnt about them:
 *
 *   e-node (evaluate): its exact value (inside the window) is needed. The
 *       root is an e-node; so is the eldest grandchild through every child
 *       of an e-node, and the principal (best-looking) child of an e-node.
 *   r-node (refute): it is enough to show that it cannot beat the best
 *       value found so far at its parent, i.e. to find ONE child of it that
 *       is good enough for the opponent. The other children of an e-node
 *       are r-nodes; they are searched with a null window by plain
 *       alpha-beta (gts__alphabeta), and an r-node that resists refutation
 *       is promoted to an e-node and searched again, fully.
 *
 * The serial node function er_node() evaluates an e-node N in four phases
 * (Steps 5-7 of the code):
 *   1. Evaluate: for EVERY child C_i, search the first (best-ordered) child
 *      G_i1 of C_i as an e-node. In negamax, v(C_i) >= -v(G_i1), so C_i's
 *      contribution -v(C_i) to N is at most v(G_i1): an upper bound that
 *      says how promising C_i is (a tentative value). Children that are
 *      leaves or finished games get their exact value here instead.
 *   2. Sort the children by those estimates, best first (stable, so ties
 *      keep the move-ordering heuristics' order).
 *   3. Search the best-looking child fully, as an e-node (recursively): it
 *      is N's principal child and sets the bound.
 *   4. Refute the others in sorted order: a child whose estimate is already
 *      <= the bound is refuted for free; any other one gets a null-window
 *      search at the bound; if that fails to refute it, it becomes the new
 *      principal child and is searched fully with the remaining window.
 * Phase 1 is the work the parallel ER (gts_er_parallel) runs concurrently,
 * and the refutations of phase 4 can run concurrently too; each phase is a
 * separate loop here so that they can.
 *
 * Invariants: er_node is fail-soft alpha-beta: for the window (alpha,
 * beta) it returns v <= alpha (upper bound), v >= beta (lower bound) or the
 * exact value, the same value gts__minimax computes at the same depth. An
 * estimate from phase 1 is kept as a bound only when it is one (the e-node
 * search of G_i1 did not fail high). The best root move is the child whose
 * exact value is the result. The per-child estimates live in the context's
 * ordering buffer of the node's ply: no allocation per node.
 */
#include "search/algos.h"

/* Estimate kinds, kept in gts__mv.index above the move index. */
enum {
    EST_UPPER = 0,   /* key is an upper bound on the child's contribution */
    EST_NONE = 1,    /* key is only a hint (eldest grandchild failed high) */
    EST_EXACT = 2,   /* key is the child's exact contribution... */
    EST_LOWER = 3,   /* ...or a lower bound >= beta (a cutoff) */
};
static const uint32_t EST_SHIFT = 16;
static const uint32_t EST_INDEX_MASK = 0xffffu;

static gts_score er_node(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta);

/* The evaluate phase for one child: apply @m (child C), estimate C's
 * contribution to the parent at @ply, undo. Returns false when the search must unwind. */
static bool er_estimate(gts__ctx *c, gts_move m, int depth, int ply, gts_score alpha,
                        gts_score beta, gts_score *est, int *kind)
{
    int ext = gts__extension(c, m);
    if (ext < 0 || !gts__apply(c, m))
        return false;
    int d = depth - 1 + ext;
    int cp = ply + 1; /* the child's ply */
    gts_score s = 0;
    int n = -1;
    if (d > 0 && cp < GTS_MAX_PLY) {
        n = gts__generate(c, cp, false);
        if (n < 0) {
            gts__undo(c, m);
            return false;
        }
    }
    if (n <= 0) {
        /* A leaf, a finished game or the ply limit: er_node values it
         * exactly (or as a fail-soft bound under quiescence) at once. */
        s = -er_node(c, d, cp, -beta, -alpha);
        *kind = s >= beta ? EST_LOWER : s > alpha ? EST_EXACT : EST_UPPER;
    } else {
        /* C's table entry: a bound that already settles C (what C's own
         * table probe would do), else the move to try first. */
        uint32_t tt_move = GTS__TT_NO_MOVE;
        if (c->tt) {
            gts__tt_hit hit;
            c->tt_probes++;
            if (gts__tt_probe(c->tt, c->game->hash(c->state, c->user), &hit)) {
                c->tt_hits++;
                tt_move = hit.move_index;
                /* lo <= v(C) <= hi, so -hi <= -v(C) <= -lo. */
                gts_score lo = gts__tt_bound_from(hit.lower, cp);
                gts_score hi = gts__tt_bound_from(hit.upper, cp);
                int k = -1;
                if (hit.depth >= d) {
                    if (lo == hi) {
                        s = -lo;
                        k = s >= beta ? EST_LOWER : s > alpha ? EST_EXACT : EST_UPPER;
                    } else if (-lo <= alpha) {
                        s = -lo;
                        k = EST_UPPER; /* refuted already */
                    } else if (-hi >= beta) {
                        s = -hi;
                        k = EST_LOWER; /* a cutoff */
                    }
                }
                if (k >= 0) {
                    c->tt_cutoffs++;
                    gts__undo(c, m);
                    *est = s;
                    *kind = k;
                    return !gts__aborted(c);
                }
            }
        }
        /* The eldest grandchild G (first in C's order) as an e-node. */
        gts__order_moves(c, cp, n, tt_move < (uint32_t)n ? tt_move : GTS__TT_NO_MOVE);
        gts_move g = gts__moves(c, cp)[gts__pick(c, cp, 0, n)];
        int gext = gts__extension(c, g);
        if (gext < 0 || !gts__apply(c, g)) {
            gts__undo(c, m);
            return false;
        }
        s = er_node(c, d - 1 + gext, cp + 1, alpha, beta);
        gts__undo(c, g);
        /* -v(C) <= v(G): a bound unless G's search failed high. */
        *kind = s < beta ? EST_UPPER : EST_NONE;
    }
    gts__undo(c, m);
    *est = s;
    return !gts__aborted(c);
}

/* Stable insertion sort of @n estimates, highest key first. */
static void er_sort(gts__mv *o, int n)
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

static gts_score er_node(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta)
{
    /* Step 1. Stop, limits, horizon */
    if (gts__enter(c, ply))
        return 0;
    if (ply >= GTS_MAX_PLY)
        return gts__evaluate(c, ply);
    if (depth <= 0)
        return gts__leaf(c, ply, alpha, beta);

    /* Steps 2-3. Window and transposition table (no cut at the root) */
    uint64_t key;
    uint32_t tt_move;
    gts_score cut;
    if (gts__node_probe(c, depth, ply, &alpha, &beta, &key, &tt_move, &cut))
        return cut;

    /* Step 4. Moves in heuristic order; none: a finished game */
    int n = gts__generate(c, ply, false);
    if (n < 0)
        return 0;
    if (n == 0) {
        return gts__terminal(c, key, ply);
    }
    gts__order_moves(c, ply, n, tt_move < (uint32_t)n ? tt_move : GTS__TT_NO_MOVE);
    for (int k = 0; k < n; k++)
        gts__pick(c, ply, k, n); /* full selection sort: o[k].index is the k-th move */
    const gts_move *moves = gts__moves(c, ply);
    gts__mv *o = c->order[ply];

    gts_score best = -GTS_SCORE_INF;
    uint32_t best_index = GTS__TT_NO_MOVE;
    gts_score a = alpha;

    /* Step 5. Evaluate: estimate every child through its eldest grandchild.
     * A child that is already known to cut (a leaf >= beta) ends the node. */
    for (int k = 0; k < n; k++) {
        uint32_t i = o[k].index;
        gts_score est;
        int kind;
        if (!er_estimate(c, moves[i], depth, ply, alpha, beta, &est, &kind))
            return 0;
        o[k].key = est;
        o[k].index = i | (uint32_t)kind << EST_SHIFT;
        if (kind == EST_LOWER) {
            best = est;
            best_index = i;
            if (ply == 0) {
                c->root_move = moves[i];
                c->root_has_move = true;
            }
            c->pv_len[ply + 1] = 0;
            gts__pv_update(c, ply, moves[i]);
            gts__order_cutoff(c, ply, depth, moves[i]);
            goto store;
        }
    }

    /* Step 6. Sort: most promising child first */
    er_sort(o, n);

    /* Step 7. The principal child, then refutation of the others. The first
     * child (k == 0) is searched fully; a later one only when it resists a
     * null-window refutation at the current bound. */
    for (int k = 0; k < n; k++) {
        uint32_t i = o[k].index & EST_INDEX_MASK;
        int kind = (int)(o[k].index >> EST_SHIFT);
        gts_score est = (gts_score)o[k].key;
        gts_move m = moves[i];
        gts_score s;

        if (kind == EST_EXACT || (kind == EST_UPPER && est <= a)) {
            /* Known: exact, or refuted for free by its bound */
            s = est;
            c->pv_len[ply + 1] = 0;
        } else {
            int ext = gts__extension(c, m);
            if (ext < 0 || !gts__apply(c, m))
                return 0;
            int d = depth - 1 + ext;
            if (k == 0) {
                s = -er_node(c, d, ply + 1, -beta, -a);              /* principal: e-node */
            } else {
                s = -gts__alphabeta(c, d, ply + 1, -a - 1, -a);      /* r-node */
                if (s > a && s < beta && !gts__aborted(c))
                    s = -er_node(c, d, ply + 1, -beta, -a);          /* promoted */
            }
            gts__undo(c, m);
            if (gts__aborted(c))
                return 0;
        }

        if (gts__child_result(c, depth, ply, m, i, s, beta, &best, &best_index, &a))
            break;
    }

store:
    /* Step 8. Store */
    gts__tt_save(c, key, depth, ply, alpha, beta, best, best_index);
    return best;
}

gts_score gts__iterate_er(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    gts__ctx *c = run->ctx[0];
    c->use_pvs = false; /* refutations are null-window searches anyway */
    return er_node(c, depth, 0, alpha, beta);
}
