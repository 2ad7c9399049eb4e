/*
 * gts-uci.c - a chess engine speaking UCI on stdin/stdout, on top of
 * gts_search() and the chess adapter of libgts-games, through its engine
 * vtable gts_game_chess_engine(), which declares GTS_TRAIT_REPETITION_DRAW:
 * the keys of the game's positions before the root (the `position`
 * command's moves) go to the search as gts_limits::history, so a position
 * that repeats one of the game or of the searched line is a draw (worth
 * -Contempt to the side to move at the root). The adapter's own rule (a
 * repetition since the position of the last `position` command,
 * gts_chess_set_root, or a third occurrence) stays for the algorithms of
 * the Algorithm option that ignore the trait (MTD(f), the SSS* family, ER).
 *
 * What. One command per line (UCI, as cutechess-cli, Arena and the like
 * send it): uci, debug, isready, setoption, ucinewgame, position, go, stop,
 * ponderhit, quit. Everything printed goes to stdout, one line at a time
 * under a lock (the search threads print too). Bad input never crashes or
 * hangs it: an unknown command or option, a malformed `position` (bad FEN
 * or impossible position: the command is refused and the previous
 * position kept; an illegal move: the moves before it are played, the
 * rest ignored, as common engines do), a `go` while searching, a line
 * longer than UCI_MAX_LINE bytes (discarded whole) are answered by
 * `info string ...`. End of input ends the program like `quit`, after
 * stopping a search and printing its bestmove.
 *
 * Search. `go` starts one gts_search() on a clone of the position, on its
 * own thread, so that the main thread keeps reading: `stop` and `quit` set
 * uci::stop and call gts_engine_stop() (thread-safe, answered within
 * milliseconds), then join the thread, which prints `bestmove`. A stop
 * that arrives before the search holds the engine would be lost (the
 * library ignores a stop while no search runs): the search's apply()
 * (counted_apply) and progress callback look at uci::stop and pass it on.
 * `isready` is answered at once, even during a search. Each completed
 * iteration prints
 * `info depth D seldepth S score cp X|mate N nodes N nps N hashfull H time T pv ...`
 * from gts_limits::on_iteration; a second thread (the ticker) prints
 * `info nodes N nps N time T` when a second passed without an info line.
 * `go infinite` holds the bestmove back until `stop`, as UCI requires.
 * When the root is a draw by the 50-move rule or repetition (the adapter
 * then has no moves to search) but moves are legal, the first legal move
 * is played; a side that is checkmated or stalemated gets
 * `info depth 0 score mate 0` or `score cp 0`, then `bestmove 0000`.
 *
 * Ponder. `bestmove M ponder R` names the PV's reply, which a GUI (or
 * polyglot) ponders on. `go ponder ...` searches without a clock and
 * holds bestmove; at `ponderhit` the clock of the go command's time
 * controls starts (the ticker keeps the deadline, gts_limits::time_ms
 * being fixed when the search starts); `stop` ends it as any search.
 *
 * Time. movetime M: M less a reserve. wtime/btime (+ winc/binc,
 * movestogo): a base of remaining / movestogo (UCI_DEFAULT_MOVES_TO_GO
 * when not given) plus 3/4 of the increment; no new iteration starts past
 * UCI_SOFT_FRACTION of the base, and the search is cut at
 * min(UCI_HARD_FACTOR x base, remaining / UCI_HARD_DIVISOR) less the
 * reserve, at least UCI_MIN_MOVE_MS (also for a clock at or below zero).
 * `searchmoves` is not supported: its moves are skipped up to the next
 * parameter and every move is searched.
 *
 * Options: Hash (MiB, the transposition table), Threads (the workers of a
 * parallel algorithm: with a serial one, such as the default pvs, dts
 * searches instead, unless Algorithm was set, and an info string says
 * which), Algorithm (a combo of the exact depth-first algorithms of
 * `gts algorithms`), Ponder (the GUI's switch; nothing to set), Clear Hash,
 * and the library's selective search as spin options, each 0 = off, on by
 * default (UCI_KNOBS): NullMove, LMR, Futility; Razor (off by
 * default: it lost tactics), LMP (off by default: it only ties) and
 * Contempt (0 by default). The algorithms that ignore them (see GTS_OPT_NULL_MOVE)
 * search the full tree. Two ordering options, the same spins: History
 * (GTS_OPT_HISTORY, 2 by default: with malus and gravity) and CounterMoves
 * (off by default); ordering never changes an exact algorithm's value.
 *
 * Usage: gts-uci [--help | --version]; exit 2 on a bad argument.
 */
