/**
 * @file probcut.h
 * @brief Parameters and calibration of Buro's ProbCut / Multi-ProbCut
 *        (the GTS_ALG_PROBCUT algorithm, gts_probcut()).
 *
 * ProbCut (M. Buro, "ProbCut: An effective selective extension of the
 * alpha-beta algorithm", ICCA Journal 18(2), 1995) predicts the value v of a
 * deep search (remaining depth d) from a shallow one (depth d' < d) by the
 * linear model v = a * v' + b + e, where the error e is roughly normal with
 * standard deviation sigma. At a node with remaining depth d it first runs
 * null-window searches of depth d' and prunes when the model says the deep
 * search would fail high (or low) with high probability:
 *
 *  - fail high when v' >= (t * sigma + beta - b) / a: the node returns beta;
 *  - fail low  when v' <= (-t * sigma + alpha - b) / a: the node returns alpha;
 *  - otherwise the node is searched normally.
 *
 * Checks never run at the root, nor against a decided (win/loss) bound: the
 * model says nothing about wins and losses, which only a search proves.
 *
 * t is the cut threshold (in standard deviations): larger is safer and
 * prunes less. Multi-ProbCut (Buro, "Experiments with Multi-ProbCut and a
 * new high-quality evaluation function for Othello", 1997) allows several
 * (d', d) pairs, also several per deep depth, each with its own model and
 * threshold; the checks of one node run in array order.
 *
 * Fit a, b and sigma for your game and evaluation with
 * gts_probcut_calibrate(), then set them on an engine with
 * gts_engine_set_probcut(). The search is selective: its result may differ
 * from the minimax value. With every threshold at GTS_PROBCUT_THRESHOLD_OFF
 * (or above, e.g. HUGE_VAL / INFINITY) no check runs, and each iteration
 * of ProbCut searches exactly the tree of gts_pvs(): same score, same
 * nodes. (Iterative deepening stops early on a decided win or loss only for
 * exact algorithms, so ProbCut may then run more iterations than gts_pvs().)
 */
#ifndef GTS_PROBCUT_H
#define GTS_PROBCUT_H

#include "common.h"
#include "game.h"
#include "engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Most (shallow, deep) pairs a parameter set can hold. @since 0.1 */
#define GTS_PROBCUT_MAX_PAIRS 16

/** @brief A threshold at or above this value disables its pair (HUGE_VAL works too). @since 0.1 */
#define GTS_PROBCUT_THRESHOLD_OFF 1e300

/**
 * @brief One ProbCut check: at remaining depth deep_depth, a search of
 *        shallow_depth.
 * @since 0.1
 */
typedef struct gts_probcut_pair {
    /** @brief Depth d' of the check search, 0 <= shallow_depth < deep_depth
        (0: the static evaluation, or quiescence when enabled).
        @since 0.1 */
    int32_t shallow_depth;
    /**
     * @brief Remaining depth d of the nodes the check applies to, 1..GTS_MAX_DEPTH.
     * @since 0.1
     */
    int32_t deep_depth;
    /** @brief Slope of the model v = a * v' + b; finite and > 0. @since 0.1 */
    double a;
    /** @brief Intercept of the model; finite. @since 0.1 */
    double b;
    /** @brief Standard deviation of the model's error; finite and > 0. @since 0.1 */
    double sigma;
    /** @brief Cut threshold t in standard deviations, >= 0; GTS_PROBCUT_THRESHOLD_OFF
        (or more) disables the pair.
        @since 0.1 */
    double threshold;
} gts_probcut_pair;

/**
 * @brief ProbCut parameters of an engine.
 *
 * Fill with gts_probcut_defaults() (or zero it and set struct_size), then
 * change what you need, and pass it to gts_engine_set_probcut(). The struct
 * only grows at the end; new fields are marked with the release that added
 * them.
 * @since 0.1
 */
