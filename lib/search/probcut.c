/*
 * probcut.c - Buro's ProbCut and Multi-ProbCut, their parameters and the
 * least-squares calibration of their linear model.
 *
 * Papers: M. Buro, "ProbCut: An effective selective extension of the
 * alpha-beta algorithm", ICCA Journal 18(2), 1995; M. Buro, "Experiments
 * with Multi-ProbCut and a new high-quality evaluation function for
 * Othello", 1997. The deep value v of a node is modelled from a shallow
 * search value v' as v = a v' + b + e, e ~ N(0, sigma^2). Before the normal
 * search of a node with remaining depth d, each pair (d', d) runs
 *   - a null-window search of depth d' at ceil((t sigma + beta - b) / a):
 *     if it fails high, v >= beta is likely and the node returns beta;
 *   - a null-window search of depth d' at floor((-t sigma + alpha - b) / a):
 *     if it fails low, v <= alpha is likely and the node returns alpha.
 * The checks are themselves ProbCut searches (checks at their own depth
 * apply inside them, as in Multi-ProbCut); their depth is strictly smaller,
 * so the recursion ends.
 *
 * pc_node() is the node of gts__alphabeta() (node_search.h, in its PVS
 * form) with the ProbCut checks as its pre-moves step: with no enabled pair
 * it visits exactly the nodes gts_pvs() visits, in the same order, so an
 * infinite threshold gives PVS's score and node count (the tests check it).
 *
 * Invariants: no check at the root (it needs a move) nor against a decided
 * (win/loss) bound, and check bounds stay undecided; a cut stores nothing
 * in the transposition table (the table only ever holds searched bounds). The per-depth table of enabled
 * pairs is built once per iteration on the stack: no allocation per node.
 *
 * Concurrency contract: parameters live in the engine and are read once per
 * iteration; calibration runs ordinary searches on the engine and restores
 * every state it walks.
 */
#include "search/algos.h"
#include "search/node_search.h"
#include "struct_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- parameters ----------------------------------------------------------- */

static const int32_t DEFAULT_SHALLOW = 2;
static const int32_t DEFAULT_DEEP = 4;
static const double DEFAULT_SIGMA = 100.0;
static const double DEFAULT_THRESHOLD = 1.5;
/* Random play makes at most this many walks per requested sample. */
static const uint32_t WALKS_PER_SAMPLE = 4;
/* Fewest positions a straight line with a residual can be fitted to. */
static const uint32_t MIN_FIT_SAMPLES = 3;

static void defaults(gts_probcut_params *params)
{
    memset(params, 0, sizeof *params);
    params->struct_size = sizeof *params;
    params->npairs = 1;
    params->pair[0] = (gts_probcut_pair){
        .shallow_depth = DEFAULT_SHALLOW,
        .deep_depth = DEFAULT_DEEP,
        .a = 1.0,
        .b = 0.0,
        .sigma = DEFAULT_SIGMA,
        .threshold = DEFAULT_THRESHOLD,
    };
    params->iid = true;
}

gts_status gts_probcut_defaults(gts_probcut_params *params)
{
    if (!params)
        return GTS_EINVAL;
    gts_probcut_params p;
    size_t n;
    gts_status rc = gts__struct_check(gts__desc_probcut_params(), params, &n, NULL);
    if (rc != GTS_OK)
        return rc;
    defaults(&p);
    gts__struct_out(params, &p, n);
    return GTS_OK;
}

static bool pair_enabled(const gts_probcut_pair *p) { return p->threshold < GTS_PROBCUT_THRESHOLD_OFF; }

static gts_status check_pair(const gts_probcut_pair *p)
{
    if (p->shallow_depth < 0 || p->shallow_depth >= p->deep_depth
        || p->deep_depth > GTS_MAX_DEPTH)
        return GTS_ERANGE;
    if (!isfinite(p->a) || !(p->a > 0) || !isfinite(p->b))
        return GTS_ERANGE;
    if (!isfinite(p->sigma) || !(p->sigma > 0))
        return GTS_ERANGE;
    if (!(p->threshold >= 0)) /* rejects NaN too; +infinity disables */
        return GTS_ERANGE;
    return GTS_OK;
}

