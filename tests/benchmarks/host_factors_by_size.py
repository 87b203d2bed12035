#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Whether a profile's host factors by batch size say how fast validate's cells ran their host
stages on the GPU (docs/benchmarks.md, sixteenth round). For each stage on the GPU, the rate it ran
(batch bytes over its time per batch) against the host's rate read before that cell (validate's
host_* columns) is set against the profile's factor at the cell's size: a slope of 1 (log against
log) says the factor predicts the cell, 0 that it does not. Also a worker's collate, GPU against
emulated, by workers and batch size.

    tests/benchmarks/host_factors_by_size.py PROFILE.json=VALIDATE.csv [PROFILE.json=VALIDATE.csv ...]

Each VALIDATE.csv's stages are read from the file beside it named with -stages.csv. Loads are
counted only in cells with no CPU work; pin copies only for pin modes that copy (pool, worker).
"""
import bisect
import collections
import json
import math
import statistics
import sys

from load_by_lane import cells_and_stages

# (stage, host_* column read before the cell, by_batch_size factor with no workers, with workers)
STAGES = [("load", "host_fill_gb_per_s", "fill", "fill"),
          ("collate", "host_first_touch_gb_per_s", "collate", "collate_new_pages"),
          ("pin", "host_pin_gb_per_s", "pin", "pin")]


def factor_at(by_size, key, size):
    """The profile's factor at `size`, on a log size axis, flat beyond its ends (as the model reads it)."""
    xs, ys = by_size["sizes_bytes"], by_size.get(key)
    if not ys:
        return None
    if size <= xs[0]:
        return ys[0]
    if size >= xs[-1]:
        return ys[-1]
    i = bisect.bisect(xs, size)
    t = (math.log(size) - math.log(xs[i - 1])) / (math.log(xs[i]) - math.log(xs[i - 1]))
    return ys[i - 1] + t * (ys[i] - ys[i - 1])


def slope(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    var = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / var if var else float("nan")


def within_run_slope(points_by_run):
    num = den = 0.0
    for points in points_by_run.values():
        if len(points) < 2:
            continue
        mx, my = statistics.mean(p[0] for p in points), statistics.mean(p[1] for p in points)
        num += sum((x - mx) * (y - my) for x, y in points)
        den += sum((x - mx) ** 2 for x, _ in points)
    return num / den if den else float("nan")


def main(args):
    if not args or any("=" not in a for a in args):
        sys.exit(__doc__)
    points = collections.defaultdict(lambda: collections.defaultdict(list))  # (lane, stage, factor) -> run -> [(log f, log r)]
    collate = collections.defaultdict(list)
    for arg in args:
        profile_path, validate_csv = arg.split("=", 1)
        by_size = json.load(open(profile_path))["host"]["by_batch_size"]
        cells, stages = cells_and_stages(validate_csv)
        for cell, row in cells.items():
            size, workers = int(row["batch_bytes"]), int(row["num_workers"])
            for (lane, stage, device), us in stages[cell].items():
                if device != "real" or us <= 0:
                    continue
                for name, column, alone, with_workers in STAGES:
                    if stage != name or not row.get(column):
                        continue
                    if name == "load" and float(row["cpu_us_per_sample"]) != 0:
                        continue
                    if name == "pin" and row["pin_mode"] not in ("pool", "worker"):
                        continue
                    key = alone if workers == 0 else with_workers
                    f = factor_at(by_size, key, size)
                    if f:
                        rate = size / us / 1e3 / float(row[column])
                        points[(lane, name, key)][validate_csv].append((math.log(f), math.log(rate)))
            real = stages[cell].get(("worker", "collate", "real"))
            emulated = stages[cell].get(("worker", "collate", "emulated"))
            if workers and real and emulated:
                w = "1-2" if workers <= 2 else "3-5" if workers <= 5 else "6-8"
                mb = "< 16" if size < 16e6 else "16 to 64" if size < 64e6 else "> 64"
                collate[(w, mb)].append(real / emulated)
    print("| lane | stage | factor | cells | slope | slope within each run | factor's range |")
    print("| --- | --- | --- | ---: | ---: | ---: | --- |")
    for (lane, stage, key), by_run in sorted(points.items()):
        every = [p for ps in by_run.values() for p in ps]
        fs = [math.exp(p[0]) for p in every]
        print(f"| {lane} | {stage} | {key} | {len(every)} | {slope(every):.2f} | {within_run_slope(by_run):.2f} "
              f"| {min(fs):.2f} to {max(fs):.2f} |")
    print()
    print("| workers | batch MB | cells | a worker's collate, GPU against emulated (median) |")
    print("| --- | --- | ---: | ---: |")
    for (w, mb), ratios in sorted(collate.items()):
        print(f"| {w} | {mb} | {len(ratios)} | {statistics.median(ratios):.2f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
