"""The search engine, search results and the algorithm list.

An :class:`Engine` wraps one ``gts_engine``: its transposition table,
ordering tables and thread pool persist across searches. One engine runs
one search at a time; :meth:`Engine.stop` may be called from any thread.
The C search runs with the GIL released (ctypes.CDLL), so other Python
threads keep running, and Python game callbacks (which take the GIL back)
may come from the library's worker threads. A search from the main thread
defers Ctrl-C (SIGINT) until it has returned with every state restored (see
"Ctrl-C (SIGINT) during a search" below and :meth:`Engine.search`).
"""
from __future__ import annotations

import ctypes
import dataclasses
import os
import select
import signal
import threading
import time
from typing import (Any, Callable, Dict, FrozenSet, List, NamedTuple, Optional, Sequence, Tuple,
                    Union)

from . import _lib
from ._lib import LimitsStruct, ResultStruct, new_struct
from .errors import STATUS_NAMES as _errors_by_name
from .errors import error, make_error
from .game import Game, _contexts, _SearchContext, check_int

__all__ = ["Engine", "EvalBatch", "Result", "AlgorithmInfo", "ProbcutPair", "ProbcutFit",
           "algorithms", "algorithm_id", "search", "option_bounds", "OPTION_NAMES",
           "EXPERIMENTAL_OPTION_NAMES"]

#: Engine option names accepted by Engine(...), Engine.set() and Engine.get().
OPTION_NAMES = tuple(_lib.OPTIONS)

#: The experimental ones among them (C: GTS_EXPERIMENTAL_API): accepted like
#: the others, but their meaning, range or default may change in any minor
#: release (README "Versioning and ABI").
EXPERIMENTAL_OPTION_NAMES = tuple(n for n, v in _lib.OPTIONS.items()
                                  if v in _lib.EXPERIMENTAL_OPTION_VALUES)

#: Keyword arguments of a search (the rest of a shortcut's keywords are options).
SEARCH_KEYWORDS = ("depth", "time_ms", "nodes", "alpha", "beta", "guess", "on_iteration",
                   "history")

_UINT64_MAX = 2 ** 64 - 1
_UINT32_MAX = 2 ** 32 - 1
_INT32_MIN, _INT32_MAX = -2 ** 31, 2 ** 31 - 1

_err = error  # GtsError of a status by C name


