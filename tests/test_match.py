#!/usr/bin/env python3
"""Tests of `gts match` (tools/cmd_match.c), standard library only.

The references are independent of libgts: a plain tic-tac-toe minimax (two
perfect players must reach the game-theoretic value of every opening, so
every game's result is predicted), and a Connect-4 board that replays each
recorded game, checks every move is legal and finds the winner itself.

Run: GTS_TOOL=build/tools/gts python3 tests/test_match.py [-v] [--tap]
"""
import csv
import functools
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
GTS = os.environ.get("GTS_TOOL") or os.path.join(HERE, "..", "build", "tools", "gts")
TIMEOUT = 300


def run(args, stdin=None):
    p = subprocess.run([GTS, "match"] + list(args), input=stdin, capture_output=True,
                       text=True, timeout=TIMEOUT)
    return p.returncode, p.stdout, p.stderr


def match_csv(args):
    """Run a match with --format csv and --record; returns (summary rows by
    set-up label, game rows)."""
    with tempfile.TemporaryDirectory() as d:
        rec = os.path.join(d, "games.csv")
        rc, out, err = run(list(args) + ["--format", "csv", "--record", rec])
        if rc != 0:
            raise AssertionError(f"exit {rc}: {err}")
        summary = {r["setup"]: r for r in csv.DictReader(io.StringIO(out))}
        with open(rec) as f:
            games = list(csv.DictReader(f))
    return summary, games


# ---- tic-tac-toe, independently ----------------------------------------------

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
         (2, 4, 6)]


def ttt_winner(board):
    for a, b, c in LINES:
        if board[a] and board[a] == board[b] == board[c]:
            return board[a]
    return 0


@functools.lru_cache(maxsize=None)
def ttt_value(board, player):
    """Value for `player` (1 or 2) to move: 1 win, 0 draw, -1 loss."""
    w = ttt_winner(board)
    if w:
        return 1 if w == player else -1
    if all(board):
        return 0
    best = -2
    for i in range(9):
        if not board[i]:
            nb = board[:i] + (player,) + board[i + 1:]
            best = max(best, -ttt_value(nb, 3 - player))
    return best


def ttt_opening(text):
    """Board after the opening (cells 1-9 in order) and the player to move."""
    board = [0] * 9
    for k, ch in enumerate(text):
        board[int(ch) - 1] = 1 + k % 2
    return tuple(board), 1 + len(text) % 2


# ---- Connect-4, independently -------------------------------------------------

def c4_replay(opening, moves):
    """Play the opening and the recorded moves (1-based columns) on a plain
    7x6 grid; every move must be legal and the game must end exactly after
    the last one. Returns the winning player (1 first, 2 second) or 0."""
    grid = [[0] * 6 for _ in range(7)]
    seq = [int(c) for c in opening] + [int(c) for c in moves.split()]
    winner = 0
    for k, col in enumerate(seq):
        assert winner == 0, f"move {k + 1} after the game was won"
        c = col - 1
        assert 0 <= c < 7 and 0 in grid[c], f"move {k + 1}: column {col} is not playable"
        r = grid[c].index(0)
        p = 1 + k % 2
        grid[c][r] = p
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = 1
            for s in (1, -1):
                x, y = c + s * dc, r + s * dr
                while 0 <= x < 7 and 0 <= y < 6 and grid[x][y] == p:
                    n += 1
                    x, y = x + s * dc, y + s * dr
            if n >= 4:
                winner = p
    assert winner or all(0 not in col for col in grid), "the game ended before its end"
    return winner


