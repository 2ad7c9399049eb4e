/*
 * alloc_internal.h - every allocation of the library goes through the
 * engine's gts_allocator (internal).
 *
 * Sizes are remembered by the callers and passed back on free, as the
 * gts_allocator contract promises the user's release() function.
 */
#ifndef GTS_ALLOC_INTERNAL_H
#define GTS_ALLOC_INTERNAL_H

#include <stddef.h>
#include <gts/engine.h>

/* The C library's malloc/free as a gts_allocator. */
extern const gts_allocator gts__default_allocator;

/* @a NULL means gts__default_allocator in every function below. */

/* @size bytes or NULL; NULL also for size 0. */
void *gts__malloc(const gts_allocator *a, size_t size);
/* @n * @size zeroed bytes, or NULL (also on overflow or a zero size). */
void *gts__calloc(const gts_allocator *a, size_t n, size_t size);
/* Free what gts__malloc/gts__calloc(@size) returned; NULL is accepted. */
void gts__free(const gts_allocator *a, void *p, size_t size);

/* @size zeroed bytes aligned to @align (a power of two, 8..128), or NULL. */
void *gts__calloc_aligned(const gts_allocator *a, size_t size, size_t align);
/* Free what gts__calloc_aligned(@size, @align) returned; NULL is accepted. */
void gts__free_aligned(const gts_allocator *a, void *p, size_t size, size_t align);

#endif
