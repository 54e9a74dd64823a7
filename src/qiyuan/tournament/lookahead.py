"""The look-ahead of the Gomoku Swiss procedure (前瞻): can the round still be completed?

The source re-pairs the groups above when a group below cannot be paired; the procedure
(:mod:`qiyuan.tournament.swiss`, 法则二–四) instead takes each choice only if the rest of the round
can still be completed: a perfect matching must exist in the "have not met" graph of the players
still unpaired, with a dummy vertex for the bye (``BYE``) joined to the players without one,
players already floating (``transit``) not joined to each other, and a group's members that stay
inside it (its ``zone``) joined only to each other.

One perfect matching — the *witness* — is kept and repaired after each choice
(:mod:`qiyuan.tournament.matching`), so a question usually costs a few steps.  Pure: the
procedure owns the order of the choices; this module only answers whether one is possible.
"""

from __future__ import annotations

from qiyuan.tournament.matching import Matching

BYE = 0  # the dummy vertex standing for the bye (draw numbers start at 1)


class LookAhead:
    """The look-ahead of one run of the procedure: the witness and the zones it is kept in."""

    def __init__(self, round_no: int, size: int, met: list[set[int]], had_bye: list[bool]) -> None:
        self.round_no = round_no
        self.size = size
        self.met = met  # shared with the procedure: who met whom (keep-apart pairs included)
        self.had_bye = had_bye
        self.zone = [0] * size
        self.transit = [False] * size
        self.witness: Matching | None = None


    def adjacent(self, u: int, v: int) -> bool:
        zone = self.zone
        if zone[u] != zone[v]:
            return False
        if u == BYE:
            return not self.had_bye[v]
        if v == BYE:
            return not self.had_bye[u]
        if self.transit[u] and self.transit[v]:
            return False
        return v not in self.met[u]

    def start(self, order: list[int], pool: list[int], seed_pairs: list[tuple[int, int]],
              seed_bye: int | None) -> tuple[str, dict[str, int]] | None:
        """Start the witness from a run's pairs (``order``: the players group by group, the bye
        vertex last when the pool is odd); the refusal (template, params) when none completes."""
        size = self.size
        m = Matching(size, self.adjacent, order)
        m.excluded = self.met.__getitem__
        for a, b in seed_pairs:
            m.match(a, b)
        if seed_bye is not None and len(pool) % 2:
            m.match(seed_bye, BYE)
        left = m.maximise()
        if left:
            return self._impossible(pool, [v for v in left if v != BYE])
        self.witness = m
        return None

    def _impossible(self, pool: list[int], left: list[int]) -> tuple[str, dict[str, int]]:
        """The error (template, params) when the witness cannot be completed (``left``: players left over)."""
        r = self.round_no
        if not left:
            return ("round {round} cannot be paired: {present} players present and every one of them "
                    "has already had the bye", {"round": r, "present": len(pool)})
        v = left[0]
        if len(pool) == 1:
            return ("round {round} cannot be paired: player {number} is the only one present and has had the bye",
                    {"round": r, "number": v})
        others = [u for u in pool if u != v and u not in self.met[v]]
        if not others and (len(pool) % 2 == 0 or self.had_bye[v]):
            if len(pool) % 2:
                return ("round {round} cannot be paired: player {number} has already met every other player "
                        "present and has had the bye", {"round": r, "number": v})
            return ("round {round} cannot be paired: player {number} has already met every other player present",
                    {"round": r, "number": v})
        return ("round {round} cannot be paired: no pairing of the {present} players present avoids a repeat "
                "meeting or a second bye (the best pairing leaves {left} without an opponent, for example "
                "player {number})", {"round": r, "present": len(pool), "left": len(left), "number": v})

    def try_pair(self, a: int, b: int) -> bool:
        """Pair ``a`` with ``b`` if the rest of the round can still be completed."""
        m = self.witness
        if m is None:
            return True
        if m.mate[a] == b:
            m.remove(a)
            m.remove(b)
            return True
        m.begin()
        a2, b2 = m.remove(a), m.remove(b)
        if (a2 != -1 and b2 != -1 and self.adjacent(a2, b2)) or m.repair([x for x in (a2, b2) if x != -1]):
            if a2 != -1 and m.mate[a2] == -1:
                m.match(a2, b2)
            m.commit()
            return True
        m.rollback()
        m.revive(a)
        m.revive(b)
        return False

    def deficiency(self, players: list[int]) -> int:
        """How many of ``players`` a maximum pairing among themselves leaves over (Tutte–Berge)."""
        met = self.met
        m = Matching(self.size, lambda u, v: v not in met[u], players)
        m.excluded = met.__getitem__
        if self.witness is not None:  # start from the witness's pairs among them
            inside = set(players)
            mate = self.witness.mate
            for v in players:
                w = mate[v]
                if w > v and w in inside:
                    m.match(v, w)
        return len(m.maximise())

    def partners(self, a: int) -> set[int]:
        """Everybody ``a`` can meet with the rest of the round still complete (one search).

        ``b`` qualifies when it is ``a``'s partner in the witness, or when an
        even alternating path leads from that partner to ``b`` once ``a`` is
        taken out (then pairing ``a`` with ``b`` and flipping the path keeps a
        complete pairing; and only then).
        """
        m = self.witness
        assert m is not None
        partner = m.mate[a]
        m.begin()
        m.remove(a)
        found = m.outer(partner) if partner != -1 else set()
        m.rollback()
        m.revive(a)
        found.add(partner)
        return found

    def try_split(self, tag: int, rest: list[int], floaters: list[int]) -> bool:
        """Can exactly ``floaters`` leave the group while its other members pair among themselves?

        The witness is kept on success, restored otherwise.
        """
        m = self.witness
        assert m is not None
        zone, transit, mate = self.zone, self.transit, m.mate
        fl = set(floaters)
        others = [v for v in rest if v not in fl]
        m.begin()
        for v in others:
            zone[v] = tag
        for x in floaters:
            transit[x] = True
        cut: list[int] = []
        for v in others + floaters:
            w = mate[v]
            if w != -1 and not self.adjacent(v, w):
                m.unmatch(v)
                cut += (v, w)
        # the group's side alone, on its few players, before the whole round
        if not cut or (self.deficiency(others) == 0 and m.repair(cut)):
            m.commit()
            return True
        m.rollback()
        for v in others:
            zone[v] = 0
        for x in floaters:
            transit[x] = False
        return False

    def below_ok(self, rest: list[int], chosen: list[int], more: int) -> bool:
        """The side below alone: can it be completed when ``chosen`` and ``more`` others of ``rest`` float?

        Exact for that side: the members of ``rest`` not chosen are joined
        to ``len - more`` interchangeable "stay" vertices, so a perfect
        matching lets exactly ``more`` of them float down.
        """
        m = self.witness
        assert m is not None
        size = self.size
        rest_set = set(rest)
        chosen_set = set(chosen)
        free = [v for v in rest if v not in chosen_set]
        stays = len(free) - more
        if stays < 0:
            return False
        free_set = set(free)
        below = [v for v in m.alive if v not in rest_set]
        transit, met, had_bye, adjacent = self.transit, self.met, self.had_bye, self.adjacent

        def adj(u: int, v: int) -> bool:
            if u >= size or v >= size:  # a "stay" vertex
                return (u < size and u in free_set) or (v < size and v in free_set)
            for a, b in ((u, v), (v, u)):
                if a in free_set or a in chosen_set:  # a floats down from the group
                    if b in free_set or b in chosen_set or transit[b]:
                        return False
                    return not had_bye[a] if b == BYE else b not in met[a]
            return adjacent(u, v)

        absorbers = list(range(size, size + stays))
        t = Matching(size + stays, adj, below + chosen + free + absorbers)
        none: set[int] = set()
        t.excluded = lambda v: met[v] if v < size else none
        mate = m.mate
        for v in below:  # start from the witness: its pairs below, ...
            w = mate[v]
            if w != -1 and w not in rest_set and v < w:
                t.match(v, w)
        for v in chosen + free:  # ... its floaters' opponents below, ...
            w = mate[v]
            if w != -1 and w not in rest_set and t.mate[w] == -1 and adj(v, w):
                t.match(v, w)
        spare = iter(absorbers)  # ... and "stay" for the others
        for v in free:
            if t.mate[v] == -1:
                x = next(spare, None)
                if x is None:
                    break
                t.match(v, x)
        return not t.maximise()
