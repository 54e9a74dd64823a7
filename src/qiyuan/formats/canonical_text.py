"""The canonical text of a published edition (what its digest covers), as a format: plain data in, text out.

An edition is its entries in list order, its rating changes by (event,
player) and the events it rated. Each entry and each change has one line of
canonical JSON (decimals and fractions as exact text, keys sorted); the
edition's digest is the SHA-256 over those lines. The lines are written
directly rather than through ``json.dumps`` (hundreds of thousands of them in
a large office; property-tested against ``as_json``).

Every edition records the version of this text it was written in
(``canonical_version``). ``WRITERS`` keeps the writer of each version, so an
edition written in version 1 verifies as published even after a later
version changes, say, the explanation's text. No Django here: the office
stores and reads the rows, and a verification kit outside the office can
use this module alone.

The inputs of an edition (``inputs_digest``) — the public facts it was
computed from: its events with their dates, flags and status, their games
and standings, the members who joined the list in it with their frozen facts
and the grants that gave their grades, who published it — have a canonical
text too; ``verify`` compares its digest with the one stored at publication.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from qiyuan.rating import results as R

_CANONICAL = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True)
#: a string as canonical JSON text (what ``as_json`` writes for a string)
json_string = json.encoder.encode_basestring


def as_json(value) -> str:
    """Canonical JSON text (keys sorted, compact): a JSON column's value for a raw insert, and the digest's form
    (PostgreSQL's jsonb reorders keys; sorting makes the text read back identical). One encoder for every call
    (``json.dumps`` with options builds a new one each time)."""
    return _CANONICAL.encode(value)


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
    state: dict | None  # None: given as ``_text``, its canonical text

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


def change_text(c: R.EventChange, method: str | None = None) -> str:
    """``as_json(change_json(c))``, written directly (the keys in sorted order): the stored explanation's
    text, 543,081 of them in the benchmark's editions (property-tested against ``as_json``). ``method``: the
    method written instead of the change's own (a version's label, ``VersionSettings``)."""
    lines = ",".join(f"[{_i(g.round)},{json_string(g.opponent_id)},{_q(g.opponent_rating)},{_i(g.D)},{_q(g.We)},"
                     f"{_q(g.W)},{_i(g.K)},{_q(g.dR)}]" for g in c.lines)
    notes = ",".join(json_string(n) for n in c.notes)
    return (f'{{"K":{_i(c.K)},"N":{_i(c.N)},"Pd":{_q(c.Pd)},"Rc":{_q(c.Rc)},"Ro":{_q(c.Ro)},"W":{_q(c.W)},'
            f'"We":{_q(c.We)},"delta":{_q(c.delta)},"games":{_i(c.games)},"lines":[{lines}],'
            f'"method":{json_string(method or c.method)},"notes":[{notes}],"raw_delta":{_q(c.raw_delta)},'
            f'"ru":{_q(c.ru)}}}')


def entry_line(values: list, state_text: str) -> str:
    """A stored entry's line: its ten values (``EntryRow.line``'s order) and its state's text."""
    return as_json(values) + "\t" + state_text + "\n"


def change_line(event_code: str, federation_id: str, explanation_text: str) -> str:
    """``as_json([event_code, federation_id])``, a tab, the explanation's text (written directly: 543,081
    lines in the benchmark's editions)."""
    return f"[{json_string(event_code)},{json_string(federation_id)}]\t{explanation_text}\n"


def digest_of(entry_lines: Iterable[str], change_lines: Iterable[str], events: Iterable[str]) -> str:
    """SHA-256 over the entries in list order, the changes by (event, player) and the events rated (the bytes
    ``text_of`` writes)."""
    h = hashlib.sha256("".join(entry_lines).encode("utf-8"))  # (one update per part, not one per line)
    h.update("".join(sorted(change_lines)).encode("utf-8"))
    h.update(as_json(sorted(events)).encode("utf-8"))
    return h.hexdigest()


def text_of(entry_lines: Iterable[str], change_lines: Iterable[str], events: Iterable[str]) -> bytes:
    """The canonical text itself, whose SHA-256 is ``digest_of`` the same lines: an edition bundle carries it
    (``outputs/canonical.txt``), so anyone can hash it and compare with the published digest."""
    return ("".join(entry_lines) + "".join(sorted(change_lines)) + as_json(sorted(events))).encode("utf-8")


