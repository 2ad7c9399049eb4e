/*
 * gts-mpi.c - `gts solve` and `gts search` under mpirun, on gts_mpi_search().
 *
 *   mpirun -np 4 gts-mpi solve connect4 < positions
 *   mpirun -np 4 gts-mpi search othello f5d6 --depth 8
 *
 * Rank 0 runs the commands of the `gts` tool itself: tools/cmd_solve.c and
 * tools/cmd_search.c are compiled unchanged into this program, with their
 * calls of gts_search(), cli_position_new() and cli_game_new() renamed (by
 * -D in mpi/meson.build) to the hooks below. So the options, the input
 * checks, the messages and the output are those of `gts`, and `gts-mpi
 * solve connect4` prints exactly what `gts solve connect4` prints (the
 * scores are exact either way; only --stats' node counts and times
 * differ). The position hooks remember, for each state they built, the
 * game name and the text it was built from; the search hook sends them
 * to the other ranks with the limits and rank 0's engine options, and
 * every rank then calls gts_mpi_search() on its own copy of the position.
 * Ranks other than 0 only serve these searches, until rank 0 is done.
 *
 * An inexact algorithm (or a game the hook does not recognise) is
 * searched by rank 0 alone with gts_search(), after a warning.
 *
 * Ctrl-C. SIGINT and SIGTERM are blocked before MPI_Init, so that no
 * thread of MPI's can take them (and die of them). Rank 0 handles both as
 * `gts` handles SIGINT (tools/cli.c): the first stops the search with
 * gts_engine_stop(), which gts_mpi_search() ends on every rank, and the
 * command prints its last completed iteration and exits with 130. mpirun
 * does not forward SIGINT: it sends SIGTERM to every rank (and SIGKILL a
 * second later), hence SIGTERM. The other ranks stop their engine on
 * either signal (the collective ends however the signals interleave) and
 * otherwise go on until rank 0 tells them to quit.
 */
#include "cli.h"
#include "cmds.h"
#include "gts_mpi.h"

#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Sleep between two tests of a pending broadcast (see gts_mpi.c). */
static const long WAIT_MIN_NS = 20000;
static const long WAIT_MAX_NS = 2000000;

enum { CMD_QUIT = 0, CMD_SEARCH = 1 };
enum { GAME_BY_NAME = 0, GAME_C4_SOLVER = 1 };
enum { OPT_SLOTS = 64 };

/* ---- what the hooks remember about each state ------------------------------ */

enum { NRECORDS = 8 };
typedef struct record {
    void *state;
    char *name, *text;
    gts_randtree_params tree;
} record;
static record records[NRECORDS];
static int next_record;

static void remember(void *state, const char *name, const char *text,
                     const gts_randtree_params *tree)
{
    if (!state)
        return;
    record *r = &records[next_record];
    next_record = (next_record + 1) % NRECORDS;
    free(r->name);
    free(r->text);
    r->state = state;
    r->name = strdup(name ? name : "");
    r->text = strdup(text ? text : "");
    if (!r->name || !r->text)
        cli_oom();
    if (tree)
        r->tree = *tree;
    else
        memset(&r->tree, 0, sizeof r->tree);
}

static const record *recall(const void *state)
{
    for (int i = 1; i <= NRECORDS; i++) {
        const record *r = &records[(next_record - i + NRECORDS) % NRECORDS];
        if (r->state == state && r->name)
            return r;
    }
    return NULL;
}

void *gts_mpi_cli_position_new(const char *name, const gts_randtree_params *tree,
                               const char *text, char *why, size_t size);
const gts_game *gts_mpi_cli_game_new(const cli_game_opts *o, const char *command, void **state);
gts_status gts_mpi_cli_search(gts_engine *engine, gts_algorithm alg, const gts_game *game,
                              void *state, const gts_limits *limits, gts_result *result);

void *gts_mpi_cli_position_new(const char *name, const gts_randtree_params *tree,
                               const char *text, char *why, size_t size)
{
    void *state = cli_position_new(name, tree, text, why, size);
    remember(state, name, text, tree);
    return state;
}

