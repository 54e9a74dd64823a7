"""Prize categories inside an event (组别奖): women, age groups, rating bands.

Each category ranks its members in the event's own order (score, then the
tie-breaks); players tied overall share their category place too.  The
arbiter names them once (``XQP`` lines of the event file):

* ``women`` — the players entered as women (``w``);
* ``U8`` … ``U18`` (any ``U`` + age) — born in the event's year minus the age or later
  (U12 of a 2026 event: born in 2014 or later), by the birth date entered; a player
  without one is in no age group;
* ``rating 1800-1999`` (both ends included), ``rating -1799``, ``rating 2200-`` — by the
  rating entered for the event, or by his band floor when higher (分段等级分: his highest published rating of
  the last editions, from the entry list's or the registration's column, kept as ``XRB FLOOR WHO`` lines, who
  being his registry id or else his name), so a player whose rating fell stays in his band; unrated players
  are in no band.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from qiyuan.tournament.errors import EventInputError, problem
from qiyuan.tournament.model import Entrant, Tournament

_AGE = re.compile(r"(?:[Uu]\s*(\d{1,2})|(\d{1,2})\s*岁以下)\s*组?")
_BAND = re.compile(r"(?:rating|等级分)\s*(\d{0,4})\s*[-–~至]\s*(\d{0,4})\s*组?", re.IGNORECASE)
_BAND_WORDS = re.compile(r"等级分\s*(\d{1,4})\s*(以上|以下)\s*组?")


@dataclass(frozen=True, slots=True)
class Category:
    """One prize category: its key as written (``women``, ``U12``, ``rating 1800-1999``)."""

    key: str
    kind: str  # "women" | "age" | "rating"
    age: int | None = None
    low: int | None = None
    high: int | None = None

    def label(self) -> str:
        """How the printouts name it (Chinese, the federation's word)."""
        if self.kind == "women":
            return "女子组"
        if self.kind == "age":
            return f"U{self.age}组"
        if self.low is not None and self.high is not None:
            return f"等级分{self.low}-{self.high}组"
        return f"等级分{self.low}以上组" if self.low is not None else f"等级分{self.high}以下组"


def parse(text: str) -> Category:
    """A category from its key; ``EventInputError`` for one that is none."""
    s = " ".join(text.split())
    if s.lower() in ("women", "woman", "w", "女子", "女", "女子组"):
        return Category("women", "women")
    if m := _BAND_WORDS.fullmatch(s):  # 等级分1800以下组, as label() writes it
        s = f"rating -{int(m[1])}" if m[2] == "以下" else f"rating {int(m[1])}-"
    if m := _AGE.fullmatch(s):
        age = int(m[1] or m[2])
        if 4 <= age <= 25:
            return Category(f"U{age}", "age", age=age)
    if (m := _BAND.fullmatch(s)) and (m[1] or m[2]):
        low, high = (int(m[1]) if m[1] else None), (int(m[2]) if m[2] else None)
        if low is None or high is None or low <= high:
            key = f"rating {low if low is not None else ''}-{high if high is not None else ''}"
            return Category(key, "rating", low=low, high=high)
    raise EventInputError(problem("unknown prize category {category!r}: write women (女子), U8 … U18 (any U + age "
                                  "4-25, 12岁以下), or a rating band like 'rating 1800-1999' (等级分 1800-1999), "
                                  "'rating -1799', 'rating 2200-'", category=text))


def categories(t: Tournament) -> list[Category]:
    """The event's prize categories, in the order the arbiter named them."""
    out = []
    for line in t.extra.get("XQP", []):
        try:
            out.append(parse(line))
        except EventInputError:
            continue  # a line another version wrote: ignored, kept in the file
    return out


def set_categories(t: Tournament, keys: list[str]) -> list[Category]:
    """Name the event's prize categories (replacing the old ones; none removes them)."""
    faults, cats = [], []
    for key in keys:
        try:
            cats.append(parse(key))
        except EventInputError as exc:
            faults += exc.problems
    if any(c.kind == "age" for c in cats) and event_year(t) is None:
        faults.append(problem("age groups need the event's dates (set --start)"))
    if faults:
        raise EventInputError(faults)
    unique = list(dict.fromkeys(cats))
    if unique:
        t.extra["XQP"] = [c.key for c in unique]
    else:
        t.extra.pop("XQP", None)
    return unique


def band_limits(t: Tournament) -> list[int]:
    """The upper limits of the event's rating-band prizes ('rating 1800-1999' gives 1999), in order."""
    return sorted({c.high for c in categories(t) if c.kind == "rating" and c.high is not None})


def event_year(t: Tournament) -> int | None:
    d = t.start_date or t.end_date
    return d.year if d else None


def birth_year(e: Entrant) -> int | None:
    m = re.match(r"\s*(\d{4})", e.birth)
    return int(m[1]) if m else None


def _who(e: Entrant) -> str:
    return e.player_id.strip() or " ".join(e.name.split())


def keep_band_floors(t: Tournament, entrants) -> None:
    """Keep the band floors the entry list gave the ``entrants`` just entered (``XRB`` lines)."""
    floors = band_floors(t) | {_who(e): e.band_floor for e in entrants if e.band_floor is not None}
    if floors:
        t.extra["XRB"] = [f"{floor} {who}" for who, floor in floors.items()]


def band_floors(t: Tournament) -> dict[str, int]:
    """The band floors kept in the file: who (registry id or name) → floor; lines that do not read are ignored."""
    out = {}
    for line in t.extra.get("XRB", []):
        parts = line.split(maxsplit=1)
        if len(parts) == 2 and parts[0].isdigit():
            out[parts[1].strip()] = int(parts[0])
    return out


def band_rating(e: Entrant, floors: dict[str, int]) -> int | None:
    """The rating a rating band reads: the rating entered, or his band floor when higher."""
    floor = floors.get(_who(e))
    if e.rating is None:
        return None
    return max(e.rating, floor) if floor is not None else e.rating


def belongs(e: Entrant, c: Category, year: int | None, floors: dict[str, int] | None = None) -> bool:
    """Is ``e`` in category ``c`` (``year``: the event's; ``floors``: the band floors, ``band_floors``)?"""
    if c.kind == "women":
        return e.sex == "w"
    if c.kind == "age":
        born = birth_year(e)
        return born is not None and year is not None and born >= year - (c.age or 0)
    rating = band_rating(e, floors or {})
    if rating is None:
        return False
    return (c.low is None or rating >= c.low) and (c.high is None or rating <= c.high)


def ranked(t: Tournament, c: Category, rows: list) -> list[tuple[int, object]]:
    """The members' rows of the overall standings ``rows`` (ranked, each with ``rank`` and
    ``number``) with their place in the category: ``[(place, row), …]``."""
    year = event_year(t)
    floors = band_floors(t)
    by = {e.number: e for e in t.entrants}
    out: list[tuple[int, object]] = []
    last_rank = None
    for row in rows:
        e = by.get(row.number)
        if e is None or not belongs(e, c, year, floors):
            continue
        place = out[-1][0] if out and row.rank == last_rank else len(out) + 1
        out.append((place, row))
        last_rank = row.rank
    return out
