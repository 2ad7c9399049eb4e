/*
 * chess.c - chess adapter for libgts: the full rules, two evaluations (a
 * plain material + piece-square one, and the engine's), and every optional
 * callback a searching engine uses (quiescence moves, ordering hints, check
 * extension, Zobrist keys).
 *
 * It is meant to be read by engine authors as a model of an adapter, so it
 * favours the plain over the fast: a 64-square mailbox board, pseudo-legal
 * generation filtered by "is my king attacked after the move", and a history
 * stack that makes undo() exact. Concessions to speed, each where a profile
 * of a search put the time (doc/results/games.md, issue 32): the pieces
 * are also kept as bitboards, and a slider's attack set is one lookup in
 * magic-bitboard tables (ch_rook_attacks), so that "is this square
 * attacked" is a few table lookups instead of a walk along eight rays; the
 * legality test runs only on the moves that can leave the king attacked
 * (king moves, pinned pieces, en passant, any move when in check); extend()
 * tells a checking move without playing it (ch_gives_check). Moves come
 * out in the same order as from the plain loops (by square, then by
 * direction, nearest square first), so every search is the same.
 *
 * Representation: squares 0..63 with a1 = 0, h1 = 7, a8 = 56, h8 = 63. A
 * piece is its type (CH_PAWN..CH_KING, 1..6) plus 8 for black; 0 is empty.
 * A move (gts_move) is from | to << 6 | promotion type << 12: the same move
 * value means the same from/to/promotion in every position, which is what
 * the library's killer and history tables compare. Castling is the king's
 * two-square move (e1g1), as in UCI; en passant is the pawn's diagonal move
 * to the empty en-passant square. Move text is UCI long algebraic: "e2e4",
 * "e7e8q".
 *
 * Rules: castling (not out of, through or into check; rights lost when the
 * king or rook moves or the rook is captured), en passant, promotion to
 * queen, rook, bishop or knight, checkmate and stalemate. The game ends
 * (generate() returns 0) at checkmate, at stalemate, once the 50-move rule
 * applies (100 plies without a capture or a pawn move) and at the third
 * occurrence of a position (same placement, side to move, castling rights
 * and en-passant capture) since the state was built: what an arbiter rules
 * on a claim, and what an engine must see to steer towards or away from a
 * draw. Checkmate on the 100th ply is a checkmate. Positions without mating
 * material (K v K, K+minor v K) are not ended, but evaluate to 0.
 *
 * Because of those draws, perft from a position counts the standard numbers
 * unless its 50-move counter reaches 100 or a position repeats three times
 * within the depth (never below 8 plies from a FEN without history).
 *
 * Scores (negamax, centipawns of the side to move): a checkmated side to
 * move scores GTS_SCORE_LOSS (the library subtracts the distance from the
 * root, so "mate in n" comes out as GTS_SCORE_WIN - plies); a draw scores
 * 0; otherwise material + piece-square tables (the "simplified evaluation
 * function" values of Tomasz Michniewski), the king's table tapered from
 * middle game to endgame by the non-pawn material left. The magnitude stays
 * below 10,000, far from the decided range.
 *
 * Two vtables. gts_game_chess() is the rules' and keeps that simple
 * evaluation: the documented node counts, the exactness tests and the
 * CLIs' figures rely on it, and it reads as the model adapter.
 * gts_game_chess_engine(), which gts-uci plays with, differs in four
 * ways (issue 32: the adapter was what held gts-uci back):
 *   - its draw rule (ch_drawn: a repetition since the root);
 *   - its evaluation (ch_eval_full): material and piece-square values in
 *     a middle-game and an endgame set, tapered by the phase and kept
 *     incrementally (emg, eeg); at the leaf, pawn structure (doubled,
 *     isolated, passed pawns by rank, a free path, the kings' distances
 *     to the stop square), mobility (safe squares of each piece, from the
 *     bitboards), king safety (pawn shield, the pieces attacking the
 *     king's zone), the bishop pair, rooks on open and half-open files,
 *     and endgame knowledge (a lone king to the edge; no pawns and less
 *     than a rook ahead is drawish). Every term is computed for each
 *     colour from its own side, so a position and its colour-flipped
 *     mirror score the same; scores stay within +-9,000;
 *   - its evaluate() tests for a legal move only in check (a checkmate).
 *     Out of check it does not generate: a stalemate is a draw when the
 *     engine's generate() has just found no move in that position (the
 *     search generates first, then asks for the value), but a stalemate
 *     at the horizon, where quiescence stands pat without generating all
 *     moves, is scored as the position's static value;
 *   - its quiescence moves leave out the captures that lose material by
 *     static exchange (ch_see: SEE < 0), which the selective search then
 *     treats as quiet moves.
 * The engine's evaluation is computed cheaply without changing its value
 * (issue 32): what the pawns alone decide (doubled, isolated and passed
 * pawns, and the king's pawn shield for its square) is kept in a pawn
 * table of the state (ch_pawn_probe: 64 KiB, allocated by the first
 * evaluate(), one per clone, so per searching thread), keyed by a
 * pawn-only Zobrist key that apply() and undo() keep; mobility and king
 * attacks share one attack set per piece; bits are counted with POPCNT
 * where the processor has it (chosen at start-up: the library is built
 * for any x86-64). gts__chess_evaluate_uncached() computes the same value
 * the plain way, the tests' reference. The pawn table is a cache, not part
 * of the position: after a search the position is restored (every
 * callback answers as before), the table's bytes are not, like the
 * engine's stalemate mark. A lazy evaluation (stopping early
 * when the material is far outside the window) would need the window,
 * which the library's evaluate() does not pass.
 *
 * Optional callbacks and why:
 *   generate_noisy  captures (en passant included) and queen promotions:
 *                   what quiescence search must resolve before standing pat
 *                   (the engine's: without the losing captures).
 *   move_score /    MVV-LVA (most valuable victim, least valuable attacker)
 *   generate_keyed  for captures, queen promotions above them, quiet moves
 *                   0 (so the library's killers and history order them,
 *                   see lib/order.c), under-promotions last. generate_keyed
 *                   computes the keys in the generation loop for free.
 *   extend          one ply for a move that gives check (check extension).
 *   hash            Zobrist keys, updated incrementally by apply() and
 *                   restored by undo(); the en-passant file is keyed only
 *                   when a capture there is possible, so equal positions
 *                   get equal keys.
 *   clone / free    parallel algorithms.
 *   null_apply /    a pass, for the library's null-move pruning; refused
 *   null_undo       in check and when the side to move has only king and
 *                   pawns (zugzwang-prone); the engine's also when its
 *                   king is under attack (ch_null_apply_engine). The pass
 *                   is kept in the history stack like a move, so undo()
 *                   and null_undo() each take back only their own kind.
 *   traits          gts_game_chess_engine() declares
 *                   GTS_TRAIT_REPETITION_DRAW: its key covers the placement,
 *                   the side to move, the castling rights and a possible
 *                   en-passant capture, exactly what makes two positions
 *                   "the same" for the repetition rule.
 *
 * Invariants: exactly one king per side (king[] tracks them); the side not
 * to move is never in check; hist[0..ply) records every applied move with
 * what undo() needs (captured piece, castling rights, en-passant square,
 * 50-move counter, key), and undo() accepts only the move on top of it. At
 * most CH_MAX_PLIES moves can be applied to one state (a game plus the
 * search's depth); apply() fails beyond that. apply() trusts the library's
 * contract (the move comes from generate()) and only checks that a piece
 * of the side to move stands on the from-square: a full legality test
 * would cost a generate() per node. parse_move() is the checked way in for
 * moves from outside.
 *
 * Concurrency: the Zobrist, move and magic tables are built once
 * (pthread_once), then only read; every callback touches only its own
 * state (the pawn table included: a clone starts without one).
 */
#include "gts_games.h"
#include "games_internal.h"

#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { CH_WHITE = 0, CH_BLACK = 1 };
enum { CH_EMPTY = 0, CH_PAWN = 1, CH_KNIGHT, CH_BISHOP, CH_ROOK, CH_QUEEN, CH_KING };
enum { CH_WK = 1, CH_WQ = 2, CH_BK = 4, CH_BQ = 8 }; /* castling rights */
enum { CH_NO_SQ = 64, CH_MAX_PLIES = 2048 };
enum { CH_SPECIAL_EP = 1, CH_SPECIAL_CASTLE = 2, CH_SPECIAL_NULL = 3 };
/* The move field of a null move's record: no real move (those are below
 * 1 << 15), so undo() of a real move never takes back a pass. */
enum { CH_NULL_RECORD = 0xffff };

/* The most legal moves of any chess position is 218; a round margin. */
enum { CH_MAX_MOVES = 256 };

static const char CH_START_FEN[] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/* ---- evaluation tables ----------------------------------------------------
 * Centipawns, from white's side, printed rank 8 first: a white piece on
 * square sq reads entry sq ^ 56, a black one entry sq. */
static const int CH_VALUE[7] = { 0, 100, 320, 330, 500, 900, 0 };
/* Game phase: what each piece type adds (a full board is CH_PHASE_MAX). */
static const int CH_PHASE_WEIGHT[7] = { 0, 0, 1, 1, 2, 4, 0 };
enum { CH_PHASE_MAX = 24 };

static const int8_t CH_PST[7][64] = {
    [CH_PAWN] = {
         0,  0,  0,  0,  0,  0,  0,  0,
        50, 50, 50, 50, 50, 50, 50, 50,
        10, 10, 20, 30, 30, 20, 10, 10,
         5,  5, 10, 25, 25, 10,  5,  5,
         0,  0,  0, 20, 20,  0,  0,  0,
         5, -5,-10,  0,  0,-10, -5,  5,
         5, 10, 10,-20,-20, 10, 10,  5,
         0,  0,  0,  0,  0,  0,  0,  0 },
    [CH_KNIGHT] = {
       -50,-40,-30,-30,-30,-30,-40,-50,
       -40,-20,  0,  0,  0,  0,-20,-40,
       -30,  0, 10, 15, 15, 10,  0,-30,
       -30,  5, 15, 20, 20, 15,  5,-30,
       -30,  0, 15, 20, 20, 15,  0,-30,
       -30,  5, 10, 15, 15, 10,  5,-30,
       -40,-20,  0,  5,  5,  0,-20,-40,
       -50,-40,-30,-30,-30,-30,-40,-50 },
    [CH_BISHOP] = {
       -20,-10,-10,-10,-10,-10,-10,-20,
       -10,  0,  0,  0,  0,  0,  0,-10,
       -10,  0,  5, 10, 10,  5,  0,-10,
       -10,  5,  5, 10, 10,  5,  5,-10,
       -10,  0, 10, 10, 10, 10,  0,-10,
       -10, 10, 10, 10, 10, 10, 10,-10,
       -10,  5,  0,  0,  0,  0,  5,-10,
       -20,-10,-10,-10,-10,-10,-10,-20 },
    [CH_ROOK] = {
         0,  0,  0,  0,  0,  0,  0,  0,
         5, 10, 10, 10, 10, 10, 10,  5,
        -5,  0,  0,  0,  0,  0,  0, -5,
        -5,  0,  0,  0,  0,  0,  0, -5,
        -5,  0,  0,  0,  0,  0,  0, -5,
        -5,  0,  0,  0,  0,  0,  0, -5,
        -5,  0,  0,  0,  0,  0,  0, -5,
         0,  0,  0,  5,  5,  0,  0,  0 },
    [CH_QUEEN] = {
       -20,-10,-10, -5, -5,-10,-10,-20,
       -10,  0,  0,  0,  0,  0,  0,-10,
       -10,  0,  5,  5,  5,  5,  0,-10,
        -5,  0,  5,  5,  5,  5,  0, -5,
         0,  0,  5,  5,  5,  5,  0, -5,
       -10,  5,  5,  5,  5,  5,  0,-10,
       -10,  0,  5,  0,  0,  0,  0,-10,
       -20,-10,-10, -5, -5,-10,-10,-20 },
    [CH_KING] = { /* middle game */
       -30,-40,-40,-50,-50,-40,-40,-30,
       -30,-40,-40,-50,-50,-40,-40,-30,
       -30,-40,-40,-50,-50,-40,-40,-30,
       -30,-40,-40,-50,-50,-40,-40,-30,
       -20,-30,-30,-40,-40,-30,-30,-20,
       -10,-20,-20,-20,-20,-20,-20,-10,
        20, 20,  0,  0,  0,  0, 20, 20,
        20, 30, 10,  0,  0, 10, 30, 20 },
};
static const int8_t CH_KING_ENDGAME[64] = {
       -50,-40,-30,-20,-20,-30,-40,-50,
       -30,-20,-10,  0,  0,-10,-20,-30,
       -30,-10, 20, 30, 30, 20,-10,-30,
       -30,-10, 30, 40, 40, 30,-10,-30,
       -30,-10, 30, 40, 40, 30,-10,-30,
       -30,-10, 20, 30, 30, 20,-10,-30,
       -30,-30,  0,  0,  0,  0,-30,-30,
       -50,-30,-30,-30,-30,-30,-30,-50 };

