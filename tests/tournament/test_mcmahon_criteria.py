"""McMahon pairing by OpenGotha's criteria, in order (issue 31): no repeat; the smallest sum over the boards of
the squared McMahon-score gaps, over the whole round (a leftover meets the nearest group, never one several
groups below); then the float, handicap, clubs apart, seeding, colours. Explanations state only true reasons."""

from __future__ import annotations

import gettext
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.locale.catalogue import LOCALE
from qiyuan.tournament import go, mcmahon
from qiyuan.tournament.errors import EventError
from qiyuan.tournament.eventfile import add_player, enter_result, new_event, set_round
from qiyuan.tournament.go_tiebreaks import compute
from qiyuan.tournament.mcmahon import pair_go_round, record_handicaps
from qiyuan.tournament.model import Entrant

ZH = gettext.translation("django", localedir=str(LOCALE), languages=["zh_Hans"]).gettext


def _event(ranks: list[int], *, bar: int = 8, floor: int = -20, basis: str = "mms", none_from: int = 8,
           clubs: list[str] | None = None, rounds: int = 6):
    t = new_event("McMahon", fmt="go_mcmahon", rounds=rounds)
    s = go.settings(t)
    s.bar, s.floor, s.hd_basis, s.hd_correction, s.hd_ceiling, s.hd_none_from = bar, floor, basis, 1, 9, none_from
    go.set_settings(t, s)
    for i, _ in enumerate(ranks, start=1):
        add_player(t, Entrant(0, f"P{i}", rating=2000 - i, club=clubs[i - 1] if clubs else ""))
    ps = go.players(t)
    for i, r in enumerate(ranks, start=1):
        ps[i].grade = ps[i].rank = r
    go.set_players(t, ps)
    return t


def _mms(t, rnd):
    return compute(t, go.settings(t), go.players(t), upto=rnd - 1)["MMS"]


def _cost(t, rnd, pairs) -> int:
    """The sum over the boards of the squared McMahon-score gaps, in whole points squared × 4 (MMS in halves)."""
    m = _mms(t, rnd)
    return sum((m[a] - m[b]) ** 2 for a, b in pairs)


def _met(t, rnd):
    return {e.number: {c.opponent for c in e.rounds[:rnd - 1] if c.opponent} for e in t.entrants}


def _brute_minimum(t, rnd, players) -> int | None:
    """The smallest squared-gap sum of any pairing of ``players`` without a repeat (None: there is none)."""
    m, met = _mms(t, rnd), _met(t, rnd)
    best = None

    def go_on(rest, acc):
        nonlocal best
        if best is not None and acc >= best:
            return
        if not rest:
            best = acc
            return
        a, others = rest[0], rest[1:]
        for i, b in enumerate(others):
            if b not in met[a]:
                go_on(others[:i] + others[i + 1:], acc + (m[a] - m[b]) ** 2)

    go_on(sorted(players), 0)
    return best


def _play(t, rnd, pairing, rng):
    set_round(t, rnd, [(b.black, b.white) for b in pairing.boards], pairing.bye)
    record_handicaps(t, rnd)
    for b in pairing.boards:
        enter_result(t, rnd, b.black, rng.choice(["1-0", "0-1"]))


def test_eight_dan_players_pair_with_the_nearest_group_not_through_several():
    """The issue's case: 5d 4d 4d 3d 3d 3d 2d 2d, bar 9d, handicap by MMS less 1 — 5d–4d, 4d–3d, 3d–3d, 2d–2d,
    all even (cost 2 in whole points), never 5d–3d with a stone beside 4d–4d (cost 4)."""
    t = _event([4, 3, 3, 2, 2, 2, 1, 1])
    p = pair_go_round(t, 1)
    ranks = {e: r for e, r in zip(range(1, 9), [4, 3, 3, 2, 2, 2, 1, 1])}
    got = sorted(tuple(sorted((ranks[b.black], ranks[b.white]), reverse=True)) for b in p.boards)
    assert got == [(1, 1), (2, 2), (3, 2), (4, 3)]
    assert all(b.handicap == 0 for b in p.boards)
    assert _cost(t, 1, [(b.black, b.white) for b in p.boards]) == 2 * 4


