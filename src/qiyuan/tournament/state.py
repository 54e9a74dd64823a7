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

from collections import defaultdict
from dataclasses import dataclass
from itertools import accumulate

from decimal import Decimal

import numpy as np

from qiyuan.tournament.model import Entrant, RoundCell, Tournament
from qiyuan.tournament.scoring import points_table

#: role codes in :attr:`PlayerState.roles`
OPENED = "b"
NOT_OPENED = "w"
BYE_ROLE = "U"  # the pairing bye: half an opening for rule 1, no role for rule 2
NO_ROLE = ""


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

    A gap is ``(round, player, opponent)``. Scores are summed in integer units
    of the point system's smallest decimal place, then turned back into
    ``Decimal`` (exact, and fast on events of 10,000 players).
    """
    last = max(round_no - 1, 0)
    table = points_table(t.points)
    places = max((-v.as_tuple().exponent for v in table.values()), default=0)
    places = max(places, 0)
    unit = 10**places
    units = defaultdict(int, {code: int(v * unit) for code, v in table.items()})  # unknown codes: 0
    unit_of = units.__getitem__
    size = max((e.number for e in t.entrants), default=0) + 1
    numbers = [e.number for e in t.entrants]
    opp_rows: list[list[int]] = []
    cum_rows: list[list[int]] = []
    gaps: list[tuple[int, int, int]] = []
    partial: list[tuple[int, set[int], bool, tuple[str, ...]]] = []
    pad = [0] * last
    for e in t.entrants:
        cells = e.rounds[:last]
        opps = [c.opponent for c in cells]
        codes = [c.result for c in cells]
        cols = [c.colour for c in cells]
        cum_rows.append(list(accumulate(map(unit_of, codes), initial=0)))
        had_bye = False
        if (
            None in opps
            or "-" in cols
            or " " in codes
            or len(cells) < last
            or (opps and not 0 < min(opps) <= max(opps) < size)  # a number no entrant has
        ):
            roles_list: list[str] = []
            for k, (o, code, col) in enumerate(zip(opps, codes, cols)):
                if o is not None:
                    if code == " ":
                        gaps.append((k + 1, e.number, o))
                    roles_list.append(col if col == OPENED or col == NOT_OPENED else NO_ROLE)
                elif code == "U":
                    had_bye = True
                    roles_list.append(BYE_ROLE)
                else:
                    roles_list.append(NO_ROLE)
            roles_list += [NO_ROLE] * (last - len(cells))
            roles = tuple(roles_list)
            opponents = set(opps)
            opponents.discard(None)
            opps = [o if o is not None and 0 < o < size else 0 for o in opps]
            if len(opps) < last:
                opps += pad[: last - len(opps)]
                cum_rows[-1] += [cum_rows[-1][-1]] * (last + 1 - len(cum_rows[-1]))
        else:
            roles = tuple(cols)
            opponents = set(opps)
        opp_rows.append(opps)
        partial.append((e.number, opponents, had_bye, roles))
    if last and numbers:
        # ups and downs (轮高/轮低): compare each game's two scores before its round
        opp = np.array(opp_rows, dtype=np.int64)
        cum = np.array(cum_rows, dtype=np.int64)
        by_number = np.zeros((size, last + 1), dtype=np.int64)
        by_number[np.array(numbers)] = cum
        theirs = by_number[opp, np.arange(last)]
        mine = cum[:, :last]
        met = opp > 0
        ups = ((theirs > mine) & met).sum(axis=1).tolist()
        downs = ((theirs < mine) & met).sum(axis=1).tolist()
    else:
        ups = downs = [0] * len(numbers)
    states: dict[int, PlayerState] = {}
    for i, (number, opponents, had_bye, roles) in enumerate(partial):
        total = cum_rows[i][last]
        score = Decimal(total).scaleb(-places) if places else Decimal(total)
        states[number] = PlayerState(number, score, opponents, had_bye, ups[i], downs[i], roles)
    return states, gaps


#: cells of a player not to be paired in a round: absent (0 points), or excused with half / full points
ABSENCES = ("Z", "H", "F")


def withdrawn_in(e: Entrant, rnd: int) -> bool:
    """Had the entrant withdrawn (退赛) before round ``rnd``? His cell for it, if any, is not an absence (缺席)."""
    return e.withdrawn_after is not None and rnd > e.withdrawn_after


def is_active(e: Entrant, rnd: int) -> bool:
    """Is the entrant to be paired in round ``rnd`` (not withdrawn, not excused for it)?"""
    if withdrawn_in(e, rnd):
        return False
    if len(e.rounds) >= rnd:
        c = e.rounds[rnd - 1]
        return not (c.opponent is None and c.result in ABSENCES)
    return e.excused.get(rnd) is None


def rounds_paired(t: Tournament) -> int:
    """Rounds already paired: the last round holding a game or a pairing bye."""
    last = 0
    for e in t.entrants:
        for i in range(len(e.rounds), last, -1):  # from the end: usually one look per row
            c = e.rounds[i - 1]
            if c.opponent is not None or c.result == "U":
                last = i
                break
    return last


def unfinished_boards(t: Tournament, rnd: int) -> list[tuple[int, int]]:
    """Boards of round ``rnd`` without a result yet, ``(smaller number, larger)``."""
    out = []
    for e in t.entrants:
        if len(e.rounds) >= rnd:
            c = e.rounds[rnd - 1]
            if c.opponent is not None and c.result == " " and e.number < c.opponent:
                out.append((e.number, c.opponent))
    return out


def round_boards(t: Tournament, rnd: int) -> tuple[list[tuple[int, int]], int | None]:
    """The pairing of round ``rnd`` as written: boards ``(opener, other)`` (by the smaller
    number when nobody has a role) in the order of the file, and the bye."""
    boards, bye = [], None
    for e in t.entrants:
        if len(e.rounds) < rnd:
            continue
        c = e.rounds[rnd - 1]
        if c.opponent is None:
            if c.result == "U":
                bye = e.number
        elif c.colour == "b" or (c.colour == "-" and e.number < c.opponent):
            boards.append((e.number, c.opponent))
    return boards, bye


def excuse_fill(e: Entrant, rnd: int) -> None:
    """Pre-fill ``0000 - Z`` (or the excuse's ``H``/``F``) up to round ``rnd`` for a player not
    to be paired (withdrawn, excused)."""
    while len(e.rounds) < rnd:
        r = len(e.rounds) + 1
        e.rounds.append(RoundCell(None, "-", e.excused.pop(r, "Z")))


def is_finished(t: Tournament) -> bool:
    """Has the arbiter declared the event finished (``XQS finished``)?"""
    return (t.extra.get("XQS") or [""])[0].strip() == "finished"


def boards_text(boards: list[tuple[int, int]]) -> str:
    """Boards written for a message: ``1-2, 3-4`` (the first ten, then ``…``)."""
    return ", ".join(f"{a}-{b}" for a, b in boards[:10]) + (" …" if len(boards) > 10 else "")
