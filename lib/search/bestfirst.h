/*
 * bestfirst.h - the explicit tree of the best-first algorithms (internal):
 * Stockman's SSS*, B* and Rivest's MMA are each one file on it.
 *
 * The store. Nodes live in one array of @stride bytes each, from the
 * engine's allocator, grown by doubling within a byte budget (B* and MMA:
 * GTS_OPT_TREE_MB; SSS*: none). A node starts with a gts__bf_link (parent,
 * ply, move from the parent); the algorithm's fields follow. The array
 * moves when it grows: hold indices, not pointers, across a growth.
 *
 * The walk. The tree knows the node the game state is at and moves it to
 * another node by undoing up to their common ancestor and applying down.
 * These applies are travel, not search: they are not counted as nodes.
 *
 * Expansion (B*, MMA: every child at once). Such a node starts with a
 * gts__bf_node; gts__bf_expand() moves the state to it, generates its
 * moves, and then either calls the over hook (no move: the game is over
 * there) and backs up from its parent, or creates its children in one
 * block, applying each (counted as a node) for the init hook, and backs up
 * from the node. The hooks are the algorithm: what a new node holds and
 * what an expansion changes above it. Stockman's SSS* creates children one
 * at a time, without applying them, and uses the store and walk only.
 *
 * The tree is the first member of the algorithm's state, so a hook casts
 * the gts__bf_tree pointer it gets back to that state.
 *
 * The pinned store (MCTS). A second store kind, for trees that workers
 * read through pointers while other workers add to them, so nodes must
 * never move: memory comes in blocks (gts__bf_block) that are never
 * resized or freed during a search. Every worker carves its pieces out of
 * its own block with a bump cursor (gts__bf_cursor, owner only: no
 * atomics on the fast path); a new block is charged to one byte budget
 * that all workers share (gts__bf_pins: an atomic counter, a flag raised
 * once when the budget is out). Blocks of the standard size go back to a
 * spare list (gts__bf_blocks) that the engine keeps between searches, so
 * the next search or a tree copy takes them before it asks the allocator;
 * a whole tree is freed at once by handing its block list back. What the
 * nodes are, how children are published (MCTS: a release store of the
 * node's state word) and who frees what when, is the algorithm's.
 */
#ifndef GTS_SEARCH_BESTFIRST_H
#define GTS_SEARCH_BESTFIRST_H

#include "search/algos.h"
#include "search/node.h"

#include <pthread.h>

#define GTS__BF_NONE UINT32_MAX

typedef struct gts__bf_link {
    uint32_t parent; /* GTS__BF_NONE for the root */
    int32_t ply;
    gts_move move;   /* from the parent */
} gts__bf_link;

/* The header of a node that gts__bf_expand() expands. */
typedef struct gts__bf_node {
    gts__bf_link link;
    int32_t depth;     /* remaining depth */
    uint32_t first, n; /* children first .. first + n - 1, once expanded */
    bool expanded;     /* children created, or nothing to expand */
} gts__bf_node;

typedef struct gts__bf_tree gts__bf_tree;

/* What an algorithm does at gts__bf_expand()'s three points. */
typedef struct gts__bf_hooks {
    /* A new child @x, the state at it: its gts__bf_node is set (link,
     * depth; the rest of the node zero). False stops the expansion (after
     * a failure, recorded). */
    bool (*init)(gts__bf_tree *t, uint32_t x);
    /* Node @x, the state at it, has no move: its exact value. */
    void (*over)(gts__bf_tree *t, uint32_t x);
    /* Node @x's children changed: recompute it and what depends on it. */
    void (*back_up)(gts__bf_tree *t, uint32_t x);
} gts__bf_hooks;

struct gts__bf_tree {
    gts__ctx *c;
    const gts_allocator *alloc;
    char *base;                 /* the node array */
    size_t stride;              /* bytes per node */
    uint32_t nnodes, cap;
    size_t max_bytes;           /* the budget of the node array */
    bool full;                  /* it could not grow: budget or allocator */
    const gts__bf_hooks *hooks; /* gts__bf_expand's; NULL if unused */
    uint32_t cur;               /* the node the game state is at */
    uint32_t path[GTS_MAX_PLY + 1];
};

/* An empty tree of @stride-byte nodes, at most @max_bytes of them. */
void gts__bf_init(gts__bf_tree *t, gts__ctx *c, const gts_allocator *alloc, size_t stride,
                  size_t max_bytes, const gts__bf_hooks *hooks);

/* The tree of a gts__run_fn search (B*, MMA) on @run's first context:
 * from the engine's allocator within GTS_OPT_TREE_MB, node 0 the root, a
 * gts__bf_node at remaining @depth. False, with GTS_RESULT_MEMORY_LIMIT in
 * @r, when not even the root fits (nothing to free then). */
