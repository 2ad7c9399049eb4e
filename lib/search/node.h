/*
 * node.h - node code shared by every search algorithm (internal).
 *
 * Callback wrappers that turn a failing callback into a search-wide error,
 * the stop/limit poll, evaluation with distance-to-end adjustment, move
 * generation, the window and table steps, and the serial node searches
 * (minimax, alpha-beta/PVS, quiescence) that the parallel algorithms run
 * below their split points. The per-thread context is ctx.h's, ordering
 * order.h's; both come with this header.
 *
 * Invariants:
 * - Every successful apply() is matched by exactly one undo() before the
 *   function that applied returns, whatever happens (stop, error, cutoff).
 * - After gts__aborted(c) turns true, returned scores are meaningless: a
 *   caller checks it after every child and returns at once, storing nothing
 *   in the transposition table (a lean node at depth 1 checks once after
 *   its horizon children: gts__frontier_lean).
 * - Scores inside the search are root-relative for decided scores (mate
 *   distance from the root); the TT stores them node-relative.
 */
#ifndef GTS_SEARCH_NODE_H
#define GTS_SEARCH_NODE_H

#include "search/ctx.h"
#include "search/order.h"

/* ---- errors and stopping ------------------------------------------------ */

/* Record the first error of the search and make every thread unwind. */
void gts__fail(gts__ctx *c, int status, int callback_status);

/* Slow part of gts__poll(): flush node counts, check node and time limits. */
bool gts__poll_limits(gts__ctx *c);
/* Node interval between two limit checks for a node budget. */
uint32_t gts__poll_interval(uint64_t node_limit);

static inline bool gts__aborted(const gts__ctx *c)
{
    if (gts__run_stopped(c->shared))
        return true;
    for (const gts__abort *a = c->abort; a; a = a->parent)
        if (gts__atomic_load_relaxed_32(&a->flag))
            return true;
    return false;
}

/* gts__aborted() for a node instantiated @lean (see gts__node_search):
 * without split points (c->abort == NULL) only the run's flag can stop it. */
static inline __attribute__((always_inline)) bool gts__aborted_as(const gts__ctx *c, bool lean)
{
    return lean ? gts__run_stopped(c->shared) : gts__aborted(c);
}

/* The node and time limits, checked once per poll interval: true when one
 * of them has just ended the search. */
static inline bool gts__poll_due(gts__ctx *c)
{
    return c->nodes >= c->next_poll && gts__poll_limits(c);
}

/* Called once per node: true when the search must unwind. */
static inline bool gts__poll(gts__ctx *c)
{
    if (gts__poll_due(c))
        return true;
    return gts__aborted(c);
}

/* Entry of every node search: clear the node's PV, poll stop and limits,
 * record the ply reached. True when the search must unwind (return 0).
 * gts__enter_as: the same in a node instantiated @lean. */
static inline __attribute__((always_inline)) bool gts__enter_as(gts__ctx *c, int ply, bool lean)
{
    c->pv_len[ply] = 0;
    if (gts__poll_due(c) || gts__aborted_as(c, lean))
        return true;
    if (ply > c->seldepth)
        c->seldepth = ply;
    return false;
}

static inline bool gts__enter(gts__ctx *c, int ply)
{
    return gts__enter_as(c, ply, false);
}

/* ---- callbacks ----------------------------------------------------------- */

/* apply() with error handling and node counting; gts__apply_as: the same
 * in a node instantiated @lean (never on virtual processors). */
static inline __attribute__((always_inline)) bool gts__apply_as(gts__ctx *c, gts_move m,
                                                                bool lean)
{
    int rc = c->game->apply(c->state, m, c->user);
    if (rc < 0) {
        gts__fail(c, GTS_ECALLBACK, rc);
        return false;
    }
    c->nodes++;
    if (!lean && __builtin_expect(c->vp, 0))
        gts__pool_vp_tick(); /* one node: one turn of the virtual clock */
    return true;
}

static inline bool gts__apply(gts__ctx *c, gts_move m)
{
    return gts__apply_as(c, m, false);
}

static inline void gts__undo(gts__ctx *c, gts_move m)
{
    int rc = c->game->undo(c->state, m, c->user);
    if (rc < 0)
        gts__fail(c, GTS_ECALLBACK, rc);
}

