"""The integrity checks as first written, game by game over objects (issue 37): the oracle the columnar checks
of ``qiyuan.rating.integrity`` are held to (``test_integrity_golden.py``) — kept verbatim but for the shared
constants, ``tail``, ``IntegrityEvent`` and two helpers of the thrown series, which it imports."""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from fractions import Fraction

from qiyuan.rating.integrity import (BENEFICIARY_P, FORM_MAX, PAIRS_ALLOWANCE, PAIRS_MIN, PAIRS_P, PHANTOM_AMONG,
                                     PHANTOM_MIN, PHANTOM_SHARE, POOL_MAX, POOL_P, POOL_SHARE, POOL_SIMILAR,
                                     SANDBAG_BELOW, SANDBAG_DAYS, SANDBAG_FALL, THROWN_MIN_GAMES, THROWN_P,
                                     UPSET_HUNDREDTHS, IntegrityEvent, _from_first_upset, _thrown_detail,
                                     _words, tail)
from qiyuan.rating.model import Result
from qiyuan.rating.plausibility import AuditGame, Flag
from qiyuan.rating.tables import pd_hundredths

_POINTS = {Result.WIN: (2, 0), Result.LOSS: (0, 2), Result.DRAW: (1, 1)}  # half-points of played games


@dataclass(frozen=True)
class Ledger:
    """What the checks read: every known event (the period's and the earlier ones) and the published lists
    (``lists``: ``(list date, {player: rating})``, any order)."""

    events: Sequence[IntegrityEvent]
    lists: Sequence[tuple[date, Mapping[str, int]]] = ()
    _by_player: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self):
        per: dict[str, list[tuple[date, int]]] = defaultdict(list)
        for day, ratings in sorted(self.lists, key=lambda x: x[0]):
            for p, r in ratings.items():
                if r is not None:
                    per[p].append((day, int(r)))
        self._by_player.update(per)

    def published(self, player: str) -> list[tuple[date, int]]:
        """The player's published ratings, oldest first."""
        return self._by_player.get(player, [])

    def rating_before(self, player: str, day: date) -> int | None:
        """The rating on the last list dated on or before ``day``."""
        key = (player, day)
        if key in self._memo:
            return self._memo[key]
        seq = self._by_player.get(player)
        i = bisect.bisect_right(seq, (day, 10 ** 9)) if seq else 0
        self._memo[key] = found = seq[i - 1][1] if i else None
        return found


def _upper(events: Sequence[IntegrityEvent]) -> dict[str, IntegrityEvent]:
    return {e.code: e for e in events}


def _series(ledger: Ledger, games: Iterable[tuple[IntegrityEvent, AuditGame]], player: str, shift: int = 0):
    """A player's played games: ``(expected hundredths, half-points, opponent, event)``, the expectation by the
    lists before each event (50 when a rating is not known), his rating counted ``shift`` points higher."""
    out = []
    for ev, g in games:
        if g.result not in _POINTS:
            continue
        me_first = g.player1 == player
        opp = g.player2 if me_first else g.player1
        half = _POINTS[g.result][0 if me_first else 1]
        mine, theirs = ledger.rating_before(player, ev.start), ledger.rating_before(opp, ev.start)
        e = 50 if mine is None or theirs is None else pd_hundredths(mine + shift - theirs)
        out.append((e, half, opp, ev.code))
    return out


# -- the checks -------------------------------------------------------------------------------------------


def phantoms(ledger: Ledger, checked: Iterable[str]) -> list[Flag]:
    """Events of ``checked`` most of whose players exist nowhere else (no other event, no list before it)."""
    seen: dict[str, int] = defaultdict(int)
    for e in ledger.events:
        for p in e.players:
            seen[p] += 1
    by = _upper(ledger.events)
    first_end = min((e.end for e in ledger.events), default=None)
    flags = []
    for code in sorted(checked):
        e = by.get(code)
        if e is None or not (first_end < e.start or any(d <= e.start for d, _ in ledger.lists)):
            continue  # nothing before it: a list's first event is all newcomers, not a phantom
        players = e.players
        fresh = sorted(p for p in players if seen[p] == 1 and ledger.rating_before(p, e.start) is None)
        if len(players) < PHANTOM_MIN or len(fresh) * PHANTOM_SHARE.denominator < PHANTOM_SHARE.numerator * len(players):
            continue
        new = set(fresh)
        among = sum(1 for g in e.games if g.player1 in new and g.player2 in new)
        if among * PHANTOM_AMONG.denominator >= PHANTOM_AMONG.numerator * len(e.games):
            flags.append(Flag("phantom", code, None, tuple(fresh),
                              {"players": len(players), "nowhere_else": len(fresh), "games": len(e.games),
                               "among_them": among}))
    return flags


