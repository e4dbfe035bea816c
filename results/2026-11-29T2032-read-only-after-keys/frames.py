#!/usr/bin/env python3
"""CPU per committed transaction (µs) of chosen frames, their own time (the innermost frame of
a sample), from scripts/profile folders (cpu.collapsed at its 1 ms interval, summary.json).
usage: frames.py DIR..."""
import collections, json, re, sys

FRAMES = ['org.hsqldb.persist.RowStoreAVLMemory.isStructureShared',
          'org.hsqldb.persist.RowStoreAVLMemory.readOptimistic',
          'org.hsqldb.types.CharacterType.compare',
          'org.hsqldb.ExpressionLogical.getValue']
for d in sys.argv[1:]:
    n = json.load(open(d + '/summary.json'))['committed']
    own = collections.Counter()
    for line in open(d + '/cpu.collapsed'):
        stack, _, count = line.rstrip('\n').rpartition(' ')
        inner = re.sub(r'_\[[^]]*\]$', '', stack.split(';')[-1])
        if inner in FRAMES:
            own[inner] += int(count)
    print(d, '  '.join(f'{f.split(".")[-2]}.{f.split(".")[-1]} {own[f] * 1000 / n:.2f}' for f in FRAMES))
