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
from django.utils import timezone
from django.utils.text import slugify

from qiyuan.errors import NotFound, problem
from qiyuan.formats.eventstore import TrfFileStore
from qiyuan.office.audit.models import record
from qiyuan.office.db import writing
from qiyuan.office.events.live import LiveEventStore
from qiyuan.office.events.models import LiveEvent
from qiyuan.office.hall.models import CheckIn, Credential, PhoneClaim
from qiyuan.office.hall.tokens import (BadToken, CheckInToken, PlayerToken, forged, player_token, read_checkin_token,
                                       read_player_token)
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


#: the served event file as last parsed, by path: (its identity on disk, the event)
_PARSED: dict[str, tuple[tuple[int, int, int], Tournament]] = {}


def read_event(code: str) -> Tournament:
    """The event ``code`` as the phones' pages read it — not to be changed.  The served file is parsed again
    only when it changed on disk (a write replaces it: a new inode, time and size), so a hall of phones
    reloading does not parse a 200-player file on every request."""
    store = event_store(code)
    if not isinstance(store, TrfFileStore):
        return store.read()
    path = str(store.path)
    try:
        st = os.stat(path)
    except OSError:
        return store.read()  # its own clear refusal
    key = (st.st_ino, st.st_mtime_ns, st.st_size)
    known = _PARSED.get(path)
    if known is not None and known[0] == key:
        return known[1]
    t = store.read()
    _PARSED[path] = (key, t)
    return t


def is_file_event(code: str) -> bool:
    path = hall_file()
    return path is not None and code == file_code(path)


def _lock(code: str) -> str:
    return f"hall:{code}"


# -- credentials -------------------------------------------------------------------------------------


def _now() -> str:
    return hall.stamp(timezone.now())


def _issue(code: str, number: int) -> int:
    row = Credential.objects.filter(event=code, number=number).first()
    return row.issue if row else 1


def credential(code: str, token: str) -> PlayerToken:
    """The player whose own credential ``token`` is, at event ``code`` — refused by name when it is forged,
    another event's, or replaced by a re-issue."""
    tok = read_player_token(token)
    if tok.event != code:
        raise BadToken(problem("this is a credential of another event ({event}), not of this one ({here}): scan "
                               "the code of this event's card", event=tok.event, here=code))
    current = _issue(code, tok.number)
    if tok.issue < current:
        raise BadToken(problem("this credential of player {number} was replaced: the arbiter issued a new one; "
                               "use the new card", number=tok.number))
    if tok.issue > current:
        raise forged()
    return tok


def player_link_token(code: str, number: int) -> str:
    """Player ``number``'s current credential of event ``code`` (for his card and his half of the slips)."""
    return player_token(code, number, _issue(code, number))


def reissue(code: str, actor: object, number: int) -> str:
    """The arbiter re-issues player ``number``'s credential (a lost phone): the old one stops working at once.
    Audited; returns the new credential."""
    with writing(_lock(code)):
        t = read_event(code)
        if not any(e.number == number for e in t.entrants):
            raise EventError(problem("the event has no player {number}", number=number))
        row, _ = Credential.objects.select_for_update().get_or_create(event=code, number=number,
                                                                      defaults={"issue": 1})
        row.issue += 1
        row.issued_by = _name(actor)
        row.save()
        record(actor, "hall.reissue", None, event=code, number=number, issue=row.issue)
    return player_token(code, number, row.issue)


def reissued(code: str) -> list[tuple[int, int]]:
    """The players of event ``code`` whose credential the arbiter re-issued, with its current issue (their new
    cards to print), by number."""
    return list(Credential.objects.filter(event=code, issue__gt=1).order_by("number").values_list("number", "issue"))


def _name(actor: object) -> str:
    return str(getattr(actor, "username", None) or actor)


# -- the phone ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerPage:
    """What a player's own page shows: his board of the round being played (if he plays one), what the
    phones said of it, and check-in for the next round."""

    event_name: str
    number: int
    name: str
    board: hall.Board | None
    claim: hall.Claim | None
    signed: bool  # the arbiter entered or signed the board's result
    check_in_round: int | None  # the next round, while its check-in is open and he is to be paired in it
    checked_in: bool


def _my_board(t: Tournament, number: int) -> hall.Board | None:
    rnd = rounds_paired(t)
    if not rnd:
        return None
    return next((b for b in hall.boards_of(t, rnd) if number in (b.first, b.second)), None)


def current_board(code: str, number: int) -> hall.Board | None:
    """Player ``number``'s board of the round being played, if he plays one."""
    return _my_board(read_event(code), number)


def player_page(code: str, token: str) -> PlayerPage:
    tok = credential(code, token)
    t = read_event(code)
    e = next((e for e in t.entrants if e.number == tok.number), None)
    if e is None:
        raise BadToken(problem("the event has no player {number}", number=tok.number))
    b = _my_board(t, tok.number)
    row = _claim_row(code, b.round, b.board) if b else None
    claim = row.as_claim() if row and (row.first, row.second) == (b.first, b.second) else None
    nxt = rounds_paired(t) + 1
    open_ = nxt <= (t.rounds_planned or nxt) and nxt not in hall.closed_check_ins(t) and is_active(e, nxt) \
        and len(e.rounds) < nxt
    here = open_ and CheckIn.objects.filter(event=code, round=nxt, number=tok.number).exists()
    signed = b is not None and (bool(b.result) or (claim is not None and claim.state == hall.SIGNED))
    return PlayerPage(t.name, e.number, e.name, b, claim, signed, nxt if open_ else None, here)


