"""The built-in C games (gts.games): construction, perft, moves, text,
clone/close, and searches with every algorithm at C speed."""
import gc
import unittest

import gts
import gts.game as gts_game
from gts import games
from pygames import PyTicTacToe
from fixture import ALGORITHMS, every_algorithm, run


def py_perft(game, depth):
    if depth == 0:
        return 1
    moves = game.generate()
    if not moves:
        return 1
    n = 0
    for m in moves:
        game.apply(m)
        n += py_perft(game, depth - 1)
        game.undo(m)
    return n


class TestConstruction(unittest.TestCase):
    def test_names(self):
        self.assertEqual(games.names(), ["tictactoe", "connect4", "othello", "chess", "go",
                                          "randtree"])
        for name in games.names():
            with games.new(name) as g:
                self.assertEqual(g.name, name)
                self.assertGreater(len(g.moves()), 0)
        with self.assertRaises(gts.InvalidArgument):
            games.new("checkers")

    def test_bad_positions(self):
        for cls, pos in ((games.Connect4, "8"), (games.Connect4, "1111111"),
                         (games.TicTacToe, "55"), (games.TicTacToe, "x"),
                         (games.Othello, "a1")):
            with self.subTest(cls=cls.__name__, pos=pos):
                with self.assertRaises(gts.ParseError):
                    cls(pos)
        with self.assertRaises(gts.InvalidArgument):
            games.RandomTree(branching=0)
        with self.assertRaises(gts.InvalidArgument):
            games.RandomTree(min_value=5, max_value=1)
        with self.assertRaises(gts.ParseError):
            games.RandomTree.from_text("seed=1,colour=2")

    def test_position_new(self):
        """games.position_new: libgts-games reads the text and gives its reason."""
        with games.position_new("connect4", "4453") as g, games.Connect4("4453") as ref:
            self.assertEqual(g.hash(), ref.hash())
            self.assertEqual(g.position, "4453")
        with games.position_new("go", "5 moves=C3") as g:
            self.assertEqual((g.size, g.to_move), (5, games.Go.WHITE))
        with games.position_new("randtree", "1,1", {"branching": 2, "depth": 4}) as g:
            self.assertEqual(g.params["branching"], 2)
        with self.assertRaises(gts.ParseError) as cm:
            games.position_new("go", "3 moves=B1,pass,A2,A1")
        self.assertEqual(cm.exception.why, "move 4: A1 is not legal here: suicide (the "
                                           "stone's string would have no liberty)")
        with self.assertRaises(gts.ParseError) as cm:
            games.position_new("randtree", b"0,9")
        self.assertEqual(cm.exception.why, "move 2: child 9 does not exist: the node has 8 "
                                           "children (0..7)")
        with self.assertRaises(gts.InvalidArgument):
            games.position_new("checkers", "")
        with self.assertRaises(gts.InvalidArgument):
            games.position_new("randtree", "", {"branching": 0})

    def test_position_turn(self):
        """games.position_turn: the side to move and the plies a text played."""
        self.assertEqual(games.position_turn("connect4", "4453"), (0, 4))
        self.assertEqual(games.position_turn("chess", "startpos moves e2e4"), (1, 1))
        self.assertEqual(games.position_turn("go", "5 moves=C3,pass"), (0, 2))
        # an Othello pass left implied still counts
        self.assertEqual(games.position_turn("othello", "d3c3b3b2f5a3a1c1e3"), (0, 10))
        self.assertEqual(games.position_turn("randtree", "1,1", {"branching": 2, "depth": 4}),
                         (0, 2))
        with self.assertRaises(gts.ParseError):
            games.position_turn("connect4", "1111111")
        with self.assertRaises(gts.InvalidArgument):
            games.position_turn("checkers", "")

    def test_close_and_context_manager(self):
        g = games.Connect4("44")
        self.assertFalse(g.closed)
        g.close()
        self.assertTrue(g.closed)
        g.close()
        with self.assertRaises(ValueError):
            g.moves()
        with self.assertRaises(ValueError):
            gts.pvs(g, depth=2)
        self.assertEqual(gts_game._contexts, {}, "no search context left behind")
        with games.TicTacToe() as t:
            pass
        self.assertTrue(t.closed)
        # __del__ frees: many states made and dropped
        for _ in range(2000):
            games.Othello("f5")
        gc.collect()


