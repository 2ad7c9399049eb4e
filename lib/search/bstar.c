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

#include <string.h>

typedef struct bs_node {
    gts__bf_link link;
    int32_t depth;    /* remaining depth */
    uint32_t first;   /* children: first .. first + n - 1, once expanded */
    uint32_t n;
    gts_score lo, hi; /* pessimistic, optimistic */
    bool expanded;
} bs_node;

typedef struct bs {
    gts__ctx *c;
    const gts_allocator *alloc;
    bs_node *node;
    uint32_t nnodes, cap;
    size_t max_bytes;
    bool full;        /* the tree reached its budget */
    gts_score margin;
    gts__bf_walk walk;
} bs;

static gts_score clamp(gts_score v, gts_score lo, gts_score hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The bounds of the node the state is at (just created, not expanded). */
static bool initial_bounds(bs *s, bs_node *nd)
{
    gts__ctx *c = s->c;
    int ply = nd->link.ply;
    if (nd->depth <= 0 || ply >= GTS_MAX_PLY) {
        nd->lo = nd->hi = gts__bf_static_value(c, ply, nd->depth);
        nd->expanded = true; /* a horizon: nothing to expand */
        return !gts__aborted(c);
    }
    gts_score lo = GTS_SCORE_LOSS + ply, hi = GTS_SCORE_WIN - ply;
    if (c->game->bounds) {
        if (!gts__game_bounds(c, ply, &lo, &hi))
            return false;
    } else if (s->margin > 0) {
        gts_score v = gts__evaluate(c, ply);
        if (gts__aborted(c))
            return false;
        gts_score l = clamp(v - s->margin, lo, hi), h = clamp(v + s->margin, lo, hi);
        lo = l;
        hi = h;
    }
    nd->lo = lo;
    nd->hi = hi;
    return true;
}

/* Back up from node @x to the root: each node's range is intersected with
 * the one its children give (lo = max -child.hi, hi = max -child.lo), so a
 * range only narrows and a closed one stays closed. With sound ranges the
 * intersection always holds the value; with the margin's guesses it can be
 * empty, and then the children's range (the deeper look) replaces it. The
 * walk stops at the first node whose range did not change. */
static void back_up(bs *s, uint32_t x)
{
    for (;;) {
        bs_node *nd = &s->node[x];
        gts_score lo = -GTS_SCORE_INF, hi = -GTS_SCORE_INF;
        for (uint32_t i = 0; i < nd->n; i++) {
            const bs_node *ch = &s->node[nd->first + i];
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
        if (nd->link.parent == GTS__BF_NONE)
            return;
        x = nd->link.parent;
    }
}

/* A child of an expansion (gts__bf_child_fn), with its initial bounds. */
static bool new_child(void *tree, uint32_t k, const gts__bf_link *link, int depth)
{
    bs *s = tree;
    bs_node *ch = &s->node[s->nnodes + k];
    memset(ch, 0, sizeof *ch);
    ch->link = *link;
    ch->depth = depth;
    if (link->ply > s->c->seldepth)
        s->c->seldepth = link->ply; /* a node of the tree: seldepth counts it */
    return initial_bounds(s, ch);
}

/* Expand node @x: its children with their initial bounds, or its exact
 * value when the game is over. False on a failure or a full tree. */
static bool expand(bs *s, uint32_t x)
{
    gts__ctx *c = s->c;
    if (!gts__bf_go(&s->walk, x))
        return false;
    int ply = s->node[x].link.ply;
    int n = gts__generate(c, ply, false);
    if (n < 0)
        return false;
    if (n == 0) {
        s->node[x].lo = s->node[x].hi = gts__evaluate(c, ply);
        s->node[x].expanded = true;
        if (s->node[x].link.parent != GTS__BF_NONE)
            back_up(s, s->node[x].link.parent);
        return !gts__aborted(c);
    }
    if (!gts__bf_grow(s->alloc, (void **)&s->node, &s->cap, s->nnodes + (uint32_t)n,
                      sizeof *s->node, s->max_bytes)) {
        s->full = true;
        return false;
    }
    s->walk.base = (const char *)s->node;
    uint32_t first = s->nnodes;
    if (!gts__bf_children(c, x, ply, s->node[x].depth, n, new_child, s))
        return false;
    s->nnodes += (uint32_t)n;
    s->node[x].first = first;
    s->node[x].n = (uint32_t)n;
    s->node[x].expanded = true;
    back_up(s, x);
    return true;
}

/* The open child of @x with the best optimistic value from x's side. */
static uint32_t follow(const bs *s, uint32_t x)
{
    const bs_node *nd = &s->node[x];
    uint32_t best = GTS__BF_NONE;
    gts_score best_opt = -GTS_SCORE_INF - 1;
    for (uint32_t i = 0; i < nd->n; i++) {
        const bs_node *ch = &s->node[nd->first + i];
        if (ch->lo < ch->hi && -ch->lo > best_opt) {
            best_opt = -ch->lo;
            best = nd->first + i;
        }
    }
    return best;
}

/* The root's moves by optimistic value (*best) and its strongest rival
 * (*rival, GTS__BF_NONE when the root has one move). */
static void rank(const bs *s, uint32_t *best, uint32_t *rival)
{
    const bs_node *root = &s->node[0];
    *best = *rival = GTS__BF_NONE;
    for (uint32_t i = 0; i < root->n; i++) {
        uint32_t k = root->first + i;
        const bs_node *ch = &s->node[k];
        if (*best == GTS__BF_NONE || -ch->lo > -s->node[*best].lo
            || (-ch->lo == -s->node[*best].lo && -ch->hi > -s->node[*best].hi)) {
            *rival = *best;
            *best = k;
        } else if (*rival == GTS__BF_NONE || -ch->lo > -s->node[*rival].lo) {
            *rival = k;
        }
    }
}

/* The move to play: the best pessimistic value (a proved one when the
 * search ended by separation). */
static uint32_t choose(const bs *s)
{
    const bs_node *root = &s->node[0];
    uint32_t best = root->first;
    for (uint32_t i = 1; i < root->n; i++) {
        const bs_node *ch = &s->node[root->first + i], *b = &s->node[best];
        if (-ch->hi > -b->hi || (-ch->hi == -b->hi && -ch->lo > -b->lo))
            best = root->first + i;
    }
    return best;
}

void gts__run_bstar(gts__run *run, const gts_limits *lim, gts_result *r)
{
    gts_engine *e = run->engine;
    gts__ctx *c = run->ctx[0];
    bs s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.alloc = &e->alloc;
    s.max_bytes = (size_t)e->tree_mb << 20;
    s.margin = (gts_score)e->bstar_margin;
    s.walk.c = c;
    s.walk.stride = sizeof(bs_node);
    if (!gts__bf_grow(s.alloc, (void **)&s.node, &s.cap, 1, sizeof *s.node, s.max_bytes)) {
        r->flags |= GTS_RESULT_MEMORY_LIMIT;
        return; /* the driver's fallback move stands */
    }
    s.walk.base = (const char *)s.node;
    memset(&s.node[0], 0, sizeof s.node[0]);
    s.node[0].link.parent = GTS__BF_NONE;
    s.node[0].depth = lim->depth;
    s.node[0].lo = -GTS_SCORE_INF;
    s.node[0].hi = GTS_SCORE_INF;
    s.nnodes = 1;
    s.walk.cur = 0;

    /* Step 1. The root's children, then steps until the best is separated */
    bool ok = expand(&s, 0);
    bool proved = false;
    while (ok) {
        uint32_t best, rival;
        rank(&s, &best, &rival);
        gts_score rival_opt = rival == GTS__BF_NONE ? -GTS_SCORE_INF : -s.node[rival].lo;
        uint32_t x;
        if (-s.node[best].hi >= rival_opt) {
            proved = true;
            if (s.node[best].lo == s.node[best].hi)
                break; /* separated, and its value known */
            x = best;  /* separated: prove its value */
        } else {
            bool prove = s.node[best].lo < s.node[best].hi;
            bool disprove = rival != GTS__BF_NONE && s.node[rival].lo < s.node[rival].hi;
            if (prove && disprove)
                prove = s.node[best].hi - s.node[best].lo >= s.node[rival].hi - s.node[rival].lo;
            x = prove ? best : rival;
        }
        while (s.node[x].expanded) {
            uint32_t next = follow(&s, x);
            if (next == GTS__BF_NONE)
                break;
            x = next;
        }
        if (s.node[x].expanded || gts__enter(c, s.node[x].link.ply))
            break; /* nothing open (cannot happen with a consistent tree), or a stop */
        ok = expand(&s, x);
    }
    gts__bf_undo_to(&s.walk, 0);
    if (s.full)
        r->flags |= GTS_RESULT_MEMORY_LIMIT;

    /* Step 2. The result, unless a callback failed (the driver reports
     * that; a stop or a limit keeps what was found) */
    bool failed = gts__aborted(c) && gts__run_why(c->shared) == 0 && !s.full;
    if (!failed && s.node[0].n > 0) {
        uint32_t k, rival;
        if (proved)
            rank(&s, &k, &rival);
        else
            k = choose(&s);
        const bs_node *ch = &s.node[k];
        r->best_move = ch->link.move;
        r->score = -ch->hi;
        if (ch->lo < ch->hi)
            r->flags |= GTS_RESULT_LOWER_BOUND;
        /* The PV: then the best pessimistic child of every expanded node. */
        r->pv_length = 0;
        for (uint32_t x = k; r->pv_length < GTS_MAX_PLY;) {
            r->pv[r->pv_length++] = s.node[x].link.move;
            const bs_node *nd = &s.node[x];
            if (nd->n == 0)
                break;
            uint32_t b = nd->first;
            for (uint32_t i = 1; i < nd->n; i++)
                if (-s.node[nd->first + i].hi > -s.node[b].hi)
                    b = nd->first + i;
            x = b;
        }
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
    gts__free(s.alloc, s.node, (size_t)s.cap * sizeof *s.node);
}
