/*
 * mcts.c - Monte-Carlo tree search: UCT (UCB1) with random or policy
 * playouts, a score-bounded solver, progressive bias from the game's move
 * hints, RAVE, tree or root parallelisation, and tree reuse between
 * searches (gts_mcts_advance).
 *
 * What. gts__run_mcts() is the driver's best-first hook (algos.h): it runs
 * instead of iterative deepening once the root has moves. One iteration:
 *   Step 1. Selection: from the root, UCB1 over the children of expanded
 *           nodes (children that cannot reach their parent's proven value
 *           are skipped), applying each chosen move to the worker's state.
 *   Step 2. Leaf: at a node never expanded, generate() its moves; a finished
 *           game or a node at the horizon (limits.depth) is exact; else its
 *           children are created (if the memory budget allows) and one
 *           playout runs from it (the game's playout_move() or uniformly
 *           random moves; own move stack, undone). Each playout move is
 *           checked against generate(), which also sees the game end;
 *           a game with GTS_TRAIT_TRUSTED_PLAYOUT is trusted instead, and
 *           one generate() at the end of the playout tells a finished
 *           game from a capped one (mc_playout_trusted).
 *   Step 3. Backpropagation: the reward (1 / 0.5 / 0 for a finished game,
 *           a logistic of evaluate() for a capped one, from the side to
 *           move at the playout's start) is added to every node of the
 *           path from the side that moved into it; with RAVE, the AMAF
 *           statistics of the path nodes' children too (mc_amaf); when a
 *           node's proven range changed, its parent's is recomputed.
 *   Step 4. Undo every move of the path.
 * The search ends when the root is proven, at the playout budget, or at a
 * limit or stop of the shared block (node.h); then the result, the root
 * statistics (gts_mcts_root_stats) are filled and the tree is kept in the
 * engine for gts_mcts_advance() (GTS_OPT_MCTS_REUSE) or freed. A search
 * starts from a kept tree when an advance marked it and its root matches
 * (mc_adopt; see "the kept tree" below).
 *
 * With a batch evaluator (gts_engine_set_evaluator; mcts_eval.h holds the
 * batch, this file the tree side): Step 1 is PUCT, Step 2 queues the leaf
 * (claimed LEAF -> EXPANDING, the state left on a batch slot's copy) in
 * place of the playout, and Steps 3-4 wait until the batch is full: one
 * evaluator call, then each leaf is expanded with its priors (mc_fill),
 * backed up (mc_backup) and its path undone (mc_work_eval, mc_complete).
 * A stop or a failure unqueues every leaf (mc_unqueue).
 *
 * Solver (Cazenave & Saffidine's score-bounded MCTS). Every node holds a
 * proven range [lower, upper] of its depth-limited negamax value, root-
 * relative like every score inside the library. It starts at mate distance
 * [LOSS + ply, WIN - ply], is narrowed by the game's bounds() at expansion,
 * is exact at finished games and at the horizon, and an expanded node's
 * range is (max over children of -upper, max over children of -lower).
 * Ranges only ever narrow (monotone CAS updates), and each one is sound at
 * every moment because it is computed from sound ranges, so concurrent
 * updates in any order keep them sound. Selection skips proven children
 * and those whose optimistic value (-lower) is below the parent's
 * pessimistic one: they can no longer change the parent's range, and the
 * visits go where proofs are missing (MCTS-Solver's rule; keeping proven
 * children selectable starved their unproven siblings and a 60-ply chain
 * took millions of playouts to prove). The choice of the move to play
 * compares proven values with estimates instead (mc_choose).
 *
 * Concurrency contract. Serial: everything on the calling thread. Tree
 * parallelisation: every pool worker runs iterations on its own state copy
 * over one shared tree. Node statistics (visits, virtual losses, reward
 * sum, range) are only accessed through atomic_internal.h. A node is
 * expanded by whoever wins the CAS of its state word from LEAF to
 * EXPANDING: it fills the children (plain writes) and publishes them with a
 * release store of EXPANDED; readers load the state with acquire before
 * they look at children/n, which never change afterwards. A failed
 * allocation stores LEAF back. Tree memory is the best-first module's
 * pinned store (bestfirst.h): per-worker blocks (owner only), charged to
 * one shared byte counter against the budget.
 * Root parallelisation: one tree per worker, same code; only the budget
 * counters are shared. Between batches of playouts (and after the last)
 * no worker runs: the pool run's end orders every write before the
 * driver thread reads the tree.
 *
 * Invariants:
 *  - every successful apply is undone exactly once before the iteration
 *    returns; a failed apply is never undone (node.h);
 *  - an iteration that is aborted (stop, limit, failure) changes no
 *    statistic but the virtual losses it removes again;
 *  - root visits == sum of the root children's visits == playouts done.
 */
#include "search/algos.h"
#include "search/bestfirst.h"
#include "search/mcts_eval.h"
#include "rng_internal.h"
#include "struct_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Fixed-point unit of one reward in a node's sum (2^20: 2^32 visits still
 * fit in 52 bits, so the sum converts to a double exactly). */
static const double MC_ONE = 1048576.0;
/* Tree memory is taken from the budget in blocks of this size (the pinned
 * store's standard block, bestfirst.h). */
static const size_t MC_CHUNK = (size_t)64 << 10;
/* Playouts before the first progress report; doubled after each one. */
static const uint64_t MC_FIRST_BATCH = 1024;
/* Selection value of a child never visited: before any visited one (a
 * visited child's value stays below 1 + 100 * sqrt(ln 2^64) + 1000; small
 * enough that a prior in [0, 1] added to it still orders the unvisited). */
static const double MC_UNVISITED = 1e9;
/* Bytes before every children array: the hash of their parent's position
 * (tree reuse), and padding. */
enum { MC_HEAD = 16 };
/* Slots of a worker's move-index table for AMAF (> 2 * GTS_MAX_PLY, a
 * power of two). */
enum { MC_SEEN = 512 };
/* Mean rewards are kept this far from 0 and 1 before the inverse logistic. */
static const double MC_MEAN_EPS = 1e-9;

/* Node state word: expansion state in the low bits, flags above. */
enum {
    MC_LEAF = 0,      /* no children (yet) */
    MC_EXPANDING = 1, /* a worker is creating the children */
    MC_EXPANDED = 2,  /* children and n are valid and final */
    MC_STATE = 3,
    MC_TERMINAL = 4,  /* a finished game (set once, before it is proven) */
};

typedef struct mc_node mc_node;
struct mc_node {
    gts_move move;      /* the move that leads here */
    mc_node *children;  /* [n], valid once state is MC_EXPANDED */
    uint64_t sum;       /* atomic: rewards * MC_ONE, for the side that played move */
    uint64_t visits;    /* atomic: completed playouts through this node */
    uint32_t vloss;     /* atomic: workers exploring below it right now */
    int32_t lower;      /* atomic: proven range of the value, from the side */
    int32_t upper;      /*         to move here, root-relative */
    uint32_t state;     /* atomic: MC_LEAF / MC_EXPANDING / MC_EXPANDED | flags */
    uint32_t n;         /* children */
    float prior;        /* in [0, 1] from the move's rank (0: no priors) */
    uint64_t amaf_sum;  /* relaxed, lossy adds: AMAF rewards * MC_ONE (RAVE), for the side */
    uint64_t amaf_visits; /* relaxed, lossy adds: simulations that played move later */
};
_Static_assert(sizeof(mc_node) == 72, "mc_node: 72 bytes");
_Static_assert(MC_HEAD % _Alignof(mc_node) == 0, "children stay aligned");

typedef struct mc_search mc_search;

/* One worker: its context and state copy, random stream, scratch, arena. */
typedef struct mc_worker {
    mc_search *m;
    gts__ctx *c;
    mc_node *root;          /* the shared root, or its own (root mode) */
    uint64_t rng;
    gts_move *buf;          /* [max_moves]: generate() output */
    int32_t *keys;          /* [max_moves]: move hints (priors only) */
    uint64_t *order;        /* [max_moves]: rank sort (priors only) */
    gts_move *line;         /* [playout_depth]: the playout's moves */
    uint32_t line_cap;
    uint32_t line_len;      /* moves of the last playout (AMAF) */
    mc_node *path[GTS_MAX_PLY + 1];
    /* AMAF: move -> first index in the simulation, valid when stamp matches */
    uint32_t stamp;
    uint32_t seen_stamp[MC_SEEN];
    uint16_t seen_at[MC_SEEN];
    gts_move seen_move[MC_SEEN];
    gts__bf_cursor mem;     /* its tree memory (pinned store) */
    /* PUCT with an evaluator (mcts_eval.h): pending leaves, and what the
     * last iteration's leaf did */
    gts__ev_batch ev;
    bool pending;           /* queued for the evaluator (state left there) */
    bool collided;          /* reached a leaf another descent had queued */
    bool coll_kept;         /* ... and its virtual losses stay (w->ev.cpaths) */
} __attribute__((aligned(GTS__CACHELINE))) mc_worker;

struct mc_search {
    gts__run *run;
    const gts_game *game;
    int threads;
    bool root_mode;         /* one tree per worker */
    bool use_vloss;         /* tree parallelisation with 2+ workers */
    bool use_prior;
    bool rave;              /* RAVE: k > 0 and a game with move identity */
    bool hashed;            /* children arrays record their parent's hash */
    bool policy;            /* the game's playout_move() */
    bool trusted;           /* ... played without generate() (GTS_TRAIT_TRUSTED_PLAYOUT) */
    bool adopted;           /* it continues a kept tree (GTS_RESULT_TREE_REUSED) */
    bool horizon_active;    /* limits.depth < GTS_MAX_DEPTH */
    int horizon;            /* tree nodes at this ply are leaves */
    int playout_horizon;    /* playouts stop at this ply: limits.depth or GTS_MAX_PLY */
    uint32_t playout_depth;
    uint32_t vl;            /* virtual losses per visit */
    double c, scale, inv_scale, prior_w;
    double rave_k;          /* RAVE equivalence parameter */
    const gts_evaluator *ev; /* PUCT with a batch evaluator; NULL: UCB1 + playouts */
    uint32_t batch;         /* leaves per evaluator call */
    double cpuct, fpu, noise_alpha, noise_frac, temperature;
    uint64_t budget;        /* playouts; UINT64_MAX: none */
    uint64_t mem_limit;     /* bytes of tree */
    uint64_t batch_end;     /* written between batches only */
    uint32_t nroot;         /* root moves */
    mc_node *roots;         /* [nroots] */
    int nroots;
    mc_node *merged;        /* [nroot]: root children summed over the trees */
    mc_worker *w;           /* [threads] */
    gts__task *tasks;       /* [threads] */
    /* the tree memory's budget and spare blocks (bestfirst.h) */
    gts__bf_pins pins;
    /* written by the workers during a batch: atomics only */
    _Alignas(GTS__CACHELINE) uint64_t claimed;
    _Alignas(GTS__CACHELINE) uint64_t completed;
    uint32_t done;          /* a root is proven */
    uint32_t full;          /* the tree budget ran out */
};

/* ---- atomics on node fields -------------------------------------------- */

static inline int32_t ld_i32(const int32_t *p)
{
    return (int32_t)gts__atomic_load_relaxed_32((const uint32_t *)p);
}

/* Raise *p to @v; true when it changed. */
static bool raise_i32(int32_t *p, int32_t v)
{
    for (int32_t cur = ld_i32(p); v > cur; cur = ld_i32(p))
        if (gts__atomic_cas_32((uint32_t *)p, (uint32_t)cur, (uint32_t)v))
            return true;
    return false;
}

/* Lower *p to @v; true when it changed. */
static bool drop_i32(int32_t *p, int32_t v)
{
    for (int32_t cur = ld_i32(p); v < cur; cur = ld_i32(p))
        if (gts__atomic_cas_32((uint32_t *)p, (uint32_t)cur, (uint32_t)v))
            return true;
    return false;
}

static inline bool mc_proven(const mc_node *n)
{
    return ld_i32(&n->lower) >= ld_i32(&n->upper);
}

static inline uint32_t mc_state(const mc_node *n)
{
    return gts__atomic_load_acquire_32(&n->state);
}

/* ---- random numbers (rng_internal.h: one stream per worker) ---------------- */

