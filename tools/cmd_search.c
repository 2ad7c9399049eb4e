/*
 * cmd_search.c - `gts search` (one search, with a progress line per
 * iteration), `gts perft` (leaf-path counts) and `gts nodes` (a depth sweep
 * of several algorithms: nodes and time per depth).
 */
#include "cli.h"
#include "cmds.h"
#include "plugin.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Search depth when neither --depth nor a time or node budget is given. */
static int default_depth(const cli_game_opts *g)
{
    if (strcmp(g->name, "tictactoe") == 0)
        return 9;
    if (strcmp(g->name, "connect4") == 0 || strcmp(g->name, "connect4_solver") == 0)
        return 12;
    if (strcmp(g->name, "othello") == 0)
        return 8;
    if (strcmp(g->name, "chess") == 0)
        return 6;
    if (strcmp(g->name, "go") == 0)
        return 3; /* 9x9 at depth 4 takes a third of a second, 19x19 at 3 more */
    return (int)g->tree.depth;
}

static void print_usage_common(FILE *f)
{
    fprintf(f, "\n%s", cli_game_options_help);
}

/* ---- search ------------------------------------------------------------------ */

static const char SEARCH_USAGE[] =
    "Usage: gts search GAME [POSITION] [--alg NAME] [--depth D] [--threads N]\n"
    "                  [--tt-mb M] [--time-ms T] [--nodes N] [--aspiration W]\n"
    "                  [--playouts N] [--null-move R] [--lmr P] [--futility M]\n"
    "                  [--razor M] [--lmp B] [--contempt C] [--format text|json]\n"
    "                  [--quiet]\n"
    "\n"
    "Search POSITION (default: the start) of GAME (tictactoe, connect4,\n"
    "connect4_solver, othello, chess, go, randtree) and print the best move, the\n"
    "score, the principal variation and the statistics of the search. A progress\n"
    "line per completed iteration goes to stderr (unless --quiet). Ctrl-C stops\n"
    "the search and prints its last completed iteration (exit status 130).\n"
    "\n"
    "Options:\n"
    "  --alg NAME       algorithm (default pvs; see 'gts algorithms')\n"
    "  --depth D        depth in plies (default: tictactoe 9, connect4 12, othello 8,\n"
    "                   chess 6, go 3, randtree its tree depth; unlimited with\n"
    "                   --time-ms/--nodes/--playouts)\n"
    "  --threads N      worker threads of a parallel algorithm (default 1)\n"
    "  --tt-mb M        transposition table in MiB (default 16, 0 = none)\n"
    "  --time-ms T      stop after T milliseconds (default 0 = no limit)\n"
    "  --nodes N        stop after about N nodes (default 0 = no limit)\n"
    "  --aspiration W   aspiration window half-width (default 0 = full window)\n"
    "  --playouts N     mcts: stop after N playouts (1..2^62; the depth is then\n"
    "                   unlimited)\n"
    "  --null-move R, --lmr P, --futility M, --razor M, --lmp B, --contempt C\n"
    "                   selective search of the alpha-beta family: the engine\n"
    "                   options null_move, lmr, futility, razor, lmp, contempt\n"
    "                   (default 0 = off; see doc/cli.md)\n"
    "  --format F       text (default) or json\n"
    "  --quiet          no progress lines\n"
    "  -h, --help       this help\n"
    "\n"
    "Positions: tictactoe cells 1-9 played in order (\"519\"); connect4 1-based\n"
    "columns (\"4453\"); othello squares (\"f5d6c3\", \"ps\" = pass); chess\n"
    "\"startpos\" or a FEN, then \"moves e2e4 ...\"; go \"[SIZE] [komi=K]\n"
    "[maxmoves=N] [patterns=0|1] [moves=V,V,...]\" with GTP vertices\n"
    "(\"9 komi=7 moves=E5,D4,pass\").\n";

/* Games of search and nodes: the built-in ones and connect4_solver. */
static const char SEARCH_GAME_NAMES[] =
    "tictactoe, connect4, connect4_solver, othello, chess, go, randtree";

/* Width of the key column of the text output (the longest key). */
enum { KEY_WIDTH = 17 };

typedef struct progress_ctx {
    const gts_game *g;
    void *state;
    bool quiet;
} progress_ctx;

