/*
 * The bounds callback (gts_game::bounds): the built-in games' ranges are
 * sound, the exact algorithms stay exact with them, the search really uses
 * them, and a broken one can neither crash nor hang a search.
 *
 *  - soundness: for every reachable tic-tac-toe position, random nodes of
 *    random trees (clamped, off-centre, transposing, ragged, early leaves),
 *    Connect-4 (both vtables) and Othello positions near the end, the range
 *    contains the plain minimax value (gts_minimax) at every depth from 1 to
 *    the end, and a finished position's range is its evaluate() exactly;
 *  - exactness: every exact algorithm (parallel ones at 1, 2 and 4 threads)
 *    returns the minimax score and a best move of that score on hundreds of
 *    random trees and on tic-tac-toe and Connect-4 positions, with the
 *    windowed ones also under GTS_ROOT_BISECT and GTS_ROOT_MTDF;
 *  - use: with bounds PVS visits fewer nodes on Connect-4 end games than
 *    with the same vtable without (node counts, never time);
 *  - unsound ranges (random sub-ranges, random points, ranges that exclude
 *    the value, answers that change between calls) give GTS_OK, a score in
 *    [-GTS_SCORE_INF, GTS_SCORE_INF] and a legal move, also under a node
 *    limit, with the caller's state restored;
 *  - failures: a negative return is GTS_ECALLBACK with its value in
 *    callback_status; lo > hi, lo < LOSS or hi > WIN is GTS_ESCORE; the
 *    caller's state is restored byte for byte.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "fixture.h"

#define MAX_MOVES 64

/* ---- helpers ---------------------------------------------------------------- */

/* Deterministic pseudo-random numbers for the test's own choices. */
static uint64_t rng_next(uint64_t *s)
{
    *s += 1;
    return tgame_mix(*s);
}

/* The reference: plain minimax, one iteration, no table. */
static gts_engine *reference_engine(void)
{
    gts_engine *e = fx_engine_with(1, 0);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_ITERATIVE, 0), GTS_OK);
    return e;
}

static gts_score minimax_at(gts_engine *mm, const gts_game *g, void *s, int depth)
{
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(gts_minimax(mm, g, s, &l, &r), GTS_OK);
    return r.score;
}

/* A copy of @g without its bounds (the same game as the library saw it
 * before the callback existed). */
static gts_game without_bounds(const gts_game *g)
{
    gts_game v = *g;
    v.bounds = NULL;
    return v;
}

/* ---- soundness ---------------------------------------------------------------- */

/* A soundness test of one game: the reference engine and the counts. */
typedef struct sound_stats {
    gts_engine *mm;
    const char *name;
    uint64_t positions, checks, exact;
} sound_stats;

/* Its start: the game has bounds; a reference engine. */
static sound_stats sound_begin(const gts_game *g, const char *name)
{
    cr_assert(g->bounds != NULL, "%s carries bounds", name);
    return (sound_stats){.mm = reference_engine(), .name = name};
}

/* Its end: the counts on the log (@unit: what a position is), the engine
 * freed. */
static void sound_end(sound_stats *st, const char *unit)
{
    printf("# %s: %llu %s, %llu checks, %llu exact ranges\n", st->name,
           (unsigned long long)st->positions, unit, (unsigned long long)st->checks,
           (unsigned long long)st->exact);
    gts_engine_free(st->mm);
}

/* The range of @s contains the minimax value at every depth 1..@max_depth;
 * a finished position's range is its evaluate() exactly. */
static void check_sound(gts_engine *mm, const gts_game *g, void *s, int max_depth,
                        const char *what, sound_stats *st)
{
    gts_score lo = 12345, hi = -12345;
    int rc = g->bounds(s, &lo, &hi, g->user);
    cr_assert_eq(rc, 0, "%s: bounds() returned %d", what, rc);
    cr_assert(GTS_SCORE_LOSS <= lo && lo <= hi && hi <= GTS_SCORE_WIN,
              "%s: [%d, %d] is not a range inside [LOSS, WIN]", what, lo, hi);
    st->positions++;
    st->exact += lo == hi;
    gts_move moves[MAX_MOVES];
    int n = g->generate(s, moves, MAX_MOVES, g->user);
    cr_assert(n >= 0, "%s: generate", what);
    if (n == 0) {
        gts_score v = g->evaluate(s, g->user);
        cr_expect(lo == v && hi == v, "%s: finished, evaluate %d but bounds [%d, %d]", what, v,
                  lo, hi);
        st->checks++;
        return;
    }
    for (int d = 1; d <= max_depth; d++) {
        gts_score v = minimax_at(mm, g, s, d);
        cr_expect(lo <= v && v <= hi, "%s: minimax at depth %d is %d, outside [%d, %d]", what,
                  d, v, lo, hi);
        st->checks++;
    }
}

/* Every position reachable from @s, once each (the hash is an exact
 * encoding of the board). */
