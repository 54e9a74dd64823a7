"""Benchmark of the integrity checks (issue 37): recall on planted cases, flags on genuine events, time.

For each history — a generated federation (``synth_federation``) and the real Chinese history
(``../shared/data/renju-cn-games.tsv``, 59 events) — it

1. rates the genuine history (fast engine), gives one Swiss event in five a rating-band prize
   (``planted.genuine_bands``) and every event one of 40 organisers (``planted.genuine_organisers``), and runs
   every check on every event: the flags on genuine events;
2. plants ``--cases`` cases of each kind (``qiyuan.rating.planted``), each alone into a fresh copy, rates the
   copy and runs the checks: a case is found when a flag of its kind names its events or its people.

Targets: recall ≥ 90 % per kind; genuine flags ≤ 1 % of the generated history's events, ≤ 1 on the real one.

It also counts, of the phantom flags on planted cases, those whose evidence shows half their unknown players or
more registered (or first seen) just before and an organiser without an earlier event.

``--timing`` instead times the checks on a large generated federation (every event checked against the whole
history, read as columns from the files ``qiyuan rate`` reads and the lists it writes) beside ``qiyuan rate`` in
the same run (the checks may cost at most 1×). ``bench_office.py`` times the same in the office (the games read
from its database).

    python bench/bench_integrity.py [--cases 50] [--players 1500] [--games 40000] [--years 8]
    python bench/bench_integrity.py --timing --players 50000 --games 2000000 --years 20
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import numpy as np
import polars as pl

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from real_history import TSV, write_real_history  # noqa: E402
from synth_federation import generate  # noqa: E402

from qiyuan.formats.history_csv import read_history  # noqa: E402
from qiyuan.rating.columnar import NONE  # noqa: E402
from qiyuan.rating.history import compute_history  # noqa: E402
from qiyuan.rating.integrity import PHANTOM_RECENT, IntegrityEvent, Ledger, integrity_flags  # noqa: E402
from qiyuan.rating.model import EventFormat  # noqa: E402
from qiyuan.rating.planted import KINDS, PlainHistory, genuine_bands, genuine_organisers, plant  # noqa: E402
from qiyuan.rating.plausibility import AuditGame  # noqa: E402
from qiyuan.rating.rules import load_rules  # noqa: E402

RULES = "cga-gomoku-2011"


def load(folder: Path) -> PlainHistory:
    files = {n: folder / f"{n}.csv" for n in ("players", "events", "games")}
    data = read_history(files["players"], files["events"], files["games"])
    return PlainHistory(tuple(data.players), tuple(data.events), tuple(data.games))


def rate(h: PlainHistory, rules) -> list:
    """The published lists of the history: ``[(list date, {player: rating})]``."""
    history = compute_history(rules, h.players, h.events, h.games)
    ids = history.player_ids
    out = []
    for lc in history.list_columns:
        r = lc.rating.tolist()
        out.append((lc.date, {ids[i]: v for i, v in enumerate(r) if v != NONE}))
    return out


def ledger(h: PlainHistory, lists) -> Ledger:
    games: dict[str, list[AuditGame]] = {}
    for g in h.games:
        games.setdefault(g.event_id, []).append(AuditGame(g.event_id, g.round, g.player1, g.player2, g.result))
    return Ledger([IntegrityEvent(e.id, e.start_date, e.end_date, tuple(games.get(e.id, ())), h.bands.get(e.id, ()),
                                  e.format is EventFormat.SWISS, h.organisers.get(e.id, "")) for e in h.events], lists,
                  {p.id: p.registered_on for p in h.players if p.registered_on})


def found(case, flags) -> bool:
    mine = [f for f in flags if f.kind == case.kind]
    if case.kind == "sandbag":
        return any(f.event == case.events[0] and f.players[0] == case.players[0] for f in mine)
    if case.kind == "thrown":
        return any(f.players[0] == case.players[0] and set(f.players[1:]) & set(case.players[1:]) for f in mine)
    return any(f.event in case.events and set(f.players) & set(case.players) for f in mine)


def run(name: str, h: PlainHistory, rules, cases: int) -> dict:
    t0 = time.perf_counter()
    lists = rate(h, rules)
    rate_s = time.perf_counter() - t0
    h = genuine_organisers(genuine_bands(h, lists, 1), 1)
    t0 = time.perf_counter()
    genuine = integrity_flags(ledger(h, lists), [e.id for e in h.events])
    check_s = time.perf_counter() - t0
    flagged_events = {f.event for f in genuine}
    print(f"{name}: {len(h.players):,} players, {len(h.events):,} events, {len(h.games):,} games, "
          f"{sum(1 for b in h.bands.values() if b)} band events; rated in {rate_s:.2f} s, checked in {check_s:.2f} s")
    print(f"  genuine: {len(genuine)} flag(s) on {len(flagged_events)} of {len(h.events)} events "
          f"({100 * len(flagged_events) / len(h.events):.2f} %)")
    for f in genuine:
        print(f"    {f.kind} {f.event} {', '.join(f.players[:6])}{' …' if len(f.players) > 6 else ''} {dict(f.detail)}")
    recall, evidence = {}, [0, 0, 0]
    for kind in KINDS:
        hits, missed = 0, []
        for seed in range(cases):
            copy, case = plant(kind, h, lists, seed, lambda x: rate(x, rules))
            flags = integrity_flags(ledger(copy, rate(copy, rules)), [e.id for e in copy.events])
            if found(case, flags):
                hits += 1
                for f in flags:
                    if f.kind == "phantom" and f.event in case.events:
                        evidence[0] += 1
                        evidence[1] += f.detail["recent"] * 2 >= f.detail["nowhere_else"]
                        evidence[2] += f.detail["organiser_earlier"] == 0
            else:
                missed.append((seed, case))
        recall[kind] = hits / cases
        print(f"  {kind:8s} recall {hits}/{cases} = {100 * hits / cases:.0f} %"
              + (f"  missed seeds {[s for s, _ in missed][:10]}" if missed else ""))
    print(f"  phantom evidence: of {evidence[0]} phantom flags, {evidence[1]} with half their unknown players or more "
          f"registered or first seen in the {PHANTOM_RECENT} days before, {evidence[2]} with an organiser without "
          f"an earlier event")
    return {"genuine": len(flagged_events), "events": len(h.events), "recall": recall}


def columns_ledger(folder: Path, lists: list) -> Ledger:
    """The ledger straight from the history files' columns (``GameColumns``: no object per game), as the office
    reads its database."""
    data = read_history(folder / "players.csv", folder / "events.csv", folder / "games.csv")
    g, events = data.games, data.events
    at = {e.id: i for i, e in enumerate(events)}
    return Ledger.from_columns(
        codes=[e.id for e in events], starts=[e.start_date for e in events], ends=[e.end_date for e in events],
        bands=[() for _ in events], swiss=[e.format is EventFormat.SWISS for e in events], player_ids=g.player_ids,
        game_event=np.array([at[x] for x in g.event_ids], dtype=np.int64)[g.event], game_round=g.round,
        game_player1=g.player1, game_player2=g.player2, game_result=g.result,
        lists=lists)


def list_columns(out: Path) -> list:
    """``qiyuan rate``'s lists as columns: ``(date, player IDs, ratings)`` (no dictionary per list)."""
    found = []
    for path in sorted(out.glob("????-??-??.csv")):
        frame = pl.read_csv(path, columns=["player_id", "rating"], schema_overrides={"rating": pl.Int64})
        found.append((date.fromisoformat(path.stem), frame["player_id"].to_list(), frame["rating"].to_list()))
    return found


