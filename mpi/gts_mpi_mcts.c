/*
 * gts_mpi_mcts.c - gts_mpi_mcts(): distributed Monte-Carlo tree search,
 * root parallelisation over MPI with periodic merges of the root
 * statistics (Gelly, Hoock, Rimmel, Teytaud, Kalemkarian, "The
 * parallelization of Monte-Carlo planning", ICINCO 2008: MoGo's cluster
 * version), on the public API of libgts only.
 *
 * Design. Every rank grows its own gts_mcts() tree of the same root, in
 * rounds. A round is one gts_mcts() call per rank that continues the
 * rank's kept tree (GTS_OPT_MCTS_REUSE on, gts_mcts_advance() with no
 * move between rounds), with a playout quota (sync_playouts) or a time
 * slice (sync_ms), and a seed of its own (rank, round). Then the ranks
 * merge: one MPI_Allreduce per type carries, per root move, the visits,
 * reward sums and AMAF counts each rank added in the round (its "delta":
 * its root statistics now minus what it held after the last merge) and
 * its proven range; each rank adds the sum of the others' deltas to its
 * root with gts_mcts_inject(), so that after a merge every rank's root
 * children hold the same visits: the playouts of all ranks. The ranges
 * are intersected (each is sound, the same position's value), so a proof
 * found by one rank stops the others' search of that move.
 *
 * Below the root (share_plies > 1): MoGo's cluster version shares the
 * statistics of the nodes near the root visited in more than a few percent
 * of the simulations. After each merge the nodes of plies 1 ..
 * share_plies - 1 whose merged visits reached share_permille of the
 * merged playouts join the shared set (shared_choose: from the merged
 * totals, so every rank chooses alike; a node is known by its move path,
 * its moves come from the game). Each merge then also sums, for every
 * child of a shared node, each rank's delta since the last merge (read
 * with gts_mcts_node_stats), and each rank adds the others' part with
 * gts_mcts_inject_at. Only the root shares proven ranges. Measured in
 * doc/results/distributed.md (the root alone barely gained strength).
 *
 * The same loop runs P virtual ranks in one process (gts_mpi_mcts_virtual):
 * a "process" holds nlocal ranks (1 over MPI, P in virtual mode), a merge
 * reduces its ranks' contributions in rank order and, over MPI, across
 * processes with MPI_Allreduce. So a virtual run does the merges of a
 * real one, in the same order.
 *
 * Limits and stops are decided at a merge, with everything every rank
 * knows, so every rank ends after the same round: the playout budget and
 * the node limit are shared out per round among the ranks (what is left,
 * split evenly, so the budget is met exactly), the time limit and
 * gts_engine_stop() (recorded by the engine's watch, hook_internal.h) are
 * each rank's, a failure is each rank's status, and the merged root's
 * proven range ends a solved search. The result is chosen by rank 0 from
 * the merged statistics and broadcast.
 */
#include "gts_mpi_internal.h"
#include "hook_internal.h"
#include "struct_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Bounds of gts_mpi_mcts_options. */
static const int64_t MAX_SYNC_PLAYOUTS = (int64_t)1 << 40;
static const int64_t MAX_SYNC_MS = 60000;
/*
 * Shared nodes below the root: plies, nodes, their children in all. The
 * set only grows during a search and stops at MAX_SHARED nodes or
 * MAX_SHARED_ENTRIES children, by design: every merge carries 32 bytes
 * per shared child (two allreduces), so the cap bounds a merge at 32 KiB
 * whatever the game (at the default share_permille of 5 %, at most 20
 * nodes of one ply can qualify, since their visits sum to at most the
 * playouts: 40 at the default share_plies 3, first come first shared);
 * a node that drops under the share stays shared
 * because its counts on each rank are the sums of every merge since it
 * was shared: dropping and re-adding it would have to resend all that
 * each rank added meanwhile, or leave the ranks' counts apart.
 */
enum { MAX_SHARE_PLIES = 8, MAX_SHARED = 32, MAX_SHARED_ENTRIES = 1024 };
/* Sleeps between two tests of a pending merge. */
static const long WAIT_MIN_NS = 20000;
static const long WAIT_MAX_NS = 2000000;
/* The seed option's range (lib/search/mcts.c's row). */
static const uint64_t SEED_MASK = ((uint64_t)1 << 62) - 1;

/* Slots after the per-move ones in the reduced arrays. */
enum { U_PLAYOUTS = 0, U_NODES = 1, U_MORE = 2 };
enum { X_STATUS = 0, X_CALLBACK = 1, X_STOPPED = 2, X_TIME = 3, X_MEMORY = 4, X_LAYOUT = 5,
       X_NLAYOUT = 6, X_MORE = 7 };

/* One rank of this process. */
typedef struct dm_rank {
    gts_engine *engine;
    int rank;
    gts_status st;           /* its first failure */
    int32_t callback_status; /* with GTS_ECALLBACK */
    bool watching;
    bool saved;              /* the options below are saved */
    int64_t seed, playouts, reuse;
    uint64_t nodes;          /* this round's */
    uint64_t total;          /* nodes of all its rounds */
    uint32_t flags;          /* this round's (GTS_RESULT_MEMORY_LIMIT) */
    bool time_up;            /* this rank's time limit is reached */
    bool searched;           /* it searched in this round */
    bool has_tree;           /* it searched in some round: its engine keeps a tree */
    bool kept;               /* a kept root matched at the start: seen_* hold its stats */
    bool adopted;            /* its first search continued the kept tree (tree reuse) */
    uint64_t kept_visits;    /* the kept root's visits (with kept) */
    gts_mcts_move_stats *cur;  /* [n]: the root statistics after the round */
    gts_mcts_move_stats *add;  /* [n]: the others' deltas, to inject */
    uint64_t *seen_v, *seen_av; /* [n]: after the last merge */
    double *seen_s, *seen_as;
    gts_result res;          /* its last round's result */
    int32_t seldepth;        /* the deepest node its rounds created */
    /* the shared nodes below the root (dm_run::sh_*): per child entry,
     * its statistics after the round (visits, AMAF visits, sums) and after
     * the last merge; per node, whether its tree holds it expanded */
    uint64_t *sc_v, *sc_av, *ss_v, *ss_av; /* [MAX_SHARED_ENTRIES] */
    double *sc_s, *sc_as, *ss_s, *ss_as;
    bool sh_ok[MAX_SHARED];
    gts_mcts_move_stats *sbuf; /* [max_moves]: gts_mcts_node_stats(), inject_at() */
    void *mem;               /* the arrays above, one allocation (rank_layout) */
} dm_rank;