def read_text(data: bytes) -> tuple[list[str], list[str], list[str]]:
    """A canonical text split back into its entry lines (in order), change lines and event codes.
    ``ValueError`` when it is not one."""
    *lines, last = data.decode("utf-8").split("\n")
    events = json.loads(last)
    if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
        raise ValueError("the last line is not the list of events")
    entries, changes = [], []
    for line in lines:
        head = json.loads(line.split("\t", 1)[0])
        if not isinstance(head, list) or len(head) not in (2, 10) or not isinstance(head[0], str):
            raise ValueError(f"not an entry or change line: {line[:60]}")
        (entries if len(head) == 10 else changes).append(line + "\n")
    return entries, changes, events


#: the columns of a stored rating change besides its explanation, in ``change_row``'s order
CHANGE_COLUMNS = ("before", "after", "games", "W", "We", "K", "delta", "method")


def change_row(c: R.EventChange, method: str | None = None) -> tuple:
    """The stored columns of a change (``CHANGE_COLUMNS``): before, after (before + ΔR), games, W, We, K, ΔR,
    method — the numbers the public pages show; decimals as text with the columns' 4 places. ``method``: as
    ``change_text``'s."""
    before = c.Ro
    after = before + c.delta if before is not None else None
    return (number_text(before), number_text(after), c.games, number_text(c.W), number_text(c.We), c.K,
            number_text(c.delta), method or c.method)


def number_text(x: Decimal | None) -> str | None:
    """A decimal for a raw insert into a DecimalField column (4 places), as text."""
    return None if x is None else str(x.quantize(Decimal("0.0001")))


@dataclass(frozen=True)
class Writer:
    """The canonical text of one version: how an entry, a change and the whole edition are written, and a
    change's stored columns (``change_row``: its method as the version names it)."""

    version: int
    change_text: object  # (EventChange) -> str
    entry_line: object  # (values, state text) -> str
    change_line: object  # (event code, federation id, explanation text) -> str
    digest_of: object  # (entry lines, change lines, event codes) -> str
    text_of: object  # (entry lines, change lines, event codes) -> bytes whose SHA-256 is ``digest_of``
    change_row: object = change_row  # (EventChange) -> the stored columns (``CHANGE_COLUMNS``)


@dataclass(frozen=True)
class VersionSettings:
    """What differs between versions of the text, as settings (the writers are built from them).

    ``uncounted_newcomer``: the method a newcomer's event that did not count (CGA Art. 7: fewer than three rated
    opponents, or no point; 0 games counted) is written with — version 1 kept the engine's ``newcomer``, version 2
    writes ``not_rated``, as ``qiyuan rate``, ``changes.csv`` and docs/formats.md say (issue 32, item 7)."""

    uncounted_newcomer: str = R.METHOD_NEWCOMER
    #: the inputs an edition of this version carries beyond ``INPUT_PARTS`` (``EXTRA_PARTS``): version 3 adds how
    #: each game's result was entered (``provenance``, issue 37) and the audit log's head when it was published
    #: (``audit_head``, issue 32) — in its inputs digest and in its bundle (``inputs/provenance.csv``,
    #: ``inputs/audit_head.json``)
    extra_inputs: tuple[str, ...] = ()


#: the settings of every version; a new version is added here, the old ones are kept for the editions written in them
VERSIONS: dict[int, VersionSettings] = {
    1: VersionSettings(), 2: VersionSettings(uncounted_newcomer=R.METHOD_NOT_RATED),
    3: VersionSettings(uncounted_newcomer=R.METHOD_NOT_RATED, extra_inputs=("provenance", "audit_head"))}
#: the version new editions are written in
CURRENT_VERSION = 3


def extra_inputs(version: int) -> tuple[str, ...]:
    """The inputs parts ``version`` adds to ``INPUT_PARTS`` (none for a version this program does not know)."""
    found = VERSIONS.get(version)
    return found.extra_inputs if found is not None else ()


def uncounted(c: R.EventChange) -> bool:
    """A newcomer's event that did not count for him: the engine's ``newcomer`` change with 0 games counted."""
    return c.method == R.METHOD_NEWCOMER and c.games == 0


def _writer(version: int, settings: VersionSettings) -> Writer:
    if settings.uncounted_newcomer == R.METHOD_NEWCOMER:  # the engine's own label: the changes as they are
        return Writer(version, change_text, entry_line, change_line, digest_of, text_of, change_row)

    label = settings.uncounted_newcomer

    def labelled(c: R.EventChange) -> str | None:  # (the method written: the change itself is not copied)
        return label if uncounted(c) else None

    return Writer(version, lambda c: change_text(c, labelled(c)), entry_line, change_line, digest_of, text_of,
                  lambda c: change_row(c, labelled(c)))


