"""The refusal of a grades use case: every problem at once (``Problem`` objects)."""

from __future__ import annotations

from qiyuan.office.errors import RegistryError


class GradeRefused(RegistryError):
    """A grant, standard or policy the records or the policy forbid; nothing was written."""
