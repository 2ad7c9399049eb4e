/*
 * puct_connect4.c - MCTS with a batch evaluator (PUCT, gts_engine_set_evaluator),
 * the whole loop on Connect-4: an evaluator gives each position a value
 * and a prior over its moves, many positions per call; MCTS searches with
 * them; the root's visit counts are the move distribution a training
 * program would learn from; and games show what the priors are worth.
 *
 * The evaluator is small and hand-written: a linear value and a linear
 * policy whose weights are the constants below (what a trained network
 * would replace). It only uses the game's public vtable on the states it
 * is given, taking back every move it tries:
 *
 *   value(s)   = tanh(h(s) / VALUE_SCALE), h = the evaluate() of
 *                gts_game_connect4h() (open lines of four and the centre
 *                column, from the side to move);
 *   logit(s,m) = W_WIN  * [m wins at once]
 *              + W_LOOK * -h(s after m) / 1000
 *              + W_CENTRE * (3 - |column - 3|);
 *   prior(s,m) = softmax over the moves of s.
 *
 * A GPU network would do the same in one call per batch: copy the batch's
 * positions into an input tensor, run the network once, copy values and
 * policy logits back (doc/architecture.md, section on issue 34, "A GPU
 * evaluator").
 *
 * Usage: puct_connect4 [games] [playouts per move] [batch]
 * (default 20 400 16): plays the evaluator with its priors against the
 * same evaluator with uniform priors, each side half the games first,
 * the first four plies drawn by visit count (temperature 1) for variety,
 * and prints the score and the visit distribution of the first search.
 *
 * Build: cc puct_connect4.c $(pkg-config --cflags --libs gts gts-games) -lm
 */
#include <gts/gts.h>
#include "gts_games.h" /* installed: <gts/gts_games.h> */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The evaluator's weights. */
static const double VALUE_SCALE = 600.0;
static const double W_WIN = 8.0;
static const double W_LOOK = 2.0;
static const double W_CENTRE = 0.25;

typedef struct evaluator {
    const gts_game *g; /* connect4h: the rules and h() */
    bool uniform;      /* value only: leave the priors uniform */
    long positions, calls;
} evaluator;

/* h() of @s after move @m, and whether @m ended the game with a win. */
static double after(const gts_game *g, void *s, gts_move m, bool *won)
{
    gts_move moves[7];
    g->apply(s, m, g->user);
    gts_score h = g->evaluate(s, g->user);
    *won = g->generate(s, moves, 7, g->user) == 0 && h < 0; /* the side to move lost */
    g->undo(s, m, g->user);
    return (double)h;
}

/* The batch callback: values and priors of every position. */
static int evaluate_batch(const gts_eval_batch *b, void *ctx)
{
    evaluator *ev = ctx;
    const gts_game *g = ev->g;
    __atomic_add_fetch(&ev->calls, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&ev->positions, (long)b->n, __ATOMIC_RELAXED);
    for (uint32_t i = 0; i < b->n; i++) {
        void *s = b->states[i];
        b->values[i] = (float)tanh((double)g->evaluate(s, g->user) / VALUE_SCALE);
        if (ev->uniform)
            continue;
        uint32_t lo = b->offsets[i], hi = b->offsets[i + 1];
        double z[7], max = -HUGE_VAL, sum = 0.0;
        for (uint32_t j = lo; j < hi; j++) {
            bool won;
            double h = after(g, s, b->moves[j], &won);
            int col = (int)b->moves[j];
            z[j - lo] = (won ? W_WIN : 0.0) + W_LOOK * (won ? 0.0 : -h / 1000.0)
                        + W_CENTRE * (3 - abs(col - 3));
            if (z[j - lo] > max)
                max = z[j - lo];
        }
        for (uint32_t j = lo; j < hi; j++)
            sum += z[j - lo] = exp(z[j - lo] - max);
        for (uint32_t j = lo; j < hi; j++)
            b->priors[j] = (float)(z[j - lo] / sum);
    }
    return 0;
}

