"""Child process of test_interrupt.py: ``python3 sigint_child.py SCENARIO [RUNS]``.

Each scenario sends itself SIGINT (from a threading.Timer, as Ctrl-C would
arrive: on any thread) while a search runs, and checks what the program
sees. It prints one line per failed check and exits with status 1 if there
was any, else prints "ok". Run in a subprocess so that a swallowed or
misplaced KeyboardInterrupt cannot take the test runner down with it.
"""
import os
import signal
import sys
import threading
import time

import gts

LIMIT_MS = 5000          # every search would run this long if the stop were lost
PROMPT_S = 3.0           # a stopped search returns well before that
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what, flush=True)


class Walk(gts.Game):
    """The game of issue 11: a path that apply() extends and undo() pops."""

    max_moves = 4

    def __init__(self, path=None):
        self.path = [1] if path is None else path

    def generate(self):
        return [] if len(self.path) > 30 else [0, 1, 2, 3]

    def apply(self, m):
        self.path.append((self.path[-1] * 31 + m) % 1000003)

    def undo(self, m):
        self.path.pop()

    def evaluate(self):
        return self.path[-1] % 201 - 100


class ClonableWalk(Walk):
    def hash(self):
        return self.path[-1] * 64 + len(self.path)

    def clone(self):
        return ClonableWalk(list(self.path))


def handlers_restored(where):
    check(signal.getsignal(signal.SIGINT) is signal.default_int_handler,
          f"{where}: SIGINT handler not restored: {signal.getsignal(signal.SIGINT)!r}")
    fd = signal.set_wakeup_fd(-1)
    check(fd == -1, f"{where}: wakeup fd not restored: {fd}")


def interrupt_after(delay):
    t = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
    t.start()
    return t


def expect_interrupt(where, delay, search, restored):
    """Run search() with a SIGINT after ``delay`` s (None: search() sends
    it): it must raise KeyboardInterrupt, promptly, and restored() must hold
    afterwards."""
    t = None if delay is None else threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
    t0 = time.perf_counter()
    try:
        if t is not None:
            t.start()                # (inside: with no delay it may land at once)
        r = search()
        check(False, f"{where}: no KeyboardInterrupt, returned {r!r}")
    except KeyboardInterrupt:
        pass
    elapsed = time.perf_counter() - t0
    if t is not None:
        t.join()
    check(restored(), f"{where}: state not restored")
    check(elapsed < PROMPT_S, f"{where}: took {elapsed:.2f}s, the search was not stopped")
    handlers_restored(where)


# ---- scenarios ---------------------------------------------------------------------

def python_serial(runs):
    """The reproducer of issue 11, many times, with varied delays (from
    "before the search starts" to deep inside it) and serial algorithms."""
    algs = ["pvs", "alphabeta", "mtdf", "negacstar"]
    algs = [a for a in algs if a in {x.name for x in gts.algorithms()}]
    for i in range(runs):
        g = Walk()
        alg = algs[i % len(algs)]
        delay = (i * 7 % 23) * 0.005
        expect_interrupt(f"run {i} {alg} delay {delay:.3f}", delay,
                         lambda: gts.search(g, alg, time_ms=LIMIT_MS),
                         lambda: g.path == [1])


def python_parallel(runs):
    """Parallel algorithms: callbacks on worker threads, the caller waits in C."""
    algs = [a.name for a in gts.algorithms() if a.parallel]
    for i in range(runs):
        g = ClonableWalk()
        alg = algs[i % len(algs)]
        delay = 0.02 + (i % 5) * 0.02
        expect_interrupt(f"run {i} {alg} threads=2", delay,
                         lambda: gts.search(g, alg, time_ms=LIMIT_MS, threads=2),
                         lambda: g.path == [1])


def c_game(runs):
    """A built-in game: no Python runs in the searching thread at all."""
    with gts.Engine(threads=2) as engine, gts.games.Connect4() as c4:
        for i in range(runs):
            alg = ("pvs", "dts", "alphabeta")[i % 3]
            expect_interrupt(f"run {i} connect4 {alg}", 0.05 + (i % 4) * 0.02,
                             lambda: engine.search(c4, alg, time_ms=LIMIT_MS),
                             lambda: c4.position == "" and c4.perft(2) == 49)
        check(engine.search(c4, "pvs", depth=4).depth == 4, "engine unusable after a stop")


class SelfInterrupting(Walk):
    """Sends SIGINT ``delay`` s after its first evaluate(): it lands in the
    search even when starting the search takes long (a loaded machine)."""

    def __init__(self, delay):
        super().__init__()
        self.delay = delay
        self.timer = None
        self.handler_seen = None

    def evaluate(self):
        if self.timer is None:
            self.handler_seen = signal.getsignal(signal.SIGINT)
            self.timer = interrupt_after(self.delay)
        return super().evaluate()


