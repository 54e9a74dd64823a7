"""The order of a published list (名册排序): the rating core's one order, applied to the office's rows.

The order is the rule set's (``qiyuan.rating.order.list_order_key``): status groups, rating descending,
then the rule set's tie order (Beijing–Shanghai §13(一): strokes, newly rated players by registration
date; its inactive list by pinyin; CGA and Go: pinyin), the federation ID last. ``qiyuan rate`` orders its
lists with the same key.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from qiyuan.rating.order import competition_ranks, list_order_key
from qiyuan.rating.rules import RuleSet

__all__ = ["Orderable", "order_key", "order", "competition_ranks"]


@dataclass(frozen=True, slots=True)
class Orderable:
    federation_id: str
    name: str
    rating: int | None
    status: str
    is_new: bool = False
    registered_on: date | None = None


def order_key(rules: RuleSet, e: Orderable) -> tuple:
    return list_order_key(rules, status=e.status, rating=e.rating, name=e.name, player_id=e.federation_id,
                          is_new=e.is_new, registered_on=e.registered_on)


def order(rules: RuleSet, entries: list[Orderable]) -> list[Orderable]:
    """``entries`` in the published order of the rule set."""
    return sorted(entries, key=lambda e: order_key(rules, e))
