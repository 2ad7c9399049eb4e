/*
 * alphabeta.c - fail-soft alpha-beta and PVS (NegaScout); quiescence is
 * node.c's (gts__qsearch).
 *
 * One node function serves both (c->use_pvs selects PVS): the node of
 * node_search.h, which ProbCut instantiates too, with no hook of its own.
 *
 * This is the serial search the parallel algorithms run below their split
 * points, so it reads every per-thread input from the context only.
 */
#include "search/algos.h"
#include "search/node_search.h"

/* Three instances of the node: the general one, a lean one for the
 * plain serial case (gts__lean_ok: no split point, virtual clock,
 * extension, quiescence, n-best pruning or selective search), which leaves
 * out those tests at every node, and a selective one (c->selective: null
 * move, reductions, pruning, repetition draws; doc/architecture.md,
 * "Selective search"), so that the other two pay nothing for it. Each
 * recurses into itself; gts__alphabeta picks one per call from outside,
 * and the context cannot change kind inside a serial search. */
static gts_score ab_node(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta);
static gts_score ab_node_lean(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta);
static gts_score ab_node_select(gts__ctx *c, int depth, int ply, gts_score alpha,
                                gts_score beta);

static gts_score ab_child(gts__ctx *c, const void *arg, int depth, int ply, gts_score alpha,
                          gts_score beta)
{
    (void)arg;
    return ab_node(c, depth, ply, alpha, beta);
}

static gts_score ab_child_lean(gts__ctx *c, const void *arg, int depth, int ply,
                               gts_score alpha, gts_score beta)
{
    (void)arg;
    return ab_node_lean(c, depth, ply, alpha, beta);
}

static gts_score ab_child_select(gts__ctx *c, const void *arg, int depth, int ply,
                                 gts_score alpha, gts_score beta)
{
    (void)arg;
    return ab_node_select(c, depth, ply, alpha, beta);
}

static const gts__node_hooks AB_HOOKS = { .child = ab_child };
static const gts__node_hooks AB_HOOKS_LEAN = { .child = ab_child_lean };
static const gts__node_hooks AB_HOOKS_SELECT = { .child = ab_child_select, .select = true };

static gts_score ab_node(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta)
{
    return gts__node_search(c, &AB_HOOKS, NULL, depth, ply, alpha, beta, false);
}

static gts_score ab_node_lean(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta)
{
    return gts__node_search(c, &AB_HOOKS_LEAN, NULL, depth, ply, alpha, beta, true);
}

static gts_score ab_node_select(gts__ctx *c, int depth, int ply, gts_score alpha,
                                gts_score beta)
{
    return gts__node_search(c, &AB_HOOKS_SELECT, NULL, depth, ply, alpha, beta, false);
}

gts_score gts__alphabeta(gts__ctx *c, int depth, int ply, gts_score alpha, gts_score beta)
{
    return gts__lean_ok(c)  ? ab_node_lean(c, depth, ply, alpha, beta)
           : c->selective ? ab_node_select(c, depth, ply, alpha, beta)
                          : ab_node(c, depth, ply, alpha, beta);
}

gts_score gts__iterate_alphabeta(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    run->ctx[0]->use_pvs = false;
    return gts__alphabeta(run->ctx[0], depth, 0, alpha, beta);
}

gts_score gts__iterate_pvs(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    run->ctx[0]->use_pvs = true;
    return gts__alphabeta(run->ctx[0], depth, 0, alpha, beta);
}
