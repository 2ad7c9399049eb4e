/*
 * mma.c - Rivest's min/max approximation (R. L. Rivest, "Game tree
 * searching by min/max approximation", Artificial Intelligence 34, 1987).
 *
 * What. A best-first search over an explicit tree. Every node carries its
 * minimax value over the tree explored so far, from the root player's side
 * (MAX at even plies); that is what the search reports (as in the paper).
 * Where to grow the tree is decided by penalties derived from generalized
 * means, which tend to max and min as p grows but are differentiable:
 *     M_q(a_1..a_n) = ((a_1^q + ... + a_n^q) / n)^(1/q),
 *     q = p at MAX nodes, q = -p at MIN nodes (p = GTS_OPT_MMA_P / 10),
 * over values a in (0, 1). The edge from node x to its child c gets the
 * penalty w(c) = -log D(x, c), D the derivative of M_q with respect to a_c:
 *     D(x, c) = (1/n) (a_c / M)^(q - 1),  M = M_q(a_1..a_n),
 * so a child that matters little to its parent's value is expensive. Each
 * step expands the tip with the least total penalty from the root (every
 * node keeps b(x), the least penalty from x down to an open tip), creates
 * and evaluates all its children, and backs the quantities up the path.
 *
 * The map into (0, 1). A score v (MAX's side) becomes the logistic
 *     u(v) = 1 / (1 + exp(-v / s)),  s = GTS_OPT_MMA_SCALE (default 200),
 * so a heuristic's usual values (tens to thousands) spread over (0, 1) and
 * decided scores (+-31000, mate distance included) sit at its ends. Only
 * log u is ever computed: log u(v) = -softplus(-v / s), exact at both ends.
 *
 * Two variants (GTS_OPT_MMA_BACKUP), both Rivest's:
 *   reverse approximation (GTS_MMA_REVERSE, the default, what his Connect-4
 *     experiments ran): a_c = u(minimax value of c), the true min/max value
 *     is backed up, and M_q of the children's a is used only in D;
 *   generalized-mean back-up (GTS_MMA_MEAN): a tip's a is u(static value),
 *     an expanded node's a is M_q of its children's a, and D is the
 *     derivative of that mean at those values.
 * The minimax value is kept in both (it is what the search returns).
 *
 * Log space. With l_i = log a_i, for any p in 0.1..100 and any score:
 *     log M = (LSE_i(q l_i) - log n) / q,   LSE by log-sum-exp (max first),
 *     w(c)  = log n - (q - 1)(l_c - log M),  clamped at 0,
 * so no power over- or underflows and every penalty is finite. The clamp
 * (Rivest's penalties are non-negative) matters only at MIN nodes, where
 * D can reach n^(1/p) > 1 for the least child.
 *
 * Tips: a finished game and a node at the depth limit are closed (their
 * value is the minimax leaf value there); an open tip's static value is
 * clamped into what it can still score (mate distance, the game's
 * bounds()), and a range closed to one value closes it. The search ends
 * when every tip is closed (the reported value is then the minimax value)
 * or at a limit: the node budget (gts_limits::nodes counts the children
 * created, i.e. moves applied for evaluation, Rivest's measure), time,
 * stop, or the tree budget GTS_OPT_TREE_MB (then GTS_RESULT_MEMORY_LIMIT).
 *
 * Result: the root child of the best explored minimax value and its line
 * (the minimax-best child at each expanded node); seldepth is the deepest
 * ply of any node created. depth is gts_limits::depth when every tip was
 * closed (the minimax value at that depth is proved, as an exact
 * algorithm's depth says), else the line's length (<= seldepth).
 */
#include "search/algos.h"
#include "search/bestfirst.h"
#include "search/mma_internal.h"

#include <math.h>
#include <stddef.h>

typedef struct mm_node {
    gts__bf_node h;    /* link, depth, children (the tree's) */
    gts_score value;   /* minimax over the explored tree, MAX's side */
    double la;         /* log a: what the parent's mean sees of this node */
    double lm;         /* expanded: log M_q of the children's a */
    double tip;        /* least penalty to an open tip below (INFINITY: none) */
} mm_node;

typedef struct mm {
    gts__bf_tree t; /* first: the hooks get it */
    double p, scale;
    bool mean;      /* generalized-mean back-up, else the reverse approximation */
} mm;
_Static_assert(offsetof(mm_node, h) == 0 && offsetof(mm, t) == 0, "the tree's parts first");

/* Node @x (the tree's stride is sizeof(mm_node): indexed at compile time). */
static inline mm_node *mm_at(const gts__bf_tree *t, uint32_t x)
{
    return (mm_node *)(void *)t->base + x;
}

static inline const mm *mm_of(const gts__bf_tree *t)
{
    return (const mm *)(const void *)t;
}

