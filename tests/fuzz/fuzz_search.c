/*
 * fuzz_search.c - libFuzzer harness driving libgts's public API.
 *
 * What. The input bytes decode into (1) a random game tree of fuzzed shape,
 * defined here, and (2) a short script of API calls on one fresh engine:
 * option sets (any id, any value), clears, read-only queries, and searches
 * with fuzzed algorithm (any id), threads, limits, window, guess, stop
 * points, progress callbacks and injected callback failures; ProbCut
 * parameters and calibration.
 *
 * The tree. A node is a 64-bit key; everything about it (number of moves,
 * value, noisy moves, extensions, ordering hints) is a function of the key,
 * a per-input table of bytes and the tree parameters. A state is the path
 * of move indices from the root (with the keys along it), so apply/undo are
 * trivial and clone is a copy. Hash modes: none, one key per path, a
 * lattice of keys per level (real transpositions: equal keys have equal
 * subtrees and are reached at equal plies), or colliding hashes (a broken
 * adapter, which must still not crash the library). Bounds: none, the whole
 * score range (sound: results stay exact), or ranges drawn from the key
 * that need not hold (a broken contract: every check but exactness).
 *
 * Checks (__builtin_trap on violation):
 *  - the engine's memory comes from a counting gts_allocator; one input in
 *    eight fails its k-th allocation (k from the seed): every call then
 *    gives GTS_ENOMEM or its normal result, and after gts_engine_free()
 *    nothing is left allocated (for every input);
 *  - every status is a defined gts_status, and the error statuses match
 *    what the harness did (bad arguments, bad scores, too many moves,
 *    failed callbacks), and such causes never give GTS_OK;
 *  - the caller's state is byte for byte unchanged after every call;
 *  - undo always takes back the last applied move, apply only plays legal
 *    moves, the PV is a legal line, per-thread node counts add up;
 *  - a single-threaded search repeated on a cleared engine gives the same
 *    result and statistics;
 *  - an exact algorithm on a well-formed tree (no selective option, fresh
 *    table) returns the value of a naive negamax written here at the
 *    reported depth, which is the requested depth when no stop or limit
 *    intervened, and its best move has that value; with a root window, a
 *    score flagged as a lower (upper) bound is one of that value. Results
 *    of time-limited searches are never compared.
 *
 * Cost. The whole tree (every path to the level cap) is bounded by
 * TREE_LIMIT nodes, so every search, at every depth, is cheap.
 */
#include <gts/gts.h>

#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond))                                                                       \
            __builtin_trap();                                                              \
    } while (0)

enum {
    MAX_LEVEL = 10,     /* deepest level of a tree (the level cap) */
    MAX_BRANCH = 6,     /* most moves of a node */
    TABLE_MAX = 32,     /* shape bytes taken from the input */
    MAX_OPS = 6,        /* API calls per input */
    THREAD_SLOTS = 8,   /* thread_nodes array size (guard beyond capacity) */
    NAME_MAX_LEN = 24
};

/* ---- the engine's allocator: counts, and can fail the k-th call ---------- */

static struct {
    long calls;   /* allocate() calls of this input */
    long fail_at; /* 1-based call to fail; 0 = never */
    long live;    /* blocks allocated, not released */
} g_mem;

static void *mem_allocate(size_t size, void *user)
{
    (void)user;
    CHECK(size > 0);
    long n = __atomic_add_fetch(&g_mem.calls, 1, __ATOMIC_RELAXED);
    if (n == g_mem.fail_at)
        return NULL;
    void *p = malloc(size);
    if (p)
        __atomic_add_fetch(&g_mem.live, 1, __ATOMIC_RELAXED);
    return p;
}

static void mem_release(void *p, size_t size, void *user)
{
    (void)size;
    (void)user;
    CHECK(p != NULL);
    __atomic_sub_fetch(&g_mem.live, 1, __ATOMIC_RELAXED);
    free(p);
}

static const gts_allocator g_allocator = {sizeof(gts_allocator), mem_allocate, mem_release, NULL};

/* Whether this input injects an allocation failure (then GTS_ENOMEM is a
 * possible outcome of any call that allocates). */
static bool mem_injecting(void) { return g_mem.fail_at != 0; }

/* Whole-tree size bound (paths up to the level cap), per input. */
static const int TREE_LIMIT = 6000;
/* Trees at most this big may be searched to GTS_MAX_DEPTH (depth 0, NULL limits). */
static const int FULL_DEPTH_LIMIT = 300;

/* Hash modes */
enum { HASH_NONE, HASH_PATH, HASH_LATTICE, HASH_COLLIDE };

/* Callback failure injection kinds */
enum { FAIL_NONE, FAIL_GENERATE, FAIL_APPLY, FAIL_EVALUATE, FAIL_NOISY, FAIL_EXTEND, FAIL_CLONE,
       FAIL_KINDS };

static const gts_score EXTREMES[] = {
    GTS_SCORE_WIN, GTS_SCORE_LOSS, GTS_SCORE_WIN - 1, GTS_SCORE_LOSS + 1, GTS_SCORE_WIN - 3,
    GTS_SCORE_LOSS + 5, GTS_SCORE_DECIDED, -GTS_SCORE_DECIDED, GTS_SCORE_DECIDED - 1,
    -(GTS_SCORE_DECIDED - 1), 0, GTS_SCORE_WIN + 1, GTS_SCORE_LOSS - 1, GTS_SCORE_INF,
    -GTS_SCORE_INF, GTS_SCORE_INVALID, INT32_MAX,
};
#define NEXTREMES ((int)(sizeof EXTREMES / sizeof EXTREMES[0]))

static const int32_t BAD_DEPTHS[] = {-1, GTS_MAX_DEPTH + 1, INT32_MAX, INT32_MIN};
static const int32_t BAD_PC_DEPTHS[] = {-1, GTS_MAX_DEPTH, GTS_MAX_DEPTH + 1, INT32_MIN};

static const gts_score SPANS[] = {0, 1, 3, 10, 1000, GTS_SCORE_DECIDED - 1};

/* ---- the tree ---------------------------------------------------------- */