typedef struct dm_run {
    MPI_Comm comm;           /* MPI_COMM_NULL: virtual ranks only */
    int ranks;               /* P */
    int nlocal;
    dm_rank *rk;             /* [nlocal] */
    const gts_game *game;
    void *state;
    gts_limits lim;
    gts_mpi_mcts_options opt;
    uint64_t budget;         /* playouts of all ranks; 0: none */
    int n;                   /* root moves */
    gts_move *moves;         /* [n]: the root's moves, in generate() order */
    uint64_t start_us;
    uint64_t round;
    uint64_t playouts, nodes, vtime;
    uint64_t reused, kept_visits; /* tree reuse: all ranks' (reuse_out) */
    /* the merge: one process's contributions, then the totals */
    uint64_t *u;  /* [2n + U_MORE]: visits, AMAF visits per move; playouts, nodes (sum) */
    double *d;    /* [2n]: reward sums, AMAF reward sums (sum) */
    int64_t *x;   /* [2n + X_MORE]: lower, -upper per move; -status, ... (max) */
    uint64_t *u1; /* one rank's contribution */
    double *d1;
    int64_t *x1;
    /* the caller's gts_result::thread_nodes: each rank's nodes */
    uint64_t *tn;
    uint32_t tn_cap;
    /* shared nodes below the root, chosen from the merged visits (the same
     * on every rank): node s has sh_depth[s] moves sh_path[s] from the
     * root, and children entries sh_off[s] .. sh_off[s + 1] - 1 */
    uint32_t max_moves;
    int nsh;
    int sh_depth[MAX_SHARED];
    gts_move sh_path[MAX_SHARED][MAX_SHARE_PLIES];
    int sh_off[MAX_SHARED + 1];
    gts_move *sh_moves;  /* [MAX_SHARED_ENTRIES] */
    /* what shared_add() made of each node, mixed in order (FNV-1a): the
     * processes compare it at each merge (X_LAYOUT), since a game that
     * lists other moves on another process would lay the arrays out
     * differently */
    uint64_t sh_key;
    uint64_t *rtot;      /* [n]: merged visits of each root move, all rounds */
    uint64_t *stot;      /* [MAX_SHARED_ENTRIES]: the same for each entry */
    bool *r_sh, *e_sh;   /* [n], [MAX_SHARED_ENTRIES]: that child is a shared node */
    uint64_t *su;        /* [2 x MAX_SHARED_ENTRIES]: visits, AMAF visits (sum) */
    double *sd;          /* [2 x MAX_SHARED_ENTRIES]: their reward sums (sum) */
    void *mem;           /* u .. sd, one allocation (run_layout) */
} dm_run;

/*
 * A struct of arrays in one allocation: a layout function takes each
 * array in turn from a carve, once with no memory to count the bytes, then
 * on the block. Each array starts on a CARVE_ALIGN boundary; an empty one
 * is NULL.
 */
enum { CARVE_ALIGN = 16 };
typedef struct carve {
    char *mem; /* NULL: counting */
    size_t at;
} carve;

static void *carve_take(carve *c, size_t count, size_t size)
{
    size_t bytes = (count * size + CARVE_ALIGN - 1) / CARVE_ALIGN * CARVE_ALIGN;
    void *p = c->mem && bytes ? c->mem + c->at : NULL;
    c->at += bytes;
    return p;
}

#define CARVE(c, ptr, count) ((ptr) = carve_take((c), (count), sizeof *(ptr)))
_Static_assert(_Alignof(gts_mcts_move_stats) <= CARVE_ALIGN && _Alignof(double) <= CARVE_ALIGN
                   && _Alignof(uint64_t) <= CARVE_ALIGN,
               "an array of the carve would be misaligned");

/* Lay @layout's arrays out in one zeroed block, stored in *@mem. */
#define CARVE_ALLOC(mem, layout, ...)                                                        \
    do {                                                                                    \
        carve c_ = {NULL, 0};                                                               \
        layout(&c_, __VA_ARGS__);                                                           \
        *(mem) = calloc(1, c_.at ? c_.at : 1);                                              \
        if (*(mem)) {                                                                       \
            c_ = (carve){*(mem), 0};                                                        \
            layout(&c_, __VA_ARGS__);                                                       \
        }                                                                                   \
    } while (0)

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* ---- arguments --------------------------------------------------------------- */

static const gts__field MCTS_OPTIONS_FIELDS[] = {
    GTS__FIELD(gts_mpi_mcts_options, struct_size),
    GTS__FIELD(gts_mpi_mcts_options, sync_playouts),
    GTS__FIELD(gts_mpi_mcts_options, sync_ms),
    GTS__FIELD(gts_mpi_mcts_options, share_plies),
    GTS__FIELD(gts_mpi_mcts_options, share_permille),
};
static const gts__struct_desc MCTS_OPTIONS = GTS__STRUCT_DESC(
    gts_mpi_mcts_options, sizeof(gts_mpi_mcts_options), MCTS_OPTIONS_FIELDS);
static const gts__field MCTS_STATS_FIELDS[] = {
    GTS__FIELD(gts_mpi_mcts_stats, struct_size), GTS__FIELD(gts_mpi_mcts_stats, ranks),
    GTS__FIELD(gts_mpi_mcts_stats, merges),      GTS__FIELD(gts_mpi_mcts_stats, playouts),
    GTS__FIELD(gts_mpi_mcts_stats, nodes),       GTS__FIELD(gts_mpi_mcts_stats, virtual_time),
    GTS__FIELD(gts_mpi_mcts_stats, reused_ranks), GTS__FIELD(gts_mpi_mcts_stats, kept_visits),
};
static const gts__struct_desc MCTS_STATS =
    GTS__STRUCT_DESC(gts_mpi_mcts_stats, sizeof(gts_mpi_mcts_stats), MCTS_STATS_FIELDS);

/* Check the arguments shared by both entry points into @R. */
static gts_status check_args(dm_run *R, gts_engine *engine, const gts_game *game, void *state,
                             const gts_limits *limits, const gts_mpi_mcts_options *options,
                             gts_result *result, gts_mpi_mcts_stats *stats)
{
    if (!engine || !game || !state || !result)
        return GTS_EINVAL;
    const char *why = NULL;
    size_t n;
    gts_status rc = gts__struct_check(gts__desc_result(), result, &n, &why);
    if (rc == GTS_OK && stats)
        rc = gts__struct_check(&MCTS_STATS, stats, &n, &why);
    gts_game g;
    memset(&g, 0, sizeof g);
    if (rc == GTS_OK)
        rc = gts__struct_in(gts__desc_game(), &g, game, &why);
    memset(&R->lim, 0, sizeof R->lim);
    R->lim.struct_size = sizeof R->lim;
    if (rc == GTS_OK && limits)
        rc = gts__struct_in(gts__desc_limits(), &R->lim, limits, &why);
    memset(&R->opt, 0, sizeof R->opt);
    R->opt.struct_size = sizeof R->opt;
    if (rc == GTS_OK && options)
        rc = gts__struct_in(&MCTS_OPTIONS, &R->opt, options, &why);
    gts__engine_note_error(engine, why);
    if (rc != GTS_OK)
        return rc;
    if (!g.generate || !g.apply || !g.undo || !g.evaluate)
        return GTS_EINVAL;
    if (R->lim.depth != 0 && R->lim.depth != GTS_MAX_DEPTH)
        return R->lim.depth < 0 || R->lim.depth > GTS_MAX_DEPTH ? GTS_ERANGE : GTS_ENOTSUP;
    if (R->opt.sync_playouts == 0)
        R->opt.sync_playouts = GTS_MPI_MCTS_SYNC_PLAYOUTS;
    if (R->opt.sync_playouts < 0 || R->opt.sync_playouts > MAX_SYNC_PLAYOUTS
        || R->opt.sync_ms < 0 || R->opt.sync_ms > MAX_SYNC_MS)
        return GTS_ERANGE;
    if (R->opt.share_plies == 0)
        R->opt.share_plies = GTS_MPI_MCTS_SHARE_PLIES;
    if (R->opt.share_permille == 0)
        R->opt.share_permille = GTS_MPI_MCTS_SHARE_PERMILLE;
    if (R->opt.share_plies < 1 || R->opt.share_plies > MAX_SHARE_PLIES
        || R->opt.share_permille < 1 || R->opt.share_permille > 1000)
        return GTS_ERANGE;
    R->game = game;
    R->state = state;
    return GTS_OK;
}

/* The root's moves into R->moves (every rank lists them: their number
 * must agree), their number or a status. */
