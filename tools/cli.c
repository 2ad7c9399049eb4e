/*
 * cli.c - helpers shared by the commands of the `gts` tool: messages,
 * strict number parsing, games and engines built from command-line options,
 * output tables (text, CSV, JSON) and the stderr progress bar.
 *
 * Only the public API of libgts and libgts-games is used.
 */
#include "cli.h"
#include "plugin.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *cli_prog = "gts";
const char *cli_command = NULL;

/* "PROG COMMAND: " (doc/cli.md, "Messages"), or "PROG: " before a command. */
static void message_prefix(void)
{
    if (cli_command)
        fprintf(stderr, "%s %s: ", cli_prog, cli_command);
    else
        fprintf(stderr, "%s: ", cli_prog);
}

void cli_oom(void)
{
    message_prefix();
    fputs("out of memory\n", stderr);
    exit(CLI_FAIL);
}

/* ---- messages ------------------------------------------------------------- */

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message_prefix();
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message_prefix();
    fputs("warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (command)
        fprintf(stderr, "%s %s: ", cli_prog, command);
    else
        fprintf(stderr, "%s: ", cli_prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (command)
        fprintf(stderr, "Try '%s %s --help' for more information.\n", cli_prog, command);
    else
        fprintf(stderr, "Try '%s --help' for more information.\n", cli_prog);
    return CLI_USAGE;
}

/* ---- parsing --------------------------------------------------------------- */

bool cli_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
    if (!s)
        return false;
    const char *digits = *s == '-' ? s + 1 : s;
    if (*digits < '0' || *digits > '9')
        return false; /* no blanks, no '+' (strtoll would take them) */
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool cli_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max)
        return false;
    *out = v;
    return true;
}

bool cli_parse_int_option(const char *command, const char *name, const char *s, int64_t min,
                          int64_t max, int64_t *out)
{
    if (cli_parse_i64(s, min, max, out))
        return true;
    char *esc = cli_escaped(s);
    cli_usage_error(command, "%s: expected %" PRId64 "..%" PRId64 ", got '%s'", name, min, max,
                    esc);
    free(esc);
    return false;
}

bool cli_parse_u64_option(const char *command, const char *name, const char *s, uint64_t *out)
{
    if (cli_parse_u64(s, UINT64_MAX, out))
        return true;
    char *esc = cli_escaped(s);
    cli_usage_error(command, "%s: expected 0..%" PRIu64 ", got '%s'", name, UINT64_MAX, esc);
    free(esc);
    return false;
}

bool cli_parse_engine_option(const char *command, const char *name, gts_option opt,
                             const char *s, int64_t *out)
{
    int64_t lo = 0, hi = 0;
    if (gts_option_bounds(opt, &lo, &hi, NULL) != GTS_OK) {
        cli_error("the library does not know option %s", name);
        return false;
    }
    return cli_parse_int_option(command, name, s, lo, hi, out);
}

int cli_parse_int_list(const char *s, int min, int max, int *out, int cap)
{
    if (!s || !*s)
        return -1;
    int n = 0;
    const char *p = s;
    for (;;) {
        char *end;
        errno = 0;
        if (*p < '0' || *p > '9')
            return -1;
        long a = strtol(p, &end, 10);
        long b = a;
        if (errno)
            return -1;
        p = end;
        if (*p == '-') {
            p++;
            if (*p < '0' || *p > '9')
                return -1;
            b = strtol(p, &end, 10);
            if (errno)
                return -1;
            p = end;
        }
        if (a < min || b > max || a > b)
            return -1;
        for (long v = a; v <= b; v++) {
            if (n >= cap)
                return -1;
            out[n++] = (int)v;
        }
        if (*p == '\0')
            return n;
        if (*p != ',')
            return -1;
        p++;
    }
}

int cli_split_list(char *s, char **out, int cap)
{
    int n = 0;
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
        if (n >= cap)
            return -1;
        out[n++] = tok;
    }
    return n;
}

uint64_t cli_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

uint64_t cli_cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* ---- algorithms -------------------------------------------------------------- */

int cli_algorithms(gts_algorithm *out, int cap)
{
    int n = gts_algorithm_list(out, cap);
    return n < cap ? n : cap;
}

bool cli_algorithm(const char *command, const char *name, gts_algorithm *alg)
{
    if (gts_algorithm_from_name(name, alg) == GTS_OK)
        return true;
    gts_algorithm all[64];
    int n = cli_algorithms(all, 64);
    char known[1024];
    size_t used = 0;
    known[0] = '\0';
    for (int i = 0; i < n && used < sizeof known; i++) {
        int w = snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                         gts_algorithm_name(all[i]));
        if (w < 0)
            break;
        used += (size_t)w;
    }
    char *esc = cli_escaped(name);
    cli_usage_error(command, "unknown algorithm '%s' (known: %s)", esc, known);
    free(esc);
    return false;
}

/* ---- games ------------------------------------------------------------------- */

const char cli_game_names[] = "tictactoe, connect4, othello, chess, go, randtree";

const char cli_game_options_help[] =
    "Random-tree options (GAME randtree):\n"
    "  --seed S            tree seed (default 1)\n"
    "  --branching B       children per interior node, 1..64 (default 8)\n"
    "  --tree-depth D      depth of the tree, 1..60 (default 8)\n"
    "  --jitter K          branching varies in B-K..B (default 0)\n"
    "  --terminal P        percent chance an interior node is a leaf (default 0)\n"
    "  --ordered P         percent chance the first child is best (default 0)\n"
    "  --transpositions    share subtrees between paths\n"
    "  --min-value V, --max-value V   leaf value range (default -1000..1000)\n"
    "  A randtree POSITION is a comma-separated list of child indices (\"0,3,1\").\n";

void cli_game_opts_init(cli_game_opts *o)
{
    memset(o, 0, sizeof *o);
    o->tree.struct_size = sizeof o->tree;
    o->tree.seed = 1;
    o->tree.branching = 8;
    o->tree.depth = 8;
    o->tree.min_value = -1000;
    o->tree.max_value = 1000;
}

