"""Benchmark of the McMahon pairing for Go (qiyuan.tournament.mcmahon) beside the Gomoku Swiss, same field, same run.

A field of 1,000 players (grades 25k…7d, McMahon bar 3d, floor 20k, handicap by
rank less 1, at most 9) plays rounds 1-4 by McMahon pairing with random results
(the stronger player wins more often); then round 5 is paired

* by McMahon (``pair_go_round``), and
* by the Gomoku Swiss (``swiss.pair_round``) on a copy of the same event (the same
  players, the same games, Gomoku points),

and the wall and CPU times of both are printed, median of ``--repeats``; then both event files are written
and paired by the command line, ``qiyuan pair`` (a process each, start-up and reading the file included),
the median wall time of each printed beside the other (issue 31: a McMahon round of 2,000 players within
3 s wall beside a 2,000-player Swiss ``qiyuan pair`` in the same run).

    .venv/bin/python bench/bench_mcmahon.py [--players 2000] [--rounds 4] [--repeats 3] [--seed 1] [--no-cli]
"""

from __future__ import annotations

import argparse
import copy
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from qiyuan.formats.trf import write_trf  # noqa: E402
from qiyuan.tournament import go  # noqa: E402
from qiyuan.tournament.eventfile import new_event, set_round  # noqa: E402
from qiyuan.tournament.mcmahon import pair_go_round, record_handicaps  # noqa: E402
from qiyuan.tournament.model import Entrant, PointSystem  # noqa: E402
from qiyuan.tournament.swiss import pair_round  # noqa: E402


def field(n: int, rounds: int, seed: int):
    rng = random.Random(seed)
    t = new_event("bench", fmt="go_mcmahon", rounds=rounds + 1)
    s = go.settings(t)
    s.bar, s.floor, s.hd_basis, s.hd_none_from = 2, -20, "rank", 0
    go.set_settings(t, s)
    ranks = {}
    for i in range(1, n + 1):
        t.entrants.append(Entrant(i, f"P{i}", rating=rng.randint(1000, 2700), club=f"C{rng.randint(1, 60)}"))
        ranks[i] = rng.randint(-25, 6)
    ps = go.players(t)
    for i, r in ranks.items():
        ps[i].grade = ps[i].rank = r
    go.set_players(t, ps)
    for rnd in range(1, rounds + 1):
        p = pair_go_round(t, rnd)
        set_round(t, rnd, [(b.black, b.white) for b in p.boards], p.bye)
        record_handicaps(t, rnd)
        for b in p.boards:
            cb, cw = t.entrants[b.black - 1].rounds[rnd - 1], t.entrants[b.white - 1].rounds[rnd - 1]
            gap = ranks[b.white] - ranks[b.black] - b.handicap  # what the stones left uncompensated
            black_wins = rng.random() < 1 / (1 + 10 ** (gap / 4))
            cb.result, cw.result = ("1", "0") if black_wins else ("0", "1")
    return t


def median(fn, repeats: int) -> tuple[float, float, object]:
    walls, cpus, out = [], [], None
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus), out


def cli_pair(path: Path) -> tuple[float, float]:
    """Wall and CPU time of ``qiyuan pair FILE`` in its own process (start-up, reading, pairing, printing)."""
    qiyuan = Path(sys.executable).with_name("qiyuan")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([str(qiyuan), "pair", str(path)], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=4, help="rounds played before the round timed")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-cli", action="store_true", help="only the pairings in this process")
    a = ap.parse_args()
    t0 = time.perf_counter()
    t = field(a.players, a.rounds, a.seed)
    built = time.perf_counter() - t0
    rnd = a.rounds + 1
    mm_wall, mm_cpu, mm = median(lambda: pair_go_round(t, rnd), a.repeats)
    swiss_t = copy.deepcopy(t)
    swiss_t.points = PointSystem()  # Gomoku 2/1/0
    swiss_t.extra["XQM"] = ["swiss"]
    sw_wall, sw_cpu, sw = median(lambda: pair_round(swiss_t), a.repeats)
    same = sum(1 for b in mm.boards if b.black == b.white)  # sanity: always 0
    print(f"field: {a.players} players, {a.rounds} rounds played (built in {built:.1f} s)")
    print(f"round {rnd} McMahon (Go, handicaps):  {mm_wall * 1000:8.1f} ms wall  {mm_cpu * 1000:8.1f} ms CPU  "
          f"{len(mm.boards)} boards, {sum(1 for b in mm.boards if b.handicap)} handicap games")
    print(f"round {rnd} Gomoku Swiss (baseline): {sw_wall * 1000:8.1f} ms wall  {sw_cpu * 1000:8.1f} ms CPU  "
          f"{len(sw.boards)} boards")
    print(f"McMahon / Swiss: {mm_wall / sw_wall:.1f}× wall" + ("" if not same else "  (BROKEN)"))
    if a.no_cli:
        return
    with tempfile.TemporaryDirectory() as d:
        go_file, swiss_file = Path(d) / "mcmahon.trf", Path(d) / "swiss.trf"
        go_file.write_text(write_trf(t), encoding="utf-8")
        swiss_file.write_text(write_trf(swiss_t), encoding="utf-8")
        go_runs = [cli_pair(go_file) for _ in range(a.repeats)]
        sw_runs = [cli_pair(swiss_file) for _ in range(a.repeats)]
    for label, runs in ((f"McMahon round {rnd}", go_runs), (f"Swiss round {rnd}  ", sw_runs)):
        print(f"qiyuan pair, {label}: {statistics.median(r[0] for r in runs):6.2f} s wall "
              f"{statistics.median(r[1] for r in runs):6.2f} s CPU   (median of {a.repeats}, a process each)")


if __name__ == "__main__":
    main()
