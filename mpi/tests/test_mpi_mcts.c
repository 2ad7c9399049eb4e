/*
 * test_mpi_mcts.c - tests of gts_mpi_mcts() (distributed MCTS), run under
 * `mpirun -np N`, and of gts_mpi_mcts_virtual() without MPI.
 *
 *   test_mpi_mcts exact    a solved search (tic-tac-toe, small random trees
 *                          with a horizon of their own) returns the minimax
 *                          value of serial gts_alphabeta() on every rank;
 *                          every rank returns the same move, score, flags
 *                          and pv; the merged root visits on every rank
 *                          equal the playouts of all ranks; a playout
 *                          budget is met exactly; the same seed gives the
 *                          same result and statistics; the virtual ranks
 *                          at N do what the N real ranks did; tree reuse
 *                          (gts_mcts_advance between two searches): every
 *                          rank continues its tree, each engine's root
 *                          holds its kept visits plus all ranks' playouts,
 *                          no child's visits exceed its parent's, proofs
 *                          after a reuse are alpha-beta's, unseen moves
 *                          and unadvanced ranks start fresh, virtual ==
 *                          real.
 *   test_mpi_mcts fail     a callback fails on one rank: every rank returns
 *                          GTS_ECALLBACK with its status, the root restored;
 *                          then a search works again.
 *   test_mpi_mcts stop     gts_engine_stop() on one rank (from its game
 *                          callback) ends the search on every rank with
 *                          GTS_RESULT_STOPPED; a node limit and a time limit
 *                          end it with their flags; bad arguments on one
 *                          rank are every rank's status.
 *   test_mpi_mcts bench    not a test: playouts per second of each rank and
 *                          of all, CSV (doc/results/distributed.md).
 *   test_mpi_mcts match [GAMES MS SYNC_MS]
 *                          not a test: games of N ranks against one rank at
 *                          equal time per move (SYNC_MS 0: merges every
 *                          1024 playouts), doc/results/distributed.md.
 *
 * Without mpirun:
 *
 *   test_mpi_mcts virtual  the checks of `exact` (tree reuse included) at
 *                          1, 2, 3 and 8 virtual ranks, failures, arguments.
 *   test_mpi_mcts vbench   not a test: playouts per virtual time at 1..64
 *                          virtual ranks (the speedup), CSV.
 *   test_mpi_mcts vmatch GAME RANKS GAMES PLAYOUTS SYNC [SOLO [SHARE_PLIES [PERMILLE]]]
 *                          not a test: games of RANKS virtual ranks of
 *                          PLAYOUTS playouts each against one engine of
 *                          PLAYOUTS (equal virtual time per move; or of
 *                          SOLO playouts; SOLO 0: PLAYOUTS), CSV;
 *                          SHARE_PLIES: gts_mpi_mcts_options::share_plies
 *                          (0: the default; 1: the root only), PERMILLE:
 *                          share_permille (0: the default).
 *
 * Exit status 0 when every check passed on every rank.
 */
#include "gts_games.h"
#include "mpi_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { CAP = 64, VMAX = 64 };

static gts_engine *engine_new(int64_t playouts, int64_t seed)
{
    gts_engine *e = NULL;
    if (gts_engine_new(&e) != GTS_OK)
        abort();
    gts_engine_set(e, GTS_OPT_TT_MB, 1);
    gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, playouts);
    gts_engine_set(e, GTS_OPT_MCTS_SEED, seed);
    return e;
}

static gts_result result_new(void)
{
    gts_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    return r;
}

static gts_mpi_mcts_stats stats_new(void)
{
    gts_mpi_mcts_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    return s;
}

static gts_score serial_value(const gts_game *g, void *state, int depth)
{
    gts_engine *e = engine_new(0, 0);
    gts_limits lim = {.struct_size = sizeof lim, .depth = depth};
    gts_result r = result_new();
    gts_status st = gts_search(e, GTS_ALG_ALPHABETA, g, state, &lim, &r);
    CHECK(st == GTS_OK, "serial: %s", gts_strerror(st));
    gts_engine_free(e);
    return r.score;
}

/* The root statistics of @e; their visits summed into *total. */
static int root_stats(gts_engine *e, gts_mcts_move_stats *st, uint64_t *total)
{
    memset(st, 0, CAP * sizeof *st);
    st[0].struct_size = sizeof st[0];
    int n = gts_mcts_root_stats(e, st, CAP);
    *total = 0;
    for (int i = 0; i < n && i < CAP; i++)
        *total += st[i].visits;
    return n;
}

/* Every rank got what rank 0 got (MPI) : move, score, flags, depth, pv, seldepth. */
static void same_everywhere(const char *what, const gts_result *r)
{
    if (!use_mpi)
        return;
    int64_t mine[6 + 8] = { (int64_t)r->best_move, r->score, r->flags, r->depth, r->pv_length,
                            r->seldepth };
    for (uint32_t i = 0; i < r->pv_length && i < 8; i++)
        mine[6 + i] = (int64_t)r->pv[i];
    int64_t zero[14];
    memcpy(zero, mine, sizeof zero);
    MPI_Bcast(zero, 14, MPI_INT64_T, 0, MPI_COMM_WORLD);
    CHECK(memcmp(zero, mine, sizeof mine) == 0, "%s: rank %d's result differs from rank 0's",
          what, rank);
}

/* One search, over MPI or on @vranks virtual ranks (engines @es). */
static gts_status run(int vranks, gts_engine **es, const gts_game *g, void *state,
                      const gts_limits *lim, const gts_mpi_mcts_options *opt, gts_result *r,
                      gts_mpi_mcts_stats *s)
{
    if (vranks > 0)
        return gts_mpi_mcts_virtual(vranks, es, g, state, lim, opt, r, s);
    return gts_mpi_mcts(MPI_COMM_WORLD, es[0], g, state, lim, opt, r, s);
}

/* The number of engines a run uses in this process. */
static int local(int vranks)
{
    return vranks > 0 ? vranks : 1;
}

static void engines_new(gts_engine **es, int k, int64_t playouts, int64_t seed)
{
    for (int i = 0; i < k; i++)
        es[i] = engine_new(playouts, seed);
}

static void engines_free(gts_engine **es, int k)
{
    for (int i = 0; i < k; i++)
        gts_engine_free(es[i]);
}

/* ---- exactness, sums, budget, seeds ------------------------------------------ */

/* A solved search equals minimax; merged visits == playouts on every
 * engine; the result is every rank's. */
