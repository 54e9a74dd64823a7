"""Issue 34 (1): an edition as a sheet — the canonical text written in bulk from its columns is byte for byte the
text today's writers give from the same entries and changes, in every version of the text; control characters
come out as the JSON escapes they always had, change lines keep code-point order, nulls keep their ``null`` form;
a damaged sheet is a ``SheetError``, never another error."""

from __future__ import annotations

import hashlib
import random
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.formats import canonical_text as C
from qiyuan.formats import edition_sheet as S
from qiyuan.rating import results as R

decimals = st.decimals(min_value=Decimal("-10000"), max_value=Decimal("10000"), allow_nan=False, places=4)
opt_dec = st.none() | decimals
opt_int = st.none() | st.integers(-5000, 5000)
texts = st.text(max_size=10)  # any characters: quotes, backslashes, control characters, 汉字, beyond the BMP
game_lines = st.builds(R.GameLine, round=st.integers(0, 99), opponent_id=texts, opponent_rating=decimals,
                       D=st.integers(-3000, 3000), We=decimals, W=st.sampled_from([Decimal(0), Decimal("0.5"),
                                                                                   Decimal(1)]),
                       K=st.integers(0, 60), dR=decimals)
changes = st.builds(
    R.EventChange, player_id=texts, event_id=texts, list_date=st.just(date(2020, 1, 1)), games=st.integers(0, 40),
    W=decimals, We=opt_dec, K=opt_int, delta=decimals, method=st.sampled_from(sorted(
        [R.METHOD_PER_GAME, R.METHOD_AVERAGING, R.METHOD_GO_ROUND_ROBIN, R.METHOD_NEWCOMER, R.METHOD_NOT_RATED])),
    Rc=opt_dec, N=opt_int, Pd=opt_dec, D=opt_int, ru=opt_dec, Ro=opt_dec, raw_delta=opt_dec,
    notes=st.lists(texts, max_size=2), lines=st.lists(game_lines, max_size=3))
entries = st.builds(
    C.EntryRow, player_pk=st.integers(1, 10**9), federation_id=texts, position=st.integers(1, 60000),
    rank=st.none() | st.integers(1, 60000), rating=st.none() | st.integers(0, 3000),
    exact=st.text(alphabet="0123456789.-", max_size=12), games=st.integers(0, 5000),
    status=st.sampled_from(["active", "inactive", "unrated", "removed"]), is_new=st.booleans(),
    k=st.none() | st.integers(0, 60), state=st.dictionaries(texts, st.none() | st.integers() | texts, max_size=3),
    name=texts)


def columns(rows: list[C.EntryRow], chs: list[R.EventChange], version: int = 1) -> tuple[dict, dict]:
    """The sheet's columns of entries and changes, as the office fills them at publication (in the edition's
    version of the text: version 2 names a newcomer's event that did not count ``not_rated``)."""
    w = C.writer(version)
    e = {"player": [r.player_pk for r in rows], "federation_id": [r.federation_id for r in rows],
         "name": [r.name for r in rows], "position": [r.position for r in rows], "rank": [r.rank for r in rows],
         "rating": [r.rating for r in rows], "exact": [r.exact for r in rows], "games": [r.games for r in rows],
         "status": [r.status for r in rows], "is_new": [r.is_new for r in rows], "k": [r.k for r in rows],
         "state": [r.state_text for r in rows]}
    numbers = [w.change_row(c) for c in chs]
    c = {"player": list(range(len(chs))), "event": [7] * len(chs), "event_code": [x.event_id for x in chs],
         "federation_id": [x.player_id for x in chs], "explanation": [w.change_text(x) for x in chs]}
    for i, name in enumerate(S.CHANGE_NUMBER_COLUMNS):
        c[name] = [n[i] for n in numbers]
    return e, c


def todays_text(version: int, rows: list[C.EntryRow], chs: list[R.EventChange], events: list[str]) -> bytes:
    w = C.writer(version)
    return w.text_of([w.entry_line([r.federation_id, r.name, r.position, r.rank, r.rating, r.exact, r.games,
                                    r.status, r.is_new, r.k], r.state_text) for r in rows],
                     [w.change_line(c.event_id, c.player_id, w.change_text(c)) for c in chs], events)


