# Sourced by scripts/postgres, scripts/tpcc and scripts/compare (needs $ROOT, the repository root):
# a throw-away PostgreSQL server for the `postgresql` configuration. It is installed from the
# distribution's packages when missing, initialised under tpcc-rbw/target/postgres/ (as a non-root
# user: PostgreSQL refuses to run as root), started on a free port of 127.0.0.1 only, with nothing
# tuned, and described in target/postgres/server.properties (url, user, password, version) for the
# harness (engine/PostgresServer.java). Settings given: listen address, port, no Unix socket
# (so no shared directory is needed), a password for the one user. Everything else is initdb's.

PG_DIR_DEFAULT="$ROOT/tpcc-rbw/target/postgres"
PG_USER=tpcc      # the database superuser initdb creates
PG_DATABASE=tpcc

pg_say() { echo "postgres: $*" >&2; }

# pg_bindir: the newest /usr/lib/postgresql/N/bin (Debian's layout), else where pg_ctl is on the PATH
pg_bindir() {
  local d best="" bestv=0 v
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/pg_ctl" ] || continue
    v=$(basename "$(dirname "$d")"); v=${v%%.*}
    case "$v" in ''|*[!0-9]*) v=0 ;; esac
    if [ -z "$best" ] || [ "$v" -gt "$bestv" ]; then best=$d; bestv=$v; fi
  done
  if [ -z "$best" ] && command -v pg_ctl >/dev/null 2>&1; then best=$(dirname "$(command -v pg_ctl)"); fi
  [ -n "$best" ] && echo "$best"
}

# pg_install: apt-get install postgresql (as root, or through sudo), unless it is there
# (TPCC_PG_NO_INSTALL=1: do not, say so and fail; the tests use it to skip rather than install)
pg_install() {
  [ -n "$(pg_bindir)" ] && return 0
  if [ -n "${TPCC_PG_NO_INSTALL:-}" ]; then pg_say "PostgreSQL is not installed (TPCC_PG_NO_INSTALL is set)"; return 1; fi
  command -v apt-get >/dev/null 2>&1 \
    || { pg_say "PostgreSQL is not installed and there is no apt-get: install it (initdb, pg_ctl) and retry"; return 1; }
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 \
      || { pg_say "PostgreSQL is not installed: run as root or install it (apt-get install postgresql)"; return 1; }
    sudo=(sudo)
  fi
  pg_say "installing PostgreSQL from the distribution's packages (apt-get install postgresql)"
  "${sudo[@]}" apt-get update -qq >&2 \
    && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends postgresql >&2 \
    || { pg_say "apt-get install postgresql failed"; return 1; }
  [ -n "$(pg_bindir)" ] || { pg_say "installed, but no pg_ctl found"; return 1; }
}

# pg_as CMD...: runs CMD as the user that owns the server: ourselves, or `postgres` when we are root
pg_as() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$(pg_os_user)" -- "$@"
  else
    "$@"
  fi
}

# the OS user a root caller runs the server as: the packages' `postgres`, created if missing
pg_os_user() {
  if ! id postgres >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin postgres >&2 || return 1
  fi
  echo postgres
}

# pg_running DIR: true if the server of DIR answers
pg_running() {
  local dir=$1 bin
  [ -f "$dir/server.properties" ] && [ -f "$dir/data/postmaster.pid" ] || return 1
  bin=$(pg_bindir) || return 1
  pg_as "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1
}

# pg_free_port: a port of 127.0.0.1 that nothing listens on (the server's bind is the final word)
pg_free_port() {
  local p i
  for i in $(seq 1 50); do
    p=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  return 1
}

