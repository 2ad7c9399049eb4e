/* The best-first tree module (lib/search/bestfirst.h) on its own, driven
 * directly on random trees: the walk puts the state where a replay of the
 * node's moves from the root puts a second copy; expansion creates every
 * child through the init hook, counts them and backs up once; a tree stops
 * at its byte budget without recording an error; a failing init keeps no
 * child and leaves the state at the node. The pinned store (MCTS's): pieces
 * never move and never overlap while cursors share one budget; spare
 * blocks are reused before the allocator and kept within their cap; a
 * failing allocator is GTS_ENOMEM, not a full tree. */
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

/* ---- the pinned store ---------------------------------------------------- */

/* An allocator that counts what is live and can fail from a given call. */
typedef struct counting {
    uint64_t calls, fail_from; /* fail_from 0: never */
    int64_t live_bytes, live_blocks;
} counting;

static void *c_allocate(size_t size, void *user)
{
    counting *k = user;
    if (k->fail_from && ++k->calls >= k->fail_from)
        return NULL;
    void *p = malloc(size);
    if (p) {
        k->live_bytes += (int64_t)size;
        k->live_blocks++;
    }
    return p;
}

static void c_release(void *p, size_t size, void *user)
{
    counting *k = user;
    k->live_bytes -= (int64_t)size;
    k->live_blocks--;
    free(p);
}

typedef struct piece {
    unsigned char *p;
    size_t size;
} piece;

static int by_address(const void *a, const void *b)
{
    const piece *x = a, *y = b;
    return x->p < y->p ? -1 : x->p > y->p;
}

Test(bestfirst, pinned_pieces_never_move_and_share_one_budget)
{
    fixture f = setup(5);
    counting k = {0};
    gts_allocator alloc = {sizeof alloc, c_allocate, c_release, &k};
    const size_t block = 4096;
    const uint64_t budget = 10 * block + 1000;
    uint32_t full = 0;
    gts__bf_pins pins;
    gts__bf_pins_init(&pins, &alloc, block, budget, &full);
    gts__bf_cursor cur[3] = {{0}};
    enum { MAX = 4096 };
    static piece pieces[MAX];
    int n = 0;
    uint64_t rng = 12345;
    size_t size;
    /* three "workers" take pieces (multiples of 8 bytes, some larger than
     * a block) in turn until the budget says no */
    for (;;) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        size = 8 * (1 + rng % 100);
        if (rng % 97 == 0)
            size = block + 8 * (rng % 64); /* its own block, exactly */
        cr_assert_lt(n, MAX);
        unsigned char *p = gts__bf_pin_take(&pins, &cur[n % 3], size, f.c);
        if (!p)
            break;
        cr_assert_eq((uintptr_t)p % 8, 0u, "packed multiples of 8 stay 8-aligned");
        memset(p, (unsigned char)n, size);
        pieces[n++] = (piece){p, size};
    }
    cr_assert_eq(full, 1u, "the budget is out for everyone");
    cr_assert_eq(f.e->shared.error, 0, "a full store is not an error");
    /* every piece still holds what was written: none moved or overlapped */
    for (int i = 0; i < n; i++)
        for (size_t j = 0; j < pieces[i].size; j++)
            cr_assert_eq(pieces[i].p[j], (unsigned char)i, "piece %d byte %zu", i, j);
    qsort(pieces, (size_t)n, sizeof *pieces, by_address);
    for (int i = 1; i < n; i++)
        cr_assert_leq(pieces[i - 1].p + pieces[i - 1].size, pieces[i].p);
    /* the budget: what the cursors hold is what was charged, within it */
    uint64_t held = 0;
    gts__bf_blocks whole = {0};
    for (int i = 0; i < 3; i++) {
        gts__bf_blocks mine = gts__bf_cursor_detach(&cur[i]);
        held += mine.bytes;
        gts__bf_blocks_join(&whole, &mine);
        cr_assert_null(cur[i].blocks);
    }
    cr_assert_eq(held, gts__atomic_load_relaxed_64(&pins.used));
    cr_assert_eq(whole.bytes, held);
    cr_assert_leq(held, budget);
    cr_assert_gt(held + size, budget, "it stopped only when the piece did not fit");
    cr_assert_eq(k.live_bytes, (int64_t)(held + (uint64_t)k.live_blocks * sizeof(gts__bf_block)));
    /* freeing the whole tree at once: everything goes back */
    gts__bf_spare_give(NULL, whole.head, block, 0, &alloc);
    gts__bf_pins_end(&pins, NULL, 0);
    cr_assert_eq(k.live_blocks, 0);
    cr_assert_eq(k.live_bytes, 0);
    teardown(&f);
}

