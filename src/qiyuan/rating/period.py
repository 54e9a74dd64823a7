"""统计期: one rating period, from the last published list to the next one.

Rn = Ro + ΣΔR over the rated events whose end date falls in the period; Ro is
the last published rating for every event of the period; only the published
rating is rounded, half up (四舍五入). At the publication date the newcomers
whose counted games reach the threshold get their first rating, and the
activity rule (不活跃, 除名) is applied.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal
from functools import cached_property

from qiyuan.rating import calculation as C
from qiyuan.rating import results as R
from qiyuan.rating.calculation import Step, given, step
from qiyuan.rating.calendar import add_months
from qiyuan.rating.event import rate_event
from qiyuan.rating.exact import round_half_up, to_decimal
from qiyuan.rating.model import Event, Game, Player, Standing
from qiyuan.rating.newcomer import first_rating
from qiyuan.rating.order import list_order_key
from qiyuan.rating.rules import NEWCOMER_PERFORMANCE, NEWCOMER_PROVISIONAL, WINDOW_MONTHS, RuleSet
from qiyuan.rating.state import NewcomerRecord, PlayerState


def list_entry(player_id: str, s: PlayerState) -> R.ListEntry:
    """His entry on a list: the published rating and its exact value, the games K counts (a newcomer's: his
    counted games in the window), the status."""
    return R.ListEntry(player_id=player_id, rating=s.rating, exact=s.exact, games=listed_games(s), status=s.status)


def listed_games(s: PlayerState) -> int:
    """The games his list entry shows: a rated player's count, a newcomer's counted games in the window."""
    return s.games if s.rating is not None else sum(r.games for r in s.newcomer)


def ordered_list(rules: RuleSet, list_date: date, states: Mapping[str, PlayerState],
                 people: Mapping[str, Player]) -> R.PublishedList:
    """The published list of ``list_date``: every player of ``states``, in the rule set's list order
    (``people`` gives the names and registration dates it needs)."""

    def key(item: tuple[str, PlayerState]) -> tuple:
        p, s = item
        who = people.get(p)
        return list_order_key(rules, status=s.status, rating=s.rating, name=who.name if who else "", player_id=p,
                              is_new=s.rating is not None and s.rated_since == list_date,
                              registered_on=who.registered_on if who else None)

    return R.PublishedList(list_date, [list_entry(p, s) for p, s in sorted(states.items(), key=key)])


@dataclass(frozen=True)
class PeriodResult:
    """The outcome of one period: the published list, the changes, and the states to carry on."""

    rules: RuleSet
    list_date: date
    changes: list[R.EventChange]
    states: dict[str, PlayerState]
    people: Mapping[str, Player] = field(default_factory=dict)
    #: for the players asked for: their events' explanations and how their entry came about
    explanations: dict[str, tuple[list[C.EventExplanation], C.Publication]] = field(default_factory=dict)

    @cached_property
    def published(self) -> R.PublishedList:
        """The published list (every player of the states, in list order), built when first asked for."""
        return ordered_list(self.rules, self.list_date, self.states, self.people)


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


def _status_after(rules: RuleSet, s: PlayerState, cut: _Cutoffs) -> tuple[PlayerState, C.Activity]:
    """The activity rule (不活跃 / 除名) at a publication date, for a player holding a published rating,
    and what it found.

    A player is judged only on a full window in which he held a published rating;
    an inactive player is active again with enough games in the reactivation
    window, and removed once inactive for ``removal_after_months``.
    """
    if cut.activity_from is None:
        out = s if s.status == R.ACTIVE else replace(s, status=R.ACTIVE, inactive_since=None)
        return out, C.Activity(C.ACT_NO_RULE)
    if s.status == R.INACTIVE:
        games = _games_between(s.activity, cut.reactivation_from, cut.list_date)
        removal = (add_months(s.inactive_since, rules.removal_after_months)
                   if rules.removal_after_months is not None and s.inactive_since is not None else None)
        seen = dict(window_from=cut.reactivation_from, games=games, needed=rules.reactivation_min_games,
                    rated_since=s.rated_since, inactive_since=s.inactive_since, removal_on=removal)
        if games >= rules.reactivation_min_games:
            return replace(s, status=R.ACTIVE, inactive_since=None), C.Activity(C.ACT_REACTIVATED, **seen)
        if removal is not None and cut.list_date >= removal:
            removed = PlayerState(player_id=s.player_id, gender=s.gender, latched=s.latched, status=R.REMOVED)
            return removed, C.Activity(C.ACT_REMOVED, **seen)
        return s, C.Activity(C.ACT_STAYS_INACTIVE, **seen)
    judged = s.rated_since is not None and s.rated_since <= cut.activity_from
    games = _games_between(s.activity, cut.activity_from, cut.list_date)
    seen = dict(window_from=cut.activity_from, games=games, needed=rules.activity_min_games, rated_since=s.rated_since)
    if not judged:
        return (s if s.status == R.ACTIVE else replace(s, status=R.ACTIVE)), C.Activity(C.ACT_NOT_JUDGED, **seen)
    if games < rules.activity_min_games:
        return replace(s, status=R.INACTIVE, inactive_since=cut.list_date), C.Activity(C.ACT_INACTIVE, **seen)
    return (s if s.status == R.ACTIVE else replace(s, status=R.ACTIVE)), C.Activity(C.ACT_ACTIVE, **seen)


def _publish(rules: RuleSet, s: PlayerState, counted: Sequence[tuple[date, R.EventChange]],
             records: Sequence[NewcomerRecord], cut: _Cutoffs, explain: bool = False
             ) -> tuple[PlayerState, C.Publication | None]:
    """The player's state once the list is published; ``counted`` holds his (event end date, change)
    pairs of the period, ``records`` his newcomer events of the period that count. With ``explain``, also
    how his entry came about."""
    if s.rating is None and not s.newcomer and not records:
        # nothing to publish (and the same state object: callers may compare by identity)
        return s, C.Publication(cut.list_date) if explain else None
    steps: list[Step] = []
    parts: tuple[NewcomerRecord, ...] = ()
    newcomer_needed = None
    activity = list(s.activity)
    was_latched = s.latched
    if s.is_rated:
        if counted:
            exact = Decimal(s.rating) + sum((c.delta for _, c in counted), Decimal(0))
            activity += [(end, c.games) for end, c in counted if c.games]
            if explain:
                ro = given("Ro", s.rating, "his last published rating")
                rn = step("Rn", exact, "sum", ro, *(("ΔR", c.delta) for _, c in counted))
                before = given("games before", s.games, "rated games on the last list")
                steps += [ro, rn, step("rating", round_half_up(exact), "round", rn), before,
                          step("games", s.games + sum(c.games for _, c in counted), "sum", before,
                               *(("games", c.games) for _, c in counted))]
            s = replace(s, rating=round_half_up(exact), exact=exact,
                        games=s.games + sum(c.games for _, c in counted))
        else:
            if explain:
                steps.append(given("rating", s.rating, "unchanged: no rated game in this period"))
            if s.exact != s.rating:
                s = replace(s, exact=Decimal(s.rating))
    elif s.newcomer or records:
        window = _in_window([*s.newcomer, *records], cut.newcomer_from)
        total = sum(r.games for r in window)
        newcomer_needed = rules.newcomer_min_games
        if explain:
            parts = window
            steps.append(step("games", total, "sum", *(("games", r.games) for r in window)))
        if rules.newcomer_method in (NEWCOMER_PERFORMANCE, NEWCOMER_PROVISIONAL) and window \
                and total >= rules.newcomer_min_games:
            if rules.newcomer_method == NEWCOMER_PERFORMANCE:
                exact_value = first_rating((r.ru, r.games) for r in window)
                if explain:  # Art. 7(五): the game-weighted mean of his Ru
                    args = [a for r in window for a in (("Ru", r.ru), ("n", r.games))]
                    steps.append(step("first rating", exact_value, "wmean", *args))
            else:
                start = rules.start_rating(s.gender, s.player_id)
                exact_value = start + sum((r.delta for r in window), Decimal(0))
                if explain:  # §12: the provisional rating plus his ΔR against rated players
                    ro = given("Ro", start, "provisional rating (暂定等级分)")
                    steps += [ro, step("first rating", exact_value, "sum", ro, *(("ΔR", r.delta) for r in window))]
            if explain:
                steps.append(step("rating", round_half_up(exact_value), "round", steps[-1]))
            s = replace(s, rating=round_half_up(exact_value), exact=to_decimal(exact_value), games=total,
                        status=R.ACTIVE, rated_since=cut.list_date, inactive_since=None, newcomer=())
            activity += [(r.end_date, r.games) for r in window]
        else:
            s = replace(s, newcomer=window)
    verdict = None
    if s.is_rated:
        latched = s.latched or (rules.k_latch_rating is not None and s.rating >= rules.k_latch_rating)
        kept = () if cut.keep_from is None else tuple(sorted(a for a in activity if a[0] >= cut.keep_from))
        if latched != s.latched or kept != s.activity:
            s = replace(s, latched=latched, activity=kept)
        s, verdict = _status_after(rules, s, cut)
    if not explain:
        return s, None
    return s, C.Publication(
        cut.list_date, tuple(steps), newcomer_window_from=cut.newcomer_from if newcomer_needed is not None else None,
        newcomer_parts=parts, newcomer_needed=newcomer_needed, activity=verdict,
        latched_now=s.latched and not was_latched, removed_now=verdict is not None and verdict.verdict == C.ACT_REMOVED)


def rate_period(rules: RuleSet, state: Mapping[str, PlayerState], events: Sequence[Event], games: Sequence[Game],
                standings: Sequence[Standing], list_date: date, *, people: Mapping[str, Player] | None = None,
                explain: Collection[str] | bool = (), only: Collection[str] | None = None) -> PeriodResult:
    """Rate the events of one period and publish the list of ``list_date``.

    ``state`` holds every player's state after the last published list (see
    ``initial_states``); ``events`` are the events whose end date falls in the
    period (all before ``list_date``). Returns the published list (every player of
    ``state``, ordered with the names and registration dates of ``people``), the event
    changes and the new states; with ``explain`` (player ids, or ``True`` for all) the
    explanations of those players. ``only``: the changes and states of these players alone (to explain
    them: a player's calculation does not depend on the others' changes).
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
    explained: dict[str, list[C.EventExplanation]] = defaultdict(list)
    all_changes: list[R.EventChange] = []
    for event in sorted(events, key=lambda e: (e.end_date, e.start_date, e.id)):
        players = {p for g in by_event[event.id] for p in (g.player1, g.player2)}
        # K is fixed at the start of the event: games of this period's events that ended before it count.
        k_games = {p: base_games[p] + sum(n for end, n in counted_in_period[p] if end < event.start_date)
                   for p in players}
        outcome = rate_event(rules, event, by_event[event.id], state, k_games, list_date,
                             standings_of.get(event.id, ()), explain=explain, k_base=base_games, only=only)
        for change in outcome.changes:
            all_changes.append(change)
            changes_of[change.player_id].append((event.end_date, change))
            if change.games:
                counted_in_period[change.player_id].append((event.end_date, change.games))
        for p, record in outcome.records.items():
            records_of[p].append(record)
        for p, x in outcome.explanations.items():
            explained[p].append(x)

    cut = _Cutoffs.of(rules, list_date)
    new_states: dict[str, PlayerState] = {}
    explanations: dict[str, tuple[list[C.EventExplanation], C.Publication]] = {}
    for p, s in (state.items() if only is None else ((p, state[p]) for p in only)):
        wanted = explain is True or (explain is not False and p in explain)
        new_states[p], publication = _publish(rules, s, changes_of.get(p, ()), records_of.get(p, ()), cut, wanted)
        if wanted:
            explanations[p] = (explained.get(p, []), publication)
    return PeriodResult(rules=rules, list_date=list_date, changes=all_changes, states=new_states,
                        people=people or {}, explanations=explanations)
