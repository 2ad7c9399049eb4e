/* Engine lifecycle and options. */
#include <criterion/criterion.h>
#include <gts/gts.h>
#include "hook_internal.h"

static const gts_option ALL[] = {
    GTS_OPT_TT_MB,     GTS_OPT_TT_PREFETCH, GTS_OPT_TT_NEAR_DEPTH, GTS_OPT_TT_NEAR_KB,
    GTS_OPT_ASPIRATION,  GTS_OPT_KILLERS,
    GTS_OPT_HISTORY,   GTS_OPT_QUIESCENCE,  GTS_OPT_ITERATIVE,   GTS_OPT_ROOT_DRIVER, GTS_OPT_DEEPEN_NODES,
    GTS_OPT_COUNTER_MOVES,
    GTS_OPT_NBEST,     GTS_OPT_NBEST_DEPTH,
    GTS_OPT_NULL_MOVE, GTS_OPT_LMR, GTS_OPT_FUTILITY, GTS_OPT_RAZOR, GTS_OPT_LMP, GTS_OPT_CONTEMPT,
    GTS_OPT_THREADS,     GTS_OPT_VIRTUAL, GTS_OPT_SPLIT_PLY,
    GTS_OPT_JAMBOREE_SERIAL,
    GTS_OPT_MCTS_EXPLORATION, GTS_OPT_MCTS_PLAYOUTS, GTS_OPT_MCTS_PLAYOUT_DEPTH,
    GTS_OPT_MCTS_EVAL_SCALE,  GTS_OPT_TREE_MB,  GTS_OPT_MCTS_SEED,
    GTS_OPT_MCTS_PARALLEL,    GTS_OPT_MCTS_VIRTUAL_LOSS, GTS_OPT_MCTS_PRIOR,
    GTS_OPT_MCTS_RAVE,        GTS_OPT_MCTS_REUSE,
    GTS_OPT_MCTS_CPUCT,       GTS_OPT_MCTS_FPU, GTS_OPT_MCTS_BATCH, GTS_OPT_MCTS_NOISE_ALPHA,
    GTS_OPT_MCTS_NOISE_FRACTION, GTS_OPT_MCTS_TEMPERATURE,
    GTS_OPT_BSTAR_MARGIN,     GTS_OPT_MMA_P,   GTS_OPT_MMA_SCALE, GTS_OPT_MMA_BACKUP,
};

Test(engine, new_and_free)
{
    gts_engine *e = NULL;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_assert_not_null(e);
    gts_engine_free(e);
    gts_engine_free(NULL); /* accepted */
    cr_expect_eq(gts_engine_new(NULL), GTS_EINVAL);
}

Test(engine, defaults_match_bounds)
{
    gts_engine *e;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    for (size_t i = 0; i < sizeof ALL / sizeof ALL[0]; i++) {
        int64_t lo, hi, def, v;
        cr_assert_eq(gts_option_bounds(ALL[i], &lo, &hi, &def), GTS_OK, "bounds of %d", ALL[i]);
        cr_expect(lo <= def && def <= hi, "default of %d inside its bounds", ALL[i]);
        cr_assert_eq(gts_engine_get(e, ALL[i], &v), GTS_OK);
        cr_expect_eq(v, def, "option %d starts at its default", ALL[i]);
        cr_expect_eq(gts_engine_set(e, ALL[i], hi + 1), GTS_ERANGE, "above max of %d", ALL[i]);
        cr_expect_eq(gts_engine_set(e, ALL[i], lo - 1), GTS_ERANGE, "below min of %d", ALL[i]);
        if (ALL[i] != GTS_OPT_TT_MB) {
            cr_expect_eq(gts_engine_set(e, ALL[i], hi), GTS_OK, "max of %d accepted", ALL[i]);
            cr_assert_eq(gts_engine_get(e, ALL[i], &v), GTS_OK);
            cr_expect_eq(v, hi);
        }
    }
    gts_engine_free(e);
}

Test(engine, unknown_option)
{
    gts_engine *e;
    int64_t v;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_expect_eq(gts_engine_set(e, (gts_option)99, 1), GTS_EOPTION);
    cr_expect_eq(gts_engine_get(e, (gts_option)99, &v), GTS_EOPTION);
    cr_expect_eq(gts_option_bounds((gts_option)12345, NULL, NULL, NULL), GTS_EOPTION);
    cr_expect_eq(gts_engine_get(e, GTS_OPT_THREADS, NULL), GTS_EINVAL);
    cr_expect_eq(gts_engine_set(NULL, GTS_OPT_THREADS, 2), GTS_EINVAL);
    cr_expect_eq(gts_engine_get(NULL, GTS_OPT_THREADS, &v), GTS_EINVAL);
    gts_engine_free(e);
}

Test(engine, tt_resize_and_disable)
{
    gts_engine *e;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_expect_eq(gts_engine_set(e, GTS_OPT_TT_MB, 1), GTS_OK);
    cr_expect_eq(gts_engine_set(e, GTS_OPT_TT_MB, 0), GTS_OK, "0 disables the table");
    cr_expect_eq(gts_engine_hashfull(e), 0);
    cr_expect_eq(gts_engine_set(e, GTS_OPT_TT_MB, 4), GTS_OK);
    cr_expect_eq(gts_engine_clear(e), GTS_OK);
    cr_expect_eq(gts_engine_clear(NULL), GTS_EINVAL);
    cr_expect_eq(gts_engine_hashfull(NULL), 0);
    gts_engine_free(e);
}

