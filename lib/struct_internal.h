/*
 * struct_internal.h - reading and writing the caller's versioned structs
 * (those that start with struct_size), by the rule of gts_struct_id in
 * common.h (internal).
 *
 * A caller's struct may be older (smaller) or newer (larger) than the
 * library's. Inputs are copied into a full-size struct of the library's own
 * that holds the defaults; outputs are built in one and copied back, only
 * as many bytes as the caller has.
 *
 * Every struct is described by a gts__struct_desc: its name, sizes and the
 * byte range of each field. A struct_size must end at a field boundary (the
 * end of a field, or in the padding after one): a size that ends inside a
 * field would hand the library part of a pointer or a number, so it is
 * refused with GTS_ESTRUCT (issue 31) rather than read. Each refusal has a
 * static message naming the struct (gts_engine_last_error()).
 *
 * The descriptors live in static inline functions (one static object each,
 * per translation unit that uses it), so that libgts-mpi, which links only
 * the public API, can use them as well.
 *
 * Invariant, checked by tests/test_structs.c: each descriptor lists every
 * field in order, and its last field ends within the struct's tail padding.
 * A field appended to a public struct must be appended here too.
 */
#ifndef GTS_STRUCT_INTERNAL_H
#define GTS_STRUCT_INTERNAL_H

#include <gts/gts.h>
#include <stddef.h>
#include <string.h>

/* Most unknown (zero) tail bytes accepted from a newer caller: a bound on
 * what is read past the library's sizeof when struct_size is garbage. */
#define GTS__STRUCT_TAIL_MAX 4096

/* One field: bytes [off, end) of its struct. */
typedef struct gts__field {
    size_t off, end;
} gts__field;

/* Why a struct_size is refused (index of gts__struct_desc::why). */
enum { GTS__STRUCT_SMALL, GTS__STRUCT_SPLIT, GTS__STRUCT_TAIL, GTS__STRUCT_NWHY };

typedef struct gts__struct_desc {
    const char *name;          /* the C type, "gts_limits" */
    size_t size;               /* the library's sizeof */
    size_t min;                /* the smallest size accepted (first layout) */
    const gts__field *fields;  /* every field, in order */
    size_t nfields;
    const char *why[GTS__STRUCT_NWHY]; /* static messages, one per refusal */
} gts__struct_desc;

#define GTS__FIELD(T, m) {offsetof(T, m), offsetof(T, m) + sizeof(((T *)0)->m)}
#define GTS__STRUCT_DESC(T, MIN, FIELDS)                                                       \
    {#T, sizeof(T), (MIN), (FIELDS), sizeof(FIELDS) / sizeof((FIELDS)[0]),                      \
     {#T ": struct_size is below the struct's first layout",                                   \
      #T ": struct_size ends inside a field (it must cover whole fields)",                     \
      #T ": struct_size is larger than this library's struct and the bytes it does not know "  \
         "are not zero (or more than 4096)"}}

/* ---- the descriptors ------------------------------------------------------- */

static inline const gts__struct_desc *gts__desc_game(void)
{
    static const gts__field f[] = {
        GTS__FIELD(gts_game, struct_size), GTS__FIELD(gts_game, max_moves),
        GTS__FIELD(gts_game, generate),    GTS__FIELD(gts_game, apply),
        GTS__FIELD(gts_game, undo),        GTS__FIELD(gts_game, evaluate),
        GTS__FIELD(gts_game, hash),        GTS__FIELD(gts_game, clone),
        GTS__FIELD(gts_game, free),        GTS__FIELD(gts_game, generate_noisy),
        GTS__FIELD(gts_game, move_score),  GTS__FIELD(gts_game, extend),
        GTS__FIELD(gts_game, format_move), GTS__FIELD(gts_game, parse_move),
        GTS__FIELD(gts_game, user),        GTS__FIELD(gts_game, bounds),
        GTS__FIELD(gts_game, generate_keyed), GTS__FIELD(gts_game, playout_move),
        GTS__FIELD(gts_game, traits),
        GTS__FIELD(gts_game, hash_after),  GTS__FIELD(gts_game, null_apply),
        GTS__FIELD(gts_game, null_undo),
    };
    static const gts__struct_desc d = GTS__STRUCT_DESC(gts_game, GTS_GAME_SIZE_V0_1, f);
    return &d;
}

