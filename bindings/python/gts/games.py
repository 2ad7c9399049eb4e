"""The built-in C games of libgts-games, searched at full C speed.

``Connect4("4453")``, ``TicTacToe("519")``, ``Othello("f5d6")`` and
``RandomTree(seed=..., branching=..., depth=...)`` own a C state made by the
game's constructor and pass the library the game's own C vtable: no Python
code runs per node. Each can also be driven from Python (:meth:`moves`,
:meth:`play`, :meth:`undo`, :meth:`evaluate`, :meth:`perft`...), copied
(:meth:`clone`), and frees its C state in :meth:`close` (also a context
manager, and on garbage collection).

Every input is checked before it reaches C (ctypes would silently wrap an
int to the C type and cut a string at its first NUL): a move must be an int
in ``0 .. 2**64-1`` (TypeError / ``gts.InvalidArgument``) and legal;
position and move texts must be ``str`` without NUL (TypeError /
``gts.ParseError``); the parameters of :class:`RandomTree` must lie in the
ranges of ``gts_games.h`` (``gts.InvalidArgument``, a ``ValueError``).

libgts-games is loaded on first use (``GTS_GAMES_LIBRARY``, an installed
libgts-games, or the build tree: see :mod:`gts._lib`).
"""
from __future__ import annotations

import ctypes
from typing import Any, Dict, List, Optional, Tuple, Type

from . import _lib
from .errors import error, make_error
from .game import check_int

__all__ = ["BuiltinGame", "TicTacToe", "Connect4", "Othello", "Chess", "Go", "RandomTree", "new",
           "names", "GAMES", "position_new", "position_turn"]


_MOVE_MAX = 2 ** 64 - 1


def _g() -> ctypes.CDLL:
    return _lib.games_lib()


