"""Office benchmark: import the 2,000,000-game synthetic federation and publish all its editions.

    python bench/bench_office.py [--dir DIR] [--players N --games N --years N]            # SQLite
    bash scripts/with-postgres.sh .venv/bin/python bench/bench_office.py [--dir DIR]      # PostgreSQL

Generates the federation with ``bench/synth_federation.py`` (seeded) unless
``--dir`` holds one, builds a fresh office (SQLite file in a temporary
directory, or the PostgreSQL database of ``DATABASE_URL``), imports the
history into a CGA Gomoku list, publishes every due edition, optionally
verifies them all (``--verify``), and prints the times and the size on disk.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, help="an existing synthetic federation (history CSV files)")
    ap.add_argument("--players", type=int, default=50_000)
    ap.add_argument("--games", type=int, default=2_000_000)
    ap.add_argument("--years", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verify", action="store_true", help="also verify every edition (recompute all)")
    args = ap.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="qiyuan-bench-office-"))
    fed = args.dir
    if fed is None:
        fed = work / "federation"
        t = time.perf_counter()
        subprocess.run([sys.executable, str(HERE / "synth_federation.py"), "--out", str(fed), "--players",
                        str(args.players), "--games", str(args.games), "--years", str(args.years), "--seed",
                        str(args.seed)], check=True, stdout=subprocess.DEVNULL)
        print(f"generated the synthetic federation in {time.perf_counter() - t:.1f} s")

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "qiyuan.web.settings")
    pg = "DATABASE_URL" in os.environ
    if not pg:
        os.environ["QIYUAN_HOME"] = str(work)
        (work / "var").mkdir(exist_ok=True)
    sys.path.insert(0, str(REPO / "src"))
    import django

    django.setup()
    from django.db import connection

    from qiyuan.office.setup import init_office
    from qiyuan.office.ratings.models import RatingList
    from qiyuan.office.imports import import_file
    from qiyuan.office.periods import publish_due
    from qiyuan.office.verify import verify_all

    backend = connection.vendor
    init_office(actor="bench")
    rl = RatingList.objects.create(code="BENCH", title="benchmark", rules_name="cga-gomoku-2011")
    c0 = time.process_time()
    t0 = time.perf_counter()
    result = import_file(fed, rl, "bench", kind="history")
    t1 = time.perf_counter()
    c1 = time.process_time()
    editions = publish_due(rl, "bench")
    t2 = time.perf_counter()
    c2 = time.process_time()
    entries = sum(e.entries.count() for e in editions)
    changes = sum(e.changes.count() for e in editions)
    print(f"backend: {backend}")
    print(f"import:  {result.games:,} games, {result.new_players:,} players, {len(result.events):,} events "
          f"in {t1 - t0:.1f} s (CPU {c1 - c0:.1f} s)")
    print(f"publish: {len(editions)} editions ({entries:,} entries, {changes:,} rating changes) in {t2 - t1:.1f} s "
          f"(CPU {c2 - c1:.1f} s)")
    print(f"total:   {t2 - t0:.1f} s wall, {c2 - c0:.1f} s CPU (import + publish)")
    if args.verify:
        t3 = time.perf_counter()
        report = verify_all(rl)
        print(f"verify:  {report.editions} editions {'identical' if report.ok else 'DIFFERENT'} "
              f"in {time.perf_counter() - t3:.1f} s")
    connection.close()
    if backend == "sqlite":
        db = work / "var" / "qiyuan.sqlite3"
        print(f"size on disk: {db.stat().st_size / 1e6:.0f} MB ({db})")
    else:
        with connection.cursor() as cur:
            cur.execute("SELECT pg_database_size(current_database())")
            print(f"size on disk: {cur.fetchone()[0] / 1e6:.0f} MB (PostgreSQL database)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
