"""One prior for the players a system holds no rating for, fitted on the burn-in only (issue 36).

Every row of ``rules evaluate`` predicts a game with a player it has no
rating for from the *same* prior, so that a row is scored on what its rule
does with the ratings it publishes, not on an entry rating it uses only for
seeding: a variant that changes no published list scores exactly as its
base.

The prior is fitted once, on the games of the burn-in (the events that ended
before ``--from``), by a static Bradley–Terry model on the Elo scale
(P = 1 / (1 + 10^(−D/400))) with random effects, by Laplace EM:

* a player with a published rating in players.csv has r ~ N(that rating, sd²);
* a newcomer of group g (his gender; men's when unknown) has r ~ N(m_g, sd²);
* the ratings are the posterior modes given m and sd (Newton on the diagonal);
  m_g is the mean of the newcomers' modes of group g and sd² the newcomers'
  mean of (r − m_g)² + posterior variance; 40 rounds.

Its *strength* is sd, read by every system in its own terms: Glicko-2's
newcomer RD = sd; WHR's virtual draws n against its rating-0 opponent give
a prior variance of 1 / (n · ¼ · (ln 10/400)²), so n = 4·(400/ln 10)² / sd²
(at least 1, an integer as the library needs); Elo starts a newcomer at m_g.
WHR's ratings are relative to that virtual opponent; a player with no game
in its fit is put at m_g − ``centre`` (the mean fitted rating of the burn-in's
players). A group with no newcomer in the burn-in takes the mean of all
newcomers (then the mean of the held ratings; then 1500); a burn-in without a
game gives sd = 350 (Glicko's newcomer RD).

Measurement, not the rating path: floats. A rule set's prior is the integer
nearest m_g (half up), as its table needs integer differences.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from qiyuan.rating.model import Gender, Player
from qiyuan.sandbox.games import GameSet

C = math.log(10.0) / 400.0  # logistic units per rating point
SD_EMPTY = 350.0
SD_RANGE = (40.0, 600.0)
CENTRE_EMPTY = 1500.0
ROUNDS = 40
GROUPS = ("M", "F")


def group_of(player: Player) -> str:
    return "F" if player.gender is Gender.FEMALE else "M"


def virtual_draws_for(sd: float) -> int:
    """WHR's virtual draws giving a prior of spread ``sd`` rating points (at least 1; half up)."""
    return max(1, math.floor(4.0 / (C * C * sd * sd) + 0.5))


@dataclass(frozen=True)
class Prior:
    entry: dict[str, float]  # group → the entry mean (rating points, players.csv's scale)
    sd: float  # a newcomer's spread around it
    centre: float  # mean fitted rating of the burn-in's players (WHR's 0)
    newcomers: dict[str, int]  # how many burn-in newcomers each group's mean rests on
    games: int  # burn-in games fitted

    @property
    def rd_new(self) -> float:
        return self.sd

    @property
    def virtual_draws(self) -> int:
        return virtual_draws_for(self.sd)

    def means(self, players: Sequence[Player]) -> np.ndarray:
        return np.array([self.entry[group_of(p)] for p in players], np.float64)

    def integer_means(self, players: Sequence[Player]) -> np.ndarray:
        return np.floor(self.means(players) + 0.5).astype(np.int64)

    def starts(self, players: Sequence[Player]) -> tuple[np.ndarray, np.ndarray]:
        """The baselines' own starts, whatever rule set is given: (rating, held) — players.csv's published
        rating where there is one, else the prior's mean of his group (not held)."""
        held = np.array([p.rating is not None for p in players], bool)
        rating = self.means(players)
        for i, p in enumerate(players):
            if p.rating is not None:
                rating[i] = float(p.rating)
        return rating, held


def fit_prior(games: GameSet, players: Sequence[Player]) -> Prior:
    """The prior, from the games of the events that ended before ``games.from_date`` only."""
    burn = games.event_end[games.event] < games.from_date.toordinal()
    a, b, s = games.player1[burn], games.player2[burn], games.score[burn]
    n = len(players)
    held = np.array([p.rating is not None for p in players], bool)
    start = np.array([float(p.rating) if p.rating is not None else 0.0 for p in players])
    group = np.array([GROUPS.index(group_of(p)) for p in players], np.int64)
    held_mean = float(start[held].mean()) if held.any() else CENTRE_EMPTY
    if a.shape[0] == 0:
        return Prior({g: held_mean for g in GROUPS}, SD_EMPTY, held_mean, {g: 0 for g in GROUPS}, 0)
    seen = np.zeros(n, bool)
    seen[a] = seen[b] = True
    newcomer = seen & ~held
    counts = np.bincount(group[newcomer], minlength=len(GROUPS))
    mu = np.full(len(GROUPS), held_mean)
    sd = 200.0
    r = np.where(held, start, held_mean)
    h = np.ones(n)
    for _ in range(ROUNDS):
        m = np.where(held, start, mu[group])
        for _ in range(8):  # the posterior mode, Newton on the diagonal
            p = 1.0 / (1.0 + np.exp(-C * (r[a] - r[b])))
            grad = C * (np.bincount(a, s - p, n) - np.bincount(b, s - p, n)) - (r - m) / sd**2
            w = C * C * p * (1.0 - p)
            h = np.bincount(a, w, n) + np.bincount(b, w, n) + 1.0 / sd**2
            r = r + np.where(seen, grad / h, 0.0)
        if newcomer.any():
            sums = np.bincount(group[newcomer], r[newcomer], len(GROUPS))
            overall = float(r[newcomer].mean())
            mu = np.where(counts > 0, sums / np.maximum(counts, 1), overall)
            m = np.where(held, start, mu[group])
            spread = newcomer if newcomer.sum() > 1 else seen
        else:
            spread = seen
        var = float(((r - m) ** 2 + 1.0 / h)[spread].mean())
        sd = min(max(math.sqrt(var), SD_RANGE[0]), SD_RANGE[1])
    return Prior({g: float(mu[i]) for i, g in enumerate(GROUPS)}, sd, float(r[seen].mean()),
                 {g: int(counts[i]) for i, g in enumerate(GROUPS)}, int(a.shape[0]))
