"""Issue 37 (speed): the columnar integrity checks find exactly the flags the game-by-game checks found.

``integrity_oracle`` is the first, object-by-object reading of each rule (kept as it was); the checks of
``qiyuan.rating.integrity`` find candidates over every game at once with NumPy and judge them exactly. Both
must give the same flags — kind, event, players, evidence, order — on random small ledgers (hypothesis, with
unplayed games, games with oneself, players only on lists, lists on one date), on a generated history and on
the real one, each with planted cases of every kind."""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import integrity_oracle as O
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rating_builders import SHARED

from qiyuan.rating import integrity as I
from qiyuan.rating.model import Result
from qiyuan.rating.plausibility import AuditGame

BENCH = Path(__file__).resolve().parents[2] / "bench"
DETECTORS = ("closed_pools", "thrown_games", "phantoms", "sandbagging", "repeated_pairs", "integrity_flags")
DAY = date(2020, 1, 1)


#: the phantom flag's evidence added after the oracle (registered just before, the organiser's history)
EVIDENCE = ("recent", "recent_days", "organiser", "organiser_earlier")


def plain(flags):
    """The flags without the evidence the oracle does not know."""
    return [replace(f, detail={k: v for k, v in f.detail.items() if k not in EVIDENCE}) for f in flags]


def same_flags(events, lists, checked):
    """Every detector's flags, the columnar checks' and the oracle's: equal, in the same order."""
    new, old = I.Ledger(events, lists), O.Ledger(events, lists)
    for name in DETECTORS:
        assert plain(getattr(I, name)(new, checked)) == getattr(O, name)(old, checked), name
    return I.integrity_flags(new, checked)


# -- random small ledgers ---------------------------------------------------------------------------------

PLAYERS = [f"P{i:02d}" for i in range(60)]
RESULTS = [Result.WIN] * 6 + [Result.LOSS] * 4 + [Result.DRAW] * 2 + list(Result)


@st.composite
def ledgers(draw):
    """A few events among a few players (or, ``big``, Swiss events among many, one pair meeting in each);
    ``rigged``: P00, rated low, wins every game he plays; ``fresh``: one event's players are its own — so that
    every kind of flag turns up."""
    big, rigged, fresh = draw(st.booleans()), draw(st.booleans()), draw(st.integers(-1, 8))
    pool = draw(st.integers(20, 60) if big else st.integers(3, 12))
    who = st.sampled_from(PLAYERS[:pool])
    events = []
    for k in range(draw(st.integers(1, 9))):
        start = DAY + timedelta(days=draw(st.integers(0, 900)))
        games = [AuditGame(f"E{k}", 1, "P00", "P01", Result.WIN)] if big else []
        for _ in range(draw(st.integers(0, 30 if big else 14))):
            a = draw(who)
            b = a if draw(st.integers(0, 30)) == 0 else draw(who)
            if k == fresh:
                a, b = f"N{a}", f"N{b}"
            result = draw(st.sampled_from(RESULTS))
            if rigged and "P00" in (a, b) and a != b:
                result = Result.WIN if a == "P00" else Result.LOSS
            games.append(AuditGame(f"E{k}", draw(st.integers(1, 2 if big else 7)), a, b, result))
        bands = tuple(draw(st.lists(st.integers(1500, 2100), max_size=2)))
        events.append(I.IntegrityEvent(f"E{k}", start, start + timedelta(days=draw(st.integers(0, 3))), tuple(games),
                                       bands, big or draw(st.booleans())))
    lists = []
    for _ in range(draw(st.integers(0, 5))):
        day = DAY + timedelta(days=draw(st.sampled_from([-30, 100, 100, 300, 600, 800])))
        ratings = draw(st.dictionaries(st.sampled_from(PLAYERS[:pool] + ["Q"]),
                                       st.one_of(st.none(), st.integers(1300, 2300)), max_size=pool + 1))
        if rigged:
            ratings["P00"] = draw(st.sampled_from([None, 1300, 1500]))
        lists.append((day, ratings))
    checked = draw(st.sets(st.sampled_from([e.code for e in events] + ["NOT-THERE"])))
    return events, lists, checked


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ledgers(), st.booleans())
def test_columnar_checks_find_what_the_game_by_game_checks_found(case, searched):
    """… with the ratings looked up in the grid, or (``searched``: a list too big for one) searched for."""
    kept = I.DENSE_CELLS
    I.DENSE_CELLS = 0 if searched else kept
    try:
        same_flags(*case)
    finally:
        I.DENSE_CELLS = kept


