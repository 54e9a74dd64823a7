"""Scores of predictions on the same games: log loss, Brier score, prediction rate, coverage, paired
standard error; calibration by rating gap with a test of its slope.

For a game with player1's score s (1, ½ or 0) and prediction p:

* log loss  −(s·ln p + (1 − s)·ln(1 − p)), with p kept inside [0.005, 0.995]
  (half the table's last digit: 附表2 prints 1.00 above D = 735, which would
  make one upset cost infinitely much);
* Brier score (p − s)², with p as given;
* prediction rate: 1 when the player predicted to score more won, 0 when he
  lost, ½ when the game was drawn or the prediction was exactly ½ (Coulom's
  Table 1, ties ½);
* each averaged over the games; the best row is the lowest log loss (the
  first of rows within 1e-9 of it); ``diff_vs_best`` is the mean per-game
  difference of log loss to it (paired: the same games) and ``se_vs_best``
  its standard error;
* standard errors are *clustered by event* (the games of one event share its
  players' form, its field, its day): for a per-game quantity x over G events,
  se = √(G/(G − 1) · Σ_events (Σ_its games (x − x̄))²) / n (the sandwich
  estimator; with a single event, √(var(x)/n));
* a row's loss is split into its *listed* games (it had a rating for both
  players: ``covered``) and its *prior-driven* games (it predicted at least
  one player from the shared prior, ``prior``).

Calibration by rating gap: every prediction is read as the Elo-equivalent
gap of the favourite, G = 400·log10(p/(1 − p)) for p ≥ ½ (the game seen from
the player predicted to score more; a rule set's p is its table's PD, so G is
about its own rating difference), and the games are binned by G; in each bin
the mean expected score is set against the mean observed one. The *slope*
is b in the logistic fit of s on logit(p) with an intercept (Cox's
calibration slope; s of a draw is ½, a fractional outcome): b = 1 is a
calibrated system, b < 1 an overconfident one (its gaps are too large for
the results, the European Go Database's finding of 2021), b > 1 a timid one;
``z = (b − 1)/se(b)`` and its two-sided p-value test b = 1. The fit is damped
so that it always gives a number: a penalty of one pseudo-game's weight
(``RIDGE``) pulls (a, b) toward the calibrated (0, 1), and Newton's steps are
halved until the penalized likelihood rises — where p does not vary (the
constant) the slope is the calibrated 1 with the penalty's standard error.

Calibration by colour (``by_colour``): the same in both directions, on the
games whose colours are known (``GameSet.black``), binned by Black's own
signed gap (negative: White was the favourite), his mean expected against
observed score; empty when no colour is known.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from qiyuan.sandbox.games import GameSet
from qiyuan.sandbox.prediction import Prediction

FLOOR = 0.005
TIE = 1e-9  # log losses closer than this are equal (the first such row is the best)


#: The bins of the favourite's Elo-equivalent gap G (lower bounds; the last bin is open).
GAP_EDGES = (0.0, 25.0, 75.0, 125.0, 175.0, 250.0, 350.0, 500.0)
#: The bins of player1's (Black's) signed gap (lower bounds; the first from −∞, the last open).
SIGNED_EDGES = (-math.inf, -500.0, -350.0, -250.0, -175.0, -125.0, -75.0, -25.0, 25.0, 75.0, 125.0, 175.0, 250.0,
                350.0, 500.0)
RIDGE = 1.0


@dataclass(frozen=True)
class Score:
    """One row of ``qiyuan rules evaluate``."""

    system: str
    log_loss: float
    brier: float
    prediction_rate: float
    games: int
    coverage: float
    se_vs_best: float  # clustered by event
    se: float = float("nan")  # of log_loss, clustered by event
    diff_vs_best: float = float("nan")  # mean per-game log loss − the best row's
    listed_games: int = 0  # games it had both players' ratings for
    listed_log_loss: float = float("nan")
    prior_log_loss: float = float("nan")  # on the games it predicted from the prior for one player at least


@dataclass(frozen=True)
class CalibrationBin:
    """Games whose favourite's gap G lies in [lo, hi) (hi = inf for the last bin)."""

    lo: float
    hi: float
    count: int  # games in the bin
    gap: float  # mean G (nan when empty)
    predicted: float  # the favourite's mean expected score (nan when empty)
    observed: float  # his mean score (nan when empty)


@dataclass(frozen=True)
class Slope:
    """The calibration slope b (of s on logit p, with an intercept), its standard error and the
    test of b = 1 (nan where p does not vary, as for the constant)."""

    slope: float
    se: float
    z: float
    p_value: float


@dataclass(frozen=True)
class Calibration:
    bins: list[CalibrationBin]
    slope: Slope
    by_colour: list[CalibrationBin] = dataclasses.field(default_factory=list)  # Black's signed gap (known colours)


def game_log_loss(p: np.ndarray, s: np.ndarray) -> np.ndarray:
    q = np.clip(p, FLOOR, 1.0 - FLOOR)
    return -(s * np.log(q) + (1.0 - s) * np.log(1.0 - q))


