#!/usr/bin/env python3
"""Medians (min-max) per point and jar from ab.sh's console lines: summarize.py ab.txt"""
import re
import statistics
import sys

rows = {}
for line in open(sys.argv[1]):
    m = re.match(r'(\w+) (\S+) c(\d+) \d+ \| ([\d.]+) txn/s \| (?:[\d.]+ cores busy, )?(\d+) us .* \| ([\d.]+) KB .* \| '
                 r'([\d.]+) lock requests per txn \| lock waits per transaction: ([\d.]+), '
                 r'deadlocks per 1000: ([\d.]+) \| (\d) consistency ok \| GC (\d+) ms', line)
    if not m:
        if line.strip():
            print(f'summarize.py: not a run line, left out: {line.strip()[:80]}', file=sys.stderr)
        continue
    jar, mix, clients = m.group(1), m.group(2), int(m.group(3))
    values = [float(m.group(i)) for i in (4, 5, 6, 7, 8, 9, 11, 10)]
    rows.setdefault((mix, clients), {}).setdefault(jar, []).append(values)

names = ['txn/s', 'CPU us/txn', 'KB/txn', 'requests/txn', 'waits/txn', 'deadlocks/1000', 'GC ms in window']
fmts = ['%.0f', '%.0f', '%.1f', '%.1f', '%.3f', '%.2f', '%.0f']
def cell(vals, i, fmt):
    v = [r[i] for r in vals]
    med = statistics.median(v)
    return (fmt % med) + (' (' + (fmt % min(v)) + '-' + (fmt % max(v)) + ')' if len(v) > 1 else '')

print('| mix | clients | reps | ' + ' | '.join(f'{n} before | after' for n in names)
      + ' | txn/s after / before | consistency ok |')
print('|---|---:|---:|' + '---:|---:|' * len(names) + '---:|---:|')
for (mix, clients) in sorted(rows, key=lambda k: (k[0], k[1])):
    point = rows[(mix, clients)]
    b, a = point.get('before', []), point.get('after', [])
    cells = []
    for i, f in enumerate(fmts):
        cells += [cell(b, i, f) if b else '-', cell(a, i, f) if a else '-']
    ratio = (statistics.median(r[0] for r in a) / statistics.median(r[0] for r in b)) if a and b else 0
    ok = sum(int(r[7]) for r in b + a)
    print(f'| {mix} | {clients} | {min(len(b), len(a))} | ' + ' | '.join(cells)
          + f' | {ratio:.2f} | {ok} of {len(b) + len(a)} |')
