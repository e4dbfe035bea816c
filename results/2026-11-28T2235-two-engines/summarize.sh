#!/bin/bash
# usage: summarize.sh LOGDIR...   (summary.txt: run inside logs/ with run1 run2 run3
#                                   rounds-50-50 rounds-8-92 and the four sixteen-* folders)
# One line per run from rounds.sh's logs, round by round (N), in the order rounds.sh runs them
# within a round here: alone-N, pair-N (pairA-N and pairB-N), twodb-N, inproc-N. Prints
#  - txn/s: a pair's and a twodb's summed over their two runs;
#  - cores busy: the process's CPU in its 30 s window over 30 s, summed over a pair's two JVMs;
#  - CPU per committed transaction: the process's CPU in the window over the transactions
#    committed in it, for a pair both JVMs' CPU over both JVMs' transactions. A twodb's two
#    runs each measured the one process over their own windows, which start some seconds apart
#    (their loads end apart): their mean is taken as the process's CPU, over both runs'
#    transactions.
for d in "$@"; do
  for n in 1 2 3 4 5 6 7 8 9; do
    for kind in alone pair twodb inproc; do
      files=$d/$kind-$n.log
      [ $kind = pair ] && files="$d/pairA-$n.log $d/pairB-$n.log"
      [ -e ${files%% *} ] || continue
      cat $files | awk -v name="$d/$kind-$n" -v kind=$kind '
        /committed [0-9]+ = / {
          for (i = 1; i <= NF; i++) { if ($i == "committed") n += $(i + 1); if ($i == "txn/s,") t += $(i - 1) }
        }
        /of CPU in the window/ { for (i = 1; i <= NF; i++) if ($i == "used") { cpu += $(i + 1); runs++ } }
        END {
          if (kind == "twodb") cpu /= runs
          if (n) printf "%-28s %6.0f txn/s %5.2f cores busy %4.0f us per committed transaction\n",
            name, t, cpu / 30000, cpu * 1000 / n
        }'
    done
  done
done
