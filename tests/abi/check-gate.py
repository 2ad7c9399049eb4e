#!/usr/bin/env python3
"""The experimental gate of the public headers (README "Versioning and ABI").

A header's experimental API sits in one section

    #ifdef GTS_EXPERIMENTAL_API
    ...
    #endif

after its stable API. This test finds every such section of the headers
given and checks:

  1. stable API first: after the section's #endif only the closing lines of
     the header follow (comments, the extern "C" brace, #endif);
  2. every name the section declares (a macro, function-like or not, an enum
     constant, a typedef, a GTS_API function) is unknown to a program that includes the header
     without GTS_EXPERIMENTAL_API: a use of it fails to compile;
  3. the same use compiles with GTS_EXPERIMENTAL_API defined (so the
     failure in 2 is the gate's, not a broken snippet's);
  4. each name given with --expect is declared in such a section.

Usage: check-gate.py --header PATH... [--expect NAME]... --include-dir DIR...
         -- CC [ARGS...]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

OPEN = re.compile(r'^\s*#\s*ifdef\s+GTS_EXPERIMENTAL_API\b')
COND_START = re.compile(r'^\s*#\s*if(n?def)?\b')
COND_END = re.compile(r'^\s*#\s*endif\b')
TAIL_OK = re.compile(r'^\s*(#\s*ifdef\s+__cplusplus|}|#\s*endif\b.*)?\s*$')


def strip_comments(text):
    """Comments become blanks; line numbers are kept."""
    text = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def sections(path, problems):
    """[(first line, last line, text)] of the experimental sections of @path."""
    lines = strip_comments(open(path).read()).split('\n')
    found = []
    i = 0
    while i < len(lines):
        if not OPEN.match(lines[i]):
            i += 1
            continue
        depth, j = 1, i + 1
        while j < len(lines) and depth:
            if COND_START.match(lines[j]):
                depth += 1
            elif COND_END.match(lines[j]):
                depth -= 1
            j += 1
        if depth:
            problems.append('%s:%d: #ifdef GTS_EXPERIMENTAL_API without its #endif'
                            % (path, i + 1))
            return found
        found.append((i + 1, j, '\n'.join(lines[i + 1:j - 1])))
        for k in range(j, len(lines)):
            if not TAIL_OK.match(lines[k]):
                problems.append('%s:%d: stable API after the experimental section (lines %d-%d):'
                                ' %s' % (path, k + 1, i + 1, j, lines[k].strip()))
                break
        i = j
    return found


def declared_names(text):
    """{name: 'value' | 'type'} declared by a section's text."""
    names = {}
    for m in re.finditer(r'^\s*#\s*define\s+([A-Za-z_]\w*)(\()?', text, flags=re.M):
        names[m.group(1)] = 'call' if m.group(2) else 'value'
    for m in re.finditer(r'\benum\b[^{;]*\{(.*?)\}', text, flags=re.S):
        for item in m.group(1).split(','):
            c = re.match(r'\s*([A-Za-z_]\w*)', item)
            if c:
                names[c.group(1)] = 'value'
    for m in re.finditer(r'\}\s*([A-Za-z_]\w*)\s*;', text):
        names[m.group(1)] = 'type'
    for m in re.finditer(r'\btypedef\b[^;{}]*?\b([A-Za-z_]\w*)\s*;', text):
        names[m.group(1)] = 'type'
    for m in re.finditer(r'\bGTS_API\b[^;(]*?\b([A-Za-z_]\w*)\s*\(', text):
        names[m.group(1)] = 'value'
    return names


def snippet(header, name, kind):
    if kind == 'type':
        use = '%s *p = 0;\n    (void)p;' % name
    elif kind == 'call':  # a function-like macro
        use = '(void)(%s(0));' % name
    else:
        use = '(void)(%s);' % name
    return ('#include <gts/%s>\n\nint main(void)\n{\n    %s\n    return 0;\n}\n'
            % (os.path.basename(header), use))


def compiles(cc, include_dirs, source, defines, tmp):
    path = os.path.join(tmp, 'gate.c')
    with open(path, 'w') as f:
        f.write(source)
    cmd = cc + ['-fsyntax-only', '-Werror=implicit-function-declaration'] + defines + ['-I' + d for d in include_dirs] + [path]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode == 0, r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--header', action='append', default=[], required=True)
    ap.add_argument('--expect', action='append', default=[])
    ap.add_argument('--include-dir', action='append', default=[])
    ap.add_argument('cc', nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cc = [a for a in args.cc if a != '--']
    problems = []
    gated = {}
    for header in args.header:
        for first, last, text in sections(header, problems):
            for name, kind in declared_names(text).items():
                gated[name] = (header, kind)
            print('%s: experimental section, lines %d-%d' % (header, first, last))
    for name in args.expect:
        if name not in gated:
            problems.append('%s is not declared in an experimental section' % name)
    with tempfile.TemporaryDirectory() as tmp:
        for name, (header, kind) in sorted(gated.items()):
            source = snippet(header, name, kind)
            hidden, _ = compiles(cc, args.include_dir, source, [], tmp)
            shown, err = compiles(cc, args.include_dir, source, ['-DGTS_EXPERIMENTAL_API'], tmp)
            if hidden:
                problems.append('%s (%s): visible without GTS_EXPERIMENTAL_API'
                                % (name, os.path.basename(header)))
            if not shown:
                problems.append('%s (%s): does not compile with GTS_EXPERIMENTAL_API:\n%s'
                                % (name, os.path.basename(header), err))
            if not hidden and shown:
                print('ok: %s (%s) is gated' % (name, os.path.basename(header)))
    if not gated:
        print('no experimental section')
    for p in problems:
        print('FAIL: ' + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
