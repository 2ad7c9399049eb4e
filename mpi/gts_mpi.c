/*
 * gts_mpi.c - gts_mpi_search(): APHID (Brockington & Schaeffer, "APHID:
 * Asynchronous Parallel Game-Tree Search", JPDC 2000) over MPI, on the
 * public API of libgts only.
 *
 * Design. Rank 0, the master, builds the top P plies of the tree once
 * (apply/undo on its own root, P = gts_mpi_options::master_plies) and runs
 * fail-soft alpha-beta over that small tree, pass after pass. A node of
 * the tree whose remaining depth is at most 1, or at the bottom ply, is a
 * leaf: its value comes from a table of bounds [lo, hi] that the other
 * ranks (the slaves) fill by searching the leaf's position with
 * gts_search() under the window the master's pass had there. A leaf whose
 * bounds decide the pass's question (exact, lo >= beta or hi <= alpha)
 * returns them; any other leaf is "uncertain": the pass requests its
 * search and goes on with a guess (its last known value, of the same
 * depth parity when it has one; first its static evaluation), so that
 * one pass names every leaf the search will probably need and they are
 * searched in parallel. The master re-runs the pass
 * whenever results arrive, until a pass uses no guess: then every leaf
 * returned a value satisfying the fail-soft property (v <= alpha implies
 * true <= v, v >= beta implies true >= v, else true == v) and, by
 * induction over the tree, so does the root: the value is exact, as serial
 * alpha-beta's. At one rank the passes are PVS (a later child with a null
 * window first, the full window only when it fails high inside it): the
 * master searches its leaves itself, one at a time in the pass's order, so
 * the first uncertain leaf has serial PVS's window and null windows pay;
 * with slaves a pass's re-search would be decided on guesses (more passes
 * and leaf re-searches, a lower speedup: doc/results/distributed.md). Each leaf search strictly narrows its [lo, hi] (it was
 * uncertain for its window), so an iteration ends. With iterative
 * deepening (the engine's #GTS_OPT_ITERATIVE) the master repeats this for
 * depth 1..d, each depth's leaf values ordering the next one's tree and
 * serving as its guesses, as in the paper. A leaf search on the rank
 * that searched the leaf last, one ply less deep or more, goes straight
 * to its depth (#GTS_OPT_ITERATIVE off for it, the WORK message says so):
 * the master's iterations are its deepening and that rank's table holds
 * the previous depth; deepening each leaf search from depth 1 again cost
 * up to a quarter of the nodes at one rank (doc/results/distributed.md).
 *
 * Working ahead (gts_mpi_options::work_ahead, APHID's asynchrony). A leaf
 * keeps bounds for several depths. A slave that the pass's requests leave
 * idle searches a leaf to the next depth (or the one after), with the
 * whole window, leaves this iteration reached first, the leaf least ahead
 * first: its result waits in the leaf's table for the next iterations.
 * An iteration ends when its pass needs no guess, as before, and cancels
 * only the searches that are not ahead of it; a request for a leaf whose
 * search in flight is of another depth cancels that search. Exactness is
 * untouched: a pass uses only bounds of the depth it needs, whoever
 * computed them and whenever.
 *
 * Splitting and preemption (issue 33, more than two ranks). At the start
 * of an iteration the master may make interior nodes of leaves whose
 * last search cost more than the slaves' fair share (master_split), so the
 * principal variation's subtree is searched by several ranks; the passes
 * are alpha-beta over whatever tree the master holds, so exactness is as
 * above; a leaf the master waited for during half an iteration is split
 * too (the critical path). A request that finds no idle slave cancels a
 * search ahead (master_dispatch): speculation gives way to what the
 * iteration waits for. A request that waits for its leaf's busy rank is also searched by
 * a slave left idle (master_race): the first answer is taken. With one
 * slave none of this happens, so np 2 stays a function of its arguments
 * (mpi_vreal_np2).
 *
 * A work item is the move path from the root: a slave replays it with
 * apply() on its own root (each rank holds the same root), searches, and
 * undoes it. Results of work that is no longer needed (an iteration that
 * ended) are cancelled: the slave polls for a cancel message every
 * POLL_INTERVAL generate() calls from a wrapper around the game's
 * callbacks, on the thread that called MPI (MPI_Is_thread_main), and
 * stops its engine.
 *
 * Exactness of a leaf. The argument above needs each leaf search to
 * return its fixed-depth value (fail-soft in its window). A rank keeps its
 * engine's table across leaf searches of different depths (work-ahead, a
 * leaf coming back one ply deeper or shallower, the caller's own earlier
 * searches), and with the table's usual rule a deeper entry cuts a
 * shallower node: its bound is on the deeper value, which is not the
 * fixed-depth one (serial PVS on connect4h after a depth-9 search of a
 * sibling returned a non-minimax depth-7 value in 12 of 240 cases). Every
 * leaf search therefore runs with exact-depth cutoffs
 * (gts__engine_exact_depth, lib/hook_internal.h): an entry cuts or narrows
 * a node's window only when it has the node's own remaining depth (or,
 * deeper, for a forced result within the node's horizon); entries of any
 * depth still order the moves. The setting is restored after each
 * leaf search, so the caller's own searches keep the usual rule.
 *
 * Decided scores: a leaf search reports distances from the leaf; the
 * master converts them to distances from the root (leaf ply p added), as
 * gts_search() does at ply p. Windows sent to a leaf are left as they are
 * when undecided and widened to infinity otherwise (always sound).
 *
 * Concurrency: everything here runs on the thread that called
 * gts_mpi_search(); the engines' worker threads only run game callbacks.
 * Messages go over a duplicate of the caller's communicator, so they never
 * mix with the caller's; the master drains every reply before it sends
 * DONE, so no message outlives the call.
 *
 * Errors: arguments are checked on every rank and the worst status is
 * agreed on (MPI_Allreduce) before any search. A failure during the
 * search (a slave's callback, the master's) ends it: the master cancels
 * the work in flight, waits for it, and sends its status to every rank.
 *
 * Stops. gts_engine_stop() on any rank's engine stops the whole search,
 * as it would stop that rank's gts_search(): every rank returns GTS_OK
 * with the last completed iteration and GTS_RESULT_STOPPED. Each rank
 * opens its engine's watch (lib/hook_internal.h) for the call, so a stop
 * that falls between two leaf searches or in a wait is not lost. A stop
 * during a leaf search stops it directly; one that fell just before a leaf
 * search claimed the engine is seen by the poll in the game wrapper, which
 * cancels it (gts__engine_cancel: the slaves' own cancels must not look
 * like the user's stop). The master reads its watch between messages; a
 * slave whose watch shows a stop sends TAG_STOP once (then answers any
 * work with an empty, stopped result) and the master ends the search as
 * for a limit. A TAG_STOP is unsolicited, so it may cross the master's
 * DONE: the final gather tells rank 0 which slaves sent one, and it
 * receives those it has not seen, so that no message outlives the call.
 *
 * Virtual ranks. gts_mpi_search_virtual() runs the same master (master_run
 * and everything below it) in one process, without MPI, with simulated
 * slaves on a virtual clock measured in nodes: only the four transport
 * calls (net_work, net_cancel, net_done, net_recv) differ, and the slaves
 * run serve_work(), as a real slave does, on the caller's engine of that
 * rank. The model and its invariants are at "the transport" below.
 */
#include "gts_mpi_internal.h"
#include "hook_internal.h"
#include "struct_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- constants ------------------------------------------------------------- */

enum { TAG_WORK = 1, TAG_RESULT = 2, TAG_CANCEL = 3, TAG_DONE = 4, TAG_STOP = 5 };

/* Header words of the messages; each is followed by up to GTS_MAX_PLY moves. */
enum { WORK_HDR = 7, RESULT_HDR = 13, DONE_HDR = 8, MSG_MAX = 13 + GTS_MAX_PLY };

static const int DEFAULT_MASTER_PLIES = 2;
static const int MAX_MASTER_PLIES = 8;
/* Plies a slave with no needed leaf searches ahead of the master's
 * iteration (gts_mpi_options::work_ahead); a leaf keeps the bounds of its
 * needed depth and of each depth ahead. */
enum { TAB_SLOTS = GTS_MPI_MAX_WORK_AHEAD + 1 };
static const int DEFAULT_WORK_AHEAD = 2;
static const gts_algorithm DEFAULT_ALGORITHM = GTS_ALG_PVS;
/* generate() calls between two polls for a cancel message on a slave. */
static const int POLL_INTERVAL = 1024;
/* Sleep between two probes while waiting (MPI's blocking calls spin,
 * which on an oversubscribed machine takes the CPU from the ranks that
 * search): starts at POLL_MIN_NS and doubles up to POLL_MAX_NS. */
static const long POLL_MIN_NS = 5000;
static const long POLL_MAX_NS = 250000;
/* Scores of this magnitude may be decided: converted, or windows widened. */
static const gts_score UNDECIDED_MAX = GTS_SCORE_DECIDED - GTS_MAX_PLY;
static const uint32_t MAX_MOVES_LIMIT = 65535;

/* ---- the game wrapper (slaves: polling for cancels) -------------------------- */

typedef struct wrap {
    gts_game g;    /* handed to gts_search(): user = this */
    gts_game orig; /* the caller's game, full size */
    gts_engine *engine; /* the engine searching now */
    MPI_Comm comm;
    int64_t seq;   /* the work item being searched */
    bool poll;     /* this rank polls for cancels */
    bool cancelled;
    uint64_t messages;
} wrap;

static _Thread_local int tl_countdown;

static void wrap_poll(wrap *w)
{
    if (--tl_countdown > 0)
        return;
    tl_countdown = POLL_INTERVAL;
    /* A user's stop that fell before this leaf search claimed the engine
     * (any rank, any thread: one atomic load, one lock-free store). */
    if (gts__engine_watch_stopped(w->engine))
        gts__engine_cancel(w->engine);
    if (!w->poll || w->cancelled)
        return;
    int main_thread = 0;
    MPI_Is_thread_main(&main_thread);
    if (!main_thread)
        return;
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(0, TAG_CANCEL, w->comm, &flag, &st);
    if (!flag)
        return;
    int64_t seq = 0;
    MPI_Recv(&seq, 1, MPI_INT64_T, 0, TAG_CANCEL, w->comm, MPI_STATUS_IGNORE);
    if (seq == w->seq) {
        w->cancelled = true;
        gts__engine_cancel(w->engine);
    }
}

static int w_generate(void *s, gts_move *m, uint32_t cap, void *u)
{
    wrap *w = u;
    wrap_poll(w);
    return w->orig.generate(s, m, cap, w->orig.user);
}
static int w_generate_keyed(void *s, gts_move *m, int32_t *k, uint32_t cap, void *u)
{
    wrap *w = u;
    wrap_poll(w);
    return w->orig.generate_keyed(s, m, k, cap, w->orig.user);
}
static int w_apply(void *s, gts_move m, void *u)
{
    return ((wrap *)u)->orig.apply(s, m, ((wrap *)u)->orig.user);
}
static int w_undo(void *s, gts_move m, void *u)
{
    return ((wrap *)u)->orig.undo(s, m, ((wrap *)u)->orig.user);
}
static gts_score w_evaluate(void *s, void *u)
{
    return ((wrap *)u)->orig.evaluate(s, ((wrap *)u)->orig.user);
}
static uint64_t w_hash(void *s, void *u)
{
    return ((wrap *)u)->orig.hash(s, ((wrap *)u)->orig.user);
}
static void *w_clone(void *s, void *u)
{
    return ((wrap *)u)->orig.clone(s, ((wrap *)u)->orig.user);
}
static void w_free(void *s, void *u)
{
    ((wrap *)u)->orig.free(s, ((wrap *)u)->orig.user);
}
static int w_generate_noisy(void *s, gts_move *m, uint32_t cap, void *u)
{
    return ((wrap *)u)->orig.generate_noisy(s, m, cap, ((wrap *)u)->orig.user);
}
static int32_t w_move_score(void *s, gts_move m, void *u)
{
    return ((wrap *)u)->orig.move_score(s, m, ((wrap *)u)->orig.user);
}
static int w_extend(void *s, gts_move m, void *u)
{
    return ((wrap *)u)->orig.extend(s, m, ((wrap *)u)->orig.user);
}
static int w_format_move(void *s, gts_move m, char *buf, size_t size, void *u)
{
    return ((wrap *)u)->orig.format_move(s, m, buf, size, ((wrap *)u)->orig.user);
}
static int w_parse_move(void *s, const char *t, gts_move *m, void *u)
{
    return ((wrap *)u)->orig.parse_move(s, t, m, ((wrap *)u)->orig.user);
}
static int w_bounds(void *s, gts_score *lo, gts_score *hi, void *u)
{
    return ((wrap *)u)->orig.bounds(s, lo, hi, ((wrap *)u)->orig.user);
}
static int w_playout_move(void *s, uint64_t r, gts_move *m, void *u)
{
    return ((wrap *)u)->orig.playout_move(s, r, m, ((wrap *)u)->orig.user);
}
static uint64_t w_hash_after(void *s, gts_move m, void *u)
{
    return ((wrap *)u)->orig.hash_after(s, m, ((wrap *)u)->orig.user);
}

