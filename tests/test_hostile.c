/*
 * Hostile game callbacks and limits under load, for every algorithm
 * (parallel ones at 1 and 4 threads).
 *
 * test_badinput.c covers misuse of the API (NULL pointers, struct sizes,
 * vtable and limit checks, a busy engine) and undo failing for three serial
 * algorithms; test_parallel.c a callback failing on a worker's clone. This
 * suite makes the game itself misbehave for every algorithm:
 *
 *  - generate: negative, 0 at the root, exactly max_moves, more than the
 *    capacity given, duplicate moves, moves that apply() then rejects;
 *  - apply / undo failing on the k-th call, for every k of a small search
 *    (sampled on a bigger one where helpers join), and apply failing while
 *    a waiting worker replays its path back from a task it helped with;
 *  - evaluate returning scores outside [LOSS, WIN] and GTS_SCORE_INVALID;
 *  - hashes that collide on every position or on most of them;
 *  - clone returning NULL, or succeeding k times then failing;
 *  - 64 threads on two cores, a 1 MiB table, depth 60, a node limit of 1.
 *
 * Every case must give the status doc/adapter.md promises ("Hostile or
 * broken callbacks") or the exact value of the plain negamax written here,
 * leave the caller's state byte for byte as it was (except after a failing
 * undo that did not do its work) and leave the engine usable: each case is
 * followed by a normal search on the same engine that must be exact.
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "fixture.h"
#include "search/parallel.h" /* internals: path replay */

/* ---- the hostile game: tgame's state behind misbehaving callbacks ---------- */

enum gen_mode {
    GEN_NORMAL,
    GEN_NEGATIVE,   /* from the fault call on: -3 */
    GEN_ZERO_ROOT,  /* 0 at the root: a finished game */
    GEN_TOO_MANY,   /* from the fault call on: too_many (only capacity written) */
    GEN_DUPLICATES, /* every move twice */
    GEN_ILLEGAL,    /* one extra move that apply() rejects */
};

enum hash_mode { HASH_NORMAL, HASH_CONSTANT, HASH_2BITS };

enum { APPLY_FAIL = -7, UNDO_FAIL = -8, GEN_FAIL = -3, ILLEGAL_FAIL = -5 };

/* Shared by every thread through gts_game.user: counters are atomic. */
typedef struct hostile {
    enum gen_mode gen;
    enum hash_mode hash;
    int too_many;              /* what GEN_TOO_MANY returns */
    uint64_t gen_fail_at;      /* 1-based generate call for GEN_NEGATIVE / GEN_TOO_MANY */
    uint64_t apply_fail_at;    /* 1-based apply call that fails, 0 = never */
    uint64_t undo_fail_at;     /* 1-based undo call that fails, 0 = never */
    bool undo_fail_does_work;  /* the failing undo still takes the move back */
    uint64_t eval_bad_from;    /* evaluate call from which bad_score is returned */
    gts_score bad_score;
    int64_t clone_budget;      /* clones that succeed; -1 = unlimited */
    int spin;                  /* busy loop per evaluate, so that helpers join */
    uint64_t policy_fail_at;    /* 1-based playout_move call that fails, 0 = never */
    uint64_t policy_illegal_at; /* 1-based playout_move call that returns no legal move */
    uint64_t policies;          /* playout_move calls */
    bool strict;                /* apply() rejects moves generate() does not list */
    /* counters */
    uint64_t gens, applies, undos, evals, clones, frees;
    bool fired;                /* a fault was delivered */
} hostile;

static uint64_t bump(uint64_t *p) { return __atomic_add_fetch(p, 1, __ATOMIC_RELAXED); }
static void fire(hostile *h) { __atomic_store_n(&h->fired, true, __ATOMIC_RELAXED); }

static int h_generate(void *s, gts_move *moves, uint32_t cap, void *user)
{
    hostile *h = user;
    tgame *g = s;
    uint64_t call = bump(&h->gens);
    switch (h->gen) {
    case GEN_NEGATIVE:
        if (call >= h->gen_fail_at) {
            fire(h);
            return GEN_FAIL;
        }
        break;
    case GEN_ZERO_ROOT:
        if (g->ply == 0)
            return 0;
        break;
    case GEN_TOO_MANY:
        if (call >= h->gen_fail_at && g->ply < g->depth) {
            fire(h);
            for (uint32_t i = 0; i < cap; i++)
                moves[i] = i;
            return h->too_many;
        }
        break;
    case GEN_DUPLICATES: {
        if (g->ply >= g->depth)
            return 0;
        int n = 0;
        for (int i = 0; i < g->branching && (uint32_t)n + 2 <= cap; i++) {
            moves[n++] = (gts_move)i;
            moves[n++] = (gts_move)i;
        }
        return n;
    }
    case GEN_ILLEGAL: {
        int n = tgame_generate(s, moves, cap, NULL);
        if (n > 0 && (uint32_t)n < cap)
            moves[n++] = 1000; /* apply() rejects it */
        return n;
    }
    default:
        break;
    }
    return tgame_generate(s, moves, cap, NULL);
}

static int h_apply(void *s, gts_move m, void *user)
{
    hostile *h = user;
    if (bump(&h->applies) == h->apply_fail_at) {
        fire(h);
        return APPLY_FAIL;
    }
    if (h->gen == GEN_ILLEGAL && m == 1000) {
        fire(h);
        return ILLEGAL_FAIL;
    }
    const tgame *g = s;
    if (h->strict && (m >= (gts_move)g->branching || g->ply >= g->depth))
        return ILLEGAL_FAIL;
    return tgame_apply(s, m, NULL);
}

static int h_undo(void *s, gts_move m, void *user)
{
    hostile *h = user;
    if (bump(&h->undos) == h->undo_fail_at) {
        fire(h);
        if (h->undo_fail_does_work)
            tgame_undo(s, m, NULL);
        return UNDO_FAIL;
    }
    return tgame_undo(s, m, NULL);
}

static gts_score h_evaluate(void *s, void *user)
{
    hostile *h = user;
    for (volatile int i = 0; i < h->spin; i++)
        ;
    if (h->eval_bad_from && bump(&h->evals) >= h->eval_bad_from) {
        fire(h);
        return h->bad_score;
    }
    return tgame_evaluate(s, NULL);
}

