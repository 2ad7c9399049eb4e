/*
 * test_games.c - Criterion suite for libgts-games (examples/games).
 *
 * Every game is checked against something independent of its own code:
 * tic-tac-toe against the known tree size and value, Connect-4 and Othello
 * against naive array-based move generators written here (perft and
 * lock-step random games), the Connect-4 solver vtable against plain
 * negamax over the full game, randtree against its documented properties.
 * Only the public API of gts_games.h is used.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gts_games.h"

/* ---- helpers ------------------------------------------------------------- */

static uint64_t rng_next(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t rng_below(uint64_t *x, uint32_t n)
{
    return (uint32_t)(rng_next(x) % n);
}

static int gen(const gts_game *g, void *st, gts_move *mv)
{
    int n = g->generate(st, mv, g->max_moves, g->user);
    cr_assert(n >= 0 && (uint32_t)n <= g->max_moves,
              "generate must return 0..max_moves (%u), got %d", g->max_moves, n);
    return n;
}

static void play(const gts_game *g, void *st, gts_move m)
{
    int rc = g->apply(st, m, g->user);
    cr_assert_eq(rc, 0, "apply(%llu) should succeed, got %d", (unsigned long long)m, rc);
}

static void unplay(const gts_game *g, void *st, gts_move m)
{
    int rc = g->undo(st, m, g->user);
    cr_assert_eq(rc, 0, "undo(%llu) should succeed, got %d", (unsigned long long)m, rc);
}

/* A position text a constructor must refuse, and why. */
typedef struct refusal {
    const char *text, *why;
} refusal;

/* @make refuses each text with GTS_EPARSE and no state, and a NULL out
 * pointer with GTS_EINVAL. */
static void expect_refused(gts_status (*make)(const char *, void **), const refusal *bad, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        void *st = (void *)1;
        cr_assert_eq(make(bad[i].text, &st), GTS_EPARSE, "'%s': %s", bad[i].text, bad[i].why);
        cr_assert_null(st, "'%s': state is NULL on error", bad[i].text);
    }
    cr_assert_eq(make("", NULL), GTS_EINVAL, "NULL out pointer");
}

/* Position texts @a and @same (its moves in another order) hash equal;
 * @other (the same cells, colours swapped) hashes differently. */
static void expect_transposition(const gts_game *g, gts_status (*make)(const char *, void **),
                                 const char *a, const char *same, const char *other)
{
    void *sa, *sb;
    cr_assert_eq(make(a, &sa), GTS_OK, "position %s", a);
    cr_assert_eq(make(same, &sb), GTS_OK, "position %s", same);
    cr_assert_eq(g->hash(sa, NULL), g->hash(sb, NULL), "%s and %s: transposed positions hash equal",
                 a, same);
    gts_games_free(g, sb);
    cr_assert_eq(make(other, &sb), GTS_OK, "position %s", other);
    cr_assert_neq(g->hash(sa, NULL), g->hash(sb, NULL), "%s and %s hash differently", a, other);
    gts_games_free(g, sb);
    gts_games_free(g, sa);
}

static uint64_t perft(const gts_game *g, void *st, int depth)
{
    uint64_t count = 0;
    int rc = gts_games_perft(g, st, depth, &count);
    cr_assert_eq(rc, 0, "gts_games_perft(depth %d) should succeed, got %d", depth, rc);
    return count;
}

/* Plain negamax to @p depth plies (no pruning of any kind). */
static gts_score negamax(const gts_game *g, void *st, int depth)
{
    gts_move mv[64];
    cr_assert(g->max_moves <= 64, "test buffer too small");
    int n = depth > 0 ? gen(g, st, mv) : 0;
    if (n == 0)
        return g->evaluate(st, g->user);
    gts_score best = -GTS_SCORE_INF;
    for (int i = 0; i < n; i++) {
        play(g, st, mv[i]);
        gts_score v = -negamax(g, st, depth - 1);
        unplay(g, st, mv[i]);
        if (v > best)
            best = v;
    }
    return best;
}

/* Fail-soft alpha-beta to @p depth plies: with a full window, the exact
 * negamax value. */
static gts_score alphabeta(const gts_game *g, void *st, int depth, gts_score alpha, gts_score beta)
{
    gts_move mv[64];
    int n = depth > 0 ? gen(g, st, mv) : 0;
    if (n == 0)
        return g->evaluate(st, g->user);
    gts_score best = -GTS_SCORE_INF;
    for (int i = 0; i < n; i++) {
        play(g, st, mv[i]);
        gts_score v = -alphabeta(g, st, depth - 1, -beta, -alpha);
        unplay(g, st, mv[i]);
        if (v > best)
            best = v;
        if (best > alpha)
            alpha = best;
        if (alpha >= beta)
            break;
    }
    return best;
}

/* Generic contract checks every game must pass on @p st. */
static void check_vtable(const gts_game *g)
{
    cr_assert_eq(g->struct_size, sizeof(gts_game), "struct_size must be sizeof(gts_game)");
    cr_assert_null(g->user, "built-in games have user == NULL");
    cr_assert(g->generate && g->apply && g->undo && g->evaluate, "required callbacks set");
    cr_assert(g->hash && g->clone && g->free, "hash/clone/free set");
    cr_assert(g->format_move && g->parse_move, "format_move/parse_move set");
    cr_assert(g->max_moves >= 1 && g->max_moves <= 64, "max_moves in 1..64");
}

/* Walk a random game checking clone, format/parse round trips, bad moves
 * and that undo restores the hash. */
static void check_random_game(const gts_game *g, void *st, uint64_t seed, bool strict_undo)
{
    gts_move mv[64], path[200];
    uint64_t hashes[201];
    int len = 0;
    for (; len < 200; len++) {
        hashes[len] = g->hash(st, g->user);
        int n = gen(g, st, mv);
        if (n == 0)
            break;
        for (int i = 0; i < n; i++) {
            char buf[16];
            gts_move back = GTS_MOVE_NONE;
            int w = g->format_move(st, mv[i], buf, sizeof buf, g->user);
            cr_assert(w > 0 && (size_t)w == strlen(buf), "format_move returns the length");
            cr_assert_eq(g->parse_move(st, buf, &back, g->user), 0,
                         "parse_move(\"%s\") should succeed", buf);
            cr_assert_eq(back, mv[i], "parse(format(m)) == m for \"%s\"", buf);
        }
        char tiny[1];
        cr_assert(g->format_move(st, mv[0], tiny, sizeof tiny, g->user) < 0,
                  "format_move into a 1-byte buffer must fail");
        gts_move junk;
        cr_assert(g->parse_move(st, "zz!", &junk, g->user) < 0, "garbage must not parse");
        cr_assert(g->apply(st, 1000, g->user) < 0, "apply(1000) must fail");
        cr_assert(g->apply(st, GTS_MOVE_NONE, g->user) < 0, "apply(GTS_MOVE_NONE) must fail");
        cr_assert_eq(g->hash(st, g->user), hashes[len], "a failed apply leaves the state alone");

        void *copy = g->clone(st, g->user);
        cr_assert_not_null(copy, "clone succeeds");
        cr_assert_eq(g->hash(copy, g->user), hashes[len], "clone has the same hash");
        cr_assert_eq(g->evaluate(copy, g->user), g->evaluate(st, g->user), "clone evaluates the same");
        play(g, copy, mv[0]);
        cr_assert_eq(g->hash(st, g->user), hashes[len], "playing on a clone leaves the original alone");
        gts_games_free(g, copy);

        path[len] = mv[rng_below(&seed, (uint32_t)n)];
        play(g, st, path[len]);
    }
    gts_score e = g->evaluate(st, g->user);
    cr_assert(e >= GTS_SCORE_LOSS && e <= GTS_SCORE_WIN, "evaluate in [LOSS, WIN], got %d", e);
    uint64_t h = g->hash(st, g->user);
    cr_assert(g->undo(st, 1000, g->user) < 0, "undo(1000) must fail");
    if (len > 0 && strict_undo) {
        /* games that keep a history know which move was played last */
        gts_move wrong = path[len - 1] == 0 ? 1 : 0;
        cr_assert(g->undo(st, wrong, g->user) < 0, "undo of a move that was not played last fails");
    }
    cr_assert_eq(g->hash(st, g->user), h, "a failed undo leaves the state alone");
    while (len > 0) {
        len--;
        unplay(g, st, path[len]);
        cr_assert_eq(g->hash(st, g->user), hashes[len], "undo restores the hash at ply %d", len);
    }
}

/* ---- common -------------------------------------------------------------- */

