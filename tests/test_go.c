/* The Go adapter (examples/games/go.c): position text, captures, suicide,
 * ko and positional superko, Tromp-Taylor scoring against hand counts, the
 * move cap, vertex text, the playout policy and its opt-in 3x3 pattern
 * table (patterns=1; go_internal.h, through a static copy of
 * libgts-games), gts_game_check(), and random
 * games replayed move by move against a naive reference implementation
 * written here (flood fills and whole-board comparisons, no incremental
 * structure). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "go_internal.h"

static const gts_game *G(void) { return gts_game_go(); }

static void *go_new(const char *text)
{
    void *s = NULL;
    gts_status rc = gts_go_new(text, &s);
    cr_assert_eq(rc, GTS_OK, "gts_go_new(\"%s\"): %s", text, gts_status_name(rc));
    return s;
}

static gts_move mv(void *s, const char *text)
{
    gts_move m = 0;
    int rc = G()->parse_move(s, text, &m, NULL);
    cr_assert_eq(rc, 0, "parse_move(%s) is legal", text);
    return m;
}

static void play(void *s, const char *text)
{
    cr_assert_eq(G()->apply(s, mv(s, text), NULL), 0, "apply(%s)", text);
}

static bool legal(void *s, const char *text)
{
    gts_move m;
    return G()->parse_move(s, text, &m, NULL) == 0;
}

static void board_is(void *s, const char *expect)
{
    char buf[512];
    cr_assert_eq(gts_go_board(s, buf, sizeof buf), GTS_OK);
    cr_assert_str_eq(buf, expect);
}

Test(go, position_text)
{
    static const char *bad[] = {
        "1", "20", "9 9", "x", "9 komi=7.25", "9 komi=", "9 komi=abc", "9 komi=200",
        "9 moves=Z1", "9 moves=I1", "9 moves=A0", "9 moves=A10", "9 moves=E5,E5",
        "9 moves=E5,", "9 moves=,E5", "9 foo=1", "9 maxmoves=0", "5 moves=A6", "9 komi=1e400",
        "9 patterns=2", "9 patterns=", "9 patterns=01", "9 patterns=on", "9 patterns=-1",
        "9 Patterns=1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        void *s = (void *)1;
        cr_expect_eq(gts_go_new(bad[i], &s), GTS_EPARSE, "\"%s\" is refused", bad[i]);
        cr_expect_null(s, "\"%s\": no state", bad[i]);
    }
    cr_expect_eq(gts_go_new("9", NULL), GTS_EINVAL);
    void *s = go_new(NULL);
    cr_expect_eq(gts_go_to_move(s), 0);
    cr_expect_eq(gts_go_area(s), -15, "empty 9x9, komi 7.5: -7.5 in half points");
    cr_expect_eq(gts_go_komi(s), 15, "default komi 7.5 in half points");
    cr_expect_eq(gts_go_komi(NULL), 0);
    gts_games_free(G(), s);
    s = go_new("  komi=-3   moves=e5,D4,pass  19 ");
    cr_expect_eq(gts_go_to_move(s), 1);
    cr_expect_eq(gts_go_komi(s), -6, "komi=-3 in half points");
    gts_move m[400];
    cr_expect_eq(G()->generate(s, m, G()->max_moves, NULL), 19 * 19 - 2 + 1);
    gts_games_free(G(), s);
    /* patterns=0|1 (the playout policy, see patterns_are_off_by_default);
     * the last one counts, like komi= and maxmoves= */
    static const char *good[] = { "9 patterns=1", "patterns=0 5", "patterns=1 patterns=0",
                                  "7 patterns=1 komi=0 moves=D4" };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        gts_games_free(G(), go_new(good[i]));
}

