"""Low-level layer: find and load libgts, mirror its C structs, declare its
function prototypes.

Nothing here is public API; the rest of the package builds on it. Every
struct mirrors include/gts/*.h field by field, in order, with the same C
types, so ctypes computes the same layout as the C compiler. Each struct
starts with ``struct_size``, which the binding always sets to
``ctypes.sizeof(...)``. The library accepts every size from a struct's 0.1
layout up (older callers keep working), so a wrong size is no longer
refused by itself: at import each mirror's size is compared with the
library's ``gts_struct_size()``, the run-time ABI check of the mirrors.

Library discovery (the core library libgts and the games library
libgts-games), first match wins:

1. ``GTS_LIBRARY`` / ``GTS_GAMES_LIBRARY``: an explicit path (an error if it
   does not load: an explicit setting is never silently ignored);
2. the libraries installed with this package: ``meson install`` puts the
   package into the prefix's site-packages and writes ``gts/_installed.py``,
   which records the library directory relative to the package (so a moved
   prefix still works);
3. an installed library found by ``ctypes.util.find_library`` (the loader's
   cache and ``LD_LIBRARY_PATH``);
4. a development checkout: ``build*/lib/libgts.so`` of the source tree this
   package lives in (``build/`` first, then the most recently built), and for
   the games library also ``../examples/games/libgts-games.so`` next to the
   loaded libgts.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_bool,
    c_char_p,
    c_double,
    c_int,
    c_int32,
    c_int64,
    c_size_t,
    c_uint,
    c_uint32,
    c_uint64,
    c_void_p,
)
from pathlib import Path
from typing import List, Optional, Tuple

# ---- constants of include/gts/common.h and search.h ---------------------------

MAX_PLY = 128
MAX_DEPTH = MAX_PLY - 1
SCORE_INF = 32000
SCORE_WIN = 31000
SCORE_LOSS = -SCORE_WIN
SCORE_DECIDED = SCORE_WIN - 2 * MAX_PLY
SCORE_INVALID = -(2 ** 31)
MOVE_NONE = 2 ** 64 - 1
MAX_MOVES_LIMIT = 65535

#: gts_root_driver values (engine.h): the ``root_driver`` option. Experimental,
#: as the option (GTS_EXPERIMENTAL_API in C; doc/python.md).
ROOT_WINDOW = 0
ROOT_BISECT = 1
ROOT_MTDF = 2

#: gts_mma_backup values (engine.h): the ``mma_backup`` option.
MMA_REVERSE = 0
MMA_MEAN = 1

RESULT_HAS_MOVE = 1 << 0
RESULT_STOPPED = 1 << 1
RESULT_NODE_LIMIT = 1 << 2
RESULT_TIME_LIMIT = 1 << 3
RESULT_LOWER_BOUND = 1 << 4
RESULT_UPPER_BOUND = 1 << 5
RESULT_MEMORY_LIMIT = 1 << 6
RESULT_TREE_REUSED = 1 << 7  # since 0.3

#: gts_game_trait bits (game.h) the binding can declare.
TRAIT_DISTANCE_SCORES = 1 << 2
TRAIT_REPETITION_DRAW = 1 << 3  # since 0.3

#: Flag bits of gts_result.flags reported by name in Result.flags.
RESULT_FLAG_NAMES = (
    (RESULT_STOPPED, "stopped"),
    (RESULT_NODE_LIMIT, "node_limit"),
    (RESULT_TIME_LIMIT, "time_limit"),
    (RESULT_LOWER_BOUND, "lower_bound"),
    (RESULT_UPPER_BOUND, "upper_bound"),
    (RESULT_MEMORY_LIMIT, "memory_limit"),
    (RESULT_TREE_REUSED, "tree_reused"),
)

#: gts_option values (engine.h), by the lowercase name used in Python.
OPTIONS = {
    "tt_mb": 100,
    "tt_prefetch": 101,
    "tt_near_depth": 102,
    "tt_near_kb": 103,
    "aspiration": 200,
    "killers": 201,
    "history": 202,
    "quiescence": 203,
    "iterative": 204,
    "root_driver": 205,
    "deepen_nodes": 206,
    "counter_moves": 207,
    "nbest": 210,
    "nbest_depth": 211,
    "null_move": 220,
    "lmr": 221,
    "futility": 222,
    "razor": 223,
    "lmp": 224,
    "contempt": 225,
    "threads": 300,
    "split_ply": 302,
}

#: Values of the experimental options (engine.h's GTS_EXPERIMENTAL_API section:
#: tuning knobs that never change a result and may change in any minor
#: release): tt_prefetch, tt_near_depth, tt_near_kb, root_driver, deepen_nodes,
#: the virtual processors and split_ply. By value, so the names are the
#: library's own.
EXPERIMENTAL_OPTION_VALUES = (101, 102, 103, 205, 206, 301, 302)

#: Major version of libgts this binding speaks, and the oldest minor.
ABI_MAJOR = 0
ABI_MIN_MINOR = 2  # gts_struct_size(), which the mirrors check, is 0.2's

# ---- struct mirrors ---------------------------------------------------------------

# gts_game callbacks (game.h). Pointers (state, moves, user, buf) are passed
# as plain addresses (c_void_p): the binding maps them itself.
GENERATE_FN = CFUNCTYPE(c_int, c_void_p, c_void_p, c_uint32, c_void_p)
APPLY_FN = CFUNCTYPE(c_int, c_void_p, c_uint64, c_void_p)
UNDO_FN = APPLY_FN
EVALUATE_FN = CFUNCTYPE(c_int32, c_void_p, c_void_p)
HASH_FN = CFUNCTYPE(c_uint64, c_void_p, c_void_p)
CLONE_FN = CFUNCTYPE(c_void_p, c_void_p, c_void_p)
FREE_FN = CFUNCTYPE(None, c_void_p, c_void_p)
MOVE_SCORE_FN = CFUNCTYPE(c_int32, c_void_p, c_uint64, c_void_p)
EXTEND_FN = CFUNCTYPE(c_int, c_void_p, c_uint64, c_void_p)
FORMAT_MOVE_FN = CFUNCTYPE(c_int, c_void_p, c_uint64, c_void_p, c_size_t, c_void_p)
PARSE_MOVE_FN = CFUNCTYPE(c_int, c_void_p, c_char_p, POINTER(c_uint64), c_void_p)
BOUNDS_FN = CFUNCTYPE(c_int, c_void_p, POINTER(c_int32), POINTER(c_int32), c_void_p)
GENERATE_KEYED_FN = CFUNCTYPE(c_int, c_void_p, c_void_p, c_void_p, c_uint32, c_void_p)
PLAYOUT_MOVE_FN = CFUNCTYPE(c_int, c_void_p, c_uint64, POINTER(c_uint64), c_void_p)
HASH_AFTER_FN = CFUNCTYPE(c_uint64, c_void_p, c_uint64, c_void_p)
NULL_MOVE_FN = CFUNCTYPE(c_int, c_void_p, c_void_p)


class GameStruct(Structure):
    """Mirror of ``gts_game`` (include/gts/game.h)."""

    _fields_ = [
        ("struct_size", c_size_t),
        ("max_moves", c_uint32),
        ("generate", GENERATE_FN),
        ("apply", APPLY_FN),
        ("undo", UNDO_FN),
        ("evaluate", EVALUATE_FN),
        ("hash", HASH_FN),
        ("clone", CLONE_FN),
        ("free", FREE_FN),
        ("generate_noisy", GENERATE_FN),
        ("move_score", MOVE_SCORE_FN),
        ("extend", EXTEND_FN),
        ("format_move", FORMAT_MOVE_FN),
        ("parse_move", PARSE_MOVE_FN),
        ("user", c_void_p),
        ("bounds", BOUNDS_FN),
        ("generate_keyed", GENERATE_KEYED_FN),  # not offered to Python games
        ("playout_move", PLAYOUT_MOVE_FN),  # not offered to Python games yet
        ("traits", c_uint32),
        ("hash_after", HASH_AFTER_FN),  # not offered to Python games
        ("null_apply", NULL_MOVE_FN),  # since 0.3; not offered to Python games
        ("null_undo", NULL_MOVE_FN),
    ]


class ResultStruct(Structure):
    """Mirror of ``gts_result`` (include/gts/search.h)."""

    _fields_ = [
        ("struct_size", c_size_t),
        ("best_move", c_uint64),
        ("score", c_int32),
        ("depth", c_int32),
        ("seldepth", c_int32),
        ("flags", c_uint32),
        ("pv", c_uint64 * MAX_PLY),
        ("pv_length", c_uint32),
        ("threads", c_uint32),
        ("nodes", c_uint64),
        ("tt_probes", c_uint64),
        ("tt_hits", c_uint64),
        ("tt_cutoffs", c_uint64),
        ("nodes_mandatory", c_uint64),
        ("nodes_speculative", c_uint64),
        ("nodes_wasted", c_uint64),
        ("time_us", c_uint64),
        ("callback_status", c_int32),
        ("thread_nodes", POINTER(c_uint64)),
        ("thread_nodes_capacity", c_uint32),
    ]


PROGRESS_FN = CFUNCTYPE(c_int, POINTER(ResultStruct), c_void_p)


class LimitsStruct(Structure):
    """Mirror of ``gts_limits`` (include/gts/search.h)."""

    _fields_ = [
        ("struct_size", c_size_t),
        ("depth", c_int32),
        ("alpha", c_int32),
        ("beta", c_int32),
        ("guess", c_int32),
        ("has_guess", c_bool),
        ("nodes", c_uint64),
        ("time_ms", c_uint64),
        ("on_iteration", PROGRESS_FN),
        ("on_iteration_user", c_void_p),
        ("history", POINTER(c_uint64)),  # since 0.3
        ("history_len", c_uint32),
    ]


class RandTreeParamsStruct(Structure):
    """Mirror of ``gts_randtree_params`` (examples/games/gts_games.h)."""

    _fields_ = [
        ("struct_size", c_size_t),
        ("seed", c_uint64),
        ("branching", c_uint32),
        ("depth", c_uint32),
        ("min_value", c_int32),
        ("max_value", c_int32),
        ("branching_jitter", c_uint32),
        ("terminal_percent", c_uint32),
        ("transpositions", c_bool),
        ("ordered_percent", c_uint32),
    ]


PROBCUT_MAX_PAIRS = 16
PROBCUT_THRESHOLD_OFF = 1e300


class ProbcutPairStruct(Structure):
    """Mirror of ``gts_probcut_pair`` (include/gts/probcut.h)."""

    _fields_ = [
        ("shallow_depth", c_int32),
        ("deep_depth", c_int32),
        ("a", c_double),
        ("b", c_double),
        ("sigma", c_double),
        ("threshold", c_double),
    ]


class ProbcutParamsStruct(Structure):
    """Mirror of ``gts_probcut_params`` (include/gts/probcut.h)."""

    _fields_ = [
        ("struct_size", c_size_t),
        ("npairs", c_uint32),
        ("pair", ProbcutPairStruct * PROBCUT_MAX_PAIRS),
        ("iid", c_bool),
    ]


class ProbcutFitStruct(Structure):
    """Mirror of ``gts_probcut_fit`` (include/gts/probcut.h)."""

    _fields_ = [
        ("struct_size", c_size_t),
        ("a", c_double),
        ("b", c_double),
        ("sigma", c_double),
        ("r2", c_double),
        ("samples", c_uint32),
        ("skipped", c_uint32),
    ]


def new_struct(cls):
    """A zeroed instance of a mirrored struct with struct_size set."""
    s = cls()
    s.struct_size = ctypes.sizeof(cls)
    return s


# ---- discovery --------------------------------------------------------------------

_CORE_SYMBOLS = ("gts_version", "gts_search", "gts_engine_new", "gts_algorithm_list")
_GAMES_SYMBOLS = ("gts_games_find", "gts_games_perft", "gts_game_tictactoe")


def _source_root() -> Optional[Path]:
    """The checkout this package lives in (bindings/python/gts), if any."""
    root = Path(__file__).resolve().parent.parent.parent.parent
    if (root / "include" / "gts" / "gts.h").is_file() and (root / "meson.build").is_file():
        return root
    return None


def _build_tree_candidates(relative: str) -> List[Path]:
    """``<root>/build/<relative>`` first, then other ``build*`` dirs, newest first."""
    root = _source_root()
    if root is None:
        return []
    preferred = root / "build" / relative
    others = [p for p in root.glob("build*/" + relative) if p != preferred and p.is_file()]
    others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    return ([preferred] if preferred.is_file() else []) + others


def _sanitizer(path: str) -> Optional[str]:
    """"asan"/"tsan" when the library at @path needs a sanitizer runtime that
    this process has not loaded: dlopen()ing it would fail or, for ASan,
    terminate the interpreter. None otherwise."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    try:
        with open("/proc/self/maps", "rb") as f:
            maps = f.read()
    except OSError:
        maps = b""
    for name in ("asan", "tsan"):
        runtime = b"lib" + name.encode() + b".so"
        if runtime in data and runtime not in maps:
            return name
    return None


