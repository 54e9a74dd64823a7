"""The chief arbiter's event (赛事文件): every change an arbiter makes, as pure functions over a ``Tournament``.

One function per thing an arbiter does — start the event, enter a player (late
entries too), draw the numbers (抽签), pair a round, set or override a pairing
by hand (checked against the hard rules, 法则一), undo a round, enter or clear
results, withdraw, reinstate, excuse, finish.  Each checks everything first
and raises ``EventError`` (``qiyuan.errors.Refused``) or ``EventInputError``
with every problem at once; on a refusal the tournament is left as it was.
No I/O: :mod:`qiyuan.tournament.arbiter` runs them against an event's storage
(the command line's TRF file, the desk's database row).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import date
from typing import NamedTuple

from qiyuan.people.grades import DAN_GRADES, parse_grade
from qiyuan.people.idnumber import ID_TYPES, normalize_id_number, resident_id_problems, validate_id
from qiyuan.tournament import go, syntax
from qiyuan.tournament import minimatch as mm
from qiyuan.tournament.errors import EventError, EventInputError, Problem, problem, refuse
from qiyuan.tournament.handmade import hand_made_rounds, record_hand_made
from qiyuan.tournament.knockout import pending_tiebreak
from qiyuan.tournament.model import FORFEIT_RESULTS, Entrant, RoundCell, Tournament
from qiyuan.tournament.scoring import cell_points, score  # noqa: F401  (re-exported for the file's readers)
from qiyuan.tournament.state import (ABSENCES, boards_text, excuse_fill, is_active, is_finished, round_boards,
                                     rounds_paired, unfinished_boards)
from qiyuan.tournament.systems import SYSTEMS, RoundPairing, event_format, names, next_pairing, system_of
from qiyuan.tournament.teams import renumber_members

__all__ = [
    "CLI_OVERRIDES", "FORMATS", "EventError", "Overrides", "EventInputError", "RoundPairing", "add_player", "add_players", "check_pairing", "clear_round",
    "edit_player", "remove_player",
    "cross_check", "draw_numbers", "enter_result", "enter_results", "entrant_problems", "event_format",
    "excuse", "excuse_fill", "finish", "is_active", "is_finished", "new_event", "next_pairing", "pair_next",
    "parse_result", "reinstate", "reopen", "round_boards", "rounds_paired", "set_pairing", "set_round",
    "swap_players", "system_of", "unfinished_boards",
    "withdraw",
]

#: result seen from the other side of the board
COMPLEMENT = {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+", " ": " "}
OPPOSITE = {"b": "w", "w": "b", "-": "-"}
#: a Go board whose two cells say the same: the arbiter's decisions both win (``1``; ``+`` by default) and both
#: lose (``0``) — OpenGotha's RESULT_BOTHWIN / RESULT_BOTHLOSE; in any event, both lose by forfeit (``-``)
BOTH_RESULTS = frozenset("10+")

#: event formats (赛制) an event file may hold (``XQM`` line): the registered pairing systems
FORMATS = names()
#: the systems ranked as round robins
ROUND_ROBINS = tuple(name for name, system in SYSTEMS.items() if system.round_robin)


def cross_check(entrants: dict[int, Entrant], n_players: int, unknown_ok: Iterable[int] = (), both: bool = False):
    """Every round cell whose other side does not agree (``both``: a Go event, where both sides may say they
    won or lost, ``BOTH_RESULTS``).

    Yields ``(number, round_index, field, problem)`` with field ``"opponent"``,
    ``"colour"`` or ``"result"`` (``problem``: what is wrong, a translatable ``Problem`` without a place).  Opponents in ``unknown_ok`` that are missing
    from ``entrants`` are skipped (their own line was already reported broken).
    """
    skip = set(unknown_ok)
    for number in sorted(entrants):
        a = entrants[number]
        for i, c in enumerate(a.rounds):
            if c.opponent is None:
                continue
            rnd = i + 1
            b = entrants.get(c.opponent)
            if b is None:
                if c.opponent not in skip:
                    yield number, i, "opponent", problem("round {round}: opponent {opponent} is out of range (1..{n})",
                                                         round=rnd, opponent=c.opponent, n=n_players)
                continue
            if b is a:
                yield number, i, "opponent", problem("round {round}: player {number} is paired with himself", round=rnd,
                                                     number=number)
                continue
            d = b.rounds[i] if i < len(b.rounds) else None
            if d is None or d.opponent != number:
                said = problem("nobody") if d is None or d.opponent is None else problem("player {number}",
                                                                                          number=d.opponent)
                yield (number, i, "opponent",
                       problem("round {round}: player {number} is paired with {other}, but player {other}'s round "
                               "{round} names {said}", round=rnd, number=number, other=b.number, said=said))
                continue
            if number > b.number:
                continue  # each pair once
            if not (d.result == COMPLEMENT[c.result] or c.result == d.result == "-"
                    or (both and c.result == d.result and c.result in BOTH_RESULTS)):
                yield (number, i, "result",
                       problem("round {round}: results {number} {result!r} and {other} {other_result!r} do not agree",
                               round=rnd, number=number, result=c.result, other=b.number, other_result=d.result))
            if d.colour != OPPOSITE[c.colour] and not (c.result in FORFEIT_RESULTS and "-" in (c.colour, d.colour)):
                yield (number, i, "colour",
                       problem("round {round}: colours {number} {colour!r} and {other} {other_colour!r} must be b "
                               "against w", round=rnd, number=number, colour=c.colour, other=b.number,
                               other_colour=d.colour))


# -- the event ------------------------------------------------------------------------------


def new_event(
    name: str,
    *,
    fmt: str = "swiss",
    rounds: int | None = None,
    start: date | None = None,
    end: date | None = None,
    city: str = "",
    time_control: str = "",
    chief_arbiter: str = "",
    arbiters: Iterable[str] = (),
    boards: int | None = None,
    tiebreak_time_control: str | None = None,
) -> Tournament:
    """Start an event (Gomoku points 2/1/0, bye 2); a team event needs its ``boards``
    per team, a match its number of games (``rounds``); a knock-out of mini-matches
    (``minimatch``) its tie-break game's time control."""
    faults: list[Problem] = []
    if not name.strip():
        faults.append(problem("the event needs a name"))
    system = SYSTEMS.get(fmt)
    if system is None:
        faults.append(problem("unknown format {format!r}: choose one of {choices}", format=fmt,
                              choices=", ".join(SYSTEMS)))
    if (system is not None and system.team_boards) != (boards is not None):
        faults.append(problem("--boards (boards per team) goes with a team event, and only with one"))
    if boards is not None and not 1 <= boards <= 99:
        faults.append(problem("boards per team must be 1..99, found {boards}", boards=boards))
    if rounds is not None and not 1 <= rounds <= 99:
        faults.append(problem("the number of rounds must be 1..99, found {rounds}", rounds=rounds))
    if system is not None and system.needs_rounds and not rounds:
        faults.append(problem("a match needs its number of games (--rounds)"))
    if tiebreak_time_control is not None:
        if system is not None and not system.mini_matches:
            faults.append(problem("mini-matches (--mini-matches) go with a knock-out, and only with one"))
        if not tiebreak_time_control.strip():
            faults.append(problem("mini-matches need the tie-break game's time control, e.g. \"10 min + 5 s\""))
        if rounds is not None:
            faults.append(problem("a knock-out of mini-matches plays as many rounds as its matches need: leave "
                                  "out --rounds"))
    if start and end and end < start:
        faults.append(problem("the event ends ({end}) before it starts ({start})", end=end.isoformat(),
                              start=start.isoformat()))
    arbiters = list(arbiters)
    if any("," in a for a in [chief_arbiter, *arbiters]):
        faults.append(problem("an arbiter's name must not contain a comma"))
    refuse(faults, EventInputError)
    t = Tournament(name=name.strip(), city=city, start_date=start, end_date=end, time_control=time_control,
                   chief_arbiter=chief_arbiter, deputy_arbiters=arbiters, rounds_planned=rounds)
    t.extra["XQM"] = [fmt]
    t.extra["092"] = [system.trf_type]
    if boards is not None:
        t.extra["XQB"] = [str(boards)]
    if tiebreak_time_control is not None:
        mm.set_mini(t, tiebreak_time_control)
    if system.start is not None:  # the system's own settings (a Go event's points and criteria)
        system.start(t)
    return t


