#!/usr/bin/env python3
"""Pairs of ab.sh's runs: per point, txn/s before and after, their ratio per pair, and the
logical measures (lock waits per transaction, deadlocks per 1000 commits, Delivery's and
Order-Status's deadlock victims per 1000 of their own commits), medians over the pairs.
usage: summarize.py ab.txt"""
import re, statistics, sys
from collections import defaultdict

runs = defaultdict(dict)
for line in open(sys.argv[1]):
    f = [x.strip() for x in line.split('|')]
    jar, mix, order, clients, rep = f[0].split()
    tps = float(f[1].split()[0])
    victims = {}
    for part in f[2].split(';'):
        w = part.split()
        dl = re.search(r'deadlock (\d+)', part)
        victims[w[0]] = 1000.0 * (int(dl.group(1)) if dl else 0) / int(w[1])
    waits = float(re.search(r'transaction: ([0-9.]+)', f[3]).group(1))
    dls = float(re.search(r'per 1000: ([0-9.]+)', f[3]).group(1))
    runs[(mix, order, clients)].setdefault(rep, {})[jar] = (tps, waits, dls, victims)

med = statistics.median
print('| mix | order | clients | pairs | txn/s before | txn/s after | after / before per pair | lock waits/txn | deadlocks /1000 | Delivery victims /1000 Deliveries | Order-Status victims /1000 |')
print('|---|---|---:|---:|---:|---:|---|---|---|---|---|')
for (mix, order, clients), reps in runs.items():
    pairs = [r for r in reps.values() if 'before' in r and 'after' in r]
    b = [p['before'] for p in pairs]; a = [p['after'] for p in pairs]
    ratios = ', '.join('%.2f' % (p['after'][0] / p['before'][0]) for p in pairs)
    pick = lambda xs, i: med(x[i] for x in xs)
    vic = lambda xs, t: med(x[3].get(t, 0) for x in xs)
    print('| %s | %s | %s | %d | %.0f | %.0f | %s | %.3f, %.3f | %.2f, %.2f | %.1f, %.1f | %.1f, %.1f |' % (
        mix, order, clients[1:], len(pairs), pick(b, 0), pick(a, 0), ratios, pick(b, 1), pick(a, 1),
        pick(b, 2), pick(a, 2), vic(b, 'Delivery'), vic(a, 'Delivery'), vic(b, 'OrderStatus'),
        vic(a, 'OrderStatus')))