def test_golden_cases_with_flags_of_every_kind():
    """The hand-made patterns of test_integrity, together in one ledger: each kind is flagged, by both alike."""
    def rr(code, players, day, winner=None):
        games = [AuditGame(code, r, a, b, Result.WIN if winner in (None, a) else Result.LOSS)
                 for r, (a, b) in enumerate(((a, b) for i, a in enumerate(players) for b in players[i + 1:]), 1)]
        return I.IntegrityEvent(code, day, day + timedelta(days=1), tuple(games))

    events = [rr("OLD", ["K1", "K2", "K3"], DAY - timedelta(days=100)), rr("PH", [f"N{i}" for i in range(8)], DAY)]
    events += [rr(f"R{i}", ["B", "F1", "F2", "F3"], DAY + timedelta(days=30 * i), winner="B") for i in range(2)]
    events += [I.IntegrityEvent(f"M{i}", DAY + timedelta(days=9 * i), DAY + timedelta(days=9 * i),
                                tuple(AuditGame(f"M{i}", r, a, b, res) for r, a, b, res in
                                      [(1, "T", "U", Result.WIN), (2, "V", "T", Result.LOSS),
                                       (3, "T", "U", Result.WIN)][: 2 + i % 2])) for i in range(3)]
    for i in range(5):
        others = [f"X{i}-{k}" for k in range(38)]
        games = [AuditGame(f"S{i}", 1, "A", "Z", Result.WIN)] + [
            AuditGame(f"S{i}", 1, others[k], others[k + 1], Result.WIN) for k in range(0, 38, 2)]
        events.append(I.IntegrityEvent(f"S{i}", DAY + timedelta(days=40 * i), DAY + timedelta(days=40 * i),
                                       tuple(games), (), True))
    events.append(I.IntegrityEvent("BAND", date(2021, 9, 1), date(2021, 9, 1),
                                   (AuditGame("BAND", 1, "S", "K1", Result.WIN),), (1799,)))
    lists = [(DAY - timedelta(days=60), {"B": 1800, "F1": 1800, "F2": 1800, "F3": 1800, "T": 1600, "U": 1950,
                                         "V": 1950}),
             (date(2019, 10, 1), {"S": 1950}), (date(2021, 7, 1), {"S": 1780})]
    flags = same_flags(events, lists, [e.code for e in events])
    assert {f.kind for f in flags} == set(I.KINDS)


# -- generated and real histories with planted cases ---------------------------------------------------------


def _histories(tmp_path_factory):
    sys.path.insert(0, str(BENCH))
    import bench_integrity as B
    from real_history import TSV, write_real_history
    from synth_federation import generate

    from qiyuan.rating.planted import genuine_bands
    from qiyuan.rating.rules import BUILTIN_RULES

    rules = BUILTIN_RULES["cga-gomoku-2011"]
    folder = tmp_path_factory.mktemp("generated")
    generate(folder, 400, 8000, 6, 2011)
    found = [("generated", B.load(folder))]
    if TSV.exists():
        real = tmp_path_factory.mktemp("real")
        write_real_history(real)
        found.append(("real", B.load(real)))
    out = []
    for name, h in found:
        published = B.rate(h, rules)
        out.append((name, genuine_bands(h, published, 1), published))
    return B, (lambda x: B.rate(x, rules)), out


@pytest.fixture(scope="module")
def histories(tmp_path_factory):
    if not (SHARED / "data").exists():
        pytest.skip("../shared/data is not here")
    return _histories(tmp_path_factory)


def _both(B, h, published):
    """The bench's ledger as the oracle's objects and as columns: the same flags, every event checked."""
    new = B.ledger(h, published)
    old = O.Ledger(new.events, published)
    checked = [e.id for e in h.events]
    for name in DETECTORS:
        assert plain(getattr(I, name)(new, checked)) == getattr(O, name)(old, checked), name
    return I.integrity_flags(new, checked)


def test_genuine_histories_flag_the_same(histories):
    B, _, cases = histories
    for name, h, published in cases:
        _both(B, h, published)


@pytest.mark.parametrize("kind", ["pool", "thrown", "phantom", "sandbag"])
def test_planted_cases_flag_the_same(histories, kind):
    from qiyuan.rating.planted import plant

    B, rate, cases = histories
    kinds = set()
    for name, h, published in cases:
        for seed in range(2):
            copy, case = plant(kind, h, published, seed, rate)
            kinds |= {f.kind for f in _both(B, copy, rate(copy))}
    assert kind in kinds  # the planted case was found: the comparison was not of empty lists
