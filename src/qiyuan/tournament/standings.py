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
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations

from qiyuan.tournament import go
from qiyuan.tournament.eventfile import event_format
from qiyuan.tournament.go_tiebreaks import standings as go_standings
from qiyuan.tournament.knockout import knockout_places
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.scoring import points_table
from qiyuan.tournament.scoring import score as entrant_score
from qiyuan.tournament.sheets import as_of
from qiyuan.tournament.state import rounds_paired
from qiyuan.tournament.teams import match_standings, team_standings

WON = frozenset("1W+")
DRAWN = frozenset("=D")
HALF = Decimal("0.5")

TIEBREAK_NAMES = ("辅分一", "辅分二", "辅分三", "辅分四", "辅分五", "辅分六", "辅分七")


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int  # shared places: the best place of the tied players
    number: int
    name: str
    score: Decimal
    tiebreaks: tuple[Decimal, ...]  # 辅分一 … 辅分七


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


def standings(t: Tournament, *, after: int | None = None) -> list[StandingRow]:
    """Every entrant ranked by score and 辅分一 … 辅分七; ``after``: as the standings stood after
    that round (the later rounds left out, tie-breaks on the scores of then)."""
    if after is None:  # the rounds paired: an excuse for the next round already entered does not count yet
        after = rounds_paired(t)
        if all(len(e.rounds) <= after for e in t.entrants):
            after = None
    if after is not None:
        t = as_of(t, after)
    scores = {e.number: entrant_score(e, t.points) for e in t.entrants}
    games = _games(t)
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
    keys = {n: (scores[n], tb1[n], tb2[n], tb3[n], tb4[n], tb5[n], tb6[n], tb7[n]) for n in games}
    names = {e.number: e.name for e in t.entrants}
    order = sorted(keys, key=lambda n: (tuple(-x for x in keys[n]), n))
    rows: list[StandingRow] = []
    for i, n in enumerate(order):
        rank = rows[-1].rank if rows and keys[order[i - 1]] == keys[n] else i + 1
        rows.append(StandingRow(rank, n, names[n], scores[n], keys[n][1:]))
    return rows


def final_places(t: Tournament) -> dict[int, int]:
    """名次 by the event's format: a Swiss event or round robin by the standings (score,
    辅分一…七); a knock-out by the round each player reached; a match by score; a team event
    by the team's place; a Go event by its placement criteria (``go_tiebreaks``)."""
    fmt = event_format(t)
    if fmt == "knockout":
        return knockout_places(t)
    if fmt == "match":
        return {row.number: row.rank for row in match_standings(t)}
    if fmt == "team":
        return {n: row.rank for row in team_standings(t) for n in row.team.members}
    if fmt in go.GO_FORMATS:  # --- go: by the event's Go placement criteria (MMS, SOS, …)
        return {row.number: row.place for row in go_standings(t, go.settings(t), go.players(t))}
    return {row.number: row.rank for row in standings(t)}
