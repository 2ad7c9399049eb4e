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
#include <string.h>

typedef struct mm_node {
    gts__bf_link link;
    int32_t depth;     /* remaining depth */
    uint32_t first, n; /* children, once expanded */
    gts_score value;   /* minimax over the explored tree, MAX's side */
    double la;         /* log a: what the parent's mean sees of this node */
    double lm;         /* expanded: log M_q of the children's a */
    double tip;        /* least penalty to an open tip below (INFINITY: none) */
    bool expanded;
} mm_node;

typedef struct mm {
    gts__ctx *c;
    const gts_allocator *alloc;
    mm_node *node;
    uint32_t nnodes, cap;
    size_t max_bytes;
    double p, scale;
    bool mean; /* generalized-mean back-up, else the reverse approximation */
    bool full;
    gts__bf_walk walk;
} mm;

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
static double exponent(const mm *s, uint32_t x)
{
    return s->node[x].link.ply % 2 == 0 ? s->p : -s->p;
}

/* Penalty of the edge from the expanded node @x to its child @k. */
static double penalty(const mm *s, uint32_t x, uint32_t k)
{
    return gts__mma_penalty(s->node[k].la, s->node[x].lm, s->node[x].n, exponent(s, x));
}

/* Recompute node @x from its children, then every ancestor: minimax
 * value, log M_q, log a (by the variant) and b (least penalty to a tip). */
static void back_up(mm *s, uint32_t x)
{
    for (;;) {
        mm_node *nd = &s->node[x];
        bool max = nd->link.ply % 2 == 0;
        gts_score v = max ? -GTS_SCORE_INF : GTS_SCORE_INF;
        for (uint32_t i = 0; i < nd->n; i++) {
            const mm_node *ch = &s->node[nd->first + i];
            if (max ? ch->value > v : ch->value < v)
                v = ch->value;
        }
        nd->value = v;
        nd->lm = gts__mma_log_mean(&s->node[nd->first].la, sizeof(mm_node), nd->n,
                                   exponent(s, x));
        nd->la = s->mean ? nd->lm : gts__mma_log_unit(v, s->scale);
        double tip = INFINITY;
        for (uint32_t i = 0; i < nd->n; i++) {
            uint32_t k = nd->first + i;
            if (isinf(s->node[k].tip))
                continue;
            double t = penalty(s, x, k) + s->node[k].tip;
            if (t < tip)
                tip = t;
        }
        nd->tip = tip;
        if (nd->link.parent == GTS__BF_NONE)
            return;
        x = nd->link.parent;
    }
}

/* The static value of the node the state is at, from MAX's side: the
 * minimax leaf value (quiescence included when it is on) once @depth is
 * used up. */
static gts_score static_value(mm *s, int ply, int depth)
{
    gts_score v = gts__bf_static_value(s->c, ply, depth);
    return ply % 2 == 0 ? v : -v;
}

/* An open tip's static value, clamped into what it can still score (mate
 * distance and the game's bounds()); a range closed to one value closes
 * the tip. The state is at the tip. False after a failure (recorded). */
