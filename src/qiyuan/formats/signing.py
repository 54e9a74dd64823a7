"""The federation's signature on its editions (签名): Ed25519 keys, signatures and fingerprints, by the
``cryptography`` library.  Keys are PEM text; a fingerprint is ``SHA256:`` and the hex digest of the raw
public key in groups of four, short enough to print on a page and compare by eye."""

from __future__ import annotations

import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey


class BadKey(ValueError):
    """A key file that is not an Ed25519 key of the expected kind."""


def new_key() -> tuple[bytes, bytes]:
    """A fresh key pair as PEM: (private, public)."""
    private = Ed25519PrivateKey.generate()
    return (private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()),
            public_pem(private.public_key()))


def public_pem(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


def load_private(pem: bytes) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(pem, password=None)
    except (ValueError, TypeError) as exc:
        raise BadKey(f"not a private key in PEM form ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise BadKey("not an Ed25519 private key")
    return key


def load_public(pem: bytes) -> Ed25519PublicKey:
    try:
        key = serialization.load_pem_public_key(pem)
    except (ValueError, TypeError) as exc:
        raise BadKey(f"not a public key in PEM form ({exc})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise BadKey("not an Ed25519 public key")
    return key


def fingerprint(key: Ed25519PublicKey) -> str:
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    digest = hashlib.sha256(raw).hexdigest()
    return "SHA256:" + " ".join(digest[i:i + 4] for i in range(0, 32, 4))


def sign(key: Ed25519PrivateKey, data: bytes) -> bytes:
    return key.sign(data)


def verifies(key: Ed25519PublicKey, data: bytes, signature: bytes) -> bool:
    try:
        key.verify(signature, data)
    except InvalidSignature:
        return False
    return True
