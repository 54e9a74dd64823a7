"""Whole-History Rating (Rémi Coulom, 2008) through the ``whr`` package (C++ core, MIT licence).

WHR fits every player's rating as a function of time to all the games it
knows at once. To predict an event, the fit holds the games of the events
that ended before a *refit* on or before its start; a player's rating then is
his rating r on his last day in the fit, with its uncertainty (the library's
standard deviation there) grown by w² for every day since: σ² = sd² + w²·days.
The prediction integrates that uncertainty (Coulom's model is a Bayesian
one), by the logistic-normal approximation: with c = ln 10 / 400,
P(A beats B) = 1 / (1 + exp(−c·(r_A − r_B) / √(1 + π·c²·(σ_A² + σ_B²)/8))).
Without it, the point ratings alone, a larger w² only makes the predictions
noisier, and tuning drives w² to its grid's edge (synthetic histories with a
known w², issue 36).
A player with no game in the fit is predicted at the shared prior's entry
mean of his group, relative to WHR's 0 (``unfitted``: m_g − the prior's
centre, see ``prior``; 0 when not given), with the virtual draws' uncertainty,
σ² = 4 / (virtual draws · c²); such a game is not covered.

Default settings are the Renju International Federation's (its WHR rating,
also by the ``whr`` package's author): w² = 12.9 Elo² per day, 2 virtual
draws on a player's first day; a game's day is its event's end date. w² and
the virtual draws are tuned on the burn-in (``tuning``; the prior's strength
gives the draws' starting value).

Cost: each iteration of the library runs over every game it holds, so a refit
at every event start costs (events × games) — fine for a national history,
not for millions of games. The refits are therefore planned within a work
budget (``WhrSettings.budget``, in game-iterations, the library's
uncertainty pass counted as one): at every predicted event's start with
``iterations`` Newton iterations when that fits (the first fit from scratch
gets ``first_iterations``), else with fewer iterations, down to one, and then
at fewer dates (evenly by games learned). Each refit starts from the previous
fit (the library keeps the ratings when games are added). ``WhrSchedule`` says
what was used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import whr

from qiyuan.errors import Problem, problem
from qiyuan.sandbox.games import GameSet
from qiyuan.sandbox.prediction import Prediction, Progress, tick

C = math.log(10.0) / 400.0  # logistic units per Elo point


@dataclass(frozen=True)
class WhrSettings:
    w2: float = 12.9
    virtual_games: int = 2
    first_iterations: int = 30
    iterations: int = 10
    budget: int = 40_000_000  # game-iterations


@dataclass(frozen=True)
class WhrSchedule:
    """The refits used: their days (date ordinals), the iterations of each, and what it cost."""

    days: tuple[int, ...]
    iterations: tuple[int, ...]
    cost: int
    every_event: bool  # a refit at every predicted event's start

    def describe(self) -> Problem:
        """One line for the command's output, e.g. ``whr: 41 fit(s), at every predicted event's start; …``, as a
        template the reader's language fills."""
        where = (problem("at every predicted event's start") if self.every_event else
                 problem("fewer than the event starts (budget)"))
        if len(self.iterations) > 1:
            return problem("whr: {fits} fit(s), {where}; first fit {first} iterations, then {then} per refit; {cost} "
                           "game-iterations", fits=len(self.days), where=where, first=self.iterations[0],
                           then=self.iterations[1], cost=f"{self.cost:,}")
        return problem("whr: {fits} fit(s), {where}; first fit {first} iterations; {cost} game-iterations",
                       fits=len(self.days), where=where, first=self.iterations[0], cost=f"{self.cost:,}")


def plan_refits(learned_games: np.ndarray, days: np.ndarray, settings: WhrSettings) -> WhrSchedule:
    """Refit days and iterations within the budget. ``days`` are the candidate days (each predicted
    event's start, ascending, distinct) and ``learned_games`` the games the fit holds at each."""
    games = learned_games.astype(np.int64)

    def cost(keep: np.ndarray, its: int) -> int:
        g = games[keep]
        if g.shape[0] == 0:
            return 0
        return int(g[0] * (settings.first_iterations + 1) + (g[1:] * (its + 1)).sum())

    every = np.ones(games.shape[0], bool)
    for its in range(settings.iterations, 0, -1):
        if cost(every, its) <= settings.budget:
            return _schedule(days, games, every, its, settings, cost(every, its), True)
    # Thin the refits: keep the first, then one whenever `step` more games were learned.
    lo, hi = 1, int(games[-1]) + 1
    while lo < hi:
        step = (lo + hi) // 2
        if cost(_thinned(games, step), 1) <= settings.budget:
            hi = step
        else:
            lo = step + 1
    keep = _thinned(games, lo)
    return _schedule(days, games, keep, 1, settings, cost(keep, 1), False)


