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
 * `genmove` for the colour not to move is preceded by an implied pass of
 * the other colour (handicap stones and edited positions work that way),
 * and `undo` takes back both. The rules are the adapter's: positional
 * superko, suicide illegal, Tromp-Taylor area scoring (final_score), and a
 * cap of GTP_CAP_PER_POINT moves per board point.
 *
 * genmove. When the opponent has just passed and the board as it stands
 * already wins under area scoring, pass (ending the game). Otherwise run
 * gts_mcts() for the time this move gets (time_settings / time_left, else
 * --seconds) and at most --playouts playouts, with --threads workers, RAVE
 * (--rave) and the adapter's playout policy (MoGo's patterns too with
 * --patterns); play the most visited move, or resign when its mean reward
 * is below --resign after enough playouts.
 * The tree of the previous search is reused (gts_mcts_advance()) when the
 * moves since then are known.
 *
 * Usage errors exit 2, a failure to start (no memory) 1.
 */
#include <gts/gts.h>
#include "gts_games.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    GTP_MAX_LINE = 4096,
    GTP_MAX_ARGS = 8,
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

typedef struct gtp_move {
    gts_move move;
    bool implied; /* a pass the engine inserted before an out-of-turn move */
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
    char text[96];
    snprintf(text, sizeof text, "%d komi=%.1f maxmoves=%d patterns=%d", g->size, g->komi2 / 2.0,
             GTP_CAP_PER_POINT * g->size * g->size, g->opt.patterns ? 1 : 0);
    void *s = NULL;
    gts_status rc = gts_go_new(text, &s);
    if (rc != GTS_OK)
        return rc;
    gts_games_free(g->game, g->state);
    g->state = s;
    g->nmoves = 0;
    g->searched_at = SIZE_MAX;
    /* a different (reproducible) random stream for every game */
    gts_engine_set(g->engine, GTS_OPT_MCTS_SEED, (int64_t)((g->opt.seed + g->games++) % (1ull << 62)));
    return GTS_OK;
}

/* Replay the recorded moves on a fresh state (after a komi change). */
static gts_status rebuild(gtp *g)
{
    size_t n = g->nmoves;
    gtp_move *keep = g->moves;
    g->moves = malloc(sizeof *g->moves * (g->cap ? g->cap : 1));
    if (!g->moves) {
        g->moves = keep;
        return GTS_ENOMEM;
    }
    gts_status rc = new_game(g);
    for (size_t i = 0; rc == GTS_OK && i < n; i++) {
        if (g->game->apply(g->state, keep[i].move, g->game->user) != 0)
            rc = GTS_EPARSE;
        else
            g->moves[g->nmoves++] = keep[i];
    }
    free(keep);
    return rc;
}

static bool record(gtp *g, gts_move m, bool implied)
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
 * Play @p m for @p color, with an implied pass first when @p color is not
 * to move. Returns NULL or the error text (the state is then unchanged).
 */
static const char *play_move(gtp *g, int color, gts_move m)
{
    bool implied = false;
    if (color != to_move(g)) {
        if (game_over(g))
            return "illegal move (the game is over)";
        if (g->game->apply(g->state, GTS_GO_PASS, g->game->user) != 0)
            return "illegal move";
        if (!record(g, GTS_GO_PASS, true)) {
            g->game->undo(g->state, GTS_GO_PASS, g->game->user);
            return "out of memory";
        }
        implied = true;
    }
    const char *err = NULL;
    if (g->game->apply(g->state, m, g->game->user) != 0)
        err = game_over(g) ? "illegal move (the game is over)" : "illegal move";
    else if (!record(g, m, false)) {
        g->game->undo(g->state, m, g->game->user);
        err = "out of memory";
    }
    if (err && implied)
        undo_one(g);
    return err;
}

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

