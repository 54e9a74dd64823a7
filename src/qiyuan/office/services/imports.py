"""Imports into the office: competition reports, TRF, OpenGotha files, history CSV.

One import is one transaction: every problem is listed at once and, if there
is any, nothing is stored — except the record of the rejection itself
(``RejectedReport``, with every reason), so no report is silently dropped.
The same file twice is refused (its SHA-256 is kept).

Report players are matched to the registry by ID number (身份证号), else by
name and association — such a match is only taken when the officer confirms
it (``--confirm``); players found nowhere are registered. The report checks:
ID number check digit and its gender digit against the player's gender, an
unknown association, results that disagree between the two players' rows, a
player entered twice, a file that is not the template. The event's
eligibility is checked under the list's rule set; every failed condition is
shown.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path

from qiyuan.formats.errors import InputError
from qiyuan.rating.eligibility import (
    ArbiterFacts,
    EventFacts,
    OrganiserLevel,
    check_eligibility,
    parse_time_control,
)
from qiyuan.rating.model import EventFormat, Result

from qiyuan.office.services.periods import OfficeError

KINDS = ("report", "trf", "opengotha", "history")
KEEP_CONTENT_BYTES = 5 * 1024 * 1024
HISTORY_FILES = ("players.csv", "events.csv", "games.csv")


class ImportRefused(OfficeError):
    """An import refused; ``rejected`` tells whether the report was recorded as rejected."""

    def __init__(self, problems: list[str], *, rejected: bool = False, pending: list[str] | None = None,
                 pending_matches: list | None = None):
        super().__init__(problems + (pending or []))
        self.rejected = rejected
        self.pending = pending or []
        #: the same matches as data (``PendingMatch``): draw number, report name/association/masked ID, candidates
        self.pending_matches = pending_matches or []


@dataclass(frozen=True)
class PendingCandidate:
    """A registry player a report player may be (by name and association)."""

    federation_id: str
    name: str
    association: str  # code, "" when none
    birth_year: int | None
    id_masked: str  # the registry's ID number, masked ("" when it holds none)
    id_conflict: bool  # the registry holds an ID number that differs from the report's


@dataclass(frozen=True)
class PendingMatch:
    """A report player waiting for the officer's confirmation (``ImportRefused.pending_matches``).

    Confirm with ``Options.confirm[str(number)]`` = a candidate's federation ID (ending in ``!`` to override
    an ID-number conflict) or ``"new"``.
    """

    number: int  # draw number (签号)
    name: str
    association: str  # as the report gives it
    id_masked: str  # the report's ID number, masked ("" when none)
    where: str  # sheet and cell (report) or player (other files)
    candidates: tuple[PendingCandidate, ...]
    text: str  # the same, as the message in ``ImportRefused.pending``


@dataclass
class Options:
    """What the officer states about the event (the report does not say) and his confirmations."""

    organiser_level: str = OrganiserLevel.STATE.value
    national: bool = True
    international: bool = False
    agreed_by_parties: bool = False
    dan_event: bool = False
    standards_published: bool = False
    format: str | None = None  # overrides the file's format (TRF and OpenGotha files do not say)
    #: "draw number or name" → federation id (ending in "!": despite a differing ID number) or "new"
    confirm: dict[str, str] = field(default_factory=dict)
    confirm_all: bool = False
    received_on: date | None = None


@dataclass
class ParsedEntrant:
    where: str  # "player 3 (王五)": how problems name him in a file without cells (TRF, OpenGotha)
    number: int
    name: str
    gender: str = ""  # M / F / ""
    id_number: str = ""
    dan: str = ""
    association: str = ""
    rating: int | None = None
    rank: int | None = None
    score: Decimal | None = None
    federation_id: str = ""
    name_latin: str = ""
    remark: str = ""
    row: int | None = None  # the report's results-sheet row: problems then name the cell

    def at(self, what: str = "name") -> str:
        """Where a problem about ``what`` (number, name, gender, id, association) is: in a report the sheet and
        cell, with the draw number and name (``Sheet 成绩, cell E7 (No. 5 邵斌)``); else ``where``."""
        if self.row is None:
            return self.where
        from qiyuan.formats.report_xlsx import RESULTS_SHEET

        return f"Sheet {RESULTS_SHEET}, cell {_REPORT_COLUMN[what]}{self.row} (No. {self.number} {self.name})"


#: the results sheet's column of each fact of a player (签号, 姓名, 性别, 身份证号, 所属棋协)
_REPORT_COLUMN = {"number": "B", "name": "C", "gender": "D", "id": "E", "association": "G"}


@dataclass
class ParsedEvent:
    name: str
    start_date: date | None
    end_date: date | None
    format: str
    rounds: int
    time_control: str = ""
    city: str = ""
    organiser: str = ""
    chief_arbiter: str = ""
    arbiters: list[str] = field(default_factory=list)
    entrants: list[ParsedEntrant] = field(default_factory=list)
    #: round, number1, number2, result, opener (1 / 2: who opened, 先手; None: the file does not say)
    games: list[tuple[int, int, int, Result, int | None]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    days: int | None = None


@dataclass
class ImportResult:
    batch: object
    events: list = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    new_players: int = 0
    games: int = 0
    late_for: list[date] = field(default_factory=list)  # list dates already published that the events belong to


# ---------------------------------------------------------------------------------------------- entry point


def detect_kind(path: Path) -> str:
    if path.is_dir():
        return "history"
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        return "report"
    if suffix == ".xml":
        return "opengotha"
    if suffix in (".trf", ".txt"):
        return "trf"
    raise OfficeError(f"{path}: cannot tell the kind of file from its name; give --kind ({', '.join(KINDS)})")


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    files = [path / n for n in (*HISTORY_FILES, "standings.csv") if (path / n).exists()] if path.is_dir() else [path]
    for f in files:
        h.update(f.name.encode() + b"\0")
        with open(f, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()


def import_file(path: str | Path, rating_list, actor: str, *, kind: str | None = None, options: Options | None = None,
                progress: Callable[[str, int, int], None] | None = None) -> ImportResult:
    """Import one file into ``rating_list``; raises ``ImportRefused`` listing every problem.

    Every refused file — a bad report, a history directory with bad data, a file of unknown kind, the
    same file again — is kept as a ``RejectedReport`` with the reasons (``ImportRefused.rejected``); a
    report only waiting for the officer to confirm name matches is not refused, and not kept.
    """
    path = Path(path)
    options = options or Options()
    if not path.exists():
        raise OfficeError(f"{path}: no such file or directory")
    sha = file_digest(path)
    try:
        return _import(path, sha, rating_list, actor, kind, options, progress)
    except ImportRefused as exc:
        reasons = [p for p in exc.problems if p not in exc.pending]
        if reasons and not exc.rejected:
            _reject(kind or _kind_or_unknown(path), path, sha, actor, rating_list, "", reasons)
            exc.rejected = True
        raise


def _kind_or_unknown(path: Path) -> str:
    try:
        return detect_kind(path)
    except OfficeError:
        return "unknown"


def _import(path: Path, sha: str, rating_list, actor: str, kind: str | None, options: Options,
            progress: Callable[[str, int, int], None] | None) -> ImportResult:
    from qiyuan.office.events.models import ImportBatch

    try:
        kind = kind or detect_kind(path)
    except OfficeError as exc:
        raise ImportRefused(exc.problems) from None
    if kind not in KINDS:
        raise ImportRefused([f"{path.name}: unknown import kind {kind!r}; one of {', '.join(KINDS)}"])
    earlier = ImportBatch.objects.filter(sha256=sha).first()
    if earlier is not None:
        raise ImportRefused([f"{path.name}: this file was already imported on {earlier.imported_at:%Y-%m-%d %H:%M} "
                             f"by {earlier.actor} (as {earlier.filename}); the same report is never imported twice"])
    if kind == "history":
        from qiyuan.office.services.history_import import import_history

        return _late(import_history(path, rating_list, actor, sha, progress=progress), rating_list)
    parsed = {"report": parse_report, "trf": parse_trf, "opengotha": parse_opengotha}[kind](path, options)
    plan = prepare(parsed, rating_list, options, source=path.name)
    if plan.problems:
        _reject(kind, path, sha, actor, rating_list, parsed.name, plan.problems)
    if plan.problems or plan.pending:
        raise ImportRefused(plan.problems, rejected=bool(plan.problems), pending=plan.pending,
                            pending_matches=plan.pending_matches)
    return _late(store(plan, rating_list, actor, kind=kind, filename=path.name, sha=sha, options=options), rating_list)


def _late(result: "ImportResult", rating_list) -> "ImportResult":
    """The published list dates the imported events belong to (late reports: rate them by a correction)."""
    from qiyuan.rating.calendar import next_publication_date

    from qiyuan.office.services.periods import latest_edition

    last = latest_edition(rating_list)
    if last is not None:
        months = rating_list.rules().publication_months
        result.late_for = sorted({next_publication_date(months, e.end_date) for e in result.events
                                  if e.end_date < last.list_date})
    return result


def _reject(kind: str, path: Path, sha: str, actor: str, rating_list, event_name: str, reasons: list[str]) -> None:
    """Keep the rejected report with every reason (in its own transaction: the import stored nothing)."""
    from qiyuan.office.audit.models import record
    from qiyuan.office.events.models import RejectedReport

    content = _content(path)
    rej = RejectedReport.objects.create(kind=kind[:12], filename=path.name, sha256=sha, actor=actor,
                                        rating_list=rating_list, event_name=event_name[:200], reasons=reasons,
                                        content=content)
    record(actor, "report.reject", rej, filename=path.name, reasons=len(reasons))


def _content(path: Path) -> bytes | None:
    """The refused file's bytes (a history directory: its CSV files zipped), when small enough to keep."""
    import io
    import zipfile

    if path.is_file():
        return path.read_bytes() if path.stat().st_size <= KEEP_CONTENT_BYTES else None
    files = [f for f in sorted(path.iterdir()) if f.is_file() and f.suffix.lower() == ".csv"] if path.is_dir() else []
    if not files or sum(f.stat().st_size for f in files) > KEEP_CONTENT_BYTES:
        return None
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            z.write(f, f.name)
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------- readers → ParsedEvent

