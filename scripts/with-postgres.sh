#!/usr/bin/env bash
# Run a command against a throw-away PostgreSQL server on 127.0.0.1.
# PostgreSQL refuses to run as root, so the cluster belongs to the
# unprivileged `postgres` user (created by Debian's package) when we are root.
# The port is QIYUAN_PG_PORT (default 54329); when it is taken (another test
# run on this machine) the next free one is used.
# Usage: scripts/with-postgres.sh COMMAND [ARGS…]   (DATABASE_URL is exported)
set -euo pipefail
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
  echo "with-postgres: the PostgreSQL server is not installed (run: bash scripts/system-deps.sh)" >&2
  exit 2
fi
DIR=$(mktemp -d /tmp/qiyuan-pg.XXXXXX)
chmod 755 "$DIR"
if [ "$(id -u)" -eq 0 ]; then
  if ! id postgres >/dev/null 2>&1; then
    echo "with-postgres: running as root but there is no 'postgres' user to own the cluster" >&2
    exit 2
  fi
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
PORT=${QIYUAN_PG_PORT:-54329}
started=""
for _ in $(seq 1 20); do
  if "${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null 2>&1; then
    started=1
    break
  fi
  PORT=$((PORT + 1))  # most likely the port is in use by another cluster
done
if [ -z "$started" ]; then
  echo "with-postgres: the server did not start; its log:" >&2
  cat "$DIR/log" >&2 || true
  exit 2
fi
"${AS[@]}" "$PGBIN/createdb" -h 127.0.0.1 -p "$PORT" -U qiyuan qiyuan
export DATABASE_URL="postgres://qiyuan@127.0.0.1:$PORT/qiyuan"
echo "with-postgres: PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on $DATABASE_URL"
"$@"
