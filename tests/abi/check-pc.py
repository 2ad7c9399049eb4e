#!/usr/bin/env python3
"""Packaging guard: the pkg-config files of libgts stand on their own.

For each NAME (gts, gts-games), PCDIR/NAME.pc must

  1. require nothing outside the project: Requires and Requires.private
     name only the other NAMEs (Concurrency Kit is a private, header-only
     build dependency and must not leak into gts.pc);
  2. resolve with pkg-config looking at PCDIR only (PKG_CONFIG_LIBDIR=PCDIR,
     no PKG_CONFIG_PATH: the system's .pc files, ck.pc among them, are out
     of sight, as on a machine without libck-dev), for --cflags --libs and
     for --static --libs;
  3. give flags a consumer can use anywhere: Cflags only -I (and -pthread,
     which meson makes public for a static-only libgts), Libs only -L, -l
     and -pthread (no -D__x86_64__ or other inherited defines, no -lck).

--version V: --modversion must be V. --installed: the files are installed
ones, so includedir holds the headers and libdir the libraries they name
(gts/gts.h and libgts.so or, static, libgts.a; gts/gts_games.h and
libgts-games.so).

Usage: check-pc.py [--version V] [--installed] PCDIR NAME...
Used by the abi_pkgconfig test (PCDIR = the build's meson-private, the
files meson installs) and by scripts/consumer-test (an installed prefix).
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

HEADERS = {'gts': 'gts/gts.h', 'gts-games': 'gts/gts_games.h'}
LIBS = {'gts': ('libgts.so', 'libgts.a'), 'gts-games': ('libgts-games.so',)}


def fields(path):
    """The 'Key: value' fields of a .pc file (variables left unexpanded)."""
    out = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'^([A-Za-z][A-Za-z0-9_.]*)\s*:\s*(.*)$', line.rstrip('\n'))
            if m:
                out[m.group(1)] = m.group(2).strip()
    return out


def required_names(value):
    """Package names of a Requires value: 'a >= 1, b' -> ['a', 'b']."""
    names = []
    for item in re.split(r'[,\s]+', value):
        if item and not re.match(r'^[<>=!]', item) and not re.match(r'^[0-9]', item):
            names.append(item)
    return names


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--version')
    p.add_argument('--installed', action='store_true')
    p.add_argument('pcdir')
    p.add_argument('names', nargs='+')
    a = p.parse_args()

    problems = []

    def fail(msg):
        print('FAIL: ' + msg)
        problems.append(msg)

    env = dict(os.environ)
    for var in ('PKG_CONFIG_PATH', 'PKG_CONFIG_SYSROOT_DIR', 'PKG_CONFIG_ALLOW_SYSTEM_CFLAGS',
                'PKG_CONFIG_ALLOW_SYSTEM_LIBS'):
        env.pop(var, None)
    env['PKG_CONFIG_LIBDIR'] = a.pcdir

    def pkg_config(*args):
        cmd = ['pkg-config'] + list(args)
        r = subprocess.run(cmd, env=env, capture_output=True, text=True)
        shown = 'PKG_CONFIG_LIBDIR=<pcdir> ' + ' '.join(cmd)
        if r.returncode != 0:
            fail('%s failed: %s' % (shown, r.stderr.strip()))
            return None
        print('%s: %s' % (shown, r.stdout.strip()))
        return r.stdout.strip()

    for name in a.names:
        path = os.path.join(a.pcdir, name + '.pc')
        if not os.path.exists(path):
            fail('%s.pc not found in the pkg-config directory' % name)
            continue
        f = fields(path)
        for key in ('Requires', 'Requires.private'):
            for req in required_names(f.get(key, '')):
                if req not in a.names:
                    fail('%s.pc: %s names %s, which is not part of this project'
                         % (name, key, req))

    for names in [[n] for n in a.names] + ([a.names] if len(a.names) > 1 else []):
        for mode in ([], ['--static']):
            cflags = pkg_config(*mode, '--cflags', *names)
            libs = pkg_config(*mode, '--libs', *names)
            if cflags is None or libs is None:
                continue
            for flag in shlex.split(cflags):
                if not (flag.startswith('-I') or flag == '-pthread'):
                    fail('%s: Cflags has %s (only -I, -pthread expected)' % (' '.join(names), flag))
            for flag in shlex.split(libs):
                if flag == '-lck' or not (flag.startswith(('-L', '-l')) or flag == '-pthread'):
                    fail('%s: %sLibs has %s' % (' '.join(names), 'static ' if mode else '', flag))

    for name in a.names:
        version = pkg_config('--modversion', name)
        if a.version and version is not None and version != a.version:
            fail('%s: version %s, expected %s' % (name, version, a.version))
        if a.installed:
            includedir = pkg_config('--variable=includedir', name)
            libdir = pkg_config('--variable=libdir', name)
            header = HEADERS.get(name)
            libs = LIBS.get(name, ())
            if header and includedir and not os.path.exists(os.path.join(includedir, header)):
                fail('%s: %s not installed in its includedir' % (name, header))
            if libs and libdir and not any(os.path.exists(os.path.join(libdir, lib))
                                           for lib in libs):
                fail('%s: %s not installed in its libdir' % (name, ' or '.join(libs)))

    if problems:
        print('%d problem(s)' % len(problems))
        return 1
    print('%s: self-contained (no ck, no inherited defines)' % ', '.join(n + '.pc' for n in a.names))
    return 0


if __name__ == '__main__':
    sys.exit(main())