_SEX = {"m": "M", "w": "F", "f": "F", "M": "M", "F": "F", "男": "M", "女": "F"}
_DAN = re.compile(r"^(\d)([dk])$")


def _dan(text: str) -> str:
    t = (text or "").strip().lower()
    return t if _DAN.match(t) or t == "10k" else ""


def _from_tournament(t, fmt: str, kind: str) -> ParsedEvent:
    """A TRF-shaped ``Tournament`` (from a report or a TRF file) as a ParsedEvent, with its games."""
    from qiyuan.tournament.model import FORFEIT_RESULTS

    where = "No." if kind == "report" else "player"
    ev = ParsedEvent(name=t.name, start_date=t.start_date, end_date=t.end_date, format=fmt,
                     rounds=t.rounds_played, time_control=t.time_control, city=t.city,
                     chief_arbiter=t.chief_arbiter, arbiters=list(t.deputy_arbiters))
    by_number = {e.number: e for e in t.entrants}
    for e in t.entrants:
        ev.entrants.append(ParsedEntrant(
            where=f"{where} {e.number} ({e.name})", number=e.number, name=e.name.strip(), gender=_SEX.get(e.sex, ""),
            id_number=e.id_number.strip(), dan=_dan(e.title), association=e.federation.strip(), rating=e.rating,
            rank=e.rank, score=e.points, federation_id=e.player_id.strip() if kind == "trf" else ""))
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
                ev.problems.append(f"round {rnd}: {e.name} (No. {e.number}) is paired with No. {opp}, whose row does "
                                   "not show this game (the two rows disagree)")
                continue
            if e.number > opp:
                continue
            opener = _opener(cell.colour, back.colour)
            pair = (cell.result, back.result)
            if cell.result in played:
                expect = {"1": "0", "0": "1", "=": "="}[cell.result]
                if back.result != expect:
                    ev.problems.append(f"round {rnd}: {e.name} has {cell.result!r} against {other.name}, who has "
                                       f"{back.result!r} (the two rows disagree)")
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
                    ev.problems.append(f"round {rnd}: forfeit {cell.result!r} of {e.name} against {other.name}, who "
                                       f"has {back.result!r} (the two rows disagree)")
            else:
                ev.problems.append(f"round {rnd}: {e.name} – {other.name} has no result")
    if unrated_played:
        ev.notes.append(f"{unrated_played} game(s) marked unrated in the file (W/D/L) are not rated")
    return ev


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
    from dataclasses import replace

    from qiyuan.formats.report_xlsx import RESULTS_SHEET, read_report

    identity = _report_rows(path)
    rows_of: dict[int, list[int]] = {}
    for e in identity.get("entrants", []):
        if e.row is not None:
            rows_of.setdefault(e.number, []).append(e.row)
    twice = {n: rs for n, rs in rows_of.items() if len(rs) > 1}
    problems = [f"{path.name}, Sheet {RESULTS_SHEET}, cells {', '.join(f'B{r}' for r in rs)}: draw number {n} is used "
                f"twice ({'、'.join(e.name for e in identity['entrants'] if e.row in rs)}); the results are checked "
                "once every draw number is unique" for n, rs in sorted(twice.items())]
    try:
        t, meta = read_report(path)
    except InputError as exc:
        problems += [str(replace(p, file=path.name)) for p in exc.problems if not (twice and _follows_from_numbers(p))]
        t = meta = None
    row_of = {n: rs[0] for n, rs in rows_of.items()}
    if t is None:
        ev = ParsedEvent(name=identity.get("name", ""), start_date=None, end_date=None, format="swiss", rounds=0)
        ev.problems = problems
        ev.entrants = identity.get("entrants", [])
        return ev
    fmt = options.format or meta.format
    if fmt == "double_round_robin":
        fmt = EventFormat.ROUND_ROBIN.value
    ev = _from_tournament(t, fmt, "report")
    ev.organiser = meta.organizer or meta.host
    for e in ev.entrants:
        e.remark = meta.remarks.get(e.number, "")
        e.row = row_of.get(e.number)
    if meta.notes:
        ev.notes.append(f"report notes (说明): {meta.notes}")
    return ev


