/*
 * er.c - serial Evaluate-and-Refute (ER) search.
 *
 * After Steinberg & Solomon, "Searching game trees in parallel" (ICPP 1990;
 * UW-Madison TR 877, 1989). ER classifies the nodes of the tree by what
 * must be learnt about them:
 *
 *   e-node (evaluate): its value (inside the window) is needed. The root
 *       is an e-node, and so is the first child of every child of an e-node
 *       and of every node being refuted.
 *   r-node (refute): it is enough to show that it cannot beat the bound its
 *       parent already has, i.e. to find ONE child of it that is good enough
 *       for the opponent.
 *
 * The node functions follow the paper's procedures er (er_e), evalFirst
 * (er_first) and refuteRest (er_rest, er_r):
 *   er(N):         1. evalFirst(C) for EVERY child C of N: search C's first
 *                     child G1 as an e-node. v(C) >= -v(G1), so C's
 *                     contribution to N is at most v(G1): an upper bound
 *                     that says how promising C is. C is "done" when that
 *                     already refutes C, or when G1 is C's only child (or C
 *                     is a leaf, a finished game or decided by the table).
 *                  2. sort the children that are not done by those bounds,
 *                     most promising first (stable: ties keep the move
 *                     ordering's order).
 *                  3. refuteRest(C) for each of them in that order, with
 *                     the window N has by then: a child whose bound is
 *                     already <= alpha is refuted for free.
 *   refuteRest(C): C's children after the first, each by evalFirst (its
 *                  first child as an e-node) and, unless that settles it,
 *                  refuteRest. Together that is er_r(): alpha-beta whose
 *                  first child at every node is an e-node (er) and whose
 *                  other children are refuted the same way recursively.
 * Every search keeps the caller's full window (alpha, beta): refuting is
 * done by this recursion, not by a null-window alpha-beta.
 *
 * Correction to the published pseudo-code. Its refuteRest(p, alpha, beta)
 * starts from p.val = alpha, dropping the value evalFirst(p) got from p's
 * first child; when every later child is worse than that first one, p comes
 * back as "<= alpha" although its value is the first child's, and the
 * parent accepts a move it should have rejected (or reports a wrong score).
 * er_rest() starts from the first child's value instead (best = first,
 * alpha = max(alpha, first); a first child that already reaches beta ends
 * the node at once). tests/test_er.c builds a tree on which a literal
 * transcription returns a value other than the minimax value, and checks
 * gts_er on it, on random trees and on the built-in games.
 *
 * History: before 0.2 this file refuted with a null-window alpha-beta at
 * the bound (promoted to a full search when the refutation failed), after
 * the same evaluate and sort phases. It searched 1.3-2.0x the nodes of the
 * paper's recursion on random trees, Connect-4 and Othello (doc/results.md,
 * "ER and Jamboree"), so it was not kept.
 *
 * Invariants: the node functions are fail-soft alpha-beta: for the window
 * (alpha, beta) they return v <= alpha (upper bound), v >=
 * beta (lower bound) or the exact value, the same value gts__minimax
 * computes at the same depth. A result carried from the evaluate phase to
 * the refute phase keeps its meaning there: it was searched with the same
 * beta and an alpha no higher than the one the refutation uses, and only
 * true bounds (mate distance, bounds(), table entries) narrow a window. The
 * best root move is the child whose value is the result. The per-child
 * bounds live in the context's ordering buffer of the node's ply: no
 * allocation per node.
 */
#include "search/algos.h"

/* Packing of a phase-1 entry of er_e: the child's generate() index and the
 * index of the first grandchild evalFirst searched (both < 65536: the
 * driver caps max_moves at 65535). */
static const uint32_t FIRST_SHIFT = 16;
static const uint32_t INDEX_MASK = 0xffffu;

static gts_score er_e(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta);
static gts_score er_r(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta);

/* Stable insertion sort of @n entries, highest key first. */
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

/*
 * evalFirst: child @m of the node at @ply (remaining depth @d after the
 * move), for the node's window (@alpha, @beta). Searches the child's first
 * child as an e-node with (@alpha, @beta) (un-narrowed: er_rest reuses the
 * result under the child's window at that time). Sets *s, from the node's
 * side: with *done, the child's fail-soft value (a bound <= alpha when the
 * first grandchild refutes it); otherwise the first grandchild's value, an
 * upper bound on the child's contribution unless it is >= beta, and
 * *first the grandchild's generate() index. False when the search must
 * unwind.
 */
