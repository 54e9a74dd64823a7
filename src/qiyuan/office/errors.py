"""The office's refusals: every reason at once, as data (``qiyuan.errors.Problem``).

``OfficeError`` is any refused office action; its kinds tell the caller what
happened without reading a message: ``RegistryError`` (a registry change the
records forbid), ``ImportRefused`` (a file the office does not accept — it is
kept as a rejected report), ``AlreadyImported`` (the same event is stored
already: also the loser of two imports at the same moment),
``NeedsConfirmation`` (a report waits for the officer to confirm name matches:
not a refusal of the file). The command line prints ``problems`` and exits 2;
the desk shows them in the page's language.
"""

from __future__ import annotations

from collections.abc import Iterable

from qiyuan.errors import Conflict, NotFound, Problem, QiyuanError, Refused, problem

__all__ = ["AlreadyImported", "ImportRefused", "InternalError", "NeedsConfirmation", "NotFound", "OfficeError", "Problem",
           "RegistryError", "problem"]


class OfficeError(Refused):
    """A refused office action; ``problems`` lists every reason."""


class RegistryError(OfficeError):
    """A registry action refused (a player, association, club or arbiter)."""


class ImportRefused(OfficeError):
    """A file the office does not accept; ``rejected`` tells whether it was kept as a rejected report."""

    def __init__(self, problems: Iterable[Problem | str] | Problem | str, *, rejected: bool = False):
        super().__init__(problems)
        self.rejected = rejected


class AlreadyImported(ImportRefused, Conflict):
    """The event (or file) is in the office already — imported before, or a moment ago by someone else."""


class NeedsConfirmation(OfficeError):
    """A report whose players matched by name and association only: nothing is stored until the officer
    confirms each (``pending_matches``, ``imports.model.PendingMatch``); ``problems`` says the same in words."""

    def __init__(self, pending_matches: list):
        super().__init__([m.text for m in pending_matches])
        self.pending_matches = list(pending_matches)


class InternalError(QiyuanError):
    """Something unforeseen went wrong (a bug, not the input): reported without a traceback, exit 1.
    An import that fails so is still kept as a rejected report with the reason."""

    exit_code = 1