Test(games, find_by_name)
{
    cr_assert_eq(gts_games_find("tictactoe"), gts_game_tictactoe(), "tictactoe is found");
    cr_assert_eq(gts_games_find("connect4"), gts_game_connect4(), "connect4 is found");
    cr_assert_eq(gts_games_find("othello"), gts_game_othello(), "othello is found");
    cr_assert_eq(gts_games_find("randtree"), gts_game_randtree(), "randtree is found");
    cr_assert_eq(gts_games_find("chess"), gts_game_chess(), "chess is found");
    cr_assert_null(gts_games_find("checkers"), "unknown names give NULL");
    cr_assert_null(gts_games_find(""), "empty name gives NULL");
    cr_assert_null(gts_games_find(NULL), "NULL name gives NULL");
    gts_games_free(NULL, NULL);
    gts_games_free(gts_game_othello(), NULL);
}

/* gts_games_position_new: the state its constructor makes, or the game's
 * reason (the tools' messages, tests/test_cli.py, come from here). */
Test(games, position_new_builds_or_explains)
{
    char why[512];
    void *st = NULL, *ref = NULL;
    cr_assert_eq(gts_games_position_new("connect4", NULL, "4453", &st, why, sizeof why), GTS_OK);
    cr_assert_str_empty(why, "no reason on success");
    cr_assert_eq(gts_connect4_new("4453", &ref), GTS_OK);
    const gts_game *c4 = gts_game_connect4();
    cr_assert_eq(c4->hash(st, NULL), c4->hash(ref, NULL), "the constructor's position");
    gts_games_free(c4, st);
    gts_games_free(c4, ref);

    static const struct {
        const char *game, *text, *why;
    } BAD[] = {
        { "connect4", "1111111", "move 7: column 1 is full" },
        { "tictactoe", "5195", "move 4: cell 5 is already taken" },
        { "othello", "f5f5", "move 2: f5 is not legal here: the square is occupied" },
        { "randtree", "0,9", "move 2: child 9 does not exist: the node has 8 children (0..7)" },
        { "go", "3 moves=B1,pass,A2,A1",
          "move 4: A1 is not legal here: suicide (the stone's string would have no liberty)" },
        { "go", "4 moves=B3,C3,A2,B2,B1,D2,pass,C1,C2,B2",
          "move 10: B2 is not legal here: it repeats an earlier board (positional superko)" },
        { "go", "moves=C3,c3", "move 2: c3 is not legal here: the point is occupied" },
        { "chess", "startpos moves e2e5",
          "not a legal position (expected startpos or a FEN, optionally followed by moves and "
          "UCI moves such as e2e4)" },
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        st = &st;
        cr_assert_eq(gts_games_position_new(BAD[i].game, NULL, BAD[i].text, &st, why, sizeof why),
                     GTS_EPARSE, "%s '%s' is refused", BAD[i].game, BAD[i].text);
        cr_assert_null(st, "no state on failure");
        cr_assert_str_eq(why, BAD[i].why, "%s '%s'", BAD[i].game, BAD[i].text);
        /* no room for a reason: the same status */
        cr_assert_eq(gts_games_position_new(BAD[i].game, NULL, BAD[i].text, &st, NULL, 0),
                     GTS_EPARSE);
    }
    cr_assert_eq(gts_games_position_new("checkers", NULL, "", &st, why, sizeof why), GTS_EINVAL);
    cr_assert_str_eq(why, "unknown game");
    cr_assert_eq(gts_games_position_new("go", NULL, "", NULL, why, sizeof why), GTS_EINVAL);
}

Test(games, plugin_descriptors)
{
    static const char *const NAMES[] = { "tictactoe", "connect4", "connect4h", "chess",
                                         "go",        "othello",  "randtree" };
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++) {
        const gts_plugin *p = gts_games_plugin(NAMES[i]);
        cr_assert_not_null(p, "%s has a descriptor", NAMES[i]);
        cr_assert_geq(p->struct_size, GTS_PLUGIN_SIZE_V0_2);
        cr_assert_str_eq(p->name, NAMES[i]);
        cr_assert_eq(p->game, gts_games_find(NAMES[i]));
        cr_assert_not_null(p->moves_separator, "%s lists moves", NAMES[i]);
        void *st = NULL;
        char why[256];
        cr_assert_eq(p->position_new("", &st, why, sizeof why, p->user), GTS_OK, "%s start",
                     NAMES[i]);
        gts_games_free(p->game, st);
    }
    cr_assert_null(gts_games_plugin("checkers"));
    cr_assert_null(gts_games_plugin(NULL));
    /* randtree reads its parameters from the user pointer */
    gts_randtree_params tp;
    memset(&tp, 0, sizeof tp);
    tp.struct_size = sizeof tp;
    tp.seed = 3;
    tp.branching = 2;
    tp.depth = 4;
    tp.min_value = -10;
    tp.max_value = 10;
    const gts_plugin *rt = gts_games_plugin("randtree");
    void *st = NULL;
    char why[256];
    cr_assert_eq(rt->position_new("0,2", &st, why, sizeof why, &tp), GTS_EPARSE);
    cr_assert_str_eq(why, "move 2: child 2 does not exist: the node has 2 children (0..1)");
    cr_assert_eq(rt->position_new("1,1", &st, why, sizeof why, &tp), GTS_OK);
    gts_games_free(rt->game, st);
}

/* gts_games_position_turn: whose turn a text leaves and the plies it
 * played, against answers worked out by hand (the Othello line leaves a
 * pass implied: a count of its written moves says White, wrongly). */
Test(games, position_turn_known_answers)
{
    static const struct {
        const char *game, *text;
        int side, plies;
    } CASES[] = {
        { "tictactoe", "", 0, 0 },
        { "tictactoe", "519", 1, 3 },
        { "connect4", "4453", 0, 4 },
        { "connect4", "44531", 1, 5 },
        { "connect4h", "445", 1, 3 },
        { "othello", "f5d6c3", 1, 3 },
        { "othello", "d3c3b3b2f5a3a1c1e3", 0, 10 },   /* Black's pass implied before e3 */
        { "othello", "d3c3b3b2f5a3a1c1pse3", 0, 10 }, /* the same, written */
        { "go", "", 0, 0 },
        { "go", "9 komi=7 moves=E5,D4,pass", 1, 3 },
        { "chess", "", 0, 0 },
        { "chess", "startpos moves e2e4", 1, 1 },
        { "chess", "startpos moves e2e4 e7e5 g1f3", 1, 3 },
        { "chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 1, 0 },
        { "chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 moves e7e5", 0,
          1 },
        { "randtree", "", 0, 0 },
        { "randtree", "0,3,1", 1, 3 },
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        int side = -1, plies = -1;
        cr_assert_eq(gts_games_position_turn(CASES[i].game, NULL, CASES[i].text, &side, &plies),
                     GTS_OK, "%s '%s'", CASES[i].game, CASES[i].text);
        cr_assert_eq(side, CASES[i].side, "%s '%s': side %d", CASES[i].game, CASES[i].text, side);
        cr_assert_eq(plies, CASES[i].plies, "%s '%s': %d plies", CASES[i].game, CASES[i].text,
                     plies);
        side = -1;
        cr_assert_eq(gts_games_position_turn(CASES[i].game, NULL, CASES[i].text, &side, NULL),
                     GTS_OK, "plies not wanted");
        cr_assert_eq(side, CASES[i].side);
    }
    int side = 0;
    cr_assert_eq(gts_games_position_turn("connect4", NULL, NULL, &side, NULL), GTS_OK, "NULL text");
    cr_assert_eq(gts_games_position_turn("connect4", NULL, "1111111", &side, NULL), GTS_EPARSE);
    cr_assert_eq(gts_games_position_turn("checkers", NULL, "", &side, NULL), GTS_EINVAL);
    cr_assert_eq(gts_games_position_turn("connect4", NULL, "", NULL, NULL), GTS_EINVAL);
}

/* The same on random games of every built-in game: a line of random moves
 * played through the vtable, written as its descriptor says (moves_prefix,
 * moves_separator, format_move), leaves the side the line's length says to
 * move (the reference counts what it applied, passes included). */
Test(games, position_turn_follows_random_lines)
{
    static const char *const NAMES[] = { "tictactoe", "connect4", "connect4h", "chess",
                                         "go",        "othello",  "randtree" };
    uint64_t rng = 0x7475726eull; /* "turn" */
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++) {
        const gts_plugin *p = gts_games_plugin(NAMES[i]);
        const gts_game *g = p->game;
        gts_move *mv = malloc(((size_t)g->max_moves + 1) * sizeof *mv);
        cr_assert_not_null(mv);
        for (int line = 0; line < 20; line++) {
            void *st = NULL;
            char why[256], text[4096];
            cr_assert_eq(p->position_new("", &st, why, sizeof why, p->user), GTS_OK);
            int len = (int)rng_below(&rng, 40);
            int plies = 0;
            snprintf(text, sizeof text, "%s", len > 0 ? p->moves_prefix : "");
            for (; plies < len; plies++) {
                int n = gen(g, st, mv);
                if (n == 0)
                    break;
                gts_move m = mv[rng_below(&rng, (uint32_t)n)];
                char buf[32];
                cr_assert_geq(g->format_move(st, m, buf, sizeof buf, g->user), 0);
                size_t used = strlen(text);
                snprintf(text + used, sizeof text - used, "%s%s", plies ? p->moves_separator : "",
                         buf);
                play(g, st, m);
            }
            gts_games_free(g, st);
            int side = -1, got = -1;
            gts_status rc = gts_games_position_turn(NAMES[i], NULL, text, &side, &got);
            if (rc == GTS_EPARSE) /* a finished Connect-4 game is no position of it */
                continue;
            cr_assert_eq(rc, GTS_OK, "%s '%s'", NAMES[i], text);
            cr_assert_eq(got, plies, "%s '%s': %d plies", NAMES[i], text, got);
            cr_assert_eq(side, plies & 1, "%s '%s': side %d", NAMES[i], text, side);
        }
        free(mv);
    }
}

