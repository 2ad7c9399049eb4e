/*
 * gts-mpi.c - `gts solve`, `gts search`, `gts match` and gts-gtp under
 * mpirun, on gts_mpi_search() and gts_mpi_mcts().
 *
 *   mpirun -np 4 gts-mpi solve connect4 < positions
 *   mpirun -np 4 gts-mpi search othello f5d6 --depth 8
 *   mpirun -np 4 gts-mpi gtp --seconds 2
 *   mpirun -np 4 gts-mpi match go --a alg=mcts,time_ms=1000,mpi=1 --b alg=mcts,time_ms=1000
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
 * `gts-mpi match` and `gts-mpi gtp` run tools/cmd_match.c and
 * tools/gts-gtp.c (without its main()) on rank 0 the same way, with a
 * cli_remote (tools/remote.h) instead of a renamed call: they hand over
 * the position as a recipe, a position text and the moves applied since,
 * which every rank replays (a match's set-up with mpi=1; every genmove of
 * gtp). Rank 0's decision comes back from gts_mpi_mcts() or
 * gts_mpi_search(), broadcast: a time-limited search is never recomputed
 * per rank. At the end every rank exits with rank 0's status.
 *
 * An inexact algorithm (or a game the hook does not recognise) is
 * searched by rank 0 alone with gts_search(), after a warning.
 *
 * Options before the command (rank 0's): --master-plies, --work-ahead,
 * --split, --race, --narrow (gts_mpi_options), and --virtual N, which runs every search with
 * gts_mpi_search_virtual() at N simulated ranks in this one process (no
 * mpirun needed) and prints its virtual time and counters to stderr, so
 * that a user can reproduce the scaling figures of doc/mpi.md.
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
#include "remote.h"

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
    int64_t nmoves;                      /* moves applied to the text's position */
    int64_t sync_playouts, sync_ms;      /* gts_mpi_mcts_options */
    int64_t exit_status;                 /* CMD_QUIT: rank 0's */
    int64_t slot;                        /* distributed MCTS: rank 0's engine (tree reuse) */
    int64_t advance_from;                /* its kept trees follow moves[from..]; -1: fresh */
    int64_t share_plies, share_permille; /* gts_mpi_mcts_options */
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

/* ---- options before the command (rank 0) --------------------------------------- */

static int32_t opt_master_plies, opt_work_ahead, opt_latency, opt_split, opt_race,
    opt_narrow;
static int32_t opt_virtual; /* 0: real ranks; N: gts_mpi_search_virtual at N */

/*
 * Each engine of rank 0 (a match has one per set-up) has a slot: the
 * engines of its virtual ranks, and for tree reuse the recipe of its last
 * distributed MCTS search. The other ranks keep an engine per slot too
 * (serve()), so each rank's tree follows one engine of rank 0's, as the
 * virtual ranks' do. A slot is taken round robin when an engine has none
 * (its trees then start fresh).
 */
enum { NSLOTS = 4 };
typedef struct engine_slot {
    gts_engine *engine;  /* rank 0's (NULL: free) */
    gts_engine **virt;   /* [opt_virtual]: its virtual ranks' ([0] is engine) */
    bool known;          /* the recipe below is its last MCTS search's */
    char *game, *text;
    int64_t tree[9];     /* randtree's parameters (set_tree) */
    gts_move *moves;
    size_t nmoves;
} engine_slot;
static engine_slot slots[NSLOTS];
static int next_slot;

static int slot_of(gts_engine *engine)
{
    for (int i = 0; i < NSLOTS; i++)
        if (slots[i].engine == engine)
            return i;
    int i = next_slot;
    next_slot = (next_slot + 1) % NSLOTS;
    slots[i].engine = engine;
    slots[i].known = false;
    return i;
}

/* The search at opt_virtual simulated ranks: engines 1..N-1 are created
 * once per slot (their tables and trees live on from search to search, as
 * real ranks' do) and take rank 0's engine options; one line of counters
 * to stderr. */
/* The engines of the virtual ranks: rank 0's is @engine, the others (made
 * once) get its options. */
