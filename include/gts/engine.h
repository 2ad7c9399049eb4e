/**
 * @file engine.h
 * @brief The opaque search engine: lifecycle, options, clear and stop.
 *
 * An engine owns the transposition table, the ordering tables (killers,
 * history) and, for parallel algorithms, the thread pool. One engine runs one
 * search at a time. Unless stated otherwise a function is not thread-safe:
 * do not call two functions on one engine at the same time. gts_engine_stop()
 * is the exception and may be called from any thread at any time.
 */
#ifndef GTS_ENGINE_H
#define GTS_ENGINE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Opaque engine handle: create with gts_engine_new(), free with
 *        gts_engine_free().
 * @since 0.1
 */
typedef struct gts_engine gts_engine;

/**
 * @brief Run-time options, set with gts_engine_set().
 *
 * Numbered by group with gaps (100s transposition table, 200s search, 220s
 * selective search, 300s threads, 400s the best-first algorithms); values
 * never change.
 * gts_option_bounds() tells the range and default of each, gts_option_name()
 * its name.
 *
 * The values missing from the groups (101-103, 205, 206, 301, 302) are the
 * experimental tuning knobs: #GTS_OPT_TT_PREFETCH, #GTS_OPT_TT_NEAR_DEPTH,
 * #GTS_OPT_TT_NEAR_KB, #GTS_OPT_ROOT_DRIVER, #GTS_OPT_DEEPEN_NODES,
 * #GTS_OPT_VIRTUAL and #GTS_OPT_SPLIT_PLY, defined as gts_option constants
 * at the end of this header only for a program that defines
 * `GTS_EXPERIMENTAL_API` before including it (see "Experimental API"
 * there). gts_option_list(), gts_option_name(), gts_option_from_name() and
 * gts_engine_set() know them either way.
 * @since 0.1
 */