/* gts_games_format_move(s): the game's texts, numbers without them, a line
 * played and taken back, a list written in one position. */
Test(games, format_moves)
{
    const gts_game *g = gts_game_connect4();
    void *st = NULL;
    cr_assert_eq(gts_connect4_new("44", &st), GTS_OK);
    uint64_t key = g->hash(st, NULL);
    char buf[64];
    gts_games_format_move(g, st, 3, buf, sizeof buf);
    cr_assert_str_eq(buf, "4");
    gts_games_format_move(g, st, GTS_MOVE_NONE, buf, sizeof buf);
    cr_assert_str_eq(buf, "none");
    const gts_move line[] = { 3, 2, 2, 4 };
    cr_assert_eq(gts_games_format_moves(g, st, line, 4, true, buf, sizeof buf), 4);
    cr_assert_str_eq(buf, "4 3 3 5");
    cr_assert_eq(g->hash(st, NULL), key, "the line is taken back");
    cr_assert_eq(gts_games_format_moves(g, st, line, 4, false, buf, sizeof buf), 4);
    cr_assert_str_eq(buf, "4 3 3 5");
    /* cut after the last move that fits whole */
    cr_assert_eq(gts_games_format_moves(g, st, line, 4, true, buf, 5), 2);
    cr_assert_str_eq(buf, "4 3");
    cr_assert_eq(g->hash(st, NULL), key);
    /* a move that cannot be played ends a line: column 4 holds 6 stones */
    const gts_move full[] = { 3, 3, 3, 3, 3, 2 };
    cr_assert_eq(gts_games_format_moves(g, st, full, 6, true, buf, sizeof buf), 5);
    cr_assert_str_eq(buf, "4 4 4 4 4");
    cr_assert_eq(g->hash(st, NULL), key);
    /* a game without format_move: the numbers */
    gts_game bare = *g;
    bare.format_move = NULL;
    cr_assert_eq(gts_games_format_moves(&bare, st, line, 4, true, buf, sizeof buf), 4);
    cr_assert_str_eq(buf, "3 2 2 4");
    cr_assert_eq(gts_games_format_moves(g, st, NULL, 0, true, buf, sizeof buf), 0);
    cr_assert_str_empty(buf);
    cr_assert_eq(gts_games_format_moves(NULL, st, line, 4, true, buf, sizeof buf), GTS_EINVAL);
    cr_assert_eq(gts_games_format_moves(g, st, line, 4, true, NULL, 8), GTS_EINVAL);
    cr_assert_eq(gts_games_format_moves(g, st, NULL, 4, true, buf, sizeof buf), GTS_EINVAL);
    gts_games_format_move(g, st, 3, NULL, 0); /* nothing written, no crash */
    gts_games_free(g, st);
}

Test(games, perft_arguments)
{
    void *st = NULL;
    uint64_t count = 99;
    cr_assert_eq(gts_tictactoe_new(NULL, &st), GTS_OK, "empty tic-tac-toe board");
    const gts_game *g = gts_game_tictactoe();
    cr_assert_eq(gts_games_perft(g, st, 0, &count), 0, "depth 0 is fine");
    cr_assert_eq(count, 1, "depth 0 counts the root, got %llu", (unsigned long long)count);
    cr_assert_eq(gts_games_perft(g, st, -1, &count), GTS_EINVAL, "negative depth");
    cr_assert_eq(gts_games_perft(NULL, st, 1, &count), GTS_EINVAL, "NULL game");
    cr_assert_eq(gts_games_perft(g, NULL, 1, &count), GTS_EINVAL, "NULL state");
    cr_assert_eq(gts_games_perft(g, st, 1, NULL), GTS_EINVAL, "NULL count");
    cr_assert_eq(perft(g, st, 1), 9, "9 first moves");
    cr_assert_eq(perft(g, st, 2), 72, "72 two-ply lines");
    cr_assert_eq(perft(g, st, 9), 255168, "255168 complete games of tic-tac-toe");
    gts_games_free(g, st);
}

/* A game that fails on purpose: a 3-ary tree of depth 3 whose generate
 * fails at one node, counting applies and undos. */
typedef struct fail_state {
    int depth, path, applied, fail_at;
} fail_state;

static int fail_generate(void *state, gts_move *m, uint32_t cap, void *user)
{
    fail_state *s = state;
    if (s->depth == 3)
        return 0;
    if (s->path == s->fail_at)
        return -42;
    for (int i = 0; i < 3; i++)
        m[i] = (gts_move)i;
    return 3;
}
static int fail_apply(void *state, gts_move m, void *user)
{
    fail_state *s = state;
    s->depth++;
    s->path = s->path * 3 + (int)m + 1;
    s->applied++;
    return 0;
}
static int fail_undo(void *state, gts_move m, void *user)
{
    fail_state *s = state;
    s->depth--;
    s->path = (s->path - (int)m - 1) / 3;
    s->applied--;
    return 0;
}
static gts_score fail_evaluate(void *state, void *user) { return 0; }

Test(games, perft_propagates_callback_errors)
{
    gts_game g = { .struct_size = sizeof g, .max_moves = 3, .generate = fail_generate,
                   .apply = fail_apply, .undo = fail_undo, .evaluate = fail_evaluate };
    fail_state s = { .fail_at = -1 };
    uint64_t count = 0;
    cr_assert_eq(gts_games_perft(&g, &s, 3, &count), 0, "the healthy tree works");
    cr_assert_eq(count, 27, "3^3 leaves, got %llu", (unsigned long long)count);
    s.fail_at = 2 * 3 + 1 + 1; /* second child of the first child */
    cr_assert_eq(gts_games_perft(&g, &s, 3, &count), -42, "generate's error is returned as is");
    cr_assert(s.applied == 0 && s.depth == 0 && s.path == 0, "every apply was undone");
}

/* ---- tic-tac-toe --------------------------------------------------------- */

static uint64_t count_nodes(const gts_game *g, void *st)
{
    gts_move mv[64];
    int n = gen(g, st, mv);
    uint64_t nodes = 1;
    for (int i = 0; i < n; i++) {
        play(g, st, mv[i]);
        nodes += count_nodes(g, st);
        unplay(g, st, mv[i]);
    }
    return nodes;
}

Test(games, tictactoe_full_tree)
{
    const gts_game *g = gts_game_tictactoe();
    void *st = NULL;
    check_vtable(g);
    cr_assert_eq(gts_tictactoe_new("", &st), GTS_OK, "empty board");
    uint64_t nodes = count_nodes(g, st);
    cr_assert_eq(nodes, 549946, "the tic-tac-toe tree has 549946 nodes, got %llu",
                 (unsigned long long)nodes);
    gts_score v = negamax(g, st, 9);
    cr_assert_eq(v, 0, "tic-tac-toe is a draw, got %d", v);
    gts_games_free(g, st);
}

