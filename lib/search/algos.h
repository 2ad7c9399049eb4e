/*
 * algos.h - the algorithm table: what the driver (driver.c) needs to know of
 * each algorithm, and the iteration functions of each family (internal).
 *
 * An algorithm is one function that searches the root to a given depth inside
 * a window and reports the score; it leaves the best root move in
 * run->ctx[0]->root_move/root_has_move and the principal variation in
 * run->ctx[0]->pv[0]. The driver does everything around it: argument checks,
 * iterative deepening, aspiration windows, limits, statistics and results.
 */
#ifndef GTS_SEARCH_ALGOS_H
#define GTS_SEARCH_ALGOS_H

#include "search/node.h"

/* One search in progress: what an algorithm needs, its limits and the
 * progress hook included, so that no algorithm calls back into driver.c. */
typedef struct gts__run gts__run;
struct gts__run {
    gts_engine *engine;
    const gts_game *game;
    void *root;             /* the caller's state (thread 0 searches it in place) */
    gts__ctx **ctx;         /* [threads] */
    int threads;
    gts__pool *pool;        /* NULL for serial algorithms */
    gts_score guess;        /* previous iteration's score, or the caller's guess */
    bool has_guess;
    uint64_t start_ns;      /* CLOCK_MONOTONIC at the start of gts_search */
    gts_result *out;        /* the caller's result, out_size bytes of it ours */
    size_t out_size;
    /* parallel work classification, summed into the result */
    uint64_t nodes_mandatory, nodes_speculative, nodes_wasted;
    const gts_limits *lim;  /* the caller's limits, checked (depth, window...) */
    gts_result *result;     /* the result being built (full size) */
    /* Report run->result to the caller's progress callback
     * (gts_limits::on_iteration), its statistics refreshed; true when the
     * callback asked to stop (the stop is then raised). Only while no
     * worker is searching. */
    bool (*progress)(gts__run *run);
};

typedef gts_score (*gts__iterate_fn)(gts__run *run, int depth, gts_score alpha, gts_score beta);

/* A best-first algorithm's own loop, run instead of iterative deepening
 * once the root is known to have moves (run->result holds the
 * first-legal-move fallback). It fills the result's move, score, depth, pv
 * and flags of its own; the driver adds statistics, stop reasons and the
 * status afterwards, as for every algorithm. It may report progress with
 * run->progress(run). */
typedef void (*gts__run_fn)(gts__run *run);

/*
 * An algorithm's descriptor: one row of the registry (registry.c). The
 * engine core knows none of this: it stores the values of the options
 * listed here in generic slots (gts__engine_opt) and any state the
 * algorithm keeps between searches in an opaque slot (gts__engine_state),
 * reached through @state's ops. See doc/architecture.md, "Adding an
 * algorithm".
 */
typedef struct gts__algo {
    gts_algorithm id;
    const char *name;
    bool exact;
    bool parallel;
    /* false: the algorithm chooses its own windows (MTD(f)...); the driver
     * then calls it with the full window only. */
    bool windowed;
    gts__iterate_fn iterate;
    /* Best-first algorithms (MCTS): their own loop; NULL for the
     * depth-first family, which the driver deepens iteratively. */
    gts__run_fn run;
    /* Its engine options (gts_engine_set), ended by a row with a NULL name;
     * NULL when it has none. A row may be shared by several algorithms
     * (GTS__OPT_ROW_TREE_MB): the same id with the same bounds. */
    const gts__opt_row *options;
    /* The state it keeps on the engine between searches, NULL when none:
     * created on first use (gts__engine_state_get), cleared, told of
     * option changes and freed through these ops. */
    const gts__state_ops *state;
    /* Honours the selective search options (GTS_OPT_NULL_MOVE...) and the
     * repetition draws (GTS_TRAIT_REPETITION_DRAW): the alpha-beta family,
     * whose nodes are node_search.h's and split.h's (gts__ctx_select). */
    bool selective;
} gts__algo;

/* The end of an option row list. */
#define GTS__OPT_END { (gts_option)0, NULL, 0, 0, 0 }
/* The best-first tree budget (MCTS, B*, MMA): one option, one row. */
#define GTS__OPT_ROW_TREE_MB { GTS_OPT_TREE_MB, "tree_mb", 1, 1 << 20, 64 }

