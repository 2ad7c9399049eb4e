"""The built-in C games of libgts-games, searched at full C speed.

``Connect4("4453")``, ``TicTacToe("519")``, ``Othello("f5d6")`` and
``RandomTree(seed=..., branching=..., depth=...)`` own a C state made by the
game's constructor and pass the library the game's own C vtable: no Python
code runs per node. Each can also be driven from Python (:meth:`moves`,
:meth:`play`, :meth:`undo`, :meth:`evaluate`, :meth:`perft`...), copied
(:meth:`clone`), and frees its C state in :meth:`close` (also a context
manager, and on garbage collection).

libgts-games is loaded on first use (``GTS_GAMES_LIBRARY``, an installed
libgts-games, or the build tree: see :mod:`gts._lib`).
"""
from __future__ import annotations

import ctypes
from typing import Dict, List, Optional, Type

from . import _lib
from .errors import error, make_error

__all__ = ["BuiltinGame", "TicTacToe", "Connect4", "Othello", "RandomTree", "new", "names",
           "GAMES"]


def _g() -> ctypes.CDLL:
    return _lib.games_lib()


class BuiltinGame:
    """A game state of libgts-games. Not thread-safe; the searches of one
    state must not overlap."""

    #: name of the game in gts_games_find()
    name = ""

    def __init__(self) -> None:
        self._vt = None          # POINTER(GameStruct)
        self._state: Optional[int] = None
        self._start = ""         # position text the state was made from
        self.history: List[int] = []   # moves played through play()

    # ---- construction helpers --------------------------------------------------
    def _adopt(self, vtable, rc: int, out: ctypes.c_void_p, what: str) -> None:
        if rc < 0:
            raise make_error(rc, what)
        self._vt = vtable
        self._state = out.value

    def _gts_vtable_and_state(self):
        """(vtable address, state address) for gts_search."""
        return ctypes.cast(self._vt, ctypes.c_void_p).value, self._open()

    def _open(self) -> int:
        if not self._state:
            raise ValueError(f"this {type(self).__name__} is closed")
        return self._state

    @property
    def vtable(self) -> _lib.GameStruct:
        """The C vtable (read-only use)."""
        return self._vt.contents

    @property
    def max_moves(self) -> int:
        return self._vt.contents.max_moves

    # ---- lifecycle -----------------------------------------------------------------
    def close(self) -> None:
        """Free the C state (idempotent)."""
        st, self._state = self._state, None
        if st:
            _g().gts_games_free(self._vt, st)

    @property
    def closed(self) -> bool:
        return not self._state

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    def clone(self) -> "BuiltinGame":
        """An independent copy (the game's C clone)."""
        vt = self._vt.contents
        if not vt.clone:
            raise error("ENOTSUP", f"{self.name} has no clone")
        st = vt.clone(self._open(), vt.user)
        if not st:
            raise error("ENOMEM", f"{self.name} clone")
        copy = object.__new__(type(self))
        BuiltinGame.__init__(copy)
        copy.__dict__.update({k: v for k, v in self.__dict__.items()
                              if k not in ("_state", "history")})
        copy._state = st
        copy.history = list(self.history)
        return copy

    __copy__ = clone

    # ---- playing from Python ----------------------------------------------------------
    def moves(self) -> List[int]:
        """Legal moves (generate); [] when the game is over."""
        vt = self._vt.contents
        cap = vt.max_moves
        buf = (ctypes.c_uint64 * cap)()
        n = vt.generate(self._open(), ctypes.addressof(buf), cap, vt.user)
        if n < 0:
            raise make_error(n, f"{self.name} generate")
        return list(buf[:n])

    generate = moves

    def play(self, move: int) -> None:
        """Apply ``move`` (an int, or its text form) and record it in history."""
        if isinstance(move, str):
            move = self.parse_move(move)
        vt = self._vt.contents
        rc = vt.apply(self._open(), move, vt.user)
        if rc < 0:
            raise make_error(rc, f"{self.name}: illegal move {move}")
        self.history.append(move)

    apply = play

    def undo(self, move: Optional[int] = None) -> int:
        """Take back the last move (``move`` defaults to history[-1])."""
        if move is None:
            if not self.history:
                raise IndexError("no move to undo")
            move = self.history[-1]
        vt = self._vt.contents
        rc = vt.undo(self._open(), move, vt.user)
        if rc < 0:
            raise make_error(rc, f"{self.name}: cannot undo {move}")
        if self.history and self.history[-1] == move:
            self.history.pop()
        return move

    def evaluate(self) -> int:
        """Static value from the side to move."""
        vt = self._vt.contents
        return vt.evaluate(self._open(), vt.user)

    def hash(self) -> Optional[int]:
        vt = self._vt.contents
        return vt.hash(self._open(), vt.user) if vt.hash else None

    def is_over(self) -> bool:
        return not self.moves()

    def format_move(self, move: Optional[int]) -> str:
        """Text of ``move`` ("-" for None)."""
        if move is None:
            return "-"
        vt = self._vt.contents
        if not vt.format_move:
            return str(move)
        buf = ctypes.create_string_buffer(64)
        n = vt.format_move(self._open(), move, ctypes.addressof(buf), len(buf), vt.user)
        if n < 0:
            raise make_error(n, f"{self.name}: cannot format move {move}")
        return buf.value.decode()

    def format_moves(self, moves) -> str:
        return " ".join(self.format_move(m) for m in moves)

    def parse_move(self, text: str) -> int:
        """Move of ``text`` in this position (ParseError if illegal)."""
        vt = self._vt.contents
        if not vt.parse_move:
            return int(text)
        out = ctypes.c_uint64()
        rc = vt.parse_move(self._open(), text.encode(), ctypes.byref(out), vt.user)
        if rc < 0:
            raise make_error(rc, f"{self.name}: {text!r}")
        return out.value

    def perft(self, depth: int) -> int:
        """Leaf paths of ``depth`` plies from this state (a node without
        moves before ``depth`` counts as one)."""
        count = ctypes.c_uint64()
        rc = _g().gts_games_perft(self._vt, self._open(), int(depth), ctypes.byref(count))
        if rc < 0:
            raise make_error(rc, f"perft({depth})")
        return count.value

    @property
    def position(self) -> str:
        """Position text: the start position plus the moves played."""
        return self._start + "".join(self.format_move(m) for m in self.history)

    def __repr__(self) -> str:
        st = "closed" if self.closed else repr(self.position)
        return f"<gts.games.{type(self).__name__} {st}>"


