#!/usr/bin/env python3
"""Two or more compare folders side by side, by configuration, mix and clients: txn/s, CPU per
committed transaction (us), cores busy, GC time per transaction (us, the collector beans' time,
mostly pauses) and lock waits per transaction, each folder's reps by median, then the ratios of
each later folder's txn/s and GC time per transaction to the first's; per configuration, mix
and argument, 2 over 1 and 16 over 2 clients (of the medians), and the same for each folder
alone; and each point's txn/s per folder, with the ratio of each folder to the first argument's
folder in the same place.

usage: pair.py DIRS DIRS...   (the first is the base; DIRS: a compare folder, or several
                               joined by + whose runs count as reps of one)
"""
import collections
import csv
import statistics
import sys


def load(folders):
    """The runs of the folders, by (configuration, mix, clients)."""
    rows = collections.defaultdict(list)
    for one in folders:
        for r in csv.DictReader(open(one + "/runs.csv")):
            rows[(r["config"], r["mix"], int(r["clients"]))].append(r)
    return rows


def label(d):
    return "+".join(one.rstrip("/").split("/")[-1] for one in d.split("+"))


def med(rs, f):
    return statistics.median(f(r) for r in rs)


def tps(r):
    return float(r["throughput_tps"])


def per_txn(field):
    return lambda r: float(r[field]) * 1000 / int(r["committed"])


def cores(r):
    return float(r["cpu_ms_in_window"]) / 1000 / float(r["seconds"])


def ratios(rows, config, mix):
    """2 over 1 and 16 over 2 clients, of the medians."""
    t = {c: med(rows[(config, mix, c)], tps) for c in (1, 2, 16) if (config, mix, c) in rows}
    return ("%.2f" % (t[2] / t[1]) if 1 in t and 2 in t else "-",
            "%.2f" % (t[16] / t[2]) if 2 in t and 16 in t else "-")


def print_ratios(name, rows):
    for config, mix in sorted({(k[0], k[1]) for k in rows}):
        print("%s %-14s %-6s 2/1 %s  16/2 %s" % ((name, config, mix) + ratios(rows, config, mix)))


dirs = sys.argv[1:]
groups = [d.split("+") for d in dirs]
alone = {one: load([one]) for g in groups for one in g}
runs = [load(g) for g in groups]
gc = per_txn("gc_ms_in_window")

keys = sorted(set().union(*runs), key=lambda k: (k[0], k[1], k[2]))
print("%-14s %-6s %3s | %s | %s" % ("config", "mix", "c", " | ".join(
    "%s: txn/s  cpu us  cores  gc us  waits" % label(d) for d in dirs),
    "txn/s (GC time per txn) over the first"))
for k in keys:
    cells = []
    for rows in runs:
        rs = rows.get(k)
        cells.append("%8.0f %6.0f %5.2f %5.1f %6.3f" % (
            med(rs, tps), med(rs, per_txn("cpu_ms_in_window")), med(rs, cores),
            med(rs, gc), med(rs, lambda r: float(r["lock_waits_per_txn"])))
            if rs else "%36s" % "-")
    base = runs[0].get(k)
    over_first = ["%.2f (gc %.2f)" % (med(rows[k], tps) / med(base, tps),
                                      med(rows[k], gc) / med(base, gc))
                  if base and rows.get(k) else "-" for rows in runs[1:]]
    print("%-14s %-6s %3d | %s | %s" % (k[0], k[1], k[2], " | ".join(cells), " ".join(over_first)))

print()
for d, rows in zip(dirs, runs):
    print_ratios(label(d), rows)

# each folder alone
print()
for one, rows in alone.items():
    print_ratios(label(one), rows)
print()
pairs = [(one, groups[0][j]) for g in groups[1:] for j, one in enumerate(g) if j < len(groups[0])]
print("txn/s per folder: %s; then %s" % (", ".join(label(one) for one in alone), ", ".join(
    "%s over %s" % (label(a), label(b)) for a, b in pairs)))
for k in keys:
    vals = ["%7.0f" % med(rows[k], tps) if rows.get(k) else "      -" for rows in alone.values()]
    over = ["%.2f" % (med(alone[a][k], tps) / med(alone[b][k], tps))
            if alone[a].get(k) and alone[b].get(k) else "-" for a, b in pairs]
    print("%-14s %-6s %3d  %s   %s" % (k[0], k[1], k[2], " ".join(vals), " ".join(over)))