typedef enum gts_option {
    /**
     * @brief Transposition table size in MiB; 0 disables the table. Default 16.
     * @since 0.1
     */
    GTS_OPT_TT_MB = 100,
    /* 101-103: experimental (GTS_EXPERIMENTAL_API) */

    /**
     * @brief Aspiration window half-width of iterative deepening; 0 = full
     *        window. Default 0.
     * @since 0.1
     */
    GTS_OPT_ASPIRATION = 200,
    /** @brief Killer-move ordering (0/1). Default 1. @since 0.1 */
    GTS_OPT_KILLERS = 201,
    /**
     * @brief History-heuristic ordering: 0 off, 1 on (a move's score grows
     * by depth x depth at each cutoff it causes), 2 with malus and gravity
     * (since 0.3: the moves searched before the cutoff lose as much, and
     * every update moves a score toward its bound in proportion, so scores
     * stay within +-16384 and follow recent results). Default 1.
     * @since 0.1
     */
    GTS_OPT_HISTORY = 202,
    /** @brief Quiescence search through generate_noisy (0/1). Default 1. @since 0.1 */
    GTS_OPT_QUIESCENCE = 203,
    /**
     * @brief Iterative deepening (0/1): 0 searches the target depth directly. Default 1.
     * @since 0.1
     */
    GTS_OPT_ITERATIVE = 204,
    /* 205, 206: experimental (GTS_EXPERIMENTAL_API) */
    /**
     * @brief Counter-move ordering (0/1): the move that last refuted the
     * previous move (by the side to move, a cutoff) is ordered after the
     * killers and before the other moves; late-move reductions reduce it one
     * ply less. Ordering only: exact algorithms return the same values.
     * Default 0.
     * @since 0.3
     */
    GTS_OPT_COUNTER_MOVES = 207,
    /**
     * @brief N-best selective search: when > 0, only the N best-ordered moves are
     * searched at nodes with remaining depth <= GTS_OPT_NBEST_DEPTH.
     * Selective: the result may differ from minimax. Default 0 (off).
     * The Evaluate-and-Refute searches (gts_er(), gts_er_parallel())
     * ignore it.
     * @since 0.1
     */
    GTS_OPT_NBEST = 210,
    /**
     * @brief Remaining depth at or below which GTS_OPT_NBEST applies. Default 0.
     * @since 0.1
     */
    GTS_OPT_NBEST_DEPTH = 211,

    /*
     * 220s: selective search of the alpha-beta family's node. Each is off
     * (0) by default and may be combined with the others; on, the result
     * is a heuristic value, not the minimax value. Honoured by gts_alphabeta(),
     * gts_pvs(), gts_probcut(), gts_abdada() and gts_lazysmp() at every node,
     * and by YBWC, Jamboree, PVSplit, DTS and root splitting at every node,
     * their split nodes included (where YBWC's full windows make most of
     * them PV nodes); ignored by minimax, MTD(f), NegaC*,
     * the SSS* family, ER (serial and parallel) and the best-first algorithms
     * (MCTS, B*, MMA). doc/architecture.md, "Selective search", states the
     * conditions of each technique. None applies at the root.
     */
    /**
     * @brief Null-move pruning (needs gts_game::null_apply and
     * gts_game::null_undo): the base reduction R in plies (1..8), 0 = off.
     * At a node with at least 2 plies to go that is not a PV node (its window
     * is a null window), not reached by an extended move and not directly
     * after a pass, whose evaluate() is at least beta: the side to move passes
     * and the opponent's reply is searched to depth - 1 - R', R' = R +
     * depth / 6 (adaptive), with a null window at beta; a fail high cuts
     * the node, verified at depth 6 and more by a search of the node itself
     * to depth - R' without null moves. Default 0. Typical: 3.
     * @since 0.3
     */
    GTS_OPT_NULL_MOVE = 220,
    /**
     * @brief Late-move reductions: the strength in percent (1..400) of the
     * reduction r(d, k) = 0.75 + ln(d) ln(k) / 2.25 of the k-th move at
     * depth d (100 = that table), 0 = off. Quiet late moves (from the third at
     * a PV node, the second elsewhere) at depth 3 and more are searched
     * reduced with a null window, one ply less reduced at PV nodes and for a
     * move with a good history score, one more for a bad one; one that fails
     * high is searched again at full depth. Never reduced: the table move,
     * killers, moves generate_noisy() lists, moves extend() extends, and every
     * move of a node reached by an extended move. Default 0. Typical: 100.
     * @since 0.3
     */
    GTS_OPT_LMR = 221,
    /**
     * @brief Futility pruning: the margin m per ply in score units
     * (1..#GTS_SCORE_WIN), 0 = off. At a node with 1 to 3 plies to go,
     * not a PV node nor reached by an extended move, whose evaluate() + m x depth
     * is at most alpha, quiet moves after the first searched are skipped
     * (never the table move, a killer, a noisy or an extended move). Default
     * 0. Typical for centipawns: 100.
     * @since 0.3
     */
    GTS_OPT_FUTILITY = 222,
    /**
     * @brief Razoring: the margin m per ply in score units
     * (1..#GTS_SCORE_WIN), 0 = off. At a node with 1 or 2 plies to go, not a
     * PV node nor reached by an extended move, whose evaluate() + m x depth
     * is at most alpha, the node's quiescence value (evaluate() without
     * quiescence) is taken instead of its search when it does not exceed
     * alpha. Default 0. Typical for centipawns: 300.
     * @since 0.3
     */
    GTS_OPT_RAZOR = 223,
    /**
     * @brief Late-move pruning: the move-count base b (1..1000), 0 = off.
     * At a node with 3 to 8 plies to go (1 to 8 before 0.3's issue 32
     * change: pruning at 1 and 2 lost in play), not a PV node nor reached
     * by an extended move, quiet moves after the first b + depth x depth
     * moves are skipped (never the table move, a killer, a noisy or an
     * extended move). Default 0. Typical: 3.
     * @since 0.3
     */
    GTS_OPT_LMP = 224,
    /**
     * @brief Contempt c (-#GTS_SCORE_DECIDED + 1 .. #GTS_SCORE_DECIDED - 1),
     * for games that declare #GTS_TRAIT_REPETITION_DRAW: a repetition draw is
     * worth -c to the side to move at the root (and +c to the opponent), so
     * c > 0 avoids draws, c < 0 seeks them. 0 (the default): a draw is worth
     * 0 to both.
     * @since 0.3
     */
    GTS_OPT_CONTEMPT = 225,

    /** @brief Worker threads of parallel algorithms (1..256). Default 1. @since 0.1 */
    GTS_OPT_THREADS = 300,
    /* 301, 302: experimental (GTS_EXPERIMENTAL_API) */

    /**
     * @brief #GTS_ALG_JAMBOREE's sequential prefix, in percent of a node's
     * moves (0..100): that share of the moves (rounded up, the eldest
     * always included) is searched one after the other with the full
     * window, alpha raised after each, before the rest are tested in
     * parallel (the MIT lecture slides' Jamboree, with 50). 0 =
     * Kuszmaul's Jamboree: only the eldest is serial. Default 0.
     * @since 0.2
     */
    GTS_OPT_JAMBOREE_SERIAL = 310,

    /* 400s: Monte-Carlo tree search (gts_mcts(), mcts.h) */
    /**
     * @brief UCB1 exploration constant c in hundredths (141 = 1.41, about
     * sqrt(2), UCB1's own), 0..10000. Rewards are in [0, 1]. Default 141.
     * @since 0.2
     */
    GTS_OPT_MCTS_EXPLORATION = 400,
    /**
     * @brief Playout budget of one MCTS search (0..2^62); reaching it ends
     * the search normally (no limit flag). 0 = none: the search ends when
     * the root is proven or at a limit of gts_limits. Default 0.
     * @since 0.2
     */
    GTS_OPT_MCTS_PLAYOUTS = 401,
    /**
     * @brief Most random moves of one playout, 0..#GTS_MAX_PLY; a playout
     * cut there is scored by evaluate() (#GTS_OPT_MCTS_EVAL_SCALE), as is
     * one that reaches ply #GTS_MAX_PLY from the root (the library never
     * plays deeper) or gts_limits::depth when one below #GTS_MAX_DEPTH was
     * given. 0 scores every new node by evaluate() alone. Default
     * #GTS_MAX_PLY (no cap of its own).
     * @since 0.2
     */
    GTS_OPT_MCTS_PLAYOUT_DEPTH = 402,
    /**
     * @brief Scale s of the logistic 1 / (1 + exp(-score / s)) that maps
     * evaluate() of an unfinished position to a reward in [0, 1], and of its
     * inverse that maps a mean reward back to a gts_result::score
     * (1..#GTS_SCORE_WIN). Default 200.
     * @since 0.2
     */
    GTS_OPT_MCTS_EVAL_SCALE = 403,
    /**
     * @brief Memory budget in MiB (1..1048576) of the explicit trees of the
     * best-first algorithms: MCTS, B* and MMA. Allocated through the
     * engine's allocator as the tree grows and freed when the search ends
     * (an MCTS tree kept for gts_mcts_advance() stays until the next search
     * and counts against the budget there, see #GTS_OPT_MCTS_REUSE). MCTS
     * keeps the memory of its tree for the next search instead (up to this
     * budget, the kept tree included; gts_engine_free() returns it, and
     * lowering the option frees what exceeds the new budget). When
     * it is used up the search stops growing the tree (MCTS keeps
     * sampling) and sets #GTS_RESULT_MEMORY_LIMIT. Default 64. (Named
     * GTS_OPT_MCTS_TREE_MB before 0.2 was released.)
     * @since 0.2
     */
    GTS_OPT_TREE_MB = 404,
    /**
     * @brief Seed of the playouts' random numbers (0..2^62): at one thread
     * the same seed gives the same search. Default 0.
     * @since 0.2
     */
    GTS_OPT_MCTS_SEED = 405,
    /**
     * @brief How MCTS uses #GTS_OPT_THREADS, a #gts_mcts_parallel: tree
     * parallelisation (0) or root parallelisation (1). Default 0.
     * @since 0.2
     */
    GTS_OPT_MCTS_PARALLEL = 406,
    /**
     * @brief Virtual losses per worker on a node it is exploring (tree
     * parallelisation): each counts as a visit with reward 0 until the
     * playout is backed up, so other workers prefer other lines. 0..1000.
     * Default 1.
     * @since 0.2
     */
    GTS_OPT_MCTS_VIRTUAL_LOSS = 407,
    /**
     * @brief Weight of move priors in hundredths (0..100000): with w > 0 and
     * a game with move_score() or generate_keyed(), children are tried in
     * hint order and UCB1 gets a progressive-bias term w * prior / (n + 1),
     * prior in [0, 1] from the move's rank. 0 = off. Default 0.
     * @since 0.2
     */
    GTS_OPT_MCTS_PRIOR = 408,
    /**
     * @brief RAVE (rapid action value estimation, Gelly & Silver 2007):
     * the equivalence parameter k of the schedule
     * beta = sqrt(k / (3n + k)) that mixes a child's all-moves-as-first
     * (AMAF) mean into its UCT mean, (1 - beta) * mean + beta * amaf, for a
     * child with n visits; k is the visit count where both weigh alike
     * (0..2^40). 0 = off. Used only when the game declares
     * #GTS_TRAIT_MOVE_IDENTITY; ignored otherwise. Default 0.
     * @since 0.2
     */
    GTS_OPT_MCTS_RAVE = 409,
    /**
     * @brief 1 (the default): keep the tree of an MCTS search in the engine
     * after it returns, so that gts_mcts_advance() can move its root to
     * the position after the moves played and the next search continues
     * from that subtree; 0: free the tree when the search returns
     * (setting 0 also frees a tree kept now).
     * @since 0.2
     */
    GTS_OPT_MCTS_REUSE = 410,
    /**
     * @brief PUCT exploration constant c_puct in hundredths (0..10000),
     * used instead of UCB1 when an evaluator is set
     * (gts_engine_set_evaluator()): a child's score is
     * Q + c_puct * P * sqrt(N) / (1 + n), Q its mean reward in [0, 1], P its
     * prior, N its parent's visits, n its own. Default 125.
     * @since 0.3
     */
    GTS_OPT_MCTS_CPUCT = 411,
    /**
     * @brief First-play urgency of PUCT in hundredths of a reward
     * (0..100): a child never visited counts Q = parent's mean - fpu / 100
     * (at least 0). Default 0.
     * @since 0.3
     */
    GTS_OPT_MCTS_FPU = 412,
    /**
     * @brief Leaves per call of the evaluator (1..1024): each worker
     * collects this many new leaves (with virtual loss,
     * #GTS_OPT_MCTS_VIRTUAL_LOSS) before one gts_evaluator::evaluate()
     * call. Above 1 the game needs clone() and free(). Default 1.
     * @since 0.3
     */
    GTS_OPT_MCTS_BATCH = 413,
    /**
     * @brief Dirichlet noise at the root (AlphaZero): the concentration
     * alpha in thousandths (1..100000). Default 300 (0.3).
     * @since 0.3
     */
    GTS_OPT_MCTS_NOISE_ALPHA = 414,
    /**
     * @brief Dirichlet noise at the root: the fraction epsilon in percent
     * (0..100) of noise mixed into the root's priors,
     * P = (1 - epsilon) * P + epsilon * Dir(alpha), drawn from
     * #GTS_OPT_MCTS_SEED. 0 = no noise. Default 0.
     * @since 0.3
     */
    GTS_OPT_MCTS_NOISE_FRACTION = 415,
    /**
     * @brief Move choice by visit count with a temperature T in hundredths
     * (0..10000): when the root is not proven and T > 0, gts_result::best_move
     * is drawn with probability proportional to visits^(1 / T) (from
     * #GTS_OPT_MCTS_SEED); 0 = the most visited move, as before. Default 0.
     * @since 0.3
     */
    GTS_OPT_MCTS_TEMPERATURE = 416,
    /**
     * @brief B* without gts_game::bounds: 0 (the default) gives a new node
     * the sound range of mate distance alone, so B* stays exact; a margin
     * m > 0 (up to #GTS_SCORE_WIN) gives it evaluate() -/+ m instead, a
     * guess that makes the search heuristic and much smaller.
     * @since 0.2
     */
    GTS_OPT_BSTAR_MARGIN = 420,
    /**
     * @brief Rivest's p of the generalized means of #GTS_ALG_MMA, in tenths
     * (1..1000: p = 0.1 .. 100). Default 100 (p = 10).
     * @since 0.2
     */
    GTS_OPT_MMA_P = 430,
    /**
     * @brief Scale s of the logistic u(v) = 1 / (1 + exp(-v / s)) that maps
     * a score v (from the root player's side) into (0, 1) before
     * #GTS_ALG_MMA takes generalized means of it (1..#GTS_SCORE_WIN).
     * Choose it near the spread of the game's evaluate() values: scores
     * much larger than s all look alike to the penalties. Decided scores
     * (mate-like, about +-#GTS_SCORE_WIN) map to the ends of (0, 1).
     * Default 200 (as #GTS_OPT_MCTS_EVAL_SCALE).
     * @since 0.2
     */
    GTS_OPT_MMA_SCALE = 431,
    /**
     * @brief Which of Rivest's two variants #GTS_ALG_MMA runs, a
     * #gts_mma_backup: the reverse approximation (0, the default: nodes
     * carry their minimax values, the generalized means give only the
     * penalties) or generalized-mean back-up (1).
     * @since 0.2
     */
    GTS_OPT_MMA_BACKUP = 432
} gts_option;