Test(engine, impossible_tt_size_keeps_engine_usable)
{
    gts_engine *e;
    int64_t v;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    /* 1 TiB: the allocation fails cleanly (or, with overcommit, succeeds). */
    int rc = gts_engine_set(e, GTS_OPT_TT_MB, 1 << 20);
    cr_expect(rc == GTS_OK || rc == GTS_ENOMEM, "got %s", gts_status_name(rc));
    cr_assert_eq(gts_engine_get(e, GTS_OPT_TT_MB, &v), GTS_OK);
    cr_expect(rc == GTS_OK ? v == (1 << 20) : v == 16, "the value reflects what was allocated");
    cr_expect_eq(gts_engine_set(e, GTS_OPT_TT_MB, 1), GTS_OK);
    gts_engine_free(e);
}

Test(engine, stop_without_search_is_harmless)
{
    gts_engine *e;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    gts_engine_stop(e);
    gts_engine_stop(NULL);
    gts_engine_free(e);
}

Test(engine, algorithm_names_round_trip)
{
    gts_algorithm list[64];
    int n = gts_algorithm_list(list, 64);
    cr_assert(n >= 3, "at least minimax, alphabeta and pvs");
    for (int i = 0; i < n; i++) {
        const char *name = gts_algorithm_name(list[i]);
        cr_assert_not_null(name);
        gts_algorithm a;
        cr_expect_eq(gts_algorithm_from_name(name, &a), GTS_OK, "%s parses", name);
        cr_expect_eq(a, list[i]);
    }
    gts_algorithm a;
    cr_expect_eq(gts_algorithm_from_name("gts_pvs", &a), GTS_OK, "the gts_ prefix is accepted");
    cr_expect_eq(a, GTS_ALG_PVS);
    cr_expect_eq(gts_algorithm_from_name("nope", &a), GTS_EALGORITHM);
    cr_expect_eq(gts_algorithm_from_name(NULL, &a), GTS_EINVAL);
    cr_expect_null(gts_algorithm_name((gts_algorithm)999));
    cr_expect(gts_algorithm_is_exact(GTS_ALG_MINIMAX));
    cr_expect(!gts_algorithm_is_exact((gts_algorithm)999));
    cr_expect(!gts_algorithm_is_parallel(GTS_ALG_ALPHABETA));
}

Test(engine, option_names_round_trip)
{
    gts_option list[64];
    int n = gts_option_list(list, 64);
    cr_assert_eq(n, (int)(sizeof ALL / sizeof ALL[0]), "every option is listed");
    cr_expect_eq(gts_option_list(NULL, 0), n, "NULL asks for the count");
    for (int i = 0; i < n; i++) {
        const char *name = gts_option_name(list[i]);
        cr_assert_not_null(name, "option %d has a name", list[i]);
        gts_option o;
        cr_expect_eq(gts_option_from_name(name, &o), GTS_OK, "%s parses", name);
        cr_expect_eq(o, list[i]);
        cr_expect_eq(gts_option_bounds(o, NULL, NULL, NULL), GTS_OK);
    }
    cr_expect_str_eq(gts_option_name(GTS_OPT_TT_MB), "tt_mb");
    cr_expect_str_eq(gts_option_name(GTS_OPT_NBEST_DEPTH), "nbest_depth");
    /* The rule (the enum name without GTS_OPT_, lowercase), and the former
     * name still parses. */
    cr_expect_str_eq(gts_option_name(GTS_OPT_VIRTUAL), "virtual");
    gts_option o;
    cr_expect_eq(gts_option_from_name("virtual_procs", &o), GTS_OK);
    cr_expect_eq(o, GTS_OPT_VIRTUAL);
    cr_expect_eq(gts_option_from_name("nope", &o), GTS_EOPTION);
    cr_expect_eq(gts_option_from_name(NULL, &o), GTS_EINVAL);
    cr_expect_null(gts_option_name((gts_option)12345));
}

/* The watch of libgts-mpi (lib/hook_internal.h): a stop while it is open is
 * recorded even with no search running; one before it opened, or a cancel,
 * is not. */
Test(engine, watch_records_stops_between_searches)
{
    gts_engine *e = NULL;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    gts_engine_stop(e);
    cr_assert_eq(gts__engine_watch_begin(e), GTS_OK);
    cr_assert(!gts__engine_watch_stopped(e), "a stop before the watch opened is dropped");
    cr_assert_eq(gts__engine_watch_begin(e), GTS_EBUSY, "one watch at a time");
    gts__engine_cancel(e);
    cr_assert(!gts__engine_watch_stopped(e), "a cancel is not the user's stop");
    gts_engine_stop(e);
    cr_assert(gts__engine_watch_stopped(e), "a stop while the watch is open is recorded");
    gts__engine_watch_end(e);
    cr_assert(!gts__engine_watch_stopped(e), "closing the watch forgets the stop");
    cr_assert_eq(gts__engine_watch_begin(e), GTS_OK);
    cr_assert(!gts__engine_watch_stopped(e), "each watch starts unstopped");
    gts__engine_watch_end(e);
    cr_assert_eq(gts__engine_watch_begin(NULL), GTS_EINVAL);
    cr_assert(!gts__engine_watch_stopped(NULL));
    gts__engine_watch_end(NULL);
    gts__engine_cancel(NULL);
    gts_engine_free(e);
}
