"""Commands of the rating side: ``qiyuan rate`` (a whole history) and ``qiyuan rules``.

``rate`` reads the history files (and TRF files), checks them all before
doing anything, rates the history with the chosen engine and writes one CSV
per publication date plus ``changes.csv`` — into a temporary directory that
is renamed into place, so bad input (or a crash) writes nothing.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from qiyuan.cli.lang import _, file_error, print_problems
from qiyuan.cli.rules_cmd import register_rules, rules_problem as _rules_problem
from qiyuan.errors import problem
from qiyuan.formats.errors import InputError, Problem
from qiyuan.rating.rules import BUILTIN_RULES, RulesError, RuleSet, load_rules

if TYPE_CHECKING:  # polars and numpy load only when `qiyuan rate` runs: other commands start fast
    from qiyuan.formats.history_csv import HistoryInput

EXIT_BAD_INPUT = 2


class Engine(str, Enum):
    fast = "fast"
    reference = "reference"


def _err() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(problems: list[Problem]) -> None:
    print_problems(problems, _("{count} problem(s) in the input; nothing written:").format(count=len(problems)))
    raise typer.Exit(EXIT_BAD_INPUT)


def _read_trf_files(paths: list[Path]) -> tuple[list, list, list, list[Problem], list[str], list]:
    """Events, games and standings from TRF files, every problem found in them, each event's file,
    and the entrants' player ids (with file and line) to check against players.csv."""
    events, games, standings, problems, files, entrants = [], [], [], [], [], []
    if not paths:
        return events, games, standings, problems, files, entrants
    from qiyuan.formats.history_csv import tournament_players, tournament_rows
    from qiyuan.formats.trf import read_trf

    seen: set[Path] = set()
    for path in paths:
        if path.resolve() in seen:
            problems.append(problem("the same TRF file is given twice", file=str(path), column="--trf"))
            continue
        seen.add(path.resolve())
        try:
            tournament = read_trf(path)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        except OSError as exc:
            problems.append(problem("cannot read the file: {reason}", file=str(path), reason=file_error(exc)))
            continue
        event, event_games, event_standings, event_problems = tournament_rows(tournament, path)
        problems.extend(event_problems)
        if event is not None:
            events.append(event)
            files.append(str(path))
            games.extend(event_games)
            standings.extend(event_standings)
            entrants.extend(tournament_players(tournament, path))
    return events, games, standings, problems, files, entrants


def _check_out_dir(out: Path) -> list[Problem]:
    if out.exists() and not out.is_dir():
        return [problem("--out must be a directory (a file of that name exists)", file=str(out))]
    parent = out.resolve().parent
    if not parent.is_dir():
        return [problem("the directory {directory} does not exist", file=str(out), directory=parent)]
    return []


def _compute(engine: Engine, rules: RuleSet, data: HistoryInput, show_progress: bool, explain: str | None = None):
    from qiyuan.rating.history import compute_history

    def run(progress=None):
        return compute_history(rules, data.players, data.events, data.games, data.standings, engine=engine.value,
                               explain={explain} if explain is not None else (), progress=progress)

    if not show_progress:
        return run()
    with Progress(
        TextColumn("[bold]" + _("rating periods")), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=_err(), transient=True,
    ) as bar:
        task = bar.add_task("rate", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return run(progress)


def _write_atomically(out: Path, write) -> None:
    """Write into a fresh directory beside ``out`` and move it into place only when complete."""
    out = out.resolve()
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    try:
        write(tmp)
        if not out.exists():
            os.replace(tmp, out)
            return
        for item in sorted(tmp.iterdir()):
            os.replace(item, out / item.name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def rate(
    rules: Annotated[str, typer.Option("--rules", help="Rule set name (cga-gomoku-2011, bjsh-gomoku-2007, cn-go-1995) or a TOML file.")],
    players: Annotated[Path, typer.Option("--players", help="The players file (players.csv).")],
    events: Annotated[Path, typer.Option("--events", help="The events file (events.csv).")],
    games: Annotated[Path, typer.Option("--games", help="The games file (games.csv; an optional black column names who had Black, for a variant's colour_advantage).")],
    out: Annotated[Path, typer.Option("--out", help="Directory for the lists (one CSV per date) and changes.csv.")],
    standings: Annotated[Optional[Path], typer.Option("--standings", help="The official ranks (standings.csv).")] = None,
    trf: Annotated[Optional[list[Path]], typer.Option("--trf", help="An event as a TRF file (repeatable).")] = None,
    explain: Annotated[Optional[str], typer.Option("--explain", help="Print this player's calculation tables.")] = None,
    engine: Annotated[Engine, typer.Option("--engine", help="fast (NumPy) or reference (the rules' own loop).")] = Engine.fast,
) -> None:
    """Rate a whole history: every published list and every change."""
    from qiyuan.formats.history_csv import read_history
    from qiyuan.formats.rating_lists_csv import write_history

    problems: list[Problem] = []
    try:
        rule_set = load_rules(rules)
    except RulesError as exc:
        problems.append(_rules_problem(rules, exc))
        rule_set = None
    problems += _check_out_dir(out)
    missing = [problem("no such file", file=str(path)) for path in (players, events, games, standings)
               if path is not None and not path.is_file()]
    if missing:  # said here in the user's language; the readers' own checks follow once the files are there
        _fail(problems + missing)
    trf_events, trf_games, trf_standings, trf_problems, trf_files, trf_players = _read_trf_files(list(trf or []))
    try:
        data = read_history(
            players, events, games, standings,
            extra_events=trf_events, extra_games=trf_games, extra_standings=trf_standings,
            extra_problems=problems + trf_problems, extra_event_files=trf_files, extra_players=trf_players,
        )
    except InputError as exc:
        _fail(list(exc.problems))
    if explain is not None and explain not in {p.id for p in data.players}:
        _fail([problem("no player with id '{id}'", file=str(players), column="--explain", id=explain)])
    assert rule_set is not None

    show_progress = sys.stderr.isatty() and len(data.games) > 20_000
    history = _compute(engine, rule_set, data, show_progress, explain)
    written: list[Path] = []
    _write_atomically(out, lambda directory: written.extend(write_history(directory, history, data.players)))
    console = _err()
    console.print(_("{lists} list(s) and changes.csv written to {out} ({players} players, {events} events, "
                    "{games} games)").format(lists=len(written) - 1, out=out, players=f"{len(data.players):,}",
                                             events=f"{len(data.events):,}", games=f"{len(data.games):,}"),
                  markup=False)
    if explain is not None:
        from qiyuan.rating.explain import render_explanation

        typer.echo(render_explanation(history, explain, {p.id: p for p in data.players},
                                      {e.id: e.name for e in data.events}), nl=False)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the qiyuan app."""
    app.command("rate")(rate)
    register_rules(app)