/* Move-ordering keys (see move_score above). */
static const int32_t CH_KEY_CAPTURE = 1000;     /* + 10 * victim - attacker */
static const int32_t CH_KEY_PROMOTE_QUEEN = 2000;
static const int32_t CH_KEY_UNDERPROMOTE = -1;
static const int32_t CH_KEY_ILLEGAL = INT32_MIN / 2;
/* The engine's captures that lose material (ch_see() < 0): after the
 * quiet moves, the least losing first. */
static const int32_t CH_KEY_LOSING_CAPTURE = -1000;

/* The engine's quiescence and ordering choices (ch_generate_any,
 * ch_engine_filter), each measured on Win At Chess at a node budget
 * (doc/results/games.md, issue 32): leaving losing captures out of
 * quiescence is kept; all evasions as quiescence moves in check and
 * losing captures ordered after the quiet moves did not help and are off.
 * A build may turn each on or off (-DCH_QS_EVASIONS=1) to measure again. */
#ifndef CH_QS_EVASIONS
#define CH_QS_EVASIONS 0
#endif
#ifndef CH_QS_SEE_PRUNE
#define CH_QS_SEE_PRUNE 1
#endif
#ifndef CH_SEE_ORDER
#define CH_SEE_ORDER 0
#endif
/* The engine's null move is refused from this king danger on (0: never;
 * ch_null_apply_engine). */
#ifndef CH_NULL_DANGER
#define CH_NULL_DANGER 100
#endif

/* Zobrist generator seed: any fixed constant. */
static const uint64_t CH_ZOBRIST_SEED = 0x636865737321656eull;

/* ---- state ----------------------------------------------------------------- */

typedef struct ch_record {
    uint64_t key;      /* key before the move */
    uint16_t move;     /* the move (its low 16 bits) */
    uint16_t rule50;   /* 50-move counter before the move */
    uint8_t captured;  /* captured piece (0: none) */
    uint8_t castling;  /* rights before the move */
    uint8_t ep;        /* en-passant square before the move, CH_NO_SQ if none */
    uint8_t special;   /* CH_SPECIAL_* */
} ch_record;

/* An entry of the engine's pawn table (ch_pawn_probe): what the pawn
 * structure alone decides, for the position of pawns of @c key. */
typedef struct ch_pawn_entry {
    uint64_t key;       /* ch_state.pawn_key of the pawns it describes */
    uint64_t passed;    /* the passed pawns of both colours */
    int16_t mg[2], eg[2]; /* per colour: doubled, isolated, passed by rank */
    int16_t shield[2];  /* per colour: ch_eval_shield() with the king on shield_sq */
    uint8_t shield_sq[2]; /* CH_NO_SQ: not computed yet */
} ch_pawn_entry;
_Static_assert(sizeof(ch_pawn_entry) == 32, "two pawn entries a cache line");

/* Entries of the pawn table: 64 KiB a state that evaluates (a searching
 * thread's clone); a search meets a few thousand pawn structures. */
enum { CH_PAWN_TABLE_BITS = 11 };

typedef struct ch_state {
    uint8_t board[64];
    uint8_t king[2];     /* squares of the kings */
    uint8_t side;        /* colour to move */
    uint8_t castling;    /* CH_WK | CH_WQ | CH_BK | CH_BQ */
    uint8_t ep;          /* capturable en-passant square, or CH_NO_SQ */
    uint16_t rule50;     /* plies since the last capture or pawn move */
    uint16_t fullmove;   /* from the FEN; informative only */
    int32_t mg, eg;      /* material + tables, white minus black */
    int32_t emg, eeg;    /* the engine's material + tables (ch_eval_pst), white minus black */
    int32_t phase;       /* sum of CH_PHASE_WEIGHT over the board */
    uint8_t count[16];   /* pieces on the board, by piece code */
    uint64_t bb[16];     /* the same pieces as bitboards (bit sq), by piece code */
    uint64_t occ[2];     /* the squares of each colour's pieces */
    uint64_t key;
    uint64_t pawn_key;   /* Zobrist key of the pawns alone (the pawn table's) */
    /* The engine's pawn table (CH_PAWN_TABLE_BITS entries), allocated by
     * its first evaluate(); NULL before, and in a clone, which gets its own. */
    ch_pawn_entry *pawns;
    /* The engine's generate() found no legal move at ply nomoves_ply - 1 in
     * the position of key nomoves_key (0: never): evaluate() of that
     * position out of check is then a stalemate (see ch_evaluate_engine). */
    uint64_t nomoves_key;
    uint32_t nomoves_ply;
    uint32_t ply;        /* entries used in hist */
    uint32_t root;       /* ply when gts_chess_new() returned: the search root */
    ch_record hist[CH_MAX_PLIES];
} ch_state;

/* ---- tables built once ------------------------------------------------------ */

static uint64_t ch_zobrist_piece[16][64];
static uint64_t ch_zobrist_pawn[16][64]; /* ch_zobrist_piece for pawns, 0 for the others */
static uint64_t ch_zobrist_castling[16];
static uint64_t ch_zobrist_ep[8];
static uint64_t ch_zobrist_side;
/* Knight and king targets, and the squares along each of 8 rays (rook
 * directions 0..3, bishop directions 4..7), nearest first. */
static uint8_t ch_knight_to[64][8], ch_knight_n[64];
static uint8_t ch_king_to[64][8], ch_king_n[64];
static uint8_t ch_ray[64][8][7], ch_ray_n[64][8];
/* The same as bitboards, for the attack tests: knight and king targets,
 * the squares a pawn of each colour attacks, the squares of each ray, and
 * the squares strictly between two squares on a line (0 when they are not
 * on one). A ray is "positive" (its squares increase from sq: east, north,
 * north-east, north-west, the even directions) or negative (the odd ones),
 * which tells whether its nearest blocker is the lowest or highest bit. */
static uint64_t ch_knight_bb[64], ch_king_bb[64], ch_pawn_bb[2][64];
static uint64_t ch_ray_bb[64][8], ch_between[64][64];
/* Magic bitboards: the squares a rook (bishop) on sq attacks over an
 * occupancy occ are table[(occ & mask) * magic >> shift] of its entry, the
 * magic numbers found by the usual trial of sparse random numbers
 * (CH_ROOK_MAGIC). 102,400 + 5,248 attack sets: 841 KiB, built once. The plain form of the same is ch_slide(). */
typedef struct ch_magic {
    uint64_t mask, magic;
    const uint64_t *attacks;
    unsigned shift;
} ch_magic;
enum { CH_ROOK_ENTRIES = 102400, CH_BISHOP_ENTRIES = 5248 };
static ch_magic ch_rook_magic[64], ch_bishop_magic[64];
static uint64_t ch_rook_table[CH_ROOK_ENTRIES], ch_bishop_table[CH_BISHOP_ENTRIES];
/* Castling rights kept after a move from or to each square. */
static uint8_t ch_castle_keep[64];
/* The engine's evaluation (ch_eval_init): material + piece-square value of
 * each piece code on each square, middle game [0] and endgame [1], signed
 * (white positive); the files, the files beside each file, and for each
 * colour and square the squares ahead on the file (front) and on the file
 * and the two beside it (passed: no enemy pawn there makes a pawn passed). */
static int16_t ch_eval_pst[2][16][64];
/* The plain evaluation's value of each piece code on each square (material
 * + CH_PST, the king's endgame table in [1]), middle game [0] and endgame
 * [1], signed (white positive), and each piece code's phase weight: what
 * ch_put and ch_remove add and take away. */
static int16_t ch_plain_pst[2][16][64];
static uint8_t ch_phase_of[16];
static uint64_t ch_file_bb[8], ch_adjacent_bb[8];
static uint64_t ch_front_bb[2][64], ch_passed_bb[2][64];
/* Whether the processor has the POPCNT instruction (ch_eval_pieces_popcnt). */
static bool ch_use_popcnt;
static pthread_once_t ch_init_once = PTHREAD_ONCE_INIT;

static uint64_t ch_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---- the engine's evaluation: constants and tables ----------------------------
 * Centipawns. Material and piece-square values come in a middle-game and an
 * endgame flavour, blended by the phase (CH_PHASE_WEIGHT) like the plain
 * evaluation's king. The piece-square values are built from a few rules of
 * the chess literature rather than typed in: knights and bishops want the
 * centre and to leave the back rank, rooks the seventh rank, the queen the
 * centre in the endgame, the king the corner behind its pawns in the middle
 * game and the centre in the endgame, pawns the centre and to advance. */
static const int CH_EVAL_VALUE[2][7] = {
    { 0, 85, 330, 345, 470, 950, 0 },  /* middle game */
    { 0, 105, 300, 315, 530, 970, 0 }, /* endgame */
};
/* Pawns: advancement (by the rank seen from the pawn's side), the centre. */
static const int CH_PAWN_ADVANCE[2][8] = { { 0, 0, 2, 5, 10, 20, 35, 0 },
                                           { 0, 0, 3, 6, 12, 20, 30, 0 } };
static const int CH_PAWN_CENTRE = 12;     /* a d or e pawn on the 4th or 5th rank; half on c, f */
static const int CH_PAWN_UNMOVED_DE = -10; /* a d or e pawn still at home (middle game) */
/* Per step of centrality (0..6: file and rank distance from the edge). */
static const int CH_CENTRE_STEP[2][7] = {
    { 0, 0, 6, 3, 0, 2, 0 }, /* middle game, by type */
    { 0, 0, 5, 3, 0, 4, 8 }, /* endgame, by type */
};
static const int CH_MINOR_BACK_RANK = -8;  /* an undeveloped knight or bishop */
static const int CH_ROOK_SEVENTH[2] = { 15, 12 };
static const int CH_KING_RANK_STEP = -15;  /* the middle-game king off its back rank, a rank */
static const int CH_KING_HOME_FILE[8] = { 15, 20, 10, -5, 0, -5, 25, 15 }; /* on the back rank */

/* Pawn structure, by the rank seen from the pawn's side. */
static const int CH_DOUBLED[2] = { -10, -20 };  /* a pawn with an own pawn ahead on its file */
static const int CH_ISOLATED[2] = { -12, -12 }; /* no own pawn on the files beside */
static const int CH_PASSED[2][8] = { { 0, 5, 5, 10, 20, 35, 60, 0 },
                                     { 0, 10, 15, 25, 45, 75, 120, 0 } };
static const int CH_PASSED_FREE[8] = { 0, 0, 5, 10, 20, 35, 60, 0 }; /* endgame, path empty */
static const int CH_PASSED_KING = 2; /* endgame, x (rank - 2) x king distances to the stop square */
/* Mobility: per safe square (not own-occupied, not attacked by an enemy
 * pawn) above or below a typical count, by type (knight..queen). */
static const int CH_MOBILITY[2][7] = { { 0, 0, 4, 4, 2, 1, 0 }, { 0, 0, 4, 5, 4, 2, 0 } };
static const int CH_MOBILITY_TYPICAL[7] = { 0, 0, 4, 6, 6, 12, 0 };
/* King safety (middle game): each enemy piece that attacks the king's
 * zone (its square and its neighbours) adds its weight plus the zone
 * squares it hits; from two such pieces on, the danger is the square of
 * the sum, scaled, capped, and halved without an enemy queen. */
static const int CH_ATTACK_WEIGHT[7] = { 0, 0, 2, 2, 3, 5, 0 };
static const int CH_DANGER_SCALE_NUM = 3, CH_DANGER_SCALE_DEN = 2, CH_DANGER_MAX = 450;
static const int CH_SHIELD_NEAR = 12, CH_SHIELD_FAR = 6, CH_SHIELD_MISSING = -12;
static const int CH_SHIELD_OPEN_FILE = -10; /* ... and no enemy pawn on that file either */
static const int CH_BISHOP_PAIR[2] = { 30, 50 };
static const int CH_ROOK_OPEN[2] = { 25, 10 }, CH_ROOK_HALF_OPEN[2] = { 12, 6 };
/* A lone king: the winning side drives it to the edge and comes close. */
static const int CH_LONE_KING_EDGE = 10, CH_LONE_KING_CLOSE = 4;
/* The engine's scores stay within this (far from the decided range). */
static const int CH_EVAL_LIMIT = 9000;

static int ch_centrality(int sq)
{
    int f = sq & 7, r = sq >> 3;
    return (f < 4 ? f : 7 - f) + (r < 4 ? r : 7 - r);
}

/* The piece-square value of type @p t of the side to which @p sq is
 * rank @p r (0 = its back rank), phase @p ph (0 middle game, 1 endgame),
 * material included. */
static int ch_eval_square(int t, int sq, int r, int ph)
{
    int f = sq & 7, fc = f < 4 ? f : 7 - f, centre = ch_centrality(sq);
    int v = CH_EVAL_VALUE[ph][t] + CH_CENTRE_STEP[ph][t] * (centre - 3);
    switch (t) {
    case CH_PAWN:
        v += CH_PAWN_ADVANCE[ph][r];
        if (ph == 0 && (r == 3 || r == 4) && fc >= 2)
            v += fc == 3 ? CH_PAWN_CENTRE : CH_PAWN_CENTRE / 2;
        if (ph == 0 && r == 1 && fc == 3)
            v += CH_PAWN_UNMOVED_DE;
        break;
    case CH_KNIGHT:
    case CH_BISHOP:
        if (ph == 0 && r == 0)
            v += CH_MINOR_BACK_RANK;
        break;
    case CH_ROOK:
        if (r == 6)
            v += CH_ROOK_SEVENTH[ph];
        break;
    case CH_KING:
        if (ph == 0)
            v += r == 0 ? CH_KING_HOME_FILE[f] : CH_KING_RANK_STEP * (r < 4 ? r : 4);
        break;
    default:
        break;
    }
    return v;
}

