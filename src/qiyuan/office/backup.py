"""Backup and restore of the whole office (备份与恢复), SQLite or PostgreSQL alike.

A backup is one consistent snapshot of every table of every installed app,
written as JSON lines (gzip-compressed when the file name ends in ``.gz``):

* a header: format, version, the database it came from, the applied
  migrations of every app;
* per table, a line ``{"model": "app.model", "fields": [...], "count": n}``
  then ``n`` lines, one JSON array per row (dates ISO 8601, Decimals as strings
  — exact, never floats);
* a trailer with the row counts and the SHA-256 of every line before it, so a
  truncated or edited file is refused; the audit log's head (its entries and
  the newest entry's hash, ``office.audit.chain``); and, when the office has
  a signing key, the trailer's signature by it — so a backup whose log was
  deleted or edited and its checksum recomputed is refused at restore.

The snapshot is read inside one transaction (REPEATABLE READ on PostgreSQL;
SQLite's read transaction holds its snapshot), so a backup taken while the
desk is in use is still consistent. The format does not depend on the
database: a SQLite office restores into PostgreSQL and back.

Restore goes into an empty office (``replace=True`` empties it first). The
schema is brought to the backup's migrations, the rows are inserted as stored
(primary keys kept, sequences reset) in one transaction, the counts and the
checksum verified, and the office migrated forward to this version's schema.
"""

from __future__ import annotations

import base64
import datetime as dt
import gzip
import hashlib
import io
import json
import uuid
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path

from django.apps import apps as global_apps
from django.contrib.contenttypes.models import ContentType
from django.core.management.color import no_style
from django.core.management.sql import emit_post_migrate_signal
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, models, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder
from django.utils.duration import duration_iso_string

from qiyuan.errors import NotFound, Problem, problem
from qiyuan.formats import signing
from qiyuan.office import signing_key
from qiyuan.office.audit.chain import CONTENT, ChainCheck
from qiyuan.office.audit.models import record
from qiyuan.office.backup_checks import RowChecks
from qiyuan.office.db import reading
from qiyuan.office.errors import OfficeError
from qiyuan.office.ratings.upgrade import OLD_TABLES, migrate_office
from qiyuan.office.records import audit_head

FORMAT = "qiyuan-office-backup"
VERSION = 1
#: Rows that ``migrate`` creates by itself; an office holding only these is empty.
AUTO_CREATED = {"contenttypes.contenttype", "auth.permission"}
#: Tables never backed up: login sessions are transient, and a leaked backup must not open anyone's session.
NOT_BACKED_UP = {"sessions.session"}
CHUNK = 2000

#: progress(table label, rows done, rows in the table)
Progress = Callable[[str, int, int], None]


class BackupError(OfficeError):
    """A backup file or a restore target that cannot be used; ``problems`` says why."""


@dataclass
class Summary:
    path: Path
    counts: dict[str, int] = field(default_factory=dict)
    migrations: dict[str, list[str]] = field(default_factory=dict)

    @property
    def rows(self) -> int:
        return sum(self.counts.values())


def office_models(registry=global_apps) -> list[type[models.Model]]:
    """Every table the office stores: concrete, managed models of all apps, many-to-many tables included."""
    found = []
    for model in registry.get_models(include_auto_created=True):
        opts = model._meta
        if opts.proxy or not opts.managed or opts.swapped or opts.label_lower in NOT_BACKED_UP:
            continue
        found.append(model)
    return found


def applied_migrations(using: str = DEFAULT_DB_ALIAS) -> dict[str, list[str]]:
    """The applied migrations, per app, sorted."""
    applied: dict[str, list[str]] = {}
    for app, name in MigrationRecorder(connections[using]).applied_migrations():
        applied.setdefault(app, []).append(name)
    return {app: sorted(names) for app, names in sorted(applied.items())}


# -- values ------------------------------------------------------------------------------------


