"""Inputs of the built-in games and of the ProbCut calls are checked before
they reach C (issue 11, 2.2): ctypes reduces an int to its C type without a
word (2**64 + 3 becomes 3) and C stops a string at its first NUL."""
import unittest

import gts
import gts.game
from gts import games

BIG = 2 ** 64 + 3          # 3 once reduced mod 2**64: column 4, cell 4, d1...


class TestMoves(unittest.TestCase):
    def assert_untouched(self, g, position, history=()):
        self.assertEqual(g.position, position)
        self.assertEqual(g.history, list(history))

    def test_play_out_of_range(self):
        for make in (lambda: games.Connect4(""), lambda: games.TicTacToe(""),
                     lambda: games.Othello(""), lambda: games.RandomTree()):
            with make() as g:
                start = g.position
                for m in (BIG, 2 ** 64, -1, -(2 ** 64) + 3):
                    with self.subTest(game=g.name, move=m):
                        with self.assertRaises(gts.InvalidArgument):
                            g.play(m)
                        self.assert_untouched(g, start)
                for m in (3.0, None, b"4", [3]):
                    with self.subTest(game=g.name, move=m):
                        with self.assertRaises(TypeError):
                            g.play(m)
                        self.assert_untouched(g, start)

    def test_play_illegal(self):
        with games.Connect4("4444") as g:
            for m in (7, 64, 2 ** 63):
                with self.assertRaises(gts.InvalidArgument):
                    g.play(m)
            g.play(3)
            g.play(3)                               # column 4 is now full
            with self.assertRaises(gts.InvalidArgument):
                g.play(3)
            self.assert_untouched(g, "444444", [3, 3])
        with games.TicTacToe("5") as g:
            with self.assertRaises(gts.InvalidArgument):
                g.play(4)                           # occupied
        with games.TicTacToe("14253") as g:         # over: X has 1-2-3
            with self.assertRaises(gts.InvalidArgument):
                g.play(5)

    def test_move_text_with_nul(self):
        with games.Connect4() as g:
            for text in ("4\x00", "4\x009", "\x00"):
                with self.assertRaises(gts.ParseError):
                    g.parse_move(text)
                with self.assertRaises(gts.ParseError):
                    g.play(text)
            with self.assertRaises(TypeError):
                g.parse_move(4)
            with self.assertRaises(TypeError):
                g.parse_move(b"4")
            self.assert_untouched(g, "")
        with games.Othello() as g:
            with self.assertRaises(gts.ParseError):
                g.play("f5\x00")

    def test_format_move(self):
        with games.Connect4() as g:
            self.assertEqual(g.format_move(3), "4")
            self.assertEqual(g.format_move(None), "-")
            for m in (BIG, -1, 7):
                with self.assertRaises(gts.InvalidArgument):
                    g.format_move(m)
            with self.assertRaises(TypeError):
                g.format_move("4")
        with games.Othello() as g:
            self.assertEqual(g.format_move(games.Othello.PASS), "ps")
            with self.assertRaises(gts.InvalidArgument):
                g.format_move(2 ** 64 + 37)         # not f5

    def test_undo(self):
        with games.Connect4("4453") as g:
            with self.assertRaises(IndexError):
                g.undo()
            with self.assertRaises(IndexError):     # the start position stays
                g.undo(2)
            self.assert_untouched(g, "4453")
            g.play(0)
            g.play(6)
            with self.assertRaises(gts.InvalidArgument):
                g.undo(0)                           # legal for C, but not the last move
            with self.assertRaises(gts.InvalidArgument):
                g.undo(6 + 2 ** 64)
            with self.assertRaises(TypeError):
                g.undo("7")
            self.assert_untouched(g, "445317", [0, 6])
            self.assertEqual(g.undo(6), 6)
            self.assertEqual(g.undo(), 0)
            self.assert_untouched(g, "4453")
            self.assertEqual(sorted(g.moves()), list(range(7)))

    def test_perft_depth(self):
        with games.Connect4() as g:
            self.assertEqual(g.perft(0), 1)
            for d in (-1, 2 ** 32 + 1, gts.MAX_DEPTH + 1):
                with self.assertRaises(gts.InvalidArgument):
                    g.perft(d)
            for d in ("3", 2.0, None):
                with self.assertRaises(TypeError):
                    g.perft(d)


class TestPositions(unittest.TestCase):
    def test_nul_is_not_the_end(self):
        for cls, good in ((games.Connect4, "44"), (games.TicTacToe, "5"),
                          (games.Othello, "f5")):
            for text in ("\x00garbage", good + "\x00", "\x00"):
                with self.subTest(game=cls.__name__, text=text):
                    with self.assertRaises(gts.ParseError):
                        cls(text)

    def test_not_a_str(self):
        for cls in (games.Connect4, games.TicTacToe, games.Othello):
            for text in (None, b"44", 44, ["4"]):
                with self.subTest(game=cls.__name__, text=text):
                    with self.assertRaises(TypeError):
                        cls(text)

    def test_connect4_solver_flag(self):
        for bad in ("no", 2, None, 1.0):
            with self.assertRaises(TypeError):
                games.Connect4("", solver=bad)
        for ok, expected in ((True, True), (1, True), (0, False)):
            with games.Connect4("", solver=ok) as g:
                self.assertIs(g.solver, expected)

    def test_new(self):
        with self.assertRaises(gts.InvalidArgument):
            games.new(None)
        with self.assertRaises(gts.InvalidArgument):
            games.new("randtree", "seed=1", depth=3)     # which one?
        with games.new("randtree", depth=3) as g:
            self.assertEqual(g.params["depth"], 3)
        with self.assertRaises(gts.ParseError):
            games.new("connect4", "4\x00")


