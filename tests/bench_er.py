#!/usr/bin/env python3
"""ER and Jamboree figures of doc/results/parallel.md ("ER and Jamboree").

Through the Python binding (GTS_LIBRARY / GTS_GAMES_LIBRARY name this
build's libraries, PYTHONPATH the binding). Every search starts from a new
engine (empty table, 16 MiB) with iterative deepening, as `gts nodes` does;
times are the median of --repeat runs.

  1. Serial ER (gts_er) against PVS: nodes and time, and the ratio.
  2. Parallel ER at 1 and 2 threads: nodes, time and the mandatory /
     speculative / wasted split.
  3. Jamboree with GTS_OPT_JAMBOREE_SERIAL = 0 (Kuszmaul) and 50 (the
     lecture notes' sequential prefix) at 1 and 2 threads.

Usage: bench_er.py [--repeat R] [--quick] [--jamboree-only] [--threads T,..]
  --jamboree-only: only table 3, with prefixes 0, 50 and 100;
  --threads: thread counts of table 3 (default 1,2).
"""
import argparse
import statistics
import sys

import gts


def positions(quick):
    d = 11 if quick else 13
    c4 = [("connect4", "", d), ("connect4", "4453", d), ("connect4", "444", d),
          ("connect4", "3344", d)]
    oth = [("othello", "", 7 if quick else 8)]
    rt = [("randtree", (s, o, 8, 9), 9) for s in ((1, 2) if quick else (1, 2, 3, 4))
          for o in (0, 85)]
    # Bigger searches for the thread comparisons (gts speedup's connect4
    # position and ordered tree, smaller).
    big = [] if quick else [("connect4", "4453442", 18), ("randtree", (1, 90, 10, 12), 12)]
    return c4, oth, rt, big


def make_game(kind, pos):
    if kind == "connect4":
        return gts.games.Connect4(pos)
    if kind == "othello":
        return gts.games.Othello(pos)
    seed, ordered, branching, depth = pos
    return gts.games.RandomTree(seed=seed, branching=branching, depth=depth,
                                ordered_percent=ordered)


def label(kind, pos):
    if kind == "randtree":
        return "randtree b%d d%d seed %d ordered %d%%" % (pos[2], pos[3], pos[0], pos[1])
    return "%s %s" % (kind, pos or "start")


def run(kind, pos, depth, alg, repeat, **opts):
    times, res = [], None
    for _ in range(repeat):
        e = gts.Engine(**opts)
        res = e.search(make_game(kind, pos), alg, depth=depth)
        times.append(res.time_s * 1000)
    return res, statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="smaller depths")
    ap.add_argument("--jamboree-only", action="store_true",
                    help="only the Jamboree table, prefixes 0, 50 and 100")
    ap.add_argument("--threads", default="1,2", help="thread counts of the Jamboree table")
    a = ap.parse_args()
    c4, oth, rt, big = positions(a.quick)
    threads = [int(t) for t in a.threads.split(",")]
    if a.jamboree_only:
        return jamboree_table(a, c4, rt, big, threads, (0, 50, 100))

    print("## serial ER vs PVS (nodes, ms)")
    print("| position | depth | PVS nodes | PVS ms | ER nodes | ER ms | ER/PVS nodes |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for kind, pos, d in c4 + oth + rt:
        p, pt = run(kind, pos, d, "pvs", a.repeat)
        r, rtm = run(kind, pos, d, "er", a.repeat)
        if p.score != r.score:
            print("score mismatch: %s pvs %d er %d" % (label(kind, pos), p.score, r.score))
            return 1
        print("| %s | %d | %d | %.1f | %d | %.1f | %.2f |" % (
            label(kind, pos), d, p.nodes, pt, r.nodes, rtm, r.nodes / max(p.nodes, 1)))

    print()
    print("## parallel ER: work split (nodes, ms)")
    print("| position | threads | nodes | ms | mandatory | speculative | wasted |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for kind, pos, d in c4[:2] + rt[:2] + big[:1]:
        for t in (1, 2):
            r, tm = run(kind, pos, d, "er_parallel", a.repeat, threads=t)
            s = r.stats
            print("| %s | %d | %d | %.1f | %d | %d | %d |" % (
                label(kind, pos), t, r.nodes, tm, s["nodes_mandatory"],
                s["nodes_speculative"], s["nodes_wasted"]))

    print()
    return jamboree_table(a, c4, rt, big, threads, (0, 50))


def jamboree_table(a, c4, rt, big, threads, prefixes):
    print("## Jamboree: sequential prefix 0 (Kuszmaul) vs 50 (lecture slides)")
    print("| position | threads | prefix % | nodes | ms | score |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind, pos, d in c4[:2] + rt[:2] + big:
        for t in threads:
            for pct in prefixes:
                r, tm = run(kind, pos, d, "jamboree", a.repeat, threads=t, jamboree_serial=pct)
                print("| %s | %d | %d | %d | %.1f | %d |" % (label(kind, pos), t, pct, r.nodes,
                                                             tm, r.score))
    return 0


if __name__ == "__main__":
    sys.exit(main())
