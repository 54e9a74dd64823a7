"""Issue 37, items 2 and 4: the integrity checks over plain data, and the seeded generator of planted cases.

Each clause of ``qiyuan.rating.integrity`` has a case that trips it and one just beside it that does not; the
generator's cases are found in the real history (``../shared/data``), which itself raises no flag."""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import date, timedelta
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rating_builders import SHARED

from qiyuan.rating import integrity as I
from qiyuan.rating.model import Result
from qiyuan.rating.plausibility import AuditGame

W, L, D = Result.WIN, Result.LOSS, Result.DRAW
DAY = date(2020, 3, 1)


def ev(code, games, day=DAY, bands=(), swiss=False):
    return I.IntegrityEvent(code, day, day + timedelta(days=1),
                            tuple(AuditGame(code, r, a, b, res) for r, a, b, res in games), bands, swiss)


def lists(**ratings):
    return [(date(2020, 1, 1), ratings)]


# -- the exact tail probability --------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 100), max_size=7), st.integers(0, 16))
def test_tail_is_the_exact_poisson_binomial_tail(expected, halves):
    brute = Fraction(0)
    for wins in product((0, 1), repeat=len(expected)):
        p = Fraction(1)
        for w, e in zip(wins, expected):
            p *= Fraction(e if w else 100 - e, 100)
        if 2 * sum(wins) >= halves:
            brute += p
    assert I.tail(expected, halves) == brute
    assert I.tail(expected, halves + 1) <= I.tail(expected, halves) <= 1


# -- phantom events -----------------------------------------------------------------------------------------


def _round_robin(code, players, day=DAY, winner=None):
    games, r = [], 0
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            r += 1
            games.append((r, a, b, W if winner in (None, a) else L))
    return ev(code, games, day)


EARLIER = _round_robin("OLD", ["K1", "K2", "K3"], DAY - timedelta(days=100))


def test_phantom_event_players_seen_nowhere_else_playing_among_themselves():
    fresh = [f"N{i}" for i in range(8)]
    ledger = I.Ledger([_round_robin("PH", fresh), EARLIER])
    (flag,) = I.phantoms(ledger, ["PH"])
    assert flag.kind == "phantom" and flag.detail["nowhere_else"] == 8 and flag.detail["among_them"] == 28
    assert I.phantoms(I.Ledger([_round_robin("PH", fresh)]), ["PH"]) == []  # a list's first event: all new


def test_phantom_needs_eight_players_and_most_of_them_new():
    assert I.phantoms(I.Ledger([_round_robin("PH", [f"N{i}" for i in range(7)]), EARLIER]), ["PH"]) == []
    known = [f"N{i}" for i in range(6)] + ["K1", "K2", "K3"]  # 6 of 9 new: under three quarters
    other = _round_robin("OLD", ["K1", "K2", "K3"], DAY - timedelta(days=100))
    assert I.phantoms(I.Ledger([_round_robin("PH", known), other]), ["PH"]) == []
    rated = lists(**{f"N{i}": 1800 for i in range(8)})  # on a list before it: not phantoms
    assert I.phantoms(I.Ledger([_round_robin("PH", [f"N{i}" for i in range(8)])], rated), ["PH"]) == []


def test_phantom_newcomers_who_met_known_players_are_a_genuine_event():
    new, known = [f"N{i}" for i in range(9)], ["K1", "K2", "K3"]
    games = [(1, n, known[i % 3], W) for i, n in enumerate(new)] + [(2, new[i], new[i + 1], W) for i in range(0, 8, 2)]
    other = _round_robin("OLD", known, DAY - timedelta(days=100))
    assert I.phantoms(I.Ledger([ev("E", games), other]), ["E"]) == []  # 9 of 12 new, but 4 of 13 games among them


def test_phantom_evidence_players_registered_just_before_and_an_organiser_without_history():
    fresh = [f"N{i}" for i in range(8)]
    phantom = replace(_round_robin("PH", fresh), organiser="新公司")
    registered = {"N0": DAY - timedelta(days=3), "N1": DAY - timedelta(days=30), "N2": DAY,  # just before: 3
                  "N3": DAY - timedelta(days=31), "N4": DAY + timedelta(days=1)}  # a month before, after: not
    (flag,) = I.phantoms(I.Ledger([phantom, replace(EARLIER, organiser="老棋协")], (), registered), ["PH"])
    assert flag.detail["recent"] == 3 and flag.detail["recent_days"] == I.PHANTOM_RECENT == 30
    assert flag.detail["organiser"] == "新公司" and flag.detail["organiser_earlier"] == 0


