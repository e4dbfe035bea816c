#!/usr/bin/env python3
"""Bytes allocated per committed transaction, from scripts/profile --alloc folders.
usage: alloc.py DIR... (folders of scripts/profile --alloc) ; each DIR has alloc.collapsed and summary.json (committed count).
Prints, per folder: total bytes/txn, then the top (allocated class, innermost engine frame)
pairs and the top engine frames inclusive."""
import json, sys, collections, re

def clean(f):
    return re.sub(r'_\[[^]]*\]$', '', f)

def engine(f):
    return (f.startswith('org.hsqldb.') and not f.startswith('org.hsqldb.a2l.tpcc.'))

for d in sys.argv[1:]:
    s = json.load(open(d + '/summary.json'))
    n = s['committed'] * 1.0
    pairs = collections.Counter(); incl = collections.Counter(); total = 0
    for line in open(d + '/alloc.collapsed'):
        stack, _, count = line.rstrip('\n').rpartition(' ')
        count = int(count); frames = [clean(f) for f in stack.split(';')]
        total += count
        cls = frames[-1]
        inner = next((f for f in reversed(frames[:-1]) if engine(f)), '(no engine frame)')
        pairs[(cls, inner)] += count
        for f in set(f for f in frames[:-1] if engine(f)):
            incl[f] += count
    print(f'== {d}: {s["config"]} {s["mix"]} c{s["clients"]}, {s["throughput_tps"]:.0f} txn/s (profiled), '
          f'{total / n / 1024:.1f} KB per committed txn (harness: {s.get("alloc_kb_in_window", 0) / n:.1f})')
    print('  top (allocated class <- innermost engine frame), bytes/txn:')
    for (cls, inner), c in pairs.most_common(25):
        print(f'    {c / n:8.0f}  {cls} <- {inner}')
    print('  top engine frames, inclusive, bytes/txn:')
    for f, c in incl.most_common(25):
        print(f'    {c / n:8.0f}  {f}')
