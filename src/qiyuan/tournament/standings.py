"""Standings and tie-breaks (名次之决定, 辅分一至七).

Order by score (积分), then by the tie-breaks in turn; players still equal
after the seventh share the place (同名), shown as the best place of the tied
players: 1, 2, 2, 4.

| tie-break | definition |
|---|---|
| 辅分一 | sum of the final scores of all opponents met (a bye adds 0) |
| 辅分二 | scores of the opponents beaten + half the scores of those drawn |
| 辅分三 | points scored in the games among the players still tied on score, 辅分一 and 辅分二; counted only when every pair of them has met, else 0 for all of them (separates nobody); 0 for a player not tied |
| 辅分四 | sum of the opponents' 辅分一 |
| 辅分五 | sum of the opponents' 辅分二 |
| 辅分六 | opponents beaten: their 辅分一, + half of it for opponents drawn |
| 辅分七 | opponents beaten: their 辅分二, + half of it for opponents drawn |

Scores are the final scores; a game decided by forfeit counts like a played
game (spec decision). Points come from the tournament's point system, so a
chess file scored 1/½/0 ranks with its own points.

A round robin (单/双循环) is ranked by its own tie-breaks (the texts give none; docs/decisions.md,
"arbiter: round-robin tie-breaks"): in a complete round robin 辅分一 is the same for everyone, so

| tie-break | definition |
|---|---|
| 直胜 | points scored in the games among the players tied on score (head-to-head) |
| 胜局 | games won (forfeits won included) |
| 索分 | Sonneborn-Berger: final scores of the opponents beaten + half of those drawn (= 辅分二) |

then a lot.  In either format, the final standings apply the play-off or lot the arbiter
recorded for a group still tied (:mod:`qiyuan.tournament.ties`); the row says how its place
was decided.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations

from qiyuan.tournament import ties
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.scoring import points_table
from qiyuan.tournament.scoring import score as entrant_score
from qiyuan.tournament.sheets import as_of
from qiyuan.tournament.state import is_finished, rounds_paired
from qiyuan.tournament.systems import system_of

WON = frozenset("1W+")
DRAWN = frozenset("=D")
HALF = Decimal("0.5")

TIEBREAK_NAMES = ("辅分一", "辅分二", "辅分三", "辅分四", "辅分五", "辅分六", "辅分七")
#: a round robin's tie-breaks (docs/decisions.md): head-to-head, games won, Sonneborn-Berger
ROUND_ROBIN_TIEBREAKS = ("直胜", "胜局", "索分")
ROUND_ROBIN_TIEBREAKS_EN = ("head-to-head", "wins", "Sonneborn-Berger")


def tiebreak_names(t: Tournament) -> tuple[str, ...]:
    """The tie-breaks the event's format ranks by (Swiss 辅分一…七; a round robin 直胜, 胜局, 索分)."""
    return ROUND_ROBIN_TIEBREAKS if system_of(t).round_robin else TIEBREAK_NAMES


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int  # shared places: the best place of the tied players
    number: int
    name: str
    score: Decimal
    tiebreaks: tuple[Decimal, ...]  # 辅分一 … 辅分七 (a round robin: 直胜, 胜局, 索分)
    decision: ties.Decision | None = None  # the play-off or lot that placed him in a tied group


def score(t: Tournament, number: int) -> Decimal:
    """A player's score (积分): the points of all his round cells."""
    for e in t.entrants:
        if e.number == number:
            return entrant_score(e, t.points)
    raise KeyError(f"no player with draw number {number}")


def _games(t: Tournament) -> dict[int, list[tuple[int, str]]]:
    """Per player: ``(opponent, result code)`` of every game (forfeits included)."""
    known = {e.number for e in t.entrants}
    return {
        e.number: [(c.opponent, c.result) for c in e.rounds if c.opponent is not None and c.opponent in known]
        for e in t.entrants
    }


def _weighted(games: list[tuple[int, str]], value: dict[int, Decimal]) -> Decimal:
    """Opponents beaten count fully, opponents drawn half (辅分二、六、七)."""
    total = Decimal(0)
    for opp, code in games:
        if code in WON:
            total += value[opp]
        elif code in DRAWN:
            total += value[opp] * HALF
    return total


def _mutual(t: Tournament, tied: list[int], games: dict[int, list[tuple[int, str]]]) -> dict[int, Decimal]:
    """辅分三 for one set of tied players: points among them, if every pair has met."""
    group = set(tied)
    for a, b in combinations(tied, 2):
        if not any(opp == b for opp, _ in games[a]):
            return {n: Decimal(0) for n in tied}
    table = points_table(t.points)
    return {
        n: sum((table.get(code, Decimal(0)) for opp, code in games[n] if opp in group), Decimal(0))
        for n in tied
    }