static inline uint32_t mc_below(mc_worker *w, uint32_t n)
{
    return (uint32_t)(((gts__rng_next(&w->rng) >> 32) * (uint64_t)n) >> 32);
}

/* ---- rewards and scores ------------------------------------------------------ */

static inline double mc_sign(gts_score v)
{
    return v > 0 ? 1.0 : v < 0 ? 0.0 : 0.5;
}

static inline bool mc_decided(gts_score v)
{
    return v >= GTS_SCORE_DECIDED || v <= -GTS_SCORE_DECIDED;
}

/* A heuristic value (a capped playout, a horizon node). */
static double mc_heuristic(const mc_search *m, gts_score v)
{
    if (mc_decided(v))
        return mc_sign(v);
    return 1.0 / (1.0 + exp(-(double)v * m->inv_scale));
}

/* The reward of a proven value: a game result when it comes from finished
 * games only (a terminal node, or no horizon), else a heuristic one. */
static double mc_proven_reward(const mc_search *m, gts_score v, bool terminal)
{
    if (terminal || !m->horizon_active)
        return mc_sign(v);
    return mc_heuristic(m, v);
}

/* Inverse logistic of a mean reward, inside the ordinary score range. */
static gts_score mc_to_score(const mc_search *m, double mean)
{
    if (mean < MC_MEAN_EPS)
        mean = MC_MEAN_EPS;
    if (mean > 1.0 - MC_MEAN_EPS)
        mean = 1.0 - MC_MEAN_EPS;
    double s = m->scale * log(mean / (1.0 - mean));
    double lim = GTS_SCORE_DECIDED - 1;
    if (s > lim)
        s = lim;
    if (s < -lim)
        s = -lim;
    return (gts_score)lround(s);
}

static inline gts_score clamp_score(gts_score s, gts_score lo, gts_score hi)
{
    if (s > hi)
        s = hi;
    if (s < lo)
        s = lo;
    return s;
}

/* ---- tree memory -------------------------------------------------------------- */

/* The hash of the position whose children start at @ch (see MC_HEAD). */
static inline uint64_t *mc_head_hash(mc_node *ch)
{
    return (uint64_t *)(void *)((unsigned char *)ch - MC_HEAD);
}

/* @n nodes (after an MC_HEAD header) from the worker's blocks, or NULL:
 * when the budget says no, the tree is full for everyone (the search goes
 * on); when the allocator says no, GTS_ENOMEM is recorded (the search
 * unwinds, as everywhere). */
static mc_node *mc_alloc(mc_worker *w, uint32_t n)
{
    unsigned char *p = gts__bf_pin_take(&w->m->pins, &w->mem,
                                        MC_HEAD + (size_t)n * sizeof(mc_node), w->c);
    return p ? (mc_node *)(void *)(p + MC_HEAD) : NULL;
}

/* ---- the kept tree (tree reuse) ------------------------------------------------- */

/*
 * After a search (GTS_OPT_MCTS_REUSE), the engine keeps its tree(s): every
 * block, the root nodes, and whether a gts_mcts_advance() since allows the
 * next search to adopt it. gts_mcts_advance() with moves copies the
 * subtree of the position reached into other blocks (so the memory of the
 * discarded siblings is free at once, for the spare list, and the kept
 * bytes are what the next search is charged), shifting decided scores to
 * the new root's distance. The next search adopts a tree whose root
 * matches its own (same generate(), the same moves in the same order, the
 * same hash() when the game has one, no depth limit on either search, room
 * in the budget); otherwise it frees it and starts fresh. No worker runs
 * while the kept tree is touched: the engine is claimed or the search is
 * between its set-up and its batches.
 */
struct gts__mcts_kept {
    gts__bf_blocks tree;    /* every node of the trees; its bytes are charged
                             * to the next search's budget */
    mc_node *roots;         /* [roots_cap], from the engine's allocator */
    int nroots, roots_cap;  /* roots in use, allocated */
    bool advanced;          /* gts_mcts_advance() since the search */
    bool hashed;            /* children arrays hold their parent's hash() */
    int (*generate)(void *, gts_move *, uint32_t, void *);
};
typedef struct gts__mcts_kept mc_kept;

/*
 * MCTS's state on the engine (gts__mcts_state, an opaque slot of the
 * engine: engine_internal.h), made by the first MCTS search: the kept tree,
 * the spare blocks and the root statistics of the last search.
 */
typedef struct mc_engine_state {
    /* Root statistics of the last MCTS search (gts_mcts_root_stats), in
     * the library's layout; only while stats_search is the engine's last
     * search (gts_engine::searches). */
    gts_mcts_move_stats *stats;
    uint32_t nstats, stats_cap;
    uint64_t stats_search;
    /* The tree of the last search, kept for gts_mcts_advance() (NULL: none). */
    mc_kept *kept;
    /* Tree memory between searches, for the next one (spare blocks). */
    gts__bf_blocks spare;
} mc_engine_state;

/* The engine's MCTS state, NULL before the first MCTS search. */
static mc_engine_state *mc_st(const gts_engine *e)
{
    return gts__engine_state(e, &gts__mcts_state);
}

/* MCTS's options (registry.c). */
const gts__opt_row gts__mcts_options[] = {
    { GTS_OPT_MCTS_EXPLORATION, "mcts_exploration", 0, 10000, 141 },
    { GTS_OPT_MCTS_PLAYOUTS, "mcts_playouts", 0, (int64_t)1 << 62, 0 },
    { GTS_OPT_MCTS_PLAYOUT_DEPTH, "mcts_playout_depth", 0, GTS_MAX_PLY, GTS_MAX_PLY },
    { GTS_OPT_MCTS_EVAL_SCALE, "mcts_eval_scale", 1, GTS_SCORE_WIN, 200 },
    GTS__OPT_ROW_TREE_MB,
    { GTS_OPT_MCTS_SEED, "mcts_seed", 0, (int64_t)1 << 62, 0 },
    { GTS_OPT_MCTS_PARALLEL, "mcts_parallel", GTS_MCTS_TREE, GTS_MCTS_ROOT, GTS_MCTS_TREE },
    { GTS_OPT_MCTS_VIRTUAL_LOSS, "mcts_virtual_loss", 0, 1000, 1 },
    { GTS_OPT_MCTS_PRIOR, "mcts_prior", 0, 100000, 0 },
    { GTS_OPT_MCTS_RAVE, "mcts_rave", 0, (int64_t)1 << 40, 0 },
    { GTS_OPT_MCTS_REUSE, "mcts_reuse", 0, 1, 1 },
    { GTS_OPT_MCTS_CPUCT, "mcts_cpuct", 0, 10000, 125 },
    { GTS_OPT_MCTS_FPU, "mcts_fpu", 0, 100, 0 },
    { GTS_OPT_MCTS_BATCH, "mcts_batch", 1, 1024, 1 },
    { GTS_OPT_MCTS_NOISE_ALPHA, "mcts_noise_alpha", 1, 100000, 300 },
    { GTS_OPT_MCTS_NOISE_FRACTION, "mcts_noise_fraction", 0, 100, 0 },
    { GTS_OPT_MCTS_TEMPERATURE, "mcts_temperature", 0, 10000, 0 },
    GTS__OPT_END,
};

static int64_t mc_opt(const gts_engine *e, gts_option id)
{
    return gts__algo_opt(e, gts__mcts_options, id);
}

/* ---- spare blocks --------------------------------------------------------------- */

/*
 * Tree memory outlives a search. The blocks of a tree the engine does not
 * keep go to its spare list (those of MC_CHUNK bytes, while the spare list
 * and the kept tree together stay within GTS_OPT_TREE_MB; the others are
 * freed), and a search or a tree copy takes its blocks from there before
 * it asks the allocator. Why: freed, the blocks went back to the system
 * (a search of a few seconds builds 100+ MB of tree) and the next search
 * took every page fault again, 7 % of gts-gtp's time (perf). The engine
 * frees them in gts_engine_free(); lowering GTS_OPT_TREE_MB trims them.
 * Only the engine's holder touches the list (between searches, or in a
 * search's set-up and end); during a search it is the search's pinned
 * store's (bestfirst.h), taken under its lock.
 */
static uint64_t mc_spare_cap(const gts_engine *e)
{
    const mc_engine_state *st = mc_st(e);
    uint64_t cap = (uint64_t)mc_opt(e, GTS_OPT_TREE_MB) << 20;
    uint64_t kept = st && st->kept ? st->kept->tree.bytes : 0;
    return kept < cap ? cap - kept : 0;
}

/* Give the blocks of @list to the engine's spare list, or free them. */
static void mc_spare_give(gts_engine *e, gts__bf_block *list)
{
    mc_engine_state *st = mc_st(e);
    gts__bf_spare_give(st ? &st->spare : NULL, list, MC_CHUNK, mc_spare_cap(e), &e->alloc);
}

/* Move the engine's spare blocks to the search's store (no worker runs). */
static void mc_search_take_spare(mc_search *m)
{
    gts__bf_pins_take_spare(&m->pins, &mc_st(m->run->engine)->spare);
}

/* Free spare blocks until the spare list fits under @cap bytes. */
static void mc_spare_trim(gts_engine *e, uint64_t cap)
{
    mc_engine_state *st = mc_st(e);
    gts__bf_spare_trim(st ? &st->spare : NULL, cap, &e->alloc);
}

/* Free @k, no longer the engine's kept tree: its blocks go to the spare
 * list. */
static void mc_kept_free(gts_engine *e, mc_kept *k)
{
    if (!k)
        return;
    mc_spare_give(e, k->tree.head);
    gts__free(&e->alloc, k->roots, (size_t)k->roots_cap * sizeof *k->roots);
    gts__free(&e->alloc, k, sizeof *k);
}

/* Free the kept tree, if any (its blocks become spare ones). */
static void mc_drop(gts_engine *e)
{
    mc_engine_state *st = mc_st(e);
    if (!st)
        return;
    mc_kept *k = st->kept;
    st->kept = NULL;
    mc_kept_free(e, k);
}

/* ---- the state's ops (engine_internal.h gts__state_ops) ------------------------------- */

static void *mc_state_create(gts_engine *e)
{
    return gts__calloc(&e->alloc, 1, sizeof(mc_engine_state));
}

/* gts_engine_clear(): the kept tree goes (its memory stays spare). */
static void mc_state_clear(gts_engine *e, void *state)
{
    (void)state;
    mc_drop(e);
}

/* No tree is kept once reuse is off; the spare memory fits a new budget. */
static void mc_state_option_set(gts_engine *e, void *state, gts_option id, int64_t value)
{
    (void)state;
    if (id == GTS_OPT_MCTS_REUSE && value == 0)
        mc_drop(e);
    if (id == GTS_OPT_TREE_MB)
        mc_spare_trim(e, mc_spare_cap(e));
}

static void mc_state_release(gts_engine *e, void *state)
{
    mc_engine_state *st = state;
    mc_drop(e);
    mc_spare_trim(e, 0);
    gts__free(&e->alloc, st->stats, (size_t)st->stats_cap * sizeof *st->stats);
    gts__free(&e->alloc, st, sizeof *st);
}

const gts__state_ops gts__mcts_state = {
    .create = mc_state_create,
    .clear = mc_state_clear,
    .option_set = mc_state_option_set,
    .release = mc_state_release,
};

/* ---- callbacks ------------------------------------------------------------------ */

/* Moves of the worker's state into w->buf (and hints into w->keys when
 * @keyed); -1 after a failure (recorded). */
static int mc_generate(mc_worker *w, bool keyed)
{
    gts__ctx *c = w->c;
    const gts_game *g = c->game;
    uint32_t cap = g->max_moves;
    int n = keyed && g->generate_keyed
                ? g->generate_keyed(c->state, w->buf, w->keys, cap, c->user)
                : g->generate(c->state, w->buf, cap, c->user);
    if (gts__moves_got(c, n, cap) < 0)
        return -1;
    if (keyed && !g->generate_keyed)
        for (int i = 0; i < n; i++)
            w->keys[i] = g->move_score(c->state, w->buf[i], c->user);
    return n;
}

/* ---- nodes ---------------------------------------------------------------------- */

