"""预期局分 We and ΔR = K × (W − We) by the three methods the texts use.

* per game (逐局): We = Σ PD(R − R_opp,i) — Beijing–Shanghai everywhere, CGA round
  robin, Go knock-out;
* averaging (平均): We = N × PD(R − Rc), Rc the mean of the opponents — CGA
  Swiss/team/match/knock-out, Go Swiss/team/match;
* Go round robin: We = M × Pa − ½, Pa = PD(R − mean of all M players
  including himself); with forfeits or several cycles We = N·Pa − cycles·(½ − Pa).

D is always an integer: R − Rc with Rc rounded half up. With a cap (FIDE's
350/400 rule) a per-game D is clamped; in the averaging methods each
opponent's rating is clamped into [R − cap, R + cap] before the mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from qiyuan.rating.exact import mean, round_half_up
from qiyuan.rating.results import GameLine
from qiyuan.rating.tables import expected_score

HALF = Decimal("0.5")


class RatedGame(NamedTuple):
    """A game as one player sees it: the opponent, the rating used for him, the score."""

    round: int
    opponent_id: str
    opponent_rating: int
    W: Decimal


@dataclass(frozen=True, slots=True)
class Calculation:
    """The outcome of one method for one player in one event."""

    W: Decimal
    We: Decimal
    delta: Decimal
    Rc: Fraction | None = None
    Pd: Decimal | None = None
    D: int | None = None
    capped: bool = False
    lines: tuple[GameLine, ...] = ()


def _clamp(x: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, x))


def per_game(rating: int, k: int, games: Sequence[RatedGame], cap: int | None = None) -> Calculation:
    """逐局计算: each game's D gives its own We; ΔR is the sum of K(W − We) over the games."""
    lines = []
    capped = False
    for g in games:
        d = rating - g.opponent_rating
        if cap is not None and abs(d) > cap:
            d = _clamp(d, -cap, cap)
            capped = True
        we = expected_score(d)
        lines.append(GameLine(round=g.round, opponent_id=g.opponent_id, opponent_rating=Decimal(g.opponent_rating),
                              D=d, We=we, W=g.W, K=k, dR=k * (g.W - we)))
    w = sum((g.W for g in games), Decimal(0))
    we = sum((line.We for line in lines), Decimal(0))
    return Calculation(W=w, We=we, delta=sum((line.dR for line in lines), Decimal(0)), capped=capped,
                       lines=tuple(lines))


def _clamped_ratings(rating: int, ratings: Sequence[int], cap: int | None) -> tuple[list[int], bool]:
    if cap is None:
        return list(ratings), False
    clamped = [_clamp(r, rating - cap, rating + cap) for r in ratings]
    return clamped, clamped != list(ratings)


def averaging(rating: int, k: int, games: Sequence[RatedGame], cap: int | None = None) -> Calculation:
    """平均等级分法: We = N × PD(R − Rc), Rc the mean of the opponents met (one entry per game)."""
    ratings, capped = _clamped_ratings(rating, [g.opponent_rating for g in games], cap)
    rc = mean(ratings)
    d = rating - round_half_up(rc)
    pd = expected_score(d)
    w = sum((g.W for g in games), Decimal(0))
    we = len(games) * pd
    return Calculation(W=w, We=we, delta=k * (w - we), Rc=rc, Pd=pd, D=d, capped=capped)


def go_round_robin(rating: int, k: int, games: Sequence[RatedGame], cap: int | None = None) -> Calculation:
    """循环赛 (Go 1995): We = M × Pa − ½ per cycle.

    M = himself + the distinct opponents he actually played; Pa = PD(R − mean of
    the M ratings); N games over ``cycles`` cycles (the most games he played
    against one opponent): We = N·Pa − cycles·(½ − Pa), which is M·Pa − ½ for a
    single complete round robin.
    """
    distinct: dict[str, int] = {}
    meetings: dict[str, int] = {}
    for g in games:
        distinct[g.opponent_id] = g.opponent_rating
        meetings[g.opponent_id] = meetings.get(g.opponent_id, 0) + 1
    ratings, capped = _clamped_ratings(rating, list(distinct.values()), cap)
    rc = mean([rating, *ratings])
    d = rating - round_half_up(rc)
    pa = expected_score(d)
    cycles = max(meetings.values())
    w = sum((g.W for g in games), Decimal(0))
    we = len(games) * pa - cycles * (HALF - pa)
    return Calculation(W=w, We=we, delta=k * (w - we), Rc=rc, Pd=pa, D=d, capped=capped)


METHODS = {"per_game": per_game, "averaging": averaging, "go_round_robin": go_round_robin}
