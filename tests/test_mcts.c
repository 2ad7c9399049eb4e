/*
 * Monte-Carlo tree search (gts_mcts, lib/search/mcts.c): play quality
 * against exact values, the solver, determinism, memory budget, limits,
 * stop, failures, root statistics, priors and both parallel modes.
 *
 * Nothing here measures time: limits are checked by their flags, quality
 * by a plain negamax written in this file.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "fixture.h"

/* ---- helpers ------------------------------------------------------------------ */

static gts_engine *engine(int threads, int64_t playouts)
{
    gts_engine *e;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, threads), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, playouts), GTS_OK);
    return e;
}

static gts_result mcts(gts_engine *e, const gts_game *g, void *s, const gts_limits *l)
{
    gts_result r = {.struct_size = sizeof r};
    int rc = gts_mcts(e, g, s, l, &r);
    cr_assert_eq(rc, GTS_OK, "gts_mcts: %s", gts_status_name(rc));
    return r;
}

static int root_stats(gts_engine *e, gts_mcts_move_stats *st, int cap)
{
    st[0].struct_size = sizeof st[0];
    int n = gts_mcts_root_stats(e, st, cap);
    cr_assert(n >= 0 && n <= cap, "root stats: %d", n);
    return n;
}

static uint64_t visits_sum(gts_engine *e)
{
    int n = gts_mcts_root_stats(e, NULL, 0);
    cr_assert(n > 0);
    gts_mcts_move_stats *st = calloc((size_t)n, sizeof *st);
    cr_assert_not_null(st);
    cr_assert_eq(root_stats(e, st, n), n);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += st[i].visits;
    free(st);
    return sum;
}

/* Value of root move @m (from the root), to @depth. */
static gts_score move_value(const gts_game *v, void *s, gts_move m, int depth)
{
    cr_assert_eq(v->apply(s, m, v->user), 0);
    gts_score x = -fx_negamax(v, s, depth - 1, 1);
    cr_assert_eq(v->undo(s, m, v->user), 0);
    return x;
}

/* ---- tic-tac-toe: every reachable position ------------------------------------ */

typedef struct ttt_ctx {
    const gts_game *g;
    uint64_t seen[16384];
    int8_t value[16384]; /* memo of outcomes: -1, 0, 1 from the side to move */
    uint8_t known[16384];
    gts_engine *e[2];
    int positions, only_moves, wins;
} ttt_ctx;

static int slot(const uint64_t *keys, const uint8_t *used, uint64_t k)
{
    uint32_t i = (uint32_t)(k * UINT64_C(0x9e3779b97f4a7c15) >> 50);
    while (used[i] && keys[i] != k)
        i = (i + 1) & 16383;
    return (int)i;
}

/* Game outcome for the side to move: -1 loss, 0 draw, 1 win. */
static int ttt_outcome(ttt_ctx *t, void *s)
{
    uint64_t k = t->g->hash(s, NULL);
    int i = slot(t->seen, t->known, k);
    if (t->known[i])
        return t->value[i];
    gts_move moves[9];
    int n = t->g->generate(s, moves, 9, NULL);
    int best;
    if (n == 0) {
        gts_score x = t->g->evaluate(s, NULL);
        best = x > 0 ? 1 : x < 0 ? -1 : 0;
    } else {
        best = -2;
        for (int j = 0; j < n; j++) {
            t->g->apply(s, moves[j], NULL);
            int x = -ttt_outcome(t, s);
            t->g->undo(s, moves[j], NULL);
            if (x > best)
                best = x;
        }
    }
    i = slot(t->seen, t->known, k);
    t->seen[i] = k;
    t->known[i] = 1;
    t->value[i] = (int8_t)best;
    return best;
}

static void ttt_check(ttt_ctx *t, void *s, uint64_t *visited, uint8_t *vused)
{
    uint64_t k = t->g->hash(s, NULL);
    int i = slot(visited, vused, k);
    if (vused[i])
        return;
    visited[i] = k;
    vused[i] = 1;
    gts_move moves[9];
    int n = t->g->generate(s, moves, 9, NULL);
    if (n == 0)
        return;
    int want = ttt_outcome(t, s), keeping = 0;
    for (int j = 0; j < n; j++) {
        t->g->apply(s, moves[j], NULL);
        keeping += -ttt_outcome(t, s) == want;
        t->g->undo(s, moves[j], NULL);
    }
    t->positions++;
    t->only_moves += keeping == 1;
    t->wins += want == 1;
    for (int threads = 1; threads <= 2; threads++) {
        gts_result r = mcts(t->e[threads - 1], t->g, s, NULL);
        cr_assert(r.flags & GTS_RESULT_HAS_MOVE);
        t->g->apply(s, r.best_move, NULL);
        int got = -ttt_outcome(t, s);
        t->g->undo(s, r.best_move, NULL);
        cr_assert_eq(got, want, "position %llx, %d threads: move %llu gives %d, the position %d",
                     (unsigned long long)k, threads, (unsigned long long)r.best_move, got, want);
        cr_assert_eq(t->g->hash(s, NULL), k, "state restored");
    }
    for (int j = 0; j < n; j++) {
        t->g->apply(s, moves[j], NULL);
        ttt_check(t, s, visited, vused);
        t->g->undo(s, moves[j], NULL);
    }
}

Test(mcts, tictactoe_every_position_never_a_losing_move, .timeout = 600)
{
    static ttt_ctx t;
    static uint64_t visited[16384];
    static uint8_t vused[16384];
    memset(&t, 0, sizeof t);
    t.g = gts_game_tictactoe();
    t.e[0] = engine(1, 20000);
    t.e[1] = engine(2, 20000);
    void *s;
    cr_assert_eq(gts_tictactoe_new("", &s), GTS_OK);
    ttt_check(&t, s, visited, vused);
    printf("# tic-tac-toe: %d positions, %d with a single move that keeps the value, %d won\n",
           t.positions, t.only_moves, t.wins);
    cr_assert_eq(t.positions, 4520, "every reachable unfinished position");
    cr_assert(t.only_moves > 100, "positions with only one good move were tested");
    gts_games_free(t.g, s);
    gts_engine_free(t.e[0]);
    gts_engine_free(t.e[1]);
}

Test(mcts, tictactoe_empty_board_solved_as_a_draw)
{
    gts_engine *e = engine(1, 0);
    void *s;
    cr_assert_eq(gts_tictactoe_new("", &s), GTS_OK);
    gts_result r = mcts(e, gts_game_tictactoe(), s, NULL);
    cr_assert_eq(r.score, 0, "tic-tac-toe is a draw");
    cr_assert_eq(r.depth, GTS_MAX_DEPTH, "proven: the depth of the value");
    cr_assert_eq(r.flags, GTS_RESULT_HAS_MOVE);
    gts_mcts_move_stats st[9];
    int n = root_stats(e, st, 9);
    cr_assert_eq(n, 9);
    for (int i = 0; i < n; i++) {
        cr_assert_eq(st[i].lower, 0, "every first move draws");
        cr_assert_eq(st[i].upper, 0);
    }
    gts_games_free(gts_game_tictactoe(), s);
    gts_engine_free(e);
}

/* ---- random trees: best move and convergence ------------------------------------- */

static uint64_t tree_size(const gts_game *g, void *s, int depth)
{
    uint64_t total = 0;
    for (int d = 0; d <= depth; d++) {
        uint64_t c;
        cr_assert_eq(gts_games_perft(g, s, d, &c), 0);
        total += c;
    }
    return total;
}

Test(mcts, random_trees_best_move_is_minimax_best, .timeout = 600)
{
    const gts_game *g = gts_game_randtree();
    gts_engine *e[2] = {engine(1, 0), engine(2, 0)};
    int trees = 0, solved = 0;
    for (int seed = 1; seed <= 320; seed++) {
        gts_randtree_params p = {.struct_size = sizeof p, .seed = (uint64_t)seed * 7919,
                                 .branching = 2 + (uint32_t)seed % 3, .depth = 3 + (uint32_t)seed % 3,
                                 .min_value = -1, .max_value = 1, .branching_jitter = 1};
        void *s = fx_randtree_new(&p);
        uint64_t size = tree_size(g, s, (int)p.depth);
        gts_engine *en = e[seed % 2];
        cr_assert_eq(gts_engine_set(en, GTS_OPT_MCTS_PLAYOUTS, (int64_t)(50 * size)), GTS_OK);
        cr_assert_eq(gts_engine_set(en, GTS_OPT_MCTS_SEED, seed), GTS_OK);
        gts_limits l = {.struct_size = sizeof l, .depth = (int32_t)p.depth};
        gts_result r = mcts(en, g, s, &l);
        gts_score want = fx_negamax(g, s, (int)p.depth, 0);
        cr_assert(r.flags & GTS_RESULT_HAS_MOVE);
        cr_assert_eq(move_value(g, s, r.best_move, (int)p.depth), want,
                     "tree %d (%llu nodes, %d threads): move %llu is not minimax-best", seed,
                     (unsigned long long)size, seed % 2 + 1, (unsigned long long)r.best_move);
        trees++;
        solved += r.depth == (int)p.depth && r.score == want;
        gts_games_free(g, s);
    }
    printf("# %d random trees, %d proven within 50 playouts per node\n", trees, solved);
    gts_engine_free(e[0]);
    gts_engine_free(e[1]);
}

/* The value approaches minimax as playouts grow (continuous leaves scored
 * through the logistic). Random playouts on random trees estimate badly
 * until the tree covers much of the game, so only the trend from a small
 * budget to 16 playouts per node is asserted, and the table is printed. */
