/*
 * split.h - the split node, written once (internal; ybwc.c, er_parallel.c,
 * dts.c).
 *
 * What. A split node is a node whose children are searched by several
 * workers at once: YBWC's, Jamboree's, PV and root splitting's young
 * brothers (ybwc.c), DTS's joinable nodes (dts.c), parallel ER's e-nodes
 * (er_parallel.c). How the children are handed out differs (split points of
 * parallel.h, DTS's published slots); what a child's result does to the node
 * does not, and lives here:
 *   open   gts__par_open (parallel.h): stop, limits, window, table, ordered
 *          moves into the arena; then gts__split_init;
 *   fold   gts__split_fold: fold one child's fail-soft result into the node
 *          (best, alpha, PV line, and at beta the cutoff that aborts every
 *          sibling search still running below the node);
 *   close  gts__split_close: the node's epilogue (table store, PV row, root
 *          move, arena released).
 * Everything is inline: each algorithm's copy compiles to what it wrote by
 * hand before, and has_pv is a constant at every call.
 * Selective search (c->selective: GTS_OPT_NULL_MOVE..., repetition draws)
 * uses the serial node's rules (node_search.h), not a copy of them: the
 * head's razoring and null move and the pruning of quiet late moves in
 * gts__par_open, the late-move reductions in gts__split_search, and, as the
 * serial node's step 7, no table store of a value that a repetition of a
 * position above the node decided (sn->rep_low, gts__split_close). With
 * every option off the split node does what it did before, node for node.
 *
 * Concurrency contract: depth, ply, beta, moves, idx, line and cut_flag are
 * written by the owner before any other worker can see the node and are
 * read-only afterwards (quiet and open_window too); alpha is an atomic
 * (written under the lock, read anywhere, so a job may start with a stale,
 * lower alpha: still a proved bound); rep_low is an atomic that only goes
 * down (a CAS loop), read by the owner once alone again; best, best_k, cut
 * and *line are guarded by the node's spin lock until the owner, alone
 * again, closes the node.
 *
 * Invariants (exactness): every result folded was searched with the node's
 * beta and an alpha some finished sibling proved (or the node's own), so,
 * as in serial fail-soft alpha-beta, the node's value is the maximum of
 * the results folded; a result that arrives after the cutoff is discarded
 * (the value stays a lower bound >= beta); an aborted search is never
 * folded.
 */
#ifndef GTS_SEARCH_SPLIT_H
#define GTS_SEARCH_SPLIT_H

#include "search/parallel.h"
#include "search/node_search.h"

typedef struct gts__split {
    int depth, ply;
    gts_score beta;
    uint32_t alpha;          /* atomic: current alpha (gts_score bits) */
    uint32_t lock;
    gts_score best;          /* lock */
    uint32_t best_k;         /* lock */
    bool cut;                /* lock (the owner reads it alone) */
    const gts_move *moves;   /* best first */
    const uint32_t *idx;     /* generate() index of moves[k] */
    gts__pvline *line;       /* lock: the node's PV */
    uint32_t *cut_flag;      /* raised at a cutoff: aborts the searches below */
    /* selective search (gts__par_node) */
    const uint8_t *quiet;    /* late-move reductions: moves[k] is quiet, or NULL */
    bool open_window;        /* a PV node of the selective search */
    uint32_t rep_low;        /* atomic (int32_t bits): the lowest ply of an
                                earlier position that a repetition draw below
                                the node matched (gts__ctx::rep_low) */
} gts__split;

/* Set up @sn for the node @pn opened (gts__par_open) with the window
 * (@alpha, @beta) at @depth, @ply; @line keeps its PV, @cut_flag is the
 * abort flag of its searches. */
static inline void gts__split_init(gts__split *sn, const gts__par_node *pn, int depth, int ply,
                                   gts_score alpha, gts_score beta, gts__pvline *line,
                                   uint32_t *cut_flag)
{
    sn->depth = depth;
    sn->ply = ply;
    sn->beta = beta;
    gts__atomic_store_relaxed_32(&sn->alpha, (uint32_t)alpha);
    sn->lock = 0;
    sn->best = pn->floor;
    sn->best_k = 0;
    sn->cut = false;
    sn->moves = pn->moves;
    sn->idx = pn->idx;
    sn->line = line;
    line->len = 0;
    sn->cut_flag = cut_flag;
    sn->quiet = pn->quiet;
    sn->open_window = pn->open_window;
    gts__atomic_store_relaxed_32(&sn->rep_low, (uint32_t)GTS__REP_NONE);
}