static void ttt_walk(gts_engine *mm, const gts_game *g, void *s, int ply, uint8_t *seen,
                     char *path, sound_stats *st)
{
    uint64_t key = g->hash(s, g->user);
    cr_assert(key < 19683);
    if (seen[key])
        return;
    seen[key] = 1;
    path[ply] = '\0';
    char what[32];
    snprintf(what, sizeof what, "tictactoe \"%s\"", path);
    check_sound(mm, g, s, 9 - ply, what, st);
    gts_move moves[9];
    int n = g->generate(s, moves, 9, g->user);
    for (int i = 0; i < n; i++) {
        cr_assert_eq(g->apply(s, moves[i], g->user), 0);
        path[ply] = (char)('1' + moves[i]);
        ttt_walk(mm, g, s, ply + 1, seen, path, st);
        cr_assert_eq(g->undo(s, moves[i], g->user), 0);
    }
}

Test(bounds, tictactoe_every_position_is_sound)
{
    const gts_game *g = gts_game_tictactoe();
    sound_stats st = sound_begin(g, "tictactoe");
    void *s;
    cr_assert_eq(gts_tictactoe_new("", &s), GTS_OK);
    static uint8_t seen[19683];
    char path[10];
    ttt_walk(st.mm, g, s, 0, seen, path, &st);
    cr_expect_eq(st.positions, 5478, "every reachable position once, got %llu",
                 (unsigned long long)st.positions);
    sound_end(&st, "positions");
    gts_games_free(g, s);
}

/* The ranges the adapter documents, on positions whose values are known. */
Test(bounds, tictactoe_known_ranges)
{
    static const struct {
        const char *pos;
        gts_score lo, hi;
    } CASES[] = {
        /* empty board: X's earliest line is ply 5, O's ply 6 */
        {"", GTS_SCORE_LOSS + 6, GTS_SCORE_WIN - 5},
        /* X (1, 2) can complete 1-2-3 at once */
        {"1425", GTS_SCORE_WIN - 1, GTS_SCORE_WIN - 1},
        /* X (1, 3, 5) has a fork (7 and 9 both complete a line), O to move
         * cannot win first: O loses at ply 2 unless the horizon comes first */
        {"12345", GTS_SCORE_LOSS + 2, 0},
        /* finished: X completed 1-5-9, O to move has lost */
        {"14529", GTS_SCORE_LOSS, GTS_SCORE_LOSS},
    };
    const gts_game *g = gts_game_tictactoe();
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        void *s;
        cr_assert_eq(gts_tictactoe_new(CASES[i].pos, &s), GTS_OK, "%s", CASES[i].pos);
        gts_score lo, hi;
        cr_assert_eq(g->bounds(s, &lo, &hi, g->user), 0);
        cr_expect(lo == CASES[i].lo && hi == CASES[i].hi, "\"%s\": [%d, %d], expected [%d, %d]",
                  CASES[i].pos, lo, hi, CASES[i].lo, CASES[i].hi);
        gts_games_free(g, s);
    }
}

/* Random-tree shapes: clamped, off-centre, transposing, ragged, early leaves. */
static gts_randtree_params tree_params(int kind, uint64_t seed)
{
    gts_randtree_params p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    p.seed = seed;
    switch (kind % 8) {
    case 0: p.branching = 3; p.depth = 7; p.min_value = -1000; p.max_value = 1000; break;
    case 1: p.branching = 4; p.depth = 6; p.min_value = -3; p.max_value = 3; break;
    case 2:
        p.branching = 3; p.depth = 8; p.min_value = 0; p.max_value = 100;
        p.terminal_percent = 15; p.branching_jitter = 1;
        break;
    case 3:
        p.branching = 2; p.depth = 10; p.min_value = -30000; p.max_value = 30000;
        p.transpositions = true;
        break;
    case 4:
        p.branching = 5; p.depth = 5; p.min_value = -500; p.max_value = 1500;
        p.transpositions = true; p.ordered_percent = 80;
        break;
    case 5:
        p.branching = 3; p.depth = 7; p.min_value = -1000; p.max_value = 1000;
        p.transpositions = true; p.terminal_percent = 10;
        break;
    case 6:
        p.branching = 2; p.depth = 11; p.min_value = -20; p.max_value = 40;
        p.ordered_percent = 50;
        break;
    default:
        p.branching = 4; p.depth = 6; p.min_value = -30000; p.max_value = -29000;
        p.branching_jitter = 3; p.transpositions = true;
        break;
    }
    return p;
}

Test(bounds, randtree_random_nodes_are_sound)
{
    const gts_game *g = gts_game_randtree();
    sound_stats st = sound_begin(g, "randtree");
    uint64_t rng = 0xb0b0;
    for (int kind = 0; kind < 8; kind++) {
        for (uint64_t seed = 0; seed < 24; seed++) {
            gts_randtree_params p = tree_params(kind, 0x50b0 + seed * 31 + (uint64_t)kind);
            void *s = fx_randtree_new(&p);
            for (int sample = 0; sample < 24; sample++) {
                /* A random walk down to a random level (leaves included). */
                int target = (int)(rng_next(&rng) % (p.depth + 1));
                gts_move path[64];
                int level = 0;
                while (level < target) {
                    gts_move moves[MAX_MOVES];
                    int n = g->generate(s, moves, MAX_MOVES, g->user);
                    if (n == 0)
                        break;
                    path[level] = moves[rng_next(&rng) % (uint64_t)n];
                    cr_assert_eq(g->apply(s, path[level], g->user), 0);
                    level++;
                }
                char what[96];
                snprintf(what, sizeof what, "randtree kind %d seed %llu level %d", kind,
                         (unsigned long long)seed, level);
                check_sound(st.mm, g, s, (int)p.depth - level, what, &st);
                while (level > 0) {
                    level--;
                    cr_assert_eq(g->undo(s, path[level], g->user), 0);
                }
            }
            gts_games_free(g, s);
        }
    }
    sound_end(&st, "nodes");
}