Test(games, tictactoe_positions)
{
    const gts_game *g = gts_game_tictactoe();
    void *st;
    gts_move mv[9];
    static const refusal BAD[] = {
        { "0", "'0' is not a cell" },
        { "55", "cell played twice" },
        { "1a", "letters are rejected" },
        { "1425376", "no move after a win" },
    };
    expect_refused(gts_tictactoe_new, BAD, sizeof BAD / sizeof BAD[0]);

    /* X: 1 2 3 (top row) wins; O played 4 5 */
    cr_assert_eq(gts_tictactoe_new("14253", &st), GTS_OK, "finished position is accepted");
    cr_assert_eq(gen(g, st, mv), 0, "no moves after a win");
    cr_assert_eq(g->evaluate(st, NULL), GTS_SCORE_LOSS, "side to move (O) has lost");
    cr_assert(g->apply(st, 8, NULL) < 0, "apply after the end fails");
    gts_games_free(g, st);

    /* X to move can win at cell 3 ("3" in text) */
    cr_assert_eq(gts_tictactoe_new("1425", &st), GTS_OK, "open position");
    cr_assert_eq(negamax(g, st, 9), GTS_SCORE_WIN, "X wins at once");
    cr_assert(g->move_score(st, 2, NULL) > g->move_score(st, 8, NULL), "the winning move is ordered first");
    cr_assert(g->move_score(st, 5, NULL) > g->move_score(st, 8, NULL), "the block of 4-5-6 is second");
    gts_games_free(g, st);

    /* draw: full board */
    cr_assert_eq(gts_tictactoe_new("123546879", &st), GTS_OK, "full drawn board");
    cr_assert_eq(gen(g, st, mv), 0, "no moves on a full board");
    cr_assert_eq(g->evaluate(st, NULL), 0, "a full board without a line is 0");
    gts_games_free(g, st);

    expect_transposition(g, gts_tictactoe_new, "1593", "9513", "1539");

    cr_assert_eq(gts_tictactoe_new(NULL, &st), GTS_OK, "start");
    for (uint64_t seed = 1; seed <= 20; seed++)
        check_random_game(g, st, seed, false);
    gts_games_free(g, st);
}

/* ---- Connect-4: an independent naive implementation ---------------------- */

typedef struct naive_c4 {
    int cell[7][6]; /* [col][row], 0 empty, 1 first player, 2 second */
    int height[7];
    int stones;
    bool won;
} naive_c4;

static bool naive_c4_line(const naive_c4 *b, int col, int row)
{
    static const int dirs[4][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 1, -1 } };
    int who = b->cell[col][row];
    for (int d = 0; d < 4; d++) {
        int run = 1;
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            int c = col + sgn * dirs[d][0], r = row + sgn * dirs[d][1];
            while (c >= 0 && c < 7 && r >= 0 && r < 6 && b->cell[c][r] == who) {
                run++;
                c += sgn * dirs[d][0];
                r += sgn * dirs[d][1];
            }
        }
        if (run >= 4)
            return true;
    }
    return false;
}

static bool naive_c4_over(const naive_c4 *b) { return b->won || b->stones == 42; }

static void naive_c4_play(naive_c4 *b, int col)
{
    int row = b->height[col]++;
    b->cell[col][row] = 1 + (b->stones & 1);
    b->stones++;
    b->won = naive_c4_line(b, col, row);
}

static void naive_c4_unplay(naive_c4 *b, int col, bool was_won)
{
    int row = --b->height[col];
    b->cell[col][row] = 0;
    b->stones--;
    b->won = was_won;
}

static uint64_t naive_c4_perft(naive_c4 *b, int depth)
{
    if (depth == 0 || naive_c4_over(b))
        return 1;
    uint64_t n = 0;
    for (int c = 0; c < 7; c++) {
        if (b->height[c] == 6)
            continue;
        bool was = b->won;
        naive_c4_play(b, c);
        n += naive_c4_perft(b, depth - 1);
        naive_c4_unplay(b, c, was);
    }
    return n;
}

static void naive_c4_from(naive_c4 *b, const char *pos)
{
    memset(b, 0, sizeof *b);
    for (const char *p = pos; *p; p++)
        naive_c4_play(b, *p - '1');
}

Test(games, connect4_perft_empty_board)
{
    static const uint64_t expected[] = { 1, 7, 49, 343, 2401, 16807, 117649, 823536 };
    const gts_game *g = gts_game_connect4();
    check_vtable(g);
    void *st;
    naive_c4 b;
    cr_assert_eq(gts_connect4_new("", &st), GTS_OK, "empty board");
    naive_c4_from(&b, "");
    for (int d = 1; d <= 8; d++) {
        uint64_t got = perft(g, st, d), want = naive_c4_perft(&b, d);
        cr_assert_eq(got, want, "connect4 perft(%d): naive %llu, bitboard %llu", d,
                     (unsigned long long)want, (unsigned long long)got);
        if (d <= 7)
            cr_assert_eq(got, expected[d], "connect4 perft(%d) should be %llu, got %llu", d,
                         (unsigned long long)expected[d], (unsigned long long)got);
    }
    gts_games_free(g, st);
}

/* perft of @st at depths 1..@max_depth equals a naive board's (@naive on
 * @board), position @pos. */
static void expect_naive_perft(const gts_game *g, void *st, int max_depth,
                               uint64_t (*naive)(void *board, int depth), void *board,
                               const char *pos)
{
    for (int d = 1; d <= max_depth; d++) {
        uint64_t got = perft(g, st, d), want = naive(board, d);
        cr_assert_eq(got, want, "perft(%d) of %s: naive %llu, bitboard %llu", d, pos,
                     (unsigned long long)want, (unsigned long long)got);
    }
}

/* A game's naive board beside its adapter: the adapter's constructor, the
 * naive board of the same position text, its perft. */
typedef struct naive_game {
    gts_status (*make)(const char *text, void **state);
    void (*from)(void *board, const char *text);
    uint64_t (*perft)(void *board, int depth);
    size_t board_size;
} naive_game;

/* expect_naive_perft from each of the @n position texts. */
static void expect_naive_perfts(const gts_game *g, const naive_game *ng, const char *const *texts,
                                size_t n, int max_depth)
{
    void *board = malloc(ng->board_size);
    cr_assert_not_null(board);
    for (size_t i = 0; i < n; i++) {
        void *st;
        cr_assert_eq(ng->make(texts[i], &st), GTS_OK, "position %s parses", texts[i]);
        ng->from(board, texts[i]);
        expect_naive_perft(g, st, max_depth, ng->perft, board, texts[i]);
        gts_games_free(g, st);
    }
    free(board);
}

static uint64_t naive_c4_perft_of(void *b, int depth) { return naive_c4_perft(b, depth); }
static void naive_c4_from_of(void *b, const char *text) { naive_c4_from(b, text); }
static const naive_game NAIVE_C4 = { gts_connect4_new, naive_c4_from_of, naive_c4_perft_of,
                                     sizeof(naive_c4) };

Test(games, connect4_perft_midgame)
{
    static const char *positions[] = {
        "4453", "44444", "12345671234567", "3344553", "443322", "1234567123456",
        "2252576253462244111563365343671351441", "7422341735647741166133573473242566",
    };
    expect_naive_perfts(gts_game_connect4(), &NAIVE_C4, positions,
                        sizeof positions / sizeof *positions, 7);
}

/* Random games in lock-step with the naive board: same legal columns, same
 * end, and the benchmark score at the end. */
Test(games, connect4_lockstep_random_games)
{
    const gts_game *g = gts_game_connect4();
    uint64_t seed = 0xc4c4;
    for (int game = 0; game < 300; game++) {
        void *st;
        naive_c4 b;
        cr_assert_eq(gts_connect4_new(NULL, &st), GTS_OK, "empty board");
        naive_c4_from(&b, "");
        for (;;) {
            gts_move mv[7];
            int n = gen(g, st, mv);
            int legal = 0;
            for (int c = 0; c < 7; c++)
                legal += !naive_c4_over(&b) && b.height[c] < 6;
            cr_assert_eq(n, legal, "game %d ply %d: %d legal columns, generate gave %d", game,
                         b.stones, legal, n);
            for (int i = 0; i < n; i++)
                cr_assert(mv[i] < 7 && b.height[mv[i]] < 6, "generated column is legal");
            if (n == 0)
                break;
            cr_assert_eq(g->evaluate(st, NULL), 0, "unfinished positions evaluate to 0");
            gts_move m = mv[rng_below(&seed, (uint32_t)n)];
            play(g, st, m);
            naive_c4_play(&b, (int)m);
        }
        gts_score want = b.won ? -((44 - b.stones) / 2) : 0;
        cr_assert_eq(g->evaluate(st, NULL), want, "end of game %d (%d stones, won %d): want %d",
                     game, b.stones, b.won, want);
        if (game < 10)
            check_random_game(g, st, seed, false); /* terminal: undo checks only */
        gts_games_free(g, st);
    }
    void *st;
    cr_assert_eq(gts_connect4_new(NULL, &st), GTS_OK, "empty board");
    for (uint64_t s = 1; s <= 20; s++)
        check_random_game(g, st, s, false);
    gts_games_free(g, st);
}