/* The parameters kept on the engine (gts_engine_set_probcut): ProbCut's
 * state (registry.c), made by the first call. */
static void *probcut_create(gts_engine *e)
{
    return gts__calloc(&e->alloc, 1, sizeof(gts_probcut_params));
}

static void probcut_release(gts_engine *e, void *state)
{
    gts__free(&e->alloc, state, sizeof(gts_probcut_params));
}

const gts__state_ops gts__probcut_state = {
    .create = probcut_create,
    .release = probcut_release,
};

gts_status gts_engine_set_probcut(gts_engine *engine, const gts_probcut_params *params)
{
    if (!engine)
        return GTS_EINVAL;
    /* NULL: the defaults; fields an older caller does not have keep them. */
    gts_probcut_params p;
    defaults(&p);
    const char *why = NULL;
    gts__engine_note(engine, NULL);
    if (params) {
        gts_status rc = gts__struct_in(gts__desc_probcut_params(), &p, params, &why);
        gts__engine_note(engine, why);
        if (rc != GTS_OK)
            return rc;
        if (p.npairs > GTS_PROBCUT_MAX_PAIRS)
            return GTS_ERANGE;
        for (uint32_t i = 0; i < p.npairs && rc == GTS_OK; i++)
            rc = check_pair(&p.pair[i]);
        if (rc != GTS_OK)
            return rc;
    }
    if (!gts__engine_claim(engine))
        return GTS_EBUSY;
    /* Back to the defaults needs no memory: an engine without kept
     * parameters has the defaults (engine_params). */
    gts_probcut_params *kept = params ? gts__engine_state_get(engine, &gts__probcut_state)
                                      : gts__engine_state(engine, &gts__probcut_state);
    if (kept)
        *kept = p;
    gts__engine_release(engine);
    return kept || !params ? GTS_OK : GTS_ENOMEM;
}

/* The engine's parameters; an engine that was never given any has the
 * defaults. */
static void engine_params(const gts_engine *engine, gts_probcut_params *out)
{
    const gts_probcut_params *kept = gts__engine_state(engine, &gts__probcut_state);
    if (!kept)
        defaults(out);
    else
        *out = *kept;
}

gts_status gts_engine_get_probcut(const gts_engine *engine, gts_probcut_params *params)
{
    if (!engine)
        return GTS_EINVAL;
    gts__engine_note(engine, NULL);
    if (!params)
        return GTS_EINVAL;
    gts_probcut_params p;
    size_t n;
    const char *why = NULL;
    gts_status rc = gts__struct_check(gts__desc_probcut_params(), params, &n, &why);
    gts__engine_note(engine, why);
    if (rc != GTS_OK)
        return rc;
    engine_params(engine, &p);
    gts__struct_out(params, &p, n);
    return GTS_OK;
}

/* ---- the search ------------------------------------------------------------ */

/* One iteration's view of the parameters: enabled pairs by deep depth. */
typedef struct pc_conf {
    gts_probcut_params p;
    uint16_t at_depth[GTS_MAX_DEPTH + 1]; /* bit i: pair i applies */
    bool iid;
} pc_conf;

_Static_assert(GTS_PROBCUT_MAX_PAIRS <= 16, "at_depth holds one bit per pair");

static void pc_conf_build(pc_conf *conf, const gts_engine *engine)
{
    engine_params(engine, &conf->p);
    memset(conf->at_depth, 0, sizeof conf->at_depth);
    for (uint32_t i = 0; i < conf->p.npairs; i++)
        if (pair_enabled(&conf->p.pair[i]))
            conf->at_depth[conf->p.pair[i].deep_depth] |= (uint16_t)(1u << i);
    conf->iid = conf->p.iid;
}

