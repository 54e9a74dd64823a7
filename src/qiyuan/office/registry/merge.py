"""Merging duplicate records (合并重复注册) without losing either history.

Every row of any installed app that points at the duplicate moves to the
record kept, found generically from the models' ``_meta``; the duplicate
stays, marked ``merged_into``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.apps import apps
from django.db import models, transaction
from django.db.models import Q

from qiyuan.office.audit.models import record
from qiyuan.office.db import REGISTRY, use_case
from qiyuan.errors import N_, Problem, problem
from qiyuan.office.errors import RegistryError
from qiyuan.office.federation.models import AssociationChange, NameChange, Player
from qiyuan.office import sheets
from qiyuan.office.ratings.models import Edition


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


#: each kind of row that points at a player (``linked_rows``' keys, for programs), in words for people
LINKED_ROW_WORDS = {
    "events.entry.player": N_("event entries"),
    "events.game.player1": N_("games (listed first)"),
    "events.game.player2": N_("games (listed second)"),
    "federation.dangrant.player": N_("dan grants"),
    "federation.namechange.player": N_("name changes"),
    "federation.associationchange.player": N_("association changes"),
    "federation.arbiter.player": N_("arbiter records"),
    "federation.player.merged_into": N_("duplicate records merged into this record"),
}


def linked_rows(player: Player) -> dict[str, int]:
    """How many rows of each app point at the player (``"events.entry.player": 12``): what a merge would move."""
    counts = {}
    for model, f in _references_to_player():
        n = model._base_manager.filter(**{f.name: player}).count()
        if n:
            counts[f"{model._meta.label_lower}.{f.name}"] = n
    return counts


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
                    problems.append(problem("both records have a {record} ({field}); merge them by hand first",
                                            record=str(model._meta.verbose_name), field=f.name))
                continue
            keys = set(theirs.values_list(*others))
            clashes = [row for row in mine.values_list("pk", *others) if tuple(row[1:]) in keys]
            if not clashes:
                continue
            if model._meta.auto_created:
                redundant.append((model, f, [row[0] for row in clashes]))
                continue
            shown = ", ".join("/".join(str(v) for v in row[1:]) for row in clashes[:5])
            if len(clashes) > 5:
                shown = problem("{shown} and {n} more", shown=shown, n=len(clashes) - 5)
            problems.append(problem("both records appear in the same {record} ({fields} = {shown}): the same person "
                                    "entered twice; correct that first", record=str(model._meta.verbose_name),
                                    fields=", ".join(others), shown=shown))
    return problems, redundant


_FILLABLE = ("name_latin", "birth_date", "association", "club", "dan", "reference_rating", "reference_rating_source")


@use_case(REGISTRY)
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
    problems: list[Problem] = []
    if keep.pk == dup.pk:
        raise RegistryError([problem("a player cannot be merged into itself")])
    if keep.merged_into_id:
        problems.append(problem("{id} is itself merged into {into}", id=keep.federation_id,
                                into=keep.merged_into.federation_id))
    if dup.merged_into_id:
        problems.append(problem("{id} is already merged into {into}", id=dup.federation_id,
                                into=dup.merged_into.federation_id))
    identity: list[Problem] = []
    if keep.gender != dup.gender:
        identity.append(problem("genders differ ({a} / {b})", a=keep.gender, b=dup.gender))
    if keep.birth_date and dup.birth_date and keep.birth_date != dup.birth_date:
        identity.append(problem("birth dates differ ({a} / {b})", a=str(keep.birth_date), b=str(dup.birth_date)))
    if keep.id_number and dup.id_number and keep.id_number != dup.id_number:
        identity.append(problem("ID numbers differ ({a} / {b})", a=keep.masked_id_number, b=dup.masked_id_number))
    if identity and not force:
        problems += [problem("{difference}: are these really the same person? (force to merge anyway)", difference=p)
                     for p in identity]
    clash_problems, redundant = _merge_conflicts(keep, dup)
    problems += clash_problems
    problems += refuse_double_rating(keep.pk, dup.pk)
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


def refuse_double_rating(keep_pk: int, duplicate_pk: int) -> list[str]:
    """Why the merge is refused: the lists where both records (each with its own merged duplicates) are on
    published editions (a rating, or a newcomer's record), so two published states would have to become one."""
    def group(pk: int) -> set[int]:
        out, todo = {pk}, [pk]
        while todo:
            kids = set(Player.objects.filter(merged_into_id__in=todo).values_list("pk", flat=True)) - out
            out |= kids
            todo = list(kids)
        return out

    def lists(pks: set[int]) -> set[str]:
        return {ed.rating_list.code for ed in Edition.objects.select_related("rating_list")
                if sheets.on_edition(ed, pks)}

    both = sorted(lists(group(keep_pk)) & lists(group(duplicate_pk)))
    return [problem("both records are on published editions of list {list}: the office cannot tell which published "
                    "rating the kept record continues from, so the merge is refused (publish a correction that removes "
                    "the wrong record's games first)", list=code) for code in both]