class TestPerft(unittest.TestCase):
    def test_known_counts(self):
        with games.Connect4() as g:
            self.assertEqual([g.perft(d) for d in range(1, 8)],
                             [7, 49, 343, 2401, 16807, 117649, 823536])
        with games.Othello() as g:
            self.assertEqual([g.perft(d) for d in range(1, 7)], [4, 12, 56, 244, 1396, 8200])
        with games.TicTacToe() as g:
            # a finished game counts as one leaf: 255168 games in all
            self.assertEqual([g.perft(d) for d in range(1, 10)],
                             [9, 72, 504, 3024, 15120, 56160, 154944, 255168, 255168])
            self.assertEqual(g.perft(5), py_perft(PyTicTacToe(), 5))
        with games.RandomTree(branching=3, depth=4) as g:
            self.assertEqual(g.perft(4), 81)
            self.assertEqual(g.perft(10), 81)
        with self.assertRaises(gts.InvalidArgument):
            games.TicTacToe().perft(-1)


class TestPlaying(unittest.TestCase):
    def test_moves_play_undo_text(self):
        with games.Connect4("4453") as g:
            self.assertEqual(sorted(g.moves()), list(range(7)))
            self.assertEqual(g.max_moves, 7)
            self.assertEqual(g.format_move(3), "4")
            self.assertEqual(g.parse_move("4"), 3)
            h = g.hash()
            g.play("4")
            g.play(0)
            self.assertEqual(g.position, "445341")
            self.assertEqual(g.history, [3, 0])
            self.assertNotEqual(g.hash(), h)
            self.assertEqual(g.undo(), 0)
            g.undo(3)
            self.assertEqual(g.hash(), h)
            self.assertEqual(g.position, "4453")
            with self.assertRaises(IndexError):
                g.undo()
            with self.assertRaises(gts.ParseError):
                g.parse_move("9")
            grid = g.grid()
            self.assertEqual(grid[-1], [".", ".", "O", "X", "X", ".", "."])
            self.assertIn("1 2 3 4 5 6 7", str(g))

    def test_clone_is_independent(self):
        with games.TicTacToe("5") as g:
            c = g.clone()
            c.play(0)
            self.assertEqual(len(c.moves()), 7)
            self.assertEqual(len(g.moves()), 8)
            self.assertEqual(c.position, "51")
            self.assertEqual(g.position, "5")
            c.close()
            self.assertEqual(str(g).split(), [".", ".", ".", ".", "X", ".", ".", ".", "."])

    def test_othello_text(self):
        with games.Othello() as g:
            self.assertEqual(sorted(g.format_move(m) for m in g.moves()),
                             ["c4", "d3", "e6", "f5"])
            g.play("f5")
            self.assertEqual(g.position, "f5")
            self.assertEqual(len(g.moves()), 3)

    def test_finished_tictactoe(self):
        with games.TicTacToe("14253") as g:
            self.assertTrue(g.is_over())
            self.assertEqual(g.evaluate(), gts.SCORE_LOSS)


