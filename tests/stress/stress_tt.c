/*
 * stress_tt.c - N threads store and probe overlapping keys in one small
 * shared transposition table; every hit must return data that was stored
 * for that key. Plain main() so it also runs under ThreadSanitizer.
 *
 * Usage: stress_tt [THREADS=8] [ROUNDS=2000000]   exit 0 = clean
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "tt_internal.h"

static gts__tt table;
static uint64_t rounds = 2000000;
static const uint64_t KEYS = 1 << 16; /* ~16x the entries of a 64 KiB table */

typedef struct worker {
    pthread_t thread;
    uint64_t seed;
    uint64_t hits, bad;
} worker;

static uint64_t next(uint64_t *s)
{
    uint64_t x = (*s += UINT64_C(0x9e3779b97f4a7c15));
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* The only data ever stored for a key: a function of the key. */
static uint64_t key_of(uint64_t i) { return i * UINT64_C(0xd6e8feb86659fd93) + 1; }
static gts_score score_of(uint64_t k) { return (gts_score)(k % 60001) - 30000; }
static int depth_of(uint64_t k) { return (int)(k % 128); }
static int bound_of(uint64_t k) { return (int)(k % 3) + 1; }
static uint32_t move_of(uint64_t k) { return (uint32_t)(k % 0xffff); }
/* The node's remaining depth, which picks the table's part: half the keys
 * go to the near part (at <= NEAR_DEPTH), half to the far one. */
enum { NEAR_DEPTH = 7 };
static int at_of(uint64_t k) { return (int)(k >> 60); }

static void *run(void *arg)
{
    worker *w = arg;
    for (uint64_t r = 0; r < rounds; r++) {
        uint64_t k = key_of(next(&w->seed) % KEYS);
        if (r & 1) {
            gts__tt_store(&table, k, at_of(k), score_of(k), depth_of(k), bound_of(k), move_of(k));
        } else {
            gts__tt_hit h;
            if (gts__tt_probe(&table, k, at_of(k), &h)) {
                w->hits++;
                int b = bound_of(k);
                gts_score lower = b == GTS__BOUND_UPPER ? -GTS_SCORE_INF : score_of(k);
                gts_score upper = b == GTS__BOUND_LOWER ? GTS_SCORE_INF : score_of(k);
                if (h.lower != lower || h.upper != upper || h.depth != depth_of(k)
                    || h.move_index != move_of(k))
                    w->bad++;
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 8;
    if (argc > 2)
        rounds = strtoull(argv[2], NULL, 10);
    if (threads < 1 || threads > 64) {
        fprintf(stderr, "stress_tt: threads must be 1..64\n");
        return 2;
    }
    /* 64 KiB would round to 0 MiB: build a small table by hand. */
    if (gts__tt_resize(&table, 1) != 0) {
        fprintf(stderr, "stress_tt: no memory\n");
        return 2;
    }
    table.nbuckets = 1024; /* use the first 64 KiB only: many collisions */
    gts__tt_set_near(&table, NEAR_DEPTH, 16); /* of which 16 KiB near */
    worker w[64] = {{0}};
    for (int i = 0; i < threads; i++) {
        w[i].seed = (uint64_t)i * 7919 + 1;
        if (pthread_create(&w[i].thread, NULL, run, &w[i]) != 0) {
            fprintf(stderr, "stress_tt: pthread_create failed\n");
            return 2;
        }
    }
    uint64_t hits = 0, bad = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(w[i].thread, NULL);
        hits += w[i].hits;
        bad += w[i].bad;
    }
    gts__tt_destroy(&table);
    printf("stress_tt: %d threads, %llu hits, %llu wrong\n", threads, (unsigned long long)hits,
           (unsigned long long)bad);
    if (hits == 0) {
        fprintf(stderr, "stress_tt: no hit at all, the test proved nothing\n");
        return 1;
    }
    return bad == 0 ? 0 : 1;
}