/**
 * @brief Values of #GTS_OPT_MMA_BACKUP: what a node of #GTS_ALG_MMA's tree
 * carries into its parent's penalties.
 * @since 0.2
 */
typedef enum gts_mma_backup {
    /**
     * @brief Rivest's "reverse approximation", the variant of his
     * experiments: every node's value is the minimax value of its explored
     * subtree; the generalized mean of the children's values is used only
     * to differentiate (the penalties). @since 0.2
     */
    GTS_MMA_REVERSE = 0,
    /**
     * @brief Generalized-mean back-up: a node's approximation is the
     * generalized mean of its children's approximations, and the penalties
     * are the derivatives of those means. @since 0.2
     */
    GTS_MMA_MEAN = 1
} gts_mma_backup;

/**
 * @brief Create an engine with default options.
 *
 * The transposition table (#GTS_OPT_TT_MB, 16 MiB by default) is
 * allocated and zeroed here, so that no search pays for it; set
 * #GTS_OPT_TT_MB to 0 to free it. The thread pool is created on the first
 * parallel search.
 *
 * @param[out] out receives the new engine; set to NULL on failure.
 * @return #GTS_OK, #GTS_EINVAL for a NULL @p out, #GTS_ENOMEM.
 *
 * Thread-safe.
 * @since 0.1
 */
