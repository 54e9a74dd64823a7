"""Results from the players' phones (赛场手机报分): reported by one player, confirmed by the other,
signed by the arbiter; and check-in (签到) before a round.

A board's *claim* moves through these states:

* ``reported`` — one of the two players chose a result;
* ``confirmed`` — the other player chose the same result (on his own phone);
* ``disputed`` — the other player chose another result, or a player changed a result already
  reported or confirmed: the arbiter settles it;
* ``signed`` — the arbiter signed it: only now is the result entered in the event (through the same
  use case as typing it), so nothing a phone enters counts, or is used by a pairing, before that.

Check-in: the players present for the next round check in (by phone, or ticked by the arbiter);
closing check-in makes every other player who would be paired absent (``Z``) in that round, and a late
entry after that absent in it too.  The event file records the closing (``XQQ ROUND N1 N2 …``: the round
and the players it made absent), so every door — the desk, the hall, the command line — sees it.

Pure: plain data in and out; where the claims are kept and who may act is the caller's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from qiyuan.tournament import eventfile as ev
from qiyuan.tournament.errors import EventError, problem
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.sheets import pairing_sheet
from qiyuan.tournament.state import is_active, rounds_paired

REPORTED, CONFIRMED, DISPUTED, SIGNED = "reported", "confirmed", "disputed", "signed"
STATES = (REPORTED, CONFIRMED, DISPUTED, SIGNED)

#: what a phone may choose, from the board's first-named player's side (the opener's)
PHONE_RESULTS = ("1-0", "½-½", "0-1")


@dataclass(frozen=True)
class Board:
    """Board ``board`` of round ``round``: the first-named player (who opens) and the other."""

    round: int
    board: int
    first: int
    second: int
    first_name: str
    second_name: str
    result: str  # as the event holds it ("" while not entered)


@dataclass(frozen=True)
class Claim:
    """What the phones say about one board.  ``result`` is from the first-named player's side;
    ``devices`` are the phones that acted (a player may not confirm from the reporter's phone)."""

    round: int
    board: int
    first: int
    second: int
    state: str
    result: str
    reported_by: int
    confirmed_by: int | None = None
    disputed_result: str = ""  # the other result chosen, in a dispute
    reporter_device: str = ""
    confirmer_device: str = ""


def boards_of(t: Tournament, rnd: int) -> list[Board]:
    """The boards of round ``rnd`` as the pairing list numbers them."""
    sheet = pairing_sheet(t, rnd)
    return [Board(rnd, b.board, b.opener.number, b.other.number, b.opener.name, b.other.name, b.result)
            for b in sheet.boards]


def board_of(t: Tournament, rnd: int, board: int, first: int, second: int) -> Board:
    """Board ``board`` of round ``rnd``, refused unless it still seats ``first`` against ``second``
    (a slip printed before a pairing was changed names other players)."""
    if rnd < 1 or rnd > rounds_paired(t):
        raise EventError(problem("round {round} is not paired", round=rnd))
    for b in boards_of(t, rnd):
        if b.board == board:
            if (b.first, b.second) != (first, second):
                raise EventError(problem("board {board} of round {round} no longer seats these players: "
                                         "ask the arbiter", board=board, round=rnd))
            return b
    raise EventError(problem("round {round} has no board {board}", round=rnd, board=board))


def _check_result(result: str) -> None:
    if result not in PHONE_RESULTS:
        raise EventError(problem("a result is 1-0, ½-½ or 0-1, not {result!r}", result=result))


def _check_player(board: Board, player: int) -> None:
    if player not in (board.first, board.second):
        raise EventError(problem("player {player} does not play on board {board}", player=player,
                                 board=board.board))


def report(claim: Claim | None, board: Board, player: int, result: str, device: str = "") -> Claim:
    """Player ``player`` of ``board`` chooses ``result`` (from the first-named player's side).

    The first choice is ``reported``; the other player choosing the same result (not from the
    reporter's phone) ``confirmed``; any other result, or a change, ``disputed``.  A signed result
    is the arbiter's: refused."""
    _check_result(result)
    _check_player(board, player)
    if board.result:
        raise EventError(problem("the arbiter has entered this board's result ({result}): ask the arbiter",
                                 result=board.result))
    if claim is None:
        return Claim(board.round, board.board, board.first, board.second, REPORTED, result, player,
                     reporter_device=device)
    if claim.state == SIGNED:
        raise EventError(problem("the arbiter has signed this board's result ({result}): ask the arbiter",
                                 result=claim.result))
    if claim.state == DISPUTED:
        if result == claim.result or result == claim.disputed_result:
            return claim
        return replace(claim, disputed_result=result)
    same = result == claim.result
    if claim.state == REPORTED:
        if player == claim.reported_by:
            return claim if same else replace(claim, state=DISPUTED, disputed_result=result)
        if same and device and device == claim.reporter_device:
            raise EventError(problem("the other player confirms on his own phone"))
        if same:
            return replace(claim, state=CONFIRMED, confirmed_by=player, confirmer_device=device)
        return replace(claim, state=DISPUTED, confirmed_by=player, disputed_result=result, confirmer_device=device)
    # confirmed: the same answer again changes nothing; another one reopens it for the arbiter
    return claim if same else replace(claim, state=DISPUTED, disputed_result=result)


def sign(claim: Claim, result: str | None = None) -> Claim:
    """The arbiter signs: a confirmed claim as it stands; a reported or disputed one only with the
    result he decided (``result``)."""
    if claim.state == SIGNED:
        raise EventError(problem("board {board} is signed already", board=claim.board))
    if result is None:
        if claim.state != CONFIRMED:
            raise EventError(problem("board {board} is not confirmed by both players: decide its result",
                                     board=claim.board))
        result = claim.result
    _check_result(result)
    return replace(claim, state=SIGNED, result=result)


def absent_at_close(t: Tournament, rnd: int, present: Iterable[int]) -> list[int]:
    """Who closing check-in for round ``rnd`` makes absent: every player who would be paired in it
    (not withdrawn, not excused for it already) and did not check in."""
    if rnd != rounds_paired(t) + 1:
        raise EventError(problem("check-in is for the next round to pair ({next}), not round {round}",
                                 next=rounds_paired(t) + 1, round=rnd))
    here = set(present)
    return [e.number for e in t.entrants if e.number not in here and is_active(e, rnd) and len(e.rounds) < rnd]


#: the event file's record of closed check-ins: ``ROUND N1 N2 …`` (the players closing made absent)
CHECKIN_RECORD = "XQQ"


def closed_check_ins(t: Tournament) -> dict[int, list[int]]:
    """Rounds whose check-in is closed, each with the players closing made absent."""
    out: dict[int, list[int]] = {}
    for line in t.extra.get(CHECKIN_RECORD, []):
        parts = [int(x) for x in line.split() if x.isdigit()]
        if parts:
            out[parts[0]] = parts[1:]
    return out


def _record(t: Tournament, closed: dict[int, list[int]]) -> None:
    if closed:
        t.extra[CHECKIN_RECORD] = [" ".join(map(str, [r, *ns])) for r, ns in sorted(closed.items())]
    else:
        t.extra.pop(CHECKIN_RECORD, None)


def close_check_in(t: Tournament, rnd: int, present: Iterable[int]) -> list[int]:
    """Close check-in for round ``rnd``: everyone to be paired who did not check in is absent (``Z``)."""
    closed = closed_check_ins(t)
    if rnd in closed:
        raise EventError(problem("check-in for round {round} is closed already", round=rnd))
    absent = absent_at_close(t, rnd, present)
    for number in absent:
        ev.excuse(t, number, [rnd], "Z")
    closed[rnd] = absent
    _record(t, closed)
    return absent


def reopen_check_in(t: Tournament, rnd: int) -> list[int]:
    """Reopen check-in for round ``rnd`` (not yet paired): the players closing made absent are to be
    paired again.  Returns them."""
    closed = closed_check_ins(t)
    if rnd not in closed:
        raise EventError(problem("check-in for round {round} is not closed", round=rnd))
    if rnd <= rounds_paired(t):
        raise EventError(problem("round {round} is already paired: undo it first (qiyuan event undo)", round=rnd))
    back = []
    for number in closed.pop(rnd):
        e = t.entrants[number - 1]
        if len(e.rounds) >= rnd and e.rounds[rnd - 1].opponent is None and e.rounds[rnd - 1].result == "Z":
            del e.rounds[rnd - 1:]
            back.append(number)
        elif e.excused.get(rnd) == "Z":
            del e.excused[rnd]
            back.append(number)
    _record(t, closed)
    return back


def late_entry(t: Tournament, number: int) -> bool:
    """A player entered after check-in for the next round closed is absent in it (and named in the record)."""
    rnd = rounds_paired(t) + 1
    closed = closed_check_ins(t)
    if rnd not in closed:
        return False
    ev.excuse(t, number, [rnd], "Z")
    closed[rnd] = sorted({*closed[rnd], number})
    _record(t, closed)
    return True


def renumber_check_ins(t: Tournament, renumber: dict[int, int]) -> None:
    """The closed check-ins' record after a player is removed: the others by their new numbers."""
    closed = closed_check_ins(t)
    if closed:
        _record(t, {r: [renumber[n] for n in ns if n in renumber] for r, ns in closed.items()})