Test(games, connect4_positions)
{
    const gts_game *g = gts_game_connect4();
    void *st;
    static const refusal BAD[] = {
        { "8", "column 8 does not exist" },
        { "0", "column 0 does not exist" },
        { "44a", "letters are rejected" },
        { "4 4", "spaces are rejected" },
        { "4444444", "a full column is rejected" },
        { "1212121", "a won game is rejected" },
        { "12121213", "moves after a win are rejected" },
    };
    expect_refused(gts_connect4_new, BAD, sizeof BAD / sizeof BAD[0]);

    cr_assert_eq(gts_connect4_new("444444", &st), GTS_OK, "a full column is fine");
    gts_move mv[7], m;
    cr_assert_eq(gen(g, st, mv), 6, "six columns left");
    cr_assert(g->apply(st, 3, NULL) < 0, "playing a full column fails");
    cr_assert_eq(g->parse_move(st, "4", &m, NULL), GTS_EPARSE, "\"4\" is not legal here");
    cr_assert_eq(g->parse_move(st, "5", &m, NULL), 0, "\"5\" is legal");
    cr_assert_eq(m, 4, "\"5\" is column index 4");
    cr_assert(g->undo(st, 0, NULL) < 0, "undo of an empty column fails");
    gts_games_free(g, st);

    expect_transposition(g, gts_connect4_new, "1234", "3214", "2143");
}

/* Collect every position up to 6 plies and check hashes are unique
 * (the key is exact, so there must be no collision at all). */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Exact key of a naive board: per column 3 bits of height, 6 of colours. */
static uint64_t naive_c4_key(const naive_c4 *b)
{
    uint64_t key = 0;
    for (int c = 0; c < 7; c++) {
        uint64_t colours = 0;
        for (int r = 0; r < b->height[c]; r++)
            colours |= (uint64_t)(b->cell[c][r] == 2) << r;
        key = (key << 9) | ((uint64_t)b->height[c] << 6) | colours;
    }
    return key;
}

static size_t count_distinct(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_u64);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++)
        distinct += (i == 0 || v[i] != v[i - 1]);
    return distinct;
}

static void collect_hashes(const gts_game *g, void *st, naive_c4 *b, int depth, uint64_t *hashes,
                           uint64_t *keys, uint64_t *pairs, size_t *n)
{
    hashes[*n] = g->hash(st, NULL);
    keys[*n] = naive_c4_key(b);
    pairs[*n] = hashes[*n] * 0x9e3779b97f4a7c15ull ^ keys[*n];
    (*n)++;
    if (depth == 0)
        return;
    gts_move mv[7];
    int k = gen(g, st, mv);
    for (int i = 0; i < k; i++) {
        bool was = b->won;
        play(g, st, mv[i]);
        naive_c4_play(b, (int)mv[i]);
        collect_hashes(g, st, b, depth - 1, hashes, keys, pairs, n);
        naive_c4_unplay(b, (int)mv[i], was);
        unplay(g, st, mv[i]);
    }
}

Test(games, connect4_hash_is_exact)
{
    /* Every node within 7 plies: hash and naive exact key must be in
     * one-to-one correspondence (same number of distinct hashes, keys and
     * (hash, key) pairs). */
    const gts_game *g = gts_game_connect4();
    void *st;
    naive_c4 b;
    size_t n = 0, cap = 1000000;
    uint64_t *h = malloc(cap * sizeof *h), *k = malloc(cap * sizeof *k), *pr = malloc(cap * sizeof *pr);
    cr_assert(h && k && pr, "allocation");
    cr_assert_eq(gts_connect4_new(NULL, &st), GTS_OK, "empty board");
    naive_c4_from(&b, "");
    collect_hashes(g, st, &b, 7, h, k, pr, &n);
    size_t dh = count_distinct(h, n), dk = count_distinct(k, n), dp = count_distinct(pr, n);
    cr_assert_eq(dh, dk, "distinct hashes (%zu) == distinct positions (%zu)", dh, dk);
    cr_assert_eq(dp, dk, "and they pair up one-to-one (%zu pairs)", dp);
    cr_assert(dk > 10000, "many distinct positions (%zu)", dk);
    free(h);
    free(k);
    free(pr);
    gts_games_free(g, st);
}

Test(games, connect4_known_scores)
{
    static const struct {
        const char *pos;
        int score;
        int depth; /* plies searched (42: to the end) */
    } known[] = {
        /* Pons' Test_L3_R1 (end-easy) positions with their published scores */
        { "2252576253462244111563365343671351441", -1, 42 },
        { "7422341735647741166133573473242566", 1, 42 },
        { "23163416124767223154467471272416755633", 0, 42 },
        { "71255763773133525731261364622167124446454", 0, 42 },
        { "65214673556155731566316327373221417", -1, 42 },
        { "3135151421347443544172316522225776773566", 0, 42 },
        { "562154564361751726662253737734213275114", 0, 42 },
        { "233377345754465174223731671122611552", 1, 42 },
        { "6763525635134453444361412671365712", -1, 42 },
        { "211376455663355325112113664364524722", 0, 42 },
        { "3146762114467714356347741621375222", -1, 42 },
        { "67152117737262713366376314254", 6, 42 },
        /* side to move (first player, 6 stones) wins at once: (43 - 6) / 2 */
        { "445566", 18, 1 },
        /* second player to move (5 stones) facing two threats, columns 2 and
         * 6: the first player wins with stone 7: -(43 - 6) / 2 */
        { "44335", -18, 2 },
        { "44556", -18, 2 },
    };
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        void *st;
        cr_assert_eq(gts_connect4_new(known[i].pos, &st), GTS_OK, "%s parses", known[i].pos);
        int d = known[i].depth;
        gts_score full = alphabeta(gts_game_connect4(), st, d, -GTS_SCORE_INF, GTS_SCORE_INF);
        gts_score solver = alphabeta(gts_game_connect4_solver(), st, d, -GTS_SCORE_INF, GTS_SCORE_INF);
        cr_assert_eq(full, known[i].score, "%s: expected %d, full game gives %d", known[i].pos,
                     known[i].score, full);
        cr_assert_eq(solver, known[i].score, "%s: expected %d, solver game gives %d", known[i].pos,
                     known[i].score, solver);
        gts_games_free(gts_game_connect4(), st);
    }
}

/* The solver's pruning must not change the value: exact solve of random
 * positions with 8..14 empty cells, and depth-limited values at depth 1..4.
 * The reference is plain negamax over the full game (no pruning at all) up
 * to 12 empties; at 13..14 it would take minutes, so there it is full-window
 * alpha-beta over the full game, which returns the same exact value. */
Test(games, connect4_solver_matches_plain_negamax, .timeout = 300)
{
    const gts_game *full = gts_game_connect4(), *solver = gts_game_connect4_solver();
    check_vtable(solver);
    uint64_t seed = 20240611;
    int tested = 0, nonzero = 0;
    while (tested < 300) {
        int empties = 8 + (int)rng_below(&seed, 7);
        void *st;
        cr_assert_eq(gts_connect4_new(NULL, &st), GTS_OK, "empty board");
        bool finished = false;
        for (int stones = 0; stones < 42 - empties && !finished; stones++) {
            gts_move mv[7];
            int n = gen(full, st, mv);
            if (n == 0)
                finished = true;
            else
                play(full, st, mv[rng_below(&seed, (uint32_t)n)]);
        }
        gts_move mv[7];
        if (finished || gen(full, st, mv) == 0) {
            gts_games_free(full, st);
            continue;
        }
        gts_score a = empties <= 12 ? negamax(full, st, 42)
                                    : alphabeta(full, st, 42, -GTS_SCORE_INF, GTS_SCORE_INF);
        gts_score b = negamax(solver, st, 42);
        cr_assert_eq(a, b, "position %d (%d empties): full game %d, solver %d", tested, empties, a, b);
        for (int d = 1; d <= 4; d++) {
            gts_score x = negamax(full, st, d), y = negamax(solver, st, d);
            cr_assert_eq(x, y, "position %d depth %d: full game %d, solver %d", tested, d, x, y);
        }
        nonzero += a != 0;
        tested++;
        gts_games_free(full, st);
    }
    cr_assert(nonzero > 30, "the sample should contain decided positions (%d of 300)", nonzero);
}

