/*
 * gts-uci.c - a chess engine speaking UCI on stdin/stdout, on top of
 * gts_search() and the chess adapter of libgts-games, through its engine
 * vtable gts_game_chess_engine(): a repetition since the position of the
 * last `position` command (gts_chess_set_root) is a draw inside the search.
 *
 * What. One command per line (UCI, as cutechess-cli, Arena and the like
 * send it): uci, debug, isready, setoption, ucinewgame, position, go, stop,
 * ponderhit, quit. Everything printed goes to stdout, one line at a time
 * under a lock (the search thread prints too). Bad input never crashes or
 * hangs it: an unknown command or option, a malformed `position` (bad FEN,
 * impossible position, illegal move: the whole command is refused and the
 * previous position kept), a `go` while searching, a line longer than
 * UCI_MAX_LINE bytes (discarded whole) are answered by `info string ...`.
 * End of input ends the program like `quit`, after stopping a search.
 *
 * Search. `go` starts one gts_search() on a clone of the position, on its
 * own thread, so that the main thread keeps reading: `stop` and `quit` call
 * gts_engine_stop() (thread-safe, answered within milliseconds) and join
 * the thread, which prints `bestmove`. `isready` is answered at once, even
 * during a search. Each completed iteration prints
 * `info depth D seldepth S score cp X|mate N nodes N nps N hashfull H time T pv ...`
 * from gts_limits::on_iteration. `go infinite` (or `ponder`) holds the
 * bestmove back until `stop`, as UCI requires. When the root is a draw by
 * the 50-move rule or repetition (the adapter then has no moves to search)
 * but moves are legal, the first legal move is played.
 *
 * Time. movetime M: M less a reserve. wtime/btime (+ winc/binc,
 * movestogo): a base of remaining / movestogo (UCI_DEFAULT_MOVES_TO_GO
 * when not given) plus 3/4 of the increment; no new iteration starts past
 * UCI_SOFT_FRACTION of the base, and the search is cut at
 * min(UCI_HARD_FACTOR x base, remaining / UCI_HARD_DIVISOR) less the
 * reserve.
 *
 * Options: Hash (MiB, the transposition table), Threads (the workers of a
 * parallel algorithm: with a serial one, such as the default pvs, only one
 * thread searches), Algorithm (a combo of the exact depth-first algorithms
 * of `gts algorithms`), Clear Hash.
 *
 * Usage: gts-uci [--help | --version]; exit 2 on a bad argument.
 */
#include <gts/gts.h>
#include "gts_games.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

enum {
    UCI_MAX_LINE = 1 << 16,     /* longer lines are discarded */
    UCI_MAX_TOKENS = 4096,
    UCI_MAX_GAME_PLIES = 1800,  /* moves of a position command (the adapter keeps 2048) */
    UCI_DEFAULT_HASH_MB = 16,
    UCI_MAX_HASH_MB = 4096,
    UCI_MAX_THREADS = 256,
};

static const char UCI_NAME[] = "gts-uci";
static const char UCI_DEFAULT_ALG[] = "pvs";
/* Time management (see the header comment). */
static const int64_t UCI_DEFAULT_MOVES_TO_GO = 30;
static const int64_t UCI_HARD_FACTOR = 3;
static const int64_t UCI_HARD_DIVISOR = 3;
static const double UCI_SOFT_FRACTION = 0.5;
static const int64_t UCI_RESERVE_MS = 30; /* protocol and process overhead */
static const int64_t UCI_MIN_MOVE_MS = 5;

/* ---- output ------------------------------------------------------------- */

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&out_lock);
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    pthread_mutex_unlock(&out_lock);
    va_end(ap);
}

/* Text from the input, quoted in a message: printable ASCII kept, anything
 * else as \xHH, at most 64 bytes then "...". */
static void quote(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; in[i] && n + 8 < size; i++) {
        unsigned char c = (unsigned char)in[i];
        if (i >= 64) {
            n += (size_t)snprintf(out + n, size - n, "...");
            break;
        }
        if (c >= 0x20 && c < 0x7f)
            out[n++] = (char)c;
        else
            n += (size_t)snprintf(out + n, size - n, "\\x%02x", c);
    }
    out[n] = '\0';
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* ---- the engine's state ------------------------------------------------ */

