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
from django.db import DEFAULT_DB_ALIAS, transaction

from qiyuan.office.audit.models import record
from qiyuan.office.db import check_integrity


def init_office(*, actor: str, using: str = DEFAULT_DB_ALIAS, verbosity: int = 0) -> list[str]:
    """Migrate the database to this version's schema, then run every app's ``office_init`` hook.

    Returns the lines the hooks reported. Safe to run again.
    """
    check_integrity(using)  # never "ready" on a damaged file: migrate would write into it
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
