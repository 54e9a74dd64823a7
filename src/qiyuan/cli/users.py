"""``qiyuan office user add | list``: staff accounts of the desk (arbiters, officers, admins).

    qiyuan office user add wang --role arbiter            # the password is asked twice
    qiyuan office user add li --role officer --password-file pw.txt
    qiyuan office user list

Thin: reads the options and the password, calls ``qiyuan.web.staff.add_user``, prints.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import enum

import typer

from qiyuan.cli.lang import N_, _, file_error
from qiyuan.errors import problem
from qiyuan.cli.office import ActorOption, actor_name, ensure_django, fail, office_app, office_errors

#: the roles as people read them (the option takes the code)
ROLE_NAMES = {"arbiter": N_("arbiter"), "officer": N_("officer"), "admin": N_("administrator")}


class Role(str, enum.Enum):
    """The option's choices (the use case checks the role itself)."""

    arbiter = "arbiter"
    officer = "officer"
    admin = "admin"

user_app = typer.Typer(help=N_("Staff accounts of the desk: add, list, unlock."), no_args_is_help=True)
office_app.add_typer(user_app, name="user")


def register(app: typer.Typer) -> None:
    """The commands are added to ``qiyuan office`` on import."""


@user_app.command("add")
def add(
    name: Annotated[str, typer.Argument(metavar=N_("USERNAME"), help="the user name (letters, digits, @ . + - _)")],
    role: Annotated[Role, typer.Option("--role", help="arbiter | officer | admin")],
    password_file: Annotated[Optional[Path], typer.Option(
        "--password-file", help="read the password from this file's first line instead of asking")] = None,
    actor: ActorOption = None,
) -> None:
    """Create a desk user with one role (the password is asked twice, or read from --password-file)."""
    if password_file is not None:
        try:
            lines = password_file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            fail([problem("cannot read the password ({reason})", file=str(password_file), reason=file_error(exc))])
        password = lines[0] if lines else ""
    else:
        password = typer.prompt(_("password"), hide_input=True,
                                confirmation_prompt=_("Repeat for confirmation"))
    ensure_django()
    from qiyuan.errors import QiyuanError
    from qiyuan.web.staff import add_user

    with office_errors():
        try:
            user = add_user(actor_name(actor), name, password, role.value)
        except QiyuanError as exc:
            fail(exc.problems)
    typer.echo(_("user {name} created with the role {role}; sign in at /desk/login/").format(
        name=user.username, role=_(ROLE_NAMES[role.value])))


@user_app.command("unlock")
def unlock(
    key: Annotated[str, typer.Argument(help="the user name (or, with --address, the client address)")],
    address: Annotated[bool, typer.Option("--address", help="lift an address's lockout, not an account's")] = False,
    actor: ActorOption = None,
) -> None:
    """Lift a login lockout (10 failed logins for an account or 30 from an address in 15 minutes), audited."""
    ensure_django()
    from qiyuan.errors import QiyuanError
    from qiyuan.web.login_guard import lift_lockout

    with office_errors():
        try:
            lift_lockout(actor_name(actor), "address" if address else "account", key)
        except QiyuanError as exc:
            fail(exc.problems)
    typer.echo((_("lockout of address {key} lifted") if address else _("lockout of account {key} lifted")).format(
        key=key))


@user_app.command("list")
def list_users() -> None:
    """Every desk user with his roles and whether he is active."""
    ensure_django()
    from django.contrib.auth import get_user_model

    from qiyuan.web.desk.permissions import roles_of

    with office_errors():
        for u in get_user_model().objects.order_by("username"):
            roles = _(", ").join(_(ROLE_NAMES.get(r, r)) for r in sorted(roles_of(u))) if u.is_active \
                else _("inactive")
            typer.echo(f"{u.username}\t{roles or '-'}")
