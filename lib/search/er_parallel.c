/*
 * er_parallel.c - parallel Evaluate-and-Refute (Steinberg & Solomon,
 * "Searching Game Trees in Parallel", ICPP 1990; UW-Madison TR 877, 1989).
 *
 * What. The serial ER of er.c (its header has the procedures er, evalFirst
 * and refuteRest, and the correction of the published refuteRest), with
 * the work of its e-nodes spread over the pool's workers, as the paper's
 * parallel ER does:
 *   er(N), a split node here (par_e):
 *     Step 4. evalFirst(C) of EVERY child C: the MANDATORY work. One split
 *             point whose jobs are the children; each job searches its
 *             child's first child as an e-node (itself a split node when
 *             deep enough) with the window N has when the job starts. A
 *             child settled there (refuted by its first child, only one
 *             child, a leaf, a finished game, the table) is folded at once;
 *             the others keep their bound (the first grandchild's value).
 *     Step 5. the open children sorted by those bounds, most promising
 *             first (stable, as er.c).
 *     Step 6. refuteRest(C) of each open child: the SPECULATIVE work. A
 *             second split point whose jobs are handed out in that order
 *             (the paper's dynamic ordering of speculative work by the
 *             evalFirst bounds); each job reads N's alpha when it starts: a
 *             child whose bound is already <= alpha is refuted for free,
 *             the others get er.c's corrected refuteRest with (alpha, beta).
 *   refuteRest(C) and evalFirst + refuteRest of a child of a node being
 *     refuted (par_refute): serial loops, as er.c's er_rest and er_r,
 *     whose first children are e-nodes and so split in their turn. One
 *     addition: the refuteRest of a child C of a split node N reads N's
 *     alpha before each of C's children, and when another child of N has
 *     raised it since, C's beta comes down to -alpha (C is refuted as soon
 *     as its best reaches it). Serially N's alpha cannot change during C's
 *     refutation, so this only gives a refutation that started early the
 *     window it would have had if it had started later.
 * Below ER_MIN_DEPTH remaining plies (or from GTS_OPT_SPLIT_PLY on) the
 * node functions of er.c itself run (er.h). evalFirst is er.h's, shared
 * with er.c. With one thread every split point runs its jobs in order on
 * the calling thread: the very search of gts_er, node for node (the same
 * calls in the same order; tests/test_er.c compares the visited sequence).
 *
 * Work classification: with 2+ threads the jobs of step 6 and everything
 * below them are speculative, the rest mandatory (nested work stays
 * speculative: evalFirst inside a refutation is speculative too). With one
 * thread nothing runs ahead of anything: all work counts as mandatory, as
 * for the other parallel algorithms. Wasted: speculative jobs aborted by a
 * cutoff or a stop, or finished after their node was cut off.
 *
 * Scheduling: mandatory before speculative. A mandatory step-4 split point
 * is published on the iteration's board (gts__sp_publish, parallel.h)
 * while its jobs are handed out; a worker about to claim a speculative job
 * first helps the published split points that still have jobs, shallowest
 * first. Everything else is the pool's work stealing (parallel.h).
 *
 * Concurrency contract: the node block lives in its owner's arena. Step-4
 * jobs write only their own child's slot (bound, first grandchild), read by
 * the owner after gts__sp_join(); results are folded under the node's spin
 * lock (er_update); alpha is an atomic, read by jobs when they start and
 * by a child's refuteRest before each of the child's children. The serial
 * loops of par_refute write only their owner's frame.
 *
 * Invariants (exactness): as in er.c. Every value folded into a node is a
 * fail-soft result searched with beta and an alpha that was proved (or the
 * node's own alpha); a bound carried from step 4 to step 6 was searched
 * with the same beta and an alpha no higher than the one the refutation
 * uses (alpha only rises), so its meaning carries over; a free refutation
 * folds a bound <= alpha. A refutation whose beta came down stores and
 * returns against the window it ended with: its best is a lower bound
 * >= that beta only when it came from a child above its alpha (beta is
 * lowered only while it stays above alpha). The order in which results
 * arrive never changes the value.
 */
#include "search/split.h"
#include "search/er.h"

#include <limits.h>

/* Smallest remaining depth of a split node (below: er.c's nodes). */
enum { ER_MIN_DEPTH = 3 };
/* A child's slot after step 4 when the child was settled there. */
static const uint32_t ER_SETTLED = UINT32_MAX;

typedef struct er_node {
    gts__split s;            /* the fold (split.h) */
    gts__sp sp;
    gts__mv *open;           /* step 4: child k's bound and first grandchild */
    gts__pvline line;        /* s.lock */
} er_node;

static gts_score par_e(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta);
static gts_score par_refute(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta,
                            bool rest, gts_score v1, uint32_t first, const er_node *parent);

static bool splits(const gts__pw *pw, int depth, int ply)
{
    return depth >= ER_MIN_DEPTH && ply < pw->c->split_ply;
}

