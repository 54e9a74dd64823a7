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
                                                             the digest of SHA256SUMS, the qiyuan version, signing date,
                                                             its place in the list's chain, the Merkle root of its lines
    manifest.sig                                             Ed25519 signature of manifest.json (base64)

The archive is written deterministically (sorted names, fixed timestamps), so one edition's bundle has the same
bytes each time it is built.  Pure: bytes in, bytes out.  Reading trusts nothing: a damaged archive, a member
with a strange name, a manifest value of the wrong type is a ``BadBundle`` naming what is wrong, never anything
else (fuzzed in tests/fuzz/test_bundles.py).  The whole format: docs/verification.md.
"""

from __future__ import annotations

import base64
import binascii
import csv
import hashlib
import io
import json
import re
import struct
import zipfile
import zlib
from dataclasses import asdict, dataclass, field
from datetime import date

from qiyuan.errors import Problem, problem
from qiyuan.formats.canonical_text import extra_inputs
from qiyuan.formats.manifest import MANIFEST, manifest_lines, read_manifest

MANIFEST_JSON = "manifest.json"
SIGNATURE = "manifest.sig"
FORMAT = 1
INPUTS = ("inputs/players.csv", "inputs/events.csv", "inputs/games.csv", "inputs/standings.csv",
          "inputs/rules.toml", "inputs/states.json")
OUTPUTS = ("outputs/list.csv", "outputs/changes.csv", "outputs/states.json")
CANONICAL = "outputs/canonical.txt"
#: zlib's level for the bundle's members (any level reads alike; the signature covers the files, not the ZIP)
COMPRESS_LEVEL = 1
#: the inputs canonical version 3 adds (``canonical_text.EXTRA_PARTS``): how each game's result was entered, and the
#: audit log's head when the edition was published
PROVENANCE = "inputs/provenance.csv"
AUDIT_HEAD = "inputs/audit_head.json"
_EXTRA_FILES = {"provenance": PROVENANCE, "audit_head": AUDIT_HEAD}
#: ``inputs/provenance.csv``'s columns (issue 37; docs/verification.md): a game (event, round, its two players as
#: games.csv names them), how its result was entered (``phones``, ``settled``, ``desk``, ``terminal``, ``file``),
#: the record's acts as the public may see them (``what:who:door:when``, who as a role), the time of the last act,
#: and the kind and SHA-256 of the file it was imported in
PROVENANCE_HEADER = ("event_id", "round", "player1", "player2", "entered", "acts", "entered_at", "file_kind",
                     "file_sha256")


def inputs_of(version: int) -> tuple[str, ...]:
    """The inputs a bundle of canonical ``version`` carries: ``INPUTS`` and the files its version adds."""
    return (*INPUTS, *(_EXTRA_FILES[p] for p in extra_inputs(version)))


def provenance_csv(rows) -> bytes:
    """``inputs/provenance.csv`` of rows in ``PROVENANCE_HEADER``'s order (sorted as the office gives them)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(PROVENANCE_HEADER)
    w.writerows(rows)
    return out.getvalue().encode("utf-8")


def audit_head_json(entries: int, head: str) -> bytes:
    """``inputs/audit_head.json``: ``{"entries": N, "head": "<sha256 or empty>"}``, keys sorted, one line."""
    return (json.dumps({"entries": entries, "head": head}, sort_keys=True) + "\n").encode("ascii")
#: at most this much is read from a bundle (a zip bomb is refused, not unpacked)
MAX_BYTES = 1 << 30
_EPOCH = (1980, 1, 1, 0, 0, 0)


#: what unpacking a damaged archive may raise (zipfile lets zlib's, struct's and its own errors through)
ZIP_ERRORS = (zipfile.BadZipFile, zlib.error, struct.error, OSError, ValueError, EOFError, RuntimeError,
              NotImplementedError, KeyError, IndexError, OverflowError, UnicodeDecodeError)
_NAME = re.compile(r"[A-Za-z0-9_.][A-Za-z0-9_./-]{0,199}")
_HEX = re.compile(r"[0-9a-f]{64}")


