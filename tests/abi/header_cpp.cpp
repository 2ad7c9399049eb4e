// ABI guard: the public headers compile and link from C++.
#include <gts/gts.h>
#include <cstdio>

int main()
{
    gts_engine *e = nullptr;
    if (gts_engine_new(&e) != GTS_OK)
        return 1;
    gts_engine_free(e);
    std::printf("%s\n", gts_strerror(GTS_EINVAL));
    return gts_algorithm_name(GTS_ALG_PVS) ? 0 : 1;
}
