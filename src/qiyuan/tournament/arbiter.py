"""The arbiter's use cases (裁判长的操作): one function per thing an arbiter does.

The command line (``qiyuan event …``) and the desk call these same functions; they
only turn their input into the arguments and the outcome into lines or a page.
Each function

1. opens the event's storage for a change (``EventStore.change``): the store takes
   its lock (an exclusive file lock beside the TRF file; a row lock in one
   transaction at the desk) and reads the event;
2. calls the tournament core (:mod:`qiyuan.tournament.eventfile`), which checks
   everything and refuses with every problem at once (``EventError``,
   ``EventInputError`` — ``qiyuan.errors`` types, problems as data);
3. on success the store writes the event (atomically) and its audit entry, once;
   on a refusal nothing is written;
4. returns a plain outcome.

Pure: no file, database or clock of its own — the store and ``today`` come from the caller.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol

from qiyuan.people.pinyin import sort_key
from qiyuan.tournament import categories as cat
from qiyuan.tournament import eventfile as ev
from qiyuan.tournament import hall, keepapart, ties
from qiyuan.tournament.errors import EventError, Problem, problem
from qiyuan.tournament.model import Entrant, Tournament
from qiyuan.tournament.standings import is_final, undecided_places
from qiyuan.tournament.state import rounds_paired, unfinished_boards
from qiyuan.tournament.syntax import result_text
from qiyuan.tournament.teams import join_team


@dataclass
class Change:
    """An event open for one change: the tournament to change, and the audit entry's details."""

    t: Tournament
    detail: dict[str, Any] = field(default_factory=dict)


class EventStore(Protocol):
    """Where an event lives: the command line's TRF file, or the desk's database row."""

    #: how refusals name the event (a file name, an event code)
    label: str

    def read(self) -> Tournament:
        """The event as it stands (no lock: for showing, printing, the standings)."""

    def create(self, t: Tournament, actor: object, **detail: Any) -> None:
        """Store a new event (refused if one is there already)."""

    def change(self, actor: object, action: str, **detail: Any) -> AbstractContextManager[Change]:
        """Lock the event, read it, yield it; on a normal exit write it and one audit entry
        ``event.<action>`` with ``detail`` (plus what the use case added); on an exception
        write nothing and unlock."""


#: the actions of an event's audit trail (``event.<action>``), in the order of an event
ACTIONS = ("create", "add_player", "add_players", "edit_player", "remove_player", "draw", "pair", "set_pairing", "override", "undo_round", "results",
           "withdraw", "reinstate", "excuse", "keep_apart", "categories", "details", "tie_decision", "finish", "reopen",
           "check_in")


# -- outcomes -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerAdded:
    number: int
    name: str
    late_rounds: int  # rounds already paired, in which he is absent
    team: str = ""
    board: int | None = None


@dataclass(frozen=True)
class NumbersDrawn:
    how: str  # the XQD line: "lot seed 20260501" or "given 3 1 2 …"
    order: list[tuple[int, str]]  # (new number, name)


@dataclass(frozen=True)
class ResultsEntered:
    round: int
    entered: list[ev.Entered]
    open_boards: list[tuple[int, int]]
    forced_over: list[int]  # later rounds paired on the old scores (changed with force)


@dataclass(frozen=True)
class RoundSet:
    round: int
    boards: list[tuple[int, int]]
    bye: int | None


# -- the use cases --------------------------------------------------------------------------


def new_event(store: EventStore, actor: object, name: str, **fields: Any) -> Tournament:
    """Start an event (``fields``: format, rounds, dates, city, time control, arbiters, boards)."""
    t = ev.new_event(name, **fields)
    store.create(t, actor, format=ev.event_format(t), rounds=t.rounds_planned)
    return t


def add_player(store: EventStore, actor: object, entrant: Entrant, *, team: str = "",
               today: date | None = None) -> PlayerAdded:
    """Enter a player (a late entry after round 1: absent in the rounds already paired); in a team
    event on the next board of ``team``."""
    with store.change(actor, "add_player", name=entrant.name, player_id=entrant.player_id) as ch:
        t = ch.t
        is_team = ev.system_of(t).team_boards
        if is_team != bool(team.strip()):
            raise EventError(problem("a team event needs --team NAME for every player") if is_team else
                             problem("--team goes with a team event; this one is {format}",
                                     format=ev.event_format(t)))
        e = ev.add_player(t, entrant, today=today)
        if hall.late_entry(t, e.number):  # check-in for the next round is closed: absent in it
            ch.detail.update(absent_after_check_in=rounds_paired(t) + 1)
        if is_team:
            joined = join_team(t, team, e.number)
            ch.detail.update(team=joined.name)
            return PlayerAdded(e.number, e.name, len(e.rounds), joined.name, len(joined.members))
        ch.detail.update(number=e.number)
        return PlayerAdded(e.number, e.name, len(e.rounds))


