"""The integrity checks of a period (诚信检查), stored: manipulation patterns found before a period is published.

The checks are pure (``qiyuan.rating.integrity``); this module gathers the list's facts for them once — every
event's played games, every published list, the band prizes of the events — runs them on the period's events,
and stores their flags beside the plausibility flags (``AuditFlag``: the same numbering, the same
``--accept-flags`` gate at ``publish``; an officer marks one checked with ``office flags check``).

A flag never changes a rating. The officer decides: accept it (``office flags check N --note``, or publish with
``--accept-flags REASON``), or hold its event for review (``hold``): the event is left out of its period until
released (``release``, then ``period correct`` rates it) — audited, and public as "held for review" without
naming anyone.

* ``check_period(rating_list, list_date, events)`` — run the checks, store the flags (one use case for the
  command line and the desk);
* ``ensure_checked(rating_list, list_date, events)`` — what ``publish`` calls: the checks run unless they ran on
  exactly these events;
* ``hold(actor, flag_id, reason)`` / ``release(actor, event_code, reason)``; ``held_events(rating_list)``.
"""

from __future__ import annotations

import hashlib
from itertools import chain

import numpy as np
from django.db import connections
from django.db.models import Case, Count, IntegerField, Max, Value, When
from django.utils import timezone

from qiyuan.errors import NotFound, problem
from qiyuan.office import sheets
from qiyuan.office.audit.models import AuditFlag, EventHold, IntegrityRun, record
from qiyuan.office.db import writing
from qiyuan.office.errors import OfficeError
from qiyuan.office.events.models import Event, Game, ImportBatch
from qiyuan.office.federation.models import Player
from qiyuan.office.ratings.models import ListMember
from qiyuan.rating import integrity as checks
from qiyuan.rating.columnar import CODE_OF_RESULT
from qiyuan.rating.model import EventFormat, Result

KINDS = checks.KINDS
_PLAYED = [r.value for r in Result if r.played]
_CODES = {r.value: CODE_OF_RESULT[r] for r in Result}
_CHUNK = 900
#: where an event's rating-band prizes are kept (the upper limits, from its report's prize categories)
BANDS_KEY = "prize_bands"


def open_holds():
    """The events held for review and not released (a queryset of event ids)."""
    return EventHold.objects.filter(released_at__isnull=True).values("event_id")


def held_events(rating_list) -> list[EventHold]:
    """The list's open holds, newest first."""
    return list(EventHold.objects.filter(event__rating_list=rating_list, released_at__isnull=True)
                .select_related("event"))


def is_held(event) -> bool:
    return EventHold.objects.filter(event=event, released_at__isnull=True).exists()


def ledger(rating_list) -> checks.Ledger:
    """Every event of the list with its played games and organiser, every published list (the current edition of
    each list date) and the players' registry dates (the federation's record, else the list membership's: asked
    only for the players a phantom flag names), as the checks read them — columns read in bulk (one query of
    the games, every value a number, no object per game)."""
    events = list(rating_list.events.all().values_list("pk", "code", "start_date", "end_date", "format",
                                                       "eligibility", "organiser"))
    query = (Game.objects.filter(event__rating_list=rating_list, result__in=_PLAYED).order_by("event_id", "round", "id")
             .annotate(code=Case(*(When(result=r, then=Value(c)) for r, c in _CODES.items()),
                                 output_field=IntegerField()))
             .values_list("event_id", "round", "player1_id", "player2_id", "code"))
    sql, params = query.query.sql_with_params()
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    games = np.fromiter(chain.from_iterable(rows), dtype=np.int64, count=5 * len(rows)).reshape(-1, 5)
    del rows
    at = _positions(np.array([pk for pk, *_ in events], dtype=np.int64))
    players = np.flatnonzero(np.bincount(games[:, 2:4].ravel(), minlength=1)) if len(games) else games[:0, 0]
    fid = _federation_ids(players.tolist())
    current = {}
    for pk, day, number in rating_list.editions.values_list("pk", "list_date", "number"):
        if day not in current or current[day][1] < number:
            current[day] = (pk, number)
    lists = []
    for ed in rating_list.editions.filter(pk__in=[pk for pk, _ in current.values()]):
        cols = sheets.entries(ed, "federation_id", "rating")  # (the edition's sheet, decoded once and cached)
        if any(r is not None for r in cols["rating"]):
            lists.append((ed.list_date, cols["federation_id"], cols["rating"]))
    player_at = _positions(players)
    return checks.Ledger.from_columns(
        codes=[code for _, code, *_ in events], starts=[start for _, _, start, *_ in events],
        ends=[end for _, _, _, end, *_ in events],
        bands=[tuple(int(x) for x in (eligibility or {}).get(BANDS_KEY, ())) for *_, eligibility, _ in events],
        swiss=[fmt == EventFormat.SWISS.value for *_, fmt, _, _ in events],
        organisers=[organiser for *_, organiser in events], registered=lambda ids: _registry(rating_list, ids),
        player_ids=[fid[pk] for pk in players.tolist()], game_event=at[games[:, 0]], game_round=games[:, 1],
        game_player1=player_at[games[:, 2]], game_player2=player_at[games[:, 3]], game_result=games[:, 4],
        lists=sorted(lists, key=lambda x: x[0]))


