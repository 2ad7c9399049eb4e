/*
 * connect4.c - Connect-4 (7 columns x 6 rows) adapter for libgts.
 *
 * Representation (Pascal Pons' bitboard): column c owns bits 7c .. 7c+5
 * (bottom to top) plus an always-empty sentinel bit 7c+6 that stops shifted
 * patterns from wrapping into the next column. `mask` holds every stone,
 * `position` the stones of the side to move. A move is a column 0..6; its
 * text form and the position text use 1-based digits ("4453").
 *
 * Invariants: position is a subset of mask; every column of mask is a run
 * of bits from the bottom; `moves` == popcount(mask); the player who just
 * moved owns position ^ mask, and `won` says whether it has four in a line
 * (set by apply(), cleared by undo()). The game is over when it has four in
 * a line or the board is full: generate() returns 0 and apply() refuses.
 * `cells[moves]` holds both sides' winning cells (the empty cells that
 * would complete four in a line) for the current position, kept by apply()
 * and undo() as a stack, so that bounds(), generate() and the ordering
 * keys read them instead of recomputing them at every node; entries above
 * `moves` are zero (undo() clears what apply() pushed), so apply + undo
 * restores the state byte for byte.
 *
 * Scores follow the published benchmark convention (Pons' test sets): a win
 * for the side to move with its stone number n+1 scores (43 - n) / 2. So a
 * node where the previous player has just won with `moves` stones on the
 * board evaluates to -((44 - moves) / 2); a full board and every unfinished
 * node evaluate to 0, which keeps all scores inside the convention.
 *
 * Hash: the exact key position + mask + bottom (each column encodes its
 * stones below a marker bit, so the key is unique for 7x6): equal hashes
 * mean equal positions. It is not mixed here: the library's table mixes
 * every key for its index (gts__tt_mix), and a second mix here cost 3% of
 * the solver's instructions without changing its node counts.
 *
 * Two vtables share all code: gts_game_connect4() generates every legal
 * move; gts_game_connect4_solver() prunes moves in a way that provably
 * leaves the negamax value unchanged at every depth (see c4_generate_solver).
 *
 * Concurrency: no shared mutable state; callbacks only touch their state.
 */
#include "gts_games.h"
#include "games_internal.h"
#include "connect4_internal.h"

#include <stdlib.h>
#include <string.h>

enum { C4_WIDTH = 7, C4_HEIGHT = 6, C4_H1 = C4_HEIGHT + 1, C4_CELLS = C4_WIDTH * C4_HEIGHT };

/* Columns in centre-first order: the order generate() returns moves in. */
static const int C4_ORDER[C4_WIDTH] = { 3, 2, 4, 1, 5, 0, 6 };
/* The cells of those columns, in the same order. */
#define C4_COL(c) (0x3Full << ((c) * 7))
static const uint64_t C4_ORDER_MASK[7] = {
    C4_COL(3), C4_COL(2), C4_COL(4), C4_COL(1), C4_COL(5), C4_COL(0), C4_COL(6),
};
#undef C4_COL

/* move_score tuning: an immediate win, then a forced block, then threats. */
static const int32_t C4_SCORE_WIN = 1000000;
static const int32_t C4_SCORE_BLOCK = 500000;
static const int32_t C4_SCORE_THREAT = 1000;
static const int32_t C4_SCORE_CENTRE = 10;
static const int32_t C4_SCORE_GIFT = -100000; /* plays under an opponent's win */
static const int32_t C4_SCORE_ILLEGAL = INT32_MIN / 2;

static const uint64_t C4_BOTTOM = 0x0000040810204081ull;              /* bit 7c, c = 0..6 */
static const uint64_t C4_BOARD = 0x0000040810204081ull * 0x3Full;     /* the 42 playable bits */

/* Both sides' winning cells in one position (see c4_winning_cells). */
typedef struct c4_cells {
    uint64_t mine;   /* of the side to move */
    uint64_t theirs; /* of the player who just moved */
} c4_cells;

typedef struct c4_state {
    uint64_t position; /* stones of the side to move */
    uint64_t mask;     /* all stones */
    uint32_t moves;    /* stones on the board */
    uint32_t won;      /* the player who just moved has four in a line */
    c4_cells cells[C4_CELLS + 1]; /* [moves]: this position's; above: zero */
} c4_state;

