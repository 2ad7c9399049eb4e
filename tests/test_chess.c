/*
 * test_chess.c - Criterion suite for the chess adapter (examples/games/chess.c).
 *
 * References independent of the adapter's code: the published perft counts
 * (Chess Programming Wiki, "Perft Results": the start position, "Kiwipete"
 * and positions 3 to 6) at depths cheap enough for meson test (the deeper
 * published depths are the chess_perft benchmark); positions whose rules
 * outcome is known by hand (mates, stalemate, castling through check, a
 * pinned en-passant capture, repetitions, the 50-move rule); FENs that
 * cannot occur; and libgts' own adapter checker (gts_game_check), which
 * compares every exact algorithm with minimax on the adapter. Stockfish's
 * per-move perft on 200+ positions from games is tests/test_chess_oracle.py.
 */
#include <criterion/criterion.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gts/check.h>
#include "games_internal.h"
#include "gts_games.h"

static const char *const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
static const char *const KIWIPETE =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
static const char *const POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
static const char *const POS4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
static const char *const POS4_MIRRORED =
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
static const char *const POS5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
static const char *const POS6 =
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

static void *chess(const char *position)
{
    void *s = NULL;
    gts_status rc = gts_chess_new(position, &s);
    cr_assert_eq(rc, GTS_OK, "gts_chess_new(\"%s\") failed: %s", position, gts_strerror(rc));
    return s;
}

static int moves_of(void *s, gts_move *mv)
{
    const gts_game *g = gts_game_chess();
    int n = g->generate(s, mv, g->max_moves, g->user);
    cr_assert(n >= 0 && (uint32_t)n <= g->max_moves, "generate returned %d", n);
    return n;
}

static bool has_move(void *s, const char *text)
{
    const gts_game *g = gts_game_chess();
    gts_move m;
    return g->parse_move(s, text, &m, g->user) == 0;
}

/* ---- perft: the published counts ---------------------------------------- */

static void check_perft(const char *fen, const uint64_t *expected, int depths)
{
    void *s = chess(fen);
    for (int d = 1; d <= depths; d++) {
        uint64_t n = 0;
        cr_assert_eq(gts_chess_perft(s, d, &n), GTS_OK);
        cr_expect_eq(n, expected[d - 1], "%s: perft(%d) = %llu, published %llu", fen, d,
                     (unsigned long long)n, (unsigned long long)expected[d - 1]);
    }
    gts_games_free(gts_game_chess(), s);
}

Test(chess, perft_start)
{
    static const uint64_t want[] = { 20, 400, 8902, 197281 };
    check_perft(START, want, 4);
    check_perft(NULL, want, 3);
    check_perft("startpos", want, 3);
}

Test(chess, perft_kiwipete)
{
    static const uint64_t want[] = { 48, 2039, 97862 };
    check_perft(KIWIPETE, want, 3);
}

Test(chess, perft_position3)
{
    static const uint64_t want[] = { 14, 191, 2812, 43238, 674624 };
    check_perft(POS3, want, 5);
}

Test(chess, perft_position4_and_mirror)
{
    static const uint64_t want[] = { 6, 264, 9467, 422333 };
    check_perft(POS4, want, 3);
    check_perft(POS4_MIRRORED, want, 3);
}

Test(chess, perft_position5)
{
    static const uint64_t want[] = { 44, 1486, 62379 };
    check_perft(POS5, want, 3);
}

Test(chess, perft_position6)
{
    static const uint64_t want[] = { 46, 2079, 89890 };
    check_perft(POS6, want, 3);
}

/* gts_games_perft counts a position without moves as one leaf; chess
 * perft counts none. The two agree where no game ends early (the start
 * position to depth 3) and differ by one at a checkmate. */
Test(chess, perft_conventions)
{
    void *s = chess("startpos moves f2f3 e7e5 g2g4 d8h4");
    uint64_t a = 1, b = 1;
    cr_assert_eq(gts_chess_perft(s, 1, &a), GTS_OK);
    cr_assert_eq(gts_games_perft(gts_game_chess(), s, 1, &b), 0);
    cr_expect_eq(a, 0, "a checkmated position has no leaf at depth 1 in chess perft");
    cr_expect_eq(b, 1, "gts_games_perft counts the finished game as one leaf");
    gts_games_free(gts_game_chess(), s);
    s = chess(START);
    cr_assert_eq(gts_games_perft(gts_game_chess(), s, 3, &b), 0);
    cr_expect_eq(b, 8902);
    gts_games_free(gts_game_chess(), s);
}

/* ---- the adapter checker ------------------------------------------------- */

/* @p compare: also compare every exact algorithm with minimax (depth 2).
 * Minimax has no pruning in quiescence either, so its capture trees explode
 * in middle-game positions: only quiet endgames afford it. */
static void check_adapter(const char *fen, uint64_t seed, bool compare)
{
    void *s = chess(fen);
    gts_check_options opt = {
        .struct_size = sizeof opt, .seed = seed, .walks = 8, .walk_length = 40, .depth = 2,
        .algorithm_positions = compare ? 2 : -1,
    };
    gts_check_report report = { .struct_size = sizeof report };
    cr_assert_eq(gts_game_check(gts_game_chess(), s, &opt, &report), GTS_OK);
    cr_expect_eq(report.violation, GTS_CHECK_OK, "%s: %s after %u moves: %s", fen,
                 gts_check_violation_name(report.violation), report.path_length,
                 report.message);
    gts_games_free(gts_game_chess(), s);
}

Test(chess, adapter_check)
{
    check_adapter(START, 1, false);
    check_adapter(KIWIPETE, 2, false);
    check_adapter(POS4, 4, false);
    check_adapter(POS5, 5, false);
    check_adapter(POS3, 3, true);
    check_adapter("8/8/4k3/8/2p5/8/B2P4/4K3 w - - 0 1", 6, true);
}

/* ---- rules ----------------------------------------------------------------- */

