/*
 * cmd_search.c - `gts search` (one search, with a progress line per
 * iteration), `gts perft` (leaf-path counts) and `gts nodes` (a depth sweep
 * of several algorithms: nodes and time per depth).
 */
#include "cli.h"
#include "cmds.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Search depth when neither --depth nor a time or node budget is given. */
static int default_depth(const cli_game_opts *g)
{
    if (strcmp(g->name, "tictactoe") == 0)
        return 9;
    if (strcmp(g->name, "connect4") == 0)
        return 12;
    if (strcmp(g->name, "othello") == 0)
        return 8;
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
    "                  [--format text|json] [--quiet]\n"
    "\n"
    "Search POSITION (default: the start) of GAME (tictactoe, connect4,\n"
    "connect4_solver, othello, randtree) and print the best move, the score, the\n"
    "principal variation and the statistics of the search. A progress line per\n"
    "completed iteration goes to stderr (unless --quiet).\n"
    "\n"
    "Options:\n"
    "  --alg NAME       algorithm (default pvs; see 'gts algorithms')\n"
    "  --depth D        depth in plies (default: tictactoe 9, connect4 12, othello 8,\n"
    "                   randtree its tree depth; unlimited with --time-ms/--nodes)\n"
    "  --threads N      worker threads of a parallel algorithm (default 1)\n"
    "  --tt-mb M        transposition table in MiB (default 16, 0 = none)\n"
    "  --time-ms T      stop after T milliseconds\n"
    "  --nodes N        stop after about N nodes\n"
    "  --aspiration W   aspiration window half-width (default 0 = full window)\n"
    "  --format F       text (default) or json\n"
    "  --quiet          no progress lines\n"
    "  -h, --help       this help\n"
    "\n"
    "Positions: tictactoe cells 1-9 played in order (\"519\"); connect4 1-based\n"
    "columns (\"4453\"); othello squares (\"f5d6c3\", \"ps\" = pass).\n";

typedef struct progress_ctx {
    const gts_game *g;
    void *state;
    uint64_t t0;
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

static int on_iteration(const gts_result *r, void *user)
{
    const progress_ctx *p = user;
    char pv[1024];
    double ms = (double)(cli_now_us() - p->t0) / 1000.0;
    cli_format_pv(p->g, p->state, r->pv, r->pv_length, pv, sizeof pv);
    fprintf(stderr, "info depth %d score %d nodes %" PRIu64 " time %.1fms nps %.0f pv %s\n",
            r->depth, r->score, r->nodes, ms, ms > 0 ? (double)r->nodes / ms * 1000.0 : 0.0, pv);
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
    const gts_game *g = cli_game_new(&copy, command, state);
    if (g && solver)
        g = gts_game_connect4_solver();
    return g;
}

int cmd_search(int argc, char **argv)
{
    enum {
        OPT_ALG = OPT_FIRST_FREE, OPT_DEPTH, OPT_THREADS, OPT_TT, OPT_TIME, OPT_NODES, OPT_ASP,
        OPT_FORMAT, OPT_QUIET
    };
    static const struct option opts[] = {
        { "alg", required_argument, NULL, OPT_ALG },
        { "depth", required_argument, NULL, OPT_DEPTH },
        { "threads", required_argument, NULL, OPT_THREADS },
        { "tt-mb", required_argument, NULL, OPT_TT },
        { "time-ms", required_argument, NULL, OPT_TIME },
        { "nodes", required_argument, NULL, OPT_NODES },
        { "aspiration", required_argument, NULL, OPT_ASP },
        { "format", required_argument, NULL, OPT_FORMAT },
        { "quiet", no_argument, NULL, OPT_QUIET },
        { "help", no_argument, NULL, 'h' },
        CLI_GAME_LONG_OPTIONS,
        { 0, 0, 0, 0 },
    };
    cli_game_opts go;
    cli_game_opts_init(&go);
    const char *alg_name = "pvs";
    int64_t depth = -1, threads = 1, tt_mb = -1, asp = -1;
    uint64_t time_ms = 0, nodes = 0;
    cli_format fmt = CLI_FMT_TEXT;
    bool quiet = false;
    int c, rc;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (cli_game_option(&go, c, optarg, "search", &rc)) {
            if (rc)
                return rc;
            continue;
        }
        switch (c) {
        case 'h':
            fputs(SEARCH_USAGE, stdout);
            print_usage_common(stdout);
            return CLI_OK;
        case OPT_ALG:
            alg_name = optarg;
            break;
        case OPT_DEPTH:
            if (!cli_parse_i64(optarg, 1, GTS_MAX_DEPTH, &depth))
                return cli_usage_error("search", "--depth: expected 1..%d, got '%s'",
                                       GTS_MAX_DEPTH, optarg);
            break;
        case OPT_THREADS:
            if (!cli_parse_i64(optarg, 1, 256, &threads))
                return cli_usage_error("search", "--threads: expected 1..256, got '%s'", optarg);
            break;
        case OPT_TT:
            if (!cli_parse_i64(optarg, 0, INT32_MAX, &tt_mb))
                return cli_usage_error("search", "--tt-mb: expected a size in MiB, got '%s'",
                                       optarg);
            break;
        case OPT_TIME:
            if (!cli_parse_u64(optarg, UINT64_MAX / 1000000u, &time_ms))
                return cli_usage_error("search", "--time-ms: not a number: '%s'", optarg);
            break;
        case OPT_NODES:
            if (!cli_parse_u64(optarg, UINT64_MAX, &nodes))
                return cli_usage_error("search", "--nodes: not a number: '%s'", optarg);
            break;
        case OPT_ASP:
            if (!cli_parse_i64(optarg, 0, GTS_SCORE_INF, &asp))
                return cli_usage_error("search", "--aspiration: expected 0..%d, got '%s'",
                                       GTS_SCORE_INF, optarg);
            break;
        case OPT_FORMAT:
            if (!cli_parse_format(optarg, &fmt) || fmt == CLI_FMT_CSV)
                return cli_usage_error("search", "--format: expected text or json");
            break;
        case OPT_QUIET:
            quiet = true;
            break;
        default:
            return cli_bad_option("search", c, argv);
        }
    }
    if (optind >= argc)
        return cli_usage_error("search", "missing GAME (%s)", cli_game_names);
    go.name = argv[optind++];
    if (optind < argc)
        go.position = argv[optind++];
    if (optind < argc)
        return cli_usage_error("search", "unexpected argument '%s'", argv[optind]);
    gts_algorithm alg;
    if (!cli_algorithm("search", alg_name, &alg))
        return CLI_USAGE;

    void *state;
    const gts_game *g = search_game(&go, &state, "search");
    if (!g)
        return CLI_USAGE;
    if (depth < 0)
        depth = (time_ms || nodes) ? 0 : default_depth(&go);
    if (threads > 1 && !gts_algorithm_is_parallel(alg))
        cli_warn("search: --threads %" PRId64 " has no effect: '%s' is a serial algorithm",
                 threads, alg_name);
    gts_engine *e = cli_engine_new("search", tt_mb, threads);
    if (!e || (asp >= 0 && !cli_engine_set("search", e, GTS_OPT_ASPIRATION, asp, "--aspiration"))) {
        gts_engine_free(e);
        gts_games_free(g, state);
        return CLI_USAGE;
    }

    progress_ctx pc = { g, state, 0 };
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
    pc.t0 = cli_now_us();
    gts_status st = gts_search(e, alg, g, state, &lim, &r);
    if (st != GTS_OK) {
        fprintf(stderr, "%s search: %s (%s)\n", cli_prog, gts_strerror(st),
                gts_status_name(st) ? gts_status_name(st) : "?");
        if (st == GTS_ECALLBACK)
            fprintf(stderr, "%s search: the game callback returned %d\n", cli_prog,
                    r.callback_status);
        gts_engine_free(e);
        gts_games_free(g, state);
        return CLI_FAIL;
    }

    char best[64], pv[4096], score[64];
    if (r.flags & GTS_RESULT_HAS_MOVE)
        cli_format_move(g, state, r.best_move, best, sizeof best);
    else
        snprintf(best, sizeof best, "none");
    cli_format_pv(g, state, r.pv, r.flags & GTS_RESULT_HAS_MOVE ? r.pv_length : 0, pv, sizeof pv);
    score_text(r.score, score, sizeof score);
    double ms = (double)r.time_us / 1000.0;
    double nps = r.time_us ? (double)r.nodes * 1e6 / (double)r.time_us : 0.0;
    const char *bound = (r.flags & GTS_RESULT_LOWER_BOUND)   ? "lower"
                        : (r.flags & GTS_RESULT_UPPER_BOUND) ? "upper"
                                                             : "exact";
    bool par = gts_algorithm_is_parallel(alg);

    if (fmt == CLI_FMT_JSON) {
        printf("{\n  \"game\": ");
        cli_json_string(stdout, go.name);
        printf(",\n  \"position\": ");
        cli_json_string(stdout, go.position ? go.position : "");
        printf(",\n  \"algorithm\": ");
        cli_json_string(stdout, gts_algorithm_name(alg));
        printf(",\n  \"bestmove\": ");
        if (r.flags & GTS_RESULT_HAS_MOVE)
            cli_json_string(stdout, best);
        else
            printf("null");
        printf(",\n  \"score\": %d,\n  \"bound\": \"%s\",\n", r.score, bound);
        printf("  \"pv\": [");
        {
            /* one JSON string per move */
            char *save = NULL, *copy = strdup(pv);
            if (!copy)
                cli_oom();
            int k = 0;
            for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
                printf("%s", k++ ? ", " : "");
                cli_json_string(stdout, tok);
            }
            free(copy);
        }
        printf("],\n  \"depth\": %d,\n  \"seldepth\": %d,\n  \"threads\": %u,\n", r.depth,
               r.seldepth, r.threads);
        printf("  \"nodes\": %" PRIu64 ",\n  \"tt_probes\": %" PRIu64 ",\n  \"tt_hits\": %" PRIu64
               ",\n  \"tt_cutoffs\": %" PRIu64 ",\n",
               r.nodes, r.tt_probes, r.tt_hits, r.tt_cutoffs);
        printf("  \"time_us\": %" PRIu64 ",\n  \"nps\": %.0f,\n", r.time_us, nps);
        printf("  \"nodes_mandatory\": %" PRIu64 ",\n  \"nodes_speculative\": %" PRIu64
               ",\n  \"nodes_wasted\": %" PRIu64 ",\n",
               r.nodes_mandatory, r.nodes_speculative, r.nodes_wasted);
        printf("  \"thread_nodes\": [");
        for (uint32_t i = 0; i < r.threads && i < 256; i++)
            printf("%s%" PRIu64, i ? ", " : "", thread_nodes[i]);
        printf("],\n  \"stop\": \"%s\"\n}\n", stop_reason(r.flags));
    } else {
        printf("game         %s\n", go.name);
        printf("position     %s\n", go.position && *go.position ? go.position : "(start)");
        printf("algorithm    %s\n", gts_algorithm_name(alg));
        printf("bestmove     %s\n", best);
        printf("score        %s\n", score);
        if (strcmp(bound, "exact") != 0)
            printf("bound        %s\n", bound);
        printf("pv           %s\n", pv);
        printf("depth        %d\n", r.depth);
        printf("seldepth     %d\n", r.seldepth);
        printf("nodes        %" PRIu64 "\n", r.nodes);
        printf("tt_probes    %" PRIu64 "\n", r.tt_probes);
        printf("tt_hits      %" PRIu64 "\n", r.tt_hits);
        printf("tt_cutoffs   %" PRIu64 "\n", r.tt_cutoffs);
        printf("time_ms      %.3f\n", ms);
        printf("nps          %.0f\n", nps);
        printf("threads      %u\n", r.threads);
        if (par) {
            printf("mandatory    %" PRIu64 "\n", r.nodes_mandatory);
            printf("speculative  %" PRIu64 "\n", r.nodes_speculative);
            printf("wasted       %" PRIu64 "\n", r.nodes_wasted);
            printf("thread_nodes");
            for (uint32_t i = 0; i < r.threads && i < 256; i++)
                printf(" %" PRIu64, thread_nodes[i]);
            printf("\n");
        }
        printf("stop         %s\n", stop_reason(r.flags));
        printf("hashfull     %d\n", gts_engine_hashfull(e));
    }
    gts_engine_free(e);
    gts_games_free(g, state);
    return CLI_OK;
}

