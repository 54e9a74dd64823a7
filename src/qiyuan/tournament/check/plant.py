"""Planted changes (人为改动) for testing a checker: a swap between two boards of a round (one making a repeat
meeting, one moving a player between score groups, one of equal cost inside a score group), an opener error, a
changed tie-break order.  Each changes ``t`` in place and returns where it planted (``None``: the event offers
no such change).  Pure; used by the checker's tests and benchmark."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from qiyuan.tournament import keepapart
from qiyuan.tournament.check.replay import before_round
from qiyuan.tournament.model import RoundCell, Tournament
from qiyuan.tournament.openers import opener_rule
from qiyuan.tournament.scoring import score
from qiyuan.tournament.state import player_states

__all__ = ["boards", "plant_keep_apart", "plant_opener", "plant_swap", "plant_table", "plant_tiebreak", "rewrite"]


def boards(t: Tournament, rnd: int) -> list[tuple[int, int]]:
    """Round ``rnd``'s boards ``(opener, other)`` in the file's order."""
    return [(e.number, c.opponent) for e in t.entrants if len(e.rounds) >= rnd
            and (c := e.rounds[rnd - 1]).opponent is not None and c.colour == "b"]


def rewrite(t: Tournament, rnd: int, new: list[tuple[int, int]], *, by_rule: bool = True) -> None:
    """Round ``rnd`` re-written with the boards ``new`` (the opener by the Gomoku opener rules when ``by_rule``),
    each opener winning; the stated ranks dropped (they would no longer be the standings)."""
    st = player_states(before_round(t, rnd), rnd)
    by = {e.number: e for e in t.entrants}
    for a, b in new:
        if by_rule:
            a, b, _ = opener_rule(st[a], st[b], rnd)
        by[a].rounds[rnd - 1] = RoundCell(b, "b", "1")
        by[b].rounds[rnd - 1] = RoundCell(a, "w", "0")
    for e in t.entrants:
        e.rank = None


def met(t: Tournament, a: int, b: int, rnd: int) -> bool:
    """Did ``a`` and ``b`` meet before round ``rnd``?"""
    return any(c.opponent == b for c in t.entrants[a - 1].rounds[: rnd - 1])


def _swaps(t: Tournament, rnd: int) -> Iterator[tuple[int, int, list[tuple[int, int]]]]:
    old = boards(t, rnd)
    for i, j in itertools.combinations(range(len(old)), 2):
        (a, b), (c, d) = old[i], old[j]
        new = list(old)
        new[i], new[j] = (a, d), (c, b)
        yield i + 1, j + 1, new


def plant_swap(t: Tournament, rnd: int, kind: str) -> tuple[int, int] | None:
    """Swap the second players of two boards of round ``rnd``: ``repeat`` (the swap makes a repeat meeting),
    ``score`` (two boards of two score groups: both groups float), ``equal`` (two boards of one score group,
    no repeat: an equally good pairing).  Returns the two boards, or None."""
    st = player_states(before_round(t, rnd), rnd)
    for i, j, new in _swaps(t, rnd):
        (a, d), (c, b) = new[i - 1], new[j - 1]
        s = [st[x].score for x in (a, b, c, d)]
        fresh = not met(t, a, d, rnd) and not met(t, c, b, rnd)
        if kind == "repeat":
            ok = met(t, a, d, rnd) and not met(t, c, b, rnd)
        elif kind == "score":
            ok = fresh and s[0] == s[1] != s[2] == s[3]
        else:
            ok = fresh and len(set(s)) == 1
        if ok:
            rewrite(t, rnd, new)
            return i, j
    return None


def plant_keep_apart(t: Tournament, rnd: int) -> tuple[int, int] | None:
    """A swap of equal cost otherwise (two boards of one score group, no repeat) that brings two players the
    keep-apart rule wants apart in round ``rnd`` onto one board, where the round had none; returns the two boards,
    or None when the event offers no such swap."""
    apart, _ = keepapart.apart_in_round(before_round(t, rnd), rnd)
    if not apart or keepapart.same_group_boards(boards(t, rnd), apart):
        return None
    st = player_states(before_round(t, rnd), rnd)
    for i, j, new in _swaps(t, rnd):
        (a, d), (c, b) = new[i - 1], new[j - 1]
        if len({st[x].score for x in (a, b, c, d)}) == 1 and not met(t, a, d, rnd) and not met(t, c, b, rnd) \
                and (d in apart.get(a, ()) or b in apart.get(c, ())):
            rewrite(t, rnd, new)
            return i, j
    return None


def plant_table(t: Tournament, rnd: int) -> tuple[int, int] | None:
    """Boards 1 and 2 of round ``rnd`` exchange their second players, who opens kept (a pairing the tables or the
    bracket do not give); returns the two boards, or None when the round has fewer than two."""
    old = boards(t, rnd)
    if len(old) < 2:
        return None
    (a, b), (c, d) = old[0], old[1]
    rewrite(t, rnd, [(a, d), (c, b), *old[2:]], by_rule=False)
    return 1, 2


def plant_opener(t: Tournament, rnd: int, board: int = 1) -> tuple[int, int] | None:
    """Board ``board`` of round ``rnd`` opened by the other player; returns ``(who opened now, board)``."""
    old = boards(t, rnd)
    if len(old) < board:
        return None
    a, b = old[board - 1]
    t.entrants[a - 1].rounds[rnd - 1].colour = "w"
    t.entrants[b - 1].rounds[rnd - 1].colour = "b"
    return b, boards(t, rnd).index((b, a)) + 1


def plant_tiebreak(t: Tournament) -> tuple[int, int] | None:
    """Two players of equal score and different stated ranks exchange their ranks; returns their numbers."""
    for x, y in itertools.combinations(t.entrants, 2):
        if x.rank is not None and y.rank is not None and x.rank != y.rank and \
                score(x, t.points) == score(y, t.points):
            x.rank, y.rank = y.rank, x.rank
            return x.number, y.number
    return None
