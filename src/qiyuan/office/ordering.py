"""The order of a published list (名册排序), per rule set, with a real collation library (ICU).

- Status groups first: active (活跃), inactive (不活跃), removed (除名), unrated.
- Within a group, rating descending; equal ratings are ordered by the rule set:
  Beijing–Shanghai §13(一): below 2480, by the strokes of the name ascending
  (笔画, ICU ``zh@collation=stroke``), new registrants after the others by
  registration date, then strokes; at 2480 and above the parties set the order
  (default: strokes as well); the inactive list is ordered by pinyin
  (``zh@collation=pinyin``). CGA and Go texts say nothing: ties by pinyin.
- Last, the federation ID, so the order is total and reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import lru_cache

import icu

STATUS_GROUP = {"active": 0, "inactive": 1, "removed": 2, "unrated": 3}


@lru_cache(maxsize=4)
def collator(kind: str):
    """An ICU collator: ``stroke`` (笔画) or ``pinyin`` order of Chinese names."""
    return icu.Collator.createInstance(icu.Locale(f"zh@collation={kind}"))


@dataclass(frozen=True, slots=True)
class Orderable:
    federation_id: str
    name: str
    rating: int | None
    status: str
    is_new: bool = False
    registered_on: date | None = None


@lru_cache(maxsize=200_000)
def sort_key(kind: str, name: str) -> bytes:
    """The collation key of a name (cached: the same names are ordered edition after edition)."""
    return collator(kind).getSortKey(name)


def order_key(family: str, e: Orderable) -> tuple:
    group = STATUS_GROUP.get(e.status, 9)
    rating = -(e.rating if e.rating is not None else -1)
    if family == "bjsh-gomoku-2007":
        if e.status == "inactive":  # 不活跃棋手名册 by pinyin
            return (group, sort_key("pinyin", e.name), e.federation_id)
        newcomer = (1, e.registered_on or date.max) if e.is_new else (0, date.min)
        return (group, rating, newcomer, sort_key("stroke", e.name), e.federation_id)
    return (group, rating, sort_key("pinyin", e.name), e.federation_id)


def order(family: str, entries: list[Orderable]) -> list[Orderable]:
    """``entries`` in the published order of the rule-set family."""
    return sorted(entries, key=lambda e: order_key(family, e))


def competition_ranks(ratings: list[int | None]) -> list[int | None]:
    """Ranks 1, 2, 2, 4 … for ratings already in descending order; ``None`` for a missing rating."""
    ranks: list[int | None] = []
    last, last_rank = None, 0
    for i, r in enumerate(ratings, start=1):
        if r is None:
            ranks.append(None)
            continue
        if r != last:
            last, last_rank = r, i
        ranks.append(last_rank)
    return ranks
