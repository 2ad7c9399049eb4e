/* gts_game_check(): every built-in game passes; each kind of broken adapter
 * is reported with its violation and the path to it; the caller's state is
 * restored; bad arguments get a status. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "tgame.h"

static gts_check_report run(const gts_game *g, void *state, const gts_check_options *o)
{
    gts_check_report r = {.struct_size = sizeof r};
    gts_status rc = gts_game_check(g, state, o, &r);
    cr_assert_eq(rc, GTS_OK, "gts_game_check: %s", gts_status_name(rc));
    return r;
}

static void expect_pass(const char *name, const char *position)
{
    const gts_game *g = strcmp(name, "connect4_solver") == 0 ? gts_game_connect4_solver()
                                                              : gts_games_find(name);
    cr_assert_not_null(g, "%s", name);
    void *s = NULL;
    if (strcmp(name, "randtree") == 0) {
        gts_randtree_params p = {.struct_size = sizeof p, .seed = 5, .branching = 4, .depth = 9,
                                 .min_value = -50, .max_value = 50};
        cr_assert_eq(gts_randtree_new(&p, &s), GTS_OK);
    } else if (strcmp(name, "tictactoe") == 0) {
        cr_assert_eq(gts_tictactoe_new(position, &s), GTS_OK);
    } else if (strcmp(name, "othello") == 0) {
        cr_assert_eq(gts_othello_new(position, &s), GTS_OK);
    } else {
        cr_assert_eq(gts_connect4_new(position, &s), GTS_OK);
    }
    uint64_t key = g->hash(s, g->user);
    gts_check_options o = {.struct_size = sizeof o, .seed = 3, .walks = 6, .walk_length = 12};
    gts_check_report r = run(g, s, &o);
    cr_expect_eq(r.violation, GTS_CHECK_OK, "%s: %s: %s", name,
                 gts_check_violation_name(r.violation), r.message);
    cr_expect_eq(r.message[0], '\0');
    cr_expect_gt(r.positions, 6u, "%s: the walks examined positions", name);
    cr_expect_eq(g->hash(s, g->user), key, "%s: the state is restored", name);
    gts_games_free(g, s);
}

Test(check, built_in_games_pass)
{
    expect_pass("tictactoe", "");
    expect_pass("connect4", "4453");
    expect_pass("connect4_solver", "44");
    expect_pass("othello", NULL);
    expect_pass("randtree", NULL);
}

/* ---- broken adapters: tgame with one callback replaced ------------------- */

typedef enum breakage {
    NONE,
    UNDO_KEEPS_KEY,     /* undo forgets to clear: the next apply sees garbage */
    GENERATE_FLIPS,     /* generate's order alternates between calls */
    GENERATE_TOO_MANY,  /* returns max_moves + 1 */
    GENERATE_SCRIBBLES, /* writes one move past its capacity */
    EVALUATE_OUT,       /* a value beyond GTS_SCORE_WIN */
    HASH_CONSTANT,      /* every position the same key */
    HASH_GRANDPARENT,   /* a stable key, but shared by siblings and cousins */
    CLONE_RESETS,       /* clone() returns the root */
    BOUNDS_NARROW,      /* claims [0, 0] */
    NOISY_ILLEGAL,      /* a noisy move generate() never returns */
    KEYED_REVERSED,     /* generate_keyed in another order */
    TEXT_OFF_BY_ONE,    /* parse_move(format_move(m)) == m + 1 */
    MOVE_SCORE_APPLIES, /* move_score() plays the move and leaves it on */
    HASH_AFTER_OFF,     /* hash_after() one off at ply 2 */
    POLICY_ILLEGAL,     /* playout_move() returns a move generate() does not, at ply 1 */
    POLICY_APPLIES,     /* playout_move() plays its move and leaves it on, at ply 2 */
    POLICY_FAILS,       /* playout_move() returns -3 at ply 1 */
    /* with GTS_TRAIT_TRUSTED_PLAYOUT: */
    TRUSTED_ILLEGAL,    /* playout_move() returns a move generate() does not, at ply 1 */
    TRUSTED_PAST_END,   /* playout_move() returns a move at a finished game */
    NULL_KEEPS_KEY,     /* null_apply() passes without changing hash() */
    NULL_UNDO_LEAKS,    /* null_undo() at ply 1 leaves the pass on */
} breakage;

