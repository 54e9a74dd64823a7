"""A registration's entry list (报名表): recorded with the registration, entered into the event once approved.

``set_entries`` checks every row as the event itself will (``tournament.eventfile.add_players`` on an empty
event of the registration's game: names, sexes, grades, ratings, ID numbers and birth dates, a player listed
twice) and replaces the list — every problem named by its row, all at once, nothing stored if any.
``registration_entrants`` gives an approved registration's list as the entrants ``qiyuan event add-players
--registration CODE`` and the desk enter; a registration not approved (yet, or any more) gives none.
"""

from __future__ import annotations

from datetime import date

from django.conf import settings

from qiyuan.errors import Problem, problem
from qiyuan.office.audit.models import record
from qiyuan.office.calendar.models import Registration, RegistrationEntry
from qiyuan.office.db import writing
from qiyuan.office.event_registration.cases import CALENDAR, find_registration, refuse_unless
from qiyuan.office.event_registration.errors import CalendarError
from qiyuan.office.integrity import band_floors
from qiyuan.office.event_registration.queries import DeskStart, desk_start
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament.model import Entrant, Tournament

S = Registration.Status

#: why an approved registration's list is the only one entered (each template whole, to be translated whole)
_NOT_APPROVED = {
    S.REGISTERED: "{ref} is not approved yet: its entry list is entered once the officer approves it",
    S.REFUSED: "{ref} is refused: its entry list is not entered",
    S.WITHDRAWN: "{ref} is withdrawn: its entry list is not entered",
}


def set_entries(code: str, rows: list[tuple[int, Entrant]], *, actor: object, source: str = "",
                faults: list[Problem] | tuple = (), today: date | None = None) -> Registration:
    """Record (or replace) the registration's entry list: ``rows`` are ``(row of the file, entrant)``,
    ``faults`` the reader's own problems, reported with the rows'."""
    with writing(CALENDAR):
        reg = find_registration(code)
        refuse_unless(reg, (S.REGISTERED, S.APPROVED), "entries")
        scratch = Tournament()  # the event the list is for, as far as the checks go: its game's grades
        scratch.extra["XQM"] = ["go_swiss" if reg.rating_list.game == "go" else "swiss"]
        ev.add_players(scratch, rows, today=today, file=source, faults=faults)
        replaced = reg.entries.count()
        reg.entries.all().delete()
        RegistrationEntry.objects.bulk_create(
            RegistrationEntry(registration=reg, place=k, row=row, name=e.name, sex=e.sex, title=e.title,
                              federation=e.federation, rating=e.rating, id_number=e.id_number, id_type=e.id_type,
                              birth=e.birth, club=e.club, player_id=e.player_id, nationality=e.nationality)
            for k, (row, e) in enumerate(rows, start=1))
        record(actor, "calendar.entries", reg, code=reg.code, source=source, players=len(rows), replaced=replaced)
    return reg


def registration_entrants(code: str) -> list[tuple[int, Entrant]]:
    """``(row, entrant)`` of an approved registration's entry list, in its order; ``CalendarError`` when the
    registration is not approved or has no list."""
    reg = find_registration(code)
    if reg.status != S.APPROVED:
        raise CalendarError([problem(_NOT_APPROVED[reg.status], code="calendar.state", ref=reg.code)])
    entries = list(reg.entries.order_by("place"))
    if not entries:
        raise CalendarError([problem("{ref} has no entry list: record one first (qiyuan office calendar entries "
                                     "{ref} FILE, or on its desk page)", code="calendar.input", ref=reg.code)])
    floors = band_floors(reg.rating_list, {x.player_id for x in entries if x.player_id},
                         settings.QIYUAN_BAND_FLOOR_EDITIONS)
    return [(x.row, Entrant(0, x.name, sex=x.sex, title=x.title, rating=x.rating, federation=x.federation,
                            id_number=x.id_number, id_type=x.id_type, birth=x.birth, club=x.club,
                            player_id=x.player_id, nationality=x.nationality,
                            band_floor=_above(floors.get(x.player_id), x.rating))) for x in entries]


def _above(floor: int | None, rating: int | None) -> int | None:
    """A floor worth carrying: above the rating entered (the band reads the higher of the two)."""
    return floor if floor is not None and rating is not None and floor > rating else None


def event_start(code: str) -> tuple[DeskStart, list[tuple[int, Entrant]], str]:
    """What an event starts from when it is the registered one (``qiyuan event new --registration CODE``, the
    desk's new event from a registration): its details as registered (name, dates, city, format, rounds, time
    control, arbiters), its entry list (none when it has none recorded) and its game's event format —
    ``CalendarError`` when the registration is not approved, or already has its results."""
    reg = find_registration(code)
    if reg.status != S.APPROVED:
        raise CalendarError([problem(_NOT_APPROVED_TO_START[reg.status], code="calendar.state", ref=reg.code)])
    if reg.event_id is not None:
        raise CalendarError([problem("{ref} already has its results: an event cannot start from it again",
                                     code="calendar.state", ref=reg.code)])
    start = desk_start(reg)
    rows = registration_entrants(code) if reg.entries.exists() else []
    fmt = start.format if start.format in ev.FORMATS else "swiss"
    if reg.rating_list.game == "go" and fmt == "swiss":
        fmt = "go_swiss"
    return start, rows, fmt


#: why only an approved registration starts an event (each template whole, to be translated whole)
_NOT_APPROVED_TO_START = {
    S.REGISTERED: "{ref} is not approved yet: an event starts from it once the officer approves it",
    S.REFUSED: "{ref} is refused: no event starts from it",
    S.WITHDRAWN: "{ref} is withdrawn: no event starts from it",
}