/* The wrapped vtable: the same optional callbacks present as in orig. */
static void wrap_init(wrap *w)
{
    const gts_game *o = &w->orig;
    gts_game *g = &w->g;
    *g = *o;
    g->struct_size = sizeof *g;
    g->user = w;
    g->generate = w_generate;
    g->apply = w_apply;
    g->undo = w_undo;
    g->evaluate = w_evaluate;
#define WRAP_OPT(f) g->f = o->f ? w_##f : NULL
    WRAP_OPT(hash);
    WRAP_OPT(clone);
    WRAP_OPT(free);
    WRAP_OPT(generate_noisy);
    WRAP_OPT(move_score);
    WRAP_OPT(extend);
    WRAP_OPT(format_move);
    WRAP_OPT(parse_move);
    WRAP_OPT(bounds);
    WRAP_OPT(generate_keyed);
    WRAP_OPT(playout_move);
    WRAP_OPT(hash_after);
#undef WRAP_OPT
}

/* ---- small helpers ------------------------------------------------------------ */

static void nap(long *ns)
{
    struct timespec ts = { 0, *ns };
    nanosleep(&ts, NULL);
    *ns = *ns * 2 < POLL_MAX_NS ? *ns * 2 : POLL_MAX_NS;
}

/* A leaf's score (distance to the end from the leaf) seen from the root,
 * the leaf being @p ply plies deep. */
static gts_score leaf_to_root(gts_score s, int ply)
{
    if (s >= GTS_SCORE_DECIDED && s <= GTS_SCORE_WIN)
        return s - ply;
    if (s <= -GTS_SCORE_DECIDED && s >= GTS_SCORE_LOSS)
        return s + ply;
    return s;
}

/* Send @p n words with @p tag and count it. */
static void send_words(MPI_Comm comm, const int64_t *w, int n, int to, int tag, uint64_t *msgs)
{
    MPI_Send(w, n, MPI_INT64_T, to, tag, comm);
    (*msgs)++;
}

/* ---- a leaf search (any rank) ------------------------------------------------- */

typedef struct leaf_out {
    int64_t status, score, flags, nodes, callback_status, depth;
    int64_t seldepth, tt_probes, tt_hits, tt_cutoffs;
    gts_move best;
    uint32_t pv_length;
    gts_move pv[GTS_MAX_PLY];
} leaf_out;

/* Replay @p path on @p state, search @p depth plies under [alpha, beta]
 * with @p engine (@p direct: without its iterative deepening,
 * #GTS_OPT_ITERATIVE off for this search), undo the path. A rank whose
 * user stopped it searches nothing: the result is empty and stopped, as a
 * cancelled one. */
static void search_leaf(wrap *w, gts_engine *engine, gts_algorithm alg, void *state,
                        const gts_move *path, int plen, int depth, gts_score alpha,
                        gts_score beta, bool direct, leaf_out *out)
{
    memset(out, 0, sizeof *out);
    w->engine = engine;
    if (gts__engine_watch_stopped(engine)) {
        out->flags = GTS_RESULT_STOPPED;
        return;
    }
    int applied = 0;
    for (; applied < plen; applied++) {
        int rc = w->orig.apply(state, path[applied], w->orig.user);
        if (rc < 0) {
            out->status = GTS_ECALLBACK;
            out->callback_status = rc;
            break;
        }
    }
    if (applied == plen) {
        gts_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.struct_size = sizeof lim;
        lim.depth = depth;
        lim.alpha = alpha;
        lim.beta = beta;
        gts_result r;
        memset(&r, 0, sizeof r);
        r.struct_size = sizeof r;
        tl_countdown = POLL_INTERVAL;
        /* Straight to the depth (see the top and leaf_direct()). */
        int64_t iterative = 0;
        bool restore = direct && gts_engine_get(engine, GTS_OPT_ITERATIVE, &iterative) == GTS_OK
                       && iterative && gts_engine_set(engine, GTS_OPT_ITERATIVE, 0) == GTS_OK;
        /* Exact-depth table cutoffs: the leaf's value must be its depth's
         * minimax value whatever the table kept from other depths (the
         * premise of APHID's exactness, see "Exactness" at the top). */
        bool exact_was = gts__engine_exact_depth(engine, true);
        gts_status st = gts_search(w->engine, alg, &w->g, state, &lim, &r);
        gts__engine_exact_depth(engine, exact_was);
        if (restore)
            gts_engine_set(engine, GTS_OPT_ITERATIVE, iterative);
        out->status = st;
        out->score = r.score;
        out->flags = r.flags;
        out->nodes = (int64_t)r.nodes;
        out->callback_status = r.callback_status;
        out->depth = r.depth;
        out->seldepth = r.seldepth;
        out->tt_probes = (int64_t)r.tt_probes;
        out->tt_hits = (int64_t)r.tt_hits;
        out->tt_cutoffs = (int64_t)r.tt_cutoffs;
        out->best = r.best_move;
        out->pv_length = r.pv_length;
        memcpy(out->pv, r.pv, r.pv_length * sizeof r.pv[0]);
        if (w->cancelled)
            out->flags |= GTS_RESULT_STOPPED;
    }
    while (applied > 0) {
        applied--;
        int rc = w->orig.undo(state, path[applied], w->orig.user);
        if (rc < 0 && out->status >= 0) {
            out->status = GTS_ECALLBACK;
            out->callback_status = rc;
        }
    }
}

/* A slave's side of one work item (any rank, any transport): decode the
 * TAG_WORK words @p buf (@p count of them), search the leaf with
 * @p engine, encode the TAG_RESULT words into @p out. Returns their count;
 * @p o receives the leaf search's result. */
static int serve_work(wrap *w, gts_engine *engine, gts_algorithm alg, void *state,
                      const int64_t *buf, int count, int64_t *out, leaf_out *o)
{
    gts_move path[GTS_MAX_PLY];
    int plen = (int)buf[5];
    if (plen < 0 || plen > GTS_MAX_PLY || WORK_HDR + plen > count)
        plen = 0;
    for (int i = 0; i < plen; i++)
        path[i] = (gts_move)buf[WORK_HDR + i];
    w->seq = buf[0];
    w->cancelled = false;
    search_leaf(w, engine, alg, state, path, plen, (int)buf[2], (gts_score)buf[3],
                (gts_score)buf[4], buf[6] != 0, o);
    out[0] = buf[0];
    out[1] = o->status;
    out[2] = o->score;
    out[3] = o->flags;
    out[4] = o->nodes;
    out[5] = o->callback_status;
    out[6] = o->depth;
    out[7] = (int64_t)o->best;
    out[8] = o->pv_length;
    out[9] = o->seldepth;
    out[10] = o->tt_probes;
    out[11] = o->tt_hits;
    out[12] = o->tt_cutoffs;
    for (uint32_t i = 0; i < o->pv_length; i++)
        out[RESULT_HDR + i] = (int64_t)o->pv[i];
    return RESULT_HDR + (int)o->pv_length;
}

/* ---- the master's tree -------------------------------------------------------- */

/* Bounds [lo, hi] of a leaf's value searched to remaining depth `depth`
 * (0: an empty slot), and the PV of the search that gave them. */
typedef struct bounds {
    int32_t depth;
    gts_score lo, hi;
    uint32_t pv_length;
    gts_move pv[GTS_MAX_PLY];
    /* A search ahead off the PV not yet used by a pass (master_narrow):
     * 0 none, PROBE_WHOLE its exact value, PROBE_NARROW a window around
     * ctr; ctr is the narrow window's centre (leaf-relative). */
    uint8_t probe;
    gts_score ctr;
    /* Nodes of the searches ahead that gave these bounds, until a pass
     * reads them (gts_mpi_stats::ahead_unread_nodes). */
    uint64_t unread;
} bounds;

enum { PROBE_NONE, PROBE_WHOLE, PROBE_NARROW };

typedef struct mnode {
    gts_move move;     /* the move from the parent */
    int32_t parent;    /* -1 at the root */
    int32_t ply;
    int32_t ext;       /* extend() of move */
    int32_t first;     /* children: kids[first .. first + count) */
    int32_t count;
    int32_t best_kid;  /* of the last pass (-1: none) */
    int32_t ordered;   /* the iteration that ordered its children last */
    bool terminal;     /* no moves: term is its value */
    gts_score term;
    gts_score est;     /* last known value, from this node's side to move */
    /* Leaf table: bounds of the value at up to TAB_SLOTS remaining depths
     * (the master's and those searched ahead of it). */
    bounds tab[TAB_SLOTS];
    int64_t inflight;  /* seq of the search in flight, 0 if none */
    int32_t inflight_depth;
    int64_t race;      /* seq of a race copy in flight (master_race), 0 if none */
    int32_t race_depth;
    int32_t home;      /* rank that searched it last (its table knows it) */
    uint64_t cost;     /* nodes of its deepest completed search ... */
    int32_t cost_depth; /* ... and that search's depth */
    bool split_tried;  /* master_split() expanded it (or tried) */
    int32_t searched_depth; /* depth of its last completed search */
    /* Its last value at an even and at an odd remaining depth (index
     * depth & 1; par_depth 0: none): a pass guesses from the same parity. */
    gts_score par_est[2];
    int32_t par_depth[2];
    /* The master's waits in iteration waited_iter with a search of it in
     * flight that the iteration needed (master_charge), and the wait that
     * charged it last. */
    uint64_t waited;
    int32_t waited_iter;
    uint64_t waited_stamp;
    /* The last pass that reached this leaf: its depth there, the
     * iteration, the pass and the visit (its order in the pass). */
    int32_t need;
    int32_t seen_iter;
    uint64_t seen_pass, seen_at;
} mnode;

typedef struct request {
    int32_t node, depth;
    gts_score alpha, beta; /* leaf-relative window */
} request;

typedef struct master {
    const gts_game *game; /* the caller's (copied) game */
    void *state;
    mnode *nodes;
    int32_t nnodes, cap;
    int32_t *kids;
    int32_t nkids, kids_cap;
    request *req;
    int32_t nreq, req_cap;
    struct ahead_pick *picks; /* master_ahead()'s candidates */
    int32_t picks_cap;
    bool uncertain;
    bool pvs;           /* later children with a null window first (one rank) */
    bool preempt;       /* requests cancel searches ahead when no slave is idle */
    bool pin;           /* a request waits for the leaf's own rank */
    bool split;         /* master_split() deepens the tree at heavy leaves */
    bool race;          /* idle slaves race requests waiting for a busy rank */
    uint64_t races, races_won;
    /* Narrow windows ahead (master_narrow): allowed (more than one slave),
     * the root's last value at each parity of the iteration's depth, and
     * the passes' uses of results ahead off the PV and how many of them a
     * narrow window's bound answered (or would have). */
    bool narrow, narrow_always, narrow_now;
    gts_score root_par[2];
    int32_t root_par_depth[2];
    uint64_t narrow_uses, narrow_answers, narrow_sent;
    uint64_t splits;    /* leaves master_split() made interior */
    uint64_t ahead_moved; /* searches ahead away from their leaf's rank */
    int32_t max_ply;    /* the deepest leaf of the master's tree */
    int32_t iter;       /* the iteration's depth */
    bool split_critical; /* master_split() deepens the tree at critical leaves */
    uint64_t iter_start, iter_time; /* the iteration's start, the last one's length */
    uint64_t iter_idle; /* slaves' idle time during the iteration's waits */
    uint64_t unread_lost; /* unread nodes ahead of table slots reused */
    uint64_t waits;     /* the master's waits for a result so far */
    int32_t *needed;    /* master_needed()'s leaves, one per rank */
    uint64_t npass;     /* passes so far */
    gts_status status;
    int32_t callback_status;
    uint64_t tree_nodes;
    uint64_t visits; /* nodes visited by the passes (the master's work) */
    /* Totals of every leaf search (reported in the result). */
    uint64_t tt_probes, tt_hits, tt_cutoffs;
    int32_t seldepth;
} master;

/* The master's growing arrays: @p arr (*@p cap elements of @p size bytes)
 * with room for @p need elements, doubled from 64 as needed. NULL when out
 * of memory; @p arr is then unchanged (and still the caller's). */
static void *grow(void *arr, int32_t *cap, int32_t need, size_t size)
{
    if (need <= *cap)
        return arr;
    int32_t c = *cap ? *cap : 64;
    while (c < need) {
        if (c > INT32_MAX / 2)
            return NULL;
        c *= 2;
    }
    void *p = realloc(arr, (size_t)c * size);
    if (p)
        *cap = c;
    return p;
}

static int32_t node_add(master *m, gts_move move, int32_t parent, int32_t ply, int32_t ext)
{
    mnode *nodes = grow(m->nodes, &m->cap, m->nnodes + 1, sizeof *nodes);
    if (!nodes)
        return -1;
    m->nodes = nodes;
    mnode *x = &m->nodes[m->nnodes];
    memset(x, 0, sizeof *x);
    x->move = move;
    x->parent = parent;
    x->ply = ply;
    x->ext = ext;
    x->best_kid = -1;
    return m->nnodes++;
}

