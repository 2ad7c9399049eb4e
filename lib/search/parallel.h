/*
 * parallel.h - infrastructure shared by the parallel search algorithms
 * (internal; parallel.c, ybwc.c, er_parallel.c, dts.c, abdada.c, lazysmp.c).
 * The split node itself (fold a child's result, close the node) is
 * split.h, on top of this file.
 *
 * One parallel iteration (gts__par) gives every pool worker a gts__pw: its
 * search context (run->ctx[id], with its own state copy), the path of moves
 * from the root to where that state currently stands, work-classification
 * counters and a LIFO arena for node blocks.
 *
 * Reaching a split node: PATH REPLAY. A split point stores the moves from the
 * root to its node. A worker that picks up work there moves its own state
 * from wherever it stands (the root for an idle worker, its own waiting node
 * for a helping owner) to the split node: it undoes down to the longest
 * common prefix and applies the rest, runs the work, then moves back the
 * same way (gts__pw_enter / gts__pw_leave). Replayed applies/undos are not
 * counted as nodes. No state is ever read by two threads, so game callbacks
 * only need to be reentrant for distinct states.
 *
 * Rules every parallel node function follows (they make helping safe):
 *  - Only frames of the algorithms' own node functions can be below a point
 *    where the worker waits (help-while-waiting runs unrelated work on top of
 *    the waiting frame, reusing the context's per-ply buffers). Such frames
 *    keep their moves, ordering and PV in an arena block, never in the
 *    context's per-ply buffers across a child search; below the split depth
 *    they call the serial gts__alphabeta, which never waits.
 *  - Their applies go through gts__pw_apply/gts__pw_undo so that pw->path
 *    stays the path of the state. When a replay back fails (an apply fails
 *    on the way back), the state stays above the waiting frames, and
 *    gts__pw_undo skips the moves that were not re-applied.
 *  - A worker waiting for X only runs work that does not depend on X's frame
 *    resuming (its own split point's jobs, or unrelated tasks that finish on
 *    their own): waits nest strictly, so help never deadlocks.
 *
 * Work classification (result nodes_mandatory / nodes_speculative /
 * nodes_wasted): each worker attributes its "own" nodes (its context's node
 * count minus the nodes of tasks it ran nested inside a wait, which those
 * tasks attribute themselves) to the mode it is in (mandatory or
 * speculative), flushing at every mode change. Wasted nodes are the own
 * nodes of a speculative job whose result was thrown away (aborted by a
 * cutoff or a stop, or finished after its split point was cut off); nested
 * waste inside such a job is subsumed, never counted twice. All counters are
 * worker-local and summed into the run after the iteration: no atomics per
 * node.
 */
#ifndef GTS_SEARCH_PARALLEL_H
#define GTS_SEARCH_PARALLEL_H

#include "search/algos.h"
#include "atomic_internal.h"

typedef struct gts__par gts__par;
typedef struct gts__pw gts__pw;
typedef struct gts__sp gts__sp;
typedef struct gts__arena_chunk gts__arena_chunk;

/* Position of a LIFO arena, for gts__pw_release(). */
typedef struct gts__arena_mark {
    gts__arena_chunk *chunk;
    size_t used;
} gts__arena_mark;

/* One worker of a parallel iteration. Touched by its own thread only (the
 * driver thread reads the counters after the pool run). */
struct gts__pw {
    gts__par *par;
    gts__ctx *c;             /* run->ctx[id]: this worker's state copy */
    gts__worker *w;          /* pool worker; NULL without a pool (1 thread) */
    int id;
    /* c->state stands at path[0..len) (as seen by parallel node frames) */
    int len;
    gts_move path[GTS_MAX_PLY + 1];
    /* work classification */
    uint64_t nested;         /* nodes of tasks run nested in a wait */
    uint64_t mark;           /* own nodes already attributed */
    uint64_t mandatory, speculative, wasted;
    bool in_spec;
    /* LIFO arena of node blocks */
    gts__arena_chunk *chunk;
    size_t used;
    gts__arena_chunk *spare;
    /* per-worker algorithm data */
    void *algo;
    uint64_t rng;
    int board_nest;          /* gts__pw_help_mandatory() calls in progress */
    int helper;              /* gts__par_search_smp's helper running here (1..) */
} __attribute__((aligned(GTS__CACHELINE)));

