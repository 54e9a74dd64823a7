#!/usr/bin/env bash
# Run a command against a throw-away Redis server on 127.0.0.1 (the portal's shared cache in tests).
# The port is QIYUAN_REDIS_PORT (default 63790); when it is taken the next free one is used. No data is
# written to disk. Usage: scripts/with-redis.sh COMMAND [ARGS…]   (REDIS_URL is exported)
set -euo pipefail
if ! command -v redis-server >/dev/null 2>&1; then
  echo "with-redis: redis-server is not installed (run: bash scripts/system-deps.sh)" >&2
  exit 2
fi
DIR=$(mktemp -d /tmp/qiyuan-redis.XXXXXX)
PORT=${QIYUAN_REDIS_PORT:-63790}
PID=""
cleanup() {
  if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
  rm -rf "$DIR"
}
trap cleanup EXIT
for _ in $(seq 1 20); do
  redis-server --bind 127.0.0.1 --port "$PORT" --save "" --appendonly no --dir "$DIR" \
    --logfile "$DIR/log" --daemonize no &
  PID=$!
  for _ in $(seq 1 50); do
    if redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null | grep -q PONG; then break 2; fi
    if ! kill -0 "$PID" 2>/dev/null; then break; fi
    sleep 0.1
  done
  kill "$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
  PID=""
  PORT=$((PORT + 1))  # most likely the port is in use
done
if [ -z "$PID" ]; then
  echo "with-redis: the server did not start; its log:" >&2
  cat "$DIR/log" >&2 || true
  exit 2
fi
export REDIS_URL="redis://127.0.0.1:$PORT/0"
echo "with-redis: Redis $(redis-server --version | awk '{print $3}') on $REDIS_URL"
"$@"
