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

/* ---- the pinned store ---------------------------------------------------- */

void gts__bf_pins_init(gts__bf_pins *p, const gts_allocator *alloc, size_t block,
                       uint64_t max_bytes, uint32_t *full)
{
    memset(p, 0, sizeof *p);
    p->alloc = alloc;
    p->block = block;
    p->max_bytes = max_bytes;
    p->full = full;
    pthread_mutex_init(&p->lock, NULL);
}

void gts__bf_pins_end(gts__bf_pins *p, gts__bf_blocks *spare, uint64_t cap)
{
    gts__bf_spare_give(spare, p->spare, p->block, cap, p->alloc);
    p->spare = NULL;
    pthread_mutex_destroy(&p->lock);
}

/* A spare block from @s, or NULL (its bytes uncounted by the caller). */
static gts__bf_block *spare_pop(gts__bf_blocks *s)
{
    gts__bf_block *b = s ? s->head : NULL;
    if (b) {
        s->head = b->next;
        s->bytes -= b->size;
    }
    return b;
}

void gts__bf_pins_take_spare(gts__bf_pins *p, gts__bf_blocks *spare)
{
    for (gts__bf_block *b; (b = spare_pop(spare)) != NULL;) {
        b->next = p->spare;
        p->spare = b;
    }
}

/* A spare block of @p for a worker, or NULL: the lock is held for a pop
 * only, never across the allocator. */
static gts__bf_block *pins_spare(gts__bf_pins *p)
{
    if (!gts__atomic_load_relaxed_ptr(&p->spare))
        return NULL;
    pthread_mutex_lock(&p->lock);
    gts__bf_block *b = p->spare;
    if (b)
        gts__atomic_store_relaxed_ptr(&p->spare, b->next);
    pthread_mutex_unlock(&p->lock);
    return b;
}

void *gts__bf_pin_more(gts__bf_pins *p, gts__bf_cursor *cur, size_t size, gts__ctx *c)
{
    if (gts__atomic_load_relaxed_32(p->full))
        return NULL;
    /* A whole block if the budget has room, else exactly what is needed. */
    size_t want = size > p->block ? size : p->block;
    for (;;) {
        uint64_t old = gts__atomic_faa_relaxed_64(&p->used, want);
        if (old + want <= p->max_bytes)
            break;
        gts__atomic_faa_relaxed_64(&p->used, (uint64_t)0 - want);
        if (want == size) {
            gts__atomic_store_relaxed_32(p->full, 1);
            return NULL;
        }
        want = size;
    }
    gts__bf_block *b = want == p->block ? pins_spare(p) : NULL;
    if (!b)
        b = gts__malloc(p->alloc, sizeof *b + want);
    if (!b) { /* out of memory, not out of budget: the caller's search fails */
        gts__atomic_faa_relaxed_64(&p->used, (uint64_t)0 - want);
        if (c)
            gts__fail(c, GTS_ENOMEM, 0);
        return NULL;
    }
    b->size = want;
    b->next = cur->blocks;
    cur->blocks = b;
    cur->bump = b->data + size;
    cur->left = want - size;
    return b->data;
}

gts__bf_blocks gts__bf_cursor_detach(gts__bf_cursor *cur)
{
    gts__bf_blocks list = {cur->blocks, 0};
    for (const gts__bf_block *b = cur->blocks; b; b = b->next)
        list.bytes += b->size;
    cur->blocks = NULL;
    cur->bump = NULL;
    cur->left = 0;
    return list;
}

void gts__bf_cursor_adopt(gts__bf_pins *p, gts__bf_cursor *cur, gts__bf_blocks *tree)
{
    gts__bf_blocks mine = gts__bf_cursor_detach(cur);
    gts__bf_blocks_join(tree, &mine);
    cur->blocks = tree->head;
    gts__atomic_faa_relaxed_64(&p->used, tree->bytes);
    tree->head = NULL;
    tree->bytes = 0;
}

void gts__bf_blocks_join(gts__bf_blocks *into, gts__bf_blocks *list)
{
    for (gts__bf_block *b = list->head, *next; b; b = next) {
        next = b->next;
        b->next = into->head;
        into->head = b;
        into->bytes += b->size;
    }
    list->head = NULL;
    list->bytes = 0;
}

void gts__bf_spare_give(gts__bf_blocks *spare, gts__bf_block *list, size_t block,
                        uint64_t cap, const gts_allocator *alloc)
{
    for (gts__bf_block *b = list, *next; b; b = next) {
        next = b->next;
        if (spare && b->size == block && spare->bytes + block <= cap) {
            b->next = spare->head;
            spare->head = b;
            spare->bytes += block;
        } else {
            gts__free(alloc, b, sizeof *b + b->size);
        }
    }
}

void gts__bf_spare_trim(gts__bf_blocks *spare, uint64_t cap, const gts_allocator *alloc)
{
    while (spare && spare->bytes > cap) {
        gts__bf_block *b = spare_pop(spare);
        gts__free(alloc, b, sizeof *b + b->size);
    }
}
