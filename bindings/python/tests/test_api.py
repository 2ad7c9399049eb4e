"""The binding itself: library loading, mirrored structs, algorithms,
status exceptions, engine options and results."""
import ctypes
import os
import re
import subprocess
import sys
import unittest

import gts
from gts import _lib

PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(gts.__file__)))


class TestLibrary(unittest.TestCase):
    def test_version(self):
        self.assertEqual(gts.LIBRARY_VERSION[0], _lib.ABI_MAJOR)
        self.assertRegex(gts.library_version(), r"^\d+\.\d+\.\d+")
        self.assertEqual("%d.%d.%d" % gts.LIBRARY_VERSION, gts.library_version())

    def test_constants_match_header(self):
        self.assertEqual(gts.SCORE_WIN, 31000)
        self.assertEqual(gts.SCORE_LOSS, -31000)
        self.assertEqual(gts.SCORE_INF, 32000)
        self.assertEqual(gts.MAX_PLY, 128)
        self.assertEqual(gts.SCORE_DECIDED, gts.SCORE_WIN - 2 * gts.MAX_PLY)

    def test_struct_sizes_are_accepted(self):
        # The library accepts every struct_size from the 0.1 layouts up, so
        # the import compares each mirror with gts_struct_size(); here the
        # same comparison, then searches through the mirrors.
        for ident, cls in _lib.STRUCT_MIRRORS:
            self.assertEqual(_lib.lib.gts_struct_size(ident), ctypes.sizeof(cls), cls.__name__)
        for game in (gts.games.TicTacToe("5"), PyGame()):
            r = gts.alphabeta(game, depth=3)
            self.assertEqual(r.depth, 3)
            self.assertIsNotNone(r.best_move)
        # x86-64/aarch64 (LP64) layouts as gcc computes them for these headers.
        if ctypes.sizeof(ctypes.c_void_p) == 8 and gts.LIBRARY_VERSION[:2] == (0, 1):
            self.assertEqual(ctypes.sizeof(_lib.GameStruct), 160)
            self.assertEqual(ctypes.sizeof(_lib.LimitsStruct), 64)
            self.assertEqual(ctypes.sizeof(_lib.ResultStruct), 1152)
            self.assertEqual(_lib.ResultStruct.pv.offset, 32)
            self.assertEqual(_lib.ResultStruct.thread_nodes.offset, 1136)
            self.assertEqual(ctypes.sizeof(_lib.RandTreeParamsStruct), 48)

    def test_wrong_struct_size_is_estruct(self):
        # The check the mirror relies on: a bad size is refused, not misread.
        eng = ctypes.c_void_p()
        self.assertEqual(_lib.lib.gts_engine_new(ctypes.byref(eng)), 0)
        try:
            with gts.games.TicTacToe() as g:
                vt, st = g._gts_vtable_and_state()
                res = _lib.new_struct(_lib.ResultStruct)
                res.struct_size -= 8
                rc = _lib.lib.gts_search(eng, gts.algorithm_id("pvs"), vt, st, None,
                                         ctypes.byref(res))
                self.assertEqual(rc, gts.StructSizeError.status)
                # Limits from newer headers with a field this library does
                # not know (a nonzero byte past its struct).
                class Newer(ctypes.Structure):
                    _fields_ = [("lim", _lib.LimitsStruct), ("tail", ctypes.c_uint8 * 8)]
                newer = Newer()
                newer.lim.struct_size = ctypes.sizeof(Newer)
                newer.tail[7] = 1
                res.struct_size = ctypes.sizeof(_lib.ResultStruct)
                rc = _lib.lib.gts_search(eng, gts.algorithm_id("pvs"), vt, st,
                                         ctypes.byref(newer.lim), ctypes.byref(res))
                self.assertEqual(rc, gts.StructSizeError.status)
                newer.tail[7] = 0  # an all-zero unknown tail is accepted
                rc = _lib.lib.gts_search(eng, gts.algorithm_id("pvs"), vt, st,
                                         ctypes.byref(newer.lim), ctypes.byref(res))
                self.assertEqual(rc, 0)
        finally:
            _lib.lib.gts_engine_free(eng)

    def test_missing_library_message(self):
        env = dict(os.environ, GTS_LIBRARY="/nonexistent/libgts.so", PYTHONPATH=PKG_DIR)
        p = subprocess.run([sys.executable, "-c", "import gts"], env=env,
                           capture_output=True, text=True, timeout=60)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("ImportError", p.stderr)
        self.assertIn("GTS_LIBRARY", p.stderr)

    def _package_copy(self, tmp):
        """A copy of the gts package outside the source tree (no checkout
        fallback), and an environment that points nowhere."""
        import shutil
        pkg = os.path.join(tmp, "site", "gts")
        shutil.copytree(os.path.dirname(os.path.abspath(gts.__file__)), pkg,
                        ignore=shutil.ignore_patterns("__pycache__", "_installed.py"))
        env = dict(os.environ, PYTHONPATH=os.path.dirname(pkg))
        for var in ("GTS_LIBRARY", "GTS_GAMES_LIBRARY", "LD_LIBRARY_PATH"):
            env.pop(var, None)
        return pkg, env

    def test_not_found_message_names_every_way(self):
        # Issue 31: "libgts not found" after an install; the message must say
        # every way to point the package at a library.
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            pkg, env = self._package_copy(tmp)
            p = subprocess.run([sys.executable, "-c", "import gts; print(gts.LIBRARY_PATH)"],
                               env=env, cwd=tmp, capture_output=True, text=True, timeout=60)
        if p.returncode == 0:
            self.skipTest("a libgts is installed where the loader finds it: " + p.stdout)
        self.assertIn("libgts not found", p.stderr)
        for way in ("GTS_LIBRARY=", "meson install", "pkg-config --variable=pythondir gts",
                    "LD_LIBRARY_PATH", "ldconfig", "PYTHONPATH=bindings/python",
                    "_installed.py"):
            self.assertIn(way, p.stderr)

    def test_installed_module_locates_the_libraries(self):
        # What `meson install` writes (bindings/_installed.py.in): the
        # library directory relative to the package, found with no
        # environment variable, wherever the tree is moved.
        import tempfile
        games = _lib.GAMES_LIB_PATH or _lib.games_lib() and _lib.GAMES_LIB_PATH
        with tempfile.TemporaryDirectory() as tmp:
            pkg, env = self._package_copy(tmp)
            libdir = os.path.join(tmp, "lib", "x86_64")
            os.makedirs(libdir)
            os.symlink(os.path.realpath(_lib.LIB_PATH), os.path.join(libdir, "libgts.so.0"))
            os.symlink(os.path.realpath(games), os.path.join(libdir, "libgts-games.so.0"))
            with open(os.path.join(pkg, "_installed.py"), "w") as f:
                f.write('LIBDIR = "../../lib/x86_64"\nLIBGTS = "libgts.so.0"\n'
                        'LIBGTS_GAMES = "libgts-games.so.0"\n')
            p = subprocess.run(
                [sys.executable, "-c",
                 "import gts; from gts import _lib; "
                 "print(gts.alphabeta(gts.games.TicTacToe(), depth=9).score); "
                 "print(gts.LIBRARY_PATH); print(_lib.GAMES_LIB_PATH)"],
                env=env, cwd=tmp, capture_output=True, text=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            score, core, games_path = p.stdout.split()
            self.assertEqual(score, "0")
            self.assertEqual(core, os.path.join(libdir, "libgts.so.0"))
            self.assertEqual(games_path, os.path.join(libdir, "libgts-games.so.0"))

    def test_package_version_is_the_library_version(self):
        # Issue 31: the package said 0.1.0 while the library had 0.2's API.
        self.assertEqual(gts.__version__, gts.library_version())
        self.assertGreaterEqual(_lib.ABI_MIN_MINOR, 2)

    def test_not_libgts(self):
        import ctypes.util
        libm = ctypes.util.find_library("m")
        if not libm or not os.path.isabs(libm):
            libm = "/lib/x86_64-linux-gnu/libm.so.6"
        if not os.path.exists(libm):
            self.skipTest("no libm path")
        env = dict(os.environ, GTS_LIBRARY=libm, PYTHONPATH=PKG_DIR)
        p = subprocess.run([sys.executable, "-c", "import gts"], env=env,
                           capture_output=True, text=True, timeout=60)
        self.assertIn("is not libgts", p.stderr)

    def test_sanitized_builds_are_skipped(self):
        import tempfile
        # A runtime this process has not loaded (under scripts/sanitize the
        # ASan runtime is preloaded, so pretend to need TSan's then).
        with open("/proc/self/maps", "rb") as m:
            name = "tsan" if b"libasan.so" in m.read() else "asan"
        with tempfile.NamedTemporaryFile(suffix=".so") as f:
            f.write(b"\x7fELF...lib" + name.encode() + b".so.8...")
            f.flush()
            self.assertEqual(_lib._sanitizer(f.name), name)
        self.assertIsNone(_lib._sanitizer(_lib.LIB_PATH))

    def test_games_library_found_next_to_libgts(self):
        # The done-means check: only GTS_LIBRARY is set.
        env = dict(os.environ, PYTHONPATH=PKG_DIR)
        env.pop("GTS_GAMES_LIBRARY", None)
        env["GTS_LIBRARY"] = _lib.LIB_PATH
        p = subprocess.run(
            [sys.executable, "-c",
             "import gts; print(gts.alphabeta(gts.games.TicTacToe(), depth=9).score)"],
            env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), "0")


