"""An edition's bundle written from what the office stored, without rating anything again.

A bundle's inputs are what the edition was rated from (``periods.published_inputs``: its events, games and
standings, its members' public facts, its rule settings, the states it started from); its outputs — the list
and the changes as ``qiyuan rate`` writes them, the states after it, the canonical text — are written from the
edition's stored sheet: the sheet holds every published entry (its state's text among them) and every change,
and a member the list does not show is one untouched since his start state, so his state after the edition is
the one he started from. ``qiyuan verify-edition`` recomputes those outputs from the inputs; the tests hold the
two byte for byte. Only an edition whose events fall in more than one list period (none the office publishes
today) has its outputs computed from its inputs, by the verifier's own code.

Publishing builds each new edition's bundle (``stage``) inside its transaction, written to a temporary name
that is renamed once the transaction has committed (``staging``): a publication killed before its commit leaves
no bundle (a temporary file at most, removed a day later), one killed between the commit and the rename leaves
an edition without a bundle, which the next publication of the list or ``qiyuan office bundles build`` builds.
A web request never builds one (the portal says it is being prepared).
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import tempfile
import threading
import time
from collections.abc import Iterable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import polars as pl
from django.conf import settings

from qiyuan.errors import Conflict, problem
from qiyuan.formats import edition_bundle as B
from qiyuan.formats.canonical_text import json_string
from qiyuan.formats.history_csv import GRADES
from qiyuan.formats.rating_lists_csv import NO_DELTA_METHODS, decimal_text
from qiyuan.formats.rules_toml import rules_toml
from qiyuan.kit.build import build
from qiyuan.kit.verify import recompute_outputs
from qiyuan.office import sheets
from qiyuan.office.canonical import extra_input_files, inputs_digest, stored_inputs
from qiyuan.office.ratings.models import Edition
from qiyuan.rating import results as R
from qiyuan.rating.calendar import next_publication_date
from qiyuan.rating.columnar import RESULT_CODES, GameColumns
from qiyuan.rating.exact import to_decimal
from qiyuan.rating.list_states import ListStates
from qiyuan.rating.order import list_order_key

#: a player's public facts; ``rating`` is his published rating at the edition's start (the reader asks a player
#: without one for his sex), his start state itself being in ``inputs/states.json``
PLAYER_HEADER = ("id", "name", "gender", "rating", "dan", "dan_granted_by", "registered_on")
EVENT_HEADER = ("id", "name", "start_date", "end_date", "format", "international", "days", "national")
GAME_HEADER = ("event_id", "round", "player1", "player2", "result", "board")
STANDING_HEADER = ("event_id", "player_id", "rank")
#: the prefix of a bundle being written (renamed to its own name once written whole)
BUILDING = ".building-"
#: a temporary file older than this (seconds) is of a write killed midway: removed
STALE_AFTER = 24 * 3600


def bundle_dir() -> Path:
    """``QIYUAN_BUNDLE_DIR`` when set, else the office's ``var/bundles``."""
    return Path(os.environ.get("QIYUAN_BUNDLE_DIR") or Path(settings.VAR_DIR) / "bundles")


def bundle_name(edition) -> str:
    """The bundle's file name: ``CGA-2024-07-01-1.zip`` (list code, list date, edition number)."""
    return f"{edition.rating_list.code}-{edition.list_date.isoformat()}-{edition.number}.zip"


def bundle_path(edition) -> Path:
    return bundle_dir() / bundle_name(edition)


# --------------------------------------------------------------------------------------------- files


def _csv(header: tuple[str, ...], rows) -> bytes:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return out.getvalue().encode("utf-8")


def _bit(flag: bool) -> str:
    return "1" if flag else "0"


def _text(x) -> str:
    return "" if x is None else str(x)


