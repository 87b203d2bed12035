#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""How long the load stage took on the GPU against the emulated device, the consumer's (no workers)
apart from a worker's, from validate's --csv and --stages-csv files (docs/benchmarks.md, fifteenth
round): the median ratio over cells with no CPU work, where filling samples is all of the load.

    tests/benchmarks/load_by_lane.py NAME=VALIDATE.csv [NAME=VALIDATE.csv ...]

Each VALIDATE.csv's stages are read from the file beside it named with -stages.csv; several runs
of one VM go under one NAME.
"""
import collections
import csv
import statistics
import sys


def cells_and_stages(validate_csv):
    """validate's rows by cell, and each cell's time per batch by (lane, stage, device)."""
    cells = {int(r["cell"]): r for r in csv.DictReader(open(validate_csv))}
    stages = collections.defaultdict(dict)
    for r in csv.DictReader(open(validate_csv.replace(".csv", "-stages.csv"))):
        stages[int(r["cell"])][(r["lane"], r["stage"], r["device"])] = float(r["us_per_batch"])
    return cells, stages


def ratios(validate_csv):
    cells, stages = cells_and_stages(validate_csv)
    for cell, row in cells.items():
        if float(row["cpu_us_per_sample"]) != 0:
            continue
        lane = "consumer" if int(row["num_workers"]) == 0 else "worker"
        real = stages[cell].get((lane, "load", "real"))
        emulated = stages[cell].get((lane, "load", "emulated"))
        if real and emulated:
            yield lane, real / emulated


def main(args):
    if not args or any("=" not in a for a in args):
        sys.exit(__doc__)
    by_vm = collections.defaultdict(lambda: collections.defaultdict(list))
    for arg in args:
        name, path = arg.split("=", 1)
        for lane, ratio in ratios(path):
            by_vm[name][lane].append(ratio)
    print("| VM | the consumer's load (no workers) | a worker's load |")
    print("| --- | ---: | ---: |")
    for name, lanes in by_vm.items():
        cols = [f"{statistics.median(lanes[l]):.2f} ({len(lanes[l])} cells)" if lanes[l] else "-"
                for l in ("consumer", "worker")]
        print(f"| {name} | {cols[0]} | {cols[1]} |")


if __name__ == "__main__":
    main(sys.argv[1:])
