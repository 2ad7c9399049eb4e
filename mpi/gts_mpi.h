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
    /**
     * @brief Virtual ranks only (gts_mpi_search_virtual()): the virtual time,
     * in nodes, a message takes from one rank to another
     * (0..#GTS_MPI_MAX_VIRTUAL_LATENCY, 2^30); 0 = none, the default.
     * gts_mpi_search() checks its range and otherwise ignores it.
     * Experimental, as gts_mpi_search_virtual(). @since 0.2
     */
    int32_t virtual_latency;
    /**
     * @brief Plies ahead of the master's iteration to which an idle slave
     * deepens the leaves that iteration reached (APHID's slaves work ahead;
     * 1..#GTS_MPI_MAX_WORK_AHEAD): 0 = #GTS_MPI_MAX_WORK_AHEAD, the default;
     * -1 = none: slaves idle until the master needs a leaf, and each
     * iteration cancels what is in flight at its end (the behaviour before
     * this field). Only rank 0's is used. @since 0.2
     */
    int32_t work_ahead;
    /**
     * @brief Deeper master trees where the work is. With more than two
     * ranks, at the start of each iteration the master makes interior
     * nodes of the leaves whose last search cost more than the slaves'
     * fair share (all leaves' nodes / (ranks - 1)), up to 4 an iteration,
     * so that the principal variation's subtree is searched by several
     * ranks. 0 (the default) = when the ranks are many: twice the slaves
     * (ranks - 1) outnumber the leaves of the uniform master_plies tree; 1 =
     * always; -1 = never (the behaviour before this field). Exact either way. Only
     * rank 0's is used. @since 0.3
     */
    int32_t split;
    /**
     * @brief Racing of waiting requests. With more than two ranks a
     * request of a leaf waits for the rank that searched it last (its
     * table knows the leaf); a slave left idle after the searches ahead
     * are handed out also searches such a request, and the first of the
     * two results answers it (the other search is cancelled). 0 (the
     * default) and 1 = race; -1 = never (the behaviour before this
     * field). Exact either way. Only rank 0's is used. @since 0.3
     */
    int32_t race;
    /**
     * @brief Narrow windows for the searches ahead. With more than two
     * ranks a search ahead off the principal variation may use the window
     * (c - 1, c + 1) around the root's last value c at the parity of the
     * iteration it serves (from the leaf's side), instead of the whole
     * window. 0 (the default) = when the master measures that such bounds
     * answer the passes that read them (at least 70 % of the results ahead
     * read so far, checked at each iteration); 1 = always; -1 = never (the
     * behaviour before this field). Exact either way. Only rank 0's is
     * used. @since 0.3
     */
    int32_t narrow;
} gts_mpi_options;

/**
 * @brief gts_mpi_options::struct_size of the layout before virtual_latency
 *        (accepted: the missing field is 0).
 * @since 0.2
 */
#define GTS_MPI_OPTIONS_SIZE_V0_2 (offsetof(gts_mpi_options, master_plies) + sizeof(int32_t))

