/*
 * games_internal.h - what the files of libgts-games share and do not
 * export (the version script hides gts__* symbols): the escaping of a
 * piece of position text for a refusal message, and the games whose
 * position text has its own explainer in the game's file.
 */
#ifndef GTS_GAMES_INTERNAL_H
#define GTS_GAMES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <gts/gts.h>

/* @p len bytes of @p s for a message, in a new string (free it): bytes
 * 0x21-0x7e as they are, any other as \xHH. NULL when out of memory. */
char *gts__games_escape(const char *s, size_t len);

/* snprintf into a caller's reason buffer, which may be NULL or 0 bytes
 * (position.c). */
void gts__games_say(char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A Go state of @p text (gts_go_new), or a negative status with the reason
 * in @p why: which token or move is wrong and why (go.c). */
gts_status gts__go_position_new(const char *text, void **state, char *why, size_t size);

/* The clone() and free() of a game whose state is one flat block (no
 * pointer inside): a malloc'd copy of @p size bytes (NULL for a NULL
 * @p state or out of memory), and free(). */
void *gts__games_clone_flat(const void *state, size_t size);
void gts__games_free_flat(void *state, void *user);

/* Whose turn it is in a state of the game's constructor, as each game
 * keeps it (gts_games_position_turn): 0 the player who moves first from
 * the start, 1 the other (chess: White 0, Black 1, whatever the FEN);
 * *plies the moves played on the state since its start position (chess:
 * since its FEN), passes included. Connect-4 answers through
 * gts__connect4_bits (connect4_internal.h). */
int gts__tictactoe_turn(const void *state, int *plies);
int gts__othello_turn(const void *state, int *plies);
int gts__randtree_turn(const void *state, int *plies);
int gts__go_turn(const void *state, int *plies);
int gts__chess_turn(const void *state, int *plies);

/* gts_game_chess_engine()'s evaluate() of a chess state computed without
 * the state's pawn table and with the portable popcount, never the POPCNT
 * instruction (the reference that evaluate()'s values must equal). */
int gts__chess_evaluate_uncached(void *state);
/* Whether the side to move of a chess state is in check. */
bool gts__chess_in_check(const void *state);

#endif
