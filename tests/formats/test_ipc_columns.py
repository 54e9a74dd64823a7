"""Issue 34 (2): "only the columns a page needs are decoded" — a sheet's columns are read from the bytes they are
stored in and no others (``formats.ipc_columns``): the values are those of the whole blob's decoding, for any
columns of any sheet, and the bytes of a column not asked for (an entry's long state text) are never fetched."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.formats import edition_sheet as S
from qiyuan.formats import ipc_columns as I

texts = st.text(max_size=30)  # short ones kept in the views, longer ones in the data buffers; 汉字, controls
opt_ints = st.none() | st.integers(-(2**62), 2**62)


@st.composite
def sheets(draw):
    n = draw(st.integers(0, 40))
    entries = {}
    for name, kind in S.ENTRY_SCHEMA.items():
        nullable = name in S.NULLABLE["entries"]
        values = (opt_ints if nullable else st.integers(-(2**62), 2**62)) if kind == S.pl.Int64 else \
            st.booleans() if kind == S.pl.Boolean else texts
        entries[name] = draw(st.lists(values, min_size=n, max_size=n))
    m = draw(st.integers(0, 20))
    changes = {}
    for name, kind in S.CHANGE_SCHEMA.items():
        nullable = name in S.NULLABLE["changes"]
        values = (opt_ints if nullable else st.integers(-(2**62), 2**62)) if kind == S.pl.Int64 else \
            (st.none() | texts if nullable else texts)
        changes[name] = draw(st.lists(values, min_size=m, max_size=m))
    return S.sheet_of(entries, changes)


def reader(blob: bytes, log: list | None = None):
    def read(offset: int, length: int) -> bytes:
        if log is not None:
            log.append((offset, length))
        return blob[offset:offset + length]
    return read


@settings(max_examples=60, deadline=None)
@given(sheets(), st.data())
def test_the_columns_read_from_their_bytes_are_the_whole_blobs(sheet, data):
    """Any columns of any sheet, read from their own bytes, are what decoding the whole blob gives."""
    for part, schema in (("entries", S.ENTRY_SCHEMA), ("changes", S.CHANGE_SCHEMA)):
        blob = getattr(sheet, part)
        names = data.draw(st.lists(st.sampled_from(list(schema)), min_size=1, unique=True))
        got = I.decode_columns(reader(blob), len(blob), schema, part, names)
        assert got.equals(S.decode_frame(blob, schema, part, names))


def test_a_column_not_asked_for_is_not_fetched():
    """A list page's columns of an edition whose players' states are long texts: the states' bytes are not read
    (the bytes fetched are a small part of the blob)."""
    rnd = random.Random(7)
    n = 500
    states = ["".join(rnd.choice("0123456789abcdef") for _ in range(400)) for _ in range(n)]
    entries = {"player": list(range(n)), "federation_id": [f"CN{i:06d}" for i in range(n)], "name": ["张三"] * n,
               "position": list(range(1, n + 1)), "rank": list(range(1, n + 1)), "rating": [1500] * n,
               "exact": ["1500.00"] * n, "games": [3] * n, "status": ["active"] * n, "is_new": [False] * n,
               "k": [20] * n, "state": states}
    blob = S.sheet_of(entries, {name: [] for name in S.CHANGE_SCHEMA}).entries
    log: list = []
    names = ["player", "status", "rating", "rank"]
    got = I.decode_columns(reader(blob, log), len(blob), S.ENTRY_SCHEMA, "entries", names)
    assert got["rating"].to_list() == [1500] * n
    fetched = sum(length for _o, length in log)
    assert fetched < len(blob) // 10
    state_ranges = set(I.needed_ranges(reader(blob), len(blob), ["state"])) - set(
        I.needed_ranges(reader(blob), len(blob), []))
    assert state_ranges and not state_ranges & set(log)


def test_bytes_that_are_not_a_sheet_are_a_sheet_error_with_the_whole_blob_read():
    """Bytes whose columns cannot be told apart are read whole, and refused by the sheet's reader by name."""
    for blob in (b"", b"ARROW1", b"x" * 100, b"ARROW1\x00\x00" + b"\xff" * 40 + b"ARROW1"):
        log: list = []
        try:
            I.decode_columns(reader(blob, log), len(blob), S.ENTRY_SCHEMA, "entries", ["player"])
        except S.SheetError as exc:
            assert exc.part == "entries"
        else:
            raise AssertionError("read")
        assert not blob or (0, len(blob)) in log
