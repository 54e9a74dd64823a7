"""The scores, checked by hand on a three-game history: log loss, Brier, coverage, paired SE, calibration."""

from __future__ import annotations

import math
from datetime import date

import numpy as np
import pytest
from sandbox_builders import event, game, player

from qiyuan.sandbox.games import game_set
from qiyuan.sandbox.metrics import FLOOR, calibration, game_log_loss, scores
from qiyuan.sandbox.prediction import Prediction

PLAYERS = [player("A", 2000), player("B", 1800), player("C", 1900)]
EVENTS = [event("E0", date(2011, 1, 5)), event("E1", date(2011, 3, 1), date(2011, 3, 3))]
# E0 is before --from (learned, not predicted); E1's three games are predicted, in round order.
GAMES = [game("E0", 1, "A", "C", "1-0"),
         game("E1", 3, "C", "A", "0-1"), game("E1", 1, "A", "B", "1-0"), game("E1", 2, "B", "C", "=")]
GS = game_set(PLAYERS, EVENTS, GAMES, date(2011, 2, 1))


def prediction(name: str, predicted: list[float], covered: list[bool]) -> Prediction:
    """Predictions for E1's games (rounds 1, 2, 3); 0.5 for the unpredicted E0 game."""
    return Prediction(name, np.array([0.5, *predicted]), np.array([False, *covered]))


ONE = prediction("one", [0.75, 0.5, 0.2], [True, True, False])
TWO = prediction("two", [0.6, 0.4, 0.5], [True, False, False])


def test_the_game_set_orders_games_by_event_then_round():
    assert GS.predicted.tolist() == [False, True, True, True]
    assert GS.score.tolist() == [1.0, 1.0, 0.5, 0.0]  # A beat B, B drew C, C lost to A (player1's view)


def test_log_loss_brier_coverage_and_paired_se_by_hand():
    one, two = scores(GS, [ONE, TWO])
    # one: −ln 0.75, ln 2 (a draw at ½: −(½ ln ½ + ½ ln ½)), −ln 0.8
    assert one.log_loss == pytest.approx((-math.log(0.75) + math.log(2) - math.log(0.8)) / 3, rel=1e-12)
    assert one.brier == pytest.approx((0.25**2 + 0 + 0.2**2) / 3, rel=1e-12)
    # two: −ln 0.6, −(½ ln 0.4 + ½ ln 0.6), ln 2
    assert two.log_loss == pytest.approx((-math.log(0.6) - 0.5 * math.log(0.4 * 0.6) + math.log(2)) / 3, rel=1e-12)
    assert two.brier == pytest.approx((0.4**2 + 0.1**2 + 0.5**2) / 3, rel=1e-12)
    assert one.games == two.games == 3
    assert one.coverage == pytest.approx(2 / 3) and two.coverage == pytest.approx(1 / 3)
    # "one" is best; two − one per game: ln 1.25, ½ ln(0.25/0.24), ln 1.6
    d = [math.log(1.25), 0.5 * math.log(0.25 / 0.24), math.log(1.6)]
    mean = sum(d) / 3
    se = math.sqrt(sum((x - mean) ** 2 for x in d) / 2 / 3)
    assert one.se_vs_best == 0.0
    assert two.se_vs_best == pytest.approx(se, rel=1e-12)


def test_the_paired_se_of_a_constant_difference_is_zero():
    """Paired, not two independent samples: a system that is worse by the same amount in every game
    differs from the best with no uncertainty at all."""
    # ln(7/6) worse in every game: 0.6 for a win and a loss predicted at 0.7, and for the draw a p with
    # p(1 − p) = ¼·(6/7)², i.e. ½ + √13/14, against ½.
    shifted = prediction("shifted", [0.6, 0.5 + math.sqrt(13) / 14, 0.4], [True, True, True])
    better = prediction("better", [0.7, 0.5, 0.3], [True, True, True])
    rows = scores(GS, [shifted, better])
    assert rows[1].se_vs_best == 0.0 and rows[0].se_vs_best == pytest.approx(0.0, abs=1e-15)
    assert rows[0].log_loss > rows[1].log_loss


def test_a_certain_wrong_prediction_costs_the_floor_not_infinity():
    """附表2 prints 1.00 for D > 735: an upset then costs −ln 0.005, half the table's last digit."""
    assert game_log_loss(np.array([1.0]), np.array([0.0]))[0] == pytest.approx(-math.log(FLOOR))
    assert game_log_loss(np.array([0.0]), np.array([0.0]))[0] == pytest.approx(-math.log(1 - FLOOR))
    # The Brier score uses the prediction as it is.
    certain = prediction("certain", [1.0, 0.5, 1.0], [True, True, True])
    row = scores(GS, [certain])[0]
    assert row.brier == pytest.approx((0 + 0 + 1) / 3)


def test_calibration_bins_both_sides_of_the_covered_games():
    bins = calibration(GS, ONE)
    filled = {(b.lo, b.hi): (b.count, b.predicted, b.observed) for b in bins if b.count}
    # Covered: A–B at 0.75 (A won) and B–C at 0.5 (draw); each from both sides.
    assert sorted(filled.values()) == [(1, 0.25, 0.0), (1, 0.75, 1.0), (2, 0.5, 0.5)]
    assert [i for i, b in enumerate(bins) if b.count] == [2, 5, 7] and len(bins) == 10


def test_calibration_of_a_system_that_never_has_ratings_uses_every_game():
    constant = prediction("constant", [0.5, 0.5, 0.5], [False, False, False])
    bins = calibration(GS, constant)
    assert [b.count for b in bins if b.count] == [6]