Test(go, vertex_text)
{
    void *s = go_new("19");
    char buf[16];
    gts_move m;
    for (gts_move i = 0; i < 361; i++) {
        cr_assert_gt(G()->format_move(s, i, buf, sizeof buf, NULL), 0);
        cr_assert_eq(G()->parse_move(s, buf, &m, NULL), 0, "%s", buf);
        cr_assert_eq(m, i, "%s round-trips", buf);
    }
    G()->format_move(s, 0, buf, sizeof buf, NULL);
    cr_expect_str_eq(buf, "A1");
    G()->format_move(s, 360, buf, sizeof buf, NULL);
    cr_expect_str_eq(buf, "T19");
    G()->format_move(s, 8, buf, sizeof buf, NULL);
    cr_expect_str_eq(buf, "J1", "I is skipped");
    cr_expect_eq(G()->format_move(s, GTS_GO_PASS, buf, sizeof buf, NULL), 4);
    cr_expect_str_eq(buf, "pass");
    cr_expect_eq(G()->parse_move(s, "PASS", &m, NULL), 0);
    cr_expect_eq(m, GTS_GO_PASS);
    cr_expect_eq(G()->parse_move(s, "t19", &m, NULL), 0);
    cr_expect_eq(m, 360u);
    static const char *bad[] = { "", "I5", "U1", "A20", "A0", "A", "pas", "A1x", "11", "A-1" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect_lt(G()->parse_move(s, bad[i], &m, NULL), 0, "\"%s\" is refused", bad[i]);
    cr_expect_lt(G()->format_move(s, 361 + 1, buf, sizeof buf, NULL), 0);
    cr_expect_lt(G()->format_move(s, 0, buf, 2, NULL), 0, "no room");
    gts_games_free(G(), s);
}

Test(go, captures_and_suicide)
{
    /* 5x5: white C3 surrounded by B3 C4 D3 C2. */
    void *s = go_new("5 moves=B3,C3,C4,pass,D3");
    cr_expect(!legal(s, "B3"), "occupied");
    play(s, "pass");
    board_is(s, ".....\n..X..\n.XOX.\n.....\n.....\n");
    play(s, "C2");
    board_is(s, ".....\n..X..\n.X.X.\n..X..\n.....\n");
    cr_expect(!legal(s, "C3"), "white C3 is suicide");
    /* A corner: a white stone at A1 with black A2 and B1 is captured. */
    gts_games_free(G(), s);
    s = go_new("5 moves=A2,A1");
    cr_expect(legal(s, "B1"));
    play(s, "B1");
    board_is(s, ".....\n.....\n.....\nX....\n.X...\n");
    cr_expect(!legal(s, "A1"), "white A1 would be suicide");
    /* Playing into no liberties is legal when it captures: black A1 takes
     * the white string A2-B2? Build it: white A2 B1, black A3 B2 C1. */
    gts_games_free(G(), s);
    s = go_new("5 moves=A3,A2,B2,B1,C1");
    cr_expect(legal(s, "A1") == false, "white A1: suicide of the whole string");
    play(s, "pass");
    cr_expect(legal(s, "A1"), "black A1 captures A2 and B1");
    play(s, "A1");
    board_is(s, ".....\n.....\nX....\n.X...\nX.X..\n");
    /* White may not play back in (suicide); black may fill the points the
     * capture emptied. */
    cr_expect(!legal(s, "A2") && !legal(s, "B1"), "white A2, B1: suicide");
    play(s, "pass");
    cr_expect(legal(s, "A2") && legal(s, "B1"));
    gts_games_free(G(), s);
}

Test(go, ko_and_superko)
{
    /* A ko on 5x5: black B3 C4 C2 D3? Classic shape: black A2 B3 B1,
     * white A3? Use columns B..E:
     *   row 3: . X O . .
     *   row 2: X O . O .
     *   row 1: . X O . .
     * Black plays C2 capturing B2; white cannot retake at B2 at once. */
    void *s = go_new("5 komi=0 moves=B3,C3,A2,D2,B1,C1,pass,B2");
    board_is(s, ".....\n.....\n.XO..\nXO.O.\n.XO..\n");
    play(s, "C2");
    board_is(s, ".....\n.....\n.XO..\nX.XO.\n.XO..\n");
    cr_expect(!legal(s, "B2"), "immediate recapture repeats the board");
    play(s, "E5"); /* a threat elsewhere */
    play(s, "E4");
    cr_expect(legal(s, "B2"), "after an exchange the board differs: retake");
    /* Two consecutive passes end the game. */
    play(s, "pass");
    cr_expect(legal(s, "A5"), "one pass does not end it");
    play(s, "pass");
    gts_move m[64];
    cr_expect_eq(G()->generate(s, m, G()->max_moves, NULL), 0, "two passes: over");
    cr_expect(!legal(s, "pass"));
    gts_games_free(G(), s);
}

Test(go, superko_beyond_simple_ko)
{
    /* 2x2 (found by a breadth-first search of the naive rules): B A1,
     * W B1, B A2, W B2 (takes A1 A2), B A1, W A2 (takes A1). Black A1 would
     * take the three white stones and leave {A1}: the board after move 1,
     * not the board before White's last move, so simple ko allows it and
     * positional superko does not. */
    void *s = go_new("2 komi=0 moves=A1,B1,A2,B2,A1,A2");
    board_is(s, "OO\n.O\n");
    cr_expect(!legal(s, "A1"), "black A1 recreates the board after move 1");
    gts_move m[8];
    cr_expect_eq(G()->generate(s, m, G()->max_moves, NULL), 1, "only the pass is left");
    cr_expect_eq(m[0], GTS_GO_PASS);
    gts_games_free(G(), s);
}

Test(go, scoring_hand_counted)
{
    /* 5x5, black owns columns A-B, white D-E, C is shared. Black stones
     * A..B column B (5), white column D (5); A: black territory (5), E:
     * white (5), C: neutral (reaches both). Black 10, white 10. */
    void *s = go_new("5 komi=0.5 moves=B1,D1,B2,D2,B3,D3,B4,D4,B5,D5,pass,pass");
    gts_move m[64];
    cr_expect_eq(G()->generate(s, m, G()->max_moves, NULL), 0, "finished");
    cr_expect_eq(gts_go_area(s), -1, "10 - 10 - 0.5");
    cr_expect_eq(G()->evaluate(s, NULL), -50, "black to move loses by 0.5 (100 per point)");
    gts_games_free(G(), s);
    /* Black wall on column C plus white dead stone E5 inside black's area
     * under Tromp-Taylor rules counts as white: E5 white (1), D5 empty region
     * touches black and white -> neutral. Black: column C 5 stones + A,B
     * territory 10 + D1..D4/E1..E4 region (8, reaches only black? it touches
     * E5? E4 neighbours E5 white -> neutral). */
    s = go_new("5 komi=0 moves=C1,E5,C2,pass,C3,pass,C4,pass,C5,pass");
    /* regions: A-B columns (10 points, black only) -> black; D1..E4 + D5
     * region (9 points) touches E5 (white) and column C -> neutral. */
    cr_expect_eq(gts_go_area(s), 2 * (5 + 10 - 1), "black 15, white 1");
    cr_expect_eq(G()->evaluate(s, NULL), 1400, "black to move: +14 points");
    cr_expect(legal(s, "D4"), "one pass so far");
    play(s, "pass");
    cr_expect(!legal(s, "D4"), "two passes: over");
    cr_expect_eq(G()->evaluate(s, NULL), -1400, "finished, white to move: -14 points");
    gts_games_free(G(), s);
    s = go_new("3 komi=9 moves=B2");
    cr_expect_eq(gts_go_area(s), 0, "9 - 9: a jigo");
    cr_expect_eq(G()->evaluate(s, NULL), 0);
    gts_games_free(G(), s);
}

Test(go, move_cap_ends_the_game)
{
    void *s = go_new("5 maxmoves=3 moves=A1,B1");
    gts_move m[64];
    cr_expect_gt(G()->generate(s, m, G()->max_moves, NULL), 0);
    play(s, "C1");
    cr_expect_eq(G()->generate(s, m, G()->max_moves, NULL), 0, "cap reached");
    cr_expect_lt(G()->apply(s, GTS_GO_PASS, NULL), 0, "no move after the end");
    cr_expect_eq(G()->undo(s, 2 /* C1 */, NULL), 0);
    cr_expect_lt(G()->undo(s, 0, NULL), 0, "undo only takes back the last move");
    gts_games_free(G(), s);
}

/* GTS_GO_SKIP: the turn changes hands and nothing else; it is no pass, so
 * two stones of one colour with a skip between them and a pass after them
 * do not end the game (gts-gtp's implied pass, issue 31). */
Test(go, skip_is_not_a_pass)
{
    void *s = go_new("5");
    gts_move m[64];
    play(s, "C3");
    cr_assert_eq(G()->apply(s, GTS_GO_SKIP, NULL), 0);
    cr_expect_eq(gts_go_to_move(s), 0, "black to move again");
    play(s, "D3");
    cr_assert_eq(G()->apply(s, GTS_GO_SKIP, NULL), 0);
    play(s, "pass");
    board_is(s, ".....\n.....\n..XX.\n.....\n.....\n");
    cr_expect_eq(gts_go_to_move(s), 1);
    cr_expect_gt(G()->generate(s, m, G()->max_moves, NULL), 0,
                 "stone, skip, stone, skip, pass: one pass, the game goes on");
    for (int i = 0; i < 64 && i < G()->generate(s, m, G()->max_moves, NULL); i++)
        cr_expect_neq(m[i], GTS_GO_SKIP, "never generated");
    /* the policy after a skip: no last stone to answer, a legal move */
    cr_assert_eq(G()->apply(s, GTS_GO_SKIP, NULL), 0);
    gts_move p = 0;
    cr_expect_eq(G()->playout_move(s, 12345, &p, NULL), 1);
    cr_expect_eq(G()->apply(s, p, NULL), 0);
    cr_expect_eq(G()->undo(s, p, NULL), 0);
    cr_expect_lt(G()->undo(s, GTS_GO_PASS, NULL), 0, "the last move is the skip");
    cr_expect_eq(G()->undo(s, GTS_GO_SKIP, NULL), 0);
    /* the pass count goes through a skip unchanged: pass, skip, pass ends */
    cr_assert_eq(G()->apply(s, GTS_GO_SKIP, NULL), 0);
    play(s, "pass");
    cr_expect_eq(G()->generate(s, m, G()->max_moves, NULL), 0, "two passes of black");
    cr_expect_lt(G()->apply(s, GTS_GO_SKIP, NULL), 0, "no skip after the end");
    gts_games_free(G(), s);
}

Test(go, playout_policy_keeps_eyes)
{
    /* 5x5: black owns everything but two eyes A1 and C1? Black stones
     * everywhere except A1, C1 and white nothing: the only empty points
     * are black's eyes; black must pass, white may play neither (suicide). */
    char text[256] = "5 komi=0 moves=";
    const char *cols = "ABCDE";
    bool first = true;
    for (int y = 1; y <= 5; y++)
        for (int x = 0; x < 5; x++) {
            if (y == 1 && (x == 0 || x == 2))
                continue;
            char v[16];
            snprintf(v, sizeof v, "%s%c%d,pass", first ? "" : ",", cols[x], y);
            strcat(text, v);
            first = false;
        }
    void *s = go_new(text);
    /* the last token was white's pass: black to move */
    cr_assert_eq(gts_go_to_move(s), 0);
    gts_move m;
    for (uint64_t r = 0; r < 50; r++) {
        cr_assert_eq(G()->playout_move(s, r * 0x9e3779b97f4a7c15ull, &m, NULL), 1);
        cr_expect_eq(m, GTS_GO_PASS, "black does not fill its own eyes");
    }
    gts_games_free(G(), s);
    /* From the empty board every policy move is legal and not a pass. */
    s = go_new("9");
    gts_move list[400];
    int n = G()->generate(s, list, G()->max_moves, NULL);
    cr_assert_eq(n, 82);
    for (uint64_t r = 1; r < 200; r++) {
        cr_assert_eq(G()->playout_move(s, r * 0x2545f4914f6cdd1dull, &m, NULL), 1);
        cr_expect_lt(m, 81u);
    }
    gts_games_free(G(), s);
}

Test(go, check_passes)
{
    static const char *positions[] = { "5 komi=0.5 moves=C3,B3,C2,B2,D4", "4 komi=1",
                                       "3 komi=0 moves=B2" };
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++) {
        void *s = go_new(positions[i]);
        uint64_t key = G()->hash(s, NULL);
        gts_check_options o = {.struct_size = sizeof o, .seed = 11 + i, .walks = 8,
                               .walk_length = 30, .depth = 2, .algorithm_positions = 2};
        gts_check_report r = {.struct_size = sizeof r};
        cr_assert_eq(gts_game_check(G(), s, &o, &r), GTS_OK);
        cr_expect_eq(r.violation, GTS_CHECK_OK, "%s: %s: %s", positions[i],
                     gts_check_violation_name(r.violation), r.message);
        cr_expect_gt(r.positions, 8u);
        cr_expect_eq(G()->hash(s, NULL), key, "restored");
        gts_games_free(G(), s);
    }
}