static int cmp_desc_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Children of a node at @ply from w->buf (and w->keys with @priors). */
static void mc_init_children(mc_worker *w, mc_node *ch, uint32_t n, int ply, bool priors)
{
    int child_ply = ply + 1;
    for (uint32_t i = 0; i < n; i++) {
        memset(&ch[i], 0, sizeof ch[i]);
        ch[i].move = w->buf[i];
        ch[i].lower = GTS_SCORE_LOSS + child_ply;
        ch[i].upper = GTS_SCORE_WIN - child_ply;
        ch[i].state = MC_LEAF;
    }
    if (!priors)
        return;
    /* prior = 1 - rank / n, the best-hinted move 1, equal hints equal. */
    for (uint32_t i = 0; i < n; i++)
        w->order[i] = (uint64_t)((uint32_t)w->keys[i] ^ 0x80000000u) << 32 | i;
    qsort(w->order, n, sizeof w->order[0], cmp_desc_u64);
    uint32_t rank = 0;
    for (uint32_t j = 0; j < n; j++) {
        if (j > 0 && (w->order[j] >> 32) != (w->order[j - 1] >> 32))
            rank = j;
        ch[(uint32_t)w->order[j]].prior = 1.0f - (float)rank / (float)n;
    }
}

/* Recompute @p's range from its children; true when it narrowed. */
static bool mc_update_range(mc_node *p)
{
    if ((mc_state(p) & MC_STATE) != MC_EXPANDED)
        return false;
    const mc_node *ch = p->children;
    int32_t lo = INT32_MIN, hi = INT32_MIN;
    for (uint32_t i = 0; i < p->n; i++) {
        int32_t l = ld_i32(&ch[i].lower), u = ld_i32(&ch[i].upper);
        if (-u > lo)
            lo = -u;
        if (-l > hi)
            hi = -l;
    }
    bool a = raise_i32(&p->lower, lo);
    bool b = drop_i32(&p->upper, hi);
    return a || b;
}

/* A node whose value is known: a finished game or a horizon node. */
static void mc_set_exact(mc_node *node, gts_score v)
{
    gts__atomic_store_relaxed_32((uint32_t *)&node->lower, (uint32_t)v);
    gts__atomic_store_relaxed_32((uint32_t *)&node->upper, (uint32_t)v);
}

/* The children of @node (at @ply, claimed: MC_EXPANDING) from w->buf,
 * with the evaluator's @priors when not NULL; false (the node a leaf
 * again) when the tree is full. */
static bool mc_fill(mc_worker *w, mc_node *node, int ply, uint32_t n, const float *priors)
{
    mc_node *ch = mc_alloc(w, n);
    if (!ch) {
        gts__atomic_store_release_32(&node->state, MC_LEAF);
        return false;
    }
    mc_init_children(w, ch, n, ply, w->m->use_prior);
    for (uint32_t i = 0; priors && i < n; i++)
        ch[i].prior = priors[i];
    *mc_head_hash(ch) = w->m->hashed ? w->c->game->hash(w->c->state, w->c->user) : 0;
    node->children = ch;
    node->n = n;
    gts__atomic_store_release_32(&node->state, MC_EXPANDED);
    return true;
}

/* Create the children of @node (at @ply) from w->buf; true when this
 * worker did. Another worker's expansion or a full tree: false. */
static bool mc_expand(mc_worker *w, mc_node *node, int ply, uint32_t n)
{
    if (!gts__atomic_cas_32(&node->state, MC_LEAF, MC_EXPANDING))
        return false;
    return mc_fill(w, node, ply, n, NULL);
}

/* True when a root's search is over: its value is proven and a child
 * proves it (or every child is proven, whatever the root's range says). */
static bool mc_root_done(const mc_node *root)
{
    int32_t lo = ld_i32(&root->lower);
    if (lo < ld_i32(&root->upper))
        return false;
    bool all = true;
    for (uint32_t i = 0; i < root->n; i++) {
        const mc_node *c = &root->children[i];
        if (-ld_i32(&c->upper) >= lo)
            return true;
        all = all && mc_proven(c);
    }
    return all;
}

/* ---- one iteration ----------------------------------------------------------------- */

/* PUCT's first-play urgency at @p (with an evaluator): the Q of a child
 * never visited, the mean of p from its side to move (p's own statistics,
 * which hold its evaluation and everything below it; at the root, which
 * keeps no sum, its children's; 0.5 before any visit) less m->fpu. */
static double mc_fpu(const mc_worker *w, const mc_node *p)
{
    double pq = 0.5;
    uint64_t pv = gts__atomic_load_relaxed_64(&p->visits);
    if (p == w->root) {
        double csum = 0.0, cvis = 0.0;
        for (uint32_t i = 0; i < p->n; i++) {
            csum += (double)gts__atomic_load_relaxed_64(&p->children[i].sum);
            cvis += (double)gts__atomic_load_relaxed_64(&p->children[i].visits);
        }
        if (cvis > 0.0)
            pq = csum / (MC_ONE * cvis);
    } else if (pv > 0) {
        pq = 1.0 - (double)gts__atomic_load_relaxed_64(&p->sum) / (MC_ONE * (double)pv);
    }
    return pq - w->m->fpu > 0.0 ? pq - w->m->fpu : 0.0;
}

/* Step 1. UCB1 (+ progressive bias) over the children of @p that are not
 * proven and may still reach p's proven value. In an unproven node one
 * always exists; *stale when none seemed to (ranges read while other
 * workers update them, or a root proven by bounds() alone): then every
 * child is a candidate. With an evaluator, PUCT over the same candidates:
 * Q + c * P * sqrt(N) / (1 + n), unvisited children at mc_fpu(). Virtual
 * losses count as visits of reward 0. */
static mc_node *mc_select(mc_worker *w, mc_node *p, bool *stale)
{
    const mc_search *m = w->m;
    mc_node *ch = p->children;
    uint32_t n = p->n;
    int32_t plo = ld_i32(&p->lower);
    double vl = m->vl;
    double np = (double)gts__atomic_load_relaxed_64(&p->visits)
                + vl * gts__atomic_load_relaxed_32(&p->vloss);
    double lnp = 0.0, sq = 0.0, fpu_q = 0.0;
    if (m->ev) {
        sq = sqrt(np > 1.0 ? np : 1.0);
        fpu_q = mc_fpu(w, p);
    } else {
        lnp = log(np > 1.0 ? np : 1.0);
    }
    mc_node *best = NULL;
    for (int pass = 0; pass < 2 && !best; pass++) {
        double bu = -1.0;
        for (uint32_t i = 0; i < n; i++) {
            mc_node *c = &ch[i];
            if (pass == 0 && (-ld_i32(&c->lower) < plo || mc_proven(c)))
                continue;
            double nv = (double)gts__atomic_load_relaxed_64(&c->visits)
                        + vl * gts__atomic_load_relaxed_32(&c->vloss);
            double u;
            if (m->ev) { /* PUCT */
                double q = nv > 0.0 ? (double)gts__atomic_load_relaxed_64(&c->sum) / (MC_ONE * nv)
                                    : fpu_q;
                u = gts__puct(q, c->prior, nv, sq, m->cpuct);
            } else { /* UCB1, RAVE, progressive bias */
                double amaf = 0.0, av = 0.0;
                if (m->rave) {
                    av = (double)gts__atomic_load_relaxed_64(&c->amaf_visits);
                    if (av > 0.0)
                        amaf = (double)gts__atomic_load_relaxed_64(&c->amaf_sum) / (MC_ONE * av);
                }
                if (nv <= 0.0) {
                    u = MC_UNVISITED + c->prior + amaf;
                } else {
                    double q = (double)gts__atomic_load_relaxed_64(&c->sum) / (MC_ONE * nv);
                    if (av > 0.0) { /* RAVE: beta = sqrt(k / (3n + k)) */
                        double beta = sqrt(m->rave_k / (3.0 * nv + m->rave_k));
                        q = (1.0 - beta) * q + beta * amaf;
                    }
                    u = q + m->c * sqrt(lnp / nv);
                    if (m->use_prior)
                        u += m->prior_w * c->prior / (nv + 1.0);
                }
            }
            if (u > bu) {
                bu = u;
                best = c;
            }
        }
        if (!best)
            *stale = true;
    }
    return best;
}

/* The game's playout policy at the worker's state, one step of the
 * worker's generator: playout_move()'s return (> 0 with *mv, 0 to end the
 * playout), or -1 after its failure (recorded). */
static int mc_policy_move(mc_worker *w, gts_move *mv)
{
    gts__ctx *c = w->c;
    int rc = c->game->playout_move(c->state, gts__rng_next(&w->rng), mv, c->user);
    if (rc < 0) {
        gts__fail(c, GTS_ECALLBACK, rc);
        return -1;
    }
    return rc;
}

/* The policy's move checked against the worker's @n moves in w->buf: 1
 * with *mv, 0 to end the playout, -1 after a failure (recorded): the
 * policy failed or chose a move generate() did not list. */
static int mc_policy(mc_worker *w, int n, gts_move *mv)
{
    gts__ctx *c = w->c;
    int rc = mc_policy_move(w, mv);
    if (rc <= 0)
        return rc;
    for (int i = 0; i < n; i++)
        if (w->buf[i] == *mv)
            return 1;
    gts__fail(c, GTS_ECALLBACK, rc); /* not a legal move: the contract is broken */
    return -1;
}

/* The end of a playout of @len moves (in w->line) from @ply: the reward
 * for the side to move at its start from @v, the value where it ended
 * (a game result when @terminal), seldepth and w->line_len, then every
 * move undone. Returns @ok, false when evaluate() failed. */
static bool mc_playout_end(mc_worker *w, int ply, uint32_t len, bool ok, bool terminal,
                           gts_score v, double *reward)
{
    const mc_search *m = w->m;
    gts__ctx *c = w->c;
    if (ok && gts__aborted(c))
        ok = false; /* evaluate() failed */
    if (ok) {
        /* v is from the side to move at the end of the playout: after an
         * odd number of moves, the other side than at its start */
        double x = terminal ? mc_sign(v) : mc_heuristic(m, v);
        *reward = (len & 1) ? 1.0 - x : x;
    }
    int reached = ply + (int)len;
    if (reached > c->seldepth)
        c->seldepth = reached;
    w->line_len = len;
    while (len > 0)
        gts__undo(c, w->line[--len]);
    return ok;
}

/* One playout move: apply @mv, record it in w->line (*len grows), poll the
 * limits. False when the playout must unwind. */
static bool mc_playout_step(mc_worker *w, gts_move mv, uint32_t *len)
{
    if (!gts__apply(w->c, mv))
        return false;
    w->line[(*len)++] = mv;
    return !gts__poll(w->c);
}

/* evaluate() where a playout stopped, @at plies from the root. */
static gts_score mc_evaluate_at(gts__ctx *c, int at)
{
    return gts__evaluate(c, at < GTS_MAX_PLY ? at : GTS_MAX_PLY);
}

/* Step 2b. A playout from the current position (at @ply, its @n moves in
 * w->buf): the game's playout_move() or uniformly random moves, each one
 * checked against generate() and followed by a generate() that sees the
 * game end. Sets *reward for the side to move there and w->line_len;
 * false when the search must unwind (every move it applied is undone). */
static bool mc_playout(mc_worker *w, int ply, int n, double *reward)
{
    const mc_search *m = w->m;
    gts__ctx *c = w->c;
    uint32_t len = 0;
    bool ok = true, terminal = false;
    gts_score v = 0;
    for (;;) {
        bool cut = len >= m->playout_depth || (int64_t)ply + len >= m->playout_horizon;
        gts_move mv = 0;
        if (!cut && m->policy) {
            int rc = mc_policy(w, n, &mv);
            if (rc < 0) {
                ok = false;
                break;
            }
            cut = rc == 0;
        } else if (!cut) {
            mv = w->buf[mc_below(w, (uint32_t)n)];
        }
        if (cut) {
            v = mc_evaluate_at(c, ply + (int)len);
            break;
        }
        if (!mc_playout_step(w, mv, &len)) {
            ok = false;
            break;
        }
        n = mc_generate(w, false);
        if (n < 0) {
            ok = false;
            break;
        }
        if (n == 0) {
            v = mc_evaluate_at(c, ply + (int)len);
            terminal = true;
            break;
        }
    }
    return mc_playout_end(w, ply, len, ok, terminal, v, reward);
}

