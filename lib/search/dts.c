/*
 * dts.c - Dynamic Tree Splitting (Hyatt, "The DTS high-performance parallel
 * tree search algorithm", 1994; Hyatt, Suter & Nelson 1989).
 *
 * What. Every thread publishes its active tree: the nodes on its current
 * search path (remaining depth >= DTS_MIN_DEPTH), one slot per ply, each
 * with its ordered moves and a shared "next move" index. A node becomes
 * joinable once its first move has been searched (the YBW condition). A
 * thread without work looks at the active trees of all the busy threads and
 * picks a split point anywhere in them - the SHALLOWEST joinable node that
 * still has moves, which carries the most work - rather than where its
 * owner happens to be. It joins it (one CAS), "copies the split block"
 * (replays the node's path from the root on its own state copy), and then
 * takes moves from the node's shared move list until none is left. Owner and
 * helpers are symmetric: they all take moves through the same atomic index.
 * The split point ends when its last helper leaves; until then the owner
 * (which has no move left) helps, but only at nodes of its own subtree that
 * its helpers published (Hyatt's "helpful master": it can only help the
 * threads working for it, so its waits nest and never deadlock).
 *
 * Threads model: one long-running task per pool worker (gts__pool_run):
 * worker 0 searches the root; workers 1..n-1 run the idle loop (scan,
 * join, help, back off) until the root is finished. Nothing is pushed to
 * the pool's deques during the search: the published slots replace them.
 *
 * Young brothers are searched PVS-style (null window at the current alpha,
 * re-searched with (alpha, beta) when they fail high); below DTS_MIN_DEPTH
 * the serial gts__alphabeta runs. With one thread nobody joins: PVS (and
 * with selective search on, PVS's selective search node for node: the
 * split nodes use the serial node's rules, split.h).
 *
 * Concurrency contract (slot = dts_node, written by its owner thread):
 *  - word = seq:32 | OPEN | helpers:31. The owner starts a node with the new
 *    seq and OPEN clear, writes the plain fields, then publishes OPEN with a
 *    release store. A helper joins with a CAS that checks seq and OPEN and
 *    adds one helper (acquire): only then does it read the plain fields.
 *    The owner clears OPEN (CAS) when its moves are gone and waits (acquire)
 *    until the helper count, decremented by each leaving helper with a
 *    release, is zero; only then may the slot be reused.
 *  - scanners that have not joined read only atomics: word, next, n, top,
 *    abort.flag; stale values only make a join fail or find nothing to do.
 *  - alpha is atomic; best/best_k/cut/line are guarded by the node's lock.
 *  - the abort chain of a node links to its owner's chain at the node,
 *    which may run through nodes of other threads: those stay alive because
 *    the owner is counted as a helper there until it leaves.
 *
 * Invariants: a thread's open slots are at plies <= the ply of the node it
 * waits at; it only joins nodes deeper than that, so its own slots for the
 * work it joins are always free. Exactness: as in YBWC, every move is
 * searched with a window whose alpha was proved, results are folded under
 * the lock and aborted results are never used.
 */
#include "search/split.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Smallest remaining depth of a published (joinable) node. */
enum { DTS_MIN_DEPTH = 3 };
/* CAS attempts on a contended join before looking elsewhere. */
static const int DTS_JOIN_TRIES = 4;

#define DTS_OPEN ((uint64_t)1 << 31)
#define DTS_COUNT ((uint64_t)DTS_OPEN - 1)
#define DTS_SEQ(w) ((uint32_t)((w) >> 32))

typedef struct dts_node {
    /* atomics, read by scanners */
    uint64_t word;
    uint32_t next;           /* next move to hand out */
    uint32_t n;              /* moves to search */
    uint32_t shared;         /* a helper joined once (classification) */
    /* written before OPEN; read-only while open */
    gts__abort abort;
    gts_move *path;          /* root to the node */
    /* shared: the fold (split.h) */
    gts__split s;
    uint64_t helpers[GTS__POOL_MAX_THREADS / 64]; /* atomic or: who joined */
} __attribute__((aligned(GTS__CACHELINE))) dts_node;

