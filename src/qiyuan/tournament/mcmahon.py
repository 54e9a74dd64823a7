"""McMahon pairing for Go (麦克马洪制编排), and a simple Swiss for Go, with handicaps.

How a round is paired (as OpenGotha documents its McMahon system):

1. **McMahon score** (MMS, 麦克马洪分): the start score from the rank played
   (held between the event's floor and bar, counted from its zero grade), plus
   the wins so far; a round without a game adds the event's absent or bye value
   (``go_tiebreaks``). A simple Swiss for Go (``go_swiss``) starts everybody at 0.
2. **Bye** (轮空) when the players to pair are odd, as in the Gomoku Swiss: the
   lowest McMahon score who has not had one (then the lowest rank, the highest
   draw number), provided the others can still all be paired without a repeat.
3. **The boards, over the whole round** (as OpenGotha pairs: one weighted matching of everybody, its
   criteria in order): never a repeat (a hard rule); then the smallest *sum over the boards of the squared
   McMahon-score gaps* — many small gaps are better than one large one, so a player left over meets the
   nearest group above or below, never one several groups away, unless repeats leave nothing else; then
   the float (the lowest of the upper group goes down, to the highest of the lower group); then handicap
   stones; then players of one club or family apart (then of one association) — only where it costs no
   larger gap, float or stone; then the seeding inside a group (upper half against lower half —
   ``split`` — or first against last — ``fold``); then colours balanced. Each criterion's weight is more
   than all those below it can add up to over the round, so none is traded for a lesser one. For speed
   the players in McMahon order are cut where the players above are even in number and the score drops,
   and the pieces matched apart — merged or matched exactly wherever a lower bound of every pairing says a
   smaller sum may exist (``_round_matching`` says why this keeps the least sum); a large score group is
   matched in blocks of the seeding.
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
from qiyuan.tournament.go_tiebreaks import board_key, compute, pairing_scores
from qiyuan.tournament.matching import perfect_matching_exists  # the Swiss look-ahead's matching
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.state import is_active

#: a chunk of the round of at most this many players is matched exactly, all its boards in one weighted matching
EXACT = 40
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
    swiss = go.is_go_swiss(t)
    mms2 = pairing_scores(t, s, ps, rnd)
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
    r = _Round(t, rnd, s, swiss, seeding, mms2, rank, met, clubs, order)
    pairs = _round_matching(r)

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
    boards.sort(key=lambda x: board_key(mms2, x.black, x.white))
    for i, x in enumerate(boards, start=1):
        sb, sw = _half(mms2[x.black]), _half(mms2[x.white])
        line = Line("board {board}: {black} (black, McMahon score {sb}) – {white} (white, {sw})",
                    board=i, black=x.black, sb=sb, white=x.white, sw=sw)
        if mms2[x.black] != mms2[x.white]:
            line = line + _float_reasons(r, x.black, x.white)
        if x.handicap:
            line = line + Line("; {stones} handicap stones: the difference less {correction}, at most {ceiling}",
                               stones=x.handicap, correction=s.hd_correction, ceiling=s.hd_ceiling)
        else:
            line = line + Line("; even game, komi {komi}", komi=s.komi)
        club = clubs[x.black][0]
        if club and club == clubs[x.white][0]:
            line = line + Line("; same club {club}: clubs are kept apart only where it costs no larger score "
                               "gap, float or handicap", club=club)
        lines.append(line)
    return GoPairing(rnd, boards, bye, lines)


def _half(v2: int) -> str:
    return str(v2 // 2) if v2 % 2 == 0 else f"{v2 // 2}.5"


@dataclass(slots=True)
class _Round:
    """What the pairing of one round weighs: the McMahon scores (in half points), ranks, who met whom, clubs
    (club, family, association), the players to pair in McMahon order, and each one's place in his group."""

    t: Tournament
    rnd: int
    s: go.GoSettings
    swiss: bool
    seeding: str
    mms2: dict[int, int]
    rank: dict[int, int]
    met: dict[int, set[int]]
    clubs: dict[int, tuple[str, str, str]]
    order: list[int]
    place: dict[int, tuple[int, int]] = field(default_factory=dict)  # (place in his group, group size)
    balance: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        by_score: dict[int, list[int]] = {}
        for n in self.order:
            by_score.setdefault(self.mms2[n], []).append(n)
        for members in by_score.values():
            for i, n in enumerate(members):
                self.place[n] = (i, len(members))
        self.balance = {n: _colour_balance(self.t, n, self.rnd - 1) for n in self.order}

    def cost(self, a: int, b: int) -> tuple[int, int, int, int, int, int]:
        """The criteria of one board, most important first, each a cost: the squared score gap; the float
        (the lower of the upper group goes down, to the higher of the lower group); handicap stones; same
        club or family (2) or association (1); departure from the seeding inside a group; colours wanted."""
        va, vb = self.mms2[a], self.mms2[b]
        (pa, sa), (pb, sb) = self.place[a], self.place[b]
        if va == vb:
            gap = dudd = 0
            off = pa + pb - (sa - 1) if self.seeding == "fold" else abs(pa - pb) - sa // 2
            seed = off * off
        else:
            (pu, su), pl = ((pa, sa), pb) if va > vb else ((pb, sb), pa)
            gap, dudd, seed = (va - vb) ** 2, (su - 1 - pu) + pl, 0
        h = 0 if self.swiss else handicap_for(self.s, va // 2, self.rank[a], vb // 2, self.rank[b])
        apart = 2 if _same_group(self.clubs, a, b) else 1 if self.clubs[a][2] and self.clubs[a][2] == \
            self.clubs[b][2] else 0
        return gap, dudd, h, apart, seed, _colour_cost(self.balance, a, b)


#: a cost no pairing reaches: a piece of the round with no pairing without a repeat
_NONE = 10**30


@dataclass(slots=True)
class _Piece:
    """Consecutive atoms ``first..last`` of the round (see ``_round_matching``) and their boards."""

    first: int
    last: int
    pairs: list[tuple[int, int]] | None
    cost: int
    exact: bool  # matched exactly: its cost is the least any pairing of these players has


def _round_matching(r: _Round) -> list[tuple[int, int]]:
    """The boards of the round: a perfect matching without a repeat of ``r.order`` (an even number, the bye
    already out) with the smallest sum of squared McMahon-score gaps, the other criteria after it.

    The players in McMahon order are cut where the players above are an even number and the score drops
    (the *atoms* between cuts). A board's squared gap is at least the sum of the squared steps it spans, and an
    even cut is crossed twice or never; so any pairing of a run of atoms that crosses the cuts inside it costs
    at least the atoms' own least sums (neighbours in McMahon order, ``_neighbour_sum``) plus twice the squared
    steps at those cuts, and a pairing that crosses no cut costs at least each atom's least sum (or its exact
    least, where known). The least of these bounds over every way of cutting the round into runs
    (``_lower_bound``) is a lower bound of every pairing. The pieces are matched — exactly when small, score
    group by score group when large — and merged or matched exactly where the bound says a better pairing may
    exist, until the boards reach the bound: then no pairing keeping the hard rules has a smaller sum."""
    order, mms2 = r.order, r.mms2
    atoms: list[list[int]] = []
    start = 0
    for i in range(1, len(order) + 1):
        if i == len(order) or (i % 2 == 0 and mms2[order[i - 1]] != mms2[order[i]]):
            atoms.append(order[start:i])
            start = i
    least = [_neighbour_sum(r, a) for a in atoms]
    cut = [2 * (mms2[atoms[k][-1]] - mms2[atoms[k + 1][0]]) ** 2 for k in range(len(atoms) - 1)]
    pieces = [_solve_piece(r, atoms, i, i) for i in range(len(atoms))]
    exact: dict[tuple[int, int], int] = {}
    while True:
        exact.update({(p.first, p.last): p.cost for p in pieces if p.exact})
        bound, runs = _lower_bound(least, cut, exact)
        if sum(p.cost for p in pieces) <= bound or (len(pieces) == 1 and pieces[0].exact):
            break  # the boards reach the bound, or the whole round was matched exactly
        pieces = _improve(r, atoms, pieces, runs, least, cut, exact)
    out = []
    for p in pieces:
        if p.pairs is None:  # cannot happen: the whole field was checked pairable, and the bound then is finite
            raise EventError(problem("round {round}: the players cannot all be paired without a repeat",
                                     round=r.rnd))
        out += p.pairs
    return out


def _improve(r: _Round, atoms: list[list[int]], pieces: list[_Piece], runs: list[tuple[int, int]],
             least: list[int], cut: list[int], exact: dict[tuple[int, int], int]) -> list[_Piece]:
    """One step towards boards that reach the lower bound, whose cutting into runs is ``runs``: merge the pieces
    a run spans; or learn the exact least of a run inside one piece; or match exactly a piece that costs more
    than its runs' bounds. Each step merges pieces or learns something new, so the steps end."""
    spans = {(p.first, p.last) for p in pieces}
    for i, j in runs:
        if (i, j) in spans:
            continue
        over = [k for k, p in enumerate(pieces) if p.last >= i and p.first <= j]
        if len(over) > 1:
            merged = _solve_piece(r, atoms, pieces[over[0]].first, pieces[over[-1]].last)
            return pieces[:over[0]] + [merged] + pieces[over[-1] + 1:]
        if (i, j) not in exact:
            exact[(i, j)] = _solve_piece(r, atoms, i, j, exact=True).cost
            return pieces
    for k, p in enumerate(pieces):
        inside = sum(_run_bound(least, cut, exact, i, j) for i, j in runs if p.first <= i and j <= p.last)
        if not p.exact and p.cost > inside:
            return pieces[:k] + [_solve_piece(r, atoms, p.first, p.last, exact=True)] + pieces[k + 1:]
    return [_solve_piece(r, atoms, 0, len(atoms) - 1, exact=True)]  # not reached (the bound says why): the whole


def _run_bound(least: list[int], cut: list[int], exact: dict[tuple[int, int], int], i: int, j: int) -> int:
    """The least a pairing of atoms ``i..j`` can cost (``_round_matching``)."""
    if i == j:
        return exact.get((i, i), least[i])
    crossed = sum(least[i:j + 1]) + sum(cut[i:j])
    return max(crossed, exact[(i, j)]) if (i, j) in exact else crossed


def _lower_bound(least: list[int], cut: list[int], exact: dict[tuple[int, int], int]
                 ) -> tuple[int, list[tuple[int, int]]]:
    """The least over every cutting of the atoms into runs of the sum of the runs' bounds, and that cutting."""
    m = len(least)
    best = [0] + [_NONE * 4] * m
    back = [0] * (m + 1)
    for j in range(m):
        for i in range(j + 1):
            v = best[i] + _run_bound(least, cut, exact, i, j)
            if v < best[j + 1]:
                best[j + 1], back[j + 1] = v, i
    runs = []
    j = m
    while j:
        runs.append((back[j], j - 1))
        j = back[j]
    return best[m], runs[::-1]


def _neighbour_sum(r: _Round, players: list[int]) -> int:
    """The least squared-gap sum of players without regard to repeats: neighbours in McMahon order."""
    return sum((r.mms2[players[i]] - r.mms2[players[i + 1]]) ** 2 for i in range(0, len(players) - 1, 2))


def _solve_piece(r: _Round, atoms: list[list[int]], first: int, last: int, exact: bool = False) -> _Piece:
    """Atoms ``first..last`` matched: exactly when small (or asked), else score group by score group."""
    players = [n for a in atoms[first:last + 1] for n in a]
    if len(players) > EXACT and not exact:
        pairs = _by_groups(r, players)
        exact = False
    else:
        pairs = _match(r, players, None)
        pairs = pairs if 2 * len(pairs) == len(players) else None
        exact = True
    cost = _NONE if pairs is None else sum((r.mms2[a] - r.mms2[b]) ** 2 for a, b in pairs)
    return _Piece(first, last, pairs, cost, exact)


def _by_groups(r: _Round, players: list[int]) -> list[tuple[int, int]] | None:
    """Many players, score group by score group from the top: the one a group leaves over (an odd group: its
    lowest) and those it cannot pair go down to the next group; None when some are left at the bottom."""
    groups: list[list[int]] = []
    for n in players:
        if groups and r.mms2[groups[-1][0]] == r.mms2[n]:
            groups[-1].append(n)
        else:
            groups.append([n])
    out: list[tuple[int, int]] = []
    carried: list[int] = []
    for g in groups:
        pool = carried + g
        odd = [pool.pop()] if len(pool) % 2 else []
        pairs = _group_matching(r, pool)
        paired = {x for p in pairs for x in p}
        out += pairs
        carried = [n for n in pool if n not in paired] + odd
    return None if carried else out


def _float_reasons(r: _Round, a: int, b: int) -> Line:
    """Why two players of different McMahon scores meet — only what is true: the round's pairing has the least
    sum of squared score gaps of all pairings without a repeat; the players of his score or more are an odd
    number (when they are); whom he has met of the scores the gap passes over (when he has)."""
    high, low = (a, b) if r.mms2[a] > r.mms2[b] else (b, a)
    sh, sl = r.mms2[high], r.mms2[low]
    line = Line("; {high} meets a lower McMahon score: no pairing of the round without a repeat has a smaller sum "
                "of squared score gaps", high=high)
    above = sum(1 for n in r.order if r.mms2[n] >= sh)
    if above % 2:
        line = line + Line("; the players of McMahon score {score} or more are an odd number", score=_half(sh))
    passed = sorted(n for n in r.met[high] if n in r.place and sl < r.mms2[n] <= sh)
    if passed:
        line = line + Line("; he has already met {players} (McMahon score above {score})",
                           players=", ".join(map(str, passed)), score=_half(sl))
    return line


def _group_matching(r: _Round, pool: list[int], whole: bool = False) -> list[tuple[int, int]]:
    """The maximum weight matching of one score group (an even number, with the one floated into it).

    A group larger than ``BLOCK`` is matched in blocks, unless ``whole``: the seeding pairs the
    upper half's k-th player with the lower half's k-th (or, folded, last-k-th), so block k holds
    a slice of each half (the first block also the one floated in), and whoever a block leaves
    unpaired joins the next; if the blocks leave some unpaired, the whole group is matched. The
    weighted matching's cost grows with the cube of its size."""
    mms2 = r.mms2
    n = len(pool)
    if n < 2:
        return []
    if n > BLOCK and not whole:
        low = mms2[pool[-1]]
        floated = [p for p in pool if mms2[p] != low]
        members = [p for p in pool if mms2[p] == low]
        half = len(members) // 2
        upper, lower = members[:half], members[half:]
        if r.seeding == "fold":
            lower = lower[::-1]
        step = BLOCK // 2
        out: list[tuple[int, int]] = []
        carry = floated
        for k in range(0, max(half, 1), step):
            part = lower[k:k + step]
            block = carry + upper[k:k + step] + (part[::-1] if r.seeding == "fold" else part)
            if k + step >= half:
                block += lower[k + step:]  # the last block takes the rest of the lower half
            pairs = _group_matching(r, block, whole=True)
            out += pairs
            paired = {x for p in pairs for x in p}
            carry = [x for x in block if x not in paired]
        if not carry:
            return out
        return _group_matching(r, pool, whole=True)
    if n % 2 == 0 and all(mms2[p] == mms2[pool[0]] for p in pool):
        ideal = _ideal(pool, r.seeding)
        if all(b not in r.met[a] and r.cost(a, b)[2:4] == (0, 0) for a, b in ideal):
            # every board of the seeding's own pairing is allowed, even and apart: nothing but colours, which
            # weigh less than any departure from it, could improve it — it is the best
            return sorted((min(a, b), max(a, b)) for a, b in ideal)
    # a large group: only the edges near the seeding's ideal partner (a band), which keeps the weighted matching
    # fast; if the band leaves players unpaired that the whole group could pair, the whole group is matched
    band = BAND if n > 2 * BAND + 4 else None
    mate = _match(r, pool, band)
    if band is not None and 2 * len(mate) < n:
        mate = _match(r, pool, None)
    return mate


def _same_group(clubs: dict[int, tuple[str, str, str]], a: int, b: int) -> bool:
    """Same club or same family (keep apart where possible)."""
    ca, cb = clubs[a], clubs[b]
    return bool((ca[0] and ca[0] == cb[0]) or (ca[1] and ca[1] == cb[1]))


def _colour_cost(balance: dict[int, int], a: int, b: int) -> int:
    """Both want the same colour: the smaller of their imbalances."""
    return min(abs(balance[a]), abs(balance[b])) if balance[a] * balance[b] > 0 else 0


def _ideal(pool: list[int], seeding: str) -> list[tuple[int, int]]:
    """The seeding's own pairing of one score group: upper half against lower half, or first against last."""
    half = len(pool) // 2
    if seeding == "fold":
        return [(pool[i], pool[-1 - i]) for i in range(half)]
    return [(pool[i], pool[half + i]) for i in range(half)]


def _match(r: _Round, pool: list[int], band: int | None) -> list[tuple[int, int]]:
    """A maximum weight matching of ``pool`` of the most boards, every board allowed (no repeat); the weights
    order the criteria strictly (``_Round.cost``): each level's unit is more than everything below it can
    add up to over all the boards, so a smaller sum of squared gaps is never traded for anything else.
    ``band``: inside one score group only the edges near the seeding's ideal partner."""
    edges: list[tuple[int, int, tuple[int, ...]]] = []
    for i, a in enumerate(pool):
        for b in pool[i + 1:]:
            if b in r.met[a]:
                continue
            c = r.cost(a, b)
            if band is not None and r.mms2[a] == r.mms2[b] and c[4] > band * band:
                continue
            edges.append((a, b, c))
    if not edges:
        return []
    boards = len(pool) // 2 + 1
    units = [1]
    for level in range(5, 0, -1):  # the unit of each level, from the last (colours) up
        top = max(e[2][level] for e in edges)
        units.insert(0, units[0] * (top * boards + 1) if top else units[0])
    worst = sum(u * max(e[2][k] for e in edges) for k, u in enumerate(units))
    g = nx.Graph()
    for a, b, c in edges:
        g.add_edge(a, b, weight=worst + 1 - sum(u * x for u, x in zip(units, c)))
    return sorted((min(a, b), max(a, b)) for a, b in nx.max_weight_matching(g, maxcardinality=True))


def record_handicaps(t: Tournament, rnd: int) -> None:
    """Record the stones of every board of round ``rnd`` (``XQH`` lines), from the scores before it:
    the boards as paired (by this module or by hand, black = the ``b`` cell)."""
    s, ps = go.settings(t), go.players(t)
    swiss = go.is_go_swiss(t)
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
