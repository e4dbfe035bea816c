#!/bin/bash
# usage: profile-twodb.sh OUT [MIX]   (from the repository's root, after scripts/profile has
# fetched async-profiler into target/async-profiler)
# A CPU profile (async-profiler, 1 ms) of rounds.sh's "twodb": one JVM, two databases, 1 client
# each, fork-a2l-cell, MIX (default 50-50). Cuts the recording to the part of the two measured
# windows that they share and writes OUT/cpu.collapsed and OUT/tpcc.log, whose "committed N =
# R txn/s" line is the two runs' summed throughput times that part's length, so that
# per-txn-cpu.py (2026-11-28T1300-jit-at-sixteen) reads OUT as it reads a scripts/profile folder.
set -eu
OUT=$1 MIX=${2:-50-50}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
lib=$(ls target/async-profiler/*/linux-x64/libasyncProfiler.so 2>/dev/null | head -1)
conv=$(ls target/async-profiler/jfr-converter-*.jar 2>/dev/null | head -1)
if [ -z "$lib" ] || [ -z "$conv" ]; then
  echo "no async-profiler in target/async-profiler: run scripts/profile once first" >&2
  exit 2
fi
fork=hsqldb-fork/target/hsqldb-2.7.4-a2l.jar
cp $fork "$OUT/fork-copy.jar"
args() {
  echo run --fork-jar $2 --config fork-a2l-cell --mix $MIX --clients 1 --warehouses 4 \
    --warmup 60 --seconds 30 --order original --out "$OUT/$1"
}
java -Xmx16g -Djava.awt.headless=true \
  -agentpath:$lib=start,event=cpu,interval=1ms,file="$OUT/profile.jfr" \
  -cp tpcc-rbw/target/tpcc-rbw.jar "$here/TwoRuns.java" \
  $(args A $fork) --and $(args B "$OUT/fork-copy.jar") 2>&1 \
  | while IFS= read -r line; do
      t=${EPOCHREALTIME/[.,]/}
      printf '%s\t%s\n' "${t:0:${#t}-3}" "$line"
    done > "$OUT/timed.log"
# each run's warm-up begins at its "heap: collected ... before the point" line (printed after its
# "point" line); its window is the measured seconds after the warm-up: take the part both share
read -r from to < <(awk -F'\t' '
  $2 ~ /^point [0-9]+\/[0-9]+: / && match($2, /[0-9]+ s warm-up, [0-9]+ s measured/) {
    split(substr($2, RSTART, RLENGTH), w, " "); warm = w[1]; measured = w[4]
  }
  $2 ~ /^heap: collected/ {
    s = $1 + warm * 1000; e = $1 + (warm + measured) * 1000
    if (s > from) from = s; if (to == 0 || e < to) to = e
  }
  END { printf "%.0f %.0f\n", from, to }' "$OUT/timed.log")
java -jar "$conv" --cpu --from "$from" --to "$to" --dot -o collapsed "$OUT/profile.jfr" \
  "$OUT/cpu.collapsed" >/dev/null
rate=$(grep -oE 'committed [0-9]+ = [0-9.]+ txn/s' "$OUT/timed.log" | awk '{s += $4} END {print s}')
committed=$(awk -v r="$rate" -v f="$from" -v t="$to" 'BEGIN {printf "%d", r * (t - f) / 1000}')
shared=$(( (to - from) / 1000 ))
echo "committed $committed = $rate txn/s (two runs, over the $shared s their windows share)" \
  > "$OUT/tpcc.log"
cat "$OUT/tpcc.log"
