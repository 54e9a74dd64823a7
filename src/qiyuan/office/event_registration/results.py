"""From registration to result (item 3 of the calendar): an arrived report matched to its registration.

``match`` finds the registration a report belongs to and what the report does
differently (``qiyuan.calendar.compare``); the import shows the differences to
the officer before it stores anything, and ``link_result`` points the
registration at the stored event, inside the import's transaction — so the
public calendar links a past event to its results.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Protocol

from qiyuan.calendar.checks import Finding
from qiyuan.calendar.compare import AS_FILE_PROBLEM, Outline, differences, registered_for
from qiyuan.errors import Problem, joined, problem
from qiyuan.office.calendar.models import Registration
from qiyuan.office.event_registration.assess import LIVE


class Report(Protocol):
    """What an import read from a file (``imports.model.ParsedEvent`` has these)."""

    name: str
    start_date: date | None
    end_date: date | None
    city: str
    format: str
    rounds: int
    time_control: str
    chief_arbiter: str
    arbiters: list[str]


@dataclass(frozen=True)
class RegistrationMatch:
    """The registration a report belongs to, and every way the report differs from it."""

    registration: Registration
    differences: tuple[Finding, ...]

    def problems(self, source: str) -> list[Problem]:
        """The differences, each a problem of the file ``source`` that the officer must see before the import."""
        r = self.registration
        return [problem(AS_FILE_PROBLEM[d.message], file=source, code="import.registration", ref=r.code,
                        name=r.name, **(d.params or {})) for d in self.differences]

    @property
    def note(self) -> Problem:
        """One line for the import's notes (translatable)."""
        r = self.registration
        said = dict(ref=r.code, status=STATUS_WORDS.get(r.status, r.status), start=str(r.start_date), end=str(r.end_date))
        if not self.differences:
            return problem("registered as {ref} ({status}, {start} – {end}): the report is as registered", **said)
        found = [problem("{clause}: {why}", clause=d.clause, why=Problem(message=d.message, params=d.params))
                 if d.clause else Problem(message=d.message, params=d.params) for d in self.differences]
        return problem("registered as {ref} ({status}, {start} – {end}); the report differs: {differences}",
                       differences=joined(found, "; "), **said)


#: a registration's status, as the import's note names it
STATUS_WORDS = {"registered": problem("registered"), "approved": problem("approved"), "refused": problem("refused"),
                "withdrawn": problem("withdrawn")}


def outline_of(r: Registration) -> Outline:
    return Outline(r.name, r.start_date, r.end_date, r.city, r.format, r.rounds, r.time_control,
                   r.chief_arbiter.name, tuple(r.arbiter_names))


def match(report: Report, rating_list) -> RegistrationMatch | None:
    """The live registration of ``rating_list`` that ``report`` is the result of (none without its result yet
    matches: by name, else by dates and city), with the differences; ``None`` when no registration fits."""
    candidates = list(Registration.objects.filter(rating_list=rating_list, status__in=LIVE, event__isnull=True)
                      .select_related("chief_arbiter").prefetch_related("arbiters").order_by("start_date", "code"))
    reported = Outline(report.name, report.start_date, report.end_date, report.city or "", report.format or "",
                       report.rounds or 0, report.time_control or "", report.chief_arbiter or "",
                       tuple(a for a in report.arbiters if a))
    found = registered_for(reported, [(outline_of(r), r) for r in candidates])
    if found is None:
        return None
    return RegistrationMatch(found, differences(outline_of(found), reported))


def link_result(registration: Registration, event) -> None:
    """The registration's result is ``event`` (runs inside the import, which audits it)."""
    registration.event = event
    registration.save(update_fields=["event"])
