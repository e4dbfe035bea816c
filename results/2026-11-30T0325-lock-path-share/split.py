#!/usr/bin/env python3
"""What a transaction's CPU grows by from 1 client to 2 and 16, and how much of the growth is
the lock path, from scripts/profile folders (cpu.collapsed: one sample per ms of CPU, every
thread, the measured window only; tpcc.log: the committed count and the window's length).

usage: split.py PROFILE_DIR...   (in client order per mix: the first of each mix is the base)

For each folder: txn/s, cores busy and CPU per committed transaction (us), both from the
profiler's samples (the console's own counts, from the JVM, differ by a few percent), split into
the lock path (stacks holding the engine's lock calls: lockStatement, releaseAll, lockRowCells,
lockReachedRow, with all they run), G1's threads, the JIT's, index searches (IndexAVL.findNode)
and the rest, with the kernel's page faults (first touches of fresh heap pages, in whichever part
they fall) beside; then, against the mix's first folder, the growth of each part; the lock path's
largest frames, inclusive; Stock-Level's frames and their findNode and lockReachedRow; and the
frames that grew most outside the lock path (each sample given to its innermost engine or java.*
frame, G1 for G1's threads).
"""
import collections
import re
import sys

LOCK = ("lockStatement", "LockManager.releaseAll", "lockRowCells", "lockReachedRow")


def load(d):
    log = open(d + "/tpcc.log").read()
    committed = int(re.search(r"committed (\d+) =", log).group(1))
    tps = float(re.search(r"= ([\d.]+) txn/s", log).group(1))
    seconds = float(re.search(r"(\d+) s measured after", log).group(1))
    parts = collections.Counter()
    frames = collections.Counter()
    outside = collections.Counter()
    total = 0
    for line in open(d + "/cpu.collapsed"):
        stack, n = line.rsplit(" ", 1)
        n = int(n)
        total += n
        fr = [f.rsplit("_[", 1)[0] for f in stack.split(";")]
        if any(k in stack for k in LOCK):
            parts["lock path"] += n
            i = min(j for j, f in enumerate(fr) if any(k in f for k in LOCK))
            for f in set(fr[i:]):
                frames[f] += n
        else:
            if "org.hsqldb" not in stack and "G1" in stack:
                parts["G1 threads"] += n
            elif "CompileBroker" in stack:
                parts["JIT"] += n
            elif "IndexAVL.findNode" in stack:
                parts["index searches"] += n
            else:
                parts["rest"] += n
            inner = [f for f in fr if f.startswith("org.hsqldb") or f.startswith("java.")]
            outside[inner[-1] if inner else "G1" if "G1" in stack else fr[-1]] += n
        if "asm_exc_page_fault" in stack:
            parts["(page faults, in all parts)"] += n
        if "StockLevelTxn" in stack:
            parts["(Stock-Level)"] += n
            for k in ("IndexAVL.findNode", "lockReachedRow"):
                if k in stack:
                    parts["(Stock-Level: %s)" % k] += n
    us = lambda n: n * 1000.0 / committed
    return {"tps": tps, "cores": total / 1000.0 / seconds, "total": us(total),
            "parts": {k: us(v) for k, v in parts.items()},
            "frames": [(f, us(v)) for f, v in frames.most_common(14)],
            "outside": {k: us(v) for k, v in outside.items()}}


ORDER = ["lock path", "G1 threads", "JIT", "index searches", "rest",
         "(page faults, in all parts)", "(Stock-Level)", "(Stock-Level: IndexAVL.findNode)",
         "(Stock-Level: lockReachedRow)"]
base = {}
for d in sys.argv[1:]:
    mix = re.search(r"mix (\d+-\d+)", open(d + "/tpcc.log").read()).group(1)
    p = load(d)
    print("%s: %.0f txn/s (profiled), %.2f cores busy, %.0f us CPU per committed transaction"
          % (d, p["tps"], p["cores"], p["total"]))
    b = base.setdefault(mix, p)
    for k in ORDER:
        v = p["parts"].get(k, 0.0)
        grow = "" if b is p else "   %+6.1f" % (v - b["parts"].get(k, 0.0))
        print("  %-34s %6.1f%s" % (k, v, grow))
    if b is not p:
        g = p["total"] - b["total"]
        lock = p["parts"].get("lock path", 0) - b["parts"].get("lock path", 0)
        print("  growth %.1f us, of it the lock path %.1f (%.0f%%)" % (g, lock, 100 * lock / g))
        print("  the lock path's largest frames, inclusive, us:")
        for f, v in p["frames"]:
            print("    %6.2f %s" % (v, f))
        print("  grew most outside the lock path (innermost engine or java.* frame), us:")
        o, ob = p["outside"], b["outside"]
        for v, f in sorted(((o.get(f, 0) - ob.get(f, 0), f) for f in set(o) | set(ob)),
                           reverse=True)[:6]:
            print("    %+6.2f %6.2f -> %6.2f %s" % (v, ob.get(f, 0), o.get(f, 0), f))
