"""The checker's plain data and the registry of pairing systems (one module per system registers itself)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from qiyuan.errors import Problem, problem
from qiyuan.tournament.model import Tournament

#: the rules a deviation can name (translatable ``Problem``s)
RULES: dict[str, Problem] = {
    "repeat": problem("repeat meeting"),
    "bye": problem("bye"),
    "absent": problem("absent or withdrawn player paired"),
    "unpaired": problem("player present but not paired"),
    "twice": problem("player paired twice"),
    "opener": problem("colour/opener"),
    "float": problem("float"),
    "score": problem("score difference"),
    "keep-apart": problem("keep-apart"),
    "tie-break": problem("tie-break order"),
    "standing": problem("standing"),
    "table": problem("Berger table"),
    "bracket": problem("bracket"),
    "pairing": problem("pairing"),
}


@dataclass(frozen=True, slots=True)
class Deviation:
    """One place where the event breaks its rules: the round (None: the final standings), the board (1-based,
    in the file's order; None: the round as a whole or the bye), the rule (a key of :data:`RULES`) and what is
    wrong (a translatable ``Problem``)."""

    round: int | None
    board: int | None
    rule: str
    detail: Problem


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


@dataclass(frozen=True, slots=True)
class System:
    """A pairing system as the checker and the generator know it."""

    formats: tuple[str, ...]
    #: ``(t, rnd) -> deviations`` of round ``rnd`` as recorded in ``t``
    check_round: Callable[[Tournament, int], list[Deviation]]
    #: ``(rng, fmt, players, rounds) -> Tournament``: a random finished event
    generate: Callable | None = None


SYSTEMS: dict[str, System] = {}


def register(system: System) -> System:
    for fmt in system.formats:
        SYSTEMS[fmt] = system
    return system