static int root_moves(dm_run *R, const gts_game *game, void *state)
{
    gts_game g;
    memset(&g, 0, sizeof g);
    gts__struct_in(gts__desc_game(), &g, game, NULL);
    if (g.max_moves == 0)
        return GTS_ERANGE;
    gts_move *buf = malloc((size_t)g.max_moves * sizeof *buf);
    if (!buf)
        return GTS_ENOMEM;
    int n = g.generate(state, buf, g.max_moves, g.user);
    if (n < 0 || n > (int)g.max_moves) {
        free(buf);
        return GTS_ECALLBACK;
    }
    R->moves = buf;
    R->max_moves = g.max_moves;
    return n;
}

/* A key of the root every rank must share: its moves in generate() order
 * (the merge arrays follow that order) and the game's hash of the root, if
 * it has one (FNV-1a; 62 bits, so that the key and its negation fit an
 * int64_t for one MPI_MAX). */
static int64_t root_key(const dm_run *R, const gts_game *game, void *state, int n)
{
    gts_game g;
    memset(&g, 0, sizeof g);
    gts__struct_in(gts__desc_game(), &g, game, NULL);
    uint64_t h = gts__mpi_key_moves(GTS__MPI_KEY_SEED, R->moves, n);
    if (g.hash)
        h = gts__mpi_key_mix(h, g.hash(state, g.user));
    return (int64_t)(h >> 2);
}

/* ---- one rank ------------------------------------------------------------------ */

/* Rank @k's arrays: the root's @n moves, and with shared nodes their
 * @e children entries and a buffer of @m moves. */
static void rank_layout(carve *c, dm_rank *k, size_t n, size_t e, size_t m)
{
    CARVE(c, k->cur, n);
    CARVE(c, k->add, n);
    CARVE(c, k->sbuf, m);
    CARVE(c, k->seen_v, n);
    CARVE(c, k->seen_av, n);
    CARVE(c, k->seen_s, n);
    CARVE(c, k->seen_as, n);
    CARVE(c, k->sc_v, e);
    CARVE(c, k->sc_av, e);
    CARVE(c, k->ss_v, e);
    CARVE(c, k->ss_av, e);
    CARVE(c, k->sc_s, e);
    CARVE(c, k->sc_as, e);
    CARVE(c, k->ss_s, e);
    CARVE(c, k->ss_as, e);
}

/*
 * The children of the node reached by @path (@depth moves) in rank @k's
 * kept tree, read into @buf: when the tree holds it expanded with the @n
 * moves @moves in that order (the game's: else it is not held alike), their
 * visits, AMAF visits and reward sums go to @v, @av, @s, @as [0 .. n-1]
 * and it returns true; else nothing is written.
 */
static bool read_node(dm_rank *k, const gts_move *path, int depth, const gts_move *moves, int n,
                      gts_mcts_move_stats *buf, uint64_t *v, uint64_t *av, double *s, double *as)
{
    buf[0].struct_size = sizeof buf[0];
    if (gts_mcts_node_stats(k->engine, path, depth, buf, n) != n)
        return false;
    for (int i = 0; i < n; i++)
        if (buf[i].move != moves[i])
            return false;
    for (int i = 0; i < n; i++) {
        v[i] = buf[i].visits;
        av[i] = buf[i].amaf_visits;
        s[i] = buf[i].mean * (double)buf[i].visits;
        as[i] = buf[i].amaf_mean * (double)buf[i].amaf_visits;
    }
    return true;
}

/*
 * Tree reuse across searches (doc/mpi.md, "Tree reuse"). What a rank's
 * kept tree holds when a search starts counts as already merged: its root
 * children's statistics are those the last search left (with the playouts
 * of every rank where that node was shared, this rank's own elsewhere),
 * and the merges of this search carry only what is added from now on. So
 * the baseline the first merge subtracts (seen_*) is the kept root's
 * statistics, read here; the rank's first search says whether it
 * continued that tree (GTS_RESULT_TREE_REUSED), else the baseline is 0
 * (rank_round). False when there is no kept root with this root's moves,
 * or the engine grows one tree per thread (GTS_MCTS_ROOT: the statistics
 * of the kept root below are the first tree's only): a fresh tree then.
 */
static bool kept_baseline(dm_run *R, dm_rank *k)
{
    int64_t threads = 1, parallel = GTS_MCTS_TREE;
    gts_engine_get(k->engine, GTS_OPT_THREADS, &threads);
    gts_engine_get(k->engine, GTS_OPT_MCTS_PARALLEL, &parallel);
    if (R->n <= 0 || (threads > 1 && parallel == GTS_MCTS_ROOT))
        return false;
    if (!read_node(k, NULL, 0, R->moves, R->n, k->cur, k->seen_v, k->seen_av, k->seen_s,
                   k->seen_as))
        return false;
    for (int i = 0; i < R->n; i++)
        k->kept_visits += k->seen_v[i];
    return true;
}

static void shared_baseline(dm_run *R, dm_rank *k, int s);

static gts_status rank_open(dm_run *R, dm_rank *k, gts_engine *engine, int rank)
{
    memset(k, 0, sizeof *k);
    k->engine = engine;
    k->rank = rank;
    size_t n = R->n > 0 ? (size_t)R->n : 1;
    bool shared = R->opt.share_plies > 1;
    CARVE_ALLOC(&k->mem, rank_layout, k, n, shared ? (size_t)MAX_SHARED_ENTRIES : 0,
                shared ? (size_t)R->max_moves : 0);
    if (!k->mem)
        return GTS_ENOMEM;
    gts_status st = gts__engine_watch_begin(engine);
    if (st != GTS_OK)
        return st;
    k->watching = true;
    if (gts_engine_get(engine, GTS_OPT_MCTS_SEED, &k->seed) != GTS_OK
        || gts_engine_get(engine, GTS_OPT_MCTS_PLAYOUTS, &k->playouts) != GTS_OK
        || gts_engine_get(engine, GTS_OPT_MCTS_REUSE, &k->reuse) != GTS_OK)
        return GTS_EINVAL;
    k->saved = true;
    /* Tree reuse: with the caller's GTS_OPT_MCTS_REUSE on, the first search
     * continues the tree the caller kept and advanced (gts_mcts_advance),
     * as gts_mcts() would; its root statistics are the baseline of the
     * first merge (kept_baseline). Otherwise a fresh tree: reuse off drops
     * a kept one, on keeps the rounds'. */
    k->kept = k->reuse && kept_baseline(R, k);
    if (!k->kept) {
        gts_engine_set(engine, GTS_OPT_MCTS_REUSE, 0);
        gts_engine_set(engine, GTS_OPT_MCTS_REUSE, 1);
    }
    k->res.struct_size = sizeof k->res;
    return GTS_OK;
}

static void rank_close(dm_rank *k)
{
    if (k->saved) {
        gts_engine_set(k->engine, GTS_OPT_MCTS_SEED, k->seed);
        gts_engine_set(k->engine, GTS_OPT_MCTS_PLAYOUTS, k->playouts);
        gts_engine_set(k->engine, GTS_OPT_MCTS_REUSE, k->reuse);
    }
    if (k->watching)
        gts__engine_watch_end(k->engine);
    free(k->mem);
}

/* The round's search of rank @k: @quota playouts (0: none to do, when a
 * budget is shared out; UINT64_MAX: no quota), a time slice @time_ms (0:
 * none) and a node share @nodes (0: none). */
