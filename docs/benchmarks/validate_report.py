"""Reading validate's text reports, for the analysis scripts in this folder."""
import re


def configurations(report):
    """Each cell's configuration, by cell number, from the report's table (cell, pair, configuration)."""
    found = {}
    for line in open(report):
        match = re.match(r"(\d+)\s+(?:\d+: \w+\s+)?(\d+ x .*?, kernel \d+ us)", line)
        if match and int(match[1]) not in found:
            found[int(match[1])] = match[2]
    return found
