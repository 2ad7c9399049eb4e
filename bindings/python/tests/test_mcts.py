"""MCTS from Python: the generic shortcut, the engine options and the
per-root-move statistics (gts_mcts_root_stats)."""
import unittest

import gts


class TestMcts(unittest.TestCase):
    def test_root_statistics(self):
        with gts.Engine(mcts_playouts=2000, mcts_seed=1) as e:
            g = gts.games.TicTacToe("5")
            r = e.search(g, "mcts")
            self.assertIn(r.best_move, g.moves())
            stats = e.mcts_root_stats()
            self.assertEqual([s.move for s in stats], g.moves(), "generate() order")
            total = sum(s.visits for s in stats)
            self.assertGreater(total, 0)
            self.assertLessEqual(total, 2000)
            for s in stats:
                self.assertTrue(0.0 <= s.mean <= 1.0)
                self.assertLessEqual(s.lower, s.upper)
            e.search(g, "pvs", depth=3)
            self.assertEqual(e.mcts_root_stats(), [], "only the last search's")

    def test_same_seed_same_statistics(self):
        g = gts.games.Connect4("4453")
        runs = []
        for _ in range(2):
            with gts.Engine(mcts_playouts=500, mcts_seed=9) as e:
                e.search(g, "mcts")
                runs.append(e.mcts_root_stats())
        self.assertEqual(runs[0], runs[1])

    def test_takes_an_immediate_win(self):
        # Connect-4: three stones in column 1 for the side to move.
        g = gts.games.Connect4("121212")
        r = gts.mcts(g, mcts_playouts=3000, mcts_seed=3)
        self.assertEqual(r.best_move, 0, "column 1 wins at once")


if __name__ == "__main__":
    unittest.main()