@dataclass
class Source:
    """What an edition was rated from (``periods.PeriodInputs`` or the publishing computation): its rule settings,
    events with their stored rows, games and standings (merged records followed), each member's (pk, published
    name, registration date) and frozen facts, every member's start state and the date it was rated from;
    ``kept``: what is kept between editions (``Kept``)."""

    rules: object
    events: list
    rows: object
    games: GameColumns
    standings: list
    members: dict
    facts: dict
    state: Mapping  # federation id → ``PlayerState``, or ``ListStates``
    start: date
    kept: Kept = field(default_factory=lambda: Kept())
    _columns: ListStates | None = field(default=None, repr=False)

    @property
    def columns(self) -> ListStates:
        """``state`` in columns (its objects' texts reused through ``kept.texts`` while the objects are the same)."""
        if self._columns is None:
            self._columns = ListStates.from_states(self.state, self.kept.texts)
        return self._columns


@dataclass
class Kept:
    """What consecutive editions' bundles reuse while the objects they are made of are the same ones (``is``,
    never ``==``: a text must be its own state's): each state's text (federation id → (state, its JSON, its
    text)), each player's row of players.csv and his place in the list's order."""

    texts: dict = field(default_factory=dict)
    players: dict = field(default_factory=dict)  # fid → (state, facts, member info, row)
    listed: dict = field(default_factory=dict)  # fid → (state, member info, (order key, rating, games, status))
    rules: object = None  # the rule settings ``listed``'s order keys are of (compared once per edition)


def source_of(gathered, kept: Kept | None = None) -> Source:
    """The ``Source`` of ``periods.PeriodInputs`` (``kept``: what earlier editions' bundles kept)."""
    g = gathered
    return Source(g.rules, g.events, g.rows, g.games, g.standings, g.cache.info, g.cache.facts, g.state, g.start,
                  kept or Kept(texts=g.cache.texts))


def input_files(edition, source: Source, parts: dict | None = None) -> dict[str, bytes]:
    """The bundle's ``inputs/…`` of an edition from what it was rated from; ``parts``: its stored inputs
    (``canonical.stored_inputs``) when read already, the files a later canonical version adds written from them."""
    players = []
    members, facts, cols, kept = source.members, source.facts, source.columns, source.kept.players
    texts = {}
    for fid in sorted(cols.ids):
        i = cols.index[fid]
        info, m, gender, rating = members[fid], facts.get(fid), cols.gender[i], cols.rating[i]
        got = kept.get(fid)
        if got is None or got[0] != (gender, rating) or got[1] is not m or got[2] is not info:
            _, name, registered_on = info
            dan = m.dan if m is not None and m.dan in GRADES else ""
            got = kept[fid] = ((gender, rating), m, info, (
                fid, name, gender or "", _text(rating), dan, (m.dan_granted_by or "") if dan else "",
                _text(registered_on)))
        players.append(got[3])
        texts[fid] = cols.text[i]
    return {
        "inputs/players.csv": _csv(PLAYER_HEADER, players),
        "inputs/events.csv": _csv(EVENT_HEADER, [
            (e.code, e.name, e.start_date.isoformat(), e.end_date.isoformat(), e.format, _bit(e.international),
             _text(e.days), _bit(e.national)) for e in source.events]),
        "inputs/games.csv": _csv(GAME_HEADER, _game_rows(source.games)),
        "inputs/standings.csv": _csv(STANDING_HEADER,
                                     [(s.event_id, s.player_id, s.rank) for s in source.standings]),
        "inputs/rules.toml": rules_toml(source.rules, edition.rating_list.rules_name).encode("utf-8"),
        "inputs/states.json": _states_text(source.start, texts),  # (``states_bytes`` of the states)
        # (canonical version 3: provenance.csv, audit_head.json)
        **extra_input_files(edition, set(sheets.entries(edition, "federation_id")["federation_id"]), parts),
    }


