"""The plausibility audit of a period (合理性检查), stored: run at ``period compute`` and at the desk's review,
read by ``publish``; the officer marks each flag checked with a note (audited) or corrects the event.

The checks themselves are pure (``qiyuan.rating.plausibility``); this module reads the period's stored facts
for them, stores their flags (keeping an officer's check mark on a flag found again), describes a flag in
either language, and is the one use case behind the command line and the desk:

* ``audit_period(comp)`` — run the audit of a computed period and store its flags (the list in force is the
  ratings the period starts from; a player without one is judged by the report's own rating column);
* ``period_flags(list, date)`` — the stored flags, blocking ones first;
* ``mark_checked(actor, flag, note)`` — an officer's mark, audited;
* ``require_resolved(comp, accept_flags, actor)`` — what ``publish`` calls: flags of reports not marked checked
  refuse the publication unless the officer accepts them all with a reason (audited). Flags of events
  imported from a history folder are shown, never blocking.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal

from django.utils import timezone

from qiyuan.errors import NotFound, problem
from qiyuan.office.audit.models import AuditFlag, AuditRun, record
from qiyuan.office.db import writing
from qiyuan.office.errors import OfficeError
from qiyuan.office.events.models import Entry, Event, Game, ImportBatch
from qiyuan.office.federation.models import Player
from qiyuan.office import integrity
from qiyuan.rating import plausibility as checks
from qiyuan.rating.model import EventFormat, Result

#: the code of the refusal to publish with unresolved flags
UNRESOLVED = "audit.unresolved"

_RESULTS = {r.value: r for r in Result}


def _inputs(events: list[Event], rating_of: dict[str, int | None]):
    """The period's games as the audit reads them, per event; draw numbers, scores; the list in force."""
    code_of = {e.pk: e.code for e in events}
    rows = list(Game.objects.filter(event_id__in=code_of).order_by("event_id", "round", "id")
                .values_list("event_id", "round", "player1_id", "player2_id", "result", "opener"))
    entries = list(Entry.objects.filter(event_id__in=code_of)
                   .values_list("event_id", "player_id", "number", "score", "rating"))
    pks = {r[2] for r in rows} | {r[3] for r in rows} | {e[1] for e in entries}
    fid = dict(Player.objects.filter(pk__in=pks).values_list("pk", "federation_id")) if pks else {}
    games: dict[str, list[checks.AuditGame]] = defaultdict(list)
    for ev, rnd, p1, p2, res, opener in rows:
        games[code_of[ev]].append(checks.AuditGame(code_of[ev], rnd, fid[p1], fid[p2], _RESULTS[res], opener))
    numbers: dict[str, dict[str, int]] = defaultdict(dict)
    scores: dict[str, dict[str, Decimal | None]] = defaultdict(dict)
    rating = dict(rating_of)
    for ev, p, number, score, reported in entries:
        code, player = code_of[ev], fid[p]
        if number is not None:
            numbers[code][player] = number
        scores[code][player] = score
        if rating.get(player) is None and reported is not None:  # not on the list: the report's own column
            rating[player] = reported
    reported = [(code_of[ev], fid[p], r) for ev, p, _n, _s, r in entries if r is not None]
    return games, numbers, scores, rating, set(fid.values()), reported


def run_checks(events: list[Event], rating_of: dict[str, int | None]) -> list[checks.Flag]:
    """Every flag of the given stored events (nothing is written)."""
    games, numbers, scores, rating, players, reported = _inputs(events, rating_of)
    flags: list[checks.Flag] = []
    for e in events:
        mine = games.get(e.code, [])
        flags += checks.improbable_results(mine, rating)
        flags += checks.twice_in_a_round(mine)
        if e.format == EventFormat.SWISS.value:
            flags += checks.opener_contradictions(e.code, mine, numbers.get(e.code, {}))
        if any(s is not None for s in scores.get(e.code, {}).values()):
            flags += checks.standings_mismatches(e.code, mine, scores[e.code], e.rounds or max(
                (g.round for g in mine), default=0))
    # the events together: one player in two at once, an event far longer than its rounds, a player's reported
    # ratings far apart, the same pairings re-reported with the results flipped
    dated = [checks.AuditEvent(e.code, e.start_date, e.end_date, e.rounds or max(
        (g.round for g in games.get(e.code, [])), default=0)) for e in events]
    seated: dict[str, set[str]] = defaultdict(set)
    for code, mine in games.items():
        for g in mine:
            seated[code].update((g.player1, g.player2))
    flags += checks.overlapping_events(dated, seated)
    flags += checks.too_long(dated)
    flags += checks.reported_ratings_apart(reported)
    flags += checks.flipped_results(g for mine in games.values() for g in mine)
    pairs = set(Player.objects.filter(federation_id__in=players, birth_date__isnull=False, merged_into__isnull=True)
                .values_list("name", "birth_date"))
    if pairs:
        names, born = {n for n, _ in pairs}, {b for _, b in pairs}
        records = Player.objects.filter(name__in=names, birth_date__in=born, merged_into__isnull=True)
        flags += checks.same_person(records.values_list("federation_id", "name", "birth_date"), among=players)
    return flags


