#!/usr/bin/env python3
"""Tests of `gts-gtp` (tools/gts-gtp.c), the GTP 2 Go engine, through a pipe.

Protocol conformance (ids, replies, every command), errors ("?" replies,
never a crash or a hang) for malformed commands, illegal moves, over-long
lines, random garbage and end of input; then, when GNU Go is installed, an
independent referee: random games played out with the engine's playout
policy are scored by `gnugo --mode gtp --chinese-rules` (area scoring) and
the scores must agree; finished games (GNU Go against itself) where dead
stones are left on the board: final_score and final_status_list agree
with GNU Go's; the handicap placements and loadsgf's positions are GNU
Go's; kgs-genmove_cleanup captures the dead stones before it passes; and a
very short match (tools/go-match) where a crash, illegal move or protocol
error of gts-gtp fails the test.

The engine comes from $GTS_GTP (set by meson), GNU Go from $GNUGO, PATH or
/usr/games (Debian's place for it); the GNU Go tests are skipped with a
message when it is absent. Standard library only.

Run: GTS_GTP=build/tools/gts-gtp python3 tests/test_gtp.py [-v]
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
GTP = os.environ.get("GTS_GTP") or os.path.join(HERE, "..", "build", "tools", "gts-gtp")
MATCH = os.path.join(HERE, "..", "tools", "go-match")
TIMEOUT = 300
COLUMNS = "ABCDEFGHJKLMNOPQRST"


def find_gnugo():
    for cand in (os.environ.get("GNUGO"), shutil.which("gnugo"),
                 shutil.which("gnugo", path=os.pathsep.join(["/usr/games", "/usr/local/games"]))):
        if cand and os.access(cand, os.X_OK):
            return cand
    return None


GNUGO = find_gnugo()

# Finished games, GNU Go 3.8 (level 1, --chinese-rules, komi 7.5) against
# itself with --seed N: both sides passed with dead stones on the board.
# (size, seed, moves from Black, GNU Go's final_score, its dead stones).
FINISHED = [
    (9, 6, "F6 C3 D4 C4 D3 D5 E7 E5 F3 C7 D2 D8 E8 C2 D7 C8 C1 F5 G8 G5 H6 H5 B2 G2 J5 G3 "
           "J4 H3 J3 J2 G6 H4 J6 E9 F9 D9 D6 C6 E6 PASS PASS",
     "W+40.5", "D4 D3 D2 F3 B2 C1"),
    (9, 9, "E5 C4 D3 C3 C6 D2 F6 G4 F3 H6 G3 H3 E2 G2 B5 G7 F7 D1 E1 G8 F8 F9 E9 G9 D8 F4 "
           "E4 F2 E3 H2 G5 H5 F1 G1 F5 H4 G6 PASS PASS",
     "B+19.5", "C4 C3 D2 D1"),
    (9, 16, "E5 C5 D7 G5 G6 H6 F7 B7 H7 D3 F5 G4 E3 F2 E2 D2 F3 J5 G3 E1 G2 F1 D4 C4 G1 D1 "
            "C8 B8 D5 C7 D8 C9 D9 B9 C6 B3 B6 B5 A5 A4 A6 PASS PASS",
     "B+33.5", "B9 C9 B8 B7 C7 H6 G5 G4 J5"),
    (9, 34, "E5 C5 C6 D5 D6 E6 E4 B6 B7 B5 E7 F6 F7 G6 C3 G3 A6 D4 E3 D3 D2 B3 C2 G7 B4 D7 "
            "C7 D8 G4 H3 H4 F4 F3 F5 H5 G2 A5 H6 C8 E8 D9 F8 E2 F2 E9 F9 C9 F1 E1 PASS PASS",
     "W+6.5", "B6 B5 C5 D5 D4 D3 H5 G4 H4 B3"),
    (9, 39, "F6 C4 C7 F3 G4 G3 F5 G7 H6 C6 D7 E8 H7 H4 H5 H3 D6 B6 E4 D2 G8 B7 C8 D5 E3 E2 "
            "F4 B8 B9 E6 E7 E5 D4 C3 C5 B5 D5 J5 J6 J4 A8 A7 C9 A9 D3 A8 PASS PASS",
     "W+8.5", "E8 G7"),
    (13, 104, "L10 D11 D4 C6 C9 E10 K6 D8 B11 F3 E5 C3 D3 C4 G5 J11 H3 K9 L9 H9 C2 B2 D2 D5 "
              "K12 J12 K11 E6 B7 F5 L3 G6 E4 F4 B1 A2 J13 H13 K13 H12 K8 B6 G2 F2 C12 G3 H2 "
              "B8 E12 H5 B9 C7 J9 H8 J10 H10 D12 K5 L5 K4 K3 L4 M5 M4 M3 N5 M6 N6 N7 N4 J4 "
              "J5 M7 N3 J2 M2 L2 H4 K1 F11 F1 E1 G1 E2 J8 J6 J7 H7 M1 N2 D9 E9 D10 E11 C11 "
              "F12 F13 G13 E13 A9 A10 A8 C8 A7 J3 N1 L1 PASS E8 D7 PASS PASS",
     "W+20.5", "K9 E8 E5 D4 E4 D3 C2 D2 G5 B1"),
]


def play_game(engine, size, moves, komi="7.5"):
    """Set up a game with `moves` (Black first) on an Engine."""
    for c in ("boardsize %d" % size, "clear_board", "komi %s" % komi):
        ok, text = engine.cmd(c)
        assert ok, (c, text)
    colour = "b"
    for m in moves.split():
        ok, text = engine.cmd("play %s %s" % (colour, m))
        assert ok, (colour, m, text)
        colour = "w" if colour == "b" else "b"


def vertices(text):
    """The set of vertices of a final_status_list / fixed_handicap reply."""
    return set(text.upper().split())


def board_of(showboard):
    """{vertex: 'X' or 'O'} and the side to move from our showboard."""
    stones = {}
    lines = showboard.split("\n")
    cols = lines[0].split()
    for ln in lines[1:]:
        parts = ln.split()
        if len(parts) < 2 or not parts[0].isdigit():
            continue
        for col, cell in zip(cols, parts[1:1 + len(cols)]):
            if cell in "XO":
                stones[col + parts[0]] = cell
    return stones, "black" if "Black to move" in showboard else "white"


def session(commands, args=("--playouts", "200"), timeout=TIMEOUT):
    """Feed lines to a fresh engine; returns (exit status, replies, stderr).

    Each reply is (ok, id, text) parsed from the '=' / '?' blocks.
    """
    data = commands if isinstance(commands, bytes) else "".join(c + "\n" for c in commands).encode()
    p = subprocess.run([GTP] + list(args), input=data, capture_output=True, timeout=timeout)
    out = p.stdout.decode("utf-8", "replace")
    replies = []
    for block in out.split("\n\n"):
        if not block.strip():
            continue
        head = block.lstrip("\n")
        assert head[0] in "=?", "reply starts with = or ?: %r" % head
        first, _, rest = head.partition("\n")
        ident, _, text = first[1:].partition(" ")
        replies.append((head[0] == "=", ident, (text + ("\n" + rest if rest else "")).strip()))
    return p.returncode, replies, p.stderr.decode("utf-8", "replace")


class Engine:
    """An interactive engine process (one command, one reply)."""

    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)

    def cmd(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        first = self.p.stdout.readline()
        while first == "\n":
            first = self.p.stdout.readline()
        if not first:
            raise RuntimeError("engine exited on %r" % line)
        lines = [first.rstrip("\n")]
        while True:
            ln = self.p.stdout.readline()
            if ln in ("\n", ""):
                break
            lines.append(ln.rstrip("\n"))
        text = "\n".join(lines)
        return text[0] == "=", text[1:].strip()

    def close(self):
        try:
            self.cmd("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.p.wait(timeout=30)
        self.p.stdin.close()
        self.p.stdout.close()


class Protocol(unittest.TestCase):
    def test_basic_commands(self):
        rc, r, _ = session(["protocol_version", "7 name", "version", "known_command genmove",
                            "known_command nonsense", "list_commands", "quit", "name"])
        self.assertEqual(rc, 0)
        self.assertEqual(len(r), 7, "nothing is answered after quit")
        self.assertEqual(r[0], (True, "", "2"))
        self.assertEqual(r[1], (True, "7", "gts-gtp"))
        self.assertTrue(r[2][0] and r[2][2], "a version")
        self.assertEqual(r[3][2], "true")
        self.assertEqual(r[4][2], "false")
        listed = set(r[5][2].split("\n"))
        for c in ("protocol_version", "name", "version", "known_command", "list_commands",
                  "boardsize", "clear_board", "komi", "play", "genmove", "undo", "final_score",
                  "showboard", "time_settings", "time_left", "quit",
                  # issue 31: what a Go GUI or server sends
                  "fixed_handicap", "place_free_handicap", "set_free_handicap",
                  "kgs-genmove_cleanup", "loadsgf", "final_status_list"):
            self.assertIn(c, listed)
        rc, r, _ = session(["known_command " + c for c in sorted(listed)])
        self.assertEqual([x[2] for x in r], ["true"] * len(listed), "known_command knows them")

    def test_play_undo_score(self):
        # 5x5: black owns columns A-B, white D-E; C neutral: 10 - 10 - komi.
        cmds = ["boardsize 5", "komi 0.5"]
        for y in range(1, 6):
            cmds += ["play b B%d" % y, "play w D%d" % y]
        cmds += ["final_score", "undo", "final_score", "play white D5", "komi -3", "final_score",
                 "showboard"]
        rc, r, _ = session(cmds)
        self.assertEqual(rc, 0)
        self.assertTrue(all(x[0] for x in r), r)
        self.assertEqual(r[12][2], "W+0.5")
        # Without white D5 the empty columns C and E join through D5 and reach
        # both colours: neutral. Black 10, white 4 stones.
        self.assertEqual(r[14][2], "B+5.5")
        self.assertEqual(r[17][2], "B+3.0", "komi -3 after replaying the moves")
        board = r[18][2]
        self.assertIn("X", board)
        self.assertIn("O", board)

    def test_out_of_turn_and_undo(self):
        rc, r, _ = session(["boardsize 9", "play b E5", "play b C3", "showboard", "undo",
                            "showboard", "undo", "undo", "genmove w", "genmove w"])
        self.assertEqual(rc, 0)
        self.assertTrue(r[2][0] and "White to move" in r[3][2], r[3])
        self.assertTrue(r[4][0])
        self.assertIn("White to move", r[5][2], "undo took back C3 and the implied pass")
        self.assertEqual(r[6][0], True)
        self.assertEqual(r[7], (False, "", "cannot undo"))
        self.assertTrue(r[8][0] and r[9][0], "genmove twice for one colour works")

    def test_errors(self):
        bad = [
            ("frobnicate", "unknown command"),
            ("boardsize", "boardsize not an integer"),
            ("boardsize x", "boardsize not an integer"),
            ("boardsize 1", "unacceptable size"),
            ("boardsize 25", "unacceptable size"),
            ("komi", "syntax error"),
            ("komi abc", "syntax error"),
            ("komi 7.3", "komi must be a multiple of 0.5"),
            ("komi nan", "syntax error"),
            ("play", "syntax error"),
            ("play b", "syntax error"),
            ("play purple E5", "syntax error"),
            ("play b E5 E6", "syntax error"),
            ("play b Z5", "illegal move"),
            ("play b I5", "syntax error"),
            ("play b E99", "illegal move"),
            ("play b E0", "illegal move"),
            ("play b 55", "syntax error"),
            ("genmove", "syntax error"),
            ("genmove red", "syntax error"),
            ("time_settings 1 2", "syntax error"),
            ("time_settings -1 0 0", "syntax error"),
            ("time_left b 10", "syntax error"),
            ("undo", "cannot undo"),
            ("99999999999999999999 name", "invalid command id"),
            ("12", "no command"),
        ]
        rc, r, _ = session([c for c, _ in bad] + ["name"])
        self.assertEqual(rc, 0)
        self.assertEqual(len(r), len(bad) + 1)
        for (c, msg), (ok, _, text) in zip(bad, r):
            self.assertFalse(ok, c)
            self.assertTrue(text.startswith(msg), "%r: %r" % (c, text))
        self.assertEqual(r[-1], (True, "", "gts-gtp"))

    def test_illegal_moves(self):
        rc, r, _ = session(["boardsize 5", "play b A2", "play w A1", "play b B1",  # capture A1
                            "play w A1",                     # suicide
                            "play b B1",                     # occupied
                            "play w B2", "play b pass", "play w pass", "play b C3",  # game over
                            "genmove b", "final_score"])
        self.assertEqual([x[0] for x in r],
                         [True, True, True, True, False, False, True, True, True, False, True, True])
        self.assertIn("illegal move", r[4][2])
        self.assertIn("game is over", r[9][2])
        self.assertEqual(r[10][2], "pass", "genmove after the end passes")

    def test_ko(self):
        # Black C2 takes the ko at B2; white may not retake at once.
        rc, r, _ = session(["boardsize 5", "play b B3", "play w C3", "play b A2", "play w D2",
                            "play b B1", "play w C1", "play w B2", "play b C2", "play w B2",
                            "play w E5", "play b E4", "play w B2"])
        self.assertEqual([x[0] for x in r[-5:]], [True, False, True, True, True])

    def test_comments_ids_blank_lines_control_chars(self):
        data = b"# a comment\n\n   \n1 name # trailing\r\n2\tprotocol_version\n\x01\x02 3 na\x7fme\n"
        rc, r, _ = session(data)
        self.assertEqual(rc, 0)
        self.assertEqual(r, [(True, "1", "gts-gtp"), (True, "2", "2"), (True, "3", "gts-gtp")])

    def test_long_line_and_eof(self):
        data = b"name\n" + b"play b " + b"A" * 100000 + b"\nname\n" + b"x" * 10000
        rc, r, _ = session(data)
        self.assertEqual(rc, 0, "EOF in the middle of a line ends the engine normally")
        self.assertEqual(r[0], (True, "", "gts-gtp"))
        self.assertEqual(r[1], (False, "", "line too long"))
        self.assertEqual(r[2], (True, "", "gts-gtp"))
        self.assertEqual(r[3][0], False, "the unterminated last line is still answered")

    def test_genmove_budget_options(self):
        rc, r, _ = session(["boardsize 7", "time_settings 1 0 0", "time_left b 1 0", "genmove b",
                            "time_settings 0 1 0", "genmove w", "time_settings 0 0 0",
                            "genmove b"], args=("--threads", "2", "--seconds", "0.05",
                                                "--option", "tree_mb=8", "--rave", "0"))
        self.assertEqual(rc, 0)
        self.assertTrue(all(x[0] for x in r), r)
        for i in (3, 5, 7):
            self.assertRegex(r[i][2], r"^([A-HJ][1-7]|pass|resign)$")

    def test_patterns_option(self):
        """--patterns: the adapter's patterns=1 in every game (boardsize,
        clear_board and komi keep it). After black D4 and white D5 on 7x7,
        MoGo's hane patterns point black at C5, E5, C4 or E4 in 14 rule
        draws of 16; without --patterns those are 4 random points of 47."""
        hane = {"C5", "E5", "C4", "E4"}
        block = []
        for _ in range(40):
            block += ["gts-policy_move b", "undo"]
        cmds = (["boardsize 7", "play b D4", "play w D5", "komi 6.5"] + block +
                ["clear_board", "play b D4", "play w D5"] + block)
        hits = {}
        for args in ((), ("--patterns",)):
            rc, r, _ = session(cmds, args=("--playouts", "200", "--seed", "5") + args)
            self.assertEqual(rc, 0)
            self.assertTrue(all(x[0] for x in r), r)
            first = [x[2] for x in r[4:84:2]]
            second = [x[2] for x in r[87:167:2]]
            self.assertEqual(len(first) + len(second), 80)
            hits[args] = (sum(m in hane for m in first), sum(m in hane for m in second))
        self.assertGreaterEqual(min(hits[("--patterns",)]), 30, hits)
        self.assertLessEqual(max(hits[()]), 12, hits)

    def test_implied_pass_is_not_a_pass(self):
        """Two stones of one colour in a row: the pass implied between them
        is no pass (issue 31: play b D4, play b E4, play b pass ended the
        game), nor are the skips around handicap stones."""
        rc, r, _ = session(["play b D4", "play b E4", "play b pass", "play w C3", "showboard",
                            "clear_board", "fixed_handicap 2", "play b pass", "play w E5",
                            "play w pass", "play b pass", "play w D5"])
        self.assertEqual(rc, 0)
        self.assertEqual([x[0] for x in r], [True] * 11 + [False], r)
        self.assertIn("Black to move", r[4][2])
        self.assertIn("game is over", r[11][2], "two real passes still end the game")

    def test_numbers_are_plain_decimals(self):
        """Issue 31: komi 0x10 was 16. GTP numbers are decimal: no hex, no
        exponent, no sign on an int, no inf/nan."""
        bad = ["komi 0x10", "komi 1e1", "komi 7.5e0", "komi inf", "komi 0x1p3", "komi 7,5",
               "boardsize 0x9", "boardsize +9", "boardsize 9.0", "boardsize 1e1",
               "time_settings 0x10 0 0", "time_settings 10 1e1 0", "time_left b 1e2 0",
               "time_left b 10 +1", "fixed_handicap 0x2", "fixed_handicap 2.0",
               "place_free_handicap +2", "loadsgf nonexistent.sgf 0x2"]
        rc, r, _ = session(bad + ["komi 16", "komi -.5", "komi 6.", "boardsize 09",
                                  "showboard"])
        self.assertEqual(rc, 0)
        for c, (ok, _, text) in zip(bad, r):
            self.assertFalse(ok, c)
            self.assertTrue(text.startswith("syntax error") or text.startswith("boardsize not"),
                            "%r: %r" % (c, text))
        self.assertTrue(all(x[0] for x in r[len(bad):]), r[len(bad):])
        self.assertIn("komi 6.0", r[-1][2])
        for args in (["--komi", "0x10"], ["--playouts", "1e3"], ["--boardsize", "0x9"]):
            p = subprocess.run([GTP] + args, input=b"", capture_output=True, timeout=60)
            self.assertEqual(p.returncode, 2, args)

    def test_handicap_commands(self):
        """fixed_handicap, place_free_handicap, set_free_handicap: GTP 2's
        errors, Black's stones, White to move, not undoable."""
        rc, r, _ = session([
            "fixed_handicap 1", "fixed_handicap 10", "fixed_handicap x", "fixed_handicap",
            "fixed_handicap 3", "showboard", "undo", "fixed_handicap 2",
            "place_free_handicap 2", "set_free_handicap A1 B2",
            "genmove w", "undo", "undo",
            "boardsize 5", "fixed_handicap 2", "place_free_handicap 1",
            "place_free_handicap 25", "place_free_handicap 24", "showboard",
            "clear_board", "set_free_handicap A1", "set_free_handicap A1 A1",
            "set_free_handicap A1 pass", "set_free_handicap A1 F9", "set_free_handicap A1 Z",
            "set_free_handicap A1 B2 C3", "showboard", "play w pass", "play b D4"])
        self.assertEqual(rc, 0)
        want = [(False, "invalid number of stones"), (False, "invalid number of stones"),
                (False, "syntax error"), (False, "syntax error"), (True, ""), (True, ""),
                (False, "cannot undo"), (False, "board not empty"), (False, "board not empty"),
                (False, "board not empty"), (True, ""), (True, ""), (False, "cannot undo"),
                (True, ""), (False, "invalid number of stones"),
                (False, "invalid number of stones"), (False, "invalid number of stones"),
                (True, ""), (True, ""), (True, ""), (False, "bad vertex list"),
                (False, "bad vertex list"), (False, "bad vertex list"),
                (False, "bad vertex list"), (False, "bad vertex list"), (True, ""), (True, ""),
                (True, ""), (True, "")]
        self.assertEqual(len(r), len(want))
        for i, ((ok, _, text), (wok, wtext)) in enumerate(zip(r, want)):
            self.assertEqual(ok, wok, (i, text))
            self.assertTrue(text.startswith(wtext), (i, text))
        self.assertEqual(vertices(r[4][2]), {"C3", "G7", "C7"})
        stones, turn = board_of(r[5][2])
        self.assertEqual(stones, {"C3": "X", "G7": "X", "C7": "X"})
        self.assertEqual(turn, "white")
        free = r[17][2].split()
        self.assertEqual(len(free), 24, "every requested stone")
        stones, turn = board_of(r[18][2])
        self.assertEqual((len(stones), set(stones.values()), turn), (24, {"X"}, "white"))
        stones, turn = board_of(r[26][2])
        self.assertEqual((stones, turn), ({"A1": "X", "B2": "X", "C3": "X"}, "white"))

    def test_final_status_list_syntax(self):
        rc, r, _ = session(["final_status_list", "final_status_list foo",
                            "final_status_list dead alive", "final_status_list seki",
                            "final_status_list DEAD", "play b E5", "final_status_list alive",
                            "final_score"])
        self.assertEqual([x[0] for x in r], [False, False, False, True, True, True, True, True])
        self.assertTrue(r[0][2].startswith("syntax error"))
        self.assertEqual(r[3][2], "")
        self.assertEqual(r[6][2], "E5")
        self.assertEqual(r[7][2], "B+73.5", "one stone owns the empty board")

    def test_dead_stones_recorded(self):
        """Issue 31: final_score counted dead stones as alive. Finished
        games with dead stones left: the score and dead stones GNU Go 3.8
        gave (recorded in FINISHED; the Referee compares live)."""
        engine = Engine([GTP, "--playouts", "100"])
        try:
            for size, seed, moves, score, dead in FINISHED:
                play_game(engine, size, moves)
                self.assertEqual(engine.cmd("final_score"), (True, score), (size, seed))
                ok, ours = engine.cmd("final_status_list dead")
                self.assertTrue(ok)
                self.assertEqual(vertices(ours), vertices(dead), (size, seed))
                ok, alive = engine.cmd("final_status_list alive")
                self.assertFalse(vertices(alive) & vertices(dead))
                self.assertEqual(engine.cmd("final_status_list seki"), (True, ""))
        finally:
            engine.close()

    def test_loadsgf(self):
        """loadsgf: SZ, KM, AB/AW (points and rectangles), PL, the main
        line of variations, a move number; errors keep the old game."""
        with tempfile.TemporaryDirectory() as d:
            good = os.path.join(d, "g.sgf")
            with open(good, "w") as f:
                f.write("(;GM[1]FF[4]SZ[7]KM[5.5]C[a \\] comment]AB[aa:bb][dd]AW[gg]PL[W]\n"
                        ";W[ee];B[ec](;W[ce];B[tt];W[])(;W[ag]))")
            bad = os.path.join(d, "bad.sgf")
            with open(bad, "w") as f:
                f.write("(;SZ[7];B[aa];W[aa])")
            big = os.path.join(d, "big.sgf")
            with open(big, "w") as f:
                f.write("(;SZ[25])")
            rc, r, _ = session(["loadsgf %s" % good, "showboard", "loadsgf %s 3" % good,
                                "showboard", "undo", "undo", "showboard", "undo",
                                "loadsgf %s 1" % good, "showboard",
                                "boardsize 9", "play b E5",
                                "loadsgf %s" % bad, "loadsgf %s" % big,
                                "loadsgf %s" % os.path.join(d, "none.sgf"), "loadsgf", "showboard"])
        self.assertEqual([x[0] for x in r],
                         [True, True, True, True, True, True, True, False, True, True, True, True,
                          False, False, False, False, True])
        stones, turn = board_of(r[1][2])
        self.assertEqual(stones, {"A7": "X", "B7": "X", "A6": "X", "B6": "X", "D4": "X",
                                  "G1": "O", "E3": "O", "E5": "X", "C3": "O"})
        self.assertEqual(turn, "black", "W E3, B E5, W C3, B pass, W pass")
        self.assertIn("komi 5.5", r[1][2])
        stones, turn = board_of(r[3][2])
        self.assertEqual(len(stones), 8, "before move 3: W E3 and B E5 played")
        self.assertEqual(turn, "white")
        stones, turn = board_of(r[6][2])
        self.assertEqual(len(stones), 6, "undo takes the moves back, not the set-up")
        self.assertEqual(turn, "white", "PL[W]")
        self.assertEqual(r[7], (False, "", "cannot undo"))
        self.assertEqual(len(board_of(r[9][2])[0]), 6)
        stones, turn = board_of(r[16][2])
        self.assertEqual((stones, turn), ({"E5": "X"}, "white"), "failed loads keep the game")

    def test_bad_command_line(self):
        for args in (["--threads", "0"], ["--playouts", "x"], ["--komi", "0.3"], ["extra"],
                     ["--nonsense"], ["--patterns=1"], ["--option", "nonsense=1"], ["--option", "threads"],
                     ["--option", "threads=0"]):
            p = subprocess.run([GTP] + args, input=b"", capture_output=True, timeout=60)
            self.assertEqual(p.returncode, 2, args)
            self.assertTrue(p.stderr, args)

    def test_fuzz_garbage(self):
        """Random lines (real command words with random arguments, and raw
        bytes): every reply is well-formed, the engine ends normally."""
        rng = random.Random(14)
        words = ["play", "genmove", "boardsize", "komi", "undo", "final_score", "showboard",
                 "time_settings", "time_left", "known_command", "clear_board", "name",
                 "gts-policy_move", "list_commands", "protocol_version"]
        args = ["b", "w", "B", "white", "pass", "E5", "A1", "T19", "J9", "Z0", "-1", "0", "5",
                "7.5", "1e9", "nan", "inf", "", "\t", "#", "999999999999", "9", "3", "2"]
        lines = []
        for _ in range(1500):
            k = rng.random()
            if k < 0.7:
                n = rng.randint(0, 4)
                line = " ".join([rng.choice(words)] + [rng.choice(args) for _ in range(n)])
                if rng.random() < 0.2:
                    line = str(rng.randint(0, 1000)) + " " + line
            else:
                line = "".join(chr(rng.randint(1, 255)) for _ in range(rng.randint(0, 60)))
                line = line.replace("\n", "")
            lines.append(line.replace("quit", "quiz"))
        data = "".join(l + "\n" for l in lines).encode("latin-1") + b"name\n"
        rc, r, err = session(data, args=("--playouts", "20", "--seconds", "0.02"))
        self.assertEqual(rc, 0, err)
        self.assertEqual(r[-1], (True, "", "gts-gtp"), "still answering at the end")
        self.assertGreater(len(r), 1000)


