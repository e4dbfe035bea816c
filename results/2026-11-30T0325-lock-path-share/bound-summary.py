#!/usr/bin/env python3
"""Medians of bound.sh's lines (bound.txt): txn/s, CPU us per committed transaction and cores busy
per run kind and mix, and each repetition's ratios to its own 1-client run.

usage: bound-summary.py bound.txt
"""
import collections
import re
import statistics
import sys

runs = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    m = re.match(r"(\w+) (\S+) c(\d+) (\d+) \| ([\d.]+) txn/s \| ([\d.]+) cores busy, (\d+) us", line)
    if m:
        kind, mix, clients, rep, tps, cores, cpu = m.groups()
        runs[(mix, kind + " c" + clients)][int(rep)] = (float(tps), float(cores), int(cpu))
for mix in sorted({k[0] for k in runs}, key=lambda m: m != "8-92"):
    base = runs[(mix, "cells c1")]
    print(mix)
    for kind in ("cells c1", "cells c2", "always c2", "nokeyed c2"):
        r = runs.get((mix, kind), {})
        if not r:
            continue
        med = lambda i: statistics.median(v[i] for v in r.values())
        per = ["%.2f" % (r[k][0] / base[k][0]) for k in sorted(r) if k in base]
        print("  %-11s %8.0f txn/s  %4.2f cores  %4.0f us/txn   over c1 per rep: %s"
              % (kind, med(0), med(1), med(2), ", ".join(per)))
