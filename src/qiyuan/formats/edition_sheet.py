"""An edition as a sheet: its entries and its changes as two Arrow IPC column blobs (lz4), and the canonical text
written from them in bulk. Plain data in, bytes and text out: no Django (the verification kit may use it alone).

A stored edition's bytes are fixed (its canonical text, digest and inputs digest); its storage form is not.
The sheet holds exactly what the canonical text is written from:

* the entries in list order (``ENTRY_SCHEMA``): the player's key in the office, his federation ID, the name
  published, position, rank, rating, the exact decimal, games, status, is_new, K and his state's JSON text;
* the changes (``CHANGE_SCHEMA``) in the order of their canonical lines (code-point order of the whole line,
  what the digest sorts): player and event keys, the event's code, the player's federation ID, the stored
  numbers the public pages show (before, after, W, We, ΔR as the exact text with the columns' 4 places,
  games and K as integers, the method) and the explanation's text.

Numbers are typed, texts are the digest's bytes (``null`` stays a null, an empty text stays empty). Every
sheet says its ``FORMAT`` (how the columns are laid out) beside the edition's ``canonical_version`` (how
its text is written): a later version of the text gets its writer in ``WRITERS``, the old editions keep
theirs; a version without a bulk writer is written row by row through ``canonical_text.writer``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl
from polars.exceptions import PanicException

from qiyuan.formats.canonical_text import as_json, json_string, writer

#: the layout of the columns (stored beside each sheet; a sheet of another format is refused by name)
FORMAT = 1

ENTRY_SCHEMA: dict[str, pl.DataType] = {
    "player": pl.Int64, "federation_id": pl.String, "name": pl.String, "position": pl.Int64, "rank": pl.Int64,
    "rating": pl.Int64, "exact": pl.String, "games": pl.Int64, "status": pl.String, "is_new": pl.Boolean,
    "k": pl.Int64, "state": pl.String,
}
CHANGE_SCHEMA: dict[str, pl.DataType] = {
    "player": pl.Int64, "event": pl.Int64, "event_code": pl.String, "federation_id": pl.String,
    "before": pl.String, "after": pl.String, "games": pl.Int64, "W": pl.String, "We": pl.String, "K": pl.Int64,
    "delta": pl.String, "method": pl.String, "explanation": pl.String,
}
#: the entry columns an entry's canonical line is written from, in its order (``EntryRow.line``)
ENTRY_LINE_COLUMNS = ("federation_id", "name", "position", "rank", "rating", "exact", "games", "status", "is_new",
                      "k")
#: the stored numbers of a change, in ``canonical_text.CHANGE_COLUMNS``' order
CHANGE_NUMBER_COLUMNS = ("before", "after", "games", "W", "We", "K", "delta", "method")
#: the columns that may hold a null (every other one is always a value)
NULLABLE = {"entries": {"rank", "rating", "k"}, "changes": {"before", "after", "We", "K"}}


class SheetError(ValueError):
    """Sheet bytes that are not a sheet of this format (damaged, cut short, another layout): ``part`` says which
    blob (``entries`` or ``changes``)."""

    def __init__(self, part: str, reason: str):
        super().__init__(f"the {part} sheet cannot be read: {reason}")
        self.part = part
        self.reason = reason


# --------------------------------------------------------------------------------------------- bytes


def encode(columns: dict[str, Sequence], schema: dict[str, pl.DataType]) -> bytes:
    """Columns (name → values, every name of ``schema``) as Arrow IPC bytes, lz4-compressed."""
    frame = pl.DataFrame({name: columns[name] for name in schema}, schema=schema)
    buf = io.BytesIO()
    frame.write_ipc(buf, compression="lz4")
    return buf.getvalue()


def decode(data: bytes, schema: dict[str, pl.DataType], part: str,
           columns: Sequence[str] | None = None) -> dict[str, list]:
    """The columns ``columns`` (default: all) of a blob ``encode`` wrote, as lists. ``SheetError`` when the bytes
    are not such a blob (checked: the schema, and no null where the format has none) — never another error."""
    wanted = list(columns or schema)
    frame = decode_frame(data, schema, part, wanted)
    return {name: frame[name].to_list() for name in wanted}


def decode_rows(data: bytes, schema: dict[str, pl.DataType], part: str, columns: Sequence[str],
                rows: Sequence[int]) -> dict[str, list]:
    """The columns ``columns`` of the rows ``rows`` only (``decode``'s checks; the other rows are not made into
    Python values)."""
    decoded = decode_frame(data, schema, part, columns)
    taken = decoded[list(rows)] if rows else decoded.clear()
    return {name: taken[name].to_list() for name in columns}


def decode_frame(data: bytes, schema: dict[str, pl.DataType], part: str, columns: Sequence[str]) -> pl.DataFrame:
    """``decode`` as a data frame (its checks made)."""
    try:
        found = dict(pl.read_ipc_schema(io.BytesIO(bytes(data))))
        if found != schema:
            raise SheetError(part, "its columns are not this format's (" + ", ".join(
                f"{k} {v}" for k, v in found.items()) + ")")
        frame = pl.read_ipc(io.BytesIO(bytes(data)), columns=list(columns))
    except SheetError:
        raise
    except (Exception, PanicException) as exc:  # (a panic of the reader is a BaseException)
        raise SheetError(part, f"{type(exc).__name__}: {exc}") from None
    nullable = NULLABLE[part]
    for name in columns:
        if name not in nullable and frame[name].null_count():
            raise SheetError(part, f"column {name} holds a null")
    return frame


@dataclass(frozen=True)
class Sheet:
    """An edition's sheet as stored: its format and its two blobs."""

    format: int
    entries: bytes
    changes: bytes


