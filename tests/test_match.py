#!/usr/bin/env python3
"""Tests of `gts match` (tools/cmd_match.c), standard library only.

The references are independent of libgts: a plain tic-tac-toe minimax (two
perfect players must reach the game-theoretic value of every opening, so
every game's result is predicted), a Connect-4 board and a Go board with
Tromp-Taylor area scoring that replay each recorded game, check every move
and find the winner themselves. Chess games are checked against the rules
vtable through `gts search` (the final position is over, and its score
names the loser), from openings whose results are known (mates in one, a
50-move draw).

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


def run_gts(args):
    p = subprocess.run([GTS] + list(args), capture_output=True, text=True, timeout=TIMEOUT)
    return p.returncode, p.stdout, p.stderr


def with_openings(args, openings):
    """@p args followed by one --opening per position of @p openings."""
    for o in openings:
        args = args + ["--opening", o]
    return args


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


# ---- Go, independently -----------------------------------------------------------

GO_COLUMNS = "ABCDEFGHJKLMNOPQRST"


def go_position(text):
    """(size, komi, maxmoves, moves) of a position text of gts_go_new()."""
    size, komi, cap, moves = 9, 7.5, None, []
    for tok in text.split():
        if tok.startswith("komi="):
            komi = float(tok[5:])
        elif tok.startswith("maxmoves="):
            cap = int(tok[9:])
        elif tok.startswith("moves="):
            moves = tok[6:].split(",") if tok[6:] else []
        else:
            size = int(tok)
    return size, komi, cap if cap is not None else 3 * size * size, moves


def go_replay(opening, moves):
    """Play the opening and the recorded moves (GTP vertices, "pass") with
    captures on a plain board; no move may be suicide or fill an occupied
    point, and the game must end exactly after the last one (two passes or
    the move cap). Returns Black's area margin less komi (Tromp-Taylor)."""
    size, komi, cap, seq = go_position(opening)
    seq = seq + moves.split()
    board = {}

    def group(p):
        colour, todo, stones, libs = board[p], [p], {p}, set()
        while todo:
            x, y = todo.pop()
            for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if not (0 <= q[0] < size and 0 <= q[1] < size):
                    continue
                if q not in board:
                    libs.add(q)
                elif board[q] == colour and q not in stones:
                    stones.add(q)
                    todo.append(q)
        return stones, libs

    passes = 0
    for k, v in enumerate(seq):
        assert passes < 2 and k < cap, f"move {k + 1} ({v}) after the end of the game"
        colour = "XO"[k % 2]
        if v.lower() == "pass":
            passes += 1
            continue
        passes = 0
        p = (GO_COLUMNS.index(v[0].upper()), int(v[1:]) - 1)
        assert p not in board, f"move {k + 1}: {v} is occupied"
        board[p] = colour
        x, y = p
        for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if q in board and board[q] != colour:
                stones, libs = group(q)
                if not libs:
                    for s in stones:
                        del board[s]
        assert group(p)[1], f"move {k + 1}: {v} is suicide"
    assert passes == 2 or len(seq) == cap, "the game ended before its end"
    area = {"X": 0, "O": 0}
    seen = set()
    for x in range(size):
        for y in range(size):
            if (x, y) in board:
                area[board[(x, y)]] += 1
            elif (x, y) not in seen:
                region, todo, reach = {(x, y)}, [(x, y)], set()
                while todo:
                    a, b = todo.pop()
                    for q in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)):
                        if not (0 <= q[0] < size and 0 <= q[1] < size):
                            continue
                        if q in board:
                            reach.add(board[q])
                        elif q not in region:
                            region.add(q)
                            todo.append(q)
                seen |= region
                if len(reach) == 1:
                    area[reach.pop()] += len(region)
    return area["X"] - area["O"] - komi


# ---- chess, through the rules vtable ------------------------------------------------

def chess_final(opening, moves):
    """The position text of the game's final position."""
    text = opening if opening else "startpos"
    if moves:
        text += (" " if " moves " in f" {text} " else " moves ") + moves
    return text


