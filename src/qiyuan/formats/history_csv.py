"""The history files (等级分历史文件): players.csv, events.csv, games.csv, standings.csv.

UTF-8 CSV with a header row; unknown columns are ignored; the columns are
documented in ``docs/formats.md``. The files are read in bulk with polars
(millions of games in a fraction of a second) and checked as a whole: every
problem (file, line, column, what is wrong) is collected and one
``InputError`` is raised carrying them all.

Line numbers count the header as line 1, so the first data row is line 2
(a quoted field spanning several lines would shift the count; the history
files have no reason to contain one).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from pathlib import Path

import numpy as np
import polars as pl

from qiyuan.errors import problem
from qiyuan.formats.errors import InputError, Problem
from qiyuan.rating.columnar import CODE_OF_RESULT, GameColumns, StandingColumns, concatenate_games
from qiyuan.rating.model import RESULT_ALIASES, Event, EventFormat, Game, Gender, Player, Result, Standing
from qiyuan.tournament.model import Tournament
from qiyuan.tournament.standings import standings as final_standings

LINE = "__line"


def N_(template: str) -> str:
    """A message template handed on before it is used (the catalogue finds it here)."""
    return template


#: what the checks name (translatable words of their messages)
PLAYER_ID, EVENT_ID = problem("player id"), problem("event id")
RATING_RANGE = problem("a rating from 100 to 3500 (at most 2 decimals)")

PLAYER_COLUMNS = ("id", "name", "gender")
PLAYER_OPTIONAL = ("dan", "rating", "games", "k_latched", "registered_on", "reference_rating", "dan_granted_by")
EVENT_COLUMNS = ("id", "name", "start_date", "end_date", "format")
EVENT_OPTIONAL = ("international", "days", "national")
GAME_COLUMNS = ("event_id", "round", "player1", "player2", "result")
GAME_OPTIONAL = ("board", "black")  # black: the id of the player who had Black (player1 or player2), if known
STANDING_COLUMNS = ("event_id", "player_id", "rank")

#: Dan and kyu grades (段/级) accepted in ``players.csv``.
GRADES = tuple(f"{n}d" for n in range(9, 0, -1)) + tuple(f"{n}k" for n in range(1, 11))
FORMATS = tuple(f.value for f in EventFormat)
_DATE = r"^\d{4}-\d{2}-\d{2}$"
#: a published rating: 100 to 3500, at most two decimals (what the office stores)
_RATING = r"^(?:[1-9]\d{2}|[12]\d{3}|3[0-4]\d{2})(?:\.\d{1,2})?$|^3500(?:\.0{1,2})?$"
#: a player's count of rated games before the history: 0 to 100000
_GAMES = r"^(?:\d{1,5}|100000)$"


@dataclass
class HistoryInput:
    """What the four history files hold, checked and typed."""

    players: list[Player]
    events: list[Event]
    games: GameColumns
    standings: StandingColumns


# --------------------------------------------------------------------------------------------
# Reading one file


def _decode_problem(name: str, data: bytes, err: UnicodeDecodeError) -> Problem:
    line = data.count(b"\n", 0, err.start) + 1
    return problem("not UTF-8 text (byte 0x{byte} at offset {offset})", file=name, line=line,
                   byte=f"{data[err.start]:02x}", offset=err.start)


def _ragged_problems(name: str, text: str, width: int) -> list[Problem]:
    problems = []
    reader = csv.reader(io.StringIO(text, newline=""))  # a bare CR ends a line, as in the file's own reading
    try:
        for row in reader:
            if row and len(row) != width and any(cell.strip() for cell in row):
                problems.append(problem("{n} fields where the header has {width}", file=name, line=reader.line_num,
                                        n=len(row), width=width))
    except csv.Error as exc:
        problems.append(problem("not a readable CSV file: {why}", file=name, line=reader.line_num, why=str(exc)))
    return problems


def _read_csv(
    path: Path, required: Sequence[str], optional: Sequence[str], problems: list[Problem]
) -> pl.DataFrame | None:
    """The file as strings (stripped, empty → null) plus its line numbers, or None."""
    name = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        problems.append(problem("cannot read the file: {why}", file=name, why=str(exc.strerror or exc)))
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problems.append(_decode_problem(name, data, exc))
        return None
    if "\x00" in text:
        problems.append(problem("not a CSV text file (NUL byte)", file=name, line=text.count("\n", 0, text.index("\x00")) + 1))
        return None
    first_line = text.splitlines()[0] if text.strip() else ""  # \n, \r\n or a bare \r ends the header
    try:
        raw_header = next(csv.reader([first_line]), [])
    except csv.Error as exc:
        problems.append(problem("not a readable CSV header: {why}", file=name, line=1, why=str(exc)))
        return None
    header = [h.strip() for h in raw_header]
    if not any(header):
        problems.append(problem("empty file: a header row is required", file=name, line=1))
        return None
    missing = [c for c in required if c not in header]
    for column in missing:
        problems.append(problem("required column '{field}' is missing from the header", file=name, line=1, column=column,
                                field=column))
    if missing:
        return None
    duplicated = sorted({h for h in header if h and header.count(h) > 1})
    for column in duplicated:
        problems.append(problem("column '{field}' appears more than once in the header", file=name, line=1,
                                column=column, field=column))
    if duplicated:
        return None
    wanted = [c for c in (*required, *optional) if c in header]
    try:
        frame = pl.read_csv(
            io.BytesIO(data),
            infer_schema=False,
            columns=[raw_header[header.index(c)] for c in wanted],
            has_header=True,
            quote_char='"',
            raise_if_empty=False,
        )
    except pl.exceptions.PolarsError as exc:
        ragged = _ragged_problems(name, text, len(header))
        problems.extend(ragged or [problem("not a readable CSV file: {why}", file=name, why=str(exc).splitlines()[0])])
        return None
    frame = frame.rename({raw_header[header.index(c)]: c for c in wanted})
    # Strip blanks around values and read "" as empty; the checks keep this cheap on big files.
    if b" " not in data and b"\t" not in data and b'""' not in data:
        cleaned = []
    else:
        cleaned = _cleaning(frame, wanted)
    frame = frame.with_columns(cleaned).with_row_index(LINE, offset=2)
    # A blank line is read as a row of nulls: skip it (its line number is kept by the others).
    blank = pl.all_horizontal(pl.col(wanted).is_null())
    if frame.select(blank.any()).item():
        frame = frame.filter(~blank)
    return frame


def _cleaning(frame: pl.DataFrame, wanted: Sequence[str]) -> list[pl.Expr]:
    """Expressions stripping the columns that have blanks and turning "" into null."""
    flags = frame.select(
        *(pl.col(c).str.contains(" ", literal=True).any().alias(f"s{i}") for i, c in enumerate(wanted)),
        *(pl.col(c).str.contains("\t", literal=True).any().alias(f"t{i}") for i, c in enumerate(wanted)),
        *((pl.col(c) == "").any().alias(f"e{i}") for i, c in enumerate(wanted)),
    ).row(0, named=True)
    cleaned = []
    for i, c in enumerate(wanted):
        expr = pl.col(c)
        if flags[f"s{i}"] or flags[f"t{i}"]:
            expr = expr.str.strip_chars()
        if flags[f"s{i}"] or flags[f"t{i}"] or flags[f"e{i}"]:
            cleaned.append(expr.replace("", None))
    return cleaned


def _flag_problem(problems: list[Problem], name: str, frame: pl.DataFrame, mask: pl.Expr, column: str, message: str,
          **params) -> None:
    """One problem per row where ``mask`` holds: ``message`` a template, ``{value}`` in it the cell's value."""
    bad = frame.filter(mask).select(LINE, pl.col(column).alias("__v"))
    for line, value in bad.iter_rows():
        problems.append(problem(message, file=name, line=line, column=column, value=value, **params))


