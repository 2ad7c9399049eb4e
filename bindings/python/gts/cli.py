"""``python3 -m gts``: the commands ``search``, ``perft``, ``solve`` and
``algorithms`` of the ``gts`` tool (tools/), written in Python over the
bindings, for the built-in games.

Both tools follow one specification, doc/cli.md ("The shared commands"):
the same options, defaults, ranges, output fields, messages (modulo the
program name) and exit statuses (0 success, 1 run-time failure, 2 usage
error, 130 interrupted). tests/test_cli_agree.py runs both on the same
inputs and compares them. So this file follows tools/*.c closely, function by
function; change both or neither. The benchmarking commands of the C tool
(bench, speedup, nodes) are not mirrored.

    python3 -m gts search connect4 4453 --alg pvs --depth 8
    python3 -m gts perft othello 1-6
    echo 2252576253462244111563365343671351441 | python3 -m gts solve connect4 --stats
    python3 -m gts algorithms --format json

Ctrl-C: searches and perfts run in a helper thread while the main thread
waits for them; the SIGINT handler (which never raises) stops a running
search with Engine.stop() and the command prints what it completed, or, when
nothing can be stopped, exits at once with status 130 (see _Interrupts).
"""
from __future__ import annotations

import ctypes
import os
import re
import signal
import sys
import threading
import time
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Tuple

import gts
from gts import games

PROG = "python3 -m gts"
CLI_OK, CLI_FAIL, CLI_USAGE, CLI_INTERRUPTED = 0, 1, 2, 130

GAME_NAMES = "tictactoe, connect4, othello, chess, go, randtree"
SEARCH_GAME_NAMES = "tictactoe, connect4, connect4_solver, othello, chess, go, randtree"
DEFAULT_DEPTH = {"tictactoe": 9, "connect4": 12, "connect4_solver": 12, "othello": 8,
                 "chess": 6, "go": 3}
KEY_WIDTH = 17                 # the key column of the search text output
SOLVE_DEFAULT_ALG = "pvs"
SOLVE_DEFAULT_TT_MB = 64
SOLVE_DEFAULT_DEEPEN = 32768
SOLVE_DEFAULT_SPLIT_PLY = 12
SOLVE_DEFAULT_TT_NEAR = 10
# ... and for a parallel algorithm on more than one thread (a slice each).
SOLVE_DEFAULT_TT_NEAR_PARALLEL = 12
SOLVE_DEFAULT_TT_NEAR_KB = 1024
SOLVE_MAX_LINE = 256
C4_CELLS = 42
ROOT_DRIVERS = {"window": getattr(gts, "ROOT_WINDOW", 0),
                "bisect": getattr(gts, "ROOT_BISECT", 1),
                "mtdf": getattr(gts, "ROOT_MTDF", 2)}
UINT64_MAX = 2 ** 64 - 1
INT32_MIN, INT32_MAX = -2 ** 31, 2 ** 31 - 1
RESTOP_S = 0.02                # how often an interrupted search is stopped again
C_ONLY_COMMANDS = ("bench", "speedup", "nodes")


# ---- help texts (those of tools/*.c, with this program's name) -------------------

_GAME_OPTIONS_HELP = """\
Random-tree options (GAME randtree):
  --seed S            tree seed (default 1)
  --branching B       children per interior node, 1..64 (default 8)
  --tree-depth D      depth of the tree, 1..60 (default 8)
  --jitter K          branching varies in B-K..B (default 0)
  --terminal P        percent chance an interior node is a leaf (default 0)
  --ordered P         percent chance the first child is best (default 0)
  --transpositions    share subtrees between paths
  --min-value V, --max-value V   leaf value range (default -1000..1000)
  A randtree POSITION is a comma-separated list of child indices ("0,3,1").
"""

_SEARCH_USAGE = """\
Usage: gts search GAME [POSITION] [--alg NAME] [--depth D] [--threads N]
                  [--tt-mb M] [--time-ms T] [--nodes N] [--aspiration W]
                  [--playouts N] [--null-move R] [--lmr P] [--futility M]
                  [--razor M] [--lmp B] [--contempt C] [--format text|json]
                  [--quiet]

Search POSITION (default: the start) of GAME (tictactoe, connect4,
connect4_solver, othello, chess, go, randtree) and print the best move, the
score, the principal variation and the statistics of the search. A progress
line per completed iteration goes to stderr (unless --quiet). Ctrl-C stops
the search and prints its last completed iteration (exit status 130).

Options:
  --alg NAME       algorithm (default pvs; see 'gts algorithms')
  --depth D        depth in plies (default: tictactoe 9, connect4 12, othello 8,
                   chess 6, go 3, randtree its tree depth; unlimited with
                   --time-ms/--nodes/--playouts)
  --threads N      worker threads of a parallel algorithm (default 1)
  --tt-mb M        transposition table in MiB (default 16, 0 = none)
  --time-ms T      stop after T milliseconds (default 0 = no limit)
  --nodes N        stop after about N nodes (default 0 = no limit)
  --aspiration W   aspiration window half-width (default 0 = full window)
  --playouts N     mcts: stop after N playouts (1..2^62; the depth is then
                   unlimited)
  --null-move R, --lmr P, --futility M, --razor M, --lmp B, --contempt C
                   selective search of the alpha-beta family: the engine
                   options null_move, lmr, futility, razor, lmp, contempt
                   (default 0 = off; see doc/cli.md)
  --format F       text (default) or json
  --quiet          no progress lines
  -h, --help       this help

Positions: tictactoe cells 1-9 played in order ("519"); connect4 1-based
columns ("4453"); othello squares ("f5d6c3", "ps" = pass); chess
"startpos" or a FEN, then "moves e2e4 ..."; go "[SIZE] [komi=K]
[maxmoves=N] [patterns=0|1] [moves=V,V,...]" with GTP vertices
("9 komi=7 moves=E5,D4,pass").

""" + _GAME_OPTIONS_HELP

_PERFT_USAGE = """\
Usage: gts perft GAME DEPTH [POSITION] [--divide]

Count the leaf paths DEPTH plies below POSITION (default: the start) of GAME
(tictactoe, connect4, othello, chess, go, randtree) with the game's
generate/apply/undo; a finished game before DEPTH counts as one leaf (chess:
none, and the 50-move and repetition draws do not end it, as in the published
counts). DEPTH may be a list or range
("1-9", "2,4"): one line per depth. Prints "perft(DEPTH) = COUNT" with the
time taken.

Options:
  --divide         also print the count below each move of the position
  --depth D        (randtree) depth of the tree, as --tree-depth
  -h, --help       this help

""" + _GAME_OPTIONS_HELP

