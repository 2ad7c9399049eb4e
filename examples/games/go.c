/*
 * go.c - Go adapter for libgts: any board from 2x2 to 19x19 (9x9 by
 * default), captures, suicide forbidden, positional superko, passes,
 * Tromp-Taylor area scoring with komi.
 *
 * Representation. The board is padded with a one-point border: point
 * (x, y) lives at index (y + 1) * W + (x + 1), W = size + 2. Every stone
 * belongs to a string: `head` names its representative, `next` links its
 * stones in a circular list; at the head, `libs` counts its pseudo-
 * liberties (pairs stone/empty neighbour, an empty point counted once per
 * adjacent stone) and `size` its stones. A string is captured exactly when
 * its pseudo-liberties reach 0; a move at p leaves an adjacent string S
 * another liberty exactly when libs(S) > the number of p's neighbours in S
 * (the pairs that p itself accounts for). That gives exact capture and
 * suicide tests without real liberty sets.
 *
 * Undo by copy-make: the state keeps one snapshot (go_pos) per ply of the
 * game; apply() copies the current one to the next slot and plays there,
 * undo() steps back. A 9x9 snapshot is about 1.2 KB, cheaper to copy than
 * an undo log is to replay, and undo() cannot get anything wrong.
 *
 * Moves (gts_move): point y * size + x (x = 0 is column A, y = 0 is row 1)
 * or GTS_GO_PASS. Equal values are the same action in every position of a
 * game (GTS_TRAIT_MOVE_IDENTITY, for RAVE). Text: GTP vertices "D4"
 * (columns A..T skipping I, case-insensitive) and "pass".
 *
 * GTS_GO_SKIP (since 0.2) hands the turn to the other colour and does
 * nothing else: not a pass (the count of consecutive passes is left as it
 * was), never generated, only applied by a caller that sets up a position
 * (handicap stones, a GTP engine's implied passes: two stones of one
 * colour in a row). It counts toward the move cap like any move.
 *
 * Rules. Black moves first; colours alternate. A play is legal on an empty
 * point unless it is suicide (a string left without liberties after
 * captures) or recreates a board position of the game so far (positional
 * superko; it contains the simple ko rule). Superko rather than simple ko
 * because it is what area-scoring computer Go uses (Tromp-Taylor, CGOS,
 * Chinese rules as engines implement them) and because it makes every game
 * finite: with simple ko alone, triple ko and other cycles let a random
 * playout loop until the move cap. A pass is always legal. The game is
 * over after two consecutive passes or when `max_game` moves (passes
 * included) have been played; the move cap makes every game end, also in
 * playouts.
 *
 * Scoring (Tromp-Taylor area): a colour's score is its stones plus the
 * empty points that reach only its stones; Black's margin is that
 * difference less komi. evaluate() gives the margin from the side to move
 * in GO_UNIT (100) per point, clamped inside the undecided range
 * +-(GTS_SCORE_DECIDED - 1) (307 points: only near-empty 19x19 boards
 * reach it). A finished game evaluates to its exact margin (positive: the
 * side to move won, 0: a jigo with integer komi); an unfinished position
 * to the same count of the board as it stands: a cheap area estimate that
 * is accurate at the end of a capped playout, where the eye rule of the
 * policy has left only eyes empty.
 *
 * Superko history. hist[k] is the board key (Zobrist over the stones only,
 * positional) after k moves; a counting filter indexed by the key's top
 * bits answers "never seen" for nearly every candidate in O(1), and only
 * on a filter hit is the history scanned. The key the search sees (hash())
 * mixes the board key with the side to move, the pass count, the ply and a
 * sum over the earlier board keys: legality depends on the history, so
 * positions with different histories must not share a key.
 *
 * Playout policy (playout_move), behind a gate. In 14 moves of 16, in
 * this order: (1) the tactics around the opponent's last stone L: capture
 * L's string when it is in atari (one real liberty), else save a string of
 * the mover next to L that is in atari, by capturing an adjacent string in
 * atari or by extending (liberties counted by a walk over the string, only
 * for the few strings next to L); with "patterns=1" in the position text
 * only, the rest of MoGo's sequence (Gelly, Wang, Munos & Teytaud, INRIA
 * RR-6062, 2006): (2) MoGo's 3x3 patterns (hane, cut1, cut2, edge;
 * go_pattern_move): one of the empty points among the 8 around L whose
 * neighbourhood matches, uniformly; (3) a capture anywhere
 * (go_capture_move): the liberty of one of the opponent's strings in
 * atari, uniformly. The patterns are off by default: they cost 12-24% of
 * the playout rate and showed no gain against GNU Go (doc/results/games.md);
 * with them off the policy is the one before they came, move for move.
 * Otherwise, and in the other 2 moves of 16, a uniformly
 * random legal point, visited in a random order (random start, random
 * stride coprime with the board). No rule fills one of the mover's own
 * eyes (an empty point whose neighbours are all the mover's stones, with
 * at most one diagonal of the opponent in the centre and none on the
 * edge; a capture never can, the other moves are tested); the pattern and
 * random moves are not self-ataris of two or more stones (go_self_atari);
 * nothing left: a pass. Every choice comes from the one random value of
 * the call: the same value, the same move. The policy notes the point it
 * returns (`vouched`: it has just tested its legality), and apply() of
 * that point in that position skips its own test; apply() and undo()
 * forget the note, so it never outlives the position it was made in.
 *
 * Patterns. A neighbourhood is 8 cells of 2 bits (empty, black, white, off
 * the board): a 16-bit code. A table of 2 x 65536 bits (per colour to
 * move) says which codes match a pattern in any rotation, reflection and
 * colour; it is built once, from the patterns written as diagrams, before
 * the first state with patterns (go_alloc), so a match is one load.
 *
 * Concurrency: the pattern table is built once (pthread_once) and only
 * read afterwards; no other global mutable state (Zobrist keys are
 * computed from the point by a mixing function); callbacks only touch
 * their own state.
 */
#include "gts_games.h"
#include "go_internal.h"
#include "games_internal.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    GO_MIN_SIZE = 2,
    GO_MAX_SIZE = 19,
    GO_MAX_W = GO_MAX_SIZE + 2,
    GO_DEFAULT_SIZE = 9,
    GO_EMPTY = 0,
    GO_BLACK = 1,
    GO_WHITE = 2,
    GO_BORDER = 3,
    GO_FILTER_BITS = 12,
    GO_FILTER = 1 << GO_FILTER_BITS,
};

/* Evaluation unit: one point of area is worth GO_UNIT. */
static const int GO_UNIT = 100;
/* Default komi in half points (7.5: the usual area-scoring komi). */
static const int GO_DEFAULT_KOMI2 = 15;
/* Largest |komi| accepted, in half points. */
static const int GO_MAX_KOMI2 = 2 * 150;
/* Default move cap: this many moves per board point (passes included). */
static const uint32_t GO_CAP_PER_POINT = 3;
/* Largest move cap accepted. */
static const uint32_t GO_MAX_CAP = 100000;
/* Playout policy: the tactical rules (captures, atari escapes) are tried
 * in this many of 16 moves. */