static gts_engine *const *virtual_engines(gts_engine *engine)
{
    int32_t n = opt_virtual;
    engine_slot *sl = &slots[slot_of(engine)];
    gts_engine **vengines = sl->virt;
    if (!vengines) {
        vengines = sl->virt = calloc((size_t)n, sizeof *vengines);
        if (!vengines)
            cli_oom();
        for (int32_t i = 1; i < n; i++)
            if (gts_engine_new(&vengines[i]) != GTS_OK)
                cli_oom();
    }
    vengines[0] = engine;
    gts_option opts[OPT_SLOTS];
    int nopt = gts_option_list(opts, OPT_SLOTS);
    for (int32_t i = 1; i < n; i++)
        for (int k = 0; k < nopt && k < OPT_SLOTS; k++) {
            int64_t v;
            if (gts_engine_get(engine, opts[k], &v) == GTS_OK)
                gts_engine_set(vengines[i], opts[k], v);
        }
    return vengines;
}

/* Distributed MCTS on virtual ranks (--virtual N search --alg mcts). */
static gts_status virtual_mcts(gts_engine *engine, const gts_game *game, void *state,
                               const gts_limits *limits, const gts_mpi_mcts_options *o,
                               gts_result *result)
{
    gts_mpi_mcts_stats stats = {.struct_size = sizeof stats};
    /* Ctrl-C stops rank 0's engine, which stops the virtual search too. */
    gts_status st = gts_mpi_mcts_virtual(opt_virtual, virtual_engines(engine), game, state,
                                         limits, o, result, &stats);
    if (st == GTS_OK)
        fprintf(stderr,
                "gts-mpi: virtual ranks %d: virtual_time %llu nodes %llu playouts %llu "
                "merges %llu reused_ranks %d kept_visits %llu\n",
                (int)stats.ranks, (unsigned long long)stats.virtual_time,
                (unsigned long long)stats.nodes, (unsigned long long)stats.playouts,
                (unsigned long long)stats.merges, (int)stats.reused_ranks,
                (unsigned long long)stats.kept_visits);
    return st;
}

static gts_status virtual_search(gts_engine *engine, const gts_game *game, void *state,
                                 const gts_limits *limits, const gts_mpi_options *o,
                                 gts_result *result, gts_mpi_stats *stats)
{
    int32_t n = opt_virtual;
    /* Ctrl-C stops rank 0's engine, which stops the virtual search too. */
    gts_status st = gts_mpi_search_virtual(n, virtual_engines(engine), game, state, limits, o,
                                           result, stats);
    if (st == GTS_OK) {
        double busy = n > 1 && stats->virtual_time
                          ? (double)stats->busy_time / ((double)(n - 1) * stats->virtual_time)
                          : 1.0;
        fprintf(stderr,
                "gts-mpi: virtual ranks %d: virtual_time %llu nodes %llu master_time %llu "
                "busy %.3f leaves %llu passes %llu leaf_searches %llu leaf_researches %llu "
                "cancelled %llu cancelled_nodes %llu ahead_nodes %llu splits %llu "
                "master_max_ply %d messages %llu races %llu races_won %llu narrow_ahead %llu "
                "ahead_moved %llu ahead_moved_nodes %llu ahead_unread_nodes %llu "
                "last_iteration_time %llu last_iteration_idle %llu\n",
                (int)n, (unsigned long long)stats->virtual_time,
                (unsigned long long)stats->nodes, (unsigned long long)stats->master_time, busy,
                (unsigned long long)stats->leaves, (unsigned long long)stats->passes,
                (unsigned long long)stats->leaf_searches,
                (unsigned long long)stats->leaf_researches,
                (unsigned long long)stats->cancelled,
                (unsigned long long)stats->cancelled_nodes,
                (unsigned long long)stats->ahead_nodes, (unsigned long long)stats->splits,
                (int)stats->master_max_ply, (unsigned long long)stats->messages,
                (unsigned long long)stats->races, (unsigned long long)stats->races_won,
                (unsigned long long)stats->narrow_ahead,
                (unsigned long long)stats->ahead_moved,
                (unsigned long long)stats->ahead_moved_nodes,
                (unsigned long long)stats->ahead_unread_nodes,
                (unsigned long long)stats->last_iteration_time,
                (unsigned long long)stats->last_iteration_idle);
    }
    return st;
}