/* One game from position @p text to its end: at each position @p step sees
 * the @p cnt moves generate() lists (0 at the end) and the ply, and picks
 * the move to play in @p m (false: stop there). Every move is taken back,
 * then the state freed. */
typedef bool (*walk_step)(void *s, const gts_move *list, int cnt, int ply, gts_move *m,
                          void *ctx);

static void walk(const char *text, walk_step step, void *ctx)
{
    void *s = go_new(text);
    gts_move list[400], played[2000];
    int n = 0;
    for (;;) {
        int cnt = G()->generate(s, list, G()->max_moves, NULL);
        cr_assert_geq(cnt, 0);
        gts_move m = GTS_MOVE_NONE;
        if (!step(s, list, cnt, n, &m, ctx))
            break;
        cr_assert_lt(n, 2000);
        cr_assert_eq(G()->apply(s, m, NULL), 0);
        played[n++] = m;
    }
    while (n > 0)
        cr_assert_eq(G()->undo(s, played[--n], NULL), 0);
    gts_games_free(G(), s);
}

static bool listed(const gts_move *list, int cnt, gts_move m)
{
    for (int k = 0; k < cnt; k++)
        if (list[k] == m)
            return true;
    return false;
}

typedef struct trusted_walk {
    const char *position;
    uint64_t x;
    long checked, finished;
} trusted_walk;

