/**
 * @file engine.h
 * @brief The opaque search engine: lifecycle, options, clear and stop.
 *
 * An engine owns the transposition table, the ordering tables (killers,
 * history) and, for parallel algorithms, the thread pool. One engine runs one
 * search at a time. Unless stated otherwise a function is not thread-safe:
 * do not call two functions on one engine at the same time. gts_engine_stop()
 * is the exception and may be called from any thread at any time.
 */
#ifndef GTS_ENGINE_H
#define GTS_ENGINE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque engine handle. */
typedef struct gts_engine gts_engine;

/**
 * Run-time options, set with gts_engine_set(). Numbered by group with gaps
 * (100s transposition table, 200s search, 300s threads); values never change.
 * gts_option_bounds() tells the range and default of each.
 */
typedef enum gts_option {
    /** Transposition table size in MiB; 0 disables the table. Default 16. */
    GTS_OPT_TT_MB = 100,

    /** Aspiration window half-width of iterative deepening; 0 = full window. Default 0. */
    GTS_OPT_ASPIRATION = 200,
    /** Killer-move ordering (0/1). Default 1. */
    GTS_OPT_KILLERS = 201,
    /** History-heuristic ordering (0/1). Default 1. */
    GTS_OPT_HISTORY = 202,
    /** Quiescence search through generate_noisy (0/1). Default 1. */
    GTS_OPT_QUIESCENCE = 203,
    /** Iterative deepening (0/1): 0 searches the target depth directly. Default 1. */
    GTS_OPT_ITERATIVE = 204,
    /**
     * N-best selective search: when > 0, only the N best-ordered moves are
     * searched at nodes with remaining depth <= GTS_OPT_NBEST_DEPTH.
     * Selective: the result may differ from minimax. Default 0 (off).
     */
    GTS_OPT_NBEST = 210,
    /** Remaining depth at or below which GTS_OPT_NBEST applies. Default 0. */
    GTS_OPT_NBEST_DEPTH = 211,

    /** Worker threads of parallel algorithms (1..256). Default 1. */
    GTS_OPT_THREADS = 300
} gts_option;

/**
 * Create an engine with default options. The table is allocated lazily on
 * the first search. Returns GTS_EINVAL for a NULL @p out, GTS_ENOMEM.
 * Thread-safe.
 */
GTS_API gts_status gts_engine_new(gts_engine **out);

/**
 * A memory allocator for one engine, in the shape of Concurrency Kit's
 * ck_malloc: the library tells @c release the size it asked @c allocate for,
 * so a pool or arena allocator needs no header of its own.
 *
 * Contract: @c allocate returns memory aligned for any object (like malloc)
 * or NULL; it is never asked for 0 bytes. @c release gets exactly the pointer
 * and size of an earlier @c allocate, never NULL. Both are called from the
 * engine's worker threads during a parallel search, so they must be
 * thread-safe. Every allocation failure surfaces as GTS_ENOMEM from the call
 * that needed the memory (or, for a parallel search, a search that falls
 * back to less parallelism and still returns an exact result); nothing leaks.
 * The engine keeps a copy of this struct; @c user must outlive the engine.
 *
 * @since 0.1
 */
typedef struct gts_allocator {
    /** sizeof(gts_allocator): lets the struct grow at its end. */
    size_t struct_size;
    /** Return @p size bytes, or NULL. Thread-safe. */
    void *(*allocate)(size_t size, void *user);
    /** Free @p ptr, which came from @c allocate(@p size). Thread-safe. */
    void (*release)(void *ptr, size_t size, void *user);
    /** Passed back to both functions. */
    void *user;
} gts_allocator;

/**
 * Like gts_engine_new(), but every byte the engine ever allocates (engine,
 * transposition table, per-thread contexts, thread pool, parallel-search
 * scratch memory) comes from @p allocator. A NULL @p allocator means the C
 * library's malloc/free. Returns GTS_EINVAL for a NULL @p out, an allocator
 * whose struct_size is not sizeof(gts_allocator) or whose functions are
 * NULL; GTS_ENOMEM. Thread-safe.
 *
 * @since 0.1
 */
GTS_API gts_status gts_engine_new_with(gts_engine **out, const gts_allocator *allocator);

/** Free an engine and join its threads. NULL is accepted. Not during a search. */
GTS_API void gts_engine_free(gts_engine *engine);

/**
 * Set @p option to @p value. GTS_EOPTION for an unknown option, GTS_ERANGE
 * outside gts_option_bounds(), GTS_EBUSY during a search, GTS_ENOMEM when
 * a new table cannot be allocated (the old one is kept).
 */
GTS_API gts_status gts_engine_set(gts_engine *engine, gts_option option, int64_t value);

/** Read the current value of @p option into @p value. */
GTS_API gts_status gts_engine_get(const gts_engine *engine, gts_option option, int64_t *value);

/**
 * Range and default of @p option. Any pointer may be NULL. Thread-safe.
 * GTS_EOPTION for an unknown option.
 */
GTS_API gts_status gts_option_bounds(gts_option option, int64_t *min, int64_t *max, int64_t *def);

/**
 * Name of @p option: the enum name without GTS_OPT_, lowercase ("tt_mb",
 * "threads"), or NULL for an unknown option. Thread-safe; static string.
 */
GTS_API const char *gts_option_name(gts_option option);

/** Parse an option name ("threads"). GTS_EOPTION if unknown. Thread-safe. */
GTS_API gts_status gts_option_from_name(const char *name, gts_option *option);

/**
 * Enumerate options: writes up to @p capacity values to @p out (which may be
 * NULL) and returns how many exist. Thread-safe.
 */
GTS_API int gts_option_list(gts_option *out, int capacity);

/** Forget everything learnt: transposition table, killers, history. */
GTS_API gts_status gts_engine_clear(gts_engine *engine);

/**
 * Ask the running search (if any) to stop as soon as possible; it returns
 * the result of its last completed iteration. Safe from any thread, any time,
 * including from a progress callback. A stop that arrives while no search is
 * running is ignored (each search starts unstopped).
 */
GTS_API void gts_engine_stop(gts_engine *engine);

/**
 * Fill of the transposition table in permille (0..1000), sampled over the
 * first thousand buckets, counting entries of the current generation.
 */
GTS_API int gts_engine_hashfull(const gts_engine *engine);

#ifdef __cplusplus
}
#endif
#endif /* GTS_ENGINE_H */