/*
 * Bit tricks written once for two types: uint64_t, one board, and c4_pair,
 * two boards side by side (GCC/Clang vector extension: SSE2 on x86-64,
 * NEON on arm64, plain code elsewhere), which lets the solver's ordering
 * keys evaluate two moves in the time of one. Shifts, and, or and a
 * scalar operand (spread over both lanes) mean the same on both.
 *
 * Population count: SWAR, summing the bytes with shifts rather than a
 * multiply (vectors have none); without -mpopcnt __builtin_popcountll is a
 * call into libgcc, slower than these few operations.
 *
 * Winning cells: the empty cells where @p pos would complete four in a
 * line (playable or not). Vertically, three stones directly below; along
 * the other directions d, three stones on one side of the cell, or two on
 * one side and one on the other.
 */
typedef uint64_t c4_pair __attribute__((vector_size(16)));

#define C4_WINS_DIR(pos, d)                                                            \
    ((((pos) << (d)) & ((pos) << 2 * (d)) & (((pos) << 3 * (d)) | ((pos) >> (d)))) |      \
     (((pos) >> (d)) & ((pos) >> 2 * (d)) & (((pos) >> 3 * (d)) | ((pos) << (d)))))

#define C4_DEFINE_BIT_TRICKS(T, suffix)                                                \
    static inline __attribute__((always_inline)) T c4_popcount##suffix(T x)             \
    {                                                                                  \
        x = x - ((x >> 1) & 0x5555555555555555ull);                                    \
        x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);           \
        x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;                                    \
        x += x >> 8;                                                                   \
        x += x >> 16;                                                                  \
        x += x >> 32;                                                                  \
        return x & 0x7f;                                                               \
    }                                                                                  \
    static inline __attribute__((always_inline)) T c4_winning_cells##suffix(T pos, T mask) \
    {                                                                                  \
        T r = (pos << 1) & (pos << 2) & (pos << 3);                                    \
        r |= C4_WINS_DIR(pos, C4_H1) | C4_WINS_DIR(pos, C4_HEIGHT) |                   \
             C4_WINS_DIR(pos, C4_HEIGHT + 2);                                          \
        return r & (C4_BOARD ^ mask);                                                  \
    }

C4_DEFINE_BIT_TRICKS(uint64_t, )
C4_DEFINE_BIT_TRICKS(c4_pair, _pair)

/* The 6 cells of column c (a table: a load, where the shift needs a
 * multiply by 7 first). */
static const uint64_t C4_COLUMN_MASK[C4_WIDTH] = {
    0x3Full << 0, 0x3Full << 7, 0x3Full << 14, 0x3Full << 21,
    0x3Full << 28, 0x3Full << 35, 0x3Full << 42,
};
static uint64_t c4_column_mask(int c) { return C4_COLUMN_MASK[c]; }
static uint64_t c4_top_bit(int c) { return 1ull << (C4_HEIGHT - 1 + c * C4_H1); }

static uint64_t c4_playable(const c4_state *s) { return (s->mask + C4_BOTTOM) & C4_BOARD; }

static const c4_cells *c4_cur(const c4_state *s) { return &s->cells[s->moves]; }

static bool c4_over(const c4_state *s)
{
    return s->moves >= C4_CELLS || s->won;
}

static gts_score c4_evaluate(void *state, void *user);

static bool c4_legal(const c4_state *s, gts_move m)
{
    return m < C4_WIDTH && !(s->mask & c4_top_bit((int)m)) && !c4_over(s);
}

/* C4_EMIT[set]: the columns of a 7-bit set of columns, centre-first, as
 * moves, then their number in [7]. Filled once when the library is loaded,
 * like C4_CENTRE. */
static gts_move C4_EMIT[1 << C4_WIDTH][C4_WIDTH + 1];
/* C4_CENTRE[c]: C4_SCORE_CENTRE * (3 - |c - 3|), the ordering keys' centre term. */
static int32_t C4_CENTRE[C4_WIDTH];

