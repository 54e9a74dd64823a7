"""Synthetic histories with known strengths, to check the rule sandbox against the truth (issue 36).

``generate(seed, out)`` writes players.csv, events.csv, games.csv (with the
``black`` column) and truth.csv (each game's true expected score of player1)
for a federation of ``PLAYERS`` (480) players over ``YEARS`` (10) years:

* true strengths (Elo points about 0) move as a random walk of variance
  ``W2`` (10 Elo²) per day — what WHR's w² estimates;
* a man enters at N(0, 180²), a woman (a quarter of the players) at
  N(−100, 180²); half the players are there from the start, the rest enter
  evenly over the years, 150 points weaker on average (the newcomers' prior
  has something to learn); the founders (the first 120) are on the starting
  list, at 2000 + their strength + N(0, 60²) with 30 rated games, everyone
  else is a newcomer;
* ``EVENTS_PER_YEAR`` (6) Swiss events a year of ``FIELD`` (48) players drawn
  from those who have entered, ``ROUNDS`` (8) rounds each, paired by score
  group (top down, no rematch), Black drawn at random;
* a game between Black and White: D = s_B − s_W + ``BLACK_EDGE`` (20), E =
  1/(1 + 10^(−D/400)); a draw with probability min(0.26·√(E(1 − E)), 2·min(E,
  1 − E)) (about 12 % of the games), else Black wins with E − draw/2.

    python bench/synth_history.py OUT_DIR [--seed 1]
"""

from __future__ import annotations

import argparse
import csv
import math
import random
from datetime import date, timedelta
from pathlib import Path

PLAYERS, YEARS, EVENTS_PER_YEAR, FIELD, ROUNDS = 480, 10, 6, 48, 8
W2 = 10.0  # Elo² per day
BLACK_EDGE = 20.0
DRAW = 0.26
FOUNDERS = 120
START = date(2010, 1, 10)


def _pair(order: list[int], met: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """Top-down pairing of ``order`` avoiding rematches where it can (the last resort: a rematch)."""
    left, pairs = list(order), []
    while left:
        a = left.pop(0)
        j = next((k for k, b in enumerate(left) if (min(a, b), max(a, b)) not in met), 0)
        pairs.append((a, left.pop(j)))
    return pairs


def generate(seed: int, out: Path) -> dict[str, Path]:
    rng = random.Random(seed)
    female = [rng.random() < 0.25 for _ in range(PLAYERS)]
    days = YEARS * 365
    entry_day = [0 if i < PLAYERS // 2 else int((i - PLAYERS // 2) / (PLAYERS // 2) * days * 0.9)
                 for i in range(PLAYERS)]
    strength = [rng.gauss(-100.0 if female[i] else 0.0, 180.0) - (150.0 if i >= PLAYERS // 2 else 0.0)
                for i in range(PLAYERS)]
    last = list(entry_day)
    rated = {i: round(2000 + strength[i] + rng.gauss(0, 60)) for i in range(FOUNDERS)}
    out.mkdir(parents=True, exist_ok=True)
    paths = {n: out / f"{n}.csv" for n in ("players", "events", "games", "truth")}
    events, games, truth = [], [], []
    n_events = YEARS * EVENTS_PER_YEAR
    for e in range(n_events):
        day = int(e * days / n_events)
        start = START + timedelta(days=day)
        eid = f"E{e + 1:03d}"
        events.append((eid, f"Synthetic Open {e + 1}", start.isoformat(), (start + timedelta(days=1)).isoformat()))
        pool = [i for i in range(PLAYERS) if entry_day[i] <= day]
        field = rng.sample(pool, min(FIELD, len(pool)))
        for i in field:  # the random walk up to the event's day
            strength[i] += rng.gauss(0.0, math.sqrt(W2 * max(day - last[i], 0)))
            last[i] = day
        score = {i: 0.0 for i in field}
        met: set[tuple[int, int]] = set()
        tiebreak = {i: rng.random() for i in field}
        for rnd in range(1, ROUNDS + 1):
            order = sorted(field, key=lambda i: (-score[i], tiebreak[i]))
            for a, b in _pair(order, met):
                met.add((min(a, b), max(a, b)))
                black_is_a = rng.random() < 0.5
                black, white = (a, b) if black_is_a else (b, a)
                d = strength[black] - strength[white] + BLACK_EDGE
                ex = 1.0 / (1.0 + 10.0 ** (-d / 400.0))
                draw = min(DRAW * math.sqrt(ex * (1.0 - ex)), 2.0 * min(ex, 1.0 - ex))
                u = rng.random()
                s_black = 1.0 if u < ex - draw / 2 else (0.5 if u < ex + draw / 2 else 0.0)
                s_a = s_black if black_is_a else 1.0 - s_black
                score[a] += s_a
                score[b] += 1.0 - s_a
                result = {1.0: "1-0", 0.5: "0.5-0.5", 0.0: "0-1"}[s_a]
                games.append((eid, rnd, f"S{a:03d}", f"S{b:03d}", result, f"S{black:03d}"))
                truth.append((eid, rnd, f"S{a:03d}", f"S{b:03d}", f"{ex if black_is_a else 1.0 - ex:.6f}"))
    with paths["players"].open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "name", "gender", "rating", "games"])
        for i in range(PLAYERS):
            w.writerow([f"S{i:03d}", f"棋手{i:03d}", "F" if female[i] else "M", rated.get(i, ""),
                        30 if i in rated else ""])
    for name, header, rows in (("events", ["id", "name", "start_date", "end_date", "format"],
                                [(*ev, "swiss") for ev in events]),
                               ("games", ["event_id", "round", "player1", "player2", "result", "black"], games),
                               ("truth", ["event_id", "round", "player1", "player2", "expected"], truth)):
        with paths[name].open("w", encoding="utf-8", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    paths = generate(args.seed, args.out)
    print(", ".join(str(p) for p in paths.values()))


if __name__ == "__main__":
    main()