static const uint64_t GO_TACTICAL_OF_16 = 14;
/* Zobrist seed (any constant). */
static const uint64_t GO_ZOBRIST_SEED = 0x676f2d7a6f627269ull; /* "go-zobri" */
static const uint64_t GO_KEY_WHITE = 0x9e3779b97f4a7c15ull;

typedef struct go_pt {
    uint8_t color;
    uint8_t unused;
    uint16_t next; /* next stone of the string (circular) */
    uint16_t head; /* the string's representative */
    uint16_t libs; /* at the head: pseudo-liberties */
    uint16_t size; /* at the head: stones */
} go_pt;

typedef struct go_pos {
    uint64_t board_key; /* Zobrist of the stones */
    uint64_t hist_sum;  /* sum of mixes of the board keys before this ply */
    uint8_t to_move;
    uint8_t passes;     /* consecutive passes that led here */
    uint16_t stones[3]; /* per colour */
    go_pt pt[];         /* W * W points */
} go_pos;

typedef struct go_state {
    int size, w, npoints;
    uint16_t index[GO_MAX_SIZE * GO_MAX_SIZE]; /* move -> board index (go_index) */
    uint16_t coprime[GO_MAX_SIZE * GO_MAX_SIZE]; /* [k]: first stride >= k (cyclic
                                                  * over 1..npoints-1) coprime
                                                  * with npoints */
    int komi2;          /* komi in half points */
    bool patterns;      /* playout policy: MoGo's rules after the atari ones */
    uint32_t max_game;  /* move cap */
    uint32_t ply;       /* moves played */
    size_t stride;      /* bytes of one snapshot */
    unsigned char *stack; /* (max_game + 1) snapshots */
    uint64_t *hist;     /* board key after k moves, k = 0..ply */
    gts_move *played;   /* moves played */
    int vouched;        /* a point playout_move() has just found legal here
                         * (apply() skips its test), 0: none; apply(),
                         * undo() and clone clear it */
    uint16_t filter[GO_FILTER]; /* counts of hist[0..ply] by top bits */
} go_state;

static uint64_t go_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t go_zobrist(int color, int p)
{
    return go_mix(GO_ZOBRIST_SEED + (uint64_t)(p * 4 + color) * 0x9e3779b97f4a7c15ull);
}

static go_pos *go_at(const go_state *s, uint32_t ply)
{
    return (go_pos *)(void *)(s->stack + (size_t)ply * s->stride);
}

static go_pos *go_cur(const go_state *s) { return go_at(s, s->ply); }

static unsigned go_filter_slot(uint64_t key) { return (unsigned)(key >> (64 - GO_FILTER_BITS)); }

/* Board index of move @p m (not a pass): (m / size + 1) * w + m % size
 * + 1, from a table (no divisions on the playouts' hot path). */
static int go_index(const go_state *s, gts_move m)
{
    return s->index[m];
}

static bool go_over(const go_state *s)
{
    return go_cur(s)->passes >= 2 || s->ply >= s->max_game;
}

/* The four neighbours of @p p. */
#define GO_NEIGHBOURS(s, p) { (p) - 1, (p) + 1, (p) - (s)->w, (p) + (s)->w }

/* Whether the board key @p key occurred in the game so far. */
static bool go_seen(const go_state *s, uint64_t key)
{
    if (s->filter[go_filter_slot(key)] == 0)
        return false;
    for (uint32_t k = 0; k <= s->ply; k++)
        if (s->hist[k] == key)
            return true;
    return false;
}

/*
 * Whether colour @p c may put a stone on point @p p of @p b before superko
 * is asked: the point is empty and the play is no suicide (it captures, or
 * its string keeps a liberty); writes the board key after the move. The
 * hot path of generate(): a neighbour string with more than 4
 * pseudo-liberties has another liberty whatever p takes, so only strings
 * with at most 4 count their pairs with p, and captured strings' keys are
 * only gathered when there are any.
 */
#if defined(__GNUC__)
__attribute__((always_inline)) /* one body with go_legal_at, as before the split */
#endif
static inline bool go_play_key(const go_state *s, const go_pos *b, int p, int c,
                               uint64_t *key_out)
{
    const go_pt *pt = b->pt;
    if (pt[p].color != GO_EMPTY)
        return false;
    const int nb[4] = GO_NEIGHBOURS(s, p);
    bool alive = false, capture = false;
    for (int i = 0; i < 4; i++) {
        int qc = pt[nb[i]].color;
        if (qc == GO_EMPTY) {
            alive = true;
            continue;
        }
        if (qc == GO_BORDER)
            continue;
        int h = pt[nb[i]].head, libs = pt[h].libs;
        if (libs > 4) {
            alive |= qc == c;
            continue;
        }
        int adj = 0;
        for (int j = 0; j < 4; j++)
            adj += pt[nb[j]].head == h && pt[nb[j]].color == qc;
        if (qc == c)
            alive |= libs > adj;
        else if (libs == adj)
            capture = true;
    }
    if (!alive && !capture)
        return false;
    uint64_t key = b->board_key ^ go_zobrist(c, p);
    if (capture) { /* the captured strings' stones leave the key (each once) */
        int opp = GO_BLACK + GO_WHITE - c, done[4], ndone = 0;
        for (int i = 0; i < 4; i++) {
            if (pt[nb[i]].color != opp)
                continue;
            int h = pt[nb[i]].head, adj = 0;
            bool seen = false;
            for (int j = 0; j < ndone; j++)
                seen |= done[j] == h;
            if (seen)
                continue;
            done[ndone++] = h;
            for (int j = 0; j < 4; j++)
                adj += pt[nb[j]].head == h && pt[nb[j]].color == opp;
            if (pt[h].libs != adj)
                continue;
            int r = h;
            do {
                key ^= go_zobrist(opp, r);
                r = pt[r].next;
            } while (r != h);
        }
    }
    *key_out = key;
    return true;
}

/* Legality of a play at point @p p for colour @p c in @p b; on success
 * writes the board key after the move. Occupied points, suicide and
 * superko are illegal. */
static bool go_legal_at(const go_state *s, const go_pos *b, int p, int c, uint64_t *key_out)
{
    uint64_t key;
    if (!go_play_key(s, b, p, c, &key) || go_seen(s, key))
        return false;
    if (key_out)
        *key_out = key;
    return true;
}

static bool go_legal(const go_state *s, gts_move m)
{
    if (go_over(s))
        return false;
    if (m == GTS_GO_PASS || m == GTS_GO_SKIP)
        return true;
    if (m >= (gts_move)s->npoints)
        return false;
    const go_pos *b = go_cur(s);
    return go_legal_at(s, b, go_index(s, m), b->to_move, NULL);
}

/* Remove the string of @p h (captured) from @p b. */
static void go_remove(const go_state *s, go_pos *b, int h)
{
    int c = b->pt[h].color;
    int r = h;
    do { /* first empty every stone, so no liberty is given back to it */
        b->pt[r].color = GO_EMPTY;
        b->board_key ^= go_zobrist(c, r);
        r = b->pt[r].next;
    } while (r != h);
    b->stones[c] = (uint16_t)(b->stones[c] - b->pt[h].size);
    r = h;
    do {
        int next = b->pt[r].next;
        const int nb[4] = GO_NEIGHBOURS(s, r);
        for (int i = 0; i < 4; i++) {
            int qc = b->pt[nb[i]].color;
            if (qc == GO_BLACK || qc == GO_WHITE)
                b->pt[b->pt[nb[i]].head].libs++;
        }
        b->pt[r].next = (uint16_t)r;
        b->pt[r].head = (uint16_t)r;
        r = next;
    } while (r != h);
}