static void score_text(gts_score s, char *buf, size_t size)
{
    if (gts_score_is_win(s))
        snprintf(buf, size, "%d (win in %d plies)", s, gts_score_plies_to_end(s));
    else if (gts_score_is_loss(s))
        snprintf(buf, size, "%d (loss in %d plies)", s, gts_score_plies_to_end(s));
    else
        snprintf(buf, size, "%d", s);
}

static double nodes_per_second(uint64_t nodes, uint64_t time_us)
{
    return time_us ? (double)nodes * 1e6 / (double)time_us : 0.0;
}

static int on_iteration(const gts_result *r, void *user)
{
    const progress_ctx *p = user;
    if (p->quiet)
        return 0;
    char pv[4096];
    cli_format_pv(p->g, p->state, r->pv, (r->flags & GTS_RESULT_HAS_MOVE) ? r->pv_length : 0, pv,
                  sizeof pv);
    fprintf(stderr, "info depth %d score %d nodes %" PRIu64 " time_us %" PRIu64 " nps %.0f pv %s\n",
            r->depth, r->score, r->nodes, r->time_us, nodes_per_second(r->nodes, r->time_us),
            pv[0] ? pv : "none");
    return 0;
}

static const char *stop_reason(uint32_t flags)
{
    if (flags & GTS_RESULT_TIME_LIMIT)
        return "time-limit";
    if (flags & GTS_RESULT_NODE_LIMIT)
        return "node-limit";
    if (flags & GTS_RESULT_STOPPED)
        return "stopped";
    return "none";
}

/* Game by name for search/nodes: also "connect4_solver" (exact pruning). */
static const gts_game *search_game(const cli_game_opts *go, void **state, const char *command)
{
    cli_game_opts copy = *go;
    bool solver = strcmp(go->name, "connect4_solver") == 0;
    if (solver)
        copy.name = "connect4";
    if (!cli_is_game_library(copy.name) && !gts_games_find(copy.name)) {
        char *esc = cli_escaped(go->name);
        cli_usage_error(command, "unknown game '%s' (known: %s)", esc, SEARCH_GAME_NAMES);
        free(esc);
        *state = NULL;
        return NULL;
    }
    const gts_game *g = cli_game_new(&copy, command, state);
    if (g && solver)
        g = gts_game_connect4_solver();
    return g;
}

/* One output, text ("key value" lines) or JSON (one object): the same keys
 * in the same order (doc/cli.md, "search"). */
typedef struct out {
    cli_format fmt;
    int fields;
} out;

static void out_key(out *o, const char *key)
{
    if (o->fmt == CLI_FMT_JSON)
        printf("%s  \"%s\": ", o->fields ? ",\n" : "{\n", key);
    else
        printf("%-*s ", KEY_WIDTH, key);
    o->fields++;
}

static void out_end_value(out *o)
{
    if (o->fmt != CLI_FMT_JSON)
        putchar('\n');
}

/* A string; @p text_if_empty replaces "" in text, NULL is JSON null. */
static void out_str(out *o, const char *key, const char *s, const char *text_if_empty)
{
    out_key(o, key);
    if (o->fmt == CLI_FMT_JSON) {
        if (s)
            cli_json_string(stdout, s);
        else
            fputs("null", stdout);
    } else {
        fputs(s && *s ? s : text_if_empty, stdout);
    }
    out_end_value(o);
}

static void out_u64(out *o, const char *key, uint64_t v)
{
    out_key(o, key);
    printf("%" PRIu64, v);
    out_end_value(o);
}

static void out_i64(out *o, const char *key, int64_t v)
{
    out_key(o, key);
    printf("%" PRId64, v);
    out_end_value(o);
}

static void out_end(out *o)
{
    if (o->fmt == CLI_FMT_JSON)
        printf("\n}\n");
}

/* The principal variation: one string per move, each formatted in its own
 * position (played on @p state and taken back). Returns the count. */
static uint32_t pv_moves(const gts_game *g, void *state, const gts_result *r, char (*mv)[64],
                         uint32_t cap)
{
    uint32_t n = (r->flags & GTS_RESULT_HAS_MOVE) ? r->pv_length : 0, applied = 0, i;
    if (n > cap)
        n = cap;
    for (i = 0; i < n; i++) {
        cli_format_move(g, state, r->pv[i], mv[i], sizeof mv[i]);
        if (i + 1 < n) {
            if (g->apply(state, r->pv[i], g->user) != 0) {
                i++;
                break;
            }
            applied++;
        }
    }
    while (applied > 0) {
        applied--;
        g->undo(state, r->pv[applied], g->user);
    }
    return i;
}