__attribute__((constructor)) static void c4_emit_init(void)
{
    for (int c = 0; c < C4_WIDTH; c++)
        C4_CENTRE[c] = C4_SCORE_CENTRE * (3 - abs(c - 3));
    for (unsigned set = 0; set < 1u << C4_WIDTH; set++) {
        gts_move n = 0;
        for (int i = 0; i < C4_WIDTH; i++)
            if (set & (1u << C4_ORDER[i]))
                C4_EMIT[set][n++] = (gts_move)C4_ORDER[i];
        C4_EMIT[set][C4_WIDTH] = n;
    }
}

/* The set of columns (bit c for column c) holding a cell of @p cells: a
 * non-empty column's 6 bits plus 0x3F carry into its sentinel bit (never
 * further), and one multiply gathers the 7 sentinels, 7 bits apart, into
 * bits 49..55 (every other product term lands on a distinct lower bit or
 * above 63, so nothing carries into them). */
static unsigned c4_columns(uint64_t cells)
{
    uint64_t sentinels = ((cells + C4_BOARD) & (C4_BOTTOM << C4_HEIGHT)) >> C4_HEIGHT;
    return (unsigned)((sentinels * 0x0002082082082000ull) >> 49) & 0x7F;
}

/* Write the columns of @p cols (a set of playable cells) centre-first. */
static int c4_emit(uint64_t cols, gts_move *moves, uint32_t capacity)
{
    const gts_move *e = C4_EMIT[c4_columns(cols)];
    uint32_t n = (uint32_t)e[C4_WIDTH];
    if (n > capacity)
        return GTS_EINVAL;
    /* the usual case: a fixed-size copy (a few vector moves, no call) */
    if (capacity >= C4_WIDTH)
        memcpy(moves, e, C4_WIDTH * sizeof *moves);
    else
        memcpy(moves, e, n * sizeof *moves);
    return (int)n;
}

/* The centre-most single cell of a non-empty set of playable cells. */
static uint64_t c4_centre_most(uint64_t cells)
{
    for (int i = 0; i < C4_WIDTH; i++) {
        uint64_t b = cells & C4_ORDER_MASK[i];
        if (b)
            return b;
    }
    return 0;
}

/* The ordering keys' centre term of column @p c (a table, filled with C4_EMIT). */
static int32_t c4_centre(int c) { return C4_CENTRE[c]; }

/* Ordering key of column @p c (playable) given both sides' winning cells:
 * an immediate win, then a forced block, then the threats the move makes,
 * the centre, and a penalty for playing under an opponent's winning cell. */
static int32_t c4_hint(const c4_state *s, int c, uint64_t mine, uint64_t theirs)
{
    uint64_t bit = (s->mask + C4_BOTTOM) & c4_column_mask(c);
    if (bit & mine)
        return C4_SCORE_WIN;
    if (bit & theirs)
        return C4_SCORE_BLOCK;
    int32_t score = C4_SCORE_THREAT *
        c4_popcount(c4_winning_cells(s->position | bit, s->mask | bit));
    score += c4_centre(c);
    if ((bit << 1) & theirs)
        score += C4_SCORE_GIFT;
    return score;
}

/* The keys of generate_keyed(): move_score() of every move, with both
 * sides' winning cells computed once for the node. */
static void c4_keys(const c4_state *s, const gts_move *moves, int n, uint64_t mine,
                    uint64_t theirs, int32_t *keys)
{
    for (int i = 0; i < n; i++)
        keys[i] = c4_hint(s, (int)moves[i], mine, theirs);
}

/* The keys of the solver's moves (c4_solver_moves, step 3): none wins or
 * blocks, and either none plays under an opponent's winning cell or all
 * do, so c4_hint reduces to the threats and the centre (and the gift
 * penalty, @p base, the same for all). Two moves at a time. */
static void c4_solver_keys(const c4_state *s, const gts_move *moves, int n, int32_t base,
                           int32_t *keys)
{
    uint64_t above = s->mask + C4_BOTTOM; /* each column's next cell */
    for (int i = 0; i < n; i += 2) {
        int c0 = (int)moves[i], c1 = (int)moves[i + 1 < n ? i + 1 : i];
        c4_pair bit = { above & c4_column_mask(c0), above & c4_column_mask(c1) };
        c4_pair threats = c4_popcount_pair(c4_winning_cells_pair(s->position | bit,
                                                                  s->mask | bit));
        keys[i] = base + C4_SCORE_THREAT * (int32_t)threats[0] + c4_centre(c0);
        if (i + 1 < n)
            keys[i + 1] = base + C4_SCORE_THREAT * (int32_t)threats[1] + c4_centre(c1);
    }
}

