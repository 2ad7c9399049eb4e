/*
 * gts-gtp.c - a Go engine speaking GTP version 2 on stdin/stdout, on top of
 * libgts' Monte-Carlo tree search (gts_mcts()) and the "go" adapter of
 * libgts-games.
 *
 * What. One command per line; the reply is "=[id] result" or "?[id] error"
 * followed by an empty line (GTP 2, section 2.6). Lines are cleaned as the
 * protocol asks (control characters other than HT and LF dropped, HT made a
 * space, '#' comments cut); a line longer than GTP_MAX_LINE bytes is
 * discarded whole and answered "? line too long"; end of input ends the
 * program like `quit`. Nothing on the input can crash or hang it: every
 * argument is validated, every library status becomes a "?" reply.
 *
 * Game model. The adapter alternates colours from Black; a `play` or
 * `genmove` for the colour not to move is preceded by an implied skip of
 * the other colour (GTS_GO_SKIP: the turn changes hands, it is no pass and
 * never counts toward the two passes that end the game), and `undo` takes
 * back both. Handicap stones (fixed_handicap, place_free_handicap,
 * set_free_handicap) and loadsgf's set-up stones are Black's (or White's)
 * stones with skips between them, marked as set-up: undo stops before
 * them, as GTP 2 wants handicap stones out of the move history. The rules
 * are the adapter's: positional superko, suicide illegal, area scoring,
 * and a cap of GTP_CAP_PER_POINT moves per board point. All numbers on the
 * input are plain decimals ("0x10", "1e1", "inf" are syntax errors).
 *
 * Scoring. final_score and final_status_list first estimate the dead
 * stones from playout ownership (estimate_dead(): playouts of the
 * adapter's policy from the position to their end; a string is dead when
 * its points end up the opponent's in most of them), then count area with
 * the dead stones removed. On finished games this is GNU Go's Chinese
 * count (tests/test_gtp.py). Seki is not told apart: its stones are
 * alive, which area counting scores the same way.
 *
 * genmove. When the opponent has just passed and the board wins both as it
 * stands and without the estimated dead stones, pass (ending the game).
 * Otherwise run gts_mcts() for the time this move gets (time_settings /
 * time_left, else --seconds) and at most --playouts playouts, with
 * --threads workers, RAVE (--rave) and the adapter's playout policy
 * (MoGo's patterns too with --patterns); play the most visited move, or
 * resign when its mean reward is below --resign after enough playouts.
 * The tree of the previous search is reused (gts_mcts_advance()) when the
 * moves since then are known. kgs-genmove_cleanup is genmove that resumes
 * a game two passes ended and never passes while the opponent has dead
 * stones: it captures them first.
 *
 * Under MPI. `mpirun -np N gts-mpi gtp [OPTIONS]` is this engine on rank
 * 0 (mpi/gts-mpi.c compiles this file with GTS_GTP_NO_MAIN and calls
 * gtp_main() with a cli_remote, tools/remote.h): rank 0 reads GTP and
 * answers, and every genmove's search is gts_mpi_mcts() on every rank,
 * which rebuild the position from the empty board's text and the moves
 * (remote_search()). --playouts then counts the playouts of all ranks;
 * --seconds is each rank's time. Every rank's tree is reused between
 * moves as here: gts-mpi's search hook advances it by the moves since the
 * last genmove (since 0.3).
 *
 * Usage errors exit 2, a failure to start (no memory) 1.
 */
#include <gts/gts.h>
#include "gts_games.h"
#include "remote.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

enum {
    GTP_MAX_LINE = 4096,
    GTP_MAX_ARGS = 400, /* set_free_handicap lists up to 360 vertices */
    GTP_MAX_POINTS = 19 * 19,
    GTP_BLACK = 0,
    GTP_WHITE = 1,
};

/* Moves per board point before the game is over by the cap. */
static const int GTP_CAP_PER_POINT = 3;
/* Time management: fraction of the remaining main time per move is
 * 1 / max(GTP_MIN_MOVES_LEFT, empty points / 2); a fixed reserve per move
 * covers the protocol and process overhead. */
static const int GTP_MIN_MOVES_LEFT = 12;
static const double GTP_SAFETY = 0.85;
static const double GTP_OVERHEAD_S = 0.05;
static const double GTP_MIN_MOVE_S = 0.01;
/* Resignation: best mean below the threshold after this many playouts. */
static const uint64_t GTP_RESIGN_MIN_VISITS = 2000;
/* Dead stones (final_score, final_status_list, genmove's pass and
 * kgs-genmove_cleanup): playouts from the position, their seed, the share
 * of them in which a string must end on the opponent's area to be dead,
 * and the move cap of the playout state per board point (set-up stones
 * and skips included). */
static const int GTP_OWNER_PLAYOUTS = 400;
static const uint64_t GTP_OWNER_SEED = 0x6f776e6572736869ull; /* "ownershi" */
static const double GTP_DEAD_SHARE = 0.5;
/* An empty point that area counting leaves to nobody once the dead stones
 * are off (it reaches both colours: an unfinished border, or dame) counts
 * for a colour that owns it at the end of more than this share of the
 * playouts. A dame of a finished game is filled by either colour: it stays
 * nobody's. */
static const double GTP_TERRITORY_SHARE = 0.7;
static const int GTP_OWNER_CAP_PER_POINT = 6;

typedef struct gtp_move {
    gts_move move;
    bool implied; /* a skip the engine inserted before an out-of-turn move */
    bool setup;   /* a set-up stone (handicap, loadsgf's AB/AW) or its skip:
                   * not in the move history, undo stops before it */
} gtp_move;

typedef struct gtp_options {
    uint64_t playouts;  /* 0: none */
    double seconds;     /* per move without time settings; 0: none */
    int threads;
    int64_t rave;
    int64_t exploration; /* -1: library default */
    int64_t eval_scale;
    double resign;      /* 0: never */
    uint64_t seed;
    bool patterns;      /* the adapter's patterns=1 (MoGo's playout rules) */
    bool verbose;
} gtp_options;

typedef struct gtp_clock {
    bool set;           /* time_settings received */
    double main_time, byo_time;
    int byo_stones;
    bool have_left[2];  /* time_left received per colour */
    double left[2];
    int left_stones[2];
} gtp_clock;

typedef struct gtp {
    gtp_options opt;
    const gts_game *game;
    gts_engine *engine;
    void *state;
    char text[96];      /* the position text of state's empty board (new_game) */
    const cli_remote *remote; /* NULL, or gts-mpi's: genmove searches on every rank */
    int size;
    int komi2;          /* komi in half points */
    gtp_move *moves;
    size_t nmoves, cap;
    size_t searched_at; /* nmoves when the kept tree was searched; SIZE_MAX: none */
    gtp_clock clock;
    uint64_t rng;       /* gts-policy_move's generator */
    uint64_t games;     /* boards cleared: varies the search seed per game */
    bool quit;
} gtp;

/* ---- replies ---------------------------------------------------------- */

static void reply(const char *id, bool ok, const char *fmt, ...)
{
    printf("%c%s", ok ? '=' : '?', id);
    if (fmt && fmt[0]) {
        putchar(' ');
        va_list ap;
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
    }
    fputs("\n\n", stdout);
    fflush(stdout);
}

/* ---- game state ------------------------------------------------------- */

static int to_move(const gtp *g) { return gts_go_to_move(g->state); }

/* A fresh state: empty board of g->size with g->komi2 and --patterns, no
 * moves. */
static gts_status new_game(gtp *g)
{
    char text[sizeof g->text];
    snprintf(text, sizeof text, "%d komi=%.1f maxmoves=%d patterns=%d", g->size, g->komi2 / 2.0,
             GTP_CAP_PER_POINT * g->size * g->size, g->opt.patterns ? 1 : 0);
    void *s = NULL;
    gts_status rc = gts_go_new(text, &s);
    if (rc != GTS_OK)
        return rc;
    memcpy(g->text, text, sizeof text);
    gts_games_free(g->game, g->state);
    g->state = s;
    g->nmoves = 0;
    g->searched_at = SIZE_MAX;
    /* a different (reproducible) random stream for every game */
    gts_engine_set(g->engine, GTS_OPT_MCTS_SEED, (int64_t)((g->opt.seed + g->games++) % (1ull << 62)));
    return GTS_OK;
}

static bool record(gtp *g, gts_move m, bool implied, bool setup);

/* A fresh state of g->size and g->komi2 with the @p n moves @p list
 * replayed (the list may be g->moves itself). */
static gts_status replay(gtp *g, const gtp_move *list, size_t n)
{
    gtp_move *keep = malloc(sizeof *keep * (n ? n : 1));
    if (!keep)
        return GTS_ENOMEM;
    if (n)
        memcpy(keep, list, sizeof *keep * n); /* list is NULL before the first move */
    gts_status rc = new_game(g);
    for (size_t i = 0; rc == GTS_OK && i < n; i++) {
        if (g->game->apply(g->state, keep[i].move, g->game->user) != 0)
            rc = GTS_EPARSE;
        else if (!record(g, keep[i].move, keep[i].implied, keep[i].setup))
            rc = GTS_ENOMEM;
    }
    free(keep);
    return rc;
}

/* Replay the recorded moves on a fresh state (after a komi change). */
static gts_status rebuild(gtp *g) { return replay(g, g->moves, g->nmoves); }

