/*
 * mpi_check.h - what the C tests of libgts-mpi share (test_mpi.c,
 * test_mpi_mcts.c): this rank and the communicator's size, the failure
 * count and CHECK, and the start and end of a mode run under mpirun
 * (every rank's failures summed, rank 0's verdict, one exit status for
 * the job). Included once by each test program.
 */
#ifndef GTS_MPI_CHECK_H
#define GTS_MPI_CHECK_H

#include "gts_mpi.h"

#include <stdbool.h>
#include <stdio.h>

static int rank, size, failures;
static bool use_mpi; /* false in the modes that run without mpirun */

#define CHECK(cond, ...)                                                           \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "rank %d: FAIL %s:%d: ", rank, __FILE__, __LINE__);    \
            fprintf(stderr, __VA_ARGS__);                                          \
            fputc('\n', stderr);                                                   \
            failures++;                                                            \
        }                                                                          \
    } while (0)

/* MPI with threads funnelled through this one; rank and size. */
static inline void mpi_check_begin(int *argc, char ***argv)
{
    int provided = 0;
    use_mpi = true;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
}

/* "PROG MODE on N ranks: ok|FAILED" from rank 0, MPI finalised; the exit
 * status, the same on every rank. */
static inline int mpi_check_end(const char *prog, const char *mode)
{
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s %s on %d rank%s: %s\n", prog, mode, size, size == 1 ? "" : "s",
               total ? "FAILED" : "ok");
    MPI_Finalize();
    return total ? 1 : 0;
}

#endif
