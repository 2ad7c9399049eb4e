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

/** Search algorithms. Values are stable ABI. */
typedef enum gts_algorithm {
    /** Plain negamax without pruning: the reference. Exact. */
    GTS_ALG_MINIMAX = 1,
    /** Fail-soft alpha-beta with TT, killers, history. Exact. */
    GTS_ALG_ALPHABETA = 2,
    /** Principal variation search (NegaScout). Exact. */
    GTS_ALG_PVS = 3,
    /** MTD(f): null-window searches converging on the value, with the TT. Exact. */
    GTS_ALG_MTDF = 4,
    /** NegaC*: bisection of the score range with null-window searches. Exact. */
    GTS_ALG_NEGACSTAR = 5,
    /** SSS* in its MT formulation (null windows from +infinity). Exact. */
    GTS_ALG_SSSSTAR = 6,
    /** Dual* in its MT formulation (null windows from -infinity). Exact. */
    GTS_ALG_DUALSTAR = 7,
    /** Serial Evaluate-and-Refute (Steinberg & Solomon). Exact. */
    GTS_ALG_ER = 8,
    /** Buro's (Multi-)ProbCut: selective, not exact. */
    GTS_ALG_PROBCUT = 9,

    /* 20s: parallel algorithms (GTS_OPT_THREADS workers; need clone/free) */
    /** Parallel Evaluate-and-Refute (Steinberg & Solomon). Exact. */
    GTS_ALG_ER_PARALLEL = 20,
    /** Kuszmaul's Jamboree search. Exact. */
    GTS_ALG_JAMBOREE = 21,
    /** Hyatt's Dynamic Tree Splitting. Exact. */
    GTS_ALG_DTS = 22,
    /** Young Brothers Wait Concept (Feldmann). Exact. */
    GTS_ALG_YBWC = 23,
    /** Principal variation splitting (Marsland & Campbell). Exact. */
    GTS_ALG_PVSPLIT = 24,
    /** ABDADA (Weill): shared-TT "being searched" deferral. Exact. */
    GTS_ALG_ABDADA = 25,
    /** Lazy SMP: threads share only the TT. Exact at the reported depth (see doc). */
    GTS_ALG_LAZYSMP = 26,
    /** Root splitting: root moves searched in parallel. Exact. */
    GTS_ALG_ROOTSPLIT = 27
} gts_algorithm;

/** Name of @p alg without the gts_ prefix ("pvs"), or NULL. Thread-safe. */
GTS_API const char *gts_algorithm_name(gts_algorithm alg);

/** Parse an algorithm name ("alphabeta"). GTS_EALGORITHM if unknown. Thread-safe. */
GTS_API gts_status gts_algorithm_from_name(const char *name, gts_algorithm *alg);

/** True when @p alg always returns the minimax value. Thread-safe. */
GTS_API bool gts_algorithm_is_exact(gts_algorithm alg);

/** True when @p alg uses more than one thread (GTS_OPT_THREADS). Thread-safe. */
GTS_API bool gts_algorithm_is_parallel(gts_algorithm alg);

/**
 * Enumerate algorithms: writes up to @p capacity values to @p out and
 * returns how many exist. Thread-safe.
 */
GTS_API int gts_algorithm_list(gts_algorithm *out, int capacity);

struct gts_result;

/**
 * Progress callback, called after each completed iteration with the result
 * so far. Return 0 to continue, non-zero to stop the search (the result of
 * that iteration is kept).
 */
typedef int (*gts_progress_fn)(const struct gts_result *result, void *user);

/** Limits of one search. Zero-initialise, set struct_size, fill what you need. */
typedef struct gts_limits {
    /** sizeof(gts_limits) as compiled by the caller. */
    size_t struct_size;
    /** Depth in plies, 1..GTS_MAX_DEPTH; 0 means GTS_MAX_DEPTH. */
    int32_t depth;
    /** Root window; alpha == beta == 0 means the full window. */
    gts_score alpha;
    gts_score beta;
    /** First guess for MTD(f)-style algorithms (used when has_guess). */
    gts_score guess;
    bool has_guess;
    /** Node budget; 0 = unlimited. */
    uint64_t nodes;
    /** Wall-clock budget in milliseconds; 0 = unlimited. */
    uint64_t time_ms;
    /** Called after each completed iteration; may be NULL. */
    gts_progress_fn on_iteration;
    void *on_iteration_user;
} gts_limits;

/** Bits of gts_result.flags. */
enum {
    /** best_move holds a move (false at a terminal root). */
    GTS_RESULT_HAS_MOVE = 1u << 0,
    /** The search was stopped by gts_engine_stop() or the progress callback. */
    GTS_RESULT_STOPPED = 1u << 1,
    /** The node budget ran out. */
    GTS_RESULT_NODE_LIMIT = 1u << 2,
    /** The time budget ran out. */
    GTS_RESULT_TIME_LIMIT = 1u << 3,
    /** Score is a lower bound (it failed high on the caller's window). */
    GTS_RESULT_LOWER_BOUND = 1u << 4,
    /** Score is an upper bound (it failed low on the caller's window). */
    GTS_RESULT_UPPER_BOUND = 1u << 5
};

