"""The chief arbiter's event file (赛事文件): operations over a ``Tournament``.

Pure functions used by the ``qiyuan event`` commands: scoring of round cells
(积分), consistency of the pairings recorded (对阵), draw numbers (抽签),
entering results, withdrawals and absences, hand-made pairings checked against
the hard rules (法则一), undoing an unplayed round.  No I/O: the CLI reads and
writes the TRF file around them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import NamedTuple

from qiyuan.tournament.model import FORFEIT_RESULTS, Entrant, PointSystem, RoundCell, Tournament
from qiyuan.tournament.state import points_table

#: result seen from the other side of the board
COMPLEMENT = {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+", " ": " "}
OPPOSITE = {"b": "w", "w": "b", "-": "-"}


#: result code -> points, one table per point system (TRF codes; " " not yet played)
_points_by_code = lru_cache(maxsize=16)(points_table)


def cell_points(cell: RoundCell, points: PointSystem) -> Decimal:
    """Points one round cell is worth under a point system (积分)."""
    return _points_by_code(points).get(cell.result, Decimal(0))


def score(entrant: Entrant, points: PointSystem, upto: int | None = None) -> Decimal:
    """Total points (积分) of an entrant over his first ``upto`` rounds (all when None)."""
    table = _points_by_code(points)
    cells = entrant.rounds if upto is None else entrant.rounds[:upto]
    return sum([table[c.result] for c in cells], Decimal(0))


def cross_check(
    entrants: dict[int, Entrant], n_players: int, unknown_ok: Iterable[int] = ()
) -> Iterator[tuple[int, int, str, str]]:
    """Every round cell whose other side does not agree.

    Yields ``(number, round_index, field, message)`` with field ``"opponent"``,
    ``"colour"`` or ``"result"``.  Opponents in ``unknown_ok`` that are missing
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
                    yield number, i, "opponent", f"round {rnd}: opponent {c.opponent} is out of range (1..{n_players})"
                continue
            if b is a:
                yield number, i, "opponent", f"round {rnd}: player {number} is paired with himself"
                continue
            d = b.rounds[i] if i < len(b.rounds) else None
            if d is None or d.opponent != number:
                said = "nobody" if d is None or d.opponent is None else f"player {d.opponent}"
                yield (number, i, "opponent",
                       f"round {rnd}: player {number} is paired with {b.number}, "
                       f"but player {b.number}'s round {rnd} names {said}")
                continue
            if number > b.number:
                continue  # each pair once
            if not (d.result == COMPLEMENT[c.result] or c.result == d.result == "-"):
                yield (number, i, "result",
                       f"round {rnd}: results {number} {c.result!r} and {b.number} {d.result!r} do not agree")
            if d.colour != OPPOSITE[c.colour] and not (c.result in FORFEIT_RESULTS and "-" in (c.colour, d.colour)):
                yield (number, i, "colour",
                       f"round {rnd}: colours {number} {c.colour!r} and {b.number} {d.colour!r} must be b against w")


class EventError(ValueError):
    """An event-file operation the rules or the file's state forbid; the message says why."""


#: event formats (赛制) an event file may hold (``XQM`` line)
FORMATS = ("swiss", "round_robin", "double_round_robin", "knockout", "match", "team")
_EMPTY_ABSENCE = ("Z", "H", "F")


def event_format(t: Tournament) -> str:
    """The format recorded in the file (``XQM``); files from elsewhere are Swiss."""
    return (t.extra.get("XQM") or ["swiss"])[0].strip()


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
) -> Tournament:
    """Start an event file (Gomoku points 2/1/0, bye 2); a team event needs its ``boards``
    per team, a match its number of games (``rounds``)."""
    if fmt not in FORMATS:
        raise EventError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    if (fmt == "team") != (boards is not None):
        raise EventError("--boards (boards per team) goes with a team event, and only with one")
    if boards is not None and not 1 <= boards <= 99:
        raise EventError(f"boards per team must be 1..99, found {boards}")
    if fmt == "match" and not rounds:
        raise EventError("a match needs its number of games (--rounds)")
    if start and end and end < start:
        raise EventError(f"the event ends ({end}) before it starts ({start})")
    t = Tournament(name=name, city=city, start_date=start, end_date=end, time_control=time_control,
                   chief_arbiter=chief_arbiter, deputy_arbiters=list(arbiters), rounds_planned=rounds)
    t.extra["XQM"] = [fmt]
    t.extra["092"] = [{"swiss": "Individual: Swiss-System (Gomoku)", "knockout": "Individual: Knock-out",
                       "match": "Individual: Match", "team": "Team: Round-Robin"}.get(
        fmt, "Individual: Round-Robin")]
    if boards is not None:
        t.extra["XQB"] = [str(boards)]
    return t


