"""`python3 -m gts` (the CLI over the bindings), the example program, and
offline packaging (the in-tree PEP 517 backend, and pip when available)."""
import base64
import csv
import hashlib
import importlib.util
import io
import json
import os
import signal
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile

import gts
from gts import _lib

PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(gts.__file__)))
EXAMPLES = os.path.join(PKG_DIR, "examples")


def env(**extra):
    e = dict(os.environ, PYTHONPATH=PKG_DIR, GTS_LIBRARY=_lib.LIB_PATH)
    _lib.games_lib()
    e["GTS_GAMES_LIBRARY"] = _lib.GAMES_LIB_PATH
    e.update(extra)
    return e


def gts_cli(*args, stdin=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "gts", *args], input=stdin, env=env(),
                          capture_output=True, text=True, timeout=timeout)


def c_tool():
    """tools/gts of the build the tests run against, if any."""
    p = os.path.join(os.path.dirname(os.path.realpath(_lib.LIB_PATH)), "..", "tools", "gts")
    return os.path.normpath(p) if os.access(p, os.X_OK) else None


NEAR_END = "2252576253462244111563365343671351441"   # scores -1 (scripts/demo)


def fields(text):
    """The `KEY VALUE` lines of `search` as a dict."""
    return dict((line.split(None, 1) + [""])[:2] for line in text.splitlines())