/*
 * Step 2b, trusted (GTS_TRAIT_TRUSTED_PLAYOUT). The same playout as
 * mc_playout() with a policy, without a generate() between the policy's
 * moves: the policy returns 0 at a finished game, and its moves are legal.
 * Where the playout stops (the policy returned 0, or a cap) one generate()
 * tells a finished game from an unfinished one; none is needed when no
 * move was played (the caller saw moves there).
 *
 * The same playouts as mc_playout(): the same moves are applied, polled
 * and undone in the same order, and the same random numbers are drawn.
 * mc_playout() draws none at a finished game, where this loop has drawn
 * one for the policy's call that saw the end: it is given back, so a
 * seeded 1-thread search makes the same playouts with or without the
 * trait. A lying policy can only make apply() fail (GTS_ECALLBACK, as
 * anywhere) or play on past the end until a cap: never hang or crash.
 */
static bool mc_playout_trusted(mc_worker *w, int ply, double *reward)
{
    const mc_search *m = w->m;
    gts__ctx *c = w->c;
    uint32_t len = 0;
    bool ok = true, ended = false;
    uint64_t rng_before = w->rng;
    while (len < m->playout_depth && (int64_t)ply + len < m->playout_horizon) {
        rng_before = w->rng;
        gts_move mv = 0;
        int rc = mc_policy_move(w, &mv);
        if (rc < 0) {
            ok = false;
            break;
        }
        if (rc == 0) {
            ended = true;
            break;
        }
        if (!mc_playout_step(w, mv, &len)) {
            ok = false;
            break;
        }
    }
    bool terminal = false;
    gts_score v = 0;
    if (ok && len > 0) {
        int n = mc_generate(w, false);
        ok = n >= 0;
        terminal = n == 0;
        if (terminal && ended)
            w->rng = rng_before; /* mc_playout() would not have drawn it */
    }
    if (ok)
        v = mc_evaluate_at(c, ply + (int)len);
    return mc_playout_end(w, ply, len, ok, terminal, v, reward);
}

/* A descent with an evaluator reached a leaf already queued (at @ply):
 * its virtual losses stay until the batch is done, while there is room to
 * remember its path (with virtual loss on), so that the next descents of
 * the batch look elsewhere (Leela Chess Zero's collision visits). */
static void mc_collide(mc_worker *w, int ply)
{
    gts__ev_batch *eb = &w->ev;
    w->collided = true;
    if (!w->m->use_vloss || eb->ncoll >= eb->cap)
        return;
    memcpy(gts__ev_cpath(eb, eb->ncoll), w->path, (size_t)(ply + 1) * sizeof w->path[0]);
    eb->cplies[eb->ncoll++] = ply;
    w->coll_kept = true;
}

/* Step 2 with an evaluator: queue the leaf (at @ply, its @n moves in
 * w->buf) for the next evaluator call instead of a playout: claim it
 * (LEAF -> EXPANDING, so that no other descent queues it again) when it
 * may be expanded, and leave the state there (w->pending). A leaf another
 * descent claimed first is a collision (w->collided). */
static bool mc_leaf_queue(mc_worker *w, mc_node *node, int ply, bool expand, uint32_t n)
{
    bool claimed = false;
    if (expand) {
        claimed = gts__atomic_cas_32(&node->state, MC_LEAF, MC_EXPANDING);
        if (!claimed) {
            mc_collide(w, ply);
            return true;
        }
    }
    uint32_t k = gts__ev_add(&w->ev, w->buf, n);
    w->ev.claimed[k] = claimed;
    w->ev.plies[k] = ply;
    memcpy(gts__ev_path(&w->ev, k), w->path, (size_t)(ply + 1) * sizeof w->path[0]);
    w->pending = true;
    return true;
}

/* Step 2. A node reached for the first time (or again, while it could not
 * be expanded). Sets *reward for the side to move at @node and *changed
 * when node's range narrowed; false when the search must unwind. */
static bool mc_leaf(mc_worker *w, mc_node *node, int ply, double *reward, bool *changed)
{
    mc_search *m = w->m;
    gts__ctx *c = w->c;
    if (m->ev && (mc_state(node) & MC_STATE) == MC_EXPANDING) {
        mc_collide(w, ply); /* queued by another descent: its value is coming */
        return true;
    }
    /* The horizon: the node's value is its evaluation. */
    if (ply >= m->horizon) {
        gts_score v = gts__evaluate(c, ply);
        if (gts__aborted(c))
            return false;
        mc_set_exact(node, v);
        *reward = mc_heuristic(m, v);
        *changed = true;
        return true;
    }
    bool expand = (gts__atomic_load_relaxed_32(&node->state) & MC_STATE) == MC_LEAF
                  && !gts__atomic_load_relaxed_32(&m->full);
    int n = mc_generate(w, expand && m->use_prior);
    if (n < 0)
        return false;
    if (n == 0) { /* a finished game */
        gts_score v = gts__evaluate(c, ply);
        if (gts__aborted(c))
            return false;
        gts__atomic_or_relaxed_32(&node->state, MC_TERMINAL);
        mc_set_exact(node, v);
        *reward = mc_sign(v);
        *changed = true;
        return true;
    }
    if (c->game->bounds) {
        gts_score lo = GTS_SCORE_LOSS, hi = GTS_SCORE_WIN;
        if (!gts__game_bounds(c, ply, &lo, &hi))
            return false;
        bool a = raise_i32(&node->lower, lo);
        bool b = drop_i32(&node->upper, hi);
        *changed = *changed || a || b;
        if (mc_proven(node)) {
            *reward = mc_proven_reward(m, ld_i32(&node->lower), false);
            return true;
        }
    }
    if (m->ev)
        return mc_leaf_queue(w, node, ply, expand, (uint32_t)n);
    if (expand && mc_expand(w, node, ply, (uint32_t)n) && mc_update_range(node))
        *changed = true;
    if (m->trusted)
        return mc_playout_trusted(w, ply, reward);
    return mc_playout(w, ply, n, reward);
}

/* Add @v to the statistic @p without a read-modify-write: a relaxed load
 * and a relaxed store. Two workers adding to the same counter at the same
 * moment may lose one of the two additions; for the AMAF statistics,
 * updated at every child of every node of the path (hundreds per
 * playout), that is the price of not paying a locked add for each, most
 * of them on the cache lines near the root that every worker shares
 * (Enzenberger & Mueller, "A lock-free multithreaded Monte-Carlo tree
 * search algorithm", 2009, accept the same for all statistics). The
 * visit counts and sums that UCB1 and the result rely on keep their
 * atomic adds. */
static inline void mc_add_lossy_64(uint64_t *p, uint64_t v)
{
    gts__atomic_store_relaxed_64(p, gts__atomic_load_relaxed_64(p) + v);
}

/* First slot of @mv in a worker's AMAF table (Fibonacci hashing). */
static inline uint32_t mc_seen_slot(gts_move mv)
{
    return (uint32_t)((mv * GTS__GOLDEN) >> 55) & (MC_SEEN - 1);
}

/* The move of index @j of the simulation: the path's moves, then the
 * playout's. */
static inline gts_move mc_seq(const mc_worker *w, int ply, int j)
{
    return j < ply ? w->path[j + 1]->move : w->line[j - ply];
}

/* Step 3b. AMAF statistics (RAVE) of a completed simulation whose path
 * ends at @ply with @reward for the side to move there: at every node
 * path[k] of the tree, each child whose move was played at an index
 * j >= k of the simulation, first occurrence of that move from k on, by
 * the side to move at path[k] (j - k even), gets that side's reward.
 * Walking k downward, the table maps a move to its first index >= k. */
static void mc_amaf(mc_worker *w, int ply, double reward)
{
    int len = ply + (int)w->line_len;
    if (++w->stamp == 0) { /* stamps wrapped: forget every slot */
        memset(w->seen_stamp, 0, sizeof w->seen_stamp);
        w->stamp = 1;
    }
    int j = len;
    for (int k = ply; k >= 0; k--) {
        for (; j > k; j--) { /* insert index j - 1 */
            gts_move mv = mc_seq(w, ply, j - 1);
            uint32_t h = mc_seen_slot(mv);
            while (w->seen_stamp[h] == w->stamp && w->seen_move[h] != mv)
                h = (h + 1) & (MC_SEEN - 1);
            w->seen_stamp[h] = w->stamp;
            w->seen_move[h] = mv;
            w->seen_at[h] = (uint16_t)(j - 1);
        }
        mc_node *p = w->path[k];
        if ((mc_state(p) & MC_STATE) != MC_EXPANDED || k == len)
            continue;
        double r = ((ply - k) & 1) ? 1.0 - reward : reward;
        uint64_t add = (uint64_t)(r * MC_ONE + 0.5);
        for (uint32_t i = 0; i < p->n; i++) {
            mc_node *c = &p->children[i];
            uint32_t h = mc_seen_slot(c->move);
            while (w->seen_stamp[h] == w->stamp && w->seen_move[h] != c->move)
                h = (h + 1) & (MC_SEEN - 1);
            if (w->seen_stamp[h] != w->stamp || ((w->seen_at[h] - k) & 1))
                continue;
            mc_add_lossy_64(&c->amaf_sum, add);
            mc_add_lossy_64(&c->amaf_visits, 1);
        }
    }
}

/* Step 3. Back @reward (for the side to move at w->path[@ply]) up the
 * path, removing its virtual losses; *@changed: the leaf's range narrowed. */
static void mc_backup(mc_worker *w, int ply, double reward, bool changed)
{
    mc_search *m = w->m;
    bool vloss = m->use_vloss;
    if (m->rave)
        mc_amaf(w, ply, reward);
    double x = reward;
    for (int k = ply; k >= 1; k--) {
        mc_node *nd = w->path[k];
        double r = 1.0 - x; /* for the side that played nd->move */
        gts__atomic_faa_relaxed_64(&nd->sum, (uint64_t)(r * MC_ONE + 0.5));
        gts__atomic_faa_relaxed_64(&nd->visits, 1);
        if (vloss)
            gts__atomic_faa_relaxed_32(&nd->vloss, (uint32_t)-1);
        if (changed)
            changed = mc_update_range(w->path[k - 1]);
        x = r;
    }
    gts__atomic_faa_relaxed_64(&w->root->visits, 1);
    if (vloss)
        gts__atomic_faa_relaxed_32(&w->root->vloss, (uint32_t)-1);
    gts__atomic_faa_relaxed_64(&m->completed, 1);
    if (mc_root_done(w->root))
        gts__atomic_store_relaxed_32(&m->done, 1);
}

/* One playout from w->root; false when the search must unwind. With an
 * evaluator the leaf may instead be queued (w->pending: nothing backed
 * up, nothing undone, the state left at the leaf) or have collided with a
 * queued one (w->collided: nothing backed up, the path undone). */
static bool mc_iterate(mc_worker *w)
{
    mc_search *m = w->m;
    gts__ctx *c = w->c;
    bool vloss = m->use_vloss;
    mc_node *node = w->root;
    int ply = 0;
    double reward = 0.5; /* for the side to move at path[ply] */
    bool changed = false, ok = true;
    w->path[0] = node;
    w->line_len = 0;
    w->pending = w->collided = w->coll_kept = false;
    if (vloss)
        gts__atomic_faa_relaxed_32(&node->vloss, 1);

    /* Step 1. Selection */
    for (;;) {
        uint32_t st = mc_state(node);
        if (ply > 0 && mc_proven(node)) {
            /* Known value: no playout; let the parent see it. */
            reward = mc_proven_reward(m, ld_i32(&node->lower), (st & MC_TERMINAL) != 0);
            changed = true;
            break;
        }
        if ((st & MC_STATE) != MC_EXPANDED) {
            ok = mc_leaf(w, node, ply, &reward, &changed);
            break;
        }
        bool stale = false;
        mc_node *child = mc_select(w, node, &stale);
        if (stale)
            mc_update_range(node);
        if (vloss)
            gts__atomic_faa_relaxed_32(&child->vloss, 1);
        if (!gts__apply(c, child->move)) {
            if (vloss)
                gts__atomic_faa_relaxed_32(&child->vloss, (uint32_t)-1);
            ok = false;
            break;
        }
        w->path[++ply] = child;
        node = child;
        if (ply > c->seldepth)
            c->seldepth = ply;
        if (gts__poll(c)) {
            ok = false;
            break;
        }
    }

    /* Step 3. Backpropagation (or, after an abort or a collision, only the
     * virtual losses) */
    if (ok && w->pending)
        return true; /* mc_complete() backs it up after the evaluator's call */
    if (ok && !w->collided) {
        mc_backup(w, ply, reward, changed);
    } else if (vloss && !w->coll_kept) {
        for (int k = ply; k >= 0; k--)
            gts__atomic_faa_relaxed_32(&w->path[k]->vloss, (uint32_t)-1);
    }

    /* Step 4. Undo the path */
    for (int k = ply; k >= 1; k--)
        gts__undo(c, w->path[k]->move);
    return ok;
}

