/*
 * remote.h - how a tool's command lets another program (gts-mpi,
 * mpi/gts-mpi.c) run some of its searches on every rank of an MPI job.
 *
 * The command keeps its own input, output and rules; only the search call
 * changes. It hands the hook the position as every process can rebuild it
 * (a cli_recipe: a built-in game's name and position text, and the moves
 * applied since), so no game needs a way to serialise its state. `gts match`
 * (cmd_match_remote) and gts-gtp (gtp_main) take a cli_remote; NULL, as
 * `gts` and the plain gts-gtp pass it, means every search is local.
 */
#ifndef GTS_TOOLS_REMOTE_H
#define GTS_TOOLS_REMOTE_H

#include <gts/gts.h>
#include "gts_games.h"

#include <stddef.h>

/* A position any process can rebuild: gts_games_position_new(game, tree,
 * text), then apply() of moves[0..nmoves-1] in order. */
typedef struct cli_recipe {
    const char *game;                /* a built-in game's name */
    const gts_randtree_params *tree; /* randtree's parameters, or NULL */
    const char *text;                /* the position text */
    const gts_move *moves;           /* applied since, in order */
    size_t nmoves;
} cli_recipe;

typedef struct cli_remote {
    /* Search @p state (the position of @p recipe, on the caller's
     * process) as gts_search(engine, alg, game, state, limits, result)
     * would, but with every rank: the same status and result on rank 0.
     * MCTS trees are reused as the caller would with gts_mcts_advance():
     * when @p recipe continues the last one searched with @p engine (the
     * same text, its moves and more), every rank's tree follows the moves
     * since, so the caller does not advance @p engine itself (since 0.3). */
    gts_status (*search)(void *ctx, gts_engine *engine, gts_algorithm alg, const gts_game *game,
                         void *state, const cli_recipe *recipe, const gts_limits *limits,
                         gts_result *result);
    void *ctx;
} cli_remote;

/* `gts match` whose set-ups with mpi=1 search through @p remote (cmd_match.c);
 * cmd_match() is cmd_match_remote(argc, argv, NULL), which refuses mpi=1. */
int cmd_match_remote(int argc, char **argv, const cli_remote *remote);

/* gts-gtp's program (tools/gts-gtp.c); with @p remote every genmove search
 * is remote->search() of GTS_ALG_MCTS. */
int gtp_main(int argc, char **argv, const cli_remote *remote);

#endif
