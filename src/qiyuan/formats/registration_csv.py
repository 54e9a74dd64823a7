"""The registration list (注册名单): a CSV file of players an association registers.

Pure: no Django; ``today`` is passed in. Associations check and report their
registrations every year (Beijing–Shanghai §二(二)); the office reads the
list, checks every row — ID number against birth date and gender, grades,
dates, the same person twice — and lists every problem at once with its line
and column (``InputError``). The registry checks (association exists, ID
number not yet registered) are made by ``services.register_many``, which takes
the file's problems (``check_registration_file``) and lists both kinds together.

Columns (header row; English or Chinese names, any order; only name is
required): ``name`` 姓名, ``gender`` 性别 (M/F, 男/女), ``birth_date`` 出生日期
(2008-07-01, 2008/7/1, 20080701), ``id_type`` 证件类型 (resident/身份证,
passport/护照, other/其他; default resident), ``id_number`` 证件号码/身份证号,
``association`` 所属棋协 (code), ``club`` 俱乐部, ``name_latin`` 英文名/拼音,
``nationality`` 国籍, ``dan`` 段位, ``registered_on`` 注册日期.

The file may be UTF-8 (with or without the BOM Excel writes) or GB18030 (what
Chinese Excel saves as "CSV").
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from qiyuan.errors import problem
from qiyuan.formats.errors import InputError, Problem
from qiyuan.people import idnumber
from qiyuan.people.idnumber import id_problems
from qiyuan.people.grades import GRADE_SPELLINGS

#: Accepted header spellings → field name.
COLUMNS: dict[str, str] = {}
for _field, _names in {
    "name": ("name", "姓名"),
    "gender": ("gender", "sex", "性别"),
    "birth_date": ("birth_date", "birth", "born", "出生日期", "出生年月日"),
    "id_type": ("id_type", "证件类型"),
    "id_number": ("id_number", "id", "证件号码", "身份证号", "身份证号码"),
    "association": ("association", "所属棋协", "棋协", "所属单位"),
    "club": ("club", "俱乐部"),
    "name_latin": ("name_latin", "latin", "英文名", "拼音"),
    "nationality": ("nationality", "国籍"),
    "dan": ("dan", "段位", "段级位"),
    "registered_on": ("registered_on", "注册日期"),
}.items():
    for _n in _names:
        COLUMNS[_n.lower()] = _field

GENDERS = {"m": "M", "f": "F", "男": "M", "女": "F", "male": "M", "female": "F"}
ID_TYPES = {"resident": "resident", "身份证": "resident", "居民身份证": "resident", "passport": "passport",
            "护照": "passport", "other": "other", "其他": "other", "": "resident"}
_DATE = re.compile(r"(\d{4})[-/.年]?(\d{1,2})[-/.月]?(\d{1,2})日?")


@dataclass(frozen=True, slots=True)
class RegistrationRow:
    """One checked row of a registration list (``line``: its line in the file)."""

    line: int
    name: str
    gender: str
    birth_date: date | None
    id_type: str
    id_number: str
    association: str
    club: str
    name_latin: str
    nationality: str
    dan: str
    registered_on: date | None


def decode(data: bytes) -> str:
    """UTF-8 (BOM optional), else GB18030; ``UnicodeDecodeError`` when neither fits."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("gb18030")


def parse_date(text: str) -> date | None:
    """``2008-07-01``, ``2008/7/1``, ``20080701``, ``2008年7月1日``; ``None`` when blank; ``ValueError`` when bad."""
    text = text.strip()
    if not text:
        return None
    m = _DATE.fullmatch(text)
    if not m:
        raise ValueError(problem("{value!r} is not a date (YYYY-MM-DD)", value=text))
    try:
        return date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        raise ValueError(problem("{value!r} is not a calendar date", value=text)) from None


@dataclass(slots=True)
class CheckedList:
    """A registration list read and checked: every row read (a row with problems too, with the
    values that could be read, so the registry checks can still look at it) and every problem."""

    rows: list[RegistrationRow]
    problems: list[Problem]


def read_registration_csv(path: str | Path, *, today: date) -> list[RegistrationRow]:
    """Every row of the list, checked; ``InputError`` listing every problem otherwise."""
    return _rows_or_raise(check_registration_file(path, today=today))


