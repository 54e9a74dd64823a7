"""A published rating list to start an office from (起始名册): the federation's last list, CSV or xlsx.

One row per player with his federation ID, name, rating and rated games; the
header names the columns in English or Chinese, any order (the office's own
``list export`` files are read as they are, title rows included):

* ``federation_id`` 编号 (also ``id``, ``ID``) — required, unique;
* ``name`` 姓名 — required;
* ``rating`` 等级分 — 100 to 3500, at most two decimals; empty: no rating yet;
* ``games`` 局数 (also 对局数) — rated games to date, 0 to 100000; required with a rating;
* ``gender`` 性别 (M/F, 男/女) and ``dan`` 段级位 — optional.

Pure: no Django. Every problem (file, line or cell, what is wrong) is collected
and one ``InputError`` carries them all; messages are templates (``problem``).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from qiyuan.errors import InputError, Problem, problem
from qiyuan.formats.registration_csv import decode
from qiyuan.people.grades import parse_grade

#: header spellings (lower case) → field
HEADERS: dict[str, str] = {}
for _field, _names in {
    "federation_id": ("federation_id", "id", "编号", "会员号", "注册号"),
    "name": ("name", "姓名"),
    "rating": ("rating", "等级分"),
    "games": ("games", "局数", "对局数"),
    "gender": ("gender", "性别"),
    "dan": ("dan", "段位", "段级位"),
}.items():
    for _n in _names:
        HEADERS[_n.lower()] = _field

GENDERS = {"m": "M", "f": "F", "男": "M", "女": "F"}
_RATING = re.compile(r"^\d{3,4}(?:\.\d{1,2})?$")
_GAMES = re.compile(r"^\d{1,6}$")
#: how many rows at the top may come before the header (titles of an exported list)
HEADER_SEARCH = 10


@dataclass(frozen=True, slots=True)
class SeedRow:
    line: int
    federation_id: str
    name: str
    rating: Decimal | None
    games: int
    gender: str  # M / F / ""
    dan: str  # normalised grade ('5d', '1k') or ""


def read_seed_list(path: Path, *, name: str | None = None) -> list[SeedRow]:
    """The list's rows; ``InputError`` with every problem. ``name``: how problems name the file (its own
    name, never a server path; default the path's name)."""
    path = Path(path)
    name = name or path.name
    rows = _xlsx_rows(path, name) if path.suffix.lower() in (".xlsx", ".xlsm") else _csv_rows(path, name)
    return _check(rows, name)


def _csv_rows(path: Path, name: str) -> list[tuple[int, list[str]]]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError([problem("cannot read the file ({reason})", file=name, code="seed.file",
                                  reason=exc.strerror or type(exc).__name__)]) from None
    try:
        text = decode(data)
    except UnicodeDecodeError:
        raise InputError([problem("not a text file in UTF-8 or GB18030", file=name, code="seed.file")]) from None
    if "\x00" in text:
        raise InputError([problem("not a CSV text file (NUL byte)", file=name, code="seed.file")])
    try:
        return [(i, [c.strip() for c in row]) for i, row in enumerate(csv.reader(io.StringIO(text, newline="")), 1)]
    except csv.Error:
        raise InputError([problem("not a readable CSV file", file=name, code="seed.file")]) from None


def _xlsx_rows(path: Path, name: str) -> list[tuple[int, list[str]]]:
    from openpyxl import load_workbook

    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception:  # noqa: BLE001 - openpyxl raises many kinds (zip, XML, KeyError…) for a damaged file
        raise InputError([problem("not a readable .xlsx workbook", file=name, code="seed.file")]) from None
    try:
        ws = wb.worksheets[0]
        out = []
        for i, row in enumerate(ws.iter_rows(values_only=True), start=1):
            out.append((i, [_cell_text(v) for v in row]))
            if i > 200_000:
                break
        return out
    except Exception:  # noqa: BLE001 - a damaged sheet: whatever openpyxl raises, the file is unreadable
        raise InputError([problem("not a readable .xlsx workbook", file=name, code="seed.file")]) from None
    finally:
        wb.close()