def _positions(pks: np.ndarray) -> np.ndarray:
    """A lookup from primary key to position in ``pks``."""
    at = np.full(int(pks.max(initial=0)) + 1, -1, dtype=np.int64)
    at[pks] = np.arange(len(pks))
    return at


def _federation_ids(pks: list[int]) -> dict[int, str]:
    out: dict[int, str] = {}
    for i in range(0, len(pks), _CHUNK):  # (by primary key, in chunks a database takes as parameters)
        out.update(Player.objects.filter(pk__in=pks[i:i + _CHUNK]).values_list("pk", "federation_id"))
    return out


def _registry(rating_list, federation_ids) -> dict:
    """The players' registry dates: the federation's record, else the date he joined the list."""
    out = {}
    wanted = list(federation_ids)
    for i in range(0, len(wanted), _CHUNK):
        rows = (Player.objects.filter(federation_id__in=wanted[i:i + _CHUNK])
                .values_list("federation_id", "registered_on", "pk"))
        joined = dict(ListMember.objects.filter(rating_list=rating_list, player_id__in=[pk for *_, pk in rows])
                      .values_list("player_id", "registered_on"))
        out.update({fid: on or joined.get(pk) for fid, on, pk in rows if on or joined.get(pk)})
    return out


def _signature(rating_list, events) -> str:
    """What the stored flags were found in: the period's events (their content), the list's games, its editions."""
    facts = sorted((e.code, e.content_key) for e in events)
    totals = Game.objects.filter(event__rating_list=rating_list).aggregate(n=Count("id"), last=Max("id"))
    editions = rating_list.editions.aggregate(n=Count("id"), last=Max("id"))
    return hashlib.sha256(repr((facts, totals, editions)).encode()).hexdigest()


def check_period(rating_list, list_date, events) -> list[AuditFlag]:
    """Run the integrity checks on the period's ``events`` against the whole list and store their flags; return
    the period's integrity flags. A flag found again keeps its decision; one no longer found (and not decided)
    goes."""
    found = checks.integrity_flags(ledger(rating_list), [e.code for e in events])
    event_pk = dict(rating_list.events.values_list("code", "pk"))
    history = set(Event.objects.filter(pk__in=[e.pk for e in events], import_batch__kind=ImportBatch.Kind.HISTORY)
                  .values_list("code", flat=True))
    with writing():
        stored = {f.key: f for f in AuditFlag.objects.filter(rating_list=rating_list, list_date=list_date,
                                                             kind__in=KINDS)}
        keep, new = set(), []
        for flag in found:
            key = flag.key[:300]
            if key in keep:
                continue
            keep.add(key)
            if key in stored:
                continue
            new.append(AuditFlag(rating_list=rating_list, list_date=list_date, key=key, kind=flag.kind,
                                 event_id=event_pk.get(flag.event), players=list(flag.players),
                                 detail=dict(flag.detail), history=flag.event in history))
        AuditFlag.objects.filter(pk__in=[f.pk for k, f in stored.items() if k not in keep and f.checked_at is None]) \
            .delete()
        AuditFlag.objects.bulk_create(new)
        IntegrityRun.objects.update_or_create(rating_list=rating_list, list_date=list_date,
                                              defaults={"signature": _signature(rating_list, events),
                                                        "at": timezone.now()})
    return integrity_flags(rating_list, list_date)


