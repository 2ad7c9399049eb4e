"""``python3 -m gts``: the ``gts`` command line (tools/gts.c) for the
built-in games, written in Python over the bindings. Same commands, options,
output and exit statuses (0 success, 1 run-time failure, 2 usage error) for
``search``, ``perft``, ``solve`` and ``algorithms``; the benchmarking
commands of the C tool (bench, speedup, nodes) are not mirrored.

    python3 -m gts search connect4 4453 --alg pvs --depth 8
    python3 -m gts perft othello 1-6
    echo 2252576253462244111563365343671351441 | python3 -m gts solve connect4 --stats
    python3 -m gts algorithms --format json

A search runs in a helper thread so that Ctrl-C stops it cleanly (the
engine returns its last completed iteration).
"""
from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from typing import Any, Dict, List, Optional

import gts
from gts import games

PROG = "gts"
GAME_NAMES = "tictactoe, connect4, othello, randtree"
SEARCH_GAMES = ("tictactoe", "connect4", "connect4_solver", "othello", "randtree")
DEFAULT_DEPTH = {"tictactoe": 9, "connect4": 12, "connect4_solver": 12, "othello": 8}
SOLVE_DEFAULT_TT_MB = 64
C4_CELLS = 42

CLI_OK, CLI_FAIL, CLI_USAGE = 0, 1, 2


class UsageError(Exception):
    """A usage error of one command (exit status 2)."""

    def __init__(self, command: Optional[str], message: str):
        super().__init__(message)
        self.command = command


class Failure(Exception):
    """A run-time failure already worth one message (exit status 1)."""


