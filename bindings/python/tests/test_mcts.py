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

    def test_keyword_sugar_maps_to_the_options(self):
        g = gts.games.Connect4("44")
        a = gts.mcts(g, playouts=800, seed=5, threads=1)
        b = gts.mcts(g, mcts_playouts=800, mcts_seed=5, threads=1)
        self.assertEqual((a.best_move, a.score, a.nodes), (b.best_move, b.score, b.nodes))
        with gts.Engine(mcts_playouts=800, mcts_seed=5) as e:
            c = e.search(g, "mcts")
        self.assertEqual((a.best_move, a.score, a.nodes), (c.best_move, c.score, c.nodes))
        r = gts.search(g, "mcts", playouts=100, seed=1, parallel="root", threads=2, rave=50)
        self.assertIn(r.best_move, g.moves())
        self.assertEqual(r.stats["threads"], 2)

    def test_bad_keywords(self):
        g = gts.games.TicTacToe("")
        for bad in (0, -1, 1.5, True, "10"):
            with self.subTest(playouts=bad), self.assertRaises(ValueError):
                gts.mcts(g, playouts=bad)
        with self.assertRaises(ValueError):
            gts.mcts(g, playouts=10, parallel="leaf")
        with self.assertRaises(TypeError):
            gts.mcts(g, playouts=10, mcts_playouts=10)
        with self.assertRaises(gts.OutOfRange):
            gts.mcts(g, playouts=10, rave=-1)
        with self.assertRaises(gts.OutOfRange):
            gts.mcts(g, playouts=10, reuse=2)

    def test_rave_statistics(self):
        g = gts.games.TicTacToe("")
        with gts.Engine(mcts_playouts=3000, mcts_seed=2, mcts_rave=500) as e:
            e.search(g, "mcts")
            stats = e.mcts_root_stats()
            playouts = sum(s.visits for s in stats)
            for s in stats:
                self.assertGreaterEqual(s.amaf_visits, s.visits)
                self.assertLessEqual(s.amaf_visits, playouts)
                self.assertTrue(0.0 <= s.amaf_mean <= 1.0)
            self.assertGreater(sum(s.amaf_visits for s in stats), playouts)
        with gts.Engine(mcts_playouts=300) as e:
            e.search(g, "mcts")
            self.assertEqual({s.amaf_visits for s in e.mcts_root_stats()}, {0}, "RAVE off")

    def test_tree_reuse(self):
        g = gts.games.Connect4("44")
        with gts.Engine(mcts_playouts=1000, mcts_seed=4) as e:
            self.assertFalse(e.mcts_advance([3]), "no tree yet")
            r = e.search(g, "mcts")
            self.assertNotIn("tree_reused", r.flags)
            before = {s.move: s.visits for s in e.mcts_root_stats()}
            self.assertTrue(e.mcts_advance())
            r = e.search(g, "mcts")
            self.assertIn("tree_reused", r.flags)  # since 0.3
            after = e.mcts_root_stats()
            self.assertEqual(sum(s.visits for s in after), sum(before.values()) + 1000)
            r = e.search(g, "mcts")
            self.assertTrue(e.mcts_advance([r.best_move]))
            g.play(r.best_move)
            e.search(g, "mcts")
            self.assertGreater(sum(s.visits for s in e.mcts_root_stats()), 1000, "carried over")
            self.assertFalse(e.mcts_advance([99]), "a move the tree does not hold")
            with self.assertRaises(TypeError):
                e.mcts_advance(["x"])
            # issue 31: ctypes reduced these to move 3 and 2**64-1
            for bad in (2**64 + 3, -1, 2**64):
                with self.assertRaises(gts.InvalidArgument) as cm:
                    e.mcts_advance([bad])
                self.assertIn(str(bad), str(cm.exception))
                self.assertIsInstance(cm.exception, ValueError)
            with self.assertRaises(gts.InvalidArgument):
                e.mcts_advance([0] * (gts.MAX_DEPTH + 1))

    def test_memory_limit_flag(self):
        g = gts.games.Connect4("")
        r = gts.mcts(g, playouts=20000, tree_mb=1, seed=1)
        self.assertIn("memory_limit", r.flags)
        self.assertIn(r.best_move, g.moves())


if __name__ == "__main__":
    unittest.main()
