/*
 * rivest_tempo - two measurements behind doc/results/bestfirst.md's reading of
 * Rivest's experiment (issue 29), on connect4h (examples/games/connect4h.c).
 *
 *   rivest_tempo parity < POSITIONS
 *       For each Connect-4 position (1-based columns, one a line), the
 *       alpha-beta value at depths 1..6 minus the static value, averaged:
 *       an odd/even swing says evaluate() is biased by the side to move,
 *       which a search comparing leaves of different depths (MMA) feels
 *       and a uniform-depth one (alpha-beta) does not.
 *
 *   rivest_tempo depth NODES < POSITIONS
 *       For each position, 1987-style alpha-beta's completed depth and
 *       MMA's principal variation length and seldepth at NODES move
 *       applications, averaged, and how often they chose the same move:
 *       how much deeper MMA's critical line goes than a full-width search.
 *
 *   rivest_tempo plies POSITION NODES P_TENTHS
 *       One MMA search of connect4h from POSITION with NODES move
 *       applications at p = P_TENTHS / 10: the generate() calls (node
 *       expansions) at each ply below the root. Breadth-first shows as
 *       7, 49, 343, ... whatever p is.
 *
 *   rivest_tempo match NODES TEMPO [P_TENTHS [HINT]]
 *       MMA (reverse approximation, p = P_TENTHS / 10, default 100) against
 *       1987-style alpha-beta (no table, killers or history; iterative
 *       deepening), NODES move applications per move each, from the 49
 *       two-ply openings with the colours swapped (98 games), both on
 *       connect4h whose evaluate() of an unfinished position gets TEMPO
 *       added (from the side to move). TEMPO 0 is `gts match`'s game.
 *       HINT 0 takes the game's move-ordering hint away (move_score and
 *       generate_keyed: alpha-beta then tries the moves in generate()'s
 *       centre-first order; MMA does not order). Default 1.
 *       Deterministic. Prints MMA's wins, losses and draws.
 *
 * A measurement program (not installed); it uses the public API only.
 */
#include <gts/gts.h>
#include "gts_games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gts_score tempo_bonus;
static const gts_game *base_game;

/* connect4h's evaluate() plus the tempo for an unfinished position. */
static gts_score tempo_evaluate(void *state, void *user)
{
    gts_score v = base_game->evaluate(state, user);
    if (v == GTS_SCORE_INVALID || v <= -GTS_SCORE_DECIDED || v >= GTS_SCORE_DECIDED)
        return v;
    gts_move m[8];
    if (base_game->generate(state, m, 8, user) == 0)
        return v; /* a full board */
    return v + tempo_bonus;
}

static int parity(void)
{
    const gts_game *g = gts_game_connect4h();
    gts_engine *e;
    if (gts_engine_new(&e) != GTS_OK)
        return 1;
    char line[128];
    int n = 0;
    double sum[7] = {0};
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        void *s;
        if (gts_connect4_new(line, &s) != GTS_OK)
            continue;
        gts_score e0 = g->evaluate(s, g->user);
        double v[7];
        bool ok = e0 > -20000 && e0 < 20000;
        for (int d = 1; ok && d <= 6; d++) {
            gts_limits l = {.struct_size = sizeof l, .depth = d};
            gts_result r = {.struct_size = sizeof r};
            if (gts_search(e, GTS_ALG_ALPHABETA, g, s, &l, &r) != GTS_OK || r.score > 20000
                || r.score < -20000)
                ok = false; /* decided within the horizon: not a heuristic value */
            v[d] = (double)r.score - e0;
        }
        if (ok) {
            for (int d = 1; d <= 6; d++)
                sum[d] += v[d];
            n++;
        }
        gts_games_free(g, s);
    }
    printf("%d positions; mean (depth-d alpha-beta value - static value):", n);
    for (int d = 1; d <= 6; d++)
        printf(" d%d %+.0f", d, n ? sum[d] / n : 0.0);
    printf("\n");
    gts_engine_free(e);
    return 0;
}

static void ab87(gts_engine *ab)
{
    gts_engine_set(ab, GTS_OPT_TT_MB, 0);
    gts_engine_set(ab, GTS_OPT_KILLERS, 0);
    gts_engine_set(ab, GTS_OPT_HISTORY, 0);
}

static int depth(uint64_t nodes)
{
    const gts_game *g = gts_game_connect4h();
    gts_engine *ab, *mm;
    if (gts_engine_new(&ab) != GTS_OK || gts_engine_new(&mm) != GTS_OK)
        return 1;
    ab87(ab);
    char line[128];
    int n = 0;
    double abd = 0, pv = 0, sel = 0, same = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        void *s;
        if (gts_connect4_new(line, &s) != GTS_OK)
            continue;
        gts_limits l = {.struct_size = sizeof l, .nodes = nodes};
        gts_result a = {.struct_size = sizeof a}, m = {.struct_size = sizeof m};
        if (gts_search(ab, GTS_ALG_ALPHABETA, g, s, &l, &a) == GTS_OK
            && gts_search(mm, GTS_ALG_MMA, g, s, &l, &m) == GTS_OK
            && (a.flags & m.flags & GTS_RESULT_HAS_MOVE)) {
            abd += a.depth;
            pv += m.pv_length;
            sel += m.seldepth;
            same += a.best_move == m.best_move;
            n++;
        }
        gts_games_free(g, s);
    }
    if (n == 0)
        return 1;
    printf("nodes %llu, %d positions: AB87 depth %.2f; MMA PV %.2f, seldepth %.2f; "
           "same move %.0f%%\n", (unsigned long long)nodes, n, abd / n, pv / n, sel / n,
           100 * same / n);
    gts_engine_free(ab);
    gts_engine_free(mm);
    return 0;
}

