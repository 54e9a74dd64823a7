"""Exact arithmetic on the rating path: 四舍五入 and means without binary floats.

Ratings, changes and table values are ``Decimal`` hundredths. Means (Rc, Rar,
Dpa, Ra, Ru, a first rating) can have any denominator (a mean of 7 ratings),
so they are computed as ``Fraction`` and only rounded where the rules round:
the rating difference D (an integer) and the published rating.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

Number = int | Decimal | Fraction


def as_fraction(x: Number) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(x)


def round_half_up(x: Number) -> int:
    """四舍五入 to an integer: x.5 goes up (ratings are positive, so this is also 'away from zero')."""
    f = as_fraction(x)
    return int((2 * f.numerator + f.denominator) // (2 * f.denominator))


def mean(values: Iterable[Number]) -> Fraction:
    """Arithmetic mean, exact."""
    values = list(values)
    if not values:
        raise ValueError("the mean of no values")
    if all(type(v) is int for v in values):  # ratings: one exact division
        return Fraction(sum(values), len(values))
    return sum((as_fraction(v) for v in values), Fraction(0)) / len(values)


def to_decimal(x: Number, places: int = 6) -> Decimal:
    """A ``Decimal`` for display: exact when the value has a finite decimal form
    (every value built from hundredths does), else rounded half up to ``places``."""
    if isinstance(x, Decimal):
        return x
    f = as_fraction(x)
    d = f.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d == 1:
        return Decimal(f.numerator) / Decimal(f.denominator)
    quantum = Decimal(1).scaleb(-places)
    return (Decimal(f.numerator) / Decimal(f.denominator)).quantize(quantum, rounding=ROUND_HALF_UP)

