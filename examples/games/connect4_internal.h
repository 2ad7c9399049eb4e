/*
 * connect4_internal.h - what the other Connect-4 vtables of libgts-games
 * (connect4h.c) read of a connect4.c state. Not installed, not exported:
 * the version script hides gts__* symbols.
 */
#ifndef GTS_GAMES_CONNECT4_INTERNAL_H
#define GTS_GAMES_CONNECT4_INTERNAL_H

#include <stdint.h>

/* Board geometry of connect4.c's bitboard: column c owns bits 7c .. 7c+5
 * (bottom to top), bit 7c+6 is an always-empty sentinel. */
enum { GTS__C4_WIDTH = 7, GTS__C4_HEIGHT = 6, GTS__C4_H1 = 7 };

/* The bitboards of a Connect-4 state made by gts_connect4_new():
 * @p position the stones of the side to move, @p mask all stones,
 * @p moves the stones on the board. */
void gts__connect4_bits(const void *state, uint64_t *position, uint64_t *mask, uint32_t *moves);

#endif