static void rank_round(dm_run *R, dm_rank *k, uint64_t quota, uint64_t nodes)
{
    k->nodes = 0;
    k->flags = 0;
    k->searched = false;
    memset(k->sh_ok, 0, sizeof k->sh_ok);
    if (k->st != GTS_OK || quota == 0)
        return;
    uint64_t seed = mix(mix((uint64_t)k->seed + UINT64_C(0x9e3779b97f4a7c15) * (uint64_t)(k->rank + 1))
                        + R->round) & SEED_MASK;
    gts_engine_set(k->engine, GTS_OPT_MCTS_SEED, (int64_t)seed);
    gts_engine_set(k->engine, GTS_OPT_MCTS_PLAYOUTS, quota == UINT64_MAX ? 0 : (int64_t)quota);
    gts_limits lim = {.struct_size = sizeof lim, .nodes = nodes};
    uint64_t slice = (uint64_t)R->opt.sync_ms;
    if (R->lim.time_ms > 0) {
        uint64_t spent = (gts__mpi_now_us() - R->start_us) / 1000;
        if (spent >= R->lim.time_ms) {
            k->time_up = true;
            return;
        }
        uint64_t left = R->lim.time_ms - spent;
        if (slice == 0 || left < slice)
            slice = left;
    }
    lim.time_ms = slice;
    /* this round continues the tree of the last (the first: the caller's
     * kept tree, if it advanced one); marked here, not after the round, so
     * that the tree the search leaves is continued only after the caller's
     * own gts_mcts_advance(), as after gts_mcts() */
    if (k->has_tree) {
        int rc = gts_mcts_advance(k->engine, NULL, 0, NULL);
        if (rc != 1) {
            k->st = rc < 0 ? (gts_status)rc : GTS_ENOMEM;
            return;
        }
    }
    gts_result res = {.struct_size = sizeof res};
    gts_status st = gts_mcts(k->engine, R->game, R->state, &lim, &res);
    if (st != GTS_OK) {
        k->st = st;
        k->callback_status = res.callback_status;
        return;
    }
    k->res = res;
    if (res.seldepth > k->seldepth)
        k->seldepth = res.seldepth;
    k->nodes = res.nodes;
    k->total += res.nodes;
    k->flags = res.flags & GTS_RESULT_MEMORY_LIMIT;
    if (!k->has_tree) {
        /* the first search: it continued the kept tree (whose root the
         * baseline holds), or started fresh (baseline 0) */
        k->adopted = k->kept && (res.flags & GTS_RESULT_TREE_REUSED);
        if (!k->adopted)
            for (int i = 0; i < R->n; i++) {
                k->seen_v[i] = k->seen_av[i] = 0;
                k->seen_s[i] = k->seen_as[i] = 0.0;
            }
    }
    /* the tree is kept for the next round (and the merge's injections) */
    if (gts_mcts_node_stats(k->engine, NULL, 0, NULL, 0) != R->n) {
        k->st = GTS_ENOMEM;
        return;
    }
    k->cur[0].struct_size = sizeof k->cur[0];
    if (gts_mcts_root_stats(k->engine, k->cur, R->n) != R->n) {
        k->st = GTS_EINVAL; /* the root changed under the search */
        return;
    }
    k->searched = true;
    bool first = !k->has_tree;
    k->has_tree = true;
    /* a kept tree first searched after nodes were shared (this rank had
     * no playout in the first rounds): their baselines as at a join */
    for (int s = 0; first && s < R->nsh; s++)
        shared_baseline(R, k, s);
    /* the shared nodes its tree holds expanded */
    for (int s = 0; s < R->nsh; s++) {
        int e = R->sh_off[s];
        k->sh_ok[s] = read_node(k, R->sh_path[s], R->sh_depth[s], &R->sh_moves[e],
                                R->sh_off[s + 1] - e, k->sbuf, &k->sc_v[e], &k->sc_av[e],
                                &k->sc_s[e], &k->sc_as[e]);
    }
}

/* Rank @k's part of shared entry @e (of node @s) in this round: what its
 * search added since the last merge (nothing when its tree does not hold
 * the node, or counts that went down: a tree cut by the memory limit). */
static void own_shared_delta(const dm_rank *k, int s, int e, uint64_t *dv, uint64_t *dav,
                             double *ds, double *das)
{
    bool ok = k->st == GTS_OK && k->searched && k->sh_ok[s] && k->sc_v[e] >= k->ss_v[e]
              && k->sc_av[e] >= k->ss_av[e];
    *dv = ok ? k->sc_v[e] - k->ss_v[e] : 0;
    *dav = ok ? k->sc_av[e] - k->ss_av[e] : 0;
    *ds = ok ? k->sc_s[e] - k->ss_s[e] : 0.0;
    *das = ok ? k->sc_as[e] - k->ss_as[e] : 0.0;
}

/* Rank @k's part of move @i in this round: what its search added to the
 * root since the last merge (nothing when it did not search). */
static void own_delta(const dm_rank *k, int i, uint64_t *dv, uint64_t *dav, double *ds,
                      double *das)
{
    const gts_mcts_move_stats *c = &k->cur[i];
    bool ok = k->st == GTS_OK && k->searched;
    *dv = ok ? c->visits - k->seen_v[i] : 0;
    *dav = ok ? c->amaf_visits - k->seen_av[i] : 0;
    *ds = ok ? c->mean * (double)c->visits - k->seen_s[i] : 0.0;
    *das = ok ? c->amaf_mean * (double)c->amaf_visits - k->seen_as[i] : 0.0;
}

/* Add rank @k's contribution to the merge arrays (u, d: sums; x: max). */
static void rank_contribute(const dm_run *R, const dm_rank *k, uint64_t *u, double *d, int64_t *x)
{
    int n = R->n;
    bool ok = k->st == GTS_OK && k->searched;
    for (int i = 0; i < n; i++) {
        const gts_mcts_move_stats *c = &k->cur[i];
        uint64_t dv, dav;
        own_delta(k, i, &dv, &dav, &d[2 * i], &d[2 * i + 1]);
        u[2 * i] = dv;
        u[2 * i + 1] = dav;
        u[2 * n + U_PLAYOUTS] += dv;
        x[2 * i] = ok ? c->lower : GTS_SCORE_LOSS;
        x[2 * i + 1] = ok ? -(int64_t)c->upper : -(int64_t)GTS_SCORE_WIN;
    }
    int64_t *t = x + 2 * n;
    u[2 * n + U_NODES] += k->nodes;
    t[X_STATUS] = -(int64_t)k->st;
    t[X_CALLBACK] = k->st == GTS_ECALLBACK ? k->callback_status : INT64_MIN;
    t[X_STOPPED] = gts__engine_watch_stopped(k->engine);
    t[X_TIME] = k->time_up
                || (R->lim.time_ms > 0 && (gts__mpi_now_us() - R->start_us) / 1000 >= R->lim.time_ms);
    t[X_MEMORY] = (k->flags & GTS_RESULT_MEMORY_LIMIT) != 0;
    t[X_LAYOUT] = (int64_t)(R->sh_key >> 2);
    t[X_NLAYOUT] = -(int64_t)(R->sh_key >> 2);
}

/* ---- the rounds --------------------------------------------------------------- */

/*
 * Wait for @n requests without spinning: a rank that ends its round first
 * sleeps (20 us, doubling up to 2 ms) instead of polling a core that the
 * slower rank may need (ranks sharing cores, a loaded machine; measured
 * in doc/results/distributed.md). A blocking MPI_Allreduce busy-polls.
 */
static void wait_all(MPI_Request *req, int n)
{
    long ns = WAIT_MIN_NS;
    for (;;) {
        int done = 0;
        MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE);
        if (done)
            return;
        struct timespec ts = { 0, ns };
        nanosleep(&ts, NULL);
        ns = ns * 2 < WAIT_MAX_NS ? ns * 2 : WAIT_MAX_NS;
    }
}

/* The merge: every rank's contribution summed (max for x) over this
 * process's ranks, in rank order, then over the processes. */
