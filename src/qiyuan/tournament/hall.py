"""Results from the players' phones (赛场手机报分): reported by one player, confirmed by the other,
signed by the arbiter; and check-in (签到) before a round.

A board's *claim* moves through these states:

* ``reported`` — one of the two players chose a result;
* ``confirmed`` — the other player chose the same result (through his own credential);
* ``disputed`` — the other player chose another result, or a player changed a result after it was
  confirmed (his dispute, whoever reported): the arbiter settles it.  The reporter changing his own report
  before the confirmation corrects it (still ``reported``);
* ``signed`` — the arbiter signed it: only now is the result entered in the event (through the same
  use case as typing it), so nothing a phone enters counts, or is used by a pairing, before that.

Check-in: the players present for the next round check in (by phone, or ticked by the arbiter);
closing check-in makes every other player who would be paired absent (``Z``) in that round, and a late
entry after that absent in it too.  The event file records the closing (``XQQ ROUND N1 N2 …``: the round
and the players it made absent), so every door — the desk, the hall, the command line — sees it.

Pure: plain data in and out; where the claims are kept and who may act is the caller's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timezone

from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import go
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
    #: a Go event's board: its stones, komi and whether a jigo is possible (``go.board_terms``); None: not Go
    terms: go.BoardTerms | None = None


@dataclass(frozen=True)
class Claim:
    """What the phones say about one board.  ``result`` is from the first-named player's side; in a
    dispute ``disputed_by`` is the player who disagreed (or changed his answer after the confirmation) and
    ``disputed_result`` his answer, ``result`` the other player's."""

    round: int
    board: int
    first: int
    second: int
    state: str
    result: str
    reported_by: int
    confirmed_by: int | None = None
    disputed_result: str = ""
    disputed_by: int | None = None


#: what a step of a claim did: the first report, the reporter's own correction before the confirmation, the
#: other player's confirmation, his different answer (a dispute), a player's change after the confirmation or
#: during a dispute (his dispute)
REPORTED_STEP, CORRECTED, CONFIRMED_STEP, DISPUTED_STEP, CHANGED = "reported", "corrected", "confirmed", "disputed", \
    "changed"


@dataclass(frozen=True)
class Step:
    """One player's act on a board's claim, in order: who (his number), what, the result he chose and the
    result it replaced (``was``: for a correction, a dispute or a change)."""

    by: int
    what: str
    result: str
    was: str = ""


def boards_of(t: Tournament, rnd: int) -> list[Board]:
    """The boards of round ``rnd`` as the pairing list numbers them."""
    sheet = pairing_sheet(t, rnd)
    if not go.is_go(t):
        return [Board(rnd, b.board, b.opener.number, b.other.number, b.opener.name, b.other.name, b.result)
                for b in sheet.boards]
    s, ps = go.settings(t), go.players(t)
    return [Board(rnd, b.board, b.opener.number, b.other.number, b.opener.name, b.other.name, b.result,
                  go.board_terms(s, ps, rnd, b.opener.number)) for b in sheet.boards]


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


def _check_result(result: str, board: Board | None = None) -> None:
    if result not in PHONE_RESULTS:
        raise EventError(problem("a result is 1-0, ½-½ or 0-1, not {result!r}", result=result))
    if result == "½-½" and board is not None and board.terms is not None and not board.terms.jigo:
        raise EventError(problem("board {board} cannot end in a jigo (½-½): black gives {komi} komi, not a whole "
                                 "number; black or white wins", board=board.board, komi=board.terms.komi,
                                 code="hall.no_jigo"))


def _check_player(board: Board, player: int) -> None:
    if player not in (board.first, board.second):
        raise EventError(problem("player {player} does not play on board {board}", player=player,
                                 board=board.board))


