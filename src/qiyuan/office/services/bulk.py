"""Fast inserts of many rows (games, entries, rating changes) inside the caller's transaction."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

BATCH = 20000


def bulk_insert(table: str, columns: tuple[str, ...], rows: Iterable[tuple], *, total: int = 0,
                progress: Callable[[int], None] | None = None) -> int:
    """Insert rows fast: ``COPY`` on PostgreSQL, batched ``executemany`` elsewhere. Returns the count."""
    from django.db import connection

    n = 0
    q = connection.ops.quote_name
    table = q(table)
    columns = tuple(q(c) for c in columns)
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            raw = cur.cursor if hasattr(cur, "cursor") else cur
            with raw.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
                    n += 1
                    if progress and n % BATCH == 0:
                        progress(n)
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


_CANONICAL = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True)
#: a string as canonical JSON text (what ``as_json`` writes for a string)
json_string = json.encoder.encode_basestring


def as_json(value) -> str:
    """Canonical JSON text (keys sorted, compact): a JSON column's value for a raw insert, and the digest's form
    (PostgreSQL's jsonb reorders keys; sorting makes the text read back identical). One encoder for every call
    (``json.dumps`` with options builds a new one each time)."""
    return _CANONICAL.encode(value)