#: every version's writer
WRITERS: dict[int, Writer] = {v: _writer(v, settings) for v, settings in VERSIONS.items()}


def writer(version: int) -> Writer:
    """The writer of ``version`` (a clear error for a version this program does not know)."""
    try:
        return WRITERS[version]
    except KeyError:
        raise ValueError(f"canonical text version {version} is unknown to this program (known: "
                         f"{', '.join(map(str, sorted(WRITERS)))})") from None


# --------------------------------------------------------------------------------------------- inputs

#: what an edition's inputs digest covers, in order (each a list of rows of plain values)
INPUT_PARTS = ("edition", "events", "games", "standings", "members", "grants")
#: the parts a later version adds (``VersionSettings.extra_inputs``), in order: how each game's result was entered
#: (event, round, player1, player2, how, acts, when, file kind, file SHA-256) and the audit log's head at publication
#: (entries, head hash)
EXTRA_PARTS = ("provenance", "audit_head")


def inputs_digest(parts: dict[str, Sequence[Sequence]]) -> str:
    """SHA-256 over the edition's inputs: for each part of ``INPUT_PARTS`` its name and its rows sorted, one line
    each (``input_line``); then each part of ``EXTRA_PARTS`` that ``parts`` holds (an edition of a version without
    them holds none: its digest is the one it was published with)."""
    h = hashlib.sha256()
    for name in (*INPUT_PARTS, *(p for p in EXTRA_PARTS if p in parts)):
        h.update(f"#{name}\n".encode())
        line = game_line if name == "games" else provenance_line if name == "provenance" else input_line
        h.update("".join(sorted(line(row) for row in parts.get(name, ()))).encode("utf-8"))
    return h.hexdigest()


def input_line(row: Sequence) -> str:
    """One input row as text: its values separated by ``\x1f``, strings as JSON strings, ``null``, ``true`` /
    ``false``, integers, decimals normalised (``2``, ``2.5``: the same text from SQLite and PostgreSQL), dates
    ISO 8601."""
    return "\x1f".join([_CELLS.get(type(v), _cell)(v) for v in row]) + "\n"


def game_line(row: Sequence) -> str:
    """``input_line`` of a game (event, round, player, player, result, opener, board), written directly when its
    values have the stored types (most of an edition's inputs; property-tested against ``input_line``)."""
    ev, rnd, a, b, res, opener, board = row
    if not (type(ev) is str and type(rnd) is int and type(a) is str and type(b) is str and type(res) is str
            and (opener is None or type(opener) is int) and (board is None or type(board) is int)):
        return input_line(row)
    return (f"{json_string(ev)}\x1f{rnd}\x1f{json_string(a)}\x1f{json_string(b)}\x1f{json_string(res)}\x1f"
            f"{'null' if opener is None else opener}\x1f{'null' if board is None else board}\n")


def provenance_line(row: Sequence) -> str:
    """``input_line`` of a game's provenance (event, round, player, player, how, acts, when, file kind, file
    SHA-256), written directly when every value has its stored type (property-tested against ``input_line``): as many
    rows as games."""
    if len(row) != 9:
        return input_line(row)
    ev, rnd, a, b, how, acts, at, kind, sha = row
    if not (type(ev) is str and type(rnd) is int and type(a) is str and type(b) is str and type(how) is str
            and type(acts) is str and type(at) is str and type(kind) is str and type(sha) is str):
        return input_line(row)
    return (f"{json_string(ev)}\x1f{rnd}\x1f{json_string(a)}\x1f{json_string(b)}\x1f{json_string(how)}\x1f"
            f"{json_string(acts)}\x1f{json_string(at)}\x1f{json_string(kind)}\x1f{json_string(sha)}\n")


def _decimal_cell(v: Decimal) -> str:
    return str(int(v)) if v == v.to_integral_value() else str(v.normalize())


def _cell(v) -> str:
    if isinstance(v, str):
        return json_string(v)
    if v is None:
        return "null"
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Decimal):
        return _decimal_cell(v)
    if hasattr(v, "isoformat"):
        return v.isoformat()
    return json_string(str(v))


#: ``_cell`` by the exact type of the common values (hundreds of thousands of cells per edition); any other
#: type (a subclass, a datetime) goes through ``_cell`` itself
_CELLS = {str: json_string, int: int.__repr__, bool: lambda v: "true" if v else "false", type(None): lambda v: "null",
          Decimal: _decimal_cell, date: date.isoformat}
