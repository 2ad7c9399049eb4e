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

/** Callback vtable describing a game. Fill it, then pass it to a search. */
typedef struct gts_game {
    /** sizeof(gts_game) as compiled by the caller. Must be first. */
    size_t struct_size;

    /** Most moves generate() can ever return (1..65535). */
    uint32_t max_moves;

    /**
     * Write the legal moves of @p state to @p moves (at most @p capacity,
     * which is max_moves). Returns the count, 0 for a finished game
     * (terminal node), or a negative value on failure. Required.
     * The order must be deterministic for a given state. A count above
     * @p capacity makes the search return GTS_EMOVES; never write more
     * than @p capacity moves.
     */
    int (*generate)(void *state, gts_move *moves, uint32_t capacity, void *user);

    /** Play @p move on @p state. Returns 0, or negative on failure. Required. */
    int (*apply)(void *state, gts_move move, void *user);

    /** Take back @p move, the last move applied. Returns 0 or negative. Required. */
    int (*undo)(void *state, gts_move move, void *user);

    /**
     * Static value of @p state from the side to move, in
     * [GTS_SCORE_LOSS, GTS_SCORE_WIN]; for a finished game use
     * GTS_SCORE_WIN/GTS_SCORE_LOSS (or the gts_score_*_in helpers) or any
     * exact game score. GTS_SCORE_INVALID reports a failure. Required.
     */
    gts_score (*evaluate)(void *state, void *user);

    /**
     * Optional. 64-bit key of @p state (side to move included). Enables the
     * transposition table. Equal keys must mean equal positions: the search
     * cannot detect colliding keys; it stays safe (a root move, a score in
     * [-GTS_SCORE_INF, GTS_SCORE_INF]) but its value may then be wrong.
     */
    uint64_t (*hash)(void *state, void *user);

    /**
     * Optional. A deep copy of @p state, NULL on failure (the search then
     * returns GTS_ECALLBACK before searching). Needed by parallel algorithms.
     */
    void *(*clone)(void *state, void *user);

    /** Optional. Frees a state made by clone() (or by the game's own constructor). */
    void (*free)(void *state, void *user);

    /**
     * Optional. Like generate(), but only the "noisy" moves searched by
     * quiescence at depth 0 (captures, say). Absent: depth-0 nodes are
     * evaluated with evaluate().
     */
    int (*generate_noisy)(void *state, gts_move *moves, uint32_t capacity, void *user);

    /** Optional. Ordering hint for @p move in @p state: higher is searched first. */
    int32_t (*move_score)(void *state, gts_move move, void *user);

    /**
     * Optional. Plies to extend the search of @p move (0 or more; the total is
     * capped by GTS_MAX_PLY). Called before the move is applied. Must be
     * deterministic so that every algorithm searches the same tree.
     */
    int (*extend)(void *state, gts_move move, void *user);

    /**
     * Optional. Write @p move as text into @p buf (NUL-terminated, at most
     * @p size bytes). Returns the length written, or negative.
     */
    int (*format_move)(void *state, gts_move move, char *buf, size_t size, void *user);

    /** Optional. Parse @p text into @p move. Returns 0, or negative. */
    int (*parse_move)(void *state, const char *text, gts_move *move, void *user);

    /** Passed back as the last argument of every callback. */
    void *user;
} gts_game;

/** Smallest struct_size a gts_game may have (the 0.1 layout). */
#define GTS_GAME_SIZE_V0_1 (sizeof(gts_game))

#ifdef __cplusplus
}
#endif
#endif /* GTS_GAME_H */
