/**
 * @file search.h
 * @brief Search entry points, limits and results.
 *
 * Every algorithm runs through gts_search(); the named entry points
 * (gts_alphabeta(), gts_pvs(), ...) are thin wrappers over it. A search runs
 * iterative deepening (unless GTS_OPT_ITERATIVE is 0) from depth 1 to the
 * depth limit, and reports the result of the last completed iteration.
 */
#ifndef GTS_SEARCH_H
#define GTS_SEARCH_H

#include "common.h"
#include "game.h"
#include "engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Search algorithms, the @p alg argument of gts_search().
 *
 * Values are stable ABI. Values 1..19 are serial; the 20s are parallel
 * (they use #GTS_OPT_THREADS workers and need gts_game::clone and
 * gts_game::free); the 40s are best-first algorithms that keep a tree in
 * memory (parallel or not, as gts_algorithm_is_parallel() says).
 * gts_algorithm_name(), gts_algorithm_is_exact() and
 * gts_algorithm_is_parallel() describe each.
 * @since 0.1
 */
typedef enum gts_algorithm {
    /** @brief Plain negamax without pruning: the reference. Exact. @since 0.1 */
    GTS_ALG_MINIMAX = 1,
    /** @brief Fail-soft alpha-beta with TT, killers, history. Exact. @since 0.1 */
    GTS_ALG_ALPHABETA = 2,
    /** @brief Principal variation search (NegaScout). Exact. @since 0.1 */
    GTS_ALG_PVS = 3,
    /**
     * @brief MTD(f): null-window searches converging on the value, with the TT. Exact.
     * @since 0.1
     */
    GTS_ALG_MTDF = 4,
    /**
     * @brief NegaC*: bisection of the score range with null-window searches. Exact.
     * @since 0.1
     */
    GTS_ALG_NEGACSTAR = 5,
    /**
     * @brief SSS* in its MT formulation (null windows from +infinity). Exact.
     * @since 0.1
     */
    GTS_ALG_SSSSTAR = 6,
    /**
     * @brief Dual* in its MT formulation (null windows from -infinity). Exact.
     * @since 0.1
     */
    GTS_ALG_DUALSTAR = 7,
    /**
     * @brief Serial Evaluate-and-Refute (Steinberg & Solomon) with the
     *        paper's refute procedure (refuteRest, corrected). Exact.
     * @since 0.1
     */
    GTS_ALG_ER = 8,
    /** @brief Buro's (Multi-)ProbCut: selective, not exact. @since 0.1 */
    GTS_ALG_PROBCUT = 9,
    /**
     * @brief Stockman's SSS* with its OPEN list (1979), best-first. Exact.
     * @since 0.2
     */
    GTS_ALG_SSSSTAR_STOCKMAN = 10,

    /* 20s: parallel algorithms (GTS_OPT_THREADS workers; need clone/free) */
    /** @brief Parallel Evaluate-and-Refute (Steinberg & Solomon). Exact. @since 0.1 */
    GTS_ALG_ER_PARALLEL = 20,
    /** @brief Kuszmaul's Jamboree search. Exact. @since 0.1 */
    GTS_ALG_JAMBOREE = 21,
    /** @brief Hyatt's Dynamic Tree Splitting. Exact. @since 0.1 */
    GTS_ALG_DTS = 22,
    /** @brief Young Brothers Wait Concept (Feldmann). Exact. @since 0.1 */
    GTS_ALG_YBWC = 23,
    /** @brief Principal variation splitting (Marsland & Campbell). Exact. @since 0.1 */
    GTS_ALG_PVSPLIT = 24,
    /** @brief ABDADA (Weill): shared-TT "being searched" deferral. Exact. @since 0.1 */
    GTS_ALG_ABDADA = 25,
    /**
     * @brief Lazy SMP: threads share only the TT. Exact at the reported depth (see doc).
     * @since 0.1
     */
    GTS_ALG_LAZYSMP = 26,
    /** @brief Root splitting: root moves searched in parallel. Exact. @since 0.1 */
    GTS_ALG_ROOTSPLIT = 27,

    /* 40s: best-first algorithms with an explicit tree */
    /**
     * @brief Monte-Carlo tree search (UCT with a score-bounded solver;
     * mcts.h). Not exact under a budget; proves the exact value when it runs
     * to the end. Parallel (tree or root parallelisation). @since 0.2
     */
    GTS_ALG_MCTS = 40,
    /**
     * @brief Berliner's B*: best-first, pessimistic and optimistic values
     * from gts_game::bounds (or #GTS_OPT_BSTAR_MARGIN estimates); finds the
     * best root move by separation, then proves its value. @since 0.2
     */
    GTS_ALG_BSTAR = 41,
    /**
     * @brief Rivest's min/max approximation: best-first, grows the tip of
     * least penalty under generalized means (#GTS_OPT_MMA_P); reports the
     * minimax value of the tree it explored. @since 0.2
     */
    GTS_ALG_MMA = 42
} gts_algorithm;

