"""The rating history chart (等级分走势图): inline SVG drawn on the server.

No script and no external library: a polyline of the published ratings over
time, with a labelled rating axis and year ticks. Coordinates are plain
numbers for drawing only; the ratings shown in the labels are the exact
published values.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from html import escape

from django.utils.safestring import SafeString, mark_safe


@dataclass(frozen=True)
class ChartPoint:
    on: date
    rating: Decimal
    label: str = ""  # tooltip, e.g. the list edition


WIDTH, HEIGHT = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 32


def _nice_step(span: int) -> int:
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 6:
            return step
    return 2000


def rating_history_svg(points: list[ChartPoint], *, title: str = "") -> SafeString:
    """The chart as an ``<svg>`` element (empty string when there is nothing to draw)."""
    if not points:
        return mark_safe("")
    points = sorted(points, key=lambda p: p.on)
    lo = int(min(p.rating for p in points))
    hi = int(max(p.rating for p in points)) + 1
    step = _nice_step(max(hi - lo, 1))
    lo = (lo // step) * step
    hi = -(-hi // step) * step
    if hi == lo:
        hi = lo + step
    d0 = points[0].on.toordinal()
    d1 = points[-1].on.toordinal()
    if d1 == d0:
        d0 -= 180
        d1 += 180
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(on: date) -> float:
        return LEFT + plot_w * (on.toordinal() - d0) / (d1 - d0)

    def y(r: Decimal) -> float:
        return TOP + plot_h * (hi - float(r)) / (hi - lo)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}"'
        f' role="img" aria-label="{escape(title)}">'
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    for r in range(lo, hi + 1, step):
        yy = y(Decimal(r))
        parts.append(f'<line class="gridline" x1="{LEFT}" y1="{yy:.1f}" x2="{WIDTH - RIGHT}" y2="{yy:.1f}"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{yy + 4:.1f}" text-anchor="end">{r}</text>')
    first_year = date.fromordinal(d0).year
    last_year = date.fromordinal(d1).year
    years = range(first_year + (0 if date(first_year, 1, 1).toordinal() >= d0 else 1), last_year + 1)
    every = max(1, len(years) // 10 + (1 if len(years) % 10 else 0)) if len(years) > 10 else 1
    for year in list(years)[::every]:
        xx = x(date(year, 1, 1))
        parts.append(f'<line class="gridline" x1="{xx:.1f}" y1="{TOP}" x2="{xx:.1f}" y2="{HEIGHT - BOTTOM}"/>')
        parts.append(f'<text x="{xx:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{year}</text>')
    parts.append(f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}"/>')
    parts.append(
        f'<line class="axis" x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}"/>'
    )
    coords = " ".join(f"{x(p.on):.1f},{y(p.rating):.1f}" for p in points)
    parts.append(f'<polyline class="series" points="{coords}"/>')
    for p in points:
        tip = escape(f"{p.on.isoformat()} {p.rating}" + (f" {p.label}" if p.label else ""))
        parts.append(f'<circle class="dot" cx="{x(p.on):.1f}" cy="{y(p.rating):.1f}" r="3"><title>{tip}</title></circle>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
