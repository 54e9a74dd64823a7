"""冠军不降分: who is an event's champion, and the protections of an event's ΣΔR.

* The champion is the player ranked 1 in the event's standings (every player
  ranked 1 on a tie); without standings, the players with the highest score
  over the event's games, forfeit wins included.
* The champion's negative ΣΔR for the event becomes 0 (per event, not per
  period). Beijing–Shanghai: not for events lasting more than 20 days.
* Go 1995: in an international event a player scoring at least 50 % (over his
  rated, actually played games) loses no points from it.
* CGA Art. 6(四), Go 1995: in the national team championship (全国团体赛) the
  best score rate on each board (各台次得分率最高者) is treated the same way; in
  such an event this takes the place of the champion rule. A team event
  without boards keeps the champion rule (its top scorer), as any other
  event whose format is in the rule set's ``champion_formats``.
* A reader can check a protection: the explanation gives the scores (or the
  score rates on his board) of the others he was compared with
  (``runners_up``, ``board_rates``).
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

from qiyuan.rating.model import Game, Result, Standing

ONE = Decimal(1)
HALF = Decimal("0.5")
ZERO = Decimal(0)

#: Points to (player1, player2) for the champion's score: forfeit wins count, unplayed games do not.
_POINTS: dict[Result, tuple[Decimal, Decimal]] = {
    Result.WIN: (ONE, ZERO),
    Result.LOSS: (ZERO, ONE),
    Result.DRAW: (HALF, HALF),
    Result.FORFEIT_WIN: (ONE, ZERO),
    Result.FORFEIT_LOSS: (ZERO, ONE),
    Result.NOT_PLAYED: (ZERO, ZERO),
    Result.BOTH_WIN: (ONE, ONE),  # the arbiter's decision counts as a win for each
    Result.BOTH_LOSS: (ZERO, ZERO),
}


def event_scores(games: Iterable[Game]) -> dict[str, Decimal]:
    """Each player's score in the event (played games and forfeit wins)."""
    scores: dict[str, Decimal] = {}
    for g in games:
        a, b = _POINTS[g.result]
        scores[g.player1] = scores.get(g.player1, ZERO) + a
        scores[g.player2] = scores.get(g.player2, ZERO) + b
    return scores


def champions(games: Iterable[Game], standings: Iterable[Standing] = ()) -> frozenset[str]:
    """The event's champions (冠军): rank 1 in the standings, else the top score (all tied players)."""
    ranked_first = frozenset(s.player_id for s in standings if s.rank == 1)
    if ranked_first:
        return ranked_first
    scores = event_scores(games)
    if not scores:
        return frozenset()
    top = max(scores.values())
    return frozenset(p for p, s in scores.items() if s == top)


def runners_up(scores: dict[str, Decimal], top: Decimal) -> tuple[Decimal | None, list[str]]:
    """The best score below ``top`` and who made it (sorted by id): what the champion was compared with."""
    below = [s for s in scores.values() if s < top]
    if not below:
        return None, []
    second = max(below)
    return second, sorted(p for p, s in scores.items() if s == second)


def board_rates(games: Iterable[Game]) -> dict[int, list[tuple[str, Decimal, int]]]:
    """Per board: every player's (score, games actually played) at it, best score rate first (then by id)."""
    per: dict[tuple[int, str], list[Decimal]] = {}
    for g in games:
        if g.board is None or not g.result.played:
            continue
        a, b = _POINTS[g.result]
        per.setdefault((g.board, g.player1), []).append(a)
        per.setdefault((g.board, g.player2), []).append(b)
    out: dict[int, list[tuple[str, Decimal, int]]] = {}
    for (board, p), scores in per.items():
        out.setdefault(board, []).append((p, sum(scores, ZERO), len(scores)))
    for rows in out.values():
        rows.sort(key=lambda r: (-Fraction(r[1]) / r[2], r[0]))
    return out


def best_on_each_board(games: Iterable[Game]) -> dict[str, tuple[int, Decimal, int]]:
    """全国团体赛: the players with the best score rate on each board (各台次得分率最高者), ties all.

    The score rate is over the games actually played at that board (no minimum number of games);
    games without a board are not counted. Returns player → (board, score, games) of the board on
    which he is best (the lowest such board).
    """
    per: dict[tuple[int, str], list[Decimal]] = {}
    for g in games:
        if g.board is None or not g.result.played:
            continue
        a, b = _POINTS[g.result]
        per.setdefault((g.board, g.player1), []).append(a)
        per.setdefault((g.board, g.player2), []).append(b)
    best: dict[int, Fraction] = {}
    for (board, _p), scores in per.items():
        rate = Fraction(sum(scores, ZERO)) / len(scores)
        if board not in best or rate > best[board]:
            best[board] = rate
    out: dict[str, tuple[int, Decimal, int]] = {}
    for (board, p), scores in sorted(per.items()):
        if Fraction(sum(scores, ZERO)) / len(scores) == best[board] and p not in out:
            out[p] = (board, sum(scores, ZERO), len(scores))
    return out
