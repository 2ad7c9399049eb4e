/* The best-first tree module (lib/search/bestfirst.h) on its own, driven
 * directly on random trees: the walk puts the state where a replay of the
 * node's moves from the root puts a second copy; expansion creates every
 * child through the init hook, counts them and backs up once; a tree stops
 * at its byte budget without recording an error; a failing init keeps no
 * child and leaves the state at the node. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <gts/gts.h>
#include "gts_games.h"
#include "search/bestfirst.h"

typedef struct tnode {
    gts__bf_node h;
    uint64_t key; /* the state's hash when the node was created */
} tnode;

typedef struct tree {
    gts__bf_tree t; /* first, as the module requires */
    const gts_game *g;
    uint32_t inits, overs, backups, fail_at;
} tree;

static tnode *at(const gts__bf_tree *t, uint32_t x)
{
    return gts__bf_at(t, x);
}

static bool t_init(gts__bf_tree *t, uint32_t x)
{
    tree *s = (tree *)(void *)t;
    at(t, x)->key = s->g->hash(t->c->state, s->g->user);
    return ++s->inits != s->fail_at;
}

static void t_over(gts__bf_tree *t, uint32_t x)
{
    (void)x;
    ((tree *)(void *)t)->overs++;
}

static void t_back_up(gts__bf_tree *t, uint32_t x)
{
    (void)x;
    ((tree *)(void *)t)->backups++;
}

static const gts__bf_hooks hooks = {t_init, t_over, t_back_up};

typedef struct fixture {
    gts_engine *e;
    gts__ctx *c;
    const gts_game *g;
    void *s, *ref; /* the searched state, a second copy for the replay */
} fixture;

static fixture setup(uint64_t seed)
{
    fixture f;
    gts_randtree_params p = {.struct_size = sizeof p, .seed = seed, .branching = 5,
                             .depth = 9, .branching_jitter = 3, .terminal_percent = 10,
                             .min_value = -100, .max_value = 100};
    cr_assert_eq(gts_engine_new(&f.e), GTS_OK);
    f.g = gts_game_randtree();
    cr_assert_eq(gts_randtree_new(&p, &f.s), GTS_OK);
    cr_assert_eq(gts_randtree_new(&p, &f.ref), GTS_OK);
    f.c = gts__ctx_new(NULL, f.g->max_moves);
    cr_assert_not_null(f.c);
    gts__ctx_begin(f.c, f.e, f.g, f.s);
    return f;
}

static void teardown(fixture *f)
{
    gts__ctx_free(NULL, f->c);
    gts_games_free(f->g, f->s);
    gts_games_free(f->g, f->ref);
    gts_engine_free(f->e);
}

/* The hash of node @x's position, by applying its moves from the root to
 * the second copy (and undoing them). */
static uint64_t replay(const fixture *f, const gts__bf_tree *t, uint32_t x)
{
    gts_move path[GTS_MAX_PLY];
    int n = 0;
    for (; x != 0; x = gts__bf_link_at(t, x)->parent)
        path[n++] = gts__bf_link_at(t, x)->move;
    for (int i = n - 1; i >= 0; i--)
        cr_assert_eq(f->g->apply(f->ref, path[i], f->g->user), 0);
    uint64_t key = f->g->hash(f->ref, f->g->user);
    for (int i = 0; i < n; i++)
        cr_assert_eq(f->g->undo(f->ref, path[i], f->g->user), 0);
    return key;
}

