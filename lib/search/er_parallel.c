/*
 * er_parallel.c - parallel Evaluate-and-Refute (Steinberg & Solomon,
 * "Searching Game Trees in Parallel", ICPP 1990).
 *
 * What. ER splits the nodes of the tree into e-nodes, whose value must be
 * evaluated, and r-nodes, which only need to be refuted (shown to be no
 * better than the bound the parent already has). An e-node is searched in
 * four phases:
 *   1. evaluate-first (mandatory, in parallel): for EVERY child, evaluate
 *      that child's first child (an e-node) with the node's window. Its
 *      value v bounds the move from above: move <= v. A child that is a
 *      finished game, or that the table decides, gets its final value now.
 *   2. order: the children are sorted by those bounds, most promising first
 *      (the dynamic ordering of the speculative work).
 *   3. evaluate the most promising child fully, as an e-node (mandatory).
 *   4. refute the others, in bound order, in parallel (speculative): a child
 *      whose bound is already <= alpha is refuted for free by its phase-1
 *      work; otherwise the child is searched as an r-node with a null window
 *      at alpha, and when that refutation fails it is evaluated with the
 *      full window (alpha, beta) as an e-node.
 * An r-node tries its children in order, each evaluated as an e-node with
 * the r-node's window, until one refutes it (a cutoff): the search a
 * refutation needs, serially. Below ER_MIN_DEPTH the serial gts__alphabeta
 * (PVS) takes over. With one thread the same phases run in order on the
 * calling thread: serial ER.
 *
 * Work classification: phase 1 and phase 3 are mandatory (the minimal-tree
 * part: every child of an e-node has its refutation candidate, its first
 * child, evaluated; the best child is evaluated); phase 4 is speculative
 * (it may be made unnecessary by a rising alpha or a cutoff). Wasted nodes:
 * phase-4 jobs aborted by a cutoff or a stop, or finished after the node was
 * cut off. Work nested in speculative work stays speculative.
 *
 * Scheduling: mandatory before speculative. A phase-1 split point is
 * published on the iteration's mandatory-work board (gts__sp_publish,
 * parallel.h) while its jobs are handed out; any worker about to claim a
 * phase-4 job (speculative) first helps the published split points that
 * still have jobs, shallowest first, so speculative work runs only when no
 * mandatory work is waiting to be claimed. The speculative jobs of a node
 * are handed out in the order of their phase-1 bounds, most promising
 * first (the paper's dynamic ordering of speculative work).
 *
 * Concurrency contract: the node block lives in its owner's arena. Phase-1
 * jobs write only their own move's slot (bound, finality), read by the owner
 * after gts__sp_join(); phase-4 jobs fold their results under the node's
 * spin lock; alpha is an atomic read by jobs when they start.
 *
 * Invariants (exactness): every value folded into a node is a fail-soft
 * result of a search with a window whose lower bound is an alpha that was
 * proved (or the node's own alpha), or a phase-1 upper bound folded only
 * when it is <= the current alpha; so the node's result has the same
 * meaning as serial alpha-beta's (upper bound <= alpha, exact, or lower
 * bound >= beta). The order of the children never changes the value.
 */
#include "search/parallel.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Smallest remaining depth of an ER node (below: serial PVS). */
enum { ER_MIN_DEPTH = 3 };

typedef enum er_kind { ER_E, ER_R } er_kind;

typedef struct er_node {
    gts__sp sp;
    int depth, ply;
    gts_score alpha0, beta;
    uint32_t alpha;          /* atomic: current alpha (gts_score bits) */
    uint32_t lock;
    gts_score best;          /* lock */
    uint32_t best_k;         /* lock */
    bool cut;                /* lock */
    int n;
    gts_move *moves;
    uint32_t *idx;
    int *ext;                /* extension of each move */
    gts_score *bound;        /* phase 1: move <= bound (or its final value) */
    bool *final;             /* phase 1 decided the move */
    uint32_t *order;         /* phase 2: moves by bound, best first */
    gts__pvline line;        /* lock */
} er_node;

static gts_score er_search(gts__pw *pw, er_kind kind, int depth, int ply, gts_score alpha,
                           gts_score beta);