def custom_handler(runs):
    """A program's own SIGINT handler: the search stops, then the handler runs
    once, with the state restored, and the search returns normally."""
    for i in range(runs):
        g = SelfInterrupting((i % 3) * 0.02)
        seen = []
        signal.signal(signal.SIGINT, lambda s, f: seen.append(list(g.path)))
        try:
            r = gts.pvs(g, time_ms=LIMIT_MS)
        except KeyboardInterrupt:
            r = None
        g.timer.join()
        check(r is not None and "stopped" in r.flags, f"run {i}: result {r!r}")
        check(seen == [[1]], f"run {i}: handler saw {seen!r}")
        check(signal.getsignal(signal.SIGINT) is not signal.default_int_handler
              and callable(signal.getsignal(signal.SIGINT)), f"run {i}: handler not restored")
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # an ignored SIGINT stays ignored
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    g = SelfInterrupting(0.05)
    r = gts.pvs(g, time_ms=300)
    g.timer.join()
    check("time_limit" in r.flags, f"SIG_IGN: {r!r}")
    check(g.handler_seen == signal.SIG_IGN, f"SIG_IGN replaced: {g.handler_seen!r}")
    check(signal.getsignal(signal.SIGINT) == signal.SIG_IGN, "SIG_IGN not kept")
    signal.signal(signal.SIGINT, signal.default_int_handler)


class Nested(Walk):
    """evaluate() runs a search of its own (on the main thread), of a C game
    big enough that a SIGINT sent from its 3rd evaluate() lands in a search."""

    def __init__(self, kill_inside):
        super().__init__()
        self.engine = gts.Engine()
        self.tree = gts.games.RandomTree(seed=3, branching=4, depth=7)
        self.inner = 0
        self.kill_inside = kill_inside
        self.timer = None

    def evaluate(self):
        if len(self.path) % 2 == 0:
            self.inner += 1
            if self.kill_inside and self.inner == 3:
                self.timer = interrupt_after(0.001)
            return gts.pvs(self.tree, depth=7, engine=self.engine).score % 100
        return super().evaluate()


def nested(runs):
    for i in range(runs):
        inside = i % 2 == 0
        g = Nested(inside)
        # from outside: a timer that may land in the outer or an inner search
        delay = None if inside else 0.03 + (i % 4) * 0.03
        expect_interrupt(f"run {i} nested, sent from {'in' if inside else 'out'}side", delay,
                         lambda: gts.pvs(g, time_ms=LIMIT_MS), lambda: g.path == [1])
        if g.timer is not None:
            g.timer.join()
        check(not inside or g.inner >= 3, f"run {i}: {g.inner} inner searches")
        check(g.tree.perft(7) == 4 ** 7, f"run {i}: the inner game is not back at its root")
        g.engine.close()
        g.tree.close()


def other_thread(runs):
    """A search in another thread installs nothing: its callbacks never see
    KeyboardInterrupt, the main thread gets it as usual and stops the search."""
    for i in range(runs):
        g = SelfInterrupting((i % 3) * 0.02)
        engine = gts.Engine()
        box = {"polling": False}
        done = threading.Event()

        def run():
            try:
                while not box["polling"]:        # (no SIGINT before the main
                    time.sleep(0.001)            # thread is ready for it)
                box["r"] = engine.search(g, "pvs", time_ms=LIMIT_MS)
            finally:
                done.set()

        th = threading.Thread(target=run)
        t0 = time.perf_counter()
        th.start()
        got = False
        while True:
            try:
                box["polling"] = True
                # (sleep, not a wait on a lock: a KeyboardInterrupt between a
                # lock's acquire and its release would leave it held)
                while not done.is_set():
                    time.sleep(0.01)
                break
            except KeyboardInterrupt:
                got = True
                engine.stop()
        th.join()
        g.timer.join()
        engine.close()
        check(got, f"run {i}: the main thread got no KeyboardInterrupt")
        check(time.perf_counter() - t0 < PROMPT_S, f"run {i}: not stopped")
        check("r" in box and "stopped" in box["r"].flags, f"run {i}: {box!r}")
        check(g.path == [1], f"run {i}: state not restored")
        check(g.handler_seen is signal.default_int_handler,
              f"run {i}: handler during the search: {g.handler_seen!r}")
        handlers_restored(f"run {i}")


def calibrate(runs):
    """ProbCut calibration runs many searches: it stops too."""
    if not hasattr(gts.Engine, "calibrate_probcut") or "probcut" not in \
            {a.name for a in gts.algorithms()}:
        return
    for i in range(runs):
        g = Walk()
        with gts.Engine() as e:
            expect_interrupt(f"run {i} calibrate", 0.05 + (i % 3) * 0.03,
                             lambda: e.calibrate_probcut(g, 2, 6, samples=100000,
                                                         max_walk=10),
                             lambda: g.path == [1])


SCENARIOS = {f.__name__: f for f in (python_serial, python_parallel, c_game, custom_handler,
                                     nested, other_thread, calibrate)}

if __name__ == "__main__":
    # Python keeps SIGINT ignored when it starts with it ignored (a background
    # job of a non-interactive shell): these scenarios need the default handler.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    SCENARIOS[sys.argv[1]](int(sys.argv[2]) if len(sys.argv) > 2 else 10)
    if failures:
        sys.exit(1)
    print("ok")
