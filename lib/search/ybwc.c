/*
 * ybwc.c - the split-point family: Young Brothers Wait Concept, Jamboree,
 * PV splitting and root splitting, as variants of one node function.
 *
 * What. Every variant searches a node's eldest brother (first move in
 * order) serially and only then lets the young brothers be searched in
 * parallel: the node becomes a split point (parallel.h) whose jobs are the
 * remaining moves, handed out in order; the owner spawns helper tasks,
 * takes jobs itself and then waits, helping, until its helpers are done.
 * A cutoff at a split point aborts every sibling search below it.
 *
 *  - YBWC (Feldmann, "Game Tree Search on Massively Parallel Systems",
 *    1993): any node with remaining depth >= YBWC_MIN_SPLIT_DEPTH splits;
 *    young brothers get the current window (alpha, beta), read when the job
 *    starts, so a helper benefits from every bound found so far.
 *  - Jamboree (Kuszmaul, "Synchronized MIMD Computing", 1994): the eldest
 *    child is searched recursively, then every young brother gets a
 *    null-window test (alpha, alpha + 1) in parallel; a test that fails high
 *    inside the window is re-searched with the full window by the node's
 *    owner, in move order, after every earlier sibling has been finished
 *    (tests done, re-searches done). The owner is the only one who raises
 *    alpha after the split, so the re-searches run in the serial order.
 *    GTS_OPT_JAMBOREE_SERIAL = P adds the sequential prefix of the MIT
 *    lecture version (P = 50 there): the first ceil(P% of the moves),
 *    eldest included, are searched one by one by the owner with the full
 *    window (alpha, beta), as the slides' pseudo-code does, before the
 *    parallel loop takes the rest; P = 0 is Kuszmaul's version.
 *  - PV splitting (Marsland & Campbell, "Parallel Search of Strongly Ordered
 *    Game Trees", 1982; Marsland & Popowich 1985): only nodes of the
 *    principal variation (the leftmost path) split: the PV is descended
 *    serially and, on the way back up, each PV node's remaining children are
 *    searched in parallel (null window, re-searched when they fail high,
 *    as in PVS); the subtrees of those children are searched serially.
 *  - Root splitting: the root's first move serially, the other root moves
 *    in parallel with a null window around the current alpha, re-searched
 *    with (alpha, beta) when they fail high; below the root everything is
 *    serial.
 * Below the split depth every variant runs the serial gts__alphabeta in
 * PVS mode. With selective search on, the split nodes pass, prune and
 * reduce by the serial node's rules (split.h). With one thread the same code runs without a pool and every
 * job is run by the owner in order: YBWC becomes alpha-beta with full
 * windows at the upper nodes, the others become PVS (Jamboree with one
 * processor is Scout).
 *
 * Concurrency contract: a node block (ynode) lives in its owner's arena.
 * Before the split only the owner touches it; afterwards the moves, depth,
 * window and variant are read-only, alpha is an atomic (written under the
 * lock), best/best_k/cut/pv are guarded by the node's spin lock, and
 * Jamboree's per-move test outcomes (final, or to be re-searched by the
 * owner) are published by a release store of their status word.
 *
 * Invariants (exactness): every job searches its move with a window whose
 * lower bound is an alpha that some finished sibling proved (or the node's
 * own alpha), so a fail-soft result below it is an upper bound and above it
 * an exact value or a lower bound, exactly as in serial alpha-beta; the
 * node's value is the maximum over all results not discarded, and only an
 * abort (cutoff or stop) discards a result. Results of aborted searches are
 * never used or stored.
 */
#include "search/split.h"

#include <limits.h>
#include <string.h>

/* Smallest remaining depth at which a node may split (below: serial). */
enum {
    YBWC_MIN_SPLIT_DEPTH = 3,
    JAMBOREE_MIN_SPLIT_DEPTH = 3,
    PVSPLIT_MIN_SPLIT_DEPTH = 2,
    ROOTSPLIT_MIN_SPLIT_DEPTH = 2
};

typedef enum yb_window {
    YB_WINDOW,   /* young brothers with (alpha, beta) */
    YB_SCOUT,    /* null window, re-searched at once when failing high */
    YB_JAMBOREE  /* null window, re-searched in order by the owner */
} yb_window;

typedef enum yb_where {
    YB_ANY,      /* every node deep enough */
    YB_PV,       /* principal-variation nodes only */
    YB_ROOT      /* the root only */
} yb_where;