bool cli_game_option(cli_game_opts *o, int opt, const char *arg, const char *command, int *rc)
{
    int64_t v;
    *rc = CLI_OK;
    switch (opt) {
    case OPT_SEED:
        if (!cli_parse_u64_option(command, "--seed", arg, &o->tree.seed))
            *rc = CLI_USAGE;
        return true;
    case OPT_TRANSPOSITIONS:
        o->tree.transpositions = true;
        return true;
    case OPT_BRANCHING:
    case OPT_TREE_DEPTH:
    case OPT_JITTER:
    case OPT_TERMINAL:
    case OPT_ORDERED:
    case OPT_MIN_VALUE:
    case OPT_MAX_VALUE:
        break;
    default:
        return false;
    }
    /* The ranges of gts_randtree_params (gts_games.h). */
    static const struct {
        int opt;
        const char *name;
        int64_t min, max;
    } RANGES[] = {
        { OPT_BRANCHING, "--branching", 1, 64 },  { OPT_TREE_DEPTH, "--tree-depth", 1, 60 },
        { OPT_JITTER, "--jitter", 0, 63 },        { OPT_TERMINAL, "--terminal", 0, 100 },
        { OPT_ORDERED, "--ordered", 0, 100 },     { OPT_MIN_VALUE, "--min-value", -30000, 30000 },
        { OPT_MAX_VALUE, "--max-value", -30000, 30000 },
    };
    for (size_t i = 0; i < sizeof RANGES / sizeof RANGES[0]; i++) {
        if (RANGES[i].opt != opt)
            continue;
        if (!cli_parse_int_option(command, RANGES[i].name, arg, RANGES[i].min, RANGES[i].max,
                                  &v)) {
            *rc = CLI_USAGE;
            return true;
        }
        switch (opt) {
        case OPT_BRANCHING: o->tree.branching = (uint32_t)v; break;
        case OPT_TREE_DEPTH: o->tree.depth = (uint32_t)v; break;
        case OPT_JITTER: o->tree.branching_jitter = (uint32_t)v; break;
        case OPT_TERMINAL: o->tree.terminal_percent = (uint32_t)v; break;
        case OPT_ORDERED: o->tree.ordered_percent = (uint32_t)v; break;
        case OPT_MIN_VALUE: o->tree.min_value = (int32_t)v; break;
        default: o->tree.max_value = (int32_t)v; break;
        }
    }
    return true;
}

char *cli_escaped(const char *s)
{
    size_t len = strlen(s);
    char *out = malloc(4 * len + 1);
    if (!out)
        cli_oom();
    size_t n = 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x21 && c < 0x7f)
            out[n++] = (char)c;
        else
            n += (size_t)sprintf(out + n, "\\x%02x", c);
    }
    out[n] = '\0';
    return out;
}

/* ---- positions -------------------------------------------------------------
 *
 * A position text is checked in two passes, the same in python3 -m gts
 * (gts/cli.py, _position_new): first the syntax of every move (so that a bad
 * character is reported wherever it is), then the moves are played one by
 * one on the start position through the game's vtable, and the first one
 * that cannot be played is explained: the game is over, the cell, column or
 * square is taken, the child does not exist. A Connect-4 move that makes
 * four is refused too (the adapter keeps no finished games).
 */

enum pos_kind { POS_TICTACTOE, POS_CONNECT4, POS_OTHELLO, POS_RANDTREE };

static const uint64_t OTHELLO_START_DISCS = (1ull << 27) | (1ull << 28) | (1ull << 35) |
                                            (1ull << 36); /* d4 e4 d5 e5 */
static const size_t CONNECT4_CELLS = 42;

static void describe_char(char c, char *buf, size_t size)
{
    unsigned char u = (unsigned char)c;
    if (u >= 0x21 && u < 0x7f)
        snprintf(buf, size, "'%c'", c);
    else
        snprintf(buf, size, "byte 0x%02x", u);
}

static bool othello_token_ok(const char *t)
{
    char a = (char)(t[0] | 0x20), b = t[0] ? (char)(t[1] | 0x20) : '\0';
    if (a == 'p' && t[1] && b == 's')
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

/* The next move of @p text at *pos: its text in @p tok (at most @p size - 1
 * characters kept) and its 1-based column; false at the end. */
static bool next_token(enum pos_kind kind, const char *text, size_t *pos, char *tok, size_t size,
                       size_t *column, size_t *tok_len)
{
    size_t len = strlen(text), i = *pos, n;
    if (kind == POS_RANDTREE) {
        if (i > len || (i == len && (len == 0 || text[len - 1] != ',')))
            return false;
        n = strcspn(text + i, ",");
    } else {
        if (i >= len)
            return false;
        n = kind == POS_OTHELLO ? (i + 1 < len ? 2 : 1) : 1;
    }
    *column = i + 1;
    *tok_len = n;
    size_t keep = n < size ? n : size - 1;
    memcpy(tok, text + i, keep);
    tok[keep] = '\0';
    *pos = i + n + (kind == POS_RANDTREE ? 1 : 0);
    return true;
}

static void format_moves(const gts_game *g, void *state, const gts_move *moves, int n, char *buf,
                         size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        char mv[64];
        cli_format_move(g, state, moves[i], mv, sizeof mv);
        int w = snprintf(buf + used, size - used, "%s%s", i ? " " : "", mv);
        if (w < 0 || (size_t)w >= size - used)
            break;
        used += (size_t)w;
    }
}

/* Pass 1: the syntax of every move. */
static bool check_syntax(enum pos_kind kind, const char *text, char *why, size_t size)
{
    size_t len = strlen(text);
    if (kind == POS_TICTACTOE || kind == POS_CONNECT4) {
        char hi = kind == POS_TICTACTOE ? '9' : '7';
        for (size_t i = 0; i < len; i++) {
            if (text[i] < '1' || text[i] > hi) {
                char d[32];
                describe_char(text[i], d, sizeof d);
                snprintf(why, size, "bad character %s at column %zu (expected digits 1-%c)", d,
                         i + 1, hi);
                return false;
            }
        }
        if (kind == POS_CONNECT4 && len > CONNECT4_CELLS) {
            snprintf(why, size, "too long: %zu moves (a position has at most %zu)", len,
                     CONNECT4_CELLS);
            return false;
        }
        return true;
    }
    char tok[4096];
    size_t pos = 0, column, n;
    for (int k = 1; next_token(kind, text, &pos, tok, sizeof tok, &column, &n); k++) {
        char *esc = cli_escaped(tok);
        bool ok = true;
        if (kind == POS_OTHELLO && !othello_token_ok(tok)) {
            if (n < 2)
                snprintf(why, size,
                         "move %d: '%s' at column %zu is incomplete (a move is two characters: "
                         "a square a1-h8 or ps)",
                         k, esc, column);
            else
                snprintf(why, size,
                         "move %d: bad move '%s' at column %zu (expected a square a1-h8 or ps)", k,
                         esc, column);
            ok = false;
        } else if (kind == POS_RANDTREE && n == 0) {
            snprintf(why, size,
                     "move %d: empty move at column %zu (expected a child index such as 0 or 3)",
                     k, column);
            ok = false;
        } else if (kind == POS_RANDTREE && !randtree_token_ok(tok, n)) {
            snprintf(why, size,
                     "move %d: bad move '%s' at column %zu (expected a child index such as 0 or 3)",
                     k, esc, column);
            ok = false;
        }
        free(esc);
        if (!ok)
            return false;
    }
    return true;
}

static void *start_state(enum pos_kind kind, const gts_randtree_params *tree, gts_status *rc)
{
    void *state = NULL;
    switch (kind) {
    case POS_TICTACTOE: *rc = gts_tictactoe_new("", &state); break;
    case POS_CONNECT4: *rc = gts_connect4_new("", &state); break;
    case POS_OTHELLO: *rc = gts_othello_new("", &state); break;
    default: *rc = gts_randtree_new(tree, &state); break;
    }
    return *rc == GTS_OK ? state : NULL;
}

