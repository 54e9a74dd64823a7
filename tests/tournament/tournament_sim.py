"""Build and play random events for the tournament tests and benchmarks."""

from __future__ import annotations

import random

from qiyuan.tournament.model import Entrant, RoundCell, Tournament
from qiyuan.tournament.swiss import Pairing, apply_pairing, pair_round


def event(n: int, name: str = "test") -> Tournament:
    """An event of ``n`` players numbered 1..n with no rounds yet."""
    return Tournament(name=name, entrants=[Entrant(number=i, name=f"P{i}") for i in range(1, n + 1)])


def enter_results(t: Tournament, r: int, rng: random.Random, draw_rate: float = 0.1) -> None:
    """Give every unplayed game of round ``r`` a random result (opener's view first)."""
    by = {e.number: e for e in t.entrants}
    for e in t.entrants:
        if len(e.rounds) < r:
            continue
        cell = e.rounds[r - 1]
        if cell.opponent is None or cell.result != " " or e.number > cell.opponent:
            continue
        other = by[cell.opponent].rounds[r - 1]
        x = rng.random()
        if x < draw_rate:
            cell.result, other.result = "=", "="
        elif x < (1 + draw_rate) / 2:
            cell.result, other.result = "1", "0"
        else:
            cell.result, other.result = "0", "1"


def play(t: Tournament, rounds: int, seed: int = 0, draw_rate: float = 0.1) -> list[Pairing]:
    """Pair and play ``rounds`` rounds with random results."""
    rng = random.Random(seed)
    out = []
    for _ in range(rounds):
        p = pair_round(t)
        apply_pairing(t, p)
        enter_results(t, p.round, rng, draw_rate)
        out.append(p)
    return out


def set_result(t: Tournament, r: int, a: int, b: int, res: str) -> None:
    """Enter ``a``'s result against ``b`` in round ``r`` ("1", "0", "=", "+", "-")."""
    by = {e.number: e for e in t.entrants}
    other = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}[res]
    ca, cb = by[a].rounds[r - 1], by[b].rounds[r - 1]
    assert ca.opponent == b and cb.opponent == a, (r, a, b)
    ca.result, cb.result = res, other


def absent(t: Tournament, r: int, n: int, code: str = "Z") -> None:
    by = {e.number: e for e in t.entrants}
    e = by[n]
    while len(e.rounds) < r - 1:
        e.rounds.append(RoundCell(None, "-", "Z"))
    e.rounds.append(RoundCell(None, "-", code))


def played(t: Tournament, r: int, opener: int, other: int, result: str) -> None:
    """Enter a game of round ``r`` by hand: ``opener`` opened, ``result`` is his ("1", "0", "=", "+", "-")."""
    by = {e.number: e for e in t.entrants}
    back = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", " ": " "}[result]
    for n, opp, colour, res in ((opener, other, "b", result), (other, opener, "w", back)):
        e = by[n]
        while len(e.rounds) < r - 1:
            e.rounds.append(RoundCell(None, "-", "Z"))
        assert len(e.rounds) == r - 1, (n, r)
        e.rounds.append(RoundCell(opp, colour, res))


def bye(t: Tournament, r: int, n: int) -> None:
    absent(t, r, n, "U")


def played_rounds(t: Tournament, rounds: list[list[tuple[int, int]]], result: str) -> None:
    """Enter whole rounds by hand, every game with the same result for its opener."""
    for r, games in enumerate(rounds, 1):
        for a, b in games:
            played(t, r, a, b, result)