def rounds_paired(t: Tournament) -> int:
    """Rounds already paired: the last round holding a game or a pairing bye."""
    last = 0
    for e in t.entrants:
        for i in range(len(e.rounds), last, -1):
            c = e.rounds[i - 1]
            if c.opponent is not None or c.result == "U":
                last = i
                break
    return last


def unfinished_boards(t: Tournament, rnd: int) -> list[tuple[int, int]]:
    """Boards of round ``rnd`` without a result yet."""
    out = []
    for e in t.entrants:
        if len(e.rounds) >= rnd:
            c = e.rounds[rnd - 1]
            if c.opponent is not None and c.result == " " and e.number < c.opponent:
                out.append((e.number, c.opponent))
    return out


def is_active(e: Entrant, rnd: int) -> bool:
    """Is the entrant to be paired in round ``rnd`` (not withdrawn, not excused)?"""
    if e.withdrawn_after is not None and rnd > e.withdrawn_after:
        return False
    return not (len(e.rounds) >= rnd and e.rounds[rnd - 1].opponent is None
                and e.rounds[rnd - 1].result in _EMPTY_ABSENCE)


#: dan and kyu grades (段级位) a TRF title column may hold, strongest first
GRADES = tuple(f"{n}d" for n in range(9, 0, -1)) + tuple(f"{n}k" for n in range(1, 11))
_GRADE_SPELLINGS = {**{g: g for g in GRADES}, **{f"{n}段": f"{n}d" for n in range(1, 10)},
                    **{f"{n}级": f"{n}k" for n in range(1, 11)}}
_SEXES = {"": "", "m": "m", "w": "w", "f": "w", "男": "m", "女": "w"}


def entrant_problems(e: Entrant) -> list[str]:
    """Every field of a new entrant the event file cannot hold (all at once); normalises
    the spellings it accepts (``3段`` -> ``3d``, ``女`` -> ``w``)."""
    problems = []
    if not e.name.strip():
        problems.append("the name is empty")
    elif len(e.name) > 33:
        problems.append(f"the name {e.name!r} is longer than 33 characters")
    sex = _SEXES.get(e.sex.strip().lower())
    if sex is None:
        problems.append(f"sex must be m or w (男/女), found {e.sex!r}")
    else:
        e.sex = sex
    grade = _GRADE_SPELLINGS.get(e.title.strip().lower()) if e.title.strip() else ""
    if grade is None:
        problems.append(f"title must be a grade 9d…1d or 1k…10k (段/级), or blank; found {e.title!r}")
    else:
        e.title = grade
    if e.rating is not None and not 1 <= e.rating <= 9999:
        problems.append(f"rating must be a whole number 1..9999, found {e.rating}")
    for what, value, width in (("player id", e.player_id, 11), ("birth date", e.birth, 10)):
        if len(value) > width:
            problems.append(f"{what} {value!r} is longer than {width} characters")
    if any(ch.isspace() for ch in e.id_number.strip()):
        problems.append(f"ID number {e.id_number!r} must not contain spaces")
    return problems


