#!/usr/bin/env bash
# Run a command against a throw-away PostgreSQL server on 127.0.0.1.
# PostgreSQL refuses to run as root, so the cluster belongs to the
# unprivileged `postgres` user (created by Debian's package) when we are root.
# Usage: scripts/with-postgres.sh COMMAND [ARGS…]   (DATABASE_URL is exported)
set -euo pipefail
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PORT=${QIYUAN_PG_PORT:-54329}
DIR=$(mktemp -d /tmp/qiyuan-pg.XXXXXX)
chmod 755 "$DIR"
if [ "$(id -u)" -eq 0 ]; then
  chown postgres:postgres "$DIR"
  AS=(runuser -u postgres --)
else
  AS=()
fi
cleanup() {
  "${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap cleanup EXIT
"${AS[@]}" "$PGBIN/initdb" -D "$DIR/data" -U qiyuan --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
"${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
"${AS[@]}" "$PGBIN/createdb" -h 127.0.0.1 -p "$PORT" -U qiyuan qiyuan
export DATABASE_URL="postgres://qiyuan@127.0.0.1:$PORT/qiyuan"
echo "with-postgres: PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on $DATABASE_URL"
"$@"