static void merge(dm_run *R)
{
    int n = R->n, nu = 2 * n + U_MORE, nd = 2 * n, nx = 2 * n + X_MORE;
    for (int j = 0; j < nu; j++)
        R->u[j] = 0;
    for (int j = 0; j < nd; j++)
        R->d[j] = 0.0;
    for (int j = 0; j < nx; j++)
        R->x[j] = INT64_MIN;
    uint64_t vmax = 0;
    for (int r = 0; r < R->nlocal; r++) {
        memset(R->u1, 0, (size_t)nu * sizeof *R->u1);
        rank_contribute(R, &R->rk[r], R->u1, R->d1, R->x1);
        for (int j = 0; j < nu; j++)
            R->u[j] += R->u1[j];
        for (int j = 0; j < nd; j++)
            R->d[j] += R->d1[j];
        for (int j = 0; j < nx; j++)
            if (R->x1[j] > R->x[j])
                R->x[j] = R->x1[j];
        if (R->rk[r].nodes > vmax)
            vmax = R->rk[r].nodes;
    }
    R->vtime += vmax;
    /* the shared nodes below the root: their children's deltas, summed;
     * over MPI the whole arrays travel, so that the counts agree even when
     * the processes' layouts do not (the merge's X_LAYOUT then ends the
     * search before anything is injected) */
    int ne = R->opt.share_plies > 1 ? 2 * MAX_SHARED_ENTRIES : 0;
    for (int j = 0; j < ne; j++) {
        R->su[j] = 0;
        R->sd[j] = 0.0;
    }
    for (int r = 0; r < R->nlocal; r++)
        for (int s = 0; s < R->nsh; s++)
            for (int e = R->sh_off[s]; e < R->sh_off[s + 1]; e++) {
                uint64_t dv, dav;
                double ds, das;
                own_shared_delta(&R->rk[r], s, e, &dv, &dav, &ds, &das);
                R->su[2 * e] += dv;
                R->su[2 * e + 1] += dav;
                R->sd[2 * e] += ds;
                R->sd[2 * e + 1] += das;
            }
    if (R->comm != MPI_COMM_NULL) {
        MPI_Request req[5];
        MPI_Iallreduce(MPI_IN_PLACE, R->u, nu, MPI_UINT64_T, MPI_SUM, R->comm, &req[0]);
        MPI_Iallreduce(MPI_IN_PLACE, R->d, nd, MPI_DOUBLE, MPI_SUM, R->comm, &req[1]);
        MPI_Iallreduce(MPI_IN_PLACE, R->x, nx, MPI_INT64_T, MPI_MAX, R->comm, &req[2]);
        int nreq = 3;
        if (ne > 0) {
            MPI_Iallreduce(MPI_IN_PLACE, R->su, ne, MPI_UINT64_T, MPI_SUM, R->comm, &req[3]);
            MPI_Iallreduce(MPI_IN_PLACE, R->sd, ne, MPI_DOUBLE, MPI_SUM, R->comm, &req[4]);
            nreq = 5;
        }
        wait_all(req, nreq);
    }
}

/* Give rank @k the others' part of shared node @s, when its tree holds
 * the node (otherwise it takes nothing, and its counts stay as they were:
 * what it adds after expanding the node is its own). */
static void inject_shared(dm_run *R, dm_rank *k, int s)
{
    if (!k->sh_ok[s])
        return;
    int n = R->sh_off[s + 1] - R->sh_off[s];
    for (int i = 0; i < n; i++) {
        int e = R->sh_off[s] + i;
        gts_mcts_move_stats *a = &k->sbuf[i];
        memset(a, 0, sizeof *a);
        a->struct_size = sizeof *a;
        a->move = R->sh_moves[e];
        uint64_t dv, dav;
        double ds, das;
        own_shared_delta(k, s, e, &dv, &dav, &ds, &das);
        uint64_t ov = R->su[2 * e] - dv, oav = R->su[2 * e + 1] - dav;
        double os = R->sd[2 * e] - ds, oas = R->sd[2 * e + 1] - das;
        a->visits = ov;
        a->amaf_visits = oav;
        a->mean = ov ? os / (double)ov : 0.0;
        a->amaf_mean = oav ? oas / (double)oav : 0.0;
        a->mean = a->mean < 0.0 ? 0.0 : a->mean > 1.0 ? 1.0 : a->mean;
        a->amaf_mean = a->amaf_mean < 0.0 ? 0.0 : a->amaf_mean > 1.0 ? 1.0 : a->amaf_mean;
        /* after the merge the node holds its counts now plus the others' */
        k->ss_v[e] = k->sc_v[e] + ov;
        k->ss_av[e] = k->sc_av[e] + oav;
        k->ss_s[e] = k->sc_s[e] + os;
        k->ss_as[e] = k->sc_as[e] + oas;
    }
    int rc = gts_mcts_inject_at(k->engine, R->sh_path[s], R->sh_depth[s], k->sbuf, n);
    if (rc != 1)
        k->st = rc < 0 ? (gts_status)rc : GTS_ENOMEM;
}

/*
 * The baseline of rank @k at shared node @s, which joins the shared set
 * now: what its first merge subtracts. A tree this search grew from
 * nothing holds only this search's playouts there, all sent at that merge
 * (baseline 0). A kept tree (tree reuse) may hold there statistics the
 * last search merged, which every rank already has: there the node's
 * statistics now count as already merged (what this search added to it
 * before it was shared stays this rank's own), as the root's did at the
 * start (kept_baseline). A node the tree does not hold expanded now gets
 * children only from now on: baseline 0.
 */
static void shared_baseline(dm_run *R, dm_rank *k, int s)
{
    if (!k->adopted || !k->has_tree || k->st != GTS_OK)
        return;
    int e = R->sh_off[s];
    read_node(k, R->sh_path[s], R->sh_depth[s], &R->sh_moves[e], R->sh_off[s + 1] - e, k->sbuf,
              &k->ss_v[e], &k->ss_av[e], &k->ss_s[e], &k->ss_as[e]);
}

/* Share node (@parent's path, then @move) from the next merge on: its
 * moves from the game (every process lists the same). False when it has
 * none, does not fit or a callback failed (it is then not shared: every
 * process decides alike on a game whose callbacks are deterministic). */
static bool shared_add(dm_run *R, int parent, gts_move move)
{
    int depth = parent < 0 ? 1 : R->sh_depth[parent] + 1;
    int s = R->nsh;
    for (int j = 0; j < depth - 1; j++)
        R->sh_path[s][j] = R->sh_path[parent][j];
    R->sh_path[s][depth - 1] = move;
    gts_game g;
    memset(&g, 0, sizeof g);
    gts__struct_in(gts__desc_game(), &g, R->game, NULL);
    int applied = 0, n = -1;
    while (applied < depth && g.apply(R->state, R->sh_path[s][applied], g.user) >= 0)
        applied++;
    int room = MAX_SHARED_ENTRIES - R->sh_off[s];
    if (applied == depth && (int)R->max_moves <= room)
        n = g.generate(R->state, &R->sh_moves[R->sh_off[s]], g.max_moves, g.user);
    while (applied > 0) {
        applied--;
        g.undo(R->state, R->sh_path[s][applied], g.user);
    }
    R->sh_key = gts__mpi_key_mix(R->sh_key, (uint64_t)(int64_t)parent);
    R->sh_key = gts__mpi_key_mix(R->sh_key, (uint64_t)move);
    R->sh_key = gts__mpi_key_mix(R->sh_key, (uint64_t)(int64_t)n);
    if (n <= 0 || n > (int)R->max_moves)
        return false;
    R->sh_key = gts__mpi_key_moves(R->sh_key, &R->sh_moves[R->sh_off[s]], n);
    R->sh_depth[s] = depth;
    R->sh_off[s + 1] = R->sh_off[s] + n;
    for (int e = R->sh_off[s]; e < R->sh_off[s + 1]; e++) {
        R->stot[e] = 0;
        R->e_sh[e] = false;
    }
    R->nsh++;
    for (int r = 0; r < R->nlocal; r++)
        shared_baseline(R, &R->rk[r], s);
    return true;
}

