/*
 * cmd_bench.c - `gts bench` and `gts speedup`.
 *
 * bench (issue 3): how much does the library cost per node? On two fixed
 * workloads (Connect-4 mid-game positions at a fixed depth, a random tree)
 * it runs three searches:
 *   bare      a minimal fail-soft negamax alpha-beta written here, calling
 *             the adapter's generate/apply/undo/evaluate directly: no TT,
 *             no ordering, no limits, no statistics;
 *   lib-bare  gts_alphabeta configured to search the very same tree: TT,
 *             killers, history, quiescence and iterative deepening off, and
 *             the game's move hints (move_score, generate_keyed) and bounds
 *             removed from a copy of the vtable.
 *             Its node count must equal bare's (checked: "same tree");
 *   lib-full  gts_alphabeta with its defaults (TT, ordering, iterative
 *             deepening): fewer nodes, the point of using the library.
 * The nodes/s ratio lib-bare / bare is the library's per-node overhead; the
 * node ratio lib-full / bare is what TT + ordering save.
 *
 * speedup: for each parallel algorithm and thread count, the time to reach
 * a depth (best or median of R runs), the speedup over the same algorithm
 * at 1 thread and over the best serial alpha-beta/PVS, the search overhead
 * (nodes relative to 1 thread) and the mandatory/speculative/wasted split.
 */
#include "cli.h"
#include "cmds.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- the bare baseline ---------------------------------------------------------- */

typedef struct bare_ctx {
    const gts_game *g;
    void *state;
    gts_move *moves; /* (depth + 1) * max_moves */
    uint64_t nodes;
    int error;
} bare_ctx;

/* Fail-soft negamax alpha-beta; moves in generate() order. */
static gts_score bare_search(bare_ctx *b, int depth, int ply, gts_score alpha, gts_score beta)
{
    const gts_game *g = b->g;
    if (depth == 0)
        return g->evaluate(b->state, g->user);
    gts_move *moves = b->moves + (size_t)ply * g->max_moves;
    int n = g->generate(b->state, moves, g->max_moves, g->user);
    if (n < 0) {
        b->error = n;
        return 0;
    }
    if (n == 0)
        return g->evaluate(b->state, g->user);
    gts_score best = -GTS_SCORE_INF;
    for (int i = 0; i < n; i++) {
        if (g->apply(b->state, moves[i], g->user) != 0) {
            b->error = GTS_ECALLBACK;
            return 0;
        }
        b->nodes++;
        gts_score s = -bare_search(b, depth - 1, ply + 1, -beta, -alpha);
        g->undo(b->state, moves[i], g->user);
        if (b->error)
            return 0;
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                if (s >= beta)
                    break;
            }
        }
    }
    return best;
}

/* ---- bench ------------------------------------------------------------------------ */

static const char BENCH_USAGE[] =
    "Usage: gts bench [--repeat R] [--format text|csv|json] [--quick] [--engine E]\n"
    "\n"
    "Nodes per second of gts_alphabeta against a bare alpha-beta written in the\n"
    "tool (no TT, no ordering) on the same adapter, on Connect-4 mid-game\n"
    "positions at a fixed depth and on a random tree:\n"
    "  bare      the tool's own negamax alpha-beta (the baseline)\n"
    "  lib-bare  gts_alphabeta searching the same tree (TT, killers, history,\n"
    "            iterative deepening and the move_score hint off)\n"
    "  lib-full  gts_alphabeta with its defaults (TT 16 MiB, ordering, ID)\n"
    "Columns: nodes, CPU and wall time, nodes per CPU second (robust on a busy\n"
    "machine: the searches are serial), nodes/s relative to bare (the overhead\n"
    "ratio) and nodes relative to bare.\n"
    "\n"
    "Options:\n"
    "  --repeat R       best of R runs per measurement (default 3)\n"
    "  --quick          smaller workloads (for smoke tests)\n"
    "  --engine E       run only engine E (bare, lib-bare or lib-full), e.g. under\n"
    "                   a profiler; the notes that compare engines are left out\n"
    "  --format F       text (default), csv or json\n"
    "  -h, --help       this help\n";

