"""An edition's inputs as text (``canonical_text.input_line``): the fast writer by type writes every cell as the
general one does — the inputs digest of every stored edition depends on it."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from qiyuan.formats.canonical_text import _cell, game_line, input_line, provenance_line

cells = st.one_of(st.text(), st.none(), st.booleans(), st.integers(), st.dates(), st.datetimes(),
                  st.decimals(allow_nan=False, allow_infinity=False, places=4), st.sampled_from([Decimal("2.50"),
                                                                                                 Decimal("2E+1")]))


@given(st.lists(cells, max_size=8))
def test_input_line_writes_each_cell_as_the_general_writer(row):
    assert input_line(row) == "\x1f".join(_cell(v) for v in row) + "\n"


def test_input_line_examples():
    """Strings as JSON strings, null, true/false, integers, decimals normalised, dates ISO 8601."""
    row = ["东 \"甲\"", None, True, False, 7, Decimal("2.50"), Decimal("2.00"), date(2026, 1, 1),
           datetime(2026, 1, 1, 8, 30)]
    assert input_line(row) == '"东 \\"甲\\""\x1fnull\x1ftrue\x1ffalse\x1f7\x1f2.5\x1f2\x1f2026-01-01\x1f' \
                              '2026-01-01T08:30:00\n'


@given(st.tuples(st.one_of(st.text(), st.integers()), st.one_of(st.integers(), st.text()), st.text(), st.text(),
                 st.sampled_from(["1-0", "0-1", "=", "+-", "-+", "--"]), st.one_of(st.none(), st.integers(1, 2)),
                 st.one_of(st.none(), st.integers(1, 9), st.text(max_size=2))))
def test_a_game_line_is_its_input_line(row):
    """``game_line`` writes a stored game's inputs directly: the same text as ``input_line`` (and any value of
    another type goes through ``input_line`` itself)."""
    assert game_line(row) == input_line(row)


@given(st.tuples(st.one_of(st.text(), st.integers()), st.one_of(st.integers(), st.text()), st.text(), st.text(),
                 st.sampled_from(["file", "phones", "desk"]), st.one_of(st.text(), st.none()),
                 st.one_of(st.none(), st.datetimes(), st.text(max_size=2)), st.text(max_size=4),
                 st.one_of(st.text(max_size=4), st.none())))
def test_a_provenance_line_is_its_input_line(row):
    """``provenance_line`` writes a game's provenance directly (issue 34: as many rows as games in every
    inputs digest): the same text as ``input_line``, any other row through ``input_line`` itself."""
    assert provenance_line(row) == input_line(row)
    assert provenance_line(row[:8]) == input_line(row[:8])