/* After a merge: add to the shared nodes those of plies 1 ..
 * share_plies - 1 whose merged visits reached share_permille of the
 * merged playouts (the same totals, so the same choice, on every rank). */
static void shared_choose(dm_run *R)
{
    if (R->opt.share_plies < 2)
        return;
    for (int i = 0; i < R->n; i++)
        R->rtot[i] += R->u[2 * i];
    int nsh = R->nsh;
    for (int e = 0; e < R->sh_off[nsh]; e++)
        R->stot[e] += R->su[2 * e];
    uint64_t thr = (R->playouts * (uint64_t)R->opt.share_permille + 999) / 1000;
    if (thr == 0)
        thr = 1;
    for (int i = 0; i < R->n && R->nsh < MAX_SHARED; i++)
        if (!R->r_sh[i] && R->rtot[i] >= thr) {
            R->r_sh[i] = true; /* tried once */
            shared_add(R, -1, R->moves[i]);
        }
    for (int s = 0; s < nsh && R->nsh < MAX_SHARED; s++) {
        if (R->sh_depth[s] + 1 >= R->opt.share_plies)
            continue;
        for (int e = R->sh_off[s]; e < R->sh_off[s + 1] && R->nsh < MAX_SHARED; e++)
            if (!R->e_sh[e] && R->stot[e] >= thr) {
                R->e_sh[e] = true;
                shared_add(R, s, R->sh_moves[e]);
            }
    }
}

/* Give each rank of this process the others' part of the merge. */
static void inject(dm_run *R)
{
    int n = R->n;
    for (int r = 0; r < R->nlocal; r++) {
        dm_rank *k = &R->rk[r];
        if (!k->has_tree)
            continue; /* no tree to add to: its first search starts fresh */
        for (int i = 0; i < n; i++) {
            gts_mcts_move_stats *a = &k->add[i];
            memset(a, 0, sizeof *a);
            a->struct_size = sizeof *a;
            a->move = R->moves[i];
            uint64_t dv, dav;
            double ds, das;
            own_delta(k, i, &dv, &dav, &ds, &das);
            uint64_t ov = R->u[2 * i] - dv;
            uint64_t oav = R->u[2 * i + 1] - dav;
            double os = R->d[2 * i] - ds;
            double oas = R->d[2 * i + 1] - das;
            a->visits = ov;
            a->amaf_visits = oav;
            a->mean = ov ? os / (double)ov : 0.0;
            a->amaf_mean = oav ? oas / (double)oav : 0.0;
            a->mean = a->mean < 0.0 ? 0.0 : a->mean > 1.0 ? 1.0 : a->mean;
            a->amaf_mean = a->amaf_mean < 0.0 ? 0.0 : a->amaf_mean > 1.0 ? 1.0 : a->amaf_mean;
            a->lower = (gts_score)R->x[2 * i];
            a->upper = (gts_score)-R->x[2 * i + 1];
            k->seen_v[i] += R->u[2 * i];
            k->seen_av[i] += R->u[2 * i + 1];
            k->seen_s[i] += R->d[2 * i];
            k->seen_as[i] += R->d[2 * i + 1];
        }
        int rc = gts_mcts_inject(k->engine, k->add, n);
        if (rc != 1)
            k->st = rc < 0 ? (gts_status)rc : GTS_ENOMEM;
        for (int s = 0; k->st == GTS_OK && s < R->nsh; s++)
            inject_shared(R, k, s);
    }
    shared_choose(R);
}

/* The merged root is proven: its children's ranges decide its value. */
static bool merged_proven(const dm_run *R)
{
    int64_t lo = INT64_MIN, hi = INT64_MIN;
    for (int i = 0; i < R->n; i++) {
        if (R->x[2 * i] > lo)
            lo = R->x[2 * i];
        if (-R->x[2 * i + 1] > hi)
            hi = -R->x[2 * i + 1];
    }
    return lo >= hi;
}

/* Rounds until a merge ends the search; the status all ranks agree on. */
static gts_status rounds(dm_run *R, uint32_t *flags)
{
    int64_t *t = R->x + 2 * R->n;
    for (;;) {
        /* Step 1. Each rank's share of what is left: playouts, nodes */
        uint64_t P = (uint64_t)R->ranks;
        uint64_t left = R->budget ? R->budget - R->playouts : 0;
        uint64_t nodes_share = 0;
        if (R->lim.nodes > 0)
            nodes_share = (R->lim.nodes - R->nodes + P - 1) / P;
        for (int r = 0; r < R->nlocal; r++) {
            dm_rank *k = &R->rk[r];
            uint64_t quota = R->opt.sync_ms > 0 ? UINT64_MAX : (uint64_t)R->opt.sync_playouts;
            if (R->budget) {
                uint64_t share = left / P + ((uint64_t)k->rank < left % P);
                quota = share < quota ? share : quota;
            }
            /* Step 2. The rank's search */
            rank_round(R, k, quota, nodes_share);
        }
        /* Step 3. The merge */
        merge(R);
        R->round++;
        R->playouts += R->u[2 * R->n + U_PLAYOUTS];
        R->nodes += R->u[2 * R->n + U_NODES];
        if (t[X_STATUS] > 0)
            return (gts_status)-t[X_STATUS];
        if (t[X_LAYOUT] != -t[X_NLAYOUT])
            return GTS_EINVAL; /* the processes' games listed other moves */
        inject(R);
        gts_status worst = GTS_OK;
        for (int r = 0; r < R->nlocal; r++)
            if (R->rk[r].st < worst)
                worst = R->rk[r].st;
        int64_t bad = -(int64_t)worst;
        if (R->comm != MPI_COMM_NULL)
            MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_MAX, R->comm);
        if (bad > 0)
            return (gts_status)-bad;
        /* Step 4. The end: a stop, a limit, the budget, a proof, no progress */
        if (t[X_MEMORY])
            *flags |= GTS_RESULT_MEMORY_LIMIT;
        if (t[X_STOPPED]) {
            *flags |= GTS_RESULT_STOPPED;
            return GTS_OK;
        }
        if (t[X_TIME]) {
            *flags |= GTS_RESULT_TIME_LIMIT;
            return GTS_OK;
        }
        if (R->lim.nodes > 0 && R->nodes >= R->lim.nodes) {
            *flags |= GTS_RESULT_NODE_LIMIT;
            return GTS_OK;
        }
        if ((R->budget && R->playouts >= R->budget) || merged_proven(R)
            || R->u[2 * R->n + U_PLAYOUTS] == 0)
            return GTS_OK;
    }
}

/*
 * The move to play from the merged root statistics @s (as gts_mcts()
 * chooses, lib/search/mcts.c mc_choose, on the root's children): a proven
 * root or a proven win, the move with the best proven value; otherwise the
 * most visited move that can still reach the root's proven value, unless
 * a proven move is better than its estimate. -1: nothing learnt.
 */
static int choose(const gts_mcts_move_stats *s, int n, gts_score *score, bool *solved)
{
    int proven = 0, visited = -1;
    gts_score plo = s[0].lower, phi = s[0].upper;
    for (int i = 1; i < n; i++) {
        plo = s[i].lower > plo ? s[i].lower : plo;
        phi = s[i].upper > phi ? s[i].upper : phi;
        if (s[i].lower > s[proven].lower
            || (s[i].lower == s[proven].lower && s[i].visits > s[proven].visits))
            proven = i;
    }
    *solved = plo >= phi;
    if (plo >= phi || plo >= GTS_SCORE_DECIDED) {
        *score = plo >= phi ? plo : s[proven].lower;
        return proven;
    }
    for (int i = 0; i < n; i++) {
        if (s[i].upper < plo || s[i].visits == 0)
            continue;
        if (visited < 0 || s[i].visits > s[visited].visits
            || (s[i].visits == s[visited].visits && s[i].mean > s[visited].mean))
            visited = i;
    }
    bool win = s[proven].lower > -GTS_SCORE_DECIDED;
    if (visited < 0) {
        if (win && s[proven].lower == s[proven].upper) {
            *score = s[proven].lower;
            return proven;
        }
        return -1;
    }
    gts_score est = s[visited].score;
    if (win && s[proven].lower > est) {
        *score = s[proven].lower;
        return proven;
    }
    *score = est < plo ? plo : est > phi ? phi : est;
    return visited;
}

