#!/usr/bin/env python3
"""Two calibrations of one VM, and two GPU runs of the same cells: which moves the error more?

Usage: two-calibrations-2026-12-04.py PROFILE1.json PROFILE2.json CALL1.csv CALL2.csv
(run in docs/benchmarks). CALLn.csv is validate's --csv of a call on the same VM with --profile
PROFILEn and the same cells. The emulated figures of a profile do not depend on the call (a replay
with validate --against gives the same figures), so each profile's figures are set against each
call's GPU figures. Prints the profiles' main figures side by side and, per cell, how far the GPU's
two calls and the two profiles' emulations moved.
"""
import json
import statistics
import sys

from validate_report import cells_by_number


def at(curve, size):
    """A calibrated curve's value at one of its sizes."""
    return curve["values"][curve["sizes_bytes"].index(size)]


MIB = 1 << 20
FIGURES = [
    ("H2D pinned 64 MiB (GB/s)", lambda p: p["copy"]["h2d_pinned_gb_per_s"][p["copy"]["sizes_bytes"].index(64 * MIB)]),
    ("H2D pageable 64 MiB (GB/s)", lambda p: p["copy"]["h2d_pageable_gb_per_s"][p["copy"]["sizes_bytes"].index(64 * MIB)]),
    ("host memcpy (GB/s)", lambda p: p["host"]["memcpy_gb_per_s"]),
    ("batch into pinned (GB/s)", lambda p: p["host"]["memcpy_to_pinned_gb_per_s"]),
    ("filling samples (GB/s)", lambda p: p["host"]["fill_gb_per_s"]),
    ("first touch (GB/s)", lambda p: p["host"]["first_touch_gb_per_s"]),
    ("pool run's collate at 128 MiB (GB/s)", lambda p: at(p["host"]["pipeline_worker_collate_gb_per_s"], 128 * MIB)),
    ("cudaHostAlloc 2 MiB (us)", lambda p: at(p["host"]["host_alloc_us"], 2 * MIB)),
    ("cudaHostAlloc 128 MiB (us)", lambda p: at(p["host"]["host_alloc_us"], 128 * MIB)),
    ("alloc run's cudaHostAlloc 32 MiB (us)", lambda p: at(p["host"]["pipeline_host_alloc_workers_us"], 32 * MIB)),
    ("cudaHostRegister 128 MiB (us)", lambda p: at(p["host"]["host_register_us"], 128 * MIB)),
    ("pool run's free 128 MiB (us)", lambda p: at(p["host"]["pipeline_free_us"], 128 * MIB)),
    ("alloc run's free 128 MiB (us)", lambda p: at(p["host"]["pipeline_alloc_workers_free_us"], 128 * MIB)),
    ("alloc run's free 2 MiB (us)", lambda p: at(p["host"]["pipeline_alloc_workers_free_us"], 2 * MIB)),
    ("pool run's free 2 MiB (us)", lambda p: at(p["host"]["pipeline_free_us"], 2 * MIB)),
]


def percent(a, b):
    return (a / b - 1) * 100



profiles = [json.load(open(path)) for path in sys.argv[1:3]]
calls = [cells_by_number(path) for path in sys.argv[3:5]]

print(f"{'figure':40} {'first':>10} {'second':>10}   second against first")
for name, read in FIGURES:
    first, second = (read(p) for p in profiles)
    print(f"{name:40} {first:10.4g} {second:10.4g}   {percent(second, first):+6.1f} %")

cells = sorted(set(calls[0]) & set(calls[1]))
real = [{c: float(call[c]["real_batches_per_s"]) for c in cells} for call in calls]
emulated = [{c: float(call[c]["emulated_batches_per_s"]) for c in cells} for call in calls]
print(f"\n{len(cells)} cells; within 10 % of the GPU's call (rows: the profile; columns: the call)")
for p in range(2):
    counts = [sum(abs(percent(emulated[p][c], real[r][c])) <= 10 for c in cells) for r in range(2)]
    print(f"  profile {p + 1}: call 1 {counts[0]:2} of {len(cells)}, call 2 {counts[1]:2} of {len(cells)}")
gpu_moves = [percent(real[1][c], real[0][c]) for c in cells]
model_moves = [percent(emulated[1][c], emulated[0][c]) for c in cells]
for what, moves in (("the GPU, call 2 against call 1", gpu_moves),
                    ("the emulation, profile 2 against profile 1", model_moves)):
    print(f"{what}: within 10 % in {sum(abs(m) <= 10 for m in moves)} of {len(cells)} cells, median move "
          f"{statistics.median(moves):+.1f} %, median size {statistics.median(abs(m) for m in moves):.1f} %")
same_way = sum((g > 0) == (m > 0) for g, m in zip(gpu_moves, model_moves) if abs(g) > 5 and abs(m) > 5)
both = sum(1 for g, m in zip(gpu_moves, model_moves) if abs(g) > 5 and abs(m) > 5)
print(f"cells where both moved more than 5 %: {both}, the same way in {same_way}")
print(f"\n{'cell':>4} {'pin':>12} {'GPU 1':>8} {'GPU 2':>8} {'move':>7}   {'emu 1':>8} {'emu 2':>8} {'move':>7}")
for c, g, m in zip(cells, gpu_moves, model_moves):
    row = calls[0][c]
    pin = row["pin_mode"] if row["pin_memory"] == "on" else "pageable"
    print(f"{c:4} {pin + ' w' + row['num_workers']:>12} {real[0][c]:8.1f} {real[1][c]:8.1f} {g:+6.1f}%   "
          f"{emulated[0][c]:8.1f} {emulated[1][c]:8.1f} {m:+6.1f}%")
