"""What the checker judges of a whole event beyond its rounds: whether it can be checked at all (rounds, order,
colours, results), and the final ranks the file states against the standings.  The round-by-round replay every
system's checker shares is :mod:`qiyuan.tournament.systems.replay`."""

from __future__ import annotations

from qiyuan.errors import Problem, problem
from qiyuan.tournament.handmade import hand_made_rounds
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.scoring import score
from qiyuan.tournament.standings import final_places
from qiyuan.tournament.state import rounds_paired
from qiyuan.tournament.systems import PairingSystem
from qiyuan.tournament.systems.base import Deviation, event_format
from qiyuan.tournament.systems.replay import before_round, hard_rules, is_foreign, recorded

__all__ = ["before_round", "check_standings", "event_format", "hand_made_rounds", "hard_rules", "is_foreign", "missing",
           "recorded", "rounds_paired"]


def missing(t: Tournament, system: PairingSystem) -> Problem | None:
    """Why ``t`` cannot be checked: no rounds, no colours (who opened), draw numbers not in order 1..n, a
    round paired before the one before it had its results; None when it can."""
    paired = rounds_paired(t)
    if not paired:
        return problem("not checkable: missing rounds")
    numbers = sorted(e.number for e in t.entrants)
    if numbers != list(range(1, len(numbers) + 1)):
        return problem("not checkable: missing order (draw numbers 1..{n})", n=len(numbers))
    games = [c for e in t.entrants for c in e.rounds if c.opponent is not None and c.result not in "+-"]
    if system.colours and games and all(c.colour == "-" for c in games):
        return problem("not checkable: missing colours (who opened)")
    for e in t.entrants:
        for i, c in enumerate(e.rounds[: paired - 1], 1):
            if c.opponent is not None and c.result == " ":
                return problem("not checkable: missing results of round {round}", round=i)
    return None


def check_standings(t: Tournament) -> list[Deviation]:
    """The final ranks the file states (TRF ``001`` rank column), when it states them, against the standings:
    a different order among players of equal score is the tie-break order, any other a wrong standing."""
    stated = {e.number: e.rank for e in t.entrants if e.rank is not None}
    if not stated:
        return []
    places = final_places(t)
    scores = {e.number: score(e, t.points) for e in t.entrants}
    out: list[Deviation] = []
    for n in sorted(stated, key=lambda n: (stated[n], n)):
        if places.get(n) == stated[n]:
            continue
        same = [m for m, p in places.items() if p == stated[n]]
        rule = "tie-break" if same and all(scores.get(m) == scores[n] for m in same) else "standing"
        out.append(Deviation(None, None, rule, problem("player {number} is ranked {stated} in the file, {place} by "
                                                        "the standings", number=n, stated=stated[n],
                                                        place=places.get(n, "-"))))
    return out