def _encode(value):
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, dt.timedelta):
        return duration_iso_string(value)
    if isinstance(value, bytes | memoryview | bytearray):
        return base64.b64encode(bytes(value)).decode("ascii")
    raise TypeError(f"cannot store {type(value).__name__} in a backup")


#: Field types whose JSON value is already what the database takes (ints, strings, booleans).
_AS_IS = frozenset(
    "AutoField BigAutoField SmallAutoField IntegerField BigIntegerField SmallIntegerField PositiveIntegerField "
    "PositiveBigIntegerField PositiveSmallIntegerField CharField TextField SlugField EmailField BooleanField".split()
)


def _db_value(f: models.Field, conn) -> Callable:
    """A function from a backup's JSON value to the value the database stores for field ``f``."""
    target = f.target_field if f.is_relation else f
    if target.get_internal_type() in _AS_IS:
        return lambda v: v
    if isinstance(f, models.JSONField):
        return lambda v: f.get_db_prep_save(v, conn)
    return lambda v: None if v is None else f.get_db_prep_save(f.to_python(v), conn)


def _open_write(path: Path, compress: bool) -> io.TextIOBase:
    if compress:
        return io.TextIOWrapper(gzip.open(path, "wb", compresslevel=6), encoding="utf-8", newline="\n")
    return path.open("w", encoding="utf-8", newline="\n")


def _open_read(path: Path) -> io.TextIOBase:
    with path.open("rb") as probe:
        magic = probe.read(2)
    if magic == b"\x1f\x8b":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8", newline="\n")
    return path.open("r", encoding="utf-8", newline="\n")


class _HashingWriter:
    def __init__(self, out):
        self.out = out
        self.sha = hashlib.sha256()

    def line(self, obj) -> None:
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), default=_encode) + "\n"
        self.sha.update(text.encode("utf-8"))
        self.out.write(text)


# -- backup ------------------------------------------------------------------------------------


def backup(path: str | Path, *, using: str = DEFAULT_DB_ALIAS, progress: Progress | None = None) -> Summary:
    """Write a consistent copy of the whole office to ``path``."""
    path = Path(path)
    conn = connections[using]
    summary = Summary(path=path)
    tmp = path.with_name(path.name + ".partial")
    try:
        _write(tmp, path, conn, summary, using, progress)
    except BaseException:
        tmp.unlink(missing_ok=True)  # a failed backup leaves nothing behind
        raise
    tmp.replace(path)
    return summary


def _write(tmp: Path, path: Path, conn, summary: Summary, using: str, progress: Progress | None) -> None:
    with reading(using):
        summary.migrations = applied_migrations(using)
        with _open_write(tmp, compress=path.suffix == ".gz") as out:
            writer = _HashingWriter(out)
            writer.line(
                {
                    "format": FORMAT,
                    "version": VERSION,
                    "created": dt.datetime.now(dt.timezone.utc).isoformat(),
                    "vendor": conn.vendor,
                    "migrations": summary.migrations,
                }
            )
            for model in office_models():
                label = model._meta.label_lower
                fields = list(model._meta.concrete_fields)
                names = [f.attname for f in fields]
                rows = model._base_manager.using(using).order_by()
                count = rows.count()
                writer.line({"model": label, "fields": names, "count": count})
                done = 0
                if progress:
                    progress(label, 0, count)
                for row in rows.order_by("pk").values_list(*names).iterator(chunk_size=CHUNK):
                    writer.line(list(row))
                    done += 1
                    if progress and done % CHUNK == 0:
                        progress(label, done, count)
                if done != count:  # cannot happen inside one snapshot; a guard all the same
                    raise BackupError([problem("{table}: counted {count} rows but read {done}", table=label, count=count,
                                               done=done)])
                if progress:
                    progress(label, done, count)
                summary.counts[label] = count
            trailer = {"end": True, "counts": summary.counts, "sha256": writer.sha.hexdigest(),
                       "audit": audit_head().as_json()}
            out.write(json.dumps(_signed(trailer)) + "\n")