def ensure_checked(rating_list, list_date, events) -> None:
    """What ``publish`` calls before its gate: the checks run unless they ran on exactly these facts. A period of
    history-folder events only is not checked here (its flags would never block; ``office integrity`` shows them)."""
    pks = [e.pk for e in events]
    if Event.objects.filter(pk__in=pks, import_batch__kind=ImportBatch.Kind.HISTORY).count() == len(pks):
        return
    run = IntegrityRun.objects.filter(rating_list=rating_list, list_date=list_date).first()
    if run is None or run.signature != _signature(rating_list, events):
        check_period(rating_list, list_date, events)


def integrity_flags(rating_list, list_date) -> list[AuditFlag]:
    flags = list(AuditFlag.objects.filter(rating_list=rating_list, list_date=list_date, kind__in=KINDS)
                 .select_related("event"))
    return sorted(flags, key=lambda f: (not f.blocking, f.history, f.kind, f.event_id or 0, f.pk))


def hold(actor, flag_id: int, reason: str) -> EventHold:
    """The officer's decision on an integrity flag: its event is held out of its period for review (audited);
    the flag is marked decided with the reason."""
    reason = (reason or "").strip()
    if not reason:
        raise OfficeError(problem("say why: an event is held for review with a reason", code="integrity.reason"))
    with writing():
        flag = AuditFlag.objects.select_for_update(of=("self",)).filter(pk=flag_id).select_related("event").first()
        if flag is None:
            raise NotFound(problem("no plausibility flag #{id}", id=flag_id))
        if flag.kind not in KINDS or flag.event_id is None:
            raise OfficeError(problem("flag #{id} is not an integrity flag of an event: mark it checked, or correct "
                                      "the event", code="integrity.not_integrity", id=flag_id))
        event = flag.event
        if event.status != Event.Status.PENDING:
            raise OfficeError(problem("{event} is already rated: a rated event is corrected by a correction edition "
                                      "of its period, not held", code="integrity.rated", event=event.code))
        if is_held(event):
            raise OfficeError(problem("{event} is already held for review", code="integrity.held", event=event.code))
        who = actor if isinstance(actor, str) else actor.get_username()
        held = EventHold.objects.create(event=event, flag=flag, held_by=who, reason=reason)
        flag.checked_at, flag.checked_by, flag.note = timezone.now(), who, f"held for review: {reason}"
        flag.save(update_fields=["checked_at", "checked_by", "note"])
        record(actor, "integrity.event_held", event, flag=flag.pk, kind=flag.kind, reason=reason)
    return held


def release(actor, event_code: str, reason: str) -> EventHold:
    """Release an event held for review (audited): it returns to its period, rated by the next publication, or
    by a correction edition (``period correct``) when its period is already published."""
    reason = (reason or "").strip()
    if not reason:
        raise OfficeError(problem("say why: an event is released with a reason", code="integrity.reason"))
    with writing():
        held = EventHold.objects.select_for_update(of=("self",)).filter(event__code=event_code, released_at__isnull=True) \
            .select_related("event").first()
        if held is None:
            raise NotFound(problem("{event} is not held for review", event=event_code))
        held.released_at = timezone.now()
        held.released_by = actor if isinstance(actor, str) else actor.get_username()
        held.release_reason = reason
        held.save(update_fields=["released_at", "released_by", "release_reason"])
        record(actor, "integrity.event_released", held.event, reason=reason)
    return held


def band_floors(rating_list, federation_ids, editions: int) -> dict[str, int]:
    """Rating-band prize floors (分段等级分): each player's highest published rating in the list's last ``editions``
    list dates (the current edition of each), so a player whose rating fell stays in his band (item 3)."""
    if editions <= 0:
        return {}
    days = sorted(set(rating_list.editions.values_list("list_date", flat=True)))[-editions:]
    current: dict = {}
    for pk, day, number in rating_list.editions.filter(list_date__in=days).values_list("pk", "list_date", "number"):
        if day not in current or current[day][1] < number:
            current[day] = (pk, number)
    wanted = set(federation_ids)
    out: dict[str, int] = {}
    for ed in rating_list.editions.filter(pk__in=[pk for pk, _ in current.values()]):
        cols = sheets.entries(ed, "federation_id", "rating")
        for fid, rating in zip(cols["federation_id"], cols["rating"]):
            if rating is None or fid not in wanted:
                continue
            out[fid] = max(out.get(fid, rating), rating)
    return out


