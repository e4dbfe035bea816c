#!/usr/bin/env python3
"""Which frames' CPU per committed transaction grew most between two scripts/profile folders.

usage: frame-growth.py PROFILE_DIR_A PROFILE_DIR_B [N]

Self (innermost-frame) samples of each method, inlined and compiled frames counted as one, in
microseconds per committed transaction of each profile; prints the N (default 30) that grew most
from A to B: A, B and the difference.
"""
import collections
import re
import sys


def load(d):
    committed = int(re.search(r"committed (\d+) =", open(d + "/tpcc.log").read()).group(1))
    self_samples = collections.Counter()
    for line in open(d + "/cpu.collapsed"):
        stack, n = line.rsplit(" ", 1)
        self_samples[re.sub(r"_\[.\]", "", stack.split(";")[-1].strip())] += int(n)
    return {k: v * 1000 / committed for k, v in self_samples.items()}


a, b = load(sys.argv[1]), load(sys.argv[2])
n = int(sys.argv[3]) if len(sys.argv) > 3 else 30
for k in sorted(set(a) | set(b), key=lambda k: b.get(k, 0) - a.get(k, 0), reverse=True)[:n]:
    print(f"{a.get(k, 0):7.2f} {b.get(k, 0):7.2f} {b.get(k, 0) - a.get(k, 0):+7.2f} {k}")
