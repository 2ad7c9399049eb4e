/*
 * bench_mcts.c - MCTS playouts per second (the `mcts-playouts` benchmark,
 * doc/results/bestfirst.md "MCTS"). Not installed.
 *
 * For each game (start position), thread count and parallel mode (tree,
 * and root from 2 threads on), one gts_mcts() search of T milliseconds on a
 * fresh engine; its playouts are the root's visits (gts_mcts_root_stats:
 * root visits == playouts done), divided by the search's own time_us. The
 * configurations run interleaved, R rounds, so that load from other
 * processes hits them alike; the best and the median round are printed.
 * A wall-clock figure: on a loaded machine the 2-thread rows say little;
 * playouts per CPU second of the process (all threads) are printed too,
 * which load from other processes changes much less (at 2 threads they
 * show the cost of sharing, not the speedup).
 *
 * With --checked, every game whose policy is trusted
 * (GTS_TRAIT_TRUSTED_PLAYOUT) also runs as "GAME/checked", the same vtable
 * with the trait masked: the playout loop that checks every policy move
 * with generate(), interleaved with the trusted one in the same process.
 *
 * Usage: bench_mcts [--rounds R] [--time-ms T] [--threads 1,2] [--rave K]
 *                   [--checked] [GAME...]
 * (games: the table GAMES below, each from its start position: connect4,
 * connect4h, othello, tictactoe, go (9x9, komi 7.5), chess, randtree (the
 * `gts` CLI's default tree: seed 1, branching 8, depth 8, -1000..1000);
 * default connect4 othello. Any other name, a game of libgts-games
 * included, is refused with exit status 2: each game needs its own start
 * state, and another game's state is not one.)
 */
#include <gts/gts.h>
#include "gts_games.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_CONFIGS = 64, MAX_ROUNDS = 101, MAX_THREADS = 8 };

typedef struct config {
    const char *game;
    int threads, root; /* root: root parallelisation */
    bool checked;      /* GTS_TRAIT_TRUSTED_PLAYOUT masked */
    double rate[MAX_ROUNDS], cpu_rate[MAX_ROUNDS];
} config;

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static gts_status new_connect4(void **s) { return gts_connect4_new("", s); }
static gts_status new_othello(void **s) { return gts_othello_new("", s); }
static gts_status new_tictactoe(void **s) { return gts_tictactoe_new("", s); }
static gts_status new_go(void **s) { return gts_go_new("9", s); }
static gts_status new_chess(void **s) { return gts_chess_new(NULL, s); }

static gts_status new_randtree(void **s)
{
    gts_randtree_params p = { .struct_size = sizeof p, .seed = 1, .branching = 8, .depth = 8,
                              .min_value = -1000, .max_value = 1000 };
    return gts_randtree_new(&p, s);
}

/* The games this benchmark can start, by their gts_games_find() name, each
 * with the constructor of its start state (connect4h plays on connect4's
 * states, gts_games.h). */
static const struct bench_game {
    const char *name;
    gts_status (*start)(void **state);
} GAMES[] = {
    { "connect4", new_connect4 },   { "connect4h", new_connect4 }, { "othello", new_othello },
    { "tictactoe", new_tictactoe }, { "go", new_go },              { "chess", new_chess },
    { "randtree", new_randtree },
};
enum { NGAMES = sizeof GAMES / sizeof GAMES[0] };

static const struct bench_game *bench_game(const char *name)
{
    for (int i = 0; i < NGAMES; i++)
        if (strcmp(GAMES[i].name, name) == 0)
            return &GAMES[i];
    return NULL;
}

static void *start_state(const char *name)
{
    const struct bench_game *bg = bench_game(name);
    void *s = NULL;
    gts_status rc = bg ? bg->start(&s) : GTS_EINVAL;
    if (rc != GTS_OK) {
        fprintf(stderr, "bench_mcts: %s: cannot build the start position: %s\n", name,
                gts_strerror(rc));
        return NULL;
    }
    return s;
}

/* Playouts per second of one search (and per CPU second in @p cpu_rate),
 * or a negative value on failure. */