class TestGo(unittest.TestCase):
    def test_start_and_text(self):
        with games.Go() as g:
            self.assertEqual((g.size, g.to_move, g.area()), (9, games.Go.BLACK, -7.5))
            self.assertEqual(g.board(), ".........\n" * 9)
            self.assertEqual(len(g.moves()), 82, "81 points and pass")
            self.assertEqual(g.moves()[-1], games.Go.PASS)
            self.assertEqual(g.format_move(games.Go.PASS), "pass")
            self.assertEqual(g.format_move(8 * 9 + 8), "J9", "no column I")
            self.assertEqual(g.parse_move("j9"), 80)
            self.assertEqual(g.position, "")
        with games.Go("5 komi=0.5 moves=C3,pass") as g:
            self.assertEqual((g.size, g.to_move), (5, games.Go.BLACK))
            self.assertEqual(g.area(), 24.5, "Black's stone owns the empty board, less komi")
            self.assertEqual(str(g), ".....\n.....\n..X..\n.....\n.....")
            g.play("B2")
            self.assertEqual(g.position, "5 komi=0.5 moves=C3,pass,B2")
            with games.Go(g.position) as again:
                self.assertEqual(again.board(), g.board())
            c = g.clone()
            self.assertEqual((c.size, c.position), (5, g.position))
            g.undo()
            self.assertEqual(g.position, "5 komi=0.5 moves=C3,pass")
            c.close()

    def test_keywords(self):
        with games.Go(size=5, komi=-0.5, maxmoves=10, moves=["C3", "pass", 13]) as g:
            self.assertEqual(g.position, "5 komi=-0.5 maxmoves=10 moves=C3,pass,D3")
            self.assertEqual(g.to_move, games.Go.WHITE)
        with games.Go(size=19) as g:
            self.assertEqual((g.size, len(g.moves())), (19, 362))
        with games.new("go", "7 komi=0") as g:
            self.assertEqual((g.size, g.area()), (7, 0.0))
        with games.Go(komi=150) as g:
            self.assertEqual(g.area(), -150.0)
        for kw, exc in ((dict(size=1), gts.InvalidArgument), (dict(size=20), gts.InvalidArgument),
                        (dict(size=True), TypeError), (dict(size="9"), TypeError),
                        (dict(komi=7.3), gts.InvalidArgument),
                        (dict(komi=150.5), gts.InvalidArgument),
                        (dict(komi=float("nan")), gts.InvalidArgument),
                        (dict(komi="7"), TypeError), (dict(maxmoves=0), gts.InvalidArgument),
                        (dict(moves="C3"), TypeError), (dict(moves=["C3,D4"]), gts.ParseError),
                        (dict(moves=[81]), gts.InvalidArgument),
                        (dict(moves=["C3", "C3"]), gts.ParseError)):
            with self.subTest(kw=kw):
                with self.assertRaises(exc):
                    games.Go(**kw)
        with self.assertRaises(gts.InvalidArgument):
            games.Go("5", komi=0.5)

    def test_komi(self):
        with games.Go() as g:
            self.assertEqual(g.komi, 7.5, "the adapter's default")
            self.assertIsInstance(g.komi, float)
            with self.assertRaises(AttributeError):
                g.komi = 6.5
            self.assertEqual(g.komi, 7.5)
        for pos, komi in (("5 komi=0.5 moves=C3,pass", 0.5), ("komi=-3", -3.0),
                          ("komi=0", 0.0), ("19 komi=150", 150.0), ("komi=-150", -150.0)):
            with self.subTest(pos=pos):
                with games.Go(pos) as g:
                    self.assertEqual(g.komi, komi)
                    c = g.clone()
                    self.assertEqual(c.komi, komi, "a clone keeps the komi")
                    c.close()
        with games.Go(size=5, komi=-0.5) as g:
            self.assertEqual(g.komi, -0.5)
            g.play("C3")
            self.assertEqual(g.komi, -0.5, "moves do not change it")
        with games.new("go", "7 komi=6") as g:
            self.assertEqual(g.komi, 6.0)

    def test_bad_positions(self):
        for pos in ("25", "1", "9 9", "komi=7.3", "maxmoves=0", "foo", "moves=Z9",
                    "moves=C3,", "moves=C3,,D4", "moves=C3,C3", "moves=pass,pass,C3",
                    "maxmoves=1 moves=C3,D4", "3 moves=B1,pass,A2,A1",
                    "4 moves=B3,C3,A2,B2,B1,D2,pass,C1,C2,B2"):
            with self.subTest(pos=pos):
                with self.assertRaises(gts.ParseError):
                    games.Go(pos)
        with self.assertRaises(TypeError):
            games.Go(9)

    def test_captures_and_area(self):
        # White's A1 stone is captured by B1 and A2: the board keeps Black's.
        with games.Go("3 komi=0 moves=B1,A1,A2") as g:
            self.assertEqual(g.board(), "...\nX..\n.X.\n")
            self.assertEqual(g.area(), 9.0, "Black's stones reach every empty point")
            with self.assertRaises(gts.ParseError):
                g.parse_move("B1")            # occupied
            self.assertNotIn(1, g.moves())

    def test_perft(self):
        with games.Go() as g:
            # two passes end the game: one leaf among the 82 * 81 two-ply paths
            self.assertEqual([g.perft(d) for d in range(1, 4)], [82, 6643, 531523])
        with games.Go("2") as g:
            self.assertEqual(g.perft(6), py_perft(games.Go("2"), 6))
        with games.Go("3 moves=pass,pass") as g:
            self.assertEqual((g.moves(), g.perft(3)), ([], 1))

    def test_every_algorithm(self):
        with games.Go("4 komi=0.5 moves=B2,C3") as g:
            ref = gts.minimax(g, depth=3).score
            every_algorithm(self, g, 3, ref, check=lambda r: self.assertIn(r.best_move, g.moves()))
            self.assertEqual(g.position, "4 komi=0.5 moves=B2,C3", "searches leave the state")


