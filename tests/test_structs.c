/* Versioned structs (issue 11, §1): every struct_size from the 0.1 layout
 * up to the library's own is accepted, later fields default, only the
 * caller's size of an output is written, and a newer (larger) struct is
 * accepted only with a zero tail. Structs that must not be read or written
 * past their size live in heap blocks of exactly that size, so that
 * AddressSanitizer (scripts/sanitize) sees any access beyond them; the other
 * checks use canary bytes, which every build sees. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <gts/gts.h>
#include "fixture.h"

#define CANARY 0xa5

/* A heap copy of the first @size bytes of @src, with struct_size = @size
 * (not inlined: the compiler would warn about the deliberately small block). */
__attribute__((noinline)) static void *exact_copy(const void *src, size_t size)
{
    void *p = malloc(size);
    cr_assert_not_null(p);
    memcpy(p, src, size);
    memcpy(p, &size, sizeof size);
    return p;
}

static bool all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return false;
    return true;
}

static int never_called_bounds(void *s, gts_score *lo, gts_score *hi, void *user)
{
    (void)s, (void)lo, (void)hi, (void)user;
    cr_assert_fail("bounds() lies beyond the caller's struct_size and was called");
    return -1;
}

Test(structs, sizes_are_exported)
{
    cr_expect_eq(gts_struct_size(GTS_STRUCT_GAME), sizeof(gts_game));
    cr_expect_eq(gts_struct_size(GTS_STRUCT_LIMITS), sizeof(gts_limits));
    cr_expect_eq(gts_struct_size(GTS_STRUCT_RESULT), sizeof(gts_result));
    cr_expect_eq(gts_struct_size(GTS_STRUCT_PROBCUT_PARAMS), sizeof(gts_probcut_params));
    cr_expect_eq(gts_struct_size(GTS_STRUCT_PROBCUT_FIT), sizeof(gts_probcut_fit));
    cr_expect_eq(gts_struct_size(GTS_STRUCT_ALLOCATOR), sizeof(gts_allocator));
    cr_expect_eq(gts_struct_size(GTS_STRUCT_CHECK_OPTIONS), sizeof(gts_check_options));
    cr_expect_eq(gts_struct_size(GTS_STRUCT_CHECK_REPORT), sizeof(gts_check_report));
    cr_expect_eq(gts_struct_size((gts_struct_id)0), 0u);
    cr_expect_eq(gts_struct_size((gts_struct_id)99), 0u);
}

Test(structs, layouts_only_grow)
{
    cr_expect(GTS_GAME_SIZE_V0_1 < GTS_GAME_SIZE_V0_2);
    cr_expect(GTS_GAME_SIZE_V0_2 <= sizeof(gts_game));
    cr_expect(GTS_LIMITS_SIZE_V0_1 <= sizeof(gts_limits));
    cr_expect(GTS_RESULT_SIZE_V0_1 <= sizeof(gts_result));
    cr_expect(GTS_PROBCUT_PARAMS_SIZE_V0_1 <= sizeof(gts_probcut_params));
    cr_expect(GTS_PROBCUT_FIT_SIZE_V0_1 <= sizeof(gts_probcut_fit));
    cr_expect(GTS_ALLOCATOR_SIZE_V0_1 <= sizeof(gts_allocator));
    cr_expect_eq(offsetof(gts_game, bounds), GTS_GAME_SIZE_V0_1, "0.2 starts after 0.1");
}

/* A caller built against the 0.1 headers: game, limits and result of the
 * 0.1 sizes. Same answer as the full-size call; the game's later fields
 * are never read; nothing past the result's size is written. */
