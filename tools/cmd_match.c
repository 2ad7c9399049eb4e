/*
 * cmd_match.c - `gts match`: two engine set-ups play a game of
 * libgts-games from a list of openings, each opening twice with the colours
 * swapped, and the tool counts wins, losses and draws per set-up and per
 * colour (doc/cli.md, "match"; the experiments of doc/results/bestfirst.md).
 *
 * A set-up is an algorithm, a budget per move (depth, nodes = move
 * applications, time) and engine options, written "alg=mma,nodes=2000".
 * Each set-up has its own engine, cleared before every game, so a game's
 * result depends only on its opening, its colours, the set-ups and the
 * seed: with depth and node budgets at one thread a match is reproducible
 * (MCTS draws its seed from --seed and the game number unless the set-up
 * fixes mcts_seed). Time budgets are wall-clock and are not. An MCTS
 * set-up follows the game loop of gts_mcts_advance(): the moves played
 * since its last search move its kept tree's root (tree reuse).
 *
 * A game ends when generate() returns no move; the sign of evaluate() of
 * the final position, from its side to move, decides it. That is each
 * game's own end: chess's checkmate, stalemate, 50-move rule and third
 * repetition, Go's two passes or move cap scored by area with komi. In
 * chess the referee is gts_game_chess() and the set-ups search with
 * gts_game_chess_engine() on the same state, its root moved to the
 * position to play (gts_chess_set_root()), as gts-uci does: a repetition
 * inside the search is a draw at once. A game still going after
 * MATCH_MAX_PLIES plies (chess: once its state holds CHESS_GAME_PLIES,
 * the opening's moves included) is stopped and counts as a draw; only Go
 * with a large maxmoves and unusually long chess games get there.
 *
 * Under MPI (`mpirun -np N gts-mpi match`, mpi/gts-mpi.c) a set-up with
 * mpi=1 searches through the cli_remote of tools/remote.h: every rank
 * rebuilds the position from the opening's text and the moves played
 * (the game's `line`) and searches with libgts-mpi; rank 0 plays the
 * move. Plain `gts match` has no remote and refuses mpi=1.
 */
#include "cli.h"
#include "cmds.h"
#include "plugin.h"
#include "remote.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char MATCH_USAGE[] =
    "Usage: gts match GAME --a SETUP --b SETUP [--openings SPEC] [--opening POS]\n"
    "                 [--seed S] [--format text|csv|json] [--record FILE] [--quiet]\n"
    "\n"
    "Two engine set-ups play GAME (tictactoe, connect4, connect4h, othello,\n"
    "chess, go, randtree) from every opening twice, once with each set-up\n"
    "moving first after the opening, and the tool prints wins, losses and draws\n"
    "per set-up and per colour. A game ends by its rules (chess: checkmate,\n"
    "stalemate, the 50-move rule, a third repetition; go: two passes or\n"
    "maxmoves, scored by area with komi); one still going after 4096 plies\n"
    "(chess: once its state holds 1792, the opening's moves included) stops as\n"
    "a draw. A progress bar goes to stderr when it is a terminal, a progress\n"
    "line every few seconds otherwise.\n"
    "\n"
    "SETUP is a comma-separated list of KEY=VALUE:\n"
    "  alg=NAME       algorithm (required; see 'gts algorithms')\n"
    "  depth=D        depth per move, 1..127\n"
    "  nodes=N        move applications per move (gts_limits.nodes), >= 1\n"
    "  time_ms=T      wall-clock milliseconds per move, >= 1\n"
    "  OPTION=V       any engine option by its library name (tt_mb, threads,\n"
    "                 mma_p, mcts_playouts, mcts_exploration, ...; see doc/cli.md);\n"
    "                 the experimental ones (split_ply, virtual, tt_near_depth, ...:\n"
    "                 GTS_EXPERIMENTAL_API) may change in any minor release\n"
    "  name=LABEL     the set-up's label in the output (default A, B)\n"
    "  mpi=1          search with every rank of the MPI job (gts-mpi match under\n"
    "                 mpirun only; not chess or a game library): alg=mcts runs\n"
    "                 gts_mpi_mcts(), an exact alg gts_mpi_search(); the other\n"
    "                 set-up searches on rank 0 alone\n"
    "At least one budget is required: depth, nodes, time_ms (or mcts_playouts).\n"
    "\n"
    "Options:\n"
    "  --a SETUP, --b SETUP  the two set-ups (required)\n"
    "  --openings SPEC  all:N      every opening of N plies (0..8; chess 0..4, go\n"
    "                              0..3) not ending the game\n"
    "                   random:K:N K distinct random N-ply openings (--seed)\n"
    "                   FILE       one position per line ('#' comments); '-' = stdin\n"
    "                   (default all:0: the start position only)\n"
    "  --opening POS    one opening (repeatable; added after --openings)\n"
    "  --seed S         seed of random openings and of MCTS (default 1)\n"
    "  --format F       text (default), csv or json\n"
    "  --record FILE    also write one row per game (opening, colours, result,\n"
    "                   moves) to FILE in the same format ('-' = stdout); each\n"
    "                   row is written as its game ends\n"
    "  --quiet          no progress bar or lines\n"
    "  --progress-interval S  when stderr is not a terminal, a progress line\n"
    "                   every S seconds (default 5; 0 = after every game)\n"
    "  -h, --help       this help\n"
    "\n"
    "Positions, as in 'gts search': tictactoe \"519\", connect4 \"4453\", othello\n"
    "\"f5d6\", randtree \"0,3\"; chess \"startpos\" or a FEN, then \"moves e2e4 ...\";\n"
    "go \"[SIZE] [komi=K] [maxmoves=N] [moves=V,V,...]\" (\"5 komi=0.5 maxmoves=30\").\n"
    "all:N and random:K:N start from chess's startpos and Go's 9x9, komi 7.5.\n"
    "The first colour is chess's White and Go's Black.\n";

