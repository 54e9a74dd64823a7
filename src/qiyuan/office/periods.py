"""Rating periods (统计期): compute from the stored state, review, publish an immutable edition, correct.

A period of list date L holds the list's events with previous-list-date ≤ end
< L. It starts from the states stored on the previous list date's current
edition (players entering the list start from the rule set's initial state
at the list's start). ``compute_period`` only computes (a preview to review);
``publish_period`` stores the edition — entries, every rating change with its
explanation, the events it rated, the settings used and a digest — and never
changes it again. ``correct_period`` publishes a new edition of a published
date with a reason (a late report, a corrected result) and carries the
correction through the later list dates.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from itertools import groupby

import numpy as np

from qiyuan.collector import held
from qiyuan.office import bundle_files, integrity, merged, plausibility, sheets
from qiyuan.office.audit.models import record
from qiyuan.office.bulk import as_json
from qiyuan.office.canonical import EntryRow, EventRows, digest, event_rows, inputs_digest, stored_inputs
from qiyuan.office.db import rating_list_lock, writing
from qiyuan.office.engine import (
    MemberFacts,
    engine_event,
    engine_games,
    engine_player,
    state_from_json,
)
from qiyuan.errors import Conflict
from qiyuan.formats.edition_entries import edition_entries
from qiyuan.office.errors import OfficeError, problem
from qiyuan.office.events.models import Event
from qiyuan.office.ratings.models import Edition, ListMember
from qiyuan.office.records import sealed_head
from qiyuan.office.signing_key import key_exists, private_key
from qiyuan.rating import results as R
from qiyuan.rating.calendar import next_publication_date, previous_publication_date
from qiyuan.rating.columnar import ChangeTexts
from qiyuan.rating.history import StartState, compute_history
from qiyuan.rating.list_states import ListStates
from qiyuan.rating.model import Player as EnginePlayer
from qiyuan.rating.rules import BUILTIN_RULES, RuleSet, rules_as_dict, with_settings
from qiyuan.rating.state import PlayerState, initial_states
from qiyuan.rating.state_json import canonical_state_text

#: the reason of a correction carried forward (its words are translated where it is shown: web/portal/editions.py)
CARRIED_PREFIX = "随 {date} 的更正而重算："


@dataclass
class PeriodComputation:
    """A computed period, not yet published: review it, then publish it."""

    rating_list: object
    list_date: date
    rules: RuleSet
    previous: object | None  # the Edition it starts from
    events: list  # office Event rows
    states: ListStates  # every member's state after the list, in columns (what the edition stores)
    entries: list[EntryRow]
    #: every change as the reference writes it, in columns (what the edition stores and digests; ``changes``
    #: makes the objects when a reader asks for them: the desk's review, a player's explanation)
    change_cols: ChangeTexts
    pk_of: dict[str, int]  # federation id → player pk
    digest: str = ""
    prior: ListStates = field(default_factory=lambda: ListStates.from_states({}))  # the states it started from
    change_texts: list[str] = field(default_factory=list)
    canonical_version: int = 0  # the version of the canonical text ``digest`` and ``change_texts`` are written in
    #: what the engine was given, for an edition bundle's inputs: the date the period was rated from, the
    #: games and standings (merged records followed), each member's (pk, published name, registration date)
    start: date | None = None
    games: list = field(default_factory=list)
    standings: list = field(default_factory=list)
    members: dict[str, tuple[int, str, date | None]] = field(default_factory=dict)
    #: the events' stored games and standings as read for the engine (the inputs digest hashes the same rows)
    rows: EventRows | None = None
    #: the members' frozen facts and the state texts kept (``MemberCache``'s), for the edition's bundle
    facts: dict[str, MemberFacts] = field(default_factory=dict)
    texts: dict[str, tuple[PlayerState, dict | None, str]] = field(default_factory=dict)
    _changes: list[R.EventChange] | None = field(default=None, repr=False)

    @property
    def changes(self) -> list[R.EventChange]:
        """The changes as ``EventChange`` values (made from ``change_cols`` once, when asked for)."""
        if self._changes is None:
            self._changes = self.change_cols.objects()
        return self._changes

    def explain(self, federation_id: str) -> list[R.EventChange]:
        """The player's changes in this period, event by event (the engine's explanations)."""
        return [c for c in self.changes if c.player_id == federation_id]


#: the rating engine the office publishes with (``compute_history``'s ``engine``)
ENGINE = "fast"
#: the code of a problem asking for a correction edition (``params``: ``list``, ``date``)
NEEDS_CORRECTION = "period.needs_correction"
#: the code of the refusal to publish a period other than the one reviewed
PERIOD_CHANGED = "period.changed"
#: the code of the note where ``publish_due`` stopped: the next list date is still in the future
NOT_YET_DUE = "period.not_yet_due"


# ---------------------------------------------------------------------------------------------- helpers


def rules_of_edition(edition) -> RuleSet:
    settings = dict(edition.rules_settings)
    base = BUILTIN_RULES[edition.rating_list.rules_name]
    return with_settings(base, settings, source=f"edition {edition.pk}")


def check_list_date(rules: RuleSet, list_date: date) -> None:
    if list_date.day != 1 or list_date.month not in rules.publication_months:
        months = ", ".join(f"{m}月1日" for m in rules.publication_months)
        raise OfficeError(f"{list_date} is not a publication date of rule set {rules.name} (lists on {months})")


def current_edition(rating_list, list_date: date):
    return rating_list.editions.filter(list_date=list_date).order_by("-number").first()


def previous_edition(rating_list, list_date: date):
    """The current edition of the latest list date before ``list_date``."""
    last = rating_list.editions.filter(list_date__lt=list_date).order_by("-list_date", "-number").first()
    return last


def latest_edition(rating_list):
    return rating_list.editions.order_by("-list_date", "-number").first()


def period_events(rating_list, rules: RuleSet, list_date: date, previous):
    """The list's events of the period that ``list_date`` closes."""
    qs = rating_list.events.filter(end_date__lt=list_date).exclude(pk__in=integrity.open_holds())  # held for review
    if previous is not None:
        qs = qs.filter(end_date__gte=previous.list_date)
    return list(qs.order_by("end_date", "start_date", "code"))


