"""Games written in Python: the :class:`Game` base class and the C callback
trampolines that let libgts search them.

How a Python game reaches C
---------------------------
For each search the binding builds a ``gts_game`` vtable whose callbacks are
a fixed set of module-level trampolines (created once). The vtable's
``user`` pointer is the id of a per-search :class:`_SearchContext`; the
``state`` pointer of every callback is a small integer *handle* into that
context's registry of Python objects: handle 1 is the caller's game object,
and ``clone`` (parallel algorithms) registers a copy under a new handle that
``free`` releases. The context holds every object alive for the whole
search and drops them at the end.

Errors
------
A callback never lets an exception escape into C (ctypes would print and
ignore it). It stores the first exception of the search in the context
(thread-safe: parallel algorithms call back from worker threads) and
returns the C error value (a negative count, ``GTS_SCORE_INVALID``, NULL),
so the library unwinds, undoing what it applied, and returns an error. The
search call then re-raises the stored, original exception with its
traceback. Callbacks without an error channel in C (``hash``,
``move_score``) stop the search with ``gts_engine_stop`` instead; ``free``
only records. A result of the wrong type or range is turned into a
``TypeError`` / ``ValueError`` that names the method.

This holds for exceptions raised by the game's own code. An exception raised
by a signal handler could land anywhere, even before a trampoline's ``try:``
or between a method's side effect and its return, where no bookkeeping can
follow it; so a search on the main thread defers SIGINT until it has
returned (engine.py, "Ctrl-C (SIGINT) during a search").
"""
from __future__ import annotations

import abc
import ctypes
import itertools
import operator
import threading
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _lib
from ._lib import SCORE_LOSS, SCORE_WIN

__all__ = ["Game"]

_MASK64 = 2 ** 64 - 1
_INT32_MIN, _INT32_MAX = -2 ** 31, 2 ** 31 - 1


class Game(abc.ABC):
    """Base class of a game written in Python; an instance is a game state.

    Subclasses implement the four required methods and set ``max_moves``.
    The search mutates the instance through :meth:`apply` / :meth:`undo`
    and always leaves it as it found it. Moves are Python ints in
    ``0 .. 2**64-1``; the library never interprets them.

    The optional methods below are used only when a subclass overrides
    them: :meth:`hash` enables the transposition table, :meth:`clone` makes
    the game usable by parallel algorithms, :meth:`noisy` enables
    quiescence search, :meth:`move_score` and :meth:`extend` guide the
    search. :meth:`format_move` / :meth:`parse_move` have Python defaults
    (``str`` / ``int``) for the command line and examples.
    """

    #: Most moves :meth:`generate` can ever return (1..65535). May also be
    #: an instance attribute.
    max_moves: int = 0

    #: Class attribute: True declares that results are scored by distance
    #: and unfinished positions evaluate to 0 (``GTS_TRAIT_DISTANCE_SCORES``
    #: in include/gts/game.h): a win in fewer plies scores strictly more
    #: than every win in more plies, a loss in fewer strictly less, a draw
    #: 0. Iterative deepening of the exact algorithms then stops at the
    #: first depth whose exact value is not 0 (also the ``deepen_nodes``
    #: prelude). A game that says so without keeping it gets wrong values.
    distance_scores: bool = False

    #: Class attribute: True declares that a position repeating an earlier
    #: one (equal :meth:`hash`) is a draw (``GTS_TRAIT_REPETITION_DRAW``,
    #: since 0.3): the alpha-beta family scores it so, with the engine's
    #: ``contempt``, against the line searched and ``history=`` of the search
    #: (the keys of the positions before the root). Needs :meth:`hash`.
    repetition_draw: bool = False

    # ---- required -----------------------------------------------------------
    @abc.abstractmethod
    def generate(self) -> List[int]:
        """Legal moves of this state as a list of ints (at most
        ``max_moves``), in a deterministic order; ``[]`` when the game is
        over."""

    @abc.abstractmethod
    def apply(self, move: int) -> None:
        """Play ``move`` (one of :meth:`generate`'s). Raise to report an error."""

    @abc.abstractmethod
    def undo(self, move: int) -> None:
        """Take back ``move``, the last move applied."""

    @abc.abstractmethod
    def evaluate(self) -> int:
        """Static value from the side to move, in [SCORE_LOSS, SCORE_WIN].
        A finished game returns ``gts.SCORE_WIN`` / ``gts.SCORE_LOSS`` (the
        library prefers faster wins) or any exact game score."""

    # ---- optional (used when overridden) -------------------------------------
    def hash(self) -> int:
        """64-bit key of the state, side to move included; equal keys must
        mean equal positions. Enables the transposition table."""
        raise NotImplementedError

    def clone(self) -> "Game":
        """An independent deep copy of this state (needed by parallel
        algorithms: each worker thread searches its own copy)."""
        raise NotImplementedError

    def noisy(self) -> List[int]:
        """The "noisy" moves searched by quiescence at depth 0 (captures)."""
        raise NotImplementedError

    def move_score(self, move: int) -> int:
        """Ordering hint for ``move``: higher is searched first (int32)."""
        raise NotImplementedError

    def extend(self, move: int) -> int:
        """Plies (>= 0) to extend the search of ``move``, before it is played.
        Must be deterministic."""
        raise NotImplementedError

    def bounds(self) -> Tuple[int, int]:
        """A sound range ``(lo, hi)`` of the values a search of this state
        can return, at any depth of one ply or more (and so of its exact
        value), node-relative, in [SCORE_LOSS, SCORE_WIN] with lo <= hi.
        Exact algorithms narrow their windows with it at every node; the
        root drivers (``root_driver`` option) start from it. See
        ``gts_game::bounds`` in include/gts/game.h."""
        raise NotImplementedError

    def format_move(self, move: int) -> str:
        """Text form of ``move`` (default: ``str(move)``)."""
        return str(move)

    def parse_move(self, text: str) -> int:
        """Move of ``text`` (default: ``int(text)``); raise ValueError if invalid."""
        return int(text)