/* A score @s that evaluate() returned at @ply, validated and adjusted for
 * distance to the end: ordinary scores (one unsigned compare) as they are,
 * decided ones made root-relative; a failure (recorded) gives 0. */
static inline gts_score gts__evaluated(gts__ctx *c, gts_score s, int ply)
{
    if (__builtin_expect((uint32_t)s + (uint32_t)(GTS_SCORE_DECIDED - 1)
                             <= 2u * (GTS_SCORE_DECIDED - 1), 1))
        return s;
    if (s == GTS_SCORE_INVALID) {
        gts__fail(c, GTS_ECALLBACK, -1);
        return 0;
    }
    if (s < GTS_SCORE_LOSS || s > GTS_SCORE_WIN) {
        gts__fail(c, GTS_ESCORE, s);
        return 0;
    }
    return s > 0 ? s - ply : s + ply; /* decided: distance from the root */
}

/* evaluate() with validation and distance-to-end adjustment. */
static inline gts_score gts__evaluate(gts__ctx *c, int ply)
{
    return gts__evaluated(c, c->game->evaluate(c->state, c->user), ply);
}

/* Moves of the node at @ply into the context's buffer; -1 after a failure. */
static inline int gts__generate(gts__ctx *c, int ply, bool noisy)
{
    /* The buffer stride (c->max_moves) may exceed this game's max_moves when
     * the engine searched a bigger game before: promise and check the game's. */
    if (__builtin_expect(c->moves[ply] == NULL, 0) && !gts__ctx_grow(c, ply)) {
        gts__fail(c, GTS_ENOMEM, 0);
        return -1;
    }
    gts_move *moves = c->moves[ply];
    uint32_t cap = c->game->max_moves;
    bool keyed = !noisy && c->game->generate_keyed;
    c->keyed[ply] = keyed;
    int n = noisy  ? c->game->generate_noisy(c->state, moves, cap, c->user)
          : keyed ? c->game->generate_keyed(c->state, moves,
                                            c->keys[ply], cap, c->user)
                  : c->game->generate(c->state, moves, cap, c->user);
    if (n < 0) {
        gts__fail(c, GTS_ECALLBACK, n);
        return -1;
    }
    if ((uint32_t)n > cap) {
        gts__fail(c, GTS_EMOVES, n);
        return -1;
    }
    return n;
}

/* Extension of @m (0 when the game has none); -1 after a failure. More
 * than GTS_MAX_PLY plies cannot be searched anyway: larger values are
 * capped so that depth arithmetic never overflows. */
static inline int gts__extension(gts__ctx *c, gts_move m)
{
    if (!c->game->extend)
        return 0;
    int ext = c->game->extend(c->state, m, c->user);
    if (ext < 0) {
        gts__fail(c, GTS_ECALLBACK, ext);
        return -1;
    }
    return ext < GTS_MAX_PLY ? ext : GTS_MAX_PLY;
}

static inline void gts__pv_update(gts__ctx *c, int ply, gts_move m)
{
    c->pv[ply][0] = m;
    int n = c->pv_len[ply + 1];
    for (int i = 0; i < n; i++)
        c->pv[ply][i + 1] = c->pv[ply + 1][i];
    c->pv_len[ply] = n + 1;
}

/* ---- the node's window ------------------------------------------------------ */

/* A node-relative lower bound @v of a value, made root-relative at @ply
 * (the mapping gts__evaluate applies to decided scores). The mapping is not
 * monotone across the decided threshold, so the bound is loosened to stay
 * sound for every value >= v: a decided win may sit up to @ply below
 * GTS_SCORE_DECIDED once made root-relative. Upper bounds: -lower(-v). */
static inline gts_score gts__root_lower(gts_score v, int ply)
{
    /* Ordinary scores, |v| < DECIDED - MAX_PLY (the usual case: one
     * compare), map to themselves at every ply. */
    const uint32_t k = GTS_SCORE_DECIDED - GTS_MAX_PLY;
    if ((uint32_t)v + (k - 1) < 2 * k - 1)
        return v;
    if (v >= GTS_SCORE_DECIDED)
        return v - ply;
    if (v > -GTS_SCORE_DECIDED)
        return v < GTS_SCORE_DECIDED - ply ? v : GTS_SCORE_DECIDED - ply;
    return v + ply < -GTS_SCORE_DECIDED + 1 ? v + ply : -GTS_SCORE_DECIDED + 1;
}