def _signed_part(trailer: dict) -> bytes:
    """What a trailer's signature covers: its checksum, counts and audit head, as canonical JSON."""
    return json.dumps({k: trailer.get(k) for k in ("sha256", "counts", "audit")}, sort_keys=True,
                      separators=(",", ":")).encode()


def _signed(trailer: dict) -> dict:
    """The trailer with the office's signature (none while the office has no signing key)."""
    try:
        key = signing_key.private_key()
    except NotFound:
        return trailer
    return {**trailer, "key": signing_key.key_info().fingerprint,
            "signature": base64.b64encode(signing.sign(key, _signed_part(trailer))).decode("ascii")}


def _trailer_problems(trailer: dict, head, accept_unsigned: bool) -> list[Problem]:
    """The trailer's audit head against the log the backup holds, and its signature against the office's key."""
    out = []
    stated = trailer.get("audit")
    if stated is not None and not isinstance(stated, dict):
        stated = {"entries": stated}  # (a damaged trailer: it states no head this backup gives)
    if stated is None and head is not None:
        out.append(problem("the trailer states no audit log head, but the backup holds a chained audit log: the "
                           "trailer was replaced"))
    elif stated is not None and head is not None and stated != head.as_json():
        out.append(problem("the audit log in the backup ({entries} entries, head {head}) is not the one it was made "
                           "with ({stated_entries} entries, head {stated_head}): deleted or edited",
                           entries=head.entries, head=head.hash[:12] or "-",
                           stated_entries=str((stated or {}).get("entries")),
                           stated_head=str((stated or {}).get("head") or "-")[:12]))
    try:
        mine = signing_key.key_info()
    except NotFound:
        return out  # an office without a key checks no signature (its checksum and audit head are checked)
    signature = trailer.get("signature")
    if signature is None:
        if not accept_unsigned:
            out.append(problem("the backup is not signed, and this office signs its backups ({fingerprint}): "
                               "restore it only if you know where it comes from (--accept-unsigned)",
                               fingerprint=mine.fingerprint))
        return out
    try:
        raw = base64.b64decode(str(signature), validate=True)
    except ValueError:
        raw = b""
    if not signing.verifies(signing.load_public(mine.public_pem), _signed_part(trailer), raw):
        out.append(problem("the backup's signature does not verify with this office's key ({fingerprint}): "
                           "changed after it was made, or made by another office", fingerprint=mine.fingerprint))
    return out


# -- reading -------------------------------------------------------------------------------------


def _read_tables(handle, path: Path) -> tuple[dict, Iterator[tuple[str, list[str], int, Iterator[list]]], dict]:
    """Parse the header; return it, a generator of tables, and a dict filled with the trailer at the end."""
    sha = hashlib.sha256()
    first = handle.readline()
    try:
        header = json.loads(first)
    except (json.JSONDecodeError, UnicodeDecodeError):
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BackupError([problem("not a qiyuan office backup", file=str(path))])
    if header.get("version") != VERSION:
        raise BackupError([problem("backup format version {version}, this qiyuan reads {ours}", file=str(path),
                                   version=str(header.get("version")), ours=VERSION)])
    migrations = header.get("migrations", {})
    if not isinstance(migrations, dict) or not all(
            isinstance(app, str) and isinstance(names, list) and all(isinstance(n, str) for n in names)
            for app, names in migrations.items()):
        raise BackupError([problem("the header's migrations are not a list of names per app", file=str(path), line=1)])
    sha.update(first.encode("utf-8"))
    trailer: dict = {}
    lineno = 1

    def bad(message: Problem) -> BackupError:
        return BackupError([replace(message, file=str(path), line=lineno)])

    def parsed(text: str):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise bad(problem("not a JSON line ({why}, column {col})", why=exc.msg, col=exc.colno)) from None
        except RecursionError:
            raise bad(problem("not a JSON line (nested too deeply)")) from None

    def tables():
        nonlocal lineno
        pending = handle.readline()
        lineno += 1
        while pending:
            item = parsed(pending)
            if isinstance(item, dict) and item.get("end"):
                if sha.hexdigest() != item.get("sha256"):
                    raise bad(problem("checksum mismatch: the file was changed or damaged"))
                counts = item.get("counts")
                if not isinstance(counts, dict):
                    raise bad(problem("the trailer has no table counts"))
                trailer.update(item)
                if handle.readline():
                    raise bad(problem("data after the end of the backup"))
                return
            sha.update(pending.encode("utf-8"))
            label, names, count = _table_header(item, bad)

            def rows(count=count, width=len(names)):
                nonlocal lineno
                for _ in range(count):
                    text = handle.readline()
                    lineno += 1
                    if not text:
                        raise bad(problem("the file ends in the middle of a table (truncated backup)"))
                    sha.update(text.encode("utf-8"))
                    row = parsed(text)
                    if not isinstance(row, list) or len(row) != width:
                        raise bad(problem("expected a row of {width} values", width=width))
                    yield row

            yield label, names, count, rows()
            pending = handle.readline()
            lineno += 1
        raise bad(problem("the file ends without its trailer (truncated backup)"))

    return header, tables(), trailer