static const char MATCH_GAME_NAMES[] =
    "tictactoe, connect4, connect4h, othello, chess, go, randtree";

enum { MATCH_MAX_OPTS = 32, MATCH_MAX_OPENING_PLIES = 8, MATCH_MAX_PLIES = 4096 };
static const uint64_t MATCH_MAX_OPENINGS = 1000000;
/* all:N stays below MATCH_MAX_OPENINGS: chess has 197,281 openings of 4
 * plies and 4,865,609 of 5; 9x9 Go about 82^N. */
enum { CHESS_MAX_ALL_PLIES = 4, GO_MAX_ALL_PLIES = 3 };
/* A chess state holds 2048 plies (gts_games.h, gts_chess_perft); a game
 * stops at this many, leaving 2 * GTS_MAX_PLY for the searches below it. */
enum { CHESS_GAME_PLIES = 2048 - 2 * GTS_MAX_PLY };
/* Seconds between two progress lines when stderr is no terminal (a log, a
 * pipe; a terminal gets the bar), and the most --progress-interval takes. */
enum { MATCH_PROGRESS_S = 5, MATCH_MAX_PROGRESS_S = 86400 };

/* ---- set-ups ------------------------------------------------------------ */

typedef struct setup {
    char label[64];
    char spec[512];
    gts_algorithm alg;
    int64_t depth;
    uint64_t nodes, time_ms;
    int nopts;
    gts_option opt[MATCH_MAX_OPTS];
    int64_t val[MATCH_MAX_OPTS];
    bool has_seed;
    bool mpi;         /* mpi=1: searched by every rank (cli_remote) */
    gts_engine *e;
    /* results */
    uint64_t win[2], loss[2], draw[2]; /* [0] moving first from the start, [1] second */
    uint64_t moves, total_nodes, total_us;
} setup;

/* "gts match: --a: BEFORE'ARG'AFTER" (ARG escaped; none when NULL). */
static bool setup_bad(const char *which, const char *before, const char *arg, const char *after)
{
    char *esc = cli_escaped(arg ? arg : "");
    cli_usage_error("match", "%s: %s%s%s%s%s", which, before, arg ? "'" : "", esc,
                    arg ? "'" : "", after);
    free(esc);
    return false;
}

/* Parse "alg=mma,nodes=1000,mma_p=100" into @p s. */
static bool setup_parse(const char *which, const char *text, setup *s)
{
    memset(s, 0, sizeof *s);
    s->depth = 0;
    snprintf(s->spec, sizeof s->spec, "%s", text);
    snprintf(s->label, sizeof s->label, "%s", which[2] == 'a' ? "A" : "B");
    char *copy = strdup(text);
    if (!copy)
        cli_oom();
    bool have_alg = false, ok = true, playouts = false;
    char *save = NULL;
    if (!*text) {
        free(copy);
        return setup_bad(which, "empty set-up (expected alg=NAME,...)", NULL, "");
    }
    for (char *tok = strtok_r(copy, ",", &save); tok && ok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok) {
            ok = setup_bad(which, "expected KEY=VALUE, got ", tok, "");
            break;
        }
        *eq = '\0';
        const char *key = tok, *v = eq + 1;
        int64_t x;
        uint64_t u;
        if (strcmp(key, "alg") == 0) {
            if (!cli_algorithm("match", v, &s->alg)) {
                ok = false;
                break;
            }
            have_alg = true;
        } else if (strcmp(key, "name") == 0) {
            if (!*v || strlen(v) >= sizeof s->label) {
                ok = setup_bad(which, "name: expected 1..63 characters, got ", v, "");
                break;
            }
            snprintf(s->label, sizeof s->label, "%s", v);
        } else if (strcmp(key, "mpi") == 0) {
            if (!cli_parse_i64(v, 0, 1, &x)) {
                ok = setup_bad(which, "mpi: expected 0 or 1, got ", v, "");
                break;
            }
            s->mpi = x == 1;
        } else if (strcmp(key, "depth") == 0) {
            if (!cli_parse_i64(v, 1, GTS_MAX_DEPTH, &x)) {
                ok = setup_bad(which, "depth: expected 1..127, got ", v, "");
                break;
            }
            s->depth = x;
        } else if (strcmp(key, "nodes") == 0 || strcmp(key, "time_ms") == 0) {
            if (!cli_parse_u64(v, UINT64_MAX, &u) || u == 0) {
                ok = setup_bad(which,
                               key[0] == 'n' ? "nodes: expected 1..18446744073709551615, got "
                                             : "time_ms: expected 1..18446744073709551615, got ",
                               v, "");
                break;
            }
            if (key[0] == 'n')
                s->nodes = u;
            else
                s->time_ms = u;
        } else {
            gts_option o;
            if (gts_option_from_name(key, &o) != GTS_OK) {
                ok = setup_bad(which, "unknown key ", key,
                               " (expected alg, name, depth, nodes, time_ms, mpi or an "
                               "engine option)");
                break;
            }
            int64_t lo, hi, def;
            gts_option_bounds(o, &lo, &hi, &def);
            if (!cli_parse_i64(v, lo, hi, &x)) {
                char before[160];
                snprintf(before, sizeof before, "%s: expected %" PRId64 "..%" PRId64 ", got ",
                         gts_option_name(o), lo, hi);
                ok = setup_bad(which, before, v, "");
                break;
            }
            int i;
            for (i = 0; i < s->nopts && s->opt[i] != o; i++)
                ;
            if (i == MATCH_MAX_OPTS) {
                ok = setup_bad(which, "too many options", NULL, "");
                break;
            }
            if (i == s->nopts)
                s->nopts++;
            s->opt[i] = o;
            s->val[i] = x;
            if (o == GTS_OPT_MCTS_SEED)
                s->has_seed = true;
            if (o == GTS_OPT_MCTS_PLAYOUTS && x > 0)
                playouts = true;
        }
    }
    free(copy);
    if (!ok)
        return false;
    if (!have_alg)
        return setup_bad(which, "missing alg=NAME in ", text, "");
    if (!s->depth && !s->nodes && !s->time_ms && !playouts)
        return setup_bad(which, "no budget in ", text,
                         " (give depth=D, nodes=N, time_ms=T or, for mcts, mcts_playouts=N)");
    return true;
}

