"""Editions as sheets: the one place the office writes and reads an edition's entries and changes.

An edition's entries and changes are stored as one ``EditionSheet`` row (two Arrow IPC column blobs, the format
``qiyuan.formats.edition_sheet``), written by the publishing use case under the list's lock. Everything that
reads an edition's data — the portal, the desk, the API, exports, merges, the what-if, bundles, verify — reads
it here. Editions never change, so the decoded columns are kept per process (``CACHE_BYTES`` of them, the
least recently used dropped first) and never go stale: they are kept by edition and digest, so even an office
restored over another (its editions' keys given again) reads its own. Only the columns a reader asks for are
decoded, and only their bytes are fetched (``formats.ipc_columns``: SQLite's incremental blob reads, PostgreSQL's
``substring``); the columns of several editions are decoded in one pass; a player's entries are found by binary
search over each edition's sorted player keys. The pages' readers keep the columns as Arrow values and make Python
values only of the rows they show; ``verify`` and the texts decode the whole stored blob afresh. Readers pass the
edition (its ``pk`` and ``digest``).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from decimal import Decimal

import numpy as np
import polars as pl
from django.db import connection

from qiyuan.formats import edition_sheet as S
from qiyuan.formats import ipc_columns
from qiyuan.formats.canonical_text import CURRENT_VERSION, as_json, writer
from qiyuan.formats.change_texts import explanation_texts, stored_numbers
from qiyuan.office.errors import OfficeError, problem
from qiyuan.office.events.models import Event
from qiyuan.office.federation.models import Player
from qiyuan.office.ratings.models import EditionSheet

#: how many bytes of decoded columns the process keeps (their Arrow values, and their lists once made; the least
#: recently used dropped first): a player's page reads a few columns of every current edition of every list
CACHE_BYTES = 256 * 2**20
#: what a column's list is reckoned to take per row beside its Arrow values (a pointer and, mostly, an object)
LIST_ROW_BYTES = 40

_cache: OrderedDict[tuple[int, str, str, str], _Column | _Index] = OrderedDict()
_kept_bytes = 0
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


SCHEMAS = {"entries": S.ENTRY_SCHEMA, "changes": S.CHANGE_SCHEMA}


def _blob_readers(edition_pks: Sequence[int], part: str) -> list[tuple[int, object, object]]:
    """(size, read(offset, length), close) of one of each edition's stored blobs, read piecewise: SQLite's
    incremental blob reads, elsewhere ``substring`` (PostgreSQL keeps sheets uncompressed, ``STORAGE EXTERNAL``,
    so a slice is read without the rest). ``MissingSheet`` when one has none; their format checked."""
    table, q = EditionSheet._meta.db_table, connection.ops.quote_name
    sqlite = connection.vendor == "sqlite"
    found = {}
    with connection.cursor() as cur:  # (SQLite: the row's rowid, which its blob is opened by)
        for i in range(0, len(edition_pks), 500):
            chunk = list(edition_pks[i:i + 500])
            cur.execute(f"SELECT {q('edition_id')}, {q('format')}, LENGTH({q(part)}){', rowid' if sqlite else ''} "
                        f"FROM {q(table)} WHERE {q('edition_id')} IN ({', '.join(['%s'] * len(chunk))})", chunk)
            found.update((row[0], row[1:]) for row in cur.fetchall())
    out = []
    try:
        for pk in edition_pks:
            if pk not in found:
                raise MissingSheet(f"edition {pk} has no sheet")
            if found[pk][0] != S.FORMAT:
                raise S.SheetError(part, f"sheet format {found[pk][0]} is unknown to this program (known: {S.FORMAT})")
            out.append(_blob_sqlite(table, part, found[pk]) if sqlite else _blob_sql(table, part, pk, found[pk][1]))
    except BaseException:
        for _size, _read, close in out:
            close()
        raise
    return out


def _blob_sqlite(table: str, part: str, row) -> tuple[int, object, object]:
    blob = connection.connection.blobopen(table, part, row[2], readonly=True)

    def read(offset: int, length: int) -> bytes:
        blob.seek(offset)
        return blob.read(length)
    return row[1], read, blob.close


def _blob_sql(table: str, part: str, edition_pk: int, size: int) -> tuple[int, object, object]:
    q = connection.ops.quote_name

    def read(offset: int, length: int) -> bytes:
        with connection.cursor() as cur:
            cur.execute(f"SELECT SUBSTRING({q(part)} FROM %s FOR %s) FROM {q(table)} WHERE {q('edition_id')} = %s",
                        [offset + 1, length, edition_pk])
            return bytes(cur.fetchone()[0])
    return size, read, lambda: None


def _read(edition, part: str, names: Sequence[str]) -> pl.DataFrame:
    """The columns ``names`` of the edition's ``part``, fetching only the bytes they are decoded from
    (``ipc_columns``)."""
    return _read_many([edition], part, names)[0]


def _read_many(editions: Sequence, part: str, names: Sequence[str]) -> list[pl.DataFrame]:
    """``_read`` of several editions, decoded together (``ipc_columns.decode_many``)."""
    readers = _blob_readers([ed.pk for ed in editions], part)
    try:
        if len(readers) == 1:
            size, read, _close = readers[0]
            return [ipc_columns.decode_columns(read, size, SCHEMAS[part], part, list(names))]
        return ipc_columns.decode_many([(read, size) for size, read, _close in readers], SCHEMAS[part], part,
                                       list(names))
    finally:
        for _size, _read, close in readers:
            close()


class _Column:
    """A decoded column kept: its Arrow values (``series``) and, once asked for, as a list."""

    __slots__ = ("series", "_list", "_array", "size")

    def __init__(self, series: pl.Series):
        self.series, self._list, self._array, self.size = series, None, None, series.estimated_size()

    def array(self) -> np.ndarray:
        """An integer column without nulls as a NumPy array over the same memory (its keys are searched so: one
        call for a whole column, not one of the frame library's each)."""
        if self._array is None:
            self._array = self.series.to_numpy()
        return self._array

    def values(self) -> list:
        if self._list is None:
            self._list = self.series.to_list()
            _grown(self, len(self._list) * LIST_ROW_BYTES)
        return self._list


class _Index:
    """An edition's player keys sorted (``keys``) and each one's row (``rows``), kept beside its columns."""

    __slots__ = ("keys", "rows", "size")

    def __init__(self, players: np.ndarray):
        self.rows = np.argsort(players, kind="stable")
        self.keys = players[self.rows]
        self.size = self.keys.nbytes + self.rows.nbytes


def _keep(key: tuple, value: _Column | _Index) -> None:
    global _kept_bytes
    with _lock:
        old = _cache.pop(key, None)
        _kept_bytes += value.size - (old.size if old is not None else 0)
        _cache[key] = value
        while _kept_bytes > CACHE_BYTES and len(_cache) > 1:
            _k, dropped = _cache.popitem(last=False)
            _kept_bytes -= dropped.size


def _grown(column: _Column, more: int) -> None:
    global _kept_bytes
    with _lock:
        column.size += more
        if any(v is column for v in _cache.values()):
            _kept_bytes += more


def _kept(edition, part: str, names: Sequence[str]) -> dict[str, _Column]:
    tag = (edition.pk, edition.digest, part)
    out, missing = {}, []
    with _lock:
        for name in dict.fromkeys(names):
            got = _cache.get((*tag, name))
            if got is None:
                missing.append(name)
            else:
                _cache.move_to_end((*tag, name))
                out[name] = got
    if missing:
        frame = _read(edition, part, missing)
        for name in missing:
            out[name] = _Column(frame[name])
            _keep((*tag, name), out[name])
    return {name: out[name] for name in names}


def _kept_many(editions: Sequence, part: str, names: Sequence[str]) -> None:
    """Decode and keep the columns ``names`` of each of ``editions``: those not kept yet read together."""
    names = list(dict.fromkeys(names))
    todo, wanted = [], set()
    with _lock:
        for ed in editions:
            missing = {name for name in names if (ed.pk, ed.digest, part, name) not in _cache}
            if missing and all(ed.pk != other.pk for other in todo):
                todo.append(ed)
                wanted |= missing
    if not todo:
        return
    read = [name for name in names if name in wanted]
    for ed, frame in zip(todo, _read_many(todo, part, read)):
        for name in read:
            _keep((ed.pk, ed.digest, part, name), _Column(frame[name]))


def _all_kept(edition, part: str, names: Sequence[str]) -> dict[str, _Column] | None:
    """The columns ``names`` of the edition if every one of them is kept (None otherwise: nothing read)."""
    tag = (edition.pk, edition.digest, part)
    with _lock:
        got = {name: _cache.get((*tag, name)) for name in names}
        if any(column is None for column in got.values()):
            return None
        for name in names:
            _cache.move_to_end((*tag, name))
    return got


def _columns(edition, part: str, names: Sequence[str]) -> dict[str, list]:
    return {name: column.values() for name, column in _kept(edition, part, names).items()}


def _series(edition, part: str, names: Sequence[str]) -> dict[str, pl.Series]:
    """Kept columns as Arrow series (no Python value made for each row)."""
    return {name: column.series for name, column in _kept(edition, part, names).items()}


def entries(edition, *names: str) -> dict[str, list]:
    """Columns of the edition's entries, in list order (all columns if none is named)."""
    return _columns(edition, "entries", names or tuple(S.ENTRY_SCHEMA))


def changes(edition, *names: str) -> dict[str, list]:
    """Columns of the edition's changes, in the order of their canonical lines (all columns if none is named)."""
    return _columns(edition, "changes", names or tuple(S.CHANGE_SCHEMA))


def entries_at(edition, rows: Sequence[int], *names: str) -> dict[str, list]:
    """The columns ``names`` of the entries at ``rows`` only (kept columns, no list of the whole column made)."""
    return {name: s.gather(rows).to_list() if rows else [] for name, s in _series(edition, "entries", names).items()}


def change_values(found: Sequence[tuple[object, int]], name: str) -> list:
    """The column ``name`` of the changes at (edition, row), in that order (kept columns)."""
    out: list = [None] * len(found)
    by_edition: dict[int, tuple[object, list[int]]] = {}
    for k, (ed, _i) in enumerate(found):
        by_edition.setdefault(ed.pk, (ed, []))[1].append(k)
    for ed, ks in by_edition.values():
        column = _kept(ed, "changes", (name,))[name]
        rows = [found[k][1] for k in ks]
        if name in KEY_COLUMNS:
            values = column.array()[rows].tolist()
        else:
            values = column.series.gather(rows).to_list()
        for k, v in zip(ks, values):
            out[k] = v
    return out


#: the key columns of a sheet (integers, never null: searched as arrays)
KEY_COLUMNS = frozenset({"player", "event"})


def keep(editions: Sequence, part: str, names: Sequence[str], *, index: bool = False) -> None:
    """Decode the columns ``names`` of each edition's ``part`` now and keep them (``index``: and its players' sorted
    keys), for the pages that will read them: what a server loads before its first visitor."""
    _kept_many(editions, part, names)
    if index:
        for ed in editions:
            _player_index(ed)


def forget() -> None:
    """Drop every decoded column kept (memory only: a later read decodes again)."""
    global _kept_bytes
    with _lock:
        _cache.clear()
        _kept_bytes = 0


def decoded_columns() -> set[tuple[int, str, str]]:
    """(edition, part, column) of every column this process keeps decoded."""
    with _lock:
        return {(pk, part, name) for pk, _d, part, name in _cache if not name.startswith("#")}


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
    """Columns decoded afresh from the whole stored blob (what verify and the texts read: every byte checked)."""
    sheet = stored_sheet(edition.pk)
    if sheet.format != S.FORMAT:
        raise S.SheetError(part, f"sheet format {sheet.format} is unknown to this program (known: {S.FORMAT})")
    if part == "entries":
        return S.decode(sheet.entries, S.ENTRY_SCHEMA, part, names)
    return S.decode(sheet.changes, S.CHANGE_SCHEMA, part, names)


def _player_index(edition) -> _Index:
    """The entries' player keys sorted, and each one's row (kept beside the columns)."""
    key = (edition.pk, edition.digest, "entries", "#by-player")
    with _lock:
        got = _cache.get(key)
        if got is not None:
            _cache.move_to_end(key)
    if got is None:
        got = _Index(_kept(edition, "entries", ("player",))["player"].array())
        _keep(key, got)
    return got


def row_of(edition, player_pk: int, *, index: bool = False) -> int | None:
    """The player's row on the edition, or None: by binary search over its sorted player keys when they are kept
    (or ``index``: sorted now, for many searches), else by one pass over its player keys (sorting them for one
    search would cost more than the pass)."""
    key = (edition.pk, edition.digest, "entries", "#by-player")
    with _lock:
        kept = _cache.get(key)
        if kept is not None:
            _cache.move_to_end(key)
    if kept is None and not index:
        found = np.flatnonzero(_kept(edition, "entries", ("player",))["player"].array() == player_pk)
        return int(found[0]) if len(found) else None
    kept = kept or _player_index(edition)
    i = int(np.searchsorted(kept.keys, player_pk))
    if i == len(kept.keys) or kept.keys[i] != player_pk:
        return None
    return int(kept.rows[i])


def entry_of(edition, player_pk: int, *names: str, index: bool = False) -> dict | None:
    """One player's entry (the columns named, all if none) found by ``row_of``, or None."""
    row = row_of(edition, player_pk, index=index)
    if row is None:
        return None
    cols = _series(edition, "entries", names or tuple(S.ENTRY_SCHEMA))
    return {name: values[row] for name, values in cols.items()}


#: how many players are looked for on an edition by a pass over its keys each before its keys are sorted once
SCANS = 16


def entries_of(edition, player_pks: Sequence[int], *names: str) -> dict[int, dict]:
    """The entries (the columns named) of those of ``player_pks`` on the edition, by player, each found by binary
    search."""
    out = {}
    if player_pks:
        _kept(edition, "entries", ("player", *names))  # (one read of the sheet for the keys and the values)
    many = len(player_pks) > SCANS
    for pk in player_pks:
        row = entry_of(edition, pk, *names, index=many)
        if row is not None:
            out[pk] = row
    return out


def entry_rows(edition, *, statuses: Collection[str] | None = None, players: Collection[int] | None = None
               ) -> list[int]:
    """The rows (in list order) of the entries of those statuses and players (None: any), chosen on the kept
    columns without a Python value for each entry."""
    # (the columns of the rows shown read with them: one read of the sheet for a list page)
    cols = _series(edition, "entries", ("player", "status", *ROW_COLUMNS))
    if statuses is None and players is None:
        return list(range(len(cols["player"])))
    mask = pl.repeat(True, len(cols["player"]), eager=True)
    if statuses is not None:
        mask &= cols["status"].is_in(list(statuses))
    if players is not None:
        mask &= cols["player"].is_in(list(players))
    return mask.arg_true().to_list()


#: the entry columns of a ``PublishedEntry`` (a player page's row of an edition)
PUBLISHED_COLUMNS = ("rating", "exact", "rank", "games", "k", "status")


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
    names = PUBLISHED_COLUMNS
    editions = list(editions)
    _kept_many(editions, "entries", ("player", *names))  # (one read of the sheets for the keys and the values)
    many = len(player_pks) > SCANS
    for ed in editions:
        for pk in player_pks:
            row = entry_of(ed, pk, *names, index=many)
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


#: the entry columns of a list row (``SheetEntry`` but its player)
ROW_COLUMNS = ("name", "position", "rank", "rating", "exact", "games", "status", "is_new", "k")


def with_players(edition, rows: Sequence[int]) -> list[SheetEntry]:
    """The entries at ``rows`` (indices in list order) with their players (and associations), read in bulk."""
    cols = entries_at(edition, rows, "player", *ROW_COLUMNS)
    players = Player.objects.select_related("association").in_bulk(cols["player"])
    return [SheetEntry(players[pk], *values) for pk, *values in zip(
        cols["player"], cols["name"], cols["position"], cols["rank"], cols["rating"], cols["exact"], cols["games"],
        cols["status"], cols["is_new"], cols["k"])]


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
    editions = list(editions)
    _kept_many(editions, "changes", ("player", "event"))
    wanted_players = None if players is None else np.fromiter(players, dtype=np.int64)
    wanted_events = None if events is None else np.fromiter(events, dtype=np.int64)
    for ed in editions:
        cols = _kept(ed, "changes", ("player", "event"))
        mask = np.ones(len(cols["player"].series), dtype=bool)
        if wanted_players is not None:
            mask &= np.isin(cols["player"].array(), wanted_players)
        if wanted_events is not None:
            mask &= np.isin(cols["event"].array(), wanted_events)
        out += [(ed, i) for i in np.flatnonzero(mask).tolist()]
    return out


def change_objects(found: Sequence[tuple[object, int]]) -> list[SheetChange]:
    """The changes at (edition, row), in that order, with their players and events read in bulk (and only those
    rows' numbers and texts decoded)."""
    by_edition: dict[int, tuple[object, list[int]]] = {}
    for ed, i in found:
        by_edition.setdefault(ed.pk, (ed, []))[1].append(i)
    values: dict[tuple[int, int], tuple] = {}
    names = ("player", "event", *S.CHANGE_NUMBER_COLUMNS, "explanation")
    kept = {pk: _all_kept(ed, "changes", names) for pk, (ed, _rows) in by_edition.items()}
    unkept = [pk for pk, columns in kept.items() if columns is None]
    # (explanations are long: read, not kept, unless a server's start kept those of the newest editions)
    frames = dict(zip(unkept, _read_many([by_edition[pk][0] for pk in unkept], "changes", names))) if unkept else {}
    for pk, (ed, rows) in by_edition.items():
        if pk in frames:
            taken = frames[pk][rows]
            cols = {name: taken[name].to_list() for name in names}
        else:
            cols = {name: column.series.gather(rows).to_list() for name, column in kept[pk].items()}
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
        many = len(todo) > SCANS
        for pk in list(todo):
            row = entry_of(ed, pk, "rating", index=many)
            if row is not None and row["rating"] is not None:
                out[pk] = row["rating"]
                todo.discard(pk)
    return out


def on_edition(edition, player_pks, *, rated: bool = False, but_status: str | None = None) -> set[int]:
    """Which of ``player_pks`` have an entry on ``edition`` (``rated``: with a published rating; ``but_status``:
    not of that status)."""
    found = set()
    player_pks = list(player_pks)
    many = len(player_pks) > SCANS
    for pk in player_pks:
        row = entry_of(edition, pk, "rating", "status", index=many)
        if row is not None and (not rated or row["rating"] is not None) and row["status"] != but_status:
            found.add(pk)
    return found


def size(edition, *, rated: bool = False, status: str | None = None) -> int:
    """How many entries the edition has (``rated``: with a published rating; ``status``: of that status)."""
    cols = _series(edition, "entries", ("rating", "status"))
    mask = pl.repeat(True, len(cols["rating"]), eager=True)
    if rated:
        mask &= cols["rating"].is_not_null()
    if status is not None:
        mask &= cols["status"] == status
    return int(mask.sum())


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
