"""Reading a file into a ``ParsedEvent``: competition reports (竞赛报告), TRF-16 and OpenGotha files.

Each reader returns the event as the file gives it — entrants with their
draw numbers, every game with its result and who opened it — plus the
problems the file's own reader found (file, sheet and cell or line). Nothing
here looks at the registry; ``match`` does.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from openpyxl import load_workbook

from qiyuan.errors import InputError, problem
from qiyuan.formats.h9 import read_h9
from qiyuan.formats.history_csv import TRF_FORMATS
from qiyuan.formats.opengotha import gotha_event, read_opengotha
from qiyuan.formats.report_xlsx import FIRST_ROW, INFO_SHEET, LEAD, RESULTS_SHEET, read_report
from qiyuan.formats.trf import read_trf
from qiyuan.office.errors import ImportRefused
from qiyuan.office.imports.model import KINDS, Options, ParsedEntrant, ParsedEvent
from qiyuan.people.pinyin import has_han
from qiyuan.rating.model import Result
from qiyuan.tournament.check import check_imported_event
from qiyuan.tournament.eventfile import birth_date
from qiyuan.tournament.categories import band_limits
from qiyuan.tournament.errors import EventError
from qiyuan.tournament.hall import games_entered
from qiyuan.tournament.model import FORFEIT_RESULTS
from qiyuan.tournament.systems import rated_format

#: how a directory or a file name says which kind of file it is
_SUFFIXES = {".xlsx": "report", ".xlsm": "report", ".xml": "opengotha", ".trf": "trf", ".txt": "trf", ".h9": "h9"}


def detect_kind(path: Path) -> str:
    """The kind of file (``KINDS``) by its name; a directory is a history."""
    if path.is_dir():
        return "history"
    kind = _SUFFIXES.get(path.suffix.lower())
    if kind is None:
        raise ImportRefused([problem("cannot tell the kind of file from its name; give --kind ({known})", file=path.name,
                                     known=", ".join(KINDS))])
    return kind


def parse(kind: str, path: Path, options: Options) -> ParsedEvent:
    """The event in a report, TRF, OpenGotha or EGD (.h9) file."""
    return {"report": parse_report, "trf": parse_trf, "opengotha": parse_opengotha, "h9": parse_h9}[kind](path, options)


_SEX = {"m": "M", "w": "F", "f": "F", "M": "M", "F": "F", "男": "M", "女": "F"}
_DAN = re.compile(r"^(\d)([dk])$")


def _dan(text: str) -> str:
    t = (text or "").strip().lower()
    return t if _DAN.match(t) or t == "10k" else ""


def from_tournament(t, fmt: str, kind: str) -> ParsedEvent:
    """A TRF-shaped ``Tournament`` (from a report or a TRF file) as a ParsedEvent, with its games."""
    ev = ParsedEvent(name=t.name, start_date=t.start_date, end_date=t.end_date, format=fmt,
                     rounds=t.rounds_played, time_control=t.time_control, city=t.city,
                     chief_arbiter=t.chief_arbiter, arbiters=list(t.deputy_arbiters), rounds_declared=t.rounds_planned,
                     pairing_check=check_imported_event(t, fmt), prize_bands=band_limits(t))
    by_number = {e.number: e for e in t.entrants}
    for e in t.entrants:
        ev.entrants.append(ParsedEntrant(
            where=problem("No. {number} ({name})", number=e.number, name=e.name) if kind == "report" else
            problem("player {number} ({name})", number=e.number, name=e.name), number=e.number, name=e.name.strip(), gender=_SEX.get(e.sex, ""),
            id_number=e.id_number.strip(), dan=_dan(e.title), association=e.federation.strip(), rating=e.rating,
            rank=e.rank, score=e.points, federation_id=e.player_id.strip() if kind == "trf" else "",
            birth_date=birth_date(e.birth) if e.birth.strip() else None, id_type=e.id_type if e.id_number and e.id_type != "resident" else "",
            nationality=e.nationality))
    played = {"1": Result.WIN, "0": Result.LOSS, "=": Result.DRAW}
    unrated_played = 0
    for e in t.entrants:
        for rnd, cell in enumerate(e.rounds, start=1):
            opp = cell.opponent
            if opp is None or opp == e.number:
                continue
            other = by_number.get(opp)
            back = other.rounds[rnd - 1] if other is not None and len(other.rounds) >= rnd else None
            if other is None or back is None or back.opponent != e.number:
                ev.problems.append(problem("round {round}: {name} (No. {number}) is paired with No. {opponent}, whose row "
                                           "does not show this game (the two rows disagree)", round=rnd, name=e.name,
                                           number=e.number, opponent=opp))
                continue
            if e.number > opp:
                continue
            opener = _opener(cell.colour, back.colour)
            pair = (cell.result, back.result)
            if pair in BOTH:  # the arbiter's decision: both win / both lose, never rated
                ev.games.append((rnd, e.number, opp, BOTH[pair], opener))
            elif cell.result in played:
                expect = {"1": "0", "0": "1", "=": "="}[cell.result]
                if back.result != expect:
                    ev.problems.append(problem("round {round}: {name} has {result!r} against {other}, who has "
                                               "{other_result!r} (the two rows disagree)", round=rnd, name=e.name,
                                               result=cell.result, other=other.name, other_result=back.result))
                    continue
                ev.games.append((rnd, e.number, opp, played[cell.result], opener))
            elif cell.result in "WDL" and cell.result.strip():
                unrated_played += 1
                ev.games.append((rnd, e.number, opp, Result.NOT_PLAYED, opener))
            elif cell.result in FORFEIT_RESULTS:
                if pair == ("+", "-"):
                    ev.games.append((rnd, e.number, opp, Result.FORFEIT_WIN, opener))
                elif pair == ("-", "+"):
                    ev.games.append((rnd, e.number, opp, Result.FORFEIT_LOSS, opener))
                elif pair == ("-", "-"):
                    ev.games.append((rnd, e.number, opp, Result.NOT_PLAYED, opener))
                else:
                    ev.problems.append(problem("round {round}: forfeit {result!r} of {name} against {other}, who has "
                                               "{other_result!r} (the two rows disagree)", round=rnd, result=cell.result,
                                               name=e.name, other=other.name, other_result=back.result))
            else:
                ev.problems.append(problem("round {round}: {name} – {other} has no result", round=rnd, name=e.name,
                                           other=other.name))
    if unrated_played:
        ev.notes.append(problem("{n} game(s) marked unrated in the file (W/D/L) are not rated", n=unrated_played))
    try:  # how each result was entered, where the file records it (``XRP``: the hall, the desk, the terminal)
        ev.entered = games_entered(t)
    except (EventError, ValueError, LookupError):  # pairings no sheet can be made of: the record cannot be read
        ev.notes.append(problem("the file's record of how its results were entered (XRP) does not fit its pairings: "
                                "its results are kept as coming from the file alone"))
    return ev


#: two cells that say the same of a board: both win (``+``: by default) or both lose (OpenGotha's RESULT_BOTH…)
BOTH = {("1", "1"): Result.BOTH_WIN, ("+", "+"): Result.BOTH_WIN, ("0", "0"): Result.BOTH_LOSS}


def _opener(mine: str, theirs: str) -> int | None:
    """Who opened (先手) a game between a row and a later row, from their colours (TRF ``b`` = the opener)."""
    if mine == "b" or theirs == "w":
        return 1
    if mine == "w" or theirs == "b":
        return 2
    return None


def parse_report(path: Path, options: Options) -> ParsedEvent:
    """The competition report workbook (竞赛报告, our template), with the identity checks of every row.

    Problems name the file by its own name (never a server path) and the sheet and cell. A draw number
    used twice is reported as such, without the result checks that would all follow from it.
    """
    identity = _report_rows(path)
    rows_of: dict[int, list[int]] = {}
    for e in identity.get("entrants", []):
        if e.row is not None:
            rows_of.setdefault(e.number, []).append(e.row)
    twice = {n: rs for n, rs in rows_of.items() if len(rs) > 1}
    problems = [problem("draw number {number} is used twice ({names}); the results are checked once every draw number "
                        "is unique", file=path.name, column=problem("Sheet {sheet}, cells {cells}", sheet=RESULTS_SHEET,
                                                                    cells=", ".join(f"B{r}" for r in rs)),
                        number=n, names="、".join(e.name for e in identity["entrants"] if e.row in rs))
                for n, rs in sorted(twice.items())]
    try:
        t, meta = read_report(path)
    except InputError as exc:
        problems += [replace(p, file=path.name) for p in exc.problems if not (twice and _follows_from_numbers(p))]
        t = meta = None
    row_of = {n: rs[0] for n, rs in rows_of.items()}
    if t is None:
        ev = ParsedEvent(name=identity.get("name", ""), start_date=None, end_date=None, format="swiss", rounds=0)
        ev.problems = problems
        ev.entrants = identity.get("entrants", [])
        return ev
    # the report's 赛制 as the rating rules know it (a double round robin is a round robin, a Go McMahon or Swiss
    # event the Swiss-system event it is); an option differing from it is a contradiction (``imports.facts``)
    fmt = rated_format(meta.format)
    ev = from_tournament(t, fmt, "report")
    ev.organiser = meta.organizer or meta.host
    ev.desk_code = meta.desk_code
    ev.declared = dict(meta.facts)
    for e in ev.entrants:
        e.remark = meta.remarks.get(e.number, "")
        e.row = row_of.get(e.number)
    if meta.notes:
        ev.notes.append(problem("report notes (说明): {notes}", notes=meta.notes))
    return ev


def _follows_from_numbers(p) -> bool:
    """A reader's problem that a duplicated draw number causes: the draw-number column, results, points."""
    m = re.search(r"cell ([A-Z]+)\d+", str(p.column or ""))  # (a cell's place: "Sheet 成绩, cell F7")
    if not m:
        return False
    col = 0
    for ch in m[1]:
        col = col * 26 + ord(ch) - 64
    return col == 2 or col > len(LEAD)


