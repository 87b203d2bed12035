#!/usr/bin/env python3
"""Summarises collate-beside-copy-2026-12-03.sh and pin-thread-in-alloc-2026-12-04.sh: a worker's load and
collate per batch (median after the first third of each run), by batch and pin mode, each round, with
the consumer's free and staging and the pin thread's alloc, pin and free."""
import collections
import csv
import pathlib
import re
import statistics
import sys

runs = collections.defaultdict(dict)
for spans in sorted(pathlib.Path(sys.argv[1]).glob("*/spans.csv")):
    name = re.match(r"(b\d+-\w+)-r(\d+)", spans.parent.name)
    rows = list(csv.DictReader(open(spans)))
    end = max(float(row["end_us"]) for row in rows)
    durations = collections.defaultdict(list)
    for row in rows:
        if float(row["start_us"]) >= end / 3:
            durations[(row["stage"], row["lane"])].append(float(row["duration_us"]))
    runs[name[1]][int(name[2])] = durations

for run, rounds in sorted(runs.items()):
    for stage, lane in (("load", "worker"), ("collate", "worker"), ("staging", "consumer"), ("free", "consumer"), ("alloc", "pin_thread"), ("pin", "pin_thread"), ("free", "pin_thread")):
        medians = [statistics.median(d[(stage, lane)]) for _, d in sorted(rounds.items()) if d.get((stage, lane))]
        if medians:
            print(f"{run:16} {stage:8} {lane:11} " + "  ".join(f"{m / 1e3:8.2f} ms" for m in medians))
