/*
 * cli.c - helpers shared by the commands of the `gts` tool: algorithms,
 * games and engines built from command-line options, the stderr progress
 * bar and SIGINT. Messages are message.c, the option parser options.c,
 * the output tables table.c; a game's position text is read by the game
 * (libgts-games, or a game library: plugin.c).
 *
 * Only the public API of libgts and libgts-games is used.
 */
#include "cli.h"
#include "plugin.h"

#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

const gts_plugin *cli_game_load(const char *name, const char *command)
{
    if (cli_is_game_library(name))
        return cli_plugin_load(name, command);
    const gts_plugin *p = gts_games_plugin(name);
    if (!p) {
        char *esc = cli_escaped(name ? name : "");
        cli_usage_error(command, "unknown game '%s' (known: %s)", esc, cli_game_names);
        free(esc);
    }
    return p;
}

/* ---- positions -------------------------------------------------------------
 *
 * A game owns its rules: a built-in game's position text is read, and a
 * refusal explained, by libgts-games (gts_games_position_new), which
 * describes its games as game libraries (gts_games_plugin). So a built-in
 * game and a game library (tools/plugin.c) take the same path here.
 */

/* @p p, with the random-tree parameters @p tree as the user pointer of a
 * built-in game's descriptor (randtree reads them there). */
static gts_plugin with_tree(const gts_plugin *p, const char *name,
                            const gts_randtree_params *tree)
{
    gts_plugin d = *p;
    if (!cli_is_game_library(name))
        memcpy(&d.user, &tree, sizeof d.user); /* read only, never written */
    return d;
}

void *cli_position_new(const char *name, const gts_randtree_params *tree, const char *text,
                       char *why, size_t size)
{
    const gts_plugin *p = cli_is_game_library(name) ? cli_plugin_get(name, why, size)
                                                    : gts_games_plugin(name);
    if (!p) {
        if (!cli_is_game_library(name))
            snprintf(why, size, "unknown game");
        return NULL;
    }
    gts_plugin d = with_tree(p, name, tree);
    return cli_plugin_position_new(&d, text, why, size);
}

const gts_game *cli_game_new(const cli_game_opts *o, const char *command, void **state)
{
    *state = NULL;
    const char *pos = o->position ? o->position : "";
    const gts_plugin *p = cli_game_load(o->name, command);
    if (!p)
        return NULL;
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
    gts_plugin d = with_tree(p, o->name, &o->tree);
    *state = cli_plugin_position_new(&d, pos, why, sizeof why);
    if (!*state) {
        char *esc = cli_escaped(pos);
        cli_usage_error(command, "bad %s position '%s': %s", p->name, esc, why);
        free(esc);
        return NULL;
    }
    return p->game;
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
