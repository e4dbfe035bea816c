# Sourced by the scripts that run Maven (needs $ROOT, the repository root).
# mvn_q ARGS...: quiet, batch-mode Maven from the repository root. Debian's Maven 3.8 prints
# stray colour resets even in batch mode; they are stripped from stdout and stderr alike.
mvn_q() { (cd "$ROOT" && mvn -q -B "$@") 2> >(sed $'s/\e\\[0m//g' >&2) | sed $'s/\e\\[0m//g'; }