Test(mcts, value_converges_toward_minimax, .timeout = 600)
{
    static const int64_t BUDGETS[] = {64, 256, 1024, 4096, 21840};
    enum { NB = 5, TREES = 24 };
    const gts_game *g = gts_game_randtree();
    gts_engine *e = engine(1, 0);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_EVAL_SCALE, 300), GTS_OK);
    double err[NB] = {0};
    int right[NB] = {0};
    for (int t = 0; t < TREES; t++) {
        /* 4^0 + ... + 4^6 = 5461 nodes */
        gts_randtree_params p = {.struct_size = sizeof p, .seed = 1000 + (uint64_t)t,
                                 .branching = 4, .depth = 6, .min_value = -600,
                                 .max_value = 600};
        void *s = fx_randtree_new(&p);
        gts_score want = fx_negamax(g, s, 6, 0);
        gts_move moves[4];
        gts_score val[4];
        int n = g->generate(s, moves, 4, g->user);
        for (int i = 0; i < n; i++)
            val[i] = move_value(g, s, moves[i], 6);
        for (int b = 0; b < NB; b++) {
            cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, BUDGETS[b]), GTS_OK);
            gts_limits l = {.struct_size = sizeof l, .depth = 6};
            gts_result r = mcts(e, g, s, &l);
            err[b] += abs(r.score - want);
            right[b] += val[r.best_move] == want;
        }
        gts_games_free(g, s);
    }
    printf("# mean |score - minimax| by budget:");
    for (int b = 0; b < NB; b++)
        printf(" %lld: %.1f (%d/%d best)", (long long)BUDGETS[b], err[b] / TREES, right[b], TREES);
    printf("\n");
    cr_assert(err[NB - 1] * 4 <= err[0], "the error shrinks at least 4-fold (%.1f -> %.1f)",
              err[0] / TREES, err[NB - 1] / TREES);
    cr_assert(err[NB - 1] <= err[NB - 2], "more playouts, no larger error");
    cr_assert(right[NB - 1] >= right[0] && right[NB - 1] * 10 >= TREES * 9,
              "a minimax-best move in 90%% of the trees at 4 playouts per node");
    gts_engine_free(e);
}

/* Without a budget the solver proves small trees: the exact depth-limited
 * value, every thread count and parallel mode. */
Test(mcts, proves_small_trees_exactly)
{
    for (int mode = GTS_MCTS_TREE; mode <= GTS_MCTS_ROOT; mode++)
        for (int threads = 1; threads <= 3; threads++) {
            gts_engine *e = engine(threads, 0);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PARALLEL, mode), GTS_OK);
            for (int seed = 1; seed <= 40; seed++) {
                tgame g, before;
                tgame_init(&g, (uint64_t)seed, 2 + seed % 3, 3 + seed % 3);
                g.win_leaves = seed % 2;
                before = g;
                gts_game v = tgame_vtable(&g, true);
                int depth = g.depth - seed % 2; /* also a horizon above the leaves */
                gts_limits l = {.struct_size = sizeof l, .depth = depth};
                gts_result r = mcts(e, &v, &g, &l);
                gts_score want = tgame_negamax(&g, &v, depth, 0);
                cr_assert_eq(r.score, want, "seed %d mode %d threads %d: %d != %d", seed, mode,
                             threads, r.score, want);
                cr_assert_eq(r.depth, depth);
                cr_assert_eq(move_value(&v, &g, r.best_move, depth), want,
                             "seed %d: the move proves the value", seed);
                cr_assert(memcmp(&g, &before, sizeof g) == 0, "state restored");
            }
            gts_engine_free(e);
        }
}

/* ---- Connect-4 ---------------------------------------------------------------------- */

static void *c4(const char *pos)
{
    void *s;
    cr_assert_eq(gts_connect4_new(pos, &s), GTS_OK, "position %s", pos);
    return s;
}

/* True when @m ends the game with a win for the side that plays it. */
static bool c4_wins_at_once(void *s, gts_move m)
{
    const gts_game *g = gts_game_connect4();
    gts_move moves[7];
    cr_assert_eq(g->apply(s, m, NULL), 0);
    bool over = g->generate(s, moves, 7, NULL) == 0 && g->evaluate(s, NULL) < 0;
    cr_assert_eq(g->undo(s, m, NULL), 0);
    return over;
}

Test(mcts, connect4_takes_an_immediate_win)
{
    static const char *const POS[] = {"445566", "121212", "334455", "776655", "112233",
                                      "565656"};
    for (int prior = 0; prior <= 1; prior++)
        for (int threads = 1; threads <= 2; threads++) {
            gts_engine *e = engine(threads, 2000);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PRIOR, prior * 100), GTS_OK);
            for (size_t i = 0; i < sizeof POS / sizeof POS[0]; i++) {
                void *s = c4(POS[i]);
                gts_move moves[7];
                int n = gts_game_connect4()->generate(s, moves, 7, NULL), wins = 0;
                for (int j = 0; j < n; j++)
                    wins += c4_wins_at_once(s, moves[j]);
                cr_assert(wins > 0, "%s: a position with a winning move", POS[i]);
                gts_result r = mcts(e, gts_game_connect4(), s, NULL);
                cr_assert(c4_wins_at_once(s, r.best_move), "%s: move %llu does not win", POS[i],
                          (unsigned long long)r.best_move);
                cr_assert(r.score > 0, "%s: a won position scores > 0 (%d)", POS[i], r.score);
                gts_games_free(gts_game_connect4(), s);
            }
            gts_engine_free(e);
        }
}

/* The principal variation replays: every move legal where it is played. */
Test(mcts, principal_variation_is_legal)
{
    const gts_game *g = gts_game_connect4();
    gts_engine *e = engine(1, 5000);
    void *s = c4("4453");
    gts_result r = mcts(e, g, s, NULL);
    cr_assert(r.pv_length >= 2 && r.pv[0] == r.best_move);
    cr_assert_eq(r.depth, (int)r.pv_length, "unproven: depth is the pv's length");
    for (uint32_t i = 0; i < r.pv_length; i++) {
        gts_move moves[7];
        int n = g->generate(s, moves, 7, NULL);
        bool legal = false;
        for (int j = 0; j < n; j++)
            legal = legal || moves[j] == r.pv[i];
        cr_assert(legal, "pv[%u] = %llu is not legal", i, (unsigned long long)r.pv[i]);
        cr_assert_eq(g->apply(s, r.pv[i], NULL), 0);
    }
    for (uint32_t i = r.pv_length; i-- > 0;)
        cr_assert_eq(g->undo(s, r.pv[i], NULL), 0);
    gts_games_free(g, s);
    gts_engine_free(e);
}

/* ---- determinism ---------------------------------------------------------------------- */

Test(mcts, same_seed_same_search)
{
    const gts_game *g = gts_game_connect4();
    void *s = c4("44");
    gts_mcts_move_stats a[7], b[7];
    gts_result ra, rb;
    for (int run = 0; run < 3; run++) {
        gts_engine *e = engine(1, 4000);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_SEED, run < 2 ? 12345 : 54321), GTS_OK);
        gts_result r = mcts(e, g, s, NULL);
        gts_mcts_move_stats st[7];
        cr_assert_eq(root_stats(e, st, 7), 7);
        if (run == 0) {
            ra = r;
            memcpy(a, st, sizeof a);
        } else if (run == 1) {
            cr_assert_eq(r.best_move, ra.best_move);
            cr_assert_eq(r.score, ra.score);
            cr_assert_eq(r.nodes, ra.nodes, "the same tree, node for node");
            cr_assert_eq(r.seldepth, ra.seldepth);
            cr_assert_eq(r.pv_length, ra.pv_length);
            cr_assert(memcmp(r.pv, ra.pv, r.pv_length * sizeof r.pv[0]) == 0);
            cr_assert(memcmp(st, a, sizeof a) == 0, "identical root statistics");
        } else {
            rb = r;
            memcpy(b, st, sizeof b);
        }
        gts_engine_free(e);
    }
    bool differ = rb.nodes != ra.nodes;
    for (int i = 0; i < 7; i++)
        differ = differ || a[i].visits != b[i].visits;
    cr_assert(differ, "another seed, other playouts");
    gts_games_free(g, s);
}

/* ---- memory ---------------------------------------------------------------------------- */

Test(mcts, memory_budget_reached_keeps_sampling)
{
    const gts_game *g = gts_game_connect4();
    for (int threads = 1; threads <= 2; threads++) {
        gts_engine *e = engine(threads, 40000);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_TREE_MB, 1), GTS_OK);
        void *s = c4("");
        gts_result r = mcts(e, g, s, NULL);
        cr_assert(r.flags & GTS_RESULT_MEMORY_LIMIT, "a 1 MiB tree fills up (flags %#x)", r.flags);
        cr_assert(r.flags & GTS_RESULT_HAS_MOVE);
        cr_assert(r.best_move < 7);
        cr_assert_eq(visits_sum(e), 40000, "every playout ran, also with a full tree");
        gts_engine_free(e);
        gts_games_free(g, s);
    }
}

/* A game whose root has more moves than a 1 MiB tree can hold. */
typedef struct wide {
    int ply;
} wide;