static void ch_eval_init(void)
{
    for (int sq = 0; sq < 64; sq++) {
        int f = sq & 7, r = sq >> 3;
        ch_file_bb[f] |= 1ull << sq;
        for (int t = CH_PAWN; t <= CH_KING; t++)
            for (int ph = 0; ph < 2; ph++) {
                /* Black's square sq is white's sq ^ 56: the same value, negated. */
                ch_eval_pst[ph][t][sq] = (int16_t)ch_eval_square(t, sq, r, ph);
                ch_eval_pst[ph][t | 8][sq ^ 56] = (int16_t)-ch_eval_square(t, sq, r, ph);
            }
    }
    for (int sq = 0; sq < 64; sq++)
        for (int t = CH_PAWN; t <= CH_KING; t++) {
            int idx = sq ^ 56; /* a white piece's entry in the tables printed rank 8 first */
            int eg = t == CH_KING ? CH_KING_ENDGAME[idx] : CH_PST[t][idx];
            ch_plain_pst[0][t][sq] = (int16_t)(CH_VALUE[t] + CH_PST[t][idx]);
            ch_plain_pst[1][t][sq] = (int16_t)(CH_VALUE[t] + eg);
            ch_plain_pst[0][t | 8][sq ^ 56] = (int16_t)-ch_plain_pst[0][t][sq];
            ch_plain_pst[1][t | 8][sq ^ 56] = (int16_t)-ch_plain_pst[1][t][sq];
            ch_phase_of[t] = ch_phase_of[t | 8] = (uint8_t)CH_PHASE_WEIGHT[t];
        }
    for (int f = 0; f < 8; f++)
        ch_adjacent_bb[f] = (f > 0 ? ch_file_bb[f - 1] : 0) | (f < 7 ? ch_file_bb[f + 1] : 0);
    for (int sq = 0; sq < 64; sq++) {
        int f = sq & 7, r = sq >> 3;
        for (int rr = r + 1; rr < 8; rr++)
            ch_front_bb[CH_WHITE][sq] |= 1ull << (rr * 8 + f);
        for (int rr = r - 1; rr >= 0; rr--)
            ch_front_bb[CH_BLACK][sq] |= 1ull << (rr * 8 + f);
        for (int c = 0; c < 2; c++) {
            uint64_t front = ch_front_bb[c][sq];
            ch_passed_bb[c][sq] = front | ((f > 0 ? front >> 1 : 0) & ~ch_file_bb[7]) |
                                  ((f < 7 ? front << 1 : 0) & ~ch_file_bb[0]);
        }
    }
}

/* The squares a slider on @p sq reaches in direction @p d over the
 * occupancy @p occ: the ray up to and including its nearest blocker. */
static uint64_t ch_slide(int sq, int d, uint64_t occ)
{
    uint64_t ray = ch_ray_bb[sq][d], block = ray & occ;
    if (!block)
        return ray;
    int b = (d & 1) == 0 ? __builtin_ctzll(block) : 63 - __builtin_clzll(block);
    return ray ^ ch_ray_bb[b][d];
}

/* The magic numbers: for each square, the first of a fixed sequence of
 * sparse random numbers (the AND of three splitmix64 outputs, seeded with
 * CH_ZOBRIST_SEED, xor 4 for the bishops) that maps every subset of the
 * square's mask to an index without two different attack sets meeting.
 * Searching takes a second at start-up, so the numbers found are written
 * here; ch_magic_init fills the tables from them, and any wrong number
 * would show in the perft counts. */
static const uint64_t CH_ROOK_MAGIC[64] = {
    0x0080005022c00188ull, 0x2080108020004000ull, 0x0100200010090040ull,
    0x0480100008018005ull, 0x0200040200089120ull, 0x0d0009001c00a802ull,
    0x0480020009000080ull, 0x0080008000d52900ull, 0x0000802040008004ull,
    0x0020804000802002ull, 0x4400801000802002ull, 0x800200400a002010ull,
    0x0803001100080024ull, 0x400a000200081005ull, 0x8401000100020004ull,
    0x400500110000a042ull, 0x0204248000400081ull, 0x0090044000402008ull,
    0x0010220010420080ull, 0x0808008008801000ull, 0x7040828004000801ull,
    0x0801010002080400ull, 0xb40004009008360bull, 0x0004060000810444ull,
    0x0010400080208001ull, 0x0210004040002010ull, 0x4080200100410010ull,
    0x2001000900100420ull, 0x0282011200080420ull, 0x1002008080020400ull,
    0x0001480400109201ull, 0x0041000100004082ull, 0x0802400283800028ull,
    0x4000200040401000ull, 0x00c1002003004010ull, 0x8059001001000824ull,
    0x0c08000400800880ull, 0x0000020080800400ull, 0x0b0e000432000148ull,
    0x1028088042000419ull, 0x0400802040008006ull, 0x4060004000808024ull,
    0x0800402001010012ull, 0x2000100008008080ull, 0x50c4008040080800ull,
    0x4000020004008080ull, 0x2004010802040010ull, 0x0000410080520024ull,
    0x4000800041003100ull, 0x2020810020400100ull, 0x0000200100401900ull,
    0x4c00800800100280ull, 0x4000040080080080ull, 0x8040020080040080ull,
    0x002c58a201100400ull, 0x0404040040b90200ull, 0x3000201201004082ull,
    0x64c0104000802101ull, 0x848501c02000106dull, 0x0800200810000501ull,
    0x0001001004080013ull, 0x8141000844000241ull, 0x1000021000810804ull,
    0x1043c40045007082ull,
};
static const uint64_t CH_BISHOP_MAGIC[64] = {
    0x2020011012024240ull, 0x8050108080968108ull, 0x0404413401058282ull,
    0x8008060440040042ull, 0x04120211423002c0ull, 0x6020825040002000ull,
    0x88a0620220201404ull, 0x0082028414011c02ull, 0x0012e00210224088ull,
    0x5000202401060c35ull, 0x6000080204002810ull, 0x0801040414840201ull,
    0x8001021210200404ull, 0x4000010108400004ull, 0x0418940c02021100ull,
    0x00d0470048220803ull, 0x6411020420020400ull, 0x0144904851142401ull,
    0x000a004042820081ull, 0x400120140c008048ull, 0x0005002890400000ull,
    0x1001042200420200ull, 0x0104102080b80800ull, 0x400600844c560820ull,
    0x0008400004042804ull, 0x0008820004101200ull, 0x2200900082040010ull,
    0x000104001800a020ull, 0x0000488014002003ull, 0x0008080a0c410800ull,
    0x12424400208c1122ull, 0x0004050204804100ull, 0x5001a02104081802ull,
    0x0002086000444108ull, 0x28440028002c8200ull, 0x9800440108840100ull,
    0x0012020400020083ull, 0x8004088200888800ull, 0x000808144000aa00ull,
    0x022a81290004c400ull, 0x0000882010800800ull, 0x0081380202041010ull,
    0x0008084402021000ull, 0x6825484208000080ull, 0x8400508210102e00ull,
    0x024422828a000704ull, 0x8009412803820e00ull, 0x00842b0200380201ull,
    0x1a20442404408110ull, 0x220223280a100020ull, 0x0604010088040000ull,
    0x00004210208821a8ull, 0x0140002020410000ull, 0x2028041002021000ull,
    0x0804301091090000ull, 0x0884884884018400ull, 0x2834210c00a00808ull,
    0x0180408a081e0a00ull, 0x0493840210840448ull, 0x28a0020080208821ull,
    0x6020090020120480ull, 0x0a000020a5300080ull, 0x0000081001086100ull,
    0x0810240808640020ull,
};

/* The magic entries of the rook (d0 = 0) or bishop (d0 = 4) of each square
 * into @p m, their attack sets into @p table (ch_init). */
static void ch_magic_init(ch_magic *m, uint64_t *table, const uint64_t *magic, int d0)
{
    uint64_t *next = table;
    for (int sq = 0; sq < 64; sq++) {
        uint64_t mask = 0;
        for (int d = d0; d < d0 + 4; d++) {
            uint64_t ray = ch_ray_bb[sq][d];
            if (!ray)
                continue;
            int far = (d & 1) == 0 ? 63 - __builtin_clzll(ray) : __builtin_ctzll(ray);
            mask |= ray & ~(1ull << far); /* the edge square never blocks */
        }
        int bits = __builtin_popcountll(mask);
        m[sq].mask = mask;
        m[sq].magic = magic[sq];
        m[sq].shift = (unsigned)(64 - bits);
        m[sq].attacks = next;
        uint64_t sub = 0;
        do { /* every subset of the mask (carry-rippler) */
            uint64_t a = 0;
            for (int d = d0; d < d0 + 4; d++)
                a |= ch_slide(sq, d, sub);
            next[(sub * magic[sq]) >> m[sq].shift] = a;
            sub = (sub - mask) & mask;
        } while (sub);
        next += (size_t)1 << bits;
    }
}

static uint64_t ch_rook_attacks(int sq, uint64_t occ)
{
    const ch_magic *m = &ch_rook_magic[sq];
    return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
}

static uint64_t ch_bishop_attacks(int sq, uint64_t occ)
{
    const ch_magic *m = &ch_bishop_magic[sq];
    return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
}

/* The squares a bishop, rook or queen (@p t) on @p sq attacks over @p occ. */
static uint64_t ch_slider_attacks(int t, int sq, uint64_t occ)
{
    uint64_t a = t == CH_ROOK ? 0 : ch_bishop_attacks(sq, occ);
    return t == CH_BISHOP ? a : a | ch_rook_attacks(sq, occ);
}

static void ch_init(void)
{
    uint64_t seed = CH_ZOBRIST_SEED;
    for (int p = 0; p < 16; p++)
        for (int sq = 0; sq < 64; sq++)
            ch_zobrist_piece[p][sq] = ch_splitmix64(&seed);
    for (int c = 0; c < 2; c++)
        for (int sq = 0; sq < 64; sq++)
            ch_zobrist_pawn[CH_PAWN | c << 3][sq] = ch_zobrist_piece[CH_PAWN | c << 3][sq];
    for (int c = 0; c < 16; c++)
        ch_zobrist_castling[c] = c ? ch_splitmix64(&seed) : 0;
    for (int f = 0; f < 8; f++)
        ch_zobrist_ep[f] = ch_splitmix64(&seed);
    ch_zobrist_side = ch_splitmix64(&seed);

    static const int knight_df[8] = { 1, 2, 2, 1, -1, -2, -2, -1 };
    static const int knight_dr[8] = { 2, 1, -1, -2, -2, -1, 1, 2 };
    static const int ray_df[8] = { 1, -1, 0, 0, 1, 1, -1, -1 };
    static const int ray_dr[8] = { 0, 0, 1, -1, 1, -1, 1, -1 };
    for (int sq = 0; sq < 64; sq++) {
        int f = sq % 8, r = sq / 8;
        for (int i = 0; i < 8; i++) {
            int nf = f + knight_df[i], nr = r + knight_dr[i];
            if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8)
                ch_knight_to[sq][ch_knight_n[sq]++] = (uint8_t)(nr * 8 + nf);
            nf = f + ray_df[i];
            nr = r + ray_dr[i];
            if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8)
                ch_king_to[sq][ch_king_n[sq]++] = (uint8_t)(nr * 8 + nf);
            for (int k = 1; k < 8; k++) {
                nf = f + k * ray_df[i];
                nr = r + k * ray_dr[i];
                if (nf < 0 || nf >= 8 || nr < 0 || nr >= 8)
                    break;
                int to = nr * 8 + nf;
                ch_between[sq][to] = ch_ray_bb[sq][i];
                ch_ray[sq][i][ch_ray_n[sq][i]++] = (uint8_t)to;
                ch_ray_bb[sq][i] |= 1ull << to;
            }
        }
        for (int i = 0; i < ch_knight_n[sq]; i++)
            ch_knight_bb[sq] |= 1ull << ch_knight_to[sq][i];
        for (int i = 0; i < ch_king_n[sq]; i++)
            ch_king_bb[sq] |= 1ull << ch_king_to[sq][i];
        if (f > 0 && r < 7)
            ch_pawn_bb[CH_WHITE][sq] |= 1ull << (sq + 7);
        if (f < 7 && r < 7)
            ch_pawn_bb[CH_WHITE][sq] |= 1ull << (sq + 9);
        if (f > 0 && r > 0)
            ch_pawn_bb[CH_BLACK][sq] |= 1ull << (sq - 9);
        if (f < 7 && r > 0)
            ch_pawn_bb[CH_BLACK][sq] |= 1ull << (sq - 7);
        ch_castle_keep[sq] = CH_WK | CH_WQ | CH_BK | CH_BQ;
    }
    ch_castle_keep[0] &= (uint8_t)~CH_WQ;  /* a1 */
    ch_castle_keep[7] &= (uint8_t)~CH_WK;  /* h1 */
    ch_castle_keep[4] &= (uint8_t)~(CH_WK | CH_WQ);  /* e1 */
    ch_castle_keep[56] &= (uint8_t)~CH_BQ; /* a8 */
    ch_castle_keep[63] &= (uint8_t)~CH_BK; /* h8 */
    ch_castle_keep[60] &= (uint8_t)~(CH_BK | CH_BQ); /* e8 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__POPCNT__)
    __builtin_cpu_init();
    ch_use_popcnt = __builtin_cpu_supports("popcnt");
#endif
    ch_magic_init(ch_rook_magic, ch_rook_table, CH_ROOK_MAGIC, 0);
    ch_magic_init(ch_bishop_magic, ch_bishop_table, CH_BISHOP_MAGIC, 4);
    ch_eval_init();
}

/* ---- small helpers ---------------------------------------------------------- */

