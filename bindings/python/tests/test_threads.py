"""Threads: engine.stop() from another Python thread, parallel algorithms
calling Python callbacks from worker threads, engines in parallel threads,
and one engine used from two threads at once."""
import threading
import time
import unittest

import gts
from pygames import PyRandomTree, PyTicTacToeFull, negamax

PARALLEL = [a.name for a in gts.algorithms() if a.parallel]
STOP_AFTER = 0.3   # seconds
# No upper bound on the time a stop takes: a test must not depend on the
# machine's speed. A stop that is not honoured never ends these deep
# searches, and the test runner's timeout reports that. HANG_GUARD only
# turns a deadlock into a failure; it is not a speed expectation.
HANG_GUARD = 300.0


class CountingTree(PyRandomTree):
    """PyRandomTree that counts clones and the threads its callbacks run on."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.shared = {"clones": 0, "threads": set(), "lock": threading.Lock()}

    def clone(self):
        c = super().clone()
        c.__class__ = CountingTree
        with self.shared["lock"]:
            self.shared["clones"] += 1
        return c

    def generate(self):
        with self.shared["lock"]:
            self.shared["threads"].add(threading.get_ident())
        return super().generate()


class TestStop(unittest.TestCase):
    """A threading.Timer calls engine.stop() while the search runs. The timer
    starts at the first completed iteration, so the stop cannot arrive
    before the search (a stop while no search runs is ignored)."""

    def stop_later(self, engine):
        timers = []

        def on_iteration(r):
            if not timers:
                t = threading.Timer(STOP_AFTER, engine.stop)
                t.start()
                timers.append(t)

        class Handle:
            def join(self):
                for t in timers:
                    t.join()

        self._on_iteration = on_iteration
        return Handle()

    def test_stop_python_game(self):
        g = PyRandomTree(seed=7, branching=6, depth=60)
        before = g.snapshot()
        with gts.Engine() as e:
            t = self.stop_later(e)
            start = time.monotonic()
            r = e.search(g, "pvs", depth=60, on_iteration=self._on_iteration)
            elapsed = time.monotonic() - start
            t.join()
        self.assertIn("stopped", r.flags)
        self.assertGreaterEqual(elapsed, STOP_AFTER * 0.9)
        self.assertLess(r.depth, 60)
        self.assertIsNotNone(r.best_move)
        self.assertEqual(g.snapshot(), before)

    def test_stop_builtin_game(self):
        with gts.games.Connect4() as g, gts.Engine() as e:
            t = self.stop_later(e)
            r = e.search(g, "pvs", depth=42, on_iteration=self._on_iteration)
            t.join()
            with gts.games.Connect4() as fresh:
                self.assertEqual(g.moves(), fresh.moves())
                self.assertEqual(g.hash(), fresh.hash())
        self.assertIn("stopped", r.flags)
        self.assertIsNotNone(r.best_move)

    def test_stop_parallel(self):
        for alg in PARALLEL:
            with self.subTest(alg=alg):
                with gts.games.Connect4() as g, gts.Engine(threads=2) as e:
                    t = self.stop_later(e)
                    r = e.search(g, alg, depth=42, on_iteration=self._on_iteration)
                    t.join()
                self.assertIn("stopped", r.flags)

    def test_stop_parallel_python_game(self):
        for alg in PARALLEL:
            with self.subTest(alg=alg):
                g = PyRandomTree(seed=8, branching=6, depth=60)
                with gts.Engine(threads=2) as e:
                    t = self.stop_later(e)
                    r = e.search(g, alg, depth=60, on_iteration=self._on_iteration)
                    t.join()
                self.assertIn("stopped", r.flags)
                self.assertEqual(g.snapshot(), PyRandomTree(seed=8, branching=6,
                                                            depth=60).snapshot())

    def test_other_threads_run_during_search(self):
        # The GIL is released while C searches a built-in game.
        ticks = []
        done = threading.Event()

        def ticker():
            while not done.is_set():
                ticks.append(1)
                time.sleep(0.01)

        th = threading.Thread(target=ticker)
        th.start()
        try:
            with gts.games.Connect4() as g:
                gts.pvs(g, depth=42, time_ms=300)
        finally:
            done.set()
            th.join()
        self.assertGreater(len(ticks), 2)

    def test_stop_before_search_is_ignored(self):
        with gts.Engine() as e:
            e.stop()
            r = e.search(PyTicTacToeFull("5"), "pvs", depth=9)
        self.assertNotIn("stopped", r.flags)
        self.assertEqual(r.depth, 9)


class TestParallelPythonGames(unittest.TestCase):
    def test_parallel_algorithms_with_python_game(self):
        params = dict(seed=11, branching=4, depth=6, transpositions=True)
        ref = negamax(PyRandomTree(**params), 6)
        for alg in PARALLEL:
            with self.subTest(alg=alg):
                g = CountingTree(**params)
                before = g.snapshot()
                r = gts.search(g, alg, depth=6, threads=2)
                self.assertEqual(r.score, ref)
                self.assertEqual(r.stats["threads"], 2)
                self.assertEqual(len(r.stats["thread_nodes"]), 2)
                self.assertGreaterEqual(g.shared["clones"], 1, "worker states are clones")
                self.assertEqual(g.snapshot(), before)

    def test_tictactoe_parallel(self):
        for alg in PARALLEL:
            with self.subTest(alg=alg):
                for threads in (2, 3):
                    r = gts.search(PyTicTacToeFull(), alg, depth=9, threads=threads)
                    self.assertEqual(r.score, 0)

    def test_clones_are_released(self):
        import gts.game as gg
        for alg in PARALLEL:
            gts.search(PyTicTacToeFull("5"), alg, depth=9, threads=2)
        self.assertEqual(gg._contexts, {}, "no search context left behind")


class TestConcurrentEngines(unittest.TestCase):
    def test_engines_in_threads(self):
        params = [dict(seed=s, branching=3, depth=6, transpositions=bool(s % 2))
                  for s in range(6)]
        refs = [negamax(PyRandomTree(**p), 6) for p in params]
        results = [None] * len(params)
        errors = []

        def work(i):
            try:
                with gts.Engine(tt_mb=1) as e:
                    for alg in ("alphabeta", "pvs", "mtdf"):
                        r = e.search(PyRandomTree(**params[i]), alg, depth=6)
                        if r.score != refs[i]:
                            errors.append((i, alg, r.score, refs[i]))
                    with gts.games.TicTacToe() as g:
                        results[i] = e.search(g, "pvs", depth=9).score
            except BaseException as ex:  # noqa: BLE001
                errors.append(ex)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(len(params))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        self.assertEqual(results, [0] * len(params))

    def test_one_engine_two_threads_is_busy(self):
        with gts.games.Connect4() as g1, gts.games.Connect4() as g2, gts.Engine() as e:
            box = {}
            started = threading.Event()

            def long_search():
                box["r"] = e.search(g1, "pvs", depth=42, on_iteration=lambda r: started.set())

            t = threading.Thread(target=long_search)
            t.start()
            self.assertTrue(started.wait(HANG_GUARD))
            with self.assertRaises(gts.Busy):
                e.search(g2, "pvs", depth=5)
            with self.assertRaises(gts.Busy):
                e.close()
            with self.assertRaises(gts.Busy):
                e.set("tt_mb", 1)
            e.stop()
            t.join(HANG_GUARD)
            self.assertFalse(t.is_alive())
            self.assertIn("stopped", box["r"].flags)


if __name__ == "__main__":
    unittest.main()