def _game_rows(games: GameColumns) -> Iterable[tuple]:
    """games.csv's rows (event, round, players, result, board), read from the columns the office hands the engine
    (``engine_games``) without a ``Game`` object each."""
    n = len(games)
    events, players = games.event_ids.__getitem__, games.player_ids.__getitem__
    results = [r.value for r in RESULT_CODES].__getitem__
    boards = [str(b) if b else "" for b in games.board.tolist()] if games.board is not None else [""] * n
    return zip(map(events, games.event.tolist()), games.round.tolist(), map(players, games.player1.tolist()),
               map(players, games.player2.tolist()), map(results, games.result.tolist()), boards)


def _states_text(on: date | None, texts: dict[str, str]) -> bytes:
    """``kit.states.states_bytes(on, states)`` from each state's canonical JSON text (the sheet's, as stored)."""
    body = ",".join(f"{json_string(fid)}:{texts[fid]}" for fid in sorted(texts))
    day = f'"{on.isoformat()}"' if on is not None else "null"
    return f'{{"date":{day},"states":{{{body}}}}}\n'.encode()


def _number(text: str | None) -> str | None:
    """A stored 4-place decimal as ``changes.csv`` writes it (``4.3500`` → ``4.35``)."""
    return None if text is None else decimal_text(Decimal(text))


def _ru(explanation: str) -> str | None:
    """A change's Ru as ``changes.csv`` writes it, from its explanation's exact text (decimal or fraction)."""
    at = explanation.rfind('"ru":')
    value = explanation[at + 5:].rstrip("}")
    if value == "null":
        return None
    value = value.strip('"')
    exact = to_decimal(Fraction(value)) if "/" in value else Decimal(value)
    return decimal_text(exact)


def output_files(edition, gathered: Source) -> dict[str, bytes]:
    """The bundle's ``outputs/…`` (the list, the changes, the states after the edition) written from its stored
    sheet and what it was rated from — the bytes ``qiyuan verify-edition`` recomputes from the inputs."""
    months = gathered.rules.publication_months
    on = edition.list_date
    if any(next_publication_date(months, e.end_date) != on for e in gathered.events):
        files = {**input_files(edition, gathered), B.CANONICAL: sheets.text(edition)}  # (several periods)
        return recompute_outputs(files, on, "fast")
    shown = sheets.read_once(edition, "entries", "federation_id", "rating", "games", "status", "is_new", "state")
    row_of = {fid: i for i, fid in enumerate(shown["federation_id"])}
    members = gathered.members
    rules = gathered.rules
    kept = gathered.kept.listed
    if gathered.kept.rules is not rules and gathered.kept.rules != rules:  # (order keys of other settings)
        kept.clear()
        gathered.kept.rules = rules
    ids, names, ratings, games, statuses, keys, texts = [], [], [], [], [], [], {}
    start = gathered.columns
    for j, fid in enumerate(start.ids):
        i = row_of.get(fid)
        info = members[fid]
        _, name, registered_on = info
        if i is None:  # not shown: untouched since his start state
            got = kept.get(fid)
            text = start.text[j]
            if got is None or got[0] != text or got[1] is not info:
                rating, status = start.rating[j], start.status[j]
                got = kept[fid] = (text, info, (
                    list_order_key(rules, status=status, rating=rating, name=name, player_id=fid,
                                   registered_on=registered_on), rating, start.listed[j], status))
            key, rating, played, status = got[2]
            texts[fid] = text
        else:
            rating, played, status, is_new = (shown["rating"][i], shown["games"][i], shown["status"][i],
                                              shown["is_new"][i])
            texts[fid] = shown["state"][i]
            key = list_order_key(rules, status=status, rating=rating, name=name, player_id=fid, is_new=is_new,
                                 registered_on=registered_on)
        keys.append(key)
        ids.append(fid)
        names.append(name)
        ratings.append(rating)
        games.append(played)
        statuses.append(status)
    order = sorted(range(len(ids)), key=keys.__getitem__)
    listed = pl.DataFrame({"player_id": [ids[i] for i in order], "name": [names[i] for i in order],
                           "rating": [ratings[i] for i in order], "games": [games[i] for i in order],
                           "status": [statuses[i] for i in order]},
                          schema={"player_id": pl.String, "name": pl.String, "rating": pl.Int64,
                                  "games": pl.Int64, "status": pl.String})
    return {"outputs/list.csv": listed.write_csv().encode("utf-8"),
            "outputs/changes.csv": _changes_csv(edition, gathered.events),
            "outputs/states.json": _states_text(on, texts)}


