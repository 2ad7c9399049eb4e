/*
 * parallel.c - infrastructure of the parallel search algorithms: per-worker
 * data, path replay, work classification, arenas, split points.
 *
 * What: a parallel iteration binds one gts__pw to every pool worker (worker
 * 0 is the thread that called gts_search and searches the caller's state;
 * worker i > 0 searches its own clone, run->ctx[i]->state). Work reaches a
 * worker as a pool task; the task moves the worker's state to the split
 * node by path replay (see parallel.h), works, and moves it back.
 *
 * Concurrency contract:
 *  - a gts__pw, its context, its state and its arena belong to its worker
 *    thread; the driver thread touches them only before gts__pool_run()
 *    and after it returned (the pool orders those accesses).
 *  - a split point is written by its owner before its tasks are spawned
 *    (published by the pool's deque), then only: next (atomic counter),
 *    abort.flag (ck_pr) and whatever the algorithm's job function guards
 *    with its own lock. The owner frees it only after gts__sp_join(), when
 *    no task references it any more.
 *
 * Invariants:
 *  - pw->path[0..len) is the path of pw->c->state whenever a parallel node
 *    frame may start a wait (tasks start only inside waits or at top level).
 *  - a task leaves the worker exactly where it found it: position, abort
 *    chain and work mode.
 */
#include "search/parallel.h"
#include "search/node_search.h"

#include <sched.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

/* Arena chunk size; a bigger request gets a chunk of its own size. */
static const size_t ARENA_CHUNK = (size_t)64 << 10;
static const size_t ARENA_ALIGN = 16;

struct gts__arena_chunk {
    gts__arena_chunk *prev;
    size_t size;
    _Alignas(16) unsigned char data[];
};

/* ---- iteration ------------------------------------------------------------ */

static const gts_allocator *run_alloc(const gts__run *run)
{
    return &run->engine->alloc;
}

bool gts__par_begin(gts__par *par, gts__run *run)
{
    memset(par, 0, sizeof *par);
    par->run = run;
    par->threads = run->threads;
    par->pool = run->threads > 1 ? run->pool : NULL;
    if (par->pool)
        gts__pool_set_virtual(par->pool, run->engine->virtual_procs != 0);
    size_t size = (size_t)run->threads * sizeof(gts__pw);
    par->pw = gts__calloc_aligned(run_alloc(run), size, GTS__CACHELINE);
    if (!par->pw) {
        gts__fail(run->ctx[0], GTS_ENOMEM, 0);
        return false;
    }
    for (int i = 0; i < run->threads; i++) {
        gts__pw *pw = &par->pw[i];
        pw->par = par;
        pw->id = i;
        pw->c = run->ctx[i];
        pw->c->use_pvs = true;
        pw->c->abort = NULL;
        pw->mark = pw->c->nodes;
        pw->rng = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1) + 1;
        if (par->pool) {
            pw->w = gts__pool_worker(par->pool, i);
            gts__worker_set_data(pw->w, pw);
        }
    }
    return true;
}

struct run_arg {
    gts__par *par;
    void (*fn)(gts__pw *pw, void *arg);
    void *arg;
};

static void run_trampoline(void *arg, gts__worker *w)
{
    struct run_arg *ra = arg;
    gts__pw *pw = &ra->par->pw[gts__worker_id(w)];
    pw->w = w;
    ra->fn(pw, ra->arg);
}

void gts__par_run(gts__par *par, void (*fn)(gts__pw *pw, void *arg), void *arg)
{
    if (!par->pool) {
        fn(&par->pw[0], arg);
        return;
    }
    struct run_arg ra = {par, fn, arg};
    gts__pool_run(par->pool, run_trampoline, &ra);
}

static void chunk_free(gts__pw *pw, gts__arena_chunk *ch)
{
    if (ch)
        gts__free(run_alloc(pw->par->run), ch, sizeof *ch + ch->size);
}

static void arena_free(gts__pw *pw)
{
    gts__arena_chunk *ch = pw->chunk;
    while (ch) {
        gts__arena_chunk *prev = ch->prev;
        chunk_free(pw, ch);
        ch = prev;
    }
    chunk_free(pw, pw->spare);
    pw->chunk = pw->spare = NULL;
    pw->used = 0;
}

