"""Facts that cannot be true (不可能的事实), refused at import — never rated, never left to the plausibility audit:

* an event that ends before it starts;
* an event that ends after the day it is imported (a report is written after its event: a date in the
  future is a typing error — 2031 for 2021);
* more rounds played than the event declares (the report's 轮数, a TRF's ``XXR``, OpenGotha's number of
  rounds): the crosstable and the declaration cannot both be right.

Each refusal names the fact and where the file states it (the report's sheet and cell, the TRF's line code,
OpenGotha's parameter). What is possible but unusual (a player in two events at once, a five-round event that
lasts a year) is the plausibility audit's (``office.plausibility``): flagged for the officer, never refused.
"""

from __future__ import annotations

from datetime import date

from qiyuan.errors import N_, Problem, problem
from qiyuan.formats.report_xlsx import INFO_ROWS, INFO_SHEET, cell_place
from qiyuan.office.imports.model import ParsedEvent

#: where each kind of file states the start date, the end date and the rounds declared
_PLACES = {
    "report": {"start": cell_place(INFO_SHEET, INFO_ROWS["dates"][0], 2),
               "end": cell_place(INFO_SHEET, INFO_ROWS["dates"][0], 3),
               "rounds": cell_place(INFO_SHEET, INFO_ROWS["rounds"][0], 2)},
    "trf": {"start": "042", "end": "052", "rounds": "XXR"},
    "opengotha": {"start": "beginDate", "end": "endDate", "rounds": "numberOfRounds"},
}

ENDS_BEFORE_START = N_("the event ends ({end}) before it starts ({start})")
ENDS_AFTER_TODAY = N_("the event ends on {end}, after the day it is imported ({today}): a report comes after its "
                      "event")
MORE_ROUNDS = N_("{played} rounds are played but the event declares {declared}: more rounds than declared")


def impossible_facts(ev: ParsedEvent, kind: str, source: str, today: date) -> list[Problem]:
    """The facts of a parsed event that cannot be true, each naming the file and where it states the fact."""
    where = _PLACES.get(kind, {})
    out = []
    if ev.start_date is not None and ev.end_date is not None and ev.end_date < ev.start_date:
        out.append(problem(ENDS_BEFORE_START, file=source, column=where.get("end"), code="import.dates",
                           end=str(ev.end_date), start=str(ev.start_date)))
    if ev.end_date is not None and ev.end_date > today:
        out.append(problem(ENDS_AFTER_TODAY, file=source, column=where.get("end"), code="import.future",
                           end=str(ev.end_date), today=str(today)))
    if ev.rounds_declared is not None and ev.rounds > ev.rounds_declared:
        out.append(problem(MORE_ROUNDS, file=source, column=where.get("rounds"), code="import.rounds",
                           played=ev.rounds, declared=ev.rounds_declared))
    return out


def future_events(events, source: str, today: date) -> list[Problem]:
    """The events of a history folder (``events.csv``) that end after the day they are imported."""
    return [problem("event {event} ends on {end}, after the day it is imported ({today}): a report comes after its "
                    "event", file=source, column="end_date", code="import.future",
                    event=e.id, end=str(e.end_date), today=str(today)) for e in events if e.end_date > today]
