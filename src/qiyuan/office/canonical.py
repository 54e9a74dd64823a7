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
    extra_inputs,
    entry_line,
    inputs_digest,
    number_text,
    writer,
)
from qiyuan.formats.change_texts import explanation_texts
from qiyuan.formats.edition_bundle import AUDIT_HEAD, PROVENANCE, audit_head_json, provenance_csv
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
    # One object per distinct key, result and reported rating (the database hands back a new one per cell): a
    # 2,000,000-game history holds 50,000 players and 20,000 events, and its rows take 0.3 GiB less. A score is a
    # decimal, shared by its text only (3.5 and 3.50 are equal but not written alike).
    share, share_score = {}.setdefault, {}.setdefault
    for k, (i, ev, rnd, a, b, res, opener, board) in enumerate(games):
        games[k] = (i, share(ev, ev), rnd, share(a, a), share(b, b), share(res, res), opener, board)
    standings = [(share(ev, ev), share(p, p), share(rating, rating),
                  score if score is None else share_score(str(score), score), rank)
                 for ev, p, rating, score, rank in Entry.objects.filter(event_id__in=event_pks).values_list(
                     "event_id", "player_id", "rating", "score", "rank").iterator(chunk_size=20000)]
    return EventRows(games, standings)


def stored_inputs(edition_pk: int, apps=django_apps, rows: EventRows | None = None, *,
                  published: set[str]) -> dict[str, list[tuple]]:
    """The public facts edition ``edition_pk`` was computed from, as plain rows (``inputs_digest``'s parts):
    the edition's own facts (list date, number, who published it and why), its events with their dates,
    format, flags and status, their games (round, players, result, opener, board) and standings (player, reported
    rating, score, rank), the members who joined the list in it with the facts frozen then, and the dan
    grants that gave those members their grades; from canonical version 3 also how each game's result was entered
    (``provenance``: ``provenance_rows``) and the audit log's head recorded at publication (``audit_head``). Players
    are named by federation ID as the edition published
    their merged group (``merged.aliases_for_edition``), so a merge after publication changes nothing here.
    ``rows``: the games and standings of the edition's events when the caller has read them already
    (``event_rows``, e.g. to compute the edition in the same transaction). ``published``: the federation IDs on
    the edition (its sheet's; the computation's while it is being stored; its rows' in migration 0006, written
    before sheets)."""
    Edition = apps.get_model("ratings", "Edition")
    Event = apps.get_model("events", "Event")
    ListMember = apps.get_model("ratings", "ListMember")
    DanGrant = apps.get_model("federation", "DanGrant")
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
    name = published_names(pks, published, apps)

    members = list(ListMember.objects.filter(joined_in_id=edition_pk).values_list(
        "player_id", "player__federation_id", "gender", "dan", "dan_granted_by", "rating", "games", "k_latched",
        "registered_on", "reference_rating"))
    held = {(pk, dan, body) for pk, _, _, dan, body, *_ in members if dan}
    grants = [(f, grade, on, body) for pk, f, grade, on, body in DanGrant.objects.filter(
        player_id__in=[k[0] for k in held], granted_on__lt=ed[1]).values_list(
        "player_id", "player__federation_id", "grade", "granted_on", "granted_by") if (pk, grade, body) in held]
    out = {"edition": [ed], "events": [e[1:] for e in events],
           "games": [(code[ev], rnd, name(a), name(b), res, op, board) for ev, rnd, a, b, res, op, board in games],
           "standings": [(code[ev], name(p), *rest) for ev, p, *rest in standings],
           "members": [m[1:] for m in members], "grants": grants}
    version = Edition.objects.filter(pk=edition_pk).values_list("canonical_version", flat=True).get()
    extra = extra_inputs(version)
    if "provenance" in extra:
        out["provenance"] = provenance_rows(event_pks, code, name, apps)
    if "audit_head" in extra:
        out["audit_head"] = [audit_head_row(edition_pk, apps)]
    return out


def published_names(pks: set[int], published: set[str], apps=django_apps):
    """Player pk → the federation ID an edition published for him (a merged record: its group's, as the edition
    named it, ``merged.aliases_for_edition``), for the players ``pks``."""
    Player = apps.get_model("federation", "Player")
    fid = dict(raw_rows(Player, ("id", "federation_id"), "id", list(pks)) if len(pks) < 30000 else
               raw_rows(Player, ("id", "federation_id")))
    roots = roots_of(dict(Player.objects.filter(merged_into__isnull=False).values_list(
        "federation_id", "merged_into__federation_id")))
    # (which of the merged records the edition published: only those are looked up among its entries)
    alias = aliases_for_edition(published, roots)

    def name(pk: int) -> str:
        f = fid[pk]
        return alias.get(f, f)
    return name


def extra_input_files(edition, published: set[str], parts: dict | None = None) -> dict[str, bytes]:
    """The bundle files of the inputs the edition's canonical version adds (``inputs/provenance.csv``,
    ``inputs/audit_head.json``; none before version 3), with the rows its inputs digest covers. ``published``: the
    federation IDs on the edition; ``parts``: its ``stored_inputs`` when read already (their rows are written)."""
    extra = extra_inputs(edition.canonical_version)
    out = {}
    if parts is not None and all(name in parts for name in extra):
        if "provenance" in extra:
            out[PROVENANCE] = provenance_csv(parts["provenance"])
        if "audit_head" in extra:
            out[AUDIT_HEAD] = audit_head_json(*parts["audit_head"][0])
        return out
    if "provenance" in extra:
        Game = django_apps.get_model("events", "Game")
        code = dict(edition.events.values_list("pk", "code"))
        pks = set()
        for a, b in Game.objects.filter(event_id__in=list(code)).values_list("player1_id", "player2_id").iterator(
                chunk_size=20000):
            pks.update((a, b))
        out[PROVENANCE] = provenance_csv(provenance_rows(list(code), code, published_names(pks, published)))
    if "audit_head" in extra:
        out[AUDIT_HEAD] = audit_head_json(*audit_head_row(edition.pk))
    return out


def provenance_rows(event_pks: list[int], code: dict[int, str], name, apps=django_apps) -> list[tuple]:
    """How each game of the events ``event_pks`` was entered (``edition_bundle.PROVENANCE_HEADER``'s columns), in (event, round,
    game) order; ``code``: event pk → code, ``name``: player pk → the federation ID the edition published."""
    Game = apps.get_model("events", "Game")
    Event = apps.get_model("events", "Event")
    files = {pk: (kind or "", sha or "") for pk, kind, sha in Event.objects.filter(pk__in=event_pks).values_list(
        "pk", "import_batch__kind", "import_batch__sha256")}
    rows = raw_rows(Game, ("id", "event_id", "round", "player1_id", "player2_id", "entered", "entered_acts",
                           "entered_at"), "event_id", event_pks)
    rows.sort(key=lambda g: (code[g[1]], g[2], g[0]))
    return [(code[ev], rnd, name(a), name(b), how, acts, at, *files[ev]) for _, ev, rnd, a, b, how, acts, at in rows]


def audit_head_row(edition_pk: int, apps=django_apps) -> tuple[int, str]:
    """The audit log's head recorded with edition ``edition_pk``: (entries, head hash); (0, "") when none."""
    head = apps.get_model("ratings", "Edition").objects.filter(pk=edition_pk).values_list("audit_head", flat=True).get()
    head = head if isinstance(head, dict) else {}
    return (head.get("entries") or 0, head.get("head") or "")
