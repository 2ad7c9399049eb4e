/*
 * cli.h - shared helpers of the `gts` command-line tool (tools/).
 *
 * The tool is an honest client of libgts: it includes only <gts/gts.h> and
 * the built-in games' header, and links libgts.so and libgts-games. Nothing
 * here reaches into lib/ internals.
 *
 * The commands search, perft, solve and algorithms follow the specification
 * in doc/cli.md ("The shared commands"), which bindings/python/gts/cli.py
 * implements too; tests/test_cli_agree.py holds both to it. A change of an
 * option, a message or an output field there is a change of both tools.
 *
 * Exit statuses: 0 success, 1 a run-time failure (bad input line, library
 * error), 2 a usage error (unknown command or option, bad argument), 130
 * interrupted (SIGINT).
 */
#ifndef GTS_TOOLS_CLI_H
#define GTS_TOOLS_CLI_H

#include <gts/gts.h>
#include "gts_games.h"
#include "message.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses, cli_prog, cli_command and the messages: message.h. */

/* ---- parsing ------------------------------------------------------------ */

/* ---- options: one table-driven parser (options.c) ---------------------------
 *
 * A command declares its options as rows and cli_parse_options() reads argv
 * by them: every value is checked, and a bad one reported ("--NAME:
 * expected MIN..MAX, got 'TEXT'", a usage error), the same way everywhere.
 * -h and --help are always there. */
typedef enum cli_opt_kind {
    CLI_OPT_FLAG,   /* no value: bool *dest = true */
    CLI_OPT_CLEAR,  /* no value: bool *dest = false (--no-iterative) */
    CLI_OPT_STR,    /* const char **dest = the value (kept in argv) */
    CLI_OPT_TEXT,   /* the value copied to char dest[max] ("list too long" if not room) */
    CLI_OPT_INT,    /* int64_t *dest, within [min, max] */
    CLI_OPT_I32,    /* int32_t *dest, within [min, max] */
    CLI_OPT_U32,    /* uint32_t *dest, within [min, max] */
    CLI_OPT_U64,    /* uint64_t *dest, 0..UINT64_MAX */
    CLI_OPT_ENGINE, /* int64_t *dest, within the library's bounds of engine option */
    CLI_OPT_FORMAT, /* cli_format *dest: text, csv or json (min = 1: text or json) */
    CLI_OPT_CHOICE, /* int64_t *dest = the index of the value in choices (NULL-ended) */
    CLI_OPT_CALL,   /* call(command, label, value, dest); false after its usage error */
} cli_opt_kind;

typedef struct cli_opt {
    const char *name;  /* long name without "--" */
    cli_opt_kind kind;
    void *dest;
    int64_t min, max;
    gts_option engine;                /* CLI_OPT_ENGINE */
    const char *const *choices;       /* CLI_OPT_CHOICE */
    bool (*call)(const char *command, const char *label, const char *value, void *dest);
    bool *seen;                       /* if set: true once the option is given */
    const char *label;                /* the name in messages, if not "--NAME" */
} cli_opt;