static void fail(master *m, gts_status st, int32_t cb)
{
    if (m->status == GTS_OK) {
        m->status = st;
        m->callback_status = cb;
    }
}

/* evaluate() at @p ply as gts_search() does it: validated, decided scores
 * turned into distances from the root. */
static gts_score master_eval(master *m, int ply)
{
    gts_score s = m->game->evaluate(m->state, m->game->user);
    if (s == GTS_SCORE_INVALID) {
        fail(m, GTS_ECALLBACK, -1);
        return 0;
    }
    if (s < GTS_SCORE_LOSS || s > GTS_SCORE_WIN) {
        fail(m, GTS_ESCORE, s);
        return 0;
    }
    return leaf_to_root(s, ply);
}

/* Build the subtree of node @p x (at its ply) down to @p plies plies. */
static void build(master *m, int32_t x, int plies)
{
    int ply = m->nodes[x].ply;
    m->nodes[x].est = master_eval(m, ply);
    if (ply >= plies || m->status != GTS_OK)
        return;
    const gts_game *g = m->game;
    gts_move *moves = malloc(g->max_moves * sizeof *moves);
    if (!moves) {
        fail(m, GTS_ENOMEM, 0);
        return;
    }
    int n = g->generate(m->state, moves, g->max_moves, g->user);
    if (n < 0) {
        fail(m, GTS_ECALLBACK, n);
    } else if ((uint32_t)n > g->max_moves) {
        fail(m, GTS_EMOVES, n);
    } else if (n == 0) {
        m->nodes[x].terminal = true;
        m->nodes[x].term = m->nodes[x].est;
    } else {
        int32_t *kids = grow(m->kids, &m->kids_cap, m->nkids + n, sizeof *kids);
        if (!kids) {
            fail(m, GTS_ENOMEM, 0);
            free(moves);
            return;
        }
        m->kids = kids;
        int32_t first = m->nkids;
        m->nkids += n;
        m->nodes[x].first = first;
        m->nodes[x].count = n;
        for (int i = 0; i < n && m->status == GTS_OK; i++) {
            int ext = 0;
            if (g->extend) {
                ext = g->extend(m->state, moves[i], g->user);
                if (ext < 0) {
                    fail(m, GTS_ECALLBACK, ext);
                    break;
                }
                if (ext > GTS_MAX_PLY)
                    ext = GTS_MAX_PLY;
            }
            int rc = g->apply(m->state, moves[i], g->user);
            if (rc < 0) {
                fail(m, GTS_ECALLBACK, rc);
                break;
            }
            m->tree_nodes++;
            int32_t c = node_add(m, moves[i], x, ply + 1, ext);
            if (c < 0)
                fail(m, GTS_ENOMEM, 0);
            else {
                m->kids[first + i] = c;
                build(m, c, plies);
            }
            rc = g->undo(m->state, moves[i], g->user);
            if (rc < 0)
                fail(m, GTS_ECALLBACK, rc);
        }
    }
    free(moves);
}

/* The index of @p n's table slot for @p depth, or -1. */
static int tab_index(const mnode *n, int depth)
{
    for (int i = 0; i < TAB_SLOTS; i++)
        if (n->tab[i].depth == depth)
            return i;
    return -1;
}

/* The slot of @p n's table for @p depth, or NULL. */
static const bounds *tab_find(const mnode *n, int depth)
{
    int i = tab_index(n, depth);
    return i < 0 ? NULL : &n->tab[i];
}

/* The deepest depth in @p n's table (0: none). */
static int tab_deepest(const mnode *n)
{
    int d = 0;
    for (int i = 0; i < TAB_SLOTS; i++)
        if (n->tab[i].depth > d)
            d = n->tab[i].depth;
    return d;
}

/* The slot for a result at @p depth: its own, else the shallowest one,
 * emptied (NULL if every slot is deeper: the result is too old to keep);
 * an emptied slot's unread nodes ahead go to m->unread_lost. */
static bounds *tab_slot(master *m, mnode *n, int depth)
{
    int at = tab_index(n, depth);
    if (at >= 0)
        return &n->tab[at];
    bounds *b = &n->tab[0];
    for (int i = 1; i < TAB_SLOTS; i++)
        if (n->tab[i].depth < b->depth)
            b = &n->tab[i];
    if (b->depth > depth)
        return NULL;
    m->unread_lost += b->unread;
    b->unread = 0;
    b->depth = depth;
    b->lo = -GTS_SCORE_INF;
    b->hi = GTS_SCORE_INF;
    b->pv_length = 0;
    b->probe = PROBE_NONE;
    return b;
}

/* Whether a search of leaf @p n to @p depth is on its way (one of another
 * depth, ahead, gives way to a request: master_dispatch cancels it). */
static bool inflight_at(const mnode *n, int depth)
{
    return n->inflight && n->inflight_depth == depth;
}

static void request_leaf(master *m, int32_t x, int depth, gts_score alpha, gts_score beta)
{
    if (inflight_at(&m->nodes[x], depth))
        return;
    request *req = grow(m->req, &m->req_cap, m->nreq + 1, sizeof *req);
    if (!req) {
        fail(m, GTS_ENOMEM, 0);
        return;
    }
    m->req = req;
    /* The window as the leaf sees it: undecided bounds as they are,
     * decided ones widened to infinity (sound, see the top). */
    request *r = &m->req[m->nreq++];
    r->node = x;
    r->depth = depth;
    r->alpha = alpha > -UNDECIDED_MAX && alpha < UNDECIDED_MAX ? alpha : -GTS_SCORE_INF;
    r->beta = beta > -UNDECIDED_MAX && beta < UNDECIDED_MAX ? beta : GTS_SCORE_INF;
    if (r->alpha >= r->beta) {
        r->alpha = -GTS_SCORE_INF;
        r->beta = GTS_SCORE_INF;
    }
}

/*
 * Narrow windows ahead (issue 33, fifth round). A search ahead off the
 * principal variation may use the window (c - 1, c + 1) around c, the
 * root's last value at the parity of the iteration it serves (from the
 * leaf's side): its bound answers a later pass whose window lies on one
 * side of c, with fewer nodes than the whole window. Whether it does
 * depends on the game (doc/results/distributed.md, "fourth round":
 * Othello's passes were answered, Connect-4's were not and searched the
 * leaf again on the critical path), so the master measures it: the first
 * time a pass reads a result ahead off the PV, it counts whether a narrow
 * bound answered the pass's window (a narrow result), or would have (a
 * whole-window result: its exact value x gives the bound [c+1, inf] if
 * x > c, [-inf, c-1] if x < c, c if x = c). The searches ahead are narrow
 * at the start of each iteration while NARROW_NUM / NARROW_DEN (70 %) of
 * NARROW_MIN or more such uses so far were
 * answered, whole otherwise.
 */
#define NARROW_MIN 16
#define NARROW_NUM 7
#define NARROW_DEN 10

static void narrow_measure(master *m, bounds *b, gts_score alpha, gts_score beta)
{
    gts_score lo = b->lo, hi = b->hi, c = b->ctr;
    if (b->probe == PROBE_WHOLE) {
        if (lo != hi) {
            b->probe = PROBE_NONE;
            return;
        }
        if (lo > c)
            lo = c + 1, hi = GTS_SCORE_INF;
        else if (lo < c)
            lo = -GTS_SCORE_INF, hi = c - 1;
    }
    b->probe = PROBE_NONE;
    m->narrow_uses++;
    m->narrow_answers += lo == hi || lo >= beta || hi <= alpha;
}

/* Whether the master's searches ahead are narrow now (see above). */
static bool narrow_on(const master *m)
{
    return m->narrow_uses >= NARROW_MIN
        && m->narrow_answers * NARROW_DEN >= m->narrow_uses * NARROW_NUM;
}

/* Whether @p x is on the principal variation of the last pass. */
static bool on_pv(const master *m, int32_t x)
{
    for (int32_t p = m->nodes[x].parent; p >= 0; x = p, p = m->nodes[x].parent)
        if (m->nodes[p].best_kid != x)
            return false;
    return true;
}

/* The narrow window's centre for a search of leaf @p x to @p depth
 * (leaf-relative), in *c; false if it has none: on the PV, no root value
 * of that parity yet, or a decided one. */
static bool narrow_centre(const master *m, int32_t x, int depth, gts_score *c)
{
    const mnode *n = &m->nodes[x];
    int q = (n->ply + depth) & 1;
    if (!m->narrow || !m->root_par_depth[q] || on_pv(m, x))
        return false;
    gts_score v = m->root_par[q];
    if (v <= -UNDECIDED_MAX || v >= UNDECIDED_MAX)
        return false;
    *c = n->ply & 1 ? -v : v;
    return true;
}

/*
 * One pass of fail-soft alpha-beta over the master's tree: node @p x with
 * @p depth plies to go, window (alpha, beta). Uncertain leaves are
 * requested and answered with a guess (m->uncertain is set).
 */
static gts_score pass(master *m, int32_t x, int depth, gts_score alpha, gts_score beta)
{
    mnode *n = &m->nodes[x];
    m->visits++;
    if (n->terminal)
        return n->term;
    if (n->count == 0 || depth <= 1) {
        /* Step 1. A leaf: its bounds, or a request and a guess. A leaf
         * search cannot go deeper than GTS_MAX_DEPTH (extensions). */
        if (depth > GTS_MAX_DEPTH)
            depth = GTS_MAX_DEPTH;
        n->best_kid = -1;
        n->need = depth;
        n->seen_iter = m->iter;
        n->seen_pass = m->npass;
        n->seen_at = m->visits;
        const bounds *b = tab_find(n, depth);
        if (b)
            n->tab[tab_index(n, depth)].unread = 0; /* read: used */
        if (b && b->probe)
            narrow_measure(m, &n->tab[tab_index(n, depth)], alpha, beta);
        if (b) {
            if (b->lo == b->hi || b->lo >= beta)
                return b->lo;
            if (b->hi <= alpha)
                return b->hi;
        }
        m->uncertain = true;
        request_leaf(m, x, depth, alpha, beta);
        n = &m->nodes[x];
        /* The guess: the leaf's last value at a depth of the same parity
         * if it has one, else its last value. Connect-4's evaluation
         * swings by about 2000 from one depth to the next (its odd/even
         * effect) and by 265 from a depth to the one two plies deeper
         * (doc/results/distributed.md, "second round"): a guess of the
         * other parity gave the pass's requests windows far from their
         * values, and searches to repeat. */
        gts_score g = n->par_depth[depth & 1] ? n->par_est[depth & 1] : n->est;
        if (b)
            g = g < b->lo ? b->lo : g > b->hi ? b->hi : g;
        return g;
    }
    /* Step 2. Order the children by their last value (best first), once
     * an iteration, as serial iterative deepening does: re-sorted after
     * each result, the passes of one iteration visited the children in a
     * different order each, with other windows (doc/results/distributed.md). */
    int32_t *k = &m->kids[n->first];
    bool order = n->ordered != m->iter;
    n->ordered = m->iter;
    /* The best child of the last pass that reached the node first, as
     * serial search tries the table's move first: the others' values are
     * often bounds, or older when a cut-off skipped them (doc/results/distributed.md). */
    int first = 0;
    if (order && n->best_kid >= 0) {
        for (int i = 0; i < n->count; i++)
            if (k[i] == n->best_kid) {
                memmove(k + 1, k, (size_t)i * sizeof *k);
                k[0] = n->best_kid;
                first = 1;
                break;
            }
    }
    for (int i = first + 1; order && i < n->count; i++) {
        int32_t v = k[i];
        int j = i;
        while (j > first && m->nodes[k[j - 1]].est > m->nodes[v].est) {
            k[j] = k[j - 1];
            j--;
        }
        k[j] = v;
    }
    /* Step 3. Alpha-beta over them. */
    gts_score best = -GTS_SCORE_INF, a = alpha;
    int32_t best_kid = -1;
    for (int i = 0; i < n->count; i++) {
        int32_t c = k[i];
        int cd = depth - 1 + m->nodes[c].ext;
        gts_score v;
        if (i > 0 && m->pvs && a > -UNDECIDED_MAX && a < UNDECIDED_MAX && a + 1 < beta) {
            /* A null window first, the full one only if it fails high
             * inside it (fail-soft: each pass's value keeps the property
             * that makes the guess-free pass exact). */
            v = -pass(m, c, cd, -a - 1, -a);
            if (v > a && v < beta)
                v = -pass(m, c, cd, -beta, -a);
        } else
            v = -pass(m, c, cd, -beta, -a);
        m->nodes[c].est = -v;
        if (v > best) {
            best = v;
            best_kid = c;
        }
        if (v > a)
            a = v;
        if (a >= beta)
            break;
    }
    m->nodes[x].best_kid = best_kid;
    return best;
}