/* Pass 2: play the moves; the state, or NULL with the first bad move explained. */
static void *play_position(enum pos_kind kind, const gts_game *g, const gts_randtree_params *tree,
                           const char *text, char *why, size_t size)
{
    gts_status rc;
    void *state = start_state(kind, tree, &rc);
    if (!state) {
        snprintf(why, size, "cannot build the position: %s", gts_strerror(rc));
        return NULL;
    }
    gts_move *moves = malloc(((size_t)g->max_moves + 1) * sizeof *moves);
    if (!moves)
        cli_oom();
    uint64_t occupied = OTHELLO_START_DISCS;
    char tok[4096], list[1024];
    size_t pos = 0, column, tlen;
    bool ok = true;
    for (int k = 1; ok && next_token(kind, text, &pos, tok, sizeof tok, &column, &tlen); k++) {
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
        if (n < 0) {
            snprintf(why, size, "move %d: the game cannot generate moves here: %s", k,
                     gts_strerror(n));
            ok = false;
            break;
        }
        if (n == 0) {
            switch (kind) {
            case POS_TICTACTOE:
                if (g->evaluate(state, g->user) != 0)
                    snprintf(why, size,
                             "move %d (cell %s): the game is already over: move %d made three "
                             "in a row",
                             k, tok, k - 1);
                else
                    snprintf(why, size,
                             "move %d (cell %s): the game is already over: the board is full", k,
                             tok);
                break;
            case POS_CONNECT4:
                snprintf(why, size, "move %d (column %s): the game is already over", k, tok);
                break;
            case POS_OTHELLO:
                snprintf(why, size,
                         "move %d (%s): the game is already over: neither side can move", k, tok);
                break;
            default:
                snprintf(why, size,
                         "move %d (child %s): the game is over: the node at depth %d is a leaf", k,
                         tok, k - 1);
                break;
            }
            ok = false;
            break;
        }
        gts_move m = 0;
        if (!g->parse_move || g->parse_move(state, tok, &m, g->user) != 0) {
            switch (kind) {
            case POS_TICTACTOE:
                snprintf(why, size, "move %d: cell %s is already taken", k, tok);
                break;
            case POS_CONNECT4:
                snprintf(why, size, "move %d: column %s is full", k, tok);
                break;
            case POS_OTHELLO:
                format_moves(g, state, moves, n, list, sizeof list);
                if (pass)
                    snprintf(why, size,
                             "move %d: %s (pass) is not legal here: the side to move has moves "
                             "(%s)",
                             k, tok, list);
                else if (occupied &
                         (1ull << (((tok[1] - '1') * 8) + ((tok[0] | 0x20) - 'a'))))
                    snprintf(why, size, "move %d: %s is not legal here: the square is occupied",
                             k, tok);
                else
                    snprintf(why, size,
                             "move %d: %s is not legal here: it flips no disc (legal: %s)", k,
                             tok, list);
                break;
            default:
                snprintf(why, size,
                         "move %d: child %s does not exist: the node has %d child%s (0..%d)", k,
                         tok, n, n == 1 ? "" : "ren", n - 1);
                break;
            }
            ok = false;
            break;
        }
        if (g->apply(state, m, g->user) != 0) {
            snprintf(why, size, "move %d: '%s' could not be played", k, tok);
            ok = false;
            break;
        }
        if (kind == POS_OTHELLO && m != GTS_OTHELLO_PASS)
            occupied |= 1ull << m;
        if (kind == POS_CONNECT4 && g->generate(state, moves, g->max_moves, g->user) == 0 &&
            g->evaluate(state, g->user) != 0) {
            snprintf(why, size,
                     "move %d (column %s) wins the game: the position is already decided", k,
                     tok);
            ok = false;
        }
    }
    free(moves);
    if (!ok) {
        gts_games_free(g, state);
        return NULL;
    }
    return state;
}

/* ---- Go positions ------------------------------------------------------------
 *
 * A Go position is the adapter's text (gts_go_new, see gts_games.h): blank-
 * separated tokens SIZE, komi=K, maxmoves=N, patterns=0|1 and moves=V,V,... in
 * any order.
 * The adapter builds it; when it refuses the text, the steps below explain
 * why, in the adapter's order, the same in python3 -m gts (_go_explain):
 *   1. each token alone (gts_go_new of that one token, so that the rules of
 *      a size, a komi or a move cap stay the adapter's), a size given twice;
 *   2. the syntax of every move of the last moves= token (the one the
 *      adapter plays): parse_move on the empty board, where every vertex of
 *      the board and pass are legal;
 *   3. the moves played one by one: the game is over (two passes, the move
 *      cap), the point is occupied, suicide, or positional superko.
 */

static const char GO_COLUMN_LETTERS[] = "ABCDEFGHJKLMNOPQRST";
enum {
    GO_MAX_POINTS = 19 * 19, /* the largest board (gts_games.h) */
    GO_VERTEX_TEXT = 8,      /* room for a vertex text ("T19", "pass") and more */
};

/* Whether the string of the stone at (x, y) of @p grid (size * size
 * characters, row y = 0 first) has a liberty; @p seen is scratch space. */
static bool go_grid_has_liberty(const char *grid, int size, int x, int y, bool *seen)
{
    int stack[GO_MAX_POINTS], n = 0;
    char c = grid[y * size + x];
    memset(seen, 0, (size_t)(size * size) * sizeof *seen);
    stack[n++] = y * size + x;
    seen[y * size + x] = true;
    while (n > 0) {
        int p = stack[--n], px = p % size, py = p / size;
        const int dx[4] = { -1, 1, 0, 0 }, dy[4] = { 0, 0, -1, 1 };
        for (int i = 0; i < 4; i++) {
            int qx = px + dx[i], qy = py + dy[i];
            if (qx < 0 || qy < 0 || qx >= size || qy >= size)
                continue;
            int q = qy * size + qx;
            if (grid[q] == '.')
                return true;
            if (grid[q] == c && !seen[q]) {
                seen[q] = true;
                stack[n++] = q;
            }
        }
    }
    return false;
}

/* Whether the play of @p colour ('X' or 'O') at empty (x, y) is suicide: it
 * captures nothing and its string is left without liberties. */
static bool go_is_suicide(const char *board, int size, int x, int y, char colour)
{
    char grid[GO_MAX_POINTS];
    bool seen[GO_MAX_POINTS];
    for (int r = 0; r < size; r++) /* board: top row (y = size - 1) first */
        memcpy(grid + (size - 1 - r) * size, board + r * (size + 1), (size_t)size);
    grid[y * size + x] = colour;
    const int dx[4] = { -1, 1, 0, 0 }, dy[4] = { 0, 0, -1, 1 };
    for (int i = 0; i < 4; i++) {
        int qx = x + dx[i], qy = y + dy[i];
        if (qx < 0 || qy < 0 || qx >= size || qy >= size)
            continue;
        char q = grid[qy * size + qx];
        if (q != '.' && q != colour && !go_grid_has_liberty(grid, size, qx, qy, seen))
            return false; /* captures */
    }
    return !go_grid_has_liberty(grid, size, x, y, seen);
}

