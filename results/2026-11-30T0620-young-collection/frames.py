#!/usr/bin/env python3
"""CPU per committed transaction (us; async-profiler samples of 1 ms, the measured window) of
the stacks that hold each of the given frame substrings (inclusive) and of those whose
innermost frame holds it (self), per scripts/profile folder.

usage: frames.py SUBSTRING[,SUBSTRING...] PROFILE_DIR..."""
import collections
import json
import sys

pats = sys.argv[1].split(",")
for d in sys.argv[2:]:
    n = json.load(open(d + "/summary.json"))["committed"]
    inc = collections.Counter()
    own = collections.Counter()
    for line in open(d + "/cpu.collapsed"):
        stack, c = line.rsplit(" ", 1)
        c = int(c)
        frames = [f.rsplit("_[", 1)[0] for f in stack.split(";")]
        for p in pats:
            if any(p in f for f in frames):
                inc[p] += c
            if p in frames[-1]:
                own[p] += c
    # a sample is 1 ms of CPU (scripts/profile's default interval): x 1000 / n is us a commit
    print(d, " ".join("%s=%.2f/%.2f" % (p, inc[p] * 1000 / n, own[p] * 1000 / n) for p in pats))
