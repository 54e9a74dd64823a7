"""McMahon pairing for Go (麦克马洪制编排), and a simple Swiss for Go, with handicaps.

How a round is paired (as OpenGotha documents its McMahon system):

1. **McMahon score** (MMS, 麦克马洪分): the start score from the rank played
   (held between the event's floor and bar, counted from its zero grade), plus
   the wins so far; a round without a game adds the event's absent or bye value
   (``go_tiebreaks``). A simple Swiss for Go (``go_swiss``) starts everybody at 0.
2. **Bye** (轮空) when the players to pair are odd, as in the Gomoku Swiss: the
   lowest McMahon score who has not had one (then the lowest rank, the highest
   draw number), provided the others can still all be paired without a repeat.
3. **Groups, top down**: the players of one McMahon score, with those floated
   down from above, are paired by a *maximum weight matching* of the group
   (``networkx.max_weight_matching``). The weights say, in this order of
   strength: never a repeat (no edge), the smallest score difference, the
   lowest player floats when the group is odd, players of one club or family
   apart (then of one association), seeding inside the group (upper half against lower half — ``split``
   — or first against last — ``fold``), colours balanced. Before a group's
   matching is kept, the cardinality matching of ``tournament.matching``
   checks that the players left below can still all be paired without a
   repeat (the Swiss look-ahead); if not, the next group joins this one.
4. **Handicap** (让子): from the McMahon score difference (or the rank
   difference, as the event says), each side held at most at the no-handicap
   grade, less the correction, never more than the ceiling. The weaker player
   takes black (黑); in an even game black goes to the player who has had white
   more often, then to the lower score.

Every board can be explained, in English or Chinese (``explanation.Line``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from qiyuan.tournament import go
from qiyuan.tournament.errors import EventError, problem
from qiyuan.tournament.explanation import Line
from qiyuan.tournament.go_tiebreaks import compute
from qiyuan.tournament.matching import perfect_matching_exists
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.state import is_active

# weights, strongest first (see the module's docstring); the base keeps every edge positive
_BASE = 10**15
_SCORE = 10**10  # per squared half point of score difference
_FLOAT = 10**7  # per place from the bottom of the group: the lowest is left to float
_APART = 10**6
_SEED = 10**3
_COLOUR = 10
#: in a large group, edges kept within this distance of the seeding's ideal partner
BAND = 6
#: a group larger than this is matched in blocks of about this size
BLOCK = 16


@dataclass(frozen=True, slots=True)
class GoBoard:
    black: int
    white: int
    handicap: int


@dataclass(slots=True)
class GoPairing:
    number: int
    boards: list[GoBoard]
    bye: int | None
    explanation: list[Line] = field(default_factory=list)


def _colour_balance(t: Tournament, num: int, upto: int) -> int:
    """Whites minus blacks in his even games so far (handicap games say nothing of colour)."""
    e = t.entrants[num - 1]
    return sum(1 if c.colour == "w" else -1 if c.colour == "b" else 0 for c in e.rounds[:upto]
               if c.opponent is not None)


def handicap_for(s: go.GoSettings, value_a: int, rank_a: int, value_b: int, rank_b: int) -> int:
    """Stones between two players: ``value_*`` their MMS (whole points) used when the handicap goes by
    MMS, ``rank_*`` their ranks; each side held at most at the no-handicap grade (OpenGotha's
    ``hdNoHdRankThreshold``), less the correction, 0..ceiling."""
    if s.hd_basis == "mms":
        cap = s.hd_none_from - s.zero
        a, b = min(value_a, cap), min(value_b, cap)
    else:
        a, b = min(rank_a, s.hd_none_from), min(rank_b, s.hd_none_from)
    return max(0, min(s.hd_ceiling, abs(a - b) - s.hd_correction))


def pair_go_round(t: Tournament, rnd: int, *, seeding: str = "split") -> GoPairing:
    """Pair round ``rnd`` of a Go event (McMahon, or a simple Swiss for ``go_swiss``).

    Raises ``EventError`` when the players to pair cannot all be paired without a repeat."""
    s, ps = go.settings(t), go.players(t)
    swiss = (t.extra.get("XQM") or [""])[0].strip() == "go_swiss"
    values = compute(t, s, ps, upto=rnd - 1)
    mms2 = dict(values["NBW"]) if swiss else dict(values["MMS"])
    rank = {e.number: _rank(ps, s, e.number) for e in t.entrants}
    met: dict[int, set[int]] = {e.number: {c.opponent for c in e.rounds[: rnd - 1] if c.opponent} for e in t.entrants}
    had_bye = {e.number for e in t.entrants if any(c.result in "UF" and c.opponent is None for c in e.rounds[: rnd - 1])}
    active = [e.number for e in t.entrants if is_active(e, rnd)]
    order = sorted(active, key=lambda n: (-mms2[n], -rank[n], -(t.entrants[n - 1].rating or 0), n))
    lines: list[Line] = []
    if not order:
        raise EventError(problem("no player to pair in round {round}", round=rnd))

    def pairable(players: list[int]) -> bool:
        return perfect_matching_exists(len(players), lambda i, j: players[j] not in met[players[i]])

    bye = None
    if len(order) % 2:
        for cand in reversed(order):
            if cand in had_bye:
                continue
            rest = [n for n in order if n != cand]
            if pairable(rest):
                bye = cand
                break
        if bye is None:
            raise EventError(problem("round {round}: no player can take the bye and leave the others pairable "
                                     "without a repeat", round=rnd))
        order.remove(bye)
        lines.append(Line("{player}: pairing bye — the lowest McMahon score without a bye yet", player=bye))
    elif not pairable(order):
        raise EventError(problem("round {round}: the players cannot all be paired without a repeat", round=rnd))

    clubs = {e.number: (e.club.strip(), e.family.strip(), e.federation.strip()) for e in t.entrants}
    groups: list[list[int]] = []
    for n in order:
        if groups and mms2[groups[-1][0]] == mms2[n]:
            groups[-1].append(n)
        else:
            groups.append([n])
    pairs: list[tuple[int, int]] = []
    carried: list[int] = []
    gi = 0
    while gi < len(groups):
        pool = carried + groups[gi]
        gi += 1
        while True:
            rest = [n for g in groups[gi:] for n in g]
            chosen = _group_matching(pool, mms2, met, clubs, seeding, t, rnd, s)
            left = [n for n in pool if not any(n in p for p in chosen)]
            if (not rest and not left) or (rest and pairable(left + rest)):
                break
            if len(pool) > BLOCK:  # the group was matched in blocks: try it whole before taking in the next
                chosen = _group_matching(pool, mms2, met, clubs, seeding, t, rnd, s, whole=True)
                left = [n for n in pool if not any(n in p for p in chosen)]
                if (not rest and not left) or (rest and pairable(left + rest)):
                    break
            if not rest:  # cannot happen: the whole field was checked pairable
                raise EventError(problem("round {round}: the players cannot all be paired without a repeat",
                                         round=rnd))
            pool = pool + groups[gi]  # the group below joins: the look-ahead found no way otherwise
            gi += 1
        pairs += chosen
        carried = left

    boards: list[GoBoard] = []
    for a, b in pairs:
        va, vb = mms2[a] // 2, mms2[b] // 2
        h = 0 if swiss else handicap_for(s, va, rank[a], vb, rank[b])
        # the weaker by what gives the stones: rank or McMahon score
        weaker_a = ((rank[a], va) < (rank[b], vb)) if s.hd_basis == "rank" else ((va, rank[a]) < (vb, rank[b]))
        if h:
            black, white = (a, b) if weaker_a else (b, a)
        else:
            ca, cb = _colour_balance(t, a, rnd - 1), _colour_balance(t, b, rnd - 1)
            if ca != cb:
                black, white = (a, b) if ca > cb else (b, a)
            else:
                black, white = (a, b) if weaker_a else (b, a)
        boards.append(GoBoard(black, white, h))
    boards.sort(key=lambda x: (-max(mms2[x.black], mms2[x.white]), -(mms2[x.black] + mms2[x.white]), x.black))
    for i, x in enumerate(boards, start=1):
        sb, sw = _half(mms2[x.black]), _half(mms2[x.white])
        line = Line("board {board}: {black} (black, McMahon score {sb}) – {white} (white, {sw})",
                    board=i, black=x.black, sb=sb, white=x.white, sw=sw)
        if mms2[x.black] != mms2[x.white]:
            high = x.black if mms2[x.black] > mms2[x.white] else x.white
            line = line + Line("; {high} floats down: nobody of McMahon score {score} was left for him that he had "
                               "not met", high=high, score=_half(mms2[high]))
        if x.handicap:
            line = line + Line("; {stones} handicap stones: the difference less {correction}, at most {ceiling}",
                               stones=x.handicap, correction=s.hd_correction, ceiling=s.hd_ceiling)
        else:
            line = line + Line("; even game, komi {komi}", komi=s.komi)
        club = clubs[x.black][0]
        if club and club == clubs[x.white][0]:
            line = line + Line("; same club {club}: every other pairing of the group cost more "
                               "(a repeat, a larger score difference or another float)", club=club)
        lines.append(line)
    return GoPairing(rnd, boards, bye, lines)


def _half(v2: int) -> str:
    return str(v2 // 2) if v2 % 2 == 0 else f"{v2 // 2}.5"


def _group_matching(pool: list[int], mms2: dict[int, int], met: dict[int, set[int]],
                    clubs: dict[int, tuple[str, str, str]], seeding: str, t: Tournament, rnd: int,
                    s: go.GoSettings, whole: bool = False) -> list[tuple[int, int]]:
    """The maximum weight matching of one group (with those floated into it).

    A group larger than ``BLOCK`` is matched in blocks, unless ``whole``: the seeding pairs the
    upper half's k-th player with the lower half's k-th (or, folded, last-k-th), so block k holds
    a slice of each half (the first block also those floated in), and whoever a block leaves
    unpaired joins the next. The weighted matching's cost grows with the cube of its size."""
    n = len(pool)
    if n < 2:
        return []
    if n > BLOCK and not whole:
        low = mms2[pool[-1]]
        floated = [p for p in pool if mms2[p] != low]
        members = [p for p in pool if mms2[p] == low]
        half = len(members) // 2
        upper, lower = members[:half], members[half:]
        if seeding == "fold":
            lower = lower[::-1]
        step = BLOCK // 2
        out: list[tuple[int, int]] = []
        carry = floated
        for k in range(0, max(half, 1), step):
            part = lower[k:k + step]
            block = carry + upper[k:k + step] + (part[::-1] if seeding == "fold" else part)
            if k + step >= half:
                block += lower[k + step:]  # the last block takes the rest of the lower half
            pairs = _group_matching(block, mms2, met, clubs, seeding, t, rnd, s, whole=True)
            out += pairs
            paired = {x for p in pairs for x in p}
            carry = [x for x in block if x not in paired]
        return out
    pos_in_score: dict[int, tuple[int, int]] = {}
    by_score: dict[int, list[int]] = {}
    for p in pool:
        by_score.setdefault(mms2[p], []).append(p)
    for members in by_score.values():
        for i, p in enumerate(members):
            pos_in_score[p] = (i, len(members))
    balance = {p: _colour_balance(t, p, rnd - 1) for p in pool}
    if n % 2 == 0 and len(by_score) == 1:
        ideal = _ideal(pool, seeding)
        if all(b not in met[a] and not _same_group(clubs, a, b) and not (clubs[a][2] and clubs[a][2] == clubs[b][2])
               for a, b in ideal) and \
                sum(_colour_cost(balance, a, b) for a, b in ideal) < 2 * _SEED:
            # every edge of the seeding's own pairing is allowed and costs nothing but colours, which
            # weigh less than any departure from it (two edges off by one place): it is the maximum
            return sorted((min(a, b), max(a, b)) for a, b in ideal)
    # a large group: only the edges near the seeding's ideal partner (a band), which keeps the weighted matching
    # fast; if the band leaves players unpaired that the whole group could pair, the whole group is matched
    band = BAND if n > 2 * BAND + 4 else None
    mate = _match(pool, mms2, met, clubs, seeding, balance, pos_in_score, band)
    if band is not None and 2 * len(mate) < n - 1:
        mate = _match(pool, mms2, met, clubs, seeding, balance, pos_in_score, None)
    return sorted((min(a, b), max(a, b)) for a, b in mate)


