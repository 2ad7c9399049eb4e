/**
 * @file gts_games.h
 * @brief libgts-games: the built-in game adapters used by tests, tools and
 * bindings (tic-tac-toe, Connect-4, Othello, random trees).
 *
 * Each game has a vtable (user == NULL) and a constructor that returns a new
 * state or an error. Free a state with gts_games_free(). All functions are
 * thread-safe; states are not shared between threads.
 */
#ifndef GTS_GAMES_H
#define GTS_GAMES_H

#include <gts/gts.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#  define GTS_GAMES_API __attribute__((visibility("default")))
#else
#  define GTS_GAMES_API
#endif

/* ---- tic-tac-toe -------------------------------------------------------
 * Moves are cells 0..8 (row-major). Position text: digits '1'..'9' of the
 * cells played in order from the empty board ("519"). Terminal scores:
 * GTS_SCORE_LOSS for the side to move when the opponent has three in a row,
 * 0 for a full board. Non-terminal evaluate returns 0. Has hash/clone/free,
 * format_move/parse_move ("1".."9") and bounds (exact once the game is over
 * or a line can be completed at once; else from the earliest lines each
 * side can still complete).
 */
GTS_GAMES_API const gts_game *gts_game_tictactoe(void);
GTS_GAMES_API gts_status gts_tictactoe_new(const char *position, void **state);

/* ---- Connect-4 (7 columns x 6 rows) -------------------------------------
 * Moves are columns 0..6. Position text: 1-based column digits from the
 * empty board ("4453"). Scores follow the published benchmark convention:
 * positive when the side to move wins, magnitude (43 - n) / 2 where n is
 * the number of stones before the winning stone; 0 for a draw.
 * gts_game_connect4() generates every legal move (perft-exact);
 * gts_game_connect4_solver() is the same game with exact pruning for solving
 * (see connect4.c) and must give the same scores.
 */
GTS_GAMES_API const gts_game *gts_game_connect4(void);
GTS_GAMES_API const gts_game *gts_game_connect4_solver(void);
GTS_GAMES_API gts_status gts_connect4_new(const char *position, void **state);

/* ---- Othello (8x8) -------------------------------------------------------
 * Moves are squares 0..63 (a1 = 0, h8 = 63) and GTS_OTHELLO_PASS.
 * Position text: NULL or "" for the start position, or a sequence of
 * squares like "f5d6c3" (passes implied or written "ps"). Its bounds are
 * only the decided range less the plies before the game can end (exact
 * once it is over).
 */
#define GTS_OTHELLO_PASS 64u
GTS_GAMES_API const gts_game *gts_game_othello(void);
GTS_GAMES_API gts_status gts_othello_new(const char *position, void **state);

/* ---- random trees -------------------------------------------------------
 * A deterministic game tree computed on the fly from a seed (the standard
 * workload of the parallel-search literature). Leaves at depth `depth` (or
 * earlier, see `terminal_percent`) take values in [min_value, max_value]
 * from the side to move. With `transpositions` set, children's keys are drawn
 * from a small pool per level so that different paths reach the same node
 * (same key, same subtree, same value). With `ordered_percent` = p, the first
 * child is the best one with probability p% (a "strongly ordered" tree).
 * Its bounds follow from the model: a node's value is that of a node k
 * levels down, whose sum differs by at most k times the largest edge gain.
 */
typedef struct gts_randtree_params {
    size_t struct_size;
    uint64_t seed;
    uint32_t branching;        /* 1..64 children per interior node */
    uint32_t depth;            /* 1..60: depth of the tree */
    int32_t min_value;         /* leaf values, within +-30000 */
    int32_t max_value;
    uint32_t branching_jitter; /* 0: exactly `branching`; k: branching-k..branching */
    uint32_t terminal_percent; /* chance (0..100) an interior node is a leaf */
    bool transpositions;       /* share subtrees between paths (same level) */
    uint32_t ordered_percent;  /* 0..100, see above */
} gts_randtree_params;

GTS_GAMES_API const gts_game *gts_game_randtree(void);
GTS_GAMES_API gts_status gts_randtree_new(const gts_randtree_params *params, void **state);

/* ---- common -------------------------------------------------------------- */

/** Free a state made by a constructor above (NULL accepted). */
GTS_GAMES_API void gts_games_free(const gts_game *game, void *state);

/** Game by name: "tictactoe", "connect4", "othello", "randtree"; NULL if unknown. */
GTS_GAMES_API const gts_game *gts_games_find(const char *name);

/**
 * Count the leaf paths of depth @p depth from @p state (perft): a node with
 * no moves before @p depth counts as one leaf. Uses generate/apply/undo only.
 * Returns 0 and writes @p count, or a negative gts_status.
 */
GTS_GAMES_API int gts_games_perft(const gts_game *game, void *state, int depth, uint64_t *count);

#ifdef __cplusplus
}
#endif
#endif /* GTS_GAMES_H */
