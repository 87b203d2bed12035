#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds pinscope's engine, CLI and GPU tests on the GPU machine, which has CUDA's compiler, CMake,
# g++ and hwloc's runtime but none of the Debian -dev packages the build finds (no network there).
#
#   tests/gpu/gpu-machine.sh pack             here: copies what the build needs into .device/prefix
#                                             (git-ignored; carry `.device` with the run)
#   tests/gpu/gpu-machine.sh build [TARGET]   there: configures the engine-only preset with CUDA
#                                             against .device/prefix and builds (default: pinscope-cli
#                                             and pinscope_gpu_tests) into build/gpu-machine
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/../.."
prefix=$PWD/.device/prefix
arch=x86_64-linux-gnu

pack() {
    rm -rf "$prefix"
    mkdir -p "$prefix/include" "$prefix/lib/$arch/cmake" "$prefix/lib/$arch/pkgconfig" "$prefix/share/cmake"
    # Header-only libraries and their CMake packages.
    cp -r /usr/include/nlohmann /usr/include/CLI "$prefix/include/"
    cp -r /usr/share/cmake/nlohmann_json /usr/share/cmake/CLI11 "$prefix/share/cmake/"
    # GoogleTest and GoogleMock, static, with their CMake package.
    cp -r /usr/include/gtest /usr/include/gmock "$prefix/include/"
    cp /usr/lib/$arch/libgtest*.a /usr/lib/$arch/libgmock*.a "$prefix/lib/$arch/"
    cp -r /usr/lib/$arch/cmake/GTest "$prefix/lib/$arch/cmake/"
    # SQLite (recordings), static: the GPU machine has no headers for its own.
    cp /usr/include/sqlite3.h /usr/include/sqlite3ext.h "$prefix/include/"
    cp /usr/lib/$arch/libsqlite3.a "$prefix/lib/$arch/"
    # hwloc's headers and pkg-config file; the library itself is the GPU machine's.
    cp -r /usr/include/hwloc /usr/include/hwloc.h "$prefix/include/"
    sed "s|^prefix=.*|prefix=\${pcfiledir}/../../..|" /usr/lib/$arch/pkgconfig/hwloc.pc > "$prefix/lib/$arch/pkgconfig/hwloc.pc"
    du -sh "$prefix"
}

build() {
    [ -d "$prefix" ] || { echo "gpu-machine: $prefix is missing: run 'pack' here and carry .device" >&2; exit 2; }
    # Linked against the GPU machine's own libhwloc (same soname as Debian 12's).
    ln -sf "$(ls /usr/lib/$arch/libhwloc.so.15* | head -1)" "$prefix/lib/$arch/libhwloc.so"
    export PKG_CONFIG_PATH="$prefix/lib/$arch/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    cmake -S . -B build/gpu-machine -G Ninja -DCMAKE_BUILD_TYPE=Release -DPINSCOPE_GUI=OFF -DPINSCOPE_WERROR=OFF \
          -DPINSCOPE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90-real -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
    cmake --build build/gpu-machine -j "$(nproc)" --target "$@"
}

case "${1:-}" in
    pack) pack ;;
    build) shift; if [ $# -eq 0 ]; then build pinscope-cli pinscope_gpu_tests; else build "$@"; fi ;;
    *) sed -n 2,9p "$0"; exit 2 ;;
esac
