"""Associations (棋协), clubs (俱乐部) and arbiters (裁判员): adding them, and finding them by code or name."""

from __future__ import annotations

from qiyuan.errors import Problem, problem
from qiyuan.office.audit.models import record
from qiyuan.office.db import REGISTRY, use_case
from qiyuan.office.errors import RegistryError
from qiyuan.office.federation.models import Arbiter, Association, Club, Player


def resolve_association(ref: Association | str | None, problems: list[Problem]) -> Association | None:
    """An association given as itself or by its code; unknown codes become a problem."""
    if ref is None or ref == "" or isinstance(ref, Association):
        return ref or None
    found = Association.objects.filter(code=str(ref).strip()).first()
    if found is None:
        problems.append(problem("unknown association {ref!r}", ref=ref))
    return found


def resolve_club(ref: Club | str | None, association: Association | None, problems: list[Problem]) -> Club | None:
    """A club given as itself or by name (within the association when one is given)."""
    if ref is None or ref == "":
        return None
    club = ref
    if not isinstance(ref, Club):
        clubs = Club.objects.filter(name=str(ref).strip()).select_related("association")
        club = (clubs.filter(association=association).first() if association else None) or clubs.first()
        if club is None:
            problems.append(problem("unknown club {ref!r}", ref=ref))
            return None
    if association is not None and club.association_id != association.pk:
        problems.append(problem("club {club!r} belongs to association {association}, not {given}", club=club.name,
                                association=club.association.code, given=association.code))
    return club



@use_case(REGISTRY)
def add_association(
    code: str, name: str, *, actor: object, name_en: str = "", parent: Association | str | None = None
) -> Association:
    """Add an association (棋协); the code must be new."""
    problems: list[Problem] = []
    code, name = (code or "").strip(), (name or "").strip()
    if not code:
        problems.append(problem("association code is empty"))
    elif Association.objects.filter(code=code).exists():
        problems.append(problem("association {association} already exists", association=code))
    if not name:
        problems.append(problem("association name is empty"))
    parent_obj = resolve_association(parent, problems)
    if problems:
        raise RegistryError(problems)
    assoc = Association.objects.create(code=code, name=name, name_en=name_en.strip(), parent=parent_obj)
    record(actor, "association.add", assoc, code=code, name=name)
    return assoc


@use_case(REGISTRY)
def add_arbiter(
    name: str,
    level: str,
    *,
    actor: object,
    recognised_national: bool = False,
    association: Association | str | None = None,
    player: Player | str | None = None,
) -> Arbiter:
    """Register an arbiter (裁判员) with his grade; ``recognised_national`` is the CGA Gomoku
    branch's recognition for national events (CGA Art. 5(一)).  Reports name arbiters by
    name, so a name must be new."""
    problems: list[Problem] = []
    name = (name or "").strip()
    if not name:
        problems.append(problem("arbiter name is empty"))
    elif Arbiter.objects.filter(name=name).exists():
        problems.append(problem("arbiter {name!r} is already registered (reports name arbiters by name)", name=name))
    if any(c in name for c in "、,，"):
        problems.append(problem("arbiter name {name!r} contains a list separator ({separators})", name=name,
                                separators="、 ,"))
    if level not in Arbiter.Level.values:
        problems.append(problem("unknown arbiter level {level!r}: choose one of {levels}", level=level,
                                levels=", ".join(Arbiter.Level.values)))
    assoc = resolve_association(association, problems)
    person = None
    if isinstance(player, Player):
        person = player
    elif player:
        person = Player.objects.filter(federation_id=player).first()
        if person is None:
            problems.append(problem("no registered player {player}", player=player))
    if problems:
        raise RegistryError(problems)
    arbiter = Arbiter.objects.create(name=name, level=level, recognised_national=recognised_national,
                                     association=assoc, player=person)
    record(actor, "arbiter.add", arbiter, name=name, level=level, recognised_national=recognised_national)
    return arbiter