static uint64_t h_hash(void *s, void *user)
{
    hostile *h = user;
    switch (h->hash) {
    case HASH_CONSTANT: return UINT64_C(0x5eed);
    case HASH_2BITS: return tgame_hash(s, NULL) & 3;
    default: return tgame_hash(s, NULL);
    }
}

static void *h_clone(void *s, void *user)
{
    hostile *h = user;
    int64_t made = (int64_t)bump(&h->clones);
    if (h->clone_budget >= 0 && made > h->clone_budget) {
        fire(h);
        return NULL;
    }
    return tgame_clone(s, NULL);
}

static void h_free(void *s, void *user)
{
    hostile *h = user;
    bump(&h->frees);
    tgame_free(s, NULL);
}

static gts_game h_vtable(hostile *h, uint32_t max_moves)
{
    gts_game v = tgame_game_of(max_moves, h_generate, h_apply, h_undo, h_evaluate);
    v.hash = h_hash;
    v.clone = h_clone;
    v.free = h_free;
    v.user = h;
    return v;
}

/* A hostile game that is not hostile yet: no fault, clones unlimited. */
static hostile h_new(void)
{
    hostile h;
    memset(&h, 0, sizeof h);
    h.clone_budget = -1;
    return h;
}

/* ---- the reference: fx_negamax over the same callbacks ---------------------- */

/* Value of every root move (from the root), for "the best move is worth the
 * value" checks. Returns the number of root moves. */
static int root_values(const gts_game *v, void *s, int depth, gts_move *moves, gts_score *val)
{
    int n = v->generate(s, moves, v->max_moves, v->user);
    for (int i = 0; i < n; i++) {
        cr_assert_eq(v->apply(s, moves[i], v->user), 0);
        val[i] = -fx_negamax(v, s, depth - 1, 1);
        cr_assert_eq(v->undo(s, moves[i], v->user), 0);
    }
    return n;
}

/* ---- configurations: every algorithm, parallel ones at 1 and 4 threads ---- */

typedef fx_run config;

static int configs(config *out, int cap)
{
    static const int threads[] = {1, 4};
    return fx_runs(out, cap, NULL, threads, 2);
}

/* Exact value of the (small) tree, independent of the engine. */
static gts_score tree_value(int seed, int branching, int depth)
{
    hostile h = h_new();
    tgame g;
    tgame_init(&g, (uint64_t)seed, branching, depth);
    gts_game v = h_vtable(&h, (uint32_t)branching);
    return fx_negamax(&v, &g, depth, 0);
}

/* One search of a tgame behind a hostile game: set up, adjust the vtable
 * if need be, search, check. */
typedef struct hround {
    tgame g, before;
    gts_game v;
    gts_result r;
    int rc, depth;
} hround;

/* The tgame (@seed, @branching, @depth) behind @h, whose generate() may
 * list @max_moves moves; searched to @depth. */
static void hround_tree(hround *x, hostile *h, int seed, int branching, int depth,
                        uint32_t max_moves)
{
    tgame_init(&x->g, (uint64_t)seed, branching, depth);
    x->before = x->g;
    x->v = h_vtable(h, max_moves);
    x->depth = depth;
}

static bool hround_restored(const hround *x)
{
    return memcmp(&x->g, &x->before, sizeof x->g) == 0;
}

/* A normal search on @e right after a hostile one: exact, legal best move,
 * state unchanged. */
static void check_usable(gts_engine *e, config cf, int seed, int branching, int depth,
                         const char *what)
{
    hostile h = h_new();
    hround x;
    hround_tree(&x, &h, seed, branching, depth, (uint32_t)branching);
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    gts_result r = {.struct_size = sizeof r};
    int rc = gts_search(e, cf.alg, &x.v, &x.g, &l, &r);
    const char *name = gts_algorithm_name(cf.alg);
    cr_assert_eq(rc, GTS_OK, "%s %s/%d: the next search fails: %s", what, name, cf.threads,
                 gts_status_name(rc));
    cr_assert_eq(r.score, tree_value(seed, branching, depth),
                 "%s %s/%d: the next search is not exact (%d)", what, name, cf.threads, r.score);
    cr_assert(r.flags & GTS_RESULT_HAS_MOVE);
    cr_assert(r.best_move < (gts_move)branching, "%s %s/%d: next search's move %llu", what, name,
              cf.threads, (unsigned long long)r.best_move);
    cr_assert(hround_restored(&x), "%s %s/%d: state changed", what, name, cf.threads);
}

/* One hostile search on @e. @h is set up by the caller; @vt's user is @h. */
static int hostile_search(gts_engine *e, config cf, const gts_game *vt, tgame *g, int depth,
                          gts_result *r)
{
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    memset(r, 0, sizeof *r);
    r->struct_size = sizeof *r;
    return gts_search(e, cf.alg, vt, g, &l, r);
}

/* The outcome every "fault fired => this status, else exact" case checks. */
static void expect_fault_or_exact(config cf, const hostile *h, int rc, const gts_result *r,
                                  gts_status want, int32_t want_code, gts_score exact,
                                  const char *what)
{
    const char *name = gts_algorithm_name(cf.alg);
    if (h->fired) {
        cr_assert_eq(rc, want, "%s %s/%d: %s, expected %s", what, name, cf.threads,
                     gts_status_name(rc), gts_status_name(want));
        cr_assert_eq(r->callback_status, want_code, "%s %s/%d: callback_status %d, expected %d",
                     what, name, cf.threads, r->callback_status, want_code);
    } else {
        cr_assert_eq(rc, GTS_OK, "%s %s/%d: %s without a fault", what, name, cf.threads,
                     gts_status_name(rc));
        cr_assert_eq(r->score, exact, "%s %s/%d: score %d, minimax %d", what, name, cf.threads,
                     r->score, exact);
    }
}

/* ---- generate --------------------------------------------------------------- */

static const int SEED = 11, B = 3, D = 3;

/* The tgame (SEED, B, D) behind @h. */
static void hround_prepare(hround *x, hostile *h)
{
    hround_tree(x, h, SEED, B, D, B);
}

static void hround_search(hround *x, gts_engine *e, config cf)
{
    x->rc = hostile_search(e, cf, &x->v, &x->g, x->depth, &x->r);
}

/* The round ended in the fault (@want, @code) or with the exact value,
 * the root unchanged, every clone freed. */
