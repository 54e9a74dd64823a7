"""The scores, checked by hand on a three-game history: log loss, Brier, prediction rate, coverage, paired SE,
calibration by rating gap and its slope."""

from __future__ import annotations

import dataclasses
import math
from datetime import date

import numpy as np
import pytest
from sandbox_builders import event, game, player

from qiyuan.sandbox.games import game_set
from qiyuan.sandbox.metrics import (FLOOR, both_rated, calibration, calibration_slope, clustered_se, game_log_loss,
                                    scores)
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


def test_prediction_rate_counts_the_favourite_winning_with_draws_and_even_predictions_half():
    """Coulom's prediction rate: ONE predicts A (0.75, won), an even game (0.5, drawn), A again (0.2 for
    C, who lost): 1 + ½ + 1; TWO: 1 (0.6, won), ½ (a draw), ½ (an even prediction)."""
    one, two = scores(GS, [ONE, TWO])
    assert one.prediction_rate == pytest.approx(2.5 / 3) and two.prediction_rate == pytest.approx(2 / 3)


def test_the_both_rated_subset_is_the_games_every_rating_keeping_system_covered():
    constant = prediction("constant", [0.5, 0.5, 0.5], [False, False, False])  # keeps no ratings: ignored
    mask = both_rated(GS, [ONE, TWO, constant])
    assert mask.tolist() == [False, True, False, False]
    rows = scores(GS, [ONE, TWO, constant], mask)
    assert {r.games for r in rows} == {1} and rows[0].log_loss == pytest.approx(-math.log(0.75))


def test_calibration_by_the_favourites_rating_gap():
    """Each game from the favourite's side: 0.75 (won) is G = 400·log10 3 ≈ 191, 0.2 for C is 0.8 for A
    (won), G = 400·log10 4 ≈ 241 — both in the 175–250 bin; the even draw in 0–25."""
    bins = calibration(GS, ONE).bins
    filled = {(b.lo, b.hi): (b.count, round(b.predicted, 6), b.observed) for b in bins if b.count}
    assert filled == {(0.0, 25.0): (1, 0.5, 0.5), (175.0, 250.0): (2, 0.775, 1.0)}
    g = [b for b in bins if b.lo == 175.0][0].gap
    assert g == pytest.approx((400 * math.log10(3) + 400 * math.log10(4)) / 2)


def test_the_calibration_slope_recovers_an_overconfident_system():
    """Outcomes drawn exactly at logistic(½·logit p) (fractional scores, 1,900 games): the damped fit gives
    b = ½ (the penalty of one pseudo-game moves it by less than 0.002), far from 1; a calibrated system
    gives b = 1 (p-value 1); the constant gets the calibrated 1 with the penalty's standard error."""
    p = np.tile(np.linspace(0.05, 0.95, 19), 100)
    logit = np.log(p / (1 - p))
    half = calibration_slope(p, 1 / (1 + np.exp(-0.5 * logit)))
    assert half.slope == pytest.approx(0.5, abs=2e-3) and half.z < -10
    same = calibration_slope(p, p)
    assert same.slope == pytest.approx(1.0, abs=1e-8) and same.p_value == pytest.approx(1.0)
    flat = calibration_slope(np.full(5, 0.5), np.array([1, 0, 1, 0, 0.5]))
    assert flat.slope == pytest.approx(1.0) and flat.se == pytest.approx(1.0)


def test_the_damped_slope_always_gives_a_number_where_the_plain_fit_diverges():
    """Perfectly separated outcomes (every favourite won): the likelihood's maximum is at b = ∞, which the
    undamped Newton fit ran to and printed blank; the damped fit stops at a finite, large slope."""
    p = np.array([0.6, 0.4, 0.7, 0.3, 0.55, 0.45])
    s = (p > 0.5).astype(float)
    fit = calibration_slope(p, s)
    assert all(math.isfinite(x) for x in (fit.slope, fit.se, fit.z, fit.p_value)) and fit.slope > 1


def test_calibration_of_the_constant_puts_every_game_in_the_first_bin():
    constant = prediction("constant", [0.5, 0.5, 0.5], [False, False, False])
    c = calibration(GS, constant)
    assert [b.count for b in c.bins if b.count] == [3] and c.slope.slope == pytest.approx(1.0)


def test_calibration_by_colour_bins_blacks_signed_gap_both_ways():
    """Black's own view: with player1 Black in every game, 0.75 for A (won) is G ≈ +191, 0.5 (drawn) is 0,
    and 0.2 for C (lost) is G ≈ −241 — a White favourite, in its own bin below zero. With player2 Black
    in the first game, that game is seen from B: 0.25, lost. Without colours: no such table."""
    gs = dataclasses.replace(GS, black=np.array([1, 1, 1, 1], np.int8))
    bins = calibration(gs, ONE).by_colour
    filled = {(b.lo, b.hi): (b.count, round(b.predicted, 6), b.observed) for b in bins if b.count}
    assert filled == {(-250.0, -175.0): (1, 0.2, 0.0), (-25.0, 25.0): (1, 0.5, 0.5), (175.0, 250.0): (1, 0.75, 1.0)}
    assert bins[0].lo == -math.inf and bins[-1].hi == math.inf
    gs = dataclasses.replace(GS, black=np.array([1, -1, 1, 1], np.int8))
    filled = {(b.lo, b.hi): (b.count, round(b.predicted, 6), b.observed) for b in calibration(gs, ONE).by_colour if b.count}
    assert filled[(-250.0, -175.0)] == (2, 0.225, 0.0)
    assert calibration(GS, ONE).by_colour == []


def test_standard_errors_are_clustered_by_event():
    """Two events of two games each: se² = G/(G − 1)·Σ_events (Σ (x − x̄))² / n². With the same per-game
    values, splitting them so that each event holds one high and one low value gives a smaller SE than
    putting the two high ones together (games of one event move together)."""
    x = np.array([1.0, 2.0, 3.0, 6.0])
    together = clustered_se(x, np.array([0, 0, 1, 1]))
    mean = x.mean()
    u = [(1 - mean) + (2 - mean), (3 - mean) + (6 - mean)]
    assert together == pytest.approx(math.sqrt(2 * sum(v * v for v in u)) / 4, rel=1e-12)
    apart = clustered_se(x, np.array([0, 1, 1, 0]))
    assert apart < together
    assert clustered_se(x, np.zeros(4)) == pytest.approx(math.sqrt(x.var(ddof=1) / 4))  # one event: as iid
    assert clustered_se(x[:1], np.zeros(1)) == 0.0


def test_a_rows_loss_is_split_into_listed_and_prior_driven_games():
    """ONE had both ratings for rounds 1 and 2 (−ln 0.75, ln 2) and predicted round 3 from the prior
    (−ln 0.8); the paired difference to the best row is reported with its mean."""
    one, two = scores(GS, [ONE, TWO])
    assert one.listed_games == 2 and two.listed_games == 1
    assert one.listed_log_loss == pytest.approx((-math.log(0.75) + math.log(2)) / 2)
    assert one.prior_log_loss == pytest.approx(-math.log(0.8))
    assert two.diff_vs_best == pytest.approx(two.log_loss - one.log_loss) and one.diff_vs_best == 0.0
    assert one.se > 0