/* Join the string of @p from into the string headed by @p into. */
static void go_join(go_pos *b, int into, int from)
{
    int r = from;
    do {
        b->pt[r].head = (uint16_t)into;
        r = b->pt[r].next;
    } while (r != from);
    uint16_t t = b->pt[into].next;
    b->pt[into].next = b->pt[from].next;
    b->pt[from].next = t;
    b->pt[into].libs = (uint16_t)(b->pt[into].libs + b->pt[from].libs);
    b->pt[into].size = (uint16_t)(b->pt[into].size + b->pt[from].size);
}

/* Play a legal stone of colour @p c at @p p on @p b (no checks). */
static void go_place(const go_state *s, go_pos *b, int p, int c)
{
    const int nb[4] = GO_NEIGHBOURS(s, p);
    go_pt *pp = &b->pt[p];
    pp->color = (uint8_t)c;
    pp->next = pp->head = (uint16_t)p;
    pp->libs = 0;
    pp->size = 1;
    b->board_key ^= go_zobrist(c, p);
    b->stones[c]++;
    for (int i = 0; i < 4; i++) {
        int qc = b->pt[nb[i]].color;
        if (qc == GO_EMPTY)
            pp->libs++;
        else if (qc != GO_BORDER)
            b->pt[b->pt[nb[i]].head].libs--;
    }
    int head = p;
    for (int i = 0; i < 4; i++) {
        int q = nb[i];
        if (b->pt[q].color != c || b->pt[q].head == head)
            continue;
        int h = b->pt[q].head;
        if (b->pt[h].size > b->pt[head].size) {
            go_join(b, h, head);
            head = h;
        } else {
            go_join(b, head, h);
        }
    }
    int opp = GO_BLACK + GO_WHITE - c;
    for (int i = 0; i < 4; i++) {
        int q = nb[i];
        if (b->pt[q].color == opp && b->pt[b->pt[q].head].libs == 0)
            go_remove(s, b, b->pt[q].head);
    }
}

static int go_generate(void *state, gts_move *moves, uint32_t capacity, void *user)
{
    (void)user;
    const go_state *s = state;
    if (!s || !moves)
        return GTS_EINVAL;
    if (go_over(s))
        return 0;
    const go_pos *b = go_cur(s);
    uint32_t n = 0;
    for (int m = 0; m < s->npoints; m++) {
        if (!go_legal_at(s, b, go_index(s, (gts_move)m), b->to_move, NULL))
            continue;
        if (n >= capacity)
            return GTS_EINVAL;
        moves[n++] = (gts_move)m;
    }
    if (n >= capacity)
        return GTS_EINVAL;
    moves[n++] = GTS_GO_PASS;
    return (int)n;
}

static int go_apply(void *state, gts_move move, void *user)
{
    (void)user;
    go_state *s = state;
    if (!s || go_over(s))
        return GTS_EINVAL;
    const go_pos *b = go_cur(s);
    uint64_t key = b->board_key;
    int p = 0;
    if (move != GTS_GO_PASS && move != GTS_GO_SKIP) {
        if (move >= (gts_move)s->npoints)
            return GTS_EINVAL;
        p = go_index(s, move);
        if (p != s->vouched && !go_legal_at(s, b, p, b->to_move, &key))
            return GTS_EINVAL;
    }
    go_pos *nb = go_at(s, s->ply + 1);
    s->vouched = 0;
    memcpy(nb, b, s->stride);
    nb->hist_sum = b->hist_sum + go_mix(b->board_key);
    nb->to_move = (uint8_t)(GO_BLACK + GO_WHITE - b->to_move);
    if (move == GTS_GO_PASS) {
        nb->passes = (uint8_t)(b->passes + 1);
    } else if (move == GTS_GO_SKIP) {
        nb->passes = b->passes; /* a set-up turn, not a pass */
    } else {
        nb->passes = 0;
        go_place(s, nb, p, b->to_move);
    }
    s->played[s->ply] = move;
    s->ply++;
    s->hist[s->ply] = nb->board_key;
    s->filter[go_filter_slot(nb->board_key)]++;
    return 0;
}

static int go_undo(void *state, gts_move move, void *user)
{
    (void)user;
    go_state *s = state;
    if (!s || s->ply == 0 || s->played[s->ply - 1] != move)
        return GTS_EINVAL;
    s->filter[go_filter_slot(s->hist[s->ply])]--;
    s->ply--;
    s->vouched = 0;
    return 0;
}

/* Tromp-Taylor area: Black's stones and territory less White's, in points. */
static int go_area(const go_state *s)
{
    const go_pos *b = go_cur(s);
    uint8_t mark[GO_MAX_W * GO_MAX_W];
    uint16_t queue[GO_MAX_W * GO_MAX_W];
    memset(mark, 0, (size_t)(s->w * s->w));
    int score = (int)b->stones[GO_BLACK] - (int)b->stones[GO_WHITE];
    for (int y = 0; y < s->size; y++) {
        for (int x = 0; x < s->size; x++) {
            int p = (y + 1) * s->w + x + 1;
            if (b->pt[p].color != GO_EMPTY || mark[p])
                continue;
            int n = 0, count = 0, reach = 0;
            queue[n++] = (uint16_t)p;
            mark[p] = 1;
            while (n > 0) {
                int q = queue[--n];
                count++;
                const int nb[4] = GO_NEIGHBOURS(s, q);
                for (int i = 0; i < 4; i++) {
                    int qc = b->pt[nb[i]].color;
                    if (qc == GO_EMPTY && !mark[nb[i]]) {
                        mark[nb[i]] = 1;
                        queue[n++] = (uint16_t)nb[i];
                    } else if (qc == GO_BLACK || qc == GO_WHITE) {
                        reach |= qc;
                    }
                }
            }
            if (reach == GO_BLACK)
                score += count;
            else if (reach == GO_WHITE)
                score -= count;
        }
    }
    return score;
}

static gts_score go_evaluate(void *state, void *user)
{
    (void)user;
    const go_state *s = state;
    if (!s)
        return GTS_SCORE_INVALID;
    long v = ((long)go_area(s) * 2 - s->komi2) * GO_UNIT / 2;
    if (go_cur(s)->to_move == GO_WHITE)
        v = -v;
    const long lim = GTS_SCORE_DECIDED - 1;
    if (v > lim)
        v = lim;
    if (v < -lim)
        v = -lim;
    return (gts_score)v;
}

static uint64_t go_hash(void *state, void *user)
{
    (void)user;
    const go_state *s = state;
    if (!s)
        return 0;
    const go_pos *b = go_cur(s);
    uint64_t k = b->board_key ^ go_mix(b->hist_sum + (uint64_t)s->ply * 0x632be59bd9b4e019ull +
                                       (uint64_t)b->passes * 0x85157af5ull);
    return b->to_move == GO_WHITE ? k ^ GO_KEY_WHITE : k;
}

static void go_free(void *state, void *user)
{
    (void)user;
    go_state *s = state;
    if (!s)
        return;
    free(s->stack);
    free(s->hist);
    free(s->played);
    free(s);
}