/** @brief Largest gts_mpi_options::work_ahead. @since 0.2 */
#define GTS_MPI_MAX_WORK_AHEAD 2

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
    /** @brief Nodes of the leaf searches whose results were not used
        (cancelled ones up to their cancel, and results that crossed a
        cancel); included in nodes. @since 0.2 */
    uint64_t cancelled_nodes;
    /**
     * @brief Virtual ranks only (0 otherwise): the virtual clock when the
     * master finished, in nodes. The virtual speedup over a serial search of
     * S nodes is S / virtual_time. @since 0.2
     */
    uint64_t virtual_time;
    /** @brief Virtual ranks only: the master's own work on the virtual clock
        (building its tree, its passes, and at one rank its leaf searches);
        the rest of virtual_time it waited for results. @since 0.2 */
    uint64_t master_time;
    /** @brief Virtual ranks only: the virtual time the slaves (ranks 1..N-1)
        spent searching, summed; busy_time / ((ranks - 1) x virtual_time) is
        their busy fraction. @since 0.2 */
    uint64_t busy_time;
    /** @brief Nodes of the completed searches ahead of the master's
        iteration (gts_mpi_options::work_ahead); included in nodes, the
        rest of which are the master's tree and its requests. @since 0.3 */
    uint64_t ahead_nodes;
    /** @brief Leaves the master made interior nodes
        (gts_mpi_options::split). @since 0.3 */
    uint64_t splits;
    /** @brief Ply of the deepest leaf of the master's tree (master_plies
        unless leaves were split). @since 0.3 */
    int32_t master_max_ply;
    /** @brief Requests raced by an idle slave (gts_mpi_options::race). @since 0.3 */
    uint64_t races;
    /** @brief Of those, the requests the racing slave answered first. @since 0.3 */
    uint64_t races_won;
    /** @brief Searches ahead sent with a narrow window
        (gts_mpi_options::narrow). @since 0.3 */
    uint64_t narrow_ahead;
    /** @brief Searches ahead of a leaf searched before sent to a rank other
        than the leaf's own (the one that searched it last): its table does
        not know the leaf, and the search deepens from depth 1 there. @since 0.3 */
    uint64_t ahead_moved;
    /** @brief Nodes of the completed ones among ahead_moved; included in
        ahead_nodes. @since 0.3 */
    uint64_t ahead_moved_nodes;
    /** @brief Nodes of the completed searches ahead whose result no pass of
        the master read: speculation the search did not use (a leaf that
        later passes cut off or the master split, a depth no iteration
        reached); included in ahead_nodes. @since 0.3 */
    uint64_t ahead_unread_nodes;
    /** @brief The length of the master's last completed iteration: virtual
        time with virtual ranks, microseconds over MPI. @since 0.3 */
    uint64_t last_iteration_time;
    /** @brief Over that iteration, the time the slaves were idle while the
        master waited for a result, summed over the slaves (same unit):
        last_iteration_idle / ((ranks - 1) x last_iteration_time) is the
        share of the slaves the last iteration left idle. @since 0.3 */
    uint64_t last_iteration_idle;
} gts_mpi_stats;

/**
 * @brief gts_mpi_stats::struct_size of the layout before cancelled_nodes
 *        (accepted: the fields past it are not written).
 * @since 0.2
 */
#define GTS_MPI_STATS_SIZE_V0_2 (offsetof(gts_mpi_stats, rank_nodes_capacity) + sizeof(uint32_t))

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
 * all ranks before searching, and so is the root: ranks whose roots differ
 * in their moves (number or generate() order) or in the game's hash (a
 * game without one: the static evaluation) all get #GTS_EINVAL (since
 * 0.3; before, a game without a hash was not checked).
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

/* ---- distributed MCTS (since 0.3) ------------------------------------------ */

/**
 * @brief Default of gts_mpi_mcts_options::sync_playouts: playouts of each
 *        rank between two merges of the root statistics.
 * @since 0.3
 */
#define GTS_MPI_MCTS_SYNC_PLAYOUTS 1024

/**
 * @brief Default of gts_mpi_mcts_options::share_plies: the plies of nodes
 *        whose children's statistics the ranks merge (1: the root only).
 * @since 0.3
 */
#define GTS_MPI_MCTS_SHARE_PLIES 3

/**
 * @brief Default of gts_mpi_mcts_options::share_permille: a node below the
 *        root is shared once its merged visits reach this many thousandths
 *        of the merged playouts.
 * @since 0.3
 */
#define GTS_MPI_MCTS_SHARE_PERMILLE 50

/**
 * @brief Options of gts_mpi_mcts() (NULL: all defaults; 0 in a field: its
 *        default).
 * @since 0.3
 */