static bool er_first(gts__ctx *c, gts_move m, int d, int ply, gts_score alpha, gts_score beta,
                     gts_score *s, bool *done, uint32_t *first)
{
    int cp = ply + 1; /* the child's ply */
    *done = true;
    *first = 0;
    if (!gts__apply(c, m))
        return false;
    if (d <= 0 || cp >= GTS_MAX_PLY) {
        /* A leaf: er_e values it (quiescence, ply limit) at once. */
        *s = -er_e(c, d, cp, -beta, -alpha);
        goto out;
    }
    if (gts__enter(c, cp)) {
        *s = 0;
        goto out;
    }
    /* The child's window and table: used to settle the child only (see
     * above); the search below keeps the node's window. */
    gts_score wa = -beta, wb = -alpha, cut;
    uint64_t key;
    uint32_t tt_move;
    if (gts__node_probe(c, d, cp, &wa, &wb, &key, &tt_move, &cut)) {
        *s = -cut;
        goto out;
    }
    int n = gts__generate(c, cp, false);
    if (n < 0) {
        *s = 0;
        goto out;
    }
    if (n == 0) {
        *s = -gts__terminal(c, key, d, cp);
        goto out;
    }
    bool sort = gts__order_moves(c, cp, n, tt_move < (uint32_t)n ? tt_move : GTS__TT_NO_MOVE);
    uint32_t gi = sort ? gts__pick(c, cp, 0, n) : 0;
    gts_move g = gts__moves(c, cp)[gi];
    int gext = gts__extension(c, g);
    if (gext < 0 || !gts__apply(c, g)) {
        *s = 0;
        goto out;
    }
    gts_score u = er_e(c, d - 1 + gext, cp + 1, alpha, beta);
    gts__undo(c, g);
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
        if (v1 >= -alpha)
            gts__order_cutoff(c, cp, d, g);
        gts__tt_save(c, key, d, cp, -beta, -alpha, v1, gi);
    } else {
        *done = false;
        *first = gi;
    }
out:
    gts__undo(c, m);
    return !gts__aborted(c);
}

/*
 * refuteRest, corrected: the node at @ply (remaining @depth, window
 * (@alpha, @beta)) whose first child (generate() index @first) evalFirst
 * already searched, with fail-soft value @v1 from this node's side. The
 * published version starts from alpha and loses @v1 (see the top of the
 * file); here the node's best starts at @v1.
 */
static gts_score er_rest(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta,
                         gts_score v1, uint32_t first)
{
    if (gts__enter(c, ply))
        return 0;
    uint64_t key;
    uint32_t tt_move;
    gts_score cut;
    if (gts__node_probe(c, depth, ply, &alpha, &beta, &key, &tt_move, &cut))
        return cut;
    int n = gts__generate(c, ply, false);
    if (n < 0)
        return 0;
    if (n == 0)
        return gts__terminal(c, key, depth, ply);
    const gts_move *moves = gts__moves(c, ply);
    gts_score best = -GTS_SCORE_INF;
    uint32_t best_index = GTS__TT_NO_MOVE;
    gts_score a = alpha;
    if (first < (uint32_t)n) {
        /* The correction: the first child's value counts. Its line below
         * the first move is gone (the table lengthens the PV later). */
        c->pv_len[ply + 1] = 0;
        if (gts__child_result(c, depth, ply, moves[first], first, v1, beta, &best, &best_index,
                              &a))
            goto store;
    } else {
        first = GTS__TT_NO_MOVE; /* the game changed its moves: search them all */
    }
    bool sort = gts__order_moves(c, ply, n, tt_move < (uint32_t)n ? tt_move : GTS__TT_NO_MOVE);
    for (int k = 0; k < n; k++) {
        uint32_t i = sort ? gts__pick(c, ply, k, n) : (uint32_t)k;
        if (i == first)
            continue;
        gts_move m = moves[i];
        int ext = gts__extension(c, m);
        if (ext < 0 || !gts__apply(c, m))
            return 0;
        gts_score s = -er_r(c, depth - 1 + ext, ply + 1, -beta, -a);
        gts__undo(c, m);
        if (gts__aborted(c))
            return 0;
        if (gts__child_result(c, depth, ply, m, i, s, beta, &best, &best_index, &a))
            break;
    }
store:
    gts__tt_save(c, key, depth, ply, alpha, beta, best, best_index);
    return best;
}

/* The steps every ER node (e-node or refuted node) takes before its moves:
 * stop, limits and horizon; window and table (no cut at the root); the
 * moves, ordered (c->order[ply] filled, *sort as gts__order_moves). True
 * with *v when the node is decided there (a value, or 0 after a stop or a
 * failure); otherwise *n > 0 moves at @ply and the narrowed window. */
