"""The real Chinese history (59 national Renju/Gomoku events 2009–2019) as the history CSV files.

Reads ``../shared/data/renju-cn-games.tsv`` (tagged lines, see its README) and
writes players.csv, events.csv and games.csv for ``qiyuan rate`` and
``qiyuan rules evaluate``:

* events keep their ids, names and dates; an event in which every pair of its
  players met exactly once is a round robin, every other one a Swiss;
* games: black is player1 (``B`` → 1-0, ``W`` → 0-1, ``D`` → draw), and the
  ``black`` column says so (the sandbox measures Black's advantage); the
  play-off and final rounds (``R``, ``T``, ``F1``–``F3``) become rounds
  90–94, after the numbered rounds;
* players: the file has no ratings, so a founding list is assumed — every
  player of the first national event (the 1st National Mind Sports Games,
  November 2009) starts at 2000 with 30 rated games; everyone else is a
  newcomer. A player who played in a women's group is F, others M.

    python bench/real_history.py OUT_DIR [--tsv PATH]
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from itertools import combinations
from pathlib import Path

HERE = Path(__file__).resolve().parent
TSV = HERE.parent.parent / "shared" / "data" / "renju-cn-games.tsv"
RESULT = {"B": "1-0", "W": "0-1", "D": "0.5-0.5"}
EXTRA_ROUNDS = {"R": 90, "T": 91, "F1": 92, "F2": 93, "F3": 94}
FOUNDING_EVENT = "1st National Mind Sports Games of China"
FOUNDER_RATING, FOUNDER_GAMES = 2000, 30


def write_real_history(out: Path, tsv: Path = TSV) -> dict[str, Path]:
    """Write the three files into ``out``; return their paths by name (players, events, games)."""
    events: dict[str, list[str]] = {}
    games: dict[str, list[tuple[int, str, str, str]]] = defaultdict(list)
    for line in tsv.read_text(encoding="utf-8").splitlines():
        cells = line.split("\t")
        if cells[0] == "tournament":
            tid, name, start, end = cells[1], cells[2], cells[5], cells[6]
            events[tid] = [tid, name, start, end]
        elif cells[0] == "game":
            _, _, tid, rnd, _, black, white, result = cells
            games[tid].append((int(rnd) if rnd.isdigit() else EXTRA_ROUNDS[rnd], f"R{black}", f"R{white}",
                               RESULT[result]))
    women, founders = set(), set()
    for tid, rows in games.items():
        field = {p for _, a, b, _ in rows for p in (a, b)}
        if "Women" in events[tid][1]:
            women |= field
        if events[tid][1].startswith(FOUNDING_EVENT):
            founders |= field
    out.mkdir(parents=True, exist_ok=True)
    paths = {name: out / f"{name}.csv" for name in ("players", "events", "games")}
    with paths["events"].open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "name", "start_date", "end_date", "format"])
        for tid, (eid, name, start, end) in sorted(events.items(), key=lambda kv: (kv[1][3], kv[0])):
            rows = games[tid]
            field = {p for _, a, b, _ in rows for p in (a, b)}
            pairs = {frozenset((a, b)) for _, a, b, _ in rows}
            round_robin = bool(rows) and len(rows) == len(pairs) == len(list(combinations(field, 2)))
            w.writerow([eid, name, start, end, "round_robin" if round_robin else "swiss"])
    with paths["games"].open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["event_id", "round", "player1", "player2", "result", "black"])
        for tid in sorted(games):
            for rnd, a, b, result in games[tid]:
                w.writerow([tid, rnd, a, b, result, a])
    ids = sorted({p for rows in games.values() for _, a, b, _ in rows for p in (a, b)})
    with paths["players"].open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "name", "gender", "rating", "games"])
        for p in ids:
            founder = p in founders
            w.writerow([p, f"棋手{p[1:]}", "F" if p in women else "M",
                        FOUNDER_RATING if founder else "", FOUNDER_GAMES if founder else ""])
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--tsv", type=Path, default=TSV)
    args = parser.parse_args(argv)
    if not args.tsv.exists():
        print(f"{args.tsv}: no such file", file=sys.stderr)
        return 2
    for path in write_real_history(args.out, args.tsv).values():
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