static void print_result(cli_format fmt, const cli_game_opts *go, gts_algorithm alg,
                         const gts_game *g, void *state, const gts_result *r,
                         const uint64_t *thread_nodes, int hashfull)
{
    out o = { fmt, 0 };
    char best[64], score[64];
    bool has_move = (r->flags & GTS_RESULT_HAS_MOVE) != 0;
    if (has_move)
        cli_format_move(g, state, r->best_move, best, sizeof best);
    const char *bound = (r->flags & GTS_RESULT_LOWER_BOUND)   ? "lower"
                        : (r->flags & GTS_RESULT_UPPER_BOUND) ? "upper"
                                                              : "exact";
    static char pv[GTS_MAX_PLY][64];
    uint32_t npv = pv_moves(g, state, r, pv, GTS_MAX_PLY);
    uint32_t nthreads = r->threads < 256 ? r->threads : 256;

    out_str(&o, "game", go->name, "");
    out_str(&o, "position", go->position ? go->position : "", "(start)");
    out_str(&o, "algorithm", gts_algorithm_name(alg), "");
    out_str(&o, "bestmove", has_move ? best : NULL, "none");
    out_key(&o, "score");
    if (fmt == CLI_FMT_JSON) {
        printf("%d", r->score);
    } else {
        score_text(r->score, score, sizeof score);
        fputs(score, stdout);
    }
    out_end_value(&o);
    out_str(&o, "bound", bound, "");
    out_key(&o, "pv");
    if (fmt == CLI_FMT_JSON)
        putchar('[');
    for (uint32_t i = 0; i < npv; i++) {
        if (fmt == CLI_FMT_JSON) {
            fputs(i ? ", " : "", stdout);
            cli_json_string(stdout, pv[i]);
        } else {
            printf("%s%s", i ? " " : "", pv[i]);
        }
    }
    if (fmt == CLI_FMT_JSON)
        putchar(']');
    else if (npv == 0)
        fputs("none", stdout);
    out_end_value(&o);
    out_i64(&o, "depth", r->depth);
    out_i64(&o, "seldepth", r->seldepth);
    out_u64(&o, "nodes", r->nodes);
    out_u64(&o, "tt_probes", r->tt_probes);
    out_u64(&o, "tt_hits", r->tt_hits);
    out_u64(&o, "tt_cutoffs", r->tt_cutoffs);
    out_u64(&o, "time_us", r->time_us);
    out_key(&o, "nps");
    printf("%.0f", nodes_per_second(r->nodes, r->time_us));
    out_end_value(&o);
    out_u64(&o, "threads", r->threads);
    out_u64(&o, "nodes_mandatory", r->nodes_mandatory);
    out_u64(&o, "nodes_speculative", r->nodes_speculative);
    out_u64(&o, "nodes_wasted", r->nodes_wasted);
    out_key(&o, "thread_nodes");
    if (fmt == CLI_FMT_JSON)
        putchar('[');
    for (uint32_t i = 0; i < nthreads; i++)
        printf("%s%" PRIu64, i ? (fmt == CLI_FMT_JSON ? ", " : " ") : "", thread_nodes[i]);
    if (fmt == CLI_FMT_JSON)
        putchar(']');
    else if (nthreads == 0)
        fputs("none", stdout);
    out_end_value(&o);
    out_str(&o, "stop", stop_reason(r->flags), "");
    out_i64(&o, "hashfull", hashfull);
    out_end(&o);
    fflush(stdout);
}

