#!/usr/bin/env python3
"""Tests of the `gts` command-line tool (tools/), standard library only.

The tool is found through the GTS_TOOL environment variable (set by meson)
or, when run by hand, at build/tools/gts; tools/bench_mcts (TestBenchMcts)
through GTS_BENCH_MCTS or at build/tools/bench_mcts. Expected values are computed here
independently of libgts: a plain exact minimax over Connect-4 end games (with
a memo of positions, which does not change the values) and perft counts of
tic-tac-toe and Connect-4 from their own move generators.

Run: GTS_TOOL=build/tools/gts python3 tests/test_cli.py [-v] [--tap]
"""
import csv
import io
import json
import os
import random
import re
import subprocess
import sys
import unittest

import pytap

HERE = os.path.dirname(os.path.abspath(__file__))
GTS = os.environ.get("GTS_TOOL") or os.path.join(HERE, "..", "build", "tools", "gts")
BENCH_MCTS = (os.environ.get("GTS_BENCH_MCTS")
              or os.path.join(HERE, "..", "build", "tools", "bench_mcts"))
TIMEOUT = 300


def run(args, stdin=None, timeout=TIMEOUT, env=None):
    """Run the tool; returns (exit status, stdout, stderr)."""
    p = subprocess.run([GTS] + list(args), input=stdin, capture_output=True, text=True,
                       timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


# ---- Connect-4, independently -------------------------------------------------

W, H = 7, 6


class C4:
    """Connect-4 board: grid[c][r], 1 = first player, 2 = second."""

    def __init__(self):
        self.grid = [[0] * H for _ in range(W)]
        self.height = [0] * W
        self.moves = 0
        self.over = False  # the last move made four (tracked by c4_perft)

    def key(self):
        return tuple(tuple(col) for col in self.grid)

    def player(self):
        return 1 + self.moves % 2

    def playable(self, c):
        return self.height[c] < H

    def wins(self, c):
        """Would the side to move complete four by playing column c?"""
        p = self.player()
        r = self.height[c]
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            count = 1
            for s in (1, -1):
                cc, rr = c + s * dc, r + s * dr
                while 0 <= cc < W and 0 <= rr < H and self.grid[cc][rr] == p:
                    count += 1
                    cc += s * dc
                    rr += s * dr
            if count >= 4:
                return True
        return False

    def play(self, c):
        self.grid[c][self.height[c]] = self.player()
        self.height[c] += 1
        self.moves += 1

    def undo(self, c):
        self.height[c] -= 1
        self.grid[c][self.height[c]] = 0
        self.moves -= 1


def c4_solve(b, memo):
    """Exact negamax value, benchmark convention: a win with the side to move's
    stone n+1 scores (43 - n) // 2; a full board is 0."""
    if b.moves == W * H:
        return 0
    k = b.key()
    if k in memo:
        return memo[k]
    best = None
    for c in range(W):
        if not b.playable(c):
            continue
        if b.wins(c):
            v = (43 - b.moves) // 2
        else:
            b.play(c)
            v = -c4_solve(b, memo)
            b.undo(c)
        if best is None or v > best:
            best = v
    memo[k] = best
    return best


def random_endgame(rng, empty):
    """A position with `empty` empty cells reached by random play in which no
    move wins (the game is not over). Returns the move string."""
    while True:
        b = C4()
        seq = []
        ok = True
        while b.moves < W * H - empty:
            cols = [c for c in range(W) if b.playable(c) and not b.wins(c)]
            if not cols:
                ok = False
                break
            c = rng.choice(cols)
            b.play(c)
            seq.append(str(c + 1))
        if ok:
            return "".join(seq)


def c4_value(position):
    b = C4()
    for ch in position:
        b.play(int(ch) - 1)
    return c4_solve(b, {})


def c4_perft(b, depth):
    if depth == 0:
        return 1
    # The game is over when the last move made four: detect it by asking
    # whether the previous player had completed a line.
    if b.moves == W * H or b.over:
        return 1
    n = 0
    for c in range(W):
        if b.playable(c):
            won = b.wins(c)
            b.play(c)
            saved = b.over
            b.over = won
            n += c4_perft(b, depth - 1)
            b.over = saved
            b.undo(c)
    return n


# ---- tic-tac-toe, independently ----------------------------------------------------

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def ttt_perft_all(max_depth):
    counts = [0] * (max_depth + 1)

    def walk(cells, ply, player):
        won = any(cells[a] and cells[a] == cells[b] == cells[c] for a, b, c in LINES)
        free = [i for i in range(9) if not cells[i]]
        if won or not free:
            for d in range(ply, max_depth + 1):
                counts[d] += 1
            return
        counts[ply] += 1
        if ply == max_depth:
            return
        for i in free:
            cells[i] = player
            walk(cells, ply + 1, 3 - player)
            cells[i] = 0

    walk([0] * 9, 0, 1)
    return counts


# ---- the tests -----------------------------------------------------------------------


def algorithms():
    rc, out, err = run(["algorithms", "--format", "json"])
    assert rc == 0, err
    return json.loads(out)["rows"]


class TestBasics(unittest.TestCase):
    def test_help_and_version(self):
        rc, out, _ = run(["--help"])
        self.assertEqual(rc, 0)
        self.assertIn("Usage:", out)
        for cmd in ("solve", "search", "perft", "bench", "speedup", "nodes", "algorithms"):
            self.assertIn(cmd, out)
            rc, out2, err2 = run([cmd, "--help"])
            self.assertEqual(rc, 0, f"{cmd} --help: {err2}")
            self.assertIn("Usage: gts " + cmd, out2)
        rc, out, _ = run(["--version"])
        self.assertEqual(rc, 0)
        self.assertRegex(out, r"^gts \d+\.\d+\.\d+")

    def test_usage_errors_exit_2(self):
        cases = [
            [],
            ["frobnicate"],
            ["--frobnicate"],
            ["search", "tictactoe", "--bogus"],
            ["search", "tictactoe", "--depth"],
            ["search", "tictactoe", "--depth", "zero"],
            ["search", "nosuchgame"],
            ["search", "tictactoe", "--alg", "nosuchalg"],
            ["perft", "tictactoe"],
            ["perft", "tictactoe", "x"],
            ["bench", "--format", "xml"],
            ["speedup", "--threads", "0"],
            ["solve"],
            ["solve", "othello"],
            ["solve", "connect4", "--alg", "nosuchalg"],
            ["solve", "connect4", "--threads", "-3"],
            ["algorithms", "extra"],
        ]
        for args in cases:
            rc, out, err = run(args, stdin="")
            self.assertEqual(rc, 2, f"gts {' '.join(args)}: rc {rc}, stderr {err!r}")
            self.assertTrue(err.strip(), f"gts {' '.join(args)}: no message on stderr")
            self.assertEqual(out, "", f"gts {' '.join(args)}: printed to stdout")

    def test_messages_name_program_and_command(self):
        """doc/cli.md, "Messages": "gts COMMAND: message", then the hint of
        a usage error, for every command (match: tests/test_match.py; the
        shared commands also in tests/test_cli_agree.py)."""
        cases = [
            (["nodes"], 2), (["nodes", "tictactoe", "x", "y"], 2),
            (["nodes", "tictactoe", "--format", "xml"], 2),
            (["nodes", "tictactoe", "--depths", "x"], 2),
            (["nodes", "tictactoe", "--algs", "nosuch"], 2), (["nodes", "nosuch"], 2),
            (["bench", "--bogus"], 2), (["bench", "--repeat", "0"], 2),
            (["bench", "--engine", "x"], 2), (["speedup", "--threads", "0"], 2),
            (["speedup", "--game", "nosuch"], 2), (["speedup", "x"], 2),
            (["algorithms", "--format", "x"], 2), (["match"], 2),
            (["search", "tictactoe", "--depth", "2", "--threads", "2", "--quiet"], 0),
            (["search", "tictactoe", "--depth", "2", "--playouts", "3", "--quiet"], 0),
            (["search", "tictactoe", "--tt-mb", "1048576"], 1),
            (["nodes", "tictactoe", "--algs", "pvs", "--depths", "1", "--tt-mb", "1048576"], 1),
            (["solve", "connect4", "--threads", "2"], 0),
            (["solve", "connect4"], 1),
        ]
        for args, status in cases:
            with self.subTest(args=args):
                stdin = "4453x\n" if args[-1] == "connect4" else ""
                rc, out, err = run(args, stdin=stdin)
                self.assertEqual(rc, status, err)
                # A sanitizer build's own warnings (ASan's "failed to
                # allocate" for --tt-mb 1048576) are not the program's.
                lines = [ln for ln in err.splitlines() if not ln.startswith("==")]
                self.assertTrue(lines, "a message")
                for line in lines:
                    if line != f"Try 'gts {args[0]} --help' for more information.":
                        self.assertTrue(line.startswith(f"gts {args[0]}: "), line)
                self.assertNotIn("error:", err)
                if status == 2:
                    self.assertEqual(lines[-1],
                                     f"Try 'gts {args[0]} --help' for more information.")

    def test_algorithms_listing(self):
        rows = algorithms()
        names = [r["name"] for r in rows]
        for n in ("minimax", "alphabeta", "pvs"):
            self.assertIn(n, names)
        for r in rows:
            self.assertIsInstance(r["exact"], bool)
            self.assertIsInstance(r["parallel"], bool)
        rc, out, _ = run(["algorithms", "--format", "csv"])
        self.assertEqual(rc, 0)
        parsed = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual([r["name"] for r in parsed], names)
        rc, out, _ = run(["algorithms"])
        self.assertEqual(rc, 0)
        self.assertIn("alphabeta", out)


class TestSolve(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Random end games (8-12 empty cells, fixed seed), chosen so that wins,
        # losses and draws for the side to move all occur: random play mostly
        # leaves the side to move winning.
        rng = random.Random(20240531)
        want = {1: 6, -1: 5, 0: 3}
        cls.positions, cls.expected = [], {}
        for i in range(1000):
            p = random_endgame(rng, 8 + i % 5)
            v = c4_value(p)
            sign = (v > 0) - (v < 0)
            if want[sign] > 0 and p not in cls.expected:
                want[sign] -= 1
                cls.positions.append(p)
                cls.expected[p] = v
            if not any(want.values()):
                break
        assert len(cls.positions) >= 12, "not enough varied end games"
        cls.algs = algorithms()

    def check_solve(self, alg, extra=()):
        stdin = "".join(p + "\n" for p in self.positions)
        rc, out, err = run(["solve", "connect4", "--alg", alg] + list(extra), stdin=stdin)
        self.assertEqual(rc, 0, f"{alg}: {err}")
        lines = out.splitlines()
        self.assertEqual(len(lines), len(self.positions), f"{alg}: {out!r}")
        for p, line in zip(self.positions, lines):
            pos, score = line.split()
            self.assertEqual(pos, p)
            self.assertEqual(int(score), self.expected[p], f"{alg} on {p}")

    def test_every_exact_algorithm(self):
        exact = [r for r in self.algs if r["exact"]]
        self.assertTrue(exact)
        for r in exact:
            with self.subTest(alg=r["name"]):
                extra = ["--threads", "2"] if r["parallel"] else []
                self.check_solve(r["name"], extra)

    def test_default_and_stats(self):
        stdin = "".join(p + "\n" for p in self.positions[:4])
        rc, out, err = run(["solve", "connect4", "--stats"], stdin=stdin)
        self.assertEqual(rc, 0, err)
        for p, line in zip(self.positions[:4], out.splitlines()):
            f = line.split()
            self.assertEqual(len(f), 4, line)
            self.assertEqual(f[0], p)
            self.assertEqual(int(f[1]), self.expected[p])
            self.assertGreater(int(f[2]), 0)
            self.assertGreaterEqual(int(f[3]), 0)

    def test_non_exact_algorithm_rejected(self):
        for r in self.algs:
            if not r["exact"]:
                rc, out, err = run(["solve", "connect4", "--alg", r["name"]], stdin="4453\n")
                self.assertEqual(rc, 2)
                self.assertIn("not exact", err)
                self.assertEqual(out, "")

    def test_malformed_lines(self):
        good = self.positions[:2]
        lines = [
            good[0],
            "4453x",           # 2: bad character
            "",                # 3: empty line
            "1111111",         # 4: full column
            "1212121",         # 5: the 7th move wins: already decided
            "1234567" * 7,     # 6: too long
            good[1],
            "12 34",           # 8: bad character (blank inside)
            "4" * 1000,        # 9: very long line
        ]
        rc, out, err = run(["solve", "connect4"], stdin="\n".join(lines) + "\n")
        self.assertNotEqual(rc, 0)
        self.assertEqual(out.splitlines(), [f"{p} {self.expected[p]}" for p in good])
        for n in (2, 3, 4, 5, 6, 8, 9):
            self.assertRegex(err, rf"line {n}:", f"no error for line {n}: {err}")
        for n in (1, 7):
            self.assertNotRegex(err, rf"line {n}:")
        self.assertRegex(err, r"line 2:.*character")
        self.assertRegex(err, r"line 3:.*empty")
        self.assertRegex(err, r"line 4:.*full")
        self.assertRegex(err, r"line 5:.*(decided|over|wins)")
        self.assertRegex(err, r"line 6:.*long")

    def test_newlines(self):
        p = self.positions[0]
        want = f"{p} {self.expected[p]}\n"
        for stdin in (p, p + "\n", p + "\r\n", "  " + p + " \n"):
            rc, out, err = run(["solve", "connect4"], stdin=stdin)
            self.assertEqual((rc, out), (0, want), f"{stdin!r}: {err}")
        rc, out, err = run(["solve", "connect4"], stdin="")
        self.assertEqual((rc, out), (0, ""), err)
        # blank lines at the very end are ignored, not in the middle
        rc, out, err = run(["solve", "connect4"], stdin=p + "\n\n \n")
        self.assertEqual((rc, out), (0, want), err)
        rc, out, err = run(["solve", "connect4"], stdin="\n" + p + "\n")
        self.assertEqual((rc, out), (1, want))
        self.assertRegex(err, r"line 1:.*empty")

    def test_full_board(self):
        # A drawn full board (0 moves left) and the position one move before.
        full = random_endgame(random.Random(1), 0)
        stdin = f"{full}\n{full[:-1]}\n"
        rc, out, err = run(["solve", "connect4"], stdin=stdin)
        self.assertEqual(rc, 0, err)
        self.assertEqual(out, f"{full} 0\n{full[:-1]} {c4_value(full[:-1])}\n")

    def test_check_mode(self):
        p, q = self.positions[:2]
        stdin = f"{p} {self.expected[p]}\n{q} {self.expected[q] + 1}\n"
        rc, out, err = run(["solve", "connect4", "--check"], stdin=stdin)
        self.assertEqual(rc, 1)
        self.assertEqual(len(out.splitlines()), 2)
        self.assertRegex(err, r"line 2:.*expected")
        self.assertNotRegex(err, r"line 1:")

    def test_engine_kept_across_lines(self):
        # The same positions twice, then in reverse: the table carried from
        # line to line must not change any answer.
        ps = self.positions + self.positions[::-1]
        rc, out, err = run(["solve", "connect4", "--tt-mb", "1"], stdin="\n".join(ps) + "\n")
        self.assertEqual(rc, 0, err)
        got = [tuple(l.split()) for l in out.splitlines()]
        self.assertEqual(got, [(p, str(self.expected[p])) for p in ps])


class TestPerft(unittest.TestCase):
    def perft(self, args):
        rc, out, err = run(["perft"] + args)
        self.assertEqual(rc, 0, err)
        return {int(m.group(1)): int(m.group(2))
                for m in re.finditer(r"perft\((\d+)\) = (\d+)", out)}

    def test_tictactoe(self):
        want = ttt_perft_all(9)
        got = self.perft(["tictactoe", "1-9"])
        self.assertEqual(got, {d: want[d] for d in range(1, 10)})
        self.assertEqual(want[9], 255168)  # the number of tic-tac-toe games

    def test_connect4(self):
        got = self.perft(["connect4", "1-6"])
        for d in range(1, 7):
            b = C4()
            self.assertEqual(got[d], c4_perft(b, d), f"depth {d}")

    def test_connect4_from_position(self):
        p = "4453"
        b = C4()
        for ch in p:
            b.play(int(ch) - 1)
        got = self.perft(["connect4", "4", p])
        self.assertEqual(got[4], c4_perft(b, 4))

    def test_other_games_run(self):
        got = self.perft(["othello", "1-3"])
        self.assertEqual(got, {1: 4, 2: 12, 3: 56})  # the published Othello perft
        got = self.perft(["randtree", "3", "--seed", "7", "--branching", "5", "--depth", "3"])
        self.assertEqual(got[3], 125)

    def test_go(self):
        # Three plies from an empty n x n board capture nothing and repeat no
        # board; two passes end the game (one leaf): stone-stone-any,
        # stone-pass-any, pass-stone-any, pass-pass.
        for n in (9, 5, 3):
            p = n * n
            got = self.perft(["go", "1-3", str(n)])
            self.assertEqual(got, {1: p + 1, 2: p * p + p + 1,
                                   3: p * (p - 1) * (p - 1) + 2 * p * p + 1}, f"{n}x{n}")
        got = self.perft(["go", "2", "moves=pass"])
        self.assertEqual(got[2], 81 * 81 + 1, "after a pass: 81 points, each answered by 80 "
                                              "points or a pass, and the pass that ends it")

    def test_divide(self):
        rc, out, err = run(["perft", "tictactoe", "2", "--divide"])
        self.assertEqual(rc, 0, err)
        parts = [int(x) for x in re.findall(r"^\s+\d: (\d+)$", out, re.M)]
        self.assertEqual(parts, [8] * 9)


class TestSearch(unittest.TestCase):
    def test_text_output(self):
        rc, out, err = run(["search", "tictactoe", "--alg", "pvs", "--depth", "9"])
        self.assertEqual(rc, 0, err)
        fields = dict(line.split(None, 1) for line in out.splitlines() if line.strip())
        for k in ("bestmove", "score", "bound", "pv", "depth", "nodes", "tt_hits", "tt_cutoffs",
                  "time_us", "nps", "nodes_mandatory", "thread_nodes", "stop", "hashfull"):
            self.assertIn(k, fields)
        self.assertEqual(fields["bound"], "exact")
        self.assertEqual(int(fields["score"].split()[0]), 0)  # a draw
        self.assertEqual(int(fields["depth"]), 9)
        self.assertIn(fields["bestmove"], [str(i) for i in range(1, 10)])
        self.assertEqual(fields["pv"].split()[0], fields["bestmove"])
        self.assertGreater(int(fields["nodes"]), 0)
        # one progress line per completed iteration
        info = [l for l in err.splitlines() if l.startswith("info depth")]
        self.assertEqual(len(info), 9, err)

    def test_connect4_win_and_json(self):
        # X (to move) has three in column 1: the win is column 1.
        rc, out, err = run(["search", "connect4", "121212", "--depth", "4", "--format", "json",
                            "--quiet"])
        self.assertEqual(rc, 0, err)
        r = json.loads(out)
        self.assertEqual(r["bestmove"], "1")
        self.assertEqual(r["score"], (43 - 6) // 2)
        self.assertEqual(r["pv"][0], "1")
        self.assertEqual(err, "")

    def test_go(self):
        rc, out, err = run(["search", "go", "5 komi=0.5 moves=C3", "--alg", "mcts",
                            "--playouts", "500", "--format", "json", "--quiet"])
        self.assertEqual(rc, 0, err)
        r = json.loads(out)
        self.assertEqual((r["game"], r["position"], r["algorithm"]),
                         ("go", "5 komi=0.5 moves=C3", "mcts"))
        self.assertRegex(r["bestmove"], r"^([A-E][1-5]|pass)$")
        # a captured stone leaves a board Black owns: the pass keeps it
        rc, out, err = run(["search", "go", "3 komi=0 moves=B1,A1,A2,pass", "--depth", "1",
                            "--format", "json", "--quiet"])
        self.assertEqual(rc, 0, err)
        self.assertEqual(json.loads(out)["score"], 900, "Black owns all 9 points")

    def test_parallel_fields(self):
        par = [r["name"] for r in algorithms() if r["parallel"]]
        if not par:
            self.skipTest("no parallel algorithm")
        rc, out, err = run(["search", "connect4", "4453", "--alg", par[0], "--threads", "2",
                            "--depth", "8", "--quiet"])
        self.assertEqual(rc, 0, err)
        for k in ("nodes_mandatory", "nodes_speculative", "nodes_wasted"):
            self.assertRegex(out, rf"(?m)^{k}\s+\d+$")
        self.assertRegex(out, r"(?m)^thread_nodes\s+\d+ \d+$")

    def test_limits(self):
        rc, out, err = run(["search", "othello", "--time-ms", "200", "--quiet"])
        self.assertEqual(rc, 0, err)
        self.assertRegex(out, r"(?m)^stop\s+(time-limit|none)$")
        rc, out, err = run(["search", "connect4", "--nodes", "5000", "--quiet"])
        self.assertEqual(rc, 0, err)
        self.assertRegex(out, r"(?m)^stop\s+node-limit$")

    def test_bad_position(self):
        rc, out, err = run(["search", "connect4", "44x"])
        self.assertEqual(rc, 2)
        self.assertIn("bad connect4 position '44x': bad character 'x' at column 3", err)
        # which move is wrong and why, for every game (doc/cli.md, "Positions")
        for args, why in (
                (["search", "connect4", "1111111"], "move 7: column 1 is full"),
                (["perft", "connect4", "1", "1212121"],
                 "move 7 (column 1) wins the game: the position is already decided"),
                (["search", "tictactoe", "5195"], "move 4: cell 5 is already taken"),
                (["perft", "tictactoe", "1", "12345678"],
                 "move 8 (cell 8): the game is already over: move 7 made three in a row"),
                (["search", "othello", "f5f5"], "move 2: f5 is not legal here: the square is "
                                                "occupied"),
                (["perft", "othello", "1", "ps"], "move 1: ps (pass) is not legal here: the "
                                                  "side to move has moves (d3 c4 f5 e6)"),
                (["search", "othello", "f5d"], "move 2: 'd' at column 3 is incomplete"),
                (["perft", "randtree", "1", "0,9"], "move 2: child 9 does not exist: the node "
                                                    "has 8 children (0..7)"),
                (["search", "randtree", "0,,1"], "move 2: empty move at column 3"),
                (["search", "go", "25"], "bad board size '25' at column 1 (expected 2..19)"),
                (["search", "go", "9 9"], "board size '9' at column 3 given twice"),
                (["perft", "go", "1", "komi=7.3"], "bad komi '7.3' at column 6"),
                (["search", "go", "maxmoves=0"], "bad maxmoves '0' at column 10"),
                (["search", "go", "9 patterns=2"], "bad patterns '2' at column 12 "
                                                   "(expected 0 or 1)"),
                (["search", "go", "moves=E5 foo"], "unknown token 'foo' at column 10"),
                (["search", "go", "moves=C3,,D4"], "move 2: empty move at column 10"),
                (["search", "go", "5 moves=C3,F1"], "move 2: bad vertex 'F1' at column 12 "
                                                    "(expected A1-E5, or pass)"),
                (["search", "go", "moves=C3,I5"], "move 2: bad vertex 'I5' at column 10 "
                                                  "(expected A1-J9, no column I, or pass)"),
                (["search", "go", "moves=C3,c3"], "move 2: c3 is not legal here: the point is "
                                                  "occupied"),
                (["search", "go", "moves=pass,pass,C3"],
                 "move 3 (C3): the game is already over: two passes in a row"),
                (["perft", "go", "1", "maxmoves=2 moves=C3,D4,E5"],
                 "move 3 (E5): the game is already over: it reached its move cap (maxmoves=2)"),
                (["search", "go", "3 moves=B1,pass,A2,A1"],
                 "move 4: A1 is not legal here: suicide"),
                # a ko: Black C2 takes B2, White B2 at once would repeat the board
                (["search", "go", "4 moves=B3,C3,A2,B2,B1,D2,pass,C1,C2,B2"],
                 "move 10: B2 is not legal here: it repeats an earlier board (positional "
                 "superko)")):
            rc, out, err = run(args)
            self.assertEqual((rc, out), (2, ""), args)
            self.assertIn(why, err.splitlines()[0])

    def test_selective_search_options(self):
        """Issue 32: --null-move, --lmr, --futility, --razor, --lmp, --contempt set
        the library's options: each prunes a random tree with passes; the
        ranges are the library's."""
        def nodes(extra, branching=8):
            rc, out, err = run(["search", "randtree", "--depth", "7", "--quiet",
                                "--format", "json", "--branching", str(branching)] + extra)
            self.assertEqual(rc, 0, err)
            r = json.loads(out)
            self.assertIn(r["bestmove"], [str(i) for i in range(branching)])
            return r["nodes"]
        full = nodes([])
        for extra in (["--null-move", "3"], ["--lmr", "100"], ["--futility", "100"],
                      ["--razor", "300"]):
            self.assertLess(nodes(extra), full, extra)
        # LMP prunes from 3 plies to go, past lmp + depth^2 moves (12 with
        # --lmp 3): a tree wider than that.
        self.assertLess(nodes(["--lmp", "3"], 16), nodes([], 16), "--lmp 3")
        self.assertEqual(nodes(["--contempt", "-40"]), full, "no repetition in a tree")
        rc, out, err = run(["search", "tictactoe", "--lmr", "401"])
        self.assertEqual((rc, out), (2, ""))
        self.assertEqual(err.splitlines()[0], "gts search: --lmr: expected 0..400, got '401'")

    def test_option_ranges(self):
        """Issue 11, 2.8: ranges are the library's, one line and a hint, exit 2;
        a table that cannot be allocated is a run-time failure, exit 1."""
        for args, msg in ((["--tt-mb", "2000000"], "--tt-mb: expected 0..1048576, got "
                                                   "'2000000'"),
                          (["--aspiration", "32000"], "--aspiration: expected 0..31000, got "
                                                      "'32000'")):
            rc, out, err = run(["search", "tictactoe"] + args)
            self.assertEqual((rc, out), (2, ""))
            self.assertEqual(err, f"gts search: {msg}\nTry 'gts search --help' for more "
                                  "information.\n")
        rc, out, err = run(["search", "tictactoe", "--time-ms", "18446744073710", "--quiet"])
        self.assertEqual(rc, 0, err)
        # (ASan would abort on the allocation instead of failing it)
        env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "")
                   + ":allocator_may_return_null=1")
        rc, out, err = run(["search", "tictactoe", "--tt-mb", "1048576"], env=env)
        self.assertEqual((rc, out), (1, ""))
        # (and warns "==pid==WARNING: AddressSanitizer failed to allocate")
        err = "".join(line for line in err.splitlines(True) if not line.startswith("=="))
        self.assertEqual(err, "gts search: cannot set --tt-mb to 1048576: out of memory\n")


class TestTables(unittest.TestCase):
    def test_bench_csv_json(self):
        rc, out, err = run(["bench", "--quick", "--repeat", "1", "--format", "csv"])
        self.assertEqual(rc, 0, err)
        rows = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual(len(rows), 6)
        by = {(r["workload"], r["engine"]): r for r in rows}
        for w in ("connect4", "randtree"):
            bare, lbare = by[(w, "bare")], by[(w, "lib-bare")]
            self.assertEqual(bare["nodes"], lbare["nodes"], "lib-bare searches bare's tree")
            self.assertGreater(float(lbare["nodes_per_s"]), 0)
            self.assertLessEqual(int(by[(w, "lib-full")]["nodes"]), int(bare["nodes"]))
        rc, out, err = run(["bench", "--quick", "--repeat", "1", "--format", "json"])
        self.assertEqual(rc, 0, err)
        j = json.loads(out)
        self.assertEqual(j["command"], "bench")
        self.assertEqual(len(j["rows"]), 6)
        self.assertTrue(any("overhead" in n for n in j["notes"]))
        # one paired ratio per workload, over the repeats run
        paired = [n for n in j["notes"] if "paired by repeat" in n]
        self.assertEqual(len(paired), 2, j["notes"])
        self.assertTrue(all("median of 1 " in n for n in paired), paired)
        # one engine alone (for a profiler): its rows, no comparison
        rc, out, err = run(["bench", "--quick", "--repeat", "1", "--engine", "lib-bare",
                            "--format", "json"])
        self.assertEqual(rc, 0, err)
        j = json.loads(out)
        self.assertEqual([r["engine"] for r in j["rows"]], ["lib-bare", "lib-bare"])
        self.assertEqual(j["rows"][0]["nps_vs_bare"], "-")
        self.assertFalse(any("overhead" in n or "paired" in n for n in j["notes"]), j["notes"])
        rc, out, err = run(["bench", "--engine", "nope"])
        self.assertEqual(rc, 2)
        self.assertIn("--engine", err)

    def test_speedup_csv_json(self):
        args = ["speedup", "--game", "tictactoe", "--depth", "6", "--threads", "1,2",
                "--repeat", "1", "--algs", "ybwc,nosuchalg,lazysmp"]
        rc, out, err = run(args + ["--format", "json"])
        self.assertEqual(rc, 0, err)
        j = json.loads(out)
        self.assertTrue(any("nosuchalg" in n for n in j["notes"]), j["notes"])
        known = {r["name"] for r in algorithms()}
        for row in j["rows"]:
            self.assertIn(row["algorithm"], known)
            self.assertEqual(row["score_ok"], "yes")
        algs = {row["algorithm"] for row in j["rows"]}
        self.assertIn("alphabeta", algs)
        rc, out, err = run(args + ["--format", "csv"])
        self.assertEqual(rc, 0, err)
        rows = list(csv.DictReader(io.StringIO(out)))
        self.assertIn("speedup", rows[0])
        self.assertIn("nosuchalg", err)  # csv notes go to stderr

    def speedup_json(self, args):
        """`gts speedup ARGS --repeat 1 --format json`: the JSON and the
        set of algorithms in its rows."""
        rc, out, err = run(["speedup"] + args + ["--repeat", "1", "--format", "json"])
        self.assertEqual(rc, 0, err)
        j = json.loads(out)
        return j, {row["algorithm"] for row in j["rows"]}

    def test_speedup_virtual_leaves_out_mcts(self):
        # Time to a depth says nothing of MCTS (bench_mcts_virtual measures
        # it on virtual processors): not in the default list, and a note
        # when asked for by name; the depth-first algorithms still run.
        base = ["--virtual", "--game", "tictactoe", "--depth", "4", "--threads", "2"]
        _, algs = self.speedup_json(base)
        self.assertNotIn("mcts", algs)
        self.assertIn("dts", algs)
        j, algs = self.speedup_json(base + ["--algs", "mcts,dts"])
        self.assertEqual(algs - {"alphabeta", "pvs"}, {"dts"})
        self.assertTrue(any("mcts" in n and "virtual" in n for n in j["notes"]), j["notes"])

    def test_speedup_split_ply(self):
        # --split-ply reaches the engine (GTS_OPT_SPLIT_PLY): the virtual
        # schedule of DTS changes on a tree with deep split points, the
        # score does not; out-of-range values are usage errors.
        base = ["--virtual", "--game", "randtree", "--branching", "4", "--tree-depth", "8",
                "--depth", "8", "--threads", "4", "--algs", "dts"]
        rows = {}
        for p in ("0", "1"):
            j, _ = self.speedup_json(base + ["--split-ply", p])
            rows[p] = [r for r in j["rows"] if r["algorithm"] == "dts" and r["threads"] == 4][0]
            self.assertEqual(rows[p]["score_ok"], "yes")
        self.assertNotEqual(rows["0"]["ticks"], rows["1"]["ticks"])
        for bad in ("-1", "129", "x"):
            rc, _, err = run(["speedup", "--split-ply", bad])
            self.assertEqual(rc, 2, bad)
            self.assertIn("--split-ply", err)

    def test_speedup_default_leaves_out_mcts(self):
        # MCTS has no time to depth (it reaches a depth only by proving the
        # root to it: hours on the default random tree): not in the default
        # list; asked for by name it runs, with a note.
        base = ["--game", "tictactoe", "--depth", "4", "--threads", "1"]
        _, algs = self.speedup_json(base)
        self.assertNotIn("mcts", algs)
        self.assertIn("dts", algs)
        j, algs = self.speedup_json(base + ["--algs", "mcts"])
        self.assertIn("mcts", algs)
        self.assertTrue(any("mcts" in n and "playouts" in n for n in j["notes"]), j["notes"])

    def test_nodes_csv(self):
        rc, out, err = run(["nodes", "tictactoe", "--algs", "alphabeta,minimax", "--depths",
                            "1-4", "--format", "csv"])
        self.assertEqual(rc, 0, err)
        rows = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual(len(rows), 8)
        mm = [int(r["nodes"]) for r in rows if r["algorithm"] == "minimax"]
        self.assertEqual(len(mm), 4)
        self.assertTrue(all(a < b for a, b in zip(mm, mm[1:])))


@unittest.skipUnless(os.access(BENCH_MCTS, os.X_OK), f"no bench_mcts at {BENCH_MCTS}")
class TestBenchMcts(unittest.TestCase):
    """tools/bench_mcts starts each game it accepts from that game's own
    state (it used to give every game but four a Connect-4 state, and
    randtree and chess then made 0 playouts). One short round per game."""

    GAMES = ("connect4", "connect4h", "othello", "tictactoe", "go", "chess", "randtree")

    def bench(self, args):
        p = subprocess.run([BENCH_MCTS] + list(args), capture_output=True, text=True,
                           timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr

    def test_every_game_makes_playouts(self):
        rc, out, err = self.bench(["--rounds", "1", "--time-ms", "100", "--threads", "1"]
                                  + list(self.GAMES))
        self.assertEqual(rc, 0, err)
        rows = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual([r["game"] for r in rows], list(self.GAMES))
        for r in rows:
            self.assertGreater(float(r["median_playouts_per_s"]), 0,
                               f"{r['game']}: no playouts in 100 ms")

    def test_unknown_game_refused(self):
        for name in ("nosuchgame", "Go"):
            rc, out, err = self.bench(["--rounds", "1", "--time-ms", "1", name])
            self.assertEqual(rc, 2, f"bench_mcts {name}: rc {rc}, stderr {err!r}")
            self.assertEqual(out, "", f"bench_mcts {name}: printed to stdout")
            self.assertIn(f"unknown game '{name}'", err)
            for g in self.GAMES:
                self.assertRegex(err, rf"[ (:]{g}[,)]", f"accepted name {g} not listed")


if __name__ == "__main__":
    sys.exit(pytap.main(sys.modules[__name__], GTS))
