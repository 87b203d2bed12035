"""Reading validate's text reports and files, for the analysis scripts in this folder."""
import collections
import csv
import glob
import json
import re


def configurations(report):
    """Each cell's configuration, by cell number, from the report's table (cell, pair, configuration)."""
    found = {}
    for line in open(report):
        match = re.match(r"(\d+)\s+(?:\d+: \w+\s+)?(\d+ x .*?, kernel \d+ us)", line)
        if match and int(match[1]) not in found:
            found[int(match[1])] = match[2]
    return found


def calibrated_runs():
    """Each H200 run of validate in this folder with a stages CSV whose VM has a calibrated profile:
    (the run's path without its extension, the VM's letters, the profile's host figures)."""
    for stages_csv in sorted(glob.glob("validate-h200-*-stages.csv")):
        base = stages_csv[: -len("-stages.csv")]
        name = re.match(r"validate-h200-\d{4}-\d\d-\d\d-(?:shipped-)?seed\d+(?:-again)?-([a-z]+)$", base)
        profiles = glob.glob(f"validate-h200-calibrated-*-{name[1]}.json") if name else []
        if profiles:
            yield base, name[1], json.load(open(profiles[0]))["host"]


def cells_by_number(path):
    """A validate --csv as {cell number: its row}."""
    return {int(row["cell"]): row for row in csv.DictReader(open(path))}


def stages_by_cell(path):
    """A stages CSV (validate --stages-csv) as {cell: {(device, stage, lane): us per batch}}."""
    by_cell = collections.defaultdict(dict)
    for row in csv.DictReader(open(path)):
        by_cell[int(row["cell"])][(row["device"], row["stage"], row["lane"])] = float(row["us_per_batch"])
    return by_cell


def real_stage_us(base, stage, lane):
    """Each cell's time per batch in one stage on one kind of lane on the GPU, by cell number, from the
    run's stages CSV."""
    return {cell: stages[("real", stage, lane)] for cell, stages in stages_by_cell(base + "-stages.csv").items()
            if ("real", stage, lane) in stages}
