"""Transactions of the office's use cases: who may write at the same moment, and what waits.

Every use case that writes runs in ``writing(*locks)``: one transaction, in
which its checks and its writes see the same state.

* SQLite: every transaction starts ``BEGIN IMMEDIATE`` (settings
  ``transaction_mode``), so the database has one writer at a time and the
  others queue for up to the busy timeout (``timeout`` in the settings)
  instead of failing half-way with "database is locked".
* PostgreSQL: writers run side by side; a use case names the office locks it
  needs — ``REGISTRY`` (anything that checks a player, association or
  arbiter is new), ``rating_list_lock(code)`` (publishing, correcting or
  importing into one list) — taken as transaction-scoped advisory locks, always
  in the same order, so two officers doing the same thing at the same moment
  queue too.

``reading()`` is a consistent read (a backup): a snapshot that blocks no writer.

A damaged database is named as such with the way out (``damaged``, ``check_integrity``: restore a backup),
never reported as an internal error.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction

from qiyuan.office.errors import OfficeError

#: the registry: players, associations, clubs, arbiters (their uniqueness checks)
REGISTRY = "registry"


def rating_list_lock(code: str) -> str:
    """The lock of one rating list: its imports, publications and corrections."""
    return f"list:{code}"


def _lock_key(name: str) -> int:
    """A stable signed 64-bit key for ``pg_advisory_xact_lock``."""
    return int.from_bytes(hashlib.sha256(f"qiyuan:{name}".encode()).digest()[:8], "big", signed=True)


@contextmanager
def writing(*locks: str, using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """One write transaction holding the named office locks (see the module's docstring)."""
    with transaction.atomic(using=using):
        conn = connections[using]
        if conn.vendor == "postgresql" and locks:
            with conn.cursor() as cursor:
                for name in sorted(set(locks)):
                    cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_lock_key(name)])
        yield


@contextmanager
def reading(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """A consistent snapshot for a long read that must not block writers (a backup).

    PostgreSQL: REPEATABLE READ, READ ONLY. SQLite: a *deferred* transaction (a plain read transaction keeps
    its WAL snapshot; an immediate one would hold the write lock for as long as the read takes).
    """
    conn = connections[using]
    if conn.in_atomic_block:  # already inside a transaction: its snapshot is the one to read
        yield
        return
    if conn.vendor == "postgresql":
        with transaction.atomic(using=using):
            with conn.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
        return
    conn.ensure_connection()
    with conn.cursor() as cursor:
        cursor.execute("BEGIN DEFERRED")
    try:
        yield
    finally:
        with conn.cursor() as cursor:
            cursor.execute("COMMIT")


def use_case(*locks: str):
    """Decorate a use case: it runs whole — its checks and its writes — in ``writing(*locks)``."""

    def decorate(fn):
        @functools.wraps(fn)
        def run(*args, **kwargs):
            with writing(*locks):
                return fn(*args, **kwargs)

        return run

    return decorate


# -- a damaged database ----------------------------------------------------------------------------

#: What SQLite (and PostgreSQL's checksum failures) say of a damaged database file.
_DAMAGE_SIGNS = ("database disk image is malformed", "file is not a database", "malformed database schema",
                 "file is encrypted or is not a database", "database corruption", "invalid page in block",
                 "could not read block")


class DatabaseDamaged(OfficeError):
    """The office's database is damaged: nothing can be trusted until it is restored from a backup."""


def _damage_text(exc: BaseException | None) -> str:
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        text = str(exc)
        if any(sign in text.lower() for sign in _DAMAGE_SIGNS):
            return text.splitlines()[0] if text else type(exc).__name__
        exc = exc.__cause__ or exc.__context__
    return ""


def _where(using: str) -> str:
    conn = connections[using]
    if conn.vendor == "sqlite":
        return f"the office's database {conn.settings_dict['NAME']}"
    return f"the office's database {conn.settings_dict.get('NAME')} on {conn.settings_dict.get('HOST') or 'localhost'}"


def damaged(exc: BaseException, using: str = DEFAULT_DB_ALIAS) -> DatabaseDamaged | None:
    """The refusal naming a damaged database when ``exc`` (or what caused it) says the database is damaged."""
    text = _damage_text(exc)
    if not text:
        return None
    return DatabaseDamaged([
        f"{_where(using)} is damaged ({text}); nothing was done.",
        "The way out: keep the damaged file aside (do not run `office init` on it), and restore the last backup "
        "into a new office: QIYUAN_HOME=NEW qiyuan office restore BACKUP (or point DATABASE_URL at a new "
        "database) — docs/office.md, “Backups”.",
    ])


def check_integrity(using: str = DEFAULT_DB_ALIAS) -> None:
    """Refuse a damaged database (SQLite: ``PRAGMA quick_check`` — every page and index read once)."""
    conn = connections[using]
    if conn.vendor != "sqlite":
        return
    try:
        with conn.cursor() as cursor:
            cursor.execute("PRAGMA quick_check")
            found = [row[0] for row in cursor.fetchall()]
    except DatabaseError as exc:
        raise damaged(exc, using) or exc
    if found != ["ok"]:
        raise damaged(DatabaseError(f"database disk image is malformed: {found[0][:160]}"), using)
