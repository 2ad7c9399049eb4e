/*
 * cmd_solve.c - `gts solve connect4`: read Connect-4 positions from stdin,
 * one per line, and print "POSITION SCORE" for each, solved exactly.
 *
 * Exactness: every position is searched to the number of empty cells (the
 * end of the game) with an exact algorithm on gts_game_connect4_solver(),
 * whose pruning keeps the negamax value. The root window is the score range
 * that is possible with n stones on the board, [-(42-n)/2, (43-n)/2],
 * widened by one on each side, so a fail-soft search returns the exact value
 * inside it; a result flagged as a bound is reported as an error.
 *
 * One engine (and so one transposition table, killers and history) serves
 * every line: Connect-4 keys are exact positions and entries carry their
 * remaining depth, so what one line learnt is valid for the next.
 *
 * Input errors never stop the run: the line is reported on stderr with its
 * number, the other lines are answered, and the exit status is 1 at the end.
 * A SIGINT stops the line being solved, which is not answered (exit 130).
 */
#include "cli.h"
#include "cmds.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { C4_CELLS = 42 };

/* The fastest exact serial algorithm on Connect-4 (measured; doc/cli.md). */
static const char SOLVE_DEFAULT_ALG[] = "pvs";

static const char SOLVE_USAGE[] =
    "Usage: gts solve connect4 [--alg NAME] [--threads N] [--tt-mb M] [--stats]\n"
    "                          [--check] [--iterative | --no-iterative]\n"
    "                          [--deepen N] [--root DRIVER] [--no-bounds]\n"
    "                          [--no-prefetch] [--tt-near D] [--tt-near-kb K]\n"
    "                          [--split-ply P]\n"
    "\n"
    "Read Connect-4 positions from stdin, one per line, as the 1-based columns\n"
    "played from the empty board (\"4453\"), and print \"POSITION SCORE\" for each.\n"
    "The score is exact: positive when the side to move wins, (43 - n) / 2 where\n"
    "n is the number of stones before its winning stone; negative when it loses;\n"
    "0 for a draw.\n"
    "\n"
    "Options:\n"
    "  --alg NAME       exact algorithm (default: pvs; see 'gts algorithms')\n"
    "  --threads N      worker threads of a parallel algorithm (default 1)\n"
    "  --tt-mb M        transposition table size in MiB (default 64)\n"
    "  --stats          append the nodes searched and the microseconds taken\n"
    "  --check          lines are \"POSITION EXPECTED\" (the benchmark file format):\n"
    "                   a different score is reported as an error\n"
    "  --iterative      iterative deepening up to the end of the game\n"
    "  --no-iterative   search the full depth at once (the default: about twice\n"
    "                   as fast here), after the prelude of --deepen\n"
    "  --deepen N       without --iterative, first deepen iteratively while fewer\n"
    "                   than N nodes were searched (GTS_OPT_DEEPEN_NODES*; default\n"
    "                   32768; 0: no prelude): a win or loss found then is already\n"
    "                   exact, which solves easy positions in a few nodes\n"
    "  --root DRIVER    how the root value is found (GTS_OPT_ROOT_DRIVER*): window\n"
    "                   (default: one search of the reachable score range), bisect\n"
    "                   (null-window searches halving that range, as dedicated\n"
    "                   solvers do) or mtdf (null windows stepping from the last\n"
    "                   score)\n"
    "  --no-bounds      hide the game's score-range callback from the search (to\n"
    "                   measure what it brings)\n"
    "  --no-prefetch    do not play the children ahead to prefetch their table\n"
    "                   entries (GTS_OPT_TT_PREFETCH*, on by default here)\n"
    "  --tt-near D      nodes with at most D plies to go use a small, cache-resident\n"
    "                   part of the table (GTS_OPT_TT_NEAR_DEPTH*; default 10, and 12\n"
    "                   for a parallel algorithm on more than one thread; 0: one\n"
    "                   table for all nodes)\n"
    "  --tt-near-kb K   size of that part in KiB (GTS_OPT_TT_NEAR_KB*; default 1024)\n"
    "  --split-ply P    parallel algorithms share work only in the top P plies\n"
    "                   (GTS_OPT_SPLIT_PLY*; default 12; 0: no limit)\n"
    "  -h, --help       this help\n"
    "\n"
    "* An experimental engine option (behind GTS_EXPERIMENTAL_API; README,\n"
    "  \"Versioning and ABI\"): a tuning knob that may change or go in any minor\n"
    "  release.\n"
    "\n"
    "A malformed line (bad character, full column, a position where the game is\n"
    "already over, an empty or too long line) is reported on stderr with its line\n"
    "number; the other lines are still answered and the exit status is 1. Blank\n"
    "lines at the very end of the input are ignored. Ctrl-C stops at once: the\n"
    "line being solved is not answered (exit status 130).\n";