def _follows_from_numbers(p) -> bool:
    """A reader's problem that a duplicated draw number causes: the draw-number column, results, points."""
    from qiyuan.formats.report_xlsx import LEAD

    m = re.search(r"cell ([A-Z]+)\d+", str(p.column or ""))
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
        from openpyxl import load_workbook

        from qiyuan.formats.report_xlsx import FIRST_ROW, INFO_SHEET, RESULTS_SHEET

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
            out.append(ParsedEntrant(where=f"No. {vals[1] or '?'} ({vals[2]})", number=number, name=vals[2],
                                     gender=_SEX.get(vals[3], ""), id_number=vals[4], association=vals[6], row=r))
        name = ""
        if INFO_SHEET in wb.sheetnames:
            name = str(wb[INFO_SHEET].cell(3, 2).value or "")
        return {"entrants": out, "name": name}
    except Exception:  # not a workbook: read_report has said so
        return {}


def parse_trf(path: Path, options: Options) -> ParsedEvent:
    from qiyuan.formats.trf import read_trf

    try:
        t = read_trf(path)
    except InputError as exc:
        ev = ParsedEvent(name="", start_date=None, end_date=None, format="swiss", rounds=0)
        ev.problems = [str(p) for p in exc.problems]
        return ev
    return _from_tournament(t, options.format or EventFormat.SWISS.value, "trf")


