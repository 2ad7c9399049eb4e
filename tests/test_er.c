/*
 * Evaluate-and-Refute (er.c, er_parallel.c) against independent references.
 *
 *  - The published refuteRest starts from p.val = alpha and drops the value
 *    of the first grandchild: a literal transcription, written here over a
 *    hand-built tree, returns a value that is not the minimax value, while
 *    gts_er (which corrects it) and gts_er_parallel (1 to 8 threads)
 *    return the minimax value of that tree.
 *  - gts_er and gts_er_parallel (1, 2, 3, 4 and 8 threads) return the
 *    value of gts_minimax on every built-in game (short searches from a few
 *    positions), with and without the transposition table. (Random trees
 *    of many shapes, with and without transpositions, are in the
 *    `sequential` suite; the parallel version at 1..16 threads in the
 *    `parallel` suite, on virtual processors in `virtual`.)
 *  - At one thread gts_er_parallel is gts_er: every apply() traced, the
 *    same nodes in the same order, the same score, move and principal
 *    variation, on random trees (with and without table, deepening,
 *    transpositions, a split ply) and on every built-in game.
 */
#include <criterion/criterion.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "fixture.h"

#include <stdio.h>
#include <string.h>

/* ---- an explicit tree ---------------------------------------------------- */

/* fixture.h's table tree: fx_xnode {n, {children}, value}. */
enum { XMAX_CHILD = FX_XMAX_CHILD, XMAX_NODES = FX_XMAX_PLY };
typedef fx_xnode xnode;

static gts_game x_game(bool hash)
{
    return fx_xtree_game(XMAX_CHILD, hash ? FX_X_HASH | FX_X_CLONE : FX_X_CLONE);
}

/* Plain negamax over the explicit tree. */
static gts_score x_negamax(const xnode *t, int id)
{
    if (t[id].n == 0)
        return t[id].value;
    gts_score best = -GTS_SCORE_INF;
    for (int i = 0; i < t[id].n; i++) {
        gts_score v = -x_negamax(t, t[id].child[i]);
        if (v > best)
            best = v;
    }
    return best;
}

/*
 * The published serial ER, transcribed literally (negamax; p.val starts at
 * alpha everywhere, refuteRest included). A node's evalFirst result and its
 * "done" flag are kept per node id, as the pseudo-code keeps them in the
 * node; the children are sorted by that value, lowest (most promising for
 * the parent) first.
 */
typedef struct lit {
    const xnode *t;
    gts_score val[XMAX_NODES];
    bool done[XMAX_NODES];
} lit;

static gts_score lit_er(lit *L, int p, gts_score alpha, gts_score beta);

static gts_score lit_eval_first(lit *L, int p, gts_score alpha, gts_score beta)
{
    L->val[p] = alpha;
    const xnode *nd = &L->t[p];
    if (nd->n == 0) {
        L->done[p] = true;
        return nd->value;
    }
    gts_score t = -lit_er(L, nd->child[0], -beta, -L->val[p]);
    if (t > L->val[p])
        L->val[p] = t;
    L->done[p] = L->val[p] >= beta || nd->n == 1;
    return L->val[p];
}

static gts_score lit_refute_rest(lit *L, int p, gts_score alpha, gts_score beta)
{
    L->val[p] = alpha; /* the published line: the first child's value is lost */
    const xnode *nd = &L->t[p];
    for (int i = 1; i < nd->n; i++) {
        int ch = nd->child[i];
        gts_score t = -lit_eval_first(L, ch, -beta, -L->val[p]);
        if (!L->done[ch])
            t = -lit_refute_rest(L, ch, -beta, -L->val[p]);
        if (t > L->val[p])
            L->val[p] = t;
        if (L->val[p] >= beta)
            return L->val[p];
    }
    return L->val[p];
}

static gts_score lit_er(lit *L, int p, gts_score alpha, gts_score beta)
{
    L->val[p] = alpha;
    const xnode *nd = &L->t[p];
    if (nd->n == 0)
        return nd->value;
    for (int i = 0; i < nd->n; i++) {
        int ch = nd->child[i];
        gts_score t = -lit_eval_first(L, ch, -beta, -L->val[p]);
        if (L->done[ch]) {
            if (t > L->val[p])
                L->val[p] = t;
            if (L->val[p] >= beta)
                return L->val[p];
        }
    }
    int order[XMAX_CHILD];
    for (int i = 0; i < nd->n; i++)
        order[i] = nd->child[i];
    for (int i = 1; i < nd->n; i++) { /* stable: by val ascending */
        int x = order[i], j = i - 1;
        while (j >= 0 && L->val[order[j]] > L->val[x]) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = x;
    }
    for (int i = 0; i < nd->n; i++) {
        int ch = order[i];
        if (!L->done[ch]) {
            gts_score t = -lit_refute_rest(L, ch, -beta, -L->val[p]);
            if (t > L->val[p])
                L->val[p] = t;
            if (L->val[p] >= beta)
                return L->val[p];
        }
    }
    return L->val[p];
}