def _require(problems: list[Problem], name: str, frame: pl.DataFrame, columns: Iterable[str]) -> None:
    for column in columns:
        _flag_problem(problems, name, frame, pl.col(column).is_null(), column, "'{field}' is empty", field=column)


def _check_pattern(
    problems: list[Problem], name: str, frame: pl.DataFrame, column: str, pattern: str, what: Problem
) -> None:
    if column in frame.columns:
        bad = pl.col(column).is_not_null() & ~pl.col(column).str.contains(pattern)
        _flag_problem(problems, name, frame, bad, column, "'{value}' is not {what}", what=what)


def _check_date(problems: list[Problem], name: str, frame: pl.DataFrame, column: str) -> None:
    if column in frame.columns:
        parsed = pl.col(column).str.to_date("%Y-%m-%d", strict=False)
        bad = pl.col(column).is_not_null() & (~pl.col(column).str.contains(_DATE) | parsed.is_null())
        _flag_problem(problems, name, frame, bad, column, "'{value}' is not a date (YYYY-MM-DD)")


def _check_choice(
    problems: list[Problem], name: str, frame: pl.DataFrame, column: str, choices: Sequence[str], what: Problem
) -> None:
    if column in frame.columns:
        bad = pl.col(column).is_not_null() & ~pl.col(column).is_in(list(choices))
        _flag_problem(problems, name, frame, bad, column, "unknown {what} '{value}' (one of: {known})", what=what,
              known=", ".join(choices))