typedef struct gts_mpi_mcts_options {
    /** @brief sizeof(gts_mpi_mcts_options) as compiled by the caller.
        @since 0.3 */
    size_t struct_size;
    /** @brief Playouts of each rank between two merges (default
        #GTS_MPI_MCTS_SYNC_PLAYOUTS; 1..2^40). With sync_ms 0 the schedule
        depends on no clock: a fixed seed then gives the same result on
        every run at the same rank count. @since 0.3 */
    int64_t sync_playouts;
    /** @brief When > 0: merge every sync_ms milliseconds of each rank's
        search instead (up to 60000), whatever the playouts; results then
        vary from run to run. @since 0.3 */
    int64_t sync_ms;
    /** @brief Plies of shared nodes (default #GTS_MPI_MCTS_SHARE_PLIES;
        1..8): the root's children are merged at every merge (1: only
        they, root parallelisation); with 2 or more, also the children of
        the nodes of plies 1..share_plies-1 whose merged visits reached
        share_permille (MoGo's cluster scheme), up to 32 nodes, so each
        rank's tree follows the shared statistics below the root
        (gts_mcts_inject_at()). @since 0.3 */
    int64_t share_plies;
    /** @brief The share of the merged playouts, in thousandths, at which
        a node below the root becomes shared (default
        #GTS_MPI_MCTS_SHARE_PERMILLE; 1..1000). @since 0.3 */
    int64_t share_permille;
} gts_mpi_mcts_options;

/**
 * @brief Statistics of a gts_mpi_mcts() (or gts_mpi_mcts_virtual()) run.
 * @since 0.3
 */
typedef struct gts_mpi_mcts_stats {
    /** @brief sizeof(gts_mpi_mcts_stats) as compiled by the caller.
        @since 0.3 */
    size_t struct_size;
    /** @brief Ranks that searched. @since 0.3 */
    int32_t ranks;
    /** @brief Rounds: searches of each rank, each followed by a merge.
        @since 0.3 */
    uint64_t merges;
    /** @brief Playouts of all ranks (the merged root's visits). @since 0.3 */
    uint64_t playouts;
    /** @brief Nodes of all ranks (gts_result::nodes summed over every
        round). @since 0.3 */
    uint64_t nodes;
    /** @brief Virtual ranks only: the virtual time of the run, in nodes:
        over the rounds, the sum of the largest node count of one rank in
        that round (the ranks wait for each other at each merge; the merge
        itself costs nothing). 0 over MPI. @since 0.3 */
    uint64_t virtual_time;
    /** @brief Tree reuse: ranks whose search continued the tree kept in
        their engine (gts_mcts_advance() since the last search, as for
        gts_mcts()); 0 when every rank started fresh. @since 0.3 */
    int32_t reused_ranks;
    /** @brief Tree reuse: the visits of the root moves in those kept trees
        when the search started, summed over the ranks. @since 0.3 */
    uint64_t kept_visits;
} gts_mpi_mcts_stats;

