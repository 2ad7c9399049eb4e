"""Game.bounds() from Python: a sound range changes no exact score (and is
really called), a wrong return type or range raises TypeError/ValueError
from the search with the state restored, and the root_driver option finds
the same values."""
import unittest

import gts
from pygames import PyRandomTree, PyTicTacToe, PyTicTacToeFull, mix, negamax

ALGORITHMS = gts.algorithms()
EXACT = [a for a in ALGORITHMS if a.exact and a.name != "minimax"]
# Algorithms the root drivers wrap: the exact ones that take a window (not
# the MT family, which drives its own windows, nor Stockman's SSS*, which
# has none).
WINDOWED = [a for a in EXACT
            if a.name not in ("mtdf", "negacstar", "sssstar", "dualstar", "sssstar_stockman")]
DRIVERS = (gts.ROOT_WINDOW, gts.ROOT_BISECT, gts.ROOT_MTDF)


def run(game, alg, **kw):
    if alg.parallel:
        kw.setdefault("threads", 2)
    return gts.search(game, alg.name, **kw)


class BoundedTree(PyRandomTree):
    """PyRandomTree with a sound bounds(): at one node in three the exact
    hull of its values at every depth to the end (computed by negamax and
    remembered per node), elsewhere the whole decided range. Counts calls
    and remembers whether the root was asked."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.shared = {"calls": 0, "root_asked": False, "hull": {}}

    def clone(self):
        c = super().clone()
        c.__class__ = BoundedTree
        return c

    def hull(self):
        node = (self.level(), self.keys[-1])
        h = self.shared["hull"].get(node)
        if h is None:
            remaining = max(1, self.depth - self.level())
            values = [negamax(self, d) for d in range(1, remaining + 1)]
            h = self.shared["hull"][node] = (min(values), max(values))
        return h

    def bounds(self):
        self.shared["calls"] += 1
        if self.level() == 0:
            self.shared["root_asked"] = True
        if mix(self.keys[-1], 77) % 3 == 0:
            return self.hull()
        return (gts.SCORE_LOSS, gts.SCORE_WIN)


TREES = [
    dict(seed=11, branching=3, depth=5),
    dict(seed=12, branching=4, depth=4, lo=-5, hi=5),
    dict(seed=13, branching=3, depth=5, transpositions=True),
    dict(seed=14, branching=2, depth=7, terminal_percent=15, decided_percent=50),
    dict(seed=15, branching=4, depth=4, lo=0, hi=5000, decided_percent=50, terminal_percent=15),
]


class TestSoundBounds(unittest.TestCase):
    def test_same_scores_as_without(self):
        for params in TREES:
            depth = params["depth"]
            ref = negamax(PyRandomTree(**params), depth)
            for alg in EXACT:
                with self.subTest(tree=params["seed"], alg=alg.name):
                    g = BoundedTree(**params)
                    before = g.snapshot()
                    with_b = run(g, alg, depth=depth)
                    without = run(PyRandomTree(**params), alg, depth=depth)
                    self.assertEqual(with_b.score, ref)
                    self.assertEqual(without.score, ref)
                    self.assertEqual(g.snapshot(), before, "state restored")
                    if depth >= 2:
                        self.assertGreater(g.shared["calls"], 0, "bounds() was called")

    def test_tictactoe_with_and_without_bounds(self):
        for pos in ("", "5", "15", "1425", "12345"):
            depth = 9 - len(pos)
            ref = gts.alphabeta(PyTicTacToe(pos), depth=depth, tt_mb=0).score
            for alg in EXACT:
                with self.subTest(position=pos, alg=alg.name):
                    self.assertEqual(run(PyTicTacToeFull(pos), alg, depth=depth).score, ref)

    def test_bounds_save_nodes(self):
        # The same game with and without the range: fewer nodes with it.
        class NoBounds(PyTicTacToeFull):
            bounds = gts.Game.bounds

        for pos in ("", "5", "15"):
            with self.subTest(position=pos):
                with_b = gts.pvs(PyTicTacToeFull(pos), depth=9)
                without = gts.pvs(NoBounds(pos), depth=9)
                self.assertEqual(with_b.score, without.score)
                self.assertLess(with_b.nodes, without.nodes)


class Wrong(PyTicTacToeFull):
    """Tic-tac-toe whose bounds() returns ``value`` once ``trigger`` stones
    are on the board (inside the tree, or at the root with trigger 0)."""

    def __init__(self, position, value, trigger=3):
        super().__init__(position)
        self.value, self.trigger = value, trigger

    def clone(self):
        c = super().clone()
        c.__class__ = Wrong
        c.value, c.trigger = self.value, self.trigger
        return c

    def bounds(self):
        if self.count >= self.trigger:
            if isinstance(self.value, BaseException):
                raise self.value
            return self.value
        return super().bounds()


class TestWrongBounds(unittest.TestCase):
    ALGS = ("alphabeta", "pvs", "mtdf", "er", "ybwc", "jamboree")

    def check(self, value, exc, trigger=3, driver=gts.ROOT_WINDOW):
        for alg in self.ALGS:
            with self.subTest(alg=alg, value=value, trigger=trigger, driver=driver):
                g = Wrong("5", value, trigger)
                before = g.snapshot()
                threads = 2 if alg in ("ybwc", "jamboree") else 1
                with self.assertRaises(exc) as cm:
                    gts.search(g, alg, depth=8, threads=threads, root_driver=driver)
                self.assertEqual(g.snapshot(), before, "state restored")
                self.assertIn("bounds", str(cm.exception))

    def test_not_a_tuple(self):
        self.check([0, 1], TypeError)
        self.check(None, TypeError)
        self.check(5, TypeError)

    def test_wrong_length(self):
        self.check((0,), TypeError)
        self.check((0, 1, 2), TypeError)

    def test_not_ints(self):
        self.check((0.5, 1), TypeError)
        self.check((0, "1"), TypeError)
        self.check((None, 1), TypeError)

    def test_lo_above_hi(self):
        self.check((5, 3), ValueError)

    def test_outside_the_score_range(self):
        self.check((gts.SCORE_LOSS - 1, 0), ValueError)
        self.check((0, gts.SCORE_WIN + 1), ValueError)

    def test_at_the_root_with_a_root_driver(self):
        # The root drivers ask for the root's range first.
        self.check((5, 3), ValueError, trigger=1, driver=gts.ROOT_BISECT)
        self.check([0, 1], TypeError, trigger=1, driver=gts.ROOT_MTDF)

    def test_raising_is_reraised(self):
        class Boom(Exception):
            pass

        g = Wrong("5", Boom("bounds failed on purpose"))
        before = g.snapshot()
        with self.assertRaises(Boom):
            gts.pvs(g, depth=8)
        self.assertEqual(g.snapshot(), before)

    def test_engine_usable_after(self):
        with gts.Engine() as e:
            with self.assertRaises(ValueError):
                e.search(Wrong("5", (5, 3)), "pvs", depth=8)
            self.assertEqual(e.search(PyTicTacToeFull("5"), "pvs", depth=8).score, 0)


class TestRootDriver(unittest.TestCase):
    def test_option(self):
        with gts.Engine(root_driver=gts.ROOT_BISECT) as e:
            self.assertEqual(e.get("root_driver"), gts.ROOT_BISECT)
            e.set("root_driver", gts.ROOT_MTDF)
            self.assertEqual(e.get("root_driver"), gts.ROOT_MTDF)
            e.set("root_driver", gts.ROOT_WINDOW)
            self.assertEqual(e.get("root_driver"), gts.ROOT_WINDOW)
        self.assertEqual(gts.option_bounds("root_driver"), (gts.ROOT_WINDOW, gts.ROOT_MTDF,
                                                            gts.ROOT_WINDOW))
        with self.assertRaises(gts.GtsError):
            gts.Engine(root_driver=gts.ROOT_MTDF + 1)

    def test_python_game_every_driver(self):
        for params in TREES[:3]:
            depth = params["depth"]
            ref = negamax(PyRandomTree(**params), depth)
            for driver in DRIVERS:
                for alg in WINDOWED:
                    with self.subTest(tree=params["seed"], driver=driver, alg=alg.name):
                        g = BoundedTree(**params)
                        r = run(g, alg, depth=depth, root_driver=driver)
                        self.assertEqual(r.score, ref)
                        self.assertIn(r.best_move, PyRandomTree(**params).generate())
                        if driver != gts.ROOT_WINDOW:
                            self.assertTrue(g.shared["root_asked"], "the root's range was used")

    def test_builtin_games_every_driver(self):
        cases = [(lambda: gts.games.TicTacToe("5"), 8),
                 (lambda: gts.games.Connect4("4453"), 6),
                 (lambda: gts.games.RandomTree(seed=5, branching=4, depth=6), 6)]
        for make, depth in cases:
            with make() as g:
                ref = gts.minimax(g, depth=depth, iterative=0).score
                for driver in DRIVERS:
                    for name in ("alphabeta", "pvs", "ybwc"):
                        with self.subTest(game=type(g).__name__, driver=driver, alg=name):
                            r = gts.search(g, name, depth=depth, root_driver=driver,
                                           threads=2 if name == "ybwc" else 1)
                            self.assertEqual(r.score, ref)
                            self.assertIn(r.best_move, g.moves())


class TestNearPart(unittest.TestCase):
    """The table's near part (tt_near_depth, tt_near_kb) never changes an
    exact score: a tiny one (16 buckets) under every exact algorithm."""

    def test_option(self):
        self.assertEqual(gts.option_bounds("tt_near_depth")[2], 0)
        self.assertEqual(gts.option_bounds("tt_near_kb")[2], 1024)
        with gts.Engine(tt_near_depth=10) as e:
            self.assertEqual(e.get("tt_near_depth"), 10)
        with self.assertRaises(gts.GtsError):
            gts.Engine(tt_near_kb=0)

    def test_same_scores(self):
        for params in TREES[:2]:
            depth = params["depth"]
            ref = negamax(PyRandomTree(**params), depth)
            for alg in EXACT:
                with self.subTest(tree=params["seed"], alg=alg.name):
                    r = run(PyRandomTree(**params), alg, depth=depth, tt_near_depth=2,
                            tt_near_kb=1)
                    self.assertEqual(r.score, ref)
        with gts.games.Connect4("4453") as g:
            ref = gts.minimax(g, depth=6, iterative=0).score
            for alg in EXACT:
                with self.subTest(game="connect4", alg=alg.name):
                    r = run(g, alg, depth=6, tt_near_depth=3, tt_near_kb=1)
                    self.assertEqual(r.score, ref)


if __name__ == "__main__":
    unittest.main()


class DistanceTicTacToe(PyTicTacToe):
    """Tic-tac-toe scored by distance with ordinary values: a loss after n
    stones is worth n - 10 (sooner: lower), everything else 0."""

    distance_scores = True

    def evaluate(self):
        if self.count > 0 and self.has_line(self.last()):
            return self.count - 10
        return 0


class NoDistanceTicTacToe(DistanceTicTacToe):
    distance_scores = False


class TestDistanceScores(unittest.TestCase):
    """Game.distance_scores (GTS_TRAIT_DISTANCE_SCORES): iterative
    deepening stops at the first depth whose exact value is not 0."""

    POSITIONS = ["51", "53", "159", "1529", "12", "5137", "19", "123456"]

    def test_same_values_as_negamax(self):
        for pos in self.POSITIONS:
            game = DistanceTicTacToe(pos)
            want = negamax(game, 9)
            for alg in EXACT:
                r = run(game, alg, depth=9, threads=1)  # no clone()
                self.assertEqual(r.score, want, f"{pos} {alg.name}")
                if r.depth < 9:
                    self.assertNotEqual(r.score, 0, f"{pos} {alg.name}")
            r = gts.search(game, "pvs", depth=9, iterative=0, deepen_nodes=50)
            self.assertEqual(r.score, want, f"{pos} deepen_nodes")

    def test_stops_early_only_with_the_flag(self):
        # X (to move) completes 1-2-3 at once: a win found at depth 1.
        game = DistanceTicTacToe("1425")
        r = gts.search(game, "pvs", depth=9)
        self.assertEqual((r.score, r.depth), (10 - 5, 1))
        r = gts.search(NoDistanceTicTacToe("1425"), "pvs", depth=9)
        self.assertEqual((r.score, r.depth), (10 - 5, 9))