def check_integrity(rating_list, list_date: date | None = None) -> tuple[date, list]:
    """``office integrity`` and the desk's page: run the integrity checks on the period closing at ``list_date``
    (default: the next due) and store their flags; return the date and the period's integrity flags."""
    rules = rating_list.rules()
    list_date = list_date or due_date(rating_list, rules)
    if list_date is None:
        raise OfficeError(problem("list {list} has no events", list=rating_list.code))
    check_list_date(rules, list_date)
    events = period_events(rating_list, rules, list_date, previous_edition(rating_list, list_date))
    return list_date, integrity.check_period(rating_list, list_date, events)


def due_date(rating_list, rules: RuleSet) -> date | None:
    """The next list date to publish: after the latest edition, or the first after the first event."""
    last = latest_edition(rating_list)
    if last is not None:
        return next_publication_date(rules.publication_months, last.list_date)
    first = rating_list.events.order_by("end_date").first()
    return next_publication_date(rules.publication_months, first.end_date) if first else None


def start_date(rating_list, rules: RuleSet, list_date: date) -> date:
    """Where players enter the list: its start (the period before its first list date)."""
    return rating_list.started_on or previous_publication_date(rules.publication_months, list_date)


def _stored_states(edition) -> dict[str, PlayerState]:
    if edition is None:
        return {}
    return {fid: state_from_json(fid, json.loads(st)) for fid, st in sheets.states(edition).items()}


def members_of(rating_list, as_of=None):
    """The list's members (a query): all of them, or those who had joined by edition ``as_of`` (who joined in it
    or in an edition published before it — decided by the data, never by comparing clocks)."""
    qs = ListMember.objects.filter(rating_list=rating_list)
    if as_of is not None:
        qs = qs.filter(joined_in__isnull=False, joined_in_id__lte=as_of.pk)
    return qs


def _members(rating_list, known: set[str], as_of=None) -> list[tuple[str, MemberFacts]]:
    """The list's members not in ``known`` (federation id, frozen facts), as of edition ``as_of``."""
    rows = members_of(rating_list, as_of).values_list("player__federation_id", "gender", "dan", "rating", "games", "k_latched", "registered_on",
                          "reference_rating", "dan_granted_by")
    return [(fid, MemberFacts(gender, dan, rating, games, latched, reg, ref, body))
            for fid, gender, dan, rating, games, latched, reg, ref, body in rows if fid not in known]


def member_facts(rating_list, as_of=None) -> dict[str, MemberFacts]:
    """Each member's frozen facts (federation id → ``MemberFacts``), as of edition ``as_of``."""
    return dict(_members(rating_list, set(), as_of))


# ---------------------------------------------------------------------------------------------- compute


@dataclass
class MemberCache:
    """The list's members as of a moment: their start states and the facts the order needs (reused by
    consecutive periods, e.g. ``publish_due``)."""

    initial: dict[str, PlayerState]
    info: dict[str, tuple[int, str, date | None]]  # federation id → (player pk, name, registration date)
    #: the canonical text of states given as objects (``ListStates.from_states``: a stored edition's, the
    #: reference engine's), reused while the same object comes again: federation id → (state, None, text)
    texts: dict[str, tuple[PlayerState, dict | None, str]] = field(default_factory=dict)
    #: the engine's players (``rate``), made once for consecutive periods
    people: dict[str, EnginePlayer] = field(default_factory=dict)
    #: each member's frozen facts (federation id → ``MemberFacts``), as ``member_facts`` gives them
    facts: dict[str, MemberFacts] = field(default_factory=dict)
    #: each entry's list order key, reused by consecutive periods (``edition_entries``)
    keys: dict[str, tuple] = field(default_factory=dict)
    #: the canonical text of each member's start state (``initial_text``)
    initial_texts: dict[str, str] = field(default_factory=dict)
    _fids: dict[int, str] | None = field(default=None, repr=False)

    def initial_text(self, fid: str) -> str:
        """The canonical text of the member's start state (written once)."""
        text = self.initial_texts.get(fid)
        if text is None:
            text = self.initial_texts[fid] = canonical_state_text(self.initial[fid])
        return text

    def federation_ids(self) -> dict[int, str]:
        """Player pk → federation id of the members."""
        if self._fids is None:
            self._fids = {v[0]: fid for fid, v in self.info.items()}
        return self._fids


