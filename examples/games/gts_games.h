/**
 * @file gts_games.h
 * @brief libgts-games: the built-in game adapters used by tests, tools and
 * bindings (tic-tac-toe, Connect-4, Othello, chess, Go, random trees), and
 * their position texts (gts_games_position_new(): the game says why it
 * refuses one).
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
/** Connect-4 for playing, not solving (connect4h.c): the same rules,
 *  states (gts_connect4_new()), moves and hash as gts_game_connect4(), but
 *  evaluate() scores unfinished positions by the lines of four still open
 *  to each side and the centre column (|value| <= 20000); a finished game
 *  is GTS_SCORE_LOSS / 0; no bounds(). Found by name as "connect4h".
 *  @since 0.2 */
GTS_GAMES_API const gts_game *gts_game_connect4h(void);

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

/* ---- Go (since 0.2) ------------------------------------------------------
 * Any board from 2x2 to 19x19 (go.c). Moves are points y * size + x (x = 0
 * is column A, y = 0 is row 1) and GTS_GO_PASS; text: GTP vertices ("D4",
 * columns A..T without I, case-insensitive) and "pass". Rules: Black first,
 * captures, suicide illegal, positional superko (a play may not recreate an
 * earlier board of the game), two consecutive passes end the game, and so
 * does a move cap (maxmoves, passes included; default 3 * size * size).
 * Scoring: Tromp-Taylor area with komi. evaluate() is Black's area margin
 * (stones + empty regions reaching only one colour, less komi) from the
 * side to move, 100 per point, clamped to +-(GTS_SCORE_DECIDED - 1): exact
 * for a finished game, the same count of the board as it stands otherwise.
 * Has hash (history included: superko makes legality depend on it),
 * clone/free, format_move/parse_move, playout_move (atari captures and
 * escapes next to the last move; with patterns=1 then MoGo's 3x3 pattern
 * moves around it and a capture anywhere; else a random legal move that
 * neither fills an own eye nor puts two or more stones in self-atari, else
 * pass; 0 once the game is over) and traits GTS_TRAIT_MOVE_IDENTITY and
 * GTS_TRAIT_TRUSTED_PLAYOUT.
 * Position text: blank-separated tokens in any order, all optional:
 * "SIZE" (default 9), "komi=K" (a multiple of 0.5 within +-150, default
 * 7.5), "maxmoves=N" (1..100000), "patterns=0|1" (the playout policy's
 * MoGo patterns and capture anywhere, default 0: off; slower, and no
 * measured gain) and "moves=V,V,..." (vertices or "pass", colours
 * alternating from Black), e.g. "9 komi=7 moves=E5,D4,pass".
 * Found by name as "go".
 */
#define GTS_GO_PASS 361u
/** A set-up move: apply() hands the turn to the other colour and does
 *  nothing else. Not a pass (two consecutive passes still end the game, a
 *  skip between them is transparent: the pass count is left as it was),
 *  never generated, legal whenever the game is not over, counts toward the
 *  move cap; undo() takes it back. For callers that set up positions:
 *  handicap stones, a GTP engine's implied pass between two stones of one
 *  colour. format_move() and parse_move() do not know it. @since 0.2 */
#define GTS_GO_SKIP 362u
/** The Go vtable. @since 0.2 */
GTS_GAMES_API const gts_game *gts_game_go(void);
/** A Go state from position text (see above); GTS_EPARSE for bad text or an
 *  illegal move in it. @since 0.2 */
GTS_GAMES_API gts_status gts_go_new(const char *position, void **state);
/** Black's Tromp-Taylor area margin of @p state's board in half points, komi
 *  included (positive: Black leads); 0 for NULL. @since 0.2 */
GTS_GAMES_API int gts_go_area(const void *state);
/** The board as text, top row (the highest row number) first: one line of
 *  size characters per row, 'X' Black, 'O' White, '.' empty. @p size must
 *  be at least size * (size + 1) + 1 bytes, else GTS_EINVAL. @since 0.2 */
GTS_GAMES_API gts_status gts_go_board(const void *state, char *buf, size_t size);
/** The komi of @p state (its position text's "komi=", else 7.5) in half
 *  points, e.g. 15 for 7.5, -1 for -0.5; 0 for NULL. @since 0.2 */
GTS_GAMES_API int gts_go_komi(const void *state);
/** The side to move: 0 Black, 1 White, GTS_EINVAL for NULL. @since 0.2 */
GTS_GAMES_API int gts_go_to_move(const void *state);

