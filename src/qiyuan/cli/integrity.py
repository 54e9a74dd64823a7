"""``qiyuan office integrity``: the integrity checks of a period (诚信检查) — manipulation patterns before publishing.

    qiyuan office integrity --list CGA --date 2026-07-01      # run the checks, store and show the flags
    qiyuan office flags check 12 --note "a club league: the same six every year"   # accept one (audited)
    qiyuan office integrity hold 12 --reason "organiser asked for the score sheets"  # hold its event
    qiyuan office integrity held                              # the events held for review
    qiyuan office integrity release CN-2026-07 --reason "score sheets seen"

Integrity flags share the plausibility flags' numbering and gate: `period publish` refuses while one of a
report is undecided, unless `--accept-flags REASON`. A flag never changes a rating; a held event is left out of
its period and, once released, rated by `qiyuan office period correct`.

Thin: ``qiyuan.office.integrity`` (and ``periods.check_integrity``) do the work; the desk calls the same.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from qiyuan.cli.lang import N_, _
from qiyuan.cli.office import ActorOption, _console, actor_name, ensure_django, office_app, office_errors

integrity_app = typer.Typer(help=N_("Integrity checks of a period: closed pools, thrown games, phantom events, "
                                    "sandbagging, repeated pairs; hold an event for review or release it."),
                            invoke_without_command=True)
office_app.add_typer(integrity_app, name="integrity")


def register(app: typer.Typer) -> None:
    """The commands are added to ``qiyuan office`` on import."""


@integrity_app.callback()
def run_checks(
    ctx: typer.Context,
    list_code: Annotated[Optional[str], typer.Option("--list", "-l", help="Rating list code (default: the only one).")] = None,
    on: Annotated[Optional[str], typer.Option("--date", help="List date YYYY-MM-DD (default: the next due)")] = None,
) -> None:
    """Run the integrity checks on a period's events and show their flags (stored for the publication's gate)."""
    if ctx.invoked_subcommand is not None:
        return
    ensure_django()
    from qiyuan.cli.office_data import date_option, print_flags
    from qiyuan.office.lists import find_list
    from qiyuan.office.periods import check_integrity

    with office_errors():
        rl = find_list(list_code)
        day = date_option(on)
        day, flags = check_integrity(rl, day)
    console = _console()
    console.print(f"[bold]{rl.code} {day}[/] " + _("integrity checks: {count} flag(s)").format(count=len(flags)))
    if flags:
        print_flags(console, flags)
        console.print(_("decide each: accept it (qiyuan office flags check ID --note NOTE) or hold its event "
                        "(qiyuan office integrity hold ID --reason REASON)"), markup=False)


@integrity_app.command("hold")
def hold_event(
    flag_id: Annotated[int, typer.Argument(help="the integrity flag's number (#12)")],
    reason: Annotated[str, typer.Option("--reason", help="why the event is held (audited)")],
    actor: ActorOption = None,
) -> None:
    """Hold the flag's event out of its period for review (public as "held for review", naming nobody)."""
    ensure_django()
    from qiyuan.office.integrity import hold

    with office_errors():
        held = hold(actor_name(actor), flag_id, reason)
    typer.echo(_("{event} held for review: it is left out of its period until released").format(
        event=held.event.code))


@integrity_app.command("release")
def release_event(
    event: Annotated[str, typer.Argument(help="the event's code")],
    reason: Annotated[str, typer.Option("--reason", help="why it is released (audited)")],
    actor: ActorOption = None,
) -> None:
    """Release an event held for review: the next publication rates it, or `period correct` when its period is already published."""  # noqa: E501
    ensure_django()
    from qiyuan.office.integrity import release

    with office_errors():
        held = release(actor_name(actor), event, reason)
    typer.echo(_("{event} released: if its period is already published, rate it with qiyuan office period correct "
                 "--date LIST_DATE --reason REASON").format(event=held.event.code))


@integrity_app.command("held")
def list_held(
    list_code: Annotated[Optional[str], typer.Option("--list", "-l", help="Rating list code (default: the only one).")] = None,
) -> None:
    """The events held for review."""
    ensure_django()
    from qiyuan.office.integrity import held_events
    from qiyuan.office.lists import find_list

    with office_errors():
        holds = held_events(find_list(list_code))
    if not holds:
        typer.echo(_("no event is held for review"))
    for h in holds:
        typer.echo(_("{event} {name}: held for review since {day} by {who}: {reason}").format(
            event=h.event.code, name=h.event.name, day=h.held_at.date(), who=h.held_by, reason=h.reason))
