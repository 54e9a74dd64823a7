"""Fast inserts of many rows (games, entries, rating changes) inside the caller's transaction."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from django.db import IntegrityError, connection, connections

from qiyuan.formats.canonical_text import as_json, json_string  # noqa: F401  (the office's canonical JSON)

BATCH = 20000
#: from this many rows on, PostgreSQL checks a table's foreign keys once after the load, not row by row
LARGE = 200_000
#: from this many rows on — and at least as many as the table holds already — a table's secondary indexes are
#: dropped before the load and built again after it, in the same transaction (a sort per index, not a B-tree
#: insertion per row and index)
REBUILD = 50_000


def bulk_insert(table: str, columns: tuple[str, ...], rows: Iterable[tuple], *, total: int = 0,
                progress: Callable[[int], None] | None = None) -> int:
    """Insert rows fast: ``COPY`` on PostgreSQL, batched ``executemany`` elsewhere. Returns the count."""
    n = 0
    q = connection.ops.quote_name
    name, table = table, q(table)
    columns = tuple(q(c) for c in columns)
    with connection.cursor() as cur:
        rebuild = total >= REBUILD and total >= _rows(cur, table)
        postgresql = connection.vendor == "postgresql"
        # (PostgreSQL builds no index on a table with key checks pending: with its indexes, its keys go and come back)
        keys = _drop_foreign_keys(cur, table) if postgresql and (total >= LARGE or rebuild) else []
        indexes = _drop_indexes(cur, name) if rebuild else []
        if postgresql:
            raw = cur.cursor if hasattr(cur, "cursor") else cur
            with raw.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
                    n += 1
                    if progress and n % BATCH == 0:
                        progress(n)
            _rebuild_indexes(cur, indexes)
            for key, definition in keys:  # the same constraints again, each checked on the whole table at once
                cur.execute(f"ALTER TABLE {table} ADD CONSTRAINT {q(key)} {definition}")
            if keys:
                cur.execute("SET CONSTRAINTS ALL DEFERRED")  # Django's keys are deferred to the commit again
        else:
            cur.execute("PRAGMA cache_size = -262144")  # 256 MB of page cache: index pages stay in memory
            sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"
            batch: list[tuple] = []
            for row in rows:
                batch.append(row)
                if len(batch) >= BATCH:
                    cur.executemany(sql, batch)
                    n += len(batch)
                    batch = []
                    if progress:
                        progress(n)
            if batch:
                cur.executemany(sql, batch)
                n += len(batch)
            _rebuild_indexes(cur, indexes)
    if progress:
        progress(n)
    return n


#: the fields whose preparation for the database hands back a value of this exact type unchanged
_PLAIN = {"CharField": str, "TextField": str, "SlugField": str, "EmailField": str, "IntegerField": int,
          "BigIntegerField": int, "SmallIntegerField": int, "PositiveIntegerField": int,
          "PositiveSmallIntegerField": int, "PositiveBigIntegerField": int, "BooleanField": bool,
          "ForeignKey": int}  # (a key to an integer primary key; any other value is prepared by its field)


def insert_models(model, rows: Iterable[dict], *, total: int = 0, progress: Callable[[int], None] | None = None) -> int:
    """Insert rows of ``model``, each given as field name → value (the other fields take their defaults), with
    ``bulk_insert``: no model object per row. Every value is prepared for the database by its field, as the
    ORM's save prepares it (dates, decimals), so the rows are those ``bulk_create`` would write."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    db = connections[connection.alias]  # (the connection itself: the proxy costs a lookup per value)
    columns = []
    for f in fields:
        plain = _PLAIN.get(f.get_internal_type())
        fixed = not (f.has_default() and callable(f.default))
        columns.append((f.name, f.get_db_prep_save, plain, f.get_default() if fixed else None, fixed, f))

    def value(row: dict, name, prep, plain, default, fixed, f):
        v = row[name] if name in row else default if fixed else f.get_default()
        # a plain field's value of its own type (or None) is what its preparation would give back
        return v if plain is not None and (v is None or type(v) is plain) else prep(v, db)

    def values(row: dict) -> tuple:
        return tuple([value(row, *c) for c in columns])

    return bulk_insert(model._meta.db_table, tuple(f.column for f in fields), (values(r) for r in rows), total=total,
                       progress=progress)


