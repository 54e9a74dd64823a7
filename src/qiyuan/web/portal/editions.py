"""Which published editions are current (本期有效版本): for each list date, the
edition with the highest number (a correction supersedes the publication)."""

from __future__ import annotations

from django.core.cache import cache
from django.db.models import Max

from qiyuan.office.ratings.models import Edition


def editions_by_id() -> dict[int, Edition]:
    """Every edition with its list, by id (cached like ``current_edition_ids``: editions never change)."""
    count = Edition.objects.count()
    key = f"portal:editions:{count}"
    found = cache.get(key)
    if found is None:
        found = {ed.pk: ed for ed in Edition.objects.select_related("rating_list").defer("rules_settings")}
        cache.set(key, found, None)
    return found


def current_edition_ids() -> frozenset[int]:
    """Ids of the current edition of every list date of every list.

    Editions are only ever added, so the answer is cached under the number of
    editions: a new publication changes the key.
    """
    count = Edition.objects.count()
    key = f"portal:current-editions:{count}"
    ids = cache.get(key)
    if ids is None:
        tops = Edition.objects.values("rating_list_id", "list_date").annotate(top=Max("number"))
        wanted = {(t["rating_list_id"], t["list_date"], t["top"]) for t in tops}
        ids = frozenset(
            pk
            for pk, rl, day, number in Edition.objects.values_list("pk", "rating_list_id", "list_date", "number")
            if (rl, day, number) in wanted
        )
        cache.set(key, ids, None)
    return ids