/* ---- batches of leaves for the evaluator ------------------------------------------ */

/* Undo the path of slot @k on its state (the worker's context moves to it). */
static void mc_slot_undo(mc_worker *w, uint32_t k)
{
    gts__ctx *c = w->c;
    void **path = gts__ev_path(&w->ev, k);
    c->state = w->ev.states[k];
    for (int j = w->ev.plies[k]; j >= 1; j--)
        gts__undo(c, ((mc_node *)path[j])->move);
}

/* The batch is done (or the search unwinds): the virtual losses of the
 * collided descents go. */
static void mc_uncollide(mc_worker *w)
{
    gts__ev_batch *eb = &w->ev;
    for (uint32_t k = 0; k < eb->ncoll; k++) {
        mc_node **path = (mc_node **)(void *)gts__ev_cpath(eb, k);
        for (int j = eb->cplies[k]; j >= 0; j--)
            gts__atomic_faa_relaxed_32(&path[j]->vloss, (uint32_t)-1);
    }
    eb->ncoll = 0;
}

/* The search unwinds: every queued leaf becomes a leaf again, its virtual
 * losses go, its path is undone. */
static void mc_unqueue(mc_worker *w)
{
    gts__ev_batch *eb = &w->ev;
    for (uint32_t k = 0; k < eb->b.n; k++) {
        mc_node **path = (mc_node **)(void *)gts__ev_path(eb, k);
        int ply = eb->plies[k];
        if (eb->claimed[k])
            gts__atomic_store_release_32(&path[ply]->state, MC_LEAF);
        if (w->m->use_vloss)
            for (int j = ply; j >= 0; j--)
                gts__atomic_faa_relaxed_32(&path[j]->vloss, (uint32_t)-1);
        mc_slot_undo(w, k);
    }
    eb->b.n = 0;
    w->c->state = eb->states[0];
}

/* One evaluator call for the queued leaves; then each is expanded with
 * its priors (when it was claimed), its value backed up as the reward
 * (v + 1) / 2 and its path undone. False when the search must unwind. */
static bool mc_complete(mc_worker *w)
{
    mc_search *m = w->m;
    gts__ctx *c = w->c;
    gts__ev_batch *eb = &w->ev;
    if (eb->b.n == 0)
        return true;
    if (!gts__ev_run(eb, m->ev, c)) {
        mc_unqueue(w);
        return false;
    }
    for (uint32_t k = 0; k < eb->b.n; k++) {
        int ply = eb->plies[k];
        memcpy(w->path, gts__ev_path(eb, k), (size_t)(ply + 1) * sizeof w->path[0]);
        mc_node *leaf = w->path[ply];
        /* bounds() may have narrowed the leaf's range when it was queued */
        bool changed = m->game->bounds != NULL;
        c->state = eb->states[k];
        if (eb->claimed[k]) {
            uint32_t off = eb->offsets[k], n = eb->offsets[k + 1] - off;
            memcpy(w->buf, eb->moves + off, (size_t)n * sizeof *w->buf);
            if (mc_fill(w, leaf, ply, n, eb->priors + off) && mc_update_range(leaf))
                changed = true;
        }
        mc_backup(w, ply, ((double)eb->values[k] + 1.0) * 0.5, changed);
        mc_slot_undo(w, k);
    }
    eb->b.n = 0;
    c->state = eb->states[0];
    return !gts__aborted(c);
}

/* mc_work() with an evaluator: descents (each one claim of the budget)
 * queue leaves on the batch's states until it is full, the claims run
 * out or the root is proven; then one evaluator call completes them. A
 * descent that collides with a queued leaf gives its claim back and keeps
 * its virtual losses until the batch is done (mc_collide), so the next
 * descents go elsewhere; as many collisions as the batch has slots end
 * the collection (and so does one whose losses could not be kept: the
 * next descents would collide alike, nothing having changed). */
static void mc_work_eval(mc_worker *w)
{
    mc_search *m = w->m;
    gts__ctx *c = w->c;
    bool more = true;
    while (more && !gts__aborted(c) && !gts__atomic_load_relaxed_32(&m->done)) {
        while (w->ev.b.n < m->batch && !gts__atomic_load_relaxed_32(&m->done)) {
            if (gts__atomic_faa_relaxed_64(&m->claimed, 1) >= m->batch_end) {
                more = false;
                break;
            }
            c->state = w->ev.states[w->ev.b.n];
            if (!mc_iterate(w)) {
                mc_unqueue(w);
                mc_uncollide(w);
                return;
            }
            if (w->collided) {
                gts__atomic_faa_relaxed_64(&m->claimed, (uint64_t)-1);
                if (!w->coll_kept || w->ev.ncoll >= m->batch)
                    break;
            }
        }
        c->state = w->ev.states[0];
        bool ok = mc_complete(w);
        mc_uncollide(w);
        if (!ok)
            return;
    }
}

/* The root's priors from the evaluator (worker 0's state is at the
 * root), with this search's Dirichlet noise, on every tree. False after
 * a failure (recorded). */
static bool mc_eval_root(mc_search *m)
{
    mc_worker *w0 = &m->w[0];
    gts__ev_batch *eb = &w0->ev;
    const mc_node *ch = m->roots[0].children;
    for (uint32_t i = 0; i < m->nroot; i++)
        w0->buf[i] = ch[i].move;
    gts__ev_add(eb, w0->buf, m->nroot);
    bool ok = gts__ev_run(eb, m->ev, w0->c);
    eb->b.n = 0;
    if (!ok)
        return false;
    gts__ev_noise(eb->priors, m->nroot, m->noise_alpha, m->noise_frac, &w0->rng);
    for (int t = 0; t < m->nroots; t++)
        for (uint32_t i = 0; i < m->nroot; i++)
            m->roots[t].children[i].prior = eb->priors[i];
    return true;
}

/* Iterations until the batch's claims run out, the search is over or
 * must unwind. */
static void mc_work(mc_worker *w)
{
    mc_search *m = w->m;
    if (m->ev) {
        mc_work_eval(w);
        return;
    }
    while (!gts__aborted(w->c) && !gts__atomic_load_relaxed_32(&m->done)) {
        if (gts__atomic_faa_relaxed_64(&m->claimed, 1) >= m->batch_end)
            return;
        if (!mc_iterate(w))
            return;
    }
}

/* ---- parallel batches ------------------------------------------------------------- */

static void mc_task(gts__task *task, gts__worker *wk)
{
    (void)task;
    mc_worker *w = gts__worker_data(wk);
    if (w)
        mc_work(w);
}

static void mc_batch(void *arg, gts__worker *wk)
{
    mc_search *m = arg;
    gts__group group;
    gts__group_init(&group);
    for (int i = 1; i < m->threads; i++) {
        m->tasks[i].fn = mc_task;
        m->tasks[i].arg = m;
        gts__pool_spawn(wk, &group, &m->tasks[i]);
    }
    mc_work(gts__worker_data(wk));
    gts__pool_wait(wk, &group);
}

static void mc_run_batch(mc_search *m)
{
    if (m->threads == 1) {
        mc_work(&m->w[0]);
        return;
    }
    /* GTS_OPT_VIRTUAL: the workers take turns, one applied move (a step
     * of a descent or of a playout) per turn, like the depth-first
     * algorithms' nodes. Nothing in an iteration waits for another worker
     * outside a tick point: a lost expansion race is a playout from the
     * node, and the spare-block mutex is held for a pop only, never across
     * a tick. The batch's join is the pool's own wait (a tick point). */
    gts__pool_set_virtual(m->run->pool, m->run->engine->virtual_procs != 0);
    gts__pool_run(m->run->pool, mc_batch, m);
}

/* ---- results ------------------------------------------------------------------------ */

/*
 * The move to play among @n children of a node with proven range
 * [plo, phi]; -1 when nothing was learnt. Proven node (or a proven win):
 * the child with the best proven value, ties by visits. Otherwise the most
 * visited child that may still reach plo, unless a child's proven value is
 * better than that child's estimate. *score: the value of the choice.
 */
static int mc_choose(const mc_search *m, const mc_node *ch, uint32_t n, int32_t plo,
                     int32_t phi, gts_score *score)
{
    int proven = -1, visited = -1;
    for (uint32_t i = 0; i < n; i++) {
        const mc_node *c = &ch[i];
        int32_t pess = -ld_i32(&c->upper), opt = -ld_i32(&c->lower);
        uint64_t v = gts__atomic_load_relaxed_64(&c->visits);
        if (proven < 0 || pess > -ld_i32(&ch[proven].upper)
            || (pess == -ld_i32(&ch[proven].upper)
                && v > gts__atomic_load_relaxed_64(&ch[proven].visits)))
            proven = (int)i;
        if (opt < plo || v == 0)
            continue;
        if (visited < 0) {
            visited = (int)i;
            continue;
        }
        const mc_node *b = &ch[visited];
        uint64_t bv = gts__atomic_load_relaxed_64(&b->visits);
        if (v > bv || (v == bv && gts__atomic_load_relaxed_64(&c->sum)
                                      > gts__atomic_load_relaxed_64(&b->sum)))
            visited = (int)i;
    }
    int32_t best_pess = -ld_i32(&ch[proven].upper);
    if (plo >= phi || plo >= GTS_SCORE_DECIDED) {
        *score = plo >= phi ? plo : best_pess;
        return proven;
    }
    if (visited < 0) {
        if (best_pess > -GTS_SCORE_DECIDED && mc_proven(&ch[proven])) {
            *score = best_pess;
            return proven;
        }
        return -1;
    }
    const mc_node *b = &ch[visited];
    double mean = (double)gts__atomic_load_relaxed_64(&b->sum)
                  / (MC_ONE * (double)gts__atomic_load_relaxed_64(&b->visits));
    gts_score est = clamp_score(mc_to_score(m, mean), -ld_i32(&b->upper), -ld_i32(&b->lower));
    if (best_pess > -GTS_SCORE_DECIDED && best_pess > est) {
        *score = best_pess;
        return proven;
    }
    *score = clamp_score(est, plo, phi);
    return visited;
}

/* Merge the root children of every tree into m->merged. */
static void mc_merge(mc_search *m, int32_t *plo, int32_t *phi)
{
    memcpy(m->merged, m->roots[0].children, (size_t)m->nroot * sizeof *m->merged);
    int32_t lo = ld_i32(&m->roots[0].lower), hi = ld_i32(&m->roots[0].upper);
    for (int t = 1; t < m->nroots; t++) {
        const mc_node *r = &m->roots[t];
        if (ld_i32(&r->lower) > lo)
            lo = ld_i32(&r->lower);
        if (ld_i32(&r->upper) < hi)
            hi = ld_i32(&r->upper);
        for (uint32_t i = 0; i < m->nroot; i++) {
            const mc_node *c = &r->children[i];
            mc_node *d = &m->merged[i];
            d->visits += gts__atomic_load_relaxed_64(&c->visits);
            d->sum += gts__atomic_load_relaxed_64(&c->sum);
            d->amaf_visits += gts__atomic_load_relaxed_64(&c->amaf_visits);
            d->amaf_sum += gts__atomic_load_relaxed_64(&c->amaf_sum);
            if (ld_i32(&c->lower) > d->lower)
                d->lower = ld_i32(&c->lower);
            if (ld_i32(&c->upper) < d->upper)
                d->upper = ld_i32(&c->upper);
        }
    }
    /* The merged children's ranges may prove more than each tree did. */
    int32_t clo = INT32_MIN, chi = INT32_MIN;
    for (uint32_t i = 0; i < m->nroot; i++) {
        if (-m->merged[i].upper > clo)
            clo = -m->merged[i].upper;
        if (-m->merged[i].lower > chi)
            chi = -m->merged[i].lower;
    }
    *plo = lo > clo ? lo : clo;
    *phi = hi < chi ? hi : chi;
}