/* The move path from the root to @p x, in order; returns its length. */
static int path_of(const master *m, int32_t x, gts_move *path)
{
    int len = 0;
    for (int32_t y = x; m->nodes[y].parent >= 0; y = m->nodes[y].parent)
        len++;
    int i = len;
    for (int32_t y = x; m->nodes[y].parent >= 0; y = m->nodes[y].parent)
        path[--i] = m->nodes[y].move;
    return len;
}

/* Add a leaf search's table counts and selective depth to the totals. */
static void tally(master *m, int32_t x, const leaf_out *o)
{
    m->tt_probes += (uint64_t)o->tt_probes;
    m->tt_hits += (uint64_t)o->tt_hits;
    m->tt_cutoffs += (uint64_t)o->tt_cutoffs;
    int32_t sd = m->nodes[x].ply + (int32_t)o->seldepth;
    if (sd > m->seldepth)
        m->seldepth = sd;
}

/* Record a leaf result for node @p x (searched at @p depth). */
static void leaf_result(master *m, int32_t x, int depth, const leaf_out *o, gts_mpi_stats *s)
{
    mnode *n = &m->nodes[x];
    if (o->status < 0) {
        fail(m, (gts_status)o->status, (int32_t)o->callback_status);
        return;
    }
    if (o->flags & (GTS_RESULT_STOPPED | GTS_RESULT_NODE_LIMIT | GTS_RESULT_TIME_LIMIT)) {
        s->cancelled++;
        s->cancelled_nodes += (uint64_t)o->nodes;
        return;
    }
    s->leaf_searches++;
    if (n->searched_depth == depth)
        s->leaf_researches++;
    n->searched_depth = depth;
    if (depth >= n->cost_depth) {
        n->cost = (uint64_t)o->nodes;
        n->cost_depth = depth;
    }
    bounds *b = tab_slot(m, n, depth);
    if (!b)
        return;
    gts_score v = leaf_to_root((gts_score)o->score, n->ply);
    if (o->flags & GTS_RESULT_LOWER_BOUND) {
        if (v > b->lo)
            b->lo = v;
    } else if (o->flags & GTS_RESULT_UPPER_BOUND) {
        if (v < b->hi)
            b->hi = v;
    } else {
        b->lo = b->hi = v;
    }
    b->pv_length = o->pv_length;
    memcpy(b->pv, o->pv, o->pv_length * sizeof o->pv[0]);
    if (b->lo > b->hi) /* cannot happen with a consistent game; stay sound */
        b->hi = b->lo;
    n->est = v < b->lo ? b->lo : v > b->hi ? b->hi : v;
    if (depth >= n->par_depth[depth & 1]) {
        n->par_depth[depth & 1] = depth;
        n->par_est[depth & 1] = n->est;
    }
}

/* ---- master / slave drivers ------------------------------------------------------ */

typedef struct run {
    MPI_Comm comm;
    int rank, size;
    gts_engine *engine;
    gts_algorithm alg;
    wrap *w;
    void *state;
    gts_limits lim;
    uint64_t my_nodes, messages;
    uint64_t start_us;
    bool stop_sent;   /* a slave: its TAG_STOP went to the master */
    bool stopped;     /* the master: a slave's TAG_STOP arrived */
    uint8_t *stop_from; /* the master: ranks whose TAG_STOP it received */
    struct vnet *virt;  /* virtual ranks: the simulated slaves; NULL over MPI */
} run;

static gts_engine *vnet_engine(const run *R, int rank);

/* The master: the user stopped this search, on its rank or another (with
 * virtual ranks: on any rank's engine, all in this process). */
static bool stop_requested(const run *R)
{
    if (R->stopped || gts__engine_watch_stopped(R->engine))
        return true;
    if (R->virt)
        for (int r = 1; r < R->size; r++)
            if (gts__engine_watch_stopped(vnet_engine(R, r)))
                return true;
    return false;
}

/* How master_receive() waits: not at all; until a message, the time limit
 * or a stop (the search's own waits); until a message (a drain, which
 * waits for the replies to its cancels whatever else happened). */
enum recv_mode { RECV_POLL, RECV_WAIT, RECV_DRAIN };

typedef struct slave_slot {
    int64_t seq; /* 0: idle */
    int32_t node, depth;
    bool ahead;  /* sent by master_ahead() */
    uint8_t probe; /* master_narrow: its result's bounds::probe and ctr */
    gts_score ctr;
    bool race;   /* sent by master_race() */
    bool moved;  /* a search ahead away from the leaf's own rank */
} slave_slot;

/* ---- the transport: MPI, or virtual ranks ------------------------------------ */

/*
 * The master talks to its slaves through four calls: net_work (a TAG_WORK
 * to one slave), net_cancel (a TAG_CANCEL), net_done (the TAG_DONE to
 * every slave) and net_recv (the next TAG_RESULT or TAG_STOP). Over MPI
 * they send and probe. With virtual ranks (gts_mpi_search_virtual) there
 * is no other process: the slaves are simulated on a virtual clock that
 * counts nodes.
 *
 * The virtual model. The clock is the master's: its own work advances it
 * (master_work: one per node it builds, one per node a pass visits, and at
 * one rank the nodes of the leaf searches it does itself). A work item
 * sent at time t reaches slave k at s = t + L (L: the latency,
 * gts_mpi_options::virtual_latency); slave k searches it at once, on its
 * own engine, and the search's nodes C are its duration: the result
 * leaves at s + C and reaches the master at s + C + L, as the very words
 * a real slave would send (serve_work). net_recv delivers the result with
 * the earliest arrival (ties: lowest rank); a wait moves the clock to it, a
 * poll takes only what has arrived by now. A cancel sent at t reaches the
 * slave at t + L: a search still running stops there (its result, marked
 * stopped, leaves then, with the nodes searched until then; the rest of
 * its nodes never happened), one that had ended already is a result
 * crossing the cancel. Each work item, result and cancel is a message, and
 * so is each slave's TAG_DONE, as over MPI. There is no TAG_STOP: every
 * rank's engine is in this process, and stop_requested() reads all their
 * watches.
 *
 * Invariants: a slave holds at most one work item (the master's slot says
 * so, and the virtual rank is busy from the send until its result is
 * delivered); arrival >= stop >= start >= the send time, so the clock never
 * goes back; everything is a function of the arguments (no real time, no
 * threads), so a run is deterministic.
 */

typedef struct vrank {
    gts_engine *engine; /* the caller's engine of this rank */
    bool busy;          /* a result is on its way to the master */
    uint64_t start;     /* the work item reached the slave */
    uint64_t stop;      /* its search ended (or a cancel stopped it) */
    uint64_t arrival;   /* its result reaches the master */
    uint64_t nodes;     /* nodes of all its searches, cancels cut short */
    uint64_t busy_time; /* virtual time spent searching */
    int count;
    int64_t msg[MSG_MAX]; /* the result, as a real slave sends it */
} vrank;

typedef struct vnet {
    uint64_t clock;       /* the master's virtual time, in nodes */
    uint64_t latency;     /* of one message, in nodes */
    uint64_t master_time; /* the master's own work */
    vrank *ranks;         /* [size]; rank 0 is the master: only its engine */
} vnet;

static uint64_t master_now(const run *R);

static gts_engine *vnet_engine(const run *R, int rank)
{
    return R->virt->ranks[rank].engine;
}

/* The master worked @p units nodes (virtual ranks: the clock moves on). */
static void master_work(run *R, uint64_t units)
{
    if (R->virt) {
        R->virt->clock += units;
        R->virt->master_time += units;
    }
}

static void vnet_work(run *R, int to, const int64_t *buf, int n)
{
    vnet *v = R->virt;
    vrank *k = &v->ranks[to];
    leaf_out o;
    k->count = serve_work(R->w, k->engine, R->alg, R->state, buf, n, k->msg, &o);
    uint64_t cost = (uint64_t)o.nodes;
    k->busy = true;
    k->start = v->clock + v->latency;
    k->stop = k->start + cost;
    k->arrival = k->stop + v->latency;
    k->nodes += cost;
    k->busy_time += cost;
    R->messages += 2; /* the work item, and the result that answers it */
}

static void vnet_cancel(run *R, int to)
{
    vnet *v = R->virt;
    vrank *k = &v->ranks[to];
    R->messages++;
    uint64_t at = v->clock + v->latency; /* >= k->start: sent after the work */
    if (!k->busy || at >= k->stop)
        return; /* the result is already on its way */
    uint64_t unsearched = k->stop - at;
    k->nodes -= unsearched;
    k->busy_time -= unsearched;
    k->msg[3] |= GTS_RESULT_STOPPED;
    k->msg[4] -= (int64_t)unsearched;
    k->stop = at;
    k->arrival = at + v->latency;
}

static int vnet_recv(run *R, enum recv_mode mode, int *from, int64_t *buf, int *count)
{
    vnet *v = R->virt;
    int best = 0;
    for (int r = 1; r < R->size; r++)
        if (v->ranks[r].busy && (!best || v->ranks[r].arrival < v->ranks[best].arrival))
            best = r;
    if (!best)
        return 0;
    vrank *k = &v->ranks[best];
    if (k->arrival > v->clock) {
        if (mode == RECV_POLL)
            return 0;
        v->clock = k->arrival;
    }
    k->busy = false;
    memcpy(buf, k->msg, (size_t)k->count * sizeof *buf);
    *count = k->count;
    *from = best;
    return TAG_RESULT;
}

/* The master's clock: virtual time, or microseconds over MPI. */
static uint64_t master_now(const run *R)
{
    return R->virt ? R->virt->clock : gts__mpi_now_us();
}

/* Send work item @p buf (@p n words) to slave @p to. */
static void net_work(run *R, int to, const int64_t *buf, int n)
{
    if (R->virt)
        vnet_work(R, to, buf, n);
    else
        send_words(R->comm, buf, n, to, TAG_WORK, &R->messages);
}

/* Cancel work item @p seq of slave @p to. */
static void net_cancel(run *R, int to, const int64_t *seq)
{
    if (R->virt)
        vnet_cancel(R, to);
    else
        send_words(R->comm, seq, 1, to, TAG_CANCEL, &R->messages);
}

/* Tell every slave how the search ended. */
static void net_done(run *R, const int64_t *buf, int n)
{
    for (int r = 1; r < R->size; r++) {
        if (R->virt)
            R->messages++;
        else
            send_words(R->comm, buf, n, r, TAG_DONE, &R->messages);
    }
}

/* The next message of a slave (waiting as @p mode says): its tag
 * (TAG_RESULT, its words in @p buf, or TAG_STOP) and sender; 0 if none. */
static int net_recv(run *R, enum recv_mode mode, int *from, int64_t *buf, int *count)
{
    if (R->virt)
        return vnet_recv(R, mode, from, buf, count);
    /* A search's wait ends at the time limit too (the caller checks it). */
    uint64_t deadline = mode == RECV_WAIT && R->lim.time_ms
                            ? R->start_us + R->lim.time_ms * 1000u : 0;
    long ns = POLL_MIN_NS;
    for (;;) {
        int flag = 0;
        MPI_Status st;
        /* Any tag: a slave's TAG_STOP and TAG_RESULT in the order sent. */
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, R->comm, &flag, &st);
        if (flag) {
            *from = st.MPI_SOURCE;
            if (st.MPI_TAG == TAG_STOP) {
                int64_t word = 0;
                MPI_Recv(&word, 1, MPI_INT64_T, st.MPI_SOURCE, TAG_STOP, R->comm,
                         MPI_STATUS_IGNORE);
                return TAG_STOP;
            }
            MPI_Recv(buf, MSG_MAX, MPI_INT64_T, st.MPI_SOURCE, TAG_RESULT, R->comm, &st);
            MPI_Get_count(&st, MPI_INT64_T, count);
            return TAG_RESULT;
        }
        if (mode == RECV_POLL || (deadline && gts__mpi_now_us() >= deadline))
            return 0;
        if (mode == RECV_WAIT && stop_requested(R))
            return 0;
        nap(&ns);
    }
}

static void decode_result(const int64_t *b, int count, leaf_out *o)
{
    memset(o, 0, sizeof *o);
    o->status = b[1];
    o->score = b[2];
    o->flags = b[3];
    o->nodes = b[4];
    o->callback_status = b[5];
    o->depth = b[6];
    o->best = (gts_move)b[7];
    o->seldepth = b[9];
    o->tt_probes = b[10];
    o->tt_hits = b[11];
    o->tt_cutoffs = b[12];
    int64_t pl = b[8];
    if (pl < 0 || pl > GTS_MAX_PLY || RESULT_HDR + pl > count)
        pl = 0;
    o->pv_length = (uint32_t)pl;
    for (int64_t i = 0; i < pl; i++)
        o->pv[i] = (gts_move)b[RESULT_HDR + i];
}

/* Cancel the search in flight whose seq is *@p seq (its slot stays busy
 * until the reply, which master_receive() counts as cancelled); *@p seq
 * becomes 0. */
static void cancel_seq(run *R, slave_slot *slots, int64_t *seq)
{
    for (int r = 1; r < R->size && *seq; r++)
        if (slots[r].seq == *seq) {
            net_cancel(R, r, &slots[r].seq);
            break;
        }
    *seq = 0;
}

