"""Issue 34 (4): the bulk writers of rating changes (``formats.change_texts``) — explanation texts and stored numbers
written from change columns — are byte for byte the per-object writers of every version of the canonical text
(``canonical_text.writer(v).change_text`` / ``.change_row``), on any changes (hypothesis): control characters and
non-BMP text escaped as JSON escapes them, ``null`` kept for every absent number, notes and per-game lines in
their order; the columns give back the same ``EventChange`` values."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.formats.canonical_text import VERSIONS, writer
from qiyuan.formats.change_texts import explanation_texts, stored_numbers
from qiyuan.rating import results as R
from qiyuan.rating.columnar import NOTE_ORDER, ChangeTexts

ids = st.text(min_size=1, max_size=8)  # any characters: quotes, control characters, non-BMP
decimals = st.decimals(min_value=-5000, max_value=5000, allow_nan=False, allow_infinity=False, places=2) | \
    st.decimals(min_value=-9, max_value=9, allow_nan=False, allow_infinity=False, places=6) | \
    st.integers(-3000, 3000).map(Decimal)
maybe = st.none() | decimals
small = st.none() | st.integers(-400, 400)
lines = st.builds(R.GameLine, st.integers(0, 20), ids, decimals, st.integers(-800, 800), decimals, decimals,
                  st.integers(0, 40), decimals)
methods = st.sampled_from([R.METHOD_PER_GAME, R.METHOD_AVERAGING, R.METHOD_GO_ROUND_ROBIN, R.METHOD_NEWCOMER,
                           R.METHOD_PROVISIONAL, R.METHOD_NOT_RATED])
changes = st.builds(
    R.EventChange, ids, ids, st.dates(date(1990, 1, 1), date(2040, 1, 1)), st.integers(0, 3), decimals, maybe, small,
    decimals, methods, maybe, small, maybe, small, maybe, maybe, maybe,
    st.lists(st.sampled_from(NOTE_ORDER), max_size=3, unique=True).map(lambda n: sorted(n, key=NOTE_ORDER.index)),
    st.lists(lines, max_size=4))


@settings(max_examples=150, deadline=None)
@given(st.lists(changes, max_size=8))
def test_bulk_change_writers_are_each_versions_per_object_writers(cs):
    cols = ChangeTexts.from_objects(cs)
    for version in VERSIONS:
        w = writer(version)
        assert explanation_texts(cols, version) == [w.change_text(c) for c in cs]
        assert list(zip(*stored_numbers(cols, version).values())) == [w.change_row(c) for c in cs]
    back = cols.objects()
    assert back == cs and [writer(2).change_text(c) for c in back] == [writer(2).change_text(c) for c in cs]


@settings(max_examples=60, deadline=None)
@given(st.lists(changes, max_size=8), st.data())
def test_change_columns_taken_sliced_and_joined_keep_each_change_with_its_lines(cs, data):
    cols = ChangeTexts.from_objects(cs)
    order = data.draw(st.permutations(range(len(cs))))
    assert cols.take(order).objects() == [cs[i] for i in order]
    cut = data.draw(st.integers(0, len(cs)))
    assert ChangeTexts.concatenate([cols.slice(0, cut), cols.slice(cut, len(cs))]).objects() == cs


def test_an_unknown_version_is_refused_by_name():
    import pytest

    with pytest.raises(ValueError, match="version 99"):
        explanation_texts(ChangeTexts.empty(), 99)


def test_a_version_without_a_bulk_form_is_written_change_by_change_through_its_writer(monkeypatch):
    """A later version known to ``canonical_text.WRITERS`` only (no settings here) is written by its own writer."""
    from dataclasses import replace

    from qiyuan.formats import canonical_text as T

    v = max(T.WRITERS) + 1  # (a version after every one known)
    later = replace(T.WRITERS[2], version=v, change_text=lambda c: "marked " + T.WRITERS[2].change_text(c),
                    change_row=lambda c: T.WRITERS[2].change_row(c)[:-1] + ("marked",))
    monkeypatch.setitem(T.WRITERS, v, later)
    c = R.EventChange("P1", "E1", date(2020, 1, 1), 3, Decimal("2.5"), Decimal("1.20"), 20, Decimal("26.00"),
                      R.METHOD_PER_GAME, Ro=Decimal(2000))
    cols = ChangeTexts.from_objects([c])
    assert explanation_texts(cols, v) == ["marked " + T.WRITERS[2].change_text(c)]
    assert stored_numbers(cols, v)["method"] == ["marked"]