def unique_changes(chs: list[R.EventChange]) -> list[R.EventChange]:
    """One change per (event, player), as an edition has."""
    return list({(c.event_id, c.player_id): c for c in chs}.values())


@pytest.mark.parametrize("version", sorted(C.WRITERS))
@settings(max_examples=150, deadline=None)
@given(st.lists(entries, max_size=6), st.lists(changes, max_size=6), st.lists(texts, max_size=3))
def test_text_from_sheet_is_todays_text(version, rows, chs, events):
    chs = unique_changes(chs)
    e, c = columns(rows, chs, version)
    sheet = S.sheet_of(e, c)
    text = S.text_from_sheet(version, sheet, events)
    assert text == todays_text(version, rows, chs, events)
    w = C.writer(version)
    assert hashlib.sha256(text).hexdigest() == w.digest_of(
        [w.entry_line([r.federation_id, r.name, r.position, r.rank, r.rating, r.exact, r.games, r.status, r.is_new,
                       r.k], r.state_text) for r in rows],
        [w.change_line(x.event_id, x.player_id, w.change_text(x)) for x in chs], events)


@pytest.mark.parametrize("version", sorted(C.WRITERS))
@settings(max_examples=100, deadline=None)
@given(st.lists(entries, max_size=5), st.lists(changes, max_size=5))
def test_bulk_writer_and_row_by_row_writer_agree(version, rows, chs):
    e, c = columns(rows, unique_changes(chs))
    bulk = S.sheet_writer(version)
    assert bulk.entry_lines(e) == S.entry_lines_by_row(version)(e)
    assert bulk.change_lines(c) == S.change_lines_by_row(version)(c)


@settings(max_examples=100, deadline=None)
@given(st.lists(entries, max_size=5), st.lists(changes, max_size=5))
def test_columns_read_back_as_written(rows, chs):
    e, c = columns(rows, unique_changes(chs))
    sheet = S.sheet_of(e, c)
    assert S.decode(sheet.entries, S.ENTRY_SCHEMA, "entries") == e
    back = S.decode(sheet.changes, S.CHANGE_SCHEMA, "changes")
    assert sorted(zip(*back.values())) == sorted(zip(*(c[k] for k in S.CHANGE_SCHEMA)))
    assert S.decode(sheet.entries, S.ENTRY_SCHEMA, "entries", ["name", "rank"]) == {"name": e["name"],
                                                                                   "rank": e["rank"]}


def _one(fid="P1", name="张三", event="E1", **kw) -> tuple[list[C.EntryRow], list[R.EventChange]]:
    row = C.EntryRow(player_pk=1, federation_id=fid, position=1, rank=kw.get("rank", 1), rating=kw.get("rating", 1500),
                     exact=kw.get("exact", "1500.0000"), games=3, status="active", is_new=False, k=kw.get("k", 20),
                     state=kw.get("state", {"r": "1500"}), name=name)
    ch = R.EventChange(player_id=fid, event_id=event, list_date=date(2020, 1, 1), games=3, W=Decimal("1.5"),
                       We=kw.get("We", Decimal("1.2500")), K=kw.get("K", 20), delta=Decimal("6"), method="per-game",
                       Ro=kw.get("Ro", Decimal("1500")), notes=list(kw.get("notes", [])))
    return [row], [ch]


def test_control_characters_written_as_their_json_escapes():
    """A name, an ID, an event code or a note holding control characters (and quotes, backslashes) is written as
    the JSON escapes today's writer gives (``\\u0001``, ``\\n``, ``\\"``): the bulk writer escapes each text
    through the same encoder, never by hand."""
    nasty = 'a\x00b\x01c\x1f"\\\n\t\r\x7f\u2028'
    rows, chs = _one(fid=nasty, name=nasty, event=nasty, notes=[nasty])
    e, c = columns(rows, chs)
    text = S.text_from_sheet(1, S.sheet_of(e, c), [nasty])
    assert text == todays_text(1, rows, chs, [nasty])
    assert b"\\u0000" in text and b"\\u0001" in text and b"\\u001f" in text and b'\\"' in text
    assert b"\x01" not in text and b"\x00" not in text  # no raw control character reaches the digest's bytes
    assert text.count(b"\n") == 2  # one line an entry, one a change, the events last: no line broken by a name


