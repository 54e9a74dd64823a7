"""The integrity checks before a period is published (诚信检查): manipulation patterns in plain data.

The plausibility audit (``qiyuan.rating.plausibility``) judges one report's arithmetic; these checks judge
people across events — what a rating officer looks for when a rating is being manufactured:

* ``pool`` — a closed pool: a small group (3 to ``POOL_MAX`` players) whose events contain only itself, met
  again in at least two events, in which one member scores far above what the ratings expect (the tail
  probability of his score is at most ``POOL_P``) — the group feeds him;
* ``thrown`` — thrown games: the series of one pair across events, from the first win against expectation on (at least ``THROWN_MIN_GAMES`` decisive
  games) in which one player scores far above the ratings' expectation (tail probability at most
  ``THROWN_P``) over two events or more, or one beneficiary's games against the opponents (two or more) he
  beat at least twice each against expectation (an upset: expected at most 0.40; ``THROWN_MIN_GAMES`` upsets in
  all, over two events or more, the tail of his score in all their games at most ``BENEFICIARY_P``). Both are
  judged again with his rating raised by his form against everyone else (the least shift, up to ``FORM_MAX``, at
  which the ratings expect his score there): an underrated player beats everyone, not a few;
* ``phantom`` — a phantom event: at least ``PHANTOM_MIN`` players of whom at least ``PHANTOM_SHARE`` are seen
  in no other event and on no list before it, and who played among themselves (``PHANTOM_AMONG`` of the games):
  a genuine event full of newcomers pairs them with known players (a list's first events, with nothing before
  them, are not judged). Its evidence names two signs more: how many of its players were registered, or first
  seen in an event, in the ``PHANTOM_RECENT`` days before it, and whether its organiser has an earlier event
  (an organiser without history); they strengthen the flag in words and never raise one by themselves;
* ``sandbag`` — sandbagging before a rating-band prize: a player entering an event with a band prize whose
  limit his rating on the last list before the event is under (by at most ``SANDBAG_BELOW``), while his
  highest published rating of the editions of the ``SANDBAG_DAYS`` before was above it and fell at least
  ``SANDBAG_FALL``;
* ``pairs`` — one pair meeting in Swiss events again and again, more often than the pairing explains (each
  Swiss of ``n`` players and ``r`` rounds is allowed ``PAIRS_ALLOWANCE`` times the chance ``r / (n − 1)``;
  the tail probability of the meetings at most ``PAIRS_P``).

Everything is exact: an expected score is the tables' (附表2) in hundredths, a tail probability an exact
fraction (a Poisson-binomial distribution over the games, a draw counting half). A flag changes no rating: the
office stores it for the officer, who accepts it with a reason or holds the event for review.

The ledger is columnar (one array per fact of the games, like ``qiyuan.rating.columnar.GameColumns``): a
check first finds its candidates over every game at once with NumPy — necessary conditions only (a pair's
games, its upsets, a pool's size, a Swiss pair's meetings) — and then judges each candidate exactly, game by
game, as the rule says. The candidates are few, so the checks of a whole federation cost less than rating it
(docs/benchmarks.md); ``tests/rating/test_integrity_golden.py`` holds them to the game-by-game reading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction
from functools import cached_property

import numpy as np

from qiyuan.rating.columnar import CODE_OF_RESULT, NONE, RESULT_CODES
from qiyuan.rating.model import Result
from qiyuan.rating.plausibility import AuditGame, Flag
from qiyuan.rating.tables import PD_HUNDREDTHS, PD_TOP_D

KINDS = ("pool", "thrown", "phantom", "sandbag", "pairs")

POOL_MAX = 8
POOL_P = Fraction(1, 50)
POOL_SHARE = Fraction(3, 4)
POOL_SIMILAR = Fraction(3, 5)  # two events of one pool: their players' sets overlap this much (Jaccard)
THROWN_MIN_GAMES = 5
THROWN_P = Fraction(1, 1000)
BENEFICIARY_P = Fraction(1, 2000)
UPSET_HUNDREDTHS = 40  # a win whose expected score was at most 0.40
FORM_MAX = 400  # points: the most his form against everyone else may explain
PHANTOM_MIN = 8
PHANTOM_SHARE = Fraction(3, 4)
PHANTOM_AMONG = Fraction(9, 10)  # of its games played between two of them: they met nobody else
PHANTOM_RECENT = 30  # days: a player registered (or first seen in an event) this close before it is new to it
SANDBAG_FALL = 150
SANDBAG_BELOW = 100
SANDBAG_DAYS = 730
PAIRS_MIN = 4
PAIRS_P = Fraction(1, 10000)
PAIRS_ALLOWANCE = 3

#: a played game's half-points for its first player, by result code (-1: not played)
_HALF1 = np.array([{Result.WIN: 2, Result.LOSS: 0, Result.DRAW: 1}.get(r, -1) for r in RESULT_CODES], dtype=np.int64)
_PD = np.array(PD_HUNDREDTHS[: PD_TOP_D + 1], dtype=np.int64)
#: lists × players up to which the ratings are also kept as a grid (each list's, carried forward): a look-up per
#: game is then one index, not a search (2**24 cells: 128 MiB)
DENSE_CELLS = 1 << 24


@dataclass(frozen=True, slots=True)
class IntegrityEvent:
    """One event as the checks read it: its dates, its played games, the upper limits of its rating-band
    prizes (``band_limits``: 'rating -1799' gives 1799), whether it was paired Swiss."""

    code: str
    start: date
    end: date
    games: tuple[AuditGame, ...]
    band_limits: tuple[int, ...] = ()
    swiss: bool = False
    organiser: str = ""  # who organised it ("": not recorded)

    @property
    def players(self) -> frozenset[str]:
        return frozenset(p for g in self.games for p in (g.player1, g.player2))


#: a published list as columns: its date, the players' IDs and their ratings (``None``: not rated)
ListColumns = tuple[date, Sequence[str], Sequence[int | None]]
#: players' registry dates: ``{player: date}``, or a lookup giving them for the players asked
Registry = Mapping[str, date] | Callable[[Sequence[str]], Mapping[str, date]]


def _expected(mine: np.ndarray, theirs: np.ndarray, shift: int = 0) -> np.ndarray:
    """附表2's expected scores in hundredths, ``mine`` counted ``shift`` higher; 50 where a rating is not known."""
    known = (mine != NONE) & (theirs != NONE)
    d = np.where(known, mine + shift - theirs, 0)
    top = _PD[np.minimum(np.abs(d), PD_TOP_D)]
    pd = np.where(d >= 0, top, 100 - top)
    return np.where(known, pd, 50)


