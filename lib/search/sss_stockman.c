/*
 * sss_stockman.c - SSS* as Stockman wrote it (G. C. Stockman, "A minimax
 * algorithm better than alpha-beta?", Artificial Intelligence 12, 1979),
 * best-first over an OPEN list, in the formulation of Pearl's "Heuristics"
 * (1984), section 8.2.
 *
 * What. OPEN holds states (n, LIVE or SOLVED, h): h is an upper bound on the
 * value of the solution trees through n, from the root player's side (MAX;
 * MAX nodes at even plies). The state with the highest h (ties: the leftmost
 * node in the tree) is removed and the operator Gamma applied:
 *   LIVE, n a leaf            -> (n, SOLVED, min(h, f(n)));
 *   LIVE, n a MAX node        -> (child, LIVE, h) for every child;
 *   LIVE, n a MIN node        -> (first child, LIVE, h);
 *   SOLVED, n the root        -> the value is h;
 *   SOLVED, n a MAX node      -> (next sibling, LIVE, h), or (parent, SOLVED,
 *                                h) when n is its parent's last child;
 *   SOLVED, n a MIN node      -> (parent, SOLVED, h), and every state below
 *                                the parent leaves OPEN.
 * A node's merit is also capped by what it can still score (mate distance
 * and the game's bounds(), from MAX's side): a sound upper bound keeps h an
 * upper bound, so the value is unchanged.
 * Leaves are what minimax calls leaves: remaining depth 0 (depth - 1 +
 * extend() per ply; quiescence there when it is on), a finished game, or
 * GTS_MAX_PLY. f(n) is the library's evaluation (decided scores by distance
 * from the root) from MAX's side, so the value equals gts_minimax's.
 *
 * How. Nodes live in an array (parent, move, index among the parent's
 * moves, remaining depth); a MIN node keeps its move list for its next
 * children. OPEN is a binary heap. "Leaves OPEN" is lazy: the parent is
 * marked closed and a state is dropped when it is removed if a strict
 * ancestor of its node is closed (nothing below a closed node is ever
 * created again). The game state follows the states: moving to a node undoes
 * up to the common ancestor of the current node and applies down (those
 * applies are travel, not counted as nodes; a node counts once, when it is
 * created). No transposition table: Stockman's algorithm has none. The best
 * root move is the root child whose SOLVED state solved the root.
 *
 * Memory: every node ever created is kept until the iteration ends (a few
 * times the b^(d/2) states of OPEN), from the engine's allocator; running
 * out ends the search with GTS_ENOMEM.
 */
#include "search/algos.h"
#include "search/bestfirst.h"

#include <stddef.h>
#include <string.h>

enum { SS_LIVE = 0, SS_SOLVED = 1 };
#define SS_NONE GTS__BF_NONE

typedef struct ss_node {
    gts__bf_link link;  /* parent, ply, move from the parent */
    uint32_t index;     /* among the parent's moves */
    int32_t depth;      /* remaining depth */
    uint32_t moves;     /* MIN nodes: offset of the move list in ss.moves */
    uint32_t nmoves;
    bool closed;        /* SOLVED through a child: nothing below it counts */
    gts_score h_start;  /* merit when it went LIVE */
    uint32_t pv_child;  /* the child its solution goes through (SS_NONE: none) */
} ss_node;

typedef struct ss_state {
    gts_score h;
    uint32_t node;
    uint32_t status;
} ss_state;

typedef struct ss {
    gts__bf_tree t;                   /* the nodes; where the game state is */
    ss_state *heap;
    uint32_t nheap, cap_heap;
    gts_move *moves;
    uint32_t nmove, cap_moves;
} ss;
_Static_assert(offsetof(ss_node, link) == 0, "the tree's link first");

/* Node @x (the tree's stride is sizeof(ss_node): indexed at compile time). */
static inline ss_node *ss_at(const ss *s, uint32_t x)
{
    return (ss_node *)(void *)s->t.base + x;
}

/* ---- memory ------------------------------------------------------------------ */

static bool ss_grow(ss *s, void **p, uint32_t *cap, uint32_t need, size_t size)
{
    if (gts__bf_grow(s->t.alloc, p, cap, need, size, SIZE_MAX))
        return true;
    gts__fail(s->t.c, GTS_ENOMEM, 0);
    return false;
}

static uint32_t new_node(ss *s, uint32_t parent, uint32_t index, gts_move move, int depth)
{
    uint32_t x = gts__bf_add(&s->t, parent, move);
    if (x == SS_NONE) {
        gts__fail(s->t.c, GTS_ENOMEM, 0);
        return SS_NONE;
    }
    ss_node *n = ss_at(s, x);
    n->index = index;
    n->depth = depth;
    n->pv_child = SS_NONE;
    if (parent != SS_NONE)
        s->t.c->nodes++;
    return x;
}

