#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What to try, checked on the GPU: runs the default configuration (or FLAGS...) on the real GPU,
# takes the top suggestions its `try` lines gave (each predicted by a short run on the emulated
# device with the profile of this GPU), runs each change on the GPU, and prints predicted against
# measured batches/s, for docs/benchmarks.md.
#
#   tests/gpu/predicted_vs_measured.sh PINSCOPE_CLI [OUTDIR] [FLAGS...]
#     OUTDIR   where the summaries, configurations and CSVs go (default predicted-vs-measured)
#     FLAGS    configuration flags for the first run (default: none, the default configuration)
#   environment: TOP (suggestions to check, default 3), SECONDS_PER_RUN (default 6), WARMUP (1),
#                DEVICE (default cuda; emulated to try the script without a GPU)
#
# Measured as the prediction is: steady state, the first WARMUP seconds of each run left out
# (`sweep --warmup`); the prediction is the last second of a 2 s emulated run. Needs python3 (JSON).
set -euo pipefail
cli=${1:?usage: $0 PINSCOPE_CLI [OUTDIR] [FLAGS...]}
out=${2:-predicted-vs-measured}
shift $(($# >= 2 ? 2 : 1))
top=${TOP:-3} seconds=${SECONDS_PER_RUN:-6} warmup=${WARMUP:-1} device=${DEVICE:-cuda}
command -v python3 >/dev/null || { echo "predicted_vs_measured: needs python3 to read summary.json" >&2; exit 2; }
mkdir -p "$out"

echo "== the configuration as given, on $device, with its suggestions"
"$cli" run --device "$device" --seconds "$seconds" --summary "$out/as-run.json" "$@" | tee "$out/as-run.txt"

# One configuration file per suggestion (the run's configuration with the change), and a list:
# name, change, predicted, baseline predicted.
python3 - "$out" "$top" <<'EOF'
import json, sys
out, top = sys.argv[1], int(sys.argv[2])
summary = json.load(open(f"{out}/as-run.json"))
config = summary["config"]
json.dump(config, open(f"{out}/config-0.json", "w"), indent=1)
advice = summary.get("advice", [])[:top]
with open(f"{out}/suggestions.tsv", "w") as f:
    base = advice[0]["baseline_predicted_batches_per_s"] if advice else float("nan")
    f.write(f"config-0\tas run\t{base}\n")
    for i, a in enumerate(advice, 1):
        changed = dict(config)
        changed[a["key"]] = a["value"]
        json.dump(changed, open(f"{out}/config-{i}.json", "w"), indent=1)
        f.write(f"config-{i}\t{a['key']} {json.dumps(a['value'])}\t{a['predicted_batches_per_s']}\n")
if not advice:
    print("no suggestions: nothing predicted to gain 5 % or more (see the try lines above)")
EOF

while IFS=$'\t' read -r name change predicted; do
  echo "== $change on $device ($seconds s, first $warmup s left out)"
  "$cli" sweep --config "$out/$name.json" --device "$device" --seconds "$seconds" --warmup "$warmup" \
    --csv "$out/$name.csv" >/dev/null
done <"$out/suggestions.tsv"

python3 - "$out" <<'EOF'
import csv, sys
out = sys.argv[1]
print()
print("| change | predicted batches/s | measured batches/s | measured / predicted |")
print("| --- | ---: | ---: | ---: |")
for line in open(f"{out}/suggestions.tsv"):
    name, change, predicted = line.rstrip("\n").split("\t")
    rows = list(csv.DictReader(open(f"{out}/{name}.csv")))
    measured = float(rows[0]["batches_per_s"])
    predicted = float(predicted)
    ratio = f"{measured / predicted:.2f}" if predicted == predicted and predicted > 0 else "-"
    print(f"| {change} | {predicted:.0f} | {measured:.1f} | {ratio} |")
EOF
