/*
 * othello.c - Othello (8x8) adapter for libgts.
 *
 * Representation: one bitboard per colour, bit index = row * 8 + col with
 * row 0 = rank 1 and col 0 = file a (a1 = 0, h1 = 7, a8 = 56, h8 = 63). A
 * move is a square 0..63 or GTS_OTHELLO_PASS; text "f5" / "ps".
 *
 * Rules as played: a move must flip at least one disc; a pass is legal
 * exactly when the side to move has no such move but the opponent has one;
 * when neither side can move the game is over (generate() returns 0).
 *
 * Invariants: the colours never overlap; `ply` entries of the history record
 * each applied move and the discs it flipped, so undo() restores the exact
 * boards; undo() only accepts the move on top of the history. At most
 * OTH_MAX_PLIES plies fit (a game has at most 60 moves and 60 passes).
 *
 * Evaluation (side to move): at the end of the game GTS_SCORE_WIN / LOSS /
 * 0 by disc count; otherwise mobility difference, corner ownership and a
 * disc-count term weighted up only in the last OTH_LATE_EMPTIES empties.
 * Its magnitude stays below 3000, far from the decided-score range.
 *
 * Null move (null_apply/null_undo, since 0.3): a pass as a search device,
 * legal or not under the rules (a history entry of its own, OTH_NULL, so
 * that undo() never takes it for a move); refused once the game is over,
 * in the last OTH_LATE_EMPTIES empties, where the tempo (who gets the last
 * move of a region) decides games and a pass would prove too much, and
 * when the history is full.
 *
 * Hash: Zobrist keys (colour x square, plus side to move) from a splitmix64
 * generator with a fixed seed; the table is the only global state and is
 * built once through pthread_once, then read-only.
 *
 * Concurrency: apart from that one-time initialisation every callback only
 * touches its own state.
 */
#include "gts_games.h"
#include "games_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { OTH_BLACK = 0, OTH_WHITE = 1, OTH_SQUARES = 64, OTH_MAX_PLIES = 128 };
/* History entry of a null move (never a move of generate()). */
enum { OTH_NULL = GTS_OTHELLO_PASS + 1 };

static const uint64_t OTH_FILE_A = 0x0101010101010101ull;
static const uint64_t OTH_FILE_H = 0x8080808080808080ull;
static const uint64_t OTH_CORNERS = 0x8100000000000081ull;

/* Evaluation weights (centi-discs of the side to move). */
static const int OTH_W_MOBILITY = 10;
static const int OTH_W_CORNER = 50;
static const int OTH_LATE_EMPTIES = 20; /* disc count matters from here on */
static const int OTH_W_DISC_LATE = 1;   /* per disc, times (LATE + 1 - empties) */

/* Zobrist generator seed: any fixed constant. */
static const uint64_t OTH_ZOBRIST_SEED = 0x6f7468656c6c6f21ull; /* "othello!" */

/* move_score: classic static square weights (corners good, X-squares bad). */
static const int8_t OTH_SQUARE_WEIGHT[OTH_SQUARES] = {
    100, -20, 10,  5,  5, 10, -20, 100,
    -20, -50, -2, -2, -2, -2, -50, -20,
     10,  -2, -1, -1, -1, -1,  -2,  10,
      5,  -2, -1, -1, -1, -1,  -2,   5,
      5,  -2, -1, -1, -1, -1,  -2,   5,
     10,  -2, -1, -1, -1, -1,  -2,  10,
    -20, -50, -2, -2, -2, -2, -50, -20,
    100, -20, 10,  5,  5, 10, -20, 100,
};
static const int32_t OTH_SCORE_ILLEGAL = INT32_MIN / 2;

typedef struct oth_state {
    uint64_t disc[2];              /* [OTH_BLACK], [OTH_WHITE] */
    uint32_t side;                 /* colour to move */
    uint32_t ply;                  /* entries used in the history */
    uint64_t flips[OTH_MAX_PLIES]; /* discs flipped by each move (0 for a pass) */
    uint8_t played[OTH_MAX_PLIES]; /* the move itself (square, GTS_OTHELLO_PASS or
                                      OTH_NULL) */
} oth_state;

/* ---- Zobrist table ------------------------------------------------------- */

static uint64_t oth_zobrist[2][OTH_SQUARES];
static uint64_t oth_zobrist_side;
static pthread_once_t oth_zobrist_once = PTHREAD_ONCE_INIT;

