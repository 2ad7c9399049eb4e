#!/usr/bin/env python3
"""Tests of `gts-gtp` (tools/gts-gtp.c), the GTP 2 Go engine, through a pipe.

Protocol conformance (ids, replies, every command), errors ("?" replies,
never a crash or a hang) for malformed commands, illegal moves, over-long
lines, random garbage and end of input; then, when GNU Go is installed, an
independent referee: random games played out with the engine's playout
policy are scored by `gnugo --mode gtp --chinese-rules` (area scoring) and
the scores must agree; and a very short match (tools/go-match) where a
crash, illegal move or protocol error of gts-gtp fails the test.

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
                  "showboard", "time_settings", "time_left", "quit"):
            self.assertIn(c, listed)

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
