/**
 * @file check.h
 * @brief gts_game_check(): exercise a game adapter and report the first
 *        broken promise of the gts_game contract, with the move path to it.
 *
 * Engine authors used to write these checks by hand. The checker walks the
 * game from the caller's state (random walks, reproducible from a seed) and
 * at every position it reaches checks what the callbacks promise:
 *
 *  - generate() is deterministic (two calls, same moves), never returns more
 *    than max_moves and never writes past its capacity; generate_keyed()
 *    returns the same moves; every move of generate_noisy() is a legal move;
 *  - evaluate() is deterministic and in [#GTS_SCORE_LOSS, #GTS_SCORE_WIN];
 *  - apply() then undo() of every legal move restores what the state shows
 *    (its key, its moves, its value), and so do move_score() and extend();
 *  - hash() is deterministic, restored by undo, equal on a clone; two
 *    children with equal keys must look the same, and so must two move
 *    orders that reach positions with equal keys (a, b, c and c, b, a:
 *    moves, value, the children's keys);
 *  - clone() looks like the original, and playing on the clone leaves the
 *    original alone;
 *  - bounds() is a valid range and contains the negamax value of the
 *    position at depths 1..depth;
 *  - format_move() and parse_move() round-trip every move;
 *  - null_apply() (since 0.3) leaves the state alone when it refuses, and a
 *    pass changes hash() and is undone by null_undo();
 *  - playout_move() leaves the state alone and returns only moves of
 *    generate(); with #GTS_TRAIT_TRUSTED_PLAYOUT it also returns 0 at the
 *    finished games the walks reach, and a playout of its own moves from
 *    the end of every walk (up to #GTS_MAX_PLY plies from the caller's
 *    state) keeps both promises at every position until it returns 0;
 *  - every exact algorithm (serial, and parallel at 2 threads when the game
 *    has clone and free) returns the minimax value at a few positions.
 *
 * What the state "shows" is what the callbacks return: the checker cannot
 * compare two states byte for byte. A key difference between two move
 * orders that reach the same position is not detected (the checker cannot
 * tell that they are the same); a wrong key still shows up when it makes
 * an algorithm with the transposition table disagree with minimax.
 * @since 0.2
 */
#ifndef GTS_CHECK_H
#define GTS_CHECK_H

#include "common.h"
#include "game.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief What gts_game_check() found broken (gts_check_report::violation).
 * @since 0.2
 */
typedef enum gts_check_violation {
    GTS_CHECK_OK = 0,                   /**< @brief Nothing: the adapter passed. @since 0.2 */
    GTS_CHECK_CALLBACK_FAILED = 1,      /**< @brief A callback reported a failure (negative
                                             return, NULL clone) where nothing should fail.
                                             @since 0.2 */
    GTS_CHECK_GENERATE_OVERFLOW = 2,    /**< @brief generate() or generate_noisy()
                                             returned more than max_moves or wrote past
                                             its capacity. @since 0.2 */
    GTS_CHECK_GENERATE_UNSTABLE = 3,    /**< @brief Two generate() calls differ. @since 0.2 */
    GTS_CHECK_KEYED_MISMATCH = 4,       /**< @brief generate_keyed() returned other moves
                                             than generate(). @since 0.2 */
    GTS_CHECK_NOISY_NOT_LEGAL = 5,      /**< @brief generate_noisy() returned a move
                                             generate() does not. @since 0.2 */
    GTS_CHECK_EVALUATE = 6,             /**< @brief evaluate() out of range or not
                                             deterministic. @since 0.2 */
    GTS_CHECK_NOT_RESTORED = 7,         /**< @brief After apply() and undo() (or
                                             move_score(), extend()) the state shows
                                             something else. @since 0.2 */
    GTS_CHECK_HASH = 8,                 /**< @brief hash() not deterministic, or equal
                                             keys for positions that differ. @since 0.2 */
    GTS_CHECK_CLONE = 9,                /**< @brief A clone differs from its original or
                                             shares state with it. @since 0.2 */
    GTS_CHECK_BOUNDS = 10,              /**< @brief bounds() invalid, or a negamax value
                                             outside it. @since 0.2 */
    GTS_CHECK_MOVE_TEXT = 11,           /**< @brief format_move()/parse_move() do not
                                             round-trip. @since 0.2 */
    GTS_CHECK_ALGORITHM = 12,           /**< @brief An exact algorithm disagrees with
                                             minimax. @since 0.2 */
    GTS_CHECK_HASH_AFTER = 13,          /**< @brief hash_after() differs from hash()
                                             after apply(). @since 0.2 */
    GTS_CHECK_PLAYOUT_MOVE = 14         /**< @brief playout_move() returned a move
                                             generate() does not, or (with
                                             #GTS_TRAIT_TRUSTED_PLAYOUT) a move at a
                                             finished game. @since 0.2 */
} gts_check_violation;

