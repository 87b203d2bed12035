#!/usr/bin/env python3
"""A worker's load and collate per batch, emulated against real, for every cell of validate runs.

Usage: worker-stages-2026-12-03.py TAG:REPORT.txt:STAGES.csv ...   (validate's text report and its
--stages-csv). Prints one line per cell and stage, then the median error by stage, pin mode and
batch size, cells with workers only.
"""
import collections
import re
import statistics
import sys

from validate_report import configurations, stages_by_cell



groups = collections.defaultdict(list)
for argument in sys.argv[1:]:
    tag, report, stages_csv = argument.split(":")
    stages = stages_by_cell(stages_csv)
    for cell, configuration in configurations(report).items():
        match = re.search(r"\(([\d.]+) MB\), cpu \d+ us, w(\d+).*?, (pageable|pinned \w+),", configuration)
        for stage in ("load", "collate"):
            real = stages.get(cell, {}).get(("real", stage, "worker"))
            emulated = stages.get(cell, {}).get(("emulated", stage, "worker"))
            if not (real and emulated and match):
                continue
            error = 100 * (emulated / real - 1)
            print(f"{tag:16} {cell:2} {stage:8} {configuration[:96]:96} real {real:9.1f} emulated {emulated:9.1f} {error:+6.1f} %")
            if int(match[2]) > 0:
                mb = float(match[1])
                size = "under 32 MB" if mb < 32 else "32 to 128 MB" if mb < 128 else "128 MB and more"
                groups[(stage, match[3], size)].append(error)
print()
for (stage, mode, size), errors in sorted(groups.items()):
    print(f"{stage:8} {mode:16} {size:16} cells {len(errors):3}  median {statistics.median(errors):+6.1f} %"
          f"  from {min(errors):+6.1f} to {max(errors):+6.1f} %")