int cmd_search(int argc, char **argv)
{
    cli_game_opts go;
    cli_game_opts_init(&go);
    const char *alg_name = "pvs";
    int64_t depth = -1, threads = 1, tt_mb = -1, asp = -1, playouts = 0;
    uint64_t time_ms = 0, nodes = 0;
    cli_format fmt = CLI_FMT_TEXT;
    bool quiet = false;
    /* The selective search options (issue 32), unset: INT64_MIN (contempt
     * may be negative). */
    static const gts_option SEL[] = {GTS_OPT_NULL_MOVE, GTS_OPT_LMR,  GTS_OPT_FUTILITY,
                                     GTS_OPT_RAZOR,     GTS_OPT_LMP,  GTS_OPT_CONTEMPT};
    static const char *const SEL_FLAG[] = {"--null-move", "--lmr", "--futility",
                                           "--razor",     "--lmp", "--contempt"};
    int64_t sel[6] = {INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN};
    const cli_opt opts[] = {
        CLI_STR("alg", &alg_name),
        CLI_INT("depth", &depth, 1, GTS_MAX_DEPTH),
        CLI_ENGINE("threads", &threads, GTS_OPT_THREADS),
        CLI_ENGINE("tt-mb", &tt_mb, GTS_OPT_TT_MB),
        CLI_U64("time-ms", &time_ms),
        CLI_U64("nodes", &nodes),
        CLI_ENGINE("aspiration", &asp, GTS_OPT_ASPIRATION),
        /* 0 would mean no budget: not a number of playouts */
        CLI_INT("playouts", &playouts, 1, (int64_t)1 << 62),
        CLI_ENGINE("null-move", &sel[0], GTS_OPT_NULL_MOVE),
        CLI_ENGINE("lmr", &sel[1], GTS_OPT_LMR),
        CLI_ENGINE("futility", &sel[2], GTS_OPT_FUTILITY),
        CLI_ENGINE("razor", &sel[3], GTS_OPT_RAZOR),
        CLI_ENGINE("lmp", &sel[4], GTS_OPT_LMP),
        CLI_ENGINE("contempt", &sel[5], GTS_OPT_CONTEMPT),
        CLI_FORMAT_NO_CSV("format", &fmt),
        CLI_FLAG("quiet", &quiet),
        CLI_GAME_OPTIONS(&go),
    };
    int rc = cli_parse_options("search", argc, argv, opts, CLI_NOPTS(opts));
    if (rc == CLI_HELP) {
        fputs(SEARCH_USAGE, stdout);
        print_usage_common(stdout);
        return CLI_OK;
    }
    if (rc != CLI_OK)
        return rc;
    if (optind >= argc)
        return cli_usage_error("search", "missing GAME (%s)", SEARCH_GAME_NAMES);
    go.name = argv[optind++];
    if (optind < argc)
        go.position = argv[optind++];
    if (optind < argc) {
        char *esc = cli_escaped(argv[optind]);
        cli_usage_error("search", "unexpected argument '%s'", esc);
        free(esc);
        return CLI_USAGE;
    }
    gts_algorithm alg;
    if (!cli_algorithm("search", alg_name, &alg))
        return CLI_USAGE;

    void *state;
    const gts_game *g = search_game(&go, &state, "search");
    if (!g)
        return CLI_USAGE;
    if (threads > 1 && !gts_algorithm_is_parallel(alg))
        cli_warn("--threads %" PRId64 " has no effect: '%s' is a serial algorithm", threads,
                 gts_algorithm_name(alg));
    if (playouts > 0 && alg != GTS_ALG_MCTS) {
        /* An option without effect changes nothing else: the default depth
         * stays (a playout budget alone would leave the search unlimited). */
        cli_warn("--playouts %" PRId64 " has no effect: '%s' is not a Monte-Carlo search",
                 playouts, gts_algorithm_name(alg));
        playouts = 0;
    }
    if (depth < 0)
        depth = (time_ms || nodes || playouts) ? 0 : default_depth(&go);
    gts_engine *e = cli_engine_new("search", tt_mb, threads);
    if (!e || (asp >= 0 && !cli_engine_set("search", e, GTS_OPT_ASPIRATION, asp, "--aspiration"))
        || (playouts > 0
            && !cli_engine_set("search", e, GTS_OPT_MCTS_PLAYOUTS, playouts, "--playouts"))) {
        gts_engine_free(e);
        gts_games_free(g, state);
        return CLI_FAIL;
    }
    for (int i = 0; i < 6; i++)
        if (sel[i] != INT64_MIN && !cli_engine_set("search", e, SEL[i], sel[i], SEL_FLAG[i])) {
            gts_engine_free(e);
            gts_games_free(g, state);
            return CLI_FAIL;
        }

    progress_ctx pc = { g, state, quiet };
    gts_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.struct_size = sizeof lim;
    lim.depth = (int32_t)depth;
    lim.nodes = nodes;
    lim.time_ms = time_ms;
    lim.on_iteration = quiet ? NULL : on_iteration;
    lim.on_iteration_user = &pc;
    uint64_t thread_nodes[256];
    gts_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    r.thread_nodes = thread_nodes;
    r.thread_nodes_capacity = 256;
    cli_sigint_search_begin(e);
    gts_status st = gts_search(e, alg, g, state, &lim, &r);
    cli_sigint_search_end();
    if (st != GTS_OK) {
        fprintf(stderr, "%s search: search failed: %s (%s)\n", cli_prog, gts_strerror(st),
                gts_status_name(st) ? gts_status_name(st) : "?");
        if (st == GTS_ECALLBACK)
            fprintf(stderr, "%s search: the game callback returned %d\n", cli_prog,
                    r.callback_status);
        gts_engine_free(e);
        gts_games_free(g, state);
        return cli_interrupted() ? cli_interrupt_exit("search") : CLI_FAIL;
    }
    print_result(fmt, &go, alg, g, state, &r, thread_nodes, gts_engine_hashfull(e));
    gts_engine_free(e);
    gts_games_free(g, state);
    return cli_interrupted() ? cli_interrupt_exit("search") : CLI_OK;
}

