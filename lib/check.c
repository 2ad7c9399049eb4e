/*
 * check.c - gts_game_check(): exercise a game adapter through its callbacks
 * and report the first broken promise of the gts_game contract.
 *
 * The checker only sees what the callbacks return, so a state is compared
 * by what it shows (an "observation": key, moves, value). Every generate()
 * writes into a buffer with a guard zone past its capacity, so a game that
 * writes too far is caught before it corrupts anything of the library's.
 */
#include <gts/gts.h>
#include <gts/check.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "alloc_internal.h"
#include "struct_internal.h"

#define GUARD 8                           /* sentinel moves past the capacity */
#define SENTINEL UINT64_C(0x5eb7ee1c0ffee5)
#define MAX_LEVELS (GTS_MAX_PLY + 16)
#define MOVES_PER_POSITION 64             /* moves whose apply/undo is checked */

typedef struct obs {
    uint64_t key;
    uint64_t digest; /* of the move list */
    int n;
    gts_score value;
} obs;

typedef struct chk {
    const gts_game *g;
    void *s;
    void *user;
    uint32_t cap;
    gts_check_options o;
    gts_check_report *r;
    gts_move *buf[MAX_LEVELS]; /* cap + GUARD moves each, on first use */
    int32_t *keys;             /* generate_keyed()'s keys, cap + GUARD */
    gts_move path[GTS_MAX_PLY + 16];
    int plen;
    bool done;                 /* a violation was recorded (or memory ran out) */
    bool nomem;
    uint64_t rng;
    gts_engine *engine[2];     /* 1 and 2 threads, for the algorithm check */
} chk;

/* ---- recording ----------------------------------------------------------- */

static bool check_playout_move(chk *k, int lvl, const obs *o);
static bool trusted_policy(const chk *k);

static bool violation(chk *k, gts_check_violation v, int32_t status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static bool violation(chk *k, gts_check_violation v, int32_t status, const char *fmt, ...)
{
    if (k->done)
        return false;
    k->done = true;
    k->r->violation = v;
    k->r->callback_status = status;
    int n = k->plen < GTS_MAX_PLY ? k->plen : GTS_MAX_PLY;
    memcpy(k->r->path, k->path, (size_t)n * sizeof *k->path);
    k->r->path_length = (uint32_t)n;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(k->r->message, sizeof k->r->message, fmt, ap);
    va_end(ap);
    return false;
}

/* Room for a move's text in a message. */
enum { MOVE_TEXT = 48 };

/* @m as the game writes it (format_move() at @state, the position it is
 * played from), or as hex when the game has no format_move() or it fails:
 * "apply(e2e4) failed", not "apply(0x31c) failed". The callback writes into
 * a larger scratch buffer, so a format_move() that ignores its size cannot
 * reach past it (check_moves_text() reports that one). */
static const char *move_text(chk *k, void *state, gts_move m, char *buf)
{
    if (k->g->format_move && state) {
        char t[2 * MOVE_TEXT];
        memset(t, 0, sizeof t);
        int len = k->g->format_move(state, m, t, MOVE_TEXT, k->user);
        if (len > 0 && len < MOVE_TEXT && t[len] == '\0' && strlen(t) == (size_t)len) {
            memcpy(buf, t, (size_t)len + 1);
            return buf;
        }
    }
    snprintf(buf, MOVE_TEXT, "%#llx", (unsigned long long)m);
    return buf;
}

static gts_move *level(chk *k, int lvl)
{
    if (lvl >= MAX_LEVELS) {
        violation(k, GTS_CHECK_CALLBACK_FAILED, 0, "the check went deeper than %d plies",
                  MAX_LEVELS);
        return NULL;
    }
    if (!k->buf[lvl]) {
        k->buf[lvl] = gts__malloc(NULL, ((size_t)k->cap + GUARD) * sizeof(gts_move));
        if (!k->buf[lvl]) {
            k->nomem = k->done = true;
            return NULL;
        }
    }
    return k->buf[lvl];
}

/* ---- the callbacks, checked ----------------------------------------------- */

/* The moves of @state at @lvl (generate, or generate_noisy), -1 after a
 * violation. Checks the count and the guard zone. */
static int gen(chk *k, void *state, int lvl, bool noisy)
{
    gts_move *m = level(k, lvl);
    if (!m)
        return -1;
    for (uint32_t i = k->cap; i < k->cap + GUARD; i++)
        m[i] = SENTINEL;
    const char *name = noisy ? "generate_noisy" : "generate";
    int n = noisy ? k->g->generate_noisy(state, m, k->cap, k->user)
                  : k->g->generate(state, m, k->cap, k->user);
    if (n < 0)
        return violation(k, GTS_CHECK_CALLBACK_FAILED, n, "%s() failed (%d)", name, n), -1;
    if ((uint32_t)n > k->cap)
        return violation(k, GTS_CHECK_GENERATE_OVERFLOW, n,
                         "%s() returned %d moves, more than max_moves (%u)", name, n, k->cap),
               -1;
    for (uint32_t i = k->cap; i < k->cap + GUARD; i++)
        if (m[i] != SENTINEL)
            return violation(k, GTS_CHECK_GENERATE_OVERFLOW, n,
                             "%s() wrote past its capacity of %u moves", name, k->cap),
                   -1;
    return n;
}

static uint64_t digest(const gts_move *m, int n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325) ^ (uint64_t)n;
    for (int i = 0; i < n; i++)
        h = (h ^ m[i]) * UINT64_C(0x100000001b3);
    return h;
}