/* The value of option @id of @rows (an algorithm's list, which has it) on
 * @e: the engine's slot, else the row's default. */
static inline int64_t gts__algo_opt(const gts_engine *e, const gts__opt_row *rows, gts_option id)
{
    for (; rows->name; rows++)
        if (rows->id == id)
            return gts__engine_opt(e, rows);
    return 0; /* not reached for an option of the list */
}

/* The registry (registry.c): the descriptor of @id (NULL when unknown), and
 * the @i-th descriptor (NULL past the last). */
const gts__algo *gts__algo_find(gts_algorithm id);
const gts__algo *gts__algo_at(int i);

/* Serial families. */
gts_score gts__iterate_minimax(gts__run *run, int depth, gts_score alpha, gts_score beta);
gts_score gts__iterate_alphabeta(gts__run *run, int depth, gts_score alpha, gts_score beta);
gts_score gts__iterate_pvs(gts__run *run, int depth, gts_score alpha, gts_score beta);
gts_score gts__iterate_mtdf(gts__run *run, int depth, gts_score alpha, gts_score beta);      /* mtdf.c */
gts_score gts__iterate_negacstar(gts__run *run, int depth, gts_score alpha, gts_score beta); /* mtdf.c */
gts_score gts__iterate_sssstar(gts__run *run, int depth, gts_score alpha, gts_score beta);   /* mtdf.c */
gts_score gts__iterate_dualstar(gts__run *run, int depth, gts_score alpha, gts_score beta);  /* mtdf.c */
gts_score gts__iterate_er(gts__run *run, int depth, gts_score alpha, gts_score beta);        /* er.c */
gts_score gts__iterate_probcut(gts__run *run, int depth, gts_score alpha, gts_score beta);   /* probcut.c */
gts_score gts__iterate_sssstar_stockman(gts__run *run, int depth, gts_score alpha,
                                        gts_score beta);                             /* sss_stockman.c */

/* Root-window driver (mtdf.c, GTS_OPT_ROOT_DRIVER): the value of the root
 * at @depth by null-window tests of @test (a windowed algorithm's iterate
 * function) inside the root's sound range, by bisection (GTS_ROOT_BISECT)
 * or MTD(f) from the previous score (GTS_ROOT_MTDF). Same contract as an
 * iterate function. */
gts_score gts__root_driver(gts__run *run, gts__iterate_fn test, int driver, int depth,
                           gts_score alpha, gts_score beta);

/* Parallel families (parallel.c and one file per algorithm). */
gts_score gts__iterate_er_parallel(gts__run *run, int depth, gts_score alpha, gts_score beta);
gts_score gts__iterate_jamboree(gts__run *run, int depth, gts_score alpha, gts_score beta);
gts_score gts__iterate_dts(gts__run *run, int depth, gts_score alpha, gts_score beta);
gts_score gts__iterate_ybwc(gts__run *run, int depth, gts_score alpha, gts_score beta);
gts_score gts__iterate_pvsplit(gts__run *run, int depth, gts_score alpha, gts_score beta);
gts_score gts__iterate_abdada(gts__run *run, int depth, gts_score alpha, gts_score beta);
gts_score gts__iterate_lazysmp(gts__run *run, int depth, gts_score alpha, gts_score beta);
gts_score gts__iterate_rootsplit(gts__run *run, int depth, gts_score alpha, gts_score beta);

/* Best-first algorithms (their own loop, gts__run_fn). */
void gts__run_mcts(gts__run *run);  /* mcts.c */
void gts__run_bstar(gts__run *run); /* bstar.c */
void gts__run_mma(gts__run *run);   /* mma.c */

/* Option rows and kept state of the algorithms that have them. */
extern const gts__opt_row gts__jamboree_options[]; /* ybwc.c */
extern const gts__opt_row gts__mcts_options[];     /* mcts.c */
extern const gts__opt_row gts__bstar_options[];    /* bstar.c */
extern const gts__opt_row gts__mma_options[];      /* mma.c */
extern const gts__state_ops gts__mcts_state;       /* mcts.c */
extern const gts__state_ops gts__probcut_state;    /* probcut.c */

#endif