def _claim_row(code: str, tok_round: int, board: int, *, lock: bool = False) -> PhoneClaim | None:
    rows = PhoneClaim.objects.filter(event=code, round=tok_round, board=board)
    return (rows.select_for_update() if lock else rows).first()


def phone_report(code: str, token: str, result: str) -> hall.Claim:
    """The player whose credential ``token`` is chooses the result of his board of the round being played:
    reports it, corrects his report, confirms or disputes the other's (``qiyuan.tournament.hall.report``).
    Only his own credential speaks for him: a report and its confirmation come from two players'."""
    tok = credential(code, token)
    # the event is read before the transaction (a phone never changes it): the lock is held only while the
    # board's claim is read and written; the desk's queue and signature check the board's players again
    b = _my_board(read_event(code), tok.number)
    if b is None:
        raise EventError(problem("player {number} has no game in the round being played", number=tok.number))
    with writing(_lock(code)):
        row = _claim_row(code, b.round, b.board, lock=True)
        if row is not None and (row.first, row.second) != (b.first, b.second):
            row.delete()  # a claim for a pairing the arbiter changed since
            row = None
        claim, step = hall.report(row.as_claim() if row else None, b, tok.number, result)
        if step is None:
            return claim
        if row is None:
            row = PhoneClaim(event=code, round=b.round, board=b.board, first=b.first, second=b.second)
        before = row.state
        row.take(claim)
        row.steps = [*row.steps, {"what": step.what, "who": step.by, "via": tok.via, "when": _now(),
                                  "result": step.result, "was": step.was}]
        row.save()
        record(PHONE, "hall.report", None, event=code, round=b.round, board=b.board, player=tok.number,
               via=tok.via, step=step.what, result=result, state=claim.state, was=before)
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
    t = read_event(code)
    here = set(CheckIn.objects.filter(event=code, round=rnd).values_list("number", flat=True))
    closed = rnd in hall.closed_check_ins(t)
    players = [(e.number, e.name, e.number in here) for e in t.entrants if is_active(e, rnd)]
    return CheckInPage(t.name, rnd, closed, players)


def checkin_from_token(token: str) -> CheckInToken:
    return read_checkin_token(token)


def phone_check_in(code: str, token: str) -> int:
    """The player whose own credential ``token`` is checks in for the next round.  Returns the round."""
    tok = credential(code, token)
    return _check_in(code, None, tok.number, PHONE, True, tok.via)[1]


def check_in(code: str, rnd: int, number: int, *, actor: object, present: bool = True) -> bool:
    """The arbiter ticks player ``number`` in for round ``rnd`` (or out: ``present=False``) — anyone, with no
    credential.  Returns whether anything changed."""
    return _check_in(code, rnd, number, actor, present, "arbiter")[0]


def _check_in(code: str, rnd: int | None, number: int, actor: object, present: bool, via: str) -> tuple[bool, int]:
    """Check player ``number`` in (or out) for round ``rnd`` (None: the next); whether it changed, the round."""
    with writing(_lock(code)):
        t = read_event(code)
        rnd = rounds_paired(t) + 1 if rnd is None else rnd
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
                   number=number, via=via)
    return changed, rnd


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
    #: who reported, confirmed, corrected, disputed or changed what, in order (``PhoneClaim.steps``)
    steps: tuple[dict, ...] = ()

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
        mine = c is not None and (c.first, c.second) == (b.first, b.second)
        rows.append(QueueRow(b, c.as_claim() if mine else None, tuple(c.steps) if mine else ()))
    return Queue(t.name, rnd, rows)


def _phones(rows: list[PhoneClaim]) -> list[dict]:
    return [{"board": r.board, "reported_by": r.reported_by, "confirmed_by": r.confirmed_by} for r in rows]


def _arbiter_step(row: PhoneClaim, what: str, actor: object, result: str) -> None:
    """The arbiter's act on a board's claim, after the players': in its steps (and so its provenance)."""
    row.steps = [*row.steps, {"what": what, "who": _name(actor), "via": "arbiter", "when": _now(),
                              "result": result, "was": row.result if result != row.result else ""}]


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
        for r in rows:
            r.take(hall.sign(r.as_claim()))
            _arbiter_step(r, "signed", actor, r.result)
            r.signed_by = actor if getattr(actor, "pk", None) else None
        arbiter.enter_results(store, actor, rnd, [(r.first, r.result) for r in rows], phones=_phones(rows),
                              provenance=[r.provenance() for r in rows])
        for r in rows:
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
        was = row.state
        _arbiter_step(row, "settled", actor, result)
        row.take(claim)
        row.signed_by = actor if getattr(actor, "pk", None) else None
        arbiter.enter_results(store, actor, rnd, [(row.first, result)], phones=_phones([row]),
                              provenance=[row.provenance()])
        row.save()
        record(actor, "hall.settle", None, event=code, round=rnd, board=board, result=result, was=was,
               reported_by=row.reported_by, confirmed_by=row.confirmed_by)
