/*
 * bench_mcts_virtual.c - MCTS on virtual processors (the `mcts-virtual`
 * benchmark, doc/results/parallel.md "MCTS on virtual processors"). Not installed.
 *
 * Parallel MCTS does not search a fixed tree, so "the serial search's
 * nodes over the parallel search's ticks" (the depth-first algorithms'
 * virtual speedup) only says how busy the workers were. What parallel
 * MCTS costs is the quality of a move: the workers of a shared tree select
 * with statistics that lack the playouts still running (virtual loss only
 * steers them apart), and root parallelisation splits the playouts over
 * trees that never see each other. So this benchmark measures both, on
 * Connect-4 positions whose true value is known:
 *
 *  - positions: N positions of random games (seed 1) with LO..HI stones,
 *    the game not over, each solved exactly (gts_game_connect4_solver(),
 *    PVS on the window (-1, 1): win, draw or loss for the side to move),
 *    and every move from it too; a move is right when it keeps the best of
 *    the three outcomes. Positions where every move is right are skipped.
 *    Solving is most of the cost, so `--make` prints the positions (one
 *    line each: the position, its outcome, the right columns) and `--file`
 *    reads them back (tools/connect4-mcts-positions.txt);
 *  - for every thread count P and playout budget B, one gts_mcts() search
 *    per position and seed on a fresh engine (gts_game_connect4(), tree or
 *    root parallelisation, GTS_OPT_VIRTUAL from P = 2 on): the share of
 *    right moves, and the virtual time (rounds of turns; at P = 1 the
 *    nodes, one apply per turn).
 *
 * Printed as CSV, one row per (P, B): threads, mode, playouts, searches,
 * right, right_pct, ticks, nodes (all searches together), idle turns, and
 * against the serial row of the same budget (threads 1 listed first),
 * search by search: lost (right serially, wrong here) and gained. The
 * serial rows at several budgets give the curve that a parallel row's
 * share of right moves is read off: the serial playouts that reach the
 * same share, over the parallel row's ticks, is the strength speedup
 * (doc/results/parallel.md).
 *
 * Usage: bench_mcts_virtual --make [--positions N] [--stones LO-HI]
 *        bench_mcts_virtual [--file F | --positions N --stones LO-HI] [--seeds S]
 *            [--threads 1,2,4,...] [--playouts B1,B2,...] [--root]
 */
#include <gts/gts.h>
#include "gts_games.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_POS = 1000, MAX_LIST = 16, C4_COLS = 7 };

typedef struct position {
    char text[48];
    int outcome;          /* -1 / 0 / 1 for the side to move */
    bool right[C4_COLS];  /* moves that keep it */
    int nright, nmoves;
} position;

static int usage(void)
{
    fprintf(stderr, "usage: bench_mcts_virtual --make [--positions N] [--stones LO-HI]\n"
                    "       bench_mcts_virtual [--file F | --positions N --stones LO-HI]\n"
                    "           [--seeds S] [--threads 1,2,4,...] [--playouts B1,B2,...] "
                    "[--root]\n");
    return 2;
}

static int parse_list(char *s, int64_t *out, int64_t lo, int64_t hi)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *end;
        long long v = strtoll(t, &end, 10);
        if (*end || v < lo || v > hi || n == MAX_LIST)
            return -1;
        out[n++] = v;
    }
    return n;
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Win (1), draw (0) or loss (-1) for the side to move in @state: PVS on
 * the window (-1, 1) proves the sign of the exact score. */
static int outcome(gts_engine *e, void *state)
{
    gts_limits lim = { .struct_size = sizeof lim, .alpha = -1, .beta = 1 };
    gts_result r = { .struct_size = sizeof r };
    gts_status st = gts_search(e, GTS_ALG_PVS, gts_game_connect4_solver(), state, &lim, &r);
    if (st != GTS_OK) {
        fprintf(stderr, "bench_mcts_virtual: solve failed: %s\n", gts_strerror(st));
        exit(1);
    }
    return r.score > 0 ? 1 : r.score < 0 ? -1 : 0;
}

