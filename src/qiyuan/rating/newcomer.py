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


def performance_rating(rc: Fraction, w: Decimal, n_games: int, *, round_robin: bool, n_opponents: int,
                       bonus_per_half_point: Decimal = Decimal("12.5"),
                       dp_at_extremes: int | None = None) -> Fraction | None:
    """Ru of Art. 7 for a score of ``w`` out of ``n_games`` against an average ``rc``.

    ``None`` when dp is indeterminate (a zero score, which the zero-score rule removes first).
    """
    half_points_above = int(2 * w) - n_games  # 2W − N: W is in halves
    if half_points_above == 0:
        return rc
    if half_points_above > 0:
        return rc + Fraction(bonus_per_half_point) * half_points_above
    dp = dp_for_score(score_fraction(w, n_games), dp_at_extremes=dp_at_extremes)
    if dp is None:
        return None
    if round_robin:
        return rc + Fraction(dp) * Fraction(n_opponents, n_opponents + 1)
    return rc + dp


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
