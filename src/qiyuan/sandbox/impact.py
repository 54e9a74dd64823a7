"""The impact pack of a proposed rule set (``rules compare A B --report``): what adopting B would do.

Three lists are set side by side, on every list date from ``from_date`` on (count, mean, spread) and in
detail on one list (``on``; default: the list in force two years after ``from_date``, or the last one):

* **A**: the rules in force, over the whole history;
* **B retroactively**: B over the whole history (as if it had always been in force);
* **B from a date**: A until the list of ``from_date`` (a publication date of both), then B from the states
  A left there (``compute_history(start=…)``) — what adopting B on that date does.

Per player: his rating under each (published or not); the distribution of each list (count, mean, spread,
quartiles); and who crosses a threshold — the 段级位 ratings of 附表 (1840 for 10级 … 2560 for 九段) and the
eligibility thresholds given (``thresholds``) — between A and each B: up (A below, B at or above) or down.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from qiyuan.errors import InputError, problem
from qiyuan.rating.columnar import GameColumns
from qiyuan.rating.history import compute_history
from qiyuan.rating.model import Event, Game, Player, Standing
from qiyuan.rating.result import StartState
from qiyuan.rating.rules import RuleSet
from qiyuan.rating.tables import DAN_KYU_RATINGS
from qiyuan.sandbox.lists import ListTimeline, lists_of_history, published_lists
from qiyuan.sandbox.prediction import Progress

#: The grade thresholds: rating → grade (附表 段级位).
GRADES: dict[int, str] = {rating: grade for grade, rating in DAN_KYU_RATINGS.items()}


@dataclass(frozen=True)
class Distribution:
    count: int
    mean: float
    sd: float
    quartiles: tuple[float, float, float]


@dataclass(frozen=True)
class PlayerImpact:
    player_id: str
    a: int | None  # published rating under A (None: not published)
    retro: int | None
    forward: int | None


@dataclass(frozen=True)
class Crossing:
    threshold: int
    label: str  # the grade (e.g. 5d) or "eligibility"
    variant: str  # "retroactive" or "from DATE"
    up: list[str]
    down: list[str]


@dataclass(frozen=True)
class Impact:
    a: str
    b: str
    on: date  # the list compared
    from_date: date
    players: list[PlayerImpact]
    distributions: dict[str, Distribution]  # on ``on``: "A", "B retroactive", "B from …"
    crossings: list[Crossing]
    series: list[tuple[date, dict[str, Distribution]]]  # every list date from from_date on


def _last(lists: ListTimeline, day: date) -> tuple[np.ndarray, np.ndarray]:
    k = int(lists.in_force(np.array([day.toordinal()]))[0])
    if k < 0:
        n = len(lists.player_ids)
        return np.zeros(n, np.int64), np.zeros(n, bool)
    return lists.rating[k], lists.published[k]


def _distribution(r: np.ndarray) -> Distribution:
    if r.shape[0] == 0:
        nan = float("nan")
        return Distribution(0, nan, nan, (nan, nan, nan))
    q = np.percentile(r, [25, 50, 75])
    return Distribution(int(r.shape[0]), float(r.mean()), float(r.std(ddof=1)) if r.shape[0] > 1 else 0.0,
                        (float(q[0]), float(q[1]), float(q[2])))


def forward_lists(a: RuleSet, b: RuleSet, players: Sequence[Player], events: Sequence[Event],
                  games: Sequence[Game] | GameColumns, standings: Sequence[Standing], from_date: date) -> ListTimeline:
    """A's lists up to ``from_date``, then B's from the states A left there."""
    before = compute_history(a, players, events, games, standings, engine="fast", until=from_date)
    start = StartState(from_date, before.final_states)
    after = compute_history(b, players, events, games, standings, engine="fast", start=start)
    first = lists_of_history(a, players, events, before)
    second = lists_of_history(b, players, events, after)
    keep = np.array([d <= from_date for d in first.dates], bool)
    later = np.array([d > from_date for d in second.dates], bool)
    later[0] = False  # the second run's starting list is A's list of from_date again
    return ListTimeline(b, first.player_ids,
                        tuple(d for d, k in zip(first.dates, keep) if k) + tuple(d for d, k in zip(second.dates, later) if k),
                        np.vstack([first.rating[keep], second.rating[later]]),
                        np.vstack([first.published[keep], second.published[later]]),
                        np.vstack([first.games[keep], second.games[later]]))


def impact(a: RuleSet, b: RuleSet, players: Sequence[Player], events: Sequence[Event],
           games: Sequence[Game] | GameColumns, standings: Sequence[Standing] = (), *, from_date: date | None = None,
           thresholds: Sequence[int] = (), on: date | None = None, progress: Progress | None = None) -> Impact:
    """The impact pack (``InputError`` for a ``from_date`` that is not a publication date of B inside the
    history)."""
    players = list(players)
    first = min(e.start_date for e in events)
    last = max(e.end_date for e in events)
    if from_date is None:
        middle = date.fromordinal((first.toordinal() + last.toordinal()) // 2)
        from_date = date(middle.year, 1, 1)
    common = sorted(set(a.publication_months) & set(b.publication_months))
    if from_date.day != 1 or from_date.month not in common or not first < from_date <= last:
        months = ", ".join(str(m) for m in common) or "none"
        raise InputError([problem("{date}: B applies from a publication date of both rule sets (the 1st of months "
                                  "{months}) inside the history ({first} to {last})", file="--from", date=from_date.isoformat(),
                                  months=months, first=first.isoformat(), last=last.isoformat())])
    la = published_lists(a, players, events, games, standings, progress=progress)
    lb = published_lists(b, players, events, games, standings, progress=progress)
    lf = forward_lists(a, b, players, events, games, standings, from_date)
    end = max(la.dates[-1], lb.dates[-1], lf.dates[-1])
    if on is None:
        on = min(end, from_date.replace(year=from_date.year + 2))
    forward_name = f"B from {from_date.isoformat()}"
    timelines = {"A": la, "B retroactive": lb, forward_name: lf}
    days = sorted({d for t in timelines.values() for d in t.dates if d >= from_date})
    series = []
    for day in days:
        series.append((day, {name: _distribution(r[p]) for name, (r, p) in
                             ((n, _last(t, day)) for n, t in timelines.items())}))
    views = {name: _last(t, on) for name, t in timelines.items()}
    ids = la.player_ids
    (ra, pa), (rb, pb), (rf, pf) = views.values()
    rows = [PlayerImpact(ids[i], int(ra[i]) if pa[i] else None, int(rb[i]) if pb[i] else None,
                         int(rf[i]) if pf[i] else None) for i in np.flatnonzero(pa | pb | pf).tolist()]
    marks = sorted({*GRADES, *thresholds})
    crossings = []
    for variant, (r2, p2) in (("retroactive", (rb, pb)), (f"from {from_date.isoformat()}", (rf, pf))):
        both = pa & p2
        for t in marks:
            up = [ids[i] for i in np.flatnonzero(both & (ra < t) & (r2 >= t)).tolist()]
            down = [ids[i] for i in np.flatnonzero(both & (ra >= t) & (r2 < t)).tolist()]
            if up or down:
                label = " / ".join(x for x in (GRADES.get(t), "eligibility" if t in thresholds else None) if x)
                crossings.append(Crossing(t, label, variant, up, down))
    return Impact(a.name, b.name, on, from_date, rows,
                  {name: _distribution(r[p]) for name, (r, p) in views.items()}, crossings, series)
