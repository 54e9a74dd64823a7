"""Use cases of the registry (棋手注册): register (one or a list), correct, rename, move, grant a dan.

Every change writes an audit entry (``qiyuan.office.audit``); every check lists
all its problems at once (``RegistryError.problems``) and stores nothing when
one fails. History, search and merge live in their own modules and are
re-exported here, so callers import every registry use case from this one.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction

from qiyuan.office.audit.models import record
from qiyuan.office.federation import idnumber
from qiyuan.office.federation.errors import RegistryError
from qiyuan.office.federation.history import (  # noqa: F401  (re-exported)
    HistoryItem,
    association_on,
    name_on,
    names_known,
    player_history,
)
from qiyuan.office.federation.merge import MergeResult, merge_players  # noqa: F401  (re-exported)
from qiyuan.office.federation.models import (
    DAN_GRADES,
    Arbiter,
    Association,
    AssociationChange,
    Club,
    DanGrant,
    NameChange,
    Player,
)
from qiyuan.office.federation.search import find_player, search_players  # noqa: F401  (re-exported)


def _today(today: date | None) -> date:
    return today or date.today()


def resolve_association(ref: Association | str | None, problems: list[str]) -> Association | None:
    """An association given as itself or by its code; unknown codes become a problem."""
    if ref is None or ref == "" or isinstance(ref, Association):
        return ref or None
    found = Association.objects.filter(code=str(ref).strip()).first()
    if found is None:
        problems.append(f"unknown association {ref!r}")
    return found


def resolve_club(ref: Club | str | None, association: Association | None, problems: list[str]) -> Club | None:
    """A club given as itself or by name (within the association when one is given)."""
    if ref is None or ref == "":
        return None
    club = ref
    if not isinstance(ref, Club):
        clubs = Club.objects.filter(name=str(ref).strip()).select_related("association")
        club = (clubs.filter(association=association).first() if association else None) or clubs.first()
        if club is None:
            problems.append(f"unknown club {ref!r}")
            return None
    if association is not None and club.association_id != association.pk:
        problems.append(f"club {club.name!r} belongs to association {club.association.code}, not {association.code}")
    return club


def _check_identity(
    *,
    id_type: str,
    id_number: str,
    birth_date: date | None,
    gender: str | None,
    today: date,
    exclude_pk: int | None,
    problems: list[str],
) -> str:
    """Validate the document against the record and against the registry; return it normalised."""
    if id_type not in Player.IdType.values:
        problems.append(f"unknown ID type {id_type!r} (resident, passport or other)")
        return id_number
    number = idnumber.normalize_id_number(id_number)
    if not number:
        return ""
    for problem in idnumber.validate_id(id_type, number, birth_date=birth_date, gender=gender, today=today):
        problems.append(f"ID number: {problem}")
    holder = Player.objects.filter(id_number=number).exclude(pk=exclude_pk).first()
    if holder is not None:
        problems.append(f"ID number already registered to {holder.federation_id} {holder.name}")
    return number


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
    is recorded as a ``DanGrant``.
    """
    today = _today(today)
    problems: list[str] = []
    name = (name or "").strip()
    if not name:
        problems.append("name is empty")
    number = idnumber.normalize_id_number(id_number)
    if id_type == "resident" and number and not idnumber.validate_resident_id(number):
        facts = idnumber.parse_resident_id(number)
        birth_date = birth_date or facts.birth_date
        gender = gender or facts.gender
    if gender and gender not in Player.Gender.values:
        problems.append(f"gender {gender!r} is not M or F")
    elif not gender and not (id_type == "resident" and number):
        problems.append("gender missing (and no resident ID to take it from)")
    # (a resident ID given but invalid: its own problem is listed; once valid, the gender comes from it)
    if birth_date is not None and birth_date > today:
        problems.append(f"birth date {birth_date.isoformat()} is in the future")
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
        problems.append(f"status {status!r} is not one of {', '.join(Player.Status.values)}")
    if dan and dan not in DAN_GRADES:
        problems.append(f"dan {dan!r} is not a grade (9d…1d, 1k…10k)")
    if dan_granted_on and not dan:
        problems.append("dan grant date given without a dan")
    if len(nationality or "") != 3 or not nationality.isalpha():
        problems.append(f"nationality {nationality!r} is not a 3-letter code")
    rating = None
    if reference_rating not in (None, ""):
        try:
            rating = Decimal(str(reference_rating))
        except InvalidOperation:
            problems.append(f"reference rating {reference_rating!r} is not a number")
        if not reference_rating_source:
            problems.append("reference rating given without its source (e.g. RIF)")
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
    with transaction.atomic():
        _insert_with_new_federation_id(player)
        if dan and dan_granted_on:
            DanGrant.objects.create(player=player, grade=dan, granted_on=dan_granted_on, granted_by=dan_granted_by)
        record(actor, "player.register", player, federation_id=player.federation_id, name=name)
    return player


