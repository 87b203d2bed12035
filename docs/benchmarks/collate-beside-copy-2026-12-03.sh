#!/usr/bin/env bash
# The lead of the twenty-eighth round, ready to run on a GPU VM: does a worker collate a large batch
# slower when the consumer's pageable copy reads the batches beside it than in calibrate's pool run?
# Two workers; calibrate's pool-run batch (4 x 32 MiB samples, 128 MiB) and validate's cell 37 of
# seed 59 (732 x 183872 u8, 134.6 MB); each pin mode and pageable; three rounds, interleaved.
# Usage: collate-beside-copy-2026-12-03.sh CLI OUT_DIR [DEVICE]   (DEVICE: cuda, or emulated:... to try it)
set -euo pipefail
cli=$1 out=$2 device=${3:-cuda}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
shapes=("4 8192x4096 2" "732 183872 4")  # batch size, sample shape, prefetch
for round in 1 2 3; do
  for shape in "${shapes[@]}"; do
    read -r batch sample prefetch <<<"$shape"
    for mode in pageable pool alloc register; do
      pin=(--pin-memory on --pin-mode "$mode"); [ "$mode" = pageable ] && pin=(--pin-memory off)
      dir="$out/b$batch-$mode-r$round"
      "$cli" run --device "$device" --batch-size "$batch" --sample-shape "$sample" --dtype u8 --workers 2 \
        --prefetch "$prefetch" "${pin[@]}" --non-blocking off --gpu-us 0 --seconds 3 --csv "$dir" --no-advice >"$dir.txt" 2>&1
    done
  done
done
python3 "$here/collate-beside-copy-2026-12-03.py" "$out"
