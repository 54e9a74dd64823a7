"""Issue 31 on the phones, in Chromium: a Go event's phone page at 360 px in both languages (黑方/白方, the komi,
no 和棋 with a komi of 7.5, no untranslated text), and the live page redrawn by its script keeping Go's
columns (the stones or komi) when a signed result arrives."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from qiyuan.formats.trf import read_trf
from qiyuan.office.events.models import LiveEvent
from qiyuan.office.hall import cases
from qiyuan.tournament import hall
from qiyuan.tournament.state import rounds_paired

from .language_check import problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CODE = "go-hall"
GRADES = ["8k", "8k", "3k", "3k", "1d", "1d", "4d", "5d"]


def _t():
    return read_trf(LiveEvent.objects.get(code=CODE).trf_text)


def test_a_go_phone_page_and_the_live_page_in_gos_words(browser, live_server, staff, login, make_association,
                                                         settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"
    make_association("BJ", "北京")
    c = login(staff["arbiter"])
    c.post("/desk/events/new/", {"code": CODE, "name": "围棋公开赛", "fmt": "go_mcmahon", "rounds": 4,
                                 "start": "2026-05-01"})
    for i, grade in enumerate(GRADES):
        c.post(f"/desk/events/{CODE}/players/", {"name": f"棋手{i + 1:02d}", "sex": "m", "title": grade,
                                                 "association": "BJ", "birth": "2000-01-01"})
    c.post(f"/desk/events/{CODE}/pair/")
    assert rounds_paired(_t()) == 1
    b = hall.boards_of(_t(), 1)[0]
    for language, locale in (("zh-hans", "zh-CN"), ("en", "en-GB")):
        ctx = browser.new_context(locale=locale, viewport={"width": 360, "height": 740}, is_mobile=True)
        ctx.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        pg = ctx.new_page()
        pg.goto(live_server.url + f"/hall/e/{CODE}/{cases.player_link_token(CODE, b.first)}/")
        main = pg.inner_text("main")
        assert ("黑方" in main and "分先，黑贴 7.5 目" in main) if language == "zh-hans" else \
            ("Black" in main and "black gives 7.5 komi" in main)
        assert pg.locator("button[name=result]").count() == 2  # black wins, white wins: no jigo with 7.5
        assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert not problems(pg.content(), language)
        ctx.close()

    visitor = browser.new_context(locale="zh-CN").new_page()
    visitor.goto(live_server.url + f"/hall/live/{CODE}/")
    first_row = visitor.locator("#live-boards tr").first.locator("td")
    assert first_row.count() == 5 and first_row.nth(4).inner_text() == "分先，黑贴 7.5 目"
    c.post(f"/desk/events/{CODE}/results/", {"round": 1, f"r-{b.first}-{b.second}": "1"})
    cache.clear()
    visitor.wait_for_function("document.querySelector('#live-boards td.result').textContent !== ''",
                              timeout=30000)
    first_row = visitor.locator("#live-boards tr").first.locator("td")
    assert first_row.nth(2).inner_text() == "1-0" and first_row.nth(4).inner_text() == "分先，黑贴 7.5 目"
    visitor.context.close()