typedef struct uci {
    gts_engine *engine;
    const gts_game *game;
    void *position;           /* the current position (main thread only) */
    int side;                 /* 0 white, 1 black to move in position */
    gts_algorithm alg;
    /* The search thread and what it shares with the main thread. */
    pthread_t thread;
    bool searching;           /* a thread was started and not yet joined */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool stop_requested;      /* stop / quit arrived (under lock) */
    bool hold_bestmove;       /* go infinite / ponder: wait for stop (under lock) */
    bool done;                /* the thread is printing bestmove (under lock) */
    /* The search's own data, written before the thread starts. */
    void *search_state;
    gts_limits limits;
    uint64_t start_ms;
    uint64_t soft_ms;         /* 0: none */
} uci;

static int mate_moves(gts_score s)
{
    int plies = gts_score_plies_to_end(s);
    return gts_score_is_win(s) ? (plies + 1) / 2 : -((plies + 1) / 2);
}

static void format_score(gts_score s, char *buf, size_t size)
{
    if (gts_score_is_win(s) || gts_score_is_loss(s))
        snprintf(buf, size, "mate %d", mate_moves(s));
    else
        snprintf(buf, size, "cp %d", (int)s);
}

static int on_iteration(const gts_result *r, void *user)
{
    uci *u = user;
    char score[32], pv[GTS_MAX_PLY * 6 + 1];
    size_t used = 0;
    pv[0] = '\0';
    for (uint32_t i = 0; i < r->pv_length && i < GTS_MAX_PLY; i++) {
        char mv[16];
        if (u->game->format_move(u->search_state, r->pv[i], mv, sizeof mv, NULL) < 0)
            break;
        used += (size_t)snprintf(pv + used, sizeof pv - used, "%s%s", i ? " " : "", mv);
    }
    format_score(r->score, score, sizeof score);
    uint64_t ms = r->time_us / 1000u;
    uint64_t nps = r->time_us ? r->nodes * 1000000u / r->time_us : 0;
    say("info depth %d seldepth %d score %s nodes %" PRIu64 " nps %" PRIu64
        " hashfull %d time %" PRIu64 "%s%s",
        (int)r->depth, (int)r->seldepth, score, r->nodes, nps, gts_engine_hashfull(u->engine), ms,
        pv[0] ? " pv " : "", pv);
    /* A new iteration would likely not finish in time: stop here. */
    if (u->soft_ms && now_ms() - u->start_ms >= u->soft_ms)
        return 1;
    return 0;
}

/* A legal move when the search has none to offer (the root is a draw by
 * the 50-move rule or repetition, which the adapter ends, though a game
 * goes on until it is claimed): the first that parses. */
static bool any_legal_move(const uci *u, void *state, char *buf, size_t size)
{
    static const char promo[] = { '\0', 'q', 'r', 'b', 'n' };
    for (int from = 0; from < 64; from++)
        for (int to = 0; to < 64; to++)
            for (int p = 0; p < 5; p++) {
                char text[6] = { (char)('a' + from % 8), (char)('1' + from / 8),
                                 (char)('a' + to % 8), (char)('1' + to / 8), promo[p], '\0' };
                gts_move m;
                if (u->game->parse_move(state, text, &m, NULL) == 0) {
                    snprintf(buf, size, "%s", text);
                    return true;
                }
            }
    return false;
}

static void *search_main(void *arg)
{
    uci *u = arg;
    gts_result r = { .struct_size = sizeof r };
    gts_status rc = gts_search(u->engine, u->alg, u->game, u->search_state, &u->limits, &r);
    char best[16] = "0000";
    if (rc != GTS_OK)
        say("info string search failed: %s", gts_strerror(rc));
    if (rc == GTS_OK && (r.flags & GTS_RESULT_HAS_MOVE))
        u->game->format_move(u->search_state, r.best_move, best, sizeof best, NULL);
    else if (!any_legal_move(u, u->search_state, best, sizeof best))
        snprintf(best, sizeof best, "0000");
    /* go infinite / ponder: bestmove only after stop. */
    pthread_mutex_lock(&u->lock);
    while (u->hold_bestmove && !u->stop_requested)
        pthread_cond_wait(&u->cond, &u->lock);
    u->done = true; /* set before the GUI can see bestmove and answer it */
    pthread_mutex_unlock(&u->lock);
    say("bestmove %s", best);
    return NULL;
}