void gts__par_end(gts__par *par)
{
    if (!par->pw)
        return;
    gts__run *run = par->run;
    for (int i = 0; i < par->threads; i++) {
        gts__pw *pw = &par->pw[i];
        gts__pw_flush(pw);
        run->nodes_mandatory += pw->mandatory;
        run->nodes_speculative += pw->speculative;
        run->nodes_wasted += pw->wasted;
        pw->c->abort = NULL;
        arena_free(pw);
        if (pw->w)
            gts__worker_set_data(pw->w, NULL);
    }
    gts__free_aligned(run_alloc(run), par->pw, (size_t)par->threads * sizeof(gts__pw),
                      GTS__CACHELINE);
    par->pw = NULL;
}

/* ---- path replay ------------------------------------------------------------ */

bool gts__pw_goto(gts__pw *pw, const gts_move *path, int len)
{
    gts__ctx *c = pw->c;
    int common = 0;
    int lim = len < pw->len ? len : pw->len;
    while (common < lim && pw->path[common] == path[common])
        common++;
    /* Step 1. Back to the common ancestor. A failing undo is recorded; the
     * game's state is then unknown, which only the failing search sees. */
    while (pw->len > common) {
        int rc = c->game->undo(c->state, pw->path[pw->len - 1], c->user);
        if (rc < 0)
            gts__fail(c, GTS_ECALLBACK, rc);
        pw->len--;
    }
    /* Step 2. Down the target path. */
    while (pw->len < len) {
        gts_move m = path[pw->len];
        int rc = c->game->apply(c->state, m, c->user);
        if (rc < 0) {
            gts__fail(c, GTS_ECALLBACK, rc);
            return false;
        }
        pw->path[pw->len++] = m;
        /* The keys of the line, for repetition draws (node.h): those of
         * the common part are this position's already. */
        if (c->rep) {
            c->path_key[pw->len] = c->game->hash(c->state, c->user);
            c->ext_in[pw->len] = c->null_in[pw->len] = false;
        }
    }
    return true;
}

bool gts__pw_enter(gts__pw *pw, gts__pw_frame *f, const gts_move *path, int len,
                   const gts__abort *abort, bool spec)
{
    gts__pw_flush(pw);
    f->abort = pw->c->abort;
    f->in_spec = pw->in_spec;
    f->nodes0 = pw->c->nodes;
    f->nested0 = pw->nested;
    f->len = pw->len;
    memcpy(f->path, pw->path, (size_t)pw->len * sizeof(gts_move));
    pw->in_spec = spec;
    pw->c->abort = abort;
    return gts__pw_goto(pw, path, len);
}

void gts__pw_leave(gts__pw *pw, gts__pw_frame *f)
{
    gts__pw_flush(pw);
    gts__pw_goto(pw, f->path, f->len);
    pw->c->abort = f->abort;
    pw->in_spec = f->in_spec;
    /* Everything counted during the task belongs to the task: hide it from
     * the frames that were waiting below it. */
    pw->nested = f->nested0 + (pw->c->nodes - f->nodes0);
    pw->mark = gts__pw_own(pw);
}

/* ---- arena ------------------------------------------------------------------- */