static double one(const config *c, int64_t time_ms, int64_t rave, int64_t seed,
                  double *cpu_rate)
{
    const gts_game *g = gts_games_find(c->game);
    void *state = start_state(c->game);
    gts_engine *e = NULL;
    double rate = -1;
    if (!g || !state || gts_engine_new(&e) != GTS_OK)
        goto out;
    gts_game v = *g;
    if (c->checked)
        v.traits &= ~(uint32_t)GTS_TRAIT_TRUSTED_PLAYOUT;
    if (gts_engine_set(e, GTS_OPT_THREADS, c->threads) != GTS_OK ||
        gts_engine_set(e, GTS_OPT_MCTS_PARALLEL, c->root) != GTS_OK ||
        gts_engine_set(e, GTS_OPT_MCTS_RAVE, rave) != GTS_OK ||
        gts_engine_set(e, GTS_OPT_MCTS_SEED, seed) != GTS_OK)
        goto out;
    gts_limits lim = { .struct_size = sizeof lim, .time_ms = (uint64_t)time_ms };
    gts_result r = { .struct_size = sizeof r };
    double cpu0 = cpu_seconds();
    gts_status st = gts_search(e, GTS_ALG_MCTS, &v, state, &lim, &r);
    double cpu = cpu_seconds() - cpu0;
    if (st != GTS_OK) {
        fprintf(stderr, "bench_mcts: %s: search failed: %s\n", c->game, gts_strerror(st));
        goto out;
    }
    gts_mcts_move_stats stats[512];
    stats[0].struct_size = sizeof stats[0];
    int n = gts_mcts_root_stats(e, stats, 512);
    if (n < 0 || n > 512)
        goto out;
    uint64_t playouts = 0;
    for (int i = 0; i < n; i++)
        playouts += stats[i].visits;
    rate = r.time_us ? (double)playouts * 1e6 / (double)r.time_us : 0.0;
    *cpu_rate = cpu > 0 ? (double)playouts / cpu : 0.0;
out:
    gts_engine_free(e);
    gts_games_free(g, state);
    return rate;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_sorted(const double *v, int n)
{
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int rounds = 5, nthreads = 0, threads[MAX_THREADS];
    int64_t time_ms = 1000, rave = 0;
    bool checked = false;
    const char *games[16];
    int ngames = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--time-ms") == 0 && i + 1 < argc) {
            time_ms = atoll(argv[++i]);
        } else if (strcmp(argv[i], "--rave") == 0 && i + 1 < argc) {
            rave = atoll(argv[++i]);
        } else if (strcmp(argv[i], "--checked") == 0) {
            checked = true;
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            char *list = argv[++i], *save = NULL;
            for (char *t = strtok_r(list, ",", &save); t && nthreads < MAX_THREADS;
                 t = strtok_r(NULL, ",", &save))
                threads[nthreads++] = atoi(t);
        } else if (argv[i][0] != '-') {
            if (!bench_game(argv[i]) || !gts_games_find(argv[i])) {
                fprintf(stderr, "bench_mcts: unknown game '%s' (accepted:", argv[i]);
                for (int g = 0; g < NGAMES; g++)
                    fprintf(stderr, "%s %s", g ? "," : "", GAMES[g].name);
                fprintf(stderr, ")\n");
                return 2;
            }
            if (ngames == 16) {
                fprintf(stderr, "bench_mcts: at most 16 games\n");
                return 2;
            }
            games[ngames++] = argv[i];
        } else {
            fprintf(stderr, "usage: bench_mcts [--rounds R] [--time-ms T] [--threads 1,2] "
                            "[--rave K] [--checked] [GAME...]\n");
            return 2;
        }
    }
    if (rounds < 1 || rounds > MAX_ROUNDS || time_ms < 1 || rave < 0) {
        fprintf(stderr, "bench_mcts: --rounds 1..%d, --time-ms >= 1, --rave >= 0\n",
                MAX_ROUNDS);
        return 2;
    }
    for (int i = 0; i < nthreads; i++)
        if (threads[i] < 1 || threads[i] > 256) {
            fprintf(stderr, "bench_mcts: --threads: 1..256\n");
            return 2;
        }
    if (!nthreads) {
        threads[0] = 1;
        threads[1] = 2;
        nthreads = 2;
    }
    if (!ngames) {
        games[0] = "connect4";
        games[1] = "othello";
        ngames = 2;
    }
    static config cfg[MAX_CONFIGS];
    int nc = 0;
    for (int g = 0; g < ngames; g++) {
        bool trusted = gts_games_find(games[g])->traits & GTS_TRAIT_TRUSTED_PLAYOUT;
        for (int t = 0; t < nthreads; t++)
            for (int root = 0; root < (threads[t] > 1 ? 2 : 1); root++)
                for (int ch = 0; ch < (checked && trusted ? 2 : 1) && nc < MAX_CONFIGS; ch++)
                    cfg[nc++] = (config){ .game = games[g], .threads = threads[t],
                                          .root = root, .checked = ch == 1 };
    }
    for (int r = 0; r < rounds; r++)
        for (int c = 0; c < nc; c++) {
            cfg[c].rate[r] = one(&cfg[c], time_ms, rave, r + 1, &cfg[c].cpu_rate[r]);
            if (cfg[c].rate[r] < 0)
                return 1;
        }
    printf("game,threads,mode,rounds,time_ms,best_playouts_per_s,median_playouts_per_s,"
           "best_playouts_per_cpu_s,median_playouts_per_cpu_s\n");
    for (int c = 0; c < nc; c++) {
        qsort(cfg[c].rate, (size_t)rounds, sizeof cfg[c].rate[0], cmp_double);
        qsort(cfg[c].cpu_rate, (size_t)rounds, sizeof cfg[c].cpu_rate[0], cmp_double);
        printf("%s%s,%d,%s,%d,%" PRId64 ",%.0f,%.0f,%.0f,%.0f\n", cfg[c].game,
               cfg[c].checked ? "/checked" : "", cfg[c].threads,
               cfg[c].root ? "root" : "tree", rounds, time_ms, cfg[c].rate[rounds - 1],
               median_sorted(cfg[c].rate, rounds), cfg[c].cpu_rate[rounds - 1],
               median_sorted(cfg[c].cpu_rate, rounds));
    }
    return 0;
}
