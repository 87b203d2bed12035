#!/usr/bin/env bash
# The lead of the twenty-ninth round, ready to run on a GPU VM: in pin_mode alloc the model takes the
# pin thread's free of a worker's batch from calibrate's pool run (two workers) and its copy into the
# new block from the idle pin copy, and both came out short in the alloc cells of BJ and BM. Does the
# pin thread free and copy slower in alloc mode than in pool mode, and with more workers or a kernel?
# Calibrate's alloc run (4 workers, 4 samples, no kernel) and seed 59's cell 10 (526 x 2134 f64,
# 9.0 MB, 8 workers, 179 us kernel), each at 128 MiB too, alloc against pool, three rounds interleaved.
# Usage: pin-thread-in-alloc-2026-12-04.sh CLI OUT_DIR [DEVICE]   (DEVICE: cuda, or emulated:... to try it)
set -euo pipefail
cli=$1 out=$2 device=${3:-cuda}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# batch size, sample shape, dtype, workers, prefetch, kernel us, name
runs=("4 8192x4096 u8 4 2 0 alloc_run" "4 8192x4096 u8 8 4 179 w8_kernel" "526 2134 f64 4 4 0 cell10_w4" "526 2134 f64 8 4 179 cell10")
for round in 1 2 3; do
  for run in "${runs[@]}"; do
    read -r batch sample dtype workers prefetch kernel name <<<"$run"
    for mode in alloc pool; do
      dir="$out/b$batch-${name}_$mode-r$round"
      "$cli" run --device "$device" --batch-size "$batch" --sample-shape "$sample" --dtype "$dtype" \
        --workers "$workers" --prefetch "$prefetch" --pin-memory on --pin-mode "$mode" --non-blocking off \
        --gpu-us "$kernel" --seconds 2 --csv "$dir" --no-advice >"$dir.txt" 2>&1
    done
  done
done
python3 "$here/collate-beside-copy-2026-12-03.py" "$out"
