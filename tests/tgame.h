/*
 * tgame.h - a small test-only game with a known state layout and fault
 * injection, so tests can compare states byte for byte and make callbacks
 * misbehave on purpose. Header-only; include from one test file each.
 *
 * The tree: node key k, child i has key mix(k, i); `branching` children down
 * to `depth`; leaf value in [-100, 100] from the side to move. With
 * win_leaves, a finished game (ply == depth) whose value is >= 90 returns
 * GTS_SCORE_LOSS: the side to move has lost, so the library's mate-distance
 * handling is exercised.
 */
#ifndef GTS_TESTS_TGAME_H
#define GTS_TESTS_TGAME_H

#include <gts/gts.h>
#include <string.h>
#include <stdlib.h>

/* Call counter and faults: 0 = off, else fail once, at the first call of
 * that kind from call number N on. */
typedef struct tgame_faults {
    uint64_t calls;
    uint64_t fail_apply_at, fail_undo_at, fail_generate_at, fail_evaluate_at, bad_score_at;
    uint64_t too_many_at;
    uint64_t fail_policy_at, illegal_policy_at; /* playout_move() */
    uint64_t policy_calls;
} tgame_faults;

typedef struct tgame {
    uint64_t seed;
    int branching, depth;
    int ply;
    uint64_t path[GTS_MAX_PLY + 2];
    /* fault injection (outside the state, so the state stays comparable) */
    struct tgame_faults *f;
    bool win_leaves;
    bool noisy;        /* every node has one noisy move (child 0) */
    bool extend_first; /* extend child 0 by one ply */
} tgame;

/* The number of cases of a long sweep over random trees: @p n, divided by
 * the environment's GTS_TEST_DIVISOR (a positive integer; scripts/sanitize
 * sets it, where every node costs 10-20 times more and what it looks for
 * does not need every tree), never below 1. */
static inline uint64_t tgame_count(uint64_t n)
{
    const char *d = getenv("GTS_TEST_DIVISOR");
    long div = d ? strtol(d, NULL, 10) : 1;
    if (div <= 1)
        return n;
    return n / (uint64_t)div ? n / (uint64_t)div : 1;
}

