#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Median span durations (ms) per stage and lane of scenario (a) with 8 workers, pageable and
# pinned, on the real GPU and on the emulated device with PROFILE: where the model and the GPU
# part ways, stage by stage (docs/benchmarks.md).
#
#   tests/benchmarks/stage_medians.sh PINSCOPE_CLI PROFILE
set -euo pipefail
cli=$1 profile=$2
for device in cuda "emulated:$profile"; do
  for pin in off on; do
    dir=$(mktemp -d)
    "$cli" run --device "$device" --workers 8 --pin-memory "$pin" --cpu-us 0 --gpu-us 2000 --seconds 4 --csv "$dir" >/dev/null
    python3 - "$dir/spans.csv" "${device%%:*}, 8 workers, pin_memory $pin" <<'PY'
import collections, csv, statistics, sys
spans = collections.defaultdict(list)
for row in csv.DictReader(open(sys.argv[1])):
    spans[(row["stage"], row["lane"])].append(float(row["duration_us"]))
medians = {f"{stage}@{lane}": round(statistics.median(d) / 1000, 2)
           for (stage, lane), d in spans.items() if len(d) > 20 and stage not in ("wait", "compute", "sync")}
print(sys.argv[2], medians)
PY
    rm -rf "$dir"
  done
done