/**
 * @brief Distributed Monte-Carlo tree search (root parallelisation over
 *        MPI, with periodic merges of the root statistics).
 *
 * Collective: every rank of @p comm calls it with the same root position,
 * limits and options, each with its own engine (its MCTS options, as
 * gts_mcts() reads them). Each rank grows its own gts_mcts() tree of the
 * position, with its own random stream, in rounds: a round is a
 * gts_mcts() of gts_mpi_mcts_options::sync_playouts playouts (or
 * sync_ms milliseconds) continuing the rank's kept tree, then a merge: an
 * MPI_Allreduce of the root moves' new visits, reward sums, AMAF counts
 * and proven ranges, of which each rank adds the other ranks' part to its
 * own root with gts_mcts_inject(), so that its selection at the root
 * follows the statistics of all ranks (the MoGo cluster scheme: Gelly et
 * al., "The parallelization of Monte-Carlo planning", 2008). After every
 * merge all ranks' roots hold the same visits. The merge also carries the
 * children of the shared nodes below the root (gts_mpi_mcts_options::
 * share_plies, share_permille: the nodes of the first plies with a share
 * of the playouts, chosen alike on every rank from the merged visits),
 * added with gts_mcts_inject_at(), so each rank's tree follows the shared
 * statistics below the root too.
 *
 * **Limits and stop**, as gts_mcts(): the playout budget
 * #GTS_OPT_MCTS_PLAYOUTS (rank 0's engine's value) counts the playouts of
 * all ranks, and is met exactly (the last round shares what is left among
 * the ranks); gts_limits::nodes counts the nodes of all ranks (each round
 * gives each rank an equal share of what is left); gts_limits::time_ms is
 * the wall-clock time of each rank. A rank that hits its time limit ends
 * the search at the next merge. gts_engine_stop() on any rank's engine,
 * from any thread, ends the search at the next merge (so within a round:
 * use sync_ms to bound it) with #GTS_RESULT_STOPPED on every rank. The
 * search also ends when the merged root is proven (the solver's ranges
 * are merged too: a finite game searched without limits gets its exact
 * value). gts_limits::depth must be 0 or #GTS_MAX_DEPTH (none:
 * #GTS_ENOTSUP otherwise, as gts_mcts() keeps no tree with a depth
 * limit); the window and on_iteration are ignored. When the time is up
 * before the first round, the result is the first move and the static
 * score at depth 0, as gts_mcts() gives without a playout.
 *
 * **Seeds.** Rank r's round k searches with its own seed derived from the
 * engine's #GTS_OPT_MCTS_SEED, r and k. With one thread per rank and
 * sync_ms = 0, the same seed gives the same result and statistics on
 * every run at the same rank count.
 *
 * **Result**, the same on every rank (rank 0's choice, broadcast): the
 * best move by the merged root statistics (the rule of gts_mcts(): a move
 * proving the root's value when it is proven, else the most visited move
 * that can still reach the root's proven value unless a move's proven
 * value is better than its estimate), its score, flags (the limits and
 * stops of every rank, #GTS_RESULT_MEMORY_LIMIT from any rank), depth
 * (#GTS_MAX_DEPTH when the root is proven, else the pv's length), the pv
 * (rank 0's tree's line when it starts with the chosen move, else that
 * move alone), nodes (all ranks), threads (the number of ranks), time_us
 * (this rank's). gts_mcts_root_stats() on any rank's engine afterwards
 * gives the merged statistics. The tree stays in each engine as
 * gts_mcts() leaves it (#GTS_OPT_MCTS_REUSE).
 *
 * **Tree reuse** (since 0.3), as for gts_mcts(): a rank whose engine has
 * #GTS_OPT_MCTS_REUSE on and a tree kept from its last search (distributed
 * or not) that gts_mcts_advance() moved to this search's root (the moves
 * played since, or none for the same position) continues that tree;
 * otherwise, or without that call, it starts fresh. Each rank decides for
 * its own tree; call gts_mcts_advance() on every rank alike. What a kept
 * tree holds when the search starts counts as already merged: its root
 * statistics (every rank's playouts where the last search shared that
 * node, the rank's own elsewhere) stay in that rank's root, and the merges
 * carry only what the ranks add from then on, so no playout is counted
 * twice; likewise a node below the root that joins the shared nodes
 * during the search carries what each rank adds from then on (doc/mpi.md,
 * "Tree reuse"). So the ranks' roots may differ by what their kept trees
 * held; rank 0's chooses. gts_mpi_mcts_stats::reused_ranks and
 * kept_visits say what was continued. With root parallelisation inside a
 * rank (#GTS_MCTS_ROOT and more than one thread) the rank starts fresh.
 *
 * **Errors.** Argument errors (#GTS_EINVAL, #GTS_ESTRUCT, #GTS_ENOTSUP,
 * #GTS_EBUSY) are agreed on by all ranks before searching, and so is the
 * root: ranks whose roots differ in their moves (number or generate()
 * order) or, when the game has a hash, in their key all get #GTS_EINVAL
 * (since 0.3; before, only the number of moves was compared); a game
 * that lists a shared node's moves below the root differently on another
 * process ends the search at the next merge with #GTS_EINVAL on every
 * rank (since 0.3). A failure of
 * any rank's search (a callback: #GTS_ECALLBACK with its
 * gts_result::callback_status; memory) ends the search on every rank at
 * the next merge, every rank returning that status (the lowest status when
 * several failed). A rank that dies ends the MPI job, as for
 * gts_mpi_search().
 *
 * Thread-safety: as gts_mpi_search().
 *
 * @param comm    the communicator (duplicated for the call).
 * @param engine  this rank's engine.
 * @param game    the game (clone/free when the engine has threads).
 * @param state   the root, restored on return.
 * @param limits  the limits, or NULL.
 * @param options NULL or the options.
 * @param result  receives the result (nodes: all ranks; threads: the ranks;
 *                gts_result::thread_nodes, if given: rank k's nodes at
 *                index k, as far as its capacity goes; seldepth: the
 *                deepest node any rank's tree created, the same on every
 *                rank).
 * @param stats   NULL or receives the statistics.
 * @return #GTS_OK or an error status, the same on every rank.
 * @since 0.3
 */
