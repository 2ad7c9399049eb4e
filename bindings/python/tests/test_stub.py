"""Static declarations (issue 11, 2.3): gts/__init__.pyi declares exactly what
``import gts`` exports at run time (the names generated from the library
included), ships in the wheel and the sdist, and Result is a frozen dataclass."""
import ast
import dataclasses
import importlib.util
import inspect
import os
import pickle
import tarfile
import tempfile
import unittest
import zipfile

import gts
import gts.engine
import gts.errors
import gts.game
from gts import games

PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUB = os.path.join(PKG_DIR, "gts", "__init__.pyi")


def stub_tree():
    with open(STUB, encoding="utf-8") as f:
        return ast.parse(f.read(), STUB)


def stub_names(tree):
    """Public names the stub declares: defs, classes, annotated or assigned
    names, and ``from m import x as x`` re-exports (PEP 484: a plain import
    in a stub is not an export)."""
    names = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    names[t.id] = node
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                if a.asname == a.name:
                    names[a.name] = node
    return {n: v for n, v in names.items() if not n.startswith("_")}


def runtime_public():
    """Public names of the module: everything without a leading underscore,
    except submodules that are not part of the API (gts.engine...)."""
    return {n for n, v in vars(gts).items()
            if not n.startswith("_") and not (inspect.ismodule(v) and n not in gts.__all__)}


SHORTCUT = """def {name}(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    \"\"\"Search with gts_{name} ({kind}).\"\"\"
"""


def declaration(name):
    """What the stub should say about a generated name (for the failure
    message when the library gained an algorithm or a status)."""
    info = next((a for a in gts.algorithms() if a.name == name), None)
    if info is not None:
        kind = ("exact" if info.exact else "selective") + \
            ("; parallel: threads=N, needs clone()" if info.parallel else "")
        return SHORTCUT.format(name=name, kind=kind)
    cls = getattr(gts, name, None)
    if isinstance(cls, type) and issubclass(cls, gts.GtsError):
        bases = ", ".join(b.__name__ for b in cls.__bases__)
        msg = gts._lib.decode(gts._lib.lib.gts_strerror(cls.status))
        return f'class {name}({bases}):\n    """GTS_{cls.name} ({cls.status}): {msg}."""\n'
    return f"{name}: ...\n"


class TestStub(unittest.TestCase):
    def setUp(self):
        self.tree = stub_tree()
        self.stub = stub_names(self.tree)
        with open(STUB, encoding="utf-8") as f:
            self.source = f.read()

    def test_names_match_the_module(self):
        self.assertEqual(len(gts.__all__), len(set(gts.__all__)), "duplicates in __all__")
        self.assertEqual(runtime_public(), set(gts.__all__),
                         "public names of gts missing from __all__ (or stale ones in it)")
        stub = set(self.stub)
        self.assertEqual(sorted(stub - set(gts.__all__)), [], "declared, not exported")
        missing = sorted(set(gts.__all__) - stub, key=gts.__all__.index)
        self.assertEqual(missing, [], "exported, not declared; add to gts/__init__.pyi:\n\n"
                         + "\n".join(declaration(n) for n in missing))

    def test_every_algorithm_has_a_declared_shortcut(self):
        search_kw = set(gts.engine.SEARCH_KEYWORDS) | {"engine"}
        for info in gts.algorithms():
            with self.subTest(algorithm=info.name):
                fn = getattr(gts, info.name)
                self.assertTrue(callable(fn))
                node = self.stub.get(info.name)
                self.assertIsInstance(node, ast.FunctionDef, "not declared as a function")
                args = node.args
                self.assertEqual([a.arg for a in args.args], ["game"])
                self.assertEqual({a.arg for a in args.kwonlyargs}, search_kw)
                self.assertIsNotNone(args.kwarg, "**options (engine options)")
                self.assertEqual(ast.unparse(node.returns), "Result")
                # word for word, so that the kind (exact, parallel) is right too
                self.assertIn(declaration(info.name), self.source)

    def test_error_classes(self):
        for code, cname in gts.STATUS_NAMES.items():
            cls = gts.errors.error_class(code)
            with self.subTest(status=cname):
                self.assertIs(getattr(gts, cls.__name__), cls)
                node = self.stub.get(cls.__name__)
                self.assertIsInstance(node, ast.ClassDef, "not declared as a class")
                self.assertEqual([ast.unparse(b) for b in node.bases],
                                 [b.__name__ for b in cls.__bases__])
                self.assertIn(f"GTS_{cname} ({code})", ast.get_docstring(node))

    def test_reexports_are_the_same_objects(self):
        for name, node in self.stub.items():
            if isinstance(node, ast.ImportFrom):
                with self.subTest(name=name):
                    mod = gts if node.module is None else getattr(gts, node.module)
                    self.assertIs(getattr(gts, name), getattr(mod, name))

    def test_declared_constant_types(self):
        types = {"int": int, "float": float, "str": str}
        for name, node in self.stub.items():
            if isinstance(node, ast.AnnAssign):
                ann = ast.unparse(node.annotation)
                with self.subTest(name=name, annotation=ann):
                    value = getattr(gts, name)
                    if ann in types:
                        self.assertIs(type(value), types[ann])
                    elif ann.startswith("Tuple["):
                        self.assertIsInstance(value, tuple)

    def test_stub_is_valid_python_for_the_oldest_supported_version(self):
        with open(STUB, encoding="utf-8") as f:
            ast.parse(f.read(), STUB, feature_version=(3, 8))


