"""What makes two imports the same: the file's content, and the event's content — never a file name.

``file_digest`` is the SHA-256 of the bytes (a history directory: of its
CSV files, each under its role's name, so the directory's own name does not
count). ``event_key`` is the identity of the event a report, TRF or OpenGotha
file holds: its dates, its players (name and ID number) and every game with
its round and result — the same event re-saved by Excel, renamed, or typed
into another format gets the same key. The database holds both as unique
values, so of two imports at the same moment exactly one is stored.
``probable_duplicates`` finds a copy under another name: a stored event most of
whose games (≥ 80 %) the new one repeats between the same registry players.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from django.db.models import Count

from qiyuan.office.events.models import Event, Game
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
_FLIPPED = {"1-0": "0-1", "0-1": "1-0", "0.5-0.5": "0.5-0.5", "+-": "-+", "-+": "+-", "--": "--",
            "++": "++", "0-0": "0-0"}


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


#: the share of a stored event's games that makes a new event its probable duplicate (issue 18's "mostly")
DUPLICATE_SHARE = Fraction(4, 5)


@dataclass(frozen=True, slots=True)
class ProbableDuplicate:
    """A stored event whose games mostly coincide with the new event's: ``same`` of its ``games``."""

    code: str
    name: str
    start_date: object
    same: int
    games: int

    @property
    def percent(self) -> int:
        return self.same * 100 // self.games


def _pair(a: int, b: int, result: str) -> tuple[int, int, str]:
    """A game as (lower player, higher player, result from the lower's side): either order is the same game."""
    return (a, b, result) if a < b else (b, a, _FLIPPED[result])


def probable_duplicates(games: list[tuple[int, int, str]]) -> list[ProbableDuplicate]:
    """The stored events at least ``DUPLICATE_SHARE`` of whose games are among ``games`` (registry player pks
    and results): the same two registry players with the same result, in either order, whatever the event's
    name, code, dates or file. Most coinciding first."""
    mine = Counter(_pair(a, b, r) for a, b, r in games)
    pks = {p for a, b, _ in mine for p in (a, b)}
    if not pks:
        return []
    per_event: dict[int, Counter] = {}
    for ev, a, b, r in Game.objects.filter(player1_id__in=pks, player2_id__in=pks).values_list(
            "event_id", "player1_id", "player2_id", "result").iterator():
        per_event.setdefault(ev, Counter())[_pair(a, b, r)] += 1
    if not per_event:
        return []
    totals = dict(Game.objects.filter(event_id__in=per_event).values("event_id").annotate(n=Count("id"))
                  .values_list("event_id", "n"))
    found = []
    for ev, theirs in per_event.items():
        same = sum((theirs & mine).values())
        if totals.get(ev) and Fraction(same, totals[ev]) >= DUPLICATE_SHARE:
            found.append((ev, same, totals[ev]))
    events = {e.pk: e for e in Event.objects.filter(pk__in=[f[0] for f in found])}
    return sorted((ProbableDuplicate(events[ev].code, events[ev].name, events[ev].start_date, same, total)
                   for ev, same, total in found), key=lambda d: (-d.same * 1000 // d.games, d.code))
