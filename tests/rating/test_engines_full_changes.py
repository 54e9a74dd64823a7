"""Issue 19 (1): the fast engine's changes, with ``full_changes``, are the reference's to the byte — notes in the
reference's order, per-game lines, each number's text — per rule set and per variant (hypothesis); the stored
columns of each change too. The canonical text (``formats.canonical_text``) is what editions digest."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given
from test_fast_equivalence import FAST, RULE_SETS, SLOW, histories

from qiyuan.formats.canonical_text import WRITERS, change_row, change_text, writer
from qiyuan.formats.change_texts import explanation_texts, stored_numbers
from qiyuan.rating.history import compute_history
from qiyuan.rating.model import Result
from qiyuan.rating.rules import BUILTIN_RULES, with_settings

#: besides the equivalence test's: the settings whose notes only the changes show (far below, a cap by band,
#: the champion rule's long events under several protections)
VARIANTS = {
    **RULE_SETS,
    "cga-far-below-cap-bands": with_settings(BUILTIN_RULES["cga-gomoku-2011"], {
        "far_below_not_rated": [2000, 300], "cap": 400, "cap_bands": [[2300, 200], [2600, "none"]]}),
    "bjsh-far-below-cap-bands-short-champion-events": with_settings(BUILTIN_RULES["bjsh-gomoku-2007"], {
        "far_below_not_rated": [2100, 250], "cap_bands": [[2200, 150]], "champion_max_days": 10,
        "board_rule": True, "international_min_score": "0.5"}),
    "go-far-below-averaging-rr-short-champion-events": with_settings(BUILTIN_RULES["cn-go-1995"], {
        "far_below_not_rated": [1900, 200], "we_round_robin": "averaging", "champion_max_days": 5}),
}


def _all_rated(data):
    """Every player rated, every game played: the changes the fast engine builds from its columns."""
    players, events, games, standings = data
    players = [p if p.rating is not None else replace(p, rating=Decimal(1800 + 37 * i), games=25)
               for i, p in enumerate(players)]
    games = [g if g.result.played else replace(g, result=Result.WIN) for g in games]
    return players, events, games, standings


def assert_same_text(rules, players, events, games, standings):
    reference = compute_history(rules, players, events, games, standings, engine="reference")
    fast = compute_history(rules, players, events, games, standings, engine="fast", full_changes=True)
    assert [change_text(c) for c in fast.changes] == [change_text(c) for c in reference.changes]
    assert [(c.event_id, c.player_id, c.list_date, change_row(c)) for c in fast.changes] == \
        [(c.event_id, c.player_id, c.list_date, change_row(c)) for c in reference.changes]
    # Issue 34 (4): the bulk writers, from the engine's change columns (no object per change), write every version
    # of the canonical text byte for byte as the per-object writer does from the reference's changes
    for version in WRITERS:
        w = writer(version)
        texts = [w.change_text(c) for c in reference.changes]
        assert explanation_texts(fast.change_texts, version) == texts
        assert explanation_texts(reference.change_texts, version) == texts
        assert list(zip(*stored_numbers(fast.change_texts, version).values())) == \
            [w.change_row(c) for c in reference.changes]
    # the states each edition stores, as text (repr keeps a decimal's exponent: 2402.30 is not 2402.3)
    assert sorted((k, repr(v)) for k, v in fast.final_states.items()) == \
        sorted((k, repr(v)) for k, v in reference.final_states.items())


@pytest.mark.parametrize("name", sorted(VARIANTS))
@FAST
@given(data=histories())
def test_full_changes_are_the_references_text(name, data):
    assert_same_text(VARIANTS[name], *data)


@pytest.mark.parametrize("name", sorted(VARIANTS))
@FAST
@given(data=histories().map(_all_rated))
def test_full_changes_of_all_rated_events_are_the_references_text(name, data):
    assert_same_text(VARIANTS[name], *data)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
@SLOW
@given(data=histories(max_players=16, max_events=14) | histories(max_players=16, max_events=14).map(_all_rated))
def test_full_changes_large_sweep(name, data):
    assert_same_text(VARIANTS[name], *data)


def _notes(history, event_id):
    return {c.player_id: c.notes for c in history.changes if c.event_id == event_id}


def test_zero_score_notes_of_newcomers_who_met_each_other():
    """CGA Art. 5(十二): two newcomers without a point against rated players are left out in the same round; the
    one later by id was the opponent of the one left out first (his note comes first), the other was not; the
    rated players' games against them are left out, a forfeit noted before everything."""
    from datetime import date

    from qiyuan.rating.model import Event, EventFormat, Game, Player

    players = [Player("N1", "甲"), Player("N2", "乙"), Player("R1", "丙", rating=Decimal(2000), games=30),
               Player("R2", "丁", rating=Decimal(2100), games=30), Player("R3", "戊", rating=Decimal(2200), games=30)]
    events = [Event("E", "瑞士制", date(2011, 3, 1), date(2011, 3, 3), EventFormat.SWISS)]
    games = [Game("E", 1, "N1", "R1", Result.LOSS), Game("E", 1, "N2", "R2", Result.LOSS),
             Game("E", 2, "N1", "N2", Result.WIN), Game("E", 3, "R3", "N1", Result.WIN),
             Game("E", 3, "R1", "N2", Result.WIN), Game("E", 4, "R2", "R3", Result.DRAW),
             Game("E", 5, "R1", "R3", Result.FORFEIT_WIN)]
    rules = BUILTIN_RULES["cga-gomoku-2011"]
    assert_same_text(rules, players, events, games, [])
    fast = compute_history(rules, players, events, games, engine="fast", full_changes=True)
    assert _notes(fast, "E") == {
        "N1": ["zero_score_ignored"],
        "N2": ["zero_score_opponent_ignored", "zero_score_ignored"],
        "R1": ["forfeit_not_rated", "zero_score_opponent_ignored", "no_rated_games"],
        "R2": ["zero_score_opponent_ignored"],
        "R3": ["forfeit_not_rated", "zero_score_opponent_ignored"],
    }


