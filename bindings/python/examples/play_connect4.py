#!/usr/bin/env python3
"""Engine against engine: a full game of Connect-4 with the built-in C game,
searched at C speed, printing the board after every move.

    python3 play_connect4.py                       # 200 ms per move, PVS
    python3 play_connect4.py --depth 10            # fixed depth instead
    python3 play_connect4.py --alg mtdf --alg2 pvs --threads 2 --position 44

Run from a checkout with the library built (or set GTS_LIBRARY); see
doc/python.md.
"""
import argparse
import os
import sys

try:
    import gts
except ImportError:  # running from the source tree without installing
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import gts


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--alg", default="pvs", help="algorithm of the first player (X)")
    ap.add_argument("--alg2", default=None, help="algorithm of the second player (O)")
    ap.add_argument("--time-ms", type=int, default=200, help="time per move (default 200)")
    ap.add_argument("--depth", type=int, default=None, help="depth per move instead of time")
    ap.add_argument("--threads", type=int, default=1, help="threads of parallel algorithms")
    ap.add_argument("--tt-mb", type=int, default=32)
    ap.add_argument("--position", default="", help="opening moves, e.g. 4453")
    args = ap.parse_args(argv)

    limits = {"depth": args.depth} if args.depth else {"time_ms": args.time_ms, "depth": 42}
    algs = [args.alg, args.alg2 or args.alg]
    # one engine per player: each keeps its own transposition table
    engines = [gts.Engine(tt_mb=args.tt_mb, threads=args.threads) for _ in algs]
    with gts.games.Connect4(args.position) as game:
        print(game, "\n")
        while game.moves():
            side = len(game.position) % 2
            r = engines[side].search(game, algs[side], **limits)
            player = "XO"[side]
            game.play(r.best_move)
            print(f"{player} ({algs[side]}) plays {game.format_move(r.best_move)}: "
                  f"score {r.score:+d} depth {r.depth} nodes {r.nodes} "
                  f"{r.time_s * 1000:.0f} ms")
            print(game, "\n")
        # the player who made the last move won, unless the board is full
        last = (len(game.position) - 1) % 2
        if game.evaluate() != 0:
            print(f"{'XO'[last]} wins after {len(game.position)} moves: {game.position}")
        else:
            print(f"draw: {game.position}")
    for e in engines:
        e.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