def _installed_candidates(attribute: str) -> List[Path]:
    """The library of ``meson install`` (gts/_installed.py), if this package
    was installed that way: ``_installed.<attribute>`` in ``_installed.LIBDIR``
    (relative to the package's directory, or absolute)."""
    try:
        from . import _installed  # generated at install time only
    except ImportError:
        return []
    here = Path(__file__).resolve().parent
    return [Path(os.path.normpath(here / _installed.LIBDIR / getattr(_installed, attribute)))]


def _has_symbols(lib: ctypes.CDLL, names) -> bool:
    return all(hasattr(lib, n) for n in names)


def _try_paths(libname: str, symbols, paths: List[Path],
               tried: List[str]) -> Optional[Tuple[ctypes.CDLL, str]]:
    """The first of @paths that loads and is lib@libname; what failed into @tried."""
    for cand in paths:
        if not cand.is_file():
            tried.append(f"{cand} (no such file)")
            continue
        san = _sanitizer(str(cand))
        if san:
            tried.append(f"{cand} (built with {san}: skipped)")
            continue
        try:
            lib = ctypes.CDLL(str(cand))
        except OSError as e:
            tried.append(f"{cand} ({e})")
            continue
        if _has_symbols(lib, symbols):
            return lib, str(cand)
        tried.append(f"{cand} (not lib{libname})")
    return None