static bool setup_engine(setup *s)
{
    s->e = cli_engine_new("match", -1, -1);
    if (!s->e)
        return false;
    for (int i = 0; i < s->nopts; i++) {
        char what[160];
        snprintf(what, sizeof what, "%.63s %s", s->label, gts_option_name(s->opt[i]));
        if (!cli_engine_set("match", s->e, s->opt[i], s->val[i], what))
            return false;
    }
    return true;
}

/* ---- openings ---------------------------------------------------------- */

typedef struct opening {
    char *text;   /* the position text, as the game's positions are written */
    char *origin; /* where it came from, for messages ("FILE:3") */
} opening;

typedef struct openings {
    opening *v;
    size_t n, cap;
} openings;

static void openings_add(openings *o, const char *text, const char *origin)
{
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 64;
        o->v = realloc(o->v, o->cap * sizeof *o->v);
        if (!o->v)
            cli_oom();
    }
    o->v[o->n].text = strdup(text);
    o->v[o->n].origin = strdup(origin);
    if (!o->v[o->n].text || !o->v[o->n].origin)
        cli_oom();
    o->n++;
}

static void openings_free(openings *o)
{
    for (size_t i = 0; i < o->n; i++) {
        free(o->v[i].text);
        free(o->v[i].origin);
    }
    free(o->v);
}

typedef struct match_game {
    const char *name;       /* as given */
    const char *pos_name;   /* the positions' game for cli_position_new */
    bool library;           /* a game library's (pos_name its path) */
    const gts_game *g;      /* the rules: moves, the end and the result */
    const gts_game *search; /* what the set-ups search: g, or chess's engine vtable */
    cli_game_opts go;       /* randtree parameters (the defaults) */
    /* Position text of moves from the start: @p lead before the first
     * move ("startpos moves ", "moves="), @p sep between two. */
    const char *lead, *sep;
    int max_all_plies;      /* most N of --openings all:N */
} match_game;

/* The position @p text, or NULL with the reason in @p why; a finished
 * position is refused too. */
static void *opening_state(const match_game *m, const char *text, char *why, size_t size)
{
    void *state = cli_position_new(m->pos_name, &m->go.tree, text, why, size);
    if (!state)
        return NULL;
    gts_move *mv = malloc(((size_t)m->g->max_moves + 1) * sizeof *mv);
    if (!mv)
        cli_oom();
    int n = m->g->generate(state, mv, m->g->max_moves, m->g->user);
    free(mv);
    if (n <= 0) {
        snprintf(why, size, n == 0 ? "the game is over after it" : "the game cannot move here");
        gts_games_free(m->g, state);
        return NULL;
    }
    return state;
}

/* Append the text of @p move to @p buf (position-text form). */
static void text_append(const match_game *m, void *state, gts_move move, char *buf, size_t size)
{
    char mv[64];
    gts_games_format_move(m->g, state, move, mv, sizeof mv);
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%s", used ? m->sep : m->lead, mv);
}

/* Every opening of @p plies plies below @p state that leaves a move. */
static void enumerate(const match_game *m, void *state, int plies, char *prefix, size_t size,
                      openings *out, int *rc)
{
    const gts_game *g = m->g;
    gts_move mv[512];
    if (g->max_moves > 512) {
        *rc = cli_usage_error("match", "--openings all:N: the game has too many moves");
        return;
    }
    int n = g->generate(state, mv, g->max_moves, g->user);
    if (n < 0) {
        cli_error("--openings: the game cannot generate moves: %s", gts_strerror(n));
        *rc = CLI_FAIL;
        return;
    }
    if (n == 0) /* ends the game: not an opening */
        return;
    if (plies == 0) {
        openings_add(out, prefix, "all");
        return;
    }
    size_t len = strlen(prefix);
    for (int i = 0; i < n && !*rc; i++) {
        text_append(m, state, mv[i], prefix, size);
        if (g->apply(state, mv[i], g->user) != 0) {
            cli_error("--openings: cannot play a generated move");
            *rc = CLI_FAIL;
            return;
        }
        enumerate(m, state, plies - 1, prefix, size, out, rc);
        g->undo(state, mv[i], g->user);
        prefix[len] = '\0';
        if (out->n > MATCH_MAX_OPENINGS) {
            *rc = cli_usage_error("match", "--openings: more than %" PRIu64 " openings",
                                  MATCH_MAX_OPENINGS);
            return;
        }
    }
}

static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* K distinct random openings of @p plies plies (uniform move at each ply),
 * drawn from @p seed; fewer when the game has fewer. */
static int random_openings(const match_game *m, void *start, uint64_t k, int plies, uint64_t seed,
                           openings *out)
{
    const gts_game *g = m->g;
    gts_move mv[512], line[MATCH_MAX_OPENING_PLIES];
    if (g->max_moves > 512)
        return cli_usage_error("match", "--openings random: the game has too many moves");
    uint64_t rng = seed, tries = 0, found = 0;
    size_t first = out->n;
    while (found < k && tries < 64 * k + 1000) {
        tries++;
        char text[1024] = "";
        int applied = 0;
        bool ok = true;
        for (int p = 0; p < plies; p++) {
            int n = g->generate(start, mv, g->max_moves, g->user);
            if (n <= 0) {
                ok = false;
                break;
            }
            rng = mix64(rng);
            gts_move x = mv[rng % (uint64_t)n];
            text_append(m, start, x, text, sizeof text);
            if (g->apply(start, x, g->user) != 0) {
                ok = false;
                break;
            }
            line[applied++] = x;
        }
        if (ok && g->generate(start, mv, g->max_moves, g->user) <= 0)
            ok = false;
        while (applied > 0) {
            applied--;
            g->undo(start, line[applied], g->user);
        }
        if (!ok)
            continue;
        bool dup = false;
        for (size_t i = first; i < out->n && !dup; i++)
            dup = strcmp(out->v[i].text, text) == 0;
        if (dup)
            continue;
        openings_add(out, text, "random");
        found++;
    }
    if (found < k)
        cli_warn("--openings random:%" PRIu64 ":%d: only %" PRIu64 " distinct openings found",
                 k, plies, found);
    return CLI_OK;
}