typedef struct gts_probcut_params {
    /**
     * @brief sizeof(gts_probcut_params) as compiled by the caller. Must be first.
     * @since 0.1
     */
    size_t struct_size;
    /**
     * @brief Pairs in use, 0..GTS_PROBCUT_MAX_PAIRS (0: no checks, plain PVS).
     * @since 0.1
     */
    uint32_t npairs;
    /** @brief The checks; pair[0 .. npairs-1] are used. @since 0.1 */
    gts_probcut_pair pair[GTS_PROBCUT_MAX_PAIRS];
    /**
     * @brief Internal iterative deepening: at a node whose checks ran but did not
     * cut, the shallow searches also serve to order the moves of the deep
     * search (the node reads the best move they stored in the transposition
     * table before searching). Needs a transposition table. Default true.
     * @since 0.1
     */
    bool iid;
} gts_probcut_params;

/** @brief struct_size of the 0.1 layout of gts_probcut_params (through
 *         gts_probcut_params::iid): the smallest size accepted. @since 0.1 */
#define GTS_PROBCUT_PARAMS_SIZE_V0_1 (offsetof(gts_probcut_params, iid) + sizeof(bool))

/**
 * @brief Fill @p params with the defaults.
 *
 * One pair (d' = 2, d = 4) with a = 1, b = 0, sigma = 100 (one unit of a
 * centi-unit score), threshold 1.5, and iid on; struct_size is set. These
 * are generic guesses: calibrate for a real game.
 *
 * @param[out] params the parameters to fill (entirely overwritten).
 * @return #GTS_OK, or #GTS_EINVAL for a NULL @p params.
 *
 * Thread-safe.
 * @since 0.1
 */
GTS_API gts_status gts_probcut_defaults(gts_probcut_params *params);

/**
 * @brief Set the ProbCut parameters of @p engine, used by #GTS_ALG_PROBCUT
 *        from the next search on.
 *
 * @param engine the engine.
 * @param params the parameters (copied), or NULL to restore the defaults
 *               (gts_probcut_defaults()).
 * @return #GTS_OK; #GTS_EINVAL for a NULL @p engine; #GTS_ESTRUCT for a
 *         struct_size the library does not know; #GTS_ERANGE when npairs >
 *         #GTS_PROBCUT_MAX_PAIRS or a used pair has depths outside 0 <=
 *         shallow_depth < deep_depth <= #GTS_MAX_DEPTH, a <= 0, sigma <= 0,
 *         threshold < 0, or a non-finite a, b or sigma (or a NaN threshold);
 *         #GTS_EBUSY while a search runs on @p engine; #GTS_ENOMEM when the
 *         first call on @p engine with parameters (not NULL) cannot allocate
 *         room for them (since 0.2; back to the defaults never fails so). On error the engine's parameters are unchanged.
 *
 * Not thread-safe: call it from the thread that owns @p engine.
 * @since 0.1
 */
GTS_API gts_status gts_engine_set_probcut(gts_engine *engine, const gts_probcut_params *params);

/**
 * @brief Copy the ProbCut parameters of @p engine into @p params.
 *
 * An engine whose parameters were never set reports the defaults.
 *
 * @param engine the engine.
 * @param[in,out] params receives the parameters; the caller sets its
 *                struct_size first.
 * @return #GTS_OK; #GTS_EINVAL for a NULL @p engine or @p params;
 *         #GTS_ESTRUCT for an unknown struct_size.
 *
 * Not thread-safe: call it from the thread that owns @p engine.
 * @since 0.1
 */
GTS_API gts_status gts_engine_get_probcut(const gts_engine *engine, gts_probcut_params *params);

/**
 * @brief Result of gts_probcut_calibrate(): the least-squares fit
 *        v = a * v' + b.
 * @since 0.1
 */
