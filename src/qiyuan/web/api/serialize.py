"""The API's records (开放数据): plain JSON-safe dicts with stable field names (the OpenAPI schema in
``schema.py`` describes each one; a test checks every response against it).

Public fields only: a player's federation ID, names, sex, birth *year*, association, dan — never the ID number or
the full birth date. Ratings are integers as published, exact values and rating changes decimal strings
(``"2012.4000"``, ``"+11.85"`` is a page's way; the API writes ``"11.8500"``): no binary floats anywhere.
"""

from __future__ import annotations

from django.urls import reverse

from qiyuan.office.calendar.models import Registration
from qiyuan.office.events.models import Event
from qiyuan.office.federation.models import Association, Player
from qiyuan.office import sheets
from qiyuan.office.ratings.models import Edition, RatingList

from qiyuan.people.pinyin import latin_name

from ..portal.editions import correction_reason


def dec(value) -> str | None:
    return None if value is None else str(value)


def association(a: Association | None) -> dict | None:
    if a is None:
        return None
    return {"code": a.code, "name": a.name, "name_en": a.name_en or None}


def player_ref(p: Player) -> dict:
    """A player as other records name him."""
    return {"federation_id": p.federation_id, "name": p.name, "name_latin": latin_name(p.name, p.name_latin) or None}


def player(p: Player) -> dict:
    """A registered player's public record."""
    return {
        **player_ref(p), "gender": p.gender or None, "birth_year": p.birth_year, "association": association(
            p.association), "dan": p.dan or None, "registration_status": p.status,
        "url": reverse("api:player", args=[p.federation_id]),
    }


def rating_list(rl: RatingList, latest: Edition | None = None) -> dict:
    return {
        "code": rl.code, "title": rl.title, "title_en": getattr(rl, "title_en", "") or None, "game": rl.game,
        "rules": rl.rules_name, "url": reverse("api:list", args=[rl.code]),
        "latest_edition": edition_ref(latest) if latest is not None else None,
    }


def edition_ref(ed: Edition) -> dict:
    return {"list_date": ed.list_date.isoformat(), "number": ed.number,
            "url": reverse("api:edition", args=[ed.rating_list.code, ed.list_date.isoformat(), ed.number])}


def edition(ed: Edition, *, superseded: bool, entries: int) -> dict:
    code, day = ed.rating_list.code, ed.list_date.isoformat()
    return {
        **edition_ref(ed), "list": code, "is_correction": ed.is_correction, "reason": "".join(correction_reason(ed.reason)) or None,
        "published_at": ed.published_at.isoformat(), "superseded": superseded, "digest": ed.digest,
        "previous": edition_ref(ed.previous) if ed.previous_id else None, "entries_count": entries,
        "entries_url": reverse("api:edition_entries", args=[code, day, ed.number]),
        "changes_url": reverse("api:edition_changes", args=[code, day, ed.number]),
        "distribution_url": reverse("api:edition_distribution", args=[code, day, ed.number]),
    }


def entry(e: sheets.SheetEntry, rank_change: int | None, rating_change: int | None) -> dict:
    """One player on an edition: his row as published, and the changes since the edition it was computed from."""
    p = e.player
    return {
        "position": e.position, "rank": e.rank, "player": {**player_ref(p), "gender": p.gender or None,
                                                            "birth_year": p.birth_year,
                                                            "association": association(p.association),
                                                            "dan": p.dan or None},
        "name_published": e.name or p.name, "rating": e.rating, "exact": e.exact or None, "games": e.games,
        "k": e.k, "status": e.status, "is_new": e.is_new, "rating_change": rating_change, "rank_change": rank_change,
    }


def change(c: sheets.SheetChange, *, with_player: bool = True, with_event: bool = True) -> dict:
    """A rating change: one player in one rated event, as published in one edition (before and after)."""
    out = {
        "games": c.games, "W": dec(c.W), "We": dec(c.We), "K": c.K, "before": dec(c.before), "after": dec(c.after),
        "delta": dec(c.delta), "method": c.method, "notes": list((c.explanation or {}).get("notes") or []),
        "edition": edition_ref(c.edition),
    }
    if with_player:
        out["player"] = player_ref(c.player)
    if with_event:
        out["event"] = event_ref(c.event)
    return out


def event_ref(e: Event) -> dict:
    return {"code": e.code, "name": e.name, "name_en": getattr(e, "name_en", "") or None,
            "end_date": e.end_date.isoformat(), "url": reverse("api:event", args=[e.code])}


def event(e: Event, rounds: int, players: int | None = None) -> dict:
    return {
        **event_ref(e), "start_date": e.start_date.isoformat(), "format": e.format, "rounds": rounds,
        "players": players, "city": e.city or None, "time_control": e.time_control or None,
        "organiser": e.organiser or None, "list": e.rating_list.code, "status": e.status,
        "national": e.national, "international": e.international,
    }


def calendar_entry(r: Registration, *, upcoming: bool) -> dict:
    """An approved registration as the public calendar shows it: what, when, where, under which list and time
    control, and its result once imported — never who registered or decided it, the reasons or the arbiters."""
    return {
        "code": r.code, "name": r.name, "name_en": r.name_en or None, "start_date": r.start_date.isoformat(),
        "end_date": r.end_date.isoformat(), "city": r.city, "list": r.rating_list.code, "format": r.format,
        "rounds": r.rounds, "time_control": r.time_control, "time_minutes": r.time_minutes,
        "time_increment": r.time_increment, "organiser": r.organiser or None, "national": r.national,
        "international": r.international, "grants_grades": r.grants_grades, "upcoming": upcoming,
        "result": event_ref(r.event) if r.event_id else None,
    }