def _changes_csv(edition, events) -> bytes:
    """``changes.csv`` of the edition from its sheet: events by (end date, start date, code), players by ID."""
    ch = sheets.read_once(edition, "changes", "event_code", "federation_id", "games", "W", "We", "K", "delta",
                          "method", "explanation")
    when = {e.code: (e.end_date, e.start_date, e.code) for e in events}
    order = sorted(range(len(ch["event_code"])), key=lambda i: (when[ch["event_code"][i]], ch["federation_id"][i]))
    day = edition.list_date.isoformat()
    rows = {name: [] for name in ("player_id", "event_id", "games", "W", "We", "K", "delta", "list_date", "method",
                                  "Ru")}
    for i in order:
        method, played = ch["method"][i], ch["games"][i]
        # a newcomer's event that did not count (0 games; version 1 stored the engine's "newcomer") is not_rated
        uncounted = method in (R.METHOD_NEWCOMER, R.METHOD_NOT_RATED) and played == 0
        if uncounted:
            method = R.METHOD_NOT_RATED
        no_delta = method in NO_DELTA_METHODS
        rows["player_id"].append(ch["federation_id"][i])
        rows["event_id"].append(ch["event_code"][i])
        rows["games"].append(played)
        rows["W"].append(_number(ch["W"][i]))
        rows["We"].append(None if no_delta else _number(ch["We"][i]))
        rows["K"].append(None if no_delta else ch["K"][i])
        rows["delta"].append(None if no_delta else _number(ch["delta"][i]))
        rows["list_date"].append(day)
        rows["method"].append(method)
        rows["Ru"].append(None if uncounted else _ru(ch["explanation"][i]))
    frame = pl.DataFrame(rows, schema={"player_id": pl.String, "event_id": pl.String, "games": pl.Int64,
                                       "W": pl.String, "We": pl.String, "K": pl.Int64, "delta": pl.String,
                                       "list_date": pl.String, "method": pl.String, "Ru": pl.String})
    return frame.write_csv().encode("utf-8")


def check_stored(edition, gathered: Source) -> bytes:
    """The edition's canonical text from its sheet, refused (``Conflict``) when it no longer gives the published
    digest or the stored facts it was rated from no longer give its inputs digest (``verify`` names what)."""
    return _checked(edition, gathered)[0]


def _checked(edition, gathered: Source) -> tuple[bytes, dict | None]:
    """``check_stored``'s canonical text, and the stored inputs it hashed (None: an edition without an inputs
    digest)."""
    canonical = sheets.text(edition)
    altered = hashlib.sha256(canonical).hexdigest() != edition.digest
    parts = None
    if not altered and edition.inputs_digest:
        published = set(sheets.entries(edition, "federation_id")["federation_id"])
        parts = stored_inputs(edition.pk, rows=gathered.rows, published=published)
        altered = inputs_digest(parts) != edition.inputs_digest
    if altered:
        raise Conflict(problem("the bundle of {list} {edition} does not recompute to its published digest; run "
                               "qiyuan office verify", list=edition.rating_list.code, edition=edition.label))
    return canonical, parts