_OPTIONAL = ("hash", "clone", "noisy", "move_score", "extend", "bounds", "format_move",
             "parse_move")


def overridden(cls: type, name: str) -> bool:
    """True when ``cls`` provides its own ``name`` instead of Game's."""
    return getattr(cls, name, None) is not getattr(Game, name)


def check_int(value: Any, what: str) -> int:
    """``value`` as an int, or TypeError naming ``what``."""
    if type(value) is int:
        return value
    if isinstance(value, (float, complex, str, bytes)) or value is None:
        raise TypeError(f"{what} must be an int, not {type(value).__name__} ({value!r})")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an int, not {type(value).__name__} ({value!r})") from None


def check_max_moves(game: Game) -> int:
    mm = getattr(game, "max_moves", None)
    try:
        mm = check_int(mm, f"{type(game).__name__}.max_moves")
    except TypeError:
        raise TypeError(f"{type(game).__name__}.max_moves must be set to an int in "
                        f"1..{_lib.MAX_MOVES_LIMIT} (got {mm!r})") from None
    if not 1 <= mm <= _lib.MAX_MOVES_LIMIT:
        raise ValueError(f"{type(game).__name__}.max_moves must be in 1..{_lib.MAX_MOVES_LIMIT}, "
                         f"not {mm}")
    return mm


def check_moves(moves: Any, game: Game, method: str, limit: int) -> Sequence[int]:
    """Validate a move list returned by generate()/noisy()."""
    if type(moves) is not list and not isinstance(moves, (list, tuple)):
        raise TypeError(f"{type(game).__name__}.{method}() must return a list of int moves, "
                        f"not {type(moves).__name__}")
    n = len(moves)
    if n > limit:
        raise ValueError(f"{type(game).__name__}.{method}() returned {n} moves, more than "
                         f"max_moves={limit}")
    converted = None
    for i, m in enumerate(moves):
        if type(m) is not int:
            m = check_int(m, f"a move returned by {type(game).__name__}.{method}()")
            if converted is None:
                converted = list(moves)
            converted[i] = m
        if m < 0 or m > _MASK64:
            raise ValueError(f"{type(game).__name__}.{method}() returned move {m}, outside "
                             f"0..2**64-1")
    return moves if converted is None else converted


def check_score(value: Any, game: Game, method: str = "evaluate") -> int:
    if isinstance(value, bool):
        raise TypeError(f"{type(game).__name__}.{method}() returned {value!r}: a bool is not "
                        "a score; return an int")
    if type(value) is not int:
        value = check_int(value, f"the result of {type(game).__name__}.{method}()")
    if value < SCORE_LOSS or value > SCORE_WIN:
        raise ValueError(f"{type(game).__name__}.{method}() returned {value}, outside "
                         f"[SCORE_LOSS, SCORE_WIN] = [{SCORE_LOSS}, {SCORE_WIN}]")
    return value


