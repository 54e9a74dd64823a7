"""``rules compare``: per list date, who is published under each rule set, the differences, who moves most."""

from __future__ import annotations

import dataclasses
from datetime import date

import numpy as np
import pytest
from sandbox_builders import event, game, player

from qiyuan.errors import InputError
from qiyuan.rating.history import compute_history
from qiyuan.rating.rules import BUILTIN_RULES
from qiyuan.sandbox.compare import compare, compare_lists
from qiyuan.sandbox.lists import ListTimeline

CGA = BUILTIN_RULES["cga-gomoku-2011"]
IDS = ("P1", "P2", "P3", "P4")


def timeline(name: str, dates: list[date], ratings: list[list[int | None]]) -> ListTimeline:
    rating = np.array([[r or 0 for r in row] for row in ratings], np.int64)
    published = np.array([[r is not None for r in row] for row in ratings], bool)
    return ListTimeline(dataclasses.replace(CGA, name=name), IDS, tuple(dates), rating, published,
                        np.zeros_like(rating))


def test_each_list_date_by_hand():
    a = timeline("A", [date(2012, 1, 1), date(2012, 7, 1)], [[2000, 1900, None, None], [2010, 1890, None, 1700]])
    b = timeline("B", [date(2012, 1, 1), date(2012, 7, 1)], [[2000, 1950, 1800, None], [1990, 1990, 1810, None]])
    result = compare_lists(a, b, top=3)
    first, second = result.dates
    assert (first.published_a, first.published_b, first.both, first.only_a, first.only_b) == (2, 3, 2, 0, 1)
    assert (first.mean_diff, first.mean_abs_diff, first.largest_diff, first.largest_player) == (25.0, 25.0, 50, "P2")
    assert (second.published_a, second.published_b, second.both, second.only_a, second.only_b) == (3, 3, 2, 1, 1)
    assert (second.mean_diff, second.mean_abs_diff, second.largest_diff, second.largest_player) == (40.0, 60.0, 100,
                                                                                                     "P2")
    # P2 moves most (+100 on 2012-07-01), then P1 (−20 on 2012-07-01); P3 and P4 are never on both lists.
    assert [(m.player_id, m.date, m.rating_a, m.rating_b, m.diff) for m in result.movers] == [
        ("P2", date(2012, 7, 1), 1890, 1990, 100), ("P1", date(2012, 7, 1), 2010, 1990, -20)]


def test_different_calendars_compare_the_lists_in_force_on_every_date_of_either():
    a = timeline("A", [date(2012, 1, 1), date(2012, 7, 1)], [[2000, None, None, None], [2100, None, None, None]])
    b = timeline("B", [date(2012, 1, 1), date(2012, 4, 1), date(2012, 7, 1)],
                 [[2000, None, None, None], [2050, None, None, None], [2060, None, None, None]])
    rows = compare_lists(a, b).dates
    assert [r.date for r in rows] == [date(2012, 1, 1), date(2012, 4, 1), date(2012, 7, 1)]
    assert [r.largest_diff for r in rows] == [0, 50, -40]  # on 1 April A's January list is in force
    assert rows[0].largest_player is None  # no difference: nobody "largest"


def test_the_same_rule_set_twice_and_an_empty_history_are_refused():
    players = [player("A", 2000), player("B", 1900)]
    events = [event("E1", date(2012, 3, 1))]
    games = [game("E1", 1, "A", "B", "1-0")]
    with pytest.raises(InputError, match="the same rule set"):
        compare(CGA, CGA, players, events, games)
    with pytest.raises(InputError, match="no events"):
        compare(CGA, BUILTIN_RULES["bjsh-gomoku-2007"], players, [], [])
    with pytest.raises(InputError, match="at least 1"):
        compare(CGA, BUILTIN_RULES["bjsh-gomoku-2007"], players, events, games, top=0)


def test_compare_rates_both_rule_sets_from_the_same_start():
    """The first row is the starting list (players.csv), identical under both. B–S publishes on
    1 April, CGA only on 1 July: on 1 April the CGA starting list is still in force, so the
    difference is B–S's change (the reference engine's list)."""
    bjsh = BUILTIN_RULES["bjsh-gomoku-2007"]
    players = [player("A", 2000), player("B", 1900), player("C", 1950)]
    events = [event("E1", date(2012, 3, 1))]
    games = [game("E1", 1, "A", "B", "0-1"), game("E1", 2, "A", "C", "0-1"), game("E1", 3, "B", "C", "=")]
    result = compare(CGA, bjsh, players, events, games)
    assert [r.date for r in result.dates] == [date(2012, 1, 1), date(2012, 4, 1), date(2012, 7, 1)]
    assert result.dates[0].mean_abs_diff == 0.0 and result.dates[0].both == 3
    april = compute_history(bjsh, players, events, games).lists[0].by_player()
    changes = [april[p.id].rating - int(p.rating) for p in players]
    assert result.dates[1].mean_diff == pytest.approx(sum(changes) / 3)
    assert result.dates[1].largest_diff == max(changes, key=abs) != 0
