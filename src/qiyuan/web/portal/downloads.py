"""A published edition as a public document for ``qiyuan.formats.list_export``
(CSV, XLSX, TXT, PDF): birth year only, no ID number (``ListRow`` has none)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from qiyuan.formats.list_export import ListDocument, ListRow, write_list
from qiyuan.office.ratings.models import Edition, EditionEntry


def edition_document(ed: Edition, previous: Edition | None) -> ListDocument:
    """The edition's rows in list order; ``change`` is the rating change against ``previous``."""
    before = {}
    if previous is not None:
        before = dict(EditionEntry.objects.filter(edition=previous).values_list("player_id", "rating"))
    rows = []
    for e in EditionEntry.objects.filter(edition=ed).select_related("player", "player__association").order_by("position"):
        p = e.player
        old = before.get(e.player_id)
        rows.append(ListRow(
            position=e.position, rank=e.rank, federation_id=p.federation_id, name=p.name, name_latin=p.name_latin,
            gender=p.gender, birth_year=p.birth_year, association=p.association.name if p.association_id else "",
            dan=p.dan, rating=e.rating, games=e.games, status=e.status, is_new=e.is_new, k=e.k,
            change=(e.rating - old) if (e.rating is not None and old is not None) else None,
        ))
    rules = ed.rules_settings or {}
    return ListDocument(
        list_code=ed.rating_list.code, title=ed.rating_list.title,
        rules_title=rules.get("title") or ed.rating_list.rules_name, list_date=ed.list_date, edition=ed.number,
        is_correction=ed.is_correction, reason=ed.reason, rows=tuple(rows),
    )


def edition_file(ed: Edition, previous: Edition | None, fmt: str) -> bytes:
    """The bytes of the public file of an edition in ``fmt`` (csv, xlsx, txt, pdf)."""
    doc = edition_document(ed, previous)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"list.{fmt}"
        write_list(doc, fmt, path)
        return path.read_bytes()