def _check_range(value: Any, what: str, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..hi`` (the C type's range): TypeError or
    OutOfRange, never a value ctypes would silently wrap."""
    v = check_int(value, what)
    if not lo <= v <= hi:
        raise _err("ERANGE", f"{what}={v}, allowed {lo}..{hi}")
    return v


# ---- algorithms -------------------------------------------------------------------

class AlgorithmInfo(NamedTuple):
    """One search algorithm of the library."""

    name: str
    exact: bool
    parallel: bool


class ProbcutPair(NamedTuple):
    """One ProbCut check (gts_probcut_pair): at remaining depth
    ``deep_depth`` a search of ``shallow_depth`` predicts the deep value as
    ``a * v' + b`` with error ``sigma``; it cuts beyond ``threshold`` sigmas
    (``gts.PROBCUT_THRESHOLD_OFF`` disables the pair)."""

    shallow_depth: int
    deep_depth: int
    a: float = 1.0
    b: float = 0.0
    sigma: float = 100.0
    threshold: float = 1.5


@dataclasses.dataclass(frozen=True)
class MctsMoveStats:
    """One root move after an MCTS search (gts_mcts_move_stats): visits,
    mean reward in [0, 1], prior in [0, 1] (with an evaluator, its
    normalised prior after root noise), the move's score and its proven
    bounds (lower == upper: solved); with RAVE (``rave=k``) its
    all-moves-as-first count and mean (0 without)."""
    move: int
    visits: int
    mean: float
    prior: float
    score: int
    lower: int
    upper: int
    amaf_visits: int = 0
    amaf_mean: float = 0.0


class ProbcutFit(NamedTuple):
    """Least-squares fit of deep on shallow values (gts_probcut_fit)."""

    a: float
    b: float
    sigma: float
    r2: float
    samples: int
    skipped: int

    def pair(self, shallow_depth: int, deep_depth: int, threshold: float = 1.5) -> ProbcutPair:
        """The ProbcutPair of this fit."""
        return ProbcutPair(shallow_depth, deep_depth, self.a, self.b, self.sigma, threshold)


def _algorithm_table() -> List[Tuple[int, AlgorithmInfo]]:
    n = _lib.lib.gts_algorithm_list(None, 0)
    ids = (ctypes.c_int * max(n, 1))()
    n = min(n, _lib.lib.gts_algorithm_list(ids, n))
    table = []
    for i in range(n):
        a = ids[i]
        name = _lib.decode(_lib.lib.gts_algorithm_name(a))
        if name:
            table.append((a, AlgorithmInfo(name, bool(_lib.lib.gts_algorithm_is_exact(a)),
                                           bool(_lib.lib.gts_algorithm_is_parallel(a)))))
    return table


_ALGORITHMS = _algorithm_table()
_ALG_BY_ID = {a: info for a, info in _ALGORITHMS}
_ALG_BY_NAME = {info.name: a for a, info in _ALGORITHMS}
_MCTS_ID = _ALG_BY_NAME.get("mcts", -1)


def algorithms() -> List[AlgorithmInfo]:
    """Every algorithm of the loaded library as (name, exact, parallel), in
    the library's order."""
    return [info for _, info in _ALGORITHMS]


def algorithm_id(algorithm: Union[str, int]) -> int:
    """The ``gts_algorithm`` value of a name ("pvs", "gts_pvs") or id."""
    if isinstance(algorithm, str):
        out = ctypes.c_int()
        rc = _lib.lib.gts_algorithm_from_name(algorithm.encode(), ctypes.byref(out))
        if rc < 0:
            raise make_error(rc, f"{algorithm!r}; known: {', '.join(_ALG_BY_NAME)}")
        return out.value
    a = check_int(algorithm, "algorithm")
    if a not in _ALG_BY_ID:
        raise _err("EALGORITHM", f"{a}; known: {', '.join(_ALG_BY_NAME)}")
    return a


def option_bounds(name: str) -> Tuple[int, int, int]:
    """(min, max, default) of an engine option."""
    opt = _option_id(name)
    lo, hi, df = ctypes.c_int64(), ctypes.c_int64(), ctypes.c_int64()
    rc = _lib.lib.gts_option_bounds(opt, ctypes.byref(lo), ctypes.byref(hi), ctypes.byref(df))
    if rc < 0:
        raise make_error(rc, name)
    return lo.value, hi.value, df.value


def _option_id(name: str) -> int:
    if not isinstance(name, str):
        raise TypeError(f"option name must be a str, not {type(name).__name__}")
    key = name.lower()
    opt = _lib.OPTIONS.get(_lib.OPTION_ALIASES.get(key, key))
    if opt is None:
        raise _err("EOPTION", f"{name!r}; known options: {', '.join(OPTION_NAMES)}")
    return opt


# ---- results -----------------------------------------------------------------------

@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class Result:
    """What a search found.

    ``score`` is from the side to move at the root; ``best_move`` is None
    at a finished root; ``pv`` the principal variation (``pv[0] ==
    best_move``); ``depth`` the last completed iteration; ``flags`` a set of
    ``"stopped"``, ``"node_limit"``, ``"time_limit"``, ``"lower_bound"``,
    ``"upper_bound"``, ``"memory_limit"`` (a best-first tree filled its
    ``tree_mb``), ``"tree_reused"`` (since 0.3: MCTS continued the tree
    kept by ``mcts_advance()``); ``stats`` a dict of counters (``tt_probes``,
    ``tt_hits``, ``tt_cutoffs``, ``nodes_mandatory``, ``nodes_speculative``,
    ``nodes_wasted``, ``threads``, ``thread_nodes``, ``callback_status``).
    A frozen dataclass: fields cannot be reassigned; results compare and
    hash by identity (``pv``, ``flags`` and ``stats`` make no useful key).
    """

    algorithm: str
    score: int
    best_move: Optional[int]
    pv: List[int]
    depth: int
    seldepth: int
    nodes: int
    time_s: float
    flags: FrozenSet[str]
    stats: Dict[str, Any]

    @classmethod
    def from_struct(cls, r: ResultStruct, algorithm: str = "",
                    elapsed: Optional[float] = None) -> "Result":
        """The Result of a filled ``gts_result``; ``elapsed`` (seconds) is
        the fallback when the library measured no time."""
        best_move = r.best_move if r.flags & _lib.RESULT_HAS_MOVE else None
        n = min(r.pv_length, _lib.MAX_PLY)
        nt = min(r.threads, r.thread_nodes_capacity) if r.thread_nodes else 0
        return cls(
            algorithm=algorithm,
            score=r.score,
            best_move=best_move,
            pv=list(r.pv[:n]) if best_move is not None else [],
            depth=r.depth,
            seldepth=r.seldepth,
            nodes=r.nodes,
            time_s=r.time_us / 1e6 if r.time_us or elapsed is None else elapsed,
            flags=frozenset(name for bit, name in _lib.RESULT_FLAG_NAMES if r.flags & bit),
            stats={
                "tt_probes": r.tt_probes,
                "tt_hits": r.tt_hits,
                "tt_cutoffs": r.tt_cutoffs,
                "nodes_mandatory": r.nodes_mandatory,
                "nodes_speculative": r.nodes_speculative,
                "nodes_wasted": r.nodes_wasted,
                "threads": r.threads,
                "thread_nodes": [r.thread_nodes[i] for i in range(nt)],
                "callback_status": r.callback_status,
            })

    @property
    def nps(self) -> float:
        """Nodes per second (0 when no time was measured)."""
        return self.nodes / self.time_s if self.time_s > 0 else 0.0

    @property
    def exact(self) -> bool:
        """True when the score is neither a lower nor an upper bound."""
        return not self.flags & {"lower_bound", "upper_bound"}

    def as_dict(self) -> Dict[str, Any]:
        """The fields as a plain dict (``flags`` as a sorted list), for JSON."""
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        d["flags"] = sorted(self.flags)
        return d

    def __repr__(self) -> str:
        fl = ",".join(sorted(self.flags))
        return (f"<Result {self.algorithm} score={self.score} best_move={self.best_move} "
                f"depth={self.depth} nodes={self.nodes} time={self.time_s:.3f}s"
                + (f" flags={fl}" if fl else "") + ">")


# ---- progress callback -----------------------------------------------------------------

def _cb_progress(result_ptr, user):
    ctx = _contexts.get(user)
    if ctx is None or ctx.on_iteration is None:
        return 0
    try:
        res = Result.from_struct(result_ptr.contents, ctx.algorithm,
                                  time.perf_counter() - ctx.started)
        return 1 if ctx.on_iteration(res) else 0
    except BaseException as e:  # noqa: BLE001 - must not escape into C
        ctx.fail(e)
        return 1


_PROGRESS = _lib.PROGRESS_FN(_cb_progress)


# ---- batch evaluators (MCTS with PUCT, gts_engine_set_evaluator) ------------------------

class EvalBatch:
    """The positions of one call of a batch evaluator (``gts_eval_batch``),
    valid only during the call. One ctypes crossing per batch: every array
    is the library's own memory, seen through ctypes arrays (which NumPy's
    ``numpy.ctypeslib.as_array`` maps without a copy).

    ``n``: positions. ``states``: for a :class:`gts.Game`, the Game
    objects; for a built-in game, the C state addresses (ints).
    ``offsets`` (n + 1 entries): position i's moves and priors are
    ``moves[offsets[i]:offsets[i + 1]]``, in generate() order.
    ``values`` (n floats, prefilled 0): write each position's value in
    [-1, 1] from its side to move. ``priors`` (one float per move,
    prefilled uniform): write non-negative weights (normalised by the
    library), or leave them for a uniform policy.
    """

    __slots__ = ("n", "offsets", "moves", "values", "priors", "_raw", "_ctx")

    def __init__(self, raw: Any, ctx: Optional[_SearchContext]) -> None:
        n = raw.n
        self.n = n
        self.offsets = (ctypes.c_uint32 * (n + 1)).from_address(
            ctypes.addressof(raw.offsets.contents))
        total = self.offsets[n]
        self.moves = (ctypes.c_uint64 * max(total, 1)).from_address(
            ctypes.addressof(raw.moves.contents))
        self.values = (ctypes.c_float * n).from_address(ctypes.addressof(raw.values.contents))
        self.priors = (ctypes.c_float * max(total, 1)).from_address(
            ctypes.addressof(raw.priors.contents))
        self._raw = raw
        self._ctx = ctx

    @property
    def states(self) -> List[Any]:
        addrs = (ctypes.c_void_p * self.n).from_address(
            ctypes.addressof(self._raw.states.contents))
        ctx = self._ctx
        if ctx is not None and ctx.game is not None:
            return [ctx.states[a] for a in addrs]
        return [a for a in addrs]

    def moves_of(self, i: int) -> List[int]:
        """Position ``i``'s moves, in generate() order."""
        return list(self.moves[self.offsets[i]:self.offsets[i + 1]])


# Engines with an evaluator, by the id passed as its context.
_evaluators: Dict[int, "Engine"] = {}
_evaluator_ids = iter(range(1, 2 ** 62))


def _cb_eval_batch(batch_ptr, user):
    engine = _evaluators.get(user or 0)
    ctx = engine._search_ctx if engine is not None else None
    if engine is None or engine._evaluate is None:
        return -1
    try:
        engine._evaluate(EvalBatch(batch_ptr.contents, ctx))
        return 0
    except BaseException as e:  # noqa: BLE001 - must not escape into C
        if ctx is not None:
            ctx.fail(e)
        return -1


_EVAL_BATCH = _lib.EVAL_BATCH_FN(_cb_eval_batch)


# ---- Ctrl-C (SIGINT) during a search ----------------------------------------------------
#
# Python runs signal handlers in the main thread between two bytecodes, so the
# default SIGINT handler could raise KeyboardInterrupt anywhere in a game
# callback: after apply's side effect but before the trampoline returns, inside
# undo, or before the trampoline's try: (ctypes then prints and swallows it, and
# the library takes the callback for a success). The library's view of the
# state and the state itself would part ways.
#
# So while a search runs on the main thread, SIGINT is deferred: _on_sigint,
# which never raises, replaces the handler; it marks the running searches as
# interrupted and stops them (gts_engine_stop: an atomic store, thread-safe).
# The library unwinds, undoing every move, the search call returns, the
# previous handler is put back and the signal raised again for it
# (signal.raise_signal): the default handler raises KeyboardInterrupt with the
# state restored; a program's own handler runs as it would have.
#
# Python handlers run only when the main thread executes bytecode, which it
# does not while it searches a C game or waits for the workers of a parallel
# search. So for the duration the signal wakeup fd (written by the C-level
# handler the moment a signal arrives, in whatever thread) is a pipe read by
# one watcher thread, which stops the searches at once and, while an
# interrupted one still runs, again every _RESTOP_S (a stop that lands just
# before the search took the engine is ignored by the library); _on_sigint
# wakes it as well, for a signal that came before the pipe was the wakeup fd.
# Bytes of other signals are forwarded to the wakeup fd set before. Reading the
# pipe and acting on it happen under _sigint_lock, and a guard empties the pipe
# when it takes it and when it gives it back, so a signal is never applied to
# the next search.
#
# Nested searches (a search from a callback of a search, on the main thread)
# share the outermost one's handler: an interrupt stops them all, the inner
# ones return their stopped results, the outermost delivers the signal.
# Searches on other threads are left alone: no handler can be installed from
# there, their callbacks never run signal handlers, and SIGINT reaches the main
# thread as usual (stop such a search with Engine.stop()).

_RESTOP_S = 0.02

_sigint_lock = threading.RLock()         # the handler may run inside a locked block
_sigint_guards: List["_InterruptGuard"] = []   # main-thread searches, innermost last
_sigint_forward_fd = -1                  # wakeup fd before the outermost guard
_sigint_pipe: Optional[Tuple[int, int]] = None   # (read, write) of the watcher


def _interrupt_all() -> None:
    """Mark the guarded searches interrupted and stop them (any thread)."""
    with _sigint_lock:
        for g in _sigint_guards:
            g.interrupted = True
            if g.engine_ptr:
                _lib.lib.gts_engine_stop(g.engine_ptr)


def _restop() -> bool:
    """Stop the interrupted searches again; False once none is left (one
    that has not reached the library yet still counts)."""
    with _sigint_lock:
        interrupted = [g for g in _sigint_guards if g.interrupted]
        for g in interrupted:
            if g.engine_ptr:
                _lib.lib.gts_engine_stop(g.engine_ptr)
    return bool(interrupted)


def _on_sigint(signum: int, frame: Any) -> None:
    """The SIGINT handler while a search runs: record and stop, never raise."""
    _interrupt_all()
    # A signal that came before the wakeup fd was the pipe, or before the
    # search took the engine, is seen here only: have the watcher stop again.
    pipe = _sigint_pipe
    if pipe is not None:
        try:
            os.write(pipe[1], bytes([signal.SIGINT]))
        except OSError:
            pass


def _consume(rfd: int, act: bool = True) -> bool:
    """Act on the signal numbers waiting in the pipe (_sigint_lock held):
    SIGINT interrupts the guarded searches, others go to the previous wakeup
    fd; or only empty it. False at end of file."""
    while True:
        try:
            data = os.read(rfd, 512)
        except BlockingIOError:
            return True
        if not data:
            return False
        if not act:
            continue
        if int(signal.SIGINT) in data:
            _interrupt_all()
        others = bytes(b for b in data if b != signal.SIGINT)
        if others and _sigint_forward_fd >= 0:
            try:
                os.write(_sigint_forward_fd, others)
            except OSError:
                pass


def _watch(rfd: int) -> None:
    """The watcher thread."""
    retry = False
    while True:
        try:
            ready, _, _ = select.select([rfd], [], [], _RESTOP_S if retry else None)
            if not ready:
                retry = _restop()
                continue
            with _sigint_lock:
                if not _consume(rfd):
                    return
                retry = any(g.interrupted for g in _sigint_guards)
        except (OSError, ValueError):
            return


def _watcher_fd() -> Tuple[int, int]:
    """Read and write end of the watcher's pipe; starts the watcher on first use."""
    global _sigint_pipe
    if _sigint_pipe is None:
        rfd, wfd = os.pipe()
        os.set_blocking(rfd, False)
        os.set_blocking(wfd, False)
        threading.Thread(target=_watch, args=(rfd,), name="gts-sigint", daemon=True).start()
        _sigint_pipe = (rfd, wfd)
    return _sigint_pipe


def _forget_watcher() -> None:
    # In a forked child the watcher thread is gone (and may have held the
    # lock): start a new one when needed. The old pipe is left open: the fork
    # may have come from a callback, with the pipe still the wakeup fd.
    global _sigint_pipe, _sigint_lock
    _sigint_pipe = None
    _sigint_lock = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_watcher)


class _InterruptGuard:
    """Defers SIGINT while one search runs (see above). A context manager
    around the search, with :meth:`arm` / :meth:`disarm` around the time
    the engine may be stopped. A no-op off the main thread and when SIGINT
    has no Python handler (ignored, default action, or set from C)."""

    def __init__(self) -> None:
        self.engine_ptr: Optional[int] = None
        self.interrupted = False
        self._pushed = False
        self._outermost = False
        self._previous: Any = None
        self._pipe: Optional[Tuple[int, int]] = None
        self._previous_fd = -1

    def __enter__(self) -> "_InterruptGuard":
        global _sigint_forward_fd
        if threading.current_thread() is not threading.main_thread():
            return self
        with _sigint_lock:
            if _sigint_guards:           # nested: the outermost one's handler is in place
                _sigint_guards.append(self)
                self._pushed = True
                return self
        previous = signal.getsignal(signal.SIGINT)
        if not callable(previous):
            return self
        try:
            pipe: Optional[Tuple[int, int]] = _watcher_fd()
            with _sigint_lock:
                # Empty it of an earlier search's bytes, before _on_sigint can
                # write this search's.
                _consume(pipe[0], act=False)
        except (OSError, RuntimeError):
            pipe = None                  # still deferred; only the prompt stop is lost
        # On the stack before the handler changes, so that no SIGINT after
        # the change is lost; one before it raises here, before the search.
        try:
            with _sigint_lock:
                self._pushed = self._outermost = True
                _sigint_guards.append(self)
            signal.signal(signal.SIGINT, _on_sigint)
        except BaseException as e:
            with _sigint_lock:
                if self in _sigint_guards:
                    _sigint_guards.remove(self)
            self._pushed = self._outermost = False
            if isinstance(e, ValueError):    # not the main interpreter: no deferral
                return self
            raise
        self._previous = previous
        if pipe is not None:
            try:
                with _sigint_lock:
                    self._previous_fd = signal.set_wakeup_fd(pipe[1],
                                                             warn_on_full_buffer=False)
                    _sigint_forward_fd = self._previous_fd
                self._pipe = pipe
            except (OSError, ValueError):
                pass
        return self

    def arm(self, engine_ptr: int) -> None:
        """The engine of the search: stopped on SIGINT from now on."""
        with _sigint_lock:
            self.engine_ptr = engine_ptr

    def disarm(self) -> None:
        """Before the engine may be freed."""
        with _sigint_lock:
            self.engine_ptr = None

    def __exit__(self, exc_type, exc, tb) -> None:
        if not self._pushed:
            return
        self.disarm()
        if self._outermost:
            try:
                if self._pipe is not None:
                    with _sigint_lock:
                        try:
                            signal.set_wakeup_fd(self._previous_fd)
                        except (OSError, ValueError):     # closed meanwhile
                            signal.set_wakeup_fd(-1)
                        _consume(self._pipe[0])
            finally:
                # A pending signal is handled (by _on_sigint) before the change.
                signal.signal(signal.SIGINT, self._previous)
        with _sigint_lock:
            _sigint_guards.remove(self)
        if not self._outermost or not self.interrupted:
            return
        if isinstance(exc, KeyboardInterrupt) and self._previous is signal.default_int_handler:
            return                       # one KeyboardInterrupt is on its way already
        signal.raise_signal(signal.SIGINT)


# ---- the engine ----------------------------------------------------------------------

def _is_builtin(game: Any) -> bool:
    return hasattr(game, "_gts_vtable_and_state")


def _stats_array(stats: Sequence["MctsMoveStats"]):
    """MctsMoveStats entries as a gts_mcts_move_stats array, and their number."""
    entries = list(stats)
    arr = (_lib.MctsMoveStatsStruct * max(len(entries), 1))()
    for i, e in enumerate(entries):
        arr[i].struct_size = ctypes.sizeof(_lib.MctsMoveStatsStruct)
        arr[i].move = check_int(e.move, "move")
        arr[i].visits = check_int(e.visits, "visits")
        arr[i].mean = float(e.mean)
        arr[i].lower = check_int(e.lower, "lower")
        arr[i].upper = check_int(e.upper, "upper")
        arr[i].amaf_visits = check_int(e.amaf_visits, "amaf_visits")
        arr[i].amaf_mean = float(e.amaf_mean)
    return arr, len(entries)


def _path_array(path: Sequence[int], what: str):
    """A move path as a uint64 array, and its length (checked)."""
    seq = [check_int(m, "move") for m in path]
    for m in seq:
        if not 0 <= m <= _UINT64_MAX:
            raise _err("EINVAL", f"{what}: move {m} is outside 0..2**64-1")
    if len(seq) > _lib.MAX_DEPTH:
        raise _err("EINVAL", f"{what}: {len(seq)} moves, at most {_lib.MAX_DEPTH}")
    return (ctypes.c_uint64 * max(len(seq), 1))(*seq), len(seq)


class Engine:
    """A search engine: ``Engine(tt_mb=64, threads=2, aspiration=50, ...)``.

    Options (lowercase names of ``gts_option``): tt_mb, aspiration,
    killers, history, quiescence, iterative, nbest, nbest_depth, threads,
    the selective search of the alpha-beta family null_move, lmr, futility,
    razor, lmp, contempt (since 0.3, off at 0) (and the others of
    gts.OPTION_NAMES; those of
    gts.EXPERIMENTAL_OPTION_NAMES, split_ply and the like, may change in any
    minor release). Booleans are accepted for the 0/1 switches. Use as a context manager or
    call :meth:`close`. Not thread-safe, except :meth:`stop`. Searches
    from the main thread defer Ctrl-C until the game is restored (see
    :meth:`search`).
    """

    def __init__(self, **options: Union[int, bool]):
        ptr = ctypes.c_void_p()
        rc = _lib.lib.gts_engine_new(ctypes.byref(ptr))
        if rc < 0:
            raise make_error(rc, "gts_engine_new")
        self._ptr: Optional[int] = ptr.value
        self._lock = threading.Lock()
        self._active = 0
        self._evaluate: Optional[Callable[[EvalBatch], Any]] = None
        self._evaluator_id = 0
        self._search_ctx: Optional[_SearchContext] = None
        try:
            for name, value in options.items():
                if value is not None:
                    self.set(name, value)
        except BaseException:
            self.close()
            raise

    # ---- options ---------------------------------------------------------------
    def set(self, name: str, value: Union[int, bool]) -> None:
        """Set option ``name``. UnknownOption, OutOfRange, Busy on failure."""
        opt = _option_id(name)
        v = check_int(value, f"option {name}")
        lo, hi, _ = option_bounds(name)
        if not lo <= v <= hi:
            raise _err("ERANGE", f"{name}={v}, allowed {lo}..{hi}")
        rc = _lib.lib.gts_engine_set(self._open(), opt, v)
        if rc < 0:
            raise make_error(rc, f"{name}={v}")

    def get(self, name: str) -> int:
        """Current value of option ``name``."""
        opt = _option_id(name)
        out = ctypes.c_int64()
        rc = _lib.lib.gts_engine_get(self._open(), opt, ctypes.byref(out))
        if rc < 0:
            raise make_error(rc, name)
        return out.value

    def options(self) -> Dict[str, int]:
        """Every option and its current value."""
        return {name: self.get(name) for name in OPTION_NAMES}

    # ---- lifecycle --------------------------------------------------------------
    def clear(self) -> None:
        """Forget everything learnt (TT, killers, history). Do this between
        unrelated games: the table is keyed by the games' hashes."""
        rc = _lib.lib.gts_engine_clear(self._open())
        if rc < 0:
            raise make_error(rc, "clear")

    def stop(self) -> None:
        """Stop the running search, if any, as soon as possible; it returns
        its last completed iteration with "stopped" in flags. Thread-safe;
        a stop while no search runs is ignored."""
        ptr = self._ptr
        if ptr:
            _lib.lib.gts_engine_stop(ptr)

    @property
    def last_error(self) -> str:
        """Why the engine's latest call that took a versioned struct failed
        (``gts_engine_last_error``): a message that starts with the C type of
        the struct at fault ("gts_limits: ..."), or "" after a call that
        succeeded or had nothing to add. Search errors include it already."""
        fn = getattr(_lib.lib, "gts_engine_last_error", None)
        ptr = self._ptr if hasattr(self, "_ptr") else None
        if fn is None or not ptr:
            return ""
        return _lib.decode(fn(ptr)) or ""

    def hashfull(self) -> int:
        """Transposition-table fill in permille."""
        fn = getattr(_lib.lib, "gts_engine_hashfull", None)
        return fn(self._open()) if fn else 0

    def mcts_root_stats(self) -> List["MctsMoveStats"]:
        """Per-root-move statistics of the last MCTS search on this engine
        (``gts_mcts_root_stats``), in generate() order; empty after any
        other search."""
        fn = self._mcts_fn("gts_mcts_root_stats", False, "this libgts has no MCTS")
        return self._mcts_read(fn, "gts_mcts_root_stats")

    def mcts_advance(self, moves: Sequence[int] = ()) -> bool:
        """Tree reuse (``gts_mcts_advance``): after an MCTS search on this
        engine, follow ``moves`` (the moves played since, e.g. the best move
        and the reply) in its tree, so that the next MCTS search of the
        position they lead to continues from that subtree; ``()`` keeps the
        whole tree for another search of the same position. True when a
        tree is kept; False when there is none (the option ``mcts_reuse``
        is 0, the last search failed or had a depth limit, or the tree does
        not hold that position): the next search then starts fresh."""
        fn = getattr(_lib.lib, "gts_mcts_advance", None)
        if fn is None:
            raise _err("ENOTSUP", "this libgts has no MCTS tree reuse")
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64), ctypes.c_int,
                       ctypes.c_void_p]
        arr, n = _path_array(moves, "mcts_advance")
        self._idle("mcts_advance")
        rc = fn(self._open(), arr, n, None)
        if rc < 0:
            raise make_error(rc, "gts_mcts_advance")
        return rc == 1

    def set_evaluator(self, evaluate: Optional[Callable[[EvalBatch], Any]]) -> None:
        """Give MCTS a batch evaluator (``gts_engine_set_evaluator``): PUCT
        over its priors, new leaves evaluated in batches of ``mcts_batch``
        instead of played out. ``evaluate(batch)`` gets an
        :class:`EvalBatch` and writes ``batch.values`` (and, if it has a
        policy, ``batch.priors``); an exception it raises ends the search
        and is re-raised from it. Parallel searches call it from several
        threads at once. None removes it (playouts again)."""
        fn = getattr(_lib.lib, "gts_engine_set_evaluator", None)
        if fn is None:
            raise _err("ENOTSUP", "this libgts has no batch evaluator (0.3)")
        if evaluate is not None and not callable(evaluate):
            raise TypeError("the evaluator must be callable or None")
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.c_void_p, ctypes.POINTER(_lib.EvaluatorStruct)]
        _lib.check_mirrors(((_lib.STRUCT_EVALUATOR, _lib.EvaluatorStruct),))
        self._idle("set_evaluator")
        if evaluate is None:
            rc = fn(self._open(), None)
        else:
            if not self._evaluator_id:
                self._evaluator_id = next(_evaluator_ids)
            ev = new_struct(_lib.EvaluatorStruct)
            ev.evaluate = _EVAL_BATCH
            ev.ctx = self._evaluator_id
            rc = fn(self._open(), ctypes.byref(ev))
        if rc < 0:
            raise make_error(rc, "gts_engine_set_evaluator")
        self._evaluate = evaluate
        if evaluate is None:
            _evaluators.pop(self._evaluator_id, None)
        else:
            _evaluators[self._evaluator_id] = self
    def mcts_inject(self, stats: Sequence["MctsMoveStats"]) -> bool:
        """Add root-move statistics of other searches of the same position
        (``gts_mcts_inject``, since 0.3) to the tree kept from the last MCTS
        search: one entry per root move in generate() order, as
        ``mcts_root_stats()`` lists them (its visits, mean, AMAF counts and
        proven range ``lower``..``upper`` are added; prior and score are
        ignored). True when added; False when no tree is kept. Call
        ``mcts_advance(())`` so that the next search continues the tree."""
        fn = self._mcts_fn("gts_mcts_inject", False,
                           "this libgts has no gts_mcts_inject (libgts 0.3)")
        return self._mcts_inject(fn, "mcts_inject", (), stats)

    def mcts_node_stats(self, path: Sequence[int] = ()) -> List["MctsMoveStats"]:
        """The statistics of the children of the node reached by the moves
        ``path`` from the root of the tree kept from the last MCTS search
        (``gts_mcts_node_stats``, since 0.3), in generate() order, from the
        side to move at that node (``score`` is 0); empty when no tree is
        kept or it does not hold that node expanded. ``()``: the root's
        children (of the first tree, with root parallelisation)."""
        fn = self._mcts_fn("gts_mcts_node_stats", True,
                           "this libgts has no gts_mcts_node_stats (libgts 0.3)")
        lead = _path_array(path, "mcts_node_stats")
        self._idle("mcts_node_stats")
        return self._mcts_read(fn, "gts_mcts_node_stats", *lead)

    def mcts_inject_at(self, path: Sequence[int], stats: Sequence["MctsMoveStats"]) -> bool:
        """``mcts_inject`` for the children of the node reached by the
        moves ``path`` (``gts_mcts_inject_at``, since 0.3): one entry per
        child in generate() order, as ``mcts_node_stats(path)`` lists them.
        Below the root only the children's visits, means and AMAF counts
        are added (the node's own visits are its parent's statistics;
        ranges, prior and score are ignored); ``path == ()`` is
        ``mcts_inject``. True when added; False when the kept tree does not
        hold that node expanded."""
        fn = self._mcts_fn("gts_mcts_inject_at", True,
                           "this libgts has no gts_mcts_inject_at (libgts 0.3)")
        return self._mcts_inject(fn, "mcts_inject_at",
                                 _path_array(path, "mcts_inject_at"), stats)

    # The four calls on MCTS statistics share one shape: resolve the
    # function (absent from an older libgts), then read or add an array of
    # gts_mcts_move_stats, with or without a path of moves before it.
    @staticmethod
    def _mcts_fn(name: str, with_path: bool, missing: str):
        fn = getattr(_lib.lib, name, None)
        if fn is None:
            raise _err("ENOTSUP", missing)
        fn.restype = ctypes.c_int
        lead = [ctypes.c_void_p]
        if with_path:
            lead += [ctypes.POINTER(ctypes.c_uint64), ctypes.c_int]
        fn.argtypes = lead + [ctypes.POINTER(_lib.MctsMoveStatsStruct), ctypes.c_int]
        return fn

    def _idle(self, what: str) -> None:
        with self._lock:
            if self._active:
                raise _err("EBUSY", f"{what}() while a search is running")

    def _mcts_read(self, fn, name: str, *lead) -> List["MctsMoveStats"]:
        """Ask for the count, then fill an array of that many entries."""
        ptr = self._open()
        n = fn(ptr, *lead, None, 0)
        if n < 0:
            raise make_error(n, name)
        if n == 0:
            return []
        out = (_lib.MctsMoveStatsStruct * n)()
        out[0].struct_size = ctypes.sizeof(_lib.MctsMoveStatsStruct)
        got = fn(ptr, *lead, out, n)
        if got < 0:
            raise make_error(got, name)
        return [MctsMoveStats(move=s.move, visits=s.visits, mean=s.mean, prior=s.prior,
                              score=s.score, lower=s.lower, upper=s.upper,
                              amaf_visits=s.amaf_visits, amaf_mean=s.amaf_mean)
                for s in out[:min(n, got)]]

    def _mcts_inject(self, fn, what: str, lead, stats) -> bool:
        arr, n = _stats_array(stats)
        self._idle(what)
        rc = fn(self._open(), *lead, arr, n)
        if rc < 0:
            raise make_error(rc, "gts_" + what)
        return rc == 1

    def close(self) -> None:
        """Free the engine (its table and threads). Idempotent."""
        with self._lock:
            if self._active:
                raise _err("EBUSY", "close() while a search is running; stop() it first")
            ptr, self._ptr = self._ptr, None
        _evaluators.pop(self._evaluator_id, None)
        if ptr:
            _lib.lib.gts_engine_free(ptr)

    @property
    def closed(self) -> bool:
        return self._ptr is None

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            if self._ptr and not self._active:
                _lib.lib.gts_engine_free(self._ptr)
                self._ptr = None
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    def __repr__(self) -> str:
        if self._ptr is None:
            return "<gts.Engine closed>"
        return "<gts.Engine %s>" % " ".join(f"{k}={v}" for k, v in self.options().items())

    def _open(self) -> int:
        ptr = self._ptr
        if not ptr:
            raise ValueError("the engine is closed")
        return ptr

    # ---- ProbCut parameters (include/gts/probcut.h) --------------------------------
    def get_probcut(self) -> Dict[str, Any]:
        """The ProbCut parameters used by the "probcut" algorithm:
        ``{"pairs": [ProbcutPair, ...], "iid": bool}``."""
        _need_probcut()
        p = new_struct(_lib.ProbcutParamsStruct)
        rc = _lib.lib.gts_engine_get_probcut(self._open(), ctypes.byref(p))
        if rc < 0:
            raise make_error(rc, "get_probcut")
        return {"pairs": [ProbcutPair(q.shallow_depth, q.deep_depth, q.a, q.b, q.sigma,
                                      q.threshold) for q in p.pair[:p.npairs]],
                "iid": bool(p.iid)}

    def set_probcut(self, pairs: Optional[List[Any]] = None, *,
                    iid: Optional[bool] = None) -> None:
        """Set the ProbCut checks (a list of :class:`ProbcutPair` or tuples
        ``(shallow_depth, deep_depth, a, b, sigma, threshold)``) and/or
        internal iterative deepening. With no argument: the defaults.
        OutOfRange for invalid pairs (the engine keeps its parameters)."""
        _need_probcut()
        if pairs is None and iid is None:
            rc = _lib.lib.gts_engine_set_probcut(self._open(), None)
            if rc < 0:
                raise make_error(rc, "set_probcut")
            return
        p = new_struct(_lib.ProbcutParamsStruct)
        rc = _lib.lib.gts_engine_get_probcut(self._open(), ctypes.byref(p))
        if rc < 0:
            raise make_error(rc, "set_probcut")
        if pairs is not None:
            pairs = [ProbcutPair(*q) for q in pairs]
            if len(pairs) > _lib.PROBCUT_MAX_PAIRS:
                raise _err("ERANGE", f"{len(pairs)} pairs, at most {_lib.PROBCUT_MAX_PAIRS}")
            p.npairs = len(pairs)
            for i, q in enumerate(pairs):
                p.pair[i] = _lib.ProbcutPairStruct(
                    _check_range(q.shallow_depth, "shallow_depth", _INT32_MIN, _INT32_MAX),
                    _check_range(q.deep_depth, "deep_depth", _INT32_MIN, _INT32_MAX),
                    float(q.a), float(q.b), float(q.sigma), float(q.threshold))
        if iid is not None:
            p.iid = bool(iid)
        rc = _lib.lib.gts_engine_set_probcut(self._open(), ctypes.byref(p))
        if rc < 0:
            raise make_error(rc, f"set_probcut({pairs!r})")

    def calibrate_probcut(self, game: Any, shallow_depth: int, deep_depth: int, *,
                          samples: int = 200, seed: int = 1, max_walk: int = 20,
                          positions: Optional[List[Any]] = None) -> ProbcutFit:
        """Fit a ProbCut model for (shallow_depth, deep_depth) with exact PVS
        on this engine: over ``positions`` (games of one kind) if given,
        else over ``samples`` positions reached from ``game`` by random play
        (up to ``max_walk`` plies, drawn from ``seed``). Every state is
        unchanged afterwards. ``fit.pair(shallow, deep)`` makes the pair.
        Arguments outside their C type are OutOfRange. Ctrl-C as for
        :meth:`search` (a C game finishes its remaining samples first, each
        search stopped at once)."""
        _need_probcut()
        args = [_check_range(v, what, lo, hi) for v, what, lo, hi in (
            (samples, "samples", 0, _UINT32_MAX), (seed, "seed", 0, _UINT64_MAX),
            (max_walk, "max_walk", 0, _UINT32_MAX),
            (shallow_depth, "shallow_depth", _INT32_MIN, _INT32_MAX),
            (deep_depth, "deep_depth", _INT32_MIN, _INT32_MAX))]
        fit = new_struct(_lib.ProbcutFitStruct)
        objs = list(positions) if positions is not None else []
        first = objs[0] if objs else game
        if isinstance(first, Game):
            if not all(isinstance(o, Game) for o in objs):
                raise TypeError("positions must all be gts.Game objects")
        elif _is_builtin(first):
            if not all(type(o) is type(first) for o in objs):
                raise TypeError("positions must all be games of one kind")
        else:
            raise TypeError(f"cannot calibrate on {type(first).__name__}")
        # As _search: SIGINT deferred, the engine counted active while in use.
        with _InterruptGuard() as guard:
            with self._lock:
                ptr = self._open()
                self._active += 1
            try:
                ctx = _SearchContext(ptr, first if isinstance(first, Game) else None)
                try:
                    if isinstance(first, Game):
                        vt = ctypes.addressof(ctx.vtable)
                        handles = [1] + [ctx.register(o) for o in objs[1:]] if objs else []
                        root = None if objs else 1
                        # The library goes on with the next sample after a
                        # stop: fail the next generate() instead, which ends it.
                        ctx.abort_on = guard
                    else:
                        vt, root = first._gts_vtable_and_state()
                        handles = [o._gts_vtable_and_state()[1] for o in objs]
                        root = None if objs else root
                    guard.arm(ptr)
                    arr = (ctypes.c_void_p * max(1, len(handles)))(*handles)
                    rc = _lib.lib.gts_probcut_calibrate(
                        ptr, vt, arr if handles else None, len(handles), root, *args,
                        ctypes.byref(fit))
                finally:
                    guard.disarm()
                    ctx.close()
            finally:
                with self._lock:
                    self._active -= 1
            if ctx.error is not None:
                err, ctx.error = ctx.error, None
                _annotate(err, "probcut calibration", rc)
                raise err
        # (leaving the guard raised KeyboardInterrupt, or ran the program's
        # own SIGINT handler, which returned: then the fit is incomplete)
        if guard.interrupted:
            raise _err("ECALLBACK", "calibrate_probcut was interrupted by SIGINT")
        if rc < 0:
            raise make_error(rc, f"calibrate_probcut: {fit.samples} samples, "
                                 f"{fit.skipped} skipped")
        return ProbcutFit(fit.a, fit.b, fit.sigma, fit.r2, fit.samples, fit.skipped)

    # ---- search ------------------------------------------------------------------
    def search(self, game: Any, algorithm: Union[str, int] = "pvs", depth: Optional[int] = None,
               *, time_ms: Optional[float] = None, nodes: Optional[int] = None,
               alpha: Optional[int] = None, beta: Optional[int] = None,
               guess: Optional[int] = None,
               on_iteration: Optional[Callable[[Result], Any]] = None,
               history: Optional[Sequence[int]] = None) -> Result:
        """Search ``game`` (a :class:`gts.Game` or a built-in game) with
        ``algorithm`` and return a :class:`Result`.

        ``depth`` in plies (None: the library maximum, with iterative
        deepening stopping early on a decided score); ``time_ms`` and
        ``nodes`` budgets; ``alpha``/``beta`` a root window (one may be
        omitted); ``guess`` a first guess for MTD(f)-style algorithms;
        ``on_iteration(result)`` is called after each completed iteration
        and may return True to stop; ``history`` the hash() keys of the
        game's positions before the root, oldest first (``gts_limits.history``,
        read by a game with the repetition-draw trait; since 0.3). The game
        state is unchanged afterwards.

        Raises the original exception of a failing game callback, or the
        GtsError subclass of the library's status.

        Ctrl-C: called from the main thread, the search replaces the SIGINT
        handler while it runs (unless SIGINT is ignored, left to its default
        action or handled from C). A SIGINT then stops the search; once it
        has returned, with the game restored, the previous handler gets the
        signal: the default one raises KeyboardInterrupt from this call, a
        program's own handler runs and, if it returns, so does the search
        (with "stopped" in ``flags``). Called from another thread, nothing
        is installed: SIGINT goes to the main thread as usual and the search
        goes on until ``stop()``.
        """
        alg = algorithm_id(algorithm)
        return self._search(alg, None, game, depth, time_ms, nodes, alpha, beta, guess,
                            on_iteration, history)

    def _search(self, alg: int, entry, game, depth, time_ms, nodes, alpha, beta, guess,
                on_iteration, history=None) -> Result:
        # SIGINT is deferred for the whole search (see _InterruptGuard). The
        # search counts as active while the engine pointer is in use, so that
        # close() from another thread cannot free it under us.
        with _InterruptGuard() as guard:
            with self._lock:
                ptr = self._open()
                self._active += 1
            try:
                guard.arm(ptr)
                return self._search_active(ptr, alg, entry, game, depth, time_ms, nodes,
                                           alpha, beta, guess, on_iteration, history)
            finally:
                guard.disarm()
                with self._lock:
                    self._active -= 1

    def _search_active(self, ptr: int, alg: int, entry, game, depth, time_ms, nodes, alpha,
                       beta, guess, on_iteration, history=None) -> Result:
        name = _ALG_BY_ID[alg].name if alg in _ALG_BY_ID else str(alg)
        limits = _make_limits(depth, time_ms, nodes, alpha, beta, guess)
        keys = _history_keys(history)  # kept alive until the search returns
        if keys is not None:
            limits.history = ctypes.cast(keys, ctypes.POINTER(ctypes.c_uint64))
            limits.history_len = len(keys)
        result = new_struct(ResultStruct)
        cap = max(1, self.get("threads"))
        thread_nodes = (ctypes.c_uint64 * cap)()
        result.thread_nodes = ctypes.cast(thread_nodes, ctypes.POINTER(ctypes.c_uint64))
        result.thread_nodes_capacity = cap

        if on_iteration is not None and not callable(on_iteration):
            raise TypeError("on_iteration must be callable")
        if isinstance(game, Game):
            ctx = _SearchContext(ptr, game)
            vt, state = ctypes.addressof(ctx.vtable), 1
        elif _is_builtin(game):
            vt, state = game._gts_vtable_and_state()
            ctx = _SearchContext(ptr)
        else:
            raise TypeError(f"can only search a gts.Game or a gts.games game, not "
                            f"{type(game).__name__}")
        # From here on the context is registered: always close it.
        self._search_ctx = ctx
        try:
            ctx.algorithm = name
            ctx.on_iteration = on_iteration
            if on_iteration is not None:
                limits.on_iteration = _PROGRESS
                limits.on_iteration_user = ctx.id
            ctx.started = time.perf_counter()
            if entry is not None:
                rc = entry(ptr, vt, state, ctypes.byref(limits), ctypes.byref(result))
            else:
                rc = _lib.lib.gts_search(ptr, alg, vt, state, ctypes.byref(limits),
                                         ctypes.byref(result))
        finally:
            self._search_ctx = None
            ctx.close()
        if ctx.error is not None:
            err, ctx.error = ctx.error, None
            _annotate(err, name, rc)
            raise err
        if rc < 0:
            raise make_error(rc, _detail(rc, name, game, self, result))
        return Result.from_struct(result, name, time.perf_counter() - ctx.started)


