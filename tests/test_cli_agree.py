#!/usr/bin/env python3
"""One command line, two implementations: `gts` (tools/*.c) and `python3 -m
gts` (bindings/python/gts/cli.py) must follow the one specification of
doc/cli.md, "The shared commands". This runs both on the same arguments and
input (every game, positions good and bad, options, text and JSON, usage and
run-time errors, Ctrl-C) and compares them field by field: exit status,
stdout, stderr, with the program name ("gts" / "python3 -m gts") as the only
difference in messages. Timing fields (search time_us and nps, perft's
seconds and leaves/s, solve's microseconds) must be present and well-formed
but are left out of the equality.

Environment (set by meson): GTS_TOOL, the C tool; GTS_LIBRARY and
GTS_GAMES_LIBRARY, the libraries the Python package loads; PYTHONPATH with
bindings/python. By hand, from the source tree:

    GTS_TOOL=build/tools/gts python3 tests/test_cli_agree.py [-v] [--tap]

(the libraries and the package are then found next to the tool and here).
"""
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import unittest

import pytap

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)
GTS = os.path.abspath(os.environ.get("GTS_TOOL") or os.path.join(SOURCE, "build", "tools", "gts"))
BUILD = os.path.dirname(os.path.dirname(GTS))
TIMEOUT = 300
PY_PROG = "python3 -m gts"


def py_env():
    env = dict(os.environ)
    env.setdefault("GTS_LIBRARY", os.path.join(BUILD, "lib", "libgts.so"))
    env.setdefault("GTS_GAMES_LIBRARY",
                   os.path.join(BUILD, "examples", "games", "libgts-games.so"))
    py = os.path.join(SOURCE, "bindings", "python")
    if py not in env.get("PYTHONPATH", "").split(os.pathsep):
        env["PYTHONPATH"] = os.pathsep.join(p for p in (py, env.get("PYTHONPATH")) if p)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # A table too large for the machine must fail as ENOMEM, also under ASan.
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":allocator_may_return_null=1"
    return env


ENV = py_env()
TOOLS = {"c": [GTS], "py": [sys.executable, "-m", "gts"]}


def default_sigint():
    signal.signal(signal.SIGINT, signal.SIG_DFL)   # not inherited as ignored


def run(tool, args, stdin=None, timeout=TIMEOUT):
    """(status, stdout, stderr) of one tool, messages with the name "gts"."""
    p = subprocess.run(TOOLS[tool] + list(args), input=stdin, capture_output=True, text=True,
                       timeout=timeout, env=ENV, preexec_fn=default_sigint)
    return p.returncode, p.stdout, unprog(p.stderr)


def unprog(text):
    return text.replace(PY_PROG, "gts")


def both(args, stdin=None):
    return run("c", args, stdin), run("py", args, stdin)


# ---- the search output (doc/cli.md, "search") ---------------------------------------

SEARCH_KEYS = ["game", "position", "algorithm", "bestmove", "score", "bound", "pv", "depth",
               "seldepth", "nodes", "tt_probes", "tt_hits", "tt_cutoffs", "time_us", "nps",
               "threads", "nodes_mandatory", "nodes_speculative", "nodes_wasted",
               "thread_nodes", "stop", "hashfull"]
TIMING = {"time_us", "nps"}
INT_KEYS = {"score", "depth", "seldepth", "nodes", "tt_probes", "tt_hits", "tt_cutoffs",
            "time_us", "nps", "threads", "nodes_mandatory", "nodes_speculative",
            "nodes_wasted", "hashfull"}
# What a parallel search with several threads may change from run to run.
PARALLEL_VARIABLE = {"bestmove", "pv", "seldepth", "nodes", "tt_probes", "tt_hits",
                     "tt_cutoffs", "nodes_mandatory", "nodes_speculative", "nodes_wasted",
                     "thread_nodes", "hashfull"}
KEY_WIDTH = 17