static bool value_ok(chk *k, gts_score v)
{
    if (v == GTS_SCORE_INVALID)
        return violation(k, GTS_CHECK_CALLBACK_FAILED, -1, "evaluate() failed (GTS_SCORE_INVALID)");
    if (v < GTS_SCORE_LOSS || v > GTS_SCORE_WIN)
        return violation(k, GTS_CHECK_EVALUATE, v,
                         "evaluate() returned %d, outside [GTS_SCORE_LOSS, GTS_SCORE_WIN]",
                         (int)v);
    return true;
}

/* What @state shows, using the buffer of @lvl. */
static bool observe(chk *k, void *state, int lvl, obs *o)
{
    o->n = gen(k, state, lvl, false);
    if (o->n < 0)
        return false;
    o->digest = digest(k->buf[lvl], o->n);
    o->value = k->g->evaluate(state, k->user);
    if (!value_ok(k, o->value))
        return false;
    o->key = k->g->hash ? k->g->hash(state, k->user) : 0;
    return true;
}

static bool same(const obs *a, const obs *b)
{
    return a->n == b->n && a->digest == b->digest && a->value == b->value && a->key == b->key;
}

/* "key 0x.. -> 0x.., 5 moves -> 4, value 3 -> 3" for a message; without
 * the key part for a game without hash() (its keys are all 0). */
static const char *diff(const chk *k, char *buf, size_t size, const obs *a, const obs *b)
{
    char key[64] = "";
    if (k->g->hash)
        snprintf(key, sizeof key, "key %#llx -> %#llx, ", (unsigned long long)a->key,
                 (unsigned long long)b->key);
    snprintf(buf, size, "%s%d moves -> %d%s, value %d -> %d", key, a->n, b->n,
             a->n == b->n && a->digest != b->digest ? " (other moves)" : "", (int)a->value,
             (int)b->value);
    return buf;
}

static bool apply_move(chk *k, void *state, gts_move m)
{
    int rc = k->g->apply(state, m, k->user);
    char t[MOVE_TEXT];
    if (rc < 0) /* the state is unchanged: m is still a move of it */
        return violation(k, GTS_CHECK_CALLBACK_FAILED, rc,
                         "apply(%s) failed (%d) for a move generate() returned",
                         move_text(k, state, m, t), rc);
    return true;
}

static bool undo_move(chk *k, void *state, gts_move m)
{
    int rc = k->g->undo(state, m, k->user);
    if (rc < 0)
        return violation(k, GTS_CHECK_CALLBACK_FAILED, rc, "undo(%#llx) failed (%d)",
                         (unsigned long long)m, rc);
    return true;
}

