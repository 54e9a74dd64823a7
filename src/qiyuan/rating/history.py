"""等级分历史: a whole rating history, period after period on the rule set's calendar.

The lists run from the first publication date after the first event's end
date to the first one after the last event's end date; the list of date L
holds the events with previous-list-date ≤ end < L (an event ending on a
publication date goes to the next list). Every player is on every list.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from qiyuan.rating.calendar import previous_publication_date, publication_dates
from qiyuan.rating.model import Event, Game, Player, Standing
from qiyuan.rating.period import PeriodResult, rate_period
from qiyuan.rating.results import EventChange, GameLine, ListEntry, PublishedList
from qiyuan.rating.rules import RuleSet
from qiyuan.rating.state import PlayerState, initial_states

__all__ = ["History", "PublishedList", "ListEntry", "EventChange", "GameLine", "compute_history"]


@dataclass
class History:
    """Every published list and every player's change in every rated event."""

    rules: RuleSet
    lists: list[PublishedList] = field(default_factory=list)
    changes: list[EventChange] = field(default_factory=list)
    final_states: dict[str, PlayerState] = field(default_factory=dict)

    def explain(self, player_id: str) -> list[EventChange]:
        """The player's changes, event by event, in publication order."""
        return [c for c in self.changes if c.player_id == player_id]


def compute_history(rules: RuleSet, players: Sequence[Player], events: Sequence[Event], games: Sequence[Game],
                    standings: Sequence[Standing] = (), *,
                    progress: Callable[[int, int], None] | None = None) -> History:
    """Rate a whole history: one ``rate_period`` per publication date."""
    players = list(players)
    duplicates = sorted(i for i, n in Counter(p.id for p in players).items() if n > 1)
    if duplicates:
        raise ValueError(f"player id(s) given twice: {', '.join(duplicates)}")
    history = History(rules=rules)
    if not events:
        return history
    events = sorted(events, key=lambda e: (e.end_date, e.start_date, e.id))
    dates = publication_dates(rules.publication_months, events[0].end_date, events[-1].end_date)
    start = previous_publication_date(rules.publication_months, dates[0])
    states = initial_states(rules, players, start)

    games_of: dict[str, list[Game]] = defaultdict(list)
    for g in games:
        games_of[g.event_id].append(g)
    known_events = {e.id for e in events}
    stray = sorted(set(games_of) - known_events)
    if stray:
        raise ValueError(f"games of unknown event(s): {', '.join(stray)}")
    standings_of: dict[str, list[Standing]] = defaultdict(list)
    for s in standings:
        standings_of[s.event_id].append(s)

    total = len(dates)
    index = 0
    for n, list_date in enumerate(dates, start=1):
        period_events = []
        while index < len(events) and events[index].end_date < list_date:
            period_events.append(events[index])
            index += 1
        result: PeriodResult = rate_period(
            rules, states, period_events,
            [g for e in period_events for g in games_of[e.id]],
            [s for e in period_events for s in standings_of[e.id]],
            list_date,
        )
        history.lists.append(result.published)
        history.changes.extend(result.changes)
        states = result.states
        if progress is not None:
            progress(n, total)
    history.final_states = states
    return history
