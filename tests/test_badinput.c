/* Bad input never crashes: every misuse gets a clear status. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <gts/gts.h>
#include "fixture.h"

Test(badinput, null_pointers)
{
    tgame g;
    gts_game v = tgame_new(&g, 1, 2, 3, true);
    gts_engine *e = fx_engine();
    gts_result r = {.struct_size = sizeof r};
    cr_expect_eq(gts_search(NULL, GTS_ALG_PVS, &v, &g, NULL, &r), GTS_EINVAL);
    cr_expect_eq(gts_search(e, GTS_ALG_PVS, NULL, &g, NULL, &r), GTS_EINVAL);
    cr_expect_eq(gts_search(e, GTS_ALG_PVS, &v, NULL, NULL, &r), GTS_EINVAL);
    cr_expect_eq(gts_search(e, GTS_ALG_PVS, &v, &g, NULL, NULL), GTS_EINVAL);
    cr_expect_eq(gts_minimax(e, &v, &g, NULL, &r), GTS_OK, "NULL limits means defaults");
    gts_engine_free(e);
}

Test(badinput, struct_sizes)
{
    tgame g;
    gts_game v = tgame_new(&g, 1, 2, 3, true);
    gts_engine *e = fx_engine();
    gts_result r = {.struct_size = sizeof r - 8};
    gts_limits l = {.struct_size = sizeof l};
    cr_expect_eq(gts_alphabeta(e, &v, &g, &l, &r), GTS_ESTRUCT, "undersized result");
    r.struct_size = 0;
    cr_expect_eq(gts_alphabeta(e, &v, &g, &l, &r), GTS_ESTRUCT, "zero result size");
    r.struct_size = sizeof r;
    l.struct_size = 4;
    cr_expect_eq(gts_alphabeta(e, &v, &g, &l, &r), GTS_ESTRUCT, "undersized limits");
    struct {
        gts_limits l;
        unsigned char tail[64];
    } newer = {.l = l};
    newer.l.struct_size = sizeof l + 64;
    newer.tail[63] = 1;
    cr_expect_eq(gts_alphabeta(e, &v, &g, &newer.l, &r), GTS_ESTRUCT,
                 "limits from the future with a field this version does not know");
    l.struct_size = sizeof l;
    v.struct_size = GTS_GAME_SIZE_V0_1 - 1;
    cr_expect_eq(gts_alphabeta(e, &v, &g, &l, &r), GTS_ESTRUCT, "undersized game");
    gts_engine_free(e);
}

Test(badinput, game_vtable_checks)
{
    tgame g;
    tgame_init(&g, 1, 2, 3);
    gts_engine *e = fx_engine();
    gts_result r = {.struct_size = sizeof r};
    gts_game v = tgame_vtable(&g, true);
    v.generate = NULL;
    cr_expect_eq(gts_pvs(e, &v, &g, NULL, &r), GTS_EINVAL, "generate is required");
    v = tgame_vtable(&g, true);
    v.evaluate = NULL;
    cr_expect_eq(gts_pvs(e, &v, &g, NULL, &r), GTS_EINVAL, "evaluate is required");
    v = tgame_vtable(&g, true);
    v.max_moves = 0;
    cr_expect_eq(gts_pvs(e, &v, &g, NULL, &r), GTS_ERANGE, "max_moves 0");
    v.max_moves = 70000;
    cr_expect_eq(gts_pvs(e, &v, &g, NULL, &r), GTS_ERANGE, "max_moves too large");
    gts_engine_free(e);
}

Test(badinput, limits_out_of_range)
{
    tgame g;
    gts_game v = tgame_new(&g, 1, 2, 3, true);
    gts_engine *e = fx_engine();
    gts_result r = {.struct_size = sizeof r};
    gts_limits l = {.struct_size = sizeof l, .depth = -1};
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ERANGE, "negative depth");
    l.depth = GTS_MAX_DEPTH + 1;
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ERANGE, "depth beyond the maximum");
    l.depth = 3;
    l.alpha = 10;
    l.beta = 5;
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_EINVAL, "empty window");
    l.alpha = -GTS_SCORE_INF - 1;
    l.beta = 0;
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ERANGE, "alpha below -INF");
    l.alpha = 0;
    l.beta = 0;
    l.has_guess = true;
    l.guess = GTS_SCORE_INF + 1;
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ERANGE, "guess out of range");
    cr_expect_eq(gts_search(e, (gts_algorithm)0, &v, &g, NULL, &r), GTS_EALGORITHM);
    cr_expect_eq(gts_search(e, (gts_algorithm)12345, &v, &g, NULL, &r), GTS_EALGORITHM);
    gts_engine_free(e);
}

Test(badinput, failing_callbacks_give_clear_status)
{
    const gts_algorithm algs[] = {GTS_ALG_MINIMAX, GTS_ALG_ALPHABETA, GTS_ALG_PVS};
    for (size_t a = 0; a < 3; a++)
        for (uint64_t at = 1; at < 60; at += 3) {
            tgame g;
            tgame_faults faults = {.fail_undo_at = at};
            tgame_init(&g, 5, 3, 4);
            g.f = &faults;
            gts_game v = tgame_vtable(&g, true);
            gts_engine *e = fx_engine();
            gts_result r = {.struct_size = sizeof r};
            int rc = gts_search(e, algs[a], &v, &g, NULL, &r);
            cr_expect(rc == GTS_ECALLBACK || rc == GTS_OK, "undo failing at call %llu: %s",
                      (unsigned long long)at, gts_status_name(rc));
            gts_engine_free(e);
        }
}

static gts_engine *reentrant_engine;
static int reentrant_status;
static int search_again(const gts_result *r, void *user)
{
    tgame *g = user;
    gts_game v = tgame_vtable(g, true);
    gts_result r2 = {.struct_size = sizeof r2};
    reentrant_status = gts_alphabeta(reentrant_engine, &v, g, NULL, &r2);
    return 1;
}

Test(badinput, second_search_on_a_busy_engine)
{
    tgame g;
    gts_game v = tgame_new(&g, 1, 2, 3, true);
    reentrant_engine = fx_engine();
    gts_limits l = {.struct_size = sizeof l, .depth = 3, .on_iteration = search_again,
                    .on_iteration_user = &g};
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(gts_alphabeta(reentrant_engine, &v, &g, &l, &r), GTS_OK);
    cr_expect_eq(reentrant_status, GTS_EBUSY, "a search from inside a search is refused");
    cr_expect_eq(gts_engine_set(reentrant_engine, GTS_OPT_THREADS, 2), GTS_OK, "idle again");
    gts_engine_free(reentrant_engine);
}

Test(badinput, parallel_options_out_of_range)
{
    gts_engine *e = fx_engine();
    cr_expect_eq(gts_engine_set(e, GTS_OPT_THREADS, 0), GTS_ERANGE);
    cr_expect_eq(gts_engine_set(e, GTS_OPT_THREADS, 257), GTS_ERANGE);
    cr_expect_eq(gts_engine_set(e, GTS_OPT_TT_MB, -1), GTS_ERANGE);
    gts_engine_free(e);
}

/* While a search runs, another thread's engine changes are refused with
 * GTS_EBUSY (they claim the busy flag, as a search does) and leave the
 * engine as it was. */
