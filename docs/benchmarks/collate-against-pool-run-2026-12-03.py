#!/usr/bin/env python3
"""A worker's collate in validate's cells on the GPU against what calibrate's pool run read on the same VM.

For every H200 run in this folder with a stages CSV whose VM has a calibrated profile with the pool
run's worker curves (2026-11-28 on): the cell's real collate rate (batch bytes over the worker's
collate per batch) over the profile's pipeline_worker_collate_gb_per_s at that size (interpolated on
a log size axis, held flat beyond the ends), by pin mode and batch size, then for batches of 128 MB
and more by worker count and by VM. No model is involved: both figures were measured on the GPU VM.
Usage: collate-against-pool-run-2026-12-03.py (run in docs/benchmarks)
"""
import collections
import math
import re
import statistics

from validate_report import calibrated_runs, configurations, real_stage_us


def at_log_size(sizes, values, size):
    if size <= sizes[0]:
        return values[0]
    if size >= sizes[-1]:
        return values[-1]
    for i in range(1, len(sizes)):
        if size <= sizes[i]:
            t = (math.log2(size) - math.log2(sizes[i - 1])) / (math.log2(sizes[i]) - math.log2(sizes[i - 1]))
            return values[i - 1] + t * (values[i] - values[i - 1])



def size_class(mb):
    return "128 MB and more" if mb >= 128 else "32 to 128 MB" if mb >= 32 else "under 32 MB"


by_mode, by_workers, by_vm = (collections.defaultdict(list) for _ in range(3))
for base, vm, host in calibrated_runs():
    pool_run = host.get("pipeline_worker_collate_gb_per_s")
    if not pool_run:
        continue
    collate_us = real_stage_us(base, "collate", "worker")
    for cell, configuration in configurations(base + ".txt").items():
        match = re.search(r"\(([\d.]+) MB\), cpu \d+ us, w(\d+).*?, (pageable|pinned \w+),", configuration)
        if not match or cell not in collate_us or int(match[2]) == 0:
            continue
        mb, workers, mode = float(match[1]), int(match[2]), match[3]
        ratio = mb * 1e6 / collate_us[cell] / 1e3 / at_log_size(pool_run["sizes_bytes"], pool_run["values"], mb * 1e6)
        by_mode[(mode, size_class(mb))].append(ratio)
        if mb >= 128:
            by_workers[(mode, workers)].append(ratio)
            by_vm[(vm, mode)].append(ratio)


def line(label, ratios):
    return f"{label:40} cells {len(ratios):3}  median {statistics.median(ratios):.2f}  from {min(ratios):.2f} to {max(ratios):.2f}"


print("the cells' collate rate over the pool run's, by pin mode and batch size:")
for (mode, size), ratios in sorted(by_mode.items()):
    print(line(f"{mode}, {size}", ratios))
print("\nbatches of 128 MB and more, by pin mode and workers:")
for (mode, workers), ratios in sorted(by_workers.items()):
    print(line(f"{mode}, {workers} workers", ratios))
print("\nbatches of 128 MB and more, by VM and pin mode:")
for (vm, mode), ratios in sorted(by_vm.items()):
    print(line(f"{vm}, {mode}", ratios))
