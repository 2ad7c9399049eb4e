#!/usr/bin/env python3
"""Every atomic of the library goes through lib/atomic_internal.h.

Concurrency Kit's ck_pr_* functions are inline assembly that
ThreadSanitizer cannot see; atomic_internal.h pairs each one with the
annotations and the memory order it needs. A raw ck_pr_* call (or an
include of ck_pr.h) anywhere else in lib/ is a race report or a missing
barrier waiting to happen, so it fails this check.

Usage: check-atomics.py LIB_DIR
"""
import pathlib
import re
import sys

ALLOWED = {"atomic_internal.h"}
PATTERN = re.compile(r"\bck_pr_\w+|#\s*include\s*<ck_pr\.h>")


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    bad = []
    files = sorted(p for p in root.rglob("*") if p.suffix in (".c", ".h"))
    for path in files:
        if path.name in ALLOWED:
            continue
        for no, line in enumerate(path.read_text().splitlines(), 1):
            if PATTERN.search(line):
                bad.append(f"{path.relative_to(root)}:{no}: {line.strip()}")
    if not files:
        print(f"check-atomics: no sources under {root}", file=sys.stderr)
        return 1
    for b in bad:
        print(b, file=sys.stderr)
    if bad:
        print(f"check-atomics: {len(bad)} raw ck_pr use(s) outside atomic_internal.h",
              file=sys.stderr)
        return 1
    print(f"check-atomics: {len(files)} files, every atomic through atomic_internal.h")
    return 0


if __name__ == "__main__":
    sys.exit(main())