def _thinned(games: np.ndarray, step: int) -> np.ndarray:
    keep = np.zeros(games.shape[0], bool)
    last = None
    for i, g in enumerate(games.tolist()):
        if last is None or g - last >= step:
            keep[i] = True
            last = g
    return keep


def _schedule(days: np.ndarray, games: np.ndarray, keep: np.ndarray, its: int, settings: WhrSettings,
              cost: int, every: bool) -> WhrSchedule:
    chosen = days[keep].tolist()
    iterations = [settings.first_iterations] + [its] * (len(chosen) - 1) if chosen else []
    return WhrSchedule(tuple(int(d) for d in chosen), tuple(iterations), cost, every)


class _Fit:
    """The library's database, fed with the events that ended before each refit."""

    def __init__(self, games: GameSet, settings: WhrSettings):
        self.games = games
        self.origin = int(games.event_start.min())  # time steps are days from the history's first day
        self.names = games.player_ids  # the library iterates players by name: by id, whatever the file order
        self.winner = np.where(games.score == 1.0, "B", np.where(games.score == 0.0, "W", "D"))  # player1 "black"
        self.base = whr.Base(config={"w2": settings.w2, "virtual_games": settings.virtual_games})
        self.w2 = settings.w2
        self.added: set[int] = set()
        self.fitted = False

    def refit(self, day: int, iterations: int) -> None:
        g, batch = self.games, []
        for e in g.learned_before(day).tolist():
            if e not in self.added:
                self.added.add(e)
                step, part = int(g.event_end[e]) - self.origin, g.games_of(e)
                batch.extend([self.names[a], self.names[b], w, step] for a, b, w in zip(
                    g.player1[part].tolist(), g.player2[part].tolist(), self.winner[part].tolist()))
        if batch:
            self.base.create_games(batch)
        self.base.iterate(iterations)
        self.fitted = True

    def rating(self, player: int, day: int) -> tuple[float, float] | None:
        """His rating on his last day in the fit and its variance on ``day`` (None: no game in it)."""
        if not self.fitted:
            return None
        days = self.base.ratings_for_player(self.names[player])
        if not days:
            return None
        step, elo, sd = days[-1]
        return elo, sd * sd + self.w2 * max(0, day - self.origin - step)


def predict_whr(games: GameSet, settings: WhrSettings = WhrSettings(), *, unfitted: np.ndarray | None = None,
                progress: Progress | None = None) -> tuple[Prediction, WhrSchedule]:
    prior = np.zeros(len(games.player_ids)) if unfitted is None else np.asarray(unfitted, np.float64)
    prior_var = 4.0 / (settings.virtual_games * C * C)
    events = games.predicted_events
    tick(progress, "whr", 0, len(events))
    candidates = np.unique(games.event_start[events])
    by_end = np.argsort(games.event_end, kind="stable")
    games_by_end = np.concatenate([[0], np.cumsum((games.hi - games.lo)[by_end])])
    learned = games_by_end[np.searchsorted(games.event_end[by_end], candidates, side="left")]
    schedule = plan_refits(learned, candidates, settings)
    fit = _Fit(games, settings)
    expected = np.full(games.player1.shape[0], 0.5)
    covered = np.zeros(games.player1.shape[0], bool)
    next_refit = 0
    for n, e in enumerate(events.tolist(), start=1):
        day = int(games.event_start[e])
        while next_refit < len(schedule.days) and schedule.days[next_refit] <= day:
            fit.refit(schedule.days[next_refit], schedule.iterations[next_refit])
            next_refit += 1
        part = games.games_of(e)
        a_all, b_all = games.player1[part].tolist(), games.player2[part].tolist()
        ratings = {p: fit.rating(p, day) for p in set(a_all) | set(b_all)}
        for i, a, b in zip(range(part.start, part.stop), a_all, b_all):
            ra, rb = ratings[a], ratings[b]
            covered[i] = ra is not None and rb is not None
            (ra, va), (rb, vb) = ra or (prior[a], prior_var), rb or (prior[b], prior_var)
            expected[i] = 1.0 / (1.0 + math.exp(-C * (ra - rb) / math.sqrt(1.0 + math.pi * C * C * (va + vb) / 8.0)))
        tick(progress, "whr", n, len(events))
    return Prediction("whr", expected, covered), schedule
