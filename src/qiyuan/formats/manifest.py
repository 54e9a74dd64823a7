"""A manifest of SHA-256 digests (校验清单) for a directory of published files: one line per file,
``<64 hex digits>  <name>``, sorted by name — the format ``sha256sum -c`` reads, so anyone can check a download
without our code.

Pure (no Django): the open-data dump writes it, and a verification bundle can write and check its own with the
same two functions.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

MANIFEST = "SHA256SUMS"
_LINE = re.compile(r"([0-9a-f]{64}) [ *](\S(?:.*\S)?)")
_CHUNK = 1 << 20


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def manifest_lines(digests: Iterable[tuple[str, str]]) -> str:
    """The manifest's text from (name, hex digest) pairs."""
    return "".join(f"{digest}  {name}\n" for name, digest in sorted(digests))


def write_manifest(directory: Path, names: Iterable[str] | None = None, manifest: str = MANIFEST) -> dict[str, str]:
    """Digest ``names`` (default: every file of ``directory`` but the manifest) and write the manifest beside
    them; returns name → digest."""
    directory = Path(directory)
    chosen = sorted(names) if names is not None else sorted(
        p.name for p in directory.iterdir() if p.is_file() and p.name != manifest)
    digests = {name: sha256_file(directory / name) for name in chosen}
    (directory / manifest).write_text(manifest_lines(digests.items()), encoding="ascii")
    return digests


def read_manifest(text: str) -> dict[str, str]:
    """name → digest; ``ValueError`` naming the line when one is not ``<digest>  <name>``."""
    out = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        m = _LINE.fullmatch(line)
        if m is None:
            raise ValueError(f"line {number}: not '<sha256>  <name>'")
        out[m.group(2)] = m.group(1)
    return out


def check_manifest(directory: Path, manifest: str = MANIFEST) -> list[str]:
    """What does not match the manifest: files missing or whose digest differs (empty when all agree)."""
    directory = Path(directory)
    try:
        wanted = read_manifest((directory / manifest).read_text(encoding="ascii"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return [f"{manifest}: {exc}"]
    problems = []
    for name, digest in wanted.items():
        path = directory / name
        if not path.is_file():
            problems.append(f"{name}: missing")
        elif sha256_file(path) != digest:
            problems.append(f"{name}: digest differs")
    return problems