def member_cache(rating_list, rules: RuleSet, list_date: date, *, as_of=None,
                 names: dict[str, str] | None = None) -> MemberCache:
    """The members (all, or those of edition ``as_of``) with their start states at the list's start."""
    start = start_date(rating_list, rules, list_date)
    members = _members(rating_list, set(), as_of)
    initial = initial_states(rules, [engine_player(fid, m) for fid, m in members], start)
    names = names or {}
    info = {fid: (pk, names.get(fid, name), reg) for pk, fid, name, reg in
            members_of(rating_list, as_of).values_list("player_id", "player__federation_id", "player__name", "registered_on")}
    return MemberCache(initial, info, facts=dict(members))


class MemberTable:
    """Every member of a list read once, for computing many editions in a row (``verify``): each edition's
    ``MemberCache`` — the members who had joined by it, with their start states — is taken from this one read,
    the start states computed once per rule settings and start date."""

    def __init__(self, rating_list):
        self.rating_list = rating_list
        self.rows = [(joined, fid, MemberFacts(gender, dan, rating, games, latched, reg, ref, body), (pk, name, reg))
                     for joined, pk, fid, name, gender, dan, rating, games, latched, reg, ref, body in
                     ListMember.objects.filter(rating_list=rating_list, joined_in__isnull=False).values_list(
                         "joined_in_id", "player_id", "player__federation_id", "player__name", "gender", "dan",
                         "rating", "games", "k_latched", "registered_on", "reference_rating", "dan_granted_by")]
        self._initial: dict[tuple[str, date], dict[str, PlayerState]] = {}
        self._people: dict[str, EnginePlayer] = {}  # (shared by the editions' caches)
        #: the state texts (shared: an edition started from the states just computed reuses their JSON)
        self._texts: dict[str, tuple[PlayerState, dict | None, str]] = {}
        self._keys: dict[tuple[str, date], dict[str, tuple]] = {}  # the list order keys, per rule settings

    def player_pks(self, as_of) -> set[int]:
        """The player pks of the members who had joined by edition ``as_of``."""
        return {pk for joined, _, _, (pk, _, _) in self.rows if joined <= as_of.pk}

    def cache(self, rules: RuleSet, list_date: date, as_of, names: dict[str, str] | None = None) -> MemberCache:
        """What ``member_cache(rating_list, rules, list_date, as_of=as_of, names=names)`` gives."""
        start = start_date(self.rating_list, rules, list_date)
        key = (as_json(rules_as_dict(rules)), start)
        everyone = self._initial.get(key)
        if everyone is None:
            everyone = self._initial[key] = initial_states(
                rules, [engine_player(fid, m) for _, fid, m, _ in self.rows], start)
        names = names or {}
        rows = [r for r in self.rows if r[0] <= as_of.pk]
        # (each member's facts tuple reused unless the edition published another name: no new objects per edition)
        return MemberCache({fid: everyone[fid] for _, fid, _, _ in rows},
                           {fid: info if names.get(fid, info[1]) == info[1] else (info[0], names[fid], info[2])
                            for _, fid, _, info in rows},
                           texts=self._texts, people=self._people, facts={fid: m for _, fid, m, _ in rows},
                           keys=self._keys.setdefault(key, {}))


@dataclass
class PeriodInputs:
    """What a period is rated from, gathered from the stored state (``gather_period``): the rule settings, the
    edition it starts from, its events with their stored rows and their games and standings (merged records
    followed), the members (``MemberCache``), every member's start state, and the date it is rated from."""

    rules: RuleSet
    previous: object | None
    events: list
    rows: EventRows
    games: list
    standings: list
    cache: MemberCache
    state: dict[str, PlayerState]
    engine_events: list
    start: date