class BadBundle(ValueError):
    """A file that is not a readable edition bundle (exit 2): what is wrong with it, as a translatable problem."""

    def __init__(self, what: Problem | str):
        self.problem = what if isinstance(what, Problem) else Problem(message=what)
        super().__init__(str(self.problem))


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
    #: the edition's place in its list's chain (1 for the first edition published; 0: a bundle from before places)
    chain_place: int = 0
    #: the Merkle root over the edition's lines, one leaf per player (``qiyuan.formats.merkle``; "" : none)
    merkle_root: str = ""
    format: int = FORMAT
    extra: dict = field(default_factory=dict)

    def text(self) -> bytes:
        data = asdict(self)
        for name in ("chain_place", "merkle_root"):  # a bundle from before them keeps its manifest's bytes
            if not data[name]:
                del data[name]
        return (json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n").encode("utf-8")


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
            # (deflate's fastest level: 3× faster than its default for 22 % more bytes; docs/decisions.md)
            z.writestr(info, everything[name], compresslevel=COMPRESS_LEVEL)
    return buf.getvalue()


def files_digest(files: dict[str, bytes]) -> str:
    return hashlib.sha256(sums_text(files).encode("ascii")).hexdigest()


#: each manifest key's type; the first four are required
_TYPES = {"list_code": str, "list_date": str, "number": int, "edition_digest": str, "previous_digest": str,
          "files_digest": str, "qiyuan_version": str, "signed_at": str, "key_fingerprint": str, "supersedes": str,
          "rules_name": str, "canonical_version": int, "chain_place": int, "merkle_root": str, "format": int,
          "extra": dict}
_REQUIRED = ("list_code", "list_date", "number", "edition_digest", "previous_digest", "files_digest",
             "qiyuan_version", "signed_at")


def manifest_of(raw, label: str = MANIFEST_JSON) -> Manifest:
    """A manifest from its parsed JSON; ``BadBundle`` naming the key that is missing or of the wrong kind."""
    if not isinstance(raw, dict):
        raise BadBundle(problem("{label}: not a JSON object", label=label))
    for key in _REQUIRED:
        if key not in raw:
            raise BadBundle(problem("{label}: no {key}", label=label, key=key))
    for key, kind in _TYPES.items():
        value = raw.get(key)
        if key in raw and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
            raise BadBundle(problem("{label}: {key} is not of the right kind", label=label, key=key))
    try:
        date.fromisoformat(raw["list_date"])
    except ValueError:
        raise BadBundle(problem("{label}: list_date is not a date (YYYY-MM-DD)", label=label)) from None
    for key in ("edition_digest", "files_digest"):
        if not _HEX.fullmatch(raw[key]):
            raise BadBundle(problem("{label}: {key} is not a SHA-256 (64 hex digits)", label=label, key=key))
    for key in ("previous_digest", "supersedes", "merkle_root"):
        if raw.get(key) and not _HEX.fullmatch(raw[key]):
            raise BadBundle(problem("{label}: {key} is not a SHA-256 (64 hex digits)", label=label, key=key))
    if raw["number"] < 1 or raw.get("chain_place", 0) < 0 or raw.get("canonical_version", 0) < 0:
        raise BadBundle(problem("{label}: a number out of range", label=label))
    return Manifest(**{k: raw[k] for k in Manifest.__dataclass_fields__ if k in raw})


def read(data: bytes, label: str = "bundle") -> Bundle:
    """Read a bundle; ``BadBundle`` (what is wrong, translatable) when it is no ZIP, a member is damaged or
    strangely named, its manifest is missing or malformed, or it is too large to unpack."""
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        infos = z.infolist()
    except ZIP_ERRORS:
        raise BadBundle(problem("{label}: not a ZIP archive", label=label)) from None
    if sum(i.file_size for i in infos) > MAX_BYTES:
        raise BadBundle(problem("{label}: unpacks to more than {size} MiB; not an edition bundle", label=label,
                                size=MAX_BYTES >> 20))
    files: dict[str, bytes] = {}
    for info in infos:
        name = info.filename
        if name.endswith("/") and name != "/" and _NAME.fullmatch(name[:-1]):  # a folder's own entry
            continue
        if not _NAME.fullmatch(name) or ".." in name.split("/") or "//" in name:
            raise BadBundle(problem("{label}: a member with a name no bundle has ({name})", label=label,
                                    name=repr(name)[:80]))
        if name in files:
            raise BadBundle(problem("{label}: the member {name} twice", label=label, name=name))
        try:
            files[name] = z.read(info)
        except ZIP_ERRORS:
            raise BadBundle(problem("{label}: the member {name} is damaged", label=label, name=name)) from None
    if MANIFEST_JSON not in files:
        raise BadBundle(problem("{label}: no {name}; not an edition bundle", label=label, name=MANIFEST_JSON))
    manifest_bytes = files.pop(MANIFEST_JSON)
    try:
        raw = json.loads(manifest_bytes.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadBundle(problem("{label}: {name} is not JSON", label=label, name=MANIFEST_JSON)) from None
    manifest = manifest_of(raw, f"{label}: {MANIFEST_JSON}")
    sig = files.pop(SIGNATURE, None)
    try:
        signature = base64.b64decode(sig.strip(), validate=True) if sig is not None else None
    except (ValueError, binascii.Error):
        signature = b""
    return Bundle(files, manifest, manifest_bytes, signature)


def listed_digests(bundle: Bundle) -> dict[str, str]:
    """SHA256SUMS as name → digest (``BadBundle`` when it is missing or malformed)."""
    text = bundle.files.get(MANIFEST)
    if text is None:
        raise BadBundle(problem("no {name}", name=MANIFEST))
    try:
        return read_manifest(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise BadBundle(problem("{name}: a line that is not '<sha256>  <name>'", name=MANIFEST)) from None
