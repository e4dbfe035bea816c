#!/usr/bin/env python3
"""One line per run folder (scripts/tpcc --out DIR): txn/s, cores busy, CPU, GC time and
allocation per committed transaction, lock waits per transaction, from summary.json.

usage: summaries.py RUN_DIR..."""
import json
import sys

for d in sys.argv[1:]:
    try:
        s = json.load(open(d + "/summary.json"))
    except OSError:
        print(d, "- (no summary.json)")
        continue
    n, sec, cpu = s["committed"], s["seconds"], s["cpu_ms_in_window"]
    print("%-22s %8.1f txn/s  cores %.2f  cpu %.0f us/txn  gc %.1f us/txn  alloc %.1f KB/txn"
          "  waits %.3f" % (d.split("/")[-1], s["throughput_tps"], cpu / 1000 / sec,
                            cpu * 1000 / n, s["gc_ms_in_window"] * 1000 / n,
                            s["alloc_kb_in_window"] / n, s["lock_waits_per_txn"]))
