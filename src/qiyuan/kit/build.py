"""Building an edition bundle: the inputs and outputs of one edition, its manifest, signed."""

from __future__ import annotations

from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version

from qiyuan.formats import edition_bundle as B
from qiyuan.formats import merkle, signing


def qiyuan_version() -> str:
    try:
        return version("qiyuan")
    except PackageNotFoundError:
        return "unknown"


def build(files: dict[str, bytes], *, private_key, list_code: str, list_date: str, number: int,
          edition_digest: str, previous_digest: str = "", supersedes: str = "", rules_name: str = "",
          canonical_version: int = 0, signed_at: datetime | None = None, chain_place: int = 0) -> bytes:
    """The bundle of one edition: ``files`` holds its inputs and outputs (``inputs/…``, ``outputs/…``); its
    manifest states its place in the list's chain and, with a canonical text, the Merkle root of its lines."""
    missing = [n for n in (*B.inputs_of(canonical_version), *B.OUTPUTS, *([B.CANONICAL] if canonical_version else [])) if n not in files]
    if missing:
        raise ValueError(f"a bundle needs {', '.join(missing)}")
    manifest = B.Manifest(
        list_code=list_code, list_date=list_date, number=number, edition_digest=edition_digest,
        previous_digest=previous_digest, files_digest=B.files_digest(files), qiyuan_version=qiyuan_version(),
        signed_at=(signed_at or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        key_fingerprint=signing.fingerprint(private_key.public_key()), supersedes=supersedes, rules_name=rules_name,
        canonical_version=canonical_version, chain_place=chain_place,
        merkle_root=merkle.root_of(files[B.CANONICAL]) if canonical_version else "")
    text = manifest.text()
    return B.write(files, manifest, signing.sign(private_key, text))
