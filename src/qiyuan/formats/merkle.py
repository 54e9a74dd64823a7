"""The Merkle tree over an edition's lines (默克尔树): one leaf per player, so a player can check his own lines
against the signed root with a proof of a few hundred bytes, without the rest of the list.

A player's *lines* are the lines of the edition's canonical text (``outputs/canonical.txt``) that are about
him, in the text's order: his entry line (its first JSON value begins with his federation ID), then his change
lines (``[event, ID]``).  The leaves are the players in the order of their IDs (Unicode code points, i.e. the
bytes of UTF-8); each leaf hashes ``0x00`` then his lines' UTF-8 bytes; an inner node hashes ``0x01``, the left
child, the right child; a tree of n > 1 leaves splits at the largest power of two below n (RFC 9162, §2.1.1).
The events line is in no leaf (the edition's digest covers it).  Pure.
"""

from __future__ import annotations

import hashlib
import json
import re


def leaf_hash(lines: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + lines).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


#: a change line's head as the writer writes it (``["E01","P0001"]``, no escapes): the player is its second string
_CHANGE_HEAD = re.compile(r'\["[^"\\\x00-\x1f]*","([^"\\\x00-\x1f]*)"\]')
#: an entry line's head as the writer writes it: his ID (no escapes), a name, then 8 plain JSON values
_ENTRY_HEAD = re.compile(r'\["([^"\\\x00-\x1f]*)","(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"'
                         r'(?:,(?:-?(?:0|[1-9][0-9]*)|"[^"\\\x00-\x1f]*"|true|false|null)){8}\]')


def _player_of(line: str) -> str:
    """The federation ID a line is about: read by the two patterns above when the head is one of theirs (every
    JSON text they match is an array json.loads reads to the same player), else by json.loads itself."""
    head = line.split("\t", 1)[0]
    got = _CHANGE_HEAD.fullmatch(head) or _ENTRY_HEAD.fullmatch(head)
    if got is not None:
        return got.group(1)
    head = json.loads(head)
    if not isinstance(head, list) or len(head) not in (2, 10) or not all(isinstance(x, str) for x in head[:2]):
        raise ValueError(f"not an entry or change line: {line[:60]}")
    return head[0] if len(head) == 10 else head[1]


def player_lines(canonical: bytes) -> dict[str, bytes]:
    """Each player's lines (UTF-8 bytes, newline-terminated, in the text's order), by federation ID.
    ``ValueError`` when the text is not a canonical text."""
    out: dict[str, list[str]] = {}
    *lines, _events = canonical.decode("utf-8").split("\n")
    for line in lines:
        out.setdefault(_player_of(line), []).append(line + "\n")
    return {who: "".join(ls).encode("utf-8") for who, ls in out.items()}


def leaves(canonical: bytes) -> tuple[list[str], list[bytes]]:
    """The players in leaf order and their leaf hashes."""
    lines = player_lines(canonical)
    order = sorted(lines)
    return order, [leaf_hash(lines[who]) for who in order]


def root(hashes: list[bytes]) -> bytes:
    if not hashes:
        return hashlib.sha256(b"").digest()
    level = list(hashes)
    return _subtree(level, 0, len(level))


def _split(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def _subtree(hashes: list[bytes], lo: int, hi: int) -> bytes:
    n = hi - lo
    if n == 1:
        return hashes[lo]
    k = _split(n)
    return node_hash(_subtree(hashes, lo, lo + k), _subtree(hashes, lo + k, hi))


def root_of(canonical: bytes) -> str:
    """The Merkle root of an edition's canonical text, hex (what its manifest and head carry)."""
    return root(leaves(canonical)[1]).hex()


def inclusion_path(hashes: list[bytes], index: int) -> list[bytes]:
    """The audit path of leaf ``index`` (RFC 9162 §2.1.3.1): the sibling hashes from the leaf up."""
    def path(lo: int, hi: int) -> list[bytes]:
        n = hi - lo
        if n == 1:
            return []
        k = _split(n)
        if index - lo < k:
            return path(lo, lo + k) + [_subtree(hashes, lo + k, hi)]
        return path(lo + k, hi) + [_subtree(hashes, lo, lo + k)]

    return path(0, len(hashes))


def root_from_path(leaf: bytes, index: int, size: int, path: list[bytes]) -> bytes | None:
    """The root an audit path leads to (RFC 9162 §2.1.3.2); None when the path cannot belong to such a tree."""
    if not 0 <= index < size:
        return None
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return r if sn == 0 else None