class PyGame(gts.Game):
    """Three moves, then a leaf worth the move sum."""

    max_moves = 3

    def __init__(self):
        self.path = []

    def generate(self):
        return [] if len(self.path) >= 4 else [0, 1, 2]

    def apply(self, move):
        self.path.append(move)

    def undo(self, move):
        self.path.pop()

    def evaluate(self):
        return sum(self.path) * (1 if len(self.path) % 2 == 0 else -1)


class TestAlgorithms(unittest.TestCase):
    def test_list_comes_from_library(self):
        algs = gts.algorithms()
        n = _lib.lib.gts_algorithm_list(None, 0)
        self.assertEqual(len(algs), n)
        names = [a.name for a in algs]
        for required in ("minimax", "alphabeta", "pvs"):
            self.assertIn(required, names)
        for a in algs:
            name, exact, parallel = a
            self.assertIsInstance(exact, bool)
            self.assertIsInstance(parallel, bool)
            self.assertTrue(callable(getattr(gts, name)), name)
            self.assertIn(name, gts.__all__)
            self.assertEqual(getattr(gts, name).__name__, name)
            self.assertIn(f"gts_{name}", getattr(gts, name).__doc__)

    def test_algorithm_id(self):
        self.assertEqual(gts.algorithm_id("pvs"), gts.algorithm_id("gts_pvs"))
        self.assertEqual(gts.algorithm_id(gts.algorithm_id("minimax")), 1)
        with self.assertRaises(gts.UnknownAlgorithm) as cm:
            gts.algorithm_id("nosuch")
        self.assertIn("nosuch", str(cm.exception))
        self.assertIsInstance(cm.exception, ValueError)
        with self.assertRaises(gts.UnknownAlgorithm):
            gts.algorithm_id(999)
        with self.assertRaises(gts.UnknownAlgorithm):
            gts.search(PyGame(), "nosuch", depth=2)