static inline const gts__struct_desc *gts__desc_limits(void)
{
    static const gts__field f[] = {
        GTS__FIELD(gts_limits, struct_size), GTS__FIELD(gts_limits, depth),
        GTS__FIELD(gts_limits, alpha),       GTS__FIELD(gts_limits, beta),
        GTS__FIELD(gts_limits, guess),       GTS__FIELD(gts_limits, has_guess),
        GTS__FIELD(gts_limits, nodes),       GTS__FIELD(gts_limits, time_ms),
        GTS__FIELD(gts_limits, on_iteration), GTS__FIELD(gts_limits, on_iteration_user),
        GTS__FIELD(gts_limits, history),     GTS__FIELD(gts_limits, history_len),
    };
    static const gts__struct_desc d = GTS__STRUCT_DESC(gts_limits, GTS_LIMITS_SIZE_V0_1, f);
    return &d;
}

static inline const gts__struct_desc *gts__desc_result(void)
{
    static const gts__field f[] = {
        GTS__FIELD(gts_result, struct_size),     GTS__FIELD(gts_result, best_move),
        GTS__FIELD(gts_result, score),           GTS__FIELD(gts_result, depth),
        GTS__FIELD(gts_result, seldepth),        GTS__FIELD(gts_result, flags),
        GTS__FIELD(gts_result, pv),              GTS__FIELD(gts_result, pv_length),
        GTS__FIELD(gts_result, threads),         GTS__FIELD(gts_result, nodes),
        GTS__FIELD(gts_result, tt_probes),       GTS__FIELD(gts_result, tt_hits),
        GTS__FIELD(gts_result, tt_cutoffs),      GTS__FIELD(gts_result, nodes_mandatory),
        GTS__FIELD(gts_result, nodes_speculative), GTS__FIELD(gts_result, nodes_wasted),
        GTS__FIELD(gts_result, time_us),         GTS__FIELD(gts_result, callback_status),
        GTS__FIELD(gts_result, thread_nodes),    GTS__FIELD(gts_result, thread_nodes_capacity),
    };
    static const gts__struct_desc d = GTS__STRUCT_DESC(gts_result, GTS_RESULT_SIZE_V0_1, f);
    return &d;
}

static inline const gts__struct_desc *gts__desc_probcut_params(void)
{
    static const gts__field f[] = {
        GTS__FIELD(gts_probcut_params, struct_size), GTS__FIELD(gts_probcut_params, npairs),
        GTS__FIELD(gts_probcut_params, pair),        GTS__FIELD(gts_probcut_params, iid),
    };
    static const gts__struct_desc d =
        GTS__STRUCT_DESC(gts_probcut_params, GTS_PROBCUT_PARAMS_SIZE_V0_1, f);
    return &d;
}

static inline const gts__struct_desc *gts__desc_probcut_fit(void)
{
    static const gts__field f[] = {
        GTS__FIELD(gts_probcut_fit, struct_size), GTS__FIELD(gts_probcut_fit, a),
        GTS__FIELD(gts_probcut_fit, b),           GTS__FIELD(gts_probcut_fit, sigma),
        GTS__FIELD(gts_probcut_fit, r2),          GTS__FIELD(gts_probcut_fit, samples),
        GTS__FIELD(gts_probcut_fit, skipped),
    };
    static const gts__struct_desc d =
        GTS__STRUCT_DESC(gts_probcut_fit, GTS_PROBCUT_FIT_SIZE_V0_1, f);
    return &d;
}

static inline const gts__struct_desc *gts__desc_allocator(void)
{
    static const gts__field f[] = {
        GTS__FIELD(gts_allocator, struct_size), GTS__FIELD(gts_allocator, allocate),
        GTS__FIELD(gts_allocator, release),     GTS__FIELD(gts_allocator, user),
    };
    static const gts__struct_desc d =
        GTS__STRUCT_DESC(gts_allocator, GTS_ALLOCATOR_SIZE_V0_1, f);
    return &d;
}

static inline const gts__struct_desc *gts__desc_mcts_move_stats(void)
{
    static const gts__field f[] = {
        GTS__FIELD(gts_mcts_move_stats, struct_size), GTS__FIELD(gts_mcts_move_stats, move),
        GTS__FIELD(gts_mcts_move_stats, visits),      GTS__FIELD(gts_mcts_move_stats, mean),
        GTS__FIELD(gts_mcts_move_stats, prior),       GTS__FIELD(gts_mcts_move_stats, score),
        GTS__FIELD(gts_mcts_move_stats, lower),       GTS__FIELD(gts_mcts_move_stats, upper),
        GTS__FIELD(gts_mcts_move_stats, amaf_visits), GTS__FIELD(gts_mcts_move_stats, amaf_mean),
    };
    static const gts__struct_desc d =
        GTS__STRUCT_DESC(gts_mcts_move_stats, GTS_MCTS_MOVE_STATS_SIZE_V0_2, f);
    return &d;
}