def parse_opengotha(path: Path, options: Options) -> ParsedEvent:
    from qiyuan.formats.opengotha import read_opengotha

    try:
        t = read_opengotha(path)
    except InputError as exc:
        ev = ParsedEvent(name="", start_date=None, end_date=None, format="swiss", rounds=0)
        ev.problems = [str(p) for p in exc.problems]
        return ev
    ev = ParsedEvent(name=t.name, start_date=t.start_date, end_date=t.end_date,
                     format=options.format or EventFormat.SWISS.value,
                     rounds=len({g.round for g in t.games if g.result.played}), time_control=t.time_control,
                     city=t.location, chief_arbiter=t.director, notes=list(t.notes))
    number = {}
    for i, p in enumerate(t.players, start=1):
        number[p.key] = i
        ev.entrants.append(ParsedEntrant(where=f"player {p.name}", number=i, name=p.name, name_latin=p.name,
                                         dan=p.dan or "", association="", rating=None))
    for g in t.games:
        ev.games.append((g.round, number[g.black], number[g.white], g.result, 1))  # black opens (黑先)
    return ev


# ---------------------------------------------------------------------------------------------- checks and matching


@dataclass
class Plan:
    """What an import would store, once every check passed."""

    parsed: ParsedEvent
    players: dict[int, object] = field(default_factory=dict)  # draw number → registry Player (saved or new)
    new_players: list = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)  # matches awaiting the officer's confirmation
    pending_matches: list[PendingMatch] = field(default_factory=list)  # the same, as data
    notes: list[str] = field(default_factory=list)
    eligibility: dict = field(default_factory=dict)
    arbiters: list = field(default_factory=list)
    chief: object | None = None