static void hround_expect(const hround *x, config cf, const hostile *h, gts_status want,
                          int32_t code, gts_score exact, const char *what)
{
    expect_fault_or_exact(cf, h, x->rc, &x->r, want, code, exact, what);
    cr_assert(memcmp(&x->g, &x->before, sizeof x->g) == 0, "%s: state", what);
    cr_assert_eq(h->clones, h->frees, "%s: every clone freed", what);
}

/* Every configuration on an engine of its own: @rounds runs its hostile
 * searches (@exact: the value of the tgame (SEED, B, D)), then the engine
 * must still search exactly (check_usable, @after). */
typedef void (*sweep_rounds)(gts_engine *e, config cf, gts_score exact, void *ctx);

/* A test that is one sweep. */
#define SWEEP_TEST(name, rounds, after)                                                     \
    Test(hostile, name)                                                                     \
    {                                                                                       \
        sweep(rounds, NULL, after);                                                         \
    }

static void sweep(sweep_rounds rounds, void *ctx, const char *after)
{
    config cf[64];
    int nc = configs(cf, 64);
    gts_score exact = tree_value(SEED, B, D);
    for (int i = 0; i < nc; i++) {
        gts_engine *e = fx_engine_with(cf[i].threads, 1);
        rounds(e, cf[i], exact, ctx);
        check_usable(e, cf[i], SEED, B, D, after);
        gts_engine_free(e);
    }
}

static void generate_negative_rounds(gts_engine *e, config cf, gts_score exact, void *ctx)
{
    (void)ctx;
    for (uint64_t at = 1; at <= 12; at++) {
        hostile h = h_new();
        h.gen = GEN_NEGATIVE;
        h.gen_fail_at = at;
        hround x;
        hround_prepare(&x, &h);
        hround_search(&x, e, cf);
        char what[64];
        snprintf(what, sizeof what, "generate < 0 at %llu", (unsigned long long)at);
        hround_expect(&x, cf, &h, GTS_ECALLBACK, GEN_FAIL, exact, what);
    }
}

SWEEP_TEST(generate_negative, generate_negative_rounds, "after generate < 0")

static void zero_at_the_root_rounds(gts_engine *e, config cf, gts_score exact, void *ctx)
{
    (void)exact;
    (void)ctx;
    hostile h = h_new();
    h.gen = GEN_ZERO_ROOT;
    hround x;
    hround_prepare(&x, &h);
    hround_search(&x, e, cf);
    const char *name = gts_algorithm_name(cf.alg);
    cr_assert_eq(x.rc, GTS_OK, "%s/%d: %s", name, cf.threads, gts_status_name(x.rc));
    cr_assert_eq(x.r.flags & GTS_RESULT_HAS_MOVE, 0, "%s: no move at a finished game", name);
    cr_assert_eq(x.r.best_move, GTS_MOVE_NONE, "%s: GTS_MOVE_NONE", name);
    cr_assert_eq(x.r.score, tgame_evaluate(&x.g, NULL), "%s: the root's static value", name);
    cr_assert(hround_restored(&x), "%s: state", name);
    /* A finished root whose evaluation is out of range, or invalid. */
    h.eval_bad_from = 1;
    h.bad_score = GTS_SCORE_WIN + 1;
    hround_search(&x, e, cf);
    cr_assert_eq(x.rc, GTS_ESCORE, "%s/%d: %s", name, cf.threads, gts_status_name(x.rc));
    cr_assert_eq(x.r.callback_status, GTS_SCORE_WIN + 1);
    h.evals = 0;
    h.bad_score = GTS_SCORE_INVALID;
    hround_search(&x, e, cf);
    cr_assert_eq(x.rc, GTS_ECALLBACK, "%s/%d: %s", name, cf.threads, gts_status_name(x.rc));
    cr_assert_eq(x.r.callback_status, -1);
    cr_assert(hround_restored(&x), "%s: state", name);
}

SWEEP_TEST(generate_zero_at_the_root, zero_at_the_root_rounds, "after a finished root")

static void exactly_max_moves_rounds(gts_engine *e, config cf, gts_score exact, void *ctx)
{
    (void)exact;
    (void)ctx;
    hostile h = h_new();
    hround x;
    hround_tree(&x, &h, SEED, 5, 4, 5); /* generate always fills the capacity */
    hround_search(&x, e, cf);
    expect_fault_or_exact(cf, &h, x.rc, &x.r, GTS_OK, 0, tree_value(SEED, 5, 4),
                          "max_moves moves");
    cr_assert(x.r.best_move < 5);
    cr_assert(hround_restored(&x));
    /* Another tree under the same keys as check_usable's: clear the table. */
    cr_assert_eq(gts_engine_clear(e), GTS_OK);
}

SWEEP_TEST(generate_exactly_max_moves, exactly_max_moves_rounds, "after max_moves moves")

static void more_than_capacity_rounds(gts_engine *e, config cf, gts_score exact, void *ctx)
{
    static const int too_many[] = {B + 1, B + 100, INT_MAX};
    (void)ctx;
    for (int k = 0; k < 3; k++)
        for (uint64_t at = 1; at <= 8; at++) {
            hostile h = h_new();
            h.gen = GEN_TOO_MANY;
            h.gen_fail_at = at;
            h.too_many = too_many[k];
            hround x;
            hround_prepare(&x, &h);
            hround_search(&x, e, cf);
            hround_expect(&x, cf, &h, GTS_EMOVES, too_many[k], exact, "generate > capacity");
        }
}

SWEEP_TEST(generate_more_than_capacity, more_than_capacity_rounds, "after generate > capacity")

