#!/usr/bin/env python3
"""Index walks' CPU per committed transaction in scripts/profile folders.

usage: walks.py PROFILE_DIR...

For each folder (cpu.collapsed: one sample per ms of CPU, every thread, the measured window
only; tpcc.log: the committed count) prints txn/s, cores busy and the CPU per committed
transaction in us, then inclusive parts of it: searches (IndexAVL.findNode), the walks of
inserts (IndexAVL.insertParent), the loads of rows by walks and iterators (NodeAVL.getRow),
and G1's threads; then the searches split by the frame they spend in (the sampled frame
under findNode) and by the TPC-C transaction method that made them.
"""
import collections
import re
import sys

PARTS = [("searches (IndexAVL.findNode)", "IndexAVL.findNode"),
         ("insert walks (IndexAVL.insertParent)", "IndexAVL.insertParent"),
         ("row loads (NodeAVL.getRow)", "NodeAVL.getRow"),
         ("G1 threads", "G1")]

for d in sys.argv[1:]:
    log = open(d + "/tpcc.log").read()
    m = re.search(r"committed (\d+) = ([\d.]+) txn/s", log)
    committed, tps = int(m.group(1)), float(m.group(2))
    total = 0
    parts = collections.Counter()
    leaf = collections.Counter()
    caller = collections.Counter()
    for line in open(d + "/cpu.collapsed"):
        stack, _, n = line.rstrip().rpartition(" ")
        n = int(n)
        total += n
        for name, pattern in PARTS:
            if pattern in stack:
                parts[name] += n
        frames = stack.split(";")
        at = [i for i, f in enumerate(frames) if "IndexAVL.findNode_" in f]
        if at:
            below = frames[at[-1] + 1:]
            leaf[(below[-1] if below else "IndexAVL.findNode").split("_[")[0]] += n
            txn = [f for f in frames if re.search(r"tpcc\.\w+Txn\.", f)]
            caller[txn[-1].split("_[")[0].replace("org.hsqldb.a2l.tpcc.", "") if txn else "other"] += n
    us = lambda samples: samples * 1000.0 / committed
    cores = total / 1000.0 / (committed / tps)
    print(f"{d}: {tps:.0f} txn/s (profiled), {cores:.2f} cores busy, {us(total):.0f} us CPU per committed transaction")
    for name, _ in PARTS:
        print(f"  {name:40s} {us(parts[name]):6.1f}")
    print("  searches by sampled frame:")
    for k, v in leaf.most_common(6):
        print(f"    {k:56s} {us(v):6.1f}")
    print("  searches by transaction:")
    for k, v in caller.most_common(8):
        print(f"    {k:56s} {us(v):6.1f}")
