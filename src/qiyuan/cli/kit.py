"""``qiyuan verify-edition``: check a published edition from its bundle alone — no office, no database.

    qiyuan verify-edition BUNDLE [--key KEYFILE] [--previous BUNDLE] [--engine fast|reference]
    qiyuan verify-edition --chain DIR|URL [--key KEYFILE] [--witness KEYFILE …] [--max-age DAYS]
    qiyuan verify-entry PROOF --key KEYFILE
    qiyuan witness sign HEAD --key PRIVATE_KEY --name NAME

BUNDLE is a file or an http(s) address on the federation's portal.  Exit 0: identical; 1: something differs
or a check failed (each named); 2: a bundle, listing or key that cannot be read (named, never a traceback).
``--chain URL`` fetches only http(s) addresses of the listing's own site, capped and timed (``kit.fetch``).

The kit (``qiyuan.kit.verify``: the rating engine, NumPy, polars) is imported inside the commands only, as the
office's commands import Django, so that ``qiyuan --help`` and every other command start without loading it.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.console import Console

from qiyuan.cli.lang import N_, _, file_error, print_problems, problem_line
from qiyuan.errors import Problem
from qiyuan.formats import chain_head as H
from qiyuan.formats import edition_bundle as B
from qiyuan.formats import signing

if TYPE_CHECKING:
    from qiyuan.kit.chain import ChainReport
    from qiyuan.kit.verify import Report

#: the kit's layers (``qiyuan.kit.verify.LAYERS``, in its order) as people read them
LAYER_NAMES = {"signature": N_("signature"), "files": N_("files' digests"), "recomputation": N_("recomputation"),
               "chain": N_("chain link")}
witness_app = typer.Typer(help=N_("Countersign a list's chain head as a witness (another body's own key)."),
                          no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.command("verify-edition")(verify_edition)
    app.command("verify-entry")(verify_entry)
    app.add_typer(witness_app, name="witness")


def _unreadable(message: Problem | str) -> typer.Exit:
    print_problems([message], _("cannot check:"))
    return typer.Exit(2)


def _read_file(where: Path | str, limit: int | None = None) -> bytes:
    path = Path(where)
    try:
        if path.is_dir():
            raise IsADirectoryError(str(path))
        if path.exists() and not path.is_file():  # a device (/dev/zero), a pipe: never read
            raise _unreadable(_("{where}: not a regular file").format(where=where))
        if limit is not None and path.stat().st_size > limit:
            raise _unreadable(_("{where}: larger than a bundle can be").format(where=where))
        return path.read_bytes()
    except OSError as exc:
        raise _unreadable(_("{where}: cannot read ({why})").format(where=where, why=file_error(exc))) from None


def _fetch(where: str) -> bytes:
    from qiyuan.kit.fetch import MAX_BUNDLE_BYTES, fetch

    if where.startswith(("http://", "https://")):
        try:
            return fetch(where)
        except B.BadBundle as exc:
            raise _unreadable(exc.problem) from None
    return _read_file(where, MAX_BUNDLE_BYTES)


def _bundle(where: str) -> B.Bundle:
    try:
        return B.read(_fetch(where), label=where)
    except B.BadBundle as exc:
        raise _unreadable(exc.problem) from None


def _key(path: Optional[Path], private: bool = False):
    if path is None:
        return None
    data = _read_file(path, 1 << 16)
    try:
        return signing.load_private(data) if private else signing.load_public(data)
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


def _print_chain(console: Console, report: ChainReport) -> None:
    for r in report.reports:
        _print(console, r)
    if report.head is not None:
        h = report.head
        console.print(_("signed head: {list}, {n} edition(s), the newest {date} #{number}, signed {time}").format(
            list=h.list_code, n=h.editions, date=h.newest_date, number=h.newest_number, time=h.signed_at),
            markup=False)
    for p in report.notes:
        console.print(f"  {problem_line(p)}", markup=False)
    for p in report.problems:
        console.print(f"  {problem_line(p)}", markup=False, style="red")
    console.print(_("chain of {n} edition(s): {verdict}").format(
        n=len(report.reports), verdict=_("identical") if report.identical else _("differs")), markup=False)


def verify_edition(
    bundle: Annotated[Optional[str], typer.Argument(help=N_("The edition bundle: a file or an http(s) address."))] = None,
    key: Annotated[Optional[Path], typer.Option("--key", help=N_("The federation's public key (PEM) to trust."))] = None,
    previous: Annotated[Optional[str], typer.Option("--previous", help=N_("The previous edition's bundle: check the chain link."))] = None,
    chain: Annotated[Optional[str], typer.Option("--chain", help=N_("A folder of a list's bundles with its signed head (head.json, head.sig), or a list's chain address on the portal (…/api/v1/lists/CODE/chain): check the whole chain."))] = None,
    witness: Annotated[Optional[list[Path]], typer.Option("--witness", help=N_("A witness's public key (PEM): its countersignature of the chain's head is required (with --chain)."))] = None,
    max_age: Annotated[Optional[int], typer.Option("--max-age", min=0, help=N_("Refuse a chain whose head was signed more than this many days ago (with --chain)."))] = None,
    engine: Annotated[str, typer.Option("--engine", help=N_("fast (NumPy) or reference (the rules' own loop)."))] = "fast",
) -> None:
    """Check a published edition from its bundle: signature, every file's digest, and the edition recomputed
    from its own inputs; with --chain, a list's whole chain against its signed head."""
    if engine not in ("fast", "reference"):
        raise _unreadable(_("--engine is fast or reference, not {engine}").format(engine=engine))
    if (bundle is None) == (chain is None):
        raise _unreadable(_("give one bundle, or --chain DIR"))
    if chain is None and (witness or max_age is not None):
        raise _unreadable(_("--witness and --max-age check a chain's head: give --chain"))
    console = Console(highlight=False, soft_wrap=True)
    trusted = _key(key)
    witnesses = [_key(w) for w in witness or []]
    if chain is not None:
        ok = _chain(console, chain, trusted, witnesses, max_age, engine)
    else:
        before = _bundle(previous) if previous else None
        from qiyuan.kit.verify import check

        report = check(_bundle(bundle), key=trusted, previous=before, engine=engine)
        _print(console, report)
        ok = report.identical
    if not ok:
        raise typer.Exit(1)