/* A random game of @g from @s: random legal moves, preferring those that
 * do not end the game, until @plies moves were played or the game is over.
 * Returns the moves played. */
static int random_playout(const gts_game *g, void *s, int plies, uint64_t *rng)
{
    int played = 0;
    while (played < plies) {
        gts_move moves[MAX_MOVES], going_on[MAX_MOVES], next[MAX_MOVES];
        int n = g->generate(s, moves, MAX_MOVES, g->user);
        cr_assert(n >= 0);
        if (n == 0)
            break;
        int k = 0;
        for (int i = 0; i < n; i++) {
            cr_assert_eq(g->apply(s, moves[i], g->user), 0);
            if (g->generate(s, next, MAX_MOVES, g->user) > 0)
                going_on[k++] = moves[i];
            cr_assert_eq(g->undo(s, moves[i], g->user), 0);
        }
        gts_move m = k > 0 ? going_on[rng_next(rng) % (uint64_t)k] : moves[rng_next(rng) % (uint64_t)n];
        cr_assert_eq(g->apply(s, m, g->user), 0);
        played++;
    }
    return played;
}

/* Connect-4 end games: @count random positions with @min..@max stones. */
static void connect4_sound(const gts_game *g, const char *name, int count, int min, int max)
{
    sound_stats st = sound_begin(g, name);
    count = (int)tgame_count((uint64_t)count);
    uint64_t rng = 0xc4c4 + (uint64_t)min;
    for (int i = 0; i < count; i++) {
        void *s;
        cr_assert_eq(gts_connect4_new("", &s), GTS_OK);
        int stones = min + (int)(rng_next(&rng) % (uint64_t)(max - min + 1));
        int played = random_playout(gts_game_connect4(), s, stones, &rng);
        char what[64];
        snprintf(what, sizeof what, "%s position %d (%d stones)", name, i, played);
        check_sound(st.mm, g, s, 42 - played, what, &st);
        gts_games_free(g, s);
    }
    sound_end(&st, "positions");
}

Test(bounds, connect4_end_games_are_sound)
{
    connect4_sound(gts_game_connect4(), "connect4", 600, 28, 42);
}

Test(bounds, connect4_solver_end_games_are_sound)
{
    connect4_sound(gts_game_connect4_solver(), "connect4_solver", 600, 28, 42);
}

Test(bounds, othello_end_games_are_sound)
{
    const gts_game *g = gts_game_othello();
    sound_stats st = sound_begin(g, "othello");
    uint64_t rng = 0x07e110;
    for (int i = 0; i < 80; i++) {
        void *s;
        cr_assert_eq(gts_othello_new("", &s), GTS_OK);
        /* 60 empties at the start; stop with 0..8 left (passes add plies;
         * a few games end before). */
        int plies = 52 + (int)(rng_next(&rng) % 9);
        random_playout(g, s, plies, &rng);
        char what[64];
        snprintf(what, sizeof what, "othello position %d", i);
        check_sound(st.mm, g, s, 12, what, &st);
        gts_games_free(g, s);
    }
    sound_end(&st, "positions");
}

/* ---- exactness ---------------------------------------------------------------- */

#define MAX_RUNS 64
static const int THREADS[] = {1, 2, 4};
#define NTHREADS (sizeof THREADS / sizeof THREADS[0])

/* One exact algorithm at one thread count (t: index into THREADS). */
typedef fx_run alg_run;

/* Every exact algorithm but the reference (minimax)... */
static bool exact_but_reference(gts_algorithm a)
{
    return gts_algorithm_is_exact(a) && a != GTS_ALG_MINIMAX;
}

/* ... and of those, the ones GTS_OPT_ROOT_DRIVER applies to (not the MT
 * family). */
static bool windowed(gts_algorithm a)
{
    return exact_but_reference(a) && a != GTS_ALG_MTDF && a != GTS_ALG_NEGACSTAR &&
           a != GTS_ALG_SSSSTAR && a != GTS_ALG_DUALSTAR;
}

/* Every exact algorithm but the reference; parallel ones at every thread
 * count. With @windowed_only, only those GTS_OPT_ROOT_DRIVER applies to. */
static int exact_runs(alg_run *out, bool windowed_only)
{
    return fx_runs(out, MAX_RUNS, windowed_only ? windowed : exact_but_reference, THREADS,
                   (int)NTHREADS);
}

typedef fx_reference reference;

/* The minimax value of @s at @depth and of each of its moves. */
static void make_reference(gts_engine *mm, const gts_game *g, void *s, int depth, reference *ref)
{
    ref->value = minimax_at(mm, g, s, depth);
    ref->n = g->generate(s, ref->moves, MAX_MOVES, g->user);
    cr_assert(ref->n >= 0);
    for (int i = 0; i < ref->n; i++) {
        gts_move cm[MAX_MOVES];
        cr_assert_eq(g->apply(s, ref->moves[i], g->user), 0);
        if (depth == 1 || g->generate(s, cm, MAX_MOVES, g->user) == 0)
            ref->move_value[i] = fx_from_child(g->evaluate(s, g->user));
        else
            ref->move_value[i] = fx_from_child(minimax_at(mm, g, s, depth - 1));
        cr_assert_eq(g->undo(s, ref->moves[i], g->user), 0);
    }
}

