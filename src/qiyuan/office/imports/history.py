"""Import a whole history (the rating engine's four CSV files) into the office, in bulk.

A directory with ``players.csv``, ``events.csv``, ``games.csv`` and optionally
``standings.csv`` (``docs/formats.md``). Players keep their history id as
federation ID; their rating, games, K latch, registration date, reference
rating, dan and the body that granted it become their frozen facts on the list
(``ListMember``). Events are taken as rated (the history files hold rated
events: spec decision "Eligibility of events") with their own facts — format,
dates, days, national and international flags (a missing column means what it
means for ``qiyuan rate``: ``0``) — games with their boards, and the ranks of
standings.csv: everything ``qiyuan rate`` reads, so publishing gives its lists.
A column the office cannot store is refused by name, never dropped.
Millions of games go in by batches straight into the tables (one transaction),
with a progress callback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

import csv

import numpy as np
from django.db import transaction

from qiyuan.errors import N_, InputError, Problem, problem
from qiyuan.formats import history_csv as H
from qiyuan.formats.history_csv import read_history
from qiyuan.office.audit.models import record
from qiyuan.office.bulk import bulk_insert, check_foreign_keys, insert_models
from qiyuan.office.errors import ImportRefused
from qiyuan.office.events.models import Entry, Event, Game, ImportBatch
from qiyuan.office.federation.models import Player, name_keys
from qiyuan.office.imports.model import ImportResult
from qiyuan.office.imports.possible import future_events
from qiyuan.office.ratings.models import ListMember
from qiyuan.rating.columnar import RESULT_CODES


def import_history(path: Path, rating_list, actor: str, sha: str, *,
                   progress: Callable[[str, int, int], None] | None = None) -> ImportResult:
    """Import a history directory (run inside the import's transaction, ``imports.import_file``)."""
    missing = [n for n in ("players.csv", "events.csv", "games.csv") if not (path / n).exists()]
    if missing:
        raise ImportRefused([problem("missing {files} (a history is players.csv, events.csv, games.csv and optionally "
                                     "standings.csv)", file=path.name, files=", ".join(missing))])
    standings = path / "standings.csv"
    unknown = unstorable_columns(path)
    if unknown:
        raise ImportRefused(unknown)
    try:
        h = read_history(path / "players.csv", path / "events.csv", path / "games.csv",
                         standings if standings.exists() else None)
    except InputError as exc:
        raise ImportRefused([_own_name(p, path) for p in exc.problems]) from None

    clash = list(Event.objects.filter(code__in=[e.id for e in h.events]).values_list("code", flat=True)[:20])
    if clash:
        raise ImportRefused([problem("event id {event!r} is already in the office", file=f"{path.name}/events.csv", event=c)
                             for c in clash])
    future = future_events(h.events, f"{path.name}/events.csv", date.today())
    if future:
        raise ImportRefused(future)
    step = (lambda what, done, total: progress(what, done, total)) if progress else (lambda *a: None)

    with transaction.atomic():
        batch = ImportBatch.objects.create(kind="history", filename=path.name, sha256=sha, actor=actor,
                                           rating_list=rating_list)
        # Players: existing federation IDs are reused, the others registered.
        ids = [p.id for p in h.players]
        existing: dict[str, int] = {}
        for i in range(0, len(ids), 20000):
            existing.update(Player.objects.filter(federation_id__in=ids[i:i + 20000]).values_list("federation_id", "pk"))
        new = [p for p in h.players if p.id not in existing]
        step("players", 0, len(new))
        # Straight into the table, as the games: no model object per player; each name's keys computed once.
        insert_models(Player, (_player_row(p) for p in new), total=len(new),
                      progress=lambda n: step("players", n, len(new)))
        pk_of = dict(existing)
        for i in range(0, len(ids), 20000):
            pk_of.update(Player.objects.filter(federation_id__in=ids[i:i + 20000]).values_list("federation_id", "pk"))
        members = set(ListMember.objects.filter(rating_list=rating_list).values_list("player_id", flat=True))
        joining = [p for p in h.players if pk_of[p.id] not in members]
        insert_models(ListMember, ({"rating_list": rating_list.pk, "player": pk_of[p.id],
                                    "gender": p.gender.value if p.gender else "", "dan": p.dan or "",
                                    "dan_granted_by": p.dan_granted_by or "", "rating": p.rating, "games": p.games,
                                    "k_latched": p.k_latched, "registered_on": p.registered_on,
                                    "reference_rating": p.reference_rating} for p in joining), total=len(joining))

        # Events.
        note = {"family": rating_list.family, "eligible": True, "failures": [],
                "notes": ["history file: events taken as rated (spec decision 'Eligibility of events')"]}
        rounds = _rounds_played(h.games)
        today = date.today()
        insert_models(Event, ({"code": e.id, "name": e.name, "format": e.format.value, "start_date": e.start_date,
                               "end_date": e.end_date, "days": e.days, "international": e.international,
                               "national": e.national, "rating_list": rating_list.pk, "rounds": rounds.get(e.id, 0),
                               "import_batch": batch.pk, "eligibility": note, "received_on": today}
                              for e in h.events), total=len(h.events))  # (raw, as the players: no object per row)
        event_pk = dict(Event.objects.filter(import_batch=batch).values_list("code", "pk"))

        # Games, straight into the table.
        g = h.games
        ev_map = np.array([event_pk[e] for e in g.event_ids], dtype=np.int64)
        pl_map = np.array([pk_of[p] for p in g.player_ids], dtype=np.int64)
        ev_col = ev_map[g.event] if len(g) else np.array([], dtype=np.int64)
        p1 = pl_map[g.player1] if len(g) else ev_col
        p2 = pl_map[g.player2] if len(g) else ev_col
        results = [r.value for r in RESULT_CODES]
        total = len(g)
        step("games", 0, total)

        boards = g.board.tolist() if g.board is not None else [0] * total  # 0: no board given

        def game_rows() -> Iterator[tuple]:
            for e, r, a, b, res, board in zip(ev_col.tolist(), g.round.tolist(), p1.tolist(), p2.tolist(),
                                              g.result.tolist(), boards):
                yield (e, r, a, b, results[res], board or None)

        bulk_insert(Game._meta.db_table, ("event_id", "round", "player1_id", "player2_id", "result", "board"),
                    game_rows(),
                    total=total, progress=lambda n: step("games", n, total))

        # Entries: every (event, player) pair of the games and of standings.csv (a ranked player without a
        # game too: the standings name the champion), with the official rank where given.
        rank_of = {}
        s = h.standings
        ranked = np.array([], dtype=np.int64)
        if s is not None and len(s):
            sev = ev_map[s.event]
            spl = pl_map[s.player]
            rank_of = {(int(a), int(b)): int(r) for a, b, r in zip(sev.tolist(), spl.tolist(), s.rank.tolist())}
            ranked = sev << 32 | spl
        keys = np.unique(np.concatenate([ev_col << 32 | p1, ev_col << 32 | p2, ranked])) if total or len(ranked) \
            else ev_col
        pairs = np.stack([keys >> 32, keys & 0xFFFFFFFF], axis=1)
        step(N_("entries"), 0, len(pairs))  # (the progress labels are translated where they are shown)
        bulk_insert(Entry._meta.db_table, ("event_id", "player_id", "rank", "name", "association", "dan"),
                    ((int(a), int(b), rank_of.get((int(a), int(b))), "", "", "") for a, b in pairs.tolist()),
                    total=len(pairs), progress=lambda n: step("entries", n, len(pairs)))

        # the keys of every row written, one query a table (SQLite looked none up row by row: ``keys_checked_once``)
        check_foreign_keys(ImportBatch, ListMember, Event, Game, Entry)
        batch.summary = {"players": len(h.players), "new_players": len(new), "events": len(h.events), "games": total}
        batch.save(update_fields=["summary"])
        record(actor, "import", batch, kind="history", filename=path.name, **batch.summary)
    events = list(Event.objects.filter(import_batch=batch))
    return ImportResult(batch, events, [], len(new), total)


def _player_row(p) -> dict:
    """A new player of the history as the registry's row (``Player``'s fields)."""
    pinyin, search = name_keys(p.name)
    return {"federation_id": p.id, "name": p.name, "name_pinyin": pinyin, "name_search": search,
            "gender": p.gender.value if p.gender else "", "dan": p.dan or "", "registered_on": p.registered_on,
            "reference_rating": p.reference_rating}


#: the columns the office stores, per file (docs/formats.md): all that ``qiyuan rate`` reads
STORED_COLUMNS = {
    "players.csv": (*H.PLAYER_COLUMNS, *H.PLAYER_OPTIONAL),
    "events.csv": (*H.EVENT_COLUMNS, *H.EVENT_OPTIONAL),
    "games.csv": (*H.GAME_COLUMNS, *H.GAME_OPTIONAL),
    "standings.csv": H.STANDING_COLUMNS,
}


def unstorable_columns(path: Path) -> list[Problem]:
    """One refusal per column of the history's files that the office does not store (named, never dropped).
    A file that cannot be read as text is left to the reader, which says why."""
    out = []
    for name, known in STORED_COLUMNS.items():
        try:
            with open(path / name, encoding="utf-8-sig", newline="") as f:
                header = next(csv.reader([f.readline()]), [])
        except (OSError, UnicodeDecodeError, csv.Error):
            continue
        for column in (h.strip() for h in header):
            if column and column not in known:
                out.append(problem("column '{name}' is not one the office stores (it stores: {known}); remove it "
                                   "or rename it as docs/formats.md names the columns", file=f"{path.name}/{name}",
                                   line=1, column=column, code="import.column", name=column, known=", ".join(known)))
    return out


def _own_name(p: Problem, path: Path) -> Problem:
    """The problem naming the file by the history folder's own name, never the server's path to it."""
    base = str(path)
    if p.file.startswith(base):
        return Problem(path.name + p.file[len(base):], p.line, p.column, p.message, p.params, p.code)
    return p


def _rounds_played(g) -> dict[str, int]:
    """Each event's number of rounds (轮数): the distinct rounds among its games."""
    if not len(g):
        return {}
    pairs = np.unique(g.event.astype(np.int64) << 32 | g.round.astype(np.int64))
    counts = np.bincount((pairs >> 32).astype(np.int64), minlength=len(g.event_ids))
    return {eid: int(n) for eid, n in zip(g.event_ids, counts.tolist())}
