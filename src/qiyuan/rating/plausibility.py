"""The plausibility audit before a rating run (合理性检查): what a rating officer should look at twice.

As the American Go Association's check program flags every result under 1 % probability before a rating run,
the audit flags, from plain data:

* ``improbable`` — a decisive result whose probability by the list in force was under 1 %: the loser was
  expected to score at least 0.99, i.e. he was at least ``IMPROBABLE_D`` (678) points above the winner. Draws are never flagged by probability. Games not played (forfeits) are not results.
* ``opener`` — an opener (假先) that the event's own Swiss opener rules contradict (the three ordered rules
  of ``qiyuan.tournament.openers``: fewer openings first, no third in a row, draw number by the round's
  parity). The rounds are replayed in order; after a flagged game the replay follows the rules' opener, so
  one swapped board does not make every later board of the two players look wrong.
* ``twice`` — one player in two games of the same round of an event.
* ``standings`` — a player's score in the report's standings that the crosstable's games do not add up to
  (allowing for rounds without a game: a bye's or an absence's points are not in the games).
* ``same_person`` — two registry records that look like one person: the same name and the same birth date.
* ``overlap`` — players in two events whose days overlap (one person cannot sit at two boards on one day).
  Leagues (联赛) of 40–150 days run beside weekend events legitimately: flagged for the officer, never refused.
* ``duration`` — an event lasting far longer than its rounds need: more than a week a round (a league's pace)
  and a week more, and more than ``LEAGUE_MIN_DAYS`` days (a five-round event over a year is a typing error).
* ``ratings`` — one player reported with ratings ``RATINGS_APART`` or more apart by the reports of one period.
* ``flipped`` — two events of one period most of whose decisive games (``FLIPPED_SHARE``) are the same pairs of
  players with the results the other way round: the same event re-reported with the results flipped.

Each flag names the event, the round and the players, and has a stable ``key`` so an officer's "checked"
mark survives a recomputation of the same period.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction

from qiyuan.rating.model import Result
from qiyuan.rating.tables import dp_for_score, pd_hundredths
from qiyuan.tournament.openers import opener_rule
from qiyuan.tournament.state import NOT_OPENED, OPENED

#: The smallest rating difference at which a decisive result is flagged: beyond the difference the tables pair
#: with an expected score of 0.99 (附表1: p = 0.99 ↔ dp 677), so D ≥ 678 (docs/decisions.md, "doors: the audit's
#: threshold"). Table 2 rounds every D from 620 to 735 to 0.99; the stricter 678 flags fewer genuine upsets.
IMPROBABLE_D: int = dp_for_score(Decimal("0.99")) + 1

KINDS = ("improbable", "opener", "twice", "standings", "same_person", "overlap", "duration", "ratings", "flipped")

_POINTS = {Result.WIN: (Decimal(1), Decimal(0)), Result.LOSS: (Decimal(0), Decimal(1)),
           Result.DRAW: (Decimal("0.5"), Decimal("0.5")), Result.FORFEIT_WIN: (Decimal(1), Decimal(0)),
           Result.FORFEIT_LOSS: (Decimal(0), Decimal(1)), Result.NOT_PLAYED: (Decimal(0), Decimal(0)),
           Result.BOTH_WIN: (Decimal(1), Decimal(1)), Result.BOTH_LOSS: (Decimal(0), Decimal(0))}


@dataclass(frozen=True, slots=True)
class AuditGame:
    """One game as the audit reads it: ``opener`` is 1 or 2 (who opened), or ``None`` when not recorded."""

    event: str
    round: int
    player1: str
    player2: str
    result: Result
    opener: int | None = None


@dataclass(frozen=True, slots=True)
class Flag:
    """One thing to look at: its kind, the event and round (``None``: not of one round), the players, the facts."""

    kind: str
    event: str | None
    round: int | None
    players: tuple[str, ...]
    detail: Mapping[str, object] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """Stable across recomputations of the same stored facts."""
        return f"{self.kind}|{self.event or ''}|{self.round or ''}|{','.join(self.players)}"


# -- 1. results under 1 % ---------------------------------------------------------------------------------


def improbable_results(games: Iterable[AuditGame], rating: Mapping[str, int | None]) -> list[Flag]:
    """Decisive played results whose loser was ``IMPROBABLE_D`` or more points above the winner."""
    flags = []
    win, loss, limit, get = Result.WIN, Result.LOSS, IMPROBABLE_D, rating.get
    for g in games:
        if g.result is win:
            winner, loser = g.player1, g.player2
        elif g.result is loss:
            winner, loser = g.player2, g.player1
        else:
            continue
        rw, rl = get(winner), get(loser)
        if rw is None or rl is None:
            continue
        d = rl - rw
        if d >= limit:
            flags.append(Flag("improbable", g.event, g.round, (winner, loser),
                              {"winner_rating": rw, "loser_rating": rl, "D": d,
                               "expected": f"{pd_hundredths(d) / 100:.2f}"}))
    return flags


# -- 2. openers against the Swiss opener rules ------------------------------------------------------------


#: An event whose recorded openers contradict the Swiss opener rules in more than this share of its games
#: does not follow them (its 规程 sets openers otherwise — by lot, by hand): its openers are not judged.
FOLLOWS_RULES_SHARE = Fraction(1, 4)


def opener_contradictions(event: str, games: Sequence[AuditGame], numbers: Mapping[str, int]) -> list[Flag]:
    """The games of one Swiss event whose recorded opener the opener rules contradict.

    ``numbers``: each player's draw number (签号). A round in which a player has no game is no role (it breaks
    a run); games without a recorded opener, or of a player without a draw number, are not judged (and give
    no role). An event contradicting the rules in more than ``FOLLOWS_RULES_SHARE`` of its judged games is taken
    not to follow them (docs/decisions.md, "doors: whose opener rules"): nothing is flagged.
    """
    by_round: dict[int, list[AuditGame]] = defaultdict(list)
    for g in games:
        by_round[g.round].append(g)
    seats = {p: _Seat(n) for p, n in numbers.items()}
    everyone = list(seats.values())
    flags = []
    judged = 0
    for rnd in sorted(by_round):
        for g in by_round[rnd]:
            sa, sb = seats.get(g.player1), seats.get(g.player2)
            if g.opener not in (1, 2) or sa is None or sb is None or sa is sb:
                continue
            judged += 1
            first, _, rule = opener_rule(sa, sb, rnd)
            expected, other = (sa, sb) if first == sa.number else (sb, sa)
            if (sa if g.opener == 1 else sb) is not expected:
                a, b = (g.player1, g.player2) if g.opener == 1 else (g.player2, g.player1)
                flags.append(Flag("opener", event, rnd, (a, b), {"recorded": a, "expected": b, "rule": rule}))
            expected.now, other.now = OPENED, NOT_OPENED  # the replay follows the rules: one swap does not spread
        for seat in everyone:  # a round without a game is no role: it breaks a run
            seat.roles.append(seat.now)
            if seat.now is OPENED:
                seat.openings_halves += 2
            seat.now = ""
    if flags and len(flags) > FOLLOWS_RULES_SHARE * judged:
        return []
    return flags


class _Seat:
    """A player's opener history during the replay — what the opener rules read of a ``PlayerState`` (the draw
    number, the openings in halves, the roles) — kept up to date in place instead of rebuilt for every game."""

    __slots__ = ("number", "openings_halves", "roles", "now")

    def __init__(self, number: int):
        self.number = number
        self.openings_halves = 0
        self.roles: list[str] = []
        self.now = ""  # this round's role, added to ``roles`` when the round closes


# -- 3. one player twice in a round -----------------------------------------------------------------------


def twice_in_a_round(games: Iterable[AuditGame]) -> list[Flag]:
    rounds: dict[tuple[str, int], list[str]] = defaultdict(list)
    for g in games:
        rounds[(g.event, g.round)] += (g.player1, g.player2) if g.player1 != g.player2 else (g.player1,)
    flags = []
    for (ev, rnd), players in sorted(rounds.items()):
        if len(set(players)) == len(players):
            continue
        counts: dict[str, int] = defaultdict(int)
        for p in players:
            counts[p] += 1
        flags += [Flag("twice", ev, rnd, (p,), {"games": n}) for p, n in sorted(counts.items()) if n > 1]
    return flags


# -- 4. the crosstable against the report's standings -------------------------------------------------------


def standings_mismatches(event: str, games: Sequence[AuditGame], scores: Mapping[str, Decimal],
                         rounds: int) -> list[Flag]:
    """Players whose reported score differs from their games' points by more than their rounds without a game
    could give (the report's point scale found from the players who played every round: 1 or 2 a win)."""
    points: dict[str, Decimal] = defaultdict(Decimal)
    count: dict[str, int] = defaultdict(int)
    for g in games:
        p1, p2 = _POINTS[g.result]
        points[g.player1] += p1
        points[g.player2] += p2
        count[g.player1] += 1
        count[g.player2] += 1
    full = [p for p in scores if count[p] >= rounds and scores[p] is not None]
    scale = Decimal(1)
    if full and sum(scores[p] == 2 * points[p] for p in full) > sum(scores[p] == points[p] for p in full):
        scale = Decimal(2)
    flags = []
    for p, reported in sorted(scores.items()):
        if reported is None or p not in count:
            continue
        missing = max(0, rounds - count[p])
        diff = reported - scale * points[p]
        if diff < 0 or diff > scale * missing:
            flags.append(Flag("standings", event, None, (p,),
                              {"reported": str(reported), "games": str(scale * points[p]), "rounds_without_game": missing}))
    return flags


# -- 5. two records of one person ---------------------------------------------------------------------------


def same_person(records: Iterable[tuple[str, str, date | None]], among: set[str] | None = None) -> list[Flag]:
    """Pairs of records ``(id, name, birth date)`` with the same name and birth date; with ``among``, only the
    groups that hold one of those ids (the players of the period)."""
    groups: dict[tuple[str, date], list[str]] = defaultdict(list)
    for pid, name, born in records:
        if born is not None and name and name.strip():
            groups[(name.strip(), born)].append(pid)
    flags = []
    for (name, born), ids in groups.items():
        if len(ids) < 2 or (among is not None and not among.intersection(ids)):
            continue
        flags.append(Flag("same_person", None, None, tuple(sorted(ids)), {"name": name, "birth_date": born.isoformat()}))
    return flags


# -- 6. one player in two events at once ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AuditEvent:
    """An event as the event checks read it: its days and rounds."""

    code: str
    start: date
    end: date
    rounds: int


def overlapping_events(events: Sequence[AuditEvent], players: Mapping[str, set[str]]) -> list[Flag]:
    """Pairs of events whose days overlap and that share players (``players``: event → its players' ids); one
    flag per pair, naming the shared players."""
    flags = []
    ordered = sorted(events, key=lambda e: (e.start, e.end, e.code))
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            if b.start > a.end:
                break  # (sorted by start: no later event overlaps ``a`` either)
            shared = players.get(a.code, set()) & players.get(b.code, set())
            if shared:
                flags.append(Flag("overlap", a.code, None, tuple(sorted(shared)),
                                  {"other": b.code, "start": a.start.isoformat(), "end": a.end.isoformat(),
                                   "other_start": b.start.isoformat(), "other_end": b.end.isoformat()}))
    return flags


# -- 7. an event far longer than its rounds need --------------------------------------------------------------

#: a league's shortest span: an event up to this many days long is never flagged for its length
LEAGUE_MIN_DAYS = 40
#: the slowest pace of a league: a round a week
DAYS_PER_ROUND = 7


def longest_plausible(rounds: int) -> int:
    """The most days an event of ``rounds`` rounds plausibly lasts: a week a round and a week more, never less than
    ``LEAGUE_MIN_DAYS``."""
    return max(LEAGUE_MIN_DAYS, DAYS_PER_ROUND * (rounds + 1))


def too_long(events: Iterable[AuditEvent]) -> list[Flag]:
    """Events lasting longer than ``longest_plausible`` of their rounds (first and last day counted)."""
    flags = []
    for e in events:
        days = (e.end - e.start).days + 1
        if days > longest_plausible(e.rounds):
            flags.append(Flag("duration", e.code, None, (), {"days": days, "rounds": e.rounds,
                                                             "most": longest_plausible(e.rounds)}))
    return flags


# -- 8. one player, very different ratings --------------------------------------------------------------------

#: how far apart two ratings of one player reported in one period must be to be flagged (a newcomer's real change
#: in a period stays well under it; 2800 and 1800 is another player's line or a typing error)
RATINGS_APART = 400


def reported_ratings_apart(reported: Iterable[tuple[str, str, int]]) -> list[Flag]:
    """Players whose reported ratings (event, player, rating) in one period lie ``RATINGS_APART`` or more apart."""
    by_player: dict[str, dict[str, int]] = defaultdict(dict)
    for event, player, rating in reported:
        by_player[player][event] = rating
    flags = []
    for player, ratings in sorted(by_player.items()):
        low, high = min(ratings.values()), max(ratings.values())
        if high - low >= RATINGS_APART:
            flags.append(Flag("ratings", None, None, (player,),
                              {"ratings": {ev: r for ev, r in sorted(ratings.items())}, "low": low, "high": high}))
    return flags


# -- 9. the same pairings re-reported with the results flipped ------------------------------------------------

#: the share of the smaller event's decisive games found flipped in the other (as ``imports.identity``'s "mostly")
FLIPPED_SHARE = Fraction(4, 5)
#: fewer decisive games than this are no pattern
FLIPPED_MIN_GAMES = 2
_OTHER_WAY = {Result.WIN: Result.LOSS, Result.LOSS: Result.WIN}


def flipped_results(games: Iterable[AuditGame]) -> list[Flag]:
    """Pairs of events at least ``FLIPPED_SHARE`` of whose decisive games (of the event with fewer) are the same two
    players with the result the other way round in the other event."""
    decisive: dict[str, Counter] = defaultdict(Counter)
    for g in games:
        if g.result in _OTHER_WAY and g.player1 != g.player2:
            decisive[g.event][_as_pair(g.player1, g.player2, g.result)] += 1
    flags = []
    codes = sorted(decisive)
    for i, a in enumerate(codes):
        for b in codes[i + 1:]:
            mine, theirs = decisive[a], decisive[b]
            fewer = min(sum(mine.values()), sum(theirs.values()))
            if fewer < FLIPPED_MIN_GAMES:
                continue
            other_way = Counter({(p, q, _OTHER_WAY[r]): n for (p, q, r), n in theirs.items()})
            flipped = sum((mine & other_way).values())
            if flipped >= FLIPPED_MIN_GAMES and Fraction(flipped, fewer) >= FLIPPED_SHARE:
                players = sorted({p for (x, y, _r) in (mine & other_way) for p in (x, y)})
                flags.append(Flag("flipped", a, None, tuple(players), {"other": b, "flipped": flipped, "games": fewer}))
    return flags


def _as_pair(a: str, b: str, result: Result) -> tuple[str, str, Result]:
    """A decisive game as (lower id, higher id, the lower's result): either order is the same game."""
    return (a, b, result) if a < b else (b, a, _OTHER_WAY[result])
