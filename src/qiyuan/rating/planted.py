"""Planted manipulation cases (植入案例) for the integrity checks' tests and benchmark.

Pure and seeded: ``plant(kind, history, lists, seed)`` returns a fresh copy of a history (players, events,
games as ``qiyuan.rating.model`` objects) with one case of ``kind`` planted into it, and the case's facts
(``Case``: its events, the players it concerns, band limits). Each case is planted alone:

* ``pool`` — a ring of 3–8 existing players over 2–6 new round robins (double when the ring is small) of their
  own, every game of one member (the beneficiary) won;
* ``thrown`` — a series of 5–15 games that one to three players rated 200–400 above a beneficiary lose to
  him, in 2–4 new matches;
* ``phantom`` — an event of 8–30 players seen nowhere else (new records registered 1–9 days before it), a Swiss
  of 5–7 rounds, organised by an organiser new to the history;
* ``sandbag`` — a player whose published rating falls 150–300 (games lost in new matches to weaker players)
  just under the limit of a rating-band prize of a later Swiss event he then enters (in place of one of its
  players).

``genuine_bands`` gives genuine Swiss events a band prize (the benchmark's histories have none), so the
sandbagging check is measured against honest band events too; ``genuine_organisers`` gives every genuine event
one of a few organisers (the histories name none), so a phantom's new organiser stands out as it would.
"""

from __future__ import annotations

import bisect
import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from qiyuan.rating.model import Event, EventFormat, Game, Player, Result

KINDS = ("pool", "thrown", "phantom", "sandbag")


@dataclass(frozen=True)
class PlainHistory:
    players: tuple[Player, ...]
    events: tuple[Event, ...]
    games: tuple[Game, ...]
    bands: Mapping[str, tuple[int, ...]] = field(default_factory=dict)  # event id → band prize limits
    organisers: Mapping[str, str] = field(default_factory=dict)  # event id → its organiser


@dataclass(frozen=True)
class Case:
    kind: str
    events: tuple[str, ...]  # the planted (or entered) events
    players: tuple[str, ...]  # the case's people, the beneficiary (or sandbagger) first


class _Ratings:
    """Published ratings by player, for choosing the case's people."""

    def __init__(self, lists: Sequence[tuple[date, Mapping[str, int]]]):
        self.per: dict[str, list[tuple[date, int]]] = defaultdict(list)
        self.dates = sorted(d for d, _ in lists)
        for d, ratings in sorted(lists, key=lambda x: x[0]):
            for p, r in ratings.items():
                if r is not None:
                    self.per[p].append((d, int(r)))

    def at(self, p: str, day: date) -> int | None:
        seq = self.per.get(p, [])
        i = bisect.bisect_right(seq, (day, 10 ** 9))
        return seq[i - 1][1] if i else None

    def rated_at(self, day: date, players) -> list[tuple[str, int]]:
        return [(p, r) for p in players if (r := self.at(p, day)) is not None]


def _active(h: PlainHistory, start: date, end: date) -> list[str]:
    live = {e.id for e in h.events if start <= e.start_date <= end}
    return sorted({p for g in h.games if g.event_id in live for p in (g.player1, g.player2)})


