"""The desk's running events as the arbiter's store (临场编排): one row per event, changed in one
transaction under a row lock, every old text kept.

:class:`LiveEventStore` is the desk's implementation of ``qiyuan.tournament.arbiter.EventStore``.
A change

1. opens one write transaction (``qiyuan.office.db.writing``: ``BEGIN IMMEDIATE`` on SQLite,
   so writers queue) and locks the event's row (``select_for_update``: a second arbiter's action on
   the same event waits for the first, on PostgreSQL too);
2. reads the event's TRF text as the tournament core sees it;
3. on success keeps the previous text as a :class:`LiveEventVersion` (the undo trail), stores
   the new text (and the row's name, format and finished flag, which follow it) and writes ONE
   audit entry ``event.<action>``; on a refusal the transaction is rolled back: nothing stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from qiyuan.errors import InputError, NotFound, Problem
from qiyuan.formats.trf import read_trf, write_trf
from qiyuan.formats.report_xlsx import ReportMeta, report_bytes
from qiyuan.formats.trf26 import is_trf26
from qiyuan.office.audit.models import record
from qiyuan.office.db import writing
from qiyuan.office.events.models import LiveEvent, LiveEventVersion
from qiyuan.tournament.arbiter import Change
from qiyuan.tournament.eventfile import event_format, is_finished
from qiyuan.tournament.model import Tournament


def load(live: LiveEvent) -> Tournament:
    """The event as the tournament core sees it."""
    return read_trf(live.trf_text, filename=f"{live.code}.trf")


def _text(t: Tournament, label: str, *, trf26: bool = False) -> str:
    for e in t.entrants:
        e.points = None  # the writer puts the score the results give
    try:
        return write_trf(t, trf26=trf26)
    except ValueError as exc:  # a field that does not fit its TRF columns
        raise InputError(Problem(label, None, None, str(exc))) from None


class LiveEventStore:
    """One desk event, by its code.  ``row``: the row's own fields (organizer, host,
    organiser_level) for :meth:`create`; a change may set them too (``change(..., row={...})``)."""

    def __init__(self, code: str, *, row: dict[str, Any] | None = None):
        self.code = code
        self.label = code
        self.row = row or {}
        self.live: LiveEvent | None = None  # the row as last read or written

    def read(self) -> Tournament:
        self.live = LiveEvent.objects.filter(code=self.code).first()
        if self.live is None:
            raise NotFound(Problem(self.label, None, None, "no such event"))
        return load(self.live)

    def create(self, t: Tournament, actor: object, **detail: Any) -> None:
        """Store a new event; its creator (``actor``, a user) is its first arbiter."""
        user = actor if getattr(actor, "pk", None) else None
        with writing():
            if LiveEvent.objects.filter(code=self.code).exists():
                raise InputError(Problem(self.label, None, None, "an event with this code exists"))
            live = LiveEvent.objects.create(code=self.code, name=t.name, system=event_format(t),
                                            trf_text=_text(t, self.label), created_by=user, **self.row)
            if user is not None:
                live.arbiters.add(user)
            record(actor, "event.create", live, code=self.code, **detail)
        self.live = live

    @contextmanager
    def change(self, actor: object, action: str, *, row: dict[str, Any] | None = None,
               **detail: Any) -> Iterator[Change]:
        user = actor if getattr(actor, "pk", None) else None
        with writing():
            live = LiveEvent.objects.select_for_update().filter(code=self.code).first()
            if live is None:
                raise NotFound(Problem(self.label, None, None, "no such event"))
            ch = Change(load(live), dict(detail))
            yield ch
            text = _text(ch.t, self.label, trf26=is_trf26(live.trf_text))  # kept in the version it was in
            LiveEventVersion.objects.create(live_event=live, action=action, trf_text=live.trf_text, user=user)
            live.trf_text = text
            live.name = ch.t.name or live.name
            live.system = event_format(ch.t)
            live.finished = is_finished(ch.t)
            for name, value in (row or {}).items():
                setattr(live, name, value)
            live.save()
            record(actor, f"event.{action}", live, code=self.code, **ch.detail, **(row or {}))
        self.live = live


def competition_report(code: str, actor: object, *, rules, notes: str = "", today=None) -> bytes:
    """The desk event's competition report (竞赛报告) as a workbook, for the rule set ``rules`` (how
    games not played are marked); the download is audited (``event.report``): it holds ID numbers."""
    from datetime import date

    live = LiveEvent.objects.filter(code=code).first()
    if live is None:
        raise NotFound(Problem(code, None, None, "no such event"))
    t = load(live)
    meta = ReportMeta(format=event_format(t), organizer=live.organizer, host=live.host, notes=notes,
                      report_date=today or date.today(), unplayed_mark=rules.unplayed_mark, desk_code=live.code,
                      # the organiser's level the desk event records is declared in the report (issue 18)
                      facts={"organiser_level": live.organiser_level} if live.organiser_level else {})
    data = report_bytes(t, meta)
    record(actor, "event.report", live, code=code, rules=rules.name)
    return data


def assign_arbiter(code: str, actor: object, user, *, remove: bool = False) -> None:
    """Make ``user`` an arbiter of the desk event (or no longer one): an admin's action, audited."""
    with writing():
        live = LiveEvent.objects.select_for_update().get(code=code)
        if remove:
            live.arbiters.remove(user)
        else:
            live.arbiters.add(user)
        record(actor, "event.assign", live, code=code, arbiter=user.get_username(), removed=remove)
