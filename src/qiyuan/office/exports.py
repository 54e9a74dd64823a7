"""Exports of published editions for the public (ID numbers never, birth year only) and the full history."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

from qiyuan.formats.list_export import HistoryRow, ListDocument, ListRow, write_history_csv, write_list
from qiyuan.errors import problem
from qiyuan.office.errors import OfficeError
from qiyuan.office.ratings.models import Edition, EditionEntry, RatingChange
from qiyuan.people.pinyin import latin_name

PUBLIC_STATUSES = ("active", "inactive", "removed")


def find_edition(rating_list, number: int | None = None, list_date=None):
    """An edition of the list: by list date (its current edition unless ``number``), or the latest one."""
    qs = rating_list.editions.all()
    if list_date is not None:
        qs = qs.filter(list_date=list_date)
        ed = qs.filter(number=number).first() if number else qs.order_by("-number").first()
    elif number is not None:
        ed = qs.order_by("list_date", "number")[number - 1] if 0 < number <= qs.count() else None
    else:
        ed = qs.order_by("-list_date", "-number").first()
    if ed is None:
        raise OfficeError(problem("list {list} has no such edition", list=rating_list.code))
    return ed


def public_row(position: int, e: EditionEntry, change: int | None) -> ListRow:
    """One player's row of a public list file (no ID number, birth year only; the Latin name as the English
    pages and the API write it: ``people.pinyin.latin_name``). The office's export and the portal's downloads
    both write these."""
    p = e.player
    name = e.name or p.name
    return ListRow(
        position=position, rank=e.rank, federation_id=p.federation_id, name=name,
        name_latin=latin_name(name, p.name_latin), gender=p.gender, birth_year=p.birth_year,
        association=p.association.code if p.association else "", dan=p.dan, rating=e.rating, games=e.games,
        status=e.status, is_new=e.is_new, k=e.k, change=change)


def list_document(edition) -> ListDocument:
    """The public content of an edition: players with a published rating (active, inactive, removed)."""
    prev = {}
    previous = edition.previous
    if previous is not None:
        prev = dict(EditionEntry.objects.filter(edition=previous, rating__isnull=False)
                    .values_list("player_id", "rating"))
    rows = []
    qs = (EditionEntry.objects.filter(edition=edition, status__in=PUBLIC_STATUSES)
          .select_related("player", "player__association").order_by("position"))
    for pos, e in enumerate(qs.iterator(chunk_size=5000), start=1):
        rows.append(public_row(
            pos, e, (e.rating - prev[e.player_id]) if e.rating is not None and e.player_id in prev else None))
    rl = edition.rating_list
    return ListDocument(list_code=rl.code, title=rl.title, rules_title=rl.rules().title, list_date=edition.list_date,
                        edition=edition.number, is_correction=edition.is_correction, reason=edition.reason,
                        rows=tuple(rows))


def export_edition(edition, fmt: str, out: str | Path) -> int:
    doc = list_document(edition)
    write_list(doc, fmt, out)
    return len(doc.rows)


def history_rows(rating_list=None) -> Iterator[HistoryRow]:
    """One row per player per event, over the current editions (before/after, EGD manner)."""
    editions = Edition.objects.all()
    if rating_list is not None:
        editions = editions.filter(rating_list=rating_list)
    current = {}
    for ed in editions.order_by("rating_list_id", "list_date", "number"):
        current[(ed.rating_list_id, ed.list_date)] = ed
    for ed in sorted(current.values(), key=lambda e: (e.rating_list_id, e.list_date)):
        qs = (RatingChange.objects.filter(edition=ed).order_by("player__federation_id", "event__end_date", "event__code")
              .values_list("player__federation_id", "player__name", "event__code", "event__name", "event__end_date",
                           "games", "explanation"))
        for fid, name, code, ename, end, games, x in qs.iterator(chunk_size=5000):
            before = x.get("Ro")
            after = str(_add(before, x["delta"])) if before is not None else ""
            yield HistoryRow(fid, name, code, ename, end, ed.list_date, ed.number, games, x["W"], x["We"] or "",
                             "" if x["K"] is None else str(x["K"]), before or "", after, x["delta"], x["method"])


def _add(a: str, b: str):

    return Decimal(a) + Decimal(b)


def export_history(out: str | Path, rating_list=None) -> int:
    return write_history_csv(history_rows(rating_list), out)