def timing(players: int, games: int, years: int, seed: int) -> int:
    from bench_audit import rate as qiyuan_rate

    with tempfile.TemporaryDirectory() as tmp:
        fed, out = Path(tmp) / "federation", Path(tmp) / "lists"
        info = generate(fed, players, games, years, seed)
        t_rate = qiyuan_rate(fed, out)
        t0 = time.perf_counter()
        led = columns_ledger(fed, list_columns(out))
        t_read = time.perf_counter() - t0
        flags = integrity_flags(led, led.codes)
        t_checks = time.perf_counter() - t0
    print(f"{info['players']:,} players, {info['events']:,} events, {info['games']:,} games: qiyuan rate {t_rate:.1f} s; "
          f"integrity checks of every event (files and lists read {t_read:.1f} s, checked) {t_checks:.1f} s = "
          f"{t_checks / t_rate:.2f}× rate; {len(flags)} flag(s) on genuine events")
    return 0 if t_checks <= t_rate else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=50)
    parser.add_argument("--players", type=int, default=1500)
    parser.add_argument("--games", type=int, default=40_000)
    parser.add_argument("--years", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2011)
    parser.add_argument("--only", choices=("generated", "real"), default=None)
    parser.add_argument("--timing", action="store_true", help="time the checks beside qiyuan rate instead")
    args = parser.parse_args(argv)
    if args.timing:
        return timing(args.players, args.games, args.years, args.seed)
    rules = load_rules(RULES)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        if args.only in (None, "generated"):
            gen = Path(tmp) / "generated"
            generate(gen, args.players, args.games, args.years, args.seed)
            results["generated"] = run("generated", load(gen), rules, args.cases)
        if args.only in (None, "real") and TSV.exists():
            real = Path(tmp) / "real"
            write_real_history(real)
            results["real"] = run("real (59 events)", load(real), rules, args.cases)
    ok = True
    for name, r in results.items():
        limit = r["events"] // 100 if name == "generated" else 1
        ok &= r["genuine"] <= limit and all(v >= 0.9 for v in r["recall"].values())
    print("targets met" if ok else "targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())