def _load(env: str, libname: str, symbols, installed: List[Path], extra: List[Path],
          hint: str) -> Tuple[ctypes.CDLL, str]:
    """Load a library by the discovery order above; ImportError if nothing fits."""
    tried: List[str] = []
    path = os.environ.get(env)
    if path:
        san = _sanitizer(path)
        if san:
            what = "AddressSanitizer" if san == "asan" else "ThreadSanitizer"
            raise ImportError(
                f"{env}={path!r} is built with {what} and cannot be loaded into this "
                f"python; preload the runtime "
                f"(LD_PRELOAD=$(cc -print-file-name=lib{san}.so)) or use a build without "
                "sanitizers.")
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            raise ImportError(
                f"{env}={path!r} could not be loaded ({e}). Set {env} to the path of "
                f"lib{libname}.so (for example {hint}) or unset it to search the "
                f"installed library and the build tree.") from None
        if not _has_symbols(lib, symbols):
            raise ImportError(f"{env}={path!r} is not lib{libname} (missing {symbols[0]}).")
        return lib, path
    hit = _try_paths(libname, symbols, installed, tried)
    if hit:
        return hit
    found = ctypes.util.find_library(libname)
    if found:
        try:
            lib = ctypes.CDLL(found)
            if _has_symbols(lib, symbols):
                return lib, found
            tried.append(f"{found} (installed, but not this library)")
        except OSError as e:
            tried.append(f"{found} ({e})")
    else:
        tried.append(f"find_library({libname!r}): not installed")
    hit = _try_paths(libname, symbols, [c for c in extra if c.is_file()], tried)
    if hit:
        return hit
    if not installed:
        tried.append("no gts/_installed.py (this package was not installed by meson)")
    raise ImportError(
        f"lib{libname} not found. Point the gts package at it in one of these ways: "
        f"(1) set {env} to the path of lib{libname}.so (for example {env}={hint} in a "
        f"source tree after `meson setup build && ninja -C build`); "
        f"(2) install libgts and this package together with `meson install` (the "
        f"package goes to the prefix's site-packages, `pkg-config --variable=pythondir "
        f"gts`, and records where the library is); "
        f"(3) make the dynamic loader find lib{libname}.so: LD_LIBRARY_PATH=<libdir>, or "
        f"an install into a system library directory followed by ldconfig; "
        f"(4) use the package from a source checkout (PYTHONPATH=bindings/python) with "
        f"build/lib/libgts.so built. See doc/python.md, \"Finding the libraries\". "
        f"Tried: " + "; ".join(tried))


