"""Maximum matching in a general graph (Edmonds' blossom algorithm, 开花算法).

The pairing look-ahead asks one question over and over: can the players still
unpaired all be paired (with a dummy vertex for the bye)? That is whether the
"have not met" graph has a perfect matching. This module keeps one matching
(the *witness*) and repairs it after each change, so a question usually costs
a few steps instead of a full matching.

Vertices are indices ``0..n-1``; the graph is given by a predicate
``adjacent(i, j)`` (the "have not met" graph is dense, so it is never built).
Vertices can be removed (paired for good) and the matching can be saved and
restored.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

#: how many exposed targets the short-path repair tries to reach
SHORT_TARGETS = 8
#: how many vertices the blossom-free search expands before Edmonds' search takes over
GROW_POPS = 16


class Matching:
    """A matching on the live vertices of an implicit graph."""

    __slots__ = ("n", "adjacent", "mate", "alive", "scope", "journal", "excluded")

    def __init__(self, n: int, adjacent: Callable[[int, int], bool], order: Iterable[int] | None = None) -> None:
        self.n = n
        self.adjacent = adjacent
        self.mate: list[int] = [-1] * n
        #: live vertices, in the order searches look at them
        self.alive: dict[int, None] = dict.fromkeys(range(n) if order is None else order)
        #: when set, searches look only at these vertices (the caller guarantees no
        #: vertex outside it is adjacent to one inside)
        self.scope: list[int] | None = None
        #: while a trial runs: (vertex, former mate) of every change, to roll back
        self.journal: list[tuple[int, int]] | None = None
        #: optional: vertices known not to be adjacent to a vertex (the opponents it met), so
        #: searches skip them with one set difference instead of one predicate call each
        self.excluded: Callable[[int], set[int]] | None = None

    def live(self) -> list[int]:
        """The live vertices a search looks at."""
        if self.scope is None:
            return list(self.alive)
        alive = self.alive
        return [v for v in self.scope if v in alive]

    # -- basic operations ---------------------------------------------------

    def _set(self, i: int, j: int) -> None:
        if self.journal is not None:
            self.journal.append((i, self.mate[i]))
        self.mate[i] = j

    def match(self, i: int, j: int) -> None:
        self._set(i, j)
        self._set(j, i)

    def unmatch(self, i: int) -> int:
        """Drop ``i``'s matching edge; return its former mate (or -1)."""
        j = self.mate[i]
        if j != -1:
            self._set(i, -1)
            self._set(j, -1)
        return j

    def begin(self) -> None:
        """Start a trial: later changes of the matching can be rolled back."""
        self.journal = []

    def commit(self) -> None:
        self.journal = None

    def rollback(self) -> None:
        """Undo every change since :meth:`begin` (vertices removed meanwhile must be revived by the caller)."""
        journal, mate = self.journal, self.mate
        assert journal is not None
        for i, old in reversed(journal):
            mate[i] = old
        self.journal = None

    def remove(self, i: int) -> int:
        """Remove vertex ``i`` from the graph; return its former mate, now exposed (or -1)."""
        j = self.unmatch(i)
        del self.alive[i]
        return j

    def revive(self, i: int) -> None:
        self.alive[i] = None

    def compact(self) -> None:
        """Rebuild the live set so that scanning it skips no removed vertices."""
        self.alive = dict.fromkeys(self.alive)

    def exposed(self) -> list[int]:
        mate = self.mate
        return [i for i in self.alive if mate[i] == -1]

    # -- repair -------------------------------------------------------------

    def _short(self, v: int, targets: Iterable[int]) -> bool:
        """Match ``v`` by a path of length 1 or 3 to an exposed target.

        In the dense "have not met" graph this almost always succeeds after
        looking at a few vertices.
        """
        adjacent, mate, alive = self.adjacent, self.mate, self.alive
        targets = [w for w in targets if w != v and mate[w] == -1 and w in alive]
        for w in targets:
            if adjacent(v, w):
                self.match(v, w)
                return True
        if not targets:
            return False
        targets = targets[:SHORT_TARGETS]
        for u in alive:
            m = mate[u]
            if m == -1 or u == v or not adjacent(v, u):
                continue
            for w in targets:
                if w != m and adjacent(m, w):
                    self.match(v, u)
                    self.match(m, w)
                    return True
        return False

    def repair(self, exposed: Iterable[int]) -> bool:
        """Try to cover every given exposed vertex; False when some cannot be covered.

        When it returns False the matching is maximum with a vertex of
        ``exposed`` left uncovered, so no perfect matching exists.
        """
        todo = [v for v in exposed]
        mate = self.mate
        for v in todo:
            if mate[v] != -1 or v not in self.alive:
                continue
            if self._short(v, todo):
                continue
            if not self.augment(v):
                return False
        return True

    def maximise(self) -> list[int]:
        """Augment from every exposed vertex; return the vertices left exposed."""
        todo = self.exposed()
        left = []
        for v in todo:
            if self.mate[v] == -1 and not self._short(v, todo) and not self.augment(v):
                left.append(v)
        return left

    # -- Edmonds' search ----------------------------------------------------

    def augment(self, root: int) -> bool:
        """Search an augmenting path from the exposed vertex ``root``; apply it if found.

        A failed search leaves the matching unchanged. A search without
        blossoms is tried first (enough in the dense graphs of big events),
        then Edmonds' search.
        """
        return self._grow(root) or self._edmonds(root)

    def _grow(self, root: int) -> bool:
        """Alternating breadth-first search that ignores blossoms (may miss a path)."""
        mate, adjacent, excluded = self.mate, self.adjacent, self.excluded
        live = self.live()
        live_set = set(live) if excluded is not None else None
        parent: dict[int, int] = {root: -1}
        queue = deque([root])
        pops = 0
        while queue and pops < GROW_POPS:
            pops += 1
            v = queue.popleft()
            for u in live if live_set is None else live_set - excluded(v):
                if u in parent or u == v:
                    continue
                if not adjacent(v, u):
                    continue
                m = mate[u]
                if m == -1:
                    while v != -1:  # flip the path root … v, u
                        pv = mate[v]
                        self.match(v, u)
                        if pv == -1:
                            break
                        u = pv
                        v = parent[pv]
                    return True
                if m in parent:
                    continue
                parent[u] = v
                parent[m] = u
                queue.append(m)
        return False

    def outer(self, root: int) -> set[int]:
        """Vertices reached from the exposed ``root`` by an even alternating path (Edmonds' outer vertices).

        With every other vertex matched, ``x`` is outer exactly when the
        matching can be changed so that ``root`` is matched and ``x`` is not.
        The matching is left unchanged.
        """
        found: list[int] = []
        self._edmonds(root, found)
        return set(found)

    def _edmonds(self, root: int, outer: list[int] | None = None) -> bool:
        """Edmonds' search from ``root``; with ``outer`` given, only list the outer vertices."""
        n, mate, adjacent, excluded = self.n, self.mate, self.adjacent, self.excluded
        live = self.live()
        live_set = set(live) if excluded is not None else None
        parent = [-1] * n
        base = list(range(n))
        used = [False] * n
        used[root] = True
        queue = deque([root])

        def lca(a: int, b: int) -> int:
            seen = set()
            while True:
                a = base[a]
                seen.add(a)
                if mate[a] == -1:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if b in seen:
                    return b
                b = parent[mate[b]]

        def mark_path(v: int, b: int, child: int, blossom: set[int]) -> None:
            while base[v] != b:
                blossom.add(base[v])
                blossom.add(base[mate[v]])
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while queue:
            v = queue.popleft()
            for u in live if live_set is None else live_set - excluded(v):
                if base[v] == base[u] or mate[v] == u:
                    continue
                if not adjacent(v, u):
                    continue
                if u == root or (mate[u] != -1 and parent[mate[u]] != -1):
                    b = lca(v, u)
                    blossom: set[int] = set()
                    mark_path(v, b, u, blossom)
                    mark_path(u, b, v, blossom)
                    for i in live:
                        if base[i] in blossom:
                            base[i] = b
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[u] == -1:
                    if mate[u] == -1 and outer is not None:
                        continue
                    parent[u] = v
                    if mate[u] == -1:
                        while u != -1:
                            pv = parent[u]
                            ppv = mate[pv]
                            self.match(u, pv)
                            u = ppv
                        return True
                    used[mate[u]] = True
                    queue.append(mate[u])
        if outer is not None:
            outer.extend(i for i in live if used[i])
        return False


def maximum_matching(n: int, adjacent: Callable[[int, int], bool]) -> list[int]:
    """Mates of a maximum matching of the graph on ``0..n-1`` (-1 for exposed vertices)."""
    m = Matching(n, adjacent)
    m.maximise()
    return m.mate


def perfect_matching_exists(n: int, adjacent: Callable[[int, int], bool]) -> bool:
    """Whether the graph on ``0..n-1`` has a perfect matching: a greedy start (in a dense graph it
    leaves few vertices exposed), then Edmonds' search from each exposed vertex."""
    if n % 2:
        return False
    m = Matching(n, adjacent)
    for i in range(n):
        if m.mate[i] != -1:
            continue
        for j in range(i + 1, n):
            if m.mate[j] == -1 and adjacent(i, j):
                m.match(i, j)
                break
    return not m.maximise()