/* The playout policy's pattern table (built once, see go_pattern_init()):
 * bit (code & 7) of go_pattern_bits[mover - 1][code >> 3] is set when a
 * move by @p mover at the centre of neighbourhood code matches a pattern. */
static uint8_t go_pattern_bits[2][GTS__GO_PATTERN_CODES / 8];
static pthread_once_t go_pattern_once = PTHREAD_ONCE_INIT;
static void go_pattern_init(void);

static unsigned go_gcd(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* A state with an empty board (black to move), or NULL. */
static go_state *go_alloc(int size, int komi2, bool patterns, uint32_t max_game)
{
    /* every state with patterns exists after the pattern table: the policy
     * reads it without synchronisation */
    if (patterns)
        pthread_once(&go_pattern_once, go_pattern_init);
    go_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->size = size;
    s->w = size + 2;
    s->npoints = size * size;
    for (int m = 0; m < s->npoints; m++)
        s->index[m] = (uint16_t)((m / size + 1) * s->w + m % size + 1);
    unsigned n = (unsigned)s->npoints;
    for (unsigned k = 1; n > 2 && k < n; k++) {
        unsigned stride = k;
        while (go_gcd(stride, n) != 1)
            stride = stride % (n - 1) + 1;
        s->coprime[k] = (uint16_t)stride;
    }
    s->komi2 = komi2;
    s->patterns = patterns;
    s->max_game = max_game;
    s->stride = (sizeof(go_pos) + (size_t)(s->w * s->w) * sizeof(go_pt) + 7) & ~(size_t)7;
    s->stack = malloc(s->stride * (max_game + 1));
    s->hist = malloc(sizeof *s->hist * (max_game + 1));
    s->played = malloc(sizeof *s->played * (max_game + 1));
    if (!s->stack || !s->hist || !s->played) {
        go_free(s, NULL);
        return NULL;
    }
    go_pos *b = go_at(s, 0);
    memset(b, 0, s->stride);
    b->to_move = GO_BLACK;
    for (int p = 0; p < s->w * s->w; p++) {
        int x = p % s->w, y = p / s->w;
        bool border = x == 0 || y == 0 || x == s->w - 1 || y == s->w - 1;
        b->pt[p].color = border ? GO_BORDER : GO_EMPTY;
        b->pt[p].next = b->pt[p].head = (uint16_t)p;
    }
    s->hist[0] = 0;
    s->filter[go_filter_slot(0)] = 1;
    return s;
}

static void *go_clone(void *state, void *user)
{
    (void)user;
    const go_state *s = state;
    if (!s)
        return NULL;
    go_state *c = go_alloc(s->size, s->komi2, s->patterns, s->max_game);
    if (!c)
        return NULL;
    memcpy(c->stack, s->stack, s->stride * (s->ply + 1));
    memcpy(c->hist, s->hist, sizeof *s->hist * (s->ply + 1));
    memcpy(c->played, s->played, sizeof *s->played * (s->ply + 1));
    memcpy(c->filter, s->filter, sizeof s->filter);
    c->ply = s->ply;
    return c;
}

/* Whether empty point @p p is an eye of colour @p c (see the file comment). */
static bool go_is_eye(const go_state *s, const go_pos *b, int p, int c)
{
    const int nb[4] = GO_NEIGHBOURS(s, p);
    for (int i = 0; i < 4; i++) {
        int qc = b->pt[nb[i]].color;
        if (qc != c && qc != GO_BORDER)
            return false;
    }
    const int dg[4] = { p - s->w - 1, p - s->w + 1, p + s->w - 1, p + s->w + 1 };
    int opp = GO_BLACK + GO_WHITE - c, bad = 0, edge = 0;
    for (int i = 0; i < 4; i++) {
        int qc = b->pt[dg[i]].color;
        bad += qc == opp;
        edge |= qc == GO_BORDER;
    }
    return bad + edge < 2;
}

/* Real liberties of the string headed by @p h, counted up to 2; the first
 * one found goes to @p lib. */
static int go_liberties2(const go_state *s, const go_pos *b, int h, int *lib)
{
    int first = 0, r = h;
    do {
        const int nb[4] = GO_NEIGHBOURS(s, r);
        for (int i = 0; i < 4; i++) {
            if (b->pt[nb[i]].color != GO_EMPTY)
                continue;
            if (first == 0)
                first = nb[i];
            else if (nb[i] != first)
                return 2;
        }
        r = b->pt[r].next;
    } while (r != h);
    *lib = first;
    return first ? 1 : 0;
}

/*
 * The tactical part of the policy, around the last move L (a stone of the
 * opponent): capture the string at L when it is in atari; else save a
 * string of the mover next to L that is in atari (capture a string in
 * atari next to it, or extend at its liberty). Returns the board index of
 * the move, 0 when no rule applies with a legal move.
 */
static int go_tactical(const go_state *s, const go_pos *b, int c, uint64_t random)
{
    if (s->ply == 0 || s->played[s->ply - 1] >= GTS_GO_PASS) /* pass or skip */
        return 0;
    int last = go_index(s, s->played[s->ply - 1]);
    if (b->pt[last].color != GO_BLACK + GO_WHITE - c)
        return 0;
    int lib;
    int h = b->pt[last].head;
    if (b->pt[h].libs <= 4 && go_liberties2(s, b, h, &lib) == 1 &&
        go_legal_at(s, b, lib, c, NULL))
        return lib;
    const int nb[4] = GO_NEIGHBOURS(s, last);
    int start = (int)(random & 3);
    for (int k = 0; k < 4; k++) {
        int q = nb[(start + k) & 3];
        if (b->pt[q].color != c)
            continue;
        int qh = b->pt[q].head;
        if (b->pt[qh].libs > 4 || go_liberties2(s, b, qh, &lib) != 1)
            continue;
        /* in atari: capture an adjacent opponent string in atari, or extend */
        int r = qh;
        do {
            const int rn[4] = GO_NEIGHBOURS(s, r);
            for (int i = 0; i < 4; i++) {
                int oc = b->pt[rn[i]].color, ol;
                if (oc == GO_BLACK + GO_WHITE - c &&
                    go_liberties2(s, b, b->pt[rn[i]].head, &ol) == 1 &&
                    go_legal_at(s, b, ol, c, NULL))
                    return ol;
            }
            r = b->pt[r].next;
        } while (r != qh);
        if (go_legal_at(s, b, lib, c, NULL) && !go_is_eye(s, b, lib, c))
            return lib;
    }
    return 0;
}

/*
 * Whether a legal play at @p p by @p c joins an own string and leaves it in
 * atari without capturing anything (self-atari of two or more stones; a
 * single stone may still be thrown in). Quick exits: two empty neighbours,
 * or an adjacent opponent string in atari (the move captures).
 */
static bool go_self_atari(const go_state *s, const go_pos *b, int p, int c)
{
    const int nb[4] = GO_NEIGHBOURS(s, p);
    int lib = 0, opp = GO_BLACK + GO_WHITE - c, lib2;
    bool own = false;
    for (int i = 0; i < 4; i++) {
        int qc = b->pt[nb[i]].color;
        if (qc == GO_EMPTY) {
            if (lib && lib != nb[i])
                return false;
            lib = nb[i];
        } else if (qc == c) {
            own = true;
        } else if (qc == opp && b->pt[b->pt[nb[i]].head].libs <= 4 &&
                   go_liberties2(s, b, b->pt[nb[i]].head, &lib2) == 1) {
            return false;
        }
    }
    if (!own)
        return false;
    int done[4], ndone = 0;
    for (int i = 0; i < 4; i++) {
        if (b->pt[nb[i]].color != c)
            continue;
        int h = b->pt[nb[i]].head;
        bool seen = false;
        for (int j = 0; j < ndone; j++)
            seen |= done[j] == h;
        if (seen)
            continue;
        done[ndone++] = h;
        int r = h;
        do {
            const int rn[4] = GO_NEIGHBOURS(s, r);
            for (int k = 0; k < 4; k++) {
                int e = rn[k];
                if (e == p || b->pt[e].color != GO_EMPTY || e == lib)
                    continue;
                if (lib)
                    return false;
                lib = e;
            }
            r = b->pt[r].next;
        } while (r != h);
    }
    return true;
}

/* ---- MoGo's 3x3 patterns ---------------------------------------------------- */

/*
 * The patterns of Gelly, Wang, Munos & Teytaud, "Modification of UCT with
 * patterns in Monte-Carlo Go" (INRIA RR-6062, 2006), figures 2-5, as 3x3
 * diagrams, top row first, the centre being the candidate move (always
 * empty). The two colours are X and O; each pattern is matched with X
 * black and with X white, in all 8 rotations and reflections, except the
 * ones the paper marks with a square, which only match with X to move.
 * Cells: 'X', 'O' a stone of that colour, '.' empty, 'x' anything but X
 * (empty, O or off the board), 'o' anything but O, '?' anything, '#' off
 * the board.
 */
typedef struct go_pattern {
    char cells[10];
    bool x_to_move; /* only when X is the side to move */
} go_pattern;

static const go_pattern GO_PATTERNS[] = {
    /* Hane (figure 2): enclosing hane, hane without a cut, magari, and
     * the thin hane (X to move). */
    { "XOX" "..." "???", false },
    { "XO." "..." "?.?", false },
    { "XO?" "X.." "x.?", false },
    { "XOO" "..." "?.?", true },
    /* Cut1 (figure 3): the diagonal cut, unless an O on either other side
     * protects it (the figure's first pattern without its other two). */
    { "XO?" "O.o" "?o?", false },
    /* Cut2 (figure 4): the six upper cells, and no O on the bottom row. */
    { "?X?" "O.O" "ooo", false },
    /* On the edge (figure 5), the bottom row off the board: chase, block
     * the cut, block the connection, sagari (X to move), cut (X to move).
     * The figure marks three of the five with a side to move; we restrict
     * the sagari and the cut and match the connection for both sides. With
     * colours exchanged and mirrored, the cut is the second pattern: it
     * adds no code to the table, and is kept to follow the figure. */
    { "X.?" "O.?" "###", false },
    { "OX?" "X.O" "###", false },
    { "?X?" "x.O" "###", false },
    { "?XO" "x.?" "###", true },
    { "?OX" "X.O" "###", true },
};

/* The states a pattern cell allows, one bit per GO_EMPTY..GO_BORDER, X
 * being colour @p x. */
static unsigned go_cell_states(char cell, int x)
{
    int o = GO_BLACK + GO_WHITE - x;
    switch (cell) {
    case 'X': return 1u << x;
    case 'O': return 1u << o;
    case '.': return 1u << GO_EMPTY;
    case '#': return 1u << GO_BORDER;
    case 'x': return 0xfu & ~(1u << x);
    case 'o': return 0xfu & ~(1u << o);
    default: return 0xfu; /* '?' */
    }
}

/* Set the bit of every code that the 8 cell masks @p allow accept, from
 * cell @p i on, for @p mover. */
static void go_pattern_expand(const unsigned allow[8], int i, unsigned code, int mover)
{
    if (i == 8) {
        go_pattern_bits[mover - 1][code >> 3] |= (uint8_t)(1u << (code & 7));
        return;
    }
    for (unsigned v = 0; v < 4; v++)
        if (allow[i] & (1u << v))
            go_pattern_expand(allow, i + 1, code | v << (2 * i), mover);
}

static void go_pattern_init(void)
{
    for (size_t k = 0; k < sizeof GO_PATTERNS / sizeof GO_PATTERNS[0]; k++) {
        const go_pattern *pat = &GO_PATTERNS[k];
        for (int sym = 0; sym < 8; sym++) {
            /* cell (r, c) of the transformed diagram is cell (r0, c0) of
             * the pattern: a reflection if sym & 4, then sym & 3 quarter
             * turns */
            char cells[9];
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++) {
                    int r0 = r, c0 = c;
                    for (int t = 0; t < (sym & 3); t++) {
                        int tr = 2 - c0;
                        c0 = r0;
                        r0 = tr;
                    }
                    if (sym & 4)
                        c0 = 2 - c0;
                    cells[r * 3 + c] = pat->cells[r0 * 3 + c0];
                }
            for (int x = GO_BLACK; x <= GO_WHITE; x++) {
                unsigned allow[8];
                for (int i = 0, j = 0; j < 9; j++)
                    if (j != 4)
                        allow[i++] = go_cell_states(cells[j], x);
                for (int mover = GO_BLACK; mover <= GO_WHITE; mover++)
                    if (!pat->x_to_move || mover == x)
                        go_pattern_expand(allow, 0, 0, mover);
            }
        }
    }
}