# ---- per-search context ---------------------------------------------------------

_contexts: Dict[int, "_SearchContext"] = {}
_context_ids = itertools.count(1)
_move_arrays: Dict[int, type] = {}


def _moves_array(address: int, capacity: int):
    t = _move_arrays.get(capacity)
    if t is None:
        t = _move_arrays[capacity] = ctypes.c_uint64 * capacity
    return t.from_address(address)


class _SearchContext:
    """Everything one search needs on the Python side: the objects behind
    the state handles, the vtable, the first error, the engine to stop."""

    def __init__(self, engine_ptr: Optional[int], game: Optional[Game] = None):
        self.id = next(_context_ids)
        self.engine_ptr = engine_ptr
        self.error: Optional[BaseException] = None
        self._lock = threading.Lock()
        self.game = game
        self.states: Dict[int, Game] = {}
        self.vtable = None
        self.on_iteration = None
        self.algorithm = ""
        # gts.check(): the contract violations the C checker finds itself
        # (a score out of range, more moves than max_moves) go down to it
        # instead of failing the callback, so that it writes its report.
        self.checking = False
        self.started = 0.0
        # an _InterruptGuard: once it is interrupted, generate() fails (for
        # calibration, which goes on with the next sample after a stop)
        self.abort_on: Any = None
        if game is not None:
            self.max_moves = check_max_moves(game)
            self.states[1] = game
            self._handles = itertools.count(2)
            self.vtable = _build_vtable(type(game), self.max_moves, self.id)
        _contexts[self.id] = self

    def fail(self, exc: BaseException) -> None:
        """Record the first error of the search (any thread)."""
        with self._lock:
            if self.error is None:
                self.error = exc

    def stop(self) -> None:
        if self.engine_ptr:
            _lib.lib.gts_engine_stop(self.engine_ptr)

    def register(self, obj: Game) -> int:
        h = next(self._handles)
        self.states[h] = obj
        return h

    def close(self) -> None:
        _contexts.pop(self.id, None)
        self.states.clear()


# ---- trampolines ----------------------------------------------------------------
# Each one: find the context (user) and the object (state), call the method,
# validate, write the C result; on any exception record it and return the C
# error value. They must never raise.

def _cb_generate(state, moves, capacity, user):
    ctx = _contexts.get(user)
    if ctx is None:
        return -1
    if ctx.abort_on is not None and ctx.abort_on.interrupted:
        return -1
    try:
        obj = ctx.states[state]
        return _write_moves(ctx, obj, obj.generate(), "generate", moves, capacity)
    except BaseException as e:  # noqa: BLE001 - must not escape into C
        ctx.fail(e)
        return -1


def _write_moves(ctx, obj, raw, method, moves, capacity) -> int:
    """Validate and write a move list; the count. For gts.check(), a list
    longer than the room is cut to it and its full count returned: the C
    checker reports GENERATE_OVERFLOW as for a C adapter."""
    limit = min(capacity, ctx.max_moves)
    if ctx.checking:
        ms = check_moves(raw, obj, method, _MASK64)
        n = len(ms)
        if n > limit:
            _moves_array(moves, capacity)[:] = ms[:capacity]
            return min(n, _INT32_MAX)
    else:
        ms = check_moves(raw, obj, method, limit)
        n = len(ms)
    if n:
        _moves_array(moves, n)[:] = ms
    return n


def _cb_noisy(state, moves, capacity, user):
    ctx = _contexts.get(user)
    if ctx is None:
        return -1
    try:
        obj = ctx.states[state]
        return _write_moves(ctx, obj, obj.noisy(), "noisy", moves, capacity)
    except BaseException as e:  # noqa: BLE001
        ctx.fail(e)
        return -1


def _cb_apply(state, move, user):
    ctx = _contexts.get(user)
    if ctx is None:
        return -1
    try:
        return _status(ctx.states[state].apply(move))
    except BaseException as e:  # noqa: BLE001
        ctx.fail(e)
        return -1


