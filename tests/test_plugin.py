#!/usr/bin/env python3
"""Game libraries in the `gts` tool (include/gts/plugin.h, tools/plugin.c).

tests/plugin/nim.c, built by meson as a shared module, is loaded by path
(any GAME with a '/') and driven through every command that takes a game:
search, perft, nodes, match and check. Expected values come from Nim's own
theory, computed here: the side to move wins exactly when the heaps' XOR is
not 0; perft counts from a move generator written here. Variants: a broken
undo() (check names it), a descriptor too small, a library that is not a
game library, a missing file, a bad position (the library's own words).

Environment (set by meson): GTS_TOOL, GTS_NIM, GTS_NIM_BROKEN,
GTS_NIM_TRUNCATED, GTS_NOT_A_GAME (a shared library without the entry).
"""
import functools
import json
import os
import re
import subprocess
import sys
import unittest

GTS = os.environ.get("GTS_TOOL", "build/tools/gts")
NIM = os.environ.get("GTS_NIM", "build/tests/libnim.so")
NIM_BROKEN = os.environ.get("GTS_NIM_BROKEN", "build/tests/libnim_broken.so")
NIM_TRUNCATED = os.environ.get("GTS_NIM_TRUNCATED", "build/tests/libnim_truncated.so")
NOT_A_GAME = os.environ.get("GTS_NOT_A_GAME", "build/examples/games/libgts-games.so")
SCORE_WIN = 31000


def path(p):
    """A GAME argument: the library's path, with a '/' in it."""
    p = os.path.abspath(p)
    return p


