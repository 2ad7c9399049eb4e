/*
 * ctx.h - the per-thread search context (internal, search kernel).
 *
 * A context holds what one thread of a search needs: the game, its state,
 * a snapshot of the engine's options, per-ply move buffers, the ordering
 * tables (killers, history) and the PV. The engine keeps its contexts
 * between searches (gts_engine::ctx) but never looks inside them: this
 * side creates them (gts__engine_prepare) and installs the hooks through
 * which the engine clears and frees them (gts__search_hooks).
 */
#ifndef GTS_SEARCH_CTX_H
#define GTS_SEARCH_CTX_H

#include "../engine_internal.h"

/* Abort flag of a parallel split point; nodes check the whole chain. */
typedef struct gts__abort {
    uint32_t flag;
    const struct gts__abort *parent;
} gts__abort;

/* An ordered move: original index in generate() order and its sort key. */
typedef struct gts__mv {
    int64_t key;
    uint32_t index;
} gts__mv;

/* gts__ctx::rep_low when no repetition draw matched. */
#define GTS__REP_NONE (GTS_MAX_PLY + 1)

struct gts__ctx {
    int id;
    /* the search */
    gts_engine *engine;
    const gts_game *game;
    void *state;
    void *user;
    gts__shared *shared;
    gts__tt *tt;                 /* NULL: no table or no hash() */
    gts__tt_part tt_part[2];     /* the table's far part and this thread's
                                    slice of its near part (gts__ctx_parts) */
    const gts__abort *abort;     /* split-point chain (parallel) */
    /* options snapshot */
    bool use_killers, use_history, use_qs, use_pvs, use_prefetch;
    bool order_hint;             /* a move hint, killers or history: moves
                                    are ordered even without a table move */
    bool use_counter;            /* GTS_OPT_COUNTER_MOVES */
    bool history_gravity;        /* GTS_OPT_HISTORY 2: malus and gravity */
    int history_mode;            /* GTS_OPT_HISTORY of the tables' scores */
    bool vp;                     /* virtual processors: every node is a tick */
    bool tt_exact_depth;         /* cut only on entries of the node's depth */
    int split_ply;               /* parallel algorithms share work only above it */
    int nbest, nbest_depth;
    /* Selective search (GTS_OPT_NULL_MOVE...) and repetition draws, set by
     * gts__ctx_select for an algorithm that honours them (registry.c);
     * all off otherwise. A selective context is never lean. */
    bool selective;              /* any of the below */
    bool rep;                    /* GTS_TRAIT_REPETITION_DRAW with hash() */
    bool null_ok;                /* GTS_OPT_NULL_MOVE and both callbacks */
    int null_r;                  /* GTS_OPT_NULL_MOVE: base reduction */
    int lmr;                     /* GTS_OPT_LMR: strength in percent */
    int lmp;                     /* GTS_OPT_LMP: move-count base */
    gts_score futility, razor;   /* margins per ply */
    gts_score contempt;          /* GTS_OPT_CONTEMPT */
    int null_block;              /* > 0: in a verification search, no pass */
    int rep_floor;               /* first ply of the line after the last pass */
    int null_parity;             /* passes on the line, mod 2 */
    const uint64_t *hist;        /* gts_limits::history (rep only) */
    uint32_t hist_len;
    int rep_low;                 /* the lowest ply of an earlier position that a
                                    repetition draw in the current node's subtree
                                    matched (-1: the history), GTS__REP_NONE if
                                    none: its value depends on the line above it
                                    when rep_low < its ply (node_search.h) */
    uint64_t path_key[GTS_MAX_PLY + 1]; /* hash() at each ply of the line (rep) */
    bool ext_in[GTS_MAX_PLY + 1];  /* the move into this ply was extended */
    bool null_in[GTS_MAX_PLY + 1]; /* the move into this ply was a pass */
    uint8_t lmr_table[64][64];   /* r(d, k) in plies, GTS_OPT_LMR applied */
    /* Per-ply buffers of max_moves entries each, one block per ply,
     * allocated when a search first generates at that ply (gts__generate)
     * and kept until the context is freed: memory grows with the depth
     * searched, not with GTS_MAX_PLY. */
    uint32_t max_moves;
    const gts_allocator *alloc;
    gts_move *moves[GTS_MAX_PLY + 1];
    gts__mv *order[GTS_MAX_PLY + 1];
    int32_t *keys[GTS_MAX_PLY + 1]; /* generate_keyed() keys */
    uint8_t *noisy[GTS_MAX_PLY + 1]; /* selective: generate_noisy() lists moves[i] */
    bool keyed[GTS_MAX_PLY + 1];    /* keys[ply] belong to the moves at ply */
    /* ordering tables (kept across searches of one engine) */
    gts_move killers[GTS_MAX_PLY + 1][2];
    int32_t history[2][GTS__HISTORY_SIZE];
    /* counter moves (use_counter): the move that last refuted the previous
     * move, by the previous move's slot (GTS__HISTORY_SIZE: a pass or none) */
    gts_move counter[2][GTS__HISTORY_SIZE + 1];
    uint16_t line_slot[GTS_MAX_PLY + 1]; /* the slot of the move into each ply */
    gts_move tried[GTS_MAX_PLY + 1][GTS__TRIED_MAX]; /* searched before a cutoff
                                                        (history_gravity) */
    /* triangular principal-variation table */
    gts_move pv[GTS_MAX_PLY + 1][GTS_MAX_PLY + 1];
    int pv_len[GTS_MAX_PLY + 1];
    /* best root move of the current iteration (also on a fail-low) */
    gts_move root_move;
    bool root_has_move;
    /* statistics of this search */
    uint64_t nodes, tt_probes, tt_hits, tt_cutoffs;
    uint64_t flushed;            /* part of nodes already added to shared->nodes */
    int seldepth;
    uint64_t next_poll;          /* node count of the next limit check */
};