double gts__mma_log_unit(gts_score v, double scale)
{
    double x = -(double)v / scale; /* log u = -softplus(x) */
    return x > 0 ? -(x + log1p(exp(-x))) : -log1p(exp(x));
}

double gts__mma_log_mean(const double *la, size_t stride, uint32_t n, double q)
{
    double top = -INFINITY;
    for (uint32_t i = 0; i < n; i++) {
        double t = q * *(const double *)(const void *)((const char *)la + i * stride);
        if (t > top)
            top = t;
    }
    double sum = 0;
    for (uint32_t i = 0; i < n; i++)
        sum += exp(q * *(const double *)(const void *)((const char *)la + i * stride) - top);
    return (top + log(sum) - log((double)n)) / q;
}

double gts__mma_penalty(double la_child, double lm_parent, uint32_t n, double q)
{
    double w = log((double)n) - (q - 1.0) * (la_child - lm_parent);
    return w > 0 ? w : 0;
}

/* The exponent of node @x's generalized mean. */
static double exponent(const gts__bf_tree *t, uint32_t x)
{
    return mm_at(t, x)->h.link.ply % 2 == 0 ? mm_of(t)->p : -mm_of(t)->p;
}

/* Penalty of the edge from the expanded node @x to its child @k. */
static double penalty(const gts__bf_tree *t, uint32_t x, uint32_t k)
{
    return gts__mma_penalty(mm_at(t, k)->la, mm_at(t, x)->lm, mm_at(t, x)->h.n, exponent(t, x));
}

/* b(x), the least total penalty from the expanded node @x down to an open
 * tip (INFINITY: none), and in *@child (if not NULL) the child it goes
 * through (ties: the first; GTS__BF_NONE: none). */
static double least_tip(const gts__bf_tree *t, uint32_t x, uint32_t *child)
{
    const mm_node *nd = mm_at(t, x);
    uint32_t best = GTS__BF_NONE;
    double best_b = INFINITY;
    for (uint32_t i = 0; i < nd->h.n; i++) {
        uint32_t k = nd->h.first + i;
        if (isinf(mm_at(t, k)->tip))
            continue;
        double b = penalty(t, x, k) + mm_at(t, k)->tip;
        if (best == GTS__BF_NONE || b < best_b) {
            best = k;
            best_b = b;
        }
    }
    if (child)
        *child = best;
    return best_b;
}

/* Recompute node @x from its children, then every ancestor: minimax
 * value, log M_q, log a (by the variant) and b (least penalty to a tip);
 * gts__bf_hooks::back_up. */
static void mm_back_up(gts__bf_tree *t, uint32_t x)
{
    const mm *s = mm_of(t);
    for (;;) {
        mm_node *nd = mm_at(t, x);
        bool max = nd->h.link.ply % 2 == 0;
        gts_score v = max ? -GTS_SCORE_INF : GTS_SCORE_INF;
        for (uint32_t i = 0; i < nd->h.n; i++) {
            const mm_node *ch = mm_at(t, nd->h.first + i);
            if (max ? ch->value > v : ch->value < v)
                v = ch->value;
        }
        nd->value = v;
        nd->lm = gts__mma_log_mean(&mm_at(t, nd->h.first)->la, sizeof(mm_node), nd->h.n,
                                   exponent(t, x));
        nd->la = s->mean ? nd->lm : gts__mma_log_unit(v, s->scale);
        nd->tip = least_tip(t, x, NULL);
        if (nd->h.link.parent == GTS__BF_NONE)
            return;
        x = nd->h.link.parent;
    }
}

/* The static value of the node the state is at, from MAX's side: the
 * minimax leaf value (quiescence included when it is on) once @depth is
 * used up. */
static gts_score static_value(gts__ctx *c, int ply, int depth)
{
    gts_score v = gts__bf_static_value(c, ply, depth);
    return ply % 2 == 0 ? v : -v;
}

/* An open tip's static value, clamped into what it can still score (mate
 * distance and the game's bounds()); a range closed to one value closes
 * the tip. The state is at the tip. False after a failure (recorded). */
static bool tip_bounds(gts__ctx *c, mm_node *tip)
{
    int ply = tip->h.link.ply;
    gts_score lo = GTS_SCORE_LOSS + ply, hi = GTS_SCORE_WIN - ply;
    if (c->game->bounds && !gts__game_bounds(c, ply, &lo, &hi))
        return false;
    if (ply % 2 == 1) { /* to MAX's side */
        gts_score t = lo;
        lo = -hi;
        hi = -t;
    }
    tip->value = tip->value < lo ? lo : tip->value > hi ? hi : tip->value;
    if (lo == hi)
        tip->tip = INFINITY;
    return true;
}

/* A new child, the state at it (gts__bf_hooks::init): its static value,
 * closed at the horizon, clamped into bounds() when open. */
