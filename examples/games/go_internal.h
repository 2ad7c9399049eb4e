/*
 * go_internal.h - the Go adapter's 3x3 pattern table (go.c), for the tests.
 * Not installed, not exported: the version script hides gts__* symbols;
 * tests/test_go.c links a static copy of libgts-games to reach them.
 */
#ifndef GTS_GAMES_GO_INTERNAL_H
#define GTS_GAMES_GO_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <gts/gts.h>

/*
 * The code of a 3x3 neighbourhood: 2 bits per cell (0 empty, 1 black,
 * 2 white, 3 off the board), the 8 cells around the centre in reading
 * order from the top left, the top row being the row above (GTP row + 1):
 *
 *     bits 0-1  bits 2-3    bits 4-5
 *     bits 6-7  (centre)    bits 8-9
 *     bits 10-11 bits 12-13 bits 14-15
 */
enum { GTS__GO_PATTERN_CODES = 1 << 16 };

/* Whether a move at the (empty) centre of neighbourhood @p code matches one
 * of the playout policy's patterns with @p mover to move (1 black,
 * 2 white). Thread-safe. */
bool gts__go_pattern_match(unsigned code, int mover);

/* The neighbourhood code of point @p m (not a pass) in a state of
 * gts_go_new(), current position. */
unsigned gts__go_pattern_code(const void *state, gts_move m);

#endif
