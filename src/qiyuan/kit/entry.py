"""A player's own lines, checked offline (核对本人记录): an inclusion proof from his lines up to the Merkle root
the list's signed head names — a few hundred bytes beside his lines, whatever the size of the list.

``proof.json``: ``{"format": 1, "player": ID, "lines": his lines (text), "index": his leaf's place, "size": the
number of leaves, "path": [sibling hashes, base64], "head": head.json's text, "head_signature": base64}``
(docs/verification.md).  Pure.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field

from qiyuan.errors import Problem, problem
from qiyuan.formats import chain_head as H
from qiyuan.formats import merkle as M
from qiyuan.formats import signing
from qiyuan.formats.edition_bundle import BadBundle

FORMAT = 1


def make_proof(canonical: bytes, player: str, head_text: bytes, head_sig: bytes) -> bytes:
    """The proof of ``player``'s lines in the edition whose canonical text is ``canonical`` (the head's newest);
    ``KeyError`` when he has no line in it."""
    lines = M.player_lines(canonical)
    order = sorted(lines)
    hashes = [M.leaf_hash(lines[who]) for who in order]
    index = order.index(player) if player in lines else None
    if index is None:
        raise KeyError(player)
    data = {"format": FORMAT, "player": player, "lines": lines[player].decode("utf-8"), "index": index,
            "size": len(order), "path": [base64.b64encode(h).decode("ascii") for h in M.inclusion_path(hashes, index)],
            "head": head_text.decode("utf-8"), "head_signature": base64.b64encode(head_sig).decode("ascii")}
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def proof_size(proof: bytes) -> int:
    """The proof's bytes beside the player's own lines."""
    raw = json.loads(proof)
    return len(proof) - len(json.dumps(raw["lines"], ensure_ascii=False).encode("utf-8"))


@dataclass
class EntryResult:
    player: str
    head: H.Head
    lines: list[str]
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check_proof(data: bytes, key) -> EntryResult:
    """``BadBundle`` when the file is not a proof; else what was found (``ok`` when the head's signature and the
    path to its Merkle root both hold)."""
    bad = problem("not a player's proof (proof.json)")
    try:
        raw = json.loads(data.decode("utf-8"))
        player, lines, index, size = raw["player"], raw["lines"], raw["index"], raw["size"]
        if not (isinstance(player, str) and isinstance(lines, str) and type(index) is int and type(size) is int
                and isinstance(raw["path"], list) and len(raw["path"]) <= 64):
            raise TypeError
        path = [base64.b64decode(h, validate=True) for h in raw["path"]]
        head_text = raw["head"].encode("utf-8")
        sig = H.read_signature(raw["head_signature"].encode("ascii"))
    except BadBundle:
        raise
    except (UnicodeError, ValueError, RecursionError, KeyError, TypeError, AttributeError, binascii.Error):
        raise BadBundle(bad) from None
    head = H.read_head(head_text)
    result = EntryResult(player, head, lines.splitlines())
    if not signing.verifies(key, head_text, sig):
        result.problems.append(problem("the head's signature does not match with this key"))
    try:
        about = set(M.player_lines(lines.encode("utf-8") + b"[]"))
    except (ValueError, RecursionError):
        about = set()
    if about != {player} or not lines.endswith("\n"):
        result.problems.append(problem("the lines are not all {player}'s", player=player))
    if any(len(h) != 32 for h in path) or not head.merkle_root:
        result.problems.append(problem("the proof does not lead to the head's Merkle root"))
    elif M.root_from_path(M.leaf_hash(lines.encode("utf-8")), index, size, path) != bytes.fromhex(head.merkle_root):
        result.problems.append(problem("the proof does not lead to the head's Merkle root"))
    return result