static gts_score er_child(gts__pw *pw, er_kind kind, int depth, int ply, gts_score alpha,
                          gts_score beta)
{
    if (depth >= ER_MIN_DEPTH && ply < pw->c->split_ply)
        return er_search(pw, kind, depth, ply, alpha, beta);
    return gts__alphabeta(pw->c, depth, ply, alpha, beta);
}

static gts_score load_alpha(const er_node *nd)
{
    return (gts_score)(int32_t)gts__atomic_load_relaxed_32(&nd->alpha);
}

/* Fold a result of move @k. @has_pv: the worker's PV row at ply + 1 is the
 * move's line. false when the node was already cut off. */
static bool er_update(gts__pw *pw, er_node *nd, uint32_t k, gts_score s, bool has_pv)
{
    gts__ctx *c = pw->c;
    bool cutoff = false;
    gts__spin_lock(&nd->lock);
    if (nd->cut) {
        gts__spin_unlock(&nd->lock);
        return false;
    }
    if (s > nd->best) {
        nd->best = s;
        nd->best_k = k;
        if (s > load_alpha(nd)) {
            if (has_pv) {
                gts__pvline_set(&nd->line, c, nd->ply, nd->moves[k]);
            } else {
                nd->line.m[0] = nd->moves[k];
                nd->line.len = 1;
            }
            if (s >= nd->beta) {
                nd->cut = true;
                cutoff = true;
                gts__sp_cut(&nd->sp);
            } else {
                gts__atomic_store_relaxed_32(&nd->alpha, (uint32_t)s);
            }
        }
    }
    gts__spin_unlock(&nd->lock);
    if (cutoff)
        gts__order_cutoff(c, nd->ply, nd->depth, nd->moves[k]);
    return true;
}

/* ---- phase 1: evaluate the first child of every child -------------------- */

static void er_first_job(gts__pw *pw, gts__sp *sp, uint32_t k)
{
    er_node *nd = sp->data;
    gts__ctx *c = pw->c;
    int ply = nd->ply;
    gts_move m = nd->moves[k];
    int d = nd->depth - 1 + nd->ext[k];
    if (!gts__pw_apply(pw, ply, m))
        return;

    /* Step 1. The child itself: horizon, table, finished game. */
    int cply = ply + 1;
    if (cply > c->seldepth)
        c->seldepth = cply;
    uint64_t key;
    uint32_t tt_move;
    gts_score s;
    if (cply >= GTS_MAX_PLY || d <= 0) {
        nd->bound[k] = -gts__leaf(c, cply, -nd->beta, -nd->alpha0);
        nd->final[k] = true;
        goto undo;
    }
    gts_score wa = -nd->beta, wb = -nd->alpha0;
    if (gts__node_probe(c, d, cply, &wa, &wb, &key, &tt_move, &s)) {
        nd->bound[k] = -s;
        nd->final[k] = true;
        goto undo;
    }
    int n = gts__generate(c, cply, false);
    if (n < 0)
        goto undo;
    if (n == 0) {
        nd->bound[k] = -gts__evaluate(c, cply);
        nd->final[k] = true;
        goto undo;
    }

    /* Step 2. Its first child in the usual order, evaluated as an e-node. */
    bool sort = gts__order_moves(c, cply, n, tt_move < (uint32_t)n ? tt_move : GTS__TT_NO_MOVE);
    gts_move g = gts__moves(c, cply)[sort ? gts__pick(c, cply, 0, n) : 0];
    int ext = gts__extension(c, g);
    if (ext < 0 || !gts__pw_apply(pw, cply, g))
        goto undo;
    nd->bound[k] = er_child(pw, ER_E, d - 1 + ext, cply + 1, nd->alpha0, nd->beta);
    gts__pw_undo(pw, cply, g);
undo:
    gts__pw_undo(pw, ply, m);
}

/* ---- phase 4: refute or evaluate the other children ------------------------ */