const gts_game *gts_mpi_cli_game_new(const cli_game_opts *o, const char *command, void **state)
{
    const gts_game *g = cli_game_new(o, command, state);
    if (g)
        remember(*state, o->name, o->position ? o->position : "", &o->tree);
    return g;
}

/* ---- the command sent to every rank ------------------------------------------ */

typedef struct mpi_command {
    int64_t cmd, game_kind, no_bounds, alg, depth, alpha, beta, nodes, time_ms;
    int64_t name_len, text_len;
    int64_t tree[9];
    int64_t nopts;
    int64_t opts[OPT_SLOTS][2];
} mpi_command;
enum { COMMAND_WORDS = (int)(sizeof(mpi_command) / sizeof(int64_t)) };

static void wait_request(MPI_Request *req)
{
    long ns = WAIT_MIN_NS;
    for (;;) {
        int done = 0;
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        struct timespec ts = { 0, ns };
        nanosleep(&ts, NULL);
        ns = ns * 2 < WAIT_MAX_NS ? ns * 2 : WAIT_MAX_NS;
    }
}

/* Broadcast @p n words from rank 0, waiting without spinning. */
static void bcast_words(void *buf, int n, MPI_Datatype type)
{
    MPI_Request req;
    MPI_Ibcast(buf, n, type, 0, MPI_COMM_WORLD, &req);
    wait_request(&req);
}

static bool same_callbacks(const gts_game *a, const gts_game *b)
{
    return a->generate == b->generate && a->apply == b->apply && a->undo == b->undo
        && a->evaluate == b->evaluate && a->hash == b->hash && a->max_moves == b->max_moves
        && a->user == b->user && a->extend == b->extend
        && a->generate_noisy == b->generate_noisy && a->generate_keyed == b->generate_keyed;
}

/* The game rank @p kind / @p no_bounds names for a record's game name. */
static const gts_game *game_of(int64_t kind, bool no_bounds, const char *name, gts_game *buf)
{
    const gts_game *g = kind == GAME_C4_SOLVER ? gts_game_connect4_solver() : gts_games_find(name);
    if (!g)
        return NULL;
    *buf = *g;
    if (no_bounds)
        buf->bounds = NULL;
    return buf;
}

static void set_tree(mpi_command *c, const gts_randtree_params *t)
{
    c->tree[0] = (int64_t)t->seed;
    c->tree[1] = t->branching;
    c->tree[2] = t->depth;
    c->tree[3] = t->min_value;
    c->tree[4] = t->max_value;
    c->tree[5] = t->branching_jitter;
    c->tree[6] = t->terminal_percent;
    c->tree[7] = t->transpositions;
    c->tree[8] = t->ordered_percent;
}

static void get_tree(const mpi_command *c, gts_randtree_params *t)
{
    memset(t, 0, sizeof *t);
    t->struct_size = sizeof *t;
    t->seed = (uint64_t)c->tree[0];
    t->branching = (uint32_t)c->tree[1];
    t->depth = (uint32_t)c->tree[2];
    t->min_value = (int32_t)c->tree[3];
    t->max_value = (int32_t)c->tree[4];
    t->branching_jitter = (uint32_t)c->tree[5];
    t->terminal_percent = (uint32_t)c->tree[6];
    t->transpositions = c->tree[7] != 0;
    t->ordered_percent = (uint32_t)c->tree[8];
}

/* ---- rank 0: the hook ------------------------------------------------------------- */