Test(games, connect4_move_score)
{
    const gts_game *g = gts_game_connect4();
    void *st;
    /* first player (to move) wins in column 7 (index 6) or 3 (index 2);
     * column 1 is neutral */
    cr_assert_eq(gts_connect4_new("445566", &st), GTS_OK, "position");
    cr_assert(g->move_score(st, 6, NULL) > g->move_score(st, 0, NULL), "the win is ordered first");
    gts_games_free(g, st);
    /* second player to move must block at column 3 or 7 */
    cr_assert_eq(gts_connect4_new("44556", &st), GTS_OK, "position");
    cr_assert(g->move_score(st, 6, NULL) > g->move_score(st, 0, NULL), "the block beats a quiet move");
    gts_move mv[7];
    cr_assert_eq(gts_game_connect4_solver()->generate(st, mv, 7, NULL), 1,
                 "the solver keeps only a block when the opponent has two threats");
    gts_games_free(g, st);
    /* the solver returns the single winning move */
    cr_assert_eq(gts_connect4_new("445566", &st), GTS_OK, "position");
    cr_assert_eq(gts_game_connect4_solver()->generate(st, mv, 7, NULL), 1, "only the win");
    cr_assert(mv[0] == 2 || mv[0] == 6, "the win is column 3 or 7, got %llu", (unsigned long long)mv[0]);
    gts_games_free(g, st);
}

/* ---- Othello: an independent naive implementation ------------------------ */

typedef struct naive_oth {
    int sq[64]; /* 0 empty, 1 black, 2 white; index row * 8 + col */
    int side;   /* 1 or 2 */
} naive_oth;

static int naive_oth_flips(const naive_oth *b, int who, int s, int *out)
{
    static const int dr[8] = { -1, -1, -1, 0, 0, 1, 1, 1 }, dc[8] = { -1, 0, 1, -1, 1, -1, 0, 1 };
    if (b->sq[s])
        return 0;
    int total = 0, r0 = s / 8, c0 = s % 8;
    for (int d = 0; d < 8; d++) {
        int r = r0 + dr[d], c = c0 + dc[d], run = 0, buf[8];
        while (r >= 0 && r < 8 && c >= 0 && c < 8 && b->sq[r * 8 + c] == 3 - who) {
            buf[run++] = r * 8 + c;
            r += dr[d];
            c += dc[d];
        }
        if (run > 0 && r >= 0 && r < 8 && c >= 0 && c < 8 && b->sq[r * 8 + c] == who) {
            for (int k = 0; k < run; k++) {
                if (out)
                    out[total] = buf[k];
                total++;
            }
        }
    }
    return total;
}

/* Moves in ascending square order, GTS_OTHELLO_PASS, or none at the end. */
static int naive_oth_moves(const naive_oth *b, int *moves)
{
    int n = 0;
    for (int s = 0; s < 64; s++)
        if (naive_oth_flips(b, b->side, s, NULL))
            moves[n++] = s;
    if (n)
        return n;
    for (int s = 0; s < 64; s++)
        if (naive_oth_flips(b, 3 - b->side, s, NULL)) {
            moves[0] = (int)GTS_OTHELLO_PASS;
            return 1;
        }
    return 0;
}

static void naive_oth_play(naive_oth *b, int m)
{
    if (m != (int)GTS_OTHELLO_PASS) {
        int flips[64];
        int n = naive_oth_flips(b, b->side, m, flips);
        for (int k = 0; k < n; k++)
            b->sq[flips[k]] = b->side;
        b->sq[m] = b->side;
    }
    b->side = 3 - b->side;
}

static uint64_t naive_oth_perft(const naive_oth *b, int depth)
{
    if (depth == 0)
        return 1;
    int moves[64];
    int n = naive_oth_moves(b, moves);
    if (n == 0)
        return 1;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        naive_oth copy = *b;
        naive_oth_play(&copy, moves[i]);
        total += naive_oth_perft(&copy, depth - 1);
    }
    return total;
}


static void naive_oth_start(naive_oth *b)
{
    memset(b, 0, sizeof *b);
    b->sq[3 * 8 + 3] = 2; /* d4 white */
    b->sq[4 * 8 + 4] = 2; /* e5 white */
    b->sq[4 * 8 + 3] = 1; /* d5 black */
    b->sq[3 * 8 + 4] = 1; /* e4 black */
    b->side = 1;
}

static void naive_oth_from(naive_oth *b, const char *text)
{
    naive_oth_start(b);
    for (const char *p = text; *p; p += 2) {
        int moves[64];
        int n = naive_oth_moves(b, moves);
        if ((p[0] | 32) == 'p') {
            naive_oth_play(b, (int)GTS_OTHELLO_PASS);
            continue;
        }
        if (n == 1 && moves[0] == (int)GTS_OTHELLO_PASS)
            naive_oth_play(b, (int)GTS_OTHELLO_PASS);
        naive_oth_play(b, ((p[1] - '1') * 8) + ((p[0] | 32) - 'a'));
    }
}

static uint64_t naive_oth_perft_of(void *b, int depth) { return naive_oth_perft(b, depth); }
static void naive_oth_from_of(void *b, const char *text) { naive_oth_from(b, text); }
static const naive_game NAIVE_OTH = { gts_othello_new, naive_oth_from_of, naive_oth_perft_of,
                                      sizeof(naive_oth) };

Test(games, othello_perft_start)
{
    static const uint64_t expected[] = { 1, 4, 12, 56, 244, 1396, 8200, 55092, 390216 };
    const gts_game *g = gts_game_othello();
    check_vtable(g);
    void *st;
    cr_assert_eq(gts_othello_new(NULL, &st), GTS_OK, "start position");
    for (int d = 1; d <= 8; d++) {
        uint64_t got = perft(g, st, d);
        cr_assert_eq(got, expected[d], "othello perft(%d) should be %llu, got %llu", d,
                     (unsigned long long)expected[d], (unsigned long long)got);
    }
    naive_oth b;
    naive_oth_start(&b);
    for (int d = 1; d <= 6; d++) {
        uint64_t want = naive_oth_perft(&b, d);
        cr_assert_eq(want, expected[d], "naive othello perft(%d) should be %llu, got %llu", d,
                     (unsigned long long)expected[d], (unsigned long long)want);
    }
    gts_games_free(g, st);
}