/* Lines of @p path ('-' = stdin); each checked. Returns the exit status. */
static int file_openings(const match_game *m, const char *path, openings *out)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f) {
        char *esc = cli_escaped(path);
        cli_error("--openings: cannot open '%s': %s", esc, strerror(errno));
        free(esc);
        return CLI_FAIL;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, rc = CLI_OK;
    while (rc == CLI_OK && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' ||
                           line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = '\0';
        char *t = line;
        while (*t == ' ' || *t == '\t')
            t++;
        if (!*t || *t == '#')
            continue;
        char origin[4200], why[512];
        snprintf(origin, sizeof origin, "%s:%d", strcmp(path, "-") == 0 ? "stdin" : path,
                 lineno);
        void *s = opening_state(m, t, why, sizeof why);
        if (!s) {
            char *esc = cli_escaped(t), *eo = cli_escaped(origin);
            cli_error("%s: bad %s opening '%s': %s", eo, m->name, esc, why);
            free(esc);
            free(eo);
            rc = CLI_FAIL;
            break;
        }
        gts_games_free(m->g, s);
        openings_add(out, t, origin);
    }
    /* The end of the lines may be a read error (a directory, an I/O
     * error): that error is the message, not "holds no opening". */
    int read_errno = ferror(f) ? (errno ? errno : EIO) : 0;
    free(line);
    if (f != stdin)
        fclose(f);
    if (rc == CLI_OK && read_errno) {
        char *esc = cli_escaped(strcmp(path, "-") == 0 ? "stdin" : path);
        cli_error("--openings: cannot read '%s': %s", esc, strerror(read_errno));
        free(esc);
        rc = CLI_FAIL;
    } else if (rc == CLI_OK && out->n == 0) {
        char *esc = cli_escaped(path);
        cli_error("--openings: '%s' holds no opening", esc);
        free(esc);
        rc = CLI_FAIL;
    }
    return rc;
}

/* ---- playing ----------------------------------------------------------------- */

typedef struct game_record {
    size_t opening;
    int first;       /* set-up (0 = A, 1 = B) to move after the opening */
    int winner;      /* 0 A, 1 B, -1 draw */
    int winner_side; /* 0 the player who moved first from the start, 1 second, -1 none */
    int plies;       /* moves played after the opening */
    bool capped;     /* stopped at the ply cap: a draw */
    char *moves;
    uint64_t nodes[2], us[2];
} game_record;

/* The colour to move after the opening @p text (0 the player who moves
 * first from the start: chess White, Go Black) and the plies the text
 * played (in chess, the plies its state already holds). A built-in game
 * says it (gts_games_position_turn); a game library's text is taken as the
 * moves it lists after its moves_prefix, colours alternating from the
 * player who moves first. */
static int opening_side(const match_game *m, const char *text, int *held)
{
    int side = 0;
    *held = 0;
    if (!m->library) {
        if (gts_games_position_turn(m->pos_name, &m->go.tree, text, &side, held) != GTS_OK)
            *held = 0; /* not reached: the opening's state was built */
        return side;
    }
    const char *p = *m->lead ? strstr(text, m->lead) : text;
    if (!p || !m->sep)
        return 0;
    p += strlen(m->lead);
    size_t sep = strlen(m->sep);
    while (*p) { /* "" between moves: one character a move */
        const char *next = sep ? strstr(p, m->sep) : p + 1;
        if (!next)
            next = p + strlen(p);
        *held += next > p;
        p = sep && *next ? next + sep : next;
    }
    return *held & 1;
}

/* Play opening @p k with set-up @p first to move after it; the set-ups
 * with mpi=1 search through @p remote. Returns the exit status (CLI_OK,
 * CLI_FAIL, or CLI_INTERRUPTED when stopped). */
