"""The event calendar's use cases (赛事注册): register an upcoming event, amend, approve, refuse, withdraw;
record its entry list (``entries``); match an arrived report to its registration.

One function per action (``cases``), called by the command line, the desk and
the tests alike; each validates everything at once (``details``: bad input),
checks the event against the rules before it is played (``assess`` on the
pure ``qiyuan.calendar``), holds the calendar's lock, writes one audit entry
and raises ``CalendarError`` or ``NotFound``. ``results`` links a report to its
registration; ``queries`` says what the calendar shows.
"""

from qiyuan.office.event_registration.assess import findings, problems_of
from qiyuan.office.event_registration.cases import (
    CALENDAR,
    amend_registration,
    approve_registration,
    details_of,
    find_registration,
    refuse_registration,
    register_event,
    withdraw_registration,
)
from qiyuan.office.event_registration.details import AMENDABLE, Details
from qiyuan.office.event_registration.entries import event_start, registration_entrants, set_entries
from qiyuan.office.event_registration.errors import CalendarError
from qiyuan.office.event_registration.queries import (
    DeskStart,
    cities,
    desk_start,
    public_calendar,
    registration_lines,
    registrations,
    runnable,
    upcoming_and_past,
)
from qiyuan.office.event_registration.results import RegistrationMatch, link_result, match

__all__ = [
    "AMENDABLE", "CALENDAR", "CalendarError", "DeskStart", "Details", "RegistrationMatch", "amend_registration",
    "approve_registration", "cities", "desk_start", "details_of", "event_start", "find_registration", "findings", "link_result",
    "match", "problems_of", "public_calendar", "refuse_registration", "register_event", "registration_entrants",
    "registration_lines", "registrations", "runnable", "set_entries", "upcoming_and_past", "withdraw_registration",
]
