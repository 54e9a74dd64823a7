"""Keep apart, large rounds and the hall's PDF (issue 9's performance figures), each beside its
baseline measured in the same run.

1. 1,000 players in 10 associations, 9 rounds (random results, 10 % draws): every round paired
   without the rule and — on the very same event, round by round — with the association kept
   apart in all 9 rounds.  Target: keep-apart total ≤ 2 × unconstrained total.
2. Rounds 1, 5 and 9 of a 10,000-player event (``eventfile.next_pairing``: state, engine and
   the file's bookkeeping).  Target: ≤ 0.3 s each.
3. The pairing list of a 400-player round as PDF (``hall_pdf.document``), the first one in the
   process (the embedded font read and subset) and again; target ≤ 1 s.  Baseline: the same
   round's text pairing list (``sheets.round_table``).

CPU time (``time.process_time``) is the fair figure on a machine shared with other jobs; wall
time is printed too.

    .venv/bin/python bench/bench_pairing_keepapart.py [--seeds 3]
"""

from __future__ import annotations

import argparse
import copy
import random
import time

from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import keepapart
from qiyuan.tournament.model import Entrant


def timed(fn, *args, **kwargs):
    start, cpu = time.perf_counter(), time.process_time()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start, time.process_time() - cpu


def event(n: int, rounds: int, associations: int, seed: int):
    rng = random.Random(seed)
    t = ev.new_event("bench", rounds=rounds)
    t.entrants = [Entrant(i, f"P{i}", rating=1500 + rng.randrange(1000), federation=f"A{rng.randrange(associations)}")
                  for i in range(1, n + 1)]
    return t, rng


def results(t, pairing, rng) -> None:
    by = {e.number: e for e in t.entrants}
    for a, b in pairing.boards:
        x = rng.random()
        ra, rb = ("=", "=") if x < 0.1 else (("1", "0") if x < 0.55 else ("0", "1"))
        by[a].rounds[-1].result, by[b].rounds[-1].result = ra, rb


def keep_apart_vs_plain(seed: int) -> None:
    t, rng = event(1000, 9, 10, seed)
    plain_cpu = apart_cpu = plain_wall = apart_wall = 0.0
    relaxed = same_group = 0
    for _rnd in range(9):
        constrained = copy.deepcopy(t)
        keepapart.set_rule(constrained, "association", 9)
        _p, wall, cpu = timed(ev.next_pairing, t)
        plain_wall, plain_cpu = plain_wall + wall, plain_cpu + cpu
        q, wall, cpu = timed(ev.next_pairing, constrained)
        apart_wall, apart_cpu = apart_wall + wall, apart_cpu + cpu
        relaxed += bool(q.notes)
        fed = {e.number: e.federation for e in t.entrants}
        same_group += sum(fed[a] == fed[b] for a, b in q.boards)
        ev.set_round(t, q.number, q.boards, q.byes)  # the event goes on with the kept-apart pairing
        results(t, q, rng)
    print(f"keep-apart n=1000, 10 associations, 9 rounds, seed {seed}: unconstrained CPU {plain_cpu:.3f}s "
          f"(wall {plain_wall:.3f}s) | keep-apart CPU {apart_cpu:.3f}s (wall {apart_wall:.3f}s) | "
          f"ratio {apart_cpu / plain_cpu:.2f} (target <= 2) | rounds relaxed {relaxed}, same-association "
          f"boards {same_group}")


def big_rounds(seed: int) -> None:
    t, rng = event(10000, 9, 10, seed)
    figures = []
    for rnd in range(1, 10):
        p, wall, cpu = timed(ev.next_pairing, t)
        if rnd in (1, 5, 9):
            figures.append(f"round {rnd}: CPU {cpu:.3f}s wall {wall:.3f}s")
        ev.set_round(t, p.number, p.boards, p.byes)
        results(t, p, rng)
    print(f"n=10000 seed {seed}: " + " | ".join(figures) + " (target <= 0.3 s)")


def pdf_pairing_list() -> None:
    from qiyuan.formats import hall_pdf
    from qiyuan.tournament import sheets

    t, rng = event(400, 7, 10, 1)
    for _ in range(3):
        p = ev.pair_next(t)
        results(t, p, rng)
    ev.pair_next(t)
    _, twall, tcpu = timed(sheets.round_table, t, 4)
    data, wall1, cpu1 = timed(hall_pdf.document, t, "pairings")
    _, wall2, cpu2 = timed(hall_pdf.document, t, "pairings")
    _, wall3, cpu3 = timed(hall_pdf.document, t, "pairings", alphabetical=True)
    print(f"PDF pairing list, 400 players (200 boards, {len(data) // 1024} KB): first CPU {cpu1:.3f}s wall {wall1:.3f}s "
          f"(font read and subset) | again CPU {cpu2:.3f}s wall {wall2:.3f}s | with the pinyin list CPU {cpu3:.3f}s | "
          f"baseline text list CPU {tcpu:.3f}s wall {twall:.3f}s (target <= 1 s)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
    pdf_pairing_list()
    for seed in range(args.seeds):
        keep_apart_vs_plain(seed)
    for seed in range(args.seeds):
        big_rounds(seed)


if __name__ == "__main__":
    main()