def _unique(keys: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (a sort: NumPy's hashing ``unique`` is slower on millions of keys)."""
    keys = np.sort(keys)
    return keys[np.r_[True, keys[1:] != keys[:-1]]] if len(keys) else keys


def _ptr(keys: np.ndarray, size: int) -> np.ndarray:
    """Where each of ``0 … size - 1`` begins in the sorted ``keys`` (and the end)."""
    return np.searchsorted(keys, np.arange(size + 1))


class Ledger:
    """What the checks read: every known event (the period's and the earlier ones), the published lists
    (``lists``: ``(list date, {player: rating})``, any order) and the players' registry dates (``registered``:
    ``{player: date}`` where known, or how to look them up for some players — asked only for those a flag names).

    ``Ledger(events, lists)`` reads ``IntegrityEvent`` objects; ``Ledger.from_columns`` reads the same facts as
    arrays (the office's bulk read), without an object per game. Event codes are unique."""

    def __init__(self, events: Sequence[IntegrityEvent] = (), lists: Sequence[tuple[date, Mapping[str, int]]] = (),
                 registered: Registry | None = None):
        events = tuple(events)
        games = [g for e in events for g in e.games]
        ids = sorted({p for g in games for p in (g.player1, g.player2)})
        index = {p: i for i, p in enumerate(ids)}
        self._build(
            codes=[e.code for e in events], starts=[e.start for e in events], ends=[e.end for e in events],
            bands=[tuple(e.band_limits) for e in events], swiss=[bool(e.swiss) for e in events],
            organisers=[e.organiser for e in events], registered=registered or {}, player_ids=ids,
            game_event=np.repeat(np.arange(len(events), dtype=np.int64), [len(e.games) for e in events]),
            game_round=np.array([g.round for g in games], dtype=np.int64),
            game_player1=np.array([index[g.player1] for g in games], dtype=np.int64),
            game_player2=np.array([index[g.player2] for g in games], dtype=np.int64),
            game_result=np.array([CODE_OF_RESULT[g.result] for g in games], dtype=np.int64),
            lists=[(day, list(ratings.keys()), list(ratings.values())) for day, ratings in lists])
        self._events = events

    @classmethod
    def from_columns(cls, *, codes: Sequence[str], starts: Sequence[date], ends: Sequence[date],
                     bands: Sequence[tuple[int, ...]], swiss: Sequence[bool], player_ids: Sequence[str],
                     game_event, game_round, game_player1, game_player2, game_result,
                     lists: Sequence[ListColumns], organisers: Sequence[str] | None = None,
                     registered: Registry | None = None) -> Ledger:
        """A ledger from columns: ``game_event`` indexes ``codes``, ``game_player1``/``game_player2`` index
        ``player_ids``, ``game_result`` holds codes of ``columnar.RESULT_CODES``; the games of an event in their
        order (the events' own order does not matter)."""
        self = cls.__new__(cls)
        self._build(codes=codes, starts=starts, ends=ends, bands=bands, swiss=swiss,
                    organisers=organisers or [""] * len(codes), registered=registered or {}, player_ids=player_ids,
                    game_event=game_event, game_round=game_round, game_player1=game_player1,
                    game_player2=game_player2, game_result=game_result, lists=lists)
        self._events = None
        return self

    def _build(self, *, codes, starts, ends, bands, swiss, organisers, registered, player_ids, game_event,
               game_round, game_player1, game_player2, game_result, lists) -> None:
        self.codes = tuple(codes)
        if len(set(self.codes)) != len(self.codes):
            raise ValueError("a ledger's event codes must be unique")
        self._code_index = {c: i for i, c in enumerate(self.codes)}
        self._code_rank = np.argsort(np.argsort(np.array(self.codes, dtype=object), kind="stable"), kind="stable") \
            if self.codes else np.zeros(0, dtype=np.int64)
        self._start = np.array([d.toordinal() for d in starts], dtype=np.int64)
        self._end = np.array([d.toordinal() for d in ends], dtype=np.int64)
        self._bands = tuple(tuple(int(x) for x in b) for b in bands)
        self._swiss = np.array(swiss, dtype=bool)
        self._organisers = tuple((o or "").strip() for o in organisers)
        # players in the order of their IDs (a sort by index is a sort by ID); those only on lists after them
        everyone = sorted(set(player_ids).union(*(ids for _, ids, _ in lists)))
        self.players = tuple(everyone)
        self._index = {p: i for i, p in enumerate(everyone)}
        self._registry = registered
        remap = np.array([self._index[p] for p in player_ids], dtype=np.int64)
        ev = np.asarray(game_event, dtype=np.int64)
        order = np.argsort(ev, kind="stable")  # an event's games together, in their order
        self._ev = ev[order]
        self._round = np.asarray(game_round, dtype=np.int64)[order]
        self._a = remap[np.asarray(game_player1, dtype=np.int64)[order]] if len(order) else ev[:0]
        self._b = remap[np.asarray(game_player2, dtype=np.int64)[order]] if len(order) else ev[:0]
        self._res = np.asarray(game_result, dtype=np.int64)[order]
        self._half1 = _HALF1[self._res] if len(order) else ev[:0]
        self._played = self._half1 >= 0
        self._game_ptr = _ptr(self._ev, len(self.codes))
        # the lists, sparse: one (player, list) entry per rating, by player then list (oldest first)
        days = sorted(range(len(lists)), key=lambda i: lists[i][0])
        self._list_days = np.array([lists[i][0].toordinal() for i in days], dtype=np.int64)
        width = max(1, len(days))
        keys, values = [], []
        for li, i in enumerate(days):
            _, ids, ratings = lists[i]
            rated = np.array([r is not None for r in ratings], dtype=bool)
            at = np.fromiter(map(self._index.__getitem__, ids), dtype=np.int64, count=len(ids))
            keys.append(at[rated] * width + li)
            values.append(np.array([int(r) for r in ratings if r is not None], dtype=np.int64))
        key = np.concatenate(keys) if keys else np.zeros(0, dtype=np.int64)
        order = np.argsort(key, kind="stable")
        self._width = width
        self._entry_key = key[order]
        self._entry_rating = (np.concatenate(values) if values else key)[order]
        self._grid = None
        if len(days) * len(everyone) <= DENSE_CELLS and len(days):
            grid = np.full((len(days), len(everyone)), NONE, dtype=np.int64)
            grid[self._entry_key % width, self._entry_key // width] = self._entry_rating
            last = np.where(grid != NONE, np.arange(len(days))[:, None], -1)
            np.maximum.accumulate(last, axis=0, out=last)  # the last list up to each with a rating
            self._grid = np.where(last >= 0, grid[np.maximum(last, 0), np.arange(len(everyone))], NONE)
        # each game's two ratings on the last list before its event
        start = self._start[self._ev]
        self._r1 = self._ratings_at(self._a, start)
        self._r2 = self._ratings_at(self._b, start)

    # -- what the checks ask ---------------------------------------------------------------------------------

    @property
    def events(self) -> tuple[IntegrityEvent, ...]:
        """The events as objects (built on demand from columns)."""
        if self._events is None:
            self._events = tuple(IntegrityEvent(
                code, date.fromordinal(int(self._start[e])), date.fromordinal(int(self._end[e])),
                tuple(self._game(i) for i in range(self._game_ptr[e], self._game_ptr[e + 1])), self._bands[e],
                bool(self._swiss[e]), self._organisers[e]) for e, code in enumerate(self.codes))
        return self._events

    def _game(self, i: int) -> AuditGame:
        return AuditGame(self.codes[self._ev[i]], int(self._round[i]), self.players[self._a[i]],
                         self.players[self._b[i]], RESULT_CODES[self._res[i]])

    def _ratings_at(self, players: np.ndarray, days: np.ndarray) -> np.ndarray:
        """Each player's rating on the last list dated on or before the day (``NONE``: none)."""
        li = np.searchsorted(self._list_days, days, side="right") - 1
        if self._grid is not None:
            return np.where(li >= 0, self._grid[np.maximum(li, 0), players], NONE)
        query = players * self._width + li
        pos = np.searchsorted(self._entry_key, query, side="right") - 1
        safe = np.maximum(pos, 0)
        found = (pos >= 0) & (li >= 0) & (len(self._entry_key) > 0)
        if len(self._entry_key):
            found &= self._entry_key[safe] // self._width == players
            return np.where(found, self._entry_rating[safe], NONE)
        return np.full(len(players), NONE, dtype=np.int64)

    def published(self, player: str) -> list[tuple[date, int]]:
        """The player's published ratings, oldest first."""
        p = self._index.get(player)
        if p is None:
            return []
        lo, hi = np.searchsorted(self._entry_key, [p * self._width, (p + 1) * self._width])
        return [(date.fromordinal(int(self._list_days[k % self._width])), int(r))
                for k, r in zip(self._entry_key[lo:hi].tolist(), self._entry_rating[lo:hi].tolist())]

    def registered(self, players: Sequence[str]) -> dict[str, date]:
        """The registry dates of ``players`` (those known)."""
        found = self._registry(players) if callable(self._registry) else self._registry
        return {p: found[p] for p in players if found.get(p)}

    def rating_before(self, player: str, day: date) -> int | None:
        """The rating on the last list dated on or before ``day``."""
        p = self._index.get(player)
        if p is None:
            return None
        r = int(self._ratings_at(np.array([p]), np.array([day.toordinal()]))[0])
        return None if r == NONE else r

    @cached_property
    def _event_players(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each event's players: ``(event, player)`` pairs sorted by event then player, and where each event's
        begin."""
        n = max(1, len(self.players))
        key = _unique(np.concatenate([self._ev * n + self._a, self._ev * n + self._b]))
        ev, p = key // n, key % n
        return ev, p, _ptr(ev, len(self.codes))

    @cached_property
    def _player_count(self) -> np.ndarray:
        ev, _, _ = self._event_players
        return np.bincount(ev, minlength=len(self.codes))

    def _players_of(self, e: int) -> np.ndarray:
        _, p, ptr = self._event_players
        return p[ptr[e]:ptr[e + 1]]

    def _games_of(self, e: int) -> np.ndarray:
        return np.arange(self._game_ptr[e], self._game_ptr[e + 1])

    def _games_of_player(self, p: int) -> np.ndarray:
        """Every game of a player (a game with himself once), in ledger order — asked for the few players a check
        judges exactly, so found by a scan rather than an index of everyone's."""
        return np.flatnonzero((self._a == p) | (self._b == p))

    def _checked(self, checked: Iterable[str]) -> np.ndarray:
        mask = np.zeros(len(self.codes), dtype=bool)
        mask[[self._code_index[c] for c in checked if c in self._code_index]] = True
        return mask

    def _series(self, p: int, games: np.ndarray, shift: int = 0) -> list[tuple[int, int, int, int]]:
        """A player's played games among ``games``: ``(expected hundredths, half-points, opponent, event)``, the
        expectation by the lists before each event (50 when a rating is not known), his rating counted ``shift``
        points higher."""
        games = games[self._played[games]]
        first = self._a[games] == p
        r1, r2 = self._r1[games], self._r2[games]
        e = _expected(np.where(first, r1, r2), np.where(first, r2, r1), shift)
        h = np.where(first, self._half1[games], 2 - self._half1[games])
        opp = np.where(first, self._b[games], self._a[games])
        return list(zip(e.tolist(), h.tolist(), opp.tolist(), self._ev[games].tolist()))

    def _last(self, events: Iterable[int]) -> int:
        """The latest of ``events`` (by end date, then code)."""
        return max(events, key=lambda e: (self._end[e], self.codes[e]))


# -- probabilities --------------------------------------------------------------------------------------


def tail(expected: Sequence[int], observed_halves: int) -> Fraction:
    """P(score ≥ observed) when game ``i`` is won with probability ``expected[i]`` hundredths (else lost);
    ``observed_halves``: the score in half-points (a draw observed counts half: it needs a win here)."""
    dist = [1]  # numerators over 100^games, index = wins
    for e in expected:
        nxt = [0] * (len(dist) + 1)
        for k, v in enumerate(dist):
            if v:
                nxt[k] += v * (100 - e)
                nxt[k + 1] += v * e
        dist = nxt
    need = (observed_halves + 1) // 2
    return Fraction(sum(dist[need:]), 100 ** len(expected))


def _words(p: Fraction) -> str:
    """A probability in words: '1 in 12,345'."""
    return "0" if p == 0 else f"1/{int(1 / p):,}"


# -- the checks -------------------------------------------------------------------------------------------


def phantoms(ledger: Ledger, checked: Iterable[str]) -> list[Flag]:
    """Events of ``checked`` most of whose players exist nowhere else (no other event, no list before it)."""
    if not ledger.codes:
        return []
    ev, p, _ = ledger._event_players
    seen = np.bincount(p, minlength=len(ledger.players))
    fresh = (seen[p] == 1) & (ledger._ratings_at(p, ledger._start[ev]) == NONE)
    players, new = ledger._player_count, np.bincount(ev[fresh], minlength=len(ledger.codes))
    first_end = int(ledger._end.min())
    first_list = int(ledger._list_days[0]) if len(ledger._list_days) else None
    first_seen = _first_seen(ledger)
    flags = []
    for code in sorted(checked):
        e = ledger._code_index.get(code)
        if e is None:
            continue
        start = int(ledger._start[e])
        if not (first_end < start or (first_list is not None and first_list <= start)):
            continue  # nothing before it: a list's first event is all newcomers, not a phantom
        n, f = int(players[e]), int(new[e])
        if n < PHANTOM_MIN or f * PHANTOM_SHARE.denominator < PHANTOM_SHARE.numerator * n:
            continue
        mine = ledger._players_of(e)
        them = mine[fresh[ledger._event_players[2][e]:ledger._event_players[2][e + 1]]]
        games = ledger._games_of(e)
        among = int(np.count_nonzero(np.isin(ledger._a[games], them) & np.isin(ledger._b[games], them)))
        if among * PHANTOM_AMONG.denominator >= PHANTOM_AMONG.numerator * len(games):
            flags.append(Flag("phantom", code, None, tuple(ledger.players[x] for x in them.tolist()),
                              {"players": n, "nowhere_else": f, "games": len(games), "among_them": among,
                               **_phantom_evidence(ledger, e, mine, first_seen)}))
    return flags


def _first_seen(ledger: Ledger) -> np.ndarray:
    """Each player's first event's start (ordinal; ``NONE``: in no event)."""
    ev, p, _ = ledger._event_players
    first = np.full(len(ledger.players), np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(first, p, ledger._start[ev])
    return np.where(first == np.iinfo(np.int64).max, NONE, first)


def _phantom_evidence(ledger: Ledger, e: int, players: np.ndarray, first_seen: np.ndarray) -> dict:
    """The signs that strengthen a phantom flag: its players registered, or first seen in an earlier event, in the
    ``PHANTOM_RECENT`` days before it; its organiser's earlier events (``None``: the organiser is not recorded)."""
    start = int(ledger._start[e])
    dates = ledger.registered([ledger.players[p] for p in players.tolist()])
    registered = np.array([dates[ledger.players[p]].toordinal() if ledger.players[p] in dates else NONE
                           for p in players.tolist()], dtype=np.int64)
    first = first_seen[players]
    recent = ((registered != NONE) & (start - PHANTOM_RECENT <= registered) & (registered <= start)) \
        | ((first != NONE) & (start - PHANTOM_RECENT <= first) & (first < start))
    organiser = ledger._organisers[e]
    earlier = None
    if organiser:
        earlier = sum(1 for x, o in enumerate(ledger._organisers) if o == organiser and ledger._end[x] < start)
    return {"recent": int(np.count_nonzero(recent)), "recent_days": PHANTOM_RECENT, "organiser": organiser,
            "organiser_earlier": earlier}


def closed_pools(ledger: Ledger, checked: Iterable[str]) -> list[Flag]:
    """Small groups playing only themselves in two events or more, one member lifted far above expectation."""
    count = ledger._player_count if ledger.codes else np.zeros(0, dtype=np.int64)
    small = np.flatnonzero((count >= 3) & (count <= POOL_MAX)).tolist()
    field = {e: frozenset(ledger._players_of(e).tolist()) for e in small}
    checked = ledger._checked(checked)
    by_player: dict[int, list[int]] = {}
    for e in small:
        for p in field[e]:
            by_player.setdefault(p, []).append(e)
    num, den = POOL_SIMILAR.numerator, POOL_SIMILAR.denominator
    flags, done = [], set()
    for e in sorted(small, key=lambda x: ledger.codes[x]):
        if not checked[e] or e in done:
            continue
        group = field[e]
        pool = {x for p in group for x in by_player[p] if len(field[x] & group) * den >= num * len(field[x] | group)}
        if len(pool) < 2:
            continue
        members = frozenset().union(*(field[x] for x in pool))
        games = np.concatenate([ledger._games_of(x) for x in sorted(pool)])
        best = None
        for p in sorted(members):
            plays = games[(ledger._a[games] == p) | (ledger._b[games] == p)]
            mine = ledger._series(p, plays)
            if len(mine) < 4:
                continue
            halves = sum(h for _, h, _, _ in mine)
            if halves * POOL_SHARE.denominator < POOL_SHARE.numerator * 2 * len(mine):
                continue
            prob = tail([x for x, _, _, _ in mine], halves)
            if prob <= POOL_P and (best is None or prob < best[0]):
                best = (prob, p, mine, halves)
        done |= pool
        if best is None:
            continue
        prob, p, mine, halves = best
        name = ledger.players
        flags.append(Flag("pool", ledger.codes[e], None, (name[p], *(name[x] for x in sorted(members - {p}))),
                          {"events": sorted(ledger.codes[x] for x in pool), "members": len(members),
                           "games": len(mine), "score": f"{Fraction(halves, 2)}",
                           "expected": f"{Fraction(sum(x for x, *_ in mine), 100)}", "probability": _words(prob)}))
    return flags


def thrown_games(ledger: Ledger, checked: Iterable[str]) -> list[Flag]:
    """Pairs (and beneficiaries) whose series against expectation cannot be chance; only series that reach into
    ``checked`` are flagged (at their last event there).

    Candidates first, over every played game at once: a pair's games sorted by (event end, code, round), each
    side's upsets (a win expected at most 0.40) — a series needs ``THROWN_MIN_GAMES`` games from its first
    upset, a beneficiary two givers each beaten twice against expectation; then each candidate exactly."""
    checked = ledger._checked(checked)
    games = np.flatnonzero(ledger._played & (ledger._a != ledger._b))
    a, b, ev = ledger._a[games], ledger._b[games], ledger._ev[games]
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    order = _pair_order(ledger, games, lo, hi, ev)
    games, lo, hi, ev = games[order], lo[order], hi[order], ev[order]
    if not len(games):
        return []
    begins = np.flatnonzero(np.r_[True, (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])])
    ends = np.r_[begins[1:], len(games)]
    lo_first = ledger._a[games] == lo
    r_lo = np.where(lo_first, ledger._r1[games], ledger._r2[games])
    r_hi = np.where(lo_first, ledger._r2[games], ledger._r1[games])
    h_lo = np.where(lo_first, ledger._half1[games], 2 - ledger._half1[games])
    up_lo = (h_lo == 2) & (_expected(r_lo, r_hi) <= UPSET_HUNDREDTHS)
    up_hi = (h_lo == 0) & (_expected(r_hi, r_lo) <= UPSET_HUNDREDTHS)
    where = np.arange(len(games))
    big = len(games) + 1
    sizes = ends - begins
    first_lo = np.minimum.reduceat(np.where(up_lo, where, big), begins)
    first_hi = np.minimum.reduceat(np.where(up_hi, where, big), begins)
    changes = np.r_[True, ev[1:] != ev[:-1]]
    changes[begins] = True
    events = np.add.reduceat(changes.astype(np.int64), begins)
    reach = np.maximum.reduceat(checked[ev].astype(np.int64), begins) > 0
    from_upset = np.maximum(ends - first_lo, ends - first_hi)
    candidates = np.flatnonzero((sizes >= THROWN_MIN_GAMES) & (events >= 2) & reach & (from_upset >= THROWN_MIN_GAMES))

    everyone = ledger._played & (ledger._a != ledger._b)

    def form(p: int, opponents: set[int]) -> int:
        """How many points above his rating he played against everyone else (0 if not above): the least shift,
        by tens up to ``FORM_MAX``, at which the ratings expect his score in those of his games both players had a
        rating in."""
        mine = ledger._games_of_player(p)
        mine = mine[everyone[mine]]
        first = ledger._a[mine] == p
        opp = np.where(first, ledger._b[mine], ledger._a[mine])
        rest = mine[~np.isin(opp, list(opponents)) & (ledger._r1[mine] != NONE) & (ledger._r2[mine] != NONE)]
        first = ledger._a[rest] == p
        r_me = np.where(first, ledger._r1[rest], ledger._r2[rest])
        r_them = np.where(first, ledger._r2[rest], ledger._r1[rest])
        halves = int(np.where(first, ledger._half1[rest], 2 - ledger._half1[rest]).sum())
        low, high = 0, FORM_MAX // 10
        while low < high:
            mid = (low + high) // 2
            if 2 * int(_expected(r_me, r_them, 10 * mid).sum()) >= halves * 100:
                high = mid
            else:
                low = mid + 1
        return 10 * low

    def beyond_form(p: int, opponents: set[int], series_games: np.ndarray, limit: Fraction) -> bool:
        """Is the series still that unlikely once his form against everyone else is allowed for?"""
        shift = form(p, opponents)
        if shift == 0:
            return True
        mine = _from_first_upset(ledger._series(p, series_games, shift))
        return tail([x for x, *_ in mine], sum(h for _, h, _, _ in mine)) <= limit

    name = ledger.players
    flags, flagged = [], set()
    # one pair
    for g in candidates.tolist():
        pair = games[begins[g]:ends[g]]
        x, y = int(lo[begins[g]]), int(hi[begins[g]])
        for p in (x, y):
            mine = _from_first_upset(ledger._series(p, pair))
            if len(mine) < THROWN_MIN_GAMES or len({c for *_, c in mine}) < 2:
                continue
            halves = sum(h for _, h, _, _ in mine)
            expected = sum(e for e, *_ in mine)
            if halves * 50 <= expected:  # not above expectation
                continue
            prob = tail([e for e, *_ in mine], halves)
            if prob <= THROWN_P and beyond_form(p, {x, y} - {p}, pair, THROWN_P):
                last = ledger._last(c for c in set(ev[begins[g]:ends[g]].tolist()) if checked[c])
                other = y if p == x else x
                flags.append(Flag("thrown", ledger.codes[last], None, (name[p], name[other]),
                                  _thrown_detail(mine, halves, prob)))
                flagged.add(p)
    # one beneficiary, a few opponents (givers) each of whom he beat twice or more against expectation: all their games
    n_lo = np.add.reduceat(up_lo.astype(np.int64), begins)
    n_hi = np.add.reduceat(up_hi.astype(np.int64), begins)
    side = np.concatenate([np.flatnonzero(n_lo >= 2), np.flatnonzero(n_hi >= 2)])
    who = np.concatenate([lo[begins][n_lo >= 2], hi[begins][n_hi >= 2]])
    upsets = np.concatenate([n_lo[n_lo >= 2], n_hi[n_hi >= 2]])
    givers_of = np.bincount(who, minlength=len(name))
    upsets_of = np.bincount(who, weights=upsets, minlength=len(name))
    by_who = np.argsort(who, kind="stable")
    side, at = side[by_who], _ptr(who[by_who], len(name))
    for p in np.flatnonzero((givers_of >= 2) & (upsets_of >= THROWN_MIN_GAMES)).tolist():
        if p in flagged:
            continue
        groups = sorted(side[at[p]:at[p + 1]].tolist(),
                        key=lambda k: int(hi[begins[k]] if lo[begins[k]] == p else lo[begins[k]]))
        givers = [int(hi[begins[k]] if lo[begins[k]] == p else lo[begins[k]]) for k in groups]
        mine = []
        for k in groups:
            mine += _from_first_upset(ledger._series(p, games[begins[k]:ends[k]]))
        if not any(checked[c] for *_, c in mine) or len({c for *_, c in mine}) < 2:
            continue
        halves = sum(h for _, h, _, _ in mine)
        prob = tail([x for x, *_ in mine], halves)
        if prob <= BENEFICIARY_P and beyond_form(p, set(givers), np.concatenate([games[begins[k]:ends[k]] for k in groups]),
                                                 BENEFICIARY_P):
            last = ledger._last(c for *_, c in mine if checked[c])
            flags.append(Flag("thrown", ledger.codes[last], None, (name[p], *(name[o] for o in givers)),
                              _thrown_detail(mine, halves, prob)))
    return flags


def _pair_order(ledger: Ledger, games: np.ndarray, lo: np.ndarray, hi: np.ndarray, ev: np.ndarray) -> np.ndarray:
    """The games grouped by pair, each pair's by (event end, event code, round), then ledger order: one stable
    sort of one number per game where it fits in 63 bits (else a sort by each key)."""
    if not len(games):
        return games
    rank = np.empty(len(ledger.codes), dtype=np.int64)
    rank[np.lexsort((ledger._code_rank, ledger._end))] = np.arange(len(ledger.codes))
    low = int(ledger._round[games].min())
    rounds = int(ledger._round[games].max()) - low + 1
    pairs = len(ledger.players) ** 2
    if pairs * len(ledger.codes) * rounds < 2 ** 62:
        key = ((lo * len(ledger.players) + hi) * len(ledger.codes) + rank[ev]) * rounds + ledger._round[games] - low
        return np.argsort(key, kind="stable")
    return np.lexsort((games, ledger._round[games], rank[ev], hi, lo))


def _from_first_upset(series: list) -> list:
    """A series from the first win against expectation on (the games before it are the pair's honest past)."""
    for i, (x, h, _, _) in enumerate(series):
        if h == 2 and x <= UPSET_HUNDREDTHS:
            return series[i:]
    return []


def _thrown_detail(mine, halves: int, prob: Fraction) -> dict:
    return {"games": len(mine), "events": len({c for *_, c in mine}), "score": f"{Fraction(halves, 2)}",
            "expected": f"{Fraction(sum(x for x, *_ in mine), 100)}", "probability": _words(prob)}


def sandbagging(ledger: Ledger, checked: Iterable[str]) -> list[Flag]:
    """Players entering a band-prize event just under its limit after a fall from above it."""
    flags = []
    for code in sorted(checked):
        e = ledger._code_index.get(code)
        if e is None or not ledger._bands[e]:
            continue
        start = date.fromordinal(int(ledger._start[e]))
        for p in ledger._players_of(e).tolist():
            player = ledger.players[p]
            now = ledger.rating_before(player, start)
            if now is None:
                continue
            window = [(d, r) for d, r in ledger.published(player) if start - timedelta(days=SANDBAG_DAYS) <= d <= start]
            if not window:
                continue
            peak_day, peak = max(window, key=lambda x: (x[1], x[0]))
            for limit in sorted(ledger._bands[e]):
                if now <= limit < peak and limit - now <= SANDBAG_BELOW and peak - now >= SANDBAG_FALL:
                    lost = ledger._games_of_player(p)
                    end = ledger._end[ledger._ev[lost]]
                    lost = lost[(peak_day.toordinal() <= end) & (end < start.toordinal())]
                    played = lost[ledger._played[lost]]
                    mine = np.where(ledger._a[played] == p, ledger._half1[played], 2 - ledger._half1[played])
                    flags.append(Flag("sandbag", code, None, (player,),
                                      {"limit": limit, "rating": now, "peak": peak, "peak_date": peak_day.isoformat(),
                                       "fall": peak - now, "games": len(lost),
                                       "losses": int(np.count_nonzero(mine == 0))}))
                    break
    return flags


def repeated_pairs(ledger: Ledger, checked: Iterable[str]) -> list[Flag]:
    """Pairs meeting in Swiss events more often than the pairing explains.

    Candidates first: the pairs met in ``PAIRS_MIN`` Swiss events or more, one of them checked."""
    if not ledger.codes:
        return []
    checked = ledger._checked(checked)
    swiss = ledger._swiss & (ledger._player_count > 2)
    n_events = len(ledger.codes)
    low = int(ledger._round.min(initial=0))
    span = int(ledger._round.max(initial=0)) - low + 1
    rounds = np.bincount(_unique(ledger._ev * span + ledger._round - low) // span, minlength=n_events)
    chance = np.minimum(100, (100 * PAIRS_ALLOWANCE * rounds) // np.maximum(1, ledger._player_count - 1))
    games = np.flatnonzero(swiss[ledger._ev] & (ledger._a != ledger._b))
    n = max(1, len(ledger.players))
    lo, hi = np.minimum(ledger._a[games], ledger._b[games]), np.maximum(ledger._a[games], ledger._b[games])
    met = _unique((lo * n + hi) * n_events + ledger._ev[games])
    pair, ev = met // n_events, met % n_events
    begins = np.flatnonzero(np.r_[True, pair[1:] != pair[:-1]]) if len(met) else met
    ends = np.r_[begins[1:], len(met)]
    reach = np.maximum.reduceat(checked[ev].astype(np.int64), begins) > 0 if len(met) else begins
    candidates = np.flatnonzero((ends - begins >= PAIRS_MIN) & reach) if len(met) else begins
    at_ev, at_p, _ = ledger._event_players
    attend = swiss[at_ev]
    at_ev, at_p = at_ev[attend], at_p[attend]
    order = np.lexsort((at_ev, at_p))
    at_ev, at_ptr = at_ev[order], _ptr(at_p[order], n)
    flags = []
    for k in candidates.tolist():
        x, y = divmod(int(pair[begins[k]]), n)
        codes = ev[begins[k]:ends[k]].tolist()
        both = sorted(set(at_ev[at_ptr[x]:at_ptr[x + 1]].tolist()) & set(at_ev[at_ptr[y]:at_ptr[y + 1]].tolist()))
        prob = tail([int(chance[c]) for c in both], 2 * len(codes))
        if prob <= PAIRS_P:
            last = max(ledger.codes[c] for c in codes if checked[c])
            flags.append(Flag("pairs", last, None, (ledger.players[x], ledger.players[y]),
                              {"met": len(codes), "together": len(both), "probability": _words(prob)}))
    return flags


def integrity_flags(ledger: Ledger, checked: Iterable[str]) -> list[Flag]:
    """Every integrity flag of the events ``checked`` (codes), judged against the whole ledger."""
    checked = frozenset(checked)
    return (closed_pools(ledger, checked) + thrown_games(ledger, checked) + phantoms(ledger, checked)
            + sandbagging(ledger, checked) + repeated_pairs(ledger, checked))


__all__ = ["KINDS", "IntegrityEvent", "Ledger", "integrity_flags", "tail", "closed_pools", "thrown_games",
           "phantoms", "sandbagging", "repeated_pairs"]
