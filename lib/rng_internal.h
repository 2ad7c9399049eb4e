/*
 * rng_internal.h - the library's one random-number generator (internal):
 * splitmix64 (Steele, Lea & Flood 2014), a 64-bit state advanced by the
 * golden-ratio increment and a finaliser that mixes it. Each user keeps its
 * own state (a worker's, a check run's, a calibration's): no global state.
 */
#ifndef GTS_RNG_INTERNAL_H
#define GTS_RNG_INTERNAL_H

#include <stdint.h>

#define GTS__GOLDEN UINT64_C(0x9e3779b97f4a7c15)

/* splitmix64's finaliser: a bijection of 64-bit values that mixes every bit. */
static inline uint64_t gts__mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* The next number of the stream whose state is *@s. */
static inline uint64_t gts__rng_next(uint64_t *s)
{
    return gts__mix64(*s += GTS__GOLDEN);
}

#endif
