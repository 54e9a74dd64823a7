"""Editions as sheets: the one place the office writes and reads an edition's entries and changes.

An edition's entries and changes are stored as one ``EditionSheet`` row (two Arrow IPC column blobs, the format
``qiyuan.formats.edition_sheet``), written by the publishing use case under the list's lock. Everything that
reads an edition's data — the portal, the desk, the API, exports, merges, the what-if, bundles, verify — reads
it here. Editions never change, so the decoded columns are kept per process (``CACHE_COLUMNS`` of them, the
least recently used dropped first) and never go stale: they are kept by edition and digest, so even an office
restored over another (its editions' keys given again) reads its own; only the columns a reader asks for are
decoded. Readers pass the edition (its ``pk`` and ``digest``).
"""

from __future__ import annotations

import hashlib
import json
import threading
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db import connection

from qiyuan.formats import edition_sheet as S
from qiyuan.formats.canonical_text import CURRENT_VERSION, as_json, writer
from qiyuan.formats.change_texts import explanation_texts, stored_numbers
from qiyuan.office.errors import OfficeError, problem
from qiyuan.office.events.models import Event
from qiyuan.office.federation.models import Player
from qiyuan.office.ratings.models import EditionSheet

#: how many decoded columns the process keeps (a column of one edition each)
CACHE_COLUMNS = 400

_cache: OrderedDict[tuple[int, str, str, str], list] = OrderedDict()
_lock = threading.Lock()


class AlteredRows(OfficeError):
    """An edition whose stored rows no longer give its published digest: no sheet is built from them (the upgrade
    that builds the sheets stops, and nothing is changed)."""


class MissingSheet(LookupError):
    """An edition without a stored sheet (a damaged office: every published edition has one)."""


# --------------------------------------------------------------------------------------------- writing


def columns_of(comp) -> tuple[dict[str, list], dict[str, list]]:
    """The sheet's columns of a computed period (``periods.PeriodComputation``): its entries in list order, its
    changes with their stored numbers and explanation texts (``comp.change_texts``, or written here), both as the
    computation's version of the canonical text writes them (a version names some methods its own way) — in bulk
    from the change columns (``formats.change_texts``)."""
    version = comp.canonical_version or CURRENT_VERSION  # (0: not written yet, the current version)
    rows = comp.entries
    entries = {"player": [r.player_pk for r in rows], "federation_id": [r.federation_id for r in rows],
               "name": [r.name for r in rows], "position": [r.position for r in rows], "rank": [r.rank for r in rows],
               "rating": [r.rating for r in rows], "exact": [r.exact for r in rows], "games": [r.games for r in rows],
               "status": [r.status for r in rows], "is_new": [r.is_new for r in rows], "k": [r.k for r in rows],
               "state": [r.state_text for r in rows]}
    cc = comp.change_cols
    texts = comp.change_texts if comp.change_texts and comp.canonical_version else explanation_texts(cc, version)
    event_pk = {e.code: e.pk for e in comp.events}
    changes = {"player": [comp.pk_of[p] for p in cc.player_id], "event": [event_pk[e] for e in cc.event_id],
               "event_code": list(cc.event_id), "federation_id": list(cc.player_id), "explanation": list(texts)}
    changes.update(stored_numbers(cc, version))
    return entries, changes


def write_sheet(edition, entries: dict[str, list], changes: dict[str, list]) -> S.Sheet:
    """Store an edition's sheet (inside the publishing use case's transaction). Its player and event keys are
    checked here, by one query each: no foreign key per row."""
    _check_keys("federation_player", set(entries["player"]) | set(changes["player"]))
    _check_keys("events_event", set(changes["event"]))
    sheet = S.sheet_of(entries, changes)
    EditionSheet.objects.create(edition=edition, format=sheet.format, entries=sheet.entries, changes=sheet.changes)
    return sheet


def _check_keys(table: str, keys: set[int]) -> None:
    if not keys:
        return
    q = connection.ops.quote_name
    found = 0
    values = sorted(keys)
    with connection.cursor() as cur:
        for i in range(0, len(values), 20000):
            part = values[i:i + 20000]
            cur.execute(f"SELECT COUNT(*) FROM {q(table)} WHERE {q('id')} IN ({', '.join(['%s'] * len(part))})", part)
            found += cur.fetchone()[0]
    if found != len(keys):
        raise ValueError(f"an edition's sheet names {len(keys) - found} rows of {table} that do not exist")