static int c4_generate(void *state, gts_move *moves, uint32_t capacity, void *user)
{
    (void)user;
    const c4_state *s = state;
    if (!s || !moves)
        return GTS_EINVAL;
    if (c4_over(s))
        return 0;
    return c4_emit(c4_playable(s), moves, capacity);
}

/*
 * Exact pruning for solving. Let n be the stones on the board. Under the
 * score convention nothing beats winning now ((43 - n) / 2) and nothing is
 * worse than the opponent winning on the next ply (-(42 - n) / 2), whatever
 * the remaining depth, because unfinished nodes evaluate to 0 and later wins
 * are worth strictly less. Hence:
 *  1. A winning move exists: it alone reaches the best possible value.
 *  2. Otherwise the opponent has k >= 1 playable winning cells. Any move that
 *     does not fill one leaves the opponent an immediate win: the worst
 *     value. With k == 1 the block is at least as good as every other move,
 *     so it alone suffices. With k >= 2 every move (blocks included) leaves
 *     a win, so all moves have the same worst value: one move suffices.
 *     At depth 1 every child is unfinished (by 1.) and scores 0 either way.
 *  3. Otherwise a move directly below an opponent's winning cell makes that
 *     cell playable: the worst value again. Dropping such moves cannot lower
 *     the maximum as long as one other move remains (at depth 1 all children
 *     score 0, so the maximum is 0 with or without them).
 * The pruned node therefore has exactly the value of the full node at every
 * search depth, though the move sets differ (perft must use the full game).
 */
static int c4_solver_moves(const c4_state *s, gts_move *moves, int32_t *keys, uint32_t capacity)
{
    if (c4_over(s))
        return 0;
    uint64_t playable = c4_playable(s);
    const c4_cells *cells = c4_cur(s);
    uint64_t wins = cells->mine;
    uint64_t mine = wins & playable;
    int n;
    if (mine) { /* step 1 */
        n = c4_emit(c4_centre_most(mine), moves, capacity);
    } else {
        uint64_t theirs = cells->theirs;
        uint64_t forced = theirs & playable;
        uint64_t safe = playable & ~(theirs >> 1);
        if (forced) /* step 2 (one block, or one move of a lost position) */
            n = c4_emit(c4_centre_most(forced), moves, capacity);
        else /* step 3 */
            n = c4_emit(safe ? safe : playable, moves, capacity);
        if (keys && n > 1) /* step 3 (steps 1 and 2 leave one move) */
            c4_solver_keys(s, moves, n, safe ? 0 : C4_SCORE_GIFT, keys);
        return n;
    }
    if (keys && n > 0)
        keys[0] = C4_SCORE_WIN;
    return n;
}

static int c4_generate_solver(void *state, gts_move *moves, uint32_t capacity, void *user)
{
    (void)user;
    if (!state || !moves)
        return GTS_EINVAL;
    return c4_solver_moves(state, moves, NULL, capacity);
}

/*
 * Sound score range (gts_game::bounds). With n stones on the board and the
 * game not over, every result still reachable is a win with a later stone
 * or a full-board draw, and a depth-limited search scores the unfinished
 * horizon 0, so every value lies between the opponent's fastest win and ours:
 *  - a playable winning cell: exactly (43 - n) / 2 (found by any search of
 *    one ply or more; nothing scores higher);
 *  - otherwise our earliest win is with stone n + 3: hi = (41 - n) / 2;
 *  - the opponent's earliest win is with its next stone: lo = -(42 - n) / 2;
 *    when a move exists that neither leaves an opponent's winning cell
 *    playable nor makes one playable, that win is not forced: lo rises to
 *    -(40 - n) / 2 (its win with stone n + 4 at the earliest);
 *  - two or more playable opponent wins: we lose unless the horizon comes
 *    first: hi = 0.
 * Both ends are kept on their side of 0 (the horizon's score).
 */