/* Record a failed bounds() call: its return @rc, or a range that is not one. */
void gts__bounds_fail(gts__ctx *c, int rc, gts_score lo, gts_score hi);

/* Intersect [*lo, *hi] with the game's bounds() at the current node, made
 * root-relative. False after a failure (recorded). */
static inline bool gts__game_bounds(gts__ctx *c, int ply, gts_score *lo, gts_score *hi)
{
    gts_score l = GTS_SCORE_LOSS, h = GTS_SCORE_WIN;
    int rc = c->game->bounds(c->state, &l, &h, c->user);
    if (rc < 0 || l < GTS_SCORE_LOSS || h > GTS_SCORE_WIN || l > h) {
        gts__bounds_fail(c, rc, l, h);
        return false;
    }
    l = gts__root_lower(l, ply);
    h = -gts__root_lower(-h, ply);
    if (l > *lo)
        *lo = l;
    if (h < *hi)
        *hi = h;
    return true;
}

/*
 * Step "window" of every interior node (depth >= 1) below the root: narrow
 * (alpha, beta) to the values the node can still take, mate distance (every
 * value backed up at @ply lies in [LOSS + ply, WIN - ply]) and the game's
 * bounds(). When the window closes, return true with *cut the fail-soft
 * value to return: lo when lo >= beta (a lower bound), hi when hi <= alpha
 * (an upper bound), else lo == hi, the exact value. The caller then stores
 * its table entry against the narrowed window: a result inside it is exact,
 * one on its edge a bound, as for any window.
 */
static inline __attribute__((always_inline)) bool
gts__window(gts__ctx *c, int ply, gts_score *alpha, gts_score *beta, gts_score *cut)
{
    gts_score lo = GTS_SCORE_LOSS + ply, hi = GTS_SCORE_WIN - ply;
    /* Fast path: no bounds() and a window inside [lo, hi], the usual
     * case once a score has come back: nothing to cut, nothing to clip. */
    bool bounds = c->game->bounds != NULL;
    if (!bounds && *alpha >= lo && *beta <= hi)
        return false;
    if (bounds && !gts__game_bounds(c, ply, &lo, &hi)) {
        *cut = 0;
        return true;
    }
    if (lo >= *beta) {
        *cut = lo;
        return true;
    }
    if (hi <= *alpha) {
        *cut = hi;
        return true;
    }
    if (lo > *alpha)
        *alpha = lo;
    if (hi < *beta)
        *beta = hi;
    if (*alpha >= *beta) { /* lo == hi inside the window */
        *cut = lo;
        return true;
    }
    return false;
}

/* ---- transposition table steps ------------------------------------------ */

/*
 * Steps "window" and "table" of every node search. Hash the state (when the
 * table is on; with repetition draws the line has it already) and start
 * fetching its bucket; below the root, narrow the
 * window to what the node can still score (gts__window) while the bucket
 * arrives; then probe. Sets *key and *tt_move (GTS__TT_NO_MOVE when none)
 * and returns true with *cut set when the node is decided here. Never cuts
 * at the root, which needs a move. The caller searches and stores against
 * the narrowed *alpha, *beta.
 */
/*
 * Exact-depth cutoffs (c->tt_exact_depth, the APHID leaf searches of
 * libgts-mpi): a deeper entry bounds the deeper value, usually the better
 * one but not the fixed-depth minimax value, so of its bounds (root-
 * relative, the node at @end - depth plies, @end its horizon's ply) keep
 * only those that hold at every depth that reaches a forced result:
 * lo = a win in k plies proves that the winner can force the end within k
 * plies along every line, and a search of the node's depth, full width to
 * k <= depth plies, sees that tree and returns at least lo; hi = a loss in
 * k <= depth plies, the same for the opponent. (A deeper win bound, a
 * heuristic bound, or a forced result beyond the horizon says nothing
 * about the fixed-depth value.) The others become infinite: no cut.
 */
