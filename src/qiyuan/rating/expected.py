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

A rule set's ``colour_advantage`` A (0 in every official rule set: then
nothing here changes) adds A to Black's D and takes it from White's, in the
games whose colour is known, after the cap: per game D + A (Black) or D − A
(White); in the averaging methods C = A × (games as Black − games as White) / N
and D = R − [Rc − C].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from qiyuan.rating.calculation import Step, given, step
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
    colour: int = 0  # 1: he had Black, -1: White, 0: not known


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
    steps: tuple[Step, ...] = ()  # the numbers in the order the text computes them (after Ro and K)


def _clamp(x: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, x))


def per_game(rating: int, k: int, games: Sequence[RatedGame], cap: int | None = None,
             advantage: int = 0) -> Calculation:
    """逐局计算: each game's D gives its own We; ΔR is the sum of K(W − We) over the games."""
    lines = []
    colour_steps = []
    capped = False
    for g in games:
        d = rating - g.opponent_rating
        if cap is not None and abs(d) > cap:
            d = _clamp(d, -cap, cap)
            capped = True
        if advantage and g.colour:  # the game's D with Black's advantage (shown: the line's D is not R − R_opp)
            colour_steps.append(step("D", d + advantage * g.colour, "add", ("R − R_opp", d),
                                     ("colour_advantage", advantage * g.colour)))
            d += advantage * g.colour
        we = expected_score(d)
        lines.append(GameLine(round=g.round, opponent_id=g.opponent_id, opponent_rating=Decimal(g.opponent_rating),
                              D=d, We=we, W=g.W, K=k, dR=k * (g.W - we)))
    w = sum((g.W for g in games), Decimal(0))
    we = sum((line.We for line in lines), Decimal(0))
    delta = sum((line.dR for line in lines), Decimal(0))
    steps = (*colour_steps, step("W", w, "sum", *(("W", ln.W) for ln in lines)),
             step("We", we, "sum", *(("We", ln.We) for ln in lines)),
             step("ΔR", delta, "sum", *(("ΔR", ln.dR) for ln in lines)))
    return Calculation(W=w, We=we, delta=delta, capped=capped, lines=tuple(lines), steps=steps)


def _clamped_ratings(rating: int, ratings: Sequence[int], cap: int | None) -> tuple[list[int], bool, list[Step]]:
    """The opponents' ratings clamped into [R − cap, R + cap], whether any was, and a step for each that was."""
    if cap is None:
        return list(ratings), False, []
    clamped = [_clamp(r, rating - cap, rating + cap) for r in ratings]
    steps = [step("R_opp", c, "clamp_to", ("R_opp", r), ("Ro", rating), ("cap", cap))
             for r, c in zip(ratings, clamped) if r != c]
    return clamped, clamped != list(ratings), steps


def _score_steps(rating: int, k: int, w: Decimal, we_step: Step, games: Sequence[RatedGame]) -> tuple[Step, ...]:
    w_step = step("W", w, "sum", *(("W", g.W) for g in games))
    return (we_step, w_step, step("ΔR", k * (w - we_step.value), "delta", ("K", k), w_step, we_step))


def _colour_shifted(rc_step: Step, games: Sequence[RatedGame], advantage: int) -> tuple[Step, ...]:
    """Rc less the colour term C = A × (games as Black − games as White) / N, with its steps; just Rc when C is 0."""
    net = sum(g.colour for g in games)
    if not advantage or not net:
        return (rc_step,)
    share = step("(B − W)/N", Fraction(net, len(games)), "mean", *(("colour", g.colour) for g in games))
    c_step = step("C", advantage * share.value, "mul", ("colour_advantage", advantage), share)
    return rc_step, share, c_step, step("Rc − C", rc_step.value - c_step.value, "sub", rc_step, c_step)


def averaging(rating: int, k: int, games: Sequence[RatedGame], cap: int | None = None,
              advantage: int = 0) -> Calculation:
    """平均等级分法: We = N × PD(R − Rc), Rc the mean of the opponents met (one entry per game)."""
    ratings, capped, cap_steps = _clamped_ratings(rating, [g.opponent_rating for g in games], cap)
    rc = mean(ratings)
    rc_step = step("Rc", rc, "mean", *(("R_opp", r) for r in ratings))
    shifted = _colour_shifted(rc_step, games, advantage)
    d = rating - round_half_up(shifted[-1].value)
    pd = expected_score(d)
    w = sum((g.W for g in games), Decimal(0))
    we = len(games) * pd
    rounded = step("[Rc]", round_half_up(shifted[-1].value), "round", shifted[-1])
    d_step = step("D", d, "sub", ("Ro", rating), rounded)
    pd_step = step("Pd", pd, "PD", d_step)
    n_step = given("N", len(games), "games counted")
    steps = (*cap_steps, rc_step, *shifted[1:], rounded, d_step, pd_step, n_step,
             *_score_steps(rating, k, w, step("We", we, "mul", n_step, pd_step), games))
    return Calculation(W=w, We=we, delta=k * (w - we), Rc=rc, Pd=pd, D=d, capped=capped, steps=steps)


def go_round_robin(rating: int, k: int, games: Sequence[RatedGame], cap: int | None = None,
                   advantage: int = 0) -> Calculation:
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
    ratings, capped, cap_steps = _clamped_ratings(rating, list(distinct.values()), cap)
    rc = mean([rating, *ratings])
    rc_step = step("Rc", rc, "mean", ("Ro", rating), *(("R_opp", r) for r in ratings))
    shifted = _colour_shifted(rc_step, games, advantage)
    d = rating - round_half_up(shifted[-1].value)
    pa = expected_score(d)
    cycles = max(meetings.values())
    w = sum((g.W for g in games), Decimal(0))
    we = len(games) * pa - cycles * (HALF - pa)
    opponents = given("opponents", len(distinct), "distinct opponents he played")
    m_step = step("M", len(distinct) + 1, "add", ("himself", 1), opponents)
    rounded = step("[Rc]", round_half_up(shifted[-1].value), "round", shifted[-1])
    d_step = step("D", d, "sub", ("Ro", rating), rounded)
    pa_step = step("Pa", pa, "PD", d_step)
    n_step = given("N", len(games), "games counted")
    cycles_step = given("cycles", cycles, "most games against one opponent")
    if len(games) == len(distinct) and cycles == 1:  # one complete round robin: We = M·Pa − ½
        we_step = step("We", we, "go_we", m_step, pa_step)
    else:  # several cycles, or games missing (forfeits): N·Pa − cycles·(½ − Pa)
        we_step = step("We", we, "go_we_cycles", n_step, cycles_step, pa_step)
    steps = (*cap_steps, opponents, m_step, rc_step, *shifted[1:], rounded, d_step, pa_step, n_step, cycles_step,
             *_score_steps(rating, k, w, we_step, games))
    return Calculation(W=w, We=we, delta=k * (w - we), Rc=rc, Pd=pa, D=d, capped=capped, steps=steps)


METHODS = {"per_game": per_game, "averaging": averaging, "go_round_robin": go_round_robin}
