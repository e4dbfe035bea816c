#!/usr/bin/env python3
"""The young pauses (G1's "Pause Young", Normal, Concurrent Start or Mixed) of a JVM log made
with -Xlog:gc,gc+phases=debug:file=FILE, in the run's measured window: the pauses' length and
the GC workers' summed time in Object Copy (copying survivors: to the survivor regions or, past
the tenuring threshold, to the old generation) and in Scan Heap Roots (the cards of old regions
that point into the young generation), as means over the pauses that logged them and as the
time they cost per second of the window.

usage: gcphases.py GC_LOG WINDOW_START_SECONDS [WINDOW_SECONDS]
"""
import re
import sys

log, start = sys.argv[1], float(sys.argv[2])
length = float(sys.argv[3]) if len(sys.argv) > 3 else None
pauses = {}
for line in open(log):
    m = re.match(r"\[([\d.]+)s\]\[\w+\s*\]\[gc(,phases)?\s*\] GC\((\d+)\) (.*)", line)
    if not m:
        continue
    t, phases, gc, rest = float(m.group(1)), m.group(2), int(m.group(3)), m.group(4)
    p = pauses.setdefault(gc, {"t": t})
    if not phases:
        y = re.match(r"Pause Young .*?([\d.]+)ms$", rest)
        if y:
            p["pause"] = float(y.group(1))
        continue
    for key in ("Object Copy", "Scan Heap Roots"):
        if rest.strip().startswith(key):
            s = re.search(r"Sum:\s*([\d.]+)", rest)
            if s:
                p[key] = float(s.group(1))
window = [p for p in pauses.values() if "pause" in p and p["t"] >= start
          and (length is None or p["t"] < start + length)]
if not window:
    sys.exit("no young pause in the window")
span = length or (max(p["t"] for p in window) - start)
print("%d young pauses from %.0f s on, over %.0f s" % (len(window), start, span))
for key in ("pause", "Object Copy", "Scan Heap Roots"):
    vals = [p[key] for p in window if key in p]
    if not vals:
        print("  %-16s not in the log (it needs gc+phases=debug)" % key)
        continue
    print("  %-16s mean %6.1f ms  (%s: %.2f s per s of the window)" % (
        key, sum(vals) / len(vals), "wall" if key == "pause" else "CPU, workers summed",
        sum(vals) / 1000 / span))
