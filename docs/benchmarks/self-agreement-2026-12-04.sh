#!/usr/bin/env bash
# How often the GPU's own runs of a cell agree within 10 %, over every validate report in this folder
# that ran each cell more than once (--repeat) on the GPU, by GPU: each report's "cuda against itself"
# line, summed (replays, --against, say "recorded" there and are left out: their cells were counted live).
# Usage: self-agreement-2026-12-04.sh (run in docs/benchmarks)
set -euo pipefail
for gpu in h100 h200; do
  runs=0 agreeing=0 cells=0
  for report in validate-$gpu*.txt; do
    line=$(grep -m1 -o '^cuda against itself.*within 10 %: [0-9]* of [0-9]*' "$report" || true)
    [ -n "$line" ] || continue
    read -r a _ b <<<"$(grep -o '[0-9]* of [0-9]*$' <<<"$line")"
    runs=$((runs + 1)) agreeing=$((agreeing + a)) cells=$((cells + b))
  done
  echo "$gpu: $runs reports, the GPU's runs of a cell within 10 % of each other in $agreeing of $cells cells ($(awk -v a=$agreeing -v c=$cells 'BEGIN { printf "%.1f", 100 * a / c }') %)"
done
