/*
 * node_search.h - the serial alpha-beta/PVS node, written once (internal).
 *
 * gts__node_search() is the node of alpha-beta and PVS (alphabeta.c), of
 * ProbCut (probcut.c), of ABDADA (abdada.c) and of Lazy SMP's helpers
 * (lazysmp.c). An algorithm instantiates it inside its own node function
 * with a static const hook table; the function is always inlined there, so
 * the compiler turns the hooks into direct calls and drops the absent ones:
 * no indirect call and no test per node for what an algorithm does not use.
 * Hooks:
 *   child      the recursion: the algorithm's own node function;
 *   pre_moves  optional, between the table and the moves: may decide the
 *              node (true, value in *cut: ProbCut's shallow checks) or pick
 *              the move to try first (*tt_move: ProbCut's internal
 *              iterative deepening);
 *   order      optional: the index (in generate() order) of the k-th move
 *              to search, instead of the k-th best (Lazy SMP's helpers
 *              rotate the moves after the first);
 *   defer      optional, after a move is applied and before it is searched:
 *              true puts it off to a second pass over the deferred moves
 *              (ABDADA: another thread is searching that child); otherwise
 *              it may leave a token for
 *   leave      called after the child's search (ABDADA's busy counter);
 *   select     true in an instance that may run the selective search
 *              (GTS_OPT_NULL_MOVE..., repetition draws) when the context
 *              has it on (c->selective); false compiles it all away, so
 *              the exact node pays nothing for it.
 * @lean (a constant at each instantiation) leaves out, at compile time,
 * what a plain serial search never uses (gts__lean_ok): the split points'
 * abort chain, the virtual clock, extensions, quiescence and n-best
 * pruning. A caller may instantiate it lean only for a context that
 * gts__lean_ok() accepts, and every node below must be lean too.
 * With c->use_pvs the first move searched gets the full window and the
 * others a null window around alpha, re-searched with the full window when
 * they fail high inside (alpha, beta) (Reinefeld's NegaScout, in the
 * fail-soft form); otherwise every move gets the full window (Knuth &
 * Moore's alpha-beta, fail-soft after Fishburn).
 *
 * ER keeps its own loop (it evaluates every child's first move before it
 * refutes the others: another shape of node); see doc/architecture.md.
 */
#ifndef GTS_SEARCH_NODE_SEARCH_H
#define GTS_SEARCH_NODE_SEARCH_H

#include "search/node.h"

typedef struct gts__node_hooks {
    gts_score (*child)(gts__ctx *c, const void *arg, int depth, int ply, gts_score alpha,
                       gts_score beta);
    bool (*pre_moves)(gts__ctx *c, const void *arg, int depth, int ply, gts_score alpha,
                      gts_score beta, uint64_t key, uint32_t *tt_move, gts_score *cut);
    uint32_t (*order)(gts__ctx *c, const void *arg, int ply, int k, int limit, int n, bool sort,
                      uint64_t key);
    bool (*defer)(gts__ctx *c, const void *arg, int pass, int searched, void **token);
    void (*leave)(const void *arg, void *token);
    bool select;
} gts__node_hooks;

/* A context on which a node may be instantiated lean (gts__node_search):
 * no split point above it, no virtual clock, no extensions, no quiescence,
 * no n-best pruning. Constant through a serial search's recursion. */
static inline bool gts__lean_ok(const gts__ctx *c)
{
    return !c->abort && !c->vp && !c->game->extend && !c->use_qs && c->nbest <= 0
           && !c->selective && !c->use_counter && !c->history_gravity;
}

/* ---- selective search (GTS_OPT_NULL_MOVE...; doc/architecture.md,
 * "Selective search") ----------------------------------------------------- */

/* Null move from this remaining depth on; R' = R + depth / DIV; a cutoff
 * verified from VERIFY on. */
static const int GTS__NULL_MIN_DEPTH = 2;
static const int GTS__NULL_DEPTH_DIV = 6;
static const int GTS__NULL_VERIFY_DEPTH = 6;
/* Razoring, futility pruning, late-move pruning up to these depths. */
static const int GTS__RAZOR_DEPTH = 2;
static const int GTS__FUTILITY_DEPTH = 3;
static const int GTS__LMP_DEPTH = 8;
/* Late-move pruning from this depth on: at 1 and 2 plies to go it lost in
 * self-play (chess, 50,000 nodes a move: 32.3 % against no LMP, where LMP
 * at 3..8 alone ties, 46.9 %; doc/results/games.md, "Issue 32: late-move
 * pruning and quiet-move ordering"): there a quiet move's subtree is a
 * quiescence search or two plies, cheap to search, and the late quiet
 * moves it drops are the ones that meet a threat the static value does
 * not see; futility pruning covers the hopeless nodes at those depths. */
