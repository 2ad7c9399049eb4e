/*
 * gts.c - the `gts` command-line tool: solve Connect-4 positions, search and
 * perft the built-in games, and benchmark libgts (bench, speedup, nodes).
 *
 * This file holds main(), the command table, the global help and version,
 * and the `algorithms` command. Each other command lives in its own file
 * (cmd_*.c) and has the signature of cli_command_fn. Usage errors exit 2,
 * run-time failures 1 (see cli.h).
 */
#include "cli.h"
#include "cmds.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

typedef struct gts_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} gts_command;

static const gts_command COMMANDS[] = {
    { "solve", cmd_solve, "solve Connect-4 positions read from stdin exactly" },
    { "search", cmd_search, "search a position of a game with one algorithm" },
    { "perft", cmd_perft, "count the leaf paths of a game tree to a depth" },
    { "bench", cmd_bench, "library alpha-beta vs a bare hand-written alpha-beta (nodes/s)" },
    { "speedup", cmd_speedup, "parallel speedup and search overhead per thread count" },
    { "nodes", cmd_nodes, "nodes and time per depth for several algorithms" },
    { "algorithms", cmd_algorithms, "list the search algorithms and their properties" },
    { "match", cmd_match, "two engine set-ups play a game from openings, colours swapped" },
    { "check", cmd_check, "check a game adapter against the gts_game contract" },
};
static const int NCOMMANDS = (int)(sizeof COMMANDS / sizeof COMMANDS[0]);

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: %s [--help] [--version] COMMAND [ARGS...]\n"
            "\n"
            "Game tree search from the command line, with libgts %s.\n"
            "\n"
            "Commands:\n",
            cli_prog, gts_version_string());
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-11s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fprintf(f,
            "\n"
            "Games: %s;\n"
            "or a game library: its path, any name with a '/' (./libmygame.so).\n"
            "Run '%s COMMAND --help' for the options of a command.\n"
            "Exit status: 0 success, 1 failure (bad input, search error), 2 usage error,\n"
            "130 interrupted (Ctrl-C).\n",
            cli_game_names, cli_prog);
}

/* ---- algorithms ------------------------------------------------------------ */

static const char ALGORITHMS_USAGE[] =
    "Usage: gts algorithms [--format text|csv|json]\n"
    "\n"
    "List the search algorithms of the library: the name accepted by --alg\n"
    "(the entry point without its gts_ prefix), whether it is exact (always the\n"
    "minimax value) and whether it is parallel (uses --threads).\n";

int cmd_algorithms(int argc, char **argv)
{
    cli_format fmt = CLI_FMT_TEXT;
    const cli_opt opts[] = { CLI_FORMAT("format", &fmt) };
    int rc = cli_parse_options("algorithms", ALGORITHMS_USAGE, NULL, argc, argv, opts,
                               CLI_NOPTS(opts));
    if (rc != CLI_OK)
        return cli_done(rc);
    if (cli_no_more_operands("algorithms", argc, argv, optind, NULL) != CLI_OK)
        return CLI_USAGE;

    gts_algorithm algs[64];
    int n = cli_algorithms(algs, 64);
    static const char *const cols[] = { "name", "exact", "parallel", "id" };
    cli_table *t = cli_table_new("", 4, cols);
    for (int i = 0; i < n; i++) {
        cli_table_str(t, gts_algorithm_name(algs[i]));
        bool exact = gts_algorithm_is_exact(algs[i]);
        bool par = gts_algorithm_is_parallel(algs[i]);
        if (fmt == CLI_FMT_JSON) {
            cli_table_raw(t, exact ? "true" : "false");
            cli_table_raw(t, par ? "true" : "false");
        } else {
            cli_table_str(t, exact ? "yes" : "no");
            cli_table_str(t, par ? "yes" : "no");
        }
        cli_table_int(t, (int64_t)algs[i]);
    }
    cli_table_print(t, stdout, fmt, "algorithms");
    cli_table_free(t);
    return CLI_OK;
}

/* ---- main ---------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        if (argc > 2 && strcmp(cmd, "help") == 0) {
            /* "gts help COMMAND" == "gts COMMAND --help" */
            for (int i = 0; i < NCOMMANDS; i++)
                if (strcmp(argv[2], COMMANDS[i].name) == 0) {
                    char *sub[] = { argv[2], "--help", NULL };
                    return COMMANDS[i].run(2, sub);
                }
            char *esc = cli_escaped(argv[2]);
            cli_usage_error(NULL, "unknown command '%s'", esc);
            free(esc);
            return CLI_USAGE;
        }
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("gts %s (libgts %s)\n", GTS_VERSION_STRING, gts_version_string());
        return CLI_OK;
    }
    for (int i = 0; i < NCOMMANDS; i++) {
        if (strcmp(cmd, COMMANDS[i].name) == 0) {
            cli_command = COMMANDS[i].name;
            cli_sigint_start(COMMANDS[i].name);
            return COMMANDS[i].run(argc - 1, argv + 1);
        }
    }
    char *esc = cli_escaped(cmd);
    fprintf(stderr, "%s: unknown %s '%s'\n\n", cli_prog, cmd[0] == '-' ? "option" : "command",
            esc);
    free(esc);
    usage(stderr);
    return CLI_USAGE;
}