_SOLVE_USAGE = """\
Usage: gts solve connect4 [--alg NAME] [--threads N] [--tt-mb M] [--stats]
                          [--check] [--iterative | --no-iterative]
                          [--deepen N] [--root DRIVER] [--no-bounds]
                          [--no-prefetch] [--tt-near D] [--tt-near-kb K]
                          [--split-ply P]

Read Connect-4 positions from stdin, one per line, as the 1-based columns
played from the empty board ("4453"), and print "POSITION SCORE" for each.
The score is exact: positive when the side to move wins, (43 - n) / 2 where
n is the number of stones before its winning stone; negative when it loses;
0 for a draw.

Options:
  --alg NAME       exact algorithm (default: pvs; see 'gts algorithms')
  --threads N      worker threads of a parallel algorithm (default 1)
  --tt-mb M        transposition table size in MiB (default 64)
  --stats          append the nodes searched and the microseconds taken
  --check          lines are "POSITION EXPECTED" (the benchmark file format):
                   a different score is reported as an error
  --iterative      iterative deepening up to the end of the game
  --no-iterative   search the full depth at once (the default: about twice
                   as fast here), after the prelude of --deepen
  --deepen N       without --iterative, first deepen iteratively while fewer
                   than N nodes were searched (default 32768; 0: no prelude):
                   a win or loss found then is already exact, which solves
                   easy positions in a few nodes
  --root DRIVER    how the root value is found: window (default: one search
                   of the reachable score range), bisect (null-window
                   searches halving that range, as dedicated solvers do) or
                   mtdf (null windows stepping from the last score)
  --no-bounds      hide the game's score-range callback from the search (to
                   measure what it brings)
  --no-prefetch    do not play the children ahead to prefetch their table
                   entries (GTS_OPT_TT_PREFETCH, on by default here)
  --tt-near D      nodes with at most D plies to go use a small, cache-resident
                   part of the table (GTS_OPT_TT_NEAR_DEPTH; default 10, and 12
                   for a parallel algorithm on more than one thread; 0: one
                   table for all nodes)
  --tt-near-kb K   size of that part in KiB (GTS_OPT_TT_NEAR_KB; default 1024)
  --split-ply P    parallel algorithms share work only in the top P plies
                   (GTS_OPT_SPLIT_PLY; default 12; 0: no limit)
  -h, --help       this help

A malformed line (bad character, full column, a position where the game is
already over, an empty or too long line) is reported on stderr with its line
number; the other lines are still answered and the exit status is 1. Blank
lines at the very end of the input are ignored. Ctrl-C stops at once: the
line being solved is not answered (exit status 130).
"""

_ALGORITHMS_USAGE = """\
Usage: gts algorithms [--format text|csv|json]

List the search algorithms of the library: the name accepted by --alg
(the entry point without its gts_ prefix), whether it is exact (always the
minimax value) and whether it is parallel (uses --threads).
"""

_COMMANDS = (("solve", "solve Connect-4 positions read from stdin exactly"),
             ("search", "search a position of a built-in game with one algorithm"),
             ("perft", "count the leaf paths of a game tree to a depth"),
             ("algorithms", "list the search algorithms and their properties"))


def _with_prog(text: str) -> str:
    """A help text of the C tool with this program's name: the usage lines
    shifted right by the longer name, "'gts algorithms'" renamed."""
    pad = " " * (len(PROG) - len("gts"))
    out, in_usage = [], True
    for line in text.split("\n"):
        if line.startswith("Usage: gts "):
            line = "Usage: " + PROG + line[len("Usage: gts"):]
        elif in_usage and line.startswith(" "):
            line = pad + line
        else:
            in_usage = in_usage and line.startswith("Usage:")
        out.append(line.replace("'gts algorithms'", f"'{PROG} algorithms'"))
    return "\n".join(out)


def _usage(f) -> None:
    f.write(f"Usage: {PROG} [--help] [--version] COMMAND [ARGS...]\n\n"
            f"Game tree search from the command line, with libgts {gts.library_version()}\n"
            "(Python bindings; the commands of the gts tool but bench, speedup, nodes).\n\n"
            "Commands:\n")
    for name, summary in _COMMANDS:
        f.write(f"  {name:<11} {summary}\n")
    f.write(f"\nGames: {GAME_NAMES}.\n"
            f"Run '{PROG} COMMAND --help' for the options of a command.\n"
            "Exit status: 0 success, 1 failure (bad input, search error), 2 usage error,\n"
            "130 interrupted (Ctrl-C).\n")


# ---- messages ------------------------------------------------------------------------

class UsageError(Exception):
    """A usage error of one command: "PROG COMMAND: message" and a hint (exit 2)."""

    def __init__(self, command: Optional[str], message: str):
        super().__init__(message)
        self.command = command


class Failure(Exception):
    """A run-time failure, its message already written (exit 1)."""


class _Help(Exception):
    """-h / --help was given."""


def _err(msg: str) -> None:
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def _esc(text: Any) -> str:
    """``text`` for a message (tools/cli.c cli_escaped): bytes 0x21-0x7e as
    they are, any other as \\xHH."""
    data = text if isinstance(text, bytes) else os.fsencode(text)
    return "".join(chr(b) if 0x21 <= b < 0x7f else f"\\x{b:02x}" for b in data)


def _warn(command: str, msg: str) -> None:
    _err(f"{PROG} {command}: warning: {msg}")


def _status(e: BaseException) -> Tuple[str, str]:
    """(gts_strerror, gts_status_name) of a library error."""
    return getattr(e, "message", str(e)), getattr(e, "name", "") or "?"


# ---- option parsing: GNU getopt_long as the C tool uses it ----------------------------

class Opt(NamedTuple):
    name: str          # without "--"
    arg: bool          # takes a value
    key: str           # what it sets (two names may set one thing)


GAME_OPTS = [Opt("seed", True, "seed"), Opt("branching", True, "branching"),
             Opt("tree-depth", True, "tree_depth"), Opt("jitter", True, "jitter"),
             Opt("terminal", True, "terminal"), Opt("ordered", True, "ordered"),
             Opt("transpositions", False, "transpositions"),
             Opt("min-value", True, "min_value"), Opt("max-value", True, "max_value")]