/* ---- perft ------------------------------------------------------------------------ */

/* gts_games_perft, or chess's own count (gts_chess_perft): the published
 * chess numbers give a mate no leaf and ignore the rule draws. */
static int game_perft(const cli_game_opts *go, const gts_game *g, void *state, int depth,
                      uint64_t *count)
{
    if (strcmp(go->name, "chess") == 0)
        return gts_chess_perft(state, depth, count);
    return gts_games_perft(g, state, depth, count);
}

static const char PERFT_USAGE[] =
    "Usage: gts perft GAME DEPTH [POSITION] [--divide]\n"
    "\n"
    "Count the leaf paths DEPTH plies below POSITION (default: the start) of GAME\n"
    "(tictactoe, connect4, othello, chess, go, randtree) with the game's\n"
    "generate/apply/undo; a finished game before DEPTH counts as one leaf (chess:\n"
    "none, and the 50-move and repetition draws do not end it, as in the published\n"
    "counts). DEPTH may be a list or range\n"
    "(\"1-9\", \"2,4\"): one line per depth. Prints \"perft(DEPTH) = COUNT\" with the\n"
    "time taken.\n"
    "\n"
    "Options:\n"
    "  --divide         also print the count below each move of the position\n"
    "  --depth D        (randtree) depth of the tree, as --tree-depth\n"
    "  -h, --help       this help\n";

