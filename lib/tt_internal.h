/*
 * tt_internal.h - the shared lock-free transposition table (internal).
 *
 * Layout: 64-byte buckets of four 16-byte entries. An entry is two 64-bit
 * words, {check, data}, with check == key ^ data (Hyatt & Mann's lockless
 * hashing). Words are written and read with single 64-bit atomic operations
 * but the pair is not atomic; a probe accepts an entry only when
 * check ^ data == key, so a torn pair (two writers racing, or a reader racing
 * a writer) reads as a miss, never as another position's data.
 *
 * data packs both bounds of the value, lower and upper (int16 each,
 * node-relative for decided scores; -/+GTS_SCORE_INF when unknown), depth
 * (uint8), generation (6 bits), a used bit and the move index (uint16,
 * position of the best move in generate() order, 0xffff = none). Two bounds
 * per entry let the re-searches of MTD(f), NegaC*, SSS* and the root drivers
 * keep what the earlier null-window tests proved from both sides.
 */
#ifndef GTS_TT_INTERNAL_H
#define GTS_TT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <gts/common.h>
#include <gts/engine.h>

enum { GTS__BOUND_NONE = 0, GTS__BOUND_UPPER = 1, GTS__BOUND_LOWER = 2, GTS__BOUND_EXACT = 3 };
#define GTS__TT_NO_MOVE 0xffffu
#define GTS__TT_BUCKET_ENTRIES 4

typedef struct gts__tt_entry {
    uint64_t check; /* key ^ data */
    uint64_t data;
} gts__tt_entry;

typedef struct gts__tt_bucket {
    gts__tt_entry entry[GTS__TT_BUCKET_ENTRIES];
} __attribute__((aligned(64))) gts__tt_bucket;

/* A part of the table: @n buckets from @base. */
typedef struct gts__tt_part {
    gts__tt_bucket *base;
    uint64_t n;
} gts__tt_part;

typedef struct gts__tt {
    const gts_allocator *alloc; /* NULL: malloc/free */
    gts__tt_bucket *buckets;
    uint64_t nbuckets;      /* all: the far part's, then the near part's */
    int near_depth;         /* nodes with depth <= this use the near part */
    gts__tt_part part[2];   /* [0] the far part (the first buckets), [1] the
                               near part after it (n == 0: none) */
    int near_depth_set;     /* as set: GTS_OPT_TT_NEAR_DEPTH, 0 = off */
    uint64_t near_kb_set;   /* as set: GTS_OPT_TT_NEAR_KB */
    uint32_t generation; /* 0..63 */
} gts__tt;

/* What a probe finds: lower <= value <= upper at @depth, node-relative
 * (convert with gts__tt_bound_from()); -/+GTS_SCORE_INF: no bound. */
typedef struct gts__tt_hit {
    gts_score lower, upper;
    int depth;
    uint32_t move_index;
} gts__tt_hit;

/* Keys from games may be poorly mixed (exact bitboard encodings, small
 * integers): one multiplication by an odd constant (Knuth's multiplicative
 * hashing) carries every bit of the key into the top bits, which
 * gts__tt_bucket_of uses. Entries check the whole key, so the spread only
 * matters for collisions between buckets, never for correctness. */
static inline uint64_t gts__tt_mix(uint64_t k)
{
    return (k ^ (k >> 32)) * UINT64_C(0x9e3779b97f4a7c15);
}

/* The bucket of @key for a node with @depth plies to go: in the near part
 * when the table has one and @depth <= near_depth (GTS_OPT_TT_NEAR_DEPTH),
 * else in the far part. Probe, store and prefetch of one node pass the same
 * depth, so they meet in the same bucket; an entry in the other part is
 * only never found, never wrong (every entry checks its whole key). */
static inline const gts__tt_part *gts__tt_part_of(const gts__tt *tt, int depth)
{
    return &tt->part[depth <= tt->near_depth];
}
static inline gts__tt_bucket *gts__tt_in(const gts__tt_part *p, uint64_t key)
{
    unsigned __int128 m = (unsigned __int128)gts__tt_mix(key) * p->n;
    return &p->base[(uint64_t)(m >> 64)];
}
static inline gts__tt_bucket *gts__tt_bucket_of(const gts__tt *tt, uint64_t key, int depth)
{
    return gts__tt_in(gts__tt_part_of(tt, depth), key);
}