HELP_OPT = Opt("help", False, "help")


def _getopt(command: str, argv: List[str], opts: List[Opt],
            operands: List[str]) -> Iterator[Tuple[str, Optional[str]]]:
    """Yield (key, value) for each option in order, collecting the other
    arguments into ``operands``: ``--name value``, ``--name=value``,
    unambiguous prefixes, ``--`` ends the options, ``-h``. A bad option is
    a UsageError when it is reached, as with getopt_long and ":h"."""
    i = 0
    while i < len(argv):
        a = argv[i]
        i += 1
        if a == "--":
            operands.extend(argv[i:])
            return
        if a.startswith("--"):
            name, eq, value = a[2:].partition("=")
            found = [o for o in opts if o.name == name]
            if not found:
                found = [o for o in opts if o.name.startswith(name)]
                if len({(o.arg, o.key) for o in found}) != 1:
                    raise UsageError(command, f"unknown option '{_esc(a)}'")
            o = found[0]
            if o.arg:
                if not eq:
                    if i >= len(argv):
                        raise UsageError(command, f"option '{_esc(a)}' needs an argument")
                    value = argv[i]
                    i += 1
                yield o.key, value
            elif eq:
                raise UsageError(command, f"unknown option '{_esc(a)}'")
            else:
                yield o.key, None
        elif a.startswith("-") and a != "-":
            for ch in a[1:]:
                if ch != "h":
                    raise UsageError(command, f"unknown option '-{_esc(ch)}'")
                yield "help", None
        else:
            operands.append(a)


_INT = re.compile(r"-?[0-9]+")
_UINT = re.compile(r"[0-9]+")


def _parse_int(text: str, lo: int, hi: int, signed: bool = True) -> Optional[int]:
    """Decimal ASCII digits with a leading '-' only (cli_parse_i64)."""
    if not (_INT if signed else _UINT).fullmatch(text):
        return None
    v = int(text, 10)
    return v if lo <= v <= hi else None


def _int_option(command: str, name: str, text: str, lo: int, hi: int) -> int:
    v = _parse_int(text, lo, hi)
    if v is None:
        raise UsageError(command, f"{name}: expected {lo}..{hi}, got '{_esc(text)}'")
    return v


def _u64_option(command: str, name: str, text: str) -> int:
    v = _parse_int(text, 0, UINT64_MAX, signed=False)
    if v is None:
        raise UsageError(command, f"{name}: expected 0..{UINT64_MAX}, got '{_esc(text)}'")
    return v


def _engine_option(command: str, name: str, option: str, text: str) -> int:
    """Within the library's range of an engine option (gts_option_bounds)."""
    lo, hi, _ = gts.option_bounds(option)
    return _int_option(command, name, text, lo, hi)


# The ranges of gts_randtree_params (gts_games.h).
_TREE_RANGES = {"branching": ("--branching", 1, 64), "tree_depth": ("--tree-depth", 1, 60),
                "jitter": ("--jitter", 0, 63), "terminal": ("--terminal", 0, 100),
                "ordered": ("--ordered", 0, 100), "min_value": ("--min-value", -30000, 30000),
                "max_value": ("--max-value", -30000, 30000)}


def _tree_defaults() -> Dict[str, Any]:
    return {"seed": 1, "branching": 8, "tree_depth": 8, "jitter": 0, "terminal": 0,
            "ordered": 0, "transpositions": False, "min_value": -1000, "max_value": 1000}


def _game_option(tree: Dict[str, Any], key: str, value: Optional[str], command: str) -> bool:
    """cli_game_option: a random-tree option, parsed into ``tree``."""
    if key == "seed":
        tree["seed"] = _u64_option(command, "--seed", value or "")
    elif key == "transpositions":
        tree["transpositions"] = True
    elif key in _TREE_RANGES:
        name, lo, hi = _TREE_RANGES[key]
        tree[key] = _int_option(command, name, value or "", lo, hi)
    else:
        return False
    return True


# ---- SIGINT -------------------------------------------------------------------------------

class _Interrupts:
    """The SIGINT handling of one command (doc/cli.md, "Interrupting"; the C
    tool's cli_sigint_*). While a search registered through _run() runs, the
    first SIGINT stops it and the command finishes normally; at any other
    moment, and at a second SIGINT, stdout is flushed, "PROG COMMAND:
    interrupted" written and the process ends with status 130. The handler
    never raises, so no KeyboardInterrupt can tear through the bindings."""

    def __init__(self) -> None:
        self.command = ""
        self.engine: Optional[gts.Engine] = None
        self.seen = False
        self._previous: Any = None
        self._installed = False

    def install(self, command: str) -> None:
        self.command = command
        if threading.current_thread() is not threading.main_thread():
            return
        previous = signal.getsignal(signal.SIGINT)
        if previous is signal.SIG_IGN:       # a background job: leave it so
            return
        self._previous = previous
        signal.signal(signal.SIGINT, self._handler)
        self._installed = True

    def uninstall(self) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)
            self._installed = False
        self.engine, self.seen = None, False

    def _handler(self, signum: int, frame: Any) -> None:
        engine = self.engine
        if not self.seen and engine is not None:
            self.seen = True
            engine.stop()
            return
        self.exit_now(flush=not self.seen)

    def exit_now(self, flush: bool = True) -> None:
        if flush:
            try:
                sys.stdout.flush()
            except Exception:  # noqa: BLE001 - reentrant flush, closed pipe
                pass
        os.write(2, f"{PROG} {self.command}: interrupted\n".encode())
        os._exit(CLI_INTERRUPTED)


_INTERRUPTS = _Interrupts()


def _run(fn: Callable[[], Any], engine: Optional[gts.Engine] = None) -> Any:
    """fn() in a helper thread, the main thread waiting for it: SIGINT
    handlers run only in the main thread, and only between bytecodes, which
    a thread inside a C search or perft never reaches. With ``engine`` the
    first SIGINT stops the search (again every RESTOP_S until it returns: a
    stop that lands before the search started is ignored by the library);
    without, it ends the process."""
    done = threading.Event()
    box: Dict[str, Any] = {}

    def work() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            box["error"] = e
        finally:
            done.set()

    t = threading.Thread(target=work, name="gts-cli", daemon=True)
    _INTERRUPTS.engine = engine
    try:
        t.start()
        while not done.wait(RESTOP_S if _INTERRUPTS.seen else 0.5):
            if _INTERRUPTS.seen and engine is not None:
                engine.stop()
    finally:
        _INTERRUPTS.engine = None
    t.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def _interrupt_exit(command: str) -> int:
    sys.stdout.flush()
    _err(f"{PROG} {command}: interrupted")
    return CLI_INTERRUPTED