def _insert_with_new_federation_id(player: Player, attempts: int = 5) -> None:
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
    problems: list[str] = []
    new_birth = birth_date if birth_date is not None else player.birth_date
    new_gender = gender or player.gender
    new_type = id_type or player.id_type
    new_number = player.id_number if id_number is None else id_number
    if new_gender not in Player.Gender.values:
        problems.append(f"gender {new_gender!r} is not M or F")
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
    with transaction.atomic():
        player.birth_date, player.gender, player.id_type, player.id_number = new_birth, new_gender, new_type, number
        player.save()
        record(actor, "player.identity", player, changed=changed)
    return player


def set_status(player: Player, status: str, *, actor: object, reason: str = "") -> Player:
    """Change a player's registration status (active, suspended, retired), with the reason audited."""
    if status not in Player.Status.values:
        raise RegistryError([f"status {status!r} is not one of {', '.join(Player.Status.values)}"])
    if status == player.status:
        raise RegistryError([f"{player.federation_id} is already {status}"])
    with transaction.atomic():
        old, player.status = player.status, status
        player.save()
        record(actor, "player.status", player, old=old, new=status, reason=reason)
    return player


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
    new_name = (new_name or "").strip()
    if not new_name:
        raise RegistryError(["new name is empty"])
    if new_name == player.name and (name_latin is None or name_latin == player.name_latin):
        raise RegistryError([f"{player.federation_id} is already named {new_name}"])
    with transaction.atomic():
        change = NameChange.objects.create(
            player=player, old_name=player.name, new_name=new_name, changed_on=_today(changed_on), reason=reason
        )
        player.name = new_name
        if name_latin is not None:
            player.name_latin = name_latin.strip()
        player.save()
        record(actor, "player.rename", player, old_name=change.old_name, new_name=new_name, reason=reason)
    return change


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
    problems: list[str] = []
    new_assoc = resolve_association(new, problems)
    club_obj = resolve_club(club, new_assoc, problems)
    if not problems and new_assoc == player.association:
        problems.append(f"{player.federation_id} already belongs to {new_assoc}")
    if problems:
        raise RegistryError(problems)
    with transaction.atomic():
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


def grant_dan(player: Player, grade: str, *, granted_on: date, granted_by: str, actor: object) -> DanGrant:
    """Record a dan/kyu grade granted (段级位授予); the player's dan becomes their latest grant."""
    problems = []
    if grade not in DAN_GRADES:
        problems.append(f"dan {grade!r} is not a grade (9d…1d, 1k…10k)")
    if not (granted_by or "").strip():
        problems.append("the granting body is missing (e.g. 中国棋院, RIF)")
    if problems:
        raise RegistryError(problems)
    with transaction.atomic():
        grant = DanGrant.objects.create(player=player, grade=grade, granted_on=granted_on, granted_by=granted_by.strip())
        latest = player.dan_grants.order_by("-granted_on", "-id").first()
        player.dan = latest.grade
        player.save()
        record(actor, "player.dan", player, grade=grade, granted_on=granted_on, granted_by=grant.granted_by)
    return grant