static void solved_one(int vranks, const char *what, const gts_game *g, void *state, int64_t sync)
{
    gts_engine *es[VMAX];
    int k = local(vranks);
    engines_new(es, k, 0, 5);
    uint64_t h = g->hash ? g->hash(state, g->user) : 0;
    gts_mpi_mcts_options opt = {.struct_size = sizeof opt, .sync_playouts = sync};
    gts_result r = result_new();
    gts_mpi_mcts_stats s = stats_new();
    gts_status st = run(vranks, es, g, state, NULL, &opt, &r, &s);
    CHECK(st == GTS_OK, "%s: %s", what, gts_strerror(st));
    int ranks = vranks > 0 ? vranks : size;
    CHECK(s.ranks == ranks, "%s: stats ranks %d", what, s.ranks);
    CHECK(r.threads == (uint32_t)ranks, "%s: threads %u", what, r.threads);
    if (!g->hash || g->hash(state, g->user) == h) {
    } else {
        CHECK(false, "%s: root not restored", what);
    }
    if (rank == 0) {
        gts_score ref = serial_value(g, state, 0);
        CHECK(r.score == ref, "%s at %d ranks: score %d, minimax %d", what, ranks, r.score, ref);
        CHECK(r.depth == GTS_MAX_DEPTH, "%s: depth %d, want the proof's", what, r.depth);
        /* the move leads to that value */
        if (g->apply(state, r.best_move, g->user) >= 0) {
            gts_score after = -serial_value(g, state, 0);
            g->undo(state, r.best_move, g->user);
            CHECK(after == ref, "%s: best move %llu gives %d, not %d", what,
                  (unsigned long long)r.best_move, after, ref);
        } else {
            CHECK(false, "%s: best move %llu illegal", what, (unsigned long long)r.best_move);
        }
    }
    for (int i = 0; i < k; i++) {
        gts_mcts_move_stats ms[CAP];
        uint64_t total;
        root_stats(es[i], ms, &total);
        CHECK(total == s.playouts, "%s: engine %d's root visits %llu, playouts of all %llu", what,
              i, (unsigned long long)total, (unsigned long long)s.playouts);
    }
    if (vranks == 0)
        same_everywhere(what, &r);
    engines_free(es, k);
}

/* A budget is met exactly; statistics sum to it on every rank; two runs
 * give the same numbers. Returns the visits per root move (rank 0's
 * engine) in @visits. */
static void budget_one(int vranks, const char *what, const gts_game *g, void *state,
                       int64_t budget, int64_t sync, uint64_t *visits, gts_result *out)
{
    gts_mpi_mcts_stats s[2];
    gts_result r[2];
    gts_mcts_move_stats ms[2][CAP];
    int n[2];
    for (int run_i = 0; run_i < 2; run_i++) {
        gts_engine *es[VMAX];
        int k = local(vranks);
        engines_new(es, k, budget, 11);
        gts_mpi_mcts_options opt = {.struct_size = sizeof opt, .sync_playouts = sync};
        r[run_i] = result_new();
        s[run_i] = stats_new();
        /* one slot more than the ranks: it must stay untouched */
        uint64_t tn[VMAX + 1];
        int nr = vranks > 0 ? vranks : size;
        for (int i = 0; i <= nr && i <= VMAX; i++)
            tn[i] = UINT64_MAX;
        r[run_i].thread_nodes = tn;
        r[run_i].thread_nodes_capacity = (uint32_t)(nr < VMAX ? nr : VMAX);
        gts_status st = run(vranks, es, g, state, NULL, &opt, &r[run_i], &s[run_i]);
        CHECK(st == GTS_OK, "%s: %s", what, gts_strerror(st));
        uint64_t tn_sum = 0;
        for (int i = 0; i < nr && i < VMAX; i++)
            tn_sum += tn[i];
        CHECK(nr > VMAX || tn_sum == r[run_i].nodes,
              "%s: the ranks' thread_nodes sum to %llu, nodes %llu", what,
              (unsigned long long)tn_sum, (unsigned long long)r[run_i].nodes);
        CHECK(nr >= VMAX || tn[nr] == UINT64_MAX, "%s: thread_nodes written past the ranks",
              what);
        r[run_i].thread_nodes = NULL;
        r[run_i].thread_nodes_capacity = 0;
        /* seldepth: the deepest node of the ranks' trees (was 0), at least
         * the principal variation's length, as gts_mcts()'s */
        CHECK(r[run_i].seldepth > 0 && r[run_i].seldepth <= GTS_MAX_PLY
                  && (r[run_i].depth == GTS_MAX_DEPTH || r[run_i].seldepth >= r[run_i].depth),
              "%s: seldepth %d, depth %d", what, r[run_i].seldepth, r[run_i].depth);
        CHECK(s[run_i].playouts == (uint64_t)budget, "%s: %llu playouts, budget %lld", what,
              (unsigned long long)s[run_i].playouts, (long long)budget);
        for (int i = 0; i < k; i++) {
            uint64_t total;
            n[run_i] = root_stats(es[i], ms[run_i], &total);
            CHECK(total == (uint64_t)budget, "%s: engine %d's root visits %llu, budget %lld",
                  what, i, (unsigned long long)total, (long long)budget);
        }
        root_stats(es[0], ms[run_i], &(uint64_t){ 0 });
        /* the options are the caller's again */
        int64_t v = -1;
        gts_engine_get(es[0], GTS_OPT_MCTS_PLAYOUTS, &v);
        CHECK(v == budget, "%s: playouts option %lld after the search", what, (long long)v);
        gts_engine_get(es[0], GTS_OPT_MCTS_SEED, &v);
        CHECK(v == 11, "%s: seed option %lld after the search", what, (long long)v);
        if (vranks == 0) /* a collective: not in rank 0's virtual runs */
            same_everywhere(what, &r[run_i]);
        engines_free(es, k);
    }
    CHECK(r[0].best_move == r[1].best_move && r[0].score == r[1].score,
          "%s: same seed, different results", what);
    CHECK(s[0].nodes == s[1].nodes && s[0].merges == s[1].merges,
          "%s: same seed, different nodes/merges", what);
    for (int i = 0; i < n[0] && i < CAP; i++) {
        CHECK(ms[0][i].visits == ms[1][i].visits, "%s: same seed, move %d visits differ", what, i);
        visits[i] = ms[0][i].visits;
    }
    *out = r[0];
}

static void exact_suite(int vranks)
{
    char what[96];
    void *st = NULL;
    /* tic-tac-toe from the start and from two positions */
    static const char *const TTT[] = { "", "5", "51" };
    for (size_t i = 0; i < sizeof TTT / sizeof TTT[0]; i++) {
        if (gts_tictactoe_new(TTT[i], &st) != GTS_OK)
            abort();
        snprintf(what, sizeof what, "tictactoe '%s'", TTT[i]);
        solved_one(vranks, what, gts_game_tictactoe(), st, 64);
        gts_games_free(gts_game_tictactoe(), st);
    }
    /* random trees (finite: every leaf a finished game) */
    for (uint64_t seed = 1; seed <= 4; seed++) {
        gts_randtree_params p = {.struct_size = sizeof p, .seed = seed, .branching = 4,
                                 .depth = 5, .min_value = -50, .max_value = 50};
        if (gts_randtree_new(&p, &st) != GTS_OK)
            abort();
        snprintf(what, sizeof what, "randtree %llu", (unsigned long long)seed);
        solved_one(vranks, what, gts_game_randtree(), st, 32);
        gts_games_free(gts_game_randtree(), st);
    }
    /* connect-4: budget, sums, seeds */
    if (gts_connect4_new("44", &st) != GTS_OK)
        abort();
    uint64_t visits[CAP];
    gts_result r;
    budget_one(vranks, "connect4 budget 3001/128", gts_game_connect4(), st, 3001, 128, visits, &r);
    budget_one(vranks, "connect4 budget 777/1000", gts_game_connect4(), st, 777, 1000, visits,
               &r);
    gts_games_free(gts_game_connect4(), st);
}

/*
 * Sharing below the root (share_plies): after a run, rank 0's tree holds
 * below the most visited root move m (whose merged visits V are every
 * rank's playouts through m) about V playouts with share_plies 2 (m is
 * shared from the first merge on: each rank's children of m hold the
 * others' playouts too), and about V / P with share_plies 1 (the root
 * only: its own). The reference is the merged root visits.
 */
