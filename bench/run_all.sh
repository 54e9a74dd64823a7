#!/usr/bin/env bash
# Every benchmark of the project (make bench). Each line prints its own figures;
# docs/benchmarks.md records them. Benchmarks live here, never in tests/.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}

# Ratings: synthetic federation (50,000 players, 20 years, 2,000,000 games), then `qiyuan rate` on it.
[ -f bench/out/federation/games.csv ] || "$PY" bench/synth_federation.py --out bench/out/federation
"$PY" bench/bench_rating.py --data bench/out/federation

# Rule sandbox: `qiyuan rules evaluate` (2 rule sets + 4 baselines) on the real history and the synthetic federation.
"$PY" bench/bench_sandbox.py --data bench/out/federation

# Pairing: Gomoku Swiss rounds of 100, 1,000 and 10,000 players; `qiyuan pair` on a 9,999-player file.
"$PY" bench/bench_pairing.py

# Office: import the synthetic federation and publish all its editions (SQLite; PostgreSQL via scripts/with-postgres.sh).
"$PY" bench/bench_office.py --dir bench/out/federation

# The hall: 50 boards reported and confirmed by 100 phones at once (gunicorn, SQLite), beside a trivial page.
"$PY" bench/bench_hall.py --boards 50 --rounds 3

# The event checker: a 200-player 9-round Swiss checked, and generated events with planted changes (issue 35).
"$PY" bench/bench_check.py --events 200