static const int GTS__LMP_MIN_DEPTH = 3;
/* Late-move reductions from this depth on; a move whose history score is
 * at least GOOD x depth^2 is reduced one ply less, one without any one
 * ply more. */
static const int GTS__LMR_MIN_DEPTH = 3;
static const int32_t GTS__LMR_GOOD_HISTORY = 4;
/* With history gravity (scores within +-16384), a move's reduction falls by
 * its history score / DIV plies (rises for a negative score). */
static const int32_t GTS__LMR_HISTORY_DIV = 5462;

static inline bool gts__undecided(gts_score s)
{
    return s > -GTS_SCORE_DECIDED && s < GTS_SCORE_DECIDED;
}

/*
 * Step 3b of a node that may be pruned (selective, below the root, not a
 * PV node, not reached by an extended move): its static value into *eval
 * (when a technique needs it), then razoring and null-move pruning. True
 * with *cut when the node is decided here (0 after a stop or a failure).
 */
static inline __attribute__((always_inline)) bool
gts__prune_head(gts__ctx *c, const gts__node_hooks *h, const void *arg, int depth, int ply,
                gts_score alpha, gts_score beta, gts_score *eval, gts_score *cut)
{
    *cut = 0;
    if (!c->null_ok && !c->futility && !c->razor)
        return false;
    *eval = gts__evaluate(c, ply);
    if (gts__aborted(c))
        return true;
    /* Razoring: hopeless near the horizon unless quiescence finds more. */
    if (c->razor && depth <= GTS__RAZOR_DEPTH && gts__undecided(alpha)
        && *eval + c->razor * depth <= alpha) {
        gts_score v = gts__leaf(c, ply, alpha, alpha + 1);
        if (gts__aborted(c))
            return true;
        if (v <= alpha) {
            *cut = v;
            return true;
        }
    }
    /* Null move: if passing still fails high, so will a real move. */
    if (c->null_ok && depth >= GTS__NULL_MIN_DEPTH && !c->null_in[ply] && c->null_block == 0
        && *eval >= beta && gts__undecided(beta)) {
        int rc = c->game->null_apply(c->state, c->user);
        if (rc < 0) {
            gts__fail(c, GTS_ECALLBACK, rc);
            return true;
        }
        if (rc == 0) /* refused here (check, zugzwang, no passes) */
            return false;
        c->nodes++;
        int r = c->null_r + depth / GTS__NULL_DEPTH_DIV;
        int floor_ply = c->rep_floor;
        c->rep_floor = ply + 1; /* no repetition across a pass */
        c->null_parity ^= 1;
        c->null_in[ply + 1] = true;
        c->ext_in[ply + 1] = false;
        gts__order_line_pass(c, ply);
        gts_score s = -h->child(c, arg, depth - 1 - r, ply + 1, -beta, -beta + 1);
        c->null_parity ^= 1;
        c->rep_floor = floor_ply;
        rc = c->game->null_undo(c->state, c->user);
        if (rc < 0)
            gts__fail(c, GTS_ECALLBACK, rc);
        if (gts__aborted(c))
            return true;
        if (s < beta)
            return false;
        if (s >= GTS_SCORE_DECIDED) /* a pass proves no forced win */
            s = beta;
        if (depth >= GTS__NULL_VERIFY_DEPTH) {
            /* Verification: the node itself, reduced, without passes. */
            c->null_block++;
            gts_score v = h->child(c, arg, depth - r, ply, beta - 1, beta);
            c->null_block--;
            if (gts__aborted(c))
                return true;
            if (v < beta)
                return false;
        }
        *cut = s;
        return true;
    }
    return false;
}

/*
 * What the selective steps of a node's move loop need (step 5b), computed
 * once per node after its moves are generated: by the serial node below,
 * and by a split node when it opens (gts__par_open), so that both prune
 * and reduce by the same rules.
 */
typedef struct gts__sel {
    const uint8_t *noisy;    /* generate_noisy() lists moves[i] (by generate()
                                index), or NULL: none is noisy */
    bool reduce;             /* late-move reductions may act at the node */
    bool futile;             /* quiet moves after the first searched are
                                futility-pruned ... */
    gts_score fut_value;     /* ... and the node's value is then at least this */
    int lmp_count;           /* quiet moves from this index on are pruned (LMP) */
} gts__sel;

