/*
 * tictactoe.c - the minimal libgts adapter: copy this to start your own.
 *
 * A game is a state you own plus a gts_game table of callbacks. The library
 * calls generate/apply/undo/evaluate (and hash, if given, for its
 * transposition table) and always leaves your state as it found it.
 *
 * Build: cc tictactoe.c $(pkg-config --cflags --libs gts)
 */
#include <gts/gts.h>
#include <stdio.h>
#include <string.h>

typedef struct board {
    char cell[9]; /* 0 empty, 1 X, 2 O */
    int turn;     /* 1 or 2: side to move */
    int filled;
} board;

static const int LINES[8][3] = {
    {0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6},
};

static int winner(const board *b)
{
    for (int i = 0; i < 8; i++) {
        char c = b->cell[LINES[i][0]];
        if (c && c == b->cell[LINES[i][1]] && c == b->cell[LINES[i][2]])
            return c;
    }
    return 0;
}

/* Legal moves: the empty cells, none once the game is over. */
static int generate(void *state, gts_move *moves, uint32_t capacity, void *user)
{
    board *b = state;
    int n = 0;
    (void)user; /* no game-wide data in this adapter */
    if (winner(b))
        return 0;
    for (int i = 0; i < 9 && (uint32_t)n < capacity; i++)
        if (!b->cell[i])
            moves[n++] = (gts_move)i;
    return n;
}

static int apply(void *state, gts_move m, void *user)
{
    board *b = state;
    (void)user;
    if (m > 8 || b->cell[m])
        return -1; /* the library turns this into GTS_ECALLBACK */
    b->cell[m] = (char)b->turn;
    b->turn = 3 - b->turn;
    b->filled++;
    return 0;
}

static int undo(void *state, gts_move m, void *user)
{
    board *b = state;
    (void)user;
    b->cell[m] = 0;
    b->turn = 3 - b->turn;
    b->filled--;
    return 0;
}

/* From the side to move: if someone has three in a row, it is the player who
 * just moved, so the side to move has lost. */
static gts_score evaluate(void *state, void *user)
{
    (void)user;
    return winner(state) ? GTS_SCORE_LOSS : 0;
}

static uint64_t hash(void *state, void *user)
{
    const board *b = state;
    (void)user;
    uint64_t h = (uint64_t)b->turn;
    for (int i = 0; i < 9; i++)
        h = h * 3 + (uint64_t)b->cell[i];
    return h;
}

static int format_move(void *state, gts_move m, char *buf, size_t size, void *user)
{
    (void)state;
    (void)user;
    return snprintf(buf, size, "%c%c", "abc"[m % 3], "321"[m / 3 % 3]);
}

int main(void)
{
    gts_game game = {
        .struct_size = sizeof game,
        .max_moves = 9,
        .generate = generate,
        .apply = apply,
        .undo = undo,
        .evaluate = evaluate,
        .hash = hash,
        .format_move = format_move,
    };
    board b = {.turn = 1};

    gts_engine *engine;
    if (gts_engine_new(&engine) != GTS_OK)
        return 1;
    gts_limits limits = {.struct_size = sizeof limits, .depth = 9};
    gts_result result = {.struct_size = sizeof result};
    int rc = gts_pvs(engine, &game, &b, &limits, &result);
    if (rc != GTS_OK) {
        fprintf(stderr, "search failed: %s\n", gts_strerror(rc));
        gts_engine_free(engine);
        return 1;
    }

    const char *verdict = result.score > 0 ? "X wins" : result.score < 0 ? "O wins" : "draw";
    printf("tic-tac-toe solved by libgts %s: %s (score %d)\n", gts_version_string(), verdict,
           result.score);
    printf("principal variation:");
    for (uint32_t i = 0; i < result.pv_length; i++) {
        char text[8];
        format_move(&b, result.pv[i], text, sizeof text, NULL);
        printf(" %s", text);
    }
    printf("\n%llu nodes, %llu TT hits, %.3f ms\n", (unsigned long long)result.nodes,
           (unsigned long long)result.tt_hits, result.time_us / 1000.0);
    gts_engine_free(engine);
    return 0;
}
