/*
 * plugin.c - game libraries (include/gts/plugin.h) for the `gts` tool.
 *
 * A GAME argument with a '/' in it is a path: the library is dlopen()ed
 * (RTLD_NOW, so a missing symbol is found here and not in the middle of a
 * search), its gts_plugin_game() is called once, and the descriptor is
 * copied into a zeroed struct of this tool's size: fields past the
 * library's struct_size read as NULL (the gts_plugin versioning rule). The
 * checks refuse what would crash later: a size below the 0.2 layout, a
 * missing name, game or position_new, a game without free() (the
 * commands release every state with gts_games_free(), that is the game's
 * free()), or without generate, apply, undo or evaluate, a max_moves
 * outside 1..65535 (the commands size their move buffers with it).
 *
 * Libraries stay loaded until the process exits (states and vtables point
 * into them); a path loaded twice is loaded once. The tool is
 * single-threaded when it loads one, so the small table needs no lock.
 */
#include "plugin.h"

#include "gts_games.h"
#include "message.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Distinct game libraries one process may load (match and the checks use
 * one; a table keeps repeated look-ups of the same path cheap). */
enum { PLUGIN_MAX_LOADED = 8 };

typedef struct loaded_plugin {
    char *path;
    gts_plugin desc; /* the library's descriptor, its unknown fields NULL */
} loaded_plugin;

static loaded_plugin loaded[PLUGIN_MAX_LOADED];
static int nloaded;

bool cli_is_game_library(const char *name)
{
    return name && strchr(name, '/') != NULL;
}

/* Check the library's descriptor @p d (copied into @p out); false with the
 * reason in @p why. */
static bool plugin_check(const gts_plugin *d, gts_plugin *out, char *why, size_t size)
{
    if (!d) {
        snprintf(why, size, "%s() returned NULL", GTS_PLUGIN_ENTRY);
        return false;
    }
    if (d->struct_size < GTS_PLUGIN_SIZE_V0_2) {
        snprintf(why, size,
                 "its gts_plugin has struct_size %zu, below the 0.2 layout's %zu (set it to "
                 "sizeof(gts_plugin))",
                 d->struct_size, (size_t)GTS_PLUGIN_SIZE_V0_2);
        return false;
    }
    memset(out, 0, sizeof *out);
    memcpy(out, d, d->struct_size < sizeof *out ? d->struct_size : sizeof *out);
    out->struct_size = sizeof *out;
    const char *missing = !out->name                   ? "name"
                          : !out->game                 ? "game"
                          : !out->position_new         ? "position_new"
                          : !out->game->generate       ? "game->generate"
                          : !out->game->apply          ? "game->apply"
                          : !out->game->undo           ? "game->undo"
                          : !out->game->evaluate       ? "game->evaluate"
                          : !out->game->free           ? "game->free"
                                                       : NULL;
    if (missing) {
        snprintf(why, size, "its gts_plugin has no %s%s", missing,
                 strcmp(missing, "game->free") == 0
                     ? " (the tool releases the states of position_new() with it)"
                     : "");
        return false;
    }
    if (out->game->max_moves < 1 || out->game->max_moves > 65535) {
        snprintf(why, size, "its game's max_moves is %u, not 1..65535 (gts/game.h)",
                 (unsigned)out->game->max_moves);
        return false;
    }
    if (!out->name[0] || strpbrk(out->name, " \t\n\r")) {
        char *esc = cli_escaped(out->name);
        snprintf(why, size, "its gts_plugin's name '%s' is empty or has a blank", esc);
        free(esc);
        return false;
    }
    return true;
}

const gts_plugin *cli_plugin_get(const char *path, char *why, size_t size)
{
    for (int i = 0; i < nloaded; i++)
        if (strcmp(loaded[i].path, path) == 0)
            return &loaded[i].desc;
    if (nloaded == PLUGIN_MAX_LOADED) {
        snprintf(why, size, "more than %d game libraries", PLUGIN_MAX_LOADED);
        return NULL;
    }
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *e = dlerror();
        snprintf(why, size, "cannot load the game library: %s", e ? e : "dlopen failed");
        return NULL;
    }
    /* dlsym returns a data pointer; POSIX guarantees the conversion. */
    gts_plugin_entry_fn *entry;
    void *sym = dlsym(handle, GTS_PLUGIN_ENTRY);
    memcpy(&entry, &sym, sizeof entry);
    if (!entry) {
        snprintf(why, size, "not a game library: it exports no %s() (include/gts/plugin.h)",
                 GTS_PLUGIN_ENTRY);
        dlclose(handle);
        return NULL;
    }
    loaded_plugin *lp = &loaded[nloaded];
    if (!plugin_check(entry(), &lp->desc, why, size)) {
        dlclose(handle);
        return NULL;
    }
    lp->path = strdup(path);
    if (!lp->path)
        cli_oom();
    nloaded++;
    return &lp->desc; /* the handle stays open until exit */
}

const gts_plugin *cli_plugin_load(const char *path, const char *command)
{
    char why[1024];
    const gts_plugin *p = cli_plugin_get(path, why, sizeof why);
    if (!p) {
        char *esc = cli_escaped(path);
        cli_usage_error(command, "game library '%s': %s", esc, why);
        free(esc);
    }
    return p;
}

void *cli_plugin_position_new(const gts_plugin *p, const char *text, char *why, size_t size)
{
    void *state = NULL;
    why[0] = '\0';
    int rc = p->position_new(text, &state, why, size, p->user);
    why[size - 1] = '\0';
    if (rc == GTS_OK && state)
        return state;
    if (rc == GTS_OK) {
        snprintf(why, size, "position_new() returned no state");
        return NULL;
    }
    if (state) /* a failing position_new() should not leave one */
        gts_games_free(p->game, state);
    if (!why[0])
        snprintf(why, size, "%s", rc == GTS_EPARSE ? "not a position of the game"
                                                     : gts_strerror(rc));
    return NULL;
}