static inline void gts__tt_horizon_bounds(gts_score *lo, gts_score *hi, int end)
{
    if (!gts_score_is_win(*lo) || gts_score_plies_to_end(*lo) > end)
        *lo = -GTS_SCORE_INF;
    if (!gts_score_is_loss(*hi) || gts_score_plies_to_end(*hi) > end)
        *hi = GTS_SCORE_INF;
}

static inline __attribute__((always_inline)) bool
gts__node_probe(gts__ctx *c, int depth, int ply, gts_score *alpha, gts_score *beta,
                uint64_t *key, uint32_t *tt_move, gts_score *cut, bool lean)
{
    *key = 0;
    *tt_move = GTS__TT_NO_MOVE;
    if (!c->tt) /* read once: bounds() below is a call */
        return ply > 0 && gts__window(c, ply, alpha, beta, cut);
    /* With repetition draws the node's key is in the line already. */
    *key = !lean && c->rep ? c->path_key[ply] : c->game->hash(c->state, c->user);
    const gts__tt_bucket *b = gts__ctx_bucket(c, *key, depth);
    gts__tt_prefetch_bucket(b);
    if (ply > 0 && gts__window(c, ply, alpha, beta, cut))
        return true;
    c->tt_probes++;
    gts__tt_hit hit;
    if (!gts__tt_probe_bucket(b, *key, &hit))
        return false;
    c->tt_hits++;
    *tt_move = hit.move_index;
    if (ply > 0 && hit.depth >= depth) {
        /* Both bounds: a cut when either settles the window, else they
         * narrow it (Plaat et al.'s alpha-beta with memory). */
        gts_score lo = gts__tt_bound_from(hit.lower, ply);
        gts_score hi = gts__tt_bound_from(hit.upper, ply);
        if (hit.depth > depth && c->tt_exact_depth)
            gts__tt_horizon_bounds(&lo, &hi, ply + depth);
        if (lo >= *beta || hi <= *alpha || lo == hi) {
            c->tt_cutoffs++;
            *cut = lo >= *beta ? lo : hi;
            return true;
        }
        if (lo > *alpha)
            *alpha = lo;
        if (hi < *beta)
            *beta = hi;
    }
    return false;
}

/* Step "TT store" of a fail-soft node searched inside (alpha, beta). */
static inline void gts__tt_save(gts__ctx *c, uint64_t key, int depth, int ply,
                                     gts_score alpha, gts_score beta, gts_score best,
                                     uint32_t best_index)
{
    if (!c->tt)
        return;
    int bound = best >= beta ? GTS__BOUND_LOWER
              : best > alpha ? GTS__BOUND_EXACT : GTS__BOUND_UPPER;
    gts__tt_store_bucket(c->tt, gts__ctx_bucket(c, key, depth), key, gts__tt_score_to(best, ply),
                         depth, bound, bound == GTS__BOUND_UPPER ? GTS__TT_NO_MOVE : best_index);
}

/* A node without moves: the game is over. Its value does not depend on the
 * remaining depth, so it is stored as exact at the maximum depth. */
static inline gts_score gts__terminal(gts__ctx *c, uint64_t key, int depth, int ply)
{
    gts_score s = gts__evaluate(c, ply);
    if (c->tt && !gts__aborted(c))
        gts__tt_store_bucket(c->tt, gts__ctx_bucket(c, key, depth), key, gts__tt_score_to(s, ply),
                             GTS_MAX_DEPTH, GTS__BOUND_EXACT, GTS__TT_NO_MOVE);
    return s;
}

/* Table lookahead (GTS_OPT_TT_PREFETCH): before a node at @depth searches
 * its @n children, play each one to start loading its table bucket. The
 * game's own callbacks are used without counting nodes; a failed apply()
 * is left for the real search of that child to report. False after a
 * failed undo() (recorded). */