static breakage BROKEN;
static unsigned FLIP;

static int b_generate(void *s, gts_move *moves, uint32_t cap, void *user)
{
    tgame *g = s;
    int n = tgame_generate(s, moves, cap, user);
    if (n <= 0)
        return n;
    if (BROKEN == GENERATE_FLIPS && (FLIP++ & 1)) {
        gts_move t = moves[0];
        moves[0] = moves[n - 1];
        moves[n - 1] = t;
    }
    if (BROKEN == GENERATE_TOO_MANY && g->ply == 2)
        return (int)cap + 1;
    if (BROKEN == GENERATE_SCRIBBLES && g->ply == 1)
        moves[cap] = 9;
    return n;
}

static int b_undo(void *s, gts_move m, void *user)
{
    tgame *g = s;
    if (BROKEN == UNDO_KEEPS_KEY && g->ply == 2) {
        g->path[g->ply - 1] ^= 1; /* corrupts the parent's key */
        g->ply--;
        return 0;
    }
    return tgame_undo(s, m, user);
}

static gts_score b_evaluate(void *s, void *user)
{
    tgame *g = s;
    if (BROKEN == EVALUATE_OUT && g->ply == 3)
        return GTS_SCORE_WIN + 1;
    return tgame_evaluate(s, user);
}

static uint64_t b_hash(void *s, void *user)
{
    tgame *g = s;
    if (BROKEN == HASH_CONSTANT)
        return 42;
    if (BROKEN == HASH_GRANDPARENT)
        return g->ply >= 2 ? g->path[g->ply - 2] : g->path[0];
    return tgame_hash(s, user);
}

static void *b_clone(void *s, void *user)
{
    tgame *c = tgame_clone(s, user);
    if (c && BROKEN == CLONE_RESETS)
        c->ply = 0;
    return c;
}

static int b_bounds(void *s, gts_score *lo, gts_score *hi, void *user)
{
    (void)s, (void)user;
    *lo = BROKEN == BOUNDS_NARROW ? 0 : -100;
    *hi = BROKEN == BOUNDS_NARROW ? 0 : 100;
    return 0;
}

static int b_noisy(void *s, gts_move *moves, uint32_t cap, void *user)
{
    tgame *g = s;
    (void)cap, (void)user;
    if (g->ply >= g->depth)
        return 0;
    moves[0] = BROKEN == NOISY_ILLEGAL && g->ply == 1 ? 77 : 1;
    return 1;
}

static int b_keyed(void *s, gts_move *moves, int32_t *keys, uint32_t cap, void *user)
{
    int n = tgame_generate(s, moves, cap, user);
    for (int i = 0; i < n; i++)
        keys[i] = -i;
    if (BROKEN == KEYED_REVERSED && n > 1) {
        gts_move t = moves[0];
        moves[0] = moves[1];
        moves[1] = t;
    }
    return n;
}

static int b_format(void *s, gts_move m, char *buf, size_t size, void *user)
{
    (void)s, (void)user;
    return snprintf(buf, size, "%llu", (unsigned long long)m);
}

static int b_parse(void *s, const char *text, gts_move *m, void *user)
{
    (void)s, (void)user;
    *m = strtoull(text, NULL, 10) + (BROKEN == TEXT_OFF_BY_ONE);
    return 0;
}

static int32_t b_move_score(void *s, gts_move m, void *user)
{
    if (BROKEN == MOVE_SCORE_APPLIES && ((tgame *)s)->ply == 1)
        tgame_apply(s, m, user);
    return 0;
}

static uint64_t b_hash_after(void *s, gts_move m, void *user)
{
    tgame t = *(const tgame *)s;
    tgame_apply(&t, m, user);
    return b_hash(&t, user) ^ (BROKEN == HASH_AFTER_OFF && t.ply == 2);
}

