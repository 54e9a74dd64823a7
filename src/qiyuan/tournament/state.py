"""Each player's state before a round (选手在某轮前的状态).

The Gomoku Swiss pairing and the opener rules read, per player, before round
``r``: the score (积分), the opponents already met, whether the pairing bye
(轮空) was used, how many rounds he was paired up (轮高) and down (轮低), and
his sequence of roles — opened (假先, TRF colour ``b``), did not open (``w``),
pairing bye (half an opening for the opener rule 1), or no role (absence,
arbiter's bye, forfeit written with colour ``-``).

Everything is derived from the tournament's round cells; nothing is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from qiyuan.tournament.model import PointSystem, RoundCell, Tournament

#: role codes in :attr:`PlayerState.roles`
OPENED = "b"
NOT_OPENED = "w"
BYE_ROLE = "U"  # the pairing bye: half an opening for rule 1, no role for rule 2
NO_ROLE = ""


def cell_points(cell: RoundCell, points: PointSystem) -> Decimal:
    """Points one round cell gives its player (得分), by its TRF result code."""
    code = cell.result
    if code in ("1", "W"):
        return points.win
    if code in ("=", "D"):
        return points.draw
    if code in ("0", "L"):
        return points.loss
    if code == "+":
        return points.forfeit_win
    if code == "-":
        return points.forfeit_loss
    if code == "U":
        return points.pairing_bye
    if code == "H":
        return points.half_bye
    if code == "F":
        return points.full_bye
    if code == "Z":
        return points.zero_bye
    return Decimal(0)  # " ": not played yet


def points_table(points: PointSystem) -> dict[str, Decimal]:
    """Result code -> points, for hot loops."""
    zero = Decimal(0)
    table = {
        "1": points.win, "W": points.win,
        "=": points.draw, "D": points.draw,
        "0": points.loss, "L": points.loss,
        "+": points.forfeit_win, "-": points.forfeit_loss,
        "U": points.pairing_bye, "H": points.half_bye,
        "F": points.full_bye, "Z": points.zero_bye,
        " ": zero, "": zero,
    }
    return table


@dataclass(slots=True)
class PlayerState:
    """One player's state before a round."""

    number: int  # 签号
    score: Decimal  # 积分 before the round
    opponents: set[int]  # draw numbers already met (a forfeit is a meeting)
    had_bye: bool  # the pairing bye (轮空, TRF ``U``) was used
    ups: int  # rounds paired up (轮高): met a higher score
    downs: int  # rounds paired down (轮低): met a lower score
    roles: tuple[str, ...]  # per round: "b" opened, "w" not, "U" pairing bye, "" none

    @property
    def openings_halves(self) -> int:
        """Openings counted in halves: an opening 2, the pairing bye 1 (开局次数, 轮空算半局)."""
        return 2 * self.roles.count(OPENED) + self.roles.count(BYE_ROLE)


def player_states(t: Tournament, round_no: int) -> dict[int, PlayerState]:
    """State of every entrant before round ``round_no`` (rounds ``1..round_no-1`` counted)."""
    return states_and_gaps(t, round_no)[0]


def states_and_gaps(t: Tournament, round_no: int) -> tuple[dict[int, PlayerState], list[tuple[int, int, int]]]:
    """:func:`player_states`, plus the games of earlier rounds still without a result.

    A gap is ``(round, player, opponent)``.
    """
    table = points_table(t.points)
    numbers = [e.number for e in t.entrants]
    size = max(numbers, default=0) + 1
    score: list[Decimal] = [Decimal(0)] * size
    opponents: list[set[int]] = [set() for _ in range(size)]
    had_bye = [False] * size
    ups = [0] * size
    downs = [0] * size
    roles: list[list[str]] = [[] for _ in range(size)]
    cells = [(e.number, e.rounds) for e in t.entrants]
    gaps: list[tuple[int, int, int]] = []
    for k in range(round_no - 1):
        gained: list[tuple[int, Decimal]] = []
        for number, rounds in cells:
            if k >= len(rounds):
                roles[number].append(NO_ROLE)
                continue
            cell = rounds[k]
            opp = cell.opponent
            if opp is not None and 0 < opp < size:
                opponents[number].add(opp)
                mine, theirs = score[number], score[opp]
                if theirs > mine:
                    ups[number] += 1
                elif theirs < mine:
                    downs[number] += 1
            code = cell.result
            if code == " " and opp is not None:
                gaps.append((k + 1, number, opp))
            if code == "U" and opp is None:
                had_bye[number] = True
                roles[number].append(BYE_ROLE)
            elif cell.colour == "b" and opp is not None:
                roles[number].append(OPENED)
            elif cell.colour == "w" and opp is not None:
                roles[number].append(NOT_OPENED)
            else:
                roles[number].append(NO_ROLE)
            gained.append((number, table.get(code, Decimal(0))))
        for number, pts in gained:
            score[number] += pts
    states = {
        n: PlayerState(n, score[n], opponents[n], had_bye[n], ups[n], downs[n], tuple(roles[n]))
        for n in numbers
    }
    return states, gaps
