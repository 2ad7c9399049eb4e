/* The transposition table module (internal API). */
#include <criterion/criterion.h>
#include "tt_internal.h"

Test(tt, store_then_probe)
{
    gts__tt tt = {0};
    cr_assert_eq(gts__tt_resize(&tt, 1), GTS_OK);
    gts__tt_store(&tt, 0x1234, 1, -77, 5, GTS__BOUND_LOWER, 3);
    gts__tt_hit h;
    cr_assert(gts__tt_probe(&tt, 0x1234, 1, &h), "a stored key is found");
    cr_expect_eq(h.lower, -77, "a lower bound is stored as the lower end");
    cr_expect_eq(h.upper, GTS_SCORE_INF, "with no upper end");
    cr_expect_eq(h.depth, 5);
    cr_expect_eq(h.move_index, 3u);
    cr_expect(!gts__tt_probe(&tt, 0x1235, 1, &h), "another key is not");
    gts__tt_destroy(&tt);
}

Test(tt, empty_table_misses_every_key_including_zero)
{
    gts__tt tt = {0};
    cr_assert_eq(gts__tt_resize(&tt, 1), GTS_OK);
    gts__tt_hit h;
    for (uint64_t k = 0; k < 1000; k++)
        cr_expect(!gts__tt_probe(&tt, k * 0x9e3779b97f4a7c15ull, 1, &h), "key %llu", (unsigned long long)k);
    gts__tt_destroy(&tt);
}

