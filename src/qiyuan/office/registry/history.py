"""A player's registry history (CGA Art. 11(四)): former names and associations, dan grants.

The report checks ask for the name and association a player had on an
event's date, and tell a renamed player from a different one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from qiyuan.office.federation.models import Association, Player


def names_known(player: Player) -> set[str]:
    """Every name the player has been registered under (current and former)."""
    names = {player.name}
    for old, new in player.name_changes.values_list("old_name", "new_name"):
        names.update((old, new))
    return names


def name_on(player: Player, day: date) -> str:
    """The player's registered name on ``day`` (for a report of an event on that day)."""
    later = player.name_changes.filter(changed_on__gt=day).order_by("changed_on", "id").first()
    return later.old_name if later else player.name


def association_on(player: Player, day: date) -> Association | None:
    """The player's association on ``day``."""
    later = player.association_changes.filter(changed_on__gt=day).order_by("changed_on", "id").first()
    return later.old if later else player.association


@dataclass(frozen=True, slots=True)
class HistoryItem:
    """One line of a player's registry history (shown in the report checks, CGA Art. 11(四))."""

    on: date
    kind: str  # "name", "association", "dan"
    text: str


def player_history(player: Player) -> list[HistoryItem]:
    """Name and association changes and dan grants, oldest first."""
    items = [
        HistoryItem(c.changed_on, "name", f"{c.old_name} → {c.new_name}" + (f" ({c.reason})" if c.reason else ""))
        for c in player.name_changes.all()
    ]
    for c in player.association_changes.select_related("old", "new"):
        old = c.old.code if c.old else "—"
        new = c.new.code if c.new else "—"
        items.append(HistoryItem(c.changed_on, "association", f"{old} → {new}" + (f" ({c.reason})" if c.reason else "")))
    items += [HistoryItem(g.granted_on, "dan", f"{g.grade} ({g.granted_by})") for g in player.dan_grants.all()]
    return sorted(items, key=lambda item: (item.on, item.kind))