Test(hostile, generate_duplicate_moves)
{
    config cf[64];
    int nc = configs(cf, 64);
    hostile h = h_new();
    h.gen = GEN_DUPLICATES;
    tgame g, before;
    tgame_init(&g, SEED, B, D); /* the same positions as check_usable's, other moves */
    before = g;
    gts_game v = h_vtable(&h, 2 * B);
    gts_move moves[2 * B];
    gts_score val[2 * B];
    gts_score exact = fx_negamax(&v, &g, D, 0);
    int n = root_values(&v, &g, D, moves, val);
    cr_assert_eq(n, 2 * B);
    for (int i = 0; i < nc; i++) {
        gts_engine *e = fx_engine_with(cf[i].threads, 1);
        gts_result r;
        const char *name = gts_algorithm_name(cf[i].alg);
        int rc = hostile_search(e, cf[i], &v, &g, D, &r);
        cr_assert_eq(rc, GTS_OK, "%s/%d: %s", name, cf[i].threads, gts_status_name(rc));
        cr_assert_eq(r.score, exact, "%s/%d: %d != minimax %d", name, cf[i].threads, r.score,
                     exact);
        cr_assert(r.best_move < (gts_move)B, "%s: a generated move", name);
        cr_assert_eq(val[2 * r.best_move], exact, "%s: the best move is worth the value", name);
        cr_assert(memcmp(&g, &before, sizeof g) == 0, "%s: state", name);
        check_usable(e, cf[i], SEED, B, D, "after duplicate moves");
        gts_engine_free(e);
    }
}

static void apply_rejects_rounds(gts_engine *e, config cf, gts_score exact, void *ctx)
{
    (void)exact;
    (void)ctx;
    hostile h = h_new();
    h.gen = GEN_ILLEGAL;
    hround x;
    hround_tree(&x, &h, SEED, B, D, B + 1);
    hround_search(&x, e, cf);
    const char *name = gts_algorithm_name(cf.alg);
    /* Every algorithm searches every root move at depth 1. */
    cr_assert(h.fired, "%s/%d: the rejected move was tried", name, cf.threads);
    cr_assert_eq(x.rc, GTS_ECALLBACK, "%s/%d: %s", name, cf.threads, gts_status_name(x.rc));
    cr_assert_eq(x.r.callback_status, ILLEGAL_FAIL);
    cr_assert(hround_restored(&x), "%s: state", name);
    cr_assert_eq(h.clones, h.frees);
}

SWEEP_TEST(generate_moves_that_apply_rejects, apply_rejects_rounds, "after an illegal move")

/* ---- apply and undo failing on the k-th call ------------------------------------ */

/* Calls a clean search makes, so that k covers all of them (and one more). */
/* The tree of the k-th call tests: small, but at 4 threads big enough (and
 * slow enough to evaluate) for helpers to join, so that faults also hit
 * worker threads in the middle of a path replay. */
typedef struct kth_tree {
    int branching, depth, spin;
    uint64_t step; /* k goes 1, 1 + step, ...; bigger trees are sampled */
} kth_tree;

static kth_tree kth_tree_for(config cf, int pass)
{
    if (cf.threads == 1)
        return (kth_tree){B, D, 0, 1};
    return pass == 0 ? (kth_tree){4, 4, 2000, 1} : (kth_tree){5, 5, 2000, 23};
}

static void kth_setup(hostile *h, tgame *g, gts_game *v, kth_tree t)
{
    *h = h_new();
    h->spin = t.spin;
    tgame_init(g, SEED, t.branching, t.depth);
    *v = h_vtable(h, (uint32_t)t.branching);
}

/* Calls a clean search makes, so that k covers all of them (and one more). */
static uint64_t clean_calls(gts_engine *e, config cf, kth_tree t, bool undo)
{
    hostile h;
    tgame g;
    gts_game v;
    kth_setup(&h, &g, &v, t);
    gts_result r;
    cr_assert_eq(hostile_search(e, cf, &v, &g, t.depth, &r), GTS_OK);
    return undo ? h.undos : h.applies;
}

typedef struct kth_count {
    int searches, fired, helped;
} kth_count;

static void kth_config(config cf, kth_tree t, bool undo, bool does_work, kth_count *n)
{
    gts_score exact = tree_value(SEED, t.branching, t.depth);
    gts_engine *e = fx_engine_with(cf.threads, 1);
    uint64_t calls = clean_calls(e, cf, t, undo);
    /* parallel runs vary: cover a clean run's count generously */
    uint64_t last = cf.threads > 1 ? calls + calls / 4 : calls + 1;
    for (uint64_t k = 1; k <= last; k += t.step) {
        gts_engine_clear(e); /* the same tree every time: k hits the same call */
        hostile h;
        tgame g, before;
        gts_game v;
        kth_setup(&h, &g, &v, t);
        if (undo) {
            h.undo_fail_at = k;
            h.undo_fail_does_work = does_work;
        } else {
            h.apply_fail_at = k;
        }
        before = g;
        uint64_t per[4] = {0};
        gts_limits l = {.struct_size = sizeof l, .depth = t.depth};
        gts_result r = {.struct_size = sizeof r, .thread_nodes = per,
                        .thread_nodes_capacity = 4};
        int rc = gts_search(e, cf.alg, &v, &g, &l, &r);
        n->searches++;
        n->fired += h.fired;
        n->helped += per[1] + per[2] + per[3] > 0;
        char what[64];
        snprintf(what, sizeof what, "%s failing at call %llu", undo ? "undo" : "apply",
                 (unsigned long long)k);
        expect_fault_or_exact(cf, &h, rc, &r, GTS_ECALLBACK, undo ? UNDO_FAIL : APPLY_FAIL,
                              exact, what);
        /* Every successful apply is undone exactly once, a failed one never. */
        uint64_t applied = h.applies - (undo ? 0 : (h.fired ? 1 : 0));
        cr_assert_eq(h.undos, applied, "%s %s/%d: %llu undos for %llu applies", what,
                     gts_algorithm_name(cf.alg), cf.threads,
                     (unsigned long long)h.undos, (unsigned long long)applied);
        if (!undo || does_work || !h.fired)
            cr_assert(memcmp(&g, &before, sizeof g) == 0, "%s %s/%d: state changed", what,
                      gts_algorithm_name(cf.alg), cf.threads);
        cr_assert_eq(h.clones, h.frees);
    }
    check_usable(e, cf, SEED, t.branching, t.depth,
                 undo ? "after undo failures" : "after apply failures");
    gts_engine_free(e);
}

static void kth_call_fails(bool undo, bool does_work)
{
    config cf[64];
    int nc = configs(cf, 64);
    kth_count n = {0, 0, 0};
    for (int i = 0; i < nc; i++) {
        kth_config(cf[i], kth_tree_for(cf[i], 0), undo, does_work, &n);
        if (cf[i].threads > 1)
            kth_config(cf[i], kth_tree_for(cf[i], 1), undo, does_work, &n);
    }
    printf("# %s failing: %d searches, %d with the fault delivered, %d with helpers at work\n",
           undo ? "undo" : "apply", n.searches, n.fired, n.helped);
}

