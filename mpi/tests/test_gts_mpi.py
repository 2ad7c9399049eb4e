#!/usr/bin/env python3
"""gts-mpi against gts: the same output under mpirun -np 1..4.

  test_gts_mpi.py MPIRUN GTS GTS_MPI POSITIONS

* `gts-mpi solve connect4` prints exactly what `gts solve connect4` prints
  on stdout, with the same exit status, for positions of the benchmark
  file POSITIONS (those with 19 or more stones, to stay cheap) followed
  by malformed lines; also with --check and --root bisect.
* `gts-mpi search` reports the same score, bound and depth (and the same
  score for every iteration) as `gts search` on Connect-4, Othello and a
  random tree; the node counts and times differ by nature.
* Ctrl-C during `gts-mpi search` (after its first iteration) stops the
  search on every rank: as `gts`, the last completed iteration is printed
  with `stop stopped` and "gts-mpi search: interrupted" goes to stderr.
  Run alone (no mpirun) the exit status is 130, as `gts`'s; under mpirun
  SIGINT goes to mpirun, which sends SIGTERM to the ranks and chooses its
  own exit status (non-zero). A hang is the timeout.
"""
import os
import signal
import subprocess
import sys

from mpitest import ENV, fail, finish, mpirun, run

MPIRUN, GTS, GTS_MPI, POSITIONS = sys.argv[1:5]


def mpi(np, args, stdin=""):
    return run(mpirun(MPIRUN, np, [GTS_MPI] + args), stdin)


with open(POSITIONS) as f:
    lines = [ln.split() for ln in f if ln.strip()]
solve_in = "".join(ln[0] + "\n" for ln in lines if len(ln[0]) >= 19)
bad = "4x4\n\n1111111\n"
# gts's own answers are the --check input (the file holds positions only).
check_in = run([GTS, "solve", "connect4"], solve_in)[1]

for args, stdin, nps in ((["solve", "connect4"], solve_in + bad, (1, 2, 3, 4)),
                         (["solve", "connect4", "--check"], check_in, (3,)),
                         (["solve", "connect4", "--root", "bisect"], solve_in, (2,))):
    want = run([GTS] + args, stdin)
    if not want[1].strip():
        fail("gts %s printed nothing: %r" % (" ".join(args), want[2]))
    for np in nps:
        got = mpi(np, args, stdin)
        if got[1] != want[1]:
            fail("np %d %s: stdout differs:\n--- gts\n%s--- gts-mpi\n%s%s" %
                 (np, " ".join(args), want[1], got[1], got[2]))
        if got[0] != want[0]:
            fail("np %d %s: exit status %d, gts %d" % (np, " ".join(args), got[0], want[0]))


def fields(out):
    """The key/value lines of `gts search`, and the score of each info line."""
    kv, infos = {}, []
    for ln in out.splitlines():
        parts = ln.split()
        if not parts:
            continue
        if parts[0] == "info":
            infos.append((parts[2], parts[4]))
        else:
            kv[parts[0]] = " ".join(parts[1:])
    return kv, infos


for args, nps in ((["connect4h", "4453", "--depth", "7"], (1, 3)),
                  (["othello", "f5d6", "--depth", "5"], (4,)),
                  (["randtree", "--seed", "5", "--branching", "5", "--tree-depth", "8",
                    "--depth", "6"], (2,))):
    want = run([GTS, "search"] + args)
    wkv, winfo = fields(want[1])
    for np in nps:
        got = mpi(np, ["search"] + args)
        gkv, ginfo = fields(got[1])
        for key in ("game", "position", "algorithm", "score", "bound", "depth"):
            if key not in wkv or gkv.get(key) != wkv[key]:
                fail("np %d search %s: %s %r, gts %r (%s)" %
                     (np, " ".join(args), key, gkv.get(key), wkv.get(key), got[2]))
        if ginfo != winfo:
            fail("np %d search %s: iterations %r, gts %r" % (np, " ".join(args), ginfo, winfo))
        if got[0] != 0:
            fail("np %d search %s: exit status %d" % (np, " ".join(args), got[0]))

# --virtual N: the same search at N simulated ranks in one process (no
# mpirun), its counters on stderr; bad options are usage errors (2).
for args, ranks in ((["connect4h", "4453", "--depth", "7"], 16),
                    (["othello", "f5d6", "--depth", "5"], 3)):
    wkv, winfo = fields(run([GTS, "search"] + args)[1])
    for extra in ([], ["--master-plies", "3", "--work-ahead", "-1", "--latency", "50"]):
        got = run([GTS_MPI, "--virtual", str(ranks)] + extra + ["search"] + args)
        gkv, ginfo = fields(got[1])
        where = "--virtual %d %s search %s" % (ranks, " ".join(extra), " ".join(args))
        for key in ("score", "bound", "depth"):
            if key not in wkv or gkv.get(key) != wkv[key]:
                fail("%s: %s %r, gts %r (%s)" % (where, key, gkv.get(key), wkv.get(key), got[2]))
        if ginfo != winfo:
            fail("%s: iterations %r, gts %r" % (where, ginfo, winfo))
        if got[0] != 0 or ("gts-mpi: virtual ranks %d: virtual_time" % ranks) not in got[2]:
            fail("%s: exit status %d, stderr %r" % (where, got[0], got[2]))
for bad_args in (["--virtual", "0"], ["--virtual", "x"], ["--latency", "5"], ["--nope", "1"]):
    got = run([GTS_MPI] + bad_args + ["search", "othello", "--depth", "3"])
    if got[0] != 2:
        fail("gts-mpi %s: exit status %d, expected 2 (%s)" % (" ".join(bad_args), got[0], got[2]))
got = mpi(2, ["--virtual", "4", "search", "othello", "--depth", "3"])
if got[0] == 0:
    fail("mpirun -np 2 gts-mpi --virtual 4: exit status 0, expected a usage error")


def interrupted(cmd):
    """Run @cmd, send SIGINT once its first progress line is out."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=ENV, start_new_session=True)
    first = p.stderr.readline()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        fail("%s: no end 60 s after SIGINT" % " ".join(cmd))
    return p.returncode, out, first + err


# A search far longer than the test: only the stop ends it.
LONG = ["search", "othello", "--depth", "30"]
for np in (None, 1, 2, 4):
    cmd = [GTS_MPI] + LONG if np is None else [MPIRUN, "--oversubscribe", "-np", str(np),
                                                GTS_MPI] + LONG
    where = "alone" if np is None else "np %d" % np
    rc, out, err = interrupted(cmd)
    kv, _ = fields(out)
    if kv.get("stop") != "stopped":
        fail("%s Ctrl-C: stop %r, want stopped (%s)" % (where, kv.get("stop"), err[-400:]))
    if "gts-mpi search: interrupted" not in err:
        fail("%s Ctrl-C: no 'interrupted' message (%s)" % (where, err[-400:]))
    if (np is None and rc != 130) or rc == 0:
        fail("%s Ctrl-C: exit status %d" % (where, rc))

finish("gts-mpi")
