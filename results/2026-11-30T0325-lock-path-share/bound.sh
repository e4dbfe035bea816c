#!/bin/bash
# The 2-client bound: what fork-a2l-cell makes at 2 clients when its keyed locks cost nothing to
# acquire and release, against its own 1-client figure. Single runs, one JVM each, 4 warehouses,
# original order, 20 s warm-up + 30 s, in turn per repetition and mix:
#   cells       c1, c2   the fork jar as committed
#   always      c2       the same jar with -Dhsqldb.lock_cells=always (every table keyed from the
#                        start: the control for nokeyed)
#   nokeyed     c2       the fork jar with exploratory/nokeyed.patch added to the series, run with
#                        -Dhsqldb.lock_cells=always -Dhack.nokeyed=true: the engine makes its
#                        requests as always, and then drops every keyed one (row keys, cells, key
#                        ranges, first rows) before the lock manager sees it. Not serializable; a
#                        measuring device, never a configuration.
# JARS: a folder with cells.jar (hsqldb-fork/target/hsqldb-2.7.4-a2l.jar) and nokeyed.jar (the same
# built in a clone whose patches/series ends with nokeyed.patch).
# usage: [FIRST_REP=K] bound.sh JARS OUT REPS MIX...   (one line per run: bound.txt in OUT)
set -u
cd "$(git rev-parse --show-toplevel)"
jars=$1 out=$2 reps=$3; shift 3
mkdir -p "$out"
run() { # NAME JAR CLIENTS MIX REP JAVA_OPTS...
  local name=$1 jar=$2 clients=$3 mix=$4 rep=$5; shift 5
  local id=$name-$mix-c$clients-$rep log=$out/$name-$mix-c$clients-$rep.log
  java -Xmx8g -Djava.awt.headless=true "$@" -jar tpcc-rbw/target/tpcc-rbw.jar run \
    --fork-jar "$jars/$jar.jar" --config fork-a2l-cell --mix "$mix" --clients "$clients" \
    --warehouses 4 --warmup 20 --seconds 30 --order original --out "$out/$id" > "$log" 2>&1
  echo "$name $mix c$clients $rep | $(grep -E 'committed [0-9]+ =' "$log" | sed 's/.*= //; s/, tpmC.*//')" \
    "| $(grep -E 'cores busy' "$log" | sed 's/.*of CPU in the window, //')" \
    "| $(grep 'waits per' "$log" | sed 's/^ *//')" \
    "| $(grep -c 'consistency OK' "$log") consistency ok" | tee -a "$out/bound.txt"
}
for rep in $(seq "${FIRST_REP:-1}" "$reps"); do for mix in "$@"; do
  run cells cells 1 "$mix" "$rep"
  run cells cells 2 "$mix" "$rep"
  run always cells 2 "$mix" "$rep" -Dhsqldb.lock_cells=always
  run nokeyed nokeyed 2 "$mix" "$rep" -Dhsqldb.lock_cells=always -Dhack.nokeyed=true
done; done
