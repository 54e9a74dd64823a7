"""Entrants from the registry (注册库): registered players as an event's entrants, by federation ID.

The desk's "add from the registry" and ``qiyuan event add-players EVENT --registry CN000001,…``
both turn registered players into entrants here: name, sex, grade, association, registry id,
ID number (for the report only), birth date, and the rating of the newest current list.
"""

from __future__ import annotations

from qiyuan.errors import NotFound, problem
from qiyuan.office import sheets
from qiyuan.office.federation.models import Player
from qiyuan.office.ratings.models import Edition
from qiyuan.tournament.eventfile import trf_date
from qiyuan.tournament.model import Entrant


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
        nationality="" if player.nationality in ("CHN", "") else player.nationality,  # only a foreigner's is noted
    )


def latest_ratings(players) -> dict[int, int]:
    """Per player (pk): the rating on the newest current edition of any list (unrated: absent)."""
    pks = [p.pk for p in players]
    if not pks:
        return {}
    # (player pk order of the old query's ties: the newest date's highest number first, any list)
    return sheets.newest_ratings(Edition.objects.order_by("-list_date", "-number", "pk"), pks)


def latest_rating(player) -> int | None:
    """The player's rating on the newest current edition of any list (None if unrated)."""
    return latest_ratings([player]).get(player.pk)


def registry_entrants(ids: list[str]) -> list[tuple[int, Entrant]]:
    """``(place in the list, entrant)`` for each federation ID, in the order given; every ID the
    registry does not hold named at once (``NotFound``)."""
    wanted = [i.strip().upper() for i in ids if i.strip()]
    players = {p.federation_id: p for p in
               Player.objects.registered().select_related("association").filter(federation_id__in=wanted)}
    missing = [i for i in wanted if i not in players]
    if missing:
        raise NotFound([problem("the registry has no player {id}", id=i, column=k + 1)
                        for k, i in enumerate(wanted) if i in missing])
    ratings = latest_ratings(list(players.values()))
    return [(k, entrant_from_registry(players[i], ratings.get(players[i].pk))) for k, i in enumerate(wanted, 1)]
