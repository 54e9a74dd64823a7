"""Reproducibility (可复核): recompute every published edition from the stored events and prove it identical.

For each edition — corrections and superseded ones included — the period is
computed again from exactly what the edition says it started from (its
previous edition's stored states, the list members who had joined by its
publication, the events it rated, the rule-set settings it used, the names it
published) and compared with the stored rows, bit for bit: the digest of the
recomputation must equal the digest published, and the rows read back from
the database must give that digest too (nothing was altered after
publication).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from qiyuan.office.services.periods import (
    canonical,
    change_json,
    compute_period,
    rules_of_edition,
    stored_canonical,
)

MAX_SHOWN = 20


@dataclass
class VerifyReport:
    editions: int = 0
    differences: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences


def verify_edition(edition) -> list[str]:
    """The differences between a published edition and its recomputation (empty: identical)."""
    entries, changes, events = stored_canonical(edition)
    label = f"{edition.rating_list.code} {edition.label}"
    out: list[str] = []
    stored_digest = hashlib.sha256(canonical(entries, changes, events).encode("utf-8")).hexdigest()
    if stored_digest != edition.digest:
        out.append(f"{label}: the stored rows no longer give the published digest (altered after publication)")
    evs = list(edition.events.order_by("end_date", "start_date", "code"))
    names = {e[0]: e[1] for e in entries}
    comp = compute_period(edition.rating_list, edition.list_date, previous=edition.previous, events=evs,
                          rules=rules_of_edition(edition), published_before=edition.published_at, names=names)
    if comp.digest == edition.digest and not out:
        return []
    mine = {e.federation_id: e.canonical() for e in comp.entries}
    theirs = {e[0]: e for e in entries}
    for fid in sorted(set(mine) | set(theirs)):
        if mine.get(fid) != theirs.get(fid):
            out.append(f"{label}: player {fid}: published {theirs.get(fid)!r}, recomputed {mine.get(fid)!r}")
    mine_c = {(c.event_id, c.player_id): change_json(c) for c in comp.changes}
    theirs_c = {(ev, fid): expl for ev, fid, expl in changes}
    for key in sorted(set(mine_c) | set(theirs_c)):
        if mine_c.get(key) != theirs_c.get(key):
            out.append(f"{label}: change of {key[1]} in {key[0]}: published {theirs_c.get(key)!r}, "
                       f"recomputed {mine_c.get(key)!r}")
    if sorted(events) != sorted(e.code for e in comp.events):
        out.append(f"{label}: events differ")
    if not out:
        out.append(f"{label}: digest differs ({edition.digest[:12]} published, {comp.digest[:12]} recomputed)")
    return out


def verify_all(rating_list=None, *, progress: Callable[[int, int], None] | None = None) -> VerifyReport:
    """Verify every published edition (of one list, or of all lists)."""
    from qiyuan.office.ratings.models import Edition

    qs = Edition.objects.select_related("rating_list", "previous").order_by("rating_list__code", "list_date", "number")
    if rating_list is not None:
        qs = qs.filter(rating_list=rating_list)
    editions = list(qs)
    report = VerifyReport()
    for i, ed in enumerate(editions, start=1):
        report.editions += 1
        diffs = verify_edition(ed)
        report.differences.extend(diffs[:MAX_SHOWN])
        if len(diffs) > MAX_SHOWN:
            report.differences.append(f"… and {len(diffs) - MAX_SHOWN} more differences in {ed}")
        if progress:
            progress(i, len(editions))
    return report