/* A few policy draws, each a listed move, 0 exactly at the end. */
static bool trusted_step(void *s, const gts_move *list, int cnt, int ply, gts_move *m, void *ctx)
{
    trusted_walk *w = ctx;
    for (int d = 0; d < 4; d++) {
        w->x = w->x * 6364136223846793005ull + 1442695040888963407ull;
        int rc = G()->playout_move(s, w->x, m, NULL);
        cr_assert_eq(rc, cnt > 0 ? 1 : 0, "%s ply %d: policy %d, %d moves", w->position, ply, rc,
                     cnt);
        cr_assert(cnt == 0 || listed(list, cnt, *m), "%s ply %d: policy move %llu not generated",
                  w->position, ply, (unsigned long long)*m);
        w->checked++;
    }
    if (cnt == 0)
        w->finished++;
    return cnt > 0;
}

/* GTS_TRAIT_TRUSTED_PLAYOUT: playouts of the policy's own moves, as
 * gts_mcts() plays them unchecked, on several boards and move caps: at
 * every position each of a few draws (tactical ones included) is a move
 * generate() lists, and the policy returns 0 exactly at finished games. */
Test(go, trusted_policy_keeps_its_promise)
{
    static const char *positions[] = {"5 komi=0.5", "7", "9", "9 maxmoves=40",
                                      "4 komi=0 maxmoves=1000", "13", "5 komi=0.5 patterns=1",
                                      "9 patterns=1", "13 patterns=1"};
    cr_assert(G()->traits & GTS_TRAIT_TRUSTED_PLAYOUT);
    trusted_walk w = {.x = 99};
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++)
        for (int game = 0; game < 6; game++) {
            w.position = positions[i];
            walk(positions[i], trusted_step, &w);
        }
    cr_expect_eq(w.finished, 54, "every playout ended in a finished game");
    cr_log_info("%ld policy calls checked", w.checked);
    /* gts_game_check() tests the promise on 9x9 too (its playouts from the
     * ends of the walks reach finished games). */
    static const char *checked_positions[] = {"9", "9 patterns=1"};
    for (size_t i = 0; i < 2; i++) {
        void *s = go_new(checked_positions[i]);
        gts_check_options o = {.struct_size = sizeof o, .seed = 3, .walks = 4,
                               .walk_length = 10, .depth = 1, .algorithm_positions = -1};
        gts_check_report r = {.struct_size = sizeof r};
        cr_assert_eq(gts_game_check(G(), s, &o, &r), GTS_OK);
        cr_expect_eq(r.violation, GTS_CHECK_OK, "%s: %s: %s", checked_positions[i],
                     gts_check_violation_name(r.violation), r.message);
        gts_games_free(G(), s);
    }
}

/* The policy's move, another point tested as always, and the policy's
 * point re-applied after the move (w->checked counts those). */
static bool note_step(void *s, const gts_move *list, int cnt, int ply, gts_move *m, void *ctx)
{
    trusted_walk *w = ctx;
    if (cnt == 0)
        return false;
    w->x = w->x * 6364136223846793005ull + 1442695040888963407ull;
    cr_assert_eq(G()->playout_move(s, w->x, m, NULL), 1);
    /* another point than the policy's: tested as always */
    gts_move other = (gts_move)((w->x >> 40) % 81);
    if (other != *m) {
        int rc = G()->apply(s, other, NULL);
        cr_assert_eq(rc == 0, listed(list, cnt, other), "%s ply %d: apply(%u) %d", w->position,
                     ply, (unsigned)other, rc);
        if (rc == 0) {
            cr_assert_eq(G()->undo(s, other, NULL), 0);
            /* the note is gone: the policy's point is tested */
            cr_assert_eq(G()->playout_move(s, w->x, m, NULL), 1);
        }
    }
    /* after the move: the point is taken, and tested afresh after an undo */
    gts_move p = *m;
    if (p != GTS_GO_PASS) {
        cr_assert_eq(G()->apply(s, p, NULL), 0);
        gts_move next[400];
        if (G()->generate(s, next, G()->max_moves, NULL) > 0) {
            cr_assert_eq(G()->apply(s, p, NULL), GTS_EINVAL, "%s ply %d: %u is taken",
                         w->position, ply + 1, (unsigned)p);
            cr_assert_eq(G()->undo(s, p, NULL), 0);
            cr_assert_eq(G()->apply(s, p, NULL), 0, "tested afresh after undo");
            w->checked++;
        }
        cr_assert_eq(G()->undo(s, p, NULL), 0);
    }
    return true;
}

/* apply() skips its legality test for the point the policy has just
 * returned (go.c, `vouched`): only in the position the policy saw. Along
 * random games, after each policy call: the move is applied, applying it
 * again in the next position is refused (the point is taken), and after
 * an undo it is tested afresh; every point apply() takes right after a
 * policy call is one generate() lists. */
Test(go, policy_note_lives_one_position)
{
    static const char *positions[] = {"5 komi=0.5", "9", "4 komi=0 maxmoves=1000"};
    trusted_walk w = {.x = 7};
    for (size_t i = 0; i < sizeof positions / sizeof positions[0]; i++)
        for (int game = 0; game < 4; game++) {
            w.position = positions[i];
            walk(positions[i], note_step, &w);
        }
    cr_expect_gt(w.checked, 100, "policy moves re-applied: %ld", w.checked);
}