/**
 * @brief Name of an algorithm: its entry point without the `gts_` prefix.
 *
 * @param alg the algorithm.
 * @return "minimax", "pvs", "er_parallel", ..., or NULL for an unknown
 *         value. The string is static: do not free it.
 *
 * Thread-safe.
 * @since 0.1
 */
GTS_API const char *gts_algorithm_name(gts_algorithm alg);

/**
 * @brief Parse an algorithm name, as returned by gts_algorithm_name().
 *
 * A leading `gts_` is accepted ("gts_pvs" parses as "pvs").
 *
 * @param name the name (case-sensitive).
 * @param[out] alg receives the algorithm.
 * @return #GTS_OK; #GTS_EINVAL for a NULL @p name or @p alg;
 *         #GTS_EALGORITHM for an unknown name.
 *
 * Thread-safe.
 * @since 0.1
 */
GTS_API gts_status gts_algorithm_from_name(const char *name, gts_algorithm *alg);

/**
 * @brief Whether an algorithm always returns the minimax value.
 *
 * @param alg the algorithm.
 * @return true for an exact algorithm (same score as #GTS_ALG_MINIMAX at the
 *         same depth, and a best move of that score); false for a selective
 *         one (#GTS_ALG_PROBCUT) and for an unknown value.
 *
 * Thread-safe.
 * @since 0.1
 */
GTS_API bool gts_algorithm_is_exact(gts_algorithm alg);

/**
 * @brief Whether an algorithm searches with #GTS_OPT_THREADS workers.
 *
 * @param alg the algorithm.
 * @return true for a parallel algorithm (it then needs gts_game::clone and
 *         gts_game::free when #GTS_OPT_THREADS > 1); false for a serial one
 *         and for an unknown value.
 *
 * Thread-safe.
 * @since 0.1
 */
GTS_API bool gts_algorithm_is_parallel(gts_algorithm alg);

/**
 * @brief Enumerate the algorithms, in enum order.
 *
 * @param[out] out receives up to @p capacity algorithms; may be NULL to
 *                 only count them.
 * @param capacity length of @p out (0 or less writes nothing).
 * @return how many algorithms exist (may exceed @p capacity). Cannot fail.
 *
 * Thread-safe.
 * @since 0.1
 */
GTS_API int gts_algorithm_list(gts_algorithm *out, int capacity);

struct gts_result;

/**
 * @brief Progress callback (gts_limits::on_iteration), called after each
 *        completed iteration with the result so far.
 *
 * It runs on the thread that called gts_search(), between iterations (no
 * worker is searching then). It may read @p result, call gts_engine_stop(),
 * gts_engine_get() and gts_engine_hashfull(); functions that change the
 * engine return #GTS_EBUSY, and it must not start a search on the same
 * engine nor free it.
 *
 * @param result the result of the iteration just completed (statistics
 *               included); valid only during the call.
 * @param user   gts_limits::on_iteration_user.
 * @return 0 to continue; non-zero to stop the search (the result of that
 *         iteration is kept and #GTS_RESULT_STOPPED is set).
 * @since 0.1
 */
typedef int (*gts_progress_fn)(const struct gts_result *result, void *user);

/**
 * @brief Limits of one search.
 *
 * Zero-initialise, set struct_size, fill what you need: a zeroed struct
 * means depth #GTS_MAX_DEPTH, full window, no node or time limit. Read
 * only by gts_search(); not kept after it returns. Any struct_size from
 * #GTS_LIMITS_SIZE_V0_1 on is accepted (see ::gts_struct_id).
 * @since 0.1
 */
