"""The checker's verdict (the deviations it names and the rules they break are every system's:
:mod:`qiyuan.tournament.systems.base`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from qiyuan.errors import Problem
from qiyuan.tournament.systems.base import RULES, Deviation

__all__ = ["RULES", "Deviation", "Verdict"]


@dataclass(slots=True)
class Verdict:
    """The checker's answer: ``consistent``, ``deviations`` or ``not checkable`` (``reason`` says why)."""

    system: str
    rounds: int = 0
    deviations: list[Deviation] = field(default_factory=list)
    by_hand: list[int] = field(default_factory=list)  # rounds the arbiter paired or changed by hand (XRH)
    reason: Problem | None = None  # not checkable: missing …, system X

    @property
    def status(self) -> str:
        if self.reason is not None:
            return "not checkable"
        return "deviations" if self.deviations else "consistent"

    @property
    def exit_code(self) -> int:
        return {"consistent": 0, "deviations": 1, "not checkable": 2}[self.status]