static const int GTS__PREFETCH_MIN_DEPTH = 3;
bool gts__prefetch_children(gts__ctx *c, const gts_move *moves, int n, int depth);
static inline bool gts__lookahead(gts__ctx *c, int depth, const gts_move *moves, int n)
{
    if (!c->use_prefetch || !c->tt)
        return true;
    /* Playing children ahead pays from GTS__PREFETCH_MIN_DEPTH on, and not
     * for one child (its own probe comes next anyway); their keys from
     * hash_after() are cheap enough for every child that probes (depth 1
     * and deeper), a single one included: its load starts before the move
     * is even ordered and applied. */
    if (c->game->hash_after ? depth < 2 : depth < GTS__PREFETCH_MIN_DEPTH || n < 2)
        return true;
    /* Children in the table's near part (GTS_OPT_TT_NEAR_DEPTH) are in the
     * cache already: nothing to start loading. */
    if (depth - 1 <= c->tt->near_depth)
        return true;
    return gts__prefetch_children(c, moves, n, depth - 1);
}

/* Step "child result" of every fail-soft node: child @m (generate() index
 * @index) scored @s. Keep the best score and its move (the root's best move
 * at ply 0); above alpha, raise *a and the PV; at beta, record the cutoff
 * for ordering and return true: the caller stops searching children.
 * Below the root a cutoff leaves the PV alone: the parent of a node that
 * fails high sees a value at or below its alpha and never reads that
 * node's line (and in a null window every raise of alpha is a cutoff). */
static inline bool gts__child_result(gts__ctx *c, int depth, int ply, gts_move m,
                                     uint32_t index, gts_score s, gts_score beta,
                                     gts_score *best, uint32_t *best_index, gts_score *a)
{
    if (s <= *best)
        return false;
    *best = s;
    *best_index = index;
    if (ply == 0) {
        c->root_move = m;
        c->root_has_move = true;
    }
    if (s <= *a)
        return false;
    *a = s;
    if (s < beta || ply == 0)
        gts__pv_update(c, ply, m);
    if (s < beta)
        return false;
    if (c->use_killers || c->use_history)
        gts__order_cutoff(c, ply, depth, m);
    return true;
}

/* ---- serial node searches ------------------------------------------------- */

/* Selective search: flag in c->noisy[ply] the @n moves at @ply that
 * generate_noisy() lists (the game has it), using the buffer of ply + 1
 * for that list. False after a failure (recorded). */
bool gts__mark_noisy(gts__ctx *c, int ply, int n);

/* Plain negamax to @depth: no TT, no ordering, no pruning (the reference). */
gts_score gts__minimax(gts__ctx *c, int depth, int ply);
/* Fail-soft alpha-beta (PVS when c->use_pvs) with TT, ordering, quiescence. */
gts_score gts__alphabeta(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta);
/* Fail-soft quiescence over generate_noisy(). */
gts_score gts__qsearch(gts__ctx *c, int ply, gts_score alpha, gts_score beta);

/* Depth-0 value of a node: quiescence when enabled and available. */
static inline gts_score gts__leaf(gts__ctx *c, int ply, gts_score alpha, gts_score beta)
{
    if (c->use_qs)
        return gts__qsearch(c, ply, alpha, beta);
    return gts__evaluate(c, ply);
}

/* The whole node search of a horizon node when there is no quiescence
 * (depth <= 0, !c->use_qs), for a parent to run in place of the call:
 * enter (limits, seldepth), then evaluate; 0 when a limit ends the
 * search. The stop and abort flags are left to the caller, which must
 * check gts__aborted() before it uses the value (the parent does after
 * every child): one evaluate() more after a stop, one check fewer a node. */
static inline gts_score gts__horizon(gts__ctx *c, int ply)
{
    c->pv_len[ply] = 0;
    if (gts__poll_due(c))
        return 0;
    if (ply > c->seldepth)
        c->seldepth = ply;
    return gts__evaluate(c, ply);
}

/* gts__horizon() for a lean parent at depth 1, whose children are all
 * horizon nodes: the parent has cleared their PV and recorded their ply
 * once, before its first child. */
static inline gts_score gts__horizon_lean(gts__ctx *c, int ply)
{
    if (gts__poll_due(c))
        return 0;
    return gts__evaluate(c, ply);
}

/* ---- repetition draws ---------------------------------------------------------- */

