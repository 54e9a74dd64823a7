"""Replaying an event round by round (逐轮重放), as every system's checker does: the event as it stood when a round
was paired, the round as the file records it, and the hard rules (法则一) checked on it independently of the
pairing engine."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from qiyuan.errors import problem
from qiyuan.tournament.model import BYE_RESULTS, RoundCell, Tournament
from qiyuan.tournament.state import ABSENCES, is_active, round_boards, withdrawn_in
from qiyuan.tournament.systems.base import SYSTEMS, Deviation, event_format

__all__ = ["before_round", "hard_rules", "is_foreign", "recorded"]


def is_foreign(t: Tournament) -> bool:
    """Was the event paired by another program (a TRF without qiyuan's format record ``XQM``)?  Such an event is
    judged on the hard rules and on score-difference optimality only: its openers (colours) and tie-breaks
    follow other rules."""
    return "XQM" not in t.extra


def before_round(t: Tournament, rnd: int) -> Tournament:
    """The event as it stood when round ``rnd`` was paired: the rounds before it, and of round ``rnd`` only the
    absences (``Z``/``H``/``F``) entered before the pairing; not finished, so the engine may pair it."""
    entrants = []
    for e in t.entrants:
        cells = [RoundCell(c.opponent, c.colour, c.result) for c in e.rounds[: rnd - 1]]
        if len(e.rounds) >= rnd:
            c = e.rounds[rnd - 1]
            if c.opponent is None and c.result in ABSENCES:
                cells.append(RoundCell(None, "-", c.result))
        entrants.append(replace(e, rounds=cells, excused={}, points=None, rank=None))
    extra = {k: list(v) for k, v in t.extra.items() if k != "XQS"}
    out = replace(t, entrants=entrants, extra=extra, round_dates=list(t.round_dates))
    system = SYSTEMS.get(event_format(t))
    if system is not None and system.rewind is not None:
        system.rewind(out, rnd)
    return out


def recorded(t: Tournament, rnd: int) -> tuple[list[tuple[int, int, str]], list[int]]:
    """Round ``rnd`` as the file records it: boards ``(first, second, colour of first)`` in the file's order
    (the opener first when the colours are written) and the players with the pairing bye (``U``)."""
    boards, _ = round_boards(t, rnd)
    by = {e.number: e for e in t.entrants}
    out = [(a, b, by[a].rounds[rnd - 1].colour) for a, b in boards]
    byes = [e.number for e in t.entrants if len(e.rounds) >= rnd and e.rounds[rnd - 1].opponent is None
            and e.rounds[rnd - 1].result == "U"]
    return out, byes


def hard_rules(t: Tournament, rnd: int, *, repeats: bool = True, one_bye: bool = True) -> list[Deviation]:
    """The hard rules on round ``rnd`` as recorded: nobody withdrawn or absent paired, everyone present paired
    once (a game or the bye), no repeat meeting (``repeats``), no second bye and a bye only for an odd number
    present (``one_bye``).  Written apart from the pairing engine's own checks, on purpose."""
    out: list[Deviation] = []
    boards, byes = recorded(t, rnd)
    by = {e.number: e for e in t.entrants}
    seen: dict[int, int] = {}
    for k, (a, b, _) in enumerate(boards, 1):
        for p in (a, b):
            if p in seen:
                out.append(Deviation(rnd, k, "twice", problem("player {number} is also on board {other}", number=p,
                                                               other=seen[p])))
            seen[p] = k
            if withdrawn_in(by[p], rnd):
                out.append(Deviation(rnd, k, "absent", problem("player {number} had withdrawn after round {after}",
                                                                number=p, after=by[p].withdrawn_after)))
        if repeats:
            met = [i for i, c in enumerate(by[a].rounds[: rnd - 1], 1) if c.opponent == b]
            if met:
                out.append(Deviation(rnd, k, "repeat", problem("{a} and {b} already met in round {round}", a=a, b=b,
                                                                round=met[0])))
    present = [e.number for e in t.entrants if is_active(e, rnd) and not _forfeit_alone(e, rnd)]
    for p in byes:
        if p in seen:
            out.append(Deviation(rnd, None, "twice", problem("player {number} has the bye and is on board {board}",
                                                              number=p, board=seen[p])))
        if one_bye:
            before = [i for i, c in enumerate(by[p].rounds[: rnd - 1], 1) if c.opponent is None and c.result == "U"]
            if before:
                out.append(Deviation(rnd, None, "bye", problem("player {number} has a second bye (the first in round "
                                                                "{round})", number=p, round=before[0])))
    if one_bye:
        if len(byes) > 1:
            out.append(Deviation(rnd, None, "bye", problem("{count} byes in one round: {players}", count=len(byes),
                                                            players=_list(byes))))
        elif byes and len(present) % 2 == 0:
            out.append(Deviation(rnd, None, "bye", problem("player {number} has the bye, but an even number of "
                                                            "players ({count}) is present", number=byes[0],
                                                            count=len(present))))
    left = [p for p in present if p not in seen and p not in byes]
    if left:
        out.append(Deviation(rnd, None, "unpaired", problem("present but not paired: {players}", players=_list(left))))
    return out


def _forfeit_alone(e, rnd: int) -> bool:
    """A cell without an opponent that is neither a bye nor an absence (a forfeit written alone): not paired."""
    if len(e.rounds) < rnd:
        return False
    c = e.rounds[rnd - 1]
    return c.opponent is None and c.result not in BYE_RESULTS


def _list(numbers: Iterable[int]) -> str:
    return ", ".join(map(str, numbers))
