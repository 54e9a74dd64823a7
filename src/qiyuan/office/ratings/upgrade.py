"""Dropping the row tables editions were stored in before their sheets (issue 34 (8)) — only once `office verify`
has passed on the sheets.

Migration ``ratings.0009_drop_edition_rows`` drops ``EditionEntry`` and ``RatingChange``. While they hold rows
and editions exist, it refuses (``VerifyFirst``) unless the audit log holds an ``office.verified`` entry: what
``verify_all`` writes when every edition of every list was recomputed identical from its sheet — and only code
that reads sheets writes it. ``migrate_office`` (what `office init` and a restore run) migrates everything else
first, runs that verify on the upgraded office when the drop waits for it, and drops the tables only if it
passed; plain `migrate` refuses with the commands to run. An office with no edition, or whose row tables are
empty (publishing stopped writing them), loses nothing and is migrated at once.
"""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor

from qiyuan.errors import problem
from qiyuan.office.errors import OfficeError
from qiyuan.office.verify import VERIFIED, verify_all

#: the migration that drops the row tables, and the one before it
DROP = ("ratings", "0009_drop_edition_rows")
SHEETS = ("ratings", "0008_edition_audit_head")  # (the sheets came with 0007; 0008 keeps to them)
OLD_TABLES = ("ratings_editionentry", "ratings_ratingchange")


class VerifyFirst(OfficeError):
    """The row tables still hold an edition's rows and no `office verify` has passed on its sheets yet."""


def verify_first(connection) -> bool:
    """Whether dropping the row tables must wait for `office verify`: they hold rows, an edition exists, and the
    audit log has no ``office.verified`` entry (raw SQL: the models are gone from the code)."""
    q = connection.ops.quote_name
    with connection.cursor() as cur:
        tables = set(connection.introspection.table_names(cur))
        if not set(OLD_TABLES) <= tables:
            return False

        def some(sql: str, params=()) -> bool:
            cur.execute(sql, params)
            return cur.fetchone() is not None
        if not any(some(f"SELECT 1 FROM {q(t)} LIMIT 1") for t in OLD_TABLES):
            return False
        if not some(f"SELECT 1 FROM {q('ratings_edition')} LIMIT 1"):
            return False
        return "audit_auditlog" not in tables or not some(
            f"SELECT 1 FROM {q('audit_auditlog')} WHERE {q('action')} = %s LIMIT 1", [VERIFIED])


def refusal() -> VerifyFirst:
    return VerifyFirst([problem(
        "the old tables of editions (EditionEntry, RatingChange) are dropped only after `qiyuan office verify` has "
        "passed on the upgraded office, and it has not yet: run `qiyuan office verify`, then `qiyuan office init` "
        "(which runs the verify itself and then drops them); nothing was dropped", code="office.verify_first")])


def migrate_office(*, actor: str, using: str = DEFAULT_DB_ALIAS) -> None:
    """Migrate the database to this version's schema. When the drop of the row tables waits for `office verify`
    (``verify_first``), every other migration is applied first, the whole office is verified on its sheets, and
    the drop follows only if nothing differs; else ``OfficeError`` with the differences (the rows are kept, the
    office one migration short of this version: `office verify` says the rest)."""
    conn = connections[using]
    executor = MigrationExecutor(conn)
    leaves = executor.loader.graph.leaf_nodes()
    pending = {(m.app_label, m.name) for m, backwards in executor.migration_plan(leaves) if not backwards}
    if DROP in pending:
        held = set(executor.loader.graph.backwards_plan(DROP))  # (the drop and every migration after it)
        targets = [leaf for leaf in leaves if leaf not in held] + [SHEETS]
        _migrate(conn, targets)
        if verify_first(conn):
            report = verify_all(actor=actor)
            if not report.ok:
                raise OfficeError([*(getattr(d, "problem", d) for d in report.differences[:10]), problem(
                    "the editions' sheets were built, but `qiyuan office verify` finds {count} difference(s): the old "
                    "tables of editions are kept and the upgrade stops before dropping them; run `qiyuan office "
                    "verify` to see every difference", code="office.verify_first",
                    count=len(report.differences))])
    _migrate(connections[using], MigrationExecutor(connections[using]).loader.graph.leaf_nodes())


def _migrate(conn, targets) -> None:
    executor = MigrationExecutor(conn)
    plan = executor.migration_plan(targets)
    if plan:
        executor.migrate(targets, plan=plan)
