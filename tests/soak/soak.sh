#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Soak test (not in CI): does memory stay flat over a long run with every export on?
#
#   tests/soak/soak.sh [--seconds N] [--every S] [--fill S] [--out DIR] [--build DIR] [--keep]
#                      [cli|window|both] [-- RUN FLAGS]
#
# cli:    pinscope-cli run for N seconds with --csv, --trace and --summary (and RUN FLAGS: say
#         `-- --batch-size 1 --sample-shape 4 --cpu-us 0 --gpu-us 0` for the most spans a second);
# window: the desktop app under Xvfb with its default run for N seconds (--screenshot --after N,
#         which also writes --csv and --trace from the window's stores at the end).
# Every S seconds it writes VmRSS and VmLck (pinned bytes) of the process from /proc/PID/status
# into DIR/<which>.csv, and at the end prints the plateau (the median once the bounded stores are
# full, from --fill seconds to the end of the run; writing the exports after it is left out) and
# the largest deviation from it, in percent.
# Defaults: one hour (3600 s), a sample every 10 s, stores taken as full after 2100 s (the window
# fills its SpanStore, counter store and plots within about 35 minutes of its default run).
# The exports of a fast run are large (spans.csv and the trace grow by their row size for every
# span): DIR needs the disk for them; they are removed at the end unless --keep is given.
#
# Bounded stores (their sizes are in the code; when each fills depends on the run's span rate):
#  engine  Trace span ring: Trace::kDefaultSpanCapacity (2^18 spans), counter ring
#          kDefaultCounterCapacity (2^16 samples): full after that many spans/samples; the
#          observer drains them every 10 ms.
#          TimeOrderBuffer (each streamed export): the spans of the last max(1 s, 2 x the longest
#          span) of the run, at most 2^17 items; full after the first second or so.
#          MetricsTracker: the sliding window (--window, 1 s) of spans.
#  window  SpanStore: SpanStore::kDefaultCapacity (2,000,000 spans), full after 2M spans.
#          LaneSummary (timeline folding): at most LaneSummary::kMaxBins (32,768) bins a lane; bins
#          merge (their width doubles) when full, so it stops growing after the first minutes.
#          RunHistory counters (the exports): 1,000,000 samples (5 counters every 10 ms: full after 2,000 s).
#          RunHistory NUMA samples (one per frame): 1,000,000 (about 30 a second: full past the hour).
#          Plots: TimeSeriesPlot keeps kMaxPoints (200,000) points per line; a counter line gets
#          one every 10 ms: full after 2,000 s.
set -euo pipefail

seconds=3600 every=10 fill=2100 out=soak-out build=build/dev which=both keep=0 run_flags=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seconds) seconds=$2; shift 2 ;;
        --every) every=$2; shift 2 ;;
        --fill) fill=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        cli|window|both) which=$1; shift ;;
        --) shift; run_flags=("$@"); break ;;
        *) echo "soak.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"

# VmRSS and VmLck of PID in KiB, every $every s until it ends, as CSV rows with the elapsed time.
sample() {
    local pid=$1 csv=$2 start=$SECONDS
    echo "elapsed_s,rss_kib,locked_kib" > "$csv"
    while [[ -r /proc/$pid/status ]]; do
        local rss lck
        rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
        lck=$(awk '/^VmLck:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
        [[ -n $rss ]] && echo "$((SECONDS - start)),$rss,${lck:-0}" >> "$csv"
        sleep "$every"
    done
}

# The plateau (median from --fill on) and the largest deviation from it, for RSS and locked bytes.
report() {
    local name=$1 csv=$2
    awk -F, -v fill="$fill" -v until="$seconds" -v name="$name" '
        BEGIN { n = 0 }
        NR > 1 { n_all++; if ($1 >= fill && $1 < until) { rss[n] = $2; lck[n] = $3; n++ } }
        function median(a, count,   i, j, t, b) {
            for (i = 0; i < count; i++) b[i] = a[i]
            for (i = 1; i < count; i++) for (j = i; j > 0 && b[j - 1] > b[j]; j--) { t = b[j]; b[j] = b[j - 1]; b[j - 1] = t }
            return count % 2 ? b[int(count / 2)] : (b[count / 2 - 1] + b[count / 2]) / 2
        }
        function deviation(a, count, mid,   i, d, worst) {
            worst = 0
            for (i = 0; i < count; i++) { d = a[i] - mid; if (d < 0) d = -d; if (d > worst) worst = d }
            return mid > 0 ? 100 * worst / mid : 0
        }
        END {
            if (n == 0) { printf "%s: no samples from %d s to %d s (%d in all)\n", name, fill, until, n_all; exit 1 }
            r = median(rss, n); l = median(lck, n)
            printf "%s: %d samples from %d s to the end of the run: RSS plateau %.1f MiB, max deviation %.2f %%; ", name, n, fill, r / 1024, deviation(rss, n, r)
            printf "locked plateau %d KiB, max deviation %.2f %%\n", l, deviation(lck, n, l)
        }' "$csv"
}

run_cli() {
    local cli="$build/app/cli/pinscope-cli"
    "$cli" run --seconds "$seconds" "${run_flags[@]}" --csv "$out/cli-csv" --trace "$out/cli-trace.json" \
        --summary "$out/cli-summary.json" > "$out/cli.log" 2>&1 &
    local pid=$!
    sample "$pid" "$out/cli.csv"
    wait "$pid" || { echo "soak.sh: pinscope-cli failed, see $out/cli.log" >&2; return 1; }
    report cli "$out/cli.csv"
    du -sh "$out/cli-csv" "$out/cli-trace.json" | sed 's/^/cli exports: /'
    [[ $keep == 1 ]] || rm -rf "$out/cli-csv" "$out/cli-trace.json"
}

run_window() {
    local app="$build/app/desktop/pinscope" display_file="$out/xvfb-display"
    : > "$display_file"
    Xvfb -displayfd 3 -screen 0 1920x1200x24 -nolisten tcp 3> "$display_file" 2> "$out/xvfb.log" &
    local xvfb=$!
    for _ in $(seq 100); do [[ -s $display_file ]] && break; sleep 0.1; done
    [[ -s $display_file ]] || { echo "soak.sh: Xvfb did not start, see $out/xvfb.log" >&2; kill "$xvfb"; return 1; }
    DISPLAY=":$(cat "$display_file")" "$app" --screenshot "$out/window.png" --after "$seconds" \
        --csv "$out/window-csv" --trace "$out/window-trace.json" > "$out/window.log" 2>&1 &
    local pid=$!
    sample "$pid" "$out/window.csv"
    local status=0
    wait "$pid" || status=$?
    kill "$xvfb" 2> /dev/null || true
    [[ $status == 0 ]] || { echo "soak.sh: pinscope failed, see $out/window.log" >&2; return 1; }
    report window "$out/window.csv"
    [[ $keep == 1 ]] || rm -rf "$out/window-csv" "$out/window-trace.json"
}

case "$which" in
    cli) run_cli ;;
    window) run_window ;;
    both) run_cli; run_window ;;
esac