def closed_pools(ledger: Ledger, checked: Iterable[str]) -> list[Flag]:
    """Small groups playing only themselves in two events or more, one member lifted far above expectation."""
    small = [e for e in ledger.events if 3 <= len(e.players) <= POOL_MAX]
    checked = set(checked)
    by_player: dict[str, list[IntegrityEvent]] = defaultdict(list)
    for e in small:
        for p in e.players:
            by_player[p].append(e)
    flags, done = [], set()
    for e in sorted(small, key=lambda x: x.code):
        if e.code not in checked or e.code in done:
            continue
        group = e.players
        pool = {x.code: x for p in group for x in by_player[p]
                if Fraction(len(x.players & group), len(x.players | group)) >= POOL_SIMILAR}
        if len(pool) < 2:
            continue
        members = frozenset().union(*(x.players for x in pool.values()))
        games = [(x, g) for x in pool.values() for g in x.games]
        best = None
        for p in sorted(members):
            mine = _series(ledger, ((x, g) for x, g in games if p in (g.player1, g.player2)), p)
            if len(mine) < 4:
                continue
            halves = sum(h for _, h, _, _ in mine)
            if halves * POOL_SHARE.denominator < POOL_SHARE.numerator * 2 * len(mine):
                continue
            prob = tail([x for x, _, _, _ in mine], halves)
            if prob <= POOL_P and (best is None or prob < best[0]):
                best = (prob, p, mine, halves)
        done |= set(pool)
        if best is None:
            continue
        prob, p, mine, halves = best
        codes = sorted(pool)
        flags.append(Flag("pool", e.code, None, (p, *sorted(members - {p})),
                          {"events": codes, "members": len(members), "games": len(mine),
                           "score": f"{Fraction(halves, 2)}", "expected": f"{Fraction(sum(x for x, *_ in mine), 100)}",
                           "probability": _words(prob)}))
    return flags


def thrown_games(ledger: Ledger, checked: Iterable[str]) -> list[Flag]:
    """Pairs (and beneficiaries) whose series against expectation cannot be chance; only series that reach into
    ``checked`` are flagged (at their last event there)."""
    checked = set(checked)
    pair_games: dict[tuple[str, str], list[tuple[IntegrityEvent, AuditGame]]] = defaultdict(list)
    everyone: dict[str, list] = defaultdict(list)
    played = _POINTS
    for e in ledger.events:
        for g in e.games:
            a, b = g.player1, g.player2
            if g.result in played and a != b:
                pair_games[(a, b) if a < b else (b, a)].append((e, g))
                everyone[a].append((e, g))
                everyone[b].append((e, g))
    order = {e.code: (e.end, e.code) for e in ledger.events}

    def form(p: str, opponents: set[str]) -> int:
        """How many points above his rating he played against everyone else (0 if not above): the least shift,
        by tens up to ``FORM_MAX``, at which the ratings expect his score in those of his games both players had a
        rating in."""
        rated = ledger.rating_before
        rest = [(ev, g) for ev, g in everyone[p] if ({g.player1, g.player2} - {p}).isdisjoint(opponents)
                and rated(g.player1, ev.start) is not None and rated(g.player2, ev.start) is not None]
        halves = sum(h for _, h, _, _ in _series(ledger, rest, p))
        lo, hi = 0, FORM_MAX // 10
        while lo < hi:
            mid = (lo + hi) // 2
            if 2 * sum(x for x, *_ in _series(ledger, rest, p, 10 * mid)) >= halves * 100:
                hi = mid
            else:
                lo = mid + 1
        return 10 * lo

    def beyond_form(p: str, opponents: set[str], games: list, limit: Fraction) -> bool:
        """Is the series still that unlikely once his form against everyone else is allowed for?"""
        shift = form(p, opponents)
        if shift == 0:
            return True
        mine = _from_first_upset(_series(ledger, games, p, shift))
        return tail([x for x, *_ in mine], sum(h for _, h, _, _ in mine)) <= limit

    pair_games = {k: sorted(v, key=lambda x: (x[0].end, x[0].code, x[1].round))
                  for k, v in pair_games.items() if len(v) >= 2}  # a pair met once is no series
    flags, flagged = [], set()
    # one pair
    for (a, b), games in sorted(pair_games.items()):
        if len(games) < THROWN_MIN_GAMES or not any(ev.code in checked for ev, _ in games):
            continue
        if len({ev.code for ev, _ in games}) < 2:
            continue  # one event's series (a match) is the plausibility audit's and the result's own business
        for p in (a, b):
            mine = _from_first_upset(_series(ledger, games, p))
            if len(mine) < THROWN_MIN_GAMES or len({c for *_, c in mine}) < 2:
                continue
            halves = sum(h for _, h, _, _ in mine)
            expected = sum(x for x, *_ in mine)
            if halves * 50 <= expected:  # not above expectation
                continue
            prob = tail([x for x, *_ in mine], halves)
            if prob <= THROWN_P and beyond_form(p, {a, b} - {p}, games, THROWN_P):
                last = max((ev.code for ev, _ in games if ev.code in checked), key=order.get)
                other = b if p == a else a
                flags.append(Flag("thrown", last, None, (p, other), _thrown_detail(mine, halves, prob)))
                flagged.add(p)
    # one beneficiary, a few opponents (givers) each of whom he beat twice or more against expectation: all their games
    met: dict[str, set[str]] = defaultdict(set)
    for a, b in pair_games:
        met[a].add(b)
        met[b].add(a)
    for p in sorted(met):
        if p in flagged:
            continue
        mine, givers = [], []
        for o in sorted(met[p]):
            games = pair_games[(p, o) if p < o else (o, p)]
            if sum(1 for _, g in games if _POINTS[g.result][0 if g.player1 == p else 1] == 2) < 2:
                continue  # not two wins: no giver
            series = _from_first_upset(_series(ledger, games, p))
            if sum(1 for x, h, _, _ in series if h == 2 and x <= UPSET_HUNDREDTHS) >= 2:
                mine += series
                givers.append(o)
        upsets = sum(1 for x, h, _, _ in mine if h == 2 and x <= UPSET_HUNDREDTHS)
        if len(givers) < 2 or upsets < THROWN_MIN_GAMES or len({c for *_, c in mine}) < 2 \
                or not any(c in checked for *_, c in mine):
            continue
        halves = sum(h for _, h, _, _ in mine)
        prob = tail([x for x, *_ in mine], halves)
        if prob <= BENEFICIARY_P and beyond_form(p, set(givers), [x for o in givers for x in
                                                                  pair_games[(p, o) if p < o else (o, p)]],
                                                 BENEFICIARY_P):
            last = max((c for *_, c in mine if c in checked), key=order.get)
            flags.append(Flag("thrown", last, None, (p, *givers), _thrown_detail(mine, halves, prob)))
    return flags


