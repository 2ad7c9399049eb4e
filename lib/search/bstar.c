/*
 * bstar.c - Berliner's B* (H. Berliner, "The B* tree search algorithm: a
 * best-first proof procedure", Artificial Intelligence 12, 1979).
 *
 * What. Every node of an explicit tree carries a pessimistic and an
 * optimistic value (lo <= hi, from the side to move there, decided scores
 * by distance from the root as everywhere in the library). A new node gets
 * them from the game's bounds() callback (the sound range the performance
 * work added to gts_game: one concept, one callback) intersected with mate
 * distance; with GTS_OPT_BSTAR_MARGIN > 0 and no bounds(), from Berliner's
 * kind of estimate instead, evaluate() -/+ the margin. A finished game and
 * a node at the depth limit are exact (lo = hi = its value, quiescence
 * included when it is on: the value minimax gives it). An expanded node
 * backs up lo = max over children of -child.hi and hi = max of -child.lo,
 * intersected with the range it had: the backed-up values only narrow a
 * range, and a closed node stays closed. Sound ranges always intersect;
 * the margin's guesses may not, and then the children's range wins (the
 * deeper look).
 *
 * The best move is found when it is separated: its pessimistic value is no
 * lower than every other move's optimistic value. The search then goes on
 * proving that move until its range closes, so that the score is its value
 * (Berliner stops at separation; a caller who wants only the move can set a
 * node limit). Until separation each step picks a strategy at the root:
 *   ProveBest    raise the best move's pessimistic value,
 *   DisproveRest lower the optimistic value of its strongest rival,
 * the one whose range (hi - lo) is wider, since that range has the most
 * to give (Berliner leaves the choice to a heuristic; a node whose range
 * has collapsed is never chosen). Below the root the step follows the child
 * with the best optimistic value (from the side to move there) whose range
 * is still open, down to an unexpanded node, expands it and backs up.
 *
 * With sound ranges (bounds() as its contract says, or mate distance alone:
 * the default) and no limit, the move and score are the minimax ones at the
 * depth limit. With a margin the ranges are guesses and the search is
 * heuristic. At a limit or a stop the move with the best pessimistic value
 * is returned, flagged GTS_RESULT_LOWER_BOUND unless its range has closed.
 *
 * Memory: the tree is kept whole; it takes at most GTS_OPT_TREE_MB
 * (the budget of the best-first algorithms' trees). When it is full, or the
 * allocator fails, the search stops growing it and returns what it has,
 * with GTS_RESULT_MEMORY_LIMIT.
 */
#include "search/algos.h"
#include "search/bestfirst.h"

#include <stddef.h>

typedef struct bs_node {
    gts__bf_node h;   /* link, depth, children (the tree's) */
    gts_score lo, hi; /* pessimistic, optimistic */
} bs_node;

typedef struct bs {
    gts__bf_tree t;   /* first: the hooks get it */
    gts_score margin;
} bs;
_Static_assert(offsetof(bs_node, h) == 0 && offsetof(bs, t) == 0, "the tree's parts first");

/* Node @x (the tree's stride is sizeof(bs_node): indexed at compile time). */
static inline bs_node *bs_at(const gts__bf_tree *t, uint32_t x)
{
    return (bs_node *)(void *)t->base + x;
}

