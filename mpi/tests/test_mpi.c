/*
 * test_mpi.c - tests of gts_mpi_search(), run under `mpirun -np N`.
 *
 *   test_mpi exact    random trees, Connect-4 and Othello positions: every
 *                     rank's score equals serial gts_alphabeta()'s (and, on
 *                     the small random trees, gts_minimax()'s), at several
 *                     master depths; rank 0's best move leads to that value.
 *   test_mpi fail     a callback fails on the last rank (and, separately,
 *                     on rank 0): every rank returns GTS_ECALLBACK with the
 *                     callback's status, and the root is restored.
 *   test_mpi args     bad arguments on one rank: every rank gets the status;
 *                     then a caller window (fail-soft bounds on both sides)
 *                     and a node budget (last complete iteration, flag).
 *   test_mpi stop     gts_engine_stop() during a search too long to end by
 *                     itself: from another thread of rank 0, from rank 0's
 *                     on_iteration (between leaf searches), and from the
 *                     last rank's game callback (a slave's engine). Every
 *                     rank returns GTS_OK with GTS_RESULT_STOPPED, the same
 *                     result, the root restored, and the last completed
 *                     iteration exact; a hang is caught by the meson
 *                     timeout, never by a clock here. Then the same engines
 *                     search to the end and equal serial alpha-beta.
 *   test_mpi die      the last rank exits in the middle of a search: the job
 *                     must end (the meson test expects a failure, under a
 *                     timeout), never hang.
 *   test_mpi bench    not a test: one CSV line per set-up (nodes per rank,
 *                     passes, leaf searches, messages), for doc/results.md.
 *
 * The serial reference runs on rank 0 with a fresh engine. Exit status 0
 * when every check passed on every rank.
 */
#include "gts_mpi.h"
#include "gts_games.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size, failures;

/* A set-up that cannot be built: the test itself is broken. */
static void die_at(int line)
{
    fprintf(stderr, "rank %d: cannot build the position at %s:%d\n", rank, __FILE__, line);
    MPI_Abort(MPI_COMM_WORLD, 99);
}

#define CHECK(cond, ...)                                                           \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "rank %d: FAIL %s:%d: ", rank, __FILE__, __LINE__);    \
            fprintf(stderr, __VA_ARGS__);                                          \
            fputc('\n', stderr);                                                   \
            failures++;                                                            \
        }                                                                          \
    } while (0)

static gts_engine *engine_new(int64_t iterative)
{
    gts_engine *e = NULL;
    if (gts_engine_new(&e) != GTS_OK)
        abort();
    gts_engine_set(e, GTS_OPT_TT_MB, 4);
    gts_engine_set(e, GTS_OPT_ITERATIVE, iterative);
    return e;
}

static gts_limits limits_of(int depth)
{
    gts_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.struct_size = sizeof lim;
    lim.depth = depth;
    return lim;
}

static gts_result result_new(void)
{
    gts_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    return r;
}

/* The serial reference on rank 0 (fresh engine: nothing shared). */
static gts_score serial(gts_algorithm alg, const gts_game *g, void *state, int depth)
{
    gts_engine *e = engine_new(1);
    gts_limits lim = limits_of(depth);
    gts_result r = result_new();
    gts_status st = gts_search(e, alg, g, state, &lim, &r);
    CHECK(st == GTS_OK, "serial %s: %s", gts_algorithm_name(alg), gts_strerror(st));
    gts_engine_free(e);
    return r.score;
}

/* Score after playing @p move at the root, searched serially: the best
 * move must lead to the root's value. */
static gts_score after_move(const gts_game *g, void *state, gts_move move, int depth)
{
    if (g->apply(state, move, g->user) < 0)
        return GTS_SCORE_INF;
    gts_score s = -serial(GTS_ALG_ALPHABETA, g, state, depth - 1);
    g->undo(state, move, g->user);
    return s;
}