Test(chess, checkmate_and_stalemate)
{
    const gts_game *g = gts_game_chess();
    gts_move mv[256];
    void *s = chess("startpos moves f2f3 e7e5 g2g4 d8h4"); /* fool's mate */
    cr_expect_eq(moves_of(s, mv), 0);
    cr_expect_eq(g->evaluate(s, NULL), GTS_SCORE_LOSS, "the mated side scores a loss");
    gts_games_free(g, s);
    s = chess("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"); /* stalemate */
    cr_expect_eq(moves_of(s, mv), 0);
    cr_expect_eq(g->evaluate(s, NULL), 0, "stalemate is a draw");
    gts_games_free(g, s);
}

Test(chess, castling_rules)
{
    void *s = chess("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    cr_expect(has_move(s, "e1g1") && has_move(s, "e1c1"));
    gts_games_free(gts_game_chess(), s);
    s = chess("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1"); /* f1 attacked: no O-O */
    cr_expect(!has_move(s, "e1g1"), "castling through an attacked square");
    cr_expect(has_move(s, "e1c1"));
    gts_games_free(gts_game_chess(), s);
    s = chess("4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1"); /* g1 attacked */
    cr_expect(!has_move(s, "e1g1"), "castling into check");
    gts_games_free(gts_game_chess(), s);
    s = chess("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1"); /* in check */
    cr_expect(!has_move(s, "e1g1") && !has_move(s, "e1c1"), "castling out of check");
    gts_games_free(gts_game_chess(), s);
    s = chess("4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1"); /* b1 attacked: O-O-O still legal */
    cr_expect(has_move(s, "e1c1"), "only the king's squares must be safe");
    gts_games_free(gts_game_chess(), s);
    s = chess("r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1 moves a1a8"); /* rook captured */
    cr_expect(!has_move(s, "e8c8"), "the right goes with the captured rook");
    gts_games_free(gts_game_chess(), s);
}

Test(chess, en_passant)
{
    void *s = chess("4k3/2p5/8/1P6/8/8/8/4K3 b - - 0 1 moves c7c5");
    cr_expect(has_move(s, "b5c6"), "en passant right after the double step");
    gts_games_free(gts_game_chess(), s);
    s = chess("4k3/2p5/8/1P6/8/8/8/4K3 b - - 0 1 moves c7c5 e1d1 e8d8");
    cr_expect(!has_move(s, "b5c6"), "en passant only on the next move");
    gts_games_free(gts_game_chess(), s);
    s = chess("8/8/8/KPp4r/8/8/8/7k w - c6 0 1"); /* both pawns leave the rank */
    cr_expect(!has_move(s, "b5c6"), "en passant that exposes the king");
    gts_games_free(gts_game_chess(), s);
}

Test(chess, promotion)
{
    void *s = chess("8/P7/8/8/8/8/8/k6K w - - 0 1");
    const char *const want[] = { "a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7a8Q" };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        cr_expect(has_move(s, want[i]), "%s", want[i]);
    cr_expect(!has_move(s, "a7a8"), "a promotion names its piece");
    cr_expect(!has_move(s, "a7a8k"));
    gts_move mv[256];
    cr_expect_eq(moves_of(s, mv), 7, "4 promotions and 3 king moves");
    const gts_game *g = gts_game_chess();
    int noisy = g->generate_noisy(s, mv, g->max_moves, NULL);
    cr_expect_eq(noisy, 1, "only the queen promotion is noisy");
    gts_games_free(g, s);
}

Test(chess, repetition_and_fifty_moves)
{
    gts_move mv[256];
    const char *knights = "startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1";
    void *s = chess(knights);
    cr_expect_gt(moves_of(s, mv), 0, "the start position occurred twice: play on");
    const gts_game *g = gts_game_chess();
    gts_move back;
    cr_assert_eq(g->parse_move(s, "f6g8", &back, NULL), 0);
    cr_assert_eq(g->apply(s, back, NULL), 0);
    cr_expect_eq(moves_of(s, mv), 0, "third occurrence: drawn");
    cr_expect_eq(g->evaluate(s, NULL), 0);
    cr_assert_eq(g->undo(s, back, NULL), 0);
    cr_expect_gt(moves_of(s, mv), 0);
    gts_games_free(g, s);

    s = chess("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    cr_expect_gt(moves_of(s, mv), 0);
    cr_assert_eq(g->parse_move(s, "a1a2", &back, NULL), 0);
    cr_assert_eq(g->apply(s, back, NULL), 0);
    cr_expect_eq(moves_of(s, mv), 0, "100 plies without capture or pawn move");
    cr_expect_eq(g->evaluate(s, NULL), 0);
    gts_games_free(g, s);

    s = chess("4k3/R7/4K3/8/8/8/8/8 w - - 99 80 moves a7a8"); /* mate on ply 100 */
    cr_expect_eq(g->evaluate(s, NULL), GTS_SCORE_LOSS, "checkmate beats the 50-move rule");
    gts_games_free(g, s);
}

/* Play the UCI moves of @p line (space-separated) on @p s with @p g. */
static int play_line(const gts_game *g, void *s, const char *line, gts_move *played)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", line);
    int n = 0;
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        cr_assert_eq(g->parse_move(s, t, &played[n], NULL), 0, "%s is legal", t);
        cr_assert_eq(g->apply(s, played[n], NULL), 0);
        n++;
    }
    return n;
}

static void undo_line(const gts_game *g, void *s, const gts_move *played, int n)
{
    while (n > 0)
        cr_assert_eq(g->undo(s, played[--n], NULL), 0);
}

/* gts_game_chess_engine(): a position that occurred at or after the root is
 * a draw at once; one seen only before the root needs its third occurrence
 * (as in the rules' vtable); the rules' vtable is unchanged. */