def gather_period(rating_list, list_date: date, *, previous=..., events=None, rules: RuleSet | None = None,
                  as_of=None, names: dict[str, str] | None = None, cache: MemberCache | None = None,
                  prior: Mapping[str, PlayerState] | None = None, aliases: dict[str, str] | None = None,
                  rows: EventRows | None = None) -> PeriodInputs:
    """What the period closing at ``list_date`` is rated from (``compute_period``'s arguments; nothing is rated,
    nothing written): ``compute_period`` rates it, an edition's bundle writes it as its inputs."""
    rules = rules or rating_list.rules()
    check_list_date(rules, list_date)
    if previous is ...:
        previous = previous_edition(rating_list, list_date)
    if events is None:
        events = period_events(rating_list, rules, list_date, previous)
    if prior is None:
        prior = _stored_states(previous)
    cache = cache or member_cache(rating_list, rules, list_date, as_of=as_of, names=names)
    rows = rows or event_rows([e.pk for e in events])
    games, standings, _ = engine_games(events, cache.federation_ids(), rows)
    games, standings, prior, initial, info = merged.follow_merges(
        merged.aliases_for_new_period() if aliases is None else aliases, games, standings, prior, cache.initial,
        cache.info)
    if info is not cache.info:
        cache = MemberCache(initial, info, cache.texts, cache.people, cache.facts, cache.keys)
    # Members not on the previous edition (new, or untouched since they joined) start from their start state.
    state = {fid: s for fid, s in cache.initial.items() if fid not in prior}
    state.update(prior)
    engine_events = [engine_event(e) for e in events]
    start = period_start(rules, engine_events, list_date)
    return PeriodInputs(rules, previous, events, rows, games, standings, cache, state, engine_events, start)


def published_inputs(edition, *, table: MemberTable | None = None,
                     prior: Mapping[str, PlayerState] | None = None) -> PeriodInputs:
    """What a published edition was rated from, gathered as ``verify`` gathers it (the members who had joined by
    it, the events it rated, its own rule settings, merged records under the IDs it published): its bundle's
    inputs. ``table``: the list's members read once for many editions; ``prior``: the previous edition's states
    when read already."""
    published = sheets.entries(edition, "federation_id", "name")
    names = dict(zip(published["federation_id"], published["name"]))
    evs = list(edition.events.order_by("end_date", "start_date", "code"))
    rules = rules_of_edition(edition)
    cache = table.cache(rules, edition.list_date, edition, names) if table is not None else None
    return gather_period(edition.rating_list, edition.list_date, previous=edition.previous, events=evs,
                         rules=rules, as_of=edition, names=names, cache=cache, prior=prior,
                         aliases=merged.aliases_for_edition(set(names)))


def compute_period(rating_list, list_date: date, *, previous=..., events=None, rules: RuleSet | None = None,
                   as_of=None, names: dict[str, str] | None = None, cache: MemberCache | None = None,
                   prior: Mapping[str, PlayerState] | None = None,
                   aliases: dict[str, str] | None = None, engine: str = ENGINE,
                   rows: EventRows | None = None) -> PeriodComputation:
    """Compute the period closing at ``list_date`` from the stored state (nothing is written).

    ``previous`` (default: the current edition of the previous list date), ``events`` (default: the
    period's events), ``rules`` (default: the list's) and ``as_of`` (the edition whose members to rate;
    default: every member) are given explicitly by ``verify``; ``prior``
    (the previous edition's states, when the caller already holds them) and ``cache`` save reading them again.
    ``aliases`` renames merged records (default: each is rated as the record kept; ``identity``).
    ``engine``: the rating engine (``fast``; ``verify --engine reference`` recomputes with the reference).
    ``rows``: the events' stored games and standings when the caller read them already (``event_rows``).
    """
    g = gather_period(rating_list, list_date, previous=previous, events=events, rules=rules, as_of=as_of,
                      names=names, cache=cache, prior=prior, aliases=aliases, rows=rows)
    history = rate(g.rules, g.state, g.engine_events, g.games, g.standings, list_date, engine=engine, start=g.start,
                   people=g.cache.people, list_states=True)
    # (a start chained from a computation: its objects were made from its texts, which are reused)
    after = history.list_states[-1]
    before = ListStates.from_states(g.state, g.cache.texts, prior if isinstance(prior, ListStates) else None)
    entries = _entries(g.rules, after, before, g.cache)
    comp = PeriodComputation(rating_list, list_date, g.rules, g.previous, g.events, after, entries,
                             history.change_texts, {fid: v[0] for fid, v in g.cache.info.items()}, prior=before,
                             start=g.start, games=g.games, standings=g.standings, members=g.cache.info, rows=g.rows,
                             facts=g.cache.facts, texts=g.cache.texts)
    comp.digest = digest(comp)
    return comp


