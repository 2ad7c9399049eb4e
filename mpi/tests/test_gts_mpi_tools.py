#!/usr/bin/env python3
"""`gts-mpi gtp` and `gts-mpi match`: distributed MCTS from the tools, under mpirun.

  test_gts_mpi_tools.py MPIRUN GTS_MPI GTS_GTP GTS

* A GTP session (boardsize, clear_board, komi, play, genmove, quit) at
  np 1, 2 and 4 answers every command with '=', and the plain gts-gtp (the
  reference: one process, its own rules) accepts every move the
  distributed engine chose as legal; the job exits 0 on every rank. The
  same after end of input without quit, and with a time budget per move
  (--seconds) instead of playouts.
* A rank that dies during a genmove ends the job (mpirun fails) within
  the timeout: a GUI never waits for a hung engine.
* `gts-mpi match` with one set-up mpi=1 plays its games to the end and
  prints the summary; at tic-tac-toe with alpha-beta to the end on both
  sides (APHID for the distributed side), every game is a draw. With
  `--virtual 3` (no mpirun) the mpi=1 set-up and gtp's genmove search on
  virtual ranks; a Connect-4 match with playout budgets gives the same
  games and node counts at 2 real ranks and at 2 virtual ranks, whose
  searches continue every rank's tree from the second move of a game on
  (tree reuse), and none with mcts_reuse=0 (other games).
* Bad options are usage errors (exit 2) of the whole job, reported once:
  gtp's option, mpi=2, mpi=1 with chess, and mpi=1 in plain `gts match`.
"""
import csv
import json
import os
import signal
import subprocess
import sys
import time

from mpitest import ENV, fail, finish, mpirun, run

MPIRUN, GTS_MPI, GTS_GTP, GTS = sys.argv[1:5]


def replies(out):
    """The GTP replies of @out: (ok, text) per reply."""
    got = []
    for block in out.split("\n\n"):
        block = block.strip("\n")
        if block:
            got.append((block[0] == "=", block[1:].strip()))
    return got


def session(np, engine_args, commands, where):
    """Run @commands through `gts-mpi gtp` at @np ranks; the replies, or None."""
    cmd = mpirun(MPIRUN, np, [GTS_MPI, "gtp"] + engine_args)
    rc, out, err = run(cmd, "".join(c + "\n" for c in commands), timeout=120)
    if rc != 0:
        if rc is not None:
            fail("%s: exit status %s: %s" % (where, rc, err[-600:]))
        return None
    got = replies(out)
    asked = [c for c in commands if c.strip()]
    if len(got) != len(asked):
        fail("%s: %d replies to %d commands: %r" % (where, len(got), len(asked), out))
        return None
    for c, (ok, text) in zip(asked, got):
        if not ok:
            fail("%s: '%s' answered '? %s'" % (where, c, text))
    return got


def check_legal(commands, got, where):
    """Replay the session's moves in the plain gts-gtp: each one must be legal."""
    moves = []
    for c, (ok, text) in zip([c for c in commands if c.strip()], got):
        w = c.split()
        if w[0] == "play":
            moves.append("play %s %s" % (w[1], w[2]))
        elif w[0] == "genmove":
            if text.lower() == "resign":
                return
            moves.append("play %s %s" % (w[1], text))
    setup = [c for c in commands if c.split()[0] in ("boardsize", "clear_board", "komi")]
    ref = setup + moves + ["quit"]
    rc, out, err = run([GTS_GTP], "".join(c + "\n" for c in ref))
    for c, (ok, text) in zip(ref, replies(out)):
        if not ok:
            fail("%s: the plain gts-gtp refuses '%s': %s" % (where, c, text))
    if rc != 0:
        fail("%s: the plain gts-gtp exits %s" % (where, rc))


GAME = ["boardsize 7", "clear_board", "komi 6.5", "play b D4", "genmove w", "genmove b",
        "play w pass", "genmove b"]
for np in (1, 2, 4):
    where = "gtp np %d" % np
    cmds = GAME + ["quit"]
    got = session(np, ["--playouts", "600", "--seconds", "0", "--seed", "3"], cmds, where)
    if got:
        check_legal(cmds, got, where)
# End of input without quit: the same clean end.
for np in (2,):
    where = "gtp np %d, end of input" % np
    got = session(np, ["--playouts", "400", "--seconds", "0"], GAME, where)
    if got:
        check_legal(GAME, got, where)
