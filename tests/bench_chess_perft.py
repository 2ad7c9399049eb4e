#!/usr/bin/env python3
"""`meson benchmark` chess-perft: the published perft counts at their deep
depths (Chess Programming Wiki, "Perft Results"), through `gts perft chess`
($GTS_TOOL). Prints each count with gts's time and leaves/s; exits 1 on a
wrong count. The cheap depths are in the unit suite (tests/test_chess.c)."""
import os
import subprocess
import sys

POSITIONS = [
    ("start", "startpos", 6, 119060324),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5,
     193690690),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178633661),
    ("position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5,
     15833292),
    ("position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, 89941194),
    ("position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5,
     164075551),
]


def main():
    tool = os.environ.get("GTS_TOOL", "gts")
    bad = 0
    for name, fen, depth, want in POSITIONS:
        out = subprocess.run([tool, "perft", "chess", str(depth), fen], capture_output=True,
                             text=True)
        line = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else out.stderr.strip()
        got = int(line.split("=")[1].split()[0]) if line.startswith("perft(") else None
        ok = got == want
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name:11} {line}" + ("" if ok else f" (want {want})"))
        sys.stdout.flush()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
