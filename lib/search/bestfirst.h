/*
 * bestfirst.h - moving the game state around an explicit tree (internal),
 * for the best-first algorithms that keep one (Stockman's SSS*, B*).
 *
 * A tree node starts with a gts__bf_link (parent, ply, move from the
 * parent); nodes live in one array of any node type (@stride bytes each). The
 * walker knows the node the game state is at and moves it to another node
 * by undoing up to their common ancestor and applying down. These applies
 * are travel, not search: they are not counted as nodes.
 */
#ifndef GTS_SEARCH_BESTFIRST_H
#define GTS_SEARCH_BESTFIRST_H

#include "search/node.h"

#define GTS__BF_NONE UINT32_MAX

typedef struct gts__bf_link {
    uint32_t parent; /* GTS__BF_NONE for the root */
    int32_t ply;
    gts_move move;   /* from the parent */
} gts__bf_link;

typedef struct gts__bf_walk {
    gts__ctx *c;
    const char *base;   /* the node array (update after it moves) */
    size_t stride;      /* bytes per node */
    uint32_t cur;       /* the node the game state is at */
    uint32_t path[GTS_MAX_PLY + 1];
} gts__bf_walk;

static inline const gts__bf_link *gts__bf_link_of(const gts__bf_walk *w, uint32_t n)
{
    return (const gts__bf_link *)(const void *)(w->base + (size_t)n * w->stride);
}

/* Undo moves until the state is at the current node's ancestor at @ply.
 * False after a failed undo (recorded; the others are still undone). */
static inline bool gts__bf_undo_to(gts__bf_walk *w, int ply)
{
    gts__ctx *c = w->c;
    bool ok = true;
    while (gts__bf_link_of(w, w->cur)->ply > ply) {
        const gts__bf_link *l = gts__bf_link_of(w, w->cur);
        int rc = c->game->undo(c->state, l->move, c->user);
        if (rc < 0 && ok) {
            gts__fail(c, GTS_ECALLBACK, rc);
            ok = false;
        }
        w->cur = l->parent;
    }
    return ok;
}

/* Move the state to node @target; false after a failure (recorded). */
static inline bool gts__bf_go(gts__bf_walk *w, uint32_t target)
{
    gts__ctx *c = w->c;
    int len = 0;
    uint32_t n = target, cur = w->cur;
    while (gts__bf_link_of(w, n)->ply > gts__bf_link_of(w, cur)->ply) {
        w->path[len++] = n;
        n = gts__bf_link_of(w, n)->parent;
    }
    while (gts__bf_link_of(w, cur)->ply > gts__bf_link_of(w, n)->ply)
        cur = gts__bf_link_of(w, cur)->parent;
    while (cur != n) {
        w->path[len++] = n;
        n = gts__bf_link_of(w, n)->parent;
        cur = gts__bf_link_of(w, cur)->parent;
    }
    if (!gts__bf_undo_to(w, gts__bf_link_of(w, n)->ply))
        return false;
    while (len > 0) {
        uint32_t next = w->path[--len];
        int rc = c->game->apply(c->state, gts__bf_link_of(w, next)->move, c->user);
        if (rc < 0) {
            gts__fail(c, GTS_ECALLBACK, rc);
            return false;
        }
        w->cur = next;
    }
    return true;
}

/* The value minimax gives a node it does not expand, from the side to move
 * (the state is at the node): quiescence at remaining @depth <= 0 when it is
 * on, else evaluate() (also at GTS_MAX_PLY, like gts__minimax). */
static inline gts_score gts__bf_static_value(gts__ctx *c, int ply, int depth)
{
    if (c->use_qs && ply < GTS_MAX_PLY && depth <= 0)
        return gts__qsearch(c, ply, -GTS_SCORE_INF, GTS_SCORE_INF);
    return gts__evaluate(c, ply);
}

/* One new child, the state at it: @k its index among the moves, @link
 * its parent/ply/move, @depth its remaining depth. False stops the loop. */
typedef bool (*gts__bf_child_fn)(void *tree, uint32_t k, const gts__bf_link *link, int depth);

/* The children of an expansion: for each of the @n moves gts__generate left
 * at @ply (the state at node @parent, remaining @depth), its extension,
 * apply, @child, undo. False after a failure (recorded) or when @child
 * returned false. */
bool gts__bf_children(gts__ctx *c, uint32_t parent, int ply, int depth, int n,
                      gts__bf_child_fn child, void *tree);

/* Grow an array of @size-byte elements to hold @need (doubling, from
 * @alloc, at most @max_bytes in all); false when it cannot (nothing is
 * recorded: the caller decides whether that is a failure). */
bool gts__bf_grow(const gts_allocator *alloc, void **p, uint32_t *cap, uint32_t need,
                  size_t size, size_t max_bytes);

#endif