_OPTIONAL_SYMBOLS = ("gts_version_string", "gts_engine_hashfull", "gts_probcut_defaults",
                     "gts_option_name", "gts_option_list",
                     "gts_engine_set_probcut", "gts_engine_get_probcut",
                     "gts_probcut_calibrate", "gts_engine_last_error")


def _declare_core(lib: ctypes.CDLL) -> None:
    P = c_void_p
    protos = {
        "gts_version": (c_uint, []),
        "gts_version_string": (c_char_p, []),
        "gts_strerror": (c_char_p, [c_int]),
        "gts_status_name": (c_char_p, [c_int]),
        "gts_engine_new": (c_int, [POINTER(c_void_p)]),
        "gts_engine_free": (None, [P]),
        "gts_engine_set": (c_int, [P, c_int, c_int64]),
        "gts_engine_get": (c_int, [P, c_int, POINTER(c_int64)]),
        "gts_option_bounds": (c_int, [c_int, POINTER(c_int64), POINTER(c_int64),
                                      POINTER(c_int64)]),
        "gts_option_name": (c_char_p, [c_int]),
        "gts_option_list": (c_int, [POINTER(c_int), c_int]),
        "gts_engine_clear": (c_int, [P]),
        "gts_engine_stop": (None, [P]),
        "gts_engine_hashfull": (c_int, [P]),
        "gts_engine_last_error": (c_char_p, [P]),
        "gts_algorithm_name": (c_char_p, [c_int]),
        "gts_algorithm_from_name": (c_int, [c_char_p, POINTER(c_int)]),
        "gts_algorithm_is_exact": (c_bool, [c_int]),
        "gts_algorithm_is_parallel": (c_bool, [c_int]),
        "gts_algorithm_list": (c_int, [POINTER(c_int), c_int]),
        "gts_search": (c_int, [P, c_int, P, P, POINTER(LimitsStruct), POINTER(ResultStruct)]),
        # probcut.h (optional: newer libraries)
        "gts_probcut_defaults": (c_int, [POINTER(ProbcutParamsStruct)]),
        "gts_engine_set_probcut": (c_int, [P, POINTER(ProbcutParamsStruct)]),
        "gts_engine_get_probcut": (c_int, [P, POINTER(ProbcutParamsStruct)]),
        "gts_probcut_calibrate": (c_int, [P, P, POINTER(c_void_p), c_size_t, P, c_uint32,
                                          c_uint64, c_uint32, c_int32, c_int32,
                                          POINTER(ProbcutFitStruct)]),
    }
    for name, (restype, argtypes) in protos.items():
        fn = getattr(lib, name, None)
        if fn is None:
            if name in _OPTIONAL_SYMBOLS:
                continue
            raise ImportError(f"libgts at {LIB_PATH} lacks {name}: too old for this binding")
        fn.restype = restype
        fn.argtypes = argtypes


