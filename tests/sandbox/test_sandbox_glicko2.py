"""Glicko-2: Glickman's worked example, the glicko2-py library as an oracle, and the baseline's wiring."""

from __future__ import annotations

import math
from datetime import date

import numpy as np
import pytest
from glicko2.math.algorithm import update_rating
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sandbox_builders import event, game, player, starts

from qiyuan.sandbox.games import game_set
from qiyuan.sandbox.glicko2 import (PERIOD_DAYS, RD_HELD, RD_NEW, SCALE, VOLATILITY, g, predict_glicko2,
                                     rate_period)


# Glickman, "Example of the Glicko-2 system" (2012): a player rated 1500, RD 200, σ 0.06 plays three
# games in one period (τ = 0.5).
EXAMPLE = dict(r=1500.0, rd=200.0, sigma=0.06, opponents=[(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0),
                                                          (1700.0, 300.0, 0.0)])


def _ours(r: float, rd: float, sigma: float, opponents: list[tuple[float, float, float]]):
    n = len(opponents)
    mu, phi, sig = rate_period(np.array([(r - 1500) / SCALE]), np.array([rd / SCALE]), np.array([sigma]),
                               np.zeros(n, np.int64), np.array([(o[0] - 1500) / SCALE for o in opponents]),
                               np.array([o[1] / SCALE for o in opponents]), np.array([o[2] for o in opponents]))
    return float(mu[0]), float(phi[0]), float(sig[0])


def _library(r: float, rd: float, sigma: float, opponents: list[tuple[float, float, float]]):
    u = update_rating((r - 1500) / SCALE, rd / SCALE, sigma,
                      [((o[0] - 1500) / SCALE, o[1] / SCALE, o[2]) for o in opponents], tau=0.5)
    return u.mu, u.phi, u.sigma


@pytest.mark.parametrize("update", [_ours, _library], ids=["qiyuan.sandbox.glicko2", "glicko2-py"])
def test_glickmans_worked_example(update):
    """Step 5: σ′ = 0.05999 (0.0599960 unrounded, within the iteration's tolerance); step 7: φ′ = 0.8722, μ′ = −0.2069; step 8: r′ = 1464.06, RD′ = 151.52
    (the paper rounds μ′ and φ′ to four decimals before step 8; unrounded, r′ = 1464.0507)."""
    mu, phi, sigma = update(**EXAMPLE)
    assert abs(sigma - 0.05999) < 1e-5
    assert round(phi, 4) == 0.8722 and round(mu, 4) == -0.2069
    assert round(SCALE * round(mu, 4) + 1500, 2) == 1464.06
    assert round(SCALE * phi, 2) == 151.52
    assert abs(SCALE * mu + 1500 - 1464.06) < 0.01


def test_a_player_away_from_1500_matches_an_exact_computation():
    """μ ≠ 0, where the most used Python package (``glicko2``, step 5's f with μ² in place of φ²) gives
    σ′ = 0.0600068: the same games for a player rated 2300, against a 50-digit Decimal computation of
    Glickman's steps (root of f by bisection): r′ 1956.15854057, RD′ 193.12409225, σ′ 0.06002926418."""
    mu, phi, sigma = _ours(2300.0, 200.0, 0.06, EXAMPLE["opponents"])
    assert SCALE * mu + 1500 == pytest.approx(1956.1585405683657, abs=1e-6)
    assert SCALE * phi == pytest.approx(193.12409224862, abs=1e-6)
    assert sigma == pytest.approx(0.06002926418018316, rel=1e-7)


opponent = st.tuples(st.floats(-3, 3), st.floats(0.1, 2.0), st.sampled_from([0.0, 0.5, 1.0]))


@settings(max_examples=300, deadline=None)
@example(mu=0.1015625, phi=0.484375, sigma=0.09375,  # μ′ ≈ 0.0007: compared as the change μ′ − μ
         opponents=[(0.0, 1.0, 0.0), (0.0, 1.0, 0.0), (0.0, 1.0, 1.0), (0.0, 1.0, 1.0), (0.0, 1.25, 0.0),
                    (0.0, 0.25, 0.0), (1.5, 1.0, 0.5), (1.25, 0.75, 0.5)])
@given(mu=st.floats(-3, 3), phi=st.floats(0.2, 2.0), sigma=st.floats(0.03, 0.1),
       opponents=st.lists(opponent, min_size=1, max_size=12))
def test_the_vectorized_update_agrees_with_the_library(mu, phi, sigma, opponents):
    expected = update_rating(mu, phi, sigma, opponents, tau=0.5)
    got = rate_period(np.array([mu]), np.array([phi]), np.array([sigma]), np.zeros(len(opponents), np.int64),
                      np.array([o[0] for o in opponents]), np.array([o[1] for o in opponents]),
                      np.array([o[2] for o in opponents]))
    # The Illinois iteration stops within 1e-6 of the root x = ln σ′² and the library reports the other
    # end of the bracket: σ′ agrees to ½·1e-6, φ′ about as well, and the change μ′ − μ = φ′²·Σ to twice that.
    assert float(got[2][0]) == pytest.approx(expected.sigma, rel=2e-6)
    assert float(got[1][0]) == pytest.approx(expected.phi, rel=2e-6)
    assert float(got[0][0]) - mu == pytest.approx(expected.mu - mu, rel=1e-5, abs=1e-12)