def test_round_one_explanation_says_nothing_of_games_not_played():
    """Round 1: nobody has met anyone; a float is explained by the odd group and the smallest squared-gap sum."""
    t = _event([4, 3, 3, 2, 2, 2, 1, 1])
    p = pair_go_round(t, 1)
    text = "\n".join(p.explanation)
    assert "met" not in text and "odd number" in text and "squared" in text
    for line in p.explanation:
        zh = line.text(ZH)
        assert "交过手" not in zh and "已无" not in zh, zh
        assert all(not w.isascii() or not w.isalpha() or w == "komi" for w in zh.split()), zh


def test_a_float_after_a_repeat_is_explained_by_the_players_met():
    """Round 2: two 2-point leaders who met in round 1 cannot meet again; the explanation names whom he met."""
    t = _event([4, 4, 1, 1, 1, 1], rounds=3)
    set_round(t, 1, [(1, 2), (3, 4), (5, 6)], None)
    record_handicaps(t, 1)
    for a in (1, 3, 5):
        enter_result(t, 1, a, "1-0")
    p = pair_go_round(t, 2)
    assert all({b.black, b.white} != {1, 2} for b in p.boards)
    text = "\n".join(p.explanation)
    assert "has already met 2" in text or "has already met 1" in text


def test_clubs_apart_only_where_it_costs_no_score_gap():
    """Same club kept apart inside a group; never at the price of a larger McMahon-score gap."""
    t = _event([2, 2, 2, 2], clubs=["A", "A", "B", "B"])
    p = pair_go_round(t, 1)
    clubs = {1: "A", 2: "A", 3: "B", 4: "B"}
    assert all(clubs[b.black] != clubs[b.white] for b in p.boards)
    t = _event([3, 3, 1, 1], clubs=["A", "A", "A", "A"])
    p = pair_go_round(t, 1)
    assert sorted(sorted((b.black, b.white)) for b in p.boards) == [[1, 2], [3, 4]]


@settings(max_examples=40, deadline=None)
@given(ranks=st.lists(st.integers(-12, 6), min_size=2, max_size=10), bar=st.integers(-2, 6),
       floor=st.integers(-15, -5), exact=st.sampled_from([None, 2]))
def test_round_one_reaches_the_brute_force_minimum(ranks, bar, floor, exact):
    """Round 1 over random fields of up to 10: the pairing's squared-gap sum is the smallest of all pairings of
    those paired (the bye, odd fields, goes by its own rule); with ``exact=2`` the large-chunk path runs."""
    t = _event(ranks, bar=bar, floor=floor)
    old = mcmahon.EXACT
    try:
        if exact is not None:
            mcmahon.EXACT = exact
        p = pair_go_round(t, 1)
    finally:
        mcmahon.EXACT = old
    pairs = [(b.black, b.white) for b in p.boards]
    players = [x for b in pairs for x in b]
    assert _cost(t, 1, pairs) == _brute_minimum(t, 1, players)


@pytest.mark.parametrize("seed", range(20))
def test_twenty_random_round_one_fields_reach_the_minimum(seed):
    """20 random round-1 fields of 12 to 60 players: the minimum without repeats in round 1 is the pairing of
    neighbours in McMahon order (an exchange argument: crossing or nested pairs never cost less)."""
    rng = random.Random(seed)
    n = rng.randint(12, 60)
    t = _event([rng.randint(-20, 6) for _ in range(n)], bar=rng.randint(0, 6), floor=rng.randint(-15, -5))
    p = pair_go_round(t, 1)
    m = _mms(t, 1)
    paired = sorted((x for b in p.boards for x in (b.black, b.white)), key=lambda x: -m[x])
    neighbours = sum((m[paired[i]] - m[paired[i + 1]]) ** 2 for i in range(0, len(paired), 2))
    assert _cost(t, 1, [(b.black, b.white) for b in p.boards]) == neighbours
    if n <= 10:
        assert neighbours == _brute_minimum(t, 1, paired)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(4, 10), played=st.integers(1, 4), seed=st.integers(0, 10**6),
       exact=st.sampled_from([None, 2]))
