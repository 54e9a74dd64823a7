"""Properties of the reference engine on random histories (hypothesis); the fast engine equals it
(``test_fast_equivalence.py``)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from history_strategies import histories
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qiyuan.rating import history
from qiyuan.rating.exact import round_half_up
from qiyuan.rating.model import Result
from qiyuan.rating.period import rate_period

def compute_history(*args, **kw):
    return history.compute_history(*args, engine="reference", **kw)


FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _key(change):
    return (change.list_date, change.event_id, change.player_id)


def check_order_independent(data, seed):
    rules, players, events, games, standings = data
    h1 = compute_history(rules, players, events, games, standings)
    rng = random.Random(seed)
    shuffled = [list(x) for x in (players, events, games, standings)]
    for x in shuffled:
        rng.shuffle(x)
    h2 = compute_history(rules, *shuffled)
    assert h1.lists == h2.lists
    assert sorted(h1.changes, key=_key) == sorted(h2.changes, key=_key)


@FAST
@given(histories(), st.integers(0, 2**32))
def test_results_do_not_depend_on_the_order_of_the_rows(data, seed):
    check_order_independent(data, seed)


@pytest.mark.slow
@SLOW
@given(histories(max_players=14, max_events=8), st.integers(0, 2**32))
def test_results_do_not_depend_on_the_order_of_the_rows_sweep(data, seed):
    check_order_independent(data, seed)


def check_win_not_below_draw(data, pick):
    rules, players, events, games, standings = data
    draws = [i for i, g in enumerate(games) if g.result is Result.DRAW]
    if not draws:
        return
    i = draws[pick % len(draws)]
    g = games[i]
    won = [*games[:i], replace(g, result=Result.WIN), *games[i + 1:]]
    h_draw = compute_history(rules, players, events, games, standings)
    h_win = compute_history(rules, players, events, won, standings)
    c_draw = [c for c in h_draw.changes if c.player_id == g.player1 and c.event_id == g.event_id][0]
    c_win = [c for c in h_win.changes if c.player_id == g.player1 and c.event_id == g.event_id][0]
    assert c_win.delta >= c_draw.delta
    date = c_draw.list_date
    on = lambda h: next(lst for lst in h.lists if lst.date == date).by_player()[g.player1]  # noqa: E731
    assert on(h_win).exact >= on(h_draw).exact


@FAST
@given(histories(all_rated=True), st.integers(0, 1000))
def test_among_rated_players_a_win_never_rates_lower_than_a_draw(data, pick):
    check_win_not_below_draw(data, pick)


@pytest.mark.slow
@SLOW
@given(histories(all_rated=True, max_players=14, max_events=8), st.integers(0, 1000))
def test_among_rated_players_a_win_never_rates_lower_than_a_draw_sweep(data, pick):
    check_win_not_below_draw(data, pick)


@FAST
@given(histories())
def test_rated_players_with_the_same_k_exchange_equal_and_opposite_changes_per_game(data):
    rules, players, events, games, standings = data
    h = compute_history(rules, players, events, games, standings)
    changes = {(c.event_id, c.player_id): c for c in h.changes}
    for c in h.changes:
        if c.method != "per_game":
            continue
        for line in c.lines:
            other = changes[(c.event_id, line.opponent_id)]
            if other.method != "per_game" or other.K != c.K:
                continue
            [back] = [ln for ln in other.lines if ln.opponent_id == c.player_id and ln.round == line.round]
            assert back.dR == -line.dR and back.D == -line.D and back.We + line.We == 1


@FAST
@given(histories())
def test_published_rating_is_the_rounded_sum_of_ro_and_the_changes(data):
    rules, players, events, games, standings = data
    h = compute_history(rules, players, events, games, standings)
    first = h.lists[0].by_player()
    previous = {p.id: first[p.id] for p in players}
    for n, lst in enumerate(h.lists):
        for e in lst.entries:
            assert e.rating == (round_half_up(e.exact) if e.exact is not None else None)
            before = previous[e.player_id]
            if n and before.rating is not None and e.rating is not None:
                deltas = [c.delta for c in h.changes if c.player_id == e.player_id and c.list_date == lst.date]
                assert e.exact == before.rating + sum(deltas)
            previous[e.player_id] = e


@FAST
@given(histories())
def test_the_office_continuing_from_stored_states_gets_the_same_next_list(data):
    rules, players, events, games, standings = data
    h = compute_history(rules, players, events, games, standings)
    if len(h.lists) < 2:
        return
    cut = h.lists[-2].date
    early = [e for e in events if e.end_date < cut]
    late = [e for e in events if e.end_date >= cut]
    if not early:
        return
    head = compute_history(rules, players, early, [g for g in games if g.event_id in {e.id for e in early}],
                           standings)
    if head.lists[-1].date != cut:
        return
    late_ids = {e.id for e in late}
    result = rate_period(rules, head.final_states, late, [g for g in games if g.event_id in late_ids],
                         [s for s in standings if s.event_id in late_ids], h.lists[-1].date)
    assert result.published == h.lists[-1]


@FAST
@given(histories())
def test_every_explanation_adds_up(data):
    rules, players, events, games, standings = data
    h = compute_history(rules, players, events, games, standings)
    for c in h.changes:
        if c.lines:
            assert sum(ln.dR for ln in c.lines) == c.raw_delta
            assert sum(ln.We for ln in c.lines) == c.We and sum(ln.W for ln in c.lines) == c.W
            assert all(ln.dR == ln.K * (ln.W - ln.We) for ln in c.lines)
        if c.method in ("averaging", "go_round_robin"):
            assert c.raw_delta == c.K * (c.W - c.We)
        if c.raw_delta is not None and c.delta != c.raw_delta:
            assert c.delta == 0 and c.raw_delta < 0
            assert {"champion_protected", "international_50pct_protected"} & set(c.notes)