/* Play random games to the end with both implementations in lock-step. */
Test(games, othello_lockstep_random_games)
{
    const gts_game *g = gts_game_othello();
    uint64_t seed = 0x07e110;
    int passes = 0;
    bool capture_next = false;
    char pass_game[300] = "";
    for (int game = 0; game < 200; game++) {
        void *st;
        naive_oth b;
        char text[300] = "";
        size_t tl = 0;
        cr_assert_eq(gts_othello_new("", &st), GTS_OK, "start position");
        naive_oth_start(&b);
        for (int ply = 0;; ply++) {
            gts_move mv[64];
            int want[64];
            int n = gen(g, st, mv), wn = naive_oth_moves(&b, want);
            cr_assert_eq(n, wn, "game %d ply %d: naive has %d moves, bitboard %d", game, ply, wn, n);
            for (int i = 0; i < n; i++)
                cr_assert_eq(mv[i], (gts_move)want[i], "game %d ply %d move %d differs", game, ply, i);
            if (n == 0)
                break;
            gts_move m = mv[rng_below(&seed, (uint32_t)n)];
            char buf[4];
            cr_assert_eq(g->format_move(st, m, buf, sizeof buf, NULL), 2, "moves are 2 characters");
            memcpy(text + tl, buf, 2);
            tl += 2;
            text[tl] = '\0';
            passes += m == GTS_OTHELLO_PASS;
            if (capture_next) {
                strcpy(pass_game, text); /* the first pass and the move after it */
                capture_next = false;
            }
            if (m == GTS_OTHELLO_PASS && !pass_game[0])
                capture_next = true;
            play(g, st, m);
            naive_oth_play(&b, (int)m);
        }
        int black = 0, white = 0;
        for (int s = 0; s < 64; s++) {
            black += b.sq[s] == 1;
            white += b.sq[s] == 2;
        }
        int diff = b.side == 1 ? black - white : white - black;
        gts_score want = diff > 0 ? GTS_SCORE_WIN : diff < 0 ? GTS_SCORE_LOSS : 0;
        cr_assert_eq(g->evaluate(st, NULL), want, "game %d ended %d-%d: want %d", game, black, white, want);
        cr_assert(g->apply(st, GTS_OTHELLO_PASS, NULL) < 0, "no pass after the end of the game");
        gts_move pm;
        cr_assert_eq(g->parse_move(st, "ps", &pm, NULL), GTS_EPARSE, "\"ps\" is illegal at the end");

        void *again;
        cr_assert_eq(gts_othello_new(text, &again), GTS_OK, "the game text parses back");
        cr_assert_eq(g->hash(again, NULL), g->hash(st, NULL), "and gives the same position");
        gts_games_free(g, again);
        if (game < 5)
            check_random_game(g, st, seed, true);
        gts_games_free(g, st);
    }
    cr_assert(passes > 0, "random games should contain passes");

    /* the same game with the pass left out (implied) reaches the same node */
    void *with, *without, *before;
    char implied[300];
    size_t len = strlen(pass_game);
    cr_assert(len >= 4, "a pass and the move after it were captured");
    memcpy(implied, pass_game, len - 4);
    memcpy(implied + len - 4, pass_game + len - 2, 3);
    cr_assert_eq(gts_othello_new(pass_game, &with), GTS_OK, "%s parses", pass_game);
    cr_assert_eq(gts_othello_new(implied, &without), GTS_OK, "%s parses", implied);
    cr_assert_eq(g->hash(with, NULL), g->hash(without, NULL), "an implied pass is played");
    implied[len - 4] = '\0';
    cr_assert_eq(gts_othello_new(implied, &before), GTS_OK, "%s parses", implied);
    gts_move pm, mv[64];
    cr_assert_eq(gen(g, before, mv), 1, "only one move before the pass");
    cr_assert_eq(mv[0], GTS_OTHELLO_PASS, "and it is the pass");
    cr_assert_eq(g->parse_move(before, "PS", &pm, NULL), 0, "\"PS\" is legal there");
    cr_assert_eq(pm, GTS_OTHELLO_PASS, "\"PS\" parses as a pass");
    gts_score e = g->evaluate(before, NULL);
    cr_assert(e > -3000 && e < 3000, "a position with a pass is not decided, got %d", e);
    gts_games_free(g, before);
    gts_games_free(g, with);
    gts_games_free(g, without);

    /* naive perft from a few positions along random games */
    static const char *positions[] = { "f5d6c3d3c4", "f5f6e6f4e3", "c4c3d3c5b3f4b5b4c6d6" };
    expect_naive_perfts(g, &NAIVE_OTH, positions, sizeof positions / sizeof *positions, 5);
}

Test(games, othello_positions)
{
    const gts_game *g = gts_game_othello();
    void *st, *other;
    static const refusal BAD[] = {
        { "f5f5", "occupied square" },
        { "a1", "a1 flips nothing" },
        { "ps", "a pass is illegal at the start" },
        { "f", "half a move" },
        { "i5", "file i does not exist" },
        { "f9", "rank 9 does not exist" },
    };
    expect_refused(gts_othello_new, BAD, sizeof BAD / sizeof BAD[0]);

    cr_assert_eq(gts_othello_new("f5d6c3", &st), GTS_OK, "lower case");
    cr_assert_eq(gts_othello_new("F5D6C3", &other), GTS_OK, "upper case");
    cr_assert_eq(g->hash(st, NULL), g->hash(other, NULL), "case does not matter");
    gts_games_free(g, other);
    cr_assert_eq(gts_othello_new("f5d6", &other), GTS_OK, "shorter line");
    cr_assert_neq(g->hash(st, NULL), g->hash(other, NULL), "different positions hash differently");
    gts_games_free(g, other);
    gts_games_free(g, st);

    cr_assert_eq(gts_othello_new("", &st), GTS_OK, "start");
    gts_move mv[64], m;
    cr_assert_eq(gen(g, st, mv), 4, "four first moves");
    /* d3 = 19, c4 = 26, f5 = 37, e6 = 44 */
    cr_assert(mv[0] == 19 && mv[1] == 26 && mv[2] == 37 && mv[3] == 44, "d3 c4 f5 e6");
    char buf[8];
    cr_assert_eq(g->format_move(st, 37, buf, sizeof buf, NULL), 2, "format f5");
    cr_assert_str_eq(buf, "f5", "square 37 is f5");
    cr_assert_eq(g->format_move(st, GTS_OTHELLO_PASS, buf, sizeof buf, NULL), 2, "format pass");
    cr_assert_str_eq(buf, "ps", "a pass is \"ps\"");
    cr_assert_eq(g->parse_move(st, "F5", &m, NULL), 0, "parse F5");
    cr_assert_eq(m, 37, "F5 is square 37");
    cr_assert_eq(g->parse_move(st, "a1", &m, NULL), GTS_EPARSE, "a1 is not legal");
    cr_assert_eq(g->parse_move(st, "ps", &m, NULL), GTS_EPARSE, "no pass at the start");
    cr_assert(g->apply(st, GTS_OTHELLO_PASS, NULL) < 0, "apply(pass) fails at the start");
    cr_assert(g->apply(st, 0, NULL) < 0, "apply(a1) fails at the start");
    gts_score e = g->evaluate(st, NULL);
    cr_assert(e > -3000 && e < 3000, "heuristic is small, got %d", e);
    cr_assert_eq(e, 0, "the symmetric start evaluates to 0, got %d", e);
    for (uint64_t s = 1; s <= 5; s++)
        check_random_game(g, st, s, true);
    gts_games_free(g, st);
}

/* ---- random trees -------------------------------------------------------- */

static gts_randtree_params rt_params(uint64_t seed, uint32_t branching, uint32_t depth)
{
    gts_randtree_params p = {
        .struct_size = sizeof p, .seed = seed, .branching = branching, .depth = depth,
        .min_value = -1000, .max_value = 1000,
    };
    return p;
}

static void *rt_new(const gts_randtree_params *p)
{
    void *st = NULL;
    gts_status rc = gts_randtree_new(p, &st);
    cr_assert_eq(rc, GTS_OK, "gts_randtree_new should succeed, got %d", rc);
    return st;
}

Test(games, randtree_rejects_bad_params)
{
    gts_randtree_params good = rt_params(1, 4, 6), p;
    void *st = (void *)1;
    cr_assert_eq(gts_randtree_new(NULL, &st), GTS_EINVAL, "NULL params");
    cr_assert_null(st, "state is NULL on error");
    cr_assert_eq(gts_randtree_new(&good, NULL), GTS_EINVAL, "NULL out pointer");
#define BAD(field, value, why)                                                  \
    do {                                                                        \
        p = good;                                                               \
        p.field = value;                                                        \
        st = (void *)1;                                                         \
        cr_assert_eq(gts_randtree_new(&p, &st), GTS_EINVAL, why);               \
        cr_assert_null(st, "state is NULL on error (" why ")");                 \
    } while (0)
    BAD(struct_size, 0, "struct_size 0");
    BAD(struct_size, sizeof p - 1, "struct_size too small");
    BAD(struct_size, (size_t)1 << 40, "absurd struct_size");
    BAD(branching, 0, "branching 0");
    BAD(branching, 65, "branching 65");
    BAD(depth, 0, "depth 0");
    BAD(depth, 61, "depth 61");
    BAD(min_value, 1001, "min > max");
    BAD(min_value, -30001, "min below -30000");
    BAD(max_value, 30001, "max above 30000");
    BAD(terminal_percent, 101, "terminal_percent 101");
    BAD(ordered_percent, 101, "ordered_percent 101");
#undef BAD
    p = good;
    p.branching_jitter = UINT32_MAX;
    st = rt_new(&p); /* any jitter is fine: children are clamped to >= 1 */
    gts_games_free(gts_game_randtree(), st);
    p = good;
    p.branching = 64;
    p.depth = 1;
    st = rt_new(&p);
    cr_assert_eq(perft(gts_game_randtree(), st, 1), 64, "64 children at branching 64");
    gts_games_free(gts_game_randtree(), st);
}