static double shared_ratio(int vranks, const gts_game *g, void *st, int64_t plies)
{
    int k = local(vranks);
    gts_engine *es[VMAX];
    engines_new(es, k, 8192 * (int64_t)(vranks > 0 ? vranks : size), 5);
    gts_mpi_mcts_options opt = {.struct_size = sizeof opt, .sync_playouts = 512,
                                .share_plies = plies};
    gts_result r = result_new();
    gts_status rc = run(vranks, es, g, st, NULL, &opt, &r, NULL);
    CHECK(rc == GTS_OK, "share_plies %lld: %s", (long long)plies, gts_strerror(rc));
    gts_mcts_move_stats ms[CAP];
    uint64_t total;
    int n = root_stats(es[0], ms, &total), best = 0;
    for (int i = 1; i < n; i++)
        if (ms[i].visits > ms[best].visits)
            best = i;
    gts_mcts_move_stats below[CAP];
    memset(below, 0, sizeof below);
    below[0].struct_size = sizeof below[0];
    int m = gts_mcts_node_stats(es[0], &ms[best].move, 1, below, CAP);
    CHECK(n > 0 && m > 0, "share_plies %lld: no tree below the root (%d, %d)", (long long)plies,
          n, m);
    uint64_t sum = 0;
    for (int i = 0; i < m && i < CAP; i++)
        sum += below[i].visits;
    engines_free(es, k);
    return n > 0 && ms[best].visits ? (double)sum / (double)ms[best].visits : 0.0;
}

/* A game that lists the moves of every position but the root in reverse
 * on this process (rv_on): the same positions, another order. The root is
 * told by its hash (MCTS applies moves to clones it never undoes). */
static const gts_game *rv_inner;
static uint64_t rv_root;
static bool rv_on;

static int rv_generate(void *s, gts_move *m, uint32_t cap, void *u)
{
    (void)u;
    int n = rv_inner->generate(s, m, cap, rv_inner->user);
    if (rv_on && n > 1 && rv_inner->hash(s, rv_inner->user) != rv_root)
        for (int i = 0; i < n / 2; i++) {
            gts_move t = m[i];
            m[i] = m[n - 1 - i];
            m[n - 1 - i] = t;
        }
    return n;
}

/* Processes whose games list the moves below the root in other orders
 * lay the shared nodes' arrays out differently: every rank gets
 * GTS_EINVAL at the merge after such a node is shared (it merged them as
 * if they were alike, silently), and the same game in the same order on
 * every process searches as before. MPI with 2 processes or more. */
static void layout_suite(void)
{
    void *st = NULL;
    if (size < 2 || gts_connect4_new("44", &st) != GTS_OK)
        return;
    rv_inner = gts_game_connect4();
    rv_root = rv_inner->hash(st, rv_inner->user);
    gts_game rv = *rv_inner;
    rv.generate = rv_generate;
    rv.generate_keyed = NULL;
    for (int other = 1; other >= 0; other--) {
        gts_engine *es[1];
        engines_new(es, 1, 20000, 1);
        rv_on = other && rank == size - 1;
        gts_mpi_mcts_options opt = {.struct_size = sizeof opt, .sync_playouts = 512,
                                    .share_plies = 2};
        gts_result r = result_new();
        gts_mpi_mcts_stats s = stats_new();
        gts_status rc = run(0, es, &rv, st, NULL, &opt, &r, &s);
        CHECK(rc == (other ? GTS_EINVAL : GTS_OK),
              "moves below the root in %s order on rank %d: %s (%llu merges)",
              other ? "another" : "the same", size - 1, gts_strerror(rc),
              (unsigned long long)s.merges);
        CHECK(rv_inner->hash(st, rv_inner->user) == rv_root, "layout: root not restored");
        engines_free(es, 1);
    }
    rv_on = false;
    gts_games_free(gts_game_connect4(), st);
}

static void share_suite(int vranks)
{
    int P = vranks > 0 ? vranks : size;
    void *st = NULL;
    if (P < 2 || gts_connect4_new("44", &st) != GTS_OK)
        return;
    double root_only = shared_ratio(vranks, gts_game_connect4(), st, 1);
    double shared = shared_ratio(vranks, gts_game_connect4(), st, 2);
    CHECK(shared >= 0.8 && root_only <= 1.0 / P + 0.15,
          "%d ranks: below the most visited root move rank 0 holds %.2f of its playouts "
          "with share_plies 2 (want >= 0.8), %.2f with 1 (want about 1/%d)", P, shared,
          root_only, P);
    /* bad values: everyone's status */
    gts_engine *es[VMAX];
    int k = local(vranks);
    engines_new(es, k, 1000, 1);
    static const int64_t BAD[][2] = { { -1, 0 }, { 9, 0 }, { 0, -1 }, { 0, 1001 } };
    for (int i = 0; i < 4; i++) {
        gts_mpi_mcts_options opt = {.struct_size = sizeof opt, .share_plies = BAD[i][0],
                                    .share_permille = BAD[i][1]};
        gts_result r = result_new();
        gts_status rc = run(vranks, es, gts_game_connect4(), st, NULL, &opt, &r, NULL);
        CHECK(rc == GTS_ERANGE, "share_plies %lld, share_permille %lld: %s",
              (long long)BAD[i][0], (long long)BAD[i][1], gts_strerror(rc));
    }
    engines_free(es, k);
    gts_games_free(gts_game_connect4(), st);
}


/* ---- tree reuse across searches ------------------------------------------------- */