gts__ctx *gts__ctx_new(const gts_allocator *alloc, uint32_t max_moves);
/* Allocate the buffers of @ply; false when out of memory. */
bool gts__ctx_grow(gts__ctx *c, int ply);
void gts__ctx_free(const gts_allocator *alloc, gts__ctx *c);
void gts__ctx_clear_tables(gts__ctx *c);
/* Bind a context to a search: game, state, options; zero the statistics. */
void gts__ctx_begin(gts__ctx *c, gts_engine *e, const gts_game *game, void *state);
/* Turn on, after gts__ctx_begin, the selective search options of @e and
 * the repetition draws of the game (@lim's history) for an algorithm that
 * honours them (gts__algo::selective). */
void gts__ctx_select(gts__ctx *c, const gts_engine *e, const gts_limits *lim);
/* Give context @i of a search with @threads contexts its slice of the
 * table's near part (gts__tt_near_slice; the whole part on virtual
 * processors, which model no cache). After gts__ctx_begin. */
void gts__ctx_parts(gts__ctx *c, int i, int threads);

/* The part of the table, then the bucket, of a node with @depth plies to
 * go searched by @c (c->tt not NULL). */
static inline const gts__tt_part *gts__ctx_part(const gts__ctx *c, int depth)
{
    return &c->tt_part[depth <= c->tt->near_depth];
}
static inline gts__tt_bucket *gts__ctx_bucket(const gts__ctx *c, uint64_t key, int depth)
{
    return gts__tt_in(gts__ctx_part(c, depth), key);
}

/* Make @e ready for a search of @game on @threads threads: the table (if
 * an earlier allocation failed), the contexts, the pool. 0 or GTS_ENOMEM.
 * Installs the engine's search hooks (clear, release) the first time. */
int gts__engine_prepare(gts_engine *e, const gts_game *game, int threads);

/* The moves gts__generate wrote at @ply (only after it succeeded there). */
static inline gts_move *gts__moves(gts__ctx *c, int ply)
{
    return c->moves[ply];
}

#endif