def add_players(store: EventStore, actor: object, rows: list[tuple[int, Entrant]], *, source: str = "",
                today: date | None = None, faults: Iterable[Problem] = ()) -> list[PlayerAdded]:
    """Enter a whole entry list (报名表: a file's rows, registry players) in one change: every row
    checked, every problem at once by row, nothing entered if any is refused (not in a team event:
    its players are entered team by team)."""
    with store.change(actor, "add_players", source=source, players=len(rows)) as ch:
        if ev.system_of(ch.t).team_boards:
            raise EventError(problem("a team event needs --team NAME for every player: enter them with add-player"))
        added = ev.add_players(ch.t, rows, today=today, file=source, faults=faults)
        cat.keep_band_floors(ch.t, added)  # the entry list's band floors (分段等级分), for the rating-band prizes
        late = [e.number for e in added if hall.late_entry(ch.t, e.number)]  # check-in closed: absent in it
        ch.detail.update(numbers=[e.number for e in added], **({"absent_after_check_in": late} if late else {}))
        return [PlayerAdded(e.number, e.name, len(e.rounds)) for e in added]


def edit_player(store: EventStore, actor: object, number: int, changes: dict[str, Any], *,
                today: date | None = None) -> Entrant:
    """Correct an entrant's details (``eventfile.EDITABLE``: name, sex, grade, rating, association, ID
    number, …): checked like a new entry; his number, games and results stay.  The audit entry names every
    field changed, from what to what (an ID number by its document only: the trail holds no ID number)."""
    with store.change(actor, "edit_player", number=number) as ch:
        before = {k: getattr(ch.t.entrants[number - 1], k) for k in ev.EDITABLE} \
            if 1 <= number <= len(ch.t.entrants) else {}
        e = ev.edit_player(ch.t, number, changes, today=today)
        changed = {k: ({"from": before[k], "to": getattr(e, k)} if k != "id_number" else {"changed": True})
                   for k in ev.EDITABLE if getattr(e, k) != before[k]}
        ch.detail.update(name=e.name, changed=changed)
        return e


def remove_player(store: EventStore, actor: object, number: int) -> dict[int, int]:
    """Take an entrant out before round 1 is paired (after it: ``withdraw``); the players after him move up
    one number.  Returns the renumbering (old -> new)."""
    with store.change(actor, "remove_player", number=number) as ch:
        name = ch.t.entrants[number - 1].name if 1 <= number <= len(ch.t.entrants) else ""
        renumber = ev.remove_player(ch.t, number)
        hall.renumber_check_ins(ch.t, renumber)
        ch.detail.update(name=name, moved={str(a): b for a, b in renumber.items() if a != b})
        return renumber


def draw_numbers(store: EventStore, actor: object, *, seed: int | None = None, order: list[int] | None = None,
                 by_rating: bool = False) -> NumbersDrawn:
    """Fix the draw numbers (抽签): by lot (the seed is kept), as given, or by rating (highest first)."""
    with store.change(actor, "draw") as ch:
        t = ch.t
        if by_rating:
            order = [e.number for e in sorted(t.entrants, key=lambda e: (-(e.rating or 0), sort_key(e.name)))]
        ev.draw_numbers(t, seed=seed, order=order)
        how = t.extra["XQD"][0]
        ch.detail.update(how=how)
        return NumbersDrawn(how, [(e.number, e.name) for e in t.entrants])


def draw_tiebreak_lot(store: EventStore, actor: object, *, seed: int | None = None,
                      openers: list[int] | None = None):
    """Draw the coming tie-break round's openers by lot (a knock-out of mini-matches): by qiyuan with ``seed``
    or as drawn in the hall; kept in the file and printed."""
    with store.change(actor, "tiebreak_lot", seed=seed, openers=openers) as ch:
        lot = ev.draw_tiebreak_lot(ch.t, seed=seed, openers=openers)
        ch.detail.update(round=lot.round)
        return lot


def pair(store: EventStore, actor: object, *, explain: bool = False, on: date | None = None) -> ev.RoundPairing:
    """Pair the next round (编排) by the event's format and write it; ``on``: the day it is played (the sheets
    print it; TRF line 132), recorded when it falls within the event's dates."""
    with store.change(actor, "pair") as ch:
        pairing = ev.pair_next(ch.t, explain=explain)
        t = ch.t  # the day is recorded when it is one of the event's days (a rehearsal or a late entry of rounds is not)
        if on is not None and (t.start_date is None or t.start_date <= on) and (t.end_date is None or on <= t.end_date):
            ev.set_round_date(t, pairing.number, on)
        ch.detail.update(round=pairing.number, boards=len(pairing.boards), notes=[str(n) for n in pairing.notes])
        return pairing


