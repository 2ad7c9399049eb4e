/*
 * nim.c - a game library (include/gts/plugin.h) for the tests: Nim, normal
 * play (who takes the last stone wins), built by tests/meson.build as a
 * shared module that `gts` loads (tests/test_plugin.py).
 *
 * A position text is "[H,H,...] [moves M M ...]": up to NIM_MAX_HEAPS heap
 * sizes 0..NIM_MAX_STONES (default 3,4,5), then moves from there, each
 * "HEAP:TAKE" (heap 0-based, take 1..its stones), as format_move writes
 * them. A move is HEAP * 256 + TAKE. The value is known: the side to move
 * wins exactly when the heaps' XOR is not 0, in as many plies as perfect
 * play takes, which the test computes on its own.
 *
 * Built with -DNIM_BROKEN_UNDO, undo() forgets to put the stones back on
 * heap 0 when more than one was taken: `gts check` must say so. Built with
 * -DNIM_TRUNCATED, the descriptor's struct_size is too small: refused.
 */
#include <gts/gts.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NIM_MAX_HEAPS = 8, NIM_MAX_STONES = 15 };

typedef struct nim {
    int nheaps;
    int heap[NIM_MAX_HEAPS];
} nim;

static int nim_generate(void *s, gts_move *moves, uint32_t capacity, void *user)
{
    const nim *n = s;
    uint32_t k = 0;
    (void)user;
    for (int h = 0; h < n->nheaps; h++)
        for (int t = 1; t <= n->heap[h]; t++) {
            if (k == capacity)
                return -1;
            moves[k++] = (gts_move)(h * 256 + t);
        }
    return (int)k;
}

static int nim_apply(void *s, gts_move m, void *user)
{
    nim *n = s;
    int h = (int)(m / 256), t = (int)(m % 256);
    (void)user;
    if (h >= n->nheaps || t < 1 || t > n->heap[h])
        return -1;
    n->heap[h] -= t;
    return 0;
}

static int nim_undo(void *s, gts_move m, void *user)
{
    nim *n = s;
    int h = (int)(m / 256), t = (int)(m % 256);
    (void)user;
#ifdef NIM_BROKEN_UNDO
    if (h == 0 && t > 1)
        t = 1;
#endif
    n->heap[h] += t;
    return 0;
}

static gts_score nim_evaluate(void *s, void *user)
{
    const nim *n = s;
    (void)user;
    for (int h = 0; h < n->nheaps; h++)
        if (n->heap[h])
            return 0;
    return gts_score_loss_in(0); /* the opponent took the last stone */
}

static uint64_t nim_hash(void *s, void *user)
{
    const nim *n = s;
    uint64_t k = (uint64_t)n->nheaps;
    (void)user;
    for (int h = 0; h < n->nheaps; h++)
        k = k * 0x9E3779B97F4A7C15ull + (uint64_t)n->heap[h] + 1;
    return k ^ (k >> 29);
}

static void *nim_clone(void *s, void *user)
{
    nim *c = malloc(sizeof *c);
    (void)user;
    if (c)
        memcpy(c, s, sizeof *c);
    return c;
}

static void nim_free(void *s, void *user)
{
    (void)user;
    free(s);
}

static int nim_format_move(void *s, gts_move m, char *buf, size_t size, void *user)
{
    (void)s;
    (void)user;
    int w = snprintf(buf, size, "%d:%d", (int)(m / 256), (int)(m % 256));
    return w < 0 || (size_t)w >= size ? -1 : 0;
}

static int nim_parse_move(void *s, const char *text, gts_move *m, void *user)
{
    const nim *n = s;
    int h, t, used = 0;
    (void)user;
    if (sscanf(text, "%d:%d%n", &h, &t, &used) != 2 || text[used] || h < 0 ||
        h >= n->nheaps || t < 1 || t > n->heap[h])
        return -1;
    *m = (gts_move)(h * 256 + t);
    return 0;
}

static const gts_game NIM_GAME = {
    .struct_size = sizeof(gts_game),
    .max_moves = NIM_MAX_HEAPS * NIM_MAX_STONES,
    .generate = nim_generate,
    .apply = nim_apply,
    .undo = nim_undo,
    .evaluate = nim_evaluate,
    .hash = nim_hash,
    .clone = nim_clone,
    .free = nim_free,
    .format_move = nim_format_move,
    .parse_move = nim_parse_move,
};

static int nim_position_new(const char *text, void **state, char *why, size_t size, void *user)
{
    nim *n = calloc(1, sizeof *n);
    (void)user;
    if (!n)
        return GTS_ENOMEM;
    const char *p = text;
    while (*p == ' ')
        p++;
    if (*p >= '0' && *p <= '9') { /* the heaps */
        while (1) {
            char *end;
            long v = strtol(p, &end, 10);
            if (end == p || v > NIM_MAX_STONES || n->nheaps == NIM_MAX_HEAPS) {
                snprintf(why, size, "bad heap %d: expected 0..%d stones, at most %d heaps",
                         n->nheaps + 1, NIM_MAX_STONES, NIM_MAX_HEAPS);
                free(n);
                return GTS_EPARSE;
            }
            n->heap[n->nheaps++] = (int)v;
            p = end;
            if (*p != ',')
                break;
            p++;
        }
    } else {
        n->nheaps = 3;
        n->heap[0] = 3, n->heap[1] = 4, n->heap[2] = 5;
    }
    while (*p == ' ')
        p++;
    if (strncmp(p, "moves", 5) == 0 && (p[5] == ' ' || p[5] == '\0')) {
        p += 5;
        for (int k = 1;; k++) {
            while (*p == ' ')
                p++;
            if (!*p)
                break;
            char tok[32];
            size_t len = strcspn(p, " ");
            gts_move m;
            if (len >= sizeof tok) {
                snprintf(why, size, "move %d: too long", k);
                free(n);
                return GTS_EPARSE;
            }
            memcpy(tok, p, len);
            tok[len] = '\0';
            if (nim_parse_move(n, tok, &m, NULL) != 0) {
                snprintf(why, size, "move %d: '%s' is not HEAP:TAKE of a heap with that many",
                         k, tok);
                free(n);
                return GTS_EPARSE;
            }
            nim_apply(n, m, NULL);
            p += len;
        }
    } else if (*p) {
        snprintf(why, size, "unexpected '%s' (expected H,H,... then 'moves M M ...')", p);
        free(n);
        return GTS_EPARSE;
    }
    *state = n;
    return GTS_OK;
}

static const gts_plugin NIM_PLUGIN = {
#ifdef NIM_TRUNCATED /* a descriptor smaller than the 0.2 layout: refused */
    .struct_size = sizeof(size_t),
#else
    .struct_size = sizeof(gts_plugin),
#endif
    .name = "nim",
    .game = &NIM_GAME,
    .position_new = nim_position_new,
    .moves_prefix = "moves ",
    .moves_separator = " ",
};

GTS_PLUGIN_EXPORT const gts_plugin *gts_plugin_game(void);
GTS_PLUGIN_EXPORT const gts_plugin *gts_plugin_game(void)
{
    return &NIM_PLUGIN;
}
