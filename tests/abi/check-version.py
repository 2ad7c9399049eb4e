#!/usr/bin/env python3
"""Release guard: one version everywhere, and no API newer than it.

Usage: check-version.py VERSION SOURCE_ROOT

VERSION is meson's project version (MAJOR.MINOR.PATCH). It must equal
  - the Python package's version (bindings/python/pyproject.toml and
    gts.__version__ in bindings/python/gts/__init__.py);
and the version MAJOR.MINOR must not be older than
  - any map-file node (GTS_0.N in lib/libgts.map, GTS_GAMES_0.N in
    examples/games/libgts-games.map, GTS_MPI_0.N in mpi/libgts-mpi.map),
  - any `@since 0.N` of the public headers (include/gts/*.h,
    examples/games/gts_games.h, mpi/gts_mpi.h),
so that a release cannot ship functions it says belong to a later one (0.1.0
with a GTS_0.2 node, the defect of issue 31), and `#if GTS_VERSION_MINOR >= N`
or `pkg-config --atleast-version=0.N` holds wherever a 0.N feature exists.
"""
import glob
import os
import re
import sys


def main():
    version, root = sys.argv[1], sys.argv[2]
    problems = []
    m = re.fullmatch(r'(\d+)\.(\d+)\.(\d+)', version)
    if not m:
        print(f'FAIL: project version {version!r} is not MAJOR.MINOR.PATCH')
        return 1
    major, minor = int(m.group(1)), int(m.group(2))

    def read(rel):
        with open(os.path.join(root, rel), encoding='utf-8') as f:
            return f.read()

    toml = re.search(r'^version\s*=\s*"([^"]+)"', read('bindings/python/pyproject.toml'), re.M)
    init = re.search(r'^__version__\s*=\s*"([^"]+)"', read('bindings/python/gts/__init__.py'),
                     re.M)
    for what, found in (('bindings/python/pyproject.toml version', toml),
                        ('bindings/python/gts/__init__.py __version__', init)):
        if not found or found.group(1) != version:
            problems.append(f'{what} is {found.group(1) if found else None!r}, the project '
                            f'{version!r}')

    def newer(mj, mn):
        return (mj, mn) > (major, minor)

    for rel, prefix in (('lib/libgts.map', 'GTS_'), ('examples/games/libgts-games.map',
                                                     'GTS_GAMES_'),
                        ('mpi/libgts-mpi.map', 'GTS_MPI_')):
        for mj, mn in re.findall(r'^' + prefix + r'(\d+)\.(\d+)\s*\{', read(rel), re.M):
            if newer(int(mj), int(mn)):
                problems.append(f'{rel}: node {prefix}{mj}.{mn} is newer than the project '
                                f'version {version}')
    headers = sorted(glob.glob(os.path.join(root, 'include', 'gts', '*.h')))
    headers += [os.path.join(root, 'examples', 'games', 'gts_games.h'),
                os.path.join(root, 'mpi', 'gts_mpi.h')]
    for h in headers:
        with open(h, encoding='utf-8') as f:
            text = f.read()
        seen = {(int(a), int(b)) for a, b in re.findall(r'@since\s+(\d+)\.(\d+)', text)}
        for mj, mn in sorted(seen):
            if newer(mj, mn):
                problems.append(f'{os.path.relpath(h, root)}: @since {mj}.{mn} is newer than '
                                f'the project version {version}')
    for p in problems:
        print('FAIL: ' + p)
    if not problems:
        print(f'version {version}: Python package, map nodes and @since agree')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