static int play(const match_game *m, setup *su, const opening *op, int first, uint64_t seed,
                uint64_t game_no, const cli_remote *remote, game_record *rec)
{
    const gts_game *g = m->g;
    char why[512];
    void *state = opening_state(m, op->text, why, sizeof why);
    if (!state) {
        char *esc = cli_escaped(op->text);
        cli_error("opening '%s': %s", esc, why);
        free(esc);
        return CLI_FAIL;
    }
    /* first_side: the colour of the set-up to move after the opening */
    int held, first_side = opening_side(m, op->text, &held);
    int max_plies = MATCH_MAX_PLIES;
    if (strcmp(m->pos_name, "chess") == 0 && CHESS_GAME_PLIES - held < max_plies)
        max_plies = held < CHESS_GAME_PLIES ? CHESS_GAME_PLIES - held : 0;
    for (int i = 0; i < 2; i++) {
        gts_engine_clear(su[i].e);
        if (!su[i].has_seed)
            gts_engine_set(su[i].e, GTS_OPT_MCTS_SEED,
                           (int64_t)(mix64(seed ^ mix64(game_no * 2 + (uint64_t)i)) >> 2));
    }
    size_t cap = 256, used = 0;
    char *moves = malloc(cap);
    if (!moves)
        cli_oom();
    moves[0] = '\0';
    memset(rec, 0, sizeof *rec);
    rec->first = first;
    gts_move mv[1];
    int status = CLI_OK, toplay = first;
    gts_result r;
    /* MCTS tree reuse: the moves played since each set-up's last search,
     * handed to gts_mcts_advance() before its next one (a set-up with
     * mcts_reuse=0 keeps no tree and starts afresh anyway; one with mpi=1:
     * the remote's hook advances every rank's tree from the recipe). */
    gts_move since[2][2];
    int nsince[2] = { -1, -1 }; /* -1: no search yet in this game */
    /* A game whose repeated positions are draws (GTS_TRAIT_REPETITION_DRAW)
     * gets the keys of the positions played before each search's root,
     * from the opening's position on (gts_limits.history). */
    bool keep_history = (m->search->traits & GTS_TRAIT_REPETITION_DRAW) && m->search->hash;
    uint64_t *history = NULL;
    size_t nhistory = 0, history_cap = 0;
    /* The moves played after the opening: with it, the position every rank
     * rebuilds for an mpi=1 search (cli_recipe). */
    gts_move *line = malloc((size_t)MATCH_MAX_PLIES * sizeof *line);
    if (!line)
        cli_oom();
    for (;;) {
        gts_move *buf = malloc(((size_t)g->max_moves + 1) * sizeof *buf);
        if (!buf)
            cli_oom();
        int n = g->generate(state, buf, g->max_moves, g->user);
        free(buf);
        if (n < 0) {
            cli_error("the game cannot generate moves: %s", gts_strerror(n));
            status = CLI_FAIL;
            break;
        }
        if (n == 0)
            break;
        if (rec->plies >= max_plies) {
            rec->capped = true; /* a draw */
            break;
        }
        setup *s = &su[toplay];
        gts_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.struct_size = sizeof lim;
        lim.depth = (int32_t)s->depth;
        lim.nodes = s->nodes;
        lim.time_ms = s->time_ms;
        lim.history = history;
        lim.history_len = (uint32_t)nhistory;
        memset(&r, 0, sizeof r);
        r.struct_size = sizeof r;
        if (s->alg == GTS_ALG_MCTS && nsince[toplay] >= 0 && !s->mpi)
            gts_mcts_advance(s->e, since[toplay], nsince[toplay], NULL);
        nsince[toplay] = 0;
        if (m->search == gts_game_chess_engine())
            gts_chess_set_root(state); /* repetitions from here are draws in the search */
        cli_sigint_search_begin(s->e);
        gts_status st;
        if (s->mpi) {
            cli_recipe recipe = { .game = m->pos_name, .tree = &m->go.tree, .text = op->text,
                                  .moves = line, .nmoves = (size_t)rec->plies };
            st = remote->search(remote->ctx, s->e, s->alg, m->search, state, &recipe, &lim, &r);
        } else {
            st = gts_search(s->e, s->alg, m->search, state, &lim, &r);
        }
        cli_sigint_search_end();
        if (cli_interrupted()) {
            status = CLI_INTERRUPTED;
            break;
        }
        if (st != GTS_OK) {
            cli_error("set-up %s: search failed: %s (%s)", s->label, gts_strerror(st),
                      gts_status_name(st) ? gts_status_name(st) : "?");
            status = CLI_FAIL;
            break;
        }
        if (!(r.flags & GTS_RESULT_HAS_MOVE)) {
            cli_error("set-up %s: the search returned no move (budget too small?)",
                      s->label);
            status = CLI_FAIL;
            break;
        }
        rec->nodes[toplay] += r.nodes;
        rec->us[toplay] += r.time_us;
        s->moves++;
        s->total_nodes += r.nodes;
        s->total_us += r.time_us;
        mv[0] = r.best_move;
        char text[64];
        gts_games_format_move(g, state, mv[0], text, sizeof text);
        size_t tl = strlen(text);
        if (used + tl + 2 > cap) {
            cap = 2 * cap + tl;
            moves = realloc(moves, cap);
            if (!moves)
                cli_oom();
        }
        used += (size_t)snprintf(moves + used, cap - used, "%s%s", used ? " " : "", text);
        if (keep_history) {
            if (nhistory == history_cap) {
                history_cap = history_cap ? 2 * history_cap : 256;
                history = realloc(history, history_cap * sizeof *history);
                if (!history)
                    cli_oom();
            }
            history[nhistory++] = m->search->hash(state, m->search->user);
        }
        if (g->apply(state, mv[0], g->user) != 0) {
            cli_error("set-up %s: its move %s cannot be played", s->label, text);
            status = CLI_FAIL;
            break;
        }
        line[rec->plies++] = mv[0];
        for (int i = 0; i < 2; i++)
            if (nsince[i] >= 0 && nsince[i] < 2)
                since[i][nsince[i]++] = mv[0];
        toplay ^= 1;
    }
    free(history);
    free(line);
    rec->moves = moves;
    if (status == CLI_OK) {
        gts_score v = rec->capped ? 0 : g->evaluate(state, g->user);
        if (v == GTS_SCORE_INVALID) {
            cli_error("evaluate() failed on a finished game");
            status = CLI_FAIL;
        } else {
            /* toplay is the set-up to move in the final position */
            rec->winner = v > 0 ? toplay : v < 0 ? (toplay ^ 1) : -1;
            if (rec->winner < 0)
                rec->winner_side = -1;
            else
                rec->winner_side = rec->winner == first ? first_side : first_side ^ 1;
            for (int i = 0; i < 2; i++) {
                int side = i == first ? first_side : first_side ^ 1;
                if (rec->winner < 0)
                    su[i].draw[side]++;
                else if (rec->winner == i)
                    su[i].win[side]++;
                else
                    su[i].loss[side]++;
            }
        }
    }
    gts_games_free(g, state);
    return status;
}

/* ---- output ------------------------------------------------------------------ */

