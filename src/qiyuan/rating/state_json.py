"""A player's state as JSON (状态): exact values as text, so a period — in the office, in ``verify``, or in an
edition bundle checked by anyone — starts from precisely the state that was published.  Pure (no Django)."""

from __future__ import annotations

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


