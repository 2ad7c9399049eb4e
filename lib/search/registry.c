/*
 * registry.c - the algorithm registry: one descriptor per algorithm (its
 * entry function, flags, option rows and kept state, algos.h), the public
 * algorithm queries, and the public option functions, which find an option
 * in the core's table (engine.c) or in the descriptors' rows.
 *
 * Adding an algorithm is one file (its entry function, and its option rows
 * and state ops if it has any) plus one line here: doc/architecture.md,
 * "Adding an algorithm"; tests/lint/check-registry.py keeps the header, this
 * table and the Python bindings in step.
 *
 * Concurrency contract: the table is constant. gts_engine_set() holds the
 * engine (gts__engine_claim); the queries are thread-safe.
 */
#include "search/algos.h"

#include <string.h>

static const gts__algo ALGOS[] = {
    /* id, name, exact, parallel, windowed, iterate, run, options, state, selective */
    { GTS_ALG_MINIMAX, "minimax", true, false, false, gts__iterate_minimax, NULL, NULL, NULL, false },
    { GTS_ALG_ALPHABETA, "alphabeta", true, false, true, gts__iterate_alphabeta, NULL, NULL,
      NULL, true },
    { GTS_ALG_PVS, "pvs", true, false, true, gts__iterate_pvs, NULL, NULL, NULL, true },
    { GTS_ALG_MTDF, "mtdf", true, false, false, gts__iterate_mtdf, NULL, NULL, NULL, false },
    { GTS_ALG_NEGACSTAR, "negacstar", true, false, false, gts__iterate_negacstar, NULL, NULL,
      NULL, false },
    { GTS_ALG_SSSSTAR, "sssstar", true, false, false, gts__iterate_sssstar, NULL, NULL, NULL, false },
    { GTS_ALG_DUALSTAR, "dualstar", true, false, false, gts__iterate_dualstar, NULL, NULL, NULL, false },
    { GTS_ALG_ER, "er", true, false, true, gts__iterate_er, NULL, NULL, NULL, false },
    { GTS_ALG_PROBCUT, "probcut", false, false, true, gts__iterate_probcut, NULL, NULL,
      &gts__probcut_state, true },
    { GTS_ALG_SSSSTAR_STOCKMAN, "sssstar_stockman", true, false, false,
      gts__iterate_sssstar_stockman, NULL, NULL, NULL, false },
    { GTS_ALG_ER_PARALLEL, "er_parallel", true, true, true, gts__iterate_er_parallel, NULL, NULL,
      NULL, false },
    { GTS_ALG_JAMBOREE, "jamboree", true, true, true, gts__iterate_jamboree, NULL,
      gts__jamboree_options, NULL, true },
    { GTS_ALG_DTS, "dts", true, true, true, gts__iterate_dts, NULL, NULL, NULL, true },
    { GTS_ALG_YBWC, "ybwc", true, true, true, gts__iterate_ybwc, NULL, NULL, NULL, true },
    { GTS_ALG_PVSPLIT, "pvsplit", true, true, true, gts__iterate_pvsplit, NULL, NULL, NULL, true },
    { GTS_ALG_ABDADA, "abdada", true, true, true, gts__iterate_abdada, NULL, NULL, NULL, true },
    { GTS_ALG_LAZYSMP, "lazysmp", true, true, true, gts__iterate_lazysmp, NULL, NULL, NULL, true },
    { GTS_ALG_ROOTSPLIT, "rootsplit", true, true, true, gts__iterate_rootsplit, NULL, NULL,
      NULL, true },
    { GTS_ALG_MCTS, "mcts", false, true, false, NULL, gts__run_mcts, gts__mcts_options,
      &gts__mcts_state, false },
    { GTS_ALG_BSTAR, "bstar", false, false, false, NULL, gts__run_bstar, gts__bstar_options,
      NULL, false },
    { GTS_ALG_MMA, "mma", false, false, false, NULL, gts__run_mma, gts__mma_options, NULL, false },
};
static const int NALGOS = (int)(sizeof ALGOS / sizeof ALGOS[0]);

const gts__algo *gts__algo_find(gts_algorithm id)
{
    for (int i = 0; i < NALGOS; i++)
        if (ALGOS[i].id == id)
            return &ALGOS[i];
    return NULL;
}

const gts__algo *gts__algo_at(int i)
{
    return i >= 0 && i < NALGOS ? &ALGOS[i] : NULL;
}

const char *gts_algorithm_name(gts_algorithm alg)
{
    const gts__algo *a = gts__algo_find(alg);
    return a ? a->name : NULL;
}

gts_status gts_algorithm_from_name(const char *name, gts_algorithm *alg)
{
    if (!name || !alg)
        return GTS_EINVAL;
    if (strncmp(name, "gts_", 4) == 0)
        name += 4;
    for (int i = 0; i < NALGOS; i++)
        if (strcmp(ALGOS[i].name, name) == 0) {
            *alg = ALGOS[i].id;
            return GTS_OK;
        }
    return GTS_EALGORITHM;
}