/* A sum over the ranks (one value per process; virtual ranks: local). */
static uint64_t sum_ranks(int vranks, uint64_t v)
{
    uint64_t t = v;
    if (use_mpi && vranks == 0)
        MPI_Allreduce(&v, &t, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return t;
}

/* Every engine's tree, below every root move m: its children's visits sum
 * to at most m's visits (what a kept tree held there counts once: the
 * merges never send it again). */
static void no_double_count(const char *what, gts_engine **es, int k)
{
    for (int e = 0; e < k; e++) {
        gts_mcts_move_stats ms[CAP];
        uint64_t total;
        int n = root_stats(es[e], ms, &total);
        for (int i = 0; i < n && i < CAP; i++) {
            gts_mcts_move_stats below[CAP];
            memset(below, 0, sizeof below);
            below[0].struct_size = sizeof below[0];
            int m = gts_mcts_node_stats(es[e], &ms[i].move, 1, below, CAP);
            uint64_t sum = 0;
            for (int j = 0; j < m && j < CAP; j++)
                sum += below[j].visits;
            CHECK(sum <= ms[i].visits, "%s: engine %d, move %d: children %llu > visits %llu",
                  what, e, i, (unsigned long long)sum, (unsigned long long)ms[i].visits);
        }
    }
}

/*
 * Tree reuse (gts_mcts_advance between two searches): from Connect-4
 * @pos, a search of @budget playouts, then every engine advanced by
 * @nplay moves (the first search's pv: its move and the reply it
 * expects; 0: the same position again), then a second search. With
 * @reuse every rank continues its tree: the kept root held visits on
 * every rank (advance's count), reused_ranks == P, kept_visits their sum,
 * and each engine's root visits afterwards are its own kept visits plus
 * the playouts of all ranks (the merges send nothing twice); without,
 * every rank starts fresh (root visits == playouts). Returns the second
 * search's visits per root move (rank 0's engine) in @visits.
 */
static void reuse_one(int vranks, const char *what, const char *pos, int64_t budget, int nplay,
                      bool reuse, int64_t plies, uint64_t *visits, gts_result *out)
{
    void *st = NULL;
    if (gts_connect4_new(pos, &st) != GTS_OK)
        abort();
    const gts_game *g = gts_game_connect4();
    int k = local(vranks), P = vranks > 0 ? vranks : size;
    gts_engine *es[VMAX];
    engines_new(es, k, budget, 3);
    for (int i = 0; i < k; i++)
        gts_engine_set(es[i], GTS_OPT_MCTS_REUSE, reuse);
    gts_mpi_mcts_options opt = {.struct_size = sizeof opt, .sync_playouts = 128,
                                .share_plies = plies};
    gts_result r = result_new();
    gts_mpi_mcts_stats s = stats_new();
    gts_status rc = run(vranks, es, g, st, NULL, &opt, &r, &s);
    CHECK(rc == GTS_OK, "%s: first search: %s", what, gts_strerror(rc));
    CHECK(s.reused_ranks == 0 && s.kept_visits == 0, "%s: first search reused %d ranks", what,
          s.reused_ranks);
    gts_move play[2];
    for (int i = 0; i < nplay; i++) {
        play[i] = r.pv_length > (uint32_t)i ? r.pv[i] : (gts_move)3;
        CHECK(g->apply(st, play[i], g->user) == 0, "%s: move %d", what, i);
    }
    /* Step 1. Every engine follows the moves (the same on every rank);
     * kept[i]: the visits of the kept root's children */
    uint64_t kept[VMAX] = { 0 }, kept_all = 0;
    for (int i = 0; i < k; i++) {
        uint64_t v = 0;
        int a = gts_mcts_advance(es[i], play, nplay, &v);
        CHECK(a == (reuse ? 1 : 0), "%s: advance on engine %d: %d", what, i, a);
        CHECK(!reuse || v > 0, "%s: engine %d keeps no visits", what, i);
        gts_mcts_move_stats ks[CAP];
        memset(ks, 0, sizeof ks);
        ks[0].struct_size = sizeof ks[0];
        int n = gts_mcts_node_stats(es[i], NULL, 0, ks, CAP);
        for (int j = 0; j < n && j < CAP; j++)
            kept[i] += ks[j].visits;
        kept_all += kept[i];
    }
    kept_all = sum_ranks(vranks, kept_all);
    /* Step 2. The second search continues them */
    r = result_new();
    s = stats_new();
    rc = run(vranks, es, g, st, NULL, &opt, &r, &s);
    CHECK(rc == GTS_OK, "%s: second search: %s", what, gts_strerror(rc));
    CHECK(s.playouts == (uint64_t)budget || r.depth == GTS_MAX_DEPTH, "%s: %llu playouts",
          what, (unsigned long long)s.playouts);
    CHECK(s.reused_ranks == (reuse ? P : 0), "%s: reused_ranks %d of %d", what, s.reused_ranks,
          P);
    CHECK(s.kept_visits == (reuse ? kept_all : 0), "%s: kept_visits %llu, advance said %llu",
          what, (unsigned long long)s.kept_visits, (unsigned long long)kept_all);
    for (int i = 0; i < k; i++) {
        gts_mcts_move_stats ms[CAP];
        uint64_t total;
        root_stats(es[i], ms, &total);
        CHECK(total == kept[i] + s.playouts,
              "%s: engine %d's root visits %llu, kept %llu + playouts of all %llu", what, i,
              (unsigned long long)total, (unsigned long long)kept[i],
              (unsigned long long)s.playouts);
    }
    no_double_count(what, es, k);
    if (vranks == 0)
        same_everywhere(what, &r);
    gts_mcts_move_stats ms[CAP];
    int n = root_stats(es[0], ms, &(uint64_t){ 0 });
    for (int i = 0; i < n && i < CAP && visits; i++)
        visits[i] = ms[i].visits;
    if (out)
        *out = r;
    engines_free(es, k);
    gts_games_free(g, st);
}

static int generate_count(const gts_game *g, void *st)
{
    gts_move buf[CAP];
    return g->generate(st, buf, CAP, g->user);
}

/* A proof after tree reuse: a partial search, then the position after its
 * move and the reply solved by a search that continues the trees: the
 * value of serial alpha-beta, a move leading to it. */
static void reuse_solved(int vranks, const char *what, const gts_game *g, void *st,
                         int64_t first)
{
    int k = local(vranks);
    gts_engine *es[VMAX];
    engines_new(es, k, first, 7);
    gts_mpi_mcts_options opt = {.struct_size = sizeof opt, .sync_playouts = 16};
    gts_result r = result_new();
    gts_status rc = run(vranks, es, g, st, NULL, &opt, &r, NULL);
    CHECK(rc == GTS_OK && (r.flags & GTS_RESULT_HAS_MOVE), "%s: first search: %s", what,
          gts_strerror(rc));
    gts_move play[2] = { r.best_move, 0 };
    int nplay = 1;
    if (g->apply(st, play[0], g->user) != 0) {
        CHECK(false, "%s: move", what);
        engines_free(es, k);
        return;
    }
    gts_move buf[CAP];
    int nm = g->generate(st, buf, CAP, g->user);
    if (nm > 0) { /* the reply the tree expects, else the first */
        play[1] = r.pv_length > 1 ? r.pv[1] : buf[0];
        if (g->apply(st, play[1], g->user) == 0)
            nplay = 2;
    }
    for (int i = 0; i < k; i++) {
        gts_engine_set(es[i], GTS_OPT_MCTS_PLAYOUTS, 0);
        gts_mcts_advance(es[i], play, nplay, NULL);
    }
    r = result_new();
    gts_mpi_mcts_stats s = stats_new();
    rc = run(vranks, es, g, st, NULL, &opt, &r, &s);
    CHECK(rc == GTS_OK, "%s: second search: %s", what, gts_strerror(rc));
    if (rank == 0 && generate_count(g, st) > 0) {
        gts_score ref = serial_value(g, st, 0);
        CHECK(r.score == ref, "%s: score %d after reuse, minimax %d", what, r.score, ref);
        CHECK(r.depth == GTS_MAX_DEPTH, "%s: depth %d, want the proof's", what, r.depth);
        if (g->apply(st, r.best_move, g->user) == 0) {
            gts_score after = -serial_value(g, st, 0);
            g->undo(st, r.best_move, g->user);
            /* a decided score one ply further from the root */
            after = after >= GTS_SCORE_DECIDED ? after - 1 : after <= -GTS_SCORE_DECIDED ? after + 1 : after;
            CHECK(after == ref, "%s: best move gives %d, not %d", what, after, ref);
        } else {
            CHECK(false, "%s: best move illegal", what);
        }
    }
    if (vranks == 0)
        same_everywhere(what, &r);
    for (int i = nplay - 1; i >= 0; i--)
        g->undo(st, play[i], g->user);
    engines_free(es, k);
}

static void reuse_suite(int vranks)
{
    char what[96];
    int P = vranks > 0 ? vranks : size;
    /* the move and the reply; the same position again (the nodes shared
     * in the first search are still below the root: their kept
     * statistics must not be sent again when they are shared again) */
    for (int64_t plies = 1; plies <= 3; plies += 2) {
        snprintf(what, sizeof what, "reuse, 2 moves, share_plies %lld", (long long)plies);
        reuse_one(vranks, what, "44", 1000 * (int64_t)P, 2, true, plies, NULL, NULL);
        snprintf(what, sizeof what, "reuse, 0 moves, share_plies %lld", (long long)plies);
        reuse_one(vranks, what, "44", 1000 * (int64_t)P, 0, true, plies, NULL, NULL);
    }
    reuse_one(vranks, "mcts_reuse 0", "44", 1000 * (int64_t)P, 2, false, 0, NULL, NULL);
    /* exact values unaffected */
    void *st = NULL;
    if (gts_tictactoe_new("", &st) != GTS_OK)
        abort();
    reuse_solved(vranks, "tictactoe after reuse", gts_game_tictactoe(), st, 60);
    gts_games_free(gts_game_tictactoe(), st);
    for (uint64_t seed = 1; seed <= 2; seed++) {
        gts_randtree_params p = {.struct_size = sizeof p, .seed = seed, .branching = 4,
                                 .depth = 6, .min_value = -50, .max_value = 50};
        if (gts_randtree_new(&p, &st) != GTS_OK)
            abort();
        snprintf(what, sizeof what, "randtree %llu after reuse", (unsigned long long)seed);
        reuse_solved(vranks, what, gts_game_randtree(), st, 40);
        gts_games_free(gts_game_randtree(), st);
    }
    /* moves the trees never saw: a first search of 2 playouts a rank
     * expands no node below the root, so no rank can follow a move and a
     * reply; every rank starts fresh */
    if (gts_connect4_new("", &st) != GTS_OK)
        abort();
    const gts_game *g = gts_game_connect4();
    int k = local(vranks);
    gts_engine *es[VMAX];
    engines_new(es, k, 2 * (int64_t)P, 3);
    gts_mpi_mcts_options opt = {.struct_size = sizeof opt, .sync_playouts = 2};
    gts_result r = result_new();
    CHECK(run(vranks, es, g, st, NULL, &opt, &r, NULL) == GTS_OK, "unseen: first search");
    gts_move play[2] = { 0, 0 };
    g->apply(st, play[0], g->user);
    g->apply(st, play[1], g->user);
    for (int i = 0; i < k; i++) {
        int a = gts_mcts_advance(es[i], play, 2, NULL);
        CHECK(a == 0, "unseen: advance on engine %d: %d, want 0 (no such node)", i, a);
        gts_engine_set(es[i], GTS_OPT_MCTS_PLAYOUTS, 500 * (int64_t)P);
    }
    gts_mpi_mcts_stats s = stats_new();
    r = result_new();
    CHECK(run(vranks, es, g, st, NULL, &opt, &r, &s) == GTS_OK, "unseen: second search");
    CHECK(s.reused_ranks == 0 && s.playouts == 500 * (uint64_t)P,
          "unseen: reused_ranks %d, playouts %llu", s.reused_ranks,
          (unsigned long long)s.playouts);
    for (int i = 0; i < k; i++) {
        gts_mcts_move_stats ms[CAP];
        uint64_t total;
        root_stats(es[i], ms, &total);
        CHECK(total == s.playouts, "unseen: engine %d's root visits %llu, playouts %llu", i,
              (unsigned long long)total, (unsigned long long)s.playouts);
    }
    /* one rank advanced, the others not (a caller that forgot them):
     * that rank alone continues its tree, the counts stay exact */
    g->undo(st, play[1], g->user);
    g->undo(st, play[0], g->user);
    engines_free(es, k);
    engines_new(es, k, 400 * (int64_t)P, 3);
    opt.sync_playouts = 64;
    CHECK(run(vranks, es, g, st, NULL, &opt, &r, NULL) == GTS_OK, "one rank: first search");
    uint64_t kept = 0;
    if (rank == 0)
        CHECK(gts_mcts_advance(es[0], NULL, 0, &kept) == 1 && kept == 400 * (uint64_t)P,
              "one rank: advance kept %llu", (unsigned long long)kept);
    s = stats_new();
    CHECK(run(vranks, es, g, st, NULL, &opt, &r, &s) == GTS_OK, "one rank: second search");
    CHECK(s.reused_ranks == 1, "one rank: reused_ranks %d", s.reused_ranks);
    for (int i = 0; i < k; i++) {
        gts_mcts_move_stats ms[CAP];
        uint64_t total;
        root_stats(es[i], ms, &total);
        uint64_t want = s.playouts + (rank == 0 && i == 0 ? kept : 0);
        CHECK(total == want, "one rank: engine %d's root visits %llu, want %llu", i,
              (unsigned long long)total, (unsigned long long)want);
    }
    engines_free(es, k);
    gts_games_free(g, st);
}

static void test_exact(void)
{
    exact_suite(0);
    share_suite(0);
    layout_suite();
    reuse_suite(0);
    /* Virtual ranks at the communicator's size on rank 0 do what the real
     * ranks did: same visits per root move (same merges, same order). */
    void *st = NULL;
    if (gts_connect4_new("44", &st) != GTS_OK)
        abort();
    uint64_t real[CAP], virt[CAP];
    gts_result rr, rv;
    budget_one(0, "connect4 real", gts_game_connect4(), st, 4000, 256, real, &rr);
    if (rank == 0) {
        budget_one(size, "connect4 virtual", gts_game_connect4(), st, 4000, 256, virt, &rv);
        for (int i = 0; i < 7; i++)
            CHECK(real[i] == virt[i], "virtual at %d: move %d visits %llu, real %llu", size, i,
                  (unsigned long long)virt[i], (unsigned long long)real[i]);
        CHECK(rr.best_move == rv.best_move && rr.score == rv.score,
              "virtual at %d: result differs from the real ranks'", size);
    }
    gts_games_free(gts_game_connect4(), st);
    /* ... also when every rank continues its tree (tree reuse) */
    reuse_one(0, "reuse real", "44", 1000 * (int64_t)size, 2, true, 0, real, &rr);
    if (rank == 0) {
        reuse_one(size, "reuse virtual", "44", 1000 * (int64_t)size, 2, true, 0, virt, &rv);
        for (int i = 0; i < 7; i++)
            CHECK(real[i] == virt[i], "reuse, virtual at %d: move %d visits %llu, real %llu",
                  size, i, (unsigned long long)virt[i], (unsigned long long)real[i]);
        CHECK(rr.best_move == rv.best_move && rr.score == rv.score,
              "reuse, virtual at %d: result differs from the real ranks'", size);
    }
}

/* ---- failures, stops, limits, arguments ---------------------------------------- */

typedef struct wrapped {
    gts_game g;
    const gts_game *inner;
    long calls, fail_at, stop_at;
    gts_engine *engine;
    bool slow_first; /* the first generate() takes 5 ms */
} wrapped;
static wrapped *wctx;

static int w_generate(void *s, gts_move *m, uint32_t cap, void *u)
{
    (void)u;
    wctx->calls++;
    if (wctx->slow_first && wctx->calls == 1)
        nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
    if (wctx->fail_at > 0 && wctx->calls >= wctx->fail_at)
        return -42;
    if (wctx->stop_at > 0 && wctx->calls == wctx->stop_at)
        gts_engine_stop(wctx->engine);
    return wctx->inner->generate(s, m, cap, wctx->inner->user);
}

static void wrap(wrapped *w, const gts_game *inner, long fail_at, long stop_at, gts_engine *e)
{
    w->g = *inner;
    w->inner = inner;
    w->calls = 0;
    w->fail_at = fail_at;
    w->stop_at = stop_at;
    w->engine = e;
    w->slow_first = false;
    w->g.generate = w_generate;
    w->g.generate_keyed = NULL;
    wctx = w;
}

static void fail_one(int vranks, int bad)
{
    void *st = NULL;
    if (gts_connect4_new("", &st) != GTS_OK)
        abort();
    const gts_game *c4 = gts_game_connect4();
    uint64_t h = c4->hash(st, c4->user);
    gts_engine *es[VMAX];
    int k = local(vranks);
    engines_new(es, k, 20000, 1);
    wrapped w;
    /* virtual: the k-th generate() of the run fails, whichever rank calls it */
    wrap(&w, c4, rank == bad || vranks > 0 ? 3000 : 0, 0, NULL);
    gts_result r = result_new();
    gts_status s = run(vranks, es, &w.g, st, NULL, NULL, &r, NULL);
    CHECK(s == GTS_ECALLBACK, "failing rank %d: %s", bad, gts_strerror(s));
    CHECK(r.callback_status == -42, "failing rank %d: callback_status %d", bad,
          r.callback_status);
    CHECK(c4->hash(st, c4->user) == h, "failing rank %d: root not restored", bad);
    wrap(&w, c4, 0, 0, NULL);
    r = result_new();
    gts_engine_set(es[0], GTS_OPT_MCTS_PLAYOUTS, 2000);
    s = run(vranks, es, &w.g, st, NULL, NULL, &r, NULL);
    CHECK(s == GTS_OK, "after a failure: %s", gts_strerror(s));
    engines_free(es, k);
    gts_games_free(c4, st);
}

static void stop_suite(int vranks)
{
    void *st = NULL;
    if (gts_connect4_new("", &st) != GTS_OK)
        abort();
    const gts_game *c4 = gts_game_connect4();
    uint64_t h = c4->hash(st, c4->user);
    gts_engine *es[VMAX];
    int k = local(vranks);
    int last = vranks > 0 ? vranks - 1 : size - 1;
    engines_new(es, k, 0, 1); /* no budget: only a stop or a limit ends it */
    wrapped w;
    /* a stop from the last rank's game callback (its engine) */
    wrap(&w, c4, 0, rank == (vranks > 0 ? 0 : last) ? 5000 : 0, es[k - 1]);
    gts_result r = result_new();
    gts_mpi_mcts_stats s = stats_new();
    gts_status rc = run(vranks, es, &w.g, st, NULL, NULL, &r, &s);
    CHECK(rc == GTS_OK, "stop: %s", gts_strerror(rc));
    CHECK(r.flags & GTS_RESULT_STOPPED, "stop: flags %#x", r.flags);
    CHECK(r.flags & GTS_RESULT_HAS_MOVE, "stop: no move");
    CHECK(c4->hash(st, c4->user) == h, "stop: root not restored");
    same_everywhere("stop", &r);
    /* a node limit over all ranks */
    gts_limits lim = {.struct_size = sizeof lim, .nodes = 200000};
    r = result_new();
    s = stats_new();
    rc = run(vranks, es, c4, st, &lim, NULL, &r, &s);
    CHECK(rc == GTS_OK && (r.flags & GTS_RESULT_NODE_LIMIT), "node limit: %s, flags %#x",
          gts_strerror(rc), r.flags);
    CHECK(r.nodes >= 200000 && r.nodes < 200000 + 200000 / 2, "node limit: %llu nodes",
          (unsigned long long)r.nodes);
    CHECK(r.nodes == s.nodes, "node limit: result %llu, stats %llu",
          (unsigned long long)r.nodes, (unsigned long long)s.nodes);
    same_everywhere("node limit", &r);
    /* a time limit (its flag; the time itself is not asserted) */
    lim = (gts_limits){.struct_size = sizeof lim, .time_ms = 100};
    gts_mpi_mcts_options opt = {.struct_size = sizeof opt, .sync_ms = 20};
    r = result_new();
    rc = run(vranks, es, c4, st, &lim, &opt, &r, NULL);
    CHECK(rc == GTS_OK && (r.flags & GTS_RESULT_TIME_LIMIT), "time limit: %s, flags %#x",
          gts_strerror(rc), r.flags);
    same_everywhere("time limit", &r);
    /* the time is up before the first round (the root's generate() took
     * it): still a legal move, as gts_mcts() gives one without a playout */
    wrap(&w, c4, 0, 0, NULL);
    w.slow_first = true;
    lim = (gts_limits){.struct_size = sizeof lim, .time_ms = 1};
    r = result_new();
    rc = run(vranks, es, &w.g, st, &lim, NULL, &r, NULL);
    CHECK(rc == GTS_OK && (r.flags & GTS_RESULT_HAS_MOVE) && (r.flags & GTS_RESULT_TIME_LIMIT),
          "time up at once: %s, flags %#x", gts_strerror(rc), r.flags);
    gts_move first[16];
    CHECK(c4->generate(st, first, 16, c4->user) > 0 && r.best_move == first[0] && r.depth == 0,
          "time up at once: move %llu depth %d, want the first move, depth 0",
          (unsigned long long)r.best_move, r.depth);
    same_everywhere("time up at once", &r);
    /* bad arguments on one rank: everyone's status */
    lim = (gts_limits){.struct_size = sizeof lim, .depth = (rank == last || vranks) ? 5 : 0};
    r = result_new();
    rc = run(vranks, es, c4, st, &lim, NULL, &r, NULL);
    CHECK(rc == GTS_ENOTSUP, "depth limit on rank %d: %s", last, gts_strerror(rc));
    opt = (gts_mpi_mcts_options){.struct_size = sizeof opt,
                                 .sync_playouts = (rank == last || vranks) ? -1 : 0};
    rc = run(vranks, es, c4, st, NULL, &opt, &r, NULL);
    CHECK(rc == GTS_ERANGE, "sync_playouts -1 on rank %d: %s", last, gts_strerror(rc));
    opt.struct_size = (rank == last || vranks) ? 3 : sizeof opt;
    opt.sync_playouts = 0;
    rc = run(vranks, es, c4, st, NULL, &opt, &r, NULL);
    CHECK(rc == GTS_ESTRUCT, "options struct_size 3 on rank %d: %s", last, gts_strerror(rc));
    rc = run(vranks, es, (rank == last || vranks) ? NULL : c4, st, NULL, NULL, &r, NULL);
    CHECK(rc == GTS_EINVAL, "NULL game on rank %d: %s", last, gts_strerror(rc));
    /* another root with as many moves on one rank (the empty board and
     * one disc in the middle: 7 moves each): refused on every rank, where
     * the move count alone let the ranks merge different positions */
    void *other = NULL;
    if (vranks == 0 && size > 1 && gts_connect4_new("4", &other) == GTS_OK) {
        gts_move a[16], b[16];
        CHECK(c4->generate(st, a, 16, c4->user) == c4->generate(other, b, 16, c4->user),
              "the two roots have different move counts");
        r = result_new();
        lim = (gts_limits){.struct_size = sizeof lim, .nodes = 20000}; /* no budget here */
        rc = run(vranks, es, c4, rank == last ? other : st, &lim, NULL, &r, NULL);
        CHECK(rc == GTS_EINVAL, "another root on rank %d: %s", last, gts_strerror(rc));
        gts_games_free(c4, other);
    }
    if (vranks > 1) {
        gts_engine *twice[2] = { es[0], es[0] };
        rc = gts_mpi_mcts_virtual(2, twice, c4, st, NULL, NULL, &r, NULL);
        CHECK(rc == GTS_EINVAL, "one engine twice: %s", gts_strerror(rc));
        rc = gts_mpi_mcts_virtual(0, es, c4, st, NULL, NULL, &r, NULL);
        CHECK(rc == GTS_ERANGE, "0 ranks: %s", gts_strerror(rc));
    }
    /* a finished game: no move, as gts_mcts() */
    void *full = NULL;
    if (gts_tictactoe_new("123546879", &full) == GTS_OK) {
        r = result_new();
        rc = run(vranks, es, gts_game_tictactoe(), full, NULL, NULL, &r, NULL);
        CHECK(rc == GTS_OK && !(r.flags & GTS_RESULT_HAS_MOVE), "finished game: %s, flags %#x",
              gts_strerror(rc), r.flags);
        gts_games_free(gts_game_tictactoe(), full);
    }
    engines_free(es, k);
    gts_games_free(c4, st);
}

static void test_fail(void)
{
    fail_one(0, size - 1);
    fail_one(0, 0);
}

static void test_stop(void)
{
    stop_suite(0);
}

static void test_virtual(void)
{
    static const int RANKS[] = { 1, 2, 3, 8 };
    for (size_t i = 0; i < sizeof RANKS / sizeof RANKS[0]; i++) {
        exact_suite(RANKS[i]);
        share_suite(RANKS[i]);
        reuse_suite(RANKS[i]);
        fail_one(RANKS[i], 0);
        stop_suite(RANKS[i]);
    }
}

/* ---- measures ----------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Playouts per virtual time at 1..64 virtual ranks, each rank doing
 * @per playouts (the same work per rank as the one-rank run). */
static void test_vbench(void)
{
    static const char *const POS[] = { "connect4", "44", "othello", "" };
    /* speedup_l1000: the same with every merge costing 1000 nodes of
     * virtual time (a cluster's allreduce against ~0.1-0.2 us a node) */
    printf("game,ranks,sync,playouts,nodes,merges,virtual_time,speedup,efficiency,"
           "speedup_l1000\n");
    for (int p = 0; p < 2; p++) {
        const char *name = POS[2 * p];
        const gts_game *g = gts_games_find(name);
        void *st = NULL;
        if (!g || gts_games_position_new(name, NULL, POS[2 * p + 1], &st, NULL, 0) != GTS_OK)
            abort();
        static const int64_t SYNCS[] = { 256, 1024 };
        for (int si = 0; si < 2; si++) {
            double base = 0;
            for (int ranks = 1; ranks <= VMAX; ranks *= 2) {
                int64_t per = 8192;
                gts_engine *es[VMAX];
                engines_new(es, ranks, per * ranks, 1);
                gts_mpi_mcts_options opt = {.struct_size = sizeof opt,
                                            .sync_playouts = SYNCS[si]};
                gts_result r = result_new();
                gts_mpi_mcts_stats s = stats_new();
                gts_status rc = gts_mpi_mcts_virtual(ranks, es, g, st, NULL, &opt, &r, &s);
                CHECK(rc == GTS_OK, "vbench: %s", gts_strerror(rc));
                double rate = (double)s.playouts / (double)s.virtual_time;
                double rate_l = (double)s.playouts
                                / (double)(s.virtual_time + 1000 * s.merges);
                if (ranks == 1)
                    base = rate;
                printf("%s,%d,%lld,%llu,%llu,%llu,%llu,%.2f,%.3f,%.2f\n", name, ranks,
                       (long long)SYNCS[si], (unsigned long long)s.playouts,
                       (unsigned long long)s.nodes, (unsigned long long)s.merges,
                       (unsigned long long)s.virtual_time, rate / base, rate / base / ranks,
                       rate_l / base);
                fflush(stdout);
                engines_free(es, ranks);
            }
        }
        gts_games_free(g, st);
    }
}

/* Playouts per second of all ranks, real ranks, @secs per position. */
static void test_bench(void)
{
    const gts_game *g = gts_games_find("connect4");
    void *st = NULL;
    if (gts_games_position_new("connect4", NULL, "44", &st, NULL, 0) != GTS_OK)
        abort();
    gts_engine *e = engine_new(0, 1);
    gts_limits lim = {.struct_size = sizeof lim, .time_ms = 3000};
    gts_mpi_mcts_options opt = {.struct_size = sizeof opt, .sync_ms = 50};
    gts_result r = result_new();
    gts_mpi_mcts_stats s = stats_new();
    struct timespec c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    double t0 = now_s();
    gts_status rc = gts_mpi_mcts(MPI_COMM_WORLD, e, g, st, &lim, &opt, &r, &s);
    double t = now_s() - t0;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9, all = 0;
    MPI_Reduce(&cpu, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    CHECK(rc == GTS_OK, "bench: %s", gts_strerror(rc));
    /* CPU seconds of all ranks: what the ranks got of a loaded machine */
    if (rank == 0)
        printf("ranks,seconds,cpu_seconds,merges,playouts,playouts_per_s,playouts_per_cpu_s\n"
               "%d,%.2f,%.2f,%llu,%llu,%.0f,%.0f\n",
               size, t, all, (unsigned long long)s.merges, (unsigned long long)s.playouts,
               (double)s.playouts / t, (double)s.playouts / all);
    gts_engine_free(e);
    gts_games_free(g, st);
}

/* Games at equal time per move: all ranks (gts_mpi_mcts) against rank 0
 * alone (gts_mcts), colours alternating, Connect-4 from a few openings.
 * argv: games, ms per move. */
static void test_match(int games, int ms, int sync_ms)
{
    uint64_t dist_playouts = 0, solo_playouts = 0, dist_moves = 0, solo_moves = 0;
    static const char *const OPEN[] = { "", "4", "3", "5", "44", "43", "45", "34" };
    const gts_game *g = gts_games_find("connect4");
    int wins = 0, draws = 0, losses = 0;
    gts_engine *e = engine_new(0, 1), *solo = engine_new(0, 7);
    for (int gi = 0; gi < games; gi++) {
        void *st = NULL;
        const char *open = OPEN[(gi / 2) % (int)(sizeof OPEN / sizeof OPEN[0])];
        if (gts_games_position_new("connect4", NULL, open, &st, NULL, 0) != GTS_OK)
            abort();
        int dist_side = gi % 2; /* 0: the distributed engine moves first */
        int ply = 0;
        gts_score result = 0;
        for (;;) {
            gts_move mv[16];
            int n = g->generate(st, mv, 16, g->user);
            if (n <= 0) {
                /* the side to move at a finished game: evaluate() says */
                gts_score v = g->evaluate(st, g->user);
                int mover_is_dist = (ply % 2) == dist_side;
                result = mover_is_dist ? v : -v;
                break;
            }
            bool dist = (ply % 2) == dist_side;
            gts_limits lim = {.struct_size = sizeof lim, .time_ms = (uint64_t)ms};
            gts_result r = result_new();
            gts_mpi_mcts_options opt = {.struct_size = sizeof opt, .sync_ms = sync_ms};
            gts_status rc;
            int64_t move = 0;
            if (dist) {
                gts_mpi_mcts_stats s = stats_new();
                rc = gts_mpi_mcts(MPI_COMM_WORLD, e, g, st, &lim, sync_ms ? &opt : NULL, &r, &s);
                move = (int64_t)r.best_move;
                dist_playouts += s.playouts;
                dist_moves++;
            } else {
                if (rank == 0) {
                    rc = gts_mcts(solo, g, st, &lim, &r);
                    move = (int64_t)r.best_move;
                    gts_mcts_move_stats mst[CAP];
                    uint64_t total;
                    root_stats(solo, mst, &total);
                    solo_playouts += total;
                    solo_moves++;
                } else {
                    rc = GTS_OK;
                }
                /* the others wait without spinning: the one rank's search
                 * gets the machine */
                MPI_Request req;
                MPI_Ibcast(&move, 1, MPI_INT64_T, 0, MPI_COMM_WORLD, &req);
                for (int done = 0;;) {
                    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
                    if (done)
                        break;
                    nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
                }
            }
            CHECK(rc == GTS_OK, "match: %s", gts_strerror(rc));
            if (g->apply(st, (gts_move)move, g->user) < 0)
                abort();
            ply++;
        }
        if (result > 0)
            wins++;
        else if (result < 0)
            losses++;
        else
            draws++;
        gts_games_free(g, st);
    }
    if (rank == 0)
        printf("ranks,games,ms_per_move,sync_ms,wins,draws,losses,score,"
               "dist_playouts_per_move,solo_playouts_per_move\n"
               "%d,%d,%d,%d,%d,%d,%d,%.3f,%.0f,%.0f\n",
               size, games, ms, sync_ms, wins, draws, losses,
               (wins + 0.5 * draws) / (games ? games : 1),
               dist_moves ? (double)dist_playouts / (double)dist_moves : 0.0,
               solo_moves ? (double)solo_playouts / (double)solo_moves : 0.0);
    gts_engine_free(e);
    gts_engine_free(solo);
}

/* Games at equal virtual time per move, without MPI: @ranks virtual
 * ranks of @per playouts each (gts_mpi_mcts_virtual, merging every
 * @sync) against one engine of @per playouts (gts_mcts), colours
 * alternating, Connect-4 or Othello from a few openings. Deterministic. */
static void test_vmatch(const char *name, int ranks, int games, int64_t per, int64_t sync,
                        int64_t solo_per, int64_t share, int64_t permille)
{
    static const char *const C4[] = { "", "4", "3", "5", "44", "43", "45", "34" };
    static const char *const OTH[] = { "", "f5", "f5d6", "f5f6", "f5f4", "f5d6c3", "f5d6c5",
                                       "f5f6e6" };
    bool c4 = strcmp(name, "connect4") == 0;
    const gts_game *g = gts_games_find(name);
    int wins = 0, draws = 0, losses = 0;
    uint64_t dist_playouts = 0, solo_playouts = 0, dist_moves = 0, solo_moves = 0;
    gts_engine *es[VMAX];
    engines_new(es, ranks, per * ranks, 1);
    gts_engine *solo = engine_new(solo_per > 0 ? solo_per : per, 7);
    for (int gi = 0; gi < games; gi++) {
        void *st = NULL;
        const char *open = (c4 ? C4 : OTH)[(gi / 2) % 8];
        if (!g || gts_games_position_new(name, NULL, open, &st, NULL, 0) != GTS_OK)
            abort();
        int dist_side = gi % 2, ply = 0;
        gts_score result = 0;
        /* a seed per game: repeated openings give other games */
        for (int k = 0; k < ranks; k++)
            gts_engine_set(es[k], GTS_OPT_MCTS_SEED, 1000 + gi);
        gts_engine_set(solo, GTS_OPT_MCTS_SEED, 7 + gi);
        for (;;) {
            gts_move mv[64];
            int n = g->generate(st, mv, 64, g->user);
            if (n <= 0) {
                gts_score v = g->evaluate(st, g->user);
                result = (ply % 2) == dist_side ? v : -v;
                break;
            }
            gts_result r = result_new();
            gts_status rc;
            if ((ply % 2) == dist_side) {
                gts_mpi_mcts_options opt = {.struct_size = sizeof opt, .sync_playouts = sync,
                                            .share_plies = share,
                                            .share_permille = permille};
                gts_mpi_mcts_stats s = stats_new();
                rc = gts_mpi_mcts_virtual(ranks, es, g, st, NULL, &opt, &r, &s);
                dist_playouts += s.playouts;
                dist_moves++;
            } else {
                rc = gts_mcts(solo, g, st, NULL, &r);
                gts_mcts_move_stats ms[CAP];
                uint64_t total;
                root_stats(solo, ms, &total);
                solo_playouts += total;
                solo_moves++;
            }
            CHECK(rc == GTS_OK && (r.flags & GTS_RESULT_HAS_MOVE), "vmatch: %s", gts_strerror(rc));
            if (g->apply(st, r.best_move, g->user) < 0)
                abort();
            ply++;
        }
        if (result > 0)
            wins++;
        else if (result < 0)
            losses++;
        else
            draws++;
        gts_games_free(g, st);
    }
    printf("game,ranks,playouts_per_rank,sync,games,wins,draws,losses,score,"
           "dist_playouts_per_move,solo_playouts_per_move\n"
           "%s,%d,%lld,%lld,%d,%d,%d,%d,%.3f,%.0f,%.0f\n",
           name, ranks, (long long)per, (long long)sync, games, wins, draws, losses,
           (wins + 0.5 * draws) / (games ? games : 1),
           dist_moves ? (double)dist_playouts / (double)dist_moves : 0.0,
           solo_moves ? (double)solo_playouts / (double)solo_moves : 0.0);
    engines_free(es, ranks);
    gts_engine_free(solo);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "exact";
    if (strcmp(mode, "virtual") == 0 || strcmp(mode, "vbench") == 0
        || strcmp(mode, "vmatch") == 0) {
        size = 1;
        if (strcmp(mode, "virtual") == 0)
            test_virtual();
        else if (strcmp(mode, "vbench") == 0)
            test_vbench();
        else
            test_vmatch(argc > 2 ? argv[2] : "connect4", argc > 3 ? atoi(argv[3]) : 2,
                        argc > 4 ? atoi(argv[4]) : 16, argc > 5 ? atoll(argv[5]) : 2000,
                        argc > 6 ? atoll(argv[6]) : 256, argc > 7 ? atoll(argv[7]) : 0,
                        argc > 8 ? atoll(argv[8]) : 0, argc > 9 ? atoll(argv[9]) : 0);
        printf("test_mpi_mcts %s: %s\n", mode, failures ? "FAILED" : "ok");
        return failures ? 1 : 0;
    }
    mpi_check_begin(&argc, &argv);
    if (strcmp(mode, "exact") == 0)
        test_exact();
    else if (strcmp(mode, "fail") == 0)
        test_fail();
    else if (strcmp(mode, "stop") == 0)
        test_stop();
    else if (strcmp(mode, "bench") == 0)
        test_bench();
    else if (strcmp(mode, "match") == 0)
        test_match(argc > 2 ? atoi(argv[2]) : 8, argc > 3 ? atoi(argv[3]) : 500,
                   argc > 4 ? atoi(argv[4]) : 20);
    else {
        fprintf(stderr, "usage: test_mpi_mcts exact|fail|stop|bench|match [games ms] "
                        "(under mpirun), test_mpi_mcts virtual|vbench\n");
        failures++;
    }
    return mpi_check_end("test_mpi_mcts", mode);
}