def game_prediction_rate(p: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Per game: 1 when the predicted favourite won, 0 when he lost, ½ for a draw or a prediction of ½."""
    right = np.where(p > 0.5, s, np.where(p < 0.5, 1.0 - s, 0.5))
    return np.where(s == 0.5, 0.5, right)


def both_rated(games: GameSet, predictions: Sequence[Prediction]) -> np.ndarray:
    """The predicted games in which every system that keeps ratings (all but those never covered, like
    ``constant``) had a rating for both players: the same games for every row."""
    mask = games.predicted.copy()
    for p in predictions:
        if p.covered.any():
            mask &= p.covered
    return mask


def clustered_se(x: np.ndarray, cluster: np.ndarray) -> float:
    """The standard error of x's mean, clustered (``cluster``: a label per value; see the module)."""
    n = int(x.shape[0])
    if n < 2:
        return 0.0
    labels, which = np.unique(cluster, return_inverse=True)
    k = labels.shape[0]
    if k < 2:
        return float(np.sqrt(x.var(ddof=1) / n))
    u = np.bincount(which, x - x.mean(), k)
    return float(np.sqrt(k / (k - 1) * float((u**2).sum())) / n)


def scores(games: GameSet, predictions: Sequence[Prediction], mask: np.ndarray | None = None) -> list[Score]:
    """One ``Score`` per prediction, all on the predicted games of ``games`` (or on ``mask``'s; no
    game in it: every figure nan)."""
    mask = games.predicted if mask is None else mask
    s = games.score[mask]
    events = games.event[mask]
    n = int(s.shape[0])
    if n == 0:
        nan = float("nan")
        return [Score(p.system, nan, nan, nan, 0, nan, nan) for p in predictions]
    losses = [game_log_loss(p.expected[mask], s) for p in predictions]
    means = [float(x.mean()) for x in losses]
    best = next(i for i, m in enumerate(means) if m <= min(means) + TIE)
    rows = []
    for p, x, mean in zip(predictions, losses, means):
        d = x - losses[best]
        listed = p.covered[mask]
        rows.append(Score(p.system, mean, float(((p.expected[mask] - s) ** 2).mean()),
                          float(game_prediction_rate(p.expected[mask], s).mean()), n,
                          float(listed.mean()), clustered_se(d, events), clustered_se(x, events), float(d.mean()),
                          int(listed.sum()), float(x[listed].mean()) if listed.any() else float("nan"),
                          float(x[~listed].mean()) if (~listed).any() else float("nan")))
    return rows


def gap(p: np.ndarray) -> np.ndarray:
    """The Elo-equivalent gap of a prediction p: 400·log10(p/(1 − p)), p kept inside the floor."""
    q = np.clip(p, FLOOR, 1.0 - FLOOR)
    return 400.0 * np.log10(q / (1.0 - q))


def calibration(games: GameSet, prediction: Prediction, edges: Sequence[float] = GAP_EDGES) -> Calibration:
    """Expected against observed score by the favourite's gap, over every predicted game, and the slope."""
    mask = games.predicted
    p = prediction.expected[mask]
    s = games.score[mask]
    flip = p < 0.5
    fav_p, fav_s = np.where(flip, 1.0 - p, p), np.where(flip, 1.0 - s, s)
    g = gap(fav_p)
    black = games.black[mask]
    known = black != 0
    by_colour = []
    if known.any():
        bp = np.where(black[known] > 0, p[known], 1.0 - p[known])
        bs = np.where(black[known] > 0, s[known], 1.0 - s[known])
        by_colour = _bins(gap(bp), bp, bs, SIGNED_EDGES)
    return Calibration(_bins(g, fav_p, fav_s, edges), calibration_slope(p, s), by_colour)


def _bins(g: np.ndarray, p: np.ndarray, s: np.ndarray, edges: Sequence[float]) -> list[CalibrationBin]:
    bounds = np.array(edges, np.float64)
    which = np.searchsorted(bounds, g, side="right") - 1
    k = bounds.shape[0]
    count = np.bincount(which, minlength=k)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_g = np.bincount(which, g, k) / count
        mean_p = np.bincount(which, p, k) / count
        mean_s = np.bincount(which, s, k) / count
    his = [*edges[1:], float("inf")]
    return [CalibrationBin(float(edges[i]), float(his[i]), int(count[i]), float(mean_g[i]), float(mean_p[i]),
                           float(mean_s[i])) for i in range(k)]


def calibration_slope(p: np.ndarray, s: np.ndarray, iterations: int = 100) -> Slope:
    """The damped fit of s ~ logistic(a + b·logit p) (see the module); se(b) from the inverse of the
    penalized information. Always a number (nan only with fewer than one game)."""
    nan = float("nan")
    if p.shape[0] == 0:
        return Slope(nan, nan, nan, nan)
    q = np.clip(p, FLOOR, 1.0 - FLOOR)
    x = np.log(q / (1.0 - q))
    X = np.column_stack([np.ones_like(x), x])
    centre = np.array([0.0, 1.0])
    penalty = RIDGE * np.eye(2)

    def objective(beta: np.ndarray) -> float:
        z = X @ beta
        return float((s * z - np.logaddexp(0.0, z)).sum()) - 0.5 * RIDGE * float(((beta - centre) ** 2).sum())

    beta = centre.copy()
    value = objective(beta)
    for _ in range(iterations):
        mu = 1.0 / (1.0 + np.exp(-(X @ beta)))
        info = X.T @ (X * (mu * (1.0 - mu))[:, None]) + penalty
        step = np.linalg.solve(info, X.T @ (s - mu) - RIDGE * (beta - centre))
        size = 1.0
        while size > 1e-6:  # halve the step until the penalized likelihood rises
            trial = beta + size * step
            if objective(trial) >= value - 1e-12:
                break
            size /= 2.0
        beta, value = beta + size * step, objective(beta + size * step)
        if float(np.abs(size * step).max()) < 1e-10:
            break
    mu = 1.0 / (1.0 + np.exp(-(X @ beta)))
    info = X.T @ (X * (mu * (1.0 - mu))[:, None]) + penalty
    se = float(np.sqrt(np.linalg.inv(info)[1, 1]))
    z = (float(beta[1]) - 1.0) / se
    return Slope(float(beta[1]), se, z, math.erfc(abs(z) / math.sqrt(2.0)))
