#!/usr/bin/env python3
"""lib/ compiles as one translation unit (issue 30): no two files of the
library define a static of the same name, so a twin shape cannot hide
behind file scope. Includes every lib/*.c and lib/search/*.c into one unit
and asks the compiler for a syntax check.

Usage: check-unity.py CC SOURCE_ROOT BUILD_ROOT
"""
import glob
import os
import subprocess
import sys
import tempfile


def main():
    cc, src, build = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    files = sorted(glob.glob(os.path.join(src, "lib", "*.c")) +
                   glob.glob(os.path.join(src, "lib", "search", "*.c")))
    if not files:
        print("check-unity: no source under %s/lib" % src)
        return 1
    # pool.c asks for _GNU_SOURCE; in one unit it must come first.
    text = "#define _GNU_SOURCE\n" + "".join('#include "%s"\n' % f for f in files)
    with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as t:
        t.write(text)
        path = t.name
    try:
        args = [cc, "-std=gnu11", "-fsyntax-only", "-DGTS_EXPERIMENTAL_API",
                "-I" + os.path.join(src, "include"), "-I" + os.path.join(src, "lib"),
                "-I" + os.path.join(build, "include"), "-I" + os.path.join(build, "lib"),
                "-I" + build, path]
        r = subprocess.run(args, capture_output=True, text=True)
    finally:
        os.unlink(path)
    errors = [ln for ln in r.stderr.splitlines() if "error" in ln]
    if r.returncode != 0 or errors:
        print("lib/ does not compile as one unit (%d files):" % len(files))
        print("\n".join(errors[:40]) or r.stderr)
        return 1
    print("lib/ compiles as one unit: %d files" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