static int wide_generate(void *s, gts_move *m, uint32_t cap, void *u)
{
    (void)u;
    if (((wide *)s)->ply > 0)
        return 0;
    for (uint32_t i = 0; i < cap; i++)
        m[i] = i;
    return (int)cap;
}
static int wide_apply(void *s, gts_move m, void *u) { (void)m, (void)u; ((wide *)s)->ply++; return 0; }
static int wide_undo(void *s, gts_move m, void *u) { (void)m, (void)u; ((wide *)s)->ply--; return 0; }
static gts_score wide_evaluate(void *s, void *u) { (void)s, (void)u; return 0; }

Test(mcts, root_larger_than_the_tree_budget)
{
    gts_game v = {.struct_size = sizeof v, .max_moves = 20000, .generate = wide_generate,
                  .apply = wide_apply, .undo = wide_undo, .evaluate = wide_evaluate};
    wide w = {0};
    gts_engine *e = engine(1, 100);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TREE_MB, 1), GTS_OK);
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(gts_mcts(e, &v, &w, NULL, &r), GTS_ENOMEM, "20000 root moves need > 1 MiB");
    cr_assert_eq(w.ply, 0, "state restored");
    cr_assert_eq(gts_mcts_root_stats(e, NULL, 0), 0);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TREE_MB, 2), GTS_OK);
    r = mcts(e, &v, &w, NULL);
    cr_assert(r.flags & GTS_RESULT_HAS_MOVE);
    cr_assert_eq(visits_sum(e), 100);
    cr_assert_eq(gts_mcts_root_stats(e, NULL, 0), 20000);
    gts_engine_free(e);
}

/* ---- limits and stop ----------------------------------------------------------------- */

Test(mcts, node_and_time_limits)
{
    const gts_game *g = gts_game_connect4();
    void *s = c4("");
    for (int threads = 1; threads <= 2; threads++) {
        gts_engine *e = engine(threads, 0);
        gts_limits l = {.struct_size = sizeof l, .nodes = 20000};
        gts_result r = mcts(e, g, s, &l);
        cr_assert(r.flags & GTS_RESULT_NODE_LIMIT, "flags %#x", r.flags);
        cr_assert(r.flags & GTS_RESULT_HAS_MOVE);
        cr_assert(r.best_move < 7);
        cr_assert(r.nodes >= 20000);
        gts_limits t = {.struct_size = sizeof t, .time_ms = 30};
        r = mcts(e, g, s, &t);
        cr_assert(r.flags & GTS_RESULT_TIME_LIMIT, "flags %#x", r.flags);
        cr_assert(r.best_move < 7);
        gts_engine_free(e);
    }
    gts_games_free(g, s);
}

typedef struct progress {
    gts_engine *e;
    int calls, last_depth, stop_at;
    bool stats_ok;
} progress;

static int on_iteration(const gts_result *r, void *user)
{
    progress *p = user;
    p->calls++;
    if (r->depth <= p->last_depth)
        p->stats_ok = false;
    p->last_depth = r->depth;
    gts_mcts_move_stats st[7];
    st[0].struct_size = sizeof st[0];
    if (gts_mcts_root_stats(p->e, st, 7) != 7)
        p->stats_ok = false;
    if (p->calls == p->stop_at)
        gts_engine_stop(p->e);
    return 0;
}

Test(mcts, progress_reports_and_stop_from_the_callback)
{
    const gts_game *g = gts_game_connect4();
    void *s = c4("4");
    gts_engine *e = engine(2, 200000);
    progress p = {.e = e, .stop_at = 3, .stats_ok = true};
    gts_limits l = {.struct_size = sizeof l, .on_iteration = on_iteration,
                    .on_iteration_user = &p};
    gts_result r = mcts(e, g, s, &l);
    cr_assert(p.stats_ok, "depth grows between reports; statistics readable");
    cr_assert_eq(p.calls, 3);
    cr_assert(r.flags & GTS_RESULT_STOPPED);
    cr_assert(r.best_move < 7);
    cr_assert(visits_sum(e) < 200000);
    gts_engine_free(e);
    gts_games_free(g, s);
}

typedef struct stopper {
    gts_engine *e;
    volatile int go;
} stopper;

static void *stop_later(void *arg)
{
    stopper *st = arg;
    while (!__atomic_load_n(&st->go, __ATOMIC_ACQUIRE))
        ;
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    gts_engine_stop(st->e);
    return NULL;
}

static int start_signal(const gts_result *r, void *user)
{
    (void)r;
    __atomic_store_n(&((stopper *)user)->go, 1, __ATOMIC_RELEASE);
    return 0;
}

Test(mcts, stop_from_another_thread)
{
    const gts_game *g = gts_game_connect4();
    void *s = c4("");
    for (int mode = GTS_MCTS_TREE; mode <= GTS_MCTS_ROOT; mode++) {
        gts_engine *e = engine(2, 0); /* no budget: only the stop ends it */
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PARALLEL, mode), GTS_OK);
        stopper st = {e, 0};
        pthread_t th;
        cr_assert_eq(pthread_create(&th, NULL, stop_later, &st), 0);
        gts_limits l = {.struct_size = sizeof l, .on_iteration = start_signal,
                        .on_iteration_user = &st};
        gts_result r = mcts(e, g, s, &l);
        st.go = 1;
        pthread_join(th, NULL);
        cr_assert(r.flags & GTS_RESULT_STOPPED);
        cr_assert(r.flags & GTS_RESULT_HAS_MOVE);
        cr_assert(r.best_move < 7);
        gts_engine_free(e);
    }
    gts_games_free(g, s);
}

/* ---- failures -------------------------------------------------------------------------- */

Test(mcts, failing_callbacks_restore_the_state)
{
    enum { APPLY, UNDO, GENERATE, EVALUATE, BADSCORE, KINDS };
    static const int want_rc[KINDS] = {GTS_ECALLBACK, GTS_ECALLBACK, GTS_ECALLBACK, GTS_ECALLBACK,
                                       GTS_ESCORE};
    static const int want_code[KINDS] = {-7, -8, -42, -1, GTS_SCORE_WIN + 5};
    gts_engine *e = engine(1, 300);
    for (int kind = 0; kind < KINDS; kind++) {
        int fired = 0;
        for (uint64_t at = 1; at <= 400; at += 3) {
            tgame g, before;
            tgame_init(&g, 5, 3, 6);
            tgame_faults f = {0};
            g.f = &f;
            uint64_t *slot = kind == APPLY ? &f.fail_apply_at : kind == UNDO ? &f.fail_undo_at
                           : kind == GENERATE ? &f.fail_generate_at
                           : kind == EVALUATE ? &f.fail_evaluate_at : &f.bad_score_at;
            *slot = at;
            before = g;
            gts_game v = tgame_vtable(&g, false);
            gts_result r = {.struct_size = sizeof r};
            int rc = gts_mcts(e, &v, &g, NULL, &r);
            if (*slot != 0) { /* not reached */
                cr_assert_eq(rc, GTS_OK);
                continue;
            }
            fired++;
            cr_assert_eq(rc, want_rc[kind], "kind %d at %llu: %s", kind, (unsigned long long)at,
                         gts_status_name(rc));
            cr_assert_eq(r.callback_status, want_code[kind]);
            if (kind != UNDO) /* tgame's failing undo does not take the move back */
                cr_assert(memcmp(&g, &before, sizeof g) == 0, "kind %d at %llu: state", kind,
                          (unsigned long long)at);
        }
        cr_assert(fired > 20, "kind %d: faults delivered (%d)", kind, fired);
    }
    /* The engine is still usable. */
    tgame g;
    gts_game v = tgame_new(&g, 5, 3, 4, false);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 0), GTS_OK);
    gts_result r = mcts(e, &v, &g, NULL);
    cr_assert_eq(r.score, tgame_negamax(&g, &v, GTS_MAX_DEPTH, 0));
    gts_engine_free(e);
}

/* The engine's allocator failing the k-th call, for every k: GTS_ENOMEM or
 * a normal result, the state restored, nothing leaked, and the engine
 * searches again once memory is back. */
Test(mcts, every_allocation_failing_once)
{
    const gts_allocator alloc = fx_counting_allocator;
    for (int threads = 1; threads <= 2; threads++) {
        long k = 1;
        int enomem = 0;
        for (;; k++) {
            fx_alloc_arm(k);
            tgame g, before;
            tgame_init(&g, 9, 6, 8); /* big enough for many tree chunks */
            before = g;
            gts_game v = tgame_vtable(&g, false);
            gts_engine *e;
            int rc = gts_engine_new_with(&e, &alloc);
            if (rc == GTS_ENOMEM) {
                cr_assert_eq(FX_ALLOC.live, 0);
                continue;
            }
            cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 0), GTS_OK);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, threads), GTS_OK);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 6000), GTS_OK);
            gts_result r = {.struct_size = sizeof r};
            rc = gts_mcts(e, &v, &g, NULL, &r);
            cr_assert(rc == GTS_OK || rc == GTS_ENOMEM, "k=%ld: %s", k, gts_status_name(rc));
            enomem += rc == GTS_ENOMEM;
            if (rc == GTS_OK)
                cr_assert(r.flags & GTS_RESULT_HAS_MOVE);
            cr_assert(memcmp(&g, &before, sizeof g) == 0, "k=%ld: state restored", k);
            FX_ALLOC.fail_at = 0;
            r = mcts(e, &v, &g, NULL);
            cr_assert(r.flags & GTS_RESULT_HAS_MOVE, "k=%ld: usable afterwards", k);
            gts_engine_free(e);
            cr_assert_eq(FX_ALLOC.live, 0, "k=%ld: %ld blocks leaked", k, FX_ALLOC.live);
            if (FX_ALLOC.calls < k)
                break;
        }
        cr_assert(k > 10 && enomem > 5, "%d threads: %ld allocations, %d failed searches",
                  threads, k, enomem);
    }
}

