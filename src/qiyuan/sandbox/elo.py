"""Elo (等级分基准): updated after every game, from its own starts (the shared prior, ``prior``).

Expected score E = 1 / (1 + 10^((R_opp − R) / scale)). An event's games are
all predicted from the ratings at its start; once it has ended its games are
learned one by one in round order, each changing both players by
K × (W − E). A player the system has not seen play yet is predicted from his
start (players.csv's published rating, else the prior's entry mean of his
group) — the same whatever rule sets are given. ``advantage`` (rating points,
0 by default) is added to Black's rating in E (``GameSet.black``; nothing
where the colours are not known), predicting and learning alike: the colour
term, for analysis.
K and the scale are tuned on the burn-in (``tuning``); the defaults are
FIDE's textbook 32 and 400.
"""

from __future__ import annotations

import numpy as np

from qiyuan.sandbox.games import LEARN, GameSet
from qiyuan.sandbox.prediction import Prediction, Progress, tick

K = 32
SCALE = 400.0


def predict_elo(games: GameSet, start: np.ndarray, held: np.ndarray, *, k: float = K, scale: float = SCALE,
                advantage: float = 0.0, progress: Progress | None = None) -> Prediction:
    rating = start.tolist()
    known = held.tolist()
    a_all, b_all, s_all = games.player1.tolist(), games.player2.tolist(), games.score.tolist()
    edge = (advantage * games.black.astype(np.float64)).tolist()  # player1's colour advantage, per game
    expected = [0.5] * len(a_all)
    covered = [False] * len(a_all)
    steps = list(games.steps())
    tick(progress, "elo", 0, len(steps))
    for n, (kind, e) in enumerate(steps, start=1):
        lo, hi = int(games.lo[e]), int(games.hi[e])
        if kind == LEARN:
            for i in range(lo, hi):
                a, b = a_all[i], b_all[i]
                ra, rb = rating[a], rating[b]
                change = k * (s_all[i] - 1.0 / (1.0 + 10.0 ** ((rb - ra - edge[i]) / scale)))
                rating[a] = ra + change
                rating[b] = rb - change
                known[a] = known[b] = True
        else:
            for i in range(lo, hi):
                a, b = a_all[i], b_all[i]
                expected[i] = 1.0 / (1.0 + 10.0 ** ((rating[b] - rating[a] - edge[i]) / scale))
                covered[i] = known[a] and known[b]
        tick(progress, "elo", n, len(steps))
    return Prediction("elo", np.array(expected), np.array(covered))