/* Random positions with @lo..@hi stones, solved; those with a wrong move. */
static int make_positions(position *pos, int want, int lo, int hi)
{
    const gts_game *g = gts_game_connect4_solver();
    gts_engine *e = NULL;
    if (gts_engine_new(&e) != GTS_OK || gts_engine_set(e, GTS_OPT_TT_MB, 64) != GTS_OK) {
        fprintf(stderr, "bench_mcts_virtual: no engine\n");
        exit(1);
    }
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    int n = 0;
    for (long tries = 0; n < want && tries < 100L * want; tries++) {
        position p;
        memset(&p, 0, sizeof p);
        int stones = lo + (int)(xorshift(&rng) % (uint64_t)(hi - lo + 1));
        void *s = NULL;
        int len = 0;
        bool ok = true;
        for (int k = 0; k < stones && ok; k++) {
            /* a random column that keeps the position legal and unfinished */
            int tries_col = 0;
            for (;;) {
                p.text[len] = (char)('1' + xorshift(&rng) % C4_COLS);
                p.text[len + 1] = 0;
                if (gts_connect4_new(p.text, &s) == GTS_OK) {
                    gts_move mv[C4_COLS];
                    int nm = g->generate(s, mv, C4_COLS, g->user);
                    if (nm > 0)
                        break;
                    gts_games_free(g, s);
                    s = NULL;
                }
                if (++tries_col == 50) {
                    ok = false;
                    break;
                }
            }
            if (ok) {
                len++;
                if (k + 1 < stones) {
                    gts_games_free(g, s);
                    s = NULL;
                }
            }
        }
        if (!ok || !s)
            continue;
        gts_move mv[C4_COLS];
        p.nmoves = g->generate(s, mv, C4_COLS, g->user);
        p.outcome = outcome(e, s); /* the table stays: its entries are exact */
        for (int i = 0; i < p.nmoves; i++) {
            if (g->apply(s, mv[i], g->user) != 0) {
                fprintf(stderr, "bench_mcts_virtual: apply failed\n");
                exit(1);
            }
            int o = -outcome(e, s);
            g->undo(s, mv[i], g->user);
            if (mv[i] < C4_COLS && o == p.outcome) {
                p.right[mv[i]] = true;
                p.nright++;
            }
        }
        gts_games_free(g, s);
        if (p.nright == 0) {
            fprintf(stderr, "bench_mcts_virtual: %s: no move keeps the value\n", p.text);
            exit(1);
        }
        if (p.nright < p.nmoves) {
            pos[n++] = p;
            fprintf(stderr, "\rbench_mcts_virtual: solved %d of %d", n, want);
        }
    }
    gts_engine_free(e);
    fprintf(stderr, "\n");
    return n;
}

/* Positions written by --make: "TEXT OUTCOME COLUMNS" (1-based right
 * columns, e.g. "4453442 1 45"); '#' starts a comment line. */
static int read_positions(const char *path, position *pos, int max)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(2);
    }
    char line[256];
    int n = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        position p;
        memset(&p, 0, sizeof p);
        char cols[16];
        void *s = NULL;
        if (n == max || sscanf(line, "%40s %d %15s", p.text, &p.outcome, cols) != 3
            || p.outcome < -1 || p.outcome > 1
            || gts_connect4_new(p.text, &s) != GTS_OK) {
            fprintf(stderr, "bench_mcts_virtual: %s:%d: not a position line (or more than %d)\n",
                    path, lineno, max);
            exit(2);
        }
        gts_move mv[C4_COLS];
        p.nmoves = gts_game_connect4()->generate(s, mv, C4_COLS, NULL);
        gts_games_free(gts_game_connect4(), s);
        for (const char *c = cols; *c; c++) {
            int col = *c - '1';
            if (col < 0 || col >= C4_COLS || p.right[col]) {
                fprintf(stderr, "bench_mcts_virtual: %s:%d: bad column list\n", path, lineno);
                exit(2);
            }
            p.right[col] = true;
            p.nright++;
        }
        if (p.nmoves <= 0 || p.nright == 0 || p.nright > p.nmoves) {
            fprintf(stderr, "bench_mcts_virtual: %s:%d: not a position with a right move\n",
                    path, lineno);
            exit(2);
        }
        pos[n++] = p;
    }
    fclose(f);
    return n;
}

typedef struct row {
    uint64_t searches, right, ticks, nodes, idle;
} row;

/* @ok[seed * npos + i]: whether search i of seed (0-based) found a right move. */
static row run(const position *pos, int npos, int threads, bool root, int64_t playouts,
               int seeds, bool *ok)
{
    row out = { 0 };
    const gts_game *g = gts_game_connect4();
    for (int sd = 1; sd <= seeds; sd++)
        for (int i = 0; i < npos; i++) {
            void *s = NULL;
            gts_engine *e = NULL;
            if (gts_connect4_new(pos[i].text, &s) != GTS_OK || gts_engine_new(&e) != GTS_OK
                || gts_engine_set(e, GTS_OPT_THREADS, threads) != GTS_OK
                || gts_engine_set(e, GTS_OPT_VIRTUAL, threads > 1) != GTS_OK
                || gts_engine_set(e, GTS_OPT_MCTS_PARALLEL,
                                  root ? GTS_MCTS_ROOT : GTS_MCTS_TREE) != GTS_OK
                || gts_engine_set(e, GTS_OPT_MCTS_SEED, sd) != GTS_OK
                || gts_engine_set(e, GTS_OPT_MCTS_PLAYOUTS, playouts) != GTS_OK) {
                fprintf(stderr, "bench_mcts_virtual: engine set-up failed\n");
                exit(1);
            }
            gts_result r = { .struct_size = sizeof r };
            gts_status st = gts_mcts(e, g, s, NULL, &r);
            if (st != GTS_OK) {
                fprintf(stderr, "bench_mcts_virtual: %s: %s\n", pos[i].text, gts_strerror(st));
                exit(1);
            }
            uint64_t rounds = 0, idle = 0;
            gts_engine_virtual_stats(e, &rounds, &idle);
            out.searches++;
            bool right = r.best_move < C4_COLS && pos[i].right[r.best_move];
            ok[(sd - 1) * npos + i] = right;
            out.right += right;
            out.ticks += threads > 1 ? rounds : r.nodes;
            out.nodes += r.nodes;
            out.idle += idle;
            gts_engine_free(e);
            gts_games_free(g, s);
        }
    return out;
}