/* ---- root statistics and parallel modes ---------------------------------------------- */

Test(mcts, root_statistics_sum_to_the_playouts)
{
    const gts_game *g = gts_game_randtree();
    gts_randtree_params p = {.struct_size = sizeof p, .seed = 3, .branching = 8, .depth = 9,
                             .min_value = -300, .max_value = 300};
    void *s = fx_randtree_new(&p);
    for (int mode = GTS_MCTS_TREE; mode <= GTS_MCTS_ROOT; mode++)
        for (int threads = 1; threads <= 4; threads *= 2) {
            gts_engine *e = engine(threads, 30000);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PARALLEL, mode), GTS_OK);
            gts_result r = mcts(e, g, s, NULL);
            cr_assert_eq(r.threads, (uint32_t)threads);
            gts_mcts_move_stats st[8];
            int n = root_stats(e, st, 8);
            cr_assert_eq(n, 8);
            uint64_t sum = 0;
            bool best_most = true;
            for (int i = 0; i < n; i++) {
                sum += st[i].visits;
                cr_assert(st[i].mean >= 0.0 && st[i].mean <= 1.0);
                cr_assert(st[i].lower <= st[i].upper);
                cr_assert_eq(st[i].struct_size, sizeof st[i]);
                if (st[i].move == r.best_move)
                    for (int j = 0; j < n; j++)
                        best_most = best_most && st[j].visits <= st[i].visits;
            }
            cr_assert_eq(sum, 30000, "mode %d, %d threads: %llu visits for 30000 playouts", mode,
                         threads, (unsigned long long)sum);
            cr_assert(best_most, "the best move is the most visited");
            gts_engine_free(e);
        }
    gts_games_free(g, s);
}

Test(mcts, root_stats_api)
{
    gts_engine *e = engine(1, 500);
    gts_mcts_move_stats st[9];
    cr_assert_eq(gts_mcts_root_stats(NULL, st, 9), GTS_EINVAL);
    cr_assert_eq(gts_mcts_root_stats(e, NULL, 0), 0, "no search yet");
    void *s;
    cr_assert_eq(gts_tictactoe_new("5", &s), GTS_OK);
    mcts(e, gts_game_tictactoe(), s, NULL);
    cr_assert_eq(gts_mcts_root_stats(e, NULL, 0), 8);
    st[0].struct_size = GTS_MCTS_MOVE_STATS_SIZE_V0_2 - 1;
    cr_assert_eq(gts_mcts_root_stats(e, st, 9), GTS_ESTRUCT);
    /* A caller with a smaller array gets the first entries only. */
    st[0].struct_size = sizeof st[0];
    cr_assert_eq(gts_mcts_root_stats(e, st, 3), 8);
    /* Another algorithm's search clears them. */
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(gts_pvs(e, gts_game_tictactoe(), s, NULL, &r), GTS_OK);
    cr_assert_eq(gts_mcts_root_stats(e, NULL, 0), 0);
    cr_assert_eq(gts_struct_size(GTS_STRUCT_MCTS_MOVE_STATS), sizeof(gts_mcts_move_stats));
    gts_games_free(gts_game_tictactoe(), s);
    gts_engine_free(e);
}

Test(mcts, priors_follow_the_move_hints)
{
    const gts_game *g = gts_game_connect4();
    void *s = c4("44");
    gts_engine *e = engine(1, 3000);
    mcts(e, g, s, NULL);
    gts_mcts_move_stats st[7];
    cr_assert_eq(root_stats(e, st, 7), 7);
    for (int i = 0; i < 7; i++)
        cr_assert_eq(st[i].prior, 0.0, "no priors by default");
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PRIOR, 50), GTS_OK);
    gts_result r = mcts(e, g, s, NULL);
    cr_assert(r.best_move < 7);
    cr_assert_eq(root_stats(e, st, 7), 7);
    double top = 0;
    for (int i = 0; i < 7; i++) {
        cr_assert(st[i].prior > 0.0 && st[i].prior <= 1.0, "prior %f", st[i].prior);
        if (st[i].prior > top)
            top = st[i].prior;
    }
    cr_assert_eq(top, 1.0, "the best-hinted move has prior 1");
    gts_engine_free(e);
    gts_games_free(g, s);
}

Test(mcts, options_and_names)
{
    gts_algorithm a;
    cr_assert_eq(gts_algorithm_from_name("mcts", &a), GTS_OK);
    cr_assert_eq(a, GTS_ALG_MCTS);
    cr_assert(!gts_algorithm_is_exact(GTS_ALG_MCTS));
    cr_assert(gts_algorithm_is_parallel(GTS_ALG_MCTS));
    gts_option o;
    cr_assert_eq(gts_option_from_name("mcts_exploration", &o), GTS_OK);
    cr_assert_eq(o, GTS_OPT_MCTS_EXPLORATION);
    int64_t def;
    cr_assert_eq(gts_option_bounds(GTS_OPT_TREE_MB, NULL, NULL, &def), GTS_OK);
    cr_assert_eq(def, 64);
    gts_engine *e = engine(1, 0);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PARALLEL, 2), GTS_ERANGE);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TREE_MB, 0), GTS_ERANGE);
    /* A finished root: no move, its static value, no statistics. */
    void *s;
    cr_assert_eq(gts_tictactoe_new("1254739", &s), GTS_OK);
    gts_result r = mcts(e, gts_game_tictactoe(), s, NULL);
    cr_assert_eq(r.flags & GTS_RESULT_HAS_MOVE, 0);
    cr_assert_eq(r.best_move, GTS_MOVE_NONE);
    cr_assert_eq(gts_mcts_root_stats(e, NULL, 0), 0);
    gts_games_free(gts_game_tictactoe(), s);
    gts_engine_free(e);
}

/* ---- the race: a game whose outcome is a count, for policies and AMAF ------------------ */

/* B moves (0..B-1) per turn for D plies; the first player wins when at
 * least T moves 1 were played (by either side), else loses. Unfinished
 * positions evaluate to 0 (reward 0.5). Every simulation of a search is
 * logged (the moves from the root and the reward of the first player),
 * read back from apply/undo: a simulation goes down from the root, then
 * back up. */
enum { RACE_LOG = 4096 };
typedef struct race {
    int b, d, t;
    int ply, ones;
    gts_move seq[GTS_MAX_PLY];
    int policy;              /* 0 none, 1 always move 1, 2 always 0, 3 end at once, 4 random */
    uint64_t policy_calls;
    bool down;               /* the last call was an apply */
    bool log;                /* log the simulations (small games only) */
    int nlog;
    uint8_t log_len[RACE_LOG];
    gts_move log_seq[RACE_LOG][16];
    double log_reward[RACE_LOG];
} race;

static bool race_first_wins(const race *r, int ply, int ones)
{
    if (ply == r->d)
        return ones >= r->t;
    bool first = (ply & 1) == 0, any = false;
    for (int m = 0; m < r->b && !any; m++)
        any = race_first_wins(r, ply + 1, ones + (m == 1)) == first;
    return any == first;
}

static int race_generate(void *s, gts_move *moves, uint32_t cap, void *u)
{
    race *r = s;
    (void)u;
    if (r->ply >= r->d)
        return 0;
    for (int i = 0; i < r->b && (uint32_t)i < cap; i++)
        moves[i] = (gts_move)i;
    return r->b;
}

static int race_apply(void *s, gts_move m, void *u)
{
    race *r = s;
    (void)u;
    r->seq[r->ply++] = m;
    r->ones += m == 1;
    r->down = true;
    return 0;
}

static int race_undo(void *s, gts_move m, void *u)
{
    race *r = s;
    (void)u;
    if (r->log && r->down && r->nlog < RACE_LOG && r->ply <= 16) { /* the deepest point: log it */
        int i = r->nlog++;
        r->log_len[i] = (uint8_t)r->ply;
        memcpy(r->log_seq[i], r->seq, (size_t)r->ply * sizeof r->seq[0]);
        r->log_reward[i] = race_first_wins(r, r->ply, r->ones) ? 1.0 : 0.0;
    }
    r->down = false;
    r->ply--;
    r->ones -= m == 1;
    return 0;
}

static gts_score race_evaluate(void *s, void *u)
{
    race *r = s;
    (void)u;
    if (r->ply < r->d)
        return 0;
    bool first_to_move = (r->ply & 1) == 0;
    return (r->ones >= r->t) == first_to_move ? GTS_SCORE_WIN : GTS_SCORE_LOSS;
}

static int race_policy(void *s, uint64_t random, gts_move *m, void *u)
{
    race *r = s;
    (void)u;
    r->policy_calls++;
    switch (r->policy) {
    case 1: *m = 1; return 1;
    case 2: *m = 0; return 1;
    case 3: return 0;
    default: *m = (gts_move)(random % (uint64_t)r->b); return 1;
    }
}

static gts_game race_vtable(race *r, int b, int d, int t, int policy, bool identity)
{
    memset(r, 0, sizeof *r);
    r->b = b, r->d = d, r->t = t, r->policy = policy;
    gts_game v = tgame_game_of(4, race_generate, race_apply, race_undo, race_evaluate);
    v.playout_move = policy ? race_policy : NULL;
    v.traits = identity ? GTS_TRAIT_MOVE_IDENTITY : 0;
    return v;
}

/* ---- playout policy --------------------------------------------------------------------- */