static bool go_token_ok(const char *tok, size_t len)
{
    char *one = malloc(len + 1);
    if (!one)
        cli_oom();
    memcpy(one, tok, len);
    one[len] = '\0';
    void *state = NULL;
    gts_status rc = gts_go_new(one, &state);
    free(one);
    if (rc == GTS_ENOMEM)
        cli_oom();
    gts_games_free(gts_game_go(), state);
    return rc == GTS_OK;
}

/* A quoted piece of the text for a message: 'TEXT' escaped. */
static void go_quote(const char *t, size_t len, char *buf, size_t size)
{
    char *raw = malloc(len + 1);
    if (!raw)
        cli_oom();
    memcpy(raw, t, len);
    raw[len] = '\0';
    char *esc = cli_escaped(raw);
    snprintf(buf, size, "'%s'", esc);
    free(esc);
    free(raw);
}

/* Why gts_go_new refused @p text (steps 1-3 above), into @p why. */
static void go_explain(const char *text, char *why, size_t size)
{
    const gts_game *g = gts_game_go();
    size_t len = strlen(text);
    char *base = malloc(len + 2), q[8192];
    if (!base)
        cli_oom();
    size_t base_len = 0, moves_at = 0, moves_len = 0;
    bool have_size = false, have_moves = false;
    int board = 9;
    /* Step 1. The tokens, each alone. */
    for (size_t i = 0; i < len;) {
        if (text[i] == ' ' || text[i] == '\t') {
            i++;
            continue;
        }
        size_t n = strcspn(text + i, " \t"), col = i + 1;
        const char *t = text + i, *eq = memchr(t, '=', n);
        size_t klen = eq ? (size_t)(eq - t) : n;
        bool digits = !eq && n > 0;
        for (size_t j = 0; digits && j < n; j++)
            digits = t[j] >= '0' && t[j] <= '9';
        i += n;
        if (eq && klen == 5 && memcmp(t, "moves", 5) == 0) {
            have_moves = true;
            moves_at = (size_t)(eq + 1 - text);
            moves_len = n - 6;
            continue;
        }
        if (digits) {
            go_quote(t, n, q, sizeof q);
            if (have_size) {
                snprintf(why, size, "board size %s at column %zu given twice", q, col);
                goto out;
            }
            if (!go_token_ok(t, n)) {
                snprintf(why, size, "bad board size %s at column %zu (expected 2..19)", q, col);
                goto out;
            }
            have_size = true;
            board = atoi(t);
        } else if (eq && ((klen == 4 && memcmp(t, "komi", 4) == 0) ||
                          (klen == 8 && memcmp(t, "maxmoves", 8) == 0) ||
                          (klen == 8 && memcmp(t, "patterns", 8) == 0))) {
            if (!go_token_ok(t, n)) {
                go_quote(eq + 1, n - klen - 1, q, sizeof q);
                if (klen == 4)
                    snprintf(why, size,
                             "bad komi %s at column %zu (expected a multiple of 0.5 within "
                             "-150..150)",
                             q, col + 5);
                else if (memcmp(t, "patterns", 8) == 0)
                    snprintf(why, size, "bad patterns %s at column %zu (expected 0 or 1)", q,
                             col + 9);
                else
                    snprintf(why, size, "bad maxmoves %s at column %zu (expected 1..100000)", q,
                             col + 9);
                goto out;
            }
        } else {
            go_quote(t, n, q, sizeof q);
            snprintf(why, size,
                     "unknown token %s at column %zu (expected SIZE, komi=K, maxmoves=N, "
                     "patterns=0|1 or moves=V,V,...)",
                     q, col);
            goto out;
        }
        memcpy(base + base_len, t, n);
        base_len += n;
        base[base_len++] = ' ';
    }
    base[base_len] = '\0';
    void *state = NULL;
    gts_status rc = gts_go_new(base, &state);
    if (rc != GTS_OK) {
        snprintf(why, size, "cannot build the position: %s", gts_strerror(rc));
        goto out;
    }
    /* Step 2. The syntax of every move, on the empty board. */
    const char *mv = text + moves_at;
    char tok[GO_VERTEX_TEXT];
    int k = 1;
    for (size_t i = 0; have_moves && moves_len > 0 && i <= moves_len; k++) {
        size_t n = 0;
        while (i + n < moves_len && mv[i + n] != ',')
            n++;
        gts_move m;
        bool ok = n > 0 && n < sizeof tok;
        if (ok) {
            memcpy(tok, mv + i, n);
            tok[n] = '\0';
            ok = g->parse_move(state, tok, &m, g->user) == 0;
        }
        if (n == 0) {
            snprintf(why, size,
                     "move %d: empty move at column %zu (expected a vertex such as D4, or pass)",
                     k, moves_at + i + 1);
        } else if (!ok) {
            go_quote(mv + i, n, q, sizeof q);
            snprintf(why, size,
                     "move %d: bad vertex %s at column %zu (expected A1-%c%d%s, or pass)", k, q,
                     moves_at + i + 1, GO_COLUMN_LETTERS[board - 1], board,
                     board >= 9 ? ", no column I" : "");
        }
        if (!ok) {
            gts_games_free(g, state);
            goto out;
        }
        i += n + 1;
    }
    /* Step 3. Play them. */
    gts_move *moves = malloc(((size_t)g->max_moves) * sizeof *moves);
    char *grid = malloc((size_t)(board * (board + 1) + 1));
    if (!moves || !grid)
        cli_oom();
    gts_move prev[2] = { 0, 0 };
    bool ok = true;
    k = 1;
    for (size_t i = 0; have_moves && moves_len > 0 && i <= moves_len; k++) {
        size_t n = 0;
        while (i + n < moves_len && mv[i + n] != ',')
            n++;
        memcpy(tok, mv + i, n);
        tok[n] = '\0';
        i += n + 1;
        int nm = g->generate(state, moves, g->max_moves, g->user);
        if (nm == 0) {
            if (k > 2 && prev[0] == GTS_GO_PASS && prev[1] == GTS_GO_PASS)
                snprintf(why, size, "move %d (%s): the game is already over: two passes in a row",
                         k, tok);
            else
                snprintf(why, size,
                         "move %d (%s): the game is already over: it reached its move cap "
                         "(maxmoves=%d)",
                         k, tok, k - 1);
            ok = false;
            break;
        }
        gts_move m;
        if (g->parse_move(state, tok, &m, g->user) != 0) {
            gts_move at = 0;
            /* the vertex on the empty board of step 2 */
            void *empty = NULL;
            if (gts_go_new(base, &empty) != GTS_OK)
                cli_oom();
            g->parse_move(empty, tok, &at, g->user);
            gts_games_free(g, empty);
            int x = (int)(at % (gts_move)board), y = (int)(at / (gts_move)board);
            gts_go_board(state, grid, (size_t)(board * (board + 1) + 1));
            if (grid[(board - 1 - y) * (board + 1) + x] != '.')
                snprintf(why, size, "move %d: %s is not legal here: the point is occupied", k,
                         tok);
            else if (go_is_suicide(grid, board, x, y, gts_go_to_move(state) == 0 ? 'X' : 'O'))
                snprintf(why, size,
                         "move %d: %s is not legal here: suicide (the stone's string would have "
                         "no liberty)",
                         k, tok);
            else
                snprintf(why, size,
                         "move %d: %s is not legal here: it repeats an earlier board "
                         "(positional superko)",
                         k, tok);
            ok = false;
            break;
        }
        if (g->apply(state, m, g->user) != 0) {
            snprintf(why, size, "move %d: '%s' could not be played", k, tok);
            ok = false;
            break;
        }
        prev[0] = prev[1];
        prev[1] = m;
    }
    if (ok)
        snprintf(why, size, "position refused by the adapter");
    free(grid);
    free(moves);
    gts_games_free(g, state);
out:
    free(base);
}

