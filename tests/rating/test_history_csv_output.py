"""The output files' numbers: one canonical text for an exact value, whichever engine wrote it."""

from __future__ import annotations

from decimal import Decimal

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from qiyuan.formats.rating_lists_csv import decimal_text, hundredths_expr


def test_decimal_text_has_no_exponent_and_no_trailing_zeros():
    assert [decimal_text(x) for x in (Decimal("2.30"), Decimal("-0.60"), Decimal("100.00"), Decimal("0.00"),
                                      Decimal("-0"), Decimal("1E+2"), Decimal("2410.95"), None, 25)] == \
        ["2.3", "-0.6", "100", "0", "0", "100", "2410.95", "", "25"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-10**9, 10**9), min_size=1, max_size=50))
def test_hundredths_are_written_like_the_exact_decimal(values):
    written = pl.select(hundredths_expr(pl.Series(values, dtype=pl.Int64))).to_series().to_list()
    assert written == [decimal_text(Decimal(v).scaleb(-2)) for v in values]