/* ---- chess (since 0.2) ---------------------------------------------------
 * The full rules (chess.c): castling, en passant, promotion, checkmate and
 * stalemate; the game also ends (generate() returns 0) on a draw by the
 * 50-move rule or threefold repetition. Squares a1 = 0 .. h8 = 63; a move is
 * from | to << 6 | promotion << 12 (2 knight, 3 bishop, 4 rook, 5 queen);
 * text: UCI long algebraic ("e2e4", "e7e8q", castling "e1g1"). evaluate():
 * GTS_SCORE_LOSS when checkmated, 0 for a draw, else material and
 * piece-square tables in centipawns. Has hash (Zobrist), clone/free,
 * generate_noisy (captures, queen promotions), move_score and
 * generate_keyed (MVV-LVA), extend (check extension), format_move and
 * parse_move. Found by name as "chess".
 */
/** The chess vtable. @since 0.2 */
GTS_GAMES_API const gts_game *gts_game_chess(void);
/** The chess vtable an engine searches with: gts_game_chess() except that
 *  a position that already occurred at or after the state's root (the
 *  position gts_chess_new() built, after its "moves") is a draw at once
 *  (generate() returns 0, evaluate() 0), as chess engines score a
 *  repetition inside the search; a position seen only before the root
 *  still needs its third occurrence. A value then depends on the path to a
 *  node, not only on the node (graph history interaction): searches with a
 *  transposition table may differ from plain minimax on it, so use
 *  gts_game_chess() where exactness is checked. Since 0.3 it also has its
 *  own, stronger evaluation (pawn structure, mobility, king safety...),
 *  tests for legal moves in evaluate() only in check, and leaves captures
 *  that lose material by static exchange out of generate_noisy() (see the
 *  header comment of chess.c). gts-uci plays with it
 *  (not in gts_games_find()'s list: the CLIs keep the rules' version).
 *  @since 0.2 */
GTS_GAMES_API const gts_game *gts_game_chess_engine(void);
/** A chess state from position text: NULL, "" or "startpos" for the start
 *  position, or a FEN (4 to 6 fields), optionally followed by "moves" and
 *  UCI moves ("startpos moves e2e4 e7e5"). GTS_EPARSE for bad text, an
 *  impossible position (no king, pawns on the first or last rank, the side
 *  not to move in check, castling rights without their king and rook, a
 *  bad en-passant square) or an illegal move. @since 0.2 */
GTS_GAMES_API gts_status gts_chess_new(const char *position, void **state);
/** Make the current position of @p state (from gts_chess_new()) the root
 *  that gts_game_chess_engine() counts repetitions from, for a program that
 *  applies a game's moves itself before it searches. gts_chess_new() sets
 *  it after its "moves". GTS_EINVAL for NULL. @since 0.2 */
GTS_GAMES_API gts_status gts_chess_set_root(void *state);
/** Perft as chess programmers count it, to compare with the published
 *  numbers: the leaves exactly @p depth plies below @p state (a checkmate
 *  or stalemate before that adds none, unlike gts_games_perft()), and the
 *  50-move and repetition draws do not end the game. @p state must come
 *  from gts_chess_new() and is restored. GTS_EINVAL for a NULL argument or
 *  a depth outside 0..GTS_MAX_DEPTH; GTS_ERANGE when the state, with the
 *  moves already played on it, has no room for @p depth more (a state
 *  holds 2048 plies). @since 0.2 */
GTS_GAMES_API gts_status gts_chess_perft(void *state, int depth, uint64_t *count);

/* ---- common -------------------------------------------------------------- */

/** Free a state made by a constructor above (NULL accepted). */
GTS_GAMES_API void gts_games_free(const gts_game *game, void *state);

/** Game by name: "tictactoe", "connect4", "connect4h", "chess", "go", "othello", "randtree"; NULL if unknown. */
GTS_GAMES_API const gts_game *gts_games_find(const char *name);

/**
 * Count the leaf paths of depth @p depth from @p state (perft): a node with
 * no moves before @p depth counts as one leaf. Uses generate/apply/undo only.
 * Returns 0 and writes @p count, or a negative gts_status.
 */
GTS_GAMES_API int gts_games_perft(const gts_game *game, void *state, int depth, uint64_t *count);

/**
 * @brief The text of @p move for a message or a listing: the game's
 *        format_move(), or the move's number when the game has none or it
 *        fails; "none" for #GTS_MOVE_NONE.
 * Works on any game (not only the built-in ones). Nothing is written when
 * @p buf is NULL or @p size 0; the text is cut to @p size bytes.
 * Thread-safe (on distinct states).
 * @since 0.3
 */
GTS_GAMES_API void gts_games_format_move(const gts_game *game, void *state, gts_move move,
                                         char *buf, size_t size);

/**
 * @brief The texts of @p n moves, separated by blanks, each by
 *        gts_games_format_move().
 * With @p line, the moves are a line of play (a principal variation): each
 * move but the last is applied to @p state before the next is written, and
 * all of them are undone before return, so @p state ends as it began; a
 * move that cannot be applied ends the text after it. Without, every move
 * is written in @p state (a list of alternatives). A text longer than
 * @p size bytes is cut after the last move that fits whole.
 * @return the number of moves written, or #GTS_EINVAL for a NULL @p game
 *         or @p buf, @p size 0, or NULL @p moves with @p n > 0.
 * Thread-safe (on distinct states).
 * @since 0.3
 */