# A time budget per move (each rank searches it; rank 0's move is played).
got = session(2, ["--seconds", "0.2"], GAME[:5] + ["quit"], "gtp np 2 --seconds 0.2")
if got:
    check_legal(GAME[:5] + ["quit"], got, "gtp np 2 --seconds 0.2")


def rank_pids(launcher_pid, want):
    """The pids of the processes of rank @want below mpirun (its environment says)."""
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/environ" % d, "rb") as f:
                env = f.read().split(b"\0")
            with open("/proc/%s/stat" % d) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        if ppid == launcher_pid and ("OMPI_COMM_WORLD_RANK=%d" % want).encode() in env:
            found.append(int(d))
    return found


# A rank dies in a genmove: the job ends, never hangs.
p = subprocess.Popen(mpirun(MPIRUN, 2, [GTS_MPI, "gtp", "--seconds", "30"]),
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     text=True, env=ENV, start_new_session=True)
p.stdin.write("boardsize 9\nclear_board\ngenmove b\n")
p.stdin.flush()
victims = []
for _ in range(100):
    victims = rank_pids(p.pid, 1)
    if victims:
        break
    time.sleep(0.1)
time.sleep(1.0)  # inside the genmove's search
for v in victims:
    os.kill(v, signal.SIGKILL)
try:
    p.communicate(timeout=60)
    if not victims:
        fail("gtp np 2, a rank dies: rank 1's process not found")
    elif p.returncode == 0:
        fail("gtp np 2, a rank dies: exit status 0")
except subprocess.TimeoutExpired:
    os.killpg(p.pid, signal.SIGKILL)
    p.communicate()
    fail("gtp np 2, a rank dies: the job did not end within 60 s")


def match(np, *args):
    cmd = mpirun(MPIRUN, np, [GTS_MPI, "match", *args, "--quiet", "--format", "json"])
    rc, out, err = run(cmd, timeout=300)
    if rc != 0:
        if rc is not None:
            fail("%s: exit status %s: %s" % (" ".join(cmd), rc, err[-600:]))
        return None
    return json.loads(out)


def rows(summary):
    """The set-ups' rows of a match's JSON summary, by label."""
    return {r["setup"]: r for r in summary["rows"]}


for np in (2, 4):
    s = match(np, "connect4", "--a", "alg=mcts,mcts_playouts=1200,mpi=1,name=dist",
              "--b", "alg=mcts,mcts_playouts=300,name=solo", "--opening", "4444")
    if s:
        r = rows(s)
        d, o = r.get("dist", {}), r.get("solo", {})
        if d.get("games") != 2 or d.get("wins") != o.get("losses") or \
           d.get("draws") != o.get("draws") or d.get("moves", 0) == 0:
            fail("match np %d: connect4 summary %r" % (np, s["rows"]))
def untimed(out):
    """The CSV tables of @out (summary, then --record's) without their time columns."""
    keep, rows = None, []
    for row in csv.reader(out.splitlines()):
        if row and row[0] in ("setup", "game"):
            keep = [i for i, h in enumerate(row) if "ms" not in h.split("_")]
        rows.append([row[i] for i in keep if i < len(row)] if keep else row)
    return rows


# The same match at 2 real and 2 virtual ranks: the same games, moves and
# node counts (playout budgets, merges by playouts: no clock decides), so
# every rank rebuilt each position and searched it with rank 0's options.
SAME = ["--sync-playouts", "100", "match", "connect4", "--a",
        "alg=mcts,mcts_playouts=1200,mpi=1", "--b", "alg=mcts,mcts_playouts=400",
        "--openings", "all:1", "--quiet", "--format", "csv", "--record", "-"]
real = run(mpirun(MPIRUN, 2, [GTS_MPI] + SAME), timeout=300)
virt = run([GTS_MPI, "--virtual", "2"] + SAME, timeout=300)
if real[0] != 0 or virt[0] != 0 or untimed(real[1]) != untimed(virt[1]) or \
   len(untimed(real[1])) < 17:
    fail("match at 2 real and 2 virtual ranks: exit %s / %s, outputs differ:\n%s\n%s" %
         (real[0], virt[0], real[1], virt[1]))

# Tree reuse: from its second search of a game on, the mpi=1 set-up's
# search continues every rank's tree (the virtual counters say so; the
# real ranks played the same games above), and with mcts_reuse=0 none;
# --share-plies reaches every rank (the real and virtual runs agree).
if virt[0] == 0 and ("reused_ranks 2 " not in virt[2] or "reused_ranks 0 " not in virt[2]):
    fail("match at 2 virtual ranks: no search continued its trees:\n%s" % virt[2][-800:])
