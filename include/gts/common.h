/**
 * @file common.h
 * @brief Status codes, scores and the export macro shared by every libgts header.
 *
 * Public headers include only <stddef.h>, <stdint.h> and <stdbool.h> and are
 * C99-clean and usable from C++.
 */
#ifndef GTS_COMMON_H
#define GTS_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marks a function exported from libgts.so (everything else is hidden). */
#if defined(_WIN32)
#  define GTS_API __declspec(dllexport)
#elif defined(__GNUC__) && __GNUC__ >= 4
#  define GTS_API __attribute__((visibility("default")))
#else
#  define GTS_API
#endif

/**
 * The one list of status codes: X(NAME, value, message).
 * It generates the `gts_status` enum, gts_strerror() and gts_status_name().
 * Values are stable ABI: never renumber, only append.
 */
#define GTS_STATUS_MAP(X)                                                     \
    X(OK,         0,  "success")                                              \
    X(EINVAL,    -1,  "invalid argument")                                     \
    X(ENOMEM,    -2,  "out of memory")                                        \
    X(ESTRUCT,   -3,  "unsupported struct_size")                              \
    X(EOPTION,   -4,  "unknown option")                                       \
    X(ERANGE,    -5,  "value out of range")                                   \
    X(ECALLBACK, -6,  "a game callback reported an error")                    \
    X(EMOVES,    -7,  "generate returned more moves than max_moves")          \
    X(ESCORE,    -8,  "evaluate returned a score outside [LOSS, WIN]")        \
    X(ENOTSUP,   -9,  "operation not supported by this game or build")        \
    X(EBUSY,     -10, "engine is already searching")                          \
    X(ETHREAD,   -11, "could not create a thread")                            \
    X(EALGORITHM,-12, "unknown algorithm")                                    \
    X(EPARSE,    -13, "could not parse input")

/** Status returned by every fallible libgts call: 0 on success, negative on error. */
typedef enum gts_status {
#define GTS__STATUS_ENUM(name, value, msg) GTS_##name = (value),
    GTS_STATUS_MAP(GTS__STATUS_ENUM)
#undef GTS__STATUS_ENUM
    GTS__STATUS_MIN = -13
} gts_status;

/**
 * Human-readable message for a status code ("unknown status" for others).
 * Thread-safe; the string is static.
 */
GTS_API const char *gts_strerror(int status);

/**
 * Symbolic name of a status code without the prefix ("EINVAL"), or NULL
 * for a value that is not a gts_status. Thread-safe; the string is static.
 */
GTS_API const char *gts_status_name(int status);

/** A score in centi-units of the game, from the side to move (negamax). */
typedef int32_t gts_score;

/** Largest ply the library will search to; deeper nodes are evaluated. */
#define GTS_MAX_PLY 128
/** Largest depth a caller may ask for. */
#define GTS_MAX_DEPTH (GTS_MAX_PLY - 1)

/** Window bound: no evaluation reaches it. */
#define GTS_SCORE_INF 32000
/** Side to move has won (at this node). */
#define GTS_SCORE_WIN 31000
/** Side to move has lost (at this node). */
#define GTS_SCORE_LOSS (-GTS_SCORE_WIN)
/** Scores at or beyond this magnitude are decided (distance-to-end) scores. */
#define GTS_SCORE_DECIDED (GTS_SCORE_WIN - 2 * GTS_MAX_PLY)
/** An evaluate() callback returns this to report a failure. */
#define GTS_SCORE_INVALID INT32_MIN

/**
 * Win for the side to move in @p plies further plies. A game usually returns
 * GTS_SCORE_WIN / GTS_SCORE_LOSS for a finished game; the library subtracts
 * the distance from the root so that faster wins and slower losses are
 * preferred, and stores such scores in the TT relative to the node.
 */
static inline gts_score gts_score_win_in(int plies) { return GTS_SCORE_WIN - plies; }
/** Loss for the side to move in @p plies further plies. */
static inline gts_score gts_score_loss_in(int plies) { return GTS_SCORE_LOSS + plies; }
/** True for a decided winning score. */
static inline bool gts_score_is_win(gts_score s) { return s >= GTS_SCORE_DECIDED; }
/** True for a decided losing score. */
static inline bool gts_score_is_loss(gts_score s) { return s <= -GTS_SCORE_DECIDED; }
/** Plies to the end of the game for a decided score (-1 if not decided). */
static inline int gts_score_plies_to_end(gts_score s)
{
    if (gts_score_is_win(s)) return GTS_SCORE_WIN - s;
    if (gts_score_is_loss(s)) return s - GTS_SCORE_LOSS;
    return -1;
}

/** An opaque move; the library never interprets it. */
typedef uint64_t gts_move;
/** Value of gts_result.best_move when there is none (terminal root). */
#define GTS_MOVE_NONE UINT64_MAX

#ifdef __cplusplus
}
#endif
#endif /* GTS_COMMON_H */