/* The neighbourhood code of point @p p (see go_internal.h). */
static unsigned go_pattern_code(const go_state *s, const go_pos *b, int p)
{
    const go_pt *pt = b->pt;
    const int w = s->w;
    return (unsigned)pt[p + w - 1].color | (unsigned)pt[p + w].color << 2 |
           (unsigned)pt[p + w + 1].color << 4 | (unsigned)pt[p - 1].color << 6 |
           (unsigned)pt[p + 1].color << 8 | (unsigned)pt[p - w - 1].color << 10 |
           (unsigned)pt[p - w].color << 12 | (unsigned)pt[p - w + 1].color << 14;
}

/* Table lookup; the table is built before the first state exists (go_alloc). */
static bool go_pattern_hit(unsigned code, int mover)
{
    return (go_pattern_bits[mover - 1][code >> 3] >> (code & 7)) & 1;
}

bool gts__go_pattern_match(unsigned code, int mover)
{
    pthread_once(&go_pattern_once, go_pattern_init);
    if (code >= GTS__GO_PATTERN_CODES || (mover != GO_BLACK && mover != GO_WHITE))
        return false;
    return go_pattern_hit(code, mover);
}

unsigned gts__go_pattern_code(const void *state, gts_move m)
{
    const go_state *s = state;
    return go_pattern_code(s, go_cur(s), go_index(s, m));
}

/* A uniform choice among @p n from 32 random bits (Lemire's multiply-shift). */
static unsigned go_pick(uint32_t random, unsigned n)
{
    return (unsigned)(((uint64_t)random * n) >> 32);
}

/*
 * MoGo's pattern rule: the empty points among the 8 around the last move
 * L whose neighbourhood matches a pattern, and which the mover may play
 * (legal, not an own eye, not a self-atari of two or more stones); one of
 * them uniformly. Returns its board index, 0 when there is none.
 */