/* The node of the tree with the most visits for root move @i. */
static const mc_node *mc_pv_child(const mc_search *m, int i)
{
    const mc_node *best = &m->roots[0].children[i];
    for (int t = 1; t < m->nroots; t++) {
        const mc_node *c = &m->roots[t].children[i];
        if (gts__atomic_load_relaxed_64(&c->visits) > gts__atomic_load_relaxed_64(&best->visits))
            best = c;
    }
    return best;
}

/* The move to play drawn by visits^(1/T) among the merged root children
 * (GTS_OPT_MCTS_TEMPERATURE), from the seed and the visits so far: the
 * same search draws the same move; @best when nothing is visited. */
static int mc_draw(const mc_search *m, int best)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < m->nroot; i++)
        total += m->merged[i].visits;
    uint64_t seed = gts__mix64((uint64_t)mc_opt(m->run->engine, GTS_OPT_MCTS_SEED) ^ gts__mix64(total));
    int k = gts__ev_draw(&m->merged[0].visits, sizeof m->merged[0], m->nroot, m->temperature,
                         seed);
    return k >= 0 ? k : best;
}

/* A child's statistics from its parent's side (gts_mcts_move_stats; score
 * 0, for the caller to fill where a search reports one). */
static void mc_move_stats(const mc_node *c, gts_mcts_move_stats *s)
{
    memset(s, 0, sizeof *s);
    s->struct_size = sizeof *s;
    s->move = c->move;
    s->visits = c->visits;
    s->mean = c->visits ? (double)c->sum / (MC_ONE * (double)c->visits) : 0.0;
    s->prior = c->prior;
    s->lower = -c->upper;
    s->upper = -c->lower;
    s->amaf_visits = c->amaf_visits;
    s->amaf_mean = c->amaf_visits ? (double)c->amaf_sum / (MC_ONE * (double)c->amaf_visits)
                                  : 0.0;
}

/* Fill @r (move, score, pv, depth, flags) and the engine's root
 * statistics from the tree(s). No worker runs. */
static void mc_report(mc_search *m, const gts_limits *lim, gts_result *r)
{
    gts_engine *e = m->run->engine;
    int32_t plo, phi;
    mc_merge(m, &plo, &phi);
    if (gts__atomic_load_relaxed_32(&m->full))
        r->flags |= GTS_RESULT_MEMORY_LIMIT;

    /* Root statistics, from the root's side. */
    for (uint32_t i = 0; i < m->nroot; i++) {
        const mc_node *c = &m->merged[i];
        gts_mcts_move_stats *s = &mc_st(e)->stats[i];
        mc_move_stats(c, s);
        s->score = c->visits ? clamp_score(mc_to_score(m, s->mean), s->lower, s->upper)
                             : clamp_score(0, s->lower, s->upper);
    }
    mc_st(e)->nstats = m->nroot;
    mc_st(e)->stats_search = e->searches;

    gts_score score = 0;
    int best = mc_choose(m, m->merged, m->nroot, plo, phi, &score);
    if (best < 0)
        return; /* nothing learnt: the driver's fallback stands */
    bool solved = plo >= phi;
    if (m->temperature > 0.0 && !solved)
        best = mc_draw(m, best);
    r->best_move = m->merged[best].move;
    r->flags |= GTS_RESULT_HAS_MOVE;
    r->score = score;
    r->pv[0] = r->best_move;
    int len = 1;
    const mc_node *node = mc_pv_child(m, best);
    while (len < GTS_MAX_PLY && (mc_state(node) & MC_STATE) == MC_EXPANDED) {
        gts_score s;
        int k = mc_choose(m, node->children, node->n, ld_i32(&node->lower),
                          ld_i32(&node->upper), &s);
        if (k < 0)
            break;
        node = &node->children[k];
        r->pv[len++] = node->move;
    }
    r->pv_length = (uint32_t)len;
    r->depth = solved ? lim->depth : len;
}

/* ---- the search --------------------------------------------------------------------- */

static bool mc_setup_worker(mc_search *m, int i)
{
    mc_worker *w = &m->w[i];
    const gts_allocator *a = &m->run->engine->alloc;
    uint32_t cap = m->game->max_moves;
    w->m = m;
    w->c = m->run->ctx[i];
    w->rng = gts__mix64((uint64_t)mc_opt(m->run->engine, GTS_OPT_MCTS_SEED)
                    + GTS__GOLDEN * (uint64_t)(i + 1));
    w->line_cap = m->playout_depth > 0 ? m->playout_depth : 1;
    w->buf = gts__malloc(a, (size_t)cap * sizeof *w->buf);
    w->line = gts__malloc(a, (size_t)w->line_cap * sizeof *w->line);
    if (!w->buf || !w->line)
        return false;
    if (m->use_prior) {
        w->keys = gts__malloc(a, (size_t)cap * sizeof *w->keys);
        w->order = gts__malloc(a, (size_t)cap * sizeof *w->order);
        if (!w->keys || !w->order)
            return false;
    }
    if (m->ev && !gts__ev_init(&w->ev, w->c, m->batch))
        return false;
    return true;
}

static void mc_free_worker(mc_search *m, mc_worker *w)
{
    const gts_allocator *a = &m->run->engine->alloc;
    uint32_t cap = m->game->max_moves;
    /* w->m is unset when setup failed before it */
    mc_spare_give(m->run->engine, gts__bf_cursor_detach(&w->mem).head);
    gts__free(a, w->buf, (size_t)cap * sizeof *w->buf);
    gts__free(a, w->line, (size_t)w->line_cap * sizeof *w->line);
    gts__free(a, w->keys, (size_t)cap * sizeof *w->keys);
    gts__free(a, w->order, (size_t)cap * sizeof *w->order);
    gts__ev_free(&w->ev);
}

/* True when the kept tree @k can be this search's: the root's @n moves
 * (in w0->buf) and hash match every kept root's, and it fits the budget. */
static bool mc_kept_matches(mc_search *m, const mc_kept *k, int n)
{
    mc_worker *w0 = &m->w[0];
    const gts_game *g = m->game;
    if (!k->advanced || m->horizon_active || k->generate != g->generate || k->tree.bytes > m->mem_limit
        || k->hashed != m->hashed)
        return false;
    uint64_t h = k->hashed ? g->hash(w0->c->state, w0->c->user) : 0;
    for (int t = 0; t < k->nroots && t < m->nroots; t++) {
        mc_node *r = &k->roots[t];
        if ((r->state & MC_STATE) != MC_EXPANDED || r->n != (uint32_t)n)
            return false;
        if (k->hashed && *mc_head_hash(r->children) != h)
            return false;
        for (int i = 0; i < n; i++)
            if (r->children[i].move != w0->buf[i])
                return false;
    }
    return true;
}

/* Take the engine's kept tree as this search's roots when it matches
 * (worker 0 owns its blocks from now on); free it otherwise. Returns the
 * number of roots adopted. */
static int mc_adopt(mc_search *m, int n)
{
    gts_engine *e = m->run->engine;
    mc_engine_state *st = mc_st(e);
    mc_kept *k = st->kept;
    st->kept = NULL;
    if (!k)
        return 0;
    int adopted = 0;
    if (mc_kept_matches(m, k, n)) {
        adopted = k->nroots < m->nroots ? k->nroots : m->nroots;
        for (int t = 0; t < adopted; t++)
            m->roots[t] = k->roots[t];
        /* charged to the budget; the other roots' trees are freed with the blocks */
        gts__bf_cursor_adopt(&m->pins, &m->w[0].mem, &k->tree);
    }
    mc_kept_free(e, k);
    return adopted;
}

/* After the search: keep the tree(s) in the engine for gts_mcts_advance()
 * (the blocks and root array move there), unless reuse is off, the search
 * failed or had a depth limit, or memory is short (then nothing is kept). */
static void mc_keep(mc_search *m)
{
    gts_engine *e = m->run->engine;
    if (!mc_opt(e, GTS_OPT_MCTS_REUSE) || m->horizon_active
        || gts__atomic_load_relaxed_32((uint32_t *)&e->shared.error))
        return;
    mc_kept *k = gts__calloc(&e->alloc, 1, sizeof *k);
    if (!k)
        return;
    for (int i = 0; i < m->threads; i++) {
        gts__bf_blocks mine = gts__bf_cursor_detach(&m->w[i].mem);
        gts__bf_blocks_join(&k->tree, &mine);
    }
    k->roots = m->roots;
    k->nroots = m->nroots;
    k->roots_cap = m->nroots;
    m->roots = NULL;
    k->hashed = m->hashed;
    k->generate = m->game->generate;
    mc_st(e)->kept = k;
}

/* Expand every root (worker 0's state is at the root). False after a
 * failure (recorded): a callback, or no room for the root's children. */
static bool mc_setup_roots(mc_search *m)
{
    mc_worker *w0 = &m->w[0];
    gts__ctx *c0 = w0->c;
    gts_engine *e = m->run->engine;
    int n = mc_generate(w0, m->use_prior);
    if (n <= 0)
        return false; /* a failure (recorded), or no moves any more */
    gts_score lo = GTS_SCORE_LOSS, hi = GTS_SCORE_WIN;
    if (m->game->bounds && !gts__game_bounds(c0, 0, &lo, &hi))
        return false;
    mc_engine_state *st = mc_st(e);
    if ((uint32_t)n > st->stats_cap) {
        gts_mcts_move_stats *s = gts__calloc(&e->alloc, (size_t)n, sizeof *s);
        if (!s) {
            gts__fail(c0, GTS_ENOMEM, 0);
            return false;
        }
        gts__free(&e->alloc, st->stats, (size_t)st->stats_cap * sizeof *s);
        st->stats = s;
        st->stats_cap = (uint32_t)n;
    }
    m->nroot = (uint32_t)n;
    m->merged = gts__calloc(&e->alloc, (size_t)n, sizeof *m->merged);
    if (!m->merged) {
        gts__fail(c0, GTS_ENOMEM, 0);
        return false;
    }
    int adopted = mc_adopt(m, n);
    m->adopted = adopted > 0;
    for (int t = 0; t < adopted; t++) { /* a kept tree: narrow by bounds() */
        mc_node *root = &m->roots[t];
        raise_i32(&root->lower, lo);
        drop_i32(&root->upper, hi);
        mc_update_range(root);
        if (mc_root_done(root))
            m->done = 1;
    }
    for (int t = adopted; t < m->nroots; t++) {
        mc_node *root = &m->roots[t];
        mc_node *ch = mc_alloc(w0, (uint32_t)n);
        if (!ch) { /* the budget cannot hold the root (or no memory) */
            gts__fail(c0, GTS_ENOMEM, 0);
            return false;
        }
        mc_init_children(w0, ch, (uint32_t)n, 0, m->use_prior);
        *mc_head_hash(ch) = m->hashed ? m->game->hash(c0->state, c0->user) : 0;
        root->children = ch;
        root->n = (uint32_t)n;
        root->lower = lo;
        root->upper = hi;
        root->state = MC_EXPANDED;
        mc_update_range(root);
    }
    return true;
}

