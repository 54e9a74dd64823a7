"""What an organiser registers (``Details``), and its validation: every problem at once, nothing written.

Bad input — a date that is not a date, in the past, or an end before the
start; an unknown list, association or arbiter; a time control the rules
cannot read; a number of rounds or players out of range — is refused here,
before anything is checked against the rules or stored. The command line and
the desk pass what was typed (dates as ``YYYY-MM-DD`` text, numbers as digits)
or typed values; both are read the same way.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from qiyuan.calendar.checks import RULES_OF_PLAY, TextRules, in_home_regions
from qiyuan.errors import N_, Problem, problem
from qiyuan.office.event_registration.errors import CalendarError
from qiyuan.office.federation.models import Arbiter, Association
from qiyuan.office.ratings.models import RatingList
from qiyuan.rating.eligibility import OrganiserLevel, TimeControl, parse_time_control
from qiyuan.rating.model import EventFormat

#: the limits of what can be registered (beyond them the input is a mistake)
MAX_ROUNDS = 99
MAX_PLAYERS = 9999
MAX_DAYS = 366
MAX_MINUTES = 24 * 60  # a first period of a day
MAX_INCREMENT = 3600
#: the stored fields' lengths
_LENGTHS = {"name": 200, "name_en": 200, "city": 100, "organiser": 200, "time_control": 100}


@dataclass(frozen=True)
class Details:
    """A registration as entered. Dates: ``date`` or ``YYYY-MM-DD``; numbers: ``int`` or digits."""

    name: str = ""
    list_code: str = ""  # the rating list (等级分名册) it is to be rated on; "" = the only list
    start_date: date | str | None = None
    end_date: date | str | None = None
    city: str = ""
    rounds: int | str | None = None  # planned rounds (轮数)
    expected_players: int | str | None = None
    time_control: str = ""  # 用时, as organisers write it: "每方60分钟", "45 min + 30 s"
    chief_arbiter: str = ""  # 裁判长, by name (the registry's arbiters)
    arbiters: Sequence[str] = ()  # 裁判员
    format: str = EventFormat.SWISS.value
    organiser: str = ""
    organiser_level: str = OrganiserLevel.STATE.value
    association: str = ""  # the association organising or approving it, by code
    national: bool = False
    international: bool = False
    agreed_by_parties: bool = False
    rules_of_play: str = "national"
    rif_approved: bool = False
    grants_grades: bool = False  # 等级赛: grants dan/kyu titles
    standard_published_on: date | str | None = None  # the day its title standard was published
    inside_regions: bool | None = None  # None: from the city (the rule set's home regions)
    name_en: str = ""


#: the fields an amendment may change (everything but the list it is rated on)
AMENDABLE = tuple(f.name for f in dataclasses.fields(Details) if f.name != "list_code")


@dataclass(frozen=True)
class Valid:
    """Validated details: typed, with the registry's records."""

    details: Details
    rating_list: RatingList
    start: date
    end: date
    rounds: int
    expected_players: int
    time_control: TimeControl
    chief: Arbiter
    arbiters: tuple[Arbiter, ...]  # the other arbiters
    association: Association | None
    standard_published_on: date | None
    inside_regions: bool | None


_TEXT_FIELDS = ("name", "name_en", "list_code", "city", "time_control", "chief_arbiter", "format", "organiser",
                "organiser_level", "association", "rules_of_play")
#: each field's own messages (every template whole, so each is translated as a whole)
_CONTROL = {
    "name": N_("the name contains control characters"), "name_en": N_("the English name contains control characters"),
    "list_code": N_("the list code contains control characters"), "city": N_("the city contains control characters"),
    "time_control": N_("the time control contains control characters"),
    "chief_arbiter": N_("the chief arbiter's name contains control characters"),
    "format": N_("the format contains control characters"), "organiser": N_("the organiser contains control characters"),
    "organiser_level": N_("the organiser level contains control characters"),
    "association": N_("the association contains control characters"),
    "rules_of_play": N_("the rules of play contain control characters"),
}
_TOO_LONG = {
    "name": N_("the name is longer than {limit} characters"), "name_en": N_("the English name is longer than {limit} characters"),
    "city": N_("the city is longer than {limit} characters"), "organiser": N_("the organiser is longer than {limit} characters"),
    "time_control": N_("the time control is longer than {limit} characters"),
}
_DATES = {
    "start": (N_("the start date is missing"), N_("the start date {value!r} is not a date (write YYYY-MM-DD)")),
    "end": (N_("the end date is missing"), N_("the end date {value!r} is not a date (write YYYY-MM-DD)")),
    "standard": ("", N_("the date the title standard was published {value!r} is not a date (write YYYY-MM-DD)")),
}
_COUNTS = {
    "rounds": (N_("the number of rounds is missing"), N_("the number of rounds {value!r} is not a whole number"),
               N_("the number of rounds must be {low}–{high}, not {value}")),
    "players": (N_("the number of expected players is missing"),
                N_("the number of expected players {value!r} is not a whole number"),
                N_("the number of expected players must be {low}–{high}, not {value}")),
}
_FLAGS = ("national", "international", "agreed_by_parties", "rif_approved", "grants_grades")


