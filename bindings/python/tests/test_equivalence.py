"""Python games give the library's answers, for every algorithm the library
reports (gts.algorithms()): exact algorithms return the reference value (a
plain negamax written here, or the C version of the same game) and a best
move of that value; selective ones just run."""
import random
import unittest

import gts
from pygames import PyRandomTree, PyRandomTreeNoHash, PyTicTacToe, PyTicTacToeFull, negamax
from sweep import sweep_count
from fixture import ALGORITHMS, every_algorithm, run

THREADS = 2


def random_trees(count, seed):
    """Parameters of varied random trees, the same on every run (the first
    count / GTS_TEST_DIVISOR of them with that variable set)."""
    rng = random.Random(seed)
    out = []
    for i in range(sweep_count(count)):
        depth = rng.randint(2, 6)
        out.append(dict(seed=rng.getrandbits(32), branching=rng.randint(1, 5), depth=depth,
                        lo=rng.choice([-100, -5000, 0]), hi=rng.choice([100, 5000]),
                        transpositions=rng.random() < 0.4,
                        terminal_percent=rng.choice([0, 0, 15]),
                        decided_percent=rng.choice([0, 50])))
    return out


class TestTicTacToe(unittest.TestCase):
    """PyTicTacToeFull mirrors the C game: same scores, and for the serial
    algorithms the very same tree (same node counts)."""

    POSITIONS = ["", "5", "15", "519", "1593", "12", "1235"]

    def test_every_algorithm_matches_c(self):
        for alg in ALGORITHMS:
            for pos in self.POSITIONS:
                if alg.name == "minimax" and len(pos) < 2:
                    continue  # a full minimax through Python callbacks is slow
                with self.subTest(alg=alg.name, position=pos):
                    py = PyTicTacToeFull(pos)
                    before = py.snapshot()
                    rp = run(py, alg, depth=9)
                    with gts.games.TicTacToe(pos) as c:
                        rc = run(c, alg, depth=9)
                    self.assertEqual(py.snapshot(), before, "state restored")
                    if not alg.exact:
                        continue
                    self.assertEqual(rp.score, rc.score)
                    self.assertEqual(rp.depth, rc.depth)
                    self.assertIsNotNone(rp.best_move)
                    self.assertIn(rp.best_move, py.generate())
                    if not alg.parallel:
                        self.assertEqual(rp.nodes, rc.nodes, "same tree searched")
                        self.assertEqual(rp.best_move, rc.best_move)
                        self.assertEqual(rp.pv, rc.pv)
                    else:
                        self.assertGreater(rp.nodes, 1)

    def test_value_is_draw(self):
        for alg in ALGORITHMS:
            if not alg.exact or alg.name == "minimax":
                continue
            with self.subTest(alg=alg.name):
                # PyTicTacToe has no clone(): parallel algorithms with one thread
                self.assertEqual(run(PyTicTacToe(), alg, depth=9, threads=1).score, 0)
                self.assertEqual(run(gts.games.TicTacToe(), alg, depth=9).score, 0)

    def test_minimax_full_tree_counts(self):
        # Without iterative deepening minimax visits the whole game tree
        # (549946 nodes from the empty board, the root included).
        py = PyTicTacToe("5")
        r = gts.minimax(py, depth=9, iterative=0)
        with gts.games.TicTacToe("5") as c:
            rc = gts.minimax(c, depth=9, iterative=0)
        self.assertEqual(r.score, rc.score)
        self.assertEqual(r.nodes, rc.nodes)
        with gts.games.TicTacToe() as c:
            self.assertEqual(gts.minimax(c, depth=9, iterative=0).nodes, 549946)
        # alpha-beta with ordering and a table is far smaller
        ab = gts.alphabeta(PyTicTacToeFull("5"), depth=9)
        self.assertLess(ab.nodes, r.nodes)

    def test_wins_are_preferred_fast(self):
        # X to move can win at once (cells 1,2 taken by X; 4,5 by O).
        py = PyTicTacToeFull("1425")
        for alg in ALGORITHMS:
            if not alg.exact:
                continue
            with self.subTest(alg=alg.name):
                r = run(py, alg, depth=9)
                self.assertEqual(r.score, gts.score_win_in(1))
                self.assertEqual(r.best_move, 2)  # cell "3"


class TestRandomTrees(unittest.TestCase):
    """A Python random tree against a plain negamax over the same tree."""

    def check_tree(self, cls, params, quiescence=False, threads=THREADS, count_only=False):
        ref_game = cls(**params)
        depth = params["depth"]
        d = max(1, depth - (params["seed"] % 2))  # full depth or a horizon one above
        ref = negamax(ref_game, d, quiescence=quiescence)
        for alg in ALGORITHMS:
            with self.subTest(alg=alg.name, **params, search_depth=d):
                game = cls(**params)
                before = game.snapshot()
                kw = {"depth": d}
                if alg.parallel:
                    kw["threads"] = threads
                r = gts.search(game, alg.name, **kw)
                self.assertEqual(game.snapshot(), before, "state restored")
                if not alg.exact:
                    continue
                self.assertEqual(r.score, ref)
                if r.best_move is None:
                    self.assertEqual(game.generate(), [])
                    continue
                # a best move of that score
                game.apply(r.best_move)
                child = -negamax(game, r.depth - 1, ply=1, quiescence=quiescence)
                game.undo(r.best_move)
                self.assertEqual(child, r.score, "best move has the root value")

    def test_trees_with_table(self):
        for params in random_trees(25, seed=1):
            self.check_tree(PyRandomTree, params)

    def test_trees_without_optional_methods(self):
        # No hash (no TT), no clone: parallel algorithms with one thread.
        for params in random_trees(10, seed=2):
            self.check_tree(PyRandomTreeNoHash, params, threads=1)

    def test_trees_with_quiescence(self):
        for params in random_trees(10, seed=3):
            params["noisy_percent"] = 40
            self.check_tree(PyRandomTree, params, quiescence=True)

    def test_python_tree_against_c_minimax_engine(self):
        # The library's own minimax over the Python tree agrees with negamax.
        for params in random_trees(10, seed=4):
            with self.subTest(**params):
                g = PyRandomTree(**params)
                self.assertEqual(gts.minimax(g, depth=params["depth"]).score,
                                 negamax(PyRandomTree(**params), params["depth"]))

    def test_selective_options_run(self):
        params = dict(seed=9, branching=4, depth=5)
        for alg in ALGORITHMS:
            with self.subTest(alg=alg.name):
                kw = {"threads": THREADS} if alg.parallel else {}
                r = gts.search(PyRandomTree(**params), alg.name, depth=5, nbest=2,
                               nbest_depth=2, aspiration=10, **kw)
                self.assertIsNotNone(r.best_move)
                self.assertGreaterEqual(r.depth, 1)


class TestBuiltinTrees(unittest.TestCase):
    """The C random tree: every exact algorithm agrees with minimax."""

    def test_randtree(self):
        rng = random.Random(5)
        for _ in range(sweep_count(12)):
            p = dict(seed=rng.getrandbits(48), branching=rng.randint(2, 5),
                     depth=rng.randint(3, 6), transpositions=rng.random() < 0.5,
                     terminal_percent=rng.choice([0, 10]), ordered_percent=rng.choice([0, 80]))
            with gts.games.RandomTree(**p) as g:
                every_algorithm(self, g, p["depth"], gts.minimax(g, depth=p["depth"]).score, **p)


if __name__ == "__main__":
    unittest.main()