class TestErrors(unittest.TestCase):
    def test_generated_from_library(self):
        self.assertEqual(gts.STATUS_NAMES[-1], "EINVAL")
        for code, cname in gts.STATUS_NAMES.items():
            cls = gts.errors.error_class(code)
            self.assertTrue(issubclass(cls, gts.GtsError))
            self.assertEqual(cls.status, code)
            self.assertEqual(cls.name, cname)
            self.assertIs(getattr(gts, cls.__name__), cls)
            e = cls("x")
            self.assertIn(cname, str(e))
        names = {gts.errors.error_class(c).__name__ for c in gts.STATUS_NAMES}
        for expected in ("InvalidArgument", "OutOfMemory", "CallbackError", "NotSupported",
                         "Busy", "UnknownOption", "OutOfRange", "TooManyMoves",
                         "ScoreOutOfRange", "StructSizeError", "UnknownAlgorithm", "ParseError"):
            self.assertIn(expected, names)

    def test_message_from_strerror(self):
        e = gts.errors.make_error(gts.InvalidArgument.status, "detail")
        self.assertIsInstance(e, gts.InvalidArgument)
        self.assertEqual(e.message, "invalid argument")
        self.assertEqual(str(e), "invalid argument: detail [EINVAL]")
        self.assertEqual(e.status, -1)
        self.assertIsInstance(gts.OutOfMemory(), MemoryError)
        unknown = gts.errors.make_error(-999)
        self.assertIs(type(unknown), gts.GtsError)
        self.assertEqual(unknown.status, -999)

    def test_camel_fallback(self):
        self.assertEqual(gts.errors._camel("EFOO_BAR"), "FooBarError")