static void er_refute_job(gts__pw *pw, gts__sp *sp, uint32_t i)
{
    er_node *nd = sp->data;
    gts__ctx *c = pw->c;
    uint32_t k = nd->order[i];
    gts_score a = load_alpha(nd);
    if (nd->bound[k] <= a) {
        /* Refuted by its phase-1 work: move <= bound <= alpha. */
        er_update(pw, nd, k, nd->bound[k], false);
        return;
    }
    gts__waste_mark wm = gts__pw_waste_mark(pw);
    gts_move m = nd->moves[k];
    int d = nd->depth - 1 + nd->ext[k];
    if (!gts__pw_apply(pw, nd->ply, m))
        return;
    gts_score s = -er_child(pw, ER_R, d, nd->ply + 1, -a - 1, -a);
    if (s > a && s < nd->beta && !gts__aborted(c)) {
        /* The refutation failed: the move is better than alpha. */
        gts_score a2 = load_alpha(nd);
        if (a2 < a)
            a2 = a;
        s = -er_child(pw, ER_E, d, nd->ply + 1, -nd->beta, -a2);
    }
    gts__pw_undo(pw, nd->ply, m);
    if (gts__aborted(c) || !er_update(pw, nd, k, s, true)) {
        if (pw->in_spec)
            gts__pw_wasted(pw, wm);
    }
}

/* ---- nodes -------------------------------------------------------------------- */

/* Split point over jobs [0, njobs): spawn, work, join. false on failure. */
static bool er_split(gts__pw *pw, er_node *nd, uint32_t njobs, gts__sp_job_fn job, bool spec)
{
    bool parallel = gts__sp_parallel(pw);
    if (!gts__sp_init(pw, &nd->sp, 0, njobs, job, nd, parallel && spec))
        return false;
    if (parallel) {
        gts__sp_spawn(pw, &nd->sp, INT_MAX);
        gts__sp_publish(pw, &nd->sp); /* mandatory jobs: before anyone's speculative ones */
    }
    gts__sp_work(pw, &nd->sp);
    gts__sp_join(pw, &nd->sp);
    return true;
}

static void sort_by_bound(er_node *nd, uint32_t *order, int count)
{
    /* Insertion sort, stable: bounds descending, generate order on ties. */
    for (int i = 1; i < count; i++) {
        uint32_t x = order[i];
        int j = i - 1;
        while (j >= 0 && nd->bound[order[j]] < nd->bound[x]) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = x;
    }
}

/* The e-node phases 1-4 over moves [0, limit). */
static void e_node(gts__pw *pw, er_node *nd, int limit)
{
    gts__ctx *c = pw->c;

    /* Phase 1. Every child's first child, in parallel. */
    if (!er_split(pw, nd, (uint32_t)limit, er_first_job, false) || gts__aborted(c))
        return;

    /* Decided moves count at once; the others are ordered by their bound. */
    int count = 0;
    for (int k = 0; k < limit; k++) {
        if (nd->final[k]) {
            er_update(pw, nd, (uint32_t)k, nd->bound[k], false);
            if (nd->cut)
                return;
        } else {
            nd->order[count++] = (uint32_t)k;
        }
    }
    if (count == 0)
        return;

    /* Phase 2. Dynamic ordering by the evaluate-first bounds. */
    sort_by_bound(nd, nd->order, count);

    /* Phase 3. The most promising child, evaluated (unless already refuted). */
    uint32_t k = nd->order[0];
    gts_score a = load_alpha(nd);
    if (nd->bound[k] <= a) {
        er_update(pw, nd, k, nd->bound[k], false);
    } else {
        if (!gts__pw_apply(pw, nd->ply, nd->moves[k]))
            return;
        gts_score s = -er_child(pw, ER_E, nd->depth - 1 + nd->ext[k], nd->ply + 1, -nd->beta, -a);
        gts__pw_undo(pw, nd->ply, nd->moves[k]);
        if (gts__aborted(c))
            return;
        er_update(pw, nd, k, s, true);
    }
    if (nd->cut || count == 1)
        return;

    /* Phase 4. Refute the others, best bound first, in parallel. */
    nd->order++;
    er_split(pw, nd, (uint32_t)count - 1, er_refute_job, true);
    nd->order--;
}

