"""A player's registration and its changes (棋手注册): register, correct, status, rename, move.

Grants of a dan or kyu grade are the grades use cases' (``qiyuan.office.grades``); a player registered
with his grade and its grant date gets the grant through the same checks (``grades.store``).

Every change writes an audit entry (``qiyuan.office.audit``); every check lists
all its problems at once (``RegistryError.problems``) and stores nothing when
one fails.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction

from qiyuan.errors import Problem, problem
from qiyuan.office.audit.models import record
from qiyuan.office.db import REGISTRY, use_case
from qiyuan.office.errors import RegistryError
from qiyuan.office.federation.models import (
    DAN_GRADES,
    Association,
    AssociationChange,
    Club,
    NameChange,
    Player,
)
from qiyuan.office.grades.policies import policy_in_force
from qiyuan.office.grades.store import check_grant, record_grant
from qiyuan.office.registry.bodies import resolve_association, resolve_club
from qiyuan.people import idnumber


def _today(today: date | None) -> date:
    return today or date.today()


def _check_identity(
    *,
    id_type: str,
    id_number: str,
    birth_date: date | None,
    gender: str | None,
    today: date,
    exclude_pk: int | None,
    problems: list[Problem],
) -> str:
    """Validate the document against the record and against the registry; return it normalised."""
    if id_type not in Player.IdType.values:
        problems.append(problem("unknown ID type {id_type!r} ({types})", id_type=id_type, types="resident, passport, other"))
        return id_number
    number = idnumber.normalize_id_number(id_number)
    if not number:
        return ""
    found = (idnumber.resident_id_problems(number, birth_date=birth_date, gender=gender, today=today)
             if id_type == "resident" else idnumber.document_problems(id_type, number))
    problems.extend(problem("ID number: {problem}", problem=p) for p in found)
    holder = Player.objects.filter(id_number=number).exclude(pk=exclude_pk).first()
    if holder is not None:
        problems.append(problem("ID number already registered to {id} {name}", id=holder.federation_id,
                                name=holder.name))
    return number


@use_case(REGISTRY)
def register_player(
    *,
    name: str,
    gender: str | None = None,
    birth_date: date | None = None,
    id_type: str = "resident",
    id_number: str = "",
    name_latin: str = "",
    nationality: str = "CHN",
    association: Association | str | None = None,
    club: Club | str | None = None,
    registered_on: date | None = None,
    status: str = "active",
    dan: str = "",
    dan_granted_on: date | None = None,
    dan_granted_by: str = "",
    reference_rating: Decimal | str | None = None,
    reference_rating_source: str = "",
    actor: object = "system",
    today: date | None = None,
) -> Player:
    """Register a player (注册), checking everything at once.

    The resident ID must be valid and agree with the birth date and gender
    given; when either is missing it is taken from the ID. ``registered_on``
    defaults to today. A dan given with ``dan_granted_on``/``dan_granted_by``
    is recorded as a ``DanGrant`` (checked like every grant: body, cap).
    """
    today = _today(today)
    problems: list[Problem] = []
    name = (name or "").strip()
    if not name:
        problems.append(problem("name is empty"))
    number = idnumber.normalize_id_number(id_number)
    if id_type == "resident" and number and not idnumber.validate_resident_id(number):
        facts = idnumber.parse_resident_id(number)
        birth_date = birth_date or facts.birth_date
        gender = gender or facts.gender
    if gender and gender not in Player.Gender.values:
        problems.append(problem("gender {gender!r} is not M or F", gender=gender))
    elif not gender and not (id_type == "resident" and number):
        problems.append(problem("gender missing (and no resident ID to take it from)"))
    # (a resident ID given but invalid: its own problem is listed; once valid, the gender comes from it)
    if birth_date is not None and birth_date > today:
        problems.append(problem("birth date {day} is in the future", day=birth_date.isoformat()))
    number = _check_identity(
        id_type=id_type,
        id_number=number,
        birth_date=birth_date,
        gender=gender if gender in Player.Gender.values else None,
        today=today,
        exclude_pk=None,
        problems=problems,
    )
    if status not in Player.Status.values:
        problems.append(_bad_status(status))
    if dan and dan not in DAN_GRADES:
        problems.append(problem("dan {dan!r} is not a grade (9d…1d, 1k…10k)", dan=dan))
    if dan_granted_on and not dan:
        problems.append(problem("dan grant date given without a dan"))
    if dan in DAN_GRADES and dan_granted_on:  # the grant passes the checks every grant passes (cap, body)
        problems.extend(check_grant(Player(name=name), dan, granted_on=dan_granted_on, granted_by=dan_granted_by,
                                    policy=policy_in_force().policy))
    if len(nationality or "") != 3 or not nationality.isalpha():
        problems.append(problem("nationality {nationality!r} is not a 3-letter code", nationality=nationality))
    rating = None
    if reference_rating not in (None, ""):
        try:
            rating = Decimal(str(reference_rating))
        except InvalidOperation:
            problems.append(problem("reference rating {rating!r} is not a number", rating=reference_rating))
        if not reference_rating_source:
            problems.append(problem("reference rating given without its source (e.g. RIF)"))
    assoc = resolve_association(association, problems)
    club_obj = resolve_club(club, assoc, problems)
    if problems:
        raise RegistryError(problems)
    player = Player(
        name=name,
        name_latin=name_latin.strip(),
        gender=gender,
        birth_date=birth_date,
        id_type=id_type,
        id_number=number,
        nationality=nationality.upper(),
        association=assoc or (club_obj.association if club_obj else None),
        club=club_obj,
        registered_on=registered_on or today,
        status=status,
        dan=dan,
        reference_rating=rating,
        reference_rating_source=reference_rating_source.strip(),
    )
    insert_with_new_federation_id(player)
    if dan and dan_granted_on:
        player.dan = ""  # the grade comes from the grant recorded now
        grant = record_grant(player, dan, granted_on=dan_granted_on, granted_by=dan_granted_by)
        record(actor, "player.dan", player, grade=grant.grade, granted_on=grant.granted_on,
               granted_by=grant.granted_by)  # (every grade stands in the audit log: ``office verify`` reads it)
    record(actor, "player.register", player, federation_id=player.federation_id, name=name)
    return player


def insert_with_new_federation_id(player: Player, attempts: int = 5) -> None:
    """Insert a new player with the next free federation ID, retrying if a concurrent registration took it."""
    for attempt in range(attempts):
        player.federation_id = ""
        try:
            with transaction.atomic():
                player.save(force_insert=True)
            return
        except IntegrityError:
            taken = Player.objects.filter(federation_id=player.federation_id).exists()
            if not taken or attempt == attempts - 1:
                raise


@use_case(REGISTRY)
def update_identity(
    player: Player,
    *,
    actor: object,
    birth_date: date | None = None,
    gender: str | None = None,
    id_type: str | None = None,
    id_number: str | None = None,
    today: date | None = None,
) -> Player:
    """Correct a player's birth date, gender or document, re-checking the ID against the record."""
    player.refresh_from_db()  # under the registry's lock: check the record as it is now
    problems: list[Problem] = []
    new_birth = birth_date if birth_date is not None else player.birth_date
    new_gender = gender or player.gender
    new_type = id_type or player.id_type
    new_number = player.id_number if id_number is None else id_number
    if new_gender not in Player.Gender.values:
        problems.append(problem("gender {gender!r} is not M or F", gender=new_gender))
    number = _check_identity(
        id_type=new_type, id_number=new_number, birth_date=new_birth, gender=new_gender,
        today=_today(today), exclude_pk=player.pk, problems=problems,
    )
    if problems:
        raise RegistryError(problems)
    changed = [
        name
        for name, old, new in (
            ("birth_date", player.birth_date, new_birth),
            ("gender", player.gender, new_gender),
            ("id_type", player.id_type, new_type),
            ("id_number", player.id_number, number),
        )
        if old != new
    ]
    player.birth_date, player.gender, player.id_type, player.id_number = new_birth, new_gender, new_type, number
    player.save()
    record(actor, "player.identity", player, changed=changed)
    return player


