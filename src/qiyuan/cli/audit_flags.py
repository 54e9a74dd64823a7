"""``qiyuan office flags [list] | check``: the plausibility audit's flags (合理性标记) of a period.

    qiyuan office flags --list CGA --date 2026-07-01        # the flags stored by `period compute`
    qiyuan office flags check 12 --note "arbiter confirmed the result by phone"

Thin: ``qiyuan.office.plausibility`` stores, describes and marks the flags (the desk calls the same).
"""

from __future__ import annotations

from typing import Annotated, Optional

from qiyuan.errors import problem

import typer

from qiyuan.cli.lang import N_, _
from qiyuan.cli.office import ActorOption, _console, actor_name, ensure_django, fail, office_app, office_errors

flags_app = typer.Typer(help=N_("Plausibility flags of a period: list them, mark one checked."),
                        invoke_without_command=True)
office_app.add_typer(flags_app, name="flags")


def register(app: typer.Typer) -> None:
    """The commands are added to ``qiyuan office`` on import."""


@flags_app.callback()
def list_flags(
    ctx: typer.Context,
    list_code: Annotated[Optional[str], typer.Option("--list", "-l", help="Rating list code (default: the only one).")] = None,
    on: Annotated[Optional[str], typer.Option("--date", help="List date YYYY-MM-DD (default: the next due)")] = None,
) -> None:
    """The stored flags of a period (run `qiyuan office period compute` to audit it)."""
    if ctx.invoked_subcommand is not None:
        return
    ensure_django()
    from qiyuan.cli.office_data import date_option, print_flags
    from qiyuan.office.lists import find_list
    from qiyuan.office.periods import due_date
    from qiyuan.office.plausibility import period_flags

    with office_errors():
        rl = find_list(list_code)
        day = date_option(on) or due_date(rl, rl.rules())
        if day is None:
            fail([problem("list {list} has no events", list=rl.code)])
        print_flags(_console(), period_flags(rl, day))


@flags_app.command("check")
def check(
    flag_id: Annotated[int, typer.Argument(help="the flag's number (#12)")],
    note: Annotated[str, typer.Option("--note", help="what was checked (kept with the flag and audited)")],
    actor: ActorOption = None,
) -> None:
    """Mark a flag checked, with a note (audited)."""
    ensure_django()
    from qiyuan.office.plausibility import mark_checked

    with office_errors():
        flag = mark_checked(actor_name(actor), flag_id, note)
    typer.echo(_("flag #{id} marked checked").format(id=flag.pk))
