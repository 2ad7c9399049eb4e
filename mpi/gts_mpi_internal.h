/*
 * gts_mpi_internal.h - what libgts-mpi's two searches share (internal):
 * APHID (gts_mpi.c) and distributed MCTS (gts_mpi_mcts.c).
 */
#ifndef GTS_MPI_INTERNAL_H
#define GTS_MPI_INTERNAL_H

#include "gts_mpi.h"
#include "struct_internal.h"

#include <time.h>

/* Monotonic time in microseconds. */
static inline uint64_t gts__mpi_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Whether a collective entry point can run on @comm: GTS_ENOTSUP before
 * MPI_Init or after MPI_Finalize, GTS_EINVAL for MPI_COMM_NULL. Checked by
 * each rank alone (without a communicator the ranks cannot agree). */
static inline gts_status gts__mpi_usable(MPI_Comm comm)
{
    int inited = 0, finalized = 0;
    MPI_Initialized(&inited);
    MPI_Finalized(&finalized);
    if (!inited || finalized)
        return GTS_ENOTSUP;
    return comm == MPI_COMM_NULL ? GTS_EINVAL : GTS_OK;
}

/* Keys the ranks compare to agree they hold the same thing (a root, the
 * shared nodes' layout): FNV-1a, from GTS__MPI_KEY_SEED, mixing in 64-bit
 * values one at a time. */
#define GTS__MPI_KEY_SEED 14695981039346656037ull

static inline uint64_t gts__mpi_key_mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 1099511628211ull;
}

/* @h with @n moves mixed in, in order. */
static inline uint64_t gts__mpi_key_moves(uint64_t h, const gts_move *moves, int n)
{
    for (int i = 0; i < n; i++)
        h = gts__mpi_key_mix(h, (uint64_t)moves[i]);
    return h;
}

/* Give the caller as much of @res as its layout holds (its thread_nodes
 * inputs kept). */
static inline void gts__mpi_result_out(gts_result *result, gts_result *res)
{
    size_t n;
    if (result && gts__struct_check(gts__desc_result(), result, &n, NULL) == GTS_OK) {
        res->thread_nodes = result->thread_nodes;
        res->thread_nodes_capacity = result->thread_nodes_capacity;
        gts__struct_out(result, res, n);
    }
}

#endif