/* Searches made and nodes visited by check_exact, for the log. */
static uint64_t exact_searches, exact_nodes;

/* Search @s with @alg on @e and compare with the reference. */
static void check_exact(gts_engine *e, gts_algorithm alg, const gts_game *g, void *s, int depth,
                        const reference *ref, const char *what)
{
    uint64_t key = g->hash ? g->hash(s, g->user) : 0;
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    gts_result r = {.struct_size = sizeof r};
    int rc = gts_search(e, alg, g, s, &l, &r);
    cr_assert_eq(rc, GTS_OK, "%s %s: %s", what, gts_algorithm_name(alg), gts_status_name(rc));
    exact_searches++;
    exact_nodes += r.nodes;
    cr_expect_eq(r.score, ref->value, "%s %s threads=%u: score %d != minimax %d", what,
                 gts_algorithm_name(alg), r.threads, r.score, ref->value);
    if (g->hash)
        cr_expect_eq(g->hash(s, g->user), key, "%s %s: state restored", what,
                     gts_algorithm_name(alg));
    fx_expect_best_move(ref, &r, alg, what);
}

/* Engines for one pass: one per thread count, all with @driver. */
typedef struct engines {
    gts_engine *e[NTHREADS];
} engines;

static void engines_new(engines *es, int tt_mb, gts_root_driver driver)
{
    for (size_t t = 0; t < NTHREADS; t++) {
        es->e[t] = fx_engine_with(THREADS[t], tt_mb);
        cr_assert_eq(gts_engine_set(es->e[t], GTS_OPT_ROOT_DRIVER, driver), GTS_OK);
    }
}

static void engines_free(engines *es)
{
    for (size_t t = 0; t < NTHREADS; t++)
        gts_engine_free(es->e[t]);
}

static const char *driver_name(gts_root_driver d)
{
    return d == GTS_ROOT_BISECT ? "bisect" : d == GTS_ROOT_MTDF ? "mtdf" : "window";
}

/* A random tree of the exactness passes: small enough for every algorithm
 * at every thread count, bounds that often decide nodes near the leaves. */
static gts_randtree_params exact_tree(uint64_t i, int *depth)
{
    static const uint32_t branching[] = {2, 3, 4, 5, 7};
    static const uint32_t depth_for[] = {9, 7, 6, 5, 4};
    gts_randtree_params p;
    memset(&p, 0, sizeof p);
    int b = (int)(i % 5);
    p.struct_size = sizeof p;
    p.seed = 0xb0d50000 + i;
    p.branching = branching[b];
    p.depth = depth_for[b] + (uint32_t)(i / 5 % 2);
    p.min_value = (i % 4 == 0) ? -3 : (i % 4 == 1) ? 0 : -1000;
    p.max_value = (i % 4 == 0) ? 3 : (i % 4 == 1) ? 50 : 1000;
    p.branching_jitter = (i % 3 == 0) ? branching[b] / 2 : 0;
    p.terminal_percent = (i % 6 == 1) ? 10 : 0;
    p.transpositions = (i % 2) == 1;
    p.ordered_percent = (i % 7 < 3) ? 80 : 0;
    *depth = (int)p.depth - (int)(i % 3 == 2);
    return p;
}

/* Trees [first, first + count) for every exact algorithm under @driver. */
static void exact_trees(uint64_t first, uint64_t count, gts_root_driver driver, int tt_mb)
{
    count = tgame_count(count);
    alg_run runs[MAX_RUNS];
    int nruns = exact_runs(runs, driver != GTS_ROOT_WINDOW);
    gts_engine *mm = reference_engine();
    engines es;
    engines_new(&es, tt_mb, driver);
    const gts_game *g = gts_game_randtree();
    for (uint64_t i = first; i < first + count; i++) {
        int depth;
        gts_randtree_params p = exact_tree(i, &depth);
        void *s = fx_randtree_new(&p);
        reference ref;
        make_reference(mm, g, s, depth, &ref);
        char what[96];
        snprintf(what, sizeof what, "tree %llu (b=%u d=%d transp=%d tt=%d %s)",
                 (unsigned long long)i, p.branching, depth, p.transpositions, tt_mb,
                 driver_name(driver));
        for (int k = 0; k < nruns; k++) {
            gts_engine *e = es.e[runs[k].t];
            if (i % 2 == 0)
                gts_engine_clear(e); /* a fresh table, or warm from the last tree */
            check_exact(e, runs[k].alg, g, s, depth, &ref, what);
        }
        gts_games_free(g, s);
    }
    printf("# trees %llu-%llu %s tt=%d: %llu searches, %llu nodes\n", (unsigned long long)first,
           (unsigned long long)(first + count - 1), driver_name(driver), tt_mb,
           (unsigned long long)exact_searches, (unsigned long long)exact_nodes);
    engines_free(&es);
    gts_engine_free(mm);
}

