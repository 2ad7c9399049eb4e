/**
 * @file game.h
 * @brief The game vtable: the contract between a game adapter and libgts.
 *
 * A game is a table of callbacks over an opaque state the caller owns.
 * Search mutates the state in place through apply/undo and always restores
 * it: after every libgts call returns, the caller's state is byte-for-byte
 * what it was before, even after a stop, a limit or a failed callback (a
 * failed undo() excepted: the state is then what that undo() left).
 *
 * Callbacks may be called concurrently by parallel algorithms, each thread on
 * its own copy made by clone(); they must be reentrant for distinct states.
 * A callback signals failure by returning a negative value (evaluate: by
 * returning GTS_SCORE_INVALID); the search then unwinds, undoing every move,
 * and returns GTS_ECALLBACK.
 *
 * See doc/adapter.md for a walk-through, and its "Hostile or broken
 * callbacks" section for the status of every contract violation.
 */
#ifndef GTS_GAME_H
#define GTS_GAME_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Callback vtable describing a game. Fill it, then pass it to a search.
 *
 * Zero-initialise it, set struct_size to sizeof(gts_game) (any size from
 * #GTS_GAME_SIZE_V0_1 on that covers whole fields is accepted: fields
 * beyond it are NULL; a size that ends inside a field gives #GTS_ESTRUCT,
 * see ::gts_struct_id), max_moves and
 * the four required callbacks (generate, apply, undo, evaluate); the other
 * callbacks are optional (NULL). The library only reads the table, and
 * only during the call it was passed to.
 *
 * Thread-safety of the callbacks: serial algorithms call them on the thread
 * that called the search; parallel algorithms call them from several
 * threads at once, each thread on its own state (the caller's or a clone),
 * so they must be reentrant for distinct states and must not modify shared
 * data (such as @p user) without their own synchronisation.
 * @since 0.1
 */
typedef struct gts_game {
    /** @brief sizeof(gts_game) as compiled by the caller. Must be first. @since 0.1 */
    size_t struct_size;

    /** @brief Most moves generate() can ever return (1..65535). @since 0.1 */
    uint32_t max_moves;

    /**
     * @brief Required. Write the legal moves of @p state to @p moves.
     *
     * The order must be deterministic for a given state (the transposition
     * table stores the best move as its index in this order). Never write
     * more than @p capacity moves.
     *
     * @param state    the position.
     * @param[out] moves receives the moves.
     * @param capacity room in @p moves: gts_game::max_moves.
     * @param user     gts_game::user.
     * @return the number of moves (a count above @p capacity makes the
     *         search return #GTS_EMOVES), 0 for a finished game (terminal
     *         node), or a negative value on failure (the search returns
     *         #GTS_ECALLBACK).
     * @since 0.1
     */
    int (*generate)(void *state, gts_move *moves, uint32_t capacity, void *user);

    /**
     * @brief Required. Play @p move on @p state.
     * @param state the position, changed in place.
     * @param move  a move generate() returned for @p state.
     * @param user  gts_game::user.
     * @return 0, or a negative value on failure (then @p state must be
     *         unchanged: the library will not undo the move).
     * @since 0.1
     */
    int (*apply)(void *state, gts_move move, void *user);

    /**
     * @brief Required. Take back @p move, the last move applied to @p state.
     * @param state the position, changed in place.
     * @param move  the move to take back.
     * @param user  gts_game::user.
     * @return 0, or a negative value on failure.
     * @since 0.1
     */
    int (*undo)(void *state, gts_move move, void *user);

    /**
     * @brief Required. Static value of @p state from the side to move.
     *
     * For a finished game use #GTS_SCORE_WIN / #GTS_SCORE_LOSS (or the
     * gts_score_win_in() helpers) or any exact game score; never a decided
     * score for an undecided position.
     *
     * @param state the position.
     * @param user  gts_game::user.
     * @return a score in [#GTS_SCORE_LOSS, #GTS_SCORE_WIN] (outside it the
     *         search returns #GTS_ESCORE), or #GTS_SCORE_INVALID to report a
     *         failure (#GTS_ECALLBACK).
     * @since 0.1
     */
    gts_score (*evaluate)(void *state, void *user);

    /**
     * @brief Optional. 64-bit key of @p state; enables the transposition
     *        table.
     *
     * Equal keys must mean equal positions: the search cannot detect
     * colliding keys; it stays safe (a root move, a score in
     * [-GTS_SCORE_INF, GTS_SCORE_INF]) but its value may then be wrong.
     *
     * @param state the position.
     * @param user  gts_game::user.
     * @return the key, side to move included.
     * @since 0.1
     */
    uint64_t (*hash)(void *state, void *user);

    /**
     * @brief Optional. A deep copy of @p state; needed by parallel
     *        algorithms (one copy per extra worker and search).
     * @param state the position to copy.
     * @param user  gts_game::user.
     * @return the copy, freed later with gts_game::free, or NULL on failure
     *         (the search then returns #GTS_ECALLBACK before searching).
     * @since 0.1
     */
    void *(*clone)(void *state, void *user);

    /**
     * @brief Optional. Free a state made by clone() (or by the game's own
     *        constructor).
     * @param state the state to free.
     * @param user  gts_game::user.
     * @since 0.1
     */
    void (*free)(void *state, void *user);

    /**
     * @brief Optional. Like generate(), but only the "noisy" moves searched
     *        by quiescence at depth 0 (captures, say).
     *
     * Absent: depth-0 nodes are evaluated with evaluate().
     *
     * @param state    the position.
     * @param[out] moves receives the moves.
     * @param capacity room in @p moves: gts_game::max_moves.
     * @param user     gts_game::user.
     * @return the number of noisy moves (0: the node is quiet), or a
     *         negative value on failure.
     * @since 0.1
     */
    int (*generate_noisy)(void *state, gts_move *moves, uint32_t capacity, void *user);

    /**
     * @brief Optional. Ordering hint for @p move in @p state.
     * @param state the position (before the move).
     * @param move  a legal move of @p state.
     * @param user  gts_game::user.
     * @return a key: higher is searched first. Cannot fail.
     * @since 0.1
     */
    int32_t (*move_score)(void *state, gts_move move, void *user);

    /**
     * @brief Optional. Plies to extend the search of @p move.
     *
     * Called before the move is applied. Must be deterministic so that every
     * algorithm searches the same tree; the total is capped by #GTS_MAX_PLY
     * (a value above #GTS_MAX_PLY counts as #GTS_MAX_PLY).
     *
     * @param state the position (before the move).
     * @param move  a legal move of @p state.
     * @param user  gts_game::user.
     * @return 0 or more plies, or a negative value on failure.
     * @since 0.1
     */
    int (*extend)(void *state, gts_move move, void *user);

    /**
     * @brief Optional. Write @p move as text (used by tools and bindings).
     * @param state the position the move is played from.
     * @param move  the move.
     * @param[out] buf receives the NUL-terminated text.
     * @param size  room in @p buf, in bytes.
     * @param user  gts_game::user.
     * @return the length written, or a negative value on failure.
     * @since 0.1
     */
    int (*format_move)(void *state, gts_move move, char *buf, size_t size, void *user);

    /**
     * @brief Optional. Parse @p text into a move of @p state (used by tools
     *        and bindings).
     * @param state the position.
     * @param text  the text, as format_move() writes it.
     * @param[out] move receives the move.
     * @param user  gts_game::user.
     * @return 0, or a negative value on failure.
     * @since 0.1
     */
    int (*parse_move)(void *state, const char *text, gts_move *move, void *user);

    /** @brief Passed back as the last argument of every callback. @since 0.1 */
    void *user;

    /**
     * @brief Optional. A sound range of the values a search of @p state can
     *        return: the exact game value and every depth-limited value.
     *
     * Write @p lo <= @p hi such that the negamax value of every subtree
     * of @p state at least one ply deep lies in [@p lo, @p hi], whatever its
     * horizon (fixed depth, uneven depths from extend(), quiescence): from
     * the side to move, node-relative (a win in k plies from here is
     * #GTS_SCORE_WIN - k), with evaluate() at the subtree's leaves. A range
     * that holds only for fixed-depth searches is not enough when the game
     * has extend() or generate_noisy(). In a game whose evaluate() returns 0
     * for unfinished positions and exact scores at the end, the range of the
     * results still reachable, widened to include 0, qualifies (Connect-4:
     * after n stones only wins with later stones remain); so does any range
     * containing every value evaluate() can return below @p state.
     * [#GTS_SCORE_LOSS, #GTS_SCORE_WIN] always qualifies.
     *
     * Every exact algorithm narrows its window to [@p lo, @p hi] at every
     * interior node below the root and returns at once when the window
     * closes; the root-window drivers (#GTS_OPT_ROOT_DRIVER, experimental) start from the
     * root's range. Without it the search knows only mate distance. A range
     * that does not hold (the contract broken) cannot crash or hang a search,
     * but its result is then unspecified.
     *
     * @param state   the position (never a finished game's root).
     * @param[out] lo receives the lower end, in [#GTS_SCORE_LOSS, #GTS_SCORE_WIN].
     * @param[out] hi receives the upper end, in [@p lo, #GTS_SCORE_WIN].
     * @param user    gts_game::user.
     * @return 0, or a negative value on failure (#GTS_ECALLBACK); a range
     *         outside [#GTS_SCORE_LOSS, #GTS_SCORE_WIN] or with lo > hi makes
     *         the search return #GTS_ESCORE.
     * @since 0.2
     */
    int (*bounds)(void *state, gts_score *lo, gts_score *hi, void *user);

    /**
     * @brief Optional. generate() that also writes an ordering key per move.
     *
     * Writes the moves exactly as generate() would (same moves, same order)
     * and, in @p keys[i], what move_score() would return for @p moves[i]
     * (higher is searched first). When present the search calls it instead
     * of generate() at the nodes it orders and never calls move_score() for
     * them: a game whose hints share work (threat masks, attack tables)
     * computes it once per node instead of once per move, and the search
     * saves one indirect call per move. generate() stays required (tools,
     * perft, the root).
     *
     * @param state    the position.
     * @param[out] moves receives the moves.
     * @param[out] keys receives one key per move.
     * @param capacity room in @p moves and @p keys: gts_game::max_moves.
     * @param user     gts_game::user.
     * @return as generate().
     * @since 0.2
     */
    int (*generate_keyed)(void *state, gts_move *moves, int32_t *keys, uint32_t capacity,
                          void *user);

    /**
     * @brief Optional. The playout policy of Monte-Carlo tree search: pick
     *        the move to play in @p state.
     *
     * Without it a playout plays uniformly random moves from generate().
     * A game-specific policy (Go: do not fill your own eyes, answer
     * ataris; Connect-4: take an immediate win) makes playouts both faster
     * and more informative. The move must be one generate() would return
     * (gts_mcts() checks it against the list it has just generated and
     * ends the search with #GTS_ECALLBACK otherwise; gts_game_check()
     * reports #GTS_CHECK_PLAYOUT_MOVE), and the call must leave @p state
     * as it found it. Only gts_mcts() calls it, once per playout move; it
     * is called concurrently on distinct states by parallel MCTS.
     *
     * Without #GTS_TRAIT_TRUSTED_PLAYOUT the search calls generate() on
     * the same position before every call (to check the move and to see
     * the game end), so @p state is never a finished game. With the trait
     * it does not: the policy's moves are played one after the other, the
     * policy is also called at a finished game and must then return 0,
     * and one generate() at the end of the playout tells a finished game
     * from a playout the policy ended early.
     *
     * @param state     the position (not a finished game, unless the game
     *                  declares #GTS_TRAIT_TRUSTED_PLAYOUT).
     * @param random    64 fresh random bits from the search's generator
     *                  (seeded by #GTS_OPT_MCTS_SEED, so a policy that
     *                  draws only from them keeps a 1-thread search
     *                  reproducible); derive more with any generator.
     * @param[out] move receives the chosen move.
     * @param user      gts_game::user.
     * @return 1 when @p move was written, 0 to end the playout here
     *         (scored with evaluate() as a capped playout; at a finished
     *         game, as a finished one), or a negative
     *         value on failure (#GTS_ECALLBACK, the search unwinds and
     *         restores the state).
     * @since 0.2
     */
    int (*playout_move)(void *state, uint64_t random, gts_move *move, void *user);

    /**
     * @brief Optional traits of the game: a bitwise OR of #gts_game_trait
     *        values, 0 for none. @since 0.2
     */
    uint32_t traits;

    /**
     * @brief Optional. The hash() that @p state would have after
     *        apply(@p state, @p move), computed without applying it.
     *
     * A hint for speed only: the search uses it to start loading the
     * transposition-table entries of a node's children before it searches
     * them (#GTS_OPT_TT_PREFETCH), which otherwise costs an apply(), a
     * hash() and an undo() per child. Results never depend on it: a wrong
     * value only makes that prefetch useless (gts_game_check() reports it,
     * #GTS_CHECK_HASH_AFTER). Only called when hash() is present, for moves
     * generate() returned at @p state; called concurrently on distinct
     * states by parallel algorithms.
     *
     * @param state the position (unchanged by the call).
     * @param move  a legal move of @p state.
     * @param user  gts_game::user.
     * @return what hash() would return after the move.
     * @since 0.2
     */
    uint64_t (*hash_after)(void *state, gts_move move, void *user);

    /**
     * @brief Optional. Pass: make a null move on @p state (the side to move
     *        gives up its turn), for null-move pruning (#GTS_OPT_NULL_MOVE).
     *
     * Only called when #GTS_OPT_NULL_MOVE is on, at a node of the
     * alpha-beta family below the root that is not a principal-variation
     * node and whose parent did not pass. Return 0 where a pass must not be
     * tried, with @p state unchanged: when the side to move is in check,
     * in zugzwang-prone positions (chess: only king and pawns left) and
     * always in a game without passes; the search then searches the node
     * normally. Return 1 after passing: @p state then has the other side to
     * move, its hash() differs from the one before (side to move included)
     * and generate(), evaluate() and the other callbacks work on it as on
     * any position; the search takes it back with null_undo().
     *
     * Required together with null_undo() (one without the other: no null
     * move is ever tried). Called concurrently on distinct states by
     * parallel algorithms.
     *
     * @param state the position, changed in place when 1 is returned.
     * @param user  gts_game::user.
     * @return 1 when the pass was made, 0 when it was refused (nothing
     *         changed), or a negative value on failure (nothing changed; the
     *         search returns #GTS_ECALLBACK).
     * @since 0.3
     */
    int (*null_apply)(void *state, void *user);

    /**
     * @brief Optional. Take back the pass null_apply() made on @p state
     *        (it returned 1; nothing else was applied since that is not
     *        undone).
     * @param state the position, changed in place.
     * @param user  gts_game::user.
     * @return 0, or a negative value on failure (#GTS_ECALLBACK).
     * @since 0.3
     */
    int (*null_undo)(void *state, void *user);
} gts_game;

/**
 * @brief Values of gts_game::traits.
 * @since 0.2
 */
typedef enum gts_game_trait {
    /**
     * @brief Equal gts_move values mean the same action in every position
     * (Go's and Hex's points, Connect-4's columns), so statistics of a move
     * gathered anywhere in a playout say something about that move here:
     * what RAVE / all-moves-as-first statistics in gts_mcts() need. @since 0.2
     */
    GTS_TRAIT_MOVE_IDENTITY = 1u << 0,
    /**
     * @brief gts_game::playout_move keeps its contract without being
     * checked: at a finished game (generate() returns 0) it returns 0,
     * and otherwise every move it returns is one generate() would list
     * at that position. gts_mcts() then plays the policy's moves without
     * calling generate() between them, which for a game whose generate()
     * tests the legality of every move (Go: suicide, superko) is most of
     * a playout's time; one generate() at the end of each playout tells a
     * finished game (scored as one) from a playout that the policy or a
     * cap ended. The statistics mean the same as without the trait; with
     * #GTS_OPT_MCTS_SEED at one thread, the playouts are the same ones.
     *
     * A policy that breaks the promise is not detected by the search: an
     * illegal move reaches apply(), which should reject it (the search
     * then ends with #GTS_ECALLBACK and restores the state, as after any
     * failed apply()); a move that apply() accepts is played, and the
     * playout goes on until the policy returns 0 or a cap
     * (#GTS_OPT_MCTS_PLAYOUT_DEPTH, the depth limit, #GTS_MAX_PLY) ends
     * it. gts_game_check() tests the promise (#GTS_CHECK_PLAYOUT_MOVE).
     * Ignored without gts_game::playout_move. @since 0.2
     */
    GTS_TRAIT_TRUSTED_PLAYOUT = 1u << 1,
    /**
     * @brief Results are scored by distance, and unfinished positions are
     * worth 0: evaluate() returns 0 at every position that is not
     * finished; a finished game that is a win for the side to move
     * scores above 0, a loss below 0, a draw 0; and, seen from any
     * position, a win reached in fewer plies scores strictly more than
     * every win reached in more plies (a loss in fewer plies strictly
     * less than every loss in more). Connect-4 scored by the stones on
     * the board has it.
     *
     * Then a full-width search to depth d whose exact value v is not 0
     * has found the game's value: v comes from results within d plies,
     * and every position it cut off at the horizon is worth less than v
     * to the side that gets v. Iterative deepening of the exact
     * algorithms stops at the first depth whose value is not 0 and
     * strictly inside the caller's window (gts_result::depth then says
     * where; the value is the one the target depth would give). A game
     * that declares the trait without keeping it gets wrong values, not
     * a crash; a vtable copied from one that has it, with another
     * evaluate(), must drop it. @since 0.2
     */
    GTS_TRAIT_DISTANCE_SCORES = 1u << 2,
    /**
     * @brief A position that repeats an earlier one is a draw (chess's
     * repetition rule, taken at the first repetition as engines do): a
     * node below the root whose hash() equals the hash() of a position
     * earlier on the searched line (since the last null move) or of one of
     * gts_limits::history is scored as a draw (hash() includes the side
     * to move, so equal keys are the same side's turn), worth
     * -#GTS_OPT_CONTEMPT to the root's side, without being searched.
     * Needs gts_game::hash (ignored without it). Honoured by the nodes of
     * the alpha-beta family (doc/architecture.md, "Selective search");
     * MTD(f), the SSS* family, ER, the best-first algorithms and minimax
     * ignore it. Results then depend on the path (a draw reached by one
     * line is not one by another): a value that a repetition draw decided
     * is not stored in the transposition table, but a stored value can
     * still be read on a line where it would have been a repetition
     * (graph-history interaction): a selective search's value, not an
     * exact one. Other rules that depend on history (chess's 50-move
     * counter) stay the game's business. @since 0.3
     */
    GTS_TRAIT_REPETITION_DRAW = 1u << 3
} gts_game_trait;

/**
 * @brief struct_size of the 0.1 layout of gts_game (through gts_game::user):
 *        the smallest size the library accepts. @since 0.1
 *
 * A program built against the 0.1 headers passes this size (its
 * sizeof(gts_game)); the library reads the fields it has and treats the
 * later ones as NULL. Frozen: derived from offsetof, never from sizeof.
 */
#define GTS_GAME_SIZE_V0_1 (offsetof(gts_game, user) + sizeof(void *))
/** @brief struct_size of the 0.2 layout of gts_game (through
 *         gts_game::hash_after). @since 0.2 */
#define GTS_GAME_SIZE_V0_2 (offsetof(gts_game, hash_after) + sizeof(void (*)(void)))
/** @brief struct_size of the 0.3 layout of gts_game (through
 *         gts_game::null_undo). @since 0.3 */
#define GTS_GAME_SIZE_V0_3 (offsetof(gts_game, null_undo) + sizeof(void (*)(void)))

#ifdef __cplusplus
}
#endif
#endif /* GTS_GAME_H */
