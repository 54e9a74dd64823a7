"""Tests' access to an edition's stored sheet (issue 34): its entries and changes read as rows, and a sheet edited
behind the model's back (its bytes, or its decoded columns encoded again) — the office writes no
``EditionEntry``/``RatingChange`` rows, so a test reads and tampers the sheets."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from django.db import connection

from qiyuan.formats import edition_sheet as S


def schema(part: str) -> dict:
    return S.ENTRY_SCHEMA if part == "entries" else S.CHANGE_SCHEMA


def columns(edition, part: str) -> dict[str, list]:
    """A sheet part's columns as stored, decoded afresh (not from the process's cache)."""
    from qiyuan.office import sheets

    return S.decode(getattr(sheets.stored_sheet(edition.pk), part), schema(part), part)


def rows(edition, part: str) -> list[dict]:
    """A sheet part as one dict per row (entries in list order, changes in line order); a change's decimal
    columns as ``Decimal``."""
    cols = columns(edition, part)
    out = [dict(zip(cols, values)) for values in zip(*cols.values())]
    if part == "changes":
        for r in out:
            for name in ("before", "after", "W", "We", "delta"):
                r[name] = None if r[name] is None else Decimal(r[name])
    return out


def entries(edition) -> list[dict]:
    return rows(edition, "entries")


def changes(edition) -> list[dict]:
    return rows(edition, "changes")


def write_blob(edition, part: str, blob: bytes) -> None:
    """Store other bytes as an edition's sheet part, behind the model's back."""
    from qiyuan.office import sheets

    with connection.cursor() as cur:
        cur.execute(f"UPDATE ratings_editionsheet SET {part} = %s WHERE edition_id = %s", [blob, edition.pk])
    sheets.forget()


def edit_sheet(edition, part: str, edit: Callable[[dict[str, list]], object]) -> None:
    """Decode a sheet part, let ``edit`` change its columns (in place), and store it encoded again."""
    cols = columns(edition, part)
    edit(cols)
    write_blob(edition, part, S.encode(cols, schema(part)))


def edit_row(edition, part: str, where: Callable[[dict], bool], **values) -> dict:
    """Give the first row of a sheet part that ``where`` picks (a row as ``rows`` gives it) new ``values`` (a
    decimal column's as ``Decimal`` or text), stored behind the model's back; returns the row as it was."""
    i, found = next((i, r) for i, r in enumerate(rows(edition, part)) if where(r))

    def edit(cols):
        for name, value in values.items():
            cols[name][i] = _four(value) if isinstance(value, Decimal) else value
    edit_sheet(edition, part, edit)
    return found


def _four(v: Decimal) -> str:
    return str(v.quantize(Decimal("0.0001")))