def report(claim: Claim | None, board: Board, player: int, result: str) -> tuple[Claim, Step | None]:
    """Player ``player`` of ``board`` chooses ``result`` (from the first-named player's side); who he is was
    proven by the caller (his own credential).  Returns the claim and the step it took (``None``: nothing
    changed).

    * the first choice is ``reported``;
    * the reporter choosing another result before the confirmation corrects his report (not a dispute);
    * the other player choosing the same result confirms it; another result disputes it (his dispute);
    * after the confirmation, a player choosing another result disputes it — *his* dispute, whoever he is;
    * in a dispute a player may change his own answer; the board stays with the arbiter.

    A result the arbiter entered or signed is the arbiter's: refused."""
    _check_result(result, board)
    _check_player(board, player)
    if board.result:
        raise EventError(problem("the arbiter has entered this board's result ({result}): ask the arbiter",
                                 result=board.result))
    if claim is None:
        return (Claim(board.round, board.board, board.first, board.second, REPORTED, result, player),
                Step(player, REPORTED_STEP, result))
    if claim.state == SIGNED:
        raise EventError(problem("the arbiter has signed this board's result ({result}): ask the arbiter",
                                 result=claim.result))
    if claim.state == DISPUTED:
        mine = claim.disputed_result if player == claim.disputed_by else claim.result
        if result == mine:
            return claim, None
        changed = replace(claim, disputed_result=result) if player == claim.disputed_by else \
            replace(claim, result=result)
        return changed, Step(player, CHANGED, result, mine)
    if result == claim.result:
        if claim.state == CONFIRMED or player == claim.reported_by:
            return claim, None
        return replace(claim, state=CONFIRMED, confirmed_by=player), Step(player, CONFIRMED_STEP, result)
    if claim.state == REPORTED and player == claim.reported_by:
        return replace(claim, result=result), Step(player, CORRECTED, result, claim.result)
    what = CHANGED if claim.state == CONFIRMED else DISPUTED_STEP
    return (replace(claim, state=DISPUTED, disputed_by=player, disputed_result=result),
            Step(player, what, result, claim.result))


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


# -- provenance: where a signed result came from -------------------------------------------------------

#: the event file's record of where each result from the phones came from (来源):
#: ``XRP ROUND BOARD RESULT WHAT:WHO:VIA:WHEN …`` — one line per board, its steps in order
PROVENANCE_RECORD = "XRP"


@dataclass(frozen=True)
class Act:
    """One act in a result's provenance: ``what`` (reported, corrected, confirmed, disputed, changed,
    signed, settled), ``who`` (a player's number, or the arbiter's name), ``via`` (the credential: ``p5.1``
    is player 5's credential of issue 1; ``desk`` or ``cli`` for the arbiter) and ``when`` (UTC,
    ``20261206T101500Z``)."""

    what: str
    who: str
    via: str
    when: str

    def text(self) -> str:
        return ":".join(_word(x) for x in (self.what, self.who, self.via, self.when))


@dataclass(frozen=True)
class Provenance:
    round: int
    board: int
    result: str
    acts: tuple[Act, ...]

    def line(self) -> str:
        return " ".join([str(self.round), str(self.board), self.result, *(a.text() for a in self.acts)])


def stamp(moment: datetime) -> str:
    """An act's time as the record writes it: UTC, ``20261206T101500Z``."""
    return moment.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _word(value: object) -> str:
    """A field of an act as one word: no spaces, no colons (a name with them keeps its letters)."""
    return "".join("_" if c.isspace() or c == ":" else c for c in str(value)) or "-"


def provenances(t: Tournament) -> dict[tuple[int, int], Provenance]:
    """Each board's recorded provenance, by (round, board); lines that do not read are skipped."""
    out = {}
    for line in t.extra.get(PROVENANCE_RECORD, []):
        parts = line.split()
        if len(parts) < 3 or not (parts[0].isdigit() and parts[1].isdigit()):
            continue
        acts = tuple(Act(*a.split(":", 3)) for a in parts[3:] if a.count(":") >= 3)
        out[(int(parts[0]), int(parts[1]))] = Provenance(int(parts[0]), int(parts[1]), parts[2], acts)
    return out