/* Repetition draws: a child search of @sn that matched positions down to
 * ply @low (gts__ctx::rep_low) lowers the node's. */
static inline void gts__split_rep_low(gts__split *sn, int low)
{
    uint32_t cur = gts__atomic_load_relaxed_32(&sn->rep_low);
    while ((int32_t)cur > low && !gts__atomic_cas_32(&sn->rep_low, cur, (uint32_t)low))
        cur = gts__atomic_load_relaxed_32(&sn->rep_low);
}

static inline gts_score gts__split_alpha(const gts__split *sn)
{
    return (gts_score)(int32_t)gts__atomic_load_relaxed_32(&sn->alpha);
}

/*
 * Fold the finished, non-aborted result @s of move @k into the node.
 * @has_pv: the worker's PV row at ply + 1 is the child's line (else the
 * line is the move alone: a result the worker did not search itself).
 * Above alpha the line is kept and alpha raised; at beta the node is cut
 * off: its searches are aborted and the move recorded for ordering. False
 * when the node had already been cut off (the result is discarded).
 */
static inline __attribute__((always_inline)) bool
gts__split_fold(gts__ctx *c, gts__split *sn, uint32_t k, gts_score s, bool has_pv)
{
    bool cutoff = false;
    gts__spin_lock(&sn->lock);
    if (sn->cut) {
        gts__spin_unlock(&sn->lock);
        return false;
    }
    if (s > sn->best) {
        sn->best = s;
        sn->best_k = k;
        if (s > gts__split_alpha(sn)) {
            if (has_pv) {
                gts__pvline_set(sn->line, c, sn->ply, sn->moves[k]);
            } else {
                sn->line->m[0] = sn->moves[k];
                sn->line->len = 1;
            }
            if (s >= sn->beta) {
                sn->cut = true;
                cutoff = true;
                gts__atomic_store_relaxed_32(sn->cut_flag, 1);
            } else {
                gts__atomic_store_relaxed_32(&sn->alpha, (uint32_t)s);
            }
        }
    }
    gts__spin_unlock(&sn->lock);
    if (cutoff)
        gts__order_cutoff(c, sn->ply, sn->depth, sn->moves[k]);
    return true;
}

/* A child search of the algorithm: its node function at @ply (the child),
 * with @arg the algorithm's node. */
typedef gts_score (*gts__split_child_fn)(gts__pw *pw, const void *arg, int depth, int ply,
                                         gts_score alpha, gts_score beta);

/* How gts__split_search searches a move. */
typedef enum gts__split_how {
    GTS__SPLIT_WINDOW,  /* with the window (a, b) */
    GTS__SPLIT_SCOUT,   /* PVS: a null window at a, re-searched when it fails high */
    GTS__SPLIT_RESEARCH /* with (a, b), after a test at full depth failed high
                           (Jamboree): never reduced again */
} gts__split_how;

/*
 * Search move @k of the split node: apply it, search the child (@child,
 * @arg), undo. GTS__SPLIT_WINDOW and _RESEARCH search with the window
 * (@a, @b); GTS__SPLIT_SCOUT (a young brother, PVS style) with a null
 * window at @a, re-searched with (max(@a, the node's alpha by then), beta)
 * when it fails high inside the node's window. In a selective context a
 * quiet late move is first searched reduced with a null window at @a, and
 * as above only when that fails high (the serial node's step 6b,
 * node_search.h), but for a re-search; the repetition draws of the
 * child's searches lower the node's sn->rep_low, whichever worker ran them.
 * The value from the node's side; *ok false when a callback failed
 * (recorded).
 */