/* Step 5b of a selective node at @depth, @ply with @n moves (at c->moves[ply])
 * and the window's lower end @alpha: @prune as for gts__prune_head, @eval
 * the static value it left. False after a failure (recorded). */
static inline __attribute__((always_inline)) bool
gts__sel_begin(gts__ctx *c, int depth, int ply, bool prune, gts_score alpha, gts_score eval,
               int n, gts__sel *s)
{
    s->noisy = NULL;
    s->futile = false;
    s->fut_value = 0;
    s->lmp_count = n;
    s->reduce = c->lmr && depth >= GTS__LMR_MIN_DEPTH && ply > 0 && !c->ext_in[ply];
    if (prune && c->futility && depth <= GTS__FUTILITY_DEPTH && gts__undecided(alpha)) {
        s->fut_value = eval + c->futility * depth;
        s->futile = s->fut_value <= alpha;
    }
    if (prune && c->lmp && depth >= GTS__LMP_MIN_DEPTH && depth <= GTS__LMP_DEPTH)
        s->lmp_count = c->lmp + depth * depth;
    if ((s->reduce || s->futile || s->lmp_count < n) && c->game->generate_noisy) {
        if (!gts__mark_noisy(c, ply, n))
            return false;
        s->noisy = c->noisy[ply];
    }
    return true;
}

/* A quiet move: @m (generate() index @i) at @ply is not the table move, not
 * noisy, not a killer and not extended (@ext). */
static inline __attribute__((always_inline)) bool
gts__sel_quiet(const gts__ctx *c, const gts__sel *s, int ply, uint32_t i, gts_move m,
               uint32_t tt_move, int ext)
{
    return ext == 0 && i != tt_move && !(s->noisy && s->noisy[i])
           && !gts__order_is_killer(c, ply, m);
}

/* Step 6a: a quiet move, the @k-th of the node's order, after @searched
 * moves were searched, is pruned (futility, then late-move pruning). */
static inline __attribute__((always_inline)) bool gts__sel_pruned(const gts__sel *s, int k,
                                                                  int searched)
{
    return searched > 0 && (s->futile || k >= s->lmp_count);
}

/* Step 6b: the late-move reduction, in plies, of the quiet move @m at a
 * node at @depth, @ply where s->reduce holds, after @searched moves were
 * searched (the first two at a PV node, @pv, are never reduced); @d is the
 * depth of its full search. */
static inline __attribute__((always_inline)) int
gts__sel_reduction(const gts__ctx *c, int depth, int ply, gts_move m, int searched, bool pv, int d)
{
    if (searched < (pv ? 2 : 1))
        return 0;
    int mn = searched + 1;
    int r = c->lmr_table[depth < 63 ? depth : 63][mn < 63 ? mn : 63] - (pv ? 1 : 0);
    int32_t hv = gts__order_history(c, ply, m);
    if (c->history_gravity)
        r -= hv / GTS__LMR_HISTORY_DIV;
    else if (hv >= GTS__LMR_GOOD_HISTORY * depth * depth)
        r--;
    else if (hv == 0 && c->use_history)
        r++;
    if (c->use_counter && m == gts__order_counter(c, ply))
        r--;
    if (r > d - 1)
        r = d - 1;
    return r;
}

/*
 * The children of a lean node at depth 1 below the root when none of them
 * reaches the next limit check (c->nodes + n < c->next_poll): every child
 * is a horizon node, so each is apply, evaluate, undo. The callbacks and
 * the state are read once, and the checks that do not depend on the child
 * move out of the loop: no child polls (none would reach the check: the
 * same nodes count as in the general loop), and the stop flag, which a
 * failed evaluate() or another thread raises, is read once after the last
 * child rather than after each (at most n - 1 evaluate() calls more after
 * a stop, whose values are never used). @sort is a constant at each of the
 * two instances (gts__frontier_lean). False when the search must unwind;
 * else *best, *best_index, *a as the general loop leaves them.
 */
