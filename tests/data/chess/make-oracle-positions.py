#!/usr/bin/env python3
"""Write the positions of tests/data/chess/oracle-positions.fen (stdout).

Positions from real games, made here without internet access: Stockfish
(Debian's `stockfish`) plays itself at a low fixed depth from varied
openings (the first OPENING_PLIES plies drawn at random, seeded, from the
legal moves), and every SAMPLE_EVERY-th position of each game is kept,
with its real move counters, and every position with fewer than 3 legal
moves (checks, mostly). Usage: make-oracle-positions.py [STOCKFISH]
[GAMES] [SEED].
"""
import random
import subprocess
import sys

OPENING_PLIES = 4
SAMPLE_EVERY = 5
MAX_PLIES = 160
DEPTH = 5


class Stockfish:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  bufsize=1)
        self.cmd("uci", "uciok")

    def cmd(self, line, until):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            got = self.p.stdout.readline()
            if not got:
                raise RuntimeError("stockfish exited")
            out.append(got.rstrip("\n"))
            if got.startswith(until):
                return out

    def legal(self, moves):
        self.p.stdin.write(f"position startpos moves {' '.join(moves)}\n")
        out = self.cmd("go perft 1", "Nodes searched")
        return sorted(l.split(":")[0] for l in out if ":" in l and not l.startswith("Nodes"))

    def fen(self, moves):
        self.p.stdin.write(f"position startpos moves {' '.join(moves)}\n")
        out = self.cmd("d", "Checkers")
        return next(l[5:] for l in out if l.startswith("Fen: "))

    def best(self, moves):
        self.p.stdin.write(f"position startpos moves {' '.join(moves)}\n")
        out = self.cmd(f"go depth {DEPTH}", "bestmove")
        return out[-1].split()[1]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "stockfish"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 2026
    rng = random.Random(seed)
    sf = Stockfish(path)
    print("# Positions for tests/test_chess_oracle.py: per-move perft splits of gts vs Stockfish.")
    print(f"# Made by tests/data/chess/make-oracle-positions.py stockfish {games} {seed}:")
    print(f"# {games} games of Stockfish (Debian package) against itself at depth {DEPTH}, each")
    print(f"# from {OPENING_PLIES} random opening plies; every {SAMPLE_EVERY}th position kept,")
    print("# and every position with fewer than 3 legal moves (checks), with its move counters.")
    seen = set()
    for g in range(games):
        moves = []
        for ply in range(MAX_PLIES):
            legal = sf.legal(moves)
            if not legal:
                break
            if ply % SAMPLE_EVERY == 0 or len(legal) < 3:
                fen = sf.fen(moves)
                if fen not in seen:
                    seen.add(fen)
                    print(fen)
            mv = rng.choice(legal) if ply < OPENING_PLIES else sf.best(moves)
            if mv == "(none)":
                break
            moves.append(mv)
        print(f"# end of game {g + 1} after {len(moves)} plies", file=sys.stderr)


if __name__ == "__main__":
    main()
