"""Office benchmark: import the synthetic federation, publish, verify and correct it — each beside `qiyuan rate`.

    python bench/bench_office.py [--dir DIR] [--players N --games N --years N] [--reference]          # SQLite
    bash scripts/with-postgres.sh .venv/bin/python bench/bench_office.py [--dir DIR] [--reference]    # PostgreSQL

Generates the federation with ``bench/synth_federation.py`` (seeded; by default the 2,000,000-game,
50,000-player, 20-year benchmark federation) unless ``--dir`` holds one, then in one run:

1. `qiyuan rate --rules cga-gomoku-2011` on its files (the baseline, a child process);
2. a fresh office (SQLite file in a temporary directory, or the PostgreSQL database of ``DATABASE_URL``):
   `office import` of the history into a CGA Gomoku list;
3. `office period publish --all` (every due edition, on the fast engine, each with its signed bundle: the
   office has its signing key unless ``--no-bundles``);
4. `office bundles build --rebuild` (every edition's bundle again, from its stored sheet; issue 34's goal ≤ 1×);
5. `office verify` (the tamper check and every edition recomputed);
6. `period correct` of an event 15 years back (a late report of a round robin, imported, then rated by a
   correction carried through the later lists, with their bundles);
7. the integrity checks (`office integrity`, issue 37) of every event of the list at once, each against the
   whole history — the games read from the database, the published lists from their sheets, the flags stored
   (issue 37's goal: ≤ 1×);
8. with ``--reference``: `office verify --engine reference`, which recomputes every edition with the reference
   engine and compares its digests with the ones published on the fast engine (bit for bit, both ways).

Each step prints its wall-clock time and its ratio to `qiyuan rate` measured in the same run (issue 19's
goals: import, publish, verify ≤ 2×, correct ≤ 1.5×; issue 37's: integrity ≤ 1×), and the peak memory of the
process (≤ 2 GiB); for import, publish and correct also the time spent inserting rows in bulk alone (import: the games and standings; publish
and correct: the editions' entries and changes) — the database's part, whichever engine computed them.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
RULES = "cga-gomoku-2011"
GOALS = {"import": 2.0, "publish --all": 2.0, "verify": 2.0, "correct (15 years back)": 1.5,
         "bundles build --rebuild": 1.0, "integrity (every event)": 1.0}


def qiyuan_rate(fed: Path) -> float:
    """Wall-clock seconds of `qiyuan rate` on the federation's files (a child process, as a user runs it)."""
    qiyuan = Path(sys.executable).with_name("qiyuan")
    command = [str(qiyuan)] if qiyuan.exists() else [sys.executable, "-m", "qiyuan.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        args = [*command, "rate", "--rules", RULES, "--players", str(fed / "players.csv"), "--events",
                str(fed / "events.csv"), "--games", str(fed / "games.csv"), "--standings", str(fed / "standings.csv"),
                "--out", str(Path(tmp) / "lists")]
        start = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - start