typedef struct changer {
    gts_engine *e;
    int set_tt, set_threads, clear;
} changer;

static void *change_engine(void *arg)
{
    changer *ch = arg;
    ch->set_tt = gts_engine_set(ch->e, GTS_OPT_TT_MB, 3);
    ch->set_threads = gts_engine_set(ch->e, GTS_OPT_THREADS, 2);
    ch->clear = gts_engine_clear(ch->e);
    return NULL;
}

static int change_from_another_thread(const gts_result *r, void *user)
{
    (void)r;
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, change_engine, user), 0);
    pthread_join(t, NULL);
    return 0;
}

Test(badinput, engine_changes_during_a_search_are_refused)
{
    tgame g;
    gts_game v = tgame_new(&g, 4, 3, 5, true);
    changer ch = {.e = fx_engine()};
    gts_limits l = {.struct_size = sizeof l, .depth = 5, .on_iteration = change_from_another_thread,
                    .on_iteration_user = &ch};
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(gts_pvs(ch.e, &v, &g, &l, &r), GTS_OK);
    cr_expect_eq(ch.set_tt, GTS_EBUSY, "resizing the table under a search is refused");
    cr_expect_eq(ch.set_threads, GTS_EBUSY);
    cr_expect_eq(ch.clear, GTS_EBUSY);
    int64_t tt = 0;
    cr_assert_eq(gts_engine_get(ch.e, GTS_OPT_TT_MB, &tt), GTS_OK);
    cr_expect_neq(tt, 3, "a refused change changes nothing");
    cr_expect_eq(gts_engine_set(ch.e, GTS_OPT_TT_MB, 3), GTS_OK, "idle again");
    gts_engine_free(ch.e);
}