static bool parse_int(const char *t, long lo, long hi, long *out)
{
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
 * Choose and play a move for @p color; writes its vertex (or "resign") to
 * @p out. Returns NULL or an error text.
 */
static const char *genmove(gtp *g, int color, char *out, size_t size)
{
    if (color != to_move(g)) {
        const char *err = play_move(g, 1 - color, GTS_GO_PASS);
        if (err) { /* the game is over: nothing to play */
            snprintf(out, size, "pass");
            return NULL;
        }
        g->moves[g->nmoves - 1].implied = true;
    }
    if (game_over(g)) {
        snprintf(out, size, "pass");
        return NULL;
    }
    bool opp_passed = g->nmoves > 0 && g->moves[g->nmoves - 1].move == GTS_GO_PASS &&
                      !g->moves[g->nmoves - 1].implied;
    if (opp_passed && margin_for(g, color) > 0) {
        const char *err = play_move(g, color, GTS_GO_PASS);
        if (err)
            return err;
        snprintf(out, size, "pass");
        return NULL;
    }

    /* Step 1. Tree reuse: follow the moves played since the last search. */
    if (g->searched_at != SIZE_MAX && g->searched_at <= g->nmoves) {
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

    /* Step 2. Search. */
    double budget = move_budget(g, color);
    gts_limits lim = {.struct_size = sizeof lim};
    if (budget > 0)
        lim.time_ms = (uint64_t)(budget * 1000.0) + 1;
    if (budget <= 0 && g->opt.playouts == 0)
        lim.time_ms = 1000;
    gts_result r = {.struct_size = sizeof r};
    gts_status rc = gts_mcts(g->engine, g->game, g->state, &lim, &r);
    if (rc != GTS_OK) {
        g->searched_at = SIZE_MAX;
        return gts_strerror(rc);
    }
    g->searched_at = g->nmoves;

    /* Step 3. Resign, or play the best move. */
    gts_mcts_move_stats st[GTS_GO_PASS + 1];
    st[0].struct_size = sizeof st[0];
    int n = gts_mcts_root_stats(g->engine, st, GTS_GO_PASS + 1);
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

static void cmd_play(gtp *g, const char *id, int argc, char **argv)
{
    int color;
    gts_move m;
    if (argc != 2 || !parse_color(argv[0], &color)) {
        reply(id, false, "syntax error (play COLOR VERTEX)");
        return;
    }
    /* parse_move checks legality for the side to move; parse the vertex on
     * its own first, so that "illegal move" and "syntax error" differ. */
    char up[8];
    size_t n = strlen(argv[1]);
    bool vertex_ok = n > 0 && n < sizeof up;
    if (vertex_ok) {
        for (size_t i = 0; i <= n; i++)
            up[i] = (char)toupper((unsigned char)argv[1][i]);
        vertex_ok = strcmp(up, "PASS") == 0 ||
                    (n >= 2 && n <= 3 && isalpha((unsigned char)up[0]) && up[0] != 'I' &&
                     isdigit((unsigned char)up[1]) && (n == 2 || isdigit((unsigned char)up[2])));
    }
    if (!vertex_ok) {
        reply(id, false, "syntax error (invalid vertex)");
        return;
    }
    if (strcmp(up, "PASS") == 0) {
        m = GTS_GO_PASS;
    } else {
        int x = up[0] - 'A' - (up[0] > 'I'), y = atoi(up + 1) - 1;
        if (x < 0 || x >= g->size || y < 0 || y >= g->size || up[1] == '0') {
            reply(id, false, "illegal move (off the board)");
            return;
        }
        m = (gts_move)(y * g->size + x);
    }
    const char *err = play_move(g, color, m);
    if (err)
        reply(id, false, "%s", err);
    else
        reply(id, true, "");
}

static void cmd_genmove(gtp *g, const char *id, int argc, char **argv)
{
    int color;
    if (argc != 1 || !parse_color(argv[0], &color)) {
        reply(id, false, "syntax error (genmove COLOR)");
        return;
    }
    char out[16];
    const char *err = genmove(g, color, out, sizeof out);
    if (err)
        reply(id, false, "%s", err);
    else
        reply(id, true, "%s", out);
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
    if (color != to_move(g) && play_move(g, 1 - color, GTS_GO_PASS) == NULL)
        g->moves[g->nmoves - 1].implied = true;
    if (color != to_move(g) || game_over(g)) {
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

static void cmd_undo(gtp *g, const char *id, int argc, char **argv)
{
    if (g->nmoves == 0) {
        reply(id, false, "cannot undo");
        return;
    }
    bool ok = undo_one(g);
    while (ok && g->nmoves > 0 && g->moves[g->nmoves - 1].implied)
        ok = undo_one(g);
    reply(id, ok, ok ? "" : "cannot undo");
}

static void cmd_final_score(gtp *g, const char *id, int argc, char **argv)
{
    int a = gts_go_area(g->state);
    if (a == 0)
        reply(id, true, "0");
    else
        reply(id, true, "%c+%.1f", a > 0 ? 'B' : 'W', abs(a) / 2.0);
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
    { "gts-policy_move", cmd_policy_move },
    { "genmove", cmd_genmove },
    { "known_command", cmd_known_command },
    { "komi", cmd_komi },
    { "list_commands", cmd_list_commands },
    { "name", cmd_name },
    { "play", cmd_play },
    { "protocol_version", cmd_protocol_version },
    { "quit", cmd_quit },
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

static void usage(FILE *f, const char *prog)
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
            "                   --option tree_mb=512 (default tree_mb=256); repeatable\n"
            "  --verbose        search figures on stderr\n"
            "  --help           this text\n",
            prog, gts_version_string());
}

int main(int argc, char **argv)
{
    gtp g = {0};
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
        case 'h': usage(stdout, argv[0]); return 0;
        default: usage(stderr, argv[0]); return 2;
        }
        if (!ok) {
            fprintf(stderr, "%s: bad option value: %s\n", argv[0], optarg);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument: %s\n", argv[0], argv[optind]);
        usage(stderr, argv[0]);
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
