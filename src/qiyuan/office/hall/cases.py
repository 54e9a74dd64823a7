"""The hall's use cases (赛场手机报分): what a phone and the arbiter do, each in one function that the
phone pages, the desk and the tests call.

Each runs in one write transaction holding the hall's lock of the event (``writing``: ``BEGIN
IMMEDIATE`` on SQLite, an advisory lock on PostgreSQL), so two phones confirming the same board at the
same moment, or an arbiter signing while a phone reports, queue instead of losing one another.  A
result counts only when the arbiter signs it: signing calls ``qiyuan.tournament.arbiter.enter_results``
— the use case an arbiter's typing calls — on the event's own store (the desk's row, or the event file
under its file lock), in the same transaction.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.utils.text import slugify

from qiyuan.errors import NotFound, problem
from qiyuan.formats.eventstore import TrfFileStore
from qiyuan.office.audit.models import record
from qiyuan.office.db import writing
from qiyuan.office.events.live import LiveEventStore
from qiyuan.office.events.models import LiveEvent
from qiyuan.office.hall.models import CheckIn, PhoneClaim
from qiyuan.office.hall.tokens import BadToken, BoardToken, CheckInToken, read_board_token, read_checkin_token
from qiyuan.tournament import arbiter, hall
from qiyuan.tournament.errors import EventError
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.state import is_active, rounds_paired

#: who the audit names for what a phone did
PHONE = "phone"


# -- which event --------------------------------------------------------------------------------------


def hall_file() -> Path | None:
    """The event file ``qiyuan serve --hall EVENT`` serves (``QIYUAN_HALL_FILE``), if any."""
    path = getattr(settings, "QIYUAN_HALL_FILE", "") or os.environ.get("QIYUAN_HALL_FILE", "")
    return Path(path) if path else None


def file_code(path: str | Path) -> str:
    """The code under which an event file is served to the hall: its name, as a slug."""
    return slugify(Path(path).stem) or "event"


def event_store(code: str):
    """The store of the event ``code``: the served event file, or the desk's event."""
    path = hall_file()
    if path is not None and code == file_code(path):
        return TrfFileStore(path)
    if LiveEvent.objects.filter(code=code).exists():
        return LiveEventStore(code)
    raise NotFound(problem("no such event: {event}", event=code))


def is_file_event(code: str) -> bool:
    path = hall_file()
    return path is not None and code == file_code(path)


def _lock(code: str) -> str:
    return f"hall:{code}"


# -- the phone ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardPage:
    """What a board's phone page shows."""

    event_name: str
    board: hall.Board
    claim: hall.Claim | None
    signed: bool  # the arbiter entered or signed a result


def _current_board(t: Tournament, tok: BoardToken) -> hall.Board:
    if tok.round != rounds_paired(t):
        raise BadToken(problem("round {round} is over: this slip's link has expired", round=tok.round))
    return hall.board_of(t, tok.round, tok.board, tok.first, tok.second)


def _claim_row(code: str, tok_round: int, board: int, *, lock: bool = False) -> PhoneClaim | None:
    rows = PhoneClaim.objects.filter(event=code, round=tok_round, board=board)
    return (rows.select_for_update() if lock else rows).first()


def board_page(token: str) -> BoardPage:
    tok = read_board_token(token)
    store = event_store(tok.event)
    t = store.read()
    b = _current_board(t, tok)
    row = _claim_row(tok.event, tok.round, tok.board)
    claim = row.as_claim() if row else None
    return BoardPage(t.name, b, claim, bool(b.result) or (claim is not None and claim.state == hall.SIGNED))


def phone_report(token: str, player: int, result: str, device: str = "") -> hall.Claim:
    """A player of the token's board chooses a result (or confirms the other's, or disputes it)."""
    tok = read_board_token(token)
    # the event is read before the transaction (a phone never changes it): the lock is held only while the
    # board's claim is read and written; the desk's queue and signature check the board's players again
    b = _current_board(event_store(tok.event).read(), tok)
    with writing(_lock(tok.event)):
        row = _claim_row(tok.event, tok.round, tok.board, lock=True)
        claim = hall.report(row.as_claim() if row else None, b, player, result, device)
        if row is None:
            row = PhoneClaim(event=tok.event, round=tok.round, board=tok.board, first=b.first, second=b.second)
        before = row.state
        row.take(claim)
        row.save()
        record(PHONE, "hall.report", None, event=tok.event, round=tok.round, board=tok.board, player=player,
               result=result, state=claim.state, was=before, device=device[:12])
    return claim


# -- check-in -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckInPage:
    event_name: str
    round: int
    closed: bool
    players: list[tuple[int, str, bool]]  # number, name, checked in


def _checkin_round(t: Tournament, rnd: int) -> None:
    if rnd != rounds_paired(t) + 1:
        raise BadToken(problem("check-in for round {round} is over", round=rnd))
    if rnd in hall.closed_check_ins(t):
        raise BadToken(problem("check-in for round {round} is closed: see the arbiter", round=rnd))


def checkin_page(code: str, rnd: int) -> CheckInPage:
    t = event_store(code).read()
    here = set(CheckIn.objects.filter(event=code, round=rnd).values_list("number", flat=True))
    closed = rnd in hall.closed_check_ins(t)
    players = [(e.number, e.name, e.number in here) for e in t.entrants if is_active(e, rnd)]
    return CheckInPage(t.name, rnd, closed, players)


def checkin_from_token(token: str) -> CheckInToken:
    return read_checkin_token(token)