static inline const gts__struct_desc *gts__desc_evaluator(void)
{
    static const gts__field f[] = {
        GTS__FIELD(gts_evaluator, struct_size), GTS__FIELD(gts_evaluator, evaluate),
        GTS__FIELD(gts_evaluator, ctx),
    };
    static const gts__struct_desc d = GTS__STRUCT_DESC(gts_evaluator, GTS_EVALUATOR_SIZE_V0_3, f);
    return &d;
}

static inline const gts__struct_desc *gts__desc_check_options(void)
{
    static const gts__field f[] = {
        GTS__FIELD(gts_check_options, struct_size), GTS__FIELD(gts_check_options, seed),
        GTS__FIELD(gts_check_options, walks),       GTS__FIELD(gts_check_options, walk_length),
        GTS__FIELD(gts_check_options, depth),
        GTS__FIELD(gts_check_options, algorithm_positions),
    };
    static const gts__struct_desc d =
        GTS__STRUCT_DESC(gts_check_options, GTS_CHECK_OPTIONS_SIZE_V0_2, f);
    return &d;
}

static inline const gts__struct_desc *gts__desc_check_report(void)
{
    static const gts__field f[] = {
        GTS__FIELD(gts_check_report, struct_size), GTS__FIELD(gts_check_report, violation),
        GTS__FIELD(gts_check_report, callback_status), GTS__FIELD(gts_check_report, algorithm),
        GTS__FIELD(gts_check_report, path_length), GTS__FIELD(gts_check_report, path),
        GTS__FIELD(gts_check_report, positions),   GTS__FIELD(gts_check_report, message),
    };
    static const gts__struct_desc d =
        GTS__STRUCT_DESC(gts_check_report, GTS_CHECK_REPORT_SIZE_V0_2, f);
    return &d;
}

/* ---- checking, reading and writing ------------------------------------------ */

/* Check the struct_size of @s (a caller's struct described by @d): GTS_OK
 * and, in @n, the bytes the library may read or write (min(struct_size,
 * d->size)); or GTS_ESTRUCT for a size below d->min, one that ends inside
 * a field, or a larger one with a nonzero (or too long) tail, and then, when
 * @why is not NULL, the static message saying which. */
static inline gts_status gts__struct_check(const gts__struct_desc *d, const void *s, size_t *n,
                                           const char **why)
{
    size_t size;
    int bad = -1;
    memcpy(&size, s, sizeof size);
    if (size < d->min) {
        bad = GTS__STRUCT_SMALL;
    } else if (size > d->size) {
        if (size - d->size > GTS__STRUCT_TAIL_MAX) {
            bad = GTS__STRUCT_TAIL;
        } else {
            const unsigned char *tail = (const unsigned char *)s + d->size;
            for (size_t i = 0; i < size - d->size && bad < 0; i++)
                if (tail[i] != 0)
                    bad = GTS__STRUCT_TAIL;
        }
        size = d->size;
    } else {
        for (size_t i = 0; i < d->nfields && bad < 0; i++)
            if (d->fields[i].off < size && size < d->fields[i].end)
                bad = GTS__STRUCT_SPLIT;
    }
    if (bad >= 0) {
        if (why)
            *why = d->why[bad];
        return GTS_ESTRUCT;
    }
    *n = size;
    return GTS_OK;
}

/* Copy the caller's struct @src over @dst, the library's full-size struct
 * (d->size bytes) that holds the defaults; dst's struct_size becomes
 * d->size. @why as in gts__struct_check(). */
static inline gts_status gts__struct_in(const gts__struct_desc *d, void *dst, const void *src,
                                        const char **why)
{
    size_t n;
    gts_status rc = gts__struct_check(d, src, &n, why);
    if (rc != GTS_OK)
        return rc;
    memcpy(dst, src, n);
    memcpy(dst, &d->size, sizeof d->size);
    return GTS_OK;
}

/* Write the first @n bytes of the library's struct @src (n from
 * gts__struct_check) to the caller's @dst, keeping dst's struct_size. */
static inline void gts__struct_out(void *dst, const void *src, size_t n)
{
    memcpy((char *)dst + sizeof(size_t), (const char *)src + sizeof(size_t),
           n - sizeof(size_t));
}

#endif