def _check_unique(problems: list[Problem], name: str, frame: pl.DataFrame, column: str, what: Problem) -> None:
    _flag_repeats(
        problems, name, frame.drop_nulls(column), [column], column,
        lambda r, first: problem("{what} '{value}' appears twice (first on line {first})", what=what, value=r[column],
                                 first=first),
    )


def _rows(frame: pl.DataFrame, columns: Sequence[str]) -> Iterable[tuple]:
    """The rows' values in ``columns`` order, None for an absent optional column."""
    present = [pl.col(c) if c in frame.columns else pl.lit(None, dtype=pl.String).alias(c) for c in columns]
    return frame.select(present).iter_rows()


def _to_date(text: str | None) -> date | None:
    return date.fromisoformat(text) if text else None


def _flag_bit(text: str | None) -> bool:
    return text == "1"


# --------------------------------------------------------------------------------------------
# The four files


def _ids(frame: pl.DataFrame) -> list[str]:
    return frame.get_column("id").drop_nulls().unique(maintain_order=True).to_list()


def _players(path: Path, problems: list[Problem]) -> tuple[list[Player] | None, list[str] | None]:
    """The players (None if any problem) and the ids found (None if unreadable)."""
    name = str(path)
    frame = _read_csv(path, PLAYER_COLUMNS, PLAYER_OPTIONAL, problems)
    if frame is None:
        return None, None
    before = len(problems)
    _require(problems, name, frame, ("id", "name"))
    _check_unique(problems, name, frame, "id", PLAYER_ID)
    _check_choice(problems, name, frame, "gender", [g.value for g in Gender], problem("gender"))
    _check_choice(problems, name, frame, "dan", GRADES, problem("dan/kyu grade"))
    _check_pattern(problems, name, frame, "rating", _RATING, RATING_RANGE)
    _check_pattern(problems, name, frame, "reference_rating", _RATING, RATING_RANGE)
    _check_pattern(problems, name, frame, "games", _GAMES, problem("a number of games from 0 to 100000"))
    _check_choice(problems, name, frame, "k_latched", ("0", "1"), problem("k_latched value"))
    _check_date(problems, name, frame, "registered_on")
    no_rating = pl.col("rating").is_null() if "rating" in frame.columns else pl.lit(True)
    _flag_problem(
        problems, name, frame, no_rating & pl.col("gender").is_null(), "gender",
        "a player without a rating (newcomer) needs a gender (M or F)",
    )
    if "dan_granted_by" in frame.columns:
        no_dan = pl.col("dan").is_null() if "dan" in frame.columns else pl.lit(True)
        _flag_problem(problems, name, frame, pl.col("dan_granted_by").is_not_null() & no_dan, "dan_granted_by",
              "'{value}' granted a dan, but the row has no dan")
    if len(problems) > before:
        return None, _ids(frame)
    rows = _rows(frame, (*PLAYER_COLUMNS, *PLAYER_OPTIONAL))
    players = [
        Player(
            id=pid,
            name=pname,
            gender=Gender(gender) if gender else None,
            dan=dan,
            rating=Decimal(rating) if rating else None,
            games=int(games) if games else 0,
            k_latched=_flag_bit(latched),
            registered_on=_to_date(registered),
            reference_rating=Decimal(reference) if reference else None,
            dan_granted_by=granted_by,
        )
        for pid, pname, gender, dan, rating, games, latched, registered, reference, granted_by in rows
    ]
    return players, [p.id for p in players]


