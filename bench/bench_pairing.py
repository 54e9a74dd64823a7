"""Benchmark of the Gomoku Swiss pairing (qiyuan.tournament.swiss) and of `qiyuan pair`.

Pairs every round of random 9-round events of 100, 1,000 and 10,000 players
with random results (the higher rating wins more often, 5 % draws), then runs
`qiyuan pair EVENT.trf -o OUT.trf` end to end on a 9,999-player file after 8
rounds (start-up, reading and writing the TRF included).

Targets (2-core machine): any round of 10,000 players ≤ 0.2 s in-process;
all 9 rounds of 1,000 players ≤ 0.2 s; `qiyuan pair` on 9,999 players ≤ 0.7 s.

    .venv/bin/python bench/bench_pairing.py [--sizes 100,1000,10000] [--rounds 9] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from qiyuan.formats.trf import read_trf, write_trf  # noqa: E402
from qiyuan.tournament.model import Entrant, Tournament  # noqa: E402
from qiyuan.tournament.swiss import apply_pairing, pair_round  # noqa: E402


def new_event(n: int, rounds: int, rng: random.Random) -> Tournament:
    t = Tournament(name=f"bench {n}", rounds_planned=rounds)
    t.entrants = [Entrant(i, f"P{i}", rating=rng.randint(1600, 2600)) for i in range(1, n + 1)]
    return t


def play(t: Tournament, pairing, rng: random.Random) -> None:
    """Random results for the round just applied: the higher rating wins with the Elo odds."""
    by = {e.number: e for e in t.entrants}
    for b in pairing.boards:
        a, o = by[b.opener], by[b.other]
        ca, co = a.rounds[pairing.round - 1], o.rounds[pairing.round - 1]
        x = rng.random()
        if x < 0.05:
            ca.result = co.result = "="
        else:
            p = 1 / (1 + 10 ** ((o.rating - a.rating) / 400))
            ca.result, co.result = ("1", "0") if rng.random() < p else ("0", "1")


def run_event(
    n: int, rounds: int, seed: int, keep_last_unpaired: bool = False
) -> tuple[Tournament, list[tuple[float, float]]]:
    """A random event paired round by round: the tournament and (wall, CPU) seconds per round."""
    rng = random.Random(seed)
    t = new_event(n, rounds, rng)
    times = []
    for _ in range(rounds - 1 if keep_last_unpaired else rounds):
        t0 = time.perf_counter()
        c0 = time.process_time()
        pairing = pair_round(t)
        times.append((time.perf_counter() - t0, time.process_time() - c0))
        apply_pairing(t, pairing)
        play(t, pairing, rng)
    return t, times


def end_to_end(seed: int, repeats: int = 3) -> tuple[float, float, int, float, float]:
    """`qiyuan pair` on 9,999 players after 8 rounds: best wall and CPU time of ``repeats``, peak RSS
    (KiB), and the in-process read and write times of the file."""
    t, _ = run_event(9_999, 9, seed, keep_last_unpaired=True)
    qiyuan = REPO / ".venv" / "bin" / "qiyuan"
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "event.trf"
        src.write_text(write_trf(t), encoding="utf-8")
        t0 = time.perf_counter()
        back = read_trf(src)
        t_read = time.perf_counter() - t0
        t0 = time.perf_counter()
        write_trf(back)
        t_write = time.perf_counter() - t0
        best = best_cpu = float("inf")
        for _ in range(repeats):
            out = Path(tmp) / "out.trf"
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            proc = subprocess.run([str(qiyuan), "pair", str(src), "-o", str(out)], capture_output=True, text=True)
            wall = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if proc.returncode != 0:
                raise SystemExit(f"qiyuan pair failed: {proc.stderr}")
            best = min(best, wall)
            best_cpu = min(best_cpu, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        first = proc.stdout.split("\n", 1)[0]
        assert int(first) == 5_000, first  # 9,999 players: 4,999 boards and the bye
    peak_child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return best, best_cpu, peak_child, t_read, t_write


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="100,1000,10000")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-cli", action="store_true")
    args = ap.parse_args()
    summary = {}
    for n in (int(x) for x in args.sizes.split(",")):
        _, times = run_event(n, args.rounds, args.seed)
        wall = [w for w, _ in times]
        cpu = [c for _, c in times]
        print(f"{n:>6} players, per-round ms (wall): " + " ".join(f"{x * 1000:7.1f}" for x in wall)
              + f"   max {max(wall) * 1000:.1f}, total {sum(wall) * 1000:.1f}")
        print(f"{'':>6}          per-round ms (CPU):  " + " ".join(f"{x * 1000:7.1f}" for x in cpu)
              + f"   max {max(cpu) * 1000:.1f}, total {sum(cpu) * 1000:.1f}")
        summary[n] = (wall, cpu)
    if 10_000 in summary:
        w, c = max(summary[10_000][0]), max(summary[10_000][1])
        print(f"max round time, 10,000 players: {w:.3f} s wall, {c:.3f} s CPU (target <= 0.2 s) "
              f"{'OK' if w <= 0.2 else 'MISSED'}")
    if 1_000 in summary:
        w, c = sum(summary[1_000][0]), sum(summary[1_000][1])
        print(f"9 rounds of 1,000 players: {w:.3f} s wall, {c:.3f} s CPU (target <= 0.2 s) "
              f"{'OK' if w <= 0.2 else 'MISSED'}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak memory of this process (all events): {peak / 1024:.0f} MiB")
    if not args.skip_cli:
        wall, cpu, child_peak, t_read, t_write = end_to_end(args.seed)
        print(f"read_trf 9,999 players x 8 rounds: {t_read:.3f} s; write_trf: {t_write:.3f} s")
        print(f"qiyuan pair (9,999 players, after 8 rounds, -o): {wall:.3f} s wall, {cpu:.3f} s CPU, best of 3 "
              f"(target <= 0.7 s) {'OK' if wall <= 0.7 else 'MISSED'}; peak memory {child_peak / 1024:.0f} MiB")
    print(f"(load average while measuring: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
