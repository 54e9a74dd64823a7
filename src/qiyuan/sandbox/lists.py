"""A rule set's published lists (等级分名册) as arrays: the one place the sandbox calls the rating engine.

``published_lists`` rates the whole history with the project's engine and
keeps, for every list date, each player's published rating (a player holds
one when he is ``active`` or ``inactive``; ``unrated`` and ``removed`` players
hold none). List 0 is the history's starting list: the ratings it starts
from (players.csv, or the rule set's dan / reference starts), in force from
the start of the first rating period (or the first event, if earlier) until
the first published list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from qiyuan.errors import InputError, problem
from qiyuan.rating.calendar import previous_publication_date
from qiyuan.rating.columnar import GameColumns
from qiyuan.rating.fast import compute_history_fast
from qiyuan.rating.model import Event, Game, Player, Standing
from qiyuan.rating.rules import RuleSet
from qiyuan.rating.state import initial_states
from qiyuan.sandbox.prediction import Progress


@dataclass(frozen=True, eq=False)
class ListTimeline:
    """``rating[k, i]`` is player ``i``'s rating on list ``k`` (published where ``published[k, i]``)."""

    rules: RuleSet
    player_ids: tuple[str, ...]
    dates: tuple[date, ...]
    rating: np.ndarray  # (lists, players) int64
    published: np.ndarray  # (lists, players) bool

    def in_force(self, days: np.ndarray) -> np.ndarray:
        """For each day (a date ordinal), the index of the list in force then — the last one
        published on or before it — or -1 before the first list."""
        ordinals = np.array([d.toordinal() for d in self.dates], np.int64)
        return np.searchsorted(ordinals, np.asarray(days, np.int64), side="right") - 1


def published_lists(rules: RuleSet, players: Sequence[Player], events: Sequence[Event],
                    games: Sequence[Game] | GameColumns, standings: Sequence[Standing] = (), *,
                    progress: Progress | None = None) -> ListTimeline:
    """Rate the history under ``rules`` and keep every published list (``InputError`` if the
    engine refuses the history under this rule set)."""
    stage = f"rating by {rules.name}"
    report = None if progress is None else (lambda done, total: progress(stage, done, total))
    if report is not None:
        report(0, 1)
    try:
        history = compute_history_fast(rules, players, events, games, standings, progress=report)
    except ValueError as exc:
        raise InputError([problem("rule set {rules}: {reason}", file="--rules", rules=rules.name,
                                  reason=str(exc))]) from None
    player_ids = tuple(history.player_ids)
    dates, rows, marks = [], [], []
    if history.list_dates:
        start = min(previous_publication_date(rules.publication_months, history.list_dates[0]),
                    min(e.start_date for e in events))
        states = initial_states(rules, players, start)
        dates.append(start)
        rows.append(np.array([states[p].rating or 0 for p in player_ids], np.int64))
        marks.append(np.array([states[p].rating is not None for p in player_ids], bool))
    for list_date, frame in history.list_frames():
        index = frame["player_index"].to_numpy()
        rating = frame["rating"]
        held = rating.is_not_null().to_numpy()
        row = np.zeros(len(player_ids), np.int64)
        mark = np.zeros(len(player_ids), bool)
        row[index[held]] = rating.filter(rating.is_not_null()).to_numpy()
        mark[index[held]] = True
        dates.append(list_date)
        rows.append(row)
        marks.append(mark)
    shape = (len(dates), len(player_ids))
    return ListTimeline(rules, player_ids, tuple(dates),
                        np.vstack(rows) if rows else np.zeros(shape, np.int64),
                        np.vstack(marks) if marks else np.zeros(shape, bool))