def _table_header(item, bad) -> tuple[str, list[str], int]:
    """A table's header line: its model, its columns (distinct names) and its row count, or a refusal."""
    if not isinstance(item, dict) or "model" not in item:
        raise bad(problem("expected a table header"))
    label, names, count = item.get("model"), item.get("fields"), item.get("count")
    if not isinstance(label, str) or not label:
        raise bad(problem("the table header names no model"))
    if not isinstance(names, list) or not names or not all(isinstance(n, str) and n for n in names) \
            or len(set(names)) != len(names):
        raise bad(problem("{table}: the table header's fields are not a list of distinct column names", table=label))
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise bad(problem("{table}: the table header has no row count ('count')", table=label))
    return label, names, count


#: What a damaged file raises while being read: a cut gzip stream, bad bytes, a cut JSON line.
_DAMAGE = (EOFError, gzip.BadGzipFile, UnicodeDecodeError, json.JSONDecodeError, zlib.error)


def _damaged(path: Path, exc: Exception) -> BackupError:
    return BackupError([problem("the file is damaged or truncated ({kind}: {why})", file=str(path),
                                kind=type(exc).__name__, why=str(exc))])


def verify_file(path: str | Path, state_apps=None, *, using: str = DEFAULT_DB_ALIAS,
                accept_unsigned: bool = False) -> dict:
    """Read the whole file once and check its checksum and trailer, and — given the backup's schema
    (``state_apps``) — every table and every row (``qiyuan.office.backup_checks``); return the header.

    Done before a restore touches the office, so a damaged or edited file is refused, with its lines and
    reasons, before anything is emptied or migrated.
    """
    path = Path(path)
    checks = RowChecks(path.name, connections[using])
    # the tables of the backup's own schema (a backup made before a table was dropped holds it)
    wanted = {m._meta.label_lower for m in office_models(state_apps if state_apps is not None else global_apps)}
    seen: dict[str, int] = {}
    try:
        with _open_read(path) as handle:
            header, tables, trailer = _read_tables(handle, path)
            lineno = 1
            chain = None  # the audit log's chain as the backup holds it (a backup of a version that chains it)
            for label, names, count, rows in tables:
                lineno += 1
                row_check = _table_check(checks, state_apps, wanted, seen, label, names, lineno)
                chained = label == "audit.auditlog" and {"seq", "hash", *CONTENT} <= set(names)
                if chained:
                    chain = ChainCheck(problem("the backup's audit log"))
                    at = [names.index(n) for n in ("id", "seq", "hash", *CONTENT)]
                for row in rows:
                    lineno += 1
                    if row_check is not None:
                        row_check(lineno, row)
                    if chained:
                        pk, seq, stored, *content = (row[i] for i in at)
                        chain.add(pk, seq, stored, content)
                seen[label] = count
            for p in chain.problems if chain is not None else ():
                checks.fault(lineno, "audit.auditlog", p)
            for p in _trailer_problems(trailer, chain.head if chain is not None else None, accept_unsigned):
                checks.fault(lineno + 1, "trailer", p)
            expected = trailer.get("counts", {})
            for label, count in seen.items():
                if expected.get(label) != count:
                    checks.fault(lineno + 1, label, problem("the trailer counts {expected} rows, the table holds {count}",
                                                            expected=str(expected.get(label)), count=count))
    except _DAMAGE as exc:
        raise _damaged(path, exc) from exc
    problems = checks.done()
    if problems:
        raise BackupError(problems)
    return header


