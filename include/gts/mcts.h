/**
 * @file mcts.h
 * @brief Monte-Carlo tree search: the gts_mcts() entry point, its parallel
 *        modes and the per-root-move statistics of the last search.
 *
 * gts_mcts() is gts_search() with #GTS_ALG_MCTS: UCT (UCB1) over an explicit
 * tree, with uniformly random playouts through generate/apply/undo, a
 * score-bounded solver, optional progressive bias from move_score(), and
 * tree or root parallelisation with #GTS_OPT_THREADS. Its knobs are the
 * `GTS_OPT_MCTS_*` engine options (400s). It uses the same game vtable,
 * limits, stop, result and error handling as every other algorithm; what
 * differs is documented on gts_mcts() and in doc/architecture.md.
 */
#ifndef GTS_MCTS_H
#define GTS_MCTS_H

#include "common.h"
#include "game.h"
#include "engine.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Values of #GTS_OPT_MCTS_PARALLEL: how #GTS_OPT_THREADS workers
 *        share the search.
 * @since 0.2
 */
typedef enum gts_mcts_parallel {
    /**
     * @brief Tree parallelisation: one shared tree, lock-free node
     * statistics, virtual loss (#GTS_OPT_MCTS_VIRTUAL_LOSS) to spread the
     * workers over different lines. @since 0.2
     */
    GTS_MCTS_TREE = 0,
    /**
     * @brief Root parallelisation: one tree per worker (different random
     * streams), the root moves' statistics summed at the end. @since 0.2
     */
    GTS_MCTS_ROOT = 1
} gts_mcts_parallel;

/**
 * @brief Statistics of one root move after an MCTS search
 *        (gts_mcts_root_stats()).
 *
 * Rewards are in [0, 1] from the root's side to move: 1 a win, 0.5 a draw,
 * 0 a loss (see gts_mcts() for how positions are scored).
 * @since 0.2
 */
typedef struct gts_mcts_move_stats {
    /** @brief sizeof(gts_mcts_move_stats) as compiled by the caller (see
        gts_mcts_root_stats()). @since 0.2 */
    size_t struct_size;
    /** @brief The move, as generate() returned it at the root. @since 0.2 */
    gts_move move;
    /** @brief Playouts that went through this move (with an evaluator:
        evaluations, finished games and proven nodes reached through it);
        over the root's moves, the visit distribution. @since 0.2 */
    uint64_t visits;
    /** @brief Mean reward of those playouts, in [0, 1]; 0 when visits is 0.
        @since 0.2 */
    double mean;
    /** @brief Prior of the move from move_score() / generate_keyed() in
        [0, 1] (1 for the best-ordered move), or 0 when
        #GTS_OPT_MCTS_PRIOR is 0 or the game has no hint. With an evaluator
        (gts_engine_set_evaluator(), since 0.3): the evaluator's prior of
        the move, normalised, after this search's Dirichlet noise.
        @since 0.2 */
    double prior;
    /** @brief mean converted to a score (see gts_mcts()), clamped to
        [lower, upper]. @since 0.2 */
    gts_score score;
    /** @brief Proven lower bound of the move's value from the root's side
        (root-relative, like gts_result::score); lower == upper: solved.
        @since 0.2 */
    gts_score lower;
    /** @brief Proven upper bound of the move's value (see lower). @since 0.2 */
    gts_score upper;
    /** @brief All-moves-as-first count (RAVE, #GTS_OPT_MCTS_RAVE): the
        simulations from the root in which the root's side played this move
        first, at any of its turns (so at least visits); 0 without RAVE.
        @since 0.2 */
    uint64_t amaf_visits;
    /** @brief Mean reward of those simulations for the root's side, in
        [0, 1]; 0 when amaf_visits is 0. @since 0.2 */
    double amaf_mean;
} gts_mcts_move_stats;

/** @brief struct_size of the first layout of gts_mcts_move_stats (through
 *         gts_mcts_move_stats::amaf_mean): the smallest size accepted.
 *         @since 0.2 */
#define GTS_MCTS_MOVE_STATS_SIZE_V0_2 \
    (offsetof(gts_mcts_move_stats, amaf_mean) + sizeof(double))