/* Capacity of the mandatory-work board (gts__sp_publish); a split point
 * that finds it full is simply not offered there. */
enum { GTS__BOARD_MAX = 64 };

/* One parallel iteration. */
struct gts__par {
    gts__run *run;
    gts__pool *pool;         /* NULL: one thread, everything runs inline */
    int threads;
    gts__pw *pw;             /* [threads] */
    void *algo;              /* algorithm's shared data */
    /* Mandatory split points with jobs to hand out (gts__sp_publish):
     * entries under board_lock; board_n also read without it as a hint. */
    uint32_t board_lock;
    uint32_t board_n;
    gts__sp *board[GTS__BOARD_MAX];
};

/* Prepare an iteration: per-worker data bound to the pool's workers, every
 * context set to PVS below split points. false (and GTS_ENOMEM recorded in
 * the search) when memory runs out. */
bool gts__par_begin(gts__par *par, gts__run *run);
/* Run fn(pw of worker 0, arg) on the calling thread as pool worker 0 (or
 * directly without a pool); returns when it and every task it spawned have
 * finished. */
void gts__par_run(gts__par *par, void (*fn)(gts__pw *pw, void *arg), void *arg);
/* Sum the work classification into the run and free the workers' memory. */
void gts__par_end(gts__par *par);

/* ---- position: path replay ------------------------------------------------ */

/* Apply @m at @ply (the node at @ply is the current position) and record it. */
static inline bool gts__pw_apply(gts__pw *pw, int ply, gts_move m)
{
    if (!gts__apply(pw->c, m))
        return false;
    if (pw->c->use_counter)
        gts__order_line(pw->c, ply, m);
    pw->path[ply] = m;
    pw->len = ply + 1;
    return true;
}

static inline void gts__pw_undo(gts__pw *pw, int ply, gts_move m)
{
    /* A failed replay (gts__pw_goto) can leave the state above @ply: then
     * @m was never re-applied and must not be undone. */
    if (pw->len <= ply)
        return;
    gts__undo(pw->c, m);
    pw->len = ply;
}

/* Move the worker's state to @path[0..len). false if a callback failed (the
 * failure is recorded; pw->path/len still describe the real state). */
bool gts__pw_goto(gts__pw *pw, const gts_move *path, int len);

/* What a worker saves to run a piece of work elsewhere and come back. */
typedef struct gts__pw_frame {
    const gts__abort *abort;
    uint64_t nodes0, nested0;
    bool in_spec;
    int len;
    gts_move path[GTS_MAX_PLY + 1];
} gts__pw_frame;

/* Go to the node at @path[0..len) to work there under @abort, in mode
 * @spec. Always pair with gts__pw_leave(), even when this returns false
 * (the position could not be reached: do no work). */
bool gts__pw_enter(gts__pw *pw, gts__pw_frame *f, const gts_move *path, int len,
                   const gts__abort *abort, bool spec);
void gts__pw_leave(gts__pw *pw, gts__pw_frame *f);

/* ---- work classification ----------------------------------------------- */

static inline uint64_t gts__pw_own(const gts__pw *pw)
{
    return pw->c->nodes - pw->nested;
}

static inline void gts__pw_flush(gts__pw *pw)
{
    uint64_t own = gts__pw_own(pw);
    if (pw->in_spec)
        pw->speculative += own - pw->mark;
    else
        pw->mandatory += own - pw->mark;
    pw->mark = own;
}

/* Enter speculative mode if @spec (work nested in speculative work stays
 * speculative); returns the previous mode for gts__pw_mode_end(). */
