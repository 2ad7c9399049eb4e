# Shared by scripts/abi-check and scripts/abi-update (sourced, not run).
# Builds libgts with debug info in ./build-abi and dumps its public ABI with
# abidw, the same way for the committed baseline and for the check, so the
# two dumps differ only where the ABI does.

abi_build_dir=build-abi
abi_baseline=abi/libgts.abi
abi_suppressions=abi/libgts.suppr
abi_private=abi/private.suppr

# Install abigail-tools (abidw, abidiff) with apt-get if missing.
abi_ensure_tools() {
    if command -v abidw >/dev/null 2>&1 && command -v abidiff >/dev/null 2>&1; then
        return
    fi
    echo "abi: installing abigail-tools" >&2
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq abigail-tools >/dev/null
}

# Build only the library, -O0 -g; paths in the debug info are relative to
# the source tree (-fdebug-prefix-map), so no machine path reaches a dump.
abi_build() {
    local opts=(--buildtype=debug -Dtests=disabled -Dexamples=false
                -Dtools=false -Dpython=false -Dtsan=false
                "-Dc_args=-fdebug-prefix-map=$PWD=.")
    if [ -f "$abi_build_dir/build.ninja" ]; then
        meson configure "$abi_build_dir" "${opts[@]}" >/dev/null
    else
        meson setup "$abi_build_dir" "${opts[@]}" >/dev/null
    fi
    meson compile -C "$abi_build_dir" lib/gts:shared_library >/dev/null
}

# Write the ABI of the built libgts.so to $1: only what the public headers
# (include/gts and the generated version.h) declare, without the symbols
# abi/private.suppr names (node GTS_PRIVATE, the experimental API); no
# paths, locations or build directory, so the same source gives the same
# bytes on any machine.
abi_dump() {
    abidw --headers-dir include/gts \
          --headers-dir "$abi_build_dir/include/gts" \
          --drop-private-types \
          --suppressions "$abi_private" \
          --no-corpus-path --no-comp-dir-path --no-show-locs \
          --out-file "$1" "$abi_build_dir/lib/libgts.so"
}