class TestEngine(unittest.TestCase):
    def test_experimental_options(self):
        # The experimental options (C: GTS_EXPERIMENTAL_API) stay reachable
        # by name, and the binding's list is the header's gated section.
        exp = gts.EXPERIMENTAL_OPTION_NAMES
        self.assertEqual(len(exp), len(_lib.EXPERIMENTAL_OPTION_VALUES))
        self.assertLessEqual(set(exp), set(gts.OPTION_NAMES))
        self.assertIn("split_ply", exp)
        self.assertIn("root_driver", exp)
        self.assertNotIn("threads", exp)
        with gts.Engine(split_ply=3, root_driver=gts.ROOT_MTDF, tt_near_depth=4) as e:
            self.assertEqual(e.get("split_ply"), 3)
            self.assertEqual(e.get("root_driver"), gts.ROOT_MTDF)
            self.assertEqual(e.get("tt_near_depth"), 4)
        header = os.path.join(os.path.dirname(PKG_DIR), "..", "include", "gts", "engine.h")
        if not os.path.exists(header):
            self.skipTest("no source tree")
        with open(header, encoding="utf-8") as f:
            text = f.read()
        gated = text[text.index("#ifdef GTS_EXPERIMENTAL_API"):]
        values = {int(v) for v in re.findall(
            r"#define GTS_OPT_\w+ GTS__OPTION\((\d+)\)", gated)}
        self.assertEqual(values, set(_lib.EXPERIMENTAL_OPTION_VALUES))

    def test_options(self):
        with gts.Engine(tt_mb=1, threads=2, aspiration=25, killers=False) as e:
            self.assertEqual(e.get("tt_mb"), 1)
            self.assertEqual(e.get("threads"), 2)
            self.assertEqual(e.get("aspiration"), 25)
            self.assertEqual(e.get("killers"), 0)
            e.set("history", 0)
            self.assertEqual(e.get("history"), 0)
            e.set("NBEST", 3)
            self.assertEqual(e.get("nbest"), 3)
            self.assertEqual(set(e.options()), set(gts.OPTION_NAMES))
            with self.assertRaises(gts.UnknownOption):
                e.set("bogus", 1)
            with self.assertRaises(gts.UnknownOption):
                e.get("bogus")
            with self.assertRaises(gts.OutOfRange):
                e.set("threads", 0)
            with self.assertRaises(gts.OutOfRange):
                e.set("killers", 2)
            with self.assertRaises(TypeError):
                e.set("threads", "2")
            e.clear()
            self.assertIn("threads=2", repr(e))
        self.assertTrue(e.closed)
        e.close()  # idempotent
        e.stop()   # harmless when closed
        with self.assertRaises(ValueError):
            e.get("threads")
        with self.assertRaises(gts.UnknownOption):
            gts.Engine(no_such_option=1)

    def test_option_bounds(self):
        lo, hi, default = gts.option_bounds("threads")
        self.assertEqual((lo, default), (1, 1))
        self.assertGreaterEqual(hi, 2)
        self.assertEqual(gts.option_bounds("tt_mb")[2], 16)

    def test_option_names_follow_the_rule(self):
        # Every name is the enum name without GTS_OPT_, lowercased: the
        # virtual processors are "virtual"; the former "virtual_procs" is
        # still accepted, not listed.
        self.assertIn("virtual", gts.Engine().options())
        self.assertNotIn("virtual_procs", gts.Engine().options())
        with gts.Engine(virtual_procs=1) as e:
            self.assertEqual(e.get("virtual"), 1)
            self.assertEqual(e.get("virtual_procs"), 1)

    def test_check_mirrors_are_size_checked(self):
        from gts import checker
        for ident, cls in checker.STRUCT_MIRRORS:
            self.assertEqual(_lib.lib.gts_struct_size(ident), ctypes.sizeof(cls), cls.__name__)

    def test_engine_reuse_and_stop_when_idle(self):
        with gts.Engine() as e:
            e.stop()  # ignored: no search running
            with gts.games.TicTacToe() as g:
                r1 = e.search(g, "pvs", 9)
                r2 = e.search(g, algorithm="alphabeta", depth=9)
            self.assertEqual(r1.score, 0)
            self.assertEqual(r2.score, 0)
            self.assertNotIn("stopped", r1.flags)
            self.assertGreater(e.hashfull(), -1)

    def test_limit_validation(self):
        g = PyGame()
        with self.assertRaises(gts.OutOfRange):
            gts.pvs(g, depth=0)
        with self.assertRaises(gts.OutOfRange):
            gts.pvs(g, depth=gts.MAX_DEPTH + 1)
        with self.assertRaises(gts.OutOfRange):
            gts.pvs(g, depth=3, nodes=-1)
        with self.assertRaises(gts.InvalidArgument):
            gts.pvs(g, depth=3, alpha=5, beta=5)
        with self.assertRaises(gts.OutOfRange):
            gts.pvs(g, depth=3, alpha=-40000)
        with self.assertRaises(TypeError):
            gts.pvs(g, depth="3")
        with self.assertRaises(TypeError):
            gts.pvs(object(), depth=3)
        with self.assertRaises(TypeError):
            gts.pvs(g, depth=3, engine=gts.Engine(), threads=2)
        self.assertEqual(g.path, [])


