/**
 * @file plugin.h
 * @brief Game libraries: a game adapter in a shared library that the `gts`
 *        tool loads with dlopen() (`gts search ./libmygame.so POSITION`).
 *
 * After writing an adapter (a ::gts_game), its author can run every command
 * of the `gts` tool on it (search, perft, nodes, match, check) without
 * touching the tool: build the adapter as a shared library that exports one
 * function, named #GTS_PLUGIN_ENTRY ("gts_plugin_game"), of the type
 * ::gts_plugin_entry_fn:
 *
 * @code
 * #include <gts/gts.h>
 *
 * static int nim_position_new(const char *text, void **state, char *why, size_t size,
 *                             void *user);
 *
 * static const gts_plugin NIM_PLUGIN = {
 *     .struct_size = sizeof NIM_PLUGIN,
 *     .name = "nim",
 *     .game = &NIM_GAME,
 *     .position_new = nim_position_new,
 * };
 *
 * GTS_PLUGIN_EXPORT const gts_plugin *gts_plugin_game(void) { return &NIM_PLUGIN; }
 * @endcode
 *
 * and name the library where a command takes a game name: any name with a
 * '/' in it is a path to a game library (`./libnim.so`,
 * `/usr/lib/mygames/libnim.so`), anything else a built-in game. A C++
 * library declares the function `extern "C"`.
 *
 * Nothing in libgts loads game libraries: this header only describes the
 * contract between the library's author and the program that loads it (the
 * `gts` tool, doc/cli.md "Game libraries"; doc/adapter.md shows a complete
 * one). The descriptor starts with struct_size and only grows at its end,
 * so a library built against an older header keeps loading.
 * @since 0.2
 */
#ifndef GTS_PLUGIN_H
#define GTS_PLUGIN_H

#include <stddef.h>

#include "common.h"
#include "game.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief The name of the function a game library exports:
 *        "gts_plugin_game", of type ::gts_plugin_entry_fn.
 * @since 0.2
 */
#define GTS_PLUGIN_ENTRY "gts_plugin_game"

/**
 * @def GTS_PLUGIN_EXPORT
 * @brief Marks the entry function for export from a game library built
 *        with hidden visibility (`-fvisibility=hidden`, meson's
 *        `gnu_symbol_visibility: 'hidden'`). Harmless otherwise.
 * @since 0.2
 */
#if defined(_WIN32)
#  define GTS_PLUGIN_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#  define GTS_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#  define GTS_PLUGIN_EXPORT
#endif

/**
 * @brief A game library's description of its game (returned by its
 *        #GTS_PLUGIN_ENTRY function).
 *
 * The descriptor, the game and the strings stay valid as long as the
 * library is loaded; the loader never writes to them. A loader refuses a
 * descriptor whose struct_size is below #GTS_PLUGIN_SIZE_V0_2, whose
 * name, game or position_new is NULL, or whose game has no free()
 * callback (the states position_new() makes are released with it).
 * @since 0.2
 */
typedef struct gts_plugin {
    /** @brief sizeof(gts_plugin) as compiled by the library's author. A
        loader reads only the fields this size covers; fields beyond it are
        taken as NULL. @since 0.2 */
    size_t struct_size;
    /** @brief The game's name in messages and output ("nim"): printable
        ASCII, no blank. @since 0.2 */
    const char *name;
    /** @brief The game's callbacks. It must have free() (and, for the
        parallel algorithms, clone()). @since 0.2 */
    const gts_game *game;
    /**
     * @brief Build a state from a position text.
     *
     * @param text  the position, NUL-terminated; "" is the game's start
     *              position. The syntax is the game's own (a list of moves,
     *              a board, parameters).
     * @param[out] state receives the new state on success, released later
     *              with `game->free(state, game->user)`.
     * @param why   on failure, the library may write one line saying what
     *              is wrong with @p text ("move 3: column 1 is full");
     *              NUL-terminated within @p size bytes. Left empty, the
     *              loader names the returned status.
     * @param size  bytes at @p why (at least 256).
     * @param user  the descriptor's user pointer.
     * @return 0 (#GTS_OK), #GTS_EPARSE for a text that is not a position
     *         of the game, #GTS_ENOMEM, or another negative status.
     * @since 0.2
     */
    int (*position_new)(const char *text, void **state, char *why, size_t size, void *user);
    /** @brief Passed to position_new(). @since 0.2 */
    void *user;
    /** @brief How a position text lists moves from the start, for openings
        made of moves (`gts match --openings all:N`): the text before the
        first move ("moves=", "startpos moves "); NULL is "". @since 0.2 */
    const char *moves_prefix;
    /** @brief The text between two moves of such a list; NULL means
        openings made of moves are not available (a fixed --opening still
        is). Each move is written with the game's format_move(), which the
        game then needs. @since 0.2 */
    const char *moves_separator;
} gts_plugin;

/** @brief struct_size of the first layout of gts_plugin (0.2). @since 0.2 */
#define GTS_PLUGIN_SIZE_V0_2 (offsetof(gts_plugin, moves_separator) + sizeof(const char *))

/**
 * @brief The type of a game library's entry function (#GTS_PLUGIN_ENTRY).
 * @return the library's descriptor, or NULL when the library cannot
 *         provide its game (the loader then reports it and stops).
 *
 * Called once, after dlopen(), from the loading thread.
 * @since 0.2
 */
typedef const gts_plugin *gts_plugin_entry_fn(void);

#ifdef __cplusplus
}
#endif
#endif /* GTS_PLUGIN_H */
