"""A rule set's prediction of a game: 附表2's PD for the two published ratings in force at the event's start.

The list in force is the last one published on or before the day the event
started. When both players hold a rating on it, player1's expected score is
the table's exact PD(D), D = his rating − his opponent's (both integers),
clamped to ± the favourite's cap when the rule set has one (``cap``, ``cap_bands``), then the rule set's
``colour_advantage`` added for Black (taken from White) where the colours are known — the per-game We of the
texts (逐局). A player who holds no rating on it is predicted from the shared
prior (``prior``: the entry mean of his group fitted on the burn-in, the same
for every row — not the rule set's entry rating, which the texts use for
seeding); such a game is not *covered* (the rule set had no published rating
for both players).
"""

from __future__ import annotations

import numpy as np

from qiyuan.rating.fast.arrays import caps
from qiyuan.rating.tables import PD_HUNDREDTHS, PD_TOP_D
from qiyuan.sandbox.games import GameSet
from qiyuan.sandbox.lists import ListTimeline
from qiyuan.sandbox.prediction import Prediction

_PD = np.array(PD_HUNDREDTHS, np.int64)


def table_hundredths(d: np.ndarray) -> np.ndarray:
    """附表2 for integer differences D: the expected score in hundredths (100 − PD(|D|) below 0)."""
    pd = _PD[np.minimum(np.abs(d), PD_TOP_D)]
    return np.where(d >= 0, pd, 100 - pd)


def predict_rule_set(games: GameSet, lists: ListTimeline, prior: np.ndarray) -> Prediction:
    """Every game predicted from the list in force when its event started (``prior[i]``: the rating
    player ``i`` is given while he holds none, an integer)."""
    k = lists.in_force(games.event_start[games.event])
    before_first = k < 0
    k = np.maximum(k, 0)
    a, b = games.player1, games.player2
    prior = np.asarray(prior, np.int64)
    if lists.published.shape[0] == 0:
        held_a = held_b = np.zeros(a.shape[0], bool)
        ra, rb = prior[a], prior[b]
    else:
        held_a = ~before_first & lists.published[k, a]
        held_b = ~before_first & lists.published[k, b]
        ra = np.where(held_a, lists.rating[k, a], prior[a])
        rb = np.where(held_b, lists.rating[k, b], prior[b])
    d = ra - rb
    if lists.rules.has_cap():  # the favourite's cap (by his rating band, cap_bands)
        cap = caps(lists.rules, np.maximum(ra, rb))
        d = np.clip(d, -cap, cap)
    if lists.rules.colour_advantage:  # Black's D gains it, after the cap, as in the engine's We
        d = d + lists.rules.colour_advantage * games.black.astype(np.int64)
    hundredths = table_hundredths(d)
    return Prediction(lists.rules.name, hundredths / 100.0, held_a & held_b, hundredths)
