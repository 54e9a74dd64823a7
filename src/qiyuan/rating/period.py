"""统计期: one rating period, from the last published list to the next one.

Rn = Ro + ΣΔR over the rated events whose end date falls in the period; Ro is
the last published rating for every event of the period; only the published
rating is rounded, half up (四舍五入). At the publication date the newcomers
whose counted games reach the threshold get their first rating, and the
activity rule (不活跃, 除名) is applied.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from functools import cached_property

from qiyuan.rating import results as R
from qiyuan.rating.calendar import add_months
from qiyuan.rating.event import rate_event
from qiyuan.rating.exact import round_half_up, to_decimal
from qiyuan.rating.model import Event, Game, Standing
from qiyuan.rating.newcomer import first_rating
from qiyuan.rating.rules import NEWCOMER_PERFORMANCE, NEWCOMER_PROVISIONAL, WINDOW_MONTHS, RuleSet
from qiyuan.rating.state import NewcomerRecord, PlayerState


@dataclass(frozen=True)
class PeriodResult:
    """The outcome of one period: the published list, the changes, and the states to carry on."""

    list_date: date
    changes: list[R.EventChange]
    states: dict[str, PlayerState]

    @cached_property
    def published(self) -> R.PublishedList:
        """The published list (every player of the states, in list order), built when first asked for
        (the office orders its own list and never needs it)."""
        entries = sorted((R.ListEntry(player_id=p, rating=s.rating, exact=s.exact, games=s.games, status=s.status)
                          for p, s in self.states.items()), key=R.list_order_key)
        return R.PublishedList(self.list_date, entries)


def newcomer_window_start(rules: RuleSet, list_date: date) -> date:
    """The earliest end date of an event that still counts toward a first rating at ``list_date``.

    CGA: the 24 months before the list. Beijing–Shanghai: the calendar year of
    the day before the list, and the year before (两个年度).
    """
    if rules.newcomer_window == WINDOW_MONTHS:
        return add_months(list_date, -rules.newcomer_window_length)
    last_year = (list_date - timedelta(days=1)).year
    return date(last_year - rules.newcomer_window_length + 1, 1, 1)


def _in_window(records: Sequence[NewcomerRecord], start: date) -> tuple[NewcomerRecord, ...]:
    return tuple(r for r in records if r.end_date >= start)


def _games_between(activity: Sequence[tuple[date, int]], start: date, end: date) -> int:
    return sum(n for d, n in activity if start <= d < end)


@dataclass(frozen=True, slots=True)
class _Cutoffs:
    """The window starts of one publication date (computed once per period)."""

    list_date: date
    newcomer_from: date  # counted newcomer events end on or after this
    activity_from: date | None  # the activity window [activity_from, list_date)
    reactivation_from: date | None
    keep_from: date | None  # older activity records are no longer needed

    @classmethod
    def of(cls, rules: RuleSet, list_date: date) -> _Cutoffs:
        window = rules.activity_window_months
        if window is None:
            return cls(list_date, newcomer_window_start(rules, list_date), None, None, None)
        return cls(list_date, newcomer_window_start(rules, list_date), add_months(list_date, -window),
                   add_months(list_date, -rules.reactivation_window_months),
                   add_months(list_date, -max(window, rules.reactivation_window_months)))


def _status_after(rules: RuleSet, s: PlayerState, cut: _Cutoffs) -> PlayerState:
    """The activity rule (不活跃 / 除名) at a publication date, for a player holding a published rating.

    A player is judged only on a full window in which he held a published rating;
    an inactive player is active again with enough games in the reactivation
    window, and removed once inactive for ``removal_after_months``.
    """
    if cut.activity_from is None:
        return s if s.status == R.ACTIVE else replace(s, status=R.ACTIVE, inactive_since=None)
    if s.status == R.INACTIVE:
        if _games_between(s.activity, cut.reactivation_from, cut.list_date) >= rules.reactivation_min_games:
            return replace(s, status=R.ACTIVE, inactive_since=None)
        if (rules.removal_after_months is not None and s.inactive_since is not None
                and cut.list_date >= add_months(s.inactive_since, rules.removal_after_months)):
            return PlayerState(player_id=s.player_id, gender=s.gender, latched=s.latched, status=R.REMOVED)
        return s
    judged = s.rated_since is not None and s.rated_since <= cut.activity_from
    if judged and _games_between(s.activity, cut.activity_from, cut.list_date) < rules.activity_min_games:
        return replace(s, status=R.INACTIVE, inactive_since=cut.list_date)
    return s if s.status == R.ACTIVE else replace(s, status=R.ACTIVE)


def _publish(rules: RuleSet, s: PlayerState, counted: Sequence[tuple[date, R.EventChange]],
             records: Sequence[NewcomerRecord], cut: _Cutoffs) -> PlayerState:
    """The player's state once the list is published; ``counted`` holds his (event end date, change)
    pairs of the period, ``records`` his newcomer events of the period that count."""
    if s.rating is None and not s.newcomer and not records:
        return s  # nothing to publish (and the same state object: callers may compare by identity)
    activity = list(s.activity)
    if s.is_rated:
        if counted:
            exact = Decimal(s.rating) + sum((c.delta for _, c in counted), Decimal(0))
            activity += [(end, c.games) for end, c in counted if c.games]
            s = replace(s, rating=round_half_up(exact), exact=exact,
                        games=s.games + sum(c.games for _, c in counted))
        elif s.exact != s.rating:
            s = replace(s, exact=Decimal(s.rating))
    elif s.newcomer or records:
        window = _in_window([*s.newcomer, *records], cut.newcomer_from)
        total = sum(r.games for r in window)
        if rules.newcomer_method in (NEWCOMER_PERFORMANCE, NEWCOMER_PROVISIONAL) and window \
                and total >= rules.newcomer_min_games:
            if rules.newcomer_method == NEWCOMER_PERFORMANCE:
                exact_value = first_rating((r.ru, r.games) for r in window)
            else:
                exact_value = rules.start_rating(s.gender, s.player_id) + sum((r.delta for r in window), Decimal(0))
            s = replace(s, rating=round_half_up(exact_value), exact=to_decimal(exact_value), games=total,
                        status=R.ACTIVE, rated_since=cut.list_date, inactive_since=None, newcomer=())
            activity += [(r.end_date, r.games) for r in window]
        else:
            s = replace(s, newcomer=window)
    if not s.is_rated:
        return s
    latched = s.latched or (rules.k_latch_rating is not None and s.rating >= rules.k_latch_rating)
    kept = () if cut.keep_from is None else tuple(sorted(a for a in activity if a[0] >= cut.keep_from))
    if latched != s.latched or kept != s.activity:
        s = replace(s, latched=latched, activity=kept)
    return _status_after(rules, s, cut)


def rate_period(rules: RuleSet, state: Mapping[str, PlayerState], events: Sequence[Event], games: Sequence[Game],
                standings: Sequence[Standing], list_date: date) -> PeriodResult:
    """Rate the events of one period and publish the list of ``list_date``.

    ``state`` holds every player's state after the last published list (see
    ``initial_states``); ``events`` are the events whose end date falls in the
    period (all before ``list_date``). Returns the published list (every player of
    ``state``), the event changes and the new states.
    """
    late = [e.id for e in events if e.end_date >= list_date]
    if late:
        raise ValueError(f"events ending on or after the list date {list_date}: {', '.join(sorted(late))}")
    by_event: dict[str, list[Game]] = defaultdict(list)
    known = {e.id for e in events}
    for g in games:
        if g.event_id not in known:
            raise ValueError(f"game of unknown event {g.event_id!r} (round {g.round}, {g.player1}–{g.player2})")
        by_event[g.event_id].append(g)
    standings_of: dict[str, list[Standing]] = defaultdict(list)
    for s in standings:
        standings_of[s.event_id].append(s)
    unknown = sorted({p for g in games for p in (g.player1, g.player2)} - set(state))
    if unknown:
        raise ValueError(f"games of unknown player(s): {', '.join(unknown)}")

    window_start = newcomer_window_start(rules, list_date)
    # Games counted so far for K: published count (a newcomer: his counted games in the window).
    base_games = {p: (s.games if s.is_rated else sum(r.games for r in _in_window(s.newcomer, window_start)))
                  for p, s in state.items()}
    counted_in_period: dict[str, list[tuple[date, int]]] = defaultdict(list)
    changes_of: dict[str, list[tuple[date, R.EventChange]]] = defaultdict(list)
    records_of: dict[str, list[NewcomerRecord]] = defaultdict(list)
    all_changes: list[R.EventChange] = []
    for event in sorted(events, key=lambda e: (e.end_date, e.start_date, e.id)):
        players = {p for g in by_event[event.id] for p in (g.player1, g.player2)}
        # K is fixed at the start of the event: games of this period's events that ended before it count.
        k_games = {p: base_games[p] + sum(n for end, n in counted_in_period[p] if end < event.start_date)
                   for p in players}
        outcome = rate_event(rules, event, by_event[event.id], state, k_games, list_date,
                             standings_of.get(event.id, ()))
        for change in outcome.changes:
            all_changes.append(change)
            changes_of[change.player_id].append((event.end_date, change))
            if change.games:
                counted_in_period[change.player_id].append((event.end_date, change.games))
        for p, record in outcome.records.items():
            records_of[p].append(record)

    cut = _Cutoffs.of(rules, list_date)
    new_states = {p: _publish(rules, s, changes_of.get(p, ()), records_of.get(p, ()), cut)
                  for p, s in state.items()}
    return PeriodResult(list_date=list_date, changes=all_changes, states=new_states)
