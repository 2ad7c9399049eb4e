/*
 * randtree.c - deterministic random game trees for libgts, computed on the
 * fly: the state is only the path from the root, never the tree.
 *
 * Model (the incremental tree model of Marsland & Campbell's "strongly
 * ordered" trees). Every node has a 64-bit key and a running sum x, kept
 * from the root player's point of view. Each edge (child j of a node) has a
 * gain d_j in [-D, D] for the player moving at the parent, drawn from the
 * parent's key; the child's sum is x + d_j when the root player moves and
 * x - d_j otherwise. The value of a node from its side to move is
 *     clamp(centre + unit * (level even ? x : -x), min_value, max_value)
 * where centre is the middle of [min_value, max_value] and `unit` scales the
 * spread of a depth-long walk to about half the range. Leaves score that
 * value, and evaluate() at an interior node (a depth-limited search) returns
 * the same partial sum: a heuristic that correlates with the true value.
 *
 *  - Shape: a node at level == depth is a leaf; any other non-root node is a
 *    leaf with probability terminal_percent, decided by its key. A node has
 *    branching - (key-derived 0..branching_jitter) children, at least one.
 *  - Ordering: with probability ordered_percent (decided by the parent's
 *    key) the child with the largest gain is swapped to move 0, otherwise
 *    moves follow the draw order. Because the subtree below adds only
 *    further increments, the first move is then usually the minimax best.
 *  - Keys: without transpositions a child's key mixes (parent key, j, seed),
 *    so every path has its own key. With transpositions the child's key is
 *    mix(seed, level, x, r) where r = mix(parent key, j) % variants: nodes are
 *    points of a lattice (level, x, r) with D small, so different paths that
 *    reach the same sum land on the same node. Everything below a node
 *    (shape, gains, values) depends only on its key and level, and the sum is
 *    encoded in the key, so equal keys mean equal subtrees.
 *
 * hash() mixes (key, level, x): equal hashes mean equal subtrees and equal
 * evaluations, so transposition-table entries are exact.
 *
 *  - Passes (null_apply/null_undo, for null-move pruning; since 0.3): at a
 *    node that is not a leaf the side to move may pass: a gain of 0 to a
 *    child of key mix(parent key, PASS, seed) one level down, so the other
 *    side moves. generate() never lists it; only a search that asks for a
 *    null move plays it.
 *
 * Invariants: level <= depth <= RT_MAX_DEPTH; key[0..level], x[0..level] and
 * moves[0..level-1] describe the current path; undo() only accepts the move
 * that led to the current node.
 *
 * Concurrency: no global state; callbacks only touch their own state.
 */
#include "gts_games.h"

#include <stdlib.h>
#include <string.h>

enum { RT_MAX_DEPTH = 60, RT_MAX_BRANCHING = 64, RT_MAX_VALUE = 30000 };

/* Edge gains lie in [-D, D]: fine-grained without transpositions, coarse on
 * the lattice so that sums (and hence nodes) coincide between paths. */
static const int32_t RT_EDGE_RANGE = 8;
static const int32_t RT_LATTICE_EDGE_RANGE = 2;
/* Lattice variants per level and sum: this many times the branching factor. */
static const uint32_t RT_LATTICE_VARIANTS_PER_CHILD = 2;
/* Largest struct_size accepted for gts_randtree_params (see rt_params_size_ok). */
static const size_t RT_PARAMS_MAX_SIZE = 1024;
/* Scale: the standard deviation of a depth-long walk maps to range / 4. */
static const int64_t RT_SPREAD_SIGMAS = 2;

/* Salts that separate the independent draws made from one key. */
static const uint64_t RT_SALT_ROOT = 0x726f6f74ull;  /* "root" */
static const uint64_t RT_SALT_TERM = 0x7465726dull;  /* "term" */
static const uint64_t RT_SALT_JITTER = 0x6a697474ull;
static const uint64_t RT_SALT_ORDER = 0x6f726472ull;
static const uint64_t RT_SALT_EDGE = 0x65646765ull;
static const uint64_t RT_SALT_CHILD = 0x6368696cull;
static const uint64_t RT_SALT_VARIANT = 0x76617269ull;
static const uint64_t RT_SALT_LATTICE = 0x6c617474ull;
static const uint64_t RT_SALT_HASH = 0x68617368ull;
static const uint64_t RT_SALT_PASS = 0x70617373ull;
/* moves[] of a pass (children are 0..RT_MAX_BRANCHING - 1). */
static const uint8_t RT_PASS = 0xff;

