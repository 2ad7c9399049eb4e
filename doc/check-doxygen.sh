#!/bin/sh
# Render the API reference into a temporary directory and fail on any
# Doxygen warning (an undocumented public symbol, a missing @param...).
# Usage: check-doxygen.sh DOXYGEN DOXYFILE   (run by meson test --suite docs)
set -eu
doxygen=$1
doxyfile=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
{
    cat "$doxyfile"
    echo "OUTPUT_DIRECTORY = \"$tmp/out\""
    echo "WARN_LOGFILE = \"$tmp/warnings.log\""
} > "$tmp/Doxyfile"
rc=0
"$doxygen" "$tmp/Doxyfile" || rc=$?
if [ -s "$tmp/warnings.log" ]; then
    cat "$tmp/warnings.log" >&2
    echo "check-doxygen: warnings above" >&2
    exit 1
fi
if [ "$rc" -ne 0 ]; then
    echo "check-doxygen: doxygen exited with $rc" >&2
    exit 1
fi
echo "check-doxygen: no warnings"