def bundle_of(edition, gathered: Source, *, key, signed_at=None, checked: bool = False,
              parts: dict | None = None) -> bytes:
    """The signed bundle of ``edition`` (not stored) from its sheet and ``gathered`` (what it was rated from);
    ``checked``: its stored facts were just hashed (publishing: ``parts``, the stored inputs it hashed), else they
    are checked here."""
    if checked:
        canonical = sheets.text(edition)
    else:
        canonical, parts = _checked(edition, gathered)
    files = input_files(edition, gathered, parts)
    files[B.CANONICAL] = canonical
    files.update(output_files(edition, gathered))
    previous = edition.previous.digest if edition.previous is not None else ""
    supersedes = ""
    if edition.number > 1:  # a correction names the edition it supersedes; nothing in the chain is replaced
        older = Edition.objects.filter(rating_list=edition.rating_list, list_date=edition.list_date,
                                       number=edition.number - 1).values_list("digest", flat=True).first()
        supersedes = older or ""
    place = Edition.objects.filter(rating_list=edition.rating_list, pk__lte=edition.pk).count()  # (chain order)
    return build(files, private_key=key, list_code=edition.rating_list.code,
                 list_date=edition.list_date.isoformat(), number=edition.number, edition_digest=edition.digest,
                 previous_digest=previous, supersedes=supersedes, rules_name=edition.rating_list.rules_name,
                 canonical_version=edition.canonical_version, signed_at=signed_at, chain_place=place)


# --------------------------------------------------------------------------------------------- storing


def store(path: Path, data: bytes) -> None:
    """Write atomically (another worker may build the same bundle: either copy is a valid signed bundle)."""
    _rename(_write_temp(path, data), path)


def _write_temp(path: Path, data: bytes) -> Path:
    """``data`` written whole under a temporary name beside ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=BUILDING, suffix=".zip")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def _rename(tmp: Path, path: Path) -> None:
    os.replace(tmp, path)


class _Staged(threading.local):
    def __init__(self):
        self.depth = 0
        self.files: dict[Path, Path] = {}  # bundle path → its temporary file
        self.kept: Kept | None = None  # what the publication's bundles reuse (``kept_for``)


_staged = _Staged()


@contextmanager
def staging():
    """Around a publishing use case's transaction (outside it): the bundles ``stage`` wrote are given their names
    once the transaction has committed, and removed if it rolled back. Nested (a use case calling another), the
    outermost names them."""
    _staged.depth += 1
    try:
        yield
    except BaseException:
        if _staged.depth == 1:
            for tmp in _staged.files.values():
                tmp.unlink(missing_ok=True)
            _staged.files.clear()
        raise
    else:
        if _staged.depth == 1:
            files, _staged.files = _staged.files, {}
            for path, tmp in files.items():
                _rename(tmp, path)
    finally:
        _staged.depth -= 1
        if _staged.depth == 0:
            _staged.kept = None


def kept_for(texts: dict) -> Kept:
    """What the bundles one publication stages reuse from one edition to the next (its members' rows, their
    places in the list), for the state texts ``texts`` its computations share; let go when ``staging`` ends."""
    kept = _staged.kept
    if kept is None or kept.texts is not texts:
        kept = _staged.kept = Kept(texts=texts)
    return kept


def staging_open() -> bool:
    """Whether a publishing use case has opened ``staging`` (another writer of editions — a seed list's import
    — leaves its bundle to the next publication or ``office bundles build``)."""
    return _staged.depth > 0


def stage(edition, data: bytes) -> None:
    """Write ``edition``'s bundle under a temporary name, named by ``staging`` once the transaction has committed
    (removed if it rolls back): a publication killed at any moment leaves its edition with its bundle, or without
    it (built by the next publication of the list or ``office bundles build``), or neither."""
    if _staged.depth == 0:
        raise RuntimeError("bundle_files.stage outside bundle_files.staging()")
    path = bundle_path(edition)
    old = _staged.files.pop(path, None)
    if old is not None:
        old.unlink(missing_ok=True)
    _staged.files[path] = _write_temp(path, data)


def missing(edition) -> bool:
    """Whether the edition has no bundle, none staged by the open publication either."""
    path = bundle_path(edition)
    return path not in _staged.files and not path.exists()


def _remove_stale(folder: Path) -> None:
    """Remove temporary files of writes killed midway (a day old: no publication takes that long)."""
    now = time.time()
    for p in folder.glob(f"{BUILDING}*"):
        try:
            if now - p.stat().st_mtime > STALE_AFTER:
                p.unlink()
        except OSError:
            continue
