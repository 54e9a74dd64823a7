"""What a federation asks of its list before changing the rules: drift, volatility, games to a first rating.

Measured on a rule set's published lists (``ListTimeline``) from the test's
first list on:

* **drift** (通胀/通缩 of the list): the *cohort* is every player published on
  the list in force on ``from_date``; on the list in force on 1 January of
  each later year (and on the last list) the cohort's members still published
  give their number, mean and standard deviation — a fixed group of players
  whose mean falls year after year is a deflating list (FIDE's changes of
  2024), beside the mean of the whole published list;
* **volatility**: for every pair of consecutive lists on which a player is
  published and gained rated games, |ΔR| and the games gained; per band of
  the games he had before, Σ|ΔR| / Σ games (mean |ΔR| per game);
* **games to a first rating**: a player who holds no rating on the starting
  list and is later published: the games he had *played* (every played game
  of an event that ended before that list's date) and the rated games the
  list gives him; the players who played but were never published are
  counted apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import numpy as np

from qiyuan.sandbox.games import GameSet
from qiyuan.sandbox.lists import ListTimeline

#: The bands of rated games before the change (lower bounds; the last is open).
GAME_BANDS = (0, 30, 60, 120)


@dataclass(frozen=True)
class DriftPoint:
    date: date  # the list date
    cohort: int  # members of the cohort published on it
    cohort_mean: float  # nan when none
    cohort_sd: float
    listed: int  # players published on it
    list_mean: float


@dataclass(frozen=True)
class VolatilityBand:
    lo: int
    hi: int | None  # None: open
    changes: int  # list-to-list changes counted
    games: int
    per_game: float  # Σ|ΔR| / Σ games (nan when none)


@dataclass(frozen=True)
class Establishment:
    players: int  # newcomers published at last
    played_median: float
    played_mean: float
    rated_median: float
    never: int  # newcomers who played but were never published


@dataclass(frozen=True)
class ListMeasures:
    system: str
    cohort_date: date  # the list the cohort is taken from
    drift: list[DriftPoint]
    volatility: list[VolatilityBand]
    establishment: Establishment


def _mean_sd(x: np.ndarray) -> tuple[float, float]:
    if x.shape[0] == 0:
        return float("nan"), float("nan")
    return float(x.mean()), float(x.std(ddof=1)) if x.shape[0] > 1 else 0.0


def drift(lists: ListTimeline, from_date: date) -> tuple[date, list[DriftPoint]]:
    ordinals = [d.toordinal() for d in lists.dates]
    if not ordinals:
        return from_date, []
    k0 = max(int(lists.in_force(np.array([from_date.toordinal()]))[0]), 0)
    cohort = lists.published[k0]
    picks = [k0]
    last = lists.dates[-1]
    for year in range(from_date.year + 1, last.year + 1):
        k = int(lists.in_force(np.array([date(year, 1, 1).toordinal()]))[0])
        if k > picks[-1]:
            picks.append(k)
    if len(lists.dates) - 1 > picks[-1]:
        picks.append(len(lists.dates) - 1)
    points = []
    for k in picks:
        on = lists.published[k]
        members = lists.rating[k][on & cohort].astype(np.float64)
        everyone = lists.rating[k][on].astype(np.float64)
        m, sd = _mean_sd(members)
        points.append(DriftPoint(lists.dates[k], int(members.shape[0]), m, sd, int(everyone.shape[0]),
                                 _mean_sd(everyone)[0]))
    return lists.dates[k0], points


def volatility(lists: ListTimeline, from_date: date, bands: tuple[int, ...] = GAME_BANDS) -> list[VolatilityBand]:
    first = max(int(lists.in_force(np.array([from_date.toordinal()]))[0]), 0)
    moves, gained, before = [], [], []
    for k in range(first + 1, len(lists.dates)):
        both = lists.published[k] & lists.published[k - 1]
        more = lists.games[k] - lists.games[k - 1]
        ok = both & (more > 0)
        moves.append(np.abs(lists.rating[k] - lists.rating[k - 1])[ok])
        gained.append(more[ok])
        before.append(lists.games[k - 1][ok])
    move = np.concatenate(moves) if moves else np.zeros(0, np.int64)
    gain = np.concatenate(gained) if gained else np.zeros(0, np.int64)
    prior = np.concatenate(before) if before else np.zeros(0, np.int64)
    which = np.searchsorted(np.array(bands), prior, side="right") - 1
    out = []
    for i, lo in enumerate(bands):
        sel = which == i
        g = int(gain[sel].sum())
        out.append(VolatilityBand(lo, bands[i + 1] if i + 1 < len(bands) else None, int(sel.sum()), g,
                                  float(move[sel].sum()) / g if g else float("nan")))
    return out


def establishment(lists: ListTimeline, games: GameSet) -> Establishment:
    n = len(lists.player_ids)
    nan = float("nan")
    if not lists.dates:
        return Establishment(0, nan, nan, nan, 0)
    newcomer = ~lists.published[0]
    ever = lists.published.any(axis=0)
    first = np.where(ever, np.argmax(lists.published, axis=0), -1)
    played = np.zeros(n, bool)
    played[games.player1] = True
    played[games.player2] = True
    got = np.flatnonzero(newcomer & ever)
    # games played before each list date: per player, the end days of his games, sorted
    ends = games.event_end[games.event]
    who = np.concatenate([games.player1, games.player2])
    day = np.concatenate([ends, ends])
    order = np.lexsort((day, who))
    who, day = who[order], day[order]
    start = np.searchsorted(who, np.arange(n), side="left")
    counts_played, counts_rated = [], []
    for i in got.tolist():
        k = int(first[i])
        list_day = lists.dates[k].toordinal()
        hi = np.searchsorted(who, i, side="right")
        counts_played.append(int(np.searchsorted(day[start[i]:hi], list_day, side="left")))
        counts_rated.append(int(lists.games[k, i]))
    never = int((newcomer & ~ever & played).sum())
    if not got.shape[0]:
        return Establishment(0, nan, nan, nan, never)
    return Establishment(int(got.shape[0]), float(np.median(counts_played)), float(np.mean(counts_played)),
                         float(np.median(counts_rated)), never)


def list_measures(lists: ListTimeline, games: GameSet) -> ListMeasures:
    cohort_date, points = drift(lists, games.from_date)
    return ListMeasures(lists.rules.name, cohort_date, points, volatility(lists, games.from_date),
                        establishment(lists, games))