def chess_white_to_move(opening, plies):
    """Whether White is to move after the opening and @p plies moves."""
    fields = opening.split()
    moves = fields.index("moves") if "moves" in fields else len(fields)
    black = bool(fields) and fields[0] != "startpos" and fields[1] == "b"
    return (black + max(0, len(fields) - moves - 1) + plies) % 2 == 0


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

    def test_chess_mates_and_draws(self):
        # White mates in one after a Scholar's-mate opening (its colour from
        # the moves), Black mates in one from a FEN, and the 50-move rule
        # ends a bare-kings game two plies after a FEN at 98 half-moves.
        openings = [
            "startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6",
            "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1",
            "8/8/8/4k3/8/8/8/4K3 w - - 98 1",
        ]
        summary, games = match_csv(with_openings(
            ["chess", "--a", "alg=alphabeta,depth=2", "--b", "alg=pvs,depth=2,nodes=5000"],
            openings))
        self.assertEqual(len(games), 6)
        self.check_counts(summary, games)
        self.assertEqual([g["winner_colour"] for g in games],
                         ["first", "first", "second", "second", "none", "none"])
        self.assertEqual([g["moves"] for g in games[:4]], ["h5f7"] * 2 + ["a8a1"] * 2)
        self.assertEqual([int(g["plies"]) for g in games[4:]], [2, 2])
        self.assertEqual(int(summary["A"]["wins"]), 2)
        self.assertEqual(int(summary["A"]["draws"]), 2)
        for g in games:
            self.check_chess_final(g)

    def check_chess_final(self, g):
        """The final position is over by the rules, and its score agrees
        with the recorded result."""
        final = chess_final(g["opening"], g["moves"])
        rc, out, err = run_gts(["search", "chess", final, "--depth", "1", "--format", "json",
                                "--quiet"])
        self.assertEqual(rc, 0, err)
        d = json.loads(out)
        self.assertIsNone(d["bestmove"], f"{final}: the game is not over")
        plies = int(g["plies"])
        self.assertEqual(plies, len(g["moves"].split()))
        white = chess_white_to_move(g["opening"], plies)
        if d["score"] == 0:
            self.assertEqual(g["winner"], "draw", g)
            self.assertEqual(g["winner_colour"], "none", g)
        else:
            self.assertLess(d["score"], 0, "a finished game scores a loss or a draw")
            self.assertEqual(g["winner_colour"], "second" if white else "first", g)
            # the set-up to move after the opening moved the odd plies
            mover = g["first"] if plies % 2 == 1 else g["second"]
            self.assertEqual(g["winner"], mover, g)

    def test_chess_random_openings_play_to_the_end(self):
        # Whole games from two random plies at depth 1: the openings are
        # UCI moves after startpos, and every game ends by the rules (here
        # a repetition or the 50-move rule at most).
        summary, games = match_csv(["chess", "--a", "alg=alphabeta,depth=1", "--b",
                                    "alg=pvs,depth=1", "--openings", "random:1:2"])
        self.assertEqual(len(games), 2)
        self.check_counts(summary, games)
        self.assertRegex(games[0]["opening"], r"^startpos moves [a-h][1-8][a-h][1-8] "
                                              r"[a-h][1-8][a-h][1-8]$")
        for g in games:
            self.check_chess_final(g)

    def test_go_small_boards(self):
        # 5x5 with a move cap: every game replayed and scored by area; a
        # half-point komi decides every game, an integer one may not.
        openings = ["5 komi=0.5 maxmoves=20", "5 komi=2 maxmoves=24 moves=C3",
                    "maxmoves=16 komi=3.5 4 moves=B2,C3,pass"]
        summary, games = match_csv(with_openings(
            ["go", "--a", "alg=alphabeta,depth=1", "--b", "alg=pvs,depth=2"], openings))
        self.assertEqual(len(games), 6)
        self.check_counts(summary, games)
        for g in games:
            margin = go_replay(g["opening"], g["moves"])
            expect = "first" if margin > 0 else "second" if margin < 0 else "none"
            self.assertEqual(g["winner_colour"], expect, g)
            self.assertEqual(int(g["plies"]), len(g["moves"].split()))
            if expect != "none":
                # after an even number of opening moves Black moves first
                black = len(go_position(g["opening"])[3]) % 2 == 0
                setup = g["first"] if black == (expect == "first") else g["second"]
                self.assertEqual(g["winner"], setup, g)
        self.assertNotIn("none", [g["winner_colour"] for g in games[:2] + games[4:]])

    def test_go_random_openings(self):
        summary, games = match_csv(["go", "--a", "alg=alphabeta,depth=1", "--b",
                                    "alg=pvs,depth=1", "--openings", "random:1:2",
                                    "--seed", "3"])
        self.assertEqual(len(games), 2)
        self.check_counts(summary, games)
        self.assertRegex(games[0]["opening"], r"^moves=([A-HJ][1-9]|pass),([A-HJ][1-9]|pass)$")
        for g in games:
            margin = go_replay(g["opening"], g["moves"])
            self.assertEqual(g["winner_colour"], "first" if margin > 0 else "second", g)

    def test_chess_and_go_bad_openings(self):
        ok = ["--a", "alg=pvs,depth=1", "--b", "alg=pvs,depth=2"]
        cases = [
            # blanks are escaped in the message, as in every position text
            (["chess", "--opening", "8/8/8/8/8/8/8/8 w - - 0 1"],
             r"--opening: bad chess opening '8/8/8/8/8/8/8/8\x20w\x20-\x20-\x200\x201': not a "
             "legal position"),
            (["chess", "--opening", "startpos moves e2e5"], "not a legal position"),
            (["chess", "--opening", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 moves a1a8"],
             "the game is over after it"),
            (["chess", "--openings", "all:5"],
             "--openings: all:5 would be millions of chess openings (N 0..4 for chess)"),
            (["go", "--opening", "5 moves=C3,Z9"],
             r"--opening: bad go opening '5\x20moves=C3,Z9': move 2: bad vertex 'Z9' at column "
             "12 (expected A1-E5, or pass)"),
            (["go", "--opening", "5 moves=C3,C3"], "move 2: C3 is not legal here: the point "
                                                   "is occupied"),
            (["go", "--opening", "5 moves=pass,pass"], "the game is over after it"),
            (["go", "--opening", "5 maxmoves=2 moves=C3,C2"], "the game is over after it"),
            (["go", "--openings", "all:4"], "all:4 would be millions of go openings"),
        ]
        for args, msg in cases:
            with self.subTest(args=args):
                rc, out, err = run(args[:1] + ok + args[1:])
                self.assertEqual(rc, 2, err)
                self.assertEqual(out, "")
                self.assertIn(msg, err)
                self.assertTrue(err.startswith("gts match: "), err)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "open.txt")
            with open(path, "w") as f:
                f.write("# chess\nstartpos\nstartpos moves e2e4 e7e5 e1e3\n")
            rc, out, err = run(["chess"] + ok + ["--openings", path])
            self.assertEqual(rc, 1, err)
            self.assertEqual(out, "")
            self.assertIn(r":3: bad chess opening 'startpos\x20moves\x20e2e4\x20e7e5\x20e1e3': "
                          "not a legal position", err)
            with open(path, "w") as f:
                f.write("5 maxmoves=10\n5 moves=A1,A1\n")
            rc, out, err = run(["go"] + ok + ["--openings", path])
            self.assertEqual(rc, 1, err)
            self.assertIn(r":2: bad go opening '5\x20moves=A1,A1': move 2: A1 is not legal here",
                          err)

    def test_record_opened_before_the_first_game(self):
        # A --record path that cannot be written fails at once: no game is
        # played (with --progress-interval 0 every game would print a line).
        args = ["tictactoe", "--a", "alg=pvs,depth=2", "--b", "alg=pvs,depth=9",
                "--openings", "all:2", "--progress-interval", "0"]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "no", "such", "dir", "games.csv")
            rc, out, err = run(args + ["--record", path])
            self.assertEqual((rc, out), (1, ""), err)
            self.assertEqual(err, f"gts match: --record: cannot open '{path}': "
                                  f"{os.strerror(2)}\n")
        if os.path.exists("/dev/full"):     # opens, but the first write fails
            rc, out, err = run(args + ["--record", "/dev/full"])
            self.assertEqual((rc, out), (1, ""), err)
            self.assertEqual(err, "gts match: --record: cannot write '/dev/full': "
                                  f"{os.strerror(28)}\n")

    def test_record_written_as_each_game_ends(self):
        # The rows of the finished games are in the file while the match
        # is still playing: killed after its second game (the progress line
        # of a game follows its row), the file holds both.
        with tempfile.TemporaryDirectory() as d:
            rec = os.path.join(d, "games.csv")
            p = subprocess.Popen([GTS, "match", "connect4h", "--a", "alg=alphabeta,depth=4",
                                  "--b", "alg=alphabeta,depth=5", "--openings", "all:2",
                                  "--progress-interval", "0", "--format", "csv",
                                  "--record", rec], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
            try:
                lines = []
                for line in p.stderr:
                    lines.append(line)
                    if line.startswith("gts match: progress 2/98 "):
                        break
                p.kill()
            finally:
                p.wait()
                p.stderr.close()
            self.assertTrue(lines and lines[-1].startswith("gts match: progress 2/98 "), lines)
            with open(rec) as f:
                games = list(csv.DictReader(f))
            self.assertGreaterEqual(len(games), 2)
            self.assertEqual(games[0]["opening"], games[1]["opening"])
            self.assertEqual((games[0]["first"], games[1]["first"]), ("A", "B"))
            for g in games[:2]:
                c4_replay(g["opening"], g["moves"])

    def test_record_write_failure_mid_match(self):
        # The record file stops growing after a few games (RLIMIT_FSIZE):
        # the match ends there with exit 1, the summary counts the games
        # that finished, and the file keeps their rows.
        import resource
        import signal

        def limit():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # EFBIG instead
            resource.setrlimit(resource.RLIMIT_FSIZE, (700, 700))

        with tempfile.TemporaryDirectory() as d:
            rec = os.path.join(d, "games.csv")
            p = subprocess.run([GTS, "match", "tictactoe", "--a", "alg=pvs,depth=1", "--b",
                                "alg=pvs,depth=2", "--openings", "all:2", "--format", "csv",
                                "--record", rec], capture_output=True, text=True,
                               timeout=TIMEOUT, preexec_fn=limit)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn(f"gts match: --record: cannot write '{rec}': {os.strerror(27)}\n",
                          p.stderr)
            summary = {r["setup"]: r for r in csv.DictReader(io.StringIO(p.stdout))}
            played = int(summary["A"]["games"])
            self.assertTrue(2 <= played < 144, played)
            with open(rec) as f:
                complete = [ln for ln in f.read().split("\n")[1:] if ln.count(",") == 11]
            self.assertGreaterEqual(len(complete), played - 1)
            self.assertGreaterEqual(len(complete), 2)

    def test_record_text_aligned_at_the_end(self):
        with tempfile.TemporaryDirectory() as d:
            rec = os.path.join(d, "games.txt")
            rc, out, err = run(["tictactoe", "--a", "alg=pvs,depth=2", "--b", "alg=pvs,depth=3",
                                "--openings", "all:1", "--record", rec])
            self.assertEqual(rc, 0, err)
            with open(rec) as f:
                lines = f.read().splitlines()
        self.assertEqual(lines[0], "match tictactoe: games")
        self.assertTrue(lines[1].startswith("game  opening  first  second  winner"), lines[1])
        table = [ln for ln in lines[1:] if not ln.startswith("note: ")]
        self.assertEqual(len(table), 2 + 18)
        # the last column is a number, right-aligned: every line as long
        self.assertEqual(len({len(ln) for ln in table}), 1, table)
        self.assertTrue(lines[-1].startswith("note: first/second here"), lines[-1])

    def test_record_json_complete(self):
        with tempfile.TemporaryDirectory() as d:
            rec = os.path.join(d, "games.json")
            rc, out, err = run(["tictactoe", "--a", "alg=pvs,depth=2", "--b", "alg=pvs,depth=3",
                                "--openings", "all:1", "--format", "json", "--record", rec])
            self.assertEqual(rc, 0, err)
            with open(rec) as f:
                doc = json.load(f)
        self.assertEqual([r["game"] for r in doc["rows"]], list(range(1, 19)))
        self.assertEqual(len(doc["notes"]), 1)

    def test_progress_lines_when_stderr_is_not_a_terminal(self):
        args = ["tictactoe", "--a", "alg=pvs,depth=2", "--b", "alg=pvs,depth=9",
                "--openings", "all:1", "--progress-interval", "0"]
        rc, out, err = run(args)
        self.assertEqual(rc, 0, err)
        lines = err.splitlines()
        self.assertEqual(len(lines), 18, err)
        for k, line in enumerate(lines, 1):
            self.assertRegex(line, rf"^gts match: progress {k}/18 after \d+\.\d s: "
                                   r"A \d+ : \d+ B, \d+ draws$")
        self.assertRegex(lines[-1], r"A 0 : \d+ B, \d+ draws$")   # depth 9 never loses
        rc, out, err = run(args + ["--quiet"])
        self.assertEqual((rc, err), (0, ""))
        rc, out, err = run(args[:-1] + ["-1"])
        self.assertEqual(rc, 2)
        self.assertIn("gts match: --progress-interval: expected 0..86400, got '-1'", err)

    def test_openings_read_error(self):
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = run(["tictactoe", "--a", "alg=pvs,depth=2", "--b", "alg=pvs,depth=3",
                                "--openings", d])
            self.assertEqual((rc, out), (1, ""), err)
            self.assertEqual(err, f"gts match: --openings: cannot read '{d}': "
                                  f"{os.strerror(21)}\n")
            empty = os.path.join(d, "empty.txt")
            open(empty, "w").close()
            rc, out, err = run(["tictactoe", "--a", "alg=pvs,depth=2", "--b", "alg=pvs,depth=3",
                                "--openings", empty])
            self.assertEqual(rc, 1, err)
            self.assertEqual(err, f"gts match: --openings: '{empty}' holds no opening\n")

    def test_every_message_names_program_and_command(self):
        """doc/cli.md, "Messages": every line on stderr starts with
        "gts match: " (run-time failures, warnings and notes too)."""
        ok = ["--a", "alg=pvs,depth=2", "--b", "alg=pvs,depth=3"]
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "open.txt")
            with open(bad, "w") as f:
                f.write("44\n4444444\n")
            cases = [
                (["tictactoe"] + ok + ["--openings", os.path.join(d, "missing")], 1),
                (["connect4"] + ok + ["--openings", bad], 1),
                (["connect4"] + ok + ["--openings", d], 1),
                (["tictactoe"] + ok + ["--record", os.path.join(d, "x", "y.csv")], 1),
                (["tictactoe", "--a", "alg=pvs,depth=2,threads=2", "--b", "alg=pvs,depth=3"],
                 0),
                (["tictactoe"] + ok + ["--openings", "random:20:1", "--format", "csv"], 0),
                (["tictactoe"] + ok + ["--bogus"], 2),
            ]
            for args, status in cases:
                with self.subTest(args=args):
                    rc, out, err = run(args)
                    self.assertEqual(rc, status, err)
                    self.assertTrue(err)
                    for line in err.splitlines():
                        if not line.startswith("Try 'gts match --help'"):
                            self.assertTrue(line.startswith("gts match: "), line)
                    self.assertNotIn("error:", err)

    def test_help(self):
        rc, out, err = run(["--help"])
        self.assertEqual(rc, 0)
        self.assertIn("Usage: gts match GAME", out)

    def test_rivest_match_script(self):
        """tools/rivest-match plays its protocol through gts match: a small
        part of it (the start position, two games per level), its tables
        agree with the CSVs it keeps, and bad lists are refused."""
        script = os.path.join(HERE, "..", "tools", "rivest-match")
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run([sys.executable, script, "--gts", GTS, "--out", d,
                                "--modes", "nodes", "--opponents", "ab87,pvs",
                                "--budgets", "50,80", "--openings", "all:0"],
                               capture_output=True, text=True, timeout=TIMEOUT)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("vs AB87 (alg=alphabeta,tt_mb=0,killers=0,history=0)", p.stdout)
            self.assertIn("vs PVS (alg=pvs)", p.stdout)
            for opp, label in (("ab87", "AB87"), ("pvs", "PVS")):
                for n in (50, 80):
                    with open(os.path.join(d, f"nodes-{opp}-{n}.csv")) as f:
                        rows = {r["setup"]: r for r in csv.DictReader(f)}
                    self.assertEqual(rows["MMA"]["games"], "2")
                    self.assertIn(f"nodes={n}", rows[label]["spec"])
                    line = (f"| {n} | {rows['MMA']['wins']} | {rows['MMA']['losses']} | "
                            f"{rows['MMA']['draws']} |")
                    self.assertIn(line, p.stdout)
                    with open(os.path.join(d, f"nodes-{opp}-{n}.games.csv")) as f:
                        self.assertEqual(len(list(csv.DictReader(f))), 2)
            p = subprocess.run([sys.executable, script, "--gts", GTS, "--out", d,
                                "--budgets", "0"], capture_output=True, text=True,
                               timeout=TIMEOUT)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("--budgets: 0 must be >= 1", p.stderr)


if __name__ == "__main__":
    if "--tap" in sys.argv:
        sys.argv.remove("--tap")
    unittest.main(verbosity=2 if "-v" in sys.argv else 1)