# ---- algorithms and engines -------------------------------------------------------------

def _algorithm(command: str, name: str) -> Tuple[str, Any]:
    """(canonical name, AlgorithmInfo) of --alg NAME, or a usage error."""
    infos = gts.algorithms()
    by_id = {gts.algorithm_id(a.name): a for a in infos}
    try:
        info = by_id[gts.algorithm_id(name)]
    except (gts.GtsError, KeyError, ValueError):
        raise UsageError(command, f"unknown algorithm '{_esc(name)}' (known: "
                                  + ", ".join(a.name for a in infos) + ")") from None
    return info.name, info


def _engine_new(command: str, tt_mb: Optional[int], threads: int) -> gts.Engine:
    """cli_engine_new: a failure here is a run-time failure."""
    try:
        engine = gts.Engine()
    except gts.GtsError as e:
        _err(f"{PROG} {command}: cannot create an engine: {_status(e)[0]}")
        raise Failure() from None
    try:
        if tt_mb is not None:
            _engine_set(command, engine, "tt_mb", tt_mb, "--tt-mb")
        if threads > 0:
            _engine_set(command, engine, "threads", threads, "--threads")
    except Failure:
        engine.close()
        raise
    return engine


def _engine_set(command: str, engine: gts.Engine, option: str, value: int, what: str) -> None:
    try:
        engine.set(option, value)
    except gts.GtsError as e:
        _err(f"{PROG} {command}: cannot set {what} to {value}: {_status(e)[0]}")
        raise Failure() from None


# ---- positions (tools/cli.c, cli_position_new) --------------------------------------------
#
# The games own their rules: libgts-games reads a position text and says why
# it refuses one (gts_games_position_new, through games.position_new), for
# this tool and the C one alike.

class BadPosition(Exception):
    """The reason a position text is refused ("move 3: column 1 is full")."""


#: the random-tree options' keys -> gts_randtree_params' fields
_TREE_FIELDS = {"seed": "seed", "branching": "branching", "tree_depth": "depth",
                "jitter": "branching_jitter", "terminal": "terminal_percent",
                "ordered": "ordered_percent", "transpositions": "transpositions",
                "min_value": "min_value", "max_value": "max_value"}


def position_new(name: str, tree: Dict[str, Any], text: str,
                 solver: bool = False) -> games.BuiltinGame:
    """The game ``name`` ("tictactoe", "connect4", "othello", "chess", "go", "randtree")
    at ``text``; BadPosition says which move is wrong and why."""
    params = {_TREE_FIELDS[k]: v for k, v in tree.items()} if name == "randtree" else None
    try:
        return games.position_new(name, os.fsencode(text), params, solver=solver)
    except gts.GtsError as e:
        why = getattr(e, "why", "")
        if not why:
            why = "not a position of the game" if getattr(e, "name", "") == "EPARSE" \
                else _status(e)[0]
        raise BadPosition(why) from None


def _game_new(command: str, name: str, tree: Dict[str, Any], position: str,
              known: str = GAME_NAMES) -> games.BuiltinGame:
    """cli_game_new (and search_game for connect4_solver)."""
    solver = name == "connect4_solver" and known == SEARCH_GAME_NAMES
    base = "connect4" if solver else name
    if base not in games.GAMES:
        raise UsageError(command, f"unknown game '{_esc(name)}' (known: {known})")
    if base == "randtree":
        if tree["min_value"] > tree["max_value"]:
            raise UsageError(command, "--min-value is above --max-value")
        if tree["jitter"] >= tree["branching"] and tree["jitter"] > 0:
            raise UsageError(command, "--jitter must be below --branching")
    try:
        return position_new(base, tree, position, solver)
    except BadPosition as e:
        raise UsageError(command, f"bad {base} position '{_esc(position)}': {e}") from None


def _format_move(g: games.BuiltinGame, move: Optional[int]) -> str:
    """cli_format_move: "none" for no move, the number if the game cannot."""
    if move is None:
        return "none"
    try:
        return g.format_move(move)
    except gts.GtsError:
        return str(move)


def _pv_moves(g: games.BuiltinGame, pv: List[int]) -> List[str]:
    """Each move of ``pv`` formatted in its own position (on a copy: this may
    run from a progress callback while the search owns ``g``)."""
    out: List[str] = []
    with g.clone() as line:
        for i, m in enumerate(pv):
            out.append(_format_move(line, m))
            if i + 1 < len(pv):
                try:
                    line.play(m)
                except gts.GtsError:
                    break
    return out


# ---- output -------------------------------------------------------------------------------

def _json_str(s: str) -> str:
    """cli_json_string."""
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


class _Out:
    """One output, text ("key value" lines) or JSON (one object): the same
    keys in the same order (cmd_search.c, struct out)."""

    def __init__(self, fmt: str):
        self.fmt = fmt
        self.parts: List[str] = []

    def field(self, key: str, text: str, json_value: str) -> None:
        if self.fmt == "json":
            self.parts.append(f"{',' if self.parts else '{'}\n  {_json_str(key)}: {json_value}")
        else:
            self.parts.append(f"{key:<{KEY_WIDTH}} {text}\n")

    def text(self) -> str:
        if self.fmt == "json":
            return "".join(self.parts) + "\n}\n"
        return "".join(self.parts)


def _score_text(s: int) -> str:
    if gts.score_is_win(s):
        return f"{s} (win in {gts.score_plies_to_end(s)} plies)"
    if gts.score_is_loss(s):
        return f"{s} (loss in {gts.score_plies_to_end(s)} plies)"
    return str(s)


def _stop_reason(flags) -> str:
    for flag, text in (("time_limit", "time-limit"), ("node_limit", "node-limit"),
                       ("stopped", "stopped")):
        if flag in flags:
            return text
    return "none"


def _time_us(r: Any) -> int:
    return round(r.time_s * 1e6)