typedef struct rt_state {
    gts_randtree_params p;
    int32_t edge_range; /* D */
    uint32_t variants;  /* lattice variants (transpositions only) */
    int64_t centre, unit;
    uint32_t level;
    uint64_t key[RT_MAX_DEPTH + 1];
    int32_t x[RT_MAX_DEPTH + 1];
    uint8_t moves[RT_MAX_DEPTH];
} rt_state;

/* splitmix64 finaliser of z + golden ratio: a good 64-bit mixing function. */
static uint64_t rt_mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rt_mix2(uint64_t a, uint64_t b) { return rt_mix(a ^ rt_mix(b)); }
static uint64_t rt_mix3(uint64_t a, uint64_t b, uint64_t c) { return rt_mix2(rt_mix2(a, b), c); }

static uint64_t rt_isqrt(uint64_t v)
{
    uint64_t r = 0;
    while ((r + 1) * (r + 1) <= v)
        r++;
    return r;
}

/* ---- the tree, as functions of a node's key -------------------------------- */

static bool rt_is_leaf(const rt_state *s, uint64_t key, uint32_t level)
{
    if (level >= s->p.depth)
        return true;
    return level > 0 && s->p.terminal_percent > 0 &&
           rt_mix2(key, RT_SALT_TERM) % 100 < s->p.terminal_percent;
}

static uint32_t rt_children(const rt_state *s, uint64_t key)
{
    uint64_t cut = s->p.branching_jitter
        ? rt_mix2(key, RT_SALT_JITTER) % ((uint64_t)s->p.branching_jitter + 1) : 0;
    return cut >= s->p.branching ? 1 : (uint32_t)(s->p.branching - cut);
}

static int32_t rt_gain(const rt_state *s, uint64_t key, uint32_t j)
{
    uint64_t span = 2 * (uint64_t)s->edge_range + 1;
    return (int32_t)(rt_mix2(key, RT_SALT_EDGE + j) % span) - s->edge_range;
}

/* The draw index j of move @p i (0 <= i < n) at a node with key @p key. */
static uint32_t rt_draw_index(const rt_state *s, uint64_t key, uint32_t n, uint32_t i)
{
    if (s->p.ordered_percent == 0 || rt_mix2(key, RT_SALT_ORDER) % 100 >= s->p.ordered_percent)
        return i;
    uint32_t best = 0;
    int32_t best_gain = rt_gain(s, key, 0);
    for (uint32_t j = 1; j < n; j++) {
        int32_t g = rt_gain(s, key, j);
        if (g > best_gain) {
            best = j;
            best_gain = g;
        }
    }
    /* swap the best draw to the front */
    return i == 0 ? best : i == best ? 0 : i;
}

static int64_t rt_clamp(const rt_state *s, int64_t v)
{
    if (v < s->p.min_value)
        return s->p.min_value;
    if (v > s->p.max_value)
        return s->p.max_value;
    return v;
}

static gts_score rt_value(const rt_state *s, int32_t x, uint32_t level)
{
    return (gts_score)rt_clamp(s, s->centre + s->unit * (int64_t)((level & 1) ? -x : x));
}

/* ---- callbacks ----------------------------------------------------------- */

static int rt_generate(void *state, gts_move *moves, uint32_t capacity, void *user)
{
    (void)user;
    const rt_state *s = state;
    if (!s || !moves)
        return GTS_EINVAL;
    uint64_t key = s->key[s->level];
    if (rt_is_leaf(s, key, s->level))
        return 0;
    uint32_t n = rt_children(s, key);
    if (n > capacity)
        return GTS_EINVAL;
    for (uint32_t i = 0; i < n; i++)
        moves[i] = i;
    return (int)n;
}

static int rt_apply(void *state, gts_move move, void *user)
{
    (void)user;
    rt_state *s = state;
    if (!s)
        return GTS_EINVAL;
    uint32_t level = s->level;
    uint64_t key = s->key[level];
    if (rt_is_leaf(s, key, level))
        return GTS_EINVAL;
    uint32_t n = rt_children(s, key);
    if (move >= n)
        return GTS_EINVAL;
    uint32_t j = rt_draw_index(s, key, n, (uint32_t)move);
    int32_t gain = rt_gain(s, key, j);
    int32_t x = s->x[level] + ((level & 1) ? -gain : gain);
    uint64_t child;
    if (s->p.transpositions) {
        uint64_t r = rt_mix2(key, RT_SALT_VARIANT + j) % s->variants;
        child = rt_mix3(rt_mix2(s->p.seed, RT_SALT_LATTICE), ((uint64_t)(level + 1) << 32) | r,
                        (uint64_t)(int64_t)x);
    } else {
        child = rt_mix3(key, RT_SALT_CHILD + j, s->p.seed);
    }
    s->moves[level] = (uint8_t)move;
    s->level = level + 1;
    s->key[level + 1] = child;
    s->x[level + 1] = x;
    return 0;
}