/* Receive one message of a slave if any (waiting as @p mode says), process
 * it. Returns true when one was received. */
static bool master_receive(run *R, master *m, slave_slot *slots, enum recv_mode mode,
                           gts_mpi_stats *s, uint64_t *leaf_nodes)
{
    int64_t buf[MSG_MAX];
    int from = 0, count = 0;
    int tag = net_recv(R, mode, &from, buf, &count);
    if (tag == 0)
        return false;
    if (tag == TAG_STOP) {
        R->stopped = true;
        R->stop_from[from] = 1;
        return true;
    }
    leaf_out o;
    decode_result(buf, count, &o);
    *leaf_nodes += (uint64_t)o.nodes;
    slave_slot *sl = &slots[from];
    if (sl->seq)
        tally(m, sl->node, &o);
    if (sl->seq == buf[0]) {
        mnode *n = &m->nodes[sl->node];
        bool raced = n->race && n->race == sl->seq;
        if (n->inflight == sl->seq || raced) {
            /* The first of a raced request's two copies answers it; the
             * other is cancelled (master_race). */
            if (raced) {
                n->race = 0;
                m->races_won++;
                if (n->inflight && n->inflight_depth == sl->depth)
                    cancel_seq(R, slots, &n->inflight);
            } else {
                n->inflight = 0;
                if (n->race && n->race_depth == sl->depth)
                    cancel_seq(R, slots, &n->race);
            }
            n->home = from;
            if (sl->ahead && o.status >= 0 && !(o.flags & (GTS_RESULT_STOPPED | GTS_RESULT_NODE_LIMIT
                                                            | GTS_RESULT_TIME_LIMIT))) {
                s->ahead_nodes += (uint64_t)o.nodes;
                if (sl->moved)
                    s->ahead_moved_nodes += (uint64_t)o.nodes;
            }
            leaf_result(m, sl->node, sl->depth, &o, s);
            int at = tab_index(&m->nodes[sl->node], sl->depth);
            if (at >= 0 && sl->ahead && o.status >= 0
                && !(o.flags & (GTS_RESULT_STOPPED | GTS_RESULT_NODE_LIMIT | GTS_RESULT_TIME_LIMIT)))
                m->nodes[sl->node].tab[at].unread += (uint64_t)o.nodes;
            if (at >= 0) {
                m->nodes[sl->node].tab[at].probe = sl->probe;
                m->nodes[sl->node].tab[at].ctr = sl->ctr;
            }
        } else if (o.status < 0) {
            fail(m, (gts_status)o.status, (int32_t)o.callback_status);
        } else {
            s->cancelled++;
            s->cancelled_nodes += (uint64_t)o.nodes;
        }
        sl->seq = 0;
    }
    return true;
}

static bool any_busy(const slave_slot *slots, int size)
{
    for (int r = 1; r < size; r++)
        if (slots[r].seq)
            return true;
    return false;
}

/* Cancel every search in flight and wait for their replies. */
static void master_drain(run *R, master *m, slave_slot *slots, gts_mpi_stats *s,
                         uint64_t *leaf_nodes)
{
    for (int r = 1; r < R->size; r++)
        if (slots[r].seq) {
            net_cancel(R, r, &slots[r].seq);
            m->nodes[slots[r].node].inflight = 0;
            m->nodes[slots[r].node].race = 0;
        }
    while (any_busy(slots, R->size))
        master_receive(R, m, slots, RECV_DRAIN, s, leaf_nodes);
}

/* Cancel the searches in flight for leaf @p x, its race copy too. */
static void cancel_leaf(run *R, master *m, slave_slot *slots, int32_t x)
{
    cancel_seq(R, slots, &m->nodes[x].inflight);
    cancel_seq(R, slots, &m->nodes[x].race);
}

/* Whether rank @p to searches leaf @p n to @p depth without deepening to
 * it: it searched the leaf last, at least one ply less deep, so its table
 * holds what the leaf search's own iterative deepening would compute
 * first. On another rank the search deepens as the engine is set: straight
 * to the depth there cost a random tree without move ordering up to three
 * times the nodes (doc/results/distributed.md). */
static bool leaf_direct(const mnode *n, int to, int depth)
{
    return n->searched_depth > 0 && n->home == to && n->searched_depth >= depth - 1;
}

/* Send leaf @p x to slave @p to: @p depth plies, window (alpha, beta);
 * @p race: as the race copy of a waiting request (master_race). */
static void send_leaf(run *R, master *m, slave_slot *slots, int64_t *seq, int to, int32_t x,
                      int depth, gts_score alpha, gts_score beta, bool race)
{
    gts_move path[GTS_MAX_PLY];
    int64_t buf[MSG_MAX];
    int plen = path_of(m, x, path);
    buf[0] = ++*seq;
    buf[1] = x;
    buf[2] = depth;
    buf[3] = alpha;
    buf[4] = beta;
    buf[5] = plen;
    buf[6] = leaf_direct(&m->nodes[x], to, depth);
    for (int j = 0; j < plen; j++)
        buf[WORK_HDR + j] = (int64_t)path[j];
    net_work(R, to, buf, WORK_HDR + plen);
    slots[to] = (slave_slot){ .seq = *seq, .node = x, .depth = depth, .race = race };
    if (race) {
        m->nodes[x].race = *seq;
        m->nodes[x].race_depth = depth;
    } else {
        m->nodes[x].inflight = *seq;
        m->nodes[x].inflight_depth = depth;
    }
}

static int leaf_need(const master *m, const mnode *n);

/* Whether slave @p r searches ahead (a leaf deeper than the current
 * iteration needs it) and has not been cancelled. */
static bool slot_ahead(const master *m, const slave_slot *slots, int r)
{
    if (!slots[r].seq)
        return false;
    const mnode *n = &m->nodes[slots[r].node];
    return n->inflight == slots[r].seq && slots[r].depth > leaf_need(m, n);
}

/* Whether slave @p r searches a race copy (master_race) not cancelled. */
static bool slot_race(const master *m, const slave_slot *slots, int r)
{
    return slots[r].seq && slots[r].race && m->nodes[slots[r].node].race == slots[r].seq;
}

/* Whether slave @p r searches something not cancelled. */
static bool slot_live(const master *m, const slave_slot *slots, int r)
{
    const mnode *n = &m->nodes[slots[r].node];
    return slots[r].seq && (n->inflight == slots[r].seq || n->race == slots[r].seq);
}

/* The slave whose search ahead gives way to a request of leaf @p n (0:
 * none): the leaf's own rank when it searches ahead (its table knows the
 * leaf), else the search ahead sent last (the fewest nodes lost). */
static int preempt_victim(const master *m, const slave_slot *slots, int size, const mnode *n)
{
    if (n->home > 0 && slot_ahead(m, slots, n->home))
        return n->home;
    int victim = 0;
    for (int r = 1; r < size; r++)
        if (slot_ahead(m, slots, r) && (!victim || slots[r].seq > slots[victim].seq))
            victim = r;
    for (int r = 1; r < size && !victim; r++)
        if (slot_race(m, slots, r))
            victim = r;
    return victim;
}

/* Give the pass's requests to idle slaves. A leaf searched before goes to
 * its own rank (its table knows it; a search elsewhere cost 1.4-2.1x the
 * nodes, doc/results/distributed.md): when that rank is busy the request
 * waits, and if the rank only searches ahead, that search is cancelled
 * for it (m->pin, more than two ranks). A new leaf goes to any idle
 * slave. A leaf searched ahead of the depth requested is cancelled first.
 * When no slave is idle, a search ahead gives way to a request
 * (preempt_victim): it is cancelled, and its slave takes the request once
 * its reply is in (the next dispatch). The searches ahead are speculative
 * work for later iterations; a request is what this iteration waits for. */
static void master_dispatch(run *R, master *m, slave_slot *slots, int64_t *seq)
{
    for (int i = 0; i < m->nreq; i++) {
        request *q = &m->req[i];
        mnode *n = &m->nodes[q->node];
        if (inflight_at(n, q->depth))
            continue;
        int to = 0;
        if (n->home > 0 && !slots[n->home].seq)
            to = n->home;
        if (!to && m->pin && n->home > 0) {
            /* Wait for the leaf's rank; free it if it only works ahead. */
            if (slot_ahead(m, slots, n->home))
                cancel_leaf(R, m, slots, slots[n->home].node);
            continue;
        }
        for (int r = 1; r < R->size && !to; r++)
            if (!slots[r].seq)
                to = r;
        if (!to) {
            if (!m->preempt)
                return;
            int v = preempt_victim(m, slots, R->size, n);
            if (!v)
                return;
            cancel_leaf(R, m, slots, slots[v].node);
            continue;
        }
        if (n->inflight)
            cancel_seq(R, slots, &n->inflight);
        if (n->race && n->race_depth != q->depth)
            cancel_seq(R, slots, &n->race);
        send_leaf(R, m, slots, seq, to, q->node, q->depth, q->alpha, q->beta, false);
    }
}

/* What the current iteration needs (or would need) of leaf @p n: the depth
 * its last pass needed, plus the iterations since. */
static int leaf_need(const master *m, const mnode *n)
{
    return n->need + (m->iter - n->seen_iter);
}

/*
 * Work ahead (APHID's slaves): give each slave still idle after
 * master_dispatch() a leaf to search deeper than the master needs it now,
 * up to @p ahead plies and not past the last iteration (@p left more).
 * The leaf chosen is one this iteration reached, else one an earlier
 * iteration reached (cut off since: it may come back); among those, the
 * one least ahead (its deepest result, relative to its need); then a
 * leaf this slave searched last (its table knows it), then one nobody
 * searched; then the earliest in the latest pass that reached it (the
 * master's principal variation comes first). The window is infinite: the
 * exact value answers every window a later pass asks at that depth (the
 * window the master last asked there did worse, doc/results/distributed.md). The
 * result goes into the leaf's table at that depth, where the next
 * iterations' passes find it.
 */
typedef struct ahead_pick {
    int32_t node;
    int old, lead, cls, target;
    uint64_t pass, at;
} ahead_pick;

/* Whether @p a goes before @p b, in master_ahead()'s order. */
static bool ahead_before(const ahead_pick *a, const ahead_pick *b)
{
    if (a->old != b->old)
        return a->old < b->old;
    if (a->lead != b->lead)
        return a->lead < b->lead;
    if (a->cls != b->cls)
        return a->cls < b->cls;
    if (a->pass != b->pass)
        return a->pass > b->pass;
    return a->at < b->at;
}

static void master_ahead(run *R, master *m, slave_slot *slots, int64_t *seq, int ahead, int left)
{
    if (ahead > left)
        ahead = left;
    if (ahead <= 0)
        return;
    /* The candidates, once: everything but the slave's class (cls) is the
     * same for every idle slave. */
    int32_t np = 0;
    for (int32_t i = 0; i < m->nnodes; i++) {
        const mnode *n = &m->nodes[i];
        if (n->count != 0 || n->terminal || n->inflight || n->race || n->need <= 0)
            continue;
        int need = leaf_need(m, n);
        int have = tab_deepest(n);
        ahead_pick c = {
            .node = i,
            .old = n->seen_iter != m->iter,
            .target = (have > need ? have : need) + 1,
            .pass = n->seen_pass,
            .at = n->seen_at,
        };
        c.lead = c.target - need;
        if (c.lead > ahead || c.target > GTS_MAX_DEPTH)
            continue;
        ahead_pick *picks = grow(m->picks, &m->picks_cap, np + 1, sizeof *picks);
        if (!picks) {
            fail(m, GTS_ENOMEM, 0);
            return;
        }
        m->picks = picks;
        m->picks[np++] = c;
    }
    for (int to = 1; to < R->size; to++) {
        if (slots[to].seq)
            continue;
        int32_t best = -1;
        for (int32_t k = 0; k < np; k++) {
            ahead_pick *c = &m->picks[k];
            if (m->nodes[c->node].inflight)
                continue; /* sent to an earlier slave of this loop */
            int home = m->nodes[c->node].home;
            c->cls = home == to ? 0 : home == 0 ? 1 : 2;
            if (best < 0 || ahead_before(c, &m->picks[best]))
                best = k;
        }
        if (best < 0)
            return;
        const ahead_pick *b = &m->picks[best];
        int home = m->nodes[b->node].home;
        gts_score c = 0;
        bool probe = narrow_centre(m, b->node, b->target, &c);
        bool narrow = probe && m->narrow_now;
        send_leaf(R, m, slots, seq, to, b->node, b->target, narrow ? c - 1 : -GTS_SCORE_INF,
                  narrow ? c + 1 : GTS_SCORE_INF, false);
        slots[to].ahead = true;
        /* Measured (doc/results/distributed.md, "sixth round"): at 32-64
         * ranks such searches cost 2.4-2.7x the nodes of one on the
         * leaf's rank, and the next iteration waits for them. */
        slots[to].moved = home > 0 && home != to;
        m->ahead_moved += slots[to].moved;
        slots[to].probe = !probe ? PROBE_NONE : narrow ? PROBE_NARROW : PROBE_WHOLE;
        slots[to].ctr = c;
        m->narrow_sent += narrow;
    }
}