def _cleaned(d: Details, problems: list[Problem]) -> Details:
    """``d`` with every text a ``str``, the arbiters a tuple of names and the yes/no fields booleans (whatever
    a caller passed): what the checks below read."""
    texts = {f: "" if getattr(d, f) is None else str(getattr(d, f)) for f in _TEXT_FIELDS}
    for f, value in texts.items():
        if _control_characters(value.replace("\n", " ").replace("\t", " ")):
            problems.append(problem(_CONTROL[f], code="calendar.input"))
            texts[f] = ""  # never looked up nor stored
    flags = {}
    for f in _FLAGS:
        value = getattr(d, f)
        if not isinstance(value, bool):
            problems.append(problem("{field} must be true or false, not {value!r}", code="calendar.input",
                                    field=f, value=value))
            value = False
        flags[f] = value
    inside = d.inside_regions
    if inside is not None and not isinstance(inside, bool):
        problems.append(problem("{field} must be true, false or none, not {value!r}", code="calendar.input",
                                field="inside_regions", value=inside))
        inside = None
    arbiters = d.arbiters
    if isinstance(arbiters, str):
        arbiters = (arbiters,)
    elif not isinstance(arbiters, (list, tuple)):
        problems.append(problem("the arbiters must be a list of names", code="calendar.input"))
        arbiters = ()
    names = []
    for a in arbiters:
        a = "" if a is None else str(a)
        if _control_characters(a):
            problems.append(problem("an arbiter's name contains control characters", code="calendar.input"))
            a = ""
        names.append(a)
    return dataclasses.replace(d, **texts, **flags, inside_regions=inside, arbiters=tuple(names))


def _text(value: object) -> str:
    return " ".join(str(value or "").split())


def _control_characters(text: str) -> bool:
    return any(unicodedata.category(c) == "Cc" for c in text)


def _date(value: date | str | None, what: str, problems: list[Problem], *, required: bool = True) -> date | None:
    missing, bad = _DATES[what]
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = (value or "").strip() if isinstance(value, str) else ""
    if not text:
        if required:
            problems.append(problem(missing, code="calendar.input"))
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        problems.append(problem(bad, code="calendar.input", value=text))
        return None


def _count(value: int | str | None, what: str, low: int, high: int, problems: list[Problem]) -> int | None:
    missing, bad, out_of_range = _COUNTS[what]
    if value is None or (isinstance(value, str) and not value.strip()):
        problems.append(problem(missing, code="calendar.input"))
        return None
    if isinstance(value, bool):
        value = str(value)
    text = str(value).strip()
    if not text.isdigit() or not text.isascii():
        problems.append(problem(bad, code="calendar.input", value=text))
        return None
    n = int(text)
    if not low <= n <= high:
        problems.append(problem(out_of_range, code="calendar.input", low=low, high=high, value=n))
        return None
    return n


def _arbiter(name: str, problems: list[Problem]) -> Arbiter | None:
    found = Arbiter.objects.filter(name=name).first()
    if found is None:
        problems.append(problem("unknown arbiter {name!r}: not in the registry (`qiyuan office arbiter add`)",
                                code="calendar.input", name=name))
    return found


def _rating_list(code: str, problems: list[Problem]) -> RatingList | None:
    code = (code or "").strip()
    if code:
        found = RatingList.objects.filter(code=code).first()
        if found is None:
            known = ", ".join(RatingList.objects.values_list("code", flat=True)) or "none"
            problems.append(problem("unknown rating list {value!r} (lists: {known})", code="calendar.input",
                                    value=code, known=known))
        return found
    lists = list(RatingList.objects.all()[:2])
    if len(lists) == 1:
        return lists[0]
    problems.append(problem("give the rating list the event is to be rated on (lists: {known})",
                            code="calendar.input", known=", ".join(RatingList.objects.values_list("code", flat=True))
                            or "none"))
    return None


