"""Refusals of the tournament desk, on the project's one refusal type (``qiyuan.errors``).

``EventError`` is a ``Refused``: the rules or the event's state forbid the
action (a second withdrawal, a late entry after the last round, a repeat
meeting in a hand-made pairing).  Bad input (an unknown result, a date that is
no date) is an ``InputError``.  Both carry every problem at once as data
(``Problem`` with an English template and its parameters), so the command line
prints them and the desk translates them; nobody parses the text.
"""

from __future__ import annotations

from collections.abc import Iterable

from qiyuan.errors import InputError, Problem, Refused, problem

__all__ = ["EventError", "EventInputError", "Problem", "problem", "refuse"]


class EventError(Refused):
    """An event operation the rules or the event's state forbid."""


class EventInputError(EventError, InputError):
    """An event operation given input it cannot use (an unknown result, a bad date or ID number)."""


def refuse(problems: Iterable[Problem], kind: type[EventError] = EventError) -> None:
    """Raise ``kind`` with ``problems`` if there are any."""
    problems = list(problems)
    if problems:
        raise kind(problems)