OFF = [("alg=mcts,mcts_playouts=1200,mpi=1,mcts_reuse=0" if a == "alg=mcts,mcts_playouts=1200,mpi=1"
        else a) for a in SAME]
off = run([GTS_MPI, "--virtual", "2"] + OFF, timeout=300)
if off[0] != 0 or "reused_ranks 2 " in off[2] or "reused_ranks 0 " not in off[2] or \
   untimed(off[1]) == untimed(virt[1]):
    fail("match at 2 virtual ranks, mcts_reuse=0: exit %s, a tree continued or the same games:"
         "\n%s" % (off[0], off[2][-800:]))
SP = ["--share-plies", "2"] + SAME
real = run(mpirun(MPIRUN, 2, [GTS_MPI] + SP), timeout=300)
sp = run([GTS_MPI, "--virtual", "2"] + SP, timeout=300)
if real[0] != 0 or sp[0] != 0 or untimed(real[1]) != untimed(sp[1]) or \
   untimed(sp[1]) == untimed(virt[1]):
    fail("match --share-plies 2 at 2 real and 2 virtual ranks: exit %s / %s, outputs differ "
         "or equal the default's" % (real[0], sp[0]))

# --virtual N without mpirun: the mpi=1 set-up on N virtual ranks in one
# process, and a GTP genmove there.
rc, out, err = run([GTS_MPI, "--virtual", "3", "match", "tictactoe", "--a",
                    "alg=mcts,mcts_playouts=900,mpi=1", "--b", "alg=mcts,mcts_playouts=300",
                    "--quiet", "--format", "json"])
if rc != 0 or json.loads(out)["rows"][0]["games"] != 2 or "virtual ranks 3" not in err:
    fail("--virtual 3 match: exit status %s, stdout %r, stderr %r" % (rc, out, err[-400:]))
cmds = GAME[:5] + ["quit"]
rc, out, err = run([GTS_MPI, "--virtual", "3", "gtp", "--playouts", "600", "--seconds", "0"],
                   "".join(c + "\n" for c in cmds))
if rc != 0 or "virtual ranks 3" not in err:
    fail("--virtual 3 gtp: exit status %s, stderr %r" % (rc, err[-400:]))
else:
    check_legal(cmds, replies(out), "--virtual 3 gtp")

s = match(2, "tictactoe", "--a", "alg=alphabeta,depth=9,mpi=1", "--b", "alg=alphabeta,depth=9",
          "--openings", "all:1")
if s:
    r = rows(s)
    if r.get("A", {}).get("games") != 18 or r["A"].get("draws") != 18:
        fail("match np 2: tictactoe alpha-beta to the end, not 18 draws: %r" % s["rows"])

# Usage errors: exit 2 for the whole job, the message once.
for what, cmd in (
        ("gtp --threads 0", mpirun(MPIRUN, 2, [GTS_MPI, "gtp", "--threads", "0"])),
        ("gtp --nope", mpirun(MPIRUN, 2, [GTS_MPI, "gtp", "--nope"])),
        ("--share-plies 9", mpirun(MPIRUN, 2, [GTS_MPI, "--share-plies", "9", "gtp"])),
        ("match mpi=2", mpirun(MPIRUN, 2, [GTS_MPI, "match", "tictactoe", "--a",
                                           "alg=mcts,mcts_playouts=50,mpi=2", "--b",
                                           "alg=mcts,mcts_playouts=50"])),
        ("match chess mpi=1", mpirun(MPIRUN, 2, [GTS_MPI, "match", "chess", "--a",
                                                 "alg=mcts,mcts_playouts=50,mpi=1", "--b",
                                                 "alg=mcts,mcts_playouts=50"])),
        ("gts match mpi=1", [GTS, "match", "tictactoe", "--a", "alg=mcts,mcts_playouts=50,mpi=1",
                             "--b", "alg=mcts,mcts_playouts=50"])):
    rc, out, err = run(cmd, timeout=60)
    if rc is None:
        continue
    first = next((ln for ln in err.splitlines() if ln.startswith(("gts-mpi", "gts "))), None)
    if rc != 2 or not first:
        fail("%s: exit status %s (want 2), stderr %r" % (what, rc, err[-600:]))
    elif err.count(first) != 1:
        fail("%s: '%s' %d times, want once" % (what, first, err.count(first)))

finish("gts-mpi gtp and match")
