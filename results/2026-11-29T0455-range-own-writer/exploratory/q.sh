#!/bin/bash
# q.sh OUT JAR "QUIET_US MIX CLIENTS"...
cd "$(git rev-parse --show-toplevel)"
out=$1 jar=$2; shift 2
for point in "$@"; do read -r q mix clients <<< "$point"
  log=$out/q$q-$mix-c$clients.log
  java -Xmx8g -Dhsqldb.lock_range_quiet_us=$q -Djava.awt.headless=true -jar tpcc-rbw/target/tpcc-rbw.jar run \
    --fork-jar "$jar" --config fork-a2l-cell --mix "$mix" --clients "$clients" \
    --warehouses 4 --warmup 30 --seconds 30 --order original --out "$out/q$q-$mix-c$clients" > "$log" 2>&1
  n=$(grep -E 'committed [0-9]+ =' "$log" | sed 's/ *committed \([0-9]*\) =.*/\1/')
  req=$(grep 'engine counters' "$log" | sed 's/.*requests=\([0-9]*\).*/\1/')
  echo "q$q $mix c$clients | $(grep -E 'committed [0-9]+ =' "$log" | sed 's/.*= //; s/, tpmC.*//')" \
    "| $(grep 'cores busy' "$log" | sed 's/.*window, //')" \
    "| $(awk -v r="$req" -v n="$n" 'BEGIN { printf "%.1f req/txn", r / n }')" \
    "| $(grep 'waits per' "$log" | sed 's/^ *//')" | tee -a "$out/q.txt"
done
