"""Plausibility audit benchmark: errors planted in a real-looking history, found or not, and what it costs.

    python bench/bench_audit.py [--players N --games N --years N --seed N] [--plant N]

Generates the synthetic federation (``bench/synth_federation.py``, seeded), rates it with ``qiyuan rate`` (timed:
the baseline), and gives its Swiss events draw numbers and openers that follow the Swiss opener rules and its
players birth dates. Then plants the errors the Precisions of issue 18 name:

* results reversed in games whose stronger player (by the list in force) was ≥ 700 points above and won;
* openers swapped against the opener rules (one board in an event);
* players registered twice (a second record with the same name and birth date, another ID);

runs the audit's checks (``qiyuan.rating.plausibility``) over the whole history (timed), and prints the recall
per kind of error (≥ 95 % asked) and the share of games flagged that were not planted (< 1 % asked), beside
``qiyuan rate``'s time in the same run (the audit may cost at most 1×).
"""

from __future__ import annotations

import argparse
import bisect
import random
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import polars as pl

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from synth_federation import generate  # noqa: E402

from qiyuan.rating import plausibility as P  # noqa: E402
from qiyuan.rating.model import Result  # noqa: E402
from qiyuan.tournament.openers import opener_rule  # noqa: E402
from qiyuan.tournament.state import PlayerState  # noqa: E402

RESULTS = {r.value: r for r in Result}
FLIP = {Result.WIN: Result.LOSS, Result.LOSS: Result.WIN}