/*
 * Root 0 with children A (1) and B (2); A's leaves 3, 4 and B's leaves 5, 6
 * (values for the root's side, two plies down). v(A) = max(-1, -5) = -1,
 * v(B) = -3, v(root) = max(1, 3) = 3. The literal refuteRest of A starts
 * from alpha and sees only its second leaf: A = -5, and the root takes 5.
 */
static xnode TREE_FIRST_LOST[] = {
    {.n = 2, .child = {1, 2}}, {.n = 2, .child = {3, 4}}, {.n = 2, .child = {5, 6}},
    {.value = 1},              {.value = 5},              {.value = 3},              {.value = 3},
};

/*
 * A deeper one (three plies, three children per inner node): the dropped
 * value is a first grandchild found by evalFirst inside refuteRest.
 */
static xnode TREE_DEEP[] = {
    /* 0 */ {.n = 3, .child = {1, 2, 3}},
    /* 1 */ {.n = 3, .child = {4, 5, 6}},
    /* 2 */ {.n = 3, .child = {7, 8, 9}},
    /* 3 */ {.n = 3, .child = {10, 11, 12}},
    /* 4 */ {.n = 2, .child = {13, 14}},
    /* 5 */ {.n = 2, .child = {15, 16}},
    /* 6 */ {.n = 2, .child = {17, 18}},
    /* 7 */ {.n = 2, .child = {19, 20}},
    /* 8 */ {.n = 2, .child = {21, 22}},
    /* 9 */ {.n = 2, .child = {23, 24}},
    /* 10 */ {.n = 2, .child = {25, 26}},
    /* 11 */ {.n = 2, .child = {27, 28}},
    /* 12 */ {.n = 2, .child = {29, 30}},
    {.value = -4}, {.value = 7},  {.value = 2}, {.value = -6}, {.value = 9},  {.value = 1},
    {.value = 3},  {.value = -2}, {.value = 8}, {.value = 5},  {.value = -7}, {.value = 6},
    {.value = 0},  {.value = 4},  {.value = -5}, {.value = 2}, {.value = -1}, {.value = 3},
};

static gts_score lib_search(gts_algorithm alg, xnode *nodes, int depth, bool hash,
                            int threads)
{
    gts_engine *e;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, threads), GTS_OK);
    gts_game g = x_game(hash);
    fx_xtree t = {.nodes = nodes};
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(gts_search(e, alg, &g, &t, &l, &r), GTS_OK, "%s", gts_algorithm_name(alg));
    cr_assert_eq(t.ply, 0, "state restored");
    gts_engine_free(e);
    return r.score;
}

static void check_tree(xnode *nodes, int depth, const char *name)
{
    gts_score want = x_negamax(nodes, 0);
    lit L = {.t = nodes};
    gts_score literal = lit_er(&L, 0, -GTS_SCORE_INF, GTS_SCORE_INF);
    cr_assert_neq(literal, want, "%s: the literal transcription gets it right (%d)", name,
                  literal);
    static const gts_algorithm algs[] = {GTS_ALG_MINIMAX, GTS_ALG_ER, GTS_ALG_ER_PARALLEL};
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++)
        for (int hash = 0; hash <= 1; hash++)
            for (int threads = 1; threads <= (algs[a] == GTS_ALG_ER_PARALLEL ? 8 : 1); threads++)
                cr_expect_eq(lib_search(algs[a], nodes, depth, hash, threads), want,
                             "%s: %s (table %d, %d threads) != minimax %d", name,
                             gts_algorithm_name(algs[a]), hash, threads, want);
}

Test(er, literal_refute_rest_loses_the_first_grandchild)
{
    cr_assert_eq(x_negamax(TREE_FIRST_LOST, 0), 3);
    lit L = {.t = TREE_FIRST_LOST};
    cr_assert_eq(lit_er(&L, 0, -GTS_SCORE_INF, GTS_SCORE_INF), 5);
    check_tree(TREE_FIRST_LOST, 2, "two plies");
}