/**
 * @brief Options of gts_game_check(). A zeroed struct (with struct_size)
 *        means the defaults.
 * @since 0.2
 */
typedef struct gts_check_options {
    /** @brief sizeof(gts_check_options) as compiled by the caller. @since 0.2 */
    size_t struct_size;
    /** @brief Seed of the random walks (any value). @since 0.2 */
    uint64_t seed;
    /** @brief Random walks from the caller's state; 0 means 16. @since 0.2 */
    uint32_t walks;
    /** @brief Most plies of one walk (1..#GTS_MAX_PLY - 8); 0 means 24. @since 0.2 */
    uint32_t walk_length;
    /** @brief Depth of the bounds and algorithm checks (1..8); 0 means 3. @since 0.2 */
    int32_t depth;
    /** @brief Positions where every exact algorithm is compared with
        minimax (the root, then spread over the walks); 0 means 4, a
        negative value skips the comparison. @since 0.2 */
    int32_t algorithm_positions;
} gts_check_options;

/** @brief struct_size of the first layout of gts_check_options. @since 0.2 */
#define GTS_CHECK_OPTIONS_SIZE_V0_2 \
    (offsetof(gts_check_options, algorithm_positions) + sizeof(int32_t))

/**
 * @brief What gts_game_check() found.
 * @since 0.2
 */
typedef struct gts_check_report {
    /** @brief sizeof(gts_check_report) as compiled by the caller. @since 0.2 */
    size_t struct_size;
    /** @brief The first violation found, #GTS_CHECK_OK if none. @since 0.2 */
    gts_check_violation violation;
    /** @brief What the callback at fault returned, as gts_result::callback_status
        would say for the same fault in a search: its negative status for
        #GTS_CHECK_CALLBACK_FAILED (-1 for a NULL clone or an evaluate() that
        returned #GTS_SCORE_INVALID), the count for #GTS_CHECK_GENERATE_OVERFLOW
        (the count it returned, even when it only wrote past its capacity),
        the score for #GTS_CHECK_EVALUATE, parse_move()'s status for a failed
        #GTS_CHECK_MOVE_TEXT; 0 for the other violations. @since 0.2 */
    int32_t callback_status;
    /** @brief The algorithm that disagreed (#GTS_CHECK_ALGORITHM). @since 0.2 */
    gts_algorithm algorithm;
    /** @brief Moves in path. @since 0.2 */
    uint32_t path_length;
    /** @brief The moves from the caller's state to the position where the
        violation was found. @since 0.2 */
    gts_move path[GTS_MAX_PLY];
    /** @brief Positions examined. @since 0.2 */
    uint64_t positions;
    /** @brief One line saying what is wrong (NUL-terminated; empty when the
        adapter passed). Moves are written with the game's format_move() when it
        has one (hex otherwise, and for the move of a failed undo(), whose
        position is unknown); position keys appear only for a game with
        hash(). @since 0.2 */
    char message[256];
} gts_check_report;

/** @brief struct_size of the first layout of gts_check_report. @since 0.2 */
#define GTS_CHECK_REPORT_SIZE_V0_2 (offsetof(gts_check_report, message) + 256)

/**
 * @brief Check a game adapter against the gts_game contract.
 *
 * Runs the checks listed in check.h from @p state. The state is mutated
 * through apply() and undo() and restored before return, unless the
 * violation found is a broken undo() (then it is whatever undo() left).
 *
 * @param game    the adapter (read, not kept).
 * @param state   the starting position.
 * @param options the options, or NULL for the defaults.
 * @param[in,out] report receives the verdict; set its struct_size first.
 * @return #GTS_OK when the check ran (the verdict is
 *         gts_check_report::violation); #GTS_EINVAL for a NULL @p game,
 *         @p state or @p report or a game without generate, apply, undo or
 *         evaluate; #GTS_ESTRUCT for an unknown struct_size (when the
 *         report's own size is good, its message then names the struct at
 *         fault, "gts_game: ..." or "gts_check_options: ...", and the rest
 *         of the report is zero); #GTS_ERANGE for
 *         max_moves outside 1..65535 or an option out of range (the
 *         report's message names the option);
 *         #GTS_ENOMEM.
 *
 * Thread-safe for distinct states (it creates its own engines).
 * @since 0.2
 */
GTS_API gts_status gts_game_check(const gts_game *game, void *state,
                                  const gts_check_options *options, gts_check_report *report);

/**
 * @brief Name of a ::gts_check_violation, without the `GTS_CHECK_` prefix.
 *
 * @param violation a ::gts_check_violation value (any int is accepted).
 * @return "OK", "HASH", ..., or NULL for a value that is not a
 *         ::gts_check_violation. The string is static: do not free it.
 *
 * Thread-safe.
 * @since 0.2
 */
GTS_API const char *gts_check_violation_name(int violation);

#ifdef __cplusplus
}
#endif
#endif /* GTS_CHECK_H */
