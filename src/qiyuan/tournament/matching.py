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

#: how many live vertices the short-path repair looks at before the full search
SHORT_SCAN = 48


class Matching:
    """A matching on the live vertices of an implicit graph."""

    __slots__ = ("n", "adjacent", "mate", "alive")

    def __init__(self, n: int, adjacent: Callable[[int, int], bool]) -> None:
        self.n = n
        self.adjacent = adjacent
        self.mate: list[int] = [-1] * n
        self.alive: dict[int, None] = dict.fromkeys(range(n))

    # -- basic operations ---------------------------------------------------

    def match(self, i: int, j: int) -> None:
        self.mate[i] = j
        self.mate[j] = i

    def unmatch(self, i: int) -> int:
        """Drop ``i``'s matching edge; return its former mate (or -1)."""
        j = self.mate[i]
        if j != -1:
            self.mate[i] = -1
            self.mate[j] = -1
        return j

    def remove(self, i: int) -> int:
        """Remove vertex ``i`` from the graph; return its former mate, now exposed (or -1)."""
        j = self.unmatch(i)
        del self.alive[i]
        return j

    def revive(self, i: int) -> None:
        self.alive[i] = None

    def exposed(self) -> list[int]:
        mate = self.mate
        return [i for i in self.alive if mate[i] == -1]

    def snapshot(self) -> list[int]:
        return self.mate.copy()

    def restore(self, saved: list[int]) -> None:
        self.mate[:] = saved

    # -- repair -------------------------------------------------------------

    def _short(self, v: int, targets: Iterable[int]) -> bool:
        """Match ``v`` by a path of length 1 or 3 to an exposed target."""
        adjacent, mate, alive = self.adjacent, self.mate, self.alive
        targets = [w for w in targets if w != v and mate[w] == -1 and w in alive]
        for w in targets:
            if adjacent(v, w):
                self.match(v, w)
                return True
        if not targets:
            return False
        targets = targets[:16]
        scanned = 0
        for u in alive:
            m = mate[u]
            if m == -1 or u == v:
                continue
            scanned += 1
            if scanned > SHORT_SCAN:
                break
            if not adjacent(v, u):
                continue
            for w in targets:
                if adjacent(m, w):
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

        A failed search leaves the matching unchanged.
        """
        n, mate, adjacent = self.n, self.mate, self.adjacent
        live = list(self.alive)
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
            for u in live:
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
                    parent[u] = v
                    if mate[u] == -1:
                        while u != -1:
                            pv = parent[u]
                            ppv = mate[pv]
                            mate[u] = pv
                            mate[pv] = u
                            u = ppv
                        return True
                    used[mate[u]] = True
                    queue.append(mate[u])
        return False


def maximum_matching(n: int, adjacent: Callable[[int, int], bool]) -> list[int]:
    """Mates of a maximum matching of the graph on ``0..n-1`` (-1 for exposed vertices)."""
    m = Matching(n, adjacent)
    m.maximise()
    return m.mate
