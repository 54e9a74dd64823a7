"""What a history computation returns (``History``) and is given (``StartState``, ``Run``), for both engines.

``History`` holds the lists and changes as exact integer columns (``ListColumns``,
``ChangeColumns``), which the formats write to files, and builds the objects
(``PublishedList``, ``EventChange``) when asked for; its final states and the
explanations come from the engine that computed it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction

import numpy as np

from qiyuan.rating import calculation as C
from qiyuan.rating.columnar import (
    METHOD_NAMES,
    NONE,
    STATUS_NAMES,
    ChangeColumns,
    ChangeTexts,
    ListColumns,
    exact_decimal,
)
from qiyuan.rating.exact import to_decimal
from qiyuan.rating.list_states import ListStates
from qiyuan.rating.model import Event, Game, Player, Standing
from qiyuan.rating.results import EventChange, ListEntry, PublishedList
from qiyuan.rating.rules import RuleSet
from qiyuan.rating.state import PlayerState


@dataclass(frozen=True)
class StartState:
    """Where a computation starts: every player's state after the list of ``date`` (what the office stores
    with that list's edition). Players missing from ``states`` start from their initial state at ``date``."""

    date: date
    states: Mapping[str, PlayerState]


@dataclass
class History:
    """Every published list and every player's change in every rated event, whichever engine computed them.

    ``list_columns`` and ``change_columns`` hold them as exact integer columns (what the formats write);
    ``lists`` and ``changes`` build the objects when asked for (slow on millions of rows).
    """

    rules: RuleSet
    player_ids: tuple[str, ...]
    event_ids: tuple[str, ...]
    list_dates: list[date]
    list_columns: list[ListColumns]
    change_columns: ChangeColumns
    explained: frozenset[str] | bool = frozenset()  # the players whose explanations were computed (True: all)
    #: with ``list_states``: every player's state after each list (``list_dates``' order), what the office stores
    #: with each edition; on the fast engine a state unchanged since the previous list is the same object
    list_states: list[ListStates] | None = None
    _change_objects: list[EventChange] | None = field(default=None, repr=False)
    _change_texts: ChangeTexts | None = field(default=None, repr=False)
    _final_states: Callable[[], dict[str, PlayerState]] | None = field(default=None, repr=False)
    _final: dict[str, PlayerState] | None = field(default=None, repr=False)
    _explain: Callable[[str], list[tuple[date, list[C.EventExplanation], C.Publication, ListEntry]]] | None = \
        field(default=None, repr=False)

    # --- lists

    @property
    def lists(self) -> list[PublishedList]:
        return [PublishedList(lc.date, list_entries(lc, self.player_ids)) for lc in self.list_columns]

    # --- changes

    @property
    def changes(self) -> list[EventChange]:
        """The changes in order: events by (end date, start date, id), players by id. The reference engine's
        carry their calculation lines and notes; the fast engine's the numbers only (see ``explanation``)."""
        if self._change_objects is None and self._change_texts is not None:
            self._change_objects = self._change_texts.objects()
        if self._change_objects is not None:
            return self._change_objects
        return change_objects(self.change_columns, self.player_ids, self.event_ids, self.list_dates)

    @property
    def change_texts(self) -> ChangeTexts:
        """The changes as the reference writes them, in columns (``full_changes``, or the reference engine):
        what the office stores and digests, without an object per change."""
        if self._change_texts is None:
            if self._change_objects is None:
                raise ValueError("the history was not computed with full_changes")
            self._change_texts = ChangeTexts.from_objects(self._change_objects)
        return self._change_texts

    def changes_of(self, player_id: str) -> list[EventChange]:
        """The player's changes, event by event, in publication order."""
        return [c for c in self.changes if c.player_id == player_id]

    def hand_over_changes(self) -> ChangeTexts:
        """``change_texts``, the history keeping no reference to them or to the objects (a caller that builds
        edition after edition from them lets each part go: a large history's changes are not all kept)."""
        texts = self.change_texts
        self._change_texts = self._change_objects = None
        return texts

    # --- states

    @property
    def final_states(self) -> dict[str, PlayerState]:
        """Every player's state after the last list (what the office stores; ``StartState`` of the next run)."""
        if self._final is None:
            self._final = self._final_states() if self._final_states is not None else {}
        return self._final

    # --- explanations

    def explanation(self, player_id: str) -> C.PlayerExplanation:
        """His calculations in every period in which he played or his entry changed (and the first list)."""
        if not (self.explained is True or player_id in self.explained) or self._explain is None:
            raise KeyError(f"the history was not computed with explain= for player {player_id!r}")
        out = C.PlayerExplanation(player_id, self.rules.name)
        previous = None
        for list_date, events, publication, entry in self._explain(player_id):
            key = (entry.rating, entry.exact, entry.games, entry.status)
            if events or key != previous or publication.latched_now or previous is None:
                out.periods.append(C.PeriodExplanation(list_date, tuple(events), publication, entry))
            previous = key
        return out


def list_entries(lc: ListColumns, player_ids: Sequence[str]) -> list[ListEntry]:
    """A list's entries as objects, in list order."""
    out = []
    for i in lc.order.tolist():
        rating = int(lc.rating[i])
        if rating == NONE:
            exact = None
        else:
            exact = lc.exact_other.get(i)
            if exact is None:
                exact = exact_decimal(lc.exact_h[i], bool(lc.exact_cents[i]))
        out.append(ListEntry(player_ids[i], None if rating == NONE else rating, exact, int(lc.games[i]),
                             STATUS_NAMES[lc.status[i]]))
    return out


