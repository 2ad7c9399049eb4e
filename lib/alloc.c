/*
 * alloc.c - the engine's allocator: the default one and aligned blocks.
 *
 * What: thin wrappers that turn the user's gts_allocator (allocate/release
 * with the size, ck_malloc style) into what the library needs: zeroed
 * arrays with overflow checks, and cache-line aligned blocks. An aligned
 * block over-allocates by @align bytes and keeps the distance to the real
 * start in the byte just before the aligned address, so release() gets back
 * the exact pointer and size it handed out. A big zeroed block (a
 * transposition table) asks the kernel for huge pages before it is zeroed
 * (Linux, transparent huge pages in "madvise" mode): 64 MiB then costs 32
 * page faults instead of 16384 (most of an engine's creation time), and a
 * table probe fewer TLB misses. Only advice: refused or ignored (another
 * allocator's memory, a kernel without THP) it changes nothing.
 *
 * Concurrency contract: stateless; as thread-safe as the user's allocator,
 * which the public contract requires to be thread-safe.
 */
#include "alloc_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

static void *default_allocate(size_t size, void *user)
{
    (void)user;
    return malloc(size);
}

static void default_release(void *p, size_t size, void *user)
{
    (void)size;
    (void)user;
    free(p);
}

const gts_allocator gts__default_allocator = {
    sizeof(gts_allocator), default_allocate, default_release, NULL,
};

/* Internal callers without an engine (tests, contexts made by hand) pass
 * NULL for the C library's allocator. */
static const gts_allocator *or_default(const gts_allocator *a)
{
    return a ? a : &gts__default_allocator;
}

void *gts__malloc(const gts_allocator *a, size_t size)
{
    a = or_default(a);
    return size ? a->allocate(size, a->user) : NULL;
}

void *gts__calloc(const gts_allocator *a, size_t n, size_t size)
{
    a = or_default(a);
    if (n == 0 || size == 0 || n > SIZE_MAX / size)
        return NULL;
    void *p = a->allocate(n * size, a->user);
    if (p)
        memset(p, 0, n * size);
    return p;
}

void gts__free(const gts_allocator *a, void *p, size_t size)
{
    a = or_default(a);
    if (p)
        a->release(p, size, a->user);
}

/* Blocks from this size on are worth huge pages (2 MiB on x86-64). */
#define HUGE_ADVICE_MIN ((size_t)8 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

static void advise_huge(void *p, size_t size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (size < HUGE_ADVICE_MIN)
        return;
    /* The 2 MiB-aligned part inside the block: only there can the kernel
     * use huge pages, and madvise() wants a page-aligned start. */
    uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + size) & ~(HUGE_PAGE - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)size;
#endif
}

void *gts__calloc_aligned(const gts_allocator *a, size_t size, size_t align)
{
    a = or_default(a);
    if (size == 0 || size > SIZE_MAX - align)
        return NULL;
    unsigned char *raw = a->allocate(size + align, a->user);
    if (!raw)
        return NULL;
    /* At least one byte, at most @align bytes in front of the block. */
    size_t gap = align - ((uintptr_t)raw & (align - 1));
    unsigned char *p = raw + gap;
    p[-1] = (unsigned char)(gap - 1);
    advise_huge(p, size);
    memset(p, 0, size);
    return p;
}

void gts__free_aligned(const gts_allocator *a, void *p, size_t size, size_t align)
{
    a = or_default(a);
    if (!p)
        return;
    unsigned char *q = p;
    size_t gap = (size_t)q[-1] + 1;
    a->release(q - gap, size + align, a->user);
}