/* The note does not survive an undo either: on 3x3, A1 is a legal point
 * for black (not an eye: white holds its diagonal) and suicide for white.
 * Once the policy has picked A1 for black, undoing white's last move
 * leaves white to move, and apply(A1) must be refused. */
Test(go, policy_note_forgotten_by_undo)
{
    void *s = go_new("3 komi=0 moves=A2,B2,B1,C3");
    const gts_move a1 = 0, c3 = 2 * 3 + 2; /* y * size + x */
    gts_move m = GTS_MOVE_NONE;
    for (uint64_t r = 1; r < 1000 && m != a1; r++)
        cr_assert_eq(G()->playout_move(s, r * 0x9e3779b97f4a7c15ull, &m, NULL), 1);
    cr_assert_eq(m, a1, "the policy plays A1 for black some time");
    cr_assert_eq(G()->undo(s, c3, NULL), 0);
    cr_expect_eq(G()->apply(s, a1, NULL), GTS_EINVAL, "A1 is suicide for white");
    gts_games_free(G(), s);
}

Test(go, hash_sees_history)
{
    /* Same board, different histories: different keys (legality differs
     * under superko). */
    void *a = go_new("5 moves=A1,B1,C1,D1");
    void *b = go_new("5 moves=C1,D1,A1,B1");
    cr_expect_neq(G()->hash(a, NULL), G()->hash(b, NULL));
    void *c = go_new("5 moves=A1,B1,C1,D1");
    cr_expect_eq(G()->hash(a, NULL), G()->hash(c, NULL));
    void *d = G()->clone(a, NULL);
    cr_assert_not_null(d);
    cr_expect_eq(G()->hash(a, NULL), G()->hash(d, NULL));
    play(d, "E1");
    cr_expect_neq(G()->hash(a, NULL), G()->hash(d, NULL));
    gts_games_free(G(), a);
    gts_games_free(G(), b);
    gts_games_free(G(), c);
    gts_games_free(G(), d);
}

/* ---- the reference: naive rules ------------------------------------------ */

enum { R_MAX = 7 * 7, R_HIST = 600 };

typedef struct ref_go {
    int n;
    char b[R_MAX]; /* 0 empty, 1 black, 2 white */
    char hist[R_HIST][R_MAX];
    int nhist;
    int to_move, passes, moves;
} ref_go;

static int ref_nbrs(const ref_go *r, int p, int *out)
{
    int k = 0, x = p % r->n, y = p / r->n;
    if (x > 0) out[k++] = p - 1;
    if (x < r->n - 1) out[k++] = p + 1;
    if (y > 0) out[k++] = p - r->n;
    if (y < r->n - 1) out[k++] = p + r->n;
    return k;
}

/* The region of b[p]'s colour that holds p, on board b (flood fill): its
 * points in @in (if not NULL), the points of other colours next to it in
 * @edge. */
static void ref_region(const ref_go *r, const char *b, int p, char *in, char *edge)
{
    char seen[R_MAX] = {0};
    int stack[R_MAX], sp = 0;
    memset(edge, 0, R_MAX);
    stack[sp++] = p;
    seen[p] = 1;
    while (sp) {
        int q = stack[--sp];
        int nb[4], k = ref_nbrs(r, q, nb);
        for (int i = 0; i < k; i++) {
            if (b[nb[i]] != b[p])
                edge[nb[i]] = 1;
            else if (!seen[nb[i]]) {
                seen[nb[i]] = 1;
                stack[sp++] = nb[i];
            }
        }
    }
    if (in)
        memcpy(in, seen, R_MAX);
}

/* Liberties of the string at p on board b. */
static int ref_libs(const ref_go *r, const char *b, int p, char *in_string)
{
    char edge[R_MAX];
    ref_region(r, b, p, in_string, edge);
    int libs = 0;
    for (int q = 0; q < r->n * r->n; q++)
        libs += edge[q] && b[q] == 0;
    return libs;
}

/* Board after colour c plays p, or false when illegal. */
static bool ref_try(const ref_go *r, int p, char *out, int hist_from)
{
    int c = r->to_move;
    if (r->b[p])
        return false;
    memcpy(out, r->b, R_MAX);
    out[p] = (char)c;
    int nb[4], k = ref_nbrs(r, p, nb);
    for (int i = 0; i < k; i++) {
        char str[R_MAX];
        if (out[nb[i]] == 3 - c && ref_libs(r, out, nb[i], str) == 0)
            for (int q = 0; q < r->n * r->n; q++)
                if (str[q])
                    out[q] = 0;
    }
    if (ref_libs(r, out, p, NULL) == 0)
        return false;
    for (int h = hist_from; h < r->nhist; h++)
        if (memcmp(r->hist[h], out, R_MAX) == 0)
            return false;
    return true;
}

static int ref_score(const ref_go *r) /* black minus white, points */
{
    int score = 0;
    for (int p = 0; p < r->n * r->n; p++) {
        if (r->b[p]) {
            score += r->b[p] == 1 ? 1 : -1;
            continue;
        }
        /* an empty point counts for the colours its region reaches */
        char edge[R_MAX];
        int reach = 0;
        ref_region(r, r->b, p, NULL, edge);
        for (int q = 0; q < r->n * r->n; q++)
            if (edge[q])
                reach |= r->b[q];
        score += reach == 1 ? 1 : reach == 2 ? -1 : 0;
    }
    return score;
}

