"""Time the Gomoku Swiss pairing core in-process (``pair_round`` only).

Random events of 100, 1,000 and 10,000 players, 9 rounds, random results
(10 % draws). Prints per event the wall-clock and CPU time (the CPU time is
the fair figure on a machine shared with other jobs) of the slowest round and
of all rounds, and how many rounds needed the look-ahead.

    .venv/bin/python bench/bench_pairing_core.py [--sizes 100,1000,10000] [--seeds 3]
"""

from __future__ import annotations

import argparse
import random
import time

from qiyuan.tournament import swiss
from qiyuan.tournament.model import Entrant, Tournament


def play_event(n: int, rounds: int, seed: int) -> tuple[list[float], list[float], int]:
    rng = random.Random(seed)
    t = Tournament(name="bench", entrants=[Entrant(number=i, name=f"P{i}") for i in range(1, n + 1)])
    by = {e.number: e for e in t.entrants}
    times: list[float] = []
    cpus: list[float] = []
    exact = 0
    runs: list[bool] = []
    original = swiss._Procedure.run

    def run(self: swiss._Procedure) -> None:
        original(self)
        runs.append(self.witness is not None)

    swiss._Procedure.run = run  # type: ignore[method-assign]
    try:
        for _ in range(rounds):
            runs.clear()
            start, cpu = time.perf_counter(), time.process_time()
            p = swiss.pair_round(t)
            times.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
            exact += any(runs)
            swiss.apply_pairing(t, p)
            for b in p.boards:
                x = rng.random()
                ra, rb = ("=", "=") if x < 0.1 else (("1", "0") if x < 0.55 else ("0", "1"))
                by[b.opener].rounds[-1].result = ra
                by[b.other].rounds[-1].result = rb
    finally:
        swiss._Procedure.run = original  # type: ignore[method-assign]
    return times, cpus, exact


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="100,1000,10000")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
    for n in map(int, args.sizes.split(",")):
        for seed in range(args.seeds):
            times, cpus, exact = play_event(n, args.rounds, seed)
            print(
                f"n={n:>6} seed={seed}: wall total {sum(times):.3f}s slowest {max(times):.3f}s | "
                f"CPU total {sum(cpus):.3f}s slowest {max(cpus):.3f}s | "
                f"look-ahead rounds {exact}/{args.rounds} | CPU per round "
                + " ".join(f"{x:.3f}" for x in cpus)
            )


if __name__ == "__main__":
    main()