/* A Go state of @p text, or NULL with the reason in @p why. */
static void *go_position_new(const char *text, char *why, size_t size)
{
    void *state = NULL;
    gts_status rc = gts_go_new(text, &state);
    if (rc == GTS_OK)
        return state;
    if (rc == GTS_EPARSE)
        go_explain(text, why, size);
    else
        snprintf(why, size, "cannot build the position: %s", gts_strerror(rc));
    return NULL;
}

void *cli_position_new(const char *name, const gts_randtree_params *tree, const char *text,
                       char *why, size_t size)
{
    enum pos_kind kind;
    if (cli_is_game_library(name)) /* a game library (tools/plugin.c) */
        return cli_plugin_position_new(name, text, why, size);
    if (strcmp(name, "chess") == 0) {
        /* A FEN (or "startpos"), optionally with "moves ...": the adapter
         * parses it whole (gts_chess_new). */
        void *state = NULL;
        gts_status rc = gts_chess_new(text, &state);
        if (rc == GTS_OK)
            return state;
        if (rc == GTS_EPARSE)
            snprintf(why, size,
                     "not a legal position (expected startpos or a FEN, optionally followed by "
                     "moves and UCI moves such as e2e4)");
        else
            snprintf(why, size, "cannot build the position: %s", gts_strerror(rc));
        return NULL;
    }
    if (strcmp(name, "go") == 0)
        return go_position_new(text, why, size);
    if (strcmp(name, "tictactoe") == 0)
        kind = POS_TICTACTOE;
    else if (strcmp(name, "connect4") == 0 || strcmp(name, "connect4h") == 0)
        kind = POS_CONNECT4; /* connect4h: connect4's states (gts_games.h) */
    else if (strcmp(name, "othello") == 0)
        kind = POS_OTHELLO;
    else if (strcmp(name, "randtree") == 0)
        kind = POS_RANDTREE;
    else {
        /* a game of libgts-games whose positions this tool cannot build */
        snprintf(why, size, "unknown game");
        return NULL;
    }
    const gts_game *g = gts_games_find(name);
    if (!g) {
        snprintf(why, size, "unknown game");
        return NULL;
    }
    if (!check_syntax(kind, text, why, size))
        return NULL;
    /* The adapter's own constructor is the reference for what it accepts;
     * the walk below explains a refusal (and builds random-tree positions,
     * which have no constructor taking moves). */
    void *state = NULL;
    gts_status rc = GTS_EPARSE;
    switch (kind) {
    case POS_TICTACTOE: rc = gts_tictactoe_new(text, &state); break;
    case POS_CONNECT4: rc = gts_connect4_new(text, &state); break;
    case POS_OTHELLO: rc = gts_othello_new(text, &state); break;
    default: return play_position(kind, g, tree, text, why, size);
    }
    if (rc == GTS_OK)
        return state;
    if (rc != GTS_EPARSE) {
        snprintf(why, size, "cannot build the position: %s", gts_strerror(rc));
        return NULL;
    }
    state = play_position(kind, g, tree, text, why, size);
    if (state) {
        gts_games_free(g, state);
        snprintf(why, size, "position refused by the adapter");
    }
    return NULL;
}

const gts_game *cli_game_new(const cli_game_opts *o, const char *command, void **state)
{
    *state = NULL;
    const char *pos = o->position ? o->position : "";
    const gts_game *g = o->name ? gts_games_find(o->name) : NULL;
    const char *shown = o->name; /* the game's name in messages */
    if (cli_is_game_library(o->name)) {
        const gts_plugin *p = cli_plugin_load(o->name, command);
        if (!p)
            return NULL;
        g = p->game;
        shown = p->name;
    }
    if (!g) {
        char *esc = cli_escaped(o->name ? o->name : "");
        cli_usage_error(command, "unknown game '%s' (known: %s)", esc, cli_game_names);
        free(esc);
        return NULL;
    }
    if (strcmp(o->name, "randtree") == 0) {
        if (o->tree.min_value > o->tree.max_value) {
            cli_usage_error(command, "--min-value is above --max-value");
            return NULL;
        }
        if (o->tree.branching_jitter >= o->tree.branching && o->tree.branching_jitter > 0) {
            cli_usage_error(command, "--jitter must be below --branching");
            return NULL;
        }
    }
    char why[8192];
    *state = cli_position_new(o->name, &o->tree, pos, why, sizeof why);
    if (!*state) {
        char *esc = cli_escaped(pos);
        cli_usage_error(command, "bad %s position '%s': %s", shown, esc, why);
        free(esc);
        return NULL;
    }
    return g;
}

void cli_format_move(const gts_game *g, void *state, gts_move move, char *buf, size_t size)
{
    if (move == GTS_MOVE_NONE) {
        snprintf(buf, size, "none");
        return;
    }
    if (g->format_move && g->format_move(state, move, buf, size, g->user) >= 0)
        return;
    snprintf(buf, size, "%" PRIu64, move);
}

void cli_format_pv(const gts_game *g, void *state, const gts_move *pv, uint32_t len, char *buf,
                   size_t size)
{
    size_t used = 0;
    uint32_t applied = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < len; i++) {
        char mv[64];
        cli_format_move(g, state, pv[i], mv, sizeof mv);
        int w = snprintf(buf + used, size - used, "%s%s", i ? " " : "", mv);
        if (w < 0 || (size_t)w >= size - used)
            break;
        used += (size_t)w;
        if (i + 1 < len) {
            if (g->apply(state, pv[i], g->user) != 0)
                break;
            applied++;
        }
    }
    while (applied > 0) {
        applied--;
        g->undo(state, pv[applied], g->user);
    }
}

/* ---- engine -------------------------------------------------------------------- */

bool cli_engine_set(const char *command, gts_engine *e, gts_option opt, int64_t value,
                    const char *what)
{
    gts_status rc = gts_engine_set(e, opt, value);
    if (rc == GTS_OK)
        return true;
    int64_t lo = 0, hi = 0;
    if (rc == GTS_ERANGE && gts_option_bounds(opt, &lo, &hi, NULL) == GTS_OK)
        fprintf(stderr, "%s %s: %s %" PRId64 " is out of range %" PRId64 "..%" PRId64 "\n",
                cli_prog, command, what, value, lo, hi);
    else
        fprintf(stderr, "%s %s: cannot set %s to %" PRId64 ": %s\n", cli_prog, command, what,
                value, gts_strerror(rc));
    return false;
}