static bool record(gtp *g, gts_move m, bool implied, bool setup)
{
    if (g->nmoves == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 256;
        gtp_move *p = realloc(g->moves, sizeof *p * cap);
        if (!p)
            return false;
        g->moves = p;
        g->cap = cap;
    }
    g->moves[g->nmoves].move = m;
    g->moves[g->nmoves].implied = implied;
    g->moves[g->nmoves].setup = setup;
    g->nmoves++;
    return true;
}

static bool game_over(const gtp *g)
{
    gts_move buf[GTS_GO_PASS + 1];
    return g->game->generate(g->state, buf, g->game->max_moves, g->game->user) <= 0;
}

/* Take back the last applied move. */
static bool undo_one(gtp *g)
{
    if (g->nmoves == 0)
        return false;
    if (g->game->undo(g->state, g->moves[g->nmoves - 1].move, g->game->user) != 0)
        return false;
    g->nmoves--;
    if (g->searched_at != SIZE_MAX && g->nmoves < g->searched_at)
        g->searched_at = SIZE_MAX;
    return true;
}

/*
 * Give the turn to @p color if the other colour is to move: an implied
 * skip (GTS_GO_SKIP, no pass: it never counts toward the two passes that
 * end the game). Returns NULL or the error text.
 */
static const char *skip_to(gtp *g, int color, bool setup)
{
    if (color == to_move(g))
        return NULL;
    if (game_over(g))
        return "illegal move (the game is over)";
    if (g->game->apply(g->state, GTS_GO_SKIP, g->game->user) != 0)
        return "illegal move";
    if (!record(g, GTS_GO_SKIP, true, setup)) {
        g->game->undo(g->state, GTS_GO_SKIP, g->game->user);
        return "out of memory";
    }
    return NULL;
}

/*
 * Play @p m for @p color, with an implied skip first when @p color is not
 * to move; @p setup marks a set-up stone. Returns NULL or the error text
 * (the state is then unchanged).
 */
static const char *play_as(gtp *g, int color, gts_move m, bool setup)
{
    bool implied = color != to_move(g);
    const char *err = skip_to(g, color, setup);
    if (err)
        return err;
    if (g->game->apply(g->state, m, g->game->user) != 0)
        err = game_over(g) ? "illegal move (the game is over)" : "illegal move";
    else if (!record(g, m, false, setup)) {
        g->game->undo(g->state, m, g->game->user);
        err = "out of memory";
    }
    if (err && implied)
        undo_one(g);
    return err;
}

static const char *play_move(gtp *g, int color, gts_move m) { return play_as(g, color, m, false); }

/* ---- argument parsing -------------------------------------------------- */

static bool parse_color(const char *t, int *color)
{
    char low[8];
    size_t n = strlen(t);
    if (n == 0 || n >= sizeof low)
        return false;
    for (size_t i = 0; i <= n; i++)
        low[i] = (char)tolower((unsigned char)t[i]);
    if (strcmp(low, "b") == 0 || strcmp(low, "black") == 0)
        *color = GTP_BLACK;
    else if (strcmp(low, "w") == 0 || strcmp(low, "white") == 0)
        *color = GTP_WHITE;
    else
        return false;
    return true;
}

/* Whether @p t is a plain decimal number: an optional sign (only '-' for an
 * integer), digits, and for a real an optional fraction ("7.5", "-3", ".5",
 * "6."). No hexadecimal, exponent, "inf" or "nan" (strtol/strtod would
 * take "0x10" for 16, GTP's numbers are decimal). */
static bool plain_decimal(const char *t, bool real)
{
    if (*t == '-' || (real && *t == '+'))
        t++;
    size_t digits = 0, frac = 0;
    while (isdigit((unsigned char)*t))
        t++, digits++;
    if (real && *t == '.') {
        t++;
        while (isdigit((unsigned char)*t))
            t++, frac++;
    }
    return *t == '\0' && digits + frac > 0;
}

