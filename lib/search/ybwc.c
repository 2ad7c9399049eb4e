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
 * PVS mode. With one thread the same code runs without a pool and every
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
#include "search/parallel.h"

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
    gts__sp sp;
    const yvariant *v;
    int depth, ply;
    bool pv;
    gts_score beta;
    uint32_t alpha;          /* atomic: current alpha (gts_score bits) */
    uint32_t lock;
    gts_score best;          /* lock */
    uint32_t best_k;         /* lock */
    bool cut;                /* lock */
    gts_move *moves;         /* best first */
    uint32_t *idx;           /* generate() index of moves[k] */
    uint32_t *status;        /* Jamboree: J_* per move (release/acquire) */
    gts__pvline line;        /* lock */
} ynode;

static gts_score ysearch(gts__pw *pw, const yvariant *v, int depth, int ply, gts_score alpha,
                         gts_score beta, bool pv);

static gts_score load_alpha(const ynode *nd)
{
    return (gts_score)(int32_t)gts__atomic_load_relaxed_32(&nd->alpha);
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

/* Fold a finished, non-aborted result of move @k into the node. Returns
 * false when the node had already been cut off (the result is discarded). */
static bool ynode_update(gts__pw *pw, ynode *nd, uint32_t k, gts_score s)
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
            gts__pvline_set(&nd->line, c, nd->ply, nd->moves[k]);
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

/* Apply move @k of @nd, search it with (alpha, beta), undo. Sets *ok to
 * false if a callback failed (recorded). */
static gts_score search_move(gts__pw *pw, ynode *nd, uint32_t k, gts_score alpha,
                             gts_score beta, bool pv, bool *ok)
{
    gts__ctx *c = pw->c;
    gts_move m = nd->moves[k];
    int ext = gts__extension(c, m);
    if (ext < 0 || !gts__pw_apply(pw, nd->ply, m)) {
        *ok = false;
        return 0;
    }
    gts_score s = -ychild(pw, nd->v, nd->depth - 1 + ext, nd->ply + 1, -beta, -alpha, pv);
    gts__pw_undo(pw, nd->ply, m);
    *ok = true;
    return s;
}

/* Scout: null window at @a, re-searched with (current alpha, beta) when it
 * fails high inside the window. */
static gts_score scout_move(gts__pw *pw, ynode *nd, uint32_t k, gts_score a, bool *ok)
{
    gts__ctx *c = pw->c;
    gts_move m = nd->moves[k];
    int ext = gts__extension(c, m);
    if (ext < 0 || !gts__pw_apply(pw, nd->ply, m)) {
        *ok = false;
        return 0;
    }
    int d = nd->depth - 1 + ext;
    gts_score s = -ychild(pw, nd->v, d, nd->ply + 1, -a - 1, -a, false);
    if (s > a && s < nd->beta && !gts__aborted(c)) {
        gts_score a2 = load_alpha(nd);
        if (a2 < a)
            a2 = a;
        s = -ychild(pw, nd->v, d, nd->ply + 1, -nd->beta, -a2, false);
    }
    gts__pw_undo(pw, nd->ply, m);
    *ok = true;
    return s;
}

/* Job of YBWC, PV splitting and root splitting: one young brother. */
static void yjob(gts__pw *pw, gts__sp *sp, uint32_t k)
{
    ynode *nd = sp->data;
    gts_score a = load_alpha(nd);
    gts__waste_mark wm = gts__pw_waste_mark(pw);
    bool ok;
    gts_score s = nd->v->window == YB_WINDOW
                      ? search_move(pw, nd, k, a, nd->beta, false, &ok)
                      : scout_move(pw, nd, k, a, &ok);
    if (!ok)
        return;
    if (gts__aborted(pw->c) || !ynode_update(pw, nd, k, s)) {
        if (pw->in_spec)
            gts__pw_wasted(pw, wm);
    }
}

/* Job of Jamboree: the null-window test of one young brother. */
static void jtest(gts__pw *pw, gts__sp *sp, uint32_t k)
{
    ynode *nd = sp->data;
    gts_score a = load_alpha(nd);
    gts__waste_mark wm = gts__pw_waste_mark(pw);
    uint32_t st = J_DONE;
    bool ok;
    gts_score s = search_move(pw, nd, k, a, a + 1, false, &ok);
    if (!ok || gts__aborted(pw->c)) {
        st = J_ABORTED;
        if (pw->in_spec)
            gts__pw_wasted(pw, wm);
    } else if (s > a && s < nd->beta) {
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
            gts_score s = search_move(pw, nd, (uint32_t)k, load_alpha(nd), nd->beta, false, &ok);
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
        gts_score s = search_move(pw, nd, (uint32_t)k, load_alpha(nd), nd->beta, false, &ok);
        if (!ok || gts__aborted(pw->c))
            return -1;
        ynode_update(pw, nd, (uint32_t)k, s);
        if (nd->cut)
            return -1;
    }
    return end;
}

/* Step 5 of ysearch: the young brothers 1..limit-1. */
static void young_brothers(gts__pw *pw, ynode *nd, int limit)
{
    const yvariant *v = nd->v;
    bool parallel = gts__sp_parallel(pw) && may_split(v, nd->ply, nd->pv);
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
    gts_score s;
    if (!gts__par_open(pw, depth, ply, &alpha, &beta, &pn, &s))
        return s;
    gts__arena_mark am = pn.am;
    ynode *nd = gts__pw_alloc(pw, sizeof *nd);
    if (!nd) {
        gts__pw_release(pw, am);
        return 0;
    }
    nd->moves = pn.moves;
    nd->idx = pn.idx;
    nd->v = v;
    nd->depth = depth;
    nd->ply = ply;
    nd->pv = pv;
    nd->beta = beta;
    nd->alpha = (uint32_t)alpha;
    nd->lock = 0;
    nd->best = -GTS_SCORE_INF;
    nd->best_k = 0;
    nd->cut = false;
    nd->status = NULL;
    nd->line.len = 0;

    /* Step 4. The eldest brother, serially */
    bool ok;
    s = search_move(pw, nd, 0, alpha, beta, pv, &ok);
    if (!ok || gts__aborted(c)) {
        gts__pw_release(pw, am);
        return 0;
    }
    ynode_update(pw, nd, 0, s);

    /* Step 5. Young brothers, in parallel where the variant splits */
    int limit = gts__par_limit(c, depth, pn.n);
    if (!nd->cut && limit > 1)
        young_brothers(pw, nd, limit);
    if (gts__aborted(c)) {
        gts__pw_release(pw, am);
        return 0;
    }

    /* Step 6. Result: table, PV, root move */
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
