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


def _broken(base, **methods):
    """A subclass of ``base`` with ``methods`` replaced (clones keep it)."""
    def clone(self):
        c = base.clone(self)
        c.__class__ = type(self)
        return c
    return type(base.__name__ + "Broken", (base,), dict(methods, clone=clone))


class TestAdapterMistakes(unittest.TestCase):
    """Issue 31: the two most common adapter mistakes give the checker's
    report, as for a C adapter, instead of an exception; the others are
    refused with a clear reason."""

    def test_evaluate_out_of_range_is_reported(self):
        g = _broken(PyTicTacToeFull, evaluate=lambda self: 10**6)("")
        r = gts.check(g, walks=2)
        self.assertEqual(r.violation, "EVALUATE")
        self.assertIn("1000000", r.message)
        self.assertEqual(r.callback_status, 10**6)
        r = gts.check(_broken(PyTicTacToeFull, evaluate=lambda self: -2**40)(""), walks=2)
        self.assertEqual(r.violation, "EVALUATE")

    def test_too_many_moves_are_reported(self):
        cls = _broken(PyTicTacToeFull)
        cls.max_moves = 3
        r = gts.check(cls(""), walks=2)
        self.assertEqual(r.violation, "GENERATE_OVERFLOW")
        self.assertEqual(r.callback_status, 9, "the count generate() returned")
        self.assertIn("9 moves", r.message)

    def test_a_searched_mistake_still_raises(self):
        cls = _broken(PyTicTacToeFull)
        cls.max_moves = 3
        with self.assertRaises(ValueError):
            gts.pvs(cls(""), depth=2)
        with self.assertRaises(ValueError):
            gts.pvs(_broken(PyTicTacToeFull, evaluate=lambda self: 10**6)(""), depth=2)

    def test_bool_is_not_a_score(self):
        for value in (True, False):
            g = _broken(PyTicTacToeFull, evaluate=lambda self, v=value: v)("")
            with self.assertRaises(TypeError) as cm:
                gts.pvs(g, depth=2)
            self.assertIn("bool", str(cm.exception))
            with self.assertRaises(TypeError):
                gts.check(g, walks=1)

    def test_negative_apply_is_a_failure(self):
        def apply(self, move):
            if move == 4:
                return -1  # refused, the state unchanged, as a C apply() does
            PyTicTacToeFull.apply(self, move)
        g = _broken(PyTicTacToeFull, apply=apply)("")
        r = gts.check(g, walks=4)
        self.assertEqual(r.violation, "CALLBACK_FAILED")
        self.assertEqual(r.callback_status, -1)
        # the move as the game writes it (format_move: cells 1..9), not hex
        self.assertIn(f"apply({g.format_move(4)}) failed (-1)", r.message)
        with self.assertRaises(gts.CallbackError):
            gts.pvs(g, depth=3)
        self.assertEqual(g.generate(), PyTicTacToeFull("").generate(), "restored")
        # None and other values are success, as before
        ok = _broken(PyTicTacToeFull, apply=lambda self, m: PyTicTacToeFull.apply(self, m) or 7)
        self.assertEqual(gts.pvs(ok(""), depth=9).score, 0)

    def test_hash_of_the_wrong_type_is_explained(self):
        g = _broken(PyTicTacToeFull, hash=lambda self: "abc")("")
        with self.assertRaises(TypeError) as cm:
            gts.pvs(g, depth=3)
        text = str(cm.exception) + " ".join(getattr(cm.exception, "__notes__", []))
        self.assertIn("hash()", text)
        self.assertNotIn("abandoned with OK", text)
        if hasattr(cm.exception, "__notes__"):
            self.assertIn("no failure code", text)
        with self.assertRaises(TypeError):
            gts.check(g, walks=1)

    def test_bad_options_are_named(self):
        for kw, text in (({"depth": 9}, "depth=9"), ({"walk_length": 121}, "walk_length=121")):
            with self.assertRaises(gts.OutOfRange) as cm:
                gts.check(PyTicTacToeFull(""), **kw)
            self.assertIn(text, str(cm.exception))


class TestLastError(unittest.TestCase):
    def test_engine_names_the_struct(self):
        import ctypes
        from gts import _lib
        with gts.Engine() as e:
            self.assertEqual(e.last_error, "")
            lim = _lib.new_struct(_lib.LimitsStruct)
            res = _lib.new_struct(_lib.ResultStruct)
            lim.struct_size = 3
            g = gts.games.TicTacToe("")
            vt, state = g._gts_vtable_and_state()
            rc = _lib.lib.gts_search(e._ptr, 1, vt, state, ctypes.byref(lim), ctypes.byref(res))
            self.assertEqual(rc, gts.StructSizeError.status)
            self.assertTrue(e.last_error.startswith("gts_limits: "), e.last_error)
            e.search(g, "pvs", depth=2)
            self.assertEqual(e.last_error, "")


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