typedef struct gts_limits {
    /** @brief sizeof(gts_limits) as compiled by the caller. @since 0.1 */
    size_t struct_size;
    /** @brief Depth in plies, 1..GTS_MAX_DEPTH; 0 means GTS_MAX_DEPTH. @since 0.1 */
    int32_t depth;
    /** @brief Lower bound of the root window; alpha == beta == 0 means the full
        window, otherwise -#GTS_SCORE_INF <= alpha < beta <= #GTS_SCORE_INF.
        @since 0.1 */
    gts_score alpha;
    gts_score beta; /**< @brief Upper bound of the root window (see alpha). @since 0.1 */
    /** @brief First guess for MTD(f)-style algorithms and the first aspiration
        window (used when has_guess), within +-#GTS_SCORE_INF.
        @since 0.1 */
    gts_score guess;
    bool has_guess; /**< @brief Whether guess is set. @since 0.1 */
    /**
     * @brief Node budget; 0 = unlimited.
     *
     * Each thread checks it every min(1024, nodes / 16) nodes (at least
     * every node), so a search may end slightly past the budget: by at most
     * that interval per thread.
     * @since 0.1
     */
    uint64_t nodes;
    /** @brief Wall-clock budget in milliseconds; 0 = unlimited. @since 0.1 */
    uint64_t time_ms;
    /** @brief Called after each completed iteration; may be NULL. @since 0.1 */
    gts_progress_fn on_iteration;
    /** @brief Passed back as the last argument of on_iteration.
        @since 0.1 */
    void *on_iteration_user;
    /**
     * @brief Optional: the hash() keys of the game's positions before the
     * root, oldest first (the last one is the position just before the
     * root), or NULL. Read only when the game declares
     * #GTS_TRAIT_REPETITION_DRAW: a position of the search that repeats
     * one of them is a draw. Read during the call only. @since 0.3
     */
    const uint64_t *history;
    /** @brief Entries of history (0 when history is NULL). @since 0.3 */
    uint32_t history_len;
} gts_limits;

/** @brief struct_size of the 0.1 layout of gts_limits (through
 *         gts_limits::on_iteration_user): the smallest size accepted. @since 0.1 */
#define GTS_LIMITS_SIZE_V0_1 (offsetof(gts_limits, on_iteration_user) + sizeof(void *))
/** @brief struct_size of the 0.3 layout of gts_limits (through
 *         gts_limits::history_len). @since 0.3 */
#define GTS_LIMITS_SIZE_V0_3 (offsetof(gts_limits, history_len) + sizeof(uint32_t))

/**
 * @brief Bits of gts_result::flags.
 * @since 0.1
 */
enum {
    /** @brief best_move holds a move (false at a terminal root). @since 0.1 */
    GTS_RESULT_HAS_MOVE = 1u << 0,
    /**
     * @brief The search was stopped by gts_engine_stop() or the progress callback.
     * @since 0.1
     */
    GTS_RESULT_STOPPED = 1u << 1,
    /** @brief The node budget ran out. @since 0.1 */
    GTS_RESULT_NODE_LIMIT = 1u << 2,
    /** @brief The time budget ran out. @since 0.1 */
    GTS_RESULT_TIME_LIMIT = 1u << 3,
    /** @brief Score is a lower bound (it failed high on the caller's window). @since 0.1 */
    GTS_RESULT_LOWER_BOUND = 1u << 4,
    /** @brief Score is an upper bound (it failed low on the caller's window). @since 0.1 */
    GTS_RESULT_UPPER_BOUND = 1u << 5,
    /**
     * @brief A best-first search's tree reached its memory budget
     * (#GTS_OPT_TREE_MB): it stopped growing the tree and went on
     * searching the tree it had. @since 0.2
     */
    GTS_RESULT_MEMORY_LIMIT = 1u << 6,
    /**
     * @brief An MCTS search continued the tree kept from the last search
     * (gts_mcts_advance(), #GTS_OPT_MCTS_REUSE): its root statistics
     * include the kept tree's. Without it a search started from a fresh
     * tree. Distributed MCTS (libgts-mpi) reads it to know what each rank's
     * root held before its first playout. @since 0.3
     */
    GTS_RESULT_TREE_REUSED = 1u << 7
};

/**
 * @brief What a search found.
 *
 * Zero-initialise it, set struct_size and, optionally,
 * thread_nodes/thread_nodes_capacity (the only inputs); gts_search() fills
 * the rest (as if it zeroed the struct first, keeping those inputs), also
 * after a stop, a limit or a failing callback. It writes only struct_size
 * bytes and leaves struct_size as the caller set it: any size from
 * #GTS_RESULT_SIZE_V0_1 on is accepted (see ::gts_struct_id). The result
 * passed to gts_limits::on_iteration is this struct.
 * @since 0.1
 */
