"""The canonical text of published editions, read back from the database (the writer is the format
``qiyuan.formats.canonical_text``, which this module re-exports for the office).

``stored_lines`` reads an edition's rows raw and writes them in the version
of the canonical text the edition was published in; ``stored_change_rows``
reads the numbers of its changes; ``stored_inputs`` gathers the public facts
an edition was computed from (for its inputs digest), with the models of a
given app registry so the migration that introduced the digest uses it too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal

from django.apps import apps as django_apps
from django.db import connection
from django.db.models import F, TextField
from django.db.models.functions import Cast

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
from qiyuan.office.bulk import raw_rows
from qiyuan.office.merged import aliases_for_edition, roots_of
from qiyuan.office.federation.models import Player
from qiyuan.office.ratings.models import EditionEntry, RatingChange


def digest(comp) -> str:
    """The digest of a computed period (``periods.PeriodComputation``) in the current version of the canonical
    text; keeps the changes' texts on it."""
    w = writer(CURRENT_VERSION)
    comp.canonical_version = w.version
    comp.change_texts = [w.change_text(c) for c in comp.changes]
    return w.digest_of((e.line() for e in comp.entries),
                       (w.change_line(c.event_id, c.player_id, t) for c, t in zip(comp.changes, comp.change_texts)),
                       [e.code for e in comp.events])


def stored_lines(edition, states: dict[str, dict | str] | None = None, *, names: dict[str, str] | None = None,
                 rows: dict[tuple[str, str], tuple] | None = None, as_stored: bool = False
                 ) -> tuple[dict[str, str], dict[tuple[str, str], str], list[str], list[str]]:
    """A stored edition read back from the database, in its version of the canonical text: entry lines by
    player (in list order), change lines by (event, player), the events, and the entry lines in order.
    ``states``, when given, receives each entry's stored state (federation id → its JSON, as read), ``names``
    each entry's published name, and ``rows`` each change's stored columns as ``stored_change_rows`` gives them
    (read with the lines: one pass over the edition's rows).

    ``as_stored``: take each JSON value's text as the database keeps it instead of decoding and writing it
    again — on SQLite that is the very text written at publication, so lines that give the published digest
    prove the rows unchanged (a state then comes as its text); a text written otherwise since (an edit) gives
    another digest, and the caller reads the edition again without it. PostgreSQL keeps JSON decoded (jsonb):
    there the values are always written again."""
    w = writer(edition.canonical_version)
    as_stored = as_stored and connection.vendor == "sqlite"
    ordered = []
    entries = {}
    for row in _entry_rows(edition.pk, decode=not as_stored):
        state = row[10]
        line = w.entry_line(list(row[:10]), state if as_stored and isinstance(state, str) else as_json(state))
        entries[row[0]] = line
        ordered.append(line)
        if states is not None:
            states[row[0]] = state
        if names is not None:
            names[row[0]] = row[1]
    changes = {}
    explanation = Cast("explanation", TextField()) if as_stored else F("explanation")
    for ev, fid, expl, *values in RatingChange.objects.filter(edition=edition).annotate(text=explanation).values_list(
            "event__code", "player__federation_id", "text", *(CHANGE_COLUMNS if rows is not None else ())
    ).iterator(chunk_size=10000):
        changes[(ev, fid)] = w.change_line(ev, fid, expl if as_stored else as_json(expl))
        if rows is not None:
            rows[(ev, fid)] = _numbers(values)
    events = list(edition.events.values_list("code", flat=True))
    return entries, changes, events, ordered


def stored_state(value: dict | str) -> dict:
    """An entry's stored state as ``stored_lines`` hands it over (its JSON, or the text of it) as JSON."""
    return json.loads(value) if isinstance(value, str) else value


def _entry_rows(edition_pk: int, *, decode: bool = True):
    """An edition's entries read raw, in list order (federation id, name, position, rank, rating, exact, games,
    status, is_new, k, state): the values the ORM gives, without its per-row work (the boolean and the JSON state
    converted here, as either database hands them back; ``decode=False``: a state kept as text stays text)."""
    q = connection.ops.quote_name
    entry, player = q(EditionEntry._meta.db_table), q(Player._meta.db_table)
    columns = ", ".join(f"e.{q(c)}" for c in ("name", "position", "rank", "rating", "exact", "games", "status",
                                               "is_new", "k", "state"))
    with connection.cursor() as cur:
        cur.execute(f"SELECT p.{q('federation_id')}, {columns} FROM {entry} e JOIN {player} p ON p.{q('id')} = "
                    f"e.{q('player_id')} WHERE e.{q('edition_id')} = %s ORDER BY e.{q('position')}", [edition_pk])
        while True:
            chunk = cur.fetchmany(10000)
            if not chunk:
                return
            for *values, is_new, k, state in chunk:
                yield (*values, bool(is_new), k,
                       json.loads(state) if isinstance(state, bytes) or (decode and isinstance(state, str)) else state)


def stored_change_rows(edition) -> dict[tuple[str, str], tuple]:
    """The stored columns of each change of an edition, by (event, player), as ``change_row`` writes them."""
    out = {}
    for ev, fid, *values in RatingChange.objects.filter(edition=edition).values_list(
            "event__code", "player__federation_id", *CHANGE_COLUMNS).iterator(chunk_size=10000):
        out[(ev, fid)] = _numbers(values)
    return out


def _numbers(values) -> tuple:
    return tuple(number_text(v) if isinstance(v, Decimal) else v for v in values)


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


def stored_inputs(edition_pk: int, apps=django_apps, rows: EventRows | None = None
                  ) -> dict[str, list[tuple]]:
    """The public facts edition ``edition_pk`` was computed from, as plain rows (``inputs_digest``'s parts):
    the edition's own facts (list date, number, who published it and why), its events with their dates,
    format, flags and status, their games (round, players, result, opener, board) and standings (player, reported
    rating, score, rank), the members who joined the list in it with the facts frozen then, and the dan
    grants that gave those members their grades. Players are named by federation ID as the edition published
    their merged group (``merged.aliases_for_edition``), so a merge after publication changes nothing here.
    ``rows``: the games and standings of the edition's events when the caller has read them already
    (``event_rows``, e.g. to compute the edition in the same transaction)."""
    Edition = apps.get_model("ratings", "Edition")
    Event = apps.get_model("events", "Event")
    ListMember = apps.get_model("ratings", "ListMember")
    DanGrant = apps.get_model("federation", "DanGrant")
    Player = apps.get_model("federation", "Player")
    EntryRow_ = apps.get_model("ratings", "EditionEntry")
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
    alias = aliases_for_edition(set(EntryRow_.objects.filter(
        edition_id=edition_pk, player__federation_id__in={*roots, *roots.values()}).values_list(
        "player__federation_id", flat=True)) if roots else set(), roots)

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