static gts_engine *make_engine(evaluator *ev, long playouts, long batch)
{
    gts_engine *e;
    if (gts_engine_new(&e) != GTS_OK)
        return NULL;
    gts_evaluator desc = {.struct_size = sizeof desc, .evaluate = evaluate_batch, .ctx = ev};
    if (gts_engine_set(e, GTS_OPT_TT_MB, 0) != GTS_OK
        || gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, playouts) != GTS_OK
        || gts_engine_set(e, GTS_OPT_MCTS_BATCH, batch) != GTS_OK
        || gts_engine_set(e, GTS_OPT_MCTS_REUSE, 0) != GTS_OK
        || gts_engine_set_evaluator(e, &desc) != GTS_OK) {
        gts_engine_free(e);
        return NULL;
    }
    return e;
}

/* One game, @first (0 or 1) moving first; +1 when engine 0 wins, -1 when
 * it loses, 0 for a draw. -2 on an error. */
static int play(gts_engine *e[2], const gts_game *g, int first, int game, bool show)
{
    void *s;
    if (gts_connect4_new("", &s) != GTS_OK)
        return -2;
    int result = 0;
    for (int ply = 0;; ply++) {
        gts_move moves[7];
        if (g->generate(s, moves, 7, g->user) == 0) {
            /* finished: the side to move lost unless the board is full */
            if (g->evaluate(s, g->user) < 0)
                result = ((ply + first) % 2 == 0) ? -1 : 1; /* engine to move lost */
            break;
        }
        gts_engine *mover = e[(ply + first) % 2];
        /* the opening by visit count, from a seed of this game and ply */
        gts_engine_set(mover, GTS_OPT_MCTS_TEMPERATURE, ply < 4 ? 100 : 0);
        gts_engine_set(mover, GTS_OPT_MCTS_SEED, game * 100 + ply);
        gts_result r = {.struct_size = sizeof r};
        gts_status rc = gts_mcts(mover, g, s, NULL, &r);
        if (rc != GTS_OK) {
            fprintf(stderr, "search: %s\n", gts_strerror(rc));
            gts_games_free(g, s);
            return -2;
        }
        if (show && ply == 0) {
            /* what a training program records: the visit distribution */
            gts_mcts_move_stats st[7];
            st[0].struct_size = sizeof st[0];
            int n = gts_mcts_root_stats(mover, st, 7);
            uint64_t total = 0;
            for (int i = 0; i < n; i++)
                total += st[i].visits;
            printf("first search (%s priors): column prior -> visit share\n",
                   mover == e[0] ? "evaluator" : "uniform");
            for (int i = 0; i < n; i++)
                printf("  %d: %.3f -> %.3f\n", (int)st[i].move + 1, st[i].prior,
                       (double)st[i].visits / (double)total);
        }
        g->apply(s, r.best_move, g->user);
    }
    gts_games_free(g, s);
    return result;
}

int main(int argc, char **argv)
{
    long games = argc > 1 ? atol(argv[1]) : 20;
    long playouts = argc > 2 ? atol(argv[2]) : 400;
    long batch = argc > 3 ? atol(argv[3]) : 16;
    if (games < 1 || playouts < 1 || batch < 1 || batch > 1024) {
        fprintf(stderr, "usage: %s [games] [playouts per move] [batch 1..1024]\n", argv[0]);
        return 2;
    }
    const gts_game *g = gts_game_connect4h();
    evaluator ev[2] = {{.g = g}, {.g = g, .uniform = true}};
    gts_engine *e[2] = {make_engine(&ev[0], playouts, batch), make_engine(&ev[1], playouts, batch)};
    if (!e[0] || !e[1]) {
        fprintf(stderr, "engine set-up failed\n");
        return 1;
    }
    int won = 0, drawn = 0, lost = 0;
    for (long i = 0; i < games; i++) {
        int r = play(e, g, (int)(i % 2), (int)i, i == 0);
        if (r == -2)
            return 1;
        won += r == 1;
        drawn += r == 0;
        lost += r == -1;
    }
    printf("evaluator priors vs uniform priors, %ld games, %ld playouts per move, batch %ld:\n"
           "  %d won, %d drawn, %d lost (score %.1f %%)\n",
           games, playouts, batch, won, drawn, lost, 100.0 * (won + 0.5 * drawn) / (double)games);
    printf("  evaluator calls %ld for %ld positions (%.1f per call)\n", ev[0].calls,
           ev[0].positions, (double)ev[0].positions / (double)(ev[0].calls ? ev[0].calls : 1));
    gts_engine_free(e[0]);
    gts_engine_free(e[1]);
    return 0;
}