def add_player(t: Tournament, entrant: Entrant) -> Entrant:
    """Enter a player (late entries too: the rounds already paired are ``Z``, absent, 0 points).
    Refuses (every fault at once) a field the file cannot hold."""
    if problems := entrant_problems(entrant):
        raise EventError("; ".join(problems))
    if any(e.name == entrant.name and e.federation == entrant.federation for e in t.entrants):
        raise EventError(f"{entrant.name} ({entrant.federation or 'no association'}) is already entered")
    if event_format(t) != "swiss" and rounds_paired(t):
        what = {"knockout": "a knock-out bracket", "match": "a match", "team": "a team event's line-up"}.get(
            event_format(t), "a round robin's Berger table")
        raise EventError(f"{what} is fixed once round 1 is paired: no late entries")
    if event_format(t) == "match" and len(t.entrants) >= 2:
        raise EventError("a match is between 2 players: both are entered")
    entrant.number = len(t.entrants) + 1
    entrant.rounds = [RoundCell(None, "-", "Z") for _ in range(rounds_paired(t))]
    t.entrants.append(entrant)
    return entrant


def draw_numbers(t: Tournament, *, seed: int | None = None, order: list[int] | None = None) -> list[int]:
    """Fix the draw numbers (抽签) before round 1: by lot with ``seed`` (recorded in
    the file, so anyone can redo the lot), or in the ``order`` given (current numbers).
    Returns the old numbers in their new order."""
    import random

    if rounds_paired(t):
        raise EventError("draw numbers are fixed once round 1 is paired")
    old = [e.number for e in t.entrants]
    if order is not None:
        if sorted(order) != sorted(old):
            missing = sorted(set(old) - set(order))
            extra = sorted(set(order) - set(old))
            raise EventError(f"the order must list every player once (missing {missing}, unknown or repeated {extra})")
        new_order = list(order)
        t.extra["XQD"] = ["given " + " ".join(map(str, order))]
    else:
        if seed is None:
            raise EventError("give a seed for the lot, or the order")
        new_order = sorted(old)
        random.Random(seed).shuffle(new_order)
        t.extra["XQD"] = [f"lot seed {seed}"]
    by_old = {e.number: e for e in t.entrants}
    t.entrants = [by_old[n] for n in new_order]
    for i, e in enumerate(t.entrants, start=1):
        e.number = i
    return new_order


def excuse(t: Tournament, number: int, rnd: int, kind: str = "Z") -> None:
    """Mark a player absent for a round not yet paired: ``Z`` 0 points, ``H`` a draw's, ``F`` a win's."""
    e = _entrant(t, number)
    if kind not in _EMPTY_ABSENCE:
        raise EventError(f"an absence is Z (0 points), H (half) or F (full), not {kind!r}")
    if rnd <= rounds_paired(t):
        raise EventError(f"round {rnd} is already paired: undo it first (qiyuan event undo)")
    if rnd != rounds_paired(t) + 1:
        raise EventError(f"only the next round ({rounds_paired(t) + 1}) can be excused")
    while len(e.rounds) < rnd - 1:
        e.rounds.append(RoundCell(None, "-", "Z"))
    cell = RoundCell(None, "-", kind)
    if len(e.rounds) >= rnd:
        e.rounds[rnd - 1] = cell
    else:
        e.rounds.append(cell)


def withdraw(t: Tournament, number: int, after: int | None = None) -> int:
    """Withdraw a player (退赛): not paired after round ``after`` (default: the rounds paired)."""
    e = _entrant(t, number)
    after = rounds_paired(t) if after is None else after
    if after < rounds_paired(t) and any(c.opponent is not None for c in e.rounds[after:]):
        raise EventError(f"player {number} has games after round {after}")
    e.withdrawn_after = after
    return after


def reinstate(t: Tournament, number: int) -> None:
    """Undo a withdrawal: the player is paired again from the next round (his missed rounds stay ``Z``)."""
    e = _entrant(t, number)
    if e.withdrawn_after is None:
        raise EventError(f"player {number} has not withdrawn")
    e.withdrawn_after = None
    paired = rounds_paired(t)
    del e.rounds[paired:]  # absences pre-filled for rounds not yet paired go
    excuse_fill(e, paired)


def _entrant(t: Tournament, number: int) -> Entrant:
    if not 1 <= number <= len(t.entrants):
        raise EventError(f"no player {number}: draw numbers run 1..{len(t.entrants)}")
    return t.entrants[number - 1]