/* A pass (since 0.3): the tgame move 1000, which changes the key. */
static bool NULL_FAKED; /* NULL_KEEPS_KEY: the pass made nothing */

static int b_null_apply(void *s, void *user)
{
    NULL_FAKED = BROKEN == NULL_KEEPS_KEY && ((tgame *)s)->ply == 1;
    if (!NULL_FAKED)
        tgame_apply(s, 1000, user);
    return 1;
}

static int b_null_undo(void *s, void *user)
{
    tgame *g = s;
    if (NULL_FAKED)
        return 0;
    if (BROKEN == NULL_UNDO_LEAKS && g->ply == 2)
        return 0;
    return tgame_undo(s, 1000, user);
}

static int b_policy(void *s, uint64_t random, gts_move *m, void *user)
{
    tgame *g = s;
    *m = random % 3;
    if (g->ply >= g->depth && BROKEN != TRUSTED_PAST_END)
        return 0; /* a finished game */
    if (BROKEN == POLICY_FAILS && g->ply == 1)
        return -3;
    if ((BROKEN == POLICY_ILLEGAL || BROKEN == TRUSTED_ILLEGAL) && g->ply == 1)
        *m = 3;
    if (BROKEN == POLICY_APPLIES && g->ply == 2)
        tgame_apply(s, *m, user);
    return 1;
}

/* A tgame adapter with every optional callback, broken as told. */
static gts_game broken_game(tgame *g, breakage b)
{
    BROKEN = b;
    FLIP = 0;
    tgame_init(g, 1234, 3, 6);
    gts_game v = tgame_vtable(g, true);
    v.generate = b_generate;
    v.undo = b_undo;
    v.evaluate = b_evaluate;
    v.hash = b_hash;
    v.clone = b_clone;
    v.bounds = b_bounds;
    v.generate_noisy = b_noisy;
    v.generate_keyed = b_keyed;
    v.format_move = b_format;
    v.parse_move = b_parse;
    v.move_score = b_move_score;
    v.hash_after = b_hash_after;
    v.playout_move = b_policy;
    v.null_apply = b_null_apply;
    v.null_undo = b_null_undo;
    if (b == TRUSTED_ILLEGAL || b == TRUSTED_PAST_END)
        v.traits = GTS_TRAIT_TRUSTED_PLAYOUT;
    return v;
}

static void expect_violation(breakage b, gts_check_violation want, uint32_t min_path)
{
    tgame g;
    gts_game v = broken_game(&g, b);
    gts_check_options o = {.struct_size = sizeof o, .seed = 1, .walks = 8, .walk_length = 6};
    gts_check_report r = run(&v, &g, &o);
    cr_expect_eq(r.violation, want, "breakage %d: got %s (%s), want %s", (int)b,
                 gts_check_violation_name(r.violation), r.message,
                 gts_check_violation_name(want));
    cr_expect_neq(r.message[0], '\0', "breakage %d: a message", (int)b);
    cr_expect_geq(r.path_length, min_path, "breakage %d: the path leads there", (int)b);
    /* The path replays from the root to where the violation was seen. */
    tgame replay;
    tgame_init(&replay, 1234, 3, 6);
    for (uint32_t i = 0; i < r.path_length; i++) {
        cr_assert_lt(r.path[i], 3u, "breakage %d: path move %u is legal", (int)b, i);
        tgame_apply(&replay, r.path[i], NULL);
    }
    BROKEN = NONE;
}

Test(check, a_correct_adapter_passes)
{
    tgame g;
    gts_game v = broken_game(&g, NONE);
    uint64_t key = tgame_hash(&g, NULL);
    gts_check_report r = run(&v, &g, NULL);
    cr_expect_eq(r.violation, GTS_CHECK_OK, "%s: %s", gts_check_violation_name(r.violation),
                 r.message);
    cr_expect_eq(g.ply, 0);
    cr_expect_eq(tgame_hash(&g, NULL), key);
}

