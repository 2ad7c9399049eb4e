/*
 * tictactoe.c - tic-tac-toe adapter for libgts.
 *
 * The board is nine cells (row-major, cell 0 = top left) holding EMPTY, X or
 * O; X moves first. A move is the cell index 0..8; its text form is the
 * 1-based digit "1".."9". Position text lists the cells played from the empty
 * board ("519"); a finished position is accepted, a move after the end is not.
 *
 * Invariants: `count` is the number of stones on the board and the side to
 * move is X when it is even. The game is over when the player who just moved
 * has three in a row or the board is full; generate() then returns 0 and
 * apply() refuses every move. undo() only takes back the most recent stone
 * of the player who just moved.
 *
 * Hash: exact base-3 encoding of the board (3^9 < 2^15); the side to move
 * follows from the stone count, so equal keys mean equal positions.
 *
 * Concurrency: no shared mutable state; every callback touches only the state
 * it is given, so distinct states may be used from distinct threads.
 */
#include "gts_games.h"
#include "games_internal.h"

#include <stdlib.h>
#include <string.h>

enum { TTT_CELLS = 9, TTT_EMPTY = 0, TTT_X = 1, TTT_O = 2 };

/* Ordering hints for move_score: winning > blocking > centre > corner > edge. */
static const int32_t TTT_SCORE_WIN = 1000;
static const int32_t TTT_SCORE_BLOCK = 500;
static const int32_t TTT_SCORE_CELL[TTT_CELLS] = { 3, 2, 3, 2, 4, 2, 3, 2, 3 };

static const uint8_t TTT_LINES[8][3] = {
    { 0, 1, 2 }, { 3, 4, 5 }, { 6, 7, 8 },
    { 0, 3, 6 }, { 1, 4, 7 }, { 2, 5, 8 },
    { 0, 4, 8 }, { 2, 4, 6 },
};

typedef struct ttt_state {
    uint8_t cell[TTT_CELLS];
    uint8_t count;
} ttt_state;

static int ttt_side_to_move(const ttt_state *s) { return (s->count & 1) ? TTT_O : TTT_X; }
static int ttt_last_mover(const ttt_state *s) { return (s->count & 1) ? TTT_X : TTT_O; }

static bool ttt_has_line(const ttt_state *s, int who)
{
    for (int i = 0; i < 8; i++) {
        if (s->cell[TTT_LINES[i][0]] == who && s->cell[TTT_LINES[i][1]] == who &&
            s->cell[TTT_LINES[i][2]] == who)
            return true;
    }
    return false;
}

/* True when cell @p c would complete a line for @p who (c must be empty). */
static bool ttt_completes_line(const ttt_state *s, int c, int who)
{
    for (int i = 0; i < 8; i++) {
        const uint8_t *l = TTT_LINES[i];
        if (l[0] != c && l[1] != c && l[2] != c)
            continue;
        int mine = 0;
        for (int k = 0; k < 3; k++)
            mine += (l[k] != c && s->cell[l[k]] == who);
        if (mine == 2)
            return true;
    }
    return false;
}

static bool ttt_over(const ttt_state *s)
{
    return s->count >= TTT_CELLS || (s->count > 0 && ttt_has_line(s, ttt_last_mover(s)));
}

static bool ttt_legal(const ttt_state *s, gts_move m)
{
    return m < TTT_CELLS && s->cell[m] == TTT_EMPTY && !ttt_over(s);
}

static int ttt_generate(void *state, gts_move *moves, uint32_t capacity, void *user)
{
    (void)user;
    const ttt_state *s = state;
    if (!s || !moves)
        return GTS_EINVAL;
    if (ttt_over(s))
        return 0;
    uint32_t n = 0;
    for (int c = 0; c < TTT_CELLS; c++) {
        if (s->cell[c] != TTT_EMPTY)
            continue;
        if (n >= capacity)
            return GTS_EINVAL;
        moves[n++] = (gts_move)c;
    }
    return (int)n;
}

