#!/usr/bin/env python3
"""Do calibrate's readings tell how fast a VM's cells will collate a large batch?

For every H200 run in this folder with a stages CSV whose VM has a calibrated profile with the pool
run's worker curves: the median real collate rate of the VM's cells of 128 MB and more with workers
collating into new pages (every mode but pin_mode worker, whose workers collate into pinned memory;
batch bytes over the worker's collate per batch), beside what that VM's calibration read (the pool
run's collate at 128 MiB, the idle first touch and filling), and, across the VMs, how well each
reading follows the cells (Pearson's r). No model is involved: every figure was measured on a GPU VM.
Usage: collate-by-vm-2026-12-04.py (run in docs/benchmarks)
"""
import collections
import re
import statistics

from validate_report import calibrated_runs, configurations, real_stage_us

cells = collections.defaultdict(list)
readings = {}
for base, vm, host in calibrated_runs():
    pool_run = host.get("pipeline_worker_collate_gb_per_s")
    if not pool_run:
        continue
    readings[vm] = (pool_run["values"][-1], host["first_touch_gb_per_s"], host["fill_gb_per_s"])
    collate_us = real_stage_us(base, "collate", "worker")
    for cell, configuration in configurations(base + ".txt").items():
        match = re.search(r"\(([\d.]+) MB\), cpu \d+ us, w(\d+).*?, (pageable|pinned \w+),", configuration)
        if (match and cell in collate_us and int(match[2]) > 0 and float(match[1]) >= 128
                and match[3] != "pinned worker"):
            cells[vm].append(float(match[1]) * 1e6 / collate_us[cell] / 1e3)

print("VM   cells  their collate, median (range)   pool run at 128 MiB   first touch   filling   (GB/s)")
for vm, rates in sorted(cells.items()):
    pool, touch, fill = readings[vm]
    print(f"{vm:4} {len(rates):5}  {statistics.median(rates):5.2f} ({min(rates):.2f} to {max(rates):.2f})"
          f"          {pool:5.2f}               {touch:5.2f}         {fill:5.2f}")
medians = [statistics.median(cells[vm]) for vm in sorted(cells)]
for i, what in enumerate(("the pool run's collate", "the idle first touch", "the idle filling")):
    values = [readings[vm][i] for vm in sorted(cells)]
    print(f"across {len(medians)} VMs, r between the cells' median and {what}: {statistics.correlation(values, medians):.2f}")
above = sum(readings[vm][0] > statistics.median(cells[vm]) for vm in cells)
print(f"the pool run read faster than the VM's cells collated on {above} of {len(cells)} VMs")
