"""The audit log's hash chain (操作日志链): each entry carries its place (``seq``, 1, 2, …) and the SHA-256 of the
entry before it and of its own content, so an entry edited, removed or slipped in afterwards breaks the chain
where it happened. The newest entry's hash — the log's *head* — goes into each backup's signed trailer
(``office.backup``): a backup whose log was deleted or edited, its checksum recomputed, is refused at restore,
and ``office verify`` checks the chain of the office itself.

Entries are chained as they are written (``AuditLog.save``), one at a time under the office's ``audit`` lock
(a transaction-scoped advisory lock on PostgreSQL; SQLite has one writer at a time anyway).

An entry's content as hashed: ``[seq, at (UTC, ISO 8601 with microseconds), actor, action, object type,
object id, detail]`` as JSON (keys sorted, no spaces, UTF-8), the detail as the database gives it back (dates
and decimals as the text they are stored as); the hash is SHA-256 of the previous hash, a line feed and that
JSON. The first entry's previous hash is ``GENESIS``. Who was logged in (the user row) is not hashed: a user
deleted later leaves the entries as they were.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.serializers.json import DjangoJSONEncoder

from qiyuan.errors import Problem, problem

#: the previous hash of the first entry
GENESIS = "0" * 64
#: the office lock every audit write takes (``office.db.writing``)
AUDIT_LOCK = "audit"
#: the columns of an entry that its hash covers, in order (after ``seq``)
CONTENT = ("at", "actor", "action", "object_type", "object_id", "detail")


def stored_detail(detail) -> object:
    """A detail as the database gives it back: written with the field's encoder (dates, decimals as text), a NUL
    character shown as ␀ (U+2400): PostgreSQL's text and jsonb refuse U+0000, and both databases keep the same."""
    return _without_nul(json.loads(json.dumps(detail, cls=DjangoJSONEncoder)))


def _without_nul(value):
    if isinstance(value, str):
        return value.replace("\x00", "\u2400")
    if isinstance(value, list):
        return [_without_nul(v) for v in value]
    if isinstance(value, dict):
        return {_without_nul(k): _without_nul(v) for k, v in value.items()}
    return value


def instant(at: dt.datetime | str) -> str:
    """The entry's time as hashed: UTC, ISO 8601 with microseconds (a backup's text read back as the same)."""
    if isinstance(at, str):
        at = dt.datetime.fromisoformat(at)
    if at.tzinfo is not None:
        at = at.astimezone(dt.timezone.utc)
    return at.isoformat(timespec="microseconds")


def entry_hash(previous: str, seq: int, at, actor: str, action: str, object_type: str, object_id: str,
               detail) -> str:
    """The hash of an entry chained after ``previous`` (``detail`` as the database gives it back)."""
    body = json.dumps([seq, instant(at), actor, action, object_type, object_id, detail], ensure_ascii=False,
                      sort_keys=True, separators=(",", ":"), cls=DjangoJSONEncoder)
    return hashlib.sha256(f"{previous}\n{body}".encode()).hexdigest()


@dataclass(frozen=True)
class Head:
    """The chain's newest place: how many entries it holds and the newest entry's hash."""

    entries: int
    hash: str

    def as_json(self) -> dict:
        return {"entries": self.entries, "head": self.hash}


class ChainCheck:
    """Walks entries in ``seq`` order (``add`` each: its id, seq, hash and content), collecting what breaks the
    chain; ``head`` is the place reached. An edited entry is named once: each is checked against the hash stored
    before it, so the entries after it still check."""

    def __init__(self, where: Problem | None = None):
        self.where = where or problem("the audit log")
        self.previous = GENESIS
        self.seq = 0
        self.problems: list[Problem] = []

    def add(self, pk, seq: int | None, stored: str, content: Iterable) -> None:
        if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
            seq = None  # (a damaged backup's row: its own checks name the value)
        if not isinstance(stored, str):
            stored = ""  # (likewise: a hash that is no text follows from nothing)
        if seq is None:
            self.problems.append(problem("{where}: entry id {id} is outside the chain (written around it)",
                                         where=self.where, id=pk))
            return
        if seq != self.seq + 1:
            self.problems.append(problem("{where}: entries {first}–{last} of the chain are missing", where=self.where,
                                         first=self.seq + 1, last=seq - 1) if seq > self.seq + 1 else
                                 problem("{where}: entry {seq} appears twice or out of order", where=self.where,
                                         seq=seq))
        try:
            follows = entry_hash(self.previous, seq, *content) == stored
        except (TypeError, ValueError, AttributeError):  # a time that is no time (a damaged backup's row)
            follows = False
        if not follows:
            self.problems.append(problem("{where}: entry {seq} (id {id}) does not follow from its content and the "
                                         "entry before it: changed after it was written", where=self.where, seq=seq,
                                         id=pk))
        self.previous, self.seq = stored, max(seq, self.seq)

    @property
    def head(self) -> Head:
        return Head(self.seq, self.previous)