int cmd_perft(int argc, char **argv)
{
    cli_game_opts go;
    cli_game_opts_init(&go);
    bool divide = false;
    /* --depth: a random tree's depth, as --tree-depth (and so named in messages) */
    cli_opt tree_depth = CLI_U32("depth", &go.tree.depth, 1, 60);
    tree_depth.label = "--tree-depth";
    const cli_opt opts[] = {
        CLI_FLAG("divide", &divide),
        tree_depth,
        CLI_GAME_OPTIONS(&go),
    };
    int rc = cli_parse_options("perft", argc, argv, opts, CLI_NOPTS(opts));
    if (rc == CLI_HELP) {
        fputs(PERFT_USAGE, stdout);
        print_usage_common(stdout);
        return CLI_OK;
    }
    if (rc != CLI_OK)
        return rc;
    if (argc - optind < 2)
        return cli_usage_error("perft", "expected GAME DEPTH [POSITION]");
    go.name = argv[optind];
    int depths[GTS_MAX_DEPTH + 1];
    int nd = cli_parse_int_list(argv[optind + 1], 0, GTS_MAX_DEPTH, depths, GTS_MAX_DEPTH + 1);
    if (nd <= 0) {
        char *esc = cli_escaped(argv[optind + 1]);
        cli_usage_error("perft",
                        "DEPTH: expected 0..%d, a list such as 2,4 or a range such as 1-6 "
                        "(at most %d depths), got '%s'",
                        GTS_MAX_DEPTH, GTS_MAX_DEPTH + 1, esc);
        free(esc);
        return CLI_USAGE;
    }
    if (argc - optind > 2)
        go.position = argv[optind + 2];
    if (argc - optind > 3) {
        char *esc = cli_escaped(argv[optind + 3]);
        cli_usage_error("perft", "unexpected argument '%s'", esc);
        free(esc);
        return CLI_USAGE;
    }

    void *state;
    const gts_game *g = cli_game_new(&go, "perft", &state);
    if (!g)
        return CLI_USAGE;
    gts_move *moves = malloc(((size_t)g->max_moves + 1) * sizeof *moves);
    if (!moves)
        cli_oom();
    int status = CLI_OK;
    for (int k = 0; k < nd && status == CLI_OK; k++) {
        int d = depths[k];
        if (divide && d > 0) {
            int n = g->generate(state, moves, g->max_moves, g->user);
            for (int i = 0; i < n; i++) {
                uint64_t cnt = 0;
                char mv[64];
                cli_format_move(g, state, moves[i], mv, sizeof mv);
                if (g->apply(state, moves[i], g->user) != 0) {
                    fprintf(stderr, "%s perft: move %s could not be played\n", cli_prog, mv);
                    status = CLI_FAIL;
                    break;
                }
                int prc = game_perft(&go, g, state, d - 1, &cnt);
                g->undo(state, moves[i], g->user);
                if (prc != 0) {
                    fprintf(stderr, "%s perft: perft(%d) failed: %s (%s)\n", cli_prog, d - 1,
                            gts_strerror(prc), gts_status_name(prc) ? gts_status_name(prc) : "?");
                    status = CLI_FAIL;
                    break;
                }
                printf("  %s: %" PRIu64 "\n", mv, cnt);
            }
            fflush(stdout);
            if (status != CLI_OK)
                break;
        }
        uint64_t count = 0, t0 = cli_now_us();
        int prc = game_perft(&go, g, state, d, &count);
        double s = (double)(cli_now_us() - t0) / 1e6;
        if (prc != 0) {
            fprintf(stderr, "%s perft: perft(%d) failed: %s (%s)\n", cli_prog, d,
                    gts_strerror(prc), gts_status_name(prc) ? gts_status_name(prc) : "?");
            status = CLI_FAIL;
            break;
        }
        printf("perft(%d) = %" PRIu64 "  (%.3f s, %.2f M leaves/s)\n", d, count, s,
               s > 0 ? (double)count / s / 1e6 : 0.0);
        fflush(stdout);
    }
    free(moves);
    gts_games_free(g, state);
    return status;
}

/* ---- nodes ------------------------------------------------------------------------ */

static const char NODES_USAGE[] =
    "Usage: gts nodes GAME [POSITION] --algs A,B,... --depths 1-N [--threads N]\n"
    "                 [--tt-mb M] [--no-iterative] [--format text|csv|json]\n"
    "\n"
    "Depth sweep: search POSITION with every algorithm at every depth (a cleared\n"
    "engine each time) and tabulate score, nodes, TT hits and time. With\n"
    "iterative deepening (the default) the nodes of depth D include those of the\n"
    "iterations before it. Feed the CSV to tools/plot for a nodes-vs-depth chart.\n"
    "\n"
    "Options:\n"
    "  --algs LIST      algorithms (default alphabeta,pvs,mtdf)\n"
    "  --depths LIST    depths, e.g. 1-8 or 2,4,6 (default 1-6)\n"
    "  --threads N      worker threads of parallel algorithms (default 1)\n"
    "  --tt-mb M        transposition table in MiB (default 16)\n"
    "  --no-iterative   search each depth directly\n"
    "  --format F       text (default), csv or json\n"
    "  -h, --help       this help\n";

