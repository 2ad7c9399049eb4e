/*
 * tt.c - shared lock-free transposition table.
 *
 * What: a hash table of search results keyed by the game's 64-bit hash,
 * shared by every thread of a search without locks (see tt_internal.h for the
 * entry layout and the check == key ^ data verification).
 *
 * Concurrency contract: probe and store may run concurrently from any number
 * of threads. Each word is read and written with one 64-bit ck_pr access, so
 * a word is never torn; a pair may be, and then fails verification. resize,
 * clear and new_generation run only between searches.
 *
 * Replacement: in the key's bucket, an entry with the same key is
 * overwritten unless the new result is much shallower and the old one is
 * from this search and not exact (depth-preferred). Otherwise the victim is
 * the entry with the least worth = depth - AGE_WEIGHT * age, so empty and
 * stale entries go first and the shallowest current entry is always
 * replaceable (always-replace tier).
 */
#include "tt_internal.h"
#include "alloc_internal.h"
#include "atomic_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(gts__tt_entry) == 16, "a TT entry is two 64-bit words");
_Static_assert(sizeof(gts__tt_bucket) == 64, "a TT bucket is one cache line");

static const int AGE_WEIGHT = 8;
static const int SHALLOWER_KEEP = 2;
static const uint32_t GENERATIONS = 64;
static const int HASHFULL_SAMPLE = 1000;

/* data word fields */
#define D_LOWER(d) ((gts_score)(int16_t)((d) & 0xffff))
#define D_UPPER(d) ((gts_score)(int16_t)(((d) >> 16) & 0xffff))
#define D_DEPTH(d) ((int)(((d) >> 32) & 0xff))
#define D_GEN(d) ((uint32_t)(((d) >> 40) & 0x3f))
#define D_USED(d) ((((d) >> 46) & 1) != 0)
#define D_MOVE(d) ((uint32_t)(((d) >> 48) & 0xffff))

static uint64_t pack(gts_score lower, gts_score upper, int depth, uint32_t gen, uint32_t move)
{
    /* 8 bits of depth: a deeper result (possible with extensions) is stored
     * as 255, i.e. as shallower than it is, which is always safe. */
    if (depth > 255)
        depth = 255;
    return (uint64_t)(uint16_t)(int16_t)lower | ((uint64_t)(uint16_t)(int16_t)upper << 16)
           | ((uint64_t)(uint8_t)depth << 32) | ((uint64_t)(gen & 0x3f) << 40)
           | ((uint64_t)1 << 46) | ((uint64_t)(move & 0xffff) << 48);
}

int gts__tt_resize(gts__tt *tt, size_t mb)
{
    if (mb == 0) {
        gts__tt_destroy(tt);
        return GTS_OK;
    }
    if (mb > SIZE_MAX >> 20)
        return GTS_ENOMEM;
    uint64_t n = ((uint64_t)mb << 20) / sizeof(gts__tt_bucket);
    void *mem = gts__calloc_aligned(tt->alloc, n * sizeof(gts__tt_bucket),
                                    sizeof(gts__tt_bucket));
    if (!mem)
        return GTS_ENOMEM;
    gts__tt_destroy(tt);
    tt->buckets = mem;
    tt->nbuckets = n;
    tt->generation = 0;
    gts__tt_set_near(tt, tt->near_depth_set, tt->near_kb_set);
    return GTS_OK;
}

void gts__tt_set_near(gts__tt *tt, int depth, uint64_t kb)
{
    tt->near_depth_set = depth;
    tt->near_kb_set = kb;
    uint64_t near = kb * 1024 / sizeof(gts__tt_bucket);
    if (near > tt->nbuckets / 2)
        near = tt->nbuckets / 2;
    if (depth <= 0 || near == 0) {
        near = 0;
        depth = INT_MIN; /* no depth is this shallow: the far part only */
    }
    uint64_t far = tt->nbuckets - near;
    tt->near_depth = depth;
    tt->part[0] = (gts__tt_part){ tt->buckets, far };
    /* No arithmetic on a NULL table (before the first resize, after
     * destroy): even + 0 is undefined there. */
    tt->part[1] = (gts__tt_part){ tt->buckets ? tt->buckets + far : NULL, near };
}

