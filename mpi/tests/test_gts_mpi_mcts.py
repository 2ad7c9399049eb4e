#!/usr/bin/env python3
"""`gts-mpi search --alg mcts`: distributed MCTS from the command line.

  test_gts_mpi_mcts.py MPIRUN GTS_MPI

* Without a depth limit (--time-ms or --playouts) every rank searches
  (threads = the number of ranks): tic-tac-toe is solved to its value, 0,
  with the proof's depth; a --playouts budget counts the playouts of all
  ranks, so two runs with the same options print the same move, score and
  nodes (the seed is the engine's, each rank's stream its own).
* With a depth limit rank 0 searches alone, after a warning (gts_mpi_mcts
  keeps no tree with a horizon).
"""
import json
import sys

from mpitest import fail, finish, mpirun, run

MPIRUN, GTS_MPI = sys.argv[1:3]


def search(np, *args):
    cmd = mpirun(MPIRUN, np, [GTS_MPI, "search", *args, "--alg", "mcts", "--quiet", "--format",
                              "json"])
    rc, out, err = run(cmd)
    if rc != 0:
        if rc is not None:
            fail(f"{' '.join(cmd)}: exit {rc}: {err}")
        return None, err
    return json.loads(out), err


for np in (1, 2, 3):
    r, _ = search(np, "tictactoe", "--time-ms", "60000")
    if r:
        if r["threads"] != np:
            fail(f"np {np}: threads {r['threads']}")
        if r["score"] != 0 or r["bound"] != "exact" or r["depth"] != 127:
            fail(f"np {np}: tictactoe score {r['score']} bound {r['bound']} depth {r['depth']}")
        if r["stop"] != "none":
            fail(f"np {np}: tictactoe stop {r['stop']}, want a proof")
    a, _ = search(np, "connect4", "44", "--playouts", "3000")
    b, _ = search(np, "connect4", "44", "--playouts", "3000")
    if a and b:
        same = ("bestmove", "score", "nodes", "pv")
        if any(a[k] != b[k] for k in same):
            fail(f"np {np}: two runs differ: {[(a[k], b[k]) for k in same]}")
        if a["threads"] != np:
            fail(f"np {np}: connect4 threads {a['threads']}")

r, err = search(2, "connect4", "44", "--depth", "6", "--playouts", "500")
if r and (r["threads"] != 1 or "rank 0 alone" not in err):
    fail(f"depth limit: threads {r['threads']}, stderr {err!r}")

finish("gts-mpi search --alg mcts")