def set_pairing(store: EventStore, actor: object, rnd: int, boards: list[tuple[int, int]],
                bye: int | None) -> RoundSet:
    """Pair a round by hand (the next one, or the last one while it has no result), checked
    against the hard rules (法则一)."""
    with store.change(actor, "set_pairing", round=rnd, boards=boards, bye=bye) as ch:
        ev.set_pairing(ch.t, rnd, boards, bye)
        return RoundSet(rnd, boards, bye)


def override_board(store: EventStore, actor: object, rnd: int, a: int, b: int) -> RoundSet:
    """Swap two players of the last round paired (one board's opener and other, or the places
    of two players on different boards or the bye), checked against the hard rules."""
    with store.change(actor, "override", round=rnd, players=[a, b]) as ch:
        boards, bye = ev.swap_players(ch.t, rnd, a, b)
        return RoundSet(rnd, boards, bye)


def undo_round(store: EventStore, actor: object, rnd: int | None = None,
               overrides: ev.Overrides = ev.CLI_OVERRIDES) -> int:
    """Undo the last round paired (no result yet), to pair it again; returns its number."""
    with store.change(actor, "undo_round") as ch:
        paired = rounds_paired(ch.t)
        if rnd is None:
            if not paired:
                raise EventError(problem("no round is paired yet"))
            rnd = paired
        ev.clear_round(ch.t, rnd, overrides)
        ch.detail.update(round=rnd)
        return rnd


def enter_results(store: EventStore, actor: object, rnd: int, items: Iterable[tuple[int, str]], *,
                  force: bool = False, change: bool = False, phones: list[dict] | None = None,
                  provenance: Iterable[hall.Provenance] = (),
                  typed_by: tuple[str, str, str] | None = None,
                  overrides: ev.Overrides = ev.CLI_OVERRIDES) -> ResultsEntered:
    """Enter (or clear, with a blank result) results of round ``rnd``, each ``(player, result
    from his side)``: all checked first, nothing saved if any is refused.  A result typed over a
    different one (or a clear of one) is refused unless ``change`` confirms it; the audit entry
    names every board changed, from what to what.  ``phones``: for results the arbiter signs from the
    players' phones, who reported and who confirmed each (for the audit); ``provenance``: where each of
    those results came from, recorded in the event (``XRP``); ``typed_by``: ``(who, via, when)`` of an arbiter
    typing them (``via`` ``cli`` or ``desk``), recorded in the same way; ``overrides``: how the caller's door
    overrides a refusal (its refusals name them)."""
    items = list(items)
    extra = {"phones": phones} if phones else {}
    with store.change(actor, "results", round=rnd, results=[list(i) for i in items], force=force,
                      change=change, **extra) as ch:
        entered = ev.enter_results(ch.t, rnd, items, force=force, change=change, overrides=overrides)
        hall.record_provenance(ch.t, provenance)
        if typed_by is not None:
            hall.record_provenance(ch.t, hall.typed_provenance(ch.t, rnd, entered, *typed_by))
        changed = [{"board": f"{e.number}-{e.opponent}", "from": result_text(e.before, e.before_other),
                    "to": result_text(e.result, e.other)} for e in entered if e.changed]
        if changed:
            ch.detail.update(changed=changed)
        paired = rounds_paired(ch.t)
        forced = list(range(rnd + 1, paired + 1)) if force else []
        return ResultsEntered(rnd, entered, unfinished_boards(ch.t, rnd), forced)


def withdraw(store: EventStore, actor: object, number: int, after: int | None = None) -> int:
    """Withdraw a player (退赛) after round ``after`` (default: the rounds paired)."""
    with store.change(actor, "withdraw", number=number) as ch:
        done = ev.withdraw(ch.t, number, after)
        ch.detail.update(after=done)
        return done


def reinstate(store: EventStore, actor: object, number: int) -> int:
    """Undo a withdrawal; returns the round from which he is paired again."""
    with store.change(actor, "reinstate", number=number) as ch:
        return ev.reinstate(ch.t, number)


def excuse(store: EventStore, actor: object, number: int, rounds: int | Iterable[int] | None,
           kind: str = "Z") -> list[int]:
    """Excuse a player (请假) from any rounds not yet paired (None: the next one): ``Z`` 0 points,
    ``H`` half, ``F`` full."""
    rounds = [rounds] if isinstance(rounds, int) else None if rounds is None else list(rounds)
    with store.change(actor, "excuse", number=number, rounds=rounds, kind=kind) as ch:
        return ev.excuse(ch.t, number, rounds, kind)