Test(structs, a_0_1_caller_searches)
{
    tgame g;
    gts_game v = tgame_new(&g, 7, 3, 6, true);
    gts_engine *e = fx_engine();
    gts_limits l = {.struct_size = sizeof l, .depth = 6};
    gts_result full = {.struct_size = sizeof full};
    cr_assert_eq(gts_pvs(e, &v, &g, &l, &full), GTS_OK);

    gts_game v01 = v;
    v01.bounds = never_called_bounds; /* beyond the 0.1 size: must not be used */
    gts_game *vp = exact_copy(&v01, GTS_GAME_SIZE_V0_1);
    gts_limits *lp = exact_copy(&l, GTS_LIMITS_SIZE_V0_1);
    gts_result zero = {.struct_size = 0};
    gts_result *rp = exact_copy(&zero, GTS_RESULT_SIZE_V0_1);
    cr_assert_eq(gts_engine_clear(e), GTS_OK);
    cr_assert_eq(gts_pvs(e, vp, &g, lp, rp), GTS_OK);
    cr_expect_eq(rp->struct_size, GTS_RESULT_SIZE_V0_1, "struct_size stays the caller's");
    cr_expect_eq(rp->score, full.score);
    cr_expect_eq(rp->best_move, full.best_move);
    cr_expect_eq(rp->depth, full.depth);
    cr_expect_eq(rp->nodes, full.nodes);
    cr_expect_eq(rp->pv_length, full.pv_length);
    cr_expect_eq(g.ply, 0);

    /* The same sizes inside larger buffers: the bytes past them stay. */
    union {
        gts_result r;
        unsigned char raw[sizeof(gts_result) + 32];
    } box;
    memset(&box, CANARY, sizeof box);
    box.r.struct_size = GTS_RESULT_SIZE_V0_1;
    box.r.thread_nodes = NULL;
    box.r.thread_nodes_capacity = 0;
    cr_assert_eq(gts_pvs(e, vp, &g, lp, &box.r), GTS_OK);
    cr_expect_eq(box.r.score, full.score);
    cr_expect(all_bytes(box.raw + GTS_RESULT_SIZE_V0_1,
                        sizeof box.raw - GTS_RESULT_SIZE_V0_1, CANARY),
              "nothing written past the caller's struct_size");
    free(vp);
    free(lp);
    free(rp);
    gts_engine_free(e);
}

/* on_iteration receives the caller's struct, with the caller's size. */
static int check_progress(const gts_result *r, void *user)
{
    const gts_result **seen = user;
    *seen = r;
    cr_expect_eq(r->struct_size, GTS_RESULT_SIZE_V0_1);
    cr_expect(r->depth >= 1);
    return 0;
}

Test(structs, progress_sees_the_callers_result)
{
    tgame g;
    gts_game v = tgame_new(&g, 8, 3, 4, false);
    gts_engine *e = fx_engine();
    const gts_result *seen = NULL;
    gts_limits l = {.struct_size = sizeof l, .depth = 4, .on_iteration = check_progress,
                    .on_iteration_user = &seen};
    gts_result zero = {.struct_size = 0};
    gts_result *rp = exact_copy(&zero, GTS_RESULT_SIZE_V0_1);
    cr_assert_eq(gts_alphabeta(e, &v, &g, &l, rp), GTS_OK);
    cr_expect_eq(seen, rp);
    free(rp);
    gts_engine_free(e);
}

/* A caller built against newer headers: larger structs are accepted when
 * the tail the library does not know is zero, refused otherwise. */
Test(structs, newer_callers_need_a_zero_tail)
{
    tgame g;
    tgame_init(&g, 9, 3, 4);
    gts_engine *e = fx_engine();
    struct {
        gts_game v;
        unsigned char tail[24];
    } game = {.v = tgame_vtable(&g, true)};
    struct {
        gts_limits l;
        unsigned char tail[24];
    } lim = {.l = {.depth = 4}};
    struct {
        gts_result r;
        unsigned char tail[24];
    } res;
    memset(&res, 0, sizeof res);
    game.v.struct_size = sizeof game;
    lim.l.struct_size = sizeof lim;
    res.r.struct_size = sizeof res;
    cr_assert_eq(gts_pvs(e, &game.v, &g, &lim.l, &res.r), GTS_OK);
    cr_expect_eq(res.r.struct_size, sizeof res);
    cr_expect(all_bytes(res.tail, sizeof res.tail, 0), "unknown output fields untouched");

    game.tail[5] = 1;
    cr_expect_eq(gts_pvs(e, &game.v, &g, &lim.l, &res.r), GTS_ESTRUCT, "game");
    game.tail[5] = 0;
    lim.tail[23] = 1;
    cr_expect_eq(gts_pvs(e, &game.v, &g, &lim.l, &res.r), GTS_ESTRUCT, "limits");
    lim.tail[23] = 0;
    res.tail[0] = 1;
    cr_expect_eq(gts_pvs(e, &game.v, &g, &lim.l, &res.r), GTS_ESTRUCT, "result");
    res.tail[0] = 0;

    /* An absurd size is refused without reading that far. */
    lim.l.struct_size = sizeof(gts_limits) + 4097;
    cr_expect_eq(gts_pvs(e, &game.v, &g, &lim.l, &res.r), GTS_ESTRUCT);
    lim.l.struct_size = SIZE_MAX;
    cr_expect_eq(gts_pvs(e, &game.v, &g, &lim.l, &res.r), GTS_ESTRUCT);
    gts_engine_free(e);
}

