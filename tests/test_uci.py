#!/usr/bin/env python3
"""Tests of gts-uci (tools/gts-uci.c): the UCI protocol driven through a pipe.

The binary comes from $GTS_UCI. Every exchange waits for its reply with a
generous deadline (UCI_TIMEOUT): the deadline only turns a hang into a
failure, it measures nothing. Legality of the engine's moves is checked by
Stockfish when it is installed (an independent move generator), else by
the move's syntax.
"""
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
import unittest

UCI_TIMEOUT = 60.0
MOVE_RE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
MATE_IN_1 = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
STOCKFISH = shutil.which("stockfish") or (
    "/usr/games/stockfish" if os.access("/usr/games/stockfish", os.X_OK) else None)


class Engine:
    """gts-uci on a pipe; lines read by a thread into a queue."""

    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, bufsize=0)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for raw in self.p.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def send(self, text):
        data = text.encode() if isinstance(text, str) else text
        self.p.stdin.write(data + b"\n")
        self.p.stdin.flush()

    def expect(self, pattern, timeout=UCI_TIMEOUT):
        """Lines up to and including the first matching @p pattern."""
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no line matching {pattern!r} within {timeout} s; "
                                     f"got {seen[-5:]}")
            if line is None:
                raise AssertionError(f"engine exited before {pattern!r}; got {seen[-5:]}")
            seen.append(line)
            if re.search(pattern, line):
                return seen

    def no_line(self, pattern, wait):
        """No line matching @p pattern arrives within @p wait seconds (the
        first such line, or None)."""
        deadline = time.monotonic() + wait
        try:
            while True:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
                if line is None or re.search(pattern, line):
                    return line
        except queue.Empty:
            return None

    def close(self):
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        try:
            rc = self.p.wait(timeout=UCI_TIMEOUT)
        finally:
            if self.p.poll() is None:
                self.p.kill()
                self.p.wait()
            # The reader must see end of file before its descriptor is
            # closed: a later Popen reuses the number, and a reader still
            # running would steal bytes from the next engine's output.
            self.reader.join(UCI_TIMEOUT)
            self.p.stdout.close()
            self.p.stderr.close()
        return rc


def stockfish_legal(position_cmd, move):
    """Whether Stockfish's perft 1 split lists @p move (None without it)."""
    if not STOCKFISH:
        return None
    out = subprocess.run([STOCKFISH], input=f"{position_cmd}\ngo perft 1\nquit\n",
                         capture_output=True, text=True, timeout=UCI_TIMEOUT).stdout
    return any(line.startswith(move + ":") for line in out.splitlines())