/* 2,000 trees in all, in chunks so Criterion runs them on both cores. */
Test(bounds, exact_trees_0000_0399) { exact_trees(0, 400, GTS_ROOT_WINDOW, 2); }
Test(bounds, exact_trees_0400_0799_without_tt) { exact_trees(400, 400, GTS_ROOT_WINDOW, 0); }
Test(bounds, exact_trees_0800_1199_bisect) { exact_trees(800, 400, GTS_ROOT_BISECT, 2); }
Test(bounds, exact_trees_1200_1599_mtdf) { exact_trees(1200, 400, GTS_ROOT_MTDF, 2); }
Test(bounds, exact_trees_1600_1799_bisect_without_tt) { exact_trees(1600, 200, GTS_ROOT_BISECT, 0); }
Test(bounds, exact_trees_1800_1999_mtdf_without_tt) { exact_trees(1800, 200, GTS_ROOT_MTDF, 0); }

/* Tic-tac-toe positions (full depth) under every root driver. */
Test(bounds, exact_tictactoe)
{
    static const char *POS[] = {"", "5", "15", "519", "1593", "12", "1235", "1425", "12345",
                                "5138", "73"};
    static const gts_root_driver DRIVERS[] = {GTS_ROOT_WINDOW, GTS_ROOT_BISECT, GTS_ROOT_MTDF};
    const gts_game *g = gts_game_tictactoe();
    gts_engine *mm = reference_engine();
    for (size_t d = 0; d < 3; d++) {
        alg_run runs[MAX_RUNS];
        int nruns = exact_runs(runs, DRIVERS[d] != GTS_ROOT_WINDOW);
        engines es;
        engines_new(&es, 2, DRIVERS[d]);
        for (size_t i = 0; i < sizeof POS / sizeof POS[0]; i++) {
            void *s;
            cr_assert_eq(gts_tictactoe_new(POS[i], &s), GTS_OK);
            int depth = 9 - (int)strlen(POS[i]);
            reference ref;
            make_reference(mm, g, s, depth, &ref);
            char what[64];
            snprintf(what, sizeof what, "tictactoe \"%s\" %s", POS[i], driver_name(DRIVERS[d]));
            for (int k = 0; k < nruns; k++) {
                gts_engine_clear(es.e[runs[k].t]);
                check_exact(es.e[runs[k].t], runs[k].alg, g, s, depth, &ref, what);
            }
            gts_games_free(g, s);
        }
        engines_free(&es);
    }
    gts_engine_free(mm);
}

/* Connect-4: @count random positions of @stones stones (games not over),
 * into @out (freed by the caller). */
static int connect4_positions(void **out, int count, int stones, uint64_t seed)
{
    const gts_game *g = gts_game_connect4();
    uint64_t rng = seed;
    int k = 0;
    while (k < count) {
        void *s;
        cr_assert_eq(gts_connect4_new("", &s), GTS_OK);
        gts_move moves[MAX_MOVES];
        if (random_playout(g, s, stones, &rng) == stones &&
            g->generate(s, moves, MAX_MOVES, g->user) > 0)
            out[k++] = s;
        else
            gts_games_free(g, s);
    }
    return k;
}

/* Connect-4 end games solved to the end, and middle games to a horizon. */
static void exact_connect4(gts_root_driver driver)
{
    const gts_game *games[] = {gts_game_connect4(), gts_game_connect4_solver()};
    gts_engine *mm = reference_engine();
    alg_run runs[MAX_RUNS];
    int nruns = exact_runs(runs, driver != GTS_ROOT_WINDOW);
    engines es;
    engines_new(&es, 2, driver);
    static const struct {
        int stones, depth, count;
    } SETS[] = {{34, 8, 8}, {30, 12, 8}, {24, 9, 6}, {14, 7, 4}};
    for (size_t set = 0; set < sizeof SETS / sizeof SETS[0]; set++) {
        void *pos[16];
        int n = connect4_positions(pos, SETS[set].count, SETS[set].stones, 0xe4d0 + set);
        for (int i = 0; i < n; i++) {
            for (size_t gi = 0; gi < 2; gi++) {
                const gts_game *g = games[gi];
                reference ref;
                make_reference(mm, g, pos[i], SETS[set].depth, &ref);
                char what[96];
                snprintf(what, sizeof what, "%s %d stones #%d depth %d %s",
                         gi ? "connect4_solver" : "connect4", SETS[set].stones, i,
                         SETS[set].depth, driver_name(driver));
                for (int k = 0; k < nruns; k++) {
                    gts_engine_clear(es.e[runs[k].t]);
                    check_exact(es.e[runs[k].t], runs[k].alg, g, pos[i], SETS[set].depth, &ref,
                                what);
                }
            }
            gts_games_free(gts_game_connect4(), pos[i]);
        }
    }
    printf("# connect4 %s: %llu searches, %llu nodes\n", driver_name(driver),
           (unsigned long long)exact_searches, (unsigned long long)exact_nodes);
    engines_free(&es);
    gts_engine_free(mm);
}

Test(bounds, exact_connect4_window) { exact_connect4(GTS_ROOT_WINDOW); }
Test(bounds, exact_connect4_bisect) { exact_connect4(GTS_ROOT_BISECT); }
Test(bounds, exact_connect4_mtdf) { exact_connect4(GTS_ROOT_MTDF); }

