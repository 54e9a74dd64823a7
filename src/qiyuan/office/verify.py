"""Reproducibility (可复核): recompute every published edition from the stored events and prove it identical.

For each edition — corrections and superseded ones included — the period is
computed again from exactly what the edition says it started from (its
previous edition's stored states, the list members who had joined by its
publication, the events it rated, the rule-set settings it used, the names it
published) and compared with the stored rows, bit for bit: the digest of the
recomputation must equal the digest published, the rows read back from the
database must give that digest too (nothing was altered after publication),
and every stored number of every rating change — before, after, games, W, We,
K, ΔR, method, which the public pages show beside the explanation — must be
the recomputation's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from qiyuan.office.canonical import (
    CHANGE_COLUMNS,
    change_line,
    change_row,
    digest_of,
    stored_change_rows,
    stored_lines,
)
from qiyuan.office.merged import aliases_for_edition
from qiyuan.office.periods import compute_period, rules_of_edition
from qiyuan.office.ratings.models import Edition

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
    entries, changes, events, ordered = stored_lines(edition)
    label = f"{edition.rating_list.code} {edition.label}"
    out: list[str] = []
    if digest_of(ordered, changes.values(), events) != edition.digest:
        out.append(f"{label}: the stored rows no longer give the published digest (altered after publication)")
    evs = list(edition.events.order_by("end_date", "start_date", "code"))
    names = {fid: json.loads(line.split("\t", 1)[0])[1] for fid, line in entries.items()}
    comp = compute_period(edition.rating_list, edition.list_date, previous=edition.previous, events=evs,
                          rules=rules_of_edition(edition), published_before=edition.published_at, names=names,
                          aliases=aliases_for_edition(set(entries)))
    out += _changed_columns(label, comp, stored_change_rows(edition))
    if comp.digest == edition.digest and not out:
        return []
    mine = {e.federation_id: e.line() for e in comp.entries}
    for fid in sorted(set(mine) | set(entries)):
        if mine.get(fid) != entries.get(fid):
            out.append(f"{label}: player {fid}: published {entries.get(fid)!r}, recomputed {mine.get(fid)!r}")
    mine_c = {(c.event_id, c.player_id): change_line(c.event_id, c.player_id, t)
              for c, t in zip(comp.changes, comp.change_texts)}
    for key in sorted(set(mine_c) | set(changes)):
        if mine_c.get(key) != changes.get(key):
            out.append(f"{label}: change of {key[1]} in {key[0]}: published {changes.get(key)!r}, "
                       f"recomputed {mine_c.get(key)!r}")
    if sorted(events) != sorted(e.code for e in comp.events):
        out.append(f"{label}: events differ")
    if not out:
        out.append(f"{label}: digest differs ({edition.digest[:12]} published, {comp.digest[:12]} recomputed)")
    return out


def _changed_columns(label: str, comp, stored: dict[tuple[str, str], tuple]) -> list[str]:
    """Every stored change column that differs from the recomputation, named by event, player and column."""
    out = []
    for c in comp.changes:
        key = (c.event_id, c.player_id)
        mine, theirs = change_row(c), stored.get(key)
        if theirs is None:
            continue  # a missing row: reported with the explanations
        for column, a, b in zip(CHANGE_COLUMNS, mine, theirs):
            if a != b:
                out.append(f"{label}: change of {c.player_id} in {c.event_id}: stored {column} {b}, recomputed {a}")
    return out


def verify_all(rating_list=None, *, progress: Callable[[int, int], None] | None = None) -> VerifyReport:
    """Verify every published edition (of one list, or of all lists)."""
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