#define CLI_FLAG(n, d) { .name = (n), .kind = CLI_OPT_FLAG, .dest = (d) }
#define CLI_CLEAR(n, d) { .name = (n), .kind = CLI_OPT_CLEAR, .dest = (d) }
#define CLI_STR(n, d) { .name = (n), .kind = CLI_OPT_STR, .dest = (d) }
#define CLI_TEXT(n, d) { .name = (n), .kind = CLI_OPT_TEXT, .dest = (d), .max = sizeof(d) }
#define CLI_INT(n, d, lo, hi) { .name = (n), .kind = CLI_OPT_INT, .dest = (d), .min = (lo), .max = (hi) }
#define CLI_I32(n, d, lo, hi) { .name = (n), .kind = CLI_OPT_I32, .dest = (d), .min = (lo), .max = (hi) }
#define CLI_U32(n, d, lo, hi) { .name = (n), .kind = CLI_OPT_U32, .dest = (d), .min = (lo), .max = (hi) }
#define CLI_U64(n, d) { .name = (n), .kind = CLI_OPT_U64, .dest = (d) }
#define CLI_ENGINE(n, d, opt) { .name = (n), .kind = CLI_OPT_ENGINE, .dest = (d), .engine = (opt) }
#define CLI_FORMAT(n, d) { .name = (n), .kind = CLI_OPT_FORMAT, .dest = (d) }
#define CLI_FORMAT_NO_CSV(n, d) { .name = (n), .kind = CLI_OPT_FORMAT, .dest = (d), .min = 1 }
#define CLI_CHOICE(n, d, list) { .name = (n), .kind = CLI_OPT_CHOICE, .dest = (d), .choices = (list) }
#define CLI_CALL(n, d, fn) { .name = (n), .kind = CLI_OPT_CALL, .dest = (d), .call = (fn) }
#define CLI_NOPTS(t) (sizeof(t) / sizeof((t)[0]))

/* Returned by cli_parse_options() for -h / --help, after it printed the
 * usage: the command ends with exit status 0 (cli_done()). */
enum { CLI_HELP = -1 };
/* Read the options of @p argv (argv[0] the command) by the @p n rows of
 * @p opts. CLI_OK with optind at the first operand; CLI_HELP after printing
 * @p usage, then a blank line and @p more (text shared with other commands)
 * unless NULL, on stdout; or CLI_USAGE after printing a usage error of @p command. */
int cli_parse_options(const char *command, const char *usage, const char *more, int argc,
                      char **argv, const cli_opt *opts, size_t n);
/* The exit status of a command that stops at a status @p rc other than
 * CLI_OK of cli_parse_options(): CLI_HELP is a success. */
static inline int cli_done(int rc)
{
    return rc == CLI_HELP ? CLI_OK : rc;
}
/* CLI_OK when argv has no operand left from @p at; otherwise print the
 * usage error "unexpected argument 'X'" (escaped) followed by @p note (or
 * nothing if NULL) and return CLI_USAGE. */
int cli_no_more_operands(const char *command, int argc, char **argv, int at, const char *note);
/* getopt_long() returned '?' or ':' for argv: report it; returns CLI_USAGE. */
int cli_bad_option(const char *command, int c, char **argv);

/* Strict decimal parse of a whole string into [min, max]: ASCII digits,
 * with a leading '-' only (no '+', blanks or base prefixes). */
bool cli_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);
bool cli_parse_u64(const char *s, uint64_t max, uint64_t *out);
/* Parse the value of option @p name (e.g. "--depth") into [min, max]; on
 * failure print "--depth: expected MIN..MAX, got 'TEXT'" as a usage error
 * of @p command and return false. */
bool cli_parse_int_option(const char *command, const char *name, const char *s, int64_t min,
                          int64_t max, int64_t *out);
bool cli_parse_u64_option(const char *command, const char *name, const char *s, uint64_t *out);
/* The same within the library's range of engine option @p opt
 * (gts_option_bounds): the tools never keep their own copy of it. */
bool cli_parse_engine_option(const char *command, const char *name, gts_option opt,
                             const char *s, int64_t *out);
/* Comma-separated integers ("1,2,4") or ranges ("1-8", "1-8,12"), each in
 * [min, max]; at most @p cap values. Returns the count or -1. */
int cli_parse_int_list(const char *s, int min, int max, int *out, int cap);
/* Split a comma-separated list in place; returns the count or -1 if > cap. */
int cli_split_list(char *s, char **out, int cap);

/* ---- time ---------------------------------------------------------------- */

/* Monotonic wall clock, and the CPU time of the whole process, in us. */
uint64_t cli_now_us(void);
uint64_t cli_cpu_us(void);

/* ---- algorithms ---------------------------------------------------------- */

/* gts_algorithm_from_name() with a clear error message on failure. */
bool cli_algorithm(const char *command, const char *name, gts_algorithm *alg);
/* Every algorithm the library knows, in library order; returns the count. */
int cli_algorithms(gts_algorithm *out, int cap);