typedef struct yvariant {
    yb_window window;
    yb_where where;
    int min_split;
} yvariant;

static const yvariant V_YBWC = {YB_WINDOW, YB_ANY, YBWC_MIN_SPLIT_DEPTH};
static const yvariant V_JAMBOREE = {YB_JAMBOREE, YB_ANY, JAMBOREE_MIN_SPLIT_DEPTH};
static const yvariant V_PVSPLIT = {YB_SCOUT, YB_PV, PVSPLIT_MIN_SPLIT_DEPTH};
static const yvariant V_ROOTSPLIT = {YB_SCOUT, YB_ROOT, ROOTSPLIT_MIN_SPLIT_DEPTH};

/* Jamboree test states. */
enum { J_PENDING = 0, J_DONE = 1, J_RESEARCH = 2, J_ABORTED = 3 };

typedef struct ynode {
    gts__split s;            /* the fold (split.h) */
    gts__sp sp;
    const yvariant *v;
    bool pv;
    uint32_t *status;        /* Jamboree: J_* per move (release/acquire) */
    gts__pvline line;        /* s.lock */
} ynode;

static gts_score ysearch(gts__pw *pw, const yvariant *v, int depth, int ply, gts_score alpha,
                         gts_score beta, bool pv);

static gts_score yn_load_alpha(const ynode *nd)
{
    return gts__split_alpha(&nd->s);
}

/* May the node at @ply (a PV node or not) split? */
static bool may_split(const yvariant *v, int ply, bool pv)
{
    switch (v->where) {
    case YB_ANY: return true;
    case YB_PV: return pv;
    case YB_ROOT: return ply == 0;
    }
    return false;
}

/* Search the child reached by the move just applied at @ply - 1. */
static gts_score ychild(gts__pw *pw, const yvariant *v, int depth, int ply, gts_score alpha,
                        gts_score beta, bool pv)
{
    /* A node that may not split and whose descendants may not either is
     * searched serially. */
    if (depth >= v->min_split && ply < pw->c->split_ply
        && (v->where == YB_ANY || (v->where == YB_PV && pv)))
        return ysearch(pw, v, depth, ply, alpha, beta, pv);
    return gts__alphabeta(pw->c, depth, ply, alpha, beta);
}

/* Fold a finished, non-aborted result of move @k into the node (split.h).
 * Returns false when the node had already been cut off. */
static bool ynode_update(gts__pw *pw, ynode *nd, uint32_t k, gts_score s)
{
    return gts__split_fold(pw->c, &nd->s, k, s, true);
}

/* The child searches of split.h: ychild with the node's variant, at a PV
 * node or not. */
static gts_score ychild_cut(gts__pw *pw, const void *arg, int depth, int ply, gts_score alpha,
                            gts_score beta)
{
    return ychild(pw, ((const ynode *)arg)->v, depth, ply, alpha, beta, false);
}

static gts_score ychild_pv(gts__pw *pw, const void *arg, int depth, int ply, gts_score alpha,
                           gts_score beta)
{
    return ychild(pw, ((const ynode *)arg)->v, depth, ply, alpha, beta, true);
}

/* Apply move @k of @nd, search it with (alpha, beta) (@how: WINDOW, or
 * RESEARCH after a test failed high), undo. Sets *ok to false if a
 * callback failed (recorded). */
static gts_score search_move(gts__pw *pw, ynode *nd, uint32_t k, gts_score alpha,
                             gts_score beta, bool pv, gts__split_how how, bool *ok)
{
    return pv ? gts__split_search(pw, &nd->s, k, alpha, beta, how, ychild_pv, nd, ok)
              : gts__split_search(pw, &nd->s, k, alpha, beta, how, ychild_cut, nd, ok);
}

/* Scout: null window at @a, re-searched with (current alpha, beta) when it
 * fails high inside the window. */
static gts_score scout_move(gts__pw *pw, ynode *nd, uint32_t k, gts_score a, bool *ok)
{
    return gts__split_search(pw, &nd->s, k, a, nd->s.beta, GTS__SPLIT_SCOUT, ychild_cut, nd, ok);
}