def compute_periods(rating_list, dates: list[date], *, previous=..., rules: RuleSet | None = None,
                    cache: MemberCache | None = None, prior: Mapping[str, PlayerState] | None = None,
                    engine: str = ENGINE) -> Iterator[PeriodComputation]:
    """The periods closing at ``dates`` (consecutive list dates, oldest first) computed from the stored state
    through ONE call of the rating engine: what ``compute_period`` gives for each date in turn, each started from
    the states the one before computed, each built when taken (``rate_periods``; nothing is written; ``publish
    --all`` and ``correct``).

    ``previous`` (default: the current edition of the list date before ``dates[0]``), ``prior`` (its states, when
    the caller holds them) and ``cache`` (the members) are those of the first period. Each computation's
    ``previous`` is the edition the first one starts from for the first, None for the others: the caller sets
    the edition it published (or left in place) before storing one."""
    if not dates:
        return iter(())
    rules = rules or rating_list.rules()
    for d in dates:
        check_list_date(rules, d)
    if any(next_publication_date(rules.publication_months, a) != b for a, b in zip(dates, dates[1:])):
        raise ValueError(f"not consecutive list dates of rule set {rules.name}: {', '.join(map(str, dates))}")
    if previous is ...:
        previous = previous_edition(rating_list, dates[0])
    events = period_events(rating_list, rules, dates[-1], previous)
    if prior is None:
        prior = _stored_states(previous)
    cache = cache or member_cache(rating_list, rules, dates[0])
    # each date's events (those ending in its period; the first holds any that ended earlier, as ``period_events``)
    split: list[list] = [[] for _ in dates]
    k = 0
    for e in events:  # (ordered by end date)
        while e.end_date >= dates[k]:
            k += 1
        split[k].append(e)
    return rate_periods(rating_list, rules, dates, split, [cache] * len(dates), prior,
                        merged.aliases_for_new_period(), engine=engine, previous=previous)


def rate_periods(rating_list, rules: RuleSet, dates: list[date], events: list[list], caches: list[MemberCache],
                 prior: dict[str, PlayerState], aliases: dict[str, str], *, engine: str = ENGINE,
                 rows: EventRows | None = None, previous=None) -> Iterator[PeriodComputation]:
    """Consecutive periods rated through ONE call of the engine (``compute_periods``; ``verify``'s chain): the
    period closing at ``dates[k]`` rates ``events[k]`` with the members ``caches[k]`` (each a superset of the one
    before: the members who had joined by then, under the names to publish), the first starting from ``prior``.
    ``aliases`` renames merged records. The engine runs here; each period's computation (entries, texts, digest)
    is built when the caller takes it, one at a time (the caller stores or compares it, then lets it go). The
    first's ``previous`` is ``previous``, the others' None (the caller's to set)."""
    everyone = caches[-1]
    flat = [e for part in events for e in part]
    rows = rows or event_rows([e.pk for e in flat])
    games, standings, _ = engine_games(flat, everyone.federation_ids(), rows)
    games, standings, prior, _, _ = merged.follow_merges(aliases, games, standings, prior, {}, {})
    caches = _followed(aliases, caches)
    everyone = caches[-1]
    state = {fid: s for fid, s in everyone.initial.items() if fid not in prior}
    state.update(prior)
    engine_events = [engine_event(e) for e in flat]
    start = period_start(rules, engine_events[:len(events[0])], dates[0])
    history = rate(rules, state, engine_events, games, standings, dates[-1], engine=engine, start=start,
                   people=everyone.people, list_states=True)
    # each date's changes: a slice (they are in list order; a change of a list before ``dates[0]`` is the first's)
    texts = history.hand_over_changes()
    bounds = [0] + [bisect_right(texts.list_date, d) for d in dates]
    changes = [texts.slice(bounds[k], bounds[k + 1]) for k in range(len(dates))]
    texts = None  # (each period's slice is let go once its edition is built)
    # each date's games: those of its events, which are one range of ``flat`` (the games' event index)
    order = np.argsort(games.event, kind="stable")
    at = np.searchsorted(games.event[order], np.cumsum([0] + [len(part) for part in events])).tolist()
    period_games = [games.take(order[at[k]:at[k + 1]]) for k in range(len(dates))]
    standings_of = _grouped([s.event_id for s in standings], standings)
    by_pk = _by_event((r[1] for r in rows.games), (r[0] for r in rows.standings), rows.games, rows.standings)
    return _each_period(rating_list, rules, dates, events, caches, history, changes, start, state,
                        (period_games, standings_of), by_pk, previous)


