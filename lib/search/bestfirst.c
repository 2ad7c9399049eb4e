/*
 * bestfirst.c - storage of the best-first algorithms' trees (bestfirst.h).
 */
#include "search/bestfirst.h"

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

bool gts__bf_children(gts__ctx *c, uint32_t parent, int ply, int depth, int n,
                      gts__bf_child_fn child, void *tree)
{
    const gts_move *moves = gts__moves(c, ply);
    for (int i = 0; i < n; i++) {
        gts_move m = moves[i];
        int ext = gts__extension(c, m);
        if (ext < 0 || !gts__apply(c, m))
            return false;
        gts__bf_link link = {parent, ply + 1, m};
        bool ok = child(tree, (uint32_t)i, &link, depth - 1 + ext);
        gts__undo(c, m);
        if (!ok || gts__aborted(c))
            return false;
    }
    return true;
}
