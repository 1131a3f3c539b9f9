#!/usr/bin/env bash
# Start a throw-away PostgreSQL cluster (Debian's packages) as an unprivileged user on a
# loopback port and print its URL. Usage: URL=$(bash .ci/postgres.sh start DIR PORT);
# bash .ci/postgres.sh stop DIR.
set -euo pipefail
action=$1 dir=$2 port=${3:-55432}
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
owner=postgres
id "$owner" >/dev/null 2>&1 || owner=nobody
run() { if [ "$(id -u)" = 0 ]; then runuser -u "$owner" -- "$@"; else "$@"; fi; }
case $action in
  start)
    mkdir -p "$dir"
    chmod a+rx "$(dirname "$dir")"
    if [ "$(id -u)" = 0 ]; then chown "$owner" "$dir"; fi
    run "$bin/initdb" -D "$dir/data" -A trust -U hasamigo >/dev/null
    run "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
    run "$bin/createdb" -h 127.0.0.1 -p "$port" -U hasamigo hasamigo_test
    echo "postgresql://hasamigo@127.0.0.1:$port/hasamigo_test"
    ;;
  stop)
    run "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null || true
    ;;
esac