def test_several_players_in_one_period_are_each_rated_alone():
    one = _ours(**EXAMPLE)
    two = _ours(2300.0, 200.0, 0.06, EXAMPLE["opponents"])
    sides = np.repeat([0, 1], 3)
    opp = EXAMPLE["opponents"] * 2
    mu, phi, sigma = rate_period(np.array([0.0, 800 / SCALE]), np.array([200 / SCALE] * 2), np.array([0.06] * 2),
                                 sides, np.array([(o[0] - 1500) / SCALE for o in opp]),
                                 np.array([o[1] / SCALE for o in opp]), np.array([o[2] for o in opp]))
    assert (mu[0], phi[0], sigma[0]) == pytest.approx(one) and (mu[1], phi[1], sigma[1]) == pytest.approx(two)


def test_the_baseline_predicts_from_the_start_and_learns_each_event_as_a_period():
    """A 2000 and B 1800 (RD 200): the first event is predicted from the starts,
    E = 1/(1 + exp(−g(√(φ_A² + φ_B²))·(μ_A − μ_B))); after A beats B there, the second is predicted
    from both players' updates by the library (one period each, nine days apart: no idle month)."""
    players = [player("A", 2000), player("B", 1800), player("C")]
    events = [event("E1", date(2012, 3, 1)), event("E2", date(2012, 3, 10))]
    games = [game("E1", 1, "A", "B", "1-0"), game("E2", 1, "A", "B", "0-1"), game("E2", 2, "A", "C", "1-0")]
    gs = game_set(players, events, games, date(2012, 3, 1))
    p = predict_glicko2(gs, *starts(players))
    phi0 = RD_HELD / SCALE
    first = 1 / (1 + math.exp(-float(g(np.array(math.sqrt(2) * phi0))) * (200 / SCALE)))
    assert p.expected[0] == pytest.approx(first, rel=1e-12) and p.covered[0]
    a = update_rating(500 / SCALE, phi0, VOLATILITY, [(300 / SCALE, phi0, 1.0)])
    b = update_rating(300 / SCALE, phi0, VOLATILITY, [(500 / SCALE, phi0, 0.0)])
    second = 1 / (1 + math.exp(-float(g(np.array(math.hypot(a.phi, b.phi)))) * (a.mu - b.mu)))
    assert p.expected[1] == pytest.approx(second, rel=1e-6) and p.covered[1]
    # C is a newcomer (no rating, no game yet): predicted from the prior, 1800 for a man, and RD 350; not covered.
    phi_c = RD_NEW / SCALE
    third = 1 / (1 + math.exp(-float(g(np.array(math.hypot(a.phi, phi_c)))) * (a.mu - 300 / SCALE)))
    assert p.expected[2] == pytest.approx(third, rel=1e-6) and not p.covered[2]


def test_the_rating_deviation_grows_by_sigma_squared_per_idle_month():
    """Step 6 for each month without an event: at the next event φ² + (months − 1)·σ², at most RD 350."""
    days = 1 + round(7 * PERIOD_DAYS)  # the next event seven months later: six idle months
    events = [event("E1", date(2012, 1, 1)), event("E2", date.fromordinal(date(2012, 1, 1).toordinal() + days))]
    games = [game("E1", 1, "A", "B", "="), game("E2", 1, "A", "B", "1-0")]
    players = [player("A", 2100), player("B", 2000)]
    p = predict_glicko2(game_set(players, events, games, events[1].start_date), *starts(players))
    a = update_rating(600 / SCALE, RD_HELD / SCALE, VOLATILITY, [(500 / SCALE, RD_HELD / SCALE, 0.5)])
    b = update_rating(500 / SCALE, RD_HELD / SCALE, VOLATILITY, [(600 / SCALE, RD_HELD / SCALE, 0.5)])
    idle = days / PERIOD_DAYS - 1  # E1 is one day long: it ends on its start day
    phi_a = math.sqrt(a.phi**2 + idle * a.sigma**2)
    phi_b = math.sqrt(b.phi**2 + idle * b.sigma**2)
    expected = 1 / (1 + math.exp(-float(g(np.array(math.hypot(phi_a, phi_b)))) * (a.mu - b.mu)))
    assert p.expected[1] == pytest.approx(expected, rel=1e-6)
    without_growth = 1 / (1 + math.exp(-float(g(np.array(math.hypot(a.phi, b.phi)))) * (a.mu - b.mu)))
    assert abs(p.expected[1] - without_growth) > 1e-4


def test_a_long_absence_caps_the_rating_deviation_at_350():
    events = [event("E1", date(2000, 1, 1)), event("E2", date(2150, 1, 1))]  # 1,800 months: σ² each
    games = [game("E1", 1, "A", "B", "1-0"), game("E2", 1, "A", "B", "1-0")]
    players = [player("A", 2100), player("B", 2000)]
    p = predict_glicko2(game_set(players, events, games, events[1].start_date), *starts(players))
    a = update_rating(600 / SCALE, RD_HELD / SCALE, VOLATILITY, [(500 / SCALE, RD_HELD / SCALE, 1.0)])
    b = update_rating(500 / SCALE, RD_HELD / SCALE, VOLATILITY, [(600 / SCALE, RD_HELD / SCALE, 0.0)])
    capped = 350 / SCALE
    expected = 1 / (1 + math.exp(-float(g(np.array(math.hypot(capped, capped)))) * (a.mu - b.mu)))
    assert p.expected[1] == pytest.approx(expected, rel=1e-9)