/* Rank 0's result (the first local rank's engine holds the merged
 * statistics); over MPI broadcast to every rank. */
static void finish(dm_run *R, uint32_t flags, gts_result *res)
{
    enum { HDR = 5 };
    int64_t buf[HDR + GTS_MAX_PLY];
    memset(buf, 0, sizeof buf);
    dm_rank *k0 = &R->rk[0];
    if (k0->rank == 0) {
        const gts_result *last = &k0->res;
        int best = -1;
        gts_score score = 0;
        bool solved = false;
        if (R->n > 0 && k0->has_tree) { /* else the engine's are another search's */
            k0->cur[0].struct_size = sizeof k0->cur[0];
            if (gts_mcts_root_stats(k0->engine, k0->cur, R->n) == R->n)
                best = choose(k0->cur, R->n, &score, &solved);
        }
        if (best < 0 && !(last->flags & GTS_RESULT_HAS_MOVE) && R->n > 0) {
            /* no round searched (the time was up before the first): as
             * gts_mcts() without a playout, the first move and the static
             * score, depth 0 */
            gts_game g;
            memset(&g, 0, sizeof g);
            gts__struct_in(gts__desc_game(), &g, R->game, NULL);
            gts_score v = g.evaluate(R->state, g.user);
            buf[0] = (int64_t)R->moves[0];
            buf[1] = v > -GTS_SCORE_INF && v < GTS_SCORE_INF ? v : 0;
            buf[2] = GTS_RESULT_HAS_MOVE | flags;
            buf[4] = 1;
            buf[HDR] = (int64_t)R->moves[0];
        } else if (best < 0) { /* nothing learnt: gts_mcts()'s fallback */
            buf[0] = (int64_t)last->best_move;
            buf[1] = last->score;
            buf[2] = (last->flags & GTS_RESULT_HAS_MOVE) | flags;
            buf[3] = last->depth;
            buf[4] = last->pv_length;
            for (uint32_t i = 0; i < last->pv_length && i < GTS_MAX_PLY; i++)
                buf[HDR + i] = (int64_t)last->pv[i];
        } else {
            gts_move mv = k0->cur[best].move;
            uint32_t len = 1;
            buf[HDR] = (int64_t)mv;
            if (last->pv_length > 0 && last->pv[0] == mv)
                for (len = 1; len < last->pv_length && len < GTS_MAX_PLY; len++)
                    buf[HDR + len] = (int64_t)last->pv[len];
            buf[0] = (int64_t)mv;
            buf[1] = score;
            buf[2] = GTS_RESULT_HAS_MOVE | flags;
            buf[3] = solved ? GTS_MAX_DEPTH : (int64_t)len;
            buf[4] = len;
        }
    }
    /* seldepth: the deepest node any rank's tree created (as gts_mcts()'s
     * of one tree; a collective like the broadcast) */
    int64_t sd = 0;
    for (int r = 0; r < R->nlocal; r++)
        if (R->rk[r].seldepth > sd)
            sd = R->rk[r].seldepth;
    if (R->comm != MPI_COMM_NULL) {
        MPI_Bcast(buf, HDR + GTS_MAX_PLY, MPI_INT64_T, 0, R->comm);
        MPI_Allreduce(MPI_IN_PLACE, &sd, 1, MPI_INT64_T, MPI_MAX, R->comm);
    }
    res->seldepth = (int32_t)sd;
    res->best_move = (gts_move)buf[0];
    res->score = (gts_score)buf[1];
    res->flags = (uint32_t)buf[2];
    res->depth = (int32_t)buf[3];
    res->pv_length = (uint32_t)buf[4];
    for (uint32_t i = 0; i < res->pv_length; i++)
        res->pv[i] = (gts_move)buf[HDR + i];
    res->nodes = R->nodes;
    res->threads = (uint32_t)R->ranks;
}

/* Each rank's nodes into the caller's thread_nodes (rank k at index k, as
 * far as its capacity goes). Over MPI every rank calls it (collective: the
 * counts travel in blocks of a fixed size, so nothing is allocated and no
 * rank can drop out); with virtual ranks they are all local. */
static void rank_nodes_out(dm_run *R, int first_rank)
{
    enum { BLOCK = 64 };
    for (int base = 0; base < R->ranks; base += BLOCK) {
        uint64_t blk[BLOCK] = {0};
        for (int r = 0; R->rk && r < R->nlocal; r++)
            if (first_rank + r >= base && first_rank + r < base + BLOCK)
                blk[first_rank + r - base] = R->rk[r].total;
        if (R->comm != MPI_COMM_NULL)
            MPI_Allreduce(MPI_IN_PLACE, blk, BLOCK, MPI_UINT64_T, MPI_SUM, R->comm);
        for (int i = 0; i < BLOCK && base + i < R->ranks; i++)
            if ((uint32_t)(base + i) < R->tn_cap)
                R->tn[base + i] = blk[i];
    }
}

/* Tree reuse over all ranks: how many continued a kept tree, and its
 * root visits then (collective over MPI, as rank_nodes_out). */
static void reuse_out(dm_run *R)
{
    uint64_t v[2] = { 0, 0 };
    for (int r = 0; R->rk && r < R->nlocal; r++)
        if (R->rk[r].adopted) {
            v[0]++;
            v[1] += R->rk[r].kept_visits;
        }
    if (R->comm != MPI_COMM_NULL)
        MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_UINT64_T, MPI_SUM, R->comm);
    R->reused = v[0];
    R->kept_visits = v[1];
}

/* Where rank_nodes_out() writes: @result's thread_nodes, if it has them
 * (@result passed check_args). */
static void rank_nodes_to(dm_run *R, const gts_result *result)
{
    if (result && result->thread_nodes) {
        R->tn = result->thread_nodes;
        R->tn_cap = result->thread_nodes_capacity;
    }
}

/* The merge arrays of @R for @n root moves, and with shared nodes their
 * @e children entries. */
static void run_layout(carve *c, dm_run *R, size_t n, size_t e)
{
    CARVE(c, R->u, 2 * n + U_MORE);
    CARVE(c, R->u1, 2 * n + U_MORE);
    CARVE(c, R->d, 2 * n + 1);
    CARVE(c, R->d1, 2 * n + 1);
    CARVE(c, R->x, 2 * n + X_MORE);
    CARVE(c, R->x1, 2 * n + X_MORE);
    CARVE(c, R->sh_moves, e);
    CARVE(c, R->rtot, e ? n + 1 : 0);
    CARVE(c, R->stot, e);
    CARVE(c, R->r_sh, e ? n + 1 : 0);
    CARVE(c, R->e_sh, e);
    CARVE(c, R->su, 2 * e);
    CARVE(c, R->sd, 2 * e);
}

/* Allocate the merge arrays and open the ranks; then the rounds and the
 * result. @st: the agreed status so far (over MPI: after agreement). */
