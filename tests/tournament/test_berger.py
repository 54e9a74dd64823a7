"""Round robins by the Berger tables."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from qiyuan.tournament.berger import berger_rounds, pair_round_robin, resting_player
from tournament_sim import event

SIX = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def test_berger_table_for_six_is_fides() -> None:
    assert berger_rounds(6) == SIX


def test_berger_table_for_four() -> None:
    assert berger_rounds(4) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


def test_odd_count_uses_the_table_of_the_next_even_count_and_one_rests() -> None:
    five = berger_rounds(5)
    assert five == [[g for g in rnd if 6 not in g] for rnd in SIX]
    assert [resting_player(5, r) for r in five] == [1, 4, 2, 5, 3]


@pytest.mark.parametrize("n", range(3, 11))
def test_every_pair_meets_once_and_nobody_twice_a_round(n: int) -> None:
    rounds = berger_rounds(n)
    assert len(rounds) == n - 1 + n % 2
    met = Counter(frozenset(g) for r in rounds for g in r)
    assert set(met) == {frozenset(p) for p in combinations(range(1, n + 1), 2)}
    assert set(met.values()) == {1}
    for r in rounds:
        players = [x for g in r for x in g]
        assert len(players) == len(set(players)) == n - n % 2


@pytest.mark.parametrize("n", range(3, 11))
def test_openings_balanced(n: int) -> None:
    """The tables' colours: nobody opens more than one game above or below half of his games."""
    opens = Counter(a for r in berger_rounds(n) for a, _ in r)
    games = n - 1
    for p in range(1, n + 1):
        assert abs(2 * opens[p] - games) <= 2


@pytest.mark.parametrize("n", range(3, 11))
def test_double_round_robin_repeats_with_openers_exchanged(n: int) -> None:
    single, double = berger_rounds(n), berger_rounds(n, double=True)
    assert double[: len(single)] == single
    assert double[len(single):] == [[(b, a) for a, b in r] for r in single]
    opens = Counter(a for r in double for a, _ in r)
    assert all(opens[p] == n - 1 for p in range(1, n + 1))


def test_pair_round_robin_gives_the_table_round() -> None:
    t = event(5)
    p = pair_round_robin(t, 2)
    assert [(b.opener, b.other) for b in p.boards] == [(5, 3), (1, 2)]
    assert p.bye is None and "4 rests this round" in p.explanation
    assert [(b.opener, b.other) for b in pair_round_robin(t, 7).boards] == [(3, 5), (2, 1)]


def test_round_robin_needs_at_least_two_players() -> None:
    with pytest.raises(ValueError):
        berger_rounds(1)