def check_registration_file(path: str | Path, *, today: date) -> CheckedList:
    """The list's rows and its problems (``InputError`` only when the file cannot be read as a list)."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError([problem("cannot read the file: {why}", file=name, why=str(exc.strerror or exc))]) from None
    try:
        text = decode(data)
    except UnicodeDecodeError:
        raise InputError([problem("not a text file in UTF-8 or GB18030", file=name)]) from None
    return check_registration_csv(text, name, today=today)


def parse_registration_csv(text: str, name: str, *, today: date) -> list[RegistrationRow]:
    """The rows of a registration list given as text (``name`` is how problems name the file)."""
    return _rows_or_raise(check_registration_csv(text, name, today=today))


def _rows_or_raise(checked: CheckedList) -> list[RegistrationRow]:
    if checked.problems:
        raise InputError(checked.problems)
    return checked.rows


def check_registration_csv(text: str, name: str, *, today: date) -> CheckedList:
    """Every row of a registration list given as text and every problem found in it; only a file
    without a header or without the name column (not a registration list) is refused at once."""
    try:
        return _check_rows(text, name, today)
    except csv.Error as exc:  # e.g. a stray quote: the line where reading stopped
        raise InputError([problem("not a readable CSV file: {why}", file=name, why=str(exc))]) from None


def _check_rows(text: str, name: str, today: date) -> CheckedList:
    problems: list[Problem] = []
    reader = csv.reader(io.StringIO(text, newline=""))  # \r\n, \n or a bare \r all end a line
    header = next(reader, None)
    if not header or not any(h.strip() for h in header):
        raise InputError([problem("empty file: a header row is required", file=name, line=1)])
    fields: list[str | None] = []
    for h in header:
        key = COLUMNS.get(h.strip().lower())
        if key is None and h.strip():
            problems.append(problem("unknown column", file=name, line=1, column=h.strip()))
        if key is not None and key in fields:
            problems.append(problem("column given twice", file=name, line=1, column=h.strip()))
        fields.append(key)
    if "name" not in fields:
        problems.append(problem("the name (姓名) column is missing: is this a registration list?", file=name, line=1))
        raise InputError(problems)

    rows: list[RegistrationRow] = []
    seen_ids: dict[str, int] = {}
    for line, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) > len(fields):
            problems.append(problem("{n} cells, the header has {width}", file=name, line=line, n=len(cells),
                                    width=len(fields)))
            continue
        raw = {f: c.strip() for f, c in zip(fields, cells) if f}
        number = idnumber.normalize_id_number(raw.get("id_number", ""))
        if number in seen_ids:
            problems.append(problem("the same ID number as line {other_line} (a player listed twice)", file=name,
                                    line=line, column="id_number", other_line=seen_ids[number]))
        elif number:
            seen_ids[number] = line
        rows.append(_check_row(raw, name, line, today, problems))
    return CheckedList(rows, problems)


def _check_row(raw: dict[str, str], file: str, line: int, today: date, problems: list[Problem]) -> RegistrationRow:
    """The row as far as it can be read; each fault becomes a problem."""
    def bad(column: str, message: str | Problem, /, **params) -> None:
        problems.append(replace(message, file=file, line=line, column=column) if isinstance(message, Problem)
                        else problem(message, file=file, line=line, column=column, **params))

    player_name = raw.get("name", "")
    if not player_name:
        bad("name", problem("name is empty"))
    gender_text = raw.get("gender", "")
    gender = GENDERS.get(gender_text.lower(), "")
    if gender_text and not gender:
        bad("gender", problem("{value!r} is not M/F (男/女)", value=gender_text))
    dates = {}
    for column in ("birth_date", "registered_on"):
        try:
            dates[column] = parse_date(raw.get(column, ""))
        except ValueError as exc:
            bad(column, exc.args[0] if exc.args and isinstance(exc.args[0], Problem) else problem(str(exc)))
            dates[column] = None
    birth = dates["birth_date"]
    if birth and birth > today:
        bad("birth_date", problem("{value} is in the future", value=birth.isoformat()))
    id_type = ID_TYPES.get(raw.get("id_type", "").lower())
    if id_type is None:
        bad("id_type", problem("{value!r} is not resident/passport/other (身份证/护照/其他)", value=raw.get("id_type")))
        id_type = "resident"
    number = idnumber.normalize_id_number(raw.get("id_number", ""))
    if number:
        if id_type == "resident" and not idnumber.validate_resident_id(number):
            facts = idnumber.parse_resident_id(number)
            birth = birth or facts.birth_date
            gender = gender or facts.gender
        for why in id_problems(id_type, number, birth_date=birth, gender=gender or None, today=today):
            bad("id_number", why)
    if not gender and not gender_text and not (id_type == "resident" and number):
        bad("gender", problem("gender missing (and no resident ID to take it from)"))
    dan_text = raw.get("dan", "")
    dan = GRADE_SPELLINGS.get(dan_text.lower(), "") if dan_text else ""
    if dan_text and not dan:
        bad("dan", problem("{value!r} is not a grade (9d…1d, 1k…10k, 段/级)", value=dan_text))
    nationality = (raw.get("nationality") or "CHN").upper()
    if len(nationality) != 3 or not nationality.isascii() or not nationality.isalpha():
        bad("nationality", problem("{value!r} is not a 3-letter code", value=nationality))
    return RegistrationRow(
        line=line, name=player_name, gender=gender, birth_date=birth, id_type=id_type, id_number=number,
        association=raw.get("association", ""), club=raw.get("club", ""), name_latin=raw.get("name_latin", ""),
        nationality=nationality, dan=dan, registered_on=dates["registered_on"],
    )