# pg_start [DIR]: install if needed, initdb DIR/data once, start on a free port, create the database,
# write DIR/server.properties. Prints DIR. A server of DIR that already runs is left as it is.
pg_start() {
  local dir=${1:-$PG_DIR_DEFAULT} bin owner port password attempt version
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if pg_running "$dir"; then echo "$dir"; return 0; fi
  pg_install || return 1
  bin=$(pg_bindir)
  if [ "$(id -u)" -eq 0 ]; then
    owner=$(pg_os_user) || { pg_say "cannot create the postgres user"; return 1; }
    chown "$owner" "$dir"
    runuser -u "$owner" -- test -w "$dir" \
      || { pg_say "$owner cannot write $dir (a parent directory is closed to it): give another directory"; return 1; }
  fi
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    rm -rf "$dir/data"
    password=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
    (umask 077; printf '%s\n' "$password" > "$dir/password")
    [ "$(id -u)" -eq 0 ] && chown "$owner" "$dir/password"
    pg_as "$bin/initdb" -D "$dir/data" -U "$PG_USER" --pwfile="$dir/password" --auth=scram-sha-256 \
      -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || pg_as "$bin/initdb" -D "$dir/data" -U "$PG_USER" --pwfile="$dir/password" --auth=scram-sha-256 \
           -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
      || { pg_say "initdb failed, see $dir/initdb.log"; return 1; }
  fi
  password=$(cat "$dir/password")
  for attempt in 1 2 3 4 5; do
    port=$(pg_free_port) || { pg_say "no free port on 127.0.0.1"; return 1; }
    if pg_as "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
         -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=''" start >/dev/null 2>&1; then
      break
    fi
    port=""
    grep -q "could not bind" "$dir/postgres.log" 2>/dev/null || break
  done
  [ -n "$port" ] || { pg_say "the server did not start, see $dir/postgres.log"; return 1; }
  if ! PGPASSWORD=$password "$bin/psql" -h 127.0.0.1 -p "$port" -U "$PG_USER" -d postgres -tAq \
         -c "SELECT 1 FROM pg_database WHERE datname = '$PG_DATABASE'" | grep -q 1; then
    PGPASSWORD=$password "$bin/psql" -h 127.0.0.1 -p "$port" -U "$PG_USER" -d postgres -q \
      -c "CREATE DATABASE $PG_DATABASE" >&2 || { pg_say "cannot create database $PG_DATABASE"; pg_stop "$dir"; return 1; }
  fi
  version=$(PGPASSWORD=$password "$bin/psql" -h 127.0.0.1 -p "$port" -U "$PG_USER" -d "$PG_DATABASE" -tAq \
              -c "SHOW server_version")
  (umask 077; cat > "$dir/server.properties.tmp" <<EOF
# written by scripts/postgres start; removed by scripts/postgres stop
url=jdbc:postgresql://127.0.0.1:$port/$PG_DATABASE
user=$PG_USER
password=$password
version=$version
port=$port
bin=$bin
EOF
  )
  mv "$dir/server.properties.tmp" "$dir/server.properties"
  pg_say "PostgreSQL $version on 127.0.0.1:$port, data in $dir/data"
  echo "$dir"
}

# pg_stop [DIR]: stops the server of DIR (fast shutdown) and removes its server.properties
pg_stop() {
  local dir=${1:-$PG_DIR_DEFAULT} bin
  [ -d "$dir" ] || return 0
  bin=$(pg_bindir) || true
  if [ -n "$bin" ] && [ -f "$dir/data/postmaster.pid" ]; then
    pg_as "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -f "$dir/server.properties"
}

# pg_wanted ARGS...: true if the arguments name a configuration on the postgresql jar
# (--config NAME, --configs A,B; --preset headline has one; --url jdbc:postgresql:... needs no server of ours)
pg_wanted() {
  local a prev="" names=""
  for a in "$@"; do
    case "$a" in --config=*|--configs=*) names="$names ${a#*=}" ;; --preset=headline) names="$names postgresql" ;; esac
    case "$prev" in --config|--configs) names="$names $a" ;; --preset) [ "$a" = headline ] && names="$names postgresql" ;; esac
    prev=$a
  done
  local n
  for n in ${names//,/ }; do
    [ "$(config_jar "$n")" = postgresql ] && return 0
  done
  return 1
}

# pg_for_run ARGS...: starts the server when the arguments want one and none runs; sets PG_STARTED
# so that the caller's EXIT trap (pg_after_run) stops only what it started
PG_STARTED=""
pg_for_run() {
  pg_wanted "$@" || return 0
  pg_running "$PG_DIR_DEFAULT" && return 0
  pg_start "$PG_DIR_DEFAULT" >/dev/null || { pg_say "cannot start PostgreSQL (see above); the postgresql configuration will be unavailable"; return 0; }
  PG_STARTED=1
}

# pg_after_run: stops the server pg_for_run started, if it did; never fails (an EXIT trap keeps the exit code
# with: trap 'rc=$?; pg_after_run; exit $rc' EXIT)
pg_after_run() {
  if [ -n "$PG_STARTED" ]; then pg_stop "$PG_DIR_DEFAULT" || true; fi
  PG_STARTED=""
  return 0
}