def entry_point(name: str):
    """The named C entry point gts_<name>, prototyped, or None if not exported."""
    fn = getattr(lib, "gts_" + name, None)
    if fn is None:
        return None
    fn.restype = c_int
    fn.argtypes = [c_void_p, c_void_p, c_void_p, POINTER(LimitsStruct), POINTER(ResultStruct)]
    return fn


lib, LIB_PATH = _load("GTS_LIBRARY", "gts", _CORE_SYMBOLS, _installed_candidates("LIBGTS"),
                      _build_tree_candidates("lib/libgts.so"), "build/lib/libgts.so")
_declare_core(lib)

class MctsMoveStatsStruct(Structure):
    """gts_mcts_move_stats (mcts.h)."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("move", c_uint64),
        ("visits", c_uint64),
        ("mean", ctypes.c_double),
        ("prior", ctypes.c_double),
        ("score", c_int32),
        ("lower", c_int32),
        ("upper", c_int32),
        ("amaf_visits", c_uint64),
        ("amaf_mean", ctypes.c_double),
    ]


class EvalBatchStruct(Structure):
    """gts_eval_batch (mcts.h, since 0.3): one call of a batch evaluator."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("n", c_uint32),
        ("states", ctypes.POINTER(c_void_p)),
        ("offsets", ctypes.POINTER(c_uint32)),
        ("moves", ctypes.POINTER(c_uint64)),
        ("values", ctypes.POINTER(ctypes.c_float)),
        ("priors", ctypes.POINTER(ctypes.c_float)),
    ]