def _events(path: Path, problems: list[Problem]) -> tuple[list[Event] | None, list[str] | None]:
    """The events (None if any problem) and the ids found (None if unreadable)."""
    name = str(path)
    frame = _read_csv(path, EVENT_COLUMNS, EVENT_OPTIONAL, problems)
    if frame is None:
        return None, None
    before = len(problems)
    _require(problems, name, frame, EVENT_COLUMNS)
    _check_unique(problems, name, frame, "id", EVENT_ID)
    _check_date(problems, name, frame, "start_date")
    _check_date(problems, name, frame, "end_date")
    _check_choice(problems, name, frame, "format", FORMATS, problem("event format"))
    _check_choice(problems, name, frame, "international", ("0", "1"), problem("international value"))
    _check_pattern(problems, name, frame, "days", r"^[1-9]\d*$", problem("a number of days (1, 2, …)"))
    _check_choice(problems, name, frame, "national", ("0", "1"), problem("national value"))
    as_date = {c: pl.col(c).str.to_date("%Y-%m-%d", strict=False) for c in ("start_date", "end_date")}
    bad = frame.filter(as_date["end_date"] < as_date["start_date"]).select(LINE, "start_date", "end_date")
    for line, start, end in bad.iter_rows():
        problems.append(problem("the event ends ({end}) before it starts ({start})", file=name, line=line,
                                column="end_date", end=str(end), start=str(start)))
    if len(problems) > before:
        return None, _ids(frame)
    rows = _rows(frame, (*EVENT_COLUMNS, *EVENT_OPTIONAL))
    events = [
        Event(
            id=eid,
            name=ename,
            start_date=date.fromisoformat(start),
            end_date=date.fromisoformat(end),
            format=EventFormat(fmt),
            international=_flag_bit(international),
            days=int(days) if days else None,
            national=_flag_bit(national),
        )
        for eid, ename, start, end, fmt, international, days, national in rows
    ]
    return events, [e.id for e in events]


def _flag_repeats(
    problems: list[Problem], name: str, frame: pl.DataFrame, key: list[str], column: str | None, describe
) -> None:
    """One problem per row repeating an earlier row's ``key`` (``describe(row, first_line)``)."""
    dup = frame.filter(pl.len().over(key) > 1).with_columns(
        pl.col(LINE).first().over(key).alias("__first"), pl.int_range(pl.len()).over(key).alias("__nth")
    )
    for row in dup.filter(pl.col("__nth") > 0).iter_rows(named=True):
        problems.append(replace(describe(row, row["__first"]), file=name, line=row[LINE], column=column))


def _codes(column: str, ids: Sequence[str] | None) -> pl.Expr:
    """Index of each id in ``ids`` (null when unknown), via an Enum: fast on millions of rows."""
    if ids is None:
        return pl.lit(None, dtype=pl.UInt32).alias(f"__{column}")
    return pl.col(column).cast(pl.Enum(list(ids)), strict=False).to_physical().cast(pl.Int64).alias(f"__{column}")


def _flag_unknown(problems: list[Problem], name: str, frame: pl.DataFrame, column: str, ids, what: Problem) -> None:
    if ids is not None:
        bad = pl.col(column).is_not_null() & pl.col(f"__{column}").is_null()
        _flag_problem(problems, name, frame, bad, column, "unknown {what} '{value}'", what=what)