Test(check, each_broken_promise_is_found)
{
    expect_violation(UNDO_KEEPS_KEY, GTS_CHECK_NOT_RESTORED, 1);
    expect_violation(GENERATE_FLIPS, GTS_CHECK_GENERATE_UNSTABLE, 0);
    expect_violation(GENERATE_TOO_MANY, GTS_CHECK_GENERATE_OVERFLOW, 2);
    expect_violation(GENERATE_SCRIBBLES, GTS_CHECK_GENERATE_OVERFLOW, 1);
    expect_violation(EVALUATE_OUT, GTS_CHECK_EVALUATE, 3);
    expect_violation(HASH_CONSTANT, GTS_CHECK_HASH, 0);
    /* siblings share their grandparent's key */
    expect_violation(HASH_GRANDPARENT, GTS_CHECK_HASH, 0);
    expect_violation(CLONE_RESETS, GTS_CHECK_CLONE, 0);
    expect_violation(BOUNDS_NARROW, GTS_CHECK_BOUNDS, 0);
    expect_violation(NOISY_ILLEGAL, GTS_CHECK_NOISY_NOT_LEGAL, 1);
    expect_violation(KEYED_REVERSED, GTS_CHECK_KEYED_MISMATCH, 0);
    expect_violation(TEXT_OFF_BY_ONE, GTS_CHECK_MOVE_TEXT, 0);
    expect_violation(MOVE_SCORE_APPLIES, GTS_CHECK_NOT_RESTORED, 1);
    expect_violation(HASH_AFTER_OFF, GTS_CHECK_HASH_AFTER, 1);
    expect_violation(POLICY_ILLEGAL, GTS_CHECK_PLAYOUT_MOVE, 1);
    expect_violation(POLICY_APPLIES, GTS_CHECK_NOT_RESTORED, 2);
    expect_violation(POLICY_FAILS, GTS_CHECK_CALLBACK_FAILED, 1);
    expect_violation(TRUSTED_ILLEGAL, GTS_CHECK_PLAYOUT_MOVE, 1);
    expect_violation(TRUSTED_PAST_END, GTS_CHECK_PLAYOUT_MOVE, 6);
    expect_violation(NULL_KEEPS_KEY, GTS_CHECK_HASH, 1);
    expect_violation(NULL_UNDO_LEAKS, GTS_CHECK_NOT_RESTORED, 1);
    cr_expect_str_eq(gts_check_violation_name(GTS_CHECK_PLAYOUT_MOVE), "PLAYOUT_MOVE");
}

/* A trusted policy: an honest one passes (its playouts from the walks'
 * ends included); one that plays on at a finished game is caught by the
 * playouts beyond walks too short to reach the end, with the path there
 * and a message naming the trait; without the trait it is allowed. */
Test(check, trusted_playout_promise)
{
    tgame g;
    gts_game v = broken_game(&g, NONE);
    v.traits = GTS_TRAIT_TRUSTED_PLAYOUT;
    gts_check_report r = run(&v, &g, NULL);
    cr_expect_eq(r.violation, GTS_CHECK_OK, "%s: %s", gts_check_violation_name(r.violation),
                 r.message);
    cr_expect_eq(g.ply, 0);

    gts_check_options o = {.struct_size = sizeof o, .seed = 5, .walks = 3, .walk_length = 2};
    v = broken_game(&g, TRUSTED_PAST_END);
    r = run(&v, &g, &o);
    cr_expect_eq(r.violation, GTS_CHECK_PLAYOUT_MOVE, "%s: %s",
                 gts_check_violation_name(r.violation), r.message);
    cr_expect_eq(r.path_length, 6u, "the path to the finished game");
    cr_expect(strstr(r.message, "finished game") && strstr(r.message, "TRUSTED_PLAYOUT"), "%s",
              r.message);
    cr_expect_eq(g.ply, 0, "restored");

    v = broken_game(&g, TRUSTED_ILLEGAL);
    r = run(&v, &g, &o);
    cr_expect_eq(r.violation, GTS_CHECK_PLAYOUT_MOVE);
    cr_expect(strstr(r.message, "TRUSTED_PLAYOUT"), "%s", r.message);

    v = broken_game(&g, TRUSTED_PAST_END);
    v.traits = 0;
    o.walk_length = 8;
    r = run(&v, &g, &o);
    cr_expect_eq(r.violation, GTS_CHECK_OK, "untrusted: %s", r.message);
    BROKEN = NONE;
}

