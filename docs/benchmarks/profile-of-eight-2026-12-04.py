#!/usr/bin/env python3
"""The profile of eight VMs against the shipped h200-pcie5-calibrated, from profile-of-eight-2026-12-04.sh's
replays. Usage: profile-of-eight-2026-12-04.py OUT_DIR (run in docs/benchmarks). The old shipped profile's
figures are its trust entries (h200-pcie5-calibrated-until-2026-12-04.json, the profile shipped until the
eight replaced it), replays at today's model.
"""
import glob
import json
import os
import re
import sys

out = sys.argv[1]
shipped = {entry["against"][: -len(".csv")]: entry
           for entry in json.load(open("h200-pcie5-calibrated-until-2026-12-04.json"))["trust"]["validated"]}


def replayed(path):
    match = re.search(r"^within 10 %: (\d+) of (\d+) .*?within 15 %: (\d+) of", open(path).read(), re.M)
    return int(match[1]), int(match[3]), int(match[2])


for profile, title in (("eight", "held out of both: the VMs in neither profile"),
                       ("without-*", "each of the eight's VMs, by the profile of the other seven")):
    print(f"{title}\n{'run':58} {'cells':>5}   old   w10 w15   new w10 w15")
    totals = [0] * 5
    for path in sorted(glob.glob(f"{out}/*-{profile}.txt")):
        run = re.sub(r"-(eight|without-[a-z]+)\.txt$", "", os.path.basename(path))
        w10, w15, cells = replayed(path)
        entry = shipped.get(run)
        s10, s15 = (entry["within_10"], entry["within_15"]) if entry else (None, None)
        print(f"{run:58} {cells:5}   {s10 if entry else '-':>11} {s15 if entry else '-':>3}   {w10:7} {w15:3}")
        for k, value in enumerate((cells, s10 or 0, s15 or 0, w10, w15)):
            totals[k] += value
    cells, s10, s15, w10, w15 = totals
    print(f"{'total':58} {cells:5}   {s10:11} {s15:3}   {w10:7} {w15:3}   within 15 %: old "
          f"{s15 / cells:.1%}, new {w15 / cells:.1%}\n")