static int walk_ply;
static uint64_t expansions[GTS_MAX_PLY + 1];

static int count_generate(void *state, gts_move *moves, uint32_t cap, void *user)
{
    expansions[walk_ply]++;
    return base_game->generate(state, moves, cap, user);
}

static int count_apply(void *state, gts_move m, void *user)
{
    int rc = base_game->apply(state, m, user);
    if (rc >= 0)
        walk_ply++;
    return rc;
}

static int count_undo(void *state, gts_move m, void *user)
{
    int rc = base_game->undo(state, m, user);
    if (rc >= 0)
        walk_ply--;
    return rc;
}

static int plies(const char *position, uint64_t nodes, int p)
{
    base_game = gts_game_connect4h();
    gts_game g = *base_game;
    g.generate = count_generate;
    g.apply = count_apply;
    g.undo = count_undo;
    g.generate_keyed = NULL; /* every expansion goes through generate() */
    gts_engine *e;
    void *s;
    if (gts_engine_new(&e) != GTS_OK || gts_engine_set(e, GTS_OPT_MMA_P, p) != GTS_OK
        || gts_connect4_new(position, &s) != GTS_OK)
        return 1;
    gts_limits l = {.struct_size = sizeof l, .nodes = nodes};
    gts_result r = {.struct_size = sizeof r};
    if (gts_search(e, GTS_ALG_MMA, &g, s, &l, &r) != GTS_OK)
        return 1;
    printf("%s, %llu nodes, p %d: generate() calls by ply below the root:", position,
           (unsigned long long)nodes, p);
    for (int k = 0; k <= GTS_MAX_PLY; k++)
        if (expansions[k])
            printf(" %d:%llu", k, (unsigned long long)expansions[k]);
    printf("; PV %u, seldepth %d\n", r.pv_length, r.seldepth);
    gts_games_free(base_game, s);
    gts_engine_free(e);
    return 0;
}

/* One game from @opening, @first (0: MMA, 1: alpha-beta) moving first
 * after it: 1 MMA won, -1 lost, 0 draw; 2 on an error. */
static int play(const gts_game *g, gts_engine *mma, gts_engine *ab, const char *opening,
                int first, uint64_t nodes)
{
    void *s;
    if (gts_connect4_new(opening, &s) != GTS_OK)
        return 2;
    int result = 2;
    for (int ply = 0;; ply++) {
        gts_move m[8];
        if (g->generate(s, m, 8, g->user) == 0) {
            /* over: the side to move lost (a four) or the board is full */
            gts_score v = base_game->evaluate(s, g->user);
            int mover_is_mma = (ply % 2 == 0) == (first == 0);
            result = v < 0 ? (mover_is_mma ? -1 : 1) : 0;
            break;
        }
        int mma_moves = (ply % 2 == 0) == (first == 0);
        gts_limits l = {.struct_size = sizeof l, .nodes = nodes};
        gts_result r = {.struct_size = sizeof r};
        gts_status rc = gts_search(mma_moves ? mma : ab, mma_moves ? GTS_ALG_MMA
                                                                   : GTS_ALG_ALPHABETA,
                                   g, s, &l, &r);
        if (rc != GTS_OK || !(r.flags & GTS_RESULT_HAS_MOVE) || g->apply(s, r.best_move, g->user))
            break;
    }
    gts_games_free(base_game, s);
    return result;
}

static int match(uint64_t nodes, int tempo, int p, int hint)
{
    base_game = gts_game_connect4h();
    tempo_bonus = tempo;
    gts_game g = *base_game;
    g.evaluate = tempo_evaluate;
    if (!hint) {
        g.move_score = NULL;
        g.generate_keyed = NULL;
    }
    gts_engine *mma, *ab;
    if (gts_engine_new(&mma) != GTS_OK || gts_engine_new(&ab) != GTS_OK)
        return 1;
    if (gts_engine_set(mma, GTS_OPT_MMA_P, p) != GTS_OK)
        return 1;
    ab87(ab);
    int w = 0, l = 0, d = 0;
    for (int a = 1; a <= 7; a++)
        for (int b = 1; b <= 7; b++)
            for (int first = 0; first < 2; first++) {
                char opening[3] = {(char)('0' + a), (char)('0' + b), 0};
                int res = play(&g, mma, ab, opening, first, nodes);
                if (res == 2) {
                    fprintf(stderr, "rivest_tempo: a search failed\n");
                    return 1;
                }
                w += res == 1;
                l += res == -1;
                d += res == 0;
            }
    printf("nodes %llu tempo %d p %d hint %d: MMA %d wins, AB87 %d wins, %d draws\n",
           (unsigned long long)nodes, tempo, p, hint, w, l, d);
    gts_engine_free(mma);
    gts_engine_free(ab);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "parity") == 0)
        return parity();
    if (argc == 5 && strcmp(argv[1], "plies") == 0)
        return plies(argv[2], strtoull(argv[3], NULL, 10), atoi(argv[4]));
    if (argc == 3 && strcmp(argv[1], "depth") == 0)
        return depth(strtoull(argv[2], NULL, 10));
    if (argc >= 4 && argc <= 6 && strcmp(argv[1], "match") == 0)
        return match(strtoull(argv[2], NULL, 10), atoi(argv[3]), argc >= 5 ? atoi(argv[4]) : 100,
                     argc == 6 ? atoi(argv[5]) : 1);
    fprintf(stderr, "usage: rivest_tempo parity < POSITIONS\n"
                    "       rivest_tempo depth NODES < POSITIONS\n"
                    "       rivest_tempo plies POSITION NODES P_TENTHS\n"
                    "       rivest_tempo match NODES TEMPO [P_TENTHS [HINT]]\n");
    return 2;
}