# --------------------------------------------------------------------------------------------- reading


def stored_sheet(edition_pk: int) -> S.Sheet:
    """The sheet as stored (its bytes), ``MissingSheet`` when there is none."""
    row = EditionSheet.objects.filter(pk=edition_pk).values_list("format", "entries", "changes").first()
    if row is None:
        raise MissingSheet(f"edition {edition_pk} has no sheet")
    return S.Sheet(row[0], bytes(row[1]), bytes(row[2]))


def _columns(edition, part: str, names: Sequence[str]) -> dict[str, list]:
    tag = (edition.pk, edition.digest, part)
    out, missing = {}, []
    with _lock:
        for name in names:
            got = _cache.get((*tag, name))
            if got is None:
                missing.append(name)
            else:
                _cache.move_to_end((*tag, name))
                out[name] = got
    if missing:
        decoded = _uncached(edition, part, missing)
        with _lock:
            for name, values in decoded.items():
                _cache[(*tag, name)] = values
            while len(_cache) > CACHE_COLUMNS:
                _cache.popitem(last=False)
        out.update(decoded)
    return {name: out[name] for name in names}


def entries(edition, *names: str) -> dict[str, list]:
    """Columns of the edition's entries, in list order (all columns if none is named)."""
    return _columns(edition, "entries", names or tuple(S.ENTRY_SCHEMA))


def changes(edition, *names: str) -> dict[str, list]:
    """Columns of the edition's changes, in the order of their canonical lines (all columns if none is named)."""
    return _columns(edition, "changes", names or tuple(S.CHANGE_SCHEMA))


def forget() -> None:
    """Drop every decoded column kept (memory only: a later read decodes again)."""
    with _lock:
        _cache.clear()


def states(edition) -> dict[str, str]:
    """Each entry's state as its stored JSON text, by federation ID (decoded, not kept: the long texts of a whole
    edition are read by the office's long work, not by pages)."""
    cols = _uncached(edition, "entries", ("federation_id", "state"))
    return dict(zip(cols["federation_id"], cols["state"]))


def read_once(edition, part: str, *names: str) -> dict[str, list]:
    """Columns of the edition's ``entries`` or ``changes`` decoded and not kept: the long texts (states,
    explanations) the office's long work reads once per edition (kept, 40 editions of them would hold hundreds of
    MiB at the 2,000,000-game scale)."""
    return _uncached(edition, part, names)


def _uncached(edition, part: str, names: Sequence[str]) -> dict[str, list]:
    sheet = stored_sheet(edition.pk)
    if sheet.format != S.FORMAT:
        raise S.SheetError(part, f"sheet format {sheet.format} is unknown to this program (known: {S.FORMAT})")
    if part == "entries":
        return S.decode(sheet.entries, S.ENTRY_SCHEMA, part, names)
    return S.decode(sheet.changes, S.CHANGE_SCHEMA, part, names)


def _player_index(edition) -> tuple[list[int], list[int]]:
    """The entries' player keys sorted, and each one's row (kept beside the columns)."""
    key = (edition.pk, edition.digest, "entries", "#by-player")
    with _lock:
        got = _cache.get(key)
    if got is None:
        players = entries(edition, "player")["player"]
        order = sorted(range(len(players)), key=players.__getitem__)
        got = [[players[i] for i in order], order]
        with _lock:
            _cache[key] = got
    return got[0], got[1]


def entry_of(edition, player_pk: int, *names: str) -> dict | None:
    """One player's entry (the columns named, all if none) found by binary search, or None."""
    keys, rows = _player_index(edition)
    i = bisect_left(keys, player_pk)
    if i == len(keys) or keys[i] != player_pk:
        return None
    cols = entries(edition, *names)
    return {name: values[rows[i]] for name, values in cols.items()}


@dataclass
class PublishedEntry:
    """A player's entry on an edition as its sheet holds it (what a player's page lists)."""

    edition: object
    player_id: int
    rating: int | None
    exact: str
    rank: int | None
    games: int
    k: int | None
    status: str


def player_entries(editions, player_pks: Sequence[int]) -> list[PublishedEntry]:
    """The entries of the players ``player_pks`` on each of ``editions``, each found in the edition's sheet by
    binary search over its players (no row table per player)."""
    out = []
    for ed in editions:
        for pk in player_pks:
            row = entry_of(ed, pk, "rating", "exact", "rank", "games", "k", "status")
            if row is not None:
                out.append(PublishedEntry(ed, pk, **row))
    return out


