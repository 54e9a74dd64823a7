"""The calendar's refusals: bad input and actions its state forbids, every problem at once (``OfficeError``)."""

from __future__ import annotations

from qiyuan.office.errors import OfficeError


class CalendarError(OfficeError):
    """A registration refused: bad input (a date in the past, an unknown arbiter …) or an action its status
    forbids (approving a withdrawn event, approving despite problems without a reason)."""