/* Job of YBWC, PV splitting and root splitting: one young brother. */
static void yjob(gts__pw *pw, gts__sp *sp, uint32_t k)
{
    ynode *nd = sp->data;
    gts_score a = yn_load_alpha(nd);
    gts__waste_mark wm = gts__pw_waste_mark(pw);
    bool ok;
    gts_score s = nd->v->window == YB_WINDOW
                      ? search_move(pw, nd, k, a, nd->s.beta, false, GTS__SPLIT_WINDOW, &ok)
                      : scout_move(pw, nd, k, a, &ok);
    if (ok)
        gts__split_job_done(pw, &nd->s, k, s, true, wm);
}

/* Job of Jamboree: the null-window test of one young brother. */
static void jtest(gts__pw *pw, gts__sp *sp, uint32_t k)
{
    ynode *nd = sp->data;
    gts_score a = yn_load_alpha(nd);
    gts__waste_mark wm = gts__pw_waste_mark(pw);
    uint32_t st = J_DONE;
    bool ok;
    gts_score s = search_move(pw, nd, k, a, a + 1, false, GTS__SPLIT_WINDOW, &ok);
    if (!ok || gts__aborted(pw->c)) {
        st = J_ABORTED;
        if (pw->in_spec)
            gts__pw_wasted(pw, wm);
    } else if (s > a && s < nd->s.beta) {
        st = J_RESEARCH; /* the owner re-searches it in order */
    } else if (!ynode_update(pw, nd, k, s) && pw->in_spec) {
        gts__pw_wasted(pw, wm);
    }
    gts__atomic_store_release_32(&nd->status[k], st);
}

/* Jamboree's owner: take tests while there are any, and finish the moves
 * [first, limit) in order: a move whose test failed high is re-searched
 * with the full window once every earlier move is final. */
static void jamboree_sequence(gts__pw *pw, ynode *nd, int first, int limit)
{
    gts__ctx *c = pw->c;
    gts__sp *sp = &nd->sp;
    const gts__abort *saved = c->abort;
    c->abort = &sp->abort;
    for (int k = first; k < limit; k++) {
        unsigned idle = 0;
        uint32_t st;
        while ((st = gts__atomic_load_acquire_32(&nd->status[k])) == J_PENDING) {
            if (gts__aborted(c))
                goto out;
            if (gts__sp_has_jobs(sp)) {
                uint32_t j = gts__sp_claim(sp);
                if (j < sp->njobs) {
                    gts__sp_run_job(pw, sp, j);
                    idle = 0;
                    continue;
                }
            }
            if (pw->w && gts__pool_help(pw->w)) {
                idle = 0;
                continue;
            }
            gts__backoff(idle++);
        }
        if (gts__aborted(c))
            goto out;
        if (st == J_RESEARCH) {
            bool ok;
            gts_score s = search_move(pw, nd, (uint32_t)k, yn_load_alpha(nd), nd->s.beta, false,
                                      GTS__SPLIT_RESEARCH, &ok);
            if (!ok || gts__aborted(c))
                goto out;
            ynode_update(pw, nd, (uint32_t)k, s);
            if (gts__sp_is_cut(sp))
                goto out;
        }
    }
out:
    /* Whatever is still running is not needed any more. */
    if (sp->ntasks > 0)
        gts__sp_cut(sp);
    c->abort = saved;
}

/* Jamboree's sequential prefix: moves [1, end) searched by the owner one
 * by one with the full window (alpha, beta), alpha raised as they return
 * (the lecture slides' pseudo-code: plain alpha-beta on the prefix), before
 * the parallel loop. Returns end, or -1 when the node is finished (cut
 * off, stopped or failed). */
static int jamboree_prefix(gts__pw *pw, ynode *nd, int limit)
{
    const int *pct = pw->par->algo;
    int end = pct ? (int)(((int64_t)limit * *pct + 99) / 100) : 1;
    if (end < 1)
        end = 1;
    if (end > limit)
        end = limit;
    for (int k = 1; k < end; k++) {
        bool ok;
        gts_score s = search_move(pw, nd, (uint32_t)k, yn_load_alpha(nd), nd->s.beta, false,
                                  GTS__SPLIT_WINDOW, &ok);
        if (!ok || gts__aborted(pw->c))
            return -1;
        ynode_update(pw, nd, (uint32_t)k, s);
        if (nd->s.cut)
            return -1;
    }
    return end;
}

