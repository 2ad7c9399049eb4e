"""``gts.check(game)``: exercise a game adapter against the gts_game
contract (the C library's ``gts_game_check``, include/gts/check.h) and
report the first broken promise with the moves that lead to it.

    report = gts.check(MyGame())
    if not report.ok:
        print(report.violation, report.path, report.message)

The checker walks the game from its current position along random walks
(``seed``) and checks, at every position it reaches: generate() is
deterministic and within max_moves, noisy moves are legal moves, evaluate()
is deterministic and in range, apply() then undo() (and move_score(),
extend()) leave the position as it was, hash() is stable and equal keys mean
equal-looking positions, clones match, bounds() holds at depths 1..depth,
move text round-trips, and every exact algorithm agrees with minimax at a
few positions. The game is restored, unless undo() is what is broken. An
exception raised by a callback propagates from ``check`` as from a search;
but an evaluate() out of range and a generate() or noisy() longer than
max_moves are what the checker looks for: they give its report (EVALUATE,
GENERATE_OVERFLOW) as for a C adapter, not an exception.
"""
from __future__ import annotations

import ctypes
from ctypes import c_char, c_int, c_int32, c_size_t, c_uint32, c_uint64
from dataclasses import dataclass
from typing import Any, Optional, Tuple

from . import _lib
from .errors import error, make_error
from .game import Game, _SearchContext


class CheckOptionsStruct(ctypes.Structure):
    """gts_check_options."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("seed", c_uint64),
        ("walks", c_uint32),
        ("walk_length", c_uint32),
        ("depth", c_int32),
        ("algorithm_positions", c_int32),
    ]


class CheckReportStruct(ctypes.Structure):
    """gts_check_report."""
    _fields_ = [
        ("struct_size", c_size_t),
        ("violation", c_int),
        ("callback_status", c_int32),
        ("algorithm", c_int),
        ("path_length", c_uint32),
        ("path", c_uint64 * _lib.MAX_PLY),
        ("positions", c_uint64),
        ("message", c_char * 256),
    ]


# gts_struct_id values of the mirrors above (GTS_STRUCT_CHECK_*).
STRUCT_MIRRORS = ((8, CheckOptionsStruct), (9, CheckReportStruct))
_lib.check_mirrors(STRUCT_MIRRORS)


@dataclass(frozen=True)
class CheckReport:
    """What :func:`check` found. ``ok`` when the adapter kept every promise;
    otherwise ``violation`` names the broken one (``"NOT_RESTORED"``,
    ``"HASH"``... the ``GTS_CHECK_`` names), ``path`` is the moves from the
    starting position to where it was seen, ``message`` says what is wrong."""
    violation: str
    message: str
    path: Tuple[int, ...]
    positions: int
    callback_status: int
    algorithm: Optional[str]

    @property
    def ok(self) -> bool:
        return self.violation == "OK"


def _prototype():
    fn = getattr(_lib.lib, "gts_game_check", None)
    if fn is None:
        raise error("ENOTSUP", "this libgts has no gts_game_check")
    fn.restype = c_int
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(CheckOptionsStruct),
                   ctypes.POINTER(CheckReportStruct)]
    name = _lib.lib.gts_check_violation_name
    name.restype = ctypes.c_char_p
    name.argtypes = [c_int]
    return fn, name


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if not lo <= value <= hi:
        raise error("ERANGE", f"{what}={value}, allowed {lo}..{hi}")
    return value


def check(game: Any, *, seed: int = 0, walks: int = 0, walk_length: int = 0, depth: int = 0,
          algorithm_positions: int = 0) -> CheckReport:
    """Check ``game`` (a :class:`gts.Game` or a built-in game) from its current
    position. Zero options mean the library's defaults (16 walks of up to 24
    plies, depth 3, the algorithms compared at 4 positions; a negative
    ``algorithm_positions`` skips that comparison)."""
    fn, violation_name = _prototype()
    opts = CheckOptionsStruct()
    opts.struct_size = ctypes.sizeof(opts)
    opts.seed = _int(seed, "seed", 0, 2**64 - 1)
    opts.walks = _int(walks, "walks", 0, 2**32 - 1)
    opts.walk_length = _int(walk_length, "walk_length", 0, _lib.MAX_PLY - 8)
    opts.depth = _int(depth, "depth", 0, 8)
    opts.algorithm_positions = _int(algorithm_positions, "algorithm_positions",
                                    -2**31, 2**31 - 1)
    report = CheckReportStruct()
    report.struct_size = ctypes.sizeof(report)
    if isinstance(game, Game):
        ctx = _SearchContext(None, game)
        vt, state = ctypes.addressof(ctx.vtable), 1
    elif hasattr(game, "_gts_vtable_and_state"):
        vt, state = game._gts_vtable_and_state()
        ctx = _SearchContext(None)
    else:
        raise TypeError(f"can only check a gts.Game or a gts.games game, not "
                        f"{type(game).__name__}")
    try:
        ctx.algorithm = "check"
        ctx.checking = True
        rc = fn(vt, state, ctypes.byref(opts), ctypes.byref(report))
    finally:
        ctx.close()
    if ctx.error is not None:
        err, ctx.error = ctx.error, None
        raise err
    if rc < 0:
        # The library names the argument at fault in the report's message.
        why = report.message.decode("utf-8", "replace")
        raise make_error(rc, f"gts_game_check: {why}" if why else "gts_game_check")
    alg = None
    if report.violation == 12:  # GTS_CHECK_ALGORITHM
        alg = _lib.decode(_lib.lib.gts_algorithm_name(report.algorithm))
    return CheckReport(
        violation=_lib.decode(violation_name(report.violation)) or str(report.violation),
        message=report.message.decode("utf-8", "replace"),
        path=tuple(report.path[i] for i in range(report.path_length)),
        positions=report.positions,
        callback_status=report.callback_status,
        algorithm=alg,
    )