/*
 * Racing (issue 33, more than two ranks). A request of a leaf searched
 * before waits for the leaf's own rank (master_dispatch), while slaves may
 * idle: sending it to a cold rank instead cost more than the wait
 * (doc/results/distributed.md). Here a slave still idle after the searches
 * ahead were handed out also searches such a request (its race copy), and
 * the leaf's rank searches it as before when it is free: the first result
 * answers the request, the other copy is cancelled. So a request never
 * waits longer than a cold search of it, never longer than before, and
 * the idle slave's table learns the leaf (if it wins, it becomes the
 * leaf's rank). Only the slaves nothing else would use race, so the
 * searches ahead and the requests are not delayed; a request that finds
 * no idle slave preempts a race copy after the searches ahead.
 */
static void master_race(run *R, master *m, slave_slot *slots, int64_t *seq)
{
    int to = 1;
    for (int i = 0; i < m->nreq; i++) {
        const request *q = &m->req[i];
        const mnode *n = &m->nodes[q->node];
        if (n->inflight || n->race || n->home <= 0 || !slot_live(m, slots, n->home))
            continue;
        while (to < R->size && slots[to].seq)
            to++;
        if (to >= R->size)
            return;
        send_leaf(R, m, slots, seq, to, q->node, q->depth, q->alpha, q->beta, true);
        m->races++;
    }
}

/* The end of an iteration: cancel each search in flight that is not
 * ahead of what this iteration needed (or would have needed) of its leaf:
 * nothing will use it. Those ahead go on, for the next iterations. */
static void master_cancel_behind(run *R, master *m, slave_slot *slots)
{
    for (int r = 1; r < R->size; r++) {
        if (!slots[r].seq)
            continue;
        mnode *n = &m->nodes[slots[r].node];
        if (n->race && n->race == slots[r].seq) {
            cancel_seq(R, slots, &n->race); /* a request's copy: never ahead */
            continue;
        }
        if (n->inflight != slots[r].seq)
            continue; /* cancelled already */
        if (slots[r].depth <= leaf_need(m, n))
            cancel_seq(R, slots, &n->inflight);
    }
}

/*
 * Deeper master trees where the work is (issue 33). A leaf whose search
 * costs more than the slaves' fair share of an iteration is a bottleneck
 * no number of ranks shortens: the principal variation's leaf, searched
 * by one rank at every iteration, is most of the virtual time at 64
 * ranks. At the start of an iteration such a leaf becomes an interior
 * node of the master's tree (its children are the new leaves), so that its
 * subtree is searched by several ranks: the tree grows where the search
 * spends its nodes, one ply per iteration at most, as the paper's master
 * would with a deeper uniform tree but without its cost everywhere else.
 * Exactness is untouched: the passes are alpha-beta over whatever tree
 * the master holds, and every leaf of it is searched as before.
 *
 * The critical leaf (issue 33, fourth round). With fewer slaves than
 * leaves the fair-share rule is off (it lost as often as it won), yet at
 * 16 ranks the master waited most of each iteration for one leaf's
 * search. So the master charges each wait for a result to every leaf
 * whose search in flight the iteration needs (master_charge), and a leaf
 * charged with at least half of the last iteration's time is split too,
 * whatever the ranks. A split leaf's children start with guesses from
 * its values (expand_leaf): splitting Connect-4 with static evaluations
 * as the children's guesses gave their requests windows far from their
 * values and cost more than it saved (doc/results/distributed.md).
 */
static const int SPLIT_MIN_DEPTH = 3;     /* a split leaf still needs this many plies */
static const int SPLIT_MAX_PLY = 16;      /* no master leaf deeper than this */
static const int SPLITS_PER_ITERATION = 4;
static const int32_t SPLIT_MAX_NODES = 1 << 16; /* master tree nodes */

/* Make leaf @p x an interior node: its children become leaves, the child
 * of x's last PV first and on x's rank (its table knows it). */
static void expand_leaf(master *m, int32_t x)
{
    gts_move path[GTS_MAX_PLY];
    int len = path_of(m, x, path);
    const gts_game *g = m->game;
    int applied = 0;
    for (; applied < len; applied++) {
        int rc = g->apply(m->state, path[applied], g->user);
        if (rc < 0) {
            fail(m, GTS_ECALLBACK, rc);
            break;
        }
    }
    if (applied == len) {
        gts_score est = m->nodes[x].est;
        gts_score par_e[2] = { m->nodes[x].par_est[0], m->nodes[x].par_est[1] };
        int32_t par_d[2] = { m->nodes[x].par_depth[0], m->nodes[x].par_depth[1] };
        int32_t home = m->nodes[x].home, searched = m->nodes[x].searched_depth;
        gts_move pv0 = 0;
        bool has_pv = false;
        int deepest = tab_deepest(&m->nodes[x]);
        const bounds *b = deepest ? tab_find(&m->nodes[x], deepest) : NULL;
        if (b && b->pv_length > 0) {
            pv0 = b->pv[0];
            has_pv = true;
        }
        build(m, x, m->nodes[x].ply + 1);
        mnode *n = &m->nodes[x];
        n->est = est;
        if (n->terminal)
            n->terminal = false, n->term = 0; /* a leaf search already valued it */
        for (int i = 0; i < n->count; i++) {
            mnode *c = &m->nodes[m->kids[n->first + i]];
            /* Pinned requests: only the PV child stays on x's rank, the
             * others go where a slave is idle (else all of x's subtree
             * would wait for one rank, which is what splitting avoids). */
            if (!m->pin || (has_pv && c->move == pv0)) {
                c->home = home;
                c->searched_depth = searched > 1 ? searched - 1 : 0;
            }
            if (has_pv && c->move == pv0)
                n->best_kid = m->kids[n->first + i];
            /* Guesses from x's values (the pass's guess for a new leaf
             * would be its static evaluation): the PV child has x's value,
             * the others fail low just below it, as they did in x's
             * search; the same for x's values at each parity. */
            {
                bool pvc = has_pv && c->move == pv0;
                for (int q = 0; q < 2; q++) {
                    if (par_d[q] < 2)
                        continue; /* none, or no child depth of that parity */
                    gts_score e = par_e[q];
                    int cq = (par_d[q] - 1) & 1;
                    c->par_depth[cq] = par_d[q] - 1;
                    c->par_est[cq] = pvc || e <= -UNDECIDED_MAX || e >= UNDECIDED_MAX ? -e : -e + 1;
                }
                c->est = pvc || est <= -UNDECIDED_MAX || est >= UNDECIDED_MAX ? -est : -est + 1;
            }
        }
    }
    while (applied > 0) {
        applied--;
        int rc = g->undo(m->state, path[applied], g->user);
        if (rc < 0)
            fail(m, GTS_ECALLBACK, rc);
    }
}

/* The leaves whose search in flight this iteration needs (at most one a
 * slave) into @p out; returns their count. */
static int master_needed(const run *R, const master *m, const slave_slot *slots, int32_t *out)
{
    int k = 0;
    for (int r = 1; r < R->size; r++) {
        if (!slot_live(m, slots, r))
            continue;
        const mnode *n = &m->nodes[slots[r].node];
        if (slots[r].depth <= leaf_need(m, n))
            out[k++] = slots[r].node;
    }
    return k;
}

/* The master waited @p dt with the searches of @p nodes in flight: each
 * leaf is charged once a wait (a request and its race copy are one). */
static void master_charge(master *m, const int32_t *nodes, int k, uint64_t dt)
{
    m->waits++;
    for (int i = 0; i < k; i++) {
        mnode *n = &m->nodes[nodes[i]];
        if (n->waited_stamp == m->waits)
            continue;
        n->waited_stamp = m->waits;
        if (n->waited_iter != m->iter) {
            n->waited_iter = m->iter;
            n->waited = 0;
        }
        n->waited += dt;
    }
}

/* Before iteration @p depth: split the leaves whose last search cost more
 * than 1 / (slaves) of all the leaves' (m->split, see above), and those
 * the master waited for during at least half of the last iteration
 * (m->split_critical: the critical path was that leaf's search). */
static void master_split(run *R, master *m, slave_slot *slots, int depth)
{
    int slaves = R->size - 1;
    uint64_t total = 0;
    for (int32_t i = 0; i < m->nnodes; i++) {
        const mnode *n = &m->nodes[i];
        if (n->count == 0 && !n->terminal && n->seen_iter == depth - 1)
            total += n->cost;
    }
    if (total == 0)
        return;
    for (int k = 0; k < SPLITS_PER_ITERATION && m->status == GTS_OK; k++) {
        int32_t best = -1;
        for (int32_t i = 0; i < m->nnodes; i++) {
            const mnode *n = &m->nodes[i];
            if (n->count != 0 || n->terminal || n->seen_iter != depth - 1 || n->split_tried
                || n->ply >= SPLIT_MAX_PLY || n->need + 1 < SPLIT_MIN_DEPTH)
                continue;
            bool critical = m->split_critical && n->waited_iter == depth - 1 && m->iter_time
                            && n->waited * 2 >= m->iter_time;
            if (!critical && (!m->split || n->cost * (uint64_t)slaves <= total))
                continue;
            if (best < 0 || n->cost > m->nodes[best].cost)
                best = i;
        }
        if (best < 0 || m->nnodes >= SPLIT_MAX_NODES)
            return;
        m->nodes[best].split_tried = true;
        if (m->nodes[best].inflight || m->nodes[best].race)
            cancel_leaf(R, m, slots, best);
        uint64_t built = m->tree_nodes;
        expand_leaf(m, best);
        master_work(R, m->tree_nodes - built);
        m->splits++;
        if (m->nodes[best].ply + 1 > m->max_ply)
            m->max_ply = m->nodes[best].ply + 1;
    }
}

/* Fill @p r from the last complete pass at @p depth (score @p v). */
static void master_fill(const master *m, const run *R, int depth, gts_score v, gts_result *r)
{
    r->score = v;
    r->depth = depth;
    r->flags &= ~(uint32_t)(GTS_RESULT_LOWER_BOUND | GTS_RESULT_UPPER_BOUND);
    if (v <= R->lim.alpha)
        r->flags |= GTS_RESULT_UPPER_BOUND;
    else if (v >= R->lim.beta)
        r->flags |= GTS_RESULT_LOWER_BOUND;
    const mnode *root = &m->nodes[0];
    if (root->terminal)
        return;
    uint32_t len = 0;
    int32_t x = 0;
    while (m->nodes[x].best_kid >= 0 && len < GTS_MAX_PLY) {
        x = m->nodes[x].best_kid;
        r->pv[len++] = m->nodes[x].move;
    }
    const mnode *leaf = &m->nodes[x];
    /* Certain in the last pass: searched at the depth that pass needed. */
    const bounds *b = leaf->terminal ? NULL : tab_find(leaf, leaf->need);
    if (b)
        for (uint32_t i = 0; i < b->pv_length && len < GTS_MAX_PLY; i++)
            r->pv[len++] = b->pv[i];
    if (len > 0) {
        r->pv_length = len;
        r->best_move = r->pv[0];
        r->flags |= GTS_RESULT_HAS_MOVE;
    }
}

