/*
 * fixture.h - what the Criterion test files share, so that each shape is
 * written once: engines, a search that must succeed, the independent
 * negamax reference over any vtable, the "best move is worth the value"
 * check, the failing-callback cases on a tgame, and the random-tree case
 * generator. Header-only, static functions; include from one test file each
 * (it includes tgame.h, the random-tree game with fault injection).
 *
 * Not for the plain-main() programs under tests/stress (no Criterion there:
 * they share tests/stress/stress.h).
 */
#ifndef GTS_TESTS_FIXTURE_H
#define GTS_TESTS_FIXTURE_H

#include <criterion/criterion.h>
#include <gts/gts.h>
#include <stdlib.h>
#include <string.h>
#include "gts_games.h"
#include "tgame.h"

/* ---- engines and searches ------------------------------------------------- */

/* A new engine with the library's defaults. */
static inline gts_engine *fx_engine(void)
{
    gts_engine *e;
    cr_assert_eq(gts_engine_new(&e), GTS_OK);
    return e;
}

/* A new engine with @threads threads and a @tt_mb MiB table. */
static inline gts_engine *fx_engine_with(int threads, int tt_mb)
{
    gts_engine *e = fx_engine();
    cr_assert_eq(gts_engine_set(e, GTS_OPT_THREADS, threads), GTS_OK);
    cr_assert_eq(gts_engine_set(e, GTS_OPT_TT_MB, tt_mb), GTS_OK);
    return e;
}

/* One search set-up of a test: an algorithm at one of the test's thread
 * counts (@t its index in the test's table, @threads the count). */
typedef struct fx_run {
    gts_algorithm alg;
    int t, threads;
} fx_run;

/* Every algorithm of the library's list that @keep accepts (NULL: all): a
 * serial one at the first of the @nthreads counts @threads, a parallel
 * one at each. Returns how many it wrote (at most @cap). */
static inline int fx_runs(fx_run *out, int cap, bool (*keep)(gts_algorithm), const int *threads,
                          int nthreads)
{
    gts_algorithm all[64];
    int n = gts_algorithm_list(all, 64);
    cr_assert(n > 0 && n <= 64);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (keep && !keep(all[i]))
            continue;
        int nt = gts_algorithm_is_parallel(all[i]) ? nthreads : 1;
        for (int t = 0; t < nt; t++) {
            cr_assert(k < cap, "more than %d runs", cap);
            out[k++] = (fx_run){all[i], t, threads[t]};
        }
    }
    return k;
}

/* gts_search to @depth (and @nodes, 0 = none), which must return GTS_OK. */
static inline gts_result fx_search(gts_engine *e, gts_algorithm alg, const gts_game *g, void *s,
                                   int depth, uint64_t nodes)
{
    gts_limits l = {.struct_size = sizeof l, .depth = depth, .nodes = nodes};
    gts_result r = {.struct_size = sizeof r};
    gts_status rc = gts_search(e, alg, g, s, &l, &r);
    cr_assert_eq(rc, GTS_OK, "%s: %s", gts_algorithm_name(alg), gts_status_name(rc));
    return r;
}

/* Tic-tac-toe "1425" (X: cells 0, 1; O: cells 3, 4; X to move): @alg on
 * @e to depth 5 plays cell 2 and scores it a win in one ply, the fastest. */
static inline void fx_expect_fastest_win(gts_engine *e, gts_algorithm alg)
{
    const gts_game *g = gts_game_tictactoe();
    void *s;
    cr_assert_eq(gts_tictactoe_new("1425", &s), GTS_OK);
    gts_result r = fx_search(e, alg, g, s, 5, 0);
    cr_expect_eq(r.score, gts_score_win_in(1), "%s: win in one ply, got %d",
                 gts_algorithm_name(alg), r.score);
    cr_expect_eq(r.best_move, 2u, "%s: the winning cell", gts_algorithm_name(alg));
    gts_games_free(g, s);
}

/* ---- the reference: plain negamax over any vtable ------------------------- */

/* A decided score seen @ply plies above the node that returned it. */
static inline gts_score fx_adjust(gts_score s, int ply)
{
    if (s >= GTS_SCORE_DECIDED) return s - ply;
    if (s <= -GTS_SCORE_DECIDED) return s + ply;
    return s;
}

/* Root-relative negamax to @depth, written here and not in lib/: every
 * callback must succeed. */