Test(chess, engine_draws_on_repetition_since_the_root)
{
    const gts_game *e = gts_game_chess_engine(), *g = gts_game_chess();
    gts_move mv[256], played[16];
    void *s = chess("startpos moves e2e4 e7e5");
    int n = play_line(e, s, "g1f3 b8c6 f3g1 c6b8", played); /* back to the root */
    cr_expect_eq(e->generate(s, mv, e->max_moves, NULL), 0, "the root repeated: a draw");
    cr_expect_eq(e->evaluate(s, NULL), 0);
    gts_move k[256];
    int32_t keys[256];
    cr_expect_eq(e->generate_keyed(s, k, keys, e->max_moves, NULL), 0);
    cr_expect_eq(e->generate_noisy(s, k, e->max_moves, NULL), 0);
    cr_expect_gt(g->generate(s, mv, g->max_moves, NULL), 0, "the rules: only twice, play on");
    undo_line(e, s, played, n);
    cr_expect_gt(e->generate(s, mv, e->max_moves, NULL), 0, "the root itself is not a draw");

    /* A repetition of a position inside the search, not the root. */
    n = play_line(e, s, "g1f3 b8c6 f3g1 c6b8 g1f3", played);
    cr_expect_eq(e->generate(s, mv, e->max_moves, NULL), 0, "after Nf3 again: a draw");
    undo_line(e, s, played, n);
    gts_games_free(e, s);

    /* The start position occurred once before the root (ply 0): going back
     * to it is its second occurrence, not a draw; a third one is. */
    s = chess("startpos moves g1f3");
    n = play_line(e, s, "g8f6 f3g1 f6g8", played);
    cr_expect_gt(e->generate(s, mv, e->max_moves, NULL), 0, "seen once before the root");
    undo_line(e, s, played, n);
    gts_games_free(e, s);
    s = chess("startpos moves g1f3 g8f6 f3g1 f6g8 g1f3");
    n = play_line(e, s, "g8f6 f3g1 f6g8", played);
    cr_expect_eq(e->generate(s, mv, e->max_moves, NULL), 0, "third occurrence");
    undo_line(e, s, played, n);

    /* gts_chess_set_root moves the root to the current position. */
    n = play_line(e, s, "g8f6 f3g1", played);
    cr_assert_eq(gts_chess_set_root(s), GTS_OK);
    int m = play_line(e, s, "f6g8 g1f3 g8f6 f3g1", played + n);
    cr_expect_eq(e->generate(s, mv, e->max_moves, NULL), 0, "the new root repeated");
    gts_games_free(e, s);
    cr_expect_eq(gts_chess_set_root(NULL), GTS_EINVAL);
    (void)m;
}

