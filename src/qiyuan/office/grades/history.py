"""A player's grades over time: the grade he held on a given day, and his grade history.

The grade held on day D is that of his latest grant dated on or before D (by
date, then by the order recorded) — a later demotion included. A player whose
record has a grade but no dated grant at all (a registration list's ``dan``
column) holds that grade, undated and of unknown body, until his first grant.
The rating rules read exactly this: the grade held on the relevant date and the
body that granted it (BJSH §13(五): a 中国棋院 dan).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from qiyuan.grading.proposal import Holding
from qiyuan.office.federation.models import DanGrant, Player


def _holding(g: DanGrant) -> Holding:
    return Holding(g.grade, g.granted_on, g.granted_by, g.event.code if g.event_id and g.event else "")


def held_on(grants: Iterable[DanGrant], day: date, *, registry_dan: str = "", exclude_event: int | None = None
            ) -> Holding | None:
    """The grade held on ``day`` from one player's grants (any order); ``registry_dan`` when he has none at
    all. ``exclude_event``: leave that event's grants out (what he held before it granted him one)."""
    grants = list(grants)
    if not grants:
        return Holding(registry_dan) if registry_dan else None
    grants = [g for g in grants if exclude_event is None or g.event_id != exclude_event]
    dated = sorted((g for g in grants if g.granted_on <= day), key=lambda g: (g.granted_on, g.pk or 0))
    return _holding(dated[-1]) if dated else None


def grade_on(player: Player, day: date) -> Holding | None:
    """The grade ``player`` held on ``day`` and its body (see the module's docstring)."""
    return held_on(player.dan_grants.select_related("event"), day, registry_dan=player.dan or "")


def grants_by_player(player_pks: Iterable[int]) -> dict[int, list[DanGrant]]:
    """Every grant of the given players, in one query."""
    out: dict[int, list[DanGrant]] = {}
    for g in DanGrant.objects.filter(player_id__in=list(player_pks)).select_related("event").order_by("granted_on", "id"):
        out.setdefault(g.player_id, []).append(g)
    return out


def later_grants(grants: Iterable[DanGrant], day: date) -> list[Holding]:
    """Grants dated after ``day`` that are not demotions (a new grant must not make them a lowering)."""
    return [_holding(g) for g in sorted(grants, key=lambda g: (g.granted_on, g.pk or 0))
            if g.granted_on > day and not g.demotion_reason]


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One line of a player's grade history (the player page, ``dan history``)."""

    grade: str
    granted_on: date
    body: str
    event_code: str
    event_name: str
    event_name_en: str
    clause: str
    serial: str
    demotion_reason: str


def grade_history(player: Player) -> list[HistoryRow]:
    """His grants, oldest first, with the event each was earned at."""
    return [HistoryRow(g.grade, g.granted_on, g.granted_by, g.event.code if g.event else "",
                       g.event.name if g.event else "", (g.event.name_en if g.event else "") or "", g.clause, g.serial,
                       g.demotion_reason)
            for g in player.dan_grants.select_related("event").order_by("granted_on", "id")]