void gts__run_mcts(gts__run *run)
{
    const gts_limits *lim = run->lim;
    gts_result *r = run->result;
    gts_engine *e = run->engine;
    gts__ctx *c0 = run->ctx[0];
    const gts_allocator *a = &e->alloc;
    mc_search ms;
    mc_search *m = &ms;
    memset(m, 0, sizeof *m);
    if (!gts__engine_state_get(e, &gts__mcts_state)) { /* the first MCTS search */
        gts__fail(c0, GTS_ENOMEM, 0);
        return;
    }

    /* Step 1. Parameters */
    m->run = run;
    m->game = run->game;
    m->threads = run->threads;
    m->root_mode = mc_opt(e, GTS_OPT_MCTS_PARALLEL) == GTS_MCTS_ROOT && run->threads > 1;
    int64_t vloss = mc_opt(e, GTS_OPT_MCTS_VIRTUAL_LOSS);
    m->use_vloss = !m->root_mode && run->threads > 1 && vloss > 0;
    m->vl = m->use_vloss ? (uint32_t)vloss : 0;
    m->horizon = lim->depth;
    m->horizon_active = lim->depth < GTS_MAX_DEPTH;
    m->playout_horizon = m->horizon_active ? lim->depth : GTS_MAX_PLY;
    m->playout_depth = (uint32_t)mc_opt(e, GTS_OPT_MCTS_PLAYOUT_DEPTH);
    m->c = (double)mc_opt(e, GTS_OPT_MCTS_EXPLORATION) / 100.0;
    m->scale = (double)mc_opt(e, GTS_OPT_MCTS_EVAL_SCALE);
    m->inv_scale = 1.0 / m->scale;
    m->prior_w = (double)mc_opt(e, GTS_OPT_MCTS_PRIOR) / 100.0;
    m->use_prior = m->prior_w > 0 && (m->game->move_score || m->game->generate_keyed);
    m->rave_k = (double)mc_opt(e, GTS_OPT_MCTS_RAVE);
    m->rave = m->rave_k > 0 && (m->game->traits & GTS_TRAIT_MOVE_IDENTITY);
    m->policy = m->game->playout_move != NULL;
    m->trusted = m->policy && (m->game->traits & GTS_TRAIT_TRUSTED_PLAYOUT);
    m->hashed = mc_opt(e, GTS_OPT_MCTS_REUSE) && m->game->hash && !m->horizon_active;
    int64_t playouts = mc_opt(e, GTS_OPT_MCTS_PLAYOUTS);
    m->budget = playouts > 0 ? (uint64_t)playouts : UINT64_MAX;
    m->mem_limit = (uint64_t)mc_opt(e, GTS_OPT_TREE_MB) << 20;
    m->nroots = m->root_mode ? run->threads : 1;
    /* With an evaluator: PUCT over its priors, batches of leaves instead of
     * playouts (mcts_eval.h); no progressive bias, no RAVE. Virtual loss
     * spreads a batch's descents as it spreads the workers'. */
    m->ev = gts__mcts_evaluator(e);
    if (m->ev) {
        m->batch = (uint32_t)mc_opt(e, GTS_OPT_MCTS_BATCH);
        m->cpuct = (double)mc_opt(e, GTS_OPT_MCTS_CPUCT) / 100.0;
        m->fpu = (double)mc_opt(e, GTS_OPT_MCTS_FPU) / 100.0;
        m->noise_alpha = (double)mc_opt(e, GTS_OPT_MCTS_NOISE_ALPHA) / 1000.0;
        m->noise_frac = (double)mc_opt(e, GTS_OPT_MCTS_NOISE_FRACTION) / 100.0;
        m->use_prior = m->rave = false;
        m->use_vloss = !m->root_mode ? (run->threads > 1 || m->batch > 1) && vloss > 0
                                     : m->batch > 1 && vloss > 0;
        m->vl = m->use_vloss ? (uint32_t)vloss : 0;
    }
    m->temperature = (double)mc_opt(e, GTS_OPT_MCTS_TEMPERATURE) / 100.0;

    /* Step 2. Workers, roots */
    m->w = gts__calloc_aligned(a, (size_t)m->threads * sizeof *m->w, GTS__CACHELINE);
    m->roots = gts__calloc(a, (size_t)m->nroots, sizeof *m->roots);
    m->tasks = gts__calloc(a, (size_t)m->threads, sizeof *m->tasks);
    bool ok = m->w && m->roots && m->tasks;
    if (ok && m->ev && m->batch > 1 && (!m->game->clone || !m->game->free)) {
        gts__fail(c0, GTS_EINVAL, 0); /* batch states are clones */
        ok = false;
    }
    for (int i = 0; ok && i < m->threads; i++)
        ok = mc_setup_worker(m, i);
    if (!ok)
        gts__fail(c0, GTS_ENOMEM, 0); /* unless a failure came first */
    /* The engine's spare blocks are the search's until its end: before the
     * roots, which take the first, and again after them (a kept tree that
     * did not match has given its blocks back there). */
    gts__bf_pins_init(&m->pins, a, MC_CHUNK, m->mem_limit, &m->full);
    mc_search_take_spare(m);
    if (ok)
        ok = mc_setup_roots(m);
    mc_search_take_spare(m);
    if (ok && m->ev)
        ok = mc_eval_root(m);
    if (ok)
        for (int i = 0; i < m->threads; i++)
            m->w[i].root = &m->roots[m->root_mode ? i : 0];

    /* Step 3. Batches of playouts: one, or doubling ones between progress
     * reports */
    if (ok && run->pool)
        for (int i = 0; i < m->threads; i++)
            gts__worker_set_data(gts__pool_worker(run->pool, i), &m->w[i]);
    uint64_t next = lim->on_iteration ? MC_FIRST_BATCH : UINT64_MAX;
    int reported = 0;
    bool finished = !ok;
    while (!finished) {
        m->batch_end = next < m->budget ? next : m->budget;
        gts__atomic_store_relaxed_64(&m->claimed, gts__atomic_load_relaxed_64(&m->completed));
        mc_run_batch(m);
        uint64_t done = gts__atomic_load_relaxed_64(&m->completed);
        bool stopped = gts__run_stopped(&e->shared);
        finished = stopped || gts__atomic_load_relaxed_32(&m->done) || done >= m->budget;
        if (!stopped) {
            mc_report(m, lim, r);
            if (r->depth > reported) {
                reported = r->depth;
                if (run->progress(run))
                    finished = true;
            }
        }
        if (next <= UINT64_MAX / 2)
            next *= 2;
        else
            next = UINT64_MAX;
    }
    if (ok && gts__run_stopped(&e->shared) && !gts__atomic_load_relaxed_32((uint32_t *)&e->shared.error))
        mc_report(m, lim, r); /* a stop or a limit: the tree so far */
    if (ok && run->pool)
        for (int i = 0; i < m->threads; i++)
            gts__worker_set_data(gts__pool_worker(run->pool, i), NULL);

    /* Step 4. Keep the tree for gts_mcts_advance(), or free it; free the
     * scratch memory */
    if (ok && m->adopted)
        r->flags |= GTS_RESULT_TREE_REUSED;
    if (ok)
        mc_keep(m);
    if (m->w)
        for (int i = 0; i < m->threads; i++)
            mc_free_worker(m, &m->w[i]);
    gts__bf_pins_end(&m->pins, &mc_st(e)->spare, mc_spare_cap(e));
    gts__free(a, m->merged, (size_t)m->nroot * sizeof *m->merged);
    gts__free(a, m->tasks, (size_t)m->threads * sizeof *m->tasks);
    gts__free(a, m->roots, (size_t)m->nroots * sizeof *m->roots);
    gts__free_aligned(a, m->w, (size_t)m->threads * sizeof *m->w, GTS__CACHELINE);
}

/* ---- root statistics -------------------------------------------------------------- */

/* Entry @i of the caller's array @stats (stride: stats[0].struct_size)
 * into @s; false for a size other than the stride or unknown. */
static bool mc_stats_entry(const gts_mcts_move_stats *stats, size_t stride, int i,
                           gts_mcts_move_stats *s)
{
    const unsigned char *src = (const unsigned char *)stats + (size_t)i * stride;
    size_t own;
    memcpy(&own, src, sizeof own);
    memset(s, 0, sizeof *s);
    s->struct_size = sizeof *s;
    return own == stride && gts__struct_in(gts__desc_mcts_move_stats(), s, src, NULL) == GTS_OK;
}

/* Entry @i of the caller's strided array @out (@stride bytes apart, each
 * holding @size bytes of the struct): @s, with the caller's struct_size. */
static void mc_stats_put(gts_mcts_move_stats *out, size_t stride, size_t size, int i,
                         const gts_mcts_move_stats *s)
{
    unsigned char *dst = (unsigned char *)out + (size_t)i * stride;
    memcpy(dst, &stride, sizeof stride);
    gts__struct_out(dst, s, size);
}

int gts_mcts_root_stats(const gts_engine *engine, gts_mcts_move_stats *out, int capacity)
{
    if (!engine)
        return GTS_EINVAL;
    gts__engine_note(engine, NULL);
    const mc_engine_state *st = mc_st(engine);
    int n = st && st->stats_search == engine->searches ? (int)st->nstats : 0;
    if (!out || capacity <= 0)
        return n;
    size_t size, stride;
    const char *why = NULL;
    gts_status rc = gts__struct_check(gts__desc_mcts_move_stats(), out, &size, &why);
    gts__engine_note(engine, why);
    if (rc != GTS_OK)
        return rc;
    memcpy(&stride, out, sizeof stride);
    for (int i = 0; i < n && i < capacity; i++)
        mc_stats_put(out, stride, size, i, &st->stats[i]);
    return n;
}

/* ---- tree reuse ------------------------------------------------------------------ */

/* Blocks for a copied tree: a pinned store of its own, the engine's spare
 * blocks first (no budget: a copy is never larger than the tree it comes
 * from, which fitted). */
typedef struct mc_arena {
    gts__bf_pins pins;
    gts__bf_cursor mem;
    uint32_t full; /* never raised: no budget */
} mc_arena;

static mc_node *mc_arena_take(mc_arena *ar, uint32_t n)
{
    unsigned char *p = gts__bf_pin_take(&ar->pins, &ar->mem,
                                        MC_HEAD + (size_t)n * sizeof(mc_node), NULL);
    return p ? (mc_node *)(void *)(p + MC_HEAD) : NULL;
}

/* A proven bound of a node @d plies below the root, seen from the new
 * root: decided scores count their distance from the root (node.h), @d
 * plies less now; ordinary scores stay. */
static int32_t mc_shift(int32_t v, int d)
{
    if (v >= GTS_SCORE_DECIDED)
        return v + d < GTS_SCORE_WIN ? v + d : GTS_SCORE_WIN;
    if (v <= -GTS_SCORE_DECIDED)
        return v - d > GTS_SCORE_LOSS ? v - d : GTS_SCORE_LOSS;
    return v;
}

/* Copy @src, at @ply below the old root, and its subtree into @dst, @d
 * plies up. A node the old search treated as its horizon (GTS_MAX_DEPTH
 * from the old root: evaluate() taken as exact) becomes a fresh leaf
 * again, and so does the proven range of every node above one: it rests
 * on values that are not this node's value at the new horizon, d plies
 * further down (issue 31: a chain proven at -127 stayed 127 after one
 * move, where the new search's value is -128). Such a node's range starts
 * again from the mate-distance default and is recomputed from its copied
 * children, which keeps what their horizon-free proofs (finished games,
 * bounds()) still show. Returns MC_COPY_OOM when memory ran out, else
 * whether the copied range depends on the old horizon. */
enum { MC_COPY_OOM = -1, MC_COPY_FREE = 0, MC_COPY_HORIZON = 1 };
static int mc_copy(mc_arena *ar, mc_node *dst, const mc_node *src, int ply, int d)
{
    *dst = *src;
    dst->vloss = 0;
    dst->lower = mc_shift(src->lower, d);
    dst->upper = mc_shift(src->upper, d);
    int dep = MC_COPY_FREE;
    if (ply >= GTS_MAX_DEPTH && !(src->state & MC_TERMINAL))
        dep = MC_COPY_HORIZON;
    if ((src->state & MC_STATE) != MC_EXPANDED) {
        dst->children = NULL;
        dst->n = 0;
        dst->state = src->state & ~(uint32_t)MC_STATE; /* MC_LEAF, flags kept */
    } else {
        mc_node *ch = mc_arena_take(ar, src->n);
        if (!ch)
            return MC_COPY_OOM;
        *mc_head_hash(ch) = *mc_head_hash(src->children);
        dst->children = ch;
        for (uint32_t i = 0; i < src->n; i++) {
            int c = mc_copy(ar, &ch[i], &src->children[i], ply + 1, d);
            if (c == MC_COPY_OOM)
                return MC_COPY_OOM;
            if (c == MC_COPY_HORIZON)
                dep = MC_COPY_HORIZON;
        }
    }
    if (dep == MC_COPY_HORIZON) {
        dst->lower = GTS_SCORE_LOSS + (ply - d);
        dst->upper = GTS_SCORE_WIN - (ply - d);
        mc_update_range(dst); /* no-op for a leaf */
    }
    return dep;
}

/* The node of @root's tree reached by @moves, or NULL when the tree does
 * not hold it expanded. */
