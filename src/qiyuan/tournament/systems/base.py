"""The registry of pairing systems (编排制度登记) and what every system shares: the checker's plain data, the plan
of a generated event, and :func:`next_pairing` — the one door to a system's pairing entry point.

A system is one module of this package registering one :class:`PairingSystem` (its name is the file's ``XQM``
format): its pairing entry point, its checker and its generator side by side, and the few facts about it the
arbiter's functions ask (are late entries taken, may a round be paired by hand, must a game have a winner…).
Nothing outside the registry asks which system an event is by its name.  Pure: no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from qiyuan.errors import Problem, problem
from qiyuan.tournament.errors import EventError, refuse
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.state import boards_text, excuse_fill, is_active, is_finished, unfinished_boards
from qiyuan.tournament.swiss import next_round

__all__ = ["RULES", "SYSTEMS", "Deviation", "GeneratePlan", "PairingSystem", "RoundPairing", "UnknownSystem",
           "event_format", "names", "next_pairing", "rated_format", "register", "system_named", "system_of"]

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


class RoundPairing(NamedTuple):
    """The pairing of one round (一轮对阵), whatever the system."""

    number: int
    boards: list[tuple[int, int]]  # (opener, other) in board order
    byes: list[int]  # the pairing bye (轮空); a knock-out may have several
    explanation: list[str]
    notes: list[Problem] = []  # said whether or not an explanation was asked for (a rule relaxed, XXR corrected)


@dataclass(frozen=True, slots=True)
class GeneratePlan:
    """What a generated event of one system looks like (the generator plays it with the arbiter's own
    functions): ``players`` and ``rounds`` (None: as many as the system plays), ``boards`` per team, results
    always decisive (``decisive``), withdrawals, excuses and late entries between rounds (``changes``), a
    keep-apart rule now and then (``keep_apart``), prize categories now and then (``categories``), Go grades
    (``grades``), mini-matches' tie-break time control (their tie-break games' openers drawn by lot)."""

    players: int
    rounds: int | None = None
    boards: int | None = None
    decisive: bool = False
    changes: bool = False
    keep_apart: bool = False
    categories: bool = False
    grades: bool = False
    mini_matches: str | None = None


#: ``(t, rnd, explain) -> RoundPairing``: the system's pairing of round ``rnd`` (absent players pre-filled)
PairFn = Callable[[Tournament, int, bool], RoundPairing]
#: ``(t, rnd) -> deviations`` of round ``rnd`` as recorded in ``t``
CheckFn = Callable[[Tournament, int], "list[Deviation]"]
#: ``(rng, players, rounds) -> GeneratePlan``: a random event of the system (None: chosen by ``rng``)
PlanFn = Callable[[random.Random, "int | None", "int | None"], GeneratePlan]


@dataclass(frozen=True, slots=True)
class PairingSystem:
    """A pairing system as the arbiter's functions, the checker and the generator know it."""

    name: str  #: the file's ``XQM`` format
    trf_type: str  #: the TRF ``092`` line (type of tournament)
    pair: PairFn
    check_round: CheckFn
    plan: PlanFn
    #: why no late entry is taken once round 1 is paired (None: late entries are taken)
    fixed_field: Problem | None = None
    max_players: int | None = None  #: a match is between 2
    by_hand: bool = True  #: may a round be paired or overridden by hand (a knock-out's come from its bracket)
    bracket: bool = False  #: later rounds follow from the winners: every game needs one, results fixed
    colours: bool = True  #: the file records who opened (a knock-out's single games need not)
    team_boards: bool = False  #: a team event: boards per team
    needs_rounds: bool = False  #: the number of rounds is the arbiter's to give (a match's games)
    mini_matches: bool = False  #: may be played as mini-matches (two games and a tie-break game)
    round_robin: bool = False  #: ranked by a round robin's tie-breaks (直胜, 胜局, 索分)
    cycles: int = 1  #: how many times a round robin's table is played (a double round robin: 2)
    #: the event format the rating rules know it as (``rating.model.EventFormat``; None: its own name)
    rated_as: str | None = None
    go: bool = False  #: a Go event (1/0 points, grades, handicaps)
    #: how the final places read: ``standings`` (score and tie-breaks), ``bracket`` (the round reached),
    #: ``match`` (a match's score), ``teams`` (the teams' places), ``go`` (Go's placement criteria)
    ranking: str = "standings"
    #: the event's own settings when it starts (a Go event's points and criteria)
    start: Callable[[Tournament], None] | None = None
    #: before a round is paired: corrections and their notes (a round robin's number of rounds)
    before_pairing: Callable[[Tournament, int], list[Problem]] | None = None
    #: after a round's pairing is written, by the engine or by hand (a Go event's handicap stones)
    after_set: Callable[[Tournament, int], None] | None = None
    #: after the engine's pairing is written (which game of which mini-match round it is)
    after_pairing: Callable[[Tournament], None] | None = None
    #: the final places when not by the Swiss/round-robin standings (``number -> place``)
    places: Callable[[Tournament], dict[int, int]] | None = None
    #: the system's own records of round ``rnd`` and later forgotten, as before round ``rnd`` was paired (the
    #: checker's replay; e.g. which game of which mini-match round each round was)
    rewind: Callable[[Tournament, int], None] | None = None