static gts_score pc_node(gts__ctx *c, const pc_conf *conf, int depth, int ply, gts_score alpha,
                         gts_score beta);

/* Checks never run against a decided (win/loss) bound, and their shallow
 * bounds stay in the undecided range: the linear model says nothing about
 * wins and losses, which only a search proves. */
static const gts_score PC_BOUND_MIN = -GTS_SCORE_DECIDED + 1;
static const gts_score PC_BOUND_MAX = GTS_SCORE_DECIDED - 1;
static bool undecided(gts_score s) { return s > -GTS_SCORE_DECIDED && s < GTS_SCORE_DECIDED; }

/* Step 4 of pc_node (pc_pre_moves): the checks of the pairs in @mask. Returns true with
 * *out set when one cuts. */
static bool pc_checks(gts__ctx *c, const pc_conf *conf, unsigned mask, int ply,
                      gts_score alpha, gts_score beta, gts_score *out)
{
    for (unsigned i = 0; mask; i++, mask >>= 1) {
        if (!(mask & 1u))
            continue;
        const gts_probcut_pair *p = &conf->p.pair[i];
        double ts = p->threshold * p->sigma;
        /* Is v >= beta likely? v' >= bound predicts it. */
        if (undecided(beta)) {
            double x = ceil((ts + beta - p->b) / p->a);
            if (x <= PC_BOUND_MAX) {
                gts_score bound = x > PC_BOUND_MIN ? (gts_score)x : PC_BOUND_MIN;
                gts_score v = pc_node(c, conf, p->shallow_depth, ply, bound - 1, bound);
                if (gts__aborted(c))
                    return false;
                if (v >= bound) {
                    *out = beta;
                    return true;
                }
            }
        }
        /* Is v <= alpha likely? v' <= bound predicts it. */
        if (undecided(alpha)) {
            double x = floor((-ts + alpha - p->b) / p->a);
            if (x >= PC_BOUND_MIN) {
                gts_score bound = x < PC_BOUND_MAX ? (gts_score)x : PC_BOUND_MAX;
                gts_score v = pc_node(c, conf, p->shallow_depth, ply, bound, bound + 1);
                if (gts__aborted(c))
                    return false;
                if (v <= bound) {
                    *out = alpha;
                    return true;
                }
            }
        }
    }
    return false;
}

/* Step 4 of the node (node_search.h): the ProbCut checks, never at the
 * root; when none cuts, the checks' best move orders the node (internal
 * iterative deepening, through the table). */
static bool pc_pre_moves(gts__ctx *c, const void *arg, int depth, int ply, gts_score alpha,
                         gts_score beta, uint64_t key, uint32_t *tt_move, gts_score *cut)
{
    const pc_conf *conf = arg;
    unsigned mask = depth <= GTS_MAX_DEPTH && ply > 0 ? conf->at_depth[depth] : 0;
    if (!mask)
        return false;
    if (pc_checks(c, conf, mask, ply, alpha, beta, cut))
        return true;
    if (gts__aborted(c)) {
        *cut = 0;
        return true;
    }
    c->pv_len[ply] = 0;
    gts__tt_hit hit;
    if (conf->iid && c->tt && gts__tt_probe_bucket(gts__ctx_bucket(c, key, depth), key, &hit))
        *tt_move = hit.move_index;
    return false;
}

static gts_score pc_child(gts__ctx *c, const void *arg, int depth, int ply, gts_score alpha,
                          gts_score beta)
{
    return pc_node(c, arg, depth, ply, alpha, beta);
}

static const gts__node_hooks PC_HOOKS = { .child = pc_child, .pre_moves = pc_pre_moves,
                                          .select = true };

static gts_score pc_node(gts__ctx *c, const pc_conf *conf, int depth, int ply, gts_score alpha,
                         gts_score beta)
{
    return gts__node_search(c, &PC_HOOKS, conf, depth, ply, alpha, beta, false);
}