/* How the root value is found (measured: doc/results/solver.md, issue 10). */
static const int64_t SOLVE_DEFAULT_ROOT = GTS_ROOT_WINDOW;
/* Nodes of the iterative-deepening prelude (GTS_OPT_DEEPEN_NODES). */
static const int64_t SOLVE_DEFAULT_DEEPEN = 32768;
/* Plies of the tree where parallel algorithms share work
 * (GTS_OPT_SPLIT_PLY; measured: doc/results/solver.md, issue 10). */
static const int64_t SOLVE_DEFAULT_SPLIT_PLY = 12;
/* The table's near part: the nodes with at most this many plies to go
 * (GTS_OPT_TT_NEAR_DEPTH) use GTS_OPT_TT_NEAR_KB of cache-resident table
 * (measured: doc/results/solver.md, issue 10). */
static const int64_t SOLVE_DEFAULT_TT_NEAR = 10;
/* The same for a parallel algorithm on more than one thread: each thread
 * has its own slice of the near part (half of it at two threads), and
 * there a deeper near part is faster (measured: doc/results/solver.md, issue 10). */
static const int64_t SOLVE_DEFAULT_TT_NEAR_PARALLEL = 12;
static const int64_t SOLVE_DEFAULT_TT_NEAR_KB = 1024;

/* Default table of the solver: solving benefits from a bigger one. */
static const int64_t SOLVE_DEFAULT_TT_MB = 64;
/* Longest line accepted (a position has at most 42 moves; a score follows
 * with --check). Longer lines are rejected without being parsed. */
static const size_t SOLVE_MAX_LINE = 256;

typedef struct solve_opts {
    gts_algorithm alg;
    int64_t threads, tt_mb;
    bool stats, check, iterative, no_bounds, no_prefetch;
    int64_t root, deepen, split_ply, tt_near, tt_near_kb;
} solve_opts;

/*
 * Check @p pos (length @p len) and build its state. On failure write a
 * message into @p why and return NULL.
 */
static void *parse_position(const char *pos, size_t len, char *why, size_t size)
{
    if (len == 0) {
        snprintf(why, size, "empty line (expected a position such as 4453)");
        return NULL;
    }
    return cli_position_new("connect4", NULL, pos, why, size);
}

/* Solve one position: returns true and the exact score, or false after
 * printing an error for line @p lineno. */
static bool solve_one(gts_engine *e, const solve_opts *o, void *state, size_t stones,
                      unsigned long lineno, gts_result *r)
{
    gts_game g_nb = *gts_game_connect4_solver();
    if (o->no_bounds)
        g_nb.bounds = NULL;
    const gts_game *g = &g_nb;
    gts_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.struct_size = sizeof lim;
    int empty = C4_CELLS - (int)stones;
    lim.depth = empty > 0 ? empty : 1;
    int n = (int)stones;
    lim.alpha = -((C4_CELLS - n) / 2) - 1;
    lim.beta = (C4_CELLS + 1 - n) / 2 + 1;
    memset(r, 0, sizeof *r);
    r->struct_size = sizeof *r;
    cli_sigint_search_begin(e);
    gts_status rc = gts_search(e, o->alg, g, state, &lim, r);
    cli_sigint_search_end();
    if (cli_interrupted())
        return false;
    if (rc != GTS_OK) {
        fprintf(stderr, "%s solve: line %lu: search failed: %s\n", cli_prog, lineno,
                gts_strerror(rc));
        return false;
    }
    /* Short of the full depth only when the value was decided early (a
     * win or a loss: Connect-4 scores by distance). */
    if (r->flags & (GTS_RESULT_STOPPED | GTS_RESULT_NODE_LIMIT | GTS_RESULT_TIME_LIMIT)
        || (r->depth != lim.depth && r->flags & GTS_RESULT_HAS_MOVE && r->score == 0)) {
        fprintf(stderr, "%s solve: line %lu: search stopped at depth %d of %d\n", cli_prog,
                lineno, r->depth, lim.depth);
        return false;
    }
    if (r->flags & (GTS_RESULT_LOWER_BOUND | GTS_RESULT_UPPER_BOUND)) {
        fprintf(stderr, "%s solve: line %lu: the library returned a bound (%d), not a value\n",
                cli_prog, lineno, r->score);
        return false;
    }
    return true;
}