static inline bool er_begin(gts__ctx *c, int depth, int ply, gts_score *alpha, gts_score *beta,
                            uint64_t *key, int *n, bool *sort, gts_score *v)
{
    *v = 0;
    if (gts__enter(c, ply))
        return true;
    if (ply >= GTS_MAX_PLY) {
        *v = gts__evaluate(c, ply);
        return true;
    }
    if (depth <= 0) {
        *v = gts__leaf(c, ply, *alpha, *beta);
        return true;
    }
    uint32_t tt_move;
    if (gts__node_probe(c, depth, ply, alpha, beta, key, &tt_move, v))
        return true;
    *n = gts__generate(c, ply, false);
    if (*n < 0) {
        *v = 0;
        return true;
    }
    if (*n == 0) {
        *v = gts__terminal(c, *key, depth, ply);
        return true;
    }
    *sort = gts__order_moves(c, ply, *n, tt_move < (uint32_t)*n ? tt_move : GTS__TT_NO_MOVE);
    return false;
}

/* evalFirst followed by refuteRest at one node (a child of a node being
 * refuted): its first child as an e-node, the others refuted the same way. */
static gts_score er_r(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta)
{
    uint64_t key;
    int n;
    bool sort;
    gts_score v;
    if (er_begin(c, depth, ply, &alpha, &beta, &key, &n, &sort, &v))
        return v;
    const gts_move *moves = gts__moves(c, ply);
    gts_score best = -GTS_SCORE_INF;
    uint32_t best_index = GTS__TT_NO_MOVE;
    gts_score a = alpha;
    for (int k = 0; k < n; k++) {
        uint32_t i = sort ? gts__pick(c, ply, k, n) : (uint32_t)k;
        gts_move m = moves[i];
        int ext = gts__extension(c, m);
        if (ext < 0 || !gts__apply(c, m))
            return 0;
        int d = depth - 1 + ext;
        gts_score s = k == 0 ? -er_e(c, d, ply + 1, -beta, -a) : -er_r(c, d, ply + 1, -beta, -a);
        gts__undo(c, m);
        if (gts__aborted(c))
            return 0;
        if (gts__child_result(c, depth, ply, m, i, s, beta, &best, &best_index, &a))
            break;
    }
    gts__tt_save(c, key, depth, ply, alpha, beta, best, best_index);
    return best;
}

/* er: the e-node. */
static gts_score er_e(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta)
{
    /* Steps 1-4. Stop, limits, horizon; window and table; the moves */
    uint64_t key;
    int n;
    bool sort;
    gts_score v;
    if (er_begin(c, depth, ply, &alpha, &beta, &key, &n, &sort, &v))
        return v;
    gts__mv *o = c->order[ply];
    for (int k = 0; k < n; k++) {
        if (sort)
            gts__pick(c, ply, k, n); /* full selection sort: o[k].index is the k-th move */
        else
            o[k].index = (uint32_t)k;
    }
    const gts_move *moves = gts__moves(c, ply);

    gts_score best = -GTS_SCORE_INF;
    uint32_t best_index = GTS__TT_NO_MOVE;
    gts_score a = alpha;

    /* Step 5. evalFirst of every child. Settled children count at once;
     * the others are kept (compacted to the front) with their bound. */
    int open = 0;
    for (int k = 0; k < n; k++) {
        uint32_t i = o[k].index;
        gts_move m = moves[i];
        int ext = gts__extension(c, m);
        if (ext < 0)
            return 0;
        gts_score s;
        bool done;
        uint32_t first;
        if (!er_first(c, m, depth - 1 + ext, ply, a, beta, &s, &done, &first))
            return 0;
        if (done) {
            if (gts__child_result(c, depth, ply, m, i, s, beta, &best, &best_index, &a))
                goto store;
        } else {
            o[open].key = s;
            o[open].index = i | first << FIRST_SHIFT;
            open++;
        }
    }

    /* Step 6. Sort: most promising first (stable insertion sort) */
    er_sort(o, open);

    /* Step 7. refuteRest of each, in that order, with the current window */
    for (int k = 0; k < open; k++) {
        uint32_t i = o[k].index & INDEX_MASK;
        uint32_t first = o[k].index >> FIRST_SHIFT;
        gts_score u = (gts_score)o[k].key;
        gts_move m = moves[i];
        gts_score s;
        if (u <= a) {
            /* Refuted for free: its contribution is <= u <= alpha */
            s = u;
            c->pv_len[ply + 1] = 0;
        } else {
            int ext = gts__extension(c, m);
            if (ext < 0 || !gts__apply(c, m))
                return 0;
            s = -er_rest(c, depth - 1 + ext, ply + 1, -beta, -a, -u, first);
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
    c->use_pvs = false;
    return er_e(c, depth, 0, alpha, beta);
}
