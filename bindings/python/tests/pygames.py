"""Games written in Python for the tests, and a plain negamax reference.

PyTicTacToeFull mirrors examples/games/tictactoe.c exactly (same move order,
evaluation, hash, move_score and bounds), so a serial search of both visits
the same tree. PyRandomTree is a deterministic random tree computed from a
seed; `negamax` below searches it the way the library defines a search
(evaluate at depth 0 or quiescence over noisy moves, distance-adjusted
decided scores).
"""
import gts

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
CELL_SCORE = (3, 2, 3, 2, 4, 2, 3, 2, 3)
EMPTY, X, O = 0, 1, 2


class PyTicTacToe(gts.Game):
    """Tic-tac-toe with only the required methods."""

    max_moves = 9

    def __init__(self, position=""):
        self.cell = [EMPTY] * 9
        self.count = 0
        for ch in position:
            self.apply(int(ch) - 1)

    def side(self):
        return O if self.count & 1 else X

    def last(self):
        return X if self.count & 1 else O

    def has_line(self, who):
        c = self.cell
        return any(c[a] == who and c[b] == who and c[d] == who for a, b, d in LINES)

    def over(self):
        return self.count >= 9 or (self.count > 0 and self.has_line(self.last()))

    def generate(self):
        if self.over():
            return []
        return [i for i in range(9) if self.cell[i] == EMPTY]

    def apply(self, move):
        if move > 8 or self.cell[move] != EMPTY or self.over():
            raise ValueError(f"illegal move {move}")
        self.cell[move] = self.side()
        self.count += 1

    def undo(self, move):
        if move > 8 or self.count == 0 or self.cell[move] != self.last():
            raise ValueError(f"cannot undo {move}")
        self.cell[move] = EMPTY
        self.count -= 1

    def evaluate(self):
        if self.count > 0 and self.has_line(self.last()):
            return gts.SCORE_LOSS
        return 0

    def snapshot(self):
        return (tuple(self.cell), self.count)


class PyTicTacToeFull(PyTicTacToe):
    """Tic-tac-toe with hash, clone, move_score, bounds and move text, like
    the C game."""

    def hash(self):
        key = 0
        for v in self.cell:
            key = key * 3 + v
        return key

    def clone(self):
        c = PyTicTacToeFull.__new__(PyTicTacToeFull)
        c.cell = list(self.cell)
        c.count = self.count
        return c

    def completes(self, c, who):
        for line in LINES:
            if c in line and sum(1 for k in line if k != c and self.cell[k] == who) == 2:
                return True
        return False

    def move_score(self, move):
        if self.completes(move, self.side()):
            return 1000
        if self.completes(move, self.last()):
            return 500
        return CELL_SCORE[move]

    def earliest_line(self, who, first, plies):
        """ttt_earliest_line: the first ply (ours odd) at which ``who``,
        moving at ply ``first`` and every other ply, can complete a line
        free of opposing stones within ``plies`` plies; 0 if none."""
        best = 0
        for line in LINES:
            if any(self.cell[k] not in (EMPTY, who) for k in line):
                continue
            ply = first + 2 * (2 - sum(1 for k in line if self.cell[k] == who))
            if ply <= plies and (best == 0 or ply < best):
                best = ply
        return best

    def bounds(self):
        """ttt_bounds (examples/games/tictactoe.c), line for line."""
        if self.over():
            v = self.evaluate()
            return (v, v)
        me, opp = self.side(), self.last()
        plies = 9 - self.count
        threats, block = 0, -1
        for c in range(9):
            if self.cell[c] != EMPTY:
                continue
            if self.completes(c, me):
                return (gts.SCORE_WIN - 1, gts.SCORE_WIN - 1)
            if self.completes(c, opp):
                threats += 1
                block = c
        if threats >= 2:
            mine, theirs = 0, 2
        elif threats == 1:
            self.cell[block] = me
            mine = self.earliest_line(me, 3, plies)
            theirs = self.earliest_line(opp, 2, plies)
            self.cell[block] = EMPTY
        else:
            mine = self.earliest_line(me, 1, plies)
            theirs = self.earliest_line(opp, 2, plies)
        return (gts.SCORE_LOSS + theirs if theirs else 0,
                gts.SCORE_WIN - mine if mine else 0)

    def format_move(self, move):
        return str(move + 1)

    def parse_move(self, text):
        return int(text) - 1


