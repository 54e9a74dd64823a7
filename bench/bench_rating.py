"""Rating benchmark (等级分计算的性能): `qiyuan rate` on the synthetic federation.

Measures, in one run:

1. end to end: the `qiyuan rate --rules cga-gomoku-2011` command on the four
   CSV files, reading and checking them, rating 20 years and writing every
   list and changes.csv (wall time of the process; target ≤ 5 s) — without
   and with `--explain` for the player with the most games, in the same run
   (the explanation's cost; target ≤ 10 % more);
2. the period computation alone (the fast engine on the files already read),
   as games per second (target ≥ 2,000,000 games/s);
3. the fast engine against the reference engine on the same subset (the events
   that ended in the first ``--subset-years`` years), as a ratio (target
   ≥ 20×), after checking that both give the same lists and changes.

    python bench/bench_rating.py [--data bench/out/federation] [--subset-years 2] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from qiyuan.formats.history_csv import read_history  # noqa: E402
from qiyuan.rating.history import compute_history  # noqa: E402
from qiyuan.rating.rules import load_rules  # noqa: E402

RULES = "cga-gomoku-2011"


def _files(data: Path) -> dict[str, Path]:
    return {name: data / f"{name}.csv" for name in ("players", "events", "games", "standings")}


def ensure_data(data: Path) -> None:
    if all(p.exists() for p in _files(data).values()):
        return
    from synth_federation import generate

    print(f"generating the synthetic federation in {data} …", file=sys.stderr)
    generate(data, players=50_000, games=2_000_000, years=20, seed=2011)


def busiest_player(data: Path) -> str:
    """The player id with the most game rows in games.csv."""
    import polars as pl

    games = pl.read_csv(_files(data)["games"], columns=["player1", "player2"], infer_schema=False)
    counts = pl.concat([games["player1"], games["player2"]]).value_counts(sort=True)
    return counts.row(0)[0]


def end_to_end(data: Path, *extra: str) -> float:
    files = _files(data)
    qiyuan = Path(sys.executable).with_name("qiyuan")
    command = [str(qiyuan) if qiyuan.exists() else sys.executable, *([] if qiyuan.exists() else ["-m", "qiyuan.cli"])]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "lists"
        args = [*command, "rate", "--rules", RULES, "--players", str(files["players"]), "--events",
                str(files["events"]), "--games", str(files["games"]), "--standings", str(files["standings"]),
                "--out", str(out), *extra]
        start = time.perf_counter()
        child = os.times()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        after = os.times()
        cpu = (after.children_user - child.children_user) + (after.children_system - child.children_system)
        lists = len(list(out.glob("*-*-*.csv")))
    print(f"   {lists} lists + changes.csv written; CPU time of the process {cpu:.2f} s (all threads)")
    return wall


def _core(change):
    return (change.player_id, change.event_id, change.list_date, change.games, change.W, change.We, change.K,
            change.delta, change.method)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE / "out" / "federation")
    parser.add_argument("--subset-years", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3, help="runs of the period computation (best is kept)")
    args = parser.parse_args(argv)
    ensure_data(args.data)
    rules = load_rules(RULES)
    cpus = os.cpu_count()

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"qiyuan rating benchmark — {RULES}, {cpus} CPU(s), load average {load:.1f} at the start")
    print("1. end to end (`qiyuan rate`, read + check + rate + write):")
    who = busiest_player(args.data)
    plain = explained = float("inf")
    for _ in range(args.repeat):  # alternate, so both see the same machine
        plain = min(plain, end_to_end(args.data))
        explained = min(explained, end_to_end(args.data, "--explain", who))
    print(f"   wall time {plain:.2f} s  (target ≤ 5 s; best of {args.repeat})")
    print(f"   with --explain {who} (the player with the most games): {explained:.2f} s → "
          f"+{100 * (explained - plain) / plain:.1f} %  (target ≤ 10 %)")

    files = _files(args.data)
    start = time.perf_counter()
    data = read_history(files["players"], files["events"], files["games"], files["standings"])
    read_s = time.perf_counter() - start
    n_games = len(data.games)
    print(f"2. period computation ({len(data.players):,} players, {len(data.events):,} events, {n_games:,} games; "
          f"files read and checked in {read_s:.2f} s):")
    best = best_cpu = float("inf")
    for _ in range(args.repeat):
        start, cpu = time.perf_counter(), time.process_time()
        history = compute_history(rules, data.players, data.events, data.games, data.standings)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    print(f"   fast engine {best:.2f} s wall ({best_cpu:.2f} s CPU) for {len(history.list_dates)} lists → "
          f"{n_games / best:,.0f} games/s wall, {n_games / best_cpu:,.0f} games/s CPU (target ≥ 2,000,000)")

    first_end = min(e.end_date for e in data.events)
    limit = date(first_end.year + args.subset_years, first_end.month, 1)
    events = [e for e in data.events if e.end_date < limit]
    keep = {e.id for e in events}
    import numpy as np

    mask = np.isin(np.array(data.games.event_ids)[data.games.event], list(keep))
    games = data.games.take(mask)
    standings = [s for s in data.standings if s.event_id in keep]
    print(f"3. fast engine vs reference engine on the first {args.subset_years} years "
          f"({len(events):,} events, {len(games):,} games):")
    fast_s = float("inf")
    for _ in range(args.repeat):
        start = time.process_time()
        fast = compute_history(rules, data.players, events, games, standings, engine="fast")
        fast_s = min(fast_s, time.process_time() - start)
    start = time.process_time()
    reference = compute_history(rules, data.players, events, games, standings, engine="reference")
    ref_s = time.process_time() - start
    same = [_core(c) for c in fast.changes] == [_core(c) for c in reference.changes] and \
        [(x.date, x.entries) for x in fast.lists] == [(x.date, x.entries) for x in reference.lists] and \
        fast.final_states == reference.final_states
    print(f"   CPU time: reference {ref_s:.2f} s, fast {fast_s:.3f} s → ratio {ref_s / fast_s:.0f}×  (target ≥ 20×); "
          f"identical results: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