@unittest.skipUnless(hasattr(_lib.lib, "gts_engine_set_probcut"), "no ProbCut API in this libgts")
class TestProbcut(unittest.TestCase):
    def test_parameters(self):
        with gts.Engine() as e:
            default = e.get_probcut()
            self.assertGreaterEqual(len(default["pairs"]), 1)
            self.assertIsInstance(default["pairs"][0], gts.ProbcutPair)
            e.set_probcut([(1, 3, 1.0, 0.0, 50.0, 2.0), gts.ProbcutPair(2, 5)], iid=False)
            got = e.get_probcut()
            self.assertEqual(got["pairs"], [gts.ProbcutPair(1, 3, 1.0, 0.0, 50.0, 2.0),
                                            gts.ProbcutPair(2, 5)])
            self.assertFalse(got["iid"])
            with self.assertRaises(gts.OutOfRange):
                e.set_probcut([(3, 2)])
            with self.assertRaises(gts.OutOfRange):
                e.set_probcut([(1, 2)] * (gts.PROBCUT_MAX_PAIRS + 1))
            self.assertEqual(e.get_probcut(), got, "unchanged after an error")
            e.set_probcut()
            self.assertEqual(e.get_probcut(), default)

    def test_off_thresholds_search_like_pvs(self):
        off = gts.PROBCUT_THRESHOLD_OFF
        with gts.games.Connect4("4453") as g, gts.Engine() as e1, gts.Engine() as e2:
            e1.set_probcut([(2, 4, 1.0, 0.0, 1.0, off)])
            a = gts.probcut(g, depth=7, engine=e1)
            b = gts.pvs(g, depth=7, engine=e2)
        self.assertEqual(a.score, b.score)

    def test_calibrate(self):
        with gts.Engine() as e, gts.games.Othello() as g:
            fit = e.calibrate_probcut(g, 1, 3, samples=20, seed=3, max_walk=10)
            self.assertEqual(fit.samples + fit.skipped >= 20, True)
            self.assertGreater(fit.sigma, 0)
            e.set_probcut([fit.pair(1, 3)])
            self.assertEqual(e.get_probcut()["pairs"][0].a, fit.a)
            self.assertEqual(g.position, "")
        # Python games, sampled and given as a list
        t = PyGame()
        with gts.Engine() as e:
            fit = e.calibrate_probcut(t, 1, 2, samples=5, max_walk=2)
            self.assertGreaterEqual(fit.samples, 3)
            self.assertEqual(t.path, [])
            ps = [PyGame() for _ in range(4)]
            for i, p in enumerate(ps):
                p.path = [i % 3]
            fit = e.calibrate_probcut(None, 1, 2, positions=ps)
            self.assertEqual(fit.samples, 4)
            self.assertEqual([p.path for p in ps], [[0], [1], [2], [0]])
            with self.assertRaises(gts.OutOfRange):
                e.calibrate_probcut(t, 3, 2)