gts_status gts_mpi_cli_search(gts_engine *engine, gts_algorithm alg, const gts_game *game,
                              void *state, const gts_limits *limits, gts_result *result)
{
    static bool warned;
    const record *rec = recall(state);
    mpi_command c;
    memset(&c, 0, sizeof c);
    gts_game buf;
    const gts_game *found = NULL;
    if (rec && game) {
        for (int64_t kind = GAME_BY_NAME; kind <= GAME_C4_SOLVER && !found; kind++) {
            const gts_game *g = game_of(kind, false, rec->name, &buf);
            if (g && (kind == GAME_BY_NAME || strcmp(rec->name, "connect4") == 0)
                && same_callbacks(g, game)) {
                found = g;
                c.game_kind = kind;
                c.no_bounds = g->bounds && !game->bounds;
            }
        }
    }
    /* MCTS without a depth limit: distributed MCTS (gts_mpi_mcts). */
    bool mcts = alg == GTS_ALG_MCTS && limits
                && (limits->depth == 0 || limits->depth == GTS_MAX_DEPTH);
    if (!found || !(gts_algorithm_is_exact(alg) || mcts) || !limits) {
        if (!warned)
            cli_warn("%s: searched by rank 0 alone",
                     !found ? "a position this tool cannot send" : "an inexact algorithm");
        warned = true;
        return gts_search(engine, alg, game, state, limits, result);
    }

    /* Step 1. Tell every rank what to search. */
    c.cmd = CMD_SEARCH;
    c.alg = alg;
    c.depth = limits->depth;
    c.alpha = limits->alpha;
    c.beta = limits->beta;
    c.nodes = (int64_t)limits->nodes;
    c.time_ms = (int64_t)limits->time_ms;
    c.name_len = (int64_t)strlen(rec->name) + 1;
    c.text_len = (int64_t)strlen(rec->text) + 1;
    set_tree(&c, &rec->tree);
    gts_option opts[OPT_SLOTS];
    int n = gts_option_list(opts, OPT_SLOTS);
    for (int i = 0; i < n && i < OPT_SLOTS; i++) {
        int64_t v;
        if (gts_engine_get(engine, opts[i], &v) == GTS_OK) {
            c.opts[c.nopts][0] = opts[i];
            c.opts[c.nopts][1] = v;
            c.nopts++;
        }
    }
    bcast_words(&c, COMMAND_WORDS, MPI_INT64_T);
    bcast_words(rec->name, (int)c.name_len, MPI_CHAR);
    bcast_words(rec->text, (int)c.text_len, MPI_CHAR);

    /* Step 2. Search together; thread_nodes gets the nodes of each rank. */
    if (mcts)
        return gts_mpi_mcts(MPI_COMM_WORLD, engine, game, state, limits, NULL, result, NULL);
    gts_mpi_options o = { .struct_size = sizeof o, .algorithm = alg };
    gts_mpi_stats stats = { .struct_size = sizeof stats };
    if (result && result->struct_size >= offsetof(gts_result, thread_nodes_capacity)
                                             + sizeof result->thread_nodes_capacity) {
        stats.rank_nodes = result->thread_nodes;
        stats.rank_nodes_capacity = result->thread_nodes ? result->thread_nodes_capacity : 0;
    }
    return gts_mpi_search(MPI_COMM_WORLD, engine, game, state, limits, &o, result, &stats);
}

/* ---- the other ranks -------------------------------------------------------------- */

static pthread_mutex_t serve_lock = PTHREAD_MUTEX_INITIALIZER;
static gts_engine *serve_engine; /* stopped by a signal; NULL once freed */

/* SIGINT and SIGTERM (blocked in every thread since main) stop the engine;
 * the search ends on every rank and rank 0 decides what follows. */
static void *serve_signals(void *arg)
{
    sigset_t *set = arg;
    for (;;) {
        if (sigwaitinfo(set, NULL) < 0)
            continue;
        pthread_mutex_lock(&serve_lock);
        gts_engine_stop(serve_engine);
        pthread_mutex_unlock(&serve_lock);
    }
    return NULL;
}