EVAL_BATCH_FN = CFUNCTYPE(c_int, ctypes.POINTER(EvalBatchStruct), c_void_p)


class EvaluatorStruct(Structure):
    """gts_evaluator (mcts.h, since 0.3)."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("evaluate", EVAL_BATCH_FN),
        ("ctx", c_void_p),
    ]


#: gts_struct_id of gts_evaluator; checked when an evaluator is first set
#: (a 0.2 library has none, and the rest of the binding works with it).
STRUCT_EVALUATOR = 10

# gts_struct_id values and the mirrors they must match.
STRUCT_MIRRORS = ((1, GameStruct), (2, LimitsStruct), (3, ResultStruct),
                  (4, ProbcutParamsStruct), (5, ProbcutFitStruct), (7, MctsMoveStatsStruct))


def check_mirrors(mirrors) -> None:
    """ImportError unless every mirror (gts_struct_id, ctypes class) has the
    loaded library's size. Modules with mirrors of their own (checker.py)
    call it for theirs at import."""
    size_of = getattr(lib, "gts_struct_size", None)
    if size_of is None:
        raise ImportError(f"libgts at {LIB_PATH} lacks gts_struct_size: too old for this "
                          "binding")
    size_of.restype = c_size_t
    size_of.argtypes = [c_int]
    for ident, cls in mirrors:
        want, have = size_of(ident), ctypes.sizeof(cls)
        if want != have:
            raise ImportError(f"libgts at {LIB_PATH} has a {want}-byte {cls.__name__[:-6]} "
                              f"struct; this binding mirrors {have} bytes: a binding and "
                              "library from different versions")


check_mirrors(STRUCT_MIRRORS)



def _library_options() -> None:
    """Take the option names from the library itself when it can list them
    (gts_option_list, libgts >= 0.1), so new options appear without a
    binding update; the table above is the fallback."""
    if getattr(lib, "gts_option_list", None) is None:
        return
    n = lib.gts_option_list(None, 0)
    values = (c_int * n)()
    lib.gts_option_list(values, n)
    names = {}
    for v in values:
        name = lib.gts_option_name(v)
        if name:
            names[name.decode()] = int(v)
    if names:
        OPTIONS.clear()
        OPTIONS.update(names)


_library_options()

#: Former option names still accepted (not listed): GTS_OPT_VIRTUAL was
#: "virtual_procs" before its name followed the rule (the enum name, lowercase).
OPTION_ALIASES = {"virtual_procs": "virtual"}

VERSION_HEX: int = lib.gts_version()
VERSION = (VERSION_HEX >> 16, (VERSION_HEX >> 8) & 0xFF, VERSION_HEX & 0xFF)
if VERSION[0] != ABI_MAJOR or (VERSION[0] == 0 and VERSION[1] < ABI_MIN_MINOR):
    raise ImportError(
        "libgts at %s is version %d.%d.%d; this binding needs %d.x (at least %d.%d). "
        "Point GTS_LIBRARY at a matching libgts.so."
        % (LIB_PATH, *VERSION, ABI_MAJOR, ABI_MAJOR, ABI_MIN_MINOR))

# ---- the games library (loaded on first use) ----------------------------------------

_games_lock = threading.Lock()
_games_lib: Optional[ctypes.CDLL] = None
GAMES_LIB_PATH: Optional[str] = None


def _games_candidates() -> List[Path]:
    cands = []
    core = Path(LIB_PATH)
    if core.is_absolute() or os.sep in LIB_PATH:
        d = core.resolve().parent
        cands += [d.parent / "examples" / "games" / "libgts-games.so", d / "libgts-games.so"]
    return cands + _build_tree_candidates("examples/games/libgts-games.so")


def _declare_games(g: ctypes.CDLL) -> None:
    GP = POINTER(GameStruct)
    protos = {
        "gts_game_tictactoe": (GP, []),
        "gts_tictactoe_new": (c_int, [c_char_p, POINTER(c_void_p)]),
        "gts_game_connect4": (GP, []),
        "gts_game_connect4_solver": (GP, []),
        "gts_connect4_new": (c_int, [c_char_p, POINTER(c_void_p)]),
        "gts_game_othello": (GP, []),
        "gts_othello_new": (c_int, [c_char_p, POINTER(c_void_p)]),
        "gts_game_chess": (GP, []),
        "gts_chess_new": (c_int, [c_char_p, POINTER(c_void_p)]),
        "gts_chess_perft": (c_int, [c_void_p, c_int, POINTER(c_uint64)]),
        "gts_game_go": (GP, []),
        "gts_go_new": (c_int, [c_char_p, POINTER(c_void_p)]),
        "gts_go_area": (c_int, [c_void_p]),
        "gts_go_board": (c_int, [c_void_p, c_char_p, ctypes.c_size_t]),
        "gts_go_komi": (c_int, [c_void_p]),
        "gts_go_to_move": (c_int, [c_void_p]),
        "gts_game_randtree": (GP, []),
        "gts_randtree_new": (c_int, [POINTER(RandTreeParamsStruct), POINTER(c_void_p)]),
        "gts_games_free": (None, [GP, c_void_p]),
        "gts_games_find": (GP, [c_char_p]),
        "gts_games_perft": (c_int, [GP, c_void_p, c_int, POINTER(c_uint64)]),
        "gts_games_position_new": (c_int, [c_char_p, POINTER(RandTreeParamsStruct), c_char_p,
                                           POINTER(c_void_p), c_char_p, ctypes.c_size_t]),
        "gts_games_position_turn": (c_int, [c_char_p, POINTER(RandTreeParamsStruct), c_char_p,
                                            POINTER(c_int), POINTER(c_int)]),
    }
    for name, (restype, argtypes) in protos.items():
        fn = getattr(g, name, None)
        if fn is None:
            continue
        fn.restype = restype
        fn.argtypes = argtypes


def games_lib() -> ctypes.CDLL:
    """libgts-games, loaded on first use (ImportError if it cannot be found)."""
    global _games_lib, GAMES_LIB_PATH
    with _games_lock:
        if _games_lib is None:
            g, path = _load("GTS_GAMES_LIBRARY", "gts-games", _GAMES_SYMBOLS,
                            _installed_candidates("LIBGTS_GAMES"), _games_candidates(),
                            "build/examples/games/libgts-games.so")
            _declare_games(g)
            _games_lib, GAMES_LIB_PATH = g, path
        return _games_lib


def decode(b: Optional[bytes]) -> Optional[str]:
    return None if b is None else b.decode("utf-8", "replace")