def _status(r: Any) -> int:
    """apply()/undo()'s return value as the C callback's: a negative int is
    a failure, as in C (the state must then be unchanged); anything else
    (None, the usual) is success."""
    if type(r) is int and r < 0:
        return r if r >= _INT32_MIN else -1
    return 0


def _cb_undo(state, move, user):
    ctx = _contexts.get(user)
    if ctx is None:
        return -1
    try:
        return _status(ctx.states[state].undo(move))
    except BaseException as e:  # noqa: BLE001
        ctx.fail(e)
        return -1


def _cb_evaluate(state, user):
    ctx = _contexts.get(user)
    if ctx is None:
        return _lib.SCORE_INVALID
    v = None
    try:
        obj = ctx.states[state]
        v = obj.evaluate()
        if type(v) is not int or v < SCORE_LOSS or v > SCORE_WIN:
            if ctx.checking and type(v) is int:
                # gts.check(): the C checker reports it (EVALUATE)
                return max(min(v, _INT32_MAX), _INT32_MIN + 1)
            v = check_score(v, obj)
        return v
    except BaseException as e:  # noqa: BLE001
        ctx.fail(e)
        # An int out of range goes back as is, so that the library reports
        # GTS_ESCORE; anything else is a failed callback.
        if type(v) is int and _INT32_MIN < v <= _INT32_MAX:
            return v
        return _lib.SCORE_INVALID


def _cb_hash(state, user):
    ctx = _contexts.get(user)
    if ctx is None:
        return 0
    try:
        obj = ctx.states[state]
        h = obj.hash()
        if type(h) is not int:
            h = check_int(h, f"the result of {type(obj).__name__}.hash()")
        return h & _MASK64
    except BaseException as e:  # noqa: BLE001 - no error channel: stop the search
        ctx.fail(e)
        ctx.stop()
        return 0


def _cb_clone(state, user):
    ctx = _contexts.get(user)
    if ctx is None:
        return None
    try:
        obj = ctx.states[state]
        copy = obj.clone()
        if not isinstance(copy, Game):
            raise TypeError(f"{type(obj).__name__}.clone() must return a gts.Game, "
                            f"not {type(copy).__name__}")
        if copy is obj:
            raise ValueError(f"{type(obj).__name__}.clone() returned the same object; "
                             "it must return an independent copy")
        return ctx.register(copy)
    except BaseException as e:  # noqa: BLE001
        ctx.fail(e)
        return None


def _cb_free(state, user):
    ctx = _contexts.get(user)
    if ctx is None:
        return
    try:
        if state != 1:
            ctx.states.pop(state, None)
    except BaseException as e:  # noqa: BLE001
        ctx.fail(e)


def _cb_move_score(state, move, user):
    ctx = _contexts.get(user)
    if ctx is None:
        return 0
    try:
        obj = ctx.states[state]
        v = obj.move_score(move)
        if type(v) is not int:
            v = check_int(v, f"the result of {type(obj).__name__}.move_score()")
        if not -2 ** 31 <= v < 2 ** 31:
            raise ValueError(f"{type(obj).__name__}.move_score() returned {v}, outside int32")
        return v
    except BaseException as e:  # noqa: BLE001 - no error channel: stop the search
        ctx.fail(e)
        ctx.stop()
        return 0


def _cb_extend(state, move, user):
    ctx = _contexts.get(user)
    if ctx is None:
        return -1
    try:
        obj = ctx.states[state]
        v = obj.extend(move)
        if type(v) is not int:
            v = check_int(v, f"the result of {type(obj).__name__}.extend()")
        if not 0 <= v <= _lib.MAX_PLY:
            raise ValueError(f"{type(obj).__name__}.extend() returned {v}, outside "
                             f"0..{_lib.MAX_PLY}")
        return v
    except BaseException as e:  # noqa: BLE001
        ctx.fail(e)
        return -1


