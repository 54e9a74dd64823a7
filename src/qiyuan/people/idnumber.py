"""Identity document numbers: the 18-digit resident ID (公民身份号码, GB 11643-1999).

Pure: no Django, no clock (``today`` is passed in). The 18 characters are

* 1–6   region code (地址码): the province's two digits, then city and county;
* 7–14  date of birth (出生日期码) ``YYYYMMDD``;
* 15–17 sequence code (顺序码); the 17th digit is odd for men, even for women;
* 18    check character (校验码), ISO 7064 MOD 11-2 over the first 17 digits,
        ``0``–``9`` or ``X`` (for 10).

A number is checked against the record it belongs to as well: the birth date
and gender it encodes must agree with the player's. Every problem is reported
at once. Other documents (passports of foreign players, other papers) get a
format sanity check only.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from qiyuan.errors import Problem, problem

#: Weights of ISO 7064 MOD 11-2 for the 17 digits: 2^(17-i) mod 11.
CHECK_WEIGHTS: tuple[int, ...] = tuple(pow(2, 17 - i, 11) for i in range(17))
CHECK_CHARACTERS = "10X98765432"  # index: weighted sum mod 11

#: Province-level codes (省级行政区划代码) that start a resident ID's region code:
#: the 31 mainland provinces, Taiwan (71), Hong Kong (81), Macao (82) and the
#: residence permits of Taiwan residents (83).
PROVINCE_CODES: frozenset[str] = frozenset(
    "11 12 13 14 15 21 22 23 31 32 33 34 35 36 37 41 42 43 44 45 46 "
    "50 51 52 53 54 61 62 63 64 65 71 81 82 83".split()
)
EARLIEST_BIRTH_YEAR = 1900
#: the kinds of identity document (证件类型), as the registry records them
ID_TYPES = ("resident", "passport", "other")
RESIDENT_ID_LENGTH = 18

_RESIDENT_SHAPE = re.compile(r"[0-9]{17}[0-9X]")
_DIGITS17 = re.compile(r"[0-9]{17}")
_PASSPORT_SHAPE = re.compile(r"[A-Z0-9]{5,20}", re.ASCII)
_OTHER_SHAPE = re.compile(r"[A-Z0-9][A-Z0-9/]{2,31}")


@dataclass(frozen=True, slots=True)
class ResidentId:
    """The facts an 18-digit resident ID encodes."""

    number: str
    region_code: str
    birth_date: date
    sequence: str
    gender: str  # "M" or "F"
    check: str

    @property
    def province_code(self) -> str:
        return self.region_code[:2]


class InvalidIdNumber(ValueError):
    """An ID number with problems; ``problems`` lists them all."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


def normalize_id_number(number: str) -> str:
    """Full-width characters become ASCII (NFKC); spaces and hyphens go; ``x`` is written ``X``."""
    return re.sub(r"[\s-]+", "", unicodedata.normalize("NFKC", number or "")).upper()


def check_character(first17: str) -> str:
    """The ISO 7064 MOD 11-2 check character (校验码) of the first 17 digits."""
    if not _DIGITS17.fullmatch(first17):
        raise ValueError("the check character is computed from exactly 17 digits")
    total = sum(int(d) * w for d, w in zip(first17, CHECK_WEIGHTS))
    return CHECK_CHARACTERS[total % 11]


def gender_of_sequence(sequence: str) -> str:
    """``"M"`` when the sequence code's last digit is odd (男), ``"F"`` when even (女)."""
    return "M" if int(sequence[-1]) % 2 == 1 else "F"


def _birth_date(digits: str) -> date | None:
    try:
        return date(int(digits[0:4]), int(digits[4:6]), int(digits[6:8]))
    except ValueError:
        return None


def validate_resident_id(
    number: str,
    *,
    birth_date: date | None = None,
    gender: str | None = None,
    today: date | None = None,
) -> list[str]:
    """Every problem of an 18-digit resident ID, and of its agreement with the record, in English.

    ``birth_date`` and ``gender`` (``"M"``/``"F"``) are the player's record, when
    known; ``today`` enables the "birth date in the future" check. An empty
    list means the number is valid.
    """
    return [p.text() for p in resident_id_problems(number, birth_date=birth_date, gender=gender, today=today)]