#include <gts/gts.h>
#include "gts_games.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
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
    UCI_INFO_EVERY_MS = 1000,   /* the longest silence of a search */
    UCI_COUNT_BATCH = 256,      /* applies counted per thread before they are shared */
};

static const char UCI_NAME[] = "gts-uci";
static const char UCI_DEFAULT_ALG[] = "pvs";
/* Searches with Threads > 1 when Algorithm was not set (pvs is serial).
 * DTS gives its young brothers a null window, so the selective search
 * prunes at its split nodes too (ybwc's full windows make them PV nodes):
 * 269 against 251 of the 300 Win At Chess positions at 300,000 nodes, two
 * threads (doc/results/games.md, issue 32). Algorithm ybwc chooses ybwc. */
static const gts_algorithm UCI_PARALLEL_ALG = GTS_ALG_DTS;
/* Time management (see the header comment). */
static const int64_t UCI_DEFAULT_MOVES_TO_GO = 30;
static const int64_t UCI_HARD_FACTOR = 3;
static const int64_t UCI_HARD_DIVISOR = 3;
static const double UCI_SOFT_FRACTION = 0.5;
static const int64_t UCI_RESERVE_MS = 30; /* protocol and process overhead */
static const int64_t UCI_MIN_MOVE_MS = 5;

/* The selective-search options of the library (issue 32) as UCI spin
 * options: the engine option's value, 0 = off, its bounds the library's
 * (gts_option_bounds). The defaults switch each technique on at its usual
 * strength (doc/cli.md); the library's own default is off. */
typedef struct uci_knob {
    const char *name;
    gts_option option;
    int64_t value; /* gts-uci's default */
} uci_knob;

static const uci_knob UCI_KNOBS[] = {
    { "NullMove", GTS_OPT_NULL_MOVE, 3 }, /* base reduction R, plies */
    { "LMR", GTS_OPT_LMR, 100 },          /* percent of the reduction table */
    { "Futility", GTS_OPT_FUTILITY, 100 }, /* margin per ply, centipawns */
    { "Razor", GTS_OPT_RAZOR, 0 },         /* margin per ply, centipawns: off, it
                                            * cost 17 of the 300 Win At Chess positions
                                            * (doc/results/games.md, issue 32) */
    { "LMP", GTS_OPT_LMP, 0 },             /* move-count base: off; from 3 plies to go
                                            * (since 0.3) LMP 3 ties LMP 0 in self-play
                                            * (46.9%; 18.8% when it pruned from 1 ply) */
    { "History", GTS_OPT_HISTORY, 2 },     /* 2: with malus and gravity, 59.9% against
                                            * 1 over 96 self-play games */
    { "CounterMoves", GTS_OPT_COUNTER_MOVES, 0 }, /* off: 58.3% over 48 games, not
                                                   * yet confirmed */
    { "Contempt", GTS_OPT_CONTEMPT, 0 },   /* centipawns a draw costs the root side */
};
enum { UCI_N_KNOBS = sizeof UCI_KNOBS / sizeof UCI_KNOBS[0] };

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
    const gts_game *chess;    /* the adapter's engine vtable */
    gts_game game;            /* its copy that the search gets (see counted_apply) */
    void *position;           /* the current position (main thread only) */
    /* The keys of the game's positions before it, oldest first (the
     * search's gts_limits::history: repetitions of the game are draws). */
    uint64_t history[UCI_MAX_GAME_PLIES + 1];
    uint32_t history_len;
    int side;                 /* 0 white, 1 black to move in position */
    gts_algorithm alg;        /* the Algorithm option */
    bool alg_set;             /* ... given by setoption (else a parallel one may replace it) */
    bool threads_said;        /* the Threads/Algorithm note was printed for this setting */
    /* The search thread and what it shares with the main thread. */
    pthread_t thread;
    bool searching;           /* a thread was started and not yet joined (main thread only) */
    pthread_mutex_t lock;
    pthread_cond_t cond;      /* on CLOCK_MONOTONIC, as now_ms() */
    atomic_bool stop;         /* stop, quit or time up: seen at every apply() and iteration */
    atomic_uint_fast64_t applied; /* moves applied by the search so far (in batches) */
    /* Under lock: */
    bool infinite;            /* go infinite: bestmove held until stop */
    bool pondering;           /* go ponder, until ponderhit: no clock, bestmove held */
    bool finished;            /* gts_search() returned */
    bool done;                /* the thread is printing bestmove */
    uint64_t clock_ms;        /* when the clock started: at go, or at ponderhit */
    uint64_t soft_ms;         /* no new iteration past clock_ms + soft_ms (0: none) */
    uint64_t hard_ms;         /* stop at clock_ms + hard_ms (0: none) */
    uint64_t said_ms;         /* when the last info line of the search was printed */
    /* The search's own data, written before the thread starts. */
    gts_algorithm search_alg;
    void *search_state;
    gts_limits limits;
    uint64_t start_ms;
} uci;

