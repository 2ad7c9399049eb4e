// ABI guard: the public headers compile and link from C++ (built twice by
// tests/meson.build: as is, and with GTS_EXPERIMENTAL_API defined).
#include <gts/gts.h>
#include <cstdio>

int main()
{
    gts_engine *e = nullptr;
    if (gts_engine_new(&e) != GTS_OK)
        return 1;
#ifdef GTS_EXPERIMENTAL_API
    // The experimental options are gts_option constants a C++ caller passes
    // as they are, and the gated functions link.
    uint64_t rounds = 1, idle = 1;
    gts_root_driver driver = GTS_ROOT_MTDF;
    if (gts_engine_set(e, GTS_OPT_ROOT_DRIVER, driver) != GTS_OK
        || gts_engine_set(e, GTS_OPT_VIRTUAL, 1) != GTS_OK
        || gts_engine_virtual_stats(e, &rounds, &idle) != GTS_OK || rounds != 0) {
        gts_engine_free(e);
        return 1;
    }
#endif
    gts_engine_free(e);
    std::printf("%s\n", gts_strerror(GTS_EINVAL));
    return gts_algorithm_name(GTS_ALG_PVS) ? 0 : 1;
}
