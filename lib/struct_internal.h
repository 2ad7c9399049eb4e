/*
 * struct_internal.h - reading and writing the caller's versioned structs
 * (those that start with struct_size), by the rule of gts_struct_id in
 * common.h (internal).
 *
 * A caller's struct may be older (smaller) or newer (larger) than the
 * library's. Inputs are copied into a full-size struct of the library's own
 * that holds the defaults; outputs are built in one and copied back, only
 * as many bytes as the caller has.
 */
#ifndef GTS_STRUCT_INTERNAL_H
#define GTS_STRUCT_INTERNAL_H

#include <gts/common.h>
#include <string.h>

/* Most unknown (zero) tail bytes accepted from a newer caller: a bound on
 * what is read past the library's sizeof when struct_size is garbage. */
#define GTS__STRUCT_TAIL_MAX 4096

/* Check the struct_size of @s (a caller's struct): GTS_OK and, in @n, the
 * bytes the library may read or write (min(struct_size, @ours)), or
 * GTS_ESTRUCT for a size below @min or a larger one with a nonzero tail. */
static inline gts_status gts__struct_check(const void *s, size_t ours, size_t min, size_t *n)
{
    size_t size;
    memcpy(&size, s, sizeof size);
    if (size < min)
        return GTS_ESTRUCT;
    if (size > ours) {
        if (size - ours > GTS__STRUCT_TAIL_MAX)
            return GTS_ESTRUCT;
        const unsigned char *tail = (const unsigned char *)s + ours;
        for (size_t i = 0; i < size - ours; i++)
            if (tail[i] != 0)
                return GTS_ESTRUCT;
        size = ours;
    }
    *n = size;
    return GTS_OK;
}

/* Copy the caller's struct @src over @dst, a struct of @ours bytes that
 * holds the defaults; dst's struct_size becomes @ours. */
static inline gts_status gts__struct_in(void *dst, size_t ours, const void *src, size_t min)
{
    size_t n;
    gts_status rc = gts__struct_check(src, ours, min, &n);
    if (rc != GTS_OK)
        return rc;
    memcpy(dst, src, n);
    memcpy(dst, &ours, sizeof ours);
    return GTS_OK;
}

/* Write the first @n bytes of the library's struct @src (n from
 * gts__struct_check) to the caller's @dst, keeping dst's struct_size. */
static inline void gts__struct_out(void *dst, const void *src, size_t n)
{
    memcpy((char *)dst + sizeof(size_t), (const char *)src + sizeof(size_t),
           n - sizeof(size_t));
}

#endif
