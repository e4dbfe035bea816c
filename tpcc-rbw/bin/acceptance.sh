#!/usr/bin/env bash
# Runs scripts/tpcc for every mix and both orders on the given configurations (default:
# upstream upstream-mvcc fork-locks), 1 warehouse, $CLIENTS clients (default 4), 10 s each, and
# tabulates the results. Usage: [CLIENTS=N] tpcc-rbw/bin/acceptance.sh [OUT_DIR [CONFIG...]]
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-$ROOT/out/acceptance}
shift || true
configs=("$@")
[ ${#configs[@]} -eq 0 ] && configs=(upstream upstream-mvcc fork-locks)
mkdir -p "$out"
printf "%-15s %-9s %-6s %4s %10s %s\n" config order mix exit txn/s consistency_ok | tee "$out/table.txt"
failed=0
for c in "${configs[@]}"; do
  mkdir -p "$out/$c"
  for o in original rbw; do
    for m in 8-92 50-50 80-20 100-0; do
      dir="$out/$c/${o}_$m"
      "$ROOT/scripts/tpcc" --config "$c" --order "$o" --mix "$m" --warehouses 1 --clients "${CLIENTS:-4}" \
        --seconds 10 --warmup 2 --seed 7 --progress 0 --out "$dir" > "$dir.log" 2>&1
      code=$?
      [ "$code" -eq 0 ] || failed=1
      tps=$(sed -n 's/^  "throughput_tps": \(.*\),$/\1/p' "$dir/summary.json" 2>/dev/null)
      ok=$(sed -n 's/^  "consistency_ok": \(.*\),$/\1/p' "$dir/summary.json" 2>/dev/null)
      printf "%-15s %-9s %-6s %4s %10s %s\n" "$c" "$o" "$m" "$code" "${tps:-?}" "${ok:-?}" | tee -a "$out/table.txt"
    done
  done
done
exit $failed