void gts__tt_destroy(gts__tt *tt)
{
    gts__free_aligned(tt->alloc, tt->buckets, tt->nbuckets * sizeof(gts__tt_bucket),
                      sizeof(gts__tt_bucket));
    tt->buckets = NULL;
    tt->nbuckets = 0;
    gts__tt_set_near(tt, tt->near_depth_set, tt->near_kb_set);
}

void gts__tt_clear(gts__tt *tt)
{
    if (tt->buckets)
        memset(tt->buckets, 0, tt->nbuckets * sizeof(gts__tt_bucket));
    tt->generation = 0;
}

void gts__tt_new_generation(gts__tt *tt)
{
    tt->generation = (tt->generation + 1) % GENERATIONS;
}

bool gts__tt_probe_bucket(const gts__tt_bucket *b, uint64_t key, gts__tt_hit *hit)
{
    for (int i = 0; i < GTS__TT_BUCKET_ENTRIES; i++) {
        uint64_t data = gts__atomic_load_relaxed_64(&b->entry[i].data);
        uint64_t check = gts__atomic_load_relaxed_64(&b->entry[i].check);
        if ((check ^ data) == key && D_USED(data)) {
            hit->lower = D_LOWER(data);
            hit->upper = D_UPPER(data);
            hit->depth = D_DEPTH(data);
            hit->move_index = D_MOVE(data);
            return true;
        }
    }
    return false;
}

void gts__tt_store_bucket(gts__tt *tt, gts__tt_bucket *b, uint64_t key, gts_score score,
                          int depth, int bound, uint32_t move_index)
{
    uint32_t gen = tt->generation;
    gts__tt_entry *victim = NULL;
    int victim_worth = 1 << 30;
    gts_score lower = bound == GTS__BOUND_UPPER ? -GTS_SCORE_INF : score;
    gts_score upper = bound == GTS__BOUND_LOWER ? GTS_SCORE_INF : score;
    if (depth > 255)
        depth = 255;

    for (int i = 0; i < GTS__TT_BUCKET_ENTRIES; i++) {
        gts__tt_entry *e = &b->entry[i];
        uint64_t data = gts__atomic_load_relaxed_64(&e->data);
        uint64_t check = gts__atomic_load_relaxed_64(&e->check);
        if ((check ^ data) == key && D_USED(data)) {
            /* Same position. The same depth: both results bound the same
             * value, keep the tighter of each (unless they contradict, as
             * only a broken contract can make them: then the new one). */
            if (depth == D_DEPTH(data)) {
                gts_score l = D_LOWER(data) > lower ? D_LOWER(data) : lower;
                gts_score u = D_UPPER(data) < upper ? D_UPPER(data) : upper;
                if (l <= u) {
                    lower = l;
                    upper = u;
                }
            } else if (bound != GTS__BOUND_EXACT && D_GEN(data) == gen
                       && depth + SHALLOWER_KEEP < D_DEPTH(data)) {
                /* Keep a deeper current result unless ours is exact. */
                return;
            }
            if (move_index == GTS__TT_NO_MOVE)
                move_index = D_MOVE(data);
            victim = e;
            break;
        }
        int age = (int)((gen - D_GEN(data)) & (GENERATIONS - 1));
        int worth = !D_USED(data) ? -(1 << 20) : D_DEPTH(data) - AGE_WEIGHT * age;
        if (worth < victim_worth) {
            victim_worth = worth;
            victim = e;
        }
    }
    uint64_t data = pack(lower, upper, depth, gen, move_index);
    gts__atomic_store_relaxed_64(&victim->data, data);
    gts__atomic_store_relaxed_64(&victim->check, key ^ data);
}

int gts__tt_hashfull(const gts__tt *tt)
{
    if (!tt->buckets)
        return 0;
    uint64_t n = tt->nbuckets < (uint64_t)HASHFULL_SAMPLE ? tt->nbuckets : (uint64_t)HASHFULL_SAMPLE;
    uint64_t used = 0;
    for (uint64_t i = 0; i < n; i++)
        for (int j = 0; j < GTS__TT_BUCKET_ENTRIES; j++) {
            uint64_t data = gts__atomic_load_relaxed_64(&tt->buckets[i].entry[j].data);
            if (D_USED(data) && D_GEN(data) == tt->generation)
                used++;
        }
    return (int)(used * 1000 / (n * GTS__TT_BUCKET_ENTRIES));
}