/* ---- OPEN: a max-heap on h, ties to the leftmost node ------------------------ */

/* Is node @a left of node @b (neither an ancestor of the other)? */
static bool left_of(const ss *s, uint32_t a, uint32_t b)
{
    while (ss_at(s, a)->link.ply > ss_at(s, b)->link.ply)
        a = ss_at(s, a)->link.parent;
    while (ss_at(s, b)->link.ply > ss_at(s, a)->link.ply)
        b = ss_at(s, b)->link.parent;
    if (a == b)
        return false;
    while (ss_at(s, a)->link.parent != ss_at(s, b)->link.parent) {
        a = ss_at(s, a)->link.parent;
        b = ss_at(s, b)->link.parent;
    }
    return ss_at(s, a)->index < ss_at(s, b)->index;
}

static bool before(const ss *s, const ss_state *x, const ss_state *y)
{
    if (x->h != y->h)
        return x->h > y->h;
    return left_of(s, x->node, y->node);
}

static bool push(ss *s, uint32_t node, uint32_t status, gts_score h)
{
    if (node == SS_NONE
        || !ss_grow(s, (void **)&s->heap, &s->cap_heap, s->nheap + 1, sizeof *s->heap))
        return false;
    if (status == SS_LIVE)
        ss_at(s, node)->h_start = h;
    uint32_t i = s->nheap++;
    ss_state x = {h, node, status};
    while (i > 0) {
        uint32_t up = (i - 1) / 2;
        if (!before(s, &x, &s->heap[up]))
            break;
        s->heap[i] = s->heap[up];
        i = up;
    }
    s->heap[i] = x;
    return true;
}

static ss_state pop(ss *s)
{
    ss_state top = s->heap[0];
    ss_state x = s->heap[--s->nheap];
    uint32_t i = 0;
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        const ss_state *best = &x;
        if (l < s->nheap && before(s, &s->heap[l], best)) {
            m = l;
            best = &s->heap[l];
        }
        if (r < s->nheap && before(s, &s->heap[r], best))
            m = r;
        if (m == i)
            break;
        s->heap[i] = s->heap[m];
        i = m;
    }
    if (s->nheap > 0)
        s->heap[i] = x;
    return top;
}

/* Below a closed node (a strict ancestor): the state left OPEN. */
static bool dead(const ss *s, uint32_t n)
{
    for (uint32_t p = ss_at(s, n)->link.parent; p != SS_NONE; p = ss_at(s, p)->link.parent)
        if (ss_at(s, p)->closed)
            return true;
    return false;
}

/* ---- Gamma ------------------------------------------------------------------- */

/* The leaf value of the current node from MAX's side. */
static gts_score leaf_value(ss *s)
{
    gts__ctx *c = s->t.c;
    int ply = ss_at(s, s->t.cur)->link.ply;
    gts_score v = gts__bf_static_value(c, ply, ss_at(s, s->t.cur)->depth);
    return ply % 2 == 0 ? v : -v;
}

/* The child @i of MIN node @n (its moves are stored), or SS_NONE. */
static uint32_t min_child(ss *s, uint32_t n, uint32_t i)
{
    gts__ctx *c = s->t.c;
    if (!gts__bf_goto(&s->t, n))
        return SS_NONE;
    gts_move m = s->moves[ss_at(s, n)->moves + i];
    int ext = gts__extension(c, m);
    if (ext < 0)
        return SS_NONE;
    return new_node(s, n, i, m, ss_at(s, n)->depth - 1 + ext);
}

/* A LIVE state: a leaf is solved, a MAX node opens every child, a MIN node
 * its first. */
