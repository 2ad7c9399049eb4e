/*
 * table.c - the output tables of the `gts` tool: rows of cells written as
 * aligned text, CSV or JSON (doc/cli.md, "Output formats"), whole
 * (cli_table_print) or a row at a time (cli_table_stream_*).
 */
#include "cli.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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


/* The widths of the header cells: a streamed text table is aligned on its
 * header while it grows (cli_table_stream_end rewrites it aligned on every
 * row). Exits on out of memory, as every table allocation does. */
static size_t *head_widths(const cli_table *t)
{
    size_t *w = calloc((size_t)t->ncols, sizeof *w);
    if (!w)
        cli_oom();
    for (int c = 0; c < t->ncols; c++)
        w[c] = strlen(t->cols[c]);
    return w;
}
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
        size_t *w = head_widths(t);
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
    size_t *w = t->stream_fmt == CLI_FMT_TEXT ? head_widths(t) : NULL;
    for (; t->streamed < nrows; t->streamed++) {
        if (t->stream_fmt == CLI_FMT_CSV)
            csv_body_row(t, f, t->streamed);
        else if (t->stream_fmt == CLI_FMT_JSON)
            json_row(t, f, t->streamed);
        else
            text_row(t, f, t->streamed, w);
    }
    free(w);
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
