"""MCTS with a batch evaluator written in Python (Engine.set_evaluator,
gts_engine_set_evaluator): one call per batch, exact-value leaves give
minimax-best moves, priors steer the visits, failures re-raise with the
state restored. Standard library only (NumPy maps the same arrays with
numpy.ctypeslib.as_array)."""
import importlib.util
import os
import unittest

import gts

from pygames import PyRandomTree


def negamax(g):
    """Plain negamax of a PyRandomTree to its end (the reference)."""
    moves = g.generate()
    if not moves:
        return g.evaluate()
    best = None
    for m in moves:
        g.apply(m)
        v = -negamax(g)
        g.undo(m)
        best = v if best is None or v > best else best
    return best


class Counting:
    """An evaluator: values from @value(state), counts calls and positions."""

    def __init__(self, value=lambda s: 0.0, favour=None):
        self.value, self.favour = value, favour
        self.calls = self.positions = self.largest = 0

    def __call__(self, batch):
        self.calls += 1
        self.positions += batch.n
        self.largest = max(self.largest, batch.n)
        for i, s in enumerate(batch.states):
            batch.values[i] = self.value(s)
            lo, hi = batch.offsets[i], batch.offsets[i + 1]
            assert hi > lo and batch.moves_of(i) == list(range(hi - lo))
            assert abs(sum(batch.priors[lo:hi]) - 1.0) < 1e-5, "prefilled uniform"
            if self.favour is not None:
                batch.priors[lo + self.favour % (hi - lo)] = 50.0


class TestEvaluator(unittest.TestCase):
    def test_one_call_per_batch_and_visits_sum(self):
        for batch in (1, 8, 32):
            with self.subTest(batch=batch), gts.Engine(mcts_playouts=600, mcts_batch=batch,
                                                        tt_mb=0) as e:
                ev = Counting()
                e.set_evaluator(ev)
                g = PyRandomTree(5, branching=6, depth=12)
                before = g.snapshot()
                e.search(g, "mcts")
                self.assertEqual(g.snapshot(), before, "state restored")
                stats = e.mcts_root_stats()
                self.assertEqual(sum(s.visits for s in stats), 600)
                self.assertLessEqual(ev.largest, batch)
                if batch > 1:
                    self.assertGreater(ev.largest, 1)
                    # one crossing per batch, not per leaf
                    self.assertLess(ev.calls * 2, ev.positions)

    def test_exact_values_give_minimax_moves(self):
        for seed in range(1, 13):
            with self.subTest(seed=seed):
                g = PyRandomTree(seed, branching=3, depth=4)
                want = negamax(g)
                with gts.Engine(mcts_playouts=400, mcts_batch=4, tt_mb=0) as e:
                    e.set_evaluator(Counting(lambda s: negamax(s) / 100.0))
                    r = e.search(g, "mcts")
                g.apply(r.best_move)
                self.assertEqual(-negamax(g), want, "a minimax-best move")
                g.undo(r.best_move)
                with gts.Engine(tt_mb=0, mcts_batch=4) as e:  # no budget: proven
                    e.set_evaluator(Counting(lambda s: negamax(s) / 100.0))
                    self.assertEqual(e.search(g, "mcts").score, want)

    def test_priors_steer_the_visits(self):
        g = PyRandomTree(4, branching=8, depth=12)
        with gts.Engine(mcts_playouts=300, tt_mb=0, mcts_batch=16, mcts_seed=2) as e:
            e.set_evaluator(Counting(favour=0))
            e.search(g, "mcts")
            stats = e.mcts_root_stats()
        first = stats[0]
        self.assertGreater(first.prior, 0.9)
        for s in stats[1:]:
            self.assertLess(s.visits * 3, first.visits)

    def test_failure_reraises_with_the_state_restored(self):
        class Boom(Exception):
            pass

        calls = []

        def bad(batch):
            calls.append(batch.n)
            if len(calls) == 3:
                raise Boom("third batch")

        for threads in (1, 2):
            calls.clear()
            g = PyRandomTree(7, branching=3, depth=8)
            before = g.snapshot()
            with gts.Engine(mcts_playouts=1000, mcts_batch=4, threads=threads, tt_mb=0) as e:
                e.set_evaluator(bad)
                with self.assertRaises(Boom):
                    e.search(g, "mcts")
                self.assertEqual(g.snapshot(), before)
                e.set_evaluator(lambda b: None)
                e.search(g, "mcts")  # usable again

    def test_out_of_range_value_is_a_callback_error(self):
        def bad(batch):
            batch.values[0] = 3.0

        with gts.Engine(mcts_playouts=10, tt_mb=0) as e:
            e.set_evaluator(bad)
            with self.assertRaises(gts.CallbackError):
                e.search(PyRandomTree(1), "mcts")

    def test_builtin_game_states_are_addresses_and_removal(self):
        g = gts.games.Connect4("44")
        seen = []

        def ev(batch):
            seen.extend(batch.states)

        with gts.Engine(mcts_playouts=50, mcts_batch=8) as e:
            e.set_evaluator(ev)
            e.search(g, "mcts")
            self.assertTrue(seen and all(isinstance(a, int) and a for a in seen))
            n = len(seen)
            e.set_evaluator(None)
            e.search(g, "mcts")
            self.assertEqual(len(seen), n, "removed: playouts again")
        with self.assertRaises(TypeError):
            gts.Engine().set_evaluator(42)

    # Skipped without NumPy, except in the python-evaluator-numpy test
    # (GTS_REQUIRE_NUMPY), which must run it.
    @unittest.skipUnless(importlib.util.find_spec("numpy") or os.environ.get("GTS_REQUIRE_NUMPY"),
                         "NumPy (python3-numpy) is not installed")
    def test_numpy_views_of_the_batch(self):
        import numpy as np

        def ev(batch):
            values = np.ctypeslib.as_array(batch.values)
            priors = np.ctypeslib.as_array(batch.priors)
            offsets = np.ctypeslib.as_array(batch.offsets)
            values[:] = 0.25
            priors[:] = 0.0
            priors[offsets[:-1]] = 1.0  # every position's first move

        with gts.Engine(mcts_playouts=200, mcts_batch=8, tt_mb=0) as e:
            e.set_evaluator(ev)
            e.search(PyRandomTree(4, branching=8, depth=12), "mcts")
            stats = e.mcts_root_stats()
        self.assertAlmostEqual(stats[0].prior, 1.0, places=6)
        self.assertGreater(stats[0].visits, 150)

    def test_keywords(self):
        r = gts.mcts(gts.games.TicTacToe(""), playouts=200, batch=4, cpuct=200, fpu=10,
                     noise_fraction=25, noise_alpha=300, temperature=100, seed=1)
        self.assertIn(r.best_move, range(9))


if __name__ == "__main__":
    unittest.main()
