"""Fast inserts of many rows (games, entries, rating changes) inside the caller's transaction."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.db import connection, connections

from qiyuan.formats.canonical_text import as_json, json_string  # noqa: F401  (the office's canonical JSON)

BATCH = 20000
#: from this many rows on, PostgreSQL checks a table's foreign keys once after the load, not row by row
LARGE = 200_000


def bulk_insert(table: str, columns: tuple[str, ...], rows: Iterable[tuple], *, total: int = 0,
                progress: Callable[[int], None] | None = None) -> int:
    """Insert rows fast: ``COPY`` on PostgreSQL, batched ``executemany`` elsewhere. Returns the count."""
    n = 0
    q = connection.ops.quote_name
    table = q(table)
    columns = tuple(q(c) for c in columns)
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            raw = cur.cursor if hasattr(cur, "cursor") else cur
            keys = _drop_foreign_keys(cur, table) if total >= LARGE else []
            with raw.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
                    n += 1
                    if progress and n % BATCH == 0:
                        progress(n)
            for name, definition in keys:  # the same constraints again, each checked on the whole table at once
                cur.execute(f"ALTER TABLE {table} ADD CONSTRAINT {q(name)} {definition}")
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