def _table_check(checks: RowChecks, state_apps, wanted, seen, label, names, lineno):
    """The row check of one table, or ``None`` (its fault already noted, or no schema to check against)."""
    if label in seen:
        checks.fault(lineno, label, problem("the table appears twice"))
        return None
    if state_apps is None:
        return None
    if label not in wanted:
        checks.fault(lineno, label, problem("not a table an office backup holds"))
        return None
    try:
        model = state_apps.get_model(label)
    except LookupError:
        checks.fault(lineno, label, problem("no such table in the backup's schema"))
        return None
    columns = {f.attname for f in model._meta.concrete_fields}
    missing = [n for n in names if n not in columns]
    if missing:
        checks.fault(lineno, label, problem("the schema has no column for {columns}", columns=", ".join(missing[:8])))
        return None
    return checks.table(label, model, names)


def read_header(path: str | Path) -> dict:
    """The header of a backup file (format, version, vendor, migrations)."""
    path = Path(path)
    try:
        with _open_read(path) as handle:
            header, _, _ = _read_tables(handle, path)
    except _DAMAGE as exc:
        raise _damaged(path, exc) from exc
    return header


# -- restore -------------------------------------------------------------------------------------


def _rows_present(using: str) -> dict[str, int]:
    present = {}
    for model in office_models():
        label = model._meta.label_lower
        if label in AUTO_CREATED:
            continue
        n = model._base_manager.using(using).count()
        if n:
            present[label] = n
    return present


def _migrate_to(targets: list[tuple[str, str | None]], using: str) -> None:
    conn = connections[using]
    executor = MigrationExecutor(conn)
    plan = executor.migration_plan(targets)
    if plan:
        executor.migrate(targets, plan=plan)


def _schema_targets(backup_migrations: dict[str, list[str]], using: str) -> list[tuple[str, str | None]]:
    """Migration targets reproducing the backup's schema; refuse migrations this version does not know."""
    loader = MigrationExecutor(connections[using]).loader
    known = set(loader.graph.nodes)
    unknown = [f"{app}.{name}" for app, names in backup_migrations.items() for name in names if (app, name) not in known]
    if unknown:
        raise BackupError([problem("the backup was made by a newer qiyuan (unknown migrations: {names}); upgrade first",
                                   names=", ".join(unknown[:8]))])
    targets: list[tuple[str, str | None]] = []
    for app in sorted({app for app, _ in loader.graph.leaf_nodes()}):
        names = backup_migrations.get(app, [])
        if not names:
            targets.append((app, None))
            continue
        nodes = {(app, n) for n in names}
        # the backup's state of this app: its applied migration that has all the others as ancestors
        leaves = [n for n in nodes if nodes <= set(loader.graph.forwards_plan(n))]
        if len(leaves) != 1:
            raise BackupError([problem("the backup's migrations of {app} are not one line of history: {names}", app=app,
                                       names=str(sorted(names)))])
        targets.append(leaves[0])
    return targets