def parse_text(test, out):
    """The `KEY VALUE` lines as {key: value as JSON would have it}, checking
    the layout, the key order and the types."""
    fields = {}
    for line in out.splitlines():
        test.assertRegex(line, r"^[a-z_]+ +\S", f"bad line {line!r}")
        key = line[:KEY_WIDTH].rstrip()
        test.assertEqual(line[:KEY_WIDTH + 1], key.ljust(KEY_WIDTH) + " ", f"layout: {line!r}")
        fields[key] = line[KEY_WIDTH + 1:]
    test.assertEqual(list(fields), SEARCH_KEYS, out)
    d = dict(fields)
    d["position"] = "" if d["position"] == "(start)" else d["position"]
    d["bestmove"] = None if d["bestmove"] == "none" else d["bestmove"]
    m = re.fullmatch(r"(-?\d+)( \((win|loss) in \d+ plies\))?", d["score"])
    test.assertTrue(m, f"score {d['score']!r}")
    d["score"] = int(m.group(1))
    d["pv"] = [] if d["pv"] == "none" else d["pv"].split(" ")
    d["thread_nodes"] = [] if d["thread_nodes"] == "none" else \
        [int(x) for x in d["thread_nodes"].split(" ")]
    for k in INT_KEYS:
        test.assertRegex(fields[k], r"^-?\d+" if k == "score" else r"^-?\d+$", k)
        if k != "score":
            d[k] = int(d[k])
    return d


def parse_json(test, out):
    d = json.loads(out)
    test.assertEqual(list(d), SEARCH_KEYS)
    for k in INT_KEYS:
        test.assertIsInstance(d[k], int, k)
    for k in ("game", "position", "algorithm", "bound", "stop"):
        test.assertIsInstance(d[k], str, k)
    test.assertTrue(d["bestmove"] is None or isinstance(d["bestmove"], str))
    test.assertTrue(all(isinstance(m, str) for m in d["pv"]))
    test.assertTrue(all(isinstance(n, int) for n in d["thread_nodes"]))
    test.assertIn(d["bound"], ("exact", "lower", "upper"))
    test.assertIn(d["stop"], ("none", "time-limit", "node-limit", "stopped"))
    return d


def mask_timing(text):
    """The output with the timing values replaced (text, JSON, progress)."""
    text = re.sub(r"(?m)^(time_us|nps)( +)\d+$", r"\1\2T", text)
    text = re.sub(r'"(time_us|nps)": \d+', r'"\1": T', text)
    return re.sub(r"time_us \d+ nps \d+", "time_us T nps T", text)


def without(d, keys):
    return {k: v for k, v in d.items() if k not in keys}


class Agree(unittest.TestCase):
    maxDiff = None

    def same(self, c, py, what, compare_stdout=True):
        self.assertEqual(c[0], py[0], f"{what}: status; C stderr {c[2]!r}, Python {py[2]!r}")
        if compare_stdout:
            self.assertEqual(c[1], py[1], f"{what}: stdout")
        self.assertEqual(mask_timing(c[2]), mask_timing(py[2]), f"{what}: stderr")
        self.assertNotIn("Traceback", py[2], what)


# ---- search ---------------------------------------------------------------------------

SEARCHES = [
    ["tictactoe"],
    ["tictactoe", "519", "--alg", "mtdf"],
    ["tictactoe", "14253"],                         # X has three in a row: no move
    ["tictactoe", "5", "--alg", "gts_alphabeta", "--depth", "4", "--tt-mb", "0"],
    ["connect4", "4453", "--depth", "8"],
    ["connect4_solver", "4453", "--depth", "8", "--alg", "negacstar"],
    ["connect4", "121212", "--depth", "4"],         # the win in one
    ["connect4", "--depth", "7", "--aspiration", "25"],
    ["connect4", "4453", "--nodes", "3000"],        # node-limit
    ["othello", "f5d6", "--depth", "4"],
    ["othello", "f5d6", "--depth", "6", "--lmr", "100", "--lmp", "3", "--futility", "20",
     "--razor", "40"],                              # selective search (issue 32)
    ["randtree", "--depth", "6", "--null-move", "3", "--contempt", "-5"],
    ["othello", "e6f4e3f6g5d6e7f5c5"],              # a finished game
    ["othello", "F5D6C3", "--depth", "3", "--alg", "sssstar"],
    ["chess", "--depth", "3"],
    ["chess", "startpos moves f2f3 e7e5 g2g4", "--depth", "3"],   # mate in 1
    ["go", "--depth", "2"],
    ["go", "5 komi=0.5 moves=C3,pass,b2", "--depth", "3", "--alg", "mtdf"],
    ["go", "3 komi=0", "--depth", "4", "--alg", "alphabeta", "--tt-mb", "1"],
    ["go", "9 komi=7 moves=E5,D4", "--alg", "mcts", "--playouts", "300"],
    ["go", "moves=pass,pass"],                      # a finished game
    ["randtree", "--seed", "3", "--branching", "5", "--tree-depth", "6", "--alg", "alphabeta"],
    ["randtree", "0,2", "--seed", "7", "--branching", "4", "--tree-depth", "8",
     "--transpositions", "--ordered", "50", "--jitter", "2", "--terminal", "10",
     "--min-value", "-50", "--max-value", "50", "--alg", "dualstar"],
    ["randtree", "--seed=18446744073709551615", "--tree-depth=5", "--dep", "4"],
    ["tictactoe", "--time-ms", "18446744073710", "--depth", "5"],
    ["tictactoe", "--time-ms", "18446744073709551615", "--nodes", "18446744073709551615"],
    ["tictactoe", "--alg", "nosuch", "--alg", "pvs", "--depth=2"],   # the last one wins
    ["tictactoe", "--", "1"],
    ["tictactoe", "--depth", "3", "--threads", "2"],   # warning: serial algorithm
    ["tictactoe", "--alg", "mcts", "--playouts", "2000"],
    ["connect4", "4453", "--alg", "mcts", "--playouts", "1500", "--tt-mb", "0"],
    ["tictactoe", "--depth", "3", "--playouts", "10"],  # warning: not MCTS
    ["tictactoe", "--playouts", "10"],   # warning, and the default depth stays
    ["chess", "--alg", "pvs", "--playouts", "5"],
]