static inline __attribute__((always_inline)) bool
gts__frontier_as(gts__ctx *c, int ply, const gts_move *moves, int n, bool sort, gts_score beta,
                 gts_score *best, uint32_t *best_index, gts_score *a)
{
    const gts_game *g = c->game;
    void *state = c->state, *user = c->user;
    for (int k = 0; k < n; k++) {
        uint32_t i = sort ? gts__pick(c, ply, k, n) : (uint32_t)k;
        gts_move m = moves[i];
        int rc = g->apply(state, m, user);
        if (rc < 0) {
            gts__fail(c, GTS_ECALLBACK, rc);
            return false;
        }
        c->nodes++;
        gts_score v = gts__evaluated(c, g->evaluate(state, user), ply + 1);
        rc = g->undo(state, m, user);
        if (rc < 0) {
            gts__fail(c, GTS_ECALLBACK, rc);
            return false;
        }
        /* gts__child_result below the root for a child whose PV is empty
         * (the caller cleared pv_len[ply + 1]): the PV is the move alone. */
        v = -v;
        if (v <= *best)
            continue;
        *best = v;
        *best_index = i;
        if (v <= *a)
            continue;
        *a = v;
        if (v >= beta) {
            if (c->use_killers || c->use_history)
                gts__order_cutoff(c, ply, 1, m);
            break;
        }
        c->pv[ply][0] = m;
        c->pv_len[ply] = 1;
    }
    return !gts__run_stopped(c->shared);
}

static inline __attribute__((always_inline)) bool
gts__frontier_lean(gts__ctx *c, int ply, const gts_move *moves, int n, bool sort, gts_score beta,
                   gts_score *best, uint32_t *best_index, gts_score *a)
{
    return sort ? gts__frontier_as(c, ply, moves, n, true, beta, best, best_index, a)
                : gts__frontier_as(c, ply, moves, n, false, beta, best, best_index, a);
}