def sandbagging(ledger: Ledger, checked: Iterable[str]) -> list[Flag]:
    """Players entering a band-prize event just under its limit after a fall from above it."""
    by = _upper(ledger.events)
    flags = []
    for code in sorted(checked):
        e = by.get(code)
        if e is None or not e.band_limits:
            continue
        for p in sorted(e.players):
            now = ledger.rating_before(p, e.start)
            if now is None:
                continue
            window = [(d, r) for d, r in ledger.published(p) if e.start - timedelta(days=SANDBAG_DAYS) <= d <= e.start]
            if not window:
                continue
            peak_day, peak = max(window, key=lambda x: (x[1], x[0]))
            for limit in sorted(e.band_limits):
                if now <= limit < peak and limit - now <= SANDBAG_BELOW and peak - now >= SANDBAG_FALL:
                    lost = [g for x in ledger.events if peak_day <= x.end < e.start
                            for g in x.games if p in (g.player1, g.player2)]
                    losses = sum(1 for g in lost if g.result in _POINTS and
                                 _POINTS[g.result][0 if g.player1 == p else 1] == 0)
                    flags.append(Flag("sandbag", code, None, (p,),
                                      {"limit": limit, "rating": now, "peak": peak, "peak_date": peak_day.isoformat(),
                                       "fall": peak - now, "games": len(lost), "losses": losses}))
                    break
    return flags


def repeated_pairs(ledger: Ledger, checked: Iterable[str]) -> list[Flag]:
    """Pairs meeting in Swiss events more often than the pairing explains."""
    checked = set(checked)
    swiss = [e for e in ledger.events if e.swiss and len(e.players) > 2]
    chance: dict[str, int] = {}
    attended: dict[str, list[str]] = defaultdict(list)
    for e in swiss:
        n, r = len(e.players), len({g.round for g in e.games})
        chance[e.code] = min(100, (100 * PAIRS_ALLOWANCE * r) // max(1, n - 1))
        for p in e.players:
            attended[p].append(e.code)
    met: dict[tuple[str, str], set[str]] = defaultdict(set)
    for e in swiss:
        for g in e.games:
            if g.player1 != g.player2:
                met[tuple(sorted((g.player1, g.player2)))].add(e.code)
    flags = []
    for (a, b), codes in sorted(met.items()):
        if len(codes) < PAIRS_MIN or not codes & checked:
            continue
        both = sorted(set(attended[a]) & set(attended[b]))
        prob = tail([chance[c] for c in both], 2 * len(codes))
        if prob <= PAIRS_P:
            last = max(codes & checked)
            flags.append(Flag("pairs", last, None, (a, b), {"met": len(codes), "together": len(both),
                                                            "probability": _words(prob)}))
    return flags


def integrity_flags(ledger: Ledger, checked: Iterable[str]) -> list[Flag]:
    """Every integrity flag of the events ``checked`` (codes), judged against the whole ledger."""
    checked = frozenset(checked)
    return (closed_pools(ledger, checked) + thrown_games(ledger, checked) + phantoms(ledger, checked)
            + sandbagging(ledger, checked) + repeated_pairs(ledger, checked))
