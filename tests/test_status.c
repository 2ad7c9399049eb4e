/* Status codes, names and version. */
#include <criterion/criterion.h>
#include <string.h>
#include <gts/gts.h>

Test(status, every_code_has_a_name_and_message)
{
#define CHECK(name, value, msg)                                                        \
    cr_expect_str_eq(gts_status_name(value), #name, "name of %d", value);               \
    cr_expect_str_eq(gts_strerror(value), msg, "message of %d", value);                 \
    cr_expect(value <= 0, "status %s must not be positive", #name);
    GTS_STATUS_MAP(CHECK)
#undef CHECK
}

Test(status, unknown_codes)
{
    cr_expect_null(gts_status_name(12345), "no name for an unknown code");
    cr_expect_str_eq(gts_strerror(-9999), "unknown status");
    cr_expect_str_eq(gts_strerror(1), "unknown status");
}

Test(status, codes_are_distinct_and_stable)
{
    cr_expect_eq(GTS_OK, 0);
    cr_expect_eq(GTS_EINVAL, -1);
    cr_expect_eq(GTS_ENOMEM, -2);
    cr_expect_eq(GTS_ECALLBACK, -6);
    cr_expect_eq(GTS_EPARSE, -13);
}

Test(status, version_matches_header)
{
    cr_expect_eq(gts_version(), (unsigned)GTS_VERSION_HEX);
    cr_expect_str_eq(gts_version_string(), GTS_VERSION_STRING);
    cr_expect_eq(GTS_VERSION_HEX >> 16, GTS_VERSION_MAJOR);
}

Test(status, score_helpers)
{
    cr_expect(gts_score_win_in(3) > gts_score_win_in(5), "a faster win scores higher");
    cr_expect(gts_score_loss_in(5) > gts_score_loss_in(3), "a slower loss scores higher");
    cr_expect(gts_score_is_win(gts_score_win_in(GTS_MAX_PLY)));
    cr_expect(gts_score_is_loss(gts_score_loss_in(GTS_MAX_PLY)));
    cr_expect(!gts_score_is_win(1000) && !gts_score_is_loss(-1000));
    cr_expect_eq(gts_score_plies_to_end(gts_score_win_in(7)), 7);
    cr_expect_eq(gts_score_plies_to_end(gts_score_loss_in(4)), 4);
    cr_expect_eq(gts_score_plies_to_end(12), -1);
    cr_expect(GTS_SCORE_WIN < GTS_SCORE_INF && GTS_SCORE_INF <= INT16_MAX,
              "scores fit the 16-bit TT field");
}