_RESULTS = {
    "1-0": ("1", "0"), "0-1": ("0", "1"), "½-½": ("=", "="), "=-=": ("=", "="), "1/2-1/2": ("=", "="),
    "0.5-0.5": ("=", "="), "+-": ("+", "-"), "-+": ("-", "+"), "--": ("-", "-"), "+--": ("+", "-"),
    "--+": ("-", "+"), "2-0": ("1", "0"), "0-2": ("0", "1"), "1-1": ("=", "="), " ": (" ", " "),
}


def enter_result(t: Tournament, rnd: int, number: int, result: str, *, force: bool = False) -> tuple[int, int]:
    """Enter one board's result as seen by player ``number``: ``1-0``, ``0-1``, ``½-½``
    (or ``=-=``), forfeits ``+-``, ``-+``, ``--`` (both lose); blank clears it. Returns the board.

    Refused: a draw (or a double forfeit) in a knock-out — the match needs a winner, the
    play-off's (加赛) winner is entered as a win; changing a result once a later round is
    paired — that round was paired on the old scores — unless ``force`` (never in a
    knock-out, whose later rounds follow from the winners: undo them first)."""
    e = _entrant(t, number)
    key = result.strip().replace(" ", "") or " "  # blank clears the result
    if key not in _RESULTS:
        raise EventError(f"unknown result {result!r}: write 1-0, 0-1, ½-½ (=-=), +-, -+ or --")
    if len(e.rounds) < rnd or e.rounds[rnd - 1].opponent is None:
        raise EventError(f"player {number} has no game in round {rnd}")
    c = e.rounds[rnd - 1]
    d = t.entrants[c.opponent - 1].rounds[rnd - 1]
    mine, theirs = _RESULTS[key]
    knockout = event_format(t) == "knockout"
    if knockout and mine in ("=", "-") and theirs in ("=", "-"):
        raise EventError(f"a knock-out match needs a winner: {result.strip()!r} decides nothing; "
                         "enter the winner of the play-off (加赛) as a win, 1-0 or 0-1")
    paired = rounds_paired(t)
    if c.result != " " and mine != c.result and rnd < paired:
        if knockout:
            raise EventError(f"round {rnd} of a knock-out cannot change once round {rnd + 1} is paired: "
                             f"the bracket follows from its winners (undo rounds {rnd + 1}-{paired} first)")
        if not force:
            raise EventError(f"round {rnd}: {number}-{c.opponent} already has a result and rounds "
                             f"{rnd + 1}-{paired} were paired on the old scores; use --force to change it "
                             "anyway (later pairings are not redone)")
    c.result, d.result = mine, theirs
    return number, c.opponent


def clear_round(t: Tournament, rnd: int) -> None:
    """Undo round ``rnd`` (the last one paired, no result entered): its games and the
    pairing bye go; absences entered beforehand stay."""
    if rnd != rounds_paired(t):
        raise EventError(f"only the last round paired ({rounds_paired(t)}) can be undone")
    done = [(e.number, e.rounds[rnd - 1].opponent) for e in t.entrants
            if len(e.rounds) >= rnd and e.rounds[rnd - 1].opponent is not None
            and e.rounds[rnd - 1].result != " " and e.number < e.rounds[rnd - 1].opponent]
    if done:
        raise EventError(f"round {rnd} already has results ({', '.join(f'{a}-{b}' for a, b in done)}): "
                         "clear them with result ' ' first")
    for e in t.entrants:
        if len(e.rounds) >= rnd:
            c = e.rounds[rnd - 1]
            if c.opponent is not None or c.result == "U":
                del e.rounds[rnd - 1:]
        if e.withdrawn_after is not None and len(e.rounds) > e.withdrawn_after:
            del e.rounds[max(e.withdrawn_after, rnd - 1):]


