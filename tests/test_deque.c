/*
 * test_deque.c - Chase-Lev deque (lib/deque.c): order, growth, emptiness,
 * and exactly-once delivery with one owner and three thieves.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* POSIX and GNU declarations under -std=c11 */
#endif
#include <criterion/criterion.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include <gts/common.h>

#include "atomic_internal.h"
#include "deque_internal.h"

/* Items are the non-NULL pointers 1, 2, 3, ... */
#define ITEM(i) ((void *)(uintptr_t)((i) + 1))
#define INDEX(p) ((uintptr_t)(p) - 1)

Test(deque, empty_returns_null)
{
    gts__deque d;

    cr_assert_eq(gts__deque_init(&d, 4, NULL), 0, "init of a 16-slot deque should succeed");
    cr_expect_null(gts__deque_pop(&d), "pop on a new deque should return NULL");
    cr_expect_null(gts__deque_steal(&d), "steal on a new deque should return NULL");
    cr_expect_eq(gts__deque_size(&d), 0, "a new deque should have size 0");

    cr_assert_eq(gts__deque_push(&d, ITEM(0)), 0, "push should succeed");
    cr_expect_eq(gts__deque_pop(&d), ITEM(0), "pop should return the pushed item");
    cr_expect_null(gts__deque_pop(&d), "pop after draining should return NULL");
    cr_expect_null(gts__deque_steal(&d), "steal after draining should return NULL");
    cr_expect_eq(gts__deque_size(&d), 0, "a drained deque should have size 0");

    cr_assert_eq(gts__deque_push(&d, ITEM(1)), 0, "push should succeed");
    cr_expect_eq(gts__deque_steal(&d), ITEM(1), "steal should return the pushed item");
    cr_expect_null(gts__deque_steal(&d), "a second steal should return NULL");
    cr_expect_null(gts__deque_pop(&d), "pop after the steal should return NULL");
    gts__deque_destroy(&d);
    gts__deque_destroy(&d); /* idempotent */
}

Test(deque, push_pop_is_lifo)
{
    gts__deque d;

    cr_assert_eq(gts__deque_init(&d, 6, NULL), 0);
    for (int i = 0; i < 50; i++)
        cr_assert_eq(gts__deque_push(&d, ITEM(i)), 0, "push %d should succeed", i);
    cr_expect_eq(gts__deque_size(&d), 50, "size should be 50 after 50 pushes");
    for (int i = 49; i >= 0; i--)
        cr_assert_eq(gts__deque_pop(&d), ITEM(i), "pop should return item %d (LIFO)", i);
    cr_expect_null(gts__deque_pop(&d), "deque should be empty after 50 pops");
    gts__deque_destroy(&d);
}

Test(deque, steal_is_fifo)
{
    gts__deque d;

    cr_assert_eq(gts__deque_init(&d, 6, NULL), 0);
    for (int i = 0; i < 50; i++)
        cr_assert_eq(gts__deque_push(&d, ITEM(i)), 0);
    for (int i = 0; i < 50; i++)
        cr_assert_eq(gts__deque_steal(&d), ITEM(i), "steal should return item %d (FIFO)", i);
    cr_expect_null(gts__deque_steal(&d), "deque should be empty after 50 steals");
    gts__deque_destroy(&d);
}

Test(deque, both_ends_meet_in_the_middle)
{
    gts__deque d;
    int lo = 0, hi = 99;

    cr_assert_eq(gts__deque_init(&d, 3, NULL), 0);
    for (int i = 0; i < 100; i++)
        cr_assert_eq(gts__deque_push(&d, ITEM(i)), 0);
    while (lo <= hi) {
        cr_assert_eq(gts__deque_steal(&d), ITEM(lo), "steal should take the oldest, %d", lo);
        lo++;
        if (lo > hi)
            break;
        cr_assert_eq(gts__deque_pop(&d), ITEM(hi), "pop should take the newest, %d", hi);
        hi--;
    }
    cr_expect_null(gts__deque_pop(&d), "every item was taken once");
    cr_expect_null(gts__deque_steal(&d), "every item was taken once");
    gts__deque_destroy(&d);
}

Test(deque, grows_beyond_initial_capacity)
{
    gts__deque d;
    const int n = 100000;

    /* 2 slots: the array doubles 16 times. Steal some in between so that
     * the live range does not start at index 0 when the array grows. */
    cr_assert_eq(gts__deque_init(&d, 1, NULL), 0);
    int stolen = 0;
    for (int i = 0; i < n; i++) {
        cr_assert_eq(gts__deque_push(&d, ITEM(i)), 0, "push %d should grow the array", i);
        if (i % 7 == 3) {
            cr_assert_eq(gts__deque_steal(&d), ITEM(stolen), "steal should stay FIFO");
            stolen++;
        }
    }
    cr_expect_eq(gts__deque_size(&d), n - stolen, "size after growth");
    for (int i = n - 1; i >= stolen; i--)
        cr_assert_eq(gts__deque_pop(&d), ITEM(i), "pop after growth should be LIFO (item %d)", i);
    cr_expect_null(gts__deque_pop(&d), "deque should be empty");
    gts__deque_destroy(&d);
}

/* An allocator that refuses once armed; counts what is outstanding. */
static int refuse;
static long outstanding;

static void *refusing_allocate(size_t size, void *user)
{
    (void)user;
    if (refuse)
        return NULL;
    outstanding++;
    return malloc(size);
}