static int ttt_apply(void *state, gts_move move, void *user)
{
    (void)user;
    ttt_state *s = state;
    if (!s || !ttt_legal(s, move))
        return GTS_EINVAL;
    s->cell[move] = (uint8_t)ttt_side_to_move(s);
    s->count++;
    return 0;
}

static int ttt_undo(void *state, gts_move move, void *user)
{
    (void)user;
    ttt_state *s = state;
    if (!s || move >= TTT_CELLS || s->count == 0 || s->cell[move] != ttt_last_mover(s))
        return GTS_EINVAL;
    s->cell[move] = TTT_EMPTY;
    s->count--;
    return 0;
}

static gts_score ttt_evaluate(void *state, void *user)
{
    (void)user;
    const ttt_state *s = state;
    if (!s)
        return GTS_SCORE_INVALID;
    if (s->count > 0 && ttt_has_line(s, ttt_last_mover(s)))
        return GTS_SCORE_LOSS;
    return 0;
}

/*
 * Earliest ply (counted from the current position, whose side to move plays
 * the odd plies) at which @p who can complete a line on @p s, given that
 * @p who moves first at ply @p first and then every other ply, and that the
 * game has @p plies plies left at most: a line without an opposing stone
 * that needs m more stones of @p who is complete at ply first + 2(m - 1) at
 * the earliest. 0 when no line can be completed.
 */
static int ttt_earliest_line(const ttt_state *s, int who, int first, int plies)
{
    int best = 0;
    for (int i = 0; i < 8; i++) {
        int mine = 0, theirs = 0;
        for (int k = 0; k < 3; k++) {
            int c = s->cell[TTT_LINES[i][k]];
            mine += c == who;
            theirs += c != TTT_EMPTY && c != who;
        }
        if (theirs)
            continue;
        int ply = first + 2 * (3 - mine - 1);
        if (ply <= plies && (best == 0 || ply < best))
            best = ply;
    }
    return best;
}

/*
 * Sound score range (gts_game::bounds). evaluate() is 0 for every
 * unfinished position, so a depth-limited value is 0 (horizon or draw), a
 * win in k plies (GTS_SCORE_WIN - k, k odd: our stone completes a line) or
 * a loss in k plies (GTS_SCORE_LOSS + k, k even); every range below keeps 0
 * (a search of one ply stops at the horizon) unless the value is known:
 *  - a finished game: its evaluate(), exactly;
 *  - a playable cell completing one of our lines: GTS_SCORE_WIN - 1 exactly
 *    (every search of one ply or more finds it; nothing scores higher);
 *  - two or more cells completing an opponent's line: we cannot block both,
 *    so nothing we do scores above 0; the opponent wins at ply 2 at best;
 *  - one such cell: blocking it is the only move not refuted at ply 2, so
 *    the value is that of the block (never below what the block scores,
 *    never above max(0, it)): both ends from the board with the block;
 *  - none: our earliest possible line (ply 2m - 1 for the m stones a line
 *    free of opposing stones still needs) and the opponent's (ply 2m'),
 *    each only when there are plies enough left.
 */
static int ttt_bounds(void *state, gts_score *lo, gts_score *hi, void *user)
{
    (void)user;
    const ttt_state *s = state;
    if (!s || !lo || !hi)
        return GTS_EINVAL;
    if (ttt_over(s)) {
        *lo = *hi = ttt_evaluate(state, user);
        return 0;
    }
    int me = ttt_side_to_move(s), opp = ttt_last_mover(s);
    int plies = TTT_CELLS - s->count; /* >= 1: the game is not over */
    int threats = 0, block = -1;
    for (int c = 0; c < TTT_CELLS; c++) {
        if (s->cell[c] != TTT_EMPTY)
            continue;
        if (ttt_completes_line(s, c, me)) {
            *lo = *hi = GTS_SCORE_WIN - 1;
            return 0;
        }
        if (ttt_completes_line(s, c, opp)) {
            threats++;
            block = c;
        }
    }
    int mine, theirs;
    if (threats >= 2) {
        mine = 0;
        theirs = 2;
    } else if (threats == 1) {
        ttt_state b = *s;
        b.cell[block] = (uint8_t)me;
        mine = ttt_earliest_line(&b, me, 3, plies);
        theirs = ttt_earliest_line(&b, opp, 2, plies);
    } else {
        mine = ttt_earliest_line(s, me, 1, plies);
        theirs = ttt_earliest_line(s, opp, 2, plies);
    }
    *hi = mine ? GTS_SCORE_WIN - mine : 0;
    *lo = theirs ? GTS_SCORE_LOSS + theirs : 0;
    return 0;
}

