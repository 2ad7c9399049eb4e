/*
 * mtdf.c - the MT family: MTD(f), NegaC*, MT-SSS* and MT-DUAL*.
 *
 * Every algorithm here is a driver of one primitive, the memory-enhanced
 * test MT(gamma) of Plaat, Schaeffer, Pijls & de Bruin ("Best-first
 * fixed-depth minimax algorithms", Artificial Intelligence 87, 1996): a
 * null-window fail-soft alpha-beta search (gts__alphabeta, with the shared
 * transposition table) over the window (gamma - 1, gamma). Its result g is
 * a bound on the root value v:
 *     g >= gamma  ->  v >= g  (fail high: new lower bound)
 *     g <  gamma  ->  v <= g  (fail low:  new upper bound)
 * The drivers differ only in how they choose the next gamma inside the
 * interval (lower, upper] that still contains v:
 *   MTD(f)  (Plaat et al.): start at a first guess, step to the last result;
 *   NegaC*  (Weill, after Stockman's C*): bisect the interval;
 *   SSS*    as MT-SSS*: start at +infinity, gamma = upper until it fails high;
 *   DUAL*   as MT-DUAL*: start at -infinity, gamma = lower + 1 until it
 *           fails low.
 * Without a table they stay exact but re-search the tree at every step.
 *
 * The same drivers serve as root-window drivers of every windowed algorithm
 * (GTS_OPT_ROOT_DRIVER): the test is then that algorithm's own iteration
 * over the null window, serial or parallel, and the interval starts from the
 * root's sound range (the game's bounds(), else [LOSS, WIN]) instead of the
 * whole score range: a solver that knows the result lies in [-3, 5] needs
 * about three tests.
 *
 * Invariants:
 * - lower <= v <= upper throughout; gamma is always in (lower, upper], so
 *   every test moves one bound strictly and the loop terminates.
 * - lower starts strictly below every possible root value, so the final
 *   lower bound was set by a fail-high test. The best root move is the
 *   cutoff move of the LAST fail-high test: its value is >= that test's
 *   result, which equals the final value v, hence exactly v. A fail-low
 *   test's root move only has an upper bound and is never reported.
 * - The driver passes the full window unless the caller set one; then the
 *   loop stops as soon as the value is known to lie outside it and returns
 *   that bound (the driver flags it).
 */
#include "search/algos.h"

#include <string.h>

/* The bisecting root driver moves its midpoints toward 0 (see mt_bisect):
 * fewer nodes on a mixed Connect-4 set (doc/results/solver.md, issue 10). */
static const bool ROOT_ZERO_BIAS = true;

/* Search state of one MT driver run. */
typedef struct mt_state {
    gts__run *run;
    gts__iterate_fn test;     /* the null-window search of the root */
    gts__ctx *c;
    int depth;
    gts_score lower, upper;   /* lower <= v <= upper */
    bool has_move;            /* from a fail-high test */
    gts_move move;
    gts_score last;           /* result of the last test */
    int pv_len;
    gts_move pv[GTS_MAX_PLY + 1];
} mt_state;

static void mt_begin(mt_state *st, gts__run *run, gts__iterate_fn test, int depth)
{
    st->run = run;
    st->test = test;
    st->c = run->ctx[0];
    st->depth = depth;
    /* -GTS_SCORE_INF is below every value a search can return (values lie
     * in [GTS_SCORE_LOSS, GTS_SCORE_WIN]); see the invariants above. */
    st->lower = -GTS_SCORE_INF;
    st->upper = GTS_SCORE_INF;
    st->has_move = false;
    st->move = 0;
    st->pv_len = 0;
}

/* MT(gamma): one null-window test; false when the search was stopped. */
static bool mt_test(mt_state *st, gts_score gamma)
{
    gts__ctx *c = st->c;
    c->root_has_move = false;
    gts_score g = st->test(st->run, st->depth, gamma - 1, gamma);
    if (gts__aborted(c))
        return false;
    st->last = g;
    if (g >= gamma) {
        st->lower = g;
        if (c->root_has_move) {
            st->has_move = true;
            st->move = c->root_move;
            st->pv_len = c->pv_len[0];
            memcpy(st->pv, c->pv[0], (size_t)st->pv_len * sizeof st->pv[0]);
        }
    } else {
        st->upper = g;
    }
    return true;
}

/* True while the value is unknown and may still lie inside the caller's
 * window (alpha, beta). */
static bool mt_open(const mt_state *st, gts_score alpha, gts_score beta)
{
    return st->lower < st->upper && st->lower < beta && st->upper > alpha;
}

/* Report the result: the value (or the bound outside the caller's window),
 * and the root move and PV of the last fail-high test. */
