"""What the mpi suite's command-line tests share (test_gts_mpi*.py).

mpirun's environment (Open MPI refuses root without it, as mpi/meson.build
says; --oversubscribe: more ranks than cores), one count of failures, and
runs of a command alone or under mpirun with a timeout (a hang fails the
test, it never waits forever).
"""
import os
import subprocess
import sys

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def run(cmd, stdin="", timeout=120):
    """(exit status, stdout, stderr) of @cmd; a timeout is a failure, status None."""
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=ENV,
                           timeout=timeout)
    except subprocess.TimeoutExpired as e:
        fail("%s: no end within %d s" % (" ".join(cmd), timeout))
        return None, e.stdout or "", e.stderr or ""
    return p.returncode, p.stdout, p.stderr


def mpirun(launcher, np, cmd):
    """The command line of @cmd under `launcher --oversubscribe -np NP`."""
    return [launcher, "--oversubscribe", "-np", str(np)] + list(cmd)


def finish(name):
    print("%s: %s" % (name, "FAILED" if failures else "ok"))
    sys.exit(1 if failures else 0)
