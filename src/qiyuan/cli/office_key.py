"""``qiyuan office key``: the federation's signing key for its edition bundles — made once, shown."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from qiyuan.cli.lang import N_, _, file_error
from qiyuan.errors import InputError, problem
from qiyuan.cli.office import ActorOption, actor_name, ensure_django, office_app, office_errors, table_progress

key_app = typer.Typer(help=N_("The federation's signing key of its edition bundles: init, show."),
                      no_args_is_help=True)


def register(app: typer.Typer) -> None:
    office_app.add_typer(key_app, name="key")
    office_app.add_typer(bundle_app, name="bundles")
    office_app.add_typer(head_app, name="head")
    office_app.add_typer(witness_app, name="witness")


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


head_app = typer.Typer(help=N_("A list's signed chain head (how many editions, the newest): sign it again."),
                       no_args_is_help=True)
witness_app = typer.Typer(help=N_("Witnesses' countersignatures of the lists' heads: add one."), no_args_is_help=True)


@head_app.command("sign")
def head_sign(
    list_code: Annotated[Optional[str], typer.Option("--list", help=N_("Only this list."))] = None,
) -> None:
    """Sign each list's head again, now (run it daily, so a verifier's --max-age does not find a quiet list's
    head stale)."""
    ensure_django()
    from qiyuan.formats.chain_head import read_head
    from qiyuan.office.heads import sign_head
    from qiyuan.office.lists import find_list
    from qiyuan.office.ratings.models import Edition, RatingList

    with office_errors():
        lists = [find_list(list_code)] if list_code else [
            rl for rl in RatingList.objects.order_by("code") if Edition.objects.filter(rating_list=rl).exists()]
        for rl in lists:
            head = read_head(sign_head(rl)[0])
            typer.echo(_("{list}: head signed {time} ({n} edition(s), the newest {date} #{number})").format(
                list=rl.code, time=head.signed_at, n=head.editions, date=head.newest_date,
                number=head.newest_number))


@witness_app.command("add")
def witness_add(
    file: Annotated[Path, typer.Argument(help=N_("The countersignature a witness made (qiyuan witness sign)."))],
) -> None:
    """Store a witness's countersignature of a list's head; served at /api/v1/lists/CODE/witnesses."""
    ensure_django()
    from qiyuan.formats.signing import fingerprint, load_public
    from qiyuan.office.heads import add_witness

    with office_errors():
        try:
            data = file.read_bytes()
        except OSError as exc:
            raise InputError(problem("{file}: cannot read ({why})", file=str(file), why=file_error(exc))) from None
        c = add_witness(data, str(file))
    typer.echo(_("{witness} ({key}) countersigned {list} ({n} edition(s)): stored").format(
        witness=c.witness or "—", key=fingerprint(load_public(c.public_key)), list=c.head.list_code,
        n=c.head.editions))


bundle_app = typer.Typer(help=N_("Edition bundles anyone can check (qiyuan verify-edition): build them."),
                         no_args_is_help=True)


@bundle_app.command("build")
def build_bundles(
    list_code: Annotated[Optional[str], typer.Option("--list", help=N_("Only this list's editions."))] = None,
    rebuild: Annotated[bool, typer.Option("--rebuild", help=N_("Build and sign every bundle again."))] = False,
) -> None:
    """Build and sign the bundle of every published edition that has none yet, from its stored sheet (publishing
    writes each new edition's bundle once the office has a key; the portal never builds one); each is checked
    against its published digest and inputs digest before it is signed."""
    ensure_django()
    from qiyuan.office.bundles import build_all
    from qiyuan.office.lists import find_list

    with office_errors(), table_progress(_("building")) as progress:
        rl = find_list(list_code) if list_code else None
        done = build_all(rl, rebuild=rebuild, progress=lambda i, n, what: progress(_("bundles"), i, n, what))
    made = sum(1 for b in done if b.built)
    typer.echo(_("{made} bundle(s) built, {kept} already there, in {where}").format(
        made=made, kept=len(done) - made, where=done[0].path.parent))