/* ---- perft ------------------------------------------------------------------------ */

static const char PERFT_USAGE[] =
    "Usage: gts perft GAME DEPTH [POSITION] [--divide]\n"
    "\n"
    "Count the leaf paths DEPTH plies below POSITION (default: the start) with\n"
    "the game's generate/apply/undo; a finished game before DEPTH counts as one\n"
    "leaf. DEPTH may be a list or range (\"1-9\"): one line per depth.\n"
    "Prints \"perft(DEPTH) = COUNT\" with the time taken.\n"
    "\n"
    "Options:\n"
    "  --divide         also print the count below each move of the position\n"
    "  --depth D        (randtree) depth of the tree, as --tree-depth\n"
    "  -h, --help       this help\n";

int cmd_perft(int argc, char **argv)
{
    enum { OPT_DIVIDE = OPT_FIRST_FREE };
    static const struct option opts[] = {
        { "divide", no_argument, NULL, OPT_DIVIDE },
        { "depth", required_argument, NULL, OPT_TREE_DEPTH },
        { "help", no_argument, NULL, 'h' },
        CLI_GAME_LONG_OPTIONS,
        { 0, 0, 0, 0 },
    };
    cli_game_opts go;
    cli_game_opts_init(&go);
    bool divide = false;
    int c, rc;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (cli_game_option(&go, c, optarg, "perft", &rc)) {
            if (rc)
                return rc;
            continue;
        }
        switch (c) {
        case 'h':
            fputs(PERFT_USAGE, stdout);
            print_usage_common(stdout);
            return CLI_OK;
        case OPT_DIVIDE:
            divide = true;
            break;
        default:
            return cli_bad_option("perft", c, argv);
        }
    }
    if (argc - optind < 2)
        return cli_usage_error("perft", "expected GAME DEPTH [POSITION]");
    go.name = argv[optind];
    int depths[GTS_MAX_DEPTH + 1];
    int nd = cli_parse_int_list(argv[optind + 1], 0, GTS_MAX_DEPTH, depths, GTS_MAX_DEPTH + 1);
    if (nd <= 0)
        return cli_usage_error("perft", "DEPTH: expected 0..%d or a range, got '%s'",
                               GTS_MAX_DEPTH, argv[optind + 1]);
    if (argc - optind > 2)
        go.position = argv[optind + 2];
    if (argc - optind > 3)
        return cli_usage_error("perft", "unexpected argument '%s'", argv[optind + 3]);

    void *state;
    const gts_game *g = cli_game_new(&go, "perft", &state);
    if (!g)
        return CLI_USAGE;
    int status = CLI_OK;
    for (int k = 0; k < nd && status == CLI_OK; k++) {
        int d = depths[k];
        if (divide && d > 0) {
            gts_move *moves = malloc(g->max_moves * sizeof *moves);
            if (!moves)
                cli_oom();
            int n = g->generate(state, moves, g->max_moves, g->user);
            for (int i = 0; i < n; i++) {
                uint64_t cnt = 0;
                char mv[64];
                cli_format_move(g, state, moves[i], mv, sizeof mv);
                if (g->apply(state, moves[i], g->user) != 0) {
                    status = CLI_FAIL;
                    break;
                }
                int prc = gts_games_perft(g, state, d - 1, &cnt);
                g->undo(state, moves[i], g->user);
                if (prc != 0) {
                    fprintf(stderr, "%s perft: %s\n", cli_prog, gts_strerror(prc));
                    status = CLI_FAIL;
                    break;
                }
                printf("  %s: %" PRIu64 "\n", mv, cnt);
            }
            free(moves);
        }
        uint64_t count = 0, t0 = cli_now_us();
        int prc = gts_games_perft(g, state, d, &count);
        double s = (double)(cli_now_us() - t0) / 1e6;
        if (prc != 0) {
            fprintf(stderr, "%s perft: %s\n", cli_prog, gts_strerror(prc));
            status = CLI_FAIL;
            break;
        }
        printf("perft(%d) = %" PRIu64 "  (%.3f s, %.2f M leaves/s)\n", d, count, s,
               s > 0 ? (double)count / s / 1e6 : 0.0);
        fflush(stdout);
    }
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
    enum { OPT_ALGS = OPT_FIRST_FREE, OPT_DEPTHS, OPT_THREADS, OPT_TT, OPT_NOITER, OPT_FORMAT };
    static const struct option opts[] = {
        { "algs", required_argument, NULL, OPT_ALGS },
        { "depths", required_argument, NULL, OPT_DEPTHS },
        { "threads", required_argument, NULL, OPT_THREADS },
        { "tt-mb", required_argument, NULL, OPT_TT },
        { "no-iterative", no_argument, NULL, OPT_NOITER },
        { "format", required_argument, NULL, OPT_FORMAT },
        { "help", no_argument, NULL, 'h' },
        CLI_GAME_LONG_OPTIONS,
        { 0, 0, 0, 0 },
    };
    cli_game_opts go;
    cli_game_opts_init(&go);
    char algs_buf[1024] = "alphabeta,pvs,mtdf";
    const char *depths_arg = "1-6";
    int64_t threads = 1, tt_mb = -1;
    bool iterative = true;
    cli_format fmt = CLI_FMT_TEXT;
    int c, rc;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (cli_game_option(&go, c, optarg, "nodes", &rc)) {
            if (rc)
                return rc;
            continue;
        }
        switch (c) {
        case 'h':
            fputs(NODES_USAGE, stdout);
            print_usage_common(stdout);
            return CLI_OK;
        case OPT_ALGS:
            if (strlen(optarg) >= sizeof algs_buf)
                return cli_usage_error("nodes", "--algs: list too long");
            snprintf(algs_buf, sizeof algs_buf, "%s", optarg);
            break;
        case OPT_DEPTHS:
            depths_arg = optarg;
            break;
        case OPT_THREADS:
            if (!cli_parse_i64(optarg, 1, 256, &threads))
                return cli_usage_error("nodes", "--threads: expected 1..256, got '%s'", optarg);
            break;
        case OPT_TT:
            if (!cli_parse_i64(optarg, 0, INT32_MAX, &tt_mb))
                return cli_usage_error("nodes", "--tt-mb: expected a size in MiB, got '%s'",
                                       optarg);
            break;
        case OPT_NOITER:
            iterative = false;
            break;
        case OPT_FORMAT:
            if (!cli_parse_format(optarg, &fmt))
                return cli_usage_error("nodes", "--format: expected text, csv or json");
            break;
        default:
            return cli_bad_option("nodes", c, argv);
        }
    }
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
        return CLI_USAGE;
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