# ---- random trees ------------------------------------------------------------------

M64 = (1 << 64) - 1


def mix(a, b):
    """splitmix64 of (a, b)."""
    z = (a * 0x9E3779B97F4A7C15 + b + 0x632BE59BD9B4E019) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


class PyRandomTree(gts.Game):
    """A random game tree: node = (level, key); everything below a node
    depends only on them. Interior nodes have 1..branching children (or are
    terminal with terminal_percent), leaves/horizon nodes score a key-derived
    value; terminal nodes may be decided wins/losses. With transpositions,
    child keys are drawn from a small pool per level so that paths meet."""

    def __init__(self, seed, branching=4, depth=6, lo=-100, hi=100, transpositions=False,
                 terminal_percent=0, decided_percent=0, noisy_percent=0):
        self.max_moves = branching
        self.branching, self.depth, self.lo, self.hi = branching, depth, lo, hi
        self.transpositions = transpositions
        self.terminal_percent = terminal_percent
        self.decided_percent = decided_percent
        self.noisy_percent = noisy_percent
        self.keys = [mix(seed, 0x5EED)]
        self.trace = None  # optional list recording calls

    # shape ----------------------------------------------------------------------
    def level(self):
        return len(self.keys) - 1

    def is_terminal(self):
        lvl, key = self.level(), self.keys[-1]
        if lvl >= self.depth:
            return True
        return lvl > 0 and mix(key, 1) % 100 < self.terminal_percent

    def children(self):
        return 1 + mix(self.keys[-1], 2) % self.branching

    def generate(self):
        if self.is_terminal():
            return []
        return list(range(self.children()))

    def noisy(self):
        if self.is_terminal():
            return []
        key = self.keys[-1]
        return [m for m in range(self.children()) if mix(key, 100 + m) % 100 < self.noisy_percent]

    def apply(self, move):
        if self.is_terminal() or not 0 <= move < self.children():
            raise ValueError(f"illegal move {move}")
        key = self.keys[-1]
        if self.transpositions:
            pool = 2 * self.branching
            child = mix(self.level() + 1, mix(key, move + 3) % pool)
        else:
            child = mix(key, move + 3)
        self.keys.append(child)

    def undo(self, move):
        if len(self.keys) < 2:
            raise ValueError("undo at the root")
        self.keys.pop()

    def evaluate(self):
        key = self.keys[-1]
        if self.is_terminal() and self.level() < self.depth and \
                mix(key, 4) % 100 < self.decided_percent:
            return gts.SCORE_WIN if mix(key, 5) & 1 else gts.SCORE_LOSS
        return self.lo + mix(key, 6) % (self.hi - self.lo + 1)

    def hash(self):
        return mix(self.keys[-1], self.level())

    def clone(self):
        c = PyRandomTree.__new__(PyRandomTree)
        c.__dict__.update(self.__dict__)
        c.keys = list(self.keys)
        return c

    def snapshot(self):
        return tuple(self.keys)


class PyRandomTreeNoHash(PyRandomTree):
    """The same tree without the optional methods (clone, hash, noisy...)."""

    hash = gts.Game.hash
    clone = gts.Game.clone
    noisy = gts.Game.noisy


def _adjust(s, ply):
    if s >= gts.SCORE_DECIDED:
        return s - ply
    if s <= -gts.SCORE_DECIDED:
        return s + ply
    return s


def negamax(game, depth, ply=0, quiescence=False):
    """The library's definition of a depth-limited search value."""
    if depth <= 0:
        return qsearch(game, ply) if quiescence else _adjust(game.evaluate(), ply)
    moves = game.generate()
    if not moves:
        return _adjust(game.evaluate(), ply)
    best = -gts.SCORE_INF
    for m in moves:
        game.apply(m)
        s = -negamax(game, depth - 1, ply + 1, quiescence)
        game.undo(m)
        best = max(best, s)
    return best


def qsearch(game, ply):
    best = _adjust(game.evaluate(), ply)
    if ply >= gts.MAX_PLY:
        return best
    for m in game.noisy():
        game.apply(m)
        best = max(best, -qsearch(game, ply + 1))
        game.undo(m)
    return best
