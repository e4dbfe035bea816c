#!/bin/bash
# Interleaved single runs, the fork before (542cf71) and after patch 0043 (a statement's change
# set starts at 8 rows), original order, 4 warehouses, 30 s warm-up + 30 s.
# before.jar and after.jar: hsqldb-fork/target/hsqldb-2.7.4-a2l.jar after
# `mvn -B -q install -DskipTests` at each commit, copied into OUT.
# usage: [CONFIG=C] [FIRST_REP=K] ab.sh OUT REPS "MIX CLIENTS"...   (one console line per run:
# ab.txt in OUT; reps K..REPS, default 1..REPS; CONFIG default fork-a2l-cell)
set -u
out=$(cd "$1" && pwd) || exit 1
reps=$2; shift 2
cd "$(git rev-parse --show-toplevel)"
first=${FIRST_REP:-1} config=${CONFIG:-fork-a2l-cell}
for rep in $(seq "$first" "$reps"); do for point in "$@"; do read -r mix clients <<< "$point"
for jar in before after; do
  log=$out/$config-$jar-$mix-c$clients-$rep.log
  java -Xmx8g -Djava.awt.headless=true -jar tpcc-rbw/target/tpcc-rbw.jar run \
    --fork-jar "$out/$jar.jar" --config "$config" --mix "$mix" --clients "$clients" \
    --warehouses 4 --warmup 30 --seconds 30 --order original --out "$out/$config-$jar-$mix-c$clients-$rep" \
    > "$log" 2>&1
  n=$(grep -E 'committed [0-9]+ =' "$log" | sed 's/ *committed \([0-9]*\) =.*/\1/')
  req=$(grep 'engine counters' "$log" | sed 's/.*requests=\([0-9]*\).*/\1/')
  echo "$jar $mix c$clients $rep | $(grep -E 'committed [0-9]+ =' "$log" | sed 's/.*= //; s/, tpmC.*//')" \
    "| $(grep 'cores busy' "$log" | sed 's/.*window, //')" \
    "| $(grep 'allocated' "$log" | sed 's/.*window, //')" \
    "| $(awk -v r="$req" -v n="$n" 'BEGIN { printf "%.1f lock requests per txn", r / n }')" \
    "| $(grep 'waits per' "$log" | sed 's/^ *//')" \
    "| $(grep -c 'consistency OK' "$log") consistency ok" \
    "| GC $(grep 'the GC collected' "$log" | sed 's/.*the GC collected for \([0-9]*\) ms.*/\1/') ms" \
    "| $config" | tee -a "$out/ab.txt"
done; done; done