/**
 * What a search found. Zero-initialise it, set struct_size and, optionally,
 * thread_nodes/thread_nodes_capacity (the only inputs); the library fills
 * the rest.
 */
typedef struct gts_result {
    /** sizeof(gts_result) as compiled by the caller. */
    size_t struct_size;
    /** Best move at the root (valid when flags has GTS_RESULT_HAS_MOVE). */
    gts_move best_move;
    /** Score of the root from the side to move. */
    gts_score score;
    /** Depth of the last completed iteration (0 if none completed). */
    int32_t depth;
    /** Deepest ply reached (quiescence and extensions included). */
    int32_t seldepth;
    /** GTS_RESULT_* bits. */
    uint32_t flags;
    /** Principal variation, pv[0] == best_move. */
    gts_move pv[GTS_MAX_PLY];
    uint32_t pv_length;
    /** Threads that searched. */
    uint32_t threads;
    /** Nodes visited (every apply of a move, plus the root). */
    uint64_t nodes;
    /** Transposition-table probes, hits (key found) and cutoffs (bound used). */
    uint64_t tt_probes;
    uint64_t tt_hits;
    uint64_t tt_cutoffs;
    /** Parallel algorithms: nodes searched as mandatory / speculative work, and
        speculative nodes whose result was thrown away by a cutoff. */
    uint64_t nodes_mandatory;
    uint64_t nodes_speculative;
    uint64_t nodes_wasted;
    /** Wall-clock time of the whole search in microseconds. */
    uint64_t time_us;
    /** The negative value a failed callback returned (with GTS_ECALLBACK); -1 for a
        failed evaluate() or clone(), which have no code of their own. */
    int32_t callback_status;
    /** Optional caller array for per-thread node counts, and its length. */
    uint64_t *thread_nodes;
    uint32_t thread_nodes_capacity;
} gts_result;

/**
 * Search @p state of @p game with @p alg under @p limits (NULL = depth
 * GTS_MAX_DEPTH, no other limit) and write @p result.
 *
 * Returns GTS_OK when a result was produced (also after a stop or a limit:
 * see result->flags), GTS_EINVAL for NULL or inconsistent arguments,
 * GTS_ESTRUCT for a struct_size the library does not know, GTS_EALGORITHM,
 * GTS_ENOTSUP (a parallel algorithm on a game without clone/free),
 * GTS_EBUSY if the engine is searching, GTS_ECALLBACK / GTS_EMOVES /
 * GTS_ESCORE when the game misbehaved (result->callback_status tells the
 * callback's own code), GTS_ENOMEM. In every case @p state is unchanged on
 * return. Not thread-safe on one engine; separate engines may search
 * concurrently.
 */
GTS_API gts_status gts_search(gts_engine *engine, gts_algorithm alg, const gts_game *game,
                              void *state, const gts_limits *limits, gts_result *result);

/** gts_search() with GTS_ALG_MINIMAX. */
GTS_API gts_status gts_minimax(gts_engine *engine, const gts_game *game, void *state,
                               const gts_limits *limits, gts_result *result);
/** gts_search() with GTS_ALG_ALPHABETA. */
GTS_API gts_status gts_alphabeta(gts_engine *engine, const gts_game *game, void *state,
                                 const gts_limits *limits, gts_result *result);
/** gts_search() with GTS_ALG_PVS. */
GTS_API gts_status gts_pvs(gts_engine *engine, const gts_game *game, void *state,
                           const gts_limits *limits, gts_result *result);

/* The other named entry points: gts_search() with GTS_ALG_<NAME>. */
#define GTS__DECLARE_ENTRY(fn)                                                  \
    GTS_API gts_status fn(gts_engine *engine, const gts_game *game, void *state, \
                          const gts_limits *limits, gts_result *result);
GTS__DECLARE_ENTRY(gts_mtdf)
GTS__DECLARE_ENTRY(gts_negacstar)
GTS__DECLARE_ENTRY(gts_sssstar)
GTS__DECLARE_ENTRY(gts_dualstar)
GTS__DECLARE_ENTRY(gts_er)
GTS__DECLARE_ENTRY(gts_probcut)
GTS__DECLARE_ENTRY(gts_er_parallel)
GTS__DECLARE_ENTRY(gts_jamboree)
GTS__DECLARE_ENTRY(gts_dts)
GTS__DECLARE_ENTRY(gts_ybwc)
GTS__DECLARE_ENTRY(gts_pvsplit)
GTS__DECLARE_ENTRY(gts_abdada)
GTS__DECLARE_ENTRY(gts_lazysmp)
GTS__DECLARE_ENTRY(gts_rootsplit)
#undef GTS__DECLARE_ENTRY

#ifdef __cplusplus
}
#endif
#endif /* GTS_SEARCH_H */
