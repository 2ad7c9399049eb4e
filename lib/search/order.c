/*
 * order.c - move ordering: TT move, the game's hint, killers, history.
 *
 * What: gives every move of a node a 64-bit sort key; the node searches pick
 * moves lazily in key order (gts__pick), so a cutoff after the first move
 * costs no full sort. Key layout, most significant first:
 *   TT move                      INT64_MAX
 *   game's hint                  bits 24..55 (signed): generate_keyed()'s
 *                                key, else move_score()
 *   killer rank                  bits 22..23 (2 = first killer, 1 = second;
 *                                with counter moves 3, 2, and 1 = the
 *                                counter move)
 *   history                      bits  0..21 (with gravity, offset by
 *                                GRAVITY_MAX to stay positive)
 * The hint comes first: a game that knows "this move wins now" is right.
 *
 * Concurrency contract: tables are per thread (inside gts__ctx); nothing
 * here is shared.
 */
#include "search/order.h"

static const int64_t HINT_UNIT = INT64_C(1) << 24;
static const int64_t KILLER_SHIFT = 22;
static const int32_t HISTORY_MAX = (1 << 22) - 1;
/* With gravity (GTS_OPT_HISTORY 2) scores stay within +-GRAVITY_MAX: an
 * update by b moves a score h by b - h |b| / GRAVITY_MAX; the bonus of a
 * cutoff at depth d is d^2, at most GRAVITY_BONUS_MAX. */
static const int32_t GRAVITY_MAX = 1 << 14;
static const int32_t GRAVITY_BONUS_MAX = 1 << 11;

bool gts__order_moves(gts__ctx *c, int ply, int n, uint32_t tt_move)
{
    const gts_game *g = c->game;
    gts__mv *o = c->order[ply];
    /* Nothing to order by: generate() order (gts__pick is then the identity). */
    if (!gts__order_wanted(c, tt_move)) {
        for (int i = 0; i < n; i++) {
            o[i].key = 0;
            o[i].index = (uint32_t)i;
        }
        return false;
    }
    const gts_move *moves = gts__moves(c, ply);
    const int32_t *hist = c->history[ply & 1];
    const int32_t *keys = c->keyed[ply] ? c->keys[ply] : NULL;
    const int64_t killer1 = (int64_t)(c->use_counter ? 3 : 2) << KILLER_SHIFT;
    const int64_t killer2 = (int64_t)(c->use_counter ? 2 : 1) << KILLER_SHIFT;
    const gts_move counter = c->use_counter ? gts__order_counter(c, ply) : 0;
    const int32_t offset = c->history_gravity ? GRAVITY_MAX : 0;
    bool varied = false;
    for (int i = 0; i < n; i++) {
        gts_move m = moves[i];
        int64_t key;
        if ((uint32_t)i == tt_move) {
            key = INT64_MAX;
        } else {
            /* multiply, not shift: hints may be negative */
            key = keys            ? (int64_t)keys[i] * HINT_UNIT
                  : g->move_score ? (int64_t)g->move_score(c->state, m, c->user) * HINT_UNIT
                                  : 0;
            if (c->use_killers && m == c->killers[ply][0])
                key += killer1;
            else if (c->use_killers && m == c->killers[ply][1])
                key += killer2;
            else if (c->use_counter && m == counter)
                key += (int64_t)1 << KILLER_SHIFT;
            if (c->use_history)
                key += hist[gts__order_slot(m)] + offset;
        }
        o[i].key = key;
        o[i].index = (uint32_t)i;
        varied |= key != o[0].key;
    }
    return varied;
}

int32_t gts__order_history(const gts__ctx *c, int ply, gts_move m)
{
    return c->use_history ? c->history[ply & 1][gts__order_slot(m)] : 0;
}

/* Move a gravity history score by @b (gts__order_cutoff, gts__order_malus). */
static void gravity(int32_t *h, int32_t b)
{
    *h += b - *h * (b < 0 ? -b : b) / GRAVITY_MAX;
}

static int32_t gravity_bonus(int depth)
{
    return depth >= 45 ? GRAVITY_BONUS_MAX
           : depth * depth < GRAVITY_BONUS_MAX ? depth * depth : GRAVITY_BONUS_MAX;
}

void gts__order_malus(gts__ctx *c, int ply, int depth, const gts_move *tried, int n)
{
    if (!c->history_gravity)
        return;
    int32_t b = gravity_bonus(depth);
    for (int i = 0; i < n; i++)
        gravity(&c->history[ply & 1][gts__order_slot(tried[i])], -b);
}

void gts__order_cutoff(gts__ctx *c, int ply, int depth, gts_move m)
{
    if (c->use_killers && c->killers[ply][0] != m) {
        c->killers[ply][1] = c->killers[ply][0];
        c->killers[ply][0] = m;
    }
    if (c->use_counter)
        c->counter[ply & 1][c->line_slot[ply]] = m;
    if (c->history_gravity) {
        gravity(&c->history[ply & 1][gts__order_slot(m)], gravity_bonus(depth));
    } else if (c->use_history) {
        int32_t *h = &c->history[ply & 1][gts__order_slot(m)];
        int32_t bonus = depth * depth;
        *h = *h + bonus > HISTORY_MAX ? HISTORY_MAX : *h + bonus;
        if (*h == HISTORY_MAX) {
            /* Age the whole side's table so that it keeps discriminating. */
            for (int i = 0; i < GTS__HISTORY_SIZE; i++)
                c->history[ply & 1][i] /= 2;
        }
    }
}
