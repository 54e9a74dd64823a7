"""The officer's review of a computed period (审核，尚未发布): every player the period touches — a rating change,
a status change (active → inactive, inactive → active, removed) or a first rating — counted and listed, with
the statuses in words. Reads the computation (``qiyuan.office.periods.PeriodComputation``) only: the states
before are ``comp.prior`` (the previous edition's, or the start state of a player new to the list), the
states after are its entries."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy

from qiyuan.rating import results as R

from ..labels import list_status_label

#: Players listed in the review's table (the rest are counted, and are all in the published list).
REVIEW_ROWS = 3000

#: The kinds of change counted, in the order the review shows them (before, after); ``None`` before: any.
NEWLY_RATED = "new"
KINDS = {
    NEWLY_RATED: gettext_lazy("首次获得等级分"),
    (R.ACTIVE, R.INACTIVE): gettext_lazy("活跃 → 不活跃"),
    (R.INACTIVE, R.ACTIVE): gettext_lazy("不活跃 → 活跃"),
    (None, R.REMOVED): gettext_lazy("除名"),
}


@dataclass
class StatusChange:
    """Players whose status on the list changes in one way (or who are rated for the first time)."""

    key: object
    label: str
    rows: list = field(default_factory=list)


@dataclass
class Review:
    comp: object
    rows: list  # every player touched: {"e": entry, "name", "changes", "before": status or None, "kind": key}
    changes: list[StatusChange]  # the status changes, each counted, none left out
    rated: int  # players with a rating change (an event rated for them)
    entries: int  # players on the new list

    @property
    def shown(self) -> list:
        return self.rows[:REVIEW_ROWS]

    @property
    def more(self) -> int:
        return max(0, len(self.rows) - REVIEW_ROWS)

    @property
    def events(self) -> int:
        return len(self.comp.events)


def kind_of(before: str | None, after: str, is_new: bool):
    """The kind of change of a player whose status goes from ``before`` (None: not on the last list) to
    ``after``: a key of ``KINDS``, a (before, after) pair not named there, or None when it stays."""
    if is_new:
        return NEWLY_RATED
    if before == after or (before is None and after == R.UNRATED):
        return None
    if after == R.REMOVED:
        return (None, R.REMOVED)
    return (before, after)


def kind_label(key) -> str:
    """A kind of change in the page's language (a pair not named in ``KINDS``: both statuses in words)."""
    if key in KINDS:
        return str(KINDS[key])
    before, after = key
    return f"{list_status_label(before) if before else '—'} → {list_status_label(after)}"


def review(comp, names: dict[str, str]) -> Review:
    """The review of ``comp``: ``names`` by federation ID."""
    by_player: dict[str, list] = {}
    for c in comp.changes:
        by_player.setdefault(c.player_id, []).append(c)
    counted: dict[object, StatusChange] = {}
    rows = []
    for e in comp.entries:
        before = comp.prior.status_of(e.federation_id)
        key = kind_of(before, e.status, e.is_new)
        changes = by_player.get(e.federation_id, [])
        if not changes and key is None:
            continue
        row = {"e": e, "name": names.get(e.federation_id, e.name), "changes": changes, "before": before,
               "kind": key}
        rows.append(row)
        if key is not None:
            counted.setdefault(key, StatusChange(key, kind_label(key))).rows.append(row)
    order = list(KINDS)
    ordered = sorted(counted.values(), key=lambda s: (order.index(s.key) if s.key in order else len(order),
                                                      str(s.key)))
    return Review(comp, rows, ordered, sum(1 for r in rows if r["changes"]), len(comp.entries))