/**
 * @brief gts_search() with #GTS_ALG_MCTS: Monte-Carlo tree search (UCT).
 *
 * **Iteration.** From the root, select children by UCB1,
 * mean + c * sqrt(ln N / n) (c = #GTS_OPT_MCTS_EXPLORATION / 100; with
 * #GTS_OPT_MCTS_PRIOR a progressive-bias term w * prior / (n + 1) is
 * added), until a node never visited. There generate() its moves, create
 * its children in the tree (when #GTS_OPT_TREE_MB allows), and play
 * one playout from it: moves of the game's gts_game::playout_move() policy,
 * or uniformly random ones from generate() without one, until a finished game
 * (generate() returns 0), #GTS_OPT_MCTS_PLAYOUT_DEPTH moves, or ply
 * gts_limits::depth from the root when a depth below #GTS_MAX_DEPTH was
 * given (else ply #GTS_MAX_PLY, below which the library never plays). Every move is undone; the reward is added to each node on the
 * path, from the side that moved into it.
 *
 * **Rewards.** A finished game scores by the sign of its evaluate(): > 0
 * a win (1), 0 a draw (0.5), < 0 a loss (0), from the side to move there. A
 * playout cut by a cap scores 1 / (1 + exp(-evaluate() / s)) with
 * s = #GTS_OPT_MCTS_EVAL_SCALE (decided scores count as wins or losses),
 * and so does a playout that the policy ends (playout_move() returns 0)
 * at an unfinished game. A policy that fails, or returns a move generate()
 * did not list in that position, ends the search with #GTS_ECALLBACK
 * (state restored). A game that declares #GTS_TRAIT_TRUSTED_PLAYOUT is
 * trusted instead: its policy's moves are played without a generate()
 * between them, one generate() at the end of the playout sees whether the
 * game is finished, and an illegal move is left to apply() to reject.
 *
 * **RAVE.** With #GTS_OPT_MCTS_RAVE = k > 0 and a game that declares
 * #GTS_TRAIT_MOVE_IDENTITY (otherwise the option is ignored: a move value
 * would mean different actions in different positions), every child also
 * keeps all-moves-as-first statistics (Gelly & Silver 2007): after a
 * simulation, at each tree node on its path, every child whose move the
 * side to move there played later in the simulation (tree part or playout;
 * the first time that move was played from there on, by either side,
 * counts, and only if it was this side) gets that side's reward. Selection
 * uses (1 - beta) * mean + beta * amaf_mean with
 * beta = sqrt(k / (3n + k)) for a child of n visits (the paper's
 * hand-tuned schedule: one parameter, the visit count at which both means
 * weigh alike; the minimum-MSE schedule needs a per-game bias estimate),
 * and unvisited children are tried in order of their AMAF mean. k = 0
 * gives exactly the search without RAVE. The counts are in
 * gts_mcts_move_stats::amaf_visits.
 *
 * **Tree reuse.** See gts_mcts_advance().
 *
 * **Evaluator.** With a batch evaluator set (gts_engine_set_evaluator(),
 * since 0.3) selection is PUCT over its priors and new leaves are
 * evaluated by it in batches instead of played out; see there.
 *
 * **Solver.** Every node keeps a proven range of its value (score-bounded
 * MCTS, Cazenave & Saffidine 2010): finished games and positions at ply
 * gts_limits::depth are exact (their evaluate()), the game's bounds() and
 * mate distance narrow the rest, and ranges are backed up by negamax. A
 * child that cannot reach its parent's proven value is no longer selected.
 * The search ends when the root's value is proven, so a search without
 * limits on a finite game returns its exact minimax value at
 * gts_limits::depth (default: to the end of the game); otherwise at a
 * limit: gts_limits::nodes (moves applied, playouts included), time, a
 * stop, or the playout budget #GTS_OPT_MCTS_PLAYOUTS (a normal end, no
 * flag). Without a budget and a limit a search of a game too big to prove
 * runs until gts_engine_stop().
 *
 * **Result.** best_move: when the root is proven, a move that proves its
 * value; otherwise the most visited move that may still reach the root's
 * proven value, unless a move with a proven value better than its estimate
 * exists (since 0.3, with #GTS_OPT_MCTS_TEMPERATURE > 0: a move drawn
 * with probability proportional to visits^(1 / T) instead). score: the proven value when the root is solved, else
 * s * ln(m / (1 - m)) for the best move's mean m, clamped to the proven
 * ranges and inside +-(#GTS_SCORE_DECIDED - 1). pv: from the best move, the
 * most visited child at each node. depth: gts_limits::depth when the root
 * is proven (the value is then exact to that depth), else the length of
 * the pv; 0 with the first legal move and the static score when no playout
 * completed. nodes: moves applied (tree and playouts) plus the root.
 * #GTS_RESULT_MEMORY_LIMIT: the tree stopped growing;
 * #GTS_RESULT_TREE_REUSED (since 0.3): the search continued the kept tree
 * (gts_mcts_advance()) instead of a fresh one. The progress
 * callback fires, between batches of playouts (1024, 2048, 4096, ...),
 * whenever depth grew. Per-move statistics: gts_mcts_root_stats().
 *
 * **Callbacks.** generate, apply, undo, evaluate, bounds and playout_move
 * (when present), move_score / generate_keyed (with #GTS_OPT_MCTS_PRIOR)
 * and hash (with #GTS_OPT_MCTS_REUSE: once per expanded node, to recognise
 * the position at the next search; there is no transposition table); not
 * extend or generate_noisy. Failures are handled as
 * for every algorithm (doc/adapter.md).
 *
 * Parallel: with #GTS_OPT_THREADS > 1, clone/free are required and the
 * workers share one tree (#GTS_MCTS_TREE) or grow one each
 * (#GTS_MCTS_ROOT); results then vary from run to run. At one thread the
 * same #GTS_OPT_MCTS_SEED gives the same tree, move and statistics.
 *
 * @param engine the engine.
 * @param game   the game.
 * @param state  the root position (restored before return).
 * @param limits the limits, or NULL.
 * @param[in,out] result the result.
 * @return as gts_search(); also #GTS_ENOMEM when not even the root's
 *         children fit in #GTS_OPT_TREE_MB (a budget used up later is
 *         no failure: it sets #GTS_RESULT_MEMORY_LIMIT) or the engine's
 *         allocator fails.
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.2
 */