def rate(fed: Path, out: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run([str(REPO / ".venv/bin/qiyuan"), "rate", "--rules", "cga-gomoku-2011", "--players",
                    str(fed / "players.csv"), "--events", str(fed / "events.csv"), "--games", str(fed / "games.csv"),
                    "--out", str(out)], check=True, capture_output=True)
    return time.perf_counter() - t0


def lists_in_force(out: Path):
    """(sorted list dates, {date: {player: rating}}) from ``qiyuan rate``'s lists."""
    lists = {}
    for path in sorted(out.glob("????-??-??.csv")):
        frame = pl.read_csv(path, schema_overrides={"rating": pl.Int64}).drop_nulls("rating")
        lists[date.fromisoformat(path.stem)] = dict(zip(frame["player_id"].to_list(), frame["rating"].to_list()))
    return sorted(lists), lists


def with_openers(games: list[P.AuditGame], numbers: dict[str, int]) -> list[P.AuditGame]:
    """The event's games with the openers its Swiss opener rules give (what a correct report records)."""
    roles: dict[str, list[str]] = defaultdict(list)
    out = []
    by_round = defaultdict(list)
    for g in games:
        by_round[g.round].append(g)
    for rnd in sorted(by_round):
        played = {}
        for g in by_round[rnd]:
            a, b = g.player1, g.player2
            first, _, _ = opener_rule(PlayerState(numbers[a], Decimal(0), set(), False, 0, 0, tuple(roles[a])),
                                      PlayerState(numbers[b], Decimal(0), set(), False, 0, 0, tuple(roles[b])), rnd)
            opener = 1 if first == numbers[a] else 2
            out.append(P.AuditGame(g.event, g.round, a, b, g.result, opener))
            played[a], played[b] = ("b", "w") if opener == 1 else ("w", "b")
        for p in roles.keys() | played.keys():
            roles[p].append(played.get(p, ""))
    return out


def berger(games: list[P.AuditGame]) -> list[P.AuditGame]:
    """A round robin's games with the rounds of the circle method (the generator's (i + j) mod (n − 1) rounds
    put a player in two games of some rounds — a fault of the synthetic data that the audit finds)."""
    field = sorted({p for g in games for p in (g.player1, g.player2)})
    seats = field + ([None] if len(field) % 2 else [])
    n = len(seats)
    round_of = {}
    for r in range(n - 1):
        for k in range(n // 2):
            a, b = seats[k], seats[n - 1 - k]
            if a is not None and b is not None:
                round_of[frozenset((a, b))] = r + 1
        seats = [seats[0], seats[-1], *seats[1:-1]]
    seen: dict[frozenset, int] = defaultdict(int)
    out = []
    for g in games:
        pair = frozenset((g.player1, g.player2))
        out.append(P.AuditGame(g.event, round_of[pair] + seen[pair] * (n - 1), g.player1, g.player2, g.result))
        seen[pair] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=20_000)
    ap.add_argument("--games", type=int, default=300_000)
    ap.add_argument("--years", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plant", type=int, default=200, help="errors planted of each kind")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)

    work = Path(tempfile.mkdtemp(prefix="qiyuan-bench-audit-"))
    fed = work / "federation"
    generate(fed, args.players, args.games, args.years, args.seed)
    t_rate = rate(fed, work / "lists")

    # -- the history as the audit reads it, made real-looking: openers by the rules, draw numbers, birth dates
    events = pl.read_csv(fed / "events.csv", try_parse_dates=True)
    fmt = dict(zip(events["id"].to_list(), events["format"].to_list()))
    start = dict(zip(events["id"].to_list(), events["start_date"].to_list()))
    frame = pl.read_csv(fed / "games.csv", schema_overrides={"round": pl.Int64})
    dates, lists = lists_in_force(work / "lists")
    by_event: dict[str, list[P.AuditGame]] = defaultdict(list)
    for ev, rnd, a, b, res in frame.select("event_id", "round", "player1", "player2", "result").iter_rows():
        by_event[ev].append(P.AuditGame(ev, rnd, a, b, RESULTS[res]))

    def in_force(ev: str) -> dict[str, int]:
        i = bisect.bisect_left(dates, start[ev]) - 1
        return lists[dates[i]] if i >= 0 else {}

    twice_in_generator = sum(len(P.twice_in_a_round(g)) for ev, g in by_event.items() if fmt[ev] == "round_robin")
    numbers: dict[str, dict[str, int]] = {}
    for ev, games in by_event.items():
        if fmt[ev] == "round_robin":
            by_event[ev] = berger(games)
        if fmt[ev] != "swiss":
            continue
        force = in_force(ev)
        field = sorted({p for g in games for p in (g.player1, g.player2)}, key=lambda p: (-force.get(p, 0), p))
        numbers[ev] = {p: i for i, p in enumerate(field, start=1)}
        by_event[ev] = with_openers(games, numbers[ev])
    players = pl.read_csv(fed / "players.csv")
    born = {pid: date(1950, 1, 1) + timedelta(days=rng.randrange(60 * 365)) for pid in players["id"].to_list()}
    registry = [(pid, name, born[pid]) for pid, name in zip(players["id"].to_list(), players["name"].to_list())]
    n_games = sum(len(g) for g in by_event.values())

    # -- the planted errors
    planted = {"improbable": set(), "opener": set(), "same_person": set()}
    candidates = []
    for ev, games in by_event.items():
        force = in_force(ev)
        for i, g in enumerate(games):
            if g.result in FLIP and g.player1 in force and g.player2 in force:
                d = force[g.player1] - force[g.player2]
                won_by_stronger = (d >= 700 and g.result is Result.WIN) or (-d >= 700 and g.result is Result.LOSS)
                if won_by_stronger:
                    candidates.append((ev, i))
    for ev, i in rng.sample(candidates, min(args.plant, len(candidates))):
        g = by_event[ev][i]
        by_event[ev][i] = P.AuditGame(g.event, g.round, g.player1, g.player2, FLIP[g.result], g.opener)
        planted["improbable"].add((ev, g.round, frozenset((g.player1, g.player2))))
    swiss = [ev for ev in numbers if len(by_event[ev]) >= 8]
    for ev in rng.sample(swiss, min(args.plant, len(swiss))):
        i = rng.randrange(len(by_event[ev]))
        g = by_event[ev][i]
        by_event[ev][i] = P.AuditGame(g.event, g.round, g.player1, g.player2, g.result, 3 - g.opener)
        planted["opener"].add((ev, g.round, frozenset((g.player1, g.player2))))
    for k, (pid, name, birth) in enumerate(rng.sample(registry, args.plant)):
        twin = f"D{k:06d}"
        registry.append((twin, name, birth))
        planted["same_person"].add(frozenset((pid, twin)))

    # -- the audit over the whole history (what `period compute` runs per period)
    t0 = time.perf_counter()
    flags: list[P.Flag] = []
    for ev, games in by_event.items():
        flags += P.improbable_results(games, in_force(ev))
        flags += P.twice_in_a_round(games)
        if ev in numbers:
            flags += P.opener_contradictions(ev, games, numbers[ev])
    flags += P.same_person(registry)
    t_audit = time.perf_counter() - t0

    found = {"improbable": set(), "opener": set(), "same_person": set()}
    false_games, false_people = set(), 0
    for f in flags:
        key = (f.event, f.round, frozenset(f.players)) if f.kind != "same_person" else frozenset(f.players)
        if f.kind in planted and key in planted[f.kind]:
            found[f.kind].add(key)
        elif f.kind == "same_person":
            false_people += 1
        else:
            false_games.add((f.kind, f.event, f.round, frozenset(f.players)))
    print(f"history: {len(by_event)} events, {n_games} games, {len(registry)} registry records "
          f"({sum(len(v) for v in planted.values())} errors planted); machine shared, loaded")
    print(f"  (the generator's round robins put a player twice in a round {twice_in_generator} times — found by the "
          "audit; their rounds are re-drawn by the circle method before planting)")
    for kind in planted:
        n, hit = len(planted[kind]), len(found[kind])
        print(f"  {kind:12s} planted {n:5d}  found {hit:5d}  recall {100 * hit / max(n, 1):6.2f} %")
    by_kind = defaultdict(int)
    for kind, *_ in false_games:
        by_kind[kind] += 1
    print(f"  games flagged but not planted: {len(false_games)} of {n_games} = "
          f"{100 * len(false_games) / n_games:.3f} %; person pairs flagged but not planted: {false_people} "
          f"of {len(registry)} records; by kind: {dict(by_kind)}")
    print(f"qiyuan rate (baseline, same run): {t_rate:.1f} s;  audit: {t_audit:.1f} s = {t_audit / t_rate:.2f}× rate")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