def peak_mib() -> float:
    """The peak resident memory of this process so far (MiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, help="an existing synthetic federation (history CSV files)")
    ap.add_argument("--players", type=int, default=50_000)
    ap.add_argument("--games", type=int, default=2_000_000)
    ap.add_argument("--years", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reference", action="store_true",
                    help="also verify every edition with the reference engine (slow): digests both ways")
    ap.add_argument("--no-bundles", action="store_true",
                    help="no signing key: publish and correct without bundles, and no bundles build step")
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
    if "DATABASE_URL" not in os.environ:
        os.environ["QIYUAN_HOME"] = str(work)
        (work / "var").mkdir(exist_ok=True)
    os.environ["QIYUAN_KEY_DIR"] = str(work / "keys")
    os.environ["QIYUAN_BUNDLE_DIR"] = str(work / "bundles")
    sys.path.insert(0, str(REPO / "src"))
    import django

    django.setup()
    from django.db import connection

    from qiyuan.office.bundles import build_all
    from qiyuan.office.imports import import_file
    from qiyuan.office.integrity import check_period
    from qiyuan.office.periods import correct_period, publish_due
    from qiyuan.office.ratings.models import RatingList
    from qiyuan.office.setup import init_office
    from qiyuan.office.signing_key import init_key
    from qiyuan.office.verify import verify_all

    load = os.getloadavg()[0]
    print(f"backend {connection.vendor}, {os.cpu_count()} CPU(s), load average {load:.1f} at the start")
    baseline = qiyuan_rate(fed)
    print(f"{'qiyuan rate':26s} {baseline:8.1f} s   (baseline, same files, same run)")
    times: dict[str, float] = {}

    # What inserting rows in bulk takes inside each step (import: the games and standings; publish and correct: the
    # editions' entries and changes): the database's part, which no engine can save.
    from qiyuan.office import sheets as office_sheets
    from qiyuan.office.imports import history as office_history

    storing = [0.0]

    def counted(insert):
        def bulk_insert(*args, **kwargs):
            start = time.perf_counter()
            try:
                return insert(*args, **kwargs)
            finally:
                storing[0] += time.perf_counter() - start
        return bulk_insert

    office_sheets.write_sheet = counted(office_sheets.write_sheet)  # (an edition is stored as its sheet alone)
    office_history.bulk_insert = counted(office_history.bulk_insert)

    def timed(name: str, fn):
        storing[0] = 0.0
        start = time.perf_counter()
        out = fn()
        times[name] = time.perf_counter() - start
        goal = GOALS.get(name)
        ratio = times[name] / baseline
        verdict = "" if goal is None else f"  goal ≤ {goal}×: {'met' if ratio <= goal else 'NOT met'}"
        print(f"{name:26s} {times[name]:8.1f} s   {ratio:6.1f}× qiyuan rate{verdict}   (peak {peak_mib():,.0f} MiB)")
        if storing[0]:
            print(f"  of which storing (rows in bulk, or sheets): {storing[0]:.1f} s "
                  f"({storing[0] / baseline:.1f}× qiyuan rate)")
        return out

    init_office(actor="bench")
    rl = RatingList.objects.create(code="BENCH", title="benchmark", rules_name=RULES)
    result = timed("import", lambda: import_file(fed, rl, "bench", kind="history"))
    if not args.no_bundles:
        init_key("bench")
    editions = timed("publish --all", lambda: publish_due(rl, "bench"))
    entries = sum(office_sheets.size(e) for e in editions)
    changes = sum(len(office_sheets.changes(e, "player")["player"]) for e in editions)
    print(f"  {result.games:,} games, {result.new_players:,} players, {len(result.events):,} events; "
          f"{len(editions)} editions, {entries:,} entries, {changes:,} rating changes")
    if not args.no_bundles:
        bundles = list((work / "bundles").glob("[!.]*.zip"))
        size = sum(p.stat().st_size for p in bundles) / 2**20
        print(f"  {len(bundles)} bundles written with the editions ({size:,.1f} MiB)")
        built = timed("bundles build --rebuild", lambda: build_all(rl, rebuild=True))
        print(f"  {sum(b.built for b in built)} bundles built again from the sheets")
    report = timed("verify", lambda: verify_all(rl))
    print(f"  {report.editions} editions {'identical' if report.ok else 'DIFFERENT: ' + report.differences[0]}")

    last = max(e.list_date for e in editions)
    back = date(last.year - 15, last.month, 1)
    late = work / "late"  # a late report of an event 15 years back, rated by a correction (as the office does)
    late.mkdir()
    (late / "players.csv").write_bytes((fed / "players.csv").read_bytes())
    ids = [line.split(",", 1)[0] for line in (fed / "players.csv").read_text(encoding="utf-8").splitlines()[1:7]]
    end = back.replace(day=10)
    (late / "events.csv").write_text(f"id,name,start_date,end_date,format\nLATE1,迟到的比赛,{end},{end},round_robin\n",
                                     encoding="utf-8")
    rows = [f"LATE1,{n},{a},{b},{'1-0' if n % 3 else '0-1'}" for n, (a, b) in enumerate(
        ((a, b) for i, a in enumerate(ids) for b in ids[i + 1:]), start=1)]
    (late / "games.csv").write_text("event_id,round,player1,player2,result\n" + "\n".join(rows) + "\n", encoding="utf-8")
    import_file(late, rl, "bench", kind="history")
    on = next(e.list_date for e in sorted(editions, key=lambda e: e.list_date) if e.list_date > end)
    corrected = timed("correct (15 years back)", lambda: correct_period(rl, on, "benchmark", "bench"))
    print(f"  LATE1 (ended {end}): {len(corrected)} correction edition(s) from {on}")
    everything = list(rl.events.all())
    again = qiyuan_rate(fed)  # (the machine's load moves: the baseline measured again, just before)
    flags = timed("integrity (every event)", lambda: check_period(rl, last, everything))
    print(f"  every one of {len(everything):,} events checked against the whole list: {len(flags)} flag(s); "
          f"qiyuan rate again just before: {again:.1f} s, integrity {times['integrity (every event)'] / again:.2f}× that")
    if args.reference:
        report = timed("verify --engine reference", lambda: verify_all(rl, engine="reference"))
        print(f"  {report.editions} editions published on the fast engine "
              f"{'identical to the reference engine' if report.ok else 'DIFFERENT: ' + report.differences[0]}"
              f"{'' if report.ok else f' (and {len(report.differences) - 1} more)'}")
    print(f"peak memory of the office process: {peak_mib():,.0f} MiB (goal ≤ 2,048 MiB)")
    connection.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