def _need_probcut() -> None:
    if not hasattr(_lib.lib, "gts_engine_set_probcut"):
        raise _err("ENOTSUP", f"libgts {'.'.join(map(str, _lib.VERSION))} has no ProbCut "
                              "parameters")


def _annotate(err: BaseException, alg: str, rc: int) -> None:
    if hasattr(err, "add_note") and isinstance(err, Exception):
        if rc >= 0:
            # hash() and move_score() have no failure code in C: the binding
            # stopped the search instead, which then ended normally.
            err.add_note(f"(raised in a game callback during a gts {alg} search; that "
                         "callback has no failure code in C, so the search was stopped "
                         "there, its result discarded and the game state restored)")
            return
        status = _errors_by_name.get(rc, str(rc))
        err.add_note(f"(raised in a game callback during a gts {alg} search; the search "
                     f"failed with {status} and the game state was restored)")


def _detail(rc: int, alg: str, game: Any, engine: Engine, result: ResultStruct) -> str:
    cname = _errors_by_name.get(rc, "")
    if cname == "ENOTSUP":
        what = (f"define {type(game).__name__}.clone()" if isinstance(game, Game)
                else "the game has no clone/free")
        return (f"{alg} is parallel (threads={engine.get('threads')}) and needs a game that "
                f"can be cloned: {what}, or use threads=1")
    if cname == "EBUSY":
        return "this engine is already searching; use another Engine"
    if cname in ("ECALLBACK", "EMOVES", "ESCORE"):
        return f"{alg}: callback status {result.callback_status}"
    why = engine.last_error
    return f"{alg}: {why}" if why else alg