class TestSearch(Agree):
    def check(self, args):
        parsed = {}
        for fmt in ("text", "json"):
            full = ["search", "--format", fmt] + args
            c, py = both(full)
            what = " ".join(full)
            self.assertEqual(c[0], 0, f"{what}: {c[2]}")
            self.same(c, py, what, compare_stdout=False)
            self.assertEqual(mask_timing(c[1]), mask_timing(py[1]), what)
            for tool, out in (("c", c[1]), ("py", py[1])):
                parsed[tool, fmt] = (parse_text if fmt == "text" else parse_json)(self, out)
        for tool in ("c", "py"):
            # the text and the JSON of one program say the same
            self.assertEqual(without(parsed[tool, "text"], TIMING),
                             without(parsed[tool, "json"], TIMING), f"{args} {tool}")
        return parsed["c", "json"]

    def test_searches(self):
        for args in SEARCHES:
            with self.subTest(args=args):
                self.check(args)

    def test_values(self):
        d = self.check(["connect4", "121212", "--depth", "4"])
        self.assertEqual((d["bestmove"], d["score"], d["pv"][0]), ("1", 18, "1"))
        d = self.check(["tictactoe", "14253"])
        self.assertEqual((d["bestmove"], d["pv"], d["score"]), (None, [], -31000))
        d = self.check(["connect4", "4453", "--nodes", "3000"])
        self.assertEqual(d["stop"], "node-limit")
        d = self.check(["randtree", "--seed=18446744073709551615", "--tree-depth=5",
                        "--dep", "4"])
        self.assertEqual(d["depth"], 4)
        d = self.check(["tictactoe", "--alg", "mcts", "--playouts", "2000"])
        self.assertEqual((d["algorithm"], d["stop"]), ("mcts", "none"))
        self.assertGreater(d["nodes"], 2000, "2000 playouts, each at least one move")

    def test_option_without_effect_keeps_the_default_depth(self):
        # --playouts has no effect on pvs: it must not lift the default
        # depth either (it did: depth 127 on tic-tac-toe, and chess searched
        # without end).
        for args, depth in ((["tictactoe", "--playouts", "10"], 9),
                            (["chess", "--alg", "pvs", "--playouts", "5"], 6),
                            (["connect4", "--playouts", "3", "--threads", "2"], 12)):
            with self.subTest(args=args):
                d = self.check(args)
                self.assertEqual((d["depth"], d["stop"]), (depth, "none"))
                n = args[args.index("--playouts") + 1]
                for tool in ("c", "py"):
                    err = run(tool, ["search", "--quiet"] + args)[2]
                    self.assertIn(f"gts search: warning: --playouts {n} has no effect: 'pvs' "
                                  "is not a Monte-Carlo search", err)

    def test_every_algorithm(self):
        rc, out, _ = run("c", ["algorithms", "--format", "json"])
        for a in json.loads(out)["rows"]:
            with self.subTest(alg=a["name"]):
                args = ["search", "tictactoe", "--alg", a["name"], "--depth", "9"]
                if a["parallel"]:
                    args += ["--threads", "2", "--quiet"]
                c, py = both(args)
                self.assertEqual((c[0], py[0]), (0, 0), f"{c[2]} {py[2]}")
                dc, dp = parse_text(self, c[1]), parse_text(self, py[1])
                skip = TIMING | (PARALLEL_VARIABLE if a["parallel"] else set())
                if a["parallel"] and not a["exact"]:
                    skip |= {"score", "bound"}     # selective and racy: may differ
                self.assertEqual(without(dc, skip), without(dp, skip))
                if a["exact"]:
                    self.assertEqual(dc["score"], 0)
                if not a["parallel"]:       # the progress lines, on stderr
                    self.assertEqual(mask_timing(c[2]), mask_timing(py[2]))
                if a["name"] in ("alphabeta", "pvs"):   # one per iteration
                    self.assertEqual(len(c[2].splitlines()), 9)

    def test_time_limit(self):
        for tool in ("c", "py"):
            rc, out, err = run(tool, ["search", "othello", "--time-ms", "200", "--quiet"])
            self.assertEqual(rc, 0, err)
            self.assertIn(parse_text(self, out)["stop"], ("time-limit", "none"))