typedef struct dts_thread {
    uint32_t top;            /* atomic: slots >= top are not in use */
    dts_node slot[GTS_MAX_PLY + 1];
} dts_thread;

typedef struct dts_shared {
    uint32_t done;           /* atomic: the root search is over */
    dts_thread *th;          /* [threads] */
    gts__group group;
    gts__task *tasks;
} dts_shared;

/* A node's arena block: its PV and the path from the root to it. */
typedef struct dts_block {
    gts__pvline line;
    gts_move path[];
} dts_block;

static gts_score dts_search(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta);

static gts_score dts_child(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta)
{
    if (depth >= DTS_MIN_DEPTH && ply < pw->c->split_ply)
        return dts_search(pw, depth, ply, alpha, beta);
    return gts__alphabeta(pw->c, depth, ply, alpha, beta);
}

static gts_score load_alpha(const dts_node *nd)
{
    return gts__split_alpha(&nd->s);
}

static gts_score dts_child_fn(gts__pw *pw, const void *arg, int depth, int ply, gts_score alpha,
                              gts_score beta)
{
    (void)arg;
    return dts_child(pw, depth, ply, alpha, beta);
}

/* Search move @k of @nd: the full window (eldest) or PVS scout (young). */
static gts_score dts_move(gts__pw *pw, dts_node *nd, uint32_t k, gts_score a, bool scout,
                          bool *ok)
{
    return gts__split_search(pw, &nd->s, k, a, nd->s.beta,
                             scout ? GTS__SPLIT_SCOUT : GTS__SPLIT_WINDOW, dts_child_fn, NULL, ok);
}

/* Take moves of @nd until none is left (owner or helper). */
static void dts_take_moves(gts__pw *pw, dts_node *nd, bool owner)
{
    gts__ctx *c = pw->c;
    for (;;) {
        if (gts__aborted(c))
            return;
        uint32_t k = gts__atomic_faa_relaxed_32(&nd->next, 1);
        if (k >= gts__atomic_load_relaxed_32(&nd->n))
            return;
        /* The owner's moves are speculative once the node is shared. */
        bool mode = gts__pw_mode_begin(pw, !owner || gts__atomic_load_relaxed_32(&nd->shared) != 0);
        gts__waste_mark wm = gts__pw_waste_mark(pw);
        bool ok;
        gts_score s = dts_move(pw, nd, k, load_alpha(nd), true, &ok);
        if (ok)
            gts__split_job_done(pw, &nd->s, k, s, true, wm);
        gts__pw_mode_end(pw, mode);
        if (!ok)
            return;
    }
}

/* ---- joining ------------------------------------------------------------------ */

/* Join @nd if it is still the open node of incarnation DTS_SEQ(w). */
static bool dts_join(dts_node *nd, uint64_t w)
{
    uint32_t seq = DTS_SEQ(w);
    for (int i = 0; i < DTS_JOIN_TRIES; i++) {
        if (!(w & DTS_OPEN) || DTS_SEQ(w) != seq)
            return false;
        if (gts__atomic_cas_64(&nd->word, w, w + 1))
            return true;
        w = gts__atomic_load_relaxed_64(&nd->word);
    }
    return false;
}

static void dts_leave(dts_node *nd)
{
    gts__atomic_faa_release_64(&nd->word, (uint64_t)-1);
}

/* The shallowest open node with moves left in another thread's active tree,
 * at ply >= @min_ply; with @mask, only among the threads it names. */
/* A node (incarnation) a waiting owner found not to be below it. */
typedef struct dts_skip {
    const dts_node *nd;
    uint32_t seq;
} dts_skip;