SYSTEMS: dict[str, PairingSystem] = {}


class UnknownSystem(EventError):
    """An event file naming a pairing system qiyuan does not know."""


def register(system: PairingSystem) -> PairingSystem:
    """Add ``system`` to the registry (a module of this package does it when imported; a test may too)."""
    SYSTEMS[system.name] = system
    return system


def names() -> tuple[str, ...]:
    """Every registered system's name, in the order registered."""
    return tuple(SYSTEMS)


def event_format(t: Tournament) -> str:
    """The system recorded in the file (``XQM``); files from elsewhere are Swiss."""
    return (t.extra.get("XQM") or ["swiss"])[0].strip()


def rated_format(name: str) -> str:
    """The event format the rating rules know the system ``name`` as (a double round robin is a round robin, a Go
    McMahon or Swiss event a Swiss-system event); a name no system has is returned as it is."""
    system = SYSTEMS.get(name)
    return name if system is None or system.rated_as is None else system.rated_as


def system_named(name: str) -> PairingSystem:
    """The registered system ``name``; refused (:class:`UnknownSystem`) when there is none."""
    system = SYSTEMS.get(name)
    if system is None:
        raise UnknownSystem(problem("unknown pairing system {system!r}: qiyuan pairs {choices}", system=name,
                                    choices=", ".join(SYSTEMS)))
    return system


def system_of(t: Tournament) -> PairingSystem:
    """The system event ``t`` is paired by (its ``XQM`` format); refused when qiyuan does not know it."""
    return system_named(event_format(t))


def next_pairing(t: Tournament, *, explain: bool = False) -> RoundPairing:
    """The pairing of the next round by the event's own system.  Refuses while the last round has boards
    without a result or when every round is paired.  Players not to be paired (withdrawn, excused) get their
    ``Z`` (``H``/``F``) cell for that round; the pairing itself is not written."""
    faults = [problem("the event is finished: reopen it first")] if is_finished(t) else []
    if not t.entrants:
        faults.append(problem("no player is entered yet"))
    refuse(faults)
    system = system_of(t)
    rnd = next_round(t)
    if rnd > 1 and (left := unfinished_boards(t, rnd - 1)):
        refuse([problem("round {round} has boards without a result: {boards}", round=rnd - 1,
                        boards=boards_text(left))])
    notes = system.before_pairing(t, rnd) if system.before_pairing else []
    if t.rounds_planned and rnd > t.rounds_planned:
        refuse([problem("all {rounds} rounds are paired (XXR {rounds})", rounds=t.rounds_planned)])
    for e in t.entrants:  # JaVaFo convention: the absent are pre-filled for the round to be paired
        if not is_active(e, rnd) and len(e.rounds) < rnd:
            excuse_fill(e, rnd)
    pairing = system.pair(t, rnd, explain)
    return pairing._replace(notes=notes + list(pairing.notes))
