# Sourced by scripts/tpcc, compare, soak and chaos (needs $ROOT, the repository root):
# builds the harness jar when it is missing or older than its sources, and knows which jar a
# named configuration runs on.
. "$ROOT/scripts/lib/mvn.sh"

HARNESS_DIR="$ROOT/tpcc-rbw"
HARNESS_JAR="$HARNESS_DIR/target/tpcc-rbw.jar"
REGISTRY="$HARNESS_DIR/src/main/resources/org/hsqldb/a2l/tpcc/engine/engine-configs.txt"

# harness_jar: the harness jar's path, built first if missing or stale
harness_jar() {
  if [ ! -f "$HARNESS_JAR" ] || [ ! -f "$HARNESS_DIR/target/engines/hsqldb-2.7.4.jar" ] \
     || ! compgen -G "$HARNESS_DIR/target/engines/h2-*.jar" >/dev/null \
     || [ -n "$(find "$HARNESS_DIR/src/main" "$HARNESS_DIR/pom.xml" "$ROOT/pom.xml" -newer "$HARNESS_JAR" -print -quit)" ]; then
    # -Dtpcc.standalone: build this module alone, without making Maven resolve the fork jar
    mvn_q -pl tpcc-rbw package -DskipTests -Dtpcc.standalone >&2 \
      || { echo "$(basename "$0"): building the harness failed" >&2; exit 1; }
  fi
  echo "$HARNESS_JAR"
}

# config_jar NAME: the jar column (upstream | fork | h2 | derby | postgresql) of a configuration, empty if it is not in the registry.
config_jar() {
  awk -F'|' -v name="$1" '!/^[[:space:]]*#/ { n=$1; gsub(/[[:space:]]/, "", n); j=$2; gsub(/[[:space:]]/, "", j); if (n == name) print j }' "$REGISTRY"
}

# runs_parent ARGS...: where a run folder goes unless the arguments say (--results DIR or --out DIR):
# out/runs, which git ignores, so that a run leaves the working tree clean; committing one is a
# deliberate --results results (or --out results/NAME)
runs_parent() {
  local a
  for a in "$@"; do case "$a" in --results|--results=*|--out|--out=*) return 0 ;; esac; done
  echo "--results"
  echo "$ROOT/out/runs"
}

# wants_help ARGS...: true if the arguments ask for help or the version (then nothing need be built)
wants_help() {
  local a
  for a in "$@"; do case "$a" in -h|--help|-V|--version) return 0 ;; esac; done
  return 1
}
