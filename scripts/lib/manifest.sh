#!/usr/bin/env bash
# manifest.sh IN OUT KEY... : copy the JAR manifest IN to OUT without the main attributes
# named KEY (a header's continuation lines, which start with one space, go with it).
#
# Used by hsqldb-fork/pom.xml: IN is upstream hsqldb-2.7.4.jar's META-INF/MANIFEST.MF, so the
# fork jar carries upstream's entries (OSGi headers, Main-Class, Sealed, Specification-*) as
# they are in every build, not as a hand-copied file that drifts; the keys dropped here are
# the ones the pom sets for the fork itself (its versions) and upstream's build provenance.
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: manifest.sh IN OUT KEY..." >&2; exit 2; }
in=$1 out=$2; shift 2
[ -f "$in" ] || { echo "manifest.sh: no manifest at $in" >&2; exit 1; }
mkdir -p "$(dirname "$out")"

# only the main section: upstream has no per-entry sections, and a blank line ends it
awk -v drop="$*" '
  BEGIN { n = split(drop, d, " "); for (i = 1; i <= n; i++) skip[tolower(d[i])] = 1 }
  { sub(/\r$/, "") }
  /^$/ { exit }
  /^ / { if (!dropping) print; next }
  {
    key = $0; sub(/:.*/, "", key)
    dropping = (tolower(key) in skip)
    if (!dropping) print
  }
' "$in" > "$out"

for k in "$@"; do
  if grep -qi "^$k:" "$out"; then echo "manifest.sh: $k still in $out" >&2; exit 1; fi
done
