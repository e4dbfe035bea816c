#!/usr/bin/env python3
"""Deadlock victims per committed transaction, by type, from scripts/compare run folders.

usage: deadlocks.py RUN_FOLDER... (each holding runs/CONFIG/repN/ORDER_MIX_cN/summary.json)
Prints, per folder, configuration, order and clients (8-92 only): median txn/s, engine aborts per 1000
commits (median), and over all repetitions summed: Delivery and Order-Status victims per 1000 of
their own commits, and all deadlock victims per 1000 commits (engines that report conflicts
as serialization failures, PostgreSQL, show none here).
"""
import glob
import json
import os
import statistics
import sys
from collections import defaultdict


def main(folders):
    for folder in folders:
        points = defaultdict(list)
        for f in glob.glob(os.path.join(folder, 'runs', '*', 'rep*', '*', 'summary.json')):
            config = f.split(os.sep)[-4]
            d = json.load(open(f))
            if d['mix'] != '8-92':
                continue
            points[(config, d['order'], d['clients'])].append(d)
        print(os.path.basename(os.path.normpath(folder)))
        print('  %-14s %-8s %3s %4s %8s %10s %16s %16s %12s' % (
            'config', 'order', 'c', 'reps', 'txn/s', 'aborts/1000', 'Delivery/1000', 'OrderStatus/1000',
            'all/1000'))
        for (config, order, clients), runs in sorted(points.items()):
            committed = defaultdict(int)
            victims = defaultdict(int)
            for d in runs:
                for t, n in d['committed_by_type'].items():
                    committed[t] += n
                for t, reasons in d['aborts']['by_type'].items():
                    victims[t] += reasons.get('deadlock', 0)
            per = lambda t: 1000.0 * victims[t] / committed[t] if committed[t] else float('nan')
            total = 1000.0 * sum(victims.values()) / sum(committed.values())
            print('  %-14s %-8s %3d %4d %8.0f %10.2f %16.1f %16.1f %12.2f' % (
                config, order, clients, len(runs),
                statistics.median(d['throughput_tps'] for d in runs),
                statistics.median(d['engine_aborts_per1000'] for d in runs),
                per('Delivery'), per('OrderStatus'), total))


if __name__ == '__main__':
    main(sys.argv[1:])
