#!/bin/bash
# One single run of fork-a2l-cell under the JVM options given (the collector), console log to
# OUT/LABEL-MIX-cCLIENTS.log, a few of its lines printed. Needs the jars built
# (mvn -B -q install -DskipTests); the runs of this folder had them built at 2561018 (patches
# 0001-0043). No --seed: each run drew its own inputs. They were made in turn, one at a time:
#   for c in 1 2; do for v in "g1|" "norefine|-XX:G1ConcRefinementThreads=0" "par|-XX:+UseParallelGC"
#     do ./run.sh OUT "${v%%|*}" "${v#*|}" 8-92 $c; done; done
#   then par and g1 at 8-92 with 16 clients, and par and g1 at 50-50 with 1 and 2.
# usage: run.sh OUT LABEL "JVM OPTIONS" MIX CLIENTS
set -euo pipefail
OUT=$(mkdir -p "$1" && cd "$1" && pwd); L=$2; OPTS=$3; MIX=$4; C=$5
cd "$(dirname "$0")/../.."
java -Xmx8g $OPTS -Djava.awt.headless=true -jar tpcc-rbw/target/tpcc-rbw.jar run \
  --fork-jar hsqldb-fork/target/hsqldb-2.7.4-a2l.jar --config fork-a2l-cell --mix "$MIX" \
  --clients "$C" --warehouses 4 --warmup 30 --seconds 30 --order original \
  --out "$OUT/$L-$MIX-c$C" > "$OUT/$L-$MIX-c$C.log" 2>&1
grep -E "txn/s|cores busy|per committed|GC collected|lock waits per" "$OUT/$L-$MIX-c$C.log" \
  | sed "s/^/$L $MIX c$C: /"