/* One set-up: distributed search at master depths 1..3, with and without
 * iterative deepening, compared with serial alpha-beta (and minimax when
 * asked); the best move of one of them is checked to lead to the value. */
static void compare(const char *what, const gts_game *g, void *state, int depth, bool minimax)
{
    gts_score ref = 0, ref_mm = 0;
    if (rank == 0) {
        ref = serial(GTS_ALG_ALPHABETA, g, state, depth);
        if (minimax) {
            ref_mm = serial(GTS_ALG_MINIMAX, g, state, depth);
            CHECK(ref == ref_mm, "%s: alphabeta %d != minimax %d", what, ref, ref_mm);
        }
    }
    uint64_t hash0 = g->hash ? g->hash(state, g->user) : 0;
    static const gts_algorithm algs[] = { GTS_ALG_PVS, GTS_ALG_ALPHABETA, GTS_ALG_MTDF };
    /* (master plies, iterative deepening) pairs. */
    static const int configs[][2] = { { 1, 1 }, { 2, 0 }, { 2, 1 }, { 3, 0 } };
    for (size_t ci = 0; ci < sizeof configs / sizeof *configs; ci++) {
        {
            int plies = configs[ci][0], iterative = configs[ci][1];
            gts_engine *e = engine_new(iterative);
            gts_limits lim = limits_of(depth);
            gts_result r = result_new();
            gts_mpi_options opt = { .struct_size = sizeof opt,
                                    .algorithm = algs[ci % 3],
                                    .master_plies = plies };
            gts_mpi_stats stats = { .struct_size = sizeof stats };
            gts_status st = gts_mpi_search(MPI_COMM_WORLD, e, g, state, &lim, &opt, &r, &stats);
            CHECK(st == GTS_OK, "%s plies %d: %s", what, plies, gts_strerror(st));
            CHECK(!g->hash || g->hash(state, g->user) == hash0, "%s: root not restored", what);
            /* Every rank gets rank 0's score: compare on rank 0 and across ranks. */
            int score = r.score, lo, hi;
            MPI_Allreduce(&score, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            MPI_Allreduce(&score, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            CHECK(lo == hi, "%s plies %d: ranks disagree (%d..%d)", what, plies, lo, hi);
            if (rank == 0) {
                CHECK(r.score == ref, "%s plies %d iterative %d alg %s: mpi %d, serial %d", what,
                      plies, iterative, gts_algorithm_name(opt.algorithm), r.score, ref);
                CHECK(r.depth == depth, "%s: depth %d of %d", what, r.depth, depth);
                CHECK(!(r.flags & (GTS_RESULT_LOWER_BOUND | GTS_RESULT_UPPER_BOUND)),
                      "%s: a bound (flags %#x)", what, r.flags);
                if (r.flags & GTS_RESULT_HAS_MOVE && ci == 2) {
                    gts_score s = after_move(g, state, r.best_move, depth);
                    CHECK(s == ref, "%s plies %d: best move scores %d, not %d", what, plies, s,
                          ref);
                }
                CHECK(stats.ranks == size && stats.nodes == r.nodes && stats.passes > 0,
                      "%s: stats (ranks %d, nodes %llu/%llu, passes %llu)", what, stats.ranks,
                      (unsigned long long)stats.nodes, (unsigned long long)r.nodes,
                      (unsigned long long)stats.passes);
                if (getenv("GTS_MPI_VERBOSE"))
                    printf("%s plies %d it %d: score %d nodes %llu passes %llu leaves %llu "
                           "searches %llu re %llu cancelled %llu messages %llu\n",
                           what, plies, iterative, r.score, (unsigned long long)r.nodes,
                           (unsigned long long)stats.passes, (unsigned long long)stats.leaves,
                           (unsigned long long)stats.leaf_searches,
                           (unsigned long long)stats.leaf_researches,
                           (unsigned long long)stats.cancelled,
                           (unsigned long long)stats.messages);
            }
            gts_engine_free(e);
        }
    }
}

static void test_exact(void)
{
    /* Random trees: uniform, jittered with terminals, with transpositions. */
    for (uint64_t seed = 1; seed <= 4; seed++) {
        gts_randtree_params p = { .struct_size = sizeof p, .seed = seed, .branching = 4 + seed % 3,
                                  .depth = 6, .min_value = -100, .max_value = 100,
                                  .branching_jitter = seed % 2 ? 3 : 0,
                                  .terminal_percent = seed % 2 ? 10 : 0,
                                  .transpositions = seed == 3, .ordered_percent = 50 };
        void *st = NULL;
        if (gts_randtree_new(&p, &st) != GTS_OK)
            die_at(__LINE__);
        char what[64];
        snprintf(what, sizeof what, "randtree seed %llu", (unsigned long long)seed);
        compare(what, gts_game_randtree(), st, 5, true);
        gts_games_free(gts_game_randtree(), st);
    }
    /* Connect-4 (connect4h: heuristic evaluation, fixed depth) and the solver
     * game. */
    static const char *c4[] = { "", "4453", "44444", "44551" };
    for (size_t i = 0; i < sizeof c4 / sizeof *c4; i++) {
        void *st = NULL;
        if (gts_connect4_new(c4[i], &st) != GTS_OK)
            die_at(__LINE__);
        char what[64];
        snprintf(what, sizeof what, "connect4 '%s'", c4[i]);
        compare(what, gts_games_find("connect4h"), st, 6, false);
        gts_games_free(gts_game_connect4(), st);
    }
    {
        /* Solved exactly (to the end) from a late position. */
        static const char pos[] = "5242176656526424671416232735";
        void *st = NULL;
        if (gts_connect4_new(pos, &st) != GTS_OK)
            die_at(__LINE__);
        compare("connect4 solver", gts_game_connect4_solver(), st, 42 - (int)strlen(pos), false);
        gts_games_free(gts_game_connect4(), st);
    }
    static const char *oth[] = { "", "f5", "f5d6c3" };
    for (size_t i = 0; i < sizeof oth / sizeof *oth; i++) {
        void *st = NULL;
        if (gts_othello_new(oth[i], &st) != GTS_OK)
            die_at(__LINE__);
        char what[64];
        snprintf(what, sizeof what, "othello '%s'", oth[i]);
        compare(what, gts_game_othello(), st, 4, false);
        gts_games_free(gts_game_othello(), st);
    }
}

/* ---- a game whose evaluate() fails on one rank -------------------------- */

typedef struct failing {
    gts_game g;
    const gts_game *inner;
    long calls, fail_at;
} failing;

static failing *fail_ctx;

static gts_score f_evaluate(void *s, void *u)
{
    (void)u;
    if (fail_ctx->fail_at > 0 && ++fail_ctx->calls >= fail_ctx->fail_at)
        return GTS_SCORE_INVALID;
    return fail_ctx->inner->evaluate(s, fail_ctx->inner->user);
}

static int f_generate(void *s, gts_move *m, uint32_t cap, void *u)
{
    (void)u;
    if (fail_ctx->fail_at < 0 && ++fail_ctx->calls >= -fail_ctx->fail_at) {
        if (getenv("GTS_MPI_TEST_DIE"))
            _exit(3); /* the rank dies mid-search */
        return -42;
    }
    return fail_ctx->inner->generate(s, m, cap, fail_ctx->inner->user);
}

static void failing_game(failing *f, const gts_game *inner, long fail_at)
{
    f->g = *inner;
    f->inner = inner;
    f->calls = 0;
    f->fail_at = fail_at;
    f->g.evaluate = f_evaluate;
    f->g.generate = f_generate;
    f->g.generate_keyed = NULL;
    fail_ctx = f;
}

static void run_failing(int bad_rank, long fail_at, gts_status want, int32_t want_cb)
{
    gts_randtree_params p = { .struct_size = sizeof p, .seed = 7, .branching = 6, .depth = 8,
                              .min_value = -100, .max_value = 100 };
    void *st = NULL;
    if (gts_randtree_new(&p, &st) != GTS_OK)
        abort();
    const gts_game *inner = gts_game_randtree();
    uint64_t h = inner->hash(st, inner->user);
    failing f;
    failing_game(&f, inner, rank == bad_rank ? fail_at : 0);
    gts_engine *e = engine_new(1);
    gts_limits lim = limits_of(7);
    gts_result r = result_new();
    gts_status s = gts_mpi_search(MPI_COMM_WORLD, e, &f.g, st, &lim, NULL, &r, NULL);
    CHECK(s == want, "failing rank %d: got %s, want %s", bad_rank, gts_strerror(s),
          gts_strerror(want));
    CHECK(r.callback_status == want_cb, "failing rank %d: callback_status %d, want %d", bad_rank,
          r.callback_status, want_cb);
    CHECK(inner->hash(st, inner->user) == h, "failing rank %d: root not restored", bad_rank);
    /* The communicator is clean afterwards: a normal search still works. */
    failing_game(&f, inner, 0);
    r = result_new();
    s = gts_mpi_search(MPI_COMM_WORLD, e, &f.g, st, &lim, NULL, &r, NULL);
    CHECK(s == GTS_OK, "search after a failure: %s", gts_strerror(s));
    if (rank == 0 && s == GTS_OK) {
        gts_score ref = serial(GTS_ALG_ALPHABETA, inner, st, 7);
        CHECK(r.score == ref, "search after a failure: %d, serial %d", r.score, ref);
    }
    gts_engine_free(e);
    gts_games_free(inner, st);
}

static void test_fail(void)
{
    run_failing(size - 1, 500, GTS_ECALLBACK, -1);   /* a slave's evaluate() */
    run_failing(size - 1, -300, GTS_ECALLBACK, -42); /* a slave's generate() */
    run_failing(0, -2, GTS_ECALLBACK, -42);          /* the master's, building its tree */
}

static void test_die(void)
{
    gts_randtree_params p = { .struct_size = sizeof p, .seed = 7, .branching = 6, .depth = 8,
                              .min_value = -100, .max_value = 100 };
    void *st = NULL;
    if (gts_randtree_new(&p, &st) != GTS_OK)
        abort();
    failing f;
    failing_game(&f, gts_game_randtree(), rank == size - 1 ? -300 : 0);
    gts_engine *e = engine_new(1);
    gts_limits lim = limits_of(7);
    gts_result r = result_new();
    gts_mpi_search(MPI_COMM_WORLD, e, &f.g, st, &lim, NULL, &r, NULL);
    gts_engine_free(e);
    gts_games_free(gts_game_randtree(), st);
}

/* ---- gts_engine_stop() during a distributed search ----------------------- */

/* A tree far too big to search to the end in a test's time: only a stop
 * ends the search. */
static const gts_randtree_params STOP_TREE = { .struct_size = sizeof(gts_randtree_params),
                                               .seed = 21, .branching = 5, .depth = 40,
                                               .min_value = -100, .max_value = 100,
                                               .ordered_percent = 50 };
enum { STOP_DEPTH = 40 };

/* Rank 0's stopper thread: it waits until on_iteration has seen
 * `after` iterations, then stops the engine while the search goes on. */
typedef struct stopper {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    gts_engine *engine;
    int after, seen;  /* seen: iterations completed so far */
    bool stop_in_callback; /* on_iteration stops it itself instead */
} stopper;

static void *stopper_main(void *arg)
{
    stopper *t = arg;
    pthread_mutex_lock(&t->lock);
    while (t->seen < t->after)
        pthread_cond_wait(&t->cond, &t->lock);
    pthread_mutex_unlock(&t->lock);
    gts_engine_stop(t->engine);
    return NULL;
}

static int stopper_iteration(const gts_result *r, void *user)
{
    (void)r;
    stopper *t = user;
    pthread_mutex_lock(&t->lock);
    t->seen++;
    pthread_cond_broadcast(&t->cond);
    bool now = t->stop_in_callback && t->seen == t->after;
    pthread_mutex_unlock(&t->lock);
    if (now)
        gts_engine_stop(t->engine); /* no leaf search runs on rank 0 now */
    return 0;
}

/* The last rank's game: its generate() stops that rank's engine on its
 * `stop_at`-th call (during one of its leaf searches). */
typedef struct stopping_game {
    gts_game g;
    const gts_game *inner;
    gts_engine *engine;
    long calls, stop_at;
} stopping_game;

static stopping_game *stop_ctx;

static int s_generate(void *s, gts_move *m, uint32_t cap, void *u)
{
    (void)u;
    if (stop_ctx->stop_at > 0 && ++stop_ctx->calls == stop_ctx->stop_at)
        gts_engine_stop(stop_ctx->engine);
    return stop_ctx->inner->generate(s, m, cap, stop_ctx->inner->user);
}

/* One stopped search: @p how is "thread", "callback" or "slave". */
static void stop_one(const char *how, gts_engine *e, const gts_game *g, void *st)
{
    /* A warm table would hold deeper values than the serial reference's. */
    gts_engine_clear(e);
    uint64_t hash0 = g->hash(st, g->user);
    stopper t = { .engine = e, .after = 2 };
    pthread_mutex_init(&t.lock, NULL);
    pthread_cond_init(&t.cond, NULL);
    stopping_game sg = { .g = *g, .inner = g, .engine = e };
    sg.g.generate = s_generate;
    sg.g.generate_keyed = NULL;
    stop_ctx = &sg;
    gts_limits lim = limits_of(STOP_DEPTH);
    pthread_t th;
    bool thread = strcmp(how, "thread") == 0 && rank == 0;
    if (rank == 0 && strcmp(how, "slave") != 0) {
        t.stop_in_callback = strcmp(how, "callback") == 0;
        lim.on_iteration = stopper_iteration;
        lim.on_iteration_user = &t;
    }
    if (strcmp(how, "slave") == 0 && rank == size - 1)
        sg.stop_at = 3000; /* past the first leaf searches, long before the end */
    if (thread && pthread_create(&th, NULL, stopper_main, &t) != 0)
        abort();
    gts_result r = result_new();
    gts_status s = gts_mpi_search(MPI_COMM_WORLD, e, &sg.g, st, &lim, NULL, &r, NULL);
    if (thread)
        pthread_join(th, NULL);
    CHECK(s == GTS_OK, "stop (%s): %s", how, gts_strerror(s));
    CHECK(r.flags & GTS_RESULT_STOPPED, "stop (%s): flags %#x lack GTS_RESULT_STOPPED", how,
          (unsigned)r.flags);
    CHECK(r.depth < STOP_DEPTH, "stop (%s): depth %d is the whole search", how, r.depth);
    CHECK(g->hash(st, g->user) == hash0, "stop (%s): root not restored", how);
    if (strcmp(how, "slave") != 0)
        CHECK(r.depth >= t.after, "stop (%s): depth %d, but %d iterations had completed", how,
              r.depth, t.after);
    if (strcmp(how, "callback") == 0)
        CHECK(r.depth == t.after, "stop (callback): depth %d, stopped after iteration %d",
              r.depth, t.after);
    /* Every rank has rank 0's result. */
    int64_t mine[3] = { r.score, (int64_t)r.best_move, r.depth }, max[3], min[3];
    MPI_Allreduce(mine, max, 3, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(mine, min, 3, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    CHECK(memcmp(max, min, sizeof max) == 0, "stop (%s): the ranks' results differ", how);
    /* The last completed iteration is exact. */
    if (rank == 0 && r.depth > 0) {
        gts_score ref = serial(GTS_ALG_ALPHABETA, g, st, r.depth);
        CHECK(r.score == ref, "stop (%s): depth %d score %d, serial alphabeta %d", how, r.depth,
              r.score, ref);
    }
    stop_ctx = NULL;
    pthread_cond_destroy(&t.cond);
    pthread_mutex_destroy(&t.lock);
}

static void test_stop(void)
{
    void *st = NULL;
    if (gts_randtree_new(&STOP_TREE, &st) != GTS_OK)
        die_at(__LINE__);
    const gts_game *g = gts_game_randtree();
    gts_engine *e = engine_new(1);
    stop_one("thread", e, g, st);
    stop_one("callback", e, g, st);
    stop_one("slave", e, g, st);
    /* The same engines and tree without a stop: to the end, exact (no stop
     * or message of the stopped searches is left over). */
    gts_engine_clear(e);
    gts_score ref = rank == 0 ? serial(GTS_ALG_ALPHABETA, g, st, 5) : 0;
    gts_limits lim = limits_of(5);
    gts_result r = result_new();
    gts_status s = gts_mpi_search(MPI_COMM_WORLD, e, g, st, &lim, NULL, &r, NULL);
    CHECK(s == GTS_OK, "after the stops: %s", gts_strerror(s));
    CHECK(!(r.flags & GTS_RESULT_STOPPED), "after the stops: still stopped");
    CHECK(r.depth == 5, "after the stops: depth %d", r.depth);
    if (rank == 0)
        CHECK(r.score == ref, "after the stops: score %d, serial alphabeta %d", r.score, ref);
    gts_engine_free(e);
    gts_games_free(g, st);
}

static void test_args(void)
{
    gts_randtree_params p = { .struct_size = sizeof p, .seed = 3, .branching = 3, .depth = 5,
                              .min_value = -9, .max_value = 9 };
    void *st = NULL;
    if (gts_randtree_new(&p, &st) != GTS_OK)
        abort();
    const gts_game *g = gts_game_randtree();
    gts_engine *e = engine_new(1);
    gts_limits lim = limits_of(4);
    gts_result r = result_new();
    {
        /* NULL state on the last rank only. */
        gts_status s = gts_mpi_search(MPI_COMM_WORLD, e, g, rank == size - 1 ? NULL : st, &lim,
                                      NULL, &r, NULL);
        CHECK(s == GTS_EINVAL, "NULL state on one rank: %s", gts_strerror(s));
    }
    gts_limits bad = limits_of(GTS_MAX_DEPTH + 1);
    gts_status s = gts_mpi_search(MPI_COMM_WORLD, e, g, st, &bad, NULL, &r, NULL);
    CHECK(s == GTS_ERANGE, "depth too large: %s", gts_strerror(s));
    bad = limits_of(4);
    bad.alpha = 5;
    bad.beta = 5;
    s = gts_mpi_search(MPI_COMM_WORLD, e, g, st, &bad, NULL, &r, NULL);
    CHECK(s == GTS_EINVAL, "empty window: %s", gts_strerror(s));
    gts_mpi_options opt = { .struct_size = sizeof opt + 8 };
    s = gts_mpi_search(MPI_COMM_WORLD, e, g, st, &lim, &opt, &r, NULL);
    CHECK(s == GTS_ESTRUCT, "options struct_size: %s", gts_strerror(s));
    opt = (gts_mpi_options){ .struct_size = sizeof opt, .algorithm = GTS_ALG_MCTS };
    s = gts_mpi_search(MPI_COMM_WORLD, e, g, st, &lim, &opt, &r, NULL);
    CHECK(s == GTS_EINVAL, "inexact algorithm: %s", gts_strerror(s));
    opt = (gts_mpi_options){ .struct_size = sizeof opt, .algorithm = (gts_algorithm)999 };
    s = gts_mpi_search(MPI_COMM_WORLD, e, g, st, &lim, &opt, &r, NULL);
    CHECK(s == GTS_EALGORITHM, "unknown algorithm: %s", gts_strerror(s));
    opt = (gts_mpi_options){ .struct_size = sizeof opt, .master_plies = 99 };
    s = gts_mpi_search(MPI_COMM_WORLD, e, g, st, &lim, &opt, &r, NULL);
    CHECK(s == GTS_ERANGE, "master_plies: %s", gts_strerror(s));
    s = gts_mpi_search(MPI_COMM_NULL, e, g, st, &lim, NULL, &r, NULL);
    CHECK(s == GTS_EINVAL, "MPI_COMM_NULL: %s", gts_strerror(s));
    /* Different roots on different ranks. */
    if (size > 1) {
        gts_randtree_params q = p;
        q.seed = 4;
        void *other = NULL;
        if (gts_randtree_new(&q, &other) != GTS_OK)
            die_at(__LINE__);
        s = gts_mpi_search(MPI_COMM_WORLD, e, g, rank == 1 ? other : st, &lim, NULL, &r, NULL);
        CHECK(s == GTS_EINVAL, "different roots: %s", gts_strerror(s));
        gts_games_free(g, other);
    }
    /* Still usable. */
    s = gts_mpi_search(MPI_COMM_WORLD, e, g, st, &lim, NULL, &r, NULL);
    CHECK(s == GTS_OK, "after bad arguments: %s", gts_strerror(s));

    /* A caller window: fail-soft bounds, as serial alpha-beta's. */
    gts_score ref = rank == 0 ? serial(GTS_ALG_ALPHABETA, g, st, 4) : 0;
    MPI_Bcast(&ref, 1, MPI_INT, 0, MPI_COMM_WORLD);
    gts_limits win = limits_of(4);
    win.alpha = ref + 1;
    win.beta = ref + 5;
    s = gts_mpi_search(MPI_COMM_WORLD, e, g, st, &win, NULL, &r, NULL);
    CHECK(s == GTS_OK && (r.flags & GTS_RESULT_UPPER_BOUND) && r.score <= win.alpha
              && r.score >= ref,
          "window above the value: %s, score %d flags %#x (value %d)", gts_strerror(s), r.score,
          r.flags, ref);
    win.alpha = ref - 5;
    win.beta = ref - 1;
    s = gts_mpi_search(MPI_COMM_WORLD, e, g, st, &win, NULL, &r, NULL);
    CHECK(s == GTS_OK && (r.flags & GTS_RESULT_LOWER_BOUND) && r.score >= win.beta
              && r.score <= ref,
          "window below the value: %s, score %d flags %#x (value %d)", gts_strerror(s), r.score,
          r.flags, ref);
    win.alpha = ref - 1;
    win.beta = ref + 1;
    s = gts_mpi_search(MPI_COMM_WORLD, e, g, st, &win, NULL, &r, NULL);
    CHECK(s == GTS_OK && r.score == ref && !(r.flags & (GTS_RESULT_LOWER_BOUND
                                                         | GTS_RESULT_UPPER_BOUND)),
          "window around the value: %s, score %d flags %#x (value %d)", gts_strerror(s),
          r.score, r.flags, ref);

    /* A node budget ends the search on every rank with the last complete
     * iteration and the flag. */
    gts_randtree_params big = { .struct_size = sizeof big, .seed = 9, .branching = 8,
                                .depth = 20, .min_value = -100, .max_value = 100 };
    void *bs = NULL;
    if (gts_randtree_new(&big, &bs) != GTS_OK)
        die_at(__LINE__);
    gts_limits budget = limits_of(16);
    budget.nodes = 20000;
    s = gts_mpi_search(MPI_COMM_WORLD, e, g, bs, &budget, NULL, &r, NULL);
    CHECK(s == GTS_OK && (r.flags & GTS_RESULT_NODE_LIMIT) && r.depth < 16,
          "node budget: %s, flags %#x depth %d", gts_strerror(s), r.flags, r.depth);
    gts_games_free(g, bs);
    gts_engine_free(e);
    gts_games_free(g, st);
}

/* ---- bench: what APHID does on this communicator (doc/results.md) -------- */

static void bench_one(const char *what, const gts_game *g, void *state, int depth, int plies)
{
    uint64_t serial_nodes = 0;
    gts_score ref = 0;
    if (rank == 0) {
        gts_engine *e = engine_new(1);
        gts_limits lim = limits_of(depth);
        gts_result r = result_new();
        gts_search(e, GTS_ALG_PVS, g, state, &lim, &r);
        serial_nodes = r.nodes;
        ref = r.score;
        gts_engine_free(e);
    }
    gts_engine *e = engine_new(1);
    gts_limits lim = limits_of(depth);
    gts_result r = result_new();
    uint64_t rank_nodes[64] = { 0 };
    gts_mpi_options opt = { .struct_size = sizeof opt, .master_plies = plies };
    gts_mpi_stats st = { .struct_size = sizeof st, .rank_nodes = rank_nodes,
                         .rank_nodes_capacity = 64 };
    double t0 = MPI_Wtime();
    gts_status rc = gts_mpi_search(MPI_COMM_WORLD, e, g, state, &lim, &opt, &r, &st);
    double t1 = MPI_Wtime();
    CHECK(rc == GTS_OK, "bench %s: %s", what, gts_strerror(rc));
    if (rank == 0) {
        CHECK(r.score == ref, "bench %s: %d, serial %d", what, r.score, ref);
        printf("%s,%d,%d,%d,%d,%llu,%llu,", what, depth, size, plies, r.score,
               (unsigned long long)serial_nodes, (unsigned long long)r.nodes);
        for (int i = 0; i < size && i < 64; i++)
            printf("%s%llu", i ? " " : "", (unsigned long long)rank_nodes[i]);
        printf(",%llu,%llu,%llu,%llu,%llu,%llu,%.0f\n", (unsigned long long)st.leaves,
               (unsigned long long)st.passes, (unsigned long long)st.leaf_searches,
               (unsigned long long)st.leaf_researches, (unsigned long long)st.cancelled,
               (unsigned long long)st.messages, (t1 - t0) * 1e3);
        fflush(stdout);
    }
    gts_engine_free(e);
}

static void test_bench(void)
{
    if (rank == 0)
        printf("setup,depth,ranks,master_plies,score,serial_pvs_nodes,nodes,rank_nodes,leaves,"
               "passes,leaf_searches,leaf_researches,cancelled,messages,ms\n");
    for (int plies = 1; plies <= 3; plies++) {
        gts_randtree_params p = { .struct_size = sizeof p, .seed = 11, .branching = 8,
                                  .depth = 12, .min_value = -1000, .max_value = 1000,
                                  .ordered_percent = 70 };
        void *st = NULL;
        if (gts_randtree_new(&p, &st) != GTS_OK)
            die_at(__LINE__);
        bench_one("randtree b8 seed 11", gts_game_randtree(), st, 8, plies);
        gts_games_free(gts_game_randtree(), st);
        if (gts_connect4_new("4453", &st) != GTS_OK)
            die_at(__LINE__);
        bench_one("connect4h 4453", gts_games_find("connect4h"), st, 10, plies);
        gts_games_free(gts_game_connect4(), st);
        if (gts_othello_new("f5d6", &st) != GTS_OK)
            die_at(__LINE__);
        bench_one("othello f5d6", gts_game_othello(), st, 7, plies);
        gts_games_free(gts_game_othello(), st);
    }
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "exact";
    if (strcmp(mode, "exact") == 0)
        test_exact();
    else if (strcmp(mode, "fail") == 0)
        test_fail();
    else if (strcmp(mode, "args") == 0)
        test_args();
    else if (strcmp(mode, "stop") == 0)
        test_stop();
    else if (strcmp(mode, "die") == 0)
        test_die();
    else if (strcmp(mode, "bench") == 0)
        test_bench();
    else {
        fprintf(stderr, "usage: test_mpi exact|fail|args|stop|die|bench\n");
        failures++;
    }
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_mpi %s on %d rank%s: %s\n", mode, size, size == 1 ? "" : "s",
               total ? "FAILED" : "ok");
    MPI_Finalize();
    return total ? 1 : 0;
}