GTS_API gts_status gts_mcts(gts_engine *engine, const gts_game *game, void *state,
                            const gts_limits *limits, gts_result *result);

/**
 * @brief Per-root-move statistics of the last MCTS search on @p engine.
 *
 * One entry per root move, in generate() order. Set out[0].struct_size to
 * sizeof(gts_mcts_move_stats): it is the stride of @p out (any size from
 * #GTS_MCTS_MOVE_STATS_SIZE_V0_2 on); every entry written gets the same
 * struct_size. The statistics stay until the next search on @p engine (of
 * any algorithm, which clears them); in a progress callback they are those
 * of the search so far.
 *
 * @param engine the engine.
 * @param[out] out receives up to @p capacity entries; may be NULL to only
 *                 count them.
 * @param capacity length of @p out (0 or less writes nothing).
 * @return the number of root moves (may exceed @p capacity; 0 when the last
 *         search was not MCTS, its root was a finished game, or it failed
 *         before the root's moves were known); #GTS_EINVAL for a NULL @p engine; #GTS_ESTRUCT for
 *         an unsupported out[0].struct_size.
 *
 * Not thread-safe: call it from the thread that owns @p engine (a progress
 * callback runs on that thread and may call it).
 * @since 0.2
 */
GTS_API int gts_mcts_root_stats(const gts_engine *engine, gts_mcts_move_stats *out,
                                int capacity);

