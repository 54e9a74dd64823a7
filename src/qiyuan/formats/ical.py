"""The calendar as an iCalendar feed (RFC 5545, ``text/calendar``) that phones and mail programs subscribe to.

One ``VEVENT`` per event, all-day: ``DTSTART;VALUE=DATE`` its first day and
``DTEND;VALUE=DATE`` the day after its last (RFC 5545 §3.6.1: the end date is
not part of the event). ``UID`` is stable per event and ``DTSTAMP`` is when
its record last changed (not the moment the feed is served), so the same
calendar gives the same bytes and subscribers see updates, not duplicates.
Written with the ``icalendar`` library.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

from icalendar import Calendar, Event

PRODID = "-//qiyuan//event calendar//ZH"


@dataclass(frozen=True, slots=True)
class FeedEvent:
    """One event of the feed, as plain data."""

    uid: str
    summary: str
    start: date
    end: date  # its last day (inclusive)
    stamp: datetime  # when its record last changed (UTC)
    location: str = ""
    description: str = ""
    url: str = ""
    categories: tuple[str, ...] = ()


def feed(events: Iterable[FeedEvent], *, name: str, description: str = "") -> bytes:
    """The iCalendar text of ``events`` (a ``VCALENDAR``; CRLF lines, folded at 75 octets)."""
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    if description:
        cal.add("x-wr-caldesc", description)
    for e in events:
        ev = Event()
        ev.add("uid", e.uid)
        ev.add("dtstamp", e.stamp.astimezone(timezone.utc))
        ev.add("dtstart", e.start)
        ev.add("dtend", e.end + timedelta(days=1))
        ev.add("summary", e.summary)
        if e.location:
            ev.add("location", e.location)
        if e.description:
            ev.add("description", e.description)
        if e.url:
            ev.add("url", e.url)
        if e.categories:
            ev.add("categories", list(e.categories))
        ev.add("transp", "TRANSPARENT")  # an all-day listing: it does not make the subscriber busy
        cal.add_component(ev)
    return cal.to_ical()