bool gts_algorithm_is_exact(gts_algorithm alg)
{
    const gts__algo *a = gts__algo_find(alg);
    return a && a->exact;
}

bool gts_algorithm_is_parallel(gts_algorithm alg)
{
    const gts__algo *a = gts__algo_find(alg);
    return a && a->parallel;
}

int gts_algorithm_list(gts_algorithm *out, int capacity)
{
    for (int i = 0; out && i < NALGOS && i < capacity; i++)
        out[i] = ALGOS[i].id;
    return NALGOS;
}

/* ---- options --------------------------------------------------------------- */

/* Every option row, the core's first, then the algorithms' (a shared row
 * once): the @k-th, NULL past the last. */
static const gts__opt_row *row_at(int k)
{
    const gts__opt_row *row;
    for (int i = 0; (row = gts__core_option_at(i)) != NULL; i++)
        if (k-- == 0)
            return row;
    for (int a = 0; a < NALGOS; a++) {
        const gts__opt_row *rows = ALGOS[a].options;
        for (int j = 0; rows && rows[j].name; j++) {
            bool seen = false; /* by an earlier algorithm */
            for (int b = 0; b < a && !seen; b++)
                for (int i = 0; ALGOS[b].options && ALGOS[b].options[i].name; i++)
                    if (ALGOS[b].options[i].id == rows[j].id) {
                        seen = true;
                        break;
                    }
            if (!seen && k-- == 0)
                return &rows[j];
        }
    }
    return NULL;
}

/* The row of @id, NULL when unknown; *core tells whose it is. */
static const gts__opt_row *find_option(gts_option id, bool *core)
{
    const gts__opt_row *row = gts__core_option(id);
    *core = row != NULL;
    if (row)
        return row;
    for (int a = 0; a < NALGOS; a++)
        for (const gts__opt_row *r = ALGOS[a].options; r && r->name; r++)
            if (r->id == id)
                return r;
    return NULL;
}

const char *gts_option_name(gts_option option)
{
    bool core;
    const gts__opt_row *row = find_option(option, &core);
    return row ? row->name : NULL;
}

gts_status gts_option_from_name(const char *name, gts_option *option)
{
    if (!name || !option)
        return GTS_EINVAL;
    const gts__opt_row *row;
    for (int k = 0; (row = row_at(k)) != NULL; k++)
        if (strcmp(row->name, name) == 0) {
            *option = row->id;
            return GTS_OK;
        }
    /* Former names (engine.h). */
    if (strcmp(name, "virtual_procs") == 0) {
        *option = GTS_OPT_VIRTUAL;
        return GTS_OK;
    }
    return GTS_EOPTION;
}

int gts_option_list(gts_option *out, int capacity)
{
    /* In enum order: the k-th smallest id, by selection (a few dozen). */
    int n = 0;
    while (row_at(n))
        n++;
    gts_option last = (gts_option)0;
    for (int i = 0; out && i < n && i < capacity; i++) {
        const gts__opt_row *next = NULL, *row;
        for (int k = 0; (row = row_at(k)) != NULL; k++)
            if ((i == 0 || row->id > last) && (!next || row->id < next->id))
                next = row;
        out[i] = last = next->id;
    }
    return n;
}

gts_status gts_option_bounds(gts_option option, int64_t *min, int64_t *max, int64_t *def)
{
    bool core;
    const gts__opt_row *o = find_option(option, &core);
    if (!o)
        return GTS_EOPTION;
    if (min) *min = o->min;
    if (max) *max = o->max;
    if (def) *def = o->def;
    return GTS_OK;
}

gts_status gts_engine_set(gts_engine *engine, gts_option option, int64_t value)
{
    if (!engine)
        return GTS_EINVAL;
    bool core;
    const gts__opt_row *o = find_option(option, &core);
    if (!o)
        return GTS_EOPTION;
    if (value < o->min || value > o->max)
        return GTS_ERANGE;
    if (!gts__engine_claim(engine))
        return GTS_EBUSY;
    gts_status rc = core ? gts__engine_core_set(engine, o, value)
                         : gts__engine_opt_store(engine, option, value);
    if (rc == GTS_OK)
        gts__engine_option_changed(engine, option, value);
    gts__engine_release(engine);
    return rc;
}

gts_status gts_engine_get(const gts_engine *engine, gts_option option, int64_t *value)
{
    if (!engine || !value)
        return GTS_EINVAL;
    bool core;
    const gts__opt_row *o = find_option(option, &core);
    if (!o)
        return GTS_EOPTION;
    *value = core ? gts__engine_core_get(engine, o) : gts__engine_opt(engine, o);
    return GTS_OK;
}