static bool tip_bounds(mm *s, mm_node *tip)
{
    gts__ctx *c = s->c;
    int ply = tip->link.ply;
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

/* A child of an expansion (gts__bf_child_fn): its static value, closed at
 * the horizon, clamped into bounds() when open. */
static bool new_child(void *tree, uint32_t k, const gts__bf_link *link, int depth)
{
    mm *s = tree;
    mm_node *ch = &s->node[s->nnodes + k];
    memset(ch, 0, sizeof *ch);
    ch->link = *link;
    ch->depth = depth;
    bool closed = depth <= 0 || link->ply >= GTS_MAX_PLY;
    ch->value = static_value(s, link->ply, depth);
    ch->tip = closed ? INFINITY : 0;
    bool ok = closed || tip_bounds(s, ch);
    ch->la = gts__mma_log_unit(ch->value, s->scale);
    ch->expanded = isinf(ch->tip);
    return ok;
}

static bool expand(mm *s, uint32_t x)
{
    gts__ctx *c = s->c;
    if (!gts__bf_go(&s->walk, x))
        return false;
    int ply = s->node[x].link.ply;
    int n = gts__generate(c, ply, false);
    if (n < 0)
        return false;
    if (n == 0) {
        gts_score v = static_value(s, ply, s->node[x].depth);
        s->node[x].value = v;
        s->node[x].la = gts__mma_log_unit(v, s->scale);
        s->node[x].tip = INFINITY;
        s->node[x].expanded = true;
        if (s->node[x].link.parent != GTS__BF_NONE)
            back_up(s, s->node[x].link.parent);
        return !gts__aborted(c);
    }
    if (!gts__bf_grow(s->alloc, (void **)&s->node, &s->cap, s->nnodes + (uint32_t)n,
                      sizeof *s->node, s->max_bytes)) {
        s->full = true;
        return false;
    }
    s->walk.base = (const char *)s->node;
    uint32_t first = s->nnodes;
    if (!gts__bf_children(c, x, ply, s->node[x].depth, n, new_child, s))
        return false;
    s->nnodes += (uint32_t)n;
    s->node[x].first = first;
    s->node[x].n = (uint32_t)n;
    s->node[x].expanded = true;
    back_up(s, x);
    return true;
}

/* The open tip of least total penalty from the root (ties: the first). */
static uint32_t select_tip(const mm *s)
{
    uint32_t x = 0;
    while (s->node[x].expanded) {
        uint32_t best = GTS__BF_NONE;
        double best_t = INFINITY;
        for (uint32_t i = 0; i < s->node[x].n; i++) {
            uint32_t k = s->node[x].first + i;
            if (isinf(s->node[k].tip))
                continue;
            double t = penalty(s, x, k) + s->node[k].tip;
            if (best == GTS__BF_NONE || t < best_t) {
                best = k;
                best_t = t;
            }
        }
        if (best == GTS__BF_NONE)
            break; /* cannot happen: x's b is finite */
        x = best;
    }
    return x;
}

void gts__run_mma(gts__run *run, const gts_limits *lim, gts_result *r)
{
    gts_engine *e = run->engine;
    gts__ctx *c = run->ctx[0];
    mm s;
    memset(&s, 0, sizeof s);
    s.c = c;
    s.alloc = &e->alloc;
    s.max_bytes = (size_t)e->tree_mb << 20;
    s.p = (double)e->mma_p / 10.0;
    s.scale = (double)e->mma_scale;
    s.mean = e->mma_backup == GTS_MMA_MEAN;
    s.walk.c = c;
    s.walk.stride = sizeof(mm_node);
    if (!gts__bf_grow(s.alloc, (void **)&s.node, &s.cap, 1, sizeof *s.node, s.max_bytes)) {
        r->flags |= GTS_RESULT_MEMORY_LIMIT;
        return; /* the driver's fallback move stands */
    }
    s.walk.base = (const char *)s.node;
    memset(&s.node[0], 0, sizeof s.node[0]);
    s.node[0].link.parent = GTS__BF_NONE;
    s.node[0].depth = lim->depth;
    s.nnodes = 1;

    /* Expand the least-penalty tip until none is open or a limit. */
    bool ok = expand(&s, 0);
    while (ok && !isinf(s.node[0].tip)) {
        uint32_t x = select_tip(&s);
        if (s.node[x].expanded || gts__enter(c, s.node[x].link.ply))
            break;
        ok = expand(&s, x);
    }
    gts__bf_undo_to(&s.walk, 0);
    if (s.full)
        r->flags |= GTS_RESULT_MEMORY_LIMIT;

    /* The result: the root child of the best explored minimax value, and
     * its line; under a limit depth = the line's length <= seldepth. */
    bool failed = gts__aborted(c) && gts__run_why(c->shared) == 0 && !s.full;
    if (!failed && s.node[0].n > 0) {
        const mm_node *root = &s.node[0];
        uint32_t best = root->first;
        for (uint32_t i = 1; i < root->n; i++)
            if (s.node[root->first + i].value > s.node[best].value)
                best = root->first + i;
        r->best_move = s.node[best].link.move;
        r->score = s.node[best].value;
        r->pv_length = 0;
        for (uint32_t x = best; r->pv_length < GTS_MAX_PLY;) {
            r->pv[r->pv_length++] = s.node[x].link.move;
            const mm_node *nd = &s.node[x];
            if (nd->n == 0)
                break;
            bool max = nd->link.ply % 2 == 0;
            uint32_t b = nd->first;
            for (uint32_t i = 1; i < nd->n; i++) {
                gts_score v = s.node[nd->first + i].value;
                if (max ? v > s.node[b].value : v < s.node[b].value)
                    b = nd->first + i;
            }
            x = b;
        }
        /* The driver reports c->seldepth (expanded tips, quiescence):
         * raise it to the deepest child created, the PV's end included. */
        for (uint32_t i = 0; i < s.nnodes; i++)
            if (s.node[i].link.ply > c->seldepth)
                c->seldepth = s.node[i].link.ply;
        /* Every tip closed: the minimax value at the full depth is proved,
         * which is what an exact algorithm's depth says. */
        r->depth = isinf(s.node[0].tip) ? lim->depth : (int32_t)r->pv_length;
    }
    gts__free(s.alloc, s.node, (size_t)s.cap * sizeof *s.node);
}
