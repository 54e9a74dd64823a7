"""An entry list (报名表) as a file: CSV or xlsx with the headings of the report's 成绩 sheet.

Headings (any subset, 姓名 required; other columns — 名次, 签号, the rounds of a report — are
left alone): 姓名, 性别 (男/女, m/w), 身份证号, 段级位 (3段, 2级, 3d), 所属棋协, 等级分;
also 出生日期, 俱乐部, 编号 (the registry id), 国籍 (a 3-letter country code) and 分段等级分 (the rating-band floor:
the highest published rating of the last editions, which the rating-band prizes read) when present.  The heading row is the first row
holding 姓名 among the first ten (a report's 成绩 sheet has its title above it); in a workbook
the sheet 成绩 if there is one, else the first.  A CSV is UTF-8 (with or without BOM) or
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
            "等级分": "rating", "出生日期": "birth", "俱乐部": "club", "编号": "player_id", "国籍": "nationality",
            "分段等级分": "band_floor"}


def read_entries(path: Path, data: bytes | None = None) -> tuple[list[tuple[int, Entrant]], list[Problem]]:
    """``(row number, entrant)`` of every non-blank row, and the cells that do not read (to be
    reported with the rows' own problems); ``InputError`` when the file itself does not read."""
    label = str(path)
    if data is None:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise InputError(problem("cannot read: {why}", file=label, why=exc.strerror or str(exc))) from None
    if data[:4] == b"PK\x03\x04":
        rows = _xlsx_rows(data, label)
    else:
        rows = _csv_rows(data, label)
    return _entrants(rows, label)


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


def _xlsx_rows(data: bytes, label: str) -> list[list[str]]:
    from openpyxl import load_workbook

    try:
        wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        ws = wb["成绩"] if "成绩" in wb.sheetnames else wb.worksheets[0]
        rows = [["" if v is None else _cell(v) for v in row] for row in ws.iter_rows(values_only=True)]
        wb.close()
        return rows
    except Exception as exc:  # noqa: BLE001 — any broken workbook is the user's file, not our fault
        raise InputError(problem("not a readable xlsx workbook: {why}", file=label,
                                 why=str(exc)[:200] or type(exc).__name__)) from None


def _cell(v: object) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if hasattr(v, "isoformat"):
        return v.isoformat()[:10]
    return str(v)


def _entrants(rows: list[list[str]], label: str) -> tuple[list[tuple[int, Entrant]], list[Problem]]:
    head_at = next((i for i, r in enumerate(rows[:10]) if "姓名" in [c.strip() for c in r]), None)
    if head_at is None:
        raise InputError(problem("no heading 姓名 in the first ten rows: the columns are {headings}", file=label,
                                 headings="、".join(HEADINGS)))
    head = [c.strip() for c in rows[head_at]]
    columns = {HEADINGS[h]: j for j, h in enumerate(head) if h in HEADINGS}
    out: list[tuple[int, Entrant]] = []
    faults: list[Problem] = []
    for i, row in enumerate(rows[head_at + 1:], start=head_at + 2):
        values = {f: (row[j].strip() if j < len(row) and row[j] is not None else "") for f, j in columns.items()}
        if not any(values.values()):
            continue
        rating, floor = values.pop("rating", ""), values.pop("band_floor", "")
        e = Entrant(0, **{k: v for k, v in values.items()})
        for text, field, heading in ((rating, "rating", "等级分"), (floor, "band_floor", "分段等级分")):
            if not text:
                continue
            if text.isdigit():
                setattr(e, field, int(text))
            else:
                faults.append(problem("{heading} must be a whole number 1..9999, found {value!r}", file=label, line=i,
                                      column=heading, heading=heading, value=text))
        out.append((i, e))
    if not out:
        raise InputError(problem("no player rows under the headings", file=label))
    return out, faults
