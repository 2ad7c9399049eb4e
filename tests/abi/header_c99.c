/* ABI guard: the public headers compile as strict C99 with -pedantic -Werror. */
#include <gts/gts.h>

int main(void)
{
    gts_limits l = {sizeof l, 3, 0, 0, 0, false, 0, 0, 0, 0};
    gts_result r;
    r.struct_size = sizeof r;
    (void)l;
    return gts_version() >> 16 == GTS_VERSION_MAJOR && r.struct_size == sizeof r ? 0 : 1;
}
