"""Where the Elo and Glicko-2 baselines start each player: from the rule set's own starts.

A player holds a starting rating when the rule set gives him one before his
first game (a published rating in players.csv, or the rule set's dan /
reference-rating start). Everyone else enters at the rule set's entry
rating for his gender (CGA 1800/1400, Beijing–Shanghai 2200/2040; men's when
the gender is unknown) — but the baseline has no rating for him until it has
learned a game of his.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from qiyuan.rating.model import Gender, Player
from qiyuan.rating.rules import RuleSet
from qiyuan.rating.state import starting_rating


def start_ratings(rules: RuleSet, players: Sequence[Player]) -> tuple[np.ndarray, np.ndarray]:
    """(rating, held): each player's starting rating and whether it is a rating he holds."""
    rating = np.empty(len(players), np.float64)
    held = np.zeros(len(players), bool)
    for i, player in enumerate(players):
        start = starting_rating(rules, player)
        if start is not None:
            rating[i], held[i] = start, True
        else:
            female = player.gender is Gender.FEMALE
            rating[i] = rules.start_rating_female if female else rules.start_rating_male
    return rating, held
