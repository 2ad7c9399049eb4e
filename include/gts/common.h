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

/**
 * @def GTS_API
 * @brief Marks a function exported from libgts.so (everything else is hidden).
 *
 * Expands to the compiler's visibility attribute; the exported set is also
 * pinned by the version script lib/libgts.map.
 * @since 0.1
 */
#if defined(_WIN32)
#  define GTS_API __declspec(dllexport)
#elif defined(__GNUC__) && __GNUC__ >= 4
#  define GTS_API __attribute__((visibility("default")))
#else
#  define GTS_API
#endif

/**
 * @brief The one list of status codes: X(NAME, value, message).
 *
 * It generates the ::gts_status enum, gts_strerror() and gts_status_name().
 * Values are stable ABI: never renumber, only append. A caller may expand it
 * too, e.g. to build its own table of names.
 *
 * @param X a macro taking (NAME, value, message): NAME without the `GTS_`
 *          prefix, the negative value, and the gts_strerror() message.
 * @since 0.1
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

/**
 * @brief Status returned by every fallible libgts call: 0 on success,
 *        negative on error.
 *
 * The enumerators are generated from #GTS_STATUS_MAP (GTS_OK, GTS_EINVAL,
 * ...; documented one by one below). Values never change.
 * gts_strerror() and gts_status_name() describe any value.
 * @since 0.1
 */
typedef enum gts_status {
#define GTS__STATUS_ENUM(name, value, msg) GTS_##name = (value),
    GTS_STATUS_MAP(GTS__STATUS_ENUM)
#undef GTS__STATUS_ENUM
    GTS__STATUS_MIN = -13
} gts_status;
/** @var GTS_OK
 *  @brief Success.
 *  @since 0.1 */
/** @var GTS_EINVAL
 *  @brief Invalid argument: a NULL pointer, a missing required callback, an empty window.
 *  @since 0.1 */
/** @var GTS_ENOMEM
 *  @brief Out of memory (the call had no effect, or the search stopped and unwound).
 *  @since 0.1 */
/** @var GTS_ESTRUCT
 *  @brief A struct_size this version of the library does not know.
 *  @since 0.1 */
/** @var GTS_EOPTION
 *  @brief Unknown ::gts_option or option name.
 *  @since 0.1 */
/** @var GTS_ERANGE
 *  @brief A value outside its documented range.
 *  @since 0.1 */
/** @var GTS_ECALLBACK
 *  @brief A game callback reported an error; gts_result::callback_status holds its value.
 *  @since 0.1 */
/** @var GTS_EMOVES
 *  @brief Generate() returned more moves than gts_game::max_moves.
 *  @since 0.1 */
/** @var GTS_ESCORE
 *  @brief Evaluate() returned a score outside [#GTS_SCORE_LOSS, #GTS_SCORE_WIN].
 *  @since 0.1 */
/** @var GTS_ENOTSUP
 *  @brief Not supported by this game or build (a parallel algorithm on a game without clone/free).
 *  @since 0.1 */
/** @var GTS_EBUSY
 *  @brief The engine is searching.
 *  @since 0.1 */
/** @var GTS_ETHREAD
 *  @brief A worker thread could not be created.
 *  @since 0.1 */
/** @var GTS_EALGORITHM
 *  @brief Unknown ::gts_algorithm or algorithm name.
 *  @since 0.1 */
/** @var GTS_EPARSE
 *  @brief Could not parse input (used by the tools and bindings).
 *  @since 0.1 */

/**
 * @brief Human-readable message of a status code.
 *
 * @param status a ::gts_status value (any int is accepted).
 * @return the message of #GTS_STATUS_MAP ("invalid argument"), or
 *         "unknown status" for a value that is not a ::gts_status; never
 *         NULL. The string is static: do not free it.
 *
 * Thread-safe.
 * @since 0.1
 */
GTS_API const char *gts_strerror(int status);

/**
 * @brief Symbolic name of a status code, without the `GTS_` prefix.
 *
 * @param status a ::gts_status value (any int is accepted).
 * @return "OK", "EINVAL", ..., or NULL for a value that is not a
 *         ::gts_status. The string is static: do not free it.
 *
 * Thread-safe.
 * @since 0.1
 */
GTS_API const char *gts_status_name(int status);

/**
 * @brief The structs that start with struct_size (see gts_struct_size()).
 *
 * Versioning rule for all of them: a caller sets struct_size to the
 * sizeof() it was compiled with. The library accepts every size from the
 * struct's first published layout (the `GTS_*_SIZE_V0_1` constants) up to
 * its own sizeof that ends at a field boundary (the end of a field or in
 * the padding after it): it reads the fields the caller has and uses the
 * defaults (0 / NULL) for the rest, and it writes only the caller's size of
 * a struct it fills. A size that ends inside a field (part of a pointer or
 * number; no compiler makes one) is refused, never read (since 0.2). A size
 * larger than its own (a caller built against newer headers) is accepted
 * only when every byte it does not know is zero (at most 4096 of them);
 * anything else gives #GTS_ESTRUCT. gts_engine_last_error() (or, for
 * gts_game_check(), the report's message) then names the struct at fault.
 * @since 0.2
 */
