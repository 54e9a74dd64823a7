"""Black's advantage (先手优势): measured on the games whose colours are known.

Renju and Gomoku give the first move to Black; Go gives Black the first move
and White komi (or Black handicap stones). Which player had Black comes from
the optional ``black`` column of games.csv (``formats.sandbox_files.read_colours``)
as ``GameSet.black``: +1 when player1 had Black, −1 when player2 had, 0 when
not known.

``black_advantage`` is Black's mean score over the games with known colours
(a draw ½), its standard error clustered by event, and the Elo-equivalent
advantage 400·log10(s/(1 − s)). Fitted on the burn-in only, that advantage is
the colour term of the Elo and Glicko-2 rows ``elo+colour`` and
``glicko2+colour`` (for analysis: the official rule sets know no colour).
Measurement, not the rating path: floats.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from qiyuan.sandbox.games import GameSet
from qiyuan.sandbox.metrics import clustered_se


@dataclass(frozen=True)
class Advantage:
    games: int  # games with known colours
    score: float  # Black's mean score (nan: none)
    se: float  # clustered by event
    elo: float  # 400·log10(s/(1 − s)) (nan: none)


def black_advantage(games: GameSet, mask: np.ndarray | None = None) -> Advantage:
    """Black's score on the games of ``mask`` (default: every played game) whose colours are known."""
    known = games.black != 0
    if mask is not None:
        known &= mask
    nan = float("nan")
    if not known.any():
        return Advantage(0, nan, nan, nan)
    s = np.where(games.black[known] > 0, games.score[known], 1.0 - games.score[known])
    mean = float(s.mean())
    q = min(max(mean, 0.005), 0.995)
    return Advantage(int(known.sum()), mean, clustered_se(s, games.event[known]), 400.0 * math.log10(q / (1.0 - q)))


def burn_in_advantage(games: GameSet) -> Advantage:
    """Black's advantage in the burn-in (the events that ended before ``from_date``)."""
    return black_advantage(games, games.event_end[games.event] < games.from_date.toordinal())