Test(structs, below_the_0_1_layout_is_refused)
{
    tgame g;
    gts_game v = tgame_new(&g, 9, 3, 4, true);
    gts_engine *e = fx_engine();
    gts_limits l = {.struct_size = sizeof l, .depth = 3};
    gts_result r = {.struct_size = sizeof r};
    v.struct_size = GTS_GAME_SIZE_V0_1 - 1;
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ESTRUCT);
    v.struct_size = sizeof v;
    l.struct_size = GTS_LIMITS_SIZE_V0_1 - 1;
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ESTRUCT);
    l.struct_size = sizeof l;
    r.struct_size = GTS_RESULT_SIZE_V0_1 - 1;
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ESTRUCT);
    r.struct_size = 0;
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ESTRUCT);
    gts_engine_free(e);
}

Test(structs, probcut_params_of_the_0_1_layout)
{
    gts_engine *e = fx_engine();
    gts_probcut_params full = {.struct_size = sizeof full};
    cr_assert_eq(gts_probcut_defaults(&full), GTS_OK);

    size_t n = GTS_PROBCUT_PARAMS_SIZE_V0_1;
    gts_probcut_params zero = {.struct_size = 0};
    gts_probcut_params *p = exact_copy(&zero, n);
    cr_assert_eq(gts_probcut_defaults(p), GTS_OK);
    cr_expect_eq(p->struct_size, n, "struct_size stays the caller's");
    cr_expect_eq(p->npairs, full.npairs);
    cr_expect_eq(p->iid, full.iid);
    p->pair[0].sigma = 55.0;
    p->iid = false;
    cr_assert_eq(gts_engine_set_probcut(e, p), GTS_OK);
    memset(p, 0, n);
    p->struct_size = n;
    cr_assert_eq(gts_engine_get_probcut(e, p), GTS_OK);
    cr_expect_eq(p->pair[0].sigma, 55.0);
    cr_expect_eq(p->iid, false);

    p->struct_size = n - 1;
    cr_expect_eq(gts_probcut_defaults(p), GTS_ESTRUCT);
    cr_expect_eq(gts_engine_get_probcut(e, p), GTS_ESTRUCT);
    cr_expect_eq(gts_engine_set_probcut(e, p), GTS_ESTRUCT);
    free(p);

    /* Newer callers: zero tail accepted, nonzero refused. */
    struct {
        gts_probcut_params p;
        unsigned char tail[16];
    } newer;
    memset(&newer, 0, sizeof newer);
    newer.p.struct_size = sizeof newer;
    cr_assert_eq(gts_probcut_defaults(&newer.p), GTS_OK);
    cr_expect(all_bytes(newer.tail, sizeof newer.tail, 0));
    cr_expect_eq(gts_engine_set_probcut(e, &newer.p), GTS_OK);
    newer.tail[3] = 7;
    cr_expect_eq(gts_engine_set_probcut(e, &newer.p), GTS_ESTRUCT);
    gts_engine_free(e);
}

