"""What the desk's event views turn into the arbiter's use cases: typed result keys, a
registered player as an entrant.  The use cases themselves are ``qiyuan.tournament.arbiter``,
the event's storage ``qiyuan.office.events.live.LiveEventStore``; nothing here checks a rule."""

from __future__ import annotations

from qiyuan.errors import InputError, Problem
from qiyuan.office.events.entries import entrant_from_registry, latest_rating
from qiyuan.tournament import syntax

__all__ = ["entrant_from_registry", "latest_rating", "parse_result_key"]  # the registry's, for the views

def parse_result_key(text: str) -> str | None:
    """A typed result key (``qiyuan.tournament.syntax.parse_result_key``: ``1``, ``0``, ``=``,
    ``+``, ``-``, ``--``, a full result, or ``x`` to clear: ``""``), None if blank."""
    result = syntax.parse_result_key(text)
    if isinstance(result, Problem):
        raise InputError(result)
    return result

