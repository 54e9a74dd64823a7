#!/usr/bin/env bash
# The whole test suite: everything on SQLite with the file cache (browser tests included), and at the same time the
# database-backed tests (tests/office, tests/web) again on a real PostgreSQL server with the Redis cache.
# The two runs share nothing (their own databases, caches and temporary folders), so they run side by side, one
# per core; the PostgreSQL run's output follows the SQLite run's, and the suite fails if either fails.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
mkdir -p test-artifacts
# Bytecode for the sources up front: the tests start hundreds of `qiyuan` processes, and where the environment
# sets PYTHONDONTWRITEBYTECODE (as this build machine's does) each would otherwise compile every module again.
$PY -m compileall -q src tests >/dev/null
DB_TESTS=()
for d in tests/office tests/web; do [ -d "$d" ] && DB_TESTS+=("$d"); done
# Tests that use no database run once, in the PostgreSQL run beside the SQLite one (which is otherwise the longer
# of the two): the readers' fuzz and the event file's process races.
NO_DB=(tests/fuzz/test_readers.py tests/cli/test_event_file_concurrency.py)
IGNORE_NO_DB=()
for t in "${NO_DB[@]}"; do
  if [ -e "$t" ]; then DB_TESTS+=("$t"); IGNORE_NO_DB+=("--ignore=$t"); fi
done
PG_LOG=test-artifacts/postgres-run.log
PG_PID=""
if [ ${#DB_TESTS[@]} -gt 0 ]; then
  ( bash scripts/with-postgres.sh bash scripts/with-redis.sh \
      $PY -m pytest -q -m "not slow and not browser" -p no:cacheprovider --durations=30 "${DB_TESTS[@]}" >"$PG_LOG" 2>&1 ) &
  PG_PID=$!
fi
echo "== qiyuan tests on SQLite (the PostgreSQL run goes on beside it) =="
set +e
$PY -m pytest -q -m "not slow and not postgres" -p no:cacheprovider --durations=30 "${IGNORE_NO_DB[@]}"
SQLITE_RC=$?
PG_RC=0
if [ -n "$PG_PID" ]; then
  wait "$PG_PID"
  PG_RC=$?
  echo "== qiyuan database tests on PostgreSQL, cache on Redis (and the tests that use no database) =="
  cat "$PG_LOG"
fi
set -e
if [ "$SQLITE_RC" -ne 0 ] || [ "$PG_RC" -ne 0 ]; then
  echo "test.sh: SQLite run exit $SQLITE_RC, PostgreSQL run exit $PG_RC" >&2
  exit 1
fi