Test(hostile, apply_fails_on_every_kth_call) { kth_call_fails(false, false); }
Test(hostile, undo_fails_on_every_kth_call_after_undoing) { kth_call_fails(true, true); }
Test(hostile, undo_fails_on_every_kth_call_without_undoing) { kth_call_fails(true, false); }

/* A worker waiting at a split node runs other tasks (help-first) and
 * replays its path to get there and back. The way back re-applies the moves
 * below the common ancestor; when one of those applies fails, the frames
 * waiting below must not undo the moves that were never re-applied. Under
 * load this needs a steal of a foreign task while waiting (about one search
 * in 500 at 16 threads here), so the sequence is driven directly. */
Test(hostile, apply_failing_on_the_way_back_from_a_task)
{
    gts_engine *e = fx_engine_with(1, 0);
    hostile h = h_new();
    tgame g, before;
    tgame_init(&g, SEED, B, D);
    before = g;
    gts_game v = h_vtable(&h, B);
    gts__ctx *c = gts__ctx_new(NULL, B);
    cr_assert_not_null(c);
    gts__ctx_begin(c, e, &v, &g);
    static gts__pw pw; /* over-aligned */
    memset(&pw, 0, sizeof pw);
    pw.c = c;
    /* Frames at plies 0 and 1 applied moves 0 and 1; the node at ply 2
     * waits and helps a task at path [2]. */
    cr_assert(gts__pw_apply(&pw, 0, 0));
    cr_assert(gts__pw_apply(&pw, 1, 1));
    gts_move task_path[1] = {2};
    static gts__pw_frame f;
    cr_assert(gts__pw_enter(&pw, &f, task_path, 1, NULL, false));
    cr_assert_eq(g.ply, 1);
    /* On the way back, the re-apply of move 0 fails. */
    h.apply_fail_at = h.applies + 1;
    gts__pw_leave(&pw, &f);
    cr_assert(h.fired);
    cr_assert_eq(e->shared.error, GTS_ECALLBACK, "the failure is recorded");
    /* The waiting frames unwind as every parallel algorithm does. */
    gts__pw_undo(&pw, 1, 1);
    gts__pw_undo(&pw, 0, 0);
    cr_assert_eq(h.undos, h.applies - 1, "%llu undos for %llu successful applies",
                 (unsigned long long)h.undos, (unsigned long long)(h.applies - 1));
    cr_assert(memcmp(&g, &before, sizeof g) == 0, "the state is back at the root (ply %d)",
              g.ply);
    gts__ctx_free(NULL, c);
    gts_engine_free(e);
}

/* ---- evaluate out of range ------------------------------------------------------- */

static void evaluate_outside_rounds(gts_engine *e, config cf, gts_score exact, void *ctx)
{
    static const struct {
        gts_score score;
        gts_status status;
        int32_t code;
    } bad[] = {
        {INT32_MAX, GTS_ESCORE, INT32_MAX},
        {INT32_MIN, GTS_ECALLBACK, -1}, /* == GTS_SCORE_INVALID */
        {GTS_SCORE_INF, GTS_ESCORE, GTS_SCORE_INF},
        {-GTS_SCORE_INF, GTS_ESCORE, -GTS_SCORE_INF},
        {GTS_SCORE_WIN + 1, GTS_ESCORE, GTS_SCORE_WIN + 1},
        {-(GTS_SCORE_WIN + 1), GTS_ESCORE, -(GTS_SCORE_WIN + 1)},
    };
    static const uint64_t from[] = {1, 2, 3, 5, 9, 17, 30};
    (void)ctx;
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++)
        for (size_t f = 0; f < sizeof from / sizeof from[0]; f++) {
            hostile h = h_new();
            h.eval_bad_from = from[f];
            h.bad_score = bad[b].score;
            hround x;
            hround_prepare(&x, &h);
            hround_search(&x, e, cf);
            char what[64];
            snprintf(what, sizeof what, "evaluate %d from call %llu", bad[b].score,
                     (unsigned long long)from[f]);
            hround_expect(&x, cf, &h, bad[b].status, bad[b].code, exact, what);
        }
}

SWEEP_TEST(evaluate_outside_the_score_range, evaluate_outside_rounds, "after bad scores")

/* ---- playout_move (MCTS's policy) ------------------------------------------------------ */

enum { POLICY_FAIL = -11 };

static int h_policy(void *s, uint64_t random, gts_move *m, void *user)
{
    hostile *h = user;
    const tgame *g = s;
    uint64_t k = bump(&h->policies);
    *m = random % (uint64_t)g->branching;
    if (k == h->policy_fail_at) {
        fire(h);
        return POLICY_FAIL;
    }
    if (k == h->policy_illegal_at) { /* a move generate() does not return */
        fire(h);
        *m = (gts_move)g->branching + 1;
    }
    return 1;
}

/* Only MCTS calls the policy: it fails with GTS_ECALLBACK (the callback's
 * code, or its 1 for a move outside generate()'s list) and restores the
 * state; every other algorithm ignores it and stays exact. */
static void bad_policy_rounds(gts_engine *e, config cf, gts_score exact, void *ctx)
{
    static const uint64_t at[] = {1, 2, 5, 17};
    (void)ctx;
    for (int illegal = 0; illegal <= 1; illegal++)
        for (size_t f = 0; f < sizeof at / sizeof at[0]; f++) {
            hostile h = h_new();
            *(illegal ? &h.policy_illegal_at : &h.policy_fail_at) = at[f];
            hround x;
            hround_prepare(&x, &h);
            x.v.playout_move = h_policy;
            hround_search(&x, e, cf);
            char what[64];
            snprintf(what, sizeof what, "playout_move %s at call %llu",
                     illegal ? "illegal" : "failing", (unsigned long long)at[f]);
            hround_expect(&x, cf, &h, GTS_ECALLBACK, illegal ? 1 : POLICY_FAIL, exact, what);
            if (cf.alg == GTS_ALG_MCTS && at[f] <= 2) /* small trees prove fast */
                cr_assert(h.fired, "%s: MCTS called the policy", what);
        }
}

SWEEP_TEST(playout_move_fails_or_returns_an_illegal_move, bad_policy_rounds, "after a bad policy")

