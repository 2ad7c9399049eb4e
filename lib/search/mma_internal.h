/*
 * mma_internal.h - the arithmetic of Rivest's min/max approximation
 * (mma.c), exposed for its tests: the map into (0, 1) and the penalties,
 * all in log space (see mma.c's head comment for the formulas).
 */
#ifndef GTS_SEARCH_MMA_INTERNAL_H
#define GTS_SEARCH_MMA_INTERNAL_H

#include <gts/common.h>
#include <stddef.h>
#include <stdint.h>

/* log u(v), u(v) = 1 / (1 + exp(-v / scale)): finite for every score. */
double gts__mma_log_unit(gts_score v, double scale);

/* log M_q of the n >= 1 values whose logs are at @la, @stride bytes apart:
 * (LSE_i(q la_i) - log n) / q, q != 0. */
double gts__mma_log_mean(const double *la, size_t stride, uint32_t n, double q);

/* The penalty -log D = log n - (q - 1)(la_child - lm_parent) of an edge
 * from a node with @n children and exponent @q, clamped at 0. */
double gts__mma_penalty(double la_child, double lm_parent, uint32_t n, double q);

#endif