static inline bool gts__pw_mode_begin(gts__pw *pw, bool spec)
{
    bool old = pw->in_spec;
    spec = spec || old;
    if (spec != old) {
        gts__pw_flush(pw);
        pw->in_spec = spec;
    }
    return old;
}

static inline void gts__pw_mode_end(gts__pw *pw, bool old)
{
    if (old != pw->in_spec) {
        gts__pw_flush(pw);
        pw->in_spec = old;
    }
}

/* Start of a job whose result may be thrown away. */
typedef struct gts__waste_mark {
    uint64_t own0, wasted0;
} gts__waste_mark;

static inline gts__waste_mark gts__pw_waste_mark(const gts__pw *pw)
{
    gts__waste_mark m = {gts__pw_own(pw), pw->wasted};
    return m;
}

/* The job started at @m was discarded: its own nodes are wasted (replacing
 * whatever waste was counted inside it). */
static inline void gts__pw_wasted(gts__pw *pw, gts__waste_mark m)
{
    pw->wasted = m.wasted0 + (gts__pw_own(pw) - m.own0);
}

/* ---- arena ----------------------------------------------------------------- */

/* @size bytes, 16-byte aligned, valid until gts__pw_release() of an earlier
 * mark. NULL (and GTS_ENOMEM recorded) when memory runs out. */
void *gts__pw_alloc(gts__pw *pw, size_t size);

static inline gts__arena_mark gts__pw_mark(const gts__pw *pw)
{
    gts__arena_mark m = {pw->chunk, pw->used};
    return m;
}

void gts__pw_release(gts__pw *pw, gts__arena_mark m);

/* ---- spin lock (TSan-visible acquire/release) ---------------------------- */

void gts__spin_lock_slow(uint32_t *lock);

static inline void gts__spin_lock(uint32_t *lock)
{
    if (!gts__atomic_cas_32(lock, 0, 1))
        gts__spin_lock_slow(lock);
}

static inline void gts__spin_unlock(uint32_t *lock)
{
    gts__atomic_store_release_32(lock, 0);
}

/* Idle step @round of a thread waiting for another one (a result it
 * needs, a split point's helpers): pause, then yield, then short sleeps.
 * Callers reset @round when they found work. A virtual processor's turn,
 * counted as synchronisation (gts_engine_virtual_sync()). */
void gts__backoff(unsigned round);
/* The same for a thread looking for work and finding none (DTS's idle
 * workers): a virtual turn counted as idle only. */
void gts__backoff_starved(unsigned round);

/* ---- split points ------------------------------------------------------- */

/* A job of a split point: runs on @pw with the state at the split node,
 * c->abort == &sp->abort and the split point's work mode. */
typedef void (*gts__sp_job_fn)(gts__pw *pw, gts__sp *sp, uint32_t job);

/*
 * A split point: a node whose jobs [first, njobs) may be run by any worker.
 * Jobs are handed out in order by an atomic counter. The owner creates it in
 * its arena, spawns helper tasks, runs jobs itself and then waits for the
 * tasks (helping). A cutoff sets abort.flag, which every search below the
 * split point sees (its chain links to the owner's chain at the node, so a
 * cutoff or abort higher up reaches it too).
 */
struct gts__sp {
    gts__abort abort;
    uint32_t next;           /* atomic: next job to hand out */
    uint32_t njobs;
    bool spec;               /* jobs are speculative work */
    int ply;
    gts_move *path;          /* root to the node, ply moves */
    gts__sp_job_fn job;
    void *data;              /* the algorithm's node */
    gts__group group;
    int ntasks;
    gts__task *tasks;
    uint32_t adopted;        /* atomic: workers that came from the board */
    bool published;          /* on the board (owner only) */
};

/* Set up @sp at the owner's current node (ply == pw->len); the path is copied
 * only if tasks may be spawned. false on out-of-memory. */
bool gts__sp_init(gts__pw *pw, gts__sp *sp, uint32_t first, uint32_t njobs,
                  gts__sp_job_fn job, void *data, bool spec);