def run(args, timeout=300):
    p = subprocess.run([GTS] + list(args), capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def fields(out):
    """The `key value` lines of the text output."""
    d = {}
    for line in out.splitlines():
        k, _, v = line.partition(" ")
        d[k] = v.strip()
    return d


def moves(heaps):
    return [(h, t) for h in range(len(heaps)) for t in range(1, heaps[h] + 1)]


def play(heaps, m):
    h, t = m
    return heaps[:h] + (heaps[h] - t,) + heaps[h + 1:]


@functools.lru_cache(maxsize=None)
def plies_to_end(heaps):
    """Perfect play: (True, n) if the side to move wins in n plies, else
    (False, n) losing in n plies (the winner hurries, the loser delays)."""
    if sum(heaps) == 0:
        return (False, 0)
    results = [plies_to_end(play(heaps, m)) for m in moves(heaps)]
    wins = [n + 1 for won, n in results if not won]
    if wins:
        return (True, min(wins))
    return (False, max(n + 1 for _, n in results))


def perft(heaps, depth):
    """Leaf paths as gts_games_perft counts them: a finished game before
    DEPTH is a leaf too."""
    if depth == 0 or sum(heaps) == 0:
        return 1
    return sum(perft(play(heaps, m), depth - 1) for m in moves(heaps))


class TestSearch(unittest.TestCase):
    def test_values_are_nims(self):
        for text, heaps in (("1,2", (1, 2)), ("1,2,3", (1, 2, 3)), ("2,2", (2, 2)),
                            ("3,1", (3, 1)), ("1,2 moves 1:1", (1, 1))):
            for alg in ("pvs", "alphabeta", "mtdf", "minimax"):
                with self.subTest(position=text, alg=alg):
                    rc, out, err = run(["search", path(NIM), text, "--alg", alg, "--depth", "12",
                                        "--quiet"])
                    self.assertEqual(rc, 0, err)
                    f = fields(out)
                    won, n = plies_to_end(heaps)
                    # the XOR rule, and the distance of perfect play
                    self.assertEqual(won, functools.reduce(lambda a, b: a ^ b, heaps) != 0)
                    score = int(f["score"].split()[0])
                    self.assertEqual(score, SCORE_WIN - n if won else -SCORE_WIN + n)
                    self.assertEqual(f["game"], path(NIM))

    def test_parallel_and_json(self):
        rc, out, err = run(["search", path(NIM), "1,2,3", "--alg", "ybwc", "--threads", "2",
                            "--depth", "10", "--format", "json", "--quiet"])
        self.assertEqual(rc, 0, err)
        d = json.loads(out)
        self.assertEqual(d["score"], -SCORE_WIN + plies_to_end((1, 2, 3))[1])
        self.assertEqual(d["threads"], 2)

    def test_best_move_is_formatted_and_wins(self):
        rc, out, err = run(["search", path(NIM), "3,4,5", "--depth", "14", "--quiet"])
        self.assertEqual(rc, 0, err)
        m = re.fullmatch(r"(\d+):(\d+)", fields(out)["bestmove"])
        self.assertTrue(m, out)
        after = play((3, 4, 5), (int(m.group(1)), int(m.group(2))))
        self.assertEqual(after[0] ^ after[1] ^ after[2], 0, "a winning move leaves XOR 0")

    def test_bad_position_in_the_librarys_words(self):
        rc, out, err = run(["search", path(NIM), "1,2 moves 0:5"])
        self.assertEqual(rc, 2)
        self.assertEqual(out, "")
        self.assertIn("bad nim position '1,2\\x20moves\\x200:5': move 1: '0:5' is not HEAP:TAKE",
                      err)
        rc, _, err = run(["perft", path(NIM), "1", "99"])
        self.assertEqual(rc, 2)
        self.assertIn("bad heap 1", err)


class TestPerftNodes(unittest.TestCase):
    def test_perft_counts(self):
        for text, heaps in (("", (3, 4, 5)), ("2,3", (2, 3)), ("1,1,1,1", (1, 1, 1, 1))):
            with self.subTest(position=text):
                args = ["perft", path(NIM), "1-3"] + ([text] if text else [])
                rc, out, err = run(args)
                self.assertEqual(rc, 0, err)
                got = [int(x) for x in re.findall(r"^perft\((\d)\) = (\d+)", out, re.M)
                       for x in x[1:]]
                self.assertEqual(got, [perft(heaps, d) for d in (1, 2, 3)])

    def test_nodes(self):
        rc, out, err = run(["nodes", path(NIM), "1,2,3", "--depths", "1-3", "--algs",
                            "alphabeta,pvs"])
        self.assertEqual(rc, 0, err)
        self.assertEqual(len([l for l in out.splitlines() if l.startswith(path(NIM))]), 6)


class TestMatch(unittest.TestCase):
    def test_match_from_openings_of_moves(self):
        # all:1 from the default 3,4,5 (moves_prefix "moves ", separator " "):
        # 12 openings, each played twice.
        rc, out, err = run(["match", path(NIM), "--a", "alg=pvs,depth=20,name=perfect",
                            "--b", "alg=alphabeta,depth=1,name=weak", "--openings", "all:1",
                            "--format", "json", "--quiet"])
        self.assertEqual(rc, 0, err)
        d = json.loads(out)
        self.assertEqual(d["title"], "match nim: perfect vs weak, 24 games")
        rows = {r["setup"]: r for r in d["rows"]}
        self.assertEqual(rows["perfect"]["games"], 24)
        # Perfect play moving first after the opening wins every opening that
        # leaves the mover a non-zero XOR (11 of the 12 moves from 3,4,5).
        winning = sum(1 for m in moves((3, 4, 5))
                      if functools.reduce(lambda a, b: a ^ b, play((3, 4, 5), m)) != 0)
        self.assertEqual(winning, 11)
        self.assertGreaterEqual(rows["perfect"]["first_wins"], winning)
        self.assertEqual(rows["perfect"]["wins"] + rows["perfect"]["losses"], 24, "no draws")

    def test_colours_follow_the_moves_of_the_opening(self):
        # all:2 openings ("moves 1.2 2.1"): two moves, so the player who moves
        # first from the start moves first after them too. Nim's last mover
        # wins: the winner's colour is the parity of the game's whole length.
        import csv
        import io
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            rec = os.path.join(d, "games.csv")
            rc, out, err = run(["match", path(NIM), "--a", "alg=pvs,depth=20", "--b",
                                "alg=alphabeta,depth=1", "--openings", "all:2", "--quiet",
                                "--format", "csv", "--record", rec])
            self.assertEqual(rc, 0, err)
            with open(rec) as f:
                games = list(csv.DictReader(f))
        self.assertGreater(len(games), 0)
        for g in games:
            self.assertEqual(len(g["opening"].split()), 3, g)    # "moves" and two moves
            total = 2 + int(g["plies"])
            self.assertEqual(g["winner_colour"], "first" if total % 2 == 1 else "second", g)

    def test_openings_without_a_separator_are_refused(self):
        rc, out, err = run(["match", path(NIM_TRUNCATED), "--a", "alg=pvs,depth=2", "--b",
                            "alg=pvs,depth=1"])
        self.assertEqual((rc, out), (2, ""))
        self.assertIn("below the 0.2 layout", err)

    def test_fixed_opening(self):
        rc, out, err = run(["match", path(NIM), "--a", "alg=pvs,depth=12", "--b",
                            "alg=mtdf,depth=12", "--opening", "1,2,3", "--quiet"])
        self.assertEqual(rc, 0, err)


class TestCheck(unittest.TestCase):
    def test_a_sound_game_passes(self):
        rc, out, err = run(["check", path(NIM)])
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(fields(out)["verdict"], "OK")
        self.assertGreater(int(fields(out)["positions"]), 0)

    def test_a_broken_undo_is_named(self):
        rc, out, err = run(["check", path(NIM_BROKEN), "--seed", "3"])
        self.assertEqual(rc, 1, out + err)
        f = fields(out)
        self.assertEqual(f["verdict"], "NOT_RESTORED", out)
        self.assertIn("path", f)

    def test_builtin_games_pass_too(self):
        rc, out, err = run(["check", "tictactoe", "--walks", "4"])
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(fields(out)["verdict"], "OK")

    def test_check_usage(self):
        rc, _, err = run(["check", path(NIM), "--depth", "9"])
        self.assertEqual(rc, 2)
        self.assertIn("--depth: expected 0..8, got '9'", err)


class TestLoading(unittest.TestCase):
    def test_not_a_game_library(self):
        rc, out, err = run(["search", path(NOT_A_GAME)])
        self.assertEqual((rc, out), (2, ""))
        self.assertIn("not a game library: it exports no gts_plugin_game()", err)

    def test_missing_file(self):
        rc, out, err = run(["perft", "./no/such/libgame.so", "1"])
        self.assertEqual((rc, out), (2, ""))
        self.assertIn("cannot load the game library", err)

    def test_truncated_descriptor(self):
        for cmd in (["search"], ["perft", "1"], ["check"]):
            with self.subTest(cmd=cmd[0]):
                args = [cmd[0], path(NIM_TRUNCATED)] + cmd[1:]
                rc, out, err = run(args)
                self.assertEqual((rc, out), (2, ""))
                self.assertIn("below the 0.2 layout", err)

    def test_a_name_without_slash_is_a_builtin_game(self):
        rc, _, err = run(["search", os.path.basename(NIM)])
        self.assertEqual(rc, 2)
        self.assertIn("unknown game", err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
