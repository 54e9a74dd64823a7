"""What the desk's event views turn into the arbiter's use cases: typed result keys, a
registered player as an entrant.  The use cases themselves are ``qiyuan.tournament.arbiter``,
the event's storage ``qiyuan.office.events.live.LiveEventStore``; nothing here checks a rule."""

from __future__ import annotations

from qiyuan.errors import InputError, Problem
from qiyuan.tournament import syntax
from qiyuan.tournament.eventfile import trf_date
from qiyuan.tournament.model import Entrant

def parse_result_key(text: str) -> str | None:
    """A typed result key (``qiyuan.tournament.syntax.parse_result_key``: ``1``, ``0``, ``=``,
    ``+``, ``-``, ``--``, a full result, or ``x`` to clear: ``""``), None if blank."""
    result = syntax.parse_result_key(text)
    if isinstance(result, Problem):
        raise InputError(result)
    return result


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
        id_type=player.id_type,
        birth=trf_date(player.birth_date) if player.birth_date else "",
    )


def latest_rating(player) -> int | None:
    """The player's rating on the newest current edition of any list (None if unrated)."""
    from qiyuan.office.ratings.models import EditionEntry

    return (
        EditionEntry.objects.filter(player=player, rating__isnull=False)
        .order_by("-edition__list_date", "-edition__number")
        .values_list("rating", flat=True)
        .first()
    )