def check_pairing(t: Tournament, rnd: int, boards: list[tuple[int, int]], bye: int | None) -> list[str]:
    """Every hard rule (法则一) a hand-made pairing of round ``rnd`` breaks: everybody
    present paired once, nobody absent paired, no repeat meeting, no second bye."""
    faults = []
    present = {e.number for e in t.entrants if is_active(e, rnd)}
    seen: dict[int, int] = {}
    listed = [p for b in boards for p in b] + ([bye] if bye else [])
    for p in listed:
        seen[p] = seen.get(p, 0) + 1
    for p, k in sorted(seen.items()):
        if not 1 <= p <= len(t.entrants):
            faults.append(f"no player {p}")
        elif k > 1:
            faults.append(f"player {p} is paired {k} times")
        elif p not in present:
            faults.append(f"player {p} is withdrawn or absent in round {rnd}")
    for p in sorted(present - set(seen)):
        faults.append(f"player {p} is not paired")
    if len(present) % 2 == 1 and bye is None:
        faults.append("an odd number of players needs a bye")
    if len(present) % 2 == 0 and bye is not None:
        faults.append("an even number of players has no bye")
    for a, b in boards:
        if a == b:
            faults.append(f"player {a} cannot play himself")
        elif 1 <= a <= len(t.entrants) and any(c.opponent == b for c in t.entrants[a - 1].rounds[: rnd - 1]):
            met = next(i for i, c in enumerate(t.entrants[a - 1].rounds, 1) if c.opponent == b)
            faults.append(f"{a} and {b} already met in round {met}")
    if bye is not None and 1 <= bye <= len(t.entrants):
        had = [i for i, c in enumerate(t.entrants[bye - 1].rounds[: rnd - 1], 1) if c.result == "U"]
        if had:
            faults.append(f"player {bye} already had the bye in round {had[0]}")
    return faults


def set_round(t: Tournament, rnd: int, boards: list[tuple[int, int]], bye: int | Iterable[int] | None) -> None:
    """Write the pairing of round ``rnd``: each board (opener, other), the bye ``U``
    (a knock-out may have several); players not listed keep their absence (or get ``Z``)."""
    for e in t.entrants:
        while len(e.rounds) < rnd - 1:
            e.rounds.append(RoundCell(None, "-", "Z"))
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
            cell = RoundCell(None, "-", "Z")
        if len(e.rounds) >= rnd:
            e.rounds[rnd - 1] = cell
        else:
            e.rounds.append(cell)


class RoundPairing(NamedTuple):
    """The pairing of one round (一轮对阵), whatever the format."""

    number: int
    boards: list[tuple[int, int]]  # (opener, other) in board order
    byes: list[int]  # the pairing bye (轮空); a knock-out may have several
    explanation: list[str]


def next_pairing(t: Tournament, *, explain: bool = False) -> RoundPairing:
    """The pairing of the next round by the file's format: Gomoku Swiss, Berger tables
    (round robin), or the knock-out bracket.  Refuses (``EventError``, or the Swiss
    engine's ``PairingError``) while the last round has boards without a result or
    when every round is paired.  Players not to be paired (withdrawn, excused) get
    their ``Z`` cell for that round; the pairing itself is not written."""
    from qiyuan.tournament.swiss import next_round

    rnd = next_round(t)
    if rnd > 1 and (left := unfinished_boards(t, rnd - 1)):
        boards = ", ".join(f"{a}-{b}" for a, b in left[:10]) + (" …" if len(left) > 10 else "")
        raise EventError(f"round {rnd - 1} has boards without a result: {boards}")
    if t.rounds_planned and rnd > t.rounds_planned:
        raise EventError(f"all {t.rounds_planned} rounds are paired (XXR {t.rounds_planned})")
    for e in t.entrants:  # JaVaFo convention: the absent are pre-filled for the round to be paired
        if not is_active(e, rnd) and len(e.rounds) < rnd:
            excuse_fill(e, rnd)
    fmt = event_format(t)
    if fmt == "knockout":
        return RoundPairing(rnd, *knockout_round(t, rnd))
    if fmt in ("match", "team"):
        from qiyuan.tournament.teams import TeamError, match_round, team_round

        try:
            return RoundPairing(rnd, *(match_round if fmt == "match" else team_round)(t, rnd))
        except TeamError as exc:
            raise EventError(str(exc)) from None
    if fmt in ("round_robin", "double_round_robin"):
        from qiyuan.tournament.berger import berger_rounds, pair_round_robin

        cycle = len(berger_rounds(len(t.entrants)))
        if fmt == "round_robin" and rnd > cycle:
            raise EventError(f"the round robin is complete: {cycle} rounds")
        pairing = pair_round_robin(t, rnd)
    else:
        from qiyuan.tournament.swiss import pair_round

        pairing = pair_round(t, rnd, explain=explain)
    byes = [] if pairing.bye is None else [pairing.bye]
    return RoundPairing(rnd, [(b.opener, b.other) for b in pairing.boards], byes, list(pairing.explanation))