def _chain(console: Console, where: str, key, witnesses: list, max_age: int | None, engine: str) -> bool:
    from qiyuan.kit.chain import Memory, check_chain

    if where.startswith(("http://", "https://")):
        bundles, head, sig, countersignatures = _download_chain(where, bool(witnesses))
    else:
        bundles, head, sig, countersignatures = _chain_folder(Path(where))
    try:
        report = check_chain(bundles, head, sig, key=key, engine=engine, countersignatures=countersignatures,
                             witness_keys=witnesses, memory=Memory(),
                             max_age=timedelta(days=max_age) if max_age is not None else None)
    except B.BadBundle as exc:
        raise _unreadable(exc.problem) from None
    _print_chain(console, report)
    return report.identical


def _chain_folder(folder: Path) -> tuple[list[B.Bundle], bytes, bytes, list[bytes]]:
    """A folder's bundles (``*.zip``), its signed head (``head.json``, ``head.sig``, required) and its
    witnesses' countersignatures (``witnesses/*.json``)."""
    if not folder.is_dir():
        raise _unreadable(_("{where}: not a folder").format(where=folder))
    paths = sorted(folder.glob("*.zip"))
    if not paths:
        raise _unreadable(_("{where}: no bundles (*.zip)").format(where=folder))
    if not (folder / H.HEAD_JSON).is_file() or not (folder / H.HEAD_SIG).is_file():
        raise _unreadable(_("{where}: no signed head (head.json and head.sig): a chain without one can be cut "
                            "short unseen").format(where=folder))
    head = _read_file(folder / H.HEAD_JSON, H.MAX_HEAD_BYTES)
    sig = _read_file(folder / H.HEAD_SIG, H.MAX_HEAD_BYTES)
    witnesses = [_read_file(p, H.MAX_HEAD_BYTES) for p in sorted((folder / H.WITNESSES).glob("*.json"))]
    return [_bundle(str(p)) for p in paths], head, sig, witnesses