Test(er, literal_refute_rest_is_wrong_deeper_too)
{
    check_tree(TREE_DEEP, 3, "three plies");
}

/* ---- the built-in games ---------------------------------------------------- */

typedef struct game_case {
    const char *game;
    const char *position; /* NULL: the start */
    int depth;
} game_case;

static void *new_state(const game_case *gc)
{
    void *s = NULL;
    gts_status rc = GTS_EINVAL;
    if (strcmp(gc->game, "tictactoe") == 0)
        rc = gts_tictactoe_new(gc->position, &s);
    else if (strcmp(gc->game, "connect4") == 0 || strcmp(gc->game, "connect4h") == 0)
        rc = gts_connect4_new(gc->position, &s);
    else if (strcmp(gc->game, "othello") == 0)
        rc = gts_othello_new(gc->position, &s);
    else if (strcmp(gc->game, "go") == 0)
        rc = gts_go_new(gc->position, &s);
    else if (strcmp(gc->game, "chess") == 0)
        rc = gts_chess_new(gc->position, &s);
    cr_assert_eq(rc, GTS_OK, "%s position %s", gc->game, gc->position ? gc->position : "start");
    return s;
}

Test(er, games_agree_with_minimax)
{
    static const game_case cases[] = {
        {"tictactoe", NULL, 4},
        {"tictactoe", "5", 8},
        {"connect4", NULL, 5},
        {"connect4", "4453", 5},
        {"connect4h", "44", 5},
        {"othello", NULL, 4},
        {"go", NULL, 2},
        {"chess", NULL, 2},
    };
    static const gts_algorithm algs[] = {GTS_ALG_ER, GTS_ALG_ER_PARALLEL};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const game_case *gc = &cases[i];
        const gts_game *g = gts_games_find(gc->game);
        cr_assert_not_null(g, "%s", gc->game);
        void *s = new_state(gc);
        gts_engine *ref;
        cr_assert_eq(gts_engine_new(&ref), GTS_OK);
        cr_assert_eq(gts_engine_set(ref, GTS_OPT_ITERATIVE, 0), GTS_OK);
        gts_limits l = {.struct_size = sizeof l, .depth = gc->depth};
        gts_result want = {.struct_size = sizeof want};
        cr_assert_eq(gts_search(ref, GTS_ALG_MINIMAX, g, s, &l, &want), GTS_OK);
        for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++)
            for (int k = 0; k < (algs[a] == GTS_ALG_ER_PARALLEL ? 10 : 2); k++) {
                static const int threads[] = {1, 2, 3, 4, 8};
                int tt = k % 2, th = threads[k / 2];
                gts_engine *e;
                cr_assert_eq(gts_engine_new(&e), GTS_OK);
                cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, th), GTS_OK);
                if (!tt)
                    cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 0), GTS_OK);
                gts_result r = {.struct_size = sizeof r};
                cr_assert_eq(gts_search(e, algs[a], g, s, &l, &r), GTS_OK);
                cr_expect_eq(r.score, want.score,
                             "%s %s depth %d: %s (table %d, %d threads) %d, minimax %d", gc->game,
                             gc->position ? gc->position : "start", gc->depth,
                             gts_algorithm_name(algs[a]), tt, th, r.score, want.score);
                gts_engine_free(e);
            }
        gts_engine_free(ref);
        gts_games_free(g, s);
    }
}

/* ---- one thread: gts_er_parallel is gts_er, node for node ------------------ */

/*
 * The game wrapped so that every apply() is traced: the count and a hash of
 * the sequence of (ply, move) pairs, i.e. the visited nodes in the order
 * they were visited. evaluate() calls are counted too. (The built-in games
 * ignore their user pointer, so the wrapper keeps its record in a static:
 * Criterion runs each test in a process of its own, and only one thread
 * searches here.)
 */
typedef struct trace {
    const gts_game *inner;
    int ply;
    uint64_t applies, evals, hash;
} trace;

static trace TRACE;

static int tr_apply(void *s, gts_move m, void *user)
{
    TRACE.applies++;
    TRACE.ply++;
    TRACE.hash = (TRACE.hash ^ (m * UINT64_C(0x9e3779b97f4a7c15) + (uint64_t)TRACE.ply))
                 * UINT64_C(0x100000001b3);
    return TRACE.inner->apply(s, m, user);
}

static int tr_undo(void *s, gts_move m, void *user)
{
    TRACE.ply--;
    return TRACE.inner->undo(s, m, user);
}