def _empty_office(using: str) -> None:
    """Delete every row of every office table that exists (foreign keys are checked at commit).

    Login sessions go too: after a restore a stale session must not log
    anyone in as whichever user now has its user number.
    """
    conn = connections[using]
    qn = conn.ops.quote_name
    transient = []
    for label in NOT_BACKED_UP:
        try:
            transient.append(global_apps.get_model(label))
        except LookupError:  # the app is not installed
            pass
    with conn.cursor() as cursor:
        existing = set(conn.introspection.table_names(cursor))
        for table in OLD_TABLES:  # an office not yet rid of the row tables of before the sheets (they name editions)
            if table in existing:
                cursor.execute(f"DELETE FROM {qn(table)}")
        for model in [*transient, *reversed(office_models())]:
            if model._meta.db_table in existing:
                cursor.execute(f"DELETE FROM {qn(model._meta.db_table)}")


def restore(
    path: str | Path,
    *,
    using: str = DEFAULT_DB_ALIAS,
    replace: bool = False,
    progress: Progress | None = None,
    accept_unsigned: bool = False,
    actor: str = "restore",
) -> Summary:
    """Restore a backup into an empty office (``replace=True``: empty it first); verify every count, the audit log's
    chain and head, and — when this office has a signing key — the trailer's signature (``accept_unsigned``: a
    backup without one, e.g. made before backups were signed, is restored all the same)."""
    path = Path(path)
    if not path.is_file():
        raise BackupError([problem("no such file", file=str(path))])
    conn = connections[using]
    header = read_header(path)
    backup_migrations = {app: list(names) for app, names in header.get("migrations", {}).items()}
    targets = _schema_targets(backup_migrations, using)
    schema = MigrationExecutor(conn).loader.project_state([t for t in targets if t[1] is not None], at_end=True).apps
    verify_file(path, schema, using=using, accept_unsigned=accept_unsigned)  # before anything is emptied or migrated
    present = _rows_present(using) if _has_tables(using) else {}
    if present and not replace:
        listed = ", ".join(f"{label} ({n})" for label, n in sorted(present.items())[:6])
        more = len(present) - 6
        raise BackupError([problem(
            "the office is not empty: {tables} and {more} more tables; restore into a new office (restore creates it; "
            "no `office init` needed), or replace this one", tables=listed, more=more) if more > 0 else problem(
            "the office is not empty: {tables}; restore into a new office (restore creates it; no `office init` "
            "needed), or replace this one", tables=listed)])
    if present and MigrationExecutor(conn).migration_plan(targets):
        with transaction.atomic(using=using):  # the schema must step back: empty tables first
            _empty_office(using)
    _migrate_to(targets, using)
    try:
        summary = _load(path, using, schema, backup_migrations, progress)
    except _DAMAGE as exc:
        raise _damaged(path, exc) from exc
    except (DatabaseError, ValueError, TypeError, OverflowError) as exc:
        # what the rows' own checks cannot see (a foreign key to a missing row, a constraint over columns):
        # the database refused it, the transaction rolled back, nothing was restored
        first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        raise BackupError([problem("the database refused the backup's rows ({why}); nothing was restored",
                                   file=path.name, why=first)]) from exc
    try:  # (the drop of the old row tables of an old backup's editions follows `office verify` passing)
        migrate_office(actor=actor, using=using)
    except OfficeError as exc:  # (an upgrade step that refuses the restored data: its migration rolled back)
        raise BackupError([*exc.problems, problem(
            "the backup's rows were restored at its own schema, which this version cannot upgrade")]) from exc

    ContentType.objects.clear_cache()
    emit_post_migrate_signal(verbosity=0, interactive=False, db=using)  # content types of newer models
    return summary