static uint64_t rng_next(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* ---- one position ----------------------------------------------------------- */

/* Node-relative negamax of the caller's state to @depth (decided scores one
 * ply further from the end per level); false after a violation. */
static bool negamax(chk *k, int lvl, int depth, gts_score *out)
{
    if (depth == 0) {
        *out = k->g->evaluate(k->s, k->user);
        return value_ok(k, *out);
    }
    int n = gen(k, k->s, lvl, false);
    if (n < 0)
        return false;
    if (n == 0) {
        *out = k->g->evaluate(k->s, k->user);
        return value_ok(k, *out);
    }
    gts_score best = -GTS_SCORE_INF;
    for (int i = 0; i < n; i++) {
        gts_move m = k->buf[lvl][i];
        gts_score v;
        if (!apply_move(k, k->s, m))
            return false;
        k->path[k->plen++] = m;
        bool ok = negamax(k, lvl + 1, depth - 1, &v);
        k->plen--;
        if (!undo_move(k, k->s, m) || !ok)
            return false;
        v = -v;
        if (v >= GTS_SCORE_DECIDED)
            v--;
        else if (v <= -GTS_SCORE_DECIDED)
            v++;
        if (v > best)
            best = v;
    }
    *out = best;
    return true;
}

static bool check_bounds(chk *k, int lvl)
{
    gts_score lo = 0, hi = 0;
    int rc = k->g->bounds(k->s, &lo, &hi, k->user);
    if (rc < 0)
        return violation(k, GTS_CHECK_CALLBACK_FAILED, rc, "bounds() failed (%d)", rc);
    if (lo > hi || lo < GTS_SCORE_LOSS || hi > GTS_SCORE_WIN)
        return violation(k, GTS_CHECK_BOUNDS, 0,
                         "bounds() gave [%d, %d], not a range within [LOSS, WIN]", (int)lo,
                         (int)hi);
    for (int d = 1; d <= k->o.depth; d++) {
        gts_score v;
        if (!negamax(k, lvl, d, &v))
            return false;
        if (v < lo || v > hi)
            return violation(k, GTS_CHECK_BOUNDS, 0,
                             "bounds() gave [%d, %d] but the depth-%d negamax value is %d",
                             (int)lo, (int)hi, d, (int)v);
    }
    return true;
}

static bool check_moves_text(chk *k, gts_move m)
{
    char text[256];
    int len = k->g->format_move(k->s, m, text, sizeof text, k->user);
    if (len < 0)
        return violation(k, GTS_CHECK_CALLBACK_FAILED, len, "format_move(%#llx) failed (%d)",
                         (unsigned long long)m, len);
    text[sizeof text - 1] = '\0';
    gts_move back = GTS_MOVE_NONE;
    int rc = k->g->parse_move(k->s, text, &back, k->user);
    if (rc < 0 || back != m)
        return violation(k, GTS_CHECK_MOVE_TEXT, rc < 0 ? rc : 0,
                         "format_move(%#llx) wrote \"%s\", which parse_move() reads as %s%#llx",
                         (unsigned long long)m, text, rc < 0 ? "a failure, not " : "",
                         (unsigned long long)(rc < 0 ? m : back));
    return true;
}

/* The pass (null_apply/null_undo, since 0.3): a refusal leaves the state as
 * it was; a pass changes hash() (the side to move changed) and null_undo()
 * restores the state. */
static bool check_null(chk *k, int lvl, const obs *before)
{
    char d[160];
    obs now;
    int rc = k->g->null_apply(k->s, k->user);
    if (rc < 0)
        return violation(k, GTS_CHECK_CALLBACK_FAILED, rc, "null_apply() failed (%d)", rc);
    if (!observe(k, k->s, lvl, &now))
        return false;
    if (rc == 0) {
        if (!same(before, &now))
            return violation(k, GTS_CHECK_NOT_RESTORED, 0,
                             "null_apply() refused the pass (0) but changed the state: %s",
                             diff(k, d, sizeof d, before, &now));
        return true;
    }
    bool unchanged_key = k->g->hash && now.key == before->key;
    rc = k->g->null_undo(k->s, k->user);
    if (rc < 0)
        return violation(k, GTS_CHECK_CALLBACK_FAILED, rc, "null_undo() failed (%d)", rc);
    if (unchanged_key)
        return violation(k, GTS_CHECK_HASH, 0,
                         "hash() is %#llx before and after null_apply(): a pass changes the "
                         "side to move, so the key must differ",
                         (unsigned long long)before->key);
    if (!observe(k, k->s, lvl, &now))
        return false;
    if (!same(before, &now))
        return violation(k, GTS_CHECK_NOT_RESTORED, 0,
                         "null_apply() then null_undo() did not restore the state: %s",
                         diff(k, d, sizeof d, before, &now));
    return true;
}

static bool check_clone(chk *k, int lvl, const obs *before)
{
    char d[160];
    void *c = k->g->clone(k->s, k->user);
    if (!c)
        return violation(k, GTS_CHECK_CALLBACK_FAILED, -1, "clone() returned NULL");
    obs oc, now;
    bool ok = observe(k, c, lvl + 1, &oc);
    if (ok && !same(before, &oc))
        ok = violation(k, GTS_CHECK_CLONE, 0, "a clone differs from its original: %s",
                       diff(k, d, sizeof d, before, &oc));
    if (ok && oc.n > 0) {
        gts_move m = k->buf[lvl + 1][0];
        char t[MOVE_TEXT];
        move_text(k, k->s, m, t); /* before the original may change */
        ok = apply_move(k, c, m);
        if (ok) {
            ok = observe(k, k->s, lvl + 1, &now);
            if (ok && !same(before, &now))
                ok = violation(k, GTS_CHECK_CLONE, 0,
                               "playing %s on a clone changed the original: %s", t,
                               diff(k, d, sizeof d, before, &now));
            if (!undo_move(k, c, m))
                ok = false;
        }
    }
    k->g->free(c, k->user);
    return ok;
}

/* Every promise that concerns the position itself; @o receives what it
 * shows. */
static bool check_position(chk *k, int lvl, obs *o)
{
    char d[160];
    obs again;
    k->r->positions++;
    if (!observe(k, k->s, lvl, o) || !observe(k, k->s, lvl + 1, &again))
        return false;
    if (o->n != again.n || o->digest != again.digest)
        return violation(k, GTS_CHECK_GENERATE_UNSTABLE, 0,
                         "two generate() calls returned different moves (%d, then %d)", o->n,
                         again.n);
    if (o->value != again.value)
        return violation(k, GTS_CHECK_EVALUATE, 0, "evaluate() returned %d, then %d",
                         (int)o->value, (int)again.value);
    if (o->key != again.key)
        return violation(k, GTS_CHECK_HASH, 0, "hash() returned %#llx, then %#llx",
                         (unsigned long long)o->key, (unsigned long long)again.key);
    const gts_move *moves = k->buf[lvl];

    if (k->g->generate_keyed) {
        gts_move *m = level(k, lvl + 1);
        if (!m)
            return false;
        int n = k->g->generate_keyed(k->s, m, k->keys, k->cap, k->user);
        if (n < 0)
            return violation(k, GTS_CHECK_CALLBACK_FAILED, n, "generate_keyed() failed (%d)", n);
        if (n != o->n || digest(m, n) != o->digest)
            return violation(k, GTS_CHECK_KEYED_MISMATCH, 0,
                             "generate_keyed() returned %d moves, generate() %d%s", n, o->n,
                             n == o->n ? " (other moves or order)" : "");
    }
    if (k->g->generate_noisy) {
        int n = gen(k, k->s, lvl + 1, true);
        if (n < 0)
            return false;
        for (int i = 0; i < n; i++) {
            bool legal = false;
            for (int j = 0; j < o->n && !legal; j++)
                legal = k->buf[lvl + 1][i] == moves[j];
            char t[MOVE_TEXT];
            if (!legal)
                return violation(k, GTS_CHECK_NOISY_NOT_LEGAL, 0,
                                 "generate_noisy() returned %s, which generate() does not",
                                 move_text(k, k->s, k->buf[lvl + 1][i], t));
        }
    }
    if (k->g->bounds && o->n > 0 && !check_bounds(k, lvl + 1))
        return false;
    if (k->g->playout_move && (o->n > 0 || trusted_policy(k)) && !check_playout_move(k, lvl, o))
        return false;

    /* Every move (up to MOVES_PER_POSITION, spread over the list); what
     * each child shows, to compare children with equal keys. */
    obs kids[2 * MOVES_PER_POSITION + 2];
    gts_move kid_move[2 * MOVES_PER_POSITION + 2];
    int nkids = 0;
    int step = o->n > MOVES_PER_POSITION ? o->n / MOVES_PER_POSITION : 1;
    for (int i = 0; i < o->n; i += step) {
        gts_move m = moves[i];
        obs now;
        char t[MOVE_TEXT]; /* m's text, taken while k->s is o */
        move_text(k, k->s, m, t);
        if (k->g->move_score) {
            (void)k->g->move_score(k->s, m, k->user);
            if (!observe(k, k->s, lvl + 1, &now))
                return false;
            if (!same(o, &now))
                return violation(k, GTS_CHECK_NOT_RESTORED, 0,
                                 "move_score(%s) changed the state: %s", t,
                                 diff(k, d, sizeof d, o, &now));
        }
        if (k->g->extend) {
            int e = k->g->extend(k->s, m, k->user);
            if (e < 0)
                return violation(k, GTS_CHECK_CALLBACK_FAILED, e, "extend(%s) failed (%d)", t,
                                 e);
            if (!observe(k, k->s, lvl + 1, &now))
                return false;
            if (!same(o, &now))
                return violation(k, GTS_CHECK_NOT_RESTORED, 0,
                                 "extend(%s) changed the state: %s", t,
                                 diff(k, d, sizeof d, o, &now));
        }
        if (k->g->format_move && k->g->parse_move && !check_moves_text(k, m))
            return false;
        uint64_t after = k->g->hash && k->g->hash_after ? k->g->hash_after(k->s, m, k->user) : 0;
        if (k->g->hash_after && k->g->hash) {
            if (!observe(k, k->s, lvl + 1, &now))
                return false;
            if (!same(o, &now))
                return violation(k, GTS_CHECK_NOT_RESTORED, 0,
                                 "hash_after(%s) changed the state: %s", t,
                                 diff(k, d, sizeof d, o, &now));
        }
        if (!apply_move(k, k->s, m))
            return false;
        k->path[k->plen++] = m;
        bool ok = observe(k, k->s, lvl + 1, &now);
        if (ok && k->g->hash && k->g->hash_after && after != now.key) {
            k->plen--;
            (void)undo_move(k, k->s, m);
            return violation(k, GTS_CHECK_HASH_AFTER, 0,
                             "hash_after(%s) returned %#llx, hash() after the move %#llx", t,
                             (unsigned long long)after,
                             (unsigned long long)now.key);
        }
        k->plen--;
        if (!undo_move(k, k->s, m) || !ok)
            return false;
        kids[nkids] = now;
        kid_move[nkids++] = m;
        if (!observe(k, k->s, lvl + 1, &now))
            return false;
        if (!same(o, &now))
            return violation(k, GTS_CHECK_NOT_RESTORED, 0,
                             "apply(%s) then undo did not restore the state: %s", t,
                             diff(k, d, sizeof d, o, &now));
    }
    /* Two children with one key must look the same. */
    for (int i = 0; k->g->hash && i < nkids; i++)
        for (int j = i + 1; j < nkids; j++)
            if (kids[i].key == kids[j].key && !same(&kids[i], &kids[j])) {
                char ti[MOVE_TEXT], tj[MOVE_TEXT];
                return violation(k, GTS_CHECK_HASH, 0,
                                 "moves %s and %s lead to positions with the equal key "
                                 "%#llx that differ: %s",
                                 move_text(k, k->s, kid_move[i], ti),
                                 move_text(k, k->s, kid_move[j], tj),
                                 (unsigned long long)kids[i].key,
                                 diff(k, d, sizeof d, &kids[i], &kids[j]));
            }
    if (k->g->null_apply && k->g->null_undo && o->n > 0 && !check_null(k, lvl + 1, o))
        return false;
    if (k->g->clone && k->g->free && !check_clone(k, lvl, o))
        return false;
    return true;
}

/* ---- transpositions ---------------------------------------------------------- */

/* The keys of the children, folded: part of what a position shows. */
static bool child_keys(chk *k, int lvl, int n, uint64_t *out)
{
    uint64_t h = 0;
    for (int i = 0; i < n; i++) {
        gts_move m = k->buf[lvl][i];
        if (!apply_move(k, k->s, m))
            return false;
        h = (h ^ k->g->hash(k->s, k->user)) * UINT64_C(0x100000001b3) + (uint64_t)i;
        if (!undo_move(k, k->s, m))
            return false;
    }
    *out = h;
    return true;
}

static bool in_list(const gts_move *m, int n, gts_move x)
{
    for (int i = 0; i < n; i++)
        if (m[i] == x)
            return true;
    return false;
}

static bool trusted_policy(const chk *k)
{
    return k->g->playout_move && (k->g->traits & GTS_TRAIT_TRUSTED_PLAYOUT);
}

/* Move @m of the policy at a position (k->s) whose @n moves are @moves:
 * one of them, and none at a finished game. */
static bool policy_move_ok(chk *k, const gts_move *moves, int n, gts_move m)
{
    char t[MOVE_TEXT];
    if (n == 0)
        return violation(k, GTS_CHECK_PLAYOUT_MOVE, 0,
                         "playout_move() returned %s at a finished game (generate() "
                         "returns 0); with GTS_TRAIT_TRUSTED_PLAYOUT it must return 0 there",
                         move_text(k, k->s, m, t));
    if (!in_list(moves, n, m))
        return violation(k, GTS_CHECK_PLAYOUT_MOVE, 0,
                         "playout_move() returned %s, which generate() does not%s",
                         move_text(k, k->s, m, t),
                         trusted_policy(k) ? " (the game declares GTS_TRAIT_TRUSTED_PLAYOUT: "
                                             "gts_mcts() would play it unchecked)"
                                           : "");
    return true;
}

/* The playout policy (MCTS) at a position with moves (and, for a trusted
 * policy, at a finished game too), a few random draws: each move it
 * returns is one generate() returns, and the state is what it was.
 * Returning 0 (end the playout) is allowed, and required at a finished
 * game. */
static bool check_playout_move(chk *k, int lvl, const obs *o)
{
    static const int DRAWS = 4;
    char d[160];
    const gts_move *moves = k->buf[lvl];
    for (int t = 0; t < DRAWS; t++) {
        gts_move m = GTS_MOVE_NONE;
        int rc = k->g->playout_move(k->s, rng_next(&k->rng), &m, k->user);
        if (rc < 0)
            return violation(k, GTS_CHECK_CALLBACK_FAILED, rc, "playout_move() failed (%d)", rc);
        obs now;
        if (!observe(k, k->s, lvl + 1, &now))
            return false;
        if (!same(o, &now))
            return violation(k, GTS_CHECK_NOT_RESTORED, 0, "playout_move() changed the state: %s",
                             diff(k, d, sizeof d, o, &now));
        if (rc > 0 && !policy_move_ok(k, moves, o->n, m))
            return false;
    }
    return true;
}

/* Phase 1b (GTS_TRAIT_TRUSTED_PLAYOUT): from the end of a walk, the
 * policy's own moves one after the other, as gts_mcts() plays them
 * without checking, until the policy returns 0 or the path is
 * GTS_MAX_PLY plies long (the longest path a report holds). Each move
 * must be one of generate()'s, and the policy must return 0 at a finished
 * game: the positions a trusted playout reaches, where random walks
 * seldom go. The moves stay on the path (unwind() takes them back). */
static bool check_trusted_playout(chk *k, int lvl)
{
    while (k->plen < GTS_MAX_PLY) {
        int n = gen(k, k->s, lvl, false);
        if (n < 0)
            return false;
        gts_move m = GTS_MOVE_NONE;
        int rc = k->g->playout_move(k->s, rng_next(&k->rng), &m, k->user);
        if (rc < 0)
            return violation(k, GTS_CHECK_CALLBACK_FAILED, rc, "playout_move() failed (%d)", rc);
        if (rc == 0)
            return true;
        if (!policy_move_ok(k, k->buf[lvl], n, m) || !apply_move(k, k->s, m))
            return false;
        k->path[k->plen++] = m;
    }
    return true;
}

/* The last three moves of the path were a, b, c: play c, b, a from the same
 * position instead. Equal keys must mean positions that look the same. */
static bool check_transposition(chk *k, int lvl)
{
    char d[160];
    gts_move a = k->path[k->plen - 3], b = k->path[k->plen - 2], c = k->path[k->plen - 1];
    if (a == c)
        return true;
    obs here, there;
    uint64_t kids_here, kids_there;
    if (!observe(k, k->s, lvl, &here) || !child_keys(k, lvl, here.n, &kids_here))
        return false;
    /* Back to the position before a. */
    k->plen -= 3;
    char ta[MOVE_TEXT], tb[MOVE_TEXT], tc[MOVE_TEXT]; /* each at its position */
    bool ok = undo_move(k, k->s, c);
    if (ok && (move_text(k, k->s, c, tc), ok = undo_move(k, k->s, b)))
        move_text(k, k->s, b, tb);
    if (ok && (ok = undo_move(k, k->s, a)))
        move_text(k, k->s, a, ta);
    const gts_move order[3] = {c, b, a};
    int played = 0;
    bool legal = ok;
    for (int i = 0; i < 3 && legal; i++) {
        int n = gen(k, k->s, lvl + 1, false);
        legal = n >= 0 && in_list(k->buf[lvl + 1], n, order[i]);
        ok = n >= 0;
        if (legal && (ok = apply_move(k, k->s, order[i])))
            k->path[k->plen + played++] = order[i];
        legal = legal && ok;
    }
    if (legal) {
        k->plen += 3;
        ok = observe(k, k->s, lvl + 1, &there) && child_keys(k, lvl + 1, there.n, &kids_there);
        if (ok && there.key == here.key && (!same(&here, &there) || kids_here != kids_there))
            ok = violation(k, GTS_CHECK_HASH, 0,
                           "equal keys %#llx for positions that differ (reached by %s, "
                           "%s, %s and by the reverse order): %s%s",
                           (unsigned long long)here.key, ta, tb, tc,
                           diff(k, d, sizeof d, &here, &there),
                           same(&here, &there) ? " (their children's keys differ)" : "");
        k->plen -= 3;
    }
    /* Undo what was played, then replay a, b, c. */
    for (int i = played - 1; i >= 0; i--)
        if (!undo_move(k, k->s, order[i]))
            return false;
    if (!ok && k->done)
        return false;
    const gts_move again[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        if (!apply_move(k, k->s, again[i]))
            return false;
        k->path[k->plen++] = again[i];
    }
    return ok;
}

/* ---- exact algorithms against minimax ------------------------------------------ */

static bool search(chk *k, gts_engine *e, gts_algorithm alg, gts_score *score)
{
    gts_limits l = {.struct_size = sizeof l, .depth = k->o.depth};
    gts_result r = {.struct_size = sizeof r};
    gts_status rc = gts_engine_clear(e);
    if (rc == GTS_OK)
        rc = gts_search(e, alg, k->g, k->s, &l, &r);
    if (rc == GTS_ENOMEM) {
        k->nomem = k->done = true;
        return false;
    }
    if (rc != GTS_OK)
        return violation(k, rc == GTS_ECALLBACK ? GTS_CHECK_CALLBACK_FAILED : GTS_CHECK_ALGORITHM,
                         r.callback_status, "%s at depth %d failed: %s",
                         gts_algorithm_name(alg), k->o.depth, gts_status_name(rc));
    *score = r.score;
    return true;
}

static bool check_algorithms(chk *k)
{
    gts_score want;
    if (!search(k, k->engine[0], GTS_ALG_MINIMAX, &want))
        return false;
    gts_algorithm algs[64];
    int n = gts_algorithm_list(algs, 64);
    for (int i = 0; i < n && i < 64; i++) {
        if (algs[i] == GTS_ALG_MINIMAX || !gts_algorithm_is_exact(algs[i]))
            continue;
        for (int t = 0; t < 2; t++) {
            if (t == 1 && !(gts_algorithm_is_parallel(algs[i]) && k->engine[1]))
                continue;
            gts_score got;
            if (!search(k, k->engine[t], algs[i], &got))
                return false;
            if (got != want) {
                k->r->algorithm = algs[i];
                return violation(k, GTS_CHECK_ALGORITHM, 0,
                                 "%s at %d thread%s returned %d at depth %d, minimax %d%s",
                                 gts_algorithm_name(algs[i]), t + 1, t ? "s" : "", (int)got,
                                 k->o.depth, (int)want,
                                 k->g->hash ? " (with the transposition table: check hash())"
                                            : "");
            }
        }
    }
    return true;
}

/* ---- the walks ------------------------------------------------------------------- */

/* Undo the path back to the caller's state (unless undo itself is what
 * broke). */
static void unwind(chk *k)
{
    while (k->plen > 0) {
        gts_move m = k->path[k->plen - 1];
        int rc = k->g->undo(k->s, m, k->user);
        if (rc < 0) {
            violation(k, GTS_CHECK_CALLBACK_FAILED, rc, "undo(%#llx) failed (%d)",
                      (unsigned long long)m, rc);
            return;
        }
        k->plen--;
    }
}

/* Phase 1: a random walk checking every position it reaches. */
static void walk(chk *k)
{
    uint32_t len = 0;
    while (!k->done) {
        obs o;
        if (!check_position(k, (int)len, &o))
            break;
        if (len >= 3 && k->g->hash && !check_transposition(k, (int)len))
            break;
        if (o.n == 0 || len >= k->o.walk_length)
            break;
        /* check_position left this position's moves in buf[len]; the
         * transposition check may have used buf[len + 1] only. */
        gts_move m = k->buf[len][rng_next(&k->rng) % (uint64_t)o.n];
        if (!apply_move(k, k->s, m))
            break;
        k->path[k->plen++] = m;
        len++;
    }
    if (!k->done && trusted_policy(k))
        check_trusted_playout(k, (int)len + 1);
    unwind(k);
}

/* Phase 2: every exact algorithm against minimax after @plies random moves
 * (the adapter passed phase 1, so a disagreement is the search's view of a
 * problem the structural checks cannot see, such as keys shared by
 * positions that differ). */
static void compare_at(chk *k, uint32_t plies)
{
    for (uint32_t i = 0; i < plies && !k->done; i++) {
        int n = gen(k, k->s, 0, false);
        if (n <= 0)
            break;
        gts_move m = k->buf[0][rng_next(&k->rng) % (uint64_t)n];
        if (!apply_move(k, k->s, m))
            break;
        k->path[k->plen++] = m;
    }
    if (!k->done)
        check_algorithms(k);
    unwind(k);
}

/* ---- entry point ------------------------------------------------------------------ */

static const char *const NAMES[] = {
    "OK", "CALLBACK_FAILED", "GENERATE_OVERFLOW", "GENERATE_UNSTABLE", "KEYED_MISMATCH",
    "NOISY_NOT_LEGAL", "EVALUATE", "NOT_RESTORED", "HASH", "CLONE", "BOUNDS", "MOVE_TEXT",
    "ALGORITHM",
    "HASH_AFTER",
    "PLAYOUT_MOVE",
};

const char *gts_check_violation_name(int violation)
{
    if (violation < 0 || (size_t)violation >= sizeof NAMES / sizeof NAMES[0])
        return NULL;
    return NAMES[violation];
}

static gts_status read_options(const gts_check_options *in, gts_check_options *o,
                               const char **why)
{
    memset(o, 0, sizeof *o);
    if (in) {
        gts_status rc = gts__struct_in(gts__desc_check_options(), o, in, why);
        if (rc != GTS_OK)
            return rc;
    }
    if (o->walks == 0)
        o->walks = 16;
    if (o->walk_length == 0)
        o->walk_length = 24;
    if (o->depth == 0)
        o->depth = 3;
    if (o->algorithm_positions == 0)
        o->algorithm_positions = 4;
    _Static_assert(GTS_MAX_PLY - 8 == 120, "the message below");
    if (o->walk_length > GTS_MAX_PLY - 8) {
        *why = "gts_check_options: walk_length must be 0..120 (0: 24)";
        return GTS_ERANGE;
    }
    if (o->depth < 1 || o->depth > 8) {
        *why = "gts_check_options: depth must be 0..8 (0: 3)";
        return GTS_ERANGE;
    }
    return GTS_OK;
}

static gts_status new_engine(gts_engine **e, int threads)
{
    gts_status rc = gts_engine_new(e);
    if (rc == GTS_OK)
        rc = gts_engine_set(*e, GTS_OPT_TT_MB, 1);
    if (rc == GTS_OK)
        rc = gts_engine_set(*e, GTS_OPT_THREADS, threads);
    return rc;
}

gts_status gts_game_check(const gts_game *caller_game, void *state,
                          const gts_check_options *options, gts_check_report *caller_report)
{
    if (!caller_game || !state || !caller_report)
        return GTS_EINVAL;
    size_t report_size;
    gts_game game;
    gts_check_report report;
    chk *k = NULL;
    memset(&game, 0, sizeof game);
    memset(&report, 0, sizeof report);
    report.struct_size = sizeof report;
    const char *why = NULL;
    gts_status rc = gts__struct_check(gts__desc_check_report(), caller_report, &report_size,
                                      NULL);
    if (rc != GTS_OK)
        return rc;
    rc = gts__struct_in(gts__desc_game(), &game, caller_game, &why);
    if (rc != GTS_OK) {
        /* The report is good: its message names the struct. */
        snprintf(report.message, sizeof report.message, "%s", why);
        gts__struct_out(caller_report, &report, report_size);
        return rc;
    }
    if (!game.generate || !game.apply || !game.undo || !game.evaluate)
        return GTS_EINVAL;
    if (game.max_moves == 0 || game.max_moves > 65535)
        return GTS_ERANGE;

    k = gts__calloc(NULL, 1, sizeof *k);
    if (!k)
        return GTS_ENOMEM;
    rc = read_options(options, &k->o, &why);
    if (rc != GTS_OK && why) {
        snprintf(report.message, sizeof report.message, "%s", why);
        gts__struct_out(caller_report, &report, report_size);
    }
    if (rc != GTS_OK)
        goto out;
    k->g = &game;
    k->s = state;
    k->user = game.user;
    k->cap = game.max_moves;
    k->r = &report;
    k->rng = k->o.seed;
    k->keys = gts__malloc(NULL, ((size_t)k->cap + GUARD) * sizeof *k->keys);
    if (!k->keys) {
        rc = GTS_ENOMEM;
        goto out;
    }
    if (k->o.algorithm_positions > 0) {
        rc = new_engine(&k->engine[0], 1);
        if (rc == GTS_OK && game.clone && game.free)
            rc = new_engine(&k->engine[1], 2);
        if (rc != GTS_OK)
            goto out;
    }

    /* The walks, then the algorithms at the root and halfway along
     * algorithm_positions - 1 more random walks. */
    for (uint32_t w = 0; w < k->o.walks && !k->done; w++)
        walk(k);
    for (int32_t i = 0; i < k->o.algorithm_positions && !k->done; i++)
        compare_at(k, i == 0 ? 0 : k->o.walk_length / 2);
    rc = k->nomem ? GTS_ENOMEM : GTS_OK;

out:
    if (k) {
        for (int i = 0; i < MAX_LEVELS; i++)
            gts__free(NULL, k->buf[i], ((size_t)k->cap + GUARD) * sizeof(gts_move));
        gts__free(NULL, k->keys, ((size_t)k->cap + GUARD) * sizeof *k->keys);
        gts_engine_free(k->engine[0]);
        gts_engine_free(k->engine[1]);
        gts__free(NULL, k, sizeof *k);
    }
    if (rc == GTS_OK)
        gts__struct_out(caller_report, &report, report_size);
    return rc;
}
