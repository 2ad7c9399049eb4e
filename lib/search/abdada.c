/*
 * abdada.c - ABDADA (Weill, "The ABDADA Distributed Minimax Search
 * Algorithm", 1996): every thread searches the whole tree from the root at
 * the same depth, sharing results through the transposition table, and
 * threads spread over the tree by deferring moves whose subtree another
 * thread is searching right now.
 *
 * What. A node (remaining depth >= ABDADA_MIN_DEPTH) is searched in two
 * passes. Pass 1 ("exclusive"): the first move is always searched; each
 * further move is applied and, if its child position is currently being
 * searched by another thread, undone and deferred. Pass 2 searches the
 * deferred moves (by then often decided by the table, filled by whoever
 * searched them). Moves are searched PVS-style. Below ABDADA_MIN_DEPTH the
 * serial gts__alphabeta (PVS) runs: the table does the sharing there.
 *
 * "Being searched": Weill keeps a processor count (nproc) in the table
 * entry. Here the count lives in a separate small lock-free hash table
 * (BUSY_SLOTS 64-bit words, one per position: a 48-bit key tag and a 16-bit
 * count, updated with CAS), so the table's entry format and its replacement
 * policy stay untouched. A thread increments the count of a child before
 * searching it and decrements it after. Collisions (slot taken by another
 * position) simply leave the position untracked; the table is a hint and can
 * never change a value, only the order in which moves are searched.
 *
 * Results. Thread 0 (the caller's thread) searches the caller's state and
 * its root result is the answer; the helpers are stopped when it is done.
 * Exactness at the reported depth: all threads search the same iteration
 * depth, so every table entry they share is a correct bound of a search of
 * that node at that remaining depth (the same rule that makes serial
 * alpha-beta with a table exact); deferring only reorders moves.
 *
 * Work classification: thread 0's nodes are mandatory, the helpers' nodes
 * speculative; a helper's search cut short when thread 0 finished is
 * counted as wasted (what it stored in the table before is not lost).
 *
 * Concurrency contract: the busy table is only accessed with atomics; the
 * transposition table is the engine's lock-free one. Nothing else is
 * shared. Node frames never wait, so they use the context's buffers.
 */
#include "search/parallel.h"
#include "search/node_search.h"

#include <stdlib.h>
#include <string.h>

/* Smallest remaining depth at which moves are deferred. */
enum { ABDADA_MIN_DEPTH = 2 };
/* Slots of the busy table (a power of two) and slots probed per key. */
static const uint64_t BUSY_SLOTS = (uint64_t)1 << 14;
static const int BUSY_PROBES = 2;

#define BUSY_COUNT_MASK ((uint64_t)0xffff)
#define BUSY_TAG(k) ((k) & ~BUSY_COUNT_MASK)

typedef struct abdada_shared {
    uint64_t *busy;
    uint64_t mask;
} abdada_shared;

static uint64_t busy_mix(uint64_t k)
{
    k ^= k >> 31;
    k *= UINT64_C(0x7fb5d329728ea185);
    k ^= k >> 27;
    return k;
}

/* Is the position @key being searched by some thread? */
static bool busy_test(const abdada_shared *sh, uint64_t key)
{
    uint64_t h = busy_mix(key);
    for (int i = 0; i < BUSY_PROBES; i++) {
        uint64_t w = gts__atomic_load_relaxed_64(&sh->busy[(h + (uint64_t)i) & sh->mask]);
        if (BUSY_TAG(w) == BUSY_TAG(h) && (w & BUSY_COUNT_MASK) != 0)
            return true;
    }
    return false;
}

/* Count one more searcher of @key; returns the slot, or NULL if untracked. */
static uint64_t *busy_enter(abdada_shared *sh, uint64_t key)
{
    uint64_t h = busy_mix(key);
    for (int i = 0; i < BUSY_PROBES; i++) {
        uint64_t *slot = &sh->busy[(h + (uint64_t)i) & sh->mask];
        for (;;) {
            uint64_t w = gts__atomic_load_relaxed_64(slot);
            uint64_t count = w & BUSY_COUNT_MASK;
            uint64_t nw;
            if (count != 0 && BUSY_TAG(w) == BUSY_TAG(h)) {
                if (count == BUSY_COUNT_MASK)
                    return NULL;
                nw = w + 1;
            } else if (count == 0) {
                nw = BUSY_TAG(h) | 1;
            } else {
                break; /* another position: next slot */
            }
            if (gts__atomic_cas_64(slot, w, nw))
                return slot;
        }
    }
    return NULL;
}

static void busy_leave(uint64_t *slot)
{
    if (slot)
        gts__atomic_faa_relaxed_64(slot, (uint64_t)-1); /* our count keeps the tag in place */
}

static gts_score abdada_search(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta);

static gts_score abdada_child(gts__ctx *c, const void *arg, int depth, int ply,
                              gts_score alpha, gts_score beta)
{
    if (depth >= ABDADA_MIN_DEPTH && ply < c->split_ply)
        return abdada_search((gts__pw *)arg, depth, ply, alpha, beta);
    return gts__alphabeta(c, depth, ply, alpha, beta);
}

/* Pass 1 ("exclusive"): a move other than the first searched whose child
 * another thread is searching is deferred to pass 2. Otherwise count this
 * thread as a searcher of the child (the token is its busy slot). */
static bool abdada_defer(gts__ctx *c, const void *arg, int pass, int searched, void **token)
{
    abdada_shared *sh = ((const gts__pw *)arg)->par->algo;
    if (!c->game->hash || !sh->busy)
        return false;
    uint64_t key = c->game->hash(c->state, c->user);
    if (pass == 0 && searched > 0 && busy_test(sh, key))
        return true;
    *token = busy_enter(sh, key);
    return false;
}

static void abdada_leave(const void *arg, void *token)
{
    (void)arg;
    busy_leave(token);
}

static const gts__node_hooks ABDADA_HOOKS = {
    .child = abdada_child,
    .defer = abdada_defer,
    .leave = abdada_leave,
    .select = true, /* one instance: it tests c->selective at run time */
};

/* A node at remaining depth >= ABDADA_MIN_DEPTH: the serial node of
 * node_search.h with the two passes as hooks. */
static gts_score abdada_search(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta)
{
    return gts__node_search(pw->c, &ABDADA_HOOKS, pw, depth, ply, alpha, beta, false);
}

/* ---- iteration ------------------------------------------------------------------ */

gts_score gts__iterate_abdada(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    gts__par par;
    if (!gts__par_begin(&par, run))
        return 0;
    abdada_shared sh = {NULL, BUSY_SLOTS - 1};
    if (run->threads > 1) {
        sh.busy = gts__calloc(&run->engine->alloc, BUSY_SLOTS, sizeof *sh.busy);
        if (!sh.busy) {
            gts__fail(run->ctx[0], GTS_ENOMEM, 0);
            gts__par_end(&par);
            return 0;
        }
    }
    par.algo = &sh;
    gts_score score = depth < ABDADA_MIN_DEPTH
                          ? gts__alphabeta(run->ctx[0], depth, 0, alpha, beta)
                          : gts__par_search_smp(&par, abdada_search, abdada_search, depth, alpha, beta);
    gts__free(&run->engine->alloc, sh.busy, BUSY_SLOTS * sizeof *sh.busy);
    gts__par_end(&par);
    return score;
}