/* True when the split point may get helpers (a pool with 2+ workers). */
static inline bool gts__sp_parallel(const gts__pw *pw)
{
    return pw->w != NULL;
}
/* Spawn up to @max helper tasks (never more than threads - 1 nor than the
 * jobs left). */
void gts__sp_spawn(gts__pw *pw, gts__sp *sp, int max);
/* Next job index, or >= njobs when none is left. */
static inline uint32_t gts__sp_claim(gts__sp *sp)
{
    return gts__atomic_faa_relaxed_32(&sp->next, 1);
}
static inline bool gts__sp_has_jobs(const gts__sp *sp)
{
    return gts__atomic_load_relaxed_32(&sp->next) < sp->njobs;
}
/* Owner: run one job (c->abort and mode set around it). */
void gts__sp_run_job(gts__pw *pw, gts__sp *sp, uint32_t job);
/* Owner: claim and run jobs until none is left or the node is aborted. */
void gts__sp_work(gts__pw *pw, gts__sp *sp);
/* Owner: wait (helping) until every spawned task has finished, and every
 * worker that joined from the board has left. */
void gts__sp_join(gts__pw *pw, gts__sp *sp);

/*
 * Mandatory work first (Steinberg & Solomon's ER): the owner of a split
 * point whose jobs are mandatory may publish it on the iteration's board
 * after spawning; a worker about to claim a job of a speculative split
 * point (a helper task's loop, or the owner's gts__sp_work) first helps the
 * published split points with jobs left, shallowest first, until none has
 * any. The owner retracts it once it stops claiming (before
 * gts__sp_join). No-ops without a pool; algorithms that never publish are
 * not affected.
 */
void gts__sp_publish(gts__pw *pw, gts__sp *sp);
void gts__sp_retract(gts__pw *pw, gts__sp *sp);
/* Help published mandatory split points until none has jobs left; true
 * when it ran any. */
bool gts__pw_help_mandatory(gts__pw *pw);
static inline bool gts__board_busy(const gts__pw *pw)
{
    return gts__atomic_load_relaxed_32(&pw->par->board_n) != 0;
}
/* A cutoff: abort every job of @sp still running, and stop handing out. */
static inline void gts__sp_cut(gts__sp *sp)
{
    gts__atomic_store_relaxed_32(&sp->abort.flag, 1);
}
static inline bool gts__sp_is_cut(const gts__sp *sp)
{
    return gts__atomic_load_relaxed_32(&sp->abort.flag) != 0;
}

/* True when the search is stopped or any flag of the chain from @a up is set. */
static inline bool gts__chain_aborted(const gts__ctx *c, const gts__abort *a)
{
    if (gts__run_stopped(c->shared))
        return true;
    for (; a; a = a->parent)
        if (gts__atomic_load_relaxed_32(&a->flag))
            return true;
    return false;
}

/* ---- shared-table algorithms: every worker searches the root ------------ */

/*
 * Run @main_fn on worker 0 and @helper_fn(pw, i, arg) for helpers
 * i = 1..threads-1 as pool tasks on the other workers (all at the root).
 * Helpers search under an abort flag that is raised as soon as @main_fn
 * returns; the call returns when every helper has unwound. Helper work is
 * speculative; a helper search that was cut short by that abort is wasted.
 */
void gts__par_smp(gts__par *par, void (*main_fn)(gts__pw *pw, void *arg),
                  void (*helper_fn)(gts__pw *pw, int helper, void *arg), void *arg);

/* ---- the root call of an iteration --------------------------------------- */

/* A node function of a parallel algorithm, called at the root (ply 0). */
typedef gts_score (*gts__par_root_fn)(gts__pw *pw, int depth, int ply, gts_score alpha,
                                      gts_score beta);

/* @fn(pw, @depth, 0, @alpha, @beta) on worker 0 through gts__par_run: its
 * score. */
gts_score gts__par_search(gts__par *par, gts__par_root_fn fn, int depth, gts_score alpha,
                          gts_score beta);
