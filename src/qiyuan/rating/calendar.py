"""统计期: the publication calendar of a rule set and month arithmetic on dates."""

from __future__ import annotations

import calendar as _calendar
from collections.abc import Sequence
from datetime import date


def add_months(d: date, months: int) -> date:
    """``d`` moved by whole months (the day is kept, or clamped to the month's last day)."""
    index = d.year * 12 + (d.month - 1) + months
    year, month0 = divmod(index, 12)
    day = min(d.day, _calendar.monthrange(year, month0 + 1)[1])
    return date(year, month0 + 1, day)


def next_publication_date(months: Sequence[int], after: date) -> date:
    """The first publication date strictly after ``after`` (an event ending ON a list date goes to the next list)."""
    for year in (after.year, after.year + 1):
        for month in sorted(months):
            candidate = date(year, month, 1)
            if candidate > after:
                return candidate
    raise ValueError("a publication calendar needs at least one month")


def previous_publication_date(months: Sequence[int], before: date) -> date:
    """The last publication date strictly before ``before``: the start of the period that ``before`` closes."""
    for year in (before.year, before.year - 1):
        for month in sorted(months, reverse=True):
            candidate = date(year, month, 1)
            if candidate < before:
                return candidate
    raise ValueError("a publication calendar needs at least one month")


def publication_dates(months: Sequence[int], first_end: date, last_end: date) -> list[date]:
    """Every list date from the first one after ``first_end`` to the first one after ``last_end``."""
    dates = [next_publication_date(months, first_end)]
    last = next_publication_date(months, last_end)
    while dates[-1] < last:
        dates.append(next_publication_date(months, dates[-1]))
    return dates
