"""Both engines give exactly the same lists, changes, states and explanations (hypothesis), through the one
interface ``compute_history(…, engine=…)``; and computing list by list from stored states gives what
computing the whole history at once gives, for either engine (what the office does).

Random small histories over several years (so players go inactive, are
removed and come back), with round robins holding unrated players, double
round robins, forfeits, standings, national team events with boards and dans
granted after the registration cut-off, under the three rule sets and under
variants that change every setting the fast engine branches on.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rating_builders import assert_same_history, core

from qiyuan.formats.canonical_text import as_json
from qiyuan.rating.history import StartState, compute_history
from qiyuan.rating.model import Event, EventFormat, Game, Gender, Player, Result, Standing
from qiyuan.rating.period import listed_games
from qiyuan.rating.rules import BUILTIN_RULES, with_settings
from qiyuan.rating.state_json import state_to_json


def compute_history_fast(rules, players, events, games, standings=(), **kw):
    return compute_history(rules, players, events, games, standings, engine="fast", **kw)

RULE_SETS = {
    **BUILTIN_RULES,
    # Variants: every branch of the fast path.
    "cga-cap350-averaging-rr": with_settings(BUILTIN_RULES["cga-gomoku-2011"],
                                             {"cap": 350, "we_round_robin": "averaging"}),
    "cga-ra-zero-once": with_settings(BUILTIN_RULES["cga-gomoku-2011"],
                                      {"rr_unrated_opponent": "ra", "zero_score_rule": "once", "round_ra_first": True}),
    "cga-provisional-opponent-zero-off": with_settings(
        BUILTIN_RULES["cga-gomoku-2011"],
        {"rr_unrated_opponent": "provisional", "zero_score_rule": "off", "dp_at_extremes": 800}),
    "cga-go-rr-international": with_settings(
        BUILTIN_RULES["cga-gomoku-2011"],
        {"we_round_robin": "go_round_robin", "international_min_score": "0.5", "newcomer_min_games": 3}),
    "bjsh-cap400-rr-provisional": with_settings(BUILTIN_RULES["bjsh-gomoku-2007"],
                                                {"cap": 400, "rr_unrated_opponent": "provisional"}),
    "go-cap350-monthly": with_settings(BUILTIN_RULES["cn-go-1995"],
                                       {"cap": 350, "publication_months": [1, 3, 5, 7, 9, 11]}),
    "bjsh-board-rule-ties-by-id-kyu-start": with_settings(
        BUILTIN_RULES["bjsh-gomoku-2007"],
        {"board_rule": True, "list_tie_order": "id", "inactive_list_order": "rating", "dan_start_kyu": False}),
    "cga-pinyin-inactive-new-by-registration": with_settings(
        BUILTIN_RULES["cga-gomoku-2011"], {"inactive_list_order": "pinyin", "list_new_by_registration": True,
                                           "list_tie_order": "strokes", "champion_formats": ["swiss", "team"]}),
}

RESULTS = [Result.WIN, Result.LOSS, Result.DRAW] * 4 + [Result.FORFEIT_WIN, Result.FORFEIT_LOSS, Result.NOT_PLAYED]
#: Names that tie in one collation and not in the other (strokes / pinyin), and equal names.
NAMES = ["张三", "李四", "王五", "丁一", "张三", "赵六", "钱七", "孙八", "周九", "吴十", "郑一", "王二"]
FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def histories(draw, max_players: int = 10, max_events: int = 9):
    """(players, events, games, standings) spread over up to six years."""
    n = draw(st.integers(3, max_players))
    players = []
    for i in range(n):
        rated = draw(st.integers(0, 3)) > 0
        players.append(Player(
            id=f"P{i:02d}", name=draw(st.sampled_from(NAMES)), gender=draw(st.sampled_from([Gender.MALE, Gender.FEMALE])),
            dan=draw(st.sampled_from([None, None, "3d", "9d", "2k"])),
            rating=(Decimal(draw(st.integers(1300, 2700) if draw(st.booleans()) else st.sampled_from([2000, 2400])))
                    + draw(st.sampled_from([0, 0, Decimal("0.5")]))) if rated else None,
            games=draw(st.integers(0, 40)) if rated else 0,
            k_latched=draw(st.booleans()) if rated else False,
            registered_on=draw(st.sampled_from([None, date(2007, 6, 1), date(2008, 1, 1), date(2011, 5, 1)])),
            dan_granted_by=draw(st.sampled_from([None, "中国棋院", "RIF"])),
        ))
    ids = [p.id for p in players]
    events, games, standings = [], [], []
    day = 0
    for e in range(draw(st.integers(1, max_events))):
        day += draw(st.integers(0, 400))
        start = date(2011, 1, 1) + timedelta(days=day)
        length = draw(st.integers(1, 25))
        fmt = draw(st.sampled_from(list(EventFormat) + [EventFormat.ROUND_ROBIN] * 2))
        eid = f"E{e}"
        national = draw(st.booleans())
        events.append(Event(eid, f"赛事{e}", start, start + timedelta(days=length - 1), fmt,
                            international=draw(st.booleans()), national=national))
        boards = fmt is EventFormat.TEAM and draw(st.booleans())
        field = draw(st.lists(st.sampled_from(ids), min_size=2, max_size=len(ids), unique=True))
        pairs = [(a, b) for i, a in enumerate(field) for b in field[i + 1:]]
        if fmt is EventFormat.ROUND_ROBIN and draw(st.booleans()):
            chosen = pairs * draw(st.integers(1, 2))  # complete (double) round robin
        else:
            chosen = draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=min(len(pairs), 16), unique=True))
        for rnd, (a, b) in enumerate(chosen, start=1):
            if draw(st.booleans()):
                a, b = b, a
            board = draw(st.integers(1, 3)) if boards else None
            games.append(Game(eid, rnd, a, b, draw(st.sampled_from(RESULTS)), board))
        if draw(st.integers(0, 2)) == 0:
            for rank, pid in enumerate(draw(st.permutations(field)), start=1):
                standings.append(Standing(eid, pid, rank))
    return players, events, games, standings


def assert_same(rules, players, events, games, standings):
    reference = compute_history(rules, players, events, games, standings, engine="reference")
    fast = compute_history(rules, players, events, games, standings, engine="fast")
    assert_same_history(fast, reference)
    assert [lst.date for lst in fast.lists] == [lst.date for lst in reference.lists]


@pytest.mark.parametrize("name", sorted(RULE_SETS))
@FAST
@given(data=histories())
def test_fast_path_equals_reference(name, data):
    assert_same(RULE_SETS[name], *data)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULE_SETS))
@SLOW
@given(data=histories(max_players=16, max_events=14))
def test_fast_path_equals_reference_large_sweep(name, data):
    assert_same(RULE_SETS[name], *data)


def test_fast_path_on_the_beijing_shanghai_worked_example():
    """附则 §16: A 2400, B 2360, C 2240 → published 2402 / 2351 / 2246, ΔR kept exact."""
    rules = BUILTIN_RULES["bjsh-gomoku-2007"]
    players = [Player("A", "甲", Gender.MALE, rating=Decimal(2400), games=100, k_latched=True),
               Player("B", "乙", Gender.MALE, rating=Decimal(2360), games=100),
               Player("C", "丙", Gender.MALE, rating=Decimal(2240), games=100)]
    events = [Event("E", "例", date(2008, 3, 1), date(2008, 3, 2), EventFormat.ROUND_ROBIN)]
    games = [Game("E", 1, "A", "C", Result.WIN), Game("E", 2, "A", "B", Result.DRAW),
             Game("E", 3, "C", "B", Result.WIN)]
    history = compute_history_fast(rules, players, events, games)
    entries = {e.player_id: e for e in history.lists[0].entries}
    assert (entries["A"].rating, entries["B"].rating, entries["C"].rating) == (2402, 2351, 2246)
    assert (entries["A"].exact, entries["B"].exact, entries["C"].exact) == \
        (Decimal("2402.3"), Decimal("2351"), Decimal("2245.55"))
    assert {c.player_id: c.delta for c in history.changes} == \
        {"A": Decimal("2.3"), "B": Decimal("-9"), "C": Decimal("5.55")}
    assert_same(rules, players, events, games, [])


def test_fast_path_cga_round_robin_newcomers_match_the_fide_field():
    """CGA Art. 6(一), 7 on the FIDE 2003 field: Ra = 2348.45; C (7/9) gets Ru 2410.95 → 2411."""
    rules = with_settings(BUILTIN_RULES["cga-gomoku-2011"], {"newcomer_min_games": 9})
    rated = [("A", 2600, 8), ("B", 2500, 7), ("D", 2400, 6), ("F", 2150, 4), ("G", 2300, 3), ("J", 2300, 1)]
    players = [Player(p, p, Gender.MALE, rating=Decimal(r), games=50) for p, r, _ in rated]
    players += [Player(p, p, Gender.MALE) for p in ("C", "E", "H", "I")]
    target = {p: s for p, _, s in rated} | {"C": 7, "E": 6, "H": 2, "I": 1}
    games = _round_robin_with_scores(target)
    events = [Event("RR", "循环赛", date(2011, 3, 1), date(2011, 3, 9), EventFormat.ROUND_ROBIN)]
    history = compute_history_fast(rules, players, events, games)
    assert_same(rules, players, events, games, [])
    first = {e.player_id: e for e in history.lists[0].entries}
    assert first["C"].rating == 2411 and first["C"].exact == Decimal("2410.95")
    assert first["I"].rating == 2033


def _round_robin_with_scores(target: dict[str, int]) -> list[Game]:
    """A 10-player round robin (no draws) in which each player scores ``target[p]``."""
    order = sorted(target, key=lambda p: -target[p])
    need = dict(target)
    games, rnd = [], 0
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            rnd += 1
            winner = a if need[a] > 0 and (need[b] == 0 or need[a] >= need[b]) else b
            loser = b if winner == a else a
            need[winner] -= 1
            games.append(Game("RR", rnd, winner, loser, Result.WIN))
    assert all(v == 0 for v in need.values()), need
    return games


@FAST
@given(data=histories(), seed=st.integers(0, 2**32), name=st.sampled_from(sorted(BUILTIN_RULES)))
def test_fast_path_does_not_depend_on_the_order_of_the_rows(data, seed, name):
    import random

    rules = BUILTIN_RULES[name]
    first = compute_history_fast(rules, *data)
    rng = random.Random(seed)
    shuffled = [list(x) for x in data]
    for rows in shuffled:
        rng.shuffle(rows)
    second = compute_history_fast(rules, *shuffled)
    assert_same_history(first, second)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
@FAST
@given(data=histories(), pick=st.integers(0, 100))
def test_explanations_from_the_fast_engine_equal_the_reference(name, data, pick):
    from qiyuan.rating.explain import render_explanation

    rules = RULE_SETS[name]
    players = data[0]
    player = players[pick % len(players)].id
    by_id = {p.id: p for p in players}
    fast = compute_history_fast(rules, *data, explain={player})
    reference = compute_history(rules, *data, engine="reference", explain={player})
    assert fast.explanation(player) == reference.explanation(player)
    assert render_explanation(fast, player, by_id) == render_explanation(reference, player, by_id)


def check_list_by_list(rules, data, engines, cuts):
    """Compute the lists one period (or several) at a time, each run starting from the previous one's final
    states, and compare with the whole history computed at once."""
    players, events, games, standings = data
    whole = compute_history(rules, players, events, games, standings, engine="reference")
    if not whole.list_dates:
        return
    dates = whole.list_dates
    ends = sorted({dates[i % len(dates)] for i in cuts} | {dates[-1]})
    lists, changes, start = [], [], None
    for n, until in enumerate(ends):
        part = compute_history(rules, players, events, games, standings, start=start, until=until,
                               engine=engines[n % len(engines)])
        lists += part.lists
        changes += [core(c) for c in part.changes]
        start = StartState(until, part.final_states)
    assert [lst.date for lst in lists] == dates
    assert lists == whole.lists
    assert [repr(e) for lst in lists for e in lst.entries] == [repr(e) for lst in whole.lists for e in lst.entries]
    assert changes == [core(c) for c in whole.changes]
    assert {p: repr(s) for p, s in start.states.items()} == {p: repr(s) for p, s in whole.final_states.items()}


@pytest.mark.parametrize("engines", [("fast",), ("reference",), ("fast", "reference")])
@pytest.mark.parametrize("name", sorted(BUILTIN_RULES) + ["cga-ra-zero-once", "bjsh-cap400-rr-provisional"])
@FAST
@given(data=histories(), cuts=st.lists(st.integers(0, 60), max_size=6))
def test_list_by_list_from_stored_states_equals_the_whole_history(engines, name, data, cuts):
    check_list_by_list(RULE_SETS[name], data, engines, cuts)


@pytest.mark.parametrize("name", sorted(BUILTIN_RULES))
@FAST
@given(data=histories())
def test_every_period_alone_from_stored_states_equals_the_whole_history(name, data):
    check_list_by_list(RULE_SETS[name], data, ("fast",), list(range(61)))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULE_SETS))
@SLOW
@given(data=histories(max_players=16, max_events=14), cuts=st.lists(st.integers(0, 60), max_size=8))
def test_list_by_list_from_stored_states_sweep(name, data, cuts):
    check_list_by_list(RULE_SETS[name], data, ("fast", "reference"), cuts)


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("name", sorted(RULE_SETS))
@FAST
@given(data=histories(), cut=st.integers(0, 60))
def test_the_states_after_each_list_equal_each_list_computed_alone(engine, name, data, cut):
    """``list_states``: the states after every list of one call are, state by state and in their written form,
    the final states of the list computed alone from the previous list's states (what the office publishes
    editions with, one call for many list dates), and every column of ``ListStates`` — the state's canonical text
    above all, which the fast engine writes from its arrays — is the one of the state computed alone."""
    rules = RULE_SETS[name]
    players, events, games, standings = data
    first = compute_history(rules, players, events, games, standings, engine="reference")
    if not first.list_dates:
        return
    dates = first.list_dates
    start_at = dates[cut % len(dates)]
    start = StartState(start_at, compute_history(rules, players, events, games, standings, until=start_at,
                                                 engine="reference").final_states)
    whole = compute_history(rules, players, events, games, standings, start=start, engine=engine, list_states=True)
    assert len(whole.list_states) == len(whole.list_dates)
    state = start
    for n, until in enumerate(whole.list_dates):
        alone = compute_history(rules, players, events, games, standings, start=state, until=until, engine=engine)
        assert {p: repr(s) for p, s in whole.list_states[n].items()} == \
            {p: repr(s) for p, s in alone.final_states.items()}
        cols = whole.list_states[n]
        assert cols.ids == list(alone.final_states)
        for p, s in alone.final_states.items():
            i = cols.index[p]
            assert cols.text[i] == as_json(state_to_json(s)), p
            assert (cols.gender[i], cols.rating[i], cols.exact[i], cols.games[i], cols.latched[i], cols.status[i],
                    cols.listed[i], cols.counting[i]) == (
                s.gender.value if s.gender is not None else None, s.rating,
                str(s.exact) if s.exact is not None else None, s.games, s.latched, s.status, listed_games(s),
                bool(s.newcomer)), p
        state = StartState(until, alone.final_states)
    if whole.list_dates:
        assert whole.final_states == whole.list_states[-1]