Test(games, randtree_is_deterministic)
{
    const gts_game *g = gts_game_randtree();
    check_vtable(g);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        gts_randtree_params p = rt_params(seed, 5, 6);
        p.branching_jitter = 2;
        p.terminal_percent = 10;
        p.ordered_percent = seed * 20 - 20;
        p.transpositions = seed & 1;
        void *a = rt_new(&p), *b = rt_new(&p);
        cr_assert_eq(perft(g, a, 6), perft(g, b, 6), "same params, same perft (seed %llu)",
                     (unsigned long long)seed);
        cr_assert_eq(negamax(g, a, 6), negamax(g, b, 6), "same params, same value");
        cr_assert_eq(g->hash(a, NULL), g->hash(b, NULL), "same root hash");
        check_random_game(g, a, seed, true);
        gts_games_free(g, a);
        gts_games_free(g, b);
    }
    gts_randtree_params p1 = rt_params(1, 4, 6), p2 = rt_params(2, 4, 6);
    void *a = rt_new(&p1), *b = rt_new(&p2);
    cr_assert_neq(g->hash(a, NULL), g->hash(b, NULL), "different seeds, different trees");
    gts_games_free(g, a);
    gts_games_free(g, b);
}

typedef struct rt_walk {
    int64_t leaves, leaf_at_full_depth, interior_leaves, out_of_range;
    uint32_t min_children, max_children;
} rt_walk;

static void rt_walk_tree(const gts_game *g, void *st, int level, int depth,
                         const gts_randtree_params *p, rt_walk *w)
{
    gts_move mv[64];
    int n = gen(g, st, mv);
    if (n == 0) {
        gts_score v = g->evaluate(st, NULL);
        w->leaves++;
        w->out_of_range += v < p->min_value || v > p->max_value;
        if (level == depth)
            w->leaf_at_full_depth++;
        else
            w->interior_leaves++;
        return;
    }
    cr_assert(level < depth, "no moves below the depth");
    if ((uint32_t)n < w->min_children)
        w->min_children = (uint32_t)n;
    if ((uint32_t)n > w->max_children)
        w->max_children = (uint32_t)n;
    for (int i = 0; i < n; i++) {
        play(g, st, mv[i]);
        rt_walk_tree(g, st, level + 1, depth, p, w);
        unplay(g, st, mv[i]);
    }
}

Test(games, randtree_shape)
{
    const gts_game *g = gts_game_randtree();
    gts_randtree_params p = rt_params(7, 6, 5);
    p.branching_jitter = 3;
    p.terminal_percent = 20;
    p.min_value = -50;
    p.max_value = 80;
    void *st = rt_new(&p);
    rt_walk w = { .min_children = 1000 };
    rt_walk_tree(g, st, 0, 5, &p, &w);
    cr_assert_eq(w.out_of_range, 0, "leaf values stay in [min, max]");
    cr_assert(w.interior_leaves > 0, "terminal_percent makes early leaves");
    cr_assert(w.leaf_at_full_depth > 0, "and some leaves reach the depth");
    cr_assert(w.min_children >= 3 && w.max_children <= 6, "jitter keeps 3..6 children, got %u..%u",
              w.min_children, w.max_children);
    cr_assert(w.min_children < w.max_children, "jitter varies the branching");
    gts_games_free(g, st);
}

/* Values below equal hashes must agree: collect (hash, negamax value) at
 * one level and count distinct hashes. */
typedef struct rt_seen {
    uint64_t hash;
    gts_score value, eval;
} rt_seen;

static void rt_collect(const gts_game *g, void *st, int level, int target, int depth,
                       rt_seen *out, size_t *n)
{
    if (level == target) {
        out[*n].hash = g->hash(st, NULL);
        out[*n].value = negamax(g, st, depth - level);
        out[*n].eval = g->evaluate(st, NULL);
        (*n)++;
        return;
    }
    gts_move mv[64];
    int k = gen(g, st, mv);
    for (int i = 0; i < k; i++) {
        play(g, st, mv[i]);
        rt_collect(g, st, level + 1, target, depth, out, n);
        unplay(g, st, mv[i]);
    }
}

static int cmp_seen(const void *a, const void *b)
{
    uint64_t x = ((const rt_seen *)a)->hash, y = ((const rt_seen *)b)->hash;
    return x < y ? -1 : x > y;
}

static size_t rt_distinct(bool transpositions, uint32_t ordered)
{
    const gts_game *g = gts_game_randtree();
    gts_randtree_params p = rt_params(42, 4, 7);
    p.transpositions = transpositions;
    p.ordered_percent = ordered;
    void *st = rt_new(&p);
    size_t n = 0;
    rt_seen *seen = malloc(256 * sizeof *seen);
    cr_assert_not_null(seen);
    rt_collect(g, st, 0, 4, 7, seen, &n);
    cr_assert_eq(n, 256, "4^4 nodes at level 4");
    qsort(seen, n, sizeof *seen, cmp_seen);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && seen[i].hash == seen[i - 1].hash) {
            cr_assert_eq(seen[i].value, seen[i - 1].value, "equal hashes, equal subtree values");
            cr_assert_eq(seen[i].eval, seen[i - 1].eval, "equal hashes, equal evaluations");
        } else {
            distinct++;
        }
    }
    free(seen);
    gts_games_free(g, st);
    return distinct;
}

Test(games, randtree_transpositions)
{
    size_t plain = rt_distinct(false, 0);
    cr_assert_eq(plain, 256, "without transpositions every node is distinct, got %zu", plain);
    size_t shared = rt_distinct(true, 0);
    cr_assert(shared < 128, "with transpositions most level-4 nodes are shared (%zu of 256 distinct)",
              shared);
    size_t shared_ordered = rt_distinct(true, 90);
    cr_assert(shared_ordered < 128, "ordered trees transpose too (%zu of 256 distinct)", shared_ordered);
}

/* Fraction of interior nodes (>= 2 children) whose first move is a best move. */
static void rt_first_best(const gts_game *g, void *st, int depth, int64_t *interior, int64_t *first)
{
    gts_move mv[64];
    int n = depth > 0 ? gen(g, st, mv) : 0;
    if (n < 2) {
        for (int i = 0; i < n; i++) {
            play(g, st, mv[i]);
            rt_first_best(g, st, depth - 1, interior, first);
            unplay(g, st, mv[i]);
        }
        return;
    }
    gts_score best = -GTS_SCORE_INF, v0 = 0;
    for (int i = 0; i < n; i++) {
        play(g, st, mv[i]);
        gts_score v = -negamax(g, st, depth - 1);
        if (depth > 1)
            rt_first_best(g, st, depth - 1, interior, first);
        unplay(g, st, mv[i]);
        if (i == 0)
            v0 = v;
        if (v > best)
            best = v;
    }
    (*interior)++;
    *first += v0 == best;
}

static double rt_first_best_rate(uint32_t ordered, bool transpositions)
{
    const gts_game *g = gts_game_randtree();
    int64_t interior = 0, first = 0;
    for (uint64_t seed = 100; seed < 104; seed++) {
        gts_randtree_params p = rt_params(seed, 4, 6);
        p.ordered_percent = ordered;
        p.transpositions = transpositions;
        void *st = rt_new(&p);
        rt_first_best(g, st, 6, &interior, &first);
        gts_games_free(g, st);
    }
    return (double)first / (double)interior;
}

Test(games, randtree_ordered)
{
    double ordered = rt_first_best_rate(90, false);
    double random = rt_first_best_rate(0, false);
    double ordered_tt = rt_first_best_rate(90, true);
    cr_assert(ordered > 0.70, "ordered_percent 90: first move best at > 70%% of nodes, got %.1f%%",
              100 * ordered);
    cr_assert(random < ordered - 0.2, "unordered trees are much less ordered (%.1f%% vs %.1f%%)",
              100 * random, 100 * ordered);
    cr_assert(ordered_tt > 0.70, "ordered trees with transpositions too, got %.1f%%", 100 * ordered_tt);
}

Test(games, randtree_evaluate_is_a_heuristic)
{
    /* The static value of a child correlates with its searched value: the
     * child with the best evaluate() is a best move more often than chance. */
    const gts_game *g = gts_game_randtree();
    int64_t nodes = 0, hits = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        gts_randtree_params p = rt_params(seed, 4, 6);
        void *st = rt_new(&p);
        gts_move mv[64];
        int n = gen(g, st, mv);
        gts_score best = -GTS_SCORE_INF, best_static = -GTS_SCORE_INF, v_of_static = 0;
        for (int i = 0; i < n; i++) {
            play(g, st, mv[i]);
            gts_score v = -negamax(g, st, 5), e = -g->evaluate(st, NULL);
            unplay(g, st, mv[i]);
            if (v > best)
                best = v;
            if (e > best_static) {
                best_static = e;
                v_of_static = v;
            }
        }
        nodes++;
        hits += v_of_static == best;
        gts_games_free(g, st);
    }
    cr_assert(hits * 2 > nodes, "static order finds a best root move more than half the time (%lld of %lld)",
              (long long)hits, (long long)nodes);
}