def record_provenance(t: Tournament, records: Iterable[Provenance]) -> None:
    """Record (or replace) the provenance of boards' results in the event (``XRP``)."""
    known = provenances(t)
    for p in records:
        known[(p.round, p.board)] = p
    if known:
        t.extra[PROVENANCE_RECORD] = [p.line() for _, p in sorted(known.items())]


#: the result field of a board whose result was cleared
NO_RESULT = "none"


def typed_provenance(t: Tournament, rnd: int, entered: Iterable, who: str, via: str, when: str) -> list[Provenance]:
    """The acts of results an arbiter typed in round ``rnd`` (``eventfile.Entered`` rows): ``typed`` (a first
    result), ``retyped`` (a change), ``cleared`` — each appended to its board's record, ``t`` holding the
    results as entered."""
    boards = {frozenset((b.first, b.second)): b for b in boards_of(t, rnd)}
    known = provenances(t)
    out = []
    for e in entered:
        b = boards.get(frozenset((e.number, e.opponent)))
        if e.unchanged or b is None:
            continue
        what = "cleared" if e.result == " " else "retyped" if e.changed else "typed"
        prior = known.get((rnd, b.board))
        out.append(Provenance(rnd, b.board, b.result or NO_RESULT,
                              (*(prior.acts if prior else ()), Act(what, who, via, when))))
    return out


#: how a rated result was entered, read from its provenance (``how_entered``): confirmed on both players' phones
#: and signed by the arbiter; decided by the arbiter in the hall (a dispute, or a claim only one phone made);
#: typed at the desk; typed at the terminal (the command line); no record that holds: the file it came in alone
PHONES, SETTLED, DESK, TERMINAL, FILE = "phones", "settled", "desk", "terminal", "file"
ENTERED = (PHONES, SETTLED, DESK, TERMINAL, FILE)
#: the doors an act came through, as the public may see them (a player's credential is his phone)
_DOORS = {"arbiter": "hall", "desk": "desk", "cli": "terminal"}
#: the acts a record may hold (any other word is shown as ``other``)
ACTS = (REPORTED_STEP, CORRECTED, CONFIRMED_STEP, DISPUTED_STEP, CHANGED, "signed", "settled", "typed", "retyped",
        "cleared")
_STAMP = re.compile(r"\d{8}T\d{4}(\d\d)?Z")


def _phone(via: str) -> bool:
    """A player's credential (``p5.1``: player 5's credential of issue 1)."""
    return bool(re.fullmatch(r"p\d+\.\d+", via))


def how_entered(p: Provenance | None, result: str, players: tuple[int, int] | None = None) -> str:
    """How a board's result ``result`` (as the event holds it) was entered, from its provenance ``p``: the last
    act's door — signed after both players confirmed it on their own phones (``PHONES``), settled by the arbiter
    in the hall, typed at the desk or the terminal. ``FILE`` when there is no record, or the record names another
    result (changed in the file afterwards), or its acts do not hold up (a signature without the report and the
    confirmation of two players, each through his own credential — the board's two, ``players``, when given):
    the file the result came in is then its only source."""
    if p is None or not p.acts or p.result != result:
        return FILE
    last = p.acts[-1]
    if last.what == "signed":
        said = [a for a in p.acts if _phone(a.via) and a.what in (REPORTED_STEP, CORRECTED, CONFIRMED_STEP)]
        phones = {a.who for a in said}
        own = all(a.via.startswith(f"p{a.who}.") for a in said)
        theirs = players is None or phones == {str(n) for n in players}
        confirmed = any(a.what == CONFIRMED_STEP for a in said)
        return PHONES if confirmed and own and theirs and len(phones) == 2 and last.via == "arbiter" else FILE
    if last.what == "settled" and last.via == "arbiter":
        return SETTLED
    if last.what in ("typed", "retyped"):
        return {"desk": DESK, "cli": TERMINAL}.get(last.via, FILE)
    return FILE


