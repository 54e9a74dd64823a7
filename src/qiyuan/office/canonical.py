"""The canonical text of a published edition: what its digest covers and ``verify`` compares.

An edition is its entries in list order, its rating changes by (event,
player) and the events it rated. Each entry and each change has one line of
canonical JSON (decimals and fractions as exact text, keys sorted); the
edition's digest is the SHA-256 over those lines. The lines are written
directly rather than through ``json.dumps`` (hundreds of thousands of them in
a large office; property-tested against ``as_json``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from decimal import Decimal

from qiyuan.office.bulk import as_json, json_string
from qiyuan.office.ratings.models import EditionEntry, RatingChange
from qiyuan.rating import results as R


@dataclass
class EntryRow:
    """One stored entry of an edition (before it is saved)."""

    player_pk: int
    federation_id: str
    position: int
    rank: int | None
    rating: int | None
    exact: str
    games: int
    status: str
    is_new: bool
    k: int | None
    state: dict

    name: str = ""
    _text: str | None = field(default=None, repr=False, compare=False)

    def line(self) -> str:
        """The entry's canonical line (what the digest covers): ``entry_line`` of its values, written directly
        (property-tested against it)."""
        return (f"[{json_string(self.federation_id)},{json_string(self.name)},{_i(self.position)},{_i(self.rank)},"
                f"{_i(self.rating)},{json_string(self.exact)},{_i(self.games)},{json_string(self.status)},"
                f"{'true' if self.is_new is True else 'false'},{_i(self.k)}]\t{self.state_text}\n")

    @property
    def state_text(self) -> str:
        if self._text is None:
            self._text = as_json(self.state)
        return self._text



def _dec(x) -> str | None:
    return None if x is None else str(x)


def change_json(c: R.EventChange) -> dict:
    """An ``EventChange`` exactly, as JSON (decimals as text): what is stored and verified."""
    return {
        "games": c.games, "W": _dec(c.W), "We": _dec(c.We), "K": c.K, "delta": _dec(c.delta), "method": c.method,
        "Rc": _dec(c.Rc), "N": c.N, "Pd": _dec(c.Pd), "ru": _dec(c.ru), "Ro": _dec(c.Ro),
        "raw_delta": _dec(c.raw_delta), "notes": list(c.notes),
        "lines": [[g.round, g.opponent_id, _dec(g.opponent_rating), g.D, _dec(g.We), _dec(g.W), g.K, _dec(g.dR)]
                  for g in c.lines],
    }


def _q(x) -> str:
    """A decimal (or fraction) as ``as_json`` writes its text: quoted, or ``null`` (no character of a number's
    text needs escaping)."""
    return "null" if x is None else '"' + str(x) + '"'


def _i(x: int | None) -> str:
    return "null" if x is None else str(int(x))


def change_text(c: R.EventChange) -> str:
    """``as_json(change_json(c))``, written directly (the keys in sorted order): the stored explanation's
    text, 543,081 of them in the benchmark's editions (property-tested against ``as_json``)."""
    lines = ",".join(f"[{_i(g.round)},{json_string(g.opponent_id)},{_q(g.opponent_rating)},{_i(g.D)},{_q(g.We)},"
                     f"{_q(g.W)},{_i(g.K)},{_q(g.dR)}]" for g in c.lines)
    notes = ",".join(json_string(n) for n in c.notes)
    return (f'{{"K":{_i(c.K)},"N":{_i(c.N)},"Pd":{_q(c.Pd)},"Rc":{_q(c.Rc)},"Ro":{_q(c.Ro)},"W":{_q(c.W)},'
            f'"We":{_q(c.We)},"delta":{_q(c.delta)},"games":{_i(c.games)},"lines":[{lines}],'
            f'"method":{json_string(c.method)},"notes":[{notes}],"raw_delta":{_q(c.raw_delta)},"ru":{_q(c.ru)}}}')


def entry_line(values: list, state_text: str) -> str:
    return as_json(values) + "\t" + state_text + "\n"


def change_line(event_code: str, federation_id: str, explanation_text: str) -> str:
    """``as_json([event_code, federation_id])``, a tab, the explanation's text (written directly: 543,081
    lines in the benchmark's editions)."""
    return f"[{json_string(event_code)},{json_string(federation_id)}]\t{explanation_text}\n"


def digest_of(entry_lines, change_lines, events) -> str:
    """SHA-256 over the entries in list order, the changes by (event, player) and the events rated."""
    h = hashlib.sha256()
    for line in entry_lines:
        h.update(line.encode("utf-8"))
    for line in sorted(change_lines):
        h.update(line.encode("utf-8"))
    h.update(as_json(sorted(events)).encode("utf-8"))
    return h.hexdigest()


def digest(comp) -> str:
    """The digest of a computed period (``periods.PeriodComputation``); keeps the changes' texts on it."""
    comp.change_texts = [change_text(c) for c in comp.changes]
    return digest_of((e.line() for e in comp.entries),
                     (change_line(c.event_id, c.player_id, t) for c, t in zip(comp.changes, comp.change_texts)),
                     [e.code for e in comp.events])


def stored_lines(edition) -> tuple[dict[str, str], dict[tuple[str, str], str], list[str], list[str]]:
    """A stored edition read back from the database: entry lines by player (in list order), change lines by
    (event, player), the events, and the entry lines in order."""
    ordered = []
    entries = {}
    for row in EditionEntry.objects.filter(edition=edition).order_by("position").values_list(
            "player__federation_id", "name", "position", "rank", "rating", "exact", "games", "status", "is_new", "k",
            "state").iterator(chunk_size=10000):
        line = entry_line(list(row[:10]), as_json(row[10]))
        entries[row[0]] = line
        ordered.append(line)
    changes = {(ev, fid): change_line(ev, fid, as_json(expl)) for ev, fid, expl in
               RatingChange.objects.filter(edition=edition).values_list("event__code", "player__federation_id",
                                                                        "explanation").iterator(chunk_size=10000)}
    events = list(edition.events.values_list("code", flat=True))
    return entries, changes, events, ordered


#: the columns of a stored rating change besides its explanation, in ``change_row``'s order
CHANGE_COLUMNS = ("before", "after", "games", "W", "We", "K", "delta", "method")


def change_row(c: R.EventChange) -> tuple:
    """The stored columns of a change (``CHANGE_COLUMNS``): before, after (before + ΔR), games, W, We, K, ΔR,
    method — the numbers the public pages show; decimals as text with the columns' 4 places."""
    before = c.Ro
    after = before + c.delta if before is not None else None
    return (_num(before), _num(after), c.games, _num(c.W), _num(c.We), c.K, _num(c.delta), c.method)


def _num(x: Decimal | None) -> str | None:
    """A decimal for a raw insert into a DecimalField column (4 places), as text."""
    return None if x is None else str(x.quantize(Decimal("0.0001")))


def stored_change_rows(edition) -> dict[tuple[str, str], tuple]:
    """The stored columns of each change of an edition, by (event, player), as ``change_row`` writes them."""
    out = {}
    for ev, fid, *values in RatingChange.objects.filter(edition=edition).values_list(
            "event__code", "player__federation_id", *CHANGE_COLUMNS).iterator(chunk_size=10000):
        out[(ev, fid)] = tuple(_num(v) if isinstance(v, Decimal) else v for v in values)
    return out
