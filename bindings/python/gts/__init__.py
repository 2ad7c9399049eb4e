"""gts: Python bindings of libgts, a game tree search library (pure ctypes).

Quick start::

    import gts
    print(gts.alphabeta(gts.games.TicTacToe(), depth=9).score)      # 0: a draw

    with gts.Engine(tt_mb=64, threads=2) as engine:
        r = engine.search(gts.games.Connect4("4453"), "pvs", depth=12)
        print(r.score, r.best_move, r.pv, r.nodes)

A game written in Python subclasses :class:`gts.Game` (generate, apply,
undo, evaluate, max_moves; optional hash, clone, noisy, move_score, extend,
format_move, parse_move). Built-in C games live in :mod:`gts.games`.

There is one module-level function per search algorithm of the loaded
library (``gts.minimax``, ``gts.alphabeta``, ``gts.pvs``, ``gts.mtdf``,
``gts.dts``...), generated from the library's own list: see
:func:`gts.algorithms`. Each accepts the keywords of :meth:`Engine.search`
and of :class:`Engine` (``gts.dts(game, depth=8, threads=2)``). The stub
``__init__.pyi`` declares them, and the generated exception classes, for
type checkers and IDEs.

Failures raise :class:`gts.GtsError` subclasses (one per libgts status:
``gts.InvalidArgument``, ``gts.NotSupported``, ``gts.CallbackError``...),
except that an exception raised by a Python game callback is re-raised
as is from the search call.

A search on the main thread defers Ctrl-C (SIGINT) until it has returned
with every state restored, then raises KeyboardInterrupt: see
:meth:`Engine.search`.

The shared libraries are found through ``GTS_LIBRARY`` /
``GTS_GAMES_LIBRARY``, an installed libgts, or a development build tree.
"""
from . import _lib
from ._lib import (
    MAX_DEPTH,
    MAX_PLY,
    MMA_MEAN,
    MMA_REVERSE,
    PROBCUT_MAX_PAIRS,
    PROBCUT_THRESHOLD_OFF,
    ROOT_BISECT,
    ROOT_MTDF,
    ROOT_WINDOW,
    SCORE_DECIDED,
    SCORE_INF,
    SCORE_LOSS,
    SCORE_WIN,
)
from .engine import (
    EXPERIMENTAL_OPTION_NAMES,
    OPTION_NAMES,
    AlgorithmInfo,
    Engine,
    EvalBatch,
    MctsMoveStats,
    ProbcutFit,
    ProbcutPair,
    Result,
    algorithm_id,
    algorithms,
    option_bounds,
    search,
    shortcuts as _shortcuts,
)
from .errors import ERROR_CLASSES as _ERROR_CLASSES
from .errors import STATUS_NAMES, GtsError
from .game import Game, capabilities
from .checker import CheckReport, check
from . import games

__version__ = "0.3.0"

#: Version of the loaded libgts as (major, minor, patch).
LIBRARY_VERSION = _lib.VERSION
#: Path (or name) of the loaded libgts.
LIBRARY_PATH = _lib.LIB_PATH


def library_version() -> str:
    """Version string of the loaded libgts ("0.3.0")."""
    fn = getattr(_lib.lib, "gts_version_string", None)
    return _lib.decode(fn()) if fn else "%d.%d.%d" % _lib.VERSION


# ---- score helpers (the inline functions of common.h) -------------------------------

def score_win_in(plies: int) -> int:
    """Win for the side to move in ``plies`` further plies."""
    return SCORE_WIN - plies


def score_loss_in(plies: int) -> int:
    """Loss for the side to move in ``plies`` further plies."""
    return SCORE_LOSS + plies


def score_is_win(score: int) -> bool:
    """True for a decided winning score."""
    return score >= SCORE_DECIDED


def score_is_loss(score: int) -> bool:
    """True for a decided losing score."""
    return score <= -SCORE_DECIDED


def score_plies_to_end(score: int) -> int:
    """Plies to the end of the game for a decided score (-1 if not decided)."""
    if score_is_win(score):
        return SCORE_WIN - score
    if score_is_loss(score):
        return score - SCORE_LOSS
    return -1


def format_score(score: int) -> str:
    """"win in 3" / "loss in 4" for decided scores, else the number."""
    if score_is_win(score):
        return f"win in {score_plies_to_end(score)}"
    if score_is_loss(score):
        return f"loss in {score_plies_to_end(score)}"
    return str(score)


# Everything public is listed here, and declared in __init__.pyi (the generated
# names included): tests/test_stub.py checks that the three agree.
__all__ = [
    "CheckReport",
    "EvalBatch",
    "MctsMoveStats",
    "check",
    "Game", "Engine", "Result", "AlgorithmInfo", "ProbcutPair", "ProbcutFit", "GtsError",
    "games", "PROBCUT_MAX_PAIRS", "PROBCUT_THRESHOLD_OFF", "ROOT_WINDOW", "ROOT_BISECT",
    "ROOT_MTDF", "MMA_REVERSE", "MMA_MEAN",
    "algorithms", "algorithm_id", "search", "option_bounds", "capabilities",
    "library_version", "LIBRARY_VERSION", "LIBRARY_PATH", "OPTION_NAMES",
    "EXPERIMENTAL_OPTION_NAMES", "STATUS_NAMES",
    "MAX_PLY", "MAX_DEPTH", "SCORE_INF", "SCORE_WIN", "SCORE_LOSS", "SCORE_DECIDED",
    "score_win_in", "score_loss_in", "score_is_win", "score_is_loss", "score_plies_to_end",
    "format_score",
]

# One exception class per status code of the library.
globals().update(_ERROR_CLASSES)
__all__ += sorted(_ERROR_CLASSES)

# One function per algorithm of the library: gts.alphabeta, gts.pvs, ...
for _name, _fn in _shortcuts().items():
    if _name not in globals():
        globals()[_name] = _fn
        __all__.append(_name)
del _name, _fn