#: a registration status in words (the registry keeps its code)
STATUS_WORDS = {"active": problem("registered (active)"), "suspended": problem("suspended"), "retired": problem("retired")}


def _bad_status(status: str) -> Problem:
    return problem("status {status!r} is not one of {known}", status=status, known=", ".join(Player.Status.values))


@use_case(REGISTRY)
def set_status(player: Player, status: str, *, actor: object, reason: str = "") -> Player:
    """Change a player's registration status (active, suspended, retired), with the reason audited."""
    player.refresh_from_db()  # under the registry's lock: check the record as it is now
    if status not in Player.Status.values:
        raise RegistryError([_bad_status(status)])
    if status == player.status:
        raise RegistryError([problem("{id}'s status is {status} already", id=player.federation_id,
                                     status=STATUS_WORDS.get(status, status))])
    old, player.status = player.status, status
    player.save()
    record(actor, "player.status", player, old=old, new=status, reason=reason)
    return player


@use_case(REGISTRY)
def rename_player(
    player: Player,
    new_name: str,
    *,
    actor: object,
    changed_on: date | None = None,
    reason: str = "",
    name_latin: str | None = None,
) -> NameChange:
    """Change a player's name (改名), keeping the old one as history."""
    player.refresh_from_db()  # under the registry's lock: check the record as it is now
    new_name = (new_name or "").strip()
    if not new_name:
        raise RegistryError([problem("new name is empty")])
    if new_name == player.name and (name_latin is None or name_latin == player.name_latin):
        raise RegistryError([problem("{id} is already named {name}", id=player.federation_id, name=new_name)])
    change = NameChange.objects.create(
        player=player, old_name=player.name, new_name=new_name, changed_on=_today(changed_on), reason=reason
    )
    player.name = new_name
    if name_latin is not None:
        player.name_latin = name_latin.strip()
    player.save()
    record(actor, "player.rename", player, old_name=change.old_name, new_name=new_name, reason=reason)
    return change


@use_case(REGISTRY)
def change_association(
    player: Player,
    new: Association | str | None,
    *,
    actor: object,
    changed_on: date | None = None,
    reason: str = "",
    club: Club | str | None = None,
) -> AssociationChange:
    """Move a player to another association (转会), keeping the old one as history."""
    player.refresh_from_db()  # under the registry's lock: check the record as it is now
    problems: list[Problem] = []
    new_assoc = resolve_association(new, problems)
    club_obj = resolve_club(club, new_assoc, problems)
    if not problems and new_assoc == player.association:
        raise RegistryError([problem("{id} already belongs to {association}", id=player.federation_id,
                                     association=str(new_assoc))])
    if problems:
        raise RegistryError(problems)
    change = AssociationChange.objects.create(
        player=player, old=player.association, new=new_assoc, changed_on=_today(changed_on), reason=reason
    )
    player.association = new_assoc
    player.club = club_obj
    player.save()
    record(
        actor, "player.association", player,
        old=change.old.code if change.old else None, new=new_assoc.code if new_assoc else None, reason=reason,
    )
    return change
