"""What the calendar shows: the registrations the public sees (approved ones), filtered, and the officer's list."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.db.models import QuerySet

from qiyuan.formats.calendar_export import RegistrationLine
from qiyuan.office.calendar.models import Registration


def registrations(*, status: str | None = None, list_code: str | None = None) -> QuerySet:
    """Every registration (the officer's list), by start date; optionally one status or one list."""
    qs = Registration.objects.select_related("rating_list", "chief_arbiter", "event")
    if status:
        qs = qs.filter(status=status)
    if list_code:
        qs = qs.filter(rating_list__code=list_code)
    return qs.order_by("start_date", "code")


def registration_lines(*, status: str | None = None, list_code: str | None = None) -> list[RegistrationLine]:
    """The officer's list as the registration file writes it (the desk's and the command line's export)."""
    return [RegistrationLine(r.code, r.start_date, r.end_date, r.name, r.name_en, r.city, r.rating_list.code, r.format,
                             r.rounds, r.expected_players, r.time_minutes, r.time_increment, r.organiser,
                             r.organiser_level, r.status, bool((r.assessment or {}).get("rateable")),
                             len((r.assessment or {}).get("failures", [])))
            for r in registrations(status=status, list_code=list_code)]


def public_calendar(*, list_code: str | None = None, city: str | None = None,
                    month: tuple[int, int] | None = None) -> QuerySet:
    """The approved registrations (what the public calendar and its feed list), filtered by list, city and
    month (an event is in a month when any of its days is)."""
    qs = Registration.objects.filter(status=Registration.Status.APPROVED).select_related("rating_list", "event")
    if list_code:
        qs = qs.filter(rating_list__code=list_code)
    if city:
        qs = qs.filter(city=city)
    if month:
        year, m = month
        first = date(year, m, 1)
        last = date(year + (m == 12), m % 12 + 1, 1)
        qs = qs.filter(start_date__lt=last, end_date__gte=first)
    return qs.order_by("start_date", "code")


def upcoming_and_past(qs: QuerySet, today: date) -> tuple[list[Registration], list[Registration]]:
    """Events not yet over (soonest first) and those over (latest first)."""
    rows = list(qs)
    return ([r for r in rows if r.end_date >= today],
            sorted((r for r in rows if r.end_date < today), key=lambda r: (r.start_date, r.code), reverse=True))


def cities() -> list[str]:
    """The cities of the approved registrations (the calendar's city filter)."""
    return sorted(set(Registration.objects.filter(status=Registration.Status.APPROVED)
                      .values_list("city", flat=True)))


@dataclass(frozen=True)
class DeskStart:
    """What a desk event starts from when it is the registered event (issue 14, item 3): the new-event form's
    name, dates, city, format, rounds, time control, arbiters and organiser, as registered."""

    code: str
    name: str
    start: date
    end: date
    city: str
    format: str
    rounds: int
    time_control: str
    chief_arbiter: str
    arbiters: tuple[str, ...]
    organiser: str
    organiser_level: str


def runnable(today: date) -> QuerySet:
    """Approved registrations without a result yet that have not ended more than a week ago: the events a desk
    event may start from, soonest first."""
    return (Registration.objects.filter(status=Registration.Status.APPROVED, event__isnull=True,
                                        end_date__gte=today - timedelta(days=7))
            .select_related("chief_arbiter").order_by("start_date", "code"))


def desk_start(r: Registration) -> DeskStart:
    """The registration as the desk's new-event form takes it."""
    return DeskStart(r.code, r.name, r.start_date, r.end_date, r.city, r.format, r.rounds, r.time_control,
                     r.chief_arbiter.name, tuple(r.arbiter_names), r.organiser, r.organiser_level)