static bool mm_init(gts__bf_tree *t, uint32_t x)
{
    mm_node *ch = mm_at(t, x);
    int ply = ch->h.link.ply, depth = ch->h.depth;
    bool closed = depth <= 0 || ply >= GTS_MAX_PLY;
    ch->value = static_value(t->c, ply, depth);
    ch->tip = closed ? INFINITY : 0;
    bool ok = closed || tip_bounds(t->c, ch);
    ch->la = gts__mma_log_unit(ch->value, mm_of(t)->scale);
    ch->h.expanded = isinf(ch->tip);
    return ok;
}

/* A finished game, the state at it (gts__bf_hooks::over): closed. */
static void mm_over(gts__bf_tree *t, uint32_t x)
{
    mm_node *nd = mm_at(t, x);
    nd->value = static_value(t->c, nd->h.link.ply, nd->h.depth);
    nd->la = gts__mma_log_unit(nd->value, mm_of(t)->scale);
    nd->tip = INFINITY;
}

static const gts__bf_hooks mm_hooks = {mm_init, mm_over, mm_back_up};

/* The PV's next node: the minimax-best child of @x (ties: the first). */
static uint32_t mm_pv_child(const gts__bf_tree *t, uint32_t x)
{
    const mm_node *nd = mm_at(t, x);
    bool max = nd->h.link.ply % 2 == 0;
    uint32_t b = nd->h.first;
    for (uint32_t i = 1; i < nd->h.n; i++) {
        gts_score v = mm_at(t, nd->h.first + i)->value;
        if (max ? v > mm_at(t, b)->value : v < mm_at(t, b)->value)
            b = nd->h.first + i;
    }
    return b;
}

/* The open tip of least total penalty from the root (ties: the first). */
static uint32_t select_tip(const gts__bf_tree *t)
{
    uint32_t x = 0;
    while (mm_at(t, x)->h.expanded) {
        uint32_t best;
        least_tip(t, x, &best);
        if (best == GTS__BF_NONE)
            break; /* cannot happen: x's b is finite */
        x = best;
    }
    return x;
}

/* MMA's options (registry.c). */
const gts__opt_row gts__mma_options[] = {
    GTS__OPT_ROW_TREE_MB,
    { GTS_OPT_MMA_P, "mma_p", 1, 1000, 100 },
    { GTS_OPT_MMA_SCALE, "mma_scale", 1, GTS_SCORE_WIN, 200 },
    { GTS_OPT_MMA_BACKUP, "mma_backup", GTS_MMA_REVERSE, GTS_MMA_MEAN, GTS_MMA_REVERSE },
    GTS__OPT_END,
};

void gts__run_mma(gts__run *run)
{
    const gts_limits *lim = run->lim;
    gts_result *r = run->result;
    mm s;
    gts__bf_tree *t = &s.t;
    if (!gts__bf_start(t, run, sizeof(mm_node), &mm_hooks, lim->depth, r))
        return; /* the driver's fallback move stands */
    gts__ctx *c = t->c;
    const gts_engine *e = run->engine;
    s.p = (double)gts__algo_opt(e, gts__mma_options, GTS_OPT_MMA_P) / 10.0;
    s.scale = (double)gts__algo_opt(e, gts__mma_options, GTS_OPT_MMA_SCALE);
    s.mean = gts__algo_opt(e, gts__mma_options, GTS_OPT_MMA_BACKUP) == GTS_MMA_MEAN;

    /* Expand the least-penalty tip until none is open or a limit. */
    bool ok = gts__bf_expand(t, 0);
    while (ok && !isinf(mm_at(t, 0)->tip)) {
        uint32_t x = select_tip(t);
        if (mm_at(t, x)->h.expanded || gts__enter(c, mm_at(t, x)->h.link.ply))
            break;
        ok = gts__bf_expand(t, x);
    }

    /* The result: the root child of the best explored minimax value, and
     * its line; under a limit depth = the line's length <= seldepth. */
    if (gts__bf_finish(t, r) && mm_at(t, 0)->h.n > 0) {
        const mm_node *root = mm_at(t, 0);
        uint32_t best = root->h.first;
        for (uint32_t i = 1; i < root->h.n; i++)
            if (mm_at(t, root->h.first + i)->value > mm_at(t, best)->value)
                best = root->h.first + i;
        r->best_move = mm_at(t, best)->h.link.move;
        r->score = mm_at(t, best)->value;
        gts__bf_line(t, best, mm_pv_child, r);
        /* The driver reports c->seldepth (expanded tips, quiescence):
         * raise it to the deepest child created, the PV's end included. */
        for (uint32_t i = 0; i < t->nnodes; i++)
            if (mm_at(t, i)->h.link.ply > c->seldepth)
                c->seldepth = mm_at(t, i)->h.link.ply;
        /* Every tip closed: the minimax value at the full depth is proved,
         * which is what an exact algorithm's depth says. */
        r->depth = isinf(mm_at(t, 0)->tip) ? lim->depth : (int32_t)r->pv_length;
    }
    gts__bf_free(t);
}