static bool parse_int(const char *t, long lo, long hi, long *out)
{
    if (!plain_decimal(t, false))
        return false;
    char *end;
    errno = 0;
    long v = strtol(t, &end, 10);
    if (end == t || *end || errno || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool parse_real(const char *t, double lo, double hi, double *out)
{
    if (!plain_decimal(t, true))
        return false;
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (end == t || *end || errno || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

/* ---- time management --------------------------------------------------- */

/* Seconds for the next move of @p color, 0 for no time limit. */
static double move_budget(const gtp *g, int color)
{
    const gtp_clock *c = &g->clock;
    double fixed = g->opt.seconds;
    if (!c->set || (c->byo_time > 0 && c->byo_stones == 0 && c->main_time == 0))
        return fixed;
    if (c->main_time == 0 && c->byo_time == 0) /* "no time": minimal thinking */
        return GTP_MIN_MOVE_S;
    double left = c->have_left[color] ? c->left[color] : c->main_time;
    int stones = c->have_left[color] ? c->left_stones[color] : 0;
    double t;
    if (stones > 0) { /* in byo-yomi: share the period between its stones */
        t = left / stones;
    } else {
        int empty = 0;
        char board[19 * 20 + 1];
        if (gts_go_board(g->state, board, sizeof board) == GTS_OK)
            for (const char *p = board; *p; p++)
                empty += *p == '.';
        int moves_left = empty / 2 > GTP_MIN_MOVES_LEFT ? empty / 2 : GTP_MIN_MOVES_LEFT;
        t = left / moves_left;
        if (c->byo_stones > 0 && c->byo_time > 0)
            t += c->byo_time / c->byo_stones * (left > c->byo_time ? 0.5 : 1.0);
    }
    t = t * GTP_SAFETY - GTP_OVERHEAD_S;
    if (t < GTP_MIN_MOVE_S)
        t = GTP_MIN_MOVE_S;
    if (fixed > 0 && fixed < t)
        t = fixed;
    return t;
}

/* ---- the board, ownership and dead stones ------------------------------ */

/* Points are y * size + x (x = 0 column A, y = 0 row 1), as the adapter's
 * moves; colours 0 empty, 1 black, 2 white (GTP_BLACK + 1, GTP_WHITE + 1). */
enum { GTP_EMPTY = 0, GTP_STONE_B = 1, GTP_STONE_W = 2 };

/* Read @p state's board into @p c (GTP_MAX_POINTS entries). */
static bool read_board(const gtp *g, const void *state, uint8_t *c)
{
    char text[19 * 20 + 1];
    if (gts_go_board(state, text, sizeof text) != GTS_OK)
        return false;
    const char *row = text;
    for (int y = g->size - 1; y >= 0; y--, row += g->size + 1)
        for (int x = 0; x < g->size; x++)
            c[y * g->size + x] = row[x] == 'X' ? GTP_STONE_B : row[x] == 'O' ? GTP_STONE_W : GTP_EMPTY;
    return true;
}

/* The up to four neighbours of @p p on a @p size board; returns how many. */
static int neighbours(int size, int p, int nb[4])
{
    int x = p % size, y = p / size, n = 0;
    if (x > 0)
        nb[n++] = p - 1;
    if (x + 1 < size)
        nb[n++] = p + 1;
    if (y > 0)
        nb[n++] = p - size;
    if (y + 1 < size)
        nb[n++] = p + size;
    return n;
}

/*
 * Tromp-Taylor ownership of board @p c: a stone's point is its colour's,
 * an empty region's points are the colour of the stones it reaches if it
 * reaches only one colour, else nobody's (0). Writes @p own if not NULL;
 * returns Black's points less White's.
 */
static int ownership(int size, const uint8_t *c, uint8_t *own)
{
    int npoints = size * size, margin = 0;
    uint8_t mark[GTP_MAX_POINTS] = {0};
    int queue[GTP_MAX_POINTS], region[GTP_MAX_POINTS];
    for (int p = 0; p < npoints; p++) {
        if (c[p] != GTP_EMPTY) {
            margin += c[p] == GTP_STONE_B ? 1 : -1;
            if (own)
                own[p] = c[p];
            continue;
        }
        if (mark[p])
            continue;
        int n = 0, count = 0, reach = 0;
        queue[n++] = p;
        mark[p] = 1;
        while (n > 0) {
            int q = queue[--n], nb[4];
            region[count++] = q;
            for (int i = neighbours(size, q, nb) - 1; i >= 0; i--) {
                if (c[nb[i]] != GTP_EMPTY)
                    reach |= c[nb[i]];
                else if (!mark[nb[i]]) {
                    mark[nb[i]] = 1;
                    queue[n++] = nb[i];
                }
            }
        }
        int owner = reach == GTP_STONE_B || reach == GTP_STONE_W ? reach : GTP_EMPTY;
        margin += owner == GTP_STONE_B ? count : owner == GTP_STONE_W ? -count : 0;
        for (int i = 0; own && i < count; i++)
            own[region[i]] = (uint8_t)owner;
    }
    return margin;
}

/* Label the strings of board @p c: id[p] is the string of the stone at p
 * (0, 1, ...) or -1 for an empty point; returns the number of strings. */
static int label_strings(int size, const uint8_t *c, int *id)
{
    int npoints = size * size, n = 0, queue[GTP_MAX_POINTS];
    for (int p = 0; p < npoints; p++)
        id[p] = -1;
    for (int p = 0; p < npoints; p++) {
        if (c[p] == GTP_EMPTY || id[p] >= 0)
            continue;
        int k = 0;
        queue[k++] = p;
        id[p] = n;
        while (k > 0) {
            int q = queue[--k], nb[4];
            for (int i = neighbours(size, q, nb) - 1; i >= 0; i--)
                if (c[nb[i]] == c[p] && id[nb[i]] < 0) {
                    id[nb[i]] = n;
                    queue[k++] = nb[i];
                }
        }
        n++;
    }
    return n;
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/*
 * Which stones are dead, estimated from playout ownership: from a state
 * that holds board @p c and no history (its stones set up with skips),
 * GTP_OWNER_PLAYOUTS playouts of the adapter's policy are run to their end
 * (two passes: the policy passes only when every move left would fill an
 * own eye or be a self-atari of two or more stones), Black first in half
 * of them and White first in the other half, and each point's Tromp-Taylor
 * owner at the end is counted. A string is dead when its points end up the
 * opponent's in more than GTP_DEAD_SHARE of the playouts (averaged over
 * its stones). likely[p] is the colour that owns point p in more than
 * GTP_TERRITORY_SHARE of the playouts, else 0. A fixed seed: the same board
 * always gets the same answer. Writes dead[p] (false for an empty point)
 * and likely[p] for every point.
 */
static gts_status estimate_dead(const gtp *g, const uint8_t *c, bool *dead, uint8_t *likely)
{
    const int npoints = g->size * g->size;
    int id[GTP_MAX_POINTS];
    int nstrings = label_strings(g->size, c, id);
    uint32_t owned[2][GTP_MAX_POINTS] = {{0}};
    memset(dead, 0, sizeof *dead * (size_t)npoints);
    memset(likely, 0, (size_t)npoints);
    if (nstrings == 0)
        return GTS_OK;

    /* Step 1. The board on a fresh state (no history, no pass count). */
    const int cap = GTP_OWNER_CAP_PER_POINT * npoints;
    char text[96];
    snprintf(text, sizeof text, "%d komi=%.1f maxmoves=%d patterns=%d", g->size, g->komi2 / 2.0,
             cap, g->opt.patterns ? 1 : 0);
    void *s = NULL;
    gts_status rc = gts_go_new(text, &s);
    if (rc != GTS_OK)
        return rc;
    const gts_game *G = g->game;
    gts_move *stack = malloc(sizeof *stack * (size_t)cap);
    uint32_t *opp_owned = calloc((size_t)nstrings, sizeof *opp_owned);
    int *stones = calloc((size_t)nstrings, sizeof *stones);
    if (!stack || !opp_owned || !stones)
        rc = GTS_ENOMEM;
    for (int p = 0; rc == GTS_OK && p < npoints; p++) {
        if (c[p] == GTP_EMPTY)
            continue;
        stones[id[p]]++;
        if ((gts_go_to_move(s) != c[p] - 1 && G->apply(s, GTS_GO_SKIP, G->user) != 0) ||
            G->apply(s, (gts_move)p, G->user) != 0)
            rc = GTS_EPARSE;
    }

    /* Step 2. Playouts to the end; count who owns each string's points. */
    uint64_t rng = GTP_OWNER_SEED ^ g->opt.seed;
    uint8_t end[GTP_MAX_POINTS], own[GTP_MAX_POINTS];
    for (int k = 0; rc == GTS_OK && k < GTP_OWNER_PLAYOUTS; k++) {
        int n = 0;
        if ((k & 1) && G->apply(s, GTS_GO_SKIP, G->user) == 0)
            stack[n++] = GTS_GO_SKIP;
        while (n < cap) {
            gts_move m;
            int r = G->playout_move(s, splitmix(&rng), &m, G->user);
            if (r != 1 || G->apply(s, m, G->user) != 0)
                break;
            stack[n++] = m;
        }
        if (!read_board(g, s, end))
            rc = GTS_EINVAL;
        ownership(g->size, end, own);
        for (int p = 0; p < npoints; p++) {
            if (c[p] != GTP_EMPTY && own[p] != GTP_EMPTY && own[p] != c[p])
                opp_owned[id[p]]++;
            if (own[p] != GTP_EMPTY)
                owned[own[p] - 1][p]++;
        }
        while (n > 0)
            G->undo(s, stack[--n], G->user);
    }

    /* Step 3. The verdict per string. */
    for (int p = 0; rc == GTS_OK && p < npoints; p++) {
        if (c[p] != GTP_EMPTY)
            dead[p] = opp_owned[id[p]] > GTP_DEAD_SHARE * GTP_OWNER_PLAYOUTS * stones[id[p]];
        for (int k = 0; k < 2; k++)
            if (owned[k][p] > GTP_TERRITORY_SHARE * GTP_OWNER_PLAYOUTS)
                likely[p] = (uint8_t)(k + 1);
    }
    free(stack);
    free(opp_owned);
    free(stones);
    gts_games_free(G, s);
    return rc;
}

/* The current board and its dead stones; false on failure. */
static bool board_status(const gtp *g, uint8_t *c, bool *dead, uint8_t *likely)
{
    return read_board(g, g->state, c) && estimate_dead(g, c, dead, likely) == GTS_OK;
}

/* Black's margin in half points, komi included, with the @p dead stones
 * off board @p c: Tromp-Taylor area of what remains, and the points it
 * leaves to nobody counted for their @p likely owner if they have one. */
static int score_without(const gtp *g, const uint8_t *c, const bool *dead, const uint8_t *likely)
{
    uint8_t alive[GTP_MAX_POINTS] = {0}, own[GTP_MAX_POINTS];
    for (int p = 0; p < g->size * g->size; p++)
        alive[p] = dead[p] ? GTP_EMPTY : c[p];
    int m = ownership(g->size, alive, own);
    for (int p = 0; p < g->size * g->size; p++)
        if (own[p] == GTP_EMPTY && likely[p] != GTP_EMPTY)
            m += likely[p] == GTP_STONE_B ? 1 : -1;
    return 2 * m - g->komi2;
}

/* Whether colour @p color (GTP_BLACK, GTP_WHITE) has a stone the estimate
 * calls dead on board @p c. */
static bool has_dead(const gtp *g, const uint8_t *c, const bool *dead, int color)
{
    for (int p = 0; p < g->size * g->size; p++)
        if (dead[p] && c[p] == color + 1)
            return true;
    return false;
}

/* ---- genmove ---------------------------------------------------------- */

static int format(const gtp *g, gts_move m, char *buf, size_t size)
{
    return g->game->format_move(g->state, m, buf, size, g->game->user);
}

/* Black's area margin in half points, from @p color's side. */
static int margin_for(const gtp *g, int color)
{
    int a = gts_go_area(g->state);
    return color == GTP_BLACK ? a : -a;
}

/*
 * kgs-genmove_cleanup's move when the search chose to pass while the
 * opponent still has dead stones (@p dead on board @p c): the most visited
 * root move (@p st, @p n) that is a liberty of a dead string of the
 * opponent, else any legal such liberty, else the most visited legal play;
 * GTS_GO_PASS when there is none.
 */
static gts_move cleanup_move(const gtp *g, int color, const uint8_t *c, const bool *dead,
                             const gts_mcts_move_stats *st, int n)
{
    const int npoints = g->size * g->size;
    gts_move legal_list[GTS_GO_PASS + 1];
    bool legal[GTP_MAX_POINTS] = {false}, target[GTP_MAX_POINTS] = {false};
    int nl = g->game->generate(g->state, legal_list, g->game->max_moves, g->game->user);
    for (int i = 0; i < nl; i++)
        if (legal_list[i] < (gts_move)npoints)
            legal[legal_list[i]] = true;
    for (int p = 0; p < npoints; p++) {
        int nb[4];
        if (!dead[p] || c[p] != 2 - color)
            continue;
        for (int i = neighbours(g->size, p, nb) - 1; i >= 0; i--)
            target[nb[i]] = c[nb[i]] == GTP_EMPTY && legal[nb[i]];
    }
    gts_move best = GTS_GO_PASS, any_play = GTS_GO_PASS;
    uint64_t best_visits = 0, any_visits = 0;
    for (int i = 0; i < n; i++) {
        gts_move m = st[i].move;
        if (m >= (gts_move)npoints || !legal[m])
            continue;
        if (target[m] && (best == GTS_GO_PASS || st[i].visits > best_visits))
            best = m, best_visits = st[i].visits;
        if (any_play == GTS_GO_PASS || st[i].visits > any_visits)
            any_play = m, any_visits = st[i].visits;
    }
    for (int p = 0; best == GTS_GO_PASS && p < npoints; p++)
        if (target[p])
            best = (gts_move)p;
    return best != GTS_GO_PASS ? best : any_play;
}

/* genmove's search under gts-mpi: every rank rebuilds the position from
 * the empty board's text and the moves (skips and set-up stones included),
 * searches with gts_mpi_mcts(), and rank 0 (this process) gets the move. */
static gts_status remote_search(gtp *g, const gts_limits *lim, gts_result *r)
{
    gts_move *seq = malloc(sizeof *seq * (g->nmoves ? g->nmoves : 1));
    if (!seq)
        return GTS_ENOMEM;
    for (size_t i = 0; i < g->nmoves; i++)
        seq[i] = g->moves[i].move;
    cli_recipe rec = { .game = "go", .text = g->text, .moves = seq, .nmoves = g->nmoves };
    gts_status rc = g->remote->search(g->remote->ctx, g->engine, GTS_ALG_MCTS, g->game, g->state,
                                      &rec, lim, r);
    free(seq);
    return rc;
}

/*
 * Choose and play a move for @p color; writes its vertex (or "resign") to
 * @p out. With @p cleanup (kgs-genmove_cleanup), never pass while the
 * opponent has stones the estimate calls dead, and resume a game that two
 * passes ended. Returns NULL or an error text.
 */
static const char *genmove(gtp *g, int color, bool cleanup, char *out, size_t size)
{
    /* Step 0. A clean-up resumes a game that two passes ended: the second
     * pass becomes a skip (a turn given away, no pass). */
    if (cleanup && game_over(g) && g->nmoves >= 2 && g->moves[g->nmoves - 1].move == GTS_GO_PASS &&
        undo_one(g)) {
        const char *err = skip_to(g, 1 - to_move(g), false);
        if (err)
            return err;
    }
    if (skip_to(g, color, false) != NULL || game_over(g)) { /* the game is over */
        snprintf(out, size, "pass");
        return NULL;
    }
    /* Step 1. Pass after the opponent's pass when the board as it stands
     * wins both with every stone counted (Tromp-Taylor, what a server
     * without dead stone removal counts) and without the dead stones;
     * under cleanup, only once the opponent has no dead stone left. */
    bool opp_passed = g->nmoves > 0 && g->moves[g->nmoves - 1].move == GTS_GO_PASS;
    uint8_t c[GTP_MAX_POINTS];
    bool dead[GTP_MAX_POINTS];
    uint8_t likely[GTP_MAX_POINTS];
    bool known = false; /* c and dead hold the estimate */
    if (opp_passed && margin_for(g, color) > 0) {
        known = board_status(g, c, dead, likely);
        int est = known ? score_without(g, c, dead, likely) : 0;
        if (known && (color == GTP_BLACK ? est : -est) > 0 &&
            !(cleanup && has_dead(g, c, dead, 1 - color))) {
            const char *err = play_move(g, color, GTS_GO_PASS);
            if (err)
                return err;
            snprintf(out, size, "pass");
            return NULL;
        }
    }

    /* Step 2. Tree reuse: follow the moves played since the last search
     * (a distributed search: gts-mpi's hook does it on every rank). */
    if (!g->remote && g->searched_at != SIZE_MAX && g->searched_at <= g->nmoves) {
        size_t n = g->nmoves - g->searched_at;
        gts_move *seq = malloc(sizeof *seq * (n ? n : 1));
        if (seq) {
            for (size_t i = 0; i < n; i++)
                seq[i] = g->moves[g->searched_at + i].move;
            uint64_t visits = 0;
            int rc = gts_mcts_advance(g->engine, seq, (int)n, &visits);
            if (g->opt.verbose)
                fprintf(stderr, "gts-gtp: tree reuse over %zu moves: %d (%llu visits kept)\n",
                        n, rc, (unsigned long long)visits);
            free(seq);
        }
    }

    /* Step 3. Search. */
    double budget = move_budget(g, color);
    gts_limits lim = {.struct_size = sizeof lim};
    if (budget > 0)
        lim.time_ms = (uint64_t)(budget * 1000.0) + 1;
    if (budget <= 0 && g->opt.playouts == 0)
        lim.time_ms = 1000;
    gts_result r = {.struct_size = sizeof r};
    gts_status rc = g->remote ? remote_search(g, &lim, &r)
                              : gts_mcts(g->engine, g->game, g->state, &lim, &r);
    if (rc != GTS_OK) {
        g->searched_at = SIZE_MAX;
        return gts_strerror(rc);
    }
    g->searched_at = g->nmoves;

    /* Step 4. Resign, or play the best move (under cleanup, not a pass
     * while the opponent has dead stones). */
    gts_mcts_move_stats st[GTS_GO_PASS + 1];
    st[0].struct_size = sizeof st[0];
    int n = gts_mcts_root_stats(g->engine, st, GTS_GO_PASS + 1);
    if (n > (int)GTS_GO_PASS + 1)
        n = (int)GTS_GO_PASS + 1;
    uint64_t total = 0;
    double best_mean = 0.5;
    for (int i = 0; i < n && i <= (int)GTS_GO_PASS; i++) {
        total += st[i].visits;
        if (st[i].move == r.best_move)
            best_mean = st[i].mean;
    }
    if (g->opt.verbose) {
        char v[16];
        format(g, r.best_move, v, sizeof v);
        fprintf(stderr, "gts-gtp: %s after %llu playouts (%.2fs budget), mean %.3f, nodes %llu\n",
                v, (unsigned long long)total, budget, best_mean,
                (unsigned long long)r.nodes);
    }
    if (g->opt.resign > 0 && total >= GTP_RESIGN_MIN_VISITS && best_mean < g->opt.resign &&
        r.best_move != GTS_GO_PASS) {
        snprintf(out, size, "resign");
        return NULL;
    }
    if (cleanup && r.best_move == GTS_GO_PASS) {
        if (!known)
            known = board_status(g, c, dead, likely);
        if (known && has_dead(g, c, dead, 1 - color)) {
            r.best_move = cleanup_move(g, color, c, dead, st, n < 0 ? 0 : n);
            if (g->opt.verbose)
                fprintf(stderr, "gts-gtp: cleanup: no pass while the opponent has dead stones\n");
        }
    }
    const char *err = play_move(g, color, r.best_move);
    if (err)
        return err;
    if (format(g, r.best_move, out, size) < 0)
        snprintf(out, size, "pass");
    return NULL;
}

/* ---- commands --------------------------------------------------------- */

typedef void (*gtp_fn)(gtp *g, const char *id, int argc, char **argv);

static void cmd_list_commands(gtp *g, const char *id, int argc, char **argv);
static void cmd_known_command(gtp *g, const char *id, int argc, char **argv);

static void cmd_protocol_version(gtp *g, const char *id, int argc, char **argv)
{
    reply(id, true, "2");
}

static void cmd_name(gtp *g, const char *id, int argc, char **argv)
{
    reply(id, true, "gts-gtp");
}

static void cmd_version(gtp *g, const char *id, int argc, char **argv)
{
    reply(id, true, "%s", gts_version_string());
}

static void cmd_quit(gtp *g, const char *id, int argc, char **argv)
{
    g->quit = true;
    reply(id, true, "");
}

static void cmd_boardsize(gtp *g, const char *id, int argc, char **argv)
{
    long n;
    if (argc != 1 || !parse_int(argv[0], -1000000, 1000000, &n)) {
        reply(id, false, "boardsize not an integer");
        return;
    }
    if (n < 2 || n > 19) {
        reply(id, false, "unacceptable size");
        return;
    }
    int old = g->size;
    g->size = (int)n;
    if (new_game(g) != GTS_OK) {
        g->size = old;
        reply(id, false, "out of memory");
        return;
    }
    reply(id, true, "");
}

static void cmd_clear_board(gtp *g, const char *id, int argc, char **argv)
{
    if (new_game(g) != GTS_OK) {
        reply(id, false, "out of memory");
        return;
    }
    g->clock.have_left[0] = g->clock.have_left[1] = false;
    reply(id, true, "");
}

static void cmd_komi(gtp *g, const char *id, int argc, char **argv)
{
    double k;
    if (argc != 1 || !parse_real(argv[0], -150, 150, &k)) {
        reply(id, false, "syntax error (komi: a number within +-150)");
        return;
    }
    int k2 = (int)lround(k * 2);
    if (fabs(k * 2 - k2) > 1e-9) {
        reply(id, false, "komi must be a multiple of 0.5");
        return;
    }
    int old = g->komi2;
    g->komi2 = k2;
    gts_status rc = rebuild(g);
    if (rc != GTS_OK) {
        g->komi2 = old;
        rebuild(g);
        reply(id, false, "%s", gts_strerror(rc));
        return;
    }
    reply(id, true, "");
}

/*
 * A GTP vertex ("D4", "pass"; case-insensitive) of the current board into
 * @p m. Parsed here rather than by parse_move, which checks legality for
 * the side to move, so that "illegal move" and "syntax error" differ.
 * Returns 0, -1 for a syntax error, -2 for a point off the board.
 */
static int parse_vertex(const gtp *g, const char *t, gts_move *m)
{
    char up[8];
    size_t n = strlen(t);
    if (n == 0 || n >= sizeof up)
        return -1;
    for (size_t i = 0; i <= n; i++)
        up[i] = (char)toupper((unsigned char)t[i]);
    if (strcmp(up, "PASS") == 0) {
        *m = GTS_GO_PASS;
        return 0;
    }
    if (!(n >= 2 && n <= 3 && isalpha((unsigned char)up[0]) && up[0] != 'I' &&
          isdigit((unsigned char)up[1]) && (n == 2 || isdigit((unsigned char)up[2]))))
        return -1;
    int x = up[0] - 'A' - (up[0] > 'I'), y = atoi(up + 1) - 1;
    if (x < 0 || x >= g->size || y < 0 || y >= g->size || up[1] == '0')
        return -2;
    *m = (gts_move)(y * g->size + x);
    return 0;
}

static void cmd_play(gtp *g, const char *id, int argc, char **argv)
{
    int color;
    gts_move m = 0;
    if (argc != 2 || !parse_color(argv[0], &color)) {
        reply(id, false, "syntax error (play COLOR VERTEX)");
        return;
    }
    int v = parse_vertex(g, argv[1], &m);
    if (v != 0) {
        reply(id, false, v == -1 ? "syntax error (invalid vertex)" : "illegal move (off the board)");
        return;
    }
    const char *err = play_move(g, color, m);
    if (err)
        reply(id, false, "%s", err);
    else
        reply(id, true, "");
}

static void genmove_reply(gtp *g, const char *id, int argc, char **argv, bool cleanup)
{
    int color;
    if (argc != 1 || !parse_color(argv[0], &color)) {
        reply(id, false, "syntax error (%s COLOR)", cleanup ? "kgs-genmove_cleanup" : "genmove");
        return;
    }
    char out[16];
    const char *err = genmove(g, color, cleanup, out, sizeof out);
    if (err)
        reply(id, false, "%s", err);
    else
        reply(id, true, "%s", out);
}

static void cmd_genmove(gtp *g, const char *id, int argc, char **argv)
{
    genmove_reply(g, id, argc, argv, false);
}

/* KGS's extension for the clean-up phase after a disagreement on dead
 * stones: genmove, but no pass while the opponent has dead stones. */
static void cmd_genmove_cleanup(gtp *g, const char *id, int argc, char **argv)
{
    genmove_reply(g, id, argc, argv, true);
}

/* Extension: play the adapter's playout-policy move for COLOR (see
 * gts_games.h; MoGo's patterns too with --patterns), from a generator
 * seeded by --seed. Tests use it to play random games. */
static void cmd_policy_move(gtp *g, const char *id, int argc, char **argv)
{
    int color;
    if (argc != 1 || !parse_color(argv[0], &color)) {
        reply(id, false, "syntax error (gts-policy_move COLOR)");
        return;
    }
    if (skip_to(g, color, false) != NULL || game_over(g)) {
        reply(id, true, "pass");
        return;
    }
    uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    gts_move m;
    if (g->game->playout_move(g->state, z ^ (z >> 31), &m, g->game->user) != 1) {
        reply(id, false, "no policy move");
        return;
    }
    const char *err = play_move(g, color, m);
    char out[16];
    if (err || format(g, m, out, sizeof out) < 0)
        reply(id, false, "%s", err ? err : "cannot format the move");
    else
        reply(id, true, "%s", out);
}

/* Take back the last move and the implied skip before it; set-up stones
 * (handicap, loadsgf's AB/AW) are not in the history and stay. */
static void cmd_undo(gtp *g, const char *id, int argc, char **argv)
{
    if (g->nmoves == 0 || g->moves[g->nmoves - 1].setup) {
        reply(id, false, "cannot undo");
        return;
    }
    bool ok = undo_one(g);
    while (ok && g->nmoves > 0 && g->moves[g->nmoves - 1].implied &&
           !g->moves[g->nmoves - 1].setup)
        ok = undo_one(g);
    reply(id, ok, ok ? "" : "cannot undo");
}

/* Area score with the stones the playout estimate calls dead removed
 * (estimate_dead()): stones plus the empty points that reach only one
 * colour once the dead stones are gone, less komi. */
static void cmd_final_score(gtp *g, const char *id, int argc, char **argv)
{
    uint8_t c[GTP_MAX_POINTS];
    bool dead[GTP_MAX_POINTS];
    uint8_t likely[GTP_MAX_POINTS];
    if (!board_status(g, c, dead, likely)) {
        reply(id, false, "cannot score");
        return;
    }
    int a = score_without(g, c, dead, likely);
    if (a == 0)
        reply(id, true, "0");
    else
        reply(id, true, "%c+%.1f", a > 0 ? 'B' : 'W', abs(a) / 2.0);
}

/* Write vertex @p p ("D4") to @p buf; returns its length. */
static int vertex_text(const gtp *g, int p, char *buf)
{
    static const char COLS[] = "ABCDEFGHJKLMNOPQRST";
    return sprintf(buf, "%c%d", COLS[p % g->size], p / g->size + 1);
}

/*
 * final_status_list dead|alive|seki: the stones of that status, one string
 * per line, as GNU Go answers. Seki is not told apart: its stones are
 * listed alive and the seki list is empty. Area scoring counts a seki's
 * stones as alive and its shared liberties as nobody's, so the score does
 * not depend on it.
 */
static void cmd_final_status_list(gtp *g, const char *id, int argc, char **argv)
{
    char low[8] = "";
    if (argc == 1 && strlen(argv[0]) < sizeof low)
        for (size_t i = 0; i <= strlen(argv[0]); i++)
            low[i] = (char)tolower((unsigned char)argv[0][i]);
    bool want_dead = strcmp(low, "dead") == 0;
    if (!want_dead && strcmp(low, "alive") != 0 && strcmp(low, "seki") != 0) {
        reply(id, false, "syntax error (final_status_list dead|alive|seki)");
        return;
    }
    uint8_t c[GTP_MAX_POINTS];
    bool dead[GTP_MAX_POINTS];
    uint8_t likely[GTP_MAX_POINTS];
    int sid[GTP_MAX_POINTS];
    if (!board_status(g, c, dead, likely)) {
        reply(id, false, "cannot score");
        return;
    }
    const int npoints = g->size * g->size;
    int nstrings = strcmp(low, "seki") == 0 ? 0 : label_strings(g->size, c, sid);
    char text[GTP_MAX_POINTS * 5 + 1];
    size_t len = 0;
    for (int k = 0; k < nstrings; k++) {
        bool first = true;
        for (int p = 0; p < npoints; p++) {
            if (sid[p] != k || dead[p] != want_dead)
                continue;
            if (first && len > 0)
                text[len++] = '\n';
            else if (!first)
                text[len++] = ' ';
            len += (size_t)vertex_text(g, p, text + len);
            first = false;
        }
    }
    text[len] = '\0';
    reply(id, true, "%s", text);
}

/* ---- handicap ------------------------------------------------------------ */

/*
 * The fixed handicap points of GTP 2 (section 4.1.1), placed as GNU Go
 * places them: 2 to 4 stones on 7x7 and on even boards, 2 to 9 on odd
 * boards from 9x9; the corner points on the third line, on the fourth from
 * 12x12 up; the order D4 Q16 D16 Q4, then D10 Q10, then K4 K16 (19x19
 * names), and the centre (K10) for 5, 7 and 9 stones. Writes @p n points to @p pts and
 * returns n, or 0 when @p n stones have no fixed placement on this board.
 */
static int fixed_points(int size, int n, int *pts)
{
    int max = size < 7 ? 0 : (size % 2 == 0 || size == 7) ? 4 : 9;
    if (n < 2 || n > max)
        return 0;
    int lo = size >= 12 ? 3 : 2, hi = size - 1 - lo, mid = size / 2, k = 0;
    const int at[8][2] = { { lo, lo }, { hi, hi }, { lo, hi }, { hi, lo },
                           { lo, mid }, { hi, mid }, { mid, lo }, { mid, hi } };
    bool centre = n >= 5 && n % 2 == 1;
    for (int i = 0; i < (centre ? n - 1 : n); i++)
        pts[k++] = at[i][1] * size + at[i][0];
    if (centre)
        pts[k++] = mid * size + mid;
    return k;
}

static bool board_empty(const gtp *g)
{
    uint8_t c[GTP_MAX_POINTS];
    if (!read_board(g, g->state, c))
        return false;
    for (int p = 0; p < g->size * g->size; p++)
        if (c[p] != GTP_EMPTY)
            return false;
    return true;
}

/* Black set-up stones on @p pts, then White to move; all or nothing.
 * Returns NULL or the error text. */
static const char *place_handicap(gtp *g, const int *pts, int n)
{
    size_t before = g->nmoves;
    const char *err = NULL;
    for (int i = 0; !err && i < n; i++)
        err = play_as(g, GTP_BLACK, (gts_move)pts[i], true);
    if (!err)
        err = skip_to(g, GTP_WHITE, true);
    while (err && g->nmoves > before && undo_one(g))
        ;
    g->searched_at = SIZE_MAX;
    return err;
}

/* Reply with the vertices of @p pts. */
static void reply_vertices(const gtp *g, const char *id, const int *pts, int n)
{
    char text[GTP_MAX_POINTS * 5 + 1];
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0)
            text[len++] = ' ';
        len += (size_t)vertex_text(g, pts[i], text + len);
    }
    text[len] = '\0';
    reply(id, true, "%s", text);
}

/* Common checks of fixed_handicap and place_free_handicap; the count of
 * stones in @p n, or false after replying the error. */
static bool handicap_count(gtp *g, const char *id, int argc, char **argv, const char *name, long *n)
{
    if (argc != 1 || !parse_int(argv[0], 0, 2147483647L, n)) {
        reply(id, false, "syntax error (%s NUMBER_OF_STONES)", name);
        return false;
    }
    return true;
}

static void cmd_fixed_handicap(gtp *g, const char *id, int argc, char **argv)
{
    long n;
    int pts[9];
    if (!handicap_count(g, id, argc, argv, "fixed_handicap", &n))
        return;
    if (n > 9 || fixed_points(g->size, (int)n, pts) == 0) {
        reply(id, false, "invalid number of stones");
        return;
    }
    if (!board_empty(g)) {
        reply(id, false, "board not empty");
        return;
    }
    const char *err = place_handicap(g, pts, (int)n);
    if (err)
        reply(id, false, "%s", err);
    else
        reply_vertices(g, id, pts, (int)n);
}

/*
 * place_free_handicap: the fixed placement for as many stones as it has,
 * the others spread out one by one: each on the empty point farthest
 * (Manhattan distance) from the stones already placed, ties going to the
 * point nearer the third (from 12x12 the fourth) line, then to the first in
 * board order; points on the first two lines only once the others are
 * taken (from 7x7). Every requested stone is placed.
 */
static void cmd_place_free_handicap(gtp *g, const char *id, int argc, char **argv)
{
    long n;
    int pts[GTP_MAX_POINTS];
    const int size = g->size, npoints = size * size;
    if (!handicap_count(g, id, argc, argv, "place_free_handicap", &n))
        return;
    if (n < 2 || n > npoints - 1) {
        reply(id, false, "invalid number of stones");
        return;
    }
    if (!board_empty(g)) {
        reply(id, false, "board not empty");
        return;
    }
    int k = 0;
    int max_fixed = size < 7 ? 0 : (size % 2 == 0 || size == 7) ? 4 : 9;
    if (max_fixed >= 2)
        k = fixed_points(size, n < max_fixed ? (int)n : max_fixed, pts);
    bool used[GTP_MAX_POINTS] = {false};
    for (int i = 0; i < k; i++)
        used[pts[i]] = true;
    const int line = size >= 12 ? 3 : 2;
    while (k < n) {
        int best = -1, best_d = -1, best_l = -1;
        for (int inner = size >= 7 ? 2 : 0; best < 0 && inner >= 0; inner -= 2) {
            for (int p = 0; p < npoints; p++) {
                int x = p % size, y = p / size, d = 4 * size;
                int edge = MIN(MIN(x, y), MIN(size - 1 - x, size - 1 - y));
                if (used[p] || edge < inner)
                    continue;
                for (int i = 0; i < k; i++)
                    d = MIN(d, abs(x - pts[i] % size) + abs(y - pts[i] / size));
                int l = -abs(edge - line);
                if (d > best_d || (d == best_d && l > best_l))
                    best = p, best_d = d, best_l = l;
            }
        }
        used[best] = true;
        pts[k++] = best;
    }
    const char *err = place_handicap(g, pts, k);
    if (err)
        reply(id, false, "%s", err);
    else
        reply_vertices(g, id, pts, k);
}

static void cmd_set_free_handicap(gtp *g, const char *id, int argc, char **argv)
{
    int pts[GTP_MAX_POINTS];
    bool used[GTP_MAX_POINTS] = {false};
    const int npoints = g->size * g->size;
    if (argc < 2 || argc > npoints - 1) {
        reply(id, false, "bad vertex list");
        return;
    }
    for (int i = 0; i < argc; i++) {
        gts_move m;
        if (parse_vertex(g, argv[i], &m) != 0 || m == GTS_GO_PASS || used[m]) {
            reply(id, false, "bad vertex list");
            return;
        }
        used[m] = true;
        pts[i] = (int)m;
    }
    if (!board_empty(g)) {
        reply(id, false, "board not empty");
        return;
    }
    const char *err = place_handicap(g, pts, argc);
    reply(id, err == NULL, "%s", err ? err : "");
}

/* ---- loadsgf -------------------------------------------------------------- */

/* What an SGF game record asks for, in order: a set-up stone, a move, or
 * the player to move (PL). */
typedef struct sgf_action {
    enum { SGF_SETUP, SGF_MOVE, SGF_PLAYER } kind;
    int color;
    gts_move move;
} sgf_action;

typedef struct sgf_reader {
    const char *p;
    int size, komi2;
    sgf_action *act;
    size_t n, cap;
    long moves;      /* B/W properties read */
    long stop_at;    /* stop before this move number; 0: read to the end */
    bool stopped;
    bool placed;     /* a stone or move came: SZ may no longer change */
    const char *err;
} sgf_reader;

static bool sgf_push(sgf_reader *r, int kind, int color, gts_move move)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        sgf_action *a = realloc(r->act, sizeof *a * cap);
        if (!a) {
            r->err = "out of memory";
            return false;
        }
        r->act = a;
        r->cap = cap;
    }
    r->act[r->n++] = (sgf_action){ .kind = kind, .color = color, .move = move };
    return true;
}

/* An SGF point "dd" (column, then row from the top); pass is "" or "tt"
 * (up to 19x19). Returns false for anything else. */
static bool sgf_point(const sgf_reader *r, const char *v, bool pass_ok, gts_move *m)
{
    size_t n = strlen(v);
    if (pass_ok && (n == 0 || (n == 2 && r->size <= 19 && strcmp(v, "tt") == 0))) {
        *m = GTS_GO_PASS;
        return true;
    }
    if (n != 2 || v[0] < 'a' || v[1] < 'a' || v[0] - 'a' >= r->size || v[1] - 'a' >= r->size)
        return false;
    *m = (gts_move)((r->size - 1 - (v[1] - 'a')) * r->size + (v[0] - 'a'));
    return true;
}

/* One property value. */
static bool sgf_property(sgf_reader *r, const char *ident, const char *v)
{
    if (strcmp(ident, "SZ") == 0) {
        long n;
        const char *colon = strchr(v, ':');
        char sq[16];
        if (colon && (size_t)(colon - v) < sizeof sq) { /* "9:9" is square */
            memcpy(sq, v, (size_t)(colon - v));
            sq[colon - v] = '\0';
            if (strcmp(sq, colon + 1) != 0) {
                r->err = "cannot load file (a board that is not square)";
                return false;
            }
            v = colon + 1;
        }
        if (!parse_int(v, 2, 19, &n) || r->placed) {
            r->err = "cannot load file (board size: 2 to 19, before any stone)";
            return false;
        }
        r->size = (int)n;
    } else if (strcmp(ident, "KM") == 0) {
        double k;
        if (!parse_real(v, -150, 150, &k) || fabs(k * 2 - lround(k * 2)) > 1e-9) {
            r->err = "cannot load file (komi: a multiple of 0.5 within +-150)";
            return false;
        }
        r->komi2 = (int)lround(k * 2);
    } else if (strcmp(ident, "AB") == 0 || strcmp(ident, "AW") == 0) {
        /* a point or a rectangle "aa:cc" */
        char a[3] = "", b[3] = "";
        const char *colon = strchr(v, ':');
        size_t la = colon ? (size_t)(colon - v) : strlen(v);
        gts_move m1, m2;
        if (la == 2)
            memcpy(a, v, 2);
        if (colon && strlen(colon + 1) == 2)
            memcpy(b, colon + 1, 2);
        if (!sgf_point(r, a, false, &m1) || (colon && !sgf_point(r, b, false, &m2))) {
            r->err = "cannot load file (bad set-up point)";
            return false;
        }
        if (!colon)
            m2 = m1;
        int x1 = (int)(m1 % (gts_move)r->size), y1 = (int)(m1 / (gts_move)r->size);
        int x2 = (int)(m2 % (gts_move)r->size), y2 = (int)(m2 / (gts_move)r->size);
        for (int y = MIN(y1, y2); y <= MAX(y1, y2); y++)
            for (int x = MIN(x1, x2); x <= MAX(x1, x2); x++)
                if (!sgf_push(r, SGF_SETUP, ident[1] == 'B' ? GTP_BLACK : GTP_WHITE,
                              (gts_move)(y * r->size + x)))
                    return false;
        r->placed = true;
    } else if (strcmp(ident, "AE") == 0) {
        r->err = "cannot load file (AE, removing stones, is not supported)";
        return false;
    } else if (strcmp(ident, "B") == 0 || strcmp(ident, "W") == 0) {
        gts_move m;
        if (!sgf_point(r, v, true, &m)) {
            r->err = "cannot load file (bad move)";
            return false;
        }
        if (r->stop_at > 0 && r->moves + 1 >= r->stop_at) {
            r->stopped = true;
            return true;
        }
        r->moves++;
        r->placed = true;
        return sgf_push(r, SGF_MOVE, ident[0] == 'B' ? GTP_BLACK : GTP_WHITE, m);
    } else if (strcmp(ident, "PL") == 0) {
        int color;
        if (!parse_color(v, &color)) {
            r->err = "cannot load file (bad PL)";
            return false;
        }
        return sgf_push(r, SGF_PLAYER, color, GTS_GO_SKIP);
    }
    return true; /* any other property: ignored */
}

/*
 * Read the main line of an SGF game record (the first variation at every
 * branch: reading stops at the first ')'). Properties B, W, AB, AW (points
 * and "aa:cc" rectangles), SZ, KM and PL count; AE is refused; the others
 * are skipped. Returns false with r->err set on an error.
 */
static bool sgf_read(sgf_reader *r)
{
    const char *p = strchr(r->p, '(');
    bool in_node = false;
    char ident[16], value[256];
    if (!p) {
        r->err = "cannot load file (no game tree)";
        return false;
    }
    while (*p && !r->stopped) {
        unsigned char ch = (unsigned char)*p;
        if (isspace(ch) || ch == '(') {
            p++;
        } else if (ch == ')') {
            return true;
        } else if (ch == ';') {
            in_node = true;
            p++;
        } else if (isalpha(ch) && in_node) {
            size_t n = 0;
            for (; isalpha((unsigned char)*p); p++) /* FF[3] lower-case letters are ignored */
                if (isupper((unsigned char)*p) && n + 1 < sizeof ident)
                    ident[n++] = *p;
            ident[n] = '\0';
            while (isspace((unsigned char)*p))
                p++;
            if (*p != '[' || n == 0) {
                r->err = "cannot load file (syntax error)";
                return false;
            }
            while (*p == '[' && !r->stopped) {
                size_t k = 0;
                for (p++; *p && *p != ']'; p++) {
                    if (*p == '\\' && p[1])
                        p++;
                    if (k + 1 < sizeof value)
                        value[k++] = *p;
                }
                if (*p != ']') {
                    r->err = "cannot load file (syntax error)";
                    return false;
                }
                p++;
                value[k] = '\0';
                if (!sgf_property(r, ident, value))
                    return false;
                while (isspace((unsigned char)*p))
                    p++;
            }
        } else {
            r->err = "cannot load file (syntax error)";
            return false;
        }
    }
    return true;
}

/* The longest SGF file loadsgf reads. */
static const long GTP_MAX_SGF = 1L << 20;

/*
 * loadsgf FILE [MOVE_NUMBER]: board size, komi and position of the game
 * record's main line, up to (not including) move MOVE_NUMBER (0 or absent:
 * to the end). Set-up stones (AB, AW) are set-up stones here too (undo
 * stops before them); PL gives the turn. On any error the previous game is
 * kept.
 */
static void cmd_loadsgf(gtp *g, const char *id, int argc, char **argv)
{
    long stop = 0;
    if (argc < 1 || argc > 2 || (argc == 2 && !parse_int(argv[1], 0, 2147483647L, &stop))) {
        reply(id, false, "syntax error (loadsgf FILE [MOVE_NUMBER])");
        return;
    }
    FILE *f = fopen(argv[0], "rb");
    char *text = malloc((size_t)GTP_MAX_SGF + 1);
    size_t len = f && text ? fread(text, 1, (size_t)GTP_MAX_SGF + 1, f) : 0;
    bool read_ok = f && text && !ferror(f) && len <= (size_t)GTP_MAX_SGF;
    if (f)
        fclose(f);
    if (!read_ok) {
        free(text);
        reply(id, false, "cannot load file");
        return;
    }
    text[len] = '\0';
    sgf_reader r = { .p = text, .size = 19, .komi2 = 0, .stop_at = stop };
    bool ok = sgf_read(&r);
    free(text);

    /* Replay it on a new game; on failure, back to the old one. */
    int old_size = g->size, old_komi2 = g->komi2;
    size_t old_n = g->nmoves;
    gtp_move *old = malloc(sizeof *old * (old_n ? old_n : 1));
    bool replaced = false;
    if (ok && !old)
        r.err = "out of memory", ok = false;
    if (ok) {
        if (old_n)
            memcpy(old, g->moves, sizeof *old * old_n); /* g->moves may be NULL */
        g->size = r.size;
        g->komi2 = r.komi2;
        replaced = true;
        if (new_game(g) != GTS_OK)
            r.err = "out of memory", ok = false;
    }
    for (size_t i = 0; ok && i < r.n; i++) {
        const sgf_action *a = &r.act[i];
        const char *err = a->kind == SGF_PLAYER ? skip_to(g, a->color, true)
                                                : play_as(g, a->color, a->move, a->kind == SGF_SETUP);
        if (err)
            r.err = "cannot load file (an illegal move or set-up stone)", ok = false;
    }
    if (!ok && replaced) {
        g->size = old_size;
        g->komi2 = old_komi2;
        replay(g, old, old_n);
    }
    free(old);
    free(r.act);
    if (!ok)
        reply(id, false, "%s", r.err ? r.err : "cannot load file");
    else
        reply(id, true, "");
}

static void cmd_showboard(gtp *g, const char *id, int argc, char **argv)
{
    static const char COLS[] = "ABCDEFGHJKLMNOPQRST";
    char board[19 * 20 + 1];
    if (gts_go_board(g->state, board, sizeof board) != GTS_OK) {
        reply(id, false, "cannot show the board");
        return;
    }
    printf("=%s\n   ", id);
    for (int x = 0; x < g->size; x++)
        printf(" %c", COLS[x]);
    putchar('\n');
    const char *row = board;
    for (int y = g->size; y >= 1; y--) {
        printf("%2d ", y);
        for (int x = 0; x < g->size; x++)
            printf(" %c", row[x]);
        printf("  %d\n", y);
        row += g->size + 1;
    }
    printf("   ");
    for (int x = 0; x < g->size; x++)
        printf(" %c", COLS[x]);
    int a = gts_go_area(g->state);
    printf("\n%s to move, komi %.1f, move %zu, area %c+%.1f\n\n",
           to_move(g) == GTP_BLACK ? "Black" : "White", g->komi2 / 2.0, g->nmoves,
           a >= 0 ? 'B' : 'W', abs(a) / 2.0);
    fflush(stdout);
}

static void cmd_time_settings(gtp *g, const char *id, int argc, char **argv)
{
    long main_t, byo_t, stones;
    if (argc != 3 || !parse_int(argv[0], 0, 100000000, &main_t) ||
        !parse_int(argv[1], 0, 100000000, &byo_t) || !parse_int(argv[2], 0, 100000000, &stones)) {
        reply(id, false, "syntax error (time_settings MAIN BYO_YOMI STONES)");
        return;
    }
    g->clock.set = true;
    g->clock.main_time = (double)main_t;
    g->clock.byo_time = (double)byo_t;
    g->clock.byo_stones = (int)stones;
    g->clock.have_left[0] = g->clock.have_left[1] = false;
    reply(id, true, "");
}

static void cmd_time_left(gtp *g, const char *id, int argc, char **argv)
{
    int color;
    long t, stones;
    if (argc != 3 || !parse_color(argv[0], &color) || !parse_int(argv[1], 0, 100000000, &t) ||
        !parse_int(argv[2], 0, 100000000, &stones)) {
        reply(id, false, "syntax error (time_left COLOR TIME STONES)");
        return;
    }
    g->clock.have_left[color] = true;
    g->clock.left[color] = (double)t;
    g->clock.left_stones[color] = (int)stones;
    reply(id, true, "");
}

static const struct {
    const char *name;
    gtp_fn fn;
} COMMANDS[] = {
    { "boardsize", cmd_boardsize },
    { "clear_board", cmd_clear_board },
    { "final_score", cmd_final_score },
    { "final_status_list", cmd_final_status_list },
    { "fixed_handicap", cmd_fixed_handicap },
    { "genmove", cmd_genmove },
    { "gts-policy_move", cmd_policy_move },
    { "kgs-genmove_cleanup", cmd_genmove_cleanup },
    { "known_command", cmd_known_command },
    { "komi", cmd_komi },
    { "list_commands", cmd_list_commands },
    { "loadsgf", cmd_loadsgf },
    { "name", cmd_name },
    { "place_free_handicap", cmd_place_free_handicap },
    { "play", cmd_play },
    { "protocol_version", cmd_protocol_version },
    { "quit", cmd_quit },
    { "set_free_handicap", cmd_set_free_handicap },
    { "showboard", cmd_showboard },
    { "time_left", cmd_time_left },
    { "time_settings", cmd_time_settings },
    { "undo", cmd_undo },
    { "version", cmd_version },
};
static const size_t NCOMMANDS = sizeof COMMANDS / sizeof COMMANDS[0];

static void cmd_list_commands(gtp *g, const char *id, int argc, char **argv)
{
    printf("=%s ", id);
    for (size_t i = 0; i < NCOMMANDS; i++)
        printf("%s%s", COMMANDS[i].name, i + 1 < NCOMMANDS ? "\n" : "");
    fputs("\n\n", stdout);
    fflush(stdout);
}

static void cmd_known_command(gtp *g, const char *id, int argc, char **argv)
{
    bool known = false;
    for (size_t i = 0; argc == 1 && i < NCOMMANDS; i++)
        known |= strcmp(argv[0], COMMANDS[i].name) == 0;
    reply(id, true, known ? "true" : "false");
}

/* ---- the protocol loop -------------------------------------------------- */

/*
 * Read one line into @p buf (without the newline), cleaned as GTP asks.
 * Returns 1 for a line, 0 at end of input, -1 for a line too long (read
 * and discarded up to its newline).
 */
static int read_line(char *buf, size_t size)
{
    size_t n = 0;
    bool too_long = false, any = false;
    int c;
    while ((c = getchar()) != EOF) {
        any = true;
        if (c == '\n')
            break;
        if (c == '\t')
            c = ' ';
        else if ((c < 32 && c != ' ') || c == 127)
            continue;
        if (n + 1 >= size) {
            too_long = true;
            continue;
        }
        buf[n++] = (char)c;
    }
    buf[n] = '\0';
    if (!any)
        return 0;
    return too_long ? -1 : 1;
}

static void handle(gtp *g, char *line)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *argv[GTP_MAX_ARGS + 1];
    int argc = 0;
    bool too_many = false;
    for (char *tok = strtok(line, " "); tok; tok = strtok(NULL, " ")) {
        if (argc == GTP_MAX_ARGS + 1) {
            too_many = true;
            break;
        }
        argv[argc++] = tok;
    }
    if (argc == 0)
        return; /* an empty line: no reply */
    char id[24] = "";
    int first = 0;
    if (isdigit((unsigned char)argv[0][0])) {
        long v;
        if (strlen(argv[0]) >= sizeof id || !parse_int(argv[0], 0, 2147483647L, &v)) {
            reply("", false, "invalid command id");
            return;
        }
        snprintf(id, sizeof id, "%ld", v);
        first = 1;
        if (argc == 1) {
            reply(id, false, "no command");
            return;
        }
    }
    if (too_many) {
        reply(id, false, "too many arguments");
        return;
    }
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (strcmp(argv[first], COMMANDS[i].name) == 0) {
            COMMANDS[i].fn(g, id, argc - first - 1, argv + first + 1);
            return;
        }
    }
    reply(id, false, "unknown command");
}