/* ---- games ---------------------------------------------------------------- */

/* Options that build a game state: the game name, a position text, and the
 * random-tree parameters. */
typedef struct cli_game_opts {
    const char *name;
    const char *position;
    gts_randtree_params tree;
} cli_game_opts;

void cli_game_opts_init(cli_game_opts *o);
/* The command line of a command GAME [POSITION] [OPTIONS]: the options by
 * cli_parse_options() (its help followed by cli_game_options_help), then
 * the operands into @p o and nothing after them. CLI_OK, CLI_HELP, or
 * CLI_USAGE after a usage error ("missing GAME (@p games)", "unexpected
 * argument 'X'", a bad option). */
int cli_parse_game_command(const char *command, const char *usage, const char *games, int argc,
                           char **argv, const cli_opt *opts, size_t n, cli_game_opts *o);
/* The rows of the options shared by commands that take a game: a random
 * tree's parameters (the ranges of gts_randtree_params, gts_games.h). */
#define CLI_GAME_OPTIONS(o) CLI_U64("seed", &(o)->tree.seed), CLI_TREE_OPTIONS(o)
/* The same without --seed (a command whose --seed is more than the tree's). */
#define CLI_TREE_OPTIONS(o)                                                   \
    CLI_U32("branching", &(o)->tree.branching, 1, 64),                        \
    CLI_U32("tree-depth", &(o)->tree.depth, 1, 60),                           \
    CLI_U32("jitter", &(o)->tree.branching_jitter, 0, 63),                    \
    CLI_U32("terminal", &(o)->tree.terminal_percent, 0, 100),                 \
    CLI_U32("ordered", &(o)->tree.ordered_percent, 0, 100),                   \
    CLI_FLAG("transpositions", &(o)->tree.transpositions),                    \
    CLI_I32("min-value", &(o)->tree.min_value, -30000, 30000),                \
    CLI_I32("max-value", &(o)->tree.max_value, -30000, 30000)
extern const char cli_game_options_help[];

/* Build the state of @p o: returns the game vtable and the state, or NULL
 * after printing a usage error that says which move of the position is
 * wrong and why, in the game's words (its position_new(): a game
 * library's, or libgts-games' gts_games_position_new() for a built-in
 * game). Free with gts_games_free(game, state). */
const gts_game *cli_game_new(const cli_game_opts *o, const char *command, void **state);
/* Build the state of @p text for game @p name (a built-in game, @p tree for
 * the random tree, or a game library's path). On a bad position return
 * NULL with the game's reason in @p why ("move 3: column 1 is full"). */
void *cli_position_new(const char *name, const gts_randtree_params *tree, const char *text,
                       char *why, size_t size);
/* Names of the built-in games, for messages. */
extern const char cli_game_names[];
/* The descriptor of GAME @p name: a game library's (cli_plugin_load) or a
 * built-in game's (gts_games_plugin, libgts-games), so that the commands
 * treat both alike; NULL after printing a usage error of @p command. */
const gts_plugin *cli_game_load(const char *name, const char *command);


/* ---- engine ---------------------------------------------------------------- */

/* New engine with the given options (tt_mb < 0 / threads <= 0: defaults).
 * Values are checked by the caller (cli_parse_engine_option): a failure
 * here (a table that cannot be allocated) is a run-time failure. */
gts_engine *cli_engine_new(const char *command, int64_t tt_mb, int64_t threads);
/* gts_engine_set(); on failure print "cannot set WHAT to VALUE: why". */
bool cli_engine_set(const char *command, gts_engine *e, gts_option opt, int64_t value,
                    const char *what);