GTS_API gts_status gts_engine_new(gts_engine **out);

/**
 * @brief A memory allocator for one engine, in the shape of Concurrency
 *        Kit's ck_malloc.
 *
 * The library tells @c release the size it asked @c allocate for, so a pool
 * or arena allocator needs no header of its own. @c allocate returns memory
 * aligned for any object (like malloc) or NULL, and is never asked for 0
 * bytes; @c release gets exactly the pointer and size of an earlier
 * @c allocate, never NULL. Both are called from the engine's worker threads
 * during a parallel search, so they must be thread-safe. The engine keeps a
 * copy of this struct; @c user must outlive the engine.
 *
 * Every allocation failure surfaces as #GTS_ENOMEM from the call that needed
 * the memory, with nothing leaked and the engine still usable; a parallel
 * search whose work queue cannot grow runs the task on the spawning thread
 * instead and completes normally. (An MCTS tree that reaches its own
 * budget, #GTS_OPT_TREE_MB, is not a failure: it stops growing.) Not covered: the game's own allocations
 * (its @c clone callback) and the stacks of the worker threads.
 *
 * @since 0.1
 */
typedef struct gts_allocator {
    /** @brief sizeof(gts_allocator) as compiled by the caller. Must be first. */
    size_t struct_size;
    /** @brief Return @p size bytes (never 0), or NULL. Thread-safe. */
    void *(*allocate)(size_t size, void *user);
    /** @brief Free @p ptr, which came from @c allocate(@p size). Thread-safe. */
    void (*release)(void *ptr, size_t size, void *user);
    /** @brief Passed back to both functions. */
    void *user;
} gts_allocator;

