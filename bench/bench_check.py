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
from qiyuan.tournament.check.plant import plant_opener, plant_swap, plant_tiebreak
from qiyuan.tournament.state import rounds_paired


def big_swiss() -> None:
    t = generate_event("swiss", 20261206, players=200, rounds=9)
    cpu, wall = time.process_time(), time.perf_counter()
    v = check_event(t)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"200 players, {v.rounds} rounds, Gomoku Swiss: {v.status} in {cpu:.2f} s CPU ({wall:.2f} s wall); "
          f"target ≤ 2 s: {'met' if cpu <= 2 else 'MISSED'}")


def sweep(events: int) -> None:
    rng = random.Random(35)
    agree = 0
    planted = {"repeat": [0, 0], "score": [0, 0], "opener": [0, 0], "tie-break": [0, 0], "equal": [0, 0]}
    cpu = time.process_time()
    for k in range(events):
        fmt = GENERATED[k % len(GENERATED)]
        t = generate_event(fmt, rng.randrange(10**9), players=rng.randint(8, 200 if fmt == "swiss" else 24),
                           rounds=rng.randint(5, 11))
        agree += check_event(t).status == "consistent"
        if fmt != "swiss":
            continue
        last = rounds_paired(t)
        for kind in planted:
            u = copy.deepcopy(t)
            if kind in ("repeat", "score", "equal"):
                done = plant_swap(u, last, kind)
            elif kind == "opener":
                done = plant_opener(u, last, 1)
            else:
                done = plant_tiebreak(u)
            if done is None:
                continue
            v = check_event(u)
            planted[kind][0] += 1
            if kind == "equal":
                planted[kind][1] += v.status == "consistent"
            else:
                planted[kind][1] += any(d.rule == kind or (kind == "score" and d.rule == "float")
                                        for d in v.deviations)
    cpu = time.process_time() - cpu
    print(f"{events} generated events ({', '.join(GENERATED)}; 8-200 players, 5-11 rounds): checker and engine agree "
          f"on {100 * agree / events:.1f} % ({cpu:.1f} s CPU)")
    for kind, (n, ok) in planted.items():
        what = "read consistent" if kind == "equal" else "named"
        print(f"  planted {kind:9}: {ok}/{n} {what} ({100 * ok / max(n, 1):.1f} %)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=200)
    args = ap.parse_args()
    big_swiss()
    sweep(args.events)


if __name__ == "__main__":
    main()