typedef struct gts_result {
    /** @brief sizeof(gts_result) as compiled by the caller. @since 0.1 */
    size_t struct_size;
    /**
     * @brief Best move at the root (valid when flags has GTS_RESULT_HAS_MOVE).
     * @since 0.1
     */
    gts_move best_move;
    /** @brief Score of the root from the side to move. @since 0.1 */
    gts_score score;
    /** @brief Depth of the last completed iteration (0 if none completed). @since 0.1 */
    int32_t depth;
    /** @brief Deepest ply reached (quiescence and extensions included). @since 0.1 */
    int32_t seldepth;
    /** @brief GTS_RESULT_* bits. @since 0.1 */
    uint32_t flags;
    /** @brief Principal variation, pv[0] == best_move. @since 0.1 */
    gts_move pv[GTS_MAX_PLY];
    uint32_t pv_length; /**< @brief Moves in pv (0 when there is no move). @since 0.1 */
    /** @brief Threads that searched. @since 0.1 */
    uint32_t threads;
    /** @brief Nodes visited (every apply of a move, plus the root). @since 0.1 */
    uint64_t nodes;
    /** @brief Transposition-table probes. @since 0.1 */
    uint64_t tt_probes;
    uint64_t tt_hits;    /**< @brief Probes that found the key. @since 0.1 */
    /** @brief Probes whose bound ended the node's search.
        @since 0.1 */
    uint64_t tt_cutoffs;
    /** @brief Parallel algorithms: nodes searched as mandatory work (the part of
        the tree any serial search must visit too; defined per algorithm).
        @since 0.1 */
    uint64_t nodes_mandatory;
    /** @brief Parallel algorithms: nodes searched as speculative work. @since 0.1 */
    uint64_t nodes_speculative;
    /** @brief Parallel algorithms: speculative nodes whose result was thrown away
        by a cutoff or a stop.
        @since 0.1 */
    uint64_t nodes_wasted;
    /** @brief Wall-clock time of the whole search in microseconds. @since 0.1 */
    uint64_t time_us;
    /**
     * @brief What the failed callback returned: its negative value
     *        (#GTS_ECALLBACK; -1 for a failed evaluate() returning
     *        #GTS_SCORE_INVALID or a clone() returning NULL, which have no
     *        code of their own), generate's count (#GTS_EMOVES) or the score
     *        (#GTS_ESCORE); 0 otherwise.
     * @since 0.1
     */
    int32_t callback_status;
    /** @brief Input, optional: caller array that receives the node count of each
        thread (index = thread), or NULL.
        @since 0.1 */
    uint64_t *thread_nodes;
    /** @brief Input: length of thread_nodes.
        @since 0.1 */
    uint32_t thread_nodes_capacity;
} gts_result;

/** @brief struct_size of the 0.1 layout of gts_result (through
 *         gts_result::thread_nodes_capacity): the smallest size accepted. @since 0.1 */
#define GTS_RESULT_SIZE_V0_1 (offsetof(gts_result, thread_nodes_capacity) + sizeof(uint32_t))