bool gts__bf_start(gts__bf_tree *t, const gts__run *run, size_t stride,
                   const gts__bf_hooks *hooks, int depth, gts_result *r);

/* Free the node array. */
void gts__bf_free(gts__bf_tree *t);

static inline void *gts__bf_at(const gts__bf_tree *t, uint32_t x)
{
    return (void *)(t->base + (size_t)x * t->stride);
}

static inline const gts__bf_link *gts__bf_link_at(const gts__bf_tree *t, uint32_t x)
{
    return (const gts__bf_link *)gts__bf_at(t, x);
}

static inline gts__bf_node *gts__bf_node_at(const gts__bf_tree *t, uint32_t x)
{
    return (gts__bf_node *)gts__bf_at(t, x);
}

/* Room for @n more nodes; false (and full set, nothing recorded: the
 * caller decides whether that is a failure) when the array cannot grow. */
bool gts__bf_reserve(gts__bf_tree *t, uint32_t n);

/* A new node, zeroed but for its link: the root (@parent GTS__BF_NONE,
 * ply 0), or a child of @parent by @move. GTS__BF_NONE when the array is
 * full (as gts__bf_reserve). */
uint32_t gts__bf_add(gts__bf_tree *t, uint32_t parent, gts_move move);

/* Undo moves until the state is at the current node's ancestor at @ply.
 * False after a failed undo (recorded; the others are still undone). */
static inline bool gts__bf_rewind(gts__bf_tree *t, int ply)
{
    gts__ctx *c = t->c;
    bool ok = true;
    while (gts__bf_link_at(t, t->cur)->ply > ply) {
        const gts__bf_link *l = gts__bf_link_at(t, t->cur);
        int rc = c->game->undo(c->state, l->move, c->user);
        if (rc < 0 && ok) {
            gts__fail(c, GTS_ECALLBACK, rc);
            ok = false;
        }
        t->cur = l->parent;
    }
    return ok;
}

/* Move the state to node @target; false after a failure (recorded). */
static inline bool gts__bf_goto(gts__bf_tree *t, uint32_t target)
{
    gts__ctx *c = t->c;
    int len = 0;
    uint32_t n = target, cur = t->cur;
    while (gts__bf_link_at(t, n)->ply > gts__bf_link_at(t, cur)->ply) {
        t->path[len++] = n;
        n = gts__bf_link_at(t, n)->parent;
    }
    while (gts__bf_link_at(t, cur)->ply > gts__bf_link_at(t, n)->ply)
        cur = gts__bf_link_at(t, cur)->parent;
    while (cur != n) {
        t->path[len++] = n;
        n = gts__bf_link_at(t, n)->parent;
        cur = gts__bf_link_at(t, cur)->parent;
    }
    if (!gts__bf_rewind(t, gts__bf_link_at(t, n)->ply))
        return false;
    while (len > 0) {
        uint32_t next = t->path[--len];
        int rc = c->game->apply(c->state, gts__bf_link_at(t, next)->move, c->user);
        if (rc < 0) {
            gts__fail(c, GTS_ECALLBACK, rc);
            return false;
        }
        t->cur = next;
    }
    return true;
}

/* The value minimax gives a node it does not expand, from the side to move
 * (the state is at the node): quiescence at remaining @depth <= 0 when it is
 * on, else evaluate() (also at GTS_MAX_PLY, like gts__minimax). */
static inline gts_score gts__bf_static_value(gts__ctx *c, int ply, int depth)
{
    if (c->use_qs && ply < GTS_MAX_PLY && depth <= 0)
        return gts__qsearch(c, ply, -GTS_SCORE_INF, GTS_SCORE_INF);
    return gts__evaluate(c, ply);
}

/* Expand node @x (a gts__bf_node, not expanded) through the hooks, as the
 * header says. False after a failure (recorded), a stop, or when the array
 * is full (full set, nothing recorded). */
bool gts__bf_expand(gts__bf_tree *t, uint32_t x);

/* The end of a search on a tree from the root (B*, MMA): the state back
 * at the root, GTS_RESULT_MEMORY_LIMIT in @r if the tree filled up. True
 * when there is a result to report: no callback failed (the driver reports
 * that; a stop or a limit keeps what was found). */
bool gts__bf_finish(gts__bf_tree *t, gts_result *r);

/* @r's principal variation: node @x's move, then at every expanded node
 * the move to the child @next picks (called on nodes with children). */
void gts__bf_line(const gts__bf_tree *t, uint32_t x,
                  uint32_t (*next)(const gts__bf_tree *t, uint32_t x), gts_result *r);

