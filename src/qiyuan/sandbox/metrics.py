"""Scores of predictions on the same games: log loss, Brier score, coverage, paired standard error.

For a game with player1's score s (1, ½ or 0) and prediction p:

* log loss  −(s·ln p + (1 − s)·ln(1 − p)), with p kept inside [0.005, 0.995]
  (half the table's last digit: 附表2 prints 1.00 above D = 735, which would
  make one upset cost infinitely much);
* Brier score (p − s)², with p as given;
* both averaged over the games; the best row is the lowest log loss (the
  first of rows within 1e-9 of it), and
  ``se_vs_best`` is the standard error of the mean per-game difference of
  log loss to it (paired: the same games), √(var(d)/n).

A calibration table takes the games where the system made its own
prediction (covered; all games for a system that never is, like
``constant``), each in both players' view (p, s) and (1 − p, 1 − s), puts
them into bins of p and compares the mean prediction with the mean score in
each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from qiyuan.sandbox.games import GameSet
from qiyuan.sandbox.prediction import Prediction

FLOOR = 0.005
TIE = 1e-9  # log losses closer than this are equal (the first such row is the best)


@dataclass(frozen=True)
class Score:
    """One row of ``qiyuan rules evaluate``."""

    system: str
    log_loss: float
    brier: float
    games: int
    coverage: float
    se_vs_best: float


@dataclass(frozen=True)
class CalibrationBin:
    lo: float
    hi: float
    count: int  # game sides in the bin (two per game)
    predicted: float  # mean p (nan when empty)
    observed: float  # mean score (nan when empty)


def game_log_loss(p: np.ndarray, s: np.ndarray) -> np.ndarray:
    q = np.clip(p, FLOOR, 1.0 - FLOOR)
    return -(s * np.log(q) + (1.0 - s) * np.log(1.0 - q))


def scores(games: GameSet, predictions: Sequence[Prediction]) -> list[Score]:
    """One ``Score`` per prediction, all on the predicted games of ``games``."""
    mask = games.predicted
    s = games.score[mask]
    n = int(s.shape[0])
    losses = [game_log_loss(p.expected[mask], s) for p in predictions]
    means = [float(x.mean()) for x in losses]
    best = next(i for i, m in enumerate(means) if m <= min(means) + TIE)
    rows = []
    for p, x, mean in zip(predictions, losses, means):
        d = x - losses[best]
        se = float(np.sqrt(d.var(ddof=1) / n)) if n > 1 else 0.0
        rows.append(Score(p.system, mean, float(((p.expected[mask] - s) ** 2).mean()), n,
                          float(p.covered[mask].mean()), se))
    return rows


def calibration(games: GameSet, prediction: Prediction, bins: int = 10) -> list[CalibrationBin]:
    mask = games.predicted
    if (prediction.covered & mask).any():
        mask = mask & prediction.covered
    p = prediction.expected[mask]
    s = games.score[mask]
    p, s = np.concatenate([p, 1.0 - p]), np.concatenate([s, 1.0 - s])
    edges = np.linspace(0.0, 1.0, bins + 1)
    which = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, bins - 1)
    count = np.bincount(which, minlength=bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_p = np.bincount(which, p, bins) / count
        mean_s = np.bincount(which, s, bins) / count
    return [CalibrationBin(float(edges[i]), float(edges[i + 1]), int(count[i]), float(mean_p[i]), float(mean_s[i]))
            for i in range(bins)]
