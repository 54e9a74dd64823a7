"""The federation's signing key (签名密钥): made once by the office, the private half kept outside the database
(``var/keys/``, readable by the office's own user only), the public half published on the portal and in the API.

Editions are signed when their bundles are built; anyone checks them with the public key
(``qiyuan verify-edition BUNDLE --key federation.pub.pem``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from qiyuan.errors import Conflict, NotFound, problem
from qiyuan.formats import signing
from qiyuan.office.audit.models import record

PRIVATE = "edition-signing.key.pem"
PUBLIC = "edition-signing.pub.pem"


def key_dir() -> Path:
    """``QIYUAN_KEY_DIR`` when set (a mounted secret, another disk), else the office's ``var/keys``."""
    return Path(os.environ.get("QIYUAN_KEY_DIR") or settings.VAR_DIR / "keys")


@dataclass(frozen=True)
class KeyInfo:
    private_path: Path
    public_path: Path
    fingerprint: str
    public_pem: bytes


def init_key(actor: object) -> KeyInfo:
    """Make the key pair (once): refused when one exists — a new key would orphan every signature made."""
    d = key_dir()
    private, public = d / PRIVATE, d / PUBLIC
    if private.exists() or public.exists():
        raise Conflict(problem("the office has a signing key already ({path}); a new one would leave every "
                               "signature made so far unverifiable", path=str(private)))
    d.mkdir(parents=True, exist_ok=True)
    os.chmod(d, 0o700)
    private_pem, public_pem = signing.new_key()
    fd = os.open(private, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(private_pem)
    public.write_bytes(public_pem)
    info = key_info()
    record(actor, "office.key_init", None, fingerprint=info.fingerprint)
    return info


def key_info() -> KeyInfo:
    """The office's public key and its fingerprint (NotFound before ``office key init``)."""
    d = key_dir()
    try:
        pem = (d / PUBLIC).read_bytes()
    except FileNotFoundError:
        raise NotFound(problem("the office has no signing key yet: qiyuan office key init")) from None
    return KeyInfo(d / PRIVATE, d / PUBLIC, signing.fingerprint(signing.load_public(pem)), pem)


def private_key():
    """The private key, for signing bundles (NotFound before ``office key init``)."""
    try:
        return signing.load_private((key_dir() / PRIVATE).read_bytes())
    except FileNotFoundError:
        raise NotFound(problem("the office has no signing key yet: qiyuan office key init")) from None


def key_exists() -> bool:
    """Whether the office has its signing key (so bundles, heads and players' proofs can be served)."""
    return (key_dir() / PUBLIC).is_file()