def finish(t: Tournament) -> None:
    """Declare the event finished (比赛结束): every board has its result; nothing changes until reopened."""
    faults = _open_to_change(t)
    paired = rounds_paired(t)
    if paired == 0:
        faults.append(problem("no round is paired yet: nothing to finish"))
    elif left := unfinished_boards(t, paired):
        faults.append(problem("round {round} has boards without a result: {boards}", round=paired,
                              boards=boards_text(left)))
    refuse(faults)
    t.extra["XQS"] = ["finished"]
    for e in t.entrants:
        e.excused = {}  # no round is left to be excused from


def reopen(t: Tournament) -> None:
    """Reopen a finished event (a correction after the last round)."""
    if not is_finished(t):
        raise EventError(problem("the event is not finished"))
    del t.extra["XQS"]


def _open_to_change(t: Tournament) -> list[Problem]:
    return [problem("the event is finished: reopen it first")] if is_finished(t) else []


def _entrant(t: Tournament, number: int) -> Entrant:
    if not 1 <= number <= len(t.entrants):
        raise EventError(problem("no player {number}: draw numbers run 1..{last}", number=number,
                                 last=len(t.entrants)))
    return t.entrants[number - 1]


def _no_player(t: Tournament, number: int) -> Problem | None:
    if 1 <= number <= len(t.entrants):
        return None
    return problem("no player {number}: draw numbers run 1..{last}", number=number, last=len(t.entrants))


# -- players --------------------------------------------------------------------------------

