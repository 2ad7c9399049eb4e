#!/usr/bin/env python3
"""The algorithm registry and the option rows agree with the public API.

doc/architecture.md, "Adding an algorithm": an algorithm is one file under
lib/search/ plus one line of the registry (lib/search/registry.c), its
entry point in include/gts/search.h and lib/libgts.map, and its Python stub
(bindings/python/gts/__init__.pyi). This check keeps that recipe honest:

- every GTS_ALG_* value of include/gts/search.h has exactly one registry
  row, whose name is the enum name lowercased, a public wrapper gts_<name>
  declared in a public header (include/gts/), defined by driver.c's
  GTS__WRAPPER and exported by lib/libgts.map, and a stub
  `def <name>(` in the Python package; no registry row without an enum;
- every GTS_OPT_* value of include/gts/engine.h has exactly one row
  definition: in the core table (lib/engine.c) or in an algorithm's rows
  (lib/search/*.c; GTS__OPT_ROW_TREE_MB, the shared best-first budget, in
  lib/search/algos.h), named by the rule (the enum name without GTS_OPT_,
  lowercased); an algorithm's options fit the engine's slots
  (GTS__OPT_SLOTS, lib/engine_internal.h);
- lib/engine.c includes nothing from lib/search/ (the core knows no
  algorithm) and names no algorithm's option.

Usage: check-registry.py SOURCE_ROOT
"""
import pathlib
import re
import sys


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    text = lambda p: (root / p).read_text()
    bad = []

    # ---- algorithms --------------------------------------------------------
    search_h = text("include/gts/search.h")
    enum = re.search(r"typedef enum gts_algorithm \{(.*?)\} gts_algorithm;", search_h, re.S)
    algs = re.findall(r"\bGTS_ALG_(\w+)\s*=", enum.group(1)) if enum else []
    if not algs:
        bad.append("include/gts/search.h: no GTS_ALG_* values found")
    registry = text("lib/search/registry.c")
    rows = re.findall(r"\{\s*GTS_ALG_(\w+),\s*\"(\w+)\"", registry)
    row_ids = [r[0] for r in rows]
    headers = "".join(p.read_text() for p in sorted((root / "include/gts").glob("*.h")))
    libmap = text("lib/libgts.map")
    driver = text("lib/search/driver.c")
    stub = text("bindings/python/gts/__init__.pyi")
    for a in algs:
        name = a.lower()
        n = row_ids.count(a)
        if n != 1:
            bad.append(f"GTS_ALG_{a}: {n} rows in lib/search/registry.c (want 1)")
        elif dict(rows)[a] != name:
            bad.append(f"GTS_ALG_{a}: registry name {dict(rows)[a]!r}, want {name!r}")
        if not re.search(rf"GTS_API\s+gts_status\s+gts_{name}\s*\(|"
                         rf"GTS__DECLARE_ENTRY\(gts_{name}\)", headers):
            bad.append(f"GTS_ALG_{a}: no GTS_API declaration of gts_{name} in include/gts/")
        if not re.search(rf"GTS__WRAPPER\(gts_{name}, GTS_ALG_{a}\)", driver):
            bad.append(f"GTS_ALG_{a}: no GTS__WRAPPER(gts_{name}, ...) in lib/search/driver.c")
        if not re.search(rf"^\s*gts_{name};", libmap, re.M):
            bad.append(f"GTS_ALG_{a}: gts_{name} not exported by lib/libgts.map")
        if not re.search(rf"^def {name}\(", stub, re.M):
            bad.append(f"GTS_ALG_{a}: no `def {name}(` in bindings/python/gts/__init__.pyi")
    for r in row_ids:
        if r not in algs:
            bad.append(f"lib/search/registry.c: row GTS_ALG_{r} has no enum value")

    # ---- options -------------------------------------------------------------
    engine_h = text("include/gts/engine.h")
    enum = re.search(r"typedef enum gts_option \{(.*?)\} gts_option;", engine_h, re.S)
    opts = re.findall(r"\bGTS_OPT_(\w+)\s*=", enum.group(1)) if enum else []
    if not opts:
        bad.append("include/gts/engine.h: no GTS_OPT_* values found")
    engine_c = text("lib/engine.c")
    core = dict(re.findall(r"\bOPT\(GTS_OPT_(\w+),.*?,\s*(\w+)\)", engine_c))
    core.update({o: n for o, n in re.findall(r"\bOPTN\(GTS_OPT_(\w+),\s*\"(\w+)\"", engine_c)})
    algo = {}
    for path in sorted((root / "lib/search").glob("*.[ch]")):
        for o, n in re.findall(r"\{\s*GTS_OPT_(\w+),\s*\"(\w+)\",", path.read_text()):
            algo.setdefault(o, []).append((path.name, n))
    for o in opts:
        want = o.lower()
        defs = ([("engine.c", core[o])] if o in core else []) + algo.get(o, [])
        if len(defs) != 1:
            bad.append(f"GTS_OPT_{o}: {len(defs)} row definitions {defs} (want 1)")
        for where, n in defs:
            if n != want:
                bad.append(f"GTS_OPT_{o}: named {n!r} in {where}, want {want!r}")
    for o in list(core) + list(algo):
        if o not in opts:
            bad.append(f"row for GTS_OPT_{o}, which include/gts/engine.h lacks")
    slots = re.search(r"#define GTS__OPT_SLOTS (\d+)", text("lib/engine_internal.h"))
    if not slots or len(algo) > int(slots.group(1)):
        bad.append(f"{len(algo)} algorithm options exceed GTS__OPT_SLOTS")

    # ---- the core knows no algorithm -----------------------------------------
    for no, line in enumerate(engine_c.splitlines(), 1):
        if re.search(r'#\s*include\s*"(search/|\.\./search)', line):
            bad.append(f"lib/engine.c:{no}: includes lib/search/: {line.strip()}")
    for o in algo:
        if re.search(rf"\bGTS_OPT_{o}\b", engine_c):
            bad.append(f"lib/engine.c names the algorithm option GTS_OPT_{o}")

    for b in bad:
        print(b)
    if not bad:
        print(f"{len(algs)} algorithms, {len(opts)} options ({len(core)} core): registry, "
              "rows, header, map file and Python stub agree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
