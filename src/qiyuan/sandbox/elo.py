"""Elo (等级分基准): updated after every game, K = 32, from the rule set's starts.

Expected score E = 1 / (1 + 10^((R_opp − R) / 400)). An event's games are
all predicted from the ratings at its start; once it has ended its games are
learned one by one in round order, each changing both players by
K × (W − E).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from qiyuan.rating.model import Player
from qiyuan.rating.rules import RuleSet
from qiyuan.sandbox.games import LEARN, GameSet
from qiyuan.sandbox.prediction import NO_RATING, Prediction, Progress, tick
from qiyuan.sandbox.starts import start_ratings

K = 32


def predict_elo(games: GameSet, players: Sequence[Player], rules: RuleSet, *, k: float = K,
                progress: Progress | None = None) -> Prediction:
    start, held = start_ratings(rules, players)
    rating = start.tolist()
    known = held.tolist()
    a_all, b_all, s_all = games.player1.tolist(), games.player2.tolist(), games.score.tolist()
    expected = [NO_RATING] * len(a_all)
    covered = [False] * len(a_all)
    steps = list(games.steps())
    tick(progress, "elo", 0, len(steps))
    for n, (kind, e) in enumerate(steps, start=1):
        lo, hi = int(games.lo[e]), int(games.hi[e])
        if kind == LEARN:
            for i in range(lo, hi):
                a, b = a_all[i], b_all[i]
                ra, rb = rating[a], rating[b]
                change = k * (s_all[i] - 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0)))
                rating[a] = ra + change
                rating[b] = rb - change
                known[a] = known[b] = True
        else:
            for i in range(lo, hi):
                a, b = a_all[i], b_all[i]
                if known[a] and known[b]:
                    expected[i] = 1.0 / (1.0 + 10.0 ** ((rating[b] - rating[a]) / 400.0))
                    covered[i] = True
        tick(progress, "elo", n, len(steps))
    return Prediction("elo", np.array(expected), np.array(covered))