class TestCli(unittest.TestCase):
    def test_help(self):
        p = gts_cli("--help")
        self.assertEqual(p.returncode, 0, p.stderr)
        for word in ("search", "solve", "perft", "algorithms", "connect4"):
            self.assertIn(word, p.stdout)
        p = gts_cli("search", "--help")
        self.assertEqual(p.returncode, 0)
        for word in ("--alg", "--depth", "--time-ms", "--nodes", "--threads", "--tt-mb",
                     "--aspiration", "--format", "--quiet", "--seed", "--tree-depth"):
            self.assertIn(word, p.stdout)
        self.assertEqual(gts_cli().returncode, 2)

    def test_search(self):
        p = gts_cli("search", "connect4", "4453", "--alg", "pvs", "--depth", "8")
        self.assertEqual(p.returncode, 0, p.stderr)
        out = fields(p.stdout)
        with gts.games.Connect4("4453") as g:
            r = gts.pvs(g, depth=8)
            self.assertEqual(out["bestmove"], g.format_move(r.best_move))
        self.assertEqual(out["score"], str(r.score))
        self.assertEqual(out["depth"], "8")
        self.assertEqual(out["nodes"], str(r.nodes))
        self.assertEqual(out["stop"], "none")
        self.assertEqual(len(out["pv"].split()), len(r.pv))
        # one progress line per iteration on stderr
        self.assertEqual(len([ln for ln in p.stderr.splitlines()
                              if ln.startswith("info depth")]), 8)
        p = gts_cli("search", "connect4", "4453", "--depth", "3", "--quiet")
        self.assertEqual(p.stderr, "")

    def test_search_json_and_limits(self):
        p = gts_cli("search", "tictactoe", "--format", "json", "--quiet", "--tt-mb", "1",
                    "--aspiration", "10")
        self.assertEqual(p.returncode, 0, p.stderr)
        d = json.loads(p.stdout)
        self.assertEqual((d["score"], d["depth"], d["bound"]), (0, 9, "exact"))
        for k in ("bestmove", "pv", "nodes", "tt_probes", "time_us", "nps", "thread_nodes",
                  "nodes_mandatory", "stop", "hashfull"):
            self.assertIn(k, d)
        p = gts_cli("search", "connect4", "--nodes", "3000", "--quiet", "--format", "json")
        self.assertEqual(json.loads(p.stdout)["stop"], "node-limit")
        p = gts_cli("search", "randtree", "0,1", "--seed", "7", "--branching", "3",
                    "--tree-depth", "6", "--quiet")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(fields(p.stdout)["depth"], "6")     # default: the tree depth
        self.assertEqual(fields(p.stdout)["seldepth"], "4")  # two plies already played

    def test_search_every_algorithm(self):
        for a in gts.algorithms():
            with self.subTest(alg=a.name):
                p = gts_cli("search", "tictactoe", "--alg", a.name, "--threads",
                            "2" if a.parallel else "1", "--quiet")
                self.assertEqual(p.returncode, 0, p.stderr)
                if a.exact:
                    self.assertEqual(fields(p.stdout)["score"], "0")

    def test_perft(self):
        p = gts_cli("perft", "connect4", "5")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(p.stdout.startswith("perft(5) = 16807  ("))
        p = gts_cli("perft", "othello", "1-4")
        self.assertEqual([ln.split()[2] for ln in p.stdout.splitlines()],
                         ["4", "12", "56", "244"])
        p = gts_cli("perft", "tictactoe", "2", "5", "--divide")
        self.assertEqual(len([ln for ln in p.stdout.splitlines() if ln.startswith("  ")]), 8)
        self.assertEqual(gts_cli("perft", "connect4", "x").returncode, 2)

    def test_solve_reads_stdin(self):
        p = gts_cli("solve", "connect4", "--stats",
                    stdin=f"{NEAR_END}\n99\n1111111\n\n{NEAR_END}\n")
        self.assertEqual(p.returncode, 1)  # bad lines
        lines = p.stdout.splitlines()
        self.assertEqual(len(lines), 2)
        pos, score, nodes, us = lines[0].split()
        self.assertEqual((pos, score), (NEAR_END, "-1"))
        self.assertIn("line 2: bad character '9'", p.stderr)
        self.assertIn("line 3: move 7: column 1 is full", p.stderr)
        self.assertIn("line 4: empty line", p.stderr)
        self.assertIn("3 of 5 lines failed", p.stderr)
        p = gts_cli("solve", "connect4", "--check", "--root", "bisect",
                    stdin=f"{NEAR_END} -1\n{NEAR_END[:-1]} 3\n")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.split(), [NEAR_END, "-1", NEAR_END[:-1], "3"])
        p = gts_cli("solve", "connect4", "--check", stdin=f"{NEAR_END} 2\n")
        self.assertEqual(p.returncode, 1)
        self.assertIn("expected 2", p.stderr)
        self.assertEqual(gts_cli("solve", "othello", stdin="").returncode, 2)
        self.assertEqual(gts_cli("solve", "connect4", "--alg", "probcut",
                                 stdin="").returncode, 2)

    def test_errors(self):
        p = gts_cli("search", "tictactoe", "--alg", "nosuch")
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown algorithm 'nosuch'", p.stderr)
        p = gts_cli("search", "connect4", "8")
        self.assertEqual(p.returncode, 2)
        self.assertIn("bad connect4 position '8'", p.stderr)
        p = gts_cli("search", "checkers")
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown game", p.stderr)
        p = gts_cli("search", "tictactoe", "--depth", "0")
        self.assertEqual(p.returncode, 2)
        p = gts_cli("perft", "connect4", "2", "1111111")
        self.assertEqual(p.returncode, 2)
        self.assertIn("bad connect4 position '1111111': move 7: column 1 is full", p.stderr)

    def test_option_validation(self):
        """Issue 11, 2.8: the C tool's ranges (the library's, for engine
        options) and one-line messages, exit 2, never a traceback; a table
        that cannot be allocated is a run-time failure (exit 1)."""
        hint = "Try 'python3 -m gts search --help' for more information.\n"
        for args, msg in ((["--tt-mb", "2000000"], "--tt-mb: expected 0..1048576, got "
                                                   "'2000000'"),
                          (["--aspiration", "32000"], "--aspiration: expected 0..31000, got "
                                                      "'32000'"),
                          (["--threads", "0"], "--threads: expected 1..256, got '0'"),
                          (["--depth", "+3"], f"--depth: expected 1..{gts.MAX_DEPTH}, got '+3'"),
                          (["--time-ms", "x"], "--time-ms: expected 0..18446744073709551615, "
                                               "got 'x'"),
                          (["--quiet=1"], "unknown option '--quiet=1'")):
            with self.subTest(args=args):
                p = gts_cli("search", "tictactoe", *args)
                self.assertEqual((p.returncode, p.stdout), (2, ""))
                self.assertEqual(p.stderr, f"python3 -m gts search: {msg}\n{hint}")
        p = gts_cli("search", "tictactoe", "--time-ms", "18446744073710", "--quiet")
        self.assertEqual(p.returncode, 0, p.stderr)       # was "not a number"
        p = gts_cli("search", "tictactoe", "--tt-mb", "1048576")
        self.assertEqual((p.returncode, p.stdout), (1, ""))
        # (under ASan the allocator warns "==pid==WARNING: ... failed to allocate")
        err = "".join(line for line in p.stderr.splitlines(True) if not line.startswith("=="))
        self.assertEqual(err, "python3 -m gts search: cannot set --tt-mb to 1048576: "
                              "out of memory\n")

    def interrupted(self, args, ready, stdin=None):
        """Run python3 -m gts, send SIGINT once ready(line) holds for a line
        of stderr (or stdout, with stdin); (status, stdout, stderr)."""
        p = subprocess.Popen([sys.executable, "-m", "gts", *args], env=env(), text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        seen = []
        try:
            if stdin is not None:
                p.stdin.write(stdin)
                p.stdin.flush()
            for line in (p.stdout if stdin is not None else p.stderr):
                seen.append(line)
                if ready(line):
                    break
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=60)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        if stdin is not None:
            return p.returncode, "".join(seen) + out, err
        return p.returncode, out, "".join(seen) + err

    def test_ctrl_c(self):
        """Issue 11, 2.2: Ctrl-C stops the search, the last completed
        iteration is printed, exit 130 (on Python 3.11 an interrupted
        Thread.join made is_alive() false while the search still ran: KeyError
        'result', then gts.Busy from Engine.close)."""
        rc, out, err = self.interrupted(["search", "othello", "--depth", "60"],
                                        lambda line: line.startswith("info depth 4 "))
        self.assertEqual(rc, 130, err)
        self.assertNotIn("Traceback", err)
        self.assertTrue(err.endswith("python3 -m gts search: interrupted\n"), err)
        self.assertEqual(fields(out)["stop"], "stopped")
        self.assertGreaterEqual(int(fields(out)["depth"]), 4)
        rc, out, err = self.interrupted(["solve", "connect4"], lambda line: True,
                                        stdin=f"{NEAR_END}\n4453\n")
        self.assertEqual(rc, 130, err)
        self.assertNotIn("Traceback", err)
        self.assertEqual(out, f"{NEAR_END} -1\n")       # 4453 was cut short
        self.assertTrue(err.endswith("python3 -m gts solve: interrupted\n"), err)

    def test_algorithms_and_version(self):
        p = gts_cli("algorithms", "--format", "csv")
        self.assertEqual([ln.split(",")[0] for ln in p.stdout.splitlines()[1:]],
                         [a.name for a in gts.algorithms()])
        d = json.loads(gts_cli("algorithms", "--format", "json").stdout)
        self.assertEqual([(r["name"], r["exact"], r["parallel"]) for r in d["rows"]],
                         [tuple(a) for a in gts.algorithms()])
        self.assertIn(gts.library_version(), gts_cli("--version").stdout)

    @unittest.skipUnless(c_tool(), "tools/gts not built next to this libgts")
    def test_mirrors_the_c_tool(self):
        def run_c(*args, stdin=None):
            return subprocess.run([c_tool(), *args], input=stdin, capture_output=True,
                                  text=True, timeout=120, env=env())

        skip = ("time_us", "nps")
        for args in (("search", "connect4", "4453", "--depth", "8", "--quiet"),
                     ("search", "tictactoe", "519", "--alg", "mtdf", "--quiet"),
                     ("search", "othello", "f5", "--depth", "4", "--quiet"),
                     ("search", "randtree", "--seed", "3", "--tree-depth", "5", "--quiet")):
            with self.subTest(args=args):
                c, py = run_c(*args), gts_cli(*args)
                self.assertEqual(c.returncode, py.returncode)
                keep = [[ln for ln in out.stdout.splitlines() if ln.split()[0] not in skip]
                        for out in (c, py)]
                self.assertEqual(keep[0], keep[1])
        for args in (("perft", "connect4", "1-5"), ("perft", "tictactoe", "3", "5", "--divide")):
            with self.subTest(args=args):
                c, py = run_c(*args), gts_cli(*args)
                self.assertEqual([ln.split("(")[0] for ln in c.stdout.splitlines()],
                                 [ln.split("(")[0] for ln in py.stdout.splitlines()])
        c = run_c("algorithms")
        self.assertEqual(c.stdout, gts_cli("algorithms").stdout)
        stdin = f"{NEAR_END}\n{NEAR_END[:-2]}\n"
        self.assertEqual(run_c("solve", "connect4", stdin=stdin).stdout,
                         gts_cli("solve", "connect4", stdin=stdin).stdout)
        for bad in ("search checkers", "search tictactoe --alg nosuch", "search connect4 8",
                    "perft connect4 x", "search tictactoe --tt-mb 2000000"):
            with self.subTest(bad=bad):
                c, py = run_c(*bad.split()), gts_cli(*bad.split())
                self.assertEqual(c.returncode, py.returncode)
                self.assertEqual(c.stderr, py.stderr.replace("python3 -m gts", "gts"))