static void print_summary(FILE *f, cli_format fmt, const match_game *m, setup *su,
                          const char *openings_spec, size_t nopenings, uint64_t games,
                          uint64_t seed, uint64_t capped)
{
    static const char *const cols[] = {
        "setup", "spec", "games", "wins", "losses", "draws", "score",
        "first_wins", "first_losses", "first_draws", "second_wins", "second_losses",
        "second_draws", "moves", "nodes_per_move", "ms_per_move",
    };
    char title[256];
    snprintf(title, sizeof title, "match %s: %s vs %s, %" PRIu64 " games", m->name, su[0].label,
             su[1].label, games);
    cli_table *t = cli_table_new(title, 16, cols);
    for (int i = 0; i < 2; i++) {
        setup *s = &su[i];
        uint64_t w = s->win[0] + s->win[1], l = s->loss[0] + s->loss[1],
                 d = s->draw[0] + s->draw[1], n = w + l + d;
        cli_table_str(t, s->label);
        cli_table_str(t, s->spec);
        cli_table_uint(t, n);
        cli_table_uint(t, w);
        cli_table_uint(t, l);
        cli_table_uint(t, d);
        if (n)
            cli_table_num(t, ((double)w + 0.5 * (double)d) / (double)n, 3);
        else
            cli_table_null(t);
        for (int side = 0; side < 2; side++) {
            cli_table_uint(t, s->win[side]);
            cli_table_uint(t, s->loss[side]);
            cli_table_uint(t, s->draw[side]);
        }
        cli_table_uint(t, s->moves);
        if (s->moves) {
            cli_table_num(t, (double)s->total_nodes / (double)s->moves, 0);
            cli_table_num(t, (double)s->total_us / 1000.0 / (double)s->moves, 3);
        } else {
            cli_table_null(t);
            cli_table_null(t);
        }
    }
    cli_table_note(t, "openings: %s (%zu), each played twice with the colours swapped; seed %" PRIu64,
                   openings_spec, nopenings, seed);
    cli_table_note(t, "first/second: the player who moves first / second from the start "
                      "position; score = (wins + draws/2) / games");
    if (capped)
        cli_table_note(t, "%" PRIu64 " game%s stopped at the ply cap, counted as draw%s", capped,
                       capped == 1 ? "" : "s", capped == 1 ? "" : "s");
    cli_table_print(t, f, fmt, "match");
    cli_table_free(t);
}

/* --record: one row per game. To a file, each row is written and flushed
 * as its game ends (the file is opened before the first game, so a path
 * that cannot be written fails at once, and a match that fails or is
 * killed half-way keeps its finished games); to stdout ('-') the table
 * follows the summary. */
typedef struct recorder {
    const char *path; /* NULL: no --record */
    FILE *f;          /* the file, NULL for stdout */
    cli_format fmt;
    cli_table *t;
    bool failed;      /* a write failed (and was reported) */
} recorder;

static void record_error(const recorder *r, const char *what, int err)
{
    char *esc = cli_escaped(r->path);
    cli_error("--record: cannot %s '%s': %s", what, esc, strerror(err));
    free(esc);
}

static bool record_open(recorder *r, const char *path, cli_format fmt, const match_game *m)
{
    memset(r, 0, sizeof *r);
    if (!path)
        return true;
    r->path = path;
    r->fmt = fmt;
    if (strcmp(path, "-") != 0 && !(r->f = fopen(path, "w"))) {
        record_error(r, "open", errno);
        return false;
    }
    static const char *const cols[] = {
        "game", "opening", "first", "second", "winner", "winner_colour", "plies", "moves",
        "first_nodes", "second_nodes", "first_ms", "second_ms",
    };
    char title[128];
    snprintf(title, sizeof title, "match %s: games", m->name);
    r->t = cli_table_new(title, 12, cols);
    cli_table_note(r->t, "first/second here: the set-up to move first / second after the "
                         "opening; winner_colour: first or second player from the start");
    if (r->f && !cli_table_stream_begin(r->t, r->f, fmt, "match")) {
        record_error(r, "write", errno);
        fclose(r->f);
        cli_table_free(r->t);
        memset(r, 0, sizeof *r);
        return false;
    }
    return true;
}

/* The row of finished game @p i (0-based); false after a write error. */
static bool record_add(recorder *r, setup *su, const openings *ops, const game_record *g,
                       uint64_t i)
{
    if (!r->path)
        return true;
    int a = g->first, b = g->first ^ 1;
    cli_table *t = r->t;
    cli_table_uint(t, i + 1);
    cli_table_str(t, ops->v[g->opening].text);
    cli_table_str(t, su[a].label);
    cli_table_str(t, su[b].label);
    cli_table_str(t, g->winner < 0 ? "draw" : su[g->winner].label);
    cli_table_str(t, g->winner_side < 0 ? "none" : g->winner_side == 0 ? "first" : "second");
    cli_table_int(t, g->plies);
    cli_table_str(t, g->moves ? g->moves : "");
    cli_table_uint(t, g->nodes[a]);
    cli_table_uint(t, g->nodes[b]);
    cli_table_num(t, (double)g->us[a] / 1000.0, 3);
    cli_table_num(t, (double)g->us[b] / 1000.0, 3);
    if (r->f && !cli_table_stream_rows(t)) {
        record_error(r, "write", errno);
        r->failed = true;
        return false;
    }
    return true;
}

/* The end of the table (stdout: all of it); returns the exit status. */
static int record_close(recorder *r)
{
    if (!r->path)
        return CLI_OK;
    int rc = CLI_OK;
    if (!r->f) {
        cli_table_print(r->t, stdout, r->fmt, "match");
    } else if (r->failed) {
        fclose(r->f);
        rc = CLI_FAIL;
    } else {
        bool ok = cli_table_stream_end(r->t);
        int err = errno;
        if (fclose(r->f) != 0 && ok) {
            ok = false;
            err = errno;
        }
        if (!ok) {
            record_error(r, "write", err);
            rc = CLI_FAIL;
        }
    }
    cli_table_free(r->t);
    return rc;
}

/* ---- the command -------------------------------------------------------------- */

/* The --opening texts, in order (at most argc of them). */
typedef struct match_extra {
    const char **v;
    int *n;
} match_extra;