/* ---- the callback is used --------------------------------------------------- */

typedef struct counted {
    const gts_game *inner;
    uint64_t calls;
} counted;

static int counted_bounds(void *state, gts_score *lo, gts_score *hi, void *user)
{
    counted *c = user;
    __atomic_fetch_add(&c->calls, 1, __ATOMIC_RELAXED);
    return c->inner->bounds(state, lo, hi, c->inner->user);
}

Test(bounds, pvs_visits_fewer_nodes_with_bounds)
{
    const gts_game *g = gts_game_connect4();
    counted cnt = {g, 0};
    gts_game with = *g, bare = without_bounds(g);
    with.bounds = counted_bounds;
    with.user = &cnt;
    gts_engine *e = fx_engine_with(1, 4);
    void *pos[12];
    int n = connect4_positions(pos, 12, 28, 0x5eed);
    uint64_t nodes_with = 0, nodes_bare = 0;
    int fewer = 0;
    for (int i = 0; i < n; i++) {
        gts_limits l = {.struct_size = sizeof l, .depth = 42 - 28};
        gts_result rw = {.struct_size = sizeof rw}, rb = {.struct_size = sizeof rb};
        gts_engine_clear(e);
        cr_assert_eq(gts_pvs(e, &with, pos[i], &l, &rw), GTS_OK);
        gts_engine_clear(e);
        cr_assert_eq(gts_pvs(e, &bare, pos[i], &l, &rb), GTS_OK);
        cr_expect_eq(rw.score, rb.score, "position %d: the same value with and without", i);
        nodes_with += rw.nodes;
        nodes_bare += rb.nodes;
        fewer += rw.nodes < rb.nodes;
        gts_games_free(g, pos[i]);
    }
    printf("# pvs on %d Connect-4 end games: %llu nodes with bounds, %llu without (%d fewer)\n",
           n, (unsigned long long)nodes_with, (unsigned long long)nodes_bare, fewer);
    cr_expect(cnt.calls > 0, "bounds() was called");
    cr_expect(nodes_with < nodes_bare, "bounds save nodes: %llu with, %llu without",
              (unsigned long long)nodes_with, (unsigned long long)nodes_bare);
    gts_engine_free(e);
}

/* ---- unsound ranges ------------------------------------------------------------ */

enum hostile_mode {
    HOSTILE_SUBRANGE, /* a random sub-range, fixed per position */
    HOSTILE_POINT,    /* lo == hi, random, fixed per position */
    HOSTILE_EXCLUDE,  /* a range beside the game's own sound one */
    HOSTILE_FLICKER,  /* a new random sub-range at every call */
    HOSTILE_MODES
};

typedef struct hostile {
    const gts_game *inner;
    enum hostile_mode mode;
    uint64_t seed;
    uint64_t calls;
} hostile;

/* A random score: anywhere, near 0, or near a decided end. */
static gts_score hostile_score(uint64_t r)
{
    uint64_t v = tgame_mix(r);
    switch (r % 4) {
    case 0: return GTS_SCORE_LOSS + (gts_score)(v % (2 * GTS_SCORE_WIN + 1));
    case 1: return (gts_score)(v % 2001) - 1000;
    case 2: return GTS_SCORE_WIN - (gts_score)(v % 40);
    default: return GTS_SCORE_LOSS + (gts_score)(v % 40);
    }
}

static int hostile_bounds(void *state, gts_score *lo, gts_score *hi, void *user)
{
    hostile *h = user;
    uint64_t n = __atomic_fetch_add(&h->calls, 1, __ATOMIC_RELAXED);
    uint64_t key = tgame_mix(h->inner->hash(state, h->inner->user) ^ h->seed);
    if (h->mode == HOSTILE_FLICKER)
        key = tgame_mix(key ^ n);
    gts_score a = hostile_score(key), b = hostile_score(tgame_mix(key));
    switch (h->mode) {
    case HOSTILE_POINT:
        *lo = *hi = a;
        return 0;
    case HOSTILE_EXCLUDE: {
        gts_score l = GTS_SCORE_LOSS, u = GTS_SCORE_WIN;
        if (h->inner->bounds) {
            int rc = h->inner->bounds(state, &l, &u, h->inner->user);
            if (rc < 0)
                return rc;
        }
        gts_score w = (gts_score)(key % 100);
        if (u < GTS_SCORE_WIN) {
            *lo = u + 1;
            *hi = u + 1 + w <= GTS_SCORE_WIN ? u + 1 + w : GTS_SCORE_WIN;
        } else if (l > GTS_SCORE_LOSS) {
            *hi = l - 1;
            *lo = l - 1 - w >= GTS_SCORE_LOSS ? l - 1 - w : GTS_SCORE_LOSS;
        } else {
            *lo = *hi = a; /* nothing to exclude: a point */
        }
        return 0;
    }
    default:
        *lo = a < b ? a : b;
        *hi = a < b ? b : a;
        return 0;
    }
}

/* Every exact algorithm at 1 and 2 threads, every root driver, with and
 * without a node limit, on @inner behind hostile bounds. @restored
 * compares the state with its snapshot. */