static dts_node *dts_find(gts__pw *pw, int min_ply, const uint64_t *mask, const dts_skip *skip,
                          uint64_t *word)
{
    dts_shared *ds = pw->par->algo;
    dts_node *best = NULL;
    int best_ply = INT_MAX;
    for (int t = 0; t < pw->par->threads; t++) {
        if (t == pw->id)
            continue;
        if (mask && !(gts__atomic_load_relaxed_64(&mask[t / 64]) & ((uint64_t)1 << (t % 64))))
            continue;
        dts_thread *th = &ds->th[t];
        int top = (int)gts__atomic_load_relaxed_32(&th->top);
        for (int ply = min_ply; ply < top && ply < best_ply; ply++) {
            dts_node *nd = &th->slot[ply];
            uint64_t w = gts__atomic_load_relaxed_64(&nd->word);
            if (!(w & DTS_OPEN) || (skip && nd == skip->nd && DTS_SEQ(w) == skip->seq))
                continue;
            if (gts__atomic_load_relaxed_32(&nd->next) >= gts__atomic_load_relaxed_32(&nd->n)
                || gts__atomic_load_relaxed_32(&nd->abort.flag))
                continue;
            best = nd;
            best_ply = ply;
            *word = w;
            break;
        }
    }
    return best;
}

/* Work at a joined node: go there, take moves, come back, leave. */
static void dts_help(gts__pw *pw, dts_node *nd)
{
    gts__atomic_or_relaxed_64(&nd->helpers[pw->id / 64], (uint64_t)1 << (pw->id % 64));
    gts__atomic_store_relaxed_32(&nd->shared, 1);
    gts__pw_frame f;
    if (gts__pw_enter(pw, &f, nd->path, nd->s.ply, &nd->abort, true))
        dts_take_moves(pw, nd, false);
    gts__pw_leave(pw, &f);
    dts_leave(nd);
}

/* The owner of @x, out of moves, helps its helpers below @x. */
static bool dts_help_subtree(gts__pw *pw, dts_node *x, dts_skip *skip)
{
    uint64_t w;
    dts_node *nd = dts_find(pw, x->s.ply + 1, x->helpers, skip, &w);
    if (!nd || !dts_join(nd, w))
        return false;
    /* Joined: the block is stable now. Is it below x? */
    if (memcmp(nd->path, pw->path, (size_t)x->s.ply * sizeof(gts_move)) != 0) {
        dts_leave(nd);
        skip->nd = nd;
        skip->seq = DTS_SEQ(w);
        return false;
    }
    dts_help(pw, nd);
    return true;
}

/* ---- nodes ------------------------------------------------------------------ */

static gts_score dts_search(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta)
{
    gts__ctx *c = pw->c;
    dts_shared *ds = pw->par->algo;
    dts_thread *th = &ds->th[pw->id];

    /* Steps 1-3. Stop, limits, horizon, table, ordered moves */
    gts__par_node pn;
    size_t block = sizeof(dts_block) + (size_t)(ply + 1) * sizeof(gts_move);
    dts_block *b = gts__par_open(pw, depth, ply, &alpha, &beta, block, &pn);
    if (!b)
        return pn.score;
    gts__pvline *line = &b->line;
    gts_move *path = b->path;
    memcpy(path, pw->path, (size_t)ply * sizeof *path);

    /* Step 4. Publish the node, closed: a new incarnation of the slot */
    dts_node *nd = &th->slot[ply];
    uint64_t seq = (uint64_t)DTS_SEQ(gts__atomic_load_relaxed_64(&nd->word)) + 1;
    gts__atomic_store_relaxed_64(&nd->word, seq << 32);
    gts__atomic_store_relaxed_32(&nd->abort.flag, 0);
    nd->abort.parent = c->abort;
    nd->path = path;
    gts__split_init(&nd->s, &pn, depth, ply, alpha, beta, line, &nd->abort.flag);
    for (size_t i = 0; i < sizeof nd->helpers / sizeof nd->helpers[0]; i++)
        gts__atomic_store_relaxed_64(&nd->helpers[i], 0);
    gts__atomic_store_relaxed_32(&nd->shared, 0);
    int limit = gts__par_limit(c, depth, pn.n);
    gts__atomic_store_relaxed_32(&nd->n, (uint32_t)limit);
    gts__atomic_store_relaxed_32(&nd->next, 1);
    gts__atomic_store_relaxed_32(&th->top, (uint32_t)ply + 1);

    /* Step 5. The first move, alone */
    bool ok;
    gts_score s = dts_move(pw, nd, 0, alpha, false, &ok);
    bool aborted = !ok || gts__aborted(c);
    if (!aborted)
        gts__split_fold(c, &nd->s, 0, s, true);

    /* Step 6. The others: joinable from now on */
    if (!aborted && !nd->s.cut && limit > 1) {
        c->abort = &nd->abort;
        if (pw->w)
            gts__atomic_store_release_64(&nd->word, (seq << 32) | DTS_OPEN);
        dts_take_moves(pw, nd, true);
        /* Close, then wait for the helpers, helping below this node. */
        uint64_t w = gts__atomic_load_relaxed_64(&nd->word);
        while ((w & DTS_OPEN) && !gts__atomic_cas_64(&nd->word, w, w & ~DTS_OPEN))
            w = gts__atomic_load_relaxed_64(&nd->word);
        dts_skip skip = {NULL, 0};
        unsigned idle = 0;
        while (gts__atomic_load_acquire_64(&nd->word) & DTS_COUNT) {
            if (!gts__aborted(c) && dts_help_subtree(pw, nd, &skip)) {
                idle = 0;
                gts__pool_vp_tick(); /* virtual processors: a help is a turn */
            } else {
                gts__backoff(idle++);
            }
        }
        c->abort = nd->abort.parent;
    }
    gts__atomic_store_relaxed_32(&th->top, (uint32_t)ply);

    /* Step 7. Result: table, PV, root move (split.h; a failure has stopped
     * the search, so an aborted node stores nothing) */
    return gts__split_close(pw, &nd->s, &pn, alpha);
}