static bool add_opening(const char *command, const char *label, const char *value, void *dest)
{
    (void)command;
    (void)label;
    match_extra *x = dest;
    x->v[(*x->n)++] = value;
    return true;
}

int cmd_match(int argc, char **argv)
{
    return cmd_match_remote(argc, argv, NULL);
}

int cmd_match_remote(int argc, char **argv, const cli_remote *remote)
{
    const char *spec[2] = { NULL, NULL }, *openings_spec = NULL, *record = NULL;
    const char **extra = calloc((size_t)argc + 1, sizeof *extra);
    if (!extra)
        cli_oom();
    int nextra = 0;
    match_extra ex = { extra, &nextra };
    uint64_t seed = 1;
    cli_format fmt = CLI_FMT_TEXT;
    bool quiet = false;
    int64_t progress_s = MATCH_PROGRESS_S;
    const cli_opt opts[] = {
        CLI_STR("a", &spec[0]),
        CLI_STR("b", &spec[1]),
        CLI_STR("openings", &openings_spec),
        CLI_CALL("opening", &ex, add_opening),
        CLI_U64("seed", &seed),
        CLI_FORMAT("format", &fmt),
        CLI_STR("record", &record),
        CLI_FLAG("quiet", &quiet),
        CLI_INT("progress-interval", &progress_s, 0, MATCH_MAX_PROGRESS_S),
    };
    int prc = cli_parse_options("match", MATCH_USAGE, NULL, argc, argv, opts, CLI_NOPTS(opts));
    if (prc != CLI_OK) {
        free(extra);
        return cli_done(prc);
    }
    int rc = CLI_OK;
    if (optind >= argc) {
        free(extra);
        return cli_usage_error("match", "missing GAME (%s)", MATCH_GAME_NAMES);
    }
    match_game m;
    memset(&m, 0, sizeof m);
    cli_game_opts_init(&m.go);
    m.name = argv[optind++];
    if (cli_no_more_operands("match", argc, argv, optind, NULL) != CLI_OK) {
        free(extra);
        return CLI_USAGE;
    }
    m.pos_name = m.name;
    /* A game library's descriptor, or a built-in game's (libgts-games):
     * the rules, and how a position text lists moves for the openings. */
    bool library = cli_is_game_library(m.name);
    m.library = library;
    const gts_plugin *plugin = library ? cli_plugin_load(m.name, "match")
                                       : gts_games_plugin(m.name);
    if (!plugin) {
        if (!library) {
            char *esc = cli_escaped(m.name);
            cli_usage_error("match", "unknown game '%s' (known: %s)", esc, MATCH_GAME_NAMES);
            free(esc);
        }
        free(extra);
        return CLI_USAGE;
    }
    m.name = plugin->name;
    m.g = plugin->game;
    m.search = m.g;
    m.max_all_plies = MATCH_MAX_OPENING_PLIES;
    /* openings of moves only if it says how to write them */
    m.lead = plugin->moves_prefix ? plugin->moves_prefix : "";
    m.sep = plugin->moves_separator;
    if (!m.sep || !m.g->format_move)
        m.max_all_plies = 0;
    if (strcmp(m.pos_name, "chess") == 0) {
        m.search = gts_game_chess_engine(); /* a repetition is a draw at once */
        m.max_all_plies = CHESS_MAX_ALL_PLIES;
    } else if (strcmp(m.pos_name, "go") == 0) {
        m.max_all_plies = GO_MAX_ALL_PLIES;
    }
    if (!m.g) {
        free(extra);
        return cli_usage_error("match", "game '%s' is not in libgts-games", m.name);
    }
    setup su[2];
    memset(su, 0, sizeof su);
    for (int i = 0; i < 2; i++) {
        if (!spec[i]) {
            free(extra);
            return cli_usage_error("match", "missing --%c SETUP (e.g. --%c alg=alphabeta,depth=6)",
                                   'a' + i, 'a' + i);
        }
        if (!setup_parse(i ? "--b" : "--a", spec[i], &su[i])) {
            free(extra);
            return CLI_USAGE;
        }
    }
    if (strcmp(su[0].label, su[1].label) == 0) {
        free(extra);
        return cli_usage_error("match", "the two set-ups have the same name '%s'", su[0].label);
    }
    for (int i = 0; i < 2; i++) {
        if (!su[i].mpi)
            continue;
        const char *why = !remote ? "only gts-mpi match searches with every rank (mpirun -np N "
                                    "gts-mpi match ...)"
                          : library || m.search != m.g
                              ? "a game library or chess cannot be searched by every rank"
                              : NULL;
        if (why) {
            free(extra);
            return cli_usage_error("match", "--%c: mpi=1: %s", 'a' + i, why);
        }
    }

    /* Openings: the spec (usage errors), then --opening (usage errors). */
    openings ops = { NULL, 0, 0 };
    char why[512];
    void *start = cli_position_new(m.pos_name, &m.go.tree, "", why, sizeof why);
    if (!start) {
        cli_error("cannot build the start position: %s", why);
        free(extra);
        return CLI_FAIL;
    }
    const char *spec_text = openings_spec ? openings_spec : (nextra ? "" : "all:0");
    if (library && m.max_all_plies == 0 && strcmp(spec_text, "all:0") != 0 &&
        (strncmp(spec_text, "all:", 4) == 0 || strncmp(spec_text, "random:", 7) == 0)) {
        rc = cli_usage_error("match",
                             "--openings: the game library writes no moves_separator (or its "
                             "game no format_move): use all:0, a file or --opening POS");
    } else if (strncmp(spec_text, "all:", 4) == 0) {
        int64_t plies;
        if (!cli_parse_i64(spec_text + 4, 0, MATCH_MAX_OPENING_PLIES, &plies)) {
            char *esc = cli_escaped(spec_text);
            rc = cli_usage_error("match", "--openings: expected all:N with N 0..%d, got '%s'",
                                 m.max_all_plies, esc);
            free(esc);
        } else if (plies > m.max_all_plies) {
            rc = cli_usage_error("match",
                                 "--openings: all:%d would be millions of %s openings "
                                 "(N 0..%d for %s); random:K:%d draws K of them",
                                 (int)plies, m.name, m.max_all_plies, m.name, (int)plies);
        } else {
            char prefix[4096] = "";
            enumerate(&m, start, (int)plies, prefix, sizeof prefix, &ops, &rc);
        }
    } else if (strncmp(spec_text, "random:", 7) == 0) {
        char *copy = strdup(spec_text + 7);
        if (!copy)
            cli_oom();
        char *colon = strchr(copy, ':');
        int64_t k = 0, plies = 0;
        if (colon)
            *colon = '\0';
        if (!colon || !cli_parse_i64(copy, 1, (int64_t)MATCH_MAX_OPENINGS, &k) ||
            !cli_parse_i64(colon + 1, 1, MATCH_MAX_OPENING_PLIES, &plies)) {
            char *esc = cli_escaped(spec_text);
            rc = cli_usage_error("match",
                                 "--openings: expected random:K:N with K 1..%" PRIu64
                                 " and N 1..%d, got '%s'",
                                 MATCH_MAX_OPENINGS, MATCH_MAX_OPENING_PLIES, esc);
            free(esc);
        } else {
            rc = random_openings(&m, start, (uint64_t)k, (int)plies, seed, &ops);
        }
        free(copy);
    } else if (spec_text[0]) {
        rc = file_openings(&m, spec_text, &ops);
    }
    for (int i = 0; i < nextra && rc == CLI_OK; i++) {
        void *s = opening_state(&m, extra[i], why, sizeof why);
        if (!s) {
            char *esc = cli_escaped(extra[i]);
            rc = cli_usage_error("match", "--opening: bad %s opening '%s': %s", m.name, esc, why);
            free(esc);
            break;
        }
        gts_games_free(m.g, s);
        openings_add(&ops, extra[i], "--opening");
    }
    gts_games_free(m.g, start);
    free(extra);
    if (rc == CLI_OK && ops.n == 0) {
        cli_error("no opening to play");
        rc = CLI_FAIL;
    }
    for (int i = 0; i < 2 && rc == CLI_OK; i++)
        if (!setup_engine(&su[i]))
            rc = CLI_FAIL;
    for (int i = 0; i < 2 && rc == CLI_OK; i++) {
        int64_t threads = 1;
        gts_engine_get(su[i].e, GTS_OPT_THREADS, &threads);
        if (threads > 1 && !gts_algorithm_is_parallel(su[i].alg))
            cli_warn("set-up %s: threads=%" PRId64
                     " has no effect: '%s' is a serial algorithm",
                     su[i].label, threads, gts_algorithm_name(su[i].alg));
    }

    /* --record opens before the first game: a path that cannot be written
     * fails now, not after the match. */
    recorder recd;
    memset(&recd, 0, sizeof recd);
    if (rc == CLI_OK && !record_open(&recd, record, fmt, &m))
        rc = CLI_FAIL;
    bool started = rc == CLI_OK;
    uint64_t ngames = 2 * (uint64_t)ops.n, done = 0;
    game_record *rec = started ? calloc(ngames, sizeof *rec) : NULL;
    if (started && !rec)
        cli_oom();
    cli_progress *bar = quiet || !started
                            ? NULL
                            : cli_progress_start_lines("match", ngames,
                                                       (uint64_t)progress_s * 1000000u);
    for (uint64_t k = 0; k < ngames && rc == CLI_OK; k++) {
        size_t o = (size_t)(k / 2);
        int first = (int)(k % 2);
        uint64_t moves[2], nodes[2], us[2]; /* a game that does not finish counts for nothing */
        for (int i = 0; i < 2; i++) {
            moves[i] = su[i].moves;
            nodes[i] = su[i].total_nodes;
            us[i] = su[i].total_us;
        }
        rc = play(&m, su, &ops.v[o], first, seed, k, remote, &rec[k]);
        rec[k].opening = o;
        if (rc == CLI_OK) {
            done++;
            if (!record_add(&recd, su, &ops, &rec[k], k))
                rc = CLI_FAIL;
        } else {
            for (int i = 0; i < 2; i++) {
                su[i].moves = moves[i];
                su[i].total_nodes = nodes[i];
                su[i].total_us = us[i];
            }
        }
        char label[160];
        uint64_t aw = su[0].win[0] + su[0].win[1], bw = su[1].win[0] + su[1].win[1];
        snprintf(label, sizeof label, "%s %" PRIu64 " : %" PRIu64 " %s, %" PRIu64 " draws",
                 su[0].label, aw, bw, su[1].label, done - aw - bw);
        cli_progress_set(bar, done, label);
    }
    cli_progress_end(bar);
    /* The summary and the records of the finished games, also when a game
     * failed (exit 1) or Ctrl-C stopped one (exit 130). */
    if (started) {
        char what[600];
        snprintf(what, sizeof what, "%.500s%s%s", openings_spec ? openings_spec : "",
                 openings_spec && nextra ? " + " : "",
                 nextra ? "--opening" : openings_spec ? "" : spec_text);
        uint64_t capped = 0;
        for (uint64_t k = 0; k < done; k++)
            capped += rec[k].capped;
        print_summary(stdout, fmt, &m, su, what, ops.n, done, seed, capped);
        if (record_close(&recd) != CLI_OK && rc == CLI_OK)
            rc = CLI_FAIL;
    }
    fflush(stdout);
    for (uint64_t k = 0; rec && k < ngames; k++)
        free(rec[k].moves);
    free(rec);
    for (int i = 0; i < 2; i++)
        gts_engine_free(su[i].e);
    openings_free(&ops);
    if (rc == CLI_INTERRUPTED)
        return cli_interrupt_exit("match");
    return rc;
}