static void usage(FILE *f, const char *prog, const cli_remote *remote)
{
    fprintf(f,
            "Usage: %s [OPTIONS]\n"
            "\n"
            "A Go engine speaking GTP 2 on stdin/stdout, on libgts' MCTS (libgts %s).\n"
            "\n"
            "Options:\n"
            "  --playouts N     at most N playouts per move (default 0: no limit)\n"
            "  --seconds S      seconds per move without time_settings (default 1;\n"
            "                   0 with --playouts: playouts only)\n"
            "  --threads T      search threads (default 1)\n"
            "  --rave K         RAVE equivalence parameter (default 1000; 0 off)\n"
            "  --exploration C  UCB1 constant in hundredths (default 20: RAVE explores)\n"
            "  --eval-scale S   logistic scale of capped playouts (default 100 =\n"
            "                   one point of area)\n"
            "  --resign R       resign below this win rate (default 0.1; 0 never)\n"
            "  --seed N         playout seed of the first game, N + k for the k-th\n"
            "                   board cleared after it (default 0)\n"
            "  --boardsize N    initial board size (default 9)\n"
            "  --komi K         initial komi (default 7.5)\n"
            "  --patterns       playouts with MoGo's 3x3 patterns and a capture anywhere\n"
            "                   (the adapter's patterns=1; default off: slower, no gain\n"
            "                   measured against GNU Go)\n"
            "  --option NAME=V  any engine option by name (gts_option_from_name), e.g.\n"
            "                   --option tree_mb=512 (default tree_mb=256); repeatable;\n"
            "                   the experimental ones (GTS_EXPERIMENTAL_API: split_ply,\n"
            "                   virtual, ...) may change in any minor release\n"
            "  --verbose        search figures on stderr\n"
            "  --help           this text\n",
            prog, gts_version_string());
    if (remote)
        fprintf(f, "\n"
                   "Under mpirun every genmove searches with every rank (distributed MCTS,\n"
                   "gts_mpi_mcts): --playouts counts the playouts of all ranks, --seconds\n"
                   "is each rank's time; GTP on rank 0's stdin and stdout.\n");
}