static long random_games(int n, int games, uint64_t seed)
{
    char text[64];
    snprintf(text, sizeof text, "%d komi=0.5 maxmoves=%d", n, R_HIST - 2);
    uint64_t x = seed;
    long compared = 0, superko_moves = 0;
    for (int g = 0; g < games; g++) {
        void *s = go_new(text);
        ref_go *r = calloc(1, sizeof *r);
        cr_assert_not_null(r);
        r->n = n;
        r->to_move = 1;
        r->nhist = 1;
        gts_move moves[400];
        for (;;) {
            int cnt = G()->generate(s, moves, G()->max_moves, NULL);
            bool over = r->passes >= 2 || r->moves >= R_HIST - 2;
            cr_assert_eq(cnt == 0, over, "game %d move %d: end of game", g, r->moves);
            int e = G()->evaluate(s, NULL);
            int want = (ref_score(r) * 2 - 1) * 50 * (r->to_move == 1 ? 1 : -1);
            cr_assert_eq(e, want, "game %d move %d: evaluate", g, r->moves);
            if (over)
                break;
            /* the same legal moves, in point order, then pass */
            int k = 0;
            char out[R_MAX];
            for (int p = 0; p < n * n; p++) {
                bool ok = ref_try(r, p, out, 0);
                if (!ok && !r->b[p] && r->nhist >= 2) { /* simple ko would allow it */
                    char tmp[R_MAX];
                    superko_moves += ref_try(r, p, tmp, r->nhist - 2);
                }
                if (ok) {
                    cr_assert_lt(k, cnt);
                    cr_assert_eq(moves[k], (gts_move)p, "game %d move %d: legal point %d", g,
                                 r->moves, p);
                    k++;
                }
            }
            cr_assert_eq(k + 1, cnt, "game %d move %d: move count", g, r->moves);
            cr_assert_eq(moves[k], GTS_GO_PASS);
            compared++;
            /* pick: the policy's move half the time, else uniform */
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            gts_move m;
            if (x >> 63)
                cr_assert_eq(G()->playout_move(s, x, &m, NULL), 1);
            else
                m = moves[(x >> 33) % (uint64_t)cnt];
            /* keep games short of the cap: pass a little more often late */
            cr_assert_eq(G()->apply(s, m, NULL), 0);
            if (m == GTS_GO_PASS) {
                r->passes++;
            } else {
                cr_assert(ref_try(r, (int)m, out, 0), "policy move %u legal in the reference", m);
                memcpy(r->b, out, R_MAX);
                r->passes = 0;
            }
            memcpy(r->hist[r->nhist++], r->b, R_MAX);
            r->to_move = 3 - r->to_move;
            r->moves++;
        }
        free(r);
        gts_games_free(G(), s);
    }
    cr_log_info("%dx%d: %ld positions compared, %ld superko refusals", n, n, compared,
                superko_moves);
    cr_expect_gt(compared, (long)games, "the games were played");
    return superko_moves;
}

Test(go, random_games_match_the_reference)
{
    long superko = random_games(2, 40, 1);
    superko += random_games(3, 40, 2);
    cr_expect_gt(superko, 0, "the small boards met moves only superko forbids");
    random_games(4, 15, 3);
    random_games(5, 8, 4);
    random_games(7, 3, 5);
}

Test(go, undo_restores_every_position)
{
    void *s = go_new("5 komi=0.5");
    gts_move played[200], moves[64];
    uint64_t keys[200];
    int n = 0;
    uint64_t x = 7;
    while (n < 150) {
        keys[n] = G()->hash(s, NULL);
        int cnt = G()->generate(s, moves, G()->max_moves, NULL);
        if (cnt == 0)
            break;
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        gts_move m;
        cr_assert_eq(G()->playout_move(s, x, &m, NULL), 1);
        cr_assert_eq(G()->apply(s, m, NULL), 0);
        played[n++] = m;
    }
    cr_expect_gt(n, 10);
    while (n > 0) {
        n--;
        cr_assert_eq(G()->undo(s, played[n], NULL), 0);
        cr_assert_eq(G()->hash(s, NULL), keys[n], "key after undo at ply %d", n);
    }
    gts_games_free(G(), s);
}

Test(go, mcts_captures_the_big_string)
{
    /* 5x5, black to move: white's five-stone string on row 2 has one
     * liberty (E2); taking it wins the game outright. */
    void *s = go_new("5 komi=0.5 moves=A1,A2,B1,B2,C1,C2,D1,D2,A3,pass,B3,pass,C3,pass,D3,pass,"
                     "E3,A5");
    cr_assert_eq(gts_go_to_move(s), 0);
    /* Black to move: E2 takes the white string (one liberty); anything else
     * lets white take black's row 1 at E1 or E2. (White's last move was not
     * a pass, so passing does not end the game.) */
    board_is(s, "O....\n.....\nXXXXX\nOOOO.\nXXXX.\n");
    gts_engine *e = NULL;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 3000), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_SEED, 1), GTS_OK);
    gts_result res = {.struct_size = sizeof res};
    cr_assert_eq(gts_mcts(e, G(), s, NULL, &res), GTS_OK);
    char buf[8];
    G()->format_move(s, res.best_move, buf, sizeof buf, NULL);
    cr_expect_str_eq(buf, "E2", "MCTS takes the string (score %d)", res.score);
    gts_mcts_move_stats st[32];
    st[0].struct_size = sizeof st[0];
    int n = gts_mcts_root_stats(e, st, 32);
    for (int i = 0; i < n && i < 32; i++) {
        G()->format_move(s, st[i].move, buf, sizeof buf, NULL);
        cr_log_info("%s: %lu visits, mean %.3f", buf, (unsigned long)st[i].visits, st[i].mean);
    }
    gts_engine_free(e);
    gts_games_free(G(), s);
}

/* ---- the playout policy's 3x3 patterns (MoGo, INRIA RR-6062) ------------- */

/* A neighbourhood as a diagram, top row first: 'B' black, 'W' white,
 * '.' empty, '#' off the board; the centre (the candidate) is empty. The
 * code of go_internal.h, written out here independently of go.c. */
static unsigned diagram_code(const char *d)
{
    unsigned code = 0;
    for (int j = 0, i = 0; j < 9; j++) {
        if (j == 4)
            continue;
        unsigned v = d[j] == 'B' ? 1 : d[j] == 'W' ? 2 : d[j] == '#' ? 3 : 0;
        code |= v << (2 * i++);
    }
    return code;
}

