"""A slow, independent reading of the Gomoku Swiss procedure, for small events.

Every feasibility question is answered by exhaustive search (no matching
algorithm), the group's floater count by trying every set of each size, so
the engine's look-ahead and floater minimisation can be checked against it.
"""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from itertools import combinations

from qiyuan.tournament.state import PlayerState

BYE = 0


def has_complete_pairing(pool: list[int], met: dict[int, set[int]], had_bye: dict[int, bool]) -> bool:
    """Hard rules only: can everybody be paired (one bye if odd), nobody meeting twice?"""
    return _complete(frozenset(pool), frozenset(), frozenset(), _Graph(met, had_bye))


class _Graph:
    def __init__(self, met: dict[int, set[int]], had_bye: dict[int, bool]) -> None:
        self.met = met
        self.had_bye = had_bye

    def ok(self, a: int, b: int, transit: frozenset[int], inside: frozenset[int]) -> bool:
        if (a in inside) != (b in inside):
            return False
        if a in transit and b in transit:
            return False
        return b not in self.met[a]


def _complete(unpaired: frozenset[int], transit: frozenset[int], inside: frozenset[int], g: _Graph) -> bool:
    @lru_cache(maxsize=None)
    def go(rest: frozenset[int], bye_left: bool) -> bool:
        if not rest:
            return True
        v = min(rest)
        others = rest - {v}
        if bye_left and v not in inside and not g.had_bye[v] and go(others, False):
            return True
        return any(g.ok(v, u, transit, inside) and go(others - {u}, bye_left) for u in others)

    return go(unpaired, len(unpaired) % 2 == 1)


def reference_pairing(
    round_no: int, pool: list[int], st: dict[int, PlayerState]
) -> tuple[list[tuple[int, int]], int | None] | None:
    """``(pairs in creation order, bye)`` by the spec's procedure, or None if impossible."""
    met = {n: st[n].opponents for n in pool}
    had_bye = {n: st[n].had_bye for n in pool}
    g = _Graph(met, had_bye)
    odd = round_no % 2 == 1
    unpaired = frozenset(pool)
    transit: frozenset[int] = frozenset()
    if not _complete(unpaired, transit, frozenset(), g):
        return None
    scores: dict[Decimal, list[int]] = {}
    for n in pool:
        scores.setdefault(st[n].score, []).append(n)
    pairs: list[tuple[int, int]] = []
    carry: list[int] = []

    def up_key(n: int) -> tuple[int, int, int]:
        return (-st[n].downs, st[n].ups, n if odd else -n)

    def float_key(n: int) -> tuple[int, int, int]:
        return (-st[n].ups, st[n].downs, -n)

    for score in sorted(scores, reverse=True):
        members = sorted(scores[score])
        on = []
        for f in carry:
            for c in sorted((c for c in members if c in unpaired and c not in met[f]), key=up_key):
                if _complete(unpaired - {f, c}, transit, frozenset(), g):
                    pairs.append((f, c))
                    unpaired -= {f, c}
                    transit -= {f}
                    break
            else:
                on.append(f)
        rest = [m for m in members if m in unpaired]
        order = sorted(rest, key=float_key)
        chosen: tuple[int, ...] | None = None
        for k in range(len(rest) % 2, len(rest) + 1, 2):
            for fl in combinations(order, k):
                if _complete(unpaired, transit | set(fl), frozenset(rest) - set(fl), g):
                    chosen = fl
                    break
            if chosen is not None:
                break
        assert chosen is not None
        transit |= set(chosen)
        inside = [m for m in rest if m not in chosen]
        while inside:
            p = inside[0]
            cands = inside[1:] if odd else inside[:0:-1]
            for q in cands:
                if q in met[p]:
                    continue
                left = frozenset(inside) - {p, q}
                if _complete(unpaired - {p, q}, transit, left, g):
                    pairs.append((p, q))
                    unpaired -= {p, q}
                    inside = [x for x in inside if x not in (p, q)]
                    break
            else:
                raise AssertionError("feasible state without a pick")
        carry = on + list(chosen)
    assert len(carry) <= 1
    return pairs, (carry[0] if carry else None)
