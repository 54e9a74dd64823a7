"""The rating distribution of an edition (等级分分布): a histogram and percentiles of the published ratings.

Pure arithmetic on integers: bins of ``width`` points from a multiple of it (2000–2099 …); a percentile is the
nearest-rank one (the smallest rating with at least p % of the ratings at or below it), so every figure is a
rating somebody has — no interpolation, no binary float.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

PERCENTILES = (10, 25, 50, 75, 90, 99)
WIDTH = 100


@dataclass(frozen=True)
class Bin:
    low: int  # the bin holds low … low + width - 1
    high: int
    count: int


@dataclass(frozen=True)
class Distribution:
    count: int
    bins: list[Bin]
    percentiles: dict[int, int]
    lowest: int | None
    highest: int | None

    @property
    def tallest(self) -> int:
        return max((b.count for b in self.bins), default=0)


def nearest_rank(sorted_values: list[int], p: int) -> int:
    """The p-th percentile by nearest rank: the value at rank ⌈p·n/100⌉ (integer arithmetic)."""
    n = len(sorted_values)
    rank = max(1, -(-p * n // 100))
    return sorted_values[rank - 1]


def distribution(ratings: Iterable[int], width: int = WIDTH) -> Distribution:
    values = sorted(ratings)
    if not values:
        return Distribution(0, [], {}, None, None)
    counts = Counter(v // width for v in values)
    first, last = values[0] // width, values[-1] // width
    bins = [Bin(k * width, k * width + width - 1, counts.get(k, 0)) for k in range(first, last + 1)]
    return Distribution(len(values), bins, {p: nearest_rank(values, p) for p in PERCENTILES}, values[0], values[-1])
