#!/bin/bash
# usage: lock-inclusive.sh PROFILE_DIR [N]
# The lock path's methods in a scripts/profile (or profile-twodb.sh) folder, inclusive: CPU per
# committed transaction (us) of every sample whose stack holds the method, for the N (default 30)
# largest among the lock manager, CellLocks, TransactionManagerLockManager and ConcurrentHashMap.
d=$1
c=$(grep -oE 'committed [0-9]+ =' "$d/tpcc.log" | head -1 | awk '{print $2}')
awk -v c="$c" '{
    n = $NF; s = $0; sub(/ [0-9]+$/, "", s); k = split(s, f, ";"); delete seen
    for (i = 1; i <= k; i++) {
      g = f[i]; sub(/_\[.\]$/, "", g)
      if (g ~ /a2l\.lockmgr|CellLocks|TransactionManagerLockManager|ConcurrentHashMap/ && !(g in seen)) {
        seen[g] = 1; inc[g] += n
      }
    }
  }
  END { for (x in inc) printf "%7.2f %s\n", inc[x] * 1000 / c, x }' "$d/cpu.collapsed" \
  | sort -rn | head -"${2:-30}"
