"""Exports of published editions for the public (ID numbers never, birth year only) and the full history."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

from qiyuan.formats.list_export import HistoryRow, ListDocument, ListRow, write_history_csv, write_list
from qiyuan.errors import problem
from qiyuan.office import sheets
from qiyuan.office.errors import OfficeError
from qiyuan.office.events.models import Event
from qiyuan.office.federation.models import Player
from qiyuan.office.ratings.models import Edition
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


def public_row(position: int, e, change: int | None) -> ListRow:
    """One player's row of a public list file (no ID number, birth year only; the Latin name as the English
    pages and the API write it: ``people.pinyin.latin_name``). ``e``: an entry (its player, name as published,
    rank, rating, games, status, is_new, K). The office's export and the portal's downloads both write these."""
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
        before = sheets.entries(previous, "player", "rating")
        prev = {pk: r for pk, r in zip(before["player"], before["rating"]) if r is not None}
    status = sheets.entries(edition, "status")["status"]
    rows = []
    for pos, e in enumerate(sheets.with_players(edition, [i for i, s in enumerate(status) if s in PUBLIC_STATUSES]),
                            start=1):
        pk = e.player.pk
        rows.append(public_row(pos, e, (e.rating - prev[pk]) if e.rating is not None and pk in prev else None))
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
        cols = sheets.changes(ed, "player", "event", "federation_id", "games", "explanation")
        names = dict(Player.objects.filter(pk__in=set(cols["player"])).values_list("pk", "name"))
        events = {pk: (code, name, end) for pk, code, name, end in Event.objects.filter(
            pk__in=set(cols["event"])).values_list("pk", "code", "name", "end_date")}
        order = sorted(range(len(cols["player"])), key=lambda i: (
            cols["federation_id"][i], events[cols["event"][i]][2], events[cols["event"][i]][0]))
        for i in order:
            x = json.loads(cols["explanation"][i])
            code, ename, end = events[cols["event"][i]]
            before = x.get("Ro")
            after = str(_add(before, x["delta"])) if before is not None else ""
            yield HistoryRow(cols["federation_id"][i], names[cols["player"][i]], code, ename, end, ed.list_date,
                             ed.number, cols["games"][i], x["W"], x["We"] or "", "" if x["K"] is None else str(x["K"]),
                             before or "", after, x["delta"], x["method"])


def _add(a: str, b: str):

    return Decimal(a) + Decimal(b)


def export_history(out: str | Path, rating_list=None) -> int:
    return write_history_csv(history_rows(rating_list), out)
