/*
 * lazysmp.c - Lazy SMP: helper threads search the same root at the same
 * depth as the main thread, sharing nothing but the transposition table.
 *
 * What. Thread 0 (the caller's thread) runs the serial PVS (gts__alphabeta)
 * on the caller's state, exactly as gts_pvs would. Each helper runs its own
 * PVS of the same root, at the SAME depth, with a varied move order near the
 * root so that the helpers spread over different subtrees: at the first
 * LAZY_VARY_PLIES plies, helper h keeps the best-ordered move first and
 * rotates the others by a helper- and node-dependent amount. Whatever the
 * helpers finish goes into the table, where the main thread finds it. When
 * the main thread's search returns, the helpers are aborted and joined; the
 * reported result is the main thread's.
 *
 * What is guaranteed (and why helpers never search deeper). The table
 * cutoff rule is `entry.depth >= depth`. A helper at depth + 1 would store
 * bounds of deeper searches, which the main thread would take at nodes of
 * smaller remaining depth: the depth-limited value could change. Helpers of
 * this implementation search only the main thread's iteration depth, so
 * every entry they store is a correct bound of that node searched to exactly
 * the remaining depth the main thread would give it (in games where a
 * position's distance from the root fixes the remaining depth, as in all
 * built-in games; otherwise table use is as (in)exact as in serial search).
 * Hence: the score is the minimax value at the reported depth, and the best
 * move is a move of that value, as with gts_pvs. Entries of the previous
 * iteration are shallower and cannot cut. Aborted searches store nothing.
 * Only ordering differs between threads, and ordering never changes a value.
 *
 * Work classification: thread 0's nodes are mandatory, the helpers' nodes
 * speculative, and a helper search aborted at the end counts as wasted.
 *
 * Concurrency contract: threads share only the lock-free table; each helper
 * uses its own context and state copy. Node frames never wait.
 */
#include "search/parallel.h"

/* Plies from the root at which helpers reorder moves. */
enum { LAZY_VARY_PLIES = 3 };

typedef struct lazy_args {
    int depth;
    gts_score alpha, beta, score;
} lazy_args;

static gts_score lazy_search(gts__pw *pw, int helper, int depth, int ply, gts_score alpha,
                             gts_score beta);

static gts_score lazy_child(gts__pw *pw, int helper, int depth, int ply, gts_score alpha,
                            gts_score beta)
{
    if (ply < LAZY_VARY_PLIES && depth >= 2)
        return lazy_search(pw, helper, depth, ply, alpha, beta);
    return gts__alphabeta(pw->c, depth, ply, alpha, beta);
}

/* PVS node of a helper: the usual order, rotated after the first move. */
static gts_score lazy_search(gts__pw *pw, int helper, int depth, int ply, gts_score alpha,
                             gts_score beta)
{
    gts__ctx *c = pw->c;

    /* Steps 1-3. Stop, limits, horizon, table, moves (then this helper's
     * order: rotated after the first) */
    gts__par_node pn;
    gts_score s;
    if (!gts__par_open(pw, depth, ply, &alpha, &beta, &pn, &s))
        return s;
    gts__arena_mark am = pn.am;
    uint64_t key = pn.key;
    gts_move *moves = pn.moves;
    uint32_t *idx = pn.idx;
    int limit = gts__par_limit(c, depth, pn.n);
    int rot = limit > 2 ? (int)((uint32_t)(helper * 7 + ply * 3 + (int)(key & 15)) % (uint32_t)(limit - 1))
                        : 0;

    /* Step 4. Children, PVS */
    gts_score best = -GTS_SCORE_INF;
    uint32_t best_index = GTS__TT_NO_MOVE;
    gts_score a = alpha;
    for (int j = 0; j < limit; j++) {
        int k = j == 0 ? 0 : 1 + (j - 1 + rot) % (limit - 1);
        gts_move m = moves[k];
        int ext = gts__extension(c, m);
        if (ext < 0 || !gts__apply(c, m)) {
            gts__pw_release(pw, am);
            return 0;
        }
        int d = depth - 1 + ext;
        if (j == 0) {
            s = -lazy_child(pw, helper, d, ply + 1, -beta, -a);
        } else {
            s = -lazy_child(pw, helper, d, ply + 1, -a - 1, -a);
            if (s > a && s < beta && !gts__aborted(c))
                s = -lazy_child(pw, helper, d, ply + 1, -beta, -a);
        }
        gts__undo(c, m);
        if (gts__aborted(c)) {
            gts__pw_release(pw, am);
            return 0;
        }
        if (s > best) {
            best = s;
            best_index = idx[k];
            if (s > a) {
                a = s;
                gts__pv_update(c, ply, m);
                if (s >= beta) {
                    gts__order_cutoff(c, ply, depth, m);
                    break;
                }
            }
        }
    }

    /* Step 5. Store */
    gts__pw_release(pw, am);
    gts__tt_save(c, key, depth, ply, alpha, beta, best, best_index);
    return best;
}

static void lazy_main(gts__pw *pw, void *arg)
{
    lazy_args *a = arg;
    a->score = gts__alphabeta(pw->c, a->depth, 0, a->alpha, a->beta);
}

static void lazy_helper(gts__pw *pw, int helper, void *arg)
{
    lazy_args *a = arg;
    lazy_search(pw, helper, a->depth, 0, a->alpha, a->beta);
}

gts_score gts__iterate_lazysmp(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    gts__par par;
    if (!gts__par_begin(&par, run))
        return 0;
    lazy_args a = {depth, alpha, beta, 0};
    gts__par_smp(&par, lazy_main, lazy_helper, &a);
    gts__par_end(&par);
    return a.score;
}
