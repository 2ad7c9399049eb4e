#!/usr/bin/env python3
"""Compile and run every code block of doc/tutorial.md; print TAP.

Standard library only. The tutorial marks each code block with an HTML
comment on the line before its opening fence (blank lines may separate them):

  <!-- file: NAME -->     before a ```c block: append the block to file NAME.
                          Blocks with the same name are joined in document
                          order. Every NAME ending in .c is a program: it is
                          compiled with -std=c99 -Wall -Wextra -Werror
                          against the build tree (one test point each).
  <!-- run: NAME.c ARGS --> before a ```text block: run program NAME with
                          ARGS; its standard output must match the block.
  <!-- sh -->             before a ```sh block: run it with `sh -e` in the
                          directory of the programs, with the build's `gts`
                          tool and the programs on PATH and pkg-config
                          finding the uninstalled library.
  <!-- output -->         before a ```text block right after a ```sh block:
                          the standard output that block must print.

Expected output matches line by line; `...` in an expected line matches any
text (numbers that vary between machines: times, node counts of parallel
searches). Every ```c and ```sh block must carry a marker and every marker
must sit on a block of the right language: an unmarked block is an error, so
no example can silently go stale. ```text blocks without a marker are
illustrations and are not checked.

Usage (meson passes all of these; see tests/meson.build):
  check_tutorial.py DOC --cc CC [--cc-arg ARG]... --include DIR [--include DIR]...
                    --libdir DIR [--tool GTS] [--pkgconfig-dir DIR] [--keep DIR]
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

TIMEOUT = 300
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror"]
FENCE = re.compile(r"^(`{3,})\s*([A-Za-z0-9_+-]*)\s*$")
MARKER = re.compile(r"^<!--\s*([a-z]+)\s*(?::\s*(.*?))?\s*-->\s*$")
SH_LANGS = {"sh", "bash", "shell", "console"}


class Block:
    def __init__(self, line, lang, text, marker, arg):
        self.line = line      # 1-based line of the opening fence
        self.lang = lang
        self.text = text
        self.marker = marker  # None, "file", "run", "sh", "output"
        self.arg = arg


def parse(path):
    """Fenced blocks of the markdown file, each with the marker before it."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks, errors = [], []
    pending = None  # (line, key, arg) of a marker not yet used
    i = 0
    while i < len(lines):
        line = lines[i]
        m = MARKER.match(line.strip())
        if m and m.group(1) in ("file", "run", "sh", "output"):
            if pending:
                errors.append("line %d: marker not followed by a code block" % pending[0])
            pending = (i + 1, m.group(1), m.group(2) or "")
            i += 1
            continue
        f = FENCE.match(line.strip())
        if f:
            fence, lang = f.group(1), f.group(2).lower()
            indent = len(line) - len(line.lstrip())
            body = []
            start = i + 1
            i += 1
            while i < len(lines) and lines[i].strip() != fence:
                body.append(lines[i][indent:] if lines[i][:indent].isspace() else lines[i])
                i += 1
            if i == len(lines):
                errors.append("line %d: unterminated code block" % start)
            marker, arg = (pending[1], pending[2]) if pending else (None, "")
            blocks.append(Block(start, lang, "\n".join(body) + "\n", marker, arg))
            pending = None
            i += 1
            continue
        if pending and line.strip():
            errors.append("line %d: marker not followed by a code block" % pending[0])
            pending = None
        i += 1
    if pending:
        errors.append("line %d: marker not followed by a code block" % pending[0])
    return blocks, errors


def check_markers(blocks):
    """Structural errors: unmarked c/sh blocks, markers on the wrong block."""
    errors = []
    prev = None
    for b in blocks:
        where = "line %d (```%s)" % (b.line, b.lang or "")
        if b.lang == "c" and b.marker != "file":
            errors.append("%s: a C block needs <!-- file: NAME --> before it" % where)
        elif b.lang in SH_LANGS and b.marker != "sh":
            errors.append("%s: a shell block needs <!-- sh --> before it" % where)
        elif b.marker == "file" and b.lang != "c":
            errors.append("%s: <!-- file --> marks a ```c block" % where)
        elif b.marker == "file" and not re.match(r"^[A-Za-z0-9_.-]+$", b.arg):
            errors.append("%s: bad file name %r" % (where, b.arg))
        elif b.marker == "sh" and b.lang not in SH_LANGS:
            errors.append("%s: <!-- sh --> marks a ```sh block" % where)
        elif b.marker in ("run", "output") and b.lang != "text":
            errors.append("%s: <!-- %s --> marks a ```text block" % (where, b.marker))
        elif b.marker == "run" and not b.arg:
            errors.append("%s: <!-- run: PROGRAM.c --> names no program" % where)
        elif b.marker == "output" and (prev is None or prev.marker != "sh"):
            errors.append("%s: <!-- output --> must follow a ```sh block" % where)
        prev = b
    return errors


def matches(expected, actual):
    """Compare line by line; '...' in an expected line matches any text."""
    exp = expected.rstrip("\n").split("\n")
    act = actual.rstrip("\n").split("\n")
    if len(exp) != len(act):
        return False
    for e, a in zip(exp, act):
        e, a = e.rstrip(), a.rstrip()
        pattern = ".*".join(re.escape(part) for part in e.split("..."))
        if not re.fullmatch(pattern, a):
            return False
    return True


