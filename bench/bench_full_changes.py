"""The changes an edition stores, on the fast engine (issue 19, item 1): `compute_history(…, full_changes=True)`.

Measures, in one run and in CPU seconds of this process (``time.process_time``), on a synthetic
federation (``synth_federation.py``), per rule set:

1. the fast engine's numbers alone (``full_changes=False``: the columns);
2. the same with every change as the reference writes it (notes in its order, per-game lines, each
   number's text) — what ``office period publish`` and ``office verify`` use;
3. optionally (``--reference``) the reference engine, which writes those changes itself.

Runs alternate (columns, full, columns, full, …) so both see the same load; the best of ``--repeat`` is
kept. It also counts the changes by kind (notes, lines) and checks, with ``--check``, that the canonical
text of every change is the reference engine's.

    python bench/bench_full_changes.py --data /tmp/fed [--rules cga-gomoku-2011 …] [--repeat 3]
                                       [--reference] [--check]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from qiyuan.formats.canonical_text import change_row, change_text  # noqa: E402
from qiyuan.formats.history_csv import read_history  # noqa: E402
from qiyuan.rating.history import compute_history  # noqa: E402
from qiyuan.rating.rules import load_rules  # noqa: E402


def _cpu(fn) -> tuple[float, object]:
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="a folder with players/events/games/standings.csv")
    parser.add_argument("--rules", nargs="+", default=["cga-gomoku-2011", "bjsh-gomoku-2007", "cn-go-1995"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reference", action="store_true", help="time the reference engine too (slow)")
    parser.add_argument("--check", action="store_true", help="compare every change's text with the reference's")
    args = parser.parse_args(argv)
    files = [args.data / f"{name}.csv" for name in ("players", "events", "games", "standings")]
    data = read_history(*files)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"full changes on the fast engine — {len(data.players):,} players, {len(data.events):,} events, "
          f"{len(data.games):,} games; {os.cpu_count()} CPU(s), load average {load:.1f} at the start (CPU seconds)")
    for name in args.rules:
        rules = load_rules(name)

        def run(full: bool, engine: str = "fast"):
            history = compute_history(rules, data.players, data.events, data.games, data.standings, engine=engine,
                                      full_changes=full)
            return history.changes if full or engine == "reference" else history.change_columns

        columns = full = float("inf")
        changes = []
        for _ in range(args.repeat):
            columns = min(columns, _cpu(lambda: run(False))[0])
            seconds, changes = _cpu(lambda: run(True))
            full = min(full, seconds)
        kinds = Counter("lines" if c.lines else "notes" if c.notes else "plain" for c in changes)
        lines = sum(len(c.lines) for c in changes)
        print(f"{name}: {len(changes):,} changes ({kinds['plain']:,} plain, {kinds['notes']:,} with notes only, "
              f"{kinds['lines']:,} with {lines:,} per-game lines)")
        print(f"   columns {columns:.2f} s; full changes {full:.2f} s ({full / columns:.1f}×; "
              f"{1e6 * (full - columns) / max(len(changes), 1):.0f} µs a change); best of {args.repeat}")
        if args.reference or args.check:
            seconds, reference = _cpu(lambda: run(True, "reference"))
            if args.reference:
                print(f"   reference engine {seconds:.2f} s ({seconds / full:.1f}× the full changes)")
            if args.check:
                differ = sum((a.event_id, a.player_id, change_text(a), change_row(a))
                             != (b.event_id, b.player_id, change_text(b), change_row(b))
                             for a, b in zip(changes, reference)) + abs(len(changes) - len(reference))
                print(f"   canonical text: {'identical' if not differ else f'{differ} changes differ'}")
                if differ:
                    return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