def prepare(ev: ParsedEvent, rating_list, options: Options, *, source: str) -> Plan:
    """Every check of an event before it is stored: identity, registry matching, duplicates, eligibility."""
    from qiyuan.office.events.models import Event
    from qiyuan.office.federation.idnumber import normalize_id_number, validate_document, validate_resident_id
    from qiyuan.office.federation.models import Association, Player

    plan = Plan(ev, problems=list(ev.problems), notes=list(ev.notes))
    report = source.lower().endswith((".xlsx", ".xlsm"))
    assoc_by_key = {}
    for a in Association.objects.all():
        assoc_by_key[a.code.lower()] = a
        assoc_by_key[a.name.lower()] = a

    # Identity of each row: ID number, gender, association; entered twice.
    ids = Counter(normalize_id_number(e.id_number) for e in ev.entrants if e.id_number)
    names = Counter((e.name, e.association) for e in ev.entrants)
    for e in ev.entrants:
        n = normalize_id_number(e.id_number)
        if n:
            if len(n) == 18 and n[:17].isdigit():
                for msg in validate_resident_id(n, gender=e.gender or None):
                    plan.problems.append(f"{source}: {e.at('id')}: ID number {_mask(n)}: {msg}")
            else:
                for msg in validate_document("other", n):
                    plan.problems.append(f"{source}: {e.at('id')}: {msg}")
            if ids[n] > 1:
                plan.problems.append(f"{source}: {e.at('id')}: entered twice (ID number {_mask(n)} appears {ids[n]} times)")
        elif report:
            plan.problems.append(f"{source}: {e.at('id')}: ID number (身份证号码) missing; CGA Art. 11(一) requires it")
        if not n and names[(e.name, e.association)] > 1:
            plan.problems.append(f"{source}: {e.at('name')}: entered twice (same name and association, no ID number)")
        if e.association and e.association.lower() not in assoc_by_key:
            if report:
                plan.problems.append(f"{source}: {e.at('association')}: unknown association {e.association!r} (not in the registry)")
            else:
                plan.notes.append(f"{e.at('association')}: association {e.association!r} is not in the registry")
        if report and not e.gender:
            plan.problems.append(f"{source}: {e.at('gender')}: gender (性别) missing")
    if ev.start_date is None or ev.end_date is None:
        if not ev.problems:
            plan.problems.append(f"{source}: the event's dates are missing")
        return plan
    if not ev.entrants:
        plan.problems.append(f"{source}: no players")
        return plan
    if Event.objects.filter(rating_list=rating_list, name=ev.name, start_date=ev.start_date,
                            end_date=ev.end_date).exists():
        plan.problems.append(f"{source}: the event {ev.name!r} of {ev.start_date}–{ev.end_date} is already stored in "
                             f"list {rating_list.code} (the same report twice?)")

    # Registry matching.
    matched_by: dict[int, int] = {}
    for e in ev.entrants:
        assoc = assoc_by_key.get(e.association.lower()) if e.association else None
        n = normalize_id_number(e.id_number)
        p = None
        if e.federation_id:
            p = Player.objects.filter(federation_id=e.federation_id).first()
            if p is None:
                plan.problems.append(f"{source}: {e.at('name')}: federation ID {e.federation_id} is not in the registry")
                continue
        if p is None and n:
            p = Player.objects.filter(id_number=n).first()
        if p is not None:
            p = _follow_merge(p)
            _registry_notes(plan, e, p, assoc)
        else:
            p, waiting = _name_match(plan, e, assoc, n, options, source)
            if waiting:
                continue
        if p is None:
            p = _new_player(e, assoc, n)
            plan.new_players.append(p)
        if p.pk is not None and p.pk in matched_by:
            plan.problems.append(f"{source}: {e.at('name')}: entered twice (same registry player {p.federation_id} as "
                                 f"No. {matched_by[p.pk]})")
        if p.pk is not None:
            matched_by[p.pk] = e.number
        plan.players[e.number] = p

    # CGA Art. 11 / BJSH §10: the report is due within two weeks of the event's end.
    if options.received_on is not None and (options.received_on - ev.end_date).days > 14:
        plan.notes.append(f"received {options.received_on}, {(options.received_on - ev.end_date).days} days after the "
                          "end: reports are due within two weeks (CGA Art. 11, BJSH §10)")
    # Arbiters and eligibility.
    _eligibility(plan, ev, rating_list, options, source)
    return plan