static bool ss_expand(ss *s, uint32_t n, gts_score h)
{
    gts__ctx *c = s->t.c;
    if (!gts__bf_goto(&s->t, n))
        return false;
    ss_node *nd = ss_at(s, n);
    int ply = nd->link.ply;
    if (nd->depth <= 0 || ply >= GTS_MAX_PLY) {
        gts_score f = leaf_value(s);
        return !gts__aborted(c) && push(s, n, SS_SOLVED, f < h ? f : h);
    }
    int cnt = gts__generate(c, ply, false);
    if (cnt < 0)
        return false;
    if (cnt == 0) {
        gts_score f = gts__evaluate(c, ply);
        f = ply % 2 == 0 ? f : -f;
        return !gts__aborted(c) && push(s, n, SS_SOLVED, f < h ? f : h);
    }
    /* The game's sound range (and mate distance) bound every solution tree
     * through n from above: a tighter merit, still an upper bound. */
    if (ply > 0) {
        gts_score lo = GTS_SCORE_LOSS + ply, hi = GTS_SCORE_WIN - ply;
        if (c->game->bounds && !gts__game_bounds(c, ply, &lo, &hi))
            return false;
        gts_score top = ply % 2 == 0 ? hi : -lo;
        if (top < h)
            h = top;
    }
    const gts_move *moves = gts__moves(c, ply);
    if (ply % 2 == 0) {
        for (int i = 0; i < cnt; i++) {
            int ext = gts__extension(c, moves[i]);
            if (ext < 0)
                return false;
            uint32_t child = new_node(s, n, (uint32_t)i, moves[i], ss_at(s, n)->depth - 1 + ext);
            if (!push(s, child, SS_LIVE, h))
                return false;
        }
        return true;
    }
    if (!ss_grow(s, (void **)&s->moves, &s->cap_moves, s->nmove + (uint32_t)cnt, sizeof *s->moves))
        return false;
    memcpy(s->moves + s->nmove, moves, (size_t)cnt * sizeof *moves);
    ss_at(s, n)->moves = s->nmove;
    ss_at(s, n)->nmoves = (uint32_t)cnt;
    s->nmove += (uint32_t)cnt;
    return push(s, min_child(s, n, 0), SS_LIVE, h);
}

/* A SOLVED state of a node other than the root. */
static bool solved(ss *s, uint32_t n, gts_score h)
{
    uint32_t p = ss_at(s, n)->link.parent;
    if (ss_at(s, n)->link.ply % 2 == 1) {
        ss_at(s, p)->closed = true;
        ss_at(s, p)->pv_child = n; /* a MAX node's solution: this child */
        return push(s, p, SS_SOLVED, h);
    }
    /* A MIN node's solution goes through the child that set its value: the
     * first, or a later one that lowered the merit it started with. */
    if (ss_at(s, p)->pv_child == SS_NONE || h < ss_at(s, n)->h_start)
        ss_at(s, p)->pv_child = n;
    uint32_t next = ss_at(s, n)->index + 1;
    if (next < ss_at(s, p)->nmoves)
        return push(s, min_child(s, p, next), SS_LIVE, h);
    return push(s, p, SS_SOLVED, h);
}

gts_score gts__iterate_sssstar_stockman(gts__run *run, int depth, gts_score alpha,
                                        gts_score beta)
{
    (void)alpha;
    (void)beta;
    gts__ctx *c = run->ctx[0];
    ss s;
    memset(&s, 0, sizeof s);
    gts__bf_init(&s.t, c, &run->engine->alloc, sizeof(ss_node), SIZE_MAX, NULL);
    gts_score value = 0;
    uint32_t root = new_node(&s, SS_NONE, 0, GTS_MOVE_NONE, depth);
    if (root == SS_NONE)
        return 0; /* out of memory, recorded */
    bool ok = push(&s, root, SS_LIVE, GTS_SCORE_INF);
    while (ok && s.nheap > 0) {
        ss_state x = pop(&s);
        if (gts__enter(c, ss_at(&s, x.node)->link.ply)) {
            ok = false;
            break;
        }
        if (dead(&s, x.node))
            continue;
        if (x.status == SS_LIVE) {
            ok = ss_expand(&s, x.node, x.h);
        } else if (x.node == root) {
            value = x.h;
            break;
        } else {
            /* The root's last step: remember which child solved it. */
            if (ss_at(&s, x.node)->link.parent == root) {
                c->root_move = ss_at(&s, x.node)->link.move;
                c->root_has_move = true;
            }
            ok = solved(&s, x.node, x.h);
        }
    }
    /* Back to the root, whatever happened (a failed undo is recorded). */
    gts__bf_rewind(&s.t, 0);
    if (ok && !gts__aborted(c) && c->root_has_move) {
        /* The principal variation: down the solution tree's chosen children. */
        int len = 0;
        for (uint32_t n = ss_at(&s, root)->pv_child; n != SS_NONE && len < GTS_MAX_PLY;
             n = ss_at(&s, n)->pv_child)
            c->pv[0][len++] = ss_at(&s, n)->link.move;
        c->pv_len[0] = len;
    }
    gts__bf_free(&s.t);
    gts__free(s.t.alloc, s.heap, (size_t)s.cap_heap * sizeof *s.heap);
    gts__free(s.t.alloc, s.moves, (size_t)s.cap_moves * sizeof *s.moves);
    return ok && !gts__aborted(c) ? value : 0;
}
