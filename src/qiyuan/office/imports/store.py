"""Storing a checked event (a ``Plan``): new registrations, the event, its entries and games (each with how its
result was entered: the file's record, or — a report of the office's own desk — the desk event's), the batch.

Runs inside the import's transaction (``imports.import_file``), after the
checks made under the same locks, so what is stored is exactly what was checked.
"""

from __future__ import annotations

from datetime import date

from qiyuan.errors import QiyuanError
from qiyuan.office.audit.models import record
from qiyuan.office.engine import member_from_registry
from qiyuan.office.event_registration import link_result
from qiyuan.office.events.live import load
from qiyuan.office.events.models import Entry, Event, Game, ImportBatch, LiveEvent
from qiyuan.office.imports.model import ImportResult, Options, Plan
from qiyuan.office.integrity import BANDS_KEY
from qiyuan.office.ratings.models import ListMember
from qiyuan.office.registry.players import insert_with_new_federation_id
from qiyuan.rating.eligibility import parse_time_control
from qiyuan.rating.model import Result
from qiyuan.tournament.hall import FILE, games_entered


#: a game's result (from player1's side) as the lower-numbered player's cell in the event file
_CELL = {Result.WIN: "1", Result.LOSS: "0", Result.DRAW: "=", Result.FORFEIT_WIN: "+", Result.FORFEIT_LOSS: "-"}


def desk_entered(parsed, live) -> dict:
    """How the games of a report the office's own desk wrote were entered: the desk event's record (``XRP``) for
    each game the report holds with the same result (a result changed in the report afterwards: the file alone).
    A report names its desk event (赛事代码); ``live``: that event, or None."""
    if live is None or parsed.entered:
        return parsed.entered
    try:
        found = games_entered(load(live))
    except (QiyuanError, ValueError, LookupError):  # a desk event that no longer reads: its record is not used
        return {}
    held = {(r, a, b): res for r, a, b, res, _ in parsed.games}  # (a report's games: a < b, from a's side)
    return {key: e for key, e in found.items() if e.cell and _CELL.get(held.get(key)) == e.cell}


def entered_fields(found) -> dict:
    """A game's provenance columns from the file's record of it (``hall.Entered``; None: the file alone)."""
    if found is None:
        return {"entered": FILE}
    return {"entered": found.how, "entered_acts": found.acts_text(), "entered_at": found.when}


def store(plan: Plan, rating_list, actor: str, *, kind: str, filename: str, sha: str, key: str,
          options: Options) -> ImportResult:
    """Write the plan; ``sha`` is the file's digest, ``key`` the event's content identity (``identity``)."""
    ev = plan.parsed
    for p in plan.new_players:
        p.registered_on = p.registered_on or ev.end_date
        insert_with_new_federation_id(p)
    batch = ImportBatch.objects.create(kind=kind, filename=filename, sha256=sha, actor=actor,
                                       rating_list=rating_list, notes=[str(n) for n in plan.notes],
                                       note_data=[n.as_json() for n in plan.notes])
    tc = parse_time_control(ev.time_control)
    live = LiveEvent.objects.filter(code=ev.desk_code, rated_event__isnull=True).first() if ev.desk_code else None
    entered = desk_entered(ev, live)
    event = Event.objects.create(
        code=f"{rating_list.code}-{ev.end_date:%Y%m%d}-{key[:8]}", content_key=key, name=ev.name,
        organiser=ev.organiser, organiser_level=options.organiser_level or "", format=ev.format, rounds=ev.rounds or 0,
        time_control=ev.time_control, time_minutes=tc.base_minutes if tc else None,
        time_increment=tc.increment_seconds if tc else None, start_date=ev.start_date, end_date=ev.end_date,
        days=ev.days, national=options.national, international=options.international, city=ev.city,
        chief_arbiter=plan.chief, rating_list=rating_list, import_batch=batch,
        received_on=options.received_on or date.today(), eligibility={**plan.eligibility, BANDS_KEY: ev.prize_bands} if ev.prize_bands else plan.eligibility,
        pairing_check=ev.pairing_check,
        # the desk event this report came from: one event with both its desk and its rated record
        live_event=live,
    )
    if plan.arbiters:
        event.arbiters.set(plan.arbiters)
    if plan.registration is not None:
        link_result(plan.registration.registration, event)
    Entry.objects.bulk_create([
        Entry(event=event, player=plan.players[e.number], number=e.number, name=e.name,
              association=e.association, rating=e.rating, dan=e.dan, rank=e.rank, score=e.score)
        for e in ev.entrants])
    Game.objects.bulk_create([
        Game(event=event, round=r, player1=plan.players[a], player2=plan.players[b], result=res.value, opener=op,
             **entered_fields(entered.get((r, *sorted((a, b))))))
        for r, a, b, res, op in ev.games])
    known = set(ListMember.objects.filter(rating_list=rating_list).values_list("player_id", flat=True))
    ListMember.objects.bulk_create([member_from_registry(rating_list, p, on=ev.start_date) for p in
                                    {p.pk: p for p in plan.players.values()}.values() if p.pk not in known])
    batch.summary = {"events": 1, "games": len(ev.games), "players": len(ev.entrants),
                     "new_players": len(plan.new_players)}
    batch.save(update_fields=["summary"])
    record(actor, "import", batch, kind=kind, filename=filename, event=event.code,
           new_players=[p.federation_id for p in plan.new_players],
           registration=plan.registration.registration.code if plan.registration else "",
           **({"duplicate_of": plan.duplicate_of[0], "duplicate_reason": plan.duplicate_of[1]}
              if plan.duplicate_of else {}),
           **({"facts_overridden": plan.overridden} if plan.overridden else {}))
    return ImportResult(batch, [event], plan.notes, len(plan.new_players), len(ev.games))
