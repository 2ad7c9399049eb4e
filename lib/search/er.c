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
 * (gts__er_first, er.h, shared with er_parallel.c) and refuteRest
 * (er_rest, er_r):
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
 * paper's recursion on random trees, Connect-4 and Othello (doc/results/parallel.md,
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
#include "search/er.h"

static gts_score er_e(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta);
static gts_score er_r(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta);

/* evalFirst's hooks: the context's own apply/undo, the recursion er_e. */
static bool er_apply(void *env, int ply, gts_move m)
{
    (void)ply;
    return gts__apply(env, m);
}

static void er_undo(void *env, int ply, gts_move m)
{
    (void)ply;
    gts__undo(env, m);
}

static gts_score er_e_hook(void *env, int depth, int ply, gts_score alpha, gts_score beta)
{
    return er_e(env, depth, ply, alpha, beta);
}

static const gts__er_hooks ER_SERIAL = {er_apply, er_undo, er_e_hook};

/* The prologue of every ER node (node.h): stop, limits and horizon; window
 * and table (no cut at the root); the moves, unordered. True with *v when
 * the node is decided there (a value, or 0 after a stop or a failure);
 * otherwise in->n > 0 moves at @ply and the narrowed window. */
static inline __attribute__((always_inline)) bool
er_begin(gts__ctx *c, int depth, int ply, gts_score *alpha, gts_score *beta, gts__node_in *in,
         gts_score *v)
{
    return gts__node_head(c, depth, ply, alpha, beta, false, in, v)
           || gts__node_moves(c, depth, ply, in, v);
}

static gts_score er_rest(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta,
                         gts_score v1, uint32_t first);

/* How a child is searched: as an e-node, refuted (evalFirst and
 * refuteRest), or refuteRest alone after the evaluate phase. */
typedef enum er_kind { ER_E, ER_R, ER_REST } er_kind;

/* Child @m of the node at @ply (remaining @depth) searched as @kind with
 * the window (-beta, -a) from its side (ER_REST: @u, @first as evalFirst
 * left them): apply, search, undo. Sets *s from the node's side; false
 * when the search must unwind. */
static inline __attribute__((always_inline)) bool
er_child(gts__ctx *c, gts_move m, int depth, int ply, gts_score a, gts_score beta, er_kind kind,
         gts_score u, uint32_t first, gts_score *s)
{
    int ext = gts__extension(c, m);
    if (ext < 0 || !gts__apply(c, m))
        return false;
    int d = depth - 1 + ext;
    *s = kind == ER_E   ? -er_e(c, d, ply + 1, -beta, -a)
       : kind == ER_R   ? -er_r(c, d, ply + 1, -beta, -a)
                        : -er_rest(c, d, ply + 1, -beta, -a, -u, first);
    gts__undo(c, m);
    return !gts__aborted(c);
}

/*
 * The node being refuted, both kinds: er_rest (@rest) and er_r, as
 * two instances of one loop (@rest a constant at each).
 *  - refuteRest, corrected (@rest): the node at @ply (remaining @depth,
 *    window (@alpha, @beta)) whose first child (generate() index @first)
 *    evalFirst already searched, with fail-soft value @v1 from this node's
 *    side. The published version starts from alpha and loses @v1 (see the
 *    top of the file); here the node's best starts at @v1. Every other
 *    child is refuted by er_r.
 *  - evalFirst followed by refuteRest at one node (a child of a node being
 *    refuted, !@rest): its first child as an e-node, the others refuted
 *    the same way (er_r).
 */