static gts_score tr_evaluate(void *s, void *user)
{
    TRACE.evals++;
    return TRACE.inner->evaluate(s, user);
}

typedef struct traced_run {
    gts_score score;
    gts_move best;
    uint64_t nodes, applies, evals, hash, mandatory, speculative;
    uint32_t pv_len;
    gts_move pv[64];
} traced_run;

static traced_run traced_search(gts_algorithm alg, const gts_game *game, void *state, int depth,
                                bool tt, bool iterative, int split_ply)
{
    gts_game g = *game;
    g.apply = tr_apply;
    g.undo = tr_undo;
    g.evaluate = tr_evaluate;
    memset(&TRACE, 0, sizeof TRACE);
    TRACE.inner = game;
    gts_engine *e;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, 1), GTS_OK);
    if (!tt)
        cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 0), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_ITERATIVE, iterative), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_SPLIT_PLY, split_ply), GTS_OK);
    traced_run t;
    memset(&t, 0, sizeof t);
    gts_limits l = {.struct_size = sizeof l, .depth = depth};
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(gts_search(e, alg, &g, state, &l, &r), GTS_OK, "%s",
                 gts_algorithm_name(alg));
    cr_assert_eq(TRACE.ply, 0, "state restored");
    t.score = r.score;
    t.best = r.best_move;
    t.nodes = r.nodes;
    t.applies = TRACE.applies;
    t.evals = TRACE.evals;
    t.hash = TRACE.hash;
    t.mandatory = r.nodes_mandatory;
    t.speculative = r.nodes_speculative;
    t.pv_len = r.pv_length;
    for (uint32_t i = 0; i < r.pv_length && i < 64; i++)
        t.pv[i] = r.pv[i];
    gts_engine_free(e);
    return t;
}

/* gts_er_parallel at one thread against gts_er: the same nodes in the same
 * order, the same score, move and principal variation. */
static void expect_same_search(const gts_game *game, void *state, int depth, bool tt,
                               bool iterative, int split_ply, const char *what)
{
    traced_run s = traced_search(GTS_ALG_ER, game, state, depth, tt, iterative, split_ply);
    traced_run p = traced_search(GTS_ALG_ER_PARALLEL, game, state, depth, tt, iterative,
                                 split_ply);
    cr_expect_eq(p.nodes, s.nodes, "%s: er_parallel %llu nodes, er %llu", what,
                 (unsigned long long)p.nodes, (unsigned long long)s.nodes);
    cr_expect_eq(p.applies, s.applies, "%s: apply() calls %llu, er %llu", what,
                 (unsigned long long)p.applies, (unsigned long long)s.applies);
    cr_expect_eq(p.hash, s.hash, "%s: the visited sequence differs from er's", what);
    cr_expect_eq(p.evals, s.evals, "%s: evaluate() calls %llu, er %llu", what,
                 (unsigned long long)p.evals, (unsigned long long)s.evals);
    cr_expect_eq(p.score, s.score, "%s: score %d, er %d", what, p.score, s.score);
    cr_expect_eq(p.best, s.best, "%s: best move", what);
    cr_expect_eq(p.pv_len, s.pv_len, "%s: PV length %u, er %u", what, p.pv_len, s.pv_len);
    for (uint32_t i = 0; i < p.pv_len && i < s.pv_len && i < 64; i++)
        cr_expect_eq(p.pv[i], s.pv[i], "%s: PV move %u", what, i);
    cr_expect_eq(p.mandatory + 1, p.nodes, "%s: one thread: every node mandatory", what);
}

Test(er, parallel_one_thread_visits_what_er_visits_random_trees)
{
    const gts_game *g = gts_game_randtree();
    int cases = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        gts_randtree_params p = {.struct_size = sizeof p, .seed = seed,
                                 .branching = 2 + (uint32_t)(seed % 6),
                                 .depth = 4 + (uint32_t)(seed % 4),
                                 .min_value = -100, .max_value = 100,
                                 .branching_jitter = (uint32_t)(seed % 3),
                                 .terminal_percent = (uint32_t)(seed % 4) * 5,
                                 .transpositions = seed % 2 == 0,
                                 .ordered_percent = (uint32_t)(seed * 37 % 101)};
        void *s = fx_randtree_new(&p);
        char what[96];
        for (int variant = 0; variant < 4; variant++) {
            bool tt = variant != 1, iterative = variant != 2;
            int split_ply = variant == 3 ? 2 : 0;
            snprintf(what, sizeof what, "seed %llu b%u d%u, table %d, deepening %d, split ply %d",
                     (unsigned long long)seed, p.branching, p.depth, tt, iterative, split_ply);
            expect_same_search(g, s, (int)p.depth, tt, iterative, split_ply, what);
            cases++;
        }
        gts_games_free(g, s);
    }
    /* A wide, deep one: split nodes many plies down. */
    gts_randtree_params p = {.struct_size = sizeof p, .seed = 7, .branching = 8, .depth = 8,
                             .min_value = -1000, .max_value = 1000, .ordered_percent = 85};
    void *s = fx_randtree_new(&p);
    expect_same_search(g, s, 8, true, true, 0, "b8 d8 85%");
    gts_games_free(g, s);
    cr_assert_gt(cases, 0);
}