Test(bestfirst, spare_blocks_are_taken_first_and_kept_within_their_cap)
{
    fixture f = setup(6);
    counting k = {0};
    gts_allocator alloc = {sizeof alloc, c_allocate, c_release, &k};
    const size_t block = 1024;
    uint32_t full = 0;
    gts__bf_pins pins;
    gts__bf_pins_init(&pins, &alloc, block, UINT64_MAX, &full);
    gts__bf_cursor cur = {0};
    for (int i = 0; i < 6; i++) /* six standard blocks */
        cr_assert_not_null(gts__bf_pin_take(&pins, &cur, block, f.c));
    cr_assert_not_null(gts__bf_pin_take(&pins, &cur, 3 * block, f.c)); /* and a large one */
    cr_assert_eq(k.live_blocks, 7);
    gts__bf_blocks whole = gts__bf_cursor_detach(&cur);
    cr_assert_eq(whole.bytes, 9 * block);
    gts__bf_pins_end(&pins, NULL, 0);
    /* the spare list keeps standard blocks up to its cap, frees the rest */
    gts__bf_blocks spare = {0};
    gts__bf_spare_give(&spare, whole.head, block, 4 * block + block / 2, &alloc);
    cr_assert_eq(spare.bytes, 4 * block);
    cr_assert_eq(k.live_blocks, 4);
    /* a new store takes them before the allocator, then asks it */
    gts__bf_pins_init(&pins, &alloc, block, UINT64_MAX, &full);
    gts__bf_pins_take_spare(&pins, &spare);
    cr_assert_null(spare.head);
    cr_assert_eq(spare.bytes, 0u);
    uint64_t asked = k.calls;
    k.fail_from = k.calls + 1; /* the allocator fails from now on */
    for (int i = 0; i < 4; i++)
        cr_assert_not_null(gts__bf_pin_take(&pins, &cur, block - 8, f.c), "spare block %d", i);
    cr_assert_eq(k.live_blocks, 4, "no new block");
    cr_assert_eq(f.e->shared.error, 0);
    /* the fifth block: the allocator's, and it fails: GTS_ENOMEM, not full */
    cr_assert_null(gts__bf_pin_take(&pins, &cur, block - 8, f.c));
    cr_assert_eq(k.calls, asked + 1);
    cr_assert_eq(f.e->shared.error, GTS_ENOMEM);
    cr_assert_eq(full, 0u, "out of memory is not out of budget");
    cr_assert_eq(gts__atomic_load_relaxed_64(&pins.used), 4 * block, "the failed block is not charged");
    /* adopting a whole charges it; trimming frees spare blocks to a cap */
    k.fail_from = 0;
    gts__bf_blocks kept = gts__bf_cursor_detach(&cur);
    gts__bf_cursor other = {0};
    gts__bf_cursor_adopt(&pins, &other, &kept);
    cr_assert_null(kept.head);
    cr_assert_eq(gts__atomic_load_relaxed_64(&pins.used), 8 * block);
    cr_assert_eq(other.left, 0u, "an adopted whole is not carved from");
    kept = gts__bf_cursor_detach(&other);
    gts__bf_spare_give(&spare, kept.head, block, UINT64_MAX, &alloc);
    cr_assert_eq(spare.bytes, 4 * block);
    gts__bf_spare_trim(&spare, block, &alloc);
    cr_assert_eq(spare.bytes, block);
    cr_assert_eq(k.live_blocks, 1);
    gts__bf_pins_end(&pins, &spare, UINT64_MAX);
    gts__bf_spare_trim(&spare, 0, &alloc);
    cr_assert_eq(k.live_blocks, 0);
    cr_assert_eq(k.live_bytes, 0);
    teardown(&f);
}