/**
 * @brief Search @p state of @p game with @p alg under @p limits and write
 *        @p result.
 *
 * Runs iterative deepening (unless #GTS_OPT_ITERATIVE is 0) with optional
 * aspiration windows, and reports the last completed iteration. Parallel
 * algorithms search the caller's state on the calling thread and a clone
 * per extra worker (made once per search, freed before return).
 *
 * @param engine the engine (its table, options and threads).
 * @param alg    the algorithm.
 * @param game   the game's callbacks; read, not kept after return.
 * @param state  the root position; mutated during the search and restored
 *               before return, in every case.
 * @param limits the limits, or NULL for depth #GTS_MAX_DEPTH and no other
 *               limit.
 * @param[in,out] result the result; its struct_size (and optionally
 *               thread_nodes) must be set.
 * @return #GTS_OK when a result was produced, also after a stop or a limit
 *         (see gts_result::flags);
 *         #GTS_EINVAL for a NULL @p engine, @p game, @p state or @p result,
 *         a game without generate, apply, undo or evaluate, a window
 *         with alpha >= beta, or a gts_limits::history of NULL with a
 *         gts_limits::history_len above 0 (since 0.3);
 *         #GTS_ESTRUCT for a struct_size of @p result, @p game or @p limits
 *         below its 0.1 layout, or above this version's with a nonzero
 *         unknown tail (see ::gts_struct_id);
 *         #GTS_ERANGE for gts_game::max_moves outside 1..65535, a depth
 *         outside 0..#GTS_MAX_DEPTH, or a window or guess beyond
 *         +-#GTS_SCORE_INF;
 *         #GTS_EALGORITHM for an unknown @p alg;
 *         #GTS_ENOTSUP for a parallel algorithm with #GTS_OPT_THREADS > 1 on
 *         a game without clone or free;
 *         #GTS_EBUSY when @p engine is already searching;
 *         #GTS_ENOMEM; #GTS_ETHREAD when the pool's threads cannot be
 *         created;
 *         #GTS_ECALLBACK (a callback returned a negative value, evaluate
 *         returned #GTS_SCORE_INVALID or clone returned NULL), #GTS_EMOVES,
 *         #GTS_ESCORE when the game misbehaved; gts_result::callback_status
 *         holds the callback's own value.
 *         The argument errors (EINVAL, ESTRUCT, ERANGE, EALGORITHM, ENOTSUP,
 *         EBUSY) leave @p result untouched; after the others it holds the
 *         statistics and the last completed iteration, if any.
 *
 * Not thread-safe on one engine: a second concurrent search on @p engine
 * returns #GTS_EBUSY, and only gts_engine_stop() may be called on it from
 * other threads meanwhile. Separate engines may search concurrently (on
 * separate states).
 * @since 0.1
 */
GTS_API gts_status gts_search(gts_engine *engine, gts_algorithm alg, const gts_game *game,
                              void *state, const gts_limits *limits, gts_result *result);

/**
 * @brief gts_search() with #GTS_ALG_MINIMAX: plain negamax, the reference.
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
GTS_API gts_status gts_minimax(gts_engine *engine, const gts_game *game, void *state,
                               const gts_limits *limits, gts_result *result);
/**
 * @brief gts_search() with #GTS_ALG_ALPHABETA: fail-soft alpha-beta.
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
GTS_API gts_status gts_alphabeta(gts_engine *engine, const gts_game *game, void *state,
                                 const gts_limits *limits, gts_result *result);
/**
 * @brief gts_search() with #GTS_ALG_PVS: principal variation search.
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
GTS_API gts_status gts_pvs(gts_engine *engine, const gts_game *game, void *state,
                           const gts_limits *limits, gts_result *result);

/* The other named entry points: gts_search() with GTS_ALG_<NAME>.
 * Documented by the @fn blocks below (the declarations come from a macro). */
#define GTS__DECLARE_ENTRY(fn)                                                  \
    GTS_API gts_status fn(gts_engine *engine, const gts_game *game, void *state, \
                          const gts_limits *limits, gts_result *result);
GTS__DECLARE_ENTRY(gts_mtdf)
GTS__DECLARE_ENTRY(gts_negacstar)
GTS__DECLARE_ENTRY(gts_sssstar)
GTS__DECLARE_ENTRY(gts_dualstar)
GTS__DECLARE_ENTRY(gts_er)
GTS__DECLARE_ENTRY(gts_probcut)
GTS__DECLARE_ENTRY(gts_sssstar_stockman)
GTS__DECLARE_ENTRY(gts_bstar)
GTS__DECLARE_ENTRY(gts_mma)
GTS__DECLARE_ENTRY(gts_er_parallel)
GTS__DECLARE_ENTRY(gts_jamboree)
GTS__DECLARE_ENTRY(gts_dts)
GTS__DECLARE_ENTRY(gts_ybwc)
GTS__DECLARE_ENTRY(gts_pvsplit)
GTS__DECLARE_ENTRY(gts_abdada)
GTS__DECLARE_ENTRY(gts_lazysmp)
GTS__DECLARE_ENTRY(gts_rootsplit)
#undef GTS__DECLARE_ENTRY

/**
 * @fn gts_status gts_mtdf(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_MTDF: MTD(f).
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
/**
 * @fn gts_status gts_negacstar(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_NEGACSTAR: NegaC*.
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
/**
 * @fn gts_status gts_sssstar(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_SSSSTAR: SSS* (as MT-SSS*).
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
/**
 * @fn gts_status gts_sssstar_stockman(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_SSSSTAR_STOCKMAN: SSS* as Stockman wrote
 *        it, best-first over an OPEN list of (node, LIVE/SOLVED, merit)
 *        states, for comparison with the MT formulation (#GTS_ALG_SSSSTAR).
 *        Memory grows with the tree it explores (about b^(d/2) states);
 *        running out ends the search with #GTS_ENOMEM.
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.2
 */
