/* ABI guard: the public headers compile as strict C99 with -pedantic -Werror. */
#include <gts/gts.h>

/* A 0.2 feature is tested for as README's "Versioning and ABI" says: the
 * headers declare gts_game_check() and gts_mcts(), @since 0.2. */
#if !(GTS_VERSION_MAJOR > 0 || GTS_VERSION_MINOR >= 2)
#error "gts/version.h is older than the 0.2 API its headers declare"
#endif

int main(void)
{
    gts_limits l = {sizeof l, 3, 0, 0, 0, false, 0, 0, 0, 0};
    gts_result r;
    r.struct_size = sizeof r;
    (void)l;
    return gts_version() >> 16 == GTS_VERSION_MAJOR && r.struct_size == sizeof r ? 0 : 1;
}
