/*
 * position.c - position texts of the built-in games, and why one was
 * refused (gts_games_position_new); the built-in games described as game
 * libraries (gts_games_plugin), so that a program treats both alike.
 *
 * A move-list text (tic-tac-toe, Connect-4, Othello, a random tree's child
 * indices) is checked in two passes: first the syntax of every move (so
 * that a bad character is reported wherever it is), then the moves are
 * played one by one on the start position through the game's vtable, and
 * the first one that cannot be played is explained: the game is over, the
 * cell, column or square is taken, the child does not exist. A Connect-4
 * move that makes four is refused too (the adapter keeps no finished
 * games). The adapter's own constructor stays the reference for what it
 * accepts: the walk only explains its refusal (and builds random-tree
 * positions, which have no constructor taking moves). A chess text is the
 * adapter's whole (gts_chess_new); a Go text is explained in go.c, which
 * knows its liberties and its superko.
 *
 * The messages are part of the `gts` tool's and `python3 -m gts`'s output
 * (doc/cli.md); both call this file, so they agree by construction.
 *
 * Concurrency: no global state but the descriptors of gts_games_plugin(),
 * filled once (pthread_once); every function is thread-safe.
 */
#include "gts_games.h"
#include "connect4_internal.h"
#include "games_internal.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum pos_kind { POS_TICTACTOE, POS_CONNECT4, POS_OTHELLO, POS_RANDTREE };

static const uint64_t OTHELLO_START_DISCS = (1ull << 27) | (1ull << 28) | (1ull << 35) |
                                            (1ull << 36); /* d4 e4 d5 e5 */
static const size_t CONNECT4_CELLS = 42;
/* Room for the list of an Othello position's legal moves in a message. */
enum { LEGAL_LIST_TEXT = 1024 };

