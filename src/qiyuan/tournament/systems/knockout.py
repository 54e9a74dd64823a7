"""The knock-out (淘汰制), seeded by rating, of single games or mini-matches (two games and a tie-break game): the
pairing entry point (:func:`qiyuan.tournament.knockout.knockout_round`), its checker (the bracket fixes every
board) and its generator, registered as ``knockout``."""

from __future__ import annotations

import random

from qiyuan.errors import problem
from qiyuan.tournament import minimatch as mm
from qiyuan.tournament.knockout import knockout_places, knockout_round, mini_match_round
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.systems.base import GeneratePlan, PairingSystem, RoundPairing, register
from qiyuan.tournament.systems.fixed import fixed_checker

__all__ = ["SYSTEM"]


def _pair(t: Tournament, rnd: int, explain: bool) -> RoundPairing:
    return RoundPairing(rnd, *knockout_round(t, rnd))


def _after_pairing(t: Tournament) -> None:
    """A knock-out of mini-matches records which game of which match round the round paired is."""
    if mm.is_mini(t):
        mm.record_slot(t, mini_match_round(t)[0])


def _rewind(t: Tournament, rnd: int) -> None:
    """Which game of which mini-match round the rounds from ``rnd`` on were: not known before they were paired
    (the lots drawn for a tie-break game stay: they are drawn before it is paired)."""
    for slot in mm.schedule(t):
        if slot.round >= rnd:
            mm.forget_round(t, slot.round)


def _plan(rng: random.Random, players: int | None, rounds: int | None) -> GeneratePlan:
    """Single games or (one event in two) mini-matches, every game with a winner."""
    n = players or rng.randint(8, 40)
    return GeneratePlan(n, decisive=True, mini_matches="10 min + 5 s" if rng.random() < 0.5 else None)


SYSTEM = register(PairingSystem(
    "knockout", "Individual: Knock-out", _pair, fixed_checker("bracket"), _plan,
    fixed_field=problem("a knock-out bracket is fixed once round 1 is paired: no late entries"), by_hand=False,
    bracket=True, colours=False, mini_matches=True, after_pairing=_after_pairing, places=knockout_places, ranking="bracket", rewind=_rewind))
