"""Misbehaving Python games: a callback that raises, returns garbage or is
missing stops the search with a clear error, the original exception is
re-raised from the search call, and the game state is restored."""
import threading
import traceback
import unittest

import gts
from pygames import PyTicTacToe, PyTicTacToeFull

ALGORITHMS = gts.algorithms()
SERIAL = [a.name for a in ALGORITHMS if not a.parallel]
PARALLEL = [a.name for a in ALGORITHMS if a.parallel]
# optional callbacks an algorithm may legitimately never call (minimax: no table)
OPTIONAL = ("hash", "move_score")


def depth_for(alg):
    """Full depth, but keep minimax through Python callbacks short (the
    faults trigger from depth 2 on)."""
    return 4 if alg == "minimax" else 9


class Boom(Exception):
    """The exception the faulty games raise."""


class Faulty(PyTicTacToeFull):
    """Tic-tac-toe that misbehaves in ``method`` once ``trigger`` stones are
    on the board (so the fault happens inside the tree, in any thread).
    ``raised`` collects the exceptions actually raised."""

    def __init__(self, position="", method="generate", kind="raise", trigger=3):
        self.method, self.kind, self.trigger = None, kind, trigger
        super().__init__(position)
        self.method = method
        self.raised = []
        self.lock = threading.Lock()

    def clone(self):
        c = super().clone()
        c.__class__ = Faulty
        c.method, c.kind, c.trigger = self.method, self.kind, self.trigger
        c.raised, c.lock = self.raised, self.lock   # shared with the original
        return c

    def fault(self, method):
        return method == self.method and self.count >= self.trigger

    def boom(self):
        e = Boom(f"{self.method} failed on purpose")
        with self.lock:
            self.raised.append(e)
        raise e

    def generate(self):
        moves = super().generate()
        if self.fault("generate"):
            if self.kind == "raise":
                self.boom()
            return {"not a list": 1} if self.kind == "notlist" else \
                [1.5] if self.kind == "float" else \
                ["3"] if self.kind == "str" else \
                [-1] if self.kind == "negative" else \
                [2 ** 64] if self.kind == "huge" else \
                list(range(10)) if self.kind == "toomany" else \
                (m for m in moves) if self.kind == "generator" else \
                None
        return moves

    def apply(self, move):
        if self.fault("apply"):
            self.boom()
        super().apply(move)

    def undo(self, move):
        super().undo(move)

    def evaluate(self):
        if self.fault("evaluate"):
            if self.kind == "raise":
                self.boom()
            return {"str": "0", "float": 0.5, "none": None, "huge": 40000,
                    "low": -40000}[self.kind]
        return super().evaluate()

    def hash(self):
        if self.fault("hash"):
            if self.kind == "raise":
                self.boom()
            return "key"
        return super().hash()

    def move_score(self, move):
        if self.fault("move_score"):
            if self.kind == "raise":
                self.boom()
            return 2 ** 40
        return super().move_score(move)


class FaultyClone(PyTicTacToeFull):
    def __init__(self, kind):
        super().__init__("")
        self.kind = kind

    def clone(self):
        if self.kind == "raise":
            raise Boom("clone failed")
        if self.kind == "self":
            return self
        return object()


