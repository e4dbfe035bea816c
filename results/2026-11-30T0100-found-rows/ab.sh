#!/bin/bash
# Interleaved single runs of fork-a2l-cell before (patches 0001-0047) and after patch 0048 (a
# read that finds its rows through another index locks the cells of the rows it finds),
# 4 warehouses, 30 s warm-up + 30 s.
# JARS: a folder with before.jar and after.jar, each hsqldb-fork/target/hsqldb-2.7.4-a2l.jar after
# `mvn -B -q -pl hsqldb-fork clean install -DskipTests -Dfork.patches=47` and without -Dfork.patches.
# usage: [FIRST_REP=K] [AB_ORDER="after before"] ab.sh JARS OUT REPS "MIX ORDER CLIENTS"...
# (one line per run: ab.txt in OUT; reps K..REPS; each pair in AB_ORDER, default before, after;
# the console logs are kept here, the runs' summary.json folders were not)
set -u
cd "$(git rev-parse --show-toplevel)"
jars=$1 out=$2 reps=$3; shift 3
mkdir -p "$out"
for rep in $(seq "${FIRST_REP:-1}" "$reps"); do for point in "$@"; do read -r mix order clients <<< "$point"
for jar in ${AB_ORDER:-before after}; do
  run=$jar-$mix-$order-c$clients-$rep
  log=$out/$run.log
  java -Xmx8g -Djava.awt.headless=true -jar tpcc-rbw/target/tpcc-rbw.jar run \
    --fork-jar "$jars/$jar.jar" --config fork-a2l-cell --mix "$mix" --clients "$clients" \
    --warehouses 4 --warmup 30 --seconds 30 --order "$order" --out "$out/$run" \
    > "$log" 2>&1
  echo "$jar $mix $order c$clients $rep | $(grep -E 'committed [0-9]+ =' "$log" | sed 's/.*= //; s/, tpmC.*//')" \
    "| $(grep -E '^ +(OrderStatus|Delivery) ' "$log" | awk '{$3 = $4 = $5 = $6 = ""; print}' | tr -s ' ' | paste -sd ';')" \
    "| $(grep 'waits per' "$log" | sed 's/^ *//')" \
    "| $(grep -c 'consistency OK' "$log") consistency ok" | tee -a "$out/ab.txt"
done; done; done