Test(mcts, playout_policy_decides_the_playouts)
{
    /* 100 plies, the first player needs 50 moves 1. 40 playouts grow the
     * tree at most 40 plies deep, so a policy that plays 1 makes every
     * playout a first-player win, one that plays 0 a loss, one that ends
     * the playout at once a 0.5; random playouts are mixed. */
    static const double want[4] = {-1.0, 1.0, 0.0, 0.5};
    for (int policy = 0; policy <= 3; policy++) {
        static race r;
        gts_game v = race_vtable(&r, 2, 100, 50, policy, false);
        gts_engine *e = engine(1, 40);
        mcts(e, &v, &r, NULL);
        gts_mcts_move_stats st[2];
        cr_assert_eq(root_stats(e, st, 2), 2);
        for (int i = 0; i < 2; i++) {
            if (policy != 0)
                cr_assert_eq(st[i].visits, 20, "equal means: the visits alternate");
            if (policy == 0)
                cr_assert(st[i].mean > 0.05 && st[i].mean < 0.95,
                          "random playouts: mean %g of move %d", st[i].mean, i);
            else
                cr_assert_eq(st[i].mean, want[policy], "policy %d: mean %g of move %d", policy,
                             st[i].mean, i);
        }
        if (policy == 1 || policy == 2)
            cr_assert(r.policy_calls >= 40 * 60, "the policy played the playouts (%llu calls)",
                      (unsigned long long)r.policy_calls);
        else if (policy == 3)
            cr_assert_eq(r.policy_calls, 40, "one call per playout, which it ends");
        cr_assert_eq(r.ply, 0, "state restored");
        gts_engine_free(e);
    }
}

Test(mcts, playout_policy_with_a_seed_is_deterministic)
{
    gts_mcts_move_stats a[2], b[2];
    uint64_t nodes[3];
    for (int run = 0; run < 3; run++) {
        static race r;
        gts_game v = race_vtable(&r, 2, 30, 15, 4, false);
        gts_engine *e = engine(1, 3000);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_SEED, run == 2 ? 99 : 7), GTS_OK);
        gts_result res = mcts(e, &v, &r, NULL);
        nodes[run] = res.nodes;
        cr_assert_eq(root_stats(e, run == 1 ? b : a, 2), 2);
        if (run == 1)
            cr_assert(memcmp(a, b, sizeof a) == 0, "same seed, same statistics");
        gts_engine_free(e);
    }
    cr_assert_eq(nodes[0], nodes[1]);
    cr_assert(a[0].visits != b[0].visits || nodes[2] != nodes[0], "another seed, other playouts");
}

/* A failing policy or one that returns a move generate() does not: the
 * search fails with GTS_ECALLBACK and restores the state, at every call. */
Test(mcts, playout_policy_failures_unwind)
{
    for (int threads = 1; threads <= 2; threads++)
        for (int illegal = 0; illegal <= 1; illegal++) {
            gts_engine *e = engine(threads, 300);
            int fired = 0;
            for (uint64_t at = 1; at <= 300; at += 7) {
                tgame g, before;
                tgame_init(&g, 5, 3, 8);
                tgame_faults f = {0};
                g.f = &f;
                uint64_t *slot = illegal ? &f.illegal_policy_at : &f.fail_policy_at;
                *slot = at;
                before = g;
                gts_game v = tgame_vtable(&g, false);
                v.playout_move = tgame_playout_move;
                gts_result r = {.struct_size = sizeof r};
                int rc = gts_mcts(e, &v, &g, NULL, &r);
                if (*slot != 0) {
                    cr_assert_eq(rc, GTS_OK);
                    continue;
                }
                fired++;
                cr_assert_eq(rc, GTS_ECALLBACK, "%d threads, at %llu: %s", threads,
                             (unsigned long long)at, gts_status_name(rc));
                cr_assert_eq(r.callback_status, illegal ? 1 : -9);
                cr_assert(memcmp(&g, &before, sizeof g) == 0, "state restored");
                cr_assert_eq(gts_mcts_advance(e, NULL, 0, NULL), 0, "a failed search keeps no tree");
            }
            cr_assert(fired > 10, "faults delivered (%d)", fired);
            gts_engine_free(e);
        }
}

/* ---- RAVE ----------------------------------------------------------------------------- */

Test(mcts, rave_tictactoe_every_position_never_a_losing_move, .timeout = 600)
{
    static ttt_ctx t;
    static uint64_t visited[16384];
    static uint8_t vused[16384];
    memset(&t, 0, sizeof t);
    memset(visited, 0, sizeof visited);
    memset(vused, 0, sizeof vused);
    t.g = gts_game_tictactoe();
    cr_assert(t.g->traits & GTS_TRAIT_MOVE_IDENTITY, "tic-tac-toe declares move identity");
    t.e[0] = engine(1, 20000);
    t.e[1] = engine(2, 20000);
    for (int i = 0; i < 2; i++)
        cr_assert_eq(gts_engine_set(t.e[i], GTS_OPT_MCTS_RAVE, 1000), GTS_OK);
    void *s;
    cr_assert_eq(gts_tictactoe_new("", &s), GTS_OK);
    ttt_check(&t, s, visited, vused);
    cr_assert_eq(t.positions, 4520, "every reachable unfinished position");
    gts_mcts_move_stats st[9];
    cr_assert(root_stats(t.e[0], st, 9) > 0);
    bool amaf = false;
    for (int i = 0; i < 9 && i < gts_mcts_root_stats(t.e[0], NULL, 0); i++)
        amaf = amaf || st[i].amaf_visits > st[i].visits;
    cr_assert(amaf, "RAVE statistics were kept");
    gts_games_free(t.g, s);
    gts_engine_free(t.e[0]);
    gts_engine_free(t.e[1]);
}

/* Every simulation is read back from the game's apply/undo calls and the
 * AMAF statistics of the root moves recomputed from them: the move's first
 * occurrence in the simulation at an even index (the root's side). */
Test(mcts, rave_amaf_statistics_match_a_reference)
{
    static race r;
    gts_game v = race_vtable(&r, 3, 10, 4, 0, true);
    r.log = true;
    gts_engine *e = engine(1, 3000);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_RAVE, 100), GTS_OK);
    mcts(e, &v, &r, NULL);
    cr_assert(r.nlog >= 3000 && r.nlog < RACE_LOG, "%d simulations logged", r.nlog);
    gts_mcts_move_stats st[3];
    cr_assert_eq(root_stats(e, st, 3), 3);
    uint64_t playouts = 0;
    for (int i = 0; i < 3; i++)
        playouts += st[i].visits;
    cr_assert_eq(playouts, (uint64_t)r.nlog, "one logged simulation per playout");
    for (int i = 0; i < 3; i++) {
        uint64_t count = 0;
        double wins = 0;
        for (int k = 0; k < r.nlog; k++)
            for (int j = 0; j < r.log_len[k]; j++)
                if (r.log_seq[k][j] == st[i].move) {
                    if (j % 2 == 0) {
                        count++;
                        wins += r.log_reward[k];
                    }
                    break;
                }
        cr_assert_eq(st[i].amaf_visits, count, "move %d: AMAF count %llu, reference %llu", i,
                     (unsigned long long)st[i].amaf_visits, (unsigned long long)count);
        cr_assert(st[i].amaf_visits >= st[i].visits && st[i].amaf_visits <= playouts);
        cr_assert(fabs(st[i].amaf_mean - wins / (double)count) < 1e-9,
                  "move %d: AMAF mean %.12f, reference %.12f", i, st[i].amaf_mean,
                  wins / (double)count);
    }
    gts_engine_free(e);
}

Test(mcts, rave_amaf_counts_are_bounded_in_parallel)
{
    void *s;
    cr_assert_eq(gts_tictactoe_new("", &s), GTS_OK);
    for (int mode = GTS_MCTS_TREE; mode <= GTS_MCTS_ROOT; mode++) {
        gts_engine *e = engine(2, 3000);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_RAVE, 500), GTS_OK);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PARALLEL, mode), GTS_OK);
        mcts(e, gts_game_tictactoe(), s, NULL);
        gts_mcts_move_stats st[9];
        cr_assert_eq(root_stats(e, st, 9), 9);
        uint64_t p = 0, amaf = 0;
        for (int i = 0; i < 9; i++) {
            p += st[i].visits;
            amaf += st[i].amaf_visits;
        }
        for (int i = 0; i < 9; i++)
            cr_assert(st[i].amaf_visits >= st[i].visits && st[i].amaf_visits <= p,
                      "mode %d, move %d: %llu AMAF, %llu visits, %llu playouts", mode, i,
                      (unsigned long long)st[i].amaf_visits, (unsigned long long)st[i].visits,
                      (unsigned long long)p);
        /* The first player plays at most 5 of the 9 cells in one game. */
        cr_assert(amaf >= p && amaf <= 5 * p, "mode %d: %llu AMAF updates, %llu playouts", mode,
                  (unsigned long long)amaf, (unsigned long long)p);
        gts_engine_free(e);
    }
    gts_games_free(gts_game_tictactoe(), s);
}