static gts_score clamp(gts_score v, gts_score lo, gts_score hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The bounds of a new node, the state at it (gts__bf_hooks::init). */
static bool bs_init(gts__bf_tree *t, uint32_t x)
{
    gts__ctx *c = t->c;
    bs_node *nd = bs_at(t, x);
    int ply = nd->h.link.ply;
    if (ply > c->seldepth)
        c->seldepth = ply; /* a node of the tree: seldepth counts it */
    if (nd->h.depth <= 0 || ply >= GTS_MAX_PLY) {
        nd->lo = nd->hi = gts__bf_static_value(c, ply, nd->h.depth);
        nd->h.expanded = true; /* a horizon: nothing to expand */
        return !gts__aborted(c);
    }
    gts_score lo = GTS_SCORE_LOSS + ply, hi = GTS_SCORE_WIN - ply;
    gts_score margin = ((const bs *)(const void *)t)->margin;
    if (c->game->bounds) {
        if (!gts__game_bounds(c, ply, &lo, &hi))
            return false;
    } else if (margin > 0) {
        gts_score v = gts__evaluate(c, ply);
        if (gts__aborted(c))
            return false;
        gts_score l = clamp(v - margin, lo, hi), h = clamp(v + margin, lo, hi);
        lo = l;
        hi = h;
    }
    nd->lo = lo;
    nd->hi = hi;
    return true;
}

/* A finished game, the state at it (gts__bf_hooks::over). */
static void bs_over(gts__bf_tree *t, uint32_t x)
{
    bs_node *nd = bs_at(t, x);
    nd->lo = nd->hi = gts__evaluate(t->c, nd->h.link.ply);
}

/* Back up from node @x to the root (gts__bf_hooks::back_up): each node's
 * range is intersected with the one its children give (lo = max
 * -child.hi, hi = max -child.lo), so a range only narrows and a closed one
 * stays closed. With sound ranges the intersection always holds the value;
 * with the margin's guesses it can be empty, and then the children's range
 * (the deeper look) replaces it. The walk stops at the first node whose
 * range did not change. */
static void bs_back_up(gts__bf_tree *t, uint32_t x)
{
    for (;;) {
        bs_node *nd = bs_at(t, x);
        gts_score lo = -GTS_SCORE_INF, hi = -GTS_SCORE_INF;
        for (uint32_t i = 0; i < nd->h.n; i++) {
            const bs_node *ch = bs_at(t, nd->h.first + i);
            if (-ch->hi > lo)
                lo = -ch->hi;
            if (-ch->lo > hi)
                hi = -ch->lo;
        }
        gts_score nlo = lo > nd->lo ? lo : nd->lo, nhi = hi < nd->hi ? hi : nd->hi;
        if (nlo > nhi) { /* guesses that contradict: the children's range */
            nlo = lo;
            nhi = hi;
        }
        if (nlo == nd->lo && nhi == nd->hi)
            return;
        nd->lo = nlo;
        nd->hi = nhi;
        if (nd->h.link.parent == GTS__BF_NONE)
            return;
        x = nd->h.link.parent;
    }
}

static const gts__bf_hooks bs_hooks = {bs_init, bs_over, bs_back_up};

/* The open child of @x with the best optimistic value from x's side. */
static uint32_t follow(const gts__bf_tree *t, uint32_t x)
{
    const bs_node *nd = bs_at(t, x);
    uint32_t best = GTS__BF_NONE;
    gts_score best_opt = -GTS_SCORE_INF - 1;
    for (uint32_t i = 0; i < nd->h.n; i++) {
        const bs_node *ch = bs_at(t, nd->h.first + i);
        if (ch->lo < ch->hi && -ch->lo > best_opt) {
            best_opt = -ch->lo;
            best = nd->h.first + i;
        }
    }
    return best;
}

/* The root's moves by optimistic value (*best) and its strongest rival
 * (*rival, GTS__BF_NONE when the root has one move). */
static void rank(const gts__bf_tree *t, uint32_t *best, uint32_t *rival)
{
    const bs_node *root = bs_at(t, 0);
    *best = *rival = GTS__BF_NONE;
    for (uint32_t i = 0; i < root->h.n; i++) {
        uint32_t k = root->h.first + i;
        const bs_node *ch = bs_at(t, k);
        if (*best == GTS__BF_NONE || -ch->lo > -bs_at(t, *best)->lo
            || (-ch->lo == -bs_at(t, *best)->lo && -ch->hi > -bs_at(t, *best)->hi)) {
            *rival = *best;
            *best = k;
        } else if (*rival == GTS__BF_NONE || -ch->lo > -bs_at(t, *rival)->lo) {
            *rival = k;
        }
    }
}

/* The move to play: the best pessimistic value (a proved one when the
 * search ended by separation). */
static uint32_t choose(const gts__bf_tree *t)
{
    const bs_node *root = bs_at(t, 0);
    uint32_t best = root->h.first;
    for (uint32_t i = 1; i < root->h.n; i++) {
        const bs_node *ch = bs_at(t, root->h.first + i), *b = bs_at(t, best);
        if (-ch->hi > -b->hi || (-ch->hi == -b->hi && -ch->lo > -b->lo))
            best = root->h.first + i;
    }
    return best;
}

/* B*'s options (registry.c). */
const gts__opt_row gts__bstar_options[] = {
    GTS__OPT_ROW_TREE_MB,
    { GTS_OPT_BSTAR_MARGIN, "bstar_margin", 0, GTS_SCORE_WIN, 0 },
    GTS__OPT_END,
};

/* The PV's next node: the child of @x with the best pessimistic value. */
static uint32_t bs_pv_child(const gts__bf_tree *t, uint32_t x)
{
    const bs_node *nd = bs_at(t, x);
    uint32_t b = nd->h.first;
    for (uint32_t i = 1; i < nd->h.n; i++)
        if (-bs_at(t, nd->h.first + i)->hi > -bs_at(t, b)->hi)
            b = nd->h.first + i;
    return b;
}

void gts__run_bstar(gts__run *run)
{
    const gts_limits *lim = run->lim;
    gts_result *r = run->result;
    bs s;
    gts__bf_tree *t = &s.t;
    if (!gts__bf_start(t, run, sizeof(bs_node), &bs_hooks, lim->depth, r))
        return; /* the driver's fallback move stands */
    gts__ctx *c = t->c;
    s.margin = (gts_score)gts__algo_opt(run->engine, gts__bstar_options, GTS_OPT_BSTAR_MARGIN);
    bs_at(t, 0)->lo = -GTS_SCORE_INF;
    bs_at(t, 0)->hi = GTS_SCORE_INF;

    /* Step 1. The root's children, then steps until the best is separated */
    bool ok = gts__bf_expand(t, 0);
    bool proved = false;
    while (ok) {
        uint32_t best, rival;
        rank(t, &best, &rival);
        const bs_node *b = bs_at(t, best), *v = rival == GTS__BF_NONE ? NULL : bs_at(t, rival);
        gts_score rival_opt = v ? -v->lo : -GTS_SCORE_INF;
        uint32_t x;
        if (-b->hi >= rival_opt) {
            proved = true;
            if (b->lo == b->hi)
                break; /* separated, and its value known */
            x = best;  /* separated: prove its value */
        } else {
            bool prove = b->lo < b->hi;
            bool disprove = v && v->lo < v->hi;
            if (prove && disprove)
                prove = b->hi - b->lo >= v->hi - v->lo;
            x = prove ? best : rival;
        }
        while (bs_at(t, x)->h.expanded) {
            uint32_t next = follow(t, x);
            if (next == GTS__BF_NONE)
                break;
            x = next;
        }
        if (bs_at(t, x)->h.expanded || gts__enter(c, bs_at(t, x)->h.link.ply))
            break; /* nothing open (cannot happen with a consistent tree), or a stop */
        ok = gts__bf_expand(t, x);
    }

    /* Step 2. The result, unless a callback failed */
    if (gts__bf_finish(t, r) && bs_at(t, 0)->h.n > 0) {
        uint32_t k, rival;
        if (proved)
            rank(t, &k, &rival);
        else
            k = choose(t);
        const bs_node *ch = bs_at(t, k);
        r->best_move = ch->h.link.move;
        r->score = -ch->hi;
        if (ch->lo < ch->hi)
            r->flags |= GTS_RESULT_LOWER_BOUND;
        /* The PV: then the best pessimistic child of every expanded node. */
        gts__bf_line(t, k, bs_pv_child, r);
        /* The depth. A best move whose range is closed has its minimax
         * value at the depth asked for proved: that depth, as an exact
         * algorithm's depth says (MMA does the same). Otherwise the line
         * B* looked at: its PV, at most the depth asked for (the score is
         * a bound on the value at that depth); every PV node is a tree
         * node, so then depth <= pv_length <= seldepth. */
        if (ch->lo == ch->hi)
            r->depth = lim->depth;
        else
            r->depth = (int)r->pv_length < lim->depth ? (int32_t)r->pv_length : lim->depth;
    }
    gts__bf_free(t);
}