def keep_apart(store: EventStore, actor: object, kind: str, rounds: int) -> dict[str, int]:
    """Keep players of one association, club or family apart in the first ``rounds`` rounds (0: off)."""
    with store.change(actor, "keep_apart", kind=kind, rounds=rounds) as ch:
        if rounds and rounds_paired(ch.t) >= rounds:
            raise EventError(problem("rounds 1-{rounds} are already paired: the rule would change nothing",
                                     rounds=rounds))
        return keepapart.set_rule(ch.t, kind, rounds)


def set_categories(store: EventStore, actor: object, keys: list[str]) -> list[cat.Category]:
    """Name the event's prize categories (women, U8…U18, rating bands)."""
    with store.change(actor, "categories", categories=keys) as ch:
        return cat.set_categories(ch.t, keys)


def edit_details(store: EventStore, actor: object, *, row: dict[str, Any] | None = None, **fields: Any) -> None:
    """Change what the report says about the event: ``name``, ``start``, ``end``, ``city``,
    ``time_control``, ``chief_arbiter``, ``arbiters`` (each only when given); ``row``: the
    store's own fields of the event (the desk's organiser, host, organiser level)."""
    extra = {"row": row} if row is not None else {}
    with store.change(actor, "details", **fields, **extra) as ch:
        _details(ch.t, **fields)


def _details(t: Tournament, *, name: str | None = None, start: date | None = None, end: date | None = None,
             city: str | None = None, time_control: str | None = None, chief_arbiter: str | None = None,
             arbiters: list[str] | None = None, **_row: Any) -> None:
    faults = []
    if name is not None and not name.strip():
        faults.append(problem("the event needs a name"))
    first, last = start if start is not None else t.start_date, end if end is not None else t.end_date
    if first and last and last < first:
        faults.append(problem("the event ends ({end}) before it starts ({start})", end=last.isoformat(),
                              start=first.isoformat()))
    if any("," in a for a in [chief_arbiter or "", *(arbiters or [])]):
        faults.append(problem("an arbiter's name must not contain a comma"))
    if faults:
        raise EventError(faults)
    if name is not None:
        t.name = name.strip()
    if start is not None:
        t.start_date = start
    if end is not None:
        t.end_date = end
    if city is not None:
        t.city = city
    if time_control is not None:
        t.time_control = time_control
    if chief_arbiter is not None:
        t.chief_arbiter = chief_arbiter
    if arbiters is not None:
        t.deputy_arbiters = list(arbiters)


def decide_tie(store: EventStore, actor: object, players: list[int], kind: str, *, order: list[int] | None = None,
               seed: int | None = None) -> ties.Decision:
    """Record how a group tied in the final standings is placed: ``playoff`` (the order the
    play-off gave, winner first) or ``lot`` (the order drawn in the hall, or a seed qiyuan draws
    with); the standings, the report, the crosstable and the dan proposals follow it."""
    with store.change(actor, "tie_decision", players=players, kind=kind, order=order, seed=seed) as ch:
        fmt = ev.event_format(ch.t)
        if ev.system_of(ch.t).places is not None:  # placed by its own rules, not by the standings
            raise EventError(problem("a {format} event is placed by its own rules: no tie to decide", format=fmt))
        if not is_final(ch.t):
            raise EventError(problem("final ties are decided once every round is paired and played"))
        if left := unfinished_boards(ch.t, rounds_paired(ch.t)):
            raise EventError(problem("round {round} has boards without a result: {boards}",
                                     round=rounds_paired(ch.t), boards=", ".join(f"{a}-{b}" for a, b in left[:10])))
        made = ties.decide(ch.t, undecided_places(ch.t), players, kind, order=order, seed=seed)
        ch.detail.update(decided=made.line())
        return made


def finish(store: EventStore, actor: object) -> None:
    """Declare the event finished (every result in): no change until it is reopened."""
    with store.change(actor, "finish") as ch:
        ev.finish(ch.t)


def reopen(store: EventStore, actor: object) -> None:
    """Reopen a finished event (to correct it)."""
    with store.change(actor, "reopen") as ch:
        ev.reopen(ch.t)


def close_check_in(store: EventStore, actor: object, rnd: int, present: Iterable[int]) -> list[int]:
    """Close check-in (签到截止) for round ``rnd``, the next to pair: every player who would be paired
    and is not in ``present`` is absent (``Z``) in it.  Returns those players' numbers."""
    present = sorted(set(present))
    with store.change(actor, "check_in", round=rnd, present=present) as ch:
        absent = hall.close_check_in(ch.t, rnd, present)
        ch.detail.update(absent=absent)
        return absent


def reopen_check_in(store: EventStore, actor: object, rnd: int) -> list[int]:
    """Reopen check-in for round ``rnd``: the players closing made absent are to be paired again."""
    with store.change(actor, "check_in", round=rnd, reopen=True) as ch:
        back = hall.reopen_check_in(ch.t, rnd)
        ch.detail.update(back=back)
        return back