/**
 * @brief Tree reuse: move the root of the tree kept from the last MCTS
 *        search on @p engine down by the moves played since.
 *
 * With #GTS_OPT_MCTS_REUSE on (the default), an MCTS search that did not
 * fail (a stop or a limit is fine) and had no depth limit leaves its tree
 * in the engine. The call sequence of a game loop:
 *
 *     gts_mcts(engine, game, state, NULL, &r);     // search
 *     game->apply(state, r.best_move, user);       // play the move
 *     game->apply(state, reply, user);             // and the reply
 *     gts_move played[2] = {r.best_move, reply};
 *     gts_mcts_advance(engine, played, 2, NULL);   // follow them in the tree
 *     gts_mcts(engine, game, state, NULL, &r);     // continues from there
 *
 * This keeps the subtree of the position the moves reach (copied into
 * fresh memory, so the memory of every other line is freed here; proven
 * mate distances are made relative to the new root, and a proven range
 * that rests on the old horizon (evaluate() taken as exact
 * #GTS_MAX_DEPTH plies from the old root, which is now nearer than the
 * new horizon) is reopened and recomputed from what finished games and
 * bounds() proved) and marks it for the next search. @p n = 0 keeps the whole tree: the next search of the same
 * position continues it. The next MCTS search adopts the kept tree when
 * its root matches the searched position: the same generate() callback,
 * the same moves in the same order at the root, the same hash() when the
 * game has one (a game without hash() is trusted to search the position
 * the moves lead to), no depth limit, and the kept memory within
 * #GTS_OPT_TREE_MB (it counts against the budget). Otherwise, or when no
 * gts_mcts_advance() came between the two searches, the kept tree is freed
 * and the search starts fresh. The adopted root keeps its statistics (its
 * visits, the children's visits, means, AMAF counts and proven ranges);
 * #GTS_OPT_MCTS_PLAYOUTS and gts_limits count only the new search's
 * playouts and moves; the search's result has #GTS_RESULT_TREE_REUSED
 * (since 0.3). With root parallelisation each worker's tree is
 * advanced and adopted alike. A kept tree is freed by the next MCTS
 * search that does not adopt it, by gts_engine_clear(), by setting
 * #GTS_OPT_MCTS_REUSE to 0, and by gts_engine_free().
 *
 * @param engine the engine.
 * @param moves  the moves played from the last search's root, in order
 *               (may be NULL when @p n is 0).
 * @param n      their number, 0..#GTS_MAX_DEPTH.
 * @param[out] visits when not NULL, receives the visits of the new root
 *                    (summed over the trees; 0 when no tree is kept).
 * @return 1 when a tree is kept for the next search; 0 when there is none
 *         (no kept tree, or it does not hold the position reached with
 *         its moves generated: the next search starts fresh);
 *         #GTS_EINVAL for a NULL @p engine, @p n out of range or NULL
 *         @p moves; #GTS_EBUSY while the engine searches; #GTS_ENOMEM when
 *         the copy could not be allocated (the tree is then dropped).
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.2
 */
GTS_API int gts_mcts_advance(gts_engine *engine, const gts_move *moves, int n,
                             uint64_t *visits);

/**
 * @brief One call's worth of positions for an evaluator
 *        (gts_evaluator::evaluate()): the library fills it, the evaluator
 *        writes values and, if it has them, priors.
 *
 * Every array belongs to the library and is valid only during the call.
 * Moves and priors of all positions are flat arrays: position i's are
 * entries offsets[i] .. offsets[i + 1] - 1, in generate() order. No
 * position is a finished game (those are scored by evaluate() of the game).
 * @since 0.3
 */
typedef struct gts_eval_batch {
    /** @brief sizeof(gts_eval_batch) of the library that made it. @since 0.3 */
    size_t struct_size;
    /** @brief Positions in this call, 1..#GTS_OPT_MCTS_BATCH. @since 0.3 */
    uint32_t n;
    /** @brief The positions [n]: game states the evaluator may read (and
        modify only if it restores them before it returns). @since 0.3 */
    void *const *states;
    /** @brief [n + 1] offsets into moves and priors; offsets[0] is 0.
        @since 0.3 */
    const uint32_t *offsets;
    /** @brief [offsets[n]] each position's moves, as generate() returned
        them. @since 0.3 */
    const gts_move *moves;
    /** @brief [n] out: each position's value in [-1, 1] from its side to
        move (1 a win, 0 even, -1 a loss); prefilled with 0. @since 0.3 */
    float *values;
    /** @brief [offsets[n]] out: each move's prior, any non-negative
        weights (the library normalises each position's to sum 1; all 0
        means uniform); prefilled uniform, so an evaluator without a policy
        leaves it alone. @since 0.3 */
    float *priors;
} gts_eval_batch;

/**
 * @brief A batch evaluator: a learned (or hand-written) value and policy
 *        that MCTS asks for many positions at once.
 * @since 0.3
 */
typedef struct gts_evaluator {
    /** @brief sizeof(gts_evaluator) as compiled by the caller. @since 0.3 */
    size_t struct_size;
    /**
     * @brief Evaluate @p batch: write batch->values[0 .. n-1] and, if it
     * has a policy, batch->priors. Returns 0 (or any non-negative value)
     * on success; a negative value fails the search with #GTS_ECALLBACK
     * (the caller's state restored; gts_result::callback_status holds the
     * value), as does a value outside [-1, 1], a NaN, or a negative or
     * non-finite prior. Called from the search's worker threads, several
     * at once with #GTS_OPT_THREADS > 1 (each with its own batch): it must
     * be reentrant, as every callback.
     * @since 0.3
     */
    int (*evaluate)(const gts_eval_batch *batch, void *ctx);
    /** @brief Passed back to evaluate(). @since 0.3 */
    void *ctx;
} gts_evaluator;