static int ch_type(int piece) { return piece & 7; }
static int ch_colour(int piece) { return piece >> 3; }
static int ch_piece(int colour, int type) { return type | colour << 3; }
static int ch_file(int sq) { return sq & 7; }
static int ch_rank(int sq) { return sq >> 3; }

static int ch_move_from(gts_move m) { return (int)(m & 63); }
static int ch_move_to(gts_move m) { return (int)((m >> 6) & 63); }
static int ch_move_promo(gts_move m) { return (int)((m >> 12) & 7); }
static gts_move ch_make_move(int from, int to, int promo)
{
    return (gts_move)(from | to << 6 | promo << 12);
}

/* Place or lift a piece, keeping the key, the evaluation sums, the phase
 * and the counts up to date. */
static void ch_put(ch_state *s, int sq, int piece)
{
    int t = ch_type(piece), c = ch_colour(piece);
    s->board[sq] = (uint8_t)piece;
    s->key ^= ch_zobrist_piece[piece][sq];
    s->pawn_key ^= ch_zobrist_pawn[piece][sq];
    s->mg += ch_plain_pst[0][piece][sq];
    s->eg += ch_plain_pst[1][piece][sq];
    s->emg += ch_eval_pst[0][piece][sq];
    s->eeg += ch_eval_pst[1][piece][sq];
    s->phase += ch_phase_of[piece];
    s->count[piece]++;
    s->bb[piece] |= 1ull << sq;
    s->occ[c] |= 1ull << sq;
    if (t == CH_KING)
        s->king[c] = (uint8_t)sq;
}

static void ch_remove(ch_state *s, int sq)
{
    int piece = s->board[sq], c = ch_colour(piece);
    s->board[sq] = CH_EMPTY;
    s->key ^= ch_zobrist_piece[piece][sq];
    s->pawn_key ^= ch_zobrist_pawn[piece][sq];
    s->mg -= ch_plain_pst[0][piece][sq];
    s->eg -= ch_plain_pst[1][piece][sq];
    s->emg -= ch_eval_pst[0][piece][sq];
    s->eeg -= ch_eval_pst[1][piece][sq];
    s->phase -= ch_phase_of[piece];
    s->count[piece]--;
    s->bb[piece] &= ~(1ull << sq);
    s->occ[c] &= ~(1ull << sq);
}

/* The pieces of colour @p by among @p mask that attack @p sq when the board
 * holds the pieces @p occ (the state's own, or one after a move played on
 * the bitboards only: see ch_legal_after). */
static uint64_t ch_attackers(const ch_state *s, int sq, int by, uint64_t occ, uint64_t mask)
{
    const uint64_t *bb = s->bb;
    uint64_t queens = bb[ch_piece(by, CH_QUEEN)];
    uint64_t rooks = (bb[ch_piece(by, CH_ROOK)] | queens) & mask;
    uint64_t bishops = (bb[ch_piece(by, CH_BISHOP)] | queens) & mask;
    uint64_t hit = (ch_pawn_bb[by ^ 1][sq] & bb[ch_piece(by, CH_PAWN)]) |
                   (ch_knight_bb[sq] & bb[ch_piece(by, CH_KNIGHT)]) |
                   (ch_king_bb[sq] & bb[ch_piece(by, CH_KING)]);
    hit &= mask;
    if (rooks)
        hit |= ch_rook_attacks(sq, occ) & rooks;
    if (bishops)
        hit |= ch_bishop_attacks(sq, occ) & bishops;
    return hit;
}

/* Whether @p sq is attacked by a piece of colour @p by. */
static bool ch_attacked(const ch_state *s, int sq, int by)
{
    return ch_attackers(s, sq, by, s->occ[0] | s->occ[1], ~0ull) != 0;
}

static bool ch_in_check(const ch_state *s)
{
    return ch_attacked(s, s->king[s->side], s->side ^ 1);
}

/* Whether the side to move could capture en passant on @p ep (pseudo-legally). */
static bool ch_ep_capturable(const ch_state *s, int ep)
{
    int us = s->side, pawn = ch_piece(us, CH_PAWN);
    int from_rank_sq = us == CH_WHITE ? ep - 8 : ep + 8; /* the square beside the capturer */
    int f = ch_file(ep);
    return (f > 0 && s->board[from_rank_sq - 1] == pawn) ||
           (f < 7 && s->board[from_rank_sq + 1] == pawn);
}

/* ---- move generation ---------------------------------------------------------- */

typedef struct ch_list {
    int n;
    gts_move move[CH_MAX_MOVES];
    int32_t key[CH_MAX_MOVES];
} ch_list;

/* The ordering key of a move (see move_score in the header comment). */
static int32_t ch_key(const ch_state *s, int from, int to, int promo)
{
    int32_t key = 0;
    int victim = ch_type(s->board[to]);
    if (victim == CH_EMPTY && ch_type(s->board[from]) == CH_PAWN && ch_file(from) != ch_file(to))
        victim = CH_PAWN; /* en passant */
    if (victim != CH_EMPTY)
        key = CH_KEY_CAPTURE + 10 * victim - ch_type(s->board[from]);
    if (promo == CH_QUEEN)
        key += CH_KEY_PROMOTE_QUEEN;
    else if (promo != 0)
        key = victim != CH_EMPTY ? key : CH_KEY_UNDERPROMOTE;
    return key;
}

static void ch_add(ch_list *l, const ch_state *s, int from, int to, int promo)
{
    l->move[l->n] = ch_make_move(from, to, promo);
    l->key[l->n] = ch_key(s, from, to, promo);
    l->n++;
}

/* A pawn move to @p to: the four promotions on the last rank. */
static void ch_add_pawn(ch_list *l, const ch_state *s, int from, int to, bool noisy)
{
    if (ch_rank(to) == 0 || ch_rank(to) == 7) {
        ch_add(l, s, from, to, CH_QUEEN);
        if (noisy && s->board[to] == CH_EMPTY)
            return; /* quiet under-promotions are not noisy */
        ch_add(l, s, from, to, CH_ROOK);
        ch_add(l, s, from, to, CH_BISHOP);
        ch_add(l, s, from, to, CH_KNIGHT);
    } else {
        ch_add(l, s, from, to, 0);
    }
}

/* Pseudo-legal moves of the side to move (all of them, or only the noisy
 * ones: captures and queen promotions), in a fixed order: by square a1..h8,
 * then by direction. */
static void ch_generate_pseudo(const ch_state *s, ch_list *l, bool noisy)
{
    int us = s->side, them = us ^ 1;
    int up = us == CH_WHITE ? 8 : -8;
    int start_rank = us == CH_WHITE ? 1 : 6, last_rank = us == CH_WHITE ? 7 : 0;
    /* What a pawn may capture: a piece of the other side, or en passant. */
    uint64_t targets = s->occ[them] | (s->ep != CH_NO_SQ ? 1ull << s->ep : 0);
    l->n = 0;
    for (uint64_t own = s->occ[us]; own; own &= own - 1) {
        int from = __builtin_ctzll(own), t = ch_type(s->board[from]);
        if (t == CH_PAWN) {
            int to = from + up;
            if (s->board[to] == CH_EMPTY) {
                if (!noisy || ch_rank(to) == last_rank)
                    ch_add_pawn(l, s, from, to, noisy);
                if (!noisy && ch_rank(from) == start_rank && s->board[to + up] == CH_EMPTY)
                    ch_add(l, s, from, to + up, 0);
            }
            /* Captures: towards the a-file first, which is the lower square. */
            for (uint64_t b = ch_pawn_bb[us][from] & targets; b; b &= b - 1)
                ch_add_pawn(l, s, from, __builtin_ctzll(b), noisy);
        } else if (t == CH_KNIGHT || t == CH_KING) {
            if (noisy && !((t == CH_KNIGHT ? ch_knight_bb[from] : ch_king_bb[from]) & s->occ[them]))
                continue; /* nothing to take: the usual case */
            const uint8_t *to = t == CH_KNIGHT ? ch_knight_to[from] : ch_king_to[from];
            int n = t == CH_KNIGHT ? ch_knight_n[from] : ch_king_n[from];
            for (int i = 0; i < n; i++) {
                int q = s->board[to[i]];
                if (q == CH_EMPTY ? !noisy : ch_colour(q) == them)
                    ch_add(l, s, from, to[i], 0);
            }
        } else {
            /* Direction by direction, nearest square first: a positive
             * ray's squares by increasing index, a negative one's by
             * decreasing (the order of a walk along the ray). */
            int d0 = t == CH_BISHOP ? 4 : 0, d1 = t == CH_ROOK ? 4 : 8;
            uint64_t reach = ch_slider_attacks(t, from, s->occ[0] | s->occ[1]) &
                             (noisy ? s->occ[them] : ~s->occ[us]);
            for (int d = d0; d < d1 && reach; d++) {
                uint64_t b = reach & ch_ray_bb[from][d];
                if ((d & 1) == 0)
                    for (; b; b &= b - 1)
                        ch_add(l, s, from, __builtin_ctzll(b), 0);
                else
                    for (; b; b ^= 1ull << (63 - __builtin_clzll(b)))
                        ch_add(l, s, from, 63 - __builtin_clzll(b), 0);
            }
        }
    }
    /* Castling: rights, empty squares between king and rook, and the
     * king's start, passing and arrival squares not attacked. */
    if (noisy)
        return;
    int base = us == CH_WHITE ? 0 : 56; /* a1 or a8 */
    int king_side = us == CH_WHITE ? CH_WK : CH_BK, queen_side = us == CH_WHITE ? CH_WQ : CH_BQ;
    const uint8_t *b = s->board;
    if ((s->castling & king_side) && b[base + 5] == CH_EMPTY && b[base + 6] == CH_EMPTY &&
        !ch_attacked(s, base + 4, them) && !ch_attacked(s, base + 5, them) &&
        !ch_attacked(s, base + 6, them))
        ch_add(l, s, base + 4, base + 6, 0);
    if ((s->castling & queen_side) && b[base + 3] == CH_EMPTY && b[base + 2] == CH_EMPTY &&
        b[base + 1] == CH_EMPTY && !ch_attacked(s, base + 4, them) &&
        !ch_attacked(s, base + 3, them) && !ch_attacked(s, base + 2, them))
        ch_add(l, s, base + 4, base + 2, 0);
}

/* Whether the pseudo-legal move @p m leaves the mover's king safe: the
 * move is played on the occupancy only, the captured piece masked out of
 * the attackers (the rook of a castling move does not matter: the king's
 * squares were checked when it was generated). */
static bool ch_legal_after(const ch_state *s, gts_move m)
{
    int from = ch_move_from(m), to = ch_move_to(m), us = s->side;
    uint64_t occ = (s->occ[0] | s->occ[1]) & ~(1ull << from), gone = 1ull << to;
    if (ch_type(s->board[from]) == CH_PAWN && to == s->ep && ch_file(from) != ch_file(to)) {
        gone = 1ull << (us == CH_WHITE ? to - 8 : to + 8);
        occ &= ~gone;
    }
    occ |= 1ull << to;
    int king = ch_type(s->board[from]) == CH_KING ? to : s->king[us];
    return ch_attackers(s, king, us ^ 1, occ, ~gone) == 0;
}

/* The pieces of the side to move pinned to their king: the only piece
 * between the king and an enemy slider that would attack it otherwise. */
static uint64_t ch_pinned(const ch_state *s)
{
    int us = s->side, them = us ^ 1, k = s->king[us];
    uint64_t queens = s->bb[ch_piece(them, CH_QUEEN)];
    uint64_t rooks = s->bb[ch_piece(them, CH_ROOK)] | queens;
    uint64_t bishops = s->bb[ch_piece(them, CH_BISHOP)] | queens;
    uint64_t occ = s->occ[0] | s->occ[1], pinned = 0, snipers = 0;
    for (int d = 0; d < 8; d++)
        snipers |= ch_ray_bb[k][d] & (d < 4 ? rooks : bishops);
    for (; snipers; snipers &= snipers - 1) {
        uint64_t between = ch_between[k][__builtin_ctzll(snipers)] & occ;
        if (between && !(between & (between - 1)))
            pinned |= between & s->occ[us];
    }
    return pinned;
}

/* What the legality test of a pseudo-legal move needs to know once per
 * position: a move needs ch_legal_after() only when the side to move is in
 * check, or it moves the king, a pinned piece, or captures en passant (which
 * lifts two pieces off a line); every other move is legal. */
typedef struct ch_safety {
    bool check;
    uint64_t suspect; /* from-squares of moves to test: the king and the pinned */
} ch_safety;