def _h(x: int) -> Decimal | None:
    return None if x == NONE else Decimal(int(x)).scaleb(-2)


def change_objects(cc: ChangeColumns, player_ids: Sequence[str], event_ids: Sequence[str],
                   list_dates: Sequence[date]) -> list[EventChange]:
    """The changes of ``cc`` as objects (numbers only: no calculation lines or notes)."""
    out = []
    for j in range(len(cc)):
        method = METHOD_NAMES[cc.method[j]]
        rc = None if cc.Rc_den[j] == 0 else to_decimal(Fraction(int(cc.Rc_num[j]), int(cc.Rc_den[j])))
        ru = None if cc.ru_den[j] == 0 else to_decimal(Fraction(int(cc.ru_num[j]), int(cc.ru_den[j])))
        out.append(EventChange(
            player_id=player_ids[cc.player[j]], event_id=event_ids[cc.event[j]],
            list_date=list_dates[cc.list_index[j]], games=int(cc.games[j]), W=_h(cc.W[j]), We=_h(cc.We[j]),
            K=None if cc.K[j] == NONE else int(cc.K[j]), delta=_h(cc.delta[j]), method=method, Rc=rc,
            N=None if cc.N[j] == NONE else int(cc.N[j]), Pd=_h(cc.Pd[j]), D=None if cc.D[j] == NONE else int(cc.D[j]),
            ru=ru, Ro=None if cc.Ro[j] == NONE else Decimal(int(cc.Ro[j])), raw_delta=_h(cc.raw_delta[j]),
        ))
    return out


def _hundredths(x: Decimal | None) -> int:
    if x is None:
        return NONE
    scaled = x * 100
    if scaled != scaled.to_integral_value():
        raise ArithmeticError(f"{x} is not a whole number of hundredths")
    return int(scaled)


def _fraction(x: Decimal | None) -> tuple[int, int]:
    if x is None:
        return 0, 0
    f = Fraction(x)
    return f.numerator, f.denominator


def change_columns(changes: Sequence[EventChange], player_index: Mapping[str, int], event_index: Mapping[str, int],
                   list_index: Mapping[date, int]) -> ChangeColumns:
    """The columns of change objects (the reference engine's), in their order."""
    def col(values) -> np.ndarray:
        return np.array(list(values), dtype=np.int64)

    def opt(x: int | None) -> int:
        return NONE if x is None else int(x)

    rc = [_fraction(c.Rc) for c in changes]
    ru = [_fraction(c.ru) for c in changes]
    return ChangeColumns(
        player=col(player_index[c.player_id] for c in changes), event=col(event_index[c.event_id] for c in changes),
        list_index=col(list_index[c.list_date] for c in changes), games=col(c.games for c in changes),
        W=col(_hundredths(c.W) for c in changes), We=col(_hundredths(c.We) for c in changes),
        K=col(opt(c.K) for c in changes), delta=col(_hundredths(c.delta) for c in changes),
        raw_delta=col(_hundredths(c.raw_delta) for c in changes), method=col(METHOD_NAMES.index(c.method)
                                                                             for c in changes),
        N=col(opt(c.N) for c in changes), Ro=col(opt(c.Ro) for c in changes), D=col(opt(c.D) for c in changes),
        Pd=col(_hundredths(c.Pd) for c in changes), Rc_num=col(a for a, _ in rc), Rc_den=col(b for _, b in rc),
        ru_num=col(a for a, _ in ru), ru_den=col(b for _, b in ru),
    )


def list_columns(published: PublishedList, player_index: Mapping[str, int]) -> ListColumns:
    """The columns of a list of objects (the reference engine's)."""
    n = len(player_index)
    rating = np.full(n, NONE, np.int64)
    games = np.zeros(n, np.int64)
    status = np.zeros(n, np.int8)
    exact_h = np.full(n, NONE, np.int64)
    cents = np.zeros(n, dtype=bool)
    other: dict[int, Decimal] = {}
    order = np.array([player_index[e.player_id] for e in published.entries], np.int64)
    code = {s: i for i, s in enumerate(STATUS_NAMES)}
    for i, e in zip(order.tolist(), published.entries):
        games[i] = e.games
        status[i] = code[e.status]
        if e.rating is not None:
            rating[i] = e.rating
            exponent = e.exact.as_tuple().exponent
            if exponent in (0, -2):
                exact_h[i] = int(e.exact * 100)
                cents[i] = exponent == -2
            else:
                other[i] = e.exact
    return ListColumns(published.date, order, rating, games, status, exact_h, cents, other)


@dataclass(frozen=True)
class Run:
    """What an engine is given: the checked input, restricted to the lists to compute."""

    rules: RuleSet
    players: list[Player]
    events: list[Event]  # in the order given (the engines rate them by end date, start date, id)
    games: Sequence[Game]  # GameColumns, or Game objects
    standings: Sequence[Standing]
    dates: list[date]  # the list dates to compute
    start: date  # the day the first period starts (the previous list date)
    states: dict[str, PlayerState] | None  # every player's state at ``start``; None: his initial state
    explain: frozenset[str] | bool
    progress: Callable[[int, int], None] | None = None
    #: the changes as objects exactly as the reference writes them (notes, per-game lines, each number's text)
    full_changes: bool = False
    #: every player's state after each list (``History.list_states``), not only after the last
    list_states: bool = False
