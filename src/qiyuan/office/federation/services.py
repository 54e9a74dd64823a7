"""Use cases of the registry (棋手注册): register, rename, move, grant a dan, search, merge.

Every change writes an audit entry (``qiyuan.office.audit``); every check lists
all its problems at once (``RegistryError.problems``) and stores nothing when
one fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation

from django.apps import apps
from django.db import IntegrityError, models, transaction
from django.db.models import Case, IntegerField, Q, Value, When

from qiyuan.office.audit.models import record
from qiyuan.office.federation import idnumber, pinyin
from qiyuan.office.federation.models import (
    DAN_GRADES,
    Association,
    AssociationChange,
    Club,
    DanGrant,
    NameChange,
    Player,
)


class RegistryError(Exception):
    """A registry action refused; ``problems`` lists every reason."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


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
    if gender not in Player.Gender.values:
        problems.append("gender missing" if not gender else f"gender {gender!r} is not M or F")
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


# -- history -------------------------------------------------------------------------------------


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


# -- search ----------------------------------------------------------------------------------------


def search_players(query: str, *, limit: int = 50, include_merged: bool = False, staff: bool = False) -> list[Player]:
    """Players matching ``query`` by Chinese characters, pinyin (full or initials), Latin name or federation ID.

    ``"张三"``, ``"zhangsan"``, ``"zhang san"``, ``"zs"`` and ``"Zhang San"``
    all find 张三. Former names are searched too. Exact matches come first,
    then prefixes, then substrings; ties by pinyin. With ``staff=True`` an
    exact ID number matches as well (never on public pages).
    """
    query = (query or "").strip()
    if not query:
        return []
    players = Player.objects.all() if include_merged else Player.objects.registered()
    if pinyin.has_han(query):
        text = query.replace(" ", "")
        former = NameChange.objects.filter(old_name__contains=text).values("player_id")
        condition = Q(name__contains=text) | Q(pk__in=former)
        former_exact = NameChange.objects.filter(old_name=text).values("player_id")
        rank = Case(
            When(name=text, then=Value(0)),
            When(pk__in=former_exact, then=Value(1)),
            When(name__startswith=text, then=Value(1)),
            default=Value(2),
            output_field=IntegerField(),
        )
    else:
        key = pinyin.latin_key(query)
        if not key:
            return []
        condition = (
            Q(name_search__contains=key)
            | Q(federation_id__iexact=query)
            | Q(name__icontains=query)
        )
        if staff:
            condition |= Q(id_number=idnumber.normalize_id_number(query))
        rank = Case(
            When(federation_id__iexact=query, then=Value(0)),
            When(name_search__contains=f"|{key}|", then=Value(0)),
            When(name_search__contains=f"|{key}", then=Value(1)),
            default=Value(2),
            output_field=IntegerField(),
        )
    found = (
        players.filter(condition)
        .annotate(match_rank=rank)
        .select_related("association", "club")
        .order_by("match_rank", "name_pinyin", "federation_id")
    )
    return list(found[:limit])


def find_player(ref: str) -> Player:
    """One player by federation ID, or by a name that only one registered player has."""
    ref = (ref or "").strip()
    player = Player.objects.filter(federation_id__iexact=ref).first()
    if player is not None:
        return player
    named = list(Player.objects.registered().filter(name=ref)[:10])
    if len(named) == 1:
        return named[0]
    if named:
        ids = ", ".join(p.federation_id for p in named)
        raise RegistryError([f"{len(named)} players are named {ref}: {ids}; give the federation ID"])
    raise RegistryError([f"no player {ref!r} (give a federation ID such as CN000123, or an exact name)"])


# -- merge -----------------------------------------------------------------------------------------


@dataclass
class MergeResult:
    keep: Player
    duplicate: Player
    moved: dict[str, int] = field(default_factory=dict)  # "app.model.field" → rows re-pointed
    filled: list[str] = field(default_factory=list)  # fields of keep taken from the duplicate


def _references_to_player() -> list[tuple[type[models.Model], models.Field]]:
    """Every concrete foreign key or one-to-one field that points at ``Player``, in any installed app.

    Built from each model's ``_meta`` (auto-created many-to-many tables and
    hidden ``related_name='+'`` keys included), so rows of apps written later
    — entries, games, rating changes — are found without naming them here.
    A model with the class attribute ``merge_repoint = False`` (rows of a
    published, immutable edition) is left out: its rows keep pointing at the
    duplicate, which stays in the registry marked ``merged_into``.
    """
    refs = []
    for model in apps.get_models(include_auto_created=True):
        if getattr(model, "merge_repoint", True) is False:
            continue
        for f in model._meta.concrete_fields:
            if f.is_relation and f.related_model is Player and (f.many_to_one or f.one_to_one):
                refs.append((model, f))
    return refs


def _unique_sets(model: type[models.Model], f: models.Field) -> list[tuple[list[str], Q | None]]:
    """The unique constraints of ``model`` that include field ``f``: (other fields, condition)."""
    sets: list[tuple[list[str], Q | None]] = []
    if f.unique:
        sets.append(([], None))
    for together in model._meta.unique_together:
        if f.name in together:
            sets.append(([n for n in together if n != f.name], None))
    for constraint in model._meta.constraints:
        fields = list(getattr(constraint, "fields", ()) or ())
        if isinstance(constraint, models.UniqueConstraint) and f.name in fields:
            sets.append(([n for n in fields if n != f.name], constraint.condition))
    return sets