void gts__games_say(char *why, size_t size, const char *fmt, ...)
{
    if (!why || size == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
}

static void describe_char(char c, char *buf, size_t size)
{
    unsigned char u = (unsigned char)c;
    if (u >= 0x21 && u < 0x7f)
        snprintf(buf, size, "'%c'", c);
    else
        snprintf(buf, size, "byte 0x%02x", u);
}

static bool othello_token_ok(const char *t, size_t n)
{
    if (n < 2)
        return false;
    char a = (char)(t[0] | 0x20), b = (char)(t[1] | 0x20);
    if (a == 'p' && b == 's')
        return true;
    return a >= 'a' && a <= 'h' && t[1] >= '1' && t[1] <= '8';
}

static bool randtree_token_ok(const char *t, size_t len)
{
    if (len == 0 || (len > 1 && t[0] == '0'))
        return false;
    for (size_t i = 0; i < len; i++)
        if (t[i] < '0' || t[i] > '9')
            return false;
    return true;
}

/* The next move of @p text (@p len bytes) at *pos: its offset in *start
 * (its 1-based column is *start + 1) and its length in *n; false at the
 * end. A random tree's moves are separated by commas, Othello's are two
 * characters, the others' one. */
static bool next_token(enum pos_kind kind, const char *text, size_t len, size_t *pos,
                       size_t *start, size_t *n)
{
    size_t i = *pos;
    if (kind == POS_RANDTREE) {
        if (i > len || (i == len && (len == 0 || text[len - 1] != ',')))
            return false;
        *n = strcspn(text + i, ",");
    } else {
        if (i >= len)
            return false;
        *n = kind == POS_OTHELLO ? (i + 1 < len ? 2 : 1) : 1;
    }
    *start = i;
    *pos = i + *n + (kind == POS_RANDTREE ? 1 : 0);
    return true;
}

/* Pass 1: the syntax of every move. */
static gts_status check_syntax(enum pos_kind kind, const char *text, char *why, size_t size)
{
    size_t len = strlen(text);
    if (kind == POS_TICTACTOE || kind == POS_CONNECT4) {
        char hi = kind == POS_TICTACTOE ? '9' : '7';
        for (size_t i = 0; i < len; i++) {
            if (text[i] < '1' || text[i] > hi) {
                char d[32];
                describe_char(text[i], d, sizeof d);
                gts__games_say(why, size, "bad character %s at column %zu (expected digits 1-%c)",
                               d, i + 1, hi);
                return GTS_EPARSE;
            }
        }
        if (kind == POS_CONNECT4 && len > CONNECT4_CELLS) {
            gts__games_say(why, size, "too long: %zu moves (a position has at most %zu)", len,
                           CONNECT4_CELLS);
            return GTS_EPARSE;
        }
        return GTS_OK;
    }
    size_t pos = 0, at, n;
    for (int k = 1; next_token(kind, text, len, &pos, &at, &n); k++) {
        const char *t = text + at;
        if (kind == POS_RANDTREE && n == 0) {
            gts__games_say(
                why, size,
                "move %d: empty move at column %zu (expected a child index such as 0 or 3)", k,
                at + 1);
            return GTS_EPARSE;
        }
        if (kind == POS_OTHELLO ? othello_token_ok(t, n) : randtree_token_ok(t, n))
            continue;
        char *esc = gts__games_escape(t, n);
        if (!esc)
            return GTS_ENOMEM;
        if (kind == POS_RANDTREE)
            gts__games_say(
                why, size,
                "move %d: bad move '%s' at column %zu (expected a child index such as 0 or 3)", k,
                esc, at + 1);
        else if (n < 2)
            gts__games_say(why, size,
                           "move %d: '%s' at column %zu is incomplete (a move is two characters: a "
                           "square a1-h8 or ps)",
                           k, esc, at + 1);
        else
            gts__games_say(why, size,
                           "move %d: bad move '%s' at column %zu (expected a square a1-h8 or ps)",
                           k, esc, at + 1);
        free(esc);
        return GTS_EPARSE;
    }
    return GTS_OK;
}

static gts_status start_state(enum pos_kind kind, const gts_randtree_params *tree, void **state)
{
    switch (kind) {
    case POS_TICTACTOE: return gts_tictactoe_new("", state);
    case POS_CONNECT4: return gts_connect4_new("", state);
    case POS_OTHELLO: return gts_othello_new("", state);
    default: return gts_randtree_new(tree, state);
    }
}

/* Why the game @p g, at move @p k (text @p tok), has no move. */
static void explain_over(enum pos_kind kind, const gts_game *g, void *state, int k,
                         const char *tok, char *why, size_t size)
{
    switch (kind) {
    case POS_TICTACTOE:
        if (g->evaluate(state, g->user) != 0)
            gts__games_say(
                why, size,
                "move %d (cell %s): the game is already over: move %d made three in a row", k, tok,
                k - 1);
        else
            gts__games_say(why, size,
                           "move %d (cell %s): the game is already over: the board is full", k,
                           tok);
        break;
    case POS_CONNECT4:
        gts__games_say(why, size, "move %d (column %s): the game is already over", k, tok);
        break;
    case POS_OTHELLO:
        gts__games_say(why, size, "move %d (%s): the game is already over: neither side can move",
                       k, tok);
        break;
    default:
        gts__games_say(why, size,
                       "move %d (child %s): the game is over: the node at depth %d is a leaf", k,
                       tok, k - 1);
        break;
    }
}

/* Why move @p tok (the @p k-th) is not one of the @p n legal @p moves. */
static void explain_illegal(enum pos_kind kind, const gts_game *g, void *state, int k,
                            const char *tok, const gts_move *moves, int n, uint64_t occupied,
                            char *why, size_t size)
{
    char list[LEGAL_LIST_TEXT];
    switch (kind) {
    case POS_TICTACTOE:
        gts__games_say(why, size, "move %d: cell %s is already taken", k, tok);
        break;
    case POS_CONNECT4:
        gts__games_say(why, size, "move %d: column %s is full", k, tok);
        break;
    case POS_OTHELLO:
        gts_games_format_moves(g, state, moves, (size_t)n, false, list, sizeof list);
        if ((tok[0] | 0x20) == 'p')
            gts__games_say(why, size,
                           "move %d: %s (pass) is not legal here: the side to move has moves (%s)",
                           k, tok, list);
        else if (occupied & (1ull << (((tok[1] - '1') * 8) + ((tok[0] | 0x20) - 'a'))))
            gts__games_say(why, size, "move %d: %s is not legal here: the square is occupied", k,
                           tok);
        else
            gts__games_say(why, size, "move %d: %s is not legal here: it flips no disc (legal: %s)",
                           k, tok, list);
        break;
    default:
        gts__games_say(why, size,
                       "move %d: child %s does not exist: the node has %d child%s (0..%d)", k, tok,
                       n, n == 1 ? "" : "ren", n - 1);
        break;
    }
}

/* Pass 2: play the moves of @p text (its syntax checked) on the start
 * position; the state, or a negative status with the first bad move
 * explained. */
static gts_status play_position(enum pos_kind kind, const gts_game *g,
                                const gts_randtree_params *tree, const char *text, void **out,
                                char *why, size_t size)
{
    void *state = NULL;
    gts_status rc = start_state(kind, tree, &state);
    if (rc != GTS_OK) {
        gts__games_say(why, size, "cannot build the position: %s", gts_strerror(rc));
        return rc;
    }
    size_t len = strlen(text);
    gts_move *moves = malloc(((size_t)g->max_moves + 1) * sizeof *moves);
    char *tok = malloc(len + 1);
    if (!moves || !tok) {
        free(moves);
        free(tok);
        gts_games_free(g, state);
        return GTS_ENOMEM;
    }
    uint64_t occupied = OTHELLO_START_DISCS;
    size_t pos = 0, at, tlen;
    rc = GTS_OK;
    for (int k = 1; rc == GTS_OK && next_token(kind, text, len, &pos, &at, &tlen); k++) {
        memcpy(tok, text + at, tlen);
        tok[tlen] = '\0';
        int n = g->generate(state, moves, g->max_moves, g->user);
        bool pass = kind == POS_OTHELLO && (tok[0] | 0x20) == 'p';
        if (kind == POS_OTHELLO && !pass && n == 1 && moves[0] == GTS_OTHELLO_PASS) {
            /* A square given while the side to move must pass: the pass is
             * implied, as in gts_othello_new(). */
            if (g->apply(state, GTS_OTHELLO_PASS, g->user) != 0)
                n = -1;
            else
                n = g->generate(state, moves, g->max_moves, g->user);
        }
        rc = GTS_EPARSE;
        gts_move m = 0;
        if (n < 0)
            gts__games_say(why, size, "move %d: the game cannot generate moves here: %s", k,
                           gts_strerror(n));
        else if (n == 0)
            explain_over(kind, g, state, k, tok, why, size);
        else if (!g->parse_move || g->parse_move(state, tok, &m, g->user) != 0)
            explain_illegal(kind, g, state, k, tok, moves, n, occupied, why, size);
        else if (g->apply(state, m, g->user) != 0)
            gts__games_say(why, size, "move %d: '%s' could not be played", k, tok);
        else
            rc = GTS_OK;
        if (rc != GTS_OK)
            break;
        if (kind == POS_OTHELLO && m != GTS_OTHELLO_PASS)
            occupied |= 1ull << m;
        if (kind == POS_CONNECT4 && g->generate(state, moves, g->max_moves, g->user) == 0 &&
            g->evaluate(state, g->user) != 0) {
            gts__games_say(why, size,
                           "move %d (column %s) wins the game: the position is already decided", k,
                           tok);
            rc = GTS_EPARSE;
        }
    }
    free(tok);
    free(moves);
    if (rc != GTS_OK) {
        gts_games_free(g, state);
        return rc;
    }
    *out = state;
    return GTS_OK;
}

/* The random tree of the `gts` tool's defaults (doc/cli.md). */
static void randtree_defaults(gts_randtree_params *p)
{
    memset(p, 0, sizeof *p);
    p->struct_size = sizeof *p;
    p->seed = 1;
    p->branching = 8;
    p->depth = 8;
    p->min_value = -1000;
    p->max_value = 1000;
}

static gts_status chess_position_new(const char *text, void **state, char *why, size_t size)
{
    /* A FEN (or "startpos"), optionally with "moves ...": the adapter
     * parses it whole. */
    gts_status rc = gts_chess_new(text, state);
    if (rc == GTS_EPARSE)
        gts__games_say(
            why, size,
            "not a legal position (expected startpos or a FEN, optionally followed by moves and "
            "UCI moves such as e2e4)");
    else if (rc != GTS_OK)
        gts__games_say(why, size, "cannot build the position: %s", gts_strerror(rc));
    return rc;
}

gts_status gts_games_position_new(const char *name, const gts_randtree_params *tree,
                                  const char *text, void **state, char *why, size_t size)
{
    if (why && size > 0)
        why[0] = '\0';
    if (!state) {
        gts__games_say(why, size, "no place for the state");
        return GTS_EINVAL;
    }
    *state = NULL;
    const gts_game *g = gts_games_find(name);
    if (!g) {
        gts__games_say(why, size, "unknown game");
        return GTS_EINVAL;
    }
    if (!text)
        text = "";
    enum pos_kind kind;
    if (strcmp(name, "chess") == 0)
        return chess_position_new(text, state, why, size);
    if (strcmp(name, "go") == 0)
        return gts__go_position_new(text, state, why, size);
    if (strcmp(name, "tictactoe") == 0)
        kind = POS_TICTACTOE;
    else if (strcmp(name, "connect4") == 0 || strcmp(name, "connect4h") == 0)
        kind = POS_CONNECT4; /* connect4h: connect4's states */
    else if (strcmp(name, "othello") == 0)
        kind = POS_OTHELLO;
    else
        kind = POS_RANDTREE;
    gts_randtree_params defaults;
    if (kind == POS_RANDTREE && !tree) {
        randtree_defaults(&defaults);
        tree = &defaults;
    }
    gts_status rc = check_syntax(kind, text, why, size);
    if (rc != GTS_OK)
        return rc;
    switch (kind) {
    case POS_TICTACTOE: rc = gts_tictactoe_new(text, state); break;
    case POS_CONNECT4: rc = gts_connect4_new(text, state); break;
    case POS_OTHELLO: rc = gts_othello_new(text, state); break;
    default: return play_position(kind, g, tree, text, state, why, size);
    }
    if (rc == GTS_OK)
        return rc;
    *state = NULL;
    if (rc != GTS_EPARSE) {
        gts__games_say(why, size, "cannot build the position: %s", gts_strerror(rc));
        return rc;
    }
    void *walked = NULL;
    rc = play_position(kind, g, tree, text, &walked, why, size);
    if (rc != GTS_OK)
        return rc;
    gts_games_free(g, walked);
    gts__games_say(why, size, "position refused by the adapter");
    return GTS_EPARSE;
}

/* ---- whose turn a position text leaves --------------------------------------- */

gts_status gts_games_position_turn(const char *name, const gts_randtree_params *tree,
                                   const char *text, int *side, int *plies)
{
    if (!side)
        return GTS_EINVAL;
    void *state;
    gts_status rc = gts_games_position_new(name, tree, text, &state, NULL, 0);
    if (rc != GTS_OK)
        return rc;
    int n = 0;
    if (strcmp(name, "chess") == 0) {
        *side = gts__chess_turn(state, &n);
    } else if (strcmp(name, "go") == 0) {
        *side = gts__go_turn(state, &n);
    } else if (strcmp(name, "tictactoe") == 0) {
        *side = gts__tictactoe_turn(state, &n);
    } else if (strcmp(name, "othello") == 0) {
        *side = gts__othello_turn(state, &n);
    } else if (strcmp(name, "randtree") == 0) {
        *side = gts__randtree_turn(state, &n);
    } else { /* connect4, connect4h: Connect-4's states */
        uint64_t position, mask;
        uint32_t moves;
        gts__connect4_bits(state, &position, &mask, &moves);
        n = (int)moves;
        *side = (int)(moves & 1);
    }
    gts_games_free(gts_games_find(name), state);
    if (plies)
        *plies = n;
    return GTS_OK;
}

/* ---- the built-in games as game libraries ---------------------------------- */

/* One position_new() per game: the descriptor's callback knows no name.
 * randtree's takes its parameters from the user pointer. */
#define GAMES_POSITION_NEW(fn, game)                                                        \
    static int fn(const char *text, void **state, char *why, size_t size, void *user)     \
    {                                                                                       \
        return gts_games_position_new(game, user, text, state, why, size);                 \
    }
GAMES_POSITION_NEW(tictactoe_position_new, "tictactoe")
GAMES_POSITION_NEW(connect4_position_new, "connect4")
GAMES_POSITION_NEW(connect4h_position_new, "connect4h")
GAMES_POSITION_NEW(othello_position_new, "othello")
GAMES_POSITION_NEW(chess_text_new, "chess")
GAMES_POSITION_NEW(go_text_new, "go")
GAMES_POSITION_NEW(randtree_position_new, "randtree")

static const struct {
    const char *name;
    int (*position_new)(const char *, void **, char *, size_t, void *);
    const char *moves_prefix, *moves_separator;
} PLUGIN_ROWS[] = {
    { "tictactoe", tictactoe_position_new, "", "" },
    { "connect4", connect4_position_new, "", "" },
    { "connect4h", connect4h_position_new, "", "" },
    { "chess", chess_text_new, "startpos moves ", " " },
    { "go", go_text_new, "moves=", "," },
    { "othello", othello_position_new, "", "" },
    { "randtree", randtree_position_new, "", "," },
};
enum { PLUGIN_COUNT = sizeof PLUGIN_ROWS / sizeof PLUGIN_ROWS[0] };

/* The vtables are behind functions, not address constants: the
 * descriptors are filled once, on first use. */
static gts_plugin plugins[PLUGIN_COUNT];
static pthread_once_t plugins_once = PTHREAD_ONCE_INIT;

static void plugins_init(void)
{
    for (size_t i = 0; i < PLUGIN_COUNT; i++) {
        plugins[i].struct_size = sizeof plugins[i];
        plugins[i].name = PLUGIN_ROWS[i].name;
        plugins[i].game = gts_games_find(PLUGIN_ROWS[i].name);
        plugins[i].position_new = PLUGIN_ROWS[i].position_new;
        plugins[i].user = NULL;
        plugins[i].moves_prefix = PLUGIN_ROWS[i].moves_prefix;
        plugins[i].moves_separator = PLUGIN_ROWS[i].moves_separator;
    }
}

const gts_plugin *gts_games_plugin(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < PLUGIN_COUNT; i++) {
        if (strcmp(name, PLUGIN_ROWS[i].name) == 0) {
            pthread_once(&plugins_once, plugins_init);
            return &plugins[i];
        }
    }
    return NULL;
}
