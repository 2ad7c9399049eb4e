/*
 * options.c - the `gts` tool's one option parser: each command declares
 * its options as a table of cli_opt rows (name, kind, destination, range)
 * and cli_parse_options() reads argv by it, so that a value is checked,
 * and a bad one reported, the same way in every command (doc/cli.md,
 * "Errors": "--NAME: expected MIN..MAX, got 'TEXT'", exit status 2).
 *
 * getopt_long() does the scanning (GNU argument order: options and
 * operands mixed, "--" ends the options, "--name=value" and "--name value"
 * alike, unambiguous prefixes); its option array is built from the table.
 * Also the strict number parsing every value goes through.
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The most rows a command's table holds (getopt's array is on the stack). */
enum { CLI_MAX_OPTIONS = 48, CLI_OPT_VALUE_BASE = 1000 };

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

/* ---- the table-driven parser -------------------------------------------------- */

/* "NAME: expected A, B or C, got 'TEXT'" for a choice. */
static void bad_choice(const char *command, const char *label, const char *const *choices,
                       const char *arg)
{
    char list[256];
    size_t used = 0;
    int n = 0;
    while (choices[n])
        n++;
    list[0] = '\0';
    for (int i = 0; i < n && used < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s",
                         i == 0 ? "" : i == n - 1 ? " or " : ", ", choices[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    char *esc = cli_escaped(arg);
    cli_usage_error(command, "%s: expected %s, got '%s'", label, list, esc);
    free(esc);
}

/* Store @p arg of row @p o; false after a usage error. */
static bool take(const char *command, const cli_opt *o, const char *arg)
{
    char label[64];
    snprintf(label, sizeof label, "--%s", o->name);
    const char *shown = o->label ? o->label : label;
    int64_t v = 0;
    switch (o->kind) {
    case CLI_OPT_FLAG: *(bool *)o->dest = true; return true;
    case CLI_OPT_CLEAR: *(bool *)o->dest = false; return true;
    case CLI_OPT_STR: *(const char **)o->dest = arg; return true;
    case CLI_OPT_TEXT:
        if (strlen(arg) >= (size_t)o->max) {
            cli_usage_error(command, "%s: list too long", shown);
            return false;
        }
        memcpy(o->dest, arg, strlen(arg) + 1);
        return true;
    case CLI_OPT_U64: return cli_parse_u64_option(command, shown, arg, o->dest);
    case CLI_OPT_ENGINE: return cli_parse_engine_option(command, shown, o->engine, arg, o->dest);
    case CLI_OPT_INT:
    case CLI_OPT_I32:
    case CLI_OPT_U32:
        if (!cli_parse_int_option(command, shown, arg, o->min, o->max, &v))
            return false;
        if (o->kind == CLI_OPT_INT)
            *(int64_t *)o->dest = v;
        else if (o->kind == CLI_OPT_I32)
            *(int32_t *)o->dest = (int32_t)v;
        else
            *(uint32_t *)o->dest = (uint32_t)v;
        return true;
    case CLI_OPT_FORMAT: {
        static const char *const ALL[] = { "text", "csv", "json", NULL };
        static const char *const NO_CSV[] = { "text", "json", NULL };
        cli_format f;
        if (!cli_parse_format(arg, &f) || (o->min && f == CLI_FMT_CSV)) {
            bad_choice(command, shown, o->min ? NO_CSV : ALL, arg);
            return false;
        }
        *(cli_format *)o->dest = f;
        return true;
    }
    case CLI_OPT_CHOICE:
        for (int64_t i = 0; o->choices[i]; i++) {
            if (strcmp(arg, o->choices[i]) == 0) {
                *(int64_t *)o->dest = i;
                return true;
            }
        }
        bad_choice(command, shown, o->choices, arg);
        return false;
    case CLI_OPT_CALL: return o->call(command, shown, arg, o->dest);
    }
    return false;
}

int cli_parse_options(const char *command, const char *usage, const char *more, int argc,
                      char **argv, const cli_opt *opts, size_t n)
{
    struct option longs[CLI_MAX_OPTIONS + 2];
    if (n > CLI_MAX_OPTIONS) {
        cli_error("%s: more than %d options", command, CLI_MAX_OPTIONS);
        return CLI_FAIL;
    }
    for (size_t i = 0; i < n; i++) {
        bool value = opts[i].kind != CLI_OPT_FLAG && opts[i].kind != CLI_OPT_CLEAR;
        longs[i] = (struct option){ opts[i].name, value ? required_argument : no_argument, NULL,
                                    CLI_OPT_VALUE_BASE + (int)i };
    }
    longs[n] = (struct option){ "help", no_argument, NULL, 'h' };
    longs[n + 1] = (struct option){ 0, 0, 0, 0 };
    int c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage, stdout);
            if (more)
                printf("\n%s", more);
            return CLI_HELP;
        }
        if (c < CLI_OPT_VALUE_BASE || c >= CLI_OPT_VALUE_BASE + (int)n)
            return cli_bad_option(command, c, argv);
        const cli_opt *o = &opts[c - CLI_OPT_VALUE_BASE];
        if (!take(command, o, optarg))
            return CLI_USAGE;
        if (o->seen)
            *o->seen = true;
    }
    return CLI_OK;
}

int cli_no_more_operands(const char *command, int argc, char **argv, int at, const char *note)
{
    if (at >= argc)
        return CLI_OK;
    char *esc = cli_escaped(argv[at]);
    cli_usage_error(command, "unexpected argument '%s'%s", esc, note ? note : "");
    free(esc);
    return CLI_USAGE;
}

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

/* ---- game options --------------------------------------------------------------- */

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

int cli_parse_game_command(const char *command, const char *usage, const char *games, int argc,
                           char **argv, const cli_opt *opts, size_t n, cli_game_opts *o)
{
    int rc = cli_parse_options(command, usage, cli_game_options_help, argc, argv, opts, n);
    if (rc != CLI_OK)
        return rc;
    if (optind >= argc)
        return cli_usage_error(command, "missing GAME (%s)", games);
    o->name = argv[optind++];
    if (optind < argc)
        o->position = argv[optind++];
    return cli_no_more_operands(command, argc, argv, optind, NULL);
}
