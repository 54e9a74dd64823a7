"""Checking the inputs canonical version 3 adds to a bundle (docs/verification.md): ``inputs/provenance.csv`` —
well-formed, its kinds the known ones, one row for each game of ``inputs/games.csv`` and none besides — and
``inputs/audit_head.json`` — an audit log's head (its entries and newest hash). Their bytes are covered by
SHA256SUMS and the signature like every member's; this says whether what they say can be read and fits the games.
Trusts nothing: any bytes give named problems, never an error (fuzzed in tests/fuzz/test_provenance_inputs.py)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter

from qiyuan.errors import Problem, problem
from qiyuan.formats import edition_bundle as B
from qiyuan.formats.canonical_text import extra_inputs
from qiyuan.tournament.hall import ENTERED

_HEX = re.compile(r"[0-9a-f]{64}")
#: at most this many problems are named per file (a file wrong on every line says so once per line up to this)
SHOWN = 20


def input_problems(files: dict[str, bytes], version: int) -> list[Problem]:
    """What is wrong with the version's added inputs in ``files`` (none before version 3; a missing file is the
    files layer's own problem)."""
    extra = extra_inputs(version)
    out: list[Problem] = []
    if "provenance" in extra and B.PROVENANCE in files:
        out += provenance_problems(files[B.PROVENANCE], files.get("inputs/games.csv", b""))
    if "audit_head" in extra and B.AUDIT_HEAD in files:
        out += audit_head_problems(files[B.AUDIT_HEAD])
    return out


def _csv_rows(data: bytes) -> list[list[str]] | None:
    try:
        return list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    except (UnicodeDecodeError, csv.Error):
        return None


def provenance_problems(data: bytes, games: bytes) -> list[Problem]:
    """``inputs/provenance.csv`` against ``inputs/games.csv``: its header, each line's fields, and the games."""
    name = B.PROVENANCE
    rows = _csv_rows(data)
    if rows is None:
        return [problem("not UTF-8 CSV text", file=name)]
    if not rows or tuple(rows[0]) != B.PROVENANCE_HEADER:
        return [problem("the first line is not the header {header}", file=name,
                        header=",".join(B.PROVENANCE_HEADER))]
    out: list[Problem] = []
    named: Counter = Counter()
    for line, row in enumerate(rows[1:], start=2):
        if len(out) >= SHOWN:
            break
        if len(row) != len(B.PROVENANCE_HEADER):
            out.append(problem("{count} fields, not {expected}", file=name, line=line,
                               count=len(row), expected=len(B.PROVENANCE_HEADER)))
            continue
        event, rnd, first, second, how, _acts, _at, _kind, sha = row
        if how not in ENTERED:
            out.append(problem("entered {value!r} is not one of {known}", file=name, line=line,
                               value=how[:40], known=", ".join(ENTERED)))
        if not (rnd.isascii() and rnd.isdigit()):
            out.append(problem("round {value!r} is not a whole number", file=name, line=line,
                               value=rnd[:40]))
        if not _HEX.fullmatch(sha):
            out.append(problem("file_sha256 is not a SHA-256 (64 hex digits)", file=name,
                               line=line))
        named[(event, rnd, first, second)] += 1
    if out:
        return out
    played = _csv_rows(games)
    if played is None or not played:
        return []  # (games.csv unreadable: the recomputation names it)
    head = played[0]
    try:
        at = [head.index(c) for c in ("event_id", "round", "player1", "player2")]
    except ValueError:
        return []
    held = Counter(tuple(r[i] for i in at) for r in played[1:] if len(r) > max(at))
    if held != named:
        return [problem("its rows are not the games of inputs/games.csv ({missing} game(s) without a row, "
                        "{extra} row(s) naming no game)", file=name, missing=sum((held - named).values()),
                        extra=sum((named - held).values()))]
    return []


def audit_head_problems(data: bytes) -> list[Problem]:
    """``inputs/audit_head.json``: ``{"entries": N, "head": HASH}`` (N ≥ 0; HASH 64 hex digits, "" when N is 0)."""
    try:
        raw = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raw = None
    entries = raw.get("entries") if isinstance(raw, dict) else None
    head = raw.get("head") if isinstance(raw, dict) else None
    if (not isinstance(raw, dict) or set(raw) != {"entries", "head"} or not isinstance(entries, int)
            or isinstance(entries, bool) or entries < 0 or not isinstance(head, str)
            or not (_HEX.fullmatch(head) if entries else head == "")):
        return [problem("not an audit log head ({shape})", file=B.AUDIT_HEAD, shape='{"entries": N, "head": HASH}')]
    return []