@dataclass
class SheetEntry:
    """An entry of an edition as its sheet holds it, with its player (what list rows and exports read); a list
    page adds the player's rating and rank on the edition it was computed from (``prev_rating``, ``prev_rank``)."""

    player: Player
    name: str
    position: int
    rank: int | None
    rating: int | None
    exact: str
    games: int
    status: str
    is_new: bool
    k: int | None
    prev_rating: int | None = None
    prev_rank: int | None = None

    @property
    def player_id(self) -> int:
        return self.player.pk


def with_players(edition, rows: Sequence[int]) -> list[SheetEntry]:
    """The entries at ``rows`` (indices in list order) with their players (and associations), read in bulk."""
    cols = entries(edition, "player", "name", "position", "rank", "rating", "exact", "games", "status", "is_new",
                   "k")
    players = Player.objects.select_related("association").in_bulk([cols["player"][i] for i in rows])
    return [SheetEntry(players[cols["player"][i]], cols["name"][i], cols["position"][i], cols["rank"][i],
                       cols["rating"][i], cols["exact"][i], cols["games"][i], cols["status"][i], cols["is_new"][i],
                       cols["k"][i]) for i in rows]


class SheetChange:
    """A rating change as an edition's sheet holds it, with its edition, player and event: the numbers as the
    pages have always shown them (before, after, We, ΔR with 4 places, W with 1), the explanation decoded when
    asked for."""

    __slots__ = ("edition", "player", "event", "before", "after", "games", "W", "We", "K", "delta", "method", "_text",
                 "_x", "published_as")

    def __init__(self, edition, player, event, numbers: Sequence, text: str):
        self.edition, self.player, self.event, self._text, self._x = edition, player, event, text, None
        before, after, self.games, w, we, self.K, delta, self.method = numbers
        self.before, self.after, self.We = _decimal(before), _decimal(after), _decimal(we)
        self.W = Decimal(w).quantize(Decimal("0.1"))
        self.delta = Decimal(delta)
        self.published_as = ""

    @property
    def explanation(self) -> dict:
        if self._x is None:
            self._x = json.loads(self._text)
        return self._x

    @property
    def edition_id(self) -> int:
        return self.edition.pk

    @property
    def player_id(self) -> int:
        return self.player.pk

    @property
    def event_id(self) -> int:
        return self.event.pk


def _decimal(text: str | None) -> Decimal | None:
    return None if text is None else Decimal(text)


def change_rows(editions, *, events: set[int] | None = None, players: set[int] | None = None
                ) -> list[tuple[object, int]]:
    """(edition, row) of each change of ``editions`` in the events ``events`` and of the players ``players``
    (None: any), found on the sheets' key columns (kept per process)."""
    out = []
    for ed in editions:
        cols = changes(ed, "player", "event")
        out += [(ed, i) for i, (p, e) in enumerate(zip(cols["player"], cols["event"]))
                if (players is None or p in players) and (events is None or e in events)]
    return out


def change_objects(found: Sequence[tuple[object, int]]) -> list[SheetChange]:
    """The changes at (edition, row), in that order, with their players and events read in bulk (and only those
    rows' numbers and texts decoded)."""
    by_edition: dict[int, tuple[object, list[int]]] = {}
    for ed, i in found:
        by_edition.setdefault(ed.pk, (ed, []))[1].append(i)
    values: dict[tuple[int, int], tuple] = {}
    for pk, (ed, rows) in by_edition.items():
        sheet = stored_sheet(pk)
        names = ("player", "event", *S.CHANGE_NUMBER_COLUMNS, "explanation")
        cols = S.decode_rows(sheet.changes, S.CHANGE_SCHEMA, "changes", names, rows)
        for j, i in enumerate(rows):
            values[(pk, i)] = tuple(cols[n][j] for n in names)
    players = Player.objects.select_related("association").in_bulk({v[0] for v in values.values()})
    events = Event.objects.select_related("rating_list").in_bulk({v[1] for v in values.values()})
    return [SheetChange(ed, players[v[0]], events[v[1]], v[2:10], v[10])
            for ed, i in found for v in [values[(ed.pk, i)]]]