static void hostile_searches(const gts_game *inner, void *s, int depth, const char *name,
                             bool (*restored)(void *s, const void *snapshot),
                             const void *snapshot)
{
    static const gts_root_driver DRIVERS[] = {GTS_ROOT_WINDOW, GTS_ROOT_BISECT, GTS_ROOT_MTDF};
    gts_algorithm all[64];
    int na = gts_algorithm_list(all, 64);
    gts_move legal[MAX_MOVES];
    int nlegal = inner->generate(s, legal, MAX_MOVES, inner->user);
    cr_assert(nlegal > 0);
    gts_engine *e[2] = {fx_engine_with(1, 1), fx_engine_with(2, 1)};
    for (int mode = 0; mode < HOSTILE_MODES; mode++) {
        hostile h = {inner, (enum hostile_mode)mode, 0x4057 + (uint64_t)mode, 0};
        gts_game g = *inner;
        g.bounds = hostile_bounds;
        g.user = &h;
        for (size_t d = 0; d < 3; d++) {
            for (int t = 0; t < 2; t++)
                cr_assert_eq(gts_engine_set(e[t], GTS_OPT_ROOT_DRIVER, DRIVERS[d]), GTS_OK);
            for (int a = 0; a < na; a++) {
                if (!gts_algorithm_is_exact(all[a]) || all[a] == GTS_ALG_MINIMAX)
                    continue;
                int nt = gts_algorithm_is_parallel(all[a]) ? 2 : 1;
                for (int t = 0; t < nt; t++) {
                    for (int limited = 0; limited < 2; limited++) {
                        gts_limits l = {.struct_size = sizeof l, .depth = depth,
                                        .nodes = limited ? 300 : 0};
                        gts_result r = {.struct_size = sizeof r};
                        gts_engine_clear(e[t]);
                        int rc = gts_search(e[t], all[a], &g, s, &l, &r);
                        const char *an = gts_algorithm_name(all[a]);
                        cr_assert_eq(rc, GTS_OK, "%s mode %d %s %s threads=%d nodes=%llu: %s",
                                     name, mode, driver_name(DRIVERS[d]), an, t + 1,
                                     (unsigned long long)l.nodes, gts_status_name(rc));
                        cr_expect(r.score >= -GTS_SCORE_INF && r.score <= GTS_SCORE_INF,
                                  "%s mode %d %s %s: score %d", name, mode,
                                  driver_name(DRIVERS[d]), an, r.score);
                        cr_expect(r.flags & GTS_RESULT_HAS_MOVE, "%s mode %d %s %s: a move",
                                  name, mode, driver_name(DRIVERS[d]), an);
                        int i = 0;
                        while (i < nlegal && legal[i] != r.best_move)
                            i++;
                        cr_expect(i < nlegal, "%s mode %d %s %s threads=%d: move %llu is legal",
                                  name, mode, driver_name(DRIVERS[d]), an, t + 1,
                                  (unsigned long long)r.best_move);
                        cr_expect(restored(s, snapshot), "%s mode %d %s %s: state restored",
                                  name, mode, driver_name(DRIVERS[d]), an);
                    }
                }
            }
        }
        cr_expect(h.calls > 0, "%s mode %d: bounds() was called", name, mode);
    }
    gts_engine_free(e[0]);
    gts_engine_free(e[1]);
}

/* Opaque built-in states: compared through their hash and moves. */
typedef struct hash_snapshot {
    const gts_game *g;
    uint64_t key;
    int n;
    gts_move moves[MAX_MOVES];
} hash_snapshot;

static void hash_snapshot_take(hash_snapshot *hs, const gts_game *g, void *s)
{
    hs->g = g;
    hs->key = g->hash(s, g->user);
    hs->n = g->generate(s, hs->moves, MAX_MOVES, g->user);
}

static bool hash_restored(void *s, const void *snapshot)
{
    const hash_snapshot *hs = snapshot;
    gts_move moves[MAX_MOVES];
    int n = hs->g->generate(s, moves, MAX_MOVES, hs->g->user);
    return hs->g->hash(s, hs->g->user) == hs->key && n == hs->n &&
           memcmp(moves, hs->moves, (size_t)n * sizeof moves[0]) == 0;
}

static bool tgame_restored(void *s, const void *snapshot)
{
    return memcmp(s, snapshot, sizeof(tgame)) == 0;
}

Test(bounds, unsound_ranges_on_random_trees)
{
    const gts_game *g = gts_game_randtree();
    for (uint64_t i = 0; i < 6; i++) {
        int depth;
        gts_randtree_params p = exact_tree(900 + i, &depth);
        void *s = fx_randtree_new(&p);
        hash_snapshot hs;
        hash_snapshot_take(&hs, g, s);
        char name[32];
        snprintf(name, sizeof name, "randtree %llu", (unsigned long long)(900 + i));
        hostile_searches(g, s, depth, name, hash_restored, &hs);
        gts_games_free(g, s);
    }
}

