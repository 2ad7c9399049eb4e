/*
 * plugin.h - game libraries in the `gts` tool (tools/plugin.c).
 *
 * Where a command takes a GAME, a name with a '/' in it is the path of a
 * game library (include/gts/plugin.h): the tool dlopen()s it once, calls
 * its gts_plugin_game() and checks the descriptor. doc/cli.md, "Game
 * libraries".
 */
#ifndef GTS_TOOLS_PLUGIN_H
#define GTS_TOOLS_PLUGIN_H

#include <gts/gts.h>

#include <stdbool.h>
#include <stddef.h>

/* Whether @p name names a game library (it contains a '/'). */
bool cli_is_game_library(const char *name);

/* The checked descriptor of the game library at @p path, loaded on first
 * use and kept until exit (fields past the library's struct_size read as
 * NULL); NULL with the reason in @p why ("cannot load ...: dlerror", "it
 * exports no gts_plugin_game", a bad descriptor). */
const gts_plugin *cli_plugin_get(const char *path, char *why, size_t size);

/* cli_plugin_get(), printing the reason as a usage error of @p command. */
const gts_plugin *cli_plugin_load(const char *path, const char *command);

/* A state of @p p's game from @p text (its position_new() with its user
 * pointer), or NULL with the reason in @p why: the game's own words, else
 * the status's. */
void *cli_plugin_position_new(const gts_plugin *p, const char *text, char *why, size_t size);

#endif
