"""A player's state as JSON (状态): exact values as text, so a period — in the office, in ``verify``, or in an
edition bundle checked by anyone — starts from precisely the state that was published.  Pure (no Django)."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from fractions import Fraction

from qiyuan.rating.model import Gender
from qiyuan.rating.state import NewcomerRecord, PlayerState


def _iso(d: date | None) -> str | None:
    return d.isoformat() if d is not None else None


def _day(s: str | None) -> date | None:
    return date.fromisoformat(s) if s else None


def state_to_json(s: PlayerState) -> dict:
    """A ``PlayerState`` as JSON-safe data (exact values as text); the player id is the key elsewhere."""
    return {
        "g": s.gender.value if s.gender is not None else None,
        "r": s.rating,
        "x": str(s.exact) if s.exact is not None else None,
        "n": s.games,
        "l": s.latched,
        "s": s.status,
        "rs": _iso(s.rated_since),
        "is": _iso(s.inactive_since),
        "a": [[d.isoformat(), n] for d, n in s.activity],
        "nc": [[r.event_id, r.end_date.isoformat(), r.games, str(r.ru) if r.ru is not None else None,
                str(r.delta) if r.delta is not None else None] for r in s.newcomer],
    }


#: a string as canonical JSON text (non-ASCII kept, as the office's canonical encoder writes it)
_string = json.encoder.encode_basestring


def _opt(text: str | None) -> str:
    return "null" if text is None else _string(text)


def activity_item(day: str, games: int) -> str:
    """One activity entry of a state's text (``state_text``'s ``activity``): ``["2024-03-01",5]``."""
    return f'["{day}",{int(games)}]'


def newcomer_item(event_id: str, end: str, games: int, ru: str | None, delta: str | None) -> str:
    """One counted event of a state's text (``state_text``'s ``newcomer``)."""
    return f'[{_string(event_id)},"{end}",{int(games)},{_opt(ru)},{_opt(delta)}]'


def state_text(gender: str | None, rating: int | None, exact: str | None, games: int, latched: bool, status: str,
               rated_since: str | None, inactive_since: str | None, activity: str, newcomer: str) -> str:
    """The canonical text of ``state_to_json`` (keys sorted, compact, non-ASCII kept), written directly from the
    fields' text forms (dates ISO, exact values as text; ``activity`` and ``newcomer``: their items joined by
    commas, ``activity_item`` and ``newcomer_item``): the fast engine's states after each list, about a million
    of them in a 2,000,000-game history, are written without an object each (property-tested against the
    canonical encoder of ``state_to_json``)."""
    return (f'{{"a":[{activity}],"g":{_opt(gender)},"is":{_opt(inactive_since)},'
            f'"l":{"true" if latched else "false"},"n":{int(games)},"nc":[{newcomer}],'
            f'"r":{"null" if rating is None else int(rating)},"rs":{_opt(rated_since)},"s":{_string(status)},'
            f'"x":{_opt(exact)}}}')


def canonical_state_text(s: PlayerState) -> str:
    """The canonical text of ``state_to_json(s)`` (``state_text`` of its fields)."""
    return state_text(s.gender.value if s.gender is not None else None, s.rating,
                      str(s.exact) if s.exact is not None else None, s.games, s.latched, s.status, _iso(s.rated_since),
                      _iso(s.inactive_since), ",".join(activity_item(d.isoformat(), n) for d, n in s.activity),
                      ",".join(newcomer_item(r.event_id, r.end_date.isoformat(), r.games,
                                             str(r.ru) if r.ru is not None else None,
                                             str(r.delta) if r.delta is not None else None) for r in s.newcomer))


def state_from_json(player_id: str, d: dict) -> PlayerState:
    return PlayerState(
        player_id=player_id,
        gender=Gender(d["g"]) if d.get("g") else None,
        rating=d["r"],
        exact=Decimal(d["x"]) if d.get("x") is not None else None,
        games=d["n"],
        latched=d["l"],
        status=d["s"],
        rated_since=_day(d.get("rs")),
        inactive_since=_day(d.get("is")),
        activity=tuple((date.fromisoformat(a), n) for a, n in d.get("a", ())),
        newcomer=tuple(
            NewcomerRecord(eid, date.fromisoformat(end), games, Fraction(ru) if ru is not None else None,
                           Decimal(delta) if delta is not None else None)
            for eid, end, games, ru, delta in d.get("nc", ())
        ),
    )