def _window(rng: random.Random, h: PlainHistory, lists: _Ratings) -> date:
    """A day in the later half of the history, with a published list before it."""
    days = sorted(e.start_date for e in h.events)
    lo = max(days[len(days) // 2], lists.dates[0] + timedelta(days=1)) if lists.dates else days[len(days) // 2]
    hi = days[-1] - timedelta(days=200)
    if hi <= lo:
        hi = lo + timedelta(days=1)
    return lo + timedelta(days=rng.randrange((hi - lo).days))


def _event(prefix: str, n: int, fmt: EventFormat, day: date, length: int = 2) -> Event:
    return Event(f"{prefix}{n}", f"{prefix}{n}", day, day + timedelta(days=length - 1), fmt)


def _win(first_wins: bool) -> Result:
    return Result.WIN if first_wins else Result.LOSS


Lists = Sequence[tuple[date, Mapping[str, int]]]
#: rates a history: its published lists (the rules' own computation, given by the caller)
Rate = Callable[[PlainHistory], Lists]


def plant(kind: str, history: PlainHistory, lists: Lists, seed: int, rate: Rate) -> tuple[PlainHistory, Case]:
    """A copy of ``history`` with one case of ``kind`` planted (``lists``: the history's published lists;
    ``rate``: how the history is rated — a sandbagger loses games until his published rating has fallen)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of case {kind!r} (one of: {', '.join(KINDS)})")
    rng = random.Random(f"{kind}:{seed}")
    ratings = _Ratings(lists)
    if kind == "sandbag":
        return _sandbag(rng, history, ratings, seed, rate)
    return {"pool": _ring, "thrown": _thrown, "phantom": _phantom}[kind](rng, history, ratings, seed)


def _ring(rng, h: PlainHistory, ratings: _Ratings, seed: int):
    size, count = rng.randint(3, 8), rng.randint(2, 6)
    for _ in range(200):
        day = _window(rng, h, ratings)
        people = ratings.rated_at(day, _active(h, day - timedelta(days=365), day))
        if len(people) >= size:
            break
    else:
        raise ValueError("too few rated players to plant a ring")
    members = [p for p, _ in rng.sample(people, size)]
    beneficiary = members[0]
    events, games = [], []
    for i in range(count):
        ev = _event(f"RING{seed}-", i + 1, EventFormat.ROUND_ROBIN, day + timedelta(days=40 * i + rng.randrange(20)))
        events.append(ev)
        cycles = 2 if size <= 4 else 1
        rnd = 0
        for c in range(cycles):
            for a, b in _berger(members):
                rnd += 1
                first, second = (a, b) if c % 2 == 0 else (b, a)
                if beneficiary in (first, second):
                    res = _win(first == beneficiary)
                else:
                    res = rng.choice((Result.WIN, Result.LOSS, Result.DRAW))
                games.append(Game(ev.id, rnd, first, second, res))
    return replace(h, events=h.events + tuple(events), games=h.games + tuple(games)), \
        Case("pool", tuple(e.id for e in events), tuple(members))


def _berger(members: list[str]) -> list[tuple[str, str]]:
    return [(members[i], members[j]) for i in range(len(members)) for j in range(i + 1, len(members))]


def _thrown(rng, h: PlainHistory, ratings: _Ratings, seed: int):
    for _ in range(200):
        day = _window(rng, h, ratings)
        people = ratings.rated_at(day, _active(h, day - timedelta(days=365), day))
        beneficiary, rb = rng.choice(people)
        above = [p for p, r in people if 200 <= r - rb <= 400]
        if above:
            break
    else:
        raise ValueError("no player rated 200-400 above another: the history is too narrow for a thrown series")
    n, count = rng.randint(5, 15), rng.randint(2, 4)
    throwers = rng.sample(above, min(len(above), rng.randint(1, 3), n // 2))  # each throws two games or more
    events = [_event(f"THROWN{seed}-", i + 1, EventFormat.MATCH, day + timedelta(days=30 * i + rng.randrange(20)))
              for i in range(count)]
    games = []
    for k in range(n):
        ev, thrower = events[k % count], throwers[k % len(throwers)]
        rnd = sum(1 for g in games if g.event_id == ev.id) + 1
        games.append(Game(ev.id, rnd, beneficiary, thrower, Result.WIN) if k % 2 == 0 else
                     Game(ev.id, rnd, thrower, beneficiary, Result.LOSS))
    return replace(h, events=h.events + tuple(events), games=h.games + tuple(games)), \
        Case("thrown", tuple(e.id for e in events), (beneficiary, *throwers))


def _phantom(rng, h: PlainHistory, ratings: _Ratings, seed: int):
    day = _window(rng, h, ratings)
    n, rounds = rng.randint(8, 30), rng.randint(5, 7)
    ids = [f"PH{seed}-{i + 1:02d}" for i in range(n)]
    players = tuple(Player(p, f"幻影{seed}-{i + 1}", registered_on=day - timedelta(days=rng.randrange(1, 10)))
                    for i, p in enumerate(ids))
    ev = _event(f"PHANTOM{seed}-", 1, EventFormat.SWISS, day, 3)
    games = []
    score = dict.fromkeys(ids, 0)
    met: set[frozenset] = set()
    for rnd in range(1, rounds + 1):
        order = sorted(ids, key=lambda p: (-score[p], rng.random()))
        while len(order) > 1:
            a = order.pop(0)
            b = next((x for x in order if frozenset((a, x)) not in met), order[0])
            order.remove(b)
            met.add(frozenset((a, b)))
            res = rng.choice((Result.WIN, Result.LOSS, Result.WIN, Result.LOSS, Result.DRAW))
            score[a] += {Result.WIN: 2, Result.LOSS: 0, Result.DRAW: 1}[res]
            score[b] += {Result.WIN: 0, Result.LOSS: 2, Result.DRAW: 1}[res]
            games.append(Game(ev.id, rnd, a, b, res))
    organisers = {**h.organisers, ev.id: f"幻影赛事{seed}"}
    return replace(h, players=h.players + players, events=h.events + (ev,), games=h.games + tuple(games),
                   organisers=organisers), Case("phantom", (ev.id,), tuple(ids))


def _sandbag(rng, h: PlainHistory, ratings: _Ratings, seed: int, rate: Rate):
    swiss = sorted((e for e in h.events if e.format is EventFormat.SWISS), key=lambda e: (e.start_date, e.id))
    field_of: dict[str, set[str]] = defaultdict(set)
    for g in h.games:
        field_of[g.event_id] |= {g.player1, g.player2}
    for _ in range(40):
        case = _try_sandbag(rng, h, ratings, seed, rate, swiss, field_of)
        if case is not None:
            return case
    raise ValueError("no rated, active player could be made to fall before a Swiss event: the history is too small "
                     "to plant sandbagging")


def _try_sandbag(rng, h, ratings, seed, rate, swiss, field_of):
    target = rng.choice(swiss[len(swiss) // 3:])
    lists_before = [d for d in ratings.dates if d <= target.start_date]
    if len(lists_before) < 3 or not field_of[target.id]:
        return None
    peak_day = lists_before[-3]
    active = _active(h, peak_day - timedelta(days=365), peak_day)
    listed = [(p, r) for p, r in ratings.rated_at(peak_day, active) if (peak_day, r) in ratings.per[p]]
    people = [(p, r) for p, r in listed if r >= 1600 and p not in field_of[target.id]]
    if not people:
        return None
    sandbagger, peak = rng.choice(people)
    drop = rng.randint(150, 300)
    weaker = [p for p, r in listed if 100 <= peak - r <= 300 and p != sandbagger]
    if not weaker:
        return None
    dump_end = lists_before[-1] - timedelta(days=1)
    count = rng.randint(2, 3)
    events = [_event(f"DUMP{seed}-", i + 1, EventFormat.MATCH, peak_day + timedelta(days=1 + i * 5)) for i in range(count)]
    events = tuple(e if e.end_date <= dump_end else replace(e, start_date=dump_end, end_date=dump_end) for e in events)
    replaced = rng.choice(sorted(field_of[target.id]))
    moved = tuple(replace(g, player1=sandbagger if g.player1 == replaced else g.player1,
                          player2=sandbagger if g.player2 == replaced else g.player2)
                  if g.event_id == target.id else g for g in h.games)
    # he loses to weaker players until his published rating has fallen ``drop`` (the rules decide each loss's cost)
    games: list[Game] = []
    now = peak
    for _ in range(4):
        for _ in range(max(1, (now - (peak - drop)) // LOSS_COST)):
            ev = events[len(games) % count]
            rnd = sum(1 for g in games if g.event_id == ev.id) + 1
            games.append(Game(ev.id, rnd, sandbagger, rng.choice(weaker), Result.LOSS))
        copy = replace(h, events=h.events + events, games=moved + tuple(games))
        now = _Ratings(rate(copy)).at(sandbagger, target.start_date)
        if now is None:
            return None
        if now <= peak - drop:
            limit = now + rng.randint(10, 60)
            bands = dict(h.bands)
            bands[target.id] = tuple(sorted(set(bands.get(target.id, ())) | {limit}))
            return replace(copy, bands=bands), Case("sandbag", (target.id, *(e.id for e in events)), (sandbagger,))
    return None


#: rating points a loss to a player 100–300 below costs at least (K 10 × an expected 0.64 and more)
LOSS_COST = 6


def genuine_bands(history: PlainHistory, lists: Sequence[tuple[date, Mapping[str, int]]], seed: int,
                  share: int = 5) -> PlainHistory:
    """Give one genuine Swiss event in ``share`` a band prize under its entrants' median rating (… 99)."""
    rng = random.Random(f"bands:{seed}")
    ratings = _Ratings(lists)
    field_of: dict[str, set[str]] = defaultdict(set)
    for g in history.games:
        field_of[g.event_id] |= {g.player1, g.player2}
    bands = dict(history.bands)
    for e in history.events:
        if e.format is not EventFormat.SWISS or rng.randrange(share):
            continue
        rated = sorted(r for _, r in ratings.rated_at(e.start_date, field_of[e.id]))
        if rated:
            bands[e.id] = (rated[len(rated) // 2] // 100 * 100 - 1,)
    return replace(history, bands=bands)


def genuine_organisers(history: PlainHistory, seed: int, clubs: int = 40) -> PlainHistory:
    """Give every event without one an organiser: one of ``clubs`` associations (seeded)."""
    rng = random.Random(f"organisers:{seed}")
    organisers = {e.id: history.organisers.get(e.id) or f"棋协{rng.randrange(clubs) + 1:02d}" for e in history.events}
    return replace(history, organisers=organisers)