static int go_pattern_move(const go_state *s, const go_pos *b, int c, uint32_t random)
{
    if (s->ply == 0 || s->played[s->ply - 1] >= GTS_GO_PASS) /* pass or skip */
        return 0;
    const int last = go_index(s, s->played[s->ply - 1]), w = s->w;
    const int around[8] = { last + w - 1, last + w, last + w + 1, last - 1,
                            last + 1,     last - w - 1, last - w, last - w + 1 };
    int cand[8];
    unsigned n = 0;
    for (int i = 0; i < 8; i++) {
        int p = around[i];
        if (b->pt[p].color != GO_EMPTY || !go_pattern_hit(go_pattern_code(s, b, p), c))
            continue;
        if (!go_is_eye(s, b, p, c) && go_legal_at(s, b, p, c, NULL) && !go_self_atari(s, b, p, c))
            cand[n++] = p;
    }
    return n ? cand[go_pick(random, n)] : 0;
}

/*
 * MoGo's capture rule: the liberties of the opponent's strings in atari,
 * anywhere on the board, where the mover may play; one of them uniformly
 * (a point that captures two strings counts once). Returns its board
 * index, 0 when there is none.
 */
static int go_capture_move(const go_state *s, const go_pos *b, int c, uint32_t random)
{
    const int opp = GO_BLACK + GO_WHITE - c;
    if (b->stones[opp] == 0)
        return 0;
    uint16_t cand[GO_MAX_SIZE * GO_MAX_SIZE];
    unsigned n = 0;
    for (int y = 1; y <= s->size; y++)
        for (int p = y * s->w + 1, end = p + s->size; p < end; p++) {
            const go_pt *q = &b->pt[p];
            int lib;
            /* a string in atari has at most 4 pseudo-liberties (its stones
             * next to the one liberty) */
            if (q->color != opp || q->head != p || q->libs > 4 ||
                go_liberties2(s, b, p, &lib) != 1)
                continue;
            bool seen = false;
            for (unsigned k = 0; k < n && !seen; k++)
                seen = cand[k] == lib;
            if (!seen && go_legal_at(s, b, lib, c, NULL))
                cand[n++] = (uint16_t)lib;
        }
    return n ? cand[go_pick(random, n)] : 0;
}

static int go_playout_move(void *state, uint64_t random, gts_move *move, void *user)
{
    (void)user;
    go_state *s = state; /* only s->vouched is written */
    if (!s || !move)
        return GTS_EINVAL;
    if (go_over(s))
        return 0;
    const go_pos *b = go_cur(s);
    int tp = 0;
    if (!s->patterns) {
        tp = (random >> 60) < GO_TACTICAL_OF_16 ? go_tactical(s, b, b->to_move, random >> 56) : 0;
    } else if ((random >> 60) < GO_TACTICAL_OF_16) {
        /* bits 56-57 order go_tactical()'s neighbours; the two rules after
         * it draw from a mix of the whole value */
        uint64_t mix = go_mix(random);
        tp = go_tactical(s, b, b->to_move, random >> 56);
        if (!tp)
            tp = go_pattern_move(s, b, b->to_move, (uint32_t)(mix >> 32));
        if (!tp)
            tp = go_capture_move(s, b, b->to_move, (uint32_t)mix);
    }
    if (tp) {
        *move = (gts_move)((tp / s->w - 1) * s->size + tp % s->w - 1);
        s->vouched = tp; /* every rule tests its move with go_legal_at() */
        return 1;
    }
    unsigned n = (unsigned)s->npoints;
    unsigned start = (unsigned)(random % n);
    unsigned stride = 1;
    if (n > 2) {
        stride = s->coprime[1 + (random >> 32) % (n - 1)];
    }
    int c = b->to_move;
    unsigned m = start;
    for (unsigned i = 0; i < n; i++, m = m + stride < n ? m + stride : m + stride - n) {
        int p = go_index(s, (gts_move)m);
        if (b->pt[p].color != GO_EMPTY || go_is_eye(s, b, p, c))
            continue;
        if (go_legal_at(s, b, p, c, NULL) && !go_self_atari(s, b, p, c)) {
            *move = (gts_move)m;
            s->vouched = p;
            return 1;
        }
    }
    *move = GTS_GO_PASS;
    return 1;
}

/* Column letters of GTP: A..T without I. */
static const char GO_COLUMNS[] = "ABCDEFGHJKLMNOPQRST";

static int go_format_move(void *state, gts_move move, char *buf, size_t size, void *user)
{
    (void)user;
    const go_state *s = state;
    if (!s || !buf)
        return GTS_EINVAL;
    if (move == GTS_GO_PASS) {
        if (size < 5)
            return GTS_EINVAL;
        memcpy(buf, "pass", 5);
        return 4;
    }
    if (move >= (gts_move)s->npoints)
        return GTS_EINVAL;
    int n = snprintf(buf, size, "%c%d", GO_COLUMNS[move % (gts_move)s->size],
                     (int)(move / (gts_move)s->size) + 1);
    if (n < 0 || (size_t)n >= size)
        return GTS_EINVAL;
    return n;
}

/* Parse a vertex of a @p size board ("D4", "pass"; case-insensitive) into
 * @p move; false for anything else. Does not check legality. */
static bool go_parse_vertex(int size, const char *t, size_t len, gts_move *move)
{
    if (len == 4 && (t[0] | 32) == 'p' && (t[1] | 32) == 'a' && (t[2] | 32) == 's' &&
        (t[3] | 32) == 's') {
        *move = GTS_GO_PASS;
        return true;
    }
    if (len < 2 || len > 3)
        return false;
    char col = (char)(t[0] & ~32);
    const char *at = memchr(GO_COLUMNS, col, sizeof GO_COLUMNS - 1);
    if (!at || col == '\0')
        return false;
    int x = (int)(at - GO_COLUMNS), y = 0;
    for (size_t i = 1; i < len; i++) {
        if (t[i] < '0' || t[i] > '9')
            return false;
        y = y * 10 + (t[i] - '0');
    }
    if (t[1] == '0' || x >= size || y < 1 || y > size)
        return false;
    *move = (gts_move)((y - 1) * size + x);
    return true;
}

static int go_parse_move(void *state, const char *text, gts_move *move, void *user)
{
    (void)user;
    const go_state *s = state;
    gts_move m;
    if (!s || !text || !move)
        return GTS_EINVAL;
    if (!go_parse_vertex(s->size, text, strlen(text), &m) || !go_legal(s, m))
        return GTS_EPARSE;
    *move = m;
    return 0;
}

static const gts_game GO_GAME = {
    .struct_size = sizeof(gts_game),
    .max_moves = GTS_GO_PASS + 1,
    .generate = go_generate,
    .apply = go_apply,
    .undo = go_undo,
    .evaluate = go_evaluate,
    .hash = go_hash,
    .clone = go_clone,
    .free = go_free,
    .format_move = go_format_move,
    .parse_move = go_parse_move,
    .user = NULL,
    .playout_move = go_playout_move,
    /* playout_move() tests every move with go_legal_at(), as generate()
     * does, and returns 0 once the game is over: it can be trusted. */
    .traits = GTS_TRAIT_MOVE_IDENTITY | GTS_TRAIT_TRUSTED_PLAYOUT,
};

