"""附表1 / 附表2 as printed (FIDE 8.1a / 8.1b), and the exact rounding helpers."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction

import pytest
from rating_builders import SHARED

from qiyuan.rating.exact import mean, round_half_up, to_decimal
from qiyuan.rating.tables import (DAN_KYU_RATINGS, DP_BY_P_HUNDREDTHS, PD_HUNDREDTHS, dan_rating, dp_for_score,
                                  expected_score, pd_hundredths, score_fraction)

SPEC_TABLES = json.loads((SHARED / "spec" / "tables.json").read_text(encoding="utf-8"))


def test_table2_every_band_matches_the_spec():
    for band in SPEC_TABLES["table2_difference_to_expected"]["bands"]:
        hi = band["hi"] if band["hi"] is not None else 2000
        for d in (band["lo"], hi):
            assert expected_score(d) == Decimal(band["H"]) / 100
            assert expected_score(-d) == 1 - Decimal(band["H"]) / 100


@pytest.mark.parametrize("d,pd", [(0, "0.50"), (3, "0.50"), (4, "0.51"), (-4, "0.49"), (344, "0.88"),
                                  (345, "0.89"), (735, "0.99"), (736, "1.00"), (-736, "0.00"), (5000, "1.00")])
def test_table2_band_edges(d, pd):
    assert expected_score(d) == Decimal(pd)


def test_table2_array_for_the_fast_path():
    assert len(PD_HUNDREDTHS) == 737 and PD_HUNDREDTHS[0] == 50 and PD_HUNDREDTHS[736] == 100
    assert all(pd_hundredths(d) + pd_hundredths(-d) == 100 for d in range(-800, 801))


def test_table2_needs_an_integer_difference():
    with pytest.raises(TypeError):
        expected_score(Decimal("3.5"))  # type: ignore[arg-type]


def test_table1_every_value_matches_the_spec():
    for p, dp in SPEC_TABLES["table1_score_to_dp"]["values"].items():
        assert dp_for_score(Decimal(p)) == dp
    assert DP_BY_P_HUNDREDTHS[50] == 0 and DP_BY_P_HUNDREDTHS[100] is None


def test_table1_the_two_ocr_errors_of_the_cga_text_are_corrected():
    assert dp_for_score(Decimal("0.68")) == 133  # the CGA text prints 138
    assert dp_for_score(Decimal("0.02")) == -589  # the CGA text prints -539


def test_table1_indeterminate_at_0_and_100_percent_unless_modern_fide():
    assert dp_for_score(Decimal(1)) is None and dp_for_score(Decimal(0)) is None
    assert dp_for_score(Decimal(1), dp_at_extremes=800) == 800
    assert dp_for_score(Decimal(0), dp_at_extremes=800) == -800


@pytest.mark.parametrize("w,n,p", [(8, 9, "0.89"), (7, 9, "0.78"), (2, 9, "0.22"), (1, 9, "0.11"),
                                   (1, 200, "0.01"), (Decimal("0.5"), 200, "0.00"), (Decimal("4.5"), 9, "0.50")])
def test_score_fraction_rounds_to_hundredths_half_up(w, n, p):
    assert score_fraction(w, n) == Decimal(p)


@pytest.mark.parametrize("x,n", [(Decimal("2400.5"), 2401), (Decimal("2401.5"), 2402), (Decimal("2245.55"), 2246),
                                 (Decimal("2402.3"), 2402), (Decimal("2399.49"), 2399), (Fraction(4801, 2), 2401),
                                 (Decimal("0.5"), 1)])
def test_round_half_up_where_round_would_go_to_even(x, n):
    assert round_half_up(x) == n


def test_binary_floats_would_publish_the_wrong_integer():
    # Three games at K = 10 (We .03, .03, .29; W 1, ½, 0): exactly 2411.50, but 2411.4999… in floats.
    as_float = 2400 + 10 * (1 - 0.03) + 10 * (0.5 - 0.03) + 10 * (0 - 0.29)
    exact = Decimal(2400) + 10 * (1 - Decimal("0.03")) + 10 * (Decimal("0.5") - Decimal("0.03")) + 10 * (
        0 - Decimal("0.29"))
    assert exact == Decimal("2411.50") and round_half_up(exact) == 2412
    assert round(as_float) == 2411 and int(as_float + 0.5) == 2411
    assert round(2400.5) == 2400  # round() goes to even
    assert round_half_up(Decimal(2400) + Decimal("2.9") - Decimal("0.6")) == 2402
    assert round_half_up(Decimal("2400.50")) == 2401


def test_mean_is_exact_and_to_decimal_is_exact_when_it_can_be():
    assert mean([1850, 2010, 1700]) == Fraction(5560, 3)
    assert round_half_up(mean([1850, 2010, 1700])) == 1853
    assert to_decimal(Fraction(234845, 100)) == Decimal("2348.45")
    assert to_decimal(Fraction(1, 3)) == Decimal("0.333333")


def test_dan_kyu_ratings_nine_dan_2560_forty_points_a_grade():
    assert DAN_KYU_RATINGS["9d"] == 2560 and DAN_KYU_RATINGS["10k"] == 1840
    assert dan_rating("1K") == 2200 and dan_rating("5k") == 2040 and dan_rating(None) is None