class TicTacToe(BuiltinGame):
    """Tic-tac-toe. Moves are cells 0..8 (row-major), text "1".."9";
    ``position`` lists the cells played ("519")."""

    name = "tictactoe"

    def __init__(self, position: str = "") -> None:
        super().__init__()
        out = ctypes.c_void_p()
        rc = _g().gts_tictactoe_new(position.encode(), ctypes.byref(out))
        self._adopt(_g().gts_game_tictactoe(), rc, out, f"tic-tac-toe position {position!r}")
        self._start = position

    def cells(self) -> List[str]:
        """The nine cells as "X", "O" or "."."""
        cells = ["."] * 9
        for i, ch in enumerate(self.position):
            cells[int(ch) - 1] = "XO"[i % 2]
        return cells

    def __str__(self) -> str:
        c = self.cells()
        return "\n".join(" ".join(c[r * 3:r * 3 + 3]) for r in range(3))


class Connect4(BuiltinGame):
    """Connect-4 (7x6). Moves are columns 0..6, text "1".."7"; ``position``
    lists 1-based columns ("4453"). Scores: positive when the side to move
    wins, (43 - stones before the winning one) / 2. ``solver=True`` uses the
    solver vtable (exact pruning; same scores)."""

    name = "connect4"
    WIDTH, HEIGHT = 7, 6

    def __init__(self, position: str = "", solver: bool = False) -> None:
        super().__init__()
        out = ctypes.c_void_p()
        rc = _g().gts_connect4_new(position.encode(), ctypes.byref(out))
        vt = _g().gts_game_connect4_solver() if solver else _g().gts_game_connect4()
        self._adopt(vt, rc, out, f"Connect-4 position {position!r}")
        self._start = position
        self.solver = solver

    def grid(self) -> List[List[str]]:
        """Rows top to bottom of "X" (first player), "O" or "."."""
        cols: List[List[str]] = [[] for _ in range(self.WIDTH)]
        for i, ch in enumerate(self.position):
            cols[int(ch) - 1].append("XO"[i % 2])
        return [[cols[c][r] if r < len(cols[c]) else "." for c in range(self.WIDTH)]
                for r in reversed(range(self.HEIGHT))]

    def __str__(self) -> str:
        rows = [" ".join(r) for r in self.grid()]
        return "\n".join(rows + [" ".join(str(c + 1) for c in range(self.WIDTH))])