def _nps(nodes: int, time_us: int) -> str:
    return f"{nodes * 1e6 / time_us if time_us else 0.0:.0f}"


def _result_text(fmt: str, game_name: str, position: str, alg: str, g: games.BuiltinGame,
                 r: Any, hashfull: int) -> str:
    o = _Out(fmt)
    best = _format_move(g, r.best_move) if r.best_move is not None else None
    bound = ("lower" if "lower_bound" in r.flags else
             "upper" if "upper_bound" in r.flags else "exact")
    pv = _pv_moves(g, r.pv)
    st = r.stats
    tus = _time_us(r)
    tn = list(st["thread_nodes"])[:256]
    o.field("game", game_name, _json_str(game_name))
    o.field("position", position or "(start)", _json_str(position))
    o.field("algorithm", alg, _json_str(alg))
    o.field("bestmove", best or "none", _json_str(best) if best is not None else "null")
    o.field("score", _score_text(r.score), str(r.score))
    o.field("bound", bound, _json_str(bound))
    o.field("pv", " ".join(pv) or "none", "[" + ", ".join(_json_str(m) for m in pv) + "]")
    for key, value in (("depth", r.depth), ("seldepth", r.seldepth), ("nodes", r.nodes),
                       ("tt_probes", st["tt_probes"]), ("tt_hits", st["tt_hits"]),
                       ("tt_cutoffs", st["tt_cutoffs"]), ("time_us", tus)):
        o.field(key, str(value), str(value))
    o.field("nps", _nps(r.nodes, tus), _nps(r.nodes, tus))
    for key in ("threads", "nodes_mandatory", "nodes_speculative", "nodes_wasted"):
        o.field(key, str(st[key]), str(st[key]))
    o.field("thread_nodes", " ".join(map(str, tn)) or "none",
            "[" + ", ".join(map(str, tn)) + "]")
    stop = _stop_reason(r.flags)
    o.field("stop", stop, _json_str(stop))
    o.field("hashfull", str(hashfull), str(hashfull))
    return o.text()


# ---- search -------------------------------------------------------------------------------

SEARCH_OPTS = [Opt("alg", True, "alg"), Opt("depth", True, "depth"),
               Opt("threads", True, "threads"), Opt("tt-mb", True, "tt_mb"),
               Opt("time-ms", True, "time_ms"), Opt("nodes", True, "nodes"),
               Opt("aspiration", True, "aspiration"), Opt("playouts", True, "playouts"),
               Opt("null-move", True, "null_move"), Opt("lmr", True, "lmr"),
               Opt("futility", True, "futility"), Opt("razor", True, "razor"),
               Opt("lmp", True, "lmp"), Opt("contempt", True, "contempt"),
               Opt("format", True, "format"), Opt("quiet", False, "quiet"),
               HELP_OPT] + GAME_OPTS

#: The selective search options of `search` (issue 32): engine option names.
SELECTIVE_OPTIONS = ("null_move", "lmr", "futility", "razor", "lmp", "contempt")


def cmd_search(argv: List[str]) -> int:
    tree = _tree_defaults()
    alg_name, depth, threads, tt_mb, asp = "pvs", None, 1, None, None
    time_ms = nodes = playouts = 0
    fmt, quiet = "text", False
    selective: Dict[str, int] = {}
    operands: List[str] = []
    for key, value in _getopt("search", argv, SEARCH_OPTS, operands):
        if _game_option(tree, key, value, "search"):
            continue
        if key == "help":
            raise _Help(_with_prog(_SEARCH_USAGE))
        if key == "alg":
            alg_name = value
        elif key == "depth":
            depth = _int_option("search", "--depth", value, 1, gts.MAX_DEPTH)
        elif key == "threads":
            threads = _engine_option("search", "--threads", "threads", value)
        elif key == "tt_mb":
            tt_mb = _engine_option("search", "--tt-mb", "tt_mb", value)
        elif key == "time_ms":
            time_ms = _u64_option("search", "--time-ms", value)
        elif key == "nodes":
            nodes = _u64_option("search", "--nodes", value)
        elif key == "aspiration":
            asp = _engine_option("search", "--aspiration", "aspiration", value)
        elif key == "playouts":  # 0 would mean no budget: not a number of playouts
            playouts = _int_option("search", "--playouts", value, 1, 1 << 62)
        elif key in SELECTIVE_OPTIONS:
            flag = "--" + key.replace("_", "-")
            selective[key] = _engine_option("search", flag, key, value)
        elif key == "format":
            if value not in ("text", "json"):
                raise UsageError("search", f"--format: expected text or json, got '{_esc(value)}'")
            fmt = value
        elif key == "quiet":
            quiet = True
    if not operands:
        raise UsageError("search", f"missing GAME ({SEARCH_GAME_NAMES})")
    game_name = operands[0]
    position = operands[1] if len(operands) > 1 else ""
    if len(operands) > 2:
        raise UsageError("search", f"unexpected argument '{_esc(operands[2])}'")
    alg, info = _algorithm("search", alg_name)
    game = _game_new("search", game_name, tree, position, SEARCH_GAME_NAMES)
    with game:
        if threads > 1 and not info.parallel:
            _warn("search", f"--threads {threads} has no effect: '{alg}' is a serial "
                            "algorithm")
        if playouts and alg != "mcts":
            # An option without effect changes nothing else: the default
            # depth stays (a playout budget alone leaves the depth open).
            _warn("search", f"--playouts {playouts} has no effect: '{alg}' is not a "
                            "Monte-Carlo search")
            playouts = 0
        if depth is None:
            depth = None if (time_ms or nodes or playouts) else DEFAULT_DEPTH.get(game_name,
                                                                      tree["tree_depth"])
        engine = _engine_new("search", tt_mb, threads)
        try:
            if asp is not None:
                _engine_set("search", engine, "aspiration", asp, "--aspiration")
            if playouts:
                _engine_set("search", engine, "mcts_playouts", playouts, "--playouts")
            for key in SELECTIVE_OPTIONS:  # in the C tool's order
                if key in selective:
                    _engine_set("search", engine, key, selective[key],
                                "--" + key.replace("_", "-"))

            def progress(r: Any) -> None:
                tus = _time_us(r)
                pv = " ".join(_pv_moves(game, r.pv)) or "none"
                _err(f"info depth {r.depth} score {r.score} nodes {r.nodes} time_us {tus} "
                     f"nps {_nps(r.nodes, tus)} pv {pv}")

            try:
                r = _run(lambda: engine.search(game, alg, depth, time_ms=time_ms or None,
                                               nodes=nodes or None,
                                               on_iteration=None if quiet else progress),
                         engine)
            except gts.GtsError as e:
                msg, name = _status(e)
                _err(f"{PROG} search: search failed: {msg} ({name})")
                m = re.search(r"callback status (-?\d+)", getattr(e, "detail", None) or "")
                if name == "ECALLBACK" and m:
                    _err(f"{PROG} search: the game callback returned {m.group(1)}")
                return _interrupt_exit("search") if _INTERRUPTS.seen else CLI_FAIL
            sys.stdout.write(_result_text(fmt, game_name, position, alg, game, r,
                                          engine.hashfull()))
            sys.stdout.flush()
        finally:
            engine.close()
    return _interrupt_exit("search") if _INTERRUPTS.seen else CLI_OK