/** @brief struct_size of the 0.1 layout of gts_allocator (through
 *         gts_allocator::user): the smallest size accepted. @since 0.1 */
#define GTS_ALLOCATOR_SIZE_V0_1 (offsetof(gts_allocator, user) + sizeof(void *))

/**
 * @brief Create an engine whose every allocation goes through @p allocator.
 *
 * Like gts_engine_new(), but every byte the engine ever allocates (the
 * engine itself, the transposition table, per-thread contexts, the thread
 * pool and its work queues, parallel-search and calibration scratch memory)
 * comes from @p allocator.
 *
 * @param[out] out receives the new engine; set to NULL on failure.
 * @param allocator the allocator (copied), or NULL for the C library's
 *        malloc/free.
 * @return #GTS_OK; #GTS_EINVAL for a NULL @p out, or an allocator whose
 *         struct_size is not sizeof(gts_allocator) or whose functions are
 *         NULL; #GTS_ENOMEM.
 *
 * Thread-safe.
 * @since 0.1
 */
GTS_API gts_status gts_engine_new_with(gts_engine **out, const gts_allocator *allocator);

/**
 * @brief Free an engine: its table, its contexts, and its worker threads
 *        (joined before it returns).
 *
 * @param engine the engine, or NULL (then nothing happens).
 *
 * Not thread-safe: no other call on @p engine may run or follow, not even
 * gts_engine_stop(); never call it during a search (e.g. from a progress
 * callback).
 * @since 0.1
 */
GTS_API void gts_engine_free(gts_engine *engine);

/**
 * @brief Set @p option to @p value, from the next search on.
 *
 * Setting #GTS_OPT_TT_MB to a new size allocates the new table now (its
 * contents are lost); 0 frees it. Setting #GTS_OPT_THREADS recreates the
 * pool on the next parallel search.
 *
 * @param engine the engine.
 * @param option the option to set.
 * @param value  its new value, within gts_option_bounds().
 * @return #GTS_OK; #GTS_EINVAL for a NULL @p engine; #GTS_EOPTION for an
 *         unknown option; #GTS_ERANGE outside gts_option_bounds();
 *         #GTS_EBUSY while a search runs on @p engine (also from its
 *         progress callback); #GTS_ENOMEM when a new table cannot be
 *         allocated (the old table and value are kept). On error the option
 *         is unchanged.
 *
 * Not thread-safe: call it from the thread that owns @p engine.
 * @since 0.1
 */
GTS_API gts_status gts_engine_set(gts_engine *engine, gts_option option, int64_t value);

/**
 * @brief Read the current value of @p option.
 *
 * @param engine the engine.
 * @param option the option to read.
 * @param[out] value receives the value.
 * @return #GTS_OK; #GTS_EINVAL for a NULL @p engine or @p value;
 *         #GTS_EOPTION for an unknown option.
 *
 * Not thread-safe: call it from the thread that owns @p engine (a progress
 * callback runs on that thread and may call it).
 * @since 0.1
 */
GTS_API gts_status gts_engine_get(const gts_engine *engine, gts_option option, int64_t *value);

/**
 * @brief Range and default of @p option.
 *
 * @param option the option.
 * @param[out] min receives the smallest value gts_engine_set() accepts; may be NULL.
 * @param[out] max receives the largest value; may be NULL.
 * @param[out] def receives the default; may be NULL.
 * @return #GTS_OK, or #GTS_EOPTION for an unknown option (nothing written).
 *
 * Thread-safe.
 * @since 0.1
 */
GTS_API gts_status gts_option_bounds(gts_option option, int64_t *min, int64_t *max, int64_t *def);

