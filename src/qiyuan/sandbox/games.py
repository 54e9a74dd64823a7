"""The games to predict, and the order in which a system learns the history.

Every system sees the history the same way: an event is *predicted* from
what the system knew when it started, and *learned* once it has ended — so
before an event starting on day s, every event that ended before s (and no
other) has been learned, in the order of their end dates. Only games
actually played are predicted or learned (forfeits and unplayed games are
not, as they are not rated); a draw scores ½.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from qiyuan.errors import InputError, problem
from qiyuan.rating.columnar import CODE_OF_RESULT, GameColumns
from qiyuan.rating.model import Event, Game, Player, Result

LEARN = "learn"
PREDICT = "predict"

_SCORE = {Result.WIN: 1.0, Result.LOSS: 0.0, Result.DRAW: 0.5}


def default_from(events: Sequence[Event]) -> date:
    """The default first date to predict: two years after the history's first event started."""
    first = min(e.start_date for e in events)
    try:
        return first.replace(year=first.year + 2)
    except ValueError:  # 29 February
        return first.replace(year=first.year + 2, day=28)


@dataclass(frozen=True, eq=False)
class GameSet:
    """The played games of a history, grouped by event, with the events' dates.

    Game arrays are ordered by event (by start date, end date, id), then
    round, then the players' ids, so file order does not matter; the games of
    event ``e`` are ``slice(lo[e], hi[e])``. ``score`` is player1's score
    (1, ½, 0). ``predicted`` marks the games of the events that end on or
    after ``from_date``. ``black`` is +1 where player1 had Black, −1 where
    player2 had, 0 where the colours are not known (``colour``).
    """

    player_ids: tuple[str, ...]
    event_ids: tuple[str, ...]
    id_rank: np.ndarray  # per event: its rank by id (ties of dates are broken by id)
    event_start: np.ndarray  # date ordinals, per event
    event_end: np.ndarray
    lo: np.ndarray  # per event: its games' slice in the game arrays
    hi: np.ndarray
    event: np.ndarray  # per game
    round: np.ndarray
    player1: np.ndarray
    player2: np.ndarray
    score: np.ndarray
    from_date: date
    black: np.ndarray = None  # type: ignore[assignment]  # int8 per game; all 0 when not given

    def __post_init__(self) -> None:
        if self.black is None:
            object.__setattr__(self, "black", np.zeros(self.player1.shape[0], np.int8))

    @property
    def predicted(self) -> np.ndarray:
        return self.event_end[self.event] >= self.from_date.toordinal()

    @property
    def predicted_events(self) -> np.ndarray:
        """Indices of the events with predicted games, in start order."""
        ev = np.flatnonzero((self.event_end >= self.from_date.toordinal()) & (self.hi > self.lo))
        return ev[np.lexsort((self.id_rank[ev], self.event_end[ev], self.event_start[ev]))]

    def games_of(self, e: int) -> slice:
        return slice(int(self.lo[e]), int(self.hi[e]))

    def steps(self) -> Iterator[tuple[str, int]]:
        """(LEARN, e) and (PREDICT, e) in the order knowledge arrives.

        Before each predicted event, every event that ended before its start
        and has not been learned yet is learned, by end date (then start date,
        then id). Events that end after the last predicted event started are
        never needed and not learned.
        """
        with_games = np.flatnonzero(self.hi > self.lo)
        by_end = with_games[np.lexsort((self.id_rank[with_games], self.event_start[with_games],
                                        self.event_end[with_games]))]
        learned = 0
        for e in self.predicted_events.tolist():
            start = int(self.event_start[e])
            while learned < by_end.shape[0] and int(self.event_end[by_end[learned]]) < start:
                yield LEARN, int(by_end[learned])
                learned += 1
            yield PREDICT, e

    def batches(self) -> Iterator[tuple[str, list[int]]]:
        """``steps`` grouped for systems that rate an event's players together: a run of
        consecutive PREDICT steps, or of LEARN steps whose events share no player (learning them
        together gives what learning them one by one gives)."""
        seen = np.full(len(self.player_ids), -1, np.int64)
        kind, batch, number = None, [], 0
        for step, e in self.steps():
            if step == LEARN:
                who = np.concatenate([self.player1[self.games_of(e)], self.player2[self.games_of(e)]])
                clash = bool((seen[who] == number).any())
            else:
                who, clash = None, False
            if batch and (step != kind or clash):
                yield kind, batch
                batch, number = [], number + 1
            kind = step
            batch.append(e)
            if who is not None:
                seen[who] = number
        if batch:
            yield kind, batch

    def games_of_events(self, events: list[int]) -> np.ndarray:
        """The indices of the games of these events."""
        if len(events) == 1:
            return np.arange(self.lo[events[0]], self.hi[events[0]])
        return np.concatenate([np.arange(self.lo[e], self.hi[e]) for e in events])

    def learned_before(self, day: int) -> np.ndarray:
        """Indices of the events (with games) that ended before ``day``, by end date."""
        ev = np.flatnonzero((self.event_end < day) & (self.hi > self.lo))
        return ev[np.lexsort((self.id_rank[ev], self.event_start[ev], self.event_end[ev]))]


