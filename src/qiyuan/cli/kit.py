"""``qiyuan verify-edition``: check a published edition from its bundle alone — no office, no database.

    qiyuan verify-edition BUNDLE [--key KEYFILE] [--previous BUNDLE] [--engine fast|reference]
    qiyuan verify-edition --chain DIR|URL [--key KEYFILE]

BUNDLE is a file or an http(s) address on the federation's portal.  Exit 0: identical; 1: something differs
or a check failed (each named); 2: a bundle or key that cannot be read.

The kit (``qiyuan.kit.verify``: the rating engine, NumPy, polars) is imported inside the commands only, as the
office's commands import Django, so that ``qiyuan --help`` and every other command start without loading it.
"""

from __future__ import annotations

import json
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.console import Console

from qiyuan.cli.lang import N_, _, file_error, print_problems, problem_line
from qiyuan.errors import problem
from qiyuan.formats import edition_bundle as B
from qiyuan.formats import signing

if TYPE_CHECKING:
    from qiyuan.kit.verify import Report

#: the kit's layers (``qiyuan.kit.verify.LAYERS``, in its order) as people read them
LAYER_NAMES = {"signature": N_("signature"), "files": N_("files' digests"), "recomputation": N_("recomputation"),
               "chain": N_("chain link")}
_MAX_DOWNLOAD = B.MAX_BYTES


def register(app: typer.Typer) -> None:
    app.command("verify-edition")(verify_edition)


def _unreadable(message: str) -> typer.Exit:
    print_problems([message], _("cannot check:"))
    return typer.Exit(2)


def _fetch(where: str) -> bytes:
    if where.startswith(("http://", "https://")):
        try:
            with urllib.request.urlopen(where, timeout=60) as answer:  # noqa: S310 - http(s) only, checked above
                data = answer.read(_MAX_DOWNLOAD + 1)
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise _unreadable(_("{where}: cannot download ({why})").format(where=where, why=exc)) from None
        if len(data) > _MAX_DOWNLOAD:
            raise _unreadable(_("{where}: larger than a bundle can be").format(where=where))
        return data
    try:
        return Path(where).read_bytes()
    except OSError as exc:
        raise _unreadable(_("{where}: cannot read ({why})").format(where=where, why=file_error(exc))) from None


def _bundle(where: str) -> B.Bundle:
    try:
        return B.read(_fetch(where), label=where)
    except B.BadBundle as exc:
        raise _unreadable(str(exc)) from None


def _key(path: Optional[Path]):
    if path is None:
        return None
    try:
        return signing.load_public(path.read_bytes())
    except OSError as exc:
        raise _unreadable(_("{where}: cannot read ({why})").format(where=path, why=file_error(exc))) from None
    except signing.BadKey as exc:
        raise _unreadable(f"{path}: {exc}") from None


def _print(console: Console, report: Report) -> None:
    console.print(_("edition {edition}").format(edition=report.edition), style="bold", markup=False)
    for layer in LAYER_NAMES:
        state = report.ok[layer]
        if state is None and layer != "signature":
            continue
        word = _("ok") if state else _("FAILED") if state is False else _("not checked")
        console.print("  " + _("{layer}: {verdict}").format(layer=_(LAYER_NAMES[layer]), verdict=word), markup=False)
        for p in report.problems[layer]:
            console.print(f"    {problem_line(p)}", markup=False)
    for p in report.notes:
        console.print(f"  {problem_line(p)}", markup=False)
    console.print("  " + (_("identical") if report.identical else _("differs")), markup=False,
                  style="green" if report.identical else "red")