static int c4_bounds(void *state, gts_score *lo, gts_score *hi, void *user)
{
    (void)user;
    const c4_state *s = state;
    if (!s || !lo || !hi)
        return GTS_EINVAL;
    if (c4_over(s)) {
        *lo = *hi = c4_evaluate(state, user);
        return 0;
    }
    /* Not over: at most 41 stones, so every count below is >= -1, and
     * -1 / 2 truncates to 0: each end stays on its side of 0 by itself. */
    int n = (int)s->moves;
    uint64_t playable = c4_playable(s);
    const c4_cells *cells = c4_cur(s);
    if (cells->mine & playable) {
        *lo = *hi = (gts_score)((C4_CELLS + 1 - n) / 2);
        return 0;
    }
    uint64_t theirs = cells->theirs;
    uint64_t forced = theirs & playable;
    bool unforced = !forced && (playable & ~(theirs >> 1));
    *lo = (gts_score)-((C4_CELLS - (unforced ? 2 : 0) - n) / 2);
    *hi = (gts_score)((forced & (forced - 1)) ? 0 : (C4_CELLS - 1 - n) / 2);
    return 0;
}

static int c4_generate_keyed(void *state, gts_move *moves, int32_t *keys, uint32_t capacity,
                             void *user)
{
    if (!keys)
        return GTS_EINVAL;
    const c4_state *s = state;
    int n = c4_generate(state, moves, capacity, user);
    if (n > 0)
        c4_keys(s, moves, n, c4_cur(s)->mine, c4_cur(s)->theirs, keys);
    return n;
}

static int c4_generate_solver_keyed(void *state, gts_move *moves, int32_t *keys,
                                    uint32_t capacity, void *user)
{
    (void)user;
    if (!state || !moves || !keys)
        return GTS_EINVAL;
    return c4_solver_moves(state, moves, keys, capacity);
}

static int c4_apply(void *state, gts_move move, void *user)
{
    (void)user;
    c4_state *s = state;
    if (!s || move >= C4_WIDTH)
        return GTS_EINVAL;
    /* The cell above the column's stones; none when the column is full (the
     * carry lands on the sentinel bit), and a full board has no column left:
     * the same test as c4_legal, from the bit the move needs anyway. */
    uint64_t bit = (s->mask + C4_BOTTOM) & c4_column_mask((int)move);
    if (!bit || s->won)
        return GTS_EINVAL;
    /* The stone completes four in a line exactly when its cell is one of
     * the mover's winning cells (the mover had no four before: apply()
     * refuses finished games). The child's side to move keeps its winning
     * cells but the one just filled; the mover's are recomputed with the
     * new stone (not needed once the game is won). */
    const c4_cells *cur = c4_cur(s);
    uint32_t won = (cur->mine & bit) != 0;
    uint64_t mover = s->position | bit;
    c4_cells *next = &s->cells[s->moves + 1];
    next->mine = cur->theirs & ~bit;
    next->theirs = won ? 0 : c4_winning_cells(mover, s->mask | bit);
    s->position = mover ^ (s->mask | bit);
    s->mask |= bit;
    s->moves++;
    s->won = won;
    return 0;
}

static int c4_undo(void *state, gts_move move, void *user)
{
    (void)user;
    c4_state *s = state;
    if (!s || move >= C4_WIDTH)
        return GTS_EINVAL;
    uint64_t col = s->mask & c4_column_mask((int)move);
    if (!col || s->moves == 0)
        return GTS_EINVAL;
    uint64_t top = (col + (C4_BOTTOM & c4_column_mask((int)move))) >> 1;
    if (s->position & top) /* that stone belongs to the side to move */
        return GTS_EINVAL;
    s->mask ^= top;
    s->position ^= s->mask;
    s->cells[s->moves].mine = s->cells[s->moves].theirs = 0;
    s->moves--;
    s->won = 0; /* apply() refuses finished games: the position before was not one */
    return 0;
}

static gts_score c4_evaluate(void *state, void *user)
{
    (void)user;
    const c4_state *s = state;
    if (!s)
        return GTS_SCORE_INVALID;
    if (s->won)
        return -(gts_score)((C4_CELLS + 2 - (int)s->moves) / 2);
    return 0;
}

static uint64_t c4_hash(void *state, void *user)
{
    (void)user;
    const c4_state *s = state;
    if (!s)
        return 0;
    return s->position + s->mask + C4_BOTTOM;
}