/* The same policy, trusted (GTS_TRAIT_TRUSTED_PLAYOUT), over an apply()
 * that rejects what generate() does not list: MCTS plays the policy's
 * moves unchecked, so its illegal move ends the search at apply() (its
 * ILLEGAL_FAIL); a failing policy, or apply() failing on the k-th call
 * inside trusted playouts, ends it as without the trait. Every apply that
 * succeeded is undone once, the state is restored, the engine stays
 * usable; other algorithms ignore the trait and stay exact. */
static void trusted_policy_rounds(gts_engine *e, config cf, gts_score exact, void *ctx)
{
    static const uint64_t at[] = {1, 2, 5, 17};
    (void)ctx;
    for (int kind = 0; kind < 3; kind++)
        for (size_t f = 0; f < sizeof at / sizeof at[0] + (kind == 2 ? 26 : 0); f++) {
            hostile h = h_new();
            h.strict = true;
            uint64_t k = f < sizeof at / sizeof at[0] ? at[f] : 3 * f;
            if (kind == 0)
                h.policy_illegal_at = k;
            else if (kind == 1)
                h.policy_fail_at = k;
            else
                h.apply_fail_at = k;
            hround x;
            hround_prepare(&x, &h);
            x.v.playout_move = h_policy;
            x.v.traits = GTS_TRAIT_TRUSTED_PLAYOUT;
            hround_search(&x, e, cf);
            char what[80];
            snprintf(what, sizeof what, "trusted: %s at call %llu",
                     kind == 0 ? "illegal policy move" : kind == 1 ? "failing policy"
                                                                  : "failing apply",
                     (unsigned long long)k);
            hround_expect(&x, cf, &h, GTS_ECALLBACK,
                          kind == 0 ? ILLEGAL_FAIL : kind == 1 ? POLICY_FAIL : APPLY_FAIL, exact,
                          what);
            uint64_t failed = x.rc == GTS_ECALLBACK && kind != 1 ? 1 : 0;
            cr_assert_eq(h.undos, h.applies - failed, "%s %s/%d: %llu undos, %llu applies", what,
                         gts_algorithm_name(cf.alg), cf.threads, (unsigned long long)h.undos,
                         (unsigned long long)h.applies);
            if (cf.alg == GTS_ALG_MCTS && kind < 2 && k <= 2)
                cr_assert(h.fired, "%s: MCTS called the policy", what);
        }
}

SWEEP_TEST(trusted_playout_move_lies_or_fails, trusted_policy_rounds, "after a bad trusted policy")

/* ---- broken hashes ------------------------------------------------------------------ */

typedef struct broken_hash_run {
    enum hash_mode mode;
    const char *what;
    int helped; /* searches with helpers at work */
} broken_hash_run;

static void broken_hash_rounds(gts_engine *e, config cf, gts_score exact, void *ctx)
{
    broken_hash_run *run = ctx;
    const char *what = run->what, *name = gts_algorithm_name(cf.alg);
    (void)exact;
    for (int seed = 1; seed <= 8; seed++) {
        hostile h = h_new();
        h.hash = run->mode;
        h.spin = cf.threads > 1 ? 2000 : 0; /* let the helpers join */
        hround x;
        hround_tree(&x, &h, seed, 4, 5, 4);
        x.g.win_leaves = seed % 2 == 0; /* decided scores through the table too */
        x.before = x.g;
        uint64_t per[4] = {0};
        gts_limits l = {.struct_size = sizeof l, .depth = 5};
        gts_result r = {.struct_size = sizeof r, .thread_nodes = per,
                        .thread_nodes_capacity = 4};
        int rc = gts_search(e, cf.alg, &x.v, &x.g, &l, &r);
        run->helped += per[1] + per[2] + per[3] > 0;
        cr_assert_eq(rc, GTS_OK, "%s %s/%d: %s", what, name, cf.threads, gts_status_name(rc));
        cr_assert(r.flags & GTS_RESULT_HAS_MOVE, "%s %s: a move", what, name);
        cr_assert(r.best_move < 4, "%s %s/%d: best move %llu is not a root move", what, name,
                  cf.threads, (unsigned long long)r.best_move);
        cr_assert(r.score >= -GTS_SCORE_INF && r.score <= GTS_SCORE_INF, "%s %s: score %d",
                  what, name, r.score);
        cr_assert(hround_restored(&x), "%s %s: state", what, name);
        cr_assert_eq(h.clones, h.frees);
    }
}

static void broken_hash(enum hash_mode mode, const char *what)
{
    broken_hash_run run = {mode, what, 0};
    sweep(broken_hash_rounds, &run, what);
    printf("# %s: %d searches with helpers at work\n", what, run.helped);
}

Test(hostile, hash_constant) { broken_hash(HASH_CONSTANT, "constant hash"); }
Test(hostile, hash_two_bits) { broken_hash(HASH_2BITS, "2-bit hash"); }

/* ---- clone ---------------------------------------------------------------------- */

static void clone_fails_rounds(gts_engine *e, config cf, gts_score exact, void *ctx)
{
    (void)ctx;
    if (!gts_algorithm_is_parallel(cf.alg))
        return;
    const char *name = gts_algorithm_name(cf.alg);
    /* 4 threads need 3 clones: budgets 0..2 fail, 3 and more succeed. */
    for (int64_t budget = 0; budget <= 4; budget++) {
        hostile h = h_new();
        h.clone_budget = budget;
        hround x;
        hround_prepare(&x, &h);
        hround_search(&x, e, cf);
        if (cf.threads == 1)
            cr_assert_eq(h.clones, 0, "%s: one thread clones nothing", name);
        cr_assert_eq(h.fired, cf.threads > 1 && budget < cf.threads - 1);
        expect_fault_or_exact(cf, &h, x.rc, &x.r, GTS_ECALLBACK, -1, exact, "clone NULL");
        if (h.fired) {
            cr_assert_eq(x.r.flags & GTS_RESULT_HAS_MOVE, 0, "%s: no search, no move", name);
            cr_assert_eq(x.r.best_move, GTS_MOVE_NONE);
            cr_assert_eq(h.applies, 0, "%s: nothing searched", name);
        }
        cr_assert_eq(h.clones - (h.fired ? 1 : 0), h.frees,
                     "%s budget %lld: every clone made is freed once", name, (long long)budget);
        cr_assert(hround_restored(&x), "%s: state", name);
    }
}

