"""A stranger's verifier, written from docs/verification.md alone: no import from qiyuan (the test checks it).
Checks a bundle's SHA256SUMS, manifest signature, canonical digest and Merkle root, a chain head's signature
and count, and a player's proof."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.serialization import load_pem_public_key


def _verifies(pem: bytes, data: bytes, sig_b64: bytes) -> bool:
    try:
        load_pem_public_key(pem).verify(base64.b64decode(sig_b64.strip()), data)
    except InvalidSignature:
        return False
    return True


def _mth(hashes):
    if not hashes:
        return hashlib.sha256(b"").digest()
    if len(hashes) == 1:
        return hashes[0]
    k = 1
    while k * 2 < len(hashes):
        k *= 2
    return hashlib.sha256(b"\x01" + _mth(hashes[:k]) + _mth(hashes[k:])).digest()


def lines_by_player(canonical: bytes) -> dict[str, bytes]:
    out: dict[str, list[str]] = {}
    *lines, _events = canonical.decode("utf-8").split("\n")
    for line in lines:
        head = json.loads(line.split("\t", 1)[0])
        out.setdefault(head[0] if len(head) == 10 else head[1], []).append(line + "\n")
    return {k: "".join(v).encode("utf-8") for k, v in out.items()}


def verify_bundle(data: bytes, public_pem: bytes) -> list[str]:
    problems = []
    z = zipfile.ZipFile(io.BytesIO(data))
    files = {n: z.read(n) for n in z.namelist()}
    manifest_bytes = files["manifest.json"]
    if not _verifies(public_pem, manifest_bytes, files["manifest.sig"]):
        problems.append("signature")
    manifest = json.loads(manifest_bytes)
    if hashlib.sha256(files["SHA256SUMS"]).hexdigest() != manifest["files_digest"]:
        problems.append("SHA256SUMS")
    for line in files["SHA256SUMS"].decode("ascii").splitlines():
        digest, name = line.split("  ", 1)
        if hashlib.sha256(files[name]).hexdigest() != digest:
            problems.append(name)
    canonical = files["outputs/canonical.txt"]
    if hashlib.sha256(canonical).hexdigest() != manifest["edition_digest"]:
        problems.append("edition digest")
    lines = lines_by_player(canonical)
    leaves = [hashlib.sha256(b"\x00" + lines[k]).digest() for k in sorted(lines)]
    if _mth(leaves).hex() != manifest["merkle_root"]:
        problems.append("merkle root")
    states = json.loads(files["outputs/states.json"])
    for pid, s in states["states"].items():
        if set(s) != {"g", "r", "x", "n", "l", "s", "rs", "is", "a", "nc"}:
            problems.append(f"state {pid}")
    return problems


def verify_head(head: bytes, sig: bytes, public_pem: bytes, manifests: list[dict]) -> list[str]:
    problems = []
    if not _verifies(public_pem, head, sig):
        problems.append("head signature")
    h = json.loads(head)
    if h["editions"] != len(manifests) or sorted(m["chain_place"] for m in manifests) != list(
            range(1, h["editions"] + 1)):
        problems.append("count")
    newest = max(manifests, key=lambda m: m["chain_place"])
    if newest["edition_digest"] != h["newest_digest"] or newest["merkle_root"] != h["merkle_root"]:
        problems.append("newest")
    return problems


def verify_proof(proof: bytes, public_pem: bytes) -> bool:
    p = json.loads(proof)
    if not _verifies(public_pem, p["head"].encode("utf-8"), p["head_signature"].encode("ascii")):
        return False
    fn, sn = p["index"], p["size"] - 1
    r = hashlib.sha256(b"\x00" + p["lines"].encode("utf-8")).digest()
    for sibling in (base64.b64decode(x) for x in p["path"]):
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = hashlib.sha256(b"\x01" + sibling + r).digest()
            while not fn & 1 and fn:
                fn >>= 1
                sn >>= 1
        else:
            r = hashlib.sha256(b"\x01" + r + sibling).digest()
        fn >>= 1
        sn >>= 1
    return sn == 0 and r.hex() == json.loads(p["head"])["merkle_root"]