def test_later_rounds_no_pairing_keeping_the_hard_rules_has_a_smaller_sum(n, played, seed, exact):
    """After 1-4 random rounds: no pairing of those paired without a repeat has a smaller squared-gap sum
    (brute force); ``exact=2`` forces the chunked path and its merges."""
    rng = random.Random(seed)
    t = _event([rng.randint(-6, 5) for _ in range(n)], bar=rng.randint(0, 5), floor=-8, rounds=played + 1)
    old = mcmahon.EXACT
    try:
        if exact is not None:
            mcmahon.EXACT = exact
        for rnd in range(1, played + 2):
            try:
                p = pair_go_round(t, rnd)
            except EventError:  # only when no pairing without a repeat exists
                assert _brute_minimum(t, rnd, [e.number for e in t.entrants]) is None or n % 2
                return
            pairs = [(b.black, b.white) for b in p.boards]
            players = [x for b in pairs for x in b]
            assert _cost(t, rnd, pairs) == _brute_minimum(t, rnd, players), rnd
            if rnd <= played:
                _play(t, rnd, p, rng)
    finally:
        mcmahon.EXACT = old


def test_the_float_is_the_lowest_of_the_upper_group_against_the_highest_of_the_lower():
    """An odd group of three 3d: its lowest (by rank, then rating) goes down, to the lower group's highest."""
    t = _event([2, 2, 2, 1, 1, 1])
    p = pair_go_round(t, 1)
    assert sorted(sorted((b.black, b.white)) for b in p.boards) == [[1, 2], [3, 4], [5, 6]]


def test_handicap_stones_weigh_more_than_the_seeding():
    """Handicap by rank, all four at the floor (one McMahon score): 20k–20k and 25k–25k, even, rather than the
    seeding's 20k–25k twice with stones."""
    t = _event([-20, -20, -25, -25], floor=-15, basis="rank", none_from=0)
    p = pair_go_round(t, 1)
    assert sorted(sorted((b.black, b.white)) for b in p.boards) == [[1, 2], [3, 4]]
    assert all(b.handicap == 0 for b in p.boards)


def test_two_leaders_who_met_float_into_a_large_group_without_matching_it_whole(monkeypatch):
    """Two leaders alone on 35.5 who drew with each other, 150 players below on 35: each leader meets one of them
    (two gaps of ½: the least sum), proved by the lower bound — the large group is never matched whole."""
    t = new_event("w", fmt="go_mcmahon", rounds=3)
    s = go.settings(t)
    s.bar, s.round_down = 8, False
    go.set_settings(t, s)
    for i in range(302):
        add_player(t, Entrant(0, f"P{i + 1}", rating=2000 - i))
    ps = go.players(t)
    for i in ps:
        ps[i].grade = ps[i].rank = 5 if i <= 2 else 4
    go.set_players(t, ps)
    boards = [(1, 2)] + [(i, i + 1) for i in range(3, 303, 2)]
    set_round(t, 1, boards, None)
    record_handicaps(t, 1)
    enter_result(t, 1, 1, "½-½")
    for a, _ in boards[1:]:
        enter_result(t, 1, a, "1-0")
    sizes = []
    original = mcmahon._match

    def counted(r, pool, band):
        sizes.append(len(pool))
        return original(r, pool, band)

    monkeypatch.setattr(mcmahon, "_match", counted)
    p = pair_go_round(t, 2)
    pairs = [(b.black, b.white) for b in p.boards]
    assert all({a, b} != {1, 2} for a, b in pairs) and _cost(t, 2, pairs) == 2
    assert max(sizes) <= mcmahon.EXACT