int gtp_main(int argc, char **argv, const cli_remote *remote)
{
    gtp g = {0};
    g.remote = remote;
    g.opt.seconds = 1.0;
    g.opt.threads = 1;
    g.opt.rave = 1000;
    g.opt.exploration = 20;
    g.opt.eval_scale = 100;
    g.opt.resign = 0.1;
    g.size = 9;
    g.komi2 = 15;
    bool seconds_given = false;
    const char *options[32] = { "tree_mb=256" };
    int noptions = 1;
    static const struct option LONG[] = {
        { "playouts", required_argument, NULL, 'p' },
        { "seconds", required_argument, NULL, 's' },
        { "threads", required_argument, NULL, 't' },
        { "rave", required_argument, NULL, 'r' },
        { "exploration", required_argument, NULL, 'c' },
        { "eval-scale", required_argument, NULL, 'e' },
        { "resign", required_argument, NULL, 'R' },
        { "seed", required_argument, NULL, 'S' },
        { "boardsize", required_argument, NULL, 'b' },
        { "komi", required_argument, NULL, 'k' },
        { "patterns", no_argument, NULL, 'P' },
        { "option", required_argument, NULL, 'o' },
        { "verbose", no_argument, NULL, 'v' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "", LONG, NULL)) != -1) {
        long v;
        double d;
        bool ok = true;
        switch (c) {
        case 'p': ok = parse_int(optarg, 0, 2000000000L, &v); g.opt.playouts = (uint64_t)v; break;
        case 's':
            ok = parse_real(optarg, 0, 1e6, &d);
            g.opt.seconds = d;
            seconds_given = true;
            break;
        case 't': ok = parse_int(optarg, 1, 256, &v); g.opt.threads = (int)v; break;
        case 'r': ok = parse_int(optarg, 0, 1000000000L, &v); g.opt.rave = v; break;
        case 'c': ok = parse_int(optarg, 0, 10000, &v); g.opt.exploration = v; break;
        case 'e': ok = parse_int(optarg, 1, GTS_SCORE_WIN, &v); g.opt.eval_scale = v; break;
        case 'R': ok = parse_real(optarg, 0, 1, &d); g.opt.resign = d; break;
        case 'S': ok = parse_int(optarg, 0, 2000000000L, &v); g.opt.seed = (uint64_t)v; break;
        case 'b': ok = parse_int(optarg, 2, 19, &v); g.size = (int)v; break;
        case 'k':
            ok = parse_real(optarg, -150, 150, &d) && fabs(d * 2 - lround(d * 2)) < 1e-9;
            g.komi2 = (int)lround(d * 2);
            break;
        case 'o':
            if (noptions == sizeof options / sizeof options[0]) {
                fprintf(stderr, "%s: too many --option\n", argv[0]);
                return 2;
            }
            options[noptions++] = optarg;
            break;
        case 'P': g.opt.patterns = true; break;
        case 'v': g.opt.verbose = true; break;
        case 'h': usage(stdout, argv[0], remote); return 0;
        default: usage(stderr, argv[0], remote); return 2;
        }
        if (!ok) {
            fprintf(stderr, "%s: bad option value: %s\n", argv[0], optarg);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument: %s\n", argv[0], argv[optind]);
        usage(stderr, argv[0], remote);
        return 2;
    }
    g.rng = g.opt.seed;
    if (g.opt.playouts > 0 && !seconds_given)
        g.opt.seconds = 0;

    g.game = gts_games_find("go");
    if (!g.game || gts_engine_new(&g.engine) != GTS_OK) {
        fprintf(stderr, "%s: cannot create the engine\n", argv[0]);
        return 1;
    }
    gts_status rc = gts_engine_set(g.engine, GTS_OPT_THREADS, g.opt.threads);
    if (rc == GTS_OK && g.opt.playouts > 0)
        rc = gts_engine_set(g.engine, GTS_OPT_MCTS_PLAYOUTS, (int64_t)g.opt.playouts);
    if (rc == GTS_OK)
        rc = gts_engine_set(g.engine, GTS_OPT_MCTS_EVAL_SCALE, g.opt.eval_scale);
    if (rc == GTS_OK && g.opt.exploration >= 0)
        rc = gts_engine_set(g.engine, GTS_OPT_MCTS_EXPLORATION, g.opt.exploration);
    if (rc == GTS_OK)
        rc = gts_engine_set(g.engine, GTS_OPT_MCTS_RAVE, g.opt.rave);
    for (int i = 0; rc == GTS_OK && i < noptions; i++) {
        char name[64];
        const char *eq = strchr(options[i], '=');
        size_t len = eq ? (size_t)(eq - options[i]) : 0;
        gts_option o;
        long v;
        if (!eq || len == 0 || len >= sizeof name) {
            fprintf(stderr, "%s: --option wants NAME=VALUE: %s\n", argv[0], options[i]);
            gts_engine_free(g.engine);
            return 2;
        }
        memcpy(name, options[i], len);
        name[len] = '\0';
        if (gts_option_from_name(name, &o) != GTS_OK ||
            !parse_int(eq + 1, -2000000000L, 2000000000L, &v) ||
            gts_engine_set(g.engine, o, v) != GTS_OK) {
            if (i == 0) /* the built-in default: an older library may lack it */
                continue;
            fprintf(stderr, "%s: bad engine option: %s\n", argv[0], options[i]);
            gts_engine_free(g.engine);
            return 2;
        }
    }
    if (rc != GTS_OK || new_game(&g) != GTS_OK) {
        fprintf(stderr, "%s: cannot set up the engine: %s\n", argv[0], gts_strerror(rc));
        gts_engine_free(g.engine);
        return 1;
    }

    char *line = malloc(GTP_MAX_LINE);
    if (!line) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    while (!g.quit) {
        int r = read_line(line, GTP_MAX_LINE);
        if (r == 0)
            break;
        if (r < 0)
            reply("", false, "line too long");
        else
            handle(&g, line);
    }
    free(line);
    free(g.moves);
    gts_games_free(g.game, g.state);
    gts_engine_free(g.engine);
    return 0;
}

#ifndef GTS_GTP_NO_MAIN
/* gts-mpi (mpi/meson.build) compiles this file with GTS_GTP_NO_MAIN and
 * runs gtp_main() with its remote search. */
int main(int argc, char **argv)
{
    return gtp_main(argc, argv, NULL);
}
#endif