def _merge_conflicts(keep: Player, dup: Player) -> tuple[list[str], list[tuple[type[models.Model], models.Field, list]]]:
    """Rows that could not move because ``keep`` already has their twin (unique constraints).

    Returns problems (real conflicts) and, for auto-created many-to-many
    tables, the duplicate's rows that are simply redundant (deleted on merge).
    """
    problems: list[str] = []
    redundant: list[tuple[type[models.Model], models.Field, list]] = []
    for model, f in _references_to_player():
        for others, condition in _unique_sets(model, f):
            mine = model._base_manager.filter(**{f.name: dup})
            theirs = model._base_manager.filter(**{f.name: keep})
            if condition is not None:
                mine, theirs = mine.filter(condition), theirs.filter(condition)
            if not others:
                if mine.exists() and theirs.exists():
                    problems.append(f"both records have a {model._meta.verbose_name} ({f.name}); merge them by hand first")
                continue
            keys = set(theirs.values_list(*others))
            clashes = [row for row in mine.values_list("pk", *others) if tuple(row[1:]) in keys]
            if not clashes:
                continue
            if model._meta.auto_created:
                redundant.append((model, f, [row[0] for row in clashes]))
                continue
            shown = ", ".join("/".join(str(v) for v in row[1:]) for row in clashes[:5])
            more = f" and {len(clashes) - 5} more" if len(clashes) > 5 else ""
            problems.append(
                f"both records appear in the same {model._meta.verbose_name} ({', '.join(others)} = {shown}{more}): "
                "the same person entered twice; correct that first"
            )
    return problems, redundant


_FILLABLE = ("name_latin", "birth_date", "association", "club", "dan", "reference_rating", "reference_rating_source")


@transaction.atomic
def merge_players(
    keep: Player, duplicate: Player, actor: object, *, force: bool = False, dry_run: bool = False
) -> MergeResult:
    """Merge a duplicate record into ``keep`` (合并重复注册), in one transaction.

    Every row of any app that points at the duplicate (entries, games, rating
    changes, name and association history, dan grants…) is re-pointed to
    ``keep``; the duplicate stays, marked ``merged_into=keep``, so its
    federation ID still resolves. Blank fields of ``keep`` are filled from the
    duplicate, and a name or association that differs is recorded as history
    with the reason "merged". Contradicting identities (ID number, birth date,
    gender) are refused unless ``force``; rows that would clash (both records
    entered in the same event) are always refused. Nothing is changed when
    the merge is refused. ``dry_run`` does everything, reports it, and rolls back.
    """
    keep = Player.objects.select_for_update().get(pk=keep.pk)
    dup = Player.objects.select_for_update().get(pk=duplicate.pk)
    problems: list[str] = []
    if keep.pk == dup.pk:
        raise RegistryError(["a player cannot be merged into itself"])
    if keep.merged_into_id:
        problems.append(f"{keep.federation_id} is itself merged into {keep.merged_into.federation_id}")
    if dup.merged_into_id:
        problems.append(f"{dup.federation_id} is already merged into {dup.merged_into.federation_id}")
    identity: list[str] = []
    if keep.gender != dup.gender:
        identity.append(f"genders differ ({keep.gender} / {dup.gender})")
    if keep.birth_date and dup.birth_date and keep.birth_date != dup.birth_date:
        identity.append(f"birth dates differ ({keep.birth_date} / {dup.birth_date})")
    if keep.id_number and dup.id_number and keep.id_number != dup.id_number:
        identity.append(f"ID numbers differ ({keep.masked_id_number} / {dup.masked_id_number})")
    if identity and not force:
        problems += [f"{p}: are these really the same person? (force to merge anyway)" for p in identity]
    clash_problems, redundant = _merge_conflicts(keep, dup)
    problems += clash_problems
    if problems:
        raise RegistryError(problems)

    result = MergeResult(keep=keep, duplicate=dup)
    today = date.today()
    reason = f"merged duplicate {dup.federation_id}"
    if dup.name != keep.name:
        NameChange.objects.create(player=keep, old_name=dup.name, new_name=keep.name, changed_on=today, reason=reason)
    if dup.association_id and dup.association_id != keep.association_id:
        AssociationChange.objects.create(
            player=keep, old=dup.association, new=keep.association, changed_on=today, reason=reason
        )
    for model, f, pks in redundant:
        model._base_manager.filter(pk__in=pks).delete()
    for model, f in _references_to_player():
        moved = model._base_manager.filter(**{f.name: dup}).update(**{f.name: keep})
        if moved:
            result.moved[f"{model._meta.label_lower}.{f.name}"] = moved

    for name in _FILLABLE:
        if getattr(keep, name) in (None, "") and getattr(dup, name) not in (None, ""):
            setattr(keep, name, getattr(dup, name))
            result.filled.append(name)
    if dup.registered_on and (keep.registered_on is None or dup.registered_on < keep.registered_on):
        keep.registered_on = dup.registered_on
        result.filled.append("registered_on")
    if not keep.id_number and dup.id_number:
        keep.id_type, keep.id_number = dup.id_type, dup.id_number
        dup.id_number = ""  # unique: moves to the record kept
        result.filled.append("id_number")
    dup.merged_into = keep
    dup.save()
    keep.save()
    record(
        actor, "player.merge", keep,
        duplicate=dup.federation_id, duplicate_name=dup.name, moved=result.moved, filled=result.filled,
        forced=bool(identity),
    )
    if dry_run:
        transaction.set_rollback(True)
    return result


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


def register_many(rows, *, source: str, actor: object, today: date | None = None) -> list[Player]:
    """Register every row of a checked registration list (``registration_csv``) in one transaction.

    The registry checks are made for all rows first — the association exists,
    the club belongs to it, the ID number is not registered yet — and every
    problem is raised at once (``InputError``, with line and column); nothing
    is stored then.
    """
    from qiyuan.formats.errors import InputError, Problem

    today = _today(today)
    problems: list[Problem] = []
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
    if problems:
        raise InputError(problems)
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