/* k = 0, or a game without move identity: exactly the search without RAVE. */
Test(mcts, rave_off_is_bit_identical)
{
    const gts_game *g = gts_game_tictactoe();
    gts_game plain = *g;
    plain.traits = 0;
    void *s;
    cr_assert_eq(gts_tictactoe_new("5", &s), GTS_OK);
    gts_mcts_move_stats ref[8], st[8];
    gts_result rr = {0};
    for (int run = 0; run < 4; run++) {
        gts_engine *e = engine(1, 2000);
        int64_t k = run == 0 ? -1 : run == 1 ? 0 : 1000;
        if (k >= 0)
            cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_RAVE, k), GTS_OK);
        gts_result r = mcts(e, run == 2 ? &plain : g, s, NULL);
        cr_assert_eq(root_stats(e, run == 0 ? ref : st, 8), 8);
        if (run == 0) {
            rr = r;
            for (int i = 0; i < 8; i++)
                cr_assert_eq(ref[i].amaf_visits, 0, "no AMAF without RAVE");
        } else if (run < 3) {
            cr_assert(memcmp(ref, st, sizeof st) == 0, "run %d: identical statistics", run);
            cr_assert_eq(r.nodes, rr.nodes);
            cr_assert_eq(r.best_move, rr.best_move);
        } else {
            cr_assert(memcmp(ref, st, sizeof st) != 0, "k = 1000 changes the search");
        }
        gts_engine_free(e);
    }
    gts_games_free(g, s);
}

/* ---- tree reuse ------------------------------------------------------------------------ */

static void stats_of(gts_engine *e, gts_mcts_move_stats *st, int n)
{
    cr_assert_eq(root_stats(e, st, n), n);
}

Test(mcts, reuse_carries_the_statistics)
{
    tgame g;
    gts_game v = tgame_new(&g, 21, 4, 10, true);
    gts_engine *e = engine(1, 2000);
    gts_result r = mcts(e, &v, &g, NULL);
    gts_mcts_move_stats a[4], b[4];
    stats_of(e, a, 4);
    /* Same position again (n = 0): the whole tree continues. */
    uint64_t visits = 99;
    cr_assert_eq(r.flags & GTS_RESULT_TREE_REUSED, 0u, "the first search starts fresh");
    cr_assert_eq(gts_mcts_advance(e, NULL, 0, &visits), 1);
    cr_assert_eq(visits, 2000, "the root's visits");
    r = mcts(e, &v, &g, NULL);
    cr_assert(r.flags & GTS_RESULT_TREE_REUSED, "flags %#x: the kept tree continued", r.flags);
    stats_of(e, b, 4);
    uint64_t sum = 0;
    for (int i = 0; i < 4; i++) {
        cr_assert(b[i].visits >= a[i].visits, "move %d: %llu then %llu visits", i,
                  (unsigned long long)a[i].visits, (unsigned long long)b[i].visits);
        sum += b[i].visits;
    }
    cr_assert_eq(sum, 4000, "2000 kept + 2000 new playouts");
    /* Play the best move: its subtree becomes the root. */
    r = mcts(e, &v, &g, NULL); /* no advance since: a fresh search */
    cr_assert_eq(r.flags & GTS_RESULT_TREE_REUSED, 0u, "no advance: fresh");
    stats_of(e, a, 4);
    uint64_t want = 0;
    for (int i = 0; i < 4; i++) {
        sum += 0;
        if (a[i].move == r.best_move)
            want = a[i].visits;
    }
    cr_assert_eq(a[0].visits + a[1].visits + a[2].visits + a[3].visits, 2000, "fresh");
    cr_assert_eq(gts_mcts_advance(e, &r.best_move, 1, &visits), 1);
    cr_assert_eq(visits, want, "the root's visits are the child's");
    v.apply(&g, r.best_move, NULL);
    mcts(e, &v, &g, NULL);
    stats_of(e, b, 4);
    sum = b[0].visits + b[1].visits + b[2].visits + b[3].visits;
    cr_assert(sum >= 2000 + want - 1 - 4 && sum <= 2000 + want,
              "%llu visits: 2000 new, about %llu kept", (unsigned long long)sum,
              (unsigned long long)want);
    v.undo(&g, r.best_move, NULL);
    gts_engine_free(e);
}

/* The proven ranges carried over stay sound: an unlimited search after
 * advancing proves the exact value (mate distances from the new root). */
Test(mcts, reuse_keeps_later_proofs_exact)
{
    for (int seed = 1; seed <= 12; seed++) {
        tgame g;
        tgame_init(&g, (uint64_t)seed, 3, 8);
        g.win_leaves = true;
        gts_game v = tgame_vtable(&g, seed & 1);
        gts_engine *e = engine(1, 1500);
        gts_result r = mcts(e, &v, &g, NULL);
        gts_move played[2] = {r.best_move, 0};
        v.apply(&g, played[0], NULL);
        gts_move reply[8];
        int n = v.generate(&g, reply, 8, NULL);
        played[1] = reply[seed % n];
        v.apply(&g, played[1], NULL);
        cr_assert_eq(gts_mcts_advance(e, played, 2, NULL), 1, "seed %d: kept", seed);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 0), GTS_OK);
        r = mcts(e, &v, &g, NULL);
        gts_score want = tgame_negamax(&g, &v, GTS_MAX_DEPTH, 0);
        cr_assert_eq(r.score, want, "seed %d: %d, minimax %d", seed, r.score, want);
        cr_assert_eq(r.depth, GTS_MAX_DEPTH, "proven");
        v.undo(&g, played[1], NULL);
        v.undo(&g, played[0], NULL);
        gts_engine_free(e);
    }
}

/* A one-move chain of CHAIN_LEN plies whose evaluate() is the number of
 * plies played: its depth-limited value depends on where the horizon
 * (GTS_MAX_DEPTH plies from the root) falls. */
enum { CHAIN_LEN = 200 };
static int chain_generate(void *s, gts_move *m, uint32_t cap, void *u)
{
    (void)cap, (void)u;
    int ply = *(int *)s;
    if (ply >= CHAIN_LEN)
        return 0;
    m[0] = (gts_move)ply + 1;
    return 1;
}
static int chain_apply(void *s, gts_move m, void *u)
{
    (void)u;
    cr_assert_eq(m, (gts_move)*(int *)s + 1, "the chain's move");
    ++*(int *)s;
    return 0;
}
static int chain_undo(void *s, gts_move m, void *u)
{
    (void)m, (void)u;
    --*(int *)s;
    return 0;
}
static gts_score chain_evaluate(void *s, void *u)
{
    (void)u;
    return *(int *)s;
}

/* Issue 31: the proof of the first search rests on evaluate() at its
 * horizon (ply 127: value -127). After one move the horizon is one ply
 * further (value -128 from the new root); the kept tree used to keep the
 * old proof and the reused search answered 127 in one node. */
Test(mcts, reuse_drops_proofs_made_at_the_old_horizon)
{
    gts_game v = {.struct_size = sizeof v, .max_moves = 1, .generate = chain_generate,
                  .apply = chain_apply, .undo = chain_undo, .evaluate = chain_evaluate};
    int ply = 0;
    gts_engine *e = engine(1, 0), *fresh = engine(1, 0), *ab = engine(1, 0);
    gts_result r = mcts(e, &v, &ply, NULL);
    gts_result p = {.struct_size = sizeof p};
    cr_assert_eq(gts_pvs(ab, &v, &ply, NULL, &p), GTS_OK);
    cr_assert_eq(r.score, p.score, "first search: MCTS %d, PVS %d", r.score, p.score);
    cr_assert_eq(r.score, -GTS_MAX_DEPTH);
    for (int step = 1; step <= 3; step++) {
        gts_move m = r.best_move;
        cr_assert_eq(m, (gts_move)ply + 1);
        cr_assert_eq(gts_mcts_advance(e, &m, 1, NULL), 1, "step %d: the tree is kept", step);
        v.apply(&ply, m, NULL);
        r = mcts(e, &v, &ply, NULL);
        gts_result f = mcts(fresh, &v, &ply, NULL);
        cr_assert_eq(gts_pvs(ab, &v, &ply, NULL, &p), GTS_OK);
        cr_assert_eq(p.score, -(GTS_MAX_DEPTH + step),
                     "the reference: %d", p.score);
        cr_assert_eq(f.score, p.score, "step %d: fresh MCTS %d, PVS %d", step, f.score,
                     p.score);
        cr_assert_eq(r.score, p.score, "step %d: reused MCTS %d (%llu nodes), PVS %d", step,
                     r.score, (unsigned long long)r.nodes, p.score);
        cr_assert_eq(r.depth, GTS_MAX_DEPTH, "proven");
    }
    gts_engine_free(e);
    gts_engine_free(fresh);
    gts_engine_free(ab);
}

/* A kept tree whose root is not the searched position is not used: the
 * search is the fresh one, statistic for statistic. */
Test(mcts, reuse_detects_another_position)
{
    for (int hash = 0; hash <= 1; hash++)
        for (int wrong = 0; wrong < 3; wrong++) {
            tgame g, h;
            tgame_init(&g, 31, 4, 9);
            /* 0: another tree, same moves (hash() tells); 1: other moves at
             * the root; 2: a move the tree does not hold */
            tgame_init(&h, wrong == 1 ? 31 : 32, wrong == 1 ? 5 : 4, 9);
            if (wrong == 0 && !hash)
                continue; /* without hash() the caller is trusted */
            gts_game vg = tgame_vtable(&g, hash), vh = tgame_vtable(&h, hash);
            gts_engine *e = engine(1, 1000), *fresh = engine(1, 1000);
            gts_result r = mcts(e, &vg, &g, NULL);
            gts_move m = wrong == 2 ? 17 : r.best_move;
            cr_assert_eq(gts_mcts_advance(e, &m, 1, NULL), wrong == 2 ? 0 : 1);
            vh.apply(&h, 0, NULL);
            gts_result r1 = mcts(e, &vh, &h, NULL), r2 = mcts(fresh, &vh, &h, NULL);
            cr_assert_eq(r1.flags & GTS_RESULT_TREE_REUSED, 0u, "case %d: not continued", wrong);
            gts_mcts_move_stats a[5], b[5];
            int n = h.branching;
            stats_of(e, a, n);
            stats_of(fresh, b, n);
            cr_assert(memcmp(a, b, (size_t)n * sizeof a[0]) == 0,
                      "hash %d, case %d: a fresh search", hash, wrong);
            cr_assert_eq(r1.nodes, r2.nodes);
            gts_engine_free(e);
            gts_engine_free(fresh);
        }
}

