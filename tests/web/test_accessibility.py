"""Accessibility (issue 24, item 6), checked by axe-core in Chromium: every page kind of the portal in both
languages has no serious or critical finding — the what-if's inputs labelled, a skip link, tables with captions
and header scopes. axe-core comes from npm (``npm install --no-save axe-core``: ``node_modules/``, or
``QIYUAN_AXE`` naming ``axe.min.js``); without it the test is skipped and says how to get it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .conftest import REPO
from .test_screens import _context, demo  # noqa: F401 - the demo federation fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(os.environ.get("QIYUAN_AXE") or REPO / "node_modules" / "axe-core" / "axe.min.js")


def _pages(demo) -> list[tuple[str, str]]:  # noqa: F811
    return [("home", "/"), ("lists", "/lists/"), ("list", demo["list"]), ("compare", demo["compare"]),
            ("search", "/players/?q=zhang"), ("player", demo["player"]), ("what-if", demo["what_if"]),
            ("events", "/events/"), ("event", demo["event"]), ("calendar", "/calendar/"), ("rules", "/rules/"),
            ("data", "/data/"), ("distribution", demo["list"] + "1/distribution/")]


def serious_findings(pg) -> list[str]:
    pg.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = pg.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`);
    }""")
    return result


def test_every_page_kind_has_no_serious_accessibility_finding(browser, live_server, demo):  # noqa: F811
    if not AXE.exists():
        pytest.skip(f"{AXE} is missing: npm install --no-save axe-core")
    found = {}
    for language in ("zh-hans", "en"):
        found.update(_check(browser, live_server, demo, language))
    assert not found, "\n".join(f"{k}: {v}" for k, v in found.items())


def _check(browser, live_server, demo, language: str) -> dict:  # noqa: F811
    ctx = _context(browser, live_server, language, {"width": 1280, "height": 900})
    pg = ctx.new_page()
    pg.set_default_timeout(20000)
    found: dict = {}
    try:
        for name, url in _pages(demo):
            response = pg.goto(live_server.url + url)
            assert response.status == 200, url
            bad = serious_findings(pg)
            if bad:
                found[f"{language} {name}"] = bad
        # the skip link leads to the content, and every what-if input has a name a screen reader says
        pg.goto(live_server.url + demo["what_if"])
        assert pg.locator("a.skip-link").get_attribute("href") == "#main"
        assert pg.locator("main#main").count() == 1
        labels = pg.eval_on_selector_all("#what-if-games input, #what-if-games select",
                                         "els => els.map(e => e.getAttribute('aria-label') || '')")
        assert len(labels) == 16 and all(labels)
    finally:
        ctx.close()
    return found