/* The r-node: children in order until one refutes (cuts off). */
static void r_node(gts__pw *pw, er_node *nd, int limit)
{
    gts__ctx *c = pw->c;
    for (int k = 0; k < limit; k++) {
        gts_score a = load_alpha(nd);
        if (!gts__pw_apply(pw, nd->ply, nd->moves[k]))
            return;
        gts_score s = -er_child(pw, ER_E, nd->depth - 1 + nd->ext[k], nd->ply + 1, -nd->beta, -a);
        gts__pw_undo(pw, nd->ply, nd->moves[k]);
        if (gts__aborted(c))
            return;
        er_update(pw, nd, (uint32_t)k, s, true);
        if (nd->cut)
            return;
    }
}

static gts_score er_search(gts__pw *pw, er_kind kind, int depth, int ply, gts_score alpha,
                           gts_score beta)
{
    gts__ctx *c = pw->c;

    /* Steps 1-3. Stop, limits, horizon, table, ordered moves */
    gts__par_node pn;
    gts_score s;
    if (!gts__par_open(pw, depth, ply, &alpha, &beta, &pn, &s))
        return s;
    gts__arena_mark am = pn.am;
    int n = pn.n;
    er_node *nd = gts__pw_alloc(pw, sizeof *nd);
    if (!nd) {
        gts__pw_release(pw, am);
        return 0;
    }
    nd->moves = pn.moves;
    nd->idx = pn.idx;
    int limit = gts__par_limit(c, depth, n);
    nd->ext = gts__pw_alloc(pw, (size_t)limit * sizeof *nd->ext);
    nd->bound = gts__pw_alloc(pw, (size_t)limit * sizeof *nd->bound);
    nd->final = gts__pw_alloc(pw, (size_t)limit * sizeof *nd->final);
    nd->order = gts__pw_alloc(pw, (size_t)limit * sizeof *nd->order);
    if (!nd->ext || !nd->bound || !nd->final || !nd->order) {
        gts__pw_release(pw, am);
        return 0;
    }
    for (int k = 0; k < limit; k++) {
        nd->ext[k] = gts__extension(c, nd->moves[k]);
        if (nd->ext[k] < 0) {
            gts__pw_release(pw, am);
            return 0;
        }
        nd->bound[k] = GTS_SCORE_INF;
        nd->final[k] = false;
    }
    nd->depth = depth;
    nd->ply = ply;
    nd->alpha0 = alpha;
    nd->beta = beta;
    nd->alpha = (uint32_t)alpha;
    nd->lock = 0;
    nd->best = -GTS_SCORE_INF;
    nd->best_k = 0;
    nd->cut = false;
    nd->n = n;
    nd->line.len = 0;
    gts__sp_init(pw, &nd->sp, 0, 0, NULL, nd, false); /* cut flag before any split */

    /* Step 4. Evaluate or refute */
    if (kind == ER_E)
        e_node(pw, nd, limit);
    else
        r_node(pw, nd, limit);
    if (gts__aborted(c)) {
        gts__pw_release(pw, am);
        return 0;
    }

    /* Step 5. Result: table, PV, root move */
    gts_score best = nd->best;
    gts__tt_save(c, pn.key, depth, ply, alpha, beta, best, nd->idx[nd->best_k]);
    if (nd->line.len > 0)
        gts__pvline_put(c, ply, &nd->line);
    else
        c->pv_len[ply] = 0;
    if (ply == 0) {
        c->root_move = nd->moves[nd->best_k];
        c->root_has_move = true;
    }
    gts__pw_release(pw, am);
    return best;
}

/* ---- iteration ------------------------------------------------------------------ */

typedef struct er_args {
    int depth;
    gts_score alpha, beta, score;
} er_args;

static void er_root(gts__pw *pw, void *arg)
{
    er_args *a = arg;
    a->score = er_search(pw, ER_E, a->depth, 0, a->alpha, a->beta);
}

gts_score gts__iterate_er_parallel(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    gts__par par;
    if (!gts__par_begin(&par, run))
        return 0;
    er_args a = {depth, alpha, beta, 0};
    if (depth < ER_MIN_DEPTH)
        a.score = gts__alphabeta(run->ctx[0], depth, 0, alpha, beta);
    else
        gts__par_run(&par, er_root, &a);
    gts__par_end(&par);
    return a.score;
}
