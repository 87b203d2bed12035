#!/usr/bin/env python3
"""The pin thread's stages in validate's pin_mode alloc cells, emulated against real.

Usage: pin-thread-stages-2026-12-04.py TAG:REPORT.txt:STAGES.csv[:REPLAY-STAGES.csv] ...   (validate's
text report and its --stages-csv; for the emulated side at today's model, the --stages-csv of a replay
of that run, validate --against, whose own file has the emulated rows only). For cells with workers and batches of 2 MB and more: each
cell's cudaHostAlloc, copy into the new block and free of the worker's batch per batch, then the
median of emulated over real by stage and worker count.
"""
import collections
import re
import statistics
import sys

from validate_report import configurations, stages_by_cell


def workers_class(workers):
    return "1 or 2 workers" if workers <= 2 else "3 or 4 workers" if workers <= 4 else "5 to 8 workers"


ratios = collections.defaultdict(list)
for argument in sys.argv[1:]:
    tag, report, stages_csv, *replay = argument.split(":")
    stages = stages_by_cell(stages_csv)
    replayed = stages_by_cell(replay[0]) if replay else stages
    for cell, configuration in configurations(report).items():
        match = re.search(r"\(([\d.]+) MB\), cpu \d+ us, w(\d+).*?, pinned alloc,", configuration)
        if not match or float(match[1]) < 2 or int(match[2]) == 0:
            continue
        for stage in ("alloc", "pin", "free"):
            real = stages.get(cell, {}).get(("real", stage, "pin thread"))
            emulated = replayed.get(cell, {}).get(("emulated", stage, "pin thread"))
            if not (real and emulated):
                continue
            print(f"{tag:16} {cell:2} {stage:5} {configuration[:90]:90} real {real:9.1f} emulated {emulated:9.1f}"
                  f" {100 * (emulated / real - 1):+6.1f} %")
            ratios[(stage, workers_class(int(match[2])))].append(emulated / real)
print()
for (stage, workers), values in sorted(ratios.items()):
    print(f"{stage:5} {workers:15} cells {len(values):3}  emulated over real, median {statistics.median(values):.2f}"
          f"  from {min(values):.2f} to {max(values):.2f}")
