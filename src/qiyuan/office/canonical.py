"""The canonical text of published editions, read back from the database (the writer is the format
``qiyuan.formats.canonical_text``, which this module re-exports for the office).

An edition's entries and changes are read from its sheet (``office.sheets``);
``stored_inputs`` gathers the public facts an edition was computed from (for
its inputs digest), with the models of a given app registry so the migration
that introduced the digest uses it too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.apps import apps as django_apps

from qiyuan.formats.canonical_text import (  # noqa: F401  (the office's names for the format)
    CHANGE_COLUMNS,
    CURRENT_VERSION,
    EntryRow,
    as_json,
    change_json,
    change_line,
    change_row,
    change_text,
    digest_of,
    entry_line,
    inputs_digest,
    number_text,
    writer,
)
from qiyuan.formats.change_texts import explanation_texts
from qiyuan.office.bulk import raw_rows
from qiyuan.office.merged import aliases_for_edition, roots_of


def digest(comp) -> str:
    """The digest of a computed period (``periods.PeriodComputation``) in the current version of the canonical
    text; keeps the changes' texts on it."""
    return digest_in(comp, CURRENT_VERSION)


def digest_in(comp, version: int) -> str:
    """The digest of a computed period in ``version`` of the canonical text, its changes' texts written in bulk
    from their columns (``comp.change_cols``) and kept on it."""
    w = writer(version)
    comp.canonical_version = w.version
    comp.change_texts = explanation_texts(comp.change_cols, w.version)
    cc = comp.change_cols
    return w.digest_of((e.line() for e in comp.entries),
                       map(w.change_line, cc.event_id, cc.player_id, comp.change_texts), [e.code for e in comp.events])


def stored_state(value: dict | str) -> dict:
    """An entry's stored state as a sheet hands it over (the text of its JSON, or the JSON) as JSON."""
    return json.loads(value) if isinstance(value, str) else value


@dataclass(frozen=True)
class EventRows:
    """The games and standings of some events as stored, read once for the rating engine (``engine_games``) and
    for the inputs digest (``stored_inputs``): games (id, event pk, round, player pks, result, opener, board) in
    (event, round, id) order, standings (event pk, player pk, reported rating, score, rank)."""

    games: list[tuple]
    standings: list[tuple]


def event_rows(event_pks: list[int], apps=django_apps) -> EventRows:
    """The stored games and standings of the events ``event_pks`` (``EventRows``)."""
    Game = apps.get_model("events", "Game")
    Entry = apps.get_model("events", "Entry")
    games = raw_rows(Game, ("id", "event_id", "round", "player1_id", "player2_id", "result", "opener", "board"),
                     "event_id", event_pks)
    games.sort(key=lambda g: (g[1], g[2], g[0]))
    standings = list(Entry.objects.filter(event_id__in=event_pks).values_list(
        "event_id", "player_id", "rating", "score", "rank").iterator(chunk_size=20000))
    return EventRows(games, standings)


def stored_inputs(edition_pk: int, apps=django_apps, rows: EventRows | None = None, *,
                  published: set[str]) -> dict[str, list[tuple]]:
    """The public facts edition ``edition_pk`` was computed from, as plain rows (``inputs_digest``'s parts):
    the edition's own facts (list date, number, who published it and why), its events with their dates,
    format, flags and status, their games (round, players, result, opener, board) and standings (player, reported
    rating, score, rank), the members who joined the list in it with the facts frozen then, and the dan
    grants that gave those members their grades. Players are named by federation ID as the edition published
    their merged group (``merged.aliases_for_edition``), so a merge after publication changes nothing here.
    ``rows``: the games and standings of the edition's events when the caller has read them already
    (``event_rows``, e.g. to compute the edition in the same transaction). ``published``: the federation IDs on
    the edition (its sheet's; the computation's while it is being stored; its rows' in migration 0006, written
    before sheets)."""
    Edition = apps.get_model("ratings", "Edition")
    Event = apps.get_model("events", "Event")
    ListMember = apps.get_model("ratings", "ListMember")
    DanGrant = apps.get_model("federation", "DanGrant")
    Player = apps.get_model("federation", "Player")
    ed = Edition.objects.filter(pk=edition_pk).values_list(
        "rating_list__code", "list_date", "number", "is_correction", "reason", "published_by", "previous_id").get()
    event_pks = list(Edition.events.through.objects.filter(edition_id=edition_pk).values_list("event_id", flat=True))
    events = list(Event.objects.filter(pk__in=event_pks).values_list(
        "pk", "code", "start_date", "end_date", "days", "format", "rounds", "national", "international", "status"))
    code = {e[0]: e[1] for e in events}
    rows = rows or event_rows(event_pks, apps)  # (given: read by the computation, in the same transaction)
    games = [g[1:] for g in rows.games]
    standings = rows.standings
    pks = {g[2] for g in games} | {g[3] for g in games} | {s[1] for s in standings}
    fid = dict(raw_rows(Player, ("id", "federation_id"), "id", list(pks)) if len(pks) < 30000 else
               raw_rows(Player, ("id", "federation_id")))
    roots = roots_of(dict(Player.objects.filter(merged_into__isnull=False).values_list(
        "federation_id", "merged_into__federation_id")))
    # (which of the merged records the edition published: only those are looked up among its entries)
    alias = aliases_for_edition(published, roots)

    def name(pk: int) -> str:
        f = fid[pk]
        return alias.get(f, f)

    members = list(ListMember.objects.filter(joined_in_id=edition_pk).values_list(
        "player_id", "player__federation_id", "gender", "dan", "dan_granted_by", "rating", "games", "k_latched",
        "registered_on", "reference_rating"))
    held = {(pk, dan, body) for pk, _, _, dan, body, *_ in members if dan}
    grants = [(f, grade, on, body) for pk, f, grade, on, body in DanGrant.objects.filter(
        player_id__in=[k[0] for k in held], granted_on__lt=ed[1]).values_list(
        "player_id", "player__federation_id", "grade", "granted_on", "granted_by") if (pk, grade, body) in held]
    return {"edition": [ed], "events": [e[1:] for e in events],
            "games": [(code[ev], rnd, name(a), name(b), res, op, board) for ev, rnd, a, b, res, op, board in games],
            "standings": [(code[ev], name(p), *rest) for ev, p, *rest in standings],
            "members": [m[1:] for m in members], "grants": grants}
