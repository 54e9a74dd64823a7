"""Between the office's records and the rating engine: players, events, games and states as plain data.

The engine names players and events by strings: a player by his federation
ID (``CN000123``), an event by its code. ``PlayerState`` is stored as compact
JSON on each edition entry, exactly (decimals and fractions as text), so the
next period — and ``verify`` — start from precisely what was published.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

import numpy as np

from qiyuan.office.canonical import EventRows, event_rows
from qiyuan.office.errors import OfficeError, problem
from qiyuan.office.federation.models import Player as PlayerRow
from qiyuan.office.grades.history import grade_on
from qiyuan.office.ratings.models import ListMember
from qiyuan.rating.columnar import CODE_OF_RESULT, GameColumns
from qiyuan.rating.model import Event, EventFormat, Gender, Player, Result, Standing
from qiyuan.rating.state import NewcomerRecord, PlayerState
from qiyuan.rating.state_json import state_from_json, state_to_json  # noqa: F401  (the office reads them here)

#: a stored result → its code in ``GameColumns.result``
_RESULT_CODES = {r.value: CODE_OF_RESULT[r] for r in Result}


@dataclass(frozen=True, slots=True)
class MemberFacts:
    """What a list member starts from, frozen when he joins the list (``ratings.ListMember``)."""

    gender: str
    dan: str
    rating: Decimal | None
    games: int
    k_latched: bool
    registered_on: date | None
    reference_rating: Decimal | None
    dan_granted_by: str = ""  # the body that granted ``dan`` (BJSH §13(五)), "" unknown


def engine_player(federation_id: str, m) -> Player:
    """A list member (``ratings.ListMember``, frozen facts) as the engine's ``Player``: the grade he held when
    he joined the list (``member_from_registry``) and the body that granted it (BJSH §13(五))."""
    return Player(
        id=federation_id,
        name=federation_id,
        gender=Gender(m.gender) if m.gender in ("M", "F") else None,
        dan=m.dan or None,
        rating=m.rating,
        games=m.games,
        k_latched=m.k_latched,
        registered_on=m.registered_on,
        reference_rating=m.reference_rating,
        dan_granted_by=m.dan_granted_by or None,  # issue 18 (stored facts): the engine reads the granting body
    )


def member_from_registry(rating_list, p, *, on: date, rating=None, games=0, k_latched=False):
    """A new ``ListMember`` (unsaved) from a registry player's facts: the grade he held on ``on`` (the start
    of the event that brings him to the list) and the body that granted it — never a grade granted later."""
    held = grade_on(p, on)
    return ListMember(rating_list=rating_list, player=p, gender=p.gender or "", dan=held.grade if held else "",
                      dan_granted_by=held.body if held else "", rating=rating, games=games, k_latched=k_latched,
                      registered_on=p.registered_on, reference_rating=p.reference_rating)


def engine_event(e) -> Event:
    """An office event (``events.Event``) as the engine's ``Event``."""
    return Event(id=e.code, name=e.name, start_date=e.start_date, end_date=e.end_date, format=EventFormat(e.format),
                 international=e.international, days=e.days,
                 national=e.national)  # issue 18 (stored facts): the national team championship's per-board rule


def engine_games(events: Iterable, known: Mapping[int, str] | None = None, rows: EventRows | None = None
                 ) -> tuple[GameColumns, list[Standing], set[int]]:
    """The games and standings of the given office events, and the primary keys of every player in them.
    The games come in columns (``GameColumns``, events indexed in the order given, players by primary key),
    in the rows' order: 2,000,000 of them are handed to the engine without an object each. ``known`` (player pk
    → federation id, e.g. the list's members) saves reading those players again; ``rows``: the events' stored
    rows when read already (``canonical.event_rows``, shared with the inputs digest)."""
    code_of = {e.pk: e.code for e in events}
    rows = rows or event_rows(list(code_of))
    n = len(rows.games)
    _, ev, rnd, p1, p2, res, _, board = zip(*rows.games) if n else ((),) * 8
    played = set(p1)
    played.update(p2)
    pks = played | {s[1] for s in rows.standings}
    missing = pks if known is None else pks.difference(known)
    fid = dict(known or {})
    if missing:
        fid.update(PlayerRow.objects.filter(pk__in=missing).values_list("pk", "federation_id")
                   if len(missing) < 30000 else PlayerRow.objects.values_list("pk", "federation_id"))
    unknown = set(res).difference(_RESULT_CODES)
    if unknown:  # (the database was edited by hand: a difference for verify to name, never an internal error)
        raise OfficeError(problem("event {event}: a stored game has the result {result}, which is not a game result",
                                  event=min(code_of[e] for e, r in zip(ev, res) if r in unknown),
                                  result=repr(min(map(str, unknown)))))
    players = sorted(played)
    event_at = {pk: i for i, pk in enumerate(code_of)}
    player_at = {pk: i for i, pk in enumerate(players)}
    # issue 18 (stored facts): each game's board (台次), as `qiyuan rate` reads it from games.csv (0: not known)
    boards = None if all(b is None for b in board) else np.fromiter((b or 0 for b in board), np.int32, n)
    games = GameColumns(
        tuple(code_of.values()), tuple(fid[pk] for pk in players),
        np.fromiter(map(event_at.__getitem__, ev), np.int32, n), np.fromiter(rnd, np.int32, n),
        np.fromiter(map(player_at.__getitem__, p1), np.int32, n), np.fromiter(map(player_at.__getitem__, p2),
                                                                              np.int32, n),
        np.fromiter(map(_RESULT_CODES.__getitem__, res), np.int8, n), boards)
    standings = [Standing(code_of[ev], fid[p], rank) for ev, p, _, _, rank in rows.standings if rank is not None]
    return games, standings, pks