def played_scores(cols: GameColumns) -> np.ndarray:
    """Player1's score in every game (1, ½, 0), nan where the game was not played."""
    score_of_code = np.full(len(CODE_OF_RESULT), np.nan)
    for result, value in _SCORE.items():
        score_of_code[CODE_OF_RESULT[result]] = value
    return score_of_code[cols.result.astype(np.int64)]


def _ranks(ids: Sequence[str]) -> np.ndarray:
    rank = np.empty(len(ids), np.int64)
    rank[sorted(range(len(ids)), key=ids.__getitem__)] = np.arange(len(ids))
    return rank


def game_set(players: Sequence[Player], events: Sequence[Event], games: Sequence[Game] | GameColumns,
             from_date: date | None = None, colours: np.ndarray | None = None) -> GameSet:
    """The played games of a history, checked: ``from_date`` must lie inside the history and at
    least one game must be left to predict (else ``InputError``, naming ``--from``). ``colours``: per
    game of ``games`` (their order), +1 player1 had Black, −1 player2, 0 not known."""
    if not events:
        raise InputError([problem("the history has no events: nothing to predict", file="--events")])
    event_ids = tuple(e.id for e in events)
    player_ids = tuple(p.id for p in players)
    try:
        cols = GameColumns.from_games(games, event_ids, player_ids)
    except KeyError as exc:
        raise InputError([problem("a game of unknown event or player {id}", file="--games", id=exc.args[0])]) \
            from None
    start = np.array([e.start_date.toordinal() for e in events], np.int64)
    end = np.array([e.end_date.toordinal() for e in events], np.int64)
    first, last = date.fromordinal(int(start.min())), date.fromordinal(int(end.max()))
    if from_date is None:
        from_date = default_from(events)
    if not first <= from_date <= last:
        raise InputError([problem("{date} is outside the history ({first} to {last})", file="--from",
                                  date=from_date.isoformat(), first=first.isoformat(), last=last.isoformat())])
    score = played_scores(cols)
    played = np.flatnonzero(~np.isnan(score))
    # Event rank by start date: the games of each event become one contiguous run.
    id_rank = _ranks(event_ids)
    order = np.lexsort((id_rank, end, start))
    rank = np.empty(len(events), np.int64)
    rank[order] = np.arange(len(events))
    ev = cols.event[played].astype(np.int64)
    rnd = cols.round[played].astype(np.int64)
    player_rank = _ranks(player_ids)
    sort = np.lexsort((played, player_rank[cols.player2[played]], player_rank[cols.player1[played]], rnd, rank[ev]))
    idx = played[sort]
    ev_sorted = ev[sort]
    ranks = rank[ev_sorted]
    lo = np.searchsorted(ranks, rank, side="left")
    hi = np.searchsorted(ranks, rank, side="right")
    gs = GameSet(player_ids, event_ids, id_rank, start, end, lo, hi, ev_sorted, cols.round[idx].astype(np.int64),
                 cols.player1[idx].astype(np.int64), cols.player2[idx].astype(np.int64), score[idx], from_date,
                 None if colours is None else np.asarray(colours, np.int8)[idx])
    if not gs.predicted.any():
        raise InputError([problem("no played game in the events ending on or after {date}: nothing to predict",
                                  file="--from", date=from_date.isoformat())])
    return gs