/* hash() after dropping a stone in column @p move, without dropping it:
 * the opponent's stones become the side to move's, the column grows. */
static uint64_t c4_hash_after(void *state, gts_move move, void *user)
{
    (void)user;
    const c4_state *s = state;
    if (!s || move >= C4_WIDTH)
        return 0;
    uint64_t mask = s->mask | (s->mask + (C4_BOTTOM & c4_column_mask((int)move)));
    return (s->position ^ s->mask) + mask + C4_BOTTOM;
}

static void *c4_clone(void *state, void *user)
{
    (void)user;
    return gts__games_clone_flat(state, sizeof(c4_state));
}

static int32_t c4_move_score(void *state, gts_move move, void *user)
{
    (void)user;
    const c4_state *s = state;
    if (!s || !c4_legal(s, move))
        return C4_SCORE_ILLEGAL;
    return c4_hint(s, (int)move, c4_cur(s)->mine, c4_cur(s)->theirs);
}

static int c4_format_move(void *state, gts_move move, char *buf, size_t size, void *user)
{
    (void)state;
    (void)user;
    if (!buf || size < 2 || move >= C4_WIDTH)
        return GTS_EINVAL;
    buf[0] = (char)('1' + move);
    buf[1] = '\0';
    return 1;
}

static int c4_parse_move(void *state, const char *text, gts_move *move, void *user)
{
    (void)user;
    const c4_state *s = state;
    if (!s || !text || !move)
        return GTS_EINVAL;
    if (text[0] < '1' || text[0] > '7' || text[1] != '\0')
        return GTS_EPARSE;
    gts_move m = (gts_move)(text[0] - '1');
    if (!c4_legal(s, m))
        return GTS_EPARSE;
    *move = m;
    return 0;
}

/* The callbacks both vtables share: the solver's differs only in its move
 * generation (exact pruning, solver-ordered keys). */
#define C4_VTABLE(gen, gen_keyed)                                                           \
    .struct_size = sizeof(gts_game), .max_moves = C4_WIDTH, .generate = (gen),              \
    .apply = c4_apply, .undo = c4_undo, .evaluate = c4_evaluate, .hash = c4_hash,           \
    .clone = c4_clone, .free = gts__games_free_flat,                                        \
    .move_score = c4_move_score,                                                            \
    .format_move = c4_format_move, .parse_move = c4_parse_move, .bounds = c4_bounds,        \
    .generate_keyed = (gen_keyed), .hash_after = c4_hash_after,                             \
    /* RAVE: a move is the same column anywhere; a win scores by the stones                 \
     * on the board and unfinished positions are 0: distance scores. */                     \
    .traits = GTS_TRAIT_MOVE_IDENTITY | GTS_TRAIT_DISTANCE_SCORES

static const gts_game C4_GAME = {
    C4_VTABLE(c4_generate, c4_generate_keyed),
};

static const gts_game C4_SOLVER_GAME = {
    C4_VTABLE(c4_generate_solver, c4_generate_solver_keyed),
};

const gts_game *gts_game_connect4(void)
{
    return &C4_GAME;
}

const gts_game *gts_game_connect4_solver(void)
{
    return &C4_SOLVER_GAME;
}

/* The bitboards, for connect4h.c (connect4_internal.h). */
void gts__connect4_bits(const void *state, uint64_t *position, uint64_t *mask, uint32_t *moves)
{
    const c4_state *s = state;
    *position = s->position;
    *mask = s->mask;
    *moves = s->moves;
}

/*
 * Position text: 1-based columns from the empty board. Invalid characters,
 * full columns and any move that wins (the game would already be over, as in
 * the benchmark files) are GTS_EPARSE.
 */
gts_status gts_connect4_new(const char *position, void **state)
{
    if (!state)
        return GTS_EINVAL;
    *state = NULL;
    c4_state *s = calloc(1, sizeof *s);
    if (!s)
        return GTS_ENOMEM;
    for (const char *p = position ? position : ""; *p; p++) {
        gts_move m = (gts_move)(*p - '1');
        if (*p < '1' || *p > '7' || c4_apply(s, m, NULL) != 0 || s->won) {
            free(s);
            return GTS_EPARSE;
        }
    }
    *state = s;
    return GTS_OK;
}
