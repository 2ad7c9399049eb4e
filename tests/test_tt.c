/* The transposition table module (internal API). */
#include <criterion/criterion.h>
#include "tt_internal.h"

Test(tt, store_then_probe)
{
    gts__tt tt = {0};
    cr_assert_eq(gts__tt_resize(&tt, 1), GTS_OK);
    gts__tt_store(&tt, 0x1234, -77, 5, GTS__BOUND_LOWER, 3);
    gts__tt_hit h;
    cr_assert(gts__tt_probe(&tt, 0x1234, &h), "a stored key is found");
    cr_expect_eq(h.lower, -77, "a lower bound is stored as the lower end");
    cr_expect_eq(h.upper, GTS_SCORE_INF, "with no upper end");
    cr_expect_eq(h.depth, 5);
    cr_expect_eq(h.move_index, 3u);
    cr_expect(!gts__tt_probe(&tt, 0x1235, &h), "another key is not");
    gts__tt_destroy(&tt);
}

Test(tt, empty_table_misses_every_key_including_zero)
{
    gts__tt tt = {0};
    cr_assert_eq(gts__tt_resize(&tt, 1), GTS_OK);
    gts__tt_hit h;
    for (uint64_t k = 0; k < 1000; k++)
        cr_expect(!gts__tt_probe(&tt, k * 0x9e3779b97f4a7c15ull, &h), "key %llu", (unsigned long long)k);
    gts__tt_destroy(&tt);
}

Test(tt, extreme_scores_round_trip)
{
    gts__tt tt = {0};
    cr_assert_eq(gts__tt_resize(&tt, 1), GTS_OK);
    const gts_score s[] = {GTS_SCORE_WIN, GTS_SCORE_LOSS, GTS_SCORE_INF, -GTS_SCORE_INF, 0, 1, -1};
    for (unsigned i = 0; i < sizeof s / sizeof s[0]; i++) {
        gts__tt_store(&tt, 1000 + i, s[i], GTS_MAX_DEPTH, GTS__BOUND_EXACT, GTS__TT_NO_MOVE);
        gts__tt_hit h;
        cr_assert(gts__tt_probe(&tt, 1000 + i, &h));
        cr_expect_eq(h.lower, s[i], "score %d survives packing", s[i]);
        cr_expect_eq(h.upper, s[i], "score %d survives packing", s[i]);
        cr_expect_eq(h.depth, GTS_MAX_DEPTH);
        cr_expect_eq(h.move_index, GTS__TT_NO_MOVE);
    }
    gts__tt_destroy(&tt);
}

Test(tt, decided_scores_are_stored_relative_to_the_node)
{
    /* A win found 3 plies below a node at ply 4: root-relative WIN-7. */
    gts_score root_rel = GTS_SCORE_WIN - 7;
    gts_score stored = gts__tt_score_to(root_rel, 4);
    cr_expect_eq(stored, GTS_SCORE_WIN - 3, "node-relative: win in 3");
    cr_expect_eq(gts__tt_score_from(stored, 10), GTS_SCORE_WIN - 13, "reached at ply 10: WIN-13");
    cr_expect_eq(gts__tt_score_from(gts__tt_score_to(-GTS_SCORE_WIN + 9, 2), 5), -GTS_SCORE_WIN + 12);
    cr_expect_eq(gts__tt_score_to(123, 9), 123, "plain scores do not move");
}

Test(tt, same_key_keeps_deeper_result_of_this_search)
{
    gts__tt tt = {0};
    cr_assert_eq(gts__tt_resize(&tt, 1), GTS_OK);
    gts__tt_store(&tt, 42, 10, 9, GTS__BOUND_LOWER, 1);
    gts__tt_store(&tt, 42, 20, 2, GTS__BOUND_LOWER, 2);
    gts__tt_hit h;
    cr_assert(gts__tt_probe(&tt, 42, &h));
    cr_expect_eq(h.depth, 9, "a much shallower bound does not replace a deeper one");
    gts__tt_store(&tt, 42, 30, 2, GTS__BOUND_EXACT, 4);
    cr_assert(gts__tt_probe(&tt, 42, &h));
    cr_expect(h.lower == 30 && h.upper == 30, "an exact result always replaces");
    gts__tt_store(&tt, 42, 31, 8, GTS__BOUND_UPPER, GTS__TT_NO_MOVE);
    cr_assert(gts__tt_probe(&tt, 42, &h));
    cr_expect_eq(h.move_index, 4u, "a store without a move keeps the old move");
    gts__tt_destroy(&tt);
}