/**
 * @fn gts_status gts_bstar(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_BSTAR: Berliner's B*.
 *
 * A best-first proof procedure: every node of the tree it keeps has a
 * pessimistic and an optimistic value (from gts_game::bounds and mate
 * distance, or evaluate() -/+ #GTS_OPT_BSTAR_MARGIN when that is set); it
 * expands nodes (ProveBest or DisproveRest) until the best root move's
 * pessimistic value is no lower than every other move's optimistic value,
 * then proves that move's value, or until a limit. gts_limits::depth is the
 * depth of the tree (nodes there get their minimax leaf value). With sound
 * ranges and no limit the move and score are the minimax ones; at a limit
 * the score is the chosen move's pessimistic value, with
 * #GTS_RESULT_LOWER_BOUND unless it is exact. Backing up intersects a
 * node's range with its children's, so ranges only narrow. gts_result::depth
 * is gts_limits::depth when the score is proved (no
 * #GTS_RESULT_LOWER_BOUND: the value at that depth, as an exact algorithm
 * reports it); otherwise the length of the principal variation (the line
 * B* expanded), at most gts_limits::depth and never more than
 * gts_result::seldepth. The tree
 * takes at most #GTS_OPT_TREE_MB (#GTS_RESULT_MEMORY_LIMIT when it filled).
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.2
 */
/**
 * @fn gts_status gts_mma(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_MMA: Rivest's min/max approximation.
 *
 * Grows an explicit tree best-first: the tip whose total edge penalty
 * -log(derivative of the generalized mean, M_p at MAX nodes and M_-p at
 * MIN nodes, p = #GTS_OPT_MMA_P / 10, of the values mapped into (0, 1) by a
 * logistic of scale #GTS_OPT_MMA_SCALE) is least is expanded next; by
 * default the means are taken of the children's minimax values (Rivest's
 * reverse approximation, #GTS_OPT_MMA_BACKUP). The score and move are the
 * minimax ones of the explored tree; with no limit the whole tree to
 * gts_limits::depth is explored and they are the minimax ones.
 * gts_result::seldepth is the deepest node created; gts_result::depth is
 * gts_limits::depth when the whole tree to that depth was explored, else
 * (a limit stopped it) the length of the principal variation, never more
 * than seldepth.
 * gts_limits::nodes counts the children created (the moves applied for
 * evaluation); the tree takes at most #GTS_OPT_TREE_MB
 * (#GTS_RESULT_MEMORY_LIMIT when it filled).
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.2
 */
/**
 * @fn gts_status gts_dualstar(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_DUALSTAR: Dual* (as MT-DUAL*).
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
/**
 * @fn gts_status gts_er(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_ER: serial Evaluate-and-Refute.
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
/**
 * @fn gts_status gts_probcut(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_PROBCUT: Buro's (Multi-)ProbCut (selective; see probcut.h).
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
/**
 * @fn gts_status gts_er_parallel(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_ER_PARALLEL: parallel Evaluate-and-Refute.
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * gts_er()'s search with the work of its evaluated nodes spread over
 * #GTS_OPT_THREADS workers: the evaluation of every child's first child is
 * mandatory work, the refutation of the others speculative work handed out
 * most promising first. With one thread it visits exactly the nodes
 * gts_er() visits.
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
/**
 * @fn gts_status gts_jamboree(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_JAMBOREE: Kuszmaul's Jamboree.
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
/**
 * @fn gts_status gts_dts(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_DTS: Hyatt's Dynamic Tree Splitting.
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
/**
 * @fn gts_status gts_ybwc(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_YBWC: Young Brothers Wait Concept.
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
/**
 * @fn gts_status gts_pvsplit(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_PVSPLIT: principal variation splitting.
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
/**
 * @fn gts_status gts_abdada(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_ABDADA: Weill's ABDADA.
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
/**
 * @fn gts_status gts_lazysmp(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_LAZYSMP: Lazy SMP.
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */
/**
 * @fn gts_status gts_rootsplit(gts_engine *engine, const gts_game *game, void *state, const gts_limits *limits, gts_result *result)
 * @brief gts_search() with #GTS_ALG_ROOTSPLIT: root splitting.
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search().
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.1
 */

#ifdef __cplusplus
}
#endif
#endif /* GTS_SEARCH_H */