static uint64_t oth_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void oth_zobrist_init(void)
{
    uint64_t x = OTH_ZOBRIST_SEED;
    for (int c = 0; c < 2; c++)
        for (int sq = 0; sq < OTH_SQUARES; sq++)
            oth_zobrist[c][sq] = oth_splitmix64(&x);
    oth_zobrist_side = oth_splitmix64(&x);
}

/* ---- bitboard helpers ---------------------------------------------------- */

static int oth_popcount(uint64_t x)
{
#if defined(__GNUC__)
    return __builtin_popcountll(x);
#else
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
#endif
}

static int oth_lowest_bit(uint64_t x)
{
#if defined(__GNUC__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

/* Shift a set one step in direction d (0..7), dropping squares that wrap. */
static uint64_t oth_shift(uint64_t b, int d)
{
    switch (d) {
    case 0: return b << 8;                  /* north */
    case 1: return b >> 8;                  /* south */
    case 2: return (b << 1) & ~OTH_FILE_A;  /* east */
    case 3: return (b >> 1) & ~OTH_FILE_H;  /* west */
    case 4: return (b << 9) & ~OTH_FILE_A;  /* north-east */
    case 5: return (b << 7) & ~OTH_FILE_H;  /* north-west */
    case 6: return (b >> 7) & ~OTH_FILE_A;  /* south-east */
    default: return (b >> 9) & ~OTH_FILE_H; /* south-west */
    }
}

/* Squares where the owner of @p me can flip discs of @p opp. */
static uint64_t oth_moves(uint64_t me, uint64_t opp)
{
    uint64_t empty = ~(me | opp), moves = 0;
    for (int d = 0; d < 8; d++) {
        uint64_t t = oth_shift(me, d) & opp;
        for (int k = 0; k < 5; k++)
            t |= oth_shift(t, d) & opp;
        moves |= oth_shift(t, d) & empty;
    }
    return moves;
}

/* Discs of @p opp flipped by @p me playing on the (empty) square @p bit. */
static uint64_t oth_flips(uint64_t me, uint64_t opp, uint64_t bit)
{
    uint64_t flips = 0;
    for (int d = 0; d < 8; d++) {
        uint64_t run = 0, x = oth_shift(bit, d);
        while (x & opp) {
            run |= x;
            x = oth_shift(x, d);
        }
        if (x & me)
            flips |= run;
    }
    return flips;
}

static uint64_t oth_me(const oth_state *s) { return s->disc[s->side]; }
static uint64_t oth_opp(const oth_state *s) { return s->disc[s->side ^ 1]; }

static bool oth_pass_legal(const oth_state *s)
{
    return oth_moves(oth_me(s), oth_opp(s)) == 0 && oth_moves(oth_opp(s), oth_me(s)) != 0;
}

/* ---- callbacks ----------------------------------------------------------- */

static int oth_generate(void *state, gts_move *moves, uint32_t capacity, void *user)
{
    (void)user;
    const oth_state *s = state;
    if (!s || !moves)
        return GTS_EINVAL;
    uint64_t m = oth_moves(oth_me(s), oth_opp(s));
    uint32_t n = 0;
    if (!m) {
        if (!oth_moves(oth_opp(s), oth_me(s)))
            return 0; /* neither side can move: game over */
        if (capacity < 1)
            return GTS_EINVAL;
        moves[0] = GTS_OTHELLO_PASS;
        return 1;
    }
    for (; m; m &= m - 1) {
        if (n >= capacity)
            return GTS_EINVAL;
        moves[n++] = (gts_move)oth_lowest_bit(m);
    }
    return (int)n;
}

static int oth_apply(void *state, gts_move move, void *user)
{
    (void)user;
    oth_state *s = state;
    if (!s || s->ply >= OTH_MAX_PLIES)
        return GTS_EINVAL;
    uint64_t flips = 0;
    if (move == GTS_OTHELLO_PASS) {
        if (!oth_pass_legal(s))
            return GTS_EINVAL;
    } else {
        if (move >= OTH_SQUARES)
            return GTS_EINVAL;
        uint64_t bit = 1ull << move, me = oth_me(s), opp = oth_opp(s);
        if ((me | opp) & bit)
            return GTS_EINVAL;
        flips = oth_flips(me, opp, bit);
        if (!flips)
            return GTS_EINVAL;
        s->disc[s->side] = me | bit | flips;
        s->disc[s->side ^ 1] = opp & ~flips;
    }
    s->flips[s->ply] = flips;
    s->played[s->ply] = (uint8_t)move;
    s->ply++;
    s->side ^= 1;
    return 0;
}

static int oth_undo(void *state, gts_move move, void *user)
{
    (void)user;
    oth_state *s = state;
    if (!s || s->ply == 0 || move > GTS_OTHELLO_PASS || s->played[s->ply - 1] != move)
        return GTS_EINVAL;
    s->ply--;
    s->side ^= 1;
    if (move != GTS_OTHELLO_PASS) {
        uint64_t flips = s->flips[s->ply];
        s->disc[s->side] &= ~(flips | (1ull << move));
        s->disc[s->side ^ 1] |= flips;
    }
    return 0;
}

static gts_score oth_evaluate(void *state, void *user)
{
    (void)user;
    const oth_state *s = state;
    if (!s)
        return GTS_SCORE_INVALID;
    uint64_t me = oth_me(s), opp = oth_opp(s);
    int my_moves = oth_popcount(oth_moves(me, opp));
    int opp_moves = oth_popcount(oth_moves(opp, me));
    int discs = oth_popcount(me) - oth_popcount(opp);
    if (my_moves == 0 && opp_moves == 0)
        return discs > 0 ? GTS_SCORE_WIN : discs < 0 ? GTS_SCORE_LOSS : 0;
    int empties = OTH_SQUARES - oth_popcount(me | opp);
    int score = OTH_W_MOBILITY * (my_moves - opp_moves) +
                OTH_W_CORNER * (oth_popcount(me & OTH_CORNERS) - oth_popcount(opp & OTH_CORNERS));
    if (empties <= OTH_LATE_EMPTIES)
        score += OTH_W_DISC_LATE * (OTH_LATE_EMPTIES + 1 - empties) * discs;
    return (gts_score)score;
}

/* A pass for null-move pruning (gts_game::null_apply): see the header. */
static int oth_null_apply(void *state, void *user)
{
    (void)user;
    oth_state *s = state;
    if (!s)
        return GTS_EINVAL;
    uint64_t me = oth_me(s), opp = oth_opp(s);
    if (s->ply >= OTH_MAX_PLIES || OTH_SQUARES - oth_popcount(me | opp) <= OTH_LATE_EMPTIES
        || (!oth_moves(me, opp) && !oth_moves(opp, me)))
        return 0;
    s->flips[s->ply] = 0;
    s->played[s->ply] = OTH_NULL;
    s->ply++;
    s->side ^= 1;
    return 1;
}

static int oth_null_undo(void *state, void *user)
{
    (void)user;
    oth_state *s = state;
    if (!s || s->ply == 0 || s->played[s->ply - 1] != OTH_NULL)
        return GTS_EINVAL;
    s->ply--;
    s->side ^= 1;
    return 0;
}

/*
 * Score range (gts_game::bounds): only what holds whatever the position.
 * A finished game scores its evaluate() exactly. Otherwise a search of one
 * ply or more returns a heuristic score (|score| < 3000) or the end of the
 * game k >= 1 plies away, GTS_SCORE_WIN - k or GTS_SCORE_LOSS + k: the
 * range is the decided range less one ply. When we must pass, the game
 * cannot end at ply 1 (the opponent has a move), so two plies come off.
 * Nothing tighter is claimed: a disc count swings by the whole board in a
 * few moves, so no range of the final margin follows cheaply from the
 * position. The search gains little from it (its own mate-distance window
 * already excludes the decided ends): an exact value at finished games, one
 * ply more at a pass.
 */
static int oth_bounds(void *state, gts_score *lo, gts_score *hi, void *user)
{
    (void)user;
    const oth_state *s = state;
    if (!s || !lo || !hi)
        return GTS_EINVAL;
    uint64_t me = oth_me(s), opp = oth_opp(s);
    bool can_move = oth_moves(me, opp) != 0;
    if (!can_move && !oth_moves(opp, me)) {
        *lo = *hi = oth_evaluate(state, user);
        return 0;
    }
    int plies = can_move ? 1 : 2;
    *lo = GTS_SCORE_LOSS + plies;
    *hi = GTS_SCORE_WIN - plies;
    return 0;
}

static uint64_t oth_hash(void *state, void *user)
{
    (void)user;
    const oth_state *s = state;
    if (!s)
        return 0;
    pthread_once(&oth_zobrist_once, oth_zobrist_init);
    uint64_t key = s->side ? oth_zobrist_side : 0;
    for (int c = 0; c < 2; c++)
        for (uint64_t b = s->disc[c]; b; b &= b - 1)
            key ^= oth_zobrist[c][oth_lowest_bit(b)];
    return key;
}

static void *oth_clone(void *state, void *user)
{
    (void)user;
    return gts__games_clone_flat(state, sizeof(oth_state));
}

static bool oth_legal(const oth_state *s, gts_move move)
{
    if (move == GTS_OTHELLO_PASS)
        return oth_pass_legal(s);
    if (move >= OTH_SQUARES)
        return false;
    uint64_t bit = 1ull << move;
    return ((oth_me(s) | oth_opp(s)) & bit) == 0 && oth_flips(oth_me(s), oth_opp(s), bit) != 0;
}

static int32_t oth_move_score(void *state, gts_move move, void *user)
{
    (void)user;
    const oth_state *s = state;
    if (!s || !oth_legal(s, move))
        return OTH_SCORE_ILLEGAL;
    return move == GTS_OTHELLO_PASS ? 0 : OTH_SQUARE_WEIGHT[move];
}

static int oth_format_move(void *state, gts_move move, char *buf, size_t size, void *user)
{
    (void)state;
    (void)user;
    if (!buf || size < 3 || move > GTS_OTHELLO_PASS)
        return GTS_EINVAL;
    if (move == GTS_OTHELLO_PASS) {
        buf[0] = 'p';
        buf[1] = 's';
    } else {
        buf[0] = (char)('a' + move % 8);
        buf[1] = (char)('1' + move / 8);
    }
    buf[2] = '\0';
    return 2;
}

static char oth_lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Parse the two characters at @p t: a square or "ps". Case-insensitive. */
static bool oth_parse_token(const char *t, gts_move *move)
{
    char a = oth_lower(t[0]), b = t[0] ? oth_lower(t[1]) : '\0';
    if (a == 'p' && b == 's') {
        *move = GTS_OTHELLO_PASS;
        return true;
    }
    if (a < 'a' || a > 'h' || b < '1' || b > '8')
        return false;
    *move = (gts_move)((b - '1') * 8 + (a - 'a'));
    return true;
}

static int oth_parse_move(void *state, const char *text, gts_move *move, void *user)
{
    (void)user;
    const oth_state *s = state;
    gts_move m;
    if (!s || !text || !move)
        return GTS_EINVAL;
    if (!oth_parse_token(text, &m) || text[2] != '\0' || !oth_legal(s, m))
        return GTS_EPARSE;
    *move = m;
    return 0;
}

static const gts_game OTH_GAME = {
    .struct_size = sizeof(gts_game),
    .max_moves = OTH_SQUARES,
    .generate = oth_generate,
    .apply = oth_apply,
    .undo = oth_undo,
    .evaluate = oth_evaluate,
    .hash = oth_hash,
    .clone = oth_clone,
    .free = gts__games_free_flat,
    .generate_noisy = NULL,
    .move_score = oth_move_score,
    .extend = NULL,
    .format_move = oth_format_move,
    .parse_move = oth_parse_move,
    .user = NULL,
    .bounds = oth_bounds,
    .null_apply = oth_null_apply,
    .null_undo = oth_null_undo,
};

const gts_game *gts_game_othello(void)
{
    return &OTH_GAME;
}

/*
 * Position text: NULL / "" is the start position (white d4 e5, black d5 e4,
 * black to move); otherwise two-character moves, case-insensitive, with "ps"
 * for a pass. A pass may also be left out: a square given while the side to
 * move must pass is played by the opponent after an implied pass.
 */
gts_status gts_othello_new(const char *position, void **state)
{
    if (!state)
        return GTS_EINVAL;
    *state = NULL;
    oth_state *s = calloc(1, sizeof *s);
    if (!s)
        return GTS_ENOMEM;
    s->disc[OTH_WHITE] = (1ull << 27) | (1ull << 36); /* d4, e5 */
    s->disc[OTH_BLACK] = (1ull << 35) | (1ull << 28); /* d5, e4 */
    s->side = OTH_BLACK;
    for (const char *p = position ? position : ""; *p; p += 2) {
        gts_move m;
        if (!oth_parse_token(p, &m))
            goto bad;
        if (m != GTS_OTHELLO_PASS && oth_pass_legal(s) && oth_apply(s, GTS_OTHELLO_PASS, NULL) != 0)
            goto bad;
        if (oth_apply(s, m, NULL) != 0)
            goto bad;
    }
    *state = s;
    return GTS_OK;
bad:
    free(s);
    return GTS_EPARSE;
}

int gts__othello_turn(const void *state, int *plies)
{
    const oth_state *s = state;
    *plies = (int)s->ply; /* a pass is a move of the history, implied or written */
    return s->side == OTH_BLACK ? 0 : 1;
}
