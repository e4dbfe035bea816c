#!/usr/bin/env python3
"""Heap allocated by class and by allocation site, from async-profiler's allocation samples.

usage: alloc-sites.py alloc.collapsed [TOP]

alloc.collapsed: a profile's allocation stacks in the measured window, made as this folder's
README section says (results/README.md, "A statement's change set"); each line is
"frame;...;frame;Class_[i] BYTES". Summed by the allocated class, and by (class, the two
innermost frames of the engine: org.hsqldb, not the harness's org.hsqldb.a2l.tpcc).
"""
import collections
import sys

top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
total, by_class, by_site = 0, collections.Counter(), collections.Counter()
for line in open(sys.argv[1]):
    stack, n = line.rsplit(' ', 1)
    n = int(n)
    total += n
    frames = stack.split(';')
    by_class[frames[-1]] += n
    engine = [f for f in frames[:-1]
              if f.startswith('org.hsqldb.') and not f.startswith('org.hsqldb.a2l.tpcc.')]
    by_site[(frames[-1], engine[-1] if engine else '?', engine[-2] if len(engine) > 1 else '')] += n
print(f'{total / 1e6:.0f} MB sampled')
print('\nby class:')
for c, n in by_class.most_common(top):
    print(f'{100 * n / total:5.1f}%  {c}')
print('\nby class < innermost engine frame < the one before it:')
for (c, s, s2), n in by_site.most_common(top + 15):
    print(f'{100 * n / total:5.1f}%  {c} < {s} < {s2}')
