"""``qiyuan office key``: the federation's signing key for its edition bundles — made once, shown."""

from __future__ import annotations

import typer

from qiyuan.cli.lang import N_, _
from qiyuan.cli.office import ActorOption, actor_name, ensure_django, office_app, office_errors

key_app = typer.Typer(help=N_("The federation's signing key of its edition bundles: init, show."),
                      no_args_is_help=True)


def register(app: typer.Typer) -> None:
    office_app.add_typer(key_app, name="key")


@key_app.command("init")
def init(actor: ActorOption = None) -> None:
    """Make the signing key pair once: the private key in the office's var/keys (never in the database), the
    public key to publish."""
    ensure_django()
    from qiyuan.office.signing_key import init_key

    with office_errors():
        info = init_key(actor_name(actor))
    typer.echo(_("signing key made: private {private} (keep it secret, back it up apart from the office), "
                 "public {public}, fingerprint {fingerprint}").format(
        private=info.private_path, public=info.public_path, fingerprint=info.fingerprint))


@key_app.command("show")
def show() -> None:
    """The public key (PEM) and its fingerprint."""
    ensure_django()
    from qiyuan.office.signing_key import key_info

    with office_errors():
        info = key_info()
    typer.echo(info.public_pem.decode("ascii"), nl=False)
    typer.echo(_("fingerprint {fingerprint}").format(fingerprint=info.fingerprint))