/* The three kinds of ER node: a split node where the tree is deep enough,
 * er.c's serial node below. */
static gts_score pe_e(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta)
{
    if (splits(pw, depth, ply))
        return par_e(pw, depth, ply, alpha, beta);
    return gts__er_e(pw->c, depth, ply, alpha, beta);
}

static gts_score pe_r(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta)
{
    if (splits(pw, depth, ply))
        return par_refute(pw, depth, ply, alpha, beta, false, 0, 0, NULL);
    return gts__er_r(pw->c, depth, ply, alpha, beta);
}

static gts_score pe_rest(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta,
                         gts_score v1, uint32_t first, const er_node *parent)
{
    if (splits(pw, depth, ply))
        return par_refute(pw, depth, ply, alpha, beta, true, v1, first, parent);
    return gts__er_rest(pw->c, depth, ply, alpha, beta, v1, first);
}

/* evalFirst's hooks (er.h): moves recorded in the worker's path, the
 * first grandchild as an e-node. */
static bool hook_apply(void *env, int ply, gts_move m)
{
    return gts__pw_apply(env, ply, m);
}

static void hook_undo(void *env, int ply, gts_move m)
{
    gts__pw_undo(env, ply, m);
}

static gts_score hook_e(void *env, int depth, int ply, gts_score alpha, gts_score beta)
{
    return pe_e(env, depth, ply, alpha, beta);
}

static const gts__er_hooks ER_PARALLEL = {hook_apply, hook_undo, hook_e};

static gts_score er_load_alpha(const er_node *nd)
{
    return gts__split_alpha(&nd->s);
}

/* Fold a result of child @k into a split node (split.h). @has_pv: the
 * worker's PV row at ply + 1 is the child's line. false when the node was
 * already cut off (the result is discarded). */
static bool er_update(gts__pw *pw, er_node *nd, uint32_t k, gts_score s, bool has_pv)
{
    return gts__split_fold(pw->c, &nd->s, k, s, has_pv);
}

/* ---- step 4: evalFirst of every child (mandatory) ------------------------ */

static void first_job(gts__pw *pw, gts__sp *sp, uint32_t k)
{
    er_node *nd = sp->data;
    gts__ctx *c = pw->c;
    gts_move m = nd->s.moves[k];
    int ext = gts__extension(c, m);
    if (ext < 0)
        return;
    gts__waste_mark wm = gts__pw_waste_mark(pw);
    gts_score s;
    bool done;
    uint32_t first;
    if (!gts__er_first(c, pw, &ER_PARALLEL, m, nd->s.depth - 1 + ext, nd->s.ply, er_load_alpha(nd),
                       nd->s.beta, &s, &done, &first)) {
        if (pw->in_spec)
            gts__pw_wasted(pw, wm);
        return;
    }
    if (!done) {
        nd->open[k].key = s;
        nd->open[k].index = k | first << GTS__ER_FIRST_SHIFT;
    } else if (!er_update(pw, nd, k, s, true) && pw->in_spec) {
        gts__pw_wasted(pw, wm);
    }
}

/* ---- step 6: refuteRest of the open children (speculative) --------------- */

static void rest_job(gts__pw *pw, gts__sp *sp, uint32_t j)
{
    er_node *nd = sp->data;
    gts__ctx *c = pw->c;
    uint32_t k = nd->open[j].index & GTS__ER_INDEX_MASK;
    uint32_t first = nd->open[j].index >> GTS__ER_FIRST_SHIFT;
    gts_score u = (gts_score)nd->open[j].key;
    gts_score a = er_load_alpha(nd);
    if (u <= a) {
        /* Refuted for free: its contribution is <= u <= alpha. */
        er_update(pw, nd, k, u, false);
        return;
    }
    gts__waste_mark wm = gts__pw_waste_mark(pw);
    gts_move m = nd->s.moves[k];
    int ext = gts__extension(c, m);
    if (ext < 0 || !gts__pw_apply(pw, nd->s.ply, m))
        return;
    gts_score s =
        -pe_rest(pw, nd->s.depth - 1 + ext, nd->s.ply + 1, -nd->s.beta, -a, -u, first, nd);
    gts__pw_undo(pw, nd->s.ply, m);
    gts__split_job_done(pw, &nd->s, k, s, true, wm);
}

/* ---- nodes ------------------------------------------------------------------ */

/* A split point over jobs [0, njobs): spawn, publish when mandatory, work,
 * join. false on failure (recorded). */
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

