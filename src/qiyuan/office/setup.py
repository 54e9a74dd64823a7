"""Setting up an office (``qiyuan office init``): the schema, then each app's own start-up data.

Hook: an app whose ``AppConfig`` has a method ``office_init(self, *, actor)``
gets it called after the migrations, in ``INSTALLED_APPS`` order (the ratings
app creates its default rating lists there). A hook must be idempotent —
``init`` may run again on an existing office — and may return a line of text
to report.
"""

from __future__ import annotations

from django.apps import apps
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.db.migrations.executor import MigrationExecutor

from qiyuan.errors import problem
from qiyuan.office.audit.models import record
from qiyuan.office.db import check_integrity
from qiyuan.office.errors import OfficeError
from qiyuan.office.ratings.upgrade import DROP, migrate_office


def init_office(*, actor: str, using: str = DEFAULT_DB_ALIAS, verbosity: int = 0) -> list[str]:
    """Migrate the database to this version's schema, then run every app's ``office_init`` hook.

    Returns the lines the hooks reported. Safe to run again.
    """
    check_integrity(using)  # never "ready" on a damaged file: migrate would write into it
    migrate_office(actor=actor, using=using)  # (the drop of the old row tables waits for `office verify`)
    # nothing left to apply: what ``migrate`` does after (content types, permissions)
    call_command("migrate", database=using, interactive=False, verbosity=verbosity)
    lines: list[str] = []
    with transaction.atomic(using=using):
        for config in apps.get_app_configs():
            hook = getattr(config, "office_init", None)
            if callable(hook):
                said = hook(actor=actor)
                if said:
                    lines.append(f"{config.label}: {said}")
        record(actor, "office.init", hooks=lines)
    return lines


def pending_migrations(using: str = DEFAULT_DB_ALIAS) -> list[str]:
    """This version's migrations the database has not applied (``app.name``): an office never set up, or one
    whose restore or upgrade stopped half-way (the backup's older schema, or part of the way forward)."""
    try:
        executor = MigrationExecutor(connections[using])
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError:
        return []  # (a damaged file: ``db.damaged`` says so)
    return [f"{m.app_label}.{m.name}" for m, backwards in plan if not backwards]


def require_set_up(using: str = DEFAULT_DB_ALIAS, *, verifying: bool = False) -> None:
    """Refuse to work on an office whose schema is not this version's (``pending_migrations``): "not set up",
    with the way out, instead of whatever a missing column would make a command do. ``verifying``: `office
    verify` runs on an office whose only pending step is the drop of the old row tables (that drop waits for it)."""
    pending = [m for m in pending_migrations(using) if not (verifying and m == ".".join(DROP))]
    if pending:
        raise OfficeError(not_set_up(pending))


def not_set_up(pending: list[str]):
    return problem("the office's database is not set up for this version: {n} migration(s) not applied ({names}) — "
                   "a restore or an upgrade was interrupted? run `qiyuan office init`, or restore the backup again",
                   code="office.not_set_up", n=len(pending), names=", ".join(pending[:5]) + (" …" if len(pending) > 5
                                                                                          else ""))