Test(structs, probcut_fit_and_game_of_the_0_1_layout)
{
    tgame g;
    gts_game v = tgame_new(&g, 12, 4, 8, true);
    gts_engine *e = fx_engine();
    gts_probcut_fit full = {.struct_size = sizeof full};
    gts_status rc = gts_probcut_calibrate(e, &v, NULL, 0, &g, 40, 3, 4, 1, 3, &full);
    cr_assert_eq(rc, GTS_OK);

    gts_game *vp = exact_copy(&v, GTS_GAME_SIZE_V0_1);
    gts_probcut_fit zero = {.struct_size = 0};
    gts_probcut_fit *fp = exact_copy(&zero, GTS_PROBCUT_FIT_SIZE_V0_1);
    cr_assert_eq(gts_engine_clear(e), GTS_OK);
    rc = gts_probcut_calibrate(e, vp, NULL, 0, &g, 40, 3, 4, 1, 3, fp);
    cr_assert_eq(rc, GTS_OK);
    cr_expect_eq(fp->struct_size, GTS_PROBCUT_FIT_SIZE_V0_1);
    cr_expect_eq(fp->samples, full.samples);
    cr_expect_eq(fp->a, full.a);
    fp->struct_size = GTS_PROBCUT_FIT_SIZE_V0_1 - 1;
    cr_expect_eq(gts_probcut_calibrate(e, vp, NULL, 0, &g, 40, 3, 4, 1, 3, fp), GTS_ESTRUCT);
    free(vp);
    free(fp);
    gts_engine_free(e);
}

static void *my_allocate(size_t size, void *user)
{
    ++*(int *)user;
    return malloc(size);
}

static void my_release(void *p, size_t size, void *user)
{
    (void)size, (void)user;
    free(p);
}

Test(structs, allocator_of_the_0_1_layout)
{
    int calls = 0;
    gts_allocator a = {.struct_size = sizeof a, .allocate = my_allocate,
                       .release = my_release, .user = &calls};
    gts_allocator *ap = exact_copy(&a, GTS_ALLOCATOR_SIZE_V0_1);
    gts_engine *e = NULL;
    cr_assert_eq(gts_engine_new_with(&e, ap), GTS_OK);
    cr_expect(calls > 0);
    gts_engine_free(e);
    ap->struct_size = GTS_ALLOCATOR_SIZE_V0_1 - 1;
    cr_expect_eq(gts_engine_new_with(&e, ap), GTS_EINVAL);
    free(ap);
}

/* ---- issue 31: sizes must cover whole fields, and the error names the struct ---- */

#include "struct_internal.h"

