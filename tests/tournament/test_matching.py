"""Edmonds' maximum matching against exhaustive search."""

from __future__ import annotations

from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.tournament.matching import Matching, maximum_matching


def brute_force_size(n: int, edges: frozenset[tuple[int, int]]) -> int:
    @lru_cache(maxsize=None)
    def best(rest: frozenset[int]) -> int:
        if not rest:
            return 0
        v = min(rest)
        others = rest - {v}
        skip = best(others)
        take = max((1 + best(others - {u}) for u in others if (min(u, v), max(u, v)) in edges), default=0)
        return max(skip, take)

    return best(frozenset(range(n)))


@st.composite
def graphs(draw):
    n = draw(st.integers(1, 11))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = frozenset(p for p in pairs if draw(st.booleans()))
    return n, edges


@settings(max_examples=150, deadline=None)
@given(graphs())
def test_maximum_matching_is_maximum_and_valid(g) -> None:
    n, edges = g
    mate = maximum_matching(n, lambda u, v: (min(u, v), max(u, v)) in edges)
    for v, w in enumerate(mate):
        if w != -1:
            assert mate[w] == v and (min(v, w), max(v, w)) in edges
    assert sum(1 for w in mate if w != -1) // 2 == brute_force_size(n, edges)


@settings(max_examples=150, deadline=None)
@given(graphs())
def test_edmonds_search_alone_finds_a_maximum_matching(g) -> None:
    """Without the short-path and blossom-free shortcuts: Edmonds' search from every exposed vertex."""
    n, edges = g
    m = Matching(n, lambda u, v: (min(u, v), max(u, v)) in edges)
    for v in range(n):
        if m.mate[v] == -1:
            m._edmonds(v)
    assert (n - len(m.exposed())) // 2 == brute_force_size(n, edges)


def test_blossom_is_needed_and_found() -> None:
    """0-1=2, triangle 2-3=4-2, 3-5: the only augmenting path 0-1=2-4=3-5 runs round the blossom.

    The blossom-free search misses it (3 is reached as an odd vertex), Edmonds' search finds it.
    """
    edges = {(0, 1), (1, 2), (2, 3), (3, 4), (2, 4), (3, 5)}
    m = Matching(6, lambda u, v: (min(u, v), max(u, v)) in edges)
    m.match(1, 2)
    m.match(3, 4)
    assert not m._grow(0)
    assert m.mate == [-1, 2, 1, 4, 3, -1]
    assert m._edmonds(0)
    assert m.exposed() == [] and m.mate[5] == 3 and m.mate[0] == 1


def test_rollback_restores_the_matching() -> None:
    m = Matching(4, lambda u, v: True)
    m.match(0, 1)
    m.begin()
    m.unmatch(0)
    m.match(0, 2)
    m.rollback()
    assert m.mate == [1, 0, -1, -1]