class TestResult(unittest.TestCase):
    def test_fields(self):
        with gts.games.Connect4("4453") as g:
            r = gts.pvs(g, depth=6, threads=1)
        self.assertEqual(r.algorithm, "pvs")
        self.assertEqual(r.depth, 6)
        self.assertGreaterEqual(r.seldepth, 6)
        self.assertEqual(r.pv[0], r.best_move)
        self.assertLessEqual(len(r.pv), 6)
        self.assertGreater(r.nodes, 6)
        self.assertGreaterEqual(r.time_s, 0)
        self.assertEqual(r.flags, frozenset())
        self.assertTrue(r.exact)
        for k in ("tt_probes", "tt_hits", "tt_cutoffs", "nodes_mandatory", "nodes_speculative",
                  "nodes_wasted", "threads", "thread_nodes"):
            self.assertIn(k, r.stats)
        self.assertEqual(r.stats["threads"], 1)
        self.assertEqual(len(r.stats["thread_nodes"]), 1)
        self.assertGreater(r.stats["tt_probes"], 0)
        self.assertEqual(r.as_dict()["score"], r.score)
        self.assertIn("pvs", repr(r))

    def test_terminal_root(self):
        with gts.games.TicTacToe("14253") as g:   # X completed 1-2-3
            self.assertEqual(g.moves(), [])
            r = gts.pvs(g, depth=4)
        self.assertIsNone(r.best_move)
        self.assertEqual(r.pv, [])
        self.assertEqual(r.score, gts.SCORE_LOSS)
        self.assertEqual(r.depth, 0)

    def test_window_flags(self):
        with gts.games.TicTacToe("5") as g:   # value 0 for O
            lo = gts.alphabeta(g, depth=8, alpha=5, beta=10)
            hi = gts.alphabeta(g, depth=8, alpha=-10, beta=-5)
        self.assertIn("upper_bound", lo.flags)
        self.assertIn("lower_bound", hi.flags)
        self.assertFalse(lo.exact)

    def limited(self, flag, depth, **limit):
        """PVS on Connect-4 to @depth under @limit: @flag set, depth not reached."""
        with gts.games.Connect4() as g:
            r = gts.pvs(g, depth=depth, **limit)
        self.assertIn(flag, r.flags)
        self.assertLess(r.depth, depth)
        return r

    def test_node_limit(self):
        r = self.limited("node_limit", 30, nodes=5000)
        self.assertIsNotNone(r.best_move)

    def test_time_limit(self):
        self.limited("time_limit", 40, time_ms=100)

    def test_on_iteration(self):
        seen = []

        def cb(r):
            seen.append((r.depth, r.best_move, list(r.pv)))
            return r.depth >= 3

        with gts.games.Connect4("44") as g:
            r = gts.pvs(g, depth=10, on_iteration=cb)
        self.assertEqual([d for d, _, _ in seen], [1, 2, 3])
        self.assertEqual(r.depth, 3)
        self.assertIn("stopped", r.flags)
        self.assertEqual(seen[-1][1], r.best_move)

    def test_score_helpers(self):
        self.assertEqual(gts.score_win_in(3), gts.SCORE_WIN - 3)
        self.assertEqual(gts.score_loss_in(4), gts.SCORE_LOSS + 4)
        self.assertTrue(gts.score_is_win(gts.score_win_in(3)))
        self.assertTrue(gts.score_is_loss(gts.score_loss_in(3)))
        self.assertFalse(gts.score_is_win(100))
        self.assertEqual(gts.score_plies_to_end(gts.score_win_in(5)), 5)
        self.assertEqual(gts.score_plies_to_end(gts.score_loss_in(2)), 2)
        self.assertEqual(gts.score_plies_to_end(7), -1)
        self.assertEqual(gts.format_score(gts.score_win_in(3)), "win in 3")


