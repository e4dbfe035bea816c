#!/bin/bash
# usage: migrations.sh CLIENTS CONFIG  (50-50, 4 warehouses; prints the lines of migrations.txt)
T=$(mktemp -d)
C=$1; CFG=$2
cd "$(dirname "$0")/../.."
TPCC_JAVA_OPTS="-Xmx8g" scripts/tpcc --config $CFG --mix 50-50 --clients $C --warehouses 4 --warmup 40 --seconds 20 --order original > /tmp/migrations-$CFG-$C.log 2>&1 &
for i in $(seq 1 200); do sleep 1; grep -q "warm" /tmp/migrations-$CFG-$C.log && break; done
sleep 30
PID=$(pgrep -n java)
snap() { for t in /proc/$PID/task/*; do n=$(tr ' ' '_' < $t/comm); echo "$(basename $t) $n $(grep nr_migrations $t/sched | awk '{print $3}') $(grep -E '^nr_switches' $t/sched | awk '{print $3}') $(awk '{print $14+$15}' $t/stat)"; done | sort; }
snap > "$T"/m1; sleep 10; snap > "$T"/m2
join <(sort "$T"/m1) <(sort "$T"/m2) | awk '{d=($9-$5)/10; if (d>2 || $2 ~ /tpcc/) printf "%-22s migrations/s %6.0f switches/s %6.0f cpu%% %5.0f\n",$2,($7-$3)/10,($8-$4)/10,d}'
wait
