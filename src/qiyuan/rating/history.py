"""等级分历史: the one interface to the rating engine — a history of periods on the rule set's calendar.

``compute_history`` takes players, events, games and standings, optionally the
states stored with the last good list (``StartState``) and a last list date
(``until``), and returns one ``History``: every published list, every change,
the players' final states and, for the players asked for, their explanations.
Two engines compute it, chosen by ``engine``:

* ``"fast"`` (default): NumPy on integer hundredths (``qiyuan.rating.fast``);
* ``"reference"``: the loop of ``rate_period`` that reads like the texts
  (``qiyuan.rating.reference``), for checking.

Both give the same lists, changes and states (property-tested), and the same
explanations (the fast engine has the reference rate the explained players'
periods from its own states).

The lists run from the first publication date after ``start.date`` (without a
start: after the first event's end) to ``until`` (without: the first list date
after the last event's end). The list of date L holds the events with
previous-list-date ≤ end < L (an event ending on a publication date goes to the
next list). Every player is on every list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from datetime import date

import numpy as np

from qiyuan.collector import held
from qiyuan.rating import fast, reference
from qiyuan.rating.calendar import next_publication_date, previous_publication_date
from qiyuan.rating.columnar import GameColumns, StandingColumns
from qiyuan.rating.model import Event, Game, Player, Standing
from qiyuan.rating.result import History, Run, StartState
from qiyuan.rating.results import EventChange, GameLine, ListEntry, PublishedList
from qiyuan.rating.rules import RuleSet
from qiyuan.rating.state import initial_states

__all__ = ["ENGINES", "StartState", "History", "compute_history", "PublishedList", "ListEntry", "EventChange",
           "GameLine"]

ENGINES = ("fast", "reference")


@held()
def compute_history(rules: RuleSet, players: Sequence[Player], events: Sequence[Event], games: Sequence[Game],
                    standings: Sequence[Standing] = (), *, start: StartState | None = None, until: date | None = None,
                    engine: str = "fast", explain: Collection[str] | bool = (),
                    progress: Callable[[int, int], None] | None = None, full_changes: bool = False,
                    list_states: bool = False) -> History:
    """Rate a history (or the lists after ``start``, up to ``until``) with the chosen engine.

    ``explain``: the player ids (or ``True``: every player) whose ``History.explanation`` is wanted.
    ``full_changes``: ``History.changes`` as the reference writes them — with their notes and per-game lines,
    each number in the reference's text form (what the office stores and digests); the reference engine's
    changes always are. ``list_states``: ``History.list_states``, every player's state after each list (the
    office publishes many editions from one call: each edition stores the states of its list).
    Events that ended before ``start.date`` are already in its states and are left out, as are those ending
    on or after the last list date computed.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (one of: {', '.join(ENGINES)})")
    players = list(players)
    duplicates = sorted(i for i, n in Counter(p.id for p in players).items() if n > 1)
    if duplicates:
        raise ValueError(f"player id(s) given twice: {', '.join(duplicates)}")
    ids = {p.id for p in players}
    if explain is not True and explain is not False:
        explain = frozenset(explain)
        unknown = sorted(explain - ids)
        if unknown:
            raise ValueError(f"explain: unknown player(s) {', '.join(unknown)}")
    months = rules.publication_months
    if start is not None:
        if start.date.day != 1 or start.date.month not in months:
            raise ValueError(f"start {start.date} is not a publication date of rule set {rules.name}")
        strangers = sorted(set(start.states) - ids)
        if strangers:
            raise ValueError(f"start: states of player(s) not given: {', '.join(strangers[:10])}")
    given_ids = {e.id for e in events}
    _check_games(games, given_ids)
    if start is not None:
        events = [e for e in events if e.end_date >= start.date]
    dates = _list_dates(months, [e.end_date for e in events], start, until)
    # (kept in the order given: games and standings read in columns are indexed by it)
    events = [e for e in events if dates and e.end_date < dates[-1]]
    kept = {e.id for e in events}
    if len(kept) < len(given_ids):
        games = _games_of(games, kept)
        standings = _standings_of(standings, kept)
    first_start = start.date if start is not None else (
        previous_publication_date(months, dates[0]) if dates else None)
    states = None
    if start is not None:
        states = dict(start.states)
        missing = [p for p in players if p.id not in states]
        states.update(initial_states(rules, missing, start.date))
    run = Run(rules, players, events, games, standings, dates, first_start, states, explain, progress, full_changes,
              list_states)
    if engine == "fast" and rules.colour_advantage and _has_colour(games):
        engine = "reference"  # the fast engine has no colour term: a variant with one is rated by the reference
    return (fast.compute if engine == "fast" else reference.compute)(run)


def _has_colour(games: Sequence[Game]) -> bool:
    """Whether any game says who had Black."""
    if isinstance(games, GameColumns):
        return games.black is not None and bool(games.black.any())
    return any(g.black for g in games)


def _list_dates(months: Sequence[int], ends: Sequence[date], start: StartState | None,
                until: date | None) -> list[date]:
    """The list dates to compute, from the events' end dates, the start and ``until``."""
    if start is not None:
        first = next_publication_date(months, start.date)
    elif ends:
        first = next_publication_date(months, min(ends))
    else:
        return []
    if until is not None:
        last = until if until.day == 1 and until.month in months else previous_publication_date(months, until)
    elif ends:
        last = next_publication_date(months, max(ends))
    else:
        return []
    dates = []
    while first <= last:
        dates.append(first)
        first = next_publication_date(months, first)
    return dates


def _check_games(games: Sequence[Game], event_ids: set[str]) -> None:
    if isinstance(games, GameColumns):
        used = np.flatnonzero(np.bincount(games.event, minlength=len(games.event_ids))).tolist() if len(games) else []
        stray = sorted({games.event_ids[i] for i in used} - event_ids)
    else:
        stray = sorted({g.event_id for g in games} - event_ids)
    if stray:
        raise ValueError(f"games of unknown event(s): {', '.join(stray)}")


def _games_of(games: Sequence[Game], kept: set[str]) -> Sequence[Game]:
    """The games of the kept events."""
    if isinstance(games, GameColumns):
        wanted = np.array([e in kept for e in games.event_ids], dtype=bool)
        return games.take(wanted[games.event])
    return [g for g in games if g.event_id in kept]


def _standings_of(standings: Sequence[Standing], kept: set[str]) -> Sequence[Standing]:
    if isinstance(standings, StandingColumns):
        wanted = np.array([e in kept for e in standings.event_ids], dtype=bool)
        mask = wanted[standings.event] if len(standings) else np.zeros(0, dtype=bool)
        return StandingColumns(standings.event_ids, standings.player_ids, standings.event[mask],
                               standings.player[mask], standings.rank[mask])
    return [s for s in standings if s.event_id in kept]