def test_zero_score_rule_repeated_in_a_round_robin():
    """In a CGA round robin the zero-score rule repeats: N2's only point was against N1, left out first, so N2
    is left out next (the opponent's note first); N3 keeps his games with too few rated opponents; the rated
    player's game against N3 is rated on N3's Ru (a per-game line)."""
    from datetime import date

    from qiyuan.rating.model import Event, EventFormat, Game, Player

    players = [Player("N1", "甲"), Player("N2", "乙"), Player("N3", "丙"),
               Player("R1", "丁", rating=Decimal(2000), games=30)]
    events = [Event("E", "循环赛", date(2011, 3, 1), date(2011, 3, 3), EventFormat.ROUND_ROBIN)]
    games = [Game("E", 1, "R1", "N1", Result.WIN), Game("E", 1, "N2", "N3", Result.LOSS),
             Game("E", 2, "R1", "N2", Result.WIN), Game("E", 2, "N3", "N1", Result.WIN),
             Game("E", 3, "R1", "N3", Result.DRAW), Game("E", 3, "N1", "N2", Result.LOSS)]
    rules = BUILTIN_RULES["cga-gomoku-2011"]
    assert_same_text(rules, players, events, games, [])
    fast = compute_history(rules, players, events, games, engine="fast", full_changes=True)
    notes = _notes(fast, "E")
    assert (notes["N1"], notes["N2"], notes["N3"]) == (
        ["zero_score_ignored"], ["zero_score_opponent_ignored", "zero_score_ignored"],
        ["zero_score_opponent_ignored", "fewer_than_3_rated_opponents"])
    (r1,) = [c for c in fast.changes if c.player_id == "R1"]
    assert [(ln.round, ln.opponent_id, str(ln.W)) for ln in r1.lines] == [(3, "N3", "0.5")]