static inline uint64_t tgame_mix(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* ---- pieces of any test game ------------------------------------------------ */

/* A vtable with the four callbacks every game has, the rest zero. */
static inline gts_game tgame_game_of(uint32_t max_moves,
                                     int (*generate)(void *, gts_move *, uint32_t, void *),
                                     int (*apply)(void *, gts_move, void *),
                                     int (*undo)(void *, gts_move, void *),
                                     gts_score (*evaluate)(void *, void *))
{
    gts_game v;
    memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    v.max_moves = max_moves;
    v.generate = generate;
    v.apply = apply;
    v.undo = undo;
    v.evaluate = evaluate;
    return v;
}

/* Moves 0 .. @n - 1, as many as @cap holds; returns @n (generate()'s
 * answer for a node with @n children). */
static inline int tgame_moves(gts_move *moves, uint32_t cap, int n)
{
    for (int i = 0; i < n && (uint32_t)i < cap; i++)
        moves[i] = (gts_move)i;
    return n;
}

/* A malloc'ed byte copy of @size bytes at @s (clone()), NULL without memory. */
static inline void *tgame_copy(const void *s, size_t size)
{
    void *c = malloc(size);
    if (c)
        memcpy(c, s, size);
    return c;
}

static inline void tgame_init(tgame *g, uint64_t seed, int branching, int depth)
{
    memset(g, 0, sizeof *g);
    g->seed = seed;
    g->branching = branching;
    g->depth = depth;
    g->path[0] = tgame_mix(seed);
}

static inline bool tgame_fault(tgame *g, uint64_t *at)
{
    if (*at && g->f->calls >= *at) { /* only called with g->f set */
        *at = 0;
        return true;
    }
    return false;
}

/* With faults set: count a callback call. */
static inline void tgame_call(tgame *g)
{
    if (g->f)
        g->f->calls++;
}

/* With faults set, whether the fault in field @at of the faults fires now. */
#define TGAME_FAULT(g, at) ((g)->f && tgame_fault((g), &(g)->f->at))

static int tgame_generate(void *s, gts_move *moves, uint32_t cap, void *user)
{
    tgame *g = s;
    tgame_call(g);
    if (TGAME_FAULT(g, fail_generate_at))
        return -42;
    if (TGAME_FAULT(g, too_many_at))
        return (int)cap + 1;
    if (g->ply >= g->depth)
        return 0;
    return tgame_moves(moves, cap, g->branching);
}

static int tgame_noisy(void *s, gts_move *moves, uint32_t cap, void *user)
{
    tgame *g = s;
    if (g->ply >= g->depth + 3)
        return 0;
    moves[0] = 0;
    return 1;
}

static int tgame_apply(void *s, gts_move m, void *user)
{
    tgame *g = s;
    tgame_call(g);
    if (TGAME_FAULT(g, fail_apply_at))
        return -7;
    g->path[g->ply + 1] = tgame_mix(g->path[g->ply] ^ (m + 1));
    g->ply++;
    return 0;
}

static int tgame_undo(void *s, gts_move m, void *user)
{
    tgame *g = s;
    tgame_call(g);
    if (TGAME_FAULT(g, fail_undo_at))
        return -8;
    g->path[g->ply] = 0;
    g->ply--;
    return 0;
}

static gts_score tgame_evaluate(void *s, void *user)
{
    tgame *g = s;
    tgame_call(g);
    if (TGAME_FAULT(g, fail_evaluate_at))
        return GTS_SCORE_INVALID;
    if (TGAME_FAULT(g, bad_score_at))
        return GTS_SCORE_WIN + 5;
    int v = (int)(g->path[g->ply] % 201) - 100;
    if (g->win_leaves && v >= 90 && g->ply >= g->depth) /* only a finished game is decided */
        return GTS_SCORE_LOSS;
    return v;
}

static uint64_t tgame_hash(void *s, void *user)
{
    tgame *g = s;
    return g->path[g->ply] ^ (uint64_t)g->ply;
}

static void *tgame_clone(void *s, void *user) { return tgame_copy(s, sizeof(tgame)); }

static void tgame_free(void *s, void *user) { free(s); }

static int tgame_extend(void *s, gts_move m, void *user)
{
    tgame *g = s;
    return (m == 0 && g->ply + 1 < g->depth) ? 1 : 0;
}

/* A playout policy (MCTS): child (random % branching), from the search's
 * random bits only; with faults, it fails (-9) or returns a move generate()
 * does not (branching). Add it to a vtable as playout_move. */
static inline int tgame_playout_move(void *s, uint64_t random, gts_move *move, void *user)
{
    tgame *g = s;
    if (g->f) {
        g->f->calls++;
        g->f->policy_calls++;
    }
    if (TGAME_FAULT(g, fail_policy_at))
        return -9;
    *move = (gts_move)(random % (uint64_t)g->branching);
    if (TGAME_FAULT(g, illegal_policy_at))
        *move = (gts_move)g->branching;
    return 1;
}

/* The vtable for @g's options (hash on/off). */
static inline gts_game tgame_vtable(const tgame *g, bool hash)
{
    gts_game v = tgame_game_of(64, tgame_generate, tgame_apply, tgame_undo, tgame_evaluate);
    v.hash = hash ? tgame_hash : NULL;
    v.clone = tgame_clone;
    v.free = tgame_free;
    v.generate_noisy = g->noisy ? tgame_noisy : NULL;
    v.extend = g->extend_first ? tgame_extend : NULL;
    return v;
}

/* tgame_init(@g, ...) and its vtable (hash on/off), for a plain tgame. */
static inline gts_game tgame_new(tgame *g, uint64_t seed, int branching, int depth, bool hash)
{
    tgame_init(g, seed, branching, depth);
    return tgame_vtable(g, hash);
}

/* Independent reference: plain recursive negamax written here, not in lib/. */
static inline gts_score tgame_negamax(tgame *g, const gts_game *v, int depth, int ply)
{
    gts_move moves[64];
    if (depth <= 0 || ply >= GTS_MAX_PLY) {
        gts_score s = v->evaluate(g, NULL);
        if (s >= GTS_SCORE_DECIDED) s -= ply;
        else if (s <= -GTS_SCORE_DECIDED) s += ply;
        return s;
    }
    int n = v->generate(g, moves, 64, NULL);
    if (n == 0) {
        gts_score s = v->evaluate(g, NULL);
        if (s >= GTS_SCORE_DECIDED) s -= ply;
        else if (s <= -GTS_SCORE_DECIDED) s += ply;
        return s;
    }
    gts_score best = -GTS_SCORE_INF;
    for (int i = 0; i < n; i++) {
        v->apply(g, moves[i], NULL);
        gts_score s = -tgame_negamax(g, v, depth - 1, ply + 1);
        v->undo(g, moves[i], NULL);
        if (s > best)
            best = s;
    }
    return best;
}

#endif