# ---- perft --------------------------------------------------------------------------------

PERFT_OPTS = [Opt("divide", False, "divide"), Opt("depth", True, "tree_depth"),
              HELP_OPT] + GAME_OPTS


def _parse_int_list(text: str, lo: int, hi: int, cap: int) -> Optional[List[int]]:
    """cli_parse_int_list: "1,2,4", "1-8", "1-8,12"; at most ``cap`` values."""
    out: List[int] = []
    for part in text.split(","):
        m = re.fullmatch(r"([0-9]+)(?:-([0-9]+))?", part)
        if not m:
            return None
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) is not None else a
        if a < lo or b > hi or a > b or len(out) + b - a + 1 > cap:
            return None
        out.extend(range(a, b + 1))
    return out


def cmd_perft(argv: List[str]) -> int:
    tree = _tree_defaults()
    divide = False
    operands: List[str] = []
    for key, value in _getopt("perft", argv, PERFT_OPTS, operands):
        if _game_option(tree, key, value, "perft"):
            continue
        if key == "help":
            raise _Help(_with_prog(_PERFT_USAGE))
        if key == "divide":
            divide = True
    if len(operands) < 2:
        raise UsageError("perft", "expected GAME DEPTH [POSITION]")
    depths = _parse_int_list(operands[1], 0, gts.MAX_DEPTH, gts.MAX_DEPTH + 1)
    if not depths:
        raise UsageError("perft", f"DEPTH: expected 0..{gts.MAX_DEPTH}, a list such as 2,4 or "
                                  f"a range such as 1-6 (at most {gts.MAX_DEPTH + 1} depths), "
                                  f"got '{_esc(operands[1])}'")
    position = operands[2] if len(operands) > 2 else ""
    if len(operands) > 3:
        raise UsageError("perft", f"unexpected argument '{_esc(operands[3])}'")
    game = _game_new("perft", operands[0], tree, position)

    def perft(d: int) -> int:
        try:
            return _run(lambda: game.perft(d))
        except gts.GtsError as e:
            msg, name = _status(e)
            _err(f"{PROG} perft: perft({d}) failed: {msg} ({name})")
            raise Failure() from None

    with game:
        for d in depths:
            if divide and d > 0:
                for m in game.moves():
                    mv = _format_move(game, m)
                    try:
                        game.play(m)
                    except gts.GtsError:
                        _err(f"{PROG} perft: move {mv} could not be played")
                        raise Failure() from None
                    try:
                        cnt = perft(d - 1)
                    finally:
                        game.undo(m)
                    sys.stdout.write(f"  {mv}: {cnt}\n")
                sys.stdout.flush()
            t0 = time.monotonic_ns() // 1000
            count = perft(d)
            s = (time.monotonic_ns() // 1000 - t0) / 1e6
            rate = count / s / 1e6 if s > 0 else 0.0
            sys.stdout.write(f"perft({d}) = {count}  ({s:.3f} s, {rate:.2f} M leaves/s)\n")
            sys.stdout.flush()
    return CLI_OK


# ---- solve --------------------------------------------------------------------------------

SOLVE_OPTS = [Opt("alg", True, "alg"), Opt("threads", True, "threads"),
              Opt("tt-mb", True, "tt_mb"), Opt("stats", False, "stats"),
              Opt("check", False, "check"), Opt("iterative", False, "iterative"),
              Opt("no-iterative", False, "no_iterative"), Opt("root", True, "root"),
              Opt("no-bounds", False, "no_bounds"), Opt("no-prefetch", False, "no_prefetch"),
              Opt("deepen", True, "deepen"), Opt("split-ply", True, "split_ply"),
              Opt("tt-near", True, "tt_near"), Opt("tt-near-kb", True, "tt_near_kb"), HELP_OPT]


class _WithoutBounds:
    """A built-in game seen through a copy of its vtable without the bounds
    callback (solve --no-bounds; cmd_solve.c does the same in C)."""

    def __init__(self, game: games.BuiltinGame):
        self.game = game
        vt, _ = game._gts_vtable_and_state()
        size = ctypes.c_size_t.from_address(vt).value        # gts_game.struct_size
        self._vtable = ctypes.create_string_buffer(ctypes.string_at(vt, size), size)
        offset = type(game.vtable).bounds.offset
        if offset + ctypes.sizeof(ctypes.c_void_p) <= size:
            ctypes.memset(ctypes.addressof(self._vtable) + offset, 0,
                          ctypes.sizeof(ctypes.c_void_p))

    def _gts_vtable_and_state(self):
        return ctypes.addressof(self._vtable), self.game._gts_vtable_and_state()[1]


def _trim(line: bytes) -> bytes:
    """cmd_solve.c trim(): blanks, CR and LF at the end, blanks at the start."""
    return line.rstrip(b" \t\r\n").lstrip(b" \t")


def cmd_solve(argv: List[str]) -> int:
    alg_name, threads, tt_mb = SOLVE_DEFAULT_ALG, 1, SOLVE_DEFAULT_TT_MB
    stats = check = iterative = no_bounds = no_prefetch = False
    root = ROOT_DRIVERS["window"]
    deepen = SOLVE_DEFAULT_DEEPEN
    split_ply = SOLVE_DEFAULT_SPLIT_PLY
    tt_near, tt_near_kb = None, SOLVE_DEFAULT_TT_NEAR_KB
    operands: List[str] = []
    for key, value in _getopt("solve", argv, SOLVE_OPTS, operands):
        if key == "help":
            raise _Help(_with_prog(_SOLVE_USAGE))
        if key == "alg":
            alg_name = value
        elif key == "threads":
            threads = _engine_option("solve", "--threads", "threads", value)
        elif key == "tt_mb":
            tt_mb = _engine_option("solve", "--tt-mb", "tt_mb", value)
        elif key == "deepen":
            deepen = _engine_option("solve", "--deepen", "deepen_nodes", value)
        elif key == "split_ply":
            split_ply = _engine_option("solve", "--split-ply", "split_ply", value)
        elif key == "tt_near":
            tt_near = _engine_option("solve", "--tt-near", "tt_near_depth", value)
        elif key == "tt_near_kb":
            tt_near_kb = _engine_option("solve", "--tt-near-kb", "tt_near_kb", value)
        elif key in ("stats", "check", "no_bounds", "no_prefetch"):
            stats, check = stats or key == "stats", check or key == "check"
            no_bounds = no_bounds or key == "no_bounds"
            no_prefetch = no_prefetch or key == "no_prefetch"
        elif key in ("iterative", "no_iterative"):
            iterative = key == "iterative"
        elif key == "root":
            if value not in ROOT_DRIVERS:
                raise UsageError("solve", "--root: expected window, bisect or mtdf, got "
                                          f"'{_esc(value)}'")
            root = ROOT_DRIVERS[value]
    if not operands:
        raise UsageError("solve", "missing GAME (only connect4 can be solved)")
    if operands[0] != "connect4":
        raise UsageError("solve", f"cannot solve '{_esc(operands[0])}': only connect4 is "
                                  "supported")
    if len(operands) > 1:
        raise UsageError("solve", f"unexpected argument '{_esc(operands[1])}' (positions are "
                                  "read from stdin)")
    alg, info = _algorithm("solve", alg_name)
    if not info.exact:
        raise UsageError("solve", f"algorithm '{alg}' is not exact: solving needs an exact "
                                  f"one (see '{PROG} algorithms')")
    if tt_near is None:  # not given
        parallel = threads > 1 and info.parallel
        tt_near = SOLVE_DEFAULT_TT_NEAR_PARALLEL if parallel else SOLVE_DEFAULT_TT_NEAR
    if threads > 1 and not info.parallel:
        _warn("solve", f"--threads {threads} has no effect: '{alg}' is a serial algorithm")

    engine = _engine_new("solve", tt_mb, threads)
    try:
        if not iterative:
            _engine_set("solve", engine, "iterative", 0, "iterative")
        _engine_set("solve", engine, "root_driver", root, "root_driver")
        _engine_set("solve", engine, "tt_prefetch", 0 if no_prefetch else 1, "tt_prefetch")
        _engine_set("solve", engine, "deepen_nodes", deepen, "deepen_nodes")
        _engine_set("solve", engine, "split_ply", split_ply, "split_ply")
        _engine_set("solve", engine, "tt_near_depth", tt_near, "tt_near_depth")
        _engine_set("solve", engine, "tt_near_kb", tt_near_kb, "tt_near_kb")
        status = _solve_lines(engine, alg, stats, check, no_bounds)
    finally:
        engine.close()
    return status


def _solve_one(engine: gts.Engine, alg: str, game: Any, stones: int, lineno: int) -> Any:
    """One position, exactly (cmd_solve.c solve_one); None after an error."""
    empty = C4_CELLS - stones
    depth = empty if empty > 0 else 1
    alpha = -((C4_CELLS - stones) // 2) - 1
    beta = (C4_CELLS + 1 - stones) // 2 + 1
    try:
        r = _run(lambda: engine.search(game, alg, depth, alpha=alpha, beta=beta), engine)
    except gts.GtsError as e:
        if not _INTERRUPTS.seen:
            _err(f"{PROG} solve: line {lineno}: search failed: {_status(e)[0]}")
        return None
    if _INTERRUPTS.seen:
        return None
    # Short of the full depth only when the value was decided early (a win
    # or a loss: Connect-4 scores by distance).
    if r.flags & {"stopped", "node_limit", "time_limit"} or (
            r.depth != depth and r.best_move is not None and r.score == 0):
        _err(f"{PROG} solve: line {lineno}: search stopped at depth {r.depth} of {depth}")
        return None
    if not r.exact:
        _err(f"{PROG} solve: line {lineno}: the library returned a bound ({r.score}), not "
             "a value")
        return None
    return r


def _solve_lines(engine: gts.Engine, alg: str, stats: bool, check: bool,
                 no_bounds: bool) -> int:
    stdin = sys.stdin.buffer
    lineno = errors = 0
    # Blank lines are errors, except at the very end of the input: they are
    # only reported once a non-blank line follows them.
    blank_first = blank_count = 0
    read_error: Optional[OSError] = None
    while True:
        try:
            raw = stdin.readline()
        except OSError as e:            # as getline() failing: stdin not readable
            read_error = e
            break
        if not raw:
            break
        lineno += 1
        if not raw.strip(b" \t\r\n"):
            if blank_count == 0:
                blank_first = lineno
            blank_count += 1
            continue
        for k in range(blank_count):
            _err(f"{PROG} solve: line {blank_first + k}: empty line (expected a position "
                 "such as 4453)")
            errors += 1
        blank_count = 0
        if len(raw) > SOLVE_MAX_LINE:
            _err(f"{PROG} solve: line {lineno}: too long: {len(raw)} characters")
            errors += 1
            continue
        if b"\0" in raw:
            _err(f"{PROG} solve: line {lineno}: bad character: NUL byte")
            errors += 1
            continue
        pos = _trim(raw)
        expected = None
        if check:
            m = re.search(rb"[ \t]", pos)
            expected = None if m is None else \
                _parse_int(pos[m.end():].lstrip(b" \t").decode("latin-1"), INT32_MIN, INT32_MAX)
            if expected is None:
                _err(f'{PROG} solve: line {lineno}: expected "POSITION SCORE" with --check')
                errors += 1
                continue
            pos = pos[:m.start()]
        text = pos.decode("latin-1")
        try:
            if not pos:
                raise BadPosition("empty line (expected a position such as 4453)")
            game = position_new("connect4", {}, os.fsdecode(pos), solver=True)
        except BadPosition as e:
            _err(f"{PROG} solve: line {lineno}: {e}")
            errors += 1
            continue
        with game:
            t0 = time.monotonic_ns() // 1000
            r = _solve_one(engine, alg, _WithoutBounds(game) if no_bounds else game,
                           len(pos), lineno)
            us = time.monotonic_ns() // 1000 - t0
        if _INTERRUPTS.seen:
            break
        if r is None:
            errors += 1
            continue
        sys.stdout.write(f"{text} {r.score} {r.nodes} {us}\n" if stats else
                         f"{text} {r.score}\n")
        sys.stdout.flush()
        if expected is not None and r.score != expected:
            _err(f"{PROG} solve: line {lineno}: {text} scores {r.score}, expected {expected}")
            errors += 1
    if _INTERRUPTS.seen:
        return _interrupt_exit("solve")
    if read_error is not None:
        _err(f"{PROG} solve: cannot read stdin: {read_error.strerror or 'read error'}")
        return CLI_FAIL
    if errors:
        _err(f"{PROG} solve: {errors} of {lineno} line{'' if lineno == 1 else 's'} failed")
        return CLI_FAIL
    return CLI_OK


# ---- algorithms ---------------------------------------------------------------------------

class _Cell(NamedTuple):
    text: str
    number: bool = False   # unquoted in JSON, right-aligned in text


def _table(title: str, cols: List[str], rows: List[List[_Cell]], fmt: str,
           command: str) -> str:
    """cli_table_print (tools/cli.c): text, csv or json."""
    out: List[str] = []
    if fmt == "csv":
        def field(s: str) -> str:
            return '"' + s.replace('"', '""') + '"' if any(c in s for c in ',"\n') else s
        out.append(",".join(field(c) for c in cols) + "\n")
        for row in rows:
            out.append(",".join(field(c.text) for c in row) + "\n")
    elif fmt == "json":
        out.append(f'{{\n  "tool": "gts",\n  "version": {_json_str(gts.library_version())},\n'
                   f'  "command": {_json_str(command)},\n  "title": {_json_str(title)},\n'
                   '  "rows": [')
        for i, row in enumerate(rows):
            cells = ", ".join(f"{_json_str(c)}: {v.text if v.number else _json_str(v.text)}"
                              for c, v in zip(cols, row))
            out.append(f'{"," if i else ""}\n    {{{cells}}}')
        out.append(f'{chr(10) + "  " if rows else ""}],\n  "notes": []\n}}\n')
    else:
        w = [max([len(c)] + [len(r[k].text) for r in rows]) for k, c in enumerate(cols)]
        if title:
            out.append(title + "\n")
        out.append("  ".join(f"{c:<{w[k]}}" for k, c in enumerate(cols)) + "\n")
        out.append("  ".join("-" * w[k] for k in range(len(cols))) + "\n")
        for row in rows:
            cells = []
            for k, c in enumerate(row):
                if c.number:
                    cells.append(f"{c.text:>{w[k]}}")
                elif k == len(cols) - 1:
                    cells.append(c.text)
                else:
                    cells.append(f"{c.text:<{w[k]}}")
            out.append("  ".join(cells) + "\n")
    return "".join(out)


def cmd_algorithms(argv: List[str]) -> int:
    fmt = "text"
    operands: List[str] = []
    for key, value in _getopt("algorithms", argv, [Opt("format", True, "format"), HELP_OPT],
                              operands):
        if key == "help":
            raise _Help(_with_prog(_ALGORITHMS_USAGE))
        if value not in ("text", "csv", "json"):
            raise UsageError("algorithms",
                             f"--format: expected text, csv or json, got '{_esc(value)}'")
        fmt = value
    if operands:
        raise UsageError("algorithms", f"unexpected argument '{_esc(operands[0])}'")
    rows = []
    for a in gts.algorithms():
        yes_no = (lambda b: _Cell("true" if b else "false", True)) if fmt == "json" else \
            (lambda b: _Cell("yes" if b else "no"))
        rows.append([_Cell(a.name), yes_no(a.exact), yes_no(a.parallel),
                     _Cell(str(gts.algorithm_id(a.name)), True)])
    sys.stdout.write(_table("", ["name", "exact", "parallel", "id"], rows, fmt, "algorithms"))
    sys.stdout.flush()
    return CLI_OK


# ---- main ---------------------------------------------------------------------------------

COMMANDS: Dict[str, Callable[[List[str]], int]] = {
    "solve": cmd_solve, "search": cmd_search, "perft": cmd_perft, "algorithms": cmd_algorithms,
}


def main(argv: Optional[List[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        _usage(sys.stderr)
        return CLI_USAGE
    cmd = args[0]
    if cmd in ("--help", "-h", "help"):
        if len(args) > 1 and cmd == "help":
            if args[1] in COMMANDS:
                return main([args[1], "--help"])
            return _report(UsageError(None, f"unknown command '{_esc(args[1])}'"))
        _usage(sys.stdout)
        return CLI_OK
    if cmd in ("--version", "-V"):
        print(f"gts (python) {gts.__version__} (libgts {gts.library_version()} at "
              f"{gts.LIBRARY_PATH})")
        return CLI_OK
    if cmd not in COMMANDS:
        what = "option" if cmd.startswith("-") else "command"
        extra = " (bench, speedup and nodes are in the C tool gts only)" \
            if cmd in C_ONLY_COMMANDS else ""
        _err(f"{PROG}: unknown {what} '{_esc(cmd)}'{extra}\n")
        _usage(sys.stderr)
        return CLI_USAGE
    _INTERRUPTS.install(cmd)
    try:
        return COMMANDS[cmd](args[1:])
    except _Help as h:
        sys.stdout.write(str(h.args[0]))
        sys.stdout.flush()
        return CLI_OK
    except UsageError as e:
        return _report(e)
    except Failure:
        return CLI_FAIL
    except MemoryError:                  # cli_oom()
        _err(f"{PROG} {cmd}: out of memory")
        return CLI_FAIL
    except KeyboardInterrupt:            # only when our handler is not installed
        return _interrupt_exit(cmd)
    except BrokenPipeError:
        # stdout closed early (| head): end quietly, as the C tool does.
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return CLI_FAIL
    finally:
        _INTERRUPTS.uninstall()


def _report(e: UsageError) -> int:
    where = f"{PROG} {e.command}" if e.command else PROG
    _err(f"{where}: {e}")
    _err(f"Try '{where} --help' for more information.")
    return CLI_USAGE
