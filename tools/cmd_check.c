/*
 * cmd_check.c - `gts check`: run gts_game_check() (gts/check.h) on a game,
 * built-in or from a game library (tools/plugin.c), and print its verdict
 * (doc/cli.md, "check"). The adapter author's first command after writing
 * a game: it says which promise of the gts_game contract is broken and
 * the moves that lead there.
 */
#include "cli.h"
#include "cmds.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char CHECK_USAGE[] =
    "Usage: gts check GAME [POSITION] [--seed S] [--walks N] [--walk-length L]\n"
    "                 [--depth D] [--positions N]\n"
    "\n"
    "Check GAME's adapter against the gts_game contract from POSITION (default:\n"
    "the start) with gts_game_check(): random walks, reproducible from the seed;\n"
    "at every position the moves, apply/undo, keys, clones, bounds, move text and\n"
    "playouts; exact algorithms against minimax at a few positions. Prints\n"
    "'verdict OK' or the first broken promise, what is wrong and the moves to it.\n"
    "GAME is a built-in game or a game library's path (a name with a '/').\n"
    "Exit status 0 when the adapter passed, 1 when it did not.\n"
    "\n"
    "Options (0 or absent: the library's default):\n"
    "  --seed S          seed of the random walks (default 0)\n"
    "  --walks N         random walks, 0..1000000 (default 16)\n"
    "  --walk-length L   most plies of a walk, 0..120 (default 24)\n"
    "  --depth D         depth of the bounds and algorithm checks, 0..8 (default 3)\n"
    "  --positions N     positions where every exact algorithm is compared with\n"
    "                    minimax (default 4; -1 skips the comparison)\n"
    "  -h, --help        this help\n";

int cmd_check(int argc, char **argv)
{
    cli_game_opts go;
    cli_game_opts_init(&go);
    gts_check_options co;
    memset(&co, 0, sizeof co);
    co.struct_size = sizeof co;
    bool seed_given = false;
    cli_opt seed = CLI_U64("seed", &go.tree.seed); /* the walks' seed (and a random tree's) */
    seed.seen = &seed_given;
    const cli_opt opts[] = {
        CLI_U32("walks", &co.walks, 0, 1000000),
        CLI_U32("walk-length", &co.walk_length, 0, GTS_MAX_PLY - 8),
        CLI_I32("depth", &co.depth, 0, 8),
        CLI_I32("positions", &co.algorithm_positions, -1, 1000000),
        seed,
        CLI_TREE_OPTIONS(&go),
    };
    char games[256];
    snprintf(games, sizeof games, "%s, or a game library's path", cli_game_names);
    int rc = cli_parse_game_command("check", CHECK_USAGE, games, argc, argv, opts,
                                    CLI_NOPTS(opts), &go);
    if (rc != CLI_OK)
        return cli_done(rc);
    if (seed_given)
        co.seed = go.tree.seed;

    void *state;
    const gts_game *g = cli_game_new(&go, "check", &state);
    if (!g)
        return CLI_USAGE;
    gts_check_report rep;
    memset(&rep, 0, sizeof rep);
    rep.struct_size = sizeof rep;
    gts_status st = gts_game_check(g, state, &co, &rep);
    gts_games_free(g, state);
    if (st != GTS_OK) {
        cli_error("the check could not run: %s (%s)", gts_strerror(st),
                  gts_status_name(st));
        return CLI_FAIL;
    }
    const char *vname = gts_check_violation_name(rep.violation);
    printf("verdict %s\n", vname ? vname : "?");
    printf("positions %" PRIu64 "\n", rep.positions);
    if (rep.violation == GTS_CHECK_OK)
        return CLI_OK;
    printf("message %s\n", rep.message);
    if (rep.violation == GTS_CHECK_CALLBACK_FAILED)
        printf("callback_status %d\n", (int)rep.callback_status);
    if (rep.violation == GTS_CHECK_ALGORITHM)
        printf("algorithm %s\n", gts_algorithm_name(rep.algorithm));
    /* The path on a fresh state: the checked one may be what a broken
     * undo() left. */
    char path[8192] = "";
    if (rep.path_length > 0) {
        void *fresh;
        const gts_game *g2 = cli_game_new(&go, "check", &fresh);
        if (g2) {
            gts_games_format_moves(g2, fresh, rep.path, rep.path_length, true, path,
                                   sizeof path);
            gts_games_free(g2, fresh);
        }
    }
    printf("path %s\n", rep.path_length > 0 ? path : "(the position itself)");
    return CLI_FAIL;
}