GTS_MPI_API gts_status gts_mpi_mcts(MPI_Comm comm, gts_engine *engine, const gts_game *game,
                                    void *state, const gts_limits *limits,
                                    const gts_mpi_mcts_options *options, gts_result *result,
                                    gts_mpi_mcts_stats *stats);

/* ======================================================================
 * Experimental API: declared only when GTS_EXPERIMENTAL_API is defined
 * (README "Versioning and ABI"). Everything above is the stable API.
 * ====================================================================== */
#ifdef GTS_EXPERIMENTAL_API

/**
 * @defgroup gts_mpi_experimental libgts-mpi experimental API
 * @brief Virtual ranks: APHID's speedup measured at more ranks than the
 * machine has cores, declared only for a program that defines
 * @c GTS_EXPERIMENTAL_API before it includes <gts/gts_mpi.h>.
 *
 * A measurement instrument, not a way to search: its cost model (a node
 * per unit of virtual time, messages of gts_mpi_options::virtual_latency)
 * follows the implementation and may change in any minor release, as the
 * options of libgts's experimental API. gts_mpi_search_virtual() stays
 * exported (map node GTS_MPI_0.2) within a soversion. Until 0.2 it was
 * declared without the macro.
 * @{
 */

/** @brief Most ranks gts_mpi_search_virtual() simulates. @since 0.2 */
#define GTS_MPI_MAX_VIRTUAL_RANKS 1024
/** @brief Largest gts_mpi_options::virtual_latency. @since 0.2 */
#define GTS_MPI_MAX_VIRTUAL_LATENCY (1 << 30)

/**
 * @brief APHID with @p ranks simulated ranks on a virtual clock, in this
 *        process, without MPI.
 *
 * Runs the master of gts_mpi_search() unchanged (the same tree, passes,
 * requests, dispatch and statistics) with ranks - 1 virtual slaves in
 * place of the other ranks of a communicator, so that APHID's speedup can
 * be measured at more ranks than the machine has cores. Sending work to
 * virtual slave k runs its leaf search at once with `engines[k]` (its own
 * table, as a real rank has) and schedules the result to arrive at the
 * master at dispatch time + L + the nodes the search counted + L, L being
 * gts_mpi_options::virtual_latency (default 0). The master's own work
 * costs its nodes: one per node of its tree when it builds it, one per
 * node a pass visits, and at @p ranks = 1 the nodes of its own leaf
 * searches. Waiting for a result moves the clock to the earliest arrival
 * (ties: the lowest rank). A cancel reaches a slave at send time + L: a
 * search still running then stops there (its nodes up to then count, the
 * rest never happened); one that had ended is a result crossing the
 * cancel, as over MPI. The leaf search itself already ran to its end when
 * the work was sent, so a cancelled slave's table holds more than a real
 * rank's would: besides free messages at latency 0, the one way the model
 * is kinder than a cluster. The virtual time of the search is the clock
 * when the master has finished (its final drain included):
 * gts_mpi_stats::virtual_time, with master_time and busy_time. The cost of
 * a leaf search is its node count, whatever the algorithm (one virtual
 * processor per rank).
 *
 * Deterministic: the same arguments on fresh (or gts_engine_clear()ed)
 * engines give the same result, counts and times on every run. Exact as
 * gts_mpi_search(): the score equals serial alpha-beta's. A run does the
 * work of every rank, one leaf search after the other in this thread: it
 * takes the wall-clock time of all the ranks' nodes. See doc/mpi.md,
 * "Virtual ranks".
 *
 * Engines: `engines[k]` is rank k's engine, as each rank passes its own to
 * gts_mpi_search(): rank 0's searches leaves only at @p ranks = 1, every
 * other one searches the leaves sent to that rank with the leaf algorithm
 * of @p options. They must be distinct. Each keeps its table afterwards,
 * as a real rank's does.
 *
 * Limits, stops and errors as gts_mpi_search(): time_ms is wall-clock
 * time, nodes counts the nodes of all ranks, on_iteration is called after
 * each iteration; gts_engine_stop() on any rank's engine, from any thread,
 * stops the search as it stops a distributed one (every engine's watch is
 * open for the call). A callback failing in the master or in a virtual
 * slave ends the search with #GTS_ECALLBACK and its
 * gts_result::callback_status, as over MPI.
 *
 * @p result as on rank 0 of gts_mpi_search(): nodes is the total of all
 * ranks, threads the number of ranks, time_us wall-clock time.
 *
 * Thread-safety: not thread-safe (#GTS_EBUSY for an engine already in a
 * gts_mpi_search() or gts_mpi_search_virtual()), except gts_engine_stop()
 * on any of @p engines, from any thread. Needs no MPI: it may be called
 * before MPI_Init, without it, or after MPI_Finalize.
 *
 * @param ranks   simulated ranks, 1..#GTS_MPI_MAX_VIRTUAL_RANKS (rank 0 is
 *                the master); #GTS_ERANGE otherwise.
 * @param engines @p ranks distinct engines, one per rank (#GTS_EINVAL for
 *                NULL, a NULL engine, or one engine twice).
 * @param game    the game.
 * @param state   the root, restored on return.
 * @param limits  the limits.
 * @param options NULL or the options (see gts_mpi_options).
 * @param result  receives the result.
 * @param stats   NULL or receives the statistics.
 * @return #GTS_OK or an error status, as gts_mpi_search().
 * Experimental (declared only with @c GTS_EXPERIMENTAL_API, since 0.3): a
 * measurement instrument whose model follows the implementation.
 *
 * @ingroup gts_mpi_experimental
 * @since 0.2
 */