/* Moves applied by this thread and not yet added to uci::applied: one
 * shared counter written at every apply() would bounce its cache line
 * between the cores of a parallel search. */
static _Thread_local uint32_t applied_here;

/* The search's apply(): the adapter's, counted for the periodic info line,
 * and the place where a stop that arrived before gts_search() held the
 * engine reaches it (gts_engine_stop() is ignored while no search runs, so
 * a stop sent at once after go would otherwise be lost). The game's other
 * callbacks are the adapter's own: they receive this uci as user, which
 * the chess adapter ignores (its vtable's user is NULL). */
static int counted_apply(void *state, gts_move move, void *user)
{
    uci *u = user;
    if (++applied_here == UCI_COUNT_BATCH) {
        atomic_fetch_add_explicit(&u->applied, UCI_COUNT_BATCH, memory_order_relaxed);
        applied_here = 0;
    }
    if (atomic_load_explicit(&u->stop, memory_order_relaxed))
        gts_engine_stop(u->engine);
    return u->chess->apply(state, move, u->chess->user);
}

/* Ask the search to stop and wake whoever waits on it (the search thread
 * holding bestmove back, the ticker). Under u->lock. */
static void request_stop_locked(uci *u)
{
    atomic_store(&u->stop, true);
    pthread_cond_broadcast(&u->cond);
    gts_engine_stop(u->engine);
}

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
        if (u->chess->format_move(u->search_state, r->pv[i], mv, sizeof mv, NULL) < 0)
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
    uint64_t now = now_ms();
    pthread_mutex_lock(&u->lock);
    u->said_ms = now;
    /* A new iteration would likely not finish in time: stop here. */
    bool enough = !u->pondering && u->soft_ms && now - u->clock_ms >= u->soft_ms;
    pthread_mutex_unlock(&u->lock);
    return enough || atomic_load(&u->stop);
}

/* The search's second thread: an `info nodes N nps N time T` line after
 * every UCI_INFO_EVERY_MS without one (a deep iteration can take minutes),
 * and the clock of a ponder search after ponderhit (gts_limits::time_ms is
 * fixed when the search starts). Ends when gts_search() returns. */
static void *ticker_main(void *arg)
{
    uci *u = arg;
    pthread_mutex_lock(&u->lock);
    while (!u->finished) {
        uint64_t now = now_ms();
        bool timed = !u->pondering && u->hard_ms;
        if (timed && now >= u->clock_ms + u->hard_ms) {
            request_stop_locked(u);
            u->hard_ms = 0;
            timed = false;
        }
        if (now >= u->said_ms + UCI_INFO_EVERY_MS) {
            u->said_ms = now;
            pthread_mutex_unlock(&u->lock);
            uint64_t nodes = atomic_load(&u->applied) + 1, ms = now - u->start_ms;
            say("info nodes %" PRIu64 " nps %" PRIu64 " time %" PRIu64, nodes,
                ms ? nodes * 1000u / ms : 0, ms);
            pthread_mutex_lock(&u->lock);
            continue;
        }
        uint64_t wake = u->said_ms + UCI_INFO_EVERY_MS;
        if (timed && u->clock_ms + u->hard_ms < wake)
            wake = u->clock_ms + u->hard_ms;
        struct timespec ts = { .tv_sec = (time_t)(wake / 1000u),
                               .tv_nsec = (long)(wake % 1000u) * 1000000L };
        pthread_cond_timedwait(&u->cond, &u->lock, &ts);
    }
    pthread_mutex_unlock(&u->lock);
    return NULL;
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
                if (u->chess->parse_move(state, text, &m, NULL) == 0) {
                    snprintf(buf, size, "%s", text);
                    return true;
                }
            }
    return false;
}