def test_change_lines_keep_code_point_order():
    """Change lines sort as whole lines by code point (what ``digest_of`` sorts), not by (event, player) and not by
    UTF-16 units: ``"A 1"`` comes before ``"A"`` (a space sorts before the closing quote) and U+FFFD before an
    emoji beyond the BMP."""
    rows, _ = _one()
    chs = [_one(fid=f, event=ev)[1][0] for ev, f in
           [("A", "P1"), ("A 1", "P1"), ("B", "\U0001F600"), ("B", "\uFFFD"), ("B", "P2")]]
    e, c = columns(rows, chs)
    sheet = S.sheet_of(e, c)
    lines = S.change_lines_v1(S.decode(sheet.changes, S.CHANGE_SCHEMA, "changes"))
    assert [ln.split("\t")[0] for ln in lines] == ['["A 1","P1"]', '["A","P1"]', '["B","P2"]', '["B","\uFFFD"]',
                                                    '["B","\U0001F600"]']
    assert lines == sorted(lines)
    assert S.decode(sheet.changes, S.CHANGE_SCHEMA, "changes", ["event_code"])["event_code"] == [
        "A 1", "A", "B", "B", "B"]  # (stored in that order: the writer's sort is a single pass)
    assert S.text_from_sheet(1, sheet, ["A", "A 1", "B"]) == todays_text(1, rows, chs, ["A", "A 1", "B"])


def test_null_forms_kept():
    """A null stays a null through the sheet (``null`` in the text: rank, rating, K of an entry; before, after,
    We, K of a change) and an empty text stays empty (a name, an exact value): neither becomes the other, nor
    ``None``, nor ``0``."""
    rows, chs = _one(name="", rank=None, rating=None, k=None, exact="", We=None, K=None, Ro=None,
                     state={"x": None})
    e, c = columns(rows, chs)
    sheet = S.sheet_of(e, c)
    back = S.decode(sheet.entries, S.ENTRY_SCHEMA, "entries")
    assert (back["rank"], back["rating"], back["k"], back["name"], back["exact"]) == ([None], [None], [None], [""],
                                                                                      [""])
    ch = S.decode(sheet.changes, S.CHANGE_SCHEMA, "changes")
    assert (ch["before"], ch["after"], ch["We"], ch["K"]) == ([None], [None], [None], [None])
    text = S.text_from_sheet(1, sheet, ["E1"])
    assert text == todays_text(1, rows, chs, ["E1"])
    assert text.startswith(b'["P1","",1,null,null,"",3,"active",false,null]\t{"x":null}\n')
    assert b'"We":null' in text and b"None" not in text


def test_a_null_where_the_format_has_none_is_refused():
    rows, chs = _one()
    e, c = columns(rows, chs)
    e["federation_id"] = [None]
    blob = S.encode(e, S.ENTRY_SCHEMA)
    with pytest.raises(S.SheetError, match="column federation_id holds a null"):
        S.decode(blob, S.ENTRY_SCHEMA, "entries")


def test_damaged_sheet_bytes_are_a_sheet_error_never_another_error():
    rows, chs = _one()
    e, c = columns(rows * 1, chs)
    sheet = S.sheet_of(e, c)
    rnd = random.Random(34)
    for blob, schema, part in ((sheet.entries, S.ENTRY_SCHEMA, "entries"), (sheet.changes, S.CHANGE_SCHEMA,
                                                                          "changes")):
        for _ in range(150):
            damaged = bytearray(blob)
            for _ in range(rnd.randint(1, 4)):
                damaged[rnd.randrange(len(damaged))] = rnd.randrange(256)
            try:
                S.decode(bytes(damaged), schema, part)
            except S.SheetError as exc:
                assert exc.part == part
        for cut in (0, 1, 8, len(blob) // 2, len(blob) - 1):
            with pytest.raises(S.SheetError):
                S.decode(blob[:cut], schema, part)
    with pytest.raises(S.SheetError, match="not this format"):
        S.decode(sheet.changes, S.ENTRY_SCHEMA, "entries")
    with pytest.raises(S.SheetError, match="format 9"):
        S.text_from_sheet(1, S.Sheet(9, sheet.entries, sheet.changes), [])