/*
 * GTS_TRAIT_REPETITION_DRAW (c->rep): the node at @ply with key @key
 * repeats an earlier position of the line since the last pass (plies
 * c->rep_floor..ply-1) or, on a line without a pass, one of the game's
 * history (gts_limits::history). Every entry is compared, not only those
 * an even number of plies away: the key includes the side to move, and a
 * game may have passes of its own in the history, or moves that keep the
 * turn. Returns the ply of the position repeated, -1 for one of the
 * history, GTS__REP_NONE when the node repeats nothing.
 */
static inline int gts__repeated(const gts__ctx *c, int ply, uint64_t key)
{
    for (int p = ply - 1; p >= c->rep_floor; p--)
        if (c->path_key[p] == key)
            return p;
    if (c->rep_floor > 0)
        return GTS__REP_NONE;
    for (uint32_t j = c->hist_len; j > 0; j--) /* the newest first */
        if (c->hist[j - 1] == key)
            return -1;
    return GTS__REP_NONE;
}

/* The value of a repetition draw to the side to move at @ply:
 * GTS_OPT_CONTEMPT c makes it -c for the root's side, +c for the other
 * (a pass on the line swaps the sides: c->null_parity). */
static inline gts_score gts__draw(const gts__ctx *c, int ply)
{
    return ((ply + c->null_parity) & 1) ? c->contempt : -c->contempt;
}

/* ---- the node prologue ------------------------------------------------------- */

/* What the prologue leaves for the node's body. */
typedef struct gts__node_in {
    uint64_t key;            /* table key (0 without a table) */
    uint32_t tt_move;        /* the table's move, < n; GTS__TT_NO_MOVE when none */
    int n;                   /* moves at the node's ply (gts__moves), > 0 */
} gts__node_in;

/*
 * Steps 1-2 of every depth-first node (the serial node of node_search.h,
 * ER's nodes, the parallel nodes' gts__par_open): stop and limits, the ply
 * limit, the horizon (quiescence or evaluate(); evaluate() alone when
 * @lean), then window and table (gts__node_probe: *alpha, *beta narrowed).
 * True with the node's value in *v when it is decided there (0 after a
 * stop or a failure). @lean is a constant at every instantiation.
 */
static inline __attribute__((always_inline)) bool
gts__node_head(gts__ctx *c, int depth, int ply, gts_score *alpha, gts_score *beta, bool lean,
               gts__node_in *in, gts_score *v)
{
    /* Step 1. Stop, limits, horizon */
    *v = 0;
    if (gts__enter_as(c, ply, lean))
        return true;
    if (ply >= GTS_MAX_PLY) {
        *v = gts__evaluate(c, ply);
        return true;
    }
    /* Step 1b. Repetition draws (a selective context only: never lean).
     * Before the horizon, so that a leaf that repeats is a draw too. */
    if (!lean && c->rep) {
        uint64_t key = c->game->hash(c->state, c->user);
        c->path_key[ply] = key;
        int at = ply > 0 ? gts__repeated(c, ply, key) : GTS__REP_NONE;
        if (at != GTS__REP_NONE) {
            if (at < c->rep_low)
                c->rep_low = at;
            *v = gts__draw(c, ply);
            return true;
        }
    }
    if (depth <= 0) {
        *v = lean ? gts__evaluate(c, ply) : gts__leaf(c, ply, *alpha, *beta);
        return true;
    }
    /* Step 2. Window and transposition table (no cut at the root) */
    return gts__node_probe(c, depth, ply, alpha, beta, &in->key, &in->tt_move, v, lean);
}

/* Step 3 of every depth-first node: the moves (in the context's buffer at
 * @ply; in->n, in->tt_move checked against it). True with *v when there is
 * none: a finished game, its value stored (gts__terminal); 0 after a
 * failure (recorded). */
static inline __attribute__((always_inline)) bool
gts__node_moves(gts__ctx *c, int depth, int ply, gts__node_in *in, gts_score *v)
{
    in->n = gts__generate(c, ply, false);
    if (in->n <= 0) {
        *v = in->n == 0 ? gts__terminal(c, in->key, depth, ply) : 0;
        return true;
    }
    if (in->tt_move >= (uint32_t)in->n)
        in->tt_move = GTS__TT_NO_MOVE;
    return false;
}

#endif
