#!/usr/bin/env python3
"""CPU per committed transaction of scripts/profile folders, split the way this folder's section
of results/README.md reads them.

usage: summary.py PROFILE_DIR...

For each folder (cpu.collapsed: one sample per ms of CPU, every thread, the measured window only;
tpcc.log: the committed count and the run's console lines) prints txn/s, cores busy and the CPU
per committed transaction in us, then inclusive parts of it: the lock path (a stack holding
lockStatement, releaseAll, lockRowCells or lockReachedRow: the engine's lock calls and what they
run), within it CellLocks.requests (making the requests), LockManager.acquireSet and
LockManager.releaseAll; IndexAVL.findNode; G1's refinement and evacuation threads; and the
Stock-Level transactions' frames, with their findNode and lockReachedRow.
"""
import re
import sys

PARTS = [("lock path", ("lockStatement", "LockManager.releaseAll", "lockRowCells", "lockReachedRow")),
         ("  CellLocks.requests", ("CellLocks.requests",)),
         ("  LockManager.acquireSet", ("LockManager.acquireSet",)),
         ("  LockManager.releaseAll", ("LockManager.releaseAll",)),
         ("IndexAVL.findNode", ("IndexAVL.findNode",)),
         ("G1 refinement", ("G1ConcurrentRefineThread",)),
         ("G1 evacuation", ("G1EvacuateRegions",)),
         ("StockLevelTxn", ("StockLevelTxn",))]

for d in sys.argv[1:]:
    log = open(d + "/tpcc.log").read()
    m = re.search(r"committed (\d+) = ([\d.]+) txn/s", log)
    committed, tps = int(m.group(1)), float(m.group(2))
    sums = dict((name, 0) for name, _ in PARTS)
    sl_walk = sl_lock = total = 0
    for line in open(d + "/cpu.collapsed"):
        stack, n = line.rsplit(" ", 1)
        n = int(n)
        total += n
        for name, patterns in PARTS:
            if any(p in stack for p in patterns):
                sums[name] += n
        if "StockLevelTxn" in stack:
            sl_walk += n if "IndexAVL.findNode" in stack else 0
            sl_lock += n if "lockReachedRow" in stack else 0
    us = lambda n: n * 1000 / committed
    print(f"{d}: {tps:.0f} txn/s (profiled), {total / 1000 / (committed / tps):.2f} cores busy, "
          f"{us(total):.0f} us CPU per committed transaction")
    for name, _ in PARTS:
        print(f"  {name:26s} {us(sums[name]):6.1f}")
    print(f"    of Stock-Level: findNode {us(sl_walk):.1f}, lockReachedRow {us(sl_lock):.1f}")
