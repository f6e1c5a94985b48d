#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and benchmarks of the PostgreSQL store.
#
#   scripts/postgres.sh start DIR   # initdb + pg_ctl start in DIR (a new, empty directory);
#                                   # prints the SPECMINT_TEST_PG value on stdout
#   scripts/postgres.sh stop DIR    # stops it (DIR is then removed by the caller)
#   scripts/postgres.sh pause DIR   # stops it as an outage would (pg_ctl stop -m fast), data kept
#   scripts/postgres.sh resume DIR  # starts it again as `start` configured it
#
# The server listens on a Unix socket in DIR (and by default nowhere else: no TCP port, nothing
# another user of the machine can reach), trusts its connections, and runs without fsync (a throwaway cluster:
# commits are still made, only not flushed, so the tests exercise every transaction path);
# SPECMINT_PG_DURABLE=1 keeps fsync on (the benchmarks' durable-commit figures).
# When the server binaries are missing, Debian's `postgresql` package is installed first,
# which needs root (as `.ci/run` is); without root, install it yourself (`sudo apt-get
# install postgresql`) or put a server's `bin/` (initdb, pg_ctl, postgres) on PATH.
# initdb refuses to run as root, so under root the cluster belongs to the `postgres` user
# (made by Debian's package) and DIR is handed to it.
#
# SPECMINT_TEST_PG is the query part of a libpq URL (`host=DIR&user=NAME`): a test makes a
# database of its own and reaches it as `postgresql:///DB?$SPECMINT_TEST_PG`
# (cli/tests/it/common.rs, `fresh_db`).
#
# TCP and TLS, when `start` is asked (environment):
#   SPECMINT_PG_LISTEN=ADDR   also listen on ADDR (127.0.0.1, a veth address, ...) over TCP;
#   SPECMINT_PG_PORT=N        on port N (default: a free port); DIR/port holds the port used;
#   SPECMINT_PG_CERT=FILE     with ssl = on, this PEM certificate (chain) and
#   SPECMINT_PG_KEY=FILE      its key (both copied into DIR, owned by the server's user).
# With a certificate, TCP connections must use TLS (pg_hba.conf: `hostssl` lines only, so a
# plain TCP connection is refused); without one, TCP is plain. Connections are trusted either
# way (a throwaway cluster): reach it as `postgresql://USER@ADDR:PORT/DB?sslmode=verify-full&
# sslrootcert=CA.pem`.
set -euo pipefail

find_bin() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
    return
  fi
  local newest
  newest=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$newest" ] && [ -x "$newest/initdb" ]; then
    echo "$newest"
  fi
}

cmd=${1:?usage: postgres.sh start|stop|pause|resume DIR}
dir=${2:?usage: postgres.sh start|stop|pause|resume DIR}

bin=$(find_bin)
if [ -z "$bin" ]; then
  if [ "$cmd" = stop ] || [ "$cmd" = pause ]; then
    exit 0
  fi
  if [ "$(id -u)" != 0 ]; then
    echo "postgres.sh: no PostgreSQL server binaries (initdb, pg_ctl) and not root to install them;" >&2
    echo "  install Debian's package (sudo apt-get install postgresql) or put a server's bin/ on PATH" >&2
    exit 1
  fi
  echo "postgres.sh: installing Debian's postgresql package" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends postgresql >&2
  bin=$(find_bin)
  [ -n "$bin" ] || { echo "postgres.sh: postgresql installed but no initdb found" >&2; exit 1; }
fi

# Run a server binary as the cluster's owner: ourselves, or `postgres` when we are root.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

owner=$(id -un)
if [ "$(id -u)" = 0 ]; then
  owner=postgres
fi

case "$cmd" in
  start)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then
      # DIR's parent must let the owner through (mktemp -d's /tmp does).
      chown postgres "$dir"
    fi
    as_owner "$bin/initdb" -D "$dir/data" -U "$owner" -A trust -E UTF8 --no-locale --no-sync >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    # Many test processes connect at once (64 claimers plus the suites' own).
    flush="-c fsync=off -c full_page_writes=off"
    if [ "${SPECMINT_PG_DURABLE:-0}" = 1 ]; then
      flush=""
    fi
    listen=""
    if [ -n "${SPECMINT_PG_LISTEN:-}" ]; then
      port=${SPECMINT_PG_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
      echo "$port" >"$dir/port"
      listen="-c listen_addresses='$SPECMINT_PG_LISTEN' -c port=$port"
      if [ -n "${SPECMINT_PG_CERT:-}" ]; then
        cp "${SPECMINT_PG_CERT}" "$dir/server.crt"
        cp "${SPECMINT_PG_KEY:?SPECMINT_PG_CERT needs SPECMINT_PG_KEY}" "$dir/server.key"
        chmod 600 "$dir/server.key"
        if [ "$(id -u)" = 0 ]; then
          chown postgres "$dir/server.crt" "$dir/server.key"
        fi
        listen="$listen -c ssl=on -c ssl_cert_file='$dir/server.crt' -c ssl_key_file='$dir/server.key'"
        hba="hostssl all all 0.0.0.0/0 trust
hostssl all all ::/0 trust"
      else
        hba="host all all 0.0.0.0/0 trust
host all all ::/0 trust"
      fi
      printf 'local all all trust\n%s\n' "$hba" | as_owner tee "$dir/data/pg_hba.conf" >/dev/null
    else
      listen="-c listen_addresses=''"
    fi
    options="$listen -c unix_socket_directories='$dir' -c max_connections=300 $flush"
    echo "$options" >"$dir/options"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start -o "$options" >&2 \
      || { cat "$dir/server.log" >&2; exit 1; }
    if [ -n "${SPECMINT_PG_LISTEN:-}" ]; then
      # The socket's name carries the port too.
      echo "host=$dir&port=$port&user=$owner"
    else
      echo "host=$dir&user=$owner"
    fi
    ;;
  pause)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  resume)
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start -o "$(cat "$dir/options")" >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    ;;
  *)
    echo "usage: postgres.sh start|stop|pause|resume DIR" >&2
    exit 2
    ;;
esac