def _history_keys(history: Optional[Sequence[int]]) -> Any:
    """gts_limits.history: a C array of the 64-bit keys, or None."""
    if history is None:
        return None
    if isinstance(history, (str, bytes)):
        raise TypeError("history must be a sequence of int keys")
    vals = [check_int(k, "history key") for k in history]
    for k in vals:
        if not 0 <= k <= _UINT64_MAX:
            raise _err("ERANGE", f"history key {k} is not a 64-bit unsigned value")
    if len(vals) > 0xFFFFFFFF:
        raise _err("ERANGE", "history: more than 2^32 - 1 keys")
    return (ctypes.c_uint64 * len(vals))(*vals)


def _make_limits(depth, time_ms, nodes, alpha, beta, guess) -> LimitsStruct:
    lim = new_struct(LimitsStruct)
    if depth is not None:
        d = check_int(depth, "depth")
        if not 1 <= d <= _lib.MAX_DEPTH:
            raise _err("ERANGE", f"depth={d}, allowed 1..{_lib.MAX_DEPTH}")
        lim.depth = d
    if time_ms is not None:
        if isinstance(time_ms, float):
            t = int(time_ms + 0.999999) if time_ms > 0 else int(time_ms)
        else:
            t = check_int(time_ms, "time_ms")
        if not 0 < t <= _UINT64_MAX:
            raise _err("ERANGE", f"time_ms={time_ms}, must be positive")
        lim.time_ms = t
    if nodes is not None:
        n = check_int(nodes, "nodes")
        if not 0 < n <= _UINT64_MAX:
            raise _err("ERANGE", f"nodes={nodes}, must be positive")
        lim.nodes = n
    if alpha is not None or beta is not None:
        a = -_lib.SCORE_INF if alpha is None else check_int(alpha, "alpha")
        b = _lib.SCORE_INF if beta is None else check_int(beta, "beta")
        for label, v in (("alpha", a), ("beta", b)):
            if not -_lib.SCORE_INF <= v <= _lib.SCORE_INF:
                raise _err("ERANGE", f"{label}={v}, allowed +-{_lib.SCORE_INF}")
        if a >= b:
            raise _err("EINVAL", f"alpha={a} must be below beta={b}")
        lim.alpha, lim.beta = a, b
    if guess is not None:
        g = check_int(guess, "guess")
        if not -_lib.SCORE_INF <= g <= _lib.SCORE_INF:
            raise _err("ERANGE", f"guess={g}, allowed +-{_lib.SCORE_INF}")
        lim.guess, lim.has_guess = g, True
    return lim