Test(er, parallel_one_thread_visits_what_er_visits_games)
{
    static const game_case cases[] = {
        {"tictactoe", NULL, 9},
        {"tictactoe", "5", 8},
        {"connect4", NULL, 9},
        {"connect4", "4453", 9},
        {"connect4h", "44", 7},
        {"othello", NULL, 6},
        {"go", NULL, 3},
        {"chess", NULL, 4},
        {"randtree", NULL, 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const game_case *gc = &cases[i];
        const gts_game *g = gts_games_find(gc->game);
        cr_assert_not_null(g, "%s", gc->game);
        void *s;
        if (strcmp(gc->game, "randtree") == 0) {
            gts_randtree_params p = {.struct_size = sizeof p, .seed = 3, .branching = 6,
                                     .depth = 8, .min_value = -500, .max_value = 500,
                                     .ordered_percent = 70};
            cr_assert_eq(gts_randtree_new(&p, &s), GTS_OK);
        } else {
            s = new_state(gc);
        }
        for (int tt = 0; tt <= 1; tt++) {
            char what[96];
            snprintf(what, sizeof what, "%s %s depth %d, table %d", gc->game,
                     gc->position ? gc->position : "start", gc->depth, tt);
            expect_same_search(g, s, gc->depth, tt, true, 0, what);
        }
        gts_games_free(g, s);
    }
}

/* Virtual processors make a parallel schedule repeatable: gts_er_parallel
 * at 3, 16 and 64 of them on trees big enough for refutations running
 * beside each other (a running refutation narrows its window when its
 * parent's alpha rises), against minimax. */
Test(er, parallel_exact_on_virtual_processors)
{
    const gts_game *g = gts_game_randtree();
    for (uint64_t seed = 1; seed <= 8; seed++) {
        gts_randtree_params p = {.struct_size = sizeof p, .seed = 500 + seed,
                                 .branching = 5 + (uint32_t)(seed % 3),
                                 .depth = 6 + (uint32_t)(seed % 2),
                                 .min_value = seed % 3 == 0 ? -4 : -1000,
                                 .max_value = seed % 3 == 0 ? 4 : 1000,
                                 .transpositions = seed % 2 == 0,
                                 .ordered_percent = (uint32_t)(seed * 13 % 90)};
        void *s = fx_randtree_new(&p);
        gts_engine *ref;
        cr_assert_eq(gts_engine_new(&ref), GTS_OK);
        cr_assert_eq(gts_engine_set(ref, GTS_OPT_ITERATIVE, 0), GTS_OK);
        gts_limits l = {.struct_size = sizeof l, .depth = (int)p.depth};
        gts_result want = {.struct_size = sizeof want};
        cr_assert_eq(gts_search(ref, GTS_ALG_MINIMAX, g, s, &l, &want), GTS_OK);
        static const int procs[] = {3, 16, 64};
        for (int k = 0; k < 3; k++) {
            gts_engine *e;
            cr_assert_eq(gts_engine_new(&e), GTS_OK);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, procs[k]), GTS_OK);
            cr_assert_eq(gts_engine_set(e, GTS_OPT_VIRTUAL, 1), GTS_OK);
            if ((seed + (uint64_t)k) % 2)
                cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, 0), GTS_OK);
            gts_result r = {.struct_size = sizeof r};
            cr_assert_eq(gts_search(e, GTS_ALG_ER_PARALLEL, g, s, &l, &r), GTS_OK);
            cr_expect_eq(r.score, want.score, "seed %llu b%u d%u, %d virtual processors: %d, "
                         "minimax %d", (unsigned long long)p.seed, p.branching, p.depth,
                         procs[k], r.score, want.score);
            gts_engine_free(e);
        }
        gts_engine_free(ref);
        gts_games_free(g, s);
    }
}
