/*
 * games.c - the common part of libgts-games: freeing states, finding a game
 * by name, perft (counting leaf paths) and the text of moves over any
 * gts_game, and the escaping of position text in refusal messages
 * (position.c, go.c).
 *
 * perft walks the tree with generate/apply/undo only, using one moves buffer
 * of max_moves entries per ply. A node without moves before the target
 * depth counts as one leaf. Every applied move is undone before returning,
 * also when a callback fails, so the caller's state is unchanged.
 *
 * Concurrency: no global state; perft on distinct states may run in parallel.
 */
#include "gts_games.h"
#include "games_internal.h"

#include <stdio.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    const gts_game *(*get)(void);
} GAMES_TABLE[] = {
    { "tictactoe", gts_game_tictactoe },
    { "connect4", gts_game_connect4 },
    { "connect4h", gts_game_connect4h },
    { "chess", gts_game_chess },
    { "go", gts_game_go },
    { "othello", gts_game_othello },
    { "randtree", gts_game_randtree },
};

void gts_games_free(const gts_game *game, void *state)
{
    if (game && state && game->free)
        game->free(state, game->user);
}

const gts_game *gts_games_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof GAMES_TABLE / sizeof GAMES_TABLE[0]; i++)
        if (strcmp(name, GAMES_TABLE[i].name) == 0)
            return GAMES_TABLE[i].get();
    return NULL;
}

/* Leaf paths of depth @p depth below @p state; @p buf holds max_moves per ply. */
static int perft_rec(const gts_game *g, void *state, int depth, gts_move *buf, uint64_t *count)
{
    if (depth == 0) {
        (*count)++;
        return 0;
    }
    int n = g->generate(state, buf, g->max_moves, g->user);
    if (n < 0)
        return n;
    if ((uint32_t)n > g->max_moves)
        return GTS_EMOVES;
    if (n == 0) {
        (*count)++;
        return 0;
    }
    for (int i = 0; i < n; i++) {
        int rc = g->apply(state, buf[i], g->user);
        if (rc < 0)
            return rc;
        rc = perft_rec(g, state, depth - 1, buf + g->max_moves, count);
        int urc = g->undo(state, buf[i], g->user);
        if (rc < 0)
            return rc;
        if (urc < 0)
            return urc;
    }
    return 0;
}

int gts_games_perft(const gts_game *game, void *state, int depth, uint64_t *count)
{
    if (!game || !state || !count || depth < 0 || depth > GTS_MAX_DEPTH)
        return GTS_EINVAL;
    if (game->struct_size < GTS_GAME_SIZE_V0_1 || !game->generate || !game->apply ||
        !game->undo || game->max_moves < 1 || game->max_moves > 65535)
        return GTS_EINVAL;
    uint64_t n = 0;
    if (depth == 0) {
        *count = 1;
        return 0;
    }
    gts_move *buf = malloc((size_t)depth * game->max_moves * sizeof *buf);
    if (!buf)
        return GTS_ENOMEM;
    int rc = perft_rec(game, state, depth, buf, &n);
    free(buf);
    if (rc < 0)
        return rc;
    *count = n;
    return 0;
}

char *gts__games_escape(const char *s, size_t len)
{
    char *out = malloc(4 * len + 1);
    if (!out)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x21 && c < 0x7f)
            out[n++] = (char)c;
        else
            n += (size_t)snprintf(out + n, 5, "\\x%02x", c);
    }
    out[n] = '\0';
    return out;
}

void gts_games_format_move(const gts_game *game, void *state, gts_move move, char *buf,
                           size_t size)
{
    if (!buf || size == 0)
        return;
    if (!game || move == GTS_MOVE_NONE)
        snprintf(buf, size, "%s", move == GTS_MOVE_NONE ? "none" : "");
    else if (!game->format_move || game->format_move(state, move, buf, size, game->user) < 0)
        snprintf(buf, size, "%llu", (unsigned long long)move);
}

int gts_games_format_moves(const gts_game *game, void *state, const gts_move *moves, size_t n,
                           bool line, char *buf, size_t size)
{
    if (!game || !buf || size == 0 || (n > 0 && !moves))
        return GTS_EINVAL;
    size_t used = 0, applied = 0, written = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char mv[64];
        gts_games_format_move(game, state, moves[i], mv, sizeof mv);
        int w = snprintf(buf + used, size - used, "%s%s", i ? " " : "", mv);
        if (w < 0 || (size_t)w >= size - used) {
            buf[used] = '\0'; /* no piece of a move */
            break;
        }
        used += (size_t)w;
        written++;
        if (line && i + 1 < n) {
            if (game->apply(state, moves[i], game->user) != 0)
                break;
            applied++;
        }
    }
    while (applied > 0) {
        applied--;
        game->undo(state, moves[applied], game->user);
    }
    return (int)(written < (size_t)INT_MAX ? written : (size_t)INT_MAX);
}

void *gts__games_clone_flat(const void *state, size_t size)
{
    if (!state)
        return NULL;
    void *copy = malloc(size);
    if (copy)
        memcpy(copy, state, size);
    return copy;
}

void gts__games_free_flat(void *state, void *user)
{
    (void)user;
    free(state);
}