/* Start loading @key's bucket into the cache (a hint: no effect on data).
 * A probe is a cache miss on any table larger than the cache; issued as soon
 * as the key is known, the load overlaps the node's other work. */
static inline void gts__tt_prefetch_bucket(const gts__tt_bucket *b)
{
#if defined(__GNUC__)
    __builtin_prefetch(b);
#else
    (void)b;
#endif
}

/* Slice @i of @n of the near part: each real thread of a search gets its
 * own, so that no cache line of the near part is written by two cores
 * (with a slice each, ABDADA at two threads takes about 15 % less time,
 * doc/results/solver.md). The
 * whole part when @n <= 1 or the part has fewer buckets than slices. */
static inline gts__tt_part gts__tt_near_slice(const gts__tt *tt, int i, int n)
{
    gts__tt_part p = tt->part[1];
    if (n > 1 && p.base && p.n >= (uint64_t)n) {
        p.n /= (uint64_t)n;
        p.base += (uint64_t)i * p.n;
    }
    return p;
}

/* Set the table to @mb MiB (0 frees it). Contents are lost. 0 or GTS_ENOMEM
 * (then the old table is kept). Not concurrent with probes/stores. */
int gts__tt_resize(gts__tt *tt, size_t mb);
/* The near part (GTS_OPT_TT_NEAR_DEPTH, GTS_OPT_TT_NEAR_KB): nodes with at
 * most @depth plies to go (0: none) use @kb KiB at the end of the table,
 * at most half of it. Entries stay where they are: some are no longer
 * found. Not concurrent with probes/stores. */
void gts__tt_set_near(gts__tt *tt, int depth, uint64_t kb);
void gts__tt_destroy(gts__tt *tt);
/* Empty every entry. Not concurrent with probes/stores. */
void gts__tt_clear(gts__tt *tt);
/* Start a new search: entries of older searches age. */
void gts__tt_new_generation(gts__tt *tt);
static inline bool gts__tt_enabled(const gts__tt *tt) { return tt->buckets != NULL; }

/* Any thread, concurrently with stores. */
bool gts__tt_probe_bucket(const gts__tt_bucket *b, uint64_t key, gts__tt_hit *hit);
/* The entry of @key for a node with @at plies to go (gts__tt_bucket_of). */
static inline bool gts__tt_probe(const gts__tt *tt, uint64_t key, int at, gts__tt_hit *hit)
{
    return gts__tt_probe_bucket(gts__tt_bucket_of(tt, key, at), key, hit);
}
/* Store a result: @score is a lower bound (GTS__BOUND_LOWER), an upper bound
 * or exact, node-relative. A result at the depth already stored for the key
 * is merged with it (the tighter of each bound), so a lower bound from one
 * null-window search and an upper bound from another make an exact value. */
void gts__tt_store_bucket(gts__tt *tt, gts__tt_bucket *b, uint64_t key, gts_score score,
                          int depth, int bound, uint32_t move_index);
/* The same into the bucket of @key for a node with @at plies to go. */
static inline void gts__tt_store(gts__tt *tt, uint64_t key, int at, gts_score score, int depth,
                                 int bound, uint32_t move_index)
{
    gts__tt_store_bucket(tt, gts__tt_bucket_of(tt, key, at), key, score, depth, bound, move_index);
}
/* Permille of the first 1000 buckets' entries that belong to this generation. */
int gts__tt_hashfull(const gts__tt *tt);

/* Decided scores are stored relative to the node, not the root. */
static inline gts_score gts__tt_score_to(gts_score s, int ply)
{
    if (s >= GTS_SCORE_DECIDED) return s + ply;
    if (s <= -GTS_SCORE_DECIDED) return s - ply;
    return s;
}
static inline gts_score gts__tt_score_from(gts_score s, int ply)
{
    if (s >= GTS_SCORE_DECIDED) return s - ply;
    if (s <= -GTS_SCORE_DECIDED) return s + ply;
    return s;
}
/* A bound of a hit, root-relative at @ply; the "no bound" values stay. */
static inline gts_score gts__tt_bound_from(gts_score s, int ply)
{
    return s == GTS_SCORE_INF || s == -GTS_SCORE_INF ? s : gts__tt_score_from(s, ply);
}

#endif