static gts_status master_run(run *R, const gts_mpi_options *opt, gts_result *res,
                             gts_mpi_stats *s)
{
    master m;
    memset(&m, 0, sizeof m);
    m.game = &R->w->orig;
    m.state = R->state;
    /* At one rank the leaves are searched one at a time, in the pass's
     * order, so the windows are serial PVS's; with slaves the null-window
     * pass's re-searches would wait on guesses (doc/results/distributed.md). */
    m.pvs = R->size == 1;
    /* With one slave nothing is searched ahead and no leaf is heavier
     * than the whole: neither applies (and np 2 stays a function of its
     * arguments, test mpi_vreal_np2). */
    m.preempt = R->size > 2;
    m.pin = R->size > 2;
    m.race = R->size > 2 && opt->race >= 0;
    m.split_critical = R->size > 2 && opt->split >= 0;
    m.narrow = R->size > 2 && opt->narrow >= 0;
    m.narrow_always = opt->narrow > 0;
    int depth_max = R->lim.depth;
    int plies = opt->master_plies;
    if (plies > depth_max - 1)
        plies = depth_max - 1;
    slave_slot *slots = calloc((size_t)R->size, sizeof *slots);
    m.needed = calloc((size_t)R->size, sizeof *m.needed);
    if (!slots || !m.needed || node_add(&m, 0, -1, 0, 0) < 0)
        fail(&m, GTS_ENOMEM, 0);
    m.tree_nodes = 1;
    /* Step 1. The master's tree, and the fallback result (as gts_search:
     * the first legal move and the static value). */
    if (m.status == GTS_OK)
        build(&m, 0, plies);
    master_work(R, m.tree_nodes);
    /* Nodes of every leaf search (the limits), and of this rank's own. */
    uint64_t leaf_nodes = 0, own_nodes = 0;
    if (m.status == GTS_OK) {
        res->score = m.nodes[0].est;
        if (m.nodes[0].count > 0) {
            res->best_move = m.nodes[m.kids[0]].move;
            res->pv[0] = res->best_move;
            res->pv_length = 1;
            res->flags |= GTS_RESULT_HAS_MOVE;
        }
    }
    /* Splitting (master_split): always (split 1), or when twice the slaves
     * outnumber the uniform tree's leaves (0; with fewer slaves it lost
     * as often as it gained; from half as many slaves as leaves, since the
     * sixth round, it raised the geometric mean of the eight set-ups of
     * doc/results/distributed.md at 16 and 32 ranks and made Connect-4
     * depth 18 at 32 ranks 3.14x instead of 2.72x). */
    int32_t leaves0 = 0;
    for (int32_t i = 0; i < m.nnodes; i++)
        leaves0 += m.nodes[i].count == 0 && !m.nodes[i].terminal;
    m.split = R->size > 2 && (opt->split > 0 || (opt->split == 0 && 2 * (R->size - 1) > leaves0));
    int64_t iterative = 1;
    gts_engine_get(R->engine, GTS_OPT_ITERATIVE, &iterative);
    int64_t seq = 0;
    bool stop = m.nodes == NULL || m.nodes[0].terminal;
    s->leaves = 0;
    int ahead = opt->work_ahead < 0 ? 0 : opt->work_ahead == 0 ? DEFAULT_WORK_AHEAD
                                                                : opt->work_ahead;
    for (int depth = iterative ? 1 : depth_max; depth <= depth_max && !stop
         && m.status == GTS_OK; depth++) {
        gts_score v = 0;
        if ((m.split || m.split_critical) && depth > 1)
            master_split(R, &m, slots, depth);
        m.iter = depth;
        m.iter_start = master_now(R);
        m.iter_idle = 0;
        m.narrow_now = m.narrow_always || narrow_on(&m);
        /* Step 2. Passes until one needs no guess. */
        for (;;) {
            m.nreq = 0;
            m.uncertain = false;
            uint64_t visits = m.visits;
            m.npass++;
            v = pass(&m, 0, depth, R->lim.alpha, R->lim.beta);
            master_work(R, m.visits - visits);
            s->passes++;
            if (!m.uncertain || m.status != GTS_OK)
                break;
            if (R->size == 1) {
                /* No slave: search the most urgent leaf here. */
                request *q = &m.req[0];
                gts_move path[GTS_MAX_PLY];
                int plen = path_of(&m, q->node, path);
                leaf_out o;
                search_leaf(R->w, R->engine, R->alg, R->state, path, plen, q->depth, q->alpha,
                            q->beta, leaf_direct(&m.nodes[q->node], 0, q->depth), &o);
                master_work(R, (uint64_t)o.nodes);
                leaf_nodes += (uint64_t)o.nodes;
                own_nodes += (uint64_t)o.nodes;
                tally(&m, q->node, &o);
                leaf_result(&m, q->node, q->depth, &o, s);
            } else {
                master_dispatch(R, &m, slots, &seq);
                master_ahead(R, &m, slots, &seq, ahead, depth_max - depth);
                if (m.race)
                    master_race(R, &m, slots, &seq);
                if (!any_busy(slots, R->size)) {
                    fail(&m, GTS_ENOMEM, 0); /* a request could not be recorded */
                    break;
                }
                /* Step 3. Wait for one result, take all that arrived. */
                uint64_t t0 = master_now(R);
                int nneed = master_needed(R, &m, slots, m.needed);
                int idle = 0; /* no slave gets work during the wait */
                for (int r = 1; r < R->size; r++)
                    idle += !slots[r].seq;
                master_receive(R, &m, slots, RECV_WAIT, s, &leaf_nodes);
                master_charge(&m, m.needed, nneed, master_now(R) - t0);
                m.iter_idle += (uint64_t)idle * (master_now(R) - t0);
                while (master_receive(R, &m, slots, RECV_POLL, s, &leaf_nodes))
                    ;
            }
            if (m.status != GTS_OK)
                break;
            if (stop_requested(R)) {
                res->flags |= GTS_RESULT_STOPPED;
                stop = true;
                break;
            }
            uint64_t total = m.tree_nodes + leaf_nodes;
            if (R->lim.nodes && total >= R->lim.nodes) {
                res->flags |= GTS_RESULT_NODE_LIMIT;
                stop = true;
                break;
            }
            if (R->lim.time_ms && gts__mpi_now_us() - R->start_us >= R->lim.time_ms * 1000u) {
                res->flags |= GTS_RESULT_TIME_LIMIT;
                stop = true;
                break;
            }
        }
        if (stop || m.status != GTS_OK)
            break;
        /* Step 4. A complete iteration: its result; the work still in
         * flight is cancelled, except searches ahead of this iteration
         * (work_ahead), which go on for the next ones. */
        master_fill(&m, R, depth, v, res);
        m.root_par[depth & 1] = v;
        m.root_par_depth[depth & 1] = depth;
        m.iter_time = master_now(R) - m.iter_start;
        s->last_iteration_time = m.iter_time;
        s->last_iteration_idle = m.iter_idle;
        s->leaves = 0;
        for (int32_t i = 0; i < m.nnodes; i++)
            s->leaves += m.nodes[i].count == 0 && !m.nodes[i].terminal;
        if (ahead > 0)
            master_cancel_behind(R, &m, slots);
        else
            master_drain(R, &m, slots, s, &leaf_nodes);
        if (R->lim.on_iteration) {
            res->nodes = m.tree_nodes + leaf_nodes;
            res->time_us = gts__mpi_now_us() - R->start_us;
            if (R->lim.on_iteration(res, R->lim.on_iteration_user) != 0) {
                res->flags |= GTS_RESULT_STOPPED;
                break;
            }
        }
    }
    if (m.nodes && m.nodes[0].terminal) {
        res->score = m.nodes[0].term;
        res->flags &= ~(uint32_t)GTS_RESULT_HAS_MOVE;
    }
    /* Step 5. Cancel and drain, then tell every rank how it ended. */
    if (slots)
        master_drain(R, &m, slots, s, &leaf_nodes);
    s->splits = m.splits;
    s->narrow_ahead = m.narrow_sent;
    s->ahead_moved = m.ahead_moved;
    s->ahead_unread_nodes = m.unread_lost;
    for (int32_t i = 0; i < m.nnodes; i++)
        for (int j = 0; j < TAB_SLOTS; j++)
            s->ahead_unread_nodes += m.nodes[i].tab[j].unread;
    s->races = m.races;
    s->races_won = m.races_won;
    s->master_max_ply = m.max_ply > plies ? m.max_ply : plies;
    R->my_nodes = m.tree_nodes + own_nodes;
    res->tt_probes = m.tt_probes;
    res->tt_hits = m.tt_hits;
    res->tt_cutoffs = m.tt_cutoffs;
    res->seldepth = m.seldepth > res->depth ? m.seldepth : res->depth;
    int64_t done[DONE_HDR + GTS_MAX_PLY];
    done[0] = m.status;
    done[1] = res->score;
    done[2] = (int64_t)res->best_move;
    done[3] = res->flags;
    done[4] = res->depth;
    done[5] = m.callback_status;
    done[6] = res->pv_length;
    done[7] = 0;
    for (uint32_t i = 0; i < res->pv_length; i++)
        done[DONE_HDR + i] = (int64_t)res->pv[i];
    net_done(R, done, DONE_HDR + (int)res->pv_length);
    res->callback_status = m.callback_status;
    free(slots);
    free(m.needed);
    free(m.nodes);
    free(m.kids);
    free(m.req);
    free(m.picks);
    return m.status;
}

/* A slave: tell the master, once, that this rank's user stopped it. */
static void slave_report_stop(run *R)
{
    if (R->stop_sent || !gts__engine_watch_stopped(R->engine))
        return;
    int64_t word = R->rank;
    send_words(R->comm, &word, 1, 0, TAG_STOP, &R->messages);
    R->stop_sent = true;
}

static gts_status slave_run(run *R, gts_result *res)
{
    int64_t buf[MSG_MAX];
    for (;;) {
        long ns = POLL_MIN_NS;
        MPI_Status st;
        int flag = 0;
        for (;;) {
            slave_report_stop(R);
            MPI_Iprobe(0, MPI_ANY_TAG, R->comm, &flag, &st);
            if (flag)
                break;
            nap(&ns);
        }
        int count = 0;
        MPI_Recv(buf, MSG_MAX, MPI_INT64_T, 0, st.MPI_TAG, R->comm, &st);
        MPI_Get_count(&st, MPI_INT64_T, &count);
        if (st.MPI_TAG == TAG_CANCEL)
            continue; /* for a search that had already ended */
        if (st.MPI_TAG == TAG_DONE) {
            res->score = (gts_score)buf[1];
            res->best_move = (gts_move)buf[2];
            res->flags = (uint32_t)buf[3];
            res->depth = (int32_t)buf[4];
            res->callback_status = (int32_t)buf[5];
            int64_t pl = buf[6];
            if (pl < 0 || pl > GTS_MAX_PLY || DONE_HDR + pl > count)
                pl = 0;
            res->pv_length = (uint32_t)pl;
            for (int64_t i = 0; i < pl; i++)
                res->pv[i] = (gts_move)buf[DONE_HDR + i];
            return (gts_status)buf[0];
        }
        /* TAG_WORK */
        leaf_out o;
        int64_t out[MSG_MAX];
        int n = serve_work(R->w, R->engine, R->alg, R->state, buf, count, out, &o);
        R->my_nodes += (uint64_t)o.nodes;
        slave_report_stop(R); /* before the result: it explains a stopped one */
        send_words(R->comm, out, n, 0, TAG_RESULT, &R->messages);
    }
}

/* ---- gts_mpi_search ------------------------------------------------------------ */

/* gts_mpi_options and gts_mpi_stats, described for struct_internal.h (every
 * field: a struct_size must end at a field boundary). */
static const gts__field MPI_OPTIONS_FIELDS[] = {
    GTS__FIELD(gts_mpi_options, struct_size),     GTS__FIELD(gts_mpi_options, algorithm),
    GTS__FIELD(gts_mpi_options, master_plies),    GTS__FIELD(gts_mpi_options, virtual_latency),
    GTS__FIELD(gts_mpi_options, work_ahead),      GTS__FIELD(gts_mpi_options, split),
    GTS__FIELD(gts_mpi_options, race),            GTS__FIELD(gts_mpi_options, narrow),
};
static const gts__struct_desc MPI_OPTIONS =
    GTS__STRUCT_DESC(gts_mpi_options, GTS_MPI_OPTIONS_SIZE_V0_2, MPI_OPTIONS_FIELDS);
static const gts__field MPI_STATS_FIELDS[] = {
    GTS__FIELD(gts_mpi_stats, struct_size),     GTS__FIELD(gts_mpi_stats, ranks),
    GTS__FIELD(gts_mpi_stats, leaves),          GTS__FIELD(gts_mpi_stats, passes),
    GTS__FIELD(gts_mpi_stats, leaf_searches),   GTS__FIELD(gts_mpi_stats, leaf_researches),
    GTS__FIELD(gts_mpi_stats, cancelled),       GTS__FIELD(gts_mpi_stats, messages),
    GTS__FIELD(gts_mpi_stats, nodes),           GTS__FIELD(gts_mpi_stats, rank_nodes),
    GTS__FIELD(gts_mpi_stats, rank_nodes_capacity), GTS__FIELD(gts_mpi_stats, cancelled_nodes),
    GTS__FIELD(gts_mpi_stats, virtual_time),    GTS__FIELD(gts_mpi_stats, master_time),
    GTS__FIELD(gts_mpi_stats, busy_time),       GTS__FIELD(gts_mpi_stats, ahead_nodes),
    GTS__FIELD(gts_mpi_stats, splits),          GTS__FIELD(gts_mpi_stats, master_max_ply),
    GTS__FIELD(gts_mpi_stats, races),           GTS__FIELD(gts_mpi_stats, races_won),
    GTS__FIELD(gts_mpi_stats, narrow_ahead),    GTS__FIELD(gts_mpi_stats, ahead_moved),
    GTS__FIELD(gts_mpi_stats, ahead_moved_nodes), GTS__FIELD(gts_mpi_stats, ahead_unread_nodes),
    GTS__FIELD(gts_mpi_stats, last_iteration_time), GTS__FIELD(gts_mpi_stats, last_iteration_idle),
};
static const gts__struct_desc MPI_STATS =
    GTS__STRUCT_DESC(gts_mpi_stats, GTS_MPI_STATS_SIZE_V0_2, MPI_STATS_FIELDS);

/* A gts_mpi_stats layout this library knows. */
static bool stats_size_ok(const gts_mpi_stats *stats)
{
    size_t n;
    return gts__struct_check(&MPI_STATS, stats, &n, NULL) == GTS_OK;
}