def _same_group(clubs: dict[int, tuple[str, str, str]], a: int, b: int) -> bool:
    """Same club or same family (keep apart where possible)."""
    ca, cb = clubs[a], clubs[b]
    return bool((ca[0] and ca[0] == cb[0]) or (ca[1] and ca[1] == cb[1]))


def _colour_cost(balance: dict[int, int], a: int, b: int) -> int:
    """Both want the same colour: the smaller of their imbalances, weighted."""
    return _COLOUR * min(abs(balance[a]), abs(balance[b])) if balance[a] * balance[b] > 0 else 0


def _ideal(pool: list[int], seeding: str) -> list[tuple[int, int]]:
    """The seeding's own pairing of one score group: upper half against lower half, or first against last."""
    half = len(pool) // 2
    if seeding == "fold":
        return [(pool[i], pool[-1 - i]) for i in range(half)]
    return [(pool[i], pool[half + i]) for i in range(half)]


def _match(pool, mms2, met, clubs, seeding, balance, pos_in_score, band):
    n = len(pool)
    g = nx.Graph()
    for i in range(n):
        a = pool[i]
        for j in range(i + 1, n):
            b = pool[j]
            if b in met[a]:
                continue
            if band is not None and mms2[a] == mms2[b]:
                (pa, size), (pb, _) = pos_in_score[a], pos_in_score[b]
                off = pa + pb - (size - 1) if seeding == "fold" else abs(pa - pb) - size // 2
                if abs(off) > band:
                    continue
            w = _BASE - _SCORE * (mms2[a] - mms2[b]) ** 2 + _FLOAT * ((n - i) + (n - j))
            if _same_group(clubs, a, b):
                w -= _APART
            elif clubs[a][2] and clubs[a][2] == clubs[b][2]:
                w -= _APART // 2  # the same association: apart where possible, after clubs and families
            if mms2[a] == mms2[b]:
                (pa, size), (pb, _) = pos_in_score[a], pos_in_score[b]
                if seeding == "fold":
                    w -= _SEED * (pa + pb - (size - 1)) ** 2
                else:
                    w -= _SEED * (abs(pa - pb) - size // 2) ** 2
            w -= _colour_cost(balance, a, b)
            g.add_edge(a, b, weight=w)
    return nx.max_weight_matching(g, maxcardinality=True)


def record_handicaps(t: Tournament, rnd: int) -> None:
    """Record the stones of every board of round ``rnd`` (``XQH`` lines), from the scores before it:
    the boards as paired (by this module or by hand, black = the ``b`` cell)."""
    s, ps = go.settings(t), go.players(t)
    swiss = (t.extra.get("XQM") or [""])[0].strip() == "go_swiss"
    mms2 = compute(t, s, ps, upto=rnd - 1)["MMS"]
    for e in t.entrants:
        c = e.rounds[rnd - 1] if len(e.rounds) >= rnd else None
        ps[e.number].handicaps.pop(rnd, None)
        if c is None or c.opponent is None or swiss:
            continue
        o = c.opponent
        h = handicap_for(s, mms2[e.number] // 2, _rank(ps, s, e.number), mms2[o] // 2, _rank(ps, s, o))
        if h:
            ps[e.number].handicaps[rnd] = h
    go.set_players(t, ps)


def _rank(ps: dict[int, go.GoPlayer], s: go.GoSettings, n: int) -> int:
    r = ps[n].rank if n in ps else None
    return r if r is not None else s.zero
