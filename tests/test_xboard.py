#!/usr/bin/env python3
"""gts-uci under a real GUI: xboard runs it through polyglot (the UCI
adapter) against Fairy-Max, in match mode under a virtual X server.

Usage: test_xboard.py [--games N] [--tc MIN:SEC] [--inc SECONDS] [--keep DIR]
The engine comes from $GTS_UCI. Exit status 0 when every game finished with
a result and gts-uci neither lost on time, nor made an illegal move, nor
crashed, nor left the GUI waiting (the match has a generous deadline); 1
otherwise, with the reason; 77 (skipped) when xboard, polyglot, Fairy-Max
or xvfb-run is missing (Debian packages xboard, polyglot, fairymax, xvfb;
scripts/setup installs them).

xboard ponders (-ponderNextMove true): polyglot then sends `go ponder`,
`ponderhit` and `stop` as GUIs do, after gts-uci's `bestmove M ponder R`;
a match in which gts-uci never pondered fails. The games
are drawn by adjudication after --max-moves moves to keep the test short.
Everything is written to a temporary directory (HOME too, so that xboard's
settings file stays there): the PGN, xboard's debug log (every line to and
from both engines) and polyglot's log; --keep DIR keeps them in DIR.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

SKIP = 77
FAULT = re.compile(r"time|flag|illegal|forfeit|exited|unexpected|crash|false|abort",
                   re.IGNORECASE)


def find_program(name, env):
    for cand in (os.environ.get(env), shutil.which(name), os.path.join("/usr/games", name)):
        if cand and os.access(cand, os.X_OK):
            return cand
    return None


def games_of(pgn):
    """(tags, termination comment) of each game of an xboard PGN file."""
    games = []
    for chunk in re.split(r"\n(?=\[Event )", pgn.strip()):
        if not chunk.strip():
            continue
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', chunk, re.MULTILINE))
        # xboard's last comment, just before the result, says why it ended.
        m = re.search(r"\{([^{}]*)\}\s*(1-0|0-1|1/2-1/2|\*)\s*$", chunk)
        games.append((tags, m.group(1) if m else ""))
    return games


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--tc", default="0:10", help="xboard's -tc, minutes:seconds per game")
    ap.add_argument("--inc", default="0.1", help="xboard's -inc, seconds per move")
    ap.add_argument("--max-moves", type=int, default=40)
    ap.add_argument("--deadline", type=float, default=480.0,
                    help="seconds before the match counts as hung")
    ap.add_argument("--keep", help="directory to keep the logs and the PGN in")
    args = ap.parse_args()

    gts = os.environ.get("GTS_UCI")
    tools = {name: find_program(name, name.upper().replace("-", "_"))
             for name in ("xboard", "polyglot", "fairymax", "xvfb-run")}
    missing = [name for name, path in tools.items() if not path]
    if missing:
        print(f"test_xboard: skipped, not installed: {', '.join(missing)}")
        return SKIP
    if not gts or not os.access(gts, os.X_OK):
        print("test_xboard: set GTS_UCI to the gts-uci program", file=sys.stderr)
        return 1
    gts = os.path.abspath(gts)

    with tempfile.TemporaryDirectory(prefix="gts-xboard-") as tmp:
        work = os.path.abspath(args.keep) if args.keep else tmp
        os.makedirs(work, exist_ok=True)
        ini = os.path.join(work, "gts-uci.ini")
        with open(ini, "w") as f:
            f.write("[PolyGlot]\n"
                    f"EngineCommand = {gts}\n"
                    f"EngineDir = {work}\n"
                    "EngineName = gts-uci\n"
                    "Log = true\n"
                    f"LogFile = {os.path.join(work, 'polyglot.log')}\n"
                    "Resign = false\n"
                    "[Engine]\n"
                    "Hash = 16\n")
        pgn = os.path.join(work, "games.pgn")
        debug = os.path.join(work, "xboard.debug")
        for path in (pgn, debug):
            if os.path.exists(path):
                os.remove(path)
        argv = [tools["xvfb-run"], "-a", tools["xboard"],
                "-fcp", f"{tools['polyglot']} {ini}", "-fd", work,
                "-scp", tools["fairymax"], "-sd", work,
                "-matchGames", str(args.games), "-tc", args.tc, "-inc", args.inc,
                "-ponderNextMove", "true", "-autoCallFlag", "true", "-adjudicateDrawMoves", str(args.max_moves),
                "-matchPause", "500", "-saveGameFile", pgn, "-xexit",
                "-saveSettingsOnExit", "false", "-debugMode", "true",
                "-nameOfDebugFile", debug]
        env = dict(os.environ, HOME=work)
        env["PATH"] = env.get("PATH", "") + os.pathsep + "/usr/games"
        # Its own session, so that a hang is ended with every process of it
        # (xvfb-run, Xvfb, xboard, polyglot, the engines).
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                env=env, cwd=work, start_new_session=True, text=True,
                                errors="replace")
        # meson ends a test that outlives its timeout with SIGTERM: take the
        # session down with it.
        def end_session(signum, frame):
            os.killpg(proc.pid, signal.SIGKILL)
            sys.exit(1)
        signal.signal(signal.SIGTERM, end_session)
        signal.signal(signal.SIGINT, end_session)
        try:
            out, _ = proc.communicate(timeout=args.deadline)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            print(f"test_xboard: FAIL: the match did not end within {args.deadline:.0f} s "
                  "(a hang)")
            return 1
        out = "\n".join(l for l in out.splitlines()
                        if not re.match(r"^(ALSA lib|aplay:)", l))  # no sound device
        faults = []
        if proc.returncode != 0:
            faults.append(f"xboard exited with status {proc.returncode}: {out.strip()[-400:]}")
        text = open(pgn, errors="replace").read() if os.path.exists(pgn) else ""
        games = games_of(text)
        if len(games) != args.games:
            faults.append(f"{len(games)} games in the PGN, expected {args.games}")
        score = [0, 0, 0]  # gts-uci's wins, losses, draws
        for i, (tags, why) in enumerate(games, 1):
            result = tags.get("Result", "*")
            if "gts" in tags.get("White", ""):
                side = 0
            elif "gts" in tags.get("Black", ""):
                side = 1
            else:
                faults.append(f"game {i}: gts-uci plays neither side ({tags})")
                continue
            print(f"game {i}: {tags.get('White')} - {tags.get('Black')} {result} {{{why}}}")
            if result not in ("1-0", "0-1", "1/2-1/2"):
                faults.append(f"game {i}: no result ({result}, {{{why}}})")
                continue
            lost = result == ("0-1" if side == 0 else "1-0")
            won = result == ("1-0" if side == 0 else "0-1")
            score[0 if won else 1 if lost else 2] += 1
            if lost and FAULT.search(why):
                faults.append(f"game {i}: gts-uci lost by a fault: {{{why}}}")
        # Said by xboard about gts-uci (the first engine) in its log.
        log = open(debug, errors="replace").read() if os.path.exists(debug) else ""
        for line in log.splitlines():
            if re.search(r"Illegal move .* first|first chess program .* exited|"
                         r"Forfeit due to", line, re.IGNORECASE):
                faults.append(f"xboard's log: {line.strip()}")
        # Commands that gts-uci refused (a protocol mix-up with polyglot).
        plog_path = os.path.join(work, "polyglot.log")
        plog = open(plog_path, errors="replace").read() if os.path.exists(plog_path) else ""
        for line in plog.splitlines():
            if "Engine->Adapter: info string" in line and "ignored" in line:
                faults.append(f"polyglot's log: {line.strip()}")
        ponderhits = plog.count("Adapter->Engine: ponderhit")
        # xboard ponders, so polyglot must have sent go ponder (it does when
        # the engine lists the Ponder option and names a reply in bestmove).
        if not re.search(r"Adapter->Engine: go .*\bponder\b", plog):
            faults.append("gts-uci never pondered (no go ponder in polyglot's log)")
        print(f"gts-uci +{score[0]} -{score[1]} ={score[2]}; ponderhit {ponderhits} times; "
              f"xboard: {out.strip().splitlines()[-1] if out.strip() else ''}")
        if faults:
            for f in faults:
                print("test_xboard: FAIL:", f)
            if not args.keep:
                print("(run with --keep DIR to keep the PGN and the logs)")
            return 1
    print("test_xboard: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