/**
 * @brief Name of @p option: the enum name without `GTS_OPT_`, lowercase.
 *
 * @param option the option.
 * @return "tt_mb", "threads", ..., or NULL for an unknown option. The
 *         string is static: do not free it.
 *
 * Thread-safe.
 * @since 0.1
 */
GTS_API const char *gts_option_name(gts_option option);

/**
 * @brief Parse an option name, as returned by gts_option_name() ("threads").
 *
 * Former names are still accepted: "virtual_procs" for #GTS_OPT_VIRTUAL
 * (named "virtual" since 0.2).
 *
 * @param name the name (case-sensitive).
 * @param[out] option receives the option.
 * @return #GTS_OK; #GTS_EINVAL for a NULL @p name or @p option;
 *         #GTS_EOPTION for an unknown name.
 *
 * Thread-safe.
 * @since 0.1
 */
GTS_API gts_status gts_option_from_name(const char *name, gts_option *option);

/**
 * @brief Enumerate the options, in enum order.
 *
 * The experimental options (@ref gts_experimental) are listed too, whether
 * or not the caller defined `GTS_EXPERIMENTAL_API`.
 *
 * @param[out] out receives up to @p capacity options; may be NULL to only
 *                 count them.
 * @param capacity length of @p out (0 or less writes nothing).
 * @return how many options exist (may exceed @p capacity). Cannot fail.
 *
 * Thread-safe.
 * @since 0.1
 */
GTS_API int gts_option_list(gts_option *out, int capacity);

/**
 * @brief Forget everything learnt: transposition table, killers, history.
 *
 * Options are kept. Use it between searches when a fixed-depth result must
 * not depend on earlier searches.
 *
 * @param engine the engine.
 * @return #GTS_OK; #GTS_EINVAL for a NULL @p engine; #GTS_EBUSY while a
 *         search runs on @p engine.
 *
 * Not thread-safe: call it from the thread that owns @p engine.
 * @since 0.1
 */
GTS_API gts_status gts_engine_clear(gts_engine *engine);

/**
 * @brief Ask the running search (if any) to stop as soon as possible.
 *
 * The search unwinds (undoing every move) and returns #GTS_OK with the
 * result of its last completed iteration and #GTS_RESULT_STOPPED in
 * gts_result::flags. A stop that arrives while no search is running is
 * ignored (each search starts unstopped).
 *
 * @param engine the engine, or NULL (then nothing happens).
 *
 * Thread-safe: callable from any thread at any time, including a progress
 * callback and a signal handler (it only performs atomic stores), as long as
 * @p engine has not been freed.
 * @since 0.1
 */
GTS_API void gts_engine_stop(gts_engine *engine);

/**
 * @brief Why the latest call on @p engine that takes a versioned struct
 *        failed: names the struct behind a #GTS_ESTRUCT.
 *
 * gts_strerror() says what a status means; this says which argument
 * caused it. It is set by every call on @p engine that reads a caller's
 * versioned struct: gts_search() and the algorithm wrappers, gts_mcts(),
 * gts_mcts_root_stats(), gts_engine_set_probcut(), gts_engine_get_probcut()
 * and gts_probcut_calibrate() (gts_mpi_search() too). Such a call clears
 * it on entry and, when it fails because of an argument it can name, sets
 * a one-line message that starts with the C type of the struct at fault
 * and a colon, for example
 * `"gts_limits: struct_size ends inside a field (it must cover whole fields)"`.
 * The prefix is stable (a program may compare it); the rest of the text
 * may change. Every #GTS_ESTRUCT from these calls has a message; some
 * #GTS_EINVAL and #GTS_ERANGE of gts_search() (a gts_game without a
 * required callback, a depth or window out of range) have one too.
 *
 * Calls without an engine say it otherwise: gts_engine_new_with() and
 * gts_probcut_defaults() take one struct only; gts_game_check() writes the
 * message into its report.
 *
 * @param engine the engine, or NULL.
 * @return the message, or "" when the latest such call succeeded or had
 *         nothing to add; never NULL. The string is static: it stays valid
 *         after later calls and after gts_engine_free(); do not free it.
 *
 * Thread-safe: it reads one word. With calls on @p engine running in other
 * threads (a call refused with #GTS_EBUSY sets it too) it returns the
 * message of one of them.
 * @since 0.2
 */
GTS_API const char *gts_engine_last_error(const gts_engine *engine);

/**
 * @brief Fill of the transposition table in permille.
 *
 * Sampled over the first thousand buckets, counting entries of the current
 * generation (the last or running search).
 *
 * @param engine the engine, or NULL.
 * @return 0..1000; 0 for a NULL @p engine or when no table is allocated.
 *         Cannot fail.
 *
 * Not thread-safe: call it from the thread that owns @p engine (a progress
 * callback runs on that thread and may call it).
 * @since 0.1
 */
GTS_API int gts_engine_hashfull(const gts_engine *engine);