def edition_change_rows(edition, *, event_code: str | None = None, federation_id: str | None = None
                        ) -> list[tuple[object, int]]:
    """(edition, row) of the edition's changes (of one event, of one player, or all) by event end date, event code
    and federation ID: the order the API and the open data list them in."""
    cols = changes(edition, "event", "event_code", "federation_id")
    ends = dict(Event.objects.filter(pk__in=set(cols["event"])).values_list("pk", "end_date"))
    rows = [i for i, (code, fid) in enumerate(zip(cols["event_code"], cols["federation_id"]))
            if (event_code is None or code == event_code) and (federation_id is None or fid == federation_id)]
    rows.sort(key=lambda i: (ends[cols["event"][i]], cols["event_code"][i], cols["federation_id"][i]))
    return [(edition, i) for i in rows]


class ChangeRows(Sequence):
    """Changes found on sheets (``(edition, row)`` in the order shown), counted and sliced like a query set: only
    the rows taken are made into ``SheetChange`` objects."""

    def __init__(self, found: list[tuple[object, int]]):
        self.found = found

    def __len__(self) -> int:
        return len(self.found)

    def count(self) -> int:
        return len(self.found)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return change_objects(self.found[i])
        return change_objects([self.found[i]])[0]

    def iterator(self, chunk_size: int = 5000):
        for i in range(0, len(self.found), chunk_size):
            yield from change_objects(self.found[i:i + chunk_size])


def newest_ratings(editions, player_pks: Sequence[int]) -> dict[int, int]:
    """Per player (pk): his rating on the first of ``editions`` (newest first) that gives him one."""
    out: dict[int, int] = {}
    todo = set(player_pks)
    for ed in editions:
        if not todo:
            break
        for pk in list(todo):
            row = entry_of(ed, pk, "rating")
            if row is not None and row["rating"] is not None:
                out[pk] = row["rating"]
                todo.discard(pk)
    return out


def on_edition(edition, player_pks, *, rated: bool = False, but_status: str | None = None) -> set[int]:
    """Which of ``player_pks`` have an entry on ``edition`` (``rated``: with a published rating; ``but_status``:
    not of that status)."""
    found = set()
    for pk in player_pks:
        row = entry_of(edition, pk, "rating", "status")
        if row is not None and (not rated or row["rating"] is not None) and row["status"] != but_status:
            found.add(pk)
    return found


def size(edition, *, rated: bool = False, status: str | None = None) -> int:
    """How many entries the edition has (``rated``: with a published rating; ``status``: of that status)."""
    cols = entries(edition, "rating", "status")
    return sum(1 for r, s in zip(cols["rating"], cols["status"])
               if (not rated or r is not None) and (status is None or s == status))


# --------------------------------------------------------------------------------------------- text


def text(edition) -> bytes:
    """The edition's canonical text written from its sheet in its own version (``SheetError`` if it cannot be
    read, ``MissingSheet`` if there is none)."""
    events = list(edition.events.values_list("code", flat=True))
    return S.text_from_columns(edition.canonical_version, _uncached(edition, "entries", tuple(S.ENTRY_SCHEMA)),
                               _uncached(edition, "changes", tuple(S.CHANGE_SCHEMA)), events)


def digest(edition) -> str:
    return hashlib.sha256(text(edition)).hexdigest()


def stored_lines(edition) -> tuple[dict[str, str], dict[tuple[str, str], str], list[str], list[str], dict[str, str],
                                   dict[str, str], dict[tuple[str, str], tuple]]:
    """An edition read back from its sheet in its version of the canonical text, for ``verify``: entry lines by
    player, change lines by (event, player), the events, the entry lines in order, each entry's state text and
    published name by player, and each change's stored numbers (``canonical_text.CHANGE_COLUMNS``) by (event,
    player). ``SheetError`` / ``MissingSheet`` when the sheet cannot be read. The stored bytes are decoded afresh
    (verify checks what is stored, not what this process kept)."""
    ent = _uncached(edition, "entries", tuple(S.ENTRY_SCHEMA))
    ch = _uncached(edition, "changes", tuple(S.CHANGE_SCHEMA))
    w = S.sheet_writer(edition.canonical_version)
    ordered = w.entry_lines(ent)
    fids = ent["federation_id"]
    keys = list(zip(ch["event_code"], ch["federation_id"]))
    line = writer(edition.canonical_version).change_line
    by_key = {(ev, fid): line(ev, fid, t) for ev, fid, t in zip(ch["event_code"], ch["federation_id"],
                                                                 ch["explanation"])}
    if len(by_key) != len(keys):
        raise S.SheetError("changes", "a player's change in an event is there twice")
    numbers = dict(zip(keys, zip(*(ch[c] for c in S.CHANGE_NUMBER_COLUMNS))))
    events = list(edition.events.values_list("code", flat=True))
    return (dict(zip(fids, ordered)), by_key, events, ordered, dict(zip(fids, ent["state"])),
            dict(zip(fids, ent["name"])), numbers)