const gts_game *gts_game_go(void)
{
    return &GO_GAME;
}

/* Parse komi text ("7.5", "-3", "0.5") into half points. */
static bool go_parse_komi(const char *t, size_t len, int *komi2)
{
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, t, len);
    buf[len] = '\0';
    char *end = NULL;
    double k = strtod(buf, &end);
    if (end != buf + len || !(k * 2 >= -GO_MAX_KOMI2 && k * 2 <= GO_MAX_KOMI2))
        return false;
    double h = k * 2;
    if (h != (double)(int)h)
        return false;
    *komi2 = (int)h;
    return true;
}

static bool go_parse_uint(const char *t, size_t len, uint32_t max, uint32_t *out)
{
    uint32_t v = 0;
    if (len == 0 || len > 9)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (t[i] < '0' || t[i] > '9')
            return false;
        v = v * 10 + (uint32_t)(t[i] - '0');
    }
    if (v > max)
        return false;
    *out = v;
    return true;
}

/*
 * Position text: "[SIZE] [komi=K] [maxmoves=N] [patterns=0|1] [moves=V,V,...]",
 * tokens separated by blanks, in any order. See gts_games.h.
 */
gts_status gts_go_new(const char *position, void **state)
{
    if (!state)
        return GTS_EINVAL;
    *state = NULL;
    uint32_t size = GO_DEFAULT_SIZE, cap = 0;
    int komi2 = GO_DEFAULT_KOMI2;
    bool patterns = false;
    const char *moves = NULL;
    size_t moves_len = 0;
    bool have_size = false;
    const char *p = position ? position : "";
    while (*p) {
        if (*p == ' ' || *p == '\t') {
            p++;
            continue;
        }
        size_t len = strcspn(p, " \t");
        const char *eq = memchr(p, '=', len);
        if (!eq) {
            if (have_size || !go_parse_uint(p, len, GO_MAX_SIZE, &size) || size < GO_MIN_SIZE)
                return GTS_EPARSE;
            have_size = true;
        } else {
            size_t klen = (size_t)(eq - p), vlen = len - klen - 1;
            if (klen == 4 && memcmp(p, "komi", 4) == 0) {
                if (!go_parse_komi(eq + 1, vlen, &komi2))
                    return GTS_EPARSE;
            } else if (klen == 8 && memcmp(p, "maxmoves", 8) == 0) {
                if (!go_parse_uint(eq + 1, vlen, GO_MAX_CAP, &cap) || cap < 1)
                    return GTS_EPARSE;
            } else if (klen == 8 && memcmp(p, "patterns", 8) == 0) {
                if (vlen != 1 || (eq[1] != '0' && eq[1] != '1'))
                    return GTS_EPARSE;
                patterns = eq[1] == '1';
            } else if (klen == 5 && memcmp(p, "moves", 5) == 0) {
                moves = eq + 1;
                moves_len = vlen;
            } else {
                return GTS_EPARSE;
            }
        }
        p += len;
    }
    if (cap == 0)
        cap = GO_CAP_PER_POINT * size * size;
    go_state *s = go_alloc((int)size, komi2, patterns, cap);
    if (!s)
        return GTS_ENOMEM;
    for (size_t i = 0; i < moves_len;) {
        size_t len = 0;
        while (i + len < moves_len && moves[i + len] != ',')
            len++;
        gts_move m;
        if (!go_parse_vertex((int)size, moves + i, len, &m) || go_apply(s, m, NULL) != 0) {
            go_free(s, NULL);
            return GTS_EPARSE;
        }
        i += len + 1;
        if (i == moves_len && moves[moves_len - 1] == ',') { /* a trailing comma */
            go_free(s, NULL);
            return GTS_EPARSE;
        }
    }
    *state = s;
    return GTS_OK;
}

int gts_go_area(const void *state)
{
    const go_state *s = state;
    if (!s)
        return 0;
    return go_area(s) * 2 - s->komi2;
}

gts_status gts_go_board(const void *state, char *buf, size_t size)
{
    const go_state *s = state;
    if (!s || !buf)
        return GTS_EINVAL;
    size_t need = (size_t)(s->size * (s->size + 1)) + 1;
    if (size < need)
        return GTS_EINVAL;
    const go_pos *b = go_cur(s);
    char *o = buf;
    for (int y = s->size - 1; y >= 0; y--) {
        for (int x = 0; x < s->size; x++) {
            int c = b->pt[(y + 1) * s->w + x + 1].color;
            *o++ = c == GO_BLACK ? 'X' : c == GO_WHITE ? 'O' : '.';
        }
        *o++ = '\n';
    }
    *o = '\0';
    return GTS_OK;
}

int gts_go_komi(const void *state)
{
    const go_state *s = state;
    return s ? s->komi2 : 0;
}

int gts_go_to_move(const void *state)
{
    const go_state *s = state;
    if (!s)
        return GTS_EINVAL;
    return go_cur(s)->to_move == GO_BLACK ? 0 : 1;
}

int gts__go_turn(const void *state, int *plies)
{
    const go_state *s = state;
    *plies = (int)s->ply; /* passes and set-up skips included */
    return gts_go_to_move(state);
}

/* ---- position texts: why one was refused (gts_games_position_new) --------------
 *
 * When gts_go_new() refuses a text, the steps below explain why, in its
 * own order:
 *   1. each token alone (gts_go_new() of that one token, so that the rules
 *      of a size, a komi or a move cap stay the constructor's), a size
 *      given twice;
 *   2. the syntax of every move of the last moves= token (the one the
 *      constructor plays): parse_move() on the empty board, where every
 *      vertex of the board and pass are legal;
 *   3. the moves played one by one: the game is over (two passes, the move
 *      cap), or the play is illegal, and the rules above say why: the
 *      point is occupied, suicide, or positional superko.
 */

/* Room for a vertex text ("T19", "pass") and more: a longer one is none. */
enum { GO_VERTEX_TEXT = 8 };

/* gts_go_new() of the @p len bytes at @p t alone. */
static gts_status go_token_status(const char *t, size_t len)
{
    char *one = malloc(len + 1);
    if (!one)
        return GTS_ENOMEM;
    memcpy(one, t, len);
    one[len] = '\0';
    void *state = NULL;
    gts_status rc = gts_go_new(one, &state);
    free(one);
    if (state)
        go_free(state, NULL);
    return rc;
}

/* Why the play @p m (legal syntax, the game not over) is illegal in @p s. */
static const char *go_why_illegal(const go_state *s, gts_move m)
{
    const go_pos *b = go_cur(s);
    int p = go_index(s, m);
    uint64_t key;
    if (b->pt[p].color != GO_EMPTY)
        return "the point is occupied";
    if (!go_play_key(s, b, p, b->to_move, &key))
        return "suicide (the stone's string would have no liberty)";
    return "it repeats an earlier board (positional superko)";
}

/* Step 1: the tokens of @p text, each alone; the others than moves= go to
 * @p base (blank-separated), the last moves= token's value to *moves_at,
 * *moves_len (offset in @p text, length). GTS_OK, or a refusal. */