typedef struct tree {
    uint64_t seed;
    int max_level;
    int max_branch;
    int hash_mode;
    bool terminal_root;      /* the root may have no move */
    bool extremes_terminal;  /* extreme values only at terminal nodes */
    int extreme_rate;        /* of 256 */
    int noisy_rate;          /* of 256; 0 = no generate_noisy */
    int ext_rate;            /* of 256; 0 = no extend */
    bool hints;              /* move_score */
    int bounds_mode;         /* BOUNDS_*: the bounds callback */
    uint32_t lattice;        /* keys per level in HASH_LATTICE */
    uint64_t collide_mask;
    gts_score span;
    uint8_t table[TABLE_MAX];
    int table_len;
    /* found by walking the whole tree */
    int size;
    int widest;              /* most moves of a node */
    bool bad_score;          /* a value outside [LOSS, WIN] or INVALID */
    bool interior_decided;   /* a decided value at a node with moves */
} tree;

typedef struct node_info {
    int n;
    gts_score value;
} node_info;

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t mix2(uint64_t a, uint64_t b) { return mix(a ^ mix(b)); }

static node_info node_of(const tree *t, uint64_t key, int level)
{
    uint64_t h = mix2(key, t->seed);
    uint64_t h2 = mix(h);
    uint8_t b = t->table_len ? t->table[(h >> 32) % (uint64_t)t->table_len] : (uint8_t)h;
    node_info info;
    info.n = level >= t->max_level ? 0 : b % (MAX_BRANCH + 1);
    if (info.n > t->max_branch)
        info.n = t->max_branch;
    if (level == 0 && info.n == 0 && !t->terminal_root)
        info.n = 1;
    int64_t span = t->span;
    info.value = (gts_score)((int64_t)(h2 % (uint64_t)(2 * span + 1)) - span);
    if ((int)((h2 >> 32) & 0xff) < t->extreme_rate && (info.n == 0 || !t->extremes_terminal))
        info.value = EXTREMES[(h2 >> 40) % NEXTREMES];
    return info;
}

static uint64_t child_key(const tree *t, uint64_t key, int level, int j)
{
    uint64_t c = mix2(key, (uint64_t)j + 1);
    if (t->hash_mode == HASH_LATTICE)
        c = mix2(0x1a77ull + (uint64_t)level + 1, c % t->lattice);
    return c;
}

static bool is_noisy(const tree *t, uint64_t key, int j)
{
    return (int)(mix2(key ^ 0x6e6f69ull, (uint64_t)j) & 0xff) < t->noisy_rate;
}

static int extension_of(const tree *t, uint64_t key, int j)
{
    uint64_t h = mix2(key ^ 0x657874ull, (uint64_t)j);
    if ((int)(h & 0xff) >= t->ext_rate)
        return 0;
    return (h >> 8) % 4 == 0 ? 2 : 1;
}

static bool score_ok(gts_score s) { return s >= GTS_SCORE_LOSS && s <= GTS_SCORE_WIN; }

static bool decided(gts_score s) { return gts_score_is_win(s) || gts_score_is_loss(s); }

/* Walk every path; false when the tree has more than TREE_LIMIT nodes. */
static bool walk(tree *t, uint64_t key, int level)
{
    if (++t->size > TREE_LIMIT)
        return false;
    node_info info = node_of(t, key, level);
    if (!score_ok(info.value))
        t->bad_score = true;
    else if (info.n > 0 && decided(info.value))
        t->interior_decided = true;
    if (info.n > t->widest)
        t->widest = info.n;
    for (int j = 0; j < info.n; j++)
        if (!walk(t, child_key(t, key, level, j), level + 1))
            return false;
    return true;
}

/* ---- the reference: naive negamax --------------------------------------- */

static gts_score adjust(gts_score s, int ply)
{
    if (!decided(s))
        return s;
    return s > 0 ? s - ply : s + ply;
}

static gts_score ref_quiescence(const tree *t, uint64_t key, int ply)
{
    node_info info = node_of(t, key, ply);
    gts_score best = adjust(info.value, ply);
    for (int j = 0; j < info.n; j++) {
        if (!is_noisy(t, key, j))
            continue;
        gts_score s = -ref_quiescence(t, child_key(t, key, ply, j), ply + 1);
        if (s > best)
            best = s;
    }
    return best;
}

static gts_score ref_negamax(const tree *t, uint64_t key, int depth, int ply, bool qs)
{
    node_info info = node_of(t, key, ply);
    if (depth <= 0)
        return qs ? ref_quiescence(t, key, ply) : adjust(info.value, ply);
    if (info.n == 0)
        return adjust(info.value, ply);
    gts_score best = -GTS_SCORE_INF;
    for (int j = 0; j < info.n; j++) {
        int ext = t->ext_rate ? extension_of(t, key, j) : 0;
        gts_score s = -ref_negamax(t, child_key(t, key, ply, j), depth - 1 + ext, ply + 1, qs);
        if (s > best)
            best = s;
    }
    return best;
}

/* ---- the game ------------------------------------------------------------ */

typedef struct fstate {
    uint32_t level;
    uint8_t path[MAX_LEVEL];
    uint64_t key[MAX_LEVEL + 1];
} fstate;

/* Per-search record of what the callbacks did (callbacks may run on
 * several threads: every field is accessed atomically). */
typedef struct events {
    int fail_kind;
    uint32_t fail_at;        /* fail the fail_at-th call of fail_kind (1-based) */
    uint32_t stop_at;        /* gts_engine_stop on the stop_at-th apply/evaluate */
    uint32_t fail_calls, stop_calls;
    int failed;              /* injected failure fired */
    int callback_code;       /* its code */
    int stopped;             /* gts_engine_stop called from a callback */
    int bad_score;           /* evaluate returned a value outside [LOSS, WIN] */
    int invalid;             /* evaluate returned GTS_SCORE_INVALID */
    int too_many;            /* generate returned more than capacity */
    int illegal;             /* apply refused a move (colliding hashes only) */
} events;

static tree g_tree;
static events g_ev;
static gts_engine *g_engine;

static uint32_t bump(uint32_t *counter) { return __atomic_add_fetch(counter, 1, __ATOMIC_RELAXED); }
static void mark(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELAXED); }
static int seen(int *flag) { return __atomic_load_n(flag, __ATOMIC_RELAXED); }