def _name_match(plan: Plan, e: ParsedEntrant, assoc, n: str, options: Options, source: str):
    """A report player no ID number found, matched by name and association only with the officer's
    confirmation; a candidate whose registry ID number differs from the report's only with an explicit
    override (``NUMBER=CN000123!``), noted. Returns (player or None for a new one, still waiting)."""
    from qiyuan.office.federation.models import Player

    key = _confirm_key(options, e)
    if key == "new":
        return None, False
    if key:
        fid, override = key.rstrip("!").strip(), key.endswith("!")
        p = Player.objects.filter(federation_id=fid).first()
        if p is None:
            plan.problems.append(f"{source}: {e.at('name')}: --confirm names {fid}, which is not in the registry")
            return None, True
        p = _follow_merge(p)
        if _id_conflict(p, n):
            if not override:
                _pending(plan, e, n, [p], source, f"confirmed as {p.federation_id}, but the registry holds another "
                         "ID number for that player")
                return None, True
            plan.notes.append(f"{e.at('id')}: the report's ID number {_mask(n)} differs from the registry's "
                              f"{p.masked_id_number} for {p.federation_id}; matched by the officer's override "
                              "(the registry's ID number kept; check which is right)")
        elif n and not p.id_number:
            plan.notes.append(f"{e.at('id')}: the report gives ID number {_mask(n)} for {p.federation_id}, whose "
                              "registry record has none: record it in the registry")
        return p, False
    cands = _name_candidates(e, assoc)
    if not cands:
        return None, False
    if options.confirm_all and len(cands) == 1 and not _id_conflict(cands[0], n):
        return cands[0], False
    _pending(plan, e, n, cands, source, "no ID match")
    return None, True


def _id_conflict(p, n: str) -> bool:
    return bool(n and p.id_number and p.id_number != n)


def _pending(plan: Plan, e: ParsedEntrant, n: str, cands: list, source: str, why: str) -> None:
    """A match waiting for the officer: as text (``plan.pending``) and as data (``plan.pending_matches``)."""
    found = tuple(PendingCandidate(c.federation_id, c.name, c.association.code if c.association else "",
                                   c.birth_year, c.masked_id_number if c.id_number else "", _id_conflict(c, n))
                  for c in cands)
    which = ", ".join(f"{c.federation_id} {c.name} ({c.association or '—'}, born {c.birth_year or '?'}"
                      + (f"; registry ID {c.id_masked} differs from the report's {_mask(n)}" if c.id_conflict else "")
                      + ")" for c in found)
    override = any(c.id_conflict for c in found)
    text = (f"{source}: {e.at('name')}: {why}; by name and association it may be {which} — confirm with --confirm "
            f"'{e.number}=<federation id>'" + (" (with a final ! to override a differing ID number)" if override
                                                else "") + f" or --confirm '{e.number}=new'")
    plan.pending.append(text)
    plan.pending_matches.append(PendingMatch(e.number, e.name, e.association, _mask(n) if n else "", e.at("name"),
                                             found, text))


def _mask(n: str) -> str:
    from qiyuan.office.federation.models import mask_id_number

    return mask_id_number(n)


def _follow_merge(p):
    seen = 0
    while p.merged_into_id is not None and seen < 10:
        p = p.merged_into
        seen += 1
    return p


def _confirm_key(options: Options, e: ParsedEntrant) -> str:
    for key in (str(e.number), e.name, e.where):
        if key in options.confirm:
            return options.confirm[key]
    return ""


def _name_candidates(e: ParsedEntrant, assoc) -> list:
    from qiyuan.office.federation.models import Player

    qs = Player.objects.registered()
    if e.name_latin:
        qs = qs.filter(name_latin__iexact=e.name_latin) | qs.filter(name__iexact=e.name)
    else:
        qs = qs.filter(name=e.name)
    if assoc is not None:
        qs = qs.filter(association=assoc)
    return list(qs.select_related("association")[:5])


