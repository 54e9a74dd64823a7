"""Rule sandbox benchmark (规则沙盘的性能): `qiyuan rules evaluate` with two rule sets and the four baselines.

Measures, in one run, on the real Chinese history (59 events, ../shared/data,
written as history CSV files by bench/real_history.py) and on the synthetic
2,000,000-game federation (bench/synth_federation.py):

1. end to end: the `qiyuan rules evaluate --rules cga-gomoku-2011 --rules
   bjsh-gomoku-2007` process (reading and checking the files, two rule sets'
   histories, constant, elo, glicko2, whr, the table); targets ≤ 10 s (real)
   and ≤ 120 s (synthetic);
2. the baseline beside it: the `qiyuan rate --rules cga-gomoku-2011` process on
   the same files (one rule set's history, written);
3. where the time goes (in process): reading, each rule set, the burn-in tuning, each baseline.

The real history is predicted from 2012-01-01 (the burn-in before it tunes the baselines).

    python bench/bench_sandbox.py [--data bench/out/federation] [--no-synthetic] [--no-breakdown]
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

from bench_rating import ensure_data  # noqa: E402
from real_history import TSV, write_real_history  # noqa: E402

from qiyuan.formats.history_csv import read_history  # noqa: E402
from qiyuan.rating.rules import load_rules  # noqa: E402
from qiyuan.sandbox.evaluate import evaluate  # noqa: E402

RULES = ("cga-gomoku-2011", "bjsh-gomoku-2007")


def _command() -> list[str]:
    qiyuan = Path(sys.executable).with_name("qiyuan")
    return [str(qiyuan)] if qiyuan.exists() else [sys.executable, "-m", "qiyuan.cli"]


def _history_args(files: dict[str, Path]) -> list[str]:
    args = ["--players", str(files["players"]), "--events", str(files["events"]), "--games", str(files["games"])]
    if files.get("standings") and files["standings"].exists():
        args += ["--standings", str(files["standings"])]
    return args


def _timed(args: list[str]) -> tuple[float, float, str]:
    """Wall and CPU time (all threads) of a child process, and its standard output."""
    start, before = time.perf_counter(), os.times()
    done = subprocess.run(args, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, done.stdout


def measure(label: str, files: dict[str, Path], target: float, breakdown: bool, from_date: str | None = None) -> bool:
    rule_args = [a for name in RULES for a in ("--rules", name)] + (["--from", from_date] if from_date else [])
    wall, cpu, out = _timed([*_command(), "rules", "evaluate", *rule_args, *_history_args(files)])
    print(f"{label}:")
    print("   " + "\n   ".join(line for line in out.splitlines() if line.strip()))
    print(f"   1. `qiyuan rules evaluate` (2 rule sets + 4 baselines): wall {wall:.2f} s, CPU {cpu:.2f} s "
          f"(target ≤ {target:.0f} s)")
    with tempfile.TemporaryDirectory() as tmp:
        rate_wall, rate_cpu, _ = _timed([*_command(), "rate", "--rules", RULES[0], *_history_args(files),
                                         "--out", str(Path(tmp) / "lists")])
    print(f"   2. baseline `qiyuan rate --rules {RULES[0]}`: wall {rate_wall:.2f} s, CPU {rate_cpu:.2f} s")
    if breakdown:
        start = time.perf_counter()
        data = read_history(files["players"], files["events"], files["games"], files.get("standings"))
        marks = [("reading and checking the files", time.perf_counter() - start)]
        began: dict[str, float] = {}

        def progress(stage: str, done: int, total: int) -> None:
            began.setdefault(stage, time.perf_counter())

        t0 = time.perf_counter()
        evaluate([load_rules(r) for r in RULES], data.players, data.events, data.games, data.standings,
                 from_date=date.fromisoformat(from_date) if from_date else None, progress=progress)
        end = time.perf_counter()
        stages = sorted(began.items(), key=lambda kv: kv[1])
        for (stage, at), nxt in zip(stages, [*(t for _, t in stages[1:]), end]):
            marks.append((stage, nxt - at))
        marks.append(("the game set (before the first stage)", (end - t0) - sum(t for _, t in marks[1:])))
        print("   3. in process: " + "; ".join(f"{name} {secs:.2f} s" for name, secs in marks))
    return wall <= target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE / "out" / "federation")
    parser.add_argument("--no-synthetic", action="store_true", help="only the real history")
    parser.add_argument("--no-breakdown", action="store_true", help="skip the in-process breakdown")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"qiyuan rule sandbox benchmark — {os.cpu_count()} CPU(s), load average {load:.1f} at the start")
    ok = True
    if TSV.exists():
        with tempfile.TemporaryDirectory() as tmp:
            files = write_real_history(Path(tmp) / "real")
            ok &= measure("real history (59 events 2009–2019, 4,644 games), from 2012-01-01 (issue 25's protocol)",
                          files, 10, not args.no_breakdown, "2012-01-01")
    else:
        print(f"real history: {TSV} is not here; skipped")
    if not args.no_synthetic:
        ensure_data(args.data)
        files = {name: args.data / f"{name}.csv" for name in ("players", "events", "games", "standings")}
        ok &= measure("synthetic federation (50,000 players, 20 years, 2,000,000 games)", files, 120,
                      not args.no_breakdown)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
