"""Round robin by the Berger tables, with who opens (循环制, 贝格尔编排法; single and double): the pairing entry
point (:func:`qiyuan.tournament.berger.pair_round_robin`), its checker (the tables fix every board and opener) and
its generator, registered as ``round_robin`` and ``double_round_robin``."""

from __future__ import annotations

import random

from qiyuan.errors import Problem, problem
from qiyuan.tournament.berger import berger_rounds, pair_round_robin
from qiyuan.tournament.errors import refuse
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.systems.base import GeneratePlan, PairingSystem, RoundPairing, register
from qiyuan.tournament.systems.fixed import fixed_checker

__all__ = ["DOUBLE", "SINGLE"]

_FIXED = problem("a round robin's Berger table is fixed once round 1 is paired: no late entries")


def _pair(t: Tournament, rnd: int, explain: bool) -> RoundPairing:
    p = pair_round_robin(t, rnd)
    return RoundPairing(rnd, [(b.opener, b.other) for b in p.boards], [] if p.bye is None else [p.bye],
                        list(p.explanation))


def _cycle(double: bool):
    def before_pairing(t: Tournament, rnd: int) -> list[Problem]:
        """Round 1 sets the number of rounds to the table's; a single round robin past it is complete."""
        notes: list[Problem] = []
        if rnd == 1 and len(t.entrants) >= 2:
            cycle = len(berger_rounds(len(t.entrants), double=double))
            if t.rounds_planned != cycle:
                if t.rounds_planned is not None:
                    notes.append(problem("rounds planned set to {cycle} (was {planned}): a round robin of {players} "
                                         "players has {cycle} rounds", cycle=cycle, planned=t.rounds_planned,
                                         players=len(t.entrants)))
                t.rounds_planned = cycle
        if not double and len(t.entrants) >= 2 and t.rounds_planned and rnd > t.rounds_planned:
            refuse([problem("the round robin is complete: {rounds} rounds", rounds=t.rounds_planned)])
        return notes
    return before_pairing


def _plan(rng: random.Random, players: int | None, rounds: int | None) -> GeneratePlan:
    return GeneratePlan(players or rng.randint(8, 40))


def _system(name: str, double: bool) -> PairingSystem:
    return register(PairingSystem(
        name, "Individual: Round-Robin", _pair, fixed_checker("table", byes=False), _plan, fixed_field=_FIXED,
        round_robin=True, cycles=2 if double else 1, rated_as="round_robin", before_pairing=_cycle(double)))


SINGLE = _system("round_robin", double=False)
DOUBLE = _system("double_round_robin", double=True)