def audit_period(comp) -> list[AuditFlag]:
    """Run the audit of a computed period (``periods.compute_period``) and store its flags; return them.

    A flag found again keeps its check mark; a stored flag no longer found (the event was corrected) goes.
    """
    rating_list, list_date = comp.rating_list, comp.list_date
    rating_of = dict(zip(comp.prior.ids, comp.prior.rating))
    found = run_checks(list(comp.events), rating_of)
    history = set(Event.objects.filter(pk__in=[e.pk for e in comp.events],
                                       import_batch__kind=ImportBatch.Kind.HISTORY).values_list("code", flat=True))
    event_pk = {e.code: e.pk for e in comp.events}
    with writing():
        stored = {f.key: f for f in AuditFlag.objects.filter(rating_list=rating_list, list_date=list_date,
                                                             kind__in=checks.KINDS)}  # (not the integrity flags)
        keep, new = set(), []
        for flag in found:
            key = flag.key[:300]
            if key in stored or key in keep:
                keep.add(key)
                continue
            keep.add(key)
            new.append(AuditFlag(rating_list=rating_list, list_date=list_date, key=key, kind=flag.kind,
                                 event_id=event_pk.get(flag.event), round=flag.round, players=list(flag.players),
                                 detail=dict(flag.detail), history=_of_history(flag, history)))
        gone = [f.pk for k, f in stored.items() if k not in keep and f.checked_at is None]
        AuditFlag.objects.filter(pk__in=gone).delete()
        AuditFlag.objects.bulk_create(new)
        AuditRun.objects.update_or_create(rating_list=rating_list, list_date=list_date,
                                          defaults={"digest": comp.digest, "at": timezone.now()})
    return period_flags(rating_list, list_date)


def _of_history(flag: checks.Flag, history: set[str]) -> bool:
    """A flag of history-folder events only (shown, never blocking): its event and the others it names (the other
    event of two at once or flipped, every event of a player's ratings)."""
    events = {flag.event, flag.detail.get("other"), *(flag.detail.get("ratings") or {})} - {None}
    return bool(events) and events <= history


def period_flags(rating_list, list_date) -> list[AuditFlag]:
    """The stored flags of a period: the blocking ones (reports, not checked) first."""
    flags = list(AuditFlag.objects.filter(rating_list=rating_list, list_date=list_date).select_related("event"))
    return sorted(flags, key=lambda f: (not f.blocking, f.history, f.kind, f.event_id or 0, f.round or 0, f.pk))


def mark_checked(actor, flag_id: int, note: str) -> AuditFlag:
    """The officer looked at the flag: it stays, marked checked with his note (audited)."""
    note = (note or "").strip()
    if not note:
        raise OfficeError(problem("say what was checked: a flag is marked checked with a note", code="audit.note"))
    with writing():
        flag = AuditFlag.objects.select_for_update().filter(pk=flag_id).first()
        if flag is None:
            raise NotFound(problem("no plausibility flag #{id}", id=flag_id))
        flag.checked_at, flag.note = timezone.now(), note
        flag.checked_by = actor if isinstance(actor, str) else actor.get_username()
        flag.save(update_fields=["checked_at", "checked_by", "note"])
        record(actor, "audit.flag_checked", flag, kind=flag.kind, key=flag.key, note=note)
    return flag


def require_resolved(comp, *, accept_flags: str | None, actor) -> None:
    """What ``publish`` calls: the period's flags (the audit runs first if this computation was never audited)
    refuse the publication while a report's flag is not marked checked — unless ``accept_flags`` gives the
    reason the officer accepts them all (audited)."""
    run = AuditRun.objects.filter(rating_list=comp.rating_list, list_date=comp.list_date).first()
    if run is None and _only_history(comp.events):
        return  # a history folder's flags never block: not worth an audit at publication (compute shows them)
    flags = audit_period(comp) if run is None or run.digest != comp.digest else \
        period_flags(comp.rating_list, comp.list_date)
    blocking = [f for f in flags if f.blocking]
    if not blocking:
        return
    if accept_flags and accept_flags.strip():
        record(actor, "audit.flags_accepted", comp.rating_list, list_date=comp.list_date, reason=accept_flags.strip(),
               flags=[f.pk for f in blocking])
        return
    raise UnresolvedFlags(_refusal(comp, blocking), comp)


def _refusal(comp, blocking: list[AuditFlag]) -> list:
    return [problem("{n} plausibility flag(s) of {list} {date} are not marked checked: mark each checked with a note, "
                    "correct the event, or publish with --accept-flags REASON", code=UNRESOLVED, n=len(blocking),
                    list=comp.rating_list.code, date=comp.list_date), *[describe(f) for f in blocking[:20]]]


class UnresolvedFlags(OfficeError):
    """``require_resolved``'s refusal, carrying the computation whose flags it names: the publishing transaction
    rolls back — the flags it stored with it — so ``flags_kept`` stores them again once it has."""

    def __init__(self, problems, comp):
        super().__init__(problems)
        self.comp = comp