def raw_rows(model, columns: tuple[str, ...], where: str | None = None, values: list | None = None,
             *, batch: int = 20000) -> list[tuple]:
    """The ``columns`` of ``model``'s table (rows whose ``where`` column is one of ``values``, or all), read raw
    without the ORM's per-row work: only for columns the database hands back as the same Python values on
    SQLite and PostgreSQL (integers, text, NULL) — never decimals, dates, booleans or JSON."""
    q = connection.ops.quote_name
    sql = f"SELECT {', '.join(q(c) for c in columns)} FROM {q(model._meta.db_table)}"
    out: list[tuple] = []
    with connection.cursor() as cur:
        if where is None:
            cur.execute(sql)
            return [tuple(r) for r in cur.fetchall()]
        for i in range(0, len(values or ()), batch):
            part = values[i:i + batch]
            cur.execute(f"{sql} WHERE {q(where)} IN ({', '.join(['%s'] * len(part))})", part)
            out.extend(tuple(r) for r in cur.fetchall())
    return out


@contextmanager
def keys_checked_once() -> Iterator[None]:
    """Around a bulk load's transaction: on SQLite the foreign keys are not looked up row by row during it (SQLite
    sets that per connection, outside a transaction only), and every row of ``models``' tables is checked by one
    query per table before the commit (``check_foreign_keys``); they are back on after, whatever happened.
    PostgreSQL checks a large load's keys once already (``bulk_insert``): there it only runs the check. Inside a
    transaction already (a test's), SQLite keeps looking them up and the check runs as well."""
    sqlite = connection.vendor == "sqlite" and not connection.in_atomic_block
    if sqlite:
        with connection.cursor() as cur:
            cur.execute("PRAGMA foreign_keys = OFF")
    try:
        yield
    finally:
        if sqlite:
            with connection.cursor() as cur:
                cur.execute("PRAGMA foreign_keys = ON")


def check_foreign_keys(*models) -> None:
    """Every row of ``models``' tables names rows that exist (one query per table); ``IntegrityError`` naming the
    first that does not, so the caller's transaction rolls back. On PostgreSQL the keys were checked already."""
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cur:
        for model in models:
            cur.execute(f"PRAGMA foreign_key_check({connection.ops.quote_name(model._meta.db_table)})")
            bad = cur.fetchone()
            if bad is not None:
                raise IntegrityError(f"FOREIGN KEY constraint failed: {bad[0]} row {bad[1]} names no {bad[2]} row")


def _rows(cur, table: str) -> int:
    cur.execute(f"SELECT COUNT(*) FROM {table}")
    return cur.fetchone()[0]


def _drop_indexes(cur, table: str) -> list[str]:
    """Drop the table's secondary indexes (a unique one included; never the primary key's) inside the caller's
    transaction and return the statements that build them again (``_rebuild_indexes``), in order.

    Nobody else sees the table without them: SQLite's transaction is immediate (the database is locked for
    writing), PostgreSQL's ``DROP INDEX`` locks the table until the commit; a failure rolls the drop back with the
    rows. A unique index built again over rows that break it fails the load (``IntegrityError``), as the row
    would have."""
    q = connection.ops.quote_name
    if connection.vendor == "postgresql":
        cur.execute("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = %s::regclass "
                    "AND contype = 'u' ORDER BY conname", [q(table)])
        unique = list(cur.fetchall())
        cur.execute("SELECT c.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = "
                    "i.indexrelid WHERE i.indrelid = %s::regclass AND NOT i.indisprimary AND NOT EXISTS (SELECT 1 "
                    "FROM pg_constraint k WHERE k.conindid = i.indexrelid) ORDER BY c.relname", [q(table)])
        plain = list(cur.fetchall())
        for name, _ in unique:
            cur.execute(f"ALTER TABLE {q(table)} DROP CONSTRAINT {q(name)}")
        for name, _ in plain:
            cur.execute(f"DROP INDEX {q(name)}")
        return [f"ALTER TABLE {q(table)} ADD CONSTRAINT {q(name)} {d}" for name, d in unique] + [d for _, d in plain]
    cur.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = %s AND sql IS NOT NULL "
                "ORDER BY name", [table])
    found = list(cur.fetchall())
    for name, _ in found:
        cur.execute(f"DROP INDEX {q(name)}")
    return [sql for _, sql in found]


def _rebuild_indexes(cur, statements: list[str]) -> None:
    """Build the indexes ``_drop_indexes`` dropped, each in one pass over the loaded table."""
    for sql in statements:
        cur.execute(sql)


def _drop_foreign_keys(cur, table: str) -> list[tuple[str, str]]:
    """Drop the table's foreign keys (inside the caller's transaction) and return them (name, definition).

    Row by row, PostgreSQL queues one check per key per row (deferred to the commit); adding a key back checks
    the whole table in one join. Inside the transaction nobody else sees the table without its keys (the table is
    locked until the commit), and a failure rolls the drop back with the rows. The checks pending before the
    load are made at once (a table with pending checks cannot be altered)."""
    # The rows written so far in this transaction are checked now: a table with pending checks cannot be altered.
    cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
    cur.execute("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = %s::regclass "
                "AND contype = 'f' ORDER BY conname", [table])
    keys = list(cur.fetchall())
    for name, _ in keys:
        cur.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
    return keys
