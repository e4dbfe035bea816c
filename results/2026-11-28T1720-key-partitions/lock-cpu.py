#!/usr/bin/env python3
"""Inclusive CPU per committed transaction of the lock manager's methods, from a scripts/profile
folder (cpu event, the measured window only).

usage: lock-cpu.py PROFILE_DIR [PATTERN]

Reads PROFILE_DIR/cpu.collapsed and the committed count in PROFILE_DIR/tpcc.log. Of the stacks
that hold a frame matching PATTERN (default: the lock manager and the engine's side of it), prints
for each method of lockmgr, the engine's CellLocks and TransactionManagerLockManager, RowKey and
ConcurrentHashMap the microseconds of CPU per committed transaction spent in it or below it, most
first (inlined and compiled frames counted as one method).
"""
import collections
import re
import sys

d = sys.argv[1]
pattern = sys.argv[2] if len(sys.argv) > 2 else "lockmgr|TransactionManagerLockManager"
committed = int(re.search(r"committed (\d+) =", open(d + "/tpcc.log").read()).group(1))
inclusive = collections.Counter()
for line in open(d + "/cpu.collapsed"):
    stack, n = line.rsplit(" ", 1)
    frames = [re.sub(r"_\[.\]", "", f.strip()) for f in stack.split(";")]
    if not any(re.search(pattern, f) for f in frames):
        continue
    for f in set(frames):
        if re.search(r"lockmgr|CellLocks|TransactionManagerLockManager|ConcurrentHashMap|RowKey", f):
            inclusive[f] += int(n)
for f, n in inclusive.most_common(45):
    print(f"{n * 1000 / committed:7.2f} {f}")