class TestPackaging(unittest.TestCase):
    def load_backend(self):
        path = os.path.join(PKG_DIR, "build_backend", "gts_build.py")
        spec = importlib.util.spec_from_file_location("gts_build_stub_test", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    def test_wheel_and_sdist_carry_the_stub(self):
        backend = self.load_backend()
        with tempfile.TemporaryDirectory() as tmp:
            with zipfile.ZipFile(os.path.join(tmp, backend.build_wheel(tmp))) as zf:
                names = zf.namelist()
                self.assertIn("gts/__init__.pyi", names)
                self.assertIn("gts/py.typed", names)
                with open(STUB, "rb") as f:
                    self.assertEqual(zf.read("gts/__init__.pyi"), f.read())
            with tarfile.open(os.path.join(tmp, backend.build_sdist(tmp))) as tf:
                self.assertIn(f"gts-{gts.__version__}/gts/__init__.pyi", tf.getnames())


class TestResultDataclass(unittest.TestCase):
    def setUp(self):
        with games.TicTacToe("5") as g:
            self.r = gts.pvs(g, depth=3)

    def test_frozen_typed_fields(self):
        r = self.r
        self.assertTrue(dataclasses.is_dataclass(r))
        fields = {f.name: f.type for f in dataclasses.fields(r)}
        self.assertEqual(list(fields), ["algorithm", "score", "best_move", "pv", "depth",
                                        "seldepth", "nodes", "time_s", "flags", "stats"])
        self.assertTrue(all(fields.values()), "every field is annotated")
        with self.assertRaises(dataclasses.FrozenInstanceError):
            r.score = 5
        with self.assertRaises(dataclasses.FrozenInstanceError):
            del r.pv
        self.assertIsInstance(r.flags, frozenset)

    def test_properties_dict_repr(self):
        r = self.r
        self.assertTrue(r.exact)
        self.assertGreaterEqual(r.nps, 0)
        d = r.as_dict()
        self.assertEqual(set(d), {f.name for f in dataclasses.fields(r)})
        self.assertEqual(d["flags"], sorted(r.flags))
        self.assertEqual(d["pv"], r.pv)
        self.assertTrue(repr(r).startswith("<Result pvs score="))

    def test_replace_copy_pickle_hash(self):
        r = self.r
        s = dataclasses.replace(r, score=7, flags=r.flags | {"stopped"})
        self.assertEqual((s.score, s.pv, r.score == 7), (7, r.pv, False))
        self.assertIn("stopped", s.flags)
        back = pickle.loads(pickle.dumps(r))
        self.assertEqual(back.as_dict(), r.as_dict())
        self.assertEqual(len({r, s, r}), 2, "hashable, by identity")

    def test_progress_results_too(self):
        seen = []
        with games.Connect4("44") as g:
            gts.pvs(g, depth=3, on_iteration=seen.append)
        self.assertEqual([x.depth for x in seen], [1, 2, 3])
        for x in seen:
            self.assertIsInstance(x, gts.Result)
            with self.assertRaises(dataclasses.FrozenInstanceError):
                x.depth = 0


if __name__ == "__main__":
    unittest.main()
