"""An edition bundle (等级分核对包): one ZIP archive with what a published edition was computed from, what it
published, and the federation's signature — enough for anyone to recompute it without the office.

    inputs/players.csv events.csv games.csv standings.csv   the history files of ``qiyuan rate`` (public fields)
    inputs/rules.toml                                        the rule settings, as ``qiyuan rate --rules`` reads them
    inputs/states.json                                       the previous edition's player states (the start)
    outputs/list.csv, outputs/changes.csv                    the list and the changes, as ``qiyuan rate`` writes them
    outputs/states.json                                      the states after the edition (the next bundle's start)
    outputs/canonical.txt                                    the edition's canonical text (its SHA-256 is the digest
                                                             the office published; in bundles the office builds)
    SHA256SUMS                                               each file's SHA-256 (``sha256sum -c`` reads it)
    manifest.json                                            the edition, its digest, the previous edition's digest,
                                                             the digest of SHA256SUMS, the qiyuan version, signing date
    manifest.sig                                             Ed25519 signature of manifest.json (base64)

The archive is written deterministically (sorted names, fixed timestamps), so one edition's bundle has the same
bytes each time it is built.  Pure: bytes in, bytes out.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile
from dataclasses import asdict, dataclass, field

from qiyuan.formats.manifest import MANIFEST, manifest_lines, read_manifest

MANIFEST_JSON = "manifest.json"
SIGNATURE = "manifest.sig"
FORMAT = 1
INPUTS = ("inputs/players.csv", "inputs/events.csv", "inputs/games.csv", "inputs/standings.csv",
          "inputs/rules.toml", "inputs/states.json")
OUTPUTS = ("outputs/list.csv", "outputs/changes.csv", "outputs/states.json")
CANONICAL = "outputs/canonical.txt"
#: at most this much is read from a bundle (a zip bomb is refused, not unpacked)
MAX_BYTES = 1 << 30
_EPOCH = (1980, 1, 1, 0, 0, 0)


class BadBundle(ValueError):
    """A file that is not a readable edition bundle (exit 2): what is wrong with it."""


@dataclass(frozen=True)
class Manifest:
    """What the federation signs."""

    list_code: str
    list_date: str
    number: int
    edition_digest: str
    previous_digest: str  # "" for the list's first edition
    files_digest: str  # SHA-256 of SHA256SUMS
    qiyuan_version: str
    signed_at: str
    key_fingerprint: str = ""
    supersedes: str = ""  # a correction: the digest of the edition it replaces
    rules_name: str = ""
    #: the version of the canonical text in ``outputs/canonical.txt`` (0: the bundle carries none)
    canonical_version: int = 0
    format: int = FORMAT
    extra: dict = field(default_factory=dict)

    def text(self) -> bytes:
        return (json.dumps(asdict(self), ensure_ascii=False, sort_keys=True, indent=1) + "\n").encode("utf-8")


@dataclass(frozen=True)
class Bundle:
    files: dict[str, bytes]  # inputs/…, outputs/…, SHA256SUMS
    manifest: Manifest
    manifest_bytes: bytes
    signature: bytes | None


def sums_text(files: dict[str, bytes]) -> str:
    return manifest_lines((name, hashlib.sha256(data).hexdigest()) for name, data in files.items() if name != MANIFEST)


def write(files: dict[str, bytes], manifest: Manifest, signature: bytes) -> bytes:
    """The bundle's bytes: ``files`` (inputs and outputs), their SHA256SUMS, the manifest and its signature."""
    everything = dict(files)
    everything[MANIFEST] = sums_text(files).encode("ascii")
    everything[MANIFEST_JSON] = manifest.text()
    everything[SIGNATURE] = base64.b64encode(signature) + b"\n"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(everything):
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, everything[name])
    return buf.getvalue()


def files_digest(files: dict[str, bytes]) -> str:
    return hashlib.sha256(sums_text(files).encode("ascii")).hexdigest()


def read(data: bytes, label: str = "bundle") -> Bundle:
    """Read a bundle; ``BadBundle`` when it is no ZIP, lacks its manifest, or is too large to unpack."""
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        infos = z.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise BadBundle(f"{label}: not a ZIP archive ({exc})") from None
    if sum(i.file_size for i in infos) > MAX_BYTES:
        raise BadBundle(f"{label}: unpacks to more than {MAX_BYTES >> 20} MiB; not an edition bundle")
    files: dict[str, bytes] = {}
    try:
        for info in infos:
            if info.is_dir():
                continue
            if info.filename.startswith("/") or ".." in info.filename.split("/"):
                raise BadBundle(f"{label}: a file outside the bundle ({info.filename!r})")
            files[info.filename] = z.read(info)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError) as exc:
        raise BadBundle(f"{label}: a damaged member ({exc})") from None
    if MANIFEST_JSON not in files:
        raise BadBundle(f"{label}: no {MANIFEST_JSON}; not an edition bundle")
    manifest_bytes = files.pop(MANIFEST_JSON)
    try:
        raw = json.loads(manifest_bytes.decode("utf-8"))
        manifest = Manifest(**{k: raw[k] for k in Manifest.__dataclass_fields__ if k in raw})
    except (UnicodeDecodeError, ValueError, TypeError, KeyError) as exc:
        raise BadBundle(f"{label}: {MANIFEST_JSON} is not a manifest ({exc})") from None
    sig = files.pop(SIGNATURE, None)
    try:
        signature = base64.b64decode(sig.strip(), validate=True) if sig is not None else None
    except ValueError:
        signature = b""
    return Bundle(files, manifest, manifest_bytes, signature)


def listed_digests(bundle: Bundle) -> dict[str, str]:
    """SHA256SUMS as name → digest (``BadBundle`` when it is missing or malformed)."""
    text = bundle.files.get(MANIFEST)
    if text is None:
        raise BadBundle(f"no {MANIFEST}")
    try:
        return read_manifest(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadBundle(f"{MANIFEST}: {exc}") from None
