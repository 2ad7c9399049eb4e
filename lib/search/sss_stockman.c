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

#include <string.h>

enum { SS_LIVE = 0, SS_SOLVED = 1 };
#define SS_NONE UINT32_MAX

typedef struct ss_node {
    uint32_t parent;    /* SS_NONE for the root */
    uint32_t index;     /* among the parent's moves */
    gts_move move;      /* from the parent */
    int32_t depth;      /* remaining depth */
    int32_t ply;
    uint32_t moves;     /* MIN nodes: offset of the move list in ss.moves */
    uint32_t nmoves;
    bool closed;        /* SOLVED through a child: nothing below it counts */
} ss_node;

typedef struct ss_state {
    gts_score h;
    uint32_t node;
    uint32_t status;
} ss_state;

typedef struct ss {
    gts__ctx *c;
    const gts_allocator *alloc;
    ss_node *node;
    uint32_t nnodes, cap_nodes;
    ss_state *heap;
    uint32_t nheap, cap_heap;
    gts_move *moves;
    uint32_t nmove, cap_moves;
    uint32_t cur;                     /* the node the game state is at */
    uint32_t path[GTS_MAX_PLY + 1];   /* scratch: a node's ancestors */
} ss;

/* ---- memory ------------------------------------------------------------------ */

static bool grow(ss *s, void **p, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return true;
    uint64_t n = *cap ? (uint64_t)*cap * 2 : 256;
    while (n < need)
        n *= 2;
    if (n > UINT32_MAX / 2) {
        gts__fail(s->c, GTS_ENOMEM, 0);
        return false;
    }
    void *q = gts__malloc(s->alloc, (size_t)n * size);
    if (!q) {
        gts__fail(s->c, GTS_ENOMEM, 0);
        return false;
    }
    if (*cap)
        memcpy(q, *p, (size_t)*cap * size);
    gts__free(s->alloc, *p, (size_t)*cap * size);
    *p = q;
    *cap = (uint32_t)n;
    return true;
}

static uint32_t new_node(ss *s, uint32_t parent, uint32_t index, gts_move move, int depth)
{
    if (!grow(s, (void **)&s->node, &s->cap_nodes, s->nnodes + 1, sizeof *s->node))
        return SS_NONE;
    ss_node *n = &s->node[s->nnodes];
    n->parent = parent;
    n->index = index;
    n->move = move;
    n->depth = depth;
    n->ply = parent == SS_NONE ? 0 : s->node[parent].ply + 1;
    n->moves = 0;
    n->nmoves = 0;
    n->closed = false;
    if (parent != SS_NONE)
        s->c->nodes++;
    return s->nnodes++;
}

/* ---- OPEN: a max-heap on h, ties to the leftmost node ------------------------ */

/* Is node @a left of node @b (neither an ancestor of the other)? */
static bool left_of(const ss *s, uint32_t a, uint32_t b)
{
    while (s->node[a].ply > s->node[b].ply)
        a = s->node[a].parent;
    while (s->node[b].ply > s->node[a].ply)
        b = s->node[b].parent;
    if (a == b)
        return false;
    while (s->node[a].parent != s->node[b].parent) {
        a = s->node[a].parent;
        b = s->node[b].parent;
    }
    return s->node[a].index < s->node[b].index;
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
        || !grow(s, (void **)&s->heap, &s->cap_heap, s->nheap + 1, sizeof *s->heap))
        return false;
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
    for (uint32_t p = s->node[n].parent; p != SS_NONE; p = s->node[p].parent)
        if (s->node[p].closed)
            return true;
    return false;
}

/* ---- the game state follows the node ---------------------------------------- */

static bool undo_to_ply(ss *s, int ply)
{
    gts__ctx *c = s->c;
    bool ok = true;
    while (s->node[s->cur].ply > ply) {
        int rc = c->game->undo(c->state, s->node[s->cur].move, c->user);
        if (rc < 0 && ok) {
            gts__fail(c, GTS_ECALLBACK, rc);
            ok = false; /* keep undoing the others */
        }
        s->cur = s->node[s->cur].parent;
    }
    return ok;
}

static bool go_to(ss *s, uint32_t target)
{
    gts__ctx *c = s->c;
    int len = 0;
    uint32_t n = target;
    /* Ancestors of the target down to the deepest one on the current path. */
    while (s->node[n].ply > s->node[s->cur].ply) {
        s->path[len++] = n;
        n = s->node[n].parent;
    }
    uint32_t cur = s->cur;
    while (s->node[cur].ply > s->node[n].ply)
        cur = s->node[cur].parent;
    while (cur != n) {
        s->path[len++] = n;
        n = s->node[n].parent;
        cur = s->node[cur].parent;
    }
    if (!undo_to_ply(s, s->node[n].ply))
        return false;
    while (len > 0) {
        uint32_t next = s->path[--len];
        int rc = c->game->apply(c->state, s->node[next].move, c->user);
        if (rc < 0) {
            gts__fail(c, GTS_ECALLBACK, rc);
            return false;
        }
        s->cur = next;
    }
    return true;
}

