/*
 * alloc.c - the engine's allocator: the default one and aligned blocks.
 *
 * What: thin wrappers that turn the user's gts_allocator (allocate/release
 * with the size, ck_malloc style) into what the library needs: zeroed
 * arrays with overflow checks, and cache-line aligned blocks. An aligned
 * block over-allocates by @align bytes and keeps the distance to the real
 * start in the byte just before the aligned address, so release() gets back
 * the exact pointer and size it handed out.
 *
 * Concurrency contract: stateless; as thread-safe as the user's allocator,
 * which the public contract requires to be thread-safe.
 */
#include "alloc_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