/* ======================================================================
 * Experimental API: declared only when GTS_EXPERIMENTAL_API is defined.
 * Everything above this line is the stable API.
 * ====================================================================== */
#ifdef GTS_EXPERIMENTAL_API

/**
 * @defgroup gts_experimental Experimental API
 * @brief Tuning knobs and measurement instruments, declared only for a
 * program that defines @c GTS_EXPERIMENTAL_API before it includes
 * <gts/gts.h> (or any libgts header): `#define GTS_EXPERIMENTAL_API` or
 * `-DGTS_EXPERIMENTAL_API`.
 *
 * Each of them keeps every result exact: they change how fast a search
 * runs or what it measures, never what it returns. Their meaning follows
 * the implementation, so they may change or go in any minor release: they
 * are exempt from the ABI promise of README "Versioning and ABI" (zstd's
 * @c ZSTD_STATIC_LINKING_ONLY is the model). The functions are exported
 * from libgts.so like the others (map node GTS_0.2), and the options are
 * known to gts_option_list(), gts_option_name() and gts_option_from_name()
 * without the macro, so a program may also reach an option by its name;
 * it is experimental all the same.
 *
 * The options are gts_option constants in the gaps of #gts_option's
 * groups (a macro each, so `#ifdef GTS_OPT_VIRTUAL` tells whether they are
 * declared).
 * @{
 */

/**
 * @brief Internal: the gts_option of value @p v, for the options below (a
 * C cast, or in C++ a static_cast that -Wold-style-cast accepts). The value
 * lies within the range of #gts_option's values.
 */
#ifdef __cplusplus
#define GTS__OPTION(v) static_cast<gts_option>(v)
#else
#define GTS__OPTION(v) ((gts_option)(v))
#endif

/**
 * @brief Table lookahead (0/1): before searching a node's children, play
 * each one (apply, hash, undo) to start loading its table entry, so the
 * entries arrive while the first children are searched. Costs one
 * apply/hash/undo per child at nodes with more than two plies to go; pays
 * off for games with cheap callbacks and a table larger than the CPU
 * cache (Connect-4: 17% less time, doc/results/solver.md). Default 0.
 * Experimental (@ref gts_experimental).
 * @since 0.1
 */
#define GTS_OPT_TT_PREFETCH GTS__OPTION(101)

/**
 * @brief A near part of the table for the nodes close to the leaves:
 * when > 0, nodes with at most this many plies to go keep their
 * entries in a small part of the table (#GTS_OPT_TT_NEAR_KB) that stays
 * in the CPU cache, the others in the rest. Such nodes are most of a
 * search and their subtrees are small, so a cache hit there is worth
 * more than the entries the small part loses. For exact solves with
 * cheap callbacks (Connect-4 with 10: 8-21 % less time at one thread
 * for 4 % more nodes; doc/results/solver.md); a depth-limited search with
 * iterative deepening loses the table move of a node that crosses the
 * line from one iteration to the next. Never changes a result. 0
 * (the default): one table for all nodes.
 * Experimental (@ref gts_experimental).
 * @since 0.2
 */
#define GTS_OPT_TT_NEAR_DEPTH GTS__OPTION(102)

/**
 * @brief Size of the near part (#GTS_OPT_TT_NEAR_DEPTH) in KiB, taken
 * from the table's #GTS_OPT_TT_MB, at most half of it. The threads of a
 * parallel search each use an equal slice of it (not on virtual
 * processors). Default 1024.
 * Experimental (@ref gts_experimental).
 * @since 0.2
 */
#define GTS_OPT_TT_NEAR_KB GTS__OPTION(103)

/**
 * @brief How each depth's root window is found, a #gts_root_driver:
 * #GTS_ROOT_WINDOW (0) searches the caller's window (or the aspiration
 * window) once; #GTS_ROOT_BISECT and #GTS_ROOT_MTDF find the value by
 * null-window searches of the algorithm, narrowing the root's sound range
 * (gts_game::bounds) by bisection or MTD(f) steps. Applies to algorithms
 * that take a window (not the MT family, minimax). Default 0.
 * Experimental (@ref gts_experimental).
 * @since 0.1
 */
#define GTS_OPT_ROOT_DRIVER GTS__OPTION(205)

/**
 * @brief A prelude of iterative deepening when #GTS_OPT_ITERATIVE is 0,
 * for exact algorithms: when > 0, the search first deepens from depth
 * 1 while the nodes counted so far are fewer than this (checked
 * between iterations, so the last iteration of the prelude may pass
 * it), then searches the target depth directly, with the table the
 * prelude filled. A value found decided in the prelude ends the search
 * there (a forced result within the horizon, or
 * #GTS_TRAIT_DISTANCE_SCORES): easy positions take a handful of nodes,
 * hard ones at most about this many more. 0 (the default): no
 * prelude.
 * Experimental (@ref gts_experimental).
 * @since 0.2
 */
