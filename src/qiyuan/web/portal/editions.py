"""Which published editions are current (本期有效版本): for each list date, the
edition with the highest number (a correction supersedes the publication).

Editions are only ever added, never changed, so what is derived from them is
kept in this process's memory under their version (their number and the
newest id): a new publication changes the key. (A process-local memo rather than Django's
cache: these are read on every player page and need no unpickling.)
"""

from __future__ import annotations

import re
import threading

from django.db import connection
from django.db.models import Max
from django.utils.translation import gettext

from qiyuan.office.audit.models import AuditLog
from qiyuan.office.events.models import LiveEvent
from qiyuan.office.federation.models import DanGrant
from qiyuan.office.periods import CARRIED_PREFIX
from qiyuan.office.ratings.models import Edition

_memo: dict[tuple[str, int], object] = {}
_lock = threading.Lock()


def _versions(with_audit: bool) -> tuple:
    """The editions' count and newest id (ids only grow: a publication changes them), and the newest audit
    entry's id — in one statement, written out: it runs on every cached page, where building the ORM's
    aggregate cost more than the query."""
    editions, audit = Edition._meta.db_table, AuditLog._meta.db_table
    sql = f"SELECT COUNT(*), MAX(id) FROM {editions}"
    if with_audit:
        sql = f"SELECT COUNT(*), MAX(id), (SELECT MAX(id) FROM {audit}) FROM {editions}"
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()


def edition_version() -> str:
    """Changes whenever an edition is published."""
    n, last = _versions(False)
    return f"{n}-{last or 0}"


def listing_version() -> str:
    """Changes whenever an edition is published or a grade granted: a list page's grade column and ``dan``
    filter read the player's grade now (docs/decisions.md), and grants are only ever added (a demotion is a
    grant too), so the newest grant's id — one indexed read in the same statement — tells a new one."""
    editions, grants = Edition._meta.db_table, DanGrant._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*), MAX(id), (SELECT MAX(id) FROM {grants}) FROM {editions}")
        n, last, grant = cursor.fetchone()
    return f"{n}-{last or 0}-g{grant or 0}"


def grants_version() -> str:
    """The newest grade grant's id (see ``listing_version``)."""
    return str(DanGrant.objects.aggregate(last=Max("id"))["last"] or 0)


def live_version() -> str:
    """Changes whenever an event run at the desk changes (an arbiter's result, a pairing, a withdrawal)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*), MAX(updated_at) FROM {LiveEvent._meta.db_table}")
        n, last = cursor.fetchone()
    return f"{n}-{str(last).replace(' ', 'T')}"


def data_version() -> str:
    """Changes whenever the office writes anything a public page shows: every use case writes an audit entry
    (imports, registry changes, merges, publications), and editions are counted too."""
    n, last, audit = _versions(True)
    return f"{n}-{last or 0}-{audit or 0}"


def _remember(kind: str, compute):
    key = (kind, edition_version())
    found = _memo.get(key)
    if found is None:
        found = compute()
        with _lock:
            for old in [k for k in _memo if k[0] == kind and k != key]:
                del _memo[old]
            _memo[key] = found
    return found


def editions_by_id() -> dict[int, Edition]:
    """Every edition with its list, by id."""
    return _remember(
        "by-id", lambda: {ed.pk: ed for ed in Edition.objects.select_related("rating_list").defer("rules_settings")}
    )


def current_edition_ids() -> frozenset[int]:
    """Ids of the current edition of every list date of every list."""

    def compute() -> frozenset[int]:
        tops = Edition.objects.values("rating_list_id", "list_date").annotate(top=Max("number"))
        wanted = {(t["rating_list_id"], t["list_date"], t["top"]) for t in tops}
        return frozenset(
            pk
            for pk, rl, day, number in Edition.objects.values_list("pk", "rating_list_id", "list_date", "number")
            if (rl, day, number) in wanted
        )

    return _remember("current", compute)


_CARRIED = re.compile(re.escape(CARRIED_PREFIX).replace(re.escape("{date}"), r"(?P<date>\d{4}-\d{2}-\d{2})"))


def correction_reason(reason: str) -> tuple[str, str]:
    """A correction's reason as (the code's words in the page's language, the officer's words as typed): a
    correction carried forward says which list date's correction it follows."""
    m = _CARRIED.match(reason or "")
    if m is None:
        return "", reason or ""
    return gettext("随 %(date)s 的更正而重算：") % {"date": m.group("date")}, reason[m.end():]