static void *search_main(void *arg)
{
    uci *u = arg;
    pthread_t ticker;
    bool ticking = pthread_create(&ticker, NULL, ticker_main, u) == 0;
    gts_result r = { .struct_size = sizeof r };
    gts_status rc = gts_search(u->engine, u->search_alg, &u->game, u->search_state, &u->limits,
                               &r);
    pthread_mutex_lock(&u->lock);
    u->finished = true;
    pthread_cond_broadcast(&u->cond);
    pthread_mutex_unlock(&u->lock);
    if (ticking)
        pthread_join(ticker, NULL);
    char best[16] = "0000", reply[32] = "";
    if (rc != GTS_OK)
        say("info string search failed: %s", gts_strerror(rc));
    if (rc == GTS_OK && (r.flags & GTS_RESULT_HAS_MOVE)) {
        u->chess->format_move(u->search_state, r.best_move, best, sizeof best, NULL);
        /* The expected reply, which a GUI ponders on (bestmove M ponder R). */
        if (r.pv_length >= 2 && r.pv[0] == r.best_move &&
            u->chess->apply(u->search_state, r.best_move, NULL) == 0) {
            char mv[16];
            if (u->chess->format_move(u->search_state, r.pv[1], mv, sizeof mv, NULL) >= 0)
                snprintf(reply, sizeof reply, " ponder %s", mv);
            u->chess->undo(u->search_state, r.best_move, NULL);
        }
    } else if (!any_legal_move(u, u->search_state, best, sizeof best)) {
        /* Checkmated or stalemated: the game's value, as engines report it. */
        gts_score s = u->chess->evaluate(u->search_state, NULL);
        say("info depth 0 score %s", gts_score_is_loss(s) ? "mate 0" : "cp 0");
    }
    /* go infinite / ponder: bestmove only after stop (or ponderhit). */
    pthread_mutex_lock(&u->lock);
    while ((u->infinite || u->pondering) && !atomic_load(&u->stop))
        pthread_cond_wait(&u->cond, &u->lock);
    u->done = true; /* set before the GUI can see bestmove and answer it */
    pthread_mutex_unlock(&u->lock);
    say("bestmove %s%s", best, reply);
    return NULL;
}