SWEEP_TEST(clone_fails, clone_fails_rounds, "after clone failures")

/* ---- extend beyond any depth ------------------------------------------------ */

static int extend_huge(void *state, gts_move m, void *user)
{
    (void)state;
    (void)m;
    (void)user;
    return INT_MAX;
}

/* extend() asking for more plies than can exist is capped at GTS_MAX_PLY (no
 * depth overflow): on a tree whose leaves are all at ply 5, a depth-2
 * search extended everywhere sees the whole tree, so every exact algorithm
 * returns the full tree's value. */
static void huge_extension_rounds(gts_engine *e, config cf, gts_score exact, void *ctx)
{
    (void)exact;
    (void)ctx;
    const char *name = gts_algorithm_name(cf.alg);
    hostile h = h_new();
    hround x;
    hround_tree(&x, &h, SEED, B, 5, B);
    x.v.extend = extend_huge;
    x.depth = 2;
    hround_search(&x, e, cf);
    cr_assert_eq(x.rc, GTS_OK, "%s/%d: %s", name, cf.threads, gts_status_name(x.rc));
    if (gts_algorithm_is_exact(cf.alg))
        cr_assert_eq(x.r.score, tree_value(SEED, B, 5), "%s/%d: score %d", name, cf.threads,
                     x.r.score);
    cr_assert(x.r.flags & GTS_RESULT_HAS_MOVE);
    cr_assert(x.r.best_move < (gts_move)B, "%s: a legal move", name);
    cr_assert(hround_restored(&x), "%s: state", name);
    /* The table now holds whole-tree values of these keys, which a
     * shallower fixed-depth search would use (doc/architecture.md). */
    cr_assert_eq(gts_engine_clear(e), GTS_OK);
}

SWEEP_TEST(extend_returning_int_max, huge_extension_rounds, "after huge extensions")

/* ---- limits under load ---------------------------------------------------------- */

Test(hostile, sixty_four_threads_on_a_random_tree)
{
    const gts_game *rt = gts_game_randtree();
    gts_randtree_params p = {.struct_size = sizeof p, .seed = 64, .branching = 5, .depth = 6,
                             .min_value = -1000, .max_value = 1000, .transpositions = true};
    void *s = fx_randtree_new(&p);
    gts_engine *mm = fx_engine_with(1, 0);
    cr_assert_eq(gts_engine_set(mm, GTS_OPT_ITERATIVE, 0), GTS_OK);
    gts_limits l = {.struct_size = sizeof l, .depth = 6};
    gts_result ref = {.struct_size = sizeof ref};
    cr_assert_eq(gts_minimax(mm, rt, s, &l, &ref), GTS_OK);
    gts_engine *e = fx_engine_with(64, 4);
    gts_algorithm algs[64];
    int na = gts_algorithm_list(algs, 64);
    for (int i = 0; i < na; i++) {
        if (!gts_algorithm_is_parallel(algs[i]))
            continue;
        gts_engine_clear(e);
        gts_result r = {.struct_size = sizeof r};
        int rc = gts_search(e, algs[i], rt, s, &l, &r);
        const char *name = gts_algorithm_name(algs[i]);
        cr_assert_eq(rc, GTS_OK, "%s/64: %s", name, gts_status_name(rc));
        cr_assert_eq(r.threads, 64, "%s: 64 threads", name);
        cr_assert_eq(r.score, ref.score, "%s/64: %d != minimax %d", name, r.score, ref.score);
        cr_assert(r.flags & GTS_RESULT_HAS_MOVE);
        cr_assert_eq(r.flags & (GTS_RESULT_STOPPED | GTS_RESULT_NODE_LIMIT), 0);
    }
    gts_engine_free(e);
    gts_engine_free(mm);
    gts_games_free(rt, s);
}

Test(hostile, one_mib_table_deep_search)
{
    const gts_game *rt = gts_game_randtree();
    gts_randtree_params p = {.struct_size = sizeof p, .seed = 1, .branching = 3, .depth = 10,
                             .min_value = -1000, .max_value = 1000, .transpositions = true,
                             .ordered_percent = 50};
    void *s = fx_randtree_new(&p);
    gts_engine *mm = fx_engine_with(1, 0);
    cr_assert_eq(gts_engine_set(mm, GTS_OPT_ITERATIVE, 0), GTS_OK);
    gts_limits l = {.struct_size = sizeof l, .depth = 10};
    gts_result ref = {.struct_size = sizeof ref};
    cr_assert_eq(gts_minimax(mm, rt, s, &l, &ref), GTS_OK);
    config cf[64];
    int nc = configs(cf, 64);
    for (int i = 0; i < nc; i++) {
        if (!gts_algorithm_is_exact(cf[i].alg))
            continue;
        gts_engine *e = fx_engine_with(cf[i].threads, 1);
        gts_result r = {.struct_size = sizeof r};
        int rc = gts_search(e, cf[i].alg, rt, s, &l, &r);
        const char *name = gts_algorithm_name(cf[i].alg);
        cr_assert_eq(rc, GTS_OK, "%s/%d: %s", name, cf[i].threads, gts_status_name(rc));
        cr_assert_eq(r.score, ref.score, "%s/%d with 1 MiB: %d != %d", name, cf[i].threads,
                     r.score, ref.score);
        cr_assert_eq(r.depth, 10);
        gts_engine_free(e);
    }
    gts_engine_free(mm);
    gts_games_free(rt, s);
}

/* A narrow game: a chain of one move per ply with a fork of two every
 * FORK plies; it ends at ply `length` (0: never). */
typedef struct chain {
    int ply, length;
    uint64_t path[GTS_MAX_PLY + 2];
} chain;

static const int FORK = 8;

static int chain_generate(void *s, gts_move *moves, uint32_t cap, void *user)
{
    chain *c = s;
    if (c->length && c->ply >= c->length)
        return 0;
    moves[0] = 0;
    if (c->ply % FORK != 0)
        return 1;
    moves[1] = 1;
    return 2;
}

static int chain_apply(void *s, gts_move m, void *user)
{
    chain *c = s;
    if (c->ply > GTS_MAX_PLY)
        return -1; /* the library never goes deeper than GTS_MAX_PLY */
    c->path[c->ply + 1] = tgame_mix(c->path[c->ply] ^ (m + 1));
    c->ply++;
    return 0;
}

