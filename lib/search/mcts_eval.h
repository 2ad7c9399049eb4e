/*
 * mcts_eval.h - MCTS with a batch evaluator (PUCT, issue 34): the
 * evaluator kept on the engine, the per-worker batch of pending leaves,
 * root noise and the temperature draw (internal; mcts_eval.c). The tree
 * side (collecting leaves, expanding them with priors, backing values up)
 * is in mcts.c, which owns the nodes; this module knows no node.
 *
 * A batch has @cap slots. Slot 0 is the worker's own game state, the
 * others are clones of it made at the start of a search (at the root), so
 * every pending leaf keeps its position until the evaluator has seen it;
 * a slot's state walks down its path and back up again, as the worker's
 * state does without batching. Each slot holds the path of tree nodes
 * (opaque here) and the leaf's moves; the evaluator's arrays are flat.
 */
#ifndef GTS_SEARCH_MCTS_EVAL_H
#define GTS_SEARCH_MCTS_EVAL_H

#include "search/node.h"

typedef struct gts__ev_batch {
    gts_eval_batch b;       /* what the evaluator sees (n, arrays below) */
    uint32_t cap;           /* slots */
    uint32_t max_moves;     /* per slot */
    void **states;          /* [cap]: slot 0 the worker's, others clones */
    uint32_t *offsets;      /* [cap + 1] */
    gts_move *moves;        /* [cap * max_moves] */
    float *values;          /* [cap] */
    float *priors;          /* [cap * max_moves] */
    void **paths;           /* [cap * (GTS_MAX_PLY + 1)]: the tree nodes of each slot */
    int *plies;             /* [cap]: ply of each slot's leaf */
    bool *claimed;          /* [cap]: the leaf was claimed (state EXPANDING) */
    /* Descents that collided with a queued leaf, whose virtual losses stay
     * until the batch is done (so that the next descents go elsewhere) */
    void **cpaths;          /* [cap * (GTS_MAX_PLY + 1)] */
    int *cplies;            /* [cap] */
    uint32_t ncoll;
    const gts_game *game;
    const gts_allocator *alloc;
} gts__ev_batch;

/* The evaluator set on @e (gts_engine_set_evaluator), NULL when none. */
const gts_evaluator *gts__mcts_evaluator(const gts_engine *e);

/* A batch of @cap slots for the worker of context @c (at the root).
 * False when memory or a clone failed (recorded in @c). */
bool gts__ev_init(gts__ev_batch *eb, gts__ctx *c, uint32_t cap);
/* Free what gts__ev_init made (a zeroed batch is fine). */
void gts__ev_free(gts__ev_batch *eb);

/* Open the next slot with the leaf's @n moves; its index. */
uint32_t gts__ev_add(gts__ev_batch *eb, const gts_move *moves, uint32_t n);

/* The path array of slot @k. */
static inline void **gts__ev_path(gts__ev_batch *eb, uint32_t k)
{
    return eb->paths + (size_t)k * (GTS_MAX_PLY + 1);
}

/* The path array of collision @k. */
static inline void **gts__ev_cpath(gts__ev_batch *eb, uint32_t k)
{
    return eb->cpaths + (size_t)k * (GTS_MAX_PLY + 1);
}

/* Call the evaluator on the open slots and check its answer: values in
 * [-1, 1], priors normalised per slot (uniform when all are 0). False
 * after a failure, recorded in @c (GTS_ECALLBACK with the callback's
 * status, or -1 for an answer out of range). */
bool gts__ev_run(gts__ev_batch *eb, const gts_evaluator *ev, gts__ctx *c);

/* Mix Dirichlet(@alpha) noise into the @n priors @p with weight @frac,
 * from the random stream *@rng. */
void gts__ev_noise(float *p, uint32_t n, double alpha, double frac, uint64_t *rng);

/* Index drawn with probability proportional to visits[i]^(1 / @t) among
 * the @n entries (those with visits; entry i at @visits + i * @stride
 * bytes), from @seed; -1 when none has visits. */
int gts__ev_draw(const uint64_t *visits, size_t stride, uint32_t n, double t, uint64_t seed);

/* PUCT's score of a child with mean @q, prior @p and @nv visits under a
 * parent with sqrt(N) = @sqrt_np. */
static inline double gts__puct(double q, double p, double nv, double sqrt_np, double cpuct)
{
    return q + cpuct * p * sqrt_np / (1.0 + nv);
}

#endif