static ch_safety ch_safety_of(const ch_state *s)
{
    ch_safety z;
    z.check = ch_in_check(s);
    z.suspect = ch_pinned(s) | 1ull << s->king[s->side];
    return z;
}

static bool ch_legal(const ch_state *s, const ch_safety *z, gts_move m)
{
    int from = ch_move_from(m);
    if (!z->check && !(z->suspect >> from & 1) &&
        !(ch_move_to(m) == s->ep && ch_type(s->board[from]) == CH_PAWN))
        return true;
    return ch_legal_after(s, m);
}

/* The legal moves (all, or the noisy ones), keys alongside. */
static void ch_generate_legal(const ch_state *s, ch_list *l, bool noisy)
{
    ch_generate_pseudo(s, l, noisy);
    ch_safety z = ch_safety_of(s);
    int n = 0;
    for (int i = 0; i < l->n; i++) {
        if (ch_legal(s, &z, l->move[i])) {
            l->move[n] = l->move[i];
            l->key[n] = l->key[i];
            n++;
        }
    }
    l->n = n;
}

static bool ch_has_legal_move(const ch_state *s)
{
    /* Quick answer first: a king step (the usual case), then everything. */
    int k = s->king[s->side];
    for (int i = 0; i < ch_king_n[k]; i++) {
        int to = ch_king_to[k][i], q = s->board[to];
        if ((q == CH_EMPTY || ch_colour(q) != s->side) && ch_legal_after(s, ch_make_move(k, to, 0)))
            return true;
    }
    /* Out of check, any move of a piece that is not pinned is legal: look
     * for one on the bitboards, without building a list (evaluate() asks
     * at every leaf, and a castled king often has no step). */
    ch_safety z = ch_safety_of(s);
    if (!z.check) {
        int us = s->side, up = us == CH_WHITE ? 8 : -8;
        uint64_t occ = s->occ[0] | s->occ[1], target = ~s->occ[us];
        for (uint64_t own = s->occ[us] & ~z.suspect; own; own &= own - 1) {
            int from = __builtin_ctzll(own), t = ch_type(s->board[from]);
            if (t == CH_PAWN) {
                if (s->board[from + up] == CH_EMPTY || (ch_pawn_bb[us][from] & s->occ[us ^ 1]))
                    return true;
            } else if (t == CH_KNIGHT) {
                if (ch_knight_bb[from] & target)
                    return true;
            } else {
                if (ch_slider_attacks(t, from, occ) & target)
                    return true;
            }
        }
    }
    ch_list l;
    ch_generate_pseudo(s, &l, false);
    for (int i = 0; i < l.n; i++)
        if (ch_legal(s, &z, l.move[i]))
            return true;
    return false;
}

/* Drawn by the 50-move rule or by repetition (the game may still be a
 * checkmate: the caller looks at that first). The rules (@p engine false):
 * the third occurrence of the position. The engine's draw
 * (gts_game_chess_engine()): also a second occurrence when the earlier one
 * is at or after the root (the ply the state was built at, or
 * gts_chess_set_root()): playing into a repetition inside the search is a
 * draw at once, as engines score it, since waiting for the third
 * occurrence hides the draw beyond the horizon; a position seen only
 * before the root still needs its third occurrence. The current position
 * occurs again only an even number of plies back, and never before the
 * last capture or pawn move. */
static bool ch_drawn(const ch_state *s, bool engine)
{
    if (s->rule50 >= 100)
        return true;
    int seen = 0;
    int oldest = (int)s->ply - (int)s->rule50;
    int root = engine ? (int)s->root : INT_MAX;
    for (int i = (int)s->ply - 2; i >= 0 && i >= oldest; i -= 2)
        if (s->hist[i].key == s->key && (i >= root || ++seen == 2))
            return true;
    return false;
}

/* No mating material for either side: kings, plus at most one minor piece. */
static bool ch_insufficient_material(const ch_state *s)
{
    int minors = 0;
    for (int c = 0; c < 2; c++) {
        if (s->count[ch_piece(c, CH_PAWN)] || s->count[ch_piece(c, CH_ROOK)] ||
            s->count[ch_piece(c, CH_QUEEN)])
            return false;
        minors += s->count[ch_piece(c, CH_KNIGHT)] + s->count[ch_piece(c, CH_BISHOP)];
    }
    return minors <= 1;
}

/* ---- the engine's evaluation ------------------------------------------------ */

/* Bits set in @p b: inline, since the library is built for any x86-64
 * (no POPCNT instruction: __builtin_popcountll would be a call). */