def _registry_notes(plan: Plan, e: ParsedEntrant, p, assoc) -> None:
    """CGA Art. 11(四): a change of name or association must be explained in the remarks."""
    if e.name and e.name != p.name and e.name != p.name_latin:
        old = list(p.name_changes.values_list("old_name", flat=True)) if hasattr(p, "name_changes") else []
        known = " (a recorded name change)" if e.name in old else ""
        said = "" if e.remark else "; the remark column does not explain it (Art. 11(四))"
        plan.notes.append(f"{e.at('name')}: name differs from the registry's {p.name} ({p.federation_id}){known}{said}")
    if assoc is not None and p.association_id is not None and assoc.pk != p.association_id:
        said = "" if e.remark else "; the remark column does not explain it (Art. 11(四))"
        plan.notes.append(f"{e.at('association')}: association {assoc.code} differs from the registry's for {p.federation_id}{said}")


def _new_player(e: ParsedEntrant, assoc, id_number: str):
    from qiyuan.office.federation.idnumber import parse_resident_id
    from qiyuan.office.federation.models import Player

    birth = None
    id_type = Player.IdType.RESIDENT
    if id_number and len(id_number) == 18 and id_number[:17].isdigit():
        try:
            birth = parse_resident_id(id_number).birth_date
        except ValueError:
            birth = None
    elif id_number:
        id_type = Player.IdType.OTHER
    return Player(name=e.name, name_latin=e.name_latin, gender=e.gender, birth_date=birth, id_type=id_type,
                  id_number=id_number, association=assoc, dan=e.dan, nationality="CHN" if birth else "")


def _eligibility(plan: Plan, ev: ParsedEvent, rating_list, options: Options, source: str) -> None:
    from qiyuan.office.federation.models import Arbiter

    facts_arbiters = []
    for i, name in enumerate([ev.chief_arbiter, *ev.arbiters]):
        if not name:
            continue
        a = Arbiter.objects.filter(name=name).first()
        if a is None:
            plan.notes.append(f"arbiter {name!r} is not in the registry: not counted as recognised or national")
            facts_arbiters.append(ArbiterFacts(name))
        else:
            if i == 0:
                plan.chief = a
            else:
                plan.arbiters.append(a)
            facts_arbiters.append(ArbiterFacts(a.name, a.level, a.recognised_national))
    rated = _rated_entrants(rating_list, plan, ev.start_date)
    played = sum(1 for g in ev.games if g[3].played)
    genders = {n: (p.gender or "") for n, p in plan.players.items()}
    women_only = bool(genders) and all(g == "F" for g in genders.values())
    tc = parse_time_control(ev.time_control)
    facts = EventFacts(
        format=EventFormat(ev.format), players=len(ev.entrants),
        rounds=len({g[0] for g in ev.games if g[3].played}), rated_players=len(rated),
        organiser_level=OrganiserLevel(options.organiser_level), national=options.national,
        international=options.international, agreed_by_parties=options.agreed_by_parties,
        arbiters=tuple(facts_arbiters), time_control=tc,
        rated_men=sum(1 for n in rated if genders.get(n) == "M"),
        rated_women=sum(1 for n in rated if genders.get(n) == "F"), women_only=women_only,
        played_games=played, unplayed_games=len(ev.games) - played, dan_event=options.dan_event,
        standards_published=options.standards_published,
    )
    result = check_eligibility(rating_list.rules(), facts)
    plan.eligibility = {"family": rating_list.family, "eligible": result.eligible,
                        "failures": [str(f) for f in result.failures], "notes": list(result.notes),
                        "facts": {"players": facts.players, "rounds": facts.rounds, "rated": facts.rated_players,
                                  "time_control": str(tc) if tc else None, "arbiters": [a.name for a in facts_arbiters]}}
    plan.notes.extend(result.notes)
    for f in result.failures:
        plan.problems.append(f"{source}: not eligible: {f}")


