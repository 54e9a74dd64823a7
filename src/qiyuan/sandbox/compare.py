"""``qiyuan rules compare A B``: two rule sets' published lists of one history, side by side.

On every list date of either rule set, the lists in force under A and under
B (the last one of each published on or before that date): how many players
each publishes, how many both or only one of them do, and for the players
published under both the mean difference B − A, the mean and the largest
absolute difference. ``movers`` are the players whose two ratings differ
most on some list date (his largest difference, on the first date it
occurs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from qiyuan.errors import InputError, problem
from qiyuan.rating.columnar import GameColumns
from qiyuan.rating.model import Event, Game, Player, Standing
from qiyuan.rating.rules import RuleSet
from qiyuan.sandbox.lists import ListTimeline, published_lists
from qiyuan.sandbox.prediction import Progress


@dataclass(frozen=True)
class DateComparison:
    date: date
    published_a: int
    published_b: int
    both: int
    only_a: int
    only_b: int
    mean_diff: float | None  # B − A over the players published under both (None: nobody)
    mean_abs_diff: float | None
    largest_diff: int | None  # the signed B − A of largest size
    largest_player: str | None


@dataclass(frozen=True)
class Mover:
    player_id: str
    date: date
    rating_a: int
    rating_b: int

    @property
    def diff(self) -> int:
        return self.rating_b - self.rating_a


@dataclass(frozen=True)
class Comparison:
    a: str
    b: str
    dates: list[DateComparison]
    movers: list[Mover]


def _in_force(lists: ListTimeline, day: int) -> tuple[np.ndarray, np.ndarray]:
    k = int(lists.in_force(np.array([day]))[0])
    if k < 0:
        n = len(lists.player_ids)
        return np.zeros(n, np.int64), np.zeros(n, bool)
    return lists.rating[k], lists.published[k]


def compare_lists(a: ListTimeline, b: ListTimeline, top: int = 10) -> Comparison:
    if a.player_ids != b.player_ids:
        raise ValueError("the two timelines are not of the same players")
    ids = a.player_ids
    days = sorted({d.toordinal() for d in a.dates} | {d.toordinal() for d in b.dates})
    rows = []
    best = np.zeros(len(ids), np.int64)  # each player's largest |B − A| so far
    best_day = np.full(len(ids), -1, np.int64)
    best_a = np.zeros(len(ids), np.int64)
    best_b = np.zeros(len(ids), np.int64)
    for day in days:
        ra, pa = _in_force(a, day)
        rb, pb = _in_force(b, day)
        both = pa & pb
        diff = (rb - ra)[both]
        if diff.shape[0]:
            j = int(np.argmax(np.abs(diff)))
            largest = int(diff[j])
            player = ids[int(np.flatnonzero(both)[j])] if largest else None
            mean, mean_abs = float(diff.mean()), float(np.abs(diff).mean())
        else:
            largest = player = mean = mean_abs = None
        rows.append(DateComparison(date.fromordinal(day), int(pa.sum()), int(pb.sum()), int(both.sum()),
                                   int((pa & ~pb).sum()), int((pb & ~pa).sum()), mean, mean_abs, largest, player))
        size = np.where(both, np.abs(rb - ra), -1)
        better = size > np.where(best_day >= 0, best, -1)
        best = np.where(better, size, best)
        best_day = np.where(better, day, best_day)
        best_a = np.where(better, ra, best_a)
        best_b = np.where(better, rb, best_b)
    ranked = [i for i in np.lexsort((np.arange(len(ids)), -best)).tolist() if best_day[i] >= 0][:top]
    movers = [Mover(ids[i], date.fromordinal(int(best_day[i])), int(best_a[i]), int(best_b[i])) for i in ranked]
    return Comparison(a.rules.name, b.rules.name, rows, movers)


def compare(a: RuleSet, b: RuleSet, players: Sequence[Player], events: Sequence[Event],
            games: Sequence[Game] | GameColumns, standings: Sequence[Standing] = (), *, top: int = 10,
            progress: Progress | None = None) -> Comparison:
    """Rate the history under both rule sets and compare their lists (``InputError`` for the same
    rule set twice, a history without events, or ``top`` below 1)."""
    problems = []
    if a.name == b.name:
        problems.append(problem("A and B are the same rule set ({name}): compare two different ones", name=a.name))
    if not events:
        problems.append(problem("the history has no events: no list to compare", file="--events"))
    if top < 1:
        problems.append(problem("must be at least 1, not {top}", file="--top", top=top))
    if problems:
        raise InputError(problems)
    players = list(players)
    return compare_lists(published_lists(a, players, events, games, standings, progress=progress),
                         published_lists(b, players, events, games, standings, progress=progress), top)