/* Stop the running search (if any) and wait for its bestmove. */
static void stop_search(uci *u)
{
    if (!u->searching)
        return;
    pthread_mutex_lock(&u->lock);
    u->stop_requested = true;
    pthread_cond_broadcast(&u->cond);
    pthread_mutex_unlock(&u->lock);
    gts_engine_stop(u->engine);
    pthread_join(u->thread, NULL);
    u->game->free(u->search_state, NULL);
    u->search_state = NULL;
    u->searching = false;
}

/* Join a search that ended on its own (its bestmove printed or being
 * printed), so that the next command finds the engine idle. */
static void reap_search(uci *u)
{
    if (!u->searching)
        return;
    pthread_mutex_lock(&u->lock);
    bool done = u->done;
    pthread_mutex_unlock(&u->lock);
    if (done)
        stop_search(u);
}

/* ---- commands -------------------------------------------------------------- */

static bool busy(const uci *u, const char *what)
{
    if (u->searching)
        say("info string %s ignored: a search is running (send stop first)", what);
    return u->searching;
}

static void cmd_uci(void)
{
    int64_t tmin, tmax, tdef;
    gts_option_bounds(GTS_OPT_THREADS, &tmin, &tmax, &tdef);
    say("id name %s %s", UCI_NAME, gts_version_string());
    say("id author the libgts authors");
    say("option name Hash type spin default %d min 1 max %d", UCI_DEFAULT_HASH_MB, UCI_MAX_HASH_MB);
    say("option name Threads type spin default 1 min 1 max %d",
        (int)(tmax < UCI_MAX_THREADS ? tmax : UCI_MAX_THREADS));
    char combo[2048];
    size_t used = (size_t)snprintf(combo, sizeof combo,
                                   "option name Algorithm type combo default %s", UCI_DEFAULT_ALG);
    gts_algorithm algs[64];
    int n = gts_algorithm_list(algs, 64);
    for (int i = 0; i < n && i < 64; i++) {
        /* The exact depth-first algorithms (not minimax: no pruning at all;
         * not the best-first ones, 40s and Stockman's SSS*). */
        if (!gts_algorithm_is_exact(algs[i]) || algs[i] >= GTS_ALG_MCTS ||
            algs[i] == GTS_ALG_SSSSTAR_STOCKMAN || algs[i] == GTS_ALG_MINIMAX)
            continue;
        used += (size_t)snprintf(combo + used, sizeof combo - used, " var %s",
                                 gts_algorithm_name(algs[i]));
        if (used >= sizeof combo)
            break;
    }
    say("%s", combo);
    say("uciok");
}

static bool algorithm_allowed(gts_algorithm a)
{
    return gts_algorithm_is_exact(a) && a < GTS_ALG_MCTS && a != GTS_ALG_SSSSTAR_STOCKMAN &&
           a != GTS_ALG_MINIMAX;
}