Test(bounds, unsound_ranges_on_games)
{
    static const struct {
        const char *game, *pos;
        int depth;
    } CASES[] = {
        {"tictactoe", "", 9}, {"tictactoe", "15", 7}, {"connect4", "4444433", 8},
        {"connect4", "44444332215566", 10},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const gts_game *g = gts_games_find(CASES[i].game);
        void *s;
        if (strcmp(CASES[i].game, "tictactoe") == 0)
            cr_assert_eq(gts_tictactoe_new(CASES[i].pos, &s), GTS_OK);
        else
            cr_assert_eq(gts_connect4_new(CASES[i].pos, &s), GTS_OK);
        hash_snapshot hs;
        hash_snapshot_take(&hs, g, s);
        char name[48];
        snprintf(name, sizeof name, "%s \"%s\"", CASES[i].game, CASES[i].pos);
        hostile_searches(g, s, CASES[i].depth, name, hash_restored, &hs);
        gts_games_free(g, s);
    }
}

Test(bounds, unsound_ranges_on_decided_leaves)
{
    /* tgame with decided leaves, so mate-distance windows meet broken ones. */
    tgame t;
    tgame_init(&t, 0xdec1, 3, 6);
    t.win_leaves = true;
    gts_game v = tgame_vtable(&t, true);
    tgame snapshot = t;
    hostile_searches(&v, &t, 6, "tgame", tgame_restored, &snapshot);
}

/* ---- failures -------------------------------------------------------------------- */

enum fail_kind { FAIL_NEGATIVE, FAIL_LO_ABOVE_HI, FAIL_LO_BELOW_LOSS, FAIL_HI_ABOVE_WIN };

typedef struct failing {
    enum fail_kind kind;
    uint64_t fail_at; /* 1-based call that fails */
    uint64_t calls;
} failing;

static int failing_bounds(void *state, gts_score *lo, gts_score *hi, void *user)
{
    (void)state;
    failing *f = user;
    uint64_t n = __atomic_add_fetch(&f->calls, 1, __ATOMIC_RELAXED);
    *lo = GTS_SCORE_LOSS;
    *hi = GTS_SCORE_WIN;
    if (n < f->fail_at)
        return 0;
    switch (f->kind) {
    case FAIL_NEGATIVE: return -5;
    case FAIL_LO_ABOVE_HI: *lo = 5; *hi = 3; return 0;
    case FAIL_LO_BELOW_LOSS: *lo = GTS_SCORE_LOSS - 1; *hi = 0; return 0;
    default: *lo = 0; *hi = GTS_SCORE_WIN + 1; return 0;
    }
}

static void failing_searches(enum fail_kind kind)
{
    static const gts_root_driver DRIVERS[] = {GTS_ROOT_WINDOW, GTS_ROOT_BISECT, GTS_ROOT_MTDF};
    static const uint64_t FAIL_AT[] = {1, 2, 7, 60};
    gts_algorithm all[64];
    int na = gts_algorithm_list(all, 64);
    gts_engine *e[2] = {fx_engine_with(1, 1), fx_engine_with(2, 1)};
    int expected = kind == FAIL_NEGATIVE ? GTS_ECALLBACK : GTS_ESCORE;
    for (size_t d = 0; d < 3; d++) {
        for (int t = 0; t < 2; t++)
            cr_assert_eq(gts_engine_set(e[t], GTS_OPT_ROOT_DRIVER, DRIVERS[d]), GTS_OK);
        for (int a = 0; a < na; a++) {
            if (all[a] == GTS_ALG_MINIMAX) /* the reference never asks for bounds */
                continue;
            int nt = gts_algorithm_is_parallel(all[a]) ? 2 : 1;
            for (int t = 0; t < nt; t++) {
                for (size_t k = 0; k < sizeof FAIL_AT / sizeof FAIL_AT[0]; k++) {
                    tgame g;
                    gts_game v = tgame_new(&g, 0xfa11 + k, 3, 6, true);
                    failing f = {kind, FAIL_AT[k], 0};
                    v.bounds = failing_bounds;
                    v.user = &f;
                    tgame before = g;
                    gts_limits l = {.struct_size = sizeof l, .depth = 6};
                    gts_result r = {.struct_size = sizeof r};
                    gts_engine_clear(e[t]);
                    int rc = gts_search(e[t], all[a], &v, &g, &l, &r);
                    const char *an = gts_algorithm_name(all[a]);
                    cr_expect_eq(rc, expected, "kind %d at call %llu %s %s threads=%d: %s", kind,
                                 (unsigned long long)FAIL_AT[k], driver_name(DRIVERS[d]), an,
                                 t + 1, gts_status_name(rc));
                    if (kind == FAIL_NEGATIVE)
                        cr_expect_eq(r.callback_status, -5, "%s: callback_status %d", an,
                                     r.callback_status);
                    else
                        cr_expect(r.callback_status != 0, "%s: callback_status holds a score",
                                  an);
                    cr_expect(memcmp(&g, &before, sizeof g) == 0,
                              "kind %d at call %llu %s %s threads=%d: state restored", kind,
                              (unsigned long long)FAIL_AT[k], driver_name(DRIVERS[d]), an, t + 1);
                }
            }
        }
    }
    gts_engine_free(e[0]);
    gts_engine_free(e[1]);
}

Test(bounds, negative_return_is_ecallback) { failing_searches(FAIL_NEGATIVE); }
Test(bounds, lo_above_hi_is_escore) { failing_searches(FAIL_LO_ABOVE_HI); }
Test(bounds, lo_below_loss_is_escore) { failing_searches(FAIL_LO_BELOW_LOSS); }
Test(bounds, hi_above_win_is_escore) { failing_searches(FAIL_HI_ABOVE_WIN); }