static void virtual_free(void)
{
    for (int s = 0; s < NSLOTS; s++) {
        engine_slot *sl = &slots[s];
        for (int32_t i = 1; sl->virt && i < opt_virtual; i++)
            gts_engine_free(sl->virt[i]);
        free(sl->virt);
        free(sl->game);
        free(sl->text);
        free(sl->moves);
        memset(sl, 0, sizeof *sl);
    }
}

/*
 * Tree reuse of distributed MCTS (rank 0): where in @rec's moves the last
 * MCTS search of @engine's slot @sl stood, when @rec continues it (the
 * same game, text and moves, and more of them), after advancing @engine's
 * kept tree (and its virtual ranks') by the moves played since; -1 when
 * the trees start fresh: reuse off (the engine's mcts_reuse, every rank
 * gets rank 0's), another game or position, or no tree kept on rank 0
 * (gts match clears its engines at each game). The other ranks advance
 * by the same moves (mpi_command::advance_from). Then @rec is the slot's.
 */
static int64_t reuse_from(engine_slot *sl, gts_engine *engine, const cli_recipe *rec)
{
    int64_t reuse = 0, from = -1;
    gts_engine_get(engine, GTS_OPT_MCTS_REUSE, &reuse);
    mpi_command tree; /* randtree's parameters, as sent (field by field) */
    memset(&tree, 0, sizeof tree);
    if (rec->tree)
        set_tree(&tree, rec->tree);
    if (reuse && sl->known && strcmp(sl->game, rec->game) == 0 && strcmp(sl->text, rec->text) == 0
        && memcmp(sl->tree, tree.tree, sizeof tree.tree) == 0 && rec->nmoves >= sl->nmoves
        && (sl->nmoves == 0 || memcmp(sl->moves, rec->moves, sl->nmoves * sizeof *rec->moves) == 0))
        from = (int64_t)sl->nmoves;
    int n = from >= 0 ? (int)(rec->nmoves - (size_t)from) : 0;
    const gts_move *since = n > 0 ? rec->moves + from : NULL;
    if (from >= 0 && (n > GTS_MAX_DEPTH || gts_mcts_advance(engine, since, n, NULL) != 1))
        from = -1;
    for (int32_t i = 1; from >= 0 && sl->virt && i < opt_virtual; i++)
        gts_mcts_advance(sl->virt[i], since, n, NULL);
    free(sl->game);
    free(sl->text);
    free(sl->moves);
    sl->game = strdup(rec->game);
    sl->text = strdup(rec->text);
    sl->moves = malloc((rec->nmoves ? rec->nmoves : 1) * sizeof *sl->moves);
    if (!sl->game || !sl->text || !sl->moves)
        cli_oom();
    if (rec->nmoves)
        memcpy(sl->moves, rec->moves, rec->nmoves * sizeof *rec->moves);
    sl->nmoves = rec->nmoves;
    memcpy(sl->tree, tree.tree, sizeof sl->tree);
    sl->known = true;
    return from;
}

/* ---- rank 0: the hooks ------------------------------------------------------------ */

/* gts_mpi_mcts_options; 0: default */
static int32_t opt_sync_playouts, opt_sync_ms, opt_share_plies, opt_share_permille;

/* Search @p state, the position of @p recipe, with every rank: the search
 * hook of solve and search (a recipe without moves) and the cli_remote of
 * gtp and match (remote.h). Rank 0 alone, after one warning, when the
 * other ranks could not rebuild the position or the algorithm is neither
 * exact nor MCTS without a depth limit. */