/* ---- threads ----------------------------------------------------------------- */

/* Workers 1..n-1: look for the best split point, join, help; until done. */
static void dts_idle_task(gts__task *task, gts__worker *w)
{
    gts__pw *pw = gts__worker_data(w);
    dts_shared *ds = pw->par->algo;
    unsigned idle = 0;
    (void)task;
    while (!gts__atomic_load_relaxed_32(&ds->done) && !gts__run_stopped(pw->c->shared)) {
        uint64_t word;
        dts_node *nd = dts_find(pw, 0, NULL, NULL, &word);
        if (nd && dts_join(nd, word)) {
            dts_help(pw, nd);
            idle = 0;
            gts__pool_vp_tick(); /* virtual processors: a help is a turn */
        } else {
            gts__backoff_starved(idle++); /* no split point to join */
        }
    }
}

/* The root (@ply 0) on worker 0, with the idle loop on the others. */
static gts_score dts_root(gts__pw *pw, int depth, int ply, gts_score alpha, gts_score beta)
{
    dts_shared *ds = pw->par->algo;
    if (pw->w) {
        for (int i = 0; i < pw->par->threads - 1; i++) {
            ds->tasks[i].fn = dts_idle_task;
            ds->tasks[i].arg = NULL;
            gts__pool_spawn(pw->w, &ds->group, &ds->tasks[i]);
        }
    }
    gts_score score = dts_search(pw, depth, ply, alpha, beta);
    gts__atomic_store_relaxed_32(&ds->done, 1);
    if (pw->w)
        gts__pool_wait(pw->w, &ds->group);
    return score;
}

gts_score gts__iterate_dts(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    gts__par par;
    if (!gts__par_begin(&par, run))
        return 0;
    if (depth < DTS_MIN_DEPTH) {
        gts_score score = gts__alphabeta(run->ctx[0], depth, 0, alpha, beta);
        gts__par_end(&par);
        return score;
    }
    dts_shared ds = {0};
    size_t size = (size_t)run->threads * sizeof *ds.th;
    const gts_allocator *alloc = &run->engine->alloc;
    ds.th = gts__calloc_aligned(alloc, size, GTS__CACHELINE);
    ds.tasks = gts__calloc(alloc, (size_t)run->threads, sizeof *ds.tasks);
    gts__group_init(&ds.group);
    gts_score score = 0;
    if (!ds.th || !ds.tasks) {
        gts__fail(run->ctx[0], GTS_ENOMEM, 0);
    } else {
        par.algo = &ds;
        score = gts__par_search(&par, dts_root, depth, alpha, beta);
    }
    gts__free_aligned(alloc, ds.th, size, GTS__CACHELINE);
    gts__free(alloc, ds.tasks, (size_t)run->threads * sizeof *ds.tasks);
    gts__par_end(&par);
    return score;
}