/* ---- SIGINT (doc/cli.md, "Interrupting") --------------------------------------
 *
 * cli_sigint_start() blocks SIGINT in the calling thread (so in every thread
 * created after it, the library's workers included) and starts a thread that
 * waits for it with sigwait(). While a search registered with
 * cli_sigint_search_begin() runs, the first SIGINT stops it with
 * gts_engine_stop() (thread-safe) and the command finishes normally, then
 * calls cli_interrupted(); at any other moment it flushes stdout, prints
 * "gts COMMAND: interrupted" and exits with CLI_INTERRUPTED. A second
 * SIGINT always exits at once. Nothing happens when SIGINT was ignored at
 * start-up (a background job). */
void cli_sigint_start(const char *command);
/* Handle @p sig exactly as SIGINT from the next cli_sigint_start() on
 * (gts-mpi: SIGTERM, which is how mpirun passes a Ctrl-C on to the ranks).
 * The caller blocks @p sig itself before any thread starts. */
void cli_sigint_also(int sig);
/* Register @p e as the engine a SIGINT stops, until cli_sigint_search_end(). */
void cli_sigint_search_begin(gts_engine *e);
void cli_sigint_search_end(void);
/* Whether a SIGINT arrived. */
bool cli_interrupted(void);
/* Print "gts COMMAND: interrupted" and return CLI_INTERRUPTED. */
int cli_interrupt_exit(const char *command);

/* A depth-1 search then gts_engine_clear(): the table is allocated and the
 * thread pool started before anything is timed. */
void cli_engine_warm(gts_engine *e, gts_algorithm alg, const gts_game *g, void *state);

/* ---- tables: text / csv / json output ---------------------------------------- */

typedef enum cli_format { CLI_FMT_TEXT, CLI_FMT_CSV, CLI_FMT_JSON } cli_format;
bool cli_parse_format(const char *s, cli_format *out);

typedef struct cli_table cli_table;
cli_table *cli_table_new(const char *title, int ncols, const char *const *cols);
/* Rows are filled cell by cell, ncols cells per row, left to right. */
void cli_table_str(cli_table *t, const char *s);
void cli_table_int(cli_table *t, int64_t v);
void cli_table_uint(cli_table *t, uint64_t v);
void cli_table_num(cli_table *t, double v, int decimals);
void cli_table_null(cli_table *t); /* "-" in text, empty in csv, null in json */
/* A cell written as is, unquoted in JSON (true, false). */
void cli_table_raw(cli_table *t, const char *s);
/* A note printed with the table (text: after it; json: "notes"; csv: on
 * stderr, so that the CSV stays machine-readable). */
void cli_table_note(cli_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_table_print(cli_table *t, FILE *f, cli_format fmt, const char *command);
void cli_table_free(cli_table *t);
/* A table streamed to @p f row by row, so that a run that fails or is
 * killed half-way keeps the rows written (gts match --record): begin
 * writes the head, rows writes the complete rows added since and flushes,
 * end the rest. CSV and JSON come out as cli_table_print() writes them;
 * text rows are aligned on the header only, and the table is written
 * again, aligned, at the end when @p f is a regular file. Each returns
 * false when writing failed (errno says why). */
bool cli_table_stream_begin(cli_table *t, FILE *f, cli_format fmt, const char *command);
bool cli_table_stream_rows(cli_table *t);
bool cli_table_stream_end(cli_table *t);
/* Write @p s as a JSON string literal (quoted, escaped). */
void cli_json_string(FILE *f, const char *s);

/* ---- progress bar on stderr ----------------------------------------------------- */

/* A ticker thread redraws a bar on stderr every 200 ms once the run is
 * older than one second; only when stderr is a terminal. */
typedef struct cli_progress cli_progress;
cli_progress *cli_progress_start(const char *what, uint64_t total);
/* The same on a terminal; when stderr is not one (a log, a pipe), a plain
 * line "PROG WHAT: progress DONE/TOTAL after S s: LABEL" every @p every_us
 * instead (0: at every cli_progress_set() that changes DONE). */
cli_progress *cli_progress_start_lines(const char *what, uint64_t total, uint64_t every_us);
void cli_progress_set(cli_progress *p, uint64_t done, const char *label);
void cli_progress_end(cli_progress *p);

#endif
