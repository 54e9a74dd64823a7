"""A team event (团体赛): teams meet by the Berger tables, board against board: the pairing entry point
(:func:`qiyuan.tournament.teams.team_round`), its checker and its generator, registered as ``team``."""

from __future__ import annotations

import random

from qiyuan.errors import problem
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.systems.base import GeneratePlan, PairingSystem, RoundPairing, register
from qiyuan.tournament.systems.fixed import fixed_checker
from qiyuan.tournament.teams import team_round, team_standings

__all__ = ["SYSTEM"]


def _pair(t: Tournament, rnd: int, explain: bool) -> RoundPairing:
    return RoundPairing(rnd, *team_round(t, rnd))


def _plan(rng: random.Random, players: int | None, rounds: int | None) -> GeneratePlan:
    n = players or rng.randint(8, 40)
    per_team = rng.randint(2, 4)
    return GeneratePlan(per_team * max(2, min(8, n // per_team)), boards=per_team)


def _places(t: Tournament) -> dict[int, int]:
    return {n: row.rank for row in team_standings(t) for n in row.team.members}


SYSTEM = register(PairingSystem(
    "team", "Team: Round-Robin", _pair, fixed_checker("pairing"), _plan,
    fixed_field=problem("a team event's line-up is fixed once round 1 is paired: no late entries"),
    team_boards=True, places=_places, ranking="teams"))