/* ---- Gamma ------------------------------------------------------------------- */

/* The leaf value of the current node from MAX's side. */
static gts_score leaf_value(ss *s)
{
    gts__ctx *c = s->c;
    int ply = s->node[s->cur].ply;
    gts_score v = c->use_qs && ply < GTS_MAX_PLY && s->node[s->cur].depth <= 0
                      ? gts__qsearch(c, ply, -GTS_SCORE_INF, GTS_SCORE_INF)
                      : gts__evaluate(c, ply);
    return ply % 2 == 0 ? v : -v;
}

/* The child @i of MIN node @n (its moves are stored), or SS_NONE. */
static uint32_t min_child(ss *s, uint32_t n, uint32_t i)
{
    gts__ctx *c = s->c;
    if (!go_to(s, n))
        return SS_NONE;
    gts_move m = s->moves[s->node[n].moves + i];
    int ext = gts__extension(c, m);
    if (ext < 0)
        return SS_NONE;
    return new_node(s, n, i, m, s->node[n].depth - 1 + ext);
}

/* A LIVE state: a leaf is solved, a MAX node opens every child, a MIN node
 * its first. */
static bool expand(ss *s, uint32_t n, gts_score h)
{
    gts__ctx *c = s->c;
    if (!go_to(s, n))
        return false;
    ss_node *nd = &s->node[n];
    int ply = nd->ply;
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
    const gts_move *moves = gts__moves(c, ply);
    if (ply % 2 == 0) {
        for (int i = 0; i < cnt; i++) {
            int ext = gts__extension(c, moves[i]);
            if (ext < 0)
                return false;
            uint32_t child = new_node(s, n, (uint32_t)i, moves[i], s->node[n].depth - 1 + ext);
            if (!push(s, child, SS_LIVE, h))
                return false;
        }
        return true;
    }
    if (!grow(s, (void **)&s->moves, &s->cap_moves, s->nmove + (uint32_t)cnt, sizeof *s->moves))
        return false;
    memcpy(s->moves + s->nmove, moves, (size_t)cnt * sizeof *moves);
    s->node[n].moves = s->nmove;
    s->node[n].nmoves = (uint32_t)cnt;
    s->nmove += (uint32_t)cnt;
    return push(s, min_child(s, n, 0), SS_LIVE, h);
}

/* A SOLVED state of a node other than the root. */
static bool solved(ss *s, uint32_t n, gts_score h)
{
    uint32_t p = s->node[n].parent;
    if (s->node[n].ply % 2 == 1) {
        s->node[p].closed = true;
        return push(s, p, SS_SOLVED, h);
    }
    uint32_t next = s->node[n].index + 1;
    if (next < s->node[p].nmoves)
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
    s.c = c;
    s.alloc = &run->engine->alloc;
    gts_score value = 0;
    uint32_t root = new_node(&s, SS_NONE, 0, GTS_MOVE_NONE, depth);
    if (root == SS_NONE)
        return 0; /* out of memory, recorded */
    s.cur = root;
    bool ok = push(&s, root, SS_LIVE, GTS_SCORE_INF);
    while (ok && s.nheap > 0) {
        ss_state x = pop(&s);
        if (gts__enter(c, s.node[x.node].ply)) {
            ok = false;
            break;
        }
        if (dead(&s, x.node))
            continue;
        if (x.status == SS_LIVE) {
            ok = expand(&s, x.node, x.h);
        } else if (x.node == root) {
            value = x.h;
            break;
        } else {
            /* The root's last step: remember which child solved it. */
            if (s.node[x.node].parent == root) {
                c->root_move = s.node[x.node].move;
                c->root_has_move = true;
            }
            ok = solved(&s, x.node, x.h);
        }
    }
    /* Back to the root, whatever happened (a failed undo is recorded). */
    undo_to_ply(&s, 0);
    if (ok && !gts__aborted(c) && c->root_has_move) {
        c->pv[0][0] = c->root_move;
        c->pv_len[0] = 1;
    }
    gts__free(s.alloc, s.node, (size_t)s.cap_nodes * sizeof *s.node);
    gts__free(s.alloc, s.heap, (size_t)s.cap_heap * sizeof *s.heap);
    gts__free(s.alloc, s.moves, (size_t)s.cap_moves * sizeof *s.moves);
    return ok && !gts__aborted(c) ? value : 0;
}
