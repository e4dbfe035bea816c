#!/usr/bin/env python3
"""Bytes allocated per committed transaction, from scripts/profile --alloc folders.

usage: alloc.py [--frames F,F,...] [--split FRAME:PREFIX] DIR...
Each DIR is a scripts/profile --alloc folder (alloc.collapsed, summary.json). Prints, per folder,
in KiB (1024 bytes) per committed transaction of the measured window: the total, the top
(allocated class <- innermost engine frame) pairs, the top engine frames inclusive, each of
--frames inclusive, and with --split the bytes under FRAME grouped by the frames above it whose
names start with PREFIX (the prefix left out)."""
import argparse, collections, json, re

def clean(f):
    return re.sub(r'_\[[^]]*\]$', '', f)

def engine(f):
    return f.startswith('org.hsqldb.') and not f.startswith('org.hsqldb.a2l.tpcc.')

ap = argparse.ArgumentParser()
ap.add_argument('--frames', default='')
ap.add_argument('--split', default='')
ap.add_argument('dirs', nargs='+')
a = ap.parse_args()
wanted = [f for f in a.frames.split(',') if f]
split_frame, _, split_prefix = a.split.partition(':')

for d in a.dirs:
    s = json.load(open(d + '/summary.json'))
    n = s['committed'] * 1024.0
    pairs, incl, sel, split = (collections.Counter() for _ in range(4))
    total = 0
    for line in open(d + '/alloc.collapsed'):
        stack, _, count = line.rstrip('\n').rpartition(' ')
        count = int(count)
        frames = [clean(f) for f in stack.split(';')]
        total += count
        inner = next((f for f in reversed(frames[:-1]) if engine(f)), '(no engine frame)')
        pairs[(frames[-1], inner)] += count
        present = dict.fromkeys(f for f in frames[:-1] if engine(f))  # in stack order: ties print alike run to run
        for f in present:
            incl[f] += count
        for f in wanted:
            if f in frames:
                sel[f] += count
        if split_frame and split_frame in frames:
            above = frames[:frames.index(split_frame)]
            chain = [f[len(split_prefix):] for f in above if f.startswith(split_prefix)]
            split[' > '.join(chain) or '(none)'] += count
    print(f'== {d}: {s["config"]} {s["mix"]} c{s["clients"]}, {s["throughput_tps"]:.0f} txn/s (profiled), '
          f'{total / n:.1f} KiB per committed txn (harness: {s.get("alloc_kb_in_window", 0) / s["committed"]:.1f})')
    print('  top (allocated class <- innermost engine frame), KiB/txn:')
    for (cls, inner), c in pairs.most_common(25):
        print(f'    {c / n:6.2f}  {cls} <- {inner}')
    print('  top engine frames, inclusive, KiB/txn:')
    for f, c in incl.most_common(25):
        print(f'    {c / n:6.2f}  {f}')
    if wanted:
        print('  chosen frames, inclusive, KiB/txn:')
        for f in wanted:
            print(f'    {sel[f] / n:6.2f}  {f}')
    if split_frame:
        print(f'  {split_frame}, by the {split_prefix}* frames above it, KiB/txn:')
        for f, c in split.most_common():
            print(f'    {c / n:6.2f}  {f}')
