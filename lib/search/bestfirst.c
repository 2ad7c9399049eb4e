/*
 * bestfirst.c - the explicit tree of the best-first algorithms
 * (bestfirst.h): store, expansion, end of a search.
 */
#include "search/bestfirst.h"

#include <stddef.h>
#include <string.h>

bool gts__bf_grow(const gts_allocator *alloc, void **p, uint32_t *cap, uint32_t need,
                  size_t size, size_t max_bytes)
{
    if (need <= *cap)
        return true;
    uint64_t n = *cap ? (uint64_t)*cap * 2 : 256;
    while (n < need)
        n *= 2;
    if (n > UINT32_MAX / 2 || n * size > max_bytes) {
        n = max_bytes / size; /* the last step: up to the budget */
        if (n < need || n <= *cap)
            return false;
    }
    void *q = gts__malloc(alloc, (size_t)n * size);
    if (!q)
        return false;
    if (*cap)
        memcpy(q, *p, (size_t)*cap * size);
    gts__free(alloc, *p, (size_t)*cap * size);
    *p = q;
    *cap = (uint32_t)n;
    return true;
}

void gts__bf_init(gts__bf_tree *t, gts__ctx *c, const gts_allocator *alloc, size_t stride,
                  size_t max_bytes, const gts__bf_hooks *hooks)
{
    memset(t, 0, offsetof(gts__bf_tree, path));
    t->c = c;
    t->alloc = alloc;
    t->stride = stride;
    t->max_bytes = max_bytes;
    t->hooks = hooks;
}

bool gts__bf_start(gts__bf_tree *t, const gts__run *run, size_t stride,
                   const gts__bf_hooks *hooks, int depth, gts_result *r)
{
    const gts_engine *e = run->engine;
    static const gts__opt_row tree_mb = GTS__OPT_ROW_TREE_MB; /* algos.h */
    gts__bf_init(t, run->ctx[0], &e->alloc, stride, (size_t)gts__engine_opt(e, &tree_mb) << 20,
                 hooks);
    if (gts__bf_add(t, GTS__BF_NONE, GTS_MOVE_NONE) == GTS__BF_NONE) {
        r->flags |= GTS_RESULT_MEMORY_LIMIT;
        return false;
    }
    gts__bf_node_at(t, 0)->depth = depth;
    return true;
}

void gts__bf_free(gts__bf_tree *t)
{
    gts__free(t->alloc, t->base, (size_t)t->cap * t->stride);
    t->base = NULL;
    t->cap = t->nnodes = 0;
}

bool gts__bf_reserve(gts__bf_tree *t, uint32_t n)
{
    void *p = t->base;
    if (!gts__bf_grow(t->alloc, &p, &t->cap, t->nnodes + n, t->stride, t->max_bytes)) {
        t->full = true;
        return false;
    }
    t->base = p;
    return true;
}

uint32_t gts__bf_add(gts__bf_tree *t, uint32_t parent, gts_move move)
{
    if (!gts__bf_reserve(t, 1))
        return GTS__BF_NONE;
    uint32_t x = t->nnodes++;
    gts__bf_link *l = gts__bf_at(t, x);
    memset(l, 0, t->stride);
    l->parent = parent;
    l->ply = parent == GTS__BF_NONE ? 0 : gts__bf_link_at(t, parent)->ply + 1;
    l->move = move;
    return x;
}

bool gts__bf_expand(gts__bf_tree *t, uint32_t x)
{
    gts__ctx *c = t->c;
    if (!gts__bf_goto(t, x))
        return false;
    gts__bf_node *nd = gts__bf_node_at(t, x);
    int ply = nd->link.ply, depth = nd->depth;
    int n = gts__generate(c, ply, false);
    if (n < 0)
        return false;
    if (n == 0) {
        t->hooks->over(t, x);
        nd->expanded = true;
        if (nd->link.parent != GTS__BF_NONE)
            t->hooks->back_up(t, nd->link.parent);
        return !gts__aborted(c);
    }
    if (!gts__bf_reserve(t, (uint32_t)n))
        return false;
    /* The children, each created with the state at it; kept only if all
     * of them are. */
    uint32_t first = t->nnodes;
    memset(gts__bf_at(t, first), 0, (size_t)n * t->stride);
    const gts_move *moves = gts__moves(c, ply);
    for (int i = 0; i < n; i++) {
        gts_move m = moves[i];
        int ext = gts__extension(c, m);
        if (ext < 0 || !gts__apply(c, m))
            return false;
        gts__bf_node *ch = gts__bf_node_at(t, first + (uint32_t)i);
        ch->link = (gts__bf_link){x, ply + 1, m};
        ch->depth = depth - 1 + ext;
        bool ok = t->hooks->init(t, first + (uint32_t)i);
        gts__undo(c, m);
        if (!ok || gts__aborted(c))
            return false;
    }
    t->nnodes += (uint32_t)n;
    nd = gts__bf_node_at(t, x);
    nd->first = first;
    nd->n = (uint32_t)n;
    nd->expanded = true;
    t->hooks->back_up(t, x);
    return true;
}

bool gts__bf_finish(gts__bf_tree *t, gts_result *r)
{
    gts__ctx *c = t->c;
    gts__bf_rewind(t, 0);
    if (t->full)
        r->flags |= GTS_RESULT_MEMORY_LIMIT;
    return !(gts__aborted(c) && gts__run_why(c->shared) == 0 && !t->full);
}

void gts__bf_line(const gts__bf_tree *t, uint32_t x,
                  uint32_t (*next)(const gts__bf_tree *t, uint32_t x), gts_result *r)
{
    r->pv_length = 0;
    while (r->pv_length < GTS_MAX_PLY) {
        r->pv[r->pv_length++] = gts__bf_link_at(t, x)->move;
        if (gts__bf_node_at(t, x)->n == 0)
            break;
        x = next(t, x);
    }
}