Test(mcts, reuse_after_limits_stop_and_options)
{
    tgame g;
    gts_game v = tgame_new(&g, 41, 4, 10, true);
    gts_engine *e = engine(1, 0);
    /* A node limit ends the search; its tree is kept. */
    gts_limits lim = {.struct_size = sizeof lim, .nodes = 5000};
    gts_result r = mcts(e, &v, &g, &lim);
    cr_assert(r.flags & GTS_RESULT_NODE_LIMIT);
    uint64_t before = visits_sum(e), visits = 0;
    cr_assert_eq(gts_mcts_advance(e, NULL, 0, &visits), 1);
    cr_assert_eq(visits, before);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 100), GTS_OK);
    mcts(e, &v, &g, NULL);
    cr_assert_eq(visits_sum(e), before + 100, "kept after a limit");
    /* A depth limit: nothing is kept (the horizon's values are not exact
     * from another root). */
    gts_limits deep = {.struct_size = sizeof deep, .depth = 6};
    mcts(e, &v, &g, &deep);
    cr_assert_eq(gts_mcts_advance(e, NULL, 0, NULL), 0);
    /* Reuse off: nothing kept; turning it off frees a kept tree. */
    mcts(e, &v, &g, NULL);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_REUSE, 0), GTS_OK);
    cr_assert_eq(gts_mcts_advance(e, NULL, 0, NULL), 0);
    mcts(e, &v, &g, NULL);
    cr_assert_eq(gts_mcts_advance(e, NULL, 0, NULL), 0);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_REUSE, 1), GTS_OK);
    /* gts_engine_clear() frees it too. */
    mcts(e, &v, &g, NULL);
    cr_assert_eq(gts_engine_clear(e), GTS_OK);
    cr_assert_eq(gts_mcts_advance(e, NULL, 0, NULL), 0);
    /* Bad input. */
    gts_move m = 0;
    cr_assert_eq(gts_mcts_advance(NULL, &m, 1, NULL), GTS_EINVAL);
    cr_assert_eq(gts_mcts_advance(e, &m, -1, NULL), GTS_EINVAL);
    cr_assert_eq(gts_mcts_advance(e, NULL, 1, NULL), GTS_EINVAL);
    cr_assert_eq(gts_mcts_advance(e, &m, GTS_MAX_DEPTH + 1, NULL), GTS_EINVAL);
    gts_engine_free(e);
}

static void *stop_soon(void *arg)
{
    gts_engine *e = arg;
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    gts_engine_stop(e);
    return NULL;
}

Test(mcts, reuse_after_a_stop_in_both_parallel_modes)
{
    void *s = c4("4453");
    for (int mode = GTS_MCTS_TREE; mode <= GTS_MCTS_ROOT; mode++) {
        gts_engine *e = engine(2, 0);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PARALLEL, mode), GTS_OK);
        pthread_t th;
        cr_assert_eq(pthread_create(&th, NULL, stop_soon, e), 0);
        gts_result r = mcts(e, gts_game_connect4(), s, NULL);
        pthread_join(th, NULL);
        cr_assert(r.flags & GTS_RESULT_HAS_MOVE);
        gts_mcts_move_stats st[7];
        stats_of(e, st, 7);
        uint64_t want = 0, visits = 0;
        for (int i = 0; i < 7; i++)
            if (st[i].move == r.best_move)
                want = st[i].visits;
        cr_assert_eq(gts_mcts_advance(e, &r.best_move, 1, &visits), 1, "mode %d", mode);
        cr_assert_eq(visits, want, "mode %d: the child's visits (over the trees)", mode);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 500), GTS_OK);
        cr_assert_eq(gts_game_connect4()->apply(s, r.best_move, NULL), 0);
        mcts(e, gts_game_connect4(), s, NULL);
        uint64_t sum = visits_sum(e);
        cr_assert(sum > 500 && sum <= 500 + want, "mode %d: %llu visits", mode,
                  (unsigned long long)sum);
        cr_assert_eq(gts_game_connect4()->undo(s, r.best_move, NULL), 0);
        gts_engine_free(e);
    }
    gts_games_free(gts_game_connect4(), s);
}

/* An engine on the counting allocator A (counters reset, nothing failing),
 * without a table, and the tgame of many tree chunks it searches. */
static gts_engine *counted_engine(tgame *g, gts_game *v, bool hashed)
{
    const gts_allocator alloc = fx_counting_allocator;
    fx_alloc_arm(0);
    tgame_init(g, 9, 6, 8);
    *v = tgame_vtable(g, hashed);
    gts_engine *e;
    cr_assert_eq(gts_engine_new_with(&e, &alloc), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 0), GTS_OK);
    return e;
}

/* The kept tree is the engine's: freed by gts_engine_free(), and a copy
 * that cannot be allocated drops it cleanly. */
Test(mcts, reuse_memory_is_freed)
{
    for (long extra = 0; extra <= 6; extra++) {
        tgame g;
        gts_game v;
        gts_engine *e = counted_engine(&g, &v, true);
        cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 20000), GTS_OK);
        gts_result r = mcts(e, &v, &g, NULL);
        if (extra > 0) { /* the copy's k-th allocation fails */
            FX_ALLOC.fail_at = FX_ALLOC.calls + extra;
            int rc = gts_mcts_advance(e, &r.best_move, 1, NULL);
            cr_assert(rc == GTS_ENOMEM || (rc == 1 && FX_ALLOC.calls < FX_ALLOC.fail_at), "extra %ld: %d",
                      extra, rc);
            if (rc == GTS_ENOMEM)
                cr_assert_eq(gts_mcts_advance(e, NULL, 0, NULL), 0, "dropped");
        }
        FX_ALLOC.fail_at = 0;
        gts_engine_free(e); /* with or without a kept tree */
        cr_assert_eq(FX_ALLOC.live, 0, "extra %ld: %ld blocks leaked", extra, FX_ALLOC.live);
    }
}

/* Tree memory outlives a search (mcts.c, "spare chunks"): the next search
 * takes its chunks from the engine instead of the allocator, the engine
 * holds no more than GTS_OPT_TREE_MB of them (lowering it frees the rest),
 * and gts_engine_free() returns everything. */
Test(mcts, tree_memory_is_kept_for_the_next_search)
{
    tgame g;
    gts_game v;
    gts_engine *e = counted_engine(&g, &v, false);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_REUSE, 0), GTS_OK);
    /* one playout first: the engine's contexts and statistics exist, and
     * one chunk of tree memory */
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 1), GTS_OK);
    mcts(e, &v, &g, NULL);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, 6000), GTS_OK);
    long live0 = FX_ALLOC.live;
    long calls = FX_ALLOC.calls;
    gts_result r1 = mcts(e, &v, &g, NULL);
    long first = FX_ALLOC.calls - calls, live1 = FX_ALLOC.live;
    cr_assert_gt(live1 - live0, 40, "the tree's chunks stay with the engine (%ld blocks)",
                 live1 - live0);
    calls = FX_ALLOC.calls;
    gts_result r2 = mcts(e, &v, &g, NULL);
    long second = FX_ALLOC.calls - calls;
    cr_expect_eq(r2.nodes, r1.nodes, "the same search");
    cr_expect_eq(r2.best_move, r1.best_move);
    cr_expect_leq(second, first - 40, "the second search takes the spare chunks: %ld "
                  "allocations against %ld", second, first);
    cr_expect_eq(FX_ALLOC.live, live1, "and holds no more afterwards");
    /* 1 MiB: at most 16 chunks of 64 KiB are kept */
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TREE_MB, 1), GTS_OK);
    cr_expect_leq(FX_ALLOC.live - live0, 16, "trimmed to the new budget: %ld blocks",
                  FX_ALLOC.live - live0);
    gts_engine_free(e);
    cr_assert_eq(FX_ALLOC.live, 0, "%ld blocks leaked", FX_ALLOC.live);
}

Test(mcts, rave_and_reuse_options)
{
    int64_t lo, hi, def;
    cr_assert_eq(gts_option_bounds(GTS_OPT_MCTS_RAVE, &lo, &hi, &def), GTS_OK);
    cr_assert(lo == 0 && def == 0 && hi >= 100000);
    cr_assert_eq(gts_option_bounds(GTS_OPT_MCTS_REUSE, &lo, &hi, &def), GTS_OK);
    cr_assert(lo == 0 && hi == 1 && def == 1);
    cr_assert_str_eq(gts_option_name(GTS_OPT_MCTS_RAVE), "mcts_rave");
    cr_assert_str_eq(gts_option_name(GTS_OPT_MCTS_REUSE), "mcts_reuse");
    cr_assert_str_eq(gts_option_name(GTS_OPT_TREE_MB), "tree_mb");
    cr_assert_eq(GTS_OPT_TREE_MB, 404);
    gts_engine *e = engine(1, 0);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_RAVE, -1), GTS_ERANGE);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_RAVE, ((int64_t)1 << 40) + 1), GTS_ERANGE);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_REUSE, 2), GTS_ERANGE);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, -1), GTS_ERANGE);
    gts_engine_free(e);
}

