/*
 * mcts_eval.c - the batch evaluator of MCTS (issue 34): the evaluator kept
 * on the engine (gts_engine_set_evaluator), the batch of pending leaves
 * each worker fills, the call and the check of its answer, Dirichlet noise
 * for the root's priors and the temperature draw of the move to play.
 *
 * Concurrency contract. The evaluator is set only while no search runs
 * (the engine is claimed); a search reads it. Each worker owns its batch:
 * its states, arrays and the call; evaluate() may therefore run on several
 * workers at once, each with its own gts_eval_batch.
 *
 * Invariants: a slot's state is at the root whenever its slot is closed
 * (mcts.c undoes each path after the call, or when the search unwinds);
 * the library's arrays are what evaluate() sees, valid during the call.
 */
#include "search/mcts_eval.h"
#include "rng_internal.h"
#include "struct_internal.h"

#include <math.h>
#include <string.h>

/* ---- the evaluator on the engine -------------------------------------------- */

static void *ev_state_create(gts_engine *e)
{
    return gts__calloc(&e->alloc, 1, sizeof(gts_evaluator));
}

static void ev_state_release(gts_engine *e, void *state)
{
    gts__free(&e->alloc, state, sizeof(gts_evaluator));
}

/* The engine's evaluator: configuration, so gts_engine_clear() keeps it. */
static const gts__state_ops ev_state = {
    .create = ev_state_create,
    .release = ev_state_release,
};

const gts_evaluator *gts__mcts_evaluator(const gts_engine *e)
{
    const gts_evaluator *ev = gts__engine_state(e, &ev_state);
    return ev && ev->evaluate ? ev : NULL;
}

gts_status gts_engine_set_evaluator(gts_engine *engine, const gts_evaluator *evaluator)
{
    if (!engine)
        return GTS_EINVAL;
    gts__engine_note(engine, NULL);
    gts_evaluator ev = {.struct_size = sizeof ev};
    if (evaluator) {
        const char *why = NULL;
        gts_status rc = gts__struct_in(gts__desc_evaluator(), &ev, evaluator, &why);
        gts__engine_note(engine, why);
        if (rc != GTS_OK)
            return rc;
        if (!ev.evaluate)
            return GTS_EINVAL;
    }
    /* Removing needs no memory: an engine without the slot has none. */
    return gts__engine_state_set(engine, &ev_state, &ev, sizeof ev, evaluator != NULL);
}

/* ---- the batch ------------------------------------------------------------------ */

bool gts__ev_init(gts__ev_batch *eb, gts__ctx *c, uint32_t cap)
{
    const gts_allocator *a = c->alloc;
    memset(eb, 0, sizeof *eb);
    eb->game = c->game;
    eb->alloc = a;
    eb->cap = cap;
    eb->max_moves = c->game->max_moves;
    size_t slots = (size_t)cap * eb->max_moves;
    eb->states = gts__calloc(a, cap, sizeof *eb->states);
    eb->offsets = gts__calloc(a, (size_t)cap + 1, sizeof *eb->offsets);
    eb->moves = gts__calloc(a, slots, sizeof *eb->moves);
    eb->values = gts__calloc(a, cap, sizeof *eb->values);
    eb->priors = gts__calloc(a, slots, sizeof *eb->priors);
    eb->paths = gts__calloc(a, (size_t)cap * (GTS_MAX_PLY + 1), sizeof *eb->paths);
    eb->plies = gts__calloc(a, cap, sizeof *eb->plies);
    eb->claimed = gts__calloc(a, cap, sizeof *eb->claimed);
    eb->cpaths = gts__calloc(a, (size_t)cap * (GTS_MAX_PLY + 1), sizeof *eb->cpaths);
    eb->cplies = gts__calloc(a, cap, sizeof *eb->cplies);
    if (!eb->states || !eb->offsets || !eb->moves || !eb->values || !eb->priors || !eb->paths
        || !eb->plies || !eb->claimed || !eb->cpaths || !eb->cplies) {
        gts__fail(c, GTS_ENOMEM, 0);
        return false;
    }
    eb->states[0] = c->state;
    for (uint32_t k = 1; k < cap; k++) {
        eb->states[k] = c->game->clone(c->state, c->user);
        if (!eb->states[k]) {
            gts__fail(c, GTS_ECALLBACK, -1);
            return false;
        }
    }
    eb->b.struct_size = sizeof eb->b;
    eb->b.states = eb->states;
    eb->b.offsets = eb->offsets;
    eb->b.moves = eb->moves;
    eb->b.values = eb->values;
    eb->b.priors = eb->priors;
    return true;
}

void gts__ev_free(gts__ev_batch *eb)
{
    const gts_allocator *a = eb->alloc;
    if (!a)
        return;
    size_t slots = (size_t)eb->cap * eb->max_moves;
    if (eb->states)
        for (uint32_t k = 1; k < eb->cap; k++)
            if (eb->states[k])
                eb->game->free(eb->states[k], eb->game->user);
    gts__free(a, eb->states, (size_t)eb->cap * sizeof *eb->states);
    gts__free(a, eb->offsets, ((size_t)eb->cap + 1) * sizeof *eb->offsets);
    gts__free(a, eb->moves, slots * sizeof *eb->moves);
    gts__free(a, eb->values, (size_t)eb->cap * sizeof *eb->values);
    gts__free(a, eb->priors, slots * sizeof *eb->priors);
    gts__free(a, eb->paths, (size_t)eb->cap * (GTS_MAX_PLY + 1) * sizeof *eb->paths);
    gts__free(a, eb->plies, (size_t)eb->cap * sizeof *eb->plies);
    gts__free(a, eb->claimed, (size_t)eb->cap * sizeof *eb->claimed);
    gts__free(a, eb->cpaths, (size_t)eb->cap * (GTS_MAX_PLY + 1) * sizeof *eb->cpaths);
    gts__free(a, eb->cplies, (size_t)eb->cap * sizeof *eb->cplies);
    memset(eb, 0, sizeof *eb);
}

