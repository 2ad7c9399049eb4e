/* ABI guard: the public headers compile as strict C99 with -pedantic -Werror
 * (built twice by tests/meson.build: as is, and with GTS_EXPERIMENTAL_API
 * defined). */
#include <gts/gts.h>

/* A 0.2 feature is tested for as README's "Versioning and ABI" says: the
 * headers declare gts_game_check() and gts_mcts(), @since 0.2. */
#if !(GTS_VERSION_MAJOR > 0 || GTS_VERSION_MINOR >= 2)
#error "gts/version.h is older than the 0.2 API its headers declare"
#endif

/* The gate: the experimental options are macros, declared exactly when the
 * program asks for them. */
#if defined(GTS_EXPERIMENTAL_API) != defined(GTS_OPT_VIRTUAL)
#error "GTS_OPT_VIRTUAL must be declared exactly when GTS_EXPERIMENTAL_API is defined"
#endif

int main(void)
{
    gts_limits l = {sizeof l, 3, 0, 0, 0, false, 0, 0, 0, 0, 0, 0};
    gts_result r;
#ifdef GTS_EXPERIMENTAL_API
    gts_option knobs[] = {GTS_OPT_TT_PREFETCH, GTS_OPT_TT_NEAR_DEPTH, GTS_OPT_TT_NEAR_KB,
                          GTS_OPT_ROOT_DRIVER, GTS_OPT_DEEPEN_NODES, GTS_OPT_VIRTUAL,
                          GTS_OPT_SPLIT_PLY};
    gts_root_driver driver = GTS_ROOT_BISECT;
    size_t i;
    for (i = 0; i < sizeof knobs / sizeof knobs[0]; i++)
        if (gts_option_name(knobs[i]) == NULL)
            return 1;
    if (driver != 1)
        return 1;
    (void)&gts_engine_virtual_stats;
    (void)&gts_engine_virtual_sync;
#endif
    r.struct_size = sizeof r;
    (void)l;
    return gts_version() >> 16 == GTS_VERSION_MAJOR && r.struct_size == sizeof r ? 0 : 1;
}
