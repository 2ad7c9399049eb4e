#!/usr/bin/env python3
"""ABI guard: three lists of the public functions must be equal.

  1. the dynamic symbols libgts.so defines (nm -D --defined-only),
  2. the names in the version script lib/libgts.map (every node),
  3. the functions declared with GTS_API in the public headers.

The headers are read through the C preprocessor, so declarations that span
lines or come out of a macro (GTS__DECLARE_ENTRY in search.h) count like
any other: common.h expands GTS_API to __attribute__((visibility("default"))),
and every declaration carrying that attribute in a line of a public header is
collected. GTS_EXPERIMENTAL_API is defined so experimental functions count too.

A node whose name ends in PRIVATE (GTS_PRIVATE: the hooks of libgts-mpi,
lib/hook_internal.h) lists internal gts__* names: exported and in the map,
but declared in no public header; they are left out of the third list.

Also checked: each exported symbol carries the version of the map node that
lists it, names are alphabetical within a node and listed once, and the
headers meson installs (and tests) are exactly include/gts/*.h.

With --header, the public headers are the ones named instead of
include/gts/*.h (the include dirs then only resolve their #includes): the
same three-way check for another library, libgts-games (gts_games.h, whose
GTS_GAMES_API expands to the same attribute, and libgts-games.map).

Usage: check-exports.py --lib LIBGTS_SO --map LIBGTS_MAP --include-dir SRC_INCLUDE
         --include-dir BUILD_INCLUDE [--installed-header NAME]... -- CC [ARGS...]
       check-exports.py --lib LIBGTS_GAMES_SO --map LIBGTS_GAMES_MAP
         --header GTS_GAMES_H --include-dir SRC_INCLUDE --include-dir BUILD_INCLUDE -- CC [ARGS...]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ATTRIBUTE = re.compile(r'__attribute__\s*\(\(\s*visibility\s*\(\s*"default"\s*\)\s*\)\)')
FUNCTION_NAME = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)\s*\(')
LINE_MARKER = re.compile(r'^#\s*(?:line\s+)?\d+\s+"([^"]*)"')


def exported_symbols(lib):
    """Defined dynamic symbols of the library: {name: version or None}."""
    out = subprocess.run(['nm', '-D', '--defined-only', lib], check=True,
                         capture_output=True, text=True).stdout
    symbols = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 3 or fields[1] not in 'TDBRVWi':
            continue
        name, _, version = fields[2].partition('@')
        if name.startswith('GTS_'):  # the version nodes themselves (A symbols)
            continue
        symbols[name] = version.lstrip('@') or None
    return symbols


def map_symbols(path, problems):
    """Names listed in the version script: {name: node}."""
    with open(path) as f:
        text = f.read()
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'#[^\n]*', ' ', text)
    symbols = {}
    for node, body in re.findall(r'([A-Za-z_][A-Za-z0-9_.]*)\s*\{(.*?)\}', text, flags=re.S):
        scope = 'global'
        names = []
        for item in re.split(r';', body):
            item = item.strip()
            if not item:
                continue
            m = re.match(r'(global|local)\s*:\s*(.*)', item, flags=re.S)
            if m:
                scope, item = m.group(1), m.group(2).strip()
                if not item:
                    continue
            if scope == 'global':
                names.append(item)
        if names != sorted(names):
            fail(problems, '%s: node %s is not in alphabetical order' % (path, node))
        for name in names:
            if name in symbols:
                fail(problems, '%s: %s listed twice (%s, %s)' % (path, name, symbols[name], node))
            symbols[name] = node
    return symbols


def header_functions(headers, include_dirs, cc):
    """Functions declared with GTS_API in @headers (paths)."""
    public = {os.path.realpath(h) for h in headers}
    with tempfile.TemporaryDirectory() as tmp:
        tu = os.path.join(tmp, 'all.c')
        with open(tu, 'w') as f:
            f.write('#define GTS_EXPERIMENTAL_API 1\n')
            for h in headers:
                f.write('#include "%s"\n' % os.path.realpath(h))
        cmd = cc + ['-E'] + ['-I' + d for d in include_dirs] + [tu]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    # Keep only the text that comes from a public header.
    text = []
    keep = False
    for line in out.splitlines():
        m = LINE_MARKER.match(line)
        if m:
            keep = os.path.realpath(m.group(1)) in public
            continue
        if keep:
            text.append(line)
    text = ' '.join(text)
    names = set()
    # One declaration ends at ';' or opens a body '{' (inline definitions).
    for decl in re.split(r'[;{}]', text):
        if not ATTRIBUTE.search(decl):
            continue
        m = FUNCTION_NAME.search(ATTRIBUTE.sub(' ', decl))
        if m:
            names.add(m.group(1))
    return names


def fail(problems, msg):
    print('FAIL: ' + msg)
    problems.append(msg)


def show(title, names):
    if not names:
        return
    print('  %s:' % title)
    for n in sorted(names):
        print('    ' + n)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--lib', required=True)
    p.add_argument('--map', required=True)
    p.add_argument('--include-dir', action='append', required=True)
    p.add_argument('--installed-header', action='append', default=[])
    p.add_argument('--header', action='append', default=[],
                   help='public header (path); default: include/gts/*.h and version.h')
    p.add_argument('cc', nargs='+')
    a = p.parse_args()

    problems = []
    if a.header:
        headers = list(a.header)
    else:
        src_gts = os.path.join(a.include_dir[0], 'gts')
        headers = sorted(os.path.join(src_gts, h) for h in os.listdir(src_gts) if h.endswith('.h'))
        for d in a.include_dir[1:]:
            v = os.path.join(d, 'gts', 'version.h')
            if os.path.exists(v):
                headers.append(v)

    if a.installed_header:
        on_disk = {os.path.basename(h) for h in headers}
        listed = set(a.installed_header)
        if on_disk != listed:
            fail(problems, 'public headers on disk differ from the list in include/gts/meson.build')
            show('in include/gts but not installed/tested', on_disk - listed)
            show('listed but missing', listed - on_disk)

    exported = exported_symbols(a.lib)
    mapped = map_symbols(a.map, problems)
    declared = header_functions(headers, a.include_dir, a.cc)

    lib_name = re.sub(r'(\.so)(\.[0-9]+)*$', r'\1', os.path.basename(a.lib))
    map_name = os.path.basename(a.map)
    private = {n for n, node in mapped.items() if node.endswith('PRIVATE')}
    for name in sorted(private):
        if not name.startswith('gts__'):
            fail(problems, '%s: %s is in private node %s but is not a gts__ name'
                 % (map_name, name, mapped[name]))
        if name in declared:
            fail(problems, '%s is in private node %s but a public header declares it'
                 % (name, mapped[name]))
    lists = [('exported by ' + lib_name, set(exported) - private),
             ('listed in ' + map_name, set(mapped) - private),
             ('declared with default visibility in the headers', declared)]
    for i, (title_a, set_a) in enumerate(lists):
        for title_b, set_b in lists[i + 1:]:
            if set_a != set_b:
                fail(problems, '%s != %s' % (title_a, title_b))
                if set_a - set_b:
                    show('%s only' % title_a, set_a - set_b)
                if set_b - set_a:
                    show('%s only' % title_b, set_b - set_a)

    for name in sorted(private - set(exported)):
        fail(problems, '%s is in private node %s but %s does not export it'
             % (name, mapped[name], lib_name))
    for name, version in sorted(exported.items()):
        if name in mapped and version is not None and version != mapped[name]:
            fail(problems, '%s has version %s but the map lists it under %s'
                 % (name, version, mapped[name]))

    if problems:
        print('%d problem(s)' % len(problems))
        return 1
    print('%d functions: exported by %s == %s == declared in %d header(s)%s'
          % (len(exported) - len(private), lib_name, map_name, len(headers),
             ', and %d private hook(s)' % len(private) if private else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main())