def _download_chain(where: str, with_witnesses: bool) -> tuple[list[B.Bundle], bytes, bytes, list[bytes]]:
    """Every bundle a list's chain (the portal's ``/api/v1/lists/CODE/chain``) names, its signed head and (when
    asked) its witnesses — only from the listing's own origin."""
    from qiyuan.kit.chain import MAX_LISTING_BYTES, read_listing, read_witness_list
    from qiyuan.kit.fetch import fetch

    try:
        listing = read_listing(fetch(where, limit=MAX_LISTING_BYTES), where)
        bundles = [B.read(fetch(url, base=where), label=name) for name, url in listing.bundles]
        countersignatures = []
        if with_witnesses and listing.witnesses:
            countersignatures = read_witness_list(fetch(listing.witnesses, base=where, limit=MAX_LISTING_BYTES),
                                                  listing.witnesses)
    except B.BadBundle as exc:
        raise _unreadable(exc.problem) from None
    return bundles, listing.head, listing.head_sig, countersignatures


def verify_entry(
    proof: Annotated[Path, typer.Argument(help=N_("A player's proof (from his page: …/proof.json)."))],
    key: Annotated[Path, typer.Option("--key", help=N_("The federation's public key (PEM) to trust."))],
) -> None:
    """Check one player's lines in a list's newest edition, offline: the signed head, and his lines' inclusion
    proof up to the Merkle root it names."""
    from qiyuan.kit.entry import check_proof

    trusted = _key(key)
    try:
        result = check_proof(_read_file(proof, 1 << 20), trusted)
    except B.BadBundle as exc:
        raise _unreadable(exc.problem) from None
    console = Console(highlight=False, soft_wrap=True)
    h = result.head
    console.print(_("{player} in {list} {date} #{number} (signed head: {n} edition(s), {time})").format(
        player=result.player, list=h.list_code, date=h.newest_date, number=h.newest_number, n=h.editions,
        time=h.signed_at), markup=False)
    for line in result.lines:
        console.print("  " + line, markup=False)
    for p in result.problems:
        console.print(f"  {problem_line(p)}", markup=False, style="red")
    console.print("  " + (_("identical") if result.ok else _("differs")), markup=False)
    if not result.ok:
        raise typer.Exit(1)


@witness_app.command("sign")
def witness_sign(
    head: Annotated[Path, typer.Argument(help=N_("The head to countersign (head.json, from the list's chain)."))],
    key: Annotated[Path, typer.Option("--key", help=N_("The witness's own private key (PEM)."))],
    name: Annotated[str, typer.Option("--name", help=N_("The witness's name, as it signs."))] = "",
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help=N_("Where to write the countersignature (default: witness-FINGERPRINT.json)."))] = None,
) -> None:
    """Countersign a list's chain head with the witness's own key: the file the office stores (office witness
    add) and serves beside the head."""
    private = _key(key, private=True)
    text = _read_file(head, H.MAX_HEAD_BYTES)
    try:
        parsed = H.read_head(text, str(head))
    except B.BadBundle as exc:
        raise _unreadable(exc.problem) from None
    c = H.Countersignature(text, parsed, name, signing.public_pem(private.public_key()), signing.sign(private, text))
    fp = signing.fingerprint(private.public_key())
    out = output or Path(f"witness-{fp.split(':')[1].replace(' ', '')[:16]}.json")
    out.write_bytes(c.text())
    typer.echo(_("countersigned {list} ({n} editions) as {key}: {path}").format(
        list=parsed.list_code, n=parsed.editions, key=fp, path=out))
