"""gts_mcts_inject from Python (Engine.mcts_inject): another engine's root
statistics added to the kept tree; below the root (Engine.mcts_node_stats,
Engine.mcts_inject_at, since 0.3)."""
import unittest

import gts


class TestMctsInject(unittest.TestCase):
    def test_sums_are_both_searches(self):
        g = gts.games.Connect4("44")
        with gts.Engine(mcts_playouts=400, mcts_seed=1) as a, \
                gts.Engine(mcts_playouts=300, mcts_seed=2) as b:
            self.assertFalse(b.mcts_inject([]), "no tree yet")
            a.search(g, "mcts")
            b.search(g, "mcts")
            sa, sb = a.mcts_root_stats(), b.mcts_root_stats()
            self.assertTrue(b.mcts_inject(sa))
            merged = b.mcts_root_stats()
            self.assertEqual([s.visits for s in merged],
                             [x.visits + y.visits for x, y in zip(sa, sb)])
            self.assertTrue(b.mcts_advance())
            b.search(g, "mcts")
            self.assertEqual(sum(s.visits for s in b.mcts_root_stats()), 1000)
            with self.assertRaises(gts.InvalidArgument):
                b.mcts_inject(sa[:-1])

    def test_below_the_root_the_children_sum(self):
        g = gts.games.Connect4("44")
        with gts.Engine(mcts_playouts=2000, mcts_seed=1) as a, \
                gts.Engine(mcts_playouts=1500, mcts_seed=2) as b:
            self.assertEqual(b.mcts_node_stats([3]), [], "no tree yet")
            a.search(g, "mcts")
            b.search(g, "mcts")
            root = b.mcts_root_stats()
            self.assertEqual([s.visits for s in b.mcts_node_stats()],
                             [s.visits for s in root])
            m = max(a.mcts_root_stats(), key=lambda s: s.visits).move
            sa, sb = a.mcts_node_stats([m]), b.mcts_node_stats([m])
            self.assertTrue(sa and len(sa) == len(sb))
            self.assertTrue(b.mcts_inject_at([m], sa))
            self.assertEqual([s.visits for s in b.mcts_node_stats([m])],
                             [x.visits + y.visits for x, y in zip(sa, sb)])
            self.assertEqual([s.visits for s in b.mcts_root_stats()],
                             [s.visits for s in root], "the root is unchanged")
            self.assertFalse(b.mcts_inject_at([m, 99], sa), "a node not held")
            with self.assertRaises(gts.InvalidArgument):
                b.mcts_inject_at([m], sa[:-1])
            with self.assertRaises(gts.InvalidArgument):
                b.mcts_node_stats([-1])


if __name__ == "__main__":
    unittest.main()