class TestRandomTree(unittest.TestCase):
    def test_ranges(self):
        bad = {"seed": (-1, 2 ** 64), "branching": (0, 65, 2 ** 32 + 4),
               "depth": (0, 61, 2 ** 32 + 8), "min_value": (-30001, -2 ** 31),
               "max_value": (30001, 2 ** 31), "terminal_percent": (101, -1),
               "ordered_percent": (101, 2 ** 32), "branching_jitter": (64, -1)}
        for k, values in bad.items():
            for v in values:
                with self.subTest(param=k, value=v):
                    with self.assertRaises(gts.InvalidArgument):
                        games.RandomTree(**{k: v})
        with self.assertRaises(gts.InvalidArgument):
            games.RandomTree(min_value=5, max_value=1)
        with self.assertRaises(gts.InvalidArgument):
            games.RandomTree(branching=4, branching_jitter=4)
        for k, v in (("seed", 1.5), ("depth", "8"), ("branching", True), ("seed", None),
                     ("transpositions", "yes"), ("transpositions", 2)):
            with self.subTest(param=k, value=v):
                with self.assertRaises(TypeError):
                    games.RandomTree(**{k: v})

    def test_edges_accepted(self):
        for kw in ({"seed": 0}, {"seed": 2 ** 64 - 1}, {"branching": 64, "depth": 1},
                   {"depth": 60, "branching": 1}, {"min_value": -30000, "max_value": 30000},
                   {"branching": 4, "branching_jitter": 3}, {"terminal_percent": 100},
                   {"ordered_percent": 100}, {"transpositions": 1}):
            with self.subTest(**kw):
                with games.RandomTree(**kw) as g:
                    for k, v in kw.items():
                        self.assertEqual(g.params[k], v)
                    self.assertIsInstance(g.params["transpositions"], bool)
                    self.assertGreater(g.perft(1), 0)

    def test_from_text(self):
        with games.RandomTree.from_text("seed=0x10, depth=3,transpositions=1") as g:
            self.assertEqual((g.params["seed"], g.params["depth"]), (16, 3))
            self.assertIs(g.params["transpositions"], True)
        for text in ("seed=1,seed=2", "depth=x", "colour=1", "depth", "transpositions=2"):
            with self.subTest(text=text):
                with self.assertRaises(gts.ParseError):
                    games.RandomTree.from_text(text)
        with self.assertRaises(gts.InvalidArgument):
            games.RandomTree.from_text("depth=61")
        with self.assertRaises(TypeError):
            games.RandomTree.from_text(None)

    def test_move_numbers(self):
        with games.RandomTree(branching=3, depth=2) as g:
            with self.assertRaises(gts.InvalidArgument):
                g.play(2 ** 64 + 1)
            with self.assertRaises(gts.ParseError):
                g.play("1\x00")
            g.play("1")
            self.assertEqual(g.history, [1])


class TestProbcutArguments(unittest.TestCase):
    def setUp(self):
        if not hasattr(gts._lib.lib, "gts_engine_set_probcut"):
            self.skipTest("no ProbCut in this libgts")

    def test_calibrate_ranges(self):
        with gts.Engine() as e, games.TicTacToe() as g:
            # (not samples=-1: unchecked, that is 2**32-1 samples and runs for hours)
            for kw in ({"samples": -2 ** 32}, {"samples": 2 ** 32}, {"seed": -1},
                       {"seed": 2 ** 64}, {"max_walk": 2 ** 32 + 2}):
                with self.subTest(**kw):
                    with self.assertRaises(gts.OutOfRange):
                        e.calibrate_probcut(g, 1, 2, **kw)
            with self.assertRaises(gts.OutOfRange):
                e.calibrate_probcut(g, 2 ** 32 + 1, 2)
            with self.assertRaises(TypeError):
                e.calibrate_probcut(g, 1, 2, samples=1.5)
            with self.assertRaises(TypeError):
                e.calibrate_probcut(g, 1, 2, positions=[g, object()])
            self.assertEqual(gts.game._contexts, {}, "no search context left behind")

    def test_pair_ranges(self):
        with gts.Engine() as e:
            before = e.get_probcut()
            with self.assertRaises(gts.OutOfRange):
                e.set_probcut([(2 ** 32 + 2, 4)])
            self.assertEqual(e.get_probcut(), before)


if __name__ == "__main__":
    unittest.main()
