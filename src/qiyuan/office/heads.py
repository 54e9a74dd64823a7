"""A list's signed chain head and its witnesses (链头与见证) in the office: the head signed with the
federation's key, kept beside the bundles (``heads/CODE.json`` and ``.sig``), signed again when the list has
a new edition and by ``qiyuan office head sign`` (daily, so a quiet list's head does not go stale under a
verifier's ``--max-age``); the witnesses' countersignatures stored by ``qiyuan office witness add`` and served
with it (``/api/v1/lists/CODE/witnesses``).  The format is ``qiyuan.formats.chain_head``."""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from datetime import UTC, datetime
from pathlib import Path

from qiyuan.errors import InputError, NotFound, problem
from qiyuan.formats import chain_head as H
from qiyuan.formats import edition_bundle as B
from qiyuan.formats import merkle, signing
from qiyuan.kit.entry import make_proof
from qiyuan.office import sheets
from qiyuan.office.bundle_files import bundle_dir
from qiyuan.office.ratings.models import Edition, RatingList
from qiyuan.office.signing_key import private_key


_LOCK = threading.Lock()


def _paths(code: str) -> tuple[Path, Path]:
    folder = bundle_dir() / "heads"
    return folder / f"{code}.json", folder / f"{code}.sig"


def _replace(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".head-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _witness_dir(code: str) -> Path:
    return bundle_dir() / "witnesses" / code


def sign_head(rating_list, *, key=None, now: datetime | None = None) -> tuple[bytes, bytes]:
    """Sign the list's head now (its newest edition, their count) and keep it; (head.json, head.sig)."""
    editions = list(Edition.objects.filter(rating_list=rating_list).order_by("pk"))
    if not editions:
        raise NotFound(problem("{list}: no published edition, so no head to sign", list=rating_list.code))
    newest = editions[-1]
    key = key or private_key()
    # (the Merkle root its bundle's manifest names: of the canonical text written from its sheet)
    root = merkle.root_of(sheets.text(newest)) if newest.canonical_version else ""
    head = H.Head(list_code=rating_list.code, editions=len(editions), newest_date=newest.list_date.isoformat(),
                  newest_number=newest.number, newest_digest=newest.digest, merkle_root=root,
                  signed_at=H.time_text(now or datetime.now(UTC)),
                  key_fingerprint=signing.fingerprint(key.public_key()))
    text, sig = head.text(), H.signature_text(signing.sign(key, head.text()))
    path, sig_path = _paths(rating_list.code)
    path.parent.mkdir(parents=True, exist_ok=True)
    with _LOCK:  # (each file replaced whole; a reader finding a pair that does not verify signs afresh)
        _replace(sig_path, sig)
        _replace(path, text)
    return text, sig


def current_head(rating_list) -> tuple[bytes, bytes]:
    """The kept head when it still names the list's newest edition and count, else a head signed now."""
    path, sig_path = _paths(rating_list.code)
    try:
        text, sig = path.read_bytes(), sig_path.read_bytes()
        head = H.read_head(text)
        newest = Edition.objects.filter(rating_list=rating_list).order_by("-pk").first()
        count = Edition.objects.filter(rating_list=rating_list).count()
        if newest is not None and (head.newest_digest, head.editions) == (newest.digest, count) and \
                signing.verifies(private_key().public_key(), text, H.read_signature(sig)):
            return text, sig
    except (OSError, B.BadBundle):
        pass
    return sign_head(rating_list)


def add_witness(data: bytes, label: str = "witness.json") -> H.Countersignature:
    """Store a witness's countersignature of one of the office's heads: refused (``InputError``) when it is no
    countersignature, its signature does not verify with the key it carries, or its head is not this office's."""
    try:
        c = H.read_countersignature(data, label)
        key = signing.load_public(c.public_key)
    except B.BadBundle as exc:
        raise InputError(exc.problem) from None
    except signing.BadKey:
        raise InputError(problem("{label}: its public key is not an Ed25519 key", label=label)) from None
    if not signing.verifies(key, c.head_text, c.signature):
        raise InputError(problem("{label}: the countersignature does not verify with the witness's own key",
                                 label=label))
    rl = RatingList.objects.filter(code=c.head.list_code).first()
    if rl is None or not Edition.objects.filter(rating_list=rl, digest=c.head.newest_digest).exists():
        raise InputError(problem("{label}: it countersigns a head that is not one of this office's lists",
                                 label=label))
    folder = _witness_dir(rl.code)
    folder.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha256(c.public_key + c.head_text).hexdigest()[:24]
    (folder / f"{name}.json").write_bytes(c.text())
    return c


def witnesses(rating_list) -> list[bytes]:
    """The countersignatures stored for the list (each file's bytes), newest head first."""
    folder = _witness_dir(rating_list.code)
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    read = []
    for p in files:
        try:
            read.append((H.read_countersignature(p.read_bytes()).head.signed_at, p.read_bytes()))
        except (OSError, B.BadBundle):
            continue
    return [data for _when, data in sorted(read, reverse=True)]


def entry_proof(rating_list, federation_id: str) -> bytes:
    """A player's proof of his lines in the list's newest edition (``qiyuan verify-entry``): his lines, their
    path to the Merkle root, the signed head that names it. ``NotFound`` when he has no line in it, or the
    office has no key."""
    newest = Edition.objects.filter(rating_list=rating_list).order_by("-pk").first()
    if newest is None:
        raise NotFound(problem("{list}: no published edition", list=rating_list.code))
    canonical = sheets.text(newest)  # (its bundle's outputs/canonical.txt; no bundle built for a proof)
    head, sig = current_head(rating_list)
    try:
        return make_proof(canonical, federation_id, head, H.read_signature(sig))
    except (KeyError, ValueError):
        raise NotFound(problem("{player}: no line in {list}'s newest edition", player=federation_id,
                               list=rating_list.code)) from None