def public_acts(p: Provenance | None, first: int, second: int) -> tuple[tuple[str, str, str, str], ...]:
    """A record's acts as the public may see them: ``(what, who, door, when)``, who as a role — ``player1`` /
    ``player2`` (the players numbered ``first`` and ``second``) for a phone's act, ``arbiter`` for any other —
    never a name; the door ``phone``, ``hall`` (the arbiter in the hall), ``desk`` or ``terminal`` (``other`` for
    any other); the time as recorded when it reads as one, else empty."""
    if p is None:
        return ()
    role = {str(first): "player1", str(second): "player2"}
    return tuple((a.what if a.what in ACTS else "other", role.get(a.who, "other") if _phone(a.via) else "arbiter",
                  "phone" if _phone(a.via) else _DOORS.get(a.via, "other"), a.when if _STAMP.fullmatch(a.when) else "")
                 for a in p.acts)


@dataclass(frozen=True)
class Entered:
    """How one game's result was entered, as the office keeps it: ``how`` (``ENTERED``), the public acts
    (``public_acts``, the players as ``player1`` = the lower draw number) and the time of the last act."""

    how: str
    acts: tuple[tuple[str, str, str, str], ...] = ()
    when: str = ""
    #: the game's result as the event holds it: the lower-numbered player's cell (``1``, ``0``, ``=``, ``+``,
    #: ``-``): another file of the same event (its report) shares the record only where it holds the same result
    cell: str = ""

    def acts_text(self) -> str:
        """The acts as one field: ``what:who:door:when`` each, separated by spaces."""
        return " ".join(":".join(a) for a in self.acts)


def games_entered(t: Tournament) -> dict[tuple[int, int, int], Entered]:
    """The provenance of the event's games with a record (``XRP``), by (round, lower draw number, higher): an
    event without records gives none (its games came in the file alone)."""
    known = provenances(t)
    if not known:
        return {}
    out = {}
    for rnd in range(1, rounds_paired(t) + 1):
        for b in boards_of(t, rnd):
            p = known.get((rnd, b.board))
            if p is None or not b.result:
                continue
            lo, hi = sorted((b.first, b.second))
            acts = public_acts(p, lo, hi)
            rounds = t.entrants[lo - 1].rounds if 0 < lo <= len(t.entrants) else []
            cell = rounds[rnd - 1].result if len(rounds) >= rnd else ""
            out[(rnd, lo, hi)] = Entered(how_entered(p, b.result, (b.first, b.second)), acts,
                                         acts[-1][3] if acts else "", cell)
    return out


def entered_counts(t: Tournament) -> dict[str, int]:
    """How the results of the event's games were entered (``ENTERED``: each kind's count, zeros included): every
    game with a result in the rounds paired, read from its provenance (``games_entered``; none: ``FILE``; a record
    whose pairings no sheet can be made of counts as none, as the import reads it)."""
    try:
        known = games_entered(t)
    except (EventError, ValueError, LookupError):
        known = {}
    out = dict.fromkeys(ENTERED, 0)
    paired = rounds_paired(t)
    for e in t.entrants:
        for rnd, cell in enumerate(e.rounds[:paired], start=1):
            if cell.opponent is not None and cell.opponent > e.number and cell.result.strip():
                found = known.get((rnd, e.number, cell.opponent))
                out[found.how if found else FILE] += 1
    return out


def renumber_check_ins(t: Tournament, renumber: dict[int, int]) -> None:
    """The closed check-ins' record after a player is removed: the others by their new numbers."""
    closed = closed_check_ins(t)
    if closed:
        _record(t, {r: [renumber[n] for n in ns if n in renumber] for r, ns in closed.items()})