# --------------------------------------------------------------------------------------------- from rows


def columns_from_rows(edition_pk: int, version: int, digest_: str, events: Sequence[str], label: str = ""
                      ) -> tuple[dict[str, list], dict[str, list]]:
    """An edition's columns read from its ``EditionEntry`` and ``RatingChange`` rows (the storage before sheets;
    read by migration 0007 alone, while the tables are there: 0008 drops them), the JSON texts as stored; written anew as canonical JSON when the stored texts do not give ``digest_`` (a
    database that keeps JSON decoded). ``AlteredRows`` when neither gives the digest: the rows were altered."""
    for rewrite in (False, True):
        ent, ch = rows_columns(edition_pk, rewrite=rewrite)
        if hashlib.sha256(S.text_from_columns(version, ent, ch, events)).hexdigest() == digest_:
            return ent, ch
    raise AlteredRows(problem(
        "edition {edition} ({label}): its stored entries and changes no longer give its published digest {digest} "
        "(altered after publication): no sheet is built from them and the upgrade stops, nothing changed; restore a "
        "backup from before the alteration", edition=edition_pk, label=label, digest=digest_[:12]))


def rows_columns(edition_pk: int, *, rewrite: bool) -> tuple[dict[str, list], dict[str, list]]:
    """An edition's ``EditionEntry`` and ``RatingChange`` rows as sheet columns, read raw; ``rewrite``: each JSON
    value written anew as canonical JSON (else its text as the database keeps it)."""
    q = connection.ops.quote_name
    with connection.cursor() as cur:
        cur.execute(
            f"SELECT e.{q('player_id')}, p.{q('federation_id')}, e.{q('name')}, e.{q('position')}, e.{q('rank')}, "
            f"e.{q('rating')}, e.{q('exact')}, e.{q('games')}, e.{q('status')}, e.{q('is_new')}, e.{q('k')}, "
            f"e.{q('state')} FROM {q('ratings_editionentry')} e JOIN {q('federation_player')} p ON p.{q('id')} = "
            f"e.{q('player_id')} WHERE e.{q('edition_id')} = %s ORDER BY e.{q('position')}", [edition_pk])
        erows = cur.fetchall()
        cur.execute(
            f"SELECT c.{q('player_id')}, c.{q('event_id')}, v.{q('code')}, p.{q('federation_id')}, c.{q('before')}, "
            f"c.{q('after')}, c.{q('games')}, c.{q('W')}, c.{q('We')}, c.{q('K')}, c.{q('delta')}, c.{q('method')}, "
            f"c.{q('explanation')} FROM {q('ratings_ratingchange')} c JOIN {q('federation_player')} p "
            f"ON p.{q('id')} = c.{q('player_id')} JOIN {q('events_event')} v ON v.{q('id')} = c.{q('event_id')} "
            f"WHERE c.{q('edition_id')} = %s", [edition_pk])
        crows = cur.fetchall()
    ent = {n: [r[i] for r in erows] for i, n in enumerate(S.ENTRY_SCHEMA)}
    ent["is_new"] = [bool(v) for v in ent["is_new"]]
    ent["state"] = [_json_text(v, rewrite) for v in ent["state"]]
    ch = {n: [r[i] for r in crows] for i, n in enumerate(S.CHANGE_SCHEMA)}
    for name in ("before", "after", "W", "We", "delta"):
        ch[name] = [None if v is None else _four(v) for v in ch[name]]
    ch["explanation"] = [_json_text(v, rewrite) for v in ch["explanation"]]
    return ent, ch


def _four(v) -> str:
    """A stored decimal column's value as the 4-place text ``change_row`` writes."""
    return str(Decimal(str(v)).quantize(Decimal("0.0001")))


def _json_text(value, rewrite: bool) -> str:
    if isinstance(value, bytes | memoryview):
        value = bytes(value).decode("utf-8")
    if isinstance(value, str) and not rewrite:
        return value
    return as_json(json.loads(value) if isinstance(value, str) else value)
