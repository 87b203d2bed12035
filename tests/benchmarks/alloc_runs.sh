#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A batch's cudaHostAlloc (pin_mode alloc) over 6 s runs on the GPU, each in a process of its own:
# calibrate's two 128 MiB pipelines (no workers, four) and two of validate's cells (AK's seed 31,
# cells 23 and 38). For each run, the calls' median over each third of the run and over all of it,
# and the first 45 calls in order, in ms: whether a run settles, and how far what the pipeline pays
# lies from calibrate's figure at the size (docs/benchmarks.md, fourteenth round).
#
#   tests/benchmarks/alloc_runs.sh PINSCOPE_CLI [DEVICE=cuda]
# DEVICE: another device to run them on, such as emulated:PROFILE (to see the model's spans).
set -euo pipefail
cli=${1:?usage: alloc_runs.sh PINSCOPE_CLI [DEVICE]}
device=${2:-cuda}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

runs=(
    "128 MiB, no workers|--workers 0 --batch-size 4 --sample-shape 8192x4096 --dtype u8 --cpu-us 0 --gpu-us 0"
    "128 MiB, four workers|--workers 4 --prefetch 2 --batch-size 4 --sample-shape 8192x4096 --dtype u8 --cpu-us 0 --gpu-us 0"
    "cell 23: 97.1 MB, seven workers|--workers 7 --prefetch 1 --batch-size 21 --sample-shape 5x924657 --dtype u8 --cpu-us 13 --gpu-us 303 --non-blocking on"
    "cell 38: 110.1 MB, five workers|--workers 5 --prefetch 2 --batch-size 52 --sample-shape 3x706005 --dtype u8 --cpu-us 16 --gpu-us 14335 --non-blocking on"
)

for entry in "${runs[@]}"; do
    name=${entry%%|*}
    read -r -a flags <<<"${entry#*|}"
    dir="$out/run"
    rm -rf "$dir"
    echo "== $(date -u +%T) $name"
    "$cli" run --device "$device" --host real --no-advice --seconds 6 --pin-memory on --pin-mode alloc "${flags[@]}" \
        --csv "$dir" >/dev/null
    python3 - "$dir/spans.csv" <<'PY'
import csv, statistics, sys
calls = sorted((float(r["start_us"]), float(r["duration_us"]))
               for r in csv.DictReader(open(sys.argv[1])) if r["stage"] == "alloc")
if not calls:
    sys.exit("no cudaHostAlloc in the run")
last = calls[-1][0]
thirds = [[], [], []]
for start, duration in calls:
    thirds[min(2, int(3 * start / last)) if last > 0 else 0].append(duration)
ms = lambda values: f"{statistics.median(values) / 1000:.1f}" if values else "-"
durations = [d for _, d in calls]
print(f"   {len(calls)} calls; median by third {' / '.join(ms(t) for t in thirds)} ms, all {ms(durations)} "
      f"(from {min(durations) / 1000:.1f} to {max(durations) / 1000:.1f})")
print("   first calls, ms:", " ".join(str(round(d / 1000)) for d in durations[:45]))
PY
done