/* Step 5 of ysearch: the young brothers 1..limit-1. */
static void young_brothers(gts__pw *pw, ynode *nd, int limit)
{
    const yvariant *v = nd->v;
    bool parallel = gts__sp_parallel(pw) && may_split(v, nd->s.ply, nd->pv);
    bool jam = v->window == YB_JAMBOREE;
    int first = 1;
    if (jam) {
        first = jamboree_prefix(pw, nd, limit);
        if (first < 0 || first >= limit)
            return;
        nd->status = gts__pw_alloc(pw, (size_t)limit * sizeof *nd->status);
        if (!nd->status)
            return;
        memset(nd->status, 0, (size_t)limit * sizeof *nd->status);
    }
    if (!gts__sp_init(pw, &nd->sp, (uint32_t)first, (uint32_t)limit, jam ? jtest : yjob, nd,
                      parallel))
        return;
    if (parallel)
        gts__sp_spawn(pw, &nd->sp, INT_MAX);
    if (jam)
        jamboree_sequence(pw, nd, first, limit);
    else
        gts__sp_work(pw, &nd->sp);
    gts__sp_join(pw, &nd->sp);
}

static gts_score ysearch(gts__pw *pw, const yvariant *v, int depth, int ply, gts_score alpha,
                         gts_score beta, bool pv)
{
    gts__ctx *c = pw->c;

    /* Steps 1-3. Stop, limits, horizon, table, ordered moves */
    gts__par_node pn;
    ynode *nd = gts__par_open(pw, depth, ply, &alpha, &beta, sizeof *nd, &pn);
    if (!nd)
        return pn.score;
    gts__split_init(&nd->s, &pn, depth, ply, alpha, beta, &nd->line, &nd->sp.abort.flag);
    nd->v = v;
    nd->pv = pv;
    nd->status = NULL;

    /* Step 4. The eldest brother, serially */
    bool ok;
    gts_score s = search_move(pw, nd, 0, alpha, beta, pv, GTS__SPLIT_WINDOW, &ok);
    if (!ok || gts__aborted(c)) {
        gts__pw_release(pw, pn.am);
        return 0;
    }
    ynode_update(pw, nd, 0, s);

    /* Step 5. Young brothers, in parallel where the variant splits */
    int limit = gts__par_limit(c, depth, pn.n);
    if (!nd->s.cut && limit > 1)
        young_brothers(pw, nd, limit);

    /* Step 6. Result: table, PV, root move (split.h) */
    return gts__split_close(pw, &nd->s, &pn, alpha);
}

/* ---- iterations ---------------------------------------------------------------- */

typedef struct yargs {
    const yvariant *v;
    int depth;
    gts_score alpha, beta, score;
} yargs;

static void yroot(gts__pw *pw, void *arg)
{
    yargs *a = arg;
    a->score = ysearch(pw, a->v, a->depth, 0, a->alpha, a->beta, true);
}

/* Jamboree's option (registry.c): the serial prefix of its nodes. */
const gts__opt_row gts__jamboree_options[] = {
    { GTS_OPT_JAMBOREE_SERIAL, "jamboree_serial", 0, 100, 0 },
    GTS__OPT_END,
};

static gts_score yiterate(gts__run *run, const yvariant *v, int depth, gts_score alpha,
                          gts_score beta)
{
    gts__par par;
    if (!gts__par_begin(&par, run))
        return 0;
    int jamboree_serial = (int)gts__algo_opt(run->engine, gts__jamboree_options,
                                             GTS_OPT_JAMBOREE_SERIAL);
    if (v->window == YB_JAMBOREE)
        par.algo = &jamboree_serial; /* read by jamboree_prefix() */
    yargs a = {v, depth, alpha, beta, 0};
    if (depth < v->min_split)
        a.score = gts__alphabeta(run->ctx[0], depth, 0, alpha, beta);
    else
        gts__par_run(&par, yroot, &a);
    gts__par_end(&par);
    return a.score;
}

gts_score gts__iterate_ybwc(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    return yiterate(run, &V_YBWC, depth, alpha, beta);
}

gts_score gts__iterate_jamboree(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    return yiterate(run, &V_JAMBOREE, depth, alpha, beta);
}

gts_score gts__iterate_pvsplit(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    return yiterate(run, &V_PVSPLIT, depth, alpha, beta);
}

gts_score gts__iterate_rootsplit(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    return yiterate(run, &V_ROOTSPLIT, depth, alpha, beta);
}