GTS_GAMES_API int gts_games_format_moves(const gts_game *game, void *state,
                                         const gts_move *moves, size_t n, bool line, char *buf,
                                         size_t size);

/* ---- position texts, and why one was refused (since 0.2) ------------------ */

/**
 * @brief Build a state of the built-in game @p name from a position text,
 *        and say why a text is refused.
 *
 * The game owns its rules: this is the one place that reads a built-in
 * game's position text for a program and explains a refusal (the `gts`
 * tool and `python3 -m gts` both call it, so their messages agree).
 *
 * @param name  a name of gts_games_find(); "connect4h" takes Connect-4's
 *              texts.
 * @param tree  for "randtree", the tree (NULL: seed 1, branching 8, depth
 *              8, leaf values -1000..1000, the `gts` tool's defaults);
 *              ignored by the other games.
 * @param text  the position, NUL-terminated (NULL is ""): the text of the
 *              game's constructor above; for "randtree" the child indices
 *              from the root, comma-separated ("0,3,1"; "" is the root).
 * @param[out] state receives the new state; free it with
 *              gts_games_free(gts_games_find(name), state). NULL on failure.
 * @param why   on failure, one line saying what is wrong, in the words of
 *              the game: which move or token, at which column, and why
 *              ("move 3: column 1 is full", "move 4: D5 is not legal here:
 *              suicide (the stone's string would have no liberty)", "bad
 *              komi 'x' at column 6 (...)"). NUL-terminated, cut to
 *              @p size bytes; NULL with @p size 0 when not wanted. Set to ""
 *              on success.
 * @param size  bytes at @p why (a few hundred hold every reason but one
 *              quoting a long piece of the text).
 * @return #GTS_OK; #GTS_EPARSE for a text that is not a position of the
 *         game (a bad move, an illegal one, a finished game, a decided
 *         Connect-4 position); #GTS_EINVAL for an unknown @p name or a NULL
 *         @p state; #GTS_ENOMEM; or the constructor's status.
 *
 * Thread-safe.
 * @since 0.2
 */
GTS_GAMES_API gts_status gts_games_position_new(const char *name,
                                                const gts_randtree_params *tree,
                                                const char *text, void **state, char *why,
                                                size_t size);

/**
 * @brief Whose turn it is after the position text @p text of the built-in
 *        game @p name, and how many plies the text played.
 * The game reads the text as gts_games_position_new() does and answers
 * from the state it builds (chess too: the side to move and the moves
 * played after the FEN), so that a program that sets up games from
 * texts (`gts match` alternating colours over openings) knows no game's
 * notation.
 * @param name  a name of gts_games_find().
 * @param tree  for "randtree", as in gts_games_position_new().
 * @param text  the position (NULL is "").
 * @param[out] side 0 when the player who moves first from the game's start
 *              is to move (tic-tac-toe X, Connect-4's first player, Othello
 *              and Go Black, chess White, a random tree's root side), 1
 *              when the other is.
 * @param[out] plies if not NULL, the moves the text played from its start:
 *              every move of a move list, passes included (an Othello pass
 *              also when the text leaves it implied, a Go pass); a random
 *              tree's depth below the root; for chess the moves after
 *              "moves" (a FEN is a start).
 * @return #GTS_OK; #GTS_EINVAL for a NULL @p side; else the status of
 *         gts_games_position_new() for a text it refuses (call it for the
 *         reason).
 * Thread-safe.
 * @since 0.3
 */
GTS_GAMES_API gts_status gts_games_position_turn(const char *name,
                                                 const gts_randtree_params *tree,
                                                 const char *text, int *side, int *plies);

/**
 * @brief The built-in game @p name described as a game library
 *        (gts/plugin.h), so that a program treats built-in games and game
 *        libraries alike.
 *
 * The descriptor's name is @p name, its game gts_games_find(@p name), its
 * position_new() gts_games_position_new() of that game (a non-NULL user
 * pointer is taken as the `const gts_randtree_params *` of "randtree"; the
 * descriptor's own user is NULL), and moves_prefix / moves_separator say
 * how a text lists moves from the start: "startpos moves " and " " for
 * chess, "moves=" and "," for Go, "" and "," for a random tree, "" and ""
 * for the others. Valid as long as the library is loaded; never written
 * (copy it to set another user pointer).
 *
 * @return the descriptor, or NULL for a name gts_games_find() does not know.
 *
 * Thread-safe.
 * @since 0.2
 */
GTS_GAMES_API const gts_plugin *gts_games_plugin(const char *name);

#ifdef __cplusplus
}
#endif
#endif /* GTS_GAMES_H */