#: how many publishing transactions (``flags_kept``) this thread is inside
_publishing = ContextVar("qiyuan_publishing", default=0)


@contextmanager
def flags_kept() -> Iterator[None]:
    """Around a publishing transaction: when it is refused for unresolved flags, the flags are stored again after
    its rollback (a flag found before keeps its number and check mark) and the refusal names those — so every
    number it gives is one ``office flags check`` finds, also when ``publish --all`` rolls back every list date
    it had published. Inside another publishing transaction the refusal goes on up: the outermost keeps them."""
    outer = _publishing.get()
    token = _publishing.set(outer + 1)
    try:
        yield
    except UnresolvedFlags as exc:
        if outer:
            raise
        comp = exc.comp
        audit_period(comp)
        integrity.ensure_checked(comp.rating_list, comp.list_date, comp.events)  # (its flags rolled back too)
        blocking = [f for f in period_flags(comp.rating_list, comp.list_date) if f.blocking]
        raise OfficeError(_refusal(comp, blocking)) from None
    finally:
        _publishing.reset(token)


def _only_history(events) -> bool:
    pks = [e.pk for e in events]
    return Event.objects.filter(pk__in=pks, import_batch__kind=ImportBatch.Kind.HISTORY).count() == len(pks)


# -- what a flag says --------------------------------------------------------------------------------------

_TEMPLATES = {
    "improbable": "#{id} {event} round {round}: {winner} ({winner_rating}) beat {loser} ({loser_rating}); "
                  "D = {D}, the loser was expected to score {expected}",
    "opener": "#{id} {event} round {round}: {recorded} opened; the opener rules (rule {rule}) give {expected}",
    "twice": "#{id} {event} round {round}: {player} plays {games} games in one round",
    "standings": "#{id} {event}: {player} has {reported} in the standings, his games give {games} "
                 "({missing} round(s) without a game)",
    "same_person": "#{id} {first} and {second} look like one person: {name}, born {birth_date}",
    "overlap": "#{id} {event} ({start} – {end}) and {other} ({other_start} – {other_end}) overlap, and {n} player(s) "
               "play in both: {players}",
    "duration": "#{id} {event}: {rounds} round(s) over {days} days, far longer than its rounds need (at most {most} "
                "days: a round a week)",
    "ratings": "#{id} {player} is reported with ratings from {low} to {high} in this period ({ratings})",
    "flipped": "#{id} {event} and {other}: {flipped} of {games} decisive games are the same pairings with the results "
               "the other way round (re-reported with the results flipped?)",
}


def describe(flag: AuditFlag, names: dict[str, str] | None = None):
    """The flag as a ``Problem`` (a translatable template): the event, the round, the players."""
    names = names if names is not None else dict(
        Player.objects.filter(federation_id__in=flag.players).values_list("federation_id", "name"))

    def who(fid: str) -> str:
        return f"{fid} {names.get(fid, '')}".strip()

    if flag.kind in integrity.KINDS:
        return integrity.describe(flag, names)
    d, p = flag.detail, flag.players
    event = flag.event.code if flag.event_id else ""
    params: dict = {"id": flag.pk, "event": event, "round": flag.round}
    if flag.kind == "improbable":
        params |= {"winner": who(p[0]), "loser": who(p[1]), **{k: d.get(k) for k in
                                                              ("winner_rating", "loser_rating", "D", "expected")}}
    elif flag.kind == "opener":
        params |= {"recorded": who(d.get("recorded", p[0])), "expected": who(d.get("expected", p[-1])),
                   "rule": d.get("rule")}
    elif flag.kind == "twice":
        params |= {"player": who(p[0]), "games": d.get("games")}
    elif flag.kind == "overlap":
        params |= {"other": d.get("other"), "start": d.get("start"), "end": d.get("end"),
                   "other_start": d.get("other_start"), "other_end": d.get("other_end"), "n": len(p),
                   "players": "、".join(who(f) for f in p[:10]) + ("…" if len(p) > 10 else "")}
    elif flag.kind == "duration":
        params |= {"rounds": d.get("rounds"), "days": d.get("days"), "most": d.get("most")}
    elif flag.kind == "ratings":
        params |= {"player": who(p[0]), "low": d.get("low"), "high": d.get("high"),
                   "ratings": "、".join(f"{ev} {r}" for ev, r in (d.get("ratings") or {}).items())}
    elif flag.kind == "flipped":
        params |= {"other": d.get("other"), "flipped": d.get("flipped"), "games": d.get("games")}
    elif flag.kind == "standings":
        params |= {"player": who(p[0]), "reported": d.get("reported"), "games": d.get("games"),
                   "missing": d.get("rounds_without_game")}
    else:
        params |= {"first": who(p[0]), "second": who(p[-1]), "name": d.get("name"), "birth_date": d.get("birth_date")}
    return problem(_TEMPLATES[flag.kind], code=f"audit.{flag.kind}", **params)
