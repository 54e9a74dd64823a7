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
    """Every problem of an 18-digit resident ID, and of its agreement with the record.

    ``birth_date`` and ``gender`` (``"M"``/``"F"``) are the player's record, when
    known; ``today`` enables the "birth date in the future" check. An empty
    list means the number is valid.
    """
    n = normalize_id_number(number)
    if not n:
        return ["ID number is empty"]
    if len(n) != RESIDENT_ID_LENGTH:
        hint = " (a first-generation 15-digit number: give the 18-digit one)" if len(n) == 15 and n.isascii() and n.isdigit() else ""
        return [f"wrong length: {len(n)} characters, a resident ID has 18{hint}"]
    if not _RESIDENT_SHAPE.fullmatch(n):
        return ["wrong characters: a resident ID is 17 digits and a check digit (0-9 or X)"]
    problems: list[str] = []
    if n[:2] not in PROVINCE_CODES:
        problems.append(f"region code {n[:6]}: {n[:2]} is not a province code")
    born = _birth_date(n[6:14])
    if born is None:
        problems.append(f"birth date {n[6:14]} is not a calendar date")
    elif born.year < EARLIEST_BIRTH_YEAR:
        problems.append(f"birth date {born.isoformat()} is before {EARLIEST_BIRTH_YEAR}")
    elif today is not None and born > today:
        problems.append(f"birth date {born.isoformat()} is in the future")
    expected = check_character(n[:17])
    if n[17] != expected:
        problems.append(f"bad check digit: {n[17]}, the first 17 digits give {expected}")
    if born is not None and birth_date is not None and born != birth_date:
        problems.append(f"birth date in the ID ({born.isoformat()}) differs from the record ({birth_date.isoformat()})")
    if gender is not None and str(getattr(gender, "value", gender)) in ("M", "F"):
        encoded = gender_of_sequence(n[14:17])
        record = str(getattr(gender, "value", gender))
        if encoded != record:
            word = {"M": "male", "F": "female"}
            problems.append(
                f"gender digit {n[16]} means {word[encoded]}, the record says {word[record]}"
            )
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
    """Format sanity of a foreign or other identity document (passport: 5–20 letters/digits)."""
    n = normalize_id_number(number)
    if not n:
        return ["document number is empty"]
    shape = _PASSPORT_SHAPE if id_type == "passport" else _OTHER_SHAPE
    if not shape.fullmatch(n):
        what = "a passport number is 5-20 letters and digits" if id_type == "passport" else (
            "a document number is 3-32 letters, digits or '/'"
        )
        return [f"document number {n!r} looks wrong: {what}"]
    return []


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
