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
from qiyuan.rating.columnar import NONE, GameColumns
from qiyuan.rating.history import compute_history
from qiyuan.rating.model import Event, Game, Player, Standing
from qiyuan.rating.result import History
from qiyuan.rating.rules import RuleSet
from qiyuan.rating.state import initial_states
from qiyuan.sandbox.prediction import Progress


@dataclass(frozen=True, eq=False)
class ListTimeline:
    """``rating[k, i]`` is player ``i``'s rating on list ``k`` (published where ``published[k, i]``);
    ``games[k, i]`` his rated games on it (on list 0: those players.csv gives, 0 for a newcomer)."""

    rules: RuleSet
    player_ids: tuple[str, ...]
    dates: tuple[date, ...]
    rating: np.ndarray  # (lists, players) int64
    published: np.ndarray  # (lists, players) bool
    games: np.ndarray  # (lists, players) int64

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
        history = compute_history(rules, players, events, games, standings, engine="fast", progress=report)
    except ValueError as exc:
        raise InputError([problem("rule set {rules}: {reason}", file="--rules", rules=rules.name,
                                  reason=str(exc))]) from None
    return lists_of_history(rules, players, events, history)


def lists_of_history(rules: RuleSet, players: Sequence[Player], events: Sequence[Event], history: History
                     ) -> ListTimeline:
    """The published lists of a history the engine has computed (with its starting list)."""
    player_ids = tuple(history.player_ids)
    dates, rows, marks, counts = [], [], [], []
    if history.list_dates:
        start = min(previous_publication_date(rules.publication_months, history.list_dates[0]),
                    min(e.start_date for e in events))
        states = initial_states(rules, players, start)
        dates.append(start)
        rows.append(np.array([states[p].rating or 0 for p in player_ids], np.int64))
        marks.append(np.array([states[p].rating is not None for p in player_ids], bool))
        counts.append(np.array([states[p].games if states[p].rating is not None else 0 for p in player_ids],
                               np.int64))
    for lc in history.list_columns:  # ratings indexed by player, NONE where he holds none
        held = lc.rating != NONE
        dates.append(lc.date)
        rows.append(np.where(held, lc.rating, 0))
        marks.append(held)
        counts.append(np.asarray(lc.games, np.int64))
    shape = (len(dates), len(player_ids))
    return ListTimeline(rules, player_ids, tuple(dates),
                        np.vstack(rows) if rows else np.zeros(shape, np.int64),
                        np.vstack(marks) if marks else np.zeros(shape, bool),
                        np.vstack(counts) if counts else np.zeros(shape, np.int64))