# ---- perft ----------------------------------------------------------------------------

PERFT_LINE = re.compile(r"perft\(\d+\) = \d+  \(\d+\.\d{3} s, \d+\.\d{2} M leaves/s\)")


def mask_perft(test, out):
    lines = []
    for line in out.splitlines():
        if line.startswith("perft("):
            test.assertRegex(line, PERFT_LINE)
            line = line.split("  (")[0]
        else:
            test.assertRegex(line, r"^  \S+: \d+$")
        lines.append(line)
    return lines


class TestPerft(Agree):
    def test_perfts(self):
        for args in (["tictactoe", "1-9"], ["tictactoe", "0,2,2", "5"],
                     ["tictactoe", "2", "14253"], ["connect4", "1-6"],
                     ["connect4", "4", "4453", "--divide"], ["othello", "1-5"],
                     ["othello", "2", "f5d6", "--divide"], ["othello", "3", "e6f4e3f6g5d6e7f5c5"],
                     ["chess", "1-3"], ["chess", "2", "startpos moves f2f3 e7e5 g2g4", "--divide"],
                     ["chess", "2", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"],
                     ["go", "1-3"], ["go", "2", "5 komi=0.5 moves=C3,pass", "--divide"],
                     ["go", "3", "3 moves=B1,A1"], ["go", "2", "moves=pass,pass", "--divide"],
                     ["randtree", "3", "--seed", "7", "--branching", "5", "--depth", "3"],
                     ["randtree", "2", "0,1", "--divide", "--tree-depth", "4",
                      "--jitter", "3", "--terminal", "20"]):
            with self.subTest(args=args):
                c, py = both(["perft"] + args)
                self.assertEqual(c[0], 0, c[2])
                self.same(c, py, str(args), compare_stdout=False)
                self.assertEqual(mask_perft(self, c[1]), mask_perft(self, py[1]))
        c, _ = both(["perft", "tictactoe", "1-9"])
        self.assertIn("perft(9) = 255168", c[1])


# ---- solve ----------------------------------------------------------------------------

NEAR_END = "2252576253462244111563365343671351441"   # scores -1
SOLVE_INPUT = "".join(p + "\n" for p in (NEAR_END, NEAR_END[:-1], NEAR_END[:-2],
                                         NEAR_END[:-5], NEAR_END[:-7]))


def mask_solve(test, out, stats):
    lines = []
    for line in out.splitlines():
        f = line.split(" ")
        test.assertEqual(len(f), 4 if stats else 2, line)
        test.assertRegex(f[1], r"^-?\d+$")
        if stats:
            test.assertRegex(f[2] + " " + f[3], r"^\d+ \d+$")
            f = f[:3]             # nodes are compared, microseconds are timing
        lines.append(" ".join(f))
    return lines


class TestSolve(Agree):
    def check(self, args, stdin, status=0):
        c, py = both(["solve", "connect4"] + args, stdin)
        what = f"solve {args}"
        self.assertEqual(c[0], status, f"{what}: {c[2]}")
        self.same(c, py, what, compare_stdout=False)
        stats = "--stats" in args
        self.assertEqual(mask_solve(self, c[1], stats), mask_solve(self, py[1], stats), what)
        return c

    def test_options(self):
        for args in ([], ["--stats"], ["--iterative", "--stats"], ["--no-iterative"],
                     ["--root", "bisect", "--stats"], ["--root=mtdf", "--stats"],
                     ["--no-bounds", "--stats"], ["--no-prefetch", "--stats"],
                     ["--tt-near", "0", "--stats"], ["--tt-near=4", "--tt-near-kb", "1", "--stats"],
                     ["--alg", "abdada", "--threads", "2", "--tt-near", "20", "--tt-near-kb=64"],
                     ["--alg", "mtdf", "--tt-mb", "1", "--stats"],
                     ["--alg", "ybwc", "--threads", "2"], ["--threads", "2"],
                     ["--alg", "dts", "--threads", "2", "--split-ply", "3"],
                     ["--alg", "abdada", "--threads", "2", "--split-ply=0"]):
            with self.subTest(args=args):
                c = self.check(args, SOLVE_INPUT)
                self.assertEqual(c[1].split("\n")[0].split(" ")[:2], [NEAR_END, "-1"])

    def test_bad_lines(self):
        lines = [NEAR_END, "4453x", "", "1111111", "1212121", "1234567" * 7, "12 34",
                 "4" * 300, NEAR_END[:-1] + "\r", "  " + NEAR_END[:-2] + "\t", "8",
                 "\x01\xff"]
        c = self.check([], "\n".join(lines) + "\n\n \n", status=1)
        self.assertIn("line 4: move 7: column 1 is full", c[2])
        self.assertIn("9 of 14 lines failed", c[2])  # the blank lines at the end: ignored
        self.check(["--stats"], "", status=0)
        self.check([], NEAR_END, status=0)               # no newline at the end
        self.check([], "\n" + NEAR_END + "\n", status=1)  # a blank line first

    def test_check(self):
        stdin = (f"{NEAR_END} -1\n{NEAR_END[:-1]}\t 3\n{NEAR_END} 2\n{NEAR_END}\n"
                 f"{NEAR_END} +1\n{NEAR_END} 1x\n{NEAR_END} 99999999999\n")
        c = self.check(["--check"], stdin, status=1)
        self.assertIn("line 3: " + NEAR_END + " scores -1, expected 2", c[2])
        for n in (4, 5, 6, 7):
            self.assertIn(f'line {n}: expected "POSITION SCORE" with --check', c[2])


# ---- algorithms, help ----------------------------------------------------------------------

class TestListings(Agree):
    def test_algorithms(self):
        for args in ([], ["--format", "text"], ["--format=csv"], ["--format", "json"]):
            with self.subTest(args=args):
                c, py = both(["algorithms"] + args)
                self.assertEqual(c[0], 0)
                self.same(c, py, str(args))

    def test_help(self):
        for cmd in ("search", "perft", "solve", "algorithms"):
            with self.subTest(cmd=cmd):
                c, py = both([cmd, "--help"])
                self.assertEqual((c[0], py[0]), (0, 0))
                self.assertTrue(c[1].startswith("Usage: gts " + cmd))
                self.assertTrue(py[1].startswith(f"Usage: {PY_PROG} {cmd}"))
                # the same text; the usage lines are indented by the name
                norm = [re.sub(r"\s+", " ", unprog(out)).strip() for out in (c[1], py[1])]
                self.assertEqual(norm[0], norm[1])
                self.assertEqual(run("py", ["help", cmd])[1], py[1])


# ---- errors ------------------------------------------------------------------------------

USAGE_ERRORS = [
    # options and numbers
    "search", "search tictactoe --bogus", "search tictactoe -x", "search tictactoe --depth",
    "search tictactoe --depth zero", "search tictactoe --depth 0", "search tictactoe --depth 128",
    "search tictactoe --depth +3", "search tictactoe --depth 0x3", "search tictactoe --depth= 3",
    "search tictactoe --threads 0", "search tictactoe --threads 257",
    "search tictactoe --tt-mb 2000000", "search tictactoe --tt-mb -1",
    "search tictactoe --aspiration 32000", "search tictactoe --aspiration -1",
    "search tictactoe --null-move 9", "search tictactoe --lmr 401", "search tictactoe --lmp -1",
    "search tictactoe --contempt 30745", "search tictactoe --futility x",
    "search tictactoe --time-ms 18446744073709551616", "search tictactoe --time-ms -1",
    "search tictactoe --nodes x", "search tictactoe --format xml",
    "search tictactoe --playouts 0", "search tictactoe --playouts -1",
    "search tictactoe --playouts x", "search tictactoe --playouts 4611686018427387905",
    "search tictactoe --format csv", "search tictactoe --quiet=1", "search tictactoe --t 3",
    "search tictactoe --alg nosuch", "search tictactoe --alg", "search nosuchgame",
    "search tictactoe 519 extra", "search tictactoe --seed -1", "search tictactoe --seed x",
    "search randtree --branching 65", "search randtree --min-value 5 --max-value 1",
    "search randtree --jitter 8", "search randtree --terminal 101",
    "search randtree --min-value -30001",
    # positions
    "search connect4 44x", "search connect4 1111111", "search connect4 1212121",
    "search connect4 " + "1234567" * 7, "search connect4_solver 4453x",
    "search tictactoe 5195", "search tictactoe 12345678", "search tictactoe 0",
    "search othello f5f5", "search othello f5a1", "search othello ps", "search othello f5z9",
    "search othello f5d", "search othello e6f4e3f6g5d6e7f5c5a1",
    "search chess e2e4", "perft chess 1 8/8",
    "search go 25", "search go komi=7.3", "search go maxmoves=0", "search go foo",
    "search go moves=C3,,D4", "search go moves=Z9", "search go moves=C3,C3",
    "search go moves=pass,pass,C3", "perft go 1 moves=C3,", "search go \xff",
    # (lists: a Go position with blanks is one argument)
    ["search", "go", "9 9"], ["search", "go", "5 moves=F1"], ["search", "go", "9 patterns=on"],
    ["perft", "go", "1", "maxmoves=2 moves=C3,D4,E5"],
    ["search", "go", "3 moves=B1,pass,A2,A1"],                 # suicide
    ["search", "go", "4 moves=B3,C3,A2,B2,B1,D2,pass,C1,C2,B2"],  # superko
    "search randtree 0,9", "search randtree 0,,1", "search randtree a", "search randtree 01",
    "search randtree 0,1,2,3,4,5,6,7,0", "search randtree ,", "search randtree 0,",
    # perft
    "perft tictactoe", "perft tictactoe x", "perft tictactoe 1-", "perft tictactoe 3-1",
    "perft tictactoe 128", "perft tictactoe 1 519 extra", "perft connect4_solver 1",
    "perft nosuch 1", "perft othello 1 f5f5", "perft --divide=1 tictactoe 1",
    "perft tictactoe 1 --d", "perft tictactoe 1-65,1-65", "perft randtree 1 --depth 61",
    "perft connect4 2 1111111",
    # solve
    "solve", "solve othello", "solve connect4 extra", "solve connect4 --alg probcut",
    "solve connect4 --alg nosuch", "solve connect4 --threads -3", "solve connect4 --root x",
    "solve connect4 --root", "solve connect4 --tt-mb 2000000", "solve connect4 --bisect",
    "solve connect4 --tt-near -1", "solve connect4 --tt-near 999", "solve connect4 --tt-near x",
    "solve connect4 --tt-near-kb 0", "solve connect4 --tt-near-kb", "solve connect4 --tt-near-kb 2000000000",
    # algorithms, help
    "algorithms extra", "algorithms --format xml", "help nosuch",
]


class TestErrors(Agree):
    def test_usage_errors(self):
        for line in USAGE_ERRORS:
            with self.subTest(args=line):
                args = line.split(" ") if isinstance(line, str) else line
                line = " ".join(args)
                c, py = both(args, stdin="")
                self.assertEqual(c[0], 2, f"{line}: {c}")
                self.same(c, py, line)
                self.assertEqual(c[1], "", line)
                lines = c[2].splitlines()
                self.assertEqual(len(lines), 2, c[2])
                # doc/cli.md, "Messages": "PROG COMMAND: ", and its hint
                where = "gts" if args[0] == "help" else f"gts {args[0]}"
                self.assertTrue(lines[0].startswith(where + ": "), lines[0])
                self.assertEqual(lines[1], f"Try '{where} --help' for more information.")

    def test_unknown_command(self):
        for cmd in ("frobnicate", "--frobnicate"):
            with self.subTest(cmd=cmd):
                c, py = both([cmd])
                self.assertEqual((c[0], py[0]), (2, 2))
                self.assertEqual(c[1] + py[1], "")
                self.assertEqual(c[2].splitlines()[0], py[2].splitlines()[0])
        c, py = both([])
        self.assertEqual((c[0], py[0]), (2, 2))
        for cmd in ("bench", "speedup", "nodes"):      # gts only
            rc, out, err = run("py", [cmd])
            self.assertEqual((rc, out), (2, ""))
            self.assertIn(f"unknown command '{cmd}' (bench, speedup and nodes are in the C "
                          "tool gts only)", err)

    def test_messages(self):
        """Bad positions are explained precisely (the move, and why)."""
        want = {
            "search connect4 1111111":
                "gts search: bad connect4 position '1111111': move 7: column 1 is full",
            "perft tictactoe 1 5195":
                "gts perft: bad tictactoe position '5195': move 4: cell 5 is already taken",
            "search othello f5a1": "gts search: bad othello position 'f5a1': move 2: a1 is not "
                                   "legal here: it flips no disc (legal: f4 d6 f6)",
            "perft randtree 1 0,9": "gts perft: bad randtree position '0,9': move 2: child 9 "
                                    "does not exist: the node has 8 children (0..7)",
            "search tictactoe --time-ms 18446744073709551616":
                "gts search: --time-ms: expected 0..18446744073709551615, got "
                "'18446744073709551616'",
        }
        for line, msg in want.items():
            for tool in ("c", "py"):
                self.assertEqual(run(tool, line.split(" "))[2].splitlines()[0], msg)

    def test_escaped_text(self):
        for args in (["search", "connect4", "4\x01"], ["search", "tictactoe", "--depth", "\t3"],
                     ["search", "tic tac"], ["perft", "othello", "1", "f5\u00e9"],
                     # a byte that is not UTF-8 (the argument arrives as b"\xff")
                     ["search", "chess", "\udcff"], ["perft", "connect4", "1", "4\udcff"]):
            with self.subTest(args=args):
                c, py = both(args)
                self.assertEqual(c[0], 2)
                self.same(c, py, repr(args))
                self.assertNotRegex(c[2].splitlines()[0], r"[\x00-\x1f\x7f-\uffff]")

    def test_every_message_names_program_and_command(self):
        """Run-time failures and warnings too: every stderr line starts with
        "PROG COMMAND: " (doc/cli.md, "Messages"), in both programs."""
        cases = [
            (["search", "tictactoe", "--depth", "2", "--threads", "2"], None, 0),
            (["search", "tictactoe", "--depth", "2", "--playouts", "7", "--quiet"], None, 0),
            (["search", "tictactoe", "--tt-mb", "1048576"], None, 1),
            (["solve", "connect4", "--threads", "2"], NEAR_END + "\n", 0),
            (["solve", "connect4"], "4453x\n\n1111111\n" + NEAR_END + " 3\n", 1),
            (["solve", "connect4", "--check"], NEAR_END + " 3\n" + NEAR_END + "\n", 1),
            (["perft", "tictactoe", "1", "--divide"], None, 0),
        ]
        for args, stdin, status in cases:
            with self.subTest(args=args):
                c, py = both(args, stdin=stdin if stdin is not None else "")
                self.assertEqual(c[0], status, c)
                self.same(c, py, " ".join(args), compare_stdout=False)
                self.assertTrue(c[2] or status == 0)
                for line in c[2].splitlines():
                    if not line.startswith("info depth "):       # search progress
                        self.assertTrue(line.startswith(f"gts {args[0]}: "), line)

    def test_unreadable_stdin(self):
        # stdin open for writing only: reading fails (EBADF). The error is
        # reported as such, not as an empty input (and not as a traceback).
        results = []
        for tool in ("c", "py"):
            with open(os.devnull, "w") as wronly:
                p = subprocess.run(TOOLS[tool] + ["solve", "connect4"], stdin=wronly,
                                   capture_output=True, text=True, timeout=TIMEOUT, env=ENV,
                                   preexec_fn=default_sigint)
            results.append((p.returncode, p.stdout, unprog(p.stderr)))
        self.same(results[0], results[1], "solve with unreadable stdin")
        self.assertEqual(results[0], (1, "", "gts solve: cannot read stdin: "
                                             f"{os.strerror(9)}\n"))

    def test_out_of_memory_is_a_failure(self):
        for args in (["search", "tictactoe", "--tt-mb", "1048576"],
                     ["solve", "connect4", "--tt-mb", "1048576"]):
            with self.subTest(args=args):
                c, py = both(args, stdin=NEAR_END + "\n")
                self.assertEqual(c[0], 1, c)
                self.same(c, py, str(args))
                self.assertEqual(c[2], f"gts {args[0]}: cannot set --tt-mb to 1048576: "
                                       "out of memory\n")


# ---- Ctrl-C ---------------------------------------------------------------------------------

class Interrupt:
    """A tool run that is sent SIGINT once ``ready(stdout, stderr)`` holds."""

    def __init__(self, tool, args, stdin=None, close_stdin=True):
        self.p = subprocess.Popen(TOOLS[tool] + args, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=ENV, preexec_fn=default_sigint)
        self.out, self.err = [], []
        self.changed = queue.Queue()
        self.readers = [threading.Thread(target=self._read, args=(s, acc), daemon=True)
                        for s, acc in ((self.p.stdout, self.out), (self.p.stderr, self.err))]
        for t in self.readers:
            t.start()
        if stdin is not None:
            self.p.stdin.write(stdin)
            self.p.stdin.flush()
        if close_stdin:
            self.p.stdin.close()

    def _read(self, stream, acc):
        for line in stream:
            acc.append(line)
            self.changed.put(None)

    def interrupt(self, ready, timeout=120):
        deadline = time.monotonic() + timeout
        while not ready("".join(self.out), "".join(self.err)):
            left = deadline - time.monotonic()
            if left <= 0 or self.p.poll() is not None:
                self.p.kill()
                raise AssertionError(f"never ready: {''.join(self.out)!r} {''.join(self.err)!r}")
            try:
                self.changed.get(timeout=min(left, 0.5))
            except queue.Empty:
                pass
        sent = time.monotonic()
        self.p.send_signal(signal.SIGINT)
        try:
            rc = self.p.wait(timeout=60)
        finally:
            if self.p.poll() is None:
                self.p.kill()
        for t in self.readers:
            t.join(10)
        for f in (self.p.stdin, self.p.stdout, self.p.stderr):
            f.close()
        return rc, "".join(self.out), unprog("".join(self.err)), time.monotonic() - sent


class TestInterrupt(unittest.TestCase):
    """Ctrl-C (doc/cli.md, "Interrupting"): the running search stops, what was
    completed is printed, "interrupted", status 130, never a traceback (issue
    11, 2.2: python3 -m gts raised KeyError and gts.Busy on Python 3.11)."""

    def check_end(self, rc, err, command, elapsed):
        self.assertEqual(rc, 130, err)
        self.assertNotIn("Traceback", err)
        self.assertTrue(err.endswith(f"gts {command}: interrupted\n"), err)
        self.assertLess(elapsed, 20)

    def test_search(self):
        for tool in ("c", "py"):
            for extra in ([], ["--alg", "ybwc", "--threads", "2"], ["--format", "json"]):
                with self.subTest(tool=tool, extra=extra):
                    run_ = Interrupt(tool, ["search", "othello", "--depth", "60"] + extra)
                    rc, out, err, t = run_.interrupt(lambda o, e: "info depth 4 " in e)
                    self.check_end(rc, err, "search", t)
                    d = (parse_json if extra[:1] == ["--format"] else parse_text)(self, out)
                    self.assertEqual(d["stop"], "stopped")
                    self.assertGreaterEqual(d["depth"], 4)
                    self.assertTrue(d["bestmove"])

    def test_solve(self):
        for tool in ("c", "py"):
            with self.subTest(tool=tool, waiting=False):
                # the second line takes seconds: interrupted while solving it
                run_ = Interrupt(tool, ["solve", "connect4", "--stats"],
                                 stdin=f"{NEAR_END}\n4453\n{NEAR_END}\n")
                rc, out, err, t = run_.interrupt(lambda o, e: o.count("\n") >= 1)
                self.check_end(rc, err, "solve", t)
                self.assertEqual([ln.split()[:2] for ln in out.splitlines()],
                                 [[NEAR_END, "-1"]])
            with self.subTest(tool=tool, waiting=True):
                # interrupted while waiting for input
                run_ = Interrupt(tool, ["solve", "connect4"], stdin=f"{NEAR_END}\n",
                                 close_stdin=False)
                rc, out, err, t = run_.interrupt(lambda o, e: o.count("\n") >= 1)
                self.check_end(rc, err, "solve", t)
                self.assertEqual(out, f"{NEAR_END} -1\n")

    def test_perft(self):
        for tool in ("c", "py"):
            with self.subTest(tool=tool):
                run_ = Interrupt(tool, ["perft", "othello", "1-14"])
                rc, out, err, t = run_.interrupt(lambda o, e: "perft(7)" in o)
                self.check_end(rc, err, "perft", t)
                lines = out.splitlines()
                self.assertGreaterEqual(len(lines), 7)
                for line in lines:
                    self.assertRegex(line, PERFT_LINE)


if __name__ == "__main__":
    sys.exit(pytap.main(sys.modules[__name__], GTS))
