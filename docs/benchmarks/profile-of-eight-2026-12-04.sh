#!/usr/bin/env bash
# Would a profile made of more VMs hold better on a VM not in it? The rule, fixed before any replay:
# the median of every H200 calibration made by this pinscope's calibrate (2026-12-02 on; one per VM,
# its first): BC, BD, BG, BH, BJ, BL, BM, BO. It is replayed (validate --against) on the recorded runs
# of the VMs in neither it nor the profile shipped until then (h200-pcie5-calibrated of AB, AD, AF and
# AS), at today's model; and each of the eight's VMs with runs gets a profile of the other seven,
# replayed on its own runs. The old profile's figures on the same runs are its trust entries (replays
# at today's model: a replay of the first run here gave its entry's 36 of 40 within 15 % again); the
# summary (profile-of-eight-2026-12-04.py) reads them from the profile at
# docs/benchmarks/h200-pcie5-calibrated-until-2026-12-04.json.
# Usage: profile-of-eight-2026-12-04.sh CLI OUT_DIR   (run in docs/benchmarks; about 30 minutes on 2 cores)
set -euo pipefail
cli=$1 out=$2
mkdir -p "$out"
declare -A calibration=(
  [bc]=validate-h200-calibrated-2026-12-02-bc.json [bd]=validate-h200-calibrated-2026-12-02-bd.json
  [bg]=validate-h200-calibrated-2026-12-03-bg.json [bh]=validate-h200-calibrated-2026-12-03-bh.json
  [bj]=validate-h200-calibrated-2026-12-03-bj.json [bl]=calibrate-h200-2026-12-04-bl.json
  [bm]=validate-h200-calibrated-2026-12-04-bm.json [bo]=validate-h200-calibrated-2026-12-04-bo.json)
"$cli" combine-profiles "${calibration[@]}" --name h200-eight --out "$out/eight.json" >/dev/null
for vm in "${!calibration[@]}"; do
  others=()
  for other in "${!calibration[@]}"; do [[ $other == "$vm" ]] || others+=("${calibration[$other]}"); done
  "$cli" combine-profiles "${others[@]}" --name "h200-without-$vm" --out "$out/without-$vm.json" >/dev/null
done
held_out=(validate-h200-2026-11-26-seed2-again validate-h200-2026-11-26-seed2-calibrated validate-h200-2026-11-26-seed3
  validate-h200-2026-11-26-seed4-calibrated validate-h200-2026-11-26-seed5 validate-h200-2026-11-27-seed16-ac
  validate-h200-2026-11-27-shipped-seed30-aj-alternating validate-h200-2026-11-28-shipped-seed44-at
  validate-h200-2026-11-28-shipped-seed45-au validate-h200-2026-11-28-shipped-seed46-av
  validate-h200-2026-11-28-shipped-seed47-aw validate-h200-2026-11-28-shipped-seed49-ax
  validate-h200-2026-11-29-shipped-seed50-ay validate-h200-2026-12-02-seed52-ba validate-h200-2026-12-02-seed53-ba
  validate-h200-2026-12-02-seed57-be validate-h200-2026-12-02-seed59-be)
jobs=()
# seconds per cell as each run ran them: 3 until BA's runs, 2 from BC's on
for run in "${held_out[@]}"; do
  seconds=3
  [[ $run == *-be ]] && seconds=2
  jobs+=("$run $out/eight.json eight $seconds")
done
for run in validate-h200-2026-12-04-seed59-bo.csv validate-h200-2026-12-04-seed59-bo-cal2.csv \
  validate-h200-2026-12-04-seed59-bm.csv validate-h200-2026-12-03-seed59-bj.csv validate-h200-2026-12-02-seed54-bc.csv \
  validate-h200-2026-12-03-seed*-b[gh].csv; do
  run=${run%.csv} vm=${run##*-}
  [[ $vm == cal2 ]] && vm=bo
  [[ -n ${calibration[$vm]:-} ]] && jobs+=("$run $out/without-$vm.json without-$vm 2")
done
printf '%s\n' "${jobs[@]}" | xargs -P 2 -L 1 bash -c '
  "'"$cli"'" validate --against "$0.csv" --profile "$1" --seconds "$3" >"'"$out"'/$(basename "$0")-$2.txt" 2>&1'
python3 "$(dirname "$0")/profile-of-eight-2026-12-04.py" "$out"
