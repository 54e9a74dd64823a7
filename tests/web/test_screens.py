"""The portal in a real browser (Debian's Chromium, Playwright) on the demo federation: the main pages in both
languages at 1280 px and on a 375 px phone, where lists and player pages read without scrolling sideways and
names never break one character per line. Each page is also checked for stored codes and untranslated text.

Screenshots go to test-artifacts/; with ``QIYUAN_SCREENSHOTS=docs/img`` (``make screenshots``) to docs/img/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .conftest import ARTIFACTS, REPO
from .language_check import problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def demo(db):
    from qiyuan.office.events.models import Event
    from qiyuan.office.demo import build_demo
    from qiyuan.office.federation.models import Player
    from qiyuan.office.ratings.models import RatingList

    from tests.support.sheets import entries

    build_demo(seed=2011, bundles=False, verify=False)  # verified in tests/office/test_demo.py
    cga = RatingList.objects.get(code="CGA")
    ed = cga.current_editions()[-1]
    top = [Player.objects.get(pk=e["player"]) for e in entries(ed) if e["status"] == "active"][:7]
    player = top[6]  # a player with a long history
    event = Event.objects.filter(rating_list=cga, code__startswith="CGA-", status="rated").order_by("-end_date")[0]
    return {"list": f"/lists/CGA/{ed.list_date}/", "compare": f"/lists/CGA/{ed.list_date}/{ed.number}/compare/",
            "player": f"/players/{player.federation_id}/", "event": f"/events/{event.code}/",
            "what_if": f"/players/{player.federation_id}/what-if/?list=CGA&format=swiss&opp={top[0].federation_id}"
                       f"&res=1&opp=2100&res=0.5&opp=1950&res=0"}


def _shots_dir() -> Path:
    where = os.environ.get("QIYUAN_SCREENSHOTS")
    path = (REPO / where) if where else ARTIFACTS
    path.mkdir(parents=True, exist_ok=True)
    return path


def _context(browser, live_server, language: str, viewport: dict):
    ctx = browser.new_context(locale="zh-CN" if language == "zh-hans" else "en-GB", viewport=viewport)
    ctx.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    return ctx


def _visit(pg, url: str, language: str) -> None:
    response = pg.goto(pg.base + url)
    assert response.status == 200, url
    found = problems(pg.content(), language)
    assert not found, (language, url, found[:5])


def _reads_on_a_phone(pg, url: str) -> None:
    """No sideways scrolling of the page, no table wider than its box, no name broken over lines."""
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], (url, width)
    # (a crosstable of many rounds, and standings with seven tie-breaks, cannot fit a phone: they scroll inside
    # their own boxes, the page does not)
    wide = pg.evaluate("""() => [...document.querySelectorAll('.scroll:not(:has(#crosstable-table, #standings-table))')].filter(
        e => e.scrollWidth > e.clientWidth + 1 && e.offsetParent !== null).map(e => e.querySelector('table')?.id
        || e.querySelector('table')?.className)""")
    assert not wide, (url, wide)
    # a name may wrap between its words (a long Latin name), never inside one (a Chinese name is one word)
    # (lines counted from the text's own line boxes: a cell is as tall as its row, which another cell may set)
    tall = pg.evaluate("""() => [...document.querySelectorAll('td.name')].filter(e => e.offsetParent !== null)
        .filter(e => { const r = document.createRange(); r.selectNodeContents(e);
                       const lines = new Set([...r.getClientRects()].map(x => Math.round(x.top))).size;
                       return lines > e.innerText.trim().split(/\\s+/).length; })
        .map(e => e.innerText)""")
    assert not tall, (url, tall[:5])
    # a column heading never breaks one character per line
    split = pg.evaluate("""() => [...document.querySelectorAll('th')].filter(e => e.offsetParent !== null)
        .filter(e => { const t = e.innerText.trim().replace(/\\s+/g, ''); if (t.length < 2) return false;
                       const r = document.createRange(); r.selectNodeContents(e);
                       const lines = new Set([...r.getClientRects()].map(x => Math.round(x.top))).size;
                       return lines >= t.length; })
        .map(e => e.innerText)""")
    assert not split, (url, split[:5])


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_main_pages_on_a_desktop_and_on_a_375_px_phone(browser, live_server, demo, language):
    """One demo office per language (building it is most of the time) for both screens."""
    _main_pages_on_a_desktop(browser, live_server, demo, language)
    _lists_and_player_pages_on_a_375_px_phone(browser, live_server, demo, language)


def _main_pages_on_a_desktop(browser, live_server, demo, language):
    ctx = _context(browser, live_server, language, DESKTOP)
    pg = ctx.new_page()
    pg.set_default_timeout(20000)
    pg.base = live_server.url
    out = _shots_dir()
    tag = "zh" if language == "zh-hans" else "en"
    try:
        for name, url in [("home", "/"), ("list", demo["list"]), ("player", demo["player"]), ("event", demo["event"]),
                          ("rules", "/rules/"), ("what-if", demo["what_if"]), ("compare", demo["compare"]),
                          ("events", "/events/")]:
            _visit(pg, url, language)
            pg.screenshot(path=str(out / f"portal-{name}-{tag}.png"), full_page=name not in ("rules", "list"))
    finally:
        ctx.close()


def _lists_and_player_pages_on_a_375_px_phone(browser, live_server, demo, language):
    """Every page kind reads on a phone: no sideways scroll, no table wider than its box, no name or heading
    broken inside a word."""
    ctx = _context(browser, live_server, language, PHONE)
    pg = ctx.new_page()
    pg.set_default_timeout(20000)
    pg.base = live_server.url
    out = _shots_dir()
    tag = "zh" if language == "zh-hans" else "en"
    try:
        for name, url in [("list", demo["list"]), ("player", demo["player"]), ("search", "/players/?q=zhang"),
                          ("events", "/events/"), ("home", "/"), ("what-if", demo["what_if"]),
                          ("calendar", "/calendar/"), ("event", demo["event"]), ("rules", "/rules/"),
                          ("lists", "/lists/"), ("compare", demo["compare"]), ("data", "/data/"),
                          ("distribution", demo["list"] + "1/distribution/")]:
            _visit(pg, url, language)
            _reads_on_a_phone(pg, url)
            if name == "player":  # the chart's axis labels read on a phone (they were about 5 px)
                smallest = pg.evaluate("""() => Math.min(...[...document.querySelectorAll('.chart text')]
                    .filter(e => e.getBoundingClientRect().height > 0).map(e => e.getBoundingClientRect().height))""")
                assert smallest >= 9, smallest
            pg.screenshot(path=str(out / f"phone-{name}-{tag}.png"), full_page=name != "list")
        # the rating is on screen on the list (the issue: it was off-screen at 375 px)
        box = pg.goto(pg.base + demo["list"]) and pg.locator("#list-table tbody tr:first-child td strong").bounding_box()
        assert box and box["x"] + box["width"] <= PHONE["width"]
    finally:
        ctx.close()