static int bounds_calls;
static int counting_bounds(void *s, gts_score *lo, gts_score *hi, void *user)
{
    (void)s, (void)user;
    bounds_calls++;
    *lo = GTS_SCORE_LOSS;
    *hi = GTS_SCORE_WIN;
    return 0;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* gts_game at GTS_GAME_SIZE_V0_1 + 1 with bounds set: the size ends inside
 * the bounds pointer. The library used to copy one byte of it and call the
 * truncated pointer (SEGV). Now it is refused and the engine says which
 * struct; the full pointer (V0_1 + 8) is accepted and used. */
Test(structs, a_size_inside_a_pointer_is_refused)
{
    tgame g;
    gts_game v = tgame_new(&g, 7, 3, 4, true);
    v.bounds = never_called_bounds;
    gts_engine *e = fx_engine();
    gts_limits l = {.struct_size = sizeof l, .depth = 4};
    gts_result r = {.struct_size = sizeof r};
    for (size_t extra = 1; extra < sizeof(void *); extra++) {
        gts_game *vp = exact_copy(&v, GTS_GAME_SIZE_V0_1 + extra);
        cr_expect_eq(gts_pvs(e, vp, &g, &l, &r), GTS_ESTRUCT, "V0_1 + %zu", extra);
        cr_expect(starts_with(gts_engine_last_error(e), "gts_game: "), "names the game: \"%s\"",
                  gts_engine_last_error(e));
        free(vp);
    }
    v.bounds = counting_bounds;
    gts_game *vp = exact_copy(&v, GTS_GAME_SIZE_V0_1 + sizeof(void *));
    bounds_calls = 0;
    cr_expect_eq(gts_pvs(e, vp, &g, &l, &r), GTS_OK);
    cr_expect(bounds_calls > 0, "the whole bounds field is read");
    cr_expect_str_eq(gts_engine_last_error(e), "", "a call that succeeds clears the detail");
    free(vp);
    gts_engine_free(e);
}

/* Each of the three structs of a search gets its own message. */
Test(structs, estruct_names_the_struct)
{
    tgame g;
    gts_game v = tgame_new(&g, 7, 3, 4, true);
    gts_engine *e = fx_engine();
    gts_limits l = {.struct_size = sizeof l, .depth = 3};
    gts_result r = {.struct_size = sizeof r};
    cr_expect_str_eq(gts_engine_last_error(e), "", "a new engine has no detail");
    cr_expect_str_eq(gts_engine_last_error(NULL), "");

    l.struct_size = offsetof(gts_limits, nodes) + 4; /* below the 0.1 layout */
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ESTRUCT);
    cr_expect(starts_with(gts_engine_last_error(e), "gts_limits: "), "\"%s\"",
              gts_engine_last_error(e));
    cr_expect(strstr(gts_engine_last_error(e), "below"), "says why");
    l.struct_size = sizeof l;

    r.struct_size = offsetof(gts_result, nodes) + 3;
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ESTRUCT);
    cr_expect(starts_with(gts_engine_last_error(e), "gts_result: "), "\"%s\"",
              gts_engine_last_error(e));
    v.struct_size = GTS_GAME_SIZE_V0_2 - 4; /* inside hash_after */
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ESTRUCT);
    cr_expect(strstr(gts_engine_last_error(e), "gts_result: "), "the first bad struct");
    r.struct_size = sizeof r;
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ESTRUCT);
    cr_expect(starts_with(gts_engine_last_error(e), "gts_game: "));
    cr_expect(strstr(gts_engine_last_error(e), "inside a field"), "says why: \"%s\"",
              gts_engine_last_error(e));
    v.struct_size = sizeof v;
    r.struct_size = GTS_RESULT_SIZE_V0_1 - 8;
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ESTRUCT);
    cr_expect(starts_with(gts_engine_last_error(e), "gts_result: "));
    cr_expect(strstr(gts_engine_last_error(e), "below"), "says why: \"%s\"",
              gts_engine_last_error(e));
    r.struct_size = sizeof r;

    v.struct_size = 0;
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ESTRUCT);
    cr_expect(starts_with(gts_engine_last_error(e), "gts_game: "));
    v.struct_size = sizeof v;

    /* The other calls with structs. */
    gts_probcut_params pp = {.struct_size = 3};
    cr_expect_eq(gts_engine_set_probcut(e, &pp), GTS_ESTRUCT);
    cr_expect(starts_with(gts_engine_last_error(e), "gts_probcut_params: "));
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_OK);
    cr_expect_str_eq(gts_engine_last_error(e), "");
    cr_expect_eq(gts_engine_get_probcut(e, &pp), GTS_ESTRUCT);
    cr_expect(starts_with(gts_engine_last_error(e), "gts_probcut_params: "));
    gts_probcut_fit fit = {.struct_size = offsetof(gts_probcut_fit, a) + 1};
    cr_expect_eq(gts_probcut_calibrate(e, &v, NULL, 0, &g, 10, 1, 4, 1, 2, &fit), GTS_ESTRUCT);
    cr_expect(starts_with(gts_engine_last_error(e), "gts_probcut_fit: "));
    gts_mcts_move_stats ms = {.struct_size = 5};
    cr_expect_eq(gts_mcts_root_stats(e, &ms, 1), GTS_ESTRUCT);
    cr_expect(starts_with(gts_engine_last_error(e), "gts_mcts_move_stats: "));

    /* Other argument errors of a search say which field. */
    l.depth = GTS_MAX_DEPTH + 1;
    cr_expect_eq(gts_pvs(e, &v, &g, &l, &r), GTS_ERANGE);
    cr_expect(starts_with(gts_engine_last_error(e), "gts_limits: depth"), "\"%s\"",
              gts_engine_last_error(e));
    gts_engine_free(e);
}