class TestRaising(unittest.TestCase):
    def check(self, method, algs, threads=1, kind="raise"):
        for alg in algs:
            with self.subTest(alg=alg, method=method):
                g = Faulty("5", method=method, kind=kind)
                before = g.snapshot()
                try:
                    gts.search(g, alg, depth=depth_for(alg), threads=threads)
                except Boom as e:
                    caught = e
                else:
                    if method in OPTIONAL and not g.raised:
                        continue  # this algorithm does not use the optional method
                    if alg == "bstar" and method == "evaluate" and not g.raised:
                        continue  # B* can settle every node from bounds() alone
                    self.fail("Boom not raised")
                self.assertEqual(g.snapshot(), before, "state restored")
                self.assertTrue(g.raised)
                self.assertIs(caught, g.raised[0], "the original exception")
                # the traceback reaches from the search call into the failing method
                frames = [f.name for f in traceback.extract_tb(caught.__traceback__)]
                self.assertIn("search", frames)
                self.assertIn(method, frames)
                self.assertEqual(frames[-1], "boom")
                if hasattr(caught, "add_note"):
                    self.assertIn(alg, "".join(caught.__notes__))

    def test_generate_raises(self):
        self.check("generate", SERIAL)

    def test_apply_raises(self):
        self.check("apply", SERIAL)

    def test_evaluate_raises(self):
        self.check("evaluate", SERIAL)

    def test_hash_raises(self):
        # hash() has no error channel in C: the binding stops the search.
        self.check("hash", SERIAL)

    def test_move_score_raises(self):
        self.check("move_score", SERIAL)

    def test_raises_in_worker_threads(self):
        self.check("generate", PARALLEL, threads=2)
        self.check("apply", PARALLEL, threads=2)
        self.check("evaluate", PARALLEL, threads=2)

    def test_engine_usable_after_error(self):
        with gts.Engine() as e:
            with self.assertRaises(Boom):
                e.search(Faulty("5", method="apply"), "pvs", depth=9)
            e.clear()
            self.assertEqual(e.search(PyTicTacToeFull("5"), "pvs", depth=9).score, 0)

    def test_on_iteration_raises(self):
        g = PyTicTacToeFull("5")
        before = g.snapshot()

        def cb(r):
            if r.depth == 2:
                raise Boom("progress")

        with self.assertRaises(Boom) as cm:
            gts.pvs(g, depth=9, on_iteration=cb)
        self.assertEqual(str(cm.exception), "progress")
        self.assertEqual(g.snapshot(), before)
        with gts.games.TicTacToe("5") as c:
            with self.assertRaises(Boom):
                gts.pvs(c, depth=9, on_iteration=cb)
            self.assertEqual(c.moves(), [0, 1, 2, 3, 5, 6, 7, 8])

    def test_keyboard_interrupt_propagates(self):
        g = Faulty("5", method="apply")
        g.boom = lambda: (_ for _ in ()).throw(KeyboardInterrupt())
        with self.assertRaises(KeyboardInterrupt):
            gts.pvs(g, depth=9)
        self.assertEqual(g.snapshot(), PyTicTacToe("5").snapshot())


class TestGarbage(unittest.TestCase):
    def garbage(self, method, kind, exc, *words, algs=("alphabeta", "pvs", "minimax")):
        for alg in algs:
            with self.subTest(alg=alg, method=method, kind=kind):
                g = Faulty("5", method=method, kind=kind)
                before = g.snapshot()
                try:
                    gts.search(g, alg, depth=depth_for(alg), threads=2 if alg in PARALLEL else 1)
                except exc as e:
                    msg = str(e)
                else:
                    if method in OPTIONAL:
                        continue  # this algorithm does not use the optional method
                    self.fail(f"{exc.__name__} not raised")
                self.assertIn(f"Faulty.{method}()", msg)
                for w in words:
                    self.assertIn(w, msg)
                self.assertEqual(g.snapshot(), before, "state restored")

    def test_generate_not_a_list(self):
        self.garbage("generate", "notlist", TypeError, "list", "dict")
        self.garbage("generate", "none", TypeError, "NoneType")
        self.garbage("generate", "generator", TypeError, "generator")

    def test_generate_non_int_moves(self):
        self.garbage("generate", "float", TypeError, "float")
        self.garbage("generate", "str", TypeError, "str")

    def test_generate_out_of_range_moves(self):
        self.garbage("generate", "negative", ValueError, "-1")
        self.garbage("generate", "huge", ValueError, str(2 ** 64))

    def test_generate_too_many_moves(self):
        self.garbage("generate", "toomany", ValueError, "10 moves", "max_moves=9")

    def test_evaluate_garbage(self):
        self.garbage("evaluate", "str", TypeError, "str")
        self.garbage("evaluate", "float", TypeError, "float")
        self.garbage("evaluate", "none", TypeError, "NoneType")
        self.garbage("evaluate", "huge", ValueError, "40000", "SCORE_WIN")
        self.garbage("evaluate", "low", ValueError, "-40000")

    def test_hash_garbage(self):
        self.garbage("hash", "str", TypeError, "str", algs=SERIAL)

    def test_move_score_garbage(self):
        self.garbage("move_score", "huge", ValueError, "int32", algs=SERIAL)

    def test_garbage_in_worker_threads(self):
        self.garbage("generate", "toomany", ValueError, "max_moves", algs=PARALLEL)
        self.garbage("evaluate", "str", TypeError, algs=PARALLEL)


