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
 * (or above, e.g. HUGE_VAL / INFINITY) no check runs, and ProbCut searches
 * exactly the tree of gts_pvs(): same score, same nodes.
 */
#ifndef GTS_PROBCUT_H
#define GTS_PROBCUT_H

#include "common.h"
#include "game.h"
#include "engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most (shallow, deep) pairs a parameter set can hold. */
#define GTS_PROBCUT_MAX_PAIRS 16

/** A threshold at or above this value disables its pair (HUGE_VAL works too). */
#define GTS_PROBCUT_THRESHOLD_OFF 1e300

/** One ProbCut check: at remaining depth deep_depth, a search of shallow_depth. */
typedef struct gts_probcut_pair {
    /** Depth d' of the check search, 0 <= shallow_depth < deep_depth
        (0: the static evaluation, or quiescence when enabled). */
    int32_t shallow_depth;
    /** Remaining depth d of the nodes the check applies to, 1..GTS_MAX_DEPTH. */
    int32_t deep_depth;
    /** Slope of the model v = a * v' + b; finite and > 0. */
    double a;
    /** Intercept of the model; finite. */
    double b;
    /** Standard deviation of the model's error; finite and > 0. */
    double sigma;
    /** Cut threshold t in standard deviations, >= 0; GTS_PROBCUT_THRESHOLD_OFF
        (or more) disables the pair. */
    double threshold;
} gts_probcut_pair;

/**
 * ProbCut parameters of an engine. Fill with gts_probcut_defaults() (or
 * zero it and set struct_size), then change what you need. The struct only
 * grows at the end; new fields are marked with the release that added them.
 */
typedef struct gts_probcut_params {
    /** sizeof(gts_probcut_params) as compiled by the caller. Must be first. */
    size_t struct_size;
    /** Pairs in use, 0..GTS_PROBCUT_MAX_PAIRS (0: no checks, plain PVS). */
    uint32_t npairs;
    /** The checks; pair[0 .. npairs-1] are used. */
    gts_probcut_pair pair[GTS_PROBCUT_MAX_PAIRS];
    /**
     * Internal iterative deepening: at a node whose checks ran but did not
     * cut, the shallow searches also serve to order the moves of the deep
     * search (the node reads the best move they stored in the transposition
     * table before searching). Needs a transposition table. Default true.
     */
    bool iid;
} gts_probcut_params;

/**
 * Fill @p params with the defaults: one pair (d' = 2, d = 4) with a = 1,
 * b = 0, sigma = 100 (one unit of a centi-unit score), threshold 1.5, and
 * iid on. Sets struct_size. These are generic guesses: calibrate for a real
 * game. GTS_EINVAL for NULL. Thread-safe.
 */
GTS_API gts_status gts_probcut_defaults(gts_probcut_params *params);

/**
 * Set the ProbCut parameters of @p engine, used by GTS_ALG_PROBCUT from the
 * next search on. NULL restores the defaults (gts_probcut_defaults()).
 *
 * Returns GTS_EINVAL for a NULL engine, GTS_ESTRUCT for a struct_size the
 * library does not know, GTS_ERANGE when npairs > GTS_PROBCUT_MAX_PAIRS or
 * a used pair has depths outside 0 <= shallow_depth < deep_depth <=
 * GTS_MAX_DEPTH, a <= 0, sigma <= 0, threshold < 0, or a non-finite a, b or
 * sigma (or a NaN threshold); GTS_EBUSY during a search. On error the
 * engine's parameters are unchanged. Not thread-safe (engine owner only).
 */
GTS_API gts_status gts_engine_set_probcut(gts_engine *engine, const gts_probcut_params *params);

/**
 * Copy the ProbCut parameters of @p engine into @p params, whose
 * struct_size the caller sets first. GTS_EINVAL for NULL, GTS_ESTRUCT for
 * an unknown struct_size. Not thread-safe (engine owner only).
 */
GTS_API gts_status gts_engine_get_probcut(const gts_engine *engine, gts_probcut_params *params);

/** Result of gts_probcut_calibrate(): the least-squares fit v = a * v' + b. */
typedef struct gts_probcut_fit {
    /** sizeof(gts_probcut_fit) as compiled by the caller. Must be first. */
    size_t struct_size;
    /** Slope and intercept of the regression of deep on shallow values. */
    double a, b;
    /** Standard deviation of the residuals (n - 2 degrees of freedom). */
    double sigma;
    /** Coefficient of determination of the fit (squared correlation). */
    double r2;
    /** Positions used for the fit. */
    uint32_t samples;
    /** Positions skipped: finished games, and decided (win/loss) values. */
    uint32_t skipped;
} gts_probcut_fit;

/**
 * Fit a ProbCut model for one (shallow_depth, deep_depth) pair: search each
 * sample position to both depths with exact PVS (gts_pvs() on @p engine,
 * with its options and table) and regress the deep values on the shallow
 * ones by least squares. Values are from the side to move at each position.
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
 * Returns GTS_OK and fills @p fit; GTS_EINVAL for NULL arguments (engine,
 * game, fit, or both positions and root), zero npositions or samples;
 * GTS_ESTRUCT for an unknown fit->struct_size or game->struct_size;
 * GTS_ERANGE for depths outside 1 <= shallow_depth < deep_depth <=
 * GTS_MAX_DEPTH, max_walk > GTS_MAX_PLY, or fewer than 3 usable positions
 * or constant shallow values (no fit; fit->samples/skipped are still set);
 * GTS_ENOMEM; and any status of gts_search() (a failing callback:
 * GTS_ECALLBACK...). Not thread-safe on @p engine; it must not be
 * searching.
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