Test(chess, insufficient_material_scores_zero)
{
    void *s = chess("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    cr_expect_eq(gts_game_chess()->evaluate(s, NULL), 0);
    gts_games_free(gts_game_chess(), s);
    s = chess("4k3/8/8/8/8/8/8/2R1K3 w - - 0 1");
    cr_expect_gt(gts_game_chess()->evaluate(s, NULL), 300);
    gts_games_free(gts_game_chess(), s);
}

/* ---- keys ------------------------------------------------------------------ */

Test(chess, zobrist_is_incremental_and_positional)
{
    const gts_game *g = gts_game_chess();
    void *a = chess("startpos moves g1f3 g8f6 b1c3");
    void *b = chess("startpos moves b1c3 g8f6 g1f3");
    void *c = chess("rnbqkb1r/pppppppp/5n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R b KQkq - 3 2");
    cr_expect_eq(g->hash(a, NULL), g->hash(b, NULL), "two move orders, one position");
    cr_expect_eq(g->hash(a, NULL), g->hash(c, NULL), "incremental key == key from the FEN");
    gts_games_free(g, a);
    gts_games_free(g, b);
    gts_games_free(g, c);
    /* e3 is no en-passant square that matters: no black pawn can take. */
    a = chess("startpos moves e2e4");
    b = chess("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    c = chess("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    cr_expect_eq(g->hash(a, NULL), g->hash(b, NULL));
    cr_expect_eq(g->hash(a, NULL), g->hash(c, NULL));
    gts_games_free(g, a);
    gts_games_free(g, b);
    gts_games_free(g, c);
    /* ...but one that can be taken is part of the position. */
    a = chess("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1 moves e2e4");
    b = chess("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
    cr_expect_neq(g->hash(a, NULL), g->hash(b, NULL));
    cr_expect(has_move(a, "d4e3") && !has_move(b, "d4e3"));
    gts_games_free(g, a);
    gts_games_free(g, b);
    /* castling rights are part of the position */
    a = chess("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    b = chess("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1");
    cr_expect_neq(g->hash(a, NULL), g->hash(b, NULL));
    gts_games_free(g, a);
    gts_games_free(g, b);
}

/* ---- null move (gts_game::null_apply / null_undo) -------------------------- */

/* The key after a pass equals the key of the same placement with the other
 * side to move, read from a FEN (an independent way to the same key). */
static void expect_pass(const char *from, const char *after)
{
    const gts_game *g = gts_game_chess_engine();
    void *s = chess(from), *t = chess(after);
    uint64_t before = g->hash(s, NULL);
    cr_assert_eq(g->null_apply(s, NULL), 1, "%s: the pass is allowed", from);
    cr_expect_eq(g->hash(s, NULL), g->hash(t, NULL), "%s: after a pass, the key of %s", from,
                 after);
    gts_move a[256], b[256];
    int na = g->generate(s, a, g->max_moves, NULL), nb = g->generate(t, b, g->max_moves, NULL);
    cr_expect_eq(na, nb, "%s: the other side's moves after a pass", from);
    cr_expect_eq(g->undo(s, a[0], NULL), GTS_EINVAL, "undo() does not take back a pass");
    cr_assert_eq(g->null_undo(s, NULL), 0);
    cr_expect_eq(g->hash(s, NULL), before, "null_undo restores the key");
    cr_expect_eq(g->null_undo(s, NULL), GTS_EINVAL, "no pass left to take back");
    gts_games_free(g, s);
    gts_games_free(g, t);
}

static void expect_no_pass(const char *fen, const char *why)
{
    const gts_game *g = gts_game_chess_engine();
    void *s = chess(fen);
    uint64_t before = g->hash(s, NULL);
    cr_expect_eq(g->null_apply(s, NULL), 0, "%s: %s", fen, why);
    cr_expect_eq(g->hash(s, NULL), before, "a refused pass changes nothing");
    gts_games_free(g, s);
}

Test(chess, null_move_passes_and_is_refused_where_it_must)
{
    expect_pass(START, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    /* The en-passant capture on f6 is lost by passing. */
    expect_pass("startpos moves e2e4 d7d5 e4e5 f7f5",
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
    expect_pass("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1",
                "4k3/pppp4/8/8/8/8/PPPP4/1N2K3 b - - 0 1");
    expect_no_pass("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "in check");
    expect_no_pass("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", "only king and pawns");
    expect_no_pass("1n2k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", "only king and pawns (ours)");
    /* The engine's pass is refused under a king attack (queen, knight and
     * bishop on h7), where the rules' vtable passes. */
    const char *attacked = "r5k1/5ppp/8/6NQ/8/3B4/8/6K1 b - - 0 1";
    expect_no_pass(attacked, "the king is under attack");
    void *a = chess(attacked);
    cr_expect_eq(gts_game_chess()->null_apply(a, NULL), 1, "the rules' vtable passes");
    cr_expect_eq(gts_game_chess()->null_undo(a, NULL), 0);
    gts_games_free(gts_game_chess(), a);
    expect_pass("r5k1/5ppp/8/7Q/8/8/8/6K1 b - - 0 1", "r5k1/5ppp/8/7Q/8/8/8/6K1 w - - 0 1");

    /* null_undo does not take back a real move; a pass on top of a line
     * with a repetition before the root leaves a position with moves. */
    const gts_game *g = gts_game_chess_engine();
    void *s = chess("startpos moves g1f3 g8f6 f3g1");
    gts_move m;
    cr_assert_eq(g->parse_move(s, "f6g8", &m, NULL), 0);
    cr_assert_eq(g->apply(s, m, NULL), 0);
    cr_expect_eq(g->null_undo(s, NULL), GTS_EINVAL);
    cr_assert_eq(g->null_apply(s, NULL), 1);
    gts_move mv[256];
    cr_expect_gt(g->generate(s, mv, g->max_moves, NULL), 0, "moves after the pass");
    cr_assert_eq(g->null_undo(s, NULL), 0);
    cr_assert_eq(g->undo(s, m, NULL), 0);
    gts_games_free(g, s);

    cr_expect(gts_game_chess_engine()->traits & GTS_TRAIT_REPETITION_DRAW);
    cr_expect_not(gts_game_chess()->traits & GTS_TRAIT_REPETITION_DRAW,
                  "the rules' vtable keeps the threefold rule only");
}

/* ---- position text --------------------------------------------------------- */

Test(chess, bad_positions_refused)
{
    static const char *const bad[] = {
        "xyz",
        "8/8/8/8/8/8/8/8 w - - 0 1",                                   /* no kings */
        "4k3/8/8/8/8/8/8/4KK2 w - - 0 1",                              /* two white kings */
        "4k3/8/8/8/8/8/8/8 w - - 0 1",                                 /* no white king */
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",                              /* pawn on rank 8 */
        "4k3/8/8/8/8/8/8/p3K3 w - - 0 1",                              /* pawn on rank 1 */
        "4k3/8/8/8/8/8/8/4K2R b K - 0 1 extra",                        /* 7 fields */
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",                               /* side */
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",                             /* black in check, white to move */
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",                               /* castling without rook */
        "4k3/8/8/8/8/8/8/3K3R w K - 0 1",                              /* castling without king at home */
        "4k3/8/8/8/8/8/8/4K2R w KK - 0 1",                             /* repeated right */
        "4k3/8/8/8/8/8/8/4K2R w X - 0 1",                              /* bad letter */
        "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",                              /* e.p. with white to move on rank 3 */
        "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",                              /* e.p. without the pawn */
        "4k3/8/8/8/8/8/8/4K3 w - z9 0 1",                              /* not a square */
        "4k3/8/8/8/8/8/8/4K3 w - - -1 1",                              /* halfmove */
        "4k3/8/8/8/8/8/8/4K3 w - - 0 0",                               /* fullmove */
        "4k3/8/8/8/8/8/8/4K3 w - - x 1",
        "4k3/8/8/8/8/8/8/4K4 w - - 0 1",                               /* 9 files */
        "4k3/8/8/8/8/8/8/4K2 w - - 0 1",                               /* 7 files */
        "4k3/8/8/8/8/8/8 w - - 0 1",                                   /* 7 ranks */
        "4k3/8/8/8/8/8/8/8/4K3 w - - 0 1",                             /* 9 ranks */
        "QQQQQQQQ/QQk5/8/8/8/8/8/4K3 w - - 0 1",                       /* 9 queens */
        "startpos moves e2e5",                                         /* illegal move */
        "startpos moves e2e4 e2e4",
        "startpos moves e7e5",                                         /* black's move first */
        "startpos moves e2e4 x",
        "startpos e2e4",
        "moves e2e4",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        void *s = (void *)1;
        cr_expect_eq(gts_chess_new(bad[i], &s), GTS_EPARSE, "refuse \"%s\"", bad[i]);
        cr_expect_null(s, "no state for \"%s\"", bad[i]);
    }
    cr_expect_eq(gts_chess_new(START, NULL), GTS_EINVAL);
}

Test(chess, good_positions_accepted)
{
    static const char *const good[] = {
        "", "startpos", "startpos moves", "startpos moves e2e4 e7e5 g1f3",
        "4k3/8/8/8/8/8/8/4K3 w - -",                                   /* counters omitted */
        "4k3/8/8/8/8/8/8/4K3 b - - 12",
        "  4k3/8/8/8/8/8/8/4K3   w  -  -  0  1  ",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", /* e.p. */
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        void *s = NULL;
        cr_expect_eq(gts_chess_new(good[i], &s), GTS_OK, "accept \"%s\"", good[i]);
        gts_games_free(gts_game_chess(), s);
    }
}

/* A byte-level fuzz of the FEN parser: random mutations of real FENs never
 * crash (ASan and UBSan builds run this too), and whatever is accepted
 * generates moves whose text parses back. */
Test(chess, fen_fuzz)
{
    static const char *const seeds[] = { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                         "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                                         "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1" };
    static const char alphabet[] = "pnbrqkPNBRQK12345678/ -wbKQkqabcdefgh0moves\t";
    uint64_t x = 42;
    const gts_game *g = gts_game_chess();
    for (int iter = 0; iter < 5000; iter++) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", seeds[iter % 3]);
        size_t len = strlen(buf);
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int edits = 1 + (int)((x >> 33) % 3);
        for (int e = 0; e < edits; e++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            size_t at = (size_t)((x >> 20) % len);
            char c = alphabet[(x >> 40) % (sizeof alphabet - 1)];
            if ((x >> 60) & 1)
                buf[at] = c;
            else if ((x >> 61) & 1 && len > 1)
                memmove(buf + at, buf + at + 1, len - at), len--;
            else if (len + 1 < sizeof buf)
                memmove(buf + at + 1, buf + at, len - at + 1), buf[at] = c, len++;
        }
        void *s = NULL;
        if (gts_chess_new(buf, &s) != GTS_OK)
            continue;
        gts_move mv[256];
        int n = g->generate(s, mv, g->max_moves, NULL);
        cr_assert(n >= 0 && n <= 256, "\"%s\": generate returned %d", buf, n);
        for (int i = 0; i < n; i++) {
            char text[8];
            gts_move back;
            cr_assert_gt(g->format_move(s, mv[i], text, sizeof text, NULL), 0);
            cr_assert_eq(g->parse_move(s, text, &back, NULL), 0, "\"%s\": %s", buf, text);
            cr_assert_eq(back, mv[i]);
        }
        gts_games_free(g, s);
    }
}

/* ---- search ------------------------------------------------------------- */

static gts_result search(const char *fen, gts_algorithm alg, int depth, int threads)
{
    gts_engine *e = NULL;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, threads), GTS_OK);
    void *s = chess(fen);
    gts_limits lim = { .struct_size = sizeof lim, .depth = depth };
    gts_result r = { .struct_size = sizeof r };
    cr_assert_eq(gts_search(e, alg, gts_game_chess(), s, &lim, &r), GTS_OK);
    gts_games_free(gts_game_chess(), s);
    gts_engine_free(e);
    return r;
}

static void expect_best(const char *fen, const gts_result *r, const char *want)
{
    char text[8];
    void *s = chess(fen);
    gts_game_chess()->format_move(s, r->best_move, text, sizeof text, NULL);
    cr_expect_str_eq(text, want, "%s: best move", fen);
    gts_games_free(gts_game_chess(), s);
}

Test(chess, finds_mates)
{
    /* Mate in 1 (scholar's mate): WIN - 1 for the side to move. */
    const char *m1 = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    gts_result r = search(m1, GTS_ALG_PVS, 3, 1);
    cr_expect_eq(r.score, GTS_SCORE_WIN - 1, "mate in 1 scores WIN - 1, got %d", r.score);
    expect_best(m1, &r, "h5f7");
    /* Mate in 2 (back rank after a queen sacrifice): WIN - 3. */
    const char *m2 = "6k1/5ppp/8/8/8/8/1Q3PPP/3R2K1 w - - 0 1";
    r = search(m2, GTS_ALG_PVS, 4, 1);
    cr_expect(r.score >= GTS_SCORE_WIN - 3, "mate in 2 or faster, got %d", r.score);
    /* A mated root: no move, the loss itself. */
    r = search("startpos moves f2f3 e7e5 g2g4 d8h4", GTS_ALG_ALPHABETA, 2, 1);
    cr_expect_eq(r.flags & GTS_RESULT_HAS_MOVE, 0, "a mated root has no move");
    cr_expect_eq(r.score, GTS_SCORE_LOSS);
    /* Being mated in 1: LOSS + 2 (the opponent mates on the second ply). */
    r = search("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4 moves a2a3 a7a6",
               GTS_ALG_PVS, 3, 1);
    cr_expect_eq(r.score, GTS_SCORE_WIN - 1);
}

Test(chess, parallel_agrees_with_serial)
{
    gts_result a = search(POS3, GTS_ALG_PVS, 4, 1);
    gts_result b = search(POS3, GTS_ALG_YBWC, 4, 2);
    gts_result c = search(POS3, GTS_ALG_MINIMAX, 4, 1);
    cr_expect_eq(a.score, c.score, "pvs %d, minimax %d", a.score, c.score);
    cr_expect_eq(b.score, c.score, "ybwc/2 %d, minimax %d", b.score, c.score);
}

Test(chess, wins_material)
{
    /* A hanging queen: take it. */
    const char *fen = "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1";
    gts_result r = search(fen, GTS_ALG_PVS, 3, 1);
    expect_best(fen, &r, "d2d5");
    cr_expect_gt(r.score, 300);
}

/* ---- the engine's evaluation and quiescence (gts_game_chess_engine) ------ */

/* The colour-flipped mirror of a FEN: ranks in reverse order, colours and
 * the side to move swapped, castling rights and en passant mirrored. */
static void mirror_fen(const char *fen, char *out, size_t size)
{
    char place[100], side[4], castle[8], ep[4], half[8] = "0", full[8] = "1";
    int n = sscanf(fen, "%99s %3s %7s %3s %7s %7s", place, side, castle, ep, half, full);
    cr_assert(n >= 4, "bad FEN %s", fen);
    char ranks[8][16];
    int r = 0;
    for (char *tok = strtok(place, "/"); tok && r < 8; tok = strtok(NULL, "/"))
        snprintf(ranks[r++], sizeof ranks[0], "%s", tok);
    cr_assert_eq(r, 8);
    char flipped[100] = "";
    for (int i = 7; i >= 0; i--) {
        for (char *p = ranks[i]; *p; p++)
            *p = (char)(isupper((unsigned char)*p) ? tolower((unsigned char)*p)
                                                   : toupper((unsigned char)*p));
        strcat(flipped, ranks[i]);
        if (i)
            strcat(flipped, "/");
    }
    for (char *p = castle; *p && *p != '-'; p++)
        *p = (char)(isupper((unsigned char)*p) ? tolower((unsigned char)*p)
                                               : toupper((unsigned char)*p));
    if (ep[0] != '-')
        ep[1] = (char)('1' + '8' - ep[1]);
    snprintf(out, size, "%s %s %s %s %s %s", flipped, side[0] == 'w' ? "b" : "w", castle, ep, half,
             full);
}

static gts_move mirror_move(gts_move m)
{
    return ((m & 63) ^ 56) | ((m >> 6 & 63) ^ 56) << 6 | (m >> 12) << 12;
}

Test(chess, engine_evaluation_is_colour_symmetric)
{
    /* A position and its colour-flipped mirror score the same for the side
     * to move, along random games from positions of every phase. */
    const gts_game *e = gts_game_chess_engine();
    static const char *const fens[] = {
        START, KIWIPETE, POS3, POS4, POS5, POS6,
        "8/8/4k3/8/2p5/8/B2P4/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        "8/5pk1/6p1/3P4/1p6/1P3KP1/8/8 b - - 0 40",
    };
    uint64_t rng = 12345;
    int compared = 0, nonzero = 0;
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        char mirrored[160];
        mirror_fen(fens[i], mirrored, sizeof mirrored);
        for (int walk = 0; walk < 4; walk++) {
            void *a = chess(fens[i]), *b = chess(mirrored);
            for (int ply = 0; ply < 40; ply++) {
                gts_score va = e->evaluate(a, NULL), vb = e->evaluate(b, NULL);
                cr_expect_eq(va, vb, "%s + %d plies: %d, mirrored %d", fens[i], ply, va, vb);
                cr_expect_eq(e->evaluate(a, NULL), va, "evaluate() is deterministic");
                cr_expect(va == GTS_SCORE_LOSS || (va > -10000 && va < 10000),
                          "%s: score %d out of range", fens[i], va);
                compared++;
                nonzero += va != 0;
                gts_move mv[256], mw[256];
                int n = e->generate(a, mv, 256, NULL), nb = e->generate(b, mw, 256, NULL);
                cr_assert_eq(n, nb, "the mirror has as many moves");
                if (n == 0)
                    break;
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                gts_move m = mv[(rng >> 33) % (uint64_t)n];
                cr_assert_eq(e->apply(a, m, NULL), 0);
                cr_assert_eq(e->apply(b, mirror_move(m), NULL), 0);
            }
            gts_games_free(e, a);
            gts_games_free(e, b);
        }
    }
    cr_expect_gt(nonzero, compared / 2, "most positions score something");
}

Test(chess, engine_evaluation_knows_chess)
{
    /* Each term of the evaluation, on two positions of the same material
     * that differ by that term (white to move, so the scores are white's). */
    const gts_game *e = gts_game_chess_engine();
    static const struct { const char *better, *worse, *why; } pairs[] = {
        { "4k3/8/8/8/8/8/PP6/4K3 w - - 0 1", "4k3/8/8/8/8/P7/P7/4K3 w - - 0 1",
          "doubled, isolated pawns are weak" },
        { "4k3/p7/8/3P4/8/8/8/4K3 w - - 0 1", "4k3/2p5/8/3P4/8/8/8/4K3 w - - 0 1",
          "a passed pawn on the fifth rank is an asset" },
        { "4k3/8/8/8/8/8/P5P1/2R3K1 w - - 0 1", "4k3/8/8/8/8/8/P5P1/R5K1 w - - 0 1",
          "a rook belongs on an open file" },
        { "r2q2k1/5ppp/8/8/8/8/5PPP/R2Q2K1 w - - 0 1", "r2q2k1/5ppp/8/8/8/5PPP/8/R2Q2K1 w - - 0 1",
          "a middle-game king wants its pawn shield" },
        { "r5k1/5ppp/8/6NQ/8/8/5PPP/R5K1 w - - 0 1", "r5k1/5ppp/8/QN6/8/8/5PPP/R5K1 w - - 0 1",
          "queen and knight aimed at the king count" },
        { "7k/8/5K2/8/8/8/8/R7 w - - 0 1", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
          "a lone king belongs in the corner, the winning king near it" },
        { "4k3/p7/8/8/8/2N5/P7/4K3 w - - 0 1", "4k3/p7/8/8/8/8/P7/N3K3 w - - 0 1",
          "a knight in the centre beats one in the corner" },
        { "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1",
          "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
          "development (a knight out for each side, white's first)" },
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        void *a = chess(pairs[i].better), *b = chess(pairs[i].worse);
        gts_score va = e->evaluate(a, NULL), vb = e->evaluate(b, NULL);
        cr_expect_gt(va, vb, "%s: %s scores %d, %s %d", pairs[i].why, pairs[i].better, va,
                     pairs[i].worse, vb);
        gts_games_free(e, a);
        gts_games_free(e, b);
    }
}

Test(chess, engine_evaluate_sees_mates_and_generated_stalemates)
{
    const gts_game *e = gts_game_chess_engine();
    gts_move mv[256];
    void *s = chess("startpos moves f2f3 e7e5 g2g4 d8h4"); /* fool's mate */
    cr_expect_eq(e->evaluate(s, NULL), GTS_SCORE_LOSS, "in check, evaluate() finds the mate");
    gts_games_free(e, s);
    /* Out of check evaluate() makes no legal-move test: a stalemate is a
     * draw once generate() has found no move there, as the search asks. */
    s = chess("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    cr_expect_eq(e->generate(s, mv, 256, NULL), 0);
    cr_expect_eq(e->evaluate(s, NULL), 0, "a generated stalemate is a draw");
    gts_games_free(e, s);
    /* The mark is the position's: after a move and its undo it still holds,
     * and another position of the same ply does not inherit it. */
    s = chess("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    gts_move m;
    cr_assert_eq(e->parse_move(s, "f1f7", &m, NULL), 0);
    cr_assert_eq(e->apply(s, m, NULL), 0);
    cr_expect_eq(e->generate(s, mv, 256, NULL), 0);
    cr_expect_eq(e->evaluate(s, NULL), 0);
    cr_assert_eq(e->undo(s, m, NULL), 0);
    cr_assert_eq(e->parse_move(s, "f1f6", &m, NULL), 0);
    cr_assert_eq(e->apply(s, m, NULL), 0);
    cr_expect_lt(e->evaluate(s, NULL), -500, "not stalemate: black is a queen down");
    cr_assert_eq(e->undo(s, m, NULL), 0);
    gts_games_free(e, s);
}

/* ---- an exchange reference for the engine's quiescence moves ---------------
 * The best balance the side to move reaches by captures on one square, each
 * side free to stop, played with the adapter's legal moves on a board kept
 * here (positions without promotions, en passant or discovered checks, so
 * that this is what static exchange evaluation estimates). */

static const int EXCHANGE_VALUE[128] = { ['p'] = 100, ['n'] = 325, ['b'] = 325, ['r'] = 500,
                                         ['q'] = 1000, ['k'] = 20000 };

static void board_of_fen(const char *fen, char board[64])
{
    memset(board, 0, 64);
    int r = 7, f = 0;
    for (const char *p = fen; *p && *p != ' '; p++) {
        if (*p == '/') {
            r--;
            f = 0;
        } else if (isdigit((unsigned char)*p)) {
            f += *p - '0';
        } else {
            board[r * 8 + f++] = (char)tolower((unsigned char)*p);
        }
    }
}

static int exchange_on(void *s, char board[64], int sq)
{
    const gts_game *g = gts_game_chess();
    gts_move mv[256];
    int n = g->generate(s, mv, 256, NULL), best = 0;
    for (int i = 0; i < n; i++) {
        int from = (int)(mv[i] & 63), to = (int)(mv[i] >> 6 & 63);
        if (to != sq || !board[sq])
            continue;
        char victim = board[sq], mover = board[from];
        cr_assert_eq(g->apply(s, mv[i], NULL), 0);
        board[sq] = mover;
        board[from] = 0;
        int v = EXCHANGE_VALUE[(int)victim] - exchange_on(s, board, sq);
        board[from] = mover;
        board[sq] = victim;
        cr_assert_eq(g->undo(s, mv[i], NULL), 0);
        best = v > best ? v : best;
    }
    return best;
}

Test(chess, engine_quiescence_leaves_out_losing_captures)
{
    /* A capture is in the engine's noisy list exactly when the exchange it
     * starts does not lose material (x-rays, a king that may not recapture
     * a defended square, knight for bishop even). */
    static const char *const fens[] = {
        "4k3/8/2p5/3p4/8/5N2/3Q4/4K3 w - - 0 1",      /* Qxd5 loses the queen */
        "3r2k1/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1",     /* two rooks against two */
        "4k3/8/5n2/3p4/8/8/3R4/3RK3 w - - 0 1",       /* two rooks against a knight */
        "4k3/8/4p3/3p4/8/4N3/8/4K3 w - - 0 1",        /* Nxd5 exd5 */
        "4k3/8/2p5/3n4/8/5B2/8/4K3 w - - 0 1",        /* Bxd5 cxd5: even */
        "8/8/8/8/8/2k5/3p4/3QK3 w - - 0 1",           /* the king on c3 cannot take back */
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    };
    const gts_game *e = gts_game_chess_engine(), *g = gts_game_chess();
    int kept = 0, dropped = 0;
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        void *s = chess(fens[i]);
        char board[64];
        board_of_fen(fens[i], board);
        gts_move all[256], noisy[256];
        int n = g->generate_noisy(s, all, 256, NULL);
        int m = e->generate_noisy(s, noisy, 256, NULL);
        for (int k = 0; k < n; k++) {
            int from = (int)(all[k] & 63), to = (int)(all[k] >> 6 & 63);
            bool listed = false;
            for (int j = 0; j < m; j++)
                listed |= noisy[j] == all[k];
            char victim = board[to], mover = board[from];
            cr_assert_eq(g->apply(s, all[k], NULL), 0);
            board[to] = mover;
            board[from] = 0;
            int see = EXCHANGE_VALUE[(int)victim] - exchange_on(s, board, to);
            board[from] = mover;
            board[to] = victim;
            cr_assert_eq(g->undo(s, all[k], NULL), 0);
            cr_expect_eq(listed, see >= 0, "%s: capture %c%d-%c%d, exchange %d, %s", fens[i],
                         'a' + from % 8, from / 8 + 1, 'a' + to % 8, to / 8 + 1, see,
                         listed ? "listed" : "left out");
            kept += listed;
            dropped += !listed;
        }
        gts_games_free(e, s);
    }
    cr_expect_gt(dropped, 3, "some captures lose");
    cr_expect_gt(kept, 3, "some do not");
}

/* ---- the engine's evaluation: the same values, however it is computed ------
 * Random games (gts_game_chess()'s moves, so repetitions do not end them)
 * from positions of every phase, with promotions, en passant and castling
 * on the way, walked down and taken back move by move: eval_walk() calls
 * @p visit at every position on the way down and again on the way back. */

static const char *const EVAL_FENS[] = {
    START, KIWIPETE, POS3, POS4, POS4_MIRRORED, POS5, POS6,
    "8/8/4k3/8/2p5/8/B2P4/4K3 w - - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "8/5pk1/6p1/3P4/1p6/1P3KP1/8/8 b - - 0 40",
    "8/1P4k1/8/3pP3/8/8/5p2/2K5 w - d6 0 50",           /* en passant, promotions */
    "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 30",    /* promotions with captures */
    "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - b3 0 23",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
};

typedef void eval_visit(void *state, int ply, bool back, void *ctx);

static void eval_walk(const char *fen, uint64_t *rng, int plies, eval_visit *visit, void *ctx)
{
    const gts_game *g = gts_game_chess();
    void *s = chess(fen);
    gts_move line[128];
    int depth = 0;
    cr_assert(plies <= 128);
    for (; depth < plies; depth++) {
        visit(s, depth, false, ctx);
        gts_move mv[256];
        int n = g->generate(s, mv, 256, NULL);
        if (n == 0)
            break;
        *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
        line[depth] = mv[(*rng >> 33) % (uint64_t)n];
        cr_assert_eq(g->apply(s, line[depth], NULL), 0);
    }
    if (depth == plies)
        visit(s, depth, false, ctx);
    while (depth > 0) {
        depth--;
        cr_assert_eq(g->undo(s, line[depth], NULL), 0);
        visit(s, depth, true, ctx);
    }
    gts_games_free(g, s);
}

/* The fold of every value along the walks, and the values on the way down,
 * which the way back must meet again. */
typedef struct eval_fold {
    uint64_t fold, plain_fold; /* the engine's evaluate(), gts_game_chess()'s */
    int count;
    gts_score down[129];
} eval_fold;

static void fold_visit(void *s, int ply, bool back, void *ctx)
{
    eval_fold *f = ctx;
    gts_score v = gts_game_chess_engine()->evaluate(s, NULL);
    if (back) {
        cr_expect_eq(v, f->down[ply], "ply %d: %d after the undo, %d before", ply, v,
                     f->down[ply]);
        return;
    }
    f->down[ply] = v;
    f->fold = (f->fold ^ (uint32_t)v) * 0x100000001b3ull;
    gts_score plain = gts_game_chess()->evaluate(s, NULL);
    f->plain_fold = (f->plain_fold ^ (uint32_t)plain) * 0x100000001b3ull;
    f->count++;
}

Test(chess, engine_evaluation_values_are_fixed)
{
    /* The engine's evaluation of 1,000-odd positions, folded into one
     * number recorded when the evaluation was last changed on purpose (and
     * the same for gts_game_chess()'s plain evaluation): a
     * change of speed (a cache, a faster attack set) must leave every
     * value as it was; a change of value changes this number. */
    eval_fold f = { .fold = 0xcbf29ce484222325ull, .plain_fold = 0xcbf29ce484222325ull };
    uint64_t rng = 2026;
    for (size_t i = 0; i < sizeof EVAL_FENS / sizeof EVAL_FENS[0]; i++)
        for (int walk = 0; walk < 2; walk++)
            eval_walk(EVAL_FENS[i], &rng, 40, fold_visit, &f);
    cr_log_info("%d positions, fold 0x%016llx, plain 0x%016llx", f.count,
                (unsigned long long)f.fold, (unsigned long long)f.plain_fold);
    cr_expect_eq(f.count, 1148, "positions");
    cr_expect_eq(f.fold, 0xdf5c2040735b0679ull, "the fold of the values");
    cr_expect_eq(f.plain_fold, 0x708f505f4782d3b9ull, "the fold of gts_game_chess()'s values");
}

static void cache_visit(void *s, int ply, bool back, void *ctx)
{
    (void)back;
    int *compared = ctx;
    gts_score cached = gts_game_chess_engine()->evaluate(s, NULL);
    int reference = gts__chess_evaluate_uncached(s);
    cr_expect_eq(cached, reference, "ply %d: %d with the pawn table, %d without", ply, cached,
                 reference);
    (*compared)++;
}

Test(chess, engine_pawn_table_agrees_with_the_evaluation_without_it)
{
    /* The pawn table keeps what the pawns alone decide, looked up by a
     * pawn key that apply() and undo() keep up to date (captures of and by
     * pawns, promotions, en passant): along random games and back, the
     * same states evaluated with the table (which they fill and reuse:
     * every structure comes back on the way up) and without it agree. */
    uint64_t rng = 7;
    int compared = 0;
    for (size_t i = 0; i < sizeof EVAL_FENS / sizeof EVAL_FENS[0]; i++)
        for (int walk = 0; walk < 12; walk++)
            eval_walk(EVAL_FENS[i], &rng, 100, cache_visit, &compared);
    cr_expect_gt(compared, 10000, "%d positions compared", compared);
}

Test(chess, engine_clone_has_its_own_pawn_table)
{
    /* A clone evaluates like its original, with a table of its own (the
     * original's is not shared between threads, nor freed twice). */
    const gts_game *e = gts_game_chess_engine();
    void *s = chess(KIWIPETE);
    gts_score v = e->evaluate(s, NULL);
    void *copy = e->clone(s, NULL);
    cr_assert(copy);
    cr_expect_eq(e->evaluate(copy, NULL), v);
    gts_move mv[256];
    int n = e->generate(copy, mv, 256, NULL);
    for (int k = 0; k < n; k++) {
        cr_assert_eq(e->apply(copy, mv[k], NULL), 0);
        cr_expect_eq(e->evaluate(copy, NULL), gts__chess_evaluate_uncached(copy));
        cr_assert_eq(e->undo(copy, mv[k], NULL), 0);
    }
    gts_games_free(e, copy);
    cr_expect_eq(e->evaluate(s, NULL), v);
    gts_games_free(e, s);
}

static void extend_visit(void *s, int ply, bool back, void *ctx)
{
    (void)ply;
    if (back)
        return;
    const gts_game *g = gts_game_chess();
    int *checks = ctx;
    gts_move mv[256];
    int n = g->generate(s, mv, 256, NULL);
    for (int k = 0; k < n; k++) {
        int extend = g->extend(s, mv[k], NULL);
        cr_assert_eq(g->apply(s, mv[k], NULL), 0);
        bool check = gts__chess_in_check(s);
        cr_assert_eq(g->undo(s, mv[k], NULL), 0);
        cr_expect_eq(extend, check ? 1 : 0, "move %u: extend() %d, in check after it: %d",
                     (unsigned)mv[k], extend, check);
        checks[check]++;
    }
}

Test(chess, extend_is_exactly_the_checking_moves)
{
    /* extend() tells a checking move without playing it (direct checks,
     * discovered ones, promotions; castling and en passant are played):
     * every legal move along random games, against the position after it. */
    static const char *const more[] = {
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",           /* castling gives check */
        "8/8/8/KPp4r/8/8/8/4k2B w - c6 0 2",          /* en passant discovers check */
        "3k4/1P6/8/8/8/8/8/4K3 w - - 0 1",             /* promotions */
        "4k3/4n3/8/8/4R3/8/4B3/4K3 b - - 0 1",
    };
    uint64_t rng = 99;
    int checks[2] = { 0, 0 };
    for (size_t i = 0; i < sizeof EVAL_FENS / sizeof EVAL_FENS[0]; i++)
        for (int walk = 0; walk < 3; walk++)
            eval_walk(EVAL_FENS[i], &rng, 40, extend_visit, checks);
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        void *s = chess(more[i]);
        extend_visit(s, 0, false, checks);
        gts_games_free(gts_game_chess(), s);
    }
    cr_expect_gt(checks[1], 100, "%d checking moves", checks[1]);
    cr_expect_gt(checks[0], 10000, "%d others", checks[0]);
}