/* gts_game_check() has no engine: the report (when its own size is good)
 * carries the message. */
Test(structs, check_names_the_struct_in_its_report)
{
    tgame g;
    gts_game v = tgame_new(&g, 7, 3, 4, true);
    gts_check_report rep = {.struct_size = sizeof rep};
    gts_check_options o = {.struct_size = offsetof(gts_check_options, walks) + 2};
    cr_expect_eq(gts_game_check(&v, &g, &o, &rep), GTS_ESTRUCT);
    cr_expect(starts_with(rep.message, "gts_check_options: "), "\"%s\"", rep.message);
    v.struct_size = GTS_GAME_SIZE_V0_1 + 4;
    cr_expect_eq(gts_game_check(&v, &g, NULL, &rep), GTS_ESTRUCT);
    cr_expect(starts_with(rep.message, "gts_game: "), "\"%s\"", rep.message);
    v.struct_size = sizeof v;
    rep.struct_size = offsetof(gts_check_report, positions) + 1;
    cr_expect_eq(gts_game_check(&v, &g, NULL, &rep), GTS_ESTRUCT);
}

/* Every size from the first layout to sizeof, for every struct: accepted
 * exactly when no field straddles it. The reference is the byte map of the
 * struct's fields, built here from offsetof/sizeof independently of the
 * library's descriptor; the descriptors are checked to list every field
 * (in order, ending in the tail padding). */

#define F(T, m) {offsetof(T, m), sizeof(((T *)0)->m)}
static void check_layout(const gts__struct_desc *d, size_t size, size_t n,
                         const size_t (*f)[2])
{
    cr_assert_eq(d->size, size, "%s: descriptor size", d->name);
    cr_assert_eq(d->nfields, n, "%s: the descriptor lists every field", d->name);
    for (size_t i = 0; i < n; i++) {
        cr_expect_eq(d->fields[i].off, f[i][0], "%s field %zu", d->name, i);
        cr_expect_eq(d->fields[i].end, f[i][0] + f[i][1], "%s field %zu", d->name, i);
    }
    cr_expect(size - d->fields[n - 1].end < sizeof(void *), "%s: the last field is listed",
              d->name);
    /* No field left out in between: consecutive fields are apart by padding
     * only, less than the widest alignment (a missed pointer leaves 8). */
    for (size_t i = 1; i < n; i++)
        cr_expect(f[i][0] - (f[i - 1][0] + f[i - 1][1]) < sizeof(void *),
                  "%s: a field between %zu and %zu is not listed", d->name, i - 1, i);
    unsigned char *buf = calloc(1, size + 16);
    cr_assert_not_null(buf);
    for (size_t s = d->min; s <= size; s++) {
        bool inside = false;
        for (size_t i = 0; i < n; i++)
            inside = inside || (f[i][0] < s && s < f[i][0] + f[i][1]);
        memcpy(buf, &s, sizeof s);
        size_t got = 0;
        const char *why = NULL;
        gts_status rc = gts__struct_check(d, buf, &got, &why);
        cr_expect_eq(rc, inside ? GTS_ESTRUCT : GTS_OK, "%s at %zu", d->name, s);
        if (rc == GTS_OK)
            cr_expect_eq(got, s);
        else
            cr_expect(starts_with(why, d->name));
    }
    free(buf);
}