/* The statistics @p S start empty, with the caller's rank_nodes inputs. */
static void stats_in(gts_mpi_stats *S, const gts_mpi_stats *stats)
{
    memset(S, 0, sizeof *S);
    S->struct_size = sizeof *S;
    if (stats && stats_size_ok(stats)) {
        S->rank_nodes = stats->rank_nodes;
        S->rank_nodes_capacity = stats->rank_nodes_capacity;
    }
}

/* Give the caller as much of @p S as its layout holds. */
static void stats_out(gts_mpi_stats *stats, gts_mpi_stats *S)
{
    size_t n;
    if (stats && gts__struct_check(&MPI_STATS, stats, &n, NULL) == GTS_OK)
        gts__struct_out(stats, S, n);
}

/* Check this rank's arguments. */
static gts_status check_args(gts_engine *engine, const gts_game *game, void *state,
                             const gts_limits *limits, const gts_mpi_options *options,
                             gts_result *result, wrap *w, gts_limits *lim, gts_mpi_options *opt,
                             gts_mpi_stats *stats)
{
    if (!engine || !game || !state || !result)
        return GTS_EINVAL;
    /* Which struct is at fault goes to gts_engine_last_error(). */
    const char *why = NULL;
    size_t n;
    gts_status rc = gts__struct_check(gts__desc_result(), result, &n, &why);
    if (rc == GTS_OK && stats)
        rc = gts__struct_check(&MPI_STATS, stats, &n, &why);
    memset(&w->orig, 0, sizeof w->orig);
    if (rc == GTS_OK)
        rc = gts__struct_in(gts__desc_game(), &w->orig, game, &why);
    memset(lim, 0, sizeof *lim);
    lim->struct_size = sizeof *lim;
    if (rc == GTS_OK && limits)
        rc = gts__struct_in(gts__desc_limits(), lim, limits, &why);
    memset(opt, 0, sizeof *opt);
    opt->struct_size = sizeof *opt;
    if (rc == GTS_OK && options)
        rc = gts__struct_in(&MPI_OPTIONS, opt, options, &why);
    gts__engine_note_error(engine, why);
    if (rc != GTS_OK)
        return rc;
    if (!w->orig.generate || !w->orig.apply || !w->orig.undo || !w->orig.evaluate)
        return GTS_EINVAL;
    if (w->orig.max_moves == 0 || w->orig.max_moves > MAX_MOVES_LIMIT)
        return GTS_ERANGE;
    if (lim->depth == 0)
        lim->depth = GTS_MAX_DEPTH;
    if (lim->depth < 0 || lim->depth > GTS_MAX_DEPTH)
        return GTS_ERANGE;
    if (lim->alpha == 0 && lim->beta == 0) {
        lim->alpha = -GTS_SCORE_INF;
        lim->beta = GTS_SCORE_INF;
    } else if (lim->alpha < -GTS_SCORE_INF || lim->beta > GTS_SCORE_INF) {
        return GTS_ERANGE;
    } else if (lim->alpha >= lim->beta) {
        return GTS_EINVAL;
    }
    if (opt->algorithm == 0)
        opt->algorithm = DEFAULT_ALGORITHM;
    if (!gts_algorithm_name(opt->algorithm))
        return GTS_EALGORITHM;
    if (!gts_algorithm_is_exact(opt->algorithm))
        return GTS_EINVAL;
    if (opt->master_plies == 0)
        opt->master_plies = DEFAULT_MASTER_PLIES;
    if (opt->master_plies < 0 || opt->master_plies > MAX_MASTER_PLIES)
        return GTS_ERANGE;
    if (opt->virtual_latency < 0 || opt->virtual_latency > GTS_MPI_MAX_VIRTUAL_LATENCY)
        return GTS_ERANGE;
    if (opt->work_ahead < -1 || opt->work_ahead > GTS_MPI_MAX_WORK_AHEAD)
        return GTS_ERANGE;
    if (opt->split < -1 || opt->split > 1)
        return GTS_ERANGE;
    if (opt->race < -1 || opt->race > 1)
        return GTS_ERANGE;
    if (opt->narrow < -1 || opt->narrow > 1)
        return GTS_ERANGE;
    return GTS_OK;
}

/* A key of the root that every rank must share: the game's hash when it
 * has one, else its static evaluation, mixed with the root's moves in
 * generate() order (FNV-1a). A failing callback: its status. */
static gts_status root_key(const gts_game *g, void *state, uint64_t *key)
{
    gts_move *moves = malloc(g->max_moves * sizeof *moves);
    if (!moves)
        return GTS_ENOMEM;
    int n = g->generate(state, moves, g->max_moves, g->user);
    if (n < 0 || (uint32_t)n > g->max_moves) {
        free(moves);
        return GTS_ECALLBACK;
    }
    uint64_t h = gts__mpi_key_moves(GTS__MPI_KEY_SEED, moves, n);
    free(moves);
    *key = gts__mpi_key_mix(h, g->hash ? g->hash(state, g->user)
                                       : (uint64_t)(int64_t)g->evaluate(state, g->user));
    return GTS_OK;
}

gts_status gts_mpi_search(MPI_Comm comm, gts_engine *engine, const gts_game *game, void *state,
                          const gts_limits *limits, const gts_mpi_options *options,
                          gts_result *result, gts_mpi_stats *stats)
{
    /* Step 1. Without a communicator the ranks cannot agree: fail alone. */
    gts_status usable = gts__mpi_usable(comm);
    if (usable != GTS_OK)
        return usable;

    run R;
    memset(&R, 0, sizeof R);
    R.start_us = gts__mpi_now_us();
    wrap *w = calloc(1, sizeof *w);
    gts_mpi_options opt;
    gts_status st = w ? check_args(engine, game, state, limits, options, result, w, &R.lim, &opt,
                                   stats)
                      : GTS_ENOMEM;
    /* From here a gts_engine_stop() on this rank's engine is not lost, even
     * between leaf searches (EBUSY: the engine is in another such search). */
    bool watching = false;
    if (st == GTS_OK) {
        st = gts__engine_watch_begin(engine);
        watching = st == GTS_OK;
    }
    gts_mpi_stats S;
    stats_in(&S, stats);
    gts_result res;
    memset(&res, 0, sizeof res);
    res.struct_size = sizeof res;

    /* Step 2. Agree on the arguments (and on the root, when it has a key). */
    MPI_Comm_dup(comm, &R.comm);
    MPI_Comm_rank(R.comm, &R.rank);
    MPI_Comm_size(R.comm, &R.size);
    /* Rank 0's tables of the end (step 4), allocated before the agreement
     * so that no rank is left alone in a collective. */
    uint64_t *all = NULL;
    if (st == GTS_OK && R.rank == 0) {
        all = calloc((size_t)R.size * 3, sizeof *all);
        R.stop_from = calloc((size_t)R.size, 1);
        if (!all || !R.stop_from)
            st = GTS_ENOMEM;
    }
    uint64_t key[2] = { 0, 0 };
    if (st == GTS_OK) {
        gts_status kst = root_key(&w->orig, state, &key[0]);
        if (kst != GTS_OK)
            st = kst;
        key[1] = ~key[0];
    }
    uint64_t key_max[2];
    MPI_Allreduce(key, key_max, 2, MPI_UINT64_T, MPI_MAX, R.comm);
    if (st == GTS_OK && (key_max[0] != key[0] || key_max[1] != key[1]))
        st = GTS_EINVAL; /* the ranks do not hold the same root */
    int mine = st, worst = 0;
    MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MIN, R.comm);
    if (worst < 0 && st == GTS_OK)
        st = (gts_status)worst;

    if (st == GTS_OK) {
        R.engine = engine;
        R.alg = opt.algorithm;
        R.state = state;
        R.w = w;
        w->engine = engine;
        w->comm = R.comm;
        w->poll = R.rank != 0;
        wrap_init(w);
        /* Step 3. The search. */
        st = R.rank == 0 ? master_run(&R, &opt, &res, &S) : slave_run(&R, &res);
    }

    /* Step 4. Totals on rank 0, and the TAG_STOPs that crossed its DONE
     * (sent before the slave's gather, so this receive cannot block). */
    if (worst == 0) {
        uint64_t mineinfo[3] = { R.my_nodes, R.messages, R.stop_sent };
        uint64_t dummy[3];
        MPI_Gather(mineinfo, 3, MPI_UINT64_T, R.rank == 0 ? all : dummy, 3, MPI_UINT64_T, 0,
                   R.comm);
        uint64_t nodes = R.my_nodes;
        if (R.rank == 0) {
            nodes = 0;
            uint64_t msgs = 0;
            for (int r = 0; r < R.size; r++) {
                nodes += all[3 * r];
                msgs += all[3 * r + 1];
                if (S.rank_nodes && (uint32_t)r < S.rank_nodes_capacity)
                    S.rank_nodes[r] = all[3 * r];
                if (r > 0 && all[3 * r + 2] && !R.stop_from[r]) {
                    int64_t word;
                    MPI_Recv(&word, 1, MPI_INT64_T, r, TAG_STOP, R.comm, MPI_STATUS_IGNORE);
                }
            }
            S.messages = msgs;
            S.nodes = nodes;
        }
        res.nodes = nodes;
    }
    free(all);
    free(R.stop_from);
    if (watching)
        gts__engine_watch_end(engine);
    S.ranks = R.size;
    stats_out(stats, &S);
    res.threads = (uint32_t)R.size;
    res.time_us = gts__mpi_now_us() - R.start_us;
    gts__mpi_result_out(result, &res);
    MPI_Comm_free(&R.comm);
    free(w);
    return st;
}

gts_status gts_mpi_search_virtual(int32_t ranks, gts_engine *const *engines,
                                  const gts_game *game, void *state, const gts_limits *limits,
                                  const gts_mpi_options *options, gts_result *result,
                                  gts_mpi_stats *stats)
{
    /* Step 1. The arguments, as gts_mpi_search() checks them, the number of
     * ranks, and one distinct engine per rank. */
    run R;
    memset(&R, 0, sizeof R);
    R.start_us = gts__mpi_now_us();
    vnet v;
    memset(&v, 0, sizeof v);
    wrap *w = calloc(1, sizeof *w);
    gts_mpi_options opt;
    gts_status st = !engines ? GTS_EINVAL
                    : !w     ? GTS_ENOMEM
                             : check_args(engines[0], game, state, limits, options, result, w,
                                          &R.lim, &opt, stats);
    if (st == GTS_OK && (ranks < 1 || ranks > GTS_MPI_MAX_VIRTUAL_RANKS))
        st = GTS_ERANGE;
    if (ranks >= 1 && ranks <= GTS_MPI_MAX_VIRTUAL_RANKS)
        R.size = ranks;
    for (int r = 1; st == GTS_OK && r < ranks; r++) {
        if (!engines[r])
            st = GTS_EINVAL;
        for (int q = 0; st == GTS_OK && q < r; q++)
            if (engines[q] == engines[r])
                st = GTS_EINVAL; /* two ranks cannot share an engine */
    }
    if (st == GTS_OK && !(v.ranks = calloc((size_t)ranks, sizeof *v.ranks)))
        st = GTS_ENOMEM;
    /* Every rank's watch, as every rank of gts_mpi_search() opens its own. */
    int watching = 0;
    for (; st == GTS_OK && watching < ranks; watching++) {
        v.ranks[watching].engine = engines[watching];
        st = gts__engine_watch_begin(engines[watching]);
        if (st != GTS_OK)
            break;
    }
    gts_mpi_stats S;
    stats_in(&S, stats);
    gts_result res;
    memset(&res, 0, sizeof res);
    res.struct_size = sizeof res;

    /* Step 2. The master, with virtual slaves for the other ranks. */
    if (st == GTS_OK) {
        R.comm = MPI_COMM_NULL;
        R.engine = engines[0];
        R.alg = opt.algorithm;
        R.state = state;
        R.w = w;
        R.virt = &v;
        v.latency = (uint64_t)opt.virtual_latency;
        w->engine = engines[0];
        w->comm = MPI_COMM_NULL;
        w->poll = false;
        wrap_init(w);
        st = master_run(&R, &opt, &res, &S);

        /* Step 3. Totals, as the real ranks' gather gives them. */
        uint64_t nodes = R.my_nodes;
        if (S.rank_nodes && S.rank_nodes_capacity > 0)
            S.rank_nodes[0] = R.my_nodes;
        for (int r = 1; r < ranks; r++) {
            nodes += v.ranks[r].nodes;
            S.busy_time += v.ranks[r].busy_time;
            if (S.rank_nodes && (uint32_t)r < S.rank_nodes_capacity)
                S.rank_nodes[r] = v.ranks[r].nodes;
        }
        S.messages = R.messages;
        S.nodes = nodes;
        S.virtual_time = v.clock;
        S.master_time = v.master_time;
        res.nodes = nodes;
    }
    while (watching > 0)
        gts__engine_watch_end(engines[--watching]);
    free(v.ranks);
    S.ranks = R.size;
    stats_out(stats, &S);
    res.threads = (uint32_t)R.size;
    res.time_us = gts__mpi_now_us() - R.start_us;
    gts__mpi_result_out(result, &res);
    free(w);
    return st;
}
