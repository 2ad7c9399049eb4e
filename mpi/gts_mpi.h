/**
 * @file gts_mpi.h
 * @brief libgts-mpi: distributed game-tree search over MPI (APHID).
 *
 * A separate library on top of libgts (which itself has no MPI
 * dependency): gts_mpi_search() searches one position with every rank of
 * an MPI communicator, using the Asynchronous Parallel Hierarchical
 * Iterative Deepening algorithm (APHID, Brockington & Schaeffer 2000).
 * Rank 0 (the master) keeps the top plies of the tree; the positions at
 * its leaves are searched by the other ranks with an ordinary serial (or
 * multi-threaded) gts_search() on their own engines, and the master
 * re-searches its small tree until every leaf value it used is known well
 * enough. A work item is the move path from the root, which a rank replays
 * with apply() on its own copy of the root and undoes afterwards: the game
 * needs no state serialisation. See doc/mpi.md.
 *
 * Include <mpi.h> before this header, or let it include it.
 */
#ifndef GTS_MPI_H
#define GTS_MPI_H

#include <mpi.h>
#include <gts/gts.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @def GTS_MPI_API
 * @brief Marks a function exported from libgts-mpi.so.
 * @since 0.2
 */
#if defined(__GNUC__) && __GNUC__ >= 4
#  define GTS_MPI_API __attribute__((visibility("default")))
#else
#  define GTS_MPI_API
#endif

/**
 * @brief Options of gts_mpi_search(); NULL means every default.
 *
 * Zero-initialise it and set struct_size to sizeof(gts_mpi_options); 0 in
 * any other field means its default. Only rank 0's master_plies is used;
 * every rank uses its own algorithm.
 * @since 0.2
 */
typedef struct gts_mpi_options {
    /** @brief sizeof(gts_mpi_options) as compiled by the caller. @since 0.2 */
    size_t struct_size;
    /**
     * @brief Algorithm of the leaf searches on this rank; 0 = #GTS_ALG_PVS.
     * Must be exact (gts_algorithm_is_exact()); a parallel one uses the
     * rank's engine threads (#GTS_OPT_THREADS). @since 0.2
     */
    gts_algorithm algorithm;
    /**
     * @brief Plies of the master's tree (1..8); 0 = 2. Capped at depth - 1:
     * a depth-1 search is one leaf searched by one rank. @since 0.2
     */
    int32_t master_plies;
} gts_mpi_options;

/**
 * @brief What one gts_mpi_search() did (rank 0 gets the totals).
 *
 * Zero-initialise it and set struct_size; rank_nodes and
 * rank_nodes_capacity are optional inputs.
 * @since 0.2
 */
typedef struct gts_mpi_stats {
    /** @brief sizeof(gts_mpi_stats) as compiled by the caller. @since 0.2 */
    size_t struct_size;
    /** @brief Ranks of the communicator. @since 0.2 */
    int32_t ranks;
    /** @brief Leaves of the master's tree (its last iteration). @since 0.2 */
    uint64_t leaves;
    /** @brief Passes of the master over its tree (all iterations); a pass that
        is not the last of its iteration is a re-search. @since 0.2 */
    uint64_t passes;
    /** @brief Leaf searches completed (all ranks). @since 0.2 */
    uint64_t leaf_searches;
    /** @brief Leaf searches of a leaf already searched at the same depth with
        another window. @since 0.2 */
    uint64_t leaf_researches;
    /** @brief Leaf searches cancelled by the master (their results unused). @since 0.2 */
    uint64_t cancelled;
    /** @brief Point-to-point messages sent by all ranks. @since 0.2 */
    uint64_t messages;
    /** @brief Nodes of all ranks (the master's tree included). @since 0.2 */
    uint64_t nodes;
    /** @brief Input, optional: receives the nodes of each rank (rank 0 only). @since 0.2 */
    uint64_t *rank_nodes;
    /** @brief Input: length of rank_nodes. @since 0.2 */
    uint32_t rank_nodes_capacity;
} gts_mpi_stats;

/**
 * @brief Search @p state with every rank of @p comm (APHID).
 *
 * Collective: every rank of @p comm calls it with the same root position
 * (same game, same state), limits and window; each rank passes its own
 * engine. The search is exact when the leaf algorithm is exact: the score
 * equals serial alpha-beta's at the same depth. gts_limits::depth,
 * alpha/beta, time_ms and nodes are honoured (time and nodes are checked by
 * the master between messages; the last completed iteration is reported);
 * on_iteration is called on rank 0 after each iteration of the master
 * (a non-zero return stops the search).
 *
 * gts_engine_stop() on the engine of any rank, from any thread (a signal
 * handler, another thread, on_iteration), stops the whole search as it
 * stops a gts_search(): that rank's leaf search unwinds, and every rank
 * returns #GTS_OK with the result of the last completed iteration and
 * #GTS_RESULT_STOPPED in gts_result::flags, its root restored. A stop is
 * seen from the moment the rank has checked its arguments until it
 * returns, also between its leaf searches; one before that is dropped,
 * as for gts_search().
 *
 * @p result: on rank 0 as gts_search() fills it; nodes is the total of all
 * ranks, tt_probes/tt_hits/tt_cutoffs the totals of the leaf searches,
 * seldepth the deepest leaf's ply plus its selective depth, threads the
 * number of ranks. Every other rank gets the same best_move, score, depth, flags and
 * PV, with its own nodes count. Every rank returns the same status: a
 * callback failing on any rank (#GTS_ECALLBACK, with its
 * gts_result::callback_status), or any other error of one rank, ends the
 * search on every rank with that status. A rank that dies ends the whole
 * MPI job (the communicator's error handler, MPI_ERRORS_ARE_FATAL by
 * default). Argument errors (#GTS_EINVAL, #GTS_ESTRUCT, #GTS_ERANGE, and
 * #GTS_EBUSY for an engine already in a gts_mpi_search()) are agreed on by
 * all ranks before searching.
 *
 * Each rank searches on its own root, @p state: the game needs no clone()
 * (unless a parallel leaf algorithm does) and no state serialisation, only
 * apply() replaying the moves from the root. Decided scores
 * (#GTS_SCORE_DECIDED) are converted between the leaf's and the root's
 * distance as gts_search() does at that ply.
 *
 * Thread-safety: call from the thread that initialised MPI (with at least
 * MPI_THREAD_FUNNELED when the engines use threads); not thread-safe,
 * except gts_engine_stop() on a rank's engine, from any thread.
 *
 * @param comm    the communicator (duplicated for the call).
 * @param engine  this rank's engine.
 * @param game    the game.
 * @param state   the root, restored on return.
 * @param limits  the limits (same on every rank).
 * @param options NULL or the options (see gts_mpi_options).
 * @param result  receives the result.
 * @param stats   NULL or receives the statistics.
 * @return #GTS_OK or an error status, the same on every rank.
 * @since 0.2
 */
GTS_MPI_API gts_status gts_mpi_search(MPI_Comm comm, gts_engine *engine, const gts_game *game,
                                      void *state, const gts_limits *limits,
                                      const gts_mpi_options *options, gts_result *result,
                                      gts_mpi_stats *stats);

#ifdef __cplusplus
}
#endif
#endif /* GTS_MPI_H */
