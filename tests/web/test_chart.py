"""The rating history chart: server-drawn SVG, escaped, ordered by date."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

from qiyuan.web.portal.chart import ChartPoint, rating_history_svg


def test_chart_draws_one_point_per_list_in_date_order():
    svg = rating_history_svg([ChartPoint(date(2026, 1, 1), Decimal(2012)), ChartPoint(date(2025, 7, 1), Decimal(2050)),
                              ChartPoint(date(2024, 1, 1), Decimal(1990))], title="走势")
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    points = re.search(r'<polyline class="series" points="([^"]+)"', svg).group(1).split()
    xs = [float(p.split(",")[0]) for p in points]
    ys = [float(p.split(",")[1]) for p in points]
    assert xs == sorted(xs) and len(xs) == 3
    assert ys[1] < ys[2] < ys[0]  # 2050 drawn highest, 1990 lowest (SVG y grows downwards)
    assert "2024-01-01 1990" in svg and ">2025<" in svg


def test_chart_escapes_labels_and_handles_one_point_and_none():
    svg = rating_history_svg([ChartPoint(date(2026, 1, 1), Decimal(1800), "<b>x</b>")], title='a"b')
    assert "<b>" not in svg and "&lt;b&gt;" in svg and 'aria-label="a&quot;b"' in svg
    assert rating_history_svg([]) == ""