def _report_rows(path: Path) -> dict:
    """Name, gender, ID number and association of each row, read directly — so the identity checks run
    even when the results cannot be read (all problems at once)."""
    try:
        wb = load_workbook(path, read_only=True, data_only=True)
        if RESULTS_SHEET not in wb.sheetnames:
            return {}
        out: list[ParsedEntrant] = []
        for r, row in enumerate(wb[RESULTS_SHEET].iter_rows(min_row=FIRST_ROW, max_col=8, values_only=True),
                                start=FIRST_ROW):
            vals = ["" if v is None else str(v).strip() for v in row] + [""] * 8
            if not vals[1] and not vals[2]:
                break
            number = int(vals[1]) if vals[1].isdigit() else 0
            out.append(ParsedEntrant(where=problem("No. {number} ({name})", number=vals[1] or "?", name=vals[2]),
                                     number=number, name=vals[2],
                                     gender=_SEX.get(vals[3], ""), id_number=vals[4], association=vals[6], row=r))
        name = ""
        if INFO_SHEET in wb.sheetnames:
            name = str(wb[INFO_SHEET].cell(3, 2).value or "")
        return {"entrants": out, "name": name}
    except Exception:  # not a workbook: read_report has said so
        return {}


def parse_trf(path: Path, options: Options) -> ParsedEvent:
    try:
        t = read_trf(path)
    except InputError as exc:
        ev = ParsedEvent(name="", start_date=None, end_date=None, format="swiss", rounds=0)
        ev.problems = [replace(p, file=path.name) for p in exc.problems]  # its own name, not the server's path
        return ev
    recorded = (t.extra.get("XQM") or [""])[0].strip()  # the format the file records (``qiyuan event new``)
    fmt = TRF_FORMATS.get(recorded)
    ev = from_tournament(t, fmt.value if fmt else "", "trf")
    if recorded and fmt is None:
        ev.problems.append(problem("XQM: unknown event format {value!r} (one of: {known})", file=path.name,
                                   value=recorded, known=", ".join(TRF_FORMATS)))
    return ev