gts_score gts__iterate_probcut(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    gts__ctx *c = run->ctx[0];
    pc_conf conf;
    pc_conf_build(&conf, run->engine);
    c->use_pvs = true; /* Buro's ProbCut sits on NegaScout */
    return pc_node(c, &conf, depth, 0, alpha, beta);
}

/* ---- calibration ----------------------------------------------------------- */

/* Running means and co-moments of (x, y) = (shallow, deep) (Welford). */
typedef struct fit_acc {
    uint32_t n;
    double mx, my, cxx, cyy, cxy;
} fit_acc;

static void fit_add(fit_acc *f, double x, double y)
{
    f->n++;
    double dx = x - f->mx;
    f->mx += dx / f->n;
    double dy = y - f->my;
    f->my += dy / f->n;
    f->cxx += dx * (x - f->mx);
    f->cyy += dy * (y - f->my);
    f->cxy += dx * (y - f->my);
}

static uint64_t pc_rng_next(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

typedef struct calib {
    gts_engine *engine;
    const gts_game *game;
    int32_t shallow, deep;
    gts_move *buf; /* max_moves */
    fit_acc acc;
    uint32_t skipped;
} calib;

static gts_status search_value(calib *k, void *state, int32_t depth, gts_score *v)
{
    gts_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.struct_size = sizeof lim;
    lim.depth = depth;
    gts_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    /* A forced result may end the iterations early: its score is still exact. */
    gts_status rc = gts_search(k->engine, GTS_ALG_PVS, k->game, state, &lim, &r);
    *v = r.score;
    return rc;
}

/* Add @state to the fit, or count it as skipped. */
static gts_status calib_sample(calib *k, void *state)
{
    int n = k->game->generate(state, k->buf, k->game->max_moves, k->game->user);
    if (n < 0)
        return GTS_ECALLBACK;
    if ((uint32_t)n > k->game->max_moves)
        return GTS_EMOVES;
    if (n == 0) {
        k->skipped++;
        return GTS_OK;
    }
    gts_score vs, vd;
    gts_status rc = search_value(k, state, k->shallow, &vs);
    if (rc == GTS_OK)
        rc = search_value(k, state, k->deep, &vd);
    if (rc != GTS_OK)
        return rc;
    if (gts_score_is_win(vs) || gts_score_is_loss(vs) || gts_score_is_win(vd)
        || gts_score_is_loss(vd)) {
        k->skipped++;
        return GTS_OK;
    }
    fit_add(&k->acc, vs, vd);
    return GTS_OK;
}

/* One random walk of up to @len plies from @root, the sample, and the way back. */
static gts_status calib_walk(calib *k, void *root, uint64_t *rng, uint32_t len, gts_move *path)
{
    const gts_game *g = k->game;
    gts_status rc = GTS_OK;
    uint32_t played = 0;
    bool finished = false;
    while (played < len) {
        int n = g->generate(root, k->buf, g->max_moves, g->user);
        if (n < 0 || (uint32_t)n > g->max_moves) {
            rc = n < 0 ? GTS_ECALLBACK : GTS_EMOVES;
            break;
        }
        if (n == 0) {
            finished = true;
            break;
        }
        gts_move m = k->buf[pc_rng_next(rng) % (uint64_t)n];
        if (g->apply(root, m, g->user) < 0) {
            rc = GTS_ECALLBACK;
            break;
        }
        path[played++] = m;
    }
    if (rc == GTS_OK) {
        if (finished)
            k->skipped++;
        else
            rc = calib_sample(k, root);
    }
    while (played > 0) {
        played--;
        if (g->undo(root, path[played], g->user) < 0 && rc == GTS_OK)
            rc = GTS_ECALLBACK;
    }
    return rc;
}

gts_status gts_probcut_calibrate(gts_engine *engine, const gts_game *caller_game,
                                 void *const *positions, size_t npositions, void *root,
                                 uint32_t samples, uint64_t seed, uint32_t max_walk,
                                 int32_t shallow_depth, int32_t deep_depth,
                                 gts_probcut_fit *caller_fit)
{
    /* Step 1. Arguments (full-size copies of the versioned structs) */
    if (!engine)
        return GTS_EINVAL;
    gts__engine_note(engine, NULL);
    if (!caller_game || !caller_fit || (!positions && !root))
        return GTS_EINVAL;
    gts_game vtable;
    const gts_game *game = &vtable;
    gts_probcut_fit out, *fit = &out;
    size_t fit_size;
    memset(&vtable, 0, sizeof vtable);
    memset(&out, 0, sizeof out);
    const char *why = NULL;
    gts_status st = gts__struct_check(gts__desc_probcut_fit(), caller_fit, &fit_size, &why);
    if (st == GTS_OK)
        st = gts__struct_in(gts__desc_game(), &vtable, caller_game, &why);
    gts__engine_note(engine, why);
    if (st != GTS_OK)
        return st;
    memcpy(&out, caller_fit, fit_size);
    if (!game->generate || !game->apply || !game->undo || !game->evaluate)
        return GTS_EINVAL;
    if (game->max_moves == 0)
        return GTS_ERANGE;
    if (positions ? npositions == 0 : samples == 0)
        return GTS_EINVAL;
    if (shallow_depth < 1 || shallow_depth >= deep_depth || deep_depth > GTS_MAX_DEPTH)
        return GTS_ERANGE;
    if (!positions && max_walk > GTS_MAX_PLY)
        return GTS_ERANGE;
    if (positions)
        for (size_t i = 0; i < npositions; i++)
            if (!positions[i])
                return GTS_EINVAL;
    if (gts__engine_held(engine))
        return GTS_EBUSY;

    calib k;
    memset(&k, 0, sizeof k);
    k.engine = engine;
    k.game = game;
    k.shallow = shallow_depth;
    k.deep = deep_depth;
    const gts_allocator *alloc = &engine->alloc;
    size_t buf_bytes = (size_t)game->max_moves * sizeof *k.buf;
    size_t path_bytes = ((size_t)max_walk + 1) * sizeof(gts_move);
    k.buf = gts__malloc(alloc, buf_bytes);
    gts_move *path = positions ? NULL : gts__malloc(alloc, path_bytes);
    gts_status rc = k.buf && (positions || path) ? GTS_OK : GTS_ENOMEM;

    /* Step 2. Samples: the caller's positions, or random play from root */
    if (positions) {
        for (size_t i = 0; i < npositions && rc == GTS_OK; i++)
            rc = calib_sample(&k, positions[i]);
    } else {
        uint64_t rng = seed;
        uint64_t walks = (uint64_t)samples * WALKS_PER_SAMPLE;
        for (uint64_t w = 0; w < walks && k.acc.n < samples && rc == GTS_OK; w++) {
            uint32_t len = (uint32_t)(pc_rng_next(&rng) % ((uint64_t)max_walk + 1));
            rc = calib_walk(&k, root, &rng, len, path);
        }
    }
    gts__free(alloc, k.buf, buf_bytes);
    gts__free(alloc, path, path_bytes);
    if (rc != GTS_OK)
        return rc;

    /* Step 3. Least squares: deep = a * shallow + b */
    const fit_acc *f = &k.acc;
    fit->samples = f->n;
    fit->skipped = k.skipped;
    if (f->n < MIN_FIT_SAMPLES || !(f->cxx > 0)) {
        gts__struct_out(caller_fit, fit, fit_size);
        return GTS_ERANGE;
    }
    fit->a = f->cxy / f->cxx;
    fit->b = f->my - fit->a * f->mx;
    double sse = f->cyy - fit->a * f->cxy;
    fit->sigma = sqrt((sse > 0 ? sse : 0) / (f->n - 2));
    fit->r2 = f->cyy > 0 ? (f->cxy * f->cxy) / (f->cxx * f->cyy) : 0;
    gts__struct_out(caller_fit, fit, fit_size);
    return GTS_OK;
}