def _each_period(rating_list, rules, dates, events, caches, history, changes, start, state, played, by_pk,
                 previous) -> Iterator[PeriodComputation]:
    """``rate_periods``' computations, each built when taken."""
    everyone = caches[-1]
    index = {d: i for i, d in enumerate(history.list_dates)}
    before = ListStates.from_states({fid: s for fid, s in state.items() if fid in caches[0].initial},
                                    everyone.texts)
    for k, d in enumerate(dates):
        cache, evs = caches[k], events[k]
        after = history.list_states[index[d]]
        if cache is not everyone:  # (the members who had joined by this edition)
            after = after.take(cache.initial)
        comp = PeriodComputation(
            rating_list, d, rules, None, evs, after, _entries(rules, after, before, cache), changes[k],
            {fid: v[0] for fid, v in cache.info.items()}, prior=before, start=start if k == 0 else dates[k - 1],
            games=played[0][k], standings=[s for e in evs for s in played[1].get(e.code, ())], members=cache.info,
            rows=EventRows([r for e in evs for r in by_pk[0].get(e.pk, ())],
                           [r for e in evs for r in by_pk[1].get(e.pk, ())]),
            facts=cache.facts, texts=cache.texts)
        comp.digest = digest(comp)
        if k == 0:
            comp.previous = previous
        before = after if k + 1 == len(dates) or caches[k + 1] is cache else \
            history.list_states[index[d]].take(caches[k + 1].initial)
        history.list_states[index[d]] = None  # (taken: this list's states live on in ``comp`` and ``before``)
        changes[k] = played[0][k] = None
        yield comp


def _followed(aliases: dict[str, str], caches: list[MemberCache]) -> list[MemberCache]:
    """The member caches with merged records renamed (``merged.follow_merges``; each distinct cache once)."""
    if not aliases:
        return caches
    done: dict[int, MemberCache] = {}
    for c in caches:
        if id(c) not in done:
            _, _, _, initial, info = merged.follow_merges(aliases, [], [], {}, c.initial, c.info)
            done[id(c)] = c if info is c.info else MemberCache(initial, info, c.texts, c.people, c.facts, c.keys)
    return [done[id(c)] for c in caches]


def _by_event(game_keys, standing_keys, games, standings) -> tuple[dict, dict]:
    """The games and the standings grouped by their event's key (each group in the order given)."""
    return _grouped(list(game_keys), games), _grouped(list(standing_keys), standings)


def _grouped(keys: list, values: list) -> dict[object, list]:
    """``values`` grouped by ``keys`` (one each), each group in the order given. The games come in runs of one
    event (``event_rows``' order): each run is one slice, not an append per game (2,000,000 of them)."""
    out: dict[object, list] = {}
    a = 0
    for key, run in groupby(keys):
        b = a + len(list(run))
        group = out.get(key)
        if group is None:
            out[key] = values[a:b]
        else:  # (a key seen before, not in one run)
            group.extend(values[a:b])
        a = b
    return out


def period_start(rules: RuleSet, events: list, list_date: date) -> date:
    """The list date the period of ``list_date`` is rated from: the previous one, or an earlier one when events
    end in earlier periods (a preview of a list date after the due one holds several periods: each is rated)."""
    months = rules.publication_months
    start = previous_publication_date(months, list_date)
    for e in events:
        start = min(start, previous_publication_date(months, next_publication_date(months, e.end_date)))
    return start


def rate(rules: RuleSet, state: dict[str, PlayerState], events: list, games, standings, list_date: date, *,
         engine: str = ENGINE, start: date | None = None, people: dict[str, EnginePlayer] | None = None,
         list_states: bool = False):
    """The period of ``list_date`` rated from ``state`` (every member's state after the previous list) through
    the one door into the rating engine: ``compute_history`` from that state (at ``start``, by default
    ``period_start``) to ``list_date``, the changes as the reference writes them (what the edition stores and
    digests). ``people``: the engine's players made so far (federation id → ``Player``), reused by consecutive
    periods. ``list_states``: the states after every list, not only the last (``compute_periods``)."""
    start = start or period_start(rules, events, list_date)
    people = {} if people is None else people
    players = []
    for fid, s in state.items():
        p = people.get(fid)
        if p is None or p.gender is not s.gender:
            p = people[fid] = EnginePlayer(id=fid, name=fid, gender=s.gender)
        players.append(p)
    return compute_history(rules, players, events, games, standings, start=StartState(start, state),
                           until=list_date, engine=engine, full_changes=True, list_states=list_states)


def _entries(rules: RuleSet, states: ListStates, before: ListStates, cache: MemberCache) -> list[EntryRow]:
    initial = cache.initial

    def untouched(fid: str, text: str) -> bool:  # pristine: rebuilt from the start state next time
        return fid in initial and cache.initial_text(fid) == text

    return edition_entries(rules, states, before, cache.info, untouched, cache.keys)


def _unrated_pending_before(rating_list, list_date: date) -> list[str]:
    """Events of already-published periods that no edition has rated yet (late reports)."""
    last = latest_edition(rating_list)
    if last is None:
        return []
    late = Event.objects.filter(rating_list=rating_list, status=Event.Status.PENDING,
                                end_date__lt=min(last.list_date, list_date)).exclude(pk__in=integrity.open_holds())
    months = rating_list.rules().publication_months
    return [problem("{event} {name} (ended {end}): its list was already published — rate it by a correction edition "
                    "of {list} {date} with a stated reason", code=NEEDS_CORRECTION, event=e.code, name=e.name,
                    end=e.end_date, list=rating_list.code, date=next_publication_date(months, e.end_date))
            for e in late]


