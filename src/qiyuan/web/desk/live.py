"""Running an event from the desk (临场编排): load the event's TRF text, apply one
arbiter action with the tournament core, store the new text, keep the old one.

All the rules live in ``qiyuan.tournament`` (``eventfile`` for the file
operations, ``swiss``/``berger`` for the pairings, ``standings``); this module
only loads, calls and saves, one transaction per action, with an audit entry.
"""

from __future__ import annotations

from django.db import transaction

from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.office.audit.models import record
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament.model import Entrant, Tournament

from .models import LiveEvent, LiveEventVersion


class ActionError(ValueError):
    """An arbiter action the rules or the event's state refuse; the message says why."""


def load(live: LiveEvent) -> Tournament:
    """The event as the tournament core sees it."""
    return read_trf(live.trf_text, filename=f"{live.code}.trf")


def save(live: LiveEvent, t: Tournament, user, action: str, **detail) -> None:
    """Store the new state; the previous text becomes a version (the undo trail)."""
    for e in t.entrants:
        e.points = None  # the writer puts the score the results give
    try:
        text = write_trf(t)
    except ValueError as exc:  # a field that does not fit its TRF columns
        raise ActionError(str(exc)) from None
    LiveEventVersion.objects.create(live_event=live, action=action, trf_text=live.trf_text, user=user)
    live.trf_text = text
    live.save(update_fields=["trf_text", "updated_at"])
    record(user, f"event.{action}", live, code=live.code, **detail)


def run(live: LiveEvent, user, action: str, operation, **detail):
    """Apply ``operation(t)`` to the event under a row lock; ``EventError`` and the
    pairing engine's errors become ``ActionError`` and nothing is stored."""
    with transaction.atomic():
        locked = LiveEvent.objects.select_for_update().get(pk=live.pk)
        t = load(locked)
        try:
            outcome = operation(t)
        except _refusals() as exc:
            raise ActionError(str(exc)) from None
        save(locked, t, user, action, **detail)
    live.trf_text = locked.trf_text
    return outcome


def _refusals() -> tuple[type[Exception], ...]:
    from qiyuan.tournament.swiss import PairingError

    return (ev.EventError, PairingError)


def create(*, code: str, name: str, fmt: str, rounds: int | None, user, organizer: str = "", host: str = "",
           organiser_level: str = "", **fields) -> LiveEvent:
    """Start an event; its creator is its first arbiter. ``fields`` go to ``eventfile.new_event``
    (dates, city, time control, chief arbiter, arbiters); the organiser stays with the event."""
    t = ev.new_event(name, fmt=fmt, rounds=rounds, **fields)
    with transaction.atomic():
        live = LiveEvent.objects.create(
            code=code, name=name, system=fmt, trf_text=write_trf(t), created_by=user,
            organizer=organizer, host=host, organiser_level=organiser_level,
        )
        live.arbiters.add(user)
        record(user, "event.create", live, code=code, format=fmt, rounds=rounds)
    return live


def entrant_from_registry(player, rating: int | None) -> Entrant:
    """An entrant from a registered player (the ID number travels to the report only)."""
    return Entrant(
        0,
        player.name,
        sex={"M": "m", "F": "w"}.get(player.gender, ""),
        title=player.dan or "",
        rating=rating,
        federation=player.association.name if player.association_id else "",
        player_id=player.federation_id,
        id_number=player.id_number,
        birth=player.birth_date.isoformat() if player.birth_date else "",
    )


#: Fast result keys (one keystroke per board) → results as the first-named player sees them.
RESULT_KEYS = {
    "1": "1-0", "0": "0-1", "=": "½-½", "5": "½-½", "½": "½-½", "+": "+-", "-": "-+", "--": "--",
    "1-0": "1-0", "0-1": "0-1", "½-½": "½-½", "=-=": "½-½", "0.5-0.5": "½-½", "+-": "+-", "-+": "-+",
}


def parse_result_key(text: str) -> str | None:
    """A typed result (``1``, ``0``, ``=``, ``+``, ``-``, ``--`` or a full result), None if blank."""
    key = text.strip().replace(" ", "")
    if not key:
        return None
    if key not in RESULT_KEYS:
        raise ActionError(f"unknown result {text!r}: type 1, 0, =, +, - or --")
    return RESULT_KEYS[key]


def latest_rating(player) -> int | None:
    """The player's rating on the newest current edition of any list (None if unrated)."""
    from qiyuan.office.ratings.models import EditionEntry

    e = (
        EditionEntry.objects.filter(player=player, rating__isnull=False)
        .order_by("-edition__list_date", "-edition__number")
        .values_list("rating", flat=True)
        .first()
    )
    return e