Test(bestfirst, walk_and_expansion_on_random_trees)
{
    for (uint64_t seed = 1; seed <= 20; seed++) {
        fixture f = setup(seed);
        uint64_t root_key = f.g->hash(f.s, f.g->user);
        tree s;
        memset(&s, 0, sizeof s);
        s.g = f.g;
        gts__run run = {.engine = f.e, .ctx = &f.c, .threads = 1};
        gts_result r = {.struct_size = sizeof r};
        cr_assert(gts__bf_start(&s.t, &run, sizeof(tnode), &hooks, 9, &r));
        at(&s.t, 0)->key = root_key;
        uint64_t rng = seed * 0x9e3779b97f4a7c15u;
        for (int step = 0; step < 300; step++) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            uint32_t x = (uint32_t)(rng % s.t.nnodes);
            if (at(&s.t, x)->h.expanded || at(&s.t, x)->h.depth <= 0) {
                /* travel only: the state is where the replay puts it */
                cr_assert(gts__bf_goto(&s.t, x));
                cr_assert_eq(f.g->hash(f.s, f.g->user), replay(&f, &s.t, x),
                             "seed %llu: at node %u", (unsigned long long)seed, x);
                continue;
            }
            uint32_t before = s.t.nnodes, inits = s.inits, overs = s.overs;
            uint32_t backups = s.backups;
            uint64_t nodes = f.c->nodes;
            cr_assert(gts__bf_expand(&s.t, x));
            const tnode *nd = at(&s.t, x);
            cr_assert(nd->h.expanded);
            cr_assert_eq(s.t.cur, x, "the state is left at the expanded node");
            cr_assert_eq(f.g->hash(f.s, f.g->user), replay(&f, &s.t, x));
            cr_assert_eq(s.backups, backups + (nd->h.n > 0 || x != 0 ? 1u : 0u));
            if (nd->h.n == 0) {
                cr_assert_eq(s.overs, overs + 1);
                cr_assert_eq(s.t.nnodes, before);
                continue;
            }
            /* one block of children, each created at its own position,
             * counted once; the travel applies are not counted */
            cr_assert_eq(nd->h.first, before);
            cr_assert_eq(s.t.nnodes, before + nd->h.n);
            cr_assert_eq(s.inits, inits + nd->h.n);
            cr_assert_eq(f.c->nodes, nodes + nd->h.n);
            for (uint32_t i = 0; i < nd->h.n; i++) {
                const tnode *ch = at(&s.t, nd->h.first + i);
                cr_assert_eq(ch->h.link.parent, x);
                cr_assert_eq(ch->h.link.ply, nd->h.link.ply + 1);
                cr_assert_eq(ch->h.depth, nd->h.depth - 1);
                cr_assert(!ch->h.expanded && ch->h.n == 0);
                cr_assert_eq(ch->key, replay(&f, &s.t, nd->h.first + i));
            }
        }
        cr_assert(gts__bf_finish(&s.t, &r));
        cr_assert_eq(s.t.cur, 0u);
        cr_assert_eq(f.g->hash(f.s, f.g->user), root_key, "back at the root");
        cr_assert_eq(r.flags & GTS_RESULT_MEMORY_LIMIT, 0u);
        gts__bf_free(&s.t);
        teardown(&f);
    }
}

Test(bestfirst, the_budget_stops_growth_without_an_error)
{
    fixture f = setup(7);
    tree s;
    memset(&s, 0, sizeof s);
    s.g = f.g;
    size_t budget = 1000 * sizeof(tnode);
    gts__bf_init(&s.t, f.c, &f.e->alloc, sizeof(tnode), budget, &hooks);
    cr_assert_neq(gts__bf_add(&s.t, GTS__BF_NONE, GTS_MOVE_NONE), GTS__BF_NONE);
    gts__bf_node_at(&s.t, 0)->depth = 9;
    bool ok = true;
    uint32_t x = 0;
    /* breadth-first, until the array cannot grow */
    for (; ok && x < s.t.nnodes; x++)
        if (!at(&s.t, x)->h.expanded && at(&s.t, x)->h.depth > 0)
            ok = gts__bf_expand(&s.t, x);
    cr_assert(!ok && s.t.full, "a 9-ply tree does not fit in 1,000 nodes");
    cr_assert_leq(s.t.nnodes, 1000u);
    cr_assert_leq((size_t)s.t.cap * sizeof(tnode), budget);
    cr_assert_eq(f.e->shared.error, 0, "the budget is not an error");
    cr_assert(!at(&s.t, x - 1)->h.expanded, "the node that did not fit is not expanded");
    gts_result r = {.struct_size = sizeof r};
    cr_assert(gts__bf_finish(&s.t, &r), "a full tree still has a result");
    cr_assert(r.flags & GTS_RESULT_MEMORY_LIMIT);
    gts__bf_free(&s.t);
    teardown(&f);
}

Test(bestfirst, a_failing_init_keeps_no_child)
{
    fixture f = setup(3);
    uint64_t root_key = f.g->hash(f.s, f.g->user);
    tree s;
    memset(&s, 0, sizeof s);
    s.g = f.g;
    s.fail_at = 3; /* the third child of the root */
    gts_result r = {.struct_size = sizeof r};
    gts__run run = {.engine = f.e, .ctx = &f.c, .threads = 1};
    cr_assert(gts__bf_start(&s.t, &run, sizeof(tnode), &hooks, 9, &r));
    cr_assert(!gts__bf_expand(&s.t, 0));
    cr_assert_eq(s.t.nnodes, 1u, "no child kept");
    cr_assert(!at(&s.t, 0)->h.expanded && at(&s.t, 0)->h.n == 0);
    cr_assert_eq(s.backups, 0u);
    cr_assert_eq(f.g->hash(f.s, f.g->user), root_key, "every apply undone");
    gts__bf_free(&s.t);
    teardown(&f);
}