class Othello(BuiltinGame):
    """Othello (8x8). Moves are squares 0..63 (a1 = 0) and PASS (64);
    ``position`` is a move sequence like "f5d6c3"."""

    name = "othello"
    PASS = 64

    def __init__(self, position: str = "") -> None:
        super().__init__()
        out = ctypes.c_void_p()
        rc = _g().gts_othello_new(position.encode(), ctypes.byref(out))
        self._adopt(_g().gts_game_othello(), rc, out, f"Othello position {position!r}")
        self._start = position


class RandomTree(BuiltinGame):
    """A deterministic random game tree (see gts_games.h): ``depth`` levels,
    ``branching`` children per node (minus up to ``branching_jitter``),
    leaf values in [min_value, max_value]; ``terminal_percent`` early
    leaves; ``transpositions`` share subtrees; ``ordered_percent`` how often
    the first child is the best."""

    name = "randtree"
    PARAMS = ("seed", "branching", "depth", "min_value", "max_value", "branching_jitter",
              "terminal_percent", "transpositions", "ordered_percent")

    def __init__(self, seed: int = 1, branching: int = 4, depth: int = 8,
                 min_value: int = -1000, max_value: int = 1000, branching_jitter: int = 0,
                 terminal_percent: int = 0, transpositions: bool = False,
                 ordered_percent: int = 0) -> None:
        super().__init__()
        p = _lib.new_struct(_lib.RandTreeParamsStruct)
        self.params = dict(seed=seed, branching=branching, depth=depth, min_value=min_value,
                           max_value=max_value, branching_jitter=branching_jitter,
                           terminal_percent=terminal_percent, transpositions=transpositions,
                           ordered_percent=ordered_percent)
        ranges = {"seed": (0, 2 ** 64 - 1), "min_value": (-2 ** 31, 2 ** 31 - 1),
                  "max_value": (-2 ** 31, 2 ** 31 - 1)}
        for k, v in self.params.items():
            if k == "transpositions":
                setattr(p, k, bool(v))
                continue
            lo, hi = ranges.get(k, (0, 2 ** 32 - 1))
            if not isinstance(v, int) or not lo <= v <= hi:
                raise error("EINVAL", f"randtree {k}={v!r}")
            setattr(p, k, v)
        out = ctypes.c_void_p()
        rc = _g().gts_randtree_new(ctypes.byref(p), ctypes.byref(out))
        self._adopt(_g().gts_game_randtree(), rc, out, "randtree parameters %r" % self.params)

    @property
    def position(self) -> str:
        return ",".join(f"{k}={int(v)}" for k, v in self.params.items()) + \
            ("" if not self.history else " " + self.format_moves(self.history))

    @classmethod
    def from_text(cls, text: str) -> "RandomTree":
        """Parse "seed=3,branching=4,depth=8" (any subset of PARAMS)."""
        kw: Dict[str, int] = {}
        for part in filter(None, (t.strip() for t in text.replace(" ", ",").split(","))):
            k, sep, v = part.partition("=")
            if not sep or k not in cls.PARAMS:
                raise error("EPARSE", f"randtree parameter {part!r}; known: "
                                 + ", ".join(cls.PARAMS))
            try:
                kw[k] = int(v, 0)
            except ValueError:
                raise error("EPARSE", f"randtree parameter {part!r}") from None
        return cls(**kw)


#: built-in game classes by gts_games_find() name
GAMES: Dict[str, Type[BuiltinGame]] = {
    "tictactoe": TicTacToe,
    "connect4": Connect4,
    "othello": Othello,
    "randtree": RandomTree,
}


def names() -> List[str]:
    """Names of the built-in games."""
    return list(GAMES)


def new(name: str, position: str = "", **kwargs) -> BuiltinGame:
    """A built-in game by name and position text (for randtree the text is
    "seed=1,branching=4,depth=8")."""
    cls = GAMES.get(name)
    if cls is None:
        raise error("EINVAL", f"unknown game {name!r}; known: {', '.join(GAMES)}")
    if cls is RandomTree:
        return RandomTree.from_text(position) if position else RandomTree(**kwargs)
    return cls(position, **kwargs)
