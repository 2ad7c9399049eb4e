/*
 * consumer.c - an out-of-tree program that uses libgts as an installed
 * package: only <gts/gts.h>, only exported functions, flags from
 * `pkg-config --cflags --libs gts`. scripts/consumer-test builds it as C
 * and as C++ against a temporary install and runs it.
 *
 * It solves tic-tac-toe with every exact algorithm the library lists (a
 * draw) and a position where X, to move, wins at once, and checks both.
 * Written in the common subset of C99 and C++11 (no designated
 * initialisers, explicit casts from void *).
 */
#include <gts/gts.h>
#include <stdio.h>

/* The installed headers say 0.2, as the library's API does (issue 31). */
#if !(GTS_VERSION_MAJOR > 0 || GTS_VERSION_MINOR >= 2)
#error "the installed gts/version.h is older than 0.2"
#endif
#include <stdlib.h>
#include <string.h>

typedef struct board {
    char cell[9]; /* 0 empty, 1 X, 2 O */
    int turn;     /* 1 or 2: side to move */
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

static int generate(void *state, gts_move *moves, uint32_t capacity, void *user)
{
    const board *b = (const board *)state;
    int n = 0;
    (void)user;
    if (winner(b))
        return 0;
    for (int i = 0; i < 9 && (uint32_t)n < capacity; i++)
        if (!b->cell[i])
            moves[n++] = (gts_move)i;
    return n;
}

static int apply(void *state, gts_move m, void *user)
{
    board *b = (board *)state;
    (void)user;
    if (m > 8 || b->cell[m])
        return -1;
    b->cell[m] = (char)b->turn;
    b->turn = 3 - b->turn;
    return 0;
}

static int undo(void *state, gts_move m, void *user)
{
    board *b = (board *)state;
    (void)user;
    b->cell[m] = 0;
    b->turn = 3 - b->turn;
    return 0;
}

static gts_score evaluate(void *state, void *user)
{
    (void)user;
    return winner((const board *)state) ? GTS_SCORE_LOSS : 0;
}

static uint64_t hash(void *state, void *user)
{
    const board *b = (const board *)state;
    uint64_t h = (uint64_t)b->turn;
    (void)user;
    for (int i = 0; i < 9; i++)
        h = h * 3 + (uint64_t)b->cell[i];
    return h;
}

static void *clone_state(void *state, void *user)
{
    board *copy = (board *)malloc(sizeof *copy);
    (void)user;
    if (copy)
        memcpy(copy, state, sizeof *copy);
    return copy;
}

static void free_state(void *state, void *user)
{
    (void)user;
    free(state);
}

static int failures;

/* Limits to @depth and an empty result, as a program of the C99 subset
 * (no designated initialisers) sets them up. */
static void prepare(gts_limits *limits, gts_result *result, int depth)
{
    memset(limits, 0, sizeof *limits);
    limits->struct_size = sizeof *limits;
    limits->depth = depth;
    memset(result, 0, sizeof *result);
    result->struct_size = sizeof *result;
}

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "consumer: FAIL: %s\n", what);
        failures++;
    }
}

int main(void)
{
    gts_game game;
    memset(&game, 0, sizeof game);
    game.struct_size = sizeof game;
    game.max_moves = 9;
    game.generate = generate;
    game.apply = apply;
    game.undo = undo;
    game.evaluate = evaluate;
    game.hash = hash;
    game.clone = clone_state;
    game.free = free_state;

    check(gts_version() == GTS_VERSION_HEX, "run-time version == compile-time version");

    gts_engine *engine = NULL;
    if (gts_engine_new(&engine) != GTS_OK) {
        fprintf(stderr, "consumer: FAIL: gts_engine_new\n");
        return 1;
    }
    check(gts_engine_set(engine, GTS_OPT_THREADS, 2) == GTS_OK, "set 2 threads");

    gts_algorithm algs[64];
    int n = gts_algorithm_list(algs, 64);
    check(n > 0 && n <= 64, "gts_algorithm_list");
    int solved = 0;
    for (int i = 0; i < n && i < 64; i++) {
        if (!gts_algorithm_is_exact(algs[i]))
            continue;
        board b;
        memset(&b, 0, sizeof b);
        b.turn = 1;
        gts_limits limits;
        gts_result result;
        prepare(&limits, &result, 9);
        gts_status rc = gts_search(engine, algs[i], &game, &b, &limits, &result);
        if (rc != GTS_OK) {
            fprintf(stderr, "consumer: FAIL: %s: %s\n", gts_algorithm_name(algs[i]),
                    gts_strerror(rc));
            failures++;
            continue;
        }
        check(result.score == 0, "tic-tac-toe is a draw");
        check(b.turn == 1 && !winner(&b), "state restored");
        solved++;
    }
    check(solved >= 3, "at least minimax, alphabeta and pvs ran");

    /* X to move on  X X . / O O . / . . .  wins at once in the corner c3. */
    board won;
    memset(&won, 0, sizeof won);
    won.cell[0] = won.cell[1] = 1;
    won.cell[3] = won.cell[4] = 2;
    won.turn = 1;
    gts_limits limits;
    gts_result result;
    prepare(&limits, &result, 5);
    check(gts_pvs(engine, &game, &won, &limits, &result) == GTS_OK, "gts_pvs");
    check(result.best_move == 2, "best move completes the top row");
    check(gts_score_is_win(result.score) && gts_score_plies_to_end(result.score) == 1,
          "win in one ply");

    gts_engine_free(engine);
    printf("consumer: libgts %s (header %s): tic-tac-toe is a draw by %d exact algorithms; "
           "X wins in %d ply with move %llu; %s\n",
           gts_version_string(), GTS_VERSION_STRING, solved,
           gts_score_plies_to_end(result.score), (unsigned long long)result.best_move,
           failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
