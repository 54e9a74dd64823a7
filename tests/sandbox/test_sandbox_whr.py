"""WHR through the ``whr`` package: the library works, the baseline uses it as documented, refits fit the budget."""

from __future__ import annotations

import math
from datetime import date

import numpy as np
import pytest
import whr
from sandbox_builders import event, game, player

from qiyuan.sandbox.games import game_set
from qiyuan.sandbox.whr import WhrSettings, plan_refits, predict_whr


def test_the_library_orders_its_documented_example():
    """whr.Base's docstring example (w² = 30): Carol > Alice > Bob > Dave at the end."""
    base = whr.Base(config={"w2": 30})
    base.create_game("Alice", "Carol", "D", 0)
    base.create_game("Bob", "Dave", "B", 10)
    base.create_game("Dave", "Alice", "W", 30)
    base.create_game("Bob", "Carol", "W", 60)
    base.iterate(50)
    assert [name for name, _ in base.get_ordered_ratings()] == ["Carol", "Alice", "Bob", "Dave"]
    assert base.ratings_for_player("Alice")[0][1] == pytest.approx(78.51, abs=0.01)


def test_an_event_is_predicted_by_a_fit_of_the_events_that_ended_before_it():
    """A beat B three times in E1: WHR's fit at E2's start (E1's games on E1's end day, the settings'
    w² and virtual games, first fit's iterations) gives A − B and their standard deviations; by E2's
    start (29 days later) each variance has grown by 29·w². E2's A–B games are predicted by the
    logistic-normal 1/(1 + exp(−c·(r_A − r_B)/√(1 + π·c²·(σ_A² + σ_B²)/8))), c = ln 10/400; C, who never
    played before, has no rating: he is predicted at WHR's prior, 0, with the virtual draws' variance
    4/(n·c²), not covered."""
    players = [player("A"), player("B"), player("C")]
    events = [event("E1", date(2012, 1, 1), date(2012, 1, 3)), event("E2", date(2012, 2, 1))]
    games = [game("E1", r, "A", "B", "1-0") for r in (1, 2, 3)] + [game("E2", 1, "B", "A", "="),
                                                                    game("E2", 2, "C", "A", "1-0")]
    gs = game_set(players, events, games, date(2012, 2, 1))
    settings = WhrSettings()
    p, schedule = predict_whr(gs, settings)
    base = whr.Base(config={"w2": settings.w2, "virtual_games": settings.virtual_games})
    for _ in range(3):
        base.create_game("A", "B", "B", 2)  # day 2 = 3 January, counted from E1's start
    base.iterate(settings.first_iterations)
    (_, ra, sa), (_, rb, sb) = base.ratings_for_player("A")[-1], base.ratings_for_player("B")[-1]
    assert ra > rb
    c = math.log(10) / 400
    va, vb, vc = sa**2 + 29 * settings.w2, sb**2 + 29 * settings.w2, 4 / (settings.virtual_games * c * c)

    def logistic_normal(d: float, var: float) -> float:
        return 1 / (1 + math.exp(-c * d / math.sqrt(1 + math.pi * c * c * var / 8)))

    assert p.expected[3] == pytest.approx(logistic_normal(rb - ra, va + vb), rel=1e-9) and p.covered[3]
    assert p.expected[4] == pytest.approx(logistic_normal(0.0 - ra, vc + va), rel=1e-9) and not p.covered[4]
    assert abs(p.expected[3] - 0.5) < abs(1 / (1 + 10 ** ((ra - rb) / 400)) - 0.5)  # the uncertainty tempers it
    assert schedule.every_event and schedule.days == (date(2012, 2, 1).toordinal(),)


def test_every_predicted_event_gets_a_refit_when_the_budget_allows():
    players = [player(x) for x in "ABCD"]
    events = [event(f"E{i}", date(2012, 1 + i, 1)) for i in range(5)]
    games = [game(f"E{i}", 1, "AB"[i % 2], "CD"[i % 2], "1-0") for i in range(5)]
    gs = game_set(players, events, games, date(2012, 2, 1))
    p, schedule = predict_whr(gs)
    assert len(schedule.days) == 4 and schedule.iterations == (30, 10, 10, 10) and schedule.every_event
    assert p.covered.tolist() == [False, False, True, True, True]  # E0 (A–C) is not predicted; B–D first in E1


def test_refits_are_planned_within_the_budget():
    days = np.arange(10)
    games = np.array([0, 10, 20, 30, 40, 50, 60, 70, 80, 90])
    roomy = plan_refits(games, days, WhrSettings(budget=10**9))
    assert roomy.every_event and roomy.iterations == (30,) + (10,) * 9
    # 450 games learned over the refits: at 10 iterations (+1 uncertainty pass) 4,950; fewer iterations fit.
    tight = plan_refits(games, days, WhrSettings(budget=2_000))
    assert tight.every_event and tight.iterations[1:] == (3,) * 9 and tight.cost == 450 * 4 <= 2_000
    # Not even one iteration each: refits at fewer days, the first kept, evenly by games learned.
    thin = plan_refits(games, days, WhrSettings(budget=500))
    assert not thin.every_event and thin.days[0] == 0 and thin.cost <= 500
    assert set(thin.iterations[1:]) == {1} and len(thin.days) < 10
    learned = [int(games[list(days).index(d)]) for d in thin.days]
    steps = np.diff(learned)
    assert steps.min() >= steps.max() - 10  # as even as the candidates allow
    assert "fewer than the event starts" in str(thin.describe()) and "game-iterations" in str(thin.describe())