/* er: the e-node, split. */
static gts_score par_e(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta)
{
    gts__ctx *c = pw->c;

    /* Steps 1-3. Stop, limits, horizon, table, ordered moves */
    gts__par_node pn;
    er_node *nd = gts__par_open(pw, depth, ply, &alpha, &beta, sizeof *nd, &pn);
    if (!nd)
        return pn.score;
    int n = pn.n;
    gts__mv *open = gts__pw_alloc(pw, (size_t)n * sizeof *open);
    if (!open) {
        gts__pw_release(pw, pn.am);
        return 0;
    }
    gts__split_init(&nd->s, &pn, depth, ply, alpha, beta, &nd->line, &nd->sp.abort.flag);
    nd->open = open;
    for (int k = 0; k < n; k++)
        open[k].index = ER_SETTLED;
    gts__sp_init(pw, &nd->sp, 0, 0, NULL, nd, false); /* cut flag before any split */

    /* Step 4. evalFirst of every child (mandatory, in parallel) */
    if (er_split(pw, nd, (uint32_t)n, first_job, false) && !nd->s.cut && !gts__aborted(c)) {
        /* Step 5. The open children, most promising bound first */
        int count = 0;
        for (int k = 0; k < n; k++)
            if (open[k].index != ER_SETTLED)
                open[count++] = open[k];
        gts__er_sort(open, count);

        /* Step 6. refuteRest of each, in that order (speculative) */
        if (count > 0)
            er_split(pw, nd, (uint32_t)count, rest_job, true);
    }

    /* Step 7. Result: table, PV, root move (split.h) */
    return gts__split_close(pw, &nd->s, &pn, alpha);
}

/* gts__child_result in a frame that may wait: the node's line is kept in
 * @line, since the context's PV rows do not survive the next child. */
static bool refute_fold(gts__ctx *c, gts__pvline *line, int depth, int ply, gts_move m,
                        uint32_t index, gts_score s, gts_score beta, gts_score *best,
                        uint32_t *best_index, gts_score *a)
{
    gts_score a0 = *a;
    bool cut = gts__child_result(c, depth, ply, m, index, s, beta, best, best_index, a);
    if (s > a0 && s < beta)
        gts__pvline_set(line, c, ply, m);
    return cut;
}

/*
 * A node being refuted, at the top of the tree: er.c's er_rest (@rest: the
 * first child, generate() index @first, already searched by evalFirst with
 * value @v1 from this node's side) or er_r (its first child an e-node),
 * with the others refuted by evalFirst + refuteRest. Serial loops: the
 * parallelism is in the e-nodes below.
 */
static gts_score par_refute(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta,
                            bool rest, gts_score v1, uint32_t first, const er_node *parent)
{
    gts__ctx *c = pw->c;

    /* Steps 1-3. Stop, limits, table, ordered moves */
    gts__par_node pn;
    gts__pvline *line = gts__par_open(pw, depth, ply, &alpha, &beta, sizeof *line, &pn);
    if (!line)
        return pn.score;
    line->len = 0;
    gts_score best = -GTS_SCORE_INF;
    uint32_t best_index = GTS__TT_NO_MOVE;
    gts_score a = alpha;

    /* Step 4. refuteRest: the first child's value counts (er.c's
     * correction); a game whose moves changed gets them all searched. */
    int skip = -1;
    if (rest)
        for (int k = 0; k < pn.n; k++)
            if (pn.idx[k] == first) {
                skip = k;
                c->pv_len[ply + 1] = 0;
                if (refute_fold(c, line, depth, ply, pn.moves[k], first, v1, beta, &best,
                                &best_index, &a))
                    goto store;
                break;
            }

    /* Step 5. The other children, in order, until one refutes the node */
    for (int k = 0; k < pn.n; k++) {
        if (k == skip)
            continue;
        if (parent) {
            /* The parent's alpha may have risen since this refutation
             * started (another child's result): it is this node's beta. */
            gts_score nb = -er_load_alpha(parent);
            if (nb < beta && nb > alpha) {
                beta = nb;
                if (best >= beta)
                    break; /* refuted already: best is a lower bound >= beta */
            }
        }
        gts_move m = pn.moves[k];
        int ext = gts__extension(c, m);
        if (ext < 0 || !gts__pw_apply(pw, ply, m)) {
            gts__pw_release(pw, pn.am);
            return 0;
        }
        int d = depth - 1 + ext;
        gts_score s = !rest && k == 0 ? -pe_e(pw, d, ply + 1, -beta, -a)
                                      : -pe_r(pw, d, ply + 1, -beta, -a);
        gts__pw_undo(pw, ply, m);
        if (gts__aborted(c)) {
            gts__pw_release(pw, pn.am);
            return 0;
        }
        if (refute_fold(c, line, depth, ply, m, pn.idx[k], s, beta, &best, &best_index, &a))
            break;
    }

store:
    /* Step 6. Result: table, PV (split.h) */
    return gts__par_close(pw, &pn, depth, ply, alpha, beta, best, best_index, line, true);
}

/* ---- iteration ------------------------------------------------------------------ */

gts_score gts__iterate_er_parallel(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    gts__par par;
    if (!gts__par_begin(&par, run))
        return 0;
    for (int i = 0; i < run->threads; i++)
        run->ctx[i]->use_pvs = false; /* as gts_er (no node of ER reads it) */
    gts_score score = gts__par_search(&par, pe_e, depth, alpha, beta);
    gts__par_end(&par);
    return score;
}