def sheet_of(entries: dict[str, Sequence], changes: dict[str, Sequence]) -> Sheet:
    """The sheet of an edition's columns (``ENTRY_SCHEMA``'s in list order, ``CHANGE_SCHEMA``'s in any order:
    they are stored in the order of their canonical lines)."""
    order = sorted(range(len(changes["event_code"])),
                   key=[change_key(ev, fid) for ev, fid in zip(changes["event_code"], changes["federation_id"])
                        ].__getitem__)
    changes = {name: [changes[name][i] for i in order] for name in CHANGE_SCHEMA}
    return Sheet(FORMAT, encode(entries, ENTRY_SCHEMA), encode(changes, CHANGE_SCHEMA))


def change_key(event_code: str, federation_id: str) -> str:
    """What a change line starts with (``[event, player]`` as canonical JSON): the lines sort by it, since it ends
    in ``]`` and no line's key is a prefix of another's."""
    return f"[{json_string(event_code)},{json_string(federation_id)}]"


# --------------------------------------------------------------------------------------------- text


def _i(x) -> str:
    return "null" if x is None else str(x)


def entry_lines_v1(cols: dict[str, list]) -> list[str]:
    """Version 1's entry lines of the columns (``EntryRow.line`` row by row, written column-wise)."""
    js = json_string
    return [f"[{js(f)},{js(n)},{p},{_i(r)},{_i(ra)},{js(x)},{g},{js(s)},{'true' if new else 'false'},{_i(k)}]\t{st}\n"
            for f, n, p, r, ra, x, g, s, new, k, st in zip(
                cols["federation_id"], cols["name"], cols["position"], cols["rank"], cols["rating"], cols["exact"],
                cols["games"], cols["status"], cols["is_new"], cols["k"], cols["state"])]


def change_lines_v1(cols: dict[str, list]) -> list[str]:
    """Version 1's change lines of the columns, in code-point order of the lines."""
    js = json_string
    return sorted(f"[{js(ev)},{js(fid)}]\t{text}\n"
                  for ev, fid, text in zip(cols["event_code"], cols["federation_id"], cols["explanation"]))


def entry_lines_by_row(version: int):
    """Entry lines of the columns written row by row by ``version``'s ``Writer`` (any version of the text)."""
    w = writer(version)

    def lines(cols: dict[str, list]) -> list[str]:
        return [w.entry_line(list(values), st) for *values, st in zip(
            *(cols[c] for c in ENTRY_LINE_COLUMNS), cols["state"])]
    return lines


def change_lines_by_row(version: int):
    w = writer(version)

    def lines(cols: dict[str, list]) -> list[str]:
        return sorted(w.change_line(ev, fid, text) for ev, fid, text in zip(
            cols["event_code"], cols["federation_id"], cols["explanation"]))
    return lines


@dataclass(frozen=True)
class SheetWriter:
    """How one version of the canonical text is written from a sheet's columns."""

    version: int
    entry_lines: object  # (entry columns) -> lines in list order
    change_lines: object  # (change columns) -> lines in code-point order


#: the bulk writer of each version of the canonical text; a version not here is written row by row
WRITERS: dict[int, SheetWriter] = {1: SheetWriter(1, entry_lines_v1, change_lines_v1)}


def sheet_writer(version: int) -> SheetWriter:
    """The writer of ``version`` from columns (``ValueError`` for a version this program does not know): the bulk
    writer of version 1 for every version whose entry and change lines are version 1's (version 2 changed only
    how a change's explanation is written, which the sheet stores as text), else row by row."""
    found = WRITERS.get(version)
    if found is None:
        w, first = writer(version), writer(1)
        if (w.entry_line, w.change_line) == (first.entry_line, first.change_line):
            return SheetWriter(version, entry_lines_v1, change_lines_v1)
        found = SheetWriter(version, entry_lines_by_row(version), change_lines_by_row(version))
    return found


def text_parts(version: int, entries: dict[str, list], changes: dict[str, list], events: Sequence[str]
               ) -> tuple[list[str], list[str], str]:
    """The three parts of the canonical text of ``version``: entry lines, change lines (sorted), events' text."""
    w = sheet_writer(version)
    return w.entry_lines(entries), w.change_lines(changes), as_json(sorted(events))


def text_from_columns(version: int, entries: dict[str, list], changes: dict[str, list], events: Sequence[str]
                      ) -> bytes:
    """The canonical text of ``version`` written from decoded columns (its SHA-256 is the edition's digest)."""
    e, c, ev = text_parts(version, entries, changes, events)
    return ("".join(e) + "".join(c) + ev).encode("utf-8")


def text_from_sheet(version: int, sheet: Sheet, events: Sequence[str]) -> bytes:
    """The canonical text of ``version`` written from a stored sheet (``SheetError`` if it cannot be read)."""
    if sheet.format != FORMAT:
        raise SheetError("entries", f"sheet format {sheet.format} is unknown to this program (known: {FORMAT})")
    return text_from_columns(version, decode(sheet.entries, ENTRY_SCHEMA, "entries"),
                             decode(sheet.changes, CHANGE_SCHEMA, "changes"), events)