#define GTS_OPT_DEEPEN_NODES GTS__OPTION(206)

/**
 * @brief Virtual processors (0/1, default 0): the #GTS_OPT_THREADS
 * workers of a parallel depth-first algorithm take turns in lockstep,
 * one node per turn, so that a run measures its speedup in rounds of
 * a virtual clock instead of wall-clock time (gts_engine_virtual_stats()).
 * The real pool, deques, table and split points run, serialised: the
 * result is exact as always, deterministic, and independent of how many
 * cores the machine has; only slower. MCTS runs on virtual processors
 * too (tree and root parallelisation; since 0.2, before which it
 * ignored the option): one applied move of a descent or a playout per
 * turn, deterministic for a given #GTS_OPT_MCTS_SEED and playout budget
 * (#GTS_OPT_MCTS_PLAYOUTS; a time limit ends it at a real-time moment).
 * Experimental (@ref gts_experimental).
 * @since 0.2
 */
#define GTS_OPT_VIRTUAL GTS__OPTION(301)

/**
 * @brief Deepest ply at which the parallel depth-first algorithms
 * share work (0..#GTS_MAX_PLY, default 0 = no limit): YBWC, Jamboree,
 * PVSplit and root splitting split, DTS publishes, ABDADA defers and
 * parallel ER refutes in parallel only at nodes fewer than this many
 * plies from the root; below, the thread that reaches a node searches
 * it with the serial alpha-beta/PVS. 1 = the root only. Their remaining
 * depth limits still apply. Sharing costs every node it covers (shared
 * counters, published moves, locks), which a deep node's small subtree
 * may not repay: in an exact solve, whose remaining depth counts every
 * ply to the end of the game, most nodes are deep in plies but small
 * (doc/results/solver.md). Results stay exact for every value.
 * Experimental (@ref gts_experimental).
 * @since 0.2
 */
#define GTS_OPT_SPLIT_PLY GTS__OPTION(302)

/**
 * @brief Values of #GTS_OPT_ROOT_DRIVER. Experimental (@ref gts_experimental).
 * @since 0.1
 */
typedef enum gts_root_driver {
    /** @brief One search of the caller's window (or the aspiration window). @since 0.1 */
    GTS_ROOT_WINDOW = 0,
    /**
     * @brief Null-window searches bisecting the root's sound range (NegaC*
     * around any windowed algorithm; what dedicated solvers do). @since 0.1
     */
    GTS_ROOT_BISECT = 1,
    /** @brief Null-window searches stepping from the previous score (MTD(f)). @since 0.1 */
    GTS_ROOT_MTDF = 2
} gts_root_driver;

/**
 * @brief The virtual clock of the last search with #GTS_OPT_VIRTUAL set:
 *        rounds of the turns (one node per busy worker per round) and idle
 *        turns (a worker that found no work).
 *
 * The virtual speedup of a parallel search of N nodes in R rounds over a
 * serial search of S nodes is S / R; its idle fraction is
 * idle_turns / (R x threads). Zero for a search that was not virtual
 * (serial algorithms, one thread).
 *
 * @param engine     the engine.
 * @param[out] rounds     receives the rounds.
 * @param[out] idle_turns receives the idle turns.
 * @return #GTS_OK, or #GTS_EINVAL for a NULL argument.
 *
 * Not thread-safe: call it from the thread that owns @p engine, between
 * searches. Experimental (@ref gts_experimental).
 * @since 0.2
 */
GTS_API gts_status gts_engine_virtual_stats(const gts_engine *engine, uint64_t *rounds,
                                            uint64_t *idle_turns);

/**
 * @brief The synchronisation turns of the last search with #GTS_OPT_VIRTUAL
 *        set: the idle turns (gts_engine_virtual_stats()) that workers spent
 *        waiting for one another.
 *
 * An idle turn is either a look for work that found none (no task on any
 * worker) or a wait for another worker: a join whose tasks run elsewhere
 * with nothing to steal, a spin lock another worker holds, a backoff while
 * another worker finishes what this one needs (the end of a split point or
 * of a DTS node). The second kind is counted here, so
 * idle_turns - sync_turns is the starved part; sync_turns / (rounds x
 * threads) is the synchronisation fraction.
 *
 * @param engine          the engine.
 * @param[out] sync_turns receives the turns; 0 for a search that was not
 *                        virtual (serial algorithms, one thread).
 * @return #GTS_OK, or #GTS_EINVAL for a NULL argument.
 *
 * Not thread-safe: call it from the thread that owns @p engine, between
 * searches. Experimental (@ref gts_experimental).
 * @since 0.2
 */
GTS_API gts_status gts_engine_virtual_sync(const gts_engine *engine, uint64_t *sync_turns);

/** @} */

#endif /* GTS_EXPERIMENTAL_API */

#ifdef __cplusplus
}
#endif
#endif /* GTS_ENGINE_H */