def add_association(
    code: str, name: str, *, actor: object, name_en: str = "", parent: Association | str | None = None
) -> Association:
    """Add an association (棋协); the code must be new."""
    problems: list[str] = []
    code, name = (code or "").strip(), (name or "").strip()
    if not code:
        problems.append("association code is empty")
    elif Association.objects.filter(code=code).exists():
        problems.append(f"association {code} already exists")
    if not name:
        problems.append("association name is empty")
    parent_obj = resolve_association(parent, problems)
    if problems:
        raise RegistryError(problems)
    with transaction.atomic():
        assoc = Association.objects.create(code=code, name=name, name_en=name_en.strip(), parent=parent_obj)
        record(actor, "association.add", assoc, code=code, name=name)
    return assoc


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
    problems: list[str] = []
    name = (name or "").strip()
    if not name:
        problems.append("arbiter name is empty")
    elif Arbiter.objects.filter(name=name).exists():
        problems.append(f"arbiter {name!r} is already registered (reports name arbiters by name)")
    if any(c in name for c in "、,，"):
        problems.append(f"arbiter name {name!r} contains a list separator (、 or ,)")
    if level not in Arbiter.Level.values:
        problems.append(f"unknown arbiter level {level!r}: choose one of {', '.join(Arbiter.Level.values)}")
    assoc = resolve_association(association, problems)
    person = None
    if isinstance(player, Player):
        person = player
    elif player:
        person = Player.objects.filter(federation_id=player).first()
        if person is None:
            problems.append(f"no registered player {player}")
    if problems:
        raise RegistryError(problems)
    with transaction.atomic():
        arbiter = Arbiter.objects.create(name=name, level=level, recognised_national=recognised_national,
                                         association=assoc, player=person)
        record(actor, "arbiter.add", arbiter, name=name, level=level, recognised_national=recognised_national)
    return arbiter


def register_many(rows, *, source: str, actor: object, today: date | None = None, problems=()) -> list[Player]:
    """Register every row of a registration list (``registration_csv``) in one transaction.

    The registry checks are made for all rows — the association exists, the
    club belongs to it, the ID number is not registered yet — and their
    problems, with the file's own ``problems`` (``CheckedList.problems``), are
    raised at once in line order (``InputError``, with line and column);
    nothing is stored then.
    """
    from qiyuan.formats.errors import InputError, Problem

    today = _today(today)
    file_problems: list[Problem] = list(problems)
    problems = []
    assocs = {a.code: a for a in Association.objects.all()}
    clubs = {(c.association_id, c.name): c for c in Club.objects.all()}
    numbers = [r.id_number for r in rows if r.id_number]
    holders = {
        n: (fid, name)
        for i in range(0, len(numbers), 1000)
        for n, fid, name in Player.objects.filter(id_number__in=numbers[i : i + 1000]).values_list(
            "id_number", "federation_id", "name"
        )
    }
    planned = []
    for r in rows:
        assoc = assocs.get(r.association) if r.association else None
        if r.association and assoc is None:
            problems.append(Problem(source, r.line, "association", f"unknown association {r.association!r}"))
        club = None
        if r.club:
            club = clubs.get((assoc.pk if assoc else None, r.club))
            if club is None:
                where = f" in association {r.association}" if r.association else " (give its association)"
                problems.append(Problem(source, r.line, "club", f"unknown club {r.club!r}{where}"))
        if r.id_number in holders:
            fid, name = holders[r.id_number]
            problems.append(Problem(source, r.line, "id_number", f"already registered to {fid} {name}"))
        planned.append((r, assoc, club))
    if problems or file_problems:
        every = sorted(file_problems + problems, key=lambda p: p.line or 0)  # stable: file before registry
        raise InputError(every)
    players = []
    with transaction.atomic():
        for r, assoc, club in planned:
            player = Player(
                name=r.name, name_latin=r.name_latin, gender=r.gender, birth_date=r.birth_date, id_type=r.id_type,
                id_number=r.id_number, nationality=r.nationality, association=assoc, club=club,
                registered_on=r.registered_on or today, dan=r.dan,
            )
            _insert_with_new_federation_id(player)
            record(actor, "player.register", player, federation_id=player.federation_id, name=r.name, source=source)
            players.append(player)
        record(actor, "player.import", None, source=source, players=len(players))
    return players