int cmd_nodes(int argc, char **argv)
{
    cli_game_opts go;
    cli_game_opts_init(&go);
    char algs_buf[1024] = "alphabeta,pvs,mtdf";
    const char *depths_arg = "1-6";
    int64_t threads = 1, tt_mb = -1;
    bool iterative = true;
    cli_format fmt = CLI_FMT_TEXT;
    const cli_opt opts[] = {
        CLI_TEXT("algs", algs_buf),
        CLI_STR("depths", &depths_arg),
        CLI_ENGINE("threads", &threads, GTS_OPT_THREADS),
        CLI_ENGINE("tt-mb", &tt_mb, GTS_OPT_TT_MB),
        CLI_CLEAR("no-iterative", &iterative),
        CLI_FORMAT("format", &fmt),
        CLI_GAME_OPTIONS(&go),
    };
    int rc = cli_parse_options("nodes", argc, argv, opts, CLI_NOPTS(opts));
    if (rc == CLI_HELP) {
        fputs(NODES_USAGE, stdout);
        print_usage_common(stdout);
        return CLI_OK;
    }
    if (rc != CLI_OK)
        return rc;
    if (optind >= argc)
        return cli_usage_error("nodes", "missing GAME (%s)", cli_game_names);
    go.name = argv[optind++];
    if (optind < argc)
        go.position = argv[optind++];
    if (optind < argc)
        return cli_usage_error("nodes", "unexpected argument '%s'", argv[optind]);
    int depths[GTS_MAX_DEPTH];
    int nd = cli_parse_int_list(depths_arg, 1, GTS_MAX_DEPTH, depths, GTS_MAX_DEPTH);
    if (nd <= 0)
        return cli_usage_error("nodes", "--depths: expected a list such as 1-8, got '%s'",
                               depths_arg);
    char *names[64];
    int na = cli_split_list(algs_buf, names, 64);
    if (na <= 0)
        return cli_usage_error("nodes", "--algs: expected a comma-separated list");
    gts_algorithm algs[64];
    for (int i = 0; i < na; i++)
        if (!cli_algorithm("nodes", names[i], &algs[i]))
            return CLI_USAGE;

    void *state;
    const gts_game *g = search_game(&go, &state, "nodes");
    if (!g)
        return CLI_USAGE;
    gts_engine *e = cli_engine_new("nodes", tt_mb, threads);
    if (!e || (!iterative && !cli_engine_set("nodes", e, GTS_OPT_ITERATIVE, 0, "iterative"))) {
        gts_engine_free(e);
        gts_games_free(g, state);
        return CLI_FAIL;
    }
    static const char *const cols[] = { "game", "algorithm", "depth", "score", "nodes",
                                        "tt_hits", "time_ms", "nps", "bestmove" };
    char title[256];
    snprintf(title, sizeof title, "nodes per depth: %s %s", go.name,
             go.position && *go.position ? go.position : "(start)");
    cli_table *t = cli_table_new(title, 9, cols);
    cli_engine_warm(e, algs[0], g, state);
    cli_progress *prog = cli_progress_start("nodes", (uint64_t)na * (uint64_t)nd);
    int status = CLI_OK;
    for (int a = 0; a < na && status == CLI_OK; a++) {
        for (int k = 0; k < nd; k++) {
            char label[96];
            snprintf(label, sizeof label, "%s depth %d", gts_algorithm_name(algs[a]), depths[k]);
            cli_progress_set(prog, (uint64_t)(a * nd + k), label);
            gts_engine_clear(e);
            gts_limits lim;
            memset(&lim, 0, sizeof lim);
            lim.struct_size = sizeof lim;
            lim.depth = depths[k];
            gts_result r;
            memset(&r, 0, sizeof r);
            r.struct_size = sizeof r;
            uint64_t t0 = cli_now_us();
            gts_status st = gts_search(e, algs[a], g, state, &lim, &r);
            uint64_t us = cli_now_us() - t0;
            if (st != GTS_OK) {
                fprintf(stderr, "%s nodes: %s depth %d: %s\n", cli_prog,
                        gts_algorithm_name(algs[a]), depths[k], gts_strerror(st));
                status = CLI_FAIL;
                break;
            }
            char mv[64];
            cli_format_move(g, state, (r.flags & GTS_RESULT_HAS_MOVE) ? r.best_move : GTS_MOVE_NONE,
                            mv, sizeof mv);
            cli_table_str(t, go.name);
            cli_table_str(t, gts_algorithm_name(algs[a]));
            cli_table_int(t, depths[k]);
            cli_table_int(t, r.score);
            cli_table_uint(t, r.nodes);
            cli_table_uint(t, r.tt_hits);
            cli_table_num(t, (double)us / 1000.0, 3);
            cli_table_num(t, us ? (double)r.nodes * 1e6 / (double)us : 0.0, 0);
            cli_table_str(t, mv);
        }
    }
    cli_progress_end(prog);
    if (status == CLI_OK)
        cli_table_print(t, stdout, fmt, "nodes");
    cli_table_free(t);
    gts_engine_free(e);
    gts_games_free(g, state);
    return status;
}
