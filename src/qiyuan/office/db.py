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
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections, transaction

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