static gts_status go_explain_tokens(const char *text, char *base, size_t *moves_at,
                                    size_t *moves_len, bool *have_moves, char *why, size_t size)
{
    size_t len = strlen(text), base_len = 0;
    bool have_size = false;
    for (size_t i = 0; i < len;) {
        if (text[i] == ' ' || text[i] == '\t') {
            i++;
            continue;
        }
        size_t n = strcspn(text + i, " \t"), col = i + 1;
        const char *t = text + i, *eq = memchr(t, '=', n);
        size_t klen = eq ? (size_t)(eq - t) : n;
        bool digits = !eq && n > 0;
        for (size_t j = 0; digits && j < n; j++)
            digits = t[j] >= '0' && t[j] <= '9';
        i += n;
        if (eq && klen == 5 && memcmp(t, "moves", 5) == 0) {
            *have_moves = true;
            *moves_at = (size_t)(eq + 1 - text);
            *moves_len = n - 6;
            continue;
        }
        bool keyed = eq && ((klen == 4 && memcmp(t, "komi", 4) == 0) ||
                            (klen == 8 && memcmp(t, "maxmoves", 8) == 0) ||
                            (klen == 8 && memcmp(t, "patterns", 8) == 0));
        gts_status rc = digits || keyed ? go_token_status(t, n) : GTS_EPARSE;
        if (rc == GTS_ENOMEM)
            return rc;
        bool alone_ok = rc == GTS_OK;
        char *q = gts__games_escape(keyed ? eq + 1 : t, keyed ? n - klen - 1 : n);
        if (!q)
            return GTS_ENOMEM;
        rc = GTS_EPARSE;
        if (digits && have_size)
            gts__games_say(why, size, "board size '%s' at column %zu given twice", q, col);
        else if (digits && !alone_ok)
            gts__games_say(why, size, "bad board size '%s' at column %zu (expected 2..19)", q, col);
        else if (keyed && klen == 4 && !alone_ok)
            gts__games_say(
                why, size,
                "bad komi '%s' at column %zu (expected a multiple of 0.5 within -150..150)", q,
                col + 5);
        else if (keyed && t[0] == 'p' && !alone_ok)
            gts__games_say(why, size, "bad patterns '%s' at column %zu (expected 0 or 1)", q,
                           col + 9);
        else if (keyed && !alone_ok)
            gts__games_say(why, size, "bad maxmoves '%s' at column %zu (expected 1..100000)", q,
                           col + 9);
        else if (!digits && !keyed)
            gts__games_say(why, size,
                           "unknown token '%s' at column %zu (expected SIZE, komi=K, maxmoves=N, "
                           "patterns=0|1 or moves=V,V,...)",
                           q, col);
        else
            rc = GTS_OK;
        free(q);
        if (rc != GTS_OK)
            return rc;
        have_size |= digits;
        memcpy(base + base_len, t, n);
        base_len += n;
        base[base_len++] = ' ';
    }
    base[base_len] = '\0';
    return GTS_OK;
}

/* The @p k-th move of the moves= value @p mv (@p len bytes) at *i: its
 * text in @p tok (GO_VERTEX_TEXT bytes; cut if longer) and length in *n;
 * false after the last. */
static bool go_next_move(const char *mv, size_t len, size_t *i, char *tok, size_t *n)
{
    if (len == 0 || *i > len)
        return false;
    size_t k = 0;
    while (*i + k < len && mv[*i + k] != ',')
        k++;
    size_t keep = k < GO_VERTEX_TEXT ? k : GO_VERTEX_TEXT - 1;
    memcpy(tok, mv + *i, keep);
    tok[keep] = '\0';
    *n = k;
    *i += k + 1;
    return true;
}

/* Why gts_go_new() refused @p text (steps 1-3 above). */
static gts_status go_explain(const char *text, char *why, size_t size)
{
    size_t moves_at = 0, moves_len = 0;
    bool have_moves = false;
    char *base = malloc(strlen(text) + 2);
    if (!base)
        return GTS_ENOMEM;
    gts_status rc =
        go_explain_tokens(text, base, &moves_at, &moves_len, &have_moves, why, size);
    void *made = NULL;
    if (rc == GTS_OK) {
        rc = gts_go_new(base, &made);
        if (rc != GTS_OK)
            gts__games_say(why, size, "cannot build the position: %s", gts_strerror(rc));
    }
    free(base);
    if (rc != GTS_OK)
        return rc;
    go_state *s = made;
    const char *mv = text + moves_at;
    if (!have_moves)
        moves_len = 0;
    /* Step 2. The syntax of every move, on the empty board. */
    char tok[GO_VERTEX_TEXT];
    size_t i = 0, n;
    for (int k = 1; rc == GTS_OK && go_next_move(mv, moves_len, &i, tok, &n); k++) {
        gts_move m;
        if (n > 0 && n < GO_VERTEX_TEXT && go_parse_move(s, tok, &m, NULL) == 0)
            continue;
        size_t col = moves_at + (i - n - 1) + 1;
        rc = GTS_EPARSE;
        if (n == 0) {
            gts__games_say(
                why, size,
                "move %d: empty move at column %zu (expected a vertex such as D4, or pass)", k,
                col);
            continue;
        }
        char *q = gts__games_escape(mv + (i - n - 1), n);
        if (!q) {
            rc = GTS_ENOMEM;
            continue;
        }
        gts__games_say(why, size,
                       "move %d: bad vertex '%s' at column %zu (expected A1-%c%d%s, or pass)", k, q,
                       col, GO_COLUMNS[s->size - 1], s->size, s->size >= 9 ? ", no column I" : "");
        free(q);
    }
    /* Step 3. Play them. */
    gts_move prev[2] = { 0, 0 };
    i = 0;
    for (int k = 1; rc == GTS_OK && go_next_move(mv, moves_len, &i, tok, &n); k++) {
        gts_move m = GTS_GO_PASS; /* step 2 parsed every move */
        rc = GTS_EPARSE;
        if (go_over(s)) {
            if (k > 2 && prev[0] == GTS_GO_PASS && prev[1] == GTS_GO_PASS)
                gts__games_say(why, size,
                               "move %d (%s): the game is already over: two passes in a row", k,
                               tok);
            else
                gts__games_say(why, size,
                               "move %d (%s): the game is already over: it reached its move cap "
                               "(maxmoves=%d)",
                               k, tok, k - 1);
        } else if (go_parse_vertex(s->size, tok, n, &m) && !go_legal(s, m)) {
            gts__games_say(why, size, "move %d: %s is not legal here: %s", k, tok,
                           go_why_illegal(s, m));
        } else if (go_apply(s, m, NULL) != 0) {
            gts__games_say(why, size, "move %d: '%s' could not be played", k, tok);
        } else {
            prev[0] = prev[1];
            prev[1] = m;
            rc = GTS_OK;
        }
    }
    if (rc == GTS_OK) {
        gts__games_say(why, size, "position refused by the adapter");
        rc = GTS_EPARSE;
    }
    go_free(s, NULL);
    return rc;
}

gts_status gts__go_position_new(const char *text, void **state, char *why, size_t size)
{
    gts_status rc = gts_go_new(text, state);
    if (rc == GTS_EPARSE)
        return go_explain(text, why, size);
    if (rc != GTS_OK)
        gts__games_say(why, size, "cannot build the position: %s", gts_strerror(rc));
    return rc;
}