int main(int argc, char **argv)
{
    int npos = 100, lo = 16, hi = 26, seeds = 3;
    int64_t threads[MAX_LIST] = { 1, 2, 4, 8, 16, 32, 64 }, budgets[MAX_LIST] = { 1000 };
    int nthreads = 7, nbudgets = 1;
    bool root = false, make = false;
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--root") == 0)
            root = true;
        else if (strcmp(a, "--make") == 0)
            make = true;
        else if (!v)
            return usage();
        else if (strcmp(a, "--file") == 0)
            file = argv[++i];
        else if (strcmp(a, "--positions") == 0)
            npos = atoi(argv[++i]);
        else if (strcmp(a, "--seeds") == 0)
            seeds = atoi(argv[++i]);
        else if (strcmp(a, "--stones") == 0) {
            if (sscanf(argv[++i], "%d-%d", &lo, &hi) != 2)
                return usage();
        } else if (strcmp(a, "--threads") == 0)
            nthreads = parse_list(argv[++i], threads, 1, 256);
        else if (strcmp(a, "--playouts") == 0)
            nbudgets = parse_list(argv[++i], budgets, 1, 100000000);
        else
            return usage();
    }
    if (npos < 1 || npos > MAX_POS || seeds < 1 || seeds > 1000 || lo < 0 || hi < lo
        || hi > 40 || nthreads < 1 || nbudgets < 1) {
        fprintf(stderr, "bench_mcts_virtual: --positions 1..%d, --seeds 1..1000, "
                        "--stones LO-HI within 0..40, lists of 1..%d numbers "
                        "(threads 1..256)\n", MAX_POS, MAX_LIST);
        return 2;
    }
    static position pos[MAX_POS];
    int n = file ? read_positions(file, pos, MAX_POS) : make_positions(pos, npos, lo, hi);
    if (make) {
        printf("# bench_mcts_virtual --make --positions %d --stones %d-%d: position, outcome "
               "for the side to move (1 win, 0 draw, -1 loss), the columns that keep it\n",
               npos, lo, hi);
        for (int i = 0; i < n; i++) {
            printf("%s %d ", pos[i].text, pos[i].outcome);
            for (int c = 0; c < C4_COLS; c++)
                if (pos[i].right[c])
                    putchar('1' + c);
            putchar('\n');
        }
        return 0;
    }
    double chance = 0;
    for (int i = 0; i < n; i++)
        chance += (double)pos[i].nright / pos[i].nmoves;
    fprintf(stderr, "bench_mcts_virtual: %d positions with a wrong move (%s); "
                    "a random move is right in %.1f %% of them\n",
            n, file ? file : "made now", n ? 100.0 * chance / n : 0.0);
    /* The serial row of each budget (threads 1, when listed): every other
     * row is compared with it search by search, the same position and
     * seed. Most positions go the same way at every setting, so the pairs
     * that differ (lost: right serially, wrong here; gained: the other way)
     * say much more than the difference of two shares. */
    size_t per_row = (size_t)n * (size_t)seeds;
    bool *serial = calloc((size_t)nbudgets * per_row, 1), *ok = calloc(per_row, 1);
    bool *have_serial = calloc((size_t)nbudgets, 1);
    if (!serial || !ok || !have_serial) {
        fprintf(stderr, "bench_mcts_virtual: out of memory\n");
        return 1;
    }
    printf("threads,mode,playouts,searches,right,right_pct,ticks,nodes,idle_turns,"
           "lost_vs_serial,gained_vs_serial\n");
    for (int t = 0; t < nthreads; t++)
        for (int b = 0; b < nbudgets; b++) {
            row r = run(pos, n, (int)threads[t], root, budgets[b], seeds, ok);
            uint64_t lost = 0, gained = 0;
            if (threads[t] == 1 && !have_serial[b]) {
                memcpy(serial + (size_t)b * per_row, ok, per_row);
                have_serial[b] = true;
            } else if (have_serial[b]) {
                for (size_t k = 0; k < per_row; k++) {
                    lost += serial[(size_t)b * per_row + k] && !ok[k];
                    gained += !serial[(size_t)b * per_row + k] && ok[k];
                }
            }
            printf("%" PRId64 ",%s,%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%.1f,%" PRIu64
                   ",%" PRIu64 ",%" PRIu64,
                   threads[t], root ? "root" : "tree", budgets[b], r.searches, r.right,
                   r.searches ? 100.0 * (double)r.right / (double)r.searches : 0.0, r.ticks,
                   r.nodes, r.idle);
            if (have_serial[b] && !(threads[t] == 1 && lost + gained == 0))
                printf(",%" PRIu64 ",%" PRIu64 "\n", lost, gained);
            else
                printf(",,\n");
            fflush(stdout);
        }
    free(serial);
    free(ok);
    free(have_serial);
    return 0;
}