def _text(value: Any, what: str) -> bytes:
    """A position or move text for C: a str without NUL (C would stop there)."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {type(value).__name__} ({value!r})")
    if "\0" in value:
        raise error("EPARSE", f"{what} {value!r} contains a NUL character")
    try:
        # surrogateescape: bytes that were not UTF-8 on a command line
        # (os.fsdecode's escapes) go to C as the same bytes
        return value.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raise error("EPARSE", f"{what} {value!r} is not valid text") from None


def _flag(value: Any, what: str) -> bool:
    """A switch: a bool, or the int 0 or 1."""
    if type(value) is bool:
        return value
    if type(value) is int and value in (0, 1):
        return bool(value)
    raise TypeError(f"{what} must be a bool, not {type(value).__name__} ({value!r})")


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

    def _move(self, move: Any) -> int:
        """``move`` as an int in 0..2**64-1 (a gts_move), or TypeError /
        InvalidArgument: ctypes would silently reduce it mod 2**64."""
        m = check_int(move, f"a {self.name} move")
        if not 0 <= m <= _MOVE_MAX:
            raise error("EINVAL", f"{self.name}: move {m} is outside 0..2**64-1")
        return m

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

    def play(self, move: Any) -> None:
        """Apply ``move`` (an int, or its text form) and record it in history.
        An illegal move is an InvalidArgument (a bad text a ParseError)."""
        move = self.parse_move(move) if isinstance(move, str) else self._move(move)
        vt = self._vt.contents
        rc = vt.apply(self._open(), move, vt.user)
        if rc < 0:
            raise make_error(rc, f"{self.name}: illegal move {move}")
        self.history.append(move)

    apply = play

    def undo(self, move: Optional[int] = None) -> int:
        """Take back the last move played with :meth:`play` and return it.
        ``move``, if given, must be that move (InvalidArgument otherwise);
        IndexError when there is none (the moves of the start position
        cannot be taken back)."""
        if move is not None:
            move = self._move(move)
        if not self.history:
            raise IndexError("no move to undo: only moves made with play() can be taken back")
        last = self.history[-1]
        if move is not None and move != last:
            raise error("EINVAL", f"{self.name}: cannot undo {move}: the last move played is "
                                  f"{last}")
        vt = self._vt.contents
        rc = vt.undo(self._open(), last, vt.user)
        if rc < 0:
            raise make_error(rc, f"{self.name}: cannot undo {last}")
        self.history.pop()
        return last

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
        """Text of ``move`` ("-" for None); InvalidArgument for a number
        that is no move of this game."""
        if move is None:
            return "-"
        move = self._move(move)
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
        """Move of ``text`` in this position (ParseError if it is not a
        legal move's text)."""
        data = _text(text, f"{self.name} move text")
        vt = self._vt.contents
        if not vt.parse_move:
            try:
                return self._move(int(text))
            except ValueError:
                raise error("EPARSE", f"{self.name}: {text!r}") from None
        out = ctypes.c_uint64()
        rc = vt.parse_move(self._open(), data, ctypes.byref(out), vt.user)
        if rc < 0:
            raise make_error(rc, f"{self.name}: {text!r}")
        return out.value

    def perft(self, depth: int) -> int:
        """Leaf paths of ``depth`` plies from this state (a node without
        moves before ``depth`` counts as one)."""
        d = check_int(depth, "perft depth")
        if not 0 <= d <= _lib.MAX_DEPTH:
            raise error("EINVAL", f"perft({d}): depth must be in 0..{_lib.MAX_DEPTH}")
        count = ctypes.c_uint64()
        rc = _g().gts_games_perft(self._vt, self._open(), d, ctypes.byref(count))
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
        rc = _g().gts_tictactoe_new(_text(position, "tic-tac-toe position"),
                                    ctypes.byref(out))
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
        data = _text(position, "Connect-4 position")
        solver = _flag(solver, "solver")
        out = ctypes.c_void_p()
        rc = _g().gts_connect4_new(data, ctypes.byref(out))
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
        rc = _g().gts_othello_new(_text(position, "Othello position"), ctypes.byref(out))
        self._adopt(_g().gts_game_othello(), rc, out, f"Othello position {position!r}")
        self._start = position


class Chess(BuiltinGame):
    """Chess (examples/games/chess.c). Moves are from | to << 6 | promotion
    << 12 (squares a1 = 0 .. h8 = 63), text in UCI long algebraic ("e2e4",
    "e7e8q"); ``position`` is "startpos" or a FEN, optionally followed by
    "moves" and UCI moves. :meth:`perft` counts as chess programmers do
    (gts_chess_perft: a mate adds no leaf, no rule draws)."""

    name = "chess"

    def __init__(self, position: str = "") -> None:
        super().__init__()
        out = ctypes.c_void_p()
        rc = _g().gts_chess_new(_text(position, "chess position"), ctypes.byref(out))
        self._adopt(_g().gts_game_chess(), rc, out, f"chess position {position!r}")
        self._start = position

    def perft(self, depth: int) -> int:
        """Leaf paths of exactly ``depth`` plies (the published chess counts)."""
        d = check_int(depth, "perft depth")
        if not 0 <= d <= _lib.MAX_DEPTH:
            raise error("EINVAL", f"perft({d}): depth must be in 0..{_lib.MAX_DEPTH}")
        count = ctypes.c_uint64()
        rc = _g().gts_chess_perft(self._open(), d, ctypes.byref(count))
        if rc < 0:
            raise make_error(rc, f"perft({depth})")
        return count.value


class Go(BuiltinGame):
    """Go on a 2x2 to 19x19 board (examples/games/go.c): Black first,
    captures, no suicide, positional superko, two passes or the move cap end
    the game, Tromp-Taylor area scoring with komi. Moves are points
    ``y * size + x`` (x = 0 is column A, y = 0 is row 1) and :attr:`PASS`,
    text GTP vertices ("D4", no column I, case-insensitive) and "pass".

    ``position`` is the adapter's text (gts_go_new): blank-separated tokens
    "SIZE" (default 9), "komi=K" (default 7.5), "maxmoves=N" (default 3 *
    size * size), "patterns=0|1" (the playout policy's MoGo patterns,
    default 0) and "moves=V,V,...", e.g. "9 komi=7 moves=E5,D4,pass". Or
    give them as keywords: ``Go(size=5, komi=0.5, moves=["C3", "pass"])``
    (``moves`` as texts or move numbers) -- the text or the keywords, not
    both. :meth:`evaluate` is Black's area margin from the side to move, 100
    per point."""

    name = "go"
    PASS = 361
    #: a set-up move (GTS_GO_SKIP, since 0.2): apply() hands the turn over,
    #: not a pass; never generated
    SKIP = 362
    BLACK, WHITE = 0, 1
    COLUMNS = "ABCDEFGHJKLMNOPQRST"
    #: allowed values of the keywords (gts_games.h)
    SIZES = (2, 19)
    MAX_KOMI = 150
    MAX_MOVES = 100000

    def __init__(self, position: str = "", *, size: Optional[int] = None,
                 komi: Optional[float] = None, maxmoves: Optional[int] = None,
                 moves: Optional[Any] = None) -> None:
        super().__init__()
        keywords = (size, komi, maxmoves, moves) != (None, None, None, None)
        data = _text(position, "Go position")
        if keywords and position:
            raise error("EINVAL", "go: give the position as text or as keywords, not both")
        if keywords:
            position = self._keywords_text(size, komi, maxmoves, moves)
            data = position.encode()
        out = ctypes.c_void_p()
        rc = _g().gts_go_new(data, ctypes.byref(out))
        self._adopt(_g().gts_game_go(), rc, out, f"Go position {position!r}")
        self._start = position
        self.size = self.board().index("\n")

    @classmethod
    def _keywords_text(cls, size: Any, komi: Any, maxmoves: Any, moves: Any) -> str:
        tokens: List[str] = []
        n = 9                                  # the adapter's default size
        if size is not None:
            if type(size) is bool:
                raise TypeError("go size must be an int, not bool")
            n = check_int(size, "go size")
            if not cls.SIZES[0] <= n <= cls.SIZES[1]:
                raise error("EINVAL", f"go size={n}, allowed {cls.SIZES[0]}..{cls.SIZES[1]}")
            tokens.append(str(n))
        if komi is not None:
            if type(komi) is bool or not isinstance(komi, (int, float)):
                raise TypeError(f"go komi must be a number, not {type(komi).__name__}")
            k2 = komi * 2
            if not (-2 * cls.MAX_KOMI <= k2 <= 2 * cls.MAX_KOMI) or k2 != int(k2):
                raise error("EINVAL", f"go komi={komi!r}: a multiple of 0.5 within "
                                      f"-{cls.MAX_KOMI}..{cls.MAX_KOMI}")
            tokens.append(f"komi={int(k2) / 2:g}")
        if maxmoves is not None:
            if type(maxmoves) is bool:
                raise TypeError("go maxmoves must be an int, not bool")
            cap = check_int(maxmoves, "go maxmoves")
            if not 1 <= cap <= cls.MAX_MOVES:
                raise error("EINVAL", f"go maxmoves={cap}, allowed 1..{cls.MAX_MOVES}")
            tokens.append(f"maxmoves={cap}")
        if moves is not None:
            if isinstance(moves, (str, bytes)):
                raise TypeError("go moves must be a list of moves, not a str")
            texts = [cls._vertex(m, n) for m in moves]
            if texts:
                tokens.append("moves=" + ",".join(texts))
        return " ".join(tokens)

    @classmethod
    def _vertex(cls, move: Any, size: int) -> str:
        """A move (a text or a move number) as the text of a moves= token."""
        if isinstance(move, str):
            _text(move, "go move text")
            if not move or any(c in move for c in ", \t"):
                raise error("EPARSE", f"go move text {move!r}")
            return move
        if type(move) is bool:
            raise TypeError("a go move must be an int or a str, not bool")
        m = check_int(move, "a go move")
        if m == cls.PASS:
            return "pass"
        if not 0 <= m < size * size:
            raise error("EINVAL", f"go: move {m} is no point of a {size}x{size} board")
        return f"{cls.COLUMNS[m % size]}{m // size + 1}"

    def board(self) -> str:
        """The board, top row (the highest row number) first: one line per
        row, "X" Black, "O" White, "." empty, each line ending in a newline."""
        buf = ctypes.create_string_buffer(19 * 20 + 1)
        rc = _g().gts_go_board(self._open(), buf, len(buf))
        if rc < 0:
            raise make_error(rc, "go board")
        return buf.value.decode("ascii")

    def area(self) -> float:
        """Black's Tromp-Taylor area margin of the board as it stands, komi
        included, in points (positive: Black leads; exact once the game is
        over)."""
        return _g().gts_go_area(self._open()) / 2

    @property
    def komi(self) -> float:
        """The komi in points (7.5 unless the position set another), a
        multiple of 0.5; read-only (gts_go_komi)."""
        return _g().gts_go_komi(self._open()) / 2

    @property
    def to_move(self) -> int:
        """The side to move: :attr:`BLACK` (0) or :attr:`WHITE` (1)."""
        return _g().gts_go_to_move(self._open())

    @property
    def position(self) -> str:
        """Position text: the start position's tokens, with the moves played
        since added to its moves= token."""
        tokens = self._start.replace("\t", " ").split()
        played = [t[6:] for t in tokens if t.startswith("moves=")]
        played = played[-1].split(",") if played and played[-1] else []
        tokens = [t for t in tokens if not t.startswith("moves=")]
        played += [self.format_move(m) for m in self.history]
        if played:
            tokens.append("moves=" + ",".join(played))
        return " ".join(tokens)

    def __str__(self) -> str:
        return self.board().rstrip("\n")


class RandomTree(BuiltinGame):
    """A deterministic random game tree (see gts_games.h): ``depth`` levels,
    ``branching`` children per node (minus up to ``branching_jitter``),
    leaf values in [min_value, max_value]; ``terminal_percent`` early
    leaves; ``transpositions`` share subtrees; ``ordered_percent`` how often
    the first child is the best. Each parameter must lie in its range of
    :attr:`RANGES` (``branching_jitter`` also below ``branching``,
    ``min_value`` not above ``max_value``): InvalidArgument otherwise."""

    name = "randtree"
    PARAMS = ("seed", "branching", "depth", "min_value", "max_value", "branching_jitter",
              "terminal_percent", "transpositions", "ordered_percent")
    #: allowed values of the int parameters (gts_randtree_params in gts_games.h)
    RANGES = {
        "seed": (0, 2 ** 64 - 1),
        "branching": (1, 64),
        "depth": (1, 60),
        "min_value": (-30000, 30000),
        "max_value": (-30000, 30000),
        "branching_jitter": (0, 63),
        "terminal_percent": (0, 100),
        "ordered_percent": (0, 100),
    }

    def __init__(self, seed: int = 1, branching: int = 4, depth: int = 8,
                 min_value: int = -1000, max_value: int = 1000, branching_jitter: int = 0,
                 terminal_percent: int = 0, transpositions: bool = False,
                 ordered_percent: int = 0) -> None:
        super().__init__()
        given = dict(seed=seed, branching=branching, depth=depth, min_value=min_value,
                     max_value=max_value, branching_jitter=branching_jitter,
                     terminal_percent=terminal_percent, transpositions=transpositions,
                     ordered_percent=ordered_percent)
        params: Dict[str, Any] = {}
        for k, v in given.items():
            if k == "transpositions":
                params[k] = _flag(v, "randtree transpositions")
                continue
            if type(v) is bool:
                raise TypeError(f"randtree {k} must be an int, not bool")
            v = check_int(v, f"randtree {k}")
            lo, hi = self.RANGES[k]
            if not lo <= v <= hi:
                raise error("EINVAL", f"randtree {k}={v}, allowed {lo}..{hi}")
            params[k] = v
        if params["min_value"] > params["max_value"]:
            raise error("EINVAL", f"randtree min_value={params['min_value']} is above "
                                  f"max_value={params['max_value']}")
        if params["branching_jitter"] >= params["branching"]:
            raise error("EINVAL", f"randtree branching_jitter={params['branching_jitter']} "
                                  f"must be below branching={params['branching']}")
        self.params = params
        p = _lib.new_struct(_lib.RandTreeParamsStruct)
        for k, v in params.items():
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
        """Parse "seed=3,branching=4,depth=8" (any subset of PARAMS, each at
        most once; ints in Python syntax, transpositions 0 or 1)."""
        if not isinstance(text, str):
            raise TypeError(f"randtree parameters must be a str, not {type(text).__name__}")
        kw: Dict[str, int] = {}
        for part in filter(None, (t.strip() for t in text.replace(" ", ",").split(","))):
            k, sep, v = part.partition("=")
            if not sep or k not in cls.PARAMS:
                raise error("EPARSE", f"randtree parameter {part!r}; known: "
                                 + ", ".join(cls.PARAMS))
            if k in kw:
                raise error("EPARSE", f"randtree parameter {k!r} given twice")
            try:
                kw[k] = int(v, 0)
            except ValueError:
                raise error("EPARSE", f"randtree parameter {part!r}") from None
            if k == "transpositions" and kw[k] not in (0, 1):
                raise error("EPARSE", f"randtree parameter {part!r}: 0 or 1")
        return cls(**kw)


#: built-in game classes by gts_games_find() name
GAMES: Dict[str, Type[BuiltinGame]] = {
    "tictactoe": TicTacToe,
    "connect4": Connect4,
    "othello": Othello,
    "chess": Chess,
    "go": Go,
    "randtree": RandomTree,
}


def names() -> List[str]:
    """Names of the built-in games."""
    return list(GAMES)


def new(name: str, position: str = "", **kwargs: Any) -> BuiltinGame:
    """A built-in game by name and position text (for randtree the text is
    "seed=1,branching=4,depth=8", or the parameters as keywords: not both)."""
    cls = GAMES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise error("EINVAL", f"unknown game {name!r}; known: {', '.join(GAMES)}")
    if cls is RandomTree:
        if position and kwargs:
            raise error("EINVAL", "randtree: give the parameters as text or as keywords, "
                                  "not both")
        return RandomTree.from_text(position) if position else RandomTree(**kwargs)
    return cls(position, **kwargs)


#: room for the reason of a refused position (the gts tool's size)
_WHY_SIZE = 8192


def position_new(name: str, text: Any = "", tree: Optional[Dict[str, Any]] = None, *,
                 solver: bool = False) -> BuiltinGame:
    """The built-in game ``name`` at position ``text``, read by libgts-games
    (gts_games_position_new): the game owns its rules and says why it
    refuses a text. ``text`` is a str, or bytes as they came from a command
    line; for "randtree" it lists child indices from the root ("0,3,1") and
    ``tree`` holds the tree's parameters (:attr:`RandomTree.PARAMS` names;
    missing ones take the gts tool's defaults: seed 1, branching 8, depth 8,
    values -1000..1000). ``solver=True`` gives Connect-4 the solver vtable.

    A refused text raises the status's error (``gts.ParseError`` for a text
    that is not a position of the game) whose ``why`` attribute is the
    game's reason, also its message: "move 3: column 1 is full"."""
    data, params = _position_args(name, text, tree)
    out = ctypes.c_void_p()
    why = ctypes.create_string_buffer(_WHY_SIZE)
    rc = _g().gts_games_position_new(name.encode(), ctypes.byref(params) if params else None,
                                     data, ctypes.byref(out), why, len(why))
    if rc < 0:
        reason = why.value.decode("utf-8", "replace")
        e = make_error(rc, reason or None)
        e.why = reason
        raise e
    cls = GAMES.get(name, Connect4)           # connect4h: Connect-4's states
    g = cls.__new__(cls)
    BuiltinGame.__init__(g)
    vt = _g().gts_games_find(name.encode())
    if name == "connect4" and _flag(solver, "solver"):
        vt = _g().gts_game_connect4_solver()
    g._adopt(vt, 0, out, f"{name} position")
    g._start = data.decode("utf-8", "surrogateescape")
    if isinstance(g, Connect4):
        g.solver = name == "connect4" and bool(solver)
    elif isinstance(g, Go):
        g.size = g.board().index("\n")
    elif isinstance(g, RandomTree):
        g.params = {k: getattr(params, k) for k in RandomTree.PARAMS}
        g._start = ""
    return g


def position_turn(name: str, text: Any = "", tree: Optional[Dict[str, Any]] = None
                  ) -> Tuple[int, int]:
    """Whose turn it is after position ``text`` of the built-in game ``name``,
    and how many plies the text played (gts_games_position_turn): ``(side,
    plies)``, side 0 when the player who moves first from the start is to
    move (chess White, Go and Othello Black), 1 for the other. ``text`` and
    ``tree`` as for :func:`position_new`, whose errors a refused text raises
    (call it for the reason). Since 0.3."""
    data, params = _position_args(name, text, tree)
    side, plies = ctypes.c_int(), ctypes.c_int()
    rc = _g().gts_games_position_turn(name.encode(), ctypes.byref(params) if params else None,
                                      data, ctypes.byref(side), ctypes.byref(plies))
    if rc < 0:
        raise make_error(rc, f"{name} position {text!r}")
    return side.value, plies.value


def _position_args(name: Any, text: Any, tree: Optional[Dict[str, Any]]) -> Tuple[bytes, Any]:
    """The name checked, the text as bytes and a random tree's parameters
    (None for the other games) of position_new and position_turn."""
    if not isinstance(name, str) or not _g().gts_games_find(name.encode()):
        raise error("EINVAL", f"unknown game {name!r}; known: {', '.join(GAMES)}")
    data = text if isinstance(text, bytes) else _text(text, f"{name} position")
    if b"\0" in data:
        raise error("EPARSE", f"{name} position {text!r} contains a NUL character")
    params = None
    if name == "randtree":
        given = {"seed": 1, "branching": 8, "depth": 8, "min_value": -1000, "max_value": 1000}
        given.update(tree or {})
        params = _lib.new_struct(_lib.RandTreeParamsStruct)
        for k, v in given.items():
            if k not in RandomTree.PARAMS:
                raise error("EINVAL", f"randtree parameter {k!r}; known: "
                                      + ", ".join(RandomTree.PARAMS))
            lo, hi = RandomTree.RANGES.get(k, (0, 1))
            if type(v) is bool or not isinstance(v, int) or not lo <= v <= hi:
                if not (k == "transpositions" and type(v) is bool):
                    raise error("EINVAL", f"randtree {k}={v!r}, allowed {lo}..{hi}")
            setattr(params, k, v)
    return data, params