def validate(d: Details, *, today: date, text_rules_of) -> Valid:
    """``d`` checked as input (``today``: what "in the past" means); raises ``CalendarError`` with every
    problem. ``text_rules_of(rating_list)`` gives the list's ``TextRules`` (its home regions)."""
    problems: list[Problem] = []
    d = _cleaned(d, problems)
    for field, limit in _LENGTHS.items():
        if len(_text(getattr(d, field))) > limit:
            problems.append(problem(_TOO_LONG[field], code="calendar.input", limit=limit))
    if not _text(d.name):
        problems.append(problem("the event's name is missing", code="calendar.input"))
    if not _text(d.city):
        problems.append(problem("the city is missing", code="calendar.input"))
    rating_list = _rating_list(d.list_code, problems)
    start = _date(d.start_date, "start", problems)
    end = _date(d.end_date, "end", problems)
    if start is not None and start < today:
        problems.append(problem("the start date {start} is in the past (today is {today}): the calendar registers "
                                "events before they are played", code="calendar.past", start=start.isoformat(),
                                today=today.isoformat()))
    if start is not None and end is not None:
        if end < start:
            problems.append(problem("the end date {end} is before the start date {start}", code="calendar.input",
                                    end=end.isoformat(), start=start.isoformat()))
        elif (end - start).days + 1 > MAX_DAYS:
            problems.append(problem("the event lasts {days} days; at most {limit}", code="calendar.input",
                                    days=(end - start).days + 1, limit=MAX_DAYS))
    standard = _date(d.standard_published_on, "standard", problems, required=False)
    if standard is not None and standard > today:
        problems.append(problem("the title standard's publication date {day} is in the future: record it once "
                                "published", code="calendar.input", day=standard.isoformat()))
    rounds = _count(d.rounds, "rounds", 1, MAX_ROUNDS, problems)
    players = _count(d.expected_players, "players", 2, MAX_PLAYERS, problems)
    tc = parse_time_control(d.time_control or "")
    if not _text(d.time_control):
        problems.append(problem("the time control is missing", code="calendar.input"))
    elif tc is None:
        problems.append(problem("the time control {value!r} cannot be read: write e.g. \"每方60分钟\", \"90 min\" or "
                                "\"45 min + 30 s\"", code="calendar.input", value=d.time_control.strip()))
    elif tc.base_minutes > MAX_MINUTES or tc.increment_seconds > MAX_INCREMENT:
        problems.append(problem("the time control {value!r} reads as {tc}: at most {minutes} min + {seconds} s",
                                code="calendar.input", value=d.time_control.strip()[:40], tc=str(tc)[:40],
                                minutes=MAX_MINUTES, seconds=MAX_INCREMENT))
    levels = [lvl.value for lvl in OrganiserLevel]
    if d.organiser_level not in levels:
        problems.append(problem("the organiser level {value!r} is not one of {known}", code="calendar.input",
                                value=d.organiser_level, known=", ".join(levels)))
    formats = [f.value for f in EventFormat]
    if d.format not in formats:
        problems.append(problem("the format {value!r} is not one of {known}", code="calendar.input", value=d.format,
                                known=", ".join(formats)))
    if d.rules_of_play not in RULES_OF_PLAY:
        problems.append(problem("the rules of play {value!r} are not one of {known}", code="calendar.input",
                                value=d.rules_of_play, known=", ".join(RULES_OF_PLAY)))
    association = None
    if _text(d.association):
        association = Association.objects.filter(code=_text(d.association)).first()
        if association is None:
            problems.append(problem("unknown association {value!r} (`qiyuan office association list`)",
                                    code="calendar.input", value=_text(d.association)))
    chief = None
    if not _text(d.chief_arbiter):
        problems.append(problem("the chief arbiter (裁判长) is missing", code="calendar.input"))
    else:
        chief = _arbiter(_text(d.chief_arbiter), problems)
    others: list[Arbiter] = []
    seen = {_text(d.chief_arbiter)}
    for name in d.arbiters:
        name = _text(name)
        if name and name not in seen:
            seen.add(name)
            found = _arbiter(name, problems)
            if found is not None:
                others.append(found)
    if problems:
        raise CalendarError(problems)
    rules: TextRules = text_rules_of(rating_list)
    inside = d.inside_regions if rules.home_regions and d.inside_regions is not None else in_home_regions(d.city, rules)
    return Valid(d, rating_list, start, end, rounds, players, tc, chief, tuple(others), association, standard, inside)
