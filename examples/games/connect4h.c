/*
 * connect4h.c - Connect-4 with a heuristic evaluation, for playing rather
 * than solving (the min/max approximation and MCTS experiments of
 * doc/results/bestfirst.md, `gts match connect4h`).
 *
 * Rules, states, moves, hash, ordering hints and texts are connect4.c's:
 * the vtable is a copy of gts_game_connect4()'s with three members changed
 * (evaluate, bounds, and the trait GTS_TRAIT_DISTANCE_SCORES dropped),
 * so a state from gts_connect4_new() serves both games. The stock adapter's
 * evaluate() is 0 for every unfinished position, which is what exact
 * solving wants and what makes a depth-limited search blind; this one
 * scores an unfinished position by the lines that can still become four:
 *
 *   for each of the 69 lines of four cells, a line holding k >= 1 stones of
 *   one side and none of the other is worth C4H_LINE[k] to that side;
 *   each stone in the centre column is worth C4H_CENTRE;
 *
 * from the side to move (its lines minus the opponent's), clamped into
 * +-C4H_CLAMP (far inside the undecided range). A finished game is
 * #GTS_SCORE_LOSS for the side to move (the previous player made four; the
 * search adds the distance) or 0 for a full board.
 *
 * bounds() is NULL: connect4.c's ranges hold for its 0-valued horizon, not
 * for these values (game.h: a range must contain every value evaluate() can
 * return below the state).
 *
 * Concurrency: the vtable is built once through pthread_once, then
 * read-only; callbacks only touch their state.
 */
#include "gts_games.h"
#include "connect4_internal.h"

#include <pthread.h>

/* Value of a line with k = 1, 2, 3 stones of one side and none of the
 * other, and of a centre-column stone: a three far above any sum of twos.
 * Typical values are tens to a few thousands, the range the logistic of
 * #GTS_ALG_MMA (#GTS_OPT_MMA_SCALE, default 200) and of MCTS
 * (#GTS_OPT_MCTS_EVAL_SCALE) spreads over (0, 1). */
static const int32_t C4H_LINE[4] = { 0, 20, 200, 2000 };
static const int32_t C4H_CENTRE = 30;
static const int32_t C4H_CLAMP = 20000;
enum { C4H_CELLS = GTS__C4_WIDTH * GTS__C4_HEIGHT, C4H_CENTRE_COLUMN = 3 };

static gts_game c4h_game;
static pthread_once_t c4h_once = PTHREAD_ONCE_INIT;

static bool c4h_four(uint64_t pos)
{
    static const int dirs[4] = { GTS__C4_H1, GTS__C4_HEIGHT, GTS__C4_HEIGHT + 2, 1 };
    for (int i = 0; i < 4; i++) {
        uint64_t m = pos & (pos >> dirs[i]);
        if (m & (m >> (2 * dirs[i])))
            return true;
    }
    return false;
}

static int c4h_count(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* The 69 lines, from (column c, row r) in direction (dc, dr). */
static int32_t c4h_lines(uint64_t me, uint64_t them)
{
    static const int DIRS[4][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 1, -1 } };
    int32_t v = 0;
    for (int d = 0; d < 4; d++) {
        int dc = DIRS[d][0], dr = DIRS[d][1];
        for (int c = 0; c < GTS__C4_WIDTH; c++) {
            int ce = c + 3 * dc;
            if (ce >= GTS__C4_WIDTH)
                continue;
            for (int r = 0; r < GTS__C4_HEIGHT; r++) {
                int re = r + 3 * dr;
                if (re < 0 || re >= GTS__C4_HEIGHT)
                    continue;
                uint64_t line = 0;
                for (int k = 0; k < 4; k++)
                    line |= 1ull << ((c + k * dc) * GTS__C4_H1 + r + k * dr);
                uint64_t a = me & line, b = them & line;
                if (a && !b)
                    v += C4H_LINE[c4h_count(a)];
                else if (b && !a)
                    v -= C4H_LINE[c4h_count(b)];
            }
        }
    }
    return v;
}

static gts_score c4h_evaluate(void *state, void *user)
{
    (void)user;
    if (!state)
        return GTS_SCORE_INVALID;
    uint64_t me, mask;
    uint32_t moves;
    gts__connect4_bits(state, &me, &mask, &moves);
    uint64_t them = me ^ mask;
    if (c4h_four(them))
        return GTS_SCORE_LOSS;
    if (moves >= C4H_CELLS)
        return 0;
    uint64_t centre = 0x3Full << (C4H_CENTRE_COLUMN * GTS__C4_H1);
    int32_t v = c4h_lines(me, them) +
                C4H_CENTRE * (c4h_count(me & centre) - c4h_count(them & centre));
    if (v > C4H_CLAMP)
        v = C4H_CLAMP;
    if (v < -C4H_CLAMP)
        v = -C4H_CLAMP;
    return (gts_score)v;
}

static void c4h_init(void)
{
    c4h_game = *gts_game_connect4();
    c4h_game.evaluate = c4h_evaluate;
    c4h_game.bounds = NULL;
    /* Unfinished positions are not worth 0 here: not scored by distance. */
    c4h_game.traits &= ~(uint32_t)GTS_TRAIT_DISTANCE_SCORES;
}

const gts_game *gts_game_connect4h(void)
{
    pthread_once(&c4h_once, c4h_init);
    return &c4h_game;
}