/* Quarter turn and mirror image of a diagram; colours exchanged. */
static void diagram_turn(char *d)
{
    char t[9];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            t[r * 3 + c] = d[(2 - c) * 3 + r];
    memcpy(d, t, 9);
}

static void diagram_mirror(char *d)
{
    for (int r = 0; r < 3; r++) {
        char t = d[r * 3];
        d[r * 3] = d[r * 3 + 2];
        d[r * 3 + 2] = t;
    }
}

static void diagram_swap(char *d)
{
    for (int j = 0; j < 9; j++)
        d[j] = d[j] == 'B' ? 'W' : d[j] == 'W' ? 'B' : d[j];
}

/* Hand-checked neighbourhoods: which side to move matches one of MoGo's
 * patterns at the centre (black, white). Each is checked in its 8
 * rotations and reflections, and with the colours exchanged (then the
 * expectations exchange too). */
static const struct {
    const char *diagram, *what;
    bool black, white;
} PATTERN_CASES[] = {
    { "BWB" "..." "...", "hane, enclosing", true, true },
    { "BW." "..." "...", "hane", true, true },
    { "BW." "B.." "...", "magari", true, true },
    { "BWW" "..." "...", "thin hane: only for the side of the hane stone", true, false },
    { "BW." "W.." "...", "cut1", true, true },
    { ".B." "W.W" "...", "cut2", true, true },
    { "B.." "W.." "###", "edge: chase", true, true },
    { "WB." "B.W" "###", "edge: block the cut", true, true },
    { ".BW" "..." "###", "edge: sagari, only for the side above", true, false },
    { "..." "..." "...", "empty", false, false },
    { "B.." "..." "...", "one diagonal stone", false, false },
    { "BW." "..." ".B.", "hane with a stone below", false, false },
    { "BW." "W.W" "...", "cut1, protected", false, false },
    { ".B." "W.W" ".W.", "cut2 with a stone below", false, false },
    { "..." "..." "###", "empty edge", false, false },
    { "B.W" "..." "###", "edge: stones on both diagonals", false, false },
};

Test(go, pattern_table_by_hand)
{
    for (size_t k = 0; k < sizeof PATTERN_CASES / sizeof PATTERN_CASES[0]; k++) {
        for (int swap = 0; swap < 2; swap++) {
            char d[9];
            memcpy(d, PATTERN_CASES[k].diagram, 9);
            bool black = PATTERN_CASES[k].black, white = PATTERN_CASES[k].white;
            if (swap) {
                diagram_swap(d);
                bool t = black;
                black = white;
                white = t;
            }
            for (int sym = 0; sym < 8; sym++) {
                if (sym == 4)
                    diagram_mirror(d);
                unsigned code = diagram_code(d);
                cr_expect_eq(gts__go_pattern_match(code, 1), black,
                             "%s (%.9s), black to move: expected %s", PATTERN_CASES[k].what, d,
                             black ? "a match" : "none");
                cr_expect_eq(gts__go_pattern_match(code, 2), white,
                             "%s (%.9s), white to move: expected %s", PATTERN_CASES[k].what, d,
                             white ? "a match" : "none");
                diagram_turn(d);
            }
        }
    }
    /* The table answers nothing outside its domain. */
    cr_expect_not(gts__go_pattern_match(GTS__GO_PATTERN_CODES, 1));
    cr_expect_not(gts__go_pattern_match(diagram_code("BWB" "..." "..."), 0));
    cr_expect_not(gts__go_pattern_match(diagram_code("BWB" "..." "..."), 3));
}

Test(go, pattern_code_reads_the_board)
{
    /* 9x9: black A2, white B1 and C5, black D4 (last move: white C5). */
    void *s = go_new("9 moves=A2,B1,D4,C5");
    cr_expect_eq(gts__go_pattern_code(s, mv(s, "A1")), diagram_code("#B." "#.W" "###"),
                 "the corner A1");
    cr_expect_eq(gts__go_pattern_code(s, mv(s, "C4")), diagram_code(".W." "..B" "..."),
                 "C4, between C5 and D4");
    cr_expect_eq(gts__go_pattern_code(s, mv(s, "J9")), diagram_code("###" "..#" "..#"),
                 "the corner J9");
    gts_games_free(G(), s);
}

/* Draws of the policy that take its rule-based branch (14 of 16 values). */
static uint64_t rule_draw(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return *x & ~(0xfull << 60);
}

Test(go, playout_policy_plays_patterns_around_the_last_move)
{
    /* Black E5, white E6 (the last move), black to move; nothing in
     * atari. Around E6 the hane points D6 and F6 (white E6 next to the
     * black stone below it) and D5 and F5 (white's stone diagonal to them,
     * next to black's) match; D7, E7 and F7 see one stone only. */
    void *s = go_new("9 patterns=1 moves=E5,E6");
    const char *expect[] = { "D6", "F6", "D5", "F5" };
    int hits[4] = { 0 };
    uint64_t x = 5;
    for (int i = 0; i < 400; i++) {
        uint64_t r = rule_draw(&x);
        gts_move m, again;
        cr_assert_eq(G()->playout_move(s, r, &m, NULL), 1);
        cr_assert_eq(G()->playout_move(s, r, &again, NULL), 1);
        cr_assert_eq(m, again, "the same draw gives the same move");
        char buf[8];
        G()->format_move(s, m, buf, sizeof buf, NULL);
        bool known = false;
        for (int k = 0; k < 4; k++)
            if (strcmp(buf, expect[k]) == 0) {
                hits[k]++;
                known = true;
            }
        cr_assert(known, "draw %d: %s is not a pattern point around E6", i, buf);
    }
    for (int k = 0; k < 4; k++)
        cr_expect_gt(hits[k], 60, "%s is chosen about a quarter of the time (%d of 400)",
                     expect[k], hits[k]);
    gts_games_free(G(), s);
}