#: dan and kyu grades (段级位) a TRF title column may hold, strongest first
GRADES = DAN_GRADES
_SEXES = {"": "", "m": "m", "w": "w", "f": "w", "男": "m", "女": "w"}
_DATE = re.compile(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?|(\d{4})(\d{2})(\d{2})")


def birth_date(text: str) -> date | None:
    """A birth date as written (``1990/01/31``, ``1990-01-31``, ``19900131``, ``1990年1月31日``); None if unreadable."""
    m = _DATE.fullmatch(text.strip())
    if not m:
        return None
    y, mo, d = (m[1], m[2], m[3]) if m[1] else (m[4], m[5], m[6])
    try:
        return date(int(y), int(mo), int(d))
    except ValueError:
        return None


def trf_date(d: date) -> str:
    """A date as TRF-16 writes it: ``YYYY/MM/DD``."""
    return f"{d.year:04d}/{d.month:02d}/{d.day:02d}"


#: what a non-resident document's number must look like (``people.idnumber.validate_document``)
_DOCUMENT_SHAPE = {
    "passport": "passport number {value!r} looks wrong: a passport number is 5-20 letters and digits",
    "other": "document number {value!r} looks wrong: a document number is 3-32 letters, digits or '/'",
}


def entrant_problems(e: Entrant, *, today: date | None = None, go_grades: bool = False) -> list[Problem]:
    """Every field of a new entrant the event cannot hold (all at once), and normalises the
    spellings it accepts: ``3段`` -> ``3d``, ``女`` -> ``w``, a birth date -> ``YYYY/MM/DD``
    (TRF-16), the ID number (身份证号) checked like the registry's (GB 11643: length, region,
    birth date, check digit) and against the sex and birth date given."""
    faults: list[Problem] = []
    e.name = e.name.strip()
    if not e.name:
        faults.append(problem("the name is empty"))
    elif len(e.name) > 33:
        faults.append(problem("the name {name!r} is longer than 33 characters", name=e.name))
    sex = _SEXES.get(e.sex.strip().lower())
    if sex is None:
        faults.append(problem("sex must be m or w (男/女), found {sex!r}", sex=e.sex))
    else:
        e.sex = sex
    grade = parse_grade(e.title) if e.title.strip() else ""  # 初段, 三段, 一级, 3段, 3d … (people.grades)
    if go_grades and e.title.strip():  # --- go: a Go grade runs from 30k to 9d (and 1p–9p)
        value = go.grade_value(grade or e.title.strip())
        grade = go.grade_text(value) if value is not None else None
    if grade is None:
        faults.append(problem("title must be a grade 9d…1d or 1k…30k (段/级), or blank; found {title!r}",
                              title=e.title) if go_grades else
                      problem("title must be a grade 9d…1d or 1k…10k (段/级), or blank; found {title!r}",
                              title=e.title))
    else:
        e.title = grade
    if e.rating is not None and not 1 <= e.rating <= 9999:
        faults.append(problem("rating must be a whole number 1..9999, found {rating}", rating=e.rating))
    if len(e.player_id) > 11:
        faults.append(problem("player id {value!r} is longer than 11 characters", value=e.player_id))
    born = None
    if e.birth.strip():
        born = birth_date(e.birth)
        if born is None:
            faults.append(problem("birth date {value!r} is not a date: write it like 1990/01/31", value=e.birth))
        elif born.year < 1900 or (today is not None and born > today):
            faults.append(problem("birth date {value} is out of range (1900 to today)", value=born.isoformat()))
        else:
            e.birth = trf_date(born)
    if e.id_type not in ID_TYPES:
        faults.append(problem("the ID document is resident, passport or other, not {value!r}", value=e.id_type))
    elif e.id_number.strip():
        e.id_number = normalize_id_number(e.id_number)
        gender = {"m": "M", "w": "F"}.get(e.sex)
        if e.id_type == "resident":
            for q in resident_id_problems(e.id_number, birth_date=born, gender=gender, today=today):
                faults.append(problem("ID number: " + q.message, **(q.params or {})))  # one template, translatable
        elif validate_id(e.id_type, e.id_number, birth_date=born, gender=gender, today=today):
            faults.append(problem(_DOCUMENT_SHAPE[e.id_type], value=e.id_number))  # its shape only (decisions.md)
    e.nationality = e.nationality.strip().upper()
    if e.nationality and not is_country_code(e.nationality):
        faults.append(problem("nationality {value!r} is not a 3-letter country code (CHN, KOR, JPN …)",
                              value=e.nationality))
    for template, value in (("association {value!r} is longer than 60 characters", e.federation),
                            ("club {value!r} is longer than 60 characters", e.club),
                            ("family {value!r} is longer than 60 characters", e.family)):
        if len(value) > 60:
            faults.append(problem(template, value=value))
    return faults


def is_country_code(text: str) -> bool:
    """A nationality as the registry keeps it: 3 capital Latin letters (ISO 3166-1 alpha-3: CHN, KOR)."""
    return len(text) == 3 and text.isascii() and text.isalpha() and text.isupper()


def same_person(entrants: Iterable[Entrant], new: Entrant) -> Entrant | None:
    """The entrant ``new`` would enter a second time, if any: the same registry id, the same ID
    number, or the same name and association with nothing telling them apart (no registry id,
    ID number or birth date given on both sides that differs).  Two 王伟 of 北京 with different
    ID numbers or birth dates are two players."""
    for e in entrants:
        if new.player_id and e.player_id == new.player_id:
            return e
        if new.id_number and e.id_number == new.id_number:
            return e
        if e.name != new.name or e.federation != new.federation:
            continue
        if any(a and b and a != b for a, b in ((e.player_id, new.player_id), (e.id_number, new.id_number),
                                              (_born(e), _born(new)))):
            continue
        return e
    return None


def _born(e: Entrant) -> date | None:
    """The birth date given, or the one a resident ID number (身份证号) holds."""
    if e.birth.strip():
        return birth_date(e.birth)
    if e.id_type == "resident" and len(e.id_number) == 18:
        return birth_date(e.id_number[6:14])
    return None


def already_entered(old: Entrant, new: Entrant, **where: object) -> Problem:
    """Why ``new`` is ``old`` entered again (see :func:`same_person`)."""
    names = {"name": new.name, "association": new.federation or "no association", "number": old.number}
    if new.player_id and old.player_id == new.player_id:
        return problem("{name} (registry id {id}) is already entered as number {number}", id=new.player_id,
                       **names, **where)
    if new.id_number and old.id_number == new.id_number:
        return problem("{name}: the same ID number is already entered as number {number}", **names, **where)
    return problem("{name} ({association}) is already entered as number {number}; if they are two players, "
                   "give the ID number or birth date of each", **names, **where)


def _entry_faults(t: Tournament, coming: int = 1) -> list[Problem]:
    """Why the event takes no entry now (finished, fixed draw, last round paired, a full match)."""
    faults = _open_to_change(t)
    system, paired = system_of(t), rounds_paired(t)
    if system.fixed_field is not None and paired:
        faults.append(system.fixed_field)
    elif t.rounds_planned and paired >= t.rounds_planned:
        faults.append(problem("all {rounds} rounds are paired: a late entry would play none", rounds=paired))
    if system.max_players is not None and len(t.entrants) + coming > system.max_players:
        faults.append(problem("a match is between 2 players: both are entered"))
    return faults


def _enter(t: Tournament, entrant: Entrant) -> Entrant:
    paired = rounds_paired(t)
    entrant.number = len(t.entrants) + 1
    entrant.rounds = [RoundCell(None, "-", "Z") for _ in range(paired)]
    entrant.late_after = paired or None
    t.entrants.append(entrant)
    return entrant


def add_player(t: Tournament, entrant: Entrant, *, today: date | None = None) -> Entrant:
    """Enter a player.  A late entry (round 1 already paired) is absent (``Z``, 0 points) in
    the rounds already paired; refused once the last round is paired, and in the formats whose
    draw is fixed at round 1 (round robin, knock-out, match, team)."""
    bad_input = entrant_problems(entrant, today=today, go_grades=go.is_go(t))
    faults = _open_to_change(t) + bad_input
    if not bad_input and (same := same_person(t.entrants, entrant)) is not None:
        faults.append(already_entered(same, entrant))
    faults += _entry_faults(t)[len(_open_to_change(t)):]
    refuse(faults, EventInputError if bad_input else EventError)
    return _enter(t, entrant)


def add_players(t: Tournament, rows: list[tuple[int, Entrant]], *, today: date | None = None,
                file: str = "", faults: Iterable[Problem] = ()) -> list[Entrant]:
    """Enter a whole list (报名表) at once, each ``(row, entrant)``: every row checked like
    :func:`add_player` — its fields, a second entry of someone already entered or listed
    twice — and every problem named by its row, all at once; nothing is entered if any is
    refused (``faults``: the reader's own, reported with them).  Returns the entrants with
    their numbers, in the order of the list."""
    read_faults = list(faults)
    faults = read_faults + _entry_faults(t, len(rows))
    if not rows:
        faults.append(problem("the list has no player"))
    taken = list(t.entrants)
    bad_input = False
    for row, e in rows:
        own = entrant_problems(e, today=today, go_grades=go.is_go(t))
        bad_input = bad_input or bool(own)
        faults += [problem(p.message, file=file, line=row, **dict(p.params or {})) for p in own]
        if own:
            continue
        same = same_person(taken, e)
        if same is not None:
            listed = next((r for r, x in rows if x is same), None)
            if listed is not None:
                faults.append(problem("{name} is listed twice: rows {first} and {row}", file=file, line=row,
                                      name=e.name, first=listed, row=row))
            else:
                faults.append(already_entered(same, e, file=file, line=row))
        taken.append(e)
    refuse(faults, EventInputError if bad_input or read_faults else EventError)
    return [_enter(t, e) for _, e in rows]


#: what an arbiter may correct of an entrant (``edit_player``): all he entered but the draw number and the team
EDITABLE = ("name", "sex", "title", "rating", "federation", "club", "family", "player_id", "id_number", "id_type",
            "birth", "nationality")


def edit_player(t: Tournament, number: int, changes: dict[str, object], *, today: date | None = None) -> Entrant:
    """Correct an entrant's details (a misspelt name, a grade, a rating, an ID number, …) at any time
    before the event is finished: his draw number, games and results stay.  ``changes``: field -> new
    value (``EDITABLE``).  The entrant as changed is checked like a new one (:func:`entrant_problems`) and
    refused if he would then be someone else entered again (:func:`same_person`).  Returns him."""
    faults = _open_to_change(t)
    if (bad := _no_player(t, number)) is not None:
        refuse(faults + [bad])
    unknown = sorted(k for k in changes if k not in EDITABLE)
    if unknown:
        faults.append(problem("an entrant has no field {fields} to change", fields=", ".join(unknown)))
    if not changes:
        faults.append(problem("nothing to change: give what is to change"))
    refuse(faults)
    old = t.entrants[number - 1]
    new = replace(old, rounds=list(old.rounds), excused=dict(old.excused))
    for k, v in changes.items():
        setattr(new, k, v)
    bad_input = entrant_problems(new, today=today, go_grades=go.is_go(t))
    faults += bad_input
    others = [e for e in t.entrants if e.number != number]
    if not bad_input and (same := same_person(others, new)) is not None:
        faults.append(already_entered(same, new))
    refuse(faults, EventInputError if bad_input else EventError)
    for k in EDITABLE:
        setattr(old, k, getattr(new, k))
    return old


def remove_player(t: Tournament, number: int) -> dict[int, int]:
    """Take an entrant out of the event (删除报名) before round 1 is paired — afterwards he has a place in
    the rounds: withdraw him instead (:func:`withdraw`).  The players after him move up one number (their
    order kept), so the numbers still run 1..n; a draw already made is kept as that order (its record
    becomes ``given …``).  Returns the renumbering, old number -> new (him left out)."""
    faults = _open_to_change(t)
    if (bad := _no_player(t, number)) is not None:
        refuse(faults + [bad])
    if rounds_paired(t):
        faults.append(problem("round 1 is paired: player {number} can no longer be removed — withdraw him "
                              "instead (event withdraw)", number=number))
    refuse(faults)
    del t.entrants[number - 1]
    renumber = {n: n - (n > number) for n in range(1, len(t.entrants) + 2) if n != number}
    for i, e in enumerate(t.entrants, start=1):
        e.number = i
    if "XQD" in t.extra:  # the numbers drawn stay, one fewer: the lot's seed would not give them again
        t.extra["XQD"] = ["given " + " ".join(str(e.number) for e in t.entrants)]
    _renumber_teams(t, renumber)
    return renumber


def draw_numbers(t: Tournament, *, seed: int | None = None, order: list[int] | None = None) -> list[int]:
    """Fix the draw numbers (抽签) before round 1: by lot with ``seed`` (recorded in the file, so
    anyone can redo the lot), or in the ``order`` given (current numbers).  Returns the old
    numbers in their new order.  Teams keep their members (their numbers follow)."""
    faults = _open_to_change(t)
    if rounds_paired(t):
        faults.append(problem("draw numbers are fixed once round 1 is paired"))
    old = [e.number for e in t.entrants]
    if order is not None:
        if sorted(order) != sorted(old):
            missing = sorted(set(old) - set(order))
            extra = sorted(set(order) - set(old)) or sorted({n for n in order if order.count(n) > 1})
            faults.append(problem("the order must list every player once (missing {missing}, unknown or "
                                  "repeated {extra})", missing=missing, extra=extra))
    elif seed is None:
        faults.append(problem("give a seed for the lot, or the order"))
    refuse(faults)
    if order is not None:
        new_order = list(order)
        t.extra["XQD"] = ["given " + " ".join(map(str, order))]
    else:
        new_order = sorted(old)
        random.Random(seed).shuffle(new_order)
        t.extra["XQD"] = [f"lot seed {seed}"]
    by_old = {e.number: e for e in t.entrants}
    t.entrants = [by_old[n] for n in new_order]
    renumber = {n: i for i, n in enumerate(new_order, start=1)}
    for i, e in enumerate(t.entrants, start=1):
        e.number = i
    _renumber_teams(t, renumber)
    return new_order


def _renumber_teams(t: Tournament, renumber: dict[int, int]) -> None:
    renumber_members(t, renumber)


def excuse(t: Tournament, number: int, rounds: int | Iterable[int] | None, kind: str = "Z") -> list[int]:
    """Excuse a player (请假) from rounds not yet paired — the next one (``None``), any later one,
    or a range: absent, not a bye: ``Z`` 0 points, ``H`` a draw's, ``F`` a win's.  Returns the rounds."""
    if rounds is None:
        rounds = rounds_paired(t) + 1
    wanted = sorted(set([rounds] if isinstance(rounds, int) else rounds))
    faults = _open_to_change(t)
    if (bad := _no_player(t, number)) is not None:
        refuse(faults + [bad])
    e = t.entrants[number - 1]
    if kind not in ABSENCES:
        faults.append(problem("an absence is Z (0 points), H (half) or F (full), not {kind!r}", kind=kind))
    paired = rounds_paired(t)
    if not wanted:
        faults.append(problem("name the round(s) to excuse"))
    for rnd in wanted:
        if rnd <= paired:
            faults.append(problem("round {round} is already paired: undo it first (qiyuan event undo)", round=rnd))
        elif t.rounds_planned and rnd > t.rounds_planned:
            faults.append(problem("round {round} is past the last round ({last})", round=rnd,
                                  last=t.rounds_planned))
        elif e.withdrawn_after is not None and rnd > e.withdrawn_after:
            faults.append(problem("player {number} has withdrawn: he is not paired in round {round} anyway",
                                  number=number, round=rnd))
    refuse(faults)
    for rnd in wanted:
        e.excused[rnd] = kind
    _prefill_next(t)
    return wanted


def withdraw(t: Tournament, number: int, after: int | None = None) -> int:
    """Withdraw a player (退赛): not paired after round ``after`` (default: the rounds paired)."""
    faults = _open_to_change(t)
    if (bad := _no_player(t, number)) is not None:
        refuse(faults + [bad])
    e = t.entrants[number - 1]
    paired = rounds_paired(t)
    after = paired if after is None else after
    if e.withdrawn_after is not None:
        faults.append(problem("player {number} has already withdrawn after round {round}", number=number,
                              round=e.withdrawn_after))
    if not 0 <= after <= max(paired, t.rounds_planned or 0):
        faults.append(problem("round {round} is not a round of this event", round=after))
    elif after < paired and any(c.opponent is not None for c in e.rounds[after:]):
        faults.append(problem("player {number} has games after round {round}", number=number, round=after))
    refuse(faults)
    e.withdrawn_after = after
    e.excused = {r: k for r, k in e.excused.items() if r <= after}
    del e.rounds[max(after, paired):]  # a pre-filled excuse of a round he no longer plays goes
    return after


def reinstate(t: Tournament, number: int) -> int:
    """Undo a withdrawal: the player is paired again from the next round (his missed rounds
    stay ``Z``).  Returns that round."""
    faults = _open_to_change(t)
    if (bad := _no_player(t, number)) is not None:
        refuse(faults + [bad])
    e = t.entrants[number - 1]
    if e.withdrawn_after is None:
        faults.append(problem("player {number} has not withdrawn", number=number))
    refuse(faults)
    e.withdrawn_after = None
    paired = rounds_paired(t)
    del e.rounds[paired:]  # absences pre-filled for rounds not yet paired go
    excuse_fill(e, paired)
    _prefill_next(t)
    return paired + 1


def _prefill_next(t: Tournament) -> None:
    """The JaVaFo convention: a player excused from the round to be paired has that round's cell
    (``0000 - Z``/``H``/``F``) already, so other pairing programs leave him out too."""
    nxt = rounds_paired(t) + 1
    for e in t.entrants:
        if len(e.rounds) == nxt - 1 and nxt in e.excused:
            e.rounds.append(RoundCell(None, "-", e.excused.pop(nxt)))


# -- results --------------------------------------------------------------------------------

def parse_result(text: str) -> tuple[str, str]:
    """``(mine, theirs)`` TRF codes of a result written from one player's side (the syntax of
    :mod:`qiyuan.tournament.syntax`): ``1-0``, ``0-1``, ``½-½`` (``=-=``, ``1/2-1/2``, Gomoku
    ``2-0``/``1-1``), forfeits ``+-``, ``-+``, ``--`` (both lose); blank clears a result (``" "``)."""
    codes = syntax.result_codes(text)
    if codes is None:
        raise EventInputError(syntax.unknown_result(text))
    return codes


class Entered(NamedTuple):
    """One board's result as entered: ``(first player, other, code of the first)`` and the code it had."""

    number: int
    opponent: int
    result: str  # TRF code from ``number``'s side; " " = cleared
    before: str = " "  # the code from ``number``'s side before: " " none
    before_other: str = " "  # the other side's code before
    other: str = " "  # the other side's code now

    @property
    def changed(self) -> bool:
        """Did the board read otherwise before (a result replaced or cleared)?"""
        return self.before != " " and self.before != self.result

    @property
    def unchanged(self) -> bool:
        """Was the board already so (the same result again, or a clear of an empty board)?"""
        return self.before == self.result


class Overrides(NamedTuple):
    """What overrides a results refusal, in the words of the door the arbiter uses (each a clause of the
    refusal, translated with it): the command line names its options (``--change``, ``--force``), the desk its
    own controls."""

    change: Problem  # a result typed over another, or cleared: how to confirm it
    force: Problem  # a result later rounds were paired on: how to change it anyway
    clear: Problem  # undoing a round with results: how to clear them first


#: the command line's overrides: its options
CLI_OVERRIDES = Overrides(
    change=problem("confirm the change (--change)"),
    force=problem("use --force to change it anyway (later pairings are not redone)"),
    clear=problem("clear them first (qiyuan event result … \"N \" --change)"))


def enter_results(t: Tournament, rnd: int, items: Iterable[tuple[int, str]], *, force: bool = False,
                  change: bool = False, overrides: Overrides = CLI_OVERRIDES) -> list[Entered]:
    """Enter (or clear) results of round ``rnd``, each ``(player, result from his side)``; all are
    checked first and nothing changes if any is refused.

    Refused: an unknown result; a player without a game in the round; two results for one
    board that disagree; a draw (or a double forfeit) in a knock-out — the match needs a
    winner, the play-off's (加赛) winner is entered as a win; changing a result once a later
    round is paired — that round was paired on the old scores — unless ``force`` (never in a
    knock-out, whose later rounds follow from the winners: undo them first); typing a result
    over a different one, or clearing one, unless ``change`` confirms it (``force`` does too): a
    second arbiter never overwrites or wipes a board silently.  Each refusal names what overrides it at the
    caller's door (``overrides``: the command line's ``--change``, ``--force`` by default)."""
    faults = _open_to_change(t)
    items = list(items)
    if not items:
        faults.append(problem("no result given"))
    paired = rounds_paired(t)
    knockout = system_of(t).bracket  # later rounds follow from the winners
    chosen: dict[tuple[int, int], tuple[str, str, int]] = {}  # board (low, high) -> codes (low's, high's), item
    for k, (number, text) in enumerate(items, start=1):
        if (bad := _no_player(t, number)) is not None:
            faults.append(bad)
            continue
        try:
            mine, theirs = parse_result(text)
        except EventInputError as exc:
            faults += exc.problems
            continue
        if mine == theirs and mine in BOTH_RESULTS and not go.is_go(t):
            faults.append(problem("player {number}: {result!r} (both win or both lose) is an arbiter's decision of "
                                  "a Go event; this event is not one", number=number, result=text.strip()))
            continue
        e = t.entrants[number - 1]
        if len(e.rounds) < rnd or e.rounds[rnd - 1].opponent is None:
            faults.append(problem("player {number} has no game in round {round}", number=number, round=rnd))
            continue
        c = e.rounds[rnd - 1]
        other = c.opponent
        if knockout and mine in ("=", "-") and theirs in ("=", "-") and _decides(t, rnd):
            faults.append(problem("a knock-out match needs a winner: {result!r} decides nothing; enter the "
                                  "winner of the play-off (加赛) as a win, 1-0 or 0-1", result=text.strip()))
            continue
        board = (min(number, other), max(number, other))
        codes = (mine, theirs) if number < other else (theirs, mine)
        if board in chosen and chosen[board][:2] != codes:
            faults.append(problem("round {round}: board {a}-{b} is given two different results in one command",
                                  round=rnd, a=board[0], b=board[1]))
            continue
        chosen[board] = (*codes, k)
        if c.result != " " and mine != c.result and not (change or force) and rnd >= paired:
            old = syntax.result_text(c.result, t.entrants[other - 1].rounds[rnd - 1].result)
            if mine == " ":
                faults.append(problem("round {round}: board {a}-{b} reads {old} (from {number}'s side); to clear "
                                      "it, {how}", round=rnd, a=board[0], b=board[1], number=number, old=old,
                                      how=overrides.change, code="result.change"))
            else:
                faults.append(problem("round {round}: board {a}-{b} already reads {old} (from {number}'s side); "
                                      "to change it to {new}, {how}", round=rnd, a=board[0], b=board[1],
                                      number=number, old=old, new=syntax.result_text(mine, theirs),
                                      how=overrides.change, code="result.change"))
            continue
        if c.result != " " and mine != c.result and rnd < paired:
            if knockout:
                faults.append(problem("round {round} of a knock-out cannot change once round {next} is paired: "
                                      "the bracket follows from its winners (undo rounds {next}-{last} first)",
                                      round=rnd, next=rnd + 1, last=paired))
            elif not force:
                faults.append(problem("round {round}: {a}-{b} already has a result and rounds {next}-{last} were "
                                      "paired on the old scores; {how}", round=rnd, a=number, b=other,
                                      next=rnd + 1, last=paired, how=overrides.force, code="result.force"))
    refuse(faults)
    done = []
    for (a, b), (code_a, code_b, _k) in chosen.items():
        before = t.entrants[a - 1].rounds[rnd - 1].result, t.entrants[b - 1].rounds[rnd - 1].result
        t.entrants[a - 1].rounds[rnd - 1].result = code_a
        t.entrants[b - 1].rounds[rnd - 1].result = code_b
        done.append(Entered(a, b, code_a, *before, code_b))
    return done


def _decides(t: Tournament, rnd: int) -> bool:
    """Must round ``rnd`` of a knock-out have a winner on every board?  Each game of single games; of
    mini-matches only the tie-break game (the two games before it may be drawn)."""
    if not mm.is_mini(t):
        return True
    slot = mm.slot_of(t, rnd)
    return slot is not None and slot.game == mm.TIEBREAK


def draw_tiebreak_lot(t: Tournament, *, seed: int | None = None, openers: list[int] | None = None) -> mm.Lot:
    """Draw the openers of the coming tie-break round of a knock-out of mini-matches by lot (抽签): by qiyuan with
    ``seed``, or as drawn in the hall (``openers``, one per tied match in bracket order); kept in the file
    (``XQ8``) and used when the round is paired.  Refused unless the next round is a tie-break round."""
    faults = _open_to_change(t)
    if not system_of(t).mini_matches or not mm.is_mini(t):
        faults.append(problem("only a knock-out of mini-matches has tie-break games to draw"))
    if (seed is None) == (openers is None):
        faults.append(problem("give the lot's seed (--seed N) or the openers as drawn in the hall (--openers A,B)"))
    refuse(faults)
    rnd, pairs = pending_tiebreak(t)
    if rnd > 1 and (left := unfinished_boards(t, rnd - 1)):
        refuse([problem("round {round} has boards without a result: {boards}", round=rnd - 1,
                        boards=boards_text(left))])
    if not pairs:
        refuse([problem("no match is tied after its two games: the next round is not a tie-break game")])
    if rounds_paired(t) >= rnd:
        refuse([problem("round {round} is paired already: undo it to draw its lot again", round=rnd)])
    lot = mm.Lot(rnd, seed=seed, openers=tuple(openers or ()))
    mm.tiebreak_openers(lot, pairs)  # the hall's openers checked: one per tied match, each a player of it
    mm.record_lot(t, lot)
    return lot


def enter_result(t: Tournament, rnd: int, number: int, result: str, *, force: bool = False,
                 change: bool = False) -> tuple[int, int]:
    """One board's result as seen by player ``number`` (see :func:`enter_results`). Returns the board."""
    e = enter_results(t, rnd, [(number, result)], force=force, change=change)[0]
    return (number, e.opponent if e.number == number else e.number)


# -- pairings -------------------------------------------------------------------------------


def clear_round(t: Tournament, rnd: int, overrides: Overrides = CLI_OVERRIDES) -> None:
    """Undo round ``rnd`` (the last one paired, no result entered): its games and the
    pairing bye go; absences entered beforehand stay.  A round with results is refused, naming how the
    caller's door clears them (``overrides.clear``)."""
    faults = _open_to_change(t)
    paired = rounds_paired(t)
    if rnd != paired:
        faults.append(problem("only the last round paired ({last}) can be undone", last=paired))
    else:
        done = [(e.number, e.rounds[rnd - 1].opponent) for e in t.entrants
                if len(e.rounds) >= rnd and e.rounds[rnd - 1].opponent is not None
                and e.rounds[rnd - 1].result != " " and e.number < e.rounds[rnd - 1].opponent]
        if done:
            faults.append(problem("round {round} already has results ({boards}): {how}", round=rnd,
                                  boards=boards_text(done), how=overrides.clear))
    refuse(faults)
    for e in t.entrants:
        if len(e.rounds) >= rnd:
            c = e.rounds[rnd - 1]
            if c.opponent is not None or c.result == "U":
                del e.rounds[rnd - 1:]
        if e.withdrawn_after is not None and len(e.rounds) > e.withdrawn_after:
            del e.rounds[max(e.withdrawn_after, rnd - 1):]
    for e in t.entrants:  # rounds beyond the one now to be paired: their excuses go back to waiting
        while len(e.rounds) > rnd:
            c = e.rounds.pop()
            if c.opponent is None and c.result in ABSENCES and (e.withdrawn_after is None or
                                                                 len(e.rounds) < e.withdrawn_after):
                e.excused[len(e.rounds) + 1] = c.result
    mm.forget_round(t, rnd)  # a knock-out's mini-match game record of the round (its lot stays drawn)
    record_hand_made(t, rnd, False)


def check_pairing(t: Tournament, rnd: int, boards: list[tuple[int, int]], bye: int | None) -> list[Problem]:
    """Every hard rule (法则一) a hand-made pairing of round ``rnd`` breaks: everybody
    present paired once, nobody absent paired, no repeat meeting, no second bye.  Each fault
    names the board it is on (``board 6 (11-1)``); the players left out are one line, so a
    single wrong board reads as one or two lines, not one per player."""
    faults: list[Problem] = []
    present = {e.number for e in t.entrants if is_active(e, rnd)}
    first_at: dict[int, int] = {}  # player -> the board (1-based) he is first on; 0 the bye
    for k, (a, b) in enumerate(boards, 1):
        where = {"board": k, "a": a, "b": b}
        if a == b:
            faults.append(problem("board {board} ({a}-{b}): player {a} cannot play himself", **where))
            first_at.setdefault(a, k)
            continue
        for p in (a, b):
            if not 1 <= p <= len(t.entrants):
                faults.append(problem("board {board} ({a}-{b}): no player {number}: draw numbers run 1..{last}",
                                      number=p, last=len(t.entrants), **where))
            elif p in first_at:
                at = first_at[p]
                if at == 0:
                    faults.append(problem("board {board} ({a}-{b}): player {number} has the bye", number=p, **where))
                else:
                    x, y = boards[at - 1]
                    faults.append(problem("board {board} ({a}-{b}): player {number} is already on board {at} "
                                          "({x}-{y})", number=p, at=at, x=x, y=y, **where))
            elif p not in present:
                faults.append(problem("board {board} ({a}-{b}): player {number} is withdrawn or absent in round "
                                      "{round}", number=p, round=rnd, **where))
            else:
                first_at[p] = k
        if 1 <= a <= len(t.entrants) and any(c.opponent == b for c in t.entrants[a - 1].rounds[: rnd - 1]):
            met = next(i for i, c in enumerate(t.entrants[a - 1].rounds, 1) if c.opponent == b)
            faults.append(problem("board {board} ({a}-{b}): {a} and {b} already met in round {round}", round=met,
                                  **where))
    if bye is not None:
        if not 1 <= bye <= len(t.entrants):
            faults.append(problem("the bye: no player {number}: draw numbers run 1..{last}", number=bye,
                                  last=len(t.entrants)))
        elif bye in first_at:
            faults.append(problem("the bye: player {number} is already on board {board}", number=bye,
                                  board=first_at[bye]))
        elif bye not in present:
            faults.append(problem("the bye: player {number} is withdrawn or absent in round {round}", number=bye,
                                  round=rnd))
        else:
            had = [i for i, c in enumerate(t.entrants[bye - 1].rounds[: rnd - 1], 1) if c.result == "U"]
            if had:
                faults.append(problem("player {number} already had the bye in round {round}", number=bye,
                                      round=had[0]))
            first_at[bye] = 0
    left = sorted(present - set(first_at))
    if left:
        faults.append(problem("not paired: {players}", players=", ".join(map(str, left))))
    if len(present) % 2 == 1 and bye is None:
        faults.append(problem("an odd number of players needs a bye"))
    if len(present) % 2 == 0 and bye is not None:
        faults.append(problem("an even number of players has no bye"))
    return faults


def set_round(t: Tournament, rnd: int, boards: list[tuple[int, int]], bye: int | Iterable[int] | None) -> None:
    """Write the pairing of round ``rnd``: each board (opener, other), the bye ``U``
    (a knock-out may have several); players not listed keep their absence (or get ``Z``)."""
    for e in t.entrants:
        excuse_fill(e, rnd - 1)
    cells: dict[int, RoundCell] = {}
    for a, b in boards:
        cells[a] = RoundCell(b, "b", " ")
        cells[b] = RoundCell(a, "w", " ")
    for b in [] if bye is None else [bye] if isinstance(bye, int) else bye:
        cells[b] = RoundCell(None, "-", "U")
    for e in t.entrants:
        cell = cells.get(e.number)
        if cell is None:
            if len(e.rounds) >= rnd:
                continue  # a pre-filled absence stays
            cell = RoundCell(None, "-", e.excused.pop(rnd, "Z"))
        if len(e.rounds) >= rnd:
            e.rounds[rnd - 1] = cell
        else:
            e.rounds.append(cell)
    _prefill_next(t)
    system = system_of(t)
    if system.after_set is not None:  # a Go event's stones of each board (XQH), by the engine or by hand
        system.after_set(t, rnd)


def set_pairing(t: Tournament, rnd: int, boards: list[tuple[int, int]], bye: int | None) -> None:
    """Pair round ``rnd`` by hand (人工编排): the next round, or the last one paired while it has
    no result (it is replaced).  Refused (every fault at once) when it breaks a hard rule; a
    knock-out's pairings come from its bracket."""
    faults = _open_to_change(t)
    if not system_of(t).by_hand:
        faults.append(_NOT_BY_HAND)
    paired = rounds_paired(t)
    if rnd not in (paired, paired + 1) or rnd < 1:
        faults.append(problem("round {round} cannot be set: {paired} rounds are paired", round=rnd, paired=paired))
    elif t.rounds_planned and rnd > t.rounds_planned:
        faults.append(problem("all {rounds} rounds are paired (XXR {rounds})", rounds=t.rounds_planned))
    refuse(faults)
    if rnd == paired:
        clear_round(t, rnd)
    for e in t.entrants:
        if not is_active(e, rnd):
            excuse_fill(e, rnd)
    refuse(check_pairing(t, rnd, boards, bye))
    set_round(t, rnd, boards, bye)
    record_hand_made(t, rnd)


#: a round of a system not paired by hand (a knock-out's come from its bracket)
_NOT_BY_HAND = problem("a knock-out's pairings come from its bracket (seeded by rating): use event pair")


def swap_players(t: Tournament, rnd: int, a: int, b: int) -> tuple[list[tuple[int, int]], int | None]:
    """Override one board of the last round paired (调整对阵): players ``a`` and ``b`` change places
    (each takes the other's opponent, or the bye); two players of one board change who opens.
    The boards touched must have no result; the round is checked against the hard rules.
    Returns the round's new boards and bye."""
    faults = _open_to_change(t)
    paired = rounds_paired(t)
    for n in (a, b):
        if (bad := _no_player(t, n)) is not None:
            faults.append(bad)
    if rnd != paired:
        faults.append(problem("only the last round paired ({last}) can be overridden", last=paired))
    if a == b:
        faults.append(problem("name two different players"))
    refuse(faults)
    if not system_of(t).by_hand:
        refuse([_NOT_BY_HAND])
    boards, bye = round_boards(t, rnd)
    old_bye = bye
    place: dict[int, tuple[int, int]] = {}
    for i, (x, y) in enumerate(boards):
        place[x], place[y] = (i, 0), (i, 1)
    for n in (a, b):
        if n not in place and n != bye:
            faults.append(problem("player {number} is not paired in round {round}", number=n, round=rnd))
        elif n in place and t.entrants[n - 1].rounds[rnd - 1].result != " ":
            x, y = boards[place[n][0]]
            faults.append(problem("board {a}-{b} already has a result: clear it first", a=x, b=y))
    refuse(faults)
    new = [list(p) for p in boards]
    if a in place and b in place and place[a][0] == place[b][0]:
        i = place[a][0]
        new[i] = [new[i][1], new[i][0]]
    else:
        for n, m in ((a, b), (b, a)):
            if n in place:
                i, j = place[n]
                new[i][j] = m
        if bye in (a, b):
            bye = b if bye == a else a
    new_boards = [(x, y) for x, y in new]
    by_hand = rnd in hand_made_rounds(t)
    clear_round(t, rnd)
    for e in t.entrants:
        if not is_active(e, rnd):
            excuse_fill(e, rnd)
    try:
        refuse(check_pairing(t, rnd, new_boards, bye))
    except EventError:
        set_round(t, rnd, boards, old_bye)  # as it was
        record_hand_made(t, rnd, by_hand)
        raise
    set_round(t, rnd, new_boards, bye)
    record_hand_made(t, rnd)
    return new_boards, bye


def set_round_date(t: Tournament, rnd: int, on: date) -> None:
    """Record the day round ``rnd`` is played (TRF-16 line 132: ``YY/MM/DD`` per round)."""
    dates = list(t.round_dates) + [""] * max(0, rnd - len(t.round_dates))
    dates[rnd - 1] = f"{on.year % 100:02d}/{on.month:02d}/{on.day:02d}"
    t.round_dates = dates


def pair_next(t: Tournament, *, explain: bool = False) -> RoundPairing:
    """Pair the next round (编排下一轮) with :func:`next_pairing` and write it into ``t``."""
    pairing = next_pairing(t, explain=explain)
    set_round(t, pairing.number, pairing.boards, pairing.byes)
    system = system_of(t)
    if system.after_pairing is not None:  # e.g. which game of which mini-match round it is
        system.after_pairing(t)
    return pairing