void *gts__pw_alloc(gts__pw *pw, size_t size)
{
    size = (size + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
    if (pw->chunk && pw->used + size <= pw->chunk->size) {
        void *p = pw->chunk->data + pw->used;
        pw->used += size;
        return p;
    }
    gts__arena_chunk *ch = NULL;
    if (pw->spare && pw->spare->size >= size) {
        ch = pw->spare;
        pw->spare = NULL;
    } else {
        size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
        ch = gts__malloc(run_alloc(pw->par->run), sizeof *ch + cap);
        if (!ch) {
            gts__fail(pw->c, GTS_ENOMEM, 0);
            return NULL;
        }
        ch->size = cap;
    }
    ch->prev = pw->chunk;
    pw->chunk = ch;
    pw->used = size;
    return ch->data;
}

void gts__pw_release(gts__pw *pw, gts__arena_mark m)
{
    while (pw->chunk != m.chunk) {
        gts__arena_chunk *ch = pw->chunk;
        pw->chunk = ch->prev;
        /* Keep one chunk for the next growth: nodes come and go at the
         * same depths all the time. */
        if (!pw->spare || pw->spare->size < ch->size) {
            chunk_free(pw, pw->spare);
            pw->spare = ch;
        } else {
            chunk_free(pw, ch);
        }
    }
    pw->used = m.used;
}

/* ---- waiting ------------------------------------------------------------------ */

/* Spin rounds with pause before a waiter starts yielding the CPU, yield
 * rounds before it starts sleeping, and the sleep (with more threads than
 * cores, yielding idlers still take CPU time from the searching threads). */
static const unsigned BACKOFF_SPIN_ROUNDS = 6;
static const unsigned BACKOFF_YIELD_ROUNDS = 32;
static const long BACKOFF_SLEEP_NS = 50000;
/* Spins on a busy lock before yielding. */
static const unsigned LOCK_SPINS = 64;

static void backoff_real(unsigned round)
{
    if (round < BACKOFF_SPIN_ROUNDS) {
        for (unsigned i = 0; i < (8u << round); i++)
            gts__atomic_pause();
    } else if (round < BACKOFF_SPIN_ROUNDS + BACKOFF_YIELD_ROUNDS) {
        sched_yield();
    } else {
        struct timespec ts = {0, BACKOFF_SLEEP_NS};
        nanosleep(&ts, NULL);
    }
}

void gts__spin_lock_slow(uint32_t *lock)
{
    unsigned spins = 0;
    for (;;) {
        while (gts__atomic_load_relaxed_32(lock) != 0) {
            if (gts__pool_vp_wait()) /* the holder runs on its own turn */
                continue;
            if (++spins < LOCK_SPINS)
                gts__atomic_pause();
            else
                sched_yield();
        }
        if (gts__atomic_cas_32(lock, 0, 1))
            return;
    }
}

void gts__backoff(unsigned round)
{
    if (gts__pool_vp_wait()) /* a virtual run: a synchronisation turn */
        return;
    backoff_real(round);
}

void gts__backoff_starved(unsigned round)
{
    if (gts__pool_vp_starve()) /* a virtual run: an idle turn, no work anywhere */
        return;
    backoff_real(round);
}

/* ---- moves -------------------------------------------------------------------- */

/* The @n ordered moves at @ply (gts__node_moves) into arena arrays, nd->moves
 * and nd->idx; false on failure (recorded). With @sl (a selective context),
 * only those the serial node would search (node_search.h, step 6a): within
 * the N-best limit, without the quiet moves that futility and late-move
 * pruning drop; nd->n is then their number, nd->floor the futility value
 * when it dropped one, and nd->quiet flags the quiet ones for late-move
 * reductions when they may act. */
static bool par_moves(gts__pw *pw, int depth, int ply, uint32_t tt_move, const gts__sel *sl,
                      gts__par_node *nd)
{
    gts__ctx *c = pw->c;
    int n = nd->n;
    gts_move *mv = gts__pw_alloc(pw, (size_t)n * sizeof *mv);
    uint32_t *ix = gts__pw_alloc(pw, (size_t)n * sizeof *ix);
    uint8_t *quiet = sl && sl->reduce ? gts__pw_alloc(pw, (size_t)n) : NULL;
    if (!mv || !ix || (sl && sl->reduce && !quiet))
        return false;
    bool sort = gts__order_moves(c, ply, n, tt_move);
    const gts_move *gen = gts__moves(c, ply);
    int limit = sl ? gts__par_limit(c, depth, n) : n, kept = 0;
    for (int k = 0; k < limit; k++) {
        uint32_t i = sort ? gts__pick(c, ply, k, n) : (uint32_t)k;
        gts_move m = gen[i];
        if (sl) {
            /* The extension is asked only for a move that would be pruned;
             * a kept move checks its own when searched. */
            bool q = gts__sel_quiet(c, sl, ply, i, m, tt_move, 0);
            if (q && gts__sel_pruned(sl, k, kept)) {
                int ext = gts__extension(c, m);
                if (ext < 0)
                    return false;
                if (ext == 0) {
                    if (sl->futile && sl->fut_value > nd->floor)
                        nd->floor = sl->fut_value;
                    continue;
                }
                q = false;
            }
            if (quiet)
                quiet[kept] = q;
        }
        mv[kept] = m;
        ix[kept] = i;
        kept++;
    }
    nd->moves = mv;
    nd->idx = ix;
    nd->quiet = quiet;
    nd->n = kept;
    return true;
}

/* The serial search a split node's null move and verification run (the
 * move path of a parallel search never holds a pass). */
static gts_score par_serial(gts__ctx *c, const void *arg, int depth, int ply, gts_score alpha,
                            gts_score beta)
{
    (void)arg;
    return gts__alphabeta(c, depth, ply, alpha, beta);
}

static const gts__node_hooks PAR_SERIAL = {.child = par_serial, .select = true};

void *gts__par_open(gts__pw *pw, int depth, int ply, gts_score *alpha, gts_score *beta,
                    size_t block, gts__par_node *nd)
{
    gts__ctx *c = pw->c;
    gts_score *score = &nd->score;
    nd->open_window = *beta - *alpha > 1;
    nd->floor = -GTS_SCORE_INF;
    nd->quiet = NULL;

    /* Steps 1-2. Stop, limits, horizon; window and table (node.h) */
    gts__node_in in;
    if (gts__node_head(c, depth, ply, alpha, beta, false, &in, score))
        return NULL;
    /* Step 2b. Razoring, null move (the serial node's step 3b) */
    const bool prune = c->selective && ply > 0 && !nd->open_window && !c->ext_in[ply];
    gts_score eval = 0;
    if (prune && gts__prune_head(c, &PAR_SERIAL, NULL, depth, ply, *alpha, *beta, &eval, score))
        return NULL;
    if (gts__node_moves(c, depth, ply, &in, score))
        return NULL;
    nd->key = in.key;
    nd->n = in.n;

    /* Step 3. Moves, ordered (and pruned), into the arena; the node's block */
    gts__sel sl;
    if (c->selective && !gts__sel_begin(c, depth, ply, prune, *alpha, eval, in.n, &sl)) {
        *score = 0; /* a failure (recorded) */
        return NULL;
    }
    nd->am = gts__pw_mark(pw);
    if (par_moves(pw, depth, ply, in.tt_move, c->selective ? &sl : NULL, nd)
        && gts__lookahead(c, depth, nd->moves, nd->n)
        && (nd->block = gts__pw_alloc(pw, block)) != NULL)
        return nd->block;
    gts__pw_release(pw, nd->am); /* a failure (recorded) */
    *score = 0;
    return NULL;
}

/* ---- split points -------------------------------------------------------------- */

bool gts__sp_init(gts__pw *pw, gts__sp *sp, uint32_t first, uint32_t njobs,
                  gts__sp_job_fn job, void *data, bool spec)
{
    sp->abort.flag = 0;
    sp->abort.parent = pw->c->abort;
    sp->next = first;
    sp->njobs = njobs;
    sp->spec = spec || pw->in_spec; /* speculative work stays speculative */
    sp->ply = pw->len;
    sp->path = NULL;
    sp->job = job;
    sp->data = data;
    gts__group_init(&sp->group);
    sp->ntasks = 0;
    sp->tasks = NULL;
    sp->adopted = 0;
    sp->published = false;
    if (!gts__sp_parallel(pw) || first + 1 >= njobs)
        return true; /* nobody else will ever come */
    int helpers = pw->par->threads - 1;
    sp->path = gts__pw_alloc(pw, (size_t)(sp->ply + 1) * sizeof(gts_move));
    sp->tasks = gts__pw_alloc(pw, (size_t)helpers * sizeof(gts__task));
    if (!sp->path || !sp->tasks) {
        sp->tasks = NULL;
        return false;
    }
    memcpy(sp->path, pw->path, (size_t)sp->ply * sizeof(gts_move));
    return true;
}

/* Join @sp from elsewhere and run its jobs until none is left; the number
 * of jobs run. */
static uint32_t sp_help(gts__pw *pw, gts__sp *sp)
{
    uint32_t ran = 0;
    if (!gts__sp_has_jobs(sp) || gts__chain_aborted(pw->c, &sp->abort))
        return 0;
    gts__pw_frame f;
    if (gts__pw_enter(pw, &f, sp->path, sp->ply, &sp->abort, sp->spec)) {
        for (;;) {
            if (gts__aborted(pw->c))
                break;
            /* Mandatory work elsewhere comes before a speculative job. A
             * failure on the way there or back leaves the state off this
             * split point's path: stop before running a job on it. */
            if (sp->spec && gts__board_busy(pw)) {
                gts__pw_help_mandatory(pw);
                if (gts__aborted(pw->c))
                    break;
            }
            uint32_t j = gts__sp_claim(sp);
            if (j >= sp->njobs)
                break;
            sp->job(pw, sp, j);
            ran++;
        }
    }
    gts__pw_leave(pw, &f);
    return ran;
}

/* A helper task: join the split point and run its jobs until none is left. */
static void sp_task(gts__task *task, gts__worker *w)
{
    (void)sp_help(gts__worker_data(w), task->arg);
}

void gts__sp_spawn(gts__pw *pw, gts__sp *sp, int max)
{
    if (!sp->tasks)
        return;
    uint32_t next = gts__atomic_load_relaxed_32(&sp->next);
    uint32_t left = next < sp->njobs ? sp->njobs - next : 0;
    /* The owner takes one job itself. */
    int n = left > 1 ? (int)(left - 1) : 0;
    int helpers = pw->par->threads - 1;
    if (n > helpers)
        n = helpers;
    if (n > max)
        n = max;
    for (int i = sp->ntasks; i < n; i++) {
        sp->tasks[i].fn = sp_task;
        sp->tasks[i].arg = sp;
        gts__pool_spawn(pw->w, &sp->group, &sp->tasks[i]);
    }
    if (n > sp->ntasks)
        sp->ntasks = n;
}

void gts__sp_run_job(gts__pw *pw, gts__sp *sp, uint32_t job)
{
    const gts__abort *saved = pw->c->abort;
    pw->c->abort = &sp->abort;
    bool mode = gts__pw_mode_begin(pw, sp->spec);
    sp->job(pw, sp, job);
    gts__pw_mode_end(pw, mode);
    pw->c->abort = saved;
}

void gts__sp_work(gts__pw *pw, gts__sp *sp)
{
    const gts__abort *saved = pw->c->abort;
    pw->c->abort = &sp->abort;
    bool mode = gts__pw_mode_begin(pw, sp->spec);
    for (;;) {
        if (gts__aborted(pw->c))
            break;
        if (sp->spec && gts__board_busy(pw)) {
            gts__pw_help_mandatory(pw);
            if (gts__aborted(pw->c)) /* see sp_help */
                break;
        }
        uint32_t j = gts__sp_claim(sp);
        if (j >= sp->njobs)
            break;
        sp->job(pw, sp, j);
    }
    gts__pw_mode_end(pw, mode);
    pw->c->abort = saved;
}

void gts__sp_join(gts__pw *pw, gts__sp *sp)
{
    gts__sp_retract(pw, sp);
    if (sp->ntasks > 0)
        gts__pool_wait(pw->w, &sp->group);
    /* Workers that came from the board (none can come once retracted). */
    unsigned idle = 0;
    while (gts__atomic_load_acquire_32(&sp->adopted) != 0) {
        if (pw->w && gts__pool_help(pw->w))
            idle = 0;
        else
            gts__backoff(idle++);
    }
}

/* ---- mandatory work first ------------------------------------------------------- */

/* Mandatory split points a worker may join from the board, one inside the
 * other (each nests on its stack). */
static const int BOARD_MAX_NEST = 4;

void gts__sp_publish(gts__pw *pw, gts__sp *sp)
{
    gts__par *par = pw->par;
    if (!sp->path || sp->spec || sp->published)
        return; /* nobody else can come, or not mandatory */
    gts__spin_lock(&par->board_lock);
    uint32_t n = par->board_n;
    if (n < GTS__BOARD_MAX) {
        par->board[n] = sp;
        gts__atomic_store_relaxed_32(&par->board_n, n + 1);
        sp->published = true;
    }
    gts__spin_unlock(&par->board_lock);
}

void gts__sp_retract(gts__pw *pw, gts__sp *sp)
{
    gts__par *par = pw->par;
    if (!sp->published)
        return;
    gts__spin_lock(&par->board_lock);
    uint32_t n = par->board_n;
    for (uint32_t i = 0; i < n; i++)
        if (par->board[i] == sp) {
            par->board[i] = par->board[n - 1];
            gts__atomic_store_relaxed_32(&par->board_n, n - 1);
            break;
        }
    gts__spin_unlock(&par->board_lock);
    sp->published = false;
}

bool gts__pw_help_mandatory(gts__pw *pw)
{
    gts__par *par = pw->par;
    bool ran = false;
    /* Each adoption nests on this worker's stack: keep that shallow. */
    if (pw->board_nest >= BOARD_MAX_NEST)
        return false;
    pw->board_nest++;
    for (;;) {
        /* The shallowest published split point with jobs left: the most
         * work per job, and the nearest to the root's value. */
        gts__sp *sp = NULL;
        gts__spin_lock(&par->board_lock);
        for (uint32_t i = 0; i < par->board_n; i++) {
            gts__sp *x = par->board[i];
            if (gts__sp_has_jobs(x) && !gts__chain_aborted(pw->c, &x->abort)
                && (!sp || x->ply < sp->ply))
                sp = x;
        }
        if (sp)
            gts__atomic_faa_relaxed_32(&sp->adopted, 1);
        gts__spin_unlock(&par->board_lock);
        if (!sp)
            break;
        uint32_t jobs = sp_help(pw, sp);
        /* Release: the owner reads what the jobs wrote after seeing 0. */
        gts__atomic_faa_release_32(&sp->adopted, (uint32_t)-1);
        if (jobs == 0 || gts__aborted(pw->c))
            break; /* raced with its last claim, or a stop: nothing to gain */
        ran = true;
    }
    pw->board_nest--;
    return ran;
}

/* ---- shared-table algorithms ------------------------------------------------ */

typedef struct smp {
    gts__abort stop;         /* helpers' chain: raised when the main search ends */
    gts__group group;
    gts__task *tasks;
    void (*main_fn)(gts__pw *pw, void *arg);
    void (*helper_fn)(gts__pw *pw, int helper, void *arg);
    void *arg;
} smp;

static void smp_task(gts__task *task, gts__worker *w)
{
    smp *m = task->arg;
    gts__pw *pw = gts__worker_data(w);
    if (gts__atomic_load_relaxed_32(&m->stop.flag) || gts__run_stopped(pw->c->shared))
        return;
    int helper = (int)(task - m->tasks) + 1;
    const gts__abort *saved = pw->c->abort;
    pw->c->abort = &m->stop;
    bool mode = gts__pw_mode_begin(pw, true);
    gts__waste_mark wm = gts__pw_waste_mark(pw);
    m->helper_fn(pw, helper, m->arg);
    if (gts__aborted(pw->c))
        gts__pw_wasted(pw, wm);
    gts__pw_mode_end(pw, mode);
    pw->c->abort = saved;
}

static void smp_root(gts__pw *pw, void *arg)
{
    smp *m = arg;
    if (pw->w)
        for (int i = 0; i < pw->par->threads - 1; i++) {
            m->tasks[i].fn = smp_task;
            m->tasks[i].arg = m;
            gts__pool_spawn(pw->w, &m->group, &m->tasks[i]);
        }
    m->main_fn(pw, m->arg);
    gts__atomic_store_relaxed_32(&m->stop.flag, 1);
    if (pw->w)
        gts__pool_wait(pw->w, &m->group);
}

void gts__par_smp(gts__par *par, void (*main_fn)(gts__pw *pw, void *arg),
                  void (*helper_fn)(gts__pw *pw, int helper, void *arg), void *arg)
{
    smp m = {.stop = {0, NULL}, .main_fn = main_fn, .helper_fn = helper_fn, .arg = arg};
    gts__group_init(&m.group);
    if (par->threads > 1) {
        m.tasks = gts__calloc(run_alloc(par->run), (size_t)par->threads, sizeof *m.tasks);
        if (!m.tasks) {
            gts__fail(par->pw[0].c, GTS_ENOMEM, 0);
            return;
        }
    }
    gts__par_run(par, smp_root, &m);
    gts__free(run_alloc(par->run), m.tasks, (size_t)par->threads * sizeof *m.tasks);
}

/* ---- the root call ------------------------------------------------------------ */

typedef struct root_call {
    gts__par_root_fn fn, helper_fn;
    int depth;
    gts_score alpha, beta, score;
} root_call;

static void root_main(gts__pw *pw, void *arg)
{
    root_call *r = arg;
    r->score = r->fn(pw, r->depth, 0, r->alpha, r->beta);
}

static void root_helper(gts__pw *pw, int helper, void *arg)
{
    root_call *r = arg;
    pw->helper = helper;
    (void)r->helper_fn(pw, r->depth, 0, r->alpha, r->beta);
}

gts_score gts__par_search(gts__par *par, gts__par_root_fn fn, int depth, gts_score alpha,
                          gts_score beta)
{
    root_call r = {fn, NULL, depth, alpha, beta, 0};
    gts__par_run(par, root_main, &r);
    return r.score;
}

gts_score gts__par_search_smp(gts__par *par, gts__par_root_fn main_fn, gts__par_root_fn helper_fn,
                              int depth, gts_score alpha, gts_score beta)
{
    root_call r = {main_fn, helper_fn, depth, alpha, beta, 0};
    gts__par_smp(par, root_main, root_helper, &r);
    return r.score;
}
