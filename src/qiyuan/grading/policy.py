"""The federation's grant policy (段级位授予办法): a TOML settings file, read and checked.

The texts fix the frame and leave the numbers to the federation:

* 第四条 — the grades: 九段 … 初段, 一级 … 十级 (``qiyuan.people.grades``);
* 第五条 — the highest dan granted is at first 六段 and is raised step by step to
  九段: the policy's ``[[cap]]`` list, each step with the date it took effect;
* 「在全国五子棋邀请赛等国内大赛中获得一定名次，即可获得相应段位」 — a placing in a
  recognised event earns a grade: the policy's event classes (``[[class]]``), each
  saying which events it covers (organiser level, national flag, rating list) and
  its placing → grade tables (``open`` for every player, ``women`` for a woman's
  placing among the women: BJSH §9(四));
* BJSH §9 — the conditions of a grading event (等级赛): ``[conditions]``;
* BJSH §13(二) — the bodies whose grades are recognised: ``[[body]]`` (and, with
  ``member_associations``, the registered associations).

``policy_from_toml`` reads the text and reports *every* problem at once, each
with its line and key (``InputError``). Pure: no Django, no files.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from qiyuan.errors import N_, InputError, Problem, problem
from qiyuan.grading.toml_lines import Path, key_lines, line_of, path_text
from qiyuan.people.grades import is_dan, parse_grade, strength
from qiyuan.rating.eligibility import OrganiserLevel


class PolicyError(InputError):
    """A grant policy file that cannot be used: every problem, with its line and key."""


#: What a grant above the cap does: the cap is granted instead, or nothing is.
ABOVE_CAP_CHOICES = ("grant_cap", "none")


@dataclass(frozen=True, slots=True)
class CapStep:
    """第五条: from ``since`` on, the highest dan granted is ``grade``."""

    since: date
    grade: str


@dataclass(frozen=True, slots=True)
class Body:
    """A body whose grades are recognised (BJSH §13(二)); ``capped``: its grants obey the cap (第五条)."""

    name: str
    name_en: str = ""
    capped: bool = True


@dataclass(frozen=True, slots=True)
class PlacingRow:
    """Placings ``first``…``last`` (名次) earn ``grade``."""

    first: int
    last: int
    grade: str

    @property
    def placings(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


@dataclass(frozen=True, slots=True)
class EventClass:
    """A class of grading events (比赛等级) and its standards (称号标准).

    An event belongs to the class when it meets every criterion given: its organiser's level is one of
    ``organiser_levels``, its national flag is ``national``, its rating list is one of ``lists``, and it is
    a women's event (``women_only`` true) or a mixed one (false). An empty criterion accepts any event.
    """

    name: str
    title: str = ""
    title_en: str = ""
    organiser_levels: tuple[str, ...] = ()
    national: bool | None = None
    lists: tuple[str, ...] = ()
    women_only: bool | None = None
    open: tuple[PlacingRow, ...] = ()  # every player, by his placing in the event
    women: tuple[PlacingRow, ...] = ()  # a woman, by her placing among the women (BJSH §9(四))

    def mismatches(self, *, organiser_level: str, national: bool, list_code: str, women_only: bool) -> list[Problem]:
        """Why an event does not belong to this class (empty: it does)."""
        out = []
        if self.organiser_levels and organiser_level not in self.organiser_levels:
            out.append(problem("the organiser level is {level}; class {cls} covers {levels}", level=organiser_level,
                               cls=self.name, levels=", ".join(self.organiser_levels)))
        if self.national is not None and national != self.national:
            out.append(problem("class {cls} covers only national events", cls=self.name) if self.national else
                       problem("class {cls} covers only events that are not national", cls=self.name))
        if self.lists and list_code not in self.lists:
            out.append(problem("the event is on list {list}; class {cls} covers {lists}", list=list_code,
                               cls=self.name, lists=", ".join(self.lists)))
        if self.women_only is not None and women_only != self.women_only:
            out.append(problem("class {cls} covers only women's events", cls=self.name) if self.women_only else
                       problem("class {cls} covers only mixed events", cls=self.name))
        return out


def table_grade(table: tuple[PlacingRow, ...], placing: int | None) -> PlacingRow | None:
    """The row of ``table`` that covers ``placing`` (None: the placing earns nothing)."""
    if placing is None:
        return None
    return next((row for row in table if row.first <= placing <= row.last), None)


@dataclass(frozen=True, slots=True)
class Conditions:
    """BJSH §9: a grading event (等级赛) must have at least ``min_players`` players (§9(一)), at most
    ``max_unrated_share`` of them unrated (§9(一)), a national arbiter in charge (§9(二)), and its standard
    recorded in the office before its start date (§9(三))."""

    min_players: int = 12
    max_unrated_share: Fraction = Fraction(1, 5)
    national_arbiter_in_charge: bool = True
    standard_before_start: bool = True


@dataclass(frozen=True, slots=True)
class GrantPolicy:
    """A federation's grant policy (see the module's docstring); ``federation`` is the granting body of the
    grants it makes (and of their certificates)."""

    name: str
    federation: str
    caps: tuple[CapStep, ...]
    title: str = ""
    title_en: str = ""
    federation_en: str = ""
    serial_prefix: str = ""
    only_raise: bool = True
    above_cap: str = "grant_cap"
    conditions: Conditions = Conditions()
    bodies: tuple[Body, ...] = ()
    member_associations: bool = False
    nationalities: tuple[str, ...] = ()
    classes: tuple[EventClass, ...] = ()

    def cap_on(self, day: date) -> str | None:
        """第五条: the highest dan grantable on ``day`` (None before the first step)."""
        grade = None
        for step in self.caps:
            if step.since <= day:
                grade = step.grade
        return grade

    def body(self, name: str) -> Body | None:
        """The recognised body called ``name`` (the federation itself is one, capped)."""
        key = (name or "").strip()
        if self.federation and key == self.federation:
            return Body(self.federation, self.federation_en, True)
        return next((b for b in self.bodies if b.name == key), None)

    def event_class(self, name: str) -> EventClass | None:
        return next((c for c in self.classes if c.name == name), None)


#: What the texts themselves fix, in force while the office has no policy installed: 第五条's cap of 六段 from
#: the start, the bodies of BJSH §13(二) and the member associations, no event class (the table of placings is
#: the federation's to set, so no event grants) and no federation of its own (no certificates).
TEXTS_POLICY = GrantPolicy(
    name="texts", federation="", caps=(CapStep(date(1900, 1, 1), "6d"),),
    title="第四条、第五条；京沪细则§9、§13(二)", title_en="The texts alone (no policy installed)",
    bodies=(Body("中国棋院", "China Qiyuan", True), Body("RIF", "Renju International Federation", False),
            Body("日本连珠社", "Japanese Renju Association", False)),
    member_associations=True,
)


# ---------------------------------------------------------------------------------------------- reading

_TOP = {"name", "title", "title_en", "federation", "federation_en", "serial_prefix", "only_raise", "above_cap",
        "cap", "conditions", "body", "member_associations", "nationalities", "class"}
_CONDITIONS = {"min_players", "max_unrated_share", "national_arbiter_in_charge", "standard_before_start"}
_BODY = {"name", "name_en", "capped"}
_CLASS = {"name", "title", "title_en", "organiser_levels", "national", "lists", "women_only", "open", "women"}
_CAP = {"since", "grade"}
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_PREFIX = re.compile(r"[A-Z0-9-]{0,12}")
_PLACINGS = re.compile(r"\s*(\d{1,4})\s*(?:[-–~]\s*(\d{1,4})\s*)?")
_TOML_WHERE = re.compile(r"\(at line (\d+), column (\d+)\)")
_LEVELS = tuple(level.value for level in OrganiserLevel)


class _Reader:
    """Collects every problem of one policy text, each placed by its key's line."""

    def __init__(self, text: str, file: str):
        self.file = file
        self.lines = key_lines(text)
        self.problems: list[Problem] = []

    def bad(self, path: Path, message: str, **params: object) -> None:
        self.problems.append(problem(message, file=self.file, line=line_of(self.lines, path),
                                     column=path_text(path) or None, code="grades.policy", **params))

    def unknown(self, data: dict, known: set[str], path: Path) -> None:
        for key in data:
            if key not in known:
                self.bad(path + (key,), N_("unknown setting {key!r} (known: {known})"), key=key,
                         known=", ".join(sorted(known)))

    def text(self, data: dict, key: str, path: Path, *, required: bool = False) -> str:
        value = data.get(key, "")
        if not isinstance(value, str):
            self.bad(path + (key,), N_("expected a text, found {value!r}"), value=value)
            return ""
        if required and not value.strip():
            self.bad(path + (key,), N_("{key} is missing or empty"), key=key)
        return value.strip()

    def flag(self, data: dict, key: str, path: Path, default: bool | None) -> bool | None:
        value = data.get(key, default)
        if value is not None and not isinstance(value, bool):
            self.bad(path + (key,), N_("expected true or false, found {value!r}"), value=value)
            return default
        return value

    def texts(self, data: dict, key: str, path: Path) -> tuple[str, ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.bad(path + (key,), N_("expected a list of texts, found {value!r}"), value=value)
            return ()
        return tuple(v.strip() for v in value)

    def grade(self, value: Any, path: Path) -> str | None:
        grade = parse_grade(value) if isinstance(value, str) else None
        if grade is None:
            self.bad(path, N_("{value!r} is not a grade (9d…1d, 1k…10k, or in words)"), value=value)
        return grade

    def table(self, value: Any, path: Path) -> tuple[PlacingRow, ...]:
        """A placing → grade table: keys "1", "2-3", …; each placing once; a better placing never earns less."""
        if not isinstance(value, dict):
            self.bad(path, N_("expected a table of placings, e.g. \"1\" = \"5d\", \"2-3\" = \"4d\""))
            return ()
        rows = []
        for key, grade_text in value.items():
            m = _PLACINGS.fullmatch(key)
            first, last = (int(m.group(1)), int(m.group(2) or m.group(1))) if m else (0, 0)
            if not m or first < 1 or last < first:
                self.bad(path + (key,), N_("{key!r} is not a placing or a range of placings such as \"4-8\""), key=key)
                continue
            grade = self.grade(grade_text, path + (key,))
            if grade is not None:
                rows.append((PlacingRow(first, last, grade), path + (key,)))
        rows.sort(key=lambda r: r[0].first)
        for (a, _), (b, b_path) in zip(rows, rows[1:]):
            if b.first <= a.last:
                self.bad(b_path, N_("placings {b} overlap placings {a}"), a=a.placings, b=b.placings)
            elif strength(b.grade) > strength(a.grade):
                self.bad(b_path, N_("placings {b} earn {b_grade}, more than the better placings {a} ({a_grade})"),
                         a=a.placings, b=b.placings, a_grade=a.grade, b_grade=b.grade)
        return tuple(r for r, _ in rows)


def _day(value: Any) -> date | None:
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            return None
    return None


def _share(value: Any) -> Fraction | None:
    """``"0.20"``, ``"20%"`` or 0/1 → an exact fraction in [0, 1]; a TOML float is refused (not exact)."""
    if isinstance(value, bool) or isinstance(value, float):
        return None
    text = str(value).strip()
    percent = text.endswith("%")
    try:
        share = Fraction(Decimal(text.rstrip("%").strip()))
    except (InvalidOperation, ValueError):
        return None
    share = share / 100 if percent else share
    return share if 0 <= share <= 1 else None


def policy_from_mapping(data: dict, *, file: str = "policy", text: str = "") -> GrantPolicy:
    """A policy from parsed TOML data (``text``, when given, places each problem on its line)."""
    r = _Reader(text, file)
    r.unknown(data, _TOP, ())
    name = r.text(data, "name", (), required=True)
    if name and not _NAME.fullmatch(name):
        r.bad(("name",), N_("name {name!r}: use lower-case letters, digits, - and _ (up to 40)"), name=name)
    federation = r.text(data, "federation", (), required=True)
    prefix = r.text(data, "serial_prefix", ())
    if not _PREFIX.fullmatch(prefix):
        r.bad(("serial_prefix",), N_("serial_prefix {value!r}: up to 12 capital letters, digits and -"), value=prefix)
    above_cap = data.get("above_cap", "grant_cap")
    if above_cap not in ABOVE_CAP_CHOICES:
        r.bad(("above_cap",), N_("above_cap {value!r}: expected one of {choices}"), value=above_cap,
              choices=", ".join(ABOVE_CAP_CHOICES))
        above_cap = "grant_cap"

    caps = _caps(r, data.get("cap"))
    conditions = _conditions(r, data.get("conditions", {}))
    bodies = _bodies(r, data.get("body", []), federation)
    nationalities = r.texts(data, "nationalities", ())
    for n in nationalities:
        if not re.fullmatch(r"[A-Z]{3}", n):
            r.bad(("nationalities",), N_("nationality {value!r} is not a 3-letter code such as CHN"), value=n)
    classes = _classes(r, data.get("class", []))
    if r.problems:
        raise PolicyError(sorted(r.problems, key=lambda p: p.line or 0))  # in the file's order
    return GrantPolicy(
        name=name, federation=federation, caps=caps, title=r.text(data, "title", ()),
        title_en=r.text(data, "title_en", ()), federation_en=r.text(data, "federation_en", ()), serial_prefix=prefix,
        only_raise=bool(r.flag(data, "only_raise", (), True)), above_cap=above_cap, conditions=conditions,
        bodies=bodies, member_associations=bool(r.flag(data, "member_associations", (), False)),
        nationalities=nationalities, classes=classes,
    )


def _caps(r: _Reader, value: Any) -> tuple[CapStep, ...]:
    """第五条: at least one step; dates ascending, each once; the cap only rises; dan grades only."""
    if not isinstance(value, list) or not value:
        r.bad(("cap",), N_("the cap is missing: add [[cap]] with since = \"YYYY-MM-DD\" and grade = \"6d\" (Art. 5)"))
        return ()
    steps: list[tuple[CapStep, Path]] = []
    for i, item in enumerate(value):
        path: Path = ("cap", i)
        if not isinstance(item, dict):
            r.bad(path, N_("expected a [[cap]] table"))
            continue
        r.unknown(item, _CAP, path)
        since = _day(item.get("since"))
        if since is None:
            r.bad(path + ("since",), N_("since {value!r} is not a date YYYY-MM-DD"), value=item.get("since"))
        grade = r.grade(item.get("grade"), path + ("grade",))
        if grade is not None and not is_dan(grade):
            r.bad(path + ("grade",), N_("the cap is a dan grade (Art. 5: 6 dan at first, up to 9 dan); found {grade}"),
                  grade=grade)
            grade = None
        if since is not None and grade is not None:
            steps.append((CapStep(since, grade), path))
    steps.sort(key=lambda s: s[0].since)
    for (a, _), (b, b_path) in zip(steps, steps[1:]):
        if b.since == a.since:
            r.bad(b_path, N_("two cap steps take effect on {day}"), day=b.since.isoformat())
        elif strength(b.grade) < strength(a.grade):
            r.bad(b_path, N_("the cap falls from {a} to {b} on {day}; Art. 5 only raises it"), a=a.grade, b=b.grade,
                  day=b.since.isoformat())
    return tuple(s for s, _ in steps)


def _conditions(r: _Reader, value: Any) -> Conditions:
    if not isinstance(value, dict):
        r.bad(("conditions",), N_("expected a [conditions] table"))
        return Conditions()
    path: Path = ("conditions",)
    r.unknown(value, _CONDITIONS, path)
    base = Conditions()
    n = value.get("min_players", base.min_players)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        r.bad(path + ("min_players",), N_("expected a whole number ≥ 0, found {value!r}"), value=n)
        n = base.min_players
    share = _share(value.get("max_unrated_share", "0.20"))
    if share is None:
        r.bad(path + ("max_unrated_share",), N_("expected a share 0–1 written as a text (\"0.20\" or \"20%\"), "
              "found {value!r}"), value=value.get("max_unrated_share"))
        share = base.max_unrated_share
    return Conditions(
        min_players=n, max_unrated_share=share,
        national_arbiter_in_charge=bool(r.flag(value, "national_arbiter_in_charge", path, True)),
        standard_before_start=bool(r.flag(value, "standard_before_start", path, True)),
    )


def _bodies(r: _Reader, value: Any, federation: str) -> tuple[Body, ...]:
    if not isinstance(value, list):
        r.bad(("body",), N_("expected [[body]] tables"))
        return ()
    out: list[Body] = []
    for i, item in enumerate(value):
        path: Path = ("body", i)
        if not isinstance(item, dict):
            r.bad(path, N_("expected a [[body]] table"))
            continue
        r.unknown(item, _BODY, path)
        name = r.text(item, "name", path, required=True)
        if name and (name == federation or any(b.name == name for b in out)):
            r.bad(path + ("name",), N_("body {name!r} is listed twice (the federation is a body already)"), name=name)
            continue
        if name:
            out.append(Body(name, r.text(item, "name_en", path), bool(r.flag(item, "capped", path, True))))
    return tuple(out)


def _classes(r: _Reader, value: Any) -> tuple[EventClass, ...]:
    if not isinstance(value, list):
        r.bad(("class",), N_("expected [[class]] tables"))
        return ()
    out: list[EventClass] = []
    for i, item in enumerate(value):
        path: Path = ("class", i)
        if not isinstance(item, dict):
            r.bad(path, N_("expected a [[class]] table"))
            continue
        r.unknown(item, _CLASS, path)
        name = r.text(item, "name", path, required=True)
        if name and not _NAME.fullmatch(name):
            r.bad(path + ("name",), N_("class name {name!r}: use lower-case letters, digits, - and _"), name=name)
        elif name and any(c.name == name for c in out):
            r.bad(path + ("name",), N_("two classes are called {name!r}"), name=name)
        levels = r.texts(item, "organiser_levels", path)
        for level in levels:
            if level not in _LEVELS:
                r.bad(path + ("organiser_levels",), N_("organiser level {level!r} is not one of {known}"), level=level,
                      known=", ".join(_LEVELS))
        open_ = r.table(item["open"], path + ("open",)) if "open" in item else ()
        women = r.table(item["women"], path + ("women",)) if "women" in item else ()
        if not item.get("open") and not item.get("women"):
            r.bad(path, N_("class {name!r} has no standard: give [class.open] and/or [class.women] placings"),
                  name=name or str(i + 1))
        out.append(EventClass(
            name=name, title=r.text(item, "title", path), title_en=r.text(item, "title_en", path),
            organiser_levels=levels, national=r.flag(item, "national", path, None), lists=r.texts(item, "lists", path),
            women_only=r.flag(item, "women_only", path, None), open=open_, women=women,
        ))
    return tuple(out)


def policy_from_toml(text: str, *, file: str = "policy.toml") -> GrantPolicy:
    """Read a policy file's text; ``PolicyError`` lists every problem with its line."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where = _TOML_WHERE.search(str(exc))  # tomllib puts the position only in its message
        line, column = (int(where.group(1)), int(where.group(2))) if where else (None, None)
        raise PolicyError([problem("not valid TOML: {error}", file=file, line=line, column=column,
                                   code="grades.policy", error=_TOML_WHERE.sub("", str(exc)).strip())]) from None
    return policy_from_mapping(data, file=file, text=text)



#: the example policy shipped with the package (documented as an example, not as official)
EXAMPLE_FILE = "grant-policy-example.toml"


def example_text() -> str:
    """The example policy's TOML text (``qiyuan/data/grant-policy-example.toml``)."""
    return (resources.files("qiyuan") / "data" / EXAMPLE_FILE).read_text(encoding="utf-8")
