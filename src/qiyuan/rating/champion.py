"""冠军不降分: who is an event's champion, and the protections of an event's ΣΔR.

* The champion is the player ranked 1 in the event's standings (every player
  ranked 1 on a tie); without standings, the players with the highest score
  over the event's games, forfeit wins included.
* The champion's negative ΣΔR for the event becomes 0 (per event, not per
  period). Beijing–Shanghai: not for events lasting more than 20 days.
* Go 1995: in an international event a player scoring at least 50 % (over his
  rated, actually played games) loses no points from it.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from qiyuan.rating.model import Game, Result, Standing

ONE = Decimal(1)
HALF = Decimal("0.5")
ZERO = Decimal(0)

#: Points to (player1, player2) for the champion's score: forfeit wins count, unplayed games do not.
_POINTS: dict[Result, tuple[Decimal, Decimal]] = {
    Result.WIN: (ONE, ZERO),
    Result.LOSS: (ZERO, ONE),
    Result.DRAW: (HALF, HALF),
    Result.FORFEIT_WIN: (ONE, ZERO),
    Result.FORFEIT_LOSS: (ZERO, ONE),
    Result.NOT_PLAYED: (ZERO, ZERO),
}


def event_scores(games: Iterable[Game]) -> dict[str, Decimal]:
    """Each player's score in the event (played games and forfeit wins)."""
    scores: dict[str, Decimal] = {}
    for g in games:
        a, b = _POINTS[g.result]
        scores[g.player1] = scores.get(g.player1, ZERO) + a
        scores[g.player2] = scores.get(g.player2, ZERO) + b
    return scores


def champions(games: Iterable[Game], standings: Iterable[Standing] = ()) -> frozenset[str]:
    """The event's champions (冠军): rank 1 in the standings, else the top score (all tied players)."""
    ranked_first = frozenset(s.player_id for s in standings if s.rank == 1)
    if ranked_first:
        return ranked_first
    scores = event_scores(games)
    if not scores:
        return frozenset()
    top = max(scores.values())
    return frozenset(p for p, s in scores.items() if s == top)