static int rt_undo(void *state, gts_move move, void *user)
{
    (void)user;
    rt_state *s = state;
    if (!s || s->level == 0 || move != s->moves[s->level - 1])
        return GTS_EINVAL;
    s->level--;
    return 0;
}

/* A pass (gts_game::null_apply): a child with gain 0, one level down. */
static int rt_null_apply(void *state, void *user)
{
    (void)user;
    rt_state *s = state;
    if (!s)
        return GTS_EINVAL;
    uint32_t level = s->level;
    uint64_t key = s->key[level];
    if (rt_is_leaf(s, key, level))
        return 0;
    s->moves[level] = RT_PASS;
    s->level = level + 1;
    s->key[level + 1] = rt_mix3(key, RT_SALT_PASS, s->p.seed);
    s->x[level + 1] = s->x[level];
    return 1;
}

static int rt_null_undo(void *state, void *user)
{
    (void)user;
    rt_state *s = state;
    if (!s || s->level == 0 || s->moves[s->level - 1] != RT_PASS)
        return GTS_EINVAL;
    s->level--;
    return 0;
}

static gts_score rt_evaluate(void *state, void *user)
{
    (void)user;
    const rt_state *s = state;
    if (!s)
        return GTS_SCORE_INVALID;
    return rt_value(s, s->x[s->level], s->level);
}

/*
 * Sound score range (gts_game::bounds). No value is decided (|value| <=
 * 30000 < GTS_SCORE_DECIDED), so a negamax value of this node is the value
 * of one node of its subtree k levels down (a leaf, or the horizon of a
 * depth-limited search), negated when k is odd. Seen from our side to move
 * (y = x at even levels, -x at odd ones), that node's sum lies within
 * [y - kD, y + kD] and its own value is clamp(centre + unit * (+-y')) with
 * the sign (-1)^k: each k gives an interval of signed values, and the range
 * is their hull over k = 1..depth - level (a leaf: its own value exactly).
 * The edges actually drawn are not consulted, so the range costs O(depth).
 */
static int rt_bounds(void *state, gts_score *lo, gts_score *hi, void *user)
{
    (void)user;
    const rt_state *s = state;
    if (!s || !lo || !hi)
        return GTS_EINVAL;
    uint32_t level = s->level;
    if (rt_is_leaf(s, s->key[level], level)) {
        *lo = *hi = rt_value(s, s->x[level], level);
        return 0;
    }
    int64_t y = (level & 1) ? -(int64_t)s->x[level] : s->x[level];
    int64_t l = INT64_MAX, h = INT64_MIN;
    for (uint32_t k = 1; level + k <= s->p.depth; k++) {
        int64_t span = (int64_t)k * s->edge_range;
        int64_t a, b; /* the signed values of level + k, in [a, b] */
        if (k % 2 == 0) {
            a = rt_clamp(s, s->centre + s->unit * (y - span));
            b = rt_clamp(s, s->centre + s->unit * (y + span));
        } else {
            a = -rt_clamp(s, s->centre - s->unit * (y - span));
            b = -rt_clamp(s, s->centre - s->unit * (y + span));
        }
        if (a < l)
            l = a;
        if (b > h)
            h = b;
    }
    *lo = (gts_score)l;
    *hi = (gts_score)h;
    return 0;
}

static uint64_t rt_hash(void *state, void *user)
{
    (void)user;
    const rt_state *s = state;
    if (!s)
        return 0;
    return rt_mix3(s->key[s->level] ^ RT_SALT_HASH, s->level, (uint64_t)(int64_t)s->x[s->level]);
}

static void *rt_clone(void *state, void *user)
{
    (void)user;
    if (!state)
        return NULL;
    rt_state *copy = malloc(sizeof *copy);
    if (copy)
        memcpy(copy, state, sizeof *copy);
    return copy;
}

static void rt_free(void *state, void *user)
{
    (void)user;
    free(state);
}