Test(structs, every_size_ends_at_a_field_boundary)
{
    static const size_t game[][2] = {
        F(gts_game, struct_size), F(gts_game, max_moves), F(gts_game, generate),
        F(gts_game, apply), F(gts_game, undo), F(gts_game, evaluate), F(gts_game, hash),
        F(gts_game, clone), F(gts_game, free), F(gts_game, generate_noisy),
        F(gts_game, move_score), F(gts_game, extend), F(gts_game, format_move),
        F(gts_game, parse_move), F(gts_game, user), F(gts_game, bounds),
        F(gts_game, generate_keyed), F(gts_game, playout_move), F(gts_game, traits),
        F(gts_game, hash_after),
        F(gts_game, null_apply), F(gts_game, null_undo)};
    check_layout(gts__desc_game(), sizeof(gts_game), sizeof game / sizeof *game, game);
    static const size_t limits[][2] = {
        F(gts_limits, struct_size), F(gts_limits, depth), F(gts_limits, alpha),
        F(gts_limits, beta), F(gts_limits, guess), F(gts_limits, has_guess),
        F(gts_limits, nodes), F(gts_limits, time_ms), F(gts_limits, on_iteration),
        F(gts_limits, on_iteration_user), F(gts_limits, history), F(gts_limits, history_len)};
    check_layout(gts__desc_limits(), sizeof(gts_limits), sizeof limits / sizeof *limits, limits);
    static const size_t result[][2] = {
        F(gts_result, struct_size), F(gts_result, best_move), F(gts_result, score),
        F(gts_result, depth), F(gts_result, seldepth), F(gts_result, flags), F(gts_result, pv),
        F(gts_result, pv_length), F(gts_result, threads), F(gts_result, nodes),
        F(gts_result, tt_probes), F(gts_result, tt_hits), F(gts_result, tt_cutoffs),
        F(gts_result, nodes_mandatory), F(gts_result, nodes_speculative),
        F(gts_result, nodes_wasted), F(gts_result, time_us), F(gts_result, callback_status),
        F(gts_result, thread_nodes), F(gts_result, thread_nodes_capacity)};
    check_layout(gts__desc_result(), sizeof(gts_result), sizeof result / sizeof *result, result);
    static const size_t params[][2] = {
        F(gts_probcut_params, struct_size), F(gts_probcut_params, npairs),
        F(gts_probcut_params, pair), F(gts_probcut_params, iid)};
    check_layout(gts__desc_probcut_params(), sizeof(gts_probcut_params), 4, params);
    static const size_t fit[][2] = {
        F(gts_probcut_fit, struct_size), F(gts_probcut_fit, a), F(gts_probcut_fit, b),
        F(gts_probcut_fit, sigma), F(gts_probcut_fit, r2), F(gts_probcut_fit, samples),
        F(gts_probcut_fit, skipped)};
    check_layout(gts__desc_probcut_fit(), sizeof(gts_probcut_fit), 7, fit);
    static const size_t alloc[][2] = {
        F(gts_allocator, struct_size), F(gts_allocator, allocate), F(gts_allocator, release),
        F(gts_allocator, user)};
    check_layout(gts__desc_allocator(), sizeof(gts_allocator), 4, alloc);
    static const size_t stats[][2] = {
        F(gts_mcts_move_stats, struct_size), F(gts_mcts_move_stats, move),
        F(gts_mcts_move_stats, visits), F(gts_mcts_move_stats, mean),
        F(gts_mcts_move_stats, prior), F(gts_mcts_move_stats, score),
        F(gts_mcts_move_stats, lower), F(gts_mcts_move_stats, upper),
        F(gts_mcts_move_stats, amaf_visits), F(gts_mcts_move_stats, amaf_mean)};
    check_layout(gts__desc_mcts_move_stats(), sizeof(gts_mcts_move_stats), 10, stats);
    static const size_t copt[][2] = {
        F(gts_check_options, struct_size), F(gts_check_options, seed),
        F(gts_check_options, walks), F(gts_check_options, walk_length),
        F(gts_check_options, depth), F(gts_check_options, algorithm_positions)};
    check_layout(gts__desc_check_options(), sizeof(gts_check_options), 6, copt);
    static const size_t crep[][2] = {
        F(gts_check_report, struct_size), F(gts_check_report, violation),
        F(gts_check_report, callback_status), F(gts_check_report, algorithm),
        F(gts_check_report, path_length), F(gts_check_report, path),
        F(gts_check_report, positions), F(gts_check_report, message)};
    check_layout(gts__desc_check_report(), sizeof(gts_check_report), 8, crep);
    static const size_t ev[][2] = {
        F(gts_evaluator, struct_size), F(gts_evaluator, evaluate), F(gts_evaluator, ctx)};
    check_layout(gts__desc_evaluator(), sizeof(gts_evaluator), 3, ev);
}
#undef F
