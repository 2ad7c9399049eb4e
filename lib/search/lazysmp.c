/*
 * lazysmp.c - Lazy SMP: helper threads search the same root at the same
 * depth as the main thread, sharing nothing but the transposition table.
 *
 * What. Thread 0 (the caller's thread) runs the serial PVS (gts__alphabeta)
 * on the caller's state, exactly as gts_pvs would. Each helper runs its own
 * PVS of the same root, at the SAME depth, with a varied move order near the
 * root so that the helpers spread over different subtrees: at the first
 * LAZY_VARY_PLIES plies, helper h keeps the best-ordered move first and
 * rotates the others by a helper- and node-dependent amount. Whatever the
 * helpers finish goes into the table, where the main thread finds it. When
 * the main thread's search returns, the helpers are aborted and joined; the
 * reported result is the main thread's.
 *
 * What is guaranteed (and why helpers never search deeper). The table
 * cutoff rule is `entry.depth >= depth`. A helper at depth + 1 would store
 * bounds of deeper searches, which the main thread would take at nodes of
 * smaller remaining depth: the depth-limited value could change. Helpers of
 * this implementation search only the main thread's iteration depth, so
 * every entry they store is a correct bound of that node searched to exactly
 * the remaining depth the main thread would give it (in games where a
 * position's distance from the root fixes the remaining depth, as in all
 * built-in games; otherwise table use is as (in)exact as in serial search).
 * Hence: the score is the minimax value at the reported depth, and the best
 * move is a move of that value, as with gts_pvs. Entries of the previous
 * iteration are shallower and cannot cut. Aborted searches store nothing.
 * Only ordering differs between threads, and ordering never changes a value.
 *
 * Work classification: thread 0's nodes are mandatory, the helpers' nodes
 * speculative, and a helper search aborted at the end counts as wasted.
 *
 * Concurrency contract: threads share only the lock-free table; each helper
 * uses its own context and state copy. Node frames never wait.
 */
#include "search/parallel.h"
#include "search/node_search.h"

/* Plies from the root at which helpers reorder moves. */
enum { LAZY_VARY_PLIES = 3 };

/* A helper's node: which helper, for the order. */
typedef struct lazy_node {
    gts__pw *pw;
    int helper;
} lazy_node;

static gts_score lazy_search(gts__pw *pw, int helper, int depth, int ply, gts_score alpha,
                             gts_score beta);

static gts_score lazy_child(gts__ctx *c, const void *arg, int depth, int ply, gts_score alpha,
                            gts_score beta)
{
    const lazy_node *ln = arg;
    if (ply < LAZY_VARY_PLIES && depth >= 2)
        return lazy_search(ln->pw, ln->helper, depth, ply, alpha, beta);
    return gts__alphabeta(c, depth, ply, alpha, beta);
}

/* Offset of a round of helpers' rotations at the node of @key. */
static uint32_t lazy_offset(uint64_t key, uint64_t round)
{
    return (uint32_t)(gts__tt_mix(key + round * UINT64_C(0xd1b54a32d192ed03)) >> 32);
}

/* The usual order, rotated after the first move by a helper- and
 * node-dependent amount (the whole list is sorted at the first move).
 *
 * The moves after the first have m = limit - 1 rotations; rotation 0 is the
 * main thread's order. At every node, helpers 1..m-1 take the other m - 1
 * rotations, each a different one, offset by a node-dependent value; the
 * helpers after them go in rounds of m that take all m rotations, each
 * round with another offset. So no two helpers of a round search one order
 * at a node, and at narrow nodes (m = 2: one rotation besides the main
 * thread's) the helpers past the first still differ from each other. (A
 * fixed helper term such as helper * 7 gave every helper the same order
 * wherever m divided its step: with 8 moves, m = 7.) The offsets come from
 * the top bits of the mixed key: games' keys may be unmixed (Connect-4's is
 * the exact board encoding, whose low bits hardly change between
 * siblings), and the product in gts__tt_mix carries every key bit into the
 * top bits only. */
static uint32_t lazy_order(gts__ctx *c, const void *arg, int ply, int k, int limit, int n,
                           bool sort, uint64_t key)
{
    const lazy_node *ln = arg;
    if (k == 0 && sort)
        for (int j = 0; j < n; j++)
            gts__pick(c, ply, j, n);
    int rot = 0;
    if (limit > 2) {
        uint32_t m = (uint32_t)(limit - 1);
        uint32_t h = (uint32_t)(ln->helper - 1);
        if (h < m - 1) {
            rot = 1 + (int)((h + lazy_offset(key, 0)) % (m - 1));
        } else {
            h -= m - 1;
            rot = (int)((h + lazy_offset(key, 1 + h / m)) % m);
        }
    }
    int pos = k == 0 ? 0 : 1 + (k - 1 + rot) % (limit - 1);
    return sort ? c->order[ply][pos].index : (uint32_t)pos;
}

static const gts__node_hooks LAZY_HOOKS = {
    .child = lazy_child,
    .order = lazy_order,
    .select = true, /* one instance: it tests c->selective at run time */
};

/* PVS node of a helper: the serial node of node_search.h with the rotated
 * order. */
static gts_score lazy_search(gts__pw *pw, int helper, int depth, int ply, gts_score alpha,
                             gts_score beta)
{
    lazy_node ln = {pw, helper};
    return gts__node_search(pw->c, &LAZY_HOOKS, &ln, depth, ply, alpha, beta, false);
}

/* The main thread: the plain serial search. */
static gts_score lazy_main(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta)
{
    return gts__alphabeta(pw->c, depth, ply, alpha, beta);
}

/* A helper (pw->helper, 1..threads-1): the rotated order. */
static gts_score lazy_helper(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta)
{
    return lazy_search(pw, pw->helper, depth, ply, alpha, beta);
}

gts_score gts__iterate_lazysmp(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    gts__par par;
    if (!gts__par_begin(&par, run))
        return 0;
    gts_score score = gts__par_search_smp(&par, lazy_main, lazy_helper, depth, alpha, beta);
    gts__par_end(&par);
    return score;
}