gts_engine *cli_engine_new(const char *command, int64_t tt_mb, int64_t threads)
{
    gts_engine *e = NULL;
    gts_status rc = gts_engine_new(&e);
    if (rc != GTS_OK) {
        fprintf(stderr, "%s %s: cannot create an engine: %s\n", cli_prog, command,
                gts_strerror(rc));
        return NULL;
    }
    if ((tt_mb >= 0 && !cli_engine_set(command, e, GTS_OPT_TT_MB, tt_mb, "--tt-mb")) ||
        (threads > 0 && !cli_engine_set(command, e, GTS_OPT_THREADS, threads, "--threads"))) {
        gts_engine_free(e);
        return NULL;
    }
    return e;
}

void cli_engine_warm(gts_engine *e, gts_algorithm alg, const gts_game *g, void *state)
{
    gts_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.struct_size = sizeof lim;
    lim.depth = 1;
    gts_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    (void)gts_search(e, alg, g, state, &lim, &r);
    gts_engine_clear(e);
}

/* ---- tables ----------------------------------------------------------------------- */

typedef struct cli_cell {
    char *text;
    bool number; /* emitted unquoted in JSON */
    bool null;
} cli_cell;

struct cli_table {
    char *title;
    int ncols;
    char **cols;
    cli_cell *cells;
    size_t ncells, cap;
    char **notes;
    int nnotes;
    /* streamed (cli_table_stream_*): where, how, and the rows written */
    FILE *stream;
    cli_format stream_fmt;
    const char *stream_command;
    size_t streamed;
};

cli_table *cli_table_new(const char *title, int ncols, const char *const *cols)
{
    cli_table *t = calloc(1, sizeof *t);
    if (!t)
        cli_oom();
    t->title = strdup(title ? title : "");
    t->ncols = ncols;
    t->cols = calloc((size_t)ncols, sizeof *t->cols);
    if (!t->title || !t->cols)
        cli_oom();
    for (int i = 0; i < ncols; i++)
        if (!(t->cols[i] = strdup(cols[i])))
            cli_oom();
    return t;
}

static void add_cell(cli_table *t, const char *s, bool number, bool null)
{
    if (t->ncells == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->cells = realloc(t->cells, t->cap * sizeof *t->cells);
        if (!t->cells)
            cli_oom();
    }
    cli_cell *c = &t->cells[t->ncells++];
    c->text = strdup(s);
    if (!c->text)
        cli_oom();
    c->number = number;
    c->null = null;
}

void cli_table_str(cli_table *t, const char *s) { add_cell(t, s, false, false); }
void cli_table_null(cli_table *t) { add_cell(t, "", false, true); }
void cli_table_raw(cli_table *t, const char *s) { add_cell(t, s, true, false); }

void cli_table_int(cli_table *t, int64_t v)
{
    char b[32];
    snprintf(b, sizeof b, "%" PRId64, v);
    add_cell(t, b, true, false);
}

void cli_table_uint(cli_table *t, uint64_t v)
{
    char b[32];
    snprintf(b, sizeof b, "%" PRIu64, v);
    add_cell(t, b, true, false);
}

void cli_table_num(cli_table *t, double v, int decimals)
{
    char b[64];
    if (v != v || v > 1e300 || v < -1e300) {
        cli_table_null(t);
        return;
    }
    snprintf(b, sizeof b, "%.*f", decimals, v);
    add_cell(t, b, true, false);
}

void cli_table_note(cli_table *t, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    t->notes = realloc(t->notes, (size_t)(t->nnotes + 1) * sizeof *t->notes);
    if (!t->notes || !(t->notes[t->nnotes] = strdup(buf)))
        cli_oom();
    t->nnotes++;
}

