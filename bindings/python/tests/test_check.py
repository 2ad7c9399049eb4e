"""gts.check(game): the adapter checker (gts_game_check) from Python."""
import unittest

import gts
from pygames import PyTicTacToeFull


class ConstantHash(PyTicTacToeFull):
    """Every position has the same key."""

    def hash(self):
        return 42

    def clone(self):
        c = super().clone()
        c.__class__ = ConstantHash
        return c


class Raising(PyTicTacToeFull):
    def evaluate(self):
        raise ZeroDivisionError("evaluate failed on purpose")


class TestCheck(unittest.TestCase):
    def test_good_adapters_pass(self):
        for game in (PyTicTacToeFull(""), gts.games.Connect4("4453"),
                     gts.games.TicTacToe("5"), gts.games.Othello()):
            with self.subTest(game=type(game).__name__):
                before = getattr(game, "snapshot", lambda: None)()
                r = gts.check(game, seed=7, walks=4, walk_length=8)
                self.assertTrue(r.ok, f"{r.violation}: {r.message}")
                self.assertEqual(r.message, "")
                self.assertGreater(r.positions, 4)
                if before is not None:
                    self.assertEqual(game.snapshot(), before, "the game is restored")

    def test_broken_hash_is_found_with_its_path(self):
        r = gts.check(ConstantHash(""), seed=1, walks=8, walk_length=6)
        self.assertFalse(r.ok)
        self.assertEqual(r.violation, "HASH")
        self.assertIn("equal key", r.message)
        # the path replays on a fresh game
        g = PyTicTacToeFull("")
        for m in r.path:
            self.assertIn(m, g.generate())
            g.apply(m)

    def test_callback_exception_propagates(self):
        with self.assertRaises(ZeroDivisionError):
            gts.check(Raising(""), walks=1)

    def test_options_are_checked(self):
        with self.assertRaises(gts.OutOfRange):
            gts.check(PyTicTacToeFull(""), depth=9)
        with self.assertRaises(gts.OutOfRange):
            gts.check(PyTicTacToeFull(""), walks=-1)
        with self.assertRaises(TypeError):
            gts.check(object())


if __name__ == "__main__":
    unittest.main()