def _cell_text(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v).strip()


def _check(rows: list[tuple[int, list[str]]], name: str) -> list[SeedRow]:
    header_at = None
    for k, (_, cells) in enumerate(rows[:HEADER_SEARCH]):
        fields = {HEADERS.get(c.lower()) for c in cells}
        if {"federation_id", "name", "rating"} <= fields:
            header_at = k
            break
    if header_at is None:
        raise InputError([problem("no header row with the columns federation_id (编号), name (姓名) and rating "
                                  "(等级分) in the first {n} rows", file=name, code="seed.header", n=HEADER_SEARCH)])
    line0, header = rows[header_at]
    columns: dict[str, int] = {}
    problems: list[Problem] = []
    for i, cell in enumerate(header):
        f = HEADERS.get(cell.lower())
        if f is None:
            continue
        if f in columns:
            problems.append(problem("column {name!r} appears twice", file=name, line=line0, column=cell,
                                    code="seed.header", name=cell))
        columns[f] = i
    if problems:
        raise InputError(problems)
    out: list[SeedRow] = []
    first: dict[str, int] = {}
    for line, cells in rows[header_at + 1:]:
        if not any(cells):
            continue

        def cell(f: str) -> str:
            i = columns.get(f)
            return cells[i] if i is not None and i < len(cells) else ""

        before = len(problems)
        fid, pname, rating, games = cell("federation_id"), cell("name"), cell("rating"), cell("games")
        gender, dan = cell("gender"), cell("dan")
        if not fid:
            problems.append(problem("the federation ID is empty", file=name, line=line, column="federation_id",
                                    code="seed.row"))
        elif len(fid) > 16 or not re.fullmatch(r"[A-Za-z0-9_.-]+", fid):
            problems.append(problem("{value!r} is not a federation ID (letters, digits, at most 16)", file=name,
                                    line=line, column="federation_id", code="seed.row", value=fid[:40]))
        elif fid in first:
            problems.append(problem("federation ID {value} appears twice (first on line {first})", file=name,
                                    line=line, column="federation_id", code="seed.row", value=fid, first=first[fid]))
        else:
            first[fid] = line
        if not pname:
            problems.append(problem("the name is empty", file=name, line=line, column="name", code="seed.row"))
        elif len(pname) > 100:
            problems.append(problem("the name is longer than 100 characters", file=name, line=line, column="name",
                                    code="seed.row"))
        value = None
        if rating:
            if not _RATING.match(rating) or not Decimal(100) <= Decimal(rating) <= Decimal(3500):
                problems.append(problem("{value!r} is not a rating from 100 to 3500 (at most 2 decimals)", file=name,
                                        line=line, column="rating", code="seed.row", value=rating[:40]))
            else:
                value = Decimal(rating)
        n = 0
        if games:
            if not _GAMES.match(games) or int(games) > 100_000:
                problems.append(problem("{value!r} is not a number of games from 0 to 100000", file=name, line=line,
                                        column="games", code="seed.row", value=games[:40]))
            else:
                n = int(games)
        elif rating:
            problems.append(problem("a rated player needs his number of rated games", file=name, line=line,
                                    column="games", code="seed.row"))
        g = GENDERS.get(gender.lower(), None) if gender else ""
        if g is None:
            problems.append(problem("{value!r} is not a gender (M/F, 男/女)", file=name, line=line, column="gender",
                                    code="seed.row", value=gender[:40]))
        grade = parse_grade(dan) if dan else ""
        if grade is None:
            problems.append(problem("{value!r} is not a dan or kyu grade", file=name, line=line, column="dan",
                                    code="seed.row", value=dan[:40]))
        if len(problems) == before:
            out.append(SeedRow(line, fid, pname, value, n, g or "", grade or ""))
    if problems:
        raise InputError(problems)
    if not out:
        raise InputError([problem("the list has no players", file=name, code="seed.empty")])
    return out
