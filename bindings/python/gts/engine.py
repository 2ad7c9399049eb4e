"""The search engine, search results and the algorithm list.

An :class:`Engine` wraps one ``gts_engine``: its transposition table,
ordering tables and thread pool persist across searches. One engine runs
one search at a time; :meth:`Engine.stop` may be called from any thread.
The C search runs with the GIL released (ctypes.CDLL), so other Python
threads keep running, and Python game callbacks (which take the GIL back)
may come from the library's worker threads.
"""
from __future__ import annotations

import ctypes
import threading
import time
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple, Union

from . import _lib
from ._lib import LimitsStruct, ResultStruct, new_struct
from .errors import STATUS_NAMES as _errors_by_name
from .errors import error, make_error
from .game import Game, _contexts, _SearchContext, check_int

__all__ = ["Engine", "Result", "AlgorithmInfo", "ProbcutPair", "ProbcutFit", "algorithms",
           "algorithm_id", "search", "option_bounds", "OPTION_NAMES"]

#: Engine option names accepted by Engine(...), Engine.set() and Engine.get().
OPTION_NAMES = tuple(_lib.OPTIONS)

#: Keyword arguments of a search (the rest of a shortcut's keywords are options).
SEARCH_KEYWORDS = ("depth", "time_ms", "nodes", "alpha", "beta", "guess", "on_iteration")

_UINT64_MAX = 2 ** 64 - 1

_err = error  # GtsError of a status by C name


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
    opt = _lib.OPTIONS.get(name.lower())
    if opt is None:
        raise _err("EOPTION", f"{name!r}; known options: {', '.join(OPTION_NAMES)}")
    return opt


# ---- results -----------------------------------------------------------------------

class Result:
    """What a search found.

    ``score`` is from the side to move at the root; ``best_move`` is None
    at a finished root; ``pv`` the principal variation (``pv[0] ==
    best_move``); ``depth`` the last completed iteration; ``flags`` a set of
    ``"stopped"``, ``"node_limit"``, ``"time_limit"``, ``"lower_bound"``,
    ``"upper_bound"``; ``stats`` a dict of counters (``tt_probes``,
    ``tt_hits``, ``tt_cutoffs``, ``nodes_mandatory``, ``nodes_speculative``,
    ``nodes_wasted``, ``threads``, ``thread_nodes``, ``callback_status``).
    """

    __slots__ = ("algorithm", "score", "best_move", "pv", "depth", "seldepth", "nodes",
                 "time_s", "flags", "stats")

    def __init__(self, r: ResultStruct, algorithm: str = "", elapsed: Optional[float] = None):
        self.algorithm = algorithm
        self.score: int = r.score
        self.best_move: Optional[int] = r.best_move if r.flags & _lib.RESULT_HAS_MOVE else None
        n = min(r.pv_length, _lib.MAX_PLY)
        self.pv: List[int] = list(r.pv[:n]) if self.best_move is not None else []
        self.depth: int = r.depth
        self.seldepth: int = r.seldepth
        self.nodes: int = r.nodes
        self.time_s: float = r.time_us / 1e6 if r.time_us or elapsed is None else elapsed
        self.flags = frozenset(name for bit, name in _lib.RESULT_FLAG_NAMES if r.flags & bit)
        nt = min(r.threads, r.thread_nodes_capacity) if r.thread_nodes else 0
        self.stats: Dict[str, Any] = {
            "tt_probes": r.tt_probes,
            "tt_hits": r.tt_hits,
            "tt_cutoffs": r.tt_cutoffs,
            "nodes_mandatory": r.nodes_mandatory,
            "nodes_speculative": r.nodes_speculative,
            "nodes_wasted": r.nodes_wasted,
            "threads": r.threads,
            "thread_nodes": [r.thread_nodes[i] for i in range(nt)],
            "callback_status": r.callback_status,
        }

    @property
    def nps(self) -> float:
        """Nodes per second (0 when no time was measured)."""
        return self.nodes / self.time_s if self.time_s > 0 else 0.0

    @property
    def exact(self) -> bool:
        """True when the score is neither a lower nor an upper bound."""
        return not self.flags & {"lower_bound", "upper_bound"}

    def as_dict(self) -> Dict[str, Any]:
        d = {k: getattr(self, k) for k in self.__slots__}
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
        res = Result(result_ptr.contents, ctx.algorithm, time.perf_counter() - ctx.started)
        return 1 if ctx.on_iteration(res) else 0
    except BaseException as e:  # noqa: BLE001 - must not escape into C
        ctx.fail(e)
        return 1


_PROGRESS = _lib.PROGRESS_FN(_cb_progress)


# ---- the engine ----------------------------------------------------------------------

def _is_builtin(game: Any) -> bool:
    return hasattr(game, "_gts_vtable_and_state")