def test_phantom_evidence_a_player_first_seen_in_an_event_just_before():
    fresh = [f"N{i}" for i in range(10)]
    phantom = _round_robin("PH", fresh)
    phantom = replace(phantom, games=phantom.games + (AuditGame("PH", 99, "W1", "N0", W),))  # 45 of 46 among them
    warm = _round_robin("WARM", ["W1", "K1", "K2"], DAY - timedelta(days=10))
    (flag,) = I.phantoms(I.Ledger([phantom, warm, EARLIER]), ["PH"])
    assert flag.detail["nowhere_else"] == 10 and flag.detail["recent"] == 1  # W1, first seen 10 days before
    assert flag.detail["organiser"] == "" and flag.detail["organiser_earlier"] is None  # not recorded


def test_phantom_evidence_an_organiser_with_an_earlier_event_is_said_so():
    fresh = [f"N{i}" for i in range(8)]
    ledger = I.Ledger([replace(_round_robin("PH", fresh), organiser="老棋协"), replace(EARLIER, organiser="老棋协")])
    (flag,) = I.phantoms(ledger, ["PH"])
    assert flag.detail["organiser_earlier"] == 1 and flag.detail["recent"] == 0


def test_phantom_evidence_never_raises_a_flag_by_itself():
    seven = replace(_round_robin("PH", [f"N{i}" for i in range(7)]), organiser="新公司")
    registered = {f"N{i}": DAY - timedelta(days=1) for i in range(7)}
    assert I.phantoms(I.Ledger([seven, EARLIER], (), registered), ["PH"]) == []


# -- closed pools -------------------------------------------------------------------------------------------


def test_closed_pool_the_same_small_group_twice_lifting_one_member():
    ring = ["B", "F1", "F2", "F3"]
    events = [_round_robin(f"R{i}", ring, DAY + timedelta(days=30 * i), winner="B") for i in range(2)]
    (flag,) = I.closed_pools(I.Ledger(events, lists(B=1800, F1=1800, F2=1800, F3=1800)), ["R1"])
    assert flag.kind == "pool" and flag.players[0] == "B" and flag.detail["events"] == ["R0", "R1"]
    assert flag.detail["games"] == 6 and flag.detail["score"] == "6" and flag.detail["probability"] == "1/64"


def test_closed_pool_needs_two_events_and_a_lift_beyond_chance():
    ring = ["B", "F1", "F2", "F3"]
    once = [_round_robin("R0", ring, winner="B")]
    assert I.closed_pools(I.Ledger(once), ["R0"]) == []
    strong = lists(B=2300, F1=1800, F2=1800, F3=1800)  # the strongest winning is what the ratings expect
    twice = [_round_robin(f"R{i}", ring, DAY + timedelta(days=30 * i), winner="B") for i in range(2)]
    assert I.closed_pools(I.Ledger(twice, strong), ["R1"]) == []


# -- thrown games -------------------------------------------------------------------------------------------


def test_thrown_series_of_one_pair_across_events():
    games = [ev(f"M{i}", [(1, "B", "T", W), (2, "T", "B", L), (3, "B", "T", W)][: 2 + i % 2], DAY + timedelta(days=9 * i))
             for i in range(2)]
    ratings = lists(B=1600, T=1900)
    (flag,) = I.thrown_games(I.Ledger(games, ratings), ["M1"])
    assert flag.players == ("B", "T") and flag.event == "M1" and flag.detail["games"] == 5
    # the same five wins in one match: not across events
    one = [ev("M", [(r, "B", "T", W) for r in range(1, 6)])]
    assert I.thrown_games(I.Ledger(one, ratings), ["M"]) == []
    # expected results are no flag
    assert I.thrown_games(I.Ledger(games, lists(B=1900, T=1600)), ["M1"]) == []


def test_thrown_games_to_one_beneficiary_from_several_opponents():
    games = [ev(f"M{i}", [(1, "B", "T1", W), (2, "B", "T2", W), (3, "T3", "B", L)], DAY + timedelta(days=9 * i))
             for i in range(2)]
    (flag,) = I.thrown_games(I.Ledger(games, lists(B=1600, T1=1950, T2=1950, T3=1950)), ["M1"])
    assert flag.players == ("B", "T1", "T2", "T3") and flag.detail["games"] == 6
    # one of them beat him once: that opponent is no giver (one upset); two givers, four upsets: too few
    games[1] = ev("M1", [(1, "B", "T1", W), (2, "B", "T2", W), (3, "T3", "B", W)], DAY + timedelta(days=9))
    assert I.thrown_games(I.Ledger(games, lists(B=1600, T1=1950, T2=1950, T3=1950)), ["M1"]) == []


