#!/bin/bash
# interleaved single runs with the allocation count: fork jar before (bd1b440) and after (17cf683),
# each copied from hsqldb-fork/target/hsqldb-2.7.4-a2l.jar after `mvn -B -q install -DskipTests` at
# that commit into before.jar and after.jar; OUT: a scratch folder; "before" runs first in each pair
cd "$(git rev-parse --show-toplevel)"
for rep in 1 2; do for point in "50-50 2" "8-92 2" "50-50 16"; do set -- $point; for jar in before after; do
  out=OUT/$jar-$1-c$2-$rep
  java -Xmx8g -Djava.awt.headless=true -jar tpcc-rbw/target/tpcc-rbw.jar run \
    --fork-jar $jar.jar --config fork-a2l-cell --mix $1 --clients $2 --warehouses 4 \
    --warmup 60 --seconds 30 --order original --out $out > $out.log 2>&1
  echo "$jar $1 c$2 $rep | $(grep -E 'committed [0-9]+ =' $out.log | sed 's/ *committed [0-9]* = //; s/, tpmC.*//') | $(grep 'cores busy' $out.log | sed 's/.*window, //') | $(grep 'allocated' $out.log | sed 's/.*window, //') | $(grep 'GC collected' $out.log | sed 's/.*and the GC/GC/')"
done; done; done
