#!/usr/bin/env bash
# The whole test suite: everything on SQLite with the file cache (browser tests included), then the
# database-backed tests (tests/office, tests/web) again on a real PostgreSQL server with the Redis cache.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
mkdir -p test-artifacts
echo "== qiyuan tests on SQLite =="
$PY -m pytest -q -m "not slow and not postgres" -p no:cacheprovider
DB_TESTS=()
for d in tests/office tests/web; do [ -d "$d" ] && DB_TESTS+=("$d"); done
if [ ${#DB_TESTS[@]} -gt 0 ]; then
  echo "== qiyuan database tests on PostgreSQL, cache on Redis =="
  bash scripts/with-postgres.sh bash scripts/with-redis.sh \
    $PY -m pytest -q -m "not slow and not browser" -p no:cacheprovider "${DB_TESTS[@]}"
fi