def publish_period(rating_list, list_date: date | None, actor: str, *, reviewed: str | None = None,
                   accept_flags: str | None = None, computed: PeriodComputation | None = None):
    """Publish the next due list date (or check that ``list_date`` is it): an immutable edition.

    Checked and stored in one transaction under the list's lock: two officers publishing at the same moment
    get one edition, and the other the ordinary "already published" refusal. ``reviewed``: the digest of the
    computation the officer reviewed (the desk's confirmation); refused if the period is no longer that one
    (a report imported or corrected since). ``accept_flags``: the reason to publish although plausibility
    flags of reports are not marked checked (``qiyuan.office.plausibility``). ``computed``: the period as
    ``compute_periods`` computed it inside the same transaction (``publish_due``), else it is computed here.
    """
    with bundle_files.staging(), plausibility.flags_kept(), writing(rating_list_lock(rating_list.code)):
        _repair_bundles(rating_list)
        rules = rating_list.rules()
        due = due_date(rating_list, rules)
        if due is None:
            raise OfficeError(problem("list {list} has no events: nothing to publish", list=rating_list.code))
        if list_date is None:
            list_date = due
        check_list_date(rules, list_date)
        if current_edition(rating_list, list_date) is not None:
            raise OfficeError(problem("the list of {date} is already published; publish a correction edition of "
                                      "{list} {date} with a stated reason", code=NEEDS_CORRECTION,
                                      list=rating_list.code, date=list_date))
        if list_date != due:
            raise OfficeError(problem("the next list of {list} to publish is {due}, not {date}",
                                      list=rating_list.code, due=due, date=list_date))
        if list_date > date.today():
            raise OfficeError(problem("the list of {date} cannot be published before that date", date=list_date))
        late = _unrated_pending_before(rating_list, list_date)
        if late:
            raise OfficeError(late)
        if computed is not None and computed.list_date == list_date:
            comp = computed
            comp.previous = previous_edition(rating_list, list_date)  # (the edition published just before it)
        else:
            comp = compute_period(rating_list, list_date)
        if reviewed is not None and comp.digest != reviewed:
            raise Conflict(problem("the period of {list} {date} changed since it was reviewed (a report was imported "
                                   "or corrected): review it again before publishing", code=PERIOD_CHANGED,
                                   list=rating_list.code, date=list_date))
        # the integrity checks (issue 37) store their flags beside the plausibility audit's, under the same gate
        integrity.ensure_checked(rating_list, list_date, comp.events)
        # the plausibility audit (issue 18): unresolved flags of reports stop here unless accepted with a reason
        plausibility.require_resolved(comp, accept_flags=accept_flags, actor=actor)
        if rating_list.started_on is None:
            rating_list.started_on = previous_publication_date(rules.publication_months, list_date)
            rating_list.save(update_fields=["started_on"])
        ed = _store(comp, actor, number=1, reason="")
    return ed


@held()
def publish_due(rating_list, actor: str, *, until: date | None = None,
                progress: Callable[[int, int], None] | None = None, notes: list | None = None,
                today: date | None = None, accept_flags: str | None = None) -> list:
    """Publish every due list date, oldest first, up to the first list after the last event (or ``until``):
    all of them or none, in one transaction under the list's lock. It stops before the first list date still
    in the future (``today``: the date's default), and says so in ``notes`` (a problem: list, date)."""
    today = today or date.today()
    with bundle_files.staging(), plausibility.flags_kept(), writing(rating_list_lock(rating_list.code)):
        _repair_bundles(rating_list)
        rules = rating_list.rules()
        last_event = rating_list.events.order_by("-end_date").first()
        if last_event is None:
            return []
        final = until or next_publication_date(rules.publication_months, last_event.end_date)
        published = []
        todo = []
        d = due_date(rating_list, rules)
        while d is not None and d <= final:
            if d > today:
                if notes is not None:
                    notes.append(problem("stopped before the list of {list} {date}: that date is still in the "
                                         "future (publish it on or after that day)", code=NOT_YET_DUE,
                                         list=rating_list.code, date=d))
                break
            todo.append(d)
            d = next_publication_date(rules.publication_months, d)
        # every due period through one call of the engine, each started from the states of the one before
        comps = compute_periods(rating_list, todo, rules=rules) if _due_in_turn(rating_list, rules, todo) else None
        for i, d in enumerate(todo, start=1):
            published.append(publish_period(rating_list, d, actor, computed=next(comps) if comps else None,
                                            accept_flags=accept_flags))
            if progress:
                progress(i, len(todo))
    return published


def _due_in_turn(rating_list, rules: RuleSet, todo: list[date]) -> bool:
    """Whether the due dates can be computed ahead in one call: nothing makes the first of them a refusal
    (``publish_period`` then refuses it as ever, without the computation of all of them)."""
    return bool(todo) and current_edition(rating_list, todo[0]) is None and not _unrated_pending_before(
        rating_list, todo[0])