/* Trim blanks (space, tab, CR) at both ends. */
static char *trim(char *s, size_t *len)
{
    while (*len > 0 && (s[*len - 1] == ' ' || s[*len - 1] == '\t' || s[*len - 1] == '\r' ||
                        s[*len - 1] == '\n'))
        (*len)--;
    while (*len > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        (*len)--;
    }
    s[*len] = '\0';
    return s;
}

int cmd_solve(int argc, char **argv)
{
    solve_opts o = { .threads = 1, .tt_mb = SOLVE_DEFAULT_TT_MB, .iterative = false,
                     .root = SOLVE_DEFAULT_ROOT, .deepen = SOLVE_DEFAULT_DEEPEN,
                     .split_ply = SOLVE_DEFAULT_SPLIT_PLY, .tt_near = -1,
                     .tt_near_kb = SOLVE_DEFAULT_TT_NEAR_KB };
    const char *alg_name = SOLVE_DEFAULT_ALG;
    /* in the order of gts_root_driver: the index is the value */
    static const char *const ROOTS[] = { "window", "bisect", "mtdf", NULL };
    _Static_assert(GTS_ROOT_WINDOW == 0 && GTS_ROOT_BISECT == 1 && GTS_ROOT_MTDF == 2,
                   "ROOTS lists gts_root_driver in order");
    const cli_opt opts[] = {
        CLI_STR("alg", &alg_name),
        CLI_ENGINE("threads", &o.threads, GTS_OPT_THREADS),
        CLI_ENGINE("tt-mb", &o.tt_mb, GTS_OPT_TT_MB),
        CLI_FLAG("stats", &o.stats),
        CLI_FLAG("check", &o.check),
        CLI_FLAG("iterative", &o.iterative),
        CLI_CLEAR("no-iterative", &o.iterative),
        CLI_CHOICE("root", &o.root, ROOTS),
        CLI_FLAG("no-bounds", &o.no_bounds),
        CLI_FLAG("no-prefetch", &o.no_prefetch),
        CLI_ENGINE("deepen", &o.deepen, GTS_OPT_DEEPEN_NODES),
        CLI_ENGINE("split-ply", &o.split_ply, GTS_OPT_SPLIT_PLY),
        CLI_ENGINE("tt-near", &o.tt_near, GTS_OPT_TT_NEAR_DEPTH),
        CLI_ENGINE("tt-near-kb", &o.tt_near_kb, GTS_OPT_TT_NEAR_KB),
    };
    int prc = cli_parse_options("solve", SOLVE_USAGE, NULL, argc, argv, opts, CLI_NOPTS(opts));
    if (prc != CLI_OK)
        return cli_done(prc);
    if (optind >= argc)
        return cli_usage_error("solve", "missing GAME (only connect4 can be solved)");
    if (strcmp(argv[optind], "connect4") != 0) {
        char *esc = cli_escaped(argv[optind]);
        cli_usage_error("solve", "cannot solve '%s': only connect4 is supported", esc);
        free(esc);
        return CLI_USAGE;
    }
    if (cli_no_more_operands("solve", argc, argv, optind + 1,
                             " (positions are read from stdin)") != CLI_OK)
        return CLI_USAGE;
    if (!cli_algorithm("solve", alg_name, &o.alg))
        return CLI_USAGE;
    if (!gts_algorithm_is_exact(o.alg))
        return cli_usage_error("solve",
                               "algorithm '%s' is not exact: solving needs an exact one "
                               "(see '%s algorithms')",
                               gts_algorithm_name(o.alg), cli_prog);
    if (o.tt_near < 0) /* not given */
        o.tt_near = o.threads > 1 && gts_algorithm_is_parallel(o.alg)
                        ? SOLVE_DEFAULT_TT_NEAR_PARALLEL
                        : SOLVE_DEFAULT_TT_NEAR;
    if (o.threads > 1 && !gts_algorithm_is_parallel(o.alg))
        cli_warn("--threads %" PRId64 " has no effect: '%s' is a serial algorithm", o.threads,
                 gts_algorithm_name(o.alg));

    gts_engine *e = cli_engine_new("solve", o.tt_mb, o.threads);
    if (!e)
        return CLI_FAIL;
    if ((!o.iterative && !cli_engine_set("solve", e, GTS_OPT_ITERATIVE, 0, "iterative"))
        || !cli_engine_set("solve", e, GTS_OPT_ROOT_DRIVER, o.root, "root_driver")
        || !cli_engine_set("solve", e, GTS_OPT_TT_PREFETCH, !o.no_prefetch, "tt_prefetch")
        || !cli_engine_set("solve", e, GTS_OPT_DEEPEN_NODES, o.deepen, "deepen_nodes")
        || !cli_engine_set("solve", e, GTS_OPT_SPLIT_PLY, o.split_ply, "split_ply")
        || !cli_engine_set("solve", e, GTS_OPT_TT_NEAR_DEPTH, o.tt_near, "tt_near_depth")
        || !cli_engine_set("solve", e, GTS_OPT_TT_NEAR_KB, o.tt_near_kb, "tt_near_kb")) {
        gts_engine_free(e);
        return CLI_FAIL;
    }

    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    unsigned long lineno = 0, errors = 0;
    /* Blank lines are errors, except at the very end of the input: they are
     * only reported once a non-blank line follows them. */
    unsigned long blank_first = 0, blank_count = 0;
    while ((got = getline(&line, &cap, stdin)) != -1) {
        lineno++;
        size_t len = (size_t)got;
        char why[160];
        if (strspn(line, " \t\r\n") == len) {
            if (blank_count++ == 0)
                blank_first = lineno;
            continue;
        }
        for (unsigned long k = 0; k < blank_count; k++) {
            fprintf(stderr, "%s solve: line %lu: empty line (expected a position such as 4453)\n",
                    cli_prog, blank_first + k);
            errors++;
        }
        blank_count = 0;
        if (len > SOLVE_MAX_LINE) {
            fprintf(stderr, "%s solve: line %lu: too long: %zu characters\n", cli_prog, lineno,
                    len);
            errors++;
            continue;
        }
        if (memchr(line, '\0', len)) {
            fprintf(stderr, "%s solve: line %lu: bad character: NUL byte\n", cli_prog, lineno);
            errors++;
            continue;
        }
        char *pos = trim(line, &len);
        int64_t expected = 0;
        if (o.check) {
            /* "POSITION EXPECTED": blanks between, EXPECTED a decimal int32. */
            char *sp = strpbrk(pos, " \t");
            if (sp) {
                *sp = '\0';
                sp += 1 + strspn(sp + 1, " \t");
            }
            if (!sp || !cli_parse_i64(sp, INT32_MIN, INT32_MAX, &expected)) {
                fprintf(stderr, "%s solve: line %lu: expected \"POSITION SCORE\" with --check\n",
                        cli_prog, lineno);
                errors++;
                continue;
            }
            len = strlen(pos);
        }
        void *state = parse_position(pos, len, why, sizeof why);
        if (!state) {
            fprintf(stderr, "%s solve: line %lu: %s\n", cli_prog, lineno, why);
            errors++;
            continue;
        }
        uint64_t t0 = cli_now_us();
        gts_result r;
        bool ok = solve_one(e, &o, state, len, lineno, &r);
        uint64_t us = cli_now_us() - t0;
        gts_games_free(gts_game_connect4(), state);
        if (cli_interrupted())
            break;
        if (!ok) {
            errors++;
            continue;
        }
        if (o.stats)
            printf("%s %d %" PRIu64 " %" PRIu64 "\n", pos, r.score, r.nodes, us);
        else
            printf("%s %d\n", pos, r.score);
        fflush(stdout);
        if (o.check && r.score != expected) {
            fprintf(stderr, "%s solve: line %lu: %s scores %d, expected %" PRId64 "\n", cli_prog,
                    lineno, pos, r.score, expected);
            errors++;
        }
    }
    bool read_failed = ferror(stdin) != 0;
    int read_errno = errno; /* getline's, before anything else sets it */
    free(line);
    gts_engine_free(e);
    if (cli_interrupted())
        return cli_interrupt_exit("solve");
    if (read_failed) {
        cli_error("cannot read stdin: %s", read_errno ? strerror(read_errno) : "read error");
        return CLI_FAIL;
    }
    if (errors) {
        fprintf(stderr, "%s solve: %lu of %lu line%s failed\n", cli_prog, errors, lineno,
                lineno == 1 ? "" : "s");
        return CLI_FAIL;
    }
    return CLI_OK;
}
