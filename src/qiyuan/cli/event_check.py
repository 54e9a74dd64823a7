"""``qiyuan event check`` (does a finished event keep its rules?) and ``qiyuan event generate`` (a random
finished event, seeded): the commands over ``qiyuan.tournament.check``."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from qiyuan.cli.event_file import _fail, _load, event_app, refusals
from qiyuan.cli.lang import _


@refusals
def event_check(event: Path = typer.Argument(..., help="the event file (TRF) to check")) -> None:
    """Replay a finished event round by round under its own system and name every pairing and standing that
    breaks the rules (round, board, rule); "consistent" otherwise.  Exit 0 consistent, 1 deviations, 2 not
    checkable or bad input."""
    from qiyuan.tournament.check import check_event, verdict_lines  # (the pairing core loads NumPy: not at start-up)

    t = _load(event, players=True)
    v = check_event(t)
    sys.stdout.write("".join(line + "\n" for line in verdict_lines(v, _)))
    raise typer.Exit(v.exit_code)


@refusals
def event_generate(
    event: Path = typer.Argument(..., help="the event file to write (must not exist)"),
    system: str = typer.Option("swiss", help="swiss | round_robin | double_round_robin | knockout | match | team | "
                                               "go_mcmahon | go_swiss"),
    seed: int = typer.Option(..., help="the seed: the same seed gives the same event"),
    players: int | None = typer.Option(None, min=2, max=500, help="players (default 8..40 by the seed)"),
    rounds: int | None = typer.Option(None, min=1, max=99, help="rounds of a Swiss event or match (default 5..11)"),
    trf26: bool = typer.Option(False, "--trf26", help="write FIDE's TRF26 (qiyuan's Gomoku/Go profile) instead of "
                                                       "TRF-16"),
) -> None:
    """Write a random finished event (players, rounds, draws, forfeits, withdrawals, absences, late entries,
    keep-apart), seeded and reproducible, as an event file."""
    from qiyuan.formats.eventstore import write_atomically
    from qiyuan.formats.trf import write_trf
    from qiyuan.tournament.check.generate import generate_event
    from qiyuan.tournament.systems import SYSTEMS

    if system not in SYSTEMS:
        raise _fail(_("error: unknown system {system!r}: choose one of {choices}").format(
            system=system, choices=", ".join(SYSTEMS)))
    if event.exists():
        raise _fail(_("error: {file} already exists: nothing written").format(file=event))
    t = generate_event(system, seed, players=players, rounds=rounds)
    write_atomically(event, write_trf(t, trf26=trf26).encode("utf-8"), label=str(event))
    sys.stdout.write(_("wrote {file} ({players} players, {rounds} rounds)").format(
        file=event, players=len(t.entrants), rounds=t.rounds_played) + "\n")


def register(app: typer.Typer) -> None:
    """Add ``event check`` and ``event generate`` to the event group."""
    event_app.command("check")(event_check)
    event_app.command("generate")(event_generate)
