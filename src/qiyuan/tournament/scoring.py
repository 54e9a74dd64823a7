"""Points of a round cell (一轮得分) and a player's score (积分): the one place they are computed.

A round cell's points come from its TRF result code under the event's point
system (Gomoku: win 2, draw 1, loss 0, pairing bye 2; chess files 1/½/0).  The
pairing state, the standings, the team scores, the event file's checks and the
competition report all call these functions.
"""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache

from qiyuan.tournament.model import Entrant, PointSystem, RoundCell

ZERO = Decimal(0)


@lru_cache(maxsize=32)
def points_table(points: PointSystem) -> dict[str, Decimal]:
    """Result code -> points under ``points`` (" " not played yet, 0).  Cached: callers must not change it."""
    return {
        "1": points.win, "W": points.win,
        "=": points.draw, "D": points.draw,
        "0": points.loss, "L": points.loss,
        "+": points.forfeit_win, "-": points.forfeit_loss,
        "U": points.pairing_bye, "H": points.half_bye,
        "F": points.full_bye, "Z": points.zero_bye,
        " ": ZERO, "": ZERO,
    }


def cell_points(cell: RoundCell, points: PointSystem) -> Decimal:
    """Points one round cell gives its player (一轮得分); an unknown code counts 0."""
    return points_table(points).get(cell.result, ZERO)


def score(entrant: Entrant, points: PointSystem, upto: int | None = None) -> Decimal:
    """Total points (积分) of an entrant over his first ``upto`` rounds (all when None)."""
    table = points_table(points)
    cells = entrant.rounds if upto is None else entrant.rounds[:upto]
    return sum([table.get(c.result, ZERO) for c in cells], ZERO)