class UciTest(unittest.TestCase):
    def setUp(self):
        self.e = Engine(os.environ.get("GTS_UCI", "gts-uci"))

    def tearDown(self):
        rc = self.e.close()
        self.assertEqual(rc, 0, "gts-uci must exit 0 at end of input or quit")

    def bestmove(self, lines):
        m = re.match(r"^bestmove (\S+)", lines[-1])
        self.assertIsNotNone(m, lines[-1])
        return m.group(1)

    def assert_no_info_string(self, lines):
        self.assertFalse([l for l in lines if l.startswith("info string")], lines)

    def assert_legal(self, position_cmd, move):
        self.assertRegex(move, MOVE_RE)
        legal = stockfish_legal(position_cmd, move)
        if legal is not None:
            self.assertTrue(legal, f"{move} is not legal after '{position_cmd}' (Stockfish)")

    def test_handshake(self):
        self.e.send("uci")
        lines = self.e.expect(r"^uciok$")
        text = "\n".join(lines)
        self.assertRegex(text, r"(?m)^id name gts-uci")
        self.assertRegex(text, r"(?m)^option name Hash type spin default \d+ min 1 max \d+")
        self.assertRegex(text, r"(?m)^option name Threads type spin")
        self.assertRegex(text, r"(?m)^option name Algorithm type combo default pvs .*var ybwc")
        self.assertRegex(text, r"(?m)^option name Ponder type check default false$")
        self.assertRegex(text, r"(?m)^option name Clear Hash type button$")
        # The selective search (issue 32): on by default but Razor and LMP,
        # 0 switches each off.
        for name, default in (("NullMove", 3), ("LMR", 100), ("Futility", 100),
                              ("Razor", 0), ("LMP", 0), ("History", 2),
                              ("CounterMoves", 0)):
            self.assertRegex(text, rf"(?m)^option name {name} type spin default {default} "
                                   rf"min 0 max \d+$")
        self.assertRegex(text, r"(?m)^option name Contempt type spin default 0 min -\d+ max \d+$")
        self.assertNotIn("var minimax", text)
        self.assertNotIn("var mcts", text)
        self.e.send("isready")
        self.e.expect(r"^readyok$")

    def test_go_depth_reports_iterations(self):
        pos = "position startpos moves e2e4 e7e5 g1f3"
        self.e.send("ucinewgame")
        self.e.send(pos)
        self.e.send("go depth 4")
        lines = self.e.expect(r"^bestmove")
        infos = [l for l in lines if l.startswith("info depth")]
        self.assertEqual([int(l.split()[2]) for l in infos], [1, 2, 3, 4])
        for l in infos:
            self.assertRegex(l, r"^info depth \d+ seldepth \d+ score (cp -?\d+|mate -?\d+) "
                                r"nodes \d+ nps \d+ hashfull \d+ time \d+ pv( [a-h][1-8][a-h][1-8][qrbn]?)+$")
        best = self.bestmove(lines)
        self.assertEqual(best, infos[-1].split(" pv ")[1].split()[0], "bestmove is the PV's first")
        # The reply to ponder on (what polyglot and GUIs ponder on): the PV's second move.
        self.assertEqual(lines[-1].split()[2:], ["ponder", infos[-1].split(" pv ")[1].split()[1]])
        self.assert_legal(pos, best)

    def test_mate_in_one(self):
        self.e.send(f"position fen {MATE_IN_1}")
        self.e.send("go depth 3")
        lines = self.e.expect(r"^bestmove")
        self.assertEqual(self.bestmove(lines), "h5f7")
        self.assertIn("score mate 1 ", [l for l in lines if l.startswith("info depth")][-1])

    def test_mated_and_mating_scores(self):
        # Black's only move is Kb8, then Rh8 mates: mate -1.
        self.e.send("position fen k7/8/1K6/8/8/8/8/7R b - - 0 1")
        self.e.send("go depth 3")
        lines = self.e.expect(r"^bestmove")
        info = [l for l in lines if l.startswith("info depth")][-1]
        self.assertIn("score mate -1 ", info)
        # Checkmated already: no move to play, and the score says why.
        self.e.send("position startpos moves f2f3 e7e5 g2g4 d8h4")
        self.e.send("go depth 2")
        lines = self.e.expect(r"^bestmove")
        self.assertEqual(self.bestmove(lines), "0000")
        self.assertEqual(lines[-2], "info depth 0 score mate 0")
        # Stalemated: a draw.
        self.e.send("position fen k7/8/1Q6/8/8/8/8/7K b - - 0 1")
        self.e.send("go depth 2")
        lines = self.e.expect(r"^bestmove")
        self.assertEqual(self.bestmove(lines), "0000")
        self.assertEqual(lines[-2], "info depth 0 score cp 0")

    def test_nodes_movetime_and_clock(self):
        pos = "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
        self.e.send(pos)
        for go in ("go nodes 20000", "go movetime 100", "go wtime 2000 btime 2000 winc 10 binc 10",
                   "go wtime 300 btime 300 movestogo 1", "go wtime 0 btime 0"):
            self.e.send(go)
            self.assert_legal(pos, self.bestmove(self.e.expect(r"^bestmove")))

    def test_infinite_waits_for_stop(self):
        self.e.send("position startpos")
        self.e.send("go infinite")
        self.e.expect(r"^info depth 1 ")
        self.e.send("isready")
        lines = self.e.expect(r"^readyok$")
        self.assertFalse(any(l.startswith("bestmove") for l in lines),
                         "isready is answered during the search, before bestmove")
        self.e.send("position startpos moves e2e4")  # refused while searching
        self.e.expect(r"^info string position ignored: a search is running")
        self.e.send("stop")
        best = self.bestmove(self.e.expect(r"^bestmove"))
        self.assert_legal("position startpos", best)
        # After stop the engine is idle again.
        self.e.send("go depth 1")
        self.e.expect(r"^bestmove")

    def test_infinite_holds_bestmove_after_a_finished_search(self):
        # depth 2 finishes at once, but "infinite" keeps bestmove until stop.
        self.e.send("position startpos")
        self.e.send("go depth 2 infinite")
        self.assertIsNone(self.e.no_line(r"^bestmove", 0.5))
        self.e.send("stop")
        self.e.expect(r"^bestmove")

    def test_quit_and_eof_during_search(self):
        self.e.send("position startpos")
        self.e.send("go infinite")
        self.e.expect(r"^info depth 2 ")
        self.e.send("quit")
        self.e.expect(r"^bestmove")
        self.assertIsNone(self.e.no_line(r".", 0.2))
        # A second engine: end of input in the middle of a search.
        e2 = Engine(os.environ.get("GTS_UCI", "gts-uci"))
        e2.send("go infinite")
        e2.expect(r"^info depth 1 ")
        self.assertEqual(e2.close(), 0)

    def test_stop_at_once_after_go(self):
        # The stop arrives before the search thread holds the engine: it
        # must not be lost (the old engine hung here in 20 of 20 runs).
        self.e.send("position startpos")
        for go in ["go infinite", "go depth 40", "go ponder", "go wtime 100000 btime 100000"] * 5:
            self.e.send(go)
            self.e.send("stop")
            self.assert_legal("position startpos", self.bestmove(self.e.expect(r"^bestmove")))
        self.e.send("isready")
        self.e.expect(r"^readyok$")

    def test_quit_or_eof_at_once_after_go(self):
        # Quit or end of input right after go: stop, print bestmove, exit 0.
        for i in range(10):
            e = Engine(os.environ.get("GTS_UCI", "gts-uci"))
            try:
                e.send("position startpos")
                e.send("go depth 40" if i % 2 else "go infinite")
                if i < 5:
                    e.send("quit")
                if i >= 5:
                    e.p.stdin.close()  # EOF
                lines_before_close = e.expect(r"^bestmove")
                self.assertRegex(lines_before_close[-1], r"^bestmove [a-h][1-8][a-h][1-8]")
            finally:
                self.assertEqual(e.close(), 0)

    def test_ponderhit_starts_the_clock(self):
        # go ponder: no bestmove while pondering, whatever the clock says;
        # ponderhit makes it the timed search of the go command.
        pos = "position startpos moves e2e4 e7e5"
        self.e.send(pos)
        self.e.send("go ponder wtime 1000 btime 1000")
        self.e.expect(r"^info depth 1 ")
        self.assertIsNone(self.e.no_line(r"^bestmove", 1.5), "bestmove while pondering")
        self.e.send("ponderhit")
        self.assert_legal(pos, self.bestmove(self.e.expect(r"^bestmove")))
        # A ponder search that reached its depth holds bestmove until ponderhit.
        self.e.send("go ponder depth 2 wtime 1000 btime 1000")
        self.e.expect(r"^info depth 2 ")
        self.assertIsNone(self.e.no_line(r"^bestmove", 0.5))
        self.e.send("ponderhit")
        self.assert_legal(pos, self.bestmove(self.e.expect(r"^bestmove")))
        # A ponder miss: stop, bestmove (which the GUI ignores).
        self.e.send("go ponder wtime 1000 btime 1000")
        self.e.expect(r"^info depth 1 ")
        self.e.send("stop")
        self.assert_legal(pos, self.bestmove(self.e.expect(r"^bestmove")))
        # ponderhit without a ponder search: said, no harm.
        self.e.send("ponderhit")
        self.e.expect(r"^info string ponderhit ignored")

    def test_clock_at_or_below_zero_and_searchmoves(self):
        pos = "position startpos moves d2d4"
        self.e.send(pos)
        # -1 is a clock (a GUI's lag), not "no clock": a minimal search.
        for go in ("go wtime -1 btime -1", "go wtime -500 btime -500 winc 0 binc 0",
                   "go wtime 0 btime 0 movestogo 1"):
            self.e.send(go)
            self.assert_legal(pos, self.bestmove(self.e.expect(r"^bestmove")))
        # The limits after the searchmoves list still count.
        self.e.send("go searchmoves e7e5 d7d5 movetime 200")
        self.e.expect(r"^info string go: searchmoves")
        self.assert_legal(pos, self.bestmove(self.e.expect(r"^bestmove")))
        self.e.send("go searchmoves e7e5 d7d5 depth 3")
        lines = self.e.expect(r"^bestmove")
        depths = [int(l.split()[2]) for l in lines if l.startswith("info depth")]
        self.assertEqual(depths, [1, 2, 3])

    def test_threads_with_a_serial_algorithm(self):
        # Threads 2 with the default (serial) algorithm: a parallel one
        # (dts) searches, and the engine says so, once.
        self.e.send("setoption name Threads value 2")
        self.e.send("go depth 3")
        lines = self.e.expect(r"^bestmove")
        self.assertTrue([l for l in lines
                         if l.startswith("info string Threads 2: searching with dts")], lines)
        self.e.send("go depth 3")
        lines = self.e.expect(r"^bestmove")
        self.assert_no_info_string(lines)
        # A serial algorithm chosen on purpose: kept, and said.
        self.e.send("setoption name Algorithm value pvs")
        self.e.send("go depth 3")
        lines = self.e.expect(r"^bestmove")
        self.assertTrue([l for l in lines if re.match(
            r"^info string Threads 2: Algorithm pvs searches on one thread only", l)], lines)
        self.e.send("setoption name Threads value 1")
        self.e.send("go depth 3")
        lines = self.e.expect(r"^bestmove")
        self.assert_no_info_string(lines)

    def test_periodic_info_during_long_iterations(self):
        # Sooner or later an iteration takes more than a second: the engine
        # is not silent meanwhile (info nodes N nps N time T).
        self.e.send("position startpos")
        self.e.send("go infinite")
        lines = self.e.expect(r"^info nodes \d+ nps \d+ time \d+$")
        lines += self.e.expect(r"^info nodes \d+ nps \d+ time \d+$")
        ticks = [l for l in lines if l.startswith("info nodes")]
        self.assertGreaterEqual(int(ticks[1].split()[2]), int(ticks[0].split()[2]))
        self.assertGreater(int(ticks[1].split()[6]), int(ticks[0].split()[6]))
        self.e.send("stop")
        self.e.expect(r"^bestmove")
        self.assertIsNone(self.e.no_line(r".", 0.3), "nothing after bestmove")
        self.e.send("setoption name Clear Hash")
        self.e.send("isready")
        lines = self.e.expect(r"^readyok$")
        self.assert_no_info_string(lines)

    def test_options(self):
        self.e.send("setoption name Hash value 8")
        self.e.send("setoption name Threads value 2")
        self.e.send("setoption name Algorithm value ybwc")
        self.e.send("isready")
        lines = self.e.expect(r"^readyok$")
        self.assert_no_info_string(lines)
        pos = "position startpos moves d2d4"
        self.e.send(pos)
        self.e.send("go depth 4")
        self.assert_legal(pos, self.bestmove(self.e.expect(r"^bestmove")))
        for knob in ("NullMove value 0", "LMR value 0", "Futility value 0", "Razor value 0",
                     "LMP value 0", "Contempt value -20", "nullmove value 2", "LMR value 150"):
            self.e.send(f"setoption name {knob}")
        self.e.send("isready")
        self.assert_no_info_string(self.e.expect(r"^readyok$"))
        self.e.send(pos)
        self.e.send("go depth 4")
        self.assert_legal(pos, self.bestmove(self.e.expect(r"^bestmove")))
        for bad, why in (("setoption name LMR value 401", "LMR: expected 0..400 (0 = off)"),
                         ("setoption name NullMove value -1", "NullMove: expected 0..8"),
                         ("setoption name Futility value x", "Futility: expected 0.."),
                         ("setoption name Hash value 0", "Hash: expected 1"),
                         ("setoption name Hash value lots", "Hash: expected 1"),
                         ("setoption name Threads value 100000", "Threads: expected 1"),
                         ("setoption name Algorithm value mcts", "not an exact depth-first"),
                         ("setoption name Algorithm value minimax", "not an exact depth-first"),
                         ("setoption name Bogus value 1", "unknown option 'Bogus'"),
                         ("setoption Hash 8", "expected 'setoption name")):
            self.e.send(bad)
            self.e.expect(r"^info string setoption.*" + re.escape(why))

    def test_bad_positions(self):
        cases = (
            ("position", "expected 'position startpos|fen"),
            ("position fen", "a FEN has 4 to 6 fields"),
            ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", "bad or impossible FEN"),
            ("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x",
             "a FEN has 4 to 6 fields"),
            ("position fen 4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "bad or impossible FEN"),
            ("position fen 4k3/8/8/8/8/8/8/4K3 w K - 0 1", "bad or impossible FEN"),
            ("position startpos junk", "unexpected text after startpos"),
        )
        self.e.send("position startpos moves g1f3")
        for cmd, why in cases:
            self.e.send(cmd.encode("latin-1"))
            self.e.expect(r"^info string position: " + re.escape(why))
        # The position before the bad commands is kept.
        self.e.send("go depth 2")
        self.assert_legal("position startpos moves g1f3", self.bestmove(self.e.expect(r"^bestmove")))

    def test_illegal_move_plays_the_moves_before_it(self):
        # As common engines do: the moves up to the illegal one are played
        # (here the Scholar's mate set-up, mate in one), the rest ignored.
        self.e.send("position startpos")
        self.e.send("position startpos moves e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 e1e3 h5f7")
        self.e.expect(r"^info string position: illegal move 'e1e3' \(move 7 of the list\): "
                      r"the 6 moves before it are played")
        self.e.send("go depth 3")
        lines = self.e.expect(r"^bestmove")
        self.assertEqual(self.bestmove(lines), "h5f7")
        self.assertIn("score mate 1 ", [l for l in lines if l.startswith("info depth")][-1])
        # Bytes that are no move at all: the same.
        self.e.send(b"position startpos moves e2e4 \x01\xff")
        self.e.expect(r"^info string position: illegal move '\\x01\\xff' \(move 2")
        self.e.send("go depth 2")
        self.assert_legal("position startpos moves e2e4",
                          self.bestmove(self.e.expect(r"^bestmove")))

    def test_bad_commands(self):
        self.e.send("bogus command")
        self.e.expect(r"^info string unknown command 'bogus'")
        self.e.send(b"\x00\x01\x02 \xfe\xff")
        self.e.expect(r"^info string unknown command")
        self.e.send("go depth x")
        self.e.expect(r"^info string go: depth expects a number")
        self.e.expect(r"^bestmove 0000")
        self.e.send("go depth 0")
        self.e.expect(r"^info string go: depth expects")
        self.e.send("go frobnicate 3 depth 1")
        self.e.expect(r"^info string go: unknown parameter 'frobnicate'")
        self.e.expect(r"^bestmove")
        self.e.send("x" * 200000)
        self.e.expect(r"^info string line too long")
        self.e.send(" ".join(["e2e4"] * 5000))
        self.e.expect(r"^info string too many words")
        moves = " ".join(["g1f3 g8f6 f3g1 f6g8"] * 500)
        self.e.send("position startpos moves " + moves)
        self.e.expect(r"^info string position: too many moves")
        self.e.send("stop")  # nothing to stop: no reply, no harm
        self.e.send("isready")
        self.e.expect(r"^readyok$")

    def test_game_history_repetition_is_a_draw(self):
        # White, a rook down, gives perpetual check: Qe8+ Kh7 Qh5+ Kg8. At the
        # root (Qh5, Kg8, White to move) Qe8+ repeats the position the game
        # started from: with the game's history passed to the search
        # (gts_limits::history), a one-ply search already scores it as the
        # draw it is (cp 0) and plays it; without the history, a position
        # seen once before the root is no draw yet and the score is the
        # material's.
        pos = ("position fen 4Q1k1/6p1/8/8/8/8/qr4PP/7K b - - 0 1 "
               "moves g8h7 e8h5 h7g8")
        self.e.send(pos)
        self.e.send("go depth 1")
        lines = self.e.expect(r"^bestmove")
        self.assertEqual(self.bestmove(lines), "h5e8")
        infos = [l for l in lines if l.startswith("info depth")]
        self.assertRegex(infos[-1], r" score cp 0 ")

    def test_draw_root_still_plays(self):
        # Threefold repetition is reached, the game goes on (a GUI that does
        # not adjudicate it): the engine must still name a legal move.
        pos = "position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"
        self.e.send(pos)
        self.e.send("go depth 3")
        best = self.bestmove(self.e.expect(r"^bestmove"))
        self.assertNotEqual(best, "0000")
        self.assert_legal(pos, best)


@unittest.skipUnless(STOCKFISH, "tools/chess-suite reads SAN through Stockfish")
class ChessSuiteTest(unittest.TestCase):
    """tools/chess-suite's --ids and --misses on two Win At Chess positions."""

    SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools",
                         "chess-suite")

    def run_suite(self, *args):
        return subprocess.run([sys.executable, self.SUITE, "--gts", os.environ["GTS_UCI"],
                               *args], capture_output=True, text=True, timeout=UCI_TIMEOUT)

    def test_ids_and_misses(self):
        # WAC.002 (Rxb2, a rook given for two passers) is missed at any
        # small budget; the line names the move played and the bm move.
        r = self.run_suite("--ids", "WAC.001,WAC.002", "--nodes", "2000", "--misses")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"solved [0-2]/2 ")
        miss = re.search(r"^WAC\.002: played ([a-h][1-8][a-h][1-8][qrbn]?) \((\S+)\), "
                         r"bm Rxb2, score (cp|mate) -?\d+$", r.stdout, re.M)
        self.assertIsNotNone(miss, r.stdout)
        self.assertRegex(r.stdout, r"(?m)^missed: .*WAC\.002")
        self.assertNotIn("WAC.003", r.stdout, "only the named positions")

    def test_unknown_id_refused(self):
        r = self.run_suite("--ids", "WAC.999", "--nodes", "1000")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("no position with id WAC.999", r.stdout + r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