def _games(
    path: Path, problems: list[Problem], player_ids: Sequence[str] | None, event_ids: Sequence[str] | None
) -> GameColumns | None:
    name = str(path)
    frame = _read_csv(path, GAME_COLUMNS, GAME_OPTIONAL, problems)
    if frame is None:
        return None
    before = len(problems)
    round_ok = pl.col("round").str.contains(r"^0*[1-9]\d{0,8}$")
    boards = "board" in frame.columns and frame["board"].null_count() < len(frame)
    if boards:
        frame = frame.with_columns(pl.when(pl.col("board").str.contains(r"^0*[1-9]\d{0,3}$")).then(pl.col("board"))
                                   .cast(pl.Int64, strict=False).alias("__board"))
    blacks = "black" in frame.columns and frame["black"].null_count() < len(frame)
    if blacks:
        frame = frame.with_columns(pl.when(pl.col("black") == pl.col("player1")).then(1)
                                   .when(pl.col("black") == pl.col("player2")).then(-1)
                                   .otherwise(None).cast(pl.Int8).alias("__black"))
    frame = frame.with_columns(
        _codes("event_id", event_ids),
        _codes("player1", player_ids),
        _codes("player2", player_ids),
        pl.when(round_ok).then(pl.col("round")).cast(pl.Int64, strict=False).alias("__round"),
        pl.col("result").replace_strict(
            {alias: CODE_OF_RESULT[r] for alias, r in RESULT_ALIASES.items()}, default=None, return_dtype=pl.Int8
        ).alias("__result"),
    )
    checks = [(pl.col(c).is_null(), c, N_("'{field}' is empty"), {"field": c}) for c in GAME_COLUMNS]
    for column, ids, what in (("event_id", event_ids, EVENT_ID), ("player1", player_ids, PLAYER_ID),
                              ("player2", player_ids, PLAYER_ID)):
        if ids is not None:
            checks.append((pl.col(column).is_not_null() & pl.col(f"__{column}").is_null(), column,
                           N_("unknown {what} '{value}'"), {"what": what}))
    checks += [
        (pl.col("round").is_not_null() & pl.col("__round").is_null(), "round",
         N_("'{value}' is not a round number (1, 2, …)"), {}),
        (pl.col("result").is_not_null() & pl.col("__result").is_null(), "result",
         N_("unknown result code '{value}' (one of: {known})"), {"known": ", ".join(RESULT_ALIASES)}),
        (pl.col("player1").is_not_null() & (pl.col("player1") == pl.col("player2")), "player2",
         N_("player '{value}' meets himself"), {}),
    ]
    if boards:
        checks.append((pl.col("board").is_not_null() & pl.col("__board").is_null(), "board",
                       N_("'{value}' is not a board number (1, 2, …)"), {}))
    if blacks:
        checks.append((pl.col("black").is_not_null() & pl.col("__black").is_null(), "black",
                       N_("'{value}' is neither player1 nor player2 of the game"), {}))
    # One pass tells which checks found anything; only those list their rows (millions of rows, few faults).
    found = frame.select(*(mask.any().alias(str(i)) for i, (mask, _, _, _) in enumerate(checks))).row(0)
    for hit, (mask, column, message, params) in zip(found, checks):
        if hit:
            _flag_problem(problems, name, frame, mask, column, message, **params)
    _flag_same_games(problems, name, frame, len(player_ids or ()))
    if len(problems) > before or player_ids is None or event_ids is None:
        return None
    return GameColumns(
        event_ids=tuple(event_ids),
        player_ids=tuple(player_ids),
        event=frame["__event_id"].to_numpy().astype(np.int32),
        round=frame["__round"].to_numpy().astype(np.int32),
        player1=frame["__player1"].to_numpy().astype(np.int32),
        player2=frame["__player2"].to_numpy().astype(np.int32),
        result=frame["__result"].to_numpy().astype(np.int8),
        board=frame["__board"].fill_null(0).to_numpy().astype(np.int32) if boards else None,
        black=frame["__black"].fill_null(0).to_numpy().astype(np.int8) if blacks else None,
    )


def _flag_same_games(problems: list[Problem], name: str, frame: pl.DataFrame, n_players: int) -> None:
    """The same game twice: same event, round and pair of players (in either order).

    Checked on the rows whose ids are known, as one int64 key per row
    (event, round, lower, higher player) when it fits, else on the columns.
    """
    key_cols = ["__event_id", "__round", "__player1", "__player2"]
    rows = frame.drop_nulls(key_cols).with_columns(
        pl.min_horizontal("__player1", "__player2").alias("__a"), pl.max_horizontal("__player1", "__player2").alias("__b")
    )
    if not len(rows):
        return
    max_event, max_round = rows["__event_id"].max(), rows["__round"].max()
    p = max(n_players, 1)
    if (max_event + 1) * (max_round + 1) * p * p < 2**62:
        packed = ((pl.col("__event_id") * (max_round + 1) + pl.col("__round")) * p + pl.col("__a")) * p + pl.col("__b")
        rows = rows.filter(packed.is_duplicated())
    key = ["__event_id", "__round", "__a", "__b"]
    rows = rows.with_columns(
        pl.min_horizontal("player1", "player2").alias("__pa"), pl.max_horizontal("player1", "player2").alias("__pb")
    )
    _flag_repeats(
        problems, name, rows, key, None,
        lambda r, first: problem("the same game twice: event {event}, round {round}, {a}–{b} (first on line {first})",
                                 event=r["event_id"], round=r["__round"], a=r["__pa"], b=r["__pb"], first=first),
    )