static const mc_node *mc_descend(const mc_node *node, const gts_move *moves, int n)
{
    for (int i = 0; i < n; i++) {
        if ((node->state & MC_STATE) != MC_EXPANDED)
            return NULL;
        const mc_node *next = NULL;
        for (uint32_t j = 0; j < node->n && !next; j++)
            if (node->children[j].move == moves[i])
                next = &node->children[j];
        if (!next)
            return NULL;
        node = next;
    }
    return (node->state & MC_STATE) == MC_EXPANDED ? node : NULL;
}

int gts_mcts_advance(gts_engine *engine, const gts_move *moves, int n, uint64_t *visits)
{
    if (!engine || n < 0 || n > GTS_MAX_DEPTH || (n > 0 && !moves))
        return GTS_EINVAL;
    if (visits)
        *visits = 0;
    if (!gts__engine_claim(engine))
        return GTS_EBUSY;
    const gts_allocator *a = &engine->alloc;
    mc_engine_state *st = mc_st(engine);
    mc_kept *k = st ? st->kept : NULL;
    int rc = 0;
    if (k && n == 0) {
        k->advanced = true;
        rc = 1;
    } else if (k) {
        /* Step 1. The subtree of every kept root (a missing one is dropped) */
        mc_arena ar = {.full = 0};
        gts__bf_pins_init(&ar.pins, a, MC_CHUNK, UINT64_MAX, &ar.full);
        gts__bf_pins_take_spare(&ar.pins, &st->spare);
        mc_node *roots = gts__calloc(a, (size_t)k->nroots, sizeof *roots);
        int kept = 0;
        bool oom = !roots;
        for (int t = 0; !oom && t < k->nroots; t++) {
            const mc_node *sub = mc_descend(&k->roots[t], moves, n);
            if (!sub)
                continue;
            /* Step 2. Copy it into fresh blocks (decided scores shifted) */
            if (mc_copy(&ar, &roots[kept], sub, n, n) == MC_COPY_OOM)
                oom = true;
            else
                kept++;
        }
        /* Step 3. Replace the old tree (or drop everything): the kept
         * structure is reused, its blocks and roots replaced */
        gts__bf_blocks old = k->tree;
        gts__free(a, k->roots, (size_t)k->roots_cap * sizeof *k->roots);
        k->tree = gts__bf_cursor_detach(&ar.mem);
        k->roots = roots;
        k->roots_cap = roots ? k->nroots : 0;
        k->nroots = kept;
        k->advanced = true;
        if (oom || kept == 0) {
            mc_drop(engine);
            rc = oom ? GTS_ENOMEM : 0;
        } else {
            rc = 1;
        }
        /* after the copy: within the budget */
        gts__bf_pins_end(&ar.pins, &st->spare, mc_spare_cap(engine));
        mc_spare_give(engine, old.head);
    }
    if (rc == 1 && visits)
        for (int t = 0; t < st->kept->nroots; t++)
            *visits += st->kept->roots[t].visits;
    gts__engine_release(engine);
    return rc;
}

/* ---- statistics from elsewhere ---------------------------------------------------- */

/*
 * gts_mcts_inject(): add root-move statistics gathered by other searches
 * of the same position (other processes: libgts-mpi's distributed MCTS)
 * to the kept tree's root children, as if those playouts had run here.
 * Only the root children and the root change: their visits and reward
 * sums grow (the sum in MC_ONE units, rounded once per entry), their
 * proven ranges narrow to the given ones (sound: the same position's
 * value), and the root's range is recomputed. Subtrees are untouched, so
 * "root visits == sum of the root children's visits" still holds, while
 * "== playouts done here" becomes "== playouts done here and injected".
 * With root parallelisation the first tree receives them (the root
 * statistics sum the trees). The engine's root statistics
 * (gts_mcts_root_stats) are updated alike. Nothing changes unless every
 * entry is valid.
 */
int gts_mcts_inject(gts_engine *engine, const gts_mcts_move_stats *stats, int n)
{
    if (!engine || n < 0 || (n > 0 && !stats))
        return GTS_EINVAL;
    gts__engine_note(engine, NULL);
    if (!gts__engine_claim(engine))
        return GTS_EBUSY;
    mc_engine_state *st = mc_st(engine);
    mc_kept *k = st ? st->kept : NULL;
    mc_node *root = k && k->nroots > 0 ? &k->roots[0] : NULL;
    int rc = root ? 1 : 0;

    /* Step 1. Check every entry against the kept root before changing any */
    size_t size = 0, stride = 0;
    if (root && n > 0) {
        const char *why = NULL;
        if (gts__struct_check(gts__desc_mcts_move_stats(), stats, &size, &why) != GTS_OK)
            rc = GTS_ESTRUCT;
        gts__engine_note(engine, why);
        memcpy(&stride, stats, sizeof stride);
    }
    if (rc == 1 && (n != (int)root->n || (root->state & MC_STATE) != MC_EXPANDED))
        rc = GTS_EINVAL;
    uint64_t added = 0;
    for (int i = 0; rc == 1 && i < n; i++) {
        gts_mcts_move_stats s;
        rc = mc_stats_entry(stats, stride, i, &s) ? 1 : GTS_ESTRUCT;
        if (rc == 1
            && (s.move != root->children[i].move || !(s.mean >= 0.0 && s.mean <= 1.0)
                || !(s.amaf_mean >= 0.0 && s.amaf_mean <= 1.0) || s.lower > s.upper
                || s.lower < GTS_SCORE_LOSS || s.upper > GTS_SCORE_WIN
                || s.visits > (UINT64_C(1) << 32) || s.amaf_visits > (UINT64_C(1) << 32)
                || added + s.visits + root->visits > (UINT64_C(1) << 32)))
            rc = GTS_EINVAL;
        added += rc == 1 ? s.visits : 0;
    }

    /* Step 2. Add them: children, root, the engine's root statistics */
    bool stats_valid = st && st->stats_search == engine->searches && st->nstats == (uint32_t)n;
    mc_search scale = {.scale = (double)mc_opt(engine, GTS_OPT_MCTS_EVAL_SCALE)};
    for (int i = 0; rc == 1 && i < n; i++) {
        gts_mcts_move_stats s;
        mc_stats_entry(stats, stride, i, &s);
        mc_node *c = &root->children[i];
        uint64_t sum = (uint64_t)llround(s.mean * (double)s.visits * MC_ONE);
        uint64_t amaf = (uint64_t)llround(s.amaf_mean * (double)s.amaf_visits * MC_ONE);
        c->visits += s.visits;
        c->sum += sum;
        c->amaf_visits += s.amaf_visits;
        c->amaf_sum += amaf;
        raise_i32(&c->lower, -s.upper); /* the child's range is from its side */
        drop_i32(&c->upper, -s.lower);
        root->visits += s.visits;
        if (stats_valid) {
            gts_mcts_move_stats *o = &st->stats[i];
            double osum = o->mean * (double)o->visits + s.mean * (double)s.visits;
            double oamaf = o->amaf_mean * (double)o->amaf_visits + s.amaf_mean * (double)s.amaf_visits;
            o->visits += s.visits;
            o->amaf_visits += s.amaf_visits;
            o->mean = o->visits ? osum / (double)o->visits : 0.0;
            o->amaf_mean = o->amaf_visits ? oamaf / (double)o->amaf_visits : 0.0;
            if (s.lower > o->lower)
                o->lower = s.lower;
            if (s.upper < o->upper)
                o->upper = s.upper;
            o->score = o->visits ? clamp_score(mc_to_score(&scale, o->mean), o->lower, o->upper)
                                 : clamp_score(0, o->lower, o->upper);
        }
    }
    if (rc == 1)
        mc_update_range(root);
    gts__engine_release(engine);
    return rc;
}

/* ---- statistics below the root ---------------------------------------------------- */

/* The node of the first kept tree reached by @path (@depth moves), held
 * expanded; NULL otherwise (no tree kept, a move not in it). */
static mc_node *mc_kept_node(gts_engine *engine, const gts_move *path, int depth)
{
    mc_engine_state *st = mc_st(engine);
    mc_kept *k = st ? st->kept : NULL;
    if (!k || k->nroots <= 0)
        return NULL;
    return (mc_node *)mc_descend(&k->roots[0], path, depth);
}

/*
 * gts_mcts_node_stats(): the children of a node of the kept tree, as
 * gts_mcts_root_stats() lists the root's (the first tree's, with root
 * parallelisation), from the side to move at that node. Read-only.
 */
int gts_mcts_node_stats(gts_engine *engine, const gts_move *path, int depth,
                        gts_mcts_move_stats *out, int capacity)
{
    if (!engine || depth < 0 || depth > GTS_MAX_DEPTH || (depth > 0 && !path) || capacity < 0
        || (capacity > 0 && !out))
        return GTS_EINVAL;
    gts__engine_note(engine, NULL);
    size_t size = 0, stride = 0;
    if (capacity > 0) {
        const char *why = NULL;
        gts_status rc = gts__struct_check(gts__desc_mcts_move_stats(), out, &size, &why);
        gts__engine_note(engine, why);
        if (rc != GTS_OK)
            return rc;
        memcpy(&stride, out, sizeof stride);
    }
    if (!gts__engine_claim(engine))
        return GTS_EBUSY;
    const mc_node *node = mc_kept_node(engine, path, depth);
    int n = node ? (int)node->n : 0;
    for (int i = 0; i < n && i < capacity; i++) {
        gts_mcts_move_stats s;
        mc_move_stats(&node->children[i], &s); /* score 0: no search reports here */
        mc_stats_put(out, stride, size, i, &s);
    }
    gts__engine_release(engine);
    return n;
}

/*
 * gts_mcts_inject_at(): gts_mcts_inject() for the children of the node
 * reached by @path. At depth 0 it is gts_mcts_inject(). Below the root
 * only the children's visits, reward sums and AMAF counts grow: the
 * node's own visits are its parent's statistics (a merge that shares a
 * node and its parent injects each level once), and proven ranges are not
 * taken from elsewhere below the root (lower, upper, prior and score are
 * ignored). Nothing changes unless every entry is valid.
 */
int gts_mcts_inject_at(gts_engine *engine, const gts_move *path, int depth,
                       const gts_mcts_move_stats *stats, int n)
{
    if (!engine || depth < 0 || depth > GTS_MAX_DEPTH || (depth > 0 && !path) || n < 0
        || (n > 0 && !stats))
        return GTS_EINVAL;
    if (depth == 0)
        return gts_mcts_inject(engine, stats, n);
    gts__engine_note(engine, NULL);
    size_t size = 0, stride = 0;
    if (n > 0) {
        const char *why = NULL;
        gts_status st = gts__struct_check(gts__desc_mcts_move_stats(), stats, &size, &why);
        gts__engine_note(engine, why);
        if (st != GTS_OK)
            return st;
        memcpy(&stride, stats, sizeof stride);
    }
    if (!gts__engine_claim(engine))
        return GTS_EBUSY;
    mc_node *node = mc_kept_node(engine, path, depth);
    int rc = node ? 1 : 0;

    /* Step 1. Check every entry against the node's children */
    if (rc == 1 && n != (int)node->n)
        rc = GTS_EINVAL;
    for (int i = 0; rc == 1 && i < n; i++) {
        gts_mcts_move_stats s;
        if (!mc_stats_entry(stats, stride, i, &s))
            rc = GTS_ESTRUCT;
        else if (s.move != node->children[i].move || !(s.mean >= 0.0 && s.mean <= 1.0)
                 || !(s.amaf_mean >= 0.0 && s.amaf_mean <= 1.0)
                 || s.visits > (UINT64_C(1) << 32) || s.amaf_visits > (UINT64_C(1) << 32)
                 || s.visits + node->children[i].visits > (UINT64_C(1) << 32))
            rc = GTS_EINVAL;
    }

    /* Step 2. Add them to the children */
    for (int i = 0; rc == 1 && i < n; i++) {
        gts_mcts_move_stats s;
        mc_stats_entry(stats, stride, i, &s);
        mc_node *c = &node->children[i];
        c->visits += s.visits;
        c->sum += (uint64_t)llround(s.mean * (double)s.visits * MC_ONE);
        c->amaf_visits += s.amaf_visits;
        c->amaf_sum += (uint64_t)llround(s.amaf_mean * (double)s.amaf_visits * MC_ONE);
    }
    gts__engine_release(engine);
    return rc;
}