def pair_next(t: Tournament, *, explain: bool = False) -> RoundPairing:
    """Pair the next round (编排下一轮) with :func:`next_pairing` and write it into ``t``."""
    pairing = next_pairing(t, explain=explain)
    set_round(t, pairing.number, pairing.boards, pairing.byes)
    return pairing


def excuse_fill(e: Entrant, rnd: int) -> None:
    """Pre-fill ``0000 - Z`` for a player not to be paired in round ``rnd`` (withdrawn/absent)."""
    while len(e.rounds) < rnd:
        e.rounds.append(RoundCell(None, "-", "Z"))


_SHOWN = {"1": "1-0", "0": "0-1", "=": "½-½", "W": "1-0", "L": "0-1", "D": "½-½", "+": "+/-", "-": "-/+", " ": ""}
_BYE_NAMES = {"U": "bye (轮空)", "H": "absent, half point", "F": "absent, full point", "Z": "absent",
              "+": "won by forfeit", "-": "lost by forfeit"}


def text_width(s: str) -> int:
    """Columns a string takes in a terminal: CJK characters (全角) take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def pad(s: str, width: int) -> str:
    """``s`` left-aligned in ``width`` terminal columns."""
    return s + " " * max(0, width - text_width(s))


def round_table(t: Tournament, rnd: int) -> str:
    """The pairings of a round as the arbiter posts them: board, opener (先), other, result."""
    by = {e.number: e for e in t.entrants}
    boards, others = [], []
    for e in t.entrants:
        if len(e.rounds) < rnd:
            continue
        c = e.rounds[rnd - 1]
        if c.opponent is None:
            others.append(f"        {e.number:>4} {e.name}: {_BYE_NAMES.get(c.result, c.result)}")
        elif c.colour == "b" or (c.colour == "-" and e.number < c.opponent):
            boards.append((e, by[c.opponent], c))
    boards.sort(key=lambda b: (-(score(b[0], t.points, rnd - 1) + score(b[1], t.points, rnd - 1)),
                               min(b[0].number, b[1].number)))
    width = max([text_width(e.name) for e in t.entrants] + [4])
    lines = [f"Round {rnd}  (先 = opener, moves first)",
             f"{'Bd':>4} {pad('先 opener', width + 5)}  {pad('other', width + 5)}  result"]
    for i, (a, b, c) in enumerate(boards, start=1):
        lines.append(f"{i:>4} {a.number:>4} {pad(a.name, width)}  {b.number:>4} {pad(b.name, width)}  "
                     f"{_SHOWN[c.result]}".rstrip())
    return "\n".join(lines + others) + "\n"


def crosstable(t: Tournament) -> str:
    """The crosstable by draw number: per round ``opponent`` + role (b opened, w not) + result."""
    n = max((len(e.rounds) for e in t.entrants), default=0)
    width = max([text_width(e.name) for e in t.entrants] + [4])
    head = f"{'No':>4} {pad('Name', width)} {'Rtg':>4} " + " ".join(f"{'R' + str(r):>7}" for r in range(1, n + 1))
    lines = [head + "    Pts"]
    for e in t.entrants:
        cells = []
        for c in e.rounds:
            if c.opponent is None:
                cells.append(f"{c.result:>7}")
            else:
                cells.append(f"{str(c.opponent) + c.colour + c.result.strip():>7}")
        cells += [" " * 7] * (n - len(e.rounds))
        mark = "  (withdrawn)" if e.withdrawn_after is not None else ""
        rating = "" if e.rating is None else str(e.rating)
        lines.append(f"{e.number:>4} {pad(e.name, width)} {rating:>4} " + " ".join(cells)
                     + f" {score(e, t.points)!s:>6}{mark}")
    return "\n".join(lines) + "\n"


# -- knock-out (单淘汰): the bracket of qiyuan.tournament.knockout, played round by round --------


def knockout_round(t: Tournament, rnd: int) -> tuple[list[tuple[int, int]], list[int], list[str]]:
    """Round ``rnd`` of a knock-out: boards ``(opener, other)`` (the upper place of the
    bracket opens), the players through on a bye, and a note per match."""
    from qiyuan.tournament.knockout import knockout_rounds

    if len(t.entrants) < 2:
        raise EventError("a knock-out needs at least 2 players")
    rounds = knockout_rounds(t)
    if rnd > len(rounds):
        last = rounds[-1]
        if len(last) == 1 and last[0].winner is not None:
            raise EventError(f"the knock-out is over: {last[0].winner} won the final")
        undecided = ", ".join(f"{m.home}-{m.away}" for m in last if m.winner is None)
        raise EventError(f"round {len(rounds)} has matches without a winner: {undecided} "
                         "(a drawn match needs a play-off: enter its winner as a win)")
    matches = rounds[rnd - 1]
    boards = [(m.home, m.away) for m in matches if not m.is_bye]
    byes = [m.winner for m in matches if m.is_bye]
    notes = [f"knock-out round {rnd} of {len(rounds[0]).bit_length()}, seeded by rating; the upper place opens"]
    notes += [f"match {m.index}: {m.winner} goes through on a bye" for m in matches if m.is_bye]
    return boards, byes, notes


def knockout_places(t: Tournament) -> dict[int, int]:
    """Final places of a knock-out: the winner 1, the loser of the final 2, of the
    semi-finals 3 (shared), of the quarter-finals 5, …; players still in share the best
    place left."""
    from qiyuan.tournament.knockout import knockout_rounds

    rounds = knockout_rounds(t)
    n_rounds = len(rounds[0]).bit_length()  # a bracket of 2^R places has R rounds
    places: dict[int, int] = {}
    for k, matches in enumerate(rounds, start=1):
        for m in matches:
            if m.winner is not None and not m.is_bye:
                loser = m.away if m.winner == m.home else m.home
                places[loser] = 2 ** (n_rounds - k) + 1
    final = rounds[-1][0] if len(rounds[-1]) == 1 else None
    if final is not None and final.winner is not None:
        places[final.winner] = 1
    for e in t.entrants:
        places.setdefault(e.number, 1)  # the winner, or still in
    return places


def knockout_reached(t: Tournament) -> dict[int, str]:
    """How far each player of a knock-out got (晋级轮次): ``winner``, ``final``,
    ``semi-final``, ``quarter-final`` or ``round k``; ``(still in)`` while not out."""
    from qiyuan.tournament.knockout import knockout_rounds

    rounds = knockout_rounds(t)
    n_rounds = len(rounds[0]).bit_length()  # a bracket of 2^R places has R rounds
    names = {n_rounds: "final", n_rounds - 1: "semi-final", n_rounds - 2: "quarter-final"}
    reached: dict[int, str] = {}
    for k, matches in enumerate(rounds, start=1):
        for m in matches:
            for p in (m.home, m.away):
                if p is not None:
                    out = m.winner is not None and m.winner != p
                    reached[p] = names.get(k, f"round {k}") + ("" if out else " (still in)")
    final = rounds[-1][0] if len(rounds) == n_rounds else None
    if final is not None and final.winner is not None:
        reached[final.winner] = "winner"
    return reached


def bracket_text(t: Tournament) -> str:
    """The knock-out bracket round by round: ``1 张三 – 8 李四  → 1`` (winner once decided)."""
    from qiyuan.tournament.knockout import knockout_rounds

    names = {e.number: e.name for e in t.entrants}
    lines = []
    for k, matches in enumerate(knockout_rounds(t), start=1):
        lines.append(f"Round {k}")
        for m in matches:
            if m.is_bye:
                lines.append(f"  {m.index:>3}. {m.winner} {names[m.winner]}: bye")
                continue
            won = f"  → {m.winner}" if m.winner is not None else ""
            lines.append(f"  {m.index:>3}. {m.home} {names[m.home]} – {m.away} {names[m.away]}{won}")
    return "\n".join(lines) + "\n"