GTS_MPI_API gts_status gts_mpi_search_virtual(int32_t ranks, gts_engine *const *engines,
                                              const gts_game *game, void *state,
                                              const gts_limits *limits,
                                              const gts_mpi_options *options,
                                              gts_result *result, gts_mpi_stats *stats);

/**
 * @brief gts_mpi_mcts() with @p ranks simulated ranks in this process,
 *        without MPI.
 *
 * Runs the rounds and merges of gts_mpi_mcts() unchanged, the ranks' searches
 * one after the other in this thread, each with its own engine
 * (`engines[k]` is rank k's), and the merges summing the ranks' deltas in
 * rank order. gts_mpi_mcts_stats::virtual_time is the time the run would
 * take with one processor per rank, in nodes (see there): the playouts
 * per virtual time unit over those of one rank is the speedup.
 * Deterministic as gts_mpi_mcts() (sync_ms 0, one thread per engine),
 * and at @p ranks = n it returns what gts_mpi_mcts() returns on n real
 * ranks (the same merges, in the same order, up to the rounding of the
 * reward sums). Limits, stops (on any engine) and errors as
 * gts_mpi_mcts(); time_ms is wall-clock time of the whole run.
 *
 * @param ranks   1..#GTS_MPI_MAX_VIRTUAL_RANKS (#GTS_ERANGE otherwise).
 * @param engines @p ranks distinct engines (#GTS_EINVAL otherwise).
 * @param game    the game.
 * @param state   the root, restored on return.
 * @param limits  the limits, or NULL.
 * @param options NULL or the options.
 * @param result  receives the result (nodes: all ranks).
 * @param stats   NULL or receives the statistics.
 * @return #GTS_OK or an error status.
 *
 * Experimental (declared only with @c GTS_EXPERIMENTAL_API): a measurement
 * instrument, like gts_mpi_search_virtual().
 *
 * Not thread-safe, except gts_engine_stop() on any of @p engines.
 * @since 0.3
 */
GTS_MPI_API gts_status gts_mpi_mcts_virtual(int32_t ranks, gts_engine *const *engines,
                                            const gts_game *game, void *state,
                                            const gts_limits *limits,
                                            const gts_mpi_mcts_options *options,
                                            gts_result *result, gts_mpi_mcts_stats *stats);

/** @} */

#endif /* GTS_EXPERIMENTAL_API */

#ifdef __cplusplus
}
#endif
#endif /* GTS_MPI_H */
