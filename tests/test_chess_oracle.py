#!/usr/bin/env python3
"""Chess move generation against an independent oracle: Stockfish.

For every position of tests/data/chess/oracle-positions.fen (positions from
games, see the file's header), `gts perft chess DEPTH FEN --divide` must
give exactly the per-move counts of Stockfish's `go perft DEPTH`: the same
legal moves at the root, and the same number of leaves below each. The
program comes from $GTS_TOOL, Stockfish from $STOCKFISH, PATH or
/usr/games (Debian's place for it); without Stockfish the test is skipped
(exit 77) with a message. Usage: test_chess_oracle.py [DEPTH] [FILE].
With GTS_TEST_DIVISOR=N (scripts/sanitize sets 4) every N-th position of
the file is checked: each one is a start of the instrumented gts there.
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEPTH = int(sys.argv[1]) if len(sys.argv) > 1 else 3
FILE = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "data", "chess",
                                                          "oracle-positions.fen")
SKIP = 77
MIN_POSITIONS = 200


def find_stockfish():
    for cand in (os.environ.get("STOCKFISH"), shutil.which("stockfish"), "/usr/games/stockfish"):
        if cand and os.access(cand, os.X_OK):
            return cand
    return None


def stockfish_split(sf, fen, depth):
    sf.stdin.write(f"position fen {fen}\ngo perft {depth}\n")
    sf.stdin.flush()
    split = {}
    while True:
        line = sf.stdout.readline()
        if not line:
            raise RuntimeError("stockfish exited")
        line = line.strip()
        if line.startswith("Nodes searched:"):
            return split, int(line.split(":")[1])
        if ": " in line:
            mv, n = line.split(": ", 1)
            if n.isdigit():
                split[mv] = int(n)


def gts_split(tool, fen, depth):
    out = subprocess.run([tool, "perft", "chess", str(depth), fen, "--divide"],
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise AssertionError(f"gts perft failed on '{fen}': {out.stderr.strip()}")
    split, total = {}, None
    for line in out.stdout.splitlines():
        if line.startswith("  "):
            mv, n = line.strip().split(": ")
            split[mv] = int(n)
        elif line.startswith(f"perft({depth}) = "):
            total = int(line.split("=")[1].split()[0])
    return split, total


def main():
    sf_path = find_stockfish()
    if not sf_path:
        print("SKIP: stockfish not found (install Debian's stockfish; scripts/setup does)")
        return SKIP
    tool = os.environ.get("GTS_TOOL", "gts")
    with open(FILE) as f:
        fens = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    if len(fens) < MIN_POSITIONS:
        print(f"FAIL: {FILE} has {len(fens)} positions, fewer than {MIN_POSITIONS}")
        return 1
    try:
        div = max(1, int(os.environ.get("GTS_TEST_DIVISOR", "1")))
    except ValueError:
        div = 1
    fens = fens[::div]
    sf = subprocess.Popen([sf_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    failures = 0
    leaves = 0
    try:
        for i, fen in enumerate(fens, 1):
            want, want_total = stockfish_split(sf, fen, DEPTH)
            got, got_total = gts_split(tool, fen, DEPTH)
            leaves += want_total
            if want != got or want_total != got_total:
                failures += 1
                diff = sorted(m for m in set(want) | set(got) if want.get(m) != got.get(m))
                print(f"MISMATCH {i}: {fen}: total {got_total} (stockfish {want_total}); "
                      + ", ".join(f"{m} {got.get(m)} vs {want.get(m)}" for m in diff[:8]))
    finally:
        sf.stdin.close()
        sf.wait()
    print(f"{len(fens)} positions, perft({DEPTH}) splits, {leaves} leaves: "
          f"{failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