def _cb_bounds(state, lo_out, hi_out, user):
    ctx = _contexts.get(user)
    if ctx is None:
        return -1
    try:
        obj = ctx.states[state]
        r = obj.bounds()
        name = type(obj).__name__
        if not isinstance(r, tuple) or len(r) != 2:
            raise TypeError(f"{name}.bounds() must return a tuple (lo, hi), "
                            f"not {type(r).__name__}")
        lo = check_int(r[0], f"the lower end of {name}.bounds()")
        hi = check_int(r[1], f"the upper end of {name}.bounds()")
        if not SCORE_LOSS <= lo <= hi <= SCORE_WIN:
            raise ValueError(f"{name}.bounds() returned ({lo}, {hi}): not a range "
                             f"inside [{SCORE_LOSS}, {SCORE_WIN}]")
        lo_out[0] = lo
        hi_out[0] = hi
        return 0
    except BaseException as e:  # noqa: BLE001
        ctx.fail(e)
        return -1


def _cb_format_move(state, move, buf, size, user):
    ctx = _contexts.get(user)
    if ctx is None:
        return -1
    try:
        obj = ctx.states[state]
        text = obj.format_move(move)
        if not isinstance(text, str):
            raise TypeError(f"{type(obj).__name__}.format_move() must return a str, "
                            f"not {type(text).__name__}")
        data = text.encode("utf-8")
        if len(data) + 1 > size:
            return -1
        ctypes.memmove(buf, data + b"\0", len(data) + 1)
        return len(data)
    except BaseException as e:  # noqa: BLE001
        ctx.fail(e)
        return -1


def _cb_parse_move(state, text, move_out, user):
    ctx = _contexts.get(user)
    if ctx is None:
        return -1
    try:
        obj = ctx.states[state]
        m = obj.parse_move(text.decode("utf-8", "replace"))
        m = check_int(m, f"the result of {type(obj).__name__}.parse_move()")
        if m < 0 or m > _MASK64:
            raise ValueError(f"{type(obj).__name__}.parse_move() returned {m}")
        move_out[0] = m
        return 0
    except ValueError:
        return -13  # GTS_EPARSE: bad text is not a search failure
    except BaseException as e:  # noqa: BLE001
        ctx.fail(e)
        return -1


_T = {
    "generate": _lib.GENERATE_FN(_cb_generate),
    "apply": _lib.APPLY_FN(_cb_apply),
    "undo": _lib.UNDO_FN(_cb_undo),
    "evaluate": _lib.EVALUATE_FN(_cb_evaluate),
    "hash": _lib.HASH_FN(_cb_hash),
    "clone": _lib.CLONE_FN(_cb_clone),
    "free": _lib.FREE_FN(_cb_free),
    "generate_noisy": _lib.GENERATE_FN(_cb_noisy),
    "move_score": _lib.MOVE_SCORE_FN(_cb_move_score),
    "extend": _lib.EXTEND_FN(_cb_extend),
    "format_move": _lib.FORMAT_MOVE_FN(_cb_format_move),
    "parse_move": _lib.PARSE_MOVE_FN(_cb_parse_move),
    "bounds": _lib.BOUNDS_FN(_cb_bounds),
}

# Python method -> vtable field(s) it enables.
_METHOD_FIELDS = {
    "hash": ("hash",),
    "clone": ("clone", "free"),
    "noisy": ("generate_noisy",),
    "move_score": ("move_score",),
    "extend": ("extend",),
    "bounds": ("bounds",),
    "format_move": ("format_move",),
    "parse_move": ("parse_move",),
}


def _build_vtable(cls: type, max_moves: int, user: int) -> _lib.GameStruct:
    for name in ("generate", "apply", "undo", "evaluate"):
        if getattr(cls, name, None) is None or getattr(getattr(cls, name), "__isabstractmethod__",
                                                       False):
            raise TypeError(f"{cls.__name__} must define {name}()")
    vt = _lib.new_struct(_lib.GameStruct)
    vt.max_moves = max_moves
    vt.generate = _T["generate"]
    vt.apply = _T["apply"]
    vt.undo = _T["undo"]
    vt.evaluate = _T["evaluate"]
    for method, fields in _METHOD_FIELDS.items():
        if overridden(cls, method):
            for f in fields:
                setattr(vt, f, _T[f])
    if getattr(cls, "distance_scores", False) is True:
        vt.traits |= _lib.TRAIT_DISTANCE_SCORES
    if getattr(cls, "repetition_draw", False) is True:
        vt.traits |= _lib.TRAIT_REPETITION_DRAW
    vt.user = user
    return vt


def capabilities(game: Game) -> Dict[str, bool]:
    """Which optional methods ``game`` provides (as the library will see them)."""
    return {name: overridden(type(game), name) for name in _OPTIONAL}


