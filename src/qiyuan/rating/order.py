"""名册排序: the order of a published list, set by the rule set (one order for ``qiyuan rate`` and the office).

* Status groups: active (活跃), inactive (不活跃), removed (除名), unrated (暂无等级分).
* Within a group, rating descending; equal ratings by the rule set's ``list_tie_order``: the pinyin of the
  name (CGA and Go say nothing: pinyin), the strokes of the name ascending (Beijing–Shanghai §13(一)2:
  依姓名的笔划按升序排列), or the player id alone.
* Beijing–Shanghai §13(一)3 (``list_new_by_registration``): among equal ratings, the players rated for the
  first time on this list come after the others, by registration date, then by strokes.
* Beijing–Shanghai §5 (``inactive_list_order = "pinyin"``): the inactive list is ordered by pinyin alone
  (以拼音排列的“不活跃棋手”名册).
* Last, the player id, so the order is total and reproducible.

Names are compared with ICU's collations ``zh@collation=pinyin`` and ``zh@collation=stroke``: a library call,
a pure function of the names. §13(一)1 leaves the order at 2480 and above to the two parties; the default is
the same strokes order.
"""

from __future__ import annotations

from datetime import date
from functools import lru_cache

import icu
import numpy as np

from qiyuan.rating.results import STATUS_ORDER
from qiyuan.rating.rules import INACTIVE_BY_PINYIN, TIE_ID, TIE_PINYIN, TIE_STROKES, RuleSet

_COLLATION = {TIE_PINYIN: "pinyin", TIE_STROKES: "stroke"}


@lru_cache(maxsize=4)
def collator(kind: str) -> icu.Collator:
    """The ICU collator of ``kind``: ``pinyin`` or ``strokes``."""
    return icu.Collator.createInstance(icu.Locale(f"zh@collation={_COLLATION[kind]}"))


@lru_cache(maxsize=200_000)
def name_key(kind: str, name: str) -> bytes:
    """The collation key of a name (cached: the same names are ordered list after list)."""
    return collator(kind).getSortKey(name)


def list_order_key(rules: RuleSet, *, status: str, rating: int | None, name: str, player_id: str,
                   is_new: bool = False, registered_on: date | None = None) -> tuple:
    """The sort key of one player on a published list of ``rules``.

    ``is_new``: his published rating is first held on this list (a first rating, or a new one after removal).
    """
    group = STATUS_ORDER[status]
    if status == "inactive" and rules.inactive_list_order == INACTIVE_BY_PINYIN:
        return (group, 0, (0, date.min), name_key(TIE_PINYIN, name), player_id)
    by_rating = -rating if rating is not None else 1
    newcomer = (1, registered_on or date.max) if is_new and rules.list_new_by_registration else (0, date.min)
    tie = b"" if rules.list_tie_order == TIE_ID else name_key(rules.list_tie_order, name)
    return (group, by_rating, newcomer, tie, player_id)


def name_ranks(kind: str, names: list[str]) -> np.ndarray:
    """Each name's rank in the collation ``kind`` (names with equal keys share a rank): for ordering in bulk.

    ICU sort keys contain no zero byte but their terminator, so NumPy's byte strings order them as
    ``list_order_key`` does."""
    if kind == TIE_ID:
        return np.zeros(len(names), np.int64)
    make = collator(kind).getSortKey
    cache: dict[str, bytes] = {}
    keys = [cache[n] if n in cache else cache.setdefault(n, make(n)) for n in names]
    if not keys:
        return np.zeros(0, np.int64)
    return np.unique(np.array(keys, dtype=bytes), return_inverse=True)[1].astype(np.int64).reshape(-1)


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