static uint64_t ttt_hash(void *state, void *user)
{
    (void)user;
    const ttt_state *s = state;
    uint64_t key = 0;
    if (!s)
        return 0;
    for (int c = 0; c < TTT_CELLS; c++)
        key = key * 3 + s->cell[c];
    return key;
}

static void *ttt_clone(void *state, void *user)
{
    (void)user;
    return gts__games_clone_flat(state, sizeof(ttt_state));
}

static int32_t ttt_move_score(void *state, gts_move move, void *user)
{
    (void)user;
    const ttt_state *s = state;
    if (!s || !ttt_legal(s, move))
        return INT32_MIN / 2;
    int c = (int)move;
    if (ttt_completes_line(s, c, ttt_side_to_move(s)))
        return TTT_SCORE_WIN;
    if (ttt_completes_line(s, c, ttt_last_mover(s)))
        return TTT_SCORE_BLOCK;
    return TTT_SCORE_CELL[c];
}

static int ttt_format_move(void *state, gts_move move, char *buf, size_t size, void *user)
{
    (void)state;
    (void)user;
    if (!buf || size < 2 || move >= TTT_CELLS)
        return GTS_EINVAL;
    buf[0] = (char)('1' + move);
    buf[1] = '\0';
    return 1;
}

static int ttt_parse_move(void *state, const char *text, gts_move *move, void *user)
{
    (void)user;
    const ttt_state *s = state;
    if (!s || !text || !move)
        return GTS_EINVAL;
    if (text[0] < '1' || text[0] > '9' || text[1] != '\0')
        return GTS_EPARSE;
    gts_move m = (gts_move)(text[0] - '1');
    if (!ttt_legal(s, m))
        return GTS_EPARSE;
    *move = m;
    return 0;
}

static const gts_game TTT_GAME = {
    .struct_size = sizeof(gts_game),
    .max_moves = TTT_CELLS,
    .generate = ttt_generate,
    .apply = ttt_apply,
    .undo = ttt_undo,
    .evaluate = ttt_evaluate,
    .hash = ttt_hash,
    .clone = ttt_clone,
    .free = gts__games_free_flat,
    .generate_noisy = NULL,
    .move_score = ttt_move_score,
    .extend = NULL,
    .format_move = ttt_format_move,
    .parse_move = ttt_parse_move,
    .user = NULL,
    .bounds = ttt_bounds,
    .traits = GTS_TRAIT_MOVE_IDENTITY, /* RAVE: a move is the same cell anywhere */
};

const gts_game *gts_game_tictactoe(void)
{
    return &TTT_GAME;
}

gts_status gts_tictactoe_new(const char *position, void **state)
{
    if (!state)
        return GTS_EINVAL;
    *state = NULL;
    ttt_state *s = calloc(1, sizeof *s);
    if (!s)
        return GTS_ENOMEM;
    for (const char *p = position ? position : ""; *p; p++) {
        if (*p < '1' || *p > '9' || ttt_apply(s, (gts_move)(*p - '1'), NULL) != 0) {
            free(s);
            return GTS_EPARSE;
        }
    }
    *state = s;
    return GTS_OK;
}

int gts__tictactoe_turn(const void *state, int *plies)
{
    const ttt_state *s = state;
    *plies = s->count;
    return ttt_side_to_move(s) == TTT_X ? 0 : 1;
}