/* A stop that arrives as soon as a search holds the engine is never lost
 * (issue 11, 2.9): it used to fall between the search claiming the busy
 * flag and resetting the stop flag. Another thread watches for a search to
 * hold the engine (its own change is refused with GTS_EBUSY) and stops it at
 * once; every search must end stopped, never by its safety time limit. */
typedef struct stopper {
    gts_engine *e;
    uint32_t armed, quit;
} stopper;

static void *stop_once_held(void *arg)
{
    stopper *s = arg;
    while (!__atomic_load_n(&s->quit, __ATOMIC_ACQUIRE)) {
        if (!__atomic_load_n(&s->armed, __ATOMIC_ACQUIRE))
            continue;
        if (gts_engine_set(s->e, GTS_OPT_KILLERS, 1) == GTS_EBUSY) {
            gts_engine_stop(s->e);
            __atomic_store_n(&s->armed, 0, __ATOMIC_RELEASE);
        }
    }
    return NULL;
}

Test(badinput, stop_right_after_the_search_starts_is_kept, .timeout = 120)
{
    tgame g;
    gts_game v = tgame_new(&g, 11, 8, 40, true);
    stopper s = {.e = fx_engine()};
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, stop_once_held, &s), 0);
    int lost = 0, runs = 300;
    for (int i = 0; i < runs; i++) {
        gts_limits l = {.struct_size = sizeof l, .time_ms = 2000};
        gts_result r = {.struct_size = sizeof r};
        __atomic_store_n(&s.armed, 1, __ATOMIC_RELEASE);
        gts_status rc;
        while ((rc = gts_alphabeta(s.e, &v, &g, &l, &r)) == GTS_EBUSY)
            ; /* the stopper's own change held the engine */
        cr_assert_eq(rc, GTS_OK);
        if (!(r.flags & GTS_RESULT_STOPPED) || (r.flags & GTS_RESULT_TIME_LIMIT))
            lost++;
        while (__atomic_load_n(&s.armed, __ATOMIC_ACQUIRE))
            ; /* the stop was issued during this search */
        cr_assert_eq(g.ply, 0, "the state is restored");
    }
    __atomic_store_n(&s.quit, 1, __ATOMIC_RELEASE);
    pthread_join(t, NULL);
    cr_expect_eq(lost, 0, "%d of %d stops lost", lost, runs);
    gts_engine_free(s.e);
}

/* A time limit beyond the clock's range is no limit: it used to wrap into
 * a deadline in the past and stop the search after the first poll. */
Test(badinput, huge_time_limits_saturate)
{
    const uint64_t HUGE[] = {UINT64_MAX, UINT64_C(18446744073709), UINT64_MAX / 1000000u};
    for (size_t i = 0; i < sizeof HUGE / sizeof HUGE[0]; i++) {
        tgame g;
        gts_game v = tgame_new(&g, 9, 4, 8, true);
        gts_engine *e = fx_engine();
        gts_limits l = {.struct_size = sizeof l, .depth = 8, .time_ms = HUGE[i]};
        gts_result r = {.struct_size = sizeof r};
        cr_assert_eq(gts_minimax(e, &v, &g, &l, &r), GTS_OK);
        cr_expect_eq(r.depth, 8, "time_ms %llu: the search reaches its depth",
                     (unsigned long long)HUGE[i]);
        cr_expect(!(r.flags & GTS_RESULT_TIME_LIMIT), "time_ms %llu: no time stop",
                  (unsigned long long)HUGE[i]);
        cr_expect_gt(r.nodes, 10000, "a real search (%llu nodes)", (unsigned long long)r.nodes);
        gts_engine_free(e);
    }
}
