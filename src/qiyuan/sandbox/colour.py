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
In Go, Black's advantage depends on the handicap stones and the komi (the
optional ``stones`` and ``komi`` columns, ``read_handicaps``):
``advantage_by_handicap`` measures it per (stones, komi) on every played game
with known colours. Measurement, not the rating path: floats.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from qiyuan.rating.columnar import GameColumns
from qiyuan.sandbox.games import GameSet, played_scores
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
    return _advantage(games.score[known], games.black[known], games.event[known])


def _advantage(score: np.ndarray, black: np.ndarray, event: np.ndarray) -> Advantage:
    nan = float("nan")
    if score.shape[0] == 0:
        return Advantage(0, nan, nan, nan)
    s = np.where(black > 0, score, 1.0 - score)
    mean = float(s.mean())
    q = min(max(mean, 0.005), 0.995)
    return Advantage(int(s.shape[0]), mean, clustered_se(s, event), 400.0 * math.log10(q / (1.0 - q)))


def advantage_by_handicap(games: GameColumns, black: np.ndarray, stones: np.ndarray, komi: np.ndarray
                          ) -> list[tuple[int, float, Advantage]]:
    """Black's advantage per (stones, komi) — komi nan where not given — over the played games with known
    colours, by stones then komi."""
    score = played_scores(games)
    ok = ~np.isnan(score) & (black != 0)
    komi_key = np.where(np.isnan(komi), np.inf, komi)
    out = []
    for st, k in sorted({(int(a), float(b)) for a, b in zip(stones[ok].tolist(), komi_key[ok].tolist())}):
        sel = ok & (stones == st) & (komi_key == k)
        out.append((st, float("nan") if math.isinf(k) else k,
                    _advantage(score[sel], black[sel], games.event[sel].astype(np.int64))))
    return out


def burn_in_advantage(games: GameSet) -> Advantage:
    """Black's advantage in the burn-in (the events that ended before ``from_date``)."""
    return black_advantage(games, games.event_end[games.event] < games.from_date.toordinal())