class Tap:
    def __init__(self):
        self.points = []

    def add(self, ok, name, diag=""):
        self.points.append((ok, name, diag))

    def emit(self):
        print("1..%d" % len(self.points))
        failed = 0
        for n, (ok, name, diag) in enumerate(self.points, 1):
            print("%s %d - %s" % ("ok" if ok else "not ok", n, name))
            if not ok:
                failed += 1
                for line in diag.rstrip("\n").split("\n"):
                    print("# " + line)
        return failed


def diff_text(expected, actual):
    return "expected:\n" + expected.rstrip("\n") + "\ngot:\n" + actual.rstrip("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("doc")
    ap.add_argument("--cc", required=True, help="C compiler command")
    ap.add_argument("--cc-arg", action="append", default=[], help="extra compiler argument")
    ap.add_argument("--include", action="append", default=[], help="include directory")
    ap.add_argument("--libdir", required=True, help="directory of libgts.so")
    ap.add_argument("--tool", help="the gts command-line tool")
    ap.add_argument("--pkgconfig-dir", help="directory of the uninstalled gts.pc")
    ap.add_argument("--keep", help="write the programs here instead of a temporary directory")
    args = ap.parse_args()

    tap = Tap()
    blocks, errors = parse(args.doc)
    errors += check_markers(blocks)
    tap.add(not errors, "every code block of %s is marked" % os.path.basename(args.doc),
            "\n".join(errors))

    work = args.keep or tempfile.mkdtemp(prefix="gts-tutorial-")
    os.makedirs(work, exist_ok=True)
    try:
        run_blocks(args, blocks, work, tap)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if tap.emit() else 0


def run_blocks(args, blocks, work, tap):
    libdir = os.path.abspath(args.libdir)
    env = dict(os.environ)
    path = [work]
    if args.tool:
        path.append(os.path.dirname(os.path.abspath(args.tool)))
    env["PATH"] = os.pathsep.join(path + [env.get("PATH", "")])
    env["LD_LIBRARY_PATH"] = os.pathsep.join(
        [libdir] + ([env["LD_LIBRARY_PATH"]] if env.get("LD_LIBRARY_PATH") else []))
    if args.pkgconfig_dir:
        env["PKG_CONFIG_PATH"] = os.path.abspath(args.pkgconfig_dir)
    env["LC_ALL"] = "C"

    # Step 1. Join the blocks of each file and write them out.
    files = {}
    for b in blocks:
        if b.marker == "file" and b.lang == "c":
            files.setdefault(b.arg, []).append(b.text)
    for name, parts in files.items():
        with open(os.path.join(work, name), "w", encoding="utf-8") as f:
            f.write("\n".join(parts))

    # Step 2. Compile every program (into .bin/, out of the way of the
    # shell blocks, which may build their own copies).
    os.makedirs(os.path.join(work, ".bin"), exist_ok=True)
    built = {}
    for name in files:
        if not name.endswith(".c"):
            continue
        exe = os.path.join(work, ".bin", name[:-2])
        cmd = (shlex.split(args.cc) + args.cc_arg + CFLAGS
               + ["-I" + os.path.abspath(d) for d in args.include]
               + [os.path.join(work, name), "-o", exe,
                  "-L" + libdir, "-lgts", "-Wl,-rpath," + libdir])
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=work)
        ok = p.returncode == 0
        built[name] = ok
        tap.add(ok, "compile %s" % name, " ".join(cmd) + "\n" + p.stdout + p.stderr)

    # Step 3. Run the programs and the shell blocks in document order.
    for b in blocks:
        if b.marker == "run" and b.lang == "text":
            words = shlex.split(b.arg)
            prog = words[0] if words else ""
            name = "line %d: run %s" % (b.line, b.arg)
            if prog not in built:
                tap.add(False, name, "no program %s in the tutorial" % prog)
                continue
            if not built[prog]:
                tap.add(False, name, "%s did not compile" % prog)
                continue
            exe = os.path.join(work, ".bin", prog[:-2] if prog.endswith(".c") else prog)
            tap.add(*run_and_compare([exe] + words[1:], b.text, work, env, name))
        elif b.marker == "sh" and b.lang in SH_LANGS:
            out = next_output(blocks, b)
            first = b.text.strip().split("\n")[0]
            name = "line %d: sh %s" % (b.line, first)
            tap.add(*run_and_compare(["sh", "-e", "-c", b.text],
                                     out.text if out else None, work, env, name))


def next_output(blocks, sh_block):
    i = blocks.index(sh_block)
    if i + 1 < len(blocks) and blocks[i + 1].marker == "output":
        return blocks[i + 1]
    return None


def run_and_compare(cmd, expected, cwd, env, name):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, name, "timed out after %d s" % TIMEOUT
    if p.returncode != 0:
        return False, name, "exit status %d\nstdout:\n%s\nstderr:\n%s" % (
            p.returncode, p.stdout, p.stderr)
    if expected is not None and not matches(expected, p.stdout):
        return False, name, diff_text(expected, p.stdout)
    return True, name, ""


if __name__ == "__main__":
    sys.exit(main())
