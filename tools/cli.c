/*
 * cli.c - helpers shared by the commands of the `gts` tool: messages,
 * strict number parsing, games and engines built from command-line options,
 * output tables (text, CSV, JSON) and the stderr progress bar.
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