Test(tt, bounds_of_the_same_depth_merge)
{
    gts__tt tt = {0};
    cr_assert_eq(gts__tt_resize(&tt, 1), GTS_OK);
    gts__tt_hit h;
    gts__tt_store(&tt, 7, -3, 6, GTS__BOUND_LOWER, 2);
    gts__tt_store(&tt, 7, 5, 6, GTS__BOUND_UPPER, GTS__TT_NO_MOVE);
    cr_assert(gts__tt_probe(&tt, 7, &h));
    cr_expect(h.lower == -3 && h.upper == 5, "a lower and an upper bound make a range, got [%d, %d]",
              h.lower, h.upper);
    cr_expect_eq(h.move_index, 2u, "the fail-high move is kept");
    gts__tt_store(&tt, 7, 1, 6, GTS__BOUND_LOWER, 4);
    gts__tt_store(&tt, 7, 1, 6, GTS__BOUND_UPPER, GTS__TT_NO_MOVE);
    cr_assert(gts__tt_probe(&tt, 7, &h));
    cr_expect(h.lower == 1 && h.upper == 1, "meeting bounds make the exact value, got [%d, %d]",
              h.lower, h.upper);
    gts__tt_store(&tt, 7, -9, 6, GTS__BOUND_UPPER, GTS__TT_NO_MOVE);
    cr_assert(gts__tt_probe(&tt, 7, &h));
    cr_expect(h.lower == -GTS_SCORE_INF && h.upper == -9,
              "a contradicting result replaces the entry, got [%d, %d]", h.lower, h.upper);
    gts__tt_store(&tt, 7, 4, 7, GTS__BOUND_LOWER, 1);
    cr_assert(gts__tt_probe(&tt, 7, &h));
    cr_expect(h.lower == 4 && h.upper == GTS_SCORE_INF && h.depth == 7,
              "another depth is another value: no merge, got [%d, %d]", h.lower, h.upper);
    gts__tt_destroy(&tt);
}

Test(tt, full_bucket_replaces_least_worth_and_ages)
{
    gts__tt tt = {0};
    cr_assert_eq(gts__tt_resize(&tt, 1), GTS_OK);
    /* Fill far more keys than entries: the table never fails, recent deep
     * entries survive better than old ones. */
    for (uint64_t k = 1; k <= 200000; k++)
        gts__tt_store(&tt, k, (gts_score)(k % 100), (int)(k % 20), GTS__BOUND_EXACT, 0);
    int full = gts__tt_hashfull(&tt);
    cr_expect(full > 900, "table is nearly full: %d permille", full);
    gts__tt_new_generation(&tt);
    cr_expect_eq(gts__tt_hashfull(&tt), 0, "old entries do not count after a new generation");
    gts__tt_clear(&tt);
    gts__tt_hit h;
    cr_expect(!gts__tt_probe(&tt, 5, &h), "clear empties the table");
    gts__tt_destroy(&tt);
}

Test(tt, torn_entry_reads_as_miss)
{
    gts__tt tt = {0};
    cr_assert_eq(gts__tt_resize(&tt, 1), GTS_OK);
    gts__tt_store(&tt, 777, 5, 5, GTS__BOUND_EXACT, 1);
    gts__tt_store(&tt, 888, 6, 6, GTS__BOUND_EXACT, 2);
    /* Simulate a torn write: the data word of one entry paired with the
     * check word of another. */
    int torn = 0;
    for (uint64_t b = 0; b < tt.nbuckets; b++)
        for (int i = 0; i < GTS__TT_BUCKET_ENTRIES; i++) {
            gts__tt_entry *e = &tt.buckets[b].entry[i];
            if (e->data && (e->check ^ e->data) == 777) {
                e->data ^= 1; /* corrupt one bit of data */
                torn++;
            }
        }
    cr_assert_eq(torn, 1);
    gts__tt_hit h;
    cr_expect(!gts__tt_probe(&tt, 777, &h), "an entry whose words disagree is a miss");
    cr_expect(gts__tt_probe(&tt, 888, &h), "other entries are unaffected");
    gts__tt_destroy(&tt);
}

Test(tt, resize_to_zero_disables)
{
    gts__tt tt = {0};
    cr_assert_eq(gts__tt_resize(&tt, 2), GTS_OK);
    cr_expect(gts__tt_enabled(&tt));
    cr_expect_eq(tt.nbuckets, (2u << 20) / 64);
    cr_assert_eq(gts__tt_resize(&tt, 0), GTS_OK);
    cr_expect(!gts__tt_enabled(&tt));
    cr_expect_eq(gts__tt_hashfull(&tt), 0);
    gts__tt_destroy(&tt);
}