/* ---- trusted playout policy (GTS_TRAIT_TRUSTED_PLAYOUT) ------------------------------- */

static uint64_t TRUST_GENS; /* generate() calls of the wrapped games below */

static int counting_go_generate(void *s, gts_move *moves, uint32_t cap, void *u)
{
    __atomic_add_fetch(&TRUST_GENS, 1, __ATOMIC_RELAXED);
    return gts_game_go()->generate(s, moves, cap, u);
}

/* One seeded 1-thread search; its root statistics into @st (at most @cap). */
static gts_result trust_run(const gts_game *v, void *s, int64_t rave, int64_t playout_depth,
                            int depth, gts_mcts_move_stats *st, int cap, int *n)
{
    gts_engine *e = engine(1, 400);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_SEED, 12345), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_RAVE, rave), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUT_DEPTH, playout_depth), GTS_OK);
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    gts_result r = mcts(e, v, s, depth ? &l : NULL);
    memset(st, 0, (size_t)cap * sizeof *st);
    *n = root_stats(e, st, cap);
    gts_engine_free(e);
    return r;
}

/* Go's policy keeps the promise, so trusting it changes nothing but the
 * generate() calls: with a seed at one thread, the same playouts (root
 * statistics, nodes, move, score) as the checked loop, with RAVE, with a
 * playout cap, with a horizon, on boards whose playouts end in finished
 * games (scored as results, not as capped playouts) or at the move cap. */
Test(mcts, trusted_playout_makes_the_same_playouts)
{
    static const struct {
        const char *pos;
        int64_t rave, playout_depth;
        int depth;
    } cases[] = {
        {"9", 0, GTS_MAX_PLY, 0},
        {"9", 1000, GTS_MAX_PLY, 0},
        {"7 komi=0.5 moves=D4,C3", 1000, GTS_MAX_PLY, 0},
        {"5 komi=0", 0, GTS_MAX_PLY, 0},
        {"5 komi=0 maxmoves=12", 300, GTS_MAX_PLY, 0},
        {"9", 0, 12, 0},
        {"9", 1000, 0, 0},
        {"7", 1000, GTS_MAX_PLY, 5},
    };
    const gts_game *go = gts_game_go();
    cr_assert(go->traits & GTS_TRAIT_TRUSTED_PLAYOUT, "Go declares a trusted policy");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        void *s;
        cr_assert_eq(gts_go_new(cases[i].pos, &s), GTS_OK);
        uint64_t key = go->hash(s, go->user);
        gts_game v[2] = {*go, *go};
        v[0].generate = v[1].generate = counting_go_generate;
        v[1].traits &= ~(uint32_t)GTS_TRAIT_TRUSTED_PLAYOUT;
        gts_mcts_move_stats st[2][82];
        int n[2];
        uint64_t gens[2];
        gts_result r[2];
        for (int t = 0; t < 2; t++) {
            TRUST_GENS = 0;
            r[t] = trust_run(&v[t], s, cases[i].rave, cases[i].playout_depth, cases[i].depth,
                             st[t], 82, &n[t]);
            gens[t] = TRUST_GENS;
            cr_assert_eq(go->hash(s, go->user), key, "case %zu: state restored", i);
        }
        cr_assert_eq(n[0], n[1], "case %zu", i);
        cr_assert(memcmp(st[0], st[1], (size_t)n[0] * sizeof st[0][0]) == 0,
                  "case %zu (%s): the same root statistics", i, cases[i].pos);
        cr_assert_eq(r[0].nodes, r[1].nodes, "case %zu: nodes %llu and %llu", i,
                     (unsigned long long)r[0].nodes, (unsigned long long)r[1].nodes);
        cr_assert_eq(r[0].best_move, r[1].best_move, "case %zu", i);
        cr_assert_eq(r[0].score, r[1].score, "case %zu", i);
        cr_assert_eq(r[0].seldepth, r[1].seldepth, "case %zu", i);
        uint64_t playouts = 0;
        for (int k = 0; k < n[0]; k++)
            playouts += st[0][k].visits;
        cr_assert_eq(playouts, 400, "case %zu", i);
        /* at a leaf one generate(), at the end of a playout one more */
        cr_assert(gens[0] <= 2 * playouts + 2, "case %zu: %llu generate() calls trusted", i,
                  (unsigned long long)gens[0]);
        if (cases[i].playout_depth > 2 && cases[i].depth == 0)
            cr_assert(gens[1] > 2 * gens[0], "case %zu: %llu generate() calls checked, %llu "
                      "trusted", i, (unsigned long long)gens[1], (unsigned long long)gens[0]);
        gts_games_free(go, s);
    }
}

/* tgame's policy, honest: 0 at a finished game. */
static int honest_policy(void *s, uint64_t random, gts_move *move, void *user)
{
    tgame *g = s;
    if (g->ply >= g->depth)
        return 0;
    return tgame_playout_move(s, random, move, user);
}

/* apply() that rejects what generate() does not list (-5). */
static int strict_apply(void *s, gts_move m, void *user)
{
    tgame *g = s;
    if (m >= (gts_move)g->branching || g->ply >= g->depth)
        return -5;
    return tgame_apply(s, m, user);
}

/* The same with tgame, whose evaluate() at a finished game is a plain
 * score: scored as a result (mc_sign) there, a logistic elsewhere. */
Test(mcts, trusted_playout_same_playouts_on_tgame)
{
    for (int depth = 3; depth <= 40; depth += 37) {
        gts_mcts_move_stats st[2][5];
        gts_result r[2];
        int n[2];
        for (int t = 0; t < 2; t++) {
            tgame g;
            gts_game v = tgame_new(&g, 21, 5, depth, true);
            v.apply = strict_apply;
            v.playout_move = honest_policy;
            v.traits = t == 0 ? GTS_TRAIT_TRUSTED_PLAYOUT : 0;
            r[t] = trust_run(&v, &g, 0, GTS_MAX_PLY, 0, st[t], 5, &n[t]);
            cr_assert_eq(g.ply, 0);
        }
        cr_assert_eq(n[0], 5);
        cr_assert(memcmp(st[0], st[1], sizeof st[0]) == 0, "depth %d: same statistics", depth);
        cr_assert_eq(r[0].nodes, r[1].nodes);
        cr_assert_eq(r[0].score, r[1].score);
    }
}

/* A trusted policy that lies. An illegal move, or a move at a finished
 * game, reaches apply(): a strict apply() rejects it and the search ends
 * with GTS_ECALLBACK (apply's code), the state restored and no tree kept;
 * an apply() that accepts it plays on to the playout cap: the search ends
 * normally. Failures of the policy itself end it as without the trait. */
Test(mcts, trusted_playout_lies_fail_cleanly)
{
    for (int threads = 1; threads <= 2; threads++) {
        gts_engine *e = engine(threads, 300);
        int fired = 0;
        for (int kind = 0; kind < 3; kind++)
            for (uint64_t at = 1; at <= 300; at += 13) {
                tgame g, before;
                tgame_init(&g, 5, 3, 8);
                tgame_faults f = {0};
                g.f = &f;
                if (kind == 0)
                    f.illegal_policy_at = at;
                else if (kind == 1)
                    f.fail_policy_at = at;
                before = g;
                gts_game v = tgame_vtable(&g, false);
                v.apply = strict_apply;
                v.playout_move = kind == 2 ? tgame_playout_move : honest_policy;
                v.traits = GTS_TRAIT_TRUSTED_PLAYOUT;
                gts_result r = {.struct_size = sizeof r};
                int rc = gts_mcts(e, &v, &g, NULL, &r);
                cr_assert(memcmp(&g, &before, sizeof g) == 0, "kind %d at %llu: state restored",
                          kind, (unsigned long long)at);
                if (kind < 2 && (kind == 0 ? f.illegal_policy_at : f.fail_policy_at) != 0) {
                    cr_assert_eq(rc, GTS_OK);
                    continue;
                }
                fired++;
                cr_assert_eq(rc, GTS_ECALLBACK, "%d threads, kind %d at %llu: %s", threads, kind,
                             (unsigned long long)at, gts_status_name(rc));
                /* kind 2 never returns 0: its first move at a finished game
                 * is rejected */
                cr_assert_eq(r.callback_status, kind == 1 ? -9 : -5);
                cr_assert_eq(gts_mcts_advance(e, NULL, 0, NULL), 0, "a failed search keeps no tree");
                if (kind == 2)
                    break;
            }
        cr_assert(fired > 10, "faults delivered (%d)", fired);
        /* An apply() that accepts anything: the liar plays past the end up
         * to the playout cap, and the search still finishes. */
        for (int64_t cap = 20; cap <= GTS_MAX_PLY; cap += GTS_MAX_PLY - 20) {
            tgame g, before;
            gts_game v = tgame_new(&g, 5, 3, 8, false);
            before = g;
            v.playout_move = tgame_playout_move;
            v.traits = GTS_TRAIT_TRUSTED_PLAYOUT;
            cr_assert_eq(gts_engine_set(e, GTS_OPT_MCTS_PLAYOUT_DEPTH, cap), GTS_OK);
            gts_result r = mcts(e, &v, &g, NULL);
            cr_assert(r.flags & GTS_RESULT_HAS_MOVE);
            cr_assert(r.best_move < 3);
            cr_assert_leq(r.seldepth, GTS_MAX_PLY);
            cr_assert(memcmp(&g, &before, sizeof g) == 0, "state restored");
        }
        gts_engine_free(e);
    }
}