def is_final(t: Tournament) -> bool:
    """Do the standings of ``t`` cover the whole event (every round planned paired, or finished)?"""
    paired = rounds_paired(t)
    return bool(paired) and (paired >= (t.rounds_planned or 10**9) or is_finished(t))


def standings(t: Tournament, *, after: int | None = None) -> list[StandingRow]:
    """Every entrant ranked by score and 辅分一 … 辅分七 (a round robin by 直胜, 胜局, 索分);
    ``after``: as the standings stood after that round (the later rounds left out, tie-breaks on
    the scores of then).  The final standings apply the recorded play-offs and lots."""
    if after is None:  # the rounds paired: an excuse for the next round already entered does not count yet
        after = rounds_paired(t)
        if all(len(e.rounds) <= after for e in t.entrants):
            after = None
    if after is not None:
        t = as_of(t, after)
    scores = {e.number: entrant_score(e, t.points) for e in t.entrants}
    games = _games(t)
    if system_of(t).round_robin:
        keys = _round_robin_keys(t, scores, games)
    else:
        keys = _swiss_keys(t, scores, games)
    names = {e.number: e.name for e in t.entrants}
    order = sorted(keys, key=lambda n: (tuple(-x for x in keys[n]), n))
    places: dict[int, int] = {}
    for i, n in enumerate(order):
        places[n] = places[order[i - 1]] if i and keys[order[i - 1]] == keys[n] else i + 1
    used: dict[int, ties.Decision] = {}
    if is_final(t):
        places, used = ties.apply(t, places)
        order.sort(key=lambda n: places[n])
    return [StandingRow(places[n], n, names[n], scores[n], keys[n][1:], used.get(n)) for n in order]


def _swiss_keys(t: Tournament, scores: dict[int, Decimal],
                games: dict[int, list[tuple[int, str]]]) -> dict[int, tuple[Decimal, ...]]:
    tb1 = {n: sum((scores[o] for o, _ in g), Decimal(0)) for n, g in games.items()}
    tb2 = {n: _weighted(g, scores) for n, g in games.items()}
    tb3 = {n: Decimal(0) for n in games}
    tied: dict[tuple[Decimal, Decimal, Decimal], list[int]] = {}
    for n in games:
        tied.setdefault((scores[n], tb1[n], tb2[n]), []).append(n)
    for members in tied.values():
        if len(members) > 1:
            tb3.update(_mutual(t, sorted(members), games))
    tb4 = {n: sum((tb1[o] for o, _ in g), Decimal(0)) for n, g in games.items()}
    tb5 = {n: sum((tb2[o] for o, _ in g), Decimal(0)) for n, g in games.items()}
    tb6 = {n: _weighted(g, tb1) for n, g in games.items()}
    tb7 = {n: _weighted(g, tb2) for n, g in games.items()}
    return {n: (scores[n], tb1[n], tb2[n], tb3[n], tb4[n], tb5[n], tb6[n], tb7[n]) for n in games}


def _round_robin_keys(t: Tournament, scores: dict[int, Decimal],
                      games: dict[int, list[tuple[int, str]]]) -> dict[int, tuple[Decimal, ...]]:
    """直胜 (points among those tied on score, every game between them counted — in a double
    round robin both), 胜局 (games won), 索分 (Sonneborn-Berger)."""
    table = points_table(t.points)
    by_score: dict[Decimal, set[int]] = {}
    for n in games:
        by_score.setdefault(scores[n], set()).add(n)
    h2h = {n: sum((table.get(code, Decimal(0)) for opp, code in g if opp in by_score[scores[n]] and len(
        by_score[scores[n]]) > 1), Decimal(0)) for n, g in games.items()}
    wins = {n: Decimal(sum(code in WON for _, code in g)) for n, g in games.items()}
    sb = {n: _weighted(g, scores) for n, g in games.items()}
    return {n: (scores[n], h2h[n], wins[n], sb[n]) for n in games}


def decisions_by_player(t: Tournament) -> dict[int, ties.Decision]:
    """Per player placed by a play-off or lot in the final standings: that decision."""
    if system_of(t).places is not None or not ties.decisions(t):  # not ranked by these standings
        return {}
    return {row.number: row.decision for row in standings(t) if row.decision is not None}


def undecided_places(t: Tournament) -> dict[int, int]:
    """The final places before any play-off or lot is applied (tied players share one)."""
    from copy import copy

    bare = copy(t)
    bare.extra = {k: v for k, v in t.extra.items() if k != "XQU"}
    return {row.number: row.rank for row in standings(bare)}


def final_places(t: Tournament) -> dict[int, int]:
    """名次 by the event's format: a Swiss event or round robin by the standings (score,
    辅分一…七); a knock-out by the round each player reached; a match by score; a team event
    by the team's place; a Go event by its placement criteria (``go_tiebreaks``): each system's own ``places``."""
    places = system_of(t).places
    if places is not None:
        return places(t)
    return {row.number: row.rank for row in standings(t)}