/** @brief struct_size of the first layout of gts_evaluator (through
 *         gts_evaluator::ctx): the smallest size accepted. @since 0.3 */
#define GTS_EVALUATOR_SIZE_V0_3 (offsetof(gts_evaluator, ctx) + sizeof(void *))

/**
 * @brief Give MCTS on @p engine a batch evaluator: PUCT with its priors
 *        and values instead of UCB1 with playouts.
 *
 * From the next gts_mcts() on, with an evaluator set: selection is PUCT
 * (#GTS_OPT_MCTS_CPUCT, #GTS_OPT_MCTS_FPU) over the evaluator's priors;
 * a new leaf is not played out but collected (with virtual loss) until
 * #GTS_OPT_MCTS_BATCH leaves are pending, then all are evaluated in one
 * call, their children created with the priors, and their values backed
 * up as rewards (value + 1) / 2. Finished games, the horizon and the
 * solver work as without an evaluator (a finished game scores by
 * evaluate()'s sign). The root is evaluated alone at the start of each
 * search for its priors, to which Dirichlet noise is added
 * (#GTS_OPT_MCTS_NOISE_FRACTION). Progressive bias (#GTS_OPT_MCTS_PRIOR)
 * and RAVE are off. The root's visit distribution (the training target of
 * AlphaZero-like programs) is gts_mcts_move_stats::visits of
 * gts_mcts_root_stats(), and gts_mcts_move_stats::prior the evaluator's
 * prior (after noise). With #GTS_OPT_THREADS > 1 every worker collects
 * and evaluates its own batches, so one worker's evaluator call overlaps
 * the others' collection. At one thread the same seed and batch size
 * give the same search.
 *
 * @param engine the engine.
 * @param evaluator the evaluator (copied), or NULL to remove it (MCTS
 *                  plays out again).
 * @return #GTS_OK; #GTS_EINVAL for a NULL @p engine or a NULL
 *         evaluate; #GTS_ESTRUCT for an unknown struct_size; #GTS_EBUSY
 *         while @p engine searches; #GTS_ENOMEM.
 *
 * Not thread-safe: call it from the thread that owns @p engine.
 * @since 0.3
 */
GTS_API gts_status gts_engine_set_evaluator(gts_engine *engine, const gts_evaluator *evaluator);

/**
 * @brief Add root-move statistics of other searches of the same position
 *        to the root of the tree kept from the last MCTS search on
 *        @p engine.
 *
 * For root parallelisation across processes (libgts-mpi's distributed
 * MCTS, MoGo's cluster scheme): each process searches its own tree and
 * adds the others' new playouts to its root, so that its selection
 * follows the shared statistics. Entry i is added to the i-th root move
 * (generate() order, as gts_mcts_root_stats() lists them; its move must be
 * that move): visits and visits x mean join the move's playouts and reward
 * sum, amaf_visits and amaf_visits x amaf_mean its AMAF counts, and its
 * proven range narrows to [lower, upper] (they must be sound bounds of the
 * move's value from the root's side, such as another search of the same
 * position proved). The root's visits grow by the visits added; nothing
 * below the root's children changes. prior and score are ignored. With
 * root parallelisation (#GTS_MCTS_ROOT) the first worker's tree receives
 * them. gts_mcts_root_stats() then returns the sums, until the next
 * search. The next search continues the tree with the added statistics
 * only when it adopts it (gts_mcts_advance(), for example with no move).
 *
 * @param engine the engine.
 * @param stats  @p n entries; stats[0].struct_size is the stride (any size
 *               from #GTS_MCTS_MOVE_STATS_SIZE_V0_2 on, the same in every
 *               entry); may be NULL when @p n is 0.
 * @param n      the number of root moves (that of the kept root).
 * @return 1 when the statistics were added; 0 when no tree is kept (the
 *         last search was not MCTS, failed, had a depth limit, or reuse is
 *         off: nothing to add to); #GTS_EINVAL for a NULL @p engine, a
 *         negative @p n, NULL @p stats with @p n > 0, @p n other than the
 *         root's move count, a move out of order, a mean outside [0, 1],
 *         lower > upper, bounds outside the score range, or visits that
 *         would take the root past 2^32; #GTS_ESTRUCT for an unsupported or
 *         unequal struct_size; #GTS_EBUSY while the engine searches.
 *         Nothing is added unless every entry is valid.
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.3
 */