/* gts_game_check on the tgame (99, 3, 5) whose apply() fails at call 40,
 * its moves written by @format_move (NULL: none); the ply it ends at in
 * *@ply. */
static gts_check_report run_apply_failing(int (*format_move)(void *, gts_move, char *, size_t,
                                                             void *),
                                          int *ply)
{
    tgame g;
    tgame_faults f = {.fail_apply_at = 40};
    tgame_init(&g, 99, 3, 5);
    g.f = &f;
    gts_game v = tgame_vtable(&g, true);
    v.format_move = format_move;
    gts_check_report r = run(&v, &g, NULL);
    *ply = g.ply;
    return r;
}

Test(check, failing_callbacks_are_reported)
{
    int ply;
    gts_check_report r = run_apply_failing(NULL, &ply);
    cr_expect_eq(r.violation, GTS_CHECK_CALLBACK_FAILED, "%s",
                 gts_check_violation_name(r.violation));
    cr_expect_eq(r.callback_status, -7);
    cr_expect_eq(ply, 0, "the state is restored after a failing apply");
}

Test(check, same_seed_same_report)
{
    tgame g;
    gts_game v = broken_game(&g, NONE);
    gts_check_options o = {.struct_size = sizeof o, .seed = 77, .walks = 5};
    gts_check_report a = run(&v, &g, &o), b = run(&v, &g, &o);
    cr_expect_eq(a.positions, b.positions);
    o.algorithm_positions = -1;
    gts_check_report c = run(&v, &g, &o);
    cr_expect_eq(c.violation, GTS_CHECK_OK);
}

Test(check, bad_arguments)
{
    tgame g;
    gts_game v = broken_game(&g, NONE);
    gts_check_report r = {.struct_size = sizeof r};
    cr_expect_eq(gts_game_check(NULL, &g, NULL, &r), GTS_EINVAL);
    cr_expect_eq(gts_game_check(&v, NULL, NULL, &r), GTS_EINVAL);
    cr_expect_eq(gts_game_check(&v, &g, NULL, NULL), GTS_EINVAL);
    r.struct_size = 8;
    cr_expect_eq(gts_game_check(&v, &g, NULL, &r), GTS_ESTRUCT);
    r.struct_size = sizeof r;
    gts_check_options o = {.struct_size = sizeof o, .depth = 9};
    cr_expect_eq(gts_game_check(&v, &g, &o, &r), GTS_ERANGE);
    o.depth = 0;
    o.walk_length = GTS_MAX_PLY;
    cr_expect_eq(gts_game_check(&v, &g, &o, &r), GTS_ERANGE);
    o.struct_size = 4;
    cr_expect_eq(gts_game_check(&v, &g, &o, &r), GTS_ESTRUCT);
    v.max_moves = 0;
    cr_expect_eq(gts_game_check(&v, &g, NULL, &r), GTS_ERANGE);
    v.max_moves = 3;
    v.undo = NULL;
    cr_expect_eq(gts_game_check(&v, &g, NULL, &r), GTS_EINVAL);
    cr_expect_eq(gts_check_violation_name(GTS_CHECK_HASH)[0], 'H');
    cr_expect_null(gts_check_violation_name(-1));
    cr_expect_null(gts_check_violation_name(1000));
    cr_expect_str_eq(gts_check_violation_name(GTS_CHECK_HASH_AFTER), "HASH_AFTER");
    BROKEN = NONE;
}

/* ---- issue 31: the report's text and callback_status --------------------- */