def parse_h9(path: Path, options: Options) -> ParsedEvent:
    """An EGD results file (.h9): its players (names as written, grades), games, colours; its format is Go
    McMahon unless the registration or the officer says otherwise."""
    try:
        t = read_h9(path.read_bytes(), path.name)
    except (InputError, OSError) as exc:
        ev = ParsedEvent(name="", start_date=None, end_date=None, format="swiss", rounds=0)
        ev.problems = [replace(p, file=path.name) for p in exc.problems] if isinstance(exc, InputError) else \
            [problem("cannot read the file: {why}", file=path.name, why=str(exc))]
        return ev
    ev = from_tournament(t, "", "trf")
    for e in ev.entrants:  # the EGD's names are Latin (or pinyin); its country is not an association
        e.name_latin, e.association = ("" if has_han(e.name) else e.name), ""
    return ev


def parse_opengotha(path: Path, options: Options) -> ParsedEvent:
    try:
        t = read_opengotha(path)
    except InputError as exc:
        ev = ParsedEvent(name="", start_date=None, end_date=None, format="swiss", rounds=0)
        ev.problems = [replace(p, file=path.name) for p in exc.problems]  # its own name, not the server's path
        return ev
    ev = ParsedEvent(name=t.name, start_date=t.start_date, end_date=t.end_date,
                     format="",  # an OpenGotha file does not say: the registration or the officer does
                     rounds=len({g.round for g in t.games if g.result.played}), time_control=t.time_control,
                     city=t.location, chief_arbiter=t.director, notes=list(t.notes), rounds_declared=t.rounds,
                     pairing_check=check_imported_event(gotha_event(t, path.name), ""))
    number = {}
    for i, p in enumerate(t.players, start=1):
        number[p.key] = i
        ev.entrants.append(ParsedEntrant(where=problem("player {name}", name=p.name), number=i, name=p.name,
                                         name_latin="" if has_han(p.name) else p.name,
                                         dan=p.dan or "", association="", rating=None))
    for g in t.games:
        ev.games.append((g.round, number[g.black], number[g.white], g.result, 1))  # black opens (黑先)
    return ev