# -- sandbagging --------------------------------------------------------------------------------------------


def _sandbag(peak, now, limit):
    published = [(date(2019, 1, 1), {"S": peak}), (date(2019, 7, 1), {"S": now})]
    band = ev("BAND", [(1, "S", "X", W)], date(2019, 9, 1), bands=(limit,))
    return I.sandbagging(I.Ledger([band], published), ["BAND"])


def test_sandbagging_a_fall_just_under_a_band_limit():
    (flag,) = _sandbag(1950, 1780, 1799)
    assert flag.players == ("S",) and flag.detail["fall"] == 170 and flag.detail["limit"] == 1799


@pytest.mark.parametrize("peak, now, limit", [(1920, 1780, 1799),  # a fall under 150
                                              (1950, 1690, 1799),  # more than 100 under the limit
                                              (1790, 1600, 1799),  # never above the limit
                                              (1950, 1800, 1799)])  # not under the limit: no band prize
def test_sandbagging_not_flagged_beside_the_pattern(peak, now, limit):
    assert _sandbag(peak, now, limit) == []


# -- repeated pairs -----------------------------------------------------------------------------------------


def test_repeated_pairs_in_big_swiss_events():
    events = []
    for i in range(5):
        others = [f"X{i}-{k}" for k in range(38)]
        games = [(1, "A", "B", W)] + [(1, others[k], others[k + 1], W) for k in range(0, 38, 2)]
        events.append(ev(f"S{i}", games, DAY + timedelta(days=40 * i), swiss=True))
    (flag,) = I.repeated_pairs(I.Ledger(events), ["S4"])
    assert flag.players == ("A", "B") and flag.detail["met"] == 5
    assert I.repeated_pairs(I.Ledger(events[:3]), ["S2"]) == []  # three meetings: under four


# -- the generator and the real history ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    tsv = SHARED / "data" / "renju-cn-games.tsv"
    if not tsv.exists():
        pytest.skip("../shared/data/renju-cn-games.tsv is not here")
    bench = __import__("pathlib").Path(__file__).resolve().parents[2] / "bench"
    sys.path.insert(0, str(bench))
    import bench_integrity as B
    from real_history import write_real_history

    from qiyuan.rating.planted import genuine_bands
    from qiyuan.rating.rules import BUILTIN_RULES

    folder = tmp_path_factory.mktemp("real")
    write_real_history(folder)
    rules = BUILTIN_RULES["cga-gomoku-2011"]
    h = B.load(folder)
    published = B.rate(h, rules)
    return B, genuine_bands(h, published, 1), published, (lambda x: B.rate(x, rules))


def test_the_real_history_raises_no_flag(real):
    B, h, published, _ = real
    assert I.integrity_flags(B.ledger(h, published), [e.id for e in h.events]) == []


@pytest.mark.parametrize("kind", ["pool", "thrown", "phantom", "sandbag"])
def test_planted_cases_are_found_in_the_real_history(real, kind):
    from qiyuan.rating.planted import plant

    B, h, published, rate = real
    for seed in range(2):
        copy, case = plant(kind, h, published, seed, rate)
        assert copy.events[: len(h.events)] == h.events and len(h.games) <= len(copy.games)
        again, same = plant(kind, h, published, seed, rate)
        assert (again, same) == (copy, case)  # seeded: the same case again
        flags = I.integrity_flags(B.ledger(copy, rate(copy)), [e.id for e in copy.events])
        assert B.found(case, flags), (case, flags)


def test_planted_cases_have_the_sizes_the_issue_asks(real):
    from qiyuan.rating.planted import plant

    B, h, published, rate = real
    for seed in range(3):
        copy, case = plant("pool", h, published, seed, rate)
        assert 3 <= len(case.players) <= 8 and 2 <= len(case.events) <= 6
        copy, case = plant("thrown", h, published, seed, rate)
        assert 5 <= sum(1 for g in copy.games if g.event_id in case.events) <= 15
        copy, case = plant("phantom", h, published, seed, rate)
        assert 8 <= len(case.players) <= 30 and not {g.player1 for g in h.games} & set(case.players)
        copy, case = plant("sandbag", h, published, seed, rate)
        ledger = B.ledger(copy, rate(copy))
        band = next(e for e in ledger.events if e.code == case.events[0])
        (limit,) = set(band.band_limits) - set(h.bands.get(band.code, ()))
        now = ledger.rating_before(case.players[0], band.start)
        assert now < limit and max(r for _, r in ledger.published(case.players[0])) - now >= 150
    with pytest.raises(ValueError, match="unknown kind"):
        plant("bribe", h, published, 0, rate)
