/*
 * deque.c - Chase-Lev work-stealing deque on Concurrency Kit atomics.
 *
 * What: a growable circular array of pointers with two ends. The owner
 * pushes and pops at the bottom (LIFO); thieves take from the top (FIFO).
 * Algorithm: Chase & Lev, "Dynamic Circular Work-Stealing Deque" (SPAA
 * 2005); memory orders: Le, Pop, Cohen & Zappa Nardelli, "Correct and
 * Efficient Work-Stealing for Weak Memory Models" (PPoPP 2013), expressed
 * with the helpers of atomic_internal.h (ck_pr + TSan annotations).
 *
 * Concurrency contract:
 *   push, pop      the owner thread only (one at a time, by definition);
 *   steal, size    any thread, concurrently with everything but init/destroy;
 *   init, destroy  single-threaded, before/after every other use.
 * Items must not be NULL (NULL means "nothing").
 *
 * Invariants:
 *   - top and bottom only grow, except the owner's transient bottom-1 in pop
 *     (restored when the deque turns out empty or the last item is raced).
 *     The live items are exactly the indices [top, bottom).
 *   - An item is taken exactly once: a thief takes index t only by CASing
 *     top from t to t+1; the owner pops index b < top without any CAS
 *     (bottom was lowered and fenced first, so no thief can reach it) and
 *     CASes top only when b == top (the last item, contended).
 *   - The array is replaced only by the owner, on push into a full array:
 *     the live range is copied into a 2x array which is then published with
 *     a release store. The old array is never written again and never freed
 *     before destroy (it goes on the owner's retired list), so a thief that
 *     still reads it sees the right item or loses its CAS: no ABA, no
 *     use-after-free, no hazard pointers needed.
 *
 * Happens-before edges (each is a release/acquire pair on one address, so
 * ThreadSanitizer sees it through the annotations):
 *   push   --bottom-->  steal   the item (and what it points to) is visible
 *                               to the thief that takes it;
 *   grow   --array--->  steal   the new array's header and copied slots;
 *   steal  --top----->  push    the thief has read a slot before the owner
 *                               reuses it after wrap-around.
 * The two seq_cst fences (pop: after lowering bottom; steal: between
 * reading top and bottom) are the Dekker handshake that decides who gets the
 * last item; TSan does not model fences, but no plain data is published
 * through them, only the ownership decision, which the CAS on top settles.
 */
#include "deque_internal.h"

#include <stdlib.h>

#include <gts/common.h>

#include "atomic_internal.h"

_Static_assert(sizeof(void *) == sizeof(uint64_t), "deque slots are 64-bit words");
_Static_assert(offsetof(struct gts__deque, bottom) - offsetof(struct gts__deque, top)
                   >= GTS__CACHELINE,
               "top and bottom must be on different cache lines");

/* Signed distance bottom - top: the number of items (negative transiently). */
static inline int64_t span(uint64_t bottom, uint64_t top)
{
    return (int64_t)(bottom - top);
}

static size_t array_bytes(uint64_t n)
{
    return sizeof(gts__deque_array) + (size_t)n * sizeof(void *);
}

static gts__deque_array *array_new(const gts_allocator *alloc, uint32_t log2)
{
    size_t n = (size_t)1 << log2;
    gts__deque_array *a = gts__malloc(alloc, array_bytes(n));

    if (a == NULL)
        return NULL;
    a->mask = (uint64_t)n - 1;
    a->retired = NULL;
    return a;
}

int gts__deque_init(gts__deque *d, uint32_t log2_capacity, const gts_allocator *alloc)
{
    d->alloc = alloc; /* NULL: the gts__ helpers use malloc/free */
    if (log2_capacity < 1)
        log2_capacity = 1;
    if (log2_capacity > GTS__DEQUE_LOG2_MAX)
        log2_capacity = GTS__DEQUE_LOG2_MAX;

    d->top = 0;
    d->bottom = 0;
    d->array = array_new(d->alloc, log2_capacity);
    return d->array != NULL ? 0 : GTS_ENOMEM;
}

void gts__deque_destroy(gts__deque *d)
{
    gts__deque_array *a;

    if (d == NULL)
        return;
    a = d->array;
    while (a != NULL) {
        gts__deque_array *next = a->retired;
        gts__free(d->alloc, a, array_bytes(a->mask + 1));
        a = next;
    }
    d->array = NULL;
    d->top = 0;
    d->bottom = 0;
}