static int col_format(void *s, gts_move m, char *buf, size_t size, void *user)
{
    (void)s, (void)user;
    return snprintf(buf, size, "col%llu", (unsigned long long)m);
}

static gts_check_report run_broken(breakage b, bool hash, bool text)
{
    tgame g;
    gts_game v = broken_game(&g, b);
    if (!hash) {
        v.hash = NULL;
        v.hash_after = NULL;
    }
    v.format_move = text ? col_format : NULL;
    v.parse_move = NULL;
    gts_check_options o = {.struct_size = sizeof o, .seed = 1, .walks = 8, .walk_length = 6};
    gts_check_report r = run(&v, &g, &o);
    BROKEN = NONE;
    return r;
}

/* Moves are written with the game's format_move() when it has one (they
 * were always hex: "apply(0x2)"), as hex otherwise. */
Test(check, messages_write_moves_with_format_move)
{
    int ply;
    gts_check_report r = run_apply_failing(col_format, &ply);
    cr_assert_eq(r.violation, GTS_CHECK_CALLBACK_FAILED);
    cr_expect(strstr(r.message, "apply(col"), "the move as text: %s", r.message);
    cr_expect(!strstr(r.message, "0x"), "no hex: %s", r.message);

    gts_check_report t = run_broken(MOVE_SCORE_APPLIES, true, true);
    cr_assert_eq(t.violation, GTS_CHECK_NOT_RESTORED, "%s", t.message);
    cr_expect(strstr(t.message, "move_score(col"), "%s", t.message);
    t = run_broken(NOISY_ILLEGAL, true, true);
    cr_assert_eq(t.violation, GTS_CHECK_NOISY_NOT_LEGAL, "%s", t.message);
    cr_expect(strstr(t.message, "returned col"), "%s", t.message);
    t = run_broken(MOVE_SCORE_APPLIES, true, false);
    cr_expect(strstr(t.message, "move_score(0x") || strstr(t.message, "move_score(0)"),
              "without format_move: hex: %s", t.message);
}

/* A game without hash() has no keys: no "key 0 -> 0" in the messages. */
Test(check, messages_without_hash_have_no_key)
{
    gts_check_report r = run_broken(MOVE_SCORE_APPLIES, false, false);
    cr_assert_eq(r.violation, GTS_CHECK_NOT_RESTORED, "%s", r.message);
    cr_expect(!strstr(r.message, "key"), "no key part: %s", r.message);
    cr_expect(strstr(r.message, "moves ->"), "the rest is there: %s", r.message);
    r = run_broken(MOVE_SCORE_APPLIES, true, false);
    cr_expect(strstr(r.message, "key 0x"), "with hash(): the keys: %s", r.message);
}

/* callback_status is what gts_result::callback_status would say for the
 * same fault: the count of an overflowing generate(), the score of an
 * out-of-range evaluate(), the status of a failed callback. */
Test(check, callback_status_is_the_callbacks_value)
{
    gts_check_report r = run_broken(GENERATE_TOO_MANY, true, true);
    cr_assert_eq(r.violation, GTS_CHECK_GENERATE_OVERFLOW);
    tgame g;
    gts_game v = broken_game(&g, NONE);
    cr_expect_eq(r.callback_status, (int32_t)v.max_moves + 1, "max_moves + 1: %d",
                 r.callback_status);
    r = run_broken(EVALUATE_OUT, true, true);
    cr_assert_eq(r.violation, GTS_CHECK_EVALUATE);
    cr_expect_eq(r.callback_status, GTS_SCORE_WIN + 1, "the score: %d", r.callback_status);
    r = run_broken(POLICY_FAILS, true, true);
    cr_assert_eq(r.violation, GTS_CHECK_CALLBACK_FAILED);
    cr_expect_eq(r.callback_status, -3);
    r = run_broken(HASH_CONSTANT, true, true);
    cr_assert_eq(r.violation, GTS_CHECK_HASH);
    cr_expect_eq(r.callback_status, 0, "0 for the other violations");
}
