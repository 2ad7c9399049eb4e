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