def _rated_entrants(rating_list, plan: Plan, on: date) -> set[int]:
    """Draw numbers of the entrants holding a published rating on ``rating_list`` when the event began."""
    from qiyuan.office.ratings.models import EditionEntry, ListMember
    from qiyuan.rating.state import starting_rating

    from qiyuan.office.services.periods import _Facts
    from qiyuan.office.services.state import engine_player

    pks = {n: p.pk for n, p in plan.players.items() if p.pk is not None}
    ed = rating_list.editions.filter(list_date__lte=on).order_by("-list_date", "-number").first()
    if ed is not None:
        from qiyuan.office.federation.models import Player

        # a record kept by a merge holds the rating its duplicate published (``services.identity``)
        dup_of = dict(Player.objects.filter(merged_into_id__in=pks.values()).values_list("pk", "merged_into_id"))
        rated_pks = set(EditionEntry.objects.filter(edition=ed, player_id__in=[*pks.values(), *dup_of],
                                                    rating__isnull=False)
                        .exclude(status="removed").values_list("player_id", flat=True))
        rated_pks |= {dup_of[pk] for pk in rated_pks if pk in dup_of}
        return {n for n, pk in pks.items() if pk in rated_pks}
    rules = rating_list.rules()
    members = {m.player_id: m for m in ListMember.objects.filter(rating_list=rating_list, player_id__in=pks.values())}
    out = set()
    for n, p in plan.players.items():
        m = members.get(p.pk)
        facts = _Facts(p.gender or "", p.dan or "", m.rating if m else None, m.games if m else 0,
                       m.k_latched if m else False, p.registered_on, p.reference_rating)
        if starting_rating(rules, engine_player(p.federation_id or "new", facts)) is not None:
            out.add(n)
    return out


# ---------------------------------------------------------------------------------------------- storing


def store(plan: Plan, rating_list, actor: str, *, kind: str, filename: str, sha: str, options: Options) -> ImportResult:
    """Store a checked event in one transaction."""
    from django.db import transaction

    from qiyuan.office.audit.models import record
    from qiyuan.office.events.models import Entry, Event, Game, ImportBatch
    from qiyuan.office.ratings.models import ListMember
    from qiyuan.office.services.state import member_from_registry

    ev = plan.parsed
    with transaction.atomic():
        for p in plan.new_players:
            p.registered_on = p.registered_on or ev.end_date
            p.save()
        batch = ImportBatch.objects.create(kind=kind, filename=filename, sha256=sha, actor=actor,
                                           rating_list=rating_list, notes=plan.notes)
        tc = parse_time_control(ev.time_control)
        event = Event.objects.create(
            code=f"{rating_list.code}-{ev.end_date:%Y%m%d}-{sha[:8]}", name=ev.name, organiser=ev.organiser,
            organiser_level=options.organiser_level, format=ev.format, rounds=ev.rounds or 0,
            time_control=ev.time_control, time_minutes=tc.base_minutes if tc else None,
            time_increment=tc.increment_seconds if tc else None, start_date=ev.start_date, end_date=ev.end_date,
            days=ev.days, national=options.national, international=options.international, city=ev.city,
            chief_arbiter=plan.chief, rating_list=rating_list, import_batch=batch,
            received_on=options.received_on or date.today(), eligibility=plan.eligibility,
        )
        if plan.arbiters:
            event.arbiters.set(plan.arbiters)
        Entry.objects.bulk_create([
            Entry(event=event, player=plan.players[e.number], number=e.number, name=e.name,
                  association=e.association, rating=e.rating, dan=e.dan, rank=e.rank, score=e.score)
            for e in ev.entrants])
        Game.objects.bulk_create([
            Game(event=event, round=r, player1=plan.players[a], player2=plan.players[b], result=res.value, opener=op)
            for r, a, b, res, op in ev.games])
        known = set(ListMember.objects.filter(rating_list=rating_list).values_list("player_id", flat=True))
        ListMember.objects.bulk_create([member_from_registry(rating_list, p) for p in
                                        {p.pk: p for p in plan.players.values()}.values() if p.pk not in known])
        batch.summary = {"events": 1, "games": len(ev.games), "players": len(ev.entrants),
                         "new_players": len(plan.new_players)}
        batch.save(update_fields=["summary"])
        record(actor, "import", batch, kind=kind, filename=filename, event=event.code,
               new_players=[p.federation_id for p in plan.new_players])
    return ImportResult(batch, [event], plan.notes, len(plan.new_players), len(ev.games))