uint32_t gts__ev_add(gts__ev_batch *eb, const gts_move *moves, uint32_t n)
{
    uint32_t k = eb->b.n++;
    uint32_t off = eb->offsets[k];
    memcpy(eb->moves + off, moves, (size_t)n * sizeof *moves);
    float u = 1.0f / (float)n;
    for (uint32_t i = 0; i < n; i++)
        eb->priors[off + i] = u;
    eb->values[k] = 0.0f;
    eb->offsets[k + 1] = off + n;
    return k;
}

bool gts__ev_run(gts__ev_batch *eb, const gts_evaluator *ev, gts__ctx *c)
{
    gts_eval_batch *b = &eb->b;
    int rc = ev->evaluate(b, ev->ctx);
    if (rc < 0) {
        gts__fail(c, GTS_ECALLBACK, rc);
        return false;
    }
    /* Step 2. Check the answer; normalise each position's priors. */
    for (uint32_t k = 0; k < b->n; k++) {
        float v = eb->values[k];
        if (!(v >= -1.0f && v <= 1.0f)) { /* NaN too */
            gts__fail(c, GTS_ECALLBACK, -1);
            return false;
        }
        double sum = 0.0;
        uint32_t lo = eb->offsets[k], hi = eb->offsets[k + 1];
        for (uint32_t i = lo; i < hi; i++) {
            float p = eb->priors[i];
            if (!(p >= 0.0f) || isinf(p)) {
                gts__fail(c, GTS_ECALLBACK, -1);
                return false;
            }
            sum += p;
        }
        for (uint32_t i = lo; i < hi; i++)
            eb->priors[i] = sum > 0.0 ? (float)(eb->priors[i] / sum) : 1.0f / (float)(hi - lo);
    }
    return true;
}

/* ---- random draws (rng_internal.h, on the caller's stream) ---------------------- */

/* Uniform in (0, 1). */
static double ev_uniform(uint64_t *rng)
{
    return ((double)(gts__rng_next(rng) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* Standard normal (Box-Muller, one of the pair). */
static double ev_normal(uint64_t *rng)
{
    double u = ev_uniform(rng), v = ev_uniform(rng);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* Gamma(@a, 1): Marsaglia & Tsang (2000); for a < 1 the boost
 * Gamma(a) = Gamma(a + 1) * U^(1/a). */
static double ev_gamma(double a, uint64_t *rng)
{
    double boost = 1.0;
    if (a < 1.0) {
        boost = pow(ev_uniform(rng), 1.0 / a);
        a += 1.0;
    }
    double d = a - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x = ev_normal(rng), v = 1.0 + c * x;
        if (v <= 0.0)
            continue;
        v = v * v * v;
        double u = ev_uniform(rng);
        if (log(u) < 0.5 * x * x + d - d * v + d * log(v))
            return boost * d * v;
    }
}

void gts__ev_noise(float *p, uint32_t n, double alpha, double frac, uint64_t *rng)
{
    if (n == 0 || frac <= 0.0)
        return;
    /* Two passes over the same draws (no scratch memory): the sum, then
     * each share. */
    uint64_t start = *rng;
    double sum = 0.0;
    for (uint32_t i = 0; i < n; i++)
        sum += ev_gamma(alpha, rng);
    *rng = start;
    for (uint32_t i = 0; i < n; i++) {
        double g = ev_gamma(alpha, rng);
        double d = sum > 0.0 ? g / sum : 1.0 / n;
        p[i] = (float)((1.0 - frac) * p[i] + frac * d);
    }
}

/* Entry @i of visit counts @stride bytes apart. */
static inline uint64_t ev_visits(const uint64_t *visits, size_t stride, uint32_t i)
{
    return *(const uint64_t *)(const void *)((const char *)visits + (size_t)i * stride);
}

int gts__ev_draw(const uint64_t *visits, size_t stride, uint32_t n, double t, uint64_t seed)
{
    double max = 0.0;
    for (uint32_t i = 0; i < n; i++)
        if ((double)ev_visits(visits, stride, i) > max)
            max = (double)ev_visits(visits, stride, i);
    if (max <= 0.0)
        return -1;
    /* weights (v / max)^(1/t), in (0, 1]: no overflow at small t */
    double total = 0.0;
    for (uint32_t i = 0; i < n; i++)
        if (ev_visits(visits, stride, i))
            total += pow((double)ev_visits(visits, stride, i) / max, 1.0 / t);
    uint64_t rng = seed;
    double x = ev_uniform(&rng) * total;
    int last = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (!ev_visits(visits, stride, i))
            continue;
        last = (int)i;
        x -= pow((double)ev_visits(visits, stride, i) / max, 1.0 / t);
        if (x < 0.0)
            return (int)i;
    }
    return last;
}