/* True when this call of @kind is the one to fail. */
static bool inject(int kind)
{
    if (g_ev.fail_kind != kind || bump(&g_ev.fail_calls) != g_ev.fail_at)
        return false;
    __atomic_store_n(&g_ev.callback_code, -(int)(g_ev.fail_at % 50) - 1, __ATOMIC_RELAXED);
    mark(&g_ev.failed);
    return true;
}

static int injected_code(void) { return __atomic_load_n(&g_ev.callback_code, __ATOMIC_RELAXED); }

static void count_stop(void)
{
    if (g_ev.stop_at && bump(&g_ev.stop_calls) == g_ev.stop_at) {
        mark(&g_ev.stopped);
        gts_engine_stop(g_engine);
    }
}

static int write_moves(const tree *t, fstate *s, bool noisy, gts_move *moves, uint32_t cap)
{
    CHECK(s->level <= MAX_LEVEL);
    uint64_t key = s->key[s->level];
    node_info info = node_of(t, key, (int)s->level);
    int n = 0;
    for (int j = 0; j < info.n; j++) {
        if (noisy && !is_noisy(t, key, j))
            continue;
        if ((uint32_t)n < cap)
            moves[n] = (gts_move)j;
        n++;
    }
    if ((uint32_t)n > cap)
        mark(&g_ev.too_many);
    return n;
}

static int g_generate(void *state, gts_move *moves, uint32_t capacity, void *user)
{
    if (inject(FAIL_GENERATE))
        return injected_code();
    return write_moves(user, state, false, moves, capacity);
}

static int g_generate_noisy(void *state, gts_move *moves, uint32_t capacity, void *user)
{
    if (inject(FAIL_NOISY))
        return injected_code();
    return write_moves(user, state, true, moves, capacity);
}

static int g_apply(void *state, gts_move move, void *user)
{
    const tree *t = user;
    fstate *s = state;
    count_stop();
    if (inject(FAIL_APPLY))
        return injected_code();
    CHECK(s->level <= MAX_LEVEL);
    node_info info = node_of(t, s->key[s->level], (int)s->level);
    if (move >= (gts_move)info.n) {
        /* Only a broken hash (a TT move of another position) may explain it. */
        CHECK(t->hash_mode == HASH_COLLIDE);
        mark(&g_ev.illegal);
        return -100;
    }
    CHECK(s->level < MAX_LEVEL);
    s->path[s->level] = (uint8_t)move;
    s->key[s->level + 1] = child_key(t, s->key[s->level], (int)s->level, (int)move);
    s->level++;
    return 0;
}

static int g_undo(void *state, gts_move move, void *user)
{
    fstate *s = state;
    CHECK(s->level > 0 && s->level <= MAX_LEVEL);
    CHECK(move == s->path[s->level - 1]);
    s->level--;
    s->path[s->level] = 0;
    s->key[s->level + 1] = 0;
    return 0;
}

static gts_score g_evaluate(void *state, void *user)
{
    const tree *t = user;
    fstate *s = state;
    count_stop();
    if (inject(FAIL_EVALUATE))
        return GTS_SCORE_INVALID;
    CHECK(s->level <= MAX_LEVEL);
    gts_score v = node_of(t, s->key[s->level], (int)s->level).value;
    if (v == GTS_SCORE_INVALID)
        mark(&g_ev.invalid);
    else if (!score_ok(v))
        mark(&g_ev.bad_score);
    return v;
}

static uint64_t g_hash(void *state, void *user)
{
    const tree *t = user;
    const fstate *s = state;
    uint64_t h = mix(s->key[s->level] ^ 0x68617368ull);
    return t->hash_mode == HASH_COLLIDE ? h & t->collide_mask : h;
}

static void *g_clone(void *state, void *user)
{
    if (inject(FAIL_CLONE))
        return NULL;
    fstate *copy = malloc(sizeof *copy);
    if (copy)
        memcpy(copy, state, sizeof *copy);
    return copy;
}

static void g_free(void *state, void *user) { free(state); }

static int g_extend(void *state, gts_move move, void *user)
{
    const tree *t = user;
    const fstate *s = state;
    if (inject(FAIL_EXTEND))
        return injected_code();
    return extension_of(t, s->key[s->level], (int)move);
}

/* bounds(): none; the whole score range (sound); or a range drawn from
 * the key that need not hold (the contract broken: no crash, no hang, a
 * valid status and the state restored, but no exactness). */
enum { BOUNDS_NONE, BOUNDS_WIDE, BOUNDS_HOSTILE, BOUNDS_NONE2 };

static int g_bounds(void *state, gts_score *lo, gts_score *hi, void *user)
{
    const tree *t = user;
    const fstate *s = state;
    if (t->bounds_mode == BOUNDS_WIDE) {
        *lo = GTS_SCORE_LOSS;
        *hi = GTS_SCORE_WIN;
        return 0;
    }
    uint64_t h = mix2(s->key[s->level] ^ 0x626e64ull, s->level);
    gts_score a = (gts_score)(h % (2u * GTS_SCORE_WIN + 1)) - GTS_SCORE_WIN;
    gts_score b = (h >> 40) % 4 == 0 ? a : (gts_score)((h >> 20) % (2u * GTS_SCORE_WIN + 1)) - GTS_SCORE_WIN;
    *lo = a < b ? a : b;
    *hi = a < b ? b : a;
    return 0;
}

static int32_t g_move_score(void *state, gts_move move, void *user)
{
    const fstate *s = state;
    uint64_t h = mix2(s->key[s->level] ^ 0x6f7264ull, move);
    switch (h % 16) {
    case 0: return INT32_MAX;
    case 1: return INT32_MIN;
    default: return (int32_t)(h >> 40) - (1 << 23);
    }
}