static gts_score mt_finish(mt_state *st, gts_score alpha, gts_score beta)
{
    gts__ctx *c = st->c;
    if (gts__aborted(c))
        return 0;
    gts_score v = st->lower >= st->upper ? st->lower
                : st->lower >= beta      ? st->lower
                                         : st->upper;
    /* Defensive: every converged run ends with a fail-high move (see the
     * invariants); if not, one more test at v provides it. */
    if (!st->has_move && v > alpha && !mt_test(st, v))
        return 0;
    if (st->has_move) {
        c->root_move = st->move;
        c->root_has_move = true;
        c->pv_len[0] = st->pv_len;
        memcpy(c->pv[0], st->pv, (size_t)st->pv_len * sizeof st->pv[0]);
    } else {
        /* Failed low on the caller's window: the last test's move, like
         * alpha-beta's fail-low move, only has an upper bound. */
        c->pv_len[0] = 0;
    }
    return v;
}

/* MTD(f): test at the last result, starting from @guess. */
static gts_score mt_mtdf(mt_state *st, gts_score guess, gts_score alpha, gts_score beta)
{
    gts_score g = guess;
    while (mt_open(st, alpha, beta)) {
        /* Test at the last result; at a lower bound, one above it. Keep
         * gamma inside (lower, upper] whatever the first guess was. */
        gts_score gamma = g == st->lower ? g + 1 : g;
        if (gamma <= st->lower)
            gamma = st->lower + 1;
        if (gamma > st->upper)
            gamma = st->upper;
        if (!mt_test(st, gamma))
            return 0;
        g = st->last;
    }
    return mt_finish(st, alpha, beta);
}

/* Bisection of (lower, upper]: the midpoint, rounded up so that it moves;
 * with @zero_bias, a midpoint on one side of 0 moves half-way to 0 when
 * that is further from it (Pons' solver: tests near the likely draw first). */
static gts_score mt_bisect(mt_state *st, gts_score alpha, gts_score beta, bool zero_bias)
{
    while (mt_open(st, alpha, beta)) {
        gts_score med = st->lower + (st->upper - st->lower) / 2;
        if (zero_bias) {
            if (med <= 0 && st->lower / 2 < med)
                med = st->lower / 2;
            else if (med >= 0 && st->upper / 2 > med)
                med = st->upper / 2;
        }
        gts_score gamma = med + 1;
        if (!mt_test(st, gamma))
            return 0;
    }
    return mt_finish(st, alpha, beta);
}

gts_score gts__iterate_mtdf(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    mt_state st;
    mt_begin(&st, run, gts__iterate_alphabeta, depth);
    return mt_mtdf(&st, run->has_guess ? run->guess : 0, alpha, beta);
}

gts_score gts__iterate_negacstar(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    mt_state st;
    mt_begin(&st, run, gts__iterate_alphabeta, depth);
    /* The decided range bounds every value: bisect [LOSS - 1, WIN]. */
    st.lower = GTS_SCORE_LOSS - 1;
    st.upper = GTS_SCORE_WIN;
    return mt_bisect(&st, alpha, beta, false);
}

gts_score gts__iterate_sssstar(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    mt_state st;
    mt_begin(&st, run, gts__iterate_alphabeta, depth);
    /* Every test but the last fails low and lowers the upper bound. */
    while (mt_open(&st, alpha, beta))
        if (!mt_test(&st, st.upper))
            return 0;
    return mt_finish(&st, alpha, beta);
}

gts_score gts__iterate_dualstar(gts__run *run, int depth, gts_score alpha, gts_score beta)
{
    mt_state st;
    mt_begin(&st, run, gts__iterate_alphabeta, depth);
    /* Every test but the last fails high and raises the lower bound. */
    while (mt_open(&st, alpha, beta))
        if (!mt_test(&st, st.lower + 1))
            return 0;
    return mt_finish(&st, alpha, beta);
}

gts_score gts__root_driver(gts__run *run, gts__iterate_fn test, int driver, int depth,
                           gts_score alpha, gts_score beta)
{
    mt_state st;
    mt_begin(&st, run, test, depth);
    /* The root's sound range; lower strictly below it (see the invariants). */
    gts_score lo = GTS_SCORE_LOSS, hi = GTS_SCORE_WIN;
    if (run->game->bounds && !gts__game_bounds(st.c, 0, &lo, &hi))
        return 0;
    st.lower = lo - 1;
    st.upper = hi;
    if (driver == GTS_ROOT_MTDF)
        return mt_mtdf(&st, run->has_guess ? run->guess : 0, alpha, beta);
    return mt_bisect(&st, alpha, beta, ROOT_ZERO_BIAS);
}