/* The Connect-4 workload: mid-game positions (10-16 stones, none decided). */
static const char *const BENCH_C4_POSITIONS[] = {
    "4453423",    "44444113",   "4444332226", "1234567123", "43443436263",
    "4455445533", "3332221117", "12345671234", "44433352",  "2255366471",
};
static const int BENCH_C4_DEPTH = 11;
static const int BENCH_C4_DEPTH_QUICK = 7;
/* The random-tree workload. */
static const uint64_t BENCH_TREE_SEED = 3;
static const uint32_t BENCH_TREE_BRANCHING = 8;
static const uint32_t BENCH_TREE_DEPTH = 11;
static const uint32_t BENCH_TREE_DEPTH_QUICK = 7;

typedef struct bench_work {
    const char *name;
    const gts_game *game;      /* the adapter */
    const gts_game *game_bare; /* the same without move_score (for lib-bare) */
    void **states;
    int nstates;
    int depth;
} bench_work;

typedef struct bench_measure {
    uint64_t nodes, us, wall_us;
    int64_t score_sum;
    bool ok;
} bench_measure;

static bench_measure run_bare(const bench_work *w)
{
    bench_measure m = { 0, 0, 0, 0, true };
    bare_ctx b = { .g = w->game };
    b.moves = malloc((size_t)(w->depth + 1) * w->game->max_moves * sizeof *b.moves);
    if (!b.moves)
        cli_oom();
    uint64_t t0 = cli_cpu_us(), w0 = cli_now_us();
    for (int i = 0; i < w->nstates; i++) {
        b.state = w->states[i];
        b.nodes++; /* the root, counted as the library does */
        m.score_sum += bare_search(&b, w->depth, 0, -GTS_SCORE_INF, GTS_SCORE_INF);
        if (b.error) {
            m.ok = false;
            break;
        }
    }
    m.us = cli_cpu_us() - t0;
    m.wall_us = cli_now_us() - w0;
    m.nodes = b.nodes;
    free(b.moves);
    return m;
}

static bench_measure run_lib(const bench_work *w, bool full)
{
    bench_measure m = { 0, 0, 0, 0, true };
    gts_engine *e = cli_engine_new("bench", full ? -1 : 0, -1);
    if (!e)
        return (bench_measure){ 0, 0, 0, 0, false };
    if (!full) {
        gts_engine_set(e, GTS_OPT_KILLERS, 0);
        gts_engine_set(e, GTS_OPT_HISTORY, 0);
        gts_engine_set(e, GTS_OPT_QUIESCENCE, 0);
        gts_engine_set(e, GTS_OPT_ITERATIVE, 0);
        gts_engine_set(e, GTS_OPT_ASPIRATION, 0);
    }
    const gts_game *g = full ? w->game : w->game_bare;
    cli_engine_warm(e, GTS_ALG_ALPHABETA, g, w->states[0]);
    gts_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.struct_size = sizeof lim;
    lim.depth = w->depth;
    uint64_t t0 = cli_cpu_us(), w0 = cli_now_us();
    for (int i = 0; i < w->nstates; i++) {
        gts_result r;
        memset(&r, 0, sizeof r);
        r.struct_size = sizeof r;
        gts_status st = gts_alphabeta(e, g, w->states[i], &lim, &r);
        if (st != GTS_OK) {
            cli_error("gts_alphabeta failed: %s", gts_strerror(st));
            m.ok = false;
            break;
        }
        m.nodes += r.nodes;
        m.score_sum += r.score;
    }
    m.us = cli_cpu_us() - t0;
    m.wall_us = cli_now_us() - w0;
    gts_engine_free(e);
    return m;
}

/* The best (least CPU time) of @repeat runs of each engine on @w. The
 * engines take turns, bare, lib-bare, lib-full, then again (bare and
 * lib-bare swap places every other repeat): a machine whose speed drifts
 * between runs (a VM's fast and slow modes) then touches all three alike,
 * where blocks of repeats per engine would let one engine see only the
 * fast runs. @ratio[k]: lib-bare's speed over bare's in repeat k (bare's
 * CPU time over lib-bare's, the trees being the same), paired so that the
 * drift between repeats cancels out. */
enum { BENCH_ENGINES = 3, BENCH_REPEAT_MAX = 1000 };
static const char *const BENCH_ENGINE_NAMES[BENCH_ENGINES] = { "bare", "lib-bare", "lib-full" };