static inline gts_score fx_negamax(const gts_game *v, void *s, int depth, int ply)
{
    gts_move moves[256];
    cr_assert(v->max_moves <= 256);
    int n = depth > 0 && ply < GTS_MAX_PLY ? v->generate(s, moves, v->max_moves, v->user) : 0;
    cr_assert(n >= 0, "reference search: generate failed");
    if (n == 0)
        return fx_adjust(v->evaluate(s, v->user), ply);
    gts_score best = -GTS_SCORE_INF;
    for (int i = 0; i < n; i++) {
        cr_assert_eq(v->apply(s, moves[i], v->user), 0);
        gts_score x = -fx_negamax(v, s, depth - 1, ply + 1);
        cr_assert_eq(v->undo(s, moves[i], v->user), 0);
        if (x > best)
            best = x;
    }
    return best;
}

/* The tgame (@seed, @branching, @depth)'s value searched to @to (tgame_negamax
 * on a fresh copy): "the score of the last completed depth" checks. */
static inline gts_score fx_tgame_value(uint64_t seed, int branching, int depth, int to)
{
    tgame ref;
    tgame_init(&ref, seed, branching, depth);
    gts_game rv = tgame_vtable(&ref, false);
    return tgame_negamax(&ref, &rv, to, 0);
}

/* The minimax value of a root and of each of its moves. */
#define FX_REF_MAX_MOVES 64

typedef struct fx_reference {
    gts_score value;
    int n;
    gts_move moves[FX_REF_MAX_MOVES];
    gts_score move_value[FX_REF_MAX_MOVES];
} fx_reference;

/* A child searched as a root of its own is one ply nearer: decided scores
 * (distance to the end) move by one when seen from the real root. */
static inline gts_score fx_from_child(gts_score v)
{
    if (v >= GTS_SCORE_DECIDED) v -= 1;
    else if (v <= -GTS_SCORE_DECIDED) v += 1;
    return -v;
}

/* @r (from @alg, @what for the messages) has a legal best move worth the
 * reference's value, when the root has moves. */
static inline void fx_expect_best_move(const fx_reference *ref, const gts_result *r, gts_algorithm alg,
                                const char *what)
{
    if (ref->n == 0)
        return;
    cr_expect(r->flags & GTS_RESULT_HAS_MOVE, "%s %s: a move", what, gts_algorithm_name(alg));
    int i = 0;
    while (i < ref->n && ref->moves[i] != r->best_move)
        i++;
    cr_expect(i < ref->n, "%s %s: best move %llu is legal", what, gts_algorithm_name(alg),
              (unsigned long long)r->best_move);
    if (i < ref->n)
        cr_expect_eq(ref->move_value[i], ref->value,
                     "%s %s threads=%u: best move %llu is worth %d, not %d", what,
                     gts_algorithm_name(alg), r->threads, (unsigned long long)r->best_move,
                     ref->move_value[i], ref->value);
}

/* ---- an allocator whose k-th call fails ------------------------------------ */

/* Calls made, the call that fails (1-based; 0 = none) and blocks still held,
 * for fx_counting_allocator (one per test binary). */
static struct fx_alloc_count {
    long calls, fail_at, live;
} FX_ALLOC __attribute__((unused));

static inline void *fx_counting_allocate(size_t size, void *user)
{
    (void)user;
    if (__atomic_add_fetch(&FX_ALLOC.calls, 1, __ATOMIC_RELAXED) == FX_ALLOC.fail_at)
        return NULL;
    void *p = malloc(size);
    if (p)
        __atomic_add_fetch(&FX_ALLOC.live, 1, __ATOMIC_RELAXED);
    return p;
}

static inline void fx_counting_release(void *p, size_t size, void *user)
{
    (void)size, (void)user;
    __atomic_sub_fetch(&FX_ALLOC.live, 1, __ATOMIC_RELAXED);
    free(p);
}

/* The counters zeroed, call @fail_at (0: none) to fail. */
static inline void fx_alloc_arm(long fail_at)
{
    FX_ALLOC.calls = 0;
    FX_ALLOC.fail_at = fail_at;
    FX_ALLOC.live = 0;
}

static const gts_allocator fx_counting_allocator __attribute__((unused)) = {
    sizeof(gts_allocator), fx_counting_allocate, fx_counting_release, NULL};

/* ---- failing callbacks: the k-th call of a kind fails ---------------------- */

typedef enum fx_fault {
    FX_FAIL_APPLY,
    FX_FAIL_UNDO,
    FX_FAIL_GENERATE,
    FX_FAIL_EVALUATE,
    FX_BAD_SCORE,    /* evaluate returns a score out of range */
    FX_TOO_MANY,     /* generate returns more than max_moves */
} fx_fault;