class TestExample(unittest.TestCase):
    def test_play_connect4(self):
        p = subprocess.run([sys.executable, os.path.join(EXAMPLES, "play_connect4.py"),
                            "--depth", "4", "--threads", "2"],
                           env=env(), capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("1 2 3 4 5 6 7", p.stdout)
        self.assertRegex(p.stdout, r"(wins|draw)")


def load_backend():
    path = os.path.join(PKG_DIR, "build_backend", "gts_build.py")
    spec = importlib.util.spec_from_file_location("gts_build", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class TestPackaging(unittest.TestCase):
    def test_wheel(self):
        backend = load_backend()
        self.assertEqual(backend.get_requires_for_build_wheel(), [])
        with tempfile.TemporaryDirectory() as tmp:
            name = backend.build_wheel(tmp)
            self.assertEqual(name, f"gts-{gts.__version__}-py3-none-any.whl")
            with zipfile.ZipFile(os.path.join(tmp, name)) as zf:
                names = zf.namelist()
                for f in ("gts/__init__.py", "gts/_lib.py", "gts/py.typed", "gts/__main__.py"):
                    self.assertIn(f, names)
                self.assertFalse([n for n in names if "__pycache__" in n or "tests/" in n])
                di = f"gts-{gts.__version__}.dist-info"
                meta = zf.read(f"{di}/METADATA").decode()
                self.assertIn("Name: gts", meta)
                self.assertIn(f"Version: {gts.__version__}", meta)
                rows = list(csv.reader(io.StringIO(zf.read(f"{di}/RECORD").decode())))
                for path, digest, size in rows:
                    if path.endswith("RECORD"):
                        continue
                    data = zf.read(path)
                    h = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                    self.assertEqual(digest, "sha256=" + h.decode(), path)
                    self.assertEqual(int(size), len(data))
                zf.extractall(os.path.join(tmp, "site"))
            # the unpacked wheel imports and searches (outside the checkout)
            e = env(PYTHONPATH=os.path.join(tmp, "site"))
            p = subprocess.run([sys.executable, "-c",
                                "import gts; print(gts.__file__); "
                                "print(gts.pvs(gts.games.TicTacToe(), depth=9).score)"],
                               env=e, cwd=tmp, capture_output=True, text=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertTrue(p.stdout.startswith(os.path.join(tmp, "site")))
            self.assertEqual(p.stdout.split()[-1], "0")

    def test_sdist(self):
        backend = load_backend()
        with tempfile.TemporaryDirectory() as tmp:
            name = backend.build_sdist(tmp)
            with tarfile.open(os.path.join(tmp, name)) as tf:
                names = tf.getnames()
            base = f"gts-{gts.__version__}"
            for f in ("pyproject.toml", "PKG-INFO", "gts/__init__.py",
                      "build_backend/gts_build.py", "tests/pygames.py"):
                self.assertIn(f"{base}/{f}", names)

    def test_pip_install_offline(self):
        if subprocess.run([sys.executable, "-m", "pip", "--version"],
                          capture_output=True).returncode != 0:
            self.skipTest("pip is not available")
        with tempfile.TemporaryDirectory() as tmp:
            target = os.path.join(tmp, "target")
            p = subprocess.run([sys.executable, "-m", "pip", "install", "--no-index",
                                "--no-build-isolation", "--no-deps", "--target", target,
                                "--disable-pip-version-check", "-q", PKG_DIR],
                               capture_output=True, text=True, timeout=300, cwd=tmp)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertTrue(os.path.isfile(os.path.join(target, "gts", "games.py")))


if __name__ == "__main__":
    unittest.main()