/* Stop the running search (if any) and wait for its bestmove. */
static void stop_search(uci *u)
{
    if (!u->searching)
        return;
    pthread_mutex_lock(&u->lock);
    request_stop_locked(u);
    pthread_mutex_unlock(&u->lock);
    pthread_join(u->thread, NULL);
    u->chess->free(u->search_state, NULL);
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

/* ponderhit: the move pondered on was played. The search goes on as the
 * normal search of the go command: its clock starts now. */
static void cmd_ponderhit(uci *u)
{
    bool pondered = false;
    pthread_mutex_lock(&u->lock);
    if (u->searching && u->pondering) {
        u->pondering = false;
        u->clock_ms = now_ms();
        pthread_cond_broadcast(&u->cond); /* the ticker's deadline, a held bestmove */
        pondered = true;
    }
    pthread_mutex_unlock(&u->lock);
    if (!pondered)
        say("info string ponderhit ignored: not pondering");
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
    say("option name Ponder type check default false");
    say("option name Clear Hash type button");
    for (int i = 0; i < UCI_N_KNOBS; i++) {
        int64_t lo, hi, def;
        gts_option_bounds(UCI_KNOBS[i].option, &lo, &hi, &def);
        say("option name %s type spin default %" PRId64 " min %" PRId64 " max %" PRId64,
            UCI_KNOBS[i].name, UCI_KNOBS[i].value, lo < 0 ? lo : 0, hi);
    }
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

/* The selective-search option called @p name (any case), or NULL. */
static const uci_knob *knob_of(const char *name)
{
    for (int i = 0; i < UCI_N_KNOBS; i++)
        if (strcasecmp(name, UCI_KNOBS[i].name) == 0)
            return &UCI_KNOBS[i];
    return NULL;
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
        u->threads_said = false;
    } else if (strcasecmp(name, "Algorithm") == 0) {
        gts_algorithm a;
        if (gts_algorithm_from_name(value, &a) != GTS_OK || !algorithm_allowed(a)) {
            say("info string setoption Algorithm: unknown or not an exact depth-first "
                "algorithm '%s' (see the uci reply)",
                qv);
            return;
        }
        u->alg = a;
        u->alg_set = true;
        u->threads_said = false;
    } else if (knob_of(name)) {
        const uci_knob *k = knob_of(name);
        int64_t lo, hi, def;
        gts_option_bounds(k->option, &lo, &hi, &def);
        if (lo > 0)
            lo = 0; /* 0 is off */
        if (!parse_int(value, lo, hi, &v)) {
            say("info string setoption %s: expected %" PRId64 "..%" PRId64 " (0 = off), got '%s'",
                k->name, lo, hi, qv);
            return;
        }
        gts_status rc = gts_engine_set(u->engine, k->option, v);
        if (rc != GTS_OK)
            say("info string setoption %s %s: %s", k->name, qv, gts_strerror(rc));
    } else if (strcasecmp(name, "Clear Hash") == 0) {
        gts_engine_clear(u->engine);
    } else if (strcasecmp(name, "Ponder") == 0) {
        /* Only tells that the GUI may send go ponder: nothing to set. */
        if (strcasecmp(value, "true") != 0 && strcasecmp(value, "false") != 0)
            say("info string setoption Ponder: expected true or false, got '%s'", qv);
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
    /* An illegal move ends the list: the moves before it are played, as
     * common engines do (the GUI's game most likely went that far). Each
     * position before the last is the search's history. */
    uint32_t history_len = 0;
    for (int k = moves_at + 1; k < n; k++) {
        gts_move m;
        uint64_t key = u->chess->hash(s, NULL);
        if (u->chess->parse_move(s, tok[k], &m, NULL) != 0 || u->chess->apply(s, m, NULL) != 0) {
            char q[160];
            quote(tok[k], q, sizeof q);
            say("info string position: illegal move '%s' (move %d of the list): the %d "
                "moves before it are played, the rest ignored",
                q, k - moves_at, k - moves_at - 1);
            break;
        }
        u->history[history_len++] = key;
        side ^= 1;
    }
    gts_chess_set_root(s); /* repetitions from here on are draws in the search */
    u->chess->free(u->position, NULL);
    u->position = s;
    u->side = side;
    u->history_len = history_len;
}

/* The words of a go command: what follows searchmoves up to the next one
 * is its list of moves. */
static bool go_keyword(const char *k)
{
    static const char *const words[] = { "depth", "nodes",     "movetime", "wtime",
                                         "btime", "winc",      "binc",     "movestogo",
                                         "mate",  "infinite",  "ponder",   "searchmoves" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(k, words[i]) == 0)
            return true;
    return false;
}

/* go [depth D] [nodes N] [movetime M] [wtime W] [btime B] [winc I] [binc I]
 *    [movestogo N] [mate N] [infinite] [ponder] [searchmoves ...] */
static void cmd_go(uci *u, char **tok, int n)
{
    if (busy(u, "go"))
        return;
    int64_t depth = 0, nodes = 0, movetime = -1, time[2] = { 0, 0 }, inc[2] = { 0, 0 },
            mtg = 0, mate = 0;
    bool clock[2] = { false, false }; /* wtime / btime given (any value, even <= 0) */
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
            while (i + 1 < n && !go_keyword(tok[i + 1]))
                i++; /* the moves, up to the next parameter */
            continue;
        }
        if (strcmp(k, "depth") == 0) dst = &depth, lo = 1, hi = GTS_MAX_DEPTH;
        else if (strcmp(k, "nodes") == 0) dst = &nodes, lo = 1;
        else if (strcmp(k, "movetime") == 0) dst = &movetime;
        else if (strcmp(k, "wtime") == 0) dst = &time[0], lo = -hi, clock[0] = true;
        else if (strcmp(k, "btime") == 0) dst = &time[1], lo = -hi, clock[1] = true;
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
    /* The clock: a budget (hard) and a point past which no new iteration
     * starts (soft); durations from the clock's start, 0 for none. A clock
     * at or below zero (a GUI's lag) still gets UCI_MIN_MOVE_MS. */
    int64_t hard = 0, soft = 0;
    if (movetime >= 0) {
        hard = movetime - UCI_RESERVE_MS;
        if (hard < UCI_MIN_MOVE_MS)
            hard = UCI_MIN_MOVE_MS;
    } else if (clock[u->side] && !infinite) {
        int64_t left = time[u->side] > 0 ? time[u->side] : 0;
        int64_t base = left / (mtg ? mtg : UCI_DEFAULT_MOVES_TO_GO) + inc[u->side] * 3 / 4;
        hard = base * UCI_HARD_FACTOR;
        if (hard > left / UCI_HARD_DIVISOR)
            hard = left / UCI_HARD_DIVISOR;
        hard -= UCI_RESERVE_MS;
        if (hard < UCI_MIN_MOVE_MS)
            hard = UCI_MIN_MOVE_MS;
        soft = (int64_t)((double)base * UCI_SOFT_FRACTION);
        if (soft < UCI_MIN_MOVE_MS)
            soft = UCI_MIN_MOVE_MS;
    }
    /* Threads with a serial algorithm: a parallel one, unless Algorithm
     * was chosen; said once per setting. */
    u->search_alg = u->alg;
    int64_t threads = 1;
    gts_engine_get(u->engine, GTS_OPT_THREADS, &threads);
    if (threads > 1 && !gts_algorithm_is_parallel(u->alg)) {
        if (!u->alg_set)
            u->search_alg = UCI_PARALLEL_ALG;
        if (!u->threads_said)
            say(u->alg_set ? "info string Threads %d: Algorithm %s searches on one thread only; "
                             "choose a parallel one (such as %s) to use them"
                           : "info string Threads %d: searching with %s (%s, the default "
                             "Algorithm, is serial; setoption Algorithm to choose)",
                (int)threads,
                u->alg_set ? gts_algorithm_name(u->alg) : gts_algorithm_name(UCI_PARALLEL_ALG),
                u->alg_set ? gts_algorithm_name(UCI_PARALLEL_ALG) : gts_algorithm_name(u->alg));
        u->threads_said = true;
    }
    u->limits = (gts_limits){ .struct_size = sizeof u->limits };
    u->limits.depth = (int32_t)(mate ? (2 * mate < GTS_MAX_DEPTH ? 2 * mate : GTS_MAX_DEPTH)
                                     : depth);
    u->limits.nodes = (uint64_t)nodes;
    /* Pondering has no clock: it starts at ponderhit (the ticker keeps it). */
    u->limits.time_ms = ponder ? 0 : (uint64_t)hard;
    u->limits.on_iteration = on_iteration;
    u->limits.on_iteration_user = u;
    u->limits.history = u->history_len ? u->history : NULL;
    u->limits.history_len = u->history_len;
    u->search_state = u->chess->clone(u->position, NULL);
    if (!u->search_state) {
        say("info string go: out of memory");
        say("bestmove 0000");
        return;
    }
    u->start_ms = now_ms();
    atomic_store(&u->stop, false);
    atomic_store(&u->applied, 0);
    pthread_mutex_lock(&u->lock);
    u->infinite = infinite;
    u->pondering = ponder;
    u->finished = false;
    u->done = false;
    u->clock_ms = u->said_ms = u->start_ms;
    u->hard_ms = (uint64_t)hard;
    u->soft_ms = (uint64_t)soft;
    pthread_mutex_unlock(&u->lock);
    if (pthread_create(&u->thread, NULL, search_main, u) != 0) {
        say("info string go: cannot start the search thread");
        u->chess->free(u->search_state, NULL);
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
    "Speaks UCI on stdin/stdout: uci, isready, setoption name Hash|Threads|Algorithm|\n"
    "Ponder|Clear Hash|NullMove|LMR|Futility|Razor|LMP|History|CounterMoves|Contempt,\n"
    "ucinewgame,\n"
    "position startpos|fen FEN [moves ...], go [depth|nodes|movetime|wtime|btime|\n"
    "winc|binc|movestogo|mate N] [infinite] [ponder], stop, ponderhit, quit.\n";

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
    u.chess = gts_game_chess_engine(); /* repetitions inside the search are draws */
    u.game = *u.chess;
    u.game.apply = counted_apply;
    u.game.user = &u;
    u.alg = GTS_ALG_PVS;
    pthread_mutex_init(&u.lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* the ticker's deadlines */
    pthread_cond_init(&u.cond, &attr);
    pthread_condattr_destroy(&attr);
    if (gts_engine_new(&u.engine) != GTS_OK || gts_chess_new(NULL, &u.position) != GTS_OK) {
        fprintf(stderr, "gts-uci: cannot create the engine (out of memory)\n");
        return 1;
    }
    gts_engine_set(u.engine, GTS_OPT_TT_MB, UCI_DEFAULT_HASH_MB);
    for (int i = 0; i < UCI_N_KNOBS; i++)
        gts_engine_set(u.engine, UCI_KNOBS[i].option, UCI_KNOBS[i].value);
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
        } else if (strcmp(c, "debug") == 0 || strcmp(c, "register") == 0) {
            /* nothing to do: no debug output, no registration */
        } else if (strcmp(c, "ponderhit") == 0) {
            cmd_ponderhit(&u);
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
    u.chess->free(u.position, NULL);
    gts_engine_free(u.engine);
    free(line);
    free(tok);
    return 0;
}
