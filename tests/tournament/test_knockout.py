"""Knock-out brackets seeded by rating."""

from __future__ import annotations

import pytest
from tournament_sim import event, played

from qiyuan.tournament.knockout import bracket, decide, knockout_rounds, next_matches, seed_positions


def rated(n: int, ratings: list[int | None]):
    t = event(n)
    for e, r in zip(t.entrants, ratings):
        e.rating = r
    return t


def test_standard_seeding_order() -> None:
    assert seed_positions(2) == [1, 2]
    assert seed_positions(4) == [1, 4, 2, 3]
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_seeds_by_rating_and_byes_to_top_seeds() -> None:
    """Six players: a bracket of 8; seeds 1 and 2 get the two byes."""
    t = rated(6, [1500, 2100, 1800, None, 1900, 1700])
    ms = bracket(t.entrants)
    # seed order: 2 (2100), 5 (1900), 3 (1800), 6 (1700), 1 (1500), 4 (unrated)
    assert [(m.home, m.away) for m in ms] == [(2, None), (6, 1), (5, None), (3, 4)]
    assert [m.winner for m in ms] == [2, None, 5, None]


def test_winners_advance_in_bracket_order() -> None:
    t = rated(4, [2000, 1900, 1800, 1700])
    r1 = bracket(t.entrants)
    assert [(m.home, m.away) for m in r1] == [(1, 4), (2, 3)]
    decide(r1, {1: 4, 2: 2})
    r2 = next_matches(r1)
    assert [(m.round, m.home, m.away) for m in r2] == [(2, 4, 2)]
    with pytest.raises(ValueError):
        decide(r2, {1: 3})


def test_knockout_rounds_read_results_from_the_round_cells() -> None:
    t = rated(4, [2000, 1900, 1800, 1700])
    played(t, 1, 1, 4, "1")
    played(t, 1, 2, 3, "-")  # 2 loses by forfeit
    rounds = knockout_rounds(t)
    assert [m.winner for m in rounds[0]] == [1, 3]
    assert [(m.home, m.away, m.winner) for m in rounds[1]] == [(1, 3, None)]
    played(t, 2, 3, 1, "1")
    assert knockout_rounds(t)[1][0].winner == 3


def test_next_round_needs_every_winner() -> None:
    t = rated(4, [2000, 1900, 1800, 1700])
    with pytest.raises(ValueError, match="no winner"):
        next_matches(bracket(t.entrants))