class Index:
    """An int-like object (like numpy integers): accepted through __index__."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


class IndexMoves(PyTicTacToeFull):
    def generate(self):
        return [Index(m) for m in super().generate()]

    def evaluate(self):
        return Index(super().evaluate())


class TestAccepted(unittest.TestCase):
    def test_int_like_moves_and_scores(self):
        r = gts.pvs(IndexMoves("5"), depth=9)
        self.assertEqual(r.score, 0)
        self.assertIsInstance(r.best_move, int)

    def test_tuple_of_moves(self):
        class TupleMoves(PyTicTacToeFull):
            def generate(self):
                return tuple(super().generate())

        self.assertEqual(gts.pvs(TupleMoves("5"), depth=9).score, 0)

    def test_status_in_note(self):
        # An out-of-range score reaches the library, which reports ESCORE.
        g = Faulty("5", method="evaluate", kind="huge")
        try:
            gts.pvs(g, depth=9)
        except ValueError as e:
            if hasattr(e, "add_note"):
                self.assertIn("ESCORE", "".join(e.__notes__))
        else:
            self.fail("ValueError not raised")


class TestMissing(unittest.TestCase):
    def test_no_generate(self):
        class NoGenerate(gts.Game):
            max_moves = 2

            def apply(self, move):
                pass

            def undo(self, move):
                pass

            def evaluate(self):
                return 0

        with self.assertRaises(TypeError) as cm:
            NoGenerate()
        self.assertIn("generate", str(cm.exception))

    def test_no_max_moves(self):
        class NoMax(PyTicTacToe):
            max_moves = 0

        g = NoMax("5")
        with self.assertRaises(ValueError) as cm:
            gts.pvs(g, depth=3)
        self.assertIn("max_moves", str(cm.exception))
        NoMax.max_moves = "9"
        with self.assertRaises(TypeError) as cm:
            gts.pvs(g, depth=3)
        self.assertIn("max_moves", str(cm.exception))
        self.assertEqual(g.snapshot(), PyTicTacToe("5").snapshot())

    def test_parallel_without_clone_is_not_supported(self):
        for alg in PARALLEL:
            with self.subTest(alg=alg):
                g = PyTicTacToe("5")
                with self.assertRaises(gts.NotSupported) as cm:
                    gts.search(g, alg, depth=5, threads=2)
                self.assertIsInstance(cm.exception, gts.GtsError)
                self.assertEqual(cm.exception.name, "ENOTSUP")
                self.assertIn("clone", str(cm.exception))
                self.assertEqual(g.snapshot(), PyTicTacToe("5").snapshot())
                # one thread needs no clone
                self.assertEqual(gts.search(g, alg, depth=9, threads=1).score, 0)

    def test_bad_clone(self):
        for kind, exc, word in (("raise", Boom, "clone failed"),
                                ("object", TypeError, "gts.Game"),
                                ("self", ValueError, "same object")):
            for alg in PARALLEL:
                with self.subTest(alg=alg, kind=kind):
                    g = FaultyClone(kind)
                    with self.assertRaises(exc) as cm:
                        gts.search(g, alg, depth=5, threads=2)
                    self.assertIn(word, str(cm.exception))
                    self.assertEqual(g.snapshot(), PyTicTacToe().snapshot())


if __name__ == "__main__":
    unittest.main()