# -- what a flag says ------------------------------------------------------------------------------------

TEMPLATES = {
    "pool": "#{id} {event}: a closed pool — {members} players meeting only one another in {count} events ({events}); "
            "{player} scored {score} of {games} games where the ratings expected {expected} (a chance of {probability})",
    "thrown": "#{id} {event}: thrown games? {player} scored {score} of {games} games over {count} events against "
              "{opponents}, where the ratings expected {expected} (a chance of {probability})",
    "phantom": "#{id} {event}: a phantom event? {fresh} of its {players} players are seen in no other event and on no "
               "list; {among} of its {games} games were played among them",
    "phantom_evidence": "#{id} {event}: a phantom event? {fresh} of its {players} players are seen in no other event "
                        "and on no list; {among} of its {games} games were played among them; {recent} of its players "
                        "were registered or first seen in the {days} days before it; {organiser}",
    "sandbag": "#{id} {event}: sandbagging? {player} enters under the band limit {limit} with {rating}, after a fall of "
               "{fall} from {peak} (list of {peak_date}): {losses} losses in {lost_games} games since",
    "pairs": "#{id} {event}: {player} and {opponent} met in {met} of the {together} Swiss events they both played, "
             "more than the pairing explains (a chance of {probability})",
}


def _organiser(detail: dict):
    """A phantom flag's organiser in words: without history, with some, or not recorded."""
    organiser, earlier = detail.get("organiser"), detail.get("organiser_earlier")
    if not organiser or earlier is None:
        return problem("its organiser is not recorded")
    if earlier == 0:
        return problem("its organiser {organiser} has no earlier event", organiser=organiser)
    return problem("its organiser {organiser} has {count} earlier event(s)", organiser=organiser, count=earlier)


def describe(flag: AuditFlag, names: dict[str, str]):
    """An integrity flag as a ``Problem``: its evidence in words (games, probabilities, the pattern's size)."""
    def who(fid: str) -> str:
        return f"{fid} {names.get(fid, '')}".strip()

    d, p = flag.detail, flag.players
    params: dict = {"id": flag.pk, "event": flag.event.code if flag.event_id else ""}
    if flag.kind == "pool":
        params |= {"members": d.get("members"), "count": len(d.get("events", ())), "events": ", ".join(d.get("events", ())),
                   "player": who(p[0]), "score": d.get("score"), "games": d.get("games"), "expected": d.get("expected"),
                   "probability": d.get("probability")}
    elif flag.kind == "thrown":
        params |= {"player": who(p[0]), "score": d.get("score"), "games": d.get("games"), "count": d.get("events"),
                   "opponents": ", ".join(who(o) for o in p[1:]), "expected": d.get("expected"),
                   "probability": d.get("probability")}
    elif flag.kind == "phantom":
        params |= {"fresh": d.get("nowhere_else"), "players": d.get("players"), "among": d.get("among_them"),
                   "games": d.get("games")}
        if "recent" in d:  # (flags stored before the evidence was added read as they were)
            params |= {"recent": d["recent"], "days": d.get("recent_days"), "organiser": _organiser(d)}
            return problem(TEMPLATES["phantom_evidence"], code="integrity.phantom", **params)
    elif flag.kind == "sandbag":
        params |= {"player": who(p[0]), "limit": d.get("limit"), "rating": d.get("rating"), "fall": d.get("fall"),
                   "peak": d.get("peak"), "peak_date": d.get("peak_date"), "losses": d.get("losses"),
                   "lost_games": d.get("games")}
    else:
        params |= {"player": who(p[0]), "opponent": who(p[-1]), "met": d.get("met"), "together": d.get("together"),
                   "probability": d.get("probability")}
    return problem(TEMPLATES[flag.kind], code=f"integrity.{flag.kind}", **params)