static bool best_of(const bench_work *w, int repeat, unsigned engines, cli_progress *p,
                    uint64_t *done, bench_measure best[BENCH_ENGINES], double *ratio)
{
    for (int e = 0; e < BENCH_ENGINES; e++)
        best[e] = (bench_measure){ 0, UINT64_MAX, 0, 0, false };
    for (int k = 0; k < repeat; k++) {
        uint64_t us[2] = { 0, 0 };
        for (int j = 0; j < BENCH_ENGINES; j++) {
            int e = j < 2 && k % 2 ? 1 - j : j;
            if (!(engines & 1u << e))
                continue;
            char label[64];
            snprintf(label, sizeof label, "%s %s", w->name, BENCH_ENGINE_NAMES[e]);
            cli_progress_set(p, (*done)++, label);
            bench_measure m = e == 0 ? run_bare(w) : run_lib(w, e == 2);
            if (!m.ok)
                return false;
            if (m.us < best[e].us)
                best[e] = m;
            if (e < 2)
                us[e] = m.us;
        }
        ratio[k] = us[1] ? (double)us[0] / (double)us[1] : 0.0;
    }
    return true;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int cmd_bench(int argc, char **argv)
{
    int64_t repeat = 3, engine = -1;
    unsigned engines = (1u << BENCH_ENGINES) - 1; /* bit e: run engine e */
    bool quick = false;
    cli_format fmt = CLI_FMT_TEXT;
    static const char *const ENGINE_CHOICES[] = { "bare", "lib-bare", "lib-full", NULL };
    const cli_opt opts[] = {
        CLI_INT("repeat", &repeat, 1, BENCH_REPEAT_MAX),
        CLI_CHOICE("engine", &engine, ENGINE_CHOICES),
        CLI_FORMAT("format", &fmt),
        CLI_FLAG("quick", &quick),
    };
    int rc = cli_parse_options("bench", BENCH_USAGE, NULL, argc, argv, opts, CLI_NOPTS(opts));
    if (rc != CLI_OK)
        return cli_done(rc);
    if (engine >= 0)
        engines = 1u << engine;
    if (optind < argc)
        return cli_no_more_operands("bench", argc, argv, optind, NULL);

    /* Workloads. */
    enum { NC4 = sizeof BENCH_C4_POSITIONS / sizeof BENCH_C4_POSITIONS[0] };
    void *c4_states[NC4];
    for (int i = 0; i < NC4; i++) {
        gts_status st = gts_connect4_new(BENCH_C4_POSITIONS[i], &c4_states[i]);
        if (st != GTS_OK) {
            cli_error("bad built-in position %s: %s", BENCH_C4_POSITIONS[i],
                      gts_strerror(st));
            return CLI_FAIL;
        }
    }
    gts_game c4_bare = *gts_game_connect4();
    c4_bare.move_score = NULL;
    c4_bare.bounds = NULL;
    c4_bare.generate_keyed = NULL;
    gts_randtree_params tp;
    memset(&tp, 0, sizeof tp);
    tp.struct_size = sizeof tp;
    tp.seed = BENCH_TREE_SEED;
    tp.branching = BENCH_TREE_BRANCHING;
    tp.depth = quick ? BENCH_TREE_DEPTH_QUICK : BENCH_TREE_DEPTH;
    tp.min_value = -1000;
    tp.max_value = 1000;
    void *tree = NULL;
    gts_status st = gts_randtree_new(&tp, &tree);
    if (st != GTS_OK) {
        cli_error("cannot build the random tree: %s", gts_strerror(st));
        return CLI_FAIL;
    }
    gts_game tree_bare = *gts_game_randtree();
    tree_bare.move_score = NULL;
    tree_bare.bounds = NULL;
    tree_bare.generate_keyed = NULL;

    bench_work works[2] = {
        { "connect4", gts_game_connect4(), &c4_bare, c4_states, NC4,
          quick ? BENCH_C4_DEPTH_QUICK : BENCH_C4_DEPTH },
        { "randtree", gts_game_randtree(), &tree_bare, &tree, 1, (int)tp.depth },
    };

    static const char *const cols[] = { "workload", "engine", "positions", "depth", "nodes",
                                        "cpu_ms", "wall_ms", "nodes_per_s", "nps_vs_bare",
                                        "nodes_vs_bare" };
    cli_table *t = cli_table_new("gts bench: gts_alphabeta vs a bare alpha-beta "
                                 "(best of runs; nodes/s per CPU second)",
                                 10, cols);
    int nengines = __builtin_popcount(engines);
    cli_progress *prog = cli_progress_start("bench", (uint64_t)(2 * nengines * repeat));
    uint64_t done = 0;
    int status = CLI_OK;
    for (int wi = 0; wi < 2 && status == CLI_OK; wi++) {
        const bench_work *w = &works[wi];
        bench_measure best[BENCH_ENGINES];
        double ratio[BENCH_REPEAT_MAX];
        if (!best_of(w, (int)repeat, engines, prog, &done, best, ratio)) {
            cli_error("a search failed on %s", w->name);
            status = CLI_FAIL;
            break;
        }
        const bench_measure bare = best[0], lbare = best[1], lfull = best[2];
        double bare_nps = bare.us ? (double)bare.nodes * 1e6 / (double)bare.us : 0.0;
        for (int k = 0; k < BENCH_ENGINES; k++) {
            if (!(engines & 1u << k))
                continue;
            const bench_measure *m = &best[k];
            double nps = m->us ? (double)m->nodes * 1e6 / (double)m->us : 0.0;
            cli_table_str(t, w->name);
            cli_table_str(t, BENCH_ENGINE_NAMES[k]);
            cli_table_int(t, w->nstates);
            cli_table_int(t, w->depth);
            cli_table_uint(t, m->nodes);
            cli_table_num(t, (double)m->us / 1000.0, 1);
            cli_table_num(t, (double)m->wall_us / 1000.0, 1);
            cli_table_num(t, nps, 0);
            if (!(engines & 1u)) { /* no bare run to compare with */
                cli_table_str(t, "-");
                cli_table_str(t, "-");
                continue;
            }
            cli_table_num(t, bare_nps > 0 ? nps / bare_nps : 0.0, 3);
            cli_table_num(t, bare.nodes ? (double)m->nodes / (double)bare.nodes : 0.0, 3);
        }
        if (nengines == 1)
            continue; /* nothing to compare */
        double lb_nps = lbare.us ? (double)lbare.nodes * 1e6 / (double)lbare.us : 0.0;
        bool same_tree = lbare.nodes == bare.nodes && lbare.score_sum == bare.score_sum;
        cli_table_note(t,
                       "%s: library overhead: lib-bare runs at %.1f%% of the bare speed "
                       "(%.2fx time per node); same tree as bare: %s",
                       w->name, bare_nps > 0 ? 100.0 * lb_nps / bare_nps : 0.0,
                       lb_nps > 0 ? bare_nps / lb_nps : 0.0,
                       same_tree ? "yes" : "NO (node counts or scores differ)");
        qsort(ratio, (size_t)repeat, sizeof ratio[0], cmp_double);
        double median = repeat % 2 ? ratio[repeat / 2]
                                   : (ratio[repeat / 2 - 1] + ratio[repeat / 2]) / 2.0;
        cli_table_note(t,
                       "%s: paired by repeat: lib-bare at %.1f%% of the bare speed, median "
                       "of %d (range %.1f%%-%.1f%%)",
                       w->name, 100.0 * median, (int)repeat, 100.0 * ratio[0],
                       100.0 * ratio[repeat - 1]);
        cli_table_note(t,
                       "%s: TT + ordering: lib-full searches %.1f%% of bare's nodes, "
                       "%.2fx faster than bare in time",
                       w->name, bare.nodes ? 100.0 * (double)lfull.nodes / (double)bare.nodes : 0.0,
                       lfull.us ? (double)bare.us / (double)lfull.us : 0.0);
        if (lfull.score_sum != bare.score_sum)
            cli_table_note(t, "%s: WARNING: lib-full's scores differ from bare's (sum %" PRId64
                              " vs %" PRId64 ")",
                           w->name, lfull.score_sum, bare.score_sum);
        if (!same_tree || lfull.score_sum != bare.score_sum)
            status = CLI_FAIL;
    }
    cli_progress_end(prog);
    cli_table_print(t, stdout, fmt, "bench");
    cli_table_free(t);
    for (int i = 0; i < NC4; i++)
        gts_games_free(gts_game_connect4(), c4_states[i]);
    gts_games_free(gts_game_randtree(), tree);
    return status;
}

/* ---- speedup ----------------------------------------------------------------------- */

static const char SPEEDUP_USAGE[] =
    "Usage: gts speedup [--game G] [--algs A,B,...] [--threads 1,2,4,...]\n"
    "                   [--depth D] [--repeat R] [--median] [--position P]\n"
    "                   [--tt-mb M] [--virtual] [--split-ply P]\n"
    "                   [--format text|csv|json]\n"
    "\n"
    "Time to depth of parallel algorithms per thread count. For each algorithm\n"
    "and thread count: the time (best of R runs, or the median), the speedup\n"
    "over the same algorithm at 1 thread and over the best serial alpha-beta or\n"
    "PVS at 1 thread, the nodes relative to 1 thread (search overhead) and the\n"
    "mandatory / speculative / wasted node split. Algorithms the library does\n"
    "not know are skipped with a note. Every run starts from a cleared engine.\n"
    "\n"
    "Options:\n"
    "  --game G         connect4, randtree (default), othello or tictactoe\n"
    "  --algs LIST      algorithms (default: every parallel algorithm but mcts)\n"
    "  --threads LIST   thread counts (default 1,2,4)\n"
    "  --depth D        search depth (default: connect4 20, randtree 12 (and the\n"
    "                   tree's depth), othello 13, tictactoe 9)\n"
    "  --position P     position (default: the start; connect4: 4453442)\n"
    "  --repeat R       runs per measurement (default 3)\n"
    "  --median         report the median of the runs instead of the best\n"
    "  --tt-mb M        transposition table in MiB (default 16)\n"
    "  --virtual        virtual processors (GTS_OPT_VIRTUAL*): the threads take\n"
    "                   turns, one node each, and time is counted in rounds of\n"
    "                   turns (ticks; a serial search: its nodes), so thread\n"
    "                   counts far beyond the machine's cores are measured by\n"
    "                   design; deterministic, so one run per measurement; the\n"
    "                   column idle is the share of idle turns\n"
    "  --split-ply P    share work only in the top P plies (GTS_OPT_SPLIT_PLY*;\n"
    "                   default 0: no limit)\n"
    "  --format F       text (default), csv or json\n"
    "  -h, --help       this help\n"
    "\n"
    "* An experimental engine option (behind GTS_EXPERIMENTAL_API; README,\n"
    "  \"Versioning and ABI\"): a tuning knob that may change or go in any minor\n"
    "  release.\n";

/* Default workloads: about 0.3 s for serial PVS on an idle core. From the
 * empty board every unfinished Connect-4 node evaluates to 0 and alpha-beta
 * has nothing to do; a middle-game position gives a real tree. */
static const char SPEEDUP_C4_POSITION[] = "4453442";
static const int64_t SPEEDUP_C4_DEPTH = 20;
static const int64_t SPEEDUP_OTHELLO_DEPTH = 13;
static const int64_t SPEEDUP_TICTACTOE_DEPTH = 9;
static const int64_t SPEEDUP_TREE_DEPTH = 12;

typedef struct sp_measure {
    uint64_t us, nodes, mandatory, speculative, wasted;
    uint64_t idle; /* --virtual: idle turns */
    uint64_t sync; /* --virtual: the idle turns spent waiting for another worker */
    gts_score score;
    int depth;
    bool ok;
} sp_measure;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* How every measurement of one `gts speedup` runs. */
typedef struct sp_setup {
    int depth;
    int64_t tt_mb;
    int repeat;
    bool median, virt;
    int64_t split_ply; /* GTS_OPT_SPLIT_PLY */
} sp_setup;

/* R runs of @p alg at @p threads; best or median time (and the nodes of that run). */
static sp_measure sp_run(gts_algorithm alg, int threads, const gts_game *g, void *state,
                         const sp_setup *su, cli_progress *p, uint64_t *done)
{
    sp_measure out = { .ok = false };
    int depth = su->depth, repeat = su->repeat;
    bool median = su->median, virt = su->virt;
    gts_engine *e = cli_engine_new("speedup", su->tt_mb, threads);
    if (!e)
        return out;
    if ((virt && !cli_engine_set("speedup", e, GTS_OPT_VIRTUAL, 1, "--virtual"))
        || !cli_engine_set("speedup", e, GTS_OPT_SPLIT_PLY, su->split_ply, "--split-ply")) {
        gts_engine_free(e);
        return out;
    }
    sp_measure *runs = calloc((size_t)repeat, sizeof *runs);
    uint64_t *times = calloc((size_t)repeat, sizeof *times);
    if (!runs || !times)
        cli_oom();
    char label[96];
    snprintf(label, sizeof label, "%s t=%d", gts_algorithm_name(alg), threads);
    cli_engine_warm(e, alg, g, state);
    for (int k = 0; k < repeat; k++) {
        cli_progress_set(p, (*done)++, label);
        gts_engine_clear(e);
        gts_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.struct_size = sizeof lim;
        lim.depth = depth;
        gts_result r;
        memset(&r, 0, sizeof r);
        r.struct_size = sizeof r;
        uint64_t t0 = cli_now_us();
        gts_status st = gts_search(e, alg, g, state, &lim, &r);
        uint64_t us = cli_now_us() - t0;
        if (st != GTS_OK) {
            fprintf(stderr, "%s speedup: %s with %d threads: %s\n", cli_prog,
                    gts_algorithm_name(alg), threads, gts_strerror(st));
            free(runs);
            free(times);
            gts_engine_free(e);
            return out;
        }
        uint64_t idle = 0, sync = 0;
        if (virt) {
            /* Virtual time: rounds of turns; a search without a pool is
             * one node per round. */
            uint64_t rounds = 0;
            gts_engine_virtual_stats(e, &rounds, &idle);
            gts_engine_virtual_sync(e, &sync);
            us = rounds ? rounds : r.nodes;
        }
        runs[k] = (sp_measure){ us, r.nodes, r.nodes_mandatory, r.nodes_speculative,
                                r.nodes_wasted, idle, sync, r.score, r.depth, true };
        times[k] = us;
    }
    int pick = 0;
    if (median) {
        qsort(times, (size_t)repeat, sizeof *times, cmp_u64);
        uint64_t want = times[(repeat - 1) / 2];
        for (int k = 0; k < repeat; k++)
            if (runs[k].us == want)
                pick = k;
    } else {
        for (int k = 1; k < repeat; k++)
            if (runs[k].us < runs[pick].us)
                pick = k;
    }
    out = runs[pick];
    free(runs);
    free(times);
    gts_engine_free(e);
    return out;
}

int cmd_speedup(int argc, char **argv)
{
    cli_game_opts go;
    cli_game_opts_init(&go);
    go.name = "randtree";
    go.tree.depth = 0; /* not given: the search depth's (below) */
    char algs_buf[1024] = "";
    const char *threads_arg = "1,2,4";
    int64_t depth = 0, repeat = 3, tt_mb = -1, split_ply = 0;
    bool median = false, virt = false;
    cli_format fmt = CLI_FMT_TEXT;
    const cli_opt opts[] = {
        CLI_STR("game", &go.name),
        CLI_TEXT("algs", algs_buf),
        CLI_STR("threads", &threads_arg),
        CLI_INT("depth", &depth, 1, GTS_MAX_DEPTH),
        CLI_INT("repeat", &repeat, 1, 1000),
        CLI_FLAG("median", &median),
        CLI_STR("position", &go.position),
        CLI_INT("tt-mb", &tt_mb, 0, INT32_MAX),
        CLI_FORMAT("format", &fmt),
        CLI_FLAG("virtual", &virt),
        CLI_ENGINE("split-ply", &split_ply, GTS_OPT_SPLIT_PLY),
        CLI_GAME_OPTIONS(&go),
    };
    int rc = cli_parse_options("speedup", SPEEDUP_USAGE, cli_game_options_help, argc, argv,
                               opts, CLI_NOPTS(opts));
    if (rc != CLI_OK)
        return cli_done(rc);
    bool tree_depth_set = go.tree.depth != 0;
    if (!tree_depth_set)
        go.tree.depth = 8;
    if (optind < argc)
        return cli_no_more_operands("speedup", argc, argv, optind, NULL);
    if (!gts_games_find(go.name))
        return cli_usage_error("speedup", "--game: unknown game '%s' (known: %s)", go.name,
                               cli_game_names);
    int threads[64];
    int nt = cli_parse_int_list(threads_arg, 1, 256, threads, 64);
    if (nt <= 0)
        return cli_usage_error("speedup", "--threads: expected a list such as 1,2,4 (1..256)");
    bool is_tree = strcmp(go.name, "randtree") == 0;
    bool is_c4 = strcmp(go.name, "connect4") == 0;
    if (is_c4 && !go.position)
        go.position = SPEEDUP_C4_POSITION;
    if (depth == 0)
        depth = is_c4                                 ? SPEEDUP_C4_DEPTH
                : strcmp(go.name, "othello") == 0   ? SPEEDUP_OTHELLO_DEPTH
                : strcmp(go.name, "tictactoe") == 0 ? SPEEDUP_TICTACTOE_DEPTH
                                                    : SPEEDUP_TREE_DEPTH;
    if (is_tree && !tree_depth_set)
        go.tree.depth = (uint32_t)(depth > 60 ? 60 : depth);

    /* Algorithms: every parallel one by default; unknown names are skipped. */
    cli_table *t;
    static const char *const cols[] = {
        "game", "algorithm", "threads", "depth", "time_ms", "speedup", "speedup_vs_serial",
        "nodes", "node_ratio", "mandatory", "speculative", "wasted", "nps", "score", "score_ok"
    };
    static const char *const vcols[] = {
        "game", "algorithm", "threads", "depth", "ticks", "speedup", "speedup_vs_serial",
        "nodes", "node_ratio", "mandatory", "speculative", "wasted", "idle", "sync", "score",
        "score_ok"
    };
    char title[256];
    if (virt) {
        repeat = 1; /* deterministic */
        snprintf(title, sizeof title,
                 "gts speedup --virtual: %s %s, depth %" PRId64 ", virtual processors (ticks)",
                 go.name, go.position && *go.position ? go.position : "(start)", depth);
    } else {
        snprintf(title, sizeof title,
                 "gts speedup: %s %s, depth %" PRId64 ", %s of %" PRId64 " run%s", go.name,
                 go.position && *go.position ? go.position : "(start)", depth,
                 median ? "median" : "best", repeat, repeat == 1 ? "" : "s");
    }
    t = cli_table_new(title, virt ? 16 : 15, virt ? vcols : cols);
    gts_algorithm algs[64];
    int na = 0;
    if (algs_buf[0]) {
        char *names[64];
        int n = cli_split_list(algs_buf, names, 64);
        if (n <= 0) {
            cli_table_free(t);
            return cli_usage_error("speedup", "--algs: expected a comma-separated list");
        }
        for (int i = 0; i < n; i++) {
            gts_algorithm a;
            if (gts_algorithm_from_name(names[i], &a) != GTS_OK) {
                cli_table_note(t, "skipped %s: not an algorithm of this libgts", names[i]);
                continue;
            }
            if (virt && a == GTS_ALG_MCTS) {
                cli_table_note(t, "skipped mcts: speedup to a depth says nothing of MCTS; "
                                  "its virtual processors: bench_mcts_virtual");
                continue;
            }
            if (a == GTS_ALG_MCTS)
                cli_table_note(t, "mcts reaches the depth only by proving the root to it, "
                                  "which can take hours on these trees; its parallel speed "
                                  "is playouts per second (doc/results/bestfirst.md, \"MCTS\")");
            if (!gts_algorithm_is_parallel(a))
                cli_table_note(t, "%s is serial: its thread count has no effect", names[i]);
            algs[na++] = a;
        }
    } else {
        /* Only the depth-first parallel algorithms: MCTS has no time to
         * depth (it reaches a depth limit only by proving the root to it:
         * the default random tree was not done after half an hour); on
         * virtual processors too (bench_mcts_virtual measures it there). */
        gts_algorithm all[64];
        int n = cli_algorithms(all, 64);
        for (int i = 0; i < n; i++)
            if (gts_algorithm_is_parallel(all[i]) && all[i] != GTS_ALG_MCTS)
                algs[na++] = all[i];
    }

    void *state;
    const gts_game *g = cli_game_new(&go, "speedup", &state);
    if (!g) {
        cli_table_free(t);
        return CLI_USAGE;
    }
    int status = CLI_OK;
    uint64_t done = 0, total = (uint64_t)repeat * (uint64_t)(2 + na * (nt + 1));
    cli_progress *prog = cli_progress_start("speedup", total);

    /* The serial references: alpha-beta and PVS at 1 thread. */
    const sp_setup su = { (int)depth, tt_mb, (int)repeat, median, virt, split_ply };
    sp_measure ab = sp_run(GTS_ALG_ALPHABETA, 1, g, state, &su, prog, &done);
    sp_measure pvs = sp_run(GTS_ALG_PVS, 1, g, state, &su, prog, &done);
    if (!ab.ok || !pvs.ok) {
        status = CLI_FAIL;
        goto out;
    }
    const sp_measure *serial = pvs.us < ab.us ? &pvs : &ab;
    const char *serial_name = pvs.us < ab.us ? "pvs" : "alphabeta";
    if (virt)
        cli_table_note(t, "best serial: %s at 1 thread, %" PRIu64 " nodes (= ticks), score %d",
                       serial_name, serial->nodes, serial->score);
    else
        cli_table_note(t, "best serial: %s at 1 thread, %.1f ms, %" PRIu64 " nodes, score %d",
                       serial_name, (double)serial->us / 1000.0, serial->nodes, serial->score);
    {
        const sp_measure *refs[2] = { &ab, &pvs };
        static const char *const names[2] = { "alphabeta", "pvs" };
        for (int i = 0; i < 2; i++) {
            const sp_measure *m = refs[i];
            cli_table_str(t, go.name);
            cli_table_str(t, names[i]);
            cli_table_int(t, 1);
            cli_table_int(t, m->depth);
            if (virt)
                cli_table_uint(t, m->us);
            else
                cli_table_num(t, (double)m->us / 1000.0, 2);
            cli_table_num(t, 1.0, 2);
            cli_table_num(t, m->us ? (double)serial->us / (double)m->us : 0.0, 2);
            cli_table_uint(t, m->nodes);
            cli_table_num(t, 1.0, 3);
            cli_table_null(t);
            cli_table_null(t);
            cli_table_null(t);
            if (virt) {
                cli_table_num(t, 0.0, 3);
                cli_table_num(t, 0.0, 3);
            } else {
                cli_table_num(t, m->us ? (double)m->nodes * 1e6 / (double)m->us : 0.0, 0);
            }
            cli_table_int(t, m->score);
            cli_table_str(t, m->score == ab.score ? "yes" : "NO");
        }
    }

    for (int a = 0; a < na; a++) {
        sp_measure one = sp_run(algs[a], 1, g, state, &su, prog, &done);
        if (!one.ok) {
            status = CLI_FAIL;
            continue;
        }
        for (int k = 0; k < nt; k++) {
            sp_measure m = threads[k] == 1 ? one
                                           : sp_run(algs[a], threads[k], g, state, &su, prog,
                                                    &done);
            if (threads[k] == 1)
                done += (uint64_t)repeat;
            if (!m.ok) {
                status = CLI_FAIL;
                continue;
            }
            cli_table_str(t, go.name);
            cli_table_str(t, gts_algorithm_name(algs[a]));
            cli_table_int(t, threads[k]);
            cli_table_int(t, m.depth);
            if (virt)
                cli_table_uint(t, m.us);
            else
                cli_table_num(t, (double)m.us / 1000.0, 2);
            cli_table_num(t, m.us ? (double)one.us / (double)m.us : 0.0, 2);
            cli_table_num(t, m.us ? (double)serial->us / (double)m.us : 0.0, 2);
            cli_table_uint(t, m.nodes);
            cli_table_num(t, one.nodes ? (double)m.nodes / (double)one.nodes : 0.0, 3);
            cli_table_uint(t, m.mandatory);
            cli_table_uint(t, m.speculative);
            cli_table_uint(t, m.wasted);
            if (virt) {
                cli_table_num(t, m.us ? (double)m.idle / ((double)m.us * threads[k]) : 0.0, 3);
                cli_table_num(t, m.us ? (double)m.sync / ((double)m.us * threads[k]) : 0.0, 3);
            } else
                cli_table_num(t, m.us ? (double)m.nodes * 1e6 / (double)m.us : 0.0, 0);
            cli_table_int(t, m.score);
            bool ok = !gts_algorithm_is_exact(algs[a]) || m.score == ab.score;
            cli_table_str(t, ok ? "yes" : "NO");
            if (!ok)
                cli_table_note(t, "%s with %d threads returned %d, alpha-beta %d",
                               gts_algorithm_name(algs[a]), threads[k], m.score, ab.score);
        }
    }
out:
    cli_progress_end(prog);
    cli_table_print(t, stdout, fmt, "speedup");
    cli_table_free(t);
    gts_games_free(g, state);
    return status;
}