static inline __attribute__((always_inline)) gts_score
er_refute(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta, bool rest,
          gts_score v1, uint32_t first)
{
    gts__node_in in;
    gts_score v;
    if (er_begin(c, depth, ply, &alpha, &beta, &in, &v))
        return v;
    int n = in.n;
    const gts_move *moves = gts__moves(c, ply);
    gts_score best = -GTS_SCORE_INF;
    uint32_t best_index = GTS__TT_NO_MOVE;
    gts_score a = alpha;
    if (!rest) {
        first = GTS__TT_NO_MOVE;
    } else if (first < (uint32_t)n) {
        /* The correction: the first child's value counts. Its line below
         * the first move is gone (the table lengthens the PV later). */
        c->pv_len[ply + 1] = 0;
        if (gts__child_result(c, depth, ply, moves[first], first, v1, beta, &best, &best_index,
                              &a))
            goto store;
    } else {
        first = GTS__TT_NO_MOVE; /* the game changed its moves: search them all */
    }
    bool sort = gts__order_moves(c, ply, n, in.tt_move);
    for (int k = 0; k < n; k++) {
        uint32_t i = sort ? gts__pick(c, ply, k, n) : (uint32_t)k;
        if (i == first)
            continue;
        gts_move m = moves[i];
        gts_score s;
        if (!er_child(c, m, depth, ply, a, beta, !rest && k == 0 ? ER_E : ER_R, 0, 0, &s))
            return 0;
        if (gts__child_result(c, depth, ply, m, i, s, beta, &best, &best_index, &a))
            break;
    }
store:
    gts__tt_save(c, in.key, depth, ply, alpha, beta, best, best_index);
    return best;
}

static gts_score er_rest(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta,
                         gts_score v1, uint32_t first)
{
    return er_refute(c, depth, ply, alpha, beta, true, v1, first);
}

static gts_score er_r(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta)
{
    return er_refute(c, depth, ply, alpha, beta, false, 0, 0);
}

/* er: the e-node. */
static gts_score er_e(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta)
{
    /* Steps 1-4. Stop, limits, horizon; window and table; the moves */
    gts__node_in in;
    gts_score v;
    if (er_begin(c, depth, ply, &alpha, &beta, &in, &v))
        return v;
    int n = in.n;
    bool sort = gts__order_moves(c, ply, n, in.tt_move);
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
        if (!gts__er_first(c, c, &ER_SERIAL, m, depth - 1 + ext, ply, a, beta, &s, &done,
                           &first))
            return 0;
        if (done) {
            if (gts__child_result(c, depth, ply, m, i, s, beta, &best, &best_index, &a))
                goto store;
        } else {
            o[open].key = s;
            o[open].index = i | first << GTS__ER_FIRST_SHIFT;
            open++;
        }
    }

    /* Step 6. Sort: most promising first (stable insertion sort) */
    gts__er_sort(o, open);

    /* Step 7. refuteRest of each, in that order, with the current window */
    for (int k = 0; k < open; k++) {
        uint32_t i = o[k].index & GTS__ER_INDEX_MASK;
        uint32_t first = o[k].index >> GTS__ER_FIRST_SHIFT;
        gts_score u = (gts_score)o[k].key;
        gts_move m = moves[i];
        gts_score s;
        if (u <= a) {
            /* Refuted for free: its contribution is <= u <= alpha */
            s = u;
            c->pv_len[ply + 1] = 0;
        } else if (!er_child(c, m, depth, ply, a, beta, ER_REST, u, first, &s)) {
            return 0;
        }
        if (gts__child_result(c, depth, ply, m, i, s, beta, &best, &best_index, &a))
            goto store; /* a cutoff, as in step 5 */
    }

store:
    /* Step 8. Store */
    gts__tt_save(c, in.key, depth, ply, alpha, beta, best, best_index);
    return best;
}

gts_score gts__iterate_er(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    gts__ctx *c = run->ctx[0];
    c->use_pvs = false;
    return er_e(c, depth, 0, alpha, beta);
}

/* The node functions for the parallel search (er.h). */
gts_score gts__er_e(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta)
{
    return er_e(c, depth, ply, alpha, beta);
}

gts_score gts__er_r(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta)
{
    return er_r(c, depth, ply, alpha, beta);
}

gts_score gts__er_rest(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta,
                       gts_score v1, uint32_t first)
{
    return er_rest(c, depth, ply, alpha, beta, v1, first);
}
