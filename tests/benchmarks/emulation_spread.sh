#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# How far the emulated device's figures (modelled host) move from run to run, with this machine
# as it is and with every core kept busy by spinning shells started here (docs/benchmarks.md,
# "Reproducible emulation"). Prints one row per configuration and load: the runs' batches/s,
# lowest, median, highest and spread ((highest - lowest) / median).
# Usage: emulation_spread.sh PINSCOPE_CLI [RUNS=5] [SECONDS=2] [PROFILE]
# PROFILE: a profile file or name for the emulated device (default: the shipped default).
set -euo pipefail
cli=${1:?usage: emulation_spread.sh PINSCOPE_CLI [RUNS] [SECONDS] [PROFILE]}
runs=${2:-5}
seconds=${3:-2}
device=emulated${4:+:$4}
out=$(mktemp -d)
hogs=()
stop_hogs() {
    for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${hogs[@]}"; do wait "$pid" 2>/dev/null || true; done
    hogs=()
}
trap 'stop_hogs; rm -rf "$out"' EXIT

configs=(
    "transfer-bound|--workers 4 --pin-memory on --cpu-us 0 --gpu-us 2000"
    "loader-bound|--workers 0 --pin-memory on --cpu-us 300 --gpu-us 10000"
    "pageable-w6|--workers 6 --pin-memory off --cpu-us 50 --gpu-us 3000 --dtype u8 --batch-size 256"
    "register-w4|--workers 4 --pin-memory on --pin-mode register --cpu-us 0 --gpu-us 2000"
    "worker-w6|--workers 6 --pin-memory on --pin-mode worker --cpu-us 0 --gpu-us 0 --batch-size 64"
)

measure() {  # load label
    local load=$1
    for entry in "${configs[@]}"; do
        local name=${entry%%|*} flags=${entry#*|} rates=()
        for ((k = 0; k < runs; ++k)); do
            # shellcheck disable=SC2086
            "$cli" run --device "$device" --seconds "$seconds" --no-advice --summary "$out/s.json" $flags >/dev/null
            rates+=("$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["batches_per_s"])' "$out/s.json")")
        done
        python3 - "$name" "$load" "${rates[@]}" <<'PY'
import statistics, sys
name, load, rates = sys.argv[1], sys.argv[2], [float(r) for r in sys.argv[3:]]
med = statistics.median(rates)
spread = (max(rates) - min(rates)) / med * 100 if med > 0 else 0
print(f"| {name} | {load} | {' '.join(f'{r:.1f}' for r in rates)} | {min(rates):.1f} | {med:.1f} | {max(rates):.1f} | {spread:.1f} % |")
PY
    done
}

echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg); device: $device"
echo "| configuration | load | batches/s per run | lowest | median | highest | spread |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: |"
measure "as it is"
for ((c = 0; c < $(nproc); ++c)); do
    (while :; do :; done) &
    hogs+=($!)
done
measure "all cores spinning"
stop_hogs