static int serve(sigset_t *signals)
{
    gts_engine *e = NULL;
    if (gts_engine_new(&e) != GTS_OK) {
        cli_error("cannot create an engine");
        MPI_Abort(MPI_COMM_WORLD, CLI_FAIL);
    }
    pthread_mutex_lock(&serve_lock);
    serve_engine = e;
    pthread_mutex_unlock(&serve_lock);
    pthread_t t;
    if (pthread_create(&t, NULL, serve_signals, signals) == 0)
        pthread_detach(t);
    for (;;) {
        mpi_command c;
        bcast_words(&c, COMMAND_WORDS, MPI_INT64_T);
        if (c.cmd != CMD_SEARCH)
            break;
        char *name = malloc((size_t)c.name_len), *text = malloc((size_t)c.text_len);
        if (!name || !text)
            cli_oom();
        bcast_words(name, (int)c.name_len, MPI_CHAR);
        bcast_words(text, (int)c.text_len, MPI_CHAR);
        for (int64_t i = 0; i < c.nopts && i < OPT_SLOTS; i++)
            gts_engine_set(e, (gts_option)c.opts[i][0], c.opts[i][1]);
        gts_randtree_params tree;
        get_tree(&c, &tree);
        char why[512];
        void *state = cli_position_new(name, &tree, text, why, sizeof why);
        gts_game buf;
        const gts_game *g = game_of(c.game_kind, c.no_bounds != 0, name, &buf);
        gts_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.struct_size = sizeof lim;
        lim.depth = (int32_t)c.depth;
        lim.alpha = (gts_score)c.alpha;
        lim.beta = (gts_score)c.beta;
        lim.nodes = (uint64_t)c.nodes;
        lim.time_ms = (uint64_t)c.time_ms;
        gts_result r;
        memset(&r, 0, sizeof r);
        r.struct_size = sizeof r;
        gts_mpi_options o = { .struct_size = sizeof o, .algorithm = (gts_algorithm)c.alg };
        /* A NULL state or game makes every rank fail the search (GTS_EINVAL). */
        if (c.alg == GTS_ALG_MCTS)
            gts_mpi_mcts(MPI_COMM_WORLD, e, g, state, &lim, NULL, &r, NULL);
        else
            gts_mpi_search(MPI_COMM_WORLD, e, g, state, &lim, &o, &r, NULL);
        if (state && g)
            gts_games_free(g, state);
        free(name);
        free(text);
    }
    pthread_mutex_lock(&serve_lock);
    serve_engine = NULL;
    pthread_mutex_unlock(&serve_lock);
    gts_engine_free(e);
    return CLI_OK;
}

static const char USAGE[] =
    "Usage: mpirun -np N gts-mpi COMMAND [ARGS]\n"
    "\n"
    "The commands of 'gts', searched by every rank with gts_mpi_search()\n"
    "(APHID; doc/mpi.md), or gts_mpi_mcts() for --alg mcts without a depth\n"
    "limit (distributed MCTS). Rank 0 reads the input and prints the output.\n"
    "\n"
    "Commands:\n"
    "  solve connect4   as 'gts solve connect4' (positions on stdin)\n"
    "  search GAME      as 'gts search'\n"
    "\n"
    "Run 'gts-mpi COMMAND --help' for the options of a command.\n";

int main(int argc, char **argv)
{
    int provided = 0, rank = 0;
    /* Before MPI starts its threads: they inherit the mask (see the top). */
    static sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);
    cli_sigint_also(SIGTERM);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    cli_prog = "gts-mpi";
    int rc;
    if (rank == 0) {
        if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
            fputs(USAGE, argc < 2 ? stderr : stdout);
            rc = argc < 2 ? CLI_USAGE : CLI_OK;
        } else if (strcmp(argv[1], "solve") == 0) {
            cli_command = "solve";
            cli_sigint_start("solve");
            rc = cmd_solve(argc - 1, argv + 1);
        } else if (strcmp(argv[1], "search") == 0) {
            cli_command = "search";
            cli_sigint_start("search");
            rc = cmd_search(argc - 1, argv + 1);
        } else {
            char *esc = cli_escaped(argv[1]);
            fprintf(stderr, "%s: unknown command '%s' (solve, search)\n", cli_prog, esc);
            free(esc);
            rc = CLI_USAGE;
        }
        fflush(stdout);
        mpi_command c;
        memset(&c, 0, sizeof c);
        c.cmd = CMD_QUIT;
        bcast_words(&c, COMMAND_WORDS, MPI_INT64_T);
    } else {
        rc = serve(&signals);
    }
    MPI_Finalize();
    return rc;
}