class Ring(gts.Game):
    """Two tokens on a ring of 5 squares (tests/test_select.c's ring): step
    forward (0), back (1) or stop (2); positions repeat as soon as a token
    steps back. Declares that a repetition is a draw."""
    max_moves = 3
    repetition_draw = True
    WORTH = (0, 30, -20, 10, 45)

    def __init__(self, a=1, b=3):
        self.pos, self.side, self.stopped = [a, b], 0, False

    def generate(self):
        return [] if self.stopped else [0, 1, 2]

    def apply(self, m):
        if m == 2:
            self.stopped = True
        else:
            self.pos[self.side] = (self.pos[self.side] + (1 if m == 0 else 4)) % 5
        self.side ^= 1

    def undo(self, m):
        self.side ^= 1
        if m == 2:
            self.stopped = False
        else:
            self.pos[self.side] = (self.pos[self.side] + (4 if m == 0 else 1)) % 5

    def evaluate(self):
        return self.WORTH[self.pos[self.side]] - self.WORTH[self.pos[self.side ^ 1]]

    def hash(self):
        return ((self.pos[0] * 5 + self.pos[1]) * 4 + self.side * 2 + self.stopped) * 0x9E3779B1 + 1


class TestSelective(unittest.TestCase):
    """Issue 32: the selective search options and the repetition draws."""

    def test_options_are_known(self):
        for name in ("null_move", "lmr", "futility", "razor", "lmp", "contempt"):
            self.assertIn(name, gts.OPTION_NAMES)
            self.assertEqual(gts.option_bounds(name)[2], 0, f"{name} is off by default")
        self.assertEqual(gts.option_bounds("contempt")[0], -(gts.SCORE_DECIDED - 1))
        with gts.Engine(lmr=100, lmp=3, futility=50, razor=100) as e:
            r = e.search(gts.games.Othello("f5d6"), "pvs", 5)
            self.assertIsNotNone(r.best_move)

    def test_history_and_contempt(self):
        ring = Ring()
        keys = []
        for m in ring.generate():      # every root move repeats a position of the history
            ring.apply(m)
            keys.append(ring.hash())
            ring.undo(m)
        for contempt in (0, 40, -40):
            with gts.Engine(contempt=contempt) as e:
                r = e.search(ring, "pvs", 3, history=keys)
                self.assertEqual(r.score, -contempt, f"contempt {contempt}")
        with gts.Engine() as e:
            self.assertNotEqual(e.search(ring, "pvs", 1).score, 0, "no history: no draw")
            with self.assertRaises(TypeError):
                e.search(ring, "pvs", 1, history="abc")
            with self.assertRaises(gts.OutOfRange):
                e.search(ring, "pvs", 1, history=[-1])


if __name__ == "__main__":
    unittest.main()
