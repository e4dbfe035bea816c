#!/usr/bin/env python3
"""CPU per committed transaction from a scripts/profile folder (cpu event, the default).

usage: per-txn-cpu.py PROFILE_DIR...

Reads PROFILE_DIR/cpu.collapsed (one sample per ms of CPU, every thread) and the committed count and
throughput from PROFILE_DIR/tpcc.log, and prints: the cores kept busy, the CPU per committed
transaction, and that CPU split two ways, by what the stack is in (index walks, lock manager, store
latch, JIT compiler threads, GC threads, the rest) and by the TPC-C transaction type whose frame the
terminal's stack holds ("harness": a terminal outside any of them), with the part of each in
IndexAVL.findNode. Only the measured window is in cpu.collapsed (scripts/profile without
--whole-run).
"""
import collections
import re
import sys

PARTS = [("index walk (IndexAVL.findNode)", "IndexAVL.findNode"), ("index, other", "IndexAVL"),
         ("lock manager", "a2l.lockmgr"), ("TransactionManagerLockManager", "TransactionManagerLockManager"),
         ("store latch", "RowStoreAVLMemory.readLock"), ("store latch", "RowStoreAVLMemory.writeLock"),
         ("store latch", "lockSpinning")]


def part(frames, terminal):
    if not terminal:
        if any("CompileBroker" in f or "C2Compiler" in f or "Compilation::" in f for f in frames):
            return "JIT compiler threads"
        if any("G1" in f or "GC" in f for f in frames):
            return "GC threads"
        return "other threads"
    for name, pattern in PARTS:
        if any(pattern in f for f in frames):
            return name
    return "the rest of the terminals' time"


for d in sys.argv[1:]:
    log = open(d + "/tpcc.log").read()
    m = re.search(r"committed (\d+) = ([\d.]+) txn/s", log)
    committed, tps = int(m.group(1)), float(m.group(2))
    parts, types, walks, total = collections.Counter(), collections.Counter(), collections.Counter(), 0
    for line in open(d + "/cpu.collapsed"):
        stack, n = line.rsplit(" ", 1)
        n = int(n)
        total += n
        frames = stack.split(";")
        terminal = any("Benchmark$Terminal.run" in f for f in frames)
        parts[part(frames, terminal)] += n
        if terminal:
            tx = [f for f in frames if "a2l.tpcc." in f and "Txn." in f]
            t = tx[0].split("tpcc.")[1].split(".")[0] if tx else "harness"
            types[t] += n
            if any("IndexAVL.findNode" in f for f in frames):
                walks[t] += n
    us = lambda n: n * 1000 / committed
    print(f"{d}: {tps} txn/s (profiled), {total / 1000 / (committed / tps):.2f} cores busy, "
          f"{us(total):.0f} us CPU per committed transaction")
    for k, v in parts.most_common():
        print(f"  {k:34s} {us(v):6.1f} us")
    print("  by transaction type (terminals only; per committed transaction of any type), of it findNode:")
    for k, v in types.most_common():
        print(f"  {k:34s} {us(v):6.1f} us  {us(walks[k]):6.1f} us")