static int ch_popcount(uint64_t b)
{
    b = b - ((b >> 1) & 0x5555555555555555ull);
    b = (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
    b = (b + (b >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((b * 0x0101010101010101ull) >> 56);
}

static int ch_distance(int a, int b)
{
    int df = abs((a & 7) - (b & 7)), dr = abs((a >> 3) - (b >> 3));
    return df > dr ? df : dr;
}

/* The squares the pawns of colour @p c attack. */
static uint64_t ch_pawn_attacks(uint64_t pawns, int c)
{
    uint64_t west = pawns & ~ch_file_bb[0], east = pawns & ~ch_file_bb[7];
    return c == CH_WHITE ? west << 7 | east << 9 : west >> 9 | east >> 7;
}

/* The squares a piece of type @p t on @p sq attacks over @p occ. */
static uint64_t ch_piece_attacks(int t, int sq, uint64_t occ)
{
    return t == CH_KNIGHT ? ch_knight_bb[sq] : ch_slider_attacks(t, sq, occ);
}

/* Pawn structure of colour @p c from the pawns alone, from c's side:
 * doubled and isolated pawns and the passed pawns by rank into *mg, *eg;
 * the passed pawns are returned (ch_eval_passed adds what else they need). */
static uint64_t ch_eval_pawns(const ch_state *s, int c, int *mg, int *eg)
{
    uint64_t own = s->bb[ch_piece(c, CH_PAWN)], opp = s->bb[ch_piece(c ^ 1, CH_PAWN)];
    uint64_t passed = 0;
    for (uint64_t b = own; b; b &= b - 1) {
        int sq = __builtin_ctzll(b), f = sq & 7, r = c == CH_WHITE ? sq >> 3 : 7 - (sq >> 3);
        bool doubled = (own & ch_front_bb[c][sq]) != 0;
        if (doubled) {
            *mg += CH_DOUBLED[0];
            *eg += CH_DOUBLED[1];
        }
        if (!(own & ch_adjacent_bb[f])) {
            *mg += CH_ISOLATED[0];
            *eg += CH_ISOLATED[1];
        }
        if (doubled || (opp & ch_passed_bb[c][sq]))
            continue;
        *mg += CH_PASSED[0][r];
        *eg += CH_PASSED[1][r];
        passed |= 1ull << sq;
    }
    return passed;
}

/* The passed pawns @p passed of colour @p c, what depends on more than the
 * pawns (endgame, into *eg, from c's side): a free path, and from the
 * fourth rank on the kings' distances to the square ahead. */
static void ch_eval_passed(const ch_state *s, int c, uint64_t passed, int *eg)
{
    uint64_t occ = s->occ[0] | s->occ[1];
    int up = c == CH_WHITE ? 8 : -8;
    for (uint64_t b = passed; b; b &= b - 1) {
        int sq = __builtin_ctzll(b), r = c == CH_WHITE ? sq >> 3 : 7 - (sq >> 3);
        if (!(occ & ch_front_bb[c][sq]))
            *eg += CH_PASSED_FREE[r];
        if (r >= 3) {
            int stop = sq + up;
            *eg += CH_PASSED_KING * (r - 2) *
                   (2 * ch_distance(s->king[c ^ 1], stop) - ch_distance(s->king[c], stop));
        }
    }
}

/* The pawn shield of colour @p c's king (middle game, from c's side): own
 * pawns one or two ranks ahead on its file and the two beside, a file
 * without one costs more when the enemy has no pawn there either. Pawns
 * and the king's square decide it. */
static int ch_eval_shield(const ch_state *s, int c)
{
    int k = s->king[c], kr = c == CH_WHITE ? k >> 3 : 7 - (k >> 3);
    if (kr > 1)
        return 0;
    uint64_t own = s->bb[ch_piece(c, CH_PAWN)], opp = s->bb[ch_piece(c ^ 1, CH_PAWN)];
    int up = c == CH_WHITE ? 8 : -8, v = 0;
    for (int f = (k & 7) - 1; f <= (k & 7) + 1; f++) {
        if (f < 0 || f > 7)
            continue;
        int near = (k & ~7) + f + up;
        if (own >> near & 1)
            v += CH_SHIELD_NEAR;
        else if (own >> (near + up) & 1)
            v += CH_SHIELD_FAR;
        else
            v += CH_SHIELD_MISSING + (opp & ch_file_bb[f] ? 0 : CH_SHIELD_OPEN_FILE);
    }
    return v;
}

/* The pawn table entry of @p s's pawns, filled in on a miss (always
 * replacing); NULL when the state has no table and none can be allocated,
 * or when @p s has none by choice (gts__chess_evaluate_uncached). Each
 * entry is the pawns' exact terms, looked up by the whole 64-bit key: a
 * hit returns what ch_eval_pawns() would compute, unless two pawn
 * structures share a key (odds of 2^-64 a pair). */
static ch_pawn_entry *ch_pawn_probe(ch_state *s)
{
    if (!s->pawns) {
        s->pawns = malloc(sizeof *s->pawns << CH_PAWN_TABLE_BITS);
        if (!s->pawns)
            return NULL;
        memset(s->pawns, 0, sizeof *s->pawns << CH_PAWN_TABLE_BITS);
        for (size_t i = 0; i < (size_t)1 << CH_PAWN_TABLE_BITS; i++) {
            s->pawns[i].key = ~s->pawn_key; /* no entry matches yet */
            s->pawns[i].shield_sq[0] = s->pawns[i].shield_sq[1] = CH_NO_SQ;
        }
    }
    ch_pawn_entry *e = &s->pawns[s->pawn_key & (((uint64_t)1 << CH_PAWN_TABLE_BITS) - 1)];
    if (e->key != s->pawn_key) {
        e->key = s->pawn_key;
        e->passed = 0;
        for (int c = 0; c < 2; c++) {
            int mg = 0, eg = 0;
            e->passed |= ch_eval_pawns(s, c, &mg, &eg);
            e->mg[c] = (int16_t)mg;
            e->eg[c] = (int16_t)eg;
            e->shield_sq[c] = CH_NO_SQ;
        }
    }
    return e;
}

/* Bits set in @p b, with the instruction in a function compiled for a
 * processor with POPCNT (@p hw: see ch_eval_pieces_popcnt). */
#define CH_POPCOUNT(b) (hw ? __builtin_popcountll(b) : ch_popcount(b))

/* What ch_eval_pieces_body keeps for one side while it goes through the
 * pieces. */
typedef struct ch_piece_sums {
    int mg, eg;          /* rooks on open files */
    int mobility[7];     /* safe squares above the typical count, by type */
    int attackers, units; /* the king-zone attack */
} ch_piece_sums;

/* The pieces of type @p t (a constant where it is inlined) of colour @p c. */
static inline __attribute__((always_inline)) void
ch_eval_type(const ch_state *s, int c, int t, uint64_t occ, uint64_t safe, uint64_t zone,
             ch_piece_sums *sum, bool hw)
{
    uint64_t own_pawns = s->bb[ch_piece(c, CH_PAWN)], opp_pawns = s->bb[ch_piece(c ^ 1, CH_PAWN)];
    for (uint64_t b = s->bb[ch_piece(c, t)]; b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        uint64_t a = ch_piece_attacks(t, sq, occ);
        sum->mobility[t] += CH_POPCOUNT(a & safe) - CH_MOBILITY_TYPICAL[t];
        if (a & zone) {
            sum->attackers++;
            sum->units += CH_ATTACK_WEIGHT[t] + CH_POPCOUNT(a & zone);
        }
        if (t == CH_ROOK && !(own_pawns & ch_file_bb[sq & 7])) {
            bool open = !(opp_pawns & ch_file_bb[sq & 7]);
            sum->mg += open ? CH_ROOK_OPEN[0] : CH_ROOK_HALF_OPEN[0];
            sum->eg += open ? CH_ROOK_OPEN[1] : CH_ROOK_HALF_OPEN[1];
        }
    }
}

/* Pieces of colour @p c: mobility, rooks on open files, the bishop pair,
 * and the attack on the enemy king's zone (*danger: the enemy king's
 * middle-game penalty). From c's side. One attack set per piece serves
 * mobility and the king's zone; the mobility is summed by type and
 * weighted once. */
static inline __attribute__((always_inline)) void
ch_eval_pieces_body(const ch_state *s, int c, int *mg, int *eg, int *danger, bool hw)
{
    uint64_t occ = s->occ[0] | s->occ[1];
    uint64_t opp_pawns = s->bb[ch_piece(c ^ 1, CH_PAWN)];
    uint64_t safe = ~s->occ[c] & ~ch_pawn_attacks(opp_pawns, c ^ 1);
    int ek = s->king[c ^ 1];
    uint64_t zone = ch_king_bb[ek] | 1ull << ek;
    ch_piece_sums sum = { 0 };
    ch_eval_type(s, c, CH_KNIGHT, occ, safe, zone, &sum, hw);
    ch_eval_type(s, c, CH_BISHOP, occ, safe, zone, &sum, hw);
    ch_eval_type(s, c, CH_ROOK, occ, safe, zone, &sum, hw);
    ch_eval_type(s, c, CH_QUEEN, occ, safe, zone, &sum, hw);
    for (int t = CH_KNIGHT; t <= CH_QUEEN; t++) {
        *mg += CH_MOBILITY[0][t] * sum.mobility[t];
        *eg += CH_MOBILITY[1][t] * sum.mobility[t];
    }
    *mg += sum.mg;
    *eg += sum.eg;
    if (s->count[ch_piece(c, CH_BISHOP)] >= 2) {
        *mg += CH_BISHOP_PAIR[0];
        *eg += CH_BISHOP_PAIR[1];
    }
    *danger = 0;
    if (sum.attackers >= 2) {
        int d = sum.units * sum.units * CH_DANGER_SCALE_NUM / CH_DANGER_SCALE_DEN;
        d = d < CH_DANGER_MAX ? d : CH_DANGER_MAX;
        *danger = s->count[ch_piece(c, CH_QUEEN)] ? d : d / 2;
    }
}
#undef CH_POPCOUNT

/* The same, compiled twice: with the POPCNT instruction for the processors
 * that have it (chosen once, ch_init), and without. The library is built
 * for any x86-64, where __builtin_popcountll is a call to a library
 * routine; a build for a processor with POPCNT (-mpopcnt, -march=...)
 * uses the instruction everywhere. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__POPCNT__)
__attribute__((target("popcnt"))) static void ch_eval_pieces_popcnt(const ch_state *s, int c,
                                                                    int *mg, int *eg,
                                                                    int *danger)
{
    ch_eval_pieces_body(s, c, mg, eg, danger, true);
}
#else
#define ch_eval_pieces_popcnt ch_eval_pieces_plain
#endif

static void ch_eval_pieces_plain(const ch_state *s, int c, int *mg, int *eg, int *danger)
{
#ifdef __POPCNT__
    ch_eval_pieces_body(s, c, mg, eg, danger, true);
#else
    ch_eval_pieces_body(s, c, mg, eg, danger, false);
#endif
}

/* ch_eval_pieces_body for colour @p c, with the POPCNT build when @p hw
 * (ch_use_popcnt: the processor has it). */
static void ch_eval_pieces(const ch_state *s, int c, bool hw, int *mg, int *eg, int *danger)
{
    if (hw)
        ch_eval_pieces_popcnt(s, c, mg, eg, danger);
    else
        ch_eval_pieces_plain(s, c, mg, eg, danger);
}

/* Non-pawn material of colour @p c (middle-game values). */
static int ch_non_pawn(const ch_state *s, int c)
{
    int v = 0;
    for (int t = CH_KNIGHT; t <= CH_QUEEN; t++)
        v += s->count[ch_piece(c, t)] * CH_EVAL_VALUE[0][t];
    return v;
}

/* The engine's static evaluation of a position that is not over, from the
 * side to move. Symmetric by construction: every term is computed for each
 * colour from its own side and subtracted. @p cached: through the state's
 * pawn table and with POPCNT where the processor has it; false: the plain
 * computation of the same value (gts__chess_evaluate_uncached). */
static int ch_eval_full(ch_state *s, bool cached)
{
    int mg[2] = { 0, 0 }, eg[2] = { 0, 0 }, danger[2];
    ch_pawn_entry *e = cached ? ch_pawn_probe(s) : NULL;
    for (int c = 0; c < 2; c++) {
        uint64_t passed;
        if (e) {
            mg[c] += e->mg[c];
            eg[c] += e->eg[c];
            passed = e->passed & s->bb[ch_piece(c, CH_PAWN)];
            if (e->shield_sq[c] != s->king[c]) {
                e->shield_sq[c] = s->king[c];
                e->shield[c] = (int16_t)ch_eval_shield(s, c);
            }
            mg[c] += e->shield[c];
        } else {
            passed = ch_eval_pawns(s, c, &mg[c], &eg[c]);
            mg[c] += ch_eval_shield(s, c);
        }
        ch_eval_passed(s, c, passed, &eg[c]);
        ch_eval_pieces(s, c, ch_use_popcnt && cached, &mg[c], &eg[c], &danger[c]);
    }
    int white_mg = s->emg + mg[0] - mg[1] + danger[0] - danger[1];
    int white_eg = s->eeg + eg[0] - eg[1];
    /* Endgames: a lone king is driven to the edge; without pawns, an
     * advantage of less than a rook rarely wins. */
    for (int c = 0; c < 2; c++) {
        int sign = c == CH_WHITE ? 1 : -1, lone = s->king[c ^ 1];
        if (s->occ[c ^ 1] == 1ull << lone && ch_non_pawn(s, c) >= CH_EVAL_VALUE[0][CH_ROOK])
            white_eg += sign * (CH_LONE_KING_EDGE * (6 - ch_centrality(lone)) +
                                CH_LONE_KING_CLOSE * (14 - 2 * ch_distance(s->king[c], lone)));
    }
    int strong = white_eg > 0 ? CH_WHITE : CH_BLACK;
    if (!s->count[ch_piece(strong, CH_PAWN)] &&
        ch_non_pawn(s, strong) - ch_non_pawn(s, strong ^ 1) < CH_EVAL_VALUE[0][CH_ROOK])
        white_eg /= 4;
    int phase = s->phase < CH_PHASE_MAX ? s->phase : CH_PHASE_MAX;
    int white = (white_mg * phase + white_eg * (CH_PHASE_MAX - phase)) / CH_PHASE_MAX;
    white = white > CH_EVAL_LIMIT ? CH_EVAL_LIMIT : white < -CH_EVAL_LIMIT ? -CH_EVAL_LIMIT : white;
    return s->side == CH_WHITE ? white : -white;
}

/* ---- static exchange evaluation ---------------------------------------------- */

/* Exchange values: knight and bishop equal, so that trading one for the
 * other is not a loss. */
static const int CH_SEE_VALUE[7] = { 0, 100, 325, 325, 500, 1000, 20000 };

/* The material balance, for the side to move, of the capture @p m followed
 * by the best sequence of recaptures on its square, each side free to stop
 * (the swap algorithm; pins are ignored). Captures of a piece worth at
 * least the capturer return early: they never lose. */
static int ch_see(const ch_state *s, gts_move m)
{
    int from = ch_move_from(m), to = ch_move_to(m), us = s->side;
    int t = ch_type(s->board[from]), victim = ch_type(s->board[to]);
    uint64_t occ = (s->occ[0] | s->occ[1]) & ~(1ull << from);
    if (t == CH_PAWN && victim == CH_EMPTY && (from & 7) != (to & 7)) {
        victim = CH_PAWN; /* en passant */
        occ &= ~(1ull << (us == CH_WHITE ? to - 8 : to + 8));
    }
    if (CH_SEE_VALUE[victim] >= CH_SEE_VALUE[t])
        return CH_SEE_VALUE[victim];
    /* gain[k]: the balance for the side making capture k if the exchange
     * stopped after it; each side may stop instead of capturing. */
    int gain[32], d = 0, side = us ^ 1;
    gain[0] = CH_SEE_VALUE[victim];
    int on_square = t; /* the piece standing on @p to, which the next capture takes */
    /* The pieces of both sides still on the board (in occ) that attack
     * @p to: those of the sliders change as pieces leave their lines. */
    const uint64_t *bb = s->bb;
    uint64_t straight = bb[ch_piece(0, CH_ROOK)] | bb[ch_piece(0, CH_QUEEN)] |
                        bb[ch_piece(1, CH_ROOK)] | bb[ch_piece(1, CH_QUEEN)];
    uint64_t diagonal = bb[ch_piece(0, CH_BISHOP)] | bb[ch_piece(0, CH_QUEEN)] |
                        bb[ch_piece(1, CH_BISHOP)] | bb[ch_piece(1, CH_QUEEN)];
    uint64_t fixed = (ch_pawn_bb[CH_BLACK][to] & bb[ch_piece(CH_WHITE, CH_PAWN)]) |
                     (ch_pawn_bb[CH_WHITE][to] & bb[ch_piece(CH_BLACK, CH_PAWN)]) |
                     (ch_knight_bb[to] & (bb[ch_piece(0, CH_KNIGHT)] | bb[ch_piece(1, CH_KNIGHT)])) |
                     (ch_king_bb[to] & (bb[ch_piece(0, CH_KING)] | bb[ch_piece(1, CH_KING)]));
    for (;;) {
        uint64_t all = (fixed | (ch_rook_attacks(to, occ) & straight) |
                        (ch_bishop_attacks(to, occ) & diagonal)) & occ;
        uint64_t att = all & s->occ[side];
        if (!att)
            break;
        int a = CH_PAWN;
        uint64_t pick = 0;
        for (; a <= CH_KING; a++)
            if ((pick = att & s->bb[ch_piece(side, a)]))
                break;
        /* A king may take only when the other side has nothing left there. */
        if (a == CH_KING && (all & s->occ[side ^ 1]))
            break;
        d++;
        gain[d] = CH_SEE_VALUE[on_square] - gain[d - 1];
        if (d == 31)
            break;
        occ &= ~(pick & -pick);
        on_square = a;
        side ^= 1;
    }
    while (d > 0) {
        gain[d - 1] = -(-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]);
        d--;
    }
    return gain[0];
}

/* ---- the vtable ------------------------------------------------------------- */

static int ch_emit(const ch_list *l, gts_move *moves, int32_t *keys, uint32_t capacity)
{
    if ((uint32_t)l->n > capacity)
        return l->n; /* the library reports GTS_EMOVES; nothing written */
    for (int i = 0; i < l->n; i++) {
        moves[i] = l->move[i];
        if (keys)
            keys[i] = l->key[i];
    }
    return l->n;
}

/* The engine's changes to a legal move list (gts_game_chess_engine()):
 * captures that lose material by static exchange (ch_see() < 0) are left
 * out of the noisy list (quiescence does not search them; the selective
 * search then treats them as quiet moves) and ordered after the quiet
 * moves in the full list. */
static void ch_engine_filter(const ch_state *s, ch_list *l, bool noisy)
{
    int n = 0;
    for (int i = 0; i < l->n; i++) {
        gts_move m = l->move[i];
        int32_t key = l->key[i];
        if (key >= CH_KEY_CAPTURE && key < CH_KEY_PROMOTE_QUEEN) {
            int see = ch_see(s, m);
            if (see < 0) {
                if (noisy && CH_QS_SEE_PRUNE)
                    continue;
                if (CH_SEE_ORDER)
                    key = CH_KEY_LOSING_CAPTURE + see / 10;
            }
        }
        l->move[n] = m;
        l->key[n] = key;
        n++;
    }
    l->n = n;
}

static int ch_generate_any(ch_state *s, gts_move *moves, int32_t *keys, uint32_t capacity,
                           bool noisy, bool engine)
{
    if (!s || !moves)
        return GTS_EINVAL;
    if (ch_drawn(s, engine))
        return 0;
    ch_list l;
    /* The engine's quiescence moves in check: every evasion. */
    if (engine && noisy && CH_QS_EVASIONS && ch_in_check(s))
        noisy = false;
    ch_generate_legal(s, &l, noisy);
    if (engine) {
        if (!noisy && l.n == 0) {
            s->nomoves_key = s->key;
            s->nomoves_ply = s->ply + 1;
        }
        if (noisy ? CH_QS_SEE_PRUNE : CH_SEE_ORDER)
            ch_engine_filter(s, &l, noisy);
    }
    return ch_emit(&l, moves, keys, capacity);
}

static int ch_generate(void *state, gts_move *moves, uint32_t capacity, void *user)
{
    (void)user;
    return ch_generate_any(state, moves, NULL, capacity, false, false);
}

static int ch_generate_keyed(void *state, gts_move *moves, int32_t *keys, uint32_t capacity,
                             void *user)
{
    (void)user;
    if (!keys)
        return GTS_EINVAL;
    return ch_generate_any(state, moves, keys, capacity, false, false);
}

static int ch_generate_noisy(void *state, gts_move *moves, uint32_t capacity, void *user)
{
    (void)user;
    return ch_generate_any(state, moves, NULL, capacity, true, false);
}

/* The same three for gts_game_chess_engine(). */
static int ch_generate_engine(void *state, gts_move *moves, uint32_t capacity, void *user)
{
    (void)user;
    return ch_generate_any(state, moves, NULL, capacity, false, true);
}

static int ch_generate_keyed_engine(void *state, gts_move *moves, int32_t *keys,
                                    uint32_t capacity, void *user)
{
    (void)user;
    if (!keys)
        return GTS_EINVAL;
    return ch_generate_any(state, moves, keys, capacity, false, true);
}

static int ch_generate_noisy_engine(void *state, gts_move *moves, uint32_t capacity, void *user)
{
    (void)user;
    return ch_generate_any(state, moves, NULL, capacity, true, true);
}

/* Play @p m, assumed legal (apply() checks that first). */
static void ch_do_move(ch_state *s, gts_move m)
{
    int us = s->side, them = us ^ 1;
    int from = ch_move_from(m), to = ch_move_to(m), promo = ch_move_promo(m);
    int p = s->board[from], t = ch_type(p);
    ch_record *u = &s->hist[s->ply++];
    u->key = s->key;
    u->move = (uint16_t)m;
    u->rule50 = s->rule50;
    u->castling = s->castling;
    u->ep = s->ep;
    u->captured = s->board[to];
    u->special = 0;

    if (s->ep != CH_NO_SQ)
        s->key ^= ch_zobrist_ep[ch_file(s->ep)];
    s->key ^= ch_zobrist_castling[s->castling];
    s->rule50++;
    if (t == CH_PAWN || u->captured != CH_EMPTY)
        s->rule50 = 0;

    if (t == CH_PAWN && to == s->ep) {
        int victim = us == CH_WHITE ? to - 8 : to + 8;
        u->captured = s->board[victim];
        u->special = CH_SPECIAL_EP;
        ch_remove(s, victim);
    } else if (u->captured != CH_EMPTY) {
        ch_remove(s, to);
    }
    ch_remove(s, from);
    ch_put(s, to, promo ? ch_piece(us, promo) : p);
    if (t == CH_KING && (to - from == 2 || from - to == 2)) {
        int rook_from = to > from ? to + 1 : to - 2, rook_to = to > from ? to - 1 : to + 1;
        ch_remove(s, rook_from);
        ch_put(s, rook_to, ch_piece(us, CH_ROOK));
        u->special = CH_SPECIAL_CASTLE;
    }

    s->castling &= ch_castle_keep[from] & ch_castle_keep[to];
    s->key ^= ch_zobrist_castling[s->castling];
    s->side = (uint8_t)them;
    s->key ^= ch_zobrist_side;
    s->ep = CH_NO_SQ;
    if (t == CH_PAWN && (to - from == 16 || from - to == 16)) {
        int ep = (from + to) / 2;
        if (ch_ep_capturable(s, ep)) {
            s->ep = (uint8_t)ep;
            s->key ^= ch_zobrist_ep[ch_file(ep)];
        }
    }
}

static void ch_undo_move(ch_state *s)
{
    const ch_record *u = &s->hist[--s->ply];
    int them = s->side, us = them ^ 1;
    int from = ch_move_from(u->move), to = ch_move_to(u->move), promo = ch_move_promo(u->move);
    int p = promo ? ch_piece(us, CH_PAWN) : s->board[to];
    s->side = (uint8_t)us;
    ch_remove(s, to);
    ch_put(s, from, p);
    if (u->special == CH_SPECIAL_CASTLE) {
        int rook_from = to > from ? to + 1 : to - 2, rook_to = to > from ? to - 1 : to + 1;
        ch_remove(s, rook_to);
        ch_put(s, rook_from, ch_piece(us, CH_ROOK));
    }
    if (u->special == CH_SPECIAL_EP)
        ch_put(s, us == CH_WHITE ? to - 8 : to + 8, u->captured);
    else if (u->captured != CH_EMPTY)
        ch_put(s, to, u->captured);
    s->castling = u->castling;
    s->ep = u->ep;
    s->rule50 = u->rule50;
    s->key = u->key;
}

/* Whether @p m is a legal move of @p s by the laws of chess (generate()
 * returns it unless the game is drawn by the 50-move rule or repetition, a
 * draw that a game between people only ends on a claim). */
static bool ch_is_legal(const ch_state *s, gts_move m)
{
    if (m >= (1u << 15))
        return false;
    ch_list l;
    ch_generate_legal(s, &l, false);
    for (int i = 0; i < l.n; i++)
        if (l.move[i] == m)
            return true;
    return false;
}

/* Play a move generate() returned. Only a cheap sanity check: a full
 * legality test would cost a generate() per node; parse_move() is the
 * checked way in for moves from outside. */
static int ch_apply(void *state, gts_move move, void *user)
{
    (void)user;
    ch_state *s = state;
    if (!s || s->ply >= CH_MAX_PLIES || move >= (1u << 15))
        return GTS_EINVAL;
    int p = s->board[ch_move_from(move)], promo = ch_move_promo(move);
    if (p == CH_EMPTY || ch_colour(p) != s->side || ch_move_from(move) == ch_move_to(move) ||
        (promo != 0 && (ch_type(p) != CH_PAWN || promo < CH_KNIGHT || promo > CH_QUEEN)))
        return GTS_EINVAL;
    ch_do_move(s, move);
    return 0;
}

static int ch_undo(void *state, gts_move move, void *user)
{
    (void)user;
    ch_state *s = state;
    if (!s || s->ply == 0 || s->hist[s->ply - 1].move != move ||
        s->hist[s->ply - 1].special == CH_SPECIAL_NULL)
        return GTS_EINVAL;
    ch_undo_move(s);
    return 0;
}

/* A pass for null-move pruning (gts_game::null_apply): refused in check
 * (passing would leave the king attacked) and when the side to move has
 * only its king and pawns (zugzwang is common there: a pass would prove
 * too much). The position after it has the other side to move, no
 * en-passant capture and a 50-move counter of 0, so that the repetition
 * test (ch_drawn) never looks back across the pass. */
static int ch_null_apply(void *state, void *user)
{
    (void)user;
    ch_state *s = state;
    if (!s || s->ply >= CH_MAX_PLIES)
        return GTS_EINVAL;
    int us = s->side;
    if (s->count[ch_piece(us, CH_KNIGHT)] + s->count[ch_piece(us, CH_BISHOP)] +
                s->count[ch_piece(us, CH_ROOK)] + s->count[ch_piece(us, CH_QUEEN)] ==
            0 ||
        ch_in_check(s))
        return 0;
    ch_record *u = &s->hist[s->ply++];
    u->key = s->key;
    u->move = CH_NULL_RECORD;
    u->rule50 = s->rule50;
    u->castling = s->castling;
    u->ep = s->ep;
    u->captured = CH_EMPTY;
    u->special = CH_SPECIAL_NULL;
    if (s->ep != CH_NO_SQ)
        s->key ^= ch_zobrist_ep[ch_file(s->ep)];
    s->ep = CH_NO_SQ;
    s->rule50 = 0;
    s->side = (uint8_t)(us ^ 1);
    s->key ^= ch_zobrist_side;
    return 1;
}

/* The engine's pass (gts_game_chess_engine()): also refused when the side
 * to move's king is under attack, the enemy's king-zone attack as the
 * evaluation weighs it (danger, ch_eval_pieces_body) at least
 * CH_NULL_DANGER: a pass there lets the reduced search miss the mate the
 * attacker threatens, and the pass's cutoff hides it (of the Win At Chess
 * positions that only NullMove 0 solved at 1,000,000 nodes, 38, 71 and
 * 145 are solved with this rule; doc/results/games.md, issue 32). */
static int ch_null_apply_engine(void *state, void *user)
{
    ch_state *s = state;
    if (s && CH_NULL_DANGER > 0 && s->count[ch_piece(s->side ^ 1, CH_QUEEN)]) {
        int mg = 0, eg = 0, danger = 0;
        ch_eval_pieces(s, s->side ^ 1, ch_use_popcnt, &mg, &eg, &danger);
        if (danger >= CH_NULL_DANGER)
            return 0;
    }
    return ch_null_apply(state, user);
}

static int ch_null_undo(void *state, void *user)
{
    (void)user;
    ch_state *s = state;
    if (!s || s->ply == 0 || s->hist[s->ply - 1].special != CH_SPECIAL_NULL)
        return GTS_EINVAL;
    const ch_record *u = &s->hist[--s->ply];
    s->side ^= 1;
    s->ep = u->ep;
    s->rule50 = u->rule50;
    s->key = u->key;
    return 0;
}

static gts_score ch_evaluate_any(const ch_state *s, bool engine)
{
    if (!s)
        return GTS_SCORE_INVALID;
    if (!ch_has_legal_move(s))
        return ch_in_check(s) ? GTS_SCORE_LOSS : 0;
    if (ch_drawn(s, engine) || ch_insufficient_material(s))
        return 0;
    int phase = s->phase < CH_PHASE_MAX ? s->phase : CH_PHASE_MAX;
    int white = (s->mg * phase + s->eg * (CH_PHASE_MAX - phase)) / CH_PHASE_MAX;
    return s->side == CH_WHITE ? white : -white;
}

static gts_score ch_evaluate(void *state, void *user)
{
    (void)user;
    return ch_evaluate_any(state, false);
}

/* The engine's evaluate(): the legal-move test only in check (a
 * checkmate); out of check, a position without moves is a stalemate only
 * when the engine's generate() has just said so (nomoves_*), which is how
 * the search meets one: it generates, finds nothing, then asks for the
 * score. A stalemate at the horizon, never generated, is not seen. */
static gts_score ch_evaluate_engine_any(ch_state *s, bool cached)
{
    if (!s)
        return GTS_SCORE_INVALID;
    if (ch_in_check(s)) {
        if (!ch_has_legal_move(s))
            return GTS_SCORE_LOSS;
    } else if (s->nomoves_ply == s->ply + 1 && s->nomoves_key == s->key) {
        return 0;
    }
    if (ch_drawn(s, true) || ch_insufficient_material(s))
        return 0;
    return ch_eval_full(s, cached);
}

static gts_score ch_evaluate_engine(void *state, void *user)
{
    (void)user;
    return ch_evaluate_engine_any(state, true);
}

bool gts__chess_in_check(const void *state)
{
    return ch_in_check(state);
}

/* The reference evaluation: no pawn table, and the portable popcount. */
int gts__chess_evaluate_uncached(void *state)
{
    return ch_evaluate_engine_any(state, false);
}

static uint64_t ch_hash(void *state, void *user)
{
    (void)user;
    const ch_state *s = state;
    return s ? s->key : 0;
}

static void *ch_clone(void *state, void *user)
{
    (void)user;
    const ch_state *s = state;
    if (!s)
        return NULL;
    ch_state *copy = malloc(sizeof *copy);
    if (!copy)
        return NULL;
    /* The history beyond ply is never read: copy only what is used. */
    memcpy(copy, s, offsetof(ch_state, hist) + s->ply * sizeof s->hist[0]);
    copy->pawns = NULL;
    return copy;
}

static void ch_free(void *state, void *user)
{
    (void)user;
    ch_state *s = state;
    if (s)
        free(s->pawns);
    free(s);
}

static int32_t ch_move_score(void *state, gts_move move, void *user)
{
    (void)user;
    const ch_state *s = state;
    if (!s || move >= (1u << 15))
        return CH_KEY_ILLEGAL;
    int from = ch_move_from(move), to = ch_move_to(move);
    if (s->board[from] == CH_EMPTY || ch_colour(s->board[from]) != s->side)
        return CH_KEY_ILLEGAL;
    return ch_key(s, from, to, ch_move_promo(move));
}

static int32_t ch_move_score_engine(void *state, gts_move move, void *user)
{
    int32_t key = ch_move_score(state, move, user);
    if (CH_SEE_ORDER && key >= CH_KEY_CAPTURE && key < CH_KEY_PROMOTE_QUEEN) {
        int see = ch_see(state, move);
        if (see < 0)
            key = CH_KEY_LOSING_CAPTURE + see / 10;
    }
    return key;
}

/* Whether the legal move @p m gives check, without playing it: the moved
 * piece attacks the enemy king from its arrival square (as what it
 * promotes to), or leaving its square opens a line of one of the mover's
 * sliders onto that king. No other piece of the mover can attack the king
 * after the move, since none did before (the side not to move is never in
 * check). Castling and en passant (a rook that moves too, two squares
 * emptied) are played out instead. */
static bool ch_gives_check(ch_state *s, gts_move m)
{
    int from = ch_move_from(m), to = ch_move_to(m), promo = ch_move_promo(m);
    int us = s->side, t = ch_type(s->board[from]), ek = s->king[us ^ 1];
    if ((t == CH_KING && (to - from == 2 || from - to == 2)) ||
        (t == CH_PAWN && to == s->ep && ch_file(from) != ch_file(to))) {
        ch_do_move(s, m);
        bool check = ch_in_check(s);
        ch_undo_move(s);
        return check;
    }
    uint64_t occ = ((s->occ[0] | s->occ[1]) & ~(1ull << from)) | 1ull << to;
    int now = promo ? promo : t;
    uint64_t direct = now == CH_PAWN     ? ch_pawn_bb[us][to]
                      : now == CH_KNIGHT ? ch_knight_bb[to]
                      : now == CH_KING   ? 0
                                         : ch_slider_attacks(now, to, occ);
    if (direct >> ek & 1)
        return true;
    uint64_t queens = s->bb[ch_piece(us, CH_QUEEN)], gone = ~(1ull << from);
    uint64_t rooks = (s->bb[ch_piece(us, CH_ROOK)] | queens) & gone;
    uint64_t bishops = (s->bb[ch_piece(us, CH_BISHOP)] | queens) & gone;
    return ((ch_rook_attacks(ek, occ) & rooks) | (ch_bishop_attacks(ek, occ) & bishops)) != 0;
}

static int ch_extend(void *state, gts_move move, void *user)
{
    (void)user;
    ch_state *s = state;
    if (!s || s->ply >= CH_MAX_PLIES)
        return GTS_EINVAL;
    return ch_gives_check(s, move) ? 1 : 0;
}

static int ch_format_move(void *state, gts_move move, char *buf, size_t size, void *user)
{
    (void)state;
    (void)user;
    static const char promo_char[7] = { 0, 0, 'n', 'b', 'r', 'q', 0 };
    if (!buf || size < 6 || move >= (1u << 15))
        return GTS_EINVAL;
    int from = ch_move_from(move), to = ch_move_to(move), promo = ch_move_promo(move);
    if (promo == 1 || promo == 6 || promo == 7)
        return GTS_EINVAL;
    int n = 0;
    buf[n++] = (char)('a' + ch_file(from));
    buf[n++] = (char)('1' + ch_rank(from));
    buf[n++] = (char)('a' + ch_file(to));
    buf[n++] = (char)('1' + ch_rank(to));
    if (promo)
        buf[n++] = promo_char[promo];
    buf[n] = '\0';
    return n;
}

/* Parse "e2e4" / "e7e8q" (the promotion letter in either case) into a move,
 * legal or not; false for bad syntax. */
static bool ch_parse_text(const char *t, gts_move *move)
{
    size_t len = strlen(t);
    if (len != 4 && len != 5)
        return false;
    for (int i = 0; i < 4; i += 2)
        if (t[i] < 'a' || t[i] > 'h' || t[i + 1] < '1' || t[i + 1] > '8')
            return false;
    int promo = 0;
    if (len == 5) {
        switch (tolower((unsigned char)t[4])) {
        case 'n': promo = CH_KNIGHT; break;
        case 'b': promo = CH_BISHOP; break;
        case 'r': promo = CH_ROOK; break;
        case 'q': promo = CH_QUEEN; break;
        default: return false;
        }
    }
    int from = (t[1] - '1') * 8 + (t[0] - 'a'), to = (t[3] - '1') * 8 + (t[2] - 'a');
    *move = ch_make_move(from, to, promo);
    return true;
}

static int ch_parse_move(void *state, const char *text, gts_move *move, void *user)
{
    (void)user;
    const ch_state *s = state;
    gts_move m;
    if (!s || !text || !move)
        return GTS_EINVAL;
    if (!ch_parse_text(text, &m) || !ch_is_legal(s, m))
        return GTS_EPARSE;
    *move = m;
    return 0;
}

static const gts_game CH_GAME = {
    .struct_size = sizeof(gts_game),
    .max_moves = CH_MAX_MOVES,
    .generate = ch_generate,
    .apply = ch_apply,
    .undo = ch_undo,
    .evaluate = ch_evaluate,
    .hash = ch_hash,
    .clone = ch_clone,
    .free = ch_free,
    .generate_noisy = ch_generate_noisy,
    .move_score = ch_move_score,
    .extend = ch_extend,
    .format_move = ch_format_move,
    .parse_move = ch_parse_move,
    .user = NULL,
    .bounds = NULL,
    .generate_keyed = ch_generate_keyed,
    .null_apply = ch_null_apply,
    .null_undo = ch_null_undo,
};

/* The rules of CH_GAME with the engine's draw (ch_drawn): the same
 * callbacks but the three generators and evaluate(). */
static const gts_game CH_ENGINE_GAME = {
    .struct_size = sizeof(gts_game),
    .max_moves = CH_MAX_MOVES,
    .generate = ch_generate_engine,
    .apply = ch_apply,
    .undo = ch_undo,
    .evaluate = ch_evaluate_engine,
    .hash = ch_hash,
    .clone = ch_clone,
    .free = ch_free,
    .generate_noisy = ch_generate_noisy_engine,
    .move_score = ch_move_score_engine,
    .extend = ch_extend,
    .format_move = ch_format_move,
    .parse_move = ch_parse_move,
    .user = NULL,
    .bounds = NULL,
    .generate_keyed = ch_generate_keyed_engine,
    .traits = GTS_TRAIT_REPETITION_DRAW,
    .null_apply = ch_null_apply_engine,
    .null_undo = ch_null_undo,
};

const gts_game *gts_game_chess(void)
{
    pthread_once(&ch_init_once, ch_init);
    return &CH_GAME;
}

const gts_game *gts_game_chess_engine(void)
{
    pthread_once(&ch_init_once, ch_init);
    return &CH_ENGINE_GAME;
}

/* ---- perft ----------------------------------------------------------------------
 * The chess convention, which differs from gts_games_perft()'s in two ways:
 * a position without moves before the target depth (a checkmate, a
 * stalemate) adds no leaf, and the 50-move and repetition draws do not end
 * the game (the published counts ignore them). Bulk counting at depth 1. */

static uint64_t ch_perft(ch_state *s, int depth)
{
    ch_list l;
    ch_generate_legal(s, &l, false);
    if (depth == 1)
        return (uint64_t)l.n;
    uint64_t n = 0;
    for (int i = 0; i < l.n; i++) {
        ch_do_move(s, l.move[i]);
        n += ch_perft(s, depth - 1);
        ch_undo_move(s);
    }
    return n;
}

int gts__chess_turn(const void *state, int *plies)
{
    const ch_state *s = state;
    *plies = (int)s->ply; /* the moves after the FEN */
    return s->side == CH_WHITE ? 0 : 1;
}

gts_status gts_chess_set_root(void *state)
{
    ch_state *s = state;
    if (!s)
        return GTS_EINVAL;
    s->root = s->ply;
    return GTS_OK;
}

gts_status gts_chess_perft(void *state, int depth, uint64_t *count)
{
    ch_state *s = state;
    if (!s || !count || depth < 0 || depth > GTS_MAX_DEPTH)
        return GTS_EINVAL;
    if (s->ply + (uint32_t)depth > CH_MAX_PLIES)
        return GTS_ERANGE;
    *count = depth == 0 ? 1 : ch_perft(s, depth);
    return GTS_OK;
}

/* ---- FEN --------------------------------------------------------------------- */

/* Parse a square "e3" into 0..63; -1 if it is not one. */
static int ch_parse_square(const char *t)
{
    if (t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8' || t[2] != '\0')
        return -1;
    return (t[1] - '1') * 8 + (t[0] - 'a');
}

/* Split @p text (modified) into at most @p max whitespace-separated fields. */
static int ch_split(char *text, char **fields, int max)
{
    int n = 0;
    char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            *p++ = '\0';
        if (!*p)
            break;
        if (n == max)
            return max + 1;
        fields[n++] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
            p++;
    }
    return n;
}

static bool ch_parse_number(const char *t, long lo, long hi, long *out)
{
    char *end;
    if (!*t || !isdigit((unsigned char)t[0]))
        return false;
    long v = strtol(t, &end, 10);
    if (*end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Load the FEN fields (placement, side, castling, en passant, and the two
 * optional counters) into @p s, rejecting positions that cannot occur. */
static bool ch_load_fen(ch_state *s, char **f, int nf)
{
    if (nf < 4 || nf > 6)
        return false;
    memset(s, 0, offsetof(ch_state, hist));
    /* Placement: ranks 8 to 1, '/' between them. */
    int rank = 7, file = 0;
    for (const char *p = f[0]; *p; p++) {
        if (*p == '/') {
            if (file != 8 || rank == 0)
                return false;
            rank--;
            file = 0;
        } else if (*p >= '1' && *p <= '8') {
            file += *p - '0';
            if (file > 8)
                return false;
        } else {
            const char *types = "pnbrqk", *hit = strchr(types, tolower((unsigned char)*p));
            if (!hit || file >= 8)
                return false;
            int colour = isupper((unsigned char)*p) ? CH_WHITE : CH_BLACK;
            int t = (int)(hit - types) + CH_PAWN;
            if (t == CH_PAWN && (rank == 0 || rank == 7))
                return false; /* pawns never stand on the first or last rank */
            ch_put(s, rank * 8 + file, ch_piece(colour, t));
            file++;
        }
    }
    if (rank != 0 || file != 8)
        return false;
    for (int c = 0; c < 2; c++) {
        if (s->count[ch_piece(c, CH_KING)] != 1)
            return false;
        /* Promoted pieces come from pawns: at most 8 pawns plus extras. */
        int extra = s->count[ch_piece(c, CH_PAWN)];
        static const int originals[7] = { 0, 8, 2, 2, 2, 1, 1 };
        for (int t = CH_KNIGHT; t <= CH_QUEEN; t++)
            if (s->count[ch_piece(c, t)] > originals[t])
                extra += s->count[ch_piece(c, t)] - originals[t];
        if (extra > 8)
            return false;
    }
    /* Side to move. */
    if (strcmp(f[1], "w") == 0)
        s->side = CH_WHITE;
    else if (strcmp(f[1], "b") == 0)
        s->side = CH_BLACK;
    else
        return false;
    if (ch_attacked(s, s->king[s->side ^ 1], s->side))
        return false; /* the side that just moved left its king in check */
    /* Castling: each right needs its king and rook at home. */
    if (strcmp(f[2], "-") != 0) {
        for (const char *p = f[2]; *p; p++) {
            int right, king_sq, rook_sq, colour;
            switch (*p) {
            case 'K': right = CH_WK; king_sq = 4; rook_sq = 7; colour = CH_WHITE; break;
            case 'Q': right = CH_WQ; king_sq = 4; rook_sq = 0; colour = CH_WHITE; break;
            case 'k': right = CH_BK; king_sq = 60; rook_sq = 63; colour = CH_BLACK; break;
            case 'q': right = CH_BQ; king_sq = 60; rook_sq = 56; colour = CH_BLACK; break;
            default: return false;
            }
            if ((s->castling & right) || s->board[king_sq] != ch_piece(colour, CH_KING) ||
                s->board[rook_sq] != ch_piece(colour, CH_ROOK))
                return false;
            s->castling |= (uint8_t)right;
        }
    }
    /* En passant: the square a pawn of the side not to move just crossed. */
    s->ep = CH_NO_SQ;
    if (strcmp(f[3], "-") != 0) {
        int ep = ch_parse_square(f[3]);
        if (ep < 0)
            return false;
        int them = s->side ^ 1;
        int want_rank = s->side == CH_WHITE ? 5 : 2;
        int pawn_sq = s->side == CH_WHITE ? ep - 8 : ep + 8;
        int start_sq = s->side == CH_WHITE ? ep + 8 : ep - 8;
        if (ch_rank(ep) != want_rank || s->board[pawn_sq] != ch_piece(them, CH_PAWN) ||
            s->board[ep] != CH_EMPTY || s->board[start_sq] != CH_EMPTY)
            return false;
        if (ch_ep_capturable(s, ep))
            s->ep = (uint8_t)ep;
    }
    long halfmove = 0, fullmove = 1;
    if (nf >= 5 && !ch_parse_number(f[4], 0, 9999, &halfmove))
        return false;
    if (nf >= 6 && !ch_parse_number(f[5], 1, 9999, &fullmove))
        return false;
    s->rule50 = (uint16_t)halfmove;
    s->fullmove = (uint16_t)fullmove;
    s->key ^= ch_zobrist_castling[s->castling];
    if (s->ep != CH_NO_SQ)
        s->key ^= ch_zobrist_ep[ch_file(s->ep)];
    if (s->side == CH_BLACK)
        s->key ^= ch_zobrist_side;
    return true;
}

enum { CH_MAX_FIELDS = CH_MAX_PLIES + 16 };

/*
 * Position text: NULL, "" or "startpos" for the start position, or a FEN
 * (4 to 6 fields: the two move counters may be left out); either may be
 * followed by "moves" and UCI moves, as in a UCI position command:
 * "startpos moves e2e4 e7e5".
 */
gts_status gts_chess_new(const char *position, void **state)
{
    if (!state)
        return GTS_EINVAL;
    *state = NULL;
    pthread_once(&ch_init_once, ch_init);
    const char *text = position ? position : "";
    size_t len = strlen(text);
    char *copy = malloc(len + sizeof CH_START_FEN + 1);
    char **fields = malloc(CH_MAX_FIELDS * sizeof *fields);
    ch_state *s = malloc(sizeof *s);
    if (!copy || !fields || !s) {
        free(copy);
        free(fields);
        free(s);
        return GTS_ENOMEM;
    }
    memcpy(copy, text, len + 1);
    gts_status rc = GTS_EPARSE;
    int nf = ch_split(copy, fields, CH_MAX_FIELDS);
    int moves_at = nf;
    if (nf > CH_MAX_FIELDS)
        goto out;
    for (int i = 0; i < nf; i++) {
        if (strcmp(fields[i], "moves") == 0) {
            moves_at = i;
            break;
        }
    }
    if (nf == 0 || (moves_at == 1 && strcmp(fields[0], "startpos") == 0)) {
        char start[sizeof CH_START_FEN];
        char *sf[6];
        memcpy(start, CH_START_FEN, sizeof CH_START_FEN);
        if (!ch_load_fen(s, sf, ch_split(start, sf, 6)))
            goto out;
    } else if (!ch_load_fen(s, fields, moves_at)) {
        goto out;
    }
    for (int i = moves_at + 1; i < nf; i++) {
        gts_move m;
        if (ch_parse_move(s, fields[i], &m, NULL) != 0 || ch_apply(s, m, NULL) != 0)
            goto out;
    }
    s->root = s->ply;
    *state = s;
    s = NULL;
    rc = GTS_OK;
out:
    free(copy);
    free(fields);
    free(s);
    return rc;
}