def _insert_rows(conn, model, fields, convert, rows, report: Callable[[int], object]) -> int:
    """Insert the rows into the model's table, keeping every value as stored; return how many.

    PostgreSQL takes them through ``COPY … FROM STDIN`` (several times faster
    than INSERTs); other databases through batched ``executemany``.
    """
    qn = conn.ops.quote_name
    columns = ", ".join(qn(f.column) for f in fields)
    table = qn(model._meta.db_table)
    done = 0
    if conn.vendor == "postgresql":
        with conn.cursor() as cursor, cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row([to_db(v) for to_db, v in zip(convert, row)])
                done += 1
                if done % CHUNK == 0:
                    report(done)
        return done
    sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"
    batch = []
    with conn.cursor() as cursor:
        for row in rows:
            batch.append([to_db(v) for to_db, v in zip(convert, row)])
            if len(batch) >= CHUNK:
                cursor.executemany(sql, batch)
                done += len(batch)
                batch = []
                report(done)
        if batch:
            cursor.executemany(sql, batch)
            done += len(batch)
    return done


def _load(path: Path, using: str, state_apps, backup_migrations: dict, progress: Progress | None) -> Summary:
    """Insert every row of the backup in one transaction; verify counts, checksum and foreign keys."""
    conn = connections[using]
    summary = Summary(path=path, migrations=backup_migrations)
    with transaction.atomic(using=using), _open_read(path) as handle:
        _empty_office(using)  # the content types and permissions migrate made: the backup has its own
        _, tables, trailer = _read_tables(handle, path)
        touched = []
        for label, names, count, rows in tables:
            try:
                model = state_apps.get_model(label)
            except LookupError:
                raise BackupError([problem("{table}: no such table in the backup's schema", table=label)]) from None
            touched.append(model)
            by_attname = {f.attname: f for f in model._meta.concrete_fields}
            missing = [n for n in names if n not in by_attname]
            if missing:
                raise BackupError([problem("{table}: the schema has no column for {columns}", table=label,
                                           columns=", ".join(missing))])
            fields = [by_attname[n] for n in names]
            convert = [_db_value(f, conn) for f in fields]
            done = _insert_rows(conn, model, fields, convert, rows, lambda n: progress and progress(label, n, count))
            if progress:
                progress(label, done, count)
            summary.counts[label] = done
        expected = trailer.get("counts", {})
        for model in touched:
            label = model._meta.label_lower
            stored = model._base_manager.using(using).count()
            if stored != expected.get(label):
                raise BackupError([problem("{table}: {stored} rows after restore, the backup holds {expected}", table=label,
                                           stored=stored, expected=str(expected.get(label)))])
        with conn.cursor() as cursor:
            for statement in conn.ops.sequence_reset_sql(no_style(), touched):
                cursor.execute(statement)
        if conn.vendor == "postgresql":
            with conn.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        else:
            conn.check_constraints()
    return summary


def _has_tables(using: str) -> bool:
    conn = connections[using]
    with conn.cursor() as cursor:
        tables = set(conn.introspection.table_names(cursor))
    return all(model._meta.db_table in tables for model in office_models())


# -- the use cases (what ``qiyuan office backup|restore`` call) ---------------------------------------


def backup_office(path: str | Path, *, actor: str, progress: Progress | None = None) -> Summary:
    """Back the office up to a new file ``path`` (never overwritten), audited."""
    path = Path(path)
    if path.exists():
        raise BackupError([problem("the file exists; choose a new file name", file=str(path))])
    if not path.parent.is_dir():
        raise BackupError([problem("no such directory", file=str(path.parent))])
    summary = backup(path, progress=progress)
    record(actor, "office.backup", file=str(path), rows=summary.rows)
    return summary


def restore_office(path: str | Path, *, actor: str, replace: bool = False, progress: Progress | None = None,
                   accept_unsigned: bool = False) -> Summary:
    """Restore a backup into this office (empty, or emptied with ``replace``), audited in the restored office."""
    summary = restore(path, replace=replace, progress=progress, accept_unsigned=accept_unsigned, actor=actor)
    record(actor, "office.restore", file=str(path), rows=summary.rows, replace=replace,
           **({"unsigned_accepted": True} if accept_unsigned else {}))
    return summary
