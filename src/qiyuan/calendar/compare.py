"""From registration to result: which registration an arrived report belongs to, and what it does differently.

The officer sees every difference before the import is stored (dates, time
control, arbiters, rounds, format, city): a report that differs from what was
checked at registration may not meet the conditions the registration met.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import TypeVar

from qiyuan.calendar.checks import Finding, finding
from qiyuan.rating.eligibility import parse_time_control


@dataclass(frozen=True, slots=True)
class Outline:
    """What a registration or a report says about an event, field by field."""

    name: str
    start: date | None
    end: date | None
    city: str = ""
    format: str = ""
    rounds: int = 0
    time_control: str = ""
    chief_arbiter: str = ""
    arbiters: tuple[str, ...] = ()  # the other arbiters, in any order


def _key(name: str) -> str:
    """A name as compared: without spaces of either width."""
    return "".join((name or "").split()).replace("\u3000", "")


def _overlap(a: Outline, b: Outline) -> bool:
    return None not in (a.start, a.end, b.start, b.end) and a.start <= b.end and b.start <= a.end


Candidate = TypeVar("Candidate")


def registered_for(report: Outline, candidates: Sequence[tuple[Outline, Candidate]]) -> Candidate | None:
    """The registration a report belongs to: the one of the same name (spaces aside); else the only one on
    overlapping dates in the same city; else none."""
    named = [c for o, c in candidates if _key(o.name) == _key(report.name)]
    if len(named) == 1:
        return named[0]
    if named:  # the same name registered more than once (yearly events): the one on overlapping dates
        dated = [c for o, c in candidates if _key(o.name) == _key(report.name) and _overlap(o, report)]
        return dated[0] if len(dated) == 1 else None
    city = _key(report.city)
    near = [c for o, c in candidates if city and _key(o.city) == city and _overlap(o, report)]
    return near[0] if len(near) == 1 else None


def _span(o: Outline) -> str:
    return f"{o.start.isoformat() if o.start else '?'} – {o.end.isoformat() if o.end else '?'}"


def _same_time_control(a: str, b: str) -> bool:
    ta, tb = parse_time_control(a), parse_time_control(b)
    if ta is not None and tb is not None:
        return ta == tb
    return _key(a) == _key(b)


#: each difference: its message, and the same as a problem of the imported file (each template whole)
DIFFERENCES = {
    "dates": ("dates: registered {registered}, the report says {reported}",
              "differs from its registration {ref} ({name}): dates: registered {registered}, the report says "
              "{reported}"),
    "name": ("name: registered {registered}, the report says {reported}",
             "differs from its registration {ref} ({name}): name: registered {registered}, the report says "
             "{reported}"),
    "city": ("city: registered {registered}, the report says {reported}",
             "differs from its registration {ref} ({name}): city: registered {registered}, the report says "
             "{reported}"),
    "format": ("format: registered {registered}, the report says {reported}",
               "differs from its registration {ref} ({name}): format: registered {registered}, the report says "
               "{reported}"),
    "rounds": ("rounds: registered {registered}, the report says {reported}",
               "differs from its registration {ref} ({name}): rounds: registered {registered}, the report says "
               "{reported}"),
    "time control": ("time control: registered {registered}, the report says {reported}",
                     "differs from its registration {ref} ({name}): time control: registered {registered}, the "
                     "report says {reported}"),
    "chief arbiter": ("chief arbiter: registered {registered}, the report says {reported}",
                      "differs from its registration {ref} ({name}): chief arbiter: registered {registered}, the "
                      "report says {reported}"),
    "arbiters": ("arbiters: registered {registered}, the report says {reported}",
                 "differs from its registration {ref} ({name}): arbiters: registered {registered}, the report "
                 "says {reported}"),
}
#: a difference's message → the same as a problem of the imported file
AS_FILE_PROBLEM = dict(DIFFERENCES.values())


def differences(registered: Outline, reported: Outline) -> tuple[Finding, ...]:
    """Every way the report differs from its registration (the registered value, then the report's)."""
    out: list[Finding] = []

    def differ(what: str, was: object, now: object) -> None:
        out.append(finding("", DIFFERENCES[what][0], registered=str(was) if was not in ("", None) else "—",
                           reported=str(now) if now not in ("", None) else "—"))

    if (registered.start, registered.end) != (reported.start, reported.end):
        differ("dates", _span(registered), _span(reported))
    if _key(registered.name) != _key(reported.name):
        differ("name", registered.name, reported.name)
    if registered.city and reported.city and _key(registered.city) != _key(reported.city):
        differ("city", registered.city, reported.city)
    if registered.format and reported.format and registered.format != reported.format:
        differ("format", registered.format, reported.format)
    if registered.rounds != reported.rounds:
        differ("rounds", registered.rounds, reported.rounds)
    if not _same_time_control(registered.time_control, reported.time_control):
        differ("time control", registered.time_control, reported.time_control)
    if _key(registered.chief_arbiter) != _key(reported.chief_arbiter):
        differ("chief arbiter", registered.chief_arbiter, reported.chief_arbiter)
    if sorted(map(_key, registered.arbiters)) != sorted(map(_key, reported.arbiters)):
        differ("arbiters", "、".join(registered.arbiters), "、".join(reported.arbiters))
    return tuple(out)