static gts_status distributed_search(gts_engine *engine, gts_algorithm alg, const gts_game *game,
                                     void *state, const cli_recipe *rec, const gts_limits *limits,
                                     gts_result *result, bool reuse)
{
    static bool warned;
    mpi_command c;
    memset(&c, 0, sizeof c);
    gts_game buf;
    const gts_game *found = NULL;
    if (rec && game) {
        for (int64_t kind = GAME_BY_NAME; kind <= GAME_C4_SOLVER && !found; kind++) {
            const gts_game *g = game_of(kind, false, rec->game, &buf);
            if (g && (kind == GAME_BY_NAME || strcmp(rec->game, "connect4") == 0)
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
    if (!found || !(gts_algorithm_is_exact(alg) || mcts) || !limits
        || (limits->history && limits->history_len > 0)) {
        if (!warned)
            cli_warn("%s: searched by rank 0 alone",
                     !found || (limits && limits->history_len > 0)
                         ? "a position this tool cannot send"
                         : "an inexact algorithm");
        warned = true;
        return gts_search(engine, alg, game, state, limits, result);
    }

    gts_mpi_mcts_options mo = { .struct_size = sizeof mo, .sync_playouts = opt_sync_playouts,
                                .sync_ms = opt_sync_ms, .share_plies = opt_share_plies,
                                .share_permille = opt_share_permille };
    /* Tree reuse (gtp, match): every rank's tree follows the moves played
     * since this engine's last search (a search's own trees start fresh) */
    int slot = mcts ? slot_of(engine) : 0;
    if (mcts && opt_virtual > 0)
        virtual_engines(engine); /* the slot's engines, before they advance */
    int64_t from = mcts && reuse ? reuse_from(&slots[slot], engine, rec) : -1;
    if (mcts && !reuse)
        slots[slot].known = false;
    if (mcts && opt_virtual > 0)
        return virtual_mcts(engine, game, state, limits, &mo, result);
    gts_mpi_options o = { .struct_size = sizeof o, .algorithm = alg,
                          .master_plies = opt_master_plies, .work_ahead = opt_work_ahead,
                          .virtual_latency = opt_latency, .split = opt_split,
                          .race = opt_race, .narrow = opt_narrow };
    gts_mpi_stats stats = { .struct_size = sizeof stats };
    if (result && result->struct_size >= offsetof(gts_result, thread_nodes_capacity)
                                             + sizeof result->thread_nodes_capacity) {
        stats.rank_nodes = result->thread_nodes;
        stats.rank_nodes_capacity = result->thread_nodes ? result->thread_nodes_capacity : 0;
    }
    if (opt_virtual > 0)
        return virtual_search(engine, game, state, limits, &o, result, &stats);

    /* Step 1. Tell every rank what to search. */
    c.cmd = CMD_SEARCH;
    c.alg = alg;
    c.depth = limits->depth;
    c.alpha = limits->alpha;
    c.beta = limits->beta;
    c.nodes = (int64_t)limits->nodes;
    c.time_ms = (int64_t)limits->time_ms;
    c.name_len = (int64_t)strlen(rec->game) + 1;
    c.text_len = (int64_t)strlen(rec->text) + 1;
    c.nmoves = (int64_t)rec->nmoves;
    c.sync_playouts = opt_sync_playouts;
    c.sync_ms = opt_sync_ms;
    c.share_plies = opt_share_plies;
    c.share_permille = opt_share_permille;
    c.slot = slot;
    c.advance_from = from;
    if (rec->tree)
        set_tree(&c, rec->tree);
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
    bcast_words((char *)rec->game, (int)c.name_len, MPI_CHAR);
    bcast_words((char *)rec->text, (int)c.text_len, MPI_CHAR);
    if (rec->nmoves > 0)
        bcast_words((gts_move *)rec->moves, (int)rec->nmoves, MPI_UINT64_T);

    /* Step 2. Search together; thread_nodes gets the nodes of each rank. */
    if (mcts)
        return gts_mpi_mcts(MPI_COMM_WORLD, engine, game, state, limits, &mo, result, NULL);
    return gts_mpi_search(MPI_COMM_WORLD, engine, game, state, limits, &o, result, &stats);
}

gts_status gts_mpi_cli_search(gts_engine *engine, gts_algorithm alg, const gts_game *game,
                              void *state, const gts_limits *limits, gts_result *result)
{
    const record *r = recall(state);
    cli_recipe rec = { .game = r ? r->name : "", .tree = r ? &r->tree : NULL,
                       .text = r ? r->text : "" };
    return distributed_search(engine, alg, game, state, r ? &rec : NULL, limits, result, false);
}

static gts_status remote_search(void *ctx, gts_engine *engine, gts_algorithm alg,
                                const gts_game *game, void *state, const cli_recipe *recipe,
                                const gts_limits *limits, gts_result *result)
{
    (void)ctx;
    return distributed_search(engine, alg, game, state, recipe, limits, result, true);
}

static const cli_remote REMOTE = { remote_search, NULL };

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
    /* distributed MCTS: one engine per slot of rank 0's (its kept tree) */
    gts_engine *se[NSLOTS] = { NULL };
    int rc = CLI_OK;
    for (;;) {
        mpi_command c;
        bcast_words(&c, COMMAND_WORDS, MPI_INT64_T);
        if (c.cmd != CMD_SEARCH) {
            rc = (int)c.exit_status; /* rank 0's: the job's status on every rank */
            break;
        }
        char *name = malloc((size_t)c.name_len), *text = malloc((size_t)c.text_len);
        if (!name || !text)
            cli_oom();
        bcast_words(name, (int)c.name_len, MPI_CHAR);
        bcast_words(text, (int)c.text_len, MPI_CHAR);
        gts_engine *use = e;
        if (c.alg == GTS_ALG_MCTS && c.slot >= 0 && c.slot < NSLOTS) {
            if (!se[c.slot] && gts_engine_new(&se[c.slot]) != GTS_OK) {
                cli_error("cannot create an engine");
                MPI_Abort(MPI_COMM_WORLD, CLI_FAIL);
            }
            use = se[c.slot];
        }
        pthread_mutex_lock(&serve_lock);
        serve_engine = use;
        pthread_mutex_unlock(&serve_lock);
        for (int64_t i = 0; i < c.nopts && i < OPT_SLOTS; i++)
            gts_engine_set(use, (gts_option)c.opts[i][0], c.opts[i][1]);
        gts_randtree_params tree;
        get_tree(&c, &tree);
        gts_move *moves = malloc((size_t)(c.nmoves > 0 ? c.nmoves : 1) * sizeof *moves);
        if (!moves)
            cli_oom();
        if (c.nmoves > 0)
            bcast_words(moves, (int)c.nmoves, MPI_UINT64_T);
        char why[512];
        void *state = cli_position_new(name, &tree, text, why, sizeof why);
        gts_game buf;
        const gts_game *g = game_of(c.game_kind, c.no_bounds != 0, name, &buf);
        /* rank 0's position: the text's, then the moves played since */
        for (int64_t i = 0; state && g && i < c.nmoves; i++) {
            if (g->apply(state, moves[i], g->user) != 0) {
                gts_games_free(g, state);
                state = NULL;
            }
        }
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
        gts_mpi_mcts_options mo = { .struct_size = sizeof mo, .sync_playouts = c.sync_playouts,
                                    .sync_ms = c.sync_ms, .share_plies = c.share_plies,
                                    .share_permille = c.share_permille };
        /* Tree reuse: follow the moves played since this slot's last
         * search, as rank 0 did (a tree this rank lacks starts fresh). */
        if (c.alg == GTS_ALG_MCTS && c.advance_from >= 0 && c.advance_from <= c.nmoves
            && c.nmoves - c.advance_from <= GTS_MAX_DEPTH)
            gts_mcts_advance(use, moves + c.advance_from, (int)(c.nmoves - c.advance_from), NULL);
        /* A NULL state or game makes every rank fail the search (GTS_EINVAL). */
        if (c.alg == GTS_ALG_MCTS)
            gts_mpi_mcts(MPI_COMM_WORLD, use, g, state, &lim, &mo, &r, NULL);
        else
            gts_mpi_search(MPI_COMM_WORLD, e, g, state, &lim, &o, &r, NULL);
        if (state && g)
            gts_games_free(g, state);
        free(moves);
        free(name);
        free(text);
    }
    pthread_mutex_lock(&serve_lock);
    serve_engine = NULL;
    pthread_mutex_unlock(&serve_lock);
    gts_engine_free(e);
    for (int i = 0; i < NSLOTS; i++)
        gts_engine_free(se[i]);
    return rc;
}

static const char USAGE[] =
    "Usage: mpirun -np N gts-mpi [OPTIONS] COMMAND [ARGS]\n"
    "       gts-mpi --virtual N [OPTIONS] COMMAND [ARGS]\n"
    "\n"
    "The commands of 'gts', searched by every rank with gts_mpi_search()\n"
    "(APHID; doc/mpi.md), or gts_mpi_mcts() for --alg mcts without a depth\n"
    "limit (distributed MCTS). Rank 0 reads the input and prints the output.\n"
    "\n"
    "Commands:\n"
    "  solve connect4   as 'gts solve connect4' (positions on stdin)\n"
    "  search GAME      as 'gts search'\n"
    "  match GAME       as 'gts match'; a set-up with mpi=1 searches with every\n"
    "                   rank, the other on rank 0 alone\n"
    "  gtp [OPTIONS]    the GTP Go engine gts-gtp (its options; GTP on rank 0's\n"
    "                   stdin and stdout); every genmove searches with every rank\n"
    "                   (gts_mpi_mcts)\n"
    "\n"
    "Options (before the command):\n"
    "  --virtual N        simulate N ranks in this process (1..1024, without\n"
    "                     mpirun): virtual time and counters of each search\n"
    "                     go to stderr (experimental; doc/mpi.md)\n"
    "  --master-plies P   plies of the master's tree (1..8; default: 2)\n"
    "  --work-ahead W     plies slaves search ahead (-1 none, 1..2; default 2)\n"
    "  --split S          split the master's heavy leaves: 0 when ranks are many\n"
    "                     (default), 1 always, -1 never\n"
    "  --race R           idle slaves race requests that wait for a busy rank:\n"
    "                     0 or 1 (default), -1 never\n"
    "  --narrow N         narrow windows for the searches ahead: 0 when measured\n"
    "                     to pay (default), 1 always, -1 never\n"
    "  --latency L        with --virtual: a message's time in nodes (default 0)\n"
    "  --sync-playouts N  distributed MCTS: playouts of each rank between two\n"
    "                     merges (default 1024)\n"
    "  --sync-ms T        distributed MCTS: merge every T ms of each rank instead\n"
    "  --share-plies S    distributed MCTS: plies of shared nodes (1: the root\n"
    "                     only, 1..8; default 3)\n"
    "  --share-permille M distributed MCTS: share of the playouts that makes a\n"
    "                     node shared, in thousandths (1..1000; default 50)\n"
    "\n"
    "Run 'gts-mpi COMMAND --help' for the options of a command.\n";

/* Parse the options before the command; returns the index of the command
 * in argv, or -1 after an error message. */
static int parse_global(int argc, char **argv, int size)
{
    int i = 1;
    while (i < argc && strncmp(argv[i], "--", 2) == 0 && strcmp(argv[i], "--help") != 0) {
        static const struct {
            const char *name;
            int32_t *to;
            long lo, hi;
        } OPTS[] = {
            {"--virtual", &opt_virtual, 1, GTS_MPI_MAX_VIRTUAL_RANKS},
            {"--master-plies", &opt_master_plies, 1, 8},
            {"--work-ahead", &opt_work_ahead, -1, GTS_MPI_MAX_WORK_AHEAD},
            {"--latency", &opt_latency, 0, GTS_MPI_MAX_VIRTUAL_LATENCY},
            {"--split", &opt_split, -1, 1},
            {"--sync-playouts", &opt_sync_playouts, 1, 1000000000},
            {"--sync-ms", &opt_sync_ms, 1, 60000},
            {"--share-plies", &opt_share_plies, 1, 8},
            {"--share-permille", &opt_share_permille, 1, 1000},
            {"--race", &opt_race, -1, 1},
            {"--narrow", &opt_narrow, -1, 1},
        };
        size_t k = 0;
        while (k < sizeof OPTS / sizeof OPTS[0] && strcmp(argv[i], OPTS[k].name) != 0)
            k++;
        if (k == sizeof OPTS / sizeof OPTS[0]) {
            char *esc = cli_escaped(argv[i]);
            fprintf(stderr, "%s: unknown option '%s' (before the command: --virtual, "
                            "--master-plies, --work-ahead, --latency, --split, --race, "
                            "--narrow, "
                            "--sync-playouts, --sync-ms, --share-plies, --share-permille)\n",
                    cli_prog, esc);
            free(esc);
            return -1;
        }
        char *end = NULL;
        long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
        if (i + 1 >= argc || !end || *end || end == argv[i + 1] || v < OPTS[k].lo
            || v > OPTS[k].hi) {
            fprintf(stderr, "%s: %s takes an integer in %ld..%ld\n", cli_prog, OPTS[k].name,
                    OPTS[k].lo, OPTS[k].hi);
            return -1;
        }
        *OPTS[k].to = (int32_t)v;
        i += 2;
    }
    if (opt_virtual > 0 && size > 1) {
        fprintf(stderr, "%s: --virtual runs in one process: without mpirun, or -np 1\n",
                cli_prog);
        return -1;
    }
    if (opt_latency > 0 && opt_virtual == 0) {
        fprintf(stderr, "%s: --latency needs --virtual\n", cli_prog);
        return -1;
    }
    return i;
}

int main(int argc, char **argv)
{
    int provided = 0, rank = 0, size = 1;
    /* Before MPI starts its threads: they inherit the mask (see the top). */
    static sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);
    cli_sigint_also(SIGTERM);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    cli_prog = "gts-mpi";
    int rc;
    if (rank == 0) {
        int c0 = parse_global(argc, argv, size);
        if (c0 < 0) {
            rc = CLI_USAGE;
        } else if (c0 >= argc || strcmp(argv[c0], "--help") == 0
                   || strcmp(argv[c0], "-h") == 0) {
            fputs(USAGE, c0 >= argc ? stderr : stdout);
            rc = c0 >= argc ? CLI_USAGE : CLI_OK;
        } else if (strcmp(argv[c0], "solve") == 0) {
            cli_command = "solve";
            cli_sigint_start("solve");
            rc = cmd_solve(argc - c0, argv + c0);
        } else if (strcmp(argv[c0], "search") == 0) {
            cli_command = "search";
            cli_sigint_start("search");
            rc = cmd_search(argc - c0, argv + c0);
        } else if (strcmp(argv[c0], "match") == 0) {
            cli_command = "match";
            cli_sigint_start("match");
            rc = cmd_match_remote(argc - c0, argv + c0, &REMOTE);
        } else if (strcmp(argv[c0], "gtp") == 0) {
            /* gts-gtp's own messages, as "gts-mpi gtp: ..."; Ctrl-C ends
             * it (no search is ever registered with cli_sigint) */
            cli_command = "gtp";
            cli_sigint_start("gtp");
            char *saved = argv[c0];
            argv[c0] = (char *)"gts-mpi gtp";
            rc = gtp_main(argc - c0, argv + c0, &REMOTE);
            argv[c0] = saved;
        } else {
            char *esc = cli_escaped(argv[c0]);
            fprintf(stderr, "%s: unknown command '%s' (solve, search, match, gtp)\n", cli_prog,
                    esc);
            free(esc);
            rc = CLI_USAGE;
        }
        virtual_free();
        fflush(stdout);
        /* Every rank ends with rank 0's status (a usage error, EOF, quit). */
        mpi_command c;
        memset(&c, 0, sizeof c);
        c.cmd = CMD_QUIT;
        c.exit_status = rc;
        bcast_words(&c, COMMAND_WORDS, MPI_INT64_T);
    } else {
        rc = serve(&signals);
    }
    MPI_Finalize();
    return rc;
}