def check_in(code: str, rnd: int, number: int, *, actor: object = PHONE, present: bool = True) -> bool:
    """Player ``number`` is present for round ``rnd`` (or, by the arbiter, no longer: ``present=False``).
    Returns whether anything changed."""
    store = event_store(code)
    with writing(_lock(code)):
        t = store.read()
        _checkin_round(t, rnd)
        e = next((e for e in t.entrants if e.number == number), None)
        if e is None or not is_active(e, rnd):
            raise EventError(problem("player {number} is not to be paired in round {round}", number=number,
                                     round=rnd))
        if present:
            _, changed = CheckIn.objects.get_or_create(event=code, round=rnd, number=number,
                                                       defaults={"by_arbiter": actor != PHONE})
        else:
            changed = CheckIn.objects.filter(event=code, round=rnd, number=number).delete()[0] > 0
        if changed:
            record(actor, "hall.check_in" if present else "hall.check_out", None, event=code, round=rnd,
                   number=number)
    return changed


def close_check_in(code: str, actor: object, rnd: int) -> list[int]:
    """Close check-in for round ``rnd``: every player to be paired who did not check in is absent (Z); the
    event file records it (a late entry is absent in that round too)."""
    store = event_store(code)
    with writing(_lock(code)):
        present = CheckIn.objects.filter(event=code, round=rnd).values_list("number", flat=True)
        absent = arbiter.close_check_in(store, actor, rnd, list(present))
        record(actor, "hall.close_check_in", None, event=code, round=rnd, absent=absent)
    return absent


def reopen_check_in(code: str, actor: object, rnd: int) -> list[int]:
    """The arbiter reopens check-in: the players closing made absent are to be paired again."""
    store = event_store(code)
    with writing(_lock(code)):
        back = arbiter.reopen_check_in(store, actor, rnd)
        record(actor, "hall.reopen_check_in", None, event=code, round=rnd, back=back)
    return back


# -- the arbiter's queue ------------------------------------------------------------------------------


@dataclass(frozen=True)
class QueueRow:
    board: hall.Board
    claim: hall.Claim | None

    @property
    def state(self) -> str:
        """open, reported, confirmed, disputed, signed — or ``entered`` (typed by an arbiter)."""
        if self.claim is not None and self.claim.state == hall.SIGNED:
            return hall.SIGNED
        if self.board.result:
            return "entered"
        return self.claim.state if self.claim else "open"


@dataclass(frozen=True)
class Queue:
    event_name: str
    round: int
    rows: list[QueueRow]

    def having(self, *states: str) -> list[QueueRow]:
        return [r for r in self.rows if r.state in states]


def queue(code: str, rnd: int | None = None) -> Queue:
    t = event_store(code).read()
    rnd = rnd or rounds_paired(t)
    claims = {c.board: c for c in PhoneClaim.objects.filter(event=code, round=rnd)}
    rows = []
    for b in (hall.boards_of(t, rnd) if rnd else []):
        c = claims.get(b.board)
        rows.append(QueueRow(b, c.as_claim() if c and (c.first, c.second) == (b.first, b.second) else None))
    return Queue(t.name, rnd, rows)


def _phones(rows: list[PhoneClaim]) -> list[dict]:
    return [{"board": r.board, "reported_by": r.reported_by, "confirmed_by": r.confirmed_by} for r in rows]


def sign(code: str, actor: object, rnd: int, boards: list[int] | None = None) -> list[int]:
    """Sign confirmed results of round ``rnd`` (``boards``, or every confirmed one): entered in the
    event through ``enter_results`` in one change.  Returns the boards signed."""
    store = event_store(code)
    with writing(_lock(code)):
        t = store.read()
        if rnd != rounds_paired(t):
            raise EventError(problem("round {round} is not the round being played", round=rnd))
        seats = {b.board: b for b in hall.boards_of(t, rnd)}
        rows = list(PhoneClaim.objects.select_for_update().filter(event=code, round=rnd, state=hall.CONFIRMED)
                    .order_by("board"))
        if boards is not None:
            wanted = set(boards)
            missing = wanted - {r.board for r in rows}
            if missing:
                raise EventError([problem("board {board} is not confirmed by both players", board=n)
                                  for n in sorted(missing)])
            rows = [r for r in rows if r.board in wanted]
        rows = [r for r in rows if r.board in seats and (seats[r.board].first, seats[r.board].second)
                == (r.first, r.second) and not seats[r.board].result]
        if not rows:
            return []
        arbiter.enter_results(store, actor, rnd, [(r.first, r.result) for r in rows], phones=_phones(rows))
        for r in rows:
            r.take(hall.sign(r.as_claim()))
            r.signed_by = actor if getattr(actor, "pk", None) else None
            r.save()
        signed = [r.board for r in rows]
        record(actor, "hall.sign", None, event=code, round=rnd, boards=signed, phones=_phones(rows))
    return signed


def settle(code: str, actor: object, rnd: int, board: int, result: str) -> None:
    """The arbiter decides a board's result (a dispute, or a claim only one player made) and signs it."""
    store = event_store(code)
    with writing(_lock(code)):
        t = store.read()
        if rnd != rounds_paired(t):
            raise EventError(problem("round {round} is not the round being played", round=rnd))
        row = _claim_row(code, rnd, board, lock=True)
        if row is None:
            raise EventError(problem("no phone reported board {board}: enter its result as usual", board=board))
        claim = hall.sign(row.as_claim(), result)
        arbiter.enter_results(store, actor, rnd, [(row.first, result)], phones=_phones([row]))
        was = row.state
        row.take(claim)
        row.signed_by = actor if getattr(actor, "pk", None) else None
        row.save()
        record(actor, "hall.settle", None, event=code, round=rnd, board=board, result=result, was=was,
               reported_by=row.reported_by, confirmed_by=row.confirmed_by)
