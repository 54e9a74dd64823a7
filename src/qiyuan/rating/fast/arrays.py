"""Exact integer arithmetic on arrays (mirrors ``exact.py`` and ``tables.py``): no binary float anywhere.

Scores, expected scores and changes are integer hundredths; means are kept as
numerator and denominator; 四舍五入 is floor(num/den + ½) on integers.
"""

from __future__ import annotations

import numpy as np

from qiyuan.rating.columnar import CODE_OF_RESULT, NONE
from qiyuan.rating.model import Result
from qiyuan.rating.tables import PD_HUNDREDTHS, PD_TOP_D

__all__ = ["NONE", "PD", "W1", "W2", "POINTS1", "POINTS2", "WIN", "LOSS", "DRAW", "expected_hundredths",
           "round_half_up_div", "int_bincount", "Groups", "prior_games"]

PD = np.array(PD_HUNDREDTHS, dtype=np.int64)  # Table 2 by |D| (index 736: every |D| > 735)
WIN, LOSS, DRAW = (CODE_OF_RESULT[r] for r in (Result.WIN, Result.LOSS, Result.DRAW))
_FWIN, _FLOSS = CODE_OF_RESULT[Result.FORFEIT_WIN], CODE_OF_RESULT[Result.FORFEIT_LOSS]
# Score in hundredths of a point for (player1, player2), by result code: rated W, and the champion's points.
W1 = np.zeros(len(CODE_OF_RESULT), np.int64)
W2 = np.zeros(len(CODE_OF_RESULT), np.int64)
W1[WIN], W2[LOSS], W1[DRAW], W2[DRAW] = 100, 100, 50, 50
POINTS1, POINTS2 = W1.copy(), W2.copy()
POINTS1[_FWIN], POINTS2[_FLOSS] = 100, 100
POINTS1[CODE_OF_RESULT[Result.BOTH_WIN]] = POINTS2[CODE_OF_RESULT[Result.BOTH_WIN]] = 100


def expected_hundredths(d: np.ndarray) -> np.ndarray:
    """附表2 vectorized: PD(D) in hundredths for integer differences D."""
    pd = PD[np.minimum(np.abs(d), PD_TOP_D)]
    return np.where(d >= 0, pd, 100 - pd)


def round_half_up_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """四舍五入 of num/den (den > 0) with integers only: floor(num/den + ½)."""
    return (2 * num + den) // (2 * den)


def int_bincount(group: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """Exact integer sums of ``values`` per group (np.bincount's weights would go through floats)."""
    out = np.zeros(n, np.int64)
    np.add.at(out, group, np.asarray(values, dtype=np.int64))
    return out


class Groups:
    """Exact integer sums, counts and maxima of values over groups 0 … n−1 (no floats, no sort)."""

    def __init__(self, group: np.ndarray, n: int):
        self.group = group
        self.n = n

    def count(self) -> np.ndarray:
        return np.bincount(self.group, minlength=self.n).astype(np.int64)

    def sum(self, values: np.ndarray) -> np.ndarray:
        return int_bincount(self.group, values, self.n)

    def max(self, values: np.ndarray, empty: int = 0) -> np.ndarray:
        out = np.full(self.n, empty, np.int64)
        np.maximum.at(out, self.group, values.astype(np.int64))
        return out


def prior_games(c_player: np.ndarray, c_end: np.ndarray, c_games: np.ndarray, player: np.ndarray,
                before: np.ndarray) -> np.ndarray:
    """For each (player, day): his counted games in this period's events that ended before that day."""
    if not c_player.shape[0]:
        return np.zeros(player.shape[0], np.int64)
    big = np.int64(1) << 32
    key = c_player * big + c_end
    order = np.argsort(key, kind="stable")
    key = key[order]
    cs = np.concatenate(([0], np.cumsum(c_games[order])))
    upto = np.searchsorted(key, player * big + before, side="left")
    first = np.searchsorted(key, player * big, side="left")
    return cs[upto] - cs[first]


#: The cap of a player without one: larger than any rating difference.
NO_CAP = 10**9


def caps(rules, ratings: np.ndarray) -> np.ndarray:
    """Each rating's cap (``RuleSet.cap_for``, vectorized; ``NO_CAP`` where none)."""
    out = np.full(ratings.shape, NO_CAP if rules.cap is None else rules.cap, np.int64)
    for lo, cap in rules.cap_bands:
        out = np.where(ratings >= lo, NO_CAP if cap is None else cap, out)
    return out