#: The templates of ``resident_id_problems`` (each has a zh_Hans catalogue entry, prefixed "ID number: " as the
#: tournament core reports them).
RESIDENT_ID_TEMPLATES = (
    "ID number is empty",
    "wrong length: {n} characters, a resident ID has 18",
    "wrong length: {n} characters, a resident ID has 18 (a first-generation 15-digit number: give the 18-digit one)",
    "wrong characters: a resident ID is 17 digits and a check digit (0-9 or X)",
    "region code {region}: {province} is not a province code",
    "birth date {digits} is not a calendar date",
    "birth date {born} is before {year}",
    "birth date {born} is in the future",
    "bad check digit: {found}, the first 17 digits give {expected}",
    "birth date in the ID ({born}) differs from the record ({record})",
    "gender digit {digit} means male, the record says female",
    "gender digit {digit} means female, the record says male",
)


def resident_id_problems(
    number: str,
    *,
    birth_date: date | None = None,
    gender: str | None = None,
    today: date | None = None,
) -> list[Problem]:
    """``validate_resident_id`` as templated problems (``RESIDENT_ID_TEMPLATES``), to be shown in a page's language."""
    t = RESIDENT_ID_TEMPLATES
    n = normalize_id_number(number)
    if not n:
        return [problem(t[0])]
    if len(n) != RESIDENT_ID_LENGTH:
        first_generation = len(n) == 15 and n.isascii() and n.isdigit()
        return [problem(t[2] if first_generation else t[1], n=len(n))]
    if not _RESIDENT_SHAPE.fullmatch(n):
        return [problem(t[3])]
    problems: list[Problem] = []
    if n[:2] not in PROVINCE_CODES:
        problems.append(problem(t[4], region=n[:6], province=n[:2]))
    born = _birth_date(n[6:14])
    if born is None:
        problems.append(problem(t[5], digits=n[6:14]))
    elif born.year < EARLIEST_BIRTH_YEAR:
        problems.append(problem(t[6], born=born.isoformat(), year=EARLIEST_BIRTH_YEAR))
    elif today is not None and born > today:
        problems.append(problem(t[7], born=born.isoformat()))
    expected = check_character(n[:17])
    if n[17] != expected:
        problems.append(problem(t[8], found=n[17], expected=expected))
    if born is not None and birth_date is not None and born != birth_date:
        problems.append(problem(t[9], born=born.isoformat(), record=birth_date.isoformat()))
    if gender is not None and str(getattr(gender, "value", gender)) in ("M", "F"):
        encoded = gender_of_sequence(n[14:17])
        record = str(getattr(gender, "value", gender))
        if encoded != record:
            problems.append(problem(t[10] if encoded == "M" else t[11], digit=n[16]))
    return problems


def parse_resident_id(number: str, *, today: date | None = None) -> ResidentId:
    """The facts of a valid resident ID; ``InvalidIdNumber`` listing every problem otherwise."""
    problems = validate_resident_id(number, today=today)
    if problems:
        raise InvalidIdNumber(problems)
    n = normalize_id_number(number)
    born = _birth_date(n[6:14])
    assert born is not None
    return ResidentId(
        number=n,
        region_code=n[:6],
        birth_date=born,
        sequence=n[14:17],
        gender=gender_of_sequence(n[14:17]),
        check=n[17],
    )


def validate_document(id_type: str, number: str) -> list[str]:
    """Format sanity of a foreign or other identity document (passport: 5–20 letters/digits), in English."""
    return [p.text() for p in document_problems(id_type, number)]


def document_problems(id_type: str, number: str) -> list[Problem]:
    """``validate_document`` as templated problems, to be shown in a page's language."""
    n = normalize_id_number(number)
    if not n:
        return [problem("document number is empty")]
    shape = _PASSPORT_SHAPE if id_type == "passport" else _OTHER_SHAPE
    if not shape.fullmatch(n):
        if id_type == "passport":
            return [problem("document number {number!r} looks wrong: a passport number is 5-20 letters and digits",
                            number=n)]
        return [problem("document number {number!r} looks wrong: a document number is 3-32 letters, digits or '/'",
                        number=n)]
    return []


def id_problems(id_type: str, number: str, *, birth_date: date | None = None, gender: str | None = None,
                today: date | None = None) -> list[Problem]:
    """``validate_id`` as templated problems."""
    if id_type == "resident":
        return resident_id_problems(number, birth_date=birth_date, gender=gender, today=today)
    return document_problems(id_type, number)


def validate_id(
    id_type: str,
    number: str,
    *,
    birth_date: date | None = None,
    gender: str | None = None,
    today: date | None = None,
) -> list[str]:
    """Problems of an identity document of the given type (``resident``/``passport``/``other``)."""
    if id_type == "resident":
        return validate_resident_id(number, birth_date=birth_date, gender=gender, today=today)
    return validate_document(id_type, number)