static gts_status dm_run_all(dm_run *R, gts_engine *const *engines, int first_rank,
                             gts_result *res)
{
    int n = R->n;
    CARVE_ALLOC(&R->mem, run_layout, R, (size_t)n,
                R->opt.share_plies > 1 ? (size_t)MAX_SHARED_ENTRIES : 0);
    R->rk = calloc((size_t)R->nlocal, sizeof *R->rk);
    gts_status st = R->mem && R->rk ? GTS_OK : GTS_ENOMEM;
    int opened = 0;
    for (int r = 0; st == GTS_OK && r < R->nlocal; r++, opened++)
        st = rank_open(R, &R->rk[r], engines[r], first_rank + r);
    if (st == GTS_OK) {
        int64_t budget = 0;
        gts_engine_get(engines[0], GTS_OPT_MCTS_PLAYOUTS, &budget);
        R->budget = (uint64_t)budget;
    }
    /* every rank agrees on the set-up, and takes rank 0's budget */
    int64_t agree[2] = { -(int64_t)st, (int64_t)R->budget };
    if (R->comm != MPI_COMM_NULL) {
        MPI_Allreduce(MPI_IN_PLACE, agree, 1, MPI_INT64_T, MPI_MAX, R->comm);
        MPI_Bcast(agree + 1, 1, MPI_INT64_T, 0, R->comm);
    }
    R->budget = (uint64_t)agree[1];
    st = agree[0] > 0 ? (gts_status)-agree[0] : GTS_OK;
    uint32_t flags = 0;
    if (st == GTS_OK && n == 0) {
        /* a finished game: each rank's gts_mcts() says so alike */
        for (int r = 0; r < R->nlocal; r++) {
            gts_result one = {.struct_size = sizeof one};
            gts_status s1 = gts_mcts(R->rk[r].engine, R->game, R->state, NULL, &one);
            R->rk[r].res = one;
            R->rk[r].seldepth = one.seldepth;
            R->rk[r].total = one.nodes;
            R->nodes += one.nodes;
            if (s1 != GTS_OK && st == GTS_OK)
                st = s1;
        }
        int64_t bad = -(int64_t)st;
        if (R->comm != MPI_COMM_NULL) {
            MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_MAX, R->comm);
            uint64_t nodes = R->nodes;
            MPI_Allreduce(&nodes, &R->nodes, 1, MPI_UINT64_T, MPI_SUM, R->comm);
        }
        st = bad > 0 ? (gts_status)-bad : GTS_OK;
    } else if (st == GTS_OK) {
        st = rounds(R, &flags);
    }
    if (st == GTS_OK) {
        finish(R, flags, res);
    } else if (st == GTS_ECALLBACK) {
        int64_t cb = R->x[2 * n + X_CALLBACK];
        res->callback_status = cb == INT64_MIN ? 0 : (int32_t)cb;
    }
    rank_nodes_out(R, first_rank);
    reuse_out(R);
    for (int r = 0; r < opened; r++)
        rank_close(&R->rk[r]);
    free(R->mem);
    free(R->rk);
    return st;
}

static void stats_out(gts_mpi_mcts_stats *stats, const dm_run *R)
{
    size_t n;
    if (!stats || gts__struct_check(&MCTS_STATS, stats, &n, NULL) != GTS_OK)
        return;
    gts_mpi_mcts_stats S = {.struct_size = sizeof S, .ranks = R->ranks, .merges = R->round,
                            .playouts = R->playouts, .nodes = R->nodes,
                            .virtual_time = R->comm == MPI_COMM_NULL ? R->vtime : 0,
                            .reused_ranks = (int32_t)R->reused, .kept_visits = R->kept_visits};
    gts__struct_out(stats, &S, n);
}

/* ---- entry points ------------------------------------------------------------------ */

gts_status gts_mpi_mcts(MPI_Comm comm, gts_engine *engine, const gts_game *game, void *state,
                        const gts_limits *limits, const gts_mpi_mcts_options *options,
                        gts_result *result, gts_mpi_mcts_stats *stats)
{
    /* Step 1. Without a communicator the ranks cannot agree: fail alone. */
    gts_status usable = gts__mpi_usable(comm);
    if (usable != GTS_OK)
        return usable;
    dm_run R;
    memset(&R, 0, sizeof R);
    R.start_us = gts__mpi_now_us();
    gts_result res;
    memset(&res, 0, sizeof res);
    res.struct_size = sizeof res;

    /* Step 2. The arguments and the root's moves, agreed on by all ranks */
    gts_status st = check_args(&R, engine, game, state, limits, options, result, stats);
    int n = st == GTS_OK ? root_moves(&R, game, state) : 0;
    if (n < 0) {
        st = (gts_status)n;
        n = 0;
    }
    MPI_Comm_dup(comm, &R.comm);
    int rank = 0, size = 1;
    MPI_Comm_rank(R.comm, &rank);
    MPI_Comm_size(R.comm, &size);
    int64_t key = st == GTS_OK ? root_key(&R, game, state, n) : 0;
    int64_t agree[5] = { -(int64_t)st, n, -(int64_t)n, key, -key };
    MPI_Allreduce(MPI_IN_PLACE, agree, 5, MPI_INT64_T, MPI_MAX, R.comm);
    bool same_root = agree[1] == -agree[2] && agree[3] == -agree[4];
    if (agree[0] > 0 && st == GTS_OK)
        st = (gts_status)-agree[0];
    else if (st == GTS_OK && !same_root)
        st = GTS_EINVAL; /* the ranks do not hold the same root */
    R.ranks = size;
    R.nlocal = 1;
    R.n = n;

    /* Step 3. The rounds (every rank, or none) */
    if (agree[0] <= 0 && same_root) {
        gts_engine *engines[1] = { engine };
        rank_nodes_to(&R, result);
        st = dm_run_all(&R, engines, rank, &res);
    }
    res.time_us = gts__mpi_now_us() - R.start_us;
    res.threads = (uint32_t)size;
    if (result && (st == GTS_OK || st == GTS_ECALLBACK))
        gts__mpi_result_out(result, &res);
    stats_out(stats, &R);
    MPI_Comm_free(&R.comm);
    free(R.moves);
    return st;
}

gts_status gts_mpi_mcts_virtual(int32_t ranks, gts_engine *const *engines, const gts_game *game,
                                void *state, const gts_limits *limits,
                                const gts_mpi_mcts_options *options, gts_result *result,
                                gts_mpi_mcts_stats *stats)
{
    if (!engines)
        return GTS_EINVAL;
    if (ranks < 1 || ranks > GTS_MPI_MAX_VIRTUAL_RANKS)
        return GTS_ERANGE;
    for (int32_t i = 0; i < ranks; i++) {
        if (!engines[i])
            return GTS_EINVAL;
        for (int32_t j = 0; j < i; j++)
            if (engines[j] == engines[i])
                return GTS_EINVAL;
    }
    dm_run R;
    memset(&R, 0, sizeof R);
    R.start_us = gts__mpi_now_us();
    R.comm = MPI_COMM_NULL;
    gts_result res;
    memset(&res, 0, sizeof res);
    res.struct_size = sizeof res;
    gts_status st = check_args(&R, engines[0], game, state, limits, options, result, stats);
    int n = st == GTS_OK ? root_moves(&R, game, state) : 0;
    if (n < 0)
        st = (gts_status)n;
    if (st != GTS_OK) {
        free(R.moves);
        return st;
    }
    R.ranks = ranks;
    R.nlocal = ranks;
    R.n = n;
    rank_nodes_to(&R, result);
    st = dm_run_all(&R, engines, 0, &res);
    res.time_us = gts__mpi_now_us() - R.start_us;
    res.threads = (uint32_t)ranks;
    if (st == GTS_OK || st == GTS_ECALLBACK)
        gts__mpi_result_out(result, &res);
    stats_out(stats, &R);
    free(R.moves);
    return st;
}