static int chain_undo(void *s, gts_move m, void *user)
{
    chain *c = s;
    c->path[c->ply--] = 0;
    return 0;
}

static gts_score chain_evaluate(void *s, void *user)
{
    chain *c = s;
    return (gts_score)(c->path[c->ply] % 201) - 100;
}

static uint64_t chain_hash(void *s, void *user)
{
    chain *c = s;
    return c->path[c->ply] ^ (uint64_t)c->ply;
}

static void *chain_clone(void *s, void *user) { return tgame_copy(s, sizeof(chain)); }

static gts_game chain_vtable(void)
{
    gts_game v = tgame_game_of(2, chain_generate, chain_apply, chain_undo, chain_evaluate);
    v.hash = chain_hash;
    v.clone = chain_clone;
    v.free = tgame_free;
    return v;
}

static void chain_init(chain *c, int length)
{
    memset(c, 0, sizeof *c);
    c->length = length;
    c->path[0] = tgame_mix(UINT64_C(0xc4a1));
}

Test(hostile, depth_sixty_on_a_narrow_tree)
{
    gts_game v = chain_vtable();
    chain c, before;
    chain_init(&c, 60);
    before = c;
    gts_score exact = fx_negamax(&v, &c, 60, 0);
    config cf[64];
    int nc = configs(cf, 64);
    for (int i = 0; i < nc; i++) {
        gts_engine *e = fx_engine_with(cf[i].threads, 1);
        const char *name = gts_algorithm_name(cf[i].alg);
        for (int depth = 60; depth <= GTS_MAX_DEPTH; depth += GTS_MAX_DEPTH - 60) {
            gts_limits l = {.struct_size = sizeof l, .depth = depth};
            gts_result r = {.struct_size = sizeof r};
            int rc = gts_search(e, cf[i].alg, &v, &c, &l, &r);
            cr_assert_eq(rc, GTS_OK, "%s/%d depth %d: %s", name, cf[i].threads, depth,
                         gts_status_name(rc));
            cr_assert_eq(r.score, exact, "%s/%d depth %d: %d != %d", name, cf[i].threads, depth,
                         r.score, exact);
            cr_assert_eq(r.depth, depth, "%s: every iteration completes", name);
            cr_assert_eq(r.flags & ~(uint32_t)GTS_RESULT_HAS_MOVE, 0, "%s: flags %#x", name,
                         r.flags);
            cr_assert(r.flags & GTS_RESULT_HAS_MOVE);
            cr_assert(r.best_move < 2);
            cr_assert(memcmp(&c, &before, sizeof c) == 0, "%s: state", name);
        }
        gts_engine_free(e);
    }
}

Test(hostile, endless_chain_to_the_maximum_ply_with_a_node_limit)
{
    gts_game v = chain_vtable();
    chain c, before;
    chain_init(&c, 0);
    before = c;
    config cf[64];
    int nc = configs(cf, 64);
    for (int i = 0; i < nc; i++) {
        gts_engine *e = fx_engine_with(cf[i].threads, 1);
        const char *name = gts_algorithm_name(cf[i].alg);
        gts_limits l = {.struct_size = sizeof l, .depth = 0 /* GTS_MAX_DEPTH */, .nodes = 3000};
        gts_result r = {.struct_size = sizeof r};
        int rc = gts_search(e, cf[i].alg, &v, &c, &l, &r);
        cr_assert_eq(rc, GTS_OK, "%s/%d: %s", name, cf[i].threads, gts_status_name(rc));
        cr_assert(r.flags & GTS_RESULT_NODE_LIMIT, "%s/%d: node limit flag (%#x)", name,
                  cf[i].threads, r.flags);
        cr_assert(r.flags & GTS_RESULT_HAS_MOVE);
        cr_assert(r.best_move < 2);
        cr_assert(r.depth < GTS_MAX_DEPTH);
        cr_assert(memcmp(&c, &before, sizeof c) == 0, "%s: state", name);
        /* Depth 60 on the endless chain: the value at the horizon. */
        gts_limits l60 = {.struct_size = sizeof l60, .depth = 60};
        gts_engine_clear(e);
        cr_assert_eq(gts_search(e, cf[i].alg, &v, &c, &l60, &r), GTS_OK);
        cr_assert_eq(r.score, fx_negamax(&v, &c, 60, 0), "%s/%d: depth 60 of an endless chain",
                     name, cf[i].threads);
        cr_assert_eq(r.depth, 60);
        gts_engine_free(e);
    }
}

static void node_limit_one_rounds(gts_engine *e, config cf, gts_score exact, void *ctx)
{
    (void)exact;
    (void)ctx;
    const char *name = gts_algorithm_name(cf.alg);
    hostile h = h_new();
    hround x;
    hround_tree(&x, &h, SEED, 4, 6, 4);
    gts_limits l = {.struct_size = sizeof l, .depth = 6, .nodes = 1};
    gts_result r = {.struct_size = sizeof r};
    int rc = gts_search(e, cf.alg, &x.v, &x.g, &l, &r);
    cr_assert_eq(rc, GTS_OK, "%s/%d: %s", name, cf.threads, gts_status_name(rc));
    cr_assert(r.flags & GTS_RESULT_NODE_LIMIT, "%s/%d: flags %#x", name, cf.threads, r.flags);
    cr_assert(r.flags & GTS_RESULT_HAS_MOVE, "%s: the fallback move", name);
    cr_assert(r.best_move < 4, "%s: a legal move", name);
    cr_assert(r.depth < 6, "%s: no full-depth iteration under one node", name);
    if (r.depth == 0) { /* doc/api.md: no iteration completed */
        cr_assert_eq(r.best_move, 0, "%s: the first legal move", name);
        cr_assert_eq(r.score, tgame_evaluate(&x.g, NULL), "%s: the root's static value", name);
    }
    cr_assert(r.score >= -GTS_SCORE_INF && r.score <= GTS_SCORE_INF);
    cr_assert(hround_restored(&x), "%s: state", name);
    cr_assert_eq(h.clones, h.frees);
}

SWEEP_TEST(node_limit_one, node_limit_one_rounds, "after a node limit of 1")