class Engine:
    """A search engine: ``Engine(tt_mb=64, threads=2, aspiration=50, ...)``.

    Options (lowercase names of ``gts_option``): tt_mb, aspiration,
    killers, history, quiescence, iterative, nbest, nbest_depth, threads.
    Booleans are accepted for the 0/1 switches. Use as a context manager or
    call :meth:`close`. Not thread-safe, except :meth:`stop`.
    """

    def __init__(self, **options: Union[int, bool]):
        ptr = ctypes.c_void_p()
        rc = _lib.lib.gts_engine_new(ctypes.byref(ptr))
        if rc < 0:
            raise make_error(rc, "gts_engine_new")
        self._ptr: Optional[int] = ptr.value
        self._lock = threading.Lock()
        self._active = 0
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

    def hashfull(self) -> int:
        """Transposition-table fill in permille."""
        fn = getattr(_lib.lib, "gts_engine_hashfull", None)
        return fn(self._open()) if fn else 0

    def close(self) -> None:
        """Free the engine (its table and threads). Idempotent."""
        with self._lock:
            if self._active:
                raise _err("EBUSY", "close() while a search is running; stop() it first")
            ptr, self._ptr = self._ptr, None
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
                p.pair[i] = _lib.ProbcutPairStruct(check_int(q.shallow_depth, "shallow_depth"),
                                                   check_int(q.deep_depth, "deep_depth"),
                                                   float(q.a), float(q.b), float(q.sigma),
                                                   float(q.threshold))
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
        unchanged afterwards. ``fit.pair(shallow, deep)`` makes the pair."""
        _need_probcut()
        fit = new_struct(_lib.ProbcutFitStruct)
        objs = list(positions) if positions is not None else []
        first = objs[0] if objs else game
        with self._lock:
            ptr = self._open()
            self._active += 1
        try:
            if isinstance(first, Game):
                ctx = _SearchContext(ptr, first)
                vt = ctypes.addressof(ctx.vtable)
                handles = [1] + [ctx.register(o) for o in objs[1:]] if objs else []
                root = None if objs else 1
                for o in objs:
                    if not isinstance(o, Game):
                        raise TypeError("positions must all be gts.Game objects")
            elif _is_builtin(first):
                ctx = _SearchContext(ptr)
                vt, _ = first._gts_vtable_and_state()
                handles = []
                for o in objs:
                    if type(o) is not type(first):
                        raise TypeError("positions must all be games of one kind")
                    handles.append(o._gts_vtable_and_state()[1])
                root = None if objs else first._gts_vtable_and_state()[1]
            else:
                raise TypeError(f"cannot calibrate on {type(first).__name__}")
            try:
                arr = (ctypes.c_void_p * max(1, len(handles)))(*handles)
                rc = _lib.lib.gts_probcut_calibrate(
                    ptr, vt, arr if handles else None, len(handles), root,
                    samples, seed, max_walk, shallow_depth, deep_depth, ctypes.byref(fit))
            finally:
                ctx.close()
        finally:
            with self._lock:
                self._active -= 1
        if ctx.error is not None:
            err, ctx.error = ctx.error, None
            _annotate(err, "probcut calibration", rc)
            raise err
        if rc < 0:
            raise make_error(rc, f"calibrate_probcut: {fit.samples} samples, "
                                 f"{fit.skipped} skipped")
        return ProbcutFit(fit.a, fit.b, fit.sigma, fit.r2, fit.samples, fit.skipped)

    # ---- search ------------------------------------------------------------------
    def search(self, game: Any, algorithm: Union[str, int] = "pvs", depth: Optional[int] = None,
               *, time_ms: Optional[float] = None, nodes: Optional[int] = None,
               alpha: Optional[int] = None, beta: Optional[int] = None,
               guess: Optional[int] = None,
               on_iteration: Optional[Callable[[Result], Any]] = None) -> Result:
        """Search ``game`` (a :class:`gts.Game` or a built-in game) with
        ``algorithm`` and return a :class:`Result`.

        ``depth`` in plies (None: the library maximum, with iterative
        deepening stopping early on a decided score); ``time_ms`` and
        ``nodes`` budgets; ``alpha``/``beta`` a root window (one may be
        omitted); ``guess`` a first guess for MTD(f)-style algorithms;
        ``on_iteration(result)`` is called after each completed iteration
        and may return True to stop. The game state is unchanged afterwards.

        Raises the original exception of a failing game callback, or the
        GtsError subclass of the library's status.
        """
        alg = algorithm_id(algorithm)
        return self._search(alg, None, game, depth, time_ms, nodes, alpha, beta, guess,
                            on_iteration)

    def _search(self, alg: int, entry, game, depth, time_ms, nodes, alpha, beta, guess,
                on_iteration) -> Result:
        # Count the search as active while the engine pointer is in use, so
        # that close() from another thread cannot free it under us.
        with self._lock:
            ptr = self._open()
            self._active += 1
        try:
            return self._search_active(ptr, alg, entry, game, depth, time_ms, nodes, alpha,
                                       beta, guess, on_iteration)
        finally:
            with self._lock:
                self._active -= 1

    def _search_active(self, ptr: int, alg: int, entry, game, depth, time_ms, nodes, alpha,
                       beta, guess, on_iteration) -> Result:
        name = _ALG_BY_ID[alg].name if alg in _ALG_BY_ID else str(alg)
        limits = _make_limits(depth, time_ms, nodes, alpha, beta, guess)
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
            ctx.close()
        if ctx.error is not None:
            err, ctx.error = ctx.error, None
            _annotate(err, name, rc)
            raise err
        if rc < 0:
            raise make_error(rc, _detail(rc, name, game, self, result))
        return Result(result, name, time.perf_counter() - ctx.started)


def _need_probcut() -> None:
    if not hasattr(_lib.lib, "gts_engine_set_probcut"):
        raise _err("ENOTSUP", f"libgts {'.'.join(map(str, _lib.VERSION))} has no ProbCut "
                              "parameters")


def _annotate(err: BaseException, alg: str, rc: int) -> None:
    if hasattr(err, "add_note") and isinstance(err, Exception):
        status = _errors_by_name.get(rc, "OK" if rc == 0 else str(rc))
        err.add_note(f"(raised in a game callback during a gts {alg} search; the search "
                     f"was abandoned with {status} and the game state restored)")


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
    return alg


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


def _run(alg: int, entry, game: Any, engine: Optional[Engine], kwargs: Dict[str, Any]) -> Result:
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