@held()
def correct_period(rating_list, list_date: date, reason: str, actor: str, *,
                   progress: Callable[[int, int, str], None] | None = None) -> list:
    """Publish a correction of ``list_date`` (and of every later list it changes), with a reason;
    ``progress(done, total, list date)`` after each list date recomputed."""
    if not reason or not reason.strip():
        raise OfficeError("a correction needs a reason (--reason)")
    with bundle_files.staging(), writing(rating_list_lock(rating_list.code)):
        _repair_bundles(rating_list)
        old = current_edition(rating_list, list_date)
        if old is None:
            raise OfficeError(f"the list of {list_date} is not published: publish it (`period publish`), not a "
                              "correction")
        later_dates = sorted(set(rating_list.editions.filter(list_date__gt=list_date)
                                 .values_list("list_date", flat=True)))
        published = []
        # the date and every later one through one call of the engine, each started from the states of the one
        # before (the previous date's current edition has exactly these states: the correction just stored, or
        # the edition it left in place because it gave the same digest)
        comps = compute_periods(rating_list, [list_date, *later_dates])
        comp = next(comps)
        if comp.digest == old.digest:
            raise OfficeError(f"recomputing {list_date} gives exactly the published edition: nothing to correct")
        published.append(_store(comp, actor, number=old.number + 1, reason=reason))
        total = len(later_dates) + 1
        if progress:
            progress(1, total, list_date.isoformat())
        for i, (d, comp) in enumerate(zip(later_dates, comps), start=2):
            comp.previous = previous_edition(rating_list, d)
            if progress:
                progress(i, total, d.isoformat())
            cur = current_edition(rating_list, d)
            if comp.digest == cur.digest and cur.previous_id == (comp.previous.pk if comp.previous else None):
                continue
            published.append(_store(comp, actor, number=cur.number + 1,
                                    reason=f"{CARRIED_PREFIX.format(date=list_date)}{reason}"))
    return published


def _store(comp: PeriodComputation, actor: str, *, number: int, reason: str):
    """Write one edition (inside the publishing use case's transaction)."""
    ed = Edition.objects.create(
        rating_list=comp.rating_list, list_date=comp.list_date, number=number, is_correction=number > 1,
        reason=reason, published_by=actor, previous=comp.previous, rules_settings=rules_as_dict(comp.rules),
        digest=comp.digest, canonical_version=comp.canonical_version, audit_head=sealed_head(comp.canonical_version),
    )
    ed._setting_events = True
    ed.events.set(comp.events)
    ed._setting_events = False
    event_pk = {e.code: e.pk for e in comp.events}
    sheets.write_sheet(ed, *sheets.columns_of(comp))
    Event.objects.filter(pk__in=event_pk.values()).update(status=Event.Status.RATED)
    # The members it was computed with who had joined in no edition yet join in this one.
    ListMember.objects.filter(rating_list=comp.rating_list, joined_in__isnull=True).update(joined_in=ed)
    parts = stored_inputs(ed.pk, rows=comp.rows, published={e.federation_id for e in comp.entries})
    ed.inputs_digest = inputs_digest(parts)
    Edition.objects.filter(pk=ed.pk).update(inputs_digest=ed.inputs_digest)  # (the edition row is immutable)
    if bundle_files.staging_open() and key_exists():
        _stage_bundle(ed, comp, parts)
    record(actor, "edition.publish" if number == 1 else "edition.correct", ed, list=comp.rating_list.code,
           list_date=comp.list_date.isoformat(), number=number, reason=reason, events=len(comp.events),
           entries=len(comp.entries), digest=comp.digest)
    return ed


def _stage_bundle(edition, comp: PeriodComputation | None = None, parts: dict | None = None) -> None:
    """The edition's signed bundle, written from its sheet and what it was just rated from (``comp``, and
    ``parts``: the stored inputs just hashed; else gathered again, its stored facts checked first) and named when
    the transaction commits."""
    if comp is not None:
        source = bundle_files.Source(comp.rules, comp.events, comp.rows, comp.games, comp.standings, comp.members,
                                     comp.facts, comp.prior, comp.start, bundle_files.kept_for(comp.texts))
    else:
        source = bundle_files.source_of(published_inputs(edition))
    bundle_files.stage(edition, bundle_files.bundle_of(edition, source, key=private_key(), checked=comp is not None,
                                                       parts=parts))


def _repair_bundles(rating_list) -> None:
    """Stage the bundle of each of the list's editions that has none (a publication killed between its commit and
    its bundle's naming); an edition whose stored data no longer gives its digests is left to ``verify``."""
    if not key_exists():
        return
    for ed in rating_list.editions.select_related("rating_list", "previous").order_by("pk"):
        if bundle_files.missing(ed):
            try:
                _stage_bundle(ed)
            except Conflict:
                continue
