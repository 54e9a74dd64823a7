"""The whole public record in files (全部公开数据下载): every list and edition, every edition's entries, every
rating change, every event with its entrants and games, every registered player's public record — with a
``SHA256SUMS`` manifest (``qiyuan.formats.manifest``).

Built on demand and kept until the next publication (``edition_version`` names the build), so publishing stays
fast: the first request after a publication builds it into a fresh directory beside the others and renames it into
place (two builds at once: the second rename finds the first's and drops its own). Each record is the API's own
(``serialize``): a data user can rebuild every API answer about an edition from the files (a test does).

CSV for the big tables (entries, changes, games), JSON for the nested records; codes as the API writes them
(docs/formats.md: files for programs). No ID number, no birth date: the API's public fields only.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import tempfile
from pathlib import Path

from django.conf import settings
from django.http import QueryDict
from django.utils import timezone, translation

from qiyuan.formats.manifest import MANIFEST, read_manifest, write_manifest
from qiyuan.office.events.models import Event, Game
from qiyuan.office.federation.models import Player
from qiyuan.office import sheets
from qiyuan.office.ratings.models import Edition, RatingList

from ..portal import queries
from ..portal.editions import edition_version
from . import records
from . import serialize as S

ENTRY_COLUMNS = ("list", "list_date", "edition", "position", "rank", "federation_id", "name_published", "rating",
                 "exact", "games", "k", "status", "is_new", "rating_change", "rank_change")
CHANGE_COLUMNS = ("list", "list_date", "edition", "event", "federation_id", "games", "W", "We", "K", "before",
                  "after", "delta", "method")
GAME_COLUMNS = ("event", "round", "player1", "player2", "result", "opener")
FILES = ("lists.json", "editions.json", "entries.csv", "changes.csv", "events.json", "games.csv", "players.json")


def dump_root() -> Path:
    return Path(settings.VAR_DIR) / "dump"


def dump_version() -> str:
    """Names the record as published now: the editions' version and when the newest was published (so a
    database rebuilt with as many editions never meets an older build)."""
    newest = Edition.objects.order_by("-id").values_list("published_at", flat=True).first()
    return f"{edition_version()}-{newest.strftime('%Y%m%dT%H%M%S%f') if newest else 0}"


def built_dump() -> tuple[str, Path] | None:
    """(version, directory) of the current dump when it is built already (a page shows it without building)."""
    version = dump_version()
    directory = dump_root() / version
    return (version, directory) if (directory / MANIFEST).is_file() else None


def current_dump() -> tuple[str, Path]:
    """(version, directory) of the dump of the record as published now, built first when needed."""
    version = dump_version()
    directory = dump_root() / version
    if not (directory / MANIFEST).is_file():
        build(directory)
    return version, directory


def manifest(directory: Path) -> dict[str, str]:
    return read_manifest((directory / MANIFEST).read_text(encoding="ascii"))


def build(directory: Path) -> None:
    """Write every file and the manifest into ``directory`` (atomically: a temporary directory renamed)."""
    directory.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".dump.", dir=directory.parent))
    try:
        with translation.override("en"):  # the API's language, whichever page asked first
            _write(tmp)
        write_manifest(tmp, FILES)
        try:
            os.rename(tmp, directory)
        except OSError:  # built meanwhile by another request: keep that one
            if not (directory / MANIFEST).is_file():
                raise
        for old in directory.parent.iterdir():  # earlier publications' dumps are no longer served
            if old.is_dir() and old.name != directory.name and not old.name.startswith("."):
                shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _json(path: Path, data) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def _csv(path: Path, columns, rows) -> None:
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(columns)
        w.writerows(["" if v is None else v for v in row] for row in rows)


def _write(d: Path) -> None:
    lists = list(RatingList.objects.order_by("code"))
    editions = list(Edition.objects.select_related("rating_list", "previous").order_by(
        "rating_list__code", "list_date", "number"))
    _json(d / "lists.json", {"built_at": timezone.now().isoformat(), "results": [
        records.rating_list_detail(rl) for rl in lists]})
    _json(d / "editions.json", {"results": [records.edition_record(ed) for ed in editions]})
    no_filters = QueryDict("")

    def entry_rows():
        for ed in editions:
            filters = queries.read_filters(no_filters, ed)
            for e in queries.entries(ed, filters).iterator(chunk_size=5000):
                x = records.entry(e)
                yield (ed.rating_list.code, ed.list_date.isoformat(), ed.number, x["position"], x["rank"],
                       x["player"]["federation_id"], x["name_published"], x["rating"], x["exact"], x["games"],
                       x["k"], x["status"], int(x["is_new"]), x["rating_change"], x["rank_change"])

    _csv(d / "entries.csv", ENTRY_COLUMNS, entry_rows())
    every = Edition.objects.select_related("rating_list").order_by("rating_list__code", "list_date", "number")
    changes = sheets.ChangeRows([row for ed in every for row in sheets.edition_change_rows(ed)])
    _csv(d / "changes.csv", CHANGE_COLUMNS, (
        (c.edition.rating_list.code, c.edition.list_date.isoformat(), c.edition.number, c.event.code,
         c.player.federation_id, c.games, S.dec(c.W), S.dec(c.We), c.K, S.dec(c.before), S.dec(c.after),
         S.dec(c.delta), c.method) for c in changes.iterator(chunk_size=5000)))
    events = list(Event.objects.select_related("rating_list").order_by("end_date", "code"))
    _json(d / "events.json", {"results": [records.event_record(e, with_games=False, with_changes=False)
                                          for e in events]})
    fids = dict(Player.objects.values_list("pk", "federation_id"))
    code_of = {e.pk: e.code for e in events}
    _csv(d / "games.csv", GAME_COLUMNS, (
        (code_of[ev], rnd, fids[p1], fids[p2], result, {1: fids[p1], 2: fids[p2]}.get(opener))
        for ev, rnd, p1, p2, result, opener in Game.objects.order_by("event__end_date", "event__code", "round", "id")
        .values_list("event_id", "round", "player1_id", "player2_id", "result", "opener").iterator(chunk_size=5000)))
    players = Player.objects.select_related("association", "merged_into").order_by("federation_id")
    _json(d / "players.json", {"results": [
        {**S.player(p), "merged_into": p.merged_into.federation_id if p.merged_into_id else None}
        for p in players.iterator(chunk_size=5000)]})
