/*
 * deque_internal.h - Chase-Lev work-stealing deque on ck_pr (internal).
 *
 * One owner pushes and pops at the bottom (LIFO); any number of thieves steal
 * from the top (FIFO). Elements are pointers. The array grows on push (old
 * arrays are kept until the deque is freed, so a racing thief never reads
 * freed memory). Chase & Lev, "Dynamic Circular Work-Stealing Deque" (2005),
 * with the C11 memory orders of Le et al. (2013) mapped to ck_pr fences
 * through atomic_internal.h (so ThreadSanitizer sees the push->steal edge).
 * Retired arrays cost at most as much as the current one (sizes double).
 */
#ifndef GTS_DEQUE_INTERNAL_H
#define GTS_DEQUE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "atomic_internal.h" /* GTS__CACHELINE */
#include "alloc_internal.h"

typedef struct gts__deque gts__deque;
typedef struct gts__deque_array gts__deque_array;

/* Initial array size used by the pool: 2^8 = 256 pointers (2 KiB). */
#define GTS__DEQUE_LOG2_DEFAULT 8u
/* Largest array: 2^30 pointers. gts__deque_init() clamps to [1, this]. */
#define GTS__DEQUE_LOG2_MAX 30u

/* A circular array of 2^n slots; index i lives in slots[i & mask]. */
struct gts__deque_array {
    uint64_t mask;             /* size - 1; immutable after publication */
    gts__deque_array *retired; /* owner only: array this one replaced */
    void *slots[];             /* ck_pr (gts__atomic_*_ptr) access only */
};

/*
 * top and bottom are monotonically increasing 64-bit indices (they never
 * wrap in practice); the deque holds the items with indices [top, bottom).
 * top is CASed by thieves and by the owner (last item); bottom and array are
 * written by the owner only. They sit on separate cache lines so that the
 * owner's pushes do not bounce the line the thieves CAS.
 */
struct gts__deque {
    _Alignas(GTS__CACHELINE) uint64_t top;
    _Alignas(GTS__CACHELINE) uint64_t bottom;
    gts__deque_array *array;   /* current array (release-published) */
    const gts_allocator *alloc; /* owner only: arrays come from here */
};

/* 0 or GTS_ENOMEM. log2_capacity is clamped to [1, GTS__DEQUE_LOG2_MAX].
 * Arrays come from @alloc (NULL: malloc/free), which must outlive @d.
 * Not thread-safe; publish the deque to thieves afterwards (e.g. by
 * creating the threads that use it). */
int gts__deque_init(gts__deque *d, uint32_t log2_capacity, const gts_allocator *alloc);
/* Frees the current and all retired arrays. No thread may still use @d.
 * Safe on a zeroed or already destroyed deque. */
void gts__deque_destroy(gts__deque *d);
/* Owner only. @item must not be NULL. 0, or GTS_ENOMEM when the array
 * cannot grow (the deque is unchanged then). */
int gts__deque_push(gts__deque *d, void *item);
/* Owner only. NULL when empty. */
void *gts__deque_pop(gts__deque *d);
/* Any thread. NULL when empty or when it lost a race (caller may retry). */
void *gts__deque_steal(gts__deque *d);
/* Approximate size, any thread. */
int64_t gts__deque_size(gts__deque *d);

#endif
