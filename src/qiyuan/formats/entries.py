"""An entry list (报名表) as a file: CSV or xlsx with the headings of the report's 成绩 sheet.

Headings (any subset, 姓名 required; other columns — 名次, the rounds of a report — are
left alone): 姓名, 性别 (男/女, m/w), 身份证号, 段级位 (初段, 三段, 一级, 3段, 2级, 3d, 1k), 所属棋协, 等级分;
also 出生日期, 俱乐部, 编号 (the registry id), 证件类型 (the document 身份证号 holds: 居民身份证, 护照,
其他证件 — or resident, passport, other) and 国籍 (a 3-letter country code) when present.  A blank
证件类型 is a resident ID, unless 国籍 names another country than CHN: then a passport.  分段等级分 (the rating-band
floor: the highest published rating of the last editions, which the rating-band prizes read) when present.  The heading
row is the first row holding 姓名 among the first ten (a report's 成绩 sheet has its title above it); in a
workbook the sheet 成绩 if there is one, else the first — and a report's 棋手资料 sheet (birth date, 证件类型,
国籍 by 签号) read onto it, so a report's own entrants enter again unchanged.  Rows with a 签号 each (1, 2, …
once each) enter in its order, as a report lists them by place.  A CSV is UTF-8 (with or without BOM) or
GB18030, as Excel on a Chinese Windows saves it.

Each row becomes an ``Entrant`` paired with its row number; the reader checks only the shape of
the file (readable, a 姓名 heading, 等级分 a whole number) — the entrants themselves are checked by
``qiyuan.tournament.eventfile.add_players`` with every problem at once, named by row.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from qiyuan.errors import InputError, Problem, problem
from qiyuan.formats.registration_csv import decode
from qiyuan.tournament.model import Entrant

#: heading -> Entrant field
HEADINGS = {"姓名": "name", "性别": "sex", "身份证号": "id_number", "段级位": "title", "所属棋协": "federation",
            "等级分": "rating", "出生日期": "birth", "俱乐部": "club", "编号": "player_id", "证件类型": "id_type",
            "国籍": "nationality", "分段等级分": "band_floor"}
#: how an entry list writes the document 身份证号 holds (证件类型) -> the registry's kind; the report writes
#: 居民身份证 / 护照 / 其他证件
DOCUMENTS = {"居民身份证": "resident", "身份证": "resident", "resident": "resident", "resident id": "resident",
             "护照": "passport", "passport": "passport",
             "其他证件": "other", "其他": "other", "other": "other"}
#: a report's sheet of details (``report_xlsx.DETAILS_SHEET``): its headings -> Entrant field
DETAILS_SHEET = "棋手资料"
_DETAILS = {"出生日期": "birth", "证件类型": "id_type", "国籍": "nationality"}


def read_entries(path: Path, data: bytes | None = None) -> tuple[list[tuple[int, Entrant]], list[Problem]]:
    """``(row number, entrant)`` of every non-blank row, and the cells that do not read (to be
    reported with the rows' own problems); ``InputError`` when the file itself does not read."""
    label = str(path)
    if data is None:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise InputError(problem("cannot read: {why}", file=label, why=exc.strerror or str(exc))) from None
    details: list[list[str]] = []
    if data[:4] == b"PK\x03\x04":
        rows, details = _xlsx_rows(data, label)
    else:
        rows = _csv_rows(data, label)
    return _entrants(rows, label, details)


def _csv_rows(data: bytes, label: str) -> list[list[str]]:
    try:
        text = decode(data)
    except UnicodeDecodeError:
        raise InputError(problem("not a CSV in UTF-8 or GB18030 (nor an xlsx workbook)", file=label)) from None
    if "\x00" in text:
        raise InputError(problem("not a CSV in UTF-8 or GB18030 (nor an xlsx workbook)", file=label))
    try:
        return [list(r) for r in csv.reader(io.StringIO(text, newline=""))]
    except csv.Error as exc:
        raise InputError(problem("not a readable CSV: {why}", file=label, why=str(exc))) from None


def _xlsx_rows(data: bytes, label: str) -> tuple[list[list[str]], list[list[str]]]:
    """The entrants' sheet's rows, and a report's 棋手资料 sheet's (none when it has none)."""
    from openpyxl import load_workbook

    try:
        wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        ws = wb["成绩"] if "成绩" in wb.sheetnames else wb.worksheets[0]
        rows = [["" if v is None else _cell(v) for v in row] for row in ws.iter_rows(values_only=True)]
        details = [] if DETAILS_SHEET not in wb.sheetnames or ws.title != "成绩" else [
            ["" if v is None else _cell(v) for v in row] for row in wb[DETAILS_SHEET].iter_rows(values_only=True)]
        wb.close()
        return rows, details
    except Exception as exc:  # noqa: BLE001 — any broken workbook is the user's file, not our fault
        raise InputError(problem("not a readable xlsx workbook: {why}", file=label,
                                 why=str(exc)[:200] or type(exc).__name__)) from None


def _cell(v: object) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if hasattr(v, "isoformat"):
        return v.isoformat()[:10]
    return str(v)


def _entrants(rows: list[list[str]], label: str,
              details: list[list[str]] = ()) -> tuple[list[tuple[int, Entrant]], list[Problem]]:
    head_at = next((i for i, r in enumerate(rows[:10]) if "姓名" in [c.strip() for c in r]), None)
    if head_at is None:
        raise InputError(problem("no heading 姓名 in the first ten rows: the columns are {headings}", file=label,
                                 headings="、".join(HEADINGS)))
    head = [c.strip() for c in rows[head_at]]
    columns = {HEADINGS[h]: j for j, h in enumerate(head) if h in HEADINGS}
    drawn = head.index("签号") if "签号" in head else None
    more = _details(details)
    out: list[tuple[int, Entrant]] = []
    numbers: list[str] = []
    faults: list[Problem] = []
    for i, row in enumerate(rows[head_at + 1:], start=head_at + 2):
        values = {f: (row[j].strip() if j < len(row) and row[j] is not None else "") for f, j in columns.items()}
        if not any(values.values()):
            continue
        number = row[drawn].strip() if drawn is not None and drawn < len(row) and row[drawn] else ""
        for field, value in more.get(number, {}).items():
            values[field] = values.get(field) or value
        rating, floor = values.pop("rating", ""), values.pop("band_floor", "")
        document = values.pop("id_type", "")
        e = Entrant(0, **{k: v for k, v in values.items()})
        for text, field, heading in ((rating, "rating", "等级分"), (floor, "band_floor", "分段等级分")):
            if not text:
                continue
            if text.isdigit():
                setattr(e, field, int(text))
            else:
                faults.append(problem("{heading} must be a whole number 1..9999, found {value!r}", file=label, line=i,
                                      column=heading, heading=heading, value=text))
        kind = DOCUMENTS.get(document.lower()) if document else _default_document(e.nationality)
        if kind is None:  # the number is then taken for what any document may hold: no second, wrong fault
            faults.append(problem("证件类型 must be 居民身份证, 护照 or 其他证件, found {value!r}", file=label, line=i,
                                  column="证件类型", value=document))
        e.id_type = kind or "other"
        out.append((i, e))
        numbers.append(number)
    if not out:
        raise InputError(problem("no player rows under the headings", file=label))
    if sorted(int(n) if n.isdigit() else 0 for n in numbers) == list(range(1, len(out) + 1)):
        out = [row for _n, row in sorted(zip(numbers, out, strict=True), key=lambda x: int(x[0]))]
    return out, faults


def _default_document(nationality: str) -> str:
    """A blank 证件类型: a resident ID (居民身份证), unless 国籍 names another country — then a passport."""
    country = nationality.strip().upper()
    return "passport" if country and country != "CHN" else "resident"


def _details(rows: list[list[str]]) -> dict[str, dict[str, str]]:
    """A report's 棋手资料 sheet: its cells by 签号 (``report_xlsx.DETAILS_HEADS``); unreadable rows are left out
    (the 成绩 sheet's own columns still enter; the sheet's own checks are ``read_report``'s)."""
    if not rows:
        return {}
    head = [c.strip() for c in rows[0]]
    if "签号" not in head:
        return {}
    at = head.index("签号")
    columns = {_DETAILS[h]: j for j, h in enumerate(head) if h in _DETAILS}
    return {row[at].strip(): {f: row[j].strip() for f, j in columns.items() if j < len(row) and row[j].strip()}
            for row in rows[1:] if at < len(row) and row[at].strip().isdigit()}
