"""Issue 24: a player's calculation table on a 375 px phone shows its K column, inside the screen (it was hidden
as an optional column, then off screen). Cheap: the table as the player page renders it, with the site's own
style sheet, laid out by Chromium without a server or a database."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest

from qiyuan.web.portal.calculations import CalcRow, EventCalc

pytestmark = pytest.mark.browser

CSS = Path(__file__).resolve().parents[2] / "src" / "qiyuan" / "web" / "static" / "qiyuan" / "site.css"
LABELS = {"base": "/players/", "en": False, "method": "方法", "round": "轮次", "opponent": "对手",
          "opponent_rating": "对手等级分", "result": "结果", "total": "合计", "games": "局", "before": "赛前",
          "after": "赛后"}


def _calculation() -> str:
    change = SimpleNamespace(method="per_game", before=Decimal("2229"), after=Decimal("2237.30"), games=7,
                             W=Decimal("5.5"), We=Decimal("4.67"), delta=Decimal("8.30"), K=10)
    rows = [CalcRow(i, None, str(2100 + 37 * i), "½" if i % 3 else "1", f"+{129 - 37 * i}", "0.67", "+3.30", "10")
            for i in range(1, 8)]
    return EventCalc(change=change, rows=rows).html(LABELS)


def test_the_k_column_is_on_screen_at_375_px(browser):
    page = browser.new_page(viewport={"width": 375, "height": 812})
    try:
        page.set_content(f'<html lang="zh-Hans"><head><meta name="viewport" content="width=device-width">'
                         f'<style>{CSS.read_text(encoding="utf-8")}</style></head>'
                         f'<body><main class="wrap"><section class="card calc">{_calculation()}</section></main></body></html>')
        k = page.locator("table.calc-table thead th.k")
        assert k.is_visible()
        box = k.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375, box
        cells = page.locator("table.calc-table tbody td.k")
        assert cells.count() == 7 and all(cells.nth(i).is_visible() for i in range(7))
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        box = page.locator("div.scroll").bounding_box()
        width = page.evaluate("() => { const s = document.querySelector('div.scroll'); return [s.scrollWidth, s.clientWidth]; }")
        assert width[0] <= width[1] + 1, width  # the table fits its box: K is not scrolled off to the side
    finally:
        page.close()
