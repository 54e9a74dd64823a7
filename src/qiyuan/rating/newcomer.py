"""无等级分棋手的等级分 Ru (CGA Art. 6(一), Art. 7; FIDE B.02 of the 1990s).

* Round robin: Ra = Rar − Dpa × n/(n+1), where Rar is the mean published
  rating of the rated players, Dpa the mean of their dp (Table 1, from each
  one's score fraction over all his games in the event) and n the number of
  opponents in the round robin (participants − 1).
* Ru = Rc at 50 %; Rc + 12.5 per half point above 50 %; below 50 %,
  Rc + dp(p) (Swiss, team, match) or Rc + dp(p) × n/(n+1) (round robin, n his
  number of opponents). Rc is Ra in a round robin, else the mean of his rated
  opponents.
* The first rating is the game-weighted mean of the Ru of the counted events.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction

from qiyuan.rating.calculation import Step, given, step
from qiyuan.rating.exact import mean, round_half_up
from qiyuan.rating.tables import dp_for_score, score_fraction


def round_robin_dpa(scores: Iterable[tuple[Decimal, int]], *, dp_at_extremes: int | None = None) -> Fraction:
    """Dpa: the mean dp of the rated players, from each one's (score W, games N).

    Players at 0 % or 100 % have no dp (不定值) and are left out; none left → 0.
    """
    dps = []
    for w, n in scores:
        if n == 0:
            continue
        dp = dp_for_score(score_fraction(w, n), dp_at_extremes=dp_at_extremes)
        if dp is not None:
            dps.append(dp)
    return mean(dps) if dps else Fraction(0)


def round_robin_ra(rated_ratings: Sequence[int | Decimal], dpa: Fraction, n: int, *,
                   round_first: bool = False) -> Fraction:
    """Ra = Rar − Dpa × n/(n+1) (the round robin's average for unrated players)."""
    ra = mean(rated_ratings) - dpa * Fraction(n, n + 1)
    return Fraction(round_half_up(ra)) if round_first else ra


def round_robin_average(rated: Sequence[tuple[str, int, Decimal, int]], n: int, *, dp_at_extremes: int | None = None,
                        round_first: bool = False) -> tuple[Fraction, tuple[Step, ...]]:
    """Ra of a round robin (Art. 6(一)2(3)) with its steps, from each rated player's (id, rating, W, N)
    over all his games in it, and n = participants − 1."""
    steps: list[Step] = []
    dps: list[Step] = []
    for pid, _rating, w, games in rated:
        if games == 0:
            continue
        p = score_fraction(w, games)
        p_step = step("p", p, "p", ("W", w), ("N", games), ref=f"rated player {pid}")
        dp = dp_for_score(p, dp_at_extremes=dp_at_extremes)
        steps.append(p_step)
        if dp is not None:  # at 0 % and 100 % dp is indeterminate: he is left out of Dpa
            dps.append(step("dp", dp, "dp", p_step, ref=f"rated player {pid}"))
            steps.append(dps[-1])
    rar = step("Rar", mean(r for _, r, _, _ in rated), "mean", *(("R", r) for _, r, _, _ in rated))
    dpa = step("Dpa", mean(d.value for d in dps), "mean", *dps) if dps else given("Dpa", Fraction(0), "no rated "
                                                                                   "player has a dp")
    n_step = given("n", n, "opponents in the round robin (participants − 1)")
    ra = rar.value - Fraction(dpa.value) * Fraction(n, n + 1)
    steps += [rar, dpa, n_step, step("Ra", ra, "ra", rar, dpa, n_step)]
    if round_first:
        ra = Fraction(round_half_up(ra))
        steps.append(step("Ra", ra, "round", steps[-1]))
    return ra, tuple(steps)


def performance_calculation(rc: Step, w: Decimal, n_games: int, *, round_robin: bool, n_opponents: int,
                            bonus_per_half_point: Decimal = Decimal("12.5"),
                            dp_at_extremes: int | None = None) -> tuple[Fraction | None, tuple[Step, ...]]:
    """Ru of Art. 7 for a score of ``w`` out of ``n_games`` against the average ``rc`` (a step: Rc or Ra),
    with the steps of the text: h = 2W − N; Ru = Rc at 50 %, Rc + 12.5·h above, Rc + dp below (× n/(n+1)
    in a round robin). Ru is ``None`` when dp is indeterminate (a zero score, which the zero-score rule
    removes first)."""
    w_step = given("W", w, "his score in the games that count")
    n_step = given("N", n_games, "his games that count")
    h = step("h", int(2 * w) - n_games, "half_points", w_step, n_step)  # W is in halves
    base = Fraction(rc.value)
    if h.value == 0:
        return base, (w_step, n_step, h, step("Ru", base, "sum", rc))
    if h.value > 0:
        bonus = given("bonus", bonus_per_half_point, "per half point above 50 %")
        ru = base + Fraction(bonus_per_half_point) * h.value
        return ru, (w_step, n_step, h, bonus, step("Ru", ru, "bonus", rc, bonus, h))
    p = step("p", score_fraction(w, n_games), "p", w_step, n_step)
    dp = dp_for_score(p.value, dp_at_extremes=dp_at_extremes)
    if dp is None:
        return None, (w_step, n_step, h, p)
    dp_step = step("dp", dp, "dp", p)
    if round_robin:
        n = given("n", n_opponents, "his opponents")
        ru = base + Fraction(dp) * Fraction(n_opponents, n_opponents + 1)
        return ru, (w_step, n_step, h, p, dp_step, n, step("Ru", ru, "scaled", rc, dp_step, n))
    ru = base + dp
    return ru, (w_step, n_step, h, p, dp_step, step("Ru", ru, "add", rc, dp_step))


def performance_rating(rc: Fraction, w: Decimal, n_games: int, *, round_robin: bool, n_opponents: int,
                       bonus_per_half_point: Decimal = Decimal("12.5"),
                       dp_at_extremes: int | None = None) -> Fraction | None:
    """Ru of Art. 7 for a score of ``w`` out of ``n_games`` against an average ``rc`` (see
    ``performance_calculation``)."""
    return performance_calculation(given("Rc", rc), w, n_games, round_robin=round_robin, n_opponents=n_opponents,
                                   bonus_per_half_point=bonus_per_half_point, dp_at_extremes=dp_at_extremes)[0]


def first_rating(records: Iterable[tuple[Fraction, int]]) -> Fraction:
    """Art. 7(五): the game-weighted mean of the event Ru values, from (Ru, games) pairs."""
    total = Fraction(0)
    games = 0
    for ru, n in records:
        total += ru * n
        games += n
    if games == 0:
        raise ValueError("a first rating needs counted games")
    return total / games