Test(tt, extreme_scores_round_trip)
{
    gts__tt tt = {0};
    cr_assert_eq(gts__tt_resize(&tt, 1), GTS_OK);
    const gts_score s[] = {GTS_SCORE_WIN, GTS_SCORE_LOSS, GTS_SCORE_INF, -GTS_SCORE_INF, 0, 1, -1};
    for (unsigned i = 0; i < sizeof s / sizeof s[0]; i++) {
        gts__tt_store(&tt, 1000 + i, 1, s[i], GTS_MAX_DEPTH, GTS__BOUND_EXACT, GTS__TT_NO_MOVE);
        gts__tt_hit h;
        cr_assert(gts__tt_probe(&tt, 1000 + i, 1, &h));
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
    gts__tt_store(&tt, 42, 1, 10, 9, GTS__BOUND_LOWER, 1);
    gts__tt_store(&tt, 42, 1, 20, 2, GTS__BOUND_LOWER, 2);
    gts__tt_hit h;
    cr_assert(gts__tt_probe(&tt, 42, 1, &h));
    cr_expect_eq(h.depth, 9, "a much shallower bound does not replace a deeper one");
    gts__tt_store(&tt, 42, 1, 30, 2, GTS__BOUND_EXACT, 4);
    cr_assert(gts__tt_probe(&tt, 42, 1, &h));
    cr_expect(h.lower == 30 && h.upper == 30, "an exact result always replaces");
    gts__tt_store(&tt, 42, 1, 31, 8, GTS__BOUND_UPPER, GTS__TT_NO_MOVE);
    cr_assert(gts__tt_probe(&tt, 42, 1, &h));
    cr_expect_eq(h.move_index, 4u, "a store without a move keeps the old move");
    gts__tt_destroy(&tt);
}

Test(tt, bounds_of_the_same_depth_merge)
{
    gts__tt tt = {0};
    cr_assert_eq(gts__tt_resize(&tt, 1), GTS_OK);
    gts__tt_hit h;
    gts__tt_store(&tt, 7, 1, -3, 6, GTS__BOUND_LOWER, 2);
    gts__tt_store(&tt, 7, 1, 5, 6, GTS__BOUND_UPPER, GTS__TT_NO_MOVE);
    cr_assert(gts__tt_probe(&tt, 7, 1, &h));
    cr_expect(h.lower == -3 && h.upper == 5, "a lower and an upper bound make a range, got [%d, %d]",
              h.lower, h.upper);
    cr_expect_eq(h.move_index, 2u, "the fail-high move is kept");
    gts__tt_store(&tt, 7, 1, 1, 6, GTS__BOUND_LOWER, 4);
    gts__tt_store(&tt, 7, 1, 1, 6, GTS__BOUND_UPPER, GTS__TT_NO_MOVE);
    cr_assert(gts__tt_probe(&tt, 7, 1, &h));
    cr_expect(h.lower == 1 && h.upper == 1, "meeting bounds make the exact value, got [%d, %d]",
              h.lower, h.upper);
    gts__tt_store(&tt, 7, 1, -9, 6, GTS__BOUND_UPPER, GTS__TT_NO_MOVE);
    cr_assert(gts__tt_probe(&tt, 7, 1, &h));
    cr_expect(h.lower == -GTS_SCORE_INF && h.upper == -9,
              "a contradicting result replaces the entry, got [%d, %d]", h.lower, h.upper);
    gts__tt_store(&tt, 7, 1, 4, 7, GTS__BOUND_LOWER, 1);
    cr_assert(gts__tt_probe(&tt, 7, 1, &h));
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
        gts__tt_store(&tt, k, 1, (gts_score)(k % 100), (int)(k % 20), GTS__BOUND_EXACT, 0);
    int full = gts__tt_hashfull(&tt);
    cr_expect(full > 900, "table is nearly full: %d permille", full);
    gts__tt_new_generation(&tt);
    cr_expect_eq(gts__tt_hashfull(&tt), 0, "old entries do not count after a new generation");
    gts__tt_clear(&tt);
    gts__tt_hit h;
    cr_expect(!gts__tt_probe(&tt, 5, 1, &h), "clear empties the table");
    gts__tt_destroy(&tt);
}

Test(tt, torn_entry_reads_as_miss)
{
    gts__tt tt = {0};
    cr_assert_eq(gts__tt_resize(&tt, 1), GTS_OK);
    gts__tt_store(&tt, 777, 1, 5, 5, GTS__BOUND_EXACT, 1);
    gts__tt_store(&tt, 888, 1, 6, 6, GTS__BOUND_EXACT, 2);
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
    cr_expect(!gts__tt_probe(&tt, 777, 1, &h), "an entry whose words disagree is a miss");
    cr_expect(gts__tt_probe(&tt, 888, 1, &h), "other entries are unaffected");
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

/* Where an entry of a node @depth plies from the leaves lives: the index of
 * its bucket, from the public layout fields. */
static bool in_near_part(const gts__tt *tt, uint64_t key, int depth)
{
    uint64_t b = (uint64_t)(gts__tt_bucket_of(tt, key, depth) - tt->buckets);
    return b >= tt->part[0].n && b < tt->nbuckets;
}

Test(tt, near_part_holds_the_shallow_nodes)
{
    gts__tt tt = {0};
    cr_assert_eq(gts__tt_resize(&tt, 1), GTS_OK);
    cr_expect_eq(tt.part[1].n, 0u, "no near part unless asked for");
    cr_expect_eq(tt.part[0].n, tt.nbuckets);
    cr_expect(!in_near_part(&tt, 9, 1), "without one every depth uses the whole table");
    gts__tt_set_near(&tt, 4, 64);
    cr_expect_eq(tt.part[1].n, 64u * 1024 / sizeof(gts__tt_bucket), "64 KiB of buckets");
    cr_expect_eq(tt.part[0].n + tt.part[1].n, tt.nbuckets, "taken from the table, not added to it");
    for (uint64_t k = 1; k < 1000; k++) {
        cr_expect(in_near_part(&tt, k, 1) && in_near_part(&tt, k, 4), "key %llu at depth <= 4",
                  (unsigned long long)k);
        cr_expect(!in_near_part(&tt, k, 5) && !in_near_part(&tt, k, 60), "key %llu deeper",
                  (unsigned long long)k);
    }

    /* Probe and store of one depth meet; another part does not see them. */
    gts__tt_hit h;
    gts__tt_store(&tt, 4242, 3, 17, 3, GTS__BOUND_EXACT, 1);
    gts__tt_store(&tt, 4343, 9, 18, 9, GTS__BOUND_EXACT, 2);
    cr_assert(gts__tt_probe(&tt, 4242, 3, &h));
    cr_expect(h.lower == 17 && h.move_index == 1u);
    cr_expect(!gts__tt_probe(&tt, 4242, 9, &h), "the far part has not got it");
    cr_assert(gts__tt_probe(&tt, 4343, 9, &h));
    cr_expect(!gts__tt_probe(&tt, 4343, 3, &h), "the near part has not got it");

    /* Churn in the near part never evicts a far entry. */
    for (uint64_t k = 100000; k < 300000; k++)
        gts__tt_store(&tt, k, 4, 0, 4, GTS__BOUND_EXACT, 0);
    cr_expect(gts__tt_probe(&tt, 4343, 9, &h), "a far entry survives the near part's churn");
    cr_expect(!gts__tt_probe(&tt, 4242, 3, &h), "the near part's old entry was replaced");

    /* At most half the table; resize keeps the setting; 0 turns it off. */
    gts__tt_set_near(&tt, 4, (uint64_t)1 << 30);
    cr_expect_eq(tt.part[1].n, tt.nbuckets / 2, "a near part larger than the table is half of it");
    cr_assert_eq(gts__tt_resize(&tt, 2), GTS_OK);
    cr_expect_eq(tt.part[1].n, tt.nbuckets / 2, "resize keeps the near part's setting");
    gts__tt_set_near(&tt, 0, 64);
    cr_expect(tt.part[1].n == 0 && tt.part[0].n == tt.nbuckets, "depth 0: no near part");
    cr_expect(!in_near_part(&tt, 9, 0) && !in_near_part(&tt, 9, -5), "whatever the depth");
    gts__tt_destroy(&tt);
    cr_expect(tt.part[1].n == 0 && tt.part[0].n == 0, "no table, no parts");
}

Test(tt, near_part_slices_one_per_thread)
{
    gts__tt tt = {0};
    gts__tt_part none = gts__tt_near_slice(&tt, 0, 2);
    cr_expect(none.base == NULL && none.n == 0, "no table, no slice");
    cr_assert_eq(gts__tt_resize(&tt, 1), GTS_OK);
    gts__tt_set_near(&tt, 4, 64);
    gts__tt_part whole = gts__tt_near_slice(&tt, 0, 1);
    cr_expect(whole.base == tt.part[1].base && whole.n == tt.part[1].n,
              "one thread: the whole part");
    gts__tt_part a = gts__tt_near_slice(&tt, 0, 2), b = gts__tt_near_slice(&tt, 1, 2);
    cr_expect_eq(a.n, tt.part[1].n / 2);
    cr_expect_eq(b.n, tt.part[1].n / 2);
    cr_expect(a.base == tt.part[1].base && b.base == a.base + a.n, "two halves, one after the other");
    cr_expect(b.base + b.n <= tt.buckets + tt.nbuckets, "inside the table");
    gts__tt_part many = gts__tt_near_slice(&tt, 3, (int)tt.part[1].n + 1);
    cr_expect(many.base == tt.part[1].base && many.n == tt.part[1].n,
              "more slices than buckets: the whole part");
    gts__tt_destroy(&tt);
}
