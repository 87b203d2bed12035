#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The pipeline grid of docs/benchmarks.md, run on the GPU machine: pinscope on the real GPU,
# PyTorch's DataLoader on the same scenarios, the emulated device's prediction, and tracing on
# against off. Writes one CSV per part into OUTDIR and prints the tables.
#
#   tests/benchmarks/gpu_grid.sh PINSCOPE_CLI OUTDIR PARTS [PROFILE]
#   PARTS: a comma list of real, torch, emulated, tracing
set -euo pipefail
cli=$1 out=$2 parts=$3 profile=${4:-h200-pcie5}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
scenarios=("a 0 2000" "b 50 10000" "c 300 10000")
run_seconds=5 warmup=1
has() { [[ ",$parts," == *",$1,"* ]]; }

for scenario in "${scenarios[@]}"; do
  read -r name cpu gpu <<<"$scenario"
  common=(--workers 0,4,8 --pin-memory off,on --cpu-us "$cpu" --gpu-us "$gpu" --seconds "$run_seconds" --warmup "$warmup")
  if has real; then
    echo "== pinscope, real GPU, scenario $name (cpu $cpu us/sample, gpu $gpu us)"
    "$cli" sweep --device cuda "${common[@]}" --csv "$out/real_$name.csv" 2>/dev/null
    "$cli" sweep --device cuda --workers 4,8,12 --pin-memory on --pin-mode worker --cpu-us "$cpu" --gpu-us "$gpu" \
      --seconds "$run_seconds" --warmup "$warmup" --csv "$out/real_worker_$name.csv" 2>/dev/null
  fi
  if has emulated; then
    echo "== pinscope, emulated $profile, scenario $name"
    "$cli" sweep --device "emulated:$profile" "${common[@]}" --csv "$out/emulated_$name.csv" 2>/dev/null
    "$cli" sweep --device "emulated:$profile" --workers 4,8,12 --pin-memory on --pin-mode worker --cpu-us "$cpu" \
      --gpu-us "$gpu" --seconds "$run_seconds" --warmup "$warmup" --csv "$out/emulated_worker_$name.csv" 2>/dev/null
  fi
  if has torch; then
    echo "== torch.utils.data.DataLoader, scenario $name"
    python3 "$here/torch_loader.py" --cpu-us "$cpu" --gpu-us "$gpu" --seconds "$run_seconds" --warmup "$warmup" \
      --csv "$out/torch_$name.csv"
    if [ "$name" = a ]; then
      python3 "$here/torch_loader.py" --cpu-us "$cpu" --gpu-us "$gpu" --seconds "$run_seconds" --warmup "$warmup" \
        --copy-stream --csv "$out/torch_copystream_$name.csv"
    fi
  fi
done

if has tracing; then
  # Alternating on and off, three times each, on the transfer-bound scenario's best configuration.
  echo "== tracing on against off (scenario a, workers 8, pin_mode worker)"
  for round in 1 2 3; do
    for spans in on off; do
      "$cli" sweep --device cuda --workers 8 --pin-memory on --pin-mode worker --cpu-us 0 --gpu-us 2000 \
        --seconds "$run_seconds" --warmup "$warmup" --trace-spans "$spans" --csv "$out/tracing_${spans}_$round.csv" \
        2>/dev/null | awk -v s="$spans" -v r="$round" 'NR==2 {print "tracing " s " round " r ": " $5 " batches/s"}'
    done
  done
fi
