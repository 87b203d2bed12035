#!/usr/bin/env python3
"""How close can any prediction that does not change between two calls come to both?

Usage: one-figure-bound-2026-12-04.py A.csv:B.csv ...   (run in docs/benchmarks; validate --csv files
of the same cells, the same seed, run twice on a GPU).
Cells: one figure per cell is within 10 % of both calls' figures only if the faster is at most 1.1 / 0.9
times the slower; otherwise it is within 10 % of one at most. So over both calls no such prediction,
however good, has more cells within 10 % than the bound printed. (A model given a calibration of the
same call may follow the host between calls, and is not bound by it.)
Pairs: which pairs each call counts (validate's rule: the GPU's runs of the two cells do not overlap and
their medians differ by 3 % or more), and whether the calls name the same faster cell where both count it.
"""
import sys

from validate_report import cells_by_number

TIE_SHARE = 0.03  # validate's kTieShare


def faster(first, second):
    """-1 if the first cell ran faster, 1 if the second, 0 if validate would leave the pair out."""
    a, b = float(first["real_batches_per_s"]), float(second["real_batches_per_s"])
    if int(first["real_runs"]) > 1 and int(second["real_runs"]) > 1 and \
            float(first["real_slowest"]) <= float(second["real_fastest"]) and \
            float(second["real_slowest"]) <= float(first["real_fastest"]):
        return 0
    if abs(a - b) < TIE_SHARE * max(a, b):
        return 0
    return -1 if a > b else 1


for argument in sys.argv[1:]:
    first, second = (cells_by_number(path) for path in argument.split(":"))
    cells = [cell for cell in first if cell in second]
    rate = lambda call, cell: float(call[cell]["real_batches_per_s"])
    agree = sum(abs(rate(second, c) / rate(first, c) - 1) <= 0.1 for c in cells)
    reachable = sum(max(rate(first, c), rate(second, c)) / min(rate(first, c), rate(second, c)) <= 1.1 / 0.9
                    for c in cells)
    bound = (2 * reachable + (len(cells) - reachable)) / (2 * len(cells))
    print(f"{argument}: {len(cells)} cells; the two calls within 10 % of each other in {agree}; "
          f"one figure within 10 % of both in {reachable} at most; bound over both calls {bound:.1%}")
    pairs = [(int(first[c]["pair_of"]), c, first[c]["changed"]) for c in cells if first[c]["pair_of"]]
    verdicts = [(a, b, changed, faster(first[a], first[b]), faster(second[a], second[b])) for a, b, changed in pairs]
    both = [v for v in verdicts if v[3] and v[4]]
    one = [f"{a}/{b} ({changed})" for a, b, changed, x, y in verdicts if bool(x) != bool(y)]
    print(f"  pairs: {len(pairs)}; counted in both calls {len(both)}, the same faster cell in "
          f"{sum(v[3] == v[4] for v in both)}; counted in one call only {len(one)}: {', '.join(one)}")