/* @f with one fault: @kind fails at call @at. */
static inline void fx_set_fault(tgame_faults *f, fx_fault kind, uint64_t at)
{
    memset(f, 0, sizeof *f);
    switch (kind) {
    case FX_FAIL_APPLY: f->fail_apply_at = at; break;
    case FX_FAIL_UNDO: f->fail_undo_at = at; break;
    case FX_FAIL_GENERATE: f->fail_generate_at = at; break;
    case FX_FAIL_EVALUATE: f->fail_evaluate_at = at; break;
    case FX_BAD_SCORE: f->bad_score_at = at; break;
    case FX_TOO_MANY: f->too_many_at = at; break;
    }
}

typedef gts_status (*fx_search_fn)(gts_engine *e, const gts_game *g, void *state,
                                   const gts_limits *l, gts_result *r);

/* For each of @kinds in turn: @search on tgame (8, 3, 6) to depth 6, with
 * that callback failing at call @at, returns GTS_ECALLBACK with the game's
 * negative status; the root state is restored, except after a failed undo
 * (which leaves the state where it failed). */
static inline void fx_expect_callback_failures(fx_search_fn search, const fx_fault *kinds, int nkinds,
                                        uint64_t at)
{
    for (int k = 0; k < nkinds; k++) {
        tgame g;
        tgame_faults f;
        fx_set_fault(&f, kinds[k], at);
        tgame_init(&g, 8, 3, 6);
        g.f = &f;
        gts_game v = tgame_vtable(&g, false);
        gts_engine *e = fx_engine();
        gts_limits l = {.struct_size = sizeof l, .depth = 6};
        gts_result r = {.struct_size = sizeof r};
        cr_expect_eq(search(e, &v, &g, &l, &r), GTS_ECALLBACK, "fault %d", k);
        cr_expect_lt(r.callback_status, 0);
        if (kinds[k] != FX_FAIL_UNDO)
            cr_expect_eq(g.ply, 0, "fault %d: state restored", k);
        gts_engine_free(e);
    }
}

/* ---- hand-built trees ----------------------------------------------------- */

enum { FX_XMAX_CHILD = 4, FX_XMAX_PLY = 32 };

/* A node of a table tree: children are table indices. */
typedef struct fx_xnode {
    int n;                    /* children; 0: a leaf */
    int child[FX_XMAX_CHILD];
    gts_score value;          /* a leaf's value, for the side to move there
                               * (for the root's side with max_side) */
    gts_score lo, hi;         /* bounds() of an interior node */
    int generated;            /* generate() calls at this node */
} fx_xnode;

/* The state: the path from the root (node 0). generate() counts its calls
 * at each node and logs the nodes it is called at (once in a row: the
 * driver generates the root too). */
typedef struct fx_xtree {
    fx_xnode *nodes;
    int path[FX_XMAX_PLY]; /* path[ply]: node at that ply */
    int ply;
    bool max_side;         /* values are the root player's: negated at odd plies */
    int log[256], nlog;
} fx_xtree;

static inline int fx_x_generate(void *s, gts_move *moves, uint32_t cap, void *user)
{
    (void)user;
    fx_xtree *t = s;
    fx_xnode *nd = &t->nodes[t->path[t->ply]];
    nd->generated++;
    if (t->nlog < 256 && (t->nlog == 0 || t->log[t->nlog - 1] != t->path[t->ply]))
        t->log[t->nlog++] = t->path[t->ply];
    return tgame_moves(moves, cap, nd->n);
}

static inline int fx_x_apply(void *s, gts_move m, void *user)
{
    (void)user;
    fx_xtree *t = s;
    const fx_xnode *nd = &t->nodes[t->path[t->ply]];
    if (m >= (gts_move)nd->n || t->ply + 1 >= FX_XMAX_PLY)
        return -1;
    t->path[t->ply + 1] = nd->child[m];
    t->ply++;
    return 0;
}

static inline int fx_x_undo(void *s, gts_move m, void *user)
{
    (void)user;
    (void)m;
    fx_xtree *t = s;
    if (t->ply == 0)
        return -1;
    t->ply--;
    return 0;
}

static inline gts_score fx_x_evaluate(void *s, void *user)
{
    (void)user;
    const fx_xtree *t = s;
    gts_score v = t->nodes[t->path[t->ply]].value;
    return t->max_side && t->ply % 2 ? -v : v;
}

static inline uint64_t fx_x_hash(void *s, void *user)
{
    (void)user;
    const fx_xtree *t = s;
    return (uint64_t)t->path[t->ply] * UINT64_C(0x9e3779b97f4a7c15) + 1;
}

static inline int fx_x_bounds(void *s, gts_score *lo, gts_score *hi, void *user)
{
    (void)user;
    const fx_xtree *t = s;
    const fx_xnode *nd = &t->nodes[t->path[t->ply]];
    *lo = nd->lo;
    *hi = nd->hi;
    return 0;
}

static inline void *fx_x_clone(void *s, void *user)
{
    (void)user;
    return tgame_copy(s, sizeof(fx_xtree));
}

