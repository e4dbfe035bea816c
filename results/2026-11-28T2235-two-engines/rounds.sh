#!/bin/bash
# usage: [CLIENTS=C] rounds.sh OUT MIX KIND...   (from the repository's root, after a build)
# Runs fork-a2l-cell on MIX (original order, 4 warehouses, 60 s warm-up + 30 s), once per KIND, in
# the order given, each into OUT/KIND-N.log (N counts that kind's runs in OUT), with C clients
# (default 1) per database:
#   alone   one JVM (-Xmx8g), one database, C clients
#   pair    two such JVMs at once, each with its own database (pairA-N.log, pairB-N.log)
#   twodb   one JVM (-Xmx16g) with two databases, C clients each (TwoRuns.java; the second
#           database's fork jar is a copy, so that each database has its own class loader, as
#           in two JVMs; both runs' console lines are in twodb-N.log)
#   inproc  one JVM (-Xmx8g), one database, 2C clients
# Prints each run's txn/s, cores busy and CPU per committed transaction (a twodb's two runs on
# one line). OUT: a path without spaces. A run that fails stops the script.
set -eu
OUT=$1 MIX=$2 C=${CLIENTS:-1}; shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
fork=hsqldb-fork/target/hsqldb-2.7.4-a2l.jar
cp $fork "$OUT/fork-copy.jar"
args() { echo run --fork-jar $3 --config fork-a2l-cell --mix $MIX --clients $2 --warehouses 4 \
    --warmup 60 --seconds 30 --order original --out "$OUT/$1"; }
one() {
  java -Xmx8g -Djava.awt.headless=true -jar tpcc-rbw/target/tpcc-rbw.jar $(args $1 $2 $fork) \
    > "$OUT/$1.log" 2>&1
}
n() {
  local i=1
  while [ -e "$OUT/$1-$i.log" ] || [ -e "$OUT/${1}A-$i.log" ]; do i=$((i + 1)); done
  echo $i
}
show() {
  grep -E 'committed [0-9]+ =|cores busy' "$OUT/$1.log" | sed 's/^ *//' | paste -sd' ' | sed "s/^/$1: /"
}
for kind in "$@"; do
  case $kind in
    alone) i=$(n alone); one alone-$i $C; show alone-$i ;;
    inproc) i=$(n inproc); one inproc-$i $((2 * C)); show inproc-$i ;;
    pair) i=$(n pair)
      one pairA-$i $C & a=$!
      one pairB-$i $C & b=$!
      rc=0; wait $a || rc=$?; wait $b || rc=$?
      [ $rc = 0 ] || exit $rc
      show pairA-$i; show pairB-$i ;;
    twodb) i=$(n twodb)
      java -Xmx16g -Djava.awt.headless=true -cp tpcc-rbw/target/tpcc-rbw.jar "$here/TwoRuns.java" \
        $(args twodbA-$i $C $fork) --and $(args twodbB-$i $C "$OUT/fork-copy.jar") \
        > "$OUT/twodb-$i.log" 2>&1
      show twodb-$i ;;
    *) echo "unknown kind $kind" >&2; exit 2 ;;
  esac
done
