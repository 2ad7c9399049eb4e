"""Static declarations of the ``gts`` package for type checkers and IDEs.

The module builds part of its namespace at import time from the loaded
libgts: one search function per algorithm (``gts_algorithm_list``) and one
exception class per status code (``gts_status_name``). This stub declares
them as they are for the libgts this binding ships with.
``tests/test_stub.py`` checks that its names are exactly what the module
exports at run time; when the library gains an algorithm or a status, it
fails and prints the declarations to add here.
"""
from typing import Any, Callable, Optional, Sequence, Tuple, Union

from . import games as games
from .engine import OPTION_NAMES as OPTION_NAMES
from .engine import EXPERIMENTAL_OPTION_NAMES as EXPERIMENTAL_OPTION_NAMES
from .engine import AlgorithmInfo as AlgorithmInfo
from .engine import Engine as Engine
from .engine import MctsMoveStats as MctsMoveStats
from .engine import ProbcutFit as ProbcutFit
from .engine import ProbcutPair as ProbcutPair
from .engine import Result as Result
from .engine import algorithm_id as algorithm_id
from .engine import algorithms as algorithms
from .engine import option_bounds as option_bounds
from .engine import search as search
from .errors import STATUS_NAMES as STATUS_NAMES
from .errors import GtsError as GtsError
from .checker import CheckReport as CheckReport
from .checker import check as check
from .game import Game as Game
from .game import capabilities as capabilities
from .games import BuiltinGame

__version__: str

#: Version of the loaded libgts as (major, minor, patch).
LIBRARY_VERSION: Tuple[int, int, int]
#: Path (or name) of the loaded libgts.
LIBRARY_PATH: str

MAX_PLY: int
MAX_DEPTH: int
SCORE_INF: int
SCORE_WIN: int
SCORE_LOSS: int
SCORE_DECIDED: int
ROOT_WINDOW: int
ROOT_BISECT: int
ROOT_MTDF: int
MMA_REVERSE: int
MMA_MEAN: int
PROBCUT_MAX_PAIRS: int
PROBCUT_THRESHOLD_OFF: float

def library_version() -> str: ...
def score_win_in(plies: int) -> int: ...
def score_loss_in(plies: int) -> int: ...
def score_is_win(score: int) -> bool: ...
def score_is_loss(score: int) -> bool: ...
def score_plies_to_end(score: int) -> int: ...
def format_score(score: int) -> str: ...

# ---- one exception class per gts_status (generated from the library) ---------------

class InvalidArgument(GtsError, ValueError):
    """GTS_EINVAL (-1): invalid argument."""

class OutOfMemory(GtsError, MemoryError):
    """GTS_ENOMEM (-2): out of memory."""

class StructSizeError(GtsError):
    """GTS_ESTRUCT (-3): unsupported struct_size."""

class UnknownOption(GtsError, ValueError):
    """GTS_EOPTION (-4): unknown option."""

class OutOfRange(GtsError, ValueError):
    """GTS_ERANGE (-5): value out of range."""

class CallbackError(GtsError):
    """GTS_ECALLBACK (-6): a game callback reported an error."""

class TooManyMoves(GtsError):
    """GTS_EMOVES (-7): generate returned more moves than max_moves."""

class ScoreOutOfRange(GtsError):
    """GTS_ESCORE (-8): evaluate returned a score outside [LOSS, WIN]."""

class NotSupported(GtsError):
    """GTS_ENOTSUP (-9): operation not supported by this game or build."""

class Busy(GtsError, RuntimeError):
    """GTS_EBUSY (-10): engine is already searching."""

class ThreadError(GtsError, RuntimeError):
    """GTS_ETHREAD (-11): could not create a thread."""

class UnknownAlgorithm(GtsError, ValueError):
    """GTS_EALGORITHM (-12): unknown algorithm."""

class ParseError(GtsError, ValueError):
    """GTS_EPARSE (-13): could not parse input."""

# ---- one search function per algorithm (generated from the library) ----------------
# Each searches ``game`` with the C entry point gts_<name> on a temporary engine
# made with ``options`` (or on ``engine``), like ``search(game, "<name>", ...)``.

_AnyGame = Union[Game, BuiltinGame]
_Option = Union[int, bool, None]

def minimax(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_minimax (exact)."""

def alphabeta(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_alphabeta (exact)."""

def pvs(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_pvs (exact)."""

def mtdf(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_mtdf (exact)."""

def negacstar(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_negacstar (exact)."""

def sssstar(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_sssstar (exact)."""

def dualstar(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_dualstar (exact)."""

def er(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_er (exact)."""

def probcut(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_probcut (selective)."""

def sssstar_stockman(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_sssstar_stockman (exact)."""

def er_parallel(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_er_parallel (exact; parallel: threads=N, needs clone())."""

def jamboree(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_jamboree (exact; parallel: threads=N, needs clone())."""

def dts(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_dts (exact; parallel: threads=N, needs clone())."""

def ybwc(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_ybwc (exact; parallel: threads=N, needs clone())."""

def pvsplit(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_pvsplit (exact; parallel: threads=N, needs clone())."""

def abdada(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_abdada (exact; parallel: threads=N, needs clone())."""

def lazysmp(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_lazysmp (exact; parallel: threads=N, needs clone())."""

def rootsplit(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_rootsplit (exact; parallel: threads=N, needs clone())."""

def mcts(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_mcts (selective; parallel: threads=N, needs clone())."""

def bstar(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_bstar (selective)."""

def mma(
    game: _AnyGame, *, depth: Optional[int] = ..., time_ms: Optional[float] = ...,
    nodes: Optional[int] = ..., alpha: Optional[int] = ..., beta: Optional[int] = ...,
    guess: Optional[int] = ..., on_iteration: Optional[Callable[[Result], Any]] = ...,
    history: Optional[Sequence[int]] = ..., engine: Optional[Engine] = ..., **options: _Option,
) -> Result:
    """Search with gts_mma (selective)."""