/* Grow an array of @size-byte elements to hold @need (doubling, from
 * @alloc, at most @max_bytes in all); false when it cannot (nothing is
 * recorded: the caller decides whether that is a failure). */
bool gts__bf_grow(const gts_allocator *alloc, void **p, uint32_t *cap, uint32_t need,
                  size_t size, size_t max_bytes);

/* ---- the pinned store ---------------------------------------------------- */

/* A block of the pinned store: @size bytes of data, 16-aligned. */
typedef struct gts__bf_block gts__bf_block;
struct gts__bf_block {
    gts__bf_block *next;
    size_t size;
    _Alignas(16) unsigned char data[];
};

/* A list of blocks and the bytes of their data: a whole tree (the kept
 * tree of MCTS) or the engine's spare blocks. */
typedef struct gts__bf_blocks {
    gts__bf_block *head;
    uint64_t bytes;
} gts__bf_blocks;

/* A worker's own blocks and the free end of the newest (owner only). */
typedef struct gts__bf_cursor {
    gts__bf_block *blocks;
    unsigned char *bump;
    size_t left;
} gts__bf_cursor;

/* The shared side of a pinned store during a search (or a tree copy):
 * the byte budget every worker charges its new blocks to, and the spare
 * blocks it takes them from first. */
typedef struct gts__bf_pins {
    const gts_allocator *alloc;
    size_t block;              /* bytes of a standard block */
    uint64_t max_bytes;        /* the budget; UINT64_MAX: none */
    uint32_t *full;            /* atomic: set once when the budget is out */
    pthread_mutex_t lock;      /* over spare, for a pop */
    gts__bf_block *spare;      /* standard blocks to take before the allocator */
    _Alignas(GTS__CACHELINE) uint64_t used; /* atomic: bytes of the blocks taken */
} gts__bf_pins;

/* Start @p: blocks of @block bytes from @alloc within @max_bytes, the
 * budget's end raised in *@full (the algorithm's word: its hot paths read
 * it). No spare block yet. */
void gts__bf_pins_init(gts__bf_pins *p, const gts_allocator *alloc, size_t block,
                       uint64_t max_bytes, uint32_t *full);

/* The end of @p: its spare blocks not taken go back to @spare (as
 * gts__bf_spare_give, within @cap bytes). */
void gts__bf_pins_end(gts__bf_pins *p, gts__bf_blocks *spare, uint64_t cap);

/* Move every block of @spare to @p's spare list (no worker runs). */
void gts__bf_pins_take_spare(gts__bf_pins *p, gts__bf_blocks *spare);

/* A new block for @cur, then @size bytes from it (gts__bf_pin_take's slow
 * path). */
void *gts__bf_pin_more(gts__bf_pins *p, gts__bf_cursor *cur, size_t size, gts__ctx *c);

/* @size bytes from @cur's block, or from a new one charged to @p's budget
 * (a whole block if the budget has room, else exactly @size): pinned until
 * the blocks are given back. Pieces are packed, so sizes that are
 * multiples of A keep A-alignment (A <= 16). NULL when the budget is out
 * (*full raised: the tree is full for everyone, nothing recorded) or the
 * allocator fails (GTS_ENOMEM recorded on @c when it is not NULL). */
static inline void *gts__bf_pin_take(gts__bf_pins *p, gts__bf_cursor *cur, size_t size,
                                     gts__ctx *c)
{
    if (size <= cur->left) {
        void *q = cur->bump;
        cur->bump += size;
        cur->left -= size;
        return q;
    }
    return gts__bf_pin_more(p, cur, size, c);
}

/* Take @cur's blocks out (for a kept tree, or to give them back): a list
 * that @cur no longer carves from. */
gts__bf_blocks gts__bf_cursor_detach(gts__bf_cursor *cur);

/* Make @tree's blocks @cur's (a kept tree adopted by a search): charged to
 * @p's budget, not carved from (it opens a new block first). */
void gts__bf_cursor_adopt(gts__bf_pins *p, gts__bf_cursor *cur, gts__bf_blocks *tree);

/* Put the blocks of @list on @into (a whole tree moves at once). */
void gts__bf_blocks_join(gts__bf_blocks *into, gts__bf_blocks *list);

/* Give the blocks of @list to @spare, or free them to @alloc: @spare (NULL:
 * none) keeps those of @block bytes while it stays within @cap bytes. */
void gts__bf_spare_give(gts__bf_blocks *spare, gts__bf_block *list, size_t block,
                        uint64_t cap, const gts_allocator *alloc);

/* Free blocks of @spare (NULL: none) until it holds at most @cap bytes. */
void gts__bf_spare_trim(gts__bf_blocks *spare, uint64_t cap, const gts_allocator *alloc);

#endif