/*
 * Owner only: replace the full array @a (live range [top, bottom)) by one
 * twice as large. Returns the new array, or NULL (deque unchanged).
 */
static gts__deque_array *grow(gts__deque *d, gts__deque_array *a,
                              uint64_t top, uint64_t bottom)
{
    uint64_t size = a->mask + 1;
    uint32_t log2 = 0;
    gts__deque_array *na;

    while (((uint64_t)1 << log2) < size)
        log2++;
    if (log2 + 1 > GTS__DEQUE_LOG2_MAX)
        return NULL;
    na = array_new(d->alloc, log2 + 1);
    if (na == NULL)
        return NULL;

    /* The slots of a are stable: only this thread writes them. Thieves may
     * read them concurrently, hence the relaxed atomic accesses. The copy
     * into na is private until the release store below publishes it. */
    for (uint64_t i = top; i != bottom; i++)
        na->slots[i & na->mask] = gts__atomic_load_relaxed_ptr(&a->slots[i & a->mask]);

    na->retired = a;
    gts__atomic_store_release_ptr(&d->array, na);
    return na;
}

int gts__deque_push(gts__deque *d, void *item)
{
    uint64_t b = gts__atomic_load_relaxed_64(&d->bottom);
    /* Acquire: a thief that advanced top past a slot has finished reading
     * it before we overwrite it (wrap-around). */
    uint64_t t = gts__atomic_load_acquire_64(&d->top);
    gts__deque_array *a = gts__atomic_load_relaxed_ptr(&d->array);

    if (span(b, t) > (int64_t)a->mask) {
        a = grow(d, a, t, b);
        if (a == NULL)
            return GTS_ENOMEM;
    }
    gts__atomic_store_relaxed_ptr(&a->slots[b & a->mask], item);
    /* Release: the slot, and everything the owner wrote before the push
     * (the task's contents), happen before a thief's acquire of bottom. */
    gts__atomic_store_release_64(&d->bottom, b + 1);
    return 0;
}

void *gts__deque_pop(gts__deque *d)
{
    uint64_t b = gts__atomic_load_relaxed_64(&d->bottom) - 1;
    gts__deque_array *a = gts__atomic_load_relaxed_ptr(&d->array);
    uint64_t t;
    void *item;

    /* Claim index b, then look at top: the fence orders the store before the
     * load, so a concurrent thief either sees the lowered bottom or we see
     * its incremented top (or both). */
    gts__atomic_store_relaxed_64(&d->bottom, b);
    gts__atomic_fence_seq_cst();
    t = gts__atomic_load_relaxed_64(&d->top);

    if (span(b, t) < 0) {
        /* Empty: restore bottom. */
        gts__atomic_store_relaxed_64(&d->bottom, b + 1);
        return NULL;
    }

    item = gts__atomic_load_relaxed_ptr(&a->slots[b & a->mask]);
    if (b != t)
        return item; /* more than one item: index b is ours alone */

    /* The last item: race the thieves for it on top. Either way the deque
     * ends empty with top == bottom == t + 1. */
    if (!gts__atomic_cas_64(&d->top, t, t + 1))
        item = NULL;
    gts__atomic_store_relaxed_64(&d->bottom, b + 1);
    return item;
}

void *gts__deque_steal(gts__deque *d)
{
    uint64_t t = gts__atomic_load_acquire_64(&d->top);
    uint64_t b;
    gts__deque_array *a;
    void *item;

    /* Order the top load before the bottom load (pairs with pop's fence). */
    gts__atomic_fence_seq_cst();
    /* Acquire: pairs with the push that published index t. */
    b = gts__atomic_load_acquire_64(&d->bottom);
    if (span(b, t) <= 0)
        return NULL;

    /* Loaded after bottom: an array at least as new as the one the push of
     * index t wrote into (grow publishes the array before that push). */
    a = gts__atomic_load_acquire_ptr(&d->array);
    item = gts__atomic_load_relaxed_ptr(&a->slots[t & a->mask]);
    /* The item is ours only if top is still t. */
    if (!gts__atomic_cas_64(&d->top, t, t + 1))
        return NULL;
    return item;
}

int64_t gts__deque_size(gts__deque *d)
{
    uint64_t t = gts__atomic_load_relaxed_64(&d->top);
    uint64_t b = gts__atomic_load_relaxed_64(&d->bottom);
    int64_t n = span(b, t);

    return n > 0 ? n : 0;
}