# ---- module-level search functions -------------------------------------------------

def _split_kwargs(kwargs: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    search_kw = {k: kwargs.pop(k) for k in SEARCH_KEYWORDS if k in kwargs}
    return search_kw, kwargs


#: Keywords of gts.mcts (and search(..., "mcts")) that name an MCTS option.
MCTS_KEYWORDS = {
    "playouts": "mcts_playouts", "seed": "mcts_seed", "rave": "mcts_rave",
    "reuse": "mcts_reuse", "exploration": "mcts_exploration", "prior": "mcts_prior",
    "playout_depth": "mcts_playout_depth", "eval_scale": "mcts_eval_scale",
    "parallel": "mcts_parallel", "virtual_loss": "mcts_virtual_loss",
    "cpuct": "mcts_cpuct", "fpu": "mcts_fpu", "batch": "mcts_batch",
    "noise_alpha": "mcts_noise_alpha", "noise_fraction": "mcts_noise_fraction",
    "temperature": "mcts_temperature",
}
_MCTS_PARALLEL = {"tree": 0, "root": 1}


def _mcts_options(kwargs: Dict[str, Any]) -> Dict[str, Any]:
    """The MCTS keyword sugar as engine options: playouts=N (N >= 1; None:
    no budget), seed=S, rave=k, reuse=bool, parallel="tree"/"root", ..."""
    out = dict(kwargs)
    for short, option in MCTS_KEYWORDS.items():
        if short not in out:
            continue
        if option in out:
            raise TypeError(f"both {short}= and {option}= given")
        v = out.pop(short)
        if v is None:
            continue
        if short == "playouts" and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
            raise ValueError(f"playouts must be an int >= 1 (None: no budget), got {v!r}")
        if short == "parallel" and isinstance(v, str):
            if v not in _MCTS_PARALLEL:
                raise ValueError(f"parallel must be 'tree' or 'root', got {v!r}")
            v = _MCTS_PARALLEL[v]
        out[option] = int(v) if isinstance(v, bool) else v
    return out


def _run(alg: int, entry, game: Any, engine: Optional[Engine], kwargs: Dict[str, Any]) -> Result:
    if alg == _MCTS_ID:
        kwargs = _mcts_options(kwargs)
    search_kw, options = _split_kwargs(dict(kwargs))
    args = [search_kw.get(k) for k in SEARCH_KEYWORDS]
    if engine is not None:
        if options:
            raise TypeError("pass engine options to the Engine, not with engine=: "
                            + ", ".join(options))
        return engine._search(alg, entry, game, *args)
    with Engine(**options) as e:
        return e._search(alg, entry, game, *args)


def search(game: Any, algorithm: Union[str, int] = "pvs", *, engine: Optional[Engine] = None,
           **kwargs: Any) -> Result:
    """Search ``game`` with ``algorithm`` on a temporary engine (or on
    ``engine``). Keywords: those of :meth:`Engine.search` (depth, time_ms,
    nodes, alpha, beta, guess, on_iteration) and the options of
    :class:`Engine` (tt_mb, threads, ...)."""
    return _run(algorithm_id(algorithm), None, game, engine, kwargs)


def make_shortcut(alg: int, info: AlgorithmInfo) -> Callable[..., Result]:
    """The module-level function ``gts.<name>`` of one algorithm: calls the
    named C entry point gts_<name> (gts_search when not exported)."""
    entry = _lib.entry_point(info.name)

    def shortcut(game: Any, *, engine: Optional[Engine] = None, **kwargs: Any) -> Result:
        return _run(alg, entry, game, engine, kwargs)

    shortcut.__name__ = shortcut.__qualname__ = info.name
    shortcut.__module__ = "gts"
    kind = ("exact" if info.exact else "selective (not exact)") + \
        (", parallel: uses threads=N workers and needs Game.clone()" if info.parallel else "")
    shortcut.__doc__ = (
        f"Search ``game`` with gts_{info.name} ({kind}) and return a gts.Result.\n\n"
        f"Keywords: depth, time_ms, nodes, alpha, beta, guess, on_iteration (see "
        f"Engine.search) and engine options (tt_mb, threads, aspiration, killers, history,\n"
        f"quiescence, iterative, nbest, nbest_depth) for the temporary engine; or "
        f"engine=Engine(...) to reuse one.\n\nExample: gts.{info.name}(game, depth=8"
        + (", threads=2" if info.parallel else "") + ")")
    return shortcut


def shortcuts() -> Dict[str, Callable[..., Result]]:
    return {info.name: make_shortcut(a, info) for a, info in _ALGORITHMS}

