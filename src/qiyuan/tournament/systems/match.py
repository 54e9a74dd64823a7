"""A match (对抗赛) between two players over a number of games, openers alternating: the pairing entry point
(:func:`qiyuan.tournament.teams.match_round`), its checker and its generator, registered as ``match``."""

from __future__ import annotations

import random

from qiyuan.errors import problem
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.systems.base import GeneratePlan, PairingSystem, RoundPairing, register
from qiyuan.tournament.systems.fixed import fixed_checker
from qiyuan.tournament.teams import match_round, match_standings

__all__ = ["SYSTEM"]


def _pair(t: Tournament, rnd: int, explain: bool) -> RoundPairing:
    return RoundPairing(rnd, *match_round(t, rnd))


def _plan(rng: random.Random, players: int | None, rounds: int | None) -> GeneratePlan:
    return GeneratePlan(2, rounds or rng.randint(5, 11))


def _places(t: Tournament) -> dict[int, int]:
    return {row.number: row.rank for row in match_standings(t)}


SYSTEM = register(PairingSystem(
    "match", "Individual: Match", _pair, fixed_checker("pairing"), _plan,
    fixed_field=problem("a match is fixed once round 1 is paired: no late entries"), max_players=2,
    needs_rounds=True, places=_places, ranking="match"))
