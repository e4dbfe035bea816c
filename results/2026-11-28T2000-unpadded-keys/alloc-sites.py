#!/usr/bin/env python3
"""Heap allocated by class and by allocation site, from a JFR recording's allocation samples.

usage: jfr print --events jdk.ObjectAllocationSample [--stack-depth N] F.jfr | alloc-sites.py [TOP]

Each jdk.ObjectAllocationSample carries a weight (the bytes the thread allocated since its last
sample); summed by the sampled object's class, and by (class, innermost org.hsqldb frame), they
estimate where the heap went. jfr print shows 5 frames unless --stack-depth says more; the
innermost org.hsqldb frame is looked for among those.
"""
import collections
import re
import sys

UNITS = {'byte': 1, 'bytes': 1, 'kB': 1024, 'MB': 1024 ** 2, 'GB': 1024 ** 3}
top = int(sys.argv[1]) if len(sys.argv) > 1 else 15
by_class, by_site, total = collections.Counter(), collections.Counter(), 0.0
for event in sys.stdin.read().split('jdk.ObjectAllocationSample')[1:]:
    cls = re.search(r'objectClass = (\S+)', event)
    weight = re.search(r'weight = ([\d.,]+) (bytes?|[kMG]B)', event)
    if not cls or not weight:
        continue
    w = float(weight.group(1).replace(',', '.')) * UNITS[weight.group(2)]
    total += w
    by_class[cls.group(1)] += w
    frames = re.findall(r'\n\s+([\w.$<>]+)\(', event)
    site = next((f for f in frames if 'hsqldb' in f), frames[0] if frames else '?')
    by_site[(cls.group(1), site)] += w
print(f'{total / 1024 ** 2:.0f} MB sampled')
print('\nby class:')
for c, w in by_class.most_common(top):
    print(f'{w / total * 100:5.1f}%  {c}')
print('\nby class and innermost org.hsqldb frame:')
for (c, s), w in by_site.most_common(top):
    print(f'{w / total * 100:5.1f}%  {c}  <  {s}')
