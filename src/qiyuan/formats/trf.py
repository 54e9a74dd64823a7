"""FIDE TRF-16 (Tournament Report File) reader and writer.

The file the chief arbiter (裁判长) keeps: header lines (``012`` event name …
``132`` round dates), one ``001`` line per player in fixed columns, and the
program lines of the pairing engines (``XXR`` rounds, ``XXC`` first colour,
``BBW``/``BBD``/``BBL``/``BBU``/``BBF``/``BBZ`` points, as bbpPairings reads them).

Conventions (JaVaFo / bbpPairings, and ``docs/tournament.md``):

* colour ``b`` = the opener (假先, moves first), ``w`` = the other player,
  ``-`` = no role (bye, absence, forfeit written without a colour);
* ``U`` pairing bye (轮空), ``H`` half-point bye, ``F`` full-point bye, ``Z``
  absent (zero); a player absent from the round to be paired is pre-filled
  ``0000 - Z``; ``+``/``-`` forfeits, with the colour ``-`` or the paired colour;
* a blank round cell inside a row reads as ``0000 - Z``; a row whose cells stop
  before the last round with a game is a withdrawn player (padded with ``Z``);
* no ``BB*`` lines: the point system is Gomoku 2/1/0 (bye 2) unless the declared
  scores only fit chess 1/½/0 (bye 1) — so foreign chess files read as they are.

qiyuan's own program lines (ignored by other programs):
``XQI nnnn ID`` the ID number 身份证号 (competition report only, never public);
``XQT nnnn TYPE`` the document of that number when it is not a resident ID: ``passport`` (护照) or ``other``;
``XQF nnnn TEXT`` an association (所属单位) too long for the 3 columns of ``001``;
``XQW nnnn R`` player withdrawn after round R; ``XQL nnnn R`` a late entry, after round R;
``XQC nnnn CLUB`` his club (俱乐部), ``XQY nnnn LABEL`` his family (keep-apart groups);
``XQ5 nnnn CCC`` his nationality (国籍), a 3-letter country code (ISO 3166: CHN, KOR), when given;
``XQX nnnn R K`` excused from round R, not yet paired (K: ``Z`` 0 points, ``H`` half, ``F`` full).
The event's own settings are lines of their own: ``XQM`` format, ``XQB`` boards per team,
``XQD`` how the draw numbers were fixed, ``XQA KIND K`` keep apart in the first K rounds,
``XQP CATEGORY`` a prize category, ``XQS finished``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path

from qiyuan.collector import held
from qiyuan.errors import N_, problem
from qiyuan.formats.errors import InputError, Problem
from qiyuan.formats.trf26 import from_trf16, is_trf26, to_trf16
from qiyuan.people.idnumber import ID_TYPES
from qiyuan.tournament.eventfile import cross_check, is_country_code
from qiyuan.tournament.go import is_go
from qiyuan.tournament.model import (
    BYE_RESULTS,
    FORFEIT_RESULTS,
    PLAYED_RESULTS,
    Entrant,
    PointSystem,
    RoundCell,
    Tournament,
)
from qiyuan.tournament.scoring import cell_points, score
from qiyuan.tournament.state import rounds_paired

#: chess 1/½/0 as FIDE scores it (bye 1): used for foreign files without BB lines.
CHESS_POINTS = PointSystem(
    win=Decimal(1),
    draw=Decimal("0.5"),
    loss=Decimal(0),
    forfeit_win=Decimal(1),
    forfeit_loss=Decimal(0),
    pairing_bye=Decimal(1),
    half_bye=Decimal("0.5"),
    full_bye=Decimal(1),
    zero_bye=Decimal(0),
)
GOMOKU_POINTS = PointSystem()

#: header records mapped to Tournament fields (the others are kept in ``extra``)
_HEADER_FIELDS = {"012": "name", "022": "city", "032": "federation", "102": "chief_arbiter", "122": "time_control"}
_COMPUTED = {"062", "072"}  # number of players / rated players: written from the entrants
_BB = {"BBW": "win", "BBD": "draw", "BBL": "loss", "BBZ": "zero_bye", "BBF": "forfeit_loss", "BBU": "pairing_bye"}

# 0-based slices of the 001 line (TRF-16 columns 5-8 number, 10 sex, 11-13 title, 15-47 name, 49-52 rating,
# 54-56 federation, 58-68 id, 70-79 birth date, 81-84 points, 86-89 rank)
_F_NUMBER = (4, 8)
_F_NAME = (14, 47)
_F_RATING = (48, 52)
_F_POINTS = (80, 84)
_F_RANK = (85, 89)
_SEPARATORS = (3, 8, 13, 47, 52, 56, 68, 79, 84)
_CELLS_AT = 89  # round r (1-based) occupies [89 + 10(r-1), 99 + 10(r-1)): "  oooo c r"

_MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), start=1)}


@dataclass(slots=True)
class _Row:
    line: int
    entrant: Entrant
    cell_cols: list[int]  # 1-based column of each cell's opponent field
    broken: bool = False  # the line has problems: cross-checks with it are skipped


def read_trf(source: str | Path, *, filename: str | None = None, notes: list[Problem] | None = None) -> Tournament:
    """Read a TRF-16 file (a path, or the text itself when it contains a newline).

    Encoding: UTF-8; a file that is not is read as GB18030 (GBK, common in China) when
    it decodes cleanly and its columns line up, else as ISO-8859-1 (older European TRF
    files); the encoding used is said in ``notes`` (templates, shown in the reader's language; writers write
    UTF-8).  A GB18030
    file whose columns do not line up is refused in one message, not line by line.

    Raises ``InputError`` listing every problem (line, column, what) at once; a text
    with no TRF line at all is one problem ("not a TRF-16 file").
    """
    if not (isinstance(source, Path) or "\n" not in source):
        return _read_text(source, filename or "<trf>")
    path = Path(source)
    fname = filename or str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(problem("cannot read the file: {why}", file=fname, why=str(exc.strerror or exc))) from None
    try:
        return _read_text(raw.decode("utf-8-sig"), fname)
    except UnicodeDecodeError:
        pass
    try:
        gb_text = raw.decode("gb18030")
    except UnicodeDecodeError:
        gb_text = None
    if gb_text is not None:
        try:
            t = _read_text(gb_text, fname)
        except InputError as gb_error:
            misaligned = any("misaligned" in p.message for p in gb_error.problems)
            if not misaligned:
                raise  # aligned, readable as GB18030: its problems are real ones
            try:
                t = _read_text(raw.decode("latin-1"), fname)
            except InputError as latin_error:
                if not any("misaligned" in p.message for p in latin_error.problems):
                    raise
                raise InputError(problem("not UTF-8 (looks like GB18030/GBK) and its columns do not line up as "
                                         "characters: save it as UTF-8 (e.g. iconv -f GB18030 -t UTF-8)",
                                         file=fname)) from None
            if _byte_columns_gb18030(t):
                _note(notes, problem("not UTF-8; read as GB18030 (GBK) in byte columns (2 per Chinese character), "
                                     "written back as UTF-8", file=fname))
                return t
            _note(notes, problem(READ_AS_LATIN1, file=fname))
            return t
        _note(notes, problem("not UTF-8; read as GB18030 (GBK), written back as UTF-8", file=fname))
        return t
    t = _read_text(raw.decode("latin-1"), fname)  # older TRF files are ISO-8859-1
    _note(notes, problem(READ_AS_LATIN1, file=fname))
    return t


#: the note on a file read as ISO-8859-1 (older European TRF files)
READ_AS_LATIN1 = N_("not UTF-8; read as ISO-8859-1 (latin-1)")


_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef·]+")


def _byte_columns_gb18030(t: Tournament) -> bool:
    """A GB18030 file padded by bytes (two columns per Chinese character, as Chinese
    Windows tools write it) reads aligned as latin-1, one character per byte.  When
    every player name with such bytes is Chinese once its bytes are read as GB18030,
    turn every text field into that reading (in place) and say so; else leave ``t``."""

    def gb(text: str) -> str:
        return text.encode("latin-1").decode("gb18030")

    try:
        names = [gb(e.name) for e in t.entrants if not e.name.isascii()]
        if not names or not all(_CJK.fullmatch(n.replace(" ", "")) for n in names):
            return False
        for e in t.entrants:
            for name in ("name", "federation", "player_id", "birth", "id_number"):
                setattr(e, name, gb(getattr(e, name)))
        for name in ("name", "city", "federation", "chief_arbiter", "time_control"):
            setattr(t, name, gb(getattr(t, name)))
        t.deputy_arbiters = [gb(a) for a in t.deputy_arbiters]
        t.round_dates = [gb(d) for d in t.round_dates]
        for code, values in t.extra.items():
            if code == "013":  # a team: its name in the first 32 columns, by bytes here
                t.extra[code] = [gb(v[:32]).strip().ljust(32) + v[32:] for v in values]
            else:
                t.extra[code] = [gb(v) for v in values]
    except UnicodeError:
        return False
    return True


def _note(notes: list[Problem] | None, note: Problem) -> None:
    if notes is not None:
        notes.append(note)


_TRF_LINE = re.compile(r"(?:\d{3}|XX[A-Z]|BB[A-Z]|XQ[A-Z])(?: |$)")


def _read_text(text: str, fname: str) -> Tournament:
    if not any(_TRF_LINE.match(line) for line in text.splitlines()):
        raise InputError(problem("not a TRF-16 file: no line starts with a TRF code (012 name, 001 player, …)",
                                 file=fname))
    if is_trf26(text):  # TRF26: its standard records read as the TRF-16 ones they replace (formats/trf26.py)
        text = to_trf16(text, fname)
    with held():  # tens of thousands of small objects: the collector would only rescan them
        return _Reader(fname).read(text)


class _Reader:
    def __init__(self, fname: str):
        self.fname = fname
        self.problems: list[Problem] = []
        self.n_lines = 0  # 001 lines whose number could not be read
        self.all_fit: PointSystem | None = None  # the point system every declared score fits

    def problem(self, line: int | None, column: int | None, message: str | Problem, /, **params) -> None:
        """A problem at ``line``/``column``: ``message`` a template filled from ``params``, or a problem phrased
        elsewhere (the crosstable's), placed here."""
        self.problems.append(replace(message, file=self.fname, line=line, column=column)
                             if isinstance(message, Problem)
                             else problem(message, file=self.fname, line=line, column=column, **params))

    def read(self, text: str) -> Tournament:
        t = Tournament()
        rows: list[_Row] = []
        bb: dict[str, Decimal] = {}
        ext: dict[str, list[tuple[int, str]]] = {"XQI": [], "XQT": [], "XQF": [], "XQW": [], "XQL": [],
                                                  "XQC": [], "XQY": [], "XQX": [], "XQ5": []}
        raw_dates: dict[str, str] = {}
        for no, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            code, value = line[:3], line[4:].rstrip()
            if code == "001":
                row = self.player(no, line)
                if row:
                    rows.append(row)
            elif code in _HEADER_FIELDS:
                setattr(t, _HEADER_FIELDS[code], value.strip())
            elif code in ("042", "052"):
                d = _parse_date(value)
                if d is None and value.strip():
                    raw_dates[code] = value.strip()
                setattr(t, "start_date" if code == "042" else "end_date", d)
            elif code == "112":
                if value.strip():
                    t.deputy_arbiters.extend(a.strip() for a in value.split(",") if a.strip())
            elif code == "132":
                t.round_dates = [line[i : i + 8].strip() for i in range(91, len(line), 10)]
                while t.round_dates and not t.round_dates[-1]:
                    t.round_dates.pop()
            elif code in _COMPUTED:
                continue
            elif code == "XXR":
                try:
                    t.rounds_planned = int(value)
                except ValueError:
                    self.problem(no, 5, "XXR needs a number of rounds, found {value!r}", value=value.strip())
            elif code in _BB:
                try:
                    bb[code] = Decimal(value.strip())
                except InvalidOperation:
                    self.problem(no, 5, "{tag} needs a number of points, found {value!r}", tag=code, value=value.strip())
            elif code in ext:
                parts = value.strip().split(None, 1)
                if len(parts) != 2 or not parts[0].isdecimal():
                    self.problem(no, 5, "{tag} needs a player number and a value", tag=code)
                else:
                    ext[code].append((no, f"{parts[0]} {parts[1]}"))
            else:
                t.extra.setdefault(code, []).append(line[4:].rstrip() if len(line) > 3 else "")
        for code, raw in raw_dates.items():
            t.extra[code] = [raw]  # a date we cannot read is kept as written
        self.check_numbers(rows)
        by_number = {r.entrant.number: r for r in rows}
        self.apply_extensions(ext, by_number)
        t.entrants = [r.entrant for r in sorted(rows, key=lambda r: r.entrant.number)]
        self.normalise_rounds(t)
        self.check_symmetry(rows, by_number, both=is_go(t))
        t.points = self.point_system(bb, rows)
        self.check_scores(t, rows)
        if self.problems:
            key = lambda p: (p.line or 0, p.column if isinstance(p.column, int) else 0)  # noqa: E731
            raise InputError(sorted(self.problems, key=key))
        return t

    # -- one 001 line --------------------------------------------------------------
    def player(self, no: int, line: str) -> _Row | None:
        before = len(self.problems)
        line = line.rstrip("\r")
        if len(line) < 89:
            line = line.ljust(89)
        if line[3] + line[8] + line[13] + line[47] + line[52] + line[56] + line[68] + line[79] + line[84] != " " * 9:
            for s in _SEPARATORS:
                if line[s] != " ":
                    self.problem(no, s + 1, "column {col} must be blank (fields are misaligned)", col=s + 1)
        number = self.integer(no, _F_NUMBER, line[4:8], problem("player number"), required=True)
        rating = self.integer(no, _F_RATING, line[48:52], problem("rating"))
        rank = self.integer(no, _F_RANK, line[85:89], problem("rank"))
        points = None
        if pts := line[80:84].strip():
            try:
                points = Decimal(pts)
            except InvalidOperation:
                self.problem(no, _F_POINTS[0] + 1, "points must be a number like 4.5, found {value!r}", value=pts)
        name = line[14:47].strip()
        if not name:
            self.problem(no, _F_NAME[0] + 1, "the player's name is empty")
        rounds = _fast_cells(line[_CELLS_AT:])
        if rounds is None:  # the slow path names every problem of the cells
            cells = [self.cell(no, start, line[start : start + 10].ljust(10))
                     for start in range(_CELLS_AT, len(line), 10)]
            while cells and cells[-1] is None:
                cells.pop()
            rounds = [c if c is not None else RoundCell(None, "-", "Z") for c in cells]
        if number is None:
            self.n_lines += 1
            return None
        e = Entrant(
            number=number,
            name=name,
            sex=line[9:10].strip(),
            title=line[10:13].strip(),
            rating=rating,
            federation=line[53:56].strip(),
            player_id=line[57:68].strip(),
            birth=line[69:79].strip(),
            points=points,
            rank=rank,
            rounds=rounds,
        )
        cols = list(range(_CELLS_AT + 3, _CELLS_AT + 3 + 10 * len(rounds), 10))  # opponent column of each cell
        return _Row(no, e, cols, broken=len(self.problems) > before)

    def integer(self, no: int, sl: tuple[int, int], text: str, what: Problem, required: bool = False) -> int | None:
        s = text.strip()
        if not s:
            if required:
                self.problem(no, sl[0] + 1, "{what} is missing (columns {first}-{last})", what=what, first=sl[0] + 1,
                             last=sl[1])
            return None
        if not s.isdecimal():
            self.problem(no, sl[0] + 1, "{what} must be a whole number (columns {first}-{last}), found {value!r}",
                         what=what, first=sl[0] + 1, last=sl[1], value=s)
            return None
        return int(s)

    def cell(self, no: int, start: int, chunk: str) -> RoundCell | None:
        """Parse ``"  oooo c r"``; None for a blank cell."""
        if not chunk.strip():
            return None
        rnd = (start - _CELLS_AT) // 10 + 1
        bad = False
        for off in (0, 1, 6, 8):
            if chunk[off] != " ":
                self.problem(no, start + off + 1, "round {round}: column {col} must be blank (misaligned)", round=rnd,
                             col=start + off + 1)
                bad = True
        opp_s, colour, result = chunk[2:6].strip(), chunk[7], chunk[9]
        if colour == " ":
            colour = "-"
        opponent = None
        if opp_s:
            if not opp_s.isdecimal():
                self.problem(no, start + 3, "round {round}: opponent must be a player number, found {value!r}",
                             round=rnd, value=opp_s)
                bad = True
            elif int(opp_s):
                opponent = int(opp_s)
        if colour not in "bw-":
            self.problem(no, start + 8, "round {round}: colour must be b, w or -, found {value!r}", round=rnd,
                         value=colour)
            bad = True
        if result not in PLAYED_RESULTS | FORFEIT_RESULTS | BYE_RESULTS | {" "}:
            self.problem(no, start + 10, "round {round}: unknown result {value!r} (1 0 = W D L + - U H F Z)", round=rnd,
                         value=result)
            bad = True
        elif opponent is None and result in PLAYED_RESULTS:
            self.problem(no, start + 10, "round {round}: result {value!r} of a game without an opponent", round=rnd,
                         value=result)
            bad = True
        elif opponent is not None and result in BYE_RESULTS:
            self.problem(no, start + 10, "round {round}: bye {value!r} written with an opponent ({opponent})",
                         round=rnd, value=result, opponent=opponent)
            bad = True
        elif opponent is not None and result in PLAYED_RESULTS | {" "} and colour == "-":
            self.problem(no, start + 8, "round {round}: a game against {opponent} needs the colour b or w", round=rnd,
                         opponent=opponent)
            bad = True
        if bad:
            return RoundCell(None, "-", "Z")
        return RoundCell(opponent, colour, result)

    # -- whole-file checks -----------------------------------------------------------
    def check_numbers(self, rows: list[_Row]) -> None:
        seen: dict[int, int] = {}
        for r in rows:
            n = r.entrant.number
            if n in seen:
                self.problem(r.line, 5, "player number {number} is used twice (also on line {other_line})", number=n,
                             other_line=seen[n])
            else:
                seen[n] = r.line
        n_players = len(rows) + self.n_lines
        for r in rows:
            if not 1 <= r.entrant.number <= n_players:
                self.problem(r.line, 5, "player number {number} is out of range: numbers run 1..{n}",
                             number=r.entrant.number, n=n_players)

    def apply_extensions(self, ext: dict[str, list[tuple[int, str]]], by_number: dict[int, _Row]) -> None:
        for code, items in ext.items():
            for no, item in items:
                num_s, value = item.split(" ", 1)
                row = by_number.get(int(num_s))
                if row is None:
                    self.problem(no, 5, "{tag} names player {number}, who has no 001 line", tag=code, number=int(num_s))
                    continue
                e = row.entrant
                if code == "XQI":
                    e.id_number = value.strip()
                elif code == "XQT":
                    if value.strip() in ID_TYPES:
                        e.id_type = value.strip()
                    else:
                        self.problem(no, 10, "XQT: {value!r} is not a document type (resident, passport, other)",
                                     value=value.strip())
                elif code == "XQF":
                    e.federation = value.strip()
                elif code == "XQC":
                    e.club = value.strip()
                elif code == "XQ5":
                    if is_country_code(value.strip()):
                        e.nationality = value.strip()
                    else:
                        self.problem(no, 10, f"XQ5: {value.strip()!r} is not a nationality (a 3-letter country "
                                             "code: CHN, KOR, JPN)")
                elif code == "XQY":
                    e.family = value.strip()
                elif code == "XQX":
                    parts = value.split()
                    if len(parts) == 2 and parts[0].isdecimal() and int(parts[0]) >= 1 and parts[1] in ("Z", "H", "F"):
                        e.excused[int(parts[0])] = parts[1]
                    else:
                        self.problem(no, 10, "XQX needs a round and Z, H or F, found {value!r}", value=value)
                elif code == "XQL":
                    if value.strip().isdecimal():
                        e.late_after = int(value.strip())
                    else:
                        self.problem(no, 10, "XQL needs the round after which the player was entered, found {value!r}",
                                     value=value)
                elif value.strip().isdecimal():
                    e.withdrawn_after = int(value.strip())
                else:
                    self.problem(no, 10, "XQW needs the round after which the player withdrew, found {value!r}",
                                 value=value)

    def normalise_rounds(self, t: Tournament) -> None:
        """Rows that stop before the last round with a game: withdrawn, padded with Z.
        A withdrawn player's ``0000 - Z`` pre-filled beyond that round (the writer's
        convention for the rounds not yet paired) is not kept: the rows end together."""
        last_game = rounds_paired(t)
        for e in t.entrants:
            short = len(e.rounds) < last_game
            if short and e.withdrawn_after is None:
                e.withdrawn_after = len(e.rounds)
            while len(e.rounds) < last_game:
                e.rounds.append(RoundCell(None, "-", "Z"))
            if e.withdrawn_after is not None:
                keep = max(last_game, e.withdrawn_after)
                while len(e.rounds) > keep and e.rounds[-1] == _ABSENT:
                    e.rounds.pop()

    def check_symmetry(self, rows: list[_Row], by_number: dict[int, _Row], both: bool = False) -> None:
        n = len(rows) + self.n_lines
        good = {num: r.entrant for num, r in by_number.items() if not r.broken}
        offset = {"opponent": 0, "colour": 5, "result": 7}
        skip = {num for num, r in by_number.items() if r.broken} | (set(range(1, n + 1)) if self.n_lines else set())
        for number, i, field, message in cross_check(good, n, unknown_ok=skip, both=both):
            row = by_number[number]
            col = row.cell_cols[i] + offset[field] if i < len(row.cell_cols) else None
            if field == "opponent" and (other := by_number.get(row.entrant.rounds[i].opponent)):
                message = problem("{why} (line {other_line})", why=message, other_line=other.line)
            self.problem(row.line, col, message)

    def point_system(self, bb: dict[str, Decimal], rows: list[_Row]) -> PointSystem:
        if bb:
            kw = {_BB[k]: v for k, v in bb.items()}
            base = GOMOKU_POINTS
            if "win" in kw:  # forfeits and full byes follow the win unless given
                kw.setdefault("forfeit_win", kw["win"])
                kw.setdefault("full_bye", kw["win"])
                kw.setdefault("pairing_bye", kw["win"])
            if "draw" in kw:
                kw.setdefault("half_bye", kw["draw"])
            return PointSystem(**{**_asdict(base), **kw})
        declared = [r.entrant for r in rows if r.entrant.points is not None]
        for system in (GOMOKU_POINTS, CHESS_POINTS):
            if all(_declared_fits(e, system) for e in declared):
                self.all_fit = system
                return system
        if any(e.points % 1 for e in declared):
            return CHESS_POINTS
        return GOMOKU_POINTS

    def check_scores(self, t: Tournament, rows: list[_Row]) -> None:
        if self.all_fit == t.points:
            return  # every declared score was checked while choosing the point system
        for row in sorted(rows, key=lambda r: r.line):
            e = row.entrant
            if not row.broken and e.points is not None and not _declared_fits(e, t.points):
                self.problem(row.line, _F_POINTS[0] + 1,
                             "player {number} declares {points} points but the results give {got}", number=e.number,
                             points=str(e.points), got=str(score(e, t.points)))


_ABSENT = RoundCell(None, "-", "Z")
_CELLS_RE = re.compile(r"(?:  [ \d]{4} [bw\- ] [10=WDL+\-UHFZ ])*")
_CELL_FIND = re.compile(r"  ([ \d]{4}) ([bw\- ]) ([10=WDL+\-UHFZ ])")


def _fast_cells(body: str) -> list[RoundCell] | None:
    """The round cells of a well-formed line, or None to take the slow path that names each problem."""
    if len(body) % 10:
        body = body.ljust(len(body) + 10 - len(body) % 10)
    if not _CELLS_RE.fullmatch(body):
        return None
    cells: list[RoundCell | None] = []
    append = cells.append
    blank = 0
    for opp, colour, result in _CELL_FIND.findall(body):
        if opp == "    " or opp == "0000":
            if result == " " and colour == " " and opp == "    ":
                append(None)  # a blank cell
                blank += 1
                continue
            if result in PLAYED_RESULTS or result == " ":
                return None
            append(RoundCell(None, "-" if colour == " " else colour, result))
            continue
        if result in BYE_RESULTS or colour == " " or (colour == "-" and result not in FORFEIT_RESULTS):
            return None
        try:
            n = int(opp)
        except ValueError:
            return None
        if not n:
            return None
        append(RoundCell(n, colour, result))
    if blank:
        while cells and cells[-1] is None:
            cells.pop()
        return [c if c is not None else RoundCell(None, "-", "Z") for c in cells]
    return cells  # type: ignore[return-value]


def _asdict(p: PointSystem) -> dict[str, Decimal]:
    return {f.name: getattr(p, f.name) for f in fields(PointSystem)}


def _declared_fits(e: Entrant, system: PointSystem) -> bool:
    """The declared score equals the results, counted with or without the
    pre-filled byes of a round that has no game yet (JaVaFo files do both)."""
    total = score(e, system)
    if e.points == total:
        return True
    if e.rounds and e.rounds[-1].opponent is None:
        return e.points == total - cell_points(e.rounds[-1], system)
    return False


def _parse_date(value: str) -> date | None:
    s = value.strip()
    if not s:
        return None
    m = re.fullmatch(r"(\d{4})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{1,2})", s)
    if m:
        y, mo, d = map(int, m.groups())
    elif m := re.fullmatch(r"(\d{1,2})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{4})", s):
        d, mo, y = map(int, m.groups())
    elif m := re.fullmatch(r"(\d{2})/(\d{2})/(\d{2})", s):  # TRF round dates: YY/MM/DD
        y, mo, d = 2000 + int(m[1]), int(m[2]), int(m[3])
    elif m := re.fullmatch(r"([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})", s):
        mo = _MONTHS.get(m[1].lower(), 0)
        d, y = int(m[2]), int(m[3])
    else:
        return None
    try:
        return date(y, mo, d)
    except ValueError:
        return None


# -- writer ----------------------------------------------------------------------------


def _fit(problems: list[str], e: Entrant, what: str, text: str, width: int, right: bool = False) -> str:
    if len(text) > width:
        problems.append(f"player {e.number}: {what} {text!r} is longer than {width} characters")
        text = text[:width]
    return text.rjust(width) if right else text.ljust(width)


def _points_text(p: Decimal) -> str:
    return f"{p:.1f}"


def write_trf(t: Tournament, *, id_numbers: bool = True, trf26: bool = False) -> str:
    """The TRF-16 text of a tournament (round-trips through ``read_trf``). The score
    written is the one the results give (a stale ``Entrant.points`` is not written).
    ``id_numbers=False`` leaves out the ID numbers (``XQI``): the file for anyone
    but the arbiter and the federation.  ``trf26=True`` writes TRF26 (qiyuan's profile: formats/trf26.py).

    Raises ``ValueError`` if a field does not fit its columns.
    """
    problems: list[str] = []
    out: list[str] = []
    add = out.append
    add(f"012 {t.name}".rstrip())
    add(f"022 {t.city}".rstrip())
    add(f"032 {t.federation}".rstrip())
    for code, d in (("042", t.start_date), ("052", t.end_date)):
        if d is not None:
            add(f"{code} {d:%Y/%m/%d}")
        elif code in t.extra:
            add(f"{code} {t.extra[code][0]}")
        else:
            add(code)
    add(f"062 {len(t.entrants)}")
    add(f"072 {sum(1 for e in t.entrants if e.rating)}")
    for line in t.extra.get("082", []):
        add(f"082 {line}".rstrip())
    for line in t.extra.get("092", []):
        add(f"092 {line}".rstrip())
    add(f"102 {t.chief_arbiter}".rstrip())
    add(f"112 {', '.join(t.deputy_arbiters)}".rstrip())
    add(f"122 {t.time_control}".rstrip())
    if t.round_dates:
        add(("132" + " " * 88 + "".join(f"{d:<8}  " for d in t.round_dates)).rstrip())
    else:
        add("132")
    if t.rounds_planned is not None:
        add(f"XXR {t.rounds_planned}")
    if t.points != GOMOKU_POINTS:
        p = t.points
        for code, field in _BB.items():
            add(f"{code} {getattr(p, field):>4}")
    for code, lines in t.extra.items():
        if code in ("042", "052", "082", "092"):
            continue
        for line in lines:
            add(f"{code} {line}".rstrip())
    if len(t.entrants) > 9999:
        problems.append(f"{len(t.entrants)} players: TRF-16 holds draw numbers up to 9999")
    horizon = _prefill_horizon(t)
    for e in t.entrants:
        add(_player_line(e, t.points, problems, horizon))
    for e in t.entrants:
        if e.id_number and id_numbers:
            add(f"XQI {e.number:>4} {e.id_number}")
            if e.id_type != "resident":
                add(f"XQT {e.number:>4} {e.id_type}")
        if len(e.federation) > 3:
            add(f"XQF {e.number:>4} {e.federation}")
        if e.withdrawn_after is not None:
            add(f"XQW {e.number:>4} {e.withdrawn_after}")
        if e.late_after:
            add(f"XQL {e.number:>4} {e.late_after}")
        if e.club:
            add(f"XQC {e.number:>4} {e.club}")
        if e.nationality:
            add(f"XQ5 {e.number:>4} {e.nationality}")
        if e.family:
            add(f"XQY {e.number:>4} {e.family}")
        for rnd, kind in sorted(e.excused.items()):
            add(f"XQX {e.number:>4} {rnd} {kind}")
    if problems:
        raise ValueError("; ".join(problems))
    text = "\n".join(out) + "\n"
    return from_trf16(text, t) if trf26 else text


def _prefill_horizon(t: Tournament) -> int:
    """The last round a withdrawn player's row is pre-filled ``0000 - Z`` to (JaVaFo /
    bbpPairings: the round to be paired and every remaining round): the rounds planned
    (``XXR``), or the round to be paired when the number of rounds is not known."""
    paired = rounds_paired(t)
    return max(t.rounds_planned, paired) if t.rounds_planned else paired + 1


def _player_line(e: Entrant, points: PointSystem, problems: list[str], horizon: int = 0) -> str:
    # the declared score only where it still fits the results (a JaVaFo file may leave out a pre-filled bye)
    pts = e.points if e.points is not None and _declared_fits(e, points) else score(e, points)
    head = (
        "001 "
        + _fit(problems, e, "number", str(e.number), 4, right=True)
        + " "
        + _fit(problems, e, "sex", e.sex, 1)
        + _fit(problems, e, "title", e.title, 3, right=True)
        + " "
        + _fit(problems, e, "name", e.name, 33)
        + " "
        + _fit(problems, e, "rating", "" if e.rating is None else str(e.rating), 4, right=True)
        + " "
        + (e.federation if len(e.federation) <= 3 else e.federation[:3]).ljust(3)
        + " "
        + _fit(problems, e, "id", e.player_id, 11, right=True)
        + " "
        + _fit(problems, e, "birth date", e.birth, 10)
        + " "
        + _fit(problems, e, "points", _points_text(pts), 4, right=True)
        + " "
        + _fit(problems, e, "rank", "" if e.rank is None else str(e.rank), 4, right=True)
    )
    cells = e.rounds
    if e.withdrawn_after is not None and len(cells) >= e.withdrawn_after:
        cells = cells + [_ABSENT] * (horizon - len(cells))  # pre-filled for every remaining round
    # opponents are draw numbers 1..n, n <= 9999 (checked once by write_trf)
    body = "".join([f"  {'0000' if c.opponent is None else c.opponent:>4} {c.colour} {c.result}" for c in cells])
    return (head + body).rstrip() if not body else head + body
