"""A rule set's prediction of a game: 附表2's PD for the two published ratings in force at the event's start.

The list in force is the last one published on or before the day the event
started. When both players hold a rating on it, player1's expected score is
the table's exact PD(D), D = his rating − his opponent's (both integers),
clamped to ± the rule set's ``cap`` when it has one — the per-game We of the
texts (逐局). When either holds none the rule set makes no prediction
(``NO_RATING``, not covered).
"""

from __future__ import annotations

import numpy as np

from qiyuan.rating.tables import PD_HUNDREDTHS, PD_TOP_D
from qiyuan.sandbox.games import GameSet
from qiyuan.sandbox.lists import ListTimeline
from qiyuan.sandbox.prediction import NO_RATING, Prediction

_PD = np.array(PD_HUNDREDTHS, np.int64)


def table_hundredths(d: np.ndarray) -> np.ndarray:
    """附表2 for integer differences D: the expected score in hundredths (100 − PD(|D|) below 0)."""
    pd = _PD[np.minimum(np.abs(d), PD_TOP_D)]
    return np.where(d >= 0, pd, 100 - pd)


def predict_rule_set(games: GameSet, lists: ListTimeline) -> Prediction:
    """Every game predicted from the list in force when its event started."""
    k = lists.in_force(games.event_start[games.event])
    before_first = k < 0
    k = np.maximum(k, 0)
    a, b = games.player1, games.player2
    if lists.published.shape[0] == 0:
        covered = np.zeros(a.shape[0], bool)
        d = np.zeros(a.shape[0], np.int64)
    else:
        covered = ~before_first & lists.published[k, a] & lists.published[k, b]
        d = lists.rating[k, a] - lists.rating[k, b]
    cap = lists.rules.cap
    if cap is not None:
        d = np.clip(d, -cap, cap)
    hundredths = np.where(covered, table_hundredths(d), 50)
    expected = np.where(covered, hundredths / 100.0, NO_RATING)
    return Prediction(lists.rules.name, expected, covered, hundredths)