def _standings(
    path: Path, problems: list[Problem], player_ids: Sequence[str] | None, event_ids: Sequence[str] | None
) -> StandingColumns | None:
    name = str(path)
    frame = _read_csv(path, STANDING_COLUMNS, (), problems)
    if frame is None:
        return None
    before = len(problems)
    _require(problems, name, frame, STANDING_COLUMNS)
    frame = frame.with_columns(
        _codes("event_id", event_ids),
        _codes("player_id", player_ids),
        pl.when(pl.col("rank").str.contains(r"^0*[1-9]\d{0,8}$")).then(pl.col("rank")).cast(pl.Int64, strict=False)
        .alias("__rank"),
    )
    _flag_unknown(problems, name, frame, "event_id", event_ids, EVENT_ID)
    _flag_unknown(problems, name, frame, "player_id", player_ids, PLAYER_ID)
    _flag_problem(problems, name, frame, pl.col("rank").is_not_null() & pl.col("__rank").is_null(), "rank",
          "'{value}' is not a rank (1, 2, …)")
    _flag_repeats(
        problems, name, frame.drop_nulls(["event_id", "player_id"]), ["event_id", "player_id"], "player_id",
        lambda r, first: problem("player '{player}' is ranked twice in event '{event}' (first on line {first})",
                                 player=r["player_id"], event=r["event_id"], first=first),
    )
    if len(problems) > before or player_ids is None or event_ids is None:
        return None
    return StandingColumns(
        event_ids=tuple(event_ids),
        player_ids=tuple(player_ids),
        event=frame["__event_id"].to_numpy().astype(np.int32),
        player=frame["__player_id"].to_numpy().astype(np.int32),
        rank=frame["__rank"].to_numpy().astype(np.int32),
    )


def _in_file_order(problems: list[Problem]) -> list[Problem]:
    """Problems by file (in the order read), then line, then column."""
    files = list(dict.fromkeys(p.file for p in problems))
    return sorted(problems, key=lambda p: (files.index(p.file), p.line or 0, str(p.column or "")))


def read_history(
    players: Path,
    events: Path,
    games: Path,
    standings: Path | None = None,
    *,
    extra_events: Sequence[Event] = (),
    extra_games: Sequence[Game] = (),
    extra_standings: Sequence[Standing] = (),
    extra_problems: Sequence[Problem] = (),
    extra_event_files: Sequence[str] = (),
    extra_players: Sequence[PlayerRef] = (),
) -> HistoryInput:
    """Read and check the history files; raise ``InputError`` listing every problem.

    ``extra_events``/``extra_games`` (e.g. from TRF files) are added to the
    files' rows; their ids must not clash with the files' or each other's
    (``extra_event_files[i]`` names the file of ``extra_events[i]`` in that
    problem) and their players must be in ``players.csv``. ``extra_problems``
    (found by the caller in those other files) are reported together with the
    files' problems. ``extra_players`` (e.g. a TRF's entrants) are checked
    against ``players.csv`` once each, naming their file and line; a game's
    player not covered by them is reported once per event.
    """
    problems: list[Problem] = list(extra_problems)
    player_rows, player_ids = _players(Path(players), problems)
    event_rows, event_ids = _events(Path(events), problems)
    if event_ids is not None:
        given_by = dict.fromkeys(event_ids, str(events))
        files = list(extra_event_files) + ["another input"] * (len(extra_events) - len(extra_event_files))
        for event, file in zip(extra_events, files):
            if event.id in given_by:
                problems.append(problem("event id '{event}' is already given by {other}", file=file,
                                        column="event id", event=event.id, other=given_by[event.id]))
            else:
                given_by[event.id] = file
        event_ids = list(given_by)
    if player_ids is not None:
        known = set(player_ids)
        for ref in extra_players:
            if ref.player_id not in known:
                problems.append(problem("{who}: player id '{player}' is not in {players}", file=ref.file, line=ref.line,
                                        column="player id", who=ref.who, player=ref.player_id, players=str(players)))
        reported = {ref.player_id for ref in extra_players}
        unknown = {(g.event_id, pid) for g in extra_games for pid in (g.player1, g.player2)
                   if pid not in known and pid not in reported}
        for event_id, pid in sorted(unknown):
            problems.append(problem("player id '{player}' is not in {players}", file=f"event {event_id}",
                                    column="player id", player=pid, players=str(players)))
    game_cols = _games(Path(games), problems, player_ids, event_ids)
    standing_rows = _standings(Path(standings), problems, player_ids, event_ids) if standings is not None else None
    if problems:
        raise InputError(_in_file_order(problems))
    assert game_cols is not None and player_rows is not None and event_rows is not None
    if extra_games:
        game_cols = concatenate_games(game_cols, GameColumns.from_games(extra_games, game_cols.event_ids,
                                                                        game_cols.player_ids))
    if standing_rows is None:
        standing_rows = StandingColumns(game_cols.event_ids, game_cols.player_ids, *(np.zeros(0, np.int32),) * 3)
    if extra_standings:
        ev = {e: i for i, e in enumerate(game_cols.event_ids)}
        pi = {p: i for i, p in enumerate(game_cols.player_ids)}
        standing_rows = StandingColumns(
            standing_rows.event_ids,
            standing_rows.player_ids,
            np.concatenate([standing_rows.event, np.array([ev[s.event_id] for s in extra_standings], np.int32)]),
            np.concatenate([standing_rows.player, np.array([pi[s.player_id] for s in extra_standings], np.int32)]),
            np.concatenate([standing_rows.rank, np.array([s.rank for s in extra_standings], np.int32)]),
        )
    return HistoryInput(player_rows, event_rows + list(extra_events), game_cols, standing_rows)