static int rt_format_move(void *state, gts_move move, char *buf, size_t size, void *user)
{
    (void)state;
    (void)user;
    if (!buf || move >= RT_MAX_BRANCHING)
        return GTS_EINVAL;
    char tmp[3];
    int len = 0;
    if (move >= 10)
        tmp[len++] = (char)('0' + move / 10);
    tmp[len++] = (char)('0' + move % 10);
    if (size < (size_t)len + 1)
        return GTS_EINVAL;
    memcpy(buf, tmp, (size_t)len);
    buf[len] = '\0';
    return len;
}

static int rt_parse_move(void *state, const char *text, gts_move *move, void *user)
{
    (void)user;
    const rt_state *s = state;
    if (!s || !text || !move)
        return GTS_EINVAL;
    uint32_t v = 0;
    size_t len = 0;
    for (; text[len] >= '0' && text[len] <= '9' && len < 3; len++)
        v = v * 10 + (uint32_t)(text[len] - '0');
    if (len == 0 || text[len] != '\0' || (len > 1 && text[0] == '0'))
        return GTS_EPARSE;
    uint64_t key = s->key[s->level];
    if (rt_is_leaf(s, key, s->level) || v >= rt_children(s, key))
        return GTS_EPARSE;
    *move = v;
    return 0;
}

static const gts_game RT_GAME = {
    .struct_size = sizeof(gts_game),
    .max_moves = RT_MAX_BRANCHING,
    .generate = rt_generate,
    .apply = rt_apply,
    .undo = rt_undo,
    .evaluate = rt_evaluate,
    .hash = rt_hash,
    .clone = rt_clone,
    .free = rt_free,
    .generate_noisy = NULL,
    .move_score = NULL,
    .extend = NULL,
    .format_move = rt_format_move,
    .parse_move = rt_parse_move,
    .user = NULL,
    .bounds = rt_bounds,
    .null_apply = rt_null_apply,
    .null_undo = rt_null_undo,
};

const gts_game *gts_game_randtree(void)
{
    return &RT_GAME;
}

/* A struct from a newer header is accepted when the fields we do not know
 * are all zero (their defaults), as with Linux's extensible structs; sizes
 * beyond RT_PARAMS_MAX_SIZE are taken for garbage. */
static bool rt_params_size_ok(const gts_randtree_params *params)
{
    if (params->struct_size < sizeof(gts_randtree_params) ||
        params->struct_size > RT_PARAMS_MAX_SIZE)
        return false;
    const unsigned char *extra = (const unsigned char *)params + sizeof(gts_randtree_params);
    for (size_t i = 0; i < params->struct_size - sizeof(gts_randtree_params); i++)
        if (extra[i])
            return false;
    return true;
}

gts_status gts_randtree_new(const gts_randtree_params *params, void **state)
{
    if (!state)
        return GTS_EINVAL;
    *state = NULL;
    if (!params || !rt_params_size_ok(params))
        return GTS_EINVAL;
    const gts_randtree_params *p = params;
    if (p->branching < 1 || p->branching > RT_MAX_BRANCHING || p->depth < 1 ||
        p->depth > RT_MAX_DEPTH || p->min_value > p->max_value ||
        p->min_value < -RT_MAX_VALUE || p->max_value > RT_MAX_VALUE ||
        p->terminal_percent > 100 || p->ordered_percent > 100)
        return GTS_EINVAL;

    rt_state *s = calloc(1, sizeof *s);
    if (!s)
        return GTS_ENOMEM;
    s->p = *p;
    s->p.struct_size = sizeof(gts_randtree_params);
    s->edge_range = p->transpositions ? RT_LATTICE_EDGE_RANGE : RT_EDGE_RANGE;
    s->variants = RT_LATTICE_VARIANTS_PER_CHILD * p->branching;
    int64_t half = ((int64_t)p->max_value - p->min_value) / 2;
    int64_t d = s->edge_range;
    /* a gain uniform in [-D, D] has variance D(D+1)/3 */
    int64_t sigma = (int64_t)rt_isqrt((uint64_t)(d * (d + 1) * (int64_t)p->depth / 3));
    int64_t denom = RT_SPREAD_SIGMAS * (sigma > 0 ? sigma : 1);
    s->unit = half / denom > 0 ? half / denom : 1;
    s->centre = (int64_t)p->min_value + half;
    s->key[0] = rt_mix2(p->seed, RT_SALT_ROOT);
    *state = s;
    return GTS_OK;
}