static void refusing_release(void *p, size_t size, void *user)
{
    (void)size;
    (void)user;
    outstanding--;
    free(p);
}

Test(deque, failed_growth_keeps_items)
{
    const gts_allocator a = {sizeof a, refusing_allocate, refusing_release, NULL};
    gts__deque d;

    refuse = 0;
    outstanding = 0;
    cr_assert_eq(gts__deque_init(&d, 1, &a), 0);
    cr_assert_eq(gts__deque_push(&d, ITEM(0)), 0);
    cr_assert_eq(gts__deque_push(&d, ITEM(1)), 0);
    refuse = 1;
    cr_assert_eq(gts__deque_push(&d, ITEM(2)), GTS_ENOMEM, "a full deque that cannot grow");
    cr_expect_eq(gts__deque_size(&d), 2, "nothing lost, nothing added");
    refuse = 0;
    cr_assert_eq(gts__deque_push(&d, ITEM(2)), 0, "growth works again");
    cr_assert_eq(gts__deque_steal(&d), ITEM(0));
    cr_assert_eq(gts__deque_pop(&d), ITEM(2));
    cr_assert_eq(gts__deque_pop(&d), ITEM(1));
    gts__deque_destroy(&d);
    cr_expect_eq(outstanding, 0, "every array released through the allocator");
    refuse = 1;
    cr_expect_eq(gts__deque_init(&d, 1, &a), GTS_ENOMEM);
    refuse = 0;
}

Test(deque, init_clamps_capacity)
{
    gts__deque d;

    cr_assert_eq(gts__deque_init(&d, 0, NULL), 0, "log2 0 is clamped to 1");
    for (int i = 0; i < 10; i++)
        cr_assert_eq(gts__deque_push(&d, ITEM(i)), 0);
    for (int i = 9; i >= 0; i--)
        cr_assert_eq(gts__deque_pop(&d), ITEM(i));
    gts__deque_destroy(&d);
}

/* One owner pushes and pops N items while three thieves steal. */

enum { MT_ITEMS = 400000, MT_THIEVES = 3 };

struct mt {
    gts__deque d;
    uint32_t taken[MT_ITEMS]; /* times item i was taken (atomic) */
    uint32_t owner_done;
    uint64_t stolen[MT_THIEVES];
};

static struct mt *mt_state;

static void take(struct mt *m, void *item)
{
    uintptr_t i = INDEX(item);

    cr_assert_lt(i, (uintptr_t)MT_ITEMS, "an item outside 1..N came out of the deque");
    gts__atomic_faa_relaxed_32(&m->taken[i], 1);
}

static void *thief(void *arg)
{
    int id = (int)(intptr_t)arg;
    struct mt *m = mt_state;

    for (;;) {
        void *item = gts__deque_steal(&m->d);

        if (item != NULL) {
            take(m, item);
            m->stolen[id]++;
            continue;
        }
        if (gts__atomic_load_acquire_32(&m->owner_done) && gts__deque_size(&m->d) == 0)
            break;
    }
    return NULL;
}

Test(deque, owner_and_three_thieves_take_each_item_once)
{
    struct mt *m = calloc(1, sizeof(*m));
    pthread_t th[MT_THIEVES];
    uint64_t popped = 0, total = 0;
    uint32_t rng = 12345;

    cr_assert_not_null(m);
    mt_state = m;
    cr_assert_eq(gts__deque_init(&m->d, 2, NULL), 0, "start at 4 slots so growth races steals");
    for (int t = 0; t < MT_THIEVES; t++)
        cr_assert_eq(pthread_create(&th[t], NULL, thief, (void *)(intptr_t)t), 0);

    for (int i = 0; i < MT_ITEMS; i++) {
        cr_assert_eq(gts__deque_push(&m->d, ITEM(i)), 0);
        rng = rng * 1103515245u + 12345u;
        /* Pop now and then, sometimes several, so both ends are contended,
         * including the last-item race. */
        if ((rng >> 16) % 3 == 0) {
            int k = (int)((rng >> 20) % 4);
            for (int j = 0; j < k; j++) {
                void *item = gts__deque_pop(&m->d);
                if (item == NULL)
                    break;
                take(m, item);
                popped++;
            }
        }
    }
    for (void *item; (item = gts__deque_pop(&m->d)) != NULL;) {
        take(m, item);
        popped++;
    }
    gts__atomic_store_release_32(&m->owner_done, 1);
    for (int t = 0; t < MT_THIEVES; t++)
        pthread_join(th[t], NULL);

    for (int i = 0; i < MT_ITEMS; i++)
        cr_assert_eq(m->taken[i], 1, "item %d was taken %u times, expected exactly once",
                     i, m->taken[i]);
    total = popped;
    for (int t = 0; t < MT_THIEVES; t++)
        total += m->stolen[t];
    cr_expect_eq(total, (uint64_t)MT_ITEMS, "pops + steals should equal the pushes");
    cr_log_info("owner popped %llu, thieves stole %llu/%llu/%llu", (unsigned long long)popped,
                (unsigned long long)m->stolen[0], (unsigned long long)m->stolen[1],
                (unsigned long long)m->stolen[2]);
    cr_expect_eq(gts__deque_size(&m->d), 0, "deque should end empty");
    gts__deque_destroy(&m->d);
    free(m);
}