class MatchTest(unittest.TestCase):
    def check_counts(self, summary, games, labels=("A", "B")):
        a, b = (summary[x] for x in labels)
        n = len(games)
        for s in (a, b):
            self.assertEqual(int(s["games"]), n)
            self.assertEqual(int(s["wins"]) + int(s["losses"]) + int(s["draws"]), n)
            for k in ("wins", "losses", "draws"):
                self.assertEqual(int(s[k]), int(s["first_" + k]) + int(s["second_" + k]))
            self.assertEqual(int(s["first_wins"]) + int(s["first_losses"]) +
                             int(s["first_draws"]), n // 2, "each set-up is first in half")
        self.assertEqual(a["wins"], b["losses"])
        self.assertEqual(a["losses"], b["wins"])
        self.assertEqual(a["draws"], b["draws"])
        self.assertEqual(a["first_wins"], b["second_losses"])
        self.assertEqual(sum(g["winner"] == labels[0] for g in games), int(a["wins"]))
        self.assertEqual(sum(g["winner"] == "draw" for g in games), int(a["draws"]))
        # each opening twice, colours swapped
        for i in range(0, n, 2):
            self.assertEqual(games[i]["opening"], games[i + 1]["opening"])
            self.assertEqual(games[i]["first"], games[i + 1]["second"])

    def test_tictactoe_perfect_play_reaches_the_value(self):
        # Both sides search to the end: every game must end with the
        # minimax value of its opening (72 two-ply openings: draws and
        # first-player wins alike, so a tool that only draws fails).
        summary, games = match_csv(["tictactoe", "--a", "alg=alphabeta,depth=9",
                                    "--b", "alg=mtdf,depth=9", "--openings", "all:2"])
        self.assertEqual(len(games), 144)
        self.check_counts(summary, games)
        outcomes = set()
        for g in games:
            board, player = ttt_opening(g["opening"])
            v = ttt_value(board, player)  # from the player to move after the opening
            # the player to move after two plies is the first player
            expect = "first" if v > 0 else "second" if v < 0 else "none"
            self.assertEqual(g["winner_colour"], expect, g)
            outcomes.add(expect)
        self.assertEqual(outcomes, {"first", "none"})

    def test_tictactoe_one_ply_openings_all_draw(self):
        summary, games = match_csv(["tictactoe", "--a", "alg=pvs,depth=9",
                                    "--b", "alg=alphabeta,nodes=100000", "--openings", "all:1"])
        self.assertEqual(len(games), 18)
        self.check_counts(summary, games)
        self.assertEqual(int(summary["A"]["draws"]), 18)

    def test_connect4h_weak_loses_to_strong(self):
        summary, games = match_csv(["connect4h", "--a", "alg=alphabeta,depth=1,name=weak",
                                    "--b", "alg=alphabeta,depth=6,name=strong",
                                    "--openings", "all:1"])
        self.assertEqual(len(games), 14)
        self.check_counts(summary, games, ("weak", "strong"))
        self.assertGreaterEqual(int(summary["strong"]["wins"]), 12, summary)
        for g in games:
            w = c4_replay(g["opening"], g["moves"])
            expect = "first" if w == 1 else "second" if w == 2 else "none"
            self.assertEqual(g["winner_colour"], expect, g)
            self.assertEqual(int(g["plies"]), len(g["moves"].split()))
            if w:
                # the winner's set-up: the set-up that played the winning colour
                first_player_setup = g["first"] if len(g["opening"]) % 2 == 0 else g["second"]
                other = g["second"] if first_player_setup == g["first"] else g["first"]
                self.assertEqual(g["winner"], first_player_setup if w == 1 else other, g)

    def test_connect4_node_budgets_and_mcts_are_reproducible(self):
        args = ["connect4h", "--a", "alg=mma,nodes=300", "--b", "alg=mcts,mcts_playouts=150",
                "--openings", "random:3:2", "--seed", "7"]
        s1, g1 = match_csv(args)
        s2, g2 = match_csv(args)
        self.check_counts(s1, g1)
        self.assertEqual([g["moves"] for g in g1], [g["moves"] for g in g2])
        self.assertEqual(len({g["opening"] for g in g1}), 3, "three distinct openings")
        for g in g1:
            c4_replay(g["opening"], g["moves"])

    def test_json_and_text(self):
        rc, out, err = run(["othello", "--a", "alg=alphabeta,depth=1", "--b",
                            "alg=alphabeta,depth=2", "--opening", "f5", "--format", "json"])
        self.assertEqual(rc, 0, err)
        doc = json.loads(out)
        self.assertEqual(doc["command"], "match")
        rows = {r["setup"]: r for r in doc["rows"]}
        self.assertEqual(set(rows), {"A", "B"})
        for r in rows.values():
            self.assertEqual(r["games"], 2)
            self.assertEqual(r["wins"] + r["losses"] + r["draws"], 2)
            self.assertIsInstance(r["nodes_per_move"], (int, float))
        self.assertEqual(rows["A"]["wins"], rows["B"]["losses"])
        rc, out, err = run(["tictactoe", "--a", "alg=pvs,depth=2", "--b", "alg=pvs,depth=9",
                            "--record", "-", "--format", "json"])
        self.assertEqual(rc, 0, err)
        dec = json.JSONDecoder()
        first, end = dec.raw_decode(out)
        second, _ = dec.raw_decode(out[end:].lstrip())
        self.assertEqual(len(second["rows"]), 2)
        self.assertEqual(first["rows"][0]["games"], 2)
        rc, out, err = run(["tictactoe", "--a", "alg=pvs,depth=9", "--b", "alg=pvs,depth=9"])
        self.assertEqual(rc, 0, err)
        self.assertIn("match tictactoe: A vs B, 2 games", out)

    def test_openings_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "open.txt")
            with open(path, "w") as f:
                f.write("# two openings\n44\n\n  4 \n")
            summary, games = match_csv(["connect4", "--a", "alg=alphabeta,depth=2", "--b",
                                        "alg=alphabeta,depth=3", "--openings", path])
            self.assertEqual([g["opening"] for g in games], ["44", "44", "4", "4"])
            with open(path, "w") as f:
                f.write("44\n4444444\n")
            rc, out, err = run(["connect4", "--a", "alg=pvs,depth=2", "--b", "alg=pvs,depth=2",
                                "--openings", path])
            self.assertEqual(rc, 1)
            self.assertEqual(out, "")
            self.assertIn(":2: bad connect4 opening '4444444': move 7: column 4 is full", err)
            rc, out, err = run(["connect4", "--a", "alg=pvs,depth=2", "--b", "alg=pvs,depth=2",
                                "--openings", os.path.join(d, "missing.txt")])
            self.assertEqual(rc, 1)
            self.assertIn("cannot open", err)

    def test_usage_errors(self):
        ok_a, ok_b = ["--a", "alg=pvs,depth=2"], ["--b", "alg=pvs,depth=3"]
        cases = [
            ([], "missing GAME"),
            (["connect4_solver"] + ok_a + ok_b, "unknown game 'connect4_solver'"),
            (["tictactoe"] + ok_b, "missing --a SETUP"),
            (["tictactoe", "--a", "alg=nosuch,depth=2"] + ok_b, "unknown algorithm 'nosuch'"),
            (["tictactoe", "--a", "alg=pvs"] + ok_b, "no budget in 'alg=pvs'"),
            (["tictactoe", "--a", "depth=3"] + ok_b, "missing alg=NAME"),
            (["tictactoe", "--a", "alg=pvs,depth=200"] + ok_b, "depth: expected 1..127"),
            (["tictactoe", "--a", "alg=pvs,nodes=0"] + ok_b, "nodes: expected 1.."),
            (["tictactoe", "--a", "alg=pvs,depth=2,bogus=1"] + ok_b, "unknown key 'bogus'"),
            (["tictactoe", "--a", "alg=pvs,depth=2,threads=0"] + ok_b,
             "threads: expected 1..256, got '0'"),
            (["tictactoe", "--a", "alg=pvs,depth"] + ok_b, "expected KEY=VALUE, got 'depth'"),
            (["tictactoe", "--a", "alg=pvs,depth=2,name=B"] + ok_b, "same name 'B'"),
            (["tictactoe"] + ok_a + ok_b + ["--openings", "all:9"], "expected all:N"),
            (["tictactoe"] + ok_a + ok_b + ["--openings", "random:0:2"], "expected random:K:N"),
            (["tictactoe"] + ok_a + ok_b + ["--opening", "11"], "cell 1 is already taken"),
            (["tictactoe"] + ok_a + ok_b + ["--opening", "14273"],
             "bad tictactoe opening '14273': the game is over after it"),
            (["connect4"] + ok_a + ok_b + ["--opening", "1212121"], "wins the game"),
            (["tictactoe"] + ok_a + ok_b + ["--format", "xml"], "--format: expected"),
            (["tictactoe"] + ok_a + ok_b + ["--bogus"], "unknown option '--bogus'"),
            (["tictactoe", "x"] + ok_a + ok_b, "unexpected argument 'x'"),
        ]
        for args, msg in cases:
            with self.subTest(args=args):
                rc, out, err = run(args)
                self.assertEqual(rc, 2, err)
                self.assertEqual(out, "")
                self.assertIn(msg, err)
                self.assertTrue(err.startswith("gts match: "), err)

    def test_help(self):
        rc, out, err = run(["--help"])
        self.assertEqual(rc, 0)
        self.assertIn("Usage: gts match GAME", out)


if __name__ == "__main__":
    if "--tap" in sys.argv:
        sys.argv.remove("--tap")
    unittest.main(verbosity=2 if "-v" in sys.argv else 1)