typedef enum gts_struct_id {
    GTS_STRUCT_GAME = 1,           /**< @brief gts_game. @since 0.2 */
    GTS_STRUCT_LIMITS = 2,         /**< @brief gts_limits. @since 0.2 */
    GTS_STRUCT_RESULT = 3,         /**< @brief gts_result. @since 0.2 */
    GTS_STRUCT_PROBCUT_PARAMS = 4, /**< @brief gts_probcut_params. @since 0.2 */
    GTS_STRUCT_PROBCUT_FIT = 5,    /**< @brief gts_probcut_fit. @since 0.2 */
    GTS_STRUCT_ALLOCATOR = 6,      /**< @brief gts_allocator. @since 0.2 */
    GTS_STRUCT_MCTS_MOVE_STATS = 7, /**< @brief gts_mcts_move_stats. @since 0.2 */
    GTS_STRUCT_CHECK_OPTIONS = 8,   /**< @brief gts_check_options. @since 0.2 */
    GTS_STRUCT_CHECK_REPORT = 9,    /**< @brief gts_check_report. @since 0.2 */
    GTS_STRUCT_EVALUATOR = 10       /**< @brief gts_evaluator. @since 0.3 */
} gts_struct_id;

/**
 * @brief sizeof() of a versioned struct in the loaded library.
 *
 * A binding that mirrors the structs (the Python one does) compares its
 * sizes with these at load time: a size the library would accept is not
 * proof that the mirror's layout is right.
 *
 * @param id which struct.
 * @return its size in bytes, or 0 for an unknown @p id.
 *
 * Thread-safe.
 * @since 0.2
 */
GTS_API size_t gts_struct_size(gts_struct_id id);

/**
 * @brief A score in centi-units of the game, from the side to move (negamax).
 *
 * Evaluations lie in [#GTS_SCORE_LOSS, #GTS_SCORE_WIN]; scores at or beyond
 * #GTS_SCORE_DECIDED in magnitude are decided (distance-to-end) scores.
 * @since 0.1
 */
typedef int32_t gts_score;

/** @brief Largest ply the library will search to; deeper nodes are evaluated. @since 0.1 */
#define GTS_MAX_PLY 128
/** @brief Largest depth a caller may ask for (gts_limits::depth). @since 0.1 */
#define GTS_MAX_DEPTH (GTS_MAX_PLY - 1)

/** @brief Window bound: no evaluation reaches it. @since 0.1 */
#define GTS_SCORE_INF 32000
/** @brief Side to move has won (at this node). @since 0.1 */
#define GTS_SCORE_WIN 31000
/** @brief Side to move has lost (at this node). @since 0.1 */
#define GTS_SCORE_LOSS (-GTS_SCORE_WIN)
/** @brief Scores at or beyond this magnitude are decided (distance-to-end) scores. @since 0.1 */
#define GTS_SCORE_DECIDED (GTS_SCORE_WIN - 2 * GTS_MAX_PLY)
/** @brief An evaluate() callback returns this to report a failure. @since 0.1 */
#define GTS_SCORE_INVALID INT32_MIN

/**
 * @brief Win for the side to move in @p plies further plies.
 *
 * A game usually returns #GTS_SCORE_WIN / #GTS_SCORE_LOSS for a finished
 * game; the library subtracts the distance from the root so that faster
 * wins and slower losses are preferred, and stores such scores in the TT
 * relative to the node.
 *
 * @param plies plies until the game ends, 0..2 * #GTS_MAX_PLY.
 * @return #GTS_SCORE_WIN - @p plies.
 *
 * Thread-safe.
 * @since 0.1
 */
static inline gts_score gts_score_win_in(int plies) { return GTS_SCORE_WIN - plies; }
/**
 * @brief Loss for the side to move in @p plies further plies.
 * @param plies plies until the game ends, 0..2 * #GTS_MAX_PLY.
 * @return #GTS_SCORE_LOSS + @p plies.
 *
 * Thread-safe.
 * @since 0.1
 */
static inline gts_score gts_score_loss_in(int plies) { return GTS_SCORE_LOSS + plies; }
/**
 * @brief Whether @p s is a decided winning score.
 * @param s a score from the side to move.
 * @return true when @p s >= #GTS_SCORE_DECIDED.
 *
 * Thread-safe.
 * @since 0.1
 */
static inline bool gts_score_is_win(gts_score s) { return s >= GTS_SCORE_DECIDED; }
/**
 * @brief Whether @p s is a decided losing score.
 * @param s a score from the side to move.
 * @return true when @p s <= -#GTS_SCORE_DECIDED.
 *
 * Thread-safe.
 * @since 0.1
 */
static inline bool gts_score_is_loss(gts_score s) { return s <= -GTS_SCORE_DECIDED; }
/**
 * @brief Plies to the end of the game for a decided score.
 * @param s a score from the side to move (as in gts_result::score).
 * @return the distance to the end in plies for a decided win or loss, or -1
 *         when @p s is not decided.
 *
 * Thread-safe.
 * @since 0.1
 */
static inline int gts_score_plies_to_end(gts_score s)
{
    if (gts_score_is_win(s)) return GTS_SCORE_WIN - s;
    if (gts_score_is_loss(s)) return s - GTS_SCORE_LOSS;
    return -1;
}

/**
 * @brief An opaque move; the library never interprets it.
 *
 * The game encodes moves as it likes; #GTS_MOVE_NONE is reserved.
 * @since 0.1
 */
typedef uint64_t gts_move;
/** @brief Value of gts_result::best_move when there is none (terminal root). @since 0.1 */
#define GTS_MOVE_NONE UINT64_MAX

#ifdef __cplusplus
}
#endif
#endif /* GTS_COMMON_H */