static bool parse_int(const char *t, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    if (!t || !*t)
        return false;
    long long v = strtoll(t, &end, 10);
    if (*end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* setoption name <id...> [value <x...>] */
static void cmd_setoption(uci *u, char **tok, int n)
{
    if (busy(u, "setoption"))
        return;
    char name[256] = "", value[256] = "";
    int i = 1;
    if (i >= n || strcmp(tok[i], "name") != 0) {
        say("info string setoption: expected 'setoption name <id> [value <x>]'");
        return;
    }
    for (i++; i < n && strcmp(tok[i], "value") != 0; i++)
        snprintf(name + strlen(name), sizeof name - strlen(name), "%s%s", name[0] ? " " : "",
                 tok[i]);
    if (i < n)
        for (i++; i < n; i++)
            snprintf(value + strlen(value), sizeof value - strlen(value), "%s%s",
                     value[0] ? " " : "", tok[i]);
    char qn[128], qv[128];
    quote(name, qn, sizeof qn);
    quote(value, qv, sizeof qv);
    int64_t v;
    if (strcasecmp(name, "Hash") == 0) {
        if (!parse_int(value, 1, UCI_MAX_HASH_MB, &v)) {
            say("info string setoption Hash: expected 1..%d, got '%s'", UCI_MAX_HASH_MB, qv);
            return;
        }
        gts_status rc = gts_engine_set(u->engine, GTS_OPT_TT_MB, v);
        if (rc != GTS_OK)
            say("info string setoption Hash %s: %s", qv, gts_strerror(rc));
    } else if (strcasecmp(name, "Threads") == 0) {
        if (!parse_int(value, 1, UCI_MAX_THREADS, &v)) {
            say("info string setoption Threads: expected 1..%d, got '%s'", UCI_MAX_THREADS, qv);
            return;
        }
        gts_status rc = gts_engine_set(u->engine, GTS_OPT_THREADS, v);
        if (rc != GTS_OK)
            say("info string setoption Threads %s: %s", qv, gts_strerror(rc));
    } else if (strcasecmp(name, "Algorithm") == 0) {
        gts_algorithm a;
        if (gts_algorithm_from_name(value, &a) != GTS_OK || !algorithm_allowed(a)) {
            say("info string setoption Algorithm: unknown or not an exact depth-first "
                "algorithm '%s' (see the uci reply)",
                qv);
            return;
        }
        u->alg = a;
    } else if (strcasecmp(name, "Clear Hash") == 0) {
        gts_engine_clear(u->engine);
    } else {
        say("info string setoption: unknown option '%s'", qn);
    }
}

/* position [startpos | fen <fields>] [moves <m>...] */
static void cmd_position(uci *u, char **tok, int n)
{
    if (busy(u, "position"))
        return;
    int i = 1, moves_at = n;
    for (int k = 1; k < n; k++)
        if (strcmp(tok[k], "moves") == 0) {
            moves_at = k;
            break;
        }
    char fen[512] = "";
    if (i < n && strcmp(tok[i], "startpos") == 0) {
        if (moves_at != 2) {
            say("info string position: unexpected text after startpos");
            return;
        }
    } else if (i < n && strcmp(tok[i], "fen") == 0) {
        if (moves_at - 2 < 4 || moves_at - 2 > 6) {
            say("info string position: a FEN has 4 to 6 fields, got %d", moves_at - 2);
            return;
        }
        for (int k = 2; k < moves_at; k++) {
            size_t len = strlen(fen);
            if (len + strlen(tok[k]) + 2 > sizeof fen) {
                say("info string position: FEN too long");
                return;
            }
            snprintf(fen + len, sizeof fen - len, "%s%s", k > 2 ? " " : "", tok[k]);
        }
    } else {
        say("info string position: expected 'position startpos|fen <FEN> [moves ...]'");
        return;
    }
    if (n - moves_at - 1 > UCI_MAX_GAME_PLIES) {
        say("info string position: too many moves (%d, at most %d)", n - moves_at - 1,
            UCI_MAX_GAME_PLIES);
        return;
    }
    void *s = NULL;
    gts_status rc = gts_chess_new(fen, &s);
    if (rc != GTS_OK) {
        char q[160];
        quote(fen, q, sizeof q);
        say("info string position: bad or impossible FEN '%s': %s", q, gts_strerror(rc));
        return;
    }
    int side = 0;
    if (fen[0]) {
        const char *sp = strchr(fen, ' ');
        side = sp && sp[1] == 'b';
    }
    for (int k = moves_at + 1; k < n; k++) {
        gts_move m;
        if (u->game->parse_move(s, tok[k], &m, NULL) != 0 || u->game->apply(s, m, NULL) != 0) {
            char q[160];
            quote(tok[k], q, sizeof q);
            say("info string position: illegal move '%s' (move %d of the list); position "
                "unchanged",
                q, k - moves_at);
            u->game->free(s, NULL);
            return;
        }
        side ^= 1;
    }
    gts_chess_set_root(s); /* repetitions from here on are draws in the search */
    u->game->free(u->position, NULL);
    u->position = s;
    u->side = side;
}

/* go [depth D] [nodes N] [movetime M] [wtime W] [btime B] [winc I] [binc I]
 *    [movestogo N] [mate N] [infinite] [ponder] [searchmoves ...] */
static void cmd_go(uci *u, char **tok, int n)
{
    if (busy(u, "go"))
        return;
    int64_t depth = 0, nodes = 0, movetime = -1, time[2] = { -1, -1 }, inc[2] = { 0, 0 },
            mtg = 0, mate = 0;
    bool infinite = false, ponder = false;
    for (int i = 1; i < n; i++) {
        const char *k = tok[i];
        int64_t *dst = NULL, lo = 0, hi = INT64_C(1) << 40;
        if (strcmp(k, "infinite") == 0) {
            infinite = true;
            continue;
        }
        if (strcmp(k, "ponder") == 0) {
            ponder = true;
            continue;
        }
        if (strcmp(k, "searchmoves") == 0) {
            say("info string go: searchmoves is not supported, searching every move");
            break; /* the moves follow: skip them */
        }
        if (strcmp(k, "depth") == 0) dst = &depth, lo = 1, hi = GTS_MAX_DEPTH;
        else if (strcmp(k, "nodes") == 0) dst = &nodes, lo = 1;
        else if (strcmp(k, "movetime") == 0) dst = &movetime;
        else if (strcmp(k, "wtime") == 0) dst = &time[0], lo = INT64_MIN / 4;
        else if (strcmp(k, "btime") == 0) dst = &time[1], lo = INT64_MIN / 4;
        else if (strcmp(k, "winc") == 0) dst = &inc[0];
        else if (strcmp(k, "binc") == 0) dst = &inc[1];
        else if (strcmp(k, "movestogo") == 0) dst = &mtg, lo = 1, hi = 10000;
        else if (strcmp(k, "mate") == 0) dst = &mate, lo = 1, hi = GTS_MAX_DEPTH / 2;
        char q[160];
        quote(k, q, sizeof q);
        if (!dst) {
            say("info string go: unknown parameter '%s' ignored", q);
            continue;
        }
        if (i + 1 >= n || !parse_int(tok[i + 1], lo, hi, dst)) {
            char qv[160];
            quote(i + 1 < n ? tok[i + 1] : "", qv, sizeof qv);
            say("info string go: %s expects a number in %" PRId64 "..%" PRId64 ", got '%s'; "
                "search not started",
                q, lo, hi, qv);
            say("bestmove 0000");
            return;
        }
        i++;
    }
    u->limits = (gts_limits){ .struct_size = sizeof u->limits };
    u->limits.depth = (int32_t)(mate ? (2 * mate < GTS_MAX_DEPTH ? 2 * mate : GTS_MAX_DEPTH)
                                     : depth);
    u->limits.nodes = (uint64_t)nodes;
    u->soft_ms = 0;
    int64_t mine = time[u->side];
    if (movetime >= 0) {
        int64_t ms = movetime - UCI_RESERVE_MS;
        u->limits.time_ms = (uint64_t)(ms > UCI_MIN_MOVE_MS ? ms : UCI_MIN_MOVE_MS);
    } else if (mine != -1 && !infinite) {
        int64_t left = mine > 0 ? mine : 0;
        int64_t base = left / (mtg ? mtg : UCI_DEFAULT_MOVES_TO_GO) + inc[u->side] * 3 / 4;
        int64_t hard = base * UCI_HARD_FACTOR;
        if (hard > left / UCI_HARD_DIVISOR)
            hard = left / UCI_HARD_DIVISOR;
        hard -= UCI_RESERVE_MS;
        if (hard < UCI_MIN_MOVE_MS)
            hard = UCI_MIN_MOVE_MS;
        u->limits.time_ms = (uint64_t)hard;
        u->soft_ms = (uint64_t)(base * UCI_SOFT_FRACTION);
        if (u->soft_ms < (uint64_t)UCI_MIN_MOVE_MS)
            u->soft_ms = (uint64_t)UCI_MIN_MOVE_MS;
    }
    u->limits.on_iteration = on_iteration;
    u->limits.on_iteration_user = u;
    u->search_state = u->game->clone(u->position, NULL);
    if (!u->search_state) {
        say("info string go: out of memory");
        say("bestmove 0000");
        return;
    }
    u->stop_requested = false;
    u->done = false;
    u->hold_bestmove = infinite || ponder;
    u->start_ms = now_ms();
    if (pthread_create(&u->thread, NULL, search_main, u) != 0) {
        say("info string go: cannot start the search thread");
        u->game->free(u->search_state, NULL);
        u->search_state = NULL;
        say("bestmove 0000");
        return;
    }
    u->searching = true;
}

/* Split @p line in place into blank-separated tokens; -1 if too many. */
static int tokenize(char *line, char **tok, int max)
{
    int n = 0;
    for (char *p = strtok(line, " \t\r"); p; p = strtok(NULL, " \t\r")) {
        if (n == max)
            return -1;
        tok[n++] = p;
    }
    return n;
}

/* Read one line of any length; lines longer than UCI_MAX_LINE are read to
 * their end and reported with *too_long. NULL at end of input. */
static char *read_line(char *buf, size_t size, bool *too_long)
{
    size_t n = 0;
    int c;
    *too_long = false;
    while ((c = getchar()) != EOF && c != '\n') {
        if (n + 1 < size)
            buf[n++] = (char)(c == '\0' ? ' ' : c);
        else
            *too_long = true;
    }
    if (c == EOF && n == 0 && !*too_long)
        return NULL;
    buf[n] = '\0';
    return buf;
}

static const char USAGE[] =
    "Usage: gts-uci [--help | --version]\n"
    "A UCI chess engine on libgts (gts_search and the chess adapter).\n"
    "Speaks UCI on stdin/stdout: uci, isready, setoption name Hash|Threads|Algorithm,\n"
    "ucinewgame, position startpos|fen FEN [moves ...], go [depth|nodes|movetime|\n"
    "wtime|btime|winc|binc|movestogo|mate N] [infinite], stop, quit.\n";

int main(int argc, char **argv)
{
    if (argc > 1) {
        if (strcmp(argv[1], "--help") == 0 && argc == 2) {
            fputs(USAGE, stdout);
            return 0;
        }
        if (strcmp(argv[1], "--version") == 0 && argc == 2) {
            printf("%s %s\n", UCI_NAME, gts_version_string());
            return 0;
        }
        fprintf(stderr, "gts-uci: unexpected argument '%s'\n%s", argv[1], USAGE);
        return 2;
    }
    static uci u;
    u.game = gts_game_chess_engine(); /* repetitions inside the search are draws */
    u.alg = GTS_ALG_PVS;
    pthread_mutex_init(&u.lock, NULL);
    pthread_cond_init(&u.cond, NULL);
    if (gts_engine_new(&u.engine) != GTS_OK || gts_chess_new(NULL, &u.position) != GTS_OK) {
        fprintf(stderr, "gts-uci: cannot create the engine (out of memory)\n");
        return 1;
    }
    gts_engine_set(u.engine, GTS_OPT_TT_MB, UCI_DEFAULT_HASH_MB);
    char *line = malloc(UCI_MAX_LINE);
    char **tok = malloc(UCI_MAX_TOKENS * sizeof *tok);
    if (!line || !tok) {
        fprintf(stderr, "gts-uci: out of memory\n");
        return 1;
    }
    bool too_long;
    while (read_line(line, UCI_MAX_LINE, &too_long)) {
        if (too_long) {
            say("info string line too long (more than %d bytes): ignored", UCI_MAX_LINE - 1);
            continue;
        }
        int n = tokenize(line, tok, UCI_MAX_TOKENS);
        if (n < 0) {
            say("info string too many words on one line (more than %d): ignored",
                UCI_MAX_TOKENS);
            continue;
        }
        if (n == 0)
            continue;
        reap_search(&u);
        const char *c = tok[0];
        if (strcmp(c, "uci") == 0) {
            cmd_uci();
        } else if (strcmp(c, "isready") == 0) {
            say("readyok");
        } else if (strcmp(c, "debug") == 0 || strcmp(c, "register") == 0 ||
                   strcmp(c, "ponderhit") == 0) {
            /* nothing to do: no debug output, no registration, and a
             * ponder search simply goes on until stop */
        } else if (strcmp(c, "setoption") == 0) {
            cmd_setoption(&u, tok, n);
        } else if (strcmp(c, "ucinewgame") == 0) {
            if (!busy(&u, "ucinewgame"))
                gts_engine_clear(u.engine);
        } else if (strcmp(c, "position") == 0) {
            cmd_position(&u, tok, n);
        } else if (strcmp(c, "go") == 0) {
            cmd_go(&u, tok, n);
        } else if (strcmp(c, "stop") == 0) {
            stop_search(&u);
        } else if (strcmp(c, "quit") == 0) {
            break;
        } else {
            char q[160];
            quote(c, q, sizeof q);
            say("info string unknown command '%s'", q);
        }
    }
    stop_search(&u);
    u.game->free(u.position, NULL);
    gts_engine_free(u.engine);
    free(line);
    free(tok);
    return 0;
}