GTS_API int gts_mcts_inject(gts_engine *engine, const gts_mcts_move_stats *stats, int n);

/**
 * @brief The statistics of the children of a node of the tree kept from
 *        the last MCTS search on @p engine: the node reached from the root
 *        by the moves @p path.
 *
 * As gts_mcts_root_stats() for the root, but for any node the kept tree
 * holds expanded, read from the tree itself (with root parallelisation,
 * #GTS_MCTS_ROOT, the first worker's tree): entry i is the i-th move of
 * the node (generate() order), with its visits, mean reward and AMAF
 * counts from the side to move at the node, and its proven range
 * [lower, upper] from that side; score is 0. At depth 0 the counts are
 * the first tree's root children's (gts_mcts_root_stats() sums the trees
 * and fills score).
 *
 * @param engine   the engine.
 * @param path     @p depth moves from the kept root; may be NULL when
 *                 @p depth is 0.
 * @param depth    the number of moves, 0 to #GTS_MAX_DEPTH.
 * @param out      receives min(count, @p capacity) entries;
 *                 out[0].struct_size is the stride (any size from
 *                 #GTS_MCTS_MOVE_STATS_SIZE_V0_2 on); may be NULL when
 *                 @p capacity is 0.
 * @param capacity entries @p out can hold.
 * @return the node's move count; 0 when no tree is kept or the tree does
 *         not hold that node expanded (a move not in it, a leaf);
 *         #GTS_EINVAL for a NULL @p engine, a depth out of range, NULL
 *         @p path with @p depth > 0, a negative @p capacity or NULL @p out
 *         with @p capacity > 0; #GTS_ESTRUCT for an unsupported
 *         struct_size; #GTS_EBUSY while the engine searches.
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.3
 */
GTS_API int gts_mcts_node_stats(gts_engine *engine, const gts_move *path, int depth,
                                gts_mcts_move_stats *out, int capacity);

/**
 * @brief Add statistics of other searches of the same position to the
 *        children of a node below the root of the kept tree: the node
 *        reached from the root by the moves @p path.
 *
 * For sharing the nodes near the root between processes (MoGo's cluster
 * version; libgts-mpi's distributed MCTS with
 * gts_mpi_mcts_options::share_depth), so that each process's tree follows
 * the shared statistics below the root too. With @p depth 0 it is
 * gts_mcts_inject(). Below the root, entry i is added to the node's i-th
 * child (generate() order, as gts_mcts_node_stats() lists them; its move
 * must be that move): visits and visits x mean (from the side to move at
 * the node) join the child's playouts and reward sum, amaf_visits and
 * amaf_visits x amaf_mean its AMAF counts. Only the children change: the
 * node's own visits are statistics of its parent, added by the injection
 * one level up (so a merge that shares a node and its parent adds every
 * playout once per level). Proven ranges are not taken below the root:
 * lower, upper, prior and score are ignored. The next search continues
 * the tree with the added statistics when it adopts it
 * (gts_mcts_advance()).
 *
 * @param engine the engine.
 * @param path   @p depth moves from the kept root; may be NULL when
 *               @p depth is 0.
 * @param depth  the number of moves, 0 to #GTS_MAX_DEPTH.
 * @param stats  @p n entries; stats[0].struct_size is the stride (the same
 *               in every entry); may be NULL when @p n is 0.
 * @param n      the node's move count.
 * @return 1 when the statistics were added; 0 when no tree is kept or it
 *         does not hold that node expanded (nothing to add to);
 *         #GTS_EINVAL for a NULL @p engine, a depth out of range, NULL
 *         @p path with @p depth > 0, a negative @p n, NULL @p stats with
 *         @p n > 0, @p n other than the node's move count, a move out of
 *         order, a mean outside [0, 1], or visits that would take a child
 *         past 2^32 (at depth 0, those of gts_mcts_inject());
 *         #GTS_ESTRUCT for an unsupported or unequal struct_size;
 *         #GTS_EBUSY while the engine searches. Nothing is added unless
 *         every entry is valid.
 *
 * Not thread-safe on one engine (as gts_search()).
 * @since 0.3
 */
GTS_API int gts_mcts_inject_at(gts_engine *engine, const gts_move *path, int depth,
                               const gts_mcts_move_stats *stats, int n);

#ifdef __cplusplus
}
#endif
#endif /* GTS_MCTS_H */
