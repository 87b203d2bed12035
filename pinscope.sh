#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The two commands of the README, for a fresh Debian 12 machine:
#   ./pinscope.sh run    install what is missing, build, and open the pinscope window (without a
#                        display: run the default scenario offscreen, save a screenshot and the CSV)
#   ./pinscope.sh test   install what is missing, build with ASan + UBSan, and run every test
# Also: ./pinscope.sh deps (install only), ./pinscope.sh build PRESET (dev, release, asan, tsan),
#       ./pinscope.sh package (build/package/pinscope_VERSION_ARCH.deb; docs/packaging.md).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"

# Exactly what the build and the tests need, nothing optional (a fresh machine has no more than this;
# hwloc's plugins, for one, are left out, and the tests pass with or without them).
packages=(build-essential cmake ninja-build pkg-config          # the build
          libhwloc-dev nlohmann-json3-dev libcli11-dev          # the engine and pinscope-cli
          libsqlite3-dev                                        # recorded runs (--record, runs, show, export)
          libgtest-dev libgmock-dev                             # the engine and CLI tests
          qt6-base-dev qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6  # the desktop app
          xvfb xauth                                            # its test under a real X server (xvfb-run)
          desktop-file-utils appstream)                         # tests that the desktop entry and metainfo validate

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

deps() {
    local missing=()
    for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "pinscope: installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {  # build PRESET [TARGET...]
    local preset=$1
    shift
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" -j "$(nproc)" ${1:+--target "$@"}
}

case "${1:-}" in
    deps) deps ;;
    build) deps; build "${2:-dev}" ;;
    run)
        deps
        build release pinscope
        shift
        if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
            exec build/release/app/desktop/pinscope "$@"
        fi
        out="out/run-$(date +%Y%m%d-%H%M%S)"
        echo "pinscope: no display (\$DISPLAY and \$WAYLAND_DISPLAY are empty), so no window: running the default scenario offscreen for 5 s instead"
        QT_QPA_PLATFORM=offscreen build/release/app/desktop/pinscope --screenshot "$out/pinscope.png" --after 5 --csv "$out" "$@"
        echo "pinscope: screenshot $out/pinscope.png; spans.csv, counters.csv and summary.json in $out/"
        ;;
    test)
        deps
        build asan
        ctest --preset asan -j "$(nproc)"
        ;;
    package)
        deps
        build package
        (cd build/package && cpack -G DEB)
        ;;
    *) sed -n 2,8p "$0"; exit 2 ;;
esac