static inline __attribute__((always_inline)) gts_score
gts__split_search(gts__pw *pw, gts__split *sn, uint32_t k, gts_score a, gts_score b,
                  gts__split_how how, gts__split_child_fn child, const void *arg, bool *ok)
{
    gts__ctx *c = pw->c;
    gts_move m = sn->moves[k];
    int ext = gts__extension(c, m);
    if (ext < 0 || !gts__pw_apply(pw, sn->ply, m)) {
        *ok = false;
        return 0;
    }
    int d = sn->depth - 1 + ext;
    int r = 0, low = 0;
    if (c->selective) { /* what the serial node below reads (node_search.h) */
        c->ext_in[sn->ply + 1] = ext > 0;
        c->null_in[sn->ply + 1] = false;
        if (sn->quiet && sn->quiet[k] && ext == 0 && how != GTS__SPLIT_RESEARCH)
            r = gts__sel_reduction(c, sn->depth, sn->ply, m, (int)k, sn->open_window, d);
        low = c->rep_low;
        c->rep_low = GTS__REP_NONE;
    }
    gts_score s = 0;
    bool full = true;
    if (r > 0) {
        s = -child(pw, arg, d - r, sn->ply + 1, -a - 1, -a);
        full = s > a && !gts__aborted(c);
    }
    if (!full) {
        /* the reduced search failed low: taken as the value */
    } else if (how != GTS__SPLIT_SCOUT) {
        s = -child(pw, arg, d, sn->ply + 1, -b, -a);
    } else {
        s = -child(pw, arg, d, sn->ply + 1, -a - 1, -a);
        if (s > a && s < sn->beta && !gts__aborted(c)) {
            gts_score a2 = gts__split_alpha(sn);
            if (a2 < a)
                a2 = a;
            s = -child(pw, arg, d, sn->ply + 1, -sn->beta, -a2);
        }
    }
    if (c->selective) {
        if (c->rep_low != GTS__REP_NONE)
            gts__split_rep_low(sn, c->rep_low);
        c->rep_low = low;
    }
    gts__pw_undo(pw, sn->ply, m);
    *ok = true;
    return s;
}

/* A job's search of move @k, started at @wm, returned @s: fold it unless
 * the search was aborted. A result thrown away (aborted, or the node cut
 * off already) is wasted work when the job was speculative. */
static inline __attribute__((always_inline)) void
gts__split_job_done(gts__pw *pw, gts__split *sn, uint32_t k, gts_score s, bool has_pv,
                    gts__waste_mark wm)
{
    if (gts__aborted(pw->c) || !gts__split_fold(pw->c, sn, k, s, has_pv)) {
        if (pw->in_spec)
            gts__pw_wasted(pw, wm);
    }
}

/*
 * The epilogue of a node opened by gts__par_open and searched with the
 * window (@alpha, @beta) at @depth, @ply: its value @best (generate() index
 * @best_index of its move) stored in the table when @store, its PV row set
 * from @line, the arena released to @pn's mark. Returns @best.
 */
static inline gts_score gts__par_close(gts__pw *pw, const gts__par_node *pn, int depth, int ply,
                                       gts_score alpha, gts_score beta, gts_score best,
                                       uint32_t best_index, const gts__pvline *line, bool store)
{
    gts__ctx *c = pw->c;
    if (store)
        gts__tt_save(c, pn->key, depth, ply, alpha, beta, best, best_index);
    if (line->len > 0)
        gts__pvline_put(c, ply, line);
    else
        c->pv_len[ply] = 0;
    gts__pw_release(pw, pn->am);
    return best;
}

/* Close the split node @sn, opened as @pn with the window (@alpha, beta):
 * 0 (nothing stored) when its search was aborted; else its value, with its
 * PV and, at the root, its move (gts__par_close), stored unless a
 * repetition of a position above the node decided it (as the serial
 * node's step 7); the node's repetitions lower the caller's c->rep_low. */
static inline gts_score gts__split_close(gts__pw *pw, const gts__split *sn,
                                         const gts__par_node *pn, gts_score alpha)
{
    gts__ctx *c = pw->c;
    if (gts__aborted(c)) {
        gts__pw_release(pw, pn->am);
        return 0;
    }
    if (sn->ply == 0) {
        c->root_move = sn->moves[sn->best_k];
        c->root_has_move = true;
    }
    bool store = true;
    if (c->selective) {
        int low = (int32_t)gts__atomic_load_relaxed_32(&sn->rep_low);
        store = low >= sn->ply;
        if (low < c->rep_low)
            c->rep_low = low;
    }
    return gts__par_close(pw, pn, sn->depth, sn->ply, alpha, sn->beta, sn->best,
                          sn->idx[sn->best_k], sn->line, store);
}

#endif