def _err(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---- argument parsing -----------------------------------------------------------

class _Parser(argparse.ArgumentParser):
    """argparse with the C tool's usage-error format and status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(getattr(self, "command", None), message)


def _int_range(lo: int, hi: int, what: str):
    def parse(text: str) -> int:
        try:
            v = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {lo}..{hi}, got '{text}'") from None
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"expected {lo}..{hi}, got '{text}'")
        return v
    parse.__name__ = what
    return parse


def _uint(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"not a number: '{text}'")
    return int(text)


def _add_tree_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("random-tree options (GAME randtree)")
    g.add_argument("--seed", type=_uint, default=1, help="tree seed (default 1)")
    g.add_argument("--branching", type=_int_range(1, 64, "branching"), default=8,
                   help="children per interior node, 1..64 (default 8)")
    g.add_argument("--tree-depth", type=_int_range(1, 60, "tree-depth"), default=8,
                   help="depth of the tree, 1..60 (default 8)")
    g.add_argument("--jitter", type=_int_range(0, 63, "jitter"), default=0,
                   help="branching varies in B-K..B (default 0)")
    g.add_argument("--terminal", type=_int_range(0, 100, "terminal"), default=0,
                   help="percent chance an interior node is a leaf (default 0)")
    g.add_argument("--ordered", type=_int_range(0, 100, "ordered"), default=0,
                   help="percent chance the first child is best (default 0)")
    g.add_argument("--transpositions", action="store_true", help="share subtrees between paths")
    g.add_argument("--min-value", type=_int_range(-30000, 30000, "min-value"), default=-1000)
    g.add_argument("--max-value", type=_int_range(-30000, 30000, "max-value"), default=1000,
                   help="leaf value range (default -1000..1000)")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="python3 -m gts",
        description=f"Game tree search from the command line, with libgts "
                    f"{gts.library_version()} (Python bindings).",
        epilog=f"Games: {GAME_NAMES}. Run 'python3 -m gts COMMAND --help' for the options "
               "of a command. Exit status: 0 success, 1 failure (bad input, search error), "
               "2 usage error.")
    p.add_argument("--version", "-V", action="store_true", help="print the versions and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    s = sub.add_parser(
        "search", help="search a position of a built-in game with one algorithm",
        description="Search POSITION (default: the start) of GAME and print the best move, "
                    "the score, the principal variation and the statistics of the search. A "
                    "progress line per completed iteration goes to stderr (unless --quiet).",
        epilog='Positions: tictactoe cells 1-9 played in order ("519"); connect4 1-based '
               'columns ("4453"); othello squares ("f5d6c3", "ps" = pass); randtree a '
               'comma-separated list of child indices ("0,3,1").')
    s.command = "search"
    s.add_argument("game", metavar="GAME", help=", ".join(SEARCH_GAMES))
    s.add_argument("position", metavar="POSITION", nargs="?", default="")
    s.add_argument("--alg", default="pvs", metavar="NAME",
                   help="algorithm (default pvs; see 'algorithms')")
    s.add_argument("--depth", type=_int_range(1, gts.MAX_DEPTH, "depth"), default=None,
                   metavar="D", help="depth in plies (default: tictactoe 9, connect4 12, "
                   "othello 8, randtree its tree depth; unlimited with --time-ms/--nodes)")
    s.add_argument("--threads", type=_int_range(1, 256, "threads"), default=1, metavar="N",
                   help="worker threads of a parallel algorithm (default 1)")
    s.add_argument("--tt-mb", type=_int_range(0, 2 ** 31 - 1, "tt-mb"), default=None,
                   metavar="M", help="transposition table in MiB (default 16, 0 = none)")
    s.add_argument("--time-ms", type=_uint, default=0, metavar="T",
                   help="stop after T milliseconds")
    s.add_argument("--nodes", type=_uint, default=0, metavar="N", help="stop after about N nodes")
    s.add_argument("--aspiration", type=_int_range(0, gts.SCORE_INF, "aspiration"),
                   default=None, metavar="W",
                   help="aspiration window half-width (default 0 = full window)")
    s.add_argument("--format", choices=("text", "json"), default="text",
                   help="text (default) or json")
    s.add_argument("--quiet", action="store_true", help="no progress lines")
    _add_tree_options(s)
    s.set_defaults(func=cmd_search)

    f = sub.add_parser(
        "perft", help="count the leaf paths of a game tree to a depth",
        description="Count the leaf paths DEPTH plies below POSITION (default: the start) "
                    "with the game's generate/apply/undo; a finished game before DEPTH counts "
                    "as one leaf. DEPTH may be a list or range (\"1-9\"): one line per depth. "
                    "Prints \"perft(DEPTH) = COUNT\" with the time taken.")
    f.command = "perft"
    f.add_argument("game", metavar="GAME")
    f.add_argument("depths", metavar="DEPTH")
    f.add_argument("position", metavar="POSITION", nargs="?", default="")
    f.add_argument("--divide", action="store_true",
                   help="also print the count below each move of the position")
    _add_tree_options(f)
    f.add_argument("--depth", type=_int_range(1, 60, "depth"), dest="tree_depth",
                   help="(randtree) depth of the tree, as --tree-depth")
    f.set_defaults(func=cmd_perft)

    v = sub.add_parser(
        "solve", help="solve Connect-4 positions read from stdin exactly",
        description="Read Connect-4 positions from stdin, one per line, as the 1-based "
                    "columns played from the empty board (\"4453\"), and print \"POSITION "
                    "SCORE\" for each. The score is exact: positive when the side to move "
                    "wins, (43 - n) / 2 where n is the number of stones before its winning "
                    "stone; negative when it loses; 0 for a draw.",
        epilog="A malformed line is reported on stderr with its line number; the other lines "
               "are still answered and the exit status is 1.")
    v.command = "solve"
    v.add_argument("game", metavar="GAME", help="connect4")
    v.add_argument("--alg", default="pvs", metavar="NAME",
                   help="exact algorithm (default: pvs; see 'algorithms')")
    v.add_argument("--threads", type=_int_range(1, 256, "threads"), default=1, metavar="N",
                   help="worker threads of a parallel algorithm (default 1)")
    v.add_argument("--tt-mb", type=_int_range(0, 2 ** 31 - 1, "tt-mb"),
                   default=SOLVE_DEFAULT_TT_MB, metavar="M",
                   help=f"transposition table size in MiB (default {SOLVE_DEFAULT_TT_MB})")
    v.add_argument("--stats", action="store_true",
                   help="append the nodes searched and the microseconds taken")
    v.add_argument("--check", action="store_true",
                   help='lines are "POSITION EXPECTED": a different score is an error')
    v.add_argument("--no-iterative", action="store_true",
                   help="search the full depth at once (no iterative deepening)")
    v.add_argument("--bisect", action="store_true",
                   help="null-window bisection of the score range")
    v.set_defaults(func=cmd_solve)

    a = sub.add_parser("algorithms", help="list the search algorithms and their properties",
                       description="List the search algorithms of the library: the name "
                                   "accepted by --alg, whether it is exact and whether it is "
                                   "parallel (uses --threads).")
    a.command = "algorithms"
    a.add_argument("--format", choices=("text", "csv", "json"), default="text")
    a.set_defaults(func=cmd_algorithms)
    return p


# ---- helpers ------------------------------------------------------------------------

def _algorithm(command: str, name: str) -> str:
    names = [x.name for x in gts.algorithms()]
    try:
        gts.algorithm_id(name)
    except gts.UnknownAlgorithm:
        raise UsageError(None, f"{PROG} {command}: unknown algorithm '{name}'; known: "
                         + " ".join(names)) from None
    return name


def _new_game(command: str, args: argparse.Namespace, name: str,
              position: str) -> games.BuiltinGame:
    """The game of the command line (the C tool's cli_game_new)."""
    try:
        if name in ("connect4", "connect4_solver"):
            return games.Connect4(position, solver=name == "connect4_solver")
        if name == "tictactoe":
            return games.TicTacToe(position)
        if name == "othello":
            return games.Othello(position)
        if name == "randtree":
            if args.min_value > args.max_value:
                raise UsageError(command, "--min-value is above --max-value")
            if 0 < args.branching <= args.jitter:
                raise UsageError(command, "--jitter must be below --branching")
            tree = games.RandomTree(seed=args.seed, branching=args.branching,
                                    depth=args.tree_depth, min_value=args.min_value,
                                    max_value=args.max_value, branching_jitter=args.jitter,
                                    terminal_percent=args.terminal,
                                    transpositions=args.transpositions,
                                    ordered_percent=args.ordered)
            for k, tok in enumerate(t for t in position.split(",") if t):
                try:
                    tree.play(tok)
                except gts.GtsError:
                    tree.close()
                    raise UsageError(None, f"{PROG} {command}: position: move {k + 1} '{tok}' "
                                           "is not legal here") from None
            return tree
    except gts.GtsError as e:
        raise UsageError(None, f"{PROG} {command}: bad {name} position '{position}': "
                               f"{e.message}") from None
    raise UsageError(command, f"unknown game '{name}' (known: {GAME_NAMES})")


def _interruptible(engine: gts.Engine, fn, *a, **kw):
    """Run fn in a helper thread; Ctrl-C stops the engine instead of killing us."""
    box: Dict[str, Any] = {}

    def run() -> None:
        try:
            box["result"] = fn(*a, **kw)
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            box["error"] = e

    t = threading.Thread(target=run, name="gts-search", daemon=True)
    t.start()
    while t.is_alive():
        try:
            t.join(0.1)
        except KeyboardInterrupt:
            engine.stop()
    if "error" in box:
        raise box["error"]
    return box["result"]


def _pv_text(game: games.BuiltinGame, pv: List[int]) -> str:
    """The PV as text, each move formatted in its own position (on a copy:
    this may run from a progress callback while the search owns ``game``)."""
    out: List[str] = []
    with game.clone() as line:
        for i, m in enumerate(pv):
            try:
                out.append(line.format_move(m))
            except gts.GtsError:
                out.append(str(m))
            if i + 1 < len(pv):
                try:
                    line.play(m)
                except gts.GtsError:
                    break
    return " ".join(out)


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


# ---- commands -----------------------------------------------------------------------

def cmd_search(args: argparse.Namespace) -> int:
    alg = _algorithm("search", args.alg)
    info = next(a for a in gts.algorithms() if a.name == alg)
    game = _new_game("search", args, args.game, args.position)
    depth = args.depth
    if depth is None and not (args.time_ms or args.nodes):
        depth = DEFAULT_DEPTH.get(args.game, args.tree_depth)
    if args.threads > 1 and not info.parallel:
        _err(f"{PROG}: warning: search: --threads {args.threads} has no effect: '{alg}' is a "
             "serial algorithm")
    options: Dict[str, int] = {"threads": args.threads}
    if args.tt_mb is not None:
        options["tt_mb"] = args.tt_mb
    if args.aspiration is not None:
        options["aspiration"] = args.aspiration
    t0 = time.perf_counter()

    def progress(r: gts.Result) -> None:
        ms = (time.perf_counter() - t0) * 1000
        _err(f"info depth {r.depth} score {r.score} nodes {r.nodes} time {ms:.1f}ms "
             f"nps {r.nodes / ms * 1000 if ms > 0 else 0:.0f} pv {_pv_text(game, r.pv)}")

    with game, gts.Engine(**options) as engine:
        try:
            r = _interruptible(engine, engine.search, game, alg, depth,
                               time_ms=args.time_ms or None, nodes=args.nodes or None,
                               on_iteration=None if args.quiet else progress)
        except gts.GtsError as e:
            _err(f"{PROG} search: {e.message} ({e.name})")
            return CLI_FAIL
        best = game.format_move(r.best_move) if r.best_move is not None else "none"
        pv = _pv_text(game, r.pv)
        ms = r.time_s * 1000
        nps = r.nps
        bound = ("lower" if "lower_bound" in r.flags else
                 "upper" if "upper_bound" in r.flags else "exact")
        st = r.stats
        if args.format == "json":
            out = {
                "game": args.game, "position": args.position, "algorithm": alg,
                "bestmove": best if r.best_move is not None else None, "score": r.score,
                "bound": bound, "pv": pv.split() if pv else [], "depth": r.depth,
                "seldepth": r.seldepth, "threads": st["threads"], "nodes": r.nodes,
                "tt_probes": st["tt_probes"], "tt_hits": st["tt_hits"],
                "tt_cutoffs": st["tt_cutoffs"], "time_us": round(r.time_s * 1e6),
                "nps": round(nps), "nodes_mandatory": st["nodes_mandatory"],
                "nodes_speculative": st["nodes_speculative"],
                "nodes_wasted": st["nodes_wasted"], "thread_nodes": st["thread_nodes"],
                "stop": _stop_reason(r.flags),
            }
            print(json.dumps(out, indent=2))
        else:
            lines = [("game", args.game), ("position", args.position or "(start)"),
                     ("algorithm", alg), ("bestmove", best), ("score", _score_text(r.score))]
            if bound != "exact":
                lines.append(("bound", bound))
            lines += [("pv", pv), ("depth", r.depth), ("seldepth", r.seldepth),
                      ("nodes", r.nodes), ("tt_probes", st["tt_probes"]),
                      ("tt_hits", st["tt_hits"]), ("tt_cutoffs", st["tt_cutoffs"]),
                      ("time_ms", f"{ms:.3f}"), ("nps", f"{nps:.0f}"),
                      ("threads", st["threads"])]
            if info.parallel:
                lines += [("mandatory", st["nodes_mandatory"]),
                          ("speculative", st["nodes_speculative"]),
                          ("wasted", st["nodes_wasted"]),
                          ("thread_nodes", " ".join(map(str, st["thread_nodes"])))]
            lines += [("stop", _stop_reason(r.flags)), ("hashfull", engine.hashfull())]
            for k, v in lines:
                print(f"{k:<12} {v}".rstrip() if k != "thread_nodes" else f"{k} {v}")
        sys.stdout.flush()
    return CLI_OK


def _parse_depths(text: str) -> List[int]:
    out: List[int] = []
    for part in text.split(","):
        a, sep, b = part.partition("-")
        if not a.isdigit() or (sep and not b.isdigit()):
            raise ValueError(text)
        lo, hi = int(a), int(b) if sep else int(a)
        if lo > hi or hi > gts.MAX_DEPTH:
            raise ValueError(text)
        out += range(lo, hi + 1)
    return out


def cmd_perft(args: argparse.Namespace) -> int:
    try:
        depths = _parse_depths(args.depths)
    except ValueError:
        raise UsageError("perft", f"DEPTH: expected 0..{gts.MAX_DEPTH} or a range, got "
                                  f"'{args.depths}'") from None
    game = _new_game("perft", args, args.game, args.position)
    with game:
        for d in depths:
            try:
                if args.divide and d > 0:
                    for m in game.moves():
                        text = game.format_move(m)
                        game.play(m)
                        try:
                            cnt = game.perft(d - 1)
                        finally:
                            game.undo(m)
                        print(f"  {text}: {cnt}")
                t = time.perf_counter()
                n = game.perft(d)
                s = time.perf_counter() - t
            except gts.GtsError as e:
                _err(f"{PROG} perft: {e.message}")
                return CLI_FAIL
            print(f"perft({d}) = {n}  ({s:.3f} s, {n / s / 1e6 if s > 0 else 0:.2f} M leaves/s)",
                  flush=True)
    return CLI_OK


def _why_bad_position(pos: str) -> str:
    if not pos:
        return "empty line (expected a position such as 4453)"
    for i, ch in enumerate(pos):
        if not "1" <= ch <= "7":
            d = f"'{ch}'" if 0x21 <= ord(ch) < 0x7f else f"byte 0x{ord(ch) & 0xff:02x}"
            return f"bad character {d} at column {i + 1} (expected digits 1-7)"
    if len(pos) > C4_CELLS:
        return f"too long: {len(pos)} moves (a position has at most {C4_CELLS})"
    height = [0] * 7
    for i, ch in enumerate(pos):
        col = int(ch) - 1
        if height[col] >= 6:
            return f"move {i + 1}: column {col + 1} is full"
        height[col] += 1
        try:
            games.Connect4(pos[:i + 1]).close()
        except gts.ParseError:
            return (f"move {i + 1} (column {col + 1}) wins the game: the position is "
                    "already decided")
    return "position refused by the adapter"


def _solve_one(engine: gts.Engine, alg: str, game: games.Connect4, stones: int, bisect: bool,
               lineno: int) -> gts.Result:
    empty = C4_CELLS - stones
    depth = empty if empty > 0 else 1
    alpha = -((C4_CELLS - stones) // 2) - 1
    beta = (C4_CELLS + 1 - stones) // 2 + 1
    if bisect:
        lo, hi, nodes = alpha + 1, beta - 1, 0
        r = None
        while lo < hi:
            med = lo + (hi - lo) // 2
            if med <= 0 and int(lo / 2) < med:
                med = int(lo / 2)
            elif med >= 0 and int(hi / 2) > med:
                med = int(hi / 2)
            r = _interruptible(engine, engine.search, game, alg, depth, alpha=med, beta=med + 1)
            nodes += r.nodes
            if r.score > med:
                lo = r.score
            else:
                hi = r.score
        if r is None:
            r = _interruptible(engine, engine.search, game, alg, depth, alpha=alpha, beta=beta)
        r.score, r.nodes = lo, nodes or r.nodes
        r.flags = r.flags - {"lower_bound", "upper_bound"}
        return r
    r = _interruptible(engine, engine.search, game, alg, depth, alpha=alpha, beta=beta)
    if r.depth != depth and r.best_move is not None:
        raise Failure(f"{PROG} solve: line {lineno}: search stopped at depth {r.depth} of "
                      f"{depth}")
    if not r.exact:
        raise Failure(f"{PROG} solve: line {lineno}: the library returned a bound "
                      f"({r.score}), not a value")
    return r


def cmd_solve(args: argparse.Namespace) -> int:
    if args.game != "connect4":
        raise UsageError("solve", f"cannot solve '{args.game}': only connect4 is supported")
    alg = _algorithm("solve", args.alg)
    info = next(a for a in gts.algorithms() if a.name == alg)
    if not info.exact:
        raise UsageError("solve", f"algorithm '{alg}' is not exact: solving needs an exact one "
                                  "(see 'algorithms')")
    if args.threads > 1 and not info.parallel:
        _err(f"{PROG}: warning: solve: --threads {args.threads} has no effect: '{alg}' is a "
             "serial algorithm")
    errors = lineno = 0
    options = {"threads": args.threads, "tt_mb": args.tt_mb}
    if args.no_iterative:
        options["iterative"] = 0
    with gts.Engine(**options) as engine:
        for raw in sys.stdin:
            lineno += 1
            pos = raw.strip(" \t\r\n")
            expected = None
            if args.check:
                parts = pos.split()
                try:
                    if len(parts) != 2:
                        raise ValueError
                    pos, expected = parts[0], int(parts[1])
                except ValueError:
                    _err(f'{PROG} solve: line {lineno}: expected "POSITION SCORE" with --check')
                    errors += 1
                    continue
            try:
                game = games.Connect4(pos, solver=True) if pos and pos.isdigit() and \
                    len(pos) <= C4_CELLS and set(pos) <= set("1234567") else None
            except gts.GtsError:
                game = None
            if game is None:
                _err(f"{PROG} solve: line {lineno}: {_why_bad_position(pos)}")
                errors += 1
                continue
            with game:
                t0 = time.perf_counter()
                try:
                    r = _solve_one(engine, alg, game, len(pos), args.bisect, lineno)
                except Failure as e:
                    _err(str(e))
                    errors += 1
                    continue
                except gts.GtsError as e:
                    _err(f"{PROG} solve: line {lineno}: search failed: {e.message}")
                    errors += 1
                    continue
                us = round((time.perf_counter() - t0) * 1e6)
            if args.stats:
                print(f"{pos} {r.score} {r.nodes} {us}", flush=True)
            else:
                print(f"{pos} {r.score}", flush=True)
            if expected is not None and r.score != expected:
                _err(f"{PROG} solve: line {lineno}: {pos} scores {r.score}, expected {expected}")
                errors += 1
    if errors:
        _err(f"{PROG} solve: {errors} of {lineno} line{'' if lineno == 1 else 's'} failed")
        return CLI_FAIL
    return CLI_OK


def cmd_algorithms(args: argparse.Namespace) -> int:
    rows = [(a.name, a.exact, a.parallel, gts.algorithm_id(a.name)) for a in gts.algorithms()]
    cols = ("name", "exact", "parallel", "id")
    if args.format == "json":
        out = {"tool": "gts", "version": gts.library_version(), "command": "algorithms",
               "title": "", "rows": [dict(zip(cols, r)) for r in rows], "notes": []}
        print(json.dumps(out, indent=2))
    elif args.format == "csv":
        print(",".join(cols))
        for name, exact, par, i in rows:
            print(f"{name},{'yes' if exact else 'no'},{'yes' if par else 'no'},{i}")
    else:
        cells = [(n, "yes" if e else "no", "yes" if p else "no", str(i)) for n, e, p, i in rows]
        w = [max(len(c), *(len(r[k]) for r in cells)) for k, c in enumerate(cols)]
        print("  ".join(c.ljust(w[k]) for k, c in enumerate(cols)).rstrip())
        print("  ".join("-" * w[k] for k in range(len(cols))))
        for r in cells:
            print(f"{r[0]:<{w[0]}}  {r[1]:<{w[1]}}  {r[2]:<{w[2]}}  {r[3]:>{w[3]}}")
    return CLI_OK


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.version:
            print(f"gts (python) {gts.__version__} (libgts {gts.library_version()} at "
                  f"{gts.LIBRARY_PATH})")
            return CLI_OK
        if not getattr(args, "command", None):
            parser.print_help(sys.stderr)
            return CLI_USAGE
        return args.func(args)
    except UsageError as e:
        if e.command is None and str(e).startswith(PROG + " "):
            _err(str(e))
        else:
            where = f"{PROG} {e.command}" if e.command else PROG
            _err(f"{where}: {e}")
            cmd = f"python3 -m gts {e.command} --help" if e.command else "python3 -m gts --help"
            _err(f"Try '{cmd}' for more information.")
        return CLI_USAGE
    except ImportError as e:  # the games library is missing
        _err(f"{PROG}: error: {e}")
        return CLI_FAIL
    except BrokenPipeError:
        return CLI_OK