typedef struct gts_probcut_fit {
    /**
     * @brief sizeof(gts_probcut_fit) as compiled by the caller. Must be first.
     * @since 0.1
     */
    size_t struct_size;
    /**
     * @brief Slope and intercept of the regression of deep on shallow values.
     * @since 0.1
     */
    double a, b;
    /** @var gts_probcut_fit::b
        @brief Intercept of the regression of deep on shallow values.
        @since 0.1 */
    /** @brief Standard deviation of the residuals (n - 2 degrees of freedom). @since 0.1 */
    double sigma;
    /** @brief Coefficient of determination of the fit (squared correlation). @since 0.1 */
    double r2;
    /** @brief Positions used for the fit. @since 0.1 */
    uint32_t samples;
    /**
     * @brief Positions skipped: finished games, and decided (win/loss) values.
     * @since 0.1
     */
    uint32_t skipped;
} gts_probcut_fit;

/** @brief struct_size of the 0.1 layout of gts_probcut_fit (through
 *         gts_probcut_fit::skipped): the smallest size accepted. @since 0.1 */
#define GTS_PROBCUT_FIT_SIZE_V0_1 (offsetof(gts_probcut_fit, skipped) + sizeof(uint32_t))

/**
 * @brief Fit a ProbCut model for one (shallow_depth, deep_depth) pair.
 *
 * Searches each sample position to both depths with exact PVS (gts_pvs() on
 * @p engine, with its options and table) and regresses the deep values on
 * the shallow ones by least squares. Values are from the side to move at
 * each position.
 *
 * Positions: the @p npositions states of @p positions when it is not NULL
 * (@p root, @p samples, @p seed and @p max_walk are then ignored); else
 * @p samples positions reached from @p root by random play: each walk
 * plays a uniformly random number of plies in 0..@p max_walk, each a
 * uniformly random legal move drawn from @p seed, and takes every move back
 * afterwards. Finished games, walks that end in one, and positions whose
 * values are decided (win/loss scores) are skipped (counted in
 * fit->skipped); random play makes at most 4 * @p samples walks. Every
 * state, @p root included, is unchanged on return.
 *
 * @param engine     the engine that searches (options and table as set).
 * @param game       the game; needs the four required callbacks.
 * @param positions  sample states, or NULL to sample by random play from
 *                   @p root. None may be NULL.
 * @param npositions number of @p positions (> 0 when @p positions is set).
 * @param root       start of the random walks (used when @p positions is
 *                   NULL); restored before return.
 * @param samples    positions to collect by random play (> 0 then).
 * @param seed       seed of the random walks (same seed, same positions).
 * @param max_walk   longest random walk in plies, 0..#GTS_MAX_PLY.
 * @param shallow_depth depth d' of the shallow searches, >= 1.
 * @param deep_depth depth d of the deep searches, shallow_depth < d <=
 *                   #GTS_MAX_DEPTH.
 * @param[in,out] fit receives the fit; the caller sets its struct_size.
 * @return #GTS_OK; #GTS_EINVAL for a NULL @p engine, @p game or @p fit,
 *         both @p positions and @p root NULL, a NULL entry of @p positions,
 *         a game without a required callback, or zero @p npositions /
 *         @p samples; #GTS_ESTRUCT for an unknown fit or game struct_size;
 *         #GTS_ERANGE for depths outside 1 <= shallow_depth < deep_depth
 *         <= #GTS_MAX_DEPTH, @p max_walk > #GTS_MAX_PLY, max_moves 0, or
 *         fewer than 3 usable positions or constant shallow values (no fit;
 *         fit->samples and fit->skipped are still set); #GTS_EBUSY while
 *         @p engine is searching;
 *         #GTS_ENOMEM; #GTS_ECALLBACK / #GTS_EMOVES when a callback fails
 *         during the walks; and any status of gts_search().
 *
 * Not thread-safe: call it from the thread that owns @p engine.
 * @since 0.1
 */
GTS_API gts_status gts_probcut_calibrate(gts_engine *engine, const gts_game *game,
                                         void *const *positions, size_t npositions,
                                         void *root, uint32_t samples, uint64_t seed,
                                         uint32_t max_walk, int32_t shallow_depth,
                                         int32_t deep_depth, gts_probcut_fit *fit);

#ifdef __cplusplus
}
#endif
#endif /* GTS_PROBCUT_H */