# --------------------------------------------------------------------------------------------
# An event given as a TRF file


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A player id as another file gives it (a TRF entrant's line), checked once against players.csv."""

    file: str
    line: int | None
    player_id: str
    who: str  # e.g. "entrant 3 (张三)"


def _entrant_lines(path: Path | str) -> dict[int, int]:
    """Draw number → line number of the file's ``001`` (player) lines; empty if the file cannot be read."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    lines: dict[int, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith("001") and line[4:8].strip().isdigit():
            lines.setdefault(int(line[4:8]), number)
    return lines


def tournament_players(t: Tournament, path: Path | str) -> list[PlayerRef]:
    """Each entrant's players.csv id with the file and line that give it."""
    lines = _entrant_lines(path)
    return [PlayerRef(str(path), lines.get(e.number), e.player_id.strip(), f"entrant {e.number} ({e.name})")
            for e in t.entrants if e.player_id.strip()]


#: The event file's formats (``XQM`` line, written by ``qiyuan event new --format``) as rated:
#: a double round robin is a round robin whose pairs met twice (the cycles come from the games).
TRF_FORMATS = {
    "swiss": EventFormat.SWISS,
    "round_robin": EventFormat.ROUND_ROBIN,
    "double_round_robin": EventFormat.ROUND_ROBIN,
    "knockout": EventFormat.KNOCKOUT,
    "match": EventFormat.MATCH,
    "team": EventFormat.TEAM,
}


def _trf_event_format(t: Tournament) -> EventFormat | str:
    """The format the file records (``XQM``); without one, inferred from the pairings.

    Inferred: a round robin when every pair of entrants met equally often
    (once, twice, …), else Swiss. An ``XQM`` value we do not know is returned
    as text, for the caller to report.
    """
    recorded = t.extra.get("XQM")
    if recorded:
        value = recorded[0].strip()
        return TRF_FORMATS.get(value, value)
    n = len(t.entrants)
    meetings: dict[tuple[int, int], int] = {}
    for e in t.entrants:
        for c in e.rounds:
            if c.opponent is not None and c.opponent > e.number:
                pair = (e.number, c.opponent)
                meetings[pair] = meetings.get(pair, 0) + 1
    every_pair_alike = n > 2 and len(meetings) == n * (n - 1) // 2 and len(set(meetings.values())) == 1
    return EventFormat.ROUND_ROBIN if every_pair_alike else EventFormat.SWISS


def _trf_result(own: str, other: str | None) -> Result | None:
    """A TRF cell pair → a games.csv result from the lower draw number's side (None: not a game)."""
    if own == "-" and other == "-":
        return Result.NOT_PLAYED
    if own == other and own in ("1", "+"):
        return Result.BOTH_WIN
    if own == other == "0":
        return Result.BOTH_LOSS
    return {"1": Result.WIN, "0": Result.LOSS, "=": Result.DRAW, "+": Result.FORFEIT_WIN, "-": Result.FORFEIT_LOSS}.get(own)


def _unfinished_rounds(t: Tournament, name: str, lines: dict[int, int]) -> list[Problem]:
    """One problem per round with a game paired but not yet played (result blank): the event is not finished.

    An unfinished event is not rated: rating it would rate its players on part
    of their games and count the rest nowhere (decision: bad input, not a warning).
    """
    unplayed: dict[int, set[tuple[int, int]]] = {}
    for e in t.entrants:
        for rnd, cell in enumerate(e.rounds, start=1):
            if cell.opponent is not None and cell.result == " ":
                unplayed.setdefault(rnd, set()).add((min(e.number, cell.opponent), max(e.number, cell.opponent)))
    problems = []
    for rnd, pairs in sorted(unplayed.items()):
        first = min(pairs)
        problems.append(problem(
            "{n} game(s) paired without a result (first: {a}–{b}): the event is not finished; rate it when every "
            "result is in", file=name, line=lines.get(first[0]), column=problem("round {round}", round=rnd),
            n=len(pairs), a=first[0], b=first[1]))
    return problems


def tournament_rows(
    t: Tournament, path: Path | str
) -> tuple[Event | None, list[Game], list[Standing], list[Problem]]:
    """The event (id = the file's name without extension), its games and ranks from a TRF tournament.

    Each game is read once, from the lower draw number's cell; byes and
    unplayed cells are skipped, forfeits become ``+-``/``-+``, TRF's unrated
    results (W/D/L) are left out. Every entrant needs the players.csv id in
    the TRF id field. The format is the file's ``XQM`` line (``qiyuan event
    new --format``; a double round robin is rated as a round robin); a file
    without one is a round robin when every pair met equally often, else Swiss.
    The ranks are the file's rank column; a file without ranks is ranked by
    score and the tie-breaks (名次之决定), players still equal sharing a place.
    """
    name = str(path)
    problems: list[Problem] = []
    if t.start_date is None or t.end_date is None:
        problems.append(problem("a rated event needs its start and end dates", file=name, column="042/052"))
    elif t.end_date < t.start_date:
        problems.append(problem("the event ends ({end}) before it starts ({start})", file=name, column="052",
                                end=str(t.end_date), start=str(t.start_date)))
    by_number = {e.number: e for e in t.entrants}
    lines = _entrant_lines(path)
    for e in t.entrants:
        if not e.player_id.strip():
            problems.append(problem("entrant {number} ({name}) has no player id", file=name, line=lines.get(e.number),
                                    column="player id", number=e.number, name=e.name))
    problems += _unfinished_rounds(t, name, lines)
    fmt = _trf_event_format(t)
    if not isinstance(fmt, EventFormat):
        problems.append(problem("unknown event format '{value}' (one of: {known})", file=name, column="XQM", value=fmt,
                                known=", ".join(TRF_FORMATS)))
    if problems:
        return None, [], [], problems
    event_id = Path(name).stem
    event = Event(event_id, t.name or event_id, t.start_date, t.end_date, fmt)
    games: list[Game] = []
    for e in t.entrants:
        for rnd, cell in enumerate(e.rounds, start=1):
            if cell.opponent is None or cell.opponent <= e.number or cell.opponent not in by_number:
                continue
            other = by_number[cell.opponent].rounds
            other_result = other[rnd - 1].result if rnd <= len(other) else None
            result = _trf_result(cell.result, other_result)
            if result is not None:
                games.append(Game(event_id, rnd, e.player_id.strip(), by_number[cell.opponent].player_id.strip(), result))
    standings = [Standing(event_id, e.player_id.strip(), e.rank) for e in t.entrants if e.rank]
    if not standings:  # no rank column (qiyuan's event files): score, then the tie-breaks; shared places stay shared
        standings = [Standing(event_id, by_number[row.number].player_id.strip(), row.rank) for row in final_standings(t)]
    return event, games, standings, problems