Test(go, playout_policy_captures_anywhere)
{
    /* White J9 is in atari (black H9) far from white's last move E5,
     * whose neighbourhood matches no pattern: black takes at J8. */
    void *s = go_new("9 patterns=1 moves=H9,J9,C3,E5");
    gts_move j8 = mv(s, "J8");
    uint64_t x = 9;
    for (int i = 0; i < 200; i++) {
        gts_move m;
        cr_assert_eq(G()->playout_move(s, rule_draw(&x), &m, NULL), 1);
        cr_assert_eq(m, j8, "draw %d: the capture J8", i);
    }
    gts_games_free(G(), s);
    /* Two strings in atari (A9 by B9, J1 by H1): each capture about half of
     * the time. */
    s = go_new("9 patterns=1 moves=B9,A9,H1,J1,C3,E5");
    gts_move a8 = mv(s, "A8"), j2 = mv(s, "J2");
    int na8 = 0, nj2 = 0;
    for (int i = 0; i < 200; i++) {
        gts_move m;
        cr_assert_eq(G()->playout_move(s, rule_draw(&x), &m, NULL), 1);
        na8 += m == a8;
        nj2 += m == j2;
    }
    cr_expect_eq(na8 + nj2, 200, "every draw captures");
    cr_expect_gt(na8, 60, "A8 %d of 200", na8);
    cr_expect_gt(nj2, 60, "J2 %d of 200", nj2);
    gts_games_free(G(), s);
}

Test(go, playout_policy_stops_at_the_end)
{
    /* The contract of GTS_TRAIT_TRUSTED_PLAYOUT: 0 once the game is over
     * (two passes, or the move cap), whatever the draw. */
    static const char *over[] = { "9 moves=E5,E6,pass,pass", "9 maxmoves=2 moves=E5,E6",
                                  "9 patterns=1 moves=E5,E6,pass,pass",
                                  "9 patterns=1 maxmoves=2 moves=E5,E6" };
    for (size_t i = 0; i < sizeof over / sizeof over[0]; i++) {
        void *s = go_new(over[i]);
        uint64_t x = 3;
        for (int k = 0; k < 50; k++) {
            gts_move m = GTS_MOVE_NONE;
            cr_expect_eq(G()->playout_move(s, rule_draw(&x) | (uint64_t)(k & 1) << 63, &m, NULL),
                         0, "%s: over", over[i]);
        }
        gts_games_free(G(), s);
    }
}

/* The move the policy without patterns makes for draw @p r when no atari
 * rule applies and every empty point is a fit random move (no eyes, no
 * self-ataris): the first point generate() lists, in the order of the
 * random scan of go.c (start r % n, stride 1 + (r >> 32) % (n - 1) made
 * coprime with n). Written out here independently of go.c. */
static gts_move scan_move(void *s, int size, uint64_t r)
{
    gts_move list[400];
    int cnt = G()->generate(s, list, G()->max_moves, NULL);
    unsigned n = (unsigned)(size * size), start = (unsigned)(r % n);
    unsigned stride = 1 + (unsigned)((r >> 32) % (n - 1));
    for (;;) {
        unsigned a = stride, b = n;
        while (b) {
            unsigned t = a % b;
            a = b;
            b = t;
        }
        if (a == 1)
            break;
        stride = stride % (n - 1) + 1;
    }
    for (unsigned i = 0, m = start; i < n; i++, m = (m + stride) % n)
        for (int k = 0; k < cnt; k++)
            if (list[k] == m)
                return m;
    return GTS_GO_PASS;
}

/* patterns=0 (the default) is the policy from before the patterns, move
 * for move: where the pattern rule (around E6) and the capture rule (J9 in
 * atari away from the last move) decide every rule draw with patterns=1,
 * the same draws without patterns give the random scan's move. A clone
 * keeps the setting. */
Test(go, patterns_are_off_by_default)
{
    static const char *positions[] = { "9 moves=E5,E6", "9 moves=H9,J9,C3,E5" };
    static const char *prefixes[] = { "", "patterns=0 " };
    for (size_t i = 0; i < 2; i++) {
        char on_text[64];
        snprintf(on_text, sizeof on_text, "patterns=1 %s", positions[i]);
        void *on = go_new(on_text);
        void *on_clone = G()->clone(on, NULL);
        cr_assert_not_null(on_clone);
        for (size_t j = 0; j < 2; j++) {
            char text[64];
            snprintf(text, sizeof text, "%s%s", prefixes[j], positions[i]);
            void *off = go_new(text);
            void *off_clone = G()->clone(off, NULL);
            cr_assert_not_null(off_clone);
            uint64_t x = 17;
            int differ = 0;
            for (int k = 0; k < 300; k++) {
                uint64_t r = rule_draw(&x);
                gts_move m_off, m_off_clone, m_on, m_on_clone;
                cr_assert_eq(G()->playout_move(off, r, &m_off, NULL), 1);
                cr_assert_eq(G()->playout_move(off_clone, r, &m_off_clone, NULL), 1);
                cr_assert_eq(G()->playout_move(on, r, &m_on, NULL), 1);
                cr_assert_eq(G()->playout_move(on_clone, r, &m_on_clone, NULL), 1);
                gts_move want = scan_move(off, 9, r);
                cr_assert_eq(m_off, want, "\"%s\" draw %d: the random scan's move %u, not %u",
                             text, k, (unsigned)want, (unsigned)m_off);
                cr_assert_eq(m_off_clone, want, "\"%s\" clone, draw %d", text, k);
                cr_assert_eq(m_on_clone, m_on, "\"%s\" clone, draw %d: patterns kept", on_text,
                             k);
                differ += m_on != m_off;
            }
            /* with patterns every draw is a pattern point or the capture;
             * the scan hits one of those about 1 time in 20 */
            cr_expect_gt(differ, 250, "\"%s\": the rules fire with patterns=1 only (%d of 300)",
                         text, differ);
            gts_games_free(G(), off_clone);
            gts_games_free(G(), off);
        }
        gts_games_free(G(), on_clone);
        gts_games_free(G(), on);
    }
}
