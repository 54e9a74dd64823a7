"""What makes two imports the same: the file's content, and the event's content — never a file name.

``file_digest`` is the SHA-256 of the bytes (a history directory: of its
CSV files, each under its role's name, so the directory's own name does not
count). ``event_key`` is the identity of the event a report, TRF or OpenGotha
file holds: its dates, its players (name and ID number) and every game with
its round and result — the same event re-saved by Excel, renamed, or typed
into another format gets the same key. The database holds both as unique
values, so of two imports at the same moment exactly one is stored.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from qiyuan.office.imports.model import ParsedEvent
from qiyuan.people.idnumber import normalize_id_number

#: the files of a history directory, in the order their bytes enter its digest
HISTORY_FILES = ("players.csv", "events.csv", "games.csv", "standings.csv")


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, or of a history directory's CSV files (by role)."""
    h = hashlib.sha256()
    if path.is_dir():
        for name in HISTORY_FILES:
            f = path / name
            if f.is_file():
                h.update(name.encode() + b"\0")
                _feed(h, f)
                h.update(b"\0")
    else:
        _feed(h, path)
    return h.hexdigest()


def _feed(h, f: Path) -> None:
    with open(f, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)


#: a result seen from the other player's side
_FLIPPED = {"1-0": "0-1", "0-1": "1-0", "0.5-0.5": "0.5-0.5", "+-": "-+", "-+": "+-", "--": "--"}


def event_key(ev: ParsedEvent) -> str:
    """The event's content identity (SHA-256): dates, players, games — independent of the draw numbers."""
    who = {e.number: (e.name.strip(), normalize_id_number(e.id_number)) for e in ev.entrants}
    games = []
    for rnd, a, b, res, _opener in ev.games:
        first, second, result = who.get(a, ("?", "")), who.get(b, ("?", "")), res.value
        if second < first:  # each game once, from the side that sorts first
            first, second, result = second, first, _FLIPPED[result]
        games.append([rnd, list(first), list(second), result])
    content = {"start": str(ev.start_date), "end": str(ev.end_date), "players": sorted(map(list, who.values())),
               "games": sorted(games)}
    return hashlib.sha256(json.dumps(content, ensure_ascii=False, sort_keys=True).encode()).hexdigest()
