"""A list's signed chain head (链头) and its witnesses' countersignatures: what makes a list's history
impossible to rewrite silently.

``head.json`` names the list, the number of editions published in it, the newest edition (date, number,
digest, the Merkle root of its lines) and the time the head was signed; ``head.sig`` is the federation's
Ed25519 signature of ``head.json``'s bytes, base64.  A verifier that remembers the heads it has checked sees
a list served older than one it saw (rollback), an edition removed (the count), and a head not re-signed for
too long (``--max-age``).  A witness — another body with its own key — countersigns a head; its file
(``witness.json``) carries the head's text, the witness's public key and its signature of that text.

Pure: bytes in, bytes out (docs/verification.md gives the grammar).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime

from qiyuan.errors import problem
from qiyuan.formats.edition_bundle import BadBundle

HEAD_JSON = "head.json"
HEAD_SIG = "head.sig"
WITNESSES = "witnesses"
FORMAT = 1
_HEX = re.compile(r"[0-9a-f]{64}")
_TIME = "%Y-%m-%dT%H:%M:%SZ"
#: a head, a signature or a witness's file is small; anything larger is refused unread
MAX_HEAD_BYTES = 16 << 10


@dataclass(frozen=True)
class Head:
    list_code: str
    editions: int  # how many editions the list has published (corrections included)
    newest_date: str
    newest_number: int
    newest_digest: str
    merkle_root: str  # the newest edition's Merkle root ("" when its bundle carries no canonical text)
    signed_at: str  # UTC, 2026-12-06T12:00:00Z
    key_fingerprint: str = ""
    format: int = FORMAT

    def text(self) -> bytes:
        return (json.dumps(asdict(self), ensure_ascii=False, sort_keys=True, indent=1) + "\n").encode("utf-8")

    @property
    def time(self) -> datetime:
        return datetime.strptime(self.signed_at, _TIME).replace(tzinfo=UTC)

    def same_chain(self, other: Head) -> bool:
        """The same list, count and newest edition (signed at another time: a re-signed head)."""
        return (self.list_code, self.editions, self.newest_digest) == (other.list_code, other.editions,
                                                                       other.newest_digest)


def time_text(when: datetime) -> str:
    return when.astimezone(UTC).strftime(_TIME)


_TYPES = {"list_code": str, "editions": int, "newest_date": str, "newest_number": int, "newest_digest": str,
          "merkle_root": str, "signed_at": str, "key_fingerprint": str, "format": int}


def read_head(data: bytes, label: str = HEAD_JSON) -> Head:
    """``head.json``'s bytes as a ``Head``; ``BadBundle`` naming what is wrong."""
    if len(data) > MAX_HEAD_BYTES:
        raise BadBundle(problem("{label}: larger than a head can be", label=label))
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadBundle(problem("{label}: not JSON", label=label)) from None
    if not isinstance(raw, dict):
        raise BadBundle(problem("{label}: not a JSON object", label=label))
    for key, kind in _TYPES.items():
        if key not in raw and key not in ("key_fingerprint", "format"):
            raise BadBundle(problem("{label}: no {key}", label=label, key=key))
        value = raw.get(key)
        if key in raw and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
            raise BadBundle(problem("{label}: {key} is not of the right kind", label=label, key=key))
    if not _HEX.fullmatch(raw["newest_digest"]) or (raw["merkle_root"] and not _HEX.fullmatch(raw["merkle_root"])):
        raise BadBundle(problem("{label}: a digest that is not a SHA-256 (64 hex digits)", label=label))
    if raw["editions"] < 1 or raw["newest_number"] < 1:
        raise BadBundle(problem("{label}: a number out of range", label=label))
    try:
        date.fromisoformat(raw["newest_date"])
        datetime.strptime(raw["signed_at"], _TIME)
    except ValueError:
        raise BadBundle(problem("{label}: a date or time not in its form", label=label)) from None
    return Head(**{k: raw[k] for k in Head.__dataclass_fields__ if k in raw})


def signature_text(signature: bytes) -> bytes:
    return base64.b64encode(signature) + b"\n"


def read_signature(data: bytes, label: str = HEAD_SIG) -> bytes:
    """A ``.sig`` file's signature (base64 of 64 bytes); ``BadBundle`` when it is not one."""
    try:
        sig = base64.b64decode(data.strip(), validate=True)
    except (ValueError, binascii.Error):
        sig = b""
    if len(sig) != 64:
        raise BadBundle(problem("{label}: not a signature (base64 of 64 bytes)", label=label))
    return sig


@dataclass(frozen=True)
class Countersignature:
    """A witness's countersignature of one head."""

    head_text: bytes
    head: Head
    witness: str  # the witness's name, as it gives it
    public_key: bytes  # PEM
    signature: bytes

    def text(self) -> bytes:
        data = {"format": FORMAT, "head": self.head_text.decode("utf-8"), "witness": self.witness,
                "public_key": self.public_key.decode("ascii"),
                "signature": base64.b64encode(self.signature).decode("ascii")}
        return (json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n").encode("utf-8")


def read_countersignature(data: bytes, label: str = "witness.json") -> Countersignature:
    """A witness's file; ``BadBundle`` naming what is wrong (its signature is checked by who trusts the key)."""
    if len(data) > MAX_HEAD_BYTES:
        raise BadBundle(problem("{label}: larger than a countersignature can be", label=label))
    try:
        raw = json.loads(data.decode("utf-8"))
        head_text = raw["head"].encode("utf-8")
        witness, public_key = raw["witness"], raw["public_key"].encode("ascii")
        signature = read_signature(raw["signature"].encode("ascii"), label)
        if not isinstance(witness, str):
            raise TypeError(witness)
    except BadBundle:
        raise
    except (UnicodeError, ValueError, RecursionError, KeyError, TypeError, AttributeError):
        raise BadBundle(problem("{label}: not a witness's countersignature", label=label)) from None
    return Countersignature(head_text, read_head(head_text, f"{label}: head"), witness, public_key, signature)
