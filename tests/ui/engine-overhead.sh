#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Engine throughput with the pinscope window open against the headless CLI, same configuration:
# alternating runs, batches/s from each run's summary.json. Not a CTest test (it takes minutes and
# wants a quiet machine); the figure is quoted in the README.
#   tests/ui/engine-overhead.sh BUILD_DIR [PAIRS] [SECONDS] [extra pinscope-cli flags...]
set -euo pipefail
build=${1:?usage: engine-overhead.sh BUILD_DIR [PAIRS] [SECONDS] [cli flags...]}
pairs=${2:-3}
seconds=${3:-10}
shift $(( $# < 3 ? $# : 3 ))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cli=$build/app/cli/pinscope-cli
gui=$build/app/desktop/pinscope
# The configuration both run: the CLI's flags turned into the JSON both read.
"$cli" run --seconds "$seconds" "$@" --summary "$work/probe.json" >/dev/null
python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['config']; json.dump(c, open(sys.argv[2],'w'))" \
    "$work/probe.json" "$work/config.json"
rate() { python3 -c "import json,sys; print('%.1f' % json.load(open(sys.argv[1]))['batches_per_s'])" "$1"; }
cli_rates=() gui_rates=()
for i in $(seq "$pairs"); do
    "$cli" run --config "$work/config.json" --summary "$work/cli$i.json" >/dev/null
    cli_rates+=("$(rate "$work/cli$i.json")")
    xvfb-run -a -s "-screen 0 1920x1080x24" "$gui" --config "$work/config.json" --size 1920x1080 \
        --screenshot "$work/gui$i.png" --after "$(python3 -c "print($seconds + 0.5)")" --csv "$work/gui$i" 2>/dev/null
    gui_rates+=("$(rate "$work/gui$i/summary.json")")
    echo "pair $i: cli ${cli_rates[-1]} batches/s, window open (Xvfb) ${gui_rates[-1]} batches/s"
done
python3 - "${cli_rates[*]}" "${gui_rates[*]}" <<'PY'
import sys, statistics as st
cli = [float(x) for x in sys.argv[1].split()]
gui = [float(x) for x in sys.argv[2].split()]
c, g = st.mean(cli), st.mean(gui)
print(f"mean: cli {c:.1f}, window open {g:.1f} batches/s: window/cli = {g / c * 100:.1f} %")
PY