@unittest.skipUnless(GNUGO, "GNU Go not found (install gnugo; scripts/setup does): "
                            "referee and match tests skipped")
class Referee(unittest.TestCase):
    def play_out(self, size, seed, engine, referee):
        engine.cmd("boardsize %d" % size)
        engine.cmd("clear_board")
        referee.cmd("boardsize %d" % size)
        referee.cmd("clear_board")
        colour, passes, n = "b", 0, 0
        while passes < 2 and n < 3 * size * size:
            ok, v = engine.cmd("gts-policy_move %s" % colour)
            self.assertTrue(ok, v)
            ok, text = referee.cmd("play %s %s" % (colour, v))
            self.assertTrue(ok, "gnugo accepts %s %s (move %d): %s" % (colour, v, n, text))
            passes = passes + 1 if v == "pass" else 0
            colour = "w" if colour == "b" else "b"
            n += 1
        return n

    def test_final_score_agrees_with_gnugo(self):
        """Random games to the end (every dead stone captured by the policy):
        our Tromp-Taylor score == GNU Go's area score."""
        agree = 0
        plan = ((9, 24, "7.5"), (7, 10, "0"), (5, 10, "2.5"), (13, 2, "6.5"), (19, 2, "7.5"))
        for size, games, komi in plan:
            engine = Engine([GTP, "--seed", str(size), "--komi", komi])
            referee = Engine([GNUGO, "--mode", "gtp", "--chinese-rules", "--level", "0"])
            self.assertTrue(referee.cmd("komi %s" % komi)[0])
            try:
                for g in range(games):
                    n = self.play_out(size, g, engine, referee)
                    self.assertGreater(n, size)
                    ours = engine.cmd("final_score")
                    theirs = referee.cmd("final_score")
                    self.assertTrue(ours[0] and theirs[0])
                    self.assertEqual(ours[1], theirs[1], "%dx%d game %d: final_score" % (
                        size, size, g))
                    agree += 1
            finally:
                engine.close()
                referee.close()
        self.assertEqual(agree, sum(p[1] for p in plan))

    def self_play(self, size, seed, level=0):
        """GNU Go against itself to two passes: the moves, Black first."""
        gg = Engine([GNUGO, "--mode", "gtp", "--chinese-rules", "--level", str(level),
                     "--seed", str(seed)])
        try:
            for c in ("boardsize %d" % size, "clear_board", "komi 7.5"):
                self.assertTrue(gg.cmd(c)[0])
            moves, colour, passes = [], "b", 0
            while passes < 2 and len(moves) < 3 * size * size:
                ok, m = gg.cmd("genmove " + colour)
                self.assertTrue(ok, m)
                if m.lower() == "resign":
                    break
                moves.append(m)
                passes = passes + 1 if m.lower() == "pass" else 0
                colour = "w" if colour == "b" else "b"
            return " ".join(moves)
        finally:
            gg.close()

    def test_dead_stones_agree_with_gnugo(self):
        """Finished games with dead stones left on the board (GNU Go
        against itself: the recorded FINISHED ones and new ones played
        here): final_score and final_status_list dead equal GNU Go's
        (Chinese rules: area with the dead stones removed)."""
        games = [(size, moves) for size, _, moves, _, _ in FINISHED]
        games += [(9, self.self_play(9, seed)) for seed in range(200, 208)]
        engine = Engine([GTP, "--playouts", "100"])
        referee = Engine([GNUGO, "--mode", "gtp", "--chinese-rules", "--level", "0"])
        with_dead = 0
        try:
            for size, moves in games:
                play_game(engine, size, moves)
                play_game(referee, size, moves)
                ours, theirs = engine.cmd("final_score"), referee.cmd("final_score")
                self.assertTrue(ours[0] and theirs[0])
                self.assertEqual(ours[1], theirs[1], (size, moves))
                dead = [e.cmd("final_status_list dead") for e in (engine, referee)]
                self.assertEqual(vertices(dead[0][1]), vertices(dead[1][1]), (size, moves))
                with_dead += bool(dead[1][1])
        finally:
            engine.close()
            referee.close()
        self.assertGreaterEqual(with_dead, len(FINISHED), "games with dead stones were checked")

    def test_fixed_handicap_as_gnugo(self):
        """fixed_handicap places GNU Go's points (GTP 2 section 4.1.1) on
        every board from 5x5 to 19x19, and refuses the same counts."""
        engine = Engine([GTP, "--playouts", "100"])
        referee = Engine([GNUGO, "--mode", "gtp"])
        try:
            for size in range(5, 20):
                for n in range(1, 11):
                    answers = []
                    for e in (engine, referee):
                        self.assertTrue(e.cmd("boardsize %d" % size)[0])
                        self.assertTrue(e.cmd("clear_board")[0])
                        ok, text = e.cmd("fixed_handicap %d" % n)
                        answers.append((ok, vertices(text) if ok else None))
                    self.assertEqual(answers[0], answers[1], (size, n))
        finally:
            engine.close()
            referee.close()

    def test_loadsgf_as_gnugo(self):
        """loadsgf FILE [N]: the stones and the side to move are GNU Go's,
        for a game record with set-up stones, PL and variations, at every
        move number."""
        sgf = ("(;GM[1]FF[4]SZ[9]KM[6.5]AB[cc][gg][cg]AW[ee:ef]PL[W]"
               ";W[gc];B[dd];W[fd](;B[fc];W[gd];B[fb];W[];B[hc])(;B[aa]))")
        engine = Engine([GTP, "--playouts", "100"])
        referee = Engine([GNUGO, "--mode", "gtp"])
        try:
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "game.sgf")
                with open(path, "w") as f:
                    f.write(sgf)
                for n in ["", "1", "2", "3", "4", "5", "6", "7", "8", "50"]:
                    ok, _ = engine.cmd("loadsgf %s %s" % (path, n))
                    self.assertTrue(ok, n)
                    ok, turn = referee.cmd("loadsgf %s %s" % (path, n))
                    self.assertTrue(ok, n)
                    stones, ours = board_of(engine.cmd("showboard")[1])
                    theirs = {}
                    for colour, mark in (("black", "X"), ("white", "O")):
                        for v in referee.cmd("list_stones " + colour)[1].split():
                            theirs[v] = mark
                    self.assertEqual(stones, theirs, n)
                    self.assertEqual(ours, turn, n)
        finally:
            engine.close()
            referee.close()

    def test_genmove_cleanup_captures_dead_stones(self):
        """kgs-genmove_cleanup: on a finished game with dead stones of the
        opponent in its area, the engine does not pass before they are off
        the board (GNU Go, playing the same moves, then sees no dead stone
        of that colour), while the opponent only passes."""
        size, _, moves, _, dead = FINISHED[0]  # W+40.5, six dead black strings
        engine = Engine([GTP, "--playouts", "300", "--resign", "0"])
        referee = Engine([GNUGO, "--mode", "gtp", "--chinese-rules", "--level", "0"])
        try:
            play_game(engine, size, moves)
            play_game(referee, size, moves)
            for _ in range(40):
                ok, m = engine.cmd("kgs-genmove_cleanup w")
                self.assertTrue(ok, m)
                self.assertTrue(referee.cmd("play w %s" % m)[0], m)
                if m.lower() == "pass":
                    break
                self.assertTrue(engine.cmd("play b pass")[0])
                self.assertTrue(referee.cmd("play b pass")[0])
            self.assertEqual(m.lower(), "pass", "white passes once the cleanup is over")
            stones, _ = board_of(engine.cmd("showboard")[1])
            self.assertFalse(vertices(dead) & set(v for v, c in stones.items() if c == "X"),
                             "the dead black stones were captured")
            ok, left = referee.cmd("final_status_list dead")
            self.assertTrue(ok)
            self.assertFalse(any(stones.get(v) == "X" for v in left.split()), left)
            self.assertEqual(engine.cmd("final_score"), referee.cmd("final_score"))
        finally:
            engine.close()
            referee.close()

    def test_short_match(self):
        """Two games against GNU Go level 0: no crash, no illegal move, no
        protocol error (go-match exits 1 on any of them)."""
        p = subprocess.run([sys.executable, MATCH, "--gts", GTP, "--gts-args", "--playouts 150",
                            "--gnugo", GNUGO, "--level", "0", "--games", "2", "--quiet",
                            "--timeout", "300"],
                           capture_output=True, text=True, timeout=900)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("2 games:", p.stdout)


if __name__ == "__main__":
    unittest.main()