def verify_edition(
    bundle: Annotated[Optional[str], typer.Argument(help=N_("The edition bundle: a file or an http(s) address."))] = None,
    key: Annotated[Optional[Path], typer.Option("--key", help=N_("The federation's public key (PEM) to trust."))] = None,
    previous: Annotated[Optional[str], typer.Option("--previous", help=N_("The previous edition's bundle: check the chain link."))] = None,
    chain: Annotated[Optional[str], typer.Option("--chain", help=N_("A folder of consecutive bundles, or a list's chain address on the portal (…/api/v1/lists/CODE/chain): check the whole chain."))] = None,
    engine: Annotated[str, typer.Option("--engine", help=N_("fast (NumPy) or reference (the rules' own loop)."))] = "fast",
) -> None:
    """Check a published edition from its bundle: signature, every file's digest, and the edition recomputed
    from its own inputs."""
    if engine not in ("fast", "reference"):
        raise _unreadable(_("--engine is fast or reference, not {engine}").format(engine=engine))
    if (bundle is None) == (chain is None):
        raise _unreadable(_("give one bundle, or --chain DIR"))
    console = Console(highlight=False, soft_wrap=True)
    trusted = _key(key)
    if chain is not None and chain.startswith(("http://", "https://")):
        with tempfile.TemporaryDirectory(prefix="qiyuan-chain-") as tmp:
            _download_chain(chain, Path(tmp))
            ok = _verify_chain(console, Path(tmp), trusted, engine)
    elif chain is not None:
        ok = _verify_chain(console, Path(chain), trusted, engine)
    else:
        before = _bundle(previous) if previous else None
        from qiyuan.kit.verify import check

        report = check(_bundle(bundle), key=trusted, previous=before, engine=engine)
        _print(console, report)
        ok = report.identical
    if not ok:
        raise typer.Exit(1)


def _download_chain(where: str, folder: Path) -> None:
    """Every bundle a list's chain (the portal's ``/api/v1/lists/CODE/chain``) names, into ``folder``."""
    try:
        editions = json.loads(_fetch(where).decode("utf-8"))["editions"]
        links = [(e["file"], e["bundle"]) for e in editions]
    except (UnicodeDecodeError, ValueError, KeyError, TypeError):
        raise _unreadable(_("{where}: not a list's chain (…/api/v1/lists/CODE/chain)").format(where=where)) from None
    if any(not url for _name, url in links):
        raise _unreadable(_("{where}: the federation has no signing key yet: no bundles").format(where=where))
    for name, url in links:
        (folder / Path(name).name).write_bytes(_fetch(url))


def _verify_chain(console: Console, folder: Path, key, engine: str) -> bool:
    from qiyuan.kit.verify import check

    if not folder.is_dir():
        raise _unreadable(_("{where}: not a folder").format(where=folder))
    bundles = [_bundle(str(p)) for p in sorted(folder.glob("*.zip"))]
    if not bundles:
        raise _unreadable(_("{where}: no bundles (*.zip)").format(where=folder))
    by_digest = {b.manifest.edition_digest: b for b in bundles}
    ok = True
    firsts = {}
    for b in sorted(bundles, key=lambda b: (b.manifest.list_code, b.manifest.list_date, b.manifest.number)):
        prev = by_digest.get(b.manifest.previous_digest) if b.manifest.previous_digest else None
        report = check(b, key=key, previous=prev, engine=engine)
        if b.manifest.previous_digest and prev is None:
            report.fail("chain", problem("the previous edition ({digest}) is not in the folder",
                                         digest=b.manifest.previous_digest[:16]))
        if not b.manifest.previous_digest and not b.manifest.supersedes:  # (a correction of the first is no rival)
            firsts.setdefault(b.manifest.list_code, []).append(b)
        _print(console, report)
        ok = ok and report.identical
    for code, first in firsts.items():
        if len(first) > 1:
            console.print(_("{list}: {n} editions claim to be the first").format(list=code, n=len(first)),
                          markup=False, style="red")
            ok = False
    console.print(_("chain of {n} edition(s): {verdict}").format(
        n=len(bundles), verdict=_("identical") if ok else _("differs")), markup=False)
    return ok