void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n")) {
        fputc('"', f);
        for (; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

/* The text form: header and dashes, a row, the notes; @p w the widths. */
static void text_head(const cli_table *t, FILE *f, const size_t *w)
{
    for (int c = 0; c < t->ncols; c++)
        fprintf(f, "%s%-*s", c ? "  " : "", (int)w[c], t->cols[c]);
    fputc('\n', f);
    for (int c = 0; c < t->ncols; c++) {
        fprintf(f, "%s", c ? "  " : "");
        for (size_t k = 0; k < w[c]; k++)
            fputc('-', f);
    }
    fputc('\n', f);
}

static void text_row(const cli_table *t, FILE *f, size_t r, const size_t *w)
{
    for (int c = 0; c < t->ncols; c++) {
        const cli_cell *cell = &t->cells[r * (size_t)t->ncols + (size_t)c];
        const char *s = cell->null ? "-" : cell->text;
        /* numbers right-aligned, text left-aligned */
        if (cell->number)
            fprintf(f, "%s%*s", c ? "  " : "", (int)w[c], s);
        else if (c == t->ncols - 1)
            fprintf(f, "%s%s", c ? "  " : "", s); /* no trailing blanks */
        else
            fprintf(f, "%s%-*s", c ? "  " : "", (int)w[c], s);
    }
    fputc('\n', f);
}

static void text_notes(const cli_table *t, FILE *f)
{
    for (int i = 0; i < t->nnotes; i++)
        fprintf(f, "note: %s\n", t->notes[i]);
}

/* The pieces of the CSV and JSON forms, shared by cli_table_print() and the
 * streamed table (cli_table_stream_*): the same bytes either way. */
static void csv_head(const cli_table *t, FILE *f)
{
    for (int c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', f);
        csv_field(f, t->cols[c]);
    }
    fputc('\n', f);
}

static void csv_body_row(const cli_table *t, FILE *f, size_t r)
{
    for (int c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', f);
        csv_field(f, t->cells[r * (size_t)t->ncols + (size_t)c].text);
    }
    fputc('\n', f);
}

/* CSV stays machine-readable: the notes go to stderr. */
static void csv_notes(const cli_table *t, const char *command)
{
    for (int i = 0; i < t->nnotes; i++)
        fprintf(stderr, "%s %s: note: %s\n", cli_prog, command, t->notes[i]);
}

static void json_head(const cli_table *t, FILE *f, const char *command)
{
    fprintf(f, "{\n  \"tool\": \"gts\",\n  \"version\": ");
    cli_json_string(f, gts_version_string());
    fprintf(f, ",\n  \"command\": ");
    cli_json_string(f, command);
    fprintf(f, ",\n  \"title\": ");
    cli_json_string(f, t->title);
    fprintf(f, ",\n  \"rows\": [");
}

static void json_row(const cli_table *t, FILE *f, size_t r)
{
    fprintf(f, "%s\n    {", r ? "," : "");
    for (int c = 0; c < t->ncols; c++) {
        const cli_cell *cell = &t->cells[r * (size_t)t->ncols + (size_t)c];
        fprintf(f, "%s", c ? ", " : "");
        cli_json_string(f, t->cols[c]);
        fputs(": ", f);
        if (cell->null)
            fputs("null", f);
        else if (cell->number)
            fputs(cell->text, f);
        else
            cli_json_string(f, cell->text);
    }
    fputc('}', f);
}

static void json_tail(const cli_table *t, FILE *f, size_t nrows)
{
    fprintf(f, "%s],\n  \"notes\": [", nrows ? "\n  " : "");
    for (int i = 0; i < t->nnotes; i++) {
        fprintf(f, "%s\n    ", i ? "," : "");
        cli_json_string(f, t->notes[i]);
    }
    fprintf(f, "%s]\n}\n", t->nnotes ? "\n  " : "");
}

void cli_table_print(cli_table *t, FILE *f, cli_format fmt, const char *command)
{
    size_t nrows = t->ncells / (size_t)t->ncols;
    switch (fmt) {
    case CLI_FMT_CSV:
        csv_head(t, f);
        for (size_t r = 0; r < nrows; r++)
            csv_body_row(t, f, r);
        csv_notes(t, command);
        break;
    case CLI_FMT_JSON:
        json_head(t, f, command);
        for (size_t r = 0; r < nrows; r++)
            json_row(t, f, r);
        json_tail(t, f, nrows);
        break;
    case CLI_FMT_TEXT:
    default: {
        size_t *w = calloc((size_t)t->ncols, sizeof *w);
        if (!w)
            cli_oom();
        for (int c = 0; c < t->ncols; c++)
            w[c] = strlen(t->cols[c]);
        for (size_t i = 0; i < t->ncells; i++) {
            const cli_cell *cell = &t->cells[i];
            size_t len = cell->null ? 1 : strlen(cell->text);
            if (len > w[i % (size_t)t->ncols])
                w[i % (size_t)t->ncols] = len;
        }
        if (t->title[0])
            fprintf(f, "%s\n", t->title);
        text_head(t, f, w);
        for (size_t r = 0; r < nrows; r++)
            text_row(t, f, r, w);
        text_notes(t, f);
        free(w);
        break;
    }
    }
    fflush(f);
}

/* ---- a table streamed row by row ---------------------------------------------------
 *
 * CSV and JSON are written as cli_table_print() writes them, a row at a
 * time; only the text form needs every row to align its columns, so its
 * rows are written as they come (each column at least as wide as its
 * header) and the whole table is written again, aligned, at the end when
 * the file can be rewritten (a regular file).
 */

bool cli_table_stream_begin(cli_table *t, FILE *f, cli_format fmt, const char *command)
{
    t->stream = f;
    t->stream_fmt = fmt;
    t->stream_command = command;
    t->streamed = 0;
    if (fmt == CLI_FMT_CSV) {
        csv_head(t, f);
    } else if (fmt == CLI_FMT_JSON) {
        json_head(t, f, command);
    } else {
        size_t *w = calloc((size_t)t->ncols, sizeof *w);
        if (!w)
            cli_oom();
        for (int c = 0; c < t->ncols; c++)
            w[c] = strlen(t->cols[c]);
        if (t->title[0])
            fprintf(f, "%s\n", t->title);
        text_head(t, f, w);
        free(w);
    }
    return fflush(f) == 0 && !ferror(f);
}

bool cli_table_stream_rows(cli_table *t)
{
    size_t nrows = t->ncells / (size_t)t->ncols;
    FILE *f = t->stream;
    for (; t->streamed < nrows; t->streamed++) {
        if (t->stream_fmt == CLI_FMT_CSV) {
            csv_body_row(t, f, t->streamed);
        } else if (t->stream_fmt == CLI_FMT_JSON) {
            json_row(t, f, t->streamed);
        } else {
            size_t *w = calloc((size_t)t->ncols, sizeof *w);
            if (!w)
                cli_oom();
            for (int c = 0; c < t->ncols; c++)
                w[c] = strlen(t->cols[c]);
            text_row(t, f, t->streamed, w);
            free(w);
        }
    }
    return fflush(f) == 0 && !ferror(f);
}

bool cli_table_stream_end(cli_table *t)
{
    FILE *f = t->stream;
    cli_table_stream_rows(t);
    if (t->stream_fmt == CLI_FMT_CSV) {
        csv_notes(t, t->stream_command);
    } else if (t->stream_fmt == CLI_FMT_JSON) {
        json_tail(t, f, t->streamed);
    } else {
        struct stat st;
        bool rewrite = fflush(f) == 0 && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
                       fseek(f, 0, SEEK_SET) == 0 && ftruncate(fileno(f), 0) == 0;
        if (rewrite)
            cli_table_print(t, f, CLI_FMT_TEXT, t->stream_command);
        else
            text_notes(t, f);
    }
    return fflush(f) == 0 && !ferror(f);
}

void cli_table_free(cli_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->ncells; i++)
        free(t->cells[i].text);
    for (int c = 0; c < t->ncols; c++)
        free(t->cols[c]);
    for (int i = 0; i < t->nnotes; i++)
        free(t->notes[i]);
    free(t->notes);
    free(t->cells);
    free(t->cols);
    free(t->title);
    free(t);
}

bool cli_parse_format(const char *s, cli_format *out)
{
    if (strcmp(s, "text") == 0)
        *out = CLI_FMT_TEXT;
    else if (strcmp(s, "csv") == 0)
        *out = CLI_FMT_CSV;
    else if (strcmp(s, "json") == 0)
        *out = CLI_FMT_JSON;
    else
        return false;
    return true;
}

/* ---- progress bar ----------------------------------------------------------------- */

/* Tuning of the bar: shown after this long, redrawn this often, this wide. */
static const uint64_t PROGRESS_DELAY_US = 1000000;
static const unsigned PROGRESS_TICK_US = 200000;
static const int PROGRESS_WIDTH = 30;

struct cli_progress {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool stop, shown;
    bool lines;                /* stderr is no terminal: plain lines */
    uint64_t every_us, line_us; /* lines: their interval, the last one's time */
    uint64_t start_us, total, done;
    char what[64];
    char label[96];
};

/* A plain progress line, for a stderr that is no terminal. */
static void progress_line(cli_progress *p, uint64_t now)
{
    fprintf(stderr, "%s %s: progress %" PRIu64 "/%" PRIu64 " after %.1f s: %s\n", cli_prog,
            p->what, p->done, p->total, (double)(now - p->start_us) / 1e6, p->label);
    fflush(stderr);
    p->line_us = now;
}