/* The vtable of an fx_xtree, with the callbacks of @with (FX_X_* flags). */
enum { FX_X_HASH = 1, FX_X_CLONE = 2, FX_X_BOUNDS = 4 };

static inline gts_game fx_xtree_game(uint32_t max_moves, unsigned with)
{
    gts_game g = tgame_game_of(max_moves, fx_x_generate, fx_x_apply, fx_x_undo, fx_x_evaluate);
    g.hash = with & FX_X_HASH ? fx_x_hash : NULL;
    g.clone = with & FX_X_CLONE ? fx_x_clone : NULL;
    g.free = with & FX_X_CLONE ? tgame_free : NULL;
    g.bounds = with & FX_X_BOUNDS ? fx_x_bounds : NULL;
    return g;
}

/* @search on the tgame @g (vtable @v) to @depth with a limit of @nodes
 * nodes: GTS_OK, the limit flagged, a move (from an earlier iteration),
 * the root restored. Returns the result. */
static inline gts_result fx_expect_node_limit(fx_search_fn search, gts_engine *e, const gts_game *v,
                                              tgame *g, int depth, uint64_t nodes)
{
    gts_limits l = {.struct_size = sizeof l, .depth = depth, .nodes = nodes};
    gts_result r = {.struct_size = sizeof r};
    cr_assert_eq(search(e, v, g, &l, &r), GTS_OK);
    cr_expect(r.flags & GTS_RESULT_NODE_LIMIT);
    cr_expect(r.flags & GTS_RESULT_HAS_MOVE, "a move from an earlier iteration");
    cr_expect_eq(g->ply, 0);
    return r;
}

/* ---- random trees (the library's randtree game) ---------------------------- */

typedef struct fx_tree_case {
    gts_randtree_params p;
    int depth;
} fx_tree_case;

/* Deterministic case @i from @seed: six branching factors (2, 3, 4, 5, 7,
 * 10) with @depth_for's depths (one more on every other round), narrow value
 * ranges (ties), ragged branching, early terminals, transpositions or not,
 * ordered or not, searched to the tree's depth or one less. */
static inline fx_tree_case fx_make_case(uint64_t seed, const uint32_t depth_for[6], uint64_t i)
{
    static const uint32_t branching[] = {2, 3, 4, 5, 7, 10};
    fx_tree_case c;
    memset(&c, 0, sizeof c);
    int b = (int)(i % 6);
    c.p.struct_size = sizeof c.p;
    c.p.seed = seed + i;
    c.p.branching = branching[b];
    c.p.depth = depth_for[b] + (uint32_t)(i / 6 % 2);
    c.p.min_value = (i % 5 == 0) ? -3 : -1000; /* many ties on narrow ranges */
    c.p.max_value = (i % 5 == 0) ? 3 : 1000;
    c.p.branching_jitter = (i % 3 == 0) ? branching[b] / 2 : 0;
    c.p.terminal_percent = (i % 4 == 0) ? 10 : 0;
    c.p.transpositions = (i % 2) == 1;
    c.p.ordered_percent = (i % 7 < 3) ? 80 : 0;
    c.depth = (int)c.p.depth - (int)(i % 3 == 2);
    return c;
}

/* Tree @t of a sweep over small trees: seed @seed + t, 2 to 5 children,
 * depth @depth0 + (t / 4) % @depths, values in +-@range, a branching
 * jitter of t % @jitters, terminal_percent (t % @terms) * @step. */
static inline gts_randtree_params fx_sweep_tree(uint64_t seed, int t, uint32_t depth0,
                                                uint32_t depths, int32_t range, uint32_t jitters,
                                                uint32_t terms, uint32_t step)
{
    gts_randtree_params p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    p.seed = seed + (uint64_t)t;
    p.branching = 2 + (uint32_t)t % 4;
    p.depth = depth0 + (uint32_t)(t / 4) % depths;
    p.min_value = -range;
    p.max_value = range;
    p.branching_jitter = (uint32_t)t % jitters;
    p.terminal_percent = (uint32_t)t % terms * step;
    return p;
}

/* A randtree state for @p (asserted). */
static inline void *fx_randtree_new(const gts_randtree_params *p)
{
    void *s;
    cr_assert_eq(gts_randtree_new(p, &s), GTS_OK);
    return s;
}

/* A randtree state for @p (asserted), with the game in *@g and the root's
 * hash in *@key (to check it is restored). */
static inline void *fx_randtree(const gts_randtree_params *p, const gts_game **g, uint64_t *key)
{
    void *s = fx_randtree_new(p);
    *g = gts_game_randtree();
    *key = (*g)->hash(s, (*g)->user);
    return s;
}

#endif