static inline __attribute__((always_inline)) gts_score
gts__node_body(gts__ctx *c, const gts__node_hooks *h, const void *arg, int depth, int ply,
               gts_score alpha, gts_score beta, bool lean)
{
    /* A PV node: searched with an open window (before the table narrows it). */
    const bool pv = beta - alpha > 1;

    /* Steps 1-2. Stop, limits, horizon; window and table (node.h) */
    gts__node_in in;
    gts_score cut;
    if (gts__node_head(c, depth, ply, &alpha, &beta, lean, &in, &cut))
        return cut;
    /* Selective search (never lean; only in an instance that has it). */
    const bool sel = !lean && h->select && c->selective;
    const bool prune = sel && ply > 0 && !pv && !c->ext_in[ply];
    gts_score eval = 0;

    /* Step 3. The algorithm's own step before the moves (ProbCut's checks) */
    if (h->pre_moves
        && h->pre_moves(c, arg, depth, ply, alpha, beta, in.key, &in.tt_move, &cut))
        return cut;

    /* Step 3b. Razoring, null move */
    if (prune && gts__prune_head(c, h, arg, depth, ply, alpha, beta, &eval, &cut))
        return cut;

    /* Step 4. Moves; a node without any is a finished game (node.h) */
    if (gts__node_moves(c, depth, ply, &in, &cut))
        return cut;
    uint64_t key = in.key;
    uint32_t tt_move = in.tt_move;
    int n = in.n;

    /* Step 5. Table lookahead, then ordering (which overlaps the loads) */
    const gts_move *moves = gts__moves(c, ply);
    if (!gts__lookahead(c, depth, moves, n))
        return 0;
    bool sort = n > 1 && gts__order_wanted(c, tt_move) && gts__order_moves(c, ply, n, tt_move);
    int limit = n;
    if (!lean && c->nbest > 0 && depth <= c->nbest_depth && c->nbest < n)
        limit = c->nbest;

    /* Step 5b. What the selective steps of the loop need: the noisy moves,
     * the futility value, the move count of late-move pruning. */
    gts__sel sl = {.lmp_count = n};
    if (sel && !gts__sel_begin(c, depth, ply, prune, alpha, eval, n, &sl))
        return 0;

    /* Step 6. Children (a second pass over the deferred ones). The deferred
     * indices reuse this ply's key buffer: gts__order_moves has read the
     * keys into c->order before the loop, and nothing reads them after. */
    gts_score best = -GTS_SCORE_INF;
    uint32_t best_index = GTS__TT_NO_MOVE;
    gts_score a = alpha;
    uint32_t *deferred = h->defer ? (uint32_t *)c->keys[ply] : NULL;
    int ndeferred = 0, searched = 0, ntried = 0;
    /* Lean, every child is a horizon child when depth <= 1 (no extension):
     * their empty PV and the ply they reach are then recorded once here,
     * not once per child (gts__horizon_lean). Below the root, when no
     * child can reach the limit check and no hook reorders or defers,
     * they run in the frontier loop (gts__frontier_lean). */
    if (lean && depth <= 1) {
        c->pv_len[ply + 1] = 0;
        if (ply + 1 > c->seldepth)
            c->seldepth = ply + 1;
        if (ply > 0 && !h->defer && !h->order && c->nodes + (uint64_t)n < c->next_poll) {
            if (!gts__frontier_lean(c, ply, moves, n, sort, beta, &best, &best_index, &a))
                return 0;
            goto store;
        }
    }
    for (int pass = 0; pass < (h->defer ? 2 : 1); pass++) {
        int count = pass == 0 ? limit : ndeferred;
        for (int k = 0; k < count; k++) {
            uint32_t i = pass == 1  ? deferred[k]
                       : h->order ? h->order(c, arg, ply, k, limit, n, sort, key)
                       : sort     ? gts__pick(c, ply, k, n)
                                  : (uint32_t)k;
            gts_move m = moves[i];
            int ext = lean ? 0 : gts__extension(c, m);
            if (ext < 0)
                return 0;
            /* Step 6a. Futility and late-move pruning of quiet moves */
            bool quiet = false;
            if (sel) {
                quiet = gts__sel_quiet(c, &sl, ply, i, m, tt_move, ext);
                if (quiet && pass == 0 && gts__sel_pruned(&sl, k, searched)) {
                    if (sl.futile && sl.fut_value > best)
                        best = sl.fut_value;
                    continue;
                }
            }
            if (!gts__apply_as(c, m, lean))
                return 0;
            if (!lean && c->use_counter)
                gts__order_line(c, ply, m);
            void *token = NULL;
            if (h->defer && h->defer(c, arg, pass, searched, &token)) {
                gts__undo(c, m);
                deferred[ndeferred++] = i;
                continue;
            }
            int d = depth - 1 + ext;
            gts_score s = 0;
            /* Step 6b. Late-move reduction: a reduced null-window search
             * first; the full search only when it fails high. */
            int r = 0;
            if (sel) {
                c->ext_in[ply + 1] = ext > 0;
                c->null_in[ply + 1] = false;
                if (sl.reduce && quiet)
                    r = gts__sel_reduction(c, depth, ply, m, searched, pv, d);
            }
            bool full = true;
            if (r > 0) {
                s = -h->child(c, arg, d - r, ply + 1, -a - 1, -a);
                full = s > a && !gts__aborted_as(c, lean);
            }
            if (!full) {
                /* the reduced search failed low: taken as the value */
            } else if (d <= 0 && (lean || (!c->use_qs && !sel))) {
                /* A horizon child, what most children are: its node
                 * (step 1 of this function at ply + 1) in place, without
                 * the call. Its value does not depend on the window, so
                 * PVS has nothing to re-search. */
                s = lean ? -gts__horizon_lean(c, ply + 1) : -gts__horizon(c, ply + 1);
            } else if (searched == 0 || !c->use_pvs) {
                s = -h->child(c, arg, d, ply + 1, -beta, -a);
            } else {
                s = -h->child(c, arg, d, ply + 1, -a - 1, -a);
                if (s > a && s < beta && !gts__aborted_as(c, lean))
                    s = -h->child(c, arg, d, ply + 1, -beta, -a);
            }
            if (h->leave)
                h->leave(arg, token);
            gts__undo(c, m);
            searched++;
            if (gts__aborted_as(c, lean))
                return 0;

            if (gts__child_result(c, depth, ply, m, i, s, beta, &best, &best_index, &a)) {
                if (!lean && c->history_gravity)
                    gts__order_malus(c, ply, depth, c->tried[ply], ntried);
                goto store;
            }
            if (!lean && c->history_gravity && ntried < GTS__TRIED_MAX)
                c->tried[ply][ntried++] = m;
        }
    }

store:
    /* Step 7. Store, unless a repetition of a position above this node
     * decided the value: the line decided it, not the position. */
    if (!sel || c->rep_low >= ply)
        gts__tt_save(c, key, depth, ply, alpha, beta, best, best_index);
    return best;
}

/* The node (gts__node_body). With repetition draws, c->rep_low is this
 * node's own while it runs, and the lower of its own and the caller's
 * afterwards. */
static inline __attribute__((always_inline)) gts_score
gts__node_search(gts__ctx *c, const gts__node_hooks *h, const void *arg, int depth, int ply,
                 gts_score alpha, gts_score beta, bool lean)
{
    if (lean || !h->select || !c->rep)
        return gts__node_body(c, h, arg, depth, ply, alpha, beta, lean);
    int low = c->rep_low;
    c->rep_low = GTS__REP_NONE;
    gts_score v = gts__node_body(c, h, arg, depth, ply, alpha, beta, false);
    if (low < c->rep_low)
        c->rep_low = low;
    return v;
}


#endif
