/*
 * solve.c - an out-of-tree program that uses libgts and libgts-games as
 * installed packages: <gts/gts_games.h> (which includes <gts/gts.h>), only
 * exported functions, flags from `pkg-config --cflags --libs gts gts-games`.
 * The README's "Installing into a prefix" commands build and run it, and
 * scripts/consumer-test runs those commands, then builds it again as C99
 * and as C++11.
 *
 * It solves tic-tac-toe with the built-in adapter (a draw), counts its
 * games (perft 9 = 255168), finds Connect-4 by name and solves a position
 * where the side to move wins with its next stone. Written in the common
 * subset of C99 and C++11 (no designated initialisers).
 */
#include <gts/gts_games.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "solve: FAIL: %s\n", what);
        failures++;
    }
}

static gts_status search(gts_engine *engine, const gts_game *game, void *state, int depth,
                         gts_result *result)
{
    gts_limits limits;
    memset(&limits, 0, sizeof limits);
    limits.struct_size = sizeof limits;
    limits.depth = depth;
    memset(result, 0, sizeof *result);
    result->struct_size = sizeof *result;
    return gts_pvs(engine, game, state, &limits, result);
}

int main(void)
{
    gts_engine *engine = NULL;
    if (gts_engine_new(&engine) != GTS_OK) {
        fprintf(stderr, "solve: FAIL: gts_engine_new\n");
        return 1;
    }

    /* Tic-tac-toe from the empty board: a draw, 255168 games. */
    const gts_game *ttt = gts_games_find("tictactoe");
    check(ttt == gts_game_tictactoe(), "gts_games_find(\"tictactoe\")");
    void *board = NULL;
    check(gts_tictactoe_new("", &board) == GTS_OK, "gts_tictactoe_new");
    gts_result ttt_result;
    check(search(engine, ttt, board, 9, &ttt_result) == GTS_OK, "gts_pvs on tic-tac-toe");
    check(ttt_result.score == 0, "tic-tac-toe is a draw");
    uint64_t games = 0;
    check(gts_games_perft(ttt, board, 9, &games) == 0 && games == 255168,
          "tic-tac-toe has 255168 games");
    gts_games_free(ttt, board);

    /* Connect-4 "445566": the first player, to move, completes its bottom row
     * in column 3 or 7 with the 7th stone: score (43 - 6) / 2 = 18. */
    const gts_game *c4 = gts_games_find("connect4");
    check(c4 != NULL, "gts_games_find(\"connect4\")");
    void *position = NULL;
    check(gts_connect4_new("445566", &position) == GTS_OK, "gts_connect4_new");
    gts_result c4_result;
    memset(&c4_result, 0, sizeof c4_result);
    if (c4 && position) {
        check(search(engine, gts_game_connect4_solver(), position, 1, &c4_result) == GTS_OK,
              "gts_pvs on Connect-4");
        check(c4_result.score == 18, "Connect-4 445566 scores 18");
    }
    gts_games_free(gts_game_connect4(), position);

    gts_engine_free(engine);
    printf("solve: libgts %s: tic-tac-toe is a draw (%llu games); Connect-4 445566 scores %d; %s\n",
           gts_version_string(), (unsigned long long)games, (int)c4_result.score,
           failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
