"""The rule sandbox against the truth: synthetic histories with known strengths (issue 36).

For each seed (default 1–3), ``synth_history.generate`` writes a 10-year
federation (480 players, w² = 10 Elo² a day, 6 Swiss events a year of 48
players and 8 rounds, about 12 % draws, Black +20); ``evaluate`` predicts it
from the start of its sixth year with the two built-in rule sets and the
baselines. Each row's *measured* log loss (the sandbox's, on the outcomes) is
set beside its *true* expected log loss on the same games — the outcome
replaced by the true expected score, −(E·ln p + (1 − E)·ln(1 − p)), which is
exactly the expectation of the measured one. The sandbox orders the systems
as the truth does when the two orders agree (a pair whose measured difference
is within two clustered standard errors may swap: the sandbox calls it a tie).
WHR's tuned w² is set against the true 10 (within a factor 3: 3.3–30).

    python bench/bench_sandbox_truth.py [--seeds 1 2 3] [--out DIR]
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from synth_history import START, W2, generate  # noqa: E402

from qiyuan.formats.history_csv import read_history  # noqa: E402
from qiyuan.formats.sandbox_files import read_colours  # noqa: E402
from qiyuan.rating.rules import BUILTIN_RULES  # noqa: E402
from qiyuan.sandbox.evaluate import evaluate  # noqa: E402
from qiyuan.sandbox.metrics import FLOOR, clustered_se  # noqa: E402

FROM = date(START.year + 5, 1, 1)  # five years of burn-in: w² is flat on three (issue 36)


def measure(seed: int, out: Path) -> dict:
    paths = generate(seed, out)
    data = read_history(paths["players"], paths["events"], paths["games"])
    t0 = time.perf_counter()
    result = evaluate([BUILTIN_RULES["cga-gomoku-2011"], BUILTIN_RULES["bjsh-gomoku-2007"]], data.players,
                      data.events, data.games, data.standings, from_date=FROM,
                      colours=read_colours(paths["games"], data.games))
    seconds = time.perf_counter() - t0
    gs = result.games
    with paths["truth"].open(encoding="utf-8", newline="") as f:
        expected = {(r["event_id"], int(r["round"]), r["player1"], r["player2"]): float(r["expected"])
                    for r in csv.DictReader(f)}
    key = [(gs.event_ids[e], int(r), gs.player_ids[a], gs.player_ids[b]) for e, r, a, b in zip(
        gs.event.tolist(), gs.round.tolist(), gs.player1.tolist(), gs.player2.tolist())]
    true_e = np.array([expected[k] for k in key])
    mask = gs.predicted
    rows = []
    for p, s in zip(result.predictions, result.scores):
        q = np.clip(p.expected[mask], FLOOR, 1 - FLOOR)
        true_loss = -(true_e[mask] * np.log(q) + (1 - true_e[mask]) * np.log(1 - q))
        rows.append((p.system, s.log_loss, s.se, float(true_loss.mean())))
    losses = {p.system: -(gs.score[mask] * np.log(np.clip(p.expected[mask], FLOOR, 1 - FLOOR)) +
                          (1 - gs.score[mask]) * np.log(1 - np.clip(p.expected[mask], FLOOR, 1 - FLOOR)))
              for p in result.predictions}
    swaps, ties = [], 0
    for i, (a, la, _, ta) in enumerate(rows):
        for b, lb, _, tb in rows[i + 1:]:
            if (la - lb) * (ta - tb) < 0:
                se = clustered_se(losses[a] - losses[b], gs.event[mask])
                if abs(la - lb) <= 2 * se:
                    ties += 1
                else:
                    swaps.append((a, b))
    return {"seed": seed, "rows": rows, "swaps": swaps, "ties": ties, "w2": result.tuned.whr.values["w2"],
            "virtual": result.tuned.whr.values["virtual_games"], "games": int(mask.sum()), "seconds": seconds,
            "black": result.colour, "prior": result.prior}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    base = args.out or Path(tempfile.mkdtemp(prefix="qiyuan-truth-"))
    for seed in args.seeds:
        m = measure(seed, base / f"seed{seed}")
        print(f"seed {seed}: {m['games']:,} test games from {FROM}; evaluate {m['seconds']:.0f} s")
        print(f"  {'system':18} {'measured':>9} {'SE':>7} {'true':>9}")
        for system, loss, se, true in sorted(m["rows"], key=lambda r: r[3]):
            print(f"  {system:18} {loss:9.4f} {se:7.4f} {true:9.4f}")
        order = "the same order as the truth" if not m["swaps"] else f"swapped pairs: {m['swaps']}"
        print(f"  {order} ({m['ties']} pair(s) swapped within two clustered SEs: ties)")
        ok = W2 / 3 <= m["w2"] <= W2 * 3
        print(f"  WHR tuned w² = {m['w2']:g} Elo²/day (true {W2:g}: {'within' if ok else 'NOT within'} a factor 3), "
              f"virtual draws {m['virtual']}")
        b = m["black"]
        print(f"  Black scored {b.score:.4f} ± {b.se:.4f} ({b.elo:+.0f} Elo-equivalent; true +20 before draws)")
        p = m["prior"]
        print(f"  prior: men {p.entry['M']:.0f}, women {p.entry['F']:.0f}, spread {p.sd:.0f}")


if __name__ == "__main__":
    main()
