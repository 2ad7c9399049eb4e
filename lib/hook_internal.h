/*
 * hook_internal.h - the hooks libgts exports for libgts-mpi (internal).
 *
 * Not public API: no public header declares them, they live in the
 * GTS_PRIVATE node of libgts.map and may change with any release (like
 * glibc's GLIBC_PRIVATE). libgts-mpi is built from the same tree, so it
 * always matches. Include only public headers here: mpi/ has no Concurrency
 * Kit and must not see the engine's layout.
 *
 * The watch. gts_engine_stop() stops the engine's running search and is
 * dropped when none runs (each search starts unstopped). A distributed
 * search is one search made of many gts_search() calls and the waits
 * between them, so a stop must not be lost in a wait: while a watch is
 * open, gts_engine_stop() also records the stop in the watch, where the
 * holder reads it whenever it likes. The stop of the running search, if
 * any, happens as before.
 */
#ifndef GTS_HOOK_INTERNAL_H
#define GTS_HOOK_INTERNAL_H

#include <gts/gts.h>

/* Open the watch of @p engine: from now on gts_engine_stop() is recorded.
 * GTS_EBUSY when a watch is already open. Not thread-safe: the engine's
 * owner thread, like gts_search(). */
GTS_API gts_status gts__engine_watch_begin(gts_engine *engine);
/* True once gts_engine_stop() was called on @p engine since its watch
 * opened. Thread-safe (one atomic load). */
GTS_API bool gts__engine_watch_stopped(const gts_engine *engine);
/* Close the watch; a later stop is dropped again. Owner thread only. */
GTS_API void gts__engine_watch_end(gts_engine *engine);
/* Stop the running search as gts_engine_stop() does (GTS_RESULT_STOPPED),
 * without recording it in the watch: the holder's own cancel of work it no
 * longer needs, which is not the user's stop. Thread-safe, lock-free. */
GTS_API void gts__engine_cancel(gts_engine *engine);
/* Exact-depth table cutoffs: with @p on, a node takes a cutoff (or a
 * narrower window) from a table entry only when the entry's remaining
 * depth equals its own; from a deeper one only a forced win (lower bound)
 * or loss (upper bound) within the node's horizon, which a search of any
 * depth reaching it finds (lib/search/node.h). A fixed-depth search then
 * returns exactly its minimax value (fail-soft in its window) whatever
 * searches of other depths left in the table; entries of any depth still
 * order the moves. APHID's leaf searches need it (mpi/gts_mpi.c). Returns
 * the previous setting (false for NULL). Owner thread, between searches. */
GTS_API bool gts__engine_exact_depth(gts_engine *engine, bool on);
/* Set what gts_engine_last_error() returns: a static string (NULL: none).
 * For gts_mpi_search(), which reads versioned structs of its own.
 * Thread-safe (one atomic store). */
GTS_API void gts__engine_note_error(gts_engine *engine, const char *detail);

#endif
