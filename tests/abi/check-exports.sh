#!/bin/sh
# ABI guard: the dynamic symbols libgts.so defines are exactly the map file's.
# Usage: check-exports.sh LIBGTS_SO LIBGTS_MAP
set -eu
lib=$1
map=$2
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sed 's/@.*//' | sort -u)
listed=$(sed -n 's/^[[:space:]]*\(gts_[a-z0-9_]*\);.*/\1/p' "$map" | sort -u)
if [ "$exported" != "$listed" ]; then
    echo "exported symbols differ from $map:"
    echo "$exported" > /tmp/gts-exported.$$
    echo "$listed" > /tmp/gts-listed.$$
    diff /tmp/gts-listed.$$ /tmp/gts-exported.$$ || true
    rm -f /tmp/gts-exported.$$ /tmp/gts-listed.$$
    exit 1
fi
echo "$(echo "$exported" | wc -l) exported symbols match the map file"