static void progress_draw(cli_progress *p)
{
    double frac = p->total ? (double)p->done / (double)p->total : 0.0;
    int fill = (int)(frac * PROGRESS_WIDTH + 0.5);
    double secs = (double)(cli_now_us() - p->start_us) / 1e6;
    char bar[64];
    for (int i = 0; i < PROGRESS_WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[PROGRESS_WIDTH] = '\0';
    fprintf(stderr, "\r\033[K%s [%s] %" PRIu64 "/%" PRIu64 " %5.1fs %s", p->what, bar, p->done,
            p->total, secs, p->label);
    fflush(stderr);
    p->shown = true;
}

static void *progress_main(void *arg)
{
    cli_progress *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += (long)PROGRESS_TICK_US * 1000;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->cond, &p->lock, &ts);
        uint64_t now = cli_now_us();
        if (p->stop)
            break;
        if (!p->lines && now - p->start_us >= PROGRESS_DELAY_US)
            progress_draw(p);
        else if (p->lines && p->every_us > 0 && now - p->line_us >= p->every_us)
            progress_line(p, now);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static cli_progress *progress_new(const char *what, uint64_t total, bool lines,
                                  uint64_t every_us)
{
    cli_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond, NULL);
    p->start_us = p->line_us = cli_now_us();
    p->total = total;
    p->lines = lines;
    p->every_us = every_us;
    snprintf(p->what, sizeof p->what, "%s", what);
    if (pthread_create(&p->thread, NULL, progress_main, p) != 0) {
        pthread_mutex_destroy(&p->lock);
        pthread_cond_destroy(&p->cond);
        free(p);
        return NULL;
    }
    return p;
}

cli_progress *cli_progress_start(const char *what, uint64_t total)
{
    if (!isatty(STDERR_FILENO))
        return NULL;
    return progress_new(what, total, false, 0);
}

cli_progress *cli_progress_start_lines(const char *what, uint64_t total, uint64_t every_us)
{
    bool tty = isatty(STDERR_FILENO);
    return progress_new(what, total, !tty, tty ? 0 : every_us);
}

void cli_progress_set(cli_progress *p, uint64_t done, const char *label)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    bool advanced = done != p->done;
    p->done = done;
    snprintf(p->label, sizeof p->label, "%s", label ? label : "");
    if (p->lines && p->every_us == 0 && advanced)
        progress_line(p, cli_now_us());
    pthread_mutex_unlock(&p->lock);
}

void cli_progress_end(cli_progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    pthread_cond_signal(&p->cond);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    if (p->shown) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->cond);
    free(p);
}

/* ---- SIGINT --------------------------------------------------------------------------
 *
 * A thread that waits for SIGINT with sigwait() rather than a handler: it may
 * take a mutex, call gts_engine_stop() and flush stdout, none of which a
 * handler could do safely. SIGINT is blocked in every other thread (they
 * inherit the mask of the main thread, which blocks it first).
 */

/* How often a stop is repeated while the interrupted search has not
 * returned: a stop that lands before gts_search() has started is ignored by
 * the library, so the first one may be lost. */
static const long SIGINT_RETRY_NS = 20 * 1000 * 1000;

static pthread_mutex_t sigint_lock = PTHREAD_MUTEX_INITIALIZER;
static gts_engine *sigint_engine; /* the running search's engine, or NULL */
static bool sigint_seen;
static char sigint_msg[128];
static size_t sigint_msg_len;
static sigset_t sigint_set;
static int sigint_other; /* handled as SIGINT (cli_sigint_also), 0: none */

static void sigint_exit(bool flush) __attribute__((noreturn));
static void sigint_exit(bool flush)
{
    if (flush)
        fflush(stdout);
    ssize_t w = write(STDERR_FILENO, sigint_msg, sigint_msg_len);
    (void)w;
    _exit(CLI_INTERRUPTED);
}

static void *sigint_main(void *arg)
{
    (void)arg;
    bool stopping = false;
    for (;;) {
        struct timespec retry = { 0, SIGINT_RETRY_NS };
        int sig = stopping ? sigtimedwait(&sigint_set, NULL, &retry)
                           : sigwaitinfo(&sigint_set, NULL);
        pthread_mutex_lock(&sigint_lock);
        if (sig == SIGINT || (sig > 0 && sig == sigint_other)) {
            if (sigint_seen || !sigint_engine) {
                bool first = !sigint_seen;
                pthread_mutex_unlock(&sigint_lock);
                sigint_exit(first); /* a second SIGINT does not wait for stdout */
            }
            sigint_seen = true;
        }
        stopping = sigint_seen && sigint_engine;
        if (stopping)
            gts_engine_stop(sigint_engine);
        pthread_mutex_unlock(&sigint_lock);
    }
    return NULL;
}

/* At exit: end the watcher (blocked in sigwaitinfo(), a cancellation point;
 * it never holds the lock there) and join it, so that nothing of it is
 * left behind (valgrind would see its thread as possibly lost). */
static pthread_t sigint_thread;
static bool sigint_running;

static void sigint_stop(void)
{
    if (!sigint_running)
        return;
    sigint_running = false;
    if (pthread_cancel(sigint_thread) == 0)
        pthread_join(sigint_thread, NULL);
}

void cli_sigint_start(const char *command)
{
    struct sigaction old;
    if (sigaction(SIGINT, NULL, &old) != 0 || old.sa_handler == SIG_IGN)
        return;
    snprintf(sigint_msg, sizeof sigint_msg, "%s %s: interrupted\n", cli_prog, command);
    sigint_msg_len = strlen(sigint_msg);
    sigemptyset(&sigint_set);
    sigaddset(&sigint_set, SIGINT);
    if (sigint_other)
        sigaddset(&sigint_set, sigint_other);
    sigset_t before;
    if (pthread_sigmask(SIG_BLOCK, &sigint_set, &before) != 0)
        return;
    if (pthread_create(&sigint_thread, NULL, sigint_main, NULL) != 0) {
        pthread_sigmask(SIG_SETMASK, &before, NULL); /* the default action, then */
        return;
    }
    sigint_running = true;
    atexit(sigint_stop);
}

void cli_sigint_also(int sig)
{
    sigint_other = sig;
}

void cli_sigint_search_begin(gts_engine *e)
{
    pthread_mutex_lock(&sigint_lock);
    sigint_engine = e;
    pthread_mutex_unlock(&sigint_lock);
}

void cli_sigint_search_end(void)
{
    pthread_mutex_lock(&sigint_lock);
    sigint_engine = NULL;
    pthread_mutex_unlock(&sigint_lock);
}

bool cli_interrupted(void)
{
    pthread_mutex_lock(&sigint_lock);
    bool seen = sigint_seen;
    pthread_mutex_unlock(&sigint_lock);
    return seen;
}

int cli_interrupt_exit(const char *command)
{
    fflush(stdout);
    fprintf(stderr, "%s %s: interrupted\n", cli_prog, command);
    return CLI_INTERRUPTED;
}

/* ---- shared option error ---------------------------------------------------- */

int cli_bad_option(const char *command, int c, char **argv)
{
    char *arg = cli_escaped(argv[optind - 1]);
    if (c == ':')
        cli_usage_error(command, "option '%s' needs an argument", arg);
    else if (optopt && optopt < 256 && optopt != '?') {
        char opt[2] = { (char)optopt, '\0' };
        char *esc = cli_escaped(opt);
        cli_usage_error(command, "unknown option '-%s'", esc);
        free(esc);
    } else
        cli_usage_error(command, "unknown option '%s'", arg);
    free(arg);
    return CLI_USAGE;
}