class TestSearch(unittest.TestCase):
    def test_tictactoe_every_algorithm(self):
        for alg in ALGORITHMS:
            with self.subTest(alg=alg.name):
                with games.TicTacToe() as g:
                    r = run(g, alg, depth=9)
                    if alg.exact:
                        self.assertEqual(r.score, 0)
                    self.assertIn(r.best_move, g.moves())

    def test_python_and_c_tictactoe_agree(self):
        with games.TicTacToe() as c:
            rc = gts.pvs(c, depth=9)
        rp = gts.pvs(PyTicTacToe(), depth=9)
        self.assertEqual(rc.score, 0)
        self.assertEqual(rp.score, 0)
        # same game, same algorithm; the C version orders moves better
        # (hash + move_score): it may not search more nodes than 4x Python's
        self.assertLess(rc.nodes, 4 * rp.nodes)
        self.assertGreater(rp.nodes, 9)

    def test_connect4_every_algorithm(self):
        with games.Connect4("4453") as g:
            ref = gts.alphabeta(g, depth=7, tt_mb=0).score
            for alg in ALGORITHMS:
                with self.subTest(alg=alg.name):
                    if alg.name == "minimax":
                        continue
                    r = run(g, alg, depth=7)
                    if alg.exact:
                        self.assertEqual(r.score, ref)
                    self.assertEqual(r.depth, 7)

    def test_connect4_solver_vtable(self):
        pos = "2252576253462244111563365343671351441"
        with games.Connect4(pos) as plain, games.Connect4(pos, solver=True) as solver:
            a = gts.pvs(plain)
            b = gts.pvs(solver)
        self.assertEqual(a.score, b.score)

    def test_othello_every_algorithm(self):
        with games.Othello("f5d6") as g:
            every_algorithm(self, g, 4, gts.minimax(g, depth=4).score)

    def test_randtree_every_algorithm(self):
        for p in (dict(seed=1, branching=4, depth=6),
                  dict(seed=2, branching=5, depth=5, transpositions=True),
                  dict(seed=3, branching=3, depth=7, terminal_percent=20, ordered_percent=90)):
            with games.RandomTree(**p) as g:
                every_algorithm(self, g, p["depth"], gts.minimax(g, depth=p["depth"]).score, **p)

    def test_named_shortcuts_with_engine_options(self):
        with games.Connect4("4453") as g:
            for alg in ALGORITHMS:
                with self.subTest(alg=alg.name):
                    fn = getattr(gts, alg.name)
                    kw = dict(threads=2) if alg.parallel else {}
                    r = fn(g, depth=5, tt_mb=1, **kw)
                    self.assertEqual(r.algorithm, alg.name)
                    self.assertEqual(r.stats["threads"], 2 if alg.parallel else 1)
            with gts.Engine(threads=2) as e:
                r = gts.dts(g, depth=5, engine=e) if hasattr(gts, "dts") else gts.pvs(g, depth=5,
                                                                                      engine=e)
                self.assertEqual(r.depth, 5)


if __name__ == "__main__":
    unittest.main()