/* The same through gts__par_smp: @main_fn on worker 0 (its score) and
 * @helper_fn on every helper (pw->helper tells which, 1..threads-1). */
gts_score gts__par_search_smp(gts__par *par, gts__par_root_fn main_fn, gts__par_root_fn helper_fn,
                              int depth, gts_score alpha, gts_score beta);

/* ---- helpers shared by the node functions -------------------------------- */

/* A node opened by gts__par_open(): what its search needs afterwards. */
typedef struct gts__par_node {
    gts__arena_mark am; /* release to it when the node returns */
    uint64_t key;       /* table key (gts__tt_save) */
    gts_move *moves;    /* arena array, best first */
    uint32_t *idx;      /* generate() index of moves[k] */
    int n;              /* number of moves, > 0 */
    void *block;        /* the caller's node block (gts__par_open's @block bytes) */
    gts_score score;    /* the node's value when gts__par_open decided it */
    /* Selective search (c->selective; doc/architecture.md, "Selective
     * search"): what the split node's move loop needs. */
    gts_score floor;    /* the node's value is at least this (futility
                           pruned a move); -GTS_SCORE_INF */
    const uint8_t *quiet; /* late-move reductions at this node: moves[k] is
                           quiet (but for its extension); else NULL */
    bool open_window;   /* opened with beta - alpha > 1 (a PV node) */
} gts__par_node;

/* Steps 1-3 of every parallel node search (the prologue of node.h): stop,
 * limits and horizon; the window narrowed in place to the values the node
 * can still take (gts__window: the caller searches and stores against
 * *alpha, *beta); the table probe; the node's moves generated, ordered and
 * copied into arena arrays (the context's per-ply buffers are only used
 * during the call), and after them an arena block of @block bytes for the
 * caller's node. Returns the block (also nd->block) with @nd filled when
 * the node is to be searched; NULL when it is decided here, with its value
 * in nd->score (0 after a stop or a failure, which is recorded), and
 * nothing left in the arena.
 * In a selective context (c->selective) the node's head also runs the
 * serial node's razoring and null move (gts__prune_head, the searches they
 * start are serial), and the moves copied are those the serial node would
 * search: within the N-best limit, without those that futility and
 * late-move pruning drop (nd->n counts them, nd->floor is the value the
 * node is at least worth then), with nd->quiet for late-move reductions
 * (gts__split_search). */
void *gts__par_open(gts__pw *pw, int depth, int ply, gts_score *alpha, gts_score *beta,
                    size_t block, gts__par_node *nd);

/* Number of moves to search at a node with @n moves (N-best option). */
static inline int gts__par_limit(const gts__ctx *c, int depth, int n)
{
    if (c->nbest > 0 && depth <= c->nbest_depth && c->nbest < n)
        return c->nbest;
    return n;
}

/* A PV line kept in an arena block across waits. */
typedef struct gts__pvline {
    int len;
    gts_move m[GTS_MAX_PLY + 1];
} gts__pvline;

/* line = m + the child's PV row (c->pv[ply + 1]) of the calling worker. */
static inline void gts__pvline_set(gts__pvline *line, const gts__ctx *c, int ply, gts_move m)
{
    int n = ply + 1 <= GTS_MAX_PLY ? c->pv_len[ply + 1] : 0;
    if (n > GTS_MAX_PLY - ply)
        n = GTS_MAX_PLY - ply;
    line->m[0] = m;
    for (int i = 0; i < n; i++)
        line->m[i + 1] = c->pv[ply + 1][i];
    line->len = n + 1;
}

/* Copy @line into the context's PV row at @ply (at the end of a node). */
static inline void gts__pvline_put(gts__ctx *c, int ply, const gts__pvline *line)
{
    int n = line->len;
    if (n > GTS_MAX_PLY + 1 - ply)
        n = GTS_MAX_PLY + 1 - ply;
    for (int i = 0; i < n; i++)
        c->pv[ply][i] = line->m[i];
    c->pv_len[ply] = n;
}

#endif
