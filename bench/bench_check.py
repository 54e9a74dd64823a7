"""The event checker (issue 35): a 200-player 9-round Gomoku Swiss checked (target ≤ 2 s), and a sweep of generated
events — the checker agrees with the engine on every one, names every planted change that breaks a rule or worsens
a criterion, and reads swaps of equal cost as consistent.

CPU time (``time.process_time``) is the fair figure on a machine shared with other jobs; wall time is printed too.

    .venv/bin/python bench/bench_check.py [--events 200]   # the issue's figure: --events 10000
"""

from __future__ import annotations

import argparse
import copy
import random
import time

from qiyuan.tournament.check import check_event
from qiyuan.tournament.check.generate import GENERATED, generate_event
from qiyuan.tournament.check.plant import boards, plant_keep_apart, plant_opener, plant_swap, plant_table, plant_tiebreak
from qiyuan.tournament.state import rounds_paired
from qiyuan.tournament.systems import system_named


def big_swiss() -> None:
    t = generate_event("swiss", 20261206, players=200, rounds=9)
    cpu, wall = time.process_time(), time.perf_counter()
    v = check_event(t)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"200 players, {v.rounds} rounds, Gomoku Swiss: {v.status} in {cpu:.2f} s CPU ({wall:.2f} s wall); "
          f"target ≤ 2 s: {'met' if cpu <= 2 else 'MISSED'}")


#: players of a round robin whose rounds fall in 5-11
ROUND_ROBIN_PLAYERS = {"round_robin": (6, 12), "double_round_robin": (4, 6)}


def _field(fmt: str, rng: random.Random) -> tuple[int, int]:
    """Players and rounds of one generated event: 8-200 players and 5-11 rounds where the system lets both be
    chosen; a round robin sized so its rounds fall in 5-11 (single 6-12 players, double 4-6), a match 2 players."""
    rounds = rng.randint(5, 11)
    if system_named(fmt).round_robin:
        return rng.randint(*ROUND_ROBIN_PLAYERS.get(fmt, (6, 12))), rounds
    return rng.randint(8, 200), rounds


def _plant(kind: str, u, last: int):
    if kind in ("repeat", "score", "equal"):
        return plant_swap(u, last, kind)
    if kind == "opener":
        return plant_opener(u, last, 1)
    if kind == "keep-apart":  # the latest round the rule covers where a swap of equal cost breaks it
        return next((w for r in range(last, 0, -1) if (w := plant_keep_apart(u, r)) is not None), None)
    if kind == "table":  # the last round with two boards (a knock-out's final has one)
        return plant_table(u, max((r for r in range(1, last + 1) if len(boards(u, r)) >= 2), default=last))
    return plant_tiebreak(u)


#: the planted changes tried on each system's events (Swiss: every kind, keep-apart where the generator set the
#: rule; a fixed pairing: a swap between boards and an opener error; Go: a swap making a repeat meeting)
PLANTS = {"swiss": ("repeat", "score", "opener", "tie-break", "keep-apart", "equal"), "go_mcmahon": ("repeat",),
          "go_swiss": ("repeat",)}
FIXED_PLANTS = ("table", "opener")


def sweep(events: int) -> None:
    rng = random.Random(35)
    agree = {fmt: [0, 0, 0.0] for fmt in GENERATED}
    planted: dict[tuple[str, str], list[int]] = {}
    cpu = time.process_time()
    for k in range(events):
        fmt = GENERATED[k % len(GENERATED)]
        players, rounds = _field(fmt, rng)
        t = generate_event(fmt, rng.randrange(10**9), players=players, rounds=rounds)
        c0 = time.process_time()
        v = check_event(t)
        agree[fmt][2] += time.process_time() - c0
        agree[fmt][0] += 1
        agree[fmt][1] += v.status == "consistent"
        last = rounds_paired(t)
        for kind in PLANTS.get(fmt, FIXED_PLANTS):
            u = copy.deepcopy(t)
            if _plant(kind, u, last) is None:
                continue
            v = check_event(u)
            n = planted.setdefault((fmt, kind), [0, 0])
            n[0] += 1
            if kind == "equal":
                n[1] += v.status == "consistent"
            elif kind == "table":
                n[1] += any(d.rule in ("table", "bracket", "pairing", "bye") for d in v.deviations)
            else:
                n[1] += any(d.rule == kind or (kind == "score" and d.rule == "float") for d in v.deviations)
    cpu = time.process_time() - cpu
    total = sum(a[0] for a in agree.values())
    ok = sum(a[1] for a in agree.values())
    print(f"{events} generated events ({', '.join(GENERATED)}): checker and engine agree on "
          f"{100 * ok / max(total, 1):.1f} % ({cpu:.1f} s CPU in all, generating and planting included)")
    for fmt, (n, good, secs) in agree.items():
        print(f"  {fmt:18}: {good}/{n} consistent, checked in {secs / max(n, 1):.3f} s CPU each on average")
    for (fmt, kind), (n, good) in sorted(planted.items()):
        what = "read consistent" if kind == "equal" else "named"
        print(f"  planted {kind:10} in {fmt:18}: {good}/{n} {what} ({100 * good / max(n, 1):.1f} %)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=200)
    args = ap.parse_args()
    big_swiss()
    sweep(args.events)


if __name__ == "__main__":
    main()