/* ---- input reader --------------------------------------------------------- */

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint8_t u8(reader *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

static uint16_t u16(reader *r) { return (uint16_t)(u8(r) | (uint16_t)u8(r) << 8); }

static uint32_t u32(reader *r) { return (uint32_t)u16(r) | (uint32_t)u16(r) << 16; }

/* ---- decoding the tree ------------------------------------------------------ */

static void read_tree(reader *r, tree *t)
{
    memset(t, 0, sizeof *t);
    uint8_t f = u8(r);
    t->hash_mode = f & 3;
    t->terminal_root = (f >> 2) & 1;
    t->extremes_terminal = (f >> 3) & 1;
    t->hints = (f >> 4) & 1;
    t->bounds_mode = (f >> 5) & 3;
    t->seed = u32(r);
    t->max_level = 1 + u8(r) % MAX_LEVEL;
    t->max_branch = 1 + u8(r) % MAX_BRANCH;
    t->span = SPANS[u8(r) % (sizeof SPANS / sizeof SPANS[0])];
    uint8_t e = u8(r);
    t->extreme_rate = e < 128 ? 0 : (e - 128) * 2;
    uint8_t q = u8(r);
    t->noisy_rate = q < 128 ? 0 : q - 127;
    uint8_t x = u8(r);
    t->ext_rate = x < 192 ? 0 : x - 191;
    t->lattice = 1 + u8(r) % 16u;
    t->collide_mask = u8(r) % 16u;
    t->table_len = u8(r) % (TABLE_MAX + 1);
    for (int i = 0; i < t->table_len; i++)
        t->table[i] = u8(r);
    /* Shrink the level cap until the whole tree fits. */
    for (;;) {
        t->size = t->widest = 0;
        t->bad_score = t->interior_decided = false;
        uint64_t root = mix(t->seed);
        if (walk(t, root, 0))
            break;
        t->max_level--;
    }
}

/* ---- engine operations --------------------------------------------------- */

typedef struct session {
    reader *r;
    gts_game game;
    fstate *state;
    fstate snapshot;
    bool fresh;        /* nothing searched since the last clear */
    int64_t threads;   /* GTS_OPT_THREADS as set */
    int64_t nbest;
    int64_t quiescence;
} session;

static void check_status(int rc) { CHECK(gts_status_name(rc) != NULL); }

static void check_state(const session *ss)
{
    CHECK(memcmp(ss->state, &ss->snapshot, sizeof ss->snapshot) == 0);
}

static void op_set(session *ss)
{
    reader *r = ss->r;
    gts_option opts[64];
    int nopt = gts_option_list(opts, 64);
    CHECK(nopt > 0 && nopt <= 64);
    uint8_t b = u8(r);
    gts_option opt = b < 200 ? opts[b % nopt] : (gts_option)(int16_t)u16(r);
    int64_t min = 0, max = 0, def = 0;
    int rb = gts_option_bounds(opt, &min, &max, &def);
    check_status(rb);
    bool known = rb == GTS_OK;
    CHECK(known == (gts_option_name(opt) != NULL));
    if (known)
        CHECK(min <= def && def <= max);

    int64_t value;
    uint8_t v = u8(r);
    switch (v % 8) {
    case 0: value = min; break;
    case 1: value = def; break;
    case 2: value = max; break;
    case 3: value = min - 1; break;
    case 4: value = max + 1; break;
    case 5: value = (v & 0x80) ? INT64_MAX : INT64_MIN; break;
    default: value = (int64_t)(int16_t)u16(r); break;
    }
    bool in_range = known && value >= min && value <= max;
    /* Keep tables and thread pools small: every input builds them anew. */
    if (in_range && opt == GTS_OPT_TT_MB)
        value = value % 3;
    if (in_range && opt == GTS_OPT_THREADS)
        value = 1 + value % 4;

    int rc = gts_engine_set(g_engine, opt, value);
    check_status(rc);
    if (!known)
        CHECK(rc == GTS_EOPTION);
    else if (!in_range)
        CHECK(rc == GTS_ERANGE);
    else
        CHECK(rc == GTS_OK || (opt == GTS_OPT_TT_MB && rc == GTS_ENOMEM));
    CHECK(rc != GTS_ENOMEM || mem_injecting());
    if (rc == GTS_OK) {
        int64_t got = -1;
        CHECK(gts_engine_get(g_engine, opt, &got) == GTS_OK && got == value);
        if (opt == GTS_OPT_THREADS)
            ss->threads = value;
        if (opt == GTS_OPT_NBEST)
            ss->nbest = value;
        if (opt == GTS_OPT_QUIESCENCE)
            ss->quiescence = value;
    }
}

/* A NUL-terminated name from the input, sometimes a real one. */
static void read_name(reader *r, char *buf, const char *real)
{
    uint8_t len = u8(r) % NAME_MAX_LEN;
    if (real && (len & 1)) {
        strncpy(buf, real, NAME_MAX_LEN - 1);
        buf[NAME_MAX_LEN - 1] = '\0';
        return;
    }
    for (int i = 0; i < len; i++)
        buf[i] = (char)u8(r);
    buf[len] = '\0';
}

static void op_query(session *ss)
{
    reader *r = ss->r;
    char name[NAME_MAX_LEN + 4];

    int st = (int)u32(r);
    CHECK(gts_strerror(st) != NULL);
    CHECK((gts_status_name(st) != NULL) == (st <= 0 && st >= GTS__STATUS_MIN));

    gts_option o = (gts_option)(int16_t)u16(r);
    const char *oname = gts_option_name(o);
    read_name(r, name, oname);
    gts_option parsed;
    int rc = gts_option_from_name(name, &parsed);
    check_status(rc);
    CHECK(rc == GTS_OK || rc == GTS_EOPTION);
    if (rc == GTS_OK)
        CHECK(gts_option_name(parsed) != NULL && strcmp(gts_option_name(parsed), name) == 0);
    if (oname)
        CHECK(gts_option_from_name(oname, &parsed) == GTS_OK && parsed == o);

    gts_algorithm a = (gts_algorithm)(int8_t)u8(r);
    const char *aname = gts_algorithm_name(a);
    if (!aname)
        CHECK(!gts_algorithm_is_exact(a) && !gts_algorithm_is_parallel(a));
    read_name(r, name, aname);
    gts_algorithm pa;
    rc = gts_algorithm_from_name(name, &pa);
    check_status(rc);
    CHECK(rc == GTS_OK || rc == GTS_EALGORITHM);
    if (rc == GTS_OK)
        CHECK(gts_algorithm_name(pa) != NULL);
    if (aname)
        CHECK(gts_algorithm_from_name(aname, &pa) == GTS_OK && pa == a);

    int cap = u8(r) % 24;
    gts_algorithm algs[24];
    int na = gts_algorithm_list(cap ? algs : NULL, cap);
    CHECK(na > 0);
    for (int i = 0; i < na && i < cap; i++)
        CHECK(gts_algorithm_name(algs[i]) != NULL);
    int h = gts_engine_hashfull(g_engine);
    CHECK(h >= 0 && h <= 1000);
    int64_t v;
    CHECK(gts_engine_get(g_engine, GTS_OPT_THREADS, &v) == GTS_OK && v == ss->threads);
    CHECK(gts_option_bounds(o, NULL, NULL, NULL) == (oname ? GTS_OK : GTS_EOPTION));
}

/* ---- ProbCut parameters and calibration ------------------------------------ */

static const double PC_VALUES[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, 100.0, 1.5, 1e-300, -1e-300, 1e300, -1e300,
    GTS_PROBCUT_THRESHOLD_OFF, 1e308, __builtin_inf(), -__builtin_inf(), __builtin_nan(""),
};
#define NPC ((int)(sizeof PC_VALUES / sizeof PC_VALUES[0]))

static double pc_value(reader *r)
{
    uint8_t b = u8(r);
    return b < 160 ? PC_VALUES[b % NPC] : (double)(int16_t)u16(r) / 8.0;
}

static int32_t pc_depth(reader *r)
{
    uint8_t b = u8(r);
    return b < 240 ? b % 8 : BAD_PC_DEPTHS[b % 4];
}

static bool finite(double x) { return x == x && x != __builtin_inf() && x != -__builtin_inf(); }

static void op_probcut(session *ss)
{
    reader *r = ss->r;
    gts_probcut_params pp = {.struct_size = sizeof pp};
    CHECK(gts_probcut_defaults(&pp) == GTS_OK);
    uint8_t b = u8(r);
    bool use_null = b == 0xff;
    pp.npairs = b % (GTS_PROBCUT_MAX_PAIRS + 2);
    pp.iid = (b >> 5) & 1;
    bool valid = pp.npairs <= GTS_PROBCUT_MAX_PAIRS;
    for (uint32_t i = 0; i < pp.npairs && i < GTS_PROBCUT_MAX_PAIRS; i++) {
        gts_probcut_pair *q = &pp.pair[i];
        q->shallow_depth = pc_depth(r);
        q->deep_depth = pc_depth(r);
        uint8_t m = u8(r);
        if (m & 1)
            q->a = pc_value(r);
        if (m & 2)
            q->b = pc_value(r);
        if (m & 4)
            q->sigma = pc_value(r);
        if (m & 8)
            q->threshold = pc_value(r);
        if (q->shallow_depth < 0 || q->shallow_depth >= q->deep_depth
            || q->deep_depth > GTS_MAX_DEPTH || !finite(q->a) || q->a <= 0 || !finite(q->b)
            || !finite(q->sigma) || q->sigma <= 0 || q->threshold != q->threshold
            || q->threshold < 0)
            valid = false;
    }
    /* bad_size: newer headers' struct with a nonzero byte the library does not know. */
    bool bad_size = (b & 0xc0) == 0xc0 && !use_null;
    struct {
        gts_probcut_params pp;
        unsigned char tail[8];
    } box;
    memset(&box, 0, sizeof box);
    box.pp = pp;
    if (bad_size) {
        box.pp.struct_size = sizeof pp + 8;
        box.tail[7] = 1;
    }
    int rc = gts_engine_set_probcut(g_engine, use_null ? NULL : &box.pp);
    check_status(rc);
    if (use_null)
        CHECK(rc == GTS_OK);
    else if (bad_size)
        CHECK(rc == GTS_ESTRUCT);
    else
        /* kept parameters take memory on an engine's first set (issue 30:
         * ProbCut's state is its own, allocated on demand) */
        CHECK(rc == (valid ? GTS_OK : GTS_ERANGE)
              || (valid && rc == GTS_ENOMEM && mem_injecting()));

    gts_probcut_params got;
    memset(&got, 0, sizeof got);
    got.struct_size = sizeof got;
    CHECK(gts_engine_get_probcut(g_engine, &got) == GTS_OK);
    if (rc == GTS_OK && !use_null) {
        CHECK(got.npairs == pp.npairs && got.iid == pp.iid);
        for (uint32_t i = 0; i < pp.npairs; i++)
            CHECK(got.pair[i].shallow_depth == pp.pair[i].shallow_depth
                  && got.pair[i].deep_depth == pp.pair[i].deep_depth
                  && got.pair[i].a == pp.pair[i].a && got.pair[i].b == pp.pair[i].b
                  && got.pair[i].sigma == pp.pair[i].sigma
                  && got.pair[i].threshold == pp.pair[i].threshold);
    }
}

static void op_calibrate(session *ss)
{
    reader *r = ss->r;
    uint8_t b = u8(r);
    uint32_t samples = b % 9;
    uint32_t max_walk = (b & 0x80) ? GTS_MAX_PLY + 1 : u8(r) % 12;
    int32_t shallow = u8(r) % 4, deep = u8(r) % 5;
    uint64_t seed = u32(r);
    gts_probcut_fit fit;
    memset(&fit, 0, sizeof fit);
    fit.struct_size = sizeof fit;
    memset(&g_ev, 0, sizeof g_ev);
    bool game_bad = ss->game.struct_size < GTS_GAME_SIZE_V0_1 || ss->game.max_moves == 0
                    || ss->game.max_moves > 65535;
    bool bad_args = samples == 0 || max_walk > GTS_MAX_PLY || shallow < 1 || shallow >= deep
                    || game_bad;
    int rc = gts_probcut_calibrate(g_engine, &ss->game, NULL, 0, ss->state, samples, seed,
                                   max_walk, shallow, deep, &fit);
    check_status(rc);
    check_state(ss);
    if (bad_args)
        CHECK(rc != GTS_OK);
    if (seen(&g_ev.bad_score) || seen(&g_ev.invalid) || seen(&g_ev.too_many)
        || seen(&g_ev.illegal))
        CHECK(rc != GTS_OK);
    CHECK(rc != GTS_EBUSY && rc != GTS_EALGORITHM);
    CHECK(rc != GTS_ENOMEM || mem_injecting());
    if (!bad_args)
        ss->fresh = false;
    if (rc == GTS_OK) {
        CHECK(fit.samples >= 3 && fit.samples <= samples);
        CHECK(finite(fit.a) && finite(fit.b) && finite(fit.sigma) && fit.sigma >= 0);
        CHECK(fit.r2 >= -1e-9 && fit.r2 <= 1 + 1e-9);
    }
}

/* ---- progress callback ----------------------------------------------------- */

enum { PROGRESS_NONE, PROGRESS_RETURN_STOP, PROGRESS_ENGINE_STOP, PROGRESS_REENTER, PROGRESS_MODES };

typedef struct progress {
    int mode;
    int after;         /* act on this iteration (1-based) */
    int calls;
    int last_depth;
    int max_depth;
    bool acted;
    session *ss;
} progress;

static int on_iteration(const gts_result *res, void *user)
{
    progress *p = user;
    CHECK(res && res->struct_size == sizeof(gts_result));
    CHECK(res->depth > p->last_depth && res->depth <= p->max_depth);
    p->last_depth = res->depth;
    if (++p->calls != p->after)
        return 0;
    switch (p->mode) {
    case PROGRESS_RETURN_STOP:
        p->acted = true;
        return 1;
    case PROGRESS_ENGINE_STOP:
        p->acted = true;
        gts_engine_stop(g_engine);
        return 0;
    case PROGRESS_REENTER: {
        /* The engine is searching: everything but stop is refused. */
        CHECK(gts_engine_set(g_engine, GTS_OPT_KILLERS, 1) == GTS_EBUSY);
        CHECK(gts_engine_clear(g_engine) == GTS_EBUSY);
        fstate other;
        memset(&other, 0, sizeof other);
        other.key[0] = p->ss->snapshot.key[0];
        gts_result r2 = {.struct_size = sizeof r2};
        gts_limits l2 = {.struct_size = sizeof l2, .depth = 1};
        CHECK(gts_search(g_engine, GTS_ALG_ALPHABETA, &p->ss->game, &other, &l2, &r2)
              == GTS_EBUSY);
        CHECK(other.level == 0);
        return 0;
    }
    default:
        return 0;
    }
}

/* ---- search ------------------------------------------------------------------ */

static const gts_score WINDOW_VALUES[] = {
    0, 1, -1, 5, -5, 100, -100, GTS_SCORE_DECIDED, -GTS_SCORE_DECIDED, GTS_SCORE_WIN,
    GTS_SCORE_LOSS, GTS_SCORE_INF, -GTS_SCORE_INF, GTS_SCORE_INF + 1, -GTS_SCORE_INF - 1,
    INT32_MIN,
};
#define NWINDOW ((int)(sizeof WINDOW_VALUES / sizeof WINDOW_VALUES[0]))

static gts_score window_value(reader *r)
{
    uint8_t b = u8(r);
    return b < 128 ? WINDOW_VALUES[b % NWINDOW] : (gts_score)(int16_t)u16(r);
}

/* Check that @pv is a line of legal moves from the root. */
static void check_pv(const tree *t, const gts_result *res, uint64_t root)
{
    CHECK(res->pv_length <= GTS_MAX_PLY);
    uint64_t key = root;
    for (uint32_t i = 0; i < res->pv_length; i++) {
        node_info info = node_of(t, key, (int)i);
        CHECK(res->pv[i] < (gts_move)info.n);
        key = child_key(t, key, (int)i, (int)res->pv[i]);
    }
}

static void op_search(session *ss)
{
    reader *r = ss->r;
    const tree *t = &g_tree;

    /* Step 1. The algorithm and its threads */
    gts_algorithm algs[32];
    int na = gts_algorithm_list(algs, 32);
    CHECK(na > 0 && na <= 32);
    uint8_t b = u8(r);
    gts_algorithm alg = b < 224 ? algs[b % na] : (gts_algorithm)(int8_t)u8(r);
    bool known_alg = gts_algorithm_name(alg) != NULL;
    bool parallel = gts_algorithm_is_parallel(alg);
    uint8_t tb = u8(r);
    if (parallel && (tb & 0x80)) {
        CHECK(gts_engine_set(g_engine, GTS_OPT_THREADS, 1 + tb % 4) == GTS_OK);
        ss->threads = 1 + tb % 4;
    }
    if ((tb & 0x30) == 0x30) {
        /* Another max_moves: the engine resizes its move buffers. */
        static const uint32_t MOVES[] = {1, 2, 3, MAX_BRANCH, 64, 300};
        ss->game.max_moves = MOVES[u8(r) % 6];
    }
    if (tb & 0x40) {
        CHECK(gts_engine_clear(g_engine) == GTS_OK);
        ss->fresh = true;
    }
    bool fresh = ss->fresh;

    /* Step 2. Limits */
    uint8_t flags = u8(r);
    /* A struct from newer headers: a nonzero byte the library does not know. */
    struct {
        gts_limits lim;
        unsigned char tail[16];
    } box;
    memset(&box, 0, sizeof box);
    gts_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.struct_size = sizeof lim;
    uint8_t d = u8(r);
    lim.depth = d < 248 ? d % 14 : BAD_DEPTHS[d % 4];
    bool full_depth = lim.depth == 0;
    if ((flags & 1) && u8(r) < 64)
        lim.nodes = 1 + u16(r);
    bool timed = false;
    if ((flags & 2) && u8(r) < 32) {
        lim.time_ms = 1 + u8(r) % 3;
        timed = true;
    }
    if ((flags & 4) && u8(r) < 96) {
        lim.alpha = window_value(r);
        lim.beta = window_value(r);
    }
    if (flags & 8) {
        lim.has_guess = true;
        lim.guess = window_value(r);
    }
    progress prog = {.ss = ss, .max_depth = GTS_MAX_DEPTH};
    if (flags & 16) {
        uint8_t pm = u8(r);
        prog.mode = pm % PROGRESS_MODES;
        prog.after = 1 + (pm >> 4) % 6;
        lim.on_iteration = on_iteration;
        lim.on_iteration_user = &prog;
    }
    bool null_limits = (flags & 32) && u8(r) < 64;
    if (null_limits)
        full_depth = true;
    if (full_depth && t->size > FULL_DEPTH_LIMIT) {
        /* Searching a big tree to GTS_MAX_DEPTH is too slow for a fuzzer. */
        null_limits = false;
        lim.depth = 1 + d % 13;
        full_depth = false;
    }
    if (!full_depth)
        prog.max_depth = lim.depth > 0 ? lim.depth : GTS_MAX_DEPTH;
    bool bad_limits = false;
    if ((flags & 64) && u8(r) < 16) {
        size_t extra = 1 + u8(r) % 8;
        lim.struct_size = sizeof lim + extra;
        box.tail[extra - 1] = 1;
        bad_limits = true;
    }

    /* Step 3. Stops and failures */
    memset(&g_ev, 0, sizeof g_ev);
    uint8_t sb = u8(r);
    if (sb >= 160)
        g_ev.stop_at = 1 + u16(r) % 4096;
    uint8_t fb = u8(r);
    if (fb >= 200) {
        g_ev.fail_kind = 1 + fb % (FAIL_KINDS - 1);
        g_ev.fail_at = 1 + u16(r) % 2048;
    }

    /* Step 4. The result struct and the call */
    gts_result res;
    memset(&res, 0, sizeof res);
    res.struct_size = sizeof res;
    uint64_t thread_nodes[THREAD_SLOTS];
    for (int i = 0; i < THREAD_SLOTS; i++)
        thread_nodes[i] = UINT64_MAX - (uint64_t)i;
    uint8_t rb = u8(r);
    if (rb & 1) {
        res.thread_nodes = thread_nodes;
        res.thread_nodes_capacity = (rb >> 1) % 5;
    }
    bool bad_result = (rb & 0xf0) == 0xf0;
    if (bad_result)
        res.struct_size = sizeof res - 8;

    bool game_bad = ss->game.struct_size < GTS_GAME_SIZE_V0_1 || ss->game.max_moves == 0
                    || ss->game.max_moves > 65535;
    gts_score a0 = lim.alpha, b0 = lim.beta;
    bool window = !null_limits && !(a0 == 0 && b0 == 0);
    bool window_bad = window && (a0 < -GTS_SCORE_INF || b0 > GTS_SCORE_INF || a0 >= b0);
    bool depth_bad = lim.depth < 0 || lim.depth > GTS_MAX_DEPTH;
    bool guess_bad = lim.has_guess && (lim.guess < -GTS_SCORE_INF || lim.guess > GTS_SCORE_INF);
    bool no_clone = !ss->game.clone || !ss->game.free;
    bool unsupported = parallel && ss->threads > 1 && no_clone;
    bool bad_args = bad_result || game_bad || (!null_limits && (bad_limits || depth_bad
                    || window_bad || guess_bad)) || !known_alg || unsupported;

    events config = g_ev;
    progress prog0 = prog;
    box.lim = lim;
    int rc = gts_search(g_engine, alg, &ss->game, ss->state, null_limits ? NULL : &box.lim,
                        &res);

    /* Step 5. Checks */
    check_status(rc);
    check_state(ss);
    for (uint32_t i = res.thread_nodes_capacity; i < THREAD_SLOTS; i++)
        CHECK(thread_nodes[i] == UINT64_MAX - i);
    bool failed = seen(&g_ev.failed), bad_score = seen(&g_ev.bad_score);
    bool invalid = seen(&g_ev.invalid), too_many = seen(&g_ev.too_many);
    bool illegal = seen(&g_ev.illegal);
    switch (rc) {
    case GTS_EINVAL: case GTS_ESTRUCT: case GTS_ERANGE: case GTS_EALGORITHM: case GTS_ENOTSUP:
        CHECK(bad_args);
        break;
    case GTS_ESCORE: CHECK(bad_score); break;
    case GTS_EMOVES: CHECK(too_many); break;
    case GTS_ECALLBACK: CHECK(failed || invalid || illegal); break;
    case GTS_EBUSY: CHECK(false); break;
    case GTS_ENOMEM: CHECK(mem_injecting()); break;
    default: break;
    }
    if (bad_args)
        CHECK(rc != GTS_OK);
    if (failed || bad_score || invalid || too_many || illegal)
        CHECK(rc != GTS_OK);
    /* evaluate() fails by GTS_SCORE_INVALID, clone() by NULL: no own code */
    if (rc == GTS_ECALLBACK)
        CHECK(res.callback_status < 0);
    if (rc == GTS_ECALLBACK && failed && !invalid && !illegal && g_ev.fail_kind != FAIL_CLONE
        && g_ev.fail_kind != FAIL_EVALUATE)
        CHECK(res.callback_status == injected_code());
    if (!bad_args)
        ss->fresh = false;
    if (rc != GTS_OK)
        return;
    bool stopped = seen(&g_ev.stopped) || (prog.acted && prog.mode != PROGRESS_REENTER);
    if (stopped)
        CHECK(res.flags & GTS_RESULT_STOPPED);
    if (lim.nodes == 0 || null_limits)
        CHECK(!(res.flags & GTS_RESULT_NODE_LIMIT));
    if (!timed || null_limits)
        CHECK(!(res.flags & GTS_RESULT_TIME_LIMIT));
    if (!stopped)
        CHECK(!(res.flags & GTS_RESULT_STOPPED));

    uint64_t root = ss->snapshot.key[0];
    node_info rootinfo = node_of(t, root, 0);
    if (rootinfo.n == 0) {
        CHECK(!(res.flags & GTS_RESULT_HAS_MOVE) && res.best_move == GTS_MOVE_NONE);
        CHECK(res.depth == 0);
    } else {
        CHECK(res.flags & GTS_RESULT_HAS_MOVE);
        CHECK(res.best_move < (gts_move)rootinfo.n);
        CHECK(res.pv_length >= 1 && res.pv[0] == res.best_move);
        if (t->hash_mode != HASH_COLLIDE)
            check_pv(t, &res, root);
    }
    int want_depth = null_limits || lim.depth == 0 ? GTS_MAX_DEPTH : lim.depth;
    CHECK(res.depth >= 0 && res.depth <= want_depth);
    CHECK(res.threads == (uint32_t)(parallel ? ss->threads : 1));
    if (res.thread_nodes && res.thread_nodes_capacity >= res.threads) {
        uint64_t sum = 1; /* the root */
        for (uint32_t i = 0; i < res.threads; i++)
            sum += thread_nodes[i];
        CHECK(sum == res.nodes);
    }

    /* Step 6. Determinism: one thread, same table state, same result */
    if (fresh && !timed && res.threads == 1 && (rb & 0x20) && !mem_injecting()) {
        CHECK(gts_engine_clear(g_engine) == GTS_OK);
        g_ev = config;
        prog = prog0;
        gts_result again;
        memset(&again, 0, sizeof again);
        again.struct_size = sizeof again;
        int rc2 = gts_search(g_engine, alg, &ss->game, ss->state, null_limits ? NULL : &box.lim,
                             &again);
        check_state(ss);
        CHECK(rc2 == rc && again.score == res.score && again.depth == res.depth
              && again.flags == res.flags && again.best_move == res.best_move
              && again.nodes == res.nodes && again.seldepth == res.seldepth
              && again.tt_probes == res.tt_probes && again.tt_hits == res.tt_hits
              && again.tt_cutoffs == res.tt_cutoffs && again.pv_length == res.pv_length);
        CHECK(memcmp(again.pv, res.pv, res.pv_length * sizeof res.pv[0]) == 0);
    }

    /* Step 7. Exactness against the naive negamax */
    bool limited = res.flags & (GTS_RESULT_STOPPED | GTS_RESULT_NODE_LIMIT);
    bool qs = ss->quiescence && t->noisy_rate;
    bool well_formed = !t->bad_score && !t->interior_decided && t->hash_mode != HASH_COLLIDE
                       && !(t->ext_rate && t->hash_mode == HASH_LATTICE)
                       && t->bounds_mode != BOUNDS_HOSTILE;
    bool comparable = gts_algorithm_is_exact(alg) && well_formed && ss->nbest == 0
                      && !timed && !(res.flags & GTS_RESULT_TIME_LIMIT) && fresh;
    if (!comparable || rootinfo.n == 0 || res.depth == 0)
        return;
    if (!limited && !(res.flags & GTS_RESULT_TIME_LIMIT)) {
        /* Complete: the requested depth, or a forced result found earlier. */
        int end = gts_score_plies_to_end(res.score);
        CHECK(res.depth == want_depth || (end >= 0 && end <= res.depth));
    }
    gts_score want = ref_negamax(t, root, res.depth, 0, qs);
    if (window) {
        /* The caller's window: a bound where the flags say so, else exact. */
        bool lower = res.flags & GTS_RESULT_LOWER_BOUND, upper = res.flags & GTS_RESULT_UPPER_BOUND;
        CHECK(!(lower && upper));
        CHECK(lower == (res.score >= lim.beta) && upper == (res.score <= lim.alpha));
        if (lower)
            CHECK(want >= res.score);
        if (upper)
            CHECK(want <= res.score);
        if (lower || upper)
            return;
    }
    CHECK(res.score == want);
    int j = (int)res.best_move;
    int ext = t->ext_rate ? extension_of(t, root, j) : 0;
    gts_score mv = -ref_negamax(t, child_key(t, root, 0, j), res.depth - 1 + ext, 1, qs);
    CHECK(mv == want);
}

/* ---- entry point ----------------------------------------------------------- */

static void read_game(reader *r, session *ss)
{
    const tree *t = &g_tree;
    uint8_t g = u8(r);
    gts_game *game = &ss->game;
    memset(game, 0, sizeof *game);
    /* 7: below the 0.1 layout (GTS_ESTRUCT); 6: the 0.1 layout, whose
     * later fields (bounds, ...) the library must not read. */
    switch ((g >> 3) & 7) {
    case 7: game->struct_size = GTS_GAME_SIZE_V0_1 - 8; break;
    case 6: game->struct_size = GTS_GAME_SIZE_V0_1; break;
    default: game->struct_size = sizeof *game; break;
    }
    switch (g % 8) {
    case 5: game->max_moves = 1 + u8(r) % MAX_BRANCH; break; /* maybe too few */
    case 6: game->max_moves = 0; break;
    case 7: game->max_moves = (g & 0x80) ? 65536 : 65535; break;
    default: game->max_moves = (g & 1) ? MAX_BRANCH : 64; break;
    }
    game->generate = g_generate;
    game->apply = g_apply;
    game->undo = g_undo;
    game->evaluate = g_evaluate;
    game->hash = t->hash_mode == HASH_NONE ? NULL : g_hash;
    if ((g >> 6) != 3) {
        game->clone = g_clone;
        game->free = g_free;
    }
    game->generate_noisy = t->noisy_rate ? g_generate_noisy : NULL;
    game->move_score = t->hints ? g_move_score : NULL;
    game->extend = t->ext_rate ? g_extend : NULL;
    game->bounds = t->bounds_mode == BOUNDS_WIDE || t->bounds_mode == BOUNDS_HOSTILE ? g_bounds
                                                                                   : NULL;
    game->user = &g_tree;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    read_tree(&r, &g_tree);

    session ss;
    memset(&ss, 0, sizeof ss);
    ss.r = &r;
    ss.threads = 1;
    ss.quiescence = 1;
    ss.fresh = true;
    read_game(&r, &ss);
    ss.state = calloc(1, sizeof *ss.state);
    CHECK(ss.state);
    ss.state->key[0] = mix(g_tree.seed);
    ss.snapshot = *ss.state;

    g_mem.calls = 0;
    g_mem.fail_at = (g_tree.seed >> 29) == 0 ? (long)((g_tree.seed >> 20) & 0x3f) + 1 : 0;
    int rc = gts_engine_new_with(&g_engine, &g_allocator);
    CHECK(rc == GTS_OK || (rc == GTS_ENOMEM && mem_injecting() && g_engine == NULL));
    /* A small table: the default 16 MiB would dominate every run. */
    if (rc == GTS_OK) {
        rc = gts_engine_set(g_engine, GTS_OPT_TT_MB, 1);
        CHECK(rc == GTS_OK || (rc == GTS_ENOMEM && mem_injecting()));
    }
    if (!g_engine) {
        CHECK(g_mem.live == 0);
        free(ss.state);
        return 0;
    }

    for (int i = 0; i < MAX_OPS && r.n > 0; i++) {
        switch (u8(&r) % 10) {
        case 0:
        case 1: op_set(&ss); break;
        case 8: op_probcut(&ss); break;
        case 9: op_calibrate(&ss); break;
        case 2:
            CHECK(gts_engine_clear(g_engine) == GTS_OK);
            ss.fresh = true;
            break;
        case 3: op_query(&ss); break;
        default: op_search(&ss); break;
        }
        check_state(&ss);
    }

    gts_engine_free(g_engine);
    g_engine = NULL;
    CHECK(g_mem.live == 0); /* nothing leaked, failure or not */
    free(ss.state);
    return 0;
}
